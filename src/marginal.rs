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
//! The uncertainty counts boards, as the rates' intervals do: fights that
//! share a board are not independent, so the covariance is a sandwich
//! `H^-1 M H^-1` whose middle `M` sums the score products of every two
//! matchups that share a board (a dyadic cluster-robust estimate). With
//! `s_m` the score of matchup `m`, `S_b` the sum of the scores of the
//! matchups board `b` played, and `T_p` the sum over the (one or two)
//! matchups of an unordered pair of boards `p`:
//!
//! ```text
//! M = sum_b S_b S_b^T - sum_p T_p T_p^T
//! ```
//!
//! (two matchups sharing both boards are counted once, not twice).
//! `docs/report.md` gives the worked reading.

use nalgebra::{DMatrix, DVector};

/// A board's features: `(feature, value)` pairs, each feature at most once.
pub type BoardFeatures = Vec<(u32, f64)>;

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
    pub tolerance: f64,
}

impl Default for ModelSettings {
    fn default() -> Self {
        ModelSettings {
            ridge: 1.0,
            max_steps: 30,
            tolerance: 1e-9,
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

/// How much a shift of one side's logit changes its win chance, averaged
/// over the run's fights: `mean_m sigmoid(eta_m + delta) - sigmoid(eta_m)`,
/// with `eta_m` the model's logit of each fight from either side. This is
/// what turns a logit contrast into win-rate points against the field the
/// run actually played (an average marginal effect). The fights are kept
/// as at most [`EffectCurve::GROUPS`] groups of equal weight, each at its
/// mean logit, so a curve costs the same however many fights the run holds.
#[derive(Debug, Clone)]
pub struct EffectCurve {
    /// `(mean logit, weight)` of each group; weights sum to 1.
    groups: Vec<(f64, f64)>,
}

impl EffectCurve {
    pub const GROUPS: usize = 2000;

    pub fn new(fit: &Fit, boards: &[BoardFeatures], matchups: &[MatchupResult]) -> EffectCurve {
        let theta = DVector::from_column_slice(&fit.theta);
        let strength = strengths(boards, &theta);
        let mut logits: Vec<(f64, f64)> = Vec::with_capacity(2 * matchups.len());
        for m in matchups {
            let eta = strength[m.left as usize] - strength[m.right as usize];
            logits.push((eta, m.fights));
            logits.push((-eta, m.fights));
        }
        logits.sort_by(|a, b| a.0.total_cmp(&b.0));
        let total: f64 = logits.iter().map(|l| l.1).sum();
        let share = total / Self::GROUPS as f64;
        let mut groups = Vec::with_capacity(Self::GROUPS + 1);
        let (mut sum, mut weight) = (0.0, 0.0);
        for (eta, w) in logits {
            sum += eta * w;
            weight += w;
            if weight >= share {
                groups.push((sum / weight, weight / total));
                (sum, weight) = (0.0, 0.0);
            }
        }
        if weight > 0.0 {
            groups.push((sum / weight, weight / total));
        }
        EffectCurve { groups }
    }

    /// The average change in win chance for a logit shift of `delta`.
    pub fn at(&self, delta: f64) -> f64 {
        self.groups
            .iter()
            .map(|&(eta, w)| w * (sigmoid(eta + delta) - sigmoid(eta)))
            .sum()
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Fits `theta` over `features` features. `None` when the penalised Hessian
/// cannot be factored (only with a ridge of zero).
pub fn fit(
    features: usize,
    boards: &[BoardFeatures],
    matchups: &[MatchupResult],
    settings: ModelSettings,
) -> Option<Fit> {
    let p = features;
    let mut theta = DVector::<f64>::zeros(p);
    let mut converged = false;
    let mut hessian = DMatrix::<f64>::zeros(p, p);
    // The Hessian is the costly part of a step (a pass over every pair of
    // boards); the gradient is cheap. So the first two steps are Newton's,
    // and later ones reuse the last Hessian as long as the steps keep
    // shrinking fast (near the optimum it barely moves); the covariance
    // below takes a fresh one at the final coefficients.
    let mut factor = None;
    let (mut fresh, mut last_step) = (0u32, f64::INFINITY);
    let hessian_at = |theta: &DVector<f64>, hessian: &mut DMatrix<f64>| {
        let strength = strengths(boards, theta);
        let weights: Vec<(u32, u32, f64)> = matchups
            .iter()
            .map(|m| {
                let q = sigmoid(strength[m.left as usize] - strength[m.right as usize]);
                (m.left, m.right, m.fights * q * (1.0 - q))
            })
            .collect();
        hessian.fill(0.0);
        add_difference_squares(boards, &weights, 1.0, hessian);
        for i in 0..p {
            hessian[(i, i)] += settings.ridge;
        }
    };
    for _ in 0..settings.max_steps {
        let strength = strengths(boards, &theta);
        let mut residual = vec![0.0f64; boards.len()];
        for m in matchups {
            let (l, r) = (m.left as usize, m.right as usize);
            let e = m.left_score - m.fights * sigmoid(strength[l] - strength[r]);
            residual[l] += e;
            residual[r] -= e;
        }
        let mut gradient = -settings.ridge * &theta;
        for (b, x) in boards.iter().enumerate() {
            for &(i, xi) in x {
                gradient[i as usize] += residual[b] * xi;
            }
        }
        if factor.is_none() {
            hessian_at(&theta, &mut hessian);
            factor = Some(hessian.clone().cholesky()?);
            fresh += 1;
        }
        let step = factor.as_ref()?.solve(&gradient);
        theta += &step;
        let size = step.amax();
        if size < settings.tolerance {
            converged = true;
            break;
        }
        if fresh < 2 || size > 0.25 * last_step {
            factor = None;
        }
        last_step = size;
    }
    hessian_at(&theta, &mut hessian);
    let bread = hessian.cholesky()?.inverse();
    let meat = clustered_scores(p, boards, matchups, &strengths(boards, &theta));
    // A small-sample correction, as HC1 is to HC0: with `G` boards and `p`
    // coefficients the raw sandwich runs narrow by about G / (G - p), the
    // residuals having been fitted to the same boards.
    let g = boards.len() as f64;
    let correction = if g > p as f64 + 1.0 { g / (g - p as f64) } else { 1.0 };
    let covariance = (&bread * meat * &bread) * correction;
    Some(Fit {
        theta: theta.iter().copied().collect(),
        covariance,
        converged,
    })
}

/// Adds `sign * sum w (x_a - x_b)(x_a - x_b)^T` over `(a, b, w)` to `out`.
///
/// Done per board rather than per pair: the squares `w x_a x_a^T` add up
/// as one weight per board, and the cross terms `w x_a x_b^T` as one sparse
/// row per board `a` (the `w x_b` of every pair it leads, in a scratch row
/// that remembers what it touched), so a million pairs cost a million short
/// additions, not a million outer products, and memory holds one row.
fn add_difference_squares(boards: &[BoardFeatures], pairs: &[(u32, u32, f64)], sign: f64, out: &mut DMatrix<f64>) {
    let p = out.nrows();
    let mut own = vec![0.0f64; boards.len()];
    for &(a, b, w) in pairs {
        own[a as usize] += w;
        own[b as usize] += w;
    }
    for (b, x) in boards.iter().enumerate() {
        for &(i, xi) in x {
            for &(j, xj) in x {
                out[(i as usize, j as usize)] += sign * own[b] * xi * xj;
            }
        }
    }
    let led = Incidence::new(boards.len(), pairs.iter().map(|&(a, _, _)| [a, a]));
    let mut row = SparseRow::new(p);
    // One side of the cross terms, row-major; the other is its transpose.
    let mut cross = vec![0.0f64; p * p];
    for (a, x) in boards.iter().enumerate() {
        for &k in led.of(a) {
            let (_, b, w) = pairs[k as usize];
            for &(j, xj) in &boards[b as usize] {
                row.add(j as usize, w * xj);
            }
        }
        for &(i, xi) in x {
            let line = &mut cross[i as usize * p..(i as usize + 1) * p];
            for &j in &row.touched {
                line[j as usize] += xi * row.values[j as usize];
            }
        }
        row.clear();
    }
    for i in 0..p {
        for j in 0..p {
            out[(i, j)] -= sign * (cross[i * p + j] + cross[j * p + i]);
        }
    }
}

/// For each board, the indices of the items (pairs, matchups) that name
/// it, in compressed rows: an item naming a board twice is listed once.
struct Incidence {
    start: Vec<usize>,
    items: Vec<u32>,
}

impl Incidence {
    fn new(boards: usize, ends: impl Iterator<Item = [u32; 2]> + Clone) -> Incidence {
        let mut start = vec![0usize; boards + 1];
        for [a, b] in ends.clone() {
            start[a as usize + 1] += 1;
            if b != a {
                start[b as usize + 1] += 1;
            }
        }
        for i in 0..boards {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; start[boards]];
        for (k, [a, b]) in ends.enumerate() {
            items[fill[a as usize]] = k as u32;
            fill[a as usize] += 1;
            if b != a {
                items[fill[b as usize]] = k as u32;
                fill[b as usize] += 1;
            }
        }
        Incidence { start, items }
    }

    fn of(&self, b: usize) -> &[u32] {
        &self.items[self.start[b]..self.start[b + 1]]
    }
}

/// A dense row of `p` values that remembers which it touched, so clearing
/// and reading cost what was used.
struct SparseRow {
    values: Vec<f64>,
    seen: Vec<bool>,
    touched: Vec<u32>,
}

impl SparseRow {
    fn new(p: usize) -> SparseRow {
        SparseRow {
            values: vec![0.0; p],
            seen: vec![false; p],
            touched: Vec::new(),
        }
    }

    fn add(&mut self, j: usize, v: f64) {
        if !self.seen[j] {
            self.seen[j] = true;
            self.touched.push(j as u32);
        }
        self.values[j] += v;
    }

    fn clear(&mut self) {
        for &j in &self.touched {
            self.values[j as usize] = 0.0;
            self.seen[j as usize] = false;
        }
        self.touched.clear();
    }
}

/// The directions of the coefficients the boards cannot tell apart: each
/// returned vector `w` (over the `features` features) has `w . x_b` the same
/// for every board `b`, so the model, which reads only differences of two
/// boards, cannot see `theta` move along `w`. A feature on every board (or
/// none), two features that always travel together (`w` = one minus the
/// other), a set that sums to the same on every board (a resonance on each
/// board: `w` = all ones) are such directions.
///
/// Found as the null space of the boards' centred feature matrix: the
/// eigenvectors of its (scaled) Gram matrix with eigenvalue zero, up to
/// rounding. A contrast `c . theta` is identified exactly when `c` is
/// orthogonal to every one of them ([`identified`]).
pub fn aliased_directions(features: usize, boards: &[BoardFeatures]) -> Vec<Vec<f64>> {
    let p = features;
    if p == 0 || boards.is_empty() {
        return Vec::new();
    }
    let g = boards.len() as f64;
    let mut mean = vec![0.0f64; p];
    let mut gram = DMatrix::<f64>::zeros(p, p);
    for x in boards {
        for &(i, xi) in x {
            mean[i as usize] += xi / g;
            for &(j, xj) in x {
                gram[(i as usize, j as usize)] += xi * xj;
            }
        }
    }
    for i in 0..p {
        for j in 0..p {
            gram[(i, j)] -= g * mean[i] * mean[j];
        }
    }
    let mut out = Vec::new();
    // A feature that never varies is a direction of its own; the rest are
    // scaled to unit variance so features of any size weigh alike.
    let scale: Vec<f64> = (0..p).map(|i| gram[(i, i)].max(0.0).sqrt()).collect();
    let varying: Vec<usize> = (0..p).filter(|&i| scale[i] > 1e-9 * g.sqrt()).collect();
    for i in (0..p).filter(|i| !varying.contains(i)) {
        let mut w = vec![0.0; p];
        w[i] = 1.0;
        out.push(w);
    }
    let q = varying.len();
    if q == 0 {
        return out;
    }
    let scaled = DMatrix::<f64>::from_fn(q, q, |a, b| {
        let (i, j) = (varying[a], varying[b]);
        gram[(i, j)] / (scale[i] * scale[j])
    });
    let eigen = scaled.symmetric_eigen();
    for (k, &value) in eigen.eigenvalues.iter().enumerate() {
        if value.abs() > 1e-9 * q as f64 {
            continue;
        }
        let u = eigen.eigenvectors.column(k);
        let mut w = vec![0.0; p];
        for (a, &i) in varying.iter().enumerate() {
            w[i] = u[a] / scale[i];
        }
        let norm = w.iter().map(|v| v * v).sum::<f64>().sqrt();
        if norm > 0.0 {
            // Loadings below rounding are zero: a feature outside the set.
            out.push(
                w.iter()
                    .map(|v| if v.abs() / norm < 1e-7 { 0.0 } else { v / norm })
                    .collect(),
            );
        }
    }
    orthonormal(out)
}

/// Gram–Schmidt: an orthonormal basis of the span of `vectors`, so that a
/// projection onto it is a sum of dot products.
fn orthonormal(vectors: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let mut basis: Vec<Vec<f64>> = Vec::new();
    for mut v in vectors {
        for b in &basis {
            let dot: f64 = v.iter().zip(b).map(|(x, y)| x * y).sum();
            for (x, y) in v.iter_mut().zip(b) {
                *x -= dot * y;
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm > 1e-9 {
            basis.push(v.into_iter().map(|x| x / norm).collect());
        }
    }
    basis
}

/// The features a contrast with `weights` cannot be told apart from: where
/// its projection onto the aliased directions (an orthonormal basis, as
/// [`aliased_directions`] gives) is not zero.
pub fn confused_with(weights: &[(u32, f64)], aliased: &[Vec<f64>]) -> Vec<usize> {
    let Some(p) = aliased.first().map(Vec::len) else {
        return Vec::new();
    };
    let mut projection = vec![0.0f64; p];
    for w in aliased {
        let dot: f64 = weights.iter().map(|&(i, c)| c * w[i as usize]).sum();
        for (x, y) in projection.iter_mut().zip(w) {
            *x += dot * y;
        }
    }
    let largest = projection.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    (0..p)
        .filter(|&i| largest > 1e-9 && projection[i].abs() > 1e-6 * largest)
        .collect()
}

/// Whether the contrast with `weights` is identified: orthogonal to every
/// direction of [`aliased_directions`].
pub fn identified(weights: &[(u32, f64)], aliased: &[Vec<f64>]) -> bool {
    let norm = weights.iter().map(|w| w.1 * w.1).sum::<f64>().sqrt();
    aliased.iter().all(|w| {
        let dot: f64 = weights.iter().map(|&(i, c)| c * w[i as usize]).sum();
        dot.abs() <= 1e-6 * norm.max(1e-12)
    })
}

/// Each board's `theta . x`.
fn strengths(boards: &[BoardFeatures], theta: &DVector<f64>) -> Vec<f64> {
    boards
        .iter()
        .map(|x| x.iter().map(|&(i, v)| theta[i as usize] * v).sum())
        .collect()
}

/// The middle of the sandwich: `sum_b S_b S_b^T - sum_p T_p T_p^T`.
fn clustered_scores(p: usize, boards: &[BoardFeatures], matchups: &[MatchupResult], strength: &[f64]) -> DMatrix<f64> {
    // A matchup's score is `e (x_l - x_r)`; S_b adds up the scores of the
    // matchups board b played, one board at a time in a sparse row.
    let residual: Vec<f64> = matchups
        .iter()
        .map(|m| m.left_score - m.fights * sigmoid(strength[m.left as usize] - strength[m.right as usize]))
        .collect();
    let played = Incidence::new(boards.len(), matchups.iter().map(|m| [m.left, m.right]));
    let mut meat = DMatrix::<f64>::zeros(p, p);
    let mut square = vec![0.0f64; p * p];
    let mut row = SparseRow::new(p);
    for b in 0..boards.len() {
        for &k in played.of(b) {
            let (m, e) = (&matchups[k as usize], residual[k as usize]);
            if m.left == m.right {
                // x_l − x_r = 0: a board meeting itself scores nothing.
                continue;
            }
            for (board, sign) in [(m.left, e), (m.right, -e)] {
                for &(i, xi) in &boards[board as usize] {
                    row.add(i as usize, sign * xi);
                }
            }
        }
        for &i in &row.touched {
            let si = row.values[i as usize];
            let line = &mut square[i as usize * p..(i as usize + 1) * p];
            for &j in &row.touched {
                line[j as usize] += si * row.values[j as usize];
            }
        }
        row.clear();
    }
    for i in 0..p {
        for j in 0..p {
            meat[(i, j)] += square[i * p + j];
        }
    }
    // T_p: the residuals of an unordered pair's matchups, seen from its
    // lower-numbered board so that both orders meet.
    let mut by_pair: Vec<(u32, u32, f64)> = matchups
        .iter()
        .zip(&residual)
        .map(|(m, &e)| {
            if m.left <= m.right {
                (m.left, m.right, e)
            } else {
                (m.right, m.left, -e)
            }
        })
        .collect();
    // T_p T_p^T = e_p^2 (x_a - x_b)(x_a - x_b)^T, summed as the Hessian is.
    by_pair.sort_by_key(|&(a, b, _)| (a, b));
    let squares: Vec<(u32, u32, f64)> = by_pair
        .chunk_by(|x, y| (x.0, x.1) == (y.0, y.1))
        .map(|g| (g[0].0, g[0].1, g.iter().map(|x| x.2).sum::<f64>().powi(2)))
        .collect();
    add_difference_squares(boards, &squares, -1.0, &mut meat);
    meat
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_a_planted_coefficient_from_exact_rates() {
        // Two features; boards hold one of each or both. Fights are
        // tallied at their exact expected score, so the fit (with a
        // negligible ridge) returns the planted coefficients.
        let planted = [0.8, -0.3];
        let boards: Vec<BoardFeatures> = vec![vec![(0, 1.0)], vec![(1, 1.0)], vec![(0, 1.0), (1, 1.0)], vec![]];
        let strength = |b: &BoardFeatures| b.iter().map(|&(i, v)| planted[i as usize] * v).sum::<f64>();
        let mut matchups = Vec::new();
        for l in 0..boards.len() {
            for r in 0..boards.len() {
                if l != r {
                    let q = sigmoid(strength(&boards[l]) - strength(&boards[r]));
                    matchups.push(MatchupResult {
                        left: l as u32,
                        right: r as u32,
                        fights: 1e6,
                        left_score: 1e6 * q,
                    });
                }
            }
        }
        let settings = ModelSettings {
            ridge: 1e-6,
            ..ModelSettings::default()
        };
        let f = fit(2, &boards, &matchups, settings).expect("fit");
        assert!(f.converged);
        for (got, want) in f.theta.iter().zip(planted) {
            assert!((got - want).abs() < 1e-6, "{got} against {want}");
        }
        let (diff, se) = f.contrast(&[(0, 1.0), (1, -1.0)]);
        assert!((diff - 1.1).abs() < 1e-6 && se.is_finite(), "{diff} ± {se}");
    }

    #[test]
    fn a_feature_no_board_holds_stays_at_zero() {
        let boards: Vec<BoardFeatures> = vec![vec![(0, 1.0)], vec![]];
        let matchups = [MatchupResult {
            left: 0,
            right: 1,
            fights: 100.0,
            left_score: 70.0,
        }];
        let f = fit(2, &boards, &matchups, ModelSettings::default()).expect("fit");
        assert_eq!(f.theta[1], 0.0);
        assert!(f.theta[0] > 0.0);
    }
}
