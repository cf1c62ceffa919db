//! gridsim: a balance-analysis batch simulator for Gridforged.
//!
//! See ARCHITECTURE.md for the layers, the code map and the invariants.

pub mod ability;
pub mod aliasing;
pub mod analysis;
pub mod atomic;
pub mod batch;
pub mod board_table;
pub mod card_text;
pub mod catalog;
pub mod cli;
pub mod config;
pub mod coverage;
pub mod dataset;
pub mod diagnostics;
pub mod dyadic;
pub mod effect_curve;
pub mod engine;
pub mod fight_page;
pub mod jobs;
pub mod lever_effects;
pub mod limits;
pub mod marginal;
pub mod match_report;
pub mod match_rows;
pub mod match_runs;
pub mod matches;
pub mod nightly;
pub mod output;
pub mod pair_blocks;
pub mod render;
pub mod report;
pub mod rule_book;
pub mod runs;
pub mod scenario;
pub mod scrip;
pub mod search;
pub mod settings;
pub mod sink;
pub mod spec;
pub mod stats;
pub mod statuses;
pub mod suite;
pub mod sweep;
pub mod tune;
