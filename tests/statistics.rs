//! The report's intervals against a world whose truth is known: board
//! strengths are planted from card effects, suites of boards are drawn
//! from that population, every pair fights, and each card's 95% interval
//! is checked against the card's win rate over the whole population.

use gridsim::analysis::{MatchupTally, Tallies};
use gridsim::engine::FightRng;
use gridsim::report::{ReportSettings, build};
use gridsim::sink::BoardRow;
use gridsim::stats::BootstrapSettings;

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

/// Each card's win rate over the population: a board holding it against
/// a board drawn at random, averaged over many of each.
fn population_rates() -> Vec<f64> {
    let mut rng = FightRng::for_fight(99, 0);
    let boards: Vec<(Vec<usize>, f64)> = (0..4000).map(|_| draw_board(&mut rng)).collect();
    let opponents = &boards[..600];
    let mut sum = [0.0f64; CARDS];
    let mut count = [0.0f64; CARDS];
    for (cards, s) in &boards {
        let mean: f64 = opponents.iter().map(|(_, o)| beats(*s, *o)).sum::<f64>() / opponents.len() as f64;
        for &c in cards {
            sum[c] += mean;
            count[c] += 1.0;
        }
    }
    (0..CARDS).map(|c| sum[c] / count[c]).collect()
}

/// A suite of `g` boards drawn from the population, every ordered pair
/// fought `fights` times.
fn suite(seed: u64, g: u32, fights: u64) -> (Tallies, Vec<BoardRow>) {
    let mut rng = FightRng::for_fight(seed, 1);
    let drawn: Vec<(Vec<usize>, f64)> = (0..g).map(|_| draw_board(&mut rng)).collect();
    let rows = drawn
        .iter()
        .enumerate()
        .map(|(id, (cards, _))| BoardRow {
            board_id: id as u32,
            name: format!("b{id}"),
            cards: cards.iter().map(|c| format!("card{c:02}")).collect(),
            tiers: vec![1; cards.len()],
            runes: Vec::new(),
            keywords: Vec::new(),
        })
        .collect();
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
fn board_bootstrap_intervals_cover_the_population_rate() {
    let truth = population_rates();
    let settings = ReportSettings {
        bootstrap: BootstrapSettings {
            replicates: 300,
            ..BootstrapSettings::default()
        },
        ..ReportSettings::default()
    };
    let (mut covered, mut total) = (0u32, 0u32);
    let mut widths = Vec::new();
    for seed in 0..80 {
        let (t, boards) = suite(seed, 60, 30);
        let r = build(vec![format!("seed{seed}")], &t, &boards, &settings);
        for row in &r.cards {
            let c: usize = row.key["card".len()..].parse().expect("card index");
            total += 1;
            covered += u32::from(row.low <= truth[c] && truth[c] <= row.high);
            widths.push(row.high - row.low);
        }
    }
    let coverage = f64::from(covered) / f64::from(total);
    println!("coverage {coverage:.3} over {total} intervals");
    // Nominal 95%; with 960 intervals the binomial noise alone is about
    // 0.7 points, and a percentile bootstrap of 60 boards runs a little
    // narrow.
    assert!(
        (0.90..=0.985).contains(&coverage),
        "coverage {coverage:.3} over {total} intervals"
    );
    // And the intervals are not trivially wide.
    let mean_width = widths.iter().sum::<f64>() / widths.len() as f64;
    assert!(mean_width < 0.2, "mean width {mean_width:.3}");
}

#[test]
fn fights_alone_do_not_narrow_an_interval() {
    // The same 60 boards fought 30 or 300 times per pair: the boards are
    // the sample, so the intervals barely narrow (a fights-only interval
    // would shrink by sqrt(10), about three times).
    let settings = ReportSettings::default();
    let width = |fights: u64| {
        let (t, boards) = suite(7, 60, fights);
        let r = build(vec!["w".into()], &t, &boards, &settings);
        r.cards.iter().map(|c| c.high - c.low).sum::<f64>() / r.cards.len() as f64
    };
    let (few, many) = (width(30), width(300));
    println!("mean card interval width: {few:.4} at 30 fights a pair, {many:.4} at 300");
    assert!(many > 0.8 * few, "30 fights a pair: {few:.4}, 300: {many:.4}");
}
