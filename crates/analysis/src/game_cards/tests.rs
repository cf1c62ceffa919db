use super::*;

/// Game `g` of `decks` with seat 0's score `y`.
fn list(games: &[(u32, u32, f64)]) -> GameList {
    GameList {
        ids: (0..games.len() as u64).collect(),
        left: games.iter().map(|g| g.0).collect(),
        right: games.iter().map(|g| g.1).collect(),
        left_score: games.iter().map(|g| g.2).collect(),
    }
}

fn seen(game: u32, right: bool, card: u32, flags: u8) -> CardSeen {
    CardSeen {
        game,
        right,
        card,
        flags,
        first_played: if flags & 4 != 0 { 3 } else { 0 },
        plays: u32::from(flags & 4 != 0),
        energy: if flags & 4 != 0 { 2 } else { 0 },
    }
}

fn keys(n: usize) -> Vec<String> {
    (0..n).map(|c| format!("card{c}")).collect()
}

/// A strong deck's wins are not its cards': deck 0 wins 80% of its games
/// whether card 0 is in hand or not, so the card's in-hand gap is 0 while
/// its holders' score with it in hand is 80%. The misreading: a card's
/// figure against the games of other decks (or pooled over decks), which
/// would credit the deck's strength to every card it holds.
#[test]
fn a_strong_decks_wins_are_not_credited_to_its_cards() {
    let mut games = Vec::new();
    let mut cards = Vec::new();
    for g in 0..1000u32 {
        let win = if g % 5 == 0 { 0.0 } else { 1.0 };
        games.push((0, 1, win));
        // In hand in every other game, independent of the outcome.
        if (g / 5) % 2 == 0 {
            cards.push(seen(g, false, 0, 0b010));
        }
    }
    let holds = vec![vec![0], vec![1]];
    let rows = card_rows(&list(&games), &cards, &holds, &keys(2), &keys(2), [0.45, 0.55]);
    let row = rows.iter().find(|r| r.key == "card0").expect("card 0's row");
    assert_eq!(row.sides, 1000);
    assert!((row.in_hand_share - 0.5).abs() < 1e-12);
    assert!((row.in_hand_score.expect("a score") - 0.8).abs() < 1e-12);
    let gap = row.gaps[1].expect("an in-hand gap");
    assert!(gap.value.abs() < 1e-12, "{gap:?}");
    assert!(gap.low < 0.0 && gap.high > 0.0);
    assert!(!row.outside_band);
    // Never in the opening hand: that comparison has no stratum with both.
    assert!(row.gaps[0].is_none());
}

/// In one stratum the gap is the difference of two proportions and its
/// standard error the two samples' (a game holds one holder): the
/// interval equals the textbook one. A card whose side wins whenever it
/// is in hand is flagged. The misreading: the variance of one sample
/// only, or of the pooled scores.
#[test]
fn one_stratums_gap_has_the_two_samples_standard_error() {
    let mut games = Vec::new();
    let mut cards = Vec::new();
    // 400 games in hand (300 won), 600 not (240 won).
    for g in 0..1000u32 {
        let (held, win) = if g < 400 { (true, g < 300) } else { (false, g < 640) };
        games.push((0, 1, if win { 1.0 } else { 0.0 }));
        if held {
            cards.push(seen(g, false, 0, 0b111));
        }
    }
    let holds = vec![vec![0], vec![]];
    let rows = card_rows(&list(&games), &cards, &holds, &keys(1), &keys(1), [0.45, 0.55]);
    let gap = rows[0].gaps[1].expect("a gap");
    let (p1, p0) = (0.75, 0.4);
    assert!((gap.value - (p1 - p0)).abs() < 1e-12);
    let se = (p1 * (1.0 - p1) / 400.0 + p0 * (1.0 - p0) / 600.0).sqrt();
    assert!(
        ((gap.high - gap.value) / Z95 - se).abs() < 1e-12,
        "{gap:?} against {se}"
    );
    assert!(
        rows[0].outside_band,
        "a 35-point opening-hand gap lies beyond a 5-point half-band"
    );
    assert_eq!(rows[0].first_played_turn, Some(3.0));
    assert_eq!(rows[0].energy_paid, Some(2.0));
    assert!((rows[0].played_share - 0.4).abs() < 1e-12);
}

/// Both sides of a game are one unit: in mirrors of a deck holding the
/// card, exactly one side has it in hand and that side wins three games
/// in four. The two sides' distances from their means are tied (one
/// side's win is the other's loss), so summed within the game the
/// variance is 0.75 / N, twice what counting the sides as independent
/// gives (0.375 / N). The misreading: sides counted apart.
#[test]
fn both_sides_of_a_game_count_as_one() {
    let n = 2000u32;
    let mut games = Vec::new();
    let mut cards = Vec::new();
    for g in 0..n {
        let left_has = g % 2 == 0;
        // The holder wins unless g % 4 == 0: three games in four.
        let holder_won = g % 4 != 0;
        let y = if left_has == holder_won { 1.0 } else { 0.0 };
        games.push((0, 0, y));
        cards.push(seen(g, !left_has, 0, 0b010));
    }
    let holds = vec![vec![0]];
    let rows = card_rows(&list(&games), &cards, &holds, &keys(1), &keys(1), [0.45, 0.55]);
    let gap = rows[0].gaps[1].expect("a gap");
    assert!((gap.value - 0.5).abs() < 1e-12, "{gap:?}");
    let se = (gap.high - gap.value) / Z95;
    assert!((se * se - 0.75 / f64::from(n)).abs() < 1e-12, "{gap:?}");
}

/// Paired changes: deck 0 turns a tenth of its losses to deck 1 into wins
/// against the baseline; deck 0 and a card only it holds rise beyond
/// noise, deck 1 falls, and a card both decks hold changes by nothing
/// (one side's gain is the other's loss). The misreadings: the change of
/// a shared card counted from one seat, or runs with other games paired.
#[test]
fn a_paired_change_is_found_and_a_shared_card_cancels() {
    let mut base = Vec::new();
    let mut now = Vec::new();
    for g in 0..4000u32 {
        let y = if g % 2 == 0 { 1.0 } else { 0.0 };
        base.push((0, 1, y));
        now.push((0, 1, if g % 20 == 1 { 1.0 } else { y }));
    }
    let holds = vec![vec![0, 2], vec![1, 2]];
    let names = keys(3);
    let (now, base) = (list(&now), list(&base));
    let mut rows = card_rows(&now, &[], &holds, &names, &names, [0.45, 0.55]);
    let decks = compare(&mut rows, (&now, &[]), (&base, &[]), &holds, &names, 0.05).expect("paired");
    let d0 = decks[0].expect("deck 0");
    assert!((d0.delta - 0.05).abs() < 1e-12 && d0.significant, "{d0:?}");
    assert!(decks[1].expect("deck 1").delta < 0.0);
    let card = |k: &str| {
        rows.iter()
            .find(|r| r.key == k)
            .and_then(|r| r.change)
            .expect("a change")
    };
    assert!(card("card0").significant && (card("card0").delta - 0.05).abs() < 1e-12);
    assert!(card("card2").delta.abs() < 1e-12 && !card("card2").significant);
    let mut other = base.clone();
    other.right[7] = 0;
    assert!(compare(&mut rows, (&now, &[]), (&other, &[]), &holds, &names, 0.05).is_err());
}

/// A card made stronger moves its own in-hand gap, and a card beside it
/// in the same deck does not: deck 0 holds cards 0 and 1, each in hand in
/// half its games, independently; in the new run deck 0 wins every game
/// in which card 0 was in hand and it lost before. Both cards' holders'
/// score rises alike, but only card 0's gap change is beyond noise. The
/// misreading: a card flagged by its deck's change, which would flag
/// every card of the deck.
#[test]
fn a_gap_change_points_at_the_card_not_its_deck() {
    let (mut base, mut now, mut seen) = (Vec::new(), Vec::new(), Vec::new());
    for g in 0..8000u32 {
        let (has0, has1) = (g % 2 == 0, (g / 2) % 2 == 0);
        let y = if (g / 4) % 2 == 0 { 1.0 } else { 0.0 };
        base.push((0, 1, y));
        now.push((0, 1, if has0 { 1.0 } else { y }));
        if has0 {
            seen.push(seen_flags(g, 0));
        }
        if has1 {
            seen.push(seen_flags(g, 1));
        }
    }
    let holds = vec![vec![0, 1], vec![2]];
    let names = keys(3);
    let (now, base) = (list(&now), list(&base));
    let mut rows = card_rows(&now, &seen, &holds, &names, &names, [0.45, 0.55]);
    compare(&mut rows, (&now, &seen), (&base, &seen), &holds, &names, 0.05).expect("paired");
    let row = |k: &str| rows.iter().find(|r| r.key == k).expect("a row");
    let (c0, c1) = (row("card0"), row("card1"));
    let (g0, g1) = (
        c0.gap_change.expect("a gap change"),
        c1.gap_change.expect("a gap change"),
    );
    assert!(c0.change.expect("a change").significant && c1.change.expect("a change").significant);
    assert!((g0.delta - 0.5).abs() < 1e-9 && g0.significant, "{g0:?}");
    assert!(g1.delta.abs() < 1e-9 && !g1.significant, "{g1:?}");
}

fn seen_flags(game: u32, card: u32) -> CardSeen {
    seen(game, false, card, 0b010)
}
