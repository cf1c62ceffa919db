//! Match runs as a person asks for them: load a match suite with its rules
//! and catalog, build the ghost pool from the run's seed matches, and play
//! one match or all of them.

use std::path::{Path, PathBuf};

use crate::batch;
use crate::catalog::Catalog;
use crate::config::{self, Diagnostic};
use crate::matches::{GhostPool, MatchCtx, MatchResult, MatchSuite};
use crate::settings::Rules;

fn whole(message: impl Into<String>) -> Vec<Diagnostic> {
    vec![Diagnostic::whole_file(Path::new("gridsim"), message)]
}

/// A match suite with the rules and catalog it runs on.
pub struct LoadedMatches {
    pub rules: Rules,
    pub catalog: Catalog,
    pub suite: MatchSuite,
}

impl LoadedMatches {
    pub fn from_files(rules: &Path, cards: &[PathBuf], suite: &Path) -> Result<LoadedMatches, Vec<Diagnostic>> {
        let rules = config::load_rules(rules)?;
        let catalog = config::load_catalog(cards)?;
        let suite = config::load_match_suite(suite, &catalog, &rules)?;
        Ok(LoadedMatches { rules, catalog, suite })
    }

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
pub fn play_one(loaded: &LoadedMatches, index: u64, threads: usize) -> Result<MatchResult, Vec<Diagnostic>> {
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
    let mut engine = crate::engine::Engine::new(&loaded.catalog, loaded.rules);
    Ok(crate::matches::play(
        &ctx,
        &mut engine,
        index,
        pool_for(&ctx, index, &pool, &empty),
    ))
}
