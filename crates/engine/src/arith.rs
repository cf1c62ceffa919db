//! The engine's shared arithmetic: percentages and their roundings,
//! clamping a 64-bit intermediate back into the state's i32 range, and
//! times moved earlier. Every rule file that rounds a percentage or moves
//! a time comes here, so each rounding the rules name is written once.

use super::NEVER;

/// A 64-bit intermediate back into the i32 state range.
pub(crate) fn clamp_i32(v: i64) -> i32 {
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// `amount * percent / 100` (rounded toward zero, as in i32), computed in
/// 64 bits and clamped to the i32 range: every percentage of a state value
/// goes through here, so a large Reflect, Exalt stack or Feast cannot
/// overflow.
pub(crate) fn percent_of(amount: i32, percent: i32) -> i32 {
    clamp_i32(i64::from(amount) * i64::from(percent) / 100)
}

/// `amount * percent / 100`, rounded up (toward positive infinity).
pub(crate) fn percent_up(amount: i32, percent: i32) -> i32 {
    clamp_i32((i64::from(amount) * i64::from(percent) + 99).div_euclid(100))
}

/// `amount * percent / 100`, rounded to the nearest point, halves up.
pub(crate) fn percent_nearest(amount: i32, percent: i32) -> i32 {
    clamp_i32((i64::from(amount) * i64::from(percent) + 50).div_euclid(100))
}

/// `a / b` rounded up for a positive `a`, 0 otherwise; `b` is positive.
pub(crate) fn div_ceil(a: i32, b: i32) -> i32 {
    if a <= 0 {
        0
    } else {
        ((i64::from(a) + i64::from(b) - 1) / i64::from(b)) as i32
    }
}

/// An absolute time `dt` ms earlier; `NEVER` stays never.
pub(crate) fn earlier(at: i32, dt: i32) -> i32 {
    if at == NEVER { NEVER } else { at.saturating_sub(dt) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_of_large_values_clamp_instead_of_overflowing() {
        // Reflect of a huge loss (900.26f), Exalt stacks (800.63c), Feast:
        // every percentage goes through percent_of.
        assert_eq!(percent_of(2_000_000_000, 150), i32::MAX);
        assert_eq!(percent_of(-2_000_000_000, 150), i32::MIN);
        assert_eq!(percent_of(1_000, 33), 330);
        assert_eq!(percent_of(7, 50), 3, "rounds toward zero like i32 division");
        assert_eq!(div_ceil(i32::MAX, 2), 1_073_741_824);
    }

    #[test]
    fn each_rounding_of_a_percentage_rounds_its_own_way() {
        assert_eq!(percent_up(7, 50), 4);
        assert_eq!(percent_up(-7, 50), -3, "up is toward positive infinity");
        assert_eq!(percent_nearest(5, 50), 3, "a half rounds up");
        assert_eq!(percent_nearest(7, 33), 2);
        assert_eq!(percent_up(i32::MAX, 200), i32::MAX);
        assert_eq!(earlier(NEVER, 5), NEVER);
        assert_eq!(earlier(10, 5), 5);
    }
}
