pub mod aliasing;
pub mod analysis;
pub mod dyadic;
pub mod effect_curve;
pub mod error;
pub mod game_cards;
pub mod game_report;
pub mod lever_effects;
pub mod marginal;
pub mod match_report;
pub mod report;
pub mod stats;

pub use error::Error;
