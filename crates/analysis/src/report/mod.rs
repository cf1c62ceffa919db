//! The balance report: win rates per card, card and tier, rune and keyword
//! with 95% intervals that count the boards on both sides of every fight
//! (two-way clustered, `dyadic.rs`), beside each the rate against boards
//! without the item; keyword pairs with their lift; keyword against
//! keyword; outliers and changes since a baseline run (paired where the
//! two runs fought the same pairs), each flagged after a Benjamini–Hochberg
//! correction for testing many items at once. Built from the run's tallies
//! and its boards, written as HTML (charts as inline SVG), Markdown and
//! JSON.

use crate::Error;
use std::collections::BTreeMap;

use serde::Serialize;

mod compare;
mod effects;
mod holdings;

use compare::what_changed;
pub use compare::{Against, compare, paired_changes};
use effects::marginal_effects;
use holdings::{DenseBoards, FIT_IN_MEMORY_RECORDS, Holdings, keyword_versus};

use crate::analysis::Tallies;
use crate::dyadic::{ItemRates, Ratio};
use crate::marginal::ModelSettings;
use crate::stats;
use gridsim_data::board_table::{Board, BoardTable};

/// Report settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReportSettings {
    /// Rows with fewer fights are greyed and not ranked.
    pub min_sample: u64,
    /// Rows held by fewer boards are greyed and not ranked either: a
    /// clustered standard error rests on the clusters behind it, and with
    /// a handful of holders it cannot see how much other boards holding the
    /// item would differ, so its interval would be too narrow.
    pub min_boards: u64,
    /// The band a win rate's whole interval must leave to be an outlier.
    pub band_low: f64,
    pub band_high: f64,
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
    /// 95% interval (`win_rate ± 1.96 se`, within 0–1) and standard error,
    /// two-way clustered by board (`dyadic.rs`).
    pub low: f64,
    pub high: f64,
    pub se: f64,
    /// The holders' fights against boards without the item (mirrors out),
    /// their wins and rate with its interval: the rate a band speaks
    /// about, since a mirror counts once as a win and once as a loss.
    /// `apart_fights` is 0 for an item every board holds.
    pub apart_fights: u64,
    pub apart_wins: u64,
    pub apart_win_rate: f64,
    pub apart_low: f64,
    pub apart_high: f64,
    pub apart_se: f64,
    /// Share of the holders' fights (from their side) that were mirrors.
    pub mirror_share: f64,
    /// At least the minimum sample: ranked and eligible as an outlier.
    pub ranked: bool,
    /// P-value that the true rate against boards without the item lies
    /// inside the band (1 when the estimate does, or when it has fewer
    /// than the minimum sample); flagged as an outlier after the
    /// correction.
    pub p_outside_band: f64,
    pub outlier: bool,
    /// What the item adds with the rest of the board held equal
    /// (`marginal.rs`); absent where no model could be fitted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
    /// The items whose effect the data cannot separate from this one's
    /// (then `effect` is absent): keywords that always travel together, say.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_separable_from: Vec<String>,
    /// Filled when a baseline is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<Change>,
}

/// A marginal effect in win-rate points (as a fraction: 0.032 is 3.2
/// points): how much the item raises a side's chance of winning, averaged
/// over the fights the run played, with the rest of the board held equal.
/// For a card or a card at a tier, the change is one copy of it in place of
/// an average copy; for a keyword or rune, having it rather than not.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Effect {
    pub points: f64,
    /// 95% interval: the logit-scale interval (board-clustered standard
    /// error) mapped through the same average, which rises with the logit.
    pub low: f64,
    pub high: f64,
    /// The estimate and standard error in logits.
    pub logit: f64,
    pub logit_se: f64,
    /// Where the data fix only a difference (every board holds exactly one
    /// resonance, so "having it rather than not" is not identified): the
    /// item this effect is measured against.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub against: Option<String>,
}

/// What the model says of one item: an effect, or which items the data
/// cannot separate it from (always together, or summing to the same on
/// every board), where no number would be honest.
#[derive(Debug, Clone, PartialEq)]
enum Estimate {
    Effect(Effect),
    NotSeparable(Vec<String>),
}

/// A figure against the baseline run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    pub baseline_win_rate: f64,
    pub baseline_fights: u64,
    pub delta: f64,
    /// 1.96 x the standard error of the change: paired (the per-fight
    /// difference, two-way clustered) when the runs fought the same pairs,
    /// else the root of the two rates' squared standard errors.
    pub combined_uncertainty: f64,
    pub paired: bool,
    pub p_value: f64,
    /// Beyond noise after the correction for testing many items.
    pub significant: bool,
}

#[derive(Debug, Clone, Default)]
struct Acc {
    n: u64,
    wins: u64,
    draws: u64,
    /// The boards holding the item.
    boards: u64,
}

impl Acc {
    fn add(&mut self, n: u64, wins: u64, draws: u64) {
        self.n += n;
        self.wins += wins;
        self.draws += draws;
    }
    fn add_board(&mut self, n: u64, wins: u64, draws: u64) {
        self.add(n, wins, draws);
        self.boards += 1;
    }
}

/// A rate's 95% interval from its standard error, within 0–1; the whole
/// range where nothing is known.
fn interval(r: &Ratio) -> (f64, f64) {
    if !(r.ratio.is_finite() && r.se.is_finite()) {
        return (0.0, 1.0);
    }
    ((r.ratio - Z95 * r.se).max(0.0), (r.ratio + Z95 * r.se).min(1.0))
}

fn rows(map: BTreeMap<String, Acc>, found: Vec<ItemRates>, s: &ReportSettings) -> Vec<RateRow> {
    let mut out: Vec<RateRow> = map
        .into_iter()
        .zip(found)
        .map(|((key, a), est)| {
            let ranked = a.n >= s.min_sample && a.boards >= s.min_boards;
            let rate = |x: u64| if a.n == 0 { 0.0 } else { x as f64 / a.n as f64 };
            let (low, high) = interval(&est.all);
            let (apart_low, apart_high) = interval(&est.apart);
            let apart_fights = est.apart.denominator.max(0) as u64;
            let apart_rate = if apart_fights == 0 { 0.0 } else { est.apart.ratio };
            // The band speaks about the rate against boards without the
            // item; a row with too few such fights is not tested.
            let p_outside_band = if ranked && apart_fights >= s.min_sample {
                stats::outside_band_p(apart_rate, est.apart.se, s.band_low, s.band_high)
            } else {
                1.0
            };
            RateRow {
                name: display_name(&key),
                key,
                fights: a.n,
                wins: a.wins,
                draws: a.draws,
                losses: a.n - a.wins - a.draws,
                win_rate: rate(a.wins),
                draw_rate: rate(a.draws),
                boards: a.boards,
                low,
                high,
                se: finite(est.all.se),
                apart_fights,
                apart_wins: est.apart.numerator.max(0) as u64,
                apart_win_rate: apart_rate,
                apart_low,
                apart_high,
                apart_se: finite(est.apart.se),
                mirror_share: if a.n == 0 {
                    0.0
                } else {
                    1.0 - apart_fights as f64 / a.n as f64
                },
                ranked,
                p_outside_band,
                // Set once every section's p-values are known.
                outlier: false,
                effect: None,
                not_separable_from: Vec::new(),
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

/// A standard error for the tables: 0.5 (all that is known of a rate)
/// where it could not be estimated.
fn finite(se: f64) -> f64 {
    if se.is_finite() { se } else { 0.5 }
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

fn with_effects(mut rows: Vec<RateRow>, effects: &BTreeMap<String, Estimate>) -> Vec<RateRow> {
    for r in &mut rows {
        match effects.get(&r.key) {
            Some(Estimate::Effect(e)) => r.effect = Some(e.clone()),
            Some(Estimate::NotSeparable(others)) => r.not_separable_from = others.clone(),
            None => {}
        }
    }
    rows
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
    /// Boards holding both keywords, and the two-way clustered interval.
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

/// The words a report uses for what its run played: fights between
/// boards, or Riftbound's showdowns between lanes (docs/riftbound.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Vocabulary {
    pub contest: &'static str,
    pub contests: &'static str,
    pub side: &'static str,
    pub sides: &'static str,
}

impl Vocabulary {
    pub const FIGHTS: Vocabulary = Vocabulary {
        contest: "fight",
        contests: "fights",
        side: "board",
        sides: "boards",
    };
    pub const SHOWDOWNS: Vocabulary = Vocabulary {
        contest: "showdown",
        contests: "showdowns",
        side: "lane",
        sides: "lanes",
    };
    pub const GAMES: Vocabulary = Vocabulary {
        contest: "game",
        contests: "games",
        side: "deck",
        sides: "decks",
    };

    /// The words of a run of `kind`.
    pub fn of(kind: gridsim_data::dataset::RunKind) -> Vocabulary {
        match kind {
            gridsim_data::dataset::RunKind::Showdowns => Vocabulary::SHOWDOWNS,
            gridsim_data::dataset::RunKind::Games => Vocabulary::GAMES,
            _ => Vocabulary::FIGHTS,
        }
    }
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub runs: Vec<String>,
    /// What the run played, in words: `fights` between `boards`, or
    /// `showdowns` between `lanes`.
    pub vocabulary: Vocabulary,
    pub baseline: Option<String>,
    pub fights: u64,
    /// Boards that fought: the effective sample the intervals count.
    pub boards: u64,
    pub min_sample: u64,
    pub min_boards: u64,
    pub band: [f64; 2],
    /// The false discovery rate of the flags (Benjamini–Hochberg).
    pub false_discovery_rate: f64,
    /// How the comparison with the baseline was made: paired or
    /// independent, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparison: Option<String>,
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
    /// A run of whole Riftbound games' own figures: decks, the matrix,
    /// going first, length, bots.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games: Option<Box<crate::game_report::GameReport>>,
}

/// An item whose win rate against boards without it lies outside the band
/// beyond noise.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outlier {
    pub section: String,
    pub key: String,
    pub name: String,
    /// The flagged figure: the rate against boards without the item, and
    /// its 95% interval.
    pub win_rate: f64,
    pub low: f64,
    pub high: f64,
    /// The rate over all the holders' fights, mirrors included.
    pub holder_win_rate: f64,
    /// `above` or `below` the band.
    pub direction: &'static str,
    pub fights: u64,
    pub boards: u64,
    pub p_value: f64,
}

impl Outlier {
    /// One line a person reads: what, how far, on what sample.
    pub fn describe(&self) -> String {
        self.describe_in(&Vocabulary::FIGHTS)
    }

    /// [`Outlier::describe`] in the words of the run.
    pub fn describe_in(&self, v: &Vocabulary) -> String {
        format!(
            "{} {} ({}): {:.1}% against {bs} without it (95% interval {:.1}–{:.1}%), {} the band ({:.1}% over all its {fs}); {} {bs}, {} {fs}",
            self.section,
            self.name,
            self.key,
            100.0 * self.win_rate,
            100.0 * self.low,
            100.0 * self.high,
            self.direction,
            100.0 * self.holder_win_rate,
            self.boards,
            self.fights,
            bs = v.sides,
            fs = v.contests,
        )
    }
}

/// Builds the report's figures from tallies and the boards table.
pub fn build(runs: Vec<String>, tallies: &Tallies, boards: &BoardTable, s: &ReportSettings) -> Result<Report, Error> {
    // The rates (the boards' holdings first, the keyword grid after) and
    // the effects read the same tallies and nothing of each other: side by
    // side on the cores, from the start.
    let (rates, effects) = rayon::join(
        || -> Result<_, Error> {
            let holdings = Holdings::new(tallies, boards);
            let found = holdings.run_estimates(tallies)?;
            let versus = keyword_versus(boards, &holdings.dense, &tallies.pairs)?;
            Ok((holdings, found, versus))
        },
        || {
            let dense = DenseBoards::of_run(tallies, boards);
            marginal_effects(boards, &dense, &tallies.pairs, s.model, FIT_IN_MEMORY_RECORDS)
        },
    );
    let (holdings, found, keyword_versus) = rates?;
    let ([card_found, tier_found, rune_found, keyword_found, size_found], pair_found) = found;
    let [card_effects, tier_effects, rune_effects, keyword_effects, size_effects] = effects?;
    let Holdings {
        dense,
        tables,
        pairs,
        of_board,
        ..
    } = holdings;
    drop(of_board);
    let [cards, tiers, runes, keywords, sizes] = tables;
    let keyword_rows = with_effects(rows(keywords, keyword_found, s), &keyword_effects);
    let rune_rows = with_effects(rows(runes, rune_found, s), &rune_effects);
    let single: BTreeMap<&str, f64> = keyword_rows
        .iter()
        .chain(&rune_rows)
        .map(|r| (r.key.as_str(), r.win_rate))
        .collect();
    let mut keyword_pairs: Vec<PairRow> = pairs
        .into_iter()
        .zip(pair_found)
        .map(|(((a, b), acc), est)| {
            let (low, high) = interval(&est.all);
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
                boards: acc.boards,
                low,
                high,
                lift,
                ranked: acc.n >= s.min_sample && acc.boards >= s.min_boards,
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

    let mut report = Report {
        runs,
        vocabulary: Vocabulary::FIGHTS,
        baseline: None,
        fights: tallies.fights,
        boards: dense.len() as u64,
        min_sample: s.min_sample,
        min_boards: s.min_boards,
        band: [s.band_low, s.band_high],
        false_discovery_rate: s.false_discovery_rate,
        comparison: None,
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
        games: None,
    };
    flag_outliers(&mut report, s.false_discovery_rate);
    report.what_changed = what_changed(&report);
    Ok(report)
}

/// The five rate tables alone, without effects, pairs or outliers: what
/// an independent comparison reads of its baseline.
pub fn rate_rows(tallies: &Tallies, boards: &BoardTable, s: &ReportSettings) -> Result<[Vec<RateRow>; 5], Error> {
    let holdings = Holdings::new(tallies, boards);
    let (found, _) = holdings.run_estimates(tallies)?;
    let mut found = found.into_iter();
    Ok(holdings
        .tables
        .map(|table| rows(table, found.next().unwrap_or_default(), s)))
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
            win_rate: r.apart_win_rate,
            low: r.apart_low,
            high: r.apart_high,
            holder_win_rate: r.win_rate,
            direction: if r.apart_win_rate > band[1] { "above" } else { "below" },
            fights: r.fights,
            boards: r.boards,
            p_value,
        });
    }
    report.outliers = outliers;
}

/// A board's rows of the rune table: each rune it places, each rune at
/// its tier (`ember_rune t2`), and its resonance (`resonance overpower`).
/// The rows of the rate tables a board counts in, table by table in the
/// order of [`RATE_SECTIONS`] (a key once per copy held; the tables count a
/// board once per key): its cards, each card at its tier (`ember_fox t2`),
/// its runes with their tiers and resonance, keywords and footprints.
pub fn rate_keys<'a>(b: Board<'a>, boards: &'a BoardTable) -> [Vec<std::borrow::Cow<'a, str>>; 5] {
    use std::borrow::Cow;
    let names = |list: &'a [u32]| boards.names(list).map(Cow::Borrowed).collect::<Vec<_>>();
    [
        names(b.cards),
        boards
            .names(b.cards)
            .zip(b.tiers)
            .map(|(c, t)| Cow::Owned(format!("{c} t{t}")))
            .collect(),
        rune_items(b, boards).into_iter().map(Cow::Owned).collect(),
        names(b.keywords),
        names(b.footprints),
    ]
}

fn rune_items(b: Board, boards: &BoardTable) -> Vec<String> {
    let mut keys: Vec<String> = boards.names(b.runes).map(str::to_string).collect();
    keys.extend(
        boards
            .names(b.runes)
            .zip(b.rune_tiers)
            .map(|(r, t)| format!("{r} t{t}")),
    );
    if let Some(r) = b.resonance {
        keys.push(format!("resonance {}", boards.name(r)));
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

/// What a report reads of a run (or of the shards of one): its tallies,
/// its boards table and its cards' printed names.
pub struct RunData {
    pub names: Vec<String>,
    pub tallies: Tallies,
    pub boards: BoardTable,
    /// Card id to printed name, from the run's own copy of the catalog.
    pub printed: BTreeMap<String, String>,
    /// A run of games' own data.
    pub games: Option<GameData>,
}

/// What the report reads of a run of games beyond its tallies.
pub struct GameData {
    /// The games counted by decks, bots, first player and end.
    pub groups: Vec<crate::analysis::GameGroup>,
    /// The decks' names, by deck index.
    pub decks: Vec<String>,
    /// Every game, and what each seat did with each card.
    pub list: crate::analysis::GameList,
    pub seen: Vec<crate::analysis::CardSeen>,
    /// The cards each deck holds, by card index.
    pub holds: Vec<Vec<u32>>,
    /// Card ids and printed names, by card index.
    pub keys: Vec<String>,
    pub names: Vec<String>,
}

impl GameData {
    /// Reads a run of games' own data: its groups, its games and cards
    /// seen, and each deck's cards by catalog index (`catalog`: id and
    /// printed name, by index).
    pub fn read(
        boards_file: &std::path::Path,
        game_files: &[std::path::PathBuf],
        card_files: &[std::path::PathBuf],
        catalog: Vec<(String, String)>,
    ) -> Result<GameData, Error> {
        use crate::analysis;
        let index: BTreeMap<String, u32> = catalog
            .iter()
            .enumerate()
            .map(|(i, (k, _))| (k.clone(), i as u32))
            .collect();
        let (mut decks, mut holds) = (Vec::new(), Vec::new());
        let mut unknown = None;
        gridsim_data::sink::for_each_board(boards_file, |row| {
            decks.push(row.name.clone());
            let mut cards: Vec<u32> = Vec::new();
            for k in &row.cards {
                match index.get(k) {
                    Some(&c) if !cards.contains(&c) => cards.push(c),
                    Some(_) => {}
                    None => unknown = Some(k.clone()),
                }
            }
            holds.push(cards);
        })?;
        if let Some(k) = unknown {
            return Err(Error::Data(gridsim_data::Error::malformed(
                boards_file,
                format!("a deck holds `{k}`, which the run's catalog does not"),
            )));
        }
        let list = analysis::game_list(game_files)?;
        let seen = if card_files.is_empty() {
            Vec::new()
        } else {
            analysis::cards_seen(card_files, &list, &index)?
        };
        let (keys, names) = catalog.into_iter().unzip();
        Ok(GameData {
            groups: analysis::game_groups(game_files)?,
            decks,
            list,
            seen,
            holds,
            keys,
            names,
        })
    }
}

/// The report `g` of a run of games against a baseline run of games, paired game by game
/// when they hold the same games between the same decks, else no change
/// is shown and the page says why (a card's gap in one run and another
/// is not a comparison the design supports).
pub fn compare_games(g: &mut crate::game_report::GameReport, now: &GameData, base: &GameData, label: String, q: f64) {
    use crate::game_cards;
    let paired = if now.keys != base.keys || now.holds != base.holds {
        Err(Error::NotComparable(
            "the runs' catalogs or decks differ in their cards".to_string(),
        ))
    } else {
        game_cards::compare(
            &mut g.cards,
            (&now.list, &now.seen),
            (&base.list, &base.seen),
            &now.holds,
            &now.keys,
            q,
        )
    };
    match paired {
        Ok(decks) => {
            for (row, change) in g.decks.iter_mut().zip(decks) {
                row.change = change;
            }
            g.comparison = Some("paired: the same games between the same decks, game by game".into());
        }
        Err(why) => g.comparison = Some(format!("not compared: {why}")),
    }
    g.baseline = Some(label);
}

impl RunData {
    /// The report of this run.
    pub fn report(&self, s: &ReportSettings) -> Result<Report, Error> {
        let mut report = build(self.names.clone(), &self.tallies, &self.boards, s)?;
        report.name_cards(&self.printed);
        report.games = self.games.as_ref().map(|g| {
            let band = [s.band_low, s.band_high];
            let mut r = crate::game_report::build(&g.groups, &g.decks, band);
            r.cards = crate::game_cards::card_rows(&g.list, &g.seen, &g.holds, &g.keys, &g.names, band);
            Box::new(r)
        });
        if let Some(g) = &report.games {
            report.what_changed = format!("{}{}", g.headline(), report.what_changed);
        }
        Ok(report)
    }
}

#[cfg(test)]
mod tests;
