//! A unit's stats as the rules derive them from its columns: Power, Speed,
//! Armor, Focus, targetability and the statuses that bear on them.

use super::possible::Feature;
use super::*;

impl Engine<'_> {
    #[inline]
    pub(super) fn line(&self, u: UnitIdx) -> gridsim_model::catalog::StatLine {
        self.u.line[u.i()]
    }

    /// The `while_insured` layer, present while any point is held (800.37h).
    /// Slots: Power, Speed, Armor, Focus.
    pub(super) fn insured(&self, u: UnitIdx, slot: usize) -> i32 {
        let i = u.i();
        if self.possible.any(Feature::InsuredLayers) && (self.u.insurance[i] > 0 || self.u.subrogated[i] > 0) {
            self.u.insured_layer[i][slot]
        } else {
            0
        }
    }

    /// Effective Power: printed, plus gains, less Dread (800.17a), plus
    /// adjacent allies' Consecrate (800.10a), plus Fury's
    /// 1 per 2 Focus (800.28a); Brute then takes 33% (800.7a). Never below 0.
    /// Then doubled while Lucid for a card that says so (800.41c), and
    /// halved while Blind (800.3a), in that order (800.3b).
    #[inline]
    pub fn power(&self, u: UnitIdx) -> i32 {
        let i = u.i();
        let r = &self.rules;
        // Sums in 64 bits: stat layers added together never overflow.
        let mut p = arith::clamp_i32(
            i64::from(self.line(u).power) + i64::from(self.u.power_bonus[i]) + i64::from(self.insured(u, 0))
                - i64::from(self.u.dread[i]) * i64::from(r.dread.power_per_stack)
                + i64::from(self.u.kindled[i]) * i64::from(r.kindled.power_per_stack)
                + i64::from(self.u.overclock[i]) * i64::from(r.overclock.power_per_stack),
        );
        if self.possible.on(Feature::Consecrate, self.u.side[i].index()) {
            p = p.saturating_add(self.consecrated(u));
        }
        if self.u.fury[i] || (self.possible.on(Feature::FuryAura, self.u.side[i].index()) && self.fury_aura_reaches(u))
        {
            p = p.saturating_add(self.focus(u).max(0) / r.fury.focus_per_power.max(1));
        }
        if self.u.brute[i] && self.adjacent_living_tools(u) >= r.brute.tool_threshold {
            p -= arith::percent_of(p.max(0), r.brute.power_loss_percent);
        }
        let mut p = p.max(0);
        // 800.41c, 900.32d: doubled while Lucid, before Blind halves it.
        if self.u.lucid_power[i] && self.u.vitality[i] == self.u.max_vitality[i] {
            p = p.saturating_mul(2);
        }
        // 800.3a, 800.3b: Blind's loss, read from effective Power last,
        // never below the floor (a unit already under it keeps what it has).
        if self.u.blind_ms[i] > 0 {
            let floor = r.blind.power_floor.min(p);
            p = (p - arith::percent_of(p, r.blind.power_loss_percent)).max(floor);
        }
        p
    }
    /// Speed: printed, plus gains, less 1 per 2 Dread stacks (800.17a),
    /// plus 1.5 per Kindled stack, the total rounded up (800.39a), plus 4
    /// per Overclock stack (800.45a).
    pub fn speed(&self, u: UnitIdx) -> i32 {
        let i = u.i();
        let halves = i64::from(self.u.kindled[i]) * i64::from(self.rules.kindled.speed_halves_per_stack);
        arith::clamp_i32(
            i64::from(self.line(u).speed)
                + i64::from(self.u.speed_bonus[i])
                + i64::from(self.insured(u, INSURED_SPEED))
                - i64::from(self.u.dread[i] / 2) * i64::from(self.rules.dread.speed_per_two_stacks)
                + (halves + 1).div_euclid(2)
                + i64::from(self.u.overclock[i]) * i64::from(self.rules.overclock.speed_per_stack),
        )
    }

    /// Whether the unit is Ignited: 3 or more Kindled stacks, read live
    /// (800.35a, 800.35b).
    pub fn ignited(&self, u: UnitIdx) -> bool {
        self.u.kindled[u.i()] >= self.rules.kindled.ignited_at
    }

    /// Power that adjacent allies' Consecrate gives `u`: 1 per stack of
    /// each living, awake neighbour, read from the board every time
    /// (800.10a, 800.10b, 800.16c).
    pub(super) fn consecrated(&self, u: UnitIdx) -> i32 {
        let (side, at) = (self.u.side[u.i()], self.u.rect[u.i()]);
        let mut sum = 0i32;
        for &c in self.side_order[side.index()].as_slice() {
            let j = c.i();
            if j != u.i()
                && self.u.consecrate[j] > 0
                && self.u.alive[j]
                && !self.u.dormant[j]
                && geometry::adjacent(at, self.u.rect[j])
            {
                sum = sum.saturating_add(self.u.consecrate[j]);
            }
        }
        sum
    }

    /// Whether `u` is Relentless now: for the battle (innate or granted) or
    /// for a time still running, and not suppressed (800.56g).
    #[inline]
    pub fn is_relentless(&self, u: UnitIdx) -> bool {
        let i = u.i();
        self.u.relentless[i] || self.u.relentless_ms[i] > 0
    }

    /// Whether `u` has a negative status, Dread included (800.17e).
    pub fn has_negative_status(&self, u: UnitIdx) -> bool {
        let i = u.i();
        let c = &self.u;
        c.burn[i] > 0
            || c.venom[i] > 0
            || c.maim[i] > 0
            || c.negative_timer_running(i)
            || c.crush[i].total() != 0
            || c.haywire[i] > 0
            || c.feral[i] > 0
            || c.dread[i] > 0
            || c.interest[i] > 0
    }

    /// Whether a living adjacent ally that is Ignited projects Fury onto
    /// `u` (800.35c). Read from the board every time, so overlapping
    /// sources never stack and a move or a death removes the grant.
    pub(super) fn fury_aura_reaches(&self, u: UnitIdx) -> bool {
        let (side, at) = (self.u.side[u.i()], self.u.rect[u.i()]);
        self.side_order[side.index()].as_slice().iter().any(|&c| {
            let j = c.i();
            j != u.i()
                && self.u.alive[j]
                && self.u.ignited_fury_aura[j]
                && !self.u.dormant[j]
                && self.ignited(c)
                && geometry::adjacent(at, self.u.rect[j])
        })
    }
    /// Effective Armor: printed, plus gains, less Dread and running Crushes,
    /// plus 1 per Overclock stack (800.45a); may be negative (800.12h).
    pub fn armor(&self, u: UnitIdx) -> i32 {
        let i = u.i();
        arith::clamp_i32(
            i64::from(self.line(u).armor) + i64::from(self.u.armor_bonus[i]) + i64::from(self.insured(u, 2))
                - i64::from(self.u.dread[i]) * i64::from(self.rules.dread.armor_per_stack)
                - i64::from(self.u.crush[i].total())
                + i64::from(self.u.overclock[i]) * i64::from(self.rules.overclock.armor_per_stack),
        )
    }
    pub fn focus(&self, u: UnitIdx) -> i32 {
        arith::clamp_i32(
            i64::from(self.line(u).focus) + i64::from(self.u.focus_bonus[u.i()]) + i64::from(self.insured(u, 3)),
        )
    }

    /// Distinct living allied Tools sharing an edge with `u` (800.7b).
    pub fn adjacent_living_tools(&self, u: UnitIdx) -> i32 {
        let r = self.u.rect[u.i()];
        let side = self.u.side[u.i()];
        self.u
            .indices()
            .filter(|&j| {
                self.u.alive[j]
                    && self.u.side[j] == side
                    && self.u.kind[j] == CardKind::Tool
                    && geometry::adjacent(r, self.u.rect[j])
            })
            .count() as i32
    }

    pub fn is_enemy(&self, a: UnitIdx, b: UnitIdx) -> bool {
        self.u.side[a.i()] != self.u.side[b.i()]
    }

    /// Alive, not Entrapped, not Dormant, not a Tool or Hub: the filter for
    /// targets and for every unit count (900.5b, 900.5d).
    #[inline]
    pub fn is_targetable(&self, u: UnitIdx) -> bool {
        let held = self.clock.targetable & (1u64 << u.i()) != 0;
        debug_assert_eq!(
            held,
            self.targetable_now(u.i()),
            "unit {}'s targetable bit went stale at {} ms: a write missed touch_clock",
            u.i(),
            self.now
        );
        held
    }

    /// [`Engine::is_targetable`] from the columns.
    pub(super) fn targetable_now(&self, i: usize) -> bool {
        self.u.alive[i] && self.u.entrap_ms[i] == 0 && !self.u.dormant[i] && !self.u.kind[i].is_object()
    }

    #[inline]
    pub(super) fn refresh_targetable(&mut self, i: usize) {
        let bit = 1u64 << i;
        self.clock.targetable = if self.targetable_now(i) {
            self.clock.targetable | bit
        } else {
            self.clock.targetable & !bit
        };
    }
}
