//! The proposal: the smallest set of whole-number changes to the levers
//! that brings every row's predicted win rate into the band, from the
//! effects of one perturbation run (docs/tune.md, "The proposal").
//!
//! Predicted rates are linear in the changes: `p = w + G·Δ`, with `G` the
//! effects that stand clear of their noise ([`clear`]; the rest are read
//! as 0, so a proposal never leans on an effect the data cannot tell from
//! none). The objective is an L1-regularised least squares (a lasso) on the
//! rows' distances from the band (narrowed by a margin for the
//! verification's noise):
//!
//! ```text
//! minimise  Σ_rows dist(p_r, band)²  +  Σ_levers (μ · |Δ_L| / scale_L + κ · [Δ_L ≠ 0])
//! ```
//!
//! where `dist` weighs a row's distance past the band's edges a hundred
//! times its distance inside the margin, and its distance past the wide
//! band (40–60%) less a margin for noise (2.5 of the row's standard
//! errors, at least 2 points) a thousand times, and
//! `scale_L` is the printed number (at least [`MIN_SCALE`]), so a
//! change costs in proportion to its share of what it changes, and `κ` is
//! the price of touching a number at all. These terms are what make the set
//! small: a lever moves only when it buys more than it costs. Predictions
//! add in logits (`Problem::base`), so a row moves as a win rate does. It is solved over whole numbers by greedy coordinate descent:
//! from no change, the one step (of 1, or 2%, 5%, 10%, 25% or 50% of the number,
//! either way) that lowers the objective most, again and again, within the
//! card format's range, every ladder keeping its printed order, and each
//! change within a trust region of [`TRUST`] of its number, where the
//! linear prediction holds; then each change the rows do not need is
//! dropped, smallest first.

use super::levers::Lever;
use gridsim_analysis::lever_effects::Effects;
use gridsim_model::catalog::StatField;

/// How many standard errors an effect must stand from zero to be read:
/// where the row's holders carry the lever on at least [`NEAR`] of their
/// boards (a card's own ladder, a keyword's carriers), two; elsewhere, where
/// the lever reaches the row only through opponents and neighbours, the
/// Bonferroni bound over every effect of the run at 5%, so that of the
/// hundred thousand or so effects no more than one noise is read as an
/// effect, on average, in twenty runs.
pub fn clear(effects: &Effects, row: usize, lever: usize, field: StatField) -> bool {
    let (g, se) = effects.at(row, lever);
    if !se.is_finite() || se <= 0.0 {
        return false;
    }
    if effects.exposure(row, lever) < NEAR {
        return g.abs() >= bonferroni_z(effects.effect.len()) * se;
    }
    g.abs() >= 2.0 * se || (strengthens(field) && g >= ONE_SIDED_Z * se)
}

/// Whether more of `field` makes the unit that prints it stronger by the
/// rules themselves: Vitality (more to lose before death, 500.4), Power
/// (more damage per hit), Armor (less taken per instance, 500.1) and Speed
/// (a faster charge, 300.2; the sections as docs/rules-reconstruction.md
/// reconstructs them). For these the direction of a row's own effect is known
/// before the data is read, so it is tested one-sided, at the same 5%;
/// an effect against that direction is read only at the two-sided bar.
fn strengthens(field: StatField) -> bool {
    matches!(
        field,
        StatField::Vitality | StatField::Power | StatField::Armor | StatField::Speed
    )
}

/// The one-sided 5% quantile of the normal.
const ONE_SIDED_Z: f64 = 1.645;

/// The share of a row's fights whose holder carries a lever for the lever
/// to count as the row's own.
pub const NEAR: f64 = 0.25;

/// The normal quantile of a two-sided 5% test over `m` tests.
fn bonferroni_z(m: usize) -> f64 {
    let tail = 0.025 / m.max(1) as f64;
    gridsim_analysis::stats::normal_quantile_upper(tail)
}

/// What a proposal is asked.
pub struct Problem<'a> {
    /// Each row's win rate now (as a fraction).
    pub rates: &'a [f64],
    /// Each row's rate where the effects were measured: an effect `g`
    /// there is `g / (b (1 − b))` in logits, and predictions add in logits,
    /// so a row far from a half moves as a win rate does, slower towards
    /// its ends.
    pub base: &'a [f64],
    /// Each row's effects are read times this: 1 at first; after a
    /// verified round, what the run measured of the row's change in logits
    /// over what the effects predicted (a secant correction, where the
    /// rows bend).
    pub row_scale: &'a [f64],
    pub effects: &'a Effects,
    pub levers: &'a [Lever],
    /// Each lever's whole printed ladder (every tier of its card's field).
    pub ladders: &'a [Vec<i32>],
    /// Each lever's allowed values ([`range`] of the catalog as it was).
    pub range: &'a [(i32, i32)],
    /// Each row's standard error on a run of the suite (two-way, as the
    /// report gives it): how far a fresh run may measure it from where it
    /// is.
    pub noise: &'a [f64],
    /// The band the predicted rates are brought into, already narrowed by
    /// the margin.
    pub low: f64,
    pub high: f64,
    /// The band itself.
    pub band: (f64, f64),
}

/// A proposal: each lever's change (0 for most) and each row's predicted
/// rate after it.
#[derive(Debug, Clone, PartialEq)]
pub struct Proposal {
    pub changes: Vec<i32>,
    pub predicted: Vec<f64>,
}

/// The L1 weight `μ`: a change of a tenth of its number must lower the
/// rows' summed squared distance from the band by 1e-5 (a row a third of
/// a point outside) to be worth making.
const L1: f64 = 1e-4;
/// What moving a number at all costs, over and above its size (an L0
/// term): as much as a row 0.7 points into the band's margin (and 0.07
/// points outside the band), so that a change already made goes further
/// before a new number is touched, and the set of changes stays small.
const L0: f64 = 5e-5;
/// How much more a row's distance outside the band itself weighs than its
/// distance inside the band's margin.
const OUTSIDE: f64 = 100.0;
/// The wide band no ranked row may leave (issue 29's bar: none outside
/// 40–60%, whatever the band asked for).
pub const WIDE_BAND: (f64, f64) = (0.40, 0.60);
/// How far inside the wide band a prediction is held, for the noise of the
/// run that verifies it: at least this, and [`WIDE_Z`] of the row's
/// standard errors.
const WIDE_MARGIN: f64 = 0.02;
/// A fresh run measures a row off its prediction by its own noise and by
/// the noise of the rates the prediction started from (the rounds' run,
/// as large): together `√2` standard errors, and a row held `2.5` standard
/// errors inside 40–60% lands past it once in about twenty-five at worst
/// (a row exactly at the margin; most are further in).
const WIDE_Z: f64 = 2.5;
/// How much more a row's distance past the wide band's margin weighs than
/// its distance outside the band: a row past 40–60% fails the tune
/// outright, a row between the two only lowers its count, so a proposal
/// gives up a row in the band before it lets another near 40 or 60.
const WIDE: f64 = 10.0 * OUTSIDE;
/// The largest change one round proposes to a number, as a share of it:
/// the effects are slopes at the printed number, and far from it the rows
/// bend; a later round, from the rates the run measured, goes further.
pub const TRUST: f64 = 0.5;
/// How far a card's amounts may move, in percent of what they print: at
/// most halved (so no clause is written out of the card) or doubled.
pub const AMOUNTS_RANGE: (i32, i32) = (-50, 100);
/// A number's scale: its printed size, at least this.
const MIN_SCALE: f64 = 5.0;

impl Problem<'_> {
    /// An effect the proposal reads, in logits per unit: clear of its
    /// noise, else 0.
    fn g(&self, row: usize, lever: usize) -> f64 {
        if clear(self.effects, row, lever, self.levers[lever].field) {
            let b = self.base[row].clamp(0.02, 0.98);
            self.effects.at(row, lever).0 * self.row_scale[row] / (b * (1.0 - b))
        } else {
            0.0
        }
    }

    fn scale(&self, l: usize) -> f64 {
        if self.levers[l].field == StatField::Amounts {
            // A percent of the printed amounts: a change of 10 is a tenth.
            return 100.0;
        }
        f64::from(self.levers[l].value.abs()).max(MIN_SCALE)
    }

    /// Whether lever `l` may print `value`: within its range.
    fn in_range(&self, l: usize, value: i32) -> bool {
        let (low, high) = self.range[l];
        (low..=high).contains(&value)
    }
}

/// The values a lever printing `printed` in the catalog as it was may take
/// over every round of a tune: the card format's range (−100,000 to
/// 1,000,000, Vitality and Durability above 0), and no further from the
/// printed number than its own size (at least [`MIN_SCALE`]): a number at
/// most doubles, so a proposal stays a retuning of the card a designer
/// wrote.
pub fn range(field: StatField, printed: i32) -> (i32, i32) {
    if field == StatField::Amounts {
        return AMOUNTS_RANGE;
    }
    let floor = if matches!(field, StatField::Vitality | StatField::Durability) {
        1
    } else {
        *gridsim_model::catalog::LADDER_VALUES.start()
    };
    let reach = printed.abs().max(MIN_SCALE as i32);
    (
        (printed - reach).max(floor),
        (printed + reach).min(*gridsim_model::catalog::LADDER_VALUES.end()),
    )
}

/// The changes, the rows' predictions (in logits) under them and their miss, kept up
/// to date one lever at a time: each lever's column holds only the rows it
/// clearly moves.
struct State<'a> {
    p: &'a Problem<'a>,
    columns: Vec<Vec<(usize, f64)>>,
    changes: Vec<i32>,
    predicted: Vec<f64>,
}

impl<'a> State<'a> {
    fn new(p: &'a Problem<'a>) -> State<'a> {
        let columns = (0..p.levers.len())
            .map(|l| {
                (0..p.rates.len())
                    .filter_map(|r| Some((r, p.g(r, l))).filter(|(_, g)| *g != 0.0))
                    .collect()
            })
            .collect();
        State {
            p,
            columns,
            changes: vec![0; p.levers.len()],
            predicted: p.rates.iter().map(|&w| logit(w)).collect(),
        }
    }

    /// A row's squared distance from the narrowed band at logit `x`,
    /// [`OUTSIDE`] times its squared distance from the band itself, and
    /// [`WIDE`] times its squared distance past the wide band's margin: a
    /// row outside the band is what a tune is for, a row inside it but
    /// within the margin of its edge only a risk, a row near 40 or 60% a
    /// failure.
    fn distance(&self, r: usize, x: f64) -> f64 {
        let p = sigmoid(x);
        let (low, high) = (self.p.band.0, self.p.band.1);
        let margin = WIDE_MARGIN.max(WIDE_Z * self.p.noise.get(r).copied().unwrap_or(0.0));
        let (wide_low, wide_high) = (WIDE_BAND.0 + margin, (WIDE_BAND.1 - margin).max(WIDE_BAND.0 + margin));
        (p - p.clamp(self.p.low, self.p.high)).powi(2)
            + OUTSIDE * (p - p.clamp(low, high)).powi(2)
            + WIDE * (p - p.clamp(wide_low, wide_high)).powi(2)
    }

    /// The sum of squared distances of the rows from the band.
    fn miss(&self) -> f64 {
        self.predicted
            .iter()
            .enumerate()
            .map(|(r, &x)| self.distance(r, x))
            .sum()
    }

    /// How the miss would move if lever `l` moved by `step`.
    fn miss_change(&self, l: usize, step: i32) -> f64 {
        self.columns[l]
            .iter()
            .map(|&(r, g)| {
                let x = self.predicted[r];
                self.distance(r, x + g * f64::from(step)) - self.distance(r, x)
            })
            .sum()
    }

    fn apply(&mut self, l: usize, step: i32) {
        self.changes[l] += step;
        for &(r, g) in &self.columns[l] {
            self.predicted[r] += g * f64::from(step);
        }
    }

    /// Whether lever `l` may move by `step`: in range, its ladder in order.
    fn legal(&mut self, l: usize, step: i32) -> bool {
        if !self.p.in_range(l, self.p.levers[l].value + self.changes[l] + step) {
            return false;
        }
        self.changes[l] += step;
        let ok = ladder_ok(self.p, &self.changes, l);
        self.changes[l] -= step;
        ok
    }
}

pub fn propose(p: &Problem) -> Proposal {
    let mut state = State::new(p);
    // Only levers some row reads a clear effect of.
    let active: Vec<usize> = (0..p.levers.len()).filter(|&l| !state.columns[l].is_empty()).collect();
    descend(&mut state, &active);
    prune(&mut state);
    Proposal {
        predicted: state.predicted.iter().map(|&x| sigmoid(x)).collect(),
        changes: state.changes,
    }
}

pub fn logit(p: f64) -> f64 {
    let p = p.clamp(1e-4, 1.0 - 1e-4);
    (p / (1.0 - p)).ln()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The levers of the same card and field as lever `l`.
fn same_ladder<'a>(p: &'a Problem<'a>, l: usize) -> impl Iterator<Item = usize> + 'a {
    let a = &p.levers[l];
    (0..p.levers.len()).filter(move |&m| p.levers[m].item == a.item && p.levers[m].field == a.field)
}

/// Whether lever `l`'s ladder keeps its printed order with `changes`: a
/// rise stays a rise, a fall a fall, and a step that printed equal does
/// not turn against the ladder's direction.
///
/// An `amounts` lever's ladder is the card's largest fixed amount at each
/// tier as printed (`Catalog::amount_ladder`), raised by the tiers'
/// percents.
fn ladder_ok(p: &Problem, changes: &[i32], l: usize) -> bool {
    let printed = &p.ladders[l];
    let mut now = printed.clone();
    let amounts = p.levers[l].field == StatField::Amounts;
    for m in same_ladder(p, l) {
        let t = usize::from(p.levers[m].tier) - 1;
        if let Some(v) = now.get_mut(t) {
            if amounts {
                *v = gridsim_model::catalog::scale_amount(printed[t], p.levers[m].value + changes[m]);
            } else {
                *v += changes[m];
            }
        }
    }
    let rising = printed.last() >= printed.first();
    printed
        .windows(2)
        .zip(now.windows(2))
        .all(|(was, is)| match was[0].cmp(&was[1]) {
            std::cmp::Ordering::Less => is[0] < is[1],
            std::cmp::Ordering::Greater => is[0] > is[1],
            std::cmp::Ordering::Equal => {
                if rising {
                    is[0] <= is[1]
                } else {
                    is[0] >= is[1]
                }
            }
        })
}

/// Drops every change the rows do not need, smallest first: one whose
/// removal raises the miss by less than the change costs.
fn prune(state: &mut State) {
    let p = state.p;
    let mut order: Vec<usize> = (0..state.changes.len()).filter(|&l| state.changes[l] != 0).collect();
    order.sort_by(|&a, &b| {
        let rel = |l: usize| f64::from(state.changes[l].abs()) / p.scale(l);
        rel(a).total_cmp(&rel(b)).then(a.cmp(&b))
    });
    for l in order {
        let back = -state.changes[l];
        let saved = L1 * f64::from(back.abs()) / p.scale(l) + L0;
        if state.miss_change(l, back) <= saved && state.legal(l, back) {
            state.apply(l, back);
        }
    }
}

/// Greedy coordinate descent on the objective: the best single step,
/// again and again, while one lowers it.
fn descend(state: &mut State, active: &[usize]) {
    for _ in 0..10_000 {
        if state.miss() <= 0.0 {
            return;
        }
        let mut best: Option<(f64, usize, i32)> = None;
        for &l in active {
            let scale = state.p.scale(l);
            let limit = (TRUST * scale).floor() as i32;
            for size in [
                1.0,
                0.02 * scale,
                0.05 * scale,
                0.1 * scale,
                0.25 * scale,
                TRUST * scale,
            ] {
                let size = size.round().max(1.0) as i32;
                for step in [size, -size] {
                    let now = state.changes[l];
                    if (now + step).abs() > limit.max(1) {
                        continue;
                    }
                    let cost = L1 * f64::from((now + step).abs() - now.abs()) / scale + if now == 0 { L0 } else { 0.0 }
                        - if now + step == 0 { L0 } else { 0.0 };
                    let gain = state.miss_change(l, step) + cost;
                    if gain < -1e-12 && best.is_none_or(|(b, _, _)| gain < b) && state.legal(l, step) {
                        best = Some((gain, l, step));
                    }
                }
            }
        }
        let Some((_, l, step)) = best else { return };
        state.apply(l, step);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridsim_model::catalog::CardId;

    fn lever(card: u16, tier: u8, value: i32) -> Lever {
        Lever {
            item: super::super::Item::Card(CardId(card)),
            key: format!("card{card}"),
            tier,
            field: StatField::Power,
            value,
            step: 2,
        }
    }

    /// Two rows, each moved by its own card's lever: the low one is raised
    /// by its lever, the one in the band is left alone.
    #[test]
    fn a_row_below_the_band_is_raised_by_its_own_lever_and_nothing_else_moves() {
        let levers = vec![lever(0, 1, 20), lever(1, 1, 20)];
        // Row 0 rises 1 point per Power of card 0; row 1, 1 point per Power
        // of card 1; the cross effects are noise.
        let effects = effects(2, vec![0.01, 0.0001, 0.0001, 0.01], vec![1.0, 0.0, 0.0, 1.0]);
        let ladders = vec![vec![20, 30, 40], vec![20, 30, 40]];
        let out = solve(&[0.40, 0.50], &effects, &levers, &ladders);
        assert_eq!(out.changes[1], 0, "the row in the band needs nothing");
        assert!(
            (6..=9).contains(&out.changes[0]),
            "6 points up needs 6 Power: {:?}",
            out.changes
        );
        assert!(out.predicted[0] >= 0.46 - 1e-9);
    }

    /// A ladder keeps its order: tier 1 cannot rise past tier 2.
    #[test]
    fn a_ladder_keeps_its_order() {
        let levers = vec![lever(0, 1, 28)];
        let ladders = vec![vec![28, 30, 40]];
        let out = solve(&[0.30], &effects(1, vec![0.01], vec![1.0]), &levers, &ladders);
        assert!(28 + out.changes[0] < 30, "tier 1 stays below tier 2: {:?}", out.changes);
    }

    /// Effects of `levers` levers on `effect.len() / levers` rows, each
    /// with a standard error of 0.001.
    fn effects(levers: usize, effect: Vec<f64>, exposure: Vec<f32>) -> Effects {
        let rows = effect.len() / levers;
        Effects {
            levers,
            se: vec![0.001; effect.len()],
            effect,
            exposure,
            fights: vec![1000; rows],
            holders: vec![100; rows],
        }
    }

    /// The proposal for rows at `rates` into 45–55% (46–54% with the
    /// margin), every number free within 0–40.
    fn solve(rates: &[f64], effects: &Effects, levers: &[Lever], ladders: &[Vec<i32>]) -> Proposal {
        propose(&Problem {
            rates,
            base: rates,
            row_scale: &vec![1.0; rates.len()],
            effects,
            levers,
            ladders,
            low: 0.46,
            high: 0.54,
            band: (0.45, 0.55),
            range: &vec![(0, 40); levers.len()],
            noise: &vec![0.0; rates.len()],
        })
    }
}
