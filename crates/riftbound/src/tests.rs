use super::*;

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
