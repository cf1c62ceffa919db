pub mod atomic;
pub mod diagnostics;
pub mod limits;
pub mod rng;
pub mod rule_book;
