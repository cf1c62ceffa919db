//! The report's statistics apart from any table format: normal tails, the
//! correction for testing many items at once (Benjamini–Hochberg), and the
//! match report's cluster-robust ratio, and a figure with its interval.
//! The fight report's two-way clustered rates are `dyadic.rs`.

use serde::Serialize;

/// A neutral band of win rates, as fractions: `0 <= low < high <= 1`. Made
/// only by [`Band::from_percent`], so a band held is a valid one and no
/// layer above the command line checks it again.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Band {
    low: f64,
    high: f64,
}

impl Band {
    /// The band from percentages within 0–100, LOW below HIGH.
    pub fn from_percent(low: f64, high: f64) -> Option<Band> {
        (0.0 <= low && low < high && high <= 100.0).then(|| Band {
            low: low / 100.0,
            high: high / 100.0,
        })
    }
    pub fn low(self) -> f64 {
        self.low
    }
    pub fn high(self) -> f64 {
        self.high
    }
}

/// One-sided p-value that the true rate is inside `[band_low, band_high]`
/// when the estimate is outside it, by the normal approximation with the
/// given standard error; 1 when the estimate is inside.
pub fn outside_band_p(rate: f64, se: f64, band_low: f64, band_high: f64) -> f64 {
    let distance = if rate > band_high {
        rate - band_high
    } else if rate < band_low {
        band_low - rate
    } else {
        return 1.0;
    };
    if se <= 0.0 {
        return 0.0;
    }
    upper_tail(distance / se)
}

/// Two-sided p-value of a difference `delta` with standard error `se`.
pub fn difference_p(delta: f64, se: f64) -> f64 {
    if se <= 0.0 {
        return if delta == 0.0 { 1.0 } else { 0.0 };
    }
    (2.0 * upper_tail(delta.abs() / se)).min(1.0)
}

/// P(Z > z) for a standard normal Z (Abramowitz and Stegun 7.1.26 for erfc,
/// absolute error under 1.5e-7: ample for flagging at 5%).
pub fn upper_tail(z: f64) -> f64 {
    if z < 0.0 {
        return 1.0 - upper_tail(-z);
    }
    let x = z / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    0.5 * poly * (-x * x).exp()
}

/// The z with P(Z > z) = `p`, for `p` in (0, 0.5]: bisection on
/// [`upper_tail`], and beyond z = 4, where its absolute error is the size of
/// the tail itself, on the Mills-ratio series `φ(z)/z · (1 − 1/z² + 3/z⁴ −
/// 15/z⁶)`, whose relative error there is below 1%.
pub fn normal_quantile_upper(p: f64) -> f64 {
    let tail = |z: f64| {
        if z < 4.0 {
            upper_tail(z)
        } else {
            let (z2, phi) = (z * z, (-z * z / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt());
            phi / z * (1.0 - 1.0 / z2 + 3.0 / (z2 * z2) - 15.0 / (z2 * z2 * z2))
        }
    };
    let (mut lo, mut hi) = (0.0, 40.0);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if tail(mid) > p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Benjamini–Hochberg at false discovery rate `q`: which of the p-values
/// are discoveries. With m tests, the largest k with p_(k) <= k q / m and
/// every p-value up to it are.
pub fn benjamini_hochberg(p_values: &[f64], q: f64) -> Vec<bool> {
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]));
    let cutoff = order
        .iter()
        .enumerate()
        .filter(|&(k, &i)| p_values[i] <= (k + 1) as f64 * q / m as f64)
        .map(|(k, _)| k + 1)
        .max()
        .unwrap_or(0);
    let mut out = vec![false; m];
    for &i in &order[..cutoff] {
        out[i] = true;
    }
    out
}

/// Benjamini–Yekutieli at false discovery rate `q`: Benjamini–Hochberg at
/// `q / (1 + 1/2 + … + 1/m)`, which holds under any dependence between the
/// tests. Changes between two runs need it: every fight has a winner, so
/// one row's gain is other rows' loss and their tests are negatively
/// dependent, where Benjamini–Hochberg's guarantee does not hold (an A/A
/// pair of runs flagged 6.75% of the time with it at 5%,
/// `tests/inference.rs`).
pub fn benjamini_yekutieli(p_values: &[f64], q: f64) -> Vec<bool> {
    let harmonic: f64 = (1..=p_values.len()).map(|i| 1.0 / i as f64).sum();
    benjamini_hochberg(p_values, q / harmonic.max(1.0))
}

/// The sums behind a ratio `Σy / Σn` over independent clusters, and its
/// cluster-robust standard error: the match report's estimator.
///
/// Why clusters: the players of one match share its team result (200.2d)
/// and every purchase of one match is made by the same bots on the same
/// board, so the rows of a match are not independent; matches are (a match
/// depends only on the suite, its index and the fixed ghost pool). The
/// variance is the usual one for a ratio estimator over clusters,
/// `k/(k-1) · Σ(y_i − r·n_i)² / (Σn)²` with `k` the clusters that hold the
/// item, kept as running sums so memory does not grow with the run.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct ClusterSums {
    pub clusters: u64,
    pub y: f64,
    pub n: f64,
    yy: f64,
    yn: f64,
    nn: f64,
}

/// 97.5% quantile of the standard normal: 95% two-sided intervals.
const Z95: f64 = 1.959_964;

impl ClusterSums {
    /// Adds one cluster (one match) with `n` units (rows, offers,
    /// purchases) whose measure sums to `y`; an empty cluster adds nothing.
    pub fn add(&mut self, y: f64, n: f64) {
        if n == 0.0 {
            return;
        }
        self.clusters += 1;
        self.y += y;
        self.n += n;
        self.yy += y * y;
        self.yn += y * n;
        self.nn += n * n;
    }

    /// Adds `k` clusters of one unit each, whose measures sum to `y` and
    /// their squares to `yy`: `k` games tallied together, each its own
    /// cluster.
    pub fn add_units(&mut self, k: u64, y: f64, yy: f64) {
        if k == 0 {
            return;
        }
        let k_f = k as f64;
        self.clusters += k;
        self.y += y;
        self.n += k_f;
        self.yy += yy;
        self.yn += y;
        self.nn += k_f;
    }

    pub fn ratio(&self) -> f64 {
        if self.n > 0.0 { self.y / self.n } else { f64::NAN }
    }

    /// Cluster-robust standard error of [`ratio`](Self::ratio); NaN below
    /// two clusters.
    pub fn se(&self) -> f64 {
        if self.clusters < 2 {
            return f64::NAN;
        }
        let r = self.ratio();
        let k = self.clusters as f64;
        let ss = (self.yy - 2.0 * r * self.yn + r * r * self.nn).max(0.0);
        (k / (k - 1.0) * ss).sqrt() / self.n
    }

    /// A 95% interval for a proportion: Wilson's score interval on the
    /// effective sample size `r(1−r)/se²` (the clusters' worth of
    /// information; the clusters themselves when every cluster agrees).
    pub fn proportion_interval(&self) -> (f64, f64) {
        let p = self.ratio();
        if !p.is_finite() {
            return (f64::NAN, f64::NAN);
        }
        let se = self.se();
        let var = se * se;
        let n_eff = if var > 0.0 {
            (p * (1.0 - p) / var).min(self.n)
        } else {
            self.clusters as f64
        }
        .max(1.0);
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n_eff)) / (1.0 + z2 / n_eff);
        let half = Z95 * (p * (1.0 - p) / n_eff + z2 / (4.0 * n_eff * n_eff)).sqrt() / (1.0 + z2 / n_eff);
        // Wilson's bounds are exactly 0 at p = 0 and 1 at p = 1; say so rather
        // than leave it to rounding, which differs between machines.
        let low = if p <= 0.0 { 0.0 } else { (centre - half).max(0.0) };
        let high = if p >= 1.0 { 1.0 } else { (centre + half).min(1.0) };
        (low, high)
    }

    /// A 95% interval for a mean: the ratio ± 1.96 standard errors.
    pub fn mean_interval(&self) -> (f64, f64) {
        let (r, se) = (self.ratio(), self.se());
        (r - Z95 * se, r + Z95 * se)
    }
}

/// A figure with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Figure {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Figure {
    pub fn proportion(c: &ClusterSums) -> Option<Figure> {
        let (low, high) = c.proportion_interval();
        (c.n > 0.0).then(|| Figure {
            value: c.ratio(),
            low,
            high,
        })
    }

    /// A mean and its interval; none from fewer than two clusters, which
    /// cannot say how far the mean would move.
    pub fn mean(c: &ClusterSums) -> Option<Figure> {
        let (low, high) = c.mean_interval();
        (c.n > 0.0 && c.clusters >= 2).then(|| Figure {
            value: c.ratio(),
            low,
            high,
        })
    }
}

#[cfg(test)]
mod tests {

    /// The band is checked once, where it is made: outside 0–100 or upside
    /// down it is refused, and a band held is in fractions.
    #[test]
    fn a_band_is_made_only_within_0_and_100_low_below_high() {
        let b = Band::from_percent(45.0, 55.0).expect("a valid band");
        assert_eq!((b.low(), b.high()), (0.45, 0.55));
        assert!(Band::from_percent(0.0, 100.0).is_some());
        for (low, high) in [(45.0, 155.0), (-1.0, 50.0), (55.0, 45.0), (50.0, 50.0)] {
            assert_eq!(Band::from_percent(low, high), None, "{low},{high}");
        }
    }

    use super::*;

    #[test]
    fn normal_tail_matches_known_values() {
        assert!((upper_tail(0.0) - 0.5).abs() < 1e-7);
        assert!((upper_tail(1.959_964) - 0.025).abs() < 1e-6);
        assert!((upper_tail(3.0) - 0.001_349_9).abs() < 1e-6);
        assert!((upper_tail(-1.0) - 0.841_344_7).abs() < 1e-6);
    }

    /// Known quantiles, the far tail included: 1e-7 is at 5.199 (tables).
    #[test]
    fn normal_quantiles_match_known_values() {
        assert!((normal_quantile_upper(0.025) - 1.959_964).abs() < 1e-4);
        assert!((normal_quantile_upper(0.001_349_9) - 3.0).abs() < 1e-3);
        assert!((normal_quantile_upper(1e-7) - 5.199).abs() < 0.01);
    }

    #[test]
    fn benjamini_hochberg_steps_up() {
        // m = 5, q = 0.05: thresholds 0.01 0.02 0.03 0.04 0.05. 0.035 is
        // above its own threshold (0.03) but below the 4th's (0.04) and
        // 0.039 is the 4th: the first four are discoveries.
        let p = [0.039, 0.001, 0.035, 0.2, 0.015];
        assert_eq!(benjamini_hochberg(&p, 0.05), vec![true, true, true, false, true]);
        assert_eq!(benjamini_hochberg(&[0.2, 0.3], 0.05), vec![false, false]);
    }

    #[test]
    fn benjamini_yekutieli_divides_the_rate_by_the_harmonic_sum() {
        // m = 3: 1 + 1/2 + 1/3 = 11/6, so q = 0.05 becomes 0.0273 and the
        // thresholds 0.0091, 0.0182, 0.0273.
        assert_eq!(benjamini_yekutieli(&[0.009, 0.02, 0.5], 0.05), vec![true, false, false]);
        assert_eq!(benjamini_hochberg(&[0.009, 0.02, 0.5], 0.05), vec![true, true, false]);
    }

    #[test]
    fn independent_single_row_clusters_count_as_their_number_less_one() {
        // A solo match is one row: k matches carry k−1 degrees of freedom.
        let mut c = ClusterSums::default();
        for i in 0..100 {
            c.add(f64::from(u8::from(i % 4 == 0)), 1.0);
        }
        let p: f64 = 0.25;
        let expected = (p * (1.0 - p) / 99.0).sqrt();
        assert!((c.se() - expected).abs() < 1e-12, "{} vs {expected}", c.se());
    }

    #[test]
    fn a_party_sharing_one_team_result_counts_once_per_match() {
        // 200.2d: the players of a party share the team result, so four
        // rows of one match carry no more information than one.
        let (mut solo, mut party) = (ClusterSums::default(), ClusterSums::default());
        for i in 0..60 {
            let won = f64::from(u8::from(i % 3 == 0));
            solo.add(won, 1.0);
            party.add(4.0 * won, 4.0);
        }
        assert!((solo.ratio() - party.ratio()).abs() < 1e-12);
        assert!((solo.se() - party.se()).abs() < 1e-12);
        let (a, b) = (solo.proportion_interval(), party.proportion_interval());
        assert!((a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9, "{a:?} {b:?}");
        assert!(a.0 < 1.0 / 3.0 && 1.0 / 3.0 < a.1);
    }

    #[test]
    fn unanimous_clusters_still_get_an_interval() {
        let mut c = ClusterSums::default();
        for _ in 0..10 {
            c.add(2.0, 2.0);
        }
        let (low, high) = c.proportion_interval();
        assert_eq!(high, 1.0);
        assert!(low > 0.6 && low < 0.8, "{low}");
    }
}
