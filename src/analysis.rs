//! The only module that knows polars: a streaming scan over a run's `fights`
//! parts, reduced to per-matchup tallies, from which the per-board tallies
//! are derived. Everything the report shows is built from these small
//! tables.
//!
//! Memory does not grow with the number of fights: the scan reads only the
//! three columns the tallies need (`left_board`, `right_board`, `winner`),
//! polars' streaming engine hands them over batch by batch, and each batch
//! is folded into one count per matchup, at most boards² of them however
//! many fights the run (or its shards) holds.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use polars::prelude::*;

/// Results of one board, over every fight it played, on either side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BoardTally {
    pub board_id: u32,
    pub fights: u64,
    pub wins: u64,
    pub draws: u64,
}

/// Results of one ordered matchup: `left` against `right`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MatchupTally {
    pub left: u32,
    pub right: u32,
    pub fights: u64,
    pub left_wins: u64,
    pub right_wins: u64,
    pub draws: u64,
}

/// The run's tallies.
#[derive(Debug, Clone, Default)]
pub struct Tallies {
    pub fights: u64,
    pub boards: Vec<BoardTally>,
    pub matchups: Vec<MatchupTally>,
}

impl Tallies {
    /// Tallies from per-matchup results alone: a board's tally is the sum of
    /// its matchups on either side (a board meeting itself counts on both
    /// sides, once as left and once as right, as every fight does).
    pub fn from_matchups(mut matchups: Vec<MatchupTally>) -> Tallies {
        matchups.sort_by_key(|m| (m.left, m.right));
        let mut boards: BTreeMap<u32, BoardTally> = BTreeMap::new();
        for m in &matchups {
            for (board, wins) in [(m.left, m.left_wins), (m.right, m.right_wins)] {
                let b = boards.entry(board).or_insert(BoardTally {
                    board_id: board,
                    ..BoardTally::default()
                });
                b.fights += m.fights;
                b.wins += wins;
                b.draws += m.draws;
            }
        }
        Tallies {
            fights: matchups.iter().map(|m| m.fights).sum(),
            boards: boards.into_values().collect(),
            matchups,
        }
    }
}

fn err(e: PolarsError) -> String {
    format!("aggregating the run failed: {e}")
}

/// One scan over every part file, of one run or of several shards.
fn scan(files: &[PathBuf]) -> Result<LazyFrame, String> {
    if files.is_empty() {
        return Err("the run holds no finished parts".into());
    }
    let paths = files
        .iter()
        .map(|f| PlRefPath::try_from_path(f).map_err(err))
        .collect::<Result<Vec<_>, _>>()?;
    let args = ScanArgsParquet {
        // The manifest names exact files: a `[` or `*` in a folder's name is
        // not a pattern, and `key=value` folders add no columns.
        glob: false,
        hive_options: HiveOptions::new_disabled(),
        ..ScanArgsParquet::default()
    };
    LazyFrame::scan_parquet_files(paths.into(), args).map_err(err)
}

/// Per-matchup counts folded from the streamed batches: a row per matchup
/// whatever the number of fights. Board ids are small and dense (0..boards),
/// so pairs of ids below [`DENSE`] index a grid directly, the cheapest
/// count per fight; larger ids, which gridsim never writes, still count,
/// in a map.
#[derive(Default)]
struct Fold {
    /// `grid[left][right]`: fights, left wins, right wins, draws.
    grid: Vec<Vec<[u64; 4]>>,
    sparse: BTreeMap<(u32, u32), [u64; 4]>,
}

/// Ids below this index the grid (at most 32 MiB of counts).
const DENSE: u32 = 1024;

impl Fold {
    fn cell(&mut self, l: u32, r: u32) -> &mut [u64; 4] {
        if l >= DENSE || r >= DENSE {
            return self.sparse.entry((l, r)).or_default();
        }
        let (l, r) = (l as usize, r as usize);
        if l >= self.grid.len() {
            self.grid.resize_with(l + 1, Vec::new);
        }
        let row = &mut self.grid[l];
        if r >= row.len() {
            row.resize(r + 1, [0; 4]);
        }
        &mut row[r]
    }

    fn add(&mut self, df: &DataFrame) -> PolarsResult<()> {
        let left = df.column("left_board")?.u32()?.rechunk();
        let right = df.column("right_board")?.u32()?.rechunk();
        let outcome = df.column("outcome")?.u32()?.rechunk();
        // `cont_slice` refuses a column with nulls: a fight names both boards.
        let (left, right, outcome) = (left.cont_slice()?, right.cont_slice()?, outcome.cont_slice()?);
        for ((&l, &r), &o) in left.iter().zip(right).zip(outcome) {
            let cell = self.cell(l, r);
            cell[0] += 1;
            cell[o as usize] += u64::from(o != NO_OUTCOME);
        }
        Ok(())
    }

    fn matchups(self) -> Vec<MatchupTally> {
        let dense = self.grid.into_iter().enumerate().flat_map(|(l, row)| {
            row.into_iter()
                .enumerate()
                .map(move |(r, cell)| ((l as u32, r as u32), cell))
        });
        dense
            .chain(self.sparse)
            .filter(|(_, [fights, ..])| *fights > 0)
            .map(|((left, right), [fights, left_wins, right_wins, draws])| MatchupTally {
                left,
                right,
                fights,
                left_wins,
                right_wins,
                draws,
            })
            .collect()
    }
}

/// [`Fold`]'s code for a fight's `winner`: the index of the count it adds
/// to. Anything but the three outcomes (gridsim writes none) counts as a
/// fight and nothing else, as a comparison with each outcome would.
const NO_OUTCOME: u32 = 0;

fn outcome() -> Expr {
    let is = |side: &str| col("winner").eq(lit(side.to_string()));
    when(is("left"))
        .then(lit(1u32))
        .when(is("right"))
        .then(lit(2u32))
        .when(is("draw"))
        .then(lit(3u32))
        .otherwise(lit(NO_OUTCOME))
        // Integer literals are untyped until cast; UInt32 as the boards are
        // (this build of polars has no UInt8 columns).
        .cast(DataType::UInt32)
        .alias("outcome")
}

/// Tallies the `fights` part files of a run (or of several shards of one).
///
/// polars' streaming engine reads the three columns it needs batch by batch
/// on every core, turns `winner` into a small code, and hands each batch to
/// [`Fold`]. Its own streaming group-by is not used: it keeps every row whose
/// group is not among its 4,096 "hot" groups until the end, and a suite of
/// 120 boards has 14,400 matchups, so its memory grew with the number of
/// fights.
pub fn tally(fight_files: &[PathBuf]) -> Result<Tallies, String> {
    let fold = Arc::new(Mutex::new(Fold::default()));
    let sink = Arc::clone(&fold);
    scan(fight_files)?
        .select([col("left_board"), col("right_board"), outcome()])
        .sink_batches(
            PlanCallback::new(move |df: DataFrame| {
                let mut fold = sink.lock().map_err(|_| polars_err!(ComputeError: "a batch failed"))?;
                fold.add(&df)?;
                // false: keep the batches coming.
                Ok(false)
            }),
            false,
            None,
        )
        .map_err(err)?
        .collect_with_engine(Engine::Streaming)
        .map_err(err)?;
    let fold = std::mem::take(&mut *fold.lock().map_err(|_| "aggregating the run failed".to_string())?);
    Ok(Tallies::from_matchups(fold.matchups()))
}
