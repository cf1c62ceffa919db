//! Riftbound runs as a person asks for them: a Riftbound suite with the
//! catalog it names, loaded and checked, as the [`RunInputs`] that
//! [`crate::runs::start`] and [`crate::runs::resume`] take, so a run of
//! showdowns has the parts, shards, resume and report of a run of fights;
//! and one showdown played alone with its log. The same for a game suite
//! ([`LoadedGames`]): whole games between decks, its decks copied into the
//! run as its boards.

use std::path::{Path, PathBuf};

use crate::runs::{self, Error, RunInputs, read_text, whole};
use gridsim_config as config;
use gridsim_core::atomic;
use gridsim_data::batch::{self, RunSummary};
use gridsim_data::dataset::{self, FileEntry, Manifest, RunIdentity, RunKind};
use gridsim_data::game_rows::Games;
use gridsim_data::showdown_rows::Showdowns;
use gridsim_riftbound::Event;
use gridsim_riftbound::cards::Catalog;
use gridsim_riftbound::showdown::{Outcome, Showdown};
use gridsim_riftbound_game::{Game, GameEvent, GameOutcome};
use gridsim_sim::riftbound_games::{GamePairing, GameSuite};
use gridsim_sim::riftbound_suite::{Pairing, Suite};

/// A Riftbound suite with its catalog, and the texts they were read from.
pub struct LoadedRiftbound {
    pub catalog: Catalog,
    pub suite: Suite,
    pub suite_text: String,
    pub card_files: Vec<(PathBuf, String)>,
}

impl LoadedRiftbound {
    /// Loads the suite at `suite` with the catalog under `cards`, or the
    /// one the suite names.
    pub fn load(suite: &Path, cards: Option<&Path>) -> Result<LoadedRiftbound, Error> {
        let suite_text = read_text(suite)?;
        let cards = match cards {
            Some(c) => c.to_path_buf(),
            None => config::riftbound_suite_catalog(suite, &suite_text)?,
        };
        let card_files = runs::read_card_files(std::slice::from_ref(&cards))?;
        let catalog = config::load_riftbound_catalog(&[cards])?;
        let suite = config::parse_riftbound_suite(suite, &suite_text, &catalog)?;
        Ok(LoadedRiftbound {
            catalog,
            suite,
            suite_text,
            card_files,
        })
    }

    /// Plays showdown `id` of the suite alone, with its log.
    pub fn show(&self, id: u64) -> Shown {
        let (pairing, mut rng) = self.suite.pairing(id);
        let (a, d) = if pairing.left_attacks {
            (pairing.left, pairing.right)
        } else {
            (pairing.right, pairing.left)
        };
        let mut s = Showdown::new(&self.catalog, true);
        let outcome = s.play(
            &self.suite.lanes[a as usize],
            &self.suite.lanes[d as usize],
            self.suite.policy,
            &mut rng,
        );
        let units = s
            .board
            .units()
            .map(|u| (s.board.controller(u), self.catalog.card(s.board.card(u)).name.clone()))
            .collect();
        Shown {
            pairing,
            outcome,
            log: std::mem::take(&mut s.board.log),
            units,
        }
    }
}

/// Plays the suite's showdowns (or `showdowns` of them) without keeping
/// output.
pub fn bench(
    suite: &Path,
    showdowns: Option<u64>,
    threads: usize,
) -> Result<(LoadedRiftbound, gridsim_data::showdown_rows::ShowdownBench), Error> {
    let loaded = LoadedRiftbound::load(suite, None)?;
    let n = showdowns.unwrap_or(loaded.suite.showdowns);
    let b = gridsim_data::showdown_rows::bench(&loaded.suite, &loaded.catalog, threads, n)
        .map_err(|e| Error::file(suite, e))?;
    Ok((loaded, b))
}

/// One showdown played alone.
pub struct Shown {
    pub pairing: Pairing,
    pub outcome: Outcome,
    pub log: Vec<Event>,
    /// Each unit on the board, by index: its player (0 attacks) and name.
    pub units: Vec<(u8, String)>,
}

impl RunInputs for LoadedRiftbound {
    const KIND: RunKind = RunKind::Showdowns;

    /// A Riftbound suite names its own catalog; the rules file and card
    /// folders of Gridforged do not apply.
    fn from_files(_rules: &Path, _cards: &[PathBuf], suite: &Path) -> Result<LoadedRiftbound, Error> {
        LoadedRiftbound::load(suite, None)
    }

    fn from_copies(dir: &Path) -> Result<LoadedRiftbound, Error> {
        LoadedRiftbound::load(&dir.join(dataset::INPUT_SUITE), Some(&dir.join(dataset::INPUT_CARDS)))
    }

    fn suite_name(&self) -> &str {
        &self.suite.name
    }

    fn count_and_seed(&mut self) -> (&mut u64, &mut u64) {
        (&mut self.suite.showdowns, &mut self.suite.master_seed)
    }

    fn suite_boards(&self) -> u64 {
        self.suite.lanes.len() as u64
    }

    fn identity(&self, part_size: u64) -> RunIdentity {
        RunIdentity {
            kind: RunKind::Showdowns,
            rules_sha256: atomic::sha256(gridsim_core::rule_book::RIFTBOUND_RULINGS.as_bytes()),
            catalog_hash: self.catalog.fingerprint(),
            suite_sha256: atomic::sha256(self.suite_text.as_bytes()),
            master_seed: self.suite.master_seed,
            count: self.suite.showdowns,
            part_size,
        }
    }

    fn write_inputs(&self, dir: &Path) -> Result<Vec<FileEntry>, String> {
        runs::write_input_copies(dir, None, &self.suite_text, &self.card_files, &[])
    }

    fn run_parts(&self, manifest: Manifest, dir: &Path, threads: usize, progress: bool) -> Result<RunSummary, Error> {
        let work = Showdowns {
            suite: &self.suite,
            catalog: &self.catalog,
        };
        batch::run(&work, manifest, dir, threads, progress).map_err(whole)
    }
}

/// A Riftbound game suite with its catalog and decks, and the texts they
/// were read from.
pub struct LoadedGames {
    pub catalog: Catalog,
    pub suite: GameSuite,
    pub suite_text: String,
    pub card_files: Vec<(PathBuf, String)>,
    pub deck_files: Vec<(PathBuf, String)>,
}

impl LoadedGames {
    /// Loads the game suite at `suite`, with the catalog and decks it
    /// names, or those under `copies` (a run directory's `inputs/`).
    pub fn load(suite: &Path, copies: Option<&Path>) -> Result<LoadedGames, Error> {
        let suite_text = read_text(suite)?;
        let source = config::parse_game_suite(suite, &suite_text)?;
        let (cards, decks) = match copies {
            Some(dir) => (
                vec![dir.join(dataset::INPUT_CARDS)],
                vec![dir.join(dataset::INPUT_BOARDS)],
            ),
            None => (vec![source.catalog_dir.clone()], source.deck_paths.clone()),
        };
        let card_files = runs::read_card_files(&cards)?;
        let deck_files = runs::read_card_files(&decks)?;
        let catalog = config::load_riftbound_catalog(&cards)?;
        let mut suite_loaded = source.suite;
        suite_loaded.decks = config::load_decks(&decks, &catalog, &suite_loaded.settings)?;
        if suite_loaded.decks.is_empty() {
            return Err(Error::file(suite, "the suite names no deck".to_string()));
        }
        Ok(LoadedGames {
            catalog,
            suite: suite_loaded,
            suite_text,
            card_files,
            deck_files,
        })
    }

    /// Plays game `id` of the suite alone, with its log.
    pub fn show(&self, id: u64) -> (GamePairing, GameOutcome, Vec<GameEvent>) {
        let (pairing, rng) = self.suite.pairing(id);
        let mut g = Game::new(&self.catalog, self.suite.settings, true);
        let o = g.play(
            [self.suite.deck(&pairing, 0), self.suite.deck(&pairing, 1)],
            pairing.bots,
            rng,
        );
        (pairing, o, std::mem::take(&mut g.log))
    }
}

/// Plays the suite's games (or `games` of them) without keeping output.
pub fn bench_games(
    suite: &Path,
    games: Option<u64>,
    threads: usize,
) -> Result<(LoadedGames, gridsim_data::game_rows::GameBench), Error> {
    let loaded = LoadedGames::load(suite, None)?;
    let n = games.unwrap_or(loaded.suite.games);
    let b = gridsim_data::game_rows::bench(&loaded.suite, &loaded.catalog, threads, n)
        .map_err(|e| Error::file(suite, e))?;
    Ok((loaded, b))
}

impl RunInputs for LoadedGames {
    const KIND: RunKind = RunKind::Games;

    /// A game suite names its own catalog and decks.
    fn from_files(_rules: &Path, _cards: &[PathBuf], suite: &Path) -> Result<LoadedGames, Error> {
        LoadedGames::load(suite, None)
    }

    fn from_copies(dir: &Path) -> Result<LoadedGames, Error> {
        LoadedGames::load(&dir.join(dataset::INPUT_SUITE), Some(dir))
    }

    fn suite_name(&self) -> &str {
        &self.suite.name
    }

    fn count_and_seed(&mut self) -> (&mut u64, &mut u64) {
        (&mut self.suite.games, &mut self.suite.master_seed)
    }

    fn suite_boards(&self) -> u64 {
        self.suite.decks.len() as u64
    }

    fn identity(&self, part_size: u64) -> RunIdentity {
        let decks: String = self.deck_files.iter().map(|(_, t)| t.as_str()).collect();
        RunIdentity {
            kind: RunKind::Games,
            rules_sha256: atomic::sha256(gridsim_core::rule_book::RIFTBOUND_RULINGS.as_bytes()),
            catalog_hash: self.catalog.fingerprint(),
            suite_sha256: atomic::sha256(format!("{}{decks}", self.suite_text).as_bytes()),
            master_seed: self.suite.master_seed,
            count: self.suite.games,
            part_size,
        }
    }

    fn write_inputs(&self, dir: &Path) -> Result<Vec<FileEntry>, String> {
        runs::write_input_copies(dir, None, &self.suite_text, &self.card_files, &self.deck_files)
    }

    fn run_parts(&self, manifest: Manifest, dir: &Path, threads: usize, progress: bool) -> Result<RunSummary, Error> {
        let work = Games::new(&self.suite, &self.catalog);
        batch::run(&work, manifest, dir, threads, progress).map_err(whole)
    }
}
