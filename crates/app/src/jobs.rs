//! The commands that read files and compute without writing a run: one
//! fight between two board files, a bench of a suite, the conformance
//! scenarios. Each is one call from the command line's validated arguments;
//! runs, resumes, replays and reports live in `runs.rs`.

use std::path::{Path, PathBuf};

use crate::runs::Error;
use gridsim_config::{self as config, Diagnostic};
use gridsim_data::batch::{self, BenchStats};
use gridsim_engine::output::{self, FightReport};
use gridsim_engine::{Engine, FightRng};
use gridsim_sim::scenario::{self, ScenarioReport};

/// One fight between two board files under a rules file and a catalog,
/// on stream 0 of `seed`; the event log kept when `with_log`, and the
/// fight page drawn when `with_page`.
pub fn fight(
    rules: &Path,
    cards: &[PathBuf],
    left: &Path,
    right: &Path,
    seed: u64,
    with_log: bool,
    with_page: bool,
) -> Result<(FightReport, Option<String>), Error> {
    let rules = config::load_rules(rules)?;
    let catalog = config::load_catalog(cards)?;
    let l = config::load_board(left, &catalog, &rules)?;
    let r = config::load_board(right, &catalog, &rules)?;
    let mut engine = Engine::new(&catalog, rules);
    if with_log {
        engine.enable_log();
    }
    if with_page {
        engine.enable_trace();
    }
    engine.fight(&l, &r, FightRng::for_fight(seed, 0));
    let mut report = output::fight_report(&mut engine, &l.name, &r.name, seed, 0, with_log || with_page);
    let page = with_page.then(|| gridsim_present::fight_page::html(&engine, &report));
    if !with_log {
        report.log = None;
    }
    Ok((report, page))
}

/// What `gridsim bench` measured, with the suite it ran.
pub struct Benched {
    pub suite: String,
    pub boards: usize,
    pub stats: BenchStats,
}

/// Runs a suite's fights (or `fights` of them) without keeping output.
pub fn bench(
    rules: &Path,
    cards: &[PathBuf],
    suite: &Path,
    fights: Option<u64>,
    threads: usize,
) -> Result<Benched, Error> {
    let rules = config::load_rules(rules)?;
    let catalog = config::load_catalog(cards)?;
    let s = config::load_suite(suite, &catalog, &rules)?;
    let n = fights.unwrap_or(s.fights);
    let stats = batch::bench(
        &s,
        &catalog,
        &rules,
        threads,
        n,
        gridsim_data::dataset::DEFAULT_PART_SIZE,
    )
    .map_err(|e| Error::file(suite, e))?;
    Ok(Benched {
        suite: s.name.clone(),
        boards: s.boards.len(),
        stats,
    })
}

/// Loads the catalog and runs every scenario file under `paths`, in path
/// order; every file that does not load is reported, none is skipped.
pub fn scenarios(rules: &Path, cards: &[PathBuf], paths: &[PathBuf]) -> Result<Vec<ScenarioReport>, Error> {
    let rules = config::load_rules(rules)?;
    let catalog = config::load_catalog(cards)?;
    let files = config::toml_files(paths).map_err(|d| vec![d])?;
    let mut reports = Vec::new();
    let mut bad = Vec::new();
    for f in files {
        let text = match std::fs::read_to_string(&f) {
            Ok(t) => t,
            Err(e) => {
                bad.push(Diagnostic::whole_file(&f, format!("cannot read file: {e}")));
                continue;
            }
        };
        match scenario_report(&f, &text, &catalog, &rules) {
            Ok(r) => reports.push(r),
            Err(mut d) => bad.append(&mut d),
        }
    }
    if bad.is_empty() {
        Ok(reports)
    } else {
        Err(Error::Files(bad))
    }
}

/// Loads and runs one scenario file's text: a match scenario (one with a
/// `[suite]` table) or a fight scenario.
pub fn scenario_report(
    file: &Path,
    text: &str,
    catalog: &gridsim_model::catalog::Catalog,
    rules: &gridsim_model::settings::Rules,
) -> Result<ScenarioReport, Vec<Diagnostic>> {
    if config::is_riftbound_game_scenario(text) {
        config::parse_riftbound_game_scenario(file, text).map(|s| gridsim_sim::riftbound_game_scenario::run(&s))
    } else if config::is_riftbound_scenario(text) {
        config::parse_riftbound_scenario(file, text).map(|s| gridsim_sim::riftbound_scenario::run(&s))
    } else if config::is_match_scenario(text) {
        config::parse_match_scenario(file, text, catalog, rules).map(|s| scenario::run_match(&s, catalog, rules))
    } else {
        config::scenario::parse_scenario(file, text, catalog, rules).map(|s| scenario::run(&s, rules))
    }
}
