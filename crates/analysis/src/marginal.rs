//! Marginal effects: what an item adds to a board with the rest of the
//! board held equal, from a ridge-regularised logistic model of every
//! fight's result on the two boards' contents.
//!
//! A raw win rate credits a card with the strength of whatever it tends to
//! share a board with. The model instead reads each fight as
//!
//! ```text
//! P(left wins) = sigmoid(theta . (x_left - x_right))
//! ```
//!
//! where `x` is a board's features (copies of each card, say), a draw counts
//! as half a win, and the penalty `ridge * |theta|^2 / 2` keeps the
//! coefficients finite where the data cannot separate them (an item no
//! board holds, or features that always move together). Fitted by Newton's
//! method on the per-matchup tallies.
//!
//! The uncertainty counts boards, as the rates' intervals do: the
//! covariance is a sandwich `H^-1 M H^-1` whose middle sums the score
//! products of every two matchups sharing a board (dyadic), `M = sum_b S_b
//! S_b^T - sum_p T_p T_p^T` with `S_b` the sum of the scores of board `b`'s
//! matchups and `T_p` that of an unordered pair `p`'s (two matchups sharing
//! both boards count once). `docs/report.md` gives the worked reading.

use crate::Error;
use nalgebra::{DMatrix, DVector};

pub use crate::effect_curve::EffectCurve;
use crate::effect_curve::{LogitHistogram, sigmoid};

/// A board's features: `(feature, value)` pairs, each feature at most once.
/// Values are counts (copies, units, tiers): f32 holds them exactly in half
/// the room of f64, and every sum is taken in f64.
pub type BoardFeatures = Vec<(u32, f32)>;

/// The fights between two boards, `left` against `right` (dense indices
/// into the boards' features).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchupResult {
    pub left: u32,
    pub right: u32,
    pub fights: f64,
    /// Left's wins plus half the draws.
    pub left_score: f64,
}

/// How the model is fitted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelSettings {
    /// The penalty on every coefficient, in units of one fight's
    /// log-likelihood: a prior standard deviation of `1/sqrt(ridge)` logits.
    pub ridge: f64,
    /// Newton steps at most; the fit stops earlier once no coefficient moves
    /// by more than `tolerance` logits.
    pub max_steps: u32,
    /// A millionth of a logit: a coefficient within that of the optimum
    /// moves a win rate by less than a ten-thousandth of a point, and the
    /// smallest standard error a report shows is a thousand times larger.
    pub tolerance: f64,
}

impl Default for ModelSettings {
    fn default() -> Self {
        ModelSettings {
            ridge: 1.0,
            max_steps: 30,
            tolerance: 1e-6,
        }
    }
}

/// A fitted model.
#[derive(Debug, Clone)]
pub struct Fit {
    /// Coefficients, in logits per unit of each feature.
    pub theta: Vec<f64>,
    /// The board-clustered covariance of `theta`.
    covariance: DMatrix<f64>,
    pub converged: bool,
    /// Logit shifts turned into win-rate points against the run's field.
    pub curve: EffectCurve,
}

impl Fit {
    /// The estimate of `sum_i weight_i * theta_i` and its standard error.
    pub fn contrast(&self, weights: &[(u32, f64)]) -> (f64, f64) {
        let estimate = weights.iter().map(|&(i, w)| w * self.theta[i as usize]).sum();
        let mut variance = 0.0;
        for &(i, wi) in weights {
            for &(j, wj) in weights {
                variance += wi * wj * self.covariance[(i as usize, j as usize)];
            }
        }
        (estimate, variance.max(0.0).sqrt())
    }
}

/// The run's fights as the model reads them, or one block of them
/// ([`gridsim_data::pair_blocks`]), shared by every section's model: each
/// unordered pair of distinct boards once (a fight's likelihood, weight and
/// residual depend only on the two boards, so `a` against `b` and `b`
/// against `a` add up), and for each board the pairs that name it.
pub struct Matchups {
    boards: usize,
    /// The boards whose every pair this holds; the pairs whose lower board
    /// is among them are this block's to count in a sum over pairs.
    block: std::ops::Range<usize>,
    /// Sorted by `(low, high)`, `low < high`.
    pairs: Vec<PairResult>,
    /// `pairs[owned]` have their lower board in `block`.
    owned: std::ops::Range<usize>,
    /// Fights of a board of the block against itself: no difference of
    /// features, so nothing for the fit; they still count in the
    /// [`EffectCurve`].
    mirror_fights: f64,
    /// Board `block.start + i`'s pairs are `incident[start[i]..start[i + 1]]`.
    start: Vec<usize>,
    incident: Vec<u32>,
}

#[derive(Debug, Clone, Copy)]
struct PairResult {
    low: u32,
    high: u32,
    fights: f64,
    /// The lower board's wins plus half the draws.
    low_score: f64,
}

impl Matchups {
    /// `results` over boards `0..boards`, all of them.
    pub fn new(boards: usize, results: &[MatchupResult]) -> Matchups {
        Matchups::block(boards, 0..boards, results.iter().copied())
    }

    /// The block of boards `block` among `0..boards`: `results` holds every
    /// fight of those boards (and may hold others).
    pub fn block(
        boards: usize,
        block: std::ops::Range<usize>,
        results: impl IntoIterator<Item = MatchupResult>,
    ) -> Matchups {
        let mut mirror_fights = 0.0;
        let results = results.into_iter();
        let mut pairs: Vec<PairResult> = Vec::with_capacity(results.size_hint().0);
        for m in results {
            assert!(
                (m.left as usize) < boards && (m.right as usize) < boards,
                "a matchup names a board out of range"
            );
            if m.left == m.right {
                if block.contains(&(m.left as usize)) {
                    mirror_fights += m.fights;
                }
            } else if m.left < m.right {
                pairs.push(PairResult {
                    low: m.left,
                    high: m.right,
                    fights: m.fights,
                    low_score: m.left_score,
                });
            } else {
                pairs.push(PairResult {
                    low: m.right,
                    high: m.left,
                    fights: m.fights,
                    low_score: m.fights - m.left_score,
                });
            }
        }
        pairs.sort_by_key(|m| (m.low, m.high));
        pairs.dedup_by(|later, kept| {
            let same = (later.low, later.high) == (kept.low, kept.high);
            if same {
                kept.fights += later.fights;
                kept.low_score += later.low_score;
            }
            same
        });
        let owned = pairs.partition_point(|m| (m.low as usize) < block.start)
            ..pairs.partition_point(|m| (m.low as usize) < block.end);
        // Incidence for the block's own boards only: a pass visits no
        // other board's pairs from this block.
        let local = |b: u32| (b as usize).checked_sub(block.start).filter(|&i| i < block.len());
        let mut start = vec![0usize; block.len() + 1];
        for m in &pairs {
            for i in [m.low, m.high].into_iter().filter_map(local) {
                start[i + 1] += 1;
            }
        }
        for i in 0..block.len() {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut incident = vec![0u32; start[block.len()]];
        for (k, m) in pairs.iter().enumerate() {
            for i in [m.low, m.high].into_iter().filter_map(local) {
                incident[fill[i]] = k as u32;
                fill[i] += 1;
            }
        }
        Matchups {
            boards,
            block,
            pairs,
            owned,
            mirror_fights,
            start,
            incident,
        }
    }

    /// Board `b`'s pairs, `b` in the block.
    fn of(&self, b: usize) -> &[u32] {
        let i = b - self.block.start;
        &self.incident[self.start[i]..self.start[i + 1]]
    }

    fn owned(&self) -> &[PairResult] {
        &self.pairs[self.owned.clone()]
    }
}

/// A run's matchups for the fit, a block of boards at a time.
pub trait MatchupSource: Sync {
    /// The run's boards: every block's `boards`.
    fn boards(&self) -> usize;
    /// Visits every block in turn; fails if a block cannot be read.
    fn each(&self, visit: &mut dyn FnMut(&Matchups)) -> Result<(), Error>;
}

/// The whole run in one block.
impl MatchupSource for Matchups {
    fn boards(&self) -> usize {
        self.boards
    }

    fn each(&self, visit: &mut dyn FnMut(&Matchups)) -> Result<(), Error> {
        visit(self);
        Ok(())
    }
}

/// Every model's features in one flat array, board by board and within a
/// board model by model, so that a pass reads one place per board.
struct FeatureRows {
    boards: usize,
    models: usize,
    width: Vec<usize>,
    /// Board `b`'s features in model `m` are
    /// `entries[start[b * models + m]..start[b * models + m + 1]]`.
    start: Vec<usize>,
    entries: Vec<(u32, f32)>,
}

impl FeatureRows {
    /// Takes the models' features, freeing each board's as it is copied:
    /// the features are held once.
    fn new(mut models: Vec<Model>, boards: usize) -> FeatureRows {
        for m in &models {
            assert_eq!(m.boards.len(), boards, "one feature row per board");
        }
        let mut start = Vec::with_capacity(boards * models.len() + 1);
        start.push(0);
        let mut entries = Vec::with_capacity(models.iter().flat_map(|m| &m.boards).map(Vec::len).sum());
        for b in 0..boards {
            for m in &mut models {
                entries.extend_from_slice(&std::mem::take(&mut m.boards[b]));
                start.push(entries.len());
            }
        }
        FeatureRows {
            boards,
            models: models.len(),
            width: models.iter().map(|m| m.features).collect(),
            start,
            entries,
        }
    }

    fn of(&self, b: usize, model: usize) -> &[(u32, f32)] {
        let at = b * self.models + model;
        &self.entries[self.start[at]..self.start[at + 1]]
    }

    /// Each board's `theta . x` in each model, `b * models + model`; zero
    /// for a model without coefficients.
    fn strengths(&self, thetas: &[Option<&DVector<f64>>]) -> Vec<f64> {
        let mut out = vec![0.0; self.boards * self.models];
        for b in 0..self.boards {
            for (m, theta) in thetas.iter().enumerate() {
                if let Some(theta) = theta {
                    out[b * self.models + m] = self
                        .of(b, m)
                        .iter()
                        .map(|&(i, v)| theta[i as usize] * f64::from(v))
                        .sum();
                }
            }
        }
        out
    }
}

/// Some boards' feature rows and strengths copied side by side, in the
/// order asked: a pass meets the boards of its pairs in no order a cache
/// can follow, and copying a few dozen first lets their cache misses
/// overlap instead of following each other, pair by pair.
struct Gathered {
    models: usize,
    entries: Vec<(u32, f32)>,
    /// Board `i`'s row in model `m` is `entries[start[i * (models + 1) + m]..start[i * (models + 1) + m + 1]]`.
    start: Vec<usize>,
    strength: Vec<f64>,
}

impl Gathered {
    /// Boards per gathering: enough misses in flight to fill the memory
    /// system, few enough that the copies stay in the first-level cache.
    const BOARDS: usize = 32;

    fn new(models: usize) -> Gathered {
        Gathered {
            models,
            entries: Vec::new(),
            start: Vec::new(),
            strength: Vec::new(),
        }
    }

    /// Copies `boards`' strengths, and their rows `with_rows`, replacing
    /// the last ones.
    fn gather(&mut self, rows: &FeatureRows, strength: &[f64], boards: impl Iterator<Item = usize>, with_rows: bool) {
        let k = self.models;
        self.entries.clear();
        self.start.clear();
        self.strength.clear();
        for b in boards {
            self.strength.extend_from_slice(&strength[b * k..(b + 1) * k]);
            if with_rows {
                let spans = &rows.start[b * k..=(b + 1) * k];
                let base = self.entries.len();
                self.start.extend(spans.iter().map(|&at| base + at - spans[0]));
                self.entries.extend_from_slice(&rows.entries[spans[0]..spans[k]]);
            }
        }
    }

    /// The `i`th gathered board's row in model `m`.
    fn of(&self, i: usize, m: usize) -> &[(u32, f32)] {
        let at = i * (self.models + 1) + m;
        &self.entries[self.start[at]..self.start[at + 1]]
    }

    fn strength(&self, i: usize, m: usize) -> f64 {
        self.strength[i * self.models + m]
    }
}

/// Fits `theta` over `features` features. `None` when the penalised Hessian
/// cannot be factored (only with a ridge of zero).
pub fn fit(features: usize, boards: &[BoardFeatures], matchups: &Matchups, settings: ModelSettings) -> Option<Fit> {
    // One block in memory: nothing to read, nothing to fail.
    let boards = boards.to_vec();
    fit_all(vec![Model { features, boards }], matchups, settings)
        .ok()?
        .pop()
        .flatten()
}

/// One model of [`fit_all`]: its number of features and each board's.
#[derive(Debug, Clone)]
pub struct Model {
    pub features: usize,
    pub boards: Vec<BoardFeatures>,
}

/// Fits several models of the same fights at once, each as [`fit`] would.
///
/// A step of a fit is a few passes over every pair of boards, and a pass
/// costs its reads of two boards' rows far more than its arithmetic, the
/// pairs meeting boards in no order a cache can follow. The models take
/// their steps together, so each pass reads a pair's two boards once for
/// all of them: their strengths, residuals and features sit side by side
/// board by board. Each model still stops on its own criterion.
///
/// The pairs come a block of boards at a time ([`MatchupSource`]): a pass
/// keeps sums over boards and features, never the pairs. Where no two
/// distinct boards met, no model has a fit (`None`).
pub fn fit_all(
    models: Vec<Model>,
    matchups: &dyn MatchupSource,
    settings: ModelSettings,
) -> Result<Vec<Option<Fit>>, Error> {
    let mut states: Vec<FitState> = models.iter().map(|m| FitState::new(m.features)).collect();
    let rows = FeatureRows::new(models, matchups.boards());
    for _ in 0..settings.max_steps {
        if states.iter().all(|s| s.done) {
            break;
        }
        let thetas: Vec<Option<&DVector<f64>>> = states.iter().map(|s| (!s.done).then_some(&s.theta)).collect();
        let strength = rows.strengths(&thetas);
        let wants: Vec<Want> = states.iter().map(FitState::wants).collect();
        let (sums, pairs) = pair_pass(&rows, matchups, &strength, &wants)?;
        if pairs == 0 {
            // No two distinct boards met: nothing to fit, not a fit of
            // zeros with no uncertainty.
            return Ok(states.iter().map(|_| None).collect());
        }
        for (m, ((state, sums), want)) in states.iter_mut().zip(sums).zip(&wants).enumerate() {
            if !state.done {
                let at = state.theta.clone();
                state.step(&rows, m, &sums, settings);
                state.last_full = want.squares.then_some((sums, at));
            }
        }
    }
    // A model that stopped without a full last pass (it converged from
    // farther than `FitState::NEAR`), or ran out of steps after one, takes
    // one now, at its final coefficients.
    for state in states.iter_mut().filter(|s| !s.converged) {
        state.last_full = None;
    }
    let thetas: Vec<Option<&DVector<f64>>> = states
        .iter()
        .map(|s| (!s.failed && s.last_full.is_none()).then_some(&s.theta))
        .collect();
    if thetas.iter().any(Option::is_some) {
        let strength = rows.strengths(&thetas);
        let wants: Vec<Want> = thetas
            .iter()
            .map(|t| Want {
                residuals: false,
                hessian: t.is_some(),
                squares: t.is_some(),
            })
            .collect();
        let (sums, _) = pair_pass(&rows, matchups, &strength, &wants)?;
        for (state, sums) in states.iter_mut().zip(sums) {
            if !state.failed && state.last_full.is_none() {
                state.last_full = Some((sums, state.theta.clone()));
            }
        }
    }
    // The board score squares and the curve at the coefficients the full
    // pass was taken at.
    let thetas: Vec<Option<&DVector<f64>>> = states.iter().map(|s| s.last_full.as_ref().map(|(_, at)| at)).collect();
    let strength = rows.strengths(&thetas);
    let wants: Vec<Want> = thetas
        .iter()
        .map(|t| Want {
            residuals: false,
            hessian: false,
            squares: t.is_some(),
        })
        .collect();
    let board_scores = board_score_squares(&rows, matchups, &strength, &wants)?;
    let curves = curves(&rows, matchups, &strength, &wants)?;
    Ok(states
        .into_iter()
        .zip(board_scores)
        .zip(curves)
        .enumerate()
        .map(|(m, ((state, scores), curve))| {
            let (sums, _) = state.last_full.as_ref().filter(|_| !state.failed)?;
            let p = state.theta.len();
            let hessian = assemble(&rows, m, p, &sums.own, &sums.cross, settings.ridge);
            let bread = hessian.cholesky()?.inverse();
            // M = sum_b S_b S_b^T - sum_p T_p T_p^T, T_p T_p^T being
            // e_p^2 (x_low - x_high)(x_low - x_high)^T, summed as the
            // Hessian is.
            let meat = scores? - assemble(&rows, m, p, &sums.own_squares, &sums.cross_squares, 0.0);
            // A small-sample correction, as HC1 is to HC0: with `G` boards
            // and `p` coefficients the raw sandwich runs narrow by about
            // G / (G - p), the residuals having been fitted to the same
            // boards.
            let g = matchups.boards() as f64;
            let correction = if g > p as f64 + 1.0 { g / (g - p as f64) } else { 1.0 };
            let covariance = (&bread * meat * &bread) * correction;
            Some(Fit {
                theta: state.theta.iter().copied().collect(),
                covariance,
                converged: state.converged,
                curve,
            })
        })
        .collect())
}

/// Each wanted model's [`EffectCurve`] at its strengths: one more pass.
fn curves(
    rows: &FeatureRows,
    matchups: &dyn MatchupSource,
    strength: &[f64],
    wants: &[Want],
) -> Result<Vec<EffectCurve>, Error> {
    let k = rows.models;
    let mut histograms: Vec<LogitHistogram> = (0..k)
        .map(|m| {
            let (low, high) = (0..rows.boards)
                .map(|b| strength[b * k + m])
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), s| (l.min(s), h.max(s)));
            LogitHistogram::new(high - low)
        })
        .collect();
    matchups.each(&mut |block| {
        for pair in block.owned() {
            let (l, h) = (pair.low as usize, pair.high as usize);
            for (m, histogram) in histograms.iter_mut().enumerate().filter(|(m, _)| wants[*m].squares) {
                let eta = strength[l * k + m] - strength[h * k + m];
                histogram.add(eta, pair.fights);
                histogram.add(-eta, pair.fights);
            }
        }
        if block.mirror_fights > 0.0 {
            // A board against itself: logit 0 from both sides.
            for histogram in &mut histograms {
                histogram.add(0.0, 2.0 * block.mirror_fights);
            }
        }
    })?;
    Ok(histograms.iter().map(LogitHistogram::curve).collect())
}

/// One model's Newton iteration.
struct FitState {
    theta: DVector<f64>,
    /// The factored Hessian in use; `None` when the next pass must bring a
    /// fresh one.
    factor: Option<nalgebra::linalg::Cholesky<f64, nalgebra::Dyn>>,
    last_step: f64,
    done: bool,
    converged: bool,
    /// The Hessian could not be factored (only with a ridge of zero).
    failed: bool,
    /// The last pass's sums and the coefficients it was taken at, when it
    /// gathered what the covariance needs (a fresh Hessian and the squares).
    last_full: Option<(PassSums, DVector<f64>)>,
}

impl FitState {
    fn new(p: usize) -> FitState {
        FitState {
            theta: DVector::zeros(p),
            factor: None,
            last_step: f64::INFINITY,
            done: false,
            converged: false,
            failed: false,
            last_full: None,
        }
    }

    /// A last step under this, and the next pass gathers a fresh Hessian
    /// and the squares too: the step from a fresh Hessian this close to the
    /// optimum lands within the tolerance (quadratic convergence), and the
    /// covariance is then taken from that pass's sums, at coefficients
    /// within the tolerance of the final ones, instead of from a pass of
    /// its own. On a million default-suite fights the five models stop
    /// after 7 passes, every covariance from the pass before its last step:
    /// four models gather it in the sixth, card tiers alone in the seventh
    /// (at a bound of 1e-3, three models needed the seventh; with no such
    /// pass at all, 9 passes and a final one).
    const NEAR: f64 = 1e-2;

    /// A step under this may end the fit on the shrinking of its steps.
    const CLOSE: f64 = 1e-4;

    /// What this model's next pass gathers.
    fn wants(&self) -> Want {
        let near = !self.done && self.last_step < Self::NEAR;
        Want {
            residuals: !self.done,
            hessian: !self.done && (self.factor.is_none() || near),
            squares: near,
        }
    }

    /// A step from a pass's sums. The Hessian is the costly part of a
    /// pass (cross terms for every pair, five times the cost of the
    /// residuals); so the first step is Newton's, and later ones reuse the
    /// last Hessian as long as the steps keep shrinking fast (near the
    /// optimum it barely moves). On a million default-suite fights the
    /// five models converge in 7 passes, three of them with a fresh
    /// Hessian for all five and the last two with one for the models near
    /// the optimum ([`FitState::NEAR`]); 14 when the second step always
    /// took a fresh Hessian and later ones never refreshed it while they
    /// shrank at all fast.
    fn step(&mut self, rows: &FeatureRows, model: usize, sums: &PassSums, settings: ModelSettings) {
        let p = self.theta.len();
        let mut gradient = -settings.ridge * &self.theta;
        for (b, r) in sums.residual.iter().enumerate() {
            for &(i, xi) in rows.of(b, model) {
                gradient[i as usize] += r * f64::from(xi);
            }
        }
        if !sums.own.is_empty() {
            // A fresh Hessian came with the pass.
            let hessian = assemble(rows, model, p, &sums.own, &sums.cross, settings.ridge);
            let Some(factor) = hessian.cholesky() else {
                (self.failed, self.done) = (true, true);
                return;
            };
            self.factor = Some(factor);
        }
        let Some(factor) = self.factor.as_ref() else {
            unreachable!("a factor was just made");
        };
        let step = factor.solve(&gradient);
        self.theta += &step;
        let size = step.amax();
        // Steps that shrink by a ratio `r` leave at most `size * r / (1 -
        // r)` to go: under the tolerance, the fit has converged without
        // another pass to show a step that small. Only this close, so that
        // the covariance, taken at the coefficients before the step, is
        // taken within a ten-thousandth of a logit of the final ones.
        let ratio = size / self.last_step;
        let to_go = if ratio < 1.0 {
            size * ratio / (1.0 - ratio)
        } else {
            f64::INFINITY
        };
        if size < settings.tolerance || (size < Self::CLOSE && to_go < settings.tolerance) {
            (self.converged, self.done) = (true, true);
            return;
        }
        // A reused Hessian converges linearly; once a step shrinks by less
        // than four times, a fresh one (quadratic from there) pays for
        // its pass.
        if size > 0.25 * self.last_step {
            self.factor = None;
        }
        self.last_step = size;
    }
}

/// What a pass over the pairs gathers for one model.
#[derive(Debug, Clone, Copy)]
struct Want {
    /// Each board's sum of residuals (the gradient).
    residuals: bool,
    /// The Hessian's weights: per board, and per feature pair across pairs.
    hessian: bool,
    /// The same with squared residuals as weights (the sandwich's pair term).
    squares: bool,
}

/// One model's sums from a pass; empty where not wanted.
#[derive(Default)]
struct PassSums {
    residual: Vec<f64>,
    own: Vec<f64>,
    cross: Vec<f64>,
    own_squares: Vec<f64>,
    cross_squares: Vec<f64>,
}

/// One pass over the pairs for every model at once, and how many pairs
/// of distinct boards it visited. Per model, with `e`
/// a pair's residual from its lower board and `w = n q (1 - q)` its
/// weight: residuals `+e` on the lower board and `-e` on the higher; `w`
/// on both boards and `w x_low x_high^T` into a dense `p x p` array (the
/// cross terms of `sum w (x_low - x_high)(x_low - x_high)^T`, whose squares
/// add up board by board); the same with `e^2`.
fn pair_pass(
    rows: &FeatureRows,
    matchups: &dyn MatchupSource,
    strength: &[f64],
    wants: &[Want],
) -> Result<(Vec<PassSums>, usize), Error> {
    use rayon::prelude::*;
    let (k, g) = (rows.models, rows.boards);
    let mut visited = 0;
    // Each block's pairs in a fixed number of ranges, range `r` of every
    // block summed into part `r`, the parts added up in order after: the
    // same bytes whatever the number of cores. A part holds sums per board
    // and model, so as few ranges as keep both cores busy.
    const RANGES: usize = 2;
    let mut parts: Vec<PassPart> = (0..RANGES).map(|_| PassPart::new(rows, wants)).collect();
    matchups.each(&mut |block| {
        let pairs = block.owned();
        visited += pairs.len();
        let per = pairs.len().div_ceil(RANGES).max(1);
        parts
            .par_iter_mut()
            .zip(pairs.par_chunks(per))
            .for_each(|(part, pairs)| pass_part(rows, pairs, strength, wants, part));
    })?;
    let mut parts = parts.into_iter();
    let mut total = parts.next().unwrap_or_else(|| PassPart::new(rows, wants));
    for part in parts {
        total.add(&part);
    }
    let PassPart {
        residual,
        own,
        own_squares,
        cross,
        cross_squares,
    } = total;
    let column = |all: &[f64], m: usize, wanted: bool| -> Vec<f64> {
        if wanted {
            (0..g).map(|b| all[b * k + m]).collect()
        } else {
            Vec::new()
        }
    };
    let sums = cross
        .into_iter()
        .zip(cross_squares)
        .enumerate()
        .map(|(m, (cross, cross_squares))| PassSums {
            residual: column(&residual, m, wants[m].residuals),
            own: column(&own, m, wants[m].hessian),
            cross,
            own_squares: column(&own_squares, m, wants[m].squares),
            cross_squares,
        })
        .collect();
    Ok((sums, visited))
}

/// The sums of [`pair_pass`] over some of the pairs: board-indexed sums
/// side by side, `b * models + model`, as the strengths; cross terms per
/// model, empty where not wanted.
struct PassPart {
    residual: Vec<f64>,
    own: Vec<f64>,
    own_squares: Vec<f64>,
    cross: Vec<Vec<f64>>,
    cross_squares: Vec<Vec<f64>>,
}

impl PassPart {
    fn new(rows: &FeatureRows, wants: &[Want]) -> PassPart {
        let size = rows.boards * rows.models;
        let grid = |wanted: &dyn Fn(&Want) -> bool| -> Vec<Vec<f64>> {
            wants
                .iter()
                .zip(&rows.width)
                .map(|(w, &p)| if wanted(w) { vec![0.0; p * p] } else { Vec::new() })
                .collect()
        };
        let sums = |wanted: &dyn Fn(&Want) -> bool| {
            if wants.iter().any(wanted) {
                vec![0.0; size]
            } else {
                Vec::new()
            }
        };
        PassPart {
            residual: sums(&|w| w.residuals),
            own: sums(&|w| w.hessian),
            own_squares: sums(&|w| w.squares),
            cross: grid(&|w| w.hessian),
            cross_squares: grid(&|w| w.squares),
        }
    }

    fn add(&mut self, other: &PassPart) {
        let pairs = [
            (&mut self.residual, &other.residual),
            (&mut self.own, &other.own),
            (&mut self.own_squares, &other.own_squares),
        ];
        let grids = self
            .cross
            .iter_mut()
            .zip(&other.cross)
            .chain(self.cross_squares.iter_mut().zip(&other.cross_squares));
        for (a, b) in pairs.into_iter().chain(grids) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }
}

/// [`pair_pass`] over `pairs`, added to `part`.
fn pass_part(rows: &FeatureRows, pairs: &[PairResult], strength: &[f64], wants: &[Want], part: &mut PassPart) {
    let k = rows.models;
    let PassPart {
        residual,
        own,
        own_squares,
        cross,
        cross_squares,
    } = part;
    let add_cross = |out: &mut [f64], p: usize, w: f64, low: &[(u32, f32)], high: &[(u32, f32)]| {
        for &(i, xi) in low {
            let line = &mut out[i as usize * p..(i as usize + 1) * p];
            let wx = w * f64::from(xi);
            for &(j, xj) in high {
                line[j as usize] += wx * f64::from(xj);
            }
        }
    };
    // The pairs come sorted by their lower board, so the higher boards are
    // the scattered reads, gathered a chunk at a time, and the scattered
    // writes, made after the chunk's arithmetic (in pair order, as ever):
    // either way the chunk's cache misses overlap.
    let rows_wanted = wants.iter().any(|w| w.hessian || w.squares);
    let mut high = Gathered::new(k);
    // Each pair and model's residual, weight and squared residual.
    let mut terms = vec![[0.0f64; 3]; Gathered::BOARDS * k];
    for chunk in pairs.chunks(Gathered::BOARDS) {
        high.gather(rows, strength, chunk.iter().map(|pair| pair.high as usize), rows_wanted);
        for (i, pair) in chunk.iter().enumerate() {
            let l = pair.low as usize;
            for (m, want) in wants.iter().enumerate() {
                if !(want.residuals || want.hessian || want.squares) {
                    continue;
                }
                let q = sigmoid(strength[l * k + m] - high.strength(i, m));
                let p = rows.width[m];
                let e = pair.low_score - pair.fights * q;
                let w = pair.fights * q * (1.0 - q);
                terms[i * k + m] = [e, w, e * e];
                if want.hessian {
                    add_cross(&mut cross[m], p, w, rows.of(l, m), high.of(i, m));
                }
                if want.squares {
                    add_cross(&mut cross_squares[m], p, e * e, rows.of(l, m), high.of(i, m));
                }
            }
        }
        for (i, pair) in chunk.iter().enumerate() {
            let (l, h) = (pair.low as usize, pair.high as usize);
            for (m, want) in wants.iter().enumerate() {
                let [e, w, squared] = terms[i * k + m];
                if want.residuals {
                    residual[l * k + m] += e;
                    residual[h * k + m] -= e;
                }
                if want.hessian {
                    own[l * k + m] += w;
                    own[h * k + m] += w;
                }
                if want.squares {
                    own_squares[l * k + m] += squared;
                    own_squares[h * k + m] += squared;
                }
            }
        }
    }
}

/// `sum_b own_b x_b x_b^T - (C + C^T) + ridge I`: a Hessian (or the
/// sandwich's pair term) from a pass's per-board weights `own` and cross
/// terms `C` (`p x p`, row-major).
fn assemble(rows: &FeatureRows, model: usize, p: usize, own: &[f64], cross: &[f64], ridge: f64) -> DMatrix<f64> {
    let mut out = DMatrix::<f64>::zeros(p, p);
    for (b, &w) in own.iter().enumerate() {
        let x = rows.of(b, model);
        for &(i, xi) in x {
            for &(j, xj) in x {
                out[(i as usize, j as usize)] += w * f64::from(xi) * f64::from(xj);
            }
        }
    }
    for i in 0..p {
        for j in 0..p {
            out[(i, j)] -= cross[i * p + j] + cross[j * p + i];
        }
        out[(i, i)] += ridge;
    }
    out
}

/// Each wanted model's `sum_b S_b S_b^T`, `S_b` being the sum of board
/// `b`'s pairs' scores `±e (x_b - x_other)`. `S_b` reaches every feature of
/// every opponent, so it is written densely for a block of boards at a
/// time, one column each, and the block's `S S^T` added by a matrix
/// product: a sparse outer product would cost about as much and run far
/// slower.
fn board_score_squares(
    rows: &FeatureRows,
    matchups: &dyn MatchupSource,
    strength: &[f64],
    wants: &[Want],
) -> Result<Vec<Option<DMatrix<f64>>>, Error> {
    use rayon::prelude::*;
    // Each block's boards in a fixed number of ranges, one per task, added
    // up in block and range order: the same bytes whatever the number of
    // cores.
    const RANGES: usize = 4;
    let mut out: Vec<Option<DMatrix<f64>>> = (0..rows.models)
        .map(|m| wants[m].squares.then(|| DMatrix::zeros(rows.width[m], rows.width[m])))
        .collect();
    matchups.each(&mut |block| {
        let boards = block.block.clone();
        let per = boards.len().div_ceil(RANGES).max(1);
        let parts: Vec<Vec<Option<DMatrix<f64>>>> = (0..RANGES)
            .into_par_iter()
            .map(|r| {
                let first = (boards.start + r * per).min(boards.end);
                let last = (boards.start + (r + 1) * per).min(boards.end);
                score_squares_over(rows, block, strength, wants, first..last)
            })
            .collect();
        for part in parts {
            for (total, part) in out.iter_mut().zip(part) {
                if let (Some(total), Some(part)) = (total.as_mut(), part) {
                    *total += part;
                }
            }
        }
    })?;
    Ok(out)
}

/// [`board_score_squares`] over the boards in `range`.
fn score_squares_over(
    rows: &FeatureRows,
    matchups: &Matchups,
    strength: &[f64],
    wants: &[Want],
    range: std::ops::Range<usize>,
) -> Vec<Option<DMatrix<f64>>> {
    const BLOCK: usize = 256;
    let k = rows.models;
    let mut out: Vec<Option<DMatrix<f64>>> = (0..k)
        .map(|m| wants[m].squares.then(|| DMatrix::zeros(rows.width[m], rows.width[m])))
        .collect();
    let mut blocks: Vec<DMatrix<f64>> = (0..k).map(|m| DMatrix::zeros(rows.width[m], BLOCK)).collect();
    let mut own = vec![0.0f64; k];
    let mut met: Vec<PairResult> = Vec::with_capacity(Gathered::BOARDS);
    let mut opponents = Gathered::new(k);
    for first in range.clone().step_by(BLOCK) {
        let width = BLOCK.min(range.end - first);
        for block in &mut blocks {
            block.fill(0.0);
        }
        for c in 0..width {
            let b = first + c;
            own.fill(0.0);
            for chunk in matchups.of(b).chunks(Gathered::BOARDS) {
                met.clear();
                met.extend(chunk.iter().map(|&i| matchups.pairs[i as usize]));
                let other = |pair: &PairResult| if pair.low as usize == b { pair.high } else { pair.low } as usize;
                opponents.gather(rows, strength, met.iter().map(other), true);
                for (i, pair) in met.iter().enumerate() {
                    let low = pair.low as usize == b;
                    for m in (0..k).filter(|&m| wants[m].squares) {
                        let (mine, theirs) = (strength[b * k + m], opponents.strength(i, m));
                        let q = sigmoid(if low { mine - theirs } else { theirs - mine });
                        // The residual from b's side.
                        let e = (pair.low_score - pair.fights * q) * if low { 1.0 } else { -1.0 };
                        own[m] += e;
                        for &(j, xj) in opponents.of(i, m) {
                            blocks[m][(j as usize, c)] -= e * f64::from(xj);
                        }
                    }
                }
            }
            for m in (0..k).filter(|&m| wants[m].squares) {
                for &(i, xi) in rows.of(b, m) {
                    blocks[m][(i as usize, c)] += own[m] * f64::from(xi);
                }
            }
        }
        for (block, out) in blocks.iter().zip(&mut out) {
            if let Some(out) = out {
                let part = block.columns(0, width);
                out.gemm(1.0, &part, &part.transpose(), 1.0);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
