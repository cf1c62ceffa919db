//! Which contrasts of a marginal-effect model the boards can identify.
//!
//! The model (`marginal.rs`) reads only differences of two boards'
//! features, so a direction of its coefficients along which every board
//! scores the same is invisible to it: the ridge would share such credit
//! out evenly and print it as precise. These directions are found from the
//! boards alone, before any fit, and a contrast with a part along them is
//! reported as not separable (`docs/report.md`).

use crate::marginal::BoardFeatures;
use nalgebra::DMatrix;

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
            let xi = f64::from(xi);
            mean[i as usize] += xi / g;
            for &(j, xj) in x {
                gram[(i as usize, j as usize)] += xi * f64::from(xj);
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
