pub mod batch;
pub mod board_table;
pub mod dataset;
pub mod error;
pub mod game_rows;
pub mod match_rows;
pub mod pair_blocks;
pub mod showdown_rows;
pub mod sink;

pub use error::Error;
