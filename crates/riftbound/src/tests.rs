use super::*;
use cards::Passive;

/// RB38's sequence, worked: −3 to a 2-Might unit with a minimum of 1
/// applies −1, and +3 later that turn makes it 4, not 2.
/// No printed number panics: Might and Buffs at the ends of `i32`
/// saturate, in the dev profile's overflow checks too.
#[test]
fn extreme_numbers_saturate() {
    let mut b = Board::default();
    let u = b.add_unit(i32::MAX).unwrap();
    b.buff(u);
    b.modify(u, i32::MAX, None, Lasts::Turn);
    assert_eq!(b.might(u), i32::MAX);
    let v = b.add_unit(i32::MIN).unwrap();
    b.modify(v, i32::MIN, Some(i32::MAX), Lasts::Turn);
    assert_eq!(b.calculated_might(v), i32::MIN);
    assert_eq!(b.might(v), 0);
}

/// RB30, RB31: a banished unit keeps nothing of the board: no Buff,
/// no modifier, no battlefield or aura Might; what is read of it
/// after is its printed Might.
#[test]
fn a_unit_off_the_board_keeps_no_modification() {
    let mut b = Board {
        field_might: 1,
        ..Board::default()
    };
    let source = b.add_unit(2).unwrap();
    let u = b.add_unit(3).unwrap();
    b.buff(u);
    b.modify(u, 2, None, Lasts::Turn);
    b.add_aura(source, u, 1);
    assert_eq!(b.calculated_might(u), 3 + 1 + 2 + 1 + 1);
    b.banish(u);
    assert_eq!(b.buffs(u), 0);
    assert_eq!(b.calculated_might(u), 3);
    b.check_invariants();
}

#[test]
fn a_floored_reduction_keeps_what_it_applied() {
    let mut b = Board::default();
    let u = b.add_unit(2).unwrap();
    assert_eq!(b.modify(u, -3, Some(1), Lasts::Turn), -1);
    assert_eq!(b.might(u), 1);
    b.modify(u, 3, None, Lasts::Turn);
    assert_eq!(b.might(u), 4);
    b.end_turn();
    assert_eq!(b.might(u), 2, "both end with the turn");
}

/// Passive Might abilities (Core Rules 361: a statement of fact, true
/// while its unit is on the board) reach their controller's units where
/// the unit is, and no further. Darius, Executioner ("other friendly units
/// here +1"): the misreadings caught are himself counted, an enemy
/// counted, a friend at the base counted, and the Might kept once he has
/// left the board.
#[test]
fn a_passive_gives_other_friendly_units_here_might() {
    let mut b = Board::default();
    let darius = b.add_unit(6).unwrap();
    b.set_passive(darius, Some(Passive::OthersHere(1)));
    let friend = b.add_unit(2).unwrap();
    let at_base = b.add_unit(2).unwrap();
    b.place(at_base, true);
    let enemy = b.add_unit(2).unwrap();
    b.set_controller(enemy, 1);
    assert_eq!([darius, friend, at_base, enemy].map(|u| b.might(u)), [6, 3, 2, 2]);
    b.banish(darius);
    assert_eq!(b.might(friend), 2, "gone with him");
    b.check_invariants();
}

/// Lee Sin, Centered ("other buffed friendly units +2"): a Buff is worth
/// +3 to the others, +1 to himself; Sett, Kingpin ("+1 for each buffed
/// friendly unit at my battlefield"): himself counted, none at his base.
/// The misreadings caught: Lee Sin counting himself, the bonus to an
/// unbuffed unit, Sett not counting himself, Sett's bonus at his base.
#[test]
fn passives_read_the_buffs_of_friendly_units() {
    let mut b = Board::default();
    let lee = b.add_unit(6).unwrap();
    b.set_passive(lee, Some(Passive::OtherBuffedHere(2)));
    b.buff(lee);
    let buffed = b.add_unit(2).unwrap();
    b.buff(buffed);
    let plain = b.add_unit(2).unwrap();
    assert_eq!([lee, buffed, plain].map(|u| b.might(u)), [7, 5, 2]);
    let mut b = Board::default();
    let sett = b.add_unit(5).unwrap();
    b.set_passive(sett, Some(Passive::PerBuffedHere(1)));
    b.buff(sett);
    let friend = b.add_unit(2).unwrap();
    b.buff(friend);
    assert_eq!(
        b.might(sett),
        5 + 1 + 2,
        "his Buff, and one for each buffed unit, himself too"
    );
    assert_eq!(b.might(friend), 3, "Sett's passive is his alone");
    b.place(sett, true);
    assert_eq!(b.might(sett), 6, "none at his base");
}
