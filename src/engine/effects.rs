//! Statuses and actions: the application gates (700.3, 700.4,
//! reconstructed), Burn, Venom, Maim, Cull, Crush, Smash, the control
//! timers, and the damage-over-time ticks.

use super::damage::DamageKind;
use super::{Engine, EventKind, NEVER, Refusal, UnitIdx, UnitList};
use crate::ability::CardKind;
use crate::ability::Trigger;

/// Whether Relentless refuses an application (800.56b, 800.56d).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Immunity {
    /// Relentless blocks it: negative statuses and stat reductions.
    Blocked,
    /// Maim, Smash, Entrap, Shield, heals, Insurance, buffs (800.56c).
    Ignored,
}

impl Engine<'_> {
    /// The recipient gate every application meets (700.3, reconstructed): a
    /// living unit that is not Entrapped (800.19d), not Dormant (800.16a),
    /// and not a Tool or Hub (800.71b, 800.33b). Emits the refusal.
    pub fn passes_recipient_gate(&mut self, u: UnitIdx, source: UnitIdx, rule: &'static str) -> bool {
        self.passes_gate(u, source, false, rule)
    }

    /// The recipient gate of an effect that clears a status: the one kind
    /// that still resolves on a Dormant unit (800.16e).
    pub fn passes_clearing_gate(&mut self, u: UnitIdx, source: UnitIdx, rule: &'static str) -> bool {
        self.passes_gate(u, source, true, rule)
    }

    fn passes_gate(&mut self, u: UnitIdx, source: UnitIdx, reaches_dormant: bool, rule: &'static str) -> bool {
        let i = u.i();
        let why = if !self.u.alive[i] {
            Refusal::Dead
        } else if self.u.kind[i].is_object() {
            Refusal::Object
        } else if self.u.dormant[i] && !reaches_dormant {
            Refusal::Dormant
        } else if self.u.entrap_ms[i] > 0 {
            Refusal::Entrapped
        } else {
            return true;
        };
        self.emit(EventKind::Refused, u, source, 0, why as i32, rule);
        false
    }

    /// The gate plus Relentless for a blocked kind (800.56a, 900.10a).
    pub(crate) fn passes_status_gate(
        &mut self,
        u: UnitIdx,
        source: UnitIdx,
        immunity: Immunity,
        rule: &'static str,
    ) -> bool {
        if !self.passes_recipient_gate(u, source, rule) {
            return false;
        }
        if immunity == Immunity::Blocked && self.is_relentless(u) {
            self.emit(EventKind::Refused, u, source, 0, Refusal::Relentless as i32, rule);
            return false;
        }
        true
    }

    /// Burn adds to the single stack value (800.8a), capped (900.33e); the
    /// first stack starts the 0.5 s tick clock. Relentless blocks it (800.8j).
    pub fn apply_burn(&mut self, source: UnitIdx, u: UnitIdx, amount: i32) {
        if amount <= 0 || !self.passes_status_gate(u, source, Immunity::Blocked, "800.8j") {
            return;
        }
        self.add_burn(source, u, amount, EventKind::BurnApplied, "800.8a");
    }

    fn add_burn(&mut self, source: UnitIdx, u: UnitIdx, amount: i32, kind: EventKind, rule: &'static str) {
        let i = u.i();
        let before = self.u.burn[i];
        self.u.burn[i] = (before.saturating_add(amount)).min(self.rules.burn.cap);
        self.u.burn_source[i] = source;
        self.u.burn_shares[i].add(source, self.u.burn[i] - before);
        if self.u.burn_next_ms[i] == NEVER {
            self.u.burn_next_ms[i] = self.now.saturating_add(self.rules.burn.tick_ms);
            self.touch_clock(u);
        }
        self.emit(kind, u, source, amount, self.u.burn[i], rule);
    }

    pub fn apply_venom(&mut self, source: UnitIdx, u: UnitIdx, amount: i32) {
        // 800.73e: Relentless blocks Venom.
        if amount <= 0 || !self.passes_status_gate(u, source, Immunity::Blocked, "800.73e") {
            return;
        }
        let i = u.i();
        self.u.venom[i] = self.u.venom[i].saturating_add(amount);
        self.u.venom_source[i] = source;
        self.u.venom_shares[i].add(source, amount);
        if self.u.venom_next_ms[i] == NEVER {
            self.u.venom_next_ms[i] = self.now.saturating_add(self.rules.venom.tick_ms);
            self.touch_clock(u);
        }
        self.emit(EventKind::VenomApplied, u, source, amount, self.u.venom[i], "800.73a");
    }

    /// Prismbreak raises a tick by 50%, rounded up (800.8i, 800.73d).
    fn amplified_tick(&self, u: UnitIdx, amount: i32) -> i32 {
        if self.u.prismbreak_ms[u.i()] > 0 {
            let bonus = self.rules.prismbreak.tick_bonus_percent;
            super::damage::clamp_i32((i64::from(amount) * i64::from(100 + bonus) + 99) / 100)
        } else {
            amount
        }
    }

    /// One Burn tick: damage equal to the Burn, then decay by half rounded
    /// down but at least 1, then a 5% chance to copy onto the nearest ally
    /// of the burning unit (800.8b-800.8g, 900.33a-900.33c).
    pub fn burn_tick(&mut self, u: UnitIdx) {
        let i = u.i();
        // Every path below reschedules or ends the tick.
        self.touch_clock(u);
        let burn = self.u.burn[i];
        if burn <= 0 {
            self.u.burn_next_ms[i] = NEVER;
            return;
        }
        let source = self.u.burn_source[i];
        let tick = self.reduced_tick(u, self.amplified_tick(u, burn));
        let b = self.rules.burn;
        let decay = super::damage::percent_of(burn, b.decay_percent).max(b.decay_minimum);
        let left = (burn - decay).max(0);
        self.emit(EventKind::BurnTick, u, source, tick, left, "800.8b");
        let landed = self.deal_damage(source, u, tick, DamageKind::Burn).vitality_lost;
        self.feast_shares(self.u.burn_shares[i], landed);
        if !self.u.alive[i] {
            return;
        }
        self.u.burn[i] = left;
        self.u.burn_shares[i].rescale(burn, left);
        if left == 0 {
            self.u.burn_next_ms[i] = NEVER;
            return;
        }
        self.u.burn_next_ms[i] = self.now.saturating_add(b.tick_ms);
        // 900.33h: under a no-spread aura the roll is refused outright.
        if !self.spread_warded(u) && self.rng.chance_percent(b.spread_chance_percent) {
            self.spread_burn(u, left);
        }
    }

    /// Forge Core and rune tick reduction come after Prismbreak's
    /// amplification and before the pipeline (800.52a, 900.11d).
    fn reduced_tick(&self, u: UnitIdx, tick: i32) -> i32 {
        let reduction = self.forge[self.u.side[u.i()].index()]
            .tick_reduction
            .saturating_add(self.rune_grants[u.i()].tick_reduction);
        (tick - reduction).max(0)
    }

    /// A living, active unit with the no-spread aura on the burning unit's side.
    fn spread_warded(&self, u: UnitIdx) -> bool {
        let side = self.u.side[u.i()];
        // Most sides carry no aura at all: skip the scan for them.
        if !self.ward_possible[side.index()] {
            return false;
        }
        self.u
            .indices()
            .any(|j| self.u.side[j] == side && self.u.alive[j] && !self.u.dormant[j] && self.u.no_burn_spread[j])
    }

    /// 800.8e, 800.8f, 900.33c, 900.33g: rank the burning unit's side by
    /// footprint distance, keep the nearest ties, one Focus-weighted roll;
    /// a Relentless winner refuses the copy and nobody is re-rolled.
    fn spread_burn(&mut self, from: UnitIdx, amount: i32) {
        let side = self.u.side[from.i()];
        let mut best = i32::MAX;
        let mut pool = UnitList::default();
        for j in self.u.indices() {
            let c = super::UnitIdx(j as u8);
            if c == from || self.u.side[j] != side || !self.is_targetable(c) {
                continue;
            }
            let d = super::geometry::manhattan(self.u.rect[from.i()], self.u.rect[j]);
            if d < best {
                best = d;
                pool.clear();
            }
            if d == best {
                pool.push(c);
            }
        }
        let Some(to) = self.focus_pick(pool.as_slice()) else {
            return;
        };
        let source = self.u.burn_source[from.i()];
        if self.is_relentless(to) {
            self.emit(
                EventKind::Refused,
                to,
                from,
                amount,
                Refusal::Relentless as i32,
                "900.33g",
            );
            return;
        }
        self.add_burn(source, to, amount, EventKind::BurnSpread, "800.8d");
    }

    /// One Venom tick: damage equal to the stacks, then lose 20-30% (a seeded
    /// roll) rounded down, at least 1 (800.73a).
    pub fn venom_tick(&mut self, u: UnitIdx) {
        let i = u.i();
        // Every path below reschedules or ends the tick.
        self.touch_clock(u);
        let stacks = self.u.venom[i];
        if stacks <= 0 {
            self.u.venom_next_ms[i] = NEVER;
            return;
        }
        let v = self.rules.venom;
        let span = (v.decay_max_percent - v.decay_min_percent + 1).max(1) as u32;
        let percent = v.decay_min_percent + self.rng.below(span) as i32;
        let decay = super::damage::percent_of(stacks, percent).max(v.decay_minimum);
        let left = (stacks - decay).max(0);
        let source = self.u.venom_source[i];
        let tick = self.reduced_tick(u, self.amplified_tick(u, stacks));
        self.emit(EventKind::VenomTick, u, source, tick, left, "800.73a");
        let landed = self.deal_damage(source, u, tick, DamageKind::Venom).vitality_lost;
        self.feast_shares(self.u.venom_shares[i], landed);
        if !self.u.alive[i] {
            return;
        }
        self.u.venom[i] = left;
        self.u.venom_shares[i].rescale(stacks, left);
        self.u.venom_next_ms[i] = if left == 0 {
            NEVER
        } else {
            self.now.saturating_add(v.tick_ms)
        };
    }

    /// A tick's Feast, split between its appliers in proportion to their
    /// parts of the stack (800.22g): each applier with Feast heals from its
    /// own part of the Vitality the tick took.
    fn feast_shares(&mut self, shares: super::ApplierShares, landed: i32) {
        if landed <= 0 {
            return;
        }
        for (applier, part) in shares.split(landed) {
            if !applier.is_none() && part > 0 {
                self.feast(applier, part);
            }
        }
    }

    /// Maim ignores Relentless but not the other gates (800.43d, 800.43e, 900.9c).
    pub fn apply_maim(&mut self, source: UnitIdx, u: UnitIdx, amount: i32) {
        if amount <= 0 || !self.passes_status_gate(u, source, Immunity::Ignored, "800.43e") {
            return;
        }
        self.u.maim[u.i()] = self.u.maim[u.i()].saturating_add(amount);
        self.emit(EventKind::MaimApplied, u, source, amount, self.u.maim[u.i()], "800.43a");
    }

    /// Cull: destroys an enemy whose Maim is strictly greater than its
    /// Vitality, through Shield, Armor and Relentless, without consuming the
    /// Maim (800.13a-800.13d, 800.13g). Fires the enemy-Culled channel (800.13h).
    pub fn try_cull(&mut self, source: UnitIdx, u: UnitIdx) -> bool {
        let i = u.i();
        if !self.is_targetable(u) {
            self.emit(
                EventKind::CullFailed,
                u,
                source,
                self.u.maim[i],
                self.u.vitality[i],
                "800.13d",
            );
            return false;
        }
        if !source.is_none() && !self.is_enemy(source, u) {
            self.emit(EventKind::Refused, u, source, 0, Refusal::NotEnemy as i32, "800.13d");
            return false;
        }
        if self.u.maim[i] <= self.u.vitality[i] {
            self.emit(
                EventKind::CullFailed,
                u,
                source,
                self.u.maim[i],
                self.u.vitality[i],
                "800.13a",
            );
            return false;
        }
        self.emit(
            EventKind::CullSucceeded,
            u,
            source,
            self.u.maim[i],
            self.u.vitality[i],
            "800.13b",
        );
        self.u.shield[i] = 0;
        self.kill(u, source, "800.13b");
        if !source.is_none() {
            self.dispatch(source, Trigger::EnemyCulled, u);
        }
        true
    }

    /// Crush: a timed Armor reduction on its own 2-second window (800.12a),
    /// blocked by Relentless (800.12f); it may drive Armor negative (800.12h).
    pub fn apply_crush(&mut self, source: UnitIdx, u: UnitIdx, amount: i32) {
        if amount <= 0 || !self.passes_status_gate(u, source, Immunity::Blocked, "800.12f") {
            return;
        }
        // 800.12a: every Crush uses the same window, whatever a clause names.
        let duration = self.rules.crush.duration_ms;
        let expires = self.now.saturating_add(duration);
        // 800.12g: Forge Cores add to the amount before it is applied.
        let amount = if source.is_none() {
            amount
        } else {
            amount + self.forge[self.u.side[source.i()].index()].crush_bonus
        };
        // 800.12e: a Tool's Crush is keyed to that Tool and that enemy.
        let key = if !source.is_none() && self.u.kind[source.i()] == CardKind::Tool {
            source
        } else {
            UnitIdx::NONE
        };
        let cap = self.rules.crush.windows_per_unit as usize;
        self.touch_clock(u);
        self.u.crush[u.i()].add(
            crate::engine::CrushWindow {
                amount,
                expires_ms: expires,
                key,
            },
            cap,
        );
        let armor = self.armor(u);
        self.emit(EventKind::CrushApplied, u, source, amount, armor, "800.12a");
    }

    /// Smash: tier down by 1 for the duration; reapplying adds duration but
    /// never a second step (800.65a, 800.65b); refused at tier 1 (800.65g);
    /// ignores Relentless (800.65d).
    pub fn apply_smash(&mut self, source: UnitIdx, u: UnitIdx, duration_ms: i32) {
        if duration_ms <= 0 || !self.passes_status_gate(u, source, Immunity::Ignored, "800.65f") {
            return;
        }
        let i = u.i();
        self.touch_clock(u);
        if self.u.smash_ms[i] > 0 {
            self.u.smash_ms[i] = self.u.smash_ms[i].saturating_add(duration_ms);
            self.emit(
                EventKind::SmashApplied,
                u,
                source,
                duration_ms,
                self.u.smash_ms[i],
                "800.65b",
            );
            return;
        }
        if self.u.tier[i] <= 1 {
            self.emit(EventKind::Refused, u, source, 0, Refusal::TierOne as i32, "800.65g");
            return;
        }
        let lower = self.u.tier[i] - 1;
        self.u.smash_from_vitality[i] = self.u.vitality[i];
        self.set_tier(u, lower);
        self.u.smash_to_vitality[i] = self.u.vitality[i];
        self.u.smash_ms[i] = duration_ms;
        self.emit(
            EventKind::SmashApplied,
            u,
            source,
            duration_ms,
            i32::from(lower),
            "800.65a",
        );
    }

    /// Stun replaces the remaining duration (800.68c); Relentless blocks it (800.68d).
    pub fn apply_stun(&mut self, source: UnitIdx, u: UnitIdx, duration_ms: i32) {
        if duration_ms <= 0 || !self.passes_status_gate(u, source, Immunity::Blocked, "800.68d") {
            return;
        }
        self.u.stun_ms[u.i()] = duration_ms;
        self.touch_clock(u);
        self.emit(EventKind::Stunned, u, source, duration_ms, 0, "800.68a");
    }

    /// Freeze adds a flat 4 s (800.27a, 800.27b); Relentless blocks it (800.27f).
    pub fn apply_freeze(&mut self, source: UnitIdx, u: UnitIdx, duration_ms: i32) {
        if !self.passes_status_gate(u, source, Immunity::Blocked, "800.27f") {
            return;
        }
        // 800.27a, 800.27b: 4 s (or the card's own duration), and each
        // reapplication adds a flat 4 s more, whatever the card authored.
        let add = if self.u.freeze_ms[u.i()] > 0 {
            self.rules.freeze.reapply_ms
        } else if duration_ms > 0 {
            duration_ms
        } else {
            self.rules.freeze.duration_ms
        };
        let i = u.i();
        self.u.freeze_ms[i] = self.u.freeze_ms[i].saturating_add(add);
        self.touch_clock(u);
        self.emit(EventKind::Frozen, u, source, add, self.u.freeze_ms[i], "800.27b");
        if self.vessels_possible {
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
        if self.u.hallow[i].add(h, self.rules.hallow.instances_per_unit.max(1) as usize) {
            self.touch_clock(u);
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
        self.touch_clock(u);
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
        let mut heals = [0i32; crate::limits::MAX_HALLOW_INSTANCES];
        let due = self.u.hallow[i].tick(now, decay, r.tick_ms, &mut heals);
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
        self.u.dormant[i] = false;
        self.u.dormant_timed[i] = false;
        self.u.dormant_ms[i] = 0;
        self.u.awaiting_wake[i] = false;
        let side = self.u.side[i].index();
        self.wake_watch[side] &= !(1u64 << i);
        self.touch_clock(u);
        if self.u.alive[i] && self.is_combatant(u) {
            self.standing[side] += 1;
        }
        self.emit(EventKind::Awakened, u, UnitIdx::NONE, i32::from(awaited), 0, rule);
        // 800.58d: an awake resonator is an active source again.
        self.refresh_resonance(u);
        if awaited {
            self.dispatch(u, Trigger::Awaken, UnitIdx::NONE);
        }
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
                Some(crate::catalog::Wake::AllyActivations(need)) if !damage => need,
                Some(crate::catalog::Wake::AllyDamage(need)) if damage => need,
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
        self.u.kindled[i] = self.u.kindled[i].saturating_add(stacks);
        // Speed changes the charge rate.
        self.touch_clock(u);
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
        self.u.dormant[i] = true;
        self.u.dormant_timed[i] = true;
        self.u.dormant_ms[i] = duration_ms;
        if was_combatant {
            let side = self.u.side[i].index();
            self.standing[side] = self.standing[side].saturating_sub(1);
        }
        self.touch_clock(u);
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
            self.u.roost_next_ms[i] = self.now.saturating_add(self.rules.roost.tick_ms);
            self.touch_clock(u);
        }
        self.emit(EventKind::RoostGained, u, source, amount, self.u.roost[i], "800.59b");
    }

    /// One Roost tick: the total, clamped into 1..=20 last, healed through
    /// the recovery path, so Maim reduces it and is consumed (800.59d,
    /// 800.59e). Exalt does not raise it (800.21c).
    pub fn roost_tick(&mut self, u: UnitIdx) {
        let i = u.i();
        self.touch_clock(u);
        let r = self.rules.roost;
        let heal = self.u.roost[i].clamp(r.tick_minimum, r.tick_cap);
        self.u.roost_next_ms[i] = self.now.saturating_add(r.tick_ms);
        self.emit(EventKind::RoostTick, u, u, heal, self.u.roost[i], "800.59a");
        self.recover_over_time(u, heal);
    }

    /// Blind lasts 3 s and each reapplication adds a flat 2 s (800.3a,
    /// 800.3c); a boss is never Blinded (800.3e) and Relentless blocks it
    /// (800.3f).
    pub fn apply_blind(&mut self, source: UnitIdx, u: UnitIdx, duration_ms: i32) {
        if !self.passes_status_gate(u, source, Immunity::Blocked, "800.3f") {
            return;
        }
        let i = u.i();
        if self.u.kind[i] == CardKind::Boss {
            self.emit(EventKind::Refused, u, source, 0, Refusal::Boss as i32, "800.3e");
            return;
        }
        let add = if self.u.blind_ms[i] > 0 {
            self.rules.blind.reapply_ms
        } else if duration_ms > 0 {
            duration_ms
        } else {
            self.rules.blind.duration_ms
        };
        self.u.blind_ms[i] = self.u.blind_ms[i].saturating_add(add);
        self.touch_clock(u);
        self.emit(EventKind::Blinded, u, source, add, self.u.blind_ms[i], "800.3c");
    }

    /// Prismbreak adds 3 s (800.52c); Relentless blocks it (800.52d).
    pub fn apply_prismbreak(&mut self, source: UnitIdx, u: UnitIdx, duration_ms: i32) {
        if !self.passes_status_gate(u, source, Immunity::Blocked, "800.52d") {
            return;
        }
        // 800.52a, 800.52c: 3 s (or the card's own duration); reapplying
        // adds 3 s, whatever the card authored.
        let add = if self.u.prismbreak_ms[u.i()] > 0 {
            self.rules.prismbreak.reapply_ms
        } else if duration_ms > 0 {
            duration_ms
        } else {
            self.rules.prismbreak.duration_ms
        };
        let i = u.i();
        self.u.prismbreak_ms[i] = self.u.prismbreak_ms[i].saturating_add(add);
        self.touch_clock(u);
        self.emit(
            EventKind::Prismbroken,
            u,
            source,
            add,
            self.u.prismbreak_ms[i],
            "800.52c",
        );
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
        self.u.entrap_ms[u.i()] = d;
        self.u.entrapped[u.i()] = true;
        self.touch_clock(u);
        self.emit(EventKind::Entrapped, u, source, d, 0, "800.19a");
    }

    /// Grants Insurance points; Relentless never blocks it (800.37g).
    pub fn grant_insurance(&mut self, source: UnitIdx, u: UnitIdx, points: i32, subrogated: bool) {
        if points <= 0 || !self.passes_status_gate(u, source, Immunity::Ignored, "800.37g") {
            return;
        }
        let i = u.i();
        // Holding Insurance brings in the insured stat layer, whose Speed
        // the clock reads.
        if self.insurance_moves_clock(u) {
            self.touch_clock(u);
        }
        if subrogated {
            self.u.subrogated[i] = self.u.subrogated[i].saturating_add(points);
        } else {
            self.u.insurance[i] = self.u.insurance[i].saturating_add(points);
        }
        self.emit(
            EventKind::InsuranceGained,
            u,
            source,
            points,
            i32::from(subrogated),
            "800.37a",
        );
        // 900.38a, 900.38d: both channels hear every positive grant; chains
        // stop past the reaction depth (900.38e).
        if i32::from(self.depth) >= self.rules.insurance.reaction_depth {
            return;
        }
        self.dispatch(u, Trigger::InsuranceGained, source);
        let allies = self.allies_of(u, false);
        for &ally in allies.as_slice() {
            self.dispatch(ally, Trigger::AllyInsuranceGained, u);
        }
    }

    /// Dread: stacks with no timer (800.17b); Relentless blocks it whole
    /// (800.17c, 900.10c); refused by dead, Dormant, Entrapped units (800.17d).
    pub fn apply_dread(&mut self, source: UnitIdx, u: UnitIdx, stacks: i32) {
        if stacks <= 0 || !self.passes_status_gate(u, source, Immunity::Blocked, "800.17c") {
            return;
        }
        let i = u.i();
        self.u.dread[i] = self.u.dread[i].saturating_add(stacks);
        self.touch_clock(u);
        self.emit(EventKind::DreadApplied, u, source, stacks, self.u.dread[i], "800.17a");
        if self.vessels_possible {
            self.score_dread(source, stacks);
        }
    }

    /// Harvest (800.30): takes up to `stacks` Dread from allies holding it,
    /// the Harvester too when `source_donates`, one Focus-weighted stack at a time; then gives
    /// as many to enemies one Focus-weighted stack at a time, Relentless
    /// enemies left out of the pool first (800.30d, 900.10e).
    pub fn harvest(&mut self, source: UnitIdx, stacks: i32, source_donates: bool) {
        let mut recipients = UnitList::default();
        for &e in self.enemies_of(source).as_slice() {
            if !self.is_relentless(e) {
                recipients.push(e);
            }
        }
        if recipients.is_empty() {
            // No legal recipient: nothing is taken, so no Dread is lost.
            return;
        }
        let mut donors = UnitList::default();
        // 800.30a: the Harvesting unit gives its own Dread only when the
        // card says so (`scope = "self"`).
        for &a in self.allies_of(source, source_donates).as_slice() {
            if self.u.dread[a.i()] > 0 {
                donors.push(a);
            }
        }
        let mut taken = 0;
        for _ in 0..stacks.max(0) {
            let Some(d) = self.focus_pick(donors.as_slice()) else {
                break;
            };
            self.u.dread[d.i()] -= 1;
            self.touch_clock(d);
            taken += 1;
            self.emit(EventKind::DreadRemoved, d, source, 1, self.u.dread[d.i()], "800.30b");
            if self.u.dread[d.i()] == 0
                && let Some(at) = donors.as_slice().iter().position(|&x| x == d)
            {
                donors.remove_at(at);
            }
        }
        // 800.30e: nothing removed, nothing applied.
        for _ in 0..taken {
            let Some(r) = self.focus_pick(recipients.as_slice()) else {
                break;
            };
            self.apply_dread(source, r, 1);
        }
    }

    /// Repossess: the target loses Armor, even below zero, and the source
    /// gains it; Relentless blocks the loss and so the gain (800.57a, 800.57c).
    pub fn repossess(&mut self, source: UnitIdx, u: UnitIdx, amount: i32) {
        if amount <= 0 || !self.passes_status_gate(u, source, Immunity::Blocked, "800.57c") {
            return;
        }
        self.u.armor_bonus[u.i()] -= amount;
        self.emit(EventKind::Repossessed, u, source, amount, self.armor(u), "800.57a");
        if !source.is_none() && self.u.alive[source.i()] {
            self.u.armor_bonus[source.i()] += amount;
            self.emit(EventKind::StatChanged, source, u, amount, Stat::Armor as i32, "800.57a");
        }
    }

    /// Piercing Roar and Crippling Scream: a reduction on every enemy, each
    /// refused by Relentless on its own (800.50b, 800.11b).
    pub fn reduce_every_enemy(&mut self, source: UnitIdx, stat: Stat, amount: i32) {
        let enemies = self.enemies_of(source);
        for &e in enemies.as_slice() {
            // 800.50c: a boss's Power is drained only by a card authored to do so.
            if stat == Stat::Power && self.u.kind[e.i()] == CardKind::Boss {
                continue;
            }
            self.change_stat(source, e, stat, -amount.max(0));
        }
    }

    /// Shatter: removes a Frozen target's Freeze and returns the
    /// milliseconds removed for the payoff to scale with (800.62a, 800.62b).
    pub fn shatter(&mut self, source: UnitIdx, u: UnitIdx) -> i32 {
        let i = u.i();
        if self.u.freeze_ms[i] <= 0 || !self.passes_clearing_gate(u, source, "800.62a") {
            return 0;
        }
        let removed = self.u.freeze_ms[i];
        self.u.freeze_ms[i] = 0;
        self.touch_clock(u);
        self.emit(EventKind::Shattered, u, source, removed, 0, "800.62b");
        removed
    }

    /// Interest stacks, no timer (800.38a); Relentless refuses them (800.38f).
    pub fn apply_interest(&mut self, source: UnitIdx, u: UnitIdx, stacks: i32) {
        if stacks <= 0 || !self.passes_status_gate(u, source, Immunity::Blocked, "800.38f") {
            return;
        }
        let i = u.i();
        // A bound of ours: the debt is paid a stack at a time.
        self.u.interest[i] = self.u.interest[i]
            .saturating_add(stacks)
            .min(self.rules.interest.max_stacks);
        self.emit(
            EventKind::InterestApplied,
            u,
            source,
            stacks,
            self.u.interest[i],
            "800.38a",
        );
    }

    /// Pays `u`'s whole Interest debt (800.38a-800.38e): the stacks go first;
    /// a Relentless debtor then pays nothing (800.38e). Otherwise each stack
    /// takes 1 Vitality, Power, Speed or Armor at even odds (800.38b); the
    /// Vitality is a cost that lowers the maximum too (800.38c) and may kill
    /// (800.38d). The debtor's enemies' `interest_paid` lines follow, lethal
    /// payment or not (800.38g).
    pub fn pay_interest(&mut self, u: UnitIdx) {
        let i = u.i();
        let debt = std::mem::take(&mut self.u.interest[i]);
        if self.is_relentless(u) {
            self.emit(
                EventKind::Refused,
                u,
                UnitIdx::NONE,
                debt,
                Refusal::Relentless as i32,
                "800.38e",
            );
            return;
        }
        let mut parts = [0i32; 4];
        for _ in 0..debt {
            parts[self.rng.below(4) as usize] += 1;
        }
        let [vitality, power, speed, armor] = parts;
        self.u.power_bonus[i] = self.u.power_bonus[i].saturating_sub(power);
        self.u.speed_bonus[i] = self.u.speed_bonus[i].saturating_sub(speed);
        self.u.armor_bonus[i] = self.u.armor_bonus[i].saturating_sub(armor);
        // Speed changes the charge rate.
        self.touch_clock(u);
        self.emit(EventKind::InterestPaid, u, UnitIdx::NONE, debt, vitality, "800.38b");
        if vitality > 0 {
            self.u.max_vitality[i] = (self.u.max_vitality[i] - vitality).max(0);
            self.lose_vitality(u, vitality, UnitIdx::NONE, false);
        }
        let enemies = self.side_order[self.u.side[i].other().index()];
        for &e in enemies.as_slice() {
            self.dispatch(e, Trigger::InterestPaid, u);
        }
    }

    /// Relentless for the rest of the battle (800.56g).
    pub fn grant_relentless(&mut self, source: UnitIdx, u: UnitIdx, duration_ms: i32) {
        if !self.passes_recipient_gate(u, source, "800.56g") {
            return;
        }
        // 800.56g: a later grant is refused, not queued.
        if self.u.relentless_suppressed[u.i()] {
            self.emit(EventKind::Refused, u, source, 0, Refusal::Suppressed as i32, "800.56g");
            return;
        }
        let i = u.i();
        if duration_ms > 0 {
            // For a time: a longer grant already running is not cut short.
            self.u.relentless_ms[i] = self.u.relentless_ms[i].max(duration_ms);
            self.touch_clock(u);
        } else {
            self.u.relentless[i] = true;
        }
        self.emit(
            EventKind::RelentlessGranted,
            u,
            source,
            duration_ms.max(0),
            0,
            "800.56g",
        );
    }

    /// Suppresses Relentless for the rest of the battle (800.56g): the
    /// unit is treated as not having it, innate or granted, through death
    /// and revival (800.56h).
    pub fn suppress_relentless(&mut self, source: UnitIdx, u: UnitIdx) {
        if !self.passes_recipient_gate(u, source, "800.56g") {
            return;
        }
        self.u.relentless_suppressed[u.i()] = true;
        self.u.relentless[u.i()] = false;
        self.u.relentless_ms[u.i()] = 0;
        self.touch_clock(u);
        self.emit(EventKind::RelentlessSuppressed, u, source, 0, 0, "800.56g");
    }

    /// Repair restores a Tool's Durability directly, up to its ladder, and
    /// can bring back a Tool worn to 0 (800.18e, 900.34d).
    pub fn repair(&mut self, source: UnitIdx, u: UnitIdx, amount: i32) {
        let i = u.i();
        if self.u.kind[i] != CardKind::Tool {
            self.emit(
                EventKind::Refused,
                u,
                source,
                amount,
                Refusal::NotTool as i32,
                "800.18e",
            );
            return;
        }
        if self.u.permanent[i] || amount <= 0 {
            return;
        }
        let before = self.u.vitality[i];
        self.u.vitality[i] = before.saturating_add(amount).min(self.u.max_vitality[i]);
        self.u.alive[i] = true;
        self.touch_clock(u);
        self.emit(
            EventKind::Repaired,
            u,
            source,
            self.u.vitality[i] - before,
            self.u.vitality[i],
            "900.34d",
        );
    }

    /// A stat delta. Negative deltas are reductions and Relentless blocks
    /// them (900.10a).
    /// A Fleeting stat gain: the amount raised by Exalt (800.25c, 800.21a)
    /// is added like any gain, then loses a fifth of that original amount
    /// each second, so it is gone after five seconds whatever its size
    /// (800.25a, 800.25b). The loss so far is `original x seconds / 5`,
    /// rounded down, so the steps add up to the whole amount exactly.
    pub fn gain_fleeting(&mut self, source: UnitIdx, u: UnitIdx, stat: Stat, amount: i32) {
        if amount <= 0 || !self.passes_status_gate(u, source, Immunity::Ignored, "900.10a") {
            return;
        }
        let i = u.i();
        let received = self.exalted(u, amount);
        let f = self.rules.fleeting;
        let buff = super::FleetingBuff {
            stat: stat as u8,
            original: received,
            seconds: 0,
            next_ms: self.now.saturating_add(f.tick_ms),
        };
        if !self.u.fleeting[i].add(buff, f.buffs_per_unit.max(1) as usize) {
            return;
        }
        *self.stat_bonus(u, stat) = self.stat_bonus(u, stat).saturating_add(received);
        self.touch_clock(u);
        self.emit(EventKind::StatChanged, u, source, received, stat as i32, "800.25a");
    }

    /// One second of every Fleeting buff due on `u` (800.25a).
    pub fn fleeting_tick(&mut self, u: UnitIdx) {
        let i = u.i();
        self.touch_clock(u);
        let f = self.rules.fleeting;
        let steps = (100 / f.decay_percent_per_tick.max(1)).max(1);
        let mut set = self.u.fleeting[i];
        let mut losses = [(0u8, 0i32); crate::limits::MAX_FLEETING_BUFFS];
        let due = set.tick(self.now, f.tick_ms, steps, &mut losses);
        self.u.fleeting[i] = set;
        for &(stat, loss) in &losses[..due] {
            let stat = Stat::from_index(stat);
            *self.stat_bonus(u, stat) = self.stat_bonus(u, stat).saturating_sub(loss);
            self.emit(EventKind::FleetingDecayed, u, u, loss, stat as i32, "800.25a");
        }
    }

    fn stat_bonus(&mut self, u: UnitIdx, stat: Stat) -> &mut i32 {
        let i = u.i();
        match stat {
            Stat::Power => &mut self.u.power_bonus[i],
            Stat::Speed => &mut self.u.speed_bonus[i],
            Stat::Armor => &mut self.u.armor_bonus[i],
            Stat::Focus => &mut self.u.focus_bonus[i],
        }
    }

    pub fn change_stat(&mut self, source: UnitIdx, u: UnitIdx, stat: Stat, delta: i32) {
        let immunity = if delta < 0 {
            Immunity::Blocked
        } else {
            Immunity::Ignored
        };
        if delta == 0 || !self.passes_status_gate(u, source, immunity, "900.10a") {
            return;
        }
        let i = u.i();
        let col = match stat {
            Stat::Power => &mut self.u.power_bonus[i],
            Stat::Speed => &mut self.u.speed_bonus[i],
            Stat::Armor => &mut self.u.armor_bonus[i],
            Stat::Focus => &mut self.u.focus_bonus[i],
        };
        *col = col.saturating_add(delta);
        // Of the four stats the clock reads only Speed (its charge rate).
        if matches!(stat, Stat::Speed) {
            self.touch_clock(u);
        }
        self.emit(EventKind::StatChanged, u, source, delta, stat as i32, "900.10a");
    }
}

/// The stats a clause may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stat {
    Power = 0,
    Speed = 1,
    Armor = 2,
    Focus = 3,
}

impl Stat {
    pub fn from_index(i: u8) -> Stat {
        match i {
            0 => Stat::Power,
            1 => Stat::Speed,
            2 => Stat::Armor,
            _ => Stat::Focus,
        }
    }
}
