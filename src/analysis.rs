//! The only module that knows polars: lazy scans over a run's `fights`
//! parts, reduced to per-board and per-matchup tallies. Everything the
//! report shows is built from these small tables.

use std::path::PathBuf;

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

fn err(e: PolarsError) -> String {
    format!("aggregating the run failed: {e}")
}

fn scan(files: &[PathBuf]) -> Result<LazyFrame, String> {
    let mut frames = Vec::with_capacity(files.len());
    for f in files {
        let path = PlRefPath::try_from_path(f).map_err(err)?;
        frames.push(LazyFrame::scan_parquet(path, ScanArgsParquet::default()).map_err(err)?);
    }
    if frames.is_empty() {
        return Err("the run holds no finished parts".into());
    }
    concat(frames, UnionArgs::default()).map_err(err)
}

fn u64s(df: &DataFrame, name: &str) -> Result<Vec<u64>, String> {
    let c = df.column(name).map_err(err)?;
    let s = c.as_materialized_series().cast(&DataType::UInt64).map_err(err)?;
    Ok(s.u64()
        .map_err(err)?
        .to_vec()
        .into_iter()
        .map(|v| v.unwrap_or(0))
        .collect())
}

/// Tallies the `fights` part files of a run (or of several shards of one).
pub fn tally(fight_files: &[PathBuf]) -> Result<Tallies, String> {
    let fights = scan(fight_files)?;
    let win = |side: &str| col("winner").eq(lit(side.to_string())).cast(DataType::UInt64);
    let left = fights.clone().select([
        col("left_board").alias("board_id"),
        win("left").alias("win"),
        win("draw").alias("draw"),
    ]);
    let right = fights.clone().select([
        col("right_board").alias("board_id"),
        win("right").alias("win"),
        win("draw").alias("draw"),
    ]);
    let per_board = concat([left, right], UnionArgs::default())
        .map_err(err)?
        .group_by([col("board_id")])
        .agg([
            len().cast(DataType::UInt64).alias("n"),
            col("win").sum().alias("wins"),
            col("draw").sum().alias("draws"),
        ])
        .sort(["board_id"], SortMultipleOptions::default())
        .collect()
        .map_err(err)?;
    let per_matchup = fights
        .group_by([col("left_board"), col("right_board")])
        .agg([
            len().cast(DataType::UInt64).alias("n"),
            win("left").sum().alias("left_wins"),
            win("right").sum().alias("right_wins"),
            win("draw").sum().alias("draws"),
        ])
        .sort(["left_board", "right_board"], SortMultipleOptions::default())
        .collect()
        .map_err(err)?;

    let (ids, n, wins, draws) = (
        u64s(&per_board, "board_id")?,
        u64s(&per_board, "n")?,
        u64s(&per_board, "wins")?,
        u64s(&per_board, "draws")?,
    );
    let boards: Vec<BoardTally> = (0..ids.len())
        .map(|i| BoardTally {
            board_id: ids[i] as u32,
            fights: n[i],
            wins: wins[i],
            draws: draws[i],
        })
        .collect();
    let (l, r, n, lw, rw, d) = (
        u64s(&per_matchup, "left_board")?,
        u64s(&per_matchup, "right_board")?,
        u64s(&per_matchup, "n")?,
        u64s(&per_matchup, "left_wins")?,
        u64s(&per_matchup, "right_wins")?,
        u64s(&per_matchup, "draws")?,
    );
    let matchups: Vec<MatchupTally> = (0..l.len())
        .map(|i| MatchupTally {
            left: l[i] as u32,
            right: r[i] as u32,
            fights: n[i],
            left_wins: lw[i],
            right_wins: rw[i],
            draws: d[i],
        })
        .collect();
    let total = matchups.iter().map(|m| m.fights).sum();
    Ok(Tallies {
        fights: total,
        boards,
        matchups,
    })
}
