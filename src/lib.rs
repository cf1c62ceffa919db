//! gridsim: a balance-analysis batch simulator for Gridforged and Riftbound.
//!
//! This crate is the command line (`cli`) and the front of the library:
//! each layer's crate under `crates/`, its modules named here by the paths
//! the tests, benches and docs use (`gridsim::engine`, `gridsim::runs`).
//! See ARCHITECTURE.md for the crate graph, the code map and the
//! invariants.

pub mod cli;

pub use gridsim_analysis::error as analysis_error;
pub use gridsim_analysis::{
    aliasing, analysis, dyadic, effect_curve, game_cards, game_report, lever_effects, marginal, match_report, report,
    stats,
};
pub use gridsim_app::{error, jobs, match_runs, nightly, riftbound_runs, runs, search, sweep, tune};
pub use gridsim_config as config;
pub use gridsim_core::{atomic, diagnostics, limits, rng, rule_book};
pub use gridsim_data::error as data_error;
pub use gridsim_data::{batch, board_table, dataset, game_rows, match_rows, pair_blocks, showdown_rows, sink};
pub use gridsim_engine as engine;
pub use gridsim_engine::output;
pub use gridsim_model::{ability, catalog, effects, scrip, settings, spec, stacks, statuses};
pub use gridsim_present::{card_text, coverage, fight_page, game_page, render, showdown_page};
pub use gridsim_riftbound as riftbound;
pub use gridsim_riftbound_game as riftbound_game;
pub use gridsim_sim::{
    matches, riftbound_game_scenario, riftbound_games, riftbound_scenario, riftbound_suite, scenario, suite,
};
