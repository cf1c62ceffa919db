//! The seeded policy's choices: legal, covering every option, and at the
//! odds it states. The misreadings each catches: an index past the list
//! (a panic in a run), a choice that never reaches some option (a card a
//! suite never plays), odds other than the policy's.

use super::*;

fn rng() -> FightRng {
    FightRng::for_fight(20261205, 7)
}

#[test]
fn a_spell_is_played_at_the_policys_rate_and_any_may_be_chosen() {
    let mut r = rng();
    let castable = [3, 5, 8];
    let mut never = Seeded {
        policy: Policy { cast_percent: 0 },
        rng: &mut r,
    };
    assert!((0..200).all(|_| never.play(0, &castable).is_none()));
    let mut r = rng();
    let mut always = Seeded {
        policy: Policy { cast_percent: 100 },
        rng: &mut r,
    };
    assert_eq!(always.play(1, &[]), None, "nothing to play: a pass");
    let mut seen = [0; 3];
    for _ in 0..300 {
        seen[always.play(1, &castable).expect("a play at 100%")] += 1;
    }
    assert!(seen.iter().all(|&n| n > 60), "{seen:?}");
    let mut r = rng();
    let mut half = Seeded {
        policy: Policy { cast_percent: 50 },
        rng: &mut r,
    };
    let played = (0..1000).filter(|_| half.play(0, &castable).is_some()).count();
    assert!((400..600).contains(&played), "{played} of 1000 at 50%");
}

#[test]
fn targets_discards_and_orders_are_legal_and_reach_every_option() {
    let mut r = rng();
    let mut s = Seeded {
        policy: Policy { cast_percent: 50 },
        rng: &mut r,
    };
    let legal = [UnitId(2), UnitId(4), UnitId(9), UnitId(11)];
    let mut hit = [false; 4];
    for _ in 0..200 {
        hit[s.target(0, 1, None, &legal)] = true;
    }
    assert_eq!(hit, [true; 4]);
    let hand = [1, 2, 3];
    let mut hit = [false; 3];
    for _ in 0..200 {
        hit[s.discard(1, &hand)] = true;
    }
    assert_eq!(hit, [true; 3]);
    assert_eq!(s.discard(1, &[]), 0, "an empty hand: the index a caller clamps");
    let mut firsts = [false; 4];
    for _ in 0..200 {
        let mut items = [(0, None), (1, Some(UnitId(3))), (2, None), (3, Some(UnitId(5)))];
        s.order(0, &mut items);
        let mut places: Vec<usize> = items.iter().map(|i| i.0).collect();
        firsts[places[0]] = true;
        places.sort_unstable();
        assert_eq!(places, [0, 1, 2, 3], "a permutation");
        let mut targets = legal;
        s.damage_order(1, &mut targets);
        let mut sorted = targets;
        sorted.sort_unstable_by_key(|u| u.0);
        assert_eq!(sorted, legal);
    }
    assert_eq!(firsts, [true; 4], "every item may go first");
    assert!(s.prudent(), "the seeded policy recalls only to save a unit");
}

#[test]
fn optional_effects_and_hiding_are_even_odds() {
    let mut r = rng();
    let mut s = Seeded {
        policy: Policy { cast_percent: 50 },
        rng: &mut r,
    };
    let may = (0..1000).filter(|_| s.may(0, 3)).count();
    let hide = (0..1000).filter(|_| s.hide(1, 3)).count();
    assert!((400..600).contains(&may), "{may}");
    assert!((400..600).contains(&hide), "{hide}");
}

#[test]
fn a_shuffle_is_a_permutation_that_moves_every_place() {
    let mut r = rng();
    let mut last_place = [false; 5];
    for _ in 0..300 {
        let mut xs = [0, 1, 2, 3, 4];
        shuffle(&mut xs, &mut r);
        last_place[xs[4]] = true;
        let mut sorted = xs;
        sorted.sort_unstable();
        assert_eq!(sorted, [0, 1, 2, 3, 4]);
    }
    assert_eq!(last_place, [true; 5]);
}
