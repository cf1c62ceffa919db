//! The balance report: win rates per card, card and tier, rune and keyword
//! with 95% intervals that count boards (a board bootstrap, `stats.rs`);
//! keyword pairs with their lift; keyword against keyword; outliers and
//! changes since a baseline run, each flagged after a Benjamini–Hochberg
//! correction for testing many items at once. Built from the
//! run's tallies and its boards, written as HTML (charts as inline SVG),
//! Markdown and JSON.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::analysis::Tallies;
use crate::marginal::{self, BoardFeatures, MatchupResult, ModelSettings};
use crate::sink::BoardRow;
use crate::stats::{self, BoardInterval, BootstrapSettings, PairResult};

/// Report settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReportSettings {
    /// Rows with fewer fights are greyed and not ranked.
    pub min_sample: u64,
    /// Rows held by fewer boards are greyed and not ranked either: with a
    /// handful of boards the bootstrap cannot see how much other boards
    /// holding the item would differ, so its interval would be too narrow.
    pub min_boards: u64,
    /// The band a win rate's whole interval must leave to be an outlier.
    pub band_low: f64,
    pub band_high: f64,
    /// The board bootstrap behind every interval.
    pub bootstrap: BootstrapSettings,
    /// False discovery rate of the outlier flags and of the changes beyond
    /// noise (Benjamini–Hochberg).
    pub false_discovery_rate: f64,
    /// The marginal-effect model behind the effect column.
    pub model: ModelSettings,
}

impl Default for ReportSettings {
    fn default() -> Self {
        ReportSettings {
            min_sample: 200,
            min_boards: 5,
            band_low: 0.45,
            band_high: 0.55,
            bootstrap: BootstrapSettings::default(),
            false_discovery_rate: 0.05,
            model: ModelSettings::default(),
        }
    }
}

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// One row of a win-rate table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RateRow {
    pub key: String,
    /// What a person calls it: the card's printed name, the keyword as the
    /// rule book spells it.
    pub name: String,
    pub fights: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Wins over fights; a draw counts as no win.
    pub win_rate: f64,
    pub draw_rate: f64,
    /// Boards holding the item: the effective sample behind the interval.
    pub boards: u64,
    /// 95% board-bootstrap interval and standard error.
    pub low: f64,
    pub high: f64,
    pub se: f64,
    /// At least the minimum sample: ranked and eligible as an outlier.
    pub ranked: bool,
    /// P-value that the true rate lies inside the band (1 when the
    /// estimate does); flagged as an outlier after the correction.
    pub p_outside_band: f64,
    pub outlier: bool,
    /// What the item adds with the rest of the board held equal
    /// (`marginal.rs`); absent where no model could be fitted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
    /// Filled when a baseline is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<Change>,
}

/// A marginal effect in win-rate points (as a fraction: 0.032 is 3.2
/// points): how much the item raises a side's chance of winning, averaged
/// over the fights the run played, with the rest of the board held equal.
/// For a card or a card at a tier, the change is one copy of it in place of
/// an average copy; for a keyword or rune, having it rather than not.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Effect {
    pub points: f64,
    /// 95% interval: the logit-scale interval (board-clustered standard
    /// error) mapped through the same average, which rises with the logit.
    pub low: f64,
    pub high: f64,
    /// The estimate and standard error in logits.
    pub logit: f64,
    pub logit_se: f64,
}

/// A figure against the baseline run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    pub baseline_win_rate: f64,
    pub baseline_fights: u64,
    pub delta: f64,
    /// 1.96 x the combined standard error of the two rates (each from its
    /// own board bootstrap).
    pub combined_uncertainty: f64,
    pub p_value: f64,
    /// Beyond noise after the correction for testing many items.
    pub significant: bool,
}

#[derive(Debug, Clone, Default)]
struct Acc {
    n: u64,
    wins: u64,
    draws: u64,
    /// Dense indices of the boards holding the item.
    holders: Vec<u32>,
}

impl Acc {
    fn add(&mut self, n: u64, wins: u64, draws: u64) {
        self.n += n;
        self.wins += wins;
        self.draws += draws;
    }
    fn add_board(&mut self, board: u32, n: u64, wins: u64, draws: u64) {
        self.add(n, wins, draws);
        self.holders.push(board);
    }
}

/// Every item's board-bootstrap interval, one redraw of the boards serving
/// every table at once; each table's intervals in its map's order.
fn intervals(
    maps: &[&BTreeMap<String, Acc>],
    pairs: &BTreeMap<(String, String), Acc>,
    evidence: &Evidence,
    s: &ReportSettings,
) -> (Vec<Vec<BoardInterval>>, Vec<BoardInterval>) {
    let mut holders: Vec<&[u32]> = Vec::new();
    for m in maps {
        holders.extend(m.values().map(|a| a.holders.as_slice()));
    }
    holders.extend(pairs.values().map(|a| a.holders.as_slice()));
    let mut all = stats::board_bootstrap(evidence.boards, &evidence.pairs, &holders, s.bootstrap).into_iter();
    let tables = maps.iter().map(|m| all.by_ref().take(m.len()).collect()).collect();
    (tables, all.collect())
}

/// What the bootstrap reads: every ordered pair of boards, from each side.
struct Evidence {
    boards: usize,
    pairs: Vec<PairResult>,
}

fn rows(map: BTreeMap<String, Acc>, found: Vec<BoardInterval>, s: &ReportSettings) -> Vec<RateRow> {
    let mut out: Vec<RateRow> = map
        .into_iter()
        .zip(found)
        .map(|((key, a), interval)| {
            let ranked = a.n >= s.min_sample && a.holders.len() as u64 >= s.min_boards;
            let rate = |x: u64| if a.n == 0 { 0.0 } else { x as f64 / a.n as f64 };
            RateRow {
                name: display_name(&key),
                key,
                fights: a.n,
                wins: a.wins,
                draws: a.draws,
                losses: a.n - a.wins - a.draws,
                win_rate: rate(a.wins),
                draw_rate: rate(a.draws),
                boards: a.holders.len() as u64,
                low: interval.low,
                high: interval.high,
                se: interval.se,
                ranked,
                p_outside_band: stats::outside_band_p(rate(a.wins), interval.se, s.band_low, s.band_high),
                // Set once every section's p-values are known.
                outlier: false,
                effect: None,
                change: None,
            }
        })
        .collect();
    // Ranked rows by win rate, highest first; the rest after, by name.
    out.sort_by(|a, b| {
        b.ranked
            .cmp(&a.ranked)
            .then(if a.ranked {
                b.win_rate.total_cmp(&a.win_rate)
            } else {
                std::cmp::Ordering::Equal
            })
            .then(a.key.cmp(&b.key))
    });
    out
}

/// A readable name from an id alone: words capitalised (`crippling_scream`
/// is Crippling Scream), AoE as the rule book spells it (800.2), and a
/// card's tier spelled out. [`Report::name_cards`] replaces card ids with
/// their printed names where the catalog is at hand.
fn display_name(key: &str) -> String {
    let (item, tier) = match key.rsplit_once(" t") {
        Some((item, t)) if t.parse::<u8>().is_ok() => (item, Some(t)),
        _ => (key, None),
    };
    let words: Vec<String> = item
        .split('_')
        .map(|w| match w {
            "aoe" => "AoE".to_string(),
            _ => {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_uppercase().chain(c).collect())
                    .unwrap_or_default()
            }
        })
        .collect();
    let name = match item {
        "1x1" => "1x1 (Scrip)".to_string(),
        "2x2" => "2x2 (standard)".to_string(),
        "3x3" => "3x3 (Large)".to_string(),
        "4x4" => "4x4 (Huge)".to_string(),
        _ => words.join(" "),
    };
    match tier {
        Some(t) => format!("{name}, tier {t}"),
        None => name,
    }
}

impl Report {
    /// Names the cards (and cards at a tier) by their printed names:
    /// `printed` maps a card id to its name.
    pub fn name_cards(&mut self, printed: &BTreeMap<String, String>) {
        for row in &mut self.cards {
            if let Some(n) = printed.get(&row.key) {
                row.name = n.clone();
            }
        }
        for row in &mut self.card_tiers {
            if let Some((card, tier)) = row.key.rsplit_once(" t")
                && let Some(n) = printed.get(card)
            {
                row.name = format!("{n}, tier {tier}");
            }
        }
        let named: BTreeMap<(String, String), String> = sections_mut(self)
            .into_iter()
            .flat_map(|(section, rows)| {
                rows.iter()
                    .map(move |r| ((section.to_string(), r.key.clone()), r.name.clone()))
            })
            .collect();
        for o in &mut self.outliers {
            if let Some(n) = named.get(&(o.section.clone(), o.key.clone())) {
                o.name = n.clone();
            }
        }
        self.what_changed = what_changed(self);
    }
}

fn with_effects(mut rows: Vec<RateRow>, effects: &BTreeMap<String, Effect>) -> Vec<RateRow> {
    for r in &mut rows {
        r.effect = effects.get(&r.key).copied();
    }
    rows
}

/// What an item's effect is measured against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Baseline {
    /// One copy of the item in place of an average copy of the section's
    /// items (cards, cards at a tier): a board's copies fill its slots, so
    /// the question is what this card does that another would not.
    AverageCopy,
    /// The item absent (keywords, runes).
    Absence,
}

/// Marginal effects of cards, card tiers, runes, keywords and footprints: one model per
/// section, each on the boards that fought (`dense`), fitted on every
/// matchup (`marginal.rs`, `docs/report.md`).
fn marginal_effects(
    boards: &[BoardRow],
    dense: &BTreeMap<u32, u32>,
    matchups: &[crate::analysis::MatchupTally],
    model: ModelSettings,
) -> [BTreeMap<String, Effect>; 5] {
    let mut fought: Vec<&BoardRow> = boards.iter().filter(|b| dense.contains_key(&b.board_id)).collect();
    fought.sort_by_key(|b| dense[&b.board_id]);
    let results: Vec<MatchupResult> = matchups
        .iter()
        .filter_map(|m| {
            Some(MatchupResult {
                left: *dense.get(&m.left)?,
                right: *dense.get(&m.right)?,
                fights: m.fights as f64,
                left_score: m.left_wins as f64 + 0.5 * m.draws as f64,
            })
        })
        .collect();
    // Tiers above the first, a control for how much a board spent.
    let surplus = |b: &BoardRow| b.tiers.iter().map(|&t| f64::from(t - 1)).sum::<f64>();
    let copies = |keys: &[String]| keys.iter().map(|k| (k.clone(), 1.0)).collect::<Vec<_>>();
    let present = |keys: &[String]| {
        let mut unique: Vec<&String> = keys.iter().collect();
        unique.sort();
        unique.dedup();
        unique.into_iter().map(|k| (k.clone(), 1.0)).collect::<Vec<_>>()
    };
    let card_items: Vec<_> = fought.iter().map(|b| copies(&b.cards)).collect();
    let tier_items: Vec<_> = fought
        .iter()
        .map(|b| {
            let keys: Vec<String> = b.cards.iter().zip(&b.tiers).map(|(c, t)| format!("{c} t{t}")).collect();
            copies(&keys)
        })
        .collect();
    // Runes and resonances only: a rune's tier rows would be collinear with
    // the rune's own (the rune is the sum of its tiers), so they carry a
    // win rate and no effect.
    let rune_items: Vec<_> = fought
        .iter()
        .map(|b| {
            let mut keys = b.runes.clone();
            if !b.resonance.is_empty() {
                keys.push(format!("resonance {}", b.resonance));
            }
            present(&keys)
        })
        .collect();
    let keyword_items: Vec<_> = fought.iter().map(|b| present(&b.keywords)).collect();
    let size_items: Vec<_> = fought.iter().map(|b| copies(&b.footprints)).collect();
    let spent: Vec<Vec<f64>> = fought.iter().map(|b| vec![surplus(b)]).collect();
    let sized: Vec<Vec<f64>> = fought.iter().map(|b| vec![b.cards.len() as f64, surplus(b)]).collect();
    let none: Vec<Vec<f64>> = vec![Vec::new(); fought.len()];
    [
        section_effects(&card_items, &spent, &results, Baseline::AverageCopy, model),
        section_effects(&tier_items, &none, &results, Baseline::AverageCopy, model),
        section_effects(&rune_items, &sized, &results, Baseline::Absence, model),
        section_effects(&keyword_items, &sized, &results, Baseline::Absence, model),
        section_effects(&size_items, &spent, &results, Baseline::AverageCopy, model),
    ]
}

/// Fits one section's model: a feature per item (its count on the board)
/// and the controls after them; each item's effect against `baseline`.
fn section_effects(
    items: &[Vec<(String, f64)>],
    controls: &[Vec<f64>],
    results: &[MatchupResult],
    baseline: Baseline,
    model: ModelSettings,
) -> BTreeMap<String, Effect> {
    let mut index: BTreeMap<&str, u32> = items.iter().flatten().map(|(k, _)| (k.as_str(), 0)).collect();
    if index.is_empty() || results.is_empty() {
        return BTreeMap::new();
    }
    for (i, v) in index.values_mut().enumerate() {
        *v = i as u32;
    }
    let n_items = index.len();
    let mut total = vec![0.0f64; n_items];
    let features: Vec<BoardFeatures> = items
        .iter()
        .zip(controls)
        .map(|(board, extra)| {
            let mut x: BTreeMap<u32, f64> = BTreeMap::new();
            for (k, v) in board {
                let i = index[k.as_str()];
                *x.entry(i).or_default() += v;
                total[i as usize] += v;
            }
            let mut x: BoardFeatures = x.into_iter().collect();
            x.extend(extra.iter().enumerate().map(|(c, &v)| ((n_items + c) as u32, v)));
            x
        })
        .collect();
    let width = n_items + controls.first().map_or(0, Vec::len);
    let Some(fit) = marginal::fit(width, &features, results, model) else {
        return BTreeMap::new();
    };
    let all: f64 = total.iter().sum();
    let curve = marginal::EffectCurve::new(&fit, &features, results);
    index
        .into_iter()
        .map(|(key, i)| {
            let mut weights: Vec<(u32, f64)> = match baseline {
                Baseline::Absence => Vec::new(),
                Baseline::AverageCopy => (0..n_items as u32).map(|k| (k, -total[k as usize] / all)).collect(),
            };
            match weights.iter_mut().find(|(k, _)| *k == i) {
                Some((_, w)) => *w += 1.0,
                None => weights.push((i, 1.0)),
            }
            let (logit, se) = fit.contrast(&weights);
            let effect = Effect {
                points: curve.at(logit),
                low: curve.at(logit - Z95 * se),
                high: curve.at(logit + Z95 * se),
                logit,
                logit_se: se,
            };
            (key.to_string(), effect)
        })
        .collect()
}

/// A keyword pair on one side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairRow {
    pub a: String,
    pub b: String,
    pub fights: u64,
    pub wins: u64,
    pub draws: u64,
    pub win_rate: f64,
    /// Boards holding both keywords, and the board-bootstrap interval.
    pub boards: u64,
    pub low: f64,
    pub high: f64,
    /// The pair's win rate less what the two give apart, each measured as
    /// its distance from 50%: `p(ab) - p(a) - p(b) + 0.5`.
    pub lift: f64,
    pub ranked: bool,
}

/// Keyword `a` on one side against keyword `b` on the other.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VersusCell {
    pub a: String,
    pub b: String,
    pub fights: u64,
    pub wins: u64,
    pub draws: u64,
    pub win_rate: f64,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub runs: Vec<String>,
    pub baseline: Option<String>,
    pub fights: u64,
    /// Boards that fought: the effective sample the intervals count.
    pub boards: u64,
    pub min_sample: u64,
    pub min_boards: u64,
    pub band: [f64; 2],
    /// The false discovery rate of the flags (Benjamini–Hochberg).
    pub false_discovery_rate: f64,
    /// Redraws of the board pool behind every interval.
    pub bootstrap_replicates: u32,
    pub cards: Vec<RateRow>,
    pub card_tiers: Vec<RateRow>,
    pub runes: Vec<RateRow>,
    pub keywords: Vec<RateRow>,
    /// Units by footprint (`1x1` to `4x4`).
    pub footprints: Vec<RateRow>,
    pub keyword_pairs: Vec<PairRow>,
    pub keyword_versus: Vec<VersusCell>,
    /// Every outlier with its numbers, listed first in the page.
    pub outliers: Vec<Outlier>,
    /// `section: key` of every significant change since the baseline.
    pub significant_changes: Vec<String>,
    /// What a designer reads first: the changes beyond noise since the
    /// baseline and the outliers, in a few sentences.
    pub what_changed: String,
}

/// An item whose win rate lies outside the band beyond noise.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outlier {
    pub section: String,
    pub key: String,
    pub name: String,
    pub win_rate: f64,
    pub low: f64,
    pub high: f64,
    /// `above` or `below` the band.
    pub direction: &'static str,
    pub fights: u64,
    pub boards: u64,
    pub p_value: f64,
}

impl Outlier {
    /// One line a person reads: what, how far, on what sample.
    pub fn describe(&self) -> String {
        format!(
            "{} {} ({}): {:.1}% (95% interval {:.1}–{:.1}%), {} the band; {} boards, {} fights",
            self.section,
            self.name,
            self.key,
            100.0 * self.win_rate,
            100.0 * self.low,
            100.0 * self.high,
            self.direction,
            self.boards,
            self.fights
        )
    }
}

/// Builds the report's figures from tallies and the boards table.
pub fn build(runs: Vec<String>, tallies: &Tallies, boards: &[BoardRow], s: &ReportSettings) -> Report {
    let by_id: BTreeMap<u32, &BoardRow> = boards.iter().map(|b| (b.board_id, b)).collect();
    // Dense board indices for the bootstrap, in boards-table order, over the
    // boards that fought: a drawn board no fight met says nothing, and
    // redrawing it would only shrink each replicate's sample at random.
    let fought: std::collections::BTreeSet<u32> = tallies
        .boards
        .iter()
        .filter(|t| t.fights > 0)
        .map(|t| t.board_id)
        .collect();
    let dense: BTreeMap<u32, u32> = boards
        .iter()
        .filter(|b| fought.contains(&b.board_id))
        .enumerate()
        .map(|(i, b)| (b.board_id, i as u32))
        .collect();
    let mut pairs_seen = Vec::with_capacity(2 * tallies.matchups.len());
    for m in &tallies.matchups {
        let (Some(&l), Some(&r)) = (dense.get(&m.left), dense.get(&m.right)) else {
            continue;
        };
        for (holder, opponent, wins) in [(l, r, m.left_wins), (r, l, m.right_wins)] {
            pairs_seen.push(PairResult {
                holder,
                opponent,
                fights: m.fights,
                wins,
            });
        }
    }
    // Both orders of a matchup meet the same pair of boards: one entry per
    // (holder, opponent) halves the bootstrap's work.
    pairs_seen.sort_by_key(|p| (p.holder, p.opponent));
    pairs_seen.dedup_by(|later, kept| {
        let same = (later.holder, later.opponent) == (kept.holder, kept.opponent);
        if same {
            kept.fights += later.fights;
            kept.wins += later.wins;
        }
        same
    });
    let evidence = Evidence {
        boards: dense.len(),
        pairs: pairs_seen,
    };
    let mut cards: BTreeMap<String, Acc> = BTreeMap::new();
    let mut tiers: BTreeMap<String, Acc> = BTreeMap::new();
    let mut runes: BTreeMap<String, Acc> = BTreeMap::new();
    let mut keywords: BTreeMap<String, Acc> = BTreeMap::new();
    let mut sizes: BTreeMap<String, Acc> = BTreeMap::new();
    let mut pairs: BTreeMap<(String, String), Acc> = BTreeMap::new();
    for t in &tallies.boards {
        let (Some(b), Some(&d)) = (by_id.get(&t.board_id), dense.get(&t.board_id)) else {
            continue;
        };
        // A board counts once per card, card and tier, or rune it holds,
        // however many copies it holds.
        let tiered: Vec<String> = b.cards.iter().zip(&b.tiers).map(|(c, t)| format!("{c} t{t}")).collect();
        let rune_keys = rune_items(b);
        for (map, keys) in [
            (&mut cards, &b.cards),
            (&mut tiers, &tiered),
            (&mut runes, &rune_keys),
            (&mut sizes, &b.footprints),
        ] {
            let mut unique: Vec<&String> = keys.iter().collect();
            unique.sort();
            unique.dedup();
            for k in unique {
                map.entry(k.clone())
                    .or_default()
                    .add_board(d, t.fights, t.wins, t.draws);
            }
        }
        for (i, k) in b.keywords.iter().enumerate() {
            keywords
                .entry(k.clone())
                .or_default()
                .add_board(d, t.fights, t.wins, t.draws);
            for k2 in &b.keywords[i + 1..] {
                pairs
                    .entry((k.clone(), k2.clone()))
                    .or_default()
                    .add_board(d, t.fights, t.wins, t.draws);
            }
        }
        // Rune against keyword on one board: the same lift as keyword pairs.
        let mut placed: Vec<&String> = b.runes.iter().collect();
        placed.sort();
        placed.dedup();
        for r in placed {
            for k in &b.keywords {
                pairs
                    .entry((r.clone(), k.clone()))
                    .or_default()
                    .add_board(d, t.fights, t.wins, t.draws);
            }
        }
    }
    let (tables, pair_intervals) = intervals(&[&cards, &tiers, &runes, &keywords, &sizes], &pairs, &evidence, s);
    let [card_found, tier_found, rune_found, keyword_found, size_found]: [Vec<BoardInterval>; 5] = tables
        .try_into()
        .unwrap_or_else(|_| unreachable!("five tables in, five out"));
    let [card_effects, tier_effects, rune_effects, keyword_effects, size_effects] =
        marginal_effects(boards, &dense, &tallies.matchups, s.model);
    let keyword_rows = with_effects(rows(keywords, keyword_found, s), &keyword_effects);
    let rune_rows = with_effects(rows(runes, rune_found, s), &rune_effects);
    let single: BTreeMap<&str, f64> = keyword_rows
        .iter()
        .chain(&rune_rows)
        .map(|r| (r.key.as_str(), r.win_rate))
        .collect();
    let mut keyword_pairs: Vec<PairRow> = pairs
        .into_iter()
        .zip(pair_intervals)
        .map(|(((a, b), acc), interval)| {
            let rate = if acc.n == 0 {
                0.0
            } else {
                acc.wins as f64 / acc.n as f64
            };
            let lift =
                rate - single.get(a.as_str()).copied().unwrap_or(0.5) - single.get(b.as_str()).copied().unwrap_or(0.5)
                    + 0.5;
            PairRow {
                a,
                b,
                fights: acc.n,
                wins: acc.wins,
                draws: acc.draws,
                win_rate: rate,
                boards: acc.holders.len() as u64,
                low: interval.low,
                high: interval.high,
                lift,
                ranked: acc.n >= s.min_sample && acc.holders.len() as u64 >= s.min_boards,
            }
        })
        .collect();
    keyword_pairs.sort_by(|x, y| {
        y.ranked
            .cmp(&x.ranked)
            .then(y.lift.total_cmp(&x.lift))
            .then(x.a.cmp(&y.a))
            .then(x.b.cmp(&y.b))
    });

    // Keyword against keyword, from both sides of every matchup: counted in
    // a grid indexed by keyword (numbered in name order), since a suite of
    // 120 boards has 14,400 matchups, each adding to a hundred cells or so.
    let names: Vec<&String> = {
        let mut all: Vec<&String> = boards.iter().flat_map(|b| &b.keywords).collect();
        all.sort();
        all.dedup();
        all
    };
    let index: BTreeMap<&String, usize> = names.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    let board_keywords: BTreeMap<u32, Vec<usize>> = boards
        .iter()
        .map(|b| (b.board_id, b.keywords.iter().map(|k| index[k]).collect()))
        .collect();
    let k = names.len();
    let mut versus: Vec<Option<Acc>> = vec![None; k * k];
    for m in &tallies.matchups {
        let (Some(l), Some(r)) = (board_keywords.get(&m.left), board_keywords.get(&m.right)) else {
            continue;
        };
        for (mine, theirs, wins) in [(l, r, m.left_wins), (r, l, m.right_wins)] {
            for &a in mine {
                for &b in theirs {
                    versus[a * k + b].get_or_insert_default().add(m.fights, wins, m.draws);
                }
            }
        }
    }
    let keyword_versus = versus
        .into_iter()
        .enumerate()
        .filter_map(|(cell, acc)| acc.map(|acc| (cell, acc)))
        .map(|(cell, acc)| VersusCell {
            a: names[cell / k].clone(),
            b: names[cell % k].clone(),
            fights: acc.n,
            wins: acc.wins,
            draws: acc.draws,
            win_rate: if acc.n == 0 {
                0.0
            } else {
                acc.wins as f64 / acc.n as f64
            },
        })
        .collect();

    let mut report = Report {
        runs,
        baseline: None,
        fights: tallies.fights,
        boards: dense.len() as u64,
        min_sample: s.min_sample,
        min_boards: s.min_boards,
        band: [s.band_low, s.band_high],
        false_discovery_rate: s.false_discovery_rate,
        bootstrap_replicates: s.bootstrap.replicates,
        cards: with_effects(rows(cards, card_found, s), &card_effects),
        card_tiers: with_effects(rows(tiers, tier_found, s), &tier_effects),
        runes: rune_rows,
        keywords: keyword_rows,
        footprints: with_effects(rows(sizes, size_found, s), &size_effects),
        keyword_pairs,
        keyword_versus,
        outliers: Vec::new(),
        significant_changes: Vec::new(),
        what_changed: String::new(),
    };
    flag_outliers(&mut report, s.false_discovery_rate);
    report.what_changed = what_changed(&report);
    report
}

/// Flags the ranked rows whose rate lies outside the band beyond noise:
/// Benjamini–Hochberg over every ranked row of every section at once.
fn flag_outliers(report: &mut Report, q: f64) {
    let mut tested: Vec<(usize, usize, f64)> = Vec::new();
    for (section, (_, rows)) in sections_mut(report).into_iter().enumerate() {
        for (i, r) in rows.iter().enumerate() {
            if r.ranked {
                tested.push((section, i, r.p_outside_band));
            }
        }
    }
    let p: Vec<f64> = tested.iter().map(|t| t.2).collect();
    let found = stats::benjamini_hochberg(&p, q);
    let band = report.band;
    let mut outliers = Vec::new();
    let mut sections = sections_mut(report);
    for (&(section, i, p_value), flagged) in tested.iter().zip(found) {
        if !flagged {
            continue;
        }
        let (name, rows) = &mut sections[section];
        let r = &mut rows[i];
        r.outlier = true;
        outliers.push(Outlier {
            section: name.to_string(),
            key: r.key.clone(),
            name: r.name.clone(),
            win_rate: r.win_rate,
            low: r.low,
            high: r.high,
            direction: if r.win_rate > band[1] { "above" } else { "below" },
            fights: r.fights,
            boards: r.boards,
            p_value,
        });
    }
    report.outliers = outliers;
}

/// A board's rows of the rune table: each rune it places, each rune at
/// its tier (`ember_rune t2`), and its resonance (`resonance overpower`).
fn rune_items(b: &BoardRow) -> Vec<String> {
    let mut keys: Vec<String> = b.runes.clone();
    keys.extend(b.runes.iter().zip(&b.rune_tiers).map(|(r, t)| format!("{r} t{t}")));
    if !b.resonance.is_empty() {
        keys.push(format!("resonance {}", b.resonance));
    }
    keys
}

/// Every table of win rates: how a flag names an item of it, and the
/// table's field in `summary.json`.
pub const RATE_SECTIONS: [(&str, &str); 5] = [
    ("card", "cards"),
    ("card and tier", "card_tiers"),
    ("rune", "runes"),
    ("keyword", "keywords"),
    ("footprint", "footprints"),
];

impl Report {
    /// The tables of [`RATE_SECTIONS`], in its order.
    pub fn rate_tables(&self) -> [&Vec<RateRow>; 5] {
        [
            &self.cards,
            &self.card_tiers,
            &self.runes,
            &self.keywords,
            &self.footprints,
        ]
    }
}

fn sections_mut(r: &mut Report) -> Vec<(&'static str, &mut Vec<RateRow>)> {
    let tables = [
        &mut r.cards,
        &mut r.card_tiers,
        &mut r.runes,
        &mut r.keywords,
        &mut r.footprints,
    ];
    RATE_SECTIONS.iter().map(|s| s.0).zip(tables).collect()
}

/// Compares every figure with the baseline report's: the change in win
/// rate, its combined 95% uncertainty (1.96 x the root of the two squared
/// bootstrap standard errors), and whether it is beyond noise after a
/// Benjamini–Hochberg correction over every compared row.
pub fn compare(report: &mut Report, baseline: &Report, baseline_name: String) {
    let q = report.false_discovery_rate;
    let mut tested: Vec<(usize, usize)> = Vec::new();
    let mut p_values = Vec::new();
    let base = baseline.rate_tables();
    for (section, (_, rows)) in sections_mut(report).into_iter().enumerate() {
        for (i, row) in rows.iter_mut().enumerate() {
            let Some(b) = base[section].iter().find(|b| b.key == row.key) else {
                continue;
            };
            let se = (row.se * row.se + b.se * b.se).sqrt();
            let delta = row.win_rate - b.win_rate;
            let p_value = stats::difference_p(delta, se);
            row.change = Some(Change {
                baseline_win_rate: b.win_rate,
                baseline_fights: b.fights,
                delta,
                combined_uncertainty: Z95 * se,
                p_value,
                significant: false,
            });
            tested.push((section, i));
            p_values.push(p_value);
        }
    }
    let found = stats::benjamini_hochberg(&p_values, q);
    let mut significant = Vec::new();
    let mut sections = sections_mut(report);
    for (&(section, i), beyond) in tested.iter().zip(found) {
        if !beyond {
            continue;
        }
        let (name, rows) = &mut sections[section];
        if let Some(change) = rows[i].change.as_mut() {
            change.significant = true;
        }
        significant.push(format!("{name}: {}", rows[i].key));
    }
    report.significant_changes = significant;
    report.baseline = Some(baseline_name);
    report.what_changed = what_changed(report);
}

fn points(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The report's opening paragraph, in words: the largest changes beyond
/// noise since the baseline (at most five), then the outliers (the
/// furthest from the band first, at most five).
fn what_changed(r: &Report) -> String {
    let mut out = Vec::new();
    let named = |section: &str, row: &RateRow| format!("{} ({section})", row.name);
    match &r.baseline {
        None => out.push("No earlier run to compare with.".to_string()),
        Some(b) => {
            let mut moved: Vec<(&str, &RateRow, &Change)> = Vec::new();
            for ((section, _), rows) in RATE_SECTIONS.iter().zip(r.rate_tables()) {
                for row in rows {
                    if let Some(c) = row.change.as_ref().filter(|c| c.significant) {
                        moved.push((section, row, c));
                    }
                }
            }
            moved.sort_by(|x, y| y.2.delta.abs().total_cmp(&x.2.delta.abs()).then(x.1.key.cmp(&y.1.key)));
            if moved.is_empty() {
                out.push(format!("Since {b}, no win rate moved beyond noise."));
            } else {
                let told: Vec<String> = moved
                    .iter()
                    .take(5)
                    .map(|(section, row, c)| {
                        format!(
                            "{} {} from {} to {} ({:+.1} points, ±{:.1})",
                            named(section, row),
                            if c.delta > 0.0 { "rose" } else { "fell" },
                            points(c.baseline_win_rate),
                            points(row.win_rate),
                            100.0 * c.delta,
                            100.0 * c.combined_uncertainty
                        )
                    })
                    .collect();
                let more = if moved.len() > 5 {
                    format!(" ({} more in the tables)", moved.len() - 5)
                } else {
                    String::new()
                };
                out.push(format!(
                    "Since {b}, {} win rates moved beyond noise: {}{more}.",
                    moved.len(),
                    told.join("; ")
                ));
            }
        }
    }
    if r.outliers.is_empty() {
        out.push(format!(
            "No item lies outside the {}–{} band beyond noise.",
            points(r.band[0]),
            points(r.band[1])
        ));
    } else {
        let mut far: Vec<&Outlier> = r.outliers.iter().collect();
        let distance = |o: &Outlier| (o.win_rate - 0.5).abs();
        far.sort_by(|x, y| distance(y).total_cmp(&distance(x)).then(x.key.cmp(&y.key)));
        let told: Vec<String> = far
            .iter()
            .take(5)
            .map(|o| format!("{} ({}) at {}", o.name, o.section, points(o.win_rate)))
            .collect();
        out.push(format!(
            "{} items lie outside the {}–{} band beyond noise; the furthest: {}.",
            r.outliers.len(),
            points(r.band[0]),
            points(r.band[1]),
            told.join("; ")
        ));
    }
    out.join(" ")
}

/// Builds the report of run directories already verified and checked to
/// be one run (see [`crate::runs::report_of`]).
pub fn from_verified_runs(
    manifests: &[(std::path::PathBuf, crate::dataset::Manifest)],
    s: &ReportSettings,
) -> Result<Report, String> {
    let (first_dir, first) = manifests.first().ok_or("name at least one run directory")?;
    let mut fight_files = Vec::new();
    let mut seen_parts = std::collections::BTreeSet::new();
    for (d, m) in manifests {
        for p in &m.parts {
            if !seen_parts.insert(p.index) {
                return Err(format!(
                    "{}: part {} is also in another run directory given",
                    d.display(),
                    p.index
                ));
            }
            let f = p.file(m.identity.kind, "fights").ok_or_else(|| {
                format!(
                    "{}: a run of matches; its report is `gridsim report` on a match run",
                    d.display()
                )
            })?;
            fight_files.push(d.join(&f.path));
        }
    }
    let boards_entry = first
        .boards_file
        .as_ref()
        .ok_or_else(|| format!("{}: the run has no boards table", first_dir.display()))?;
    let boards = crate::sink::read_boards(&first_dir.join(&boards_entry.path))?;
    let tallies = crate::analysis::tally(&fight_files)?;
    // Printed names from the run's own copy of the catalog, already hashed.
    let catalog = crate::config::load_catalog(&[first_dir.join("inputs").join("cards")])
        .map_err(|d| d.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))?;
    let printed: BTreeMap<String, String> = catalog.cards.iter().map(|c| (c.key.clone(), c.name.clone())).collect();
    let names = manifests
        .iter()
        .map(|(d, _)| {
            d.file_name()
                .map_or_else(|| d.display().to_string(), |n| n.to_string_lossy().into_owned())
        })
        .collect();
    let mut report = build(names, &tallies, &boards, s);
    report.name_cards(&printed);
    Ok(report)
}

/// The report's directory name: the run's name without a shard suffix.
pub fn report_name(run_dir: &std::path::Path) -> String {
    let name = run_dir
        .file_name()
        .map_or_else(|| "run".to_string(), |n| n.to_string_lossy().into_owned());
    match name.rfind("-shard") {
        Some(i) => name[..i].to_string(),
        None => name,
    }
}

/// How the page names a run it compares with: its [`report_name`], and the
/// night's date for a nightly run, since every night's run has the same
/// name and sits in a folder named by its date.
pub fn run_label(run_dir: &std::path::Path) -> String {
    let night = run_dir
        .parent()
        .and_then(|p| p.file_name())
        .map(|d| d.to_string_lossy().into_owned())
        .filter(|d| crate::nightly::is_date(d));
    match night {
        Some(date) => format!("{} of {date}", report_name(run_dir)),
        None => report_name(run_dir),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tallies() -> (Tallies, Vec<BoardRow>) {
        use crate::analysis::{BoardTally, MatchupTally};
        let board = |id: u32, cards: &[&str], keywords: &[&str]| BoardRow {
            board_id: id,
            name: format!("b{id}"),
            cards: cards.iter().map(|s| s.to_string()).collect(),
            tiers: vec![1; cards.len()],
            runes: Vec::new(),
            rune_tiers: Vec::new(),
            resonance: String::new(),
            keywords: keywords.iter().map(|s| s.to_string()).collect(),
            footprints: Vec::new(),
        };
        let boards = vec![
            board(0, &["crab", "fox"], &["burn", "maim"]),
            board(1, &["fox"], &["burn"]),
        ];
        let t = Tallies {
            fights: 1000,
            boards: vec![
                BoardTally {
                    board_id: 0,
                    fights: 1000,
                    wins: 800,
                    draws: 50,
                },
                BoardTally {
                    board_id: 1,
                    fights: 1000,
                    wins: 150,
                    draws: 50,
                },
            ],
            matchups: vec![
                MatchupTally {
                    left: 0,
                    right: 1,
                    fights: 500,
                    left_wins: 400,
                    right_wins: 75,
                    draws: 25,
                },
                MatchupTally {
                    left: 1,
                    right: 0,
                    fights: 500,
                    left_wins: 75,
                    right_wins: 400,
                    draws: 25,
                },
            ],
        };
        (t, boards)
    }

    #[test]
    fn figures_add_up_per_card_keyword_and_pair() {
        let (t, boards) = tallies();
        let r = build(vec!["run".into()], &t, &boards, &ReportSettings::default());
        let crab = r.cards.iter().find(|c| c.key == "crab").expect("crab");
        assert_eq!((crab.fights, crab.wins, crab.draws, crab.losses), (1000, 800, 50, 150));
        assert_eq!(crab.boards, 1);
        let fox = r.cards.iter().find(|c| c.key == "fox").expect("fox");
        assert_eq!(
            (fox.fights, fox.wins, fox.boards),
            (2000, 950, 2),
            "fox is on both boards"
        );
        // One board holds crab: its 1,000 fights say how that board does,
        // not how crab does, so crab is not ranked and no outlier however
        // far from 50%.
        assert!(
            !crab.ranked && !crab.outlier && r.outliers.is_empty(),
            "{:?}",
            r.outliers
        );
        let burn = r.keywords.iter().find(|k| k.key == "burn").expect("burn");
        assert_eq!(burn.fights, 2000);
        let pair = &r.keyword_pairs[0];
        assert_eq!((pair.a.as_str(), pair.b.as_str(), pair.fights), ("burn", "maim", 1000));
        // lift = p(ab) - p(a) - p(b) + 0.5 = 0.8 - 0.475 - 0.8 + 0.5.
        assert!((pair.lift - 0.025).abs() < 1e-9, "{}", pair.lift);
        let maim_vs_burn = r
            .keyword_versus
            .iter()
            .find(|c| c.a == "maim" && c.b == "burn")
            .expect("cell");
        assert_eq!((maim_vs_burn.fights, maim_vs_burn.wins), (1000, 800));
    }

    /// `boards` boards, every ordered pair fought `fights` times; the
    /// boards in `strong` hold "crab" and win with probability 0.5 + edge
    /// against the others; every board holds "fox".
    fn field(boards: u32, strong: u32, edge: f64, fights: u64) -> (Tallies, Vec<BoardRow>) {
        use crate::analysis::MatchupTally;
        let rows: Vec<BoardRow> = (0..boards)
            .map(|id| BoardRow {
                board_id: id,
                name: format!("b{id}"),
                cards: if id < strong {
                    vec!["crab".into(), "fox".into()]
                } else {
                    vec!["fox".into()]
                },
                tiers: vec![1; if id < strong { 2 } else { 1 }],
                runes: Vec::new(),
                rune_tiers: Vec::new(),
                resonance: String::new(),
                keywords: Vec::new(),
                footprints: Vec::new(),
            })
            .collect();
        let mut matchups = Vec::new();
        for l in 0..boards {
            for r in 0..boards {
                let p = 0.5 + edge * (f64::from(u8::from(l < strong)) - f64::from(u8::from(r < strong)));
                let left_wins = (p * fights as f64).round() as u64;
                matchups.push(MatchupTally {
                    left: l,
                    right: r,
                    fights,
                    left_wins,
                    right_wins: fights - left_wins,
                    draws: 0,
                });
            }
        }
        let t = Tallies::from_matchups(matchups);
        (t, rows)
    }

    #[test]
    fn an_item_strong_on_many_boards_is_an_outlier_with_its_numbers() {
        let (t, boards) = field(40, 10, 0.2, 100);
        let r = build(vec!["run".into()], &t, &boards, &ReportSettings::default());
        let crab = r.cards.iter().find(|c| c.key == "crab").expect("crab");
        assert_eq!(crab.boards, 10);
        assert!(crab.outlier && crab.low > 0.55, "{crab:?}");
        let o = r.outliers.iter().find(|o| o.key == "crab").expect("listed");
        assert_eq!((o.section.as_str(), o.direction, o.boards), ("card", "above", 10));
        assert!(o.describe().contains("10 boards"), "{}", o.describe());
        // Every board holds fox: it wins exactly half, and is no outlier.
        let fox = r.cards.iter().find(|c| c.key == "fox").expect("fox");
        assert!((fox.win_rate - 0.5).abs() < 1e-9 && !fox.outlier);
    }

    #[test]
    fn changes_beyond_noise_are_flagged() {
        let s = ReportSettings::default();
        let (t, boards) = field(40, 10, 0.2, 100);
        let base = build(vec!["base".into()], &t, &boards, &s);
        let (weaker, _) = field(40, 10, 0.02, 100);
        let mut now = build(vec!["now".into()], &weaker, &boards, &s);
        compare(&mut now, &base, "base".into());
        let crab = now.cards.iter().find(|c| c.key == "crab").expect("crab");
        let change = crab.change.as_ref().expect("compared");
        assert!(change.delta < -0.1 && change.significant, "{change:?}");
        assert!(now.significant_changes.contains(&"card: crab".to_string()));
        let mut same = build(vec!["again".into()], &t, &boards, &s);
        compare(&mut same, &base, "base".into());
        assert!(same.significant_changes.is_empty());
    }
}
