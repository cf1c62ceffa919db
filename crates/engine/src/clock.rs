//! The event loop and the charge clock (300.2): time advances to the next
//! due event, resolves it, expires timers and checks the end.

use super::*;

/// The keywords that tick on a schedule of their own: each a column
/// holding its next tick (a [`Ticker`]) and the function that resolves a
/// tick, in the order one step resolves them. Called once, in lib.rs, with
/// the counts of `stacks!` that tick (Burn 800.8, Venom 800.73, Roost
/// 800.59) and the timed sets (Hallow 800.29, Fleeting 800.25): the
/// clock's earliest tick, the ticks run at a step, their stop at a death
/// and their times carried into a continued fight (200.2c) are generated
/// from that list.
macro_rules! tickers {
    ($( $column:ident => $tick:ident, )*) => {
        impl Engine<'_> {
            /// Unit `i`'s earliest tick of any keyword.
            #[inline]
            fn next_tick_of(&self, i: usize) -> i32 {
                NEVER $( .min(Ticker::next_ms(&self.u.$column[i])) )*
            }

            /// Resolves each of unit `u`'s ticks that is due, in the list's
            /// order, while the unit lives.
            fn run_due_ticks(&mut self, u: UnitIdx) {
                $(
                    if Ticker::next_ms(&self.u.$column[u.i()]) <= self.now && self.u.alive[u.i()] {
                        self.$tick(u);
                    }
                )*
            }

            /// Stops every tick of unit `i`: it died.
            pub(crate) fn stop_ticks(&mut self, i: usize) {
                $( Ticker::stop(&mut self.u.$column[i]); )*
            }
        }

        impl UnitRow {
            /// Every tick `dt` ms earlier: the row carried into a fight
            /// whose clock starts `dt` ms after this one's (200.2c).
            pub(crate) fn rebase_ticks(&mut self, dt: i32) {
                $( Ticker::rebase(&mut self.$column, dt); )*
            }
        }
    };
}
pub(crate) use tickers;

/// The unit columns the clock reads (300.2) that no declaration names:
/// whether the unit lives, acts and charges (alive, Dormant, Entrap, an
/// ability, its kind), the parts of its Speed that are no count (tier and
/// printed line, Speed bonus, the insured layer), the Crush windows, the
/// Everlasting countdown, and the charge as last settled. The timers,
/// tickers and counts the clock reads are named by their own rows
/// ([`DECLARED_CLOCK_INPUTS`]); [`clock_inputs`] gives both.
pub const CLOCK_INPUTS: &[&str] = &[
    "alive",
    "dormant",
    "dormant_timed",
    "entrapped",
    "has_ability",
    "kind",
    "tier",
    "native_tier",
    "line",
    "speed_bonus",
    "insured_layer",
    "crush",
    "revive_armed",
    "revive_ms",
    "settled_charge",
    "settled_at_ms",
];

/// Every unit column the clock reads, each written only through
/// [`Engine::write_clock_inputs`] outside this file: `tests/architecture.rs`
/// refuses a write to one anywhere else, and the columns' own writers
/// (`stack_mut`, `timer_mut`, `set_row`, `reset_unit`, `count_down`)
/// called on `self.u`.
pub fn clock_inputs() -> impl Iterator<Item = &'static str> {
    CLOCK_INPUTS.iter().chain(DECLARED_CLOCK_INPUTS).copied()
}

impl Engine<'_> {
    /// Advances time to `stop_ms` (or until the fight ends), resolving every
    /// event on the way in time order.
    pub fn run_until(&mut self, stop_ms: i32) {
        let stop = stop_ms.min(self.rules.overtime.cap_ms);
        while self.outcome.is_none() {
            if self.order_stale {
                self.rebuild_order();
                self.order_stale = false;
            }
            let next = self.next_event_ms();
            if next > stop {
                if stop > self.now {
                    self.advance_clock(stop - self.now);
                    self.now = stop;
                }
                break;
            }
            if next > self.now {
                self.advance_clock(next - self.now);
                self.now = next;
            }
            self.resolve_due();
            if self.now >= self.rules.overtime.cap_ms {
                break;
            }
        }
    }

    /// Combatants hold the fight open: Tools and Hubs never do (800.33b), and
    /// neither does a Dormant unit (800.16a).
    pub fn is_combatant(&self, u: UnitIdx) -> bool {
        !self.u.kind[u.i()].is_object() && !self.u.dormant[u.i()]
    }

    /// Charge per millisecond (300.2, reconstructed): the rate at Speed 0
    /// plus Speed, never below the minimum; Freeze halves it (800.27a).
    pub fn charge_rate(&self, u: UnitIdx) -> i32 {
        let c = self.rules.clock;
        let mut rate = c.rate_at_zero_speed.saturating_add(self.speed(u)).max(c.minimum_rate);
        if self.u.freeze_ms[u.i()] > 0 {
            rate = arith::percent_of(rate, c.freeze_rate_percent).max(1);
        }
        rate
    }

    /// A unit charges unless dead, Stunned (800.68a), Entrapped (800.19a) or
    /// Dormant (800.16d); each of those preserves the charge it has.
    pub fn is_charging(&self, u: UnitIdx) -> bool {
        let i = u.i();
        self.u.alive[i]
            && self.u.has_ability[i]
            && self.u.stun_ms[i] == 0
            && self.u.entrap_ms[i] == 0
            && !self.u.dormant[i]
    }

    /// Sets a unit's charge from outside the clock (activation, scenario
    /// state): its cached due time no longer holds.
    pub(crate) fn set_charge(&mut self, u: UnitIdx, charge: i32) {
        self.u.settled_charge[u.i()] = charge;
        self.u.settled_at_ms[u.i()] = self.now;
        // Nothing else of the clock's inputs moved: only when the charge
        // fills is out of date, and the targetable bit is not.
        self.clock.charge_stale |= 1u64 << u.i();
        if charge >= self.rules.clock.charge_to_activate {
            self.clock.due_ranks |= 1u64 << self.rank[u.i()];
        }
    }

    /// A unit's charge now: what it held at its last settling plus its rate
    /// over the time since (never past `i32::MAX`: charge only grows).
    #[inline]
    pub fn charge(&self, u: UnitIdx) -> i32 {
        let i = u.i();
        let grown = i64::from(self.u.rate_now[i]) * i64::from(self.now - self.u.settled_at_ms[i]);
        arith::clamp_i32(i64::from(self.u.settled_charge[i]) + grown)
    }

    /// The one door for writing a column the clock reads
    /// ([`CLOCK_INPUTS`]): `write` gets the unit columns, and unit `u`'s
    /// clock is marked after it, so no write can leave its cached clock or
    /// its targetable bit stale. A write through it that changes nothing
    /// the clock reads costs a refresh and changes nothing.
    #[inline]
    pub(crate) fn write_clock_inputs<T>(&mut self, u: UnitIdx, write: impl FnOnce(&mut Units) -> T) -> T {
        let written = write(&mut self.u);
        self.touch_clock(u);
        written
    }

    /// Marks a unit whose clock inputs changed: alive, charging gates,
    /// Speed and its layers, timed statuses, tier, Crush windows, Burn and
    /// Venom schedules, charge. A unit holding a full charge is also put
    /// among this step's candidates to activate, as a scan in resolution
    /// order would find it.
    #[inline]
    pub(crate) fn touch_clock(&mut self, u: UnitIdx) {
        self.clock.stale |= 1u64 << u.i();
        self.refresh_targetable(u.i());
        if self.charge(u) >= self.rules.clock.charge_to_activate {
            self.clock.due_ranks |= 1u64 << self.rank[u.i()];
        }
    }

    /// A unit's clock from its columns.
    pub(super) fn clock_of(&self, i: usize) -> UnitClock {
        if !self.u.alive[i] {
            // 800.20b: the Everlasting countdown runs only while dead.
            if self.u.revive_armed[i] {
                let at = self.now.saturating_add(self.u.revive_ms[i]);
                return UnitClock {
                    next_but_full: at,
                    expiry: at,
                    timed: true,
                    ..UnitClock::STOPPED
                };
            }
            return UnitClock::STOPPED;
        }
        let now = self.now;
        let u = UnitIdx(i as u8);
        let (mut rate, mut full) = (0, NEVER);
        if self.is_charging(u) {
            rate = self.charge_rate(u);
            full = self.full_time(self.charge(u), rate);
        }
        let tick = self.next_tick_of(i);
        let mut expiry = self.u.crush[i].earliest_expiry();
        let timers = Timers::of(&self.u, i);
        let status_end = if timers.any() {
            timers.earliest_negative_end(now)
        } else {
            NEVER
        };
        // 800.65a: a Smashed unit returns to its tier when Smash ends.
        if self.u.tier[i] != self.u.native_tier[i] {
            expiry = expiry.min(now.saturating_add(timers.smash_ms));
        }
        // 800.16i, 800.16f: a timed Dormant wakes when its time is up.
        if self.u.dormant_timed[i] {
            expiry = expiry.min(now.saturating_add(timers.dormant_ms));
        }
        // 800.19f: the end of an Entrap fires its own channel.
        if self.u.entrapped[i] {
            expiry = expiry.min(now.saturating_add(timers.entrap_ms));
        }
        let next_but_full = status_end.min(tick).min(expiry);
        UnitClock {
            rate,
            full,
            next_but_full,
            expiry,
            tick,
            timed: timers.any(),
        }
    }

    /// When a charge of `charge` growing by `rate` (positive) per ms fills.
    #[inline]
    pub(super) fn full_time(&self, charge: i32, rate: i32) -> i32 {
        let missing = (self.rules.clock.charge_to_activate - charge).max(0);
        // In 64 bits: a threshold near i32::MAX plus a fast rate would
        // overflow, wrap negative and stall the clock at `now`.
        let steps = (i64::from(missing) + i64::from(rate) - 1) / i64::from(rate);
        arith::clamp_i32(i64::from(self.now) + steps)
    }

    /// The clock of a unit whose charge alone was set (`charge_stale`): the
    /// rate and every other event stay, only when the charge fills moves.
    pub(super) fn refresh_full_time(&mut self, i: usize) {
        let rate = self.u.rate_now[i];
        // A rate of 0 is a unit that does not charge (the rate is at least
        // the positive minimum otherwise): it never fills.
        if rate != 0 {
            self.u.full_ms[i] = self.full_time(self.charge(UnitIdx(i as u8)), rate);
        }
    }

    #[cfg(debug_assertions)]
    pub(super) fn cached_clock(&self, i: usize) -> UnitClock {
        UnitClock {
            rate: self.u.rate_now[i],
            full: self.u.full_ms[i],
            next_but_full: self.u.next_but_full_ms[i],
            expiry: self.u.next_expiry_ms[i],
            tick: self.u.next_tick_ms[i],
            timed: self.clock.timed & (1u64 << i) != 0,
        }
    }

    pub(super) fn refresh_clock(&mut self, i: usize) {
        let c = self.clock_of(i);
        // Settle the charge at the rate that ran until now, before the new one.
        self.u.settled_charge[i] = self.charge(UnitIdx(i as u8));
        self.u.settled_at_ms[i] = self.now;
        self.u.rate_now[i] = c.rate;
        self.u.full_ms[i] = c.full;
        self.u.next_but_full_ms[i] = c.next_but_full;
        self.u.next_expiry_ms[i] = c.expiry;
        self.u.next_tick_ms[i] = c.tick;
        let bit = 1u64 << i;
        self.clock.timed = if c.timed {
            self.clock.timed | bit
        } else {
            self.clock.timed & !bit
        };
        self.clock.eventful = if c.next_but_full != NEVER {
            self.clock.eventful | bit
        } else {
            self.clock.eventful & !bit
        };
    }

    pub(super) fn next_event_ms(&mut self) -> i32 {
        let live = self.u.indices();
        let placed = live_mask(live.end);
        let mut stale = self.clock.stale & placed;
        let mut charged = self.clock.charge_stale & placed & !stale;
        while stale != 0 {
            self.refresh_clock(stale.trailing_zeros() as usize);
            stale &= stale - 1;
        }
        while charged != 0 {
            self.refresh_full_time(charged.trailing_zeros() as usize);
            charged &= charged - 1;
        }
        self.clock.stale = 0;
        self.clock.charge_stale = 0;
        #[cfg(debug_assertions)]
        for i in self.u.indices() {
            debug_assert_eq!(
                self.cached_clock(i),
                self.clock_of(i),
                "unit {i}'s cached clock went stale at {} ms: a write missed touch_clock",
                self.now
            );
            debug_assert_eq!(
                self.clock.eventful & (1u64 << i) != 0,
                self.u.next_but_full_ms[i] != NEVER,
                "unit {i}'s eventful bit differs from its cached clock"
            );
        }
        // The units whose charge fills first, as resolution ranks.
        let (mut full_first, mut full_ranks) = (NEVER, 0u64);
        for i in live {
            let full = self.u.full_ms[i];
            if full <= full_first {
                let bit = 1u64 << self.rank[i];
                full_ranks = if full < full_first { bit } else { full_ranks | bit };
                full_first = full;
            }
        }
        // A unit's next event is its full time or its next other event, so
        // the earliest of all is the earliest full time or the earliest
        // other event of an eventful unit.
        let mut next = full_first
            .min(self.overtime_next_ms)
            .min(self.rules.overtime.cap_ms)
            .min(self.resonance.end_ms());
        let mut expiry_next = NEVER;
        let mut tick_next = NEVER;
        let mut eventful = self.clock.eventful & placed;
        while eventful != 0 {
            let i = eventful.trailing_zeros() as usize;
            eventful &= eventful - 1;
            next = next.min(self.u.next_but_full_ms[i]);
            expiry_next = expiry_next.min(self.u.next_expiry_ms[i]);
            tick_next = tick_next.min(self.u.next_tick_ms[i]);
        }
        self.clock.tick_next_ms = tick_next;
        self.clock.expiry_next_ms = expiry_next;
        let next = next.max(self.now);
        self.clock.due_ranks = if full_first <= next { full_ranks } else { 0 };
        next
    }

    /// Moves every clock forward by `dt` ms. Nothing happens inside `dt`:
    /// it never crosses an event, so rates and pauses are constant over it.
    pub(super) fn advance_clock(&mut self, dt: i32) {
        // Charge needs no write here: it grows from its settling time at
        // `rate_now` (see `Engine::charge`).
        let mut timed = self.clock.timed;
        while timed != 0 {
            let i = timed.trailing_zeros() as usize;
            timed &= timed - 1;
            let mut ended = self.u.count_down(i, dt);
            if self.u.revive_ms[i] > 0 {
                self.u.revive_ms[i] = (self.u.revive_ms[i] - dt).max(0);
                ended |= self.u.revive_ms[i] == 0;
            }
            // A status ending changes what the unit does next (charging,
            // Freeze's pause, Smash's expiry), and a unit whose Stun ends
            // on a full charge is due now, in its reading-order place among
            // the units due in this millisecond (300.2, 800.68a), as a
            // release from Entrap is (800.19f).
            if ended {
                self.touch_clock(UnitIdx(i as u8));
            }
        }
    }

    /// Resolves everything due now: expiries, then damage-over-time ticks,
    /// then overtime, then activations, each in resolution order.
    pub(super) fn resolve_due(&mut self) {
        let order = self.order;
        if self.resonance.end_ms() <= self.now {
            self.end_timed_resonance();
        }
        // Nothing before these passes moves an expiry or a tick earlier, so
        // the earliest found by `next_event_ms` still decides (burn and
        // venom ticks are scheduled at least one positive interval ahead).
        if self.clock.expiry_next_ms <= self.now {
            for &u in order.as_slice() {
                self.expire_timers(u);
            }
        }
        for &u in order.as_slice() {
            if self.outcome.is_some() || self.clock.tick_next_ms > self.now {
                break;
            }
            // The unit's own earliest tick, cached by its clock: ticks are
            // only ever scheduled a positive interval ahead, so none can
            // have become due since.
            if self.u.next_tick_ms[u.i()] > self.now {
                continue;
            }
            self.run_due_ticks(u);
        }
        self.check_end();
        if self.outcome.is_none() && self.overtime_next_ms <= self.now {
            self.overtime_tick();
            self.check_end();
        }
        // In resolution order, every unit holding a full charge: those whose
        // charge filled now, and any a write during this step left full
        // further down the order (`touch_clock`), exactly as a scan of the
        // whole order would find them.
        let threshold = self.rules.clock.charge_to_activate;
        let mut from_rank = 0u32;
        loop {
            let pending = self.clock.due_ranks & (u64::MAX << from_rank.min(63));
            if pending == 0 || from_rank >= 64 || self.outcome.is_some() {
                return;
            }
            let rank = pending.trailing_zeros();
            from_rank = rank + 1;
            let u = order.as_slice()[rank as usize];
            let charge = self.charge(u);
            if charge >= threshold && self.is_charging(u) {
                self.set_charge(u, charge - threshold);
                self.activate_chain(u, UnitIdx::NONE);
                self.check_end();
            }
        }
    }

    pub(super) fn expire_timers(&mut self, u: UnitIdx) {
        let i = u.i();
        if self.u.revive_armed[i] && self.u.revive_ms[i] == 0 {
            self.everlasting_due(u);
        }
        if self.u.entrapped[i] && self.u.entrap_ms[i] == 0 {
            // 800.19f: released; the unit charges again from the next step,
            // with the charge it had.
            self.u.entrapped[i] = false;
            self.touch_clock(u);
            self.emit(EventKind::Released, u, UnitIdx::NONE, 0, 0, "800.19f");
            self.dispatch(u, Trigger::Released, UnitIdx::NONE);
        }
        if self.u.dormant_timed[i] && self.u.dormant_ms[i] == 0 {
            let rule = if self.u.awaiting_wake[i] { "800.16f" } else { "800.16i" };
            self.wake(u, rule);
        }
        if self.u.crush[i].earliest_expiry() <= self.now {
            let total = self.u.crush[i].expire(self.now);
            self.touch_clock(u);
            if total != 0 {
                self.emit(EventKind::CrushExpired, u, UnitIdx::NONE, total, 0, "800.12a");
            }
        }
        if self.u.tier[i] != self.u.native_tier[i] && self.u.smash_ms[i] == 0 {
            let native = self.u.native_tier[i];
            let reduced_max = i64::from(self.u.max_vitality[i].max(1));
            let change = i64::from(self.u.vitality[i]) - i64::from(self.u.smash_to_vitality[i]);
            self.set_tier(u, native);
            // 800.65c: the relative health the unit had when Smash applied
            // comes back exactly; only what changed while Smashed is carried
            // over at the native scale (rounded up), so applying and expiring
            // neither gains nor loses health by rounding twice.
            if self.u.alive[i] {
                let native_max = i64::from(self.u.max_vitality[i].max(1));
                let scaled = (change * native_max).div_euclid(reduced_max)
                    + i64::from((change * native_max).rem_euclid(reduced_max) != 0);
                let back = i64::from(self.u.smash_from_vitality[i]) + scaled;
                self.u.vitality[i] = arith::clamp_i32(back.clamp(1, native_max));
            }
            self.emit(
                EventKind::SmashExpired,
                u,
                UnitIdx::NONE,
                i32::from(native),
                0,
                "800.65a",
            );
        }
    }

    /// Overtime: every unit but Tools and Hubs takes N x N, N seconds past
    /// the threshold; plain damage with no attacker (900.42a, 900.42b,
    /// 900.42e).
    pub(super) fn overtime_tick(&mut self) {
        let o = self.rules.overtime;
        let n = (self.now - o.start_ms) / 1000;
        let amount = n.saturating_mul(n);
        self.overtime_next_ms = self.overtime_next_ms.saturating_add(o.tick_ms);
        if amount <= 0 {
            return;
        }
        self.emit(EventKind::Overtime, UnitIdx::NONE, UnitIdx::NONE, amount, n, "900.42b");
        let order = self.order;
        for &u in order.as_slice() {
            // 900.42a: "Tools and Hubs are the only units excluded", so a
            // Dormant unit takes it too, though it contests no combat
            // (800.16a; docs/rules-reconstruction.md, "Conflicts").
            if self.u.alive[u.i()] && !self.u.kind[u.i()].is_object() {
                self.deal_damage(UnitIdx::NONE, u, amount, damage::DamageKind::Overtime);
            }
        }
    }

    /// Ends the fight when a side has no living combatant.
    pub fn check_end(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        debug_assert_eq!(
            self.standing,
            [Side::Left, Side::Right].map(|s| self
                .u
                .indices()
                .filter(|&i| self.u.side[i] == s && self.u.alive[i] && self.is_combatant(UnitIdx(i as u8)))
                .count() as u16),
            "the standing counts drifted from the units"
        );
        let (winner, reason) = match self.standing.map(|n| n > 0) {
            [true, true] => return,
            [true, false] => (Some(Side::Left), EndReason::Wipe),
            [false, true] => (Some(Side::Right), EndReason::Wipe),
            [false, false] => (None, EndReason::MutualWipe),
        };
        self.outcome = Some(Outcome {
            winner,
            reason,
            end_ms: self.now,
        });
        self.clear_revivals();
        self.settle();
        self.emit(
            EventKind::FightEnd,
            UnitIdx::NONE,
            UnitIdx::NONE,
            winner.map_or(-1, |s| s as i32),
            reason as i32,
            "300.3",
        );
    }

    /// 800.20b: a countdown still running when combat ends is cleared.
    pub(super) fn clear_revivals(&mut self) {
        for i in self.u.indices() {
            self.u.revive_armed[i] = false;
            self.u.revive_ms[i] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each clock input names a unit column once, and the declared ones
    /// hold every timed status's timer, every ticker's next tick and the
    /// counts Speed reads (800.45a Overclock, 800.17a Dread, 800.39a
    /// Kindled, 800.37h Insurance of either kind).
    #[test]
    fn the_clock_inputs_are_unit_columns_and_hold_every_timer_and_ticker() {
        let columns: Vec<&str> = UNIT_COLUMNS.iter().map(|(name, _)| *name).collect();
        let inputs: Vec<&str> = clock_inputs().collect();
        for (k, input) in inputs.iter().enumerate() {
            assert!(columns.contains(input), "{input} is no unit column");
            assert!(!inputs[..k].contains(input), "{input} is listed twice");
        }
        for s in TimedStatus::ALL {
            assert!(
                DECLARED_CLOCK_INPUTS.contains(&s.key()),
                "the timer {} is read by the clock",
                s.key()
            );
        }
        for name in columns.iter().filter(|n| n.ends_with("_next_ms")) {
            assert!(
                DECLARED_CLOCK_INPUTS.contains(name),
                "the ticker column {name} is read by the clock"
            );
        }
        for count in [
            "overclock",
            "dread",
            "kindled",
            "insurance",
            "subrogated",
            "hallow",
            "fleeting",
        ] {
            assert!(DECLARED_CLOCK_INPUTS.contains(&count), "{count} is read by the clock");
        }
    }
}
