//! A run of whole Riftbound games: the suite's games played part by part
//! through the batch runner ([`crate::batch::Workload`]), each part's
//! `games` table, and the decks as the run's `boards` table, so that the
//! report of boards reads a run of games as it reads a run of fights: a
//! deck is a board, a card's rows are the decks that hold it
//! (docs/riftbound.md).

use crate::Error;
use std::path::Path;

use crate::batch::{Workload, entry};
use crate::dataset::{self, FileEntry, Manifest, RunKind};
use crate::sink::{self, BoardRow, CardEventColumns, GameColumns};
use gridsim_riftbound::cards::Catalog;
use gridsim_riftbound_game::{Game, Seat};
use gridsim_sim::riftbound_games::GameSuite;

/// The games of a suite, as a workload.
pub struct Games<'a> {
    pub suite: &'a GameSuite,
    pub catalog: &'a Catalog,
    /// Card ids by catalog index, for the `card_events` table.
    pub card_names: Vec<String>,
}

impl<'a> Games<'a> {
    pub fn new(suite: &'a GameSuite, catalog: &'a Catalog) -> Games<'a> {
        Games {
            suite,
            catalog,
            card_names: catalog.cards.iter().map(|c| c.key.clone()).collect(),
        }
    }
}

/// A worker's buffers: a part's games and its cards' events.
#[derive(Debug, Default)]
pub struct GameRows {
    pub games: GameColumns,
    pub cards: CardEventColumns,
}

impl<'a> Workload for Games<'a> {
    type Worker = (Game<'a>, GameRows);

    fn kind(&self) -> RunKind {
        RunKind::Games
    }

    fn worker(&self) -> Self::Worker {
        (Game::new(self.catalog, self.suite.settings, false), GameRows::default())
    }

    fn write_run_tables(&self, manifest: &mut Manifest, dir: &Path) -> Result<(), Error> {
        crate::batch::write_boards_once(manifest, dir, || deck_rows(self.suite, self.catalog))
    }

    fn play_part(
        &self,
        (game, rows): &mut Self::Worker,
        part: u64,
        first: u64,
        count: u64,
        dir: &Path,
    ) -> Result<Vec<FileEntry>, Error> {
        play(game, self.suite, first, count, rows);
        let name = dataset::part_file("games", part);
        let written = sink::write_games(&dir.join(&name), &rows.games)?;
        let cards = dataset::part_file("card_events", part);
        let cards_written = sink::write_card_events(&dir.join(&cards), &rows.cards, &self.card_names)?;
        Ok(vec![entry(&name, &written), entry(&cards, &cards_written)])
    }
}

/// Plays games `first..first + count` into `rows` (cleared first).
pub fn play(game: &mut Game, suite: &GameSuite, first: u64, count: u64, all: &mut GameRows) {
    all.games.clear();
    all.cards.clear();
    let side = |s: Seat| if s == 0 { "left" } else { "right" };
    for id in first..first + count {
        let (pair, rng) = suite.pairing(id);
        let o = game.play([suite.deck(&pair, 0), suite.deck(&pair, 1)], pair.bots, rng);
        let cards = &mut all.cards;
        for e in &game.card_events {
            cards.fight_id.push(id);
            cards.side.push(side(e.seat));
            cards.turn.push(e.turn);
            cards.card.push(u32::from(e.card));
            cards.event.push(e.kind.name());
            cards.energy.push(u32::from(e.energy));
            cards.power.push(u32::from(e.power));
        }
        let rows = &mut all.games;
        rows.fight_id.push(id);
        rows.master_seed.push(suite.master_seed);
        rows.left_board.push(pair.decks[0]);
        rows.right_board.push(pair.decks[1]);
        rows.left_bot.push(pair.bots[0].name());
        rows.right_bot.push(pair.bots[1].name());
        rows.first.push(side(o.first));
        rows.winner.push(o.winner.map_or("draw", side));
        rows.end_reason.push(o.reason.name());
        rows.turns.push(o.turns);
        rows.left_score.push(o.score[0]);
        rows.right_score.push(o.score[1]);
        rows.showdowns.push(o.showdowns);
    }
}

/// The `boards` table of a suite: each deck's cards (its Chosen Champion,
/// then the main deck, each card once) and their keywords.
pub fn deck_rows(suite: &GameSuite, catalog: &Catalog) -> Vec<BoardRow> {
    suite
        .decks
        .iter()
        .enumerate()
        .map(|(i, deck)| {
            let mut cards = vec![deck.champion];
            for &c in &deck.main {
                if !cards.contains(&c) {
                    cards.push(c);
                }
            }
            let mut keywords: Vec<String> = cards
                .iter()
                .flat_map(|&c| catalog.card(c).keywords())
                .map(str::to_string)
                .collect();
            keywords.sort();
            keywords.dedup();
            BoardRow {
                board_id: i as u32,
                name: deck.name.clone(),
                cards: cards.iter().map(|&c| catalog.card(c).key.clone()).collect(),
                tiers: Vec::new(),
                runes: Vec::new(),
                rune_tiers: Vec::new(),
                resonance: String::new(),
                keywords,
                footprints: Vec::new(),
            }
        })
        .collect()
}

/// What a bench of games measured.
#[derive(Debug, Clone)]
pub struct GameBench {
    pub games: u64,
    pub seconds: f64,
    pub threads: usize,
    pub mean_turns: f64,
    pub mean_showdowns: f64,
}

/// Plays `games` games of a suite across `threads` workers (0: one per
/// core), filling the rows a run writes but keeping none of them.
pub fn bench(suite: &GameSuite, catalog: &Catalog, threads: usize, games: u64) -> Result<GameBench, Error> {
    use std::sync::atomic::{AtomicU64, Ordering};
    let turns = AtomicU64::new(0);
    let showdowns = AtomicU64::new(0);
    let (seconds, threads) = crate::batch::time_parts(
        threads,
        games,
        dataset::DEFAULT_PART_SIZE,
        || (Game::new(catalog, suite.settings, false), GameRows::default()),
        |(game, all), first, count| {
            play(game, suite, first, count, all);
            let rows = &all.games;
            turns.fetch_add(rows.turns.iter().map(|&n| u64::from(n)).sum(), Ordering::Relaxed);
            showdowns.fetch_add(rows.showdowns.iter().map(|&n| u64::from(n)).sum(), Ordering::Relaxed);
        },
    )?;
    let n = games.max(1) as f64;
    Ok(GameBench {
        games,
        seconds,
        threads,
        mean_turns: turns.load(Ordering::Relaxed) as f64 / n,
        mean_showdowns: showdowns.load(Ordering::Relaxed) as f64 / n,
    })
}
