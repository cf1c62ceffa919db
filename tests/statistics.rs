//! The report's marginal effects against a world whose truth is known:
//! board strengths are planted from card effects, suites of boards are
//! drawn from that population, and each card's effect interval is checked
//! against the population's coefficient; and intervals that count boards,
//! not fights. The rates' coverage and the paired comparisons are
//! `tests/inference.rs`.

use gridsim::analysis::{MatchupTally, Tallies};
use gridsim::board_table::BoardTable;
use gridsim::engine::FightRng;
use gridsim::report::{ReportSettings, build};
use gridsim::sink::BoardRow;

const CARDS: usize = 12;
const CARDS_PER_BOARD: usize = 4;

/// Planted effect of each card on a board's strength, in logits.
fn effect(card: usize) -> f64 {
    -0.6 + 1.2 * card as f64 / (CARDS - 1) as f64
}

fn uniform(rng: &mut FightRng) -> f64 {
    f64::from(rng.next_u32()) / 4_294_967_296.0
}

/// A board: its distinct cards and its strength (the cards' effects plus
/// a board's own part the cards do not explain).
fn draw_board(rng: &mut FightRng) -> (Vec<usize>, f64) {
    let mut cards = Vec::new();
    while cards.len() < CARDS_PER_BOARD {
        let c = rng.below(CARDS as u32) as usize;
        if !cards.contains(&c) {
            cards.push(c);
        }
    }
    let own = 0.8 * (uniform(rng) - 0.5);
    let strength = cards.iter().map(|&c| effect(c)).sum::<f64>() + own;
    (cards, strength)
}

fn beats(a: f64, b: f64) -> f64 {
    1.0 / (1.0 + (b - a).exp())
}

/// The boards table of drawn boards: their cards, at tier 1.
fn board_rows(drawn: &[(Vec<usize>, f64)]) -> Vec<BoardRow> {
    drawn
        .iter()
        .enumerate()
        .map(|(id, (cards, _))| BoardRow {
            board_id: id as u32,
            name: format!("b{id}"),
            cards: cards.iter().map(|c| format!("card{c:02}")).collect(),
            tiers: vec![1; cards.len()],
            runes: Vec::new(),
            rune_tiers: Vec::new(),
            resonance: String::new(),
            keywords: Vec::new(),
            footprints: Vec::new(),
        })
        .collect()
}

/// A suite of `g` boards drawn from the population, every ordered pair
/// fought `fights` times.
fn suite(seed: u64, g: u32, fights: u64) -> (Tallies, Vec<BoardRow>) {
    let mut rng = FightRng::for_fight(seed, 1);
    let drawn: Vec<(Vec<usize>, f64)> = (0..g).map(|_| draw_board(&mut rng)).collect();
    let rows = board_rows(&drawn);
    let mut matchups = Vec::new();
    for l in 0..g {
        for r in 0..g {
            let p = beats(drawn[l as usize].1, drawn[r as usize].1);
            let left_wins = (0..fights).filter(|_| uniform(&mut rng) < p).count() as u64;
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
    (t, rows)
}

#[test]
fn fights_alone_do_not_narrow_an_interval() {
    // The same 60 boards fought 30 or 300 times per pair: the boards are
    // the sample, so the intervals barely narrow (a fights-only interval
    // would shrink by sqrt(10), about three times).
    let settings = ReportSettings::default();
    let width = |fights: u64| {
        let (t, boards) = suite(7, 60, fights);
        let r = build(vec!["w".into()], &t, &BoardTable::from_rows(&boards), &settings).expect("report");
        r.cards.iter().map(|c| c.high - c.low).sum::<f64>() / r.cards.len() as f64
    };
    let (few, many) = (width(30), width(300));
    println!("mean card interval width: {few:.4} at 30 fights a pair, {many:.4} at 300");
    assert!(many > 0.8 * few, "30 fights a pair: {few:.4}, 300: {many:.4}");
}

/// A suite of `g` boards drawn from the population, paired at random for
/// `fights` fights (as the nightly suite pairs its pool).
fn random_suite(seed: u64, g: u32, fights: u64) -> (Tallies, Vec<BoardRow>) {
    let mut rng = FightRng::for_fight(seed, 2);
    let drawn: Vec<(Vec<usize>, f64)> = (0..g).map(|_| draw_board(&mut rng)).collect();
    let rows = board_rows(&drawn);
    let mut matchups = Vec::new();
    for _ in 0..fights {
        let l = rng.below(g);
        let r = (l + 1 + rng.below(g - 1)) % g;
        let left_wins = u64::from(uniform(&mut rng) < beats(drawn[l as usize].1, drawn[r as usize].1));
        matchups.push(MatchupTally {
            left: l,
            right: r,
            fights: 1,
            left_wins,
            right_wins: 1 - left_wins,
            draws: 0,
        });
    }
    // Repeated pairs are one matchup, as the tallies keep them.
    matchups.sort_by_key(|m| (m.left, m.right));
    matchups.dedup_by(|later, kept| {
        let same = (later.left, later.right) == (kept.left, kept.right);
        if same {
            kept.fights += later.fights;
            kept.left_wins += later.left_wins;
            kept.right_wins += later.right_wins;
        }
        same
    });
    (Tallies::from_matchups(matchups), rows)
}

/// The population's card coefficients: the logistic model fitted to a
/// large population of boards at their exact expected results. This, not
/// the planted `effect`, is what the model estimates: a board's own part
/// of its strength, which no card explains, pulls a logistic coefficient
/// towards zero when averaged over (by about 2% here).
fn population_coefficients() -> Vec<f64> {
    use gridsim::marginal::{BoardFeatures, MatchupResult, Matchups, ModelSettings, fit};
    let mut rng = FightRng::for_fight(98, 0);
    let boards: Vec<(Vec<usize>, f64)> = (0..3000).map(|_| draw_board(&mut rng)).collect();
    let features: Vec<BoardFeatures> = boards
        .iter()
        .map(|(cards, _)| cards.iter().map(|&c| (c as u32, 1.0)).collect())
        .collect();
    let mut results = Vec::new();
    for l in 0..boards.len() {
        for k in 1..=40 {
            let r = (l + 37 * k) % boards.len();
            results.push(MatchupResult {
                left: l as u32,
                right: r as u32,
                fights: 1.0,
                left_score: beats(boards[l].1, boards[r].1),
            });
        }
    }
    let settings = ModelSettings {
        ridge: 1e-6,
        ..ModelSettings::default()
    };
    fit(CARDS, &features, &Matchups::new(boards.len(), &results), settings)
        .expect("population fit")
        .theta
}

/// The contrast the card effect estimates: the card's coefficient less the
/// copy-weighted mean coefficient of the suite's cards (one copy of it in
/// place of an average copy).
fn planted_contrasts(boards: &[BoardRow], theta: &[f64]) -> Vec<f64> {
    let mut copies = [0.0f64; CARDS];
    for b in boards {
        for c in &b.cards {
            copies[c["card".len()..].parse::<usize>().expect("card index")] += 1.0;
        }
    }
    let all: f64 = copies.iter().sum();
    let mean: f64 = (0..CARDS).map(|c| theta[c] * copies[c] / all).sum();
    (0..CARDS).map(|c| theta[c] - mean).collect()
}

/// Planted card effects recovered by the report's marginal effects, with
/// about 95% of their intervals covering the planted value, whether the
/// suite fights every pair many times or draws pairs at random. Each board
/// also has a part of its strength no card explains, which is what makes
/// fights sharing a board dependent and the board-clustered errors needed.
#[test]
fn marginal_effects_recover_planted_card_effects_with_nominal_coverage() {
    let settings = ReportSettings::default();
    let theta = population_coefficients();
    let attenuation =
        (0..CARDS).map(|c| theta[c] - theta[0]).sum::<f64>() / (0..CARDS).map(|c| effect(c) - effect(0)).sum::<f64>();
    println!("population coefficients: {:.3} of the planted spread", attenuation);
    assert!((0.9..1.0).contains(&attenuation), "attenuation {attenuation:.3}");
    for (name, make) in [
        (
            "all pairs, 60 boards x 30 fights",
            (|seed| suite(seed, 60, 30)) as fn(u64) -> (Tallies, Vec<BoardRow>),
        ),
        ("random pairs, 400 boards, 20,000 fights", |seed| {
            random_suite(seed, 400, 20_000)
        }),
    ] {
        let (mut covered, mut total) = (0u32, 0u32);
        let mut errors = Vec::new();
        for seed in 0..60 {
            let (t, boards) = make(seed);
            let truth = planted_contrasts(&boards, &theta);
            let r = build(
                vec![format!("seed{seed}")],
                &t,
                &BoardTable::from_rows(&boards),
                &settings,
            )
            .expect("report");
            for row in &r.cards {
                let c: usize = row.key["card".len()..].parse().expect("card index");
                let e = row.effect.clone().expect("every card has an effect");
                // The points interval is the logit interval mapped through
                // a rising curve: it covers exactly when the logit one does.
                let inside = (e.logit - truth[c]).abs() <= 1.959_964 * e.logit_se;
                assert!(e.low <= e.points && e.points <= e.high, "{name}: {e:?}");
                assert_eq!(e.points > 0.0, e.logit > 0.0, "{name}: {e:?}");
                total += 1;
                covered += u32::from(inside);
                errors.push(e.logit - truth[c]);
            }
        }
        let coverage = f64::from(covered) / f64::from(total);
        let bias = errors.iter().sum::<f64>() / errors.len() as f64;
        println!("{name}: coverage {coverage:.3} over {total} intervals, mean error {bias:+.4} logits");
        // Nominal 95%; 720 intervals give about 0.8 points of binomial noise.
        assert!(
            (0.92..=0.98).contains(&coverage),
            "{name}: coverage {coverage:.3} over {total} intervals"
        );
        assert!(bias.abs() < 0.02, "{name}: mean error {bias:+.4} logits");
    }
}
