//! What must hold between any two events of a fight, checked after every
//! fight in debug builds (and by the scenarios after every step).

use super::*;

impl Engine<'_> {
    /// The engine's consistency checks: the state every rule keeps true,
    /// and the incremental state (standing counts, running Crush totals)
    /// equal to what a full scan of the columns finds. Run after every
    /// fight in builds with debug assertions (`cargo test` in the dev
    /// profile, as CI does), and by tests and the fuzz loop directly.
    pub fn check_invariants(&self) -> Result<(), Broken> {
        let u = &self.u;
        if self.now > self.rules.overtime.cap_ms {
            return Err(Broken(format!("time {} past the cap (900.42d)", self.now)));
        }
        let mut standing = [0u16; 2];
        for i in 0..u.count {
            let (v, m) = (u.vitality[i], u.max_vitality[i]);
            if !(0..=m).contains(&v) {
                return Err(Broken(format!("unit {i}: Vitality {v} outside 0..={m}")));
            }
            if !u.alive[i] && v != 0 {
                return Err(Broken(format!("unit {i}: dead but holds Vitality {v}")));
            }
            if u.alive[i] && v == 0 {
                return Err(Broken(format!("unit {i}: alive at 0 Vitality (500.4)")));
            }
            if (self.clock.targetable >> i) & 1 != u64::from(self.targetable_now(i)) {
                return Err(Broken(format!("unit {i}: targetable bit differs from its columns")));
            }
            if let Some(k) = u.negative_stack(i) {
                return Err(Broken(format!(
                    "unit {i}: {} is negative ({})",
                    k.label(),
                    u.stack(k, i)
                )));
            }
            for (name, value) in [
                ("Roost bonus", u.roost_bonus[i]),
                ("Roost percent", u.roost_percent[i]),
                ("charge", self.charge(UnitIdx(i as u8))),
            ] {
                if value < 0 {
                    return Err(Broken(format!("unit {i}: {name} is negative ({value})")));
                }
            }
            for &s in TimedStatus::ALL {
                if u.timer(s, i) < 0 {
                    return Err(Broken(format!(
                        "unit {i}: {} time left is negative ({})",
                        s.label(),
                        u.timer(s, i)
                    )));
                }
            }
            if u.burn[i] > self.rules.burn.cap {
                return Err(Broken(format!("unit {i}: Burn {} over the cap (900.33e)", u.burn[i])));
            }
            let crush = &u.crush[i];
            let sum: i64 = crush.running().iter().map(|w| i64::from(w.amount)).sum();
            if sum != i64::from(crush.total()) {
                return Err(Broken(format!(
                    "unit {i}: running Crush total {} but windows hold {sum}",
                    crush.total()
                )));
            }
            if crush.running().windows(2).any(|w| w[0].expires_ms > w[1].expires_ms) {
                return Err(Broken(format!("unit {i}: Crush windows out of expiry order")));
            }
            if u.alive[i] && self.is_combatant(UnitIdx(i as u8)) {
                standing[u.side[i].index()] += 1;
            }
        }
        if standing != self.standing {
            return Err(Broken(format!(
                "standing counts {:?} but the columns hold {standing:?}",
                self.standing
            )));
        }
        for side in [Side::Left, Side::Right] {
            let (now, live) = (self.resonance.level[side.index()], self.active_resonance_level(side));
            if self.side_runes[side.index()].resonance.is_some() && now != live {
                return Err(Broken(format!(
                    "{} resonance level {now} but its active sources make {live} (800.58d)",
                    side.name()
                )));
            }
        }
        Ok(())
    }
}

impl Units {
    /// The first count of unit `i` below 0, if any: every count of
    /// `stacks!` is a number of stacks or points, never negative.
    fn negative_stack(&self, i: usize) -> Option<Stack> {
        Stack::ALL.iter().copied().find(|&k| self.stack(k, i) < 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check covers every count of the list, the ones added after it
    /// was written too (Overclock, Haywire, Feral, Kindled, Consecrate,
    /// Interest and Vessels were once left out of a hand-kept list).
    #[test]
    fn every_count_is_checked_for_being_negative() {
        let mut u = Units::with_capacity();
        u.count = 2;
        assert_eq!(u.negative_stack(1), None);
        for &k in Stack::ALL {
            *u.stack_mut(k, 1) = -1;
            assert_eq!(u.negative_stack(1), Some(k), "{} below 0 is caught", k.label());
            assert_eq!(u.negative_stack(0), None, "only unit 1 holds it");
            *u.stack_mut(k, 1) = 3;
            assert_eq!(u.negative_stack(1), None);
        }
    }
}
