//! The report's marginal effects: one model per section, its design
//! (features and controls) and its fit's rows.

use crate::Error;
use std::collections::BTreeMap;

use super::holdings::{DenseBoards, FitSource};
use super::{Effect, Estimate, Z95};
use crate::aliasing;
use crate::marginal::{self, BoardFeatures, ModelSettings};
use gridsim_data::board_table::{Board, BoardTable};
use gridsim_data::pair_blocks::PairBlocks;

/// What an item's effect is measured against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Baseline {
    /// One copy of the item in place of an average copy of the section's
    /// items (cards, cards at a tier): a board's copies fill its slots, so
    /// the question is what this card does that another would not.
    AverageCopy,
    /// The item absent (keywords, runes).
    Absence,
}

/// Marginal effects of cards, card tiers, runes, keywords and footprints: one model per
/// section, each on the boards that fought (`dense`), fitted on every
/// matchup (`marginal.rs`, `docs/report.md`), the pairs held in memory
/// when their block records are at most `hold_up_to` ([`FitSource`]).
pub(super) fn marginal_effects(
    boards: &BoardTable,
    dense: &DenseBoards,
    pairs: &PairBlocks,
    model: ModelSettings,
    hold_up_to: u64,
) -> Result<[BTreeMap<String, Estimate>; 5], Error> {
    // The boards that fought, by their place in the table, in dense order.
    let mut fought: Vec<(u32, u32)> = (0..boards.len())
        .filter_map(|i| Some((dense.get(boards.board(i).id)?, i as u32)))
        .collect();
    fought.sort_unstable();
    fought.dedup_by_key(|&mut (d, _)| d);
    let fought: Vec<u32> = fought.into_iter().map(|(_, i)| i).collect();
    let results = FitSource::new(pairs, dense, hold_up_to)?;
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
pub(super) struct SectionDesign {
    /// Item name to feature, in name order.
    pub(super) index: BTreeMap<String, u32>,
    /// Each item's copies over all boards.
    pub(super) total: Vec<f64>,
    /// Each board's features, until the fit takes them.
    pub(super) features: Vec<BoardFeatures>,
    pub(super) width: usize,
    /// What the boards cannot tell apart, found before the fit: the ridge
    /// would share such credit out evenly and print it as precise.
    pub(super) aliased: Vec<Vec<f64>>,
}

impl SectionDesign {
    /// `None` for a section no board holds an item of. `items` writes a
    /// board's items, `controls` gives its controls (as many for every
    /// board). With `copies`, a feature counts the item's copies on the
    /// board; without, whether the board holds it.
    pub(super) fn new(
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
    pub(super) fn effects(&self, fit: &marginal::Fit, baseline: Baseline) -> BTreeMap<String, Estimate> {
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
pub(super) fn control_names(count: usize) -> &'static [&'static str] {
    match count {
        2 => &["the number of units", "the tiers above the first"],
        1 => &["the tiers above the first"],
        _ => &[],
    }
}
