//! The report's rate intervals and comparisons against worlds whose truth
//! is known, planted by a generator of this file's own (splitmix64 and a
//! logistic strength model) that shares no code with the estimator.
//!
//! - Coverage of the 95% card intervals on the nightly design (a pool of
//!   boards paired at random, a handful of fights per board) and on an
//!   all-pairs suite. With `n` intervals the coverage's binomial standard
//!   error at 95% is `sqrt(0.95 · 0.05 / n)`; the tests use `n` ≥ 1,800,
//!   about 0.5 points, so the window 93–97% is about four standard errors
//!   from 90% (0.7 points each there) and from 98% (0.33 points): an
//!   estimator that covers 90% or 98% fails, one that covers 95% passes.
//!   (Cards of one suite share boards, which widens the spread somewhat;
//!   the window keeps three standard errors of room at twice the variance.)
//! - A paired A/B comparison: a planted small change to one card, run on
//!   the same pairs with the same random draws, is flagged.
//! - An A/A comparison: two runs of one catalog on the same pairs with
//!   independent draws flag a change in no more than the false discovery
//!   rate's share of repetitions.

use gridsim::analysis::{MatchupTally, Tallies};
use gridsim::board_table::BoardTable;
use gridsim::report::{Against, ReportSettings, build, compare};
use gridsim::sink::BoardRow;

const CARDS: usize = 12;
const CARDS_PER_BOARD: usize = 4;

struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn uniform(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: usize) -> usize {
        (self.uniform() * n as f64) as usize
    }
}

/// Planted effect of each card on a board's strength, in logits.
fn effect(card: usize) -> f64 {
    -0.6 + 1.2 * card as f64 / (CARDS - 1) as f64
}

#[derive(Clone)]
struct Board {
    cards: Vec<usize>,
    /// The part of its strength no card explains.
    own: f64,
}

impl Board {
    fn strength(&self, nerf: Option<(usize, f64)>) -> f64 {
        let cards: f64 = self
            .cards
            .iter()
            .map(|&c| effect(c) - nerf.filter(|n| n.0 == c).map_or(0.0, |n| n.1))
            .sum();
        cards + self.own
    }
}

fn draw_board(rng: &mut Mix) -> Board {
    let mut cards = Vec::new();
    while cards.len() < CARDS_PER_BOARD {
        let c = rng.below(CARDS);
        if !cards.contains(&c) {
            cards.push(c);
        }
    }
    Board {
        cards,
        own: 0.8 * (rng.uniform() - 0.5),
    }
}

fn beats(a: f64, b: f64) -> f64 {
    1.0 / (1.0 + (b - a).exp())
}

/// Each card's win rate over the population: a board holding it against a
/// board drawn at random (which may hold it too), averaged over many of
/// each. This is what the report's holder rate estimates.
fn population_rates() -> Vec<f64> {
    let mut rng = Mix(0xC0FFEE);
    let boards: Vec<Board> = (0..6000).map(|_| draw_board(&mut rng)).collect();
    let opponents = &boards[..1500];
    let mut sum = [0.0f64; CARDS];
    let mut count = [0.0f64; CARDS];
    for b in &boards {
        let s = b.strength(None);
        let mean = opponents.iter().map(|o| beats(s, o.strength(None))).sum::<f64>() / opponents.len() as f64;
        for &c in &b.cards {
            sum[c] += mean;
            count[c] += 1.0;
        }
    }
    (0..CARDS).map(|c| sum[c] / count[c]).collect()
}

fn rows(boards: &[Board]) -> Vec<BoardRow> {
    boards
        .iter()
        .enumerate()
        .map(|(id, b)| BoardRow {
            board_id: id as u32,
            name: format!("b{id}"),
            cards: b.cards.iter().map(|c| format!("card{c:02}")).collect(),
            tiers: vec![1; b.cards.len()],
            runes: Vec::new(),
            rune_tiers: Vec::new(),
            resonance: String::new(),
            keywords: Vec::new(),
            footprints: Vec::new(),
        })
        .collect()
}

/// The fights of a design: `(left, right, u)` with `u` the fight's own
/// uniform draw, so two runs of the same design can share their draws.
type Design = Vec<(u32, u32, f64)>;

/// The nightly design: two distinct boards of the pool at random per fight.
fn random_pairs(rng: &mut Mix, pool: usize, fights: usize) -> Design {
    (0..fights)
        .map(|_| {
            let l = rng.below(pool);
            let r = (l + 1 + rng.below(pool - 1)) % pool;
            (l as u32, r as u32, rng.uniform())
        })
        .collect()
}

/// Every ordered pair, `per_pair` fights each.
fn all_pairs(rng: &mut Mix, pool: usize, per_pair: usize) -> Design {
    let mut out = Vec::new();
    for l in 0..pool {
        for r in 0..pool {
            for _ in 0..per_pair {
                out.push((l as u32, r as u32, rng.uniform()));
            }
        }
    }
    out
}

/// The tallies of a design's fights: left wins when its draw falls below
/// its chance.
fn fight(boards: &[Board], design: &Design, nerf: Option<(usize, f64)>) -> Tallies {
    let strength: Vec<f64> = boards.iter().map(|b| b.strength(nerf)).collect();
    let mut by_pair: std::collections::BTreeMap<(u32, u32), MatchupTally> = Default::default();
    for &(l, r, u) in design {
        let left_won = u < beats(strength[l as usize], strength[r as usize]);
        let m = by_pair.entry((l, r)).or_insert(MatchupTally {
            left: l,
            right: r,
            ..MatchupTally::default()
        });
        m.fights += 1;
        m.left_wins += u64::from(left_won);
        m.right_wins += u64::from(!left_won);
    }
    Tallies::from_matchups(by_pair.into_values().collect())
}

fn card_index(key: &str) -> usize {
    key["card".len()..].parse().expect("card index")
}

/// The share of card intervals holding the population rate, over `reps`
/// suites made by `make`.
fn coverage(reps: u64, make: impl Fn(&mut Mix) -> (Vec<Board>, Design)) -> (f64, u32, f64) {
    let truth = population_rates();
    let settings = ReportSettings::default();
    let (mut covered, mut total, mut z2) = (0u32, 0u32, 0.0f64);
    for seed in 0..reps {
        let mut rng = Mix(1000 + seed);
        let (boards, design) = make(&mut rng);
        let report = build(
            vec![format!("seed{seed}")],
            &fight(&boards, &design, None),
            &BoardTable::from_rows(&rows(&boards)),
            &settings,
        )
        .expect("report");
        for row in &report.cards {
            let t = truth[card_index(&row.key)];
            total += 1;
            covered += u32::from(row.low <= t && t <= row.high);
            z2 += ((row.win_rate - t) / row.se).powi(2);
        }
    }
    (
        f64::from(covered) / f64::from(total),
        total,
        (z2 / f64::from(total)).sqrt(),
    )
}

#[test]
fn card_intervals_cover_the_population_rate_on_the_nightly_design() {
    // 600 boards, 4,000 fights: about 13 fights per board, almost every
    // pair met once, the design whose pairs a board bootstrap overcounts.
    let (c, n, sd) = coverage(160, |rng| {
        let boards: Vec<Board> = (0..600).map(|_| draw_board(rng)).collect();
        let design = random_pairs(rng, boards.len(), 4000);
        (boards, design)
    });
    println!("nightly design: coverage {c:.3} over {n} intervals, sd of z {sd:.3}");
    assert!(n >= 1800);
    assert!((0.93..=0.97).contains(&c), "coverage {c:.3} over {n} intervals");
    // The errors are the right size, not merely covering: the standardized
    // errors have a standard deviation near 1.
    assert!((0.9..=1.1).contains(&sd), "sd of z {sd:.3}");
}

#[test]
fn card_intervals_cover_the_population_rate_on_all_pairs() {
    let (c, n, sd) = coverage(160, |rng| {
        let boards: Vec<Board> = (0..60).map(|_| draw_board(rng)).collect();
        let design = all_pairs(rng, boards.len(), 10);
        (boards, design)
    });
    println!("all pairs: coverage {c:.3} over {n} intervals, sd of z {sd:.3}");
    assert!(n >= 1800);
    assert!((0.93..=0.97).contains(&c), "coverage {c:.3} over {n} intervals");
    assert!((0.9..=1.1).contains(&sd), "sd of z {sd:.3}");
}

/// A small nerf (card 5 loses 0.03 logits, about half a point of its win
/// rate), run on the same boards, pairs and draws as the baseline: the
/// paired comparison flags it in nearly every repetition, while the same
/// change compared as if the runs were independent is almost never seen.
///
/// Power, worked out: about 6,700 holder sides in 10,000 fights, 4,400 of
/// them against boards without card 5; 0.03 logits move a fight's chance
/// by about 0.75 points, so some 33 results change, a difference of about
/// 0.5 points with a paired standard error near sqrt(33)/6,700 = 0.09
/// points: z near 5.8, found almost always after the correction over 12
/// cards. Unpaired, each rate carries about 0.6 points of its own noise.
#[test]
fn a_planted_small_change_is_flagged_paired_and_missed_unpaired() {
    let settings = ReportSettings::default();
    let reps = 40;
    let (mut paired_hits, mut unpaired_hits, mut false_flags) = (0, 0, 0);
    for seed in 0..reps {
        let mut rng = Mix(5000 + seed);
        let boards: Vec<Board> = (0..2000).map(|_| draw_board(&mut rng)).collect();
        let design = random_pairs(&mut rng, boards.len(), 10_000);
        let table = BoardTable::from_rows(&rows(&boards));
        let base = fight(&boards, &design, None);
        let now = fight(&boards, &design, Some((5, 0.03)));
        let base_report = build(vec!["base".into()], &base, &table, &settings).expect("report");
        let mut paired = build(vec!["now".into()], &now, &table, &settings).expect("report");
        compare(
            &mut paired,
            Against::Paired {
                now: &now,
                base: &base,
                boards: &table,
                why: "same design".into(),
            },
            "base".into(),
        )
        .expect("compared");
        let mut unpaired = build(vec!["now".into()], &now, &table, &settings).expect("report");
        compare(
            &mut unpaired,
            Against::Independent {
                rates: base_report.rate_tables(),
                why: "a test".into(),
            },
            "base".into(),
        )
        .expect("compared");
        let flagged = |r: &gridsim::report::Report| r.significant_changes.iter().any(|c| c == "card: card05");
        paired_hits += u32::from(flagged(&paired));
        unpaired_hits += u32::from(flagged(&unpaired));
        // Other cards move too (their opponents' card 5 got weaker), but
        // by far less; a flag elsewhere counts against the test only when
        // its sign is wrong for a card that gained nothing.
        let c5 = paired.cards.iter().find(|c| c.key == "card05").expect("card05");
        let change = c5.change.as_ref().expect("compared");
        assert!(change.paired && change.delta < 0.0, "{change:?}");
        false_flags += paired
            .cards
            .iter()
            .filter(|c| c.key != "card05" && c.change.as_ref().is_some_and(|ch| ch.significant && ch.delta < 0.0))
            .count();
    }
    println!(
        "paired: flagged {paired_hits}/{reps}; unpaired: {unpaired_hits}/{reps}; wrong-signed flags {false_flags}"
    );
    // Power: the paired comparison finds the nerf at least 90% of the time.
    assert!(paired_hits >= 36, "paired: {paired_hits} of {reps}");
    assert!(
        unpaired_hits < paired_hits,
        "unpaired {unpaired_hits}, paired {paired_hits}"
    );
    assert!(false_flags <= 2, "{false_flags} cards flagged falling that gained");
}

/// Two runs of one catalog on the same pairs, each with its own draws:
/// nothing changed, so a repetition with any flag is a false discovery,
/// and at a false discovery rate of 5% at most 5% of repetitions may flag.
/// With 400 repetitions the count of flagged ones is binomial with mean at
/// most 20 (standard deviation 4.4); more than 30 would happen by chance
/// with probability about 1.5% if the rate were 5%, while a rate of 10%
/// would give about 40. Each paired difference is calibrated on its own
/// (its standardized errors spread about 1.02; 5.25% of 9,600 beyond 1.96
/// with `AA_REPS=800`), but the rows are negatively dependent (one card's
/// gain is its opponents' loss), and Benjamini–Hochberg then flagged 6.75%
/// of 800 repetitions: the comparison uses Benjamini–Yekutieli, which
/// flagged 2.5%.
#[test]
fn an_a_a_pair_flags_no_more_than_the_false_discovery_rate() {
    let settings = ReportSettings::default();
    let reps: u64 = std::env::var("AA_REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let mut flagged = 0;
    let (mut z2, mut tests, mut rejected) = (0.0f64, 0u32, 0u32);
    for seed in 0..reps {
        let mut rng = Mix(9000 + seed);
        let boards: Vec<Board> = (0..600).map(|_| draw_board(&mut rng)).collect();
        let design = random_pairs(&mut rng, boards.len(), 6000);
        let redrawn: Design = design.iter().map(|&(l, r, _)| (l, r, rng.uniform())).collect();
        let table = BoardTable::from_rows(&rows(&boards));
        let base = fight(&boards, &design, None);
        let now = fight(&boards, &redrawn, None);
        let mut report = build(vec!["now".into()], &now, &table, &settings).expect("report");
        compare(
            &mut report,
            Against::Paired {
                now: &now,
                base: &base,
                boards: &table,
                why: "same design".into(),
            },
            "base".into(),
        )
        .expect("compared");
        flagged += u32::from(!report.significant_changes.is_empty());
        for row in &report.cards {
            let c = row.change.as_ref().expect("compared");
            let z = c.delta / (c.combined_uncertainty / 1.959_964);
            z2 += z * z;
            rejected += u32::from(z.abs() > 1.959_964);
            tests += 1;
        }
    }
    let sd = (z2 / f64::from(tests)).sqrt();
    println!(
        "A/A: {flagged} of {reps} repetitions flagged a change; sd of z {sd:.3}, {rejected} of {tests} beyond 1.96 uncorrected"
    );
    assert!(f64::from(flagged) <= 0.075 * reps as f64, "{flagged} of {reps}");
    assert!((0.95..=1.07).contains(&sd), "sd of z {sd:.3}");
}

/// Features the boards cannot tell apart get no number: two keywords that
/// always travel together are "not separable" from each other, and with a
/// resonance on every board (their indicators sum to one), each
/// resonance's effect is measured against another resonance, not against
/// having none, which no board shows. A keyword that varies on its own
/// keeps its effect.
#[test]
fn aliased_features_are_said_to_be_so() {
    let mut rng = Mix(77);
    let boards: Vec<Board> = (0..300).map(|_| draw_board(&mut rng)).collect();
    let mut rows = rows(&boards);
    for row in &mut rows {
        if rng.below(2) == 0 {
            row.keywords = vec!["shock".into(), "supercharge".into()];
        }
        if rng.below(3) == 0 {
            row.keywords.push("burn".into());
        }
        row.resonance = ["overpower", "brace_step", "riposte_stance"][rng.below(3)].into();
    }
    let design = random_pairs(&mut rng, boards.len(), 20_000);
    let report = build(
        vec!["aliased".into()],
        &fight(&boards, &design, None),
        &BoardTable::from_rows(&rows),
        &ReportSettings::default(),
    )
    .expect("report");
    let keyword = |k: &str| report.keywords.iter().find(|r| r.key == k).expect("keyword row");
    for (k, other) in [("shock", "supercharge"), ("supercharge", "shock")] {
        let row = keyword(k);
        assert!(row.effect.is_none(), "{k}: {:?}", row.effect);
        assert_eq!(row.not_separable_from, vec![other.to_string()], "{k}");
    }
    let burn = keyword("burn");
    assert!(burn.effect.is_some() && burn.not_separable_from.is_empty(), "{burn:?}");
    for res in ["overpower", "brace_step", "riposte_stance"] {
        let key = format!("resonance {res}");
        let row = report.runes.iter().find(|r| r.key == key).expect("resonance row");
        let effect = row
            .effect
            .as_ref()
            .unwrap_or_else(|| panic!("{key}: {:?}", row.not_separable_from));
        let against = effect.against.as_deref().expect("measured against another resonance");
        assert!(
            against.starts_with("resonance ") && against != key,
            "{key} against {against}"
        );
    }
}
