//! The marginal-effect model's unit tests.

use super::*;

/// Matchups from `(left, right, fights, left's score)`.
fn results_of(raw: &[(u32, u32, f64, f64)]) -> Vec<MatchupResult> {
    raw.iter()
        .map(|&(left, right, fights, left_score)| MatchupResult {
            left,
            right,
            fights,
            left_score,
        })
        .collect()
}

#[test]
fn recovers_a_planted_coefficient_from_exact_rates() {
    // Two features; boards hold one of each or both. Fights are
    // tallied at their exact expected score, so the fit (with a
    // negligible ridge) returns the planted coefficients.
    let planted = [0.8, -0.3];
    let boards: Vec<BoardFeatures> = vec![vec![(0, 1.0)], vec![(1, 1.0)], vec![(0, 1.0), (1, 1.0)], vec![]];
    let strength = |b: &BoardFeatures| b.iter().map(|&(i, v)| planted[i as usize] * f64::from(v)).sum::<f64>();
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
    let f = fit(2, &boards, &Matchups::new(boards.len(), &matchups), settings).expect("fit");
    assert!(f.converged);
    for (got, want) in f.theta.iter().zip(planted) {
        assert!((got - want).abs() < 1e-6, "{got} against {want}");
    }
    let (diff, se) = f.contrast(&[(0, 1.0), (1, -1.0)]);
    assert!((diff - 1.1).abs() < 1e-6 && se.is_finite(), "{diff} ± {se}");
}

/// Boards that met only themselves give no fit, not coefficients of
/// zero with no uncertainty: nothing compares one board with another.
#[test]
fn boards_that_met_only_themselves_have_no_fit() {
    let boards: Vec<BoardFeatures> = vec![vec![(0, 1.0)], vec![(1, 1.0)]];
    let mirrors: Vec<MatchupResult> = (0..2)
        .map(|b| MatchupResult {
            left: b,
            right: b,
            fights: 50.0,
            left_score: 25.0,
        })
        .collect();
    let matchups = Matchups::new(boards.len(), &mirrors);
    assert!(fit(2, &boards, &matchups, ModelSettings::default()).is_none());
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
    let f = fit(
        2,
        &boards,
        &Matchups::new(boards.len(), &matchups),
        ModelSettings::default(),
    )
    .expect("fit");
    assert_eq!(f.theta[1], 0.0);
    assert!(f.theta[0] > 0.0);
}

/// The middle of the sandwich against its definition: the sum of
/// `s_k s_k'^T` over every two matchups `k`, `k'` (both orders, and each
/// with itself) that share a board, a matchup and its reverse counted
/// once as they share both. Matchups repeat and reverse, one board meets
/// itself, so the merging into unordered pairs is exercised too.
#[test]
fn clustered_scores_match_the_sum_over_matchups_sharing_a_board() {
    let boards: Vec<BoardFeatures> = vec![
        vec![(0, 1.0), (2, 2.0)],
        vec![(1, 1.0)],
        vec![(0, 1.0), (1, 1.0), (3, 0.5)],
        vec![(2, 1.0), (3, 1.0)],
        vec![(3, 2.0)],
    ];
    let raw = [
        (0, 1, 5.0, 3.0),
        (1, 0, 2.0, 0.5),
        (0, 2, 4.0, 1.0),
        (2, 3, 6.0, 4.5),
        (3, 1, 3.0, 1.0),
        (4, 0, 2.0, 2.0),
        (2, 2, 4.0, 2.0),
        (4, 3, 1.0, 0.0),
        (0, 1, 1.0, 1.0),
    ];
    let results = results_of(&raw);
    let p = 4;
    let theta = DVector::from_vec(vec![0.3, -0.2, 0.1, 0.4]);
    let rows = FeatureRows::new(
        vec![Model {
            features: p,
            boards: boards.clone(),
        }],
        boards.len(),
    );
    let strength = rows.strengths(&[Some(&theta)]);
    let matchups = Matchups::new(boards.len(), &results);
    let want = [Want {
        residuals: false,
        hessian: false,
        squares: true,
    }];
    let (sums, _) = pair_pass(&rows, &matchups, &strength, &want).expect("in memory");
    let squares = board_score_squares(&rows, &matchups, &strength, &want).expect("in memory");
    let got =
        squares[0].clone().expect("wanted") - assemble(&rows, 0, p, &sums[0].own_squares, &sums[0].cross_squares, 0.0);
    let x = |b: u32| {
        let mut v = DVector::<f64>::zeros(p);
        for &(i, xi) in &boards[b as usize] {
            v[i as usize] += f64::from(xi);
        }
        v
    };
    let score = |m: &MatchupResult| {
        let e = m.left_score - m.fights * sigmoid(strength[m.left as usize] - strength[m.right as usize]);
        (x(m.left) - x(m.right)) * e
    };
    let mut want = DMatrix::<f64>::zeros(p, p);
    for k in &results {
        for l in &results {
            // Sharing both boards counts once, as sharing one does.
            if [k.left, k.right].iter().any(|b| [l.left, l.right].contains(b)) {
                want += score(k) * score(l).transpose();
            }
        }
    }
    assert!((&got - &want).amax() < 1e-9, "{got} against {want}");
}

/// Models fitted together take the same steps as each fitted alone:
/// the shared passes only share the reading of the pairs.
#[test]
fn fitting_models_together_changes_no_number() {
    let a: Vec<BoardFeatures> = vec![vec![(0, 1.0)], vec![(1, 1.0)], vec![(0, 1.0), (1, 2.0)], vec![]];
    let b: Vec<BoardFeatures> = vec![
        vec![(2, 1.0)],
        vec![(0, 1.0), (1, 1.0)],
        vec![],
        vec![(2, 2.0), (0, 1.0)],
    ];
    let results = results_of(&[
        (0, 1, 9.0, 6.0),
        (1, 2, 7.0, 2.5),
        (2, 3, 8.0, 5.0),
        (3, 0, 6.0, 1.0),
        (0, 2, 5.0, 2.0),
        (1, 3, 4.0, 3.0),
    ]);
    let matchups = Matchups::new(4, &results);
    let settings = ModelSettings::default();
    let together = fit_all(
        vec![
            Model {
                features: 2,
                boards: a.clone(),
            },
            Model {
                features: 3,
                boards: b.clone(),
            },
        ],
        &matchups,
        settings,
    )
    .expect("in memory");
    for (alone, together) in [fit(2, &a, &matchups, settings), fit(3, &b, &matchups, settings)]
        .iter()
        .zip(&together)
    {
        let (alone, together) = (alone.as_ref().expect("fit"), together.as_ref().expect("fit"));
        assert_eq!(alone.theta, together.theta);
        assert_eq!(alone.covariance, together.covariance);
        assert!(alone.converged && together.converged);
    }
}
