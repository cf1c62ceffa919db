//! A Riftbound run's rows: the suite's showdowns played part by part
//! through the batch runner ([`crate::batch::Workload`]), each part's
//! `showdowns` table, and the lanes as the run's `boards` table, so that
//! the report of boards reads a Riftbound run as it reads a run of fights
//! (docs/riftbound.md).

use crate::Error;
use std::path::Path;

use crate::batch::{Workload, entry};
use crate::dataset::{self, FileEntry, Manifest, RunKind};
use crate::sink::{self, BoardRow, ShowdownColumns};
use gridsim_riftbound::cards::Catalog;
use gridsim_riftbound::showdown::{End, Lane, Showdown};
use gridsim_sim::riftbound_suite::Suite;

/// The showdowns of a suite, as a workload.
pub struct Showdowns<'a> {
    pub suite: &'a Suite,
    pub catalog: &'a Catalog,
}

impl<'a> Workload for Showdowns<'a> {
    type Worker = (Showdown<'a>, ShowdownColumns);

    fn kind(&self) -> RunKind {
        RunKind::Showdowns
    }

    fn worker(&self) -> Self::Worker {
        (Showdown::new(self.catalog, false), ShowdownColumns::default())
    }

    fn write_run_tables(&self, manifest: &mut Manifest, dir: &Path) -> Result<(), Error> {
        crate::batch::write_boards_once(manifest, dir, || lane_rows(self.suite, self.catalog))
    }

    fn play_part(
        &self,
        (showdown, rows): &mut Self::Worker,
        part: u64,
        first: u64,
        count: u64,
        dir: &Path,
    ) -> Result<Vec<FileEntry>, Error> {
        play(showdown, self.suite, first, count, rows);
        let name = dataset::part_file("showdowns", part);
        let written = sink::write_showdowns(&dir.join(&name), rows)?;
        Ok(vec![entry(&name, &written)])
    }
}

/// Plays showdowns `first..first + count` into `rows` (cleared first).
pub fn play(showdown: &mut Showdown, suite: &Suite, first: u64, count: u64, rows: &mut ShowdownColumns) {
    rows.clear();
    for id in first..first + count {
        let (pair, mut rng) = suite.pairing(id);
        let left = &suite.lanes[pair.left as usize];
        let right = &suite.lanes[pair.right as usize];
        let (attacker, defender) = if pair.left_attacks {
            (left, right)
        } else {
            (right, left)
        };
        let o = showdown.play(attacker, defender, suite.policy, &mut rng);
        // Players 0 and 1 are attacker and defender; the table's sides are
        // the lanes'.
        let side_of = |p: u8| if (p == 0) == pair.left_attacks { "left" } else { "right" };
        let left_player = usize::from(!pair.left_attacks);
        rows.fight_id.push(id);
        rows.master_seed.push(suite.master_seed);
        rows.left_board.push(pair.left);
        rows.right_board.push(pair.right);
        rows.attacker.push(side_of(0));
        rows.winner.push(o.winner.map_or("draw", side_of));
        rows.end_reason.push(o.end.name());
        rows.chain_items.push(o.resolved);
        rows.spells_played.push(o.played);
        rows.left_survivors.push(o.survivors[left_player]);
        rows.right_survivors.push(o.survivors[1 - left_player]);
        debug_assert_eq!(o.dropped, 0, "showdown {id}: the chain overflowed");
        debug_assert!(o.end != End::Conquer || o.winner == Some(0));
    }
}

/// The `boards` table of a suite: each lane's units, gear and spells as
/// its cards (with no tiers: Riftbound has none, so the report has no
/// rows of cards at a tier), and their keywords.
pub fn lane_rows(suite: &Suite, catalog: &Catalog) -> Vec<BoardRow> {
    suite
        .lanes
        .iter()
        .enumerate()
        .map(|(i, lane)| {
            let cards = lane_cards(lane);
            let mut keywords: Vec<String> = cards
                .iter()
                .flat_map(|&c| catalog.card(c).keywords())
                .map(str::to_string)
                .collect();
            keywords.sort();
            keywords.dedup();
            BoardRow {
                board_id: i as u32,
                name: format!("lane {i}"),
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

/// A lane's cards: units, then gear, then the hand.
fn lane_cards(lane: &Lane) -> Vec<u16> {
    let units = lane.units.iter().map(|u| u.card);
    let gear = lane.units.iter().filter_map(|u| u.gear);
    units.chain(gear).chain(lane.hand.iter().copied()).collect()
}

/// What a bench of showdowns measured.
#[derive(Debug, Clone)]
pub struct ShowdownBench {
    pub showdowns: u64,
    pub seconds: f64,
    pub threads: usize,
    pub mean_chain_items: f64,
    pub mean_spells: f64,
}

/// Plays `showdowns` showdowns of a suite across `threads` workers (0: one
/// per core), filling the rows a run writes but keeping none of them.
pub fn bench(suite: &Suite, catalog: &Catalog, threads: usize, showdowns: u64) -> Result<ShowdownBench, Error> {
    use std::sync::atomic::{AtomicU64, Ordering};
    let items = AtomicU64::new(0);
    let spells = AtomicU64::new(0);
    let (seconds, threads) = crate::batch::time_parts(
        threads,
        showdowns,
        dataset::DEFAULT_PART_SIZE,
        || (Showdown::new(catalog, false), ShowdownColumns::default()),
        |(showdown, rows), first, count| {
            play(showdown, suite, first, count, rows);
            items.fetch_add(rows.chain_items.iter().map(|&n| u64::from(n)).sum(), Ordering::Relaxed);
            spells.fetch_add(
                rows.spells_played.iter().map(|&n| u64::from(n)).sum(),
                Ordering::Relaxed,
            );
        },
    )?;
    let n = showdowns.max(1) as f64;
    Ok(ShowdownBench {
        showdowns,
        seconds,
        threads,
        mean_chain_items: items.load(Ordering::Relaxed) as f64 / n,
        mean_spells: spells.load(Ordering::Relaxed) as f64 / n,
    })
}
