//! Every lever's effect on every row's win rate from one perturbation run
//! (`gridsim tune`, docs/tune.md), with two-way (dyadic) standard errors.
//!
//! A lever is one number of the catalog (a card's Power at tier 2, say).
//! In the perturbation run every fight is fought twice on its own stream:
//! once with each side's levers moved by `+s·h` and once by `−s·h`, where
//! `h` is the lever's step and `s = ±1` a sign drawn for that fight, side
//! and lever alone ([`sign`]). Each side's outcome difference `d = won(+) −
//! won(−)` then carries, to first order, `2h` times the derivative of the
//! side's result along every sign: multiplying by one lever's sign and
//! dividing by `2h` leaves that lever's derivative, since every other sign
//! is independent of it with mean zero (simultaneous perturbation). A
//! global change of the lever moves it on both boards of a fight, so a
//! row's effect sums the holder's own sign and the opponent's:
//!
//! ```text
//! x(f, L) = d · (s_own(L) + s_opp(L)) / (2 h_L)      effect(row, L) = mean of x over the row's fights
//! ```
//!
//! where `s` is 0 on a board without the lever. The even-order terms of
//! the outcome's expansion cancel between `+` and `−`, so the bias is of
//! order `h²` against the curvature, and the board and fight stream cancel
//! too, which is why `d` is far quieter than one outcome.
//!
//! A row's fights are those of its holders against boards without it (the
//! report's "apart" rate, the one the band speaks of). Fights sharing a
//! board are not independent evidence, so the standard error is dyadic, as
//! in `dyadic.rs`: `V = Σ_boards S_b² − Σ_pairs T_p²` over the centred
//! sums of `x`, each fight in the cluster of both its boards, with the
//! small-sample factor `H/(H−1)` over the `H` holders.

use rayon::prelude::*;

/// One fight of a perturbation run: its boards, and each side's outcome
/// with the levers moved up less its outcome with them moved down (1, 0
/// or −1: a win counts 1, a draw or a loss 0, as in the report).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerturbedFight {
    pub left: u32,
    pub right: u32,
    pub left_diff: i8,
    pub right_diff: i8,
}

/// The sign lever `lever` of side `side` (0 left, 1 right) takes in fight
/// `fight` of the run seeded `seed`: +1 or −1 with equal chance,
/// independent across fights, sides and levers. A counter-based hash
/// (SplitMix64's finaliser over the four numbers), so the estimator reads
/// any sign directly instead of keeping them.
pub fn sign(seed: u64, fight: u64, side: usize, lever: u32) -> f64 {
    let mut z = seed
        ^ fight.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (u64::from(lever) << 1 | side as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    if z & 1 == 0 { 1.0 } else { -1.0 }
}

/// What the estimator reads.
pub struct Design<'a> {
    pub seed: u64,
    /// Each lever's step `h`, in the lever's own units.
    pub steps: &'a [f64],
    /// Each board's levers, sorted and distinct.
    pub board_levers: &'a [Vec<u32>],
    /// Each board's rows (the rows being estimated), sorted and distinct.
    pub board_rows: &'a [Vec<u32>],
    pub rows: usize,
    pub fights: &'a [PerturbedFight],
}

/// Every row's effects: row-major, `levers` per row.
#[derive(Debug, Clone, PartialEq)]
pub struct Effects {
    pub levers: usize,
    /// Per row: the change in its win rate (as a fraction) per unit of
    /// each lever, and the standard error of that change.
    pub effect: Vec<f64>,
    pub se: Vec<f64>,
    /// Per row and lever: the share of the row's fights in which the
    /// holder's own board carries the lever (1 for a card's own ladder in
    /// its card-and-tier row), the prior a proposal reads an effect under.
    pub exposure: Vec<f32>,
    /// Per row: the fights behind it and the holders that fought.
    pub fights: Vec<u64>,
    pub holders: Vec<u64>,
}

impl Effects {
    pub fn at(&self, row: usize, lever: usize) -> (f64, f64) {
        let k = row * self.levers + lever;
        (self.effect[k], self.se[k])
    }

    pub fn exposure(&self, row: usize, lever: usize) -> f64 {
        f64::from(self.exposure[row * self.levers + lever])
    }
}

/// One side of one fight in a row's sample: the fight's index and the
/// holder's side.
#[derive(Clone, Copy)]
struct Obs {
    fight: u32,
    side: u8,
}

/// Estimates every row's effects (see the module's comment). Runs in
/// parallel over rows on the pool it is called in.
pub fn estimate(d: &Design) -> Effects {
    let levers = d.steps.len();
    // Each row's sample: its holders' sides against boards without it.
    let mut samples: Vec<Vec<Obs>> = vec![Vec::new(); d.rows];
    for (f, fight) in d.fights.iter().enumerate() {
        let boards = [fight.left as usize, fight.right as usize];
        for side in 0..2 {
            let (own, opp) = (&d.board_rows[boards[side]], &d.board_rows[boards[1 - side]]);
            for &r in own {
                if opp.binary_search(&r).is_err() {
                    samples[r as usize].push(Obs {
                        fight: f as u32,
                        side: side as u8,
                    });
                }
            }
        }
    }
    let per_row: Vec<RowEffects> = samples.par_iter().map(|obs| row_effects(d, obs, levers)).collect();
    let mut out = Effects {
        levers,
        effect: Vec::with_capacity(d.rows * levers),
        se: Vec::with_capacity(d.rows * levers),
        exposure: Vec::with_capacity(d.rows * levers),
        fights: Vec::with_capacity(d.rows),
        holders: Vec::with_capacity(d.rows),
    };
    for r in per_row {
        out.effect.extend(r.effect);
        out.se.extend(r.se);
        out.exposure.extend(r.exposure);
        out.fights.push(r.fights);
        out.holders.push(r.holders);
    }
    out
}

struct RowEffects {
    effect: Vec<f64>,
    se: Vec<f64>,
    exposure: Vec<f32>,
    fights: u64,
    holders: u64,
}

/// Per-lever sums of one cluster, with the levers it touched.
struct Cluster {
    sum: Vec<f64>,
    touched: Vec<u32>,
    n: f64,
}

impl Cluster {
    fn new(levers: usize) -> Cluster {
        Cluster {
            sum: vec![0.0; levers],
            touched: Vec::new(),
            n: 0.0,
        }
    }

    fn add(&mut self, lever: u32, x: f64) {
        let s = &mut self.sum[lever as usize];
        if *s == 0.0 {
            self.touched.push(lever);
        }
        *s += x;
    }

    /// Adds this cluster's `X², X·n` per lever and `n²` into the totals
    /// (with `sign` −1 for a pair's, which the boards' count twice), and
    /// empties it.
    fn close(&mut self, sign: f64, xx: &mut [f64], xn: &mut [f64], nn: &mut f64) {
        self.touched.sort_unstable();
        self.touched.dedup();
        for &l in &self.touched {
            let x = self.sum[l as usize];
            xx[l as usize] += sign * x * x;
            xn[l as usize] += sign * x * self.n;
            self.sum[l as usize] = 0.0;
        }
        *nn += sign * self.n * self.n;
        self.touched.clear();
        self.n = 0.0;
    }
}

/// Which cluster a sample side falls in, from its holder's and its
/// opponent's boards.
type ClusterKey = fn(u32, u32) -> u64;

fn row_effects(d: &Design, obs: &[Obs], levers: usize) -> RowEffects {
    let n = obs.len() as f64;
    let boards = |o: &Obs| {
        let f = &d.fights[o.fight as usize];
        if o.side == 0 {
            (f.left, f.right, f.left_diff)
        } else {
            (f.right, f.left, f.right_diff)
        }
    };
    // Each sample side's contributions `x(f, L)`, for every lever of
    // either board, handed to `visit`.
    let each = |o: &Obs, visit: &mut dyn FnMut(u32, f64)| {
        let (own, opp, diff) = boards(o);
        if diff == 0 {
            return;
        }
        let fight = u64::from(o.fight);
        let side = usize::from(o.side);
        for (board, s) in [(own, side), (opp, 1 - side)] {
            for &l in &d.board_levers[board as usize] {
                let x = f64::from(diff) * sign(d.seed, fight, s, l) / (2.0 * d.steps[l as usize]);
                visit(l, x);
            }
        }
    };
    let mut total = vec![0.0; levers];
    let mut carried = vec![0u32; levers];
    for o in obs {
        each(o, &mut |l, x| total[l as usize] += x);
        for &l in &d.board_levers[boards(o).0 as usize] {
            carried[l as usize] += 1;
        }
    }
    let exposure = carried
        .iter()
        .map(|&c| if n > 0.0 { (f64::from(c) / n) as f32 } else { 0.0 })
        .collect();
    let effect: Vec<f64> = total.iter().map(|t| if n > 0.0 { t / n } else { 0.0 }).collect();
    // The dyadic sums: by holder, by opponent, and (subtracted) by pair.
    let (mut xx, mut xn, mut nn) = (vec![0.0; levers], vec![0.0; levers], 0.0);
    let mut cluster = Cluster::new(levers);
    let mut order: Vec<(u64, u32)> = Vec::with_capacity(obs.len());
    let keys: [(f64, ClusterKey); 3] = [
        (1.0, |own, _| u64::from(own)),
        (1.0, |_, opp| u64::from(opp)),
        (-1.0, |own, opp| u64::from(own.min(opp)) << 32 | u64::from(own.max(opp))),
    ];
    let mut holders = 0u64;
    for (k, (sign_of, key)) in keys.iter().enumerate() {
        order.clear();
        order.extend(obs.iter().enumerate().map(|(i, o)| {
            let (own, opp, _) = boards(o);
            (key(own, opp), i as u32)
        }));
        order.sort_unstable();
        let mut at = 0;
        while at < order.len() {
            let group = order[at].0;
            let mut end = at;
            while end < order.len() && order[end].0 == group {
                let o = &obs[order[end].1 as usize];
                each(o, &mut |l, x| cluster.add(l, x));
                cluster.n += 1.0;
                end += 1;
            }
            cluster.close(*sign_of, &mut xx, &mut xn, &mut nn);
            if k == 0 {
                holders += 1;
            }
            at = end;
        }
    }
    let h = holders as f64;
    let se = effect
        .iter()
        .enumerate()
        .map(|(l, &g)| {
            if holders < 2 || n == 0.0 {
                return f64::NAN;
            }
            let v = (xx[l] - 2.0 * g * xn[l] + g * g * nn).max(0.0);
            (h / (h - 1.0) * v).sqrt() / n
        })
        .collect();
    RowEffects {
        effect,
        se,
        exposure,
        fights: obs.len() as u64,
        holders,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A design with one lever whose every unit of change adds exactly
    /// `slope` to the holder's chance: the estimate recovers it within its
    /// interval, and a lever with no effect reads as zero within its.
    #[test]
    fn a_known_slope_is_recovered_and_a_dead_lever_reads_zero() {
        let boards = 400u32;
        let board_levers: Vec<Vec<u32>> = (0..boards)
            .map(|b| if b.is_multiple_of(2) { vec![0, 1] } else { vec![1] })
            .collect();
        let board_rows: Vec<Vec<u32>> = (0..boards)
            .map(|b| if b.is_multiple_of(2) { vec![0] } else { vec![] })
            .collect();
        let (seed, h, slope) = (11u64, 2.0, 0.05);
        let mut fights = Vec::new();
        let mut state = 1u64;
        let mut uniform = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for f in 0..40_000u64 {
            let left = (f % u64::from(boards)) as u32;
            let right = ((f * 7 + 3) % u64::from(boards)) as u32;
            if left == right {
                continue;
            }
            let index = fights.len() as u64;
            // The holder's lever 0 moves its chance by slope per unit; the
            // opponent's by -slope. Lever 1 does nothing.
            let shift = |board: u32, side: usize| {
                if board.is_multiple_of(2) {
                    sign(seed, index, side, 0) * h * slope
                } else {
                    0.0
                }
            };
            let p_plus = 0.5 + shift(left, 0) - shift(right, 1);
            let p_minus = 0.5 - shift(left, 0) + shift(right, 1);
            let u = uniform();
            let (lp, lm) = (u < p_plus, u < p_minus);
            fights.push(PerturbedFight {
                left,
                right,
                left_diff: i8::from(lp) - i8::from(lm),
                right_diff: i8::from(!lp) - i8::from(!lm),
            });
        }
        let e = estimate(&Design {
            seed,
            steps: &[h, h],
            board_levers: &board_levers,
            board_rows: &board_rows,
            rows: 1,
            fights: &fights,
        });
        let (g, se) = e.at(0, 0);
        assert!(se > 0.0 && se < 0.01, "se {se}");
        assert!((g - slope).abs() < 3.0 * se, "effect {g} ± {se}, expected {slope}");
        let (g1, se1) = e.at(0, 1);
        assert!(g1.abs() < 3.0 * se1, "a dead lever reads {g1} ± {se1}");
        assert_eq!(e.holders[0], u64::from(boards / 2));
    }

    #[test]
    fn signs_are_balanced_and_independent_of_each_other() {
        let n = 20_000u64;
        let mean: f64 = (0..n).map(|f| sign(3, f, 0, 5)).sum::<f64>() / n as f64;
        let cross: f64 = (0..n).map(|f| sign(3, f, 0, 5) * sign(3, f, 1, 5)).sum::<f64>() / n as f64;
        let other: f64 = (0..n).map(|f| sign(3, f, 0, 5) * sign(3, f, 0, 6)).sum::<f64>() / n as f64;
        for (what, v) in [("mean", mean), ("sides", cross), ("levers", other)] {
            assert!(v.abs() < 4.0 / (n as f64).sqrt(), "{what}: {v}");
        }
    }
}
