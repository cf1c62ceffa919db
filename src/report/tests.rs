use super::*;
use crate::sink::BoardRow;

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
fn field(boards: u32, strong: u32, edge: f64, fights: u64) -> (Tallies, BoardTable) {
    use crate::analysis::MatchupTally;
    let rows: Vec<BoardRow> = (0..boards)
        .map(|id| BoardRow {
            board_id: id,
            name: format!("b{id}"),
            cards: if id < strong {
                vec!["crab".into(), "fox".into()]
            } else {
                vec!["fox".into()]
            },
            tiers: vec![1; if id < strong { 2 } else { 1 }],
            runes: Vec::new(),
            rune_tiers: Vec::new(),
            resonance: String::new(),
            keywords: Vec::new(),
            footprints: Vec::new(),
        })
        .collect();
    let mut matchups = Vec::new();
    for l in 0..boards {
        for r in 0..boards {
            let p = 0.5 + edge * (f64::from(u8::from(l < strong)) - f64::from(u8::from(r < strong)));
            let left_wins = (p * fights as f64).round() as u64;
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
