//! The only module that knows polars: a streaming scan over a run's `fights`
//! parts, reduced to per-board tallies and per-pair tallies in blocks of
//! boards ([`gridsim_data::pair_blocks`]). Everything the report shows is built
//! from these.
//!
//! Memory does not grow with the number of fights: the scan reads only the
//! three columns the tallies need (`left_board`, `right_board`, `winner`),
//! polars' streaming engine hands them over batch by batch, and each batch
//! is folded into one count per matchup and handed to the blocks, which
//! stay in memory while small and go to disk past that.

use crate::Error;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use polars::prelude::*;

use gridsim_data::pair_blocks::{BlockWriter, PairBlocks};

/// Results of one board, over every fight it played, on either side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BoardTally {
    pub board_id: u32,
    pub fights: u64,
    pub wins: u64,
    pub draws: u64,
}

pub use gridsim_data::pair_blocks::MatchupTally;

/// The run's tallies.
#[derive(Debug)]
pub struct Tallies {
    pub fights: u64,
    pub boards: Vec<BoardTally>,
    /// Every pair of boards that met, merged over both orders (`left` ≤
    /// `right`), in blocks of boards ([`PairBlocks`]).
    pub pairs: PairBlocks,
}

impl Tallies {
    /// Tallies from per-matchup results alone, in one block: a board's
    /// tally is the sum of its matchups on either side (a board meeting
    /// itself counts on both sides, once as left and once as right, as
    /// every fight does).
    pub fn from_matchups(matchups: Vec<MatchupTally>) -> Tallies {
        let mut boards = BoardTotals::default();
        for m in &matchups {
            boards.add(m);
        }
        Tallies {
            fights: matchups.iter().map(|m| m.fights).sum(),
            boards: boards.finish(),
            pairs: PairBlocks::single(matchups),
        }
    }

    /// Tallies from blocks alone (saved ones, say): the fights and each
    /// board's tally are sums over the pairs.
    pub fn from_blocks(pairs: PairBlocks) -> Result<Tallies, Error> {
        let mut boards = BoardTotals::default();
        let mut fights = 0;
        pairs.each_pair(|m| {
            boards.add(m);
            fights += m.fights;
        })?;
        Ok(Tallies {
            fights,
            boards: boards.finish(),
            pairs,
        })
    }
}

/// Each board's results, summed matchup by matchup.
#[derive(Default)]
struct BoardTotals(std::collections::HashMap<u32, BoardTally>);

impl BoardTotals {
    fn add(&mut self, m: &MatchupTally) {
        for (board, wins) in [(m.left, m.left_wins), (m.right, m.right_wins)] {
            let b = self.0.entry(board).or_insert(BoardTally {
                board_id: board,
                ..BoardTally::default()
            });
            b.fights += m.fights;
            b.wins += wins;
            b.draws += m.draws;
        }
    }

    fn finish(self) -> Vec<BoardTally> {
        let mut boards: Vec<BoardTally> = self.0.into_values().collect();
        boards.sort_unstable_by_key(|b| b.board_id);
        boards
    }
}

impl From<PolarsError> for Error {
    fn from(e: PolarsError) -> Error {
        Error::Aggregate(e.to_string())
    }
}

fn err(e: PolarsError) -> Error {
    Error::from(e)
}

/// One scan over every part file, of one run or of several shards.
fn scan_parts(files: &[PathBuf]) -> Result<LazyFrame, Error> {
    if files.is_empty() {
        return Err(Error::NoParts);
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

/// One batch's fights counted by ordered matchup, handed to the blocks
/// (a pair fighting again in a later batch is merged there). Pairs of ids
/// below [`DENSE`] (a suite of a few hundred boards, all pairs) index a
/// grid directly, the cheapest count per fight; a larger pool (the default
/// suite's 100,000 boards, each pair meeting about once) counts in a hash
/// map.
#[derive(Default)]
struct Fold {
    /// `grid[left * DENSE + right]`: fights, left wins, right wins, draws;
    /// allocated on first use.
    grid: Vec<[u64; 4]>,
    /// The grid's cells in use, to read and clear only those.
    used: Vec<u32>,
    sparse: std::collections::HashMap<(u32, u32), [u64; 4]>,
}

/// Ids below this index the grid (16 MiB of counts).
const DENSE: u32 = 512;

impl Fold {
    fn cell(&mut self, l: u32, r: u32) -> &mut [u64; 4] {
        if l >= DENSE || r >= DENSE {
            return self.sparse.entry((l, r)).or_default();
        }
        if self.grid.is_empty() {
            self.grid = vec![[0; 4]; (DENSE * DENSE) as usize];
        }
        let at = (l * DENSE + r) as usize;
        if self.grid[at][0] == 0 {
            self.used.push(at as u32);
        }
        &mut self.grid[at]
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

    /// The batch's matchups, leaving the fold empty.
    fn drain(&mut self) -> Vec<MatchupTally> {
        let tally = |(left, right): (u32, u32), [fights, left_wins, right_wins, draws]: [u64; 4]| MatchupTally {
            left,
            right,
            fights,
            left_wins,
            right_wins,
            draws,
        };
        let mut out: Vec<MatchupTally> = Vec::with_capacity(self.used.len() + self.sparse.len());
        for at in self.used.drain(..) {
            let cell = std::mem::take(&mut self.grid[at as usize]);
            out.push(tally((at / DENSE, at % DENSE), cell));
        }
        out.extend(self.sparse.drain().map(|(pair, cell)| tally(pair, cell)));
        out
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

/// Tallies the `fights` part files of a run (or of several shards of one)
/// holding `fights` fights between boards with ids below `boards` (both
/// size the blocks; any other count still tallies right).
///
/// polars' streaming engine reads the three columns it needs batch by batch
/// on every core, turns `winner` into a small code, and hands each batch to
/// [`Fold`], whose counts go to the run's [`PairBlocks`] and its boards'
/// totals. Memory holds the boards' totals, one batch and the blocks kept
/// in memory, whatever the number of fights. polars' own streaming
/// group-by is not used: it keeps every row whose group is not among its
/// 4,096 "hot" groups until the end, and a suite of 120 boards has 14,400
/// matchups, so its memory grew with the number of fights.
pub fn tally(fight_files: &[PathBuf], fights: u64, boards: u32) -> Result<Tallies, Error> {
    struct Scan {
        fold: Fold,
        boards: BoardTotals,
        fights: u64,
        blocks: BlockWriter,
        failed: Option<gridsim_data::Error>,
    }
    let scan = Arc::new(Mutex::new(Scan {
        fold: Fold::default(),
        boards: BoardTotals::default(),
        fights: 0,
        blocks: BlockWriter::new(fights, boards)?,
        failed: None,
    }));
    let sink = Arc::clone(&scan);
    scan_parts(fight_files)?
        .select([col("left_board"), col("right_board"), outcome()])
        .sink_batches(
            PlanCallback::new(move |df: DataFrame| {
                let mut scan = sink.lock().map_err(|_| polars_err!(ComputeError: "a batch failed"))?;
                let Scan {
                    fold,
                    boards,
                    fights,
                    blocks,
                    failed,
                } = &mut *scan;
                fold.add(&df)?;
                let batch = fold.drain();
                for m in &batch {
                    boards.add(m);
                    *fights += m.fights;
                }
                if let Err(e) = blocks.add(&batch) {
                    *failed = Some(e);
                    // true: stop the scan.
                    return Ok(true);
                }
                // false: keep the batches coming.
                Ok(false)
            }),
            false,
            None,
        )
        .map_err(err)?
        .collect_with_engine(Engine::Streaming)
        .map_err(err)?;
    let scan = Arc::into_inner(scan)
        .and_then(|m| m.into_inner().ok())
        .ok_or_else(|| Error::Aggregate("a batch failed".into()))?;
    if let Some(e) = scan.failed {
        return Err(e.into());
    }
    Ok(Tallies {
        fights: scan.fights,
        boards: scan.boards.finish(),
        pairs: scan.blocks.finish()?,
    })
}

/// What the match report counts of one card, rune, keyword or reward,
/// each as sums over matches (the clusters, [`ClusterSums`]).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MatchItemTally {
    /// Per match: players whose board held the item as it fought the last
    /// round's boss (for a reward: earned before that fight), and how many
    /// of them won the match.
    pub deciding: ClusterSums,
    /// Per match: boss and nemesis fights of boards that held the item as
    /// they entered them, and the fights won (a draw half).
    pub fought: ClusterSums,
    /// Per match: copies offered in a shop, and how many of those were bought.
    pub picks: ClusterSums,
    /// Per match: purchases (offers and buybacks), and the sum of their rounds.
    pub rounds: ClusterSums,
    /// Per match: probes of the item, and the sum over them of the next
    /// fight's result with it less its result without it; split by
    /// whether the player took the offer.
    pub effect: ClusterSums,
    pub effect_taken: ClusterSums,
    pub effect_passed: ClusterSums,
    /// Times earned (rewards).
    pub earned: u64,
}

/// The four kinds of item the match report ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MatchItem {
    Card,
    Rune,
    Keyword,
    /// A boss reward's signature: a Forge Core or a resonance (200.1e).
    Reward,
}

/// What the match report counts of one bot's players, as sums over
/// matches (the clusters).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BotTally {
    /// Per match: the bot's players, and how many won.
    pub won: ClusterSums,
    /// Per match: the bot's players, and the bosses and nemeses their team beat.
    pub boss_wins: ClusterSums,
    pub nemesis_wins: ClusterSums,
    /// Per match: the bot's players, and how many combined at least once.
    pub combined: ClusterSums,
    /// Per match: the bot's players, and how many ended with a tier-3 unit.
    pub tier_three: ClusterSums,
    /// Per match: the bot's players, and how many ended with 10 Gold or more.
    pub gold_left: ClusterSums,
}

/// Gold left at the end of a match that counts as unspent in the report.
pub const GOLD_LEFT: i32 = 10;

/// A match run's tallies, its seed matches left out.
#[derive(Debug, Clone, Default)]
pub struct MatchTallies {
    /// Seed matches (played against an empty ghost pool) left out.
    pub seed_matches: u64,
    /// Matches, and rows of the matches table (one per player).
    pub matches: u64,
    pub players: u64,
    /// Per match: players, and how many won.
    pub won: ClusterSums,
    /// Per match: players, and the bosses and nemeses their team beat.
    pub boss_wins: ClusterSums,
    pub nemesis_wins: ClusterSums,
    pub items: BTreeMap<(MatchItem, String), MatchItemTally>,
    /// By bot (its policy's name).
    pub bots: BTreeMap<String, BotTally>,
    /// The part being folded: its seed matches, and each player's bot and
    /// match result, by (match, seat), for its other tables.
    seeds: std::collections::BTreeSet<u64>,
    seats: BTreeMap<(u64, u32), String>,
    won_of: BTreeMap<(u64, u32), bool>,
}

/// One finished part of a match run: its four tables' files.
#[derive(Debug, Clone)]
pub struct MatchPart {
    pub matches: PathBuf,
    pub rounds: PathBuf,
    pub fights: PathBuf,
    pub picks: PathBuf,
}

/// A fight's result as a score: won 1, a draw one half, lost 0.
fn score(outcome: &str) -> f64 {
    match outcome {
        "won" | "player" => 1.0,
        "draw" => 0.5,
        _ => 0.0,
    }
}

/// Adds each match's per-item sums to the report's tallies, `add` picking
/// the figure.
fn fold_items(
    items: &mut BTreeMap<(MatchItem, String), MatchItemTally>,
    per: BTreeMap<(MatchItem, &str), (f64, f64)>,
    add: impl Fn(&mut MatchItemTally, f64, f64),
) {
    for ((kind, key), (y, n)) in per {
        add(items.entry((kind, key.to_string())).or_default(), y, n);
    }
}

use crate::stats::ClusterSums;

/// The texts of list column `name` in row order.
fn text_lists(df: &DataFrame, name: &str) -> PolarsResult<Vec<Vec<String>>> {
    let lists = df.column(name)?.list()?;
    let mut out = Vec::with_capacity(lists.len());
    for i in 0..lists.len() {
        let mut texts = Vec::new();
        if let Some(s) = lists.get_as_series(i) {
            let s = s.str()?;
            texts.extend((0..s.len()).filter_map(|k| s.get(k)).map(str::to_string));
        }
        out.push(texts);
    }
    Ok(out)
}

/// Runs of equal values in `ids` (the rows of one match are consecutive:
/// a part writes its matches in order, each player's row in turn), as
/// index ranges.
fn runs_of(ids: &[u64]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=ids.len() {
        if i == ids.len() || ids[i] != ids[start] {
            out.push(start..i);
            start = i;
        }
    }
    out
}

fn u64s(df: &DataFrame, name: &str) -> PolarsResult<Vec<u64>> {
    Ok(df.column(name)?.u64()?.into_no_null_iter().collect())
}

fn u32s(df: &DataFrame, name: &str) -> PolarsResult<Vec<u32>> {
    Ok(df.column(name)?.u32()?.into_no_null_iter().collect())
}

fn bools(df: &DataFrame, name: &str) -> PolarsResult<Vec<bool>> {
    let c = df.column(name)?.bool()?;
    Ok((0..c.len()).map(|i| c.get(i) == Some(true)).collect())
}

fn texts(df: &DataFrame, name: &str) -> PolarsResult<Vec<String>> {
    let c = df.column(name)?.str()?;
    Ok((0..c.len()).map(|i| c.get(i).unwrap_or_default().to_string()).collect())
}

impl MatchTallies {
    /// Folds one part's `matches` table: each match (its consecutive rows)
    /// is one cluster.
    fn add_matches(&mut self, df: &DataFrame) -> PolarsResult<()> {
        let ids = u64s(df, "match_id")?;
        let seed = bools(df, "seed_match")?;
        let seat = u32s(df, "seat")?;
        let policy = texts(df, "policy")?;
        let gold = df.column("gold")?.i32()?.into_no_null_iter().collect::<Vec<i32>>();
        let tiers = df.column("tiers")?.list()?.clone();
        let won = bools(df, "won")?;
        let bosses = u32s(df, "boss_wins")?;
        let nemeses = u32s(df, "nemesis_wins")?;
        self.seeds.clear();
        self.seats.clear();
        self.won_of.clear();
        for rows in runs_of(&ids) {
            if seed[rows.start] {
                // A seed match meets only byes: its figures describe another
                // game (docs/report.md, "Match runs").
                self.seed_matches += 1;
                self.seeds.insert(ids[rows.start]);
                continue;
            }
            let n = rows.len() as f64;
            let wins = rows.clone().filter(|&i| won[i]).count() as f64;
            // Each bot's players in this match, one cluster per match:
            // (players, wins, bosses, nemeses, tier 3, Gold left).
            let mut per_bot: BTreeMap<&str, [f64; 6]> = BTreeMap::new();
            for i in rows.clone() {
                self.seats.insert((ids[i], seat[i]), policy[i].clone());
                self.won_of.insert((ids[i], seat[i]), won[i]);
                let top = tiers
                    .get_as_series(i)
                    .and_then(|t| t.i32().ok().and_then(|t| t.max()))
                    .unwrap_or(0);
                let e = per_bot.entry(policy[i].as_str()).or_default();
                e[0] += 1.0;
                e[1] += f64::from(u8::from(won[i]));
                e[2] += f64::from(bosses[i]);
                e[3] += f64::from(nemeses[i]);
                e[4] += f64::from(u8::from(top >= 3));
                e[5] += f64::from(u8::from(gold[i] >= GOLD_LEFT));
            }
            for (bot, [players, wins, beaten, nemeses_beaten, tier_three, gold_left]) in per_bot {
                let t = self.bots.entry(bot.to_string()).or_default();
                t.won.add(wins, players);
                t.boss_wins.add(beaten, players);
                t.nemesis_wins.add(nemeses_beaten, players);
                t.tier_three.add(tier_three, players);
                t.gold_left.add(gold_left, players);
            }
            self.matches += 1;
            self.players += rows.len() as u64;
            self.won.add(wins, n);
            self.boss_wins.add(rows.clone().map(|i| f64::from(bosses[i])).sum(), n);
            self.nemesis_wins
                .add(rows.clone().map(|i| f64::from(nemeses[i])).sum(), n);
        }
        Ok(())
    }

    /// Folds one part's `match_fights` table: the board each player
    /// fought with, a match at a time. An item counts once per board
    /// however many copies it holds.
    fn add_fights(&mut self, df: &DataFrame) -> PolarsResult<()> {
        let ids = u64s(df, "match_id")?;
        let round = u32s(df, "round")?;
        let seat = u32s(df, "seat")?;
        let stage = texts(df, "stage")?;
        let winner = texts(df, "winner")?;
        let cards = text_lists(df, "cards")?;
        let runes = text_lists(df, "runes")?;
        let keywords = text_lists(df, "keywords")?;
        let resonance = texts(df, "resonance")?;
        let items_of = |i: usize| {
            let mut items: Vec<(MatchItem, &str)> = cards[i]
                .iter()
                .map(|c| (MatchItem::Card, c.as_str()))
                .chain(runes[i].iter().map(|r| (MatchItem::Rune, r.as_str())))
                .chain(keywords[i].iter().map(|k| (MatchItem::Keyword, k.as_str())))
                .chain((!resonance[i].is_empty()).then_some((MatchItem::Reward, resonance[i].as_str())))
                .collect();
            items.sort();
            items.dedup();
            items
        };
        for rows in runs_of(&ids) {
            let id = ids[rows.start];
            if self.seeds.contains(&id) {
                continue;
            }
            // A rescue continues the boss fight's board; the battles are
            // the boss and nemesis fights.
            let mut fought: BTreeMap<(MatchItem, &str), (f64, f64)> = BTreeMap::new();
            let mut last_boss: BTreeMap<u32, usize> = BTreeMap::new();
            for i in rows {
                if stage[i] == "rescue" {
                    continue;
                }
                if stage[i] == "boss" && last_boss.get(&seat[i]).is_none_or(|&k| round[k] <= round[i]) {
                    last_boss.insert(seat[i], i);
                }
                for item in items_of(i) {
                    let e = fought.entry(item).or_default();
                    e.0 += score(&winner[i]);
                    e.1 += 1.0;
                }
            }
            fold_items(&mut self.items, fought, |t, y, n| t.fought.add(y, n));
            self.add_deciding(
                id,
                last_boss.iter().flat_map(|(&s, &i)| {
                    items_of(i)
                        .into_iter()
                        .filter(|(k, _)| *k != MatchItem::Reward)
                        .map(move |item| (s, item))
                }),
            );
        }
        Ok(())
    }

    /// Adds match `id`'s players holding each item in the deciding fight,
    /// `(seat, item)` once each, and how many of them won the match.
    fn add_deciding<'a>(&mut self, id: u64, held: impl IntoIterator<Item = (u32, (MatchItem, &'a str))>) {
        let mut per: BTreeMap<(MatchItem, &str), (f64, f64)> = BTreeMap::new();
        for (s, item) in held {
            let won = self.won_of.get(&(id, s)).copied().unwrap_or(false);
            let e = per.entry(item).or_default();
            e.0 += f64::from(u8::from(won));
            e.1 += 1.0;
        }
        fold_items(&mut self.items, per, |t, y, n| t.deciding.add(y, n));
    }

    /// Folds one part's `rounds` table: the boss rewards earned and their
    /// probes, a match at a time.
    fn add_rounds(&mut self, df: &DataFrame) -> PolarsResult<()> {
        let ids = u64s(df, "match_id")?;
        let round = u32s(df, "round")?;
        let seat = u32s(df, "seat")?;
        let reward = texts(df, "reward")?;
        let with = texts(df, "reward_with")?;
        let without = texts(df, "reward_without")?;
        for rows in runs_of(&ids) {
            let id = ids[rows.start];
            if self.seeds.contains(&id) {
                continue;
            }
            let last = rows.clone().map(|i| round[i]).max().unwrap_or(0);
            let mut effect: BTreeMap<(MatchItem, &str), (f64, f64)> = BTreeMap::new();
            let mut held: std::collections::BTreeSet<(u32, &str)> = std::collections::BTreeSet::new();
            for i in rows {
                // A Gold signature is Gold: what it buys is in the purchases.
                if reward[i].is_empty() || reward[i].ends_with(" gold") {
                    continue;
                }
                self.items
                    .entry((MatchItem::Reward, reward[i].clone()))
                    .or_default()
                    .earned += 1;
                if round[i] < last {
                    held.insert((seat[i], reward[i].as_str()));
                }
                if !with[i].is_empty() && !without[i].is_empty() {
                    let e = effect.entry((MatchItem::Reward, reward[i].as_str())).or_default();
                    e.0 += score(&with[i]) - score(&without[i]);
                    e.1 += 1.0;
                }
            }
            fold_items(&mut self.items, effect, |t, y, n| t.effect.add(y, n));
            self.add_deciding(id, held.into_iter().map(|(s, item)| (s, (MatchItem::Reward, item))));
        }
        Ok(())
    }

    /// Folds one part's `shop_picks` table, a match at a time.
    fn add_picks(&mut self, df: &DataFrame) -> PolarsResult<()> {
        let ids = u64s(df, "match_id")?;
        let round = u32s(df, "round")?;
        let seat = u32s(df, "seat")?;
        let item = texts(df, "item")?;
        let kind = texts(df, "kind")?;
        let offered = bools(df, "offered")?;
        let buyable = bools(df, "buyable")?;
        let bought = bools(df, "bought")?;
        let combined: Vec<bool> = df.column("combined_to")?.u32()?.iter().map(|c| c.is_some()).collect();
        let probed = bools(df, "probed")?;
        let with = texts(df, "probe_with")?;
        let without = texts(df, "probe_without")?;
        for rows in runs_of(&ids) {
            if self.seeds.contains(&ids[rows.start]) {
                continue;
            }
            // Each bot's players in this match, and those that combined.
            let mut per_bot: BTreeMap<&str, [f64; 2]> = BTreeMap::new();
            let mut seats_combined = std::collections::BTreeSet::new();
            for i in rows.clone() {
                if bought[i] && combined[i] {
                    seats_combined.insert(seat[i]);
                }
            }
            for ((_, s), bot) in self.seats.range((ids[rows.start], 0)..=(ids[rows.start], u32::MAX)) {
                let e = per_bot.entry(bot.as_str()).or_default();
                e[0] += 1.0;
                e[1] += f64::from(u8::from(seats_combined.contains(s)));
            }
            for (bot, [players, combiners]) in per_bot {
                self.bots
                    .entry(bot.to_string())
                    .or_default()
                    .combined
                    .add(combiners, players);
            }
            // (offered, offered and bought, purchases, sum of their rounds,
            // probes and their effects: all, taken, passed)
            let mut per: BTreeMap<(MatchItem, &str), [f64; 10]> = BTreeMap::new();
            for i in rows {
                let k = if kind[i] == "rune" {
                    MatchItem::Rune
                } else {
                    MatchItem::Card
                };
                let e = per.entry((k, item[i].as_str())).or_default();
                // The pick rate counts the offers the player could pay for
                // and place: an offer it could not take says nothing of
                // the card.
                if offered[i] && buyable[i] {
                    e[0] += 1.0;
                    e[1] += f64::from(u8::from(bought[i]));
                }
                if bought[i] {
                    e[2] += 1.0;
                    e[3] += f64::from(round[i]);
                }
                // A probe that met a bye fought nothing.
                if probed[i] && !with[i].is_empty() && !without[i].is_empty() {
                    let d = score(&with[i]) - score(&without[i]);
                    let at = if bought[i] { 6 } else { 8 };
                    e[4] += 1.0;
                    e[5] += d;
                    e[at] += 1.0;
                    e[at + 1] += d;
                }
            }
            for ((k, key), e) in per {
                let t = self.items.entry((k, key.to_string())).or_default();
                t.picks.add(e[1], e[0]);
                t.rounds.add(e[3], e[2]);
                t.effect.add(e[5], e[4]);
                t.effect_taken.add(e[7], e[6]);
                t.effect_passed.add(e[9], e[8]);
            }
        }
        Ok(())
    }
}

/// Tallies a match run (or its shards) part by part: each part's four
/// tables, read whole (a part holds a few hundred matches) and folded
/// into sums, so memory does not grow with the number of parts.
pub fn match_tallies(parts: &[MatchPart]) -> Result<MatchTallies, Error> {
    if parts.is_empty() {
        return Err(Error::NoParts);
    }
    let read = |file: &PathBuf, columns: &[&str]| {
        scan_parts(std::slice::from_ref(file))?
            .select(columns.iter().map(|c| col(*c)).collect::<Vec<_>>())
            .collect()
            .map_err(err)
    };
    let mut t = MatchTallies::default();
    for part in parts {
        let df = read(
            &part.matches,
            &[
                "match_id",
                "seed_match",
                "seat",
                "policy",
                "gold",
                "tiers",
                "won",
                "boss_wins",
                "nemesis_wins",
            ],
        )?;
        t.add_matches(&df).map_err(err)?;
        let df = read(
            &part.fights,
            &[
                "match_id",
                "round",
                "seat",
                "stage",
                "winner",
                "cards",
                "runes",
                "keywords",
                "resonance",
            ],
        )?;
        t.add_fights(&df).map_err(err)?;
        let df = read(
            &part.rounds,
            &["match_id", "round", "seat", "reward", "reward_with", "reward_without"],
        )?;
        t.add_rounds(&df).map_err(err)?;
        let df = read(
            &part.picks,
            &[
                "match_id",
                "round",
                "seat",
                "item",
                "kind",
                "offered",
                "buyable",
                "bought",
                "combined_to",
                "probed",
                "probe_with",
                "probe_without",
            ],
        )?;
        t.add_picks(&df).map_err(err)?;
    }
    Ok(t)
}

/// A run of games' `games` rows, counted by everything the game report
/// reads: decks, bots, who went first, how it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameGroup {
    pub left: u32,
    pub right: u32,
    pub left_bot: String,
    pub right_bot: String,
    /// `left` or `right`.
    pub first: String,
    /// `left`, `right` or `draw`.
    pub winner: String,
    pub end_reason: String,
    pub games: u64,
    pub turns: u64,
    pub turns_squared: u64,
}

/// Counts the `games` part files of a run (or of several shards of one)
/// into [`GameGroup`]s, in a fixed order.
pub fn game_groups(game_files: &[PathBuf]) -> Result<Vec<GameGroup>, Error> {
    let keys = [
        "left_board",
        "right_board",
        "left_bot",
        "right_bot",
        "first",
        "winner",
        "end_reason",
    ];
    let turns = col("turns").cast(DataType::UInt64);
    let df = scan_parts(game_files)?
        .group_by(keys.iter().map(|k| col(*k)).collect::<Vec<_>>())
        .agg([
            len().cast(DataType::UInt64).alias("games"),
            turns.clone().sum().alias("turns"),
            (turns.clone() * turns).sum().alias("turns_squared"),
        ])
        .sort(keys, SortMultipleOptions::default())
        .collect()
        .map_err(err)?;
    let read = || -> PolarsResult<Vec<GameGroup>> {
        let (left, right) = (u32s(&df, "left_board")?, u32s(&df, "right_board")?);
        let (left_bot, right_bot) = (texts(&df, "left_bot")?, texts(&df, "right_bot")?);
        let (first, winner, end) = (texts(&df, "first")?, texts(&df, "winner")?, texts(&df, "end_reason")?);
        let (games, turns, squared) = (u64s(&df, "games")?, u64s(&df, "turns")?, u64s(&df, "turns_squared")?);
        Ok((0..df.height())
            .map(|i| GameGroup {
                left: left[i],
                right: right[i],
                left_bot: left_bot[i].clone(),
                right_bot: right_bot[i].clone(),
                first: first[i].clone(),
                winner: winner[i].clone(),
                end_reason: end[i].clone(),
                games: games[i],
                turns: turns[i],
                turns_squared: squared[i],
            })
            .collect())
    };
    read().map_err(err)
}

/// Each game of a run of games, by id: its decks and seat 0's score (1, a
/// half for a draw, 0), in the order of the ids.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GameList {
    pub ids: Vec<u64>,
    pub left: Vec<u32>,
    pub right: Vec<u32>,
    pub left_score: Vec<f64>,
}

/// Reads every game of the `games` part files, ordered by id.
pub fn game_list(game_files: &[PathBuf]) -> Result<GameList, Error> {
    let df = scan_parts(game_files)?
        .select([
            col("fight_id"),
            col("left_board"),
            col("right_board"),
            when(col("winner").eq(lit("left")))
                .then(lit(1.0))
                .when(col("winner").eq(lit("draw")))
                .then(lit(0.5))
                .otherwise(lit(0.0))
                .alias("left_score"),
        ])
        .sort(["fight_id"], SortMultipleOptions::default())
        .collect()
        .map_err(err)?;
    let read = || -> PolarsResult<GameList> {
        Ok(GameList {
            ids: u64s(&df, "fight_id")?,
            left: u32s(&df, "left_board")?,
            right: u32s(&df, "right_board")?,
            left_score: df.column("left_score")?.f64()?.into_no_null_iter().collect(),
        })
    };
    read().map_err(err)
}

/// What one seat did with one card in one game, from the `card_events`
/// rows: bit 0 in the opening hand, bit 1 in hand at all (opening or
/// drawn), bit 2 played; the first turn it was played, the plays and the
/// Energy they paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardSeen {
    pub game: u32,
    pub right: bool,
    pub card: u32,
    pub flags: u8,
    pub first_played: u32,
    pub plays: u32,
    pub energy: u32,
}

/// Reads the `card_events` part files into one [`CardSeen`] per game, seat
/// and card, ordered by game, seat and card; `games` gives a game's
/// position from its id and `card_index` a card's from its id (a card or
/// game not found is an error: the tables are of another run).
///
/// A part's rows are a game's events in turn, game after game, so each
/// file is read once, in order, and folded game by game: no grouping or
/// sorting of the events' strings, which would cost more than the rest
/// of the report.
pub fn cards_seen(
    event_files: &[PathBuf],
    games: &GameList,
    card_index: &BTreeMap<String, u32>,
) -> Result<Vec<CardSeen>, Error> {
    let index: std::collections::HashMap<&str, u32> = card_index.iter().map(|(k, &v)| (k.as_str(), v)).collect();
    let mut out: Vec<CardSeen> = Vec::new();
    for file in event_files {
        let df = scan_parts(std::slice::from_ref(file))?.collect().map_err(err)?;
        let malformed = |what: String| Error::Data(gridsim_data::Error::malformed(file, what));
        let mut read = || -> PolarsResult<Result<(), Error>> {
            let ids = df.column("fight_id")?.u64()?;
            let sides = df.column("side")?.str()?;
            let cards = df.column("card")?.str()?;
            let events = df.column("event")?.str()?;
            let turns = df.column("turn")?.u32()?;
            let energy = df.column("energy")?.u32()?;
            // The game now folded: its id, position, and first row in `out`.
            let (mut current, mut game, mut game_start) = (None, 0u32, out.len());
            for (i, id) in ids.into_no_null_iter().enumerate() {
                if current != Some(id) {
                    let Ok(at) = games.ids.binary_search(&id) else {
                        return Ok(Err(malformed(format!(
                            "card events of game {id}, which the games table does not hold"
                        ))));
                    };
                    (current, game, game_start) = (Some(id), at as u32, out.len());
                }
                let key = cards.get(i).unwrap_or_default();
                let Some(&card) = index.get(key) else {
                    return Ok(Err(malformed(format!(
                        "card events of card `{key}`, which the run's catalog does not hold"
                    ))));
                };
                let right = sides.get(i) == Some("right");
                let k = match out[game_start..]
                    .iter()
                    .position(|s| s.right == right && s.card == card)
                {
                    Some(k) => game_start + k,
                    None => {
                        out.push(CardSeen {
                            game,
                            right,
                            card,
                            flags: 0,
                            first_played: 0,
                            plays: 0,
                            energy: 0,
                        });
                        out.len() - 1
                    }
                };
                let s = &mut out[k];
                match events.get(i).unwrap_or_default() {
                    "opening" => s.flags |= 0b011,
                    "played" => {
                        if s.plays == 0 {
                            s.first_played = turns.get(i).unwrap_or(0);
                        }
                        s.flags |= 0b100;
                        s.plays += 1;
                        s.energy += energy.get(i).unwrap_or(0);
                    }
                    _ => s.flags |= 0b010,
                }
            }
            Ok(Ok(()))
        };
        read().map_err(err)??;
    }
    out.sort_unstable_by_key(|s| (s.game, s.right, s.card));
    Ok(out)
}
