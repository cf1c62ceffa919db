//! gridsim: a balance-analysis batch simulator for Gridforged.
//!
//! See the README's Architecture section for the code map and invariants.

pub mod ability;
pub mod catalog;
pub mod config;
pub mod coverage;
pub mod engine;
pub mod output;
pub mod scenario;
pub mod settings;
pub mod spec;
