use super::*;
use gridsim_data::sink::BoardRow;

fn tallies() -> (Tallies, BoardTable) {
    use crate::analysis::MatchupTally;
    let board = |id: u32, cards: &[&str], keywords: &[&str]| BoardRow {
        board_id: id,
        name: format!("b{id}"),
        cards: cards.iter().map(|s| s.to_string()).collect(),
        tiers: vec![1; cards.len()],
        runes: Vec::new(),
        rune_tiers: Vec::new(),
        resonance: String::new(),
        keywords: keywords.iter().map(|s| s.to_string()).collect(),
        footprints: Vec::new(),
    };
    let boards = vec![
        board(0, &["crab", "fox"], &["burn", "maim"]),
        board(1, &["fox"], &["burn"]),
    ];
    let t = Tallies::from_matchups(vec![
        MatchupTally {
            left: 0,
            right: 1,
            fights: 500,
            left_wins: 400,
            right_wins: 75,
            draws: 25,
        },
        MatchupTally {
            left: 1,
            right: 0,
            fights: 500,
            left_wins: 75,
            right_wins: 400,
            draws: 25,
        },
    ]);
    assert_eq!(t.boards[0].wins, 800, "board 0 won 400 on each side");
    (t, BoardTable::from_rows(&boards))
}

#[test]
fn figures_add_up_per_card_keyword_and_pair() {
    let (t, boards) = tallies();
    let r = build(vec!["run".into()], &t, &boards, &ReportSettings::default()).expect("report");
    let crab = r.cards.iter().find(|c| c.key == "crab").expect("crab");
    assert_eq!((crab.fights, crab.wins, crab.draws, crab.losses), (1000, 800, 50, 150));
    assert_eq!(crab.boards, 1);
    let fox = r.cards.iter().find(|c| c.key == "fox").expect("fox");
    assert_eq!(
        (fox.fights, fox.wins, fox.boards),
        (2000, 950, 2),
        "fox is on both boards"
    );
    // One board holds crab: its 1,000 fights say how that board does,
    // not how crab does, so crab is not ranked and no outlier however
    // far from 50%.
    assert!(
        !crab.ranked && !crab.outlier && r.outliers.is_empty(),
        "{:?}",
        r.outliers
    );
    let burn = r.keywords.iter().find(|k| k.key == "burn").expect("burn");
    assert_eq!(burn.fights, 2000);
    let pair = &r.keyword_pairs[0];
    assert_eq!((pair.a.as_str(), pair.b.as_str(), pair.fights), ("burn", "maim", 1000));
    // lift = p(ab) - p(a) - p(b) + 0.5 = 0.8 - 0.475 - 0.8 + 0.5.
    assert!((pair.lift - 0.025).abs() < 1e-9, "{}", pair.lift);
    let maim_vs_burn = r
        .keyword_versus
        .iter()
        .find(|c| c.a == "maim" && c.b == "burn")
        .expect("cell");
    assert_eq!((maim_vs_burn.fights, maim_vs_burn.wins), (1000, 800));
}

/// `boards` boards, every ordered pair fought `fights` times; the
/// boards in `strong` hold "crab" and win with probability 0.5 + edge
/// against the others; every board holds "fox".
/// Every ordered pair of boards `0..boards`, `fights` fights each, the left
/// board winning `p(left, right)` of them (rounded, within 0..=fights).
fn all_pairs(boards: u32, fights: u64, p: impl Fn(u32, u32) -> f64) -> Tallies {
    use crate::analysis::MatchupTally;
    let mut matchups = Vec::new();
    for l in 0..boards {
        for r in 0..boards {
            let left_wins = (p(l, r).clamp(0.0, 1.0) * fights as f64).round() as u64;
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
    Tallies::from_matchups(matchups)
}

/// Board `id` holding `cards`, each at tier 1, and nothing else.
fn cards_row(id: u32, cards: Vec<String>) -> BoardRow {
    BoardRow {
        board_id: id,
        name: format!("b{id}"),
        tiers: vec![1; cards.len()],
        cards,
        runes: Vec::new(),
        rune_tiers: Vec::new(),
        resonance: String::new(),
        keywords: Vec::new(),
        footprints: Vec::new(),
    }
}

fn field(boards: u32, strong: u32, edge: f64, fights: u64) -> (Tallies, BoardTable) {
    let rows: Vec<BoardRow> = (0..boards)
        .map(|id| {
            let cards: &[&str] = if id < strong { &["crab", "fox"] } else { &["fox"] };
            cards_row(id, cards.iter().map(|c| c.to_string()).collect())
        })
        .collect();
    let strong = |id: u32| f64::from(u8::from(id < strong));
    let t = all_pairs(boards, fights, |l, r| 0.5 + edge * (strong(l) - strong(r)));
    (t, BoardTable::from_rows(&rows))
}

#[test]
fn an_item_strong_on_many_boards_is_an_outlier_with_its_numbers() {
    let (t, boards) = field(40, 10, 0.2, 100);
    let r = build(vec!["run".into()], &t, &boards, &ReportSettings::default()).expect("report");
    let crab = r.cards.iter().find(|c| c.key == "crab").expect("crab");
    assert_eq!(crab.boards, 10);
    assert!(crab.outlier && crab.low > 0.55, "{crab:?}");
    let o = r.outliers.iter().find(|o| o.key == "crab").expect("listed");
    assert_eq!((o.section.as_str(), o.direction, o.boards), ("card", "above", 10));
    assert!(o.describe().contains("10 boards"), "{}", o.describe());
    // Every board holds fox: it wins exactly half, and is no outlier.
    let fox = r.cards.iter().find(|c| c.key == "fox").expect("fox");
    assert!((fox.win_rate - 0.5).abs() < 1e-9 && !fox.outlier);
}

#[test]
fn changes_beyond_noise_are_flagged() {
    let s = ReportSettings::default();
    let (t, boards) = field(40, 10, 0.2, 100);
    let base = build(vec!["base".into()], &t, &boards, &s).expect("report");
    let (weaker, _) = field(40, 10, 0.02, 100);
    let mut now = build(vec!["now".into()], &weaker, &boards, &s).expect("report");
    compare(
        &mut now,
        Against::Independent {
            rates: base.rate_tables(),
            why: "a test".into(),
        },
        "base".into(),
    )
    .expect("compared");
    let crab = now.cards.iter().find(|c| c.key == "crab").expect("crab");
    let change = crab.change.as_ref().expect("compared");
    assert!(change.delta < -0.1 && change.significant, "{change:?}");
    assert!(now.significant_changes.contains(&"card: crab".to_string()));
    let mut same = build(vec!["again".into()], &t, &boards, &s).expect("report");
    compare(
        &mut same,
        Against::Independent {
            rates: base.rate_tables(),
            why: "a test".into(),
        },
        "base".into(),
    )
    .expect("compared");
    assert!(same.significant_changes.is_empty());
    // Paired on the same fights: the change is seen as well, and the
    // same tallies change nothing at all.
    let mut now = build(vec!["now".into()], &weaker, &boards, &s).expect("report");
    compare(
        &mut now,
        Against::Paired {
            now: &weaker,
            base: &t,
            boards: &boards,
            why: "a test".into(),
        },
        "base".into(),
    )
    .expect("compared");
    let change = now
        .cards
        .iter()
        .find(|c| c.key == "crab")
        .and_then(|c| c.change.clone());
    let change = change.expect("compared");
    assert!(change.paired && change.delta < -0.1 && change.significant, "{change:?}");
    let mut same = build(vec!["again".into()], &t, &boards, &s).expect("report");
    compare(
        &mut same,
        Against::Paired {
            now: &t,
            base: &t,
            boards: &boards,
            why: "a test".into(),
        },
        "base".into(),
    )
    .expect("compared");
    assert!(same.significant_changes.is_empty());
    assert!(
        same.cards
            .iter()
            .all(|c| c.change.as_ref().is_some_and(|c| c.delta == 0.0))
    );
}

#[test]
fn effects_are_the_same_whether_the_fit_holds_the_pairs_or_reads_them_block_by_block() {
    // A run of few pairs has them held in memory for the fit's passes, a
    // larger one read block by block at every pass (`FitSource`); both must
    // fit the same model. Blocks overlap (a pair with boards in two blocks
    // is in both), so a misreading that counts a pair from both blocks, or
    // none, or sums a block's pairs it does not own, moves every estimate.
    use gridsim_data::pair_blocks::{BlockWriter, FIGHTS_PER_BLOCK};
    // Cards in an overlapping pattern, so each has an effect of its own;
    // crab wins a tenth more often.
    let cards = |id: u32| -> Vec<String> {
        let held = [("crab", 2), ("fox", 3), ("eel", 5)]
            .into_iter()
            .filter(|&(_, m)| id.is_multiple_of(m));
        let mut cards: Vec<String> = held.map(|(c, _)| c.to_string()).collect();
        if cards.is_empty() {
            cards.push("ant".into());
        }
        cards
    };
    let rows: Vec<BoardRow> = (0..60).map(|id| cards_row(id, cards(id))).collect();
    let crab = |id: u32| f64::from(u8::from(id.is_multiple_of(2)));
    // A win more or less in some pairs, so the fit has residuals to count.
    let noise = |l: u32, r: u32| (f64::from((l * 7 + r * 3) % 3) - 1.0) / 7.0;
    let t = all_pairs(60, 7, |l, r| 0.5 + 0.1 * (crab(l) - crab(r)) + noise(l, r));
    let boards = BoardTable::from_rows(&rows);
    let mut writer = BlockWriter::new(5 * FIGHTS_PER_BLOCK, 60).expect("blocks");
    let mut matchups = Vec::new();
    t.pairs.each_pair(|m| matchups.push(*m)).expect("pairs");
    writer.add(&matchups).expect("add");
    let blocks = writer.finish().expect("finish");
    assert!(blocks.count() >= 5, "{} blocks", blocks.count());
    let dense = DenseBoards::of_run(&t, &boards);
    let model = crate::marginal::ModelSettings::default();
    let held = effects::marginal_effects(&boards, &dense, &blocks, model, u64::MAX).expect("held");
    let read = effects::marginal_effects(&boards, &dense, &blocks, model, 0).expect("read");
    let whole = effects::marginal_effects(&boards, &dense, &t.pairs, model, 0).expect("one block");
    let crab = |fits: &[BTreeMap<String, Estimate>; 5]| match &fits[0]["crab"] {
        Estimate::Effect(e) => (e.logit, e.logit_se),
        other => panic!("crab has an effect: {other:?}"),
    };
    let (logit, se) = crab(&held);
    assert!(logit > 0.1 && se > 0.0, "crab wins a tenth more often: {logit} ± {se}");
    for other in [&read, &whole] {
        let (l, s) = crab(other);
        assert!(
            (l - logit).abs() < 1e-9 && (s - se).abs() < 1e-9,
            "{l} ± {s} against {logit} ± {se}"
        );
    }
}
