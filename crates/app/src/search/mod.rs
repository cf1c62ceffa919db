//! `gridsim search`: boards that beat a suite's boards (the reference
//! field) most often, found by MAP-Elites under the rules the suite draws
//! its boards by (units, tiers, tier budget, footprints, card pool).
//!
//! How fights are spent (docs/search.md gives the formulas):
//! - Every candidate plays the same fights: fight `j` meets field board
//!   `opponent(j)` on stream `j`, the candidate on the left when `j` is even.
//!   Two candidates are compared on common random numbers, as a sweep's
//!   values are.
//! - Racing: a candidate plays 64, then 256, then 1024 fights, and stops at
//!   the first rung where its upper bound falls below the board it would
//!   have to displace, so losing boards cost 64 fights, not 1024.
//! - MAP-Elites: the archive keeps one board per niche of two descriptors
//!   (mean Speed, number of keywords), so the result is a diverse set of
//!   strong boards rather than one.
//! - The best boards and the best suite board are then measured again on
//!   fresh fights that decided nothing (no winner's curse), with
//!   board-counted intervals, and each against the suite board on the same
//!   fights.
//!
//! Deterministic: a generation's children are drawn in order from the
//! search's own stream, each child's fights are a function of the child
//! alone, and the archive takes them in order, so the thread count never
//! changes a byte.

mod mutation;
mod output;

use mutation::{mutate, mutate_runes};
pub use output::{board_toml, markdown};
use output::{slug, write};

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::runs::{Argument, Error};
use gridsim_config as config;
use gridsim_engine::{Engine, FightRng};
use gridsim_model::catalog::{CardId, Catalog};
use gridsim_model::settings::Rules;
use gridsim_model::spec::{BoardSpec, Placement, Side};
use gridsim_sim::suite::{self, RandomBoards};

/// Cumulative fights at each racing rung.
pub const RUNGS: [u64; 3] = [64, 256, 1024];
/// The fights of a candidate that ran every rung.
const LAST_RUNG: u64 = RUNGS[RUNGS.len() - 1];
/// Bins of each descriptor: the archive holds `BINS * BINS` niches.
pub const BINS: usize = 5;
/// The share of the fight budget kept for the final measurement.
const FINAL_SHARE: f64 = 0.2;
/// Where the final measurement's fights start: far past any search fight,
/// so they decided nothing.
const FINAL_FIRST_FIGHT: u64 = 1 << 40;
/// Where the search's own stream (parents, mutations) is read.
const SEARCH_STREAM: u64 = u64::MAX - 1;
/// 95% two-sided normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

/// What to search, as asked for on the command line.
#[derive(Debug, Clone)]
pub struct SearchRequest {
    pub rules: PathBuf,
    pub cards: Vec<PathBuf>,
    pub suite: PathBuf,
    /// Fights to spend in all, the final measurement included.
    pub budget: u64,
    /// Boards returned (the best elites).
    pub top: usize,
    /// Children per generation.
    pub batch: usize,
    /// Seed of the search (fights and mutations); default the suite's.
    pub seed: Option<u64>,
    /// Folder that receives the search's folder.
    pub out: PathBuf,
    pub threads: usize,
    pub progress: bool,
}

/// The rules a board is kept to: the suite's random-board rules, or the
/// default suite's when the suite lists its boards.
#[derive(Debug, Clone)]
pub struct Limits {
    pub min_units: u8,
    pub max_units: u8,
    pub min_tier: u8,
    pub max_tier: u8,
    pub budget: u32,
    pub pool: Vec<CardId>,
    pub columns: i32,
    pub rows: i32,
    /// Runes per board and whether a resonance may be equipped, as the
    /// suite draws them; the runes that may be placed.
    pub min_runes: u8,
    pub max_runes: u8,
    pub resonance: bool,
    pub rune_pool: Vec<gridsim_model::catalog::RuneId>,
    pub resonances: u16,
    /// Cells of the rows and columns rune boards, and cells per rune.
    pub rune_cells: [i32; 2],
    pub rune_width: i32,
    /// Rune tiers are paid from `budget` with the unit tiers.
    pub runes_use_budget: bool,
}

impl Limits {
    pub fn new(draw: Option<&RandomBoards>, catalog: &Catalog, rules: &Rules) -> Result<Limits, String> {
        let fallback = RandomBoards {
            seed: 0,
            boards: 0,
            min_units: 6,
            max_units: 8,
            min_tier: 1,
            max_tier: 3,
            budget: 16,
            cards: Vec::new(),
            min_runes: 0,
            max_runes: 0,
            resonance_percent: 0,
            boss_percent: 0,
            hub_percent: 0,
            runes_use_budget: false,
        };
        let d = draw.unwrap_or(&fallback);
        Ok(Limits {
            min_units: d.min_units,
            max_units: d.max_units,
            min_tier: d.min_tier,
            max_tier: d.max_tier,
            budget: d.budget,
            pool: suite::drawable_cards(d, catalog).map_err(|e| e.to_string())?,
            columns: rules.board.columns,
            rows: rules.board.rows,
            min_runes: d.min_runes,
            max_runes: d.max_runes,
            resonance: d.resonance_percent > 0 && !catalog.resonances.is_empty(),
            rune_pool: (0..catalog.runes.len() as u16)
                .map(gridsim_model::catalog::RuneId)
                .filter(|&r| !catalog.rune(r).innate_only)
                .collect(),
            resonances: catalog.resonances.len() as u16,
            rune_cells: [rules.runes.row_board_cells, rules.runes.column_board_cells],
            rune_width: rules.runes.cells_per_rune,
            runes_use_budget: d.runes_use_budget,
        })
    }

    /// The tiers `card` may take: the limits clamped to its ladder.
    fn tiers(&self, catalog: &Catalog, card: CardId) -> (u8, u8) {
        let top = self.max_tier.min(catalog.card(card).tiers()).max(1);
        (self.min_tier.clamp(1, top), top)
    }

    /// What a board's runes take from the tier budget: their tiers when the
    /// suite pays for runes from it, nothing otherwise.
    pub fn rune_cost(&self, runes: &[gridsim_model::spec::RunePlacement]) -> u32 {
        if self.runes_use_budget {
            runes.iter().map(|r| u32::from(r.tier)).sum()
        } else {
            0
        }
    }

    /// Why `units` breaks the limits, or `None` when it keeps them, with
    /// `rune_cost` of the budget already spent on the board's runes.
    pub fn broken(&self, units: &[Placement], rune_cost: u32, catalog: &Catalog) -> Option<String> {
        let n = units.len();
        if n < usize::from(self.min_units) || n > usize::from(self.max_units) {
            return Some(format!("{n} units, expected {}..={}", self.min_units, self.max_units));
        }
        let spent: u32 = units.iter().map(|p| u32::from(p.tier)).sum::<u32>() + rune_cost;
        if spent > self.budget {
            return Some(format!("tiers add up to {spent}, over the budget {}", self.budget));
        }
        let mut taken = vec![false; (self.columns * self.rows) as usize];
        for p in units {
            if !self.pool.contains(&p.card) {
                return Some(format!("`{}` is not in the pool", catalog.card(p.card).key));
            }
            let (low, high) = self.tiers(catalog, p.card);
            if p.tier < low || p.tier > high {
                return Some(format!("`{}` at tier {}", catalog.card(p.card).key, p.tier));
            }
            let size = i32::from(catalog.card(p.card).footprint.side());
            let (col, row) = (i32::from(p.column), i32::from(p.row));
            if col + size > self.columns || row + size > self.rows {
                return Some(format!("`{}` leaves the grid", catalog.card(p.card).key));
            }
            for c in suite::footprint_cells(col, row, size, self.columns) {
                if std::mem::replace(&mut taken[c], true) {
                    return Some(format!("`{}` overlaps another unit", catalog.card(p.card).key));
                }
            }
        }
        if units.iter().all(|p| catalog.card(p.card).kind.is_object()) {
            return Some("no combatant".into());
        }
        None
    }

    /// Why a board's runes break the limits, or `None`.
    pub fn runes_broken(&self, board: &BoardSpec) -> Option<String> {
        let n = board.runes.len();
        (n < usize::from(self.min_runes) || n > usize::from(self.max_runes))
            .then(|| format!("{n} runes, expected {}..={}", self.min_runes, self.max_runes))
    }
}

/// A board's place in the archive: its two descriptors, binned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Niche {
    /// Mean printed Speed of its combatants, in `BINS` equal bins over the
    /// pool's range.
    pub speed_bin: u8,
    /// Distinct keywords it carries: 0–1, 2–3, 4–5, 6–7, 8 or more.
    pub keyword_bin: u8,
}

/// How a board's descriptors are read.
struct Describe {
    speed_low: f64,
    speed_high: f64,
}

impl Describe {
    fn new(limits: &Limits, catalog: &Catalog) -> Describe {
        let speeds = limits.pool.iter().flat_map(|&c| {
            let card = catalog.card(c);
            let (low, high) = limits.tiers(catalog, c);
            (low..=high).map(move |t| f64::from(card.stats[usize::from(t) - 1].speed))
        });
        let (lo, hi) = speeds.fold((f64::MAX, f64::MIN), |(lo, hi), s| (lo.min(s), hi.max(s)));
        Describe {
            speed_low: lo.min(hi),
            speed_high: hi.max(lo),
        }
    }

    fn mean_speed(units: &[Placement], catalog: &Catalog) -> f64 {
        let speeds: Vec<f64> = units
            .iter()
            .filter(|p| !catalog.card(p.card).kind.is_object())
            .map(|p| f64::from(catalog.card(p.card).stats[usize::from(p.tier) - 1].speed))
            .collect();
        speeds.iter().sum::<f64>() / speeds.len().max(1) as f64
    }

    fn keywords(units: &[Placement], catalog: &Catalog) -> Vec<&'static str> {
        let mut k: Vec<&'static str> = units.iter().flat_map(|p| catalog.carried_keywords(p.card)).collect();
        k.sort_unstable();
        k.dedup();
        k
    }

    fn niche(&self, units: &[Placement], catalog: &Catalog) -> Niche {
        let span = (self.speed_high - self.speed_low).max(1e-9);
        let at = (Self::mean_speed(units, catalog) - self.speed_low) / span;
        let speed_bin = ((at * BINS as f64) as usize).min(BINS - 1) as u8;
        let keyword_bin = (Self::keywords(units, catalog).len() / 2).min(BINS - 1) as u8;
        Niche { speed_bin, keyword_bin }
    }
}

/// What a board did in a run of its fights: per fight, the opponent and
/// whether the board won.
#[derive(Debug, Clone, Default)]
struct Record {
    opponents: Vec<u32>,
    wins: Vec<bool>,
}

impl Record {
    fn fights(&self) -> u64 {
        self.wins.len() as u64
    }
    fn rate(&self) -> f64 {
        self.wins.iter().filter(|w| **w).count() as f64 / self.wins.len().max(1) as f64
    }
    /// The win rate's standard error with fights grouped by opponent (a
    /// field board met twice is one board, not two), never below the
    /// binomial one or `1/n`, so a rung of all losses is not certain.
    fn se(&self) -> f64 {
        let n = self.wins.len().max(1) as f64;
        let p = self.rate();
        let diffs: Vec<f64> = self.wins.iter().map(|&w| f64::from(u8::from(w)) - p).collect();
        let clustered = clustered_se(&self.opponents, &diffs);
        clustered.max((p * (1.0 - p) / n).sqrt()).max(1.0 / n)
    }
}

/// The cluster-robust standard error of a mean of `values` (already
/// centred) grouped by `clusters`: `sqrt(C/(C-1) * sum_c (sum_{j in c} v_j)^2) / n`.
fn clustered_se(clusters: &[u32], values: &[f64]) -> f64 {
    let mut sums: BTreeMap<u32, f64> = BTreeMap::new();
    for (&c, &v) in clusters.iter().zip(values) {
        *sums.entry(c).or_default() += v;
    }
    let c = sums.len() as f64;
    if c < 2.0 {
        return 0.0;
    }
    let ss: f64 = sums.values().map(|s| s * s).sum();
    (c / (c - 1.0) * ss).sqrt() / values.len() as f64
}

/// The fights every board plays, shared so candidates meet the same field
/// on the same streams.
struct Arena<'a> {
    field: &'a [BoardSpec],
    seed: u64,
}

impl Arena<'_> {
    /// Fight `j`'s field board.
    fn opponent(&self, j: u64) -> u32 {
        let mut rng = FightRng::for_fight_at(self.seed, j, suite::PAIRING_WORD_POS);
        rng.below(self.field.len() as u32)
    }

    /// Plays fights `first..first + count` for `board` into `record`.
    fn play(&self, engine: &mut Engine, board: &BoardSpec, first: u64, count: u64, record: &mut Record) {
        for j in first..first + count {
            let o = self.opponent(j);
            let foe = &self.field[o as usize];
            let (left, right, side) = if j % 2 == 0 {
                (board, foe, Side::Left)
            } else {
                (foe, board, Side::Right)
            };
            let outcome = engine.fight(left, right, FightRng::for_fight(self.seed, j));
            record.opponents.push(o);
            record.wins.push(outcome.winner == Some(side));
        }
    }

    /// Races `board` against `bar`: rung by rung, stopping once the upper
    /// bound of its win rate falls below the bar.
    fn race(&self, engine: &mut Engine, board: &BoardSpec, bar: f64) -> Record {
        let mut record = Record::default();
        let mut done = 0;
        for rung in RUNGS {
            self.play(engine, board, done, rung - done, &mut record);
            done = rung;
            if record.rate() + Z95 * record.se() < bar {
                break;
            }
        }
        record
    }
}

/// One board the archive holds.
#[derive(Debug, Clone)]
struct Elite {
    board: BoardSpec,
    niche: Niche,
    rate: f64,
    fights: u64,
}

/// A board measured on the final fights.
#[derive(Debug, Clone, Serialize)]
pub struct Measured {
    pub rank: usize,
    pub file: String,
    pub name: String,
    /// Where the board came from: the suite board's name, or the
    /// generation and child that bred it.
    pub origin: String,
    pub niche: Niche,
    pub mean_speed: f64,
    pub keywords: Vec<String>,
    pub units: Vec<UnitOut>,
    pub runes: Vec<RuneOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resonance: Option<String>,
    /// Win rate and its 95% interval on the final fights, clustered by the field board met.
    pub fights: u64,
    pub opponents: u64,
    pub win_rate: f64,
    pub low: f64,
    pub high: f64,
    /// Win rate during the search (racing fights; biased upwards by selection).
    pub search_win_rate: f64,
    /// Against the best suite board on the same final fights: the
    /// difference of win rates and its 95% interval, fights grouped by
    /// opponent.
    pub versus_suite_best: Option<Difference>,
}

#[derive(Debug, Clone, Serialize)]
pub struct UnitOut {
    pub card: String,
    pub tier: u8,
    pub cell: [u8; 2],
}

#[derive(Debug, Clone, Serialize)]
pub struct RuneOut {
    pub rune: String,
    pub tier: u8,
    pub board: String,
    pub cell: u8,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Difference {
    pub delta: f64,
    pub low: f64,
    pub high: f64,
}

/// A card two or more of the top boards hold.
#[derive(Debug, Clone, Serialize)]
pub struct SharedCard {
    pub card: String,
    /// Top boards holding it.
    pub boards: usize,
    pub mean_tier: f64,
    /// The cell its copies take most often.
    pub usual_cell: [u8; 2],
}

/// What the top boards have in common.
#[derive(Debug, Clone, Serialize)]
pub struct Shared {
    pub cards: Vec<SharedCard>,
    /// Keyword, boards carrying it.
    pub keywords: Vec<(String, usize)>,
}

/// A progress line per generation.
#[derive(Debug, Clone, Serialize)]
pub struct Generation {
    pub generation: u32,
    pub fights_spent: u64,
    pub niches_filled: usize,
    pub best_search_rate: f64,
}

/// A finished search.
#[derive(Debug, Clone, Serialize)]
pub struct Search {
    pub suite: String,
    pub seed: u64,
    pub budget: u64,
    pub fights_spent: u64,
    pub candidates: u64,
    /// Candidates stopped before the last rung.
    pub raced_out: u64,
    pub generations: Vec<Generation>,
    pub limits: String,
    /// The best boards, best first.
    pub boards: Vec<Measured>,
    /// The best board drawn from the suite, measured the same way.
    pub suite_best: Option<Measured>,
    pub shared: Shared,
    pub niches: Vec<(Niche, f64, u64)>,
    #[serde(skip)]
    pub dir: PathBuf,
}

/// Runs a search and writes its files under `OUT/search_SUITE_SEED/`.
pub fn run(req: &SearchRequest) -> Result<Search, Error> {
    let whole = |m: String| Error::file(&req.suite, m);
    let rules = config::load_rules(&req.rules)?;
    let catalog = config::load_catalog(&req.cards)?;
    let suite = config::load_suite(&req.suite, &catalog, &rules)?;
    let limits = Limits::new(suite.draw.as_ref(), &catalog, &rules).map_err(whole)?;
    let seed = req.seed.unwrap_or(suite.master_seed);
    // Generation 0 in full, and a final share of at least a rung per finalist.
    let needed = ((4 * req.batch as u64 * LAST_RUNG) as f64 / (1.0 - FINAL_SHARE))
        .max((req.top as u64 + 1) as f64 * LAST_RUNG as f64 / FINAL_SHARE)
        .ceil() as u64;
    if req.budget < needed {
        return Err(Error::argument(
            Argument::Budget,
            Some(&req.suite),
            format!(
                " {}: too few fights for a generation of {} and a final measurement of {} boards; give at least {needed}",
                req.budget, req.batch, req.top
            ),
        ));
    }
    if req.top == 0 || req.batch == 0 {
        return Err(Error::argument(
            Argument::TopAndBatch,
            Some(&req.suite),
            " are at least 1",
        ));
    }
    let dir = req.out.join(format!("search_{}_{seed}", slug(&suite.name)));
    let driver = gridsim_data::batch::Driver::new(req.threads).map_err(|e| whole(e.into()))?;
    let arena = Arena {
        field: &suite.boards,
        seed,
    };
    let describe = Describe::new(&limits, &catalog);
    let mut rng = FightRng::for_fight(seed, SEARCH_STREAM);
    let search_budget = (req.budget as f64 * (1.0 - FINAL_SHARE)) as u64;
    let mut archive: BTreeMap<Niche, Elite> = BTreeMap::new();
    let mut suite_best: Option<Elite> = None;
    let (mut spent, mut candidates, mut raced_out) = (0u64, 0u64, 0u64);
    let mut generations = Vec::new();
    let mut generation = 0u32;
    while spent + LAST_RUNG * (req.batch * if generation == 0 { 4 } else { 1 }) as u64 <= search_budget
        && (generation == 0 || !archive.is_empty())
    {
        // Generation 0: four batches of distinct suite boards (racing makes
        // the weak ones cheap), topped up with boards drawn under the limits
        // when the suite has fewer; later generations breed.
        let children: Vec<(BoardSpec, bool)> = if generation == 0 {
            first_generation(&suite.boards, &limits, &catalog, &rules, req.batch * 4, &mut rng).map_err(whole)?
        } else {
            (0..req.batch)
                .map(|k| {
                    let parents: Vec<&Elite> = archive.values().collect();
                    let parent = parents[rng.below(parents.len() as u32) as usize];
                    let rune_cost = limits.rune_cost(&parent.board.runes);
                    let units = mutate(&parent.board.units, rune_cost, &limits, &catalog, &mut rng);
                    let name = format!("search g{generation} c{k}");
                    // Runes and resonance travel with the parent, and
                    // change one time in three.
                    let mut board = BoardSpec {
                        name,
                        units,
                        // A state belongs to a unit of the parent's.
                        states: Vec::new(),
                        ..parent.board.clone()
                    };
                    if rng.below(3) == 0 {
                        mutate_runes(&mut board, &limits, &catalog, &mut rng);
                    }
                    (board, false)
                })
                .collect()
        };
        let bars: Vec<f64> = children
            .iter()
            .map(|(b, _)| archive.get(&describe.niche(&b.units, &catalog)).map_or(0.0, |e| e.rate))
            .collect();
        let races: Vec<(&BoardSpec, f64)> = children.iter().map(|(b, _)| b).zip(bars.iter().copied()).collect();
        let records: Vec<Record> = driver
            .map(
                &races,
                || Engine::new(&catalog, rules),
                |engine, &(board, bar)| arena.race(engine, board, bar),
            )
            .map_err(|e| whole(e.into()))?;
        for ((board, from_suite), record) in children.into_iter().zip(records) {
            spent += record.fights();
            candidates += 1;
            if record.fights() < LAST_RUNG {
                raced_out += 1;
                continue;
            }
            let niche = describe.niche(&board.units, &catalog);
            let elite = Elite {
                board,
                niche,
                rate: record.rate(),
                fights: record.fights(),
            };
            if from_suite && suite_best.as_ref().is_none_or(|b| elite.rate > b.rate) {
                suite_best = Some(elite.clone());
            }
            if from_suite
                && (limits
                    .broken(&elite.board.units, limits.rune_cost(&elite.board.runes), &catalog)
                    .is_some()
                    || limits.runes_broken(&elite.board).is_some())
            {
                continue;
            }
            if archive.get(&niche).is_none_or(|e| elite.rate > e.rate) {
                archive.insert(niche, elite);
            }
        }
        let best = archive.values().map(|e| e.rate).fold(0.0, f64::max);
        if req.progress {
            eprintln!(
                "generation {generation}: best {:.1}% over {} fights, {} of {} niches, {spent} of {} fights spent",
                best * 100.0,
                LAST_RUNG,
                archive.len(),
                BINS * BINS,
                req.budget
            );
        }
        generations.push(Generation {
            generation,
            fights_spent: spent,
            niches_filled: archive.len(),
            best_search_rate: best,
        });
        generation += 1;
    }
    if archive.is_empty() {
        return Err(whole(
            "no board of the suite kept the search's limits; nothing to breed from".into(),
        ));
    }
    // The final measurement: the best elites and the best suite board on
    // fresh fights, shared out so the whole final share is spent.
    let mut elites: Vec<&Elite> = archive.values().collect();
    elites.sort_by(|a, b| b.rate.total_cmp(&a.rate).then(a.niche.cmp(&b.niche)));
    // A niche's board can be weak (the best of a poor niche): only boards
    // that beat the field more often than not are returned, the best one
    // whatever its rate.
    let strong = elites.iter().filter(|e| e.rate >= 0.5).count().max(1);
    elites.truncate(req.top.min(strong));
    let mut finalists: Vec<&Elite> = elites.clone();
    finalists.extend(suite_best.as_ref());
    let remaining = req.budget.saturating_sub(spent);
    let per_board = (remaining / finalists.len() as u64).max(RUNGS[0]);
    let records: Vec<Record> = driver
        .map(
            &finalists,
            || Engine::new(&catalog, rules),
            |engine, e| {
                let mut r = Record::default();
                arena.play(engine, &e.board, FINAL_FIRST_FIGHT, per_board, &mut r);
                r
            },
        )
        .map_err(|e| whole(e.into()))?;
    spent += per_board * finalists.len() as u64;
    let intervals = final_intervals(&records);
    let base = suite_best.as_ref().map(|_| &records[records.len() - 1]);
    let measure = |rank: usize, e: &Elite, r: &Record, iv: &(f64, f64), file: String| Measured {
        rank,
        name: if rank == 0 {
            format!("best suite board ({})", e.board.name)
        } else {
            format!("search #{rank}")
        },
        file,
        origin: e.board.name.clone(),
        niche: e.niche,
        mean_speed: Describe::mean_speed(&e.board.units, &catalog),
        keywords: Describe::keywords(&e.board.units, &catalog)
            .into_iter()
            .map(str::to_string)
            .collect(),
        units: e
            .board
            .units
            .iter()
            .map(|p| UnitOut {
                card: catalog.card(p.card).key.clone(),
                tier: p.tier,
                cell: [p.column, p.row],
            })
            .collect(),
        runes: e
            .board
            .runes
            .iter()
            .map(|p| RuneOut {
                rune: catalog.rune(p.rune).key.clone(),
                tier: p.tier,
                board: p.board.name().to_string(),
                cell: p.cell,
            })
            .collect(),
        resonance: e.board.resonance.map(|r| catalog.resonance(r).key.clone()),
        fights: r.fights(),
        opponents: {
            let mut o = r.opponents.clone();
            o.sort_unstable();
            o.dedup();
            o.len() as u64
        },
        win_rate: r.rate(),
        low: iv.0,
        high: iv.1,
        search_win_rate: e.rate,
        versus_suite_best: match base {
            Some(b) if rank > 0 => Some(difference(r, b)),
            _ => None,
        },
    };
    let boards: Vec<Measured> = elites
        .iter()
        .enumerate()
        .map(|(k, e)| measure(k + 1, e, &records[k], &intervals[k], format!("board_{:02}.toml", k + 1)))
        .collect();
    let suite_best_measured = suite_best.as_ref().map(|e| {
        let k = records.len() - 1;
        measure(0, e, &records[k], &intervals[k], "suite_best.toml".into())
    });
    let search = Search {
        suite: suite.name.clone(),
        seed,
        budget: req.budget,
        fights_spent: spent,
        candidates,
        raced_out,
        generations,
        limits: format!(
            "{}..={} units, tiers {}..={}, tier budget {}, {} cards in the pool, a {}x{} grid",
            limits.min_units,
            limits.max_units,
            limits.min_tier,
            limits.max_tier,
            limits.budget,
            limits.pool.len(),
            limits.columns,
            limits.rows
        ),
        shared: shared(&boards),
        boards,
        suite_best: suite_best_measured,
        niches: archive.values().map(|e| (e.niche, e.rate, e.fights)).collect(),
        dir: dir.clone(),
    };
    write(&search, &dir).map_err(whole)?;
    Ok(search)
}

/// `want` boards to start from: distinct suite boards drawn at random
/// (a listed board may break the limits: it still sets the bar the bred
/// boards must beat), then boards drawn under the limits if the suite has
/// too few. The flag marks suite boards.
fn first_generation(
    field: &[BoardSpec],
    limits: &Limits,
    catalog: &Catalog,
    rules: &Rules,
    want: usize,
    rng: &mut FightRng,
) -> Result<Vec<(BoardSpec, bool)>, String> {
    let mut order: Vec<usize> = (0..field.len()).collect();
    let take = want.min(field.len());
    for k in 0..take {
        let pick = k + rng.below((field.len() - k) as u32) as usize;
        order.swap(k, pick);
    }
    let mut out: Vec<(BoardSpec, bool)> = order[..take].iter().map(|&i| (field[i].clone(), true)).collect();
    if take < want {
        let spec = RandomBoards {
            seed: u64::from(rng.next_u32()) << 32 | u64::from(rng.next_u32()),
            boards: (want - take) as u32,
            min_units: limits.min_units,
            max_units: limits.max_units,
            min_tier: limits.min_tier,
            max_tier: limits.max_tier,
            budget: limits.budget,
            cards: limits.pool.clone(),
            min_runes: limits.min_runes,
            max_runes: limits.max_runes,
            resonance_percent: if limits.resonance { 50 } else { 0 },
            boss_percent: 0,
            hub_percent: 0,
            runes_use_budget: limits.runes_use_budget,
        };
        for (k, mut b) in suite::random_boards(&spec, catalog, rules)
            .map_err(|e| e.to_string())?
            .into_iter()
            .enumerate()
        {
            b.name = format!("drawn {k}");
            out.push((b, false));
        }
    }
    Ok(out)
}

/// Each finalist's final win rate with its 95% interval. A finalist is one
/// fixed board, not a sample of the boards holding something, so of the
/// report's two-way clustering only the opponents' side remains: the
/// residuals are summed per field board met (one-way clustered by
/// opponent, as [`difference`] is), and the interval says how well this
/// board's rate against the field is known.
fn final_intervals(records: &[Record]) -> Vec<(f64, f64)> {
    records
        .iter()
        .map(|r| {
            let n = r.wins.len().max(1) as f64;
            let rate = r.wins.iter().filter(|&&w| w).count() as f64 / n;
            let centred: Vec<f64> = r.wins.iter().map(|&w| f64::from(u8::from(w)) - rate).collect();
            let se = clustered_se(&r.opponents, &centred);
            ((rate - Z95 * se).max(0.0), (rate + Z95 * se).min(1.0))
        })
        .collect()
}

/// `a`'s win rate minus `b`'s on the same fights, with a 95% interval from
/// the per-fight differences grouped by opponent.
fn difference(a: &Record, b: &Record) -> Difference {
    let n = a.wins.len().min(b.wins.len());
    let d: Vec<f64> = (0..n)
        .map(|j| f64::from(u8::from(a.wins[j])) - f64::from(u8::from(b.wins[j])))
        .collect();
    let mean = d.iter().sum::<f64>() / n.max(1) as f64;
    let centred: Vec<f64> = d.iter().map(|x| x - mean).collect();
    let se = clustered_se(&a.opponents[..n], &centred);
    Difference {
        delta: mean,
        low: (mean - Z95 * se).max(-1.0),
        high: (mean + Z95 * se).min(1.0),
    }
}

/// What the top boards share: cards and keywords held by two or more.
fn shared(boards: &[Measured]) -> Shared {
    #[derive(Default)]
    struct Tally {
        boards: usize,
        tiers: u32,
        cells: BTreeMap<[u8; 2], usize>,
    }
    let mut cards: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut keywords: BTreeMap<&str, usize> = BTreeMap::new();
    for b in boards {
        let mut seen: Vec<&str> = Vec::new();
        for u in &b.units {
            let t = cards.entry(&u.card).or_default();
            if !seen.contains(&u.card.as_str()) {
                t.boards += 1;
                seen.push(&u.card);
            }
            t.tiers += u32::from(u.tier);
            *t.cells.entry(u.cell).or_default() += 1;
        }
        for k in &b.keywords {
            *keywords.entry(k).or_default() += 1;
        }
    }
    let mut cards: Vec<SharedCard> = cards
        .into_iter()
        .filter(|(_, t)| t.boards >= 2)
        .map(|(card, t)| {
            let copies: usize = t.cells.values().sum();
            let usual_cell = t
                .cells
                .iter()
                .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
                .map_or([0, 0], |(c, _)| *c);
            SharedCard {
                card: card.to_string(),
                boards: t.boards,
                mean_tier: f64::from(t.tiers) / copies as f64,
                usual_cell,
            }
        })
        .collect();
    cards.sort_by(|a, b| b.boards.cmp(&a.boards).then(a.card.cmp(&b.card)));
    let mut keywords: Vec<(String, usize)> = keywords
        .into_iter()
        .filter(|(_, n)| *n >= 2)
        .map(|(k, n)| (k.to_string(), n))
        .collect();
    keywords.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    Shared { cards, keywords }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clustered_error_counts_opponents_not_fights() {
        // Eight fights against two boards, every fight of a board alike:
        // two clusters, so the error is that of two observations.
        let clusters = [0, 0, 0, 0, 1, 1, 1, 1];
        let values = [0.5, 0.5, 0.5, 0.5, -0.5, -0.5, -0.5, -0.5];
        let se = clustered_se(&clusters, &values);
        // sqrt(2/1 * (2^2 + 2^2)) / 8 = 0.5
        assert!((se - 0.5).abs() < 1e-12, "{se}");
        // The same values against eight boards: the binomial error.
        let spread: Vec<u32> = (0..8).collect();
        let se = clustered_se(&spread, &values);
        assert!((se - (8.0f64 / 7.0 * 2.0).sqrt() / 8.0).abs() < 1e-12, "{se}");
    }
}
