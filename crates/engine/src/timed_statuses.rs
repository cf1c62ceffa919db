//! The control and timed statuses: Stun, Freeze, displacement, Hallow,
//! Dormant and waking, Kindle, Roost, Blind, Prismbreak, Entrap.

use super::effects::Immunity;
use super::possible::Feature;
use super::{Engine, EventKind, NEVER, Refusal, UnitIdx, UnitList};
use gridsim_model::ability::CardKind;
use gridsim_model::ability::Trigger;
use gridsim_model::statuses::TimedStatus;

/// The two kinds of bonus to a Roost tick (800.59d).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoostBonus {
    /// Added to the summed Roost.
    Additive,
    /// A percentage of the sum, on top.
    Percent,
}

/// The event each timed status's application logs, from the statuses'
/// list (`statuses.rs`).
macro_rules! applied_events {
    (
        carried: [ $( $(#[$cdoc:meta])* $C:ident $ckey:ident $clabel:literal {
            event: $cev:ident, $($ctraits:tt)*
        } )* ]
        in_battle: [ $( $(#[$bdoc:meta])* $B:ident $bkey:ident $blabel:literal {
            event: $bev:ident, $($btraits:tt)*
        } )* ]
    ) => {
        /// The event an application of `s` logs.
        fn applied_event(s: TimedStatus) -> EventKind {
            match s {
                $( TimedStatus::$C => EventKind::$cev, )*
                $( TimedStatus::$B => EventKind::$bev, )*
            }
        }
    };
}

gridsim_model::statuses::timed_statuses!(applied_events);

impl Engine<'_> {
    /// Applies timed status `s` for `authored_ms` (0: the card names no
    /// time) as its row in the statuses' list says: the recipient gate,
    /// Relentless where it blocks (800.56b), a boss's immunity where the
    /// status has one, then the time added, which replaces the time left
    /// (Stun, 800.68c) or adds to it, the reapplication a flat amount
    /// whatever the card authored (800.27b, 800.3c, 800.52c). A status with
    /// a rule of its own (Entrap, Smash, Dormant, Relentless) goes to it.
    pub fn apply_timed(&mut self, s: TimedStatus, source: UnitIdx, u: UnitIdx, authored_ms: i32) {
        let Some(a) = s.applying(&self.rules) else {
            match s {
                TimedStatus::Entrap => self.apply_entrap(source, u, authored_ms),
                TimedStatus::Smash => self.apply_smash(source, u, authored_ms),
                TimedStatus::Dormant => self.apply_dormant(source, u, authored_ms),
                TimedStatus::Relentless => self.grant_relentless(source, u, authored_ms),
                TimedStatus::Stun | TimedStatus::Freeze | TimedStatus::Blind | TimedStatus::Prismbreak => {}
            }
            return;
        };
        // 800.68c: a replacing status with no time authored applies nothing.
        if a.reapply_ms.is_none() && authored_ms <= 0 {
            return;
        }
        let immunity = if a.relentless_blocks {
            Immunity::Blocked
        } else {
            Immunity::Ignored
        };
        if !self.passes_status_gate(u, source, immunity, a.gate) {
            return;
        }
        let i = u.i();
        if let Some(rule) = a.boss_immune
            && self.u.kind[i] == CardKind::Boss
        {
            self.emit(EventKind::Refused, u, source, 0, Refusal::Boss as i32, rule);
            return;
        }
        let running = self.u.timer(s, i);
        let (added, left) = match a.reapply_ms {
            None => (authored_ms, 0),
            Some(reapply) => {
                let add = if running > 0 {
                    reapply
                } else if authored_ms > 0 {
                    authored_ms
                } else {
                    a.duration_ms
                };
                (add, running.saturating_add(add))
            }
        };
        let ms = if a.reapply_ms.is_none() { added } else { left };
        self.write_clock_inputs(u, |c| *c.timer_mut(s, i) = ms);
        self.emit(applied_event(s), u, source, added, left, a.rule);
        // 900.27: a Freeze feeds the Phylactery's Vessel meter.
        if s == TimedStatus::Freeze && self.possible.any(Feature::Vessels) {
            self.score_freeze(source, u);
        }
    }

    /// Displace: `u` exchanges positions with a viable adjacent unit of its
    /// own side, drawn afresh each time (800.14a, 800.14b, 900.22e). Viable:
    /// alive, not a Tool or Hub, not Dormant or Entrapped, and of the same
    /// footprint, so a Large swaps only with a Large and a Huge only with a
    /// Huge (800.14c, 900.22f). Then Acclimate for `u` and its partner in
    /// that order, each only if still alive (800.1a-800.1c, 900.22a), then
    /// Threat once for the pair, for every unit on the other side that
    /// listens, even if an Acclimate killed one of the pair (800.70a-800.70c,
    /// 900.22b, 900.22c). Adjacency is read from positions, so it is already
    /// the new board when the triggers run (800.14f, 900.22d); resolution
    /// order, which follows reading order, is rebuilt before the next step.
    pub fn displace(&mut self, source: UnitIdx, u: UnitIdx) {
        if !self.passes_recipient_gate(u, source, "800.14a") {
            return;
        }
        let i = u.i();
        let (side, at) = (self.u.side[i], self.u.rect[i]);
        let mut viable = UnitList::default();
        for &c in self.side_order[side.index()].as_slice() {
            let j = c.i();
            if j != i
                && self.u.alive[j]
                && !self.u.kind[j].is_object()
                && !self.u.dormant[j]
                && self.u.entrap_ms[j] == 0
                && self.u.rect[j].size == at.size
                && super::geometry::adjacent(at, self.u.rect[j])
            {
                viable.push(c);
            }
        }
        let partner = match viable.len() {
            0 => {
                self.emit(EventKind::DisplaceFailed, u, source, 0, 0, "800.14a");
                return;
            }
            1 => viable.as_slice()[0],
            n => viable.as_slice()[self.rng.below(n as u32) as usize],
        };
        let p = partner.i();
        let there = self.u.rect[p];
        self.u.rect[i] = super::geometry::Rect {
            column: there.column,
            row: there.row,
            ..at
        };
        self.u.rect[p] = super::geometry::Rect {
            column: at.column,
            row: at.row,
            ..there
        };
        self.order_stale = true;
        self.emit(
            EventKind::Displaced,
            u,
            partner,
            i32::from(there.column),
            i32::from(there.row),
            "800.14a",
        );
        for (unit, other) in [(u, partner), (partner, u)] {
            if self.u.alive[unit.i()] {
                self.dispatch(unit, Trigger::Acclimate, other);
            }
        }
        let order = self.order;
        for &listener in order.as_slice() {
            if self.u.side[listener.i()] != side {
                self.dispatch(listener, Trigger::Threat, u);
            }
        }
    }

    /// Hallow: each application is its own instance (800.29c), of the amount
    /// raised by Exalt (800.21a, 800.21b), ticking every 0.5 s from its
    /// application. Relentless does not block it (800.29g).
    pub fn apply_hallow(&mut self, source: UnitIdx, u: UnitIdx, amount: i32) {
        if amount <= 0 || !self.passes_recipient_gate(u, source, "800.29g") {
            return;
        }
        let i = u.i();
        let received = self.exalted(u, amount);
        let h = super::HallowInstance {
            amount: received,
            next_ms: self.now.saturating_add(self.rules.hallow.tick_ms),
        };
        let cap = self.rules.hallow.instances_per_unit.max(1) as usize;
        if self.write_clock_inputs(u, |c| c.hallow[i].add(h, cap)) {
            let running = self.u.hallow[i].running().len() as i32;
            self.emit(EventKind::HallowApplied, u, source, received, running, "800.29c");
        }
    }

    /// One Hallow tick on `u`: a single decay roll for the unit (800.29d);
    /// every instance due now heals its current amount through the
    /// recovery path, so Maim reduces each and is consumed (800.29f), then
    /// keeps the rest of its amount after the decay, rounded down, and ends
    /// at 0: a Hallow of 1 heals once and expires (800.29a, 800.29b).
    pub fn hallow_tick(&mut self, u: UnitIdx) {
        let i = u.i();
        let r = self.rules.hallow;
        let span = (r.decay_max_percent - r.decay_min_percent).max(0) as u32 + 1;
        let mut decay = r.decay_min_percent + self.rng.below(span) as i32;
        // 800.29e: a preservation rune's roll that lands heals without
        // decaying; only a unit holding one rolls it.
        let preserve = self.rune_grants[i].hallow_preserve;
        if preserve > 0 && self.rng.chance_percent(preserve.min(100)) {
            decay = 0;
        }
        let now = self.now;
        // The instances are decayed first and healed after, so nothing a
        // heal sets off can see half-updated instances.
        let mut heals = [0i32; gridsim_core::limits::MAX_HALLOW_INSTANCES];
        let due = self.write_clock_inputs(u, |c| c.hallow[i].tick(now, decay, r.tick_ms, &mut heals));
        for &heal in &heals[..due] {
            if !self.u.alive[i] {
                break;
            }
            self.emit(EventKind::HallowTick, u, u, heal, decay, "800.29a");
            self.recover_over_time(u, heal);
        }
    }

    /// Wakes a Dormant unit: it contests combat again, and if it was waiting
    /// on its wake condition, its `awaken` lines resolve now (800.16g,
    /// 800.16h). Waking lasts the battle: the condition is spent.
    pub fn wake(&mut self, u: UnitIdx, rule: &'static str) {
        let i = u.i();
        if !self.u.dormant[i] {
            return;
        }
        let awaited = self.u.awaiting_wake[i];
        self.write_clock_inputs(u, |c| {
            c.dormant[i] = false;
            c.dormant_timed[i] = false;
            c.dormant_ms[i] = 0;
            c.awaiting_wake[i] = false;
        });
        let side = self.u.side[i].index();
        self.wake_watch[side] &= !(1u64 << i);
        if self.u.alive[i] && self.is_combatant(u) {
            self.standing[side] += 1;
        }
        self.emit(EventKind::Awakened, u, UnitIdx::NONE, i32::from(awaited), 0, rule);
        // 800.58d: an awake resonator is an active source again.
        self.refresh_resonance(u);
        if awaited {
            // 800.16h: a printed transformation happens at the moment of
            // waking, and the card's awaken lines, its "accompanying gain",
            // then resolve on the unit it has become.
            let printed = self.u.card[i];
            self.transform_on_waking(u);
            self.dispatch_as(u, printed, Trigger::Awaken, UnitIdx::NONE);
        }
    }

    /// 800.16h: the unit becomes a card drawn among those matching its
    /// printed filter, at its tier capped by the printed tier: the new
    /// card's stat line and keywords from now, its Vitality the same share
    /// of the new maximum (rounded up), everything it has gained or
    /// suffered kept. A filter no card matches leaves it as it is.
    fn transform_on_waking(&mut self, u: UnitIdx) {
        let i = u.i();
        let catalog = self.catalog;
        let Some(into) = &catalog.card(self.u.card[i]).awaken_into else {
            return;
        };
        if into.candidates.is_empty() {
            return;
        }
        let pick = into.candidates[self.rng.below(into.candidates.len() as u32) as usize];
        let (old_vitality, old_max) = (i64::from(self.u.vitality[i]), i64::from(self.u.max_vitality[i].max(1)));
        // The capped tier is the unit's own from now: Smash's end restores
        // to it (800.65), and Highland reads it (800.32).
        let tier = self.u.tier[i].min(into.max_tier).max(1);
        self.write_clock_inputs(u, |c| {
            c.tier[i] = tier;
            c.native_tier[i] = tier;
        });
        self.install_loadout(u, pick);
        let max = self.u.line[i]
            .vitality
            .max(1)
            .saturating_add(self.rune_grants[i].vitality);
        self.u.max_vitality[i] = max;
        self.u.vitality[i] = ((old_vitality * i64::from(max) + old_max - 1) / old_max).clamp(1, i64::from(max)) as i32;
        self.mark_possible(u);
        self.refresh_resonance(u);
        self.emit(
            EventKind::Transformed,
            u,
            UnitIdx::NONE,
            i32::from(self.u.tier[i]),
            i32::from(pick.0),
            "800.16h",
        );
    }

    /// Adds `n` to the progress of `side`'s units waiting on a counted wake
    /// condition of that kind (activations, or damage as an amount), stopping
    /// at the requirement, and wakes those that reach it (800.16f, 800.16g).
    pub(crate) fn count_towards_wake(&mut self, side: usize, damage: bool, n: i32) {
        let mut watch = self.wake_watch[side];
        while watch != 0 {
            let i = watch.trailing_zeros() as usize;
            watch &= watch - 1;
            let need = match self.catalog.card(self.u.card[i]).wake {
                Some(gridsim_model::catalog::Wake::AllyActivations(need)) if !damage => need,
                Some(gridsim_model::catalog::Wake::AllyDamage(need)) if damage => need,
                _ => continue,
            };
            let progress = self.u.wake_progress[i].saturating_add(n).min(need);
            self.u.wake_progress[i] = progress;
            if progress >= need && self.u.alive[i] {
                self.wake(UnitIdx(i as u8), "800.16g");
            }
        }
    }

    /// Kindled stacks for the rest of the battle, with no cap (800.39a,
    /// 800.39b); a positive effect, so Relentless does not refuse it.
    pub fn kindle(&mut self, source: UnitIdx, u: UnitIdx, stacks: i32) {
        if stacks <= 0 || !self.passes_recipient_gate(u, source, "800.39a") {
            return;
        }
        let i = u.i();
        // Speed changes the charge rate.
        self.write_clock_inputs(u, |c| c.kindled[i] = c.kindled[i].saturating_add(stacks));
        self.emit(EventKind::Kindled, u, source, stacks, self.u.kindled[i], "800.39a");
    }

    /// Dormant for a time (800.16i): no wake condition, it simply ends when
    /// the time is up. The unit stops contesting combat meanwhile (800.16a).
    pub fn apply_dormant(&mut self, source: UnitIdx, u: UnitIdx, duration_ms: i32) {
        if duration_ms <= 0 || !self.passes_recipient_gate(u, source, "800.16i") {
            return;
        }
        let i = u.i();
        let was_combatant = self.is_combatant(u);
        self.write_clock_inputs(u, |c| {
            c.dormant[i] = true;
            c.dormant_timed[i] = true;
            c.dormant_ms[i] = duration_ms;
        });
        if was_combatant {
            let side = self.u.side[i].index();
            self.standing[side] = self.standing[side].saturating_sub(1);
        }
        // 800.58d: a Dormant source contributes nothing.
        self.refresh_resonance(u);
        self.emit(EventKind::DormantApplied, u, source, duration_ms, 0, "800.16i");
    }

    /// Roost adds to one running total that lasts the battle (800.59a,
    /// 800.59b); the first gain starts a tick clock of one second, and later
    /// gains join it without moving it. Relentless does not block it (800.59f).
    pub fn gain_roost(&mut self, source: UnitIdx, u: UnitIdx, amount: i32) {
        if amount <= 0 || !self.passes_recipient_gate(u, source, "800.59f") {
            return;
        }
        let i = u.i();
        self.u.roost[i] = self.u.roost[i].saturating_add(amount);
        if self.u.roost_next_ms[i] == NEVER {
            let next = self.now.saturating_add(self.rules.roost.tick_ms);
            self.write_clock_inputs(u, |c| c.roost_next_ms[i] = next);
        }
        self.emit(EventKind::RoostGained, u, source, amount, self.u.roost[i], "800.59b");
    }

    /// A bonus to every Roost tick for the battle, adding up like Roost
    /// itself (800.59b, 800.59d); it heals nothing without a Roost total.
    pub fn gain_roost_bonus(&mut self, source: UnitIdx, u: UnitIdx, amount: i32, kind: RoostBonus) {
        if amount <= 0 || !self.passes_recipient_gate(u, source, "800.59d") {
            return;
        }
        let i = u.i();
        let (total, event) = match kind {
            RoostBonus::Additive => (&mut self.u.roost_bonus[i], EventKind::RoostBonusGained),
            RoostBonus::Percent => (&mut self.u.roost_percent[i], EventKind::RoostPercentGained),
        };
        *total = total.saturating_add(amount);
        let total = *total;
        self.emit(event, u, source, amount, total, "800.59d");
    }

    /// One Roost tick: the summed Roost plus every additive bonus, then the
    /// percentage bonus on top (rounded down), then the clamp into 1..=20
    /// last, healed through the recovery path, so Maim reduces it and is
    /// consumed (800.59d, 800.59e). Exalt does not raise it (800.21c).
    pub fn roost_tick(&mut self, u: UnitIdx) {
        let i = u.i();
        let r = self.rules.roost;
        let summed = i64::from(self.u.roost[i]) + i64::from(self.u.roost_bonus[i]);
        let raised = summed + summed * i64::from(self.u.roost_percent[i]) / 100;
        let heal = super::arith::clamp_i32(raised).clamp(r.tick_minimum, r.tick_cap);
        let next = self.now.saturating_add(r.tick_ms);
        self.write_clock_inputs(u, |c| c.roost_next_ms[i] = next);
        self.emit(EventKind::RoostTick, u, u, heal, self.u.roost[i], "800.59a");
        self.recover_over_time(u, heal);
    }

    /// Entrap ignores Relentless (800.19c). A unit already Entrapped rejects
    /// it like any other incoming effect (800.19d).
    pub fn apply_entrap(&mut self, source: UnitIdx, u: UnitIdx, duration_ms: i32) {
        if !self.passes_status_gate(u, source, Immunity::Ignored, "800.19d") {
            return;
        }
        // 800.19e, 900.18f: the recipient's card may declare a per-tier
        // Entrap ladder, which overrides the applied duration on that unit.
        let r = u.i();
        let ladder = self
            .catalog
            .card(self.u.card[r])
            .entrap_ms
            .get(usize::from(self.u.tier[r]).saturating_sub(1))
            .copied();
        let d = match ladder {
            Some(ms) => ms,
            None if duration_ms > 0 => duration_ms,
            None => self.rules.entrap.duration_ms,
        };
        self.write_clock_inputs(u, |c| {
            c.entrap_ms[u.i()] = d;
            c.entrapped[u.i()] = true;
        });
        self.emit(EventKind::Entrapped, u, source, d, 0, "800.19a");
    }
}
