//! Match runs as a person asks for them: load a match suite with its rules
//! and catalog, build the ghost pool from the run's seed matches, play one
//! match, and replay one match of a run. A match run starts and resumes
//! through [`crate::runs::start`] and [`crate::runs::resume`], as a run of
//! fights does: [`LoadedMatches`] is its [`RunInputs`].

use std::path::{Path, PathBuf};

use crate::runs::{self, RunDirs, RunInputs, Written, read_text, whole};
use crate::runs::{Argument, Error};
use gridsim_analysis::match_report::MatchReport;
use gridsim_analysis::report::ReportSettings;
use gridsim_config as config;
use gridsim_core::atomic;
use gridsim_data::batch::{self, RunSummary};
use gridsim_data::dataset::{self, FileEntry, Manifest, RunIdentity, RunKind};
use gridsim_data::match_rows::Matches;
use gridsim_model::catalog::Catalog;
use gridsim_model::settings::Rules;
use gridsim_sim::matches::{GhostPool, MatchCtx, MatchResult, MatchSuite};

/// Matches per part file unless a run asks otherwise. Rows never depend on it.
pub const DEFAULT_PART_SIZE: u64 = 256;

/// A match suite with the rules and catalog it runs on, and the texts
/// they were read from (a run keeps copies of them).
pub struct LoadedMatches {
    pub rules: Rules,
    pub catalog: Catalog,
    pub suite: MatchSuite,
    pub rules_text: String,
    pub suite_text: String,
    pub card_files: Vec<(PathBuf, String)>,
}

impl RunInputs for LoadedMatches {
    const KIND: RunKind = RunKind::Matches;

    fn from_files(rules: &Path, cards: &[PathBuf], suite: &Path) -> Result<LoadedMatches, Error> {
        let rules_text = read_text(rules)?;
        let (parsed_rules, _) = config::parse_rules(rules, &rules_text)?;
        let card_files = runs::read_card_files(cards)?;
        let catalog = config::load_catalog(cards)?;
        let suite_text = read_text(suite)?;
        let suite = config::load_match_suite(suite, &catalog, &parsed_rules)?;
        Ok(LoadedMatches {
            rules: parsed_rules,
            catalog,
            suite,
            rules_text,
            suite_text,
            card_files,
        })
    }

    fn from_copies(dir: &Path) -> Result<LoadedMatches, Error> {
        LoadedMatches::from_files(
            &dir.join(dataset::INPUT_RULES),
            &[dir.join(dataset::INPUT_CARDS)],
            &dir.join(dataset::INPUT_SUITE),
        )
    }

    fn suite_name(&self) -> &str {
        &self.suite.name
    }

    fn count_and_seed(&mut self) -> (&mut u64, &mut u64) {
        (&mut self.suite.matches, &mut self.suite.master_seed)
    }

    fn suite_boards(&self) -> u64 {
        0
    }

    fn identity(&self, part_size: u64) -> RunIdentity {
        RunIdentity {
            kind: RunKind::Matches,
            rules_sha256: atomic::sha256(self.rules_text.as_bytes()),
            catalog_hash: format!("{:016x}", self.catalog.fingerprint()),
            suite_sha256: atomic::sha256(self.suite_text.as_bytes()),
            master_seed: self.suite.master_seed,
            count: self.suite.matches,
            part_size,
        }
    }

    fn write_inputs(&self, dir: &Path) -> Result<Vec<FileEntry>, String> {
        runs::write_input_copies(dir, Some(&self.rules_text), &self.suite_text, &self.card_files, &[])
    }

    /// Every shard and every resume builds the same pool from the same
    /// seed matches, so no part depends on which process played it.
    fn run_parts(&self, manifest: Manifest, dir: &Path, threads: usize, progress: bool) -> Result<RunSummary, Error> {
        let ctx = self.ctx();
        let pool = ghost_pool(&ctx, threads).map_err(whole)?;
        batch::run(&Matches::new(&ctx, &pool), manifest, dir, threads, progress).map_err(whole)
    }

    /// A match run's report stands alone: it compares no baseline.
    fn report(runs: &RunDirs, baseline: Option<&Path>, settings: &ReportSettings) -> Result<Written, Error> {
        if baseline.is_some() {
            return Err(Error::argument(
                Argument::Baseline,
                None,
                " compares runs of fights; a match report stands alone",
            ));
        }
        read_report(runs, settings).map(Written::Matches).map_err(whole)
    }
}

impl LoadedMatches {
    pub fn ctx(&self) -> MatchCtx<'_> {
        MatchCtx::new(&self.catalog, self.rules, &self.suite)
    }
}

/// The ghost pool: the boards the run's seed matches commit, played with
/// an empty pool (docs/rules-reconstruction.md, "Nemesis ghosts").
pub fn ghost_pool(ctx: &MatchCtx, threads: usize) -> Result<GhostPool, String> {
    let seeds = batch::play_matches(ctx, &GhostPool::default(), 0, ctx.suite.pool_matches, threads)?;
    Ok(GhostPool::from_results(&seeds))
}

/// The pool match `index` plays against: empty for a seed match.
pub fn pool_for<'p>(ctx: &MatchCtx, index: u64, pool: &'p GhostPool, empty: &'p GhostPool) -> &'p GhostPool {
    if index < ctx.suite.pool_matches { empty } else { pool }
}

/// Plays match `index` of a suite (the seed matches first, for its pool).
pub fn play_one(loaded: &LoadedMatches, index: u64, threads: usize) -> Result<MatchResult, Error> {
    let ctx = loaded.ctx();
    if index >= ctx.suite.matches {
        return Err(whole(format!(
            "match {index} is not in the suite's {} matches",
            ctx.suite.matches
        )));
    }
    let empty = GhostPool::default();
    let pool = if index < ctx.suite.pool_matches {
        GhostPool::default()
    } else {
        ghost_pool(&ctx, threads).map_err(whole)?
    };
    let mut engine = gridsim_engine::Engine::new(&loaded.catalog, loaded.rules);
    Ok(gridsim_sim::matches::play(
        &ctx,
        &mut engine,
        index,
        pool_for(&ctx, index, &pool, &empty),
    ))
}

/// One match of a run, played again from the run's copy of its inputs.
pub struct ReplayedMatch {
    pub result: MatchResult,
    /// The `matches` rows the run recorded for it (one per player), when
    /// this run directory holds its part.
    pub recorded: Option<gridsim_data::sink::MatchColumns>,
}

impl ReplayedMatch {
    /// Whether the replay gives the rows the run recorded (true when there
    /// are none to compare with).
    pub fn reproduces(&self, loaded: &LoadedMatches) -> bool {
        self.recorded.as_ref().is_none_or(|rec| {
            let mut again = gridsim_data::sink::MatchTables::default();
            gridsim_data::match_rows::append(&loaded.ctx(), &self.result, &mut again);
            again.matches == *rec
        })
    }
}

/// Replays match `index` of the match run in `dir`.
pub fn replay(dir: &Path, index: u64, threads: usize) -> Result<(LoadedMatches, ReplayedMatch), Error> {
    let m = Manifest::read(dir).map_err(whole)?;
    let loaded = LoadedMatches::from_run(dir, &m)?;
    let result = play_one(&loaded, index, threads)?;
    let file = m
        .parts
        .iter()
        .find(|p| p.holds(index))
        .and_then(|p| p.file(RunKind::Matches, "matches"));
    let recorded = match file {
        Some(f) => Some(gridsim_data::sink::read_match(&dir.join(&f.path), index).map_err(whole)?),
        None => None,
    };
    Ok((loaded, ReplayedMatch { result, recorded }))
}

/// Reads the directories of a match run (one, or its shards) into its
/// report, after the checks of [`RunDirs::verified`].
pub fn report_of(dirs: &[PathBuf], settings: &ReportSettings) -> Result<MatchReport, String> {
    read_report(&RunDirs::read(dirs)?, settings)
}

fn read_report(runs: &RunDirs, settings: &ReportSettings) -> Result<MatchReport, String> {
    runs.verified(|runs| {
        let mut parts = Vec::new();
        for (d, p) in runs.parts() {
            let file = |table: &str| {
                p.file(RunKind::Matches, table)
                    .map(|f| d.join(&f.path))
                    .ok_or_else(|| format!("{}: part {} has no {table} file", d.display(), p.index))
            };
            parts.push(gridsim_analysis::analysis::MatchPart {
                matches: file("matches")?,
                rounds: file("rounds")?,
                fights: file("match_fights")?,
                picks: file("shop_picks")?,
            });
        }
        let tallies = gridsim_analysis::analysis::match_tallies(&parts)?;
        let catalog = config::load_catalog(&[runs.first().0.join(dataset::INPUT_CARDS)])
            .map_err(|d| d.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))?;
        let printed = catalog
            .cards
            .iter()
            .map(|c| (c.key.clone(), c.name.clone()))
            .chain(catalog.runes.iter().map(|r| (r.key.clone(), r.name.clone())))
            .chain(catalog.resonances.iter().map(|r| (r.key.clone(), r.name.clone())))
            .collect();
        Ok(gridsim_analysis::match_report::build(
            runs.labels(),
            &tallies,
            &printed,
            settings,
        ))
    })
}
