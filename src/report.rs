//! The balance report: win rates per card, card and tier, rune and keyword
//! with 95% intervals that count the boards on both sides of every fight
//! (two-way clustered, `dyadic.rs`), beside each the rate against boards
//! without the item; keyword pairs with their lift; keyword against
//! keyword; outliers and changes since a baseline run (paired where the
//! two runs fought the same pairs), each flagged after a Benjamini–Hochberg
//! correction for testing many items at once. Built from the run's tallies
//! and its boards, written as HTML (charts as inline SVG), Markdown and
//! JSON.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::aliasing;
use crate::analysis::{MatchupTally, Tallies};
use crate::board_table::{Board, BoardTable, Names};
use crate::dyadic::{self, Dyad, ItemRates, Ratio};
use crate::marginal::{self, BoardFeatures, MatchupResult, MatchupSource, Matchups, ModelSettings};
use crate::pair_blocks::{Block, PairBlocks};
use crate::stats;

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
    boards: &BoardTable,
    dense: &DenseBoards,
    pairs: &PairBlocks,
    model: ModelSettings,
) -> Result<[BTreeMap<String, Estimate>; 5], String> {
    // The boards that fought, by their place in the table, in dense order.
    let mut fought: Vec<(u32, u32)> = (0..boards.len())
        .filter_map(|i| Some((dense.get(boards.board(i).id)?, i as u32)))
        .collect();
    fought.sort_unstable();
    fought.dedup_by_key(|&mut (d, _)| d);
    let fought: Vec<u32> = fought.into_iter().map(|(_, i)| i).collect();
    let results = FitSource::new(pairs, dense)?;
    // Tiers above the first, a control for how much a board spent.
    let surplus = |b: &Board| b.tiers.iter().map(|&t| f64::from(t - 1)).sum::<f64>();
    let names = |list: &[u32], out: &mut Vec<String>| out.extend(boards.names(list).map(str::to_string));
    // Each section's items of a board, written into a reused buffer, and
    // its controls: read board by board, nothing kept per board but the
    // features.
    let cards = |b: &Board, out: &mut Vec<String>| names(b.cards, out);
    let tiers = |b: &Board, out: &mut Vec<String>| {
        out.extend(boards.names(b.cards).zip(b.tiers).map(|(c, t)| format!("{c} t{t}")));
    };
    // Runes and resonances only: a rune's tier rows would be collinear with
    // the rune's own (the rune is the sum of its tiers), so they carry a
    // win rate and no effect.
    let runes = |b: &Board, out: &mut Vec<String>| {
        names(b.runes, out);
        if let Some(r) = b.resonance {
            out.push(format!("resonance {}", boards.name(r)));
        }
    };
    let keywords = |b: &Board, out: &mut Vec<String>| names(b.keywords, out);
    let sizes = |b: &Board, out: &mut Vec<String>| names(b.footprints, out);
    let spent = |b: &Board| vec![surplus(b)];
    let sized = |b: &Board| vec![b.cards.len() as f64, surplus(b)];
    let none = |_: &Board| Vec::new();
    type Items<'f> = &'f (dyn Fn(&Board, &mut Vec<String>) + Sync);
    type Controls<'f> = &'f (dyn Fn(&Board) -> Vec<f64> + Sync);
    // The five models are independent: fitted on every core, each the
    // same bytes whichever finishes first.
    use rayon::prelude::*;
    // A feature counts an item's copies on the board (cards, tiers,
    // footprints) or only whether the board holds it (runes, keywords).
    let sections: [(Items, Controls, Baseline); 5] = [
        (&cards, &spent, Baseline::AverageCopy),
        (&tiers, &none, Baseline::AverageCopy),
        (&runes, &sized, Baseline::Absence),
        (&keywords, &sized, Baseline::Absence),
        (&sizes, &spent, Baseline::AverageCopy),
    ];
    let mut designs: Vec<Option<SectionDesign>> = sections
        .par_iter()
        .map(|(items, controls, baseline)| {
            SectionDesign::new(&fought, boards, items, *baseline == Baseline::AverageCopy, controls)
        })
        .collect();
    // The five models take their steps together (one pass over the pairs
    // serves all five; `marginal::fit_all`).
    // The fit takes the features (held once, in the fit's own layout).
    let models: Vec<marginal::Model> = designs
        .iter_mut()
        .flatten()
        .map(|d| marginal::Model {
            features: d.width,
            boards: std::mem::take(&mut d.features),
        })
        .collect();
    let mut fits = marginal::fit_all(models, &results, model)?.into_iter();
    let fitted: Vec<BTreeMap<String, Estimate>> = designs
        .iter()
        .zip(&sections)
        .map(
            |(design, (_, _, baseline))| match (design, design.as_ref().and_then(|_| fits.next()).flatten()) {
                (Some(design), Some(fit)) => design.effects(&fit, *baseline),
                _ => BTreeMap::new(),
            },
        )
        .collect();
    Ok(fitted
        .try_into()
        .unwrap_or_else(|_| unreachable!("five sections in, five out")))
}

/// One section's model before its fit: a feature per item (its count on
/// the board) and the controls after them.
struct SectionDesign {
    /// Item name to feature, in name order.
    index: BTreeMap<String, u32>,
    /// Each item's copies over all boards.
    total: Vec<f64>,
    /// Each board's features, until the fit takes them.
    features: Vec<BoardFeatures>,
    width: usize,
    /// What the boards cannot tell apart, found before the fit: the ridge
    /// would share such credit out evenly and print it as precise.
    aliased: Vec<Vec<f64>>,
}

impl SectionDesign {
    /// `None` for a section no board holds an item of. `items` writes a
    /// board's items, `controls` gives its controls (as many for every
    /// board). With `copies`, a feature counts the item's copies on the
    /// board; without, whether the board holds it.
    fn new(
        fought: &[u32],
        table: &BoardTable,
        items: &(dyn Fn(&Board, &mut Vec<String>) + Sync),
        copies: bool,
        controls: &(dyn Fn(&Board) -> Vec<f64> + Sync),
    ) -> Option<SectionDesign> {
        let mut buffer: Vec<String> = Vec::new();
        let mut unique: std::collections::HashSet<String> = Default::default();
        for &b in fought {
            buffer.clear();
            items(&table.board(b as usize), &mut buffer);
            for k in buffer.drain(..) {
                unique.insert(k);
            }
        }
        if unique.is_empty() {
            return None;
        }
        let mut names: Vec<String> = unique.into_iter().collect();
        names.sort_unstable();
        let number: std::collections::HashMap<&str, u32> =
            names.iter().enumerate().map(|(i, k)| (k.as_str(), i as u32)).collect();
        let n_items = names.len();
        let mut total = vec![0.0f64; n_items];
        let mut held: Vec<u32> = Vec::new();
        let mut width = n_items;
        let features: Vec<BoardFeatures> = fought
            .iter()
            .map(|&b| {
                let board = &table.board(b as usize);
                buffer.clear();
                items(board, &mut buffer);
                held.clear();
                held.extend(buffer.iter().map(|k| number[k.as_str()]));
                held.sort_unstable();
                let extra = controls(board);
                width = n_items + extra.len();
                let mut x: BoardFeatures = Vec::with_capacity(held.len() + extra.len());
                for same in held.chunk_by(|a, b| a == b) {
                    let v = if copies { same.len() as f64 } else { 1.0 };
                    total[same[0] as usize] += v;
                    x.push((same[0], v as f32));
                }
                // Controls are counts too (units, tiers), exact in f32.
                x.extend(extra.iter().enumerate().map(|(c, &v)| ((n_items + c) as u32, v as f32)));
                x
            })
            .collect();
        drop(number);
        let index: BTreeMap<String, u32> = names.into_iter().enumerate().map(|(i, k)| (k, i as u32)).collect();
        let aliased = aliasing::aliased_directions(width, &features);
        Some(SectionDesign {
            index,
            total,
            features,
            width,
            aliased,
        })
    }

    /// Each item's effect against `baseline`, from the section's fit.
    fn effects(&self, fit: &marginal::Fit, baseline: Baseline) -> BTreeMap<String, Estimate> {
        let SectionDesign {
            index,
            total,
            features: _,
            width,
            aliased,
        } = self;
        let (n_items, width) = (index.len(), *width);
        let all: f64 = total.iter().sum();
        let curve = &fit.curve;
        let keys: Vec<&str> = index.keys().map(String::as_str).collect();
        let name_of = |f: usize| -> String {
            keys.get(f).map_or_else(
                || control_names(width - n_items)[f - n_items].to_string(),
                |k| k.to_string(),
            )
        };
        let effect_of = |weights: &[(u32, f64)], against: Option<String>| {
            let (logit, se) = fit.contrast(weights);
            Effect {
                points: curve.at(logit),
                low: curve.at(logit - Z95 * se),
                high: curve.at(logit + Z95 * se),
                logit,
                logit_se: se,
                against,
            }
        };
        index
            .iter()
            .map(|(key, &i)| {
                let mut weights: Vec<(u32, f64)> = match baseline {
                    Baseline::Absence => Vec::new(),
                    Baseline::AverageCopy => (0..n_items as u32).map(|k| (k, -total[k as usize] / all)).collect(),
                };
                match weights.iter_mut().find(|(k, _)| *k == i) {
                    Some((_, w)) => *w += 1.0,
                    None => weights.push((i, 1.0)),
                }
                if aliasing::identified(&weights, aliased) {
                    return (key.to_string(), Estimate::Effect(effect_of(&weights, None)));
                }
                let confused: Vec<usize> = aliasing::confused_with(&weights, aliased)
                    .into_iter()
                    .filter(|&f| f != i as usize)
                    .collect();
                // Against another item of the set, the most held first: a
                // resonance against another resonance is identified when every
                // board holds exactly one.
                let mut references: Vec<usize> = confused.iter().copied().filter(|&f| f < n_items).collect();
                references.sort_by(|&a, &b| total[b].total_cmp(&total[a]).then(a.cmp(&b)));
                for r in references {
                    let mut against = weights.clone();
                    against.push((r as u32, -1.0));
                    if aliasing::identified(&against, aliased) {
                        return (key.to_string(), Estimate::Effect(effect_of(&against, Some(name_of(r)))));
                    }
                }
                (
                    key.to_string(),
                    Estimate::NotSeparable(confused.into_iter().map(name_of).collect()),
                )
            })
            .collect()
    }
}

/// The names of a section's controls, in the order `marginal_effects`
/// appends them: the unit count where there is one, then the tiers above
/// the first.
fn control_names(count: usize) -> &'static [&'static str] {
    match count {
        2 => &["the number of units", "the tiers above the first"],
        1 => &["the tiers above the first"],
        _ => &[],
    }
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
        format!(
            "{} {} ({}): {:.1}% against boards without it (95% interval {:.1}–{:.1}%), {} the band ({:.1}% over all its fights); {} boards, {} fights",
            self.section,
            self.name,
            self.key,
            100.0 * self.win_rate,
            100.0 * self.low,
            100.0 * self.high,
            self.direction,
            100.0 * self.holder_win_rate,
            self.boards,
            self.fights
        )
    }
}

/// Every row's point counts, table by table, and each board's rows, over
/// the boards that fought.
struct Holdings {
    /// Board id to dense index, over the boards that fought: a board no
    /// fight met is no cluster.
    dense: DenseBoards,
    /// Cards, cards at a tier, runes, keywords, footprints: the order of
    /// [`RATE_SECTIONS`].
    tables: [BTreeMap<String, Acc>; 5],
    /// Keyword pairs on one board, and rune against keyword.
    pairs: BTreeMap<(String, String), Acc>,
    /// Each dense board's rows, numbered table by table in key order, the
    /// pair table last.
    of_board: Vec<Vec<u32>>,
    /// The number of rows.
    items: usize,
}

/// A row of [`Holdings`] while the boards are read: a table's item by its
/// name's number, or a pair of names.
#[derive(Clone, Copy)]
enum Row {
    Table(usize, u32),
    Pair(u32, u32),
}

impl Holdings {
    fn new(tallies: &Tallies, boards: &BoardTable) -> Holdings {
        let by_id: std::collections::HashMap<u32, usize> = boards.iter().enumerate().map(|(i, b)| (b.id, i)).collect();
        let dense = DenseBoards::of_run(tallies, boards);
        // Names are numbered as first met, and rows too, each row's counts
        // kept in a vector by row number: a string is hashed once per
        // board, not cloned into an ordered map once per board and table.
        // A board keeps its rows' numbers, renumbered in key order at the
        // end.
        let mut names = Names::default();
        let mut rows: Vec<(Row, Acc)> = Vec::new();
        let mut table_rows: [Vec<u32>; 5] = Default::default();
        let mut pair_rows: std::collections::HashMap<(u32, u32), u32> = Default::default();
        let mut of_board: Vec<Vec<u32>> = vec![Vec::new(); dense.len()];
        let mut ids: [Vec<u32>; 5] = Default::default();
        let mut tiered: Vec<String> = Vec::new();
        for t in &tallies.boards {
            let (Some(&b), Some(d)) = (by_id.get(&t.board_id), dense.get(t.board_id)) else {
                continue;
            };
            let b = boards.board(b);
            let held = &mut of_board[d as usize];
            let mut hold = |row: Row, number: &mut u32| {
                if *number == u32::MAX {
                    *number = rows.len() as u32;
                    rows.push((row, Acc::default()));
                }
                rows[*number as usize].1.add_board(t.fights, t.wins, t.draws);
                held.push(*number);
            };
            // A board counts once per card, card and tier, rune, keyword or
            // footprint it holds, however many copies it holds.
            tiered.clear();
            tiered.extend(boards.names(b.cards).zip(b.tiers).map(|(c, t)| format!("{c} t{t}")));
            let rune_keys = rune_items(b, boards);
            let mut lists: [Vec<&str>; 5] = Default::default();
            for (list, keys) in lists.iter_mut().zip([b.cards, &[], &[], b.keywords, b.footprints]) {
                list.extend(boards.names(keys));
            }
            lists[1].extend(tiered.iter().map(String::as_str));
            lists[2].extend(rune_keys.iter().map(String::as_str));
            for (table, (keys, out)) in lists.iter().zip(&mut ids).enumerate() {
                out.clear();
                out.extend(keys.iter().map(|k| names.id(k)));
                let mut unique = out.clone();
                unique.sort_unstable();
                unique.dedup();
                let numbers = &mut table_rows[table];
                for k in unique {
                    if numbers.len() <= k as usize {
                        numbers.resize(k as usize + 1, u32::MAX);
                    }
                    hold(Row::Table(table, k), &mut numbers[k as usize]);
                }
            }
            let keywords = &ids[3];
            for (i, &k) in keywords.iter().enumerate() {
                for &k2 in &keywords[i + 1..] {
                    hold(Row::Pair(k, k2), pair_rows.entry((k, k2)).or_insert(u32::MAX));
                }
            }
            // Rune against keyword on one board: the same lift as keyword pairs.
            let mut placed: Vec<u32> = boards.names(b.runes).map(|r| names.id(r)).collect();
            placed.sort_unstable();
            placed.dedup();
            for r in placed {
                for &k in keywords {
                    hold(Row::Pair(r, k), pair_rows.entry((r, k)).or_insert(u32::MAX));
                }
            }
        }
        // Rows in key order, table by table, pairs last.
        let mut order: Vec<u32> = (0..rows.len() as u32).collect();
        let key = |&(row, _): &(Row, Acc)| match row {
            Row::Table(table, k) => (table, names.of(k), ""),
            Row::Pair(a, b) => (5, names.of(a), names.of(b)),
        };
        order.sort_by(|&x, &y| key(&rows[x as usize]).cmp(&key(&rows[y as usize])));
        let mut renumber = vec![0u32; rows.len()];
        for (new, &old) in order.iter().enumerate() {
            renumber[old as usize] = new as u32;
        }
        for held in &mut of_board {
            for r in held.iter_mut() {
                *r = renumber[*r as usize];
            }
        }
        let mut tables: [BTreeMap<String, Acc>; 5] = Default::default();
        let mut pairs = BTreeMap::new();
        for (row, acc) in rows {
            match row {
                Row::Table(table, k) => {
                    tables[table].insert(names.of(k).to_string(), acc);
                }
                Row::Pair(a, b) => {
                    pairs.insert((names.of(a).to_string(), names.of(b).to_string()), acc);
                }
            }
        }
        let items = renumber.len();
        Holdings {
            dense,
            tables,
            pairs,
            of_board,
            items,
        }
    }

    /// A pair's fights as a dyad of dense boards, each side measured by
    /// its wins (or its wins less the baseline's); `None` for a board that
    /// is no cluster.
    fn dyad(&self, m: &MatchupTally, a_value: i64, b_value: i64) -> Option<Dyad> {
        Some(Dyad {
            a: self.dense.get(m.left)?,
            b: self.dense.get(m.right)?,
            fights: m.fights as i64,
            a_value,
            b_value,
        })
    }

    /// Every row's estimate from the run's fights ([`Holdings::estimates`]).
    #[allow(clippy::type_complexity)]
    fn run_estimates(&self, tallies: &Tallies) -> Result<([Vec<ItemRates>; 5], Vec<ItemRates>), String> {
        self.estimates(|add| {
            tallies.pairs.each(|block| {
                let dyads: Vec<Dyad> = block
                    .pairs
                    .iter()
                    .filter_map(|m| self.dyad(m, m.left_wins as i64, m.right_wins as i64))
                    .collect();
                add(&block.ids, &dyads);
                Ok(())
            })
        })
    }

    /// Every row's estimate, split as the tables are: the five rate tables,
    /// then the pair table. `each_block` hands over the run's fights a
    /// block at a time: its board ids and its dyads.
    #[allow(clippy::type_complexity)]
    fn estimates(
        &self,
        each_block: impl FnOnce(&mut dyn FnMut(&std::ops::Range<u32>, &[Dyad])) -> Result<(), String>,
    ) -> Result<([Vec<ItemRates>; 5], Vec<ItemRates>), String> {
        let mut sums = dyadic::RateSums::new(self.items);
        each_block(&mut |ids, dyads| sums.add_block(&self.of_board, self.dense.range(ids), dyads))?;
        let mut all = sums.finish().into_iter();
        let tables = self.tables.each_ref().map(|t| all.by_ref().take(t.len()).collect());
        Ok((tables, all.collect()))
    }
}

/// Keyword against keyword, from both sides of every matchup.
fn keyword_versus(boards: &BoardTable, dense: &DenseBoards, pairs: &PairBlocks) -> Result<Vec<VersusCell>, String> {
    // Counted in a grid indexed by keyword (numbered in name order). A board's side is
    // summed first over its opponents' keywords, one row, and the row then
    // added under each of its own keywords: a matchup adds to about ten
    // cells, not a hundred.
    let names: Vec<&str> = {
        let mut all: Vec<&str> = boards.iter().flat_map(|b| boards.names(b.keywords)).collect();
        all.sort();
        all.dedup();
        all
    };
    let index: BTreeMap<&str, usize> = names.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    // By dense board, looked up twice per matchup.
    let mut board_keywords: Vec<Vec<usize>> = vec![Vec::new(); dense.len()];
    for b in boards.iter() {
        if let Some(d) = dense.get(b.id) {
            board_keywords[d as usize] = boards.names(b.keywords).map(|k| index[k]).collect();
        }
    }
    let k = names.len();
    let versus = keyword_grid(k, pairs, |id| {
        dense.get(id).map(|d| board_keywords[d as usize].as_slice())
    })?;
    Ok(versus
        .into_iter()
        .enumerate()
        .filter_map(|(cell, acc)| acc.map(|acc| (cell, acc)))
        .map(|(cell, acc)| VersusCell {
            a: names[cell / k].to_string(),
            b: names[cell % k].to_string(),
            fights: acc.n,
            wins: acc.wins,
            draws: acc.draws,
            win_rate: if acc.n == 0 {
                0.0
            } else {
                acc.wins as f64 / acc.n as f64
            },
        })
        .collect())
}

/// Keyword against keyword: cell `a * k + b` holds the fights of boards
/// with keyword `a` against boards with keyword `b`, from the first side
/// (its wins), over both sides of every matchup; `None` where none met.
fn keyword_grid<'a>(
    k: usize,
    pairs: &PairBlocks,
    keywords_of: impl Fn(u32) -> Option<&'a [usize]>,
) -> Result<Vec<Option<Acc>>, String> {
    let mut grid = vec![Acc::default(); k * k];
    let mut met = vec![false; k * k];
    let mut row = vec![(0u64, 0u64, 0u64); k];
    pairs.each(|block| {
        // Each pair from the side of each of its boards in the block, as
        // (own board, opponent, wins), grouped by own board.
        let mut sides: Vec<(u32, u32, u64, u64, u64)> = Vec::with_capacity(2 * block.pairs.len());
        for m in block.pairs.iter() {
            if block.ids.contains(&m.left) {
                sides.push((m.left, m.right, m.fights, m.left_wins, m.draws));
            }
            if block.ids.contains(&m.right) {
                sides.push((m.right, m.left, m.fights, m.right_wins, m.draws));
            }
        }
        sides.sort_unstable_by_key(|s| s.0);
        add_sides(&sides, &mut grid, &mut met, &mut row, &keywords_of);
        Ok(())
    })?;
    Ok(grid.into_iter().zip(met).map(|(acc, met)| met.then_some(acc)).collect())
}

/// [`keyword_grid`] over sides grouped by own board.
fn add_sides<'a>(
    sides: &[(u32, u32, u64, u64, u64)],
    grid: &mut [Acc],
    met: &mut [bool],
    row: &mut [(u64, u64, u64)],
    keywords_of: &impl Fn(u32) -> Option<&'a [usize]>,
) {
    let k = row.len();
    for own in sides.chunk_by(|x, y| x.0 == y.0) {
        let Some(mine) = keywords_of(own[0].0) else {
            continue;
        };
        row.fill((0, 0, 0));
        let mut any = false;
        for &(_, opponent, fights, wins, draws) in own {
            let Some(theirs) = keywords_of(opponent) else {
                continue;
            };
            any = true;
            for &b in theirs {
                row[b].0 += fights;
                row[b].1 += wins;
                row[b].2 += draws;
            }
        }
        if !any {
            continue;
        }
        for &a in mine {
            for (b, &(n, wins, draws)) in row.iter().enumerate() {
                if n > 0 {
                    grid[a * k + b].add(n, wins, draws);
                    met[a * k + b] = true;
                }
            }
        }
    }
}

/// Board ids numbered densely in increasing order, so that a range of ids
/// (a block of [`crate::pair_blocks`]) is a range of dense indices. Looked
/// up twice per matchup, so held as a vector by id where ids are compact (a
/// run's own boards table numbers its boards from 0), in a hash map
/// otherwise.
struct DenseBoards {
    /// The ids in increasing order: dense index `i` is `ids[i]`.
    ids: Vec<u32>,
    by_id: Vec<u32>,
    sparse: std::collections::HashMap<u32, u32>,
}

impl DenseBoards {
    const ABSENT: u32 = u32::MAX;

    fn new(ids: impl Iterator<Item = u32>) -> DenseBoards {
        let mut ids: Vec<u32> = ids.collect();
        ids.sort_unstable();
        ids.dedup();
        let highest = ids.last().copied().unwrap_or(0);
        let compact = (highest as usize) < 4 * ids.len() + 1024;
        let mut out = DenseBoards {
            by_id: if compact {
                vec![Self::ABSENT; highest as usize + 1]
            } else {
                Vec::new()
            },
            sparse: Default::default(),
            ids: Vec::new(),
        };
        for (i, &id) in ids.iter().enumerate() {
            if compact {
                out.by_id[id as usize] = i as u32;
            } else {
                out.sparse.insert(id, i as u32);
            }
        }
        out.ids = ids;
        out
    }

    /// The boards of the table that fought in the run.
    fn of_run(tallies: &Tallies, boards: &BoardTable) -> DenseBoards {
        let listed: std::collections::HashSet<u32> = boards.iter().map(|b| b.id).collect();
        DenseBoards::new(
            tallies
                .boards
                .iter()
                .filter(|t| t.fights > 0 && listed.contains(&t.board_id))
                .map(|t| t.board_id),
        )
    }

    fn get(&self, id: u32) -> Option<u32> {
        if self.by_id.is_empty() {
            return self.sparse.get(&id).copied();
        }
        self.by_id.get(id as usize).copied().filter(|&d| d != Self::ABSENT)
    }

    fn len(&self) -> usize {
        self.ids.len()
    }

    /// The dense indices of the ids in `ids`.
    fn range(&self, ids: &std::ops::Range<u32>) -> std::ops::Range<usize> {
        self.ids.partition_point(|&id| id < ids.start)..self.ids.partition_point(|&id| id < ids.end)
    }
}

/// The fit's matchups, read block by block from a run's [`PairBlocks`] in
/// dense board indices; a run of one block is converted once.
struct FitSource<'a> {
    pairs: &'a PairBlocks,
    dense: &'a DenseBoards,
    single: Option<Matchups>,
}

impl<'a> FitSource<'a> {
    fn new(pairs: &'a PairBlocks, dense: &'a DenseBoards) -> Result<FitSource<'a>, String> {
        let mut source = FitSource {
            pairs,
            dense,
            single: None,
        };
        if pairs.count() == 1 {
            source.single = Some(source.convert(pairs.block(0)?));
        }
        Ok(source)
    }

    fn convert(&self, block: Block) -> Matchups {
        let results: Vec<MatchupResult> = block
            .pairs
            .iter()
            .filter_map(|m| {
                Some(MatchupResult {
                    left: self.dense.get(m.left)?,
                    right: self.dense.get(m.right)?,
                    fights: m.fights as f64,
                    left_score: m.left_wins as f64 + 0.5 * m.draws as f64,
                })
            })
            .collect();
        Matchups::block(self.dense.len(), self.dense.range(&block.ids), &results)
    }
}

impl MatchupSource for FitSource<'_> {
    fn boards(&self) -> usize {
        self.dense.len()
    }

    fn each(&self, visit: &mut dyn FnMut(&Matchups)) -> Result<(), String> {
        if let Some(single) = &self.single {
            visit(single);
            return Ok(());
        }
        self.pairs.each(|block| {
            visit(&self.convert(block));
            Ok(())
        })
    }
}

/// Builds the report's figures from tallies and the boards table.
pub fn build(runs: Vec<String>, tallies: &Tallies, boards: &BoardTable, s: &ReportSettings) -> Result<Report, String> {
    // The rates (the boards' holdings first, the keyword grid after) and
    // the effects read the same tallies and nothing of each other: side by
    // side on the cores, from the start.
    let (rates, effects) = rayon::join(
        || -> Result<_, String> {
            let holdings = Holdings::new(tallies, boards);
            let found = holdings.run_estimates(tallies)?;
            let versus = keyword_versus(boards, &holdings.dense, &tallies.pairs)?;
            Ok((holdings, found, versus))
        },
        || marginal_effects(boards, &DenseBoards::of_run(tallies, boards), &tallies.pairs, s.model),
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
    };
    flag_outliers(&mut report, s.false_discovery_rate);
    report.what_changed = what_changed(&report);
    Ok(report)
}

/// The five rate tables alone, without effects, pairs or outliers: what
/// an independent comparison reads of its baseline.
pub fn rate_rows(tallies: &Tallies, boards: &BoardTable, s: &ReportSettings) -> Result<[Vec<RateRow>; 5], String> {
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

/// What a report is compared with.
pub enum Against<'a> {
    /// A run that fought the same pairs of the same boards as this one, as
    /// a night does with the night before or a tuning change with the run
    /// before it: `now` and `base` are the two runs' tallies, `boards` the
    /// boards table they share. Each row's change is the per-fight
    /// difference of its holders' wins, whose noise the two runs share is
    /// taken out, with its two-way clustered standard error.
    Paired {
        now: &'a Tallies,
        base: &'a Tallies,
        boards: &'a BoardTable,
        /// Why the runs are paired, said on the page.
        why: String,
    },
    /// Any other run: its rate tables (in the order of
    /// [`RATE_SECTIONS`]), compared as an independent sample
    /// (`sqrt(se² + se_baseline²)`).
    Independent { rates: [&'a Vec<RateRow>; 5], why: String },
}

/// Each rate row's paired change: the difference of its holders' wins,
/// per fight, between two runs of the same pairs. Fails, saying why, when
/// a pair fought a different number of times in the two runs (then they
/// are not paired).
pub fn paired_changes(
    now: &Tallies,
    base: &Tallies,
    boards: &BoardTable,
) -> Result<[BTreeMap<String, Ratio>; 5], String> {
    if now.pairs.bounds() != base.pairs.bounds() || now.fights != base.fights {
        return Err(format!("the runs hold {} and {} fights", now.fights, base.fights));
    }
    let holdings = Holdings::new(now, boards);
    let (found, _) = holdings.estimates(|add| {
        for i in 0..now.pairs.count() {
            let (a, b) = (now.pairs.block(i)?, base.pairs.block(i)?);
            if a.pairs.len() != b.pairs.len() {
                return Err(format!(
                    "the runs fought {} and {} distinct pairs of boards with a board among ids {}..{}",
                    a.pairs.len(),
                    b.pairs.len(),
                    a.ids.start,
                    a.ids.end
                ));
            }
            if let Some((m, _)) = a
                .pairs
                .iter()
                .zip(b.pairs.iter())
                .find(|(m, o)| (m.left, m.right, m.fights) != (o.left, o.right, o.fights))
            {
                return Err(format!(
                    "board {} against board {} fought a different number of times",
                    m.left, m.right
                ));
            }
            let dyads: Vec<Dyad> = a
                .pairs
                .iter()
                .zip(b.pairs.iter())
                .filter_map(|(m, o)| {
                    holdings.dyad(
                        m,
                        m.left_wins as i64 - o.left_wins as i64,
                        m.right_wins as i64 - o.right_wins as i64,
                    )
                })
                .collect();
            add(&a.ids, &dyads);
        }
        Ok(())
    })?;
    let mut keyed: [BTreeMap<String, Ratio>; 5] = Default::default();
    for ((out, table), found) in keyed.iter_mut().zip(&holdings.tables).zip(found) {
        *out = table.keys().cloned().zip(found.into_iter().map(|e| e.all)).collect();
    }
    Ok(keyed)
}

/// Compares every rate row with the baseline: the change in win rate, its
/// 95% uncertainty, and whether it is beyond noise after a
/// Benjamini–Hochberg correction over every compared row. Paired where the
/// runs fought the same pairs (falling back to independent, and saying
/// why, where the tallies show they did not).
pub fn compare(report: &mut Report, against: Against, baseline_name: String) -> Result<(), String> {
    let q = report.false_discovery_rate;
    let mut tested: Vec<(usize, usize)> = Vec::new();
    let mut p_values = Vec::new();
    let paired = match &against {
        Against::Paired { now, base, boards, why } => match paired_changes(now, base, boards) {
            Ok(found) => Ok((found, why.clone())),
            Err(e) => Err(format!("independent: the runs look paired, but {e}")),
        },
        Against::Independent { why, .. } => Err(format!("independent: {why}")),
    };
    let independent = match (&against, &paired) {
        (Against::Independent { rates, .. }, _) => Some(rates.map(|t| t.clone())),
        (Against::Paired { base, boards, .. }, Err(_)) => {
            let settings = ReportSettings {
                min_sample: report.min_sample,
                min_boards: report.min_boards,
                band_low: report.band[0],
                band_high: report.band[1],
                ..ReportSettings::default()
            };
            Some(rate_rows(base, boards, &settings)?)
        }
        _ => None,
    };
    report.comparison = Some(match &paired {
        Ok((_, why)) => format!("paired: {why}"),
        Err(why) => why.clone(),
    });
    for (section, (_, rows)) in sections_mut(report).into_iter().enumerate() {
        for (i, row) in rows.iter_mut().enumerate() {
            let change = match (&paired, &independent) {
                (Ok((found, _)), _) => {
                    let Some(&d) = found[section].get(&row.key) else {
                        continue;
                    };
                    if d.denominator == 0 {
                        continue;
                    }
                    Change {
                        baseline_win_rate: row.win_rate - d.ratio,
                        baseline_fights: row.fights,
                        delta: d.ratio,
                        combined_uncertainty: Z95 * finite(d.se),
                        p_value: stats::difference_p(d.ratio, finite(d.se)),
                        paired: true,
                        significant: false,
                    }
                }
                (Err(_), Some(base)) => {
                    let Some(b) = base[section].iter().find(|b| b.key == row.key) else {
                        continue;
                    };
                    let se = (row.se * row.se + b.se * b.se).sqrt();
                    let delta = row.win_rate - b.win_rate;
                    Change {
                        baseline_win_rate: b.win_rate,
                        baseline_fights: b.fights,
                        delta,
                        combined_uncertainty: Z95 * se,
                        p_value: stats::difference_p(delta, se),
                        paired: false,
                        significant: false,
                    }
                }
                (Err(_), None) => continue,
            };
            p_values.push(change.p_value);
            row.change = Some(change);
            tested.push((section, i));
        }
    }
    // Benjamini–Yekutieli, not Hochberg: the rows' changes are negatively
    // dependent (stats::benjamini_yekutieli).
    let found = stats::benjamini_yekutieli(&p_values, q);
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
    Ok(())
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

/// What a report reads of a run (or of the shards of one): its tallies,
/// its boards table and its cards' printed names.
pub struct RunData {
    pub names: Vec<String>,
    pub tallies: Tallies,
    pub boards: BoardTable,
    /// Card id to printed name, from the run's own copy of the catalog.
    pub printed: BTreeMap<String, String>,
}

impl RunData {
    /// The report of this run.
    pub fn report(&self, s: &ReportSettings) -> Result<Report, String> {
        let mut report = build(self.names.clone(), &self.tallies, &self.boards, s)?;
        report.name_cards(&self.printed);
        Ok(report)
    }
}

/// Reads run directories already verified and checked to be one run (see
/// [`crate::runs::report_of`]).
pub fn read_verified_runs(manifests: &[(std::path::PathBuf, crate::dataset::Manifest)]) -> Result<RunData, String> {
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
    let mut boards = BoardTable::default();
    crate::sink::for_each_board(&first_dir.join(&boards_entry.path), |row| boards.push(&row))?;
    let fights = manifests.iter().flat_map(|(_, m)| &m.parts).map(|p| p.count).sum();
    let tallies = saved_tallies(first_dir, &saved_tallies_key(manifests), || {
        crate::analysis::tally(&fight_files, fights, boards.len() as u32)
    })?;
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
    Ok(RunData {
        names,
        tallies,
        boards,
        printed,
    })
}

/// What saved tallies were made from: the SHA-256 of the boards table and
/// of each fights part the manifests list, in order. Tallies saved from
/// other files (a resumed run with more parts, another set of shards)
/// have another key and are made again.
pub fn saved_tallies_key(manifests: &[(std::path::PathBuf, crate::dataset::Manifest)]) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    for (_, m) in manifests {
        for f in m.boards_file.iter().chain(m.parts.iter().flat_map(|p| &p.files)) {
            hash.update(f.path.as_bytes());
            hash.update(b" ");
            hash.update(f.sha256.as_bytes());
            hash.update(b"\n");
        }
    }
    format!("{:x}", hash.finalize())
}

/// The run's tallies saved in `dir` under `key`; otherwise `tally()`'s,
/// saved there for next time. Saving is a convenience: a run directory
/// that cannot be written to, or damaged saved tallies, cost only the
/// time to tally again, said on standard error.
fn saved_tallies(
    dir: &std::path::Path,
    key: &str,
    tally: impl FnOnce() -> Result<Tallies, String>,
) -> Result<Tallies, String> {
    let path = dir.join(crate::dataset::SAVED_TALLIES);
    match PairBlocks::open(&path, key) {
        Ok(Some(pairs)) => return Tallies::from_blocks(pairs),
        Ok(None) => {}
        Err(e) => eprintln!("warning: {e}; tallying the fights again"),
    }
    let tallies = tally()?;
    if let Err(e) = tallies.pairs.save(&path, key) {
        eprintln!("warning: the tallies were not saved: {e}");
    }
    Ok(tallies)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::BoardRow;

    fn tallies() -> (Tallies, BoardTable) {
        use crate::analysis::MatchupTally;
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
        let t = Tallies::from_matchups(vec![
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
        ]);
        assert_eq!(t.boards[0].wins, 800, "board 0 won 400 on each side");
        (t, BoardTable::from_rows(&boards))
    }

    #[test]
    fn figures_add_up_per_card_keyword_and_pair() {
        let (t, boards) = tallies();
        let r = build(vec!["run".into()], &t, &boards, &ReportSettings::default()).expect("report");
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
    fn field(boards: u32, strong: u32, edge: f64, fights: u64) -> (Tallies, BoardTable) {
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
        (t, BoardTable::from_rows(&rows))
    }

    #[test]
    fn an_item_strong_on_many_boards_is_an_outlier_with_its_numbers() {
        let (t, boards) = field(40, 10, 0.2, 100);
        let r = build(vec!["run".into()], &t, &boards, &ReportSettings::default()).expect("report");
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
        let base = build(vec!["base".into()], &t, &boards, &s).expect("report");
        let (weaker, _) = field(40, 10, 0.02, 100);
        let mut now = build(vec!["now".into()], &weaker, &boards, &s).expect("report");
        compare(
            &mut now,
            Against::Independent {
                rates: base.rate_tables(),
                why: "a test".into(),
            },
            "base".into(),
        )
        .expect("compared");
        let crab = now.cards.iter().find(|c| c.key == "crab").expect("crab");
        let change = crab.change.as_ref().expect("compared");
        assert!(change.delta < -0.1 && change.significant, "{change:?}");
        assert!(now.significant_changes.contains(&"card: crab".to_string()));
        let mut same = build(vec!["again".into()], &t, &boards, &s).expect("report");
        compare(
            &mut same,
            Against::Independent {
                rates: base.rate_tables(),
                why: "a test".into(),
            },
            "base".into(),
        )
        .expect("compared");
        assert!(same.significant_changes.is_empty());
        // Paired on the same fights: the change is seen as well, and the
        // same tallies change nothing at all.
        let mut now = build(vec!["now".into()], &weaker, &boards, &s).expect("report");
        compare(
            &mut now,
            Against::Paired {
                now: &weaker,
                base: &t,
                boards: &boards,
                why: "a test".into(),
            },
            "base".into(),
        )
        .expect("compared");
        let change = now
            .cards
            .iter()
            .find(|c| c.key == "crab")
            .and_then(|c| c.change.clone());
        let change = change.expect("compared");
        assert!(change.paired && change.delta < -0.1 && change.significant, "{change:?}");
        let mut same = build(vec!["again".into()], &t, &boards, &s).expect("report");
        compare(
            &mut same,
            Against::Paired {
                now: &t,
                base: &t,
                boards: &boards,
                why: "a test".into(),
            },
            "base".into(),
        )
        .expect("compared");
        assert!(same.significant_changes.is_empty());
        assert!(
            same.cards
                .iter()
                .all(|c| c.change.as_ref().is_some_and(|c| c.delta == 0.0))
        );
    }
}
