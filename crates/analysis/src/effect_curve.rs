//! The curve that turns a logit contrast of the marginal-effect model
//! (`marginal.rs`) into win-rate points against the field a run played.

/// How much a shift of one side's logit changes its win chance, averaged
/// over the run's fights: `mean_m sigmoid(eta_m + delta) - sigmoid(eta_m)`,
/// with `eta_m` the model's logit of each fight from either side. This is
/// what turns a logit contrast into win-rate points against the field the
/// run actually played (an average marginal effect). The fights are kept
/// as at most [`EffectCurve::GROUPS`] groups of about equal weight, each at
/// its mean logit, so a curve costs the same however many fights the run
/// holds; the groups are gathered from [`LogitHistogram::BINS`] bins of
/// equal width, in one pass over the pairs.
#[derive(Debug, Clone)]
pub struct EffectCurve {
    /// `(mean logit, weight)` of each group; weights sum to 1.
    groups: Vec<(f64, f64)>,
}

/// The fights' logits, from either side, in bins of equal width over
/// `[-reach, reach]`: each bin's weight and weighted sum of logits.
pub(crate) struct LogitHistogram {
    reach: f64,
    weight: Vec<f64>,
    sum: Vec<f64>,
}

impl LogitHistogram {
    const BINS: usize = 1 << 14;

    /// Logits within `reach` of 0 (the widest gap between two boards'
    /// strengths).
    pub(crate) fn new(reach: f64) -> LogitHistogram {
        LogitHistogram {
            reach: if reach > 0.0 && reach.is_finite() { reach } else { 1.0 },
            weight: vec![0.0; Self::BINS],
            sum: vec![0.0; Self::BINS],
        }
    }

    pub(crate) fn add(&mut self, eta: f64, weight: f64) {
        let at = ((eta + self.reach) / (2.0 * self.reach) * Self::BINS as f64).floor();
        let at = if at.is_nan() {
            0
        } else {
            (at.max(0.0) as usize).min(Self::BINS - 1)
        };
        self.weight[at] += weight;
        self.sum[at] += weight * eta;
    }

    pub(crate) fn curve(&self) -> EffectCurve {
        let total: f64 = self.weight.iter().sum();
        let share = total / EffectCurve::GROUPS as f64;
        let mut groups = Vec::with_capacity(EffectCurve::GROUPS + 1);
        let (mut sum, mut weight) = (0.0, 0.0);
        for (&w, &s) in self.weight.iter().zip(&self.sum) {
            sum += s;
            weight += w;
            if weight > 0.0 && weight >= share {
                groups.push((sum / weight, weight / total));
                (sum, weight) = (0.0, 0.0);
            }
        }
        if weight > 0.0 {
            groups.push((sum / weight, weight / total));
        }
        EffectCurve { groups }
    }
}

impl EffectCurve {
    pub const GROUPS: usize = 2000;

    /// The average change in win chance for a logit shift of `delta`.
    pub fn at(&self, delta: f64) -> f64 {
        self.groups
            .iter()
            .map(|&(eta, w)| w * (sigmoid(eta + delta) - sigmoid(eta)))
            .sum()
    }
}

/// The logistic function: a logit's win chance.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}
