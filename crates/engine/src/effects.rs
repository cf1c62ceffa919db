//! Statuses and actions: the application gates (700.3, 700.4,
//! reconstructed), Burn, Venom, Maim, Cull, Crush, Smash and the
//! damage-over-time ticks; the control timers are in `timed_statuses.rs`,
//! effects on a unit's numbers in `stat_effects.rs`.

use super::damage::DamageKind;
use super::possible::Feature;
use super::{Engine, EventKind, NEVER, Refusal, UnitIdx, UnitList};
use gridsim_model::ability::CardKind;
use gridsim_model::ability::Trigger;

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

    pub(super) fn passes_gate(
        &mut self,
        u: UnitIdx,
        source: UnitIdx,
        reaches_dormant: bool,
        rule: &'static str,
    ) -> bool {
        let i = u.i();
        let why = if !self.u.alive[i] {
            Refusal::Dead
        } else if self.u.kind[i].is_object() {
            Refusal::Object
        } else if self.u.dormant[i] && !reaches_dormant {
            Refusal::Dormant
        } else if self.u.entrap_ms[i] > 0 && !self.through_entrap {
            // 800.19d: unless the clause explicitly passes Entrap.
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

    pub(super) fn add_burn(&mut self, source: UnitIdx, u: UnitIdx, amount: i32, kind: EventKind, rule: &'static str) {
        let i = u.i();
        let before = self.u.burn[i];
        self.u.burn[i] = (before.saturating_add(amount)).min(self.rules.burn.cap);
        self.u.burn_source[i] = source;
        self.u.burn_shares[i].add(source, self.u.burn[i] - before);
        if self.u.burn_next_ms[i] == NEVER {
            let next = self.now.saturating_add(self.rules.burn.tick_ms);
            self.write_clock_inputs(u, |c| c.burn_next_ms[i] = next);
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
            let next = self.now.saturating_add(self.rules.venom.tick_ms);
            self.write_clock_inputs(u, |c| c.venom_next_ms[i] = next);
        }
        self.emit(EventKind::VenomApplied, u, source, amount, self.u.venom[i], "800.73a");
    }

    /// Prismbreak raises a tick by 50%, rounded up (800.8i, 800.73d).
    pub(super) fn amplified_tick(&self, u: UnitIdx, amount: i32) -> i32 {
        if self.u.prismbreak_ms[u.i()] > 0 {
            let bonus = self.rules.prismbreak.tick_bonus_percent;
            super::arith::clamp_i32((i64::from(amount) * i64::from(100 + bonus) + 99) / 100)
        } else {
            amount
        }
    }

    /// One Burn tick: damage equal to the Burn, then decay by half rounded
    /// down but at least 1, then a 5% chance to copy onto the nearest ally
    /// of the burning unit (800.8b-800.8g, 900.33a-900.33c).
    pub fn burn_tick(&mut self, u: UnitIdx) {
        let i = u.i();
        // Every path below reschedules or ends the tick, through the
        // clock's door.
        let burn = self.u.burn[i];
        if burn <= 0 {
            self.write_clock_inputs(u, |c| c.burn_next_ms[i] = NEVER);
            return;
        }
        let source = self.u.burn_source[i];
        let tick = self.reduced_tick(u, self.amplified_tick(u, burn));
        let b = self.rules.burn;
        let decay = super::arith::percent_of(burn, b.decay_percent).max(b.decay_minimum);
        let left = (burn - decay).max(0);
        self.emit(EventKind::BurnTick, u, source, tick, left, "800.8b");
        // The appliers' parts as the tick lands: a revival within it
        // builds the unit again.
        let (deaths, shares) = (self.u.deaths[i], self.u.burn_shares[i]);
        let landed = self.deal_damage(source, u, tick, DamageKind::Burn).vitality_lost;
        self.feast_shares(shares, landed);
        // A tick that killed the unit ends its Burn, even when a Vessel
        // revived it within the tick: the revived unit is built again with
        // nothing suffered (800.49l, 500.9 as reconstructed).
        if !self.u.alive[i] || self.u.deaths[i] != deaths {
            // The tick's unit was killed (and perhaps built again), which
            // marked its clock.
            return;
        }
        self.u.burn[i] = left;
        self.u.burn_shares[i].rescale(burn, left);
        let next = if left == 0 {
            NEVER
        } else {
            self.now.saturating_add(b.tick_ms)
        };
        self.write_clock_inputs(u, |c| c.burn_next_ms[i] = next);
        if left == 0 {
            return;
        }
        // 900.33h: under a no-spread aura the roll is refused outright.
        if !self.spread_warded(u) && self.rng.chance_percent(b.spread_chance_percent) {
            self.spread_burn(u, left);
        }
    }

    /// Forge Core and rune tick reduction come after Prismbreak's
    /// amplification and before the pipeline (800.52a, 900.11d).
    pub(super) fn reduced_tick(&self, u: UnitIdx, tick: i32) -> i32 {
        let reduction = self.forge[self.u.side[u.i()].index()]
            .tick_reduction
            .saturating_add(self.rune_grants[u.i()].tick_reduction);
        (tick - reduction).max(0)
    }

    /// A living, active unit with the no-spread aura on the burning unit's side.
    pub(super) fn spread_warded(&self, u: UnitIdx) -> bool {
        let side = self.u.side[u.i()];
        // Most sides carry no aura at all: skip the scan for them.
        if !self.possible.on(Feature::Ward, side.index()) {
            return false;
        }
        self.u
            .indices()
            .any(|j| self.u.side[j] == side && self.u.alive[j] && !self.u.dormant[j] && self.u.no_burn_spread[j])
    }

    /// 800.8e, 800.8f, 900.33c, 900.33g: rank the burning unit's side by
    /// footprint distance, keep the nearest ties, one Focus-weighted roll;
    /// a Relentless winner refuses the copy and nobody is re-rolled.
    pub(super) fn spread_burn(&mut self, from: UnitIdx, amount: i32) {
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
        // Every path below reschedules or ends the tick, through the
        // clock's door.
        let stacks = self.u.venom[i];
        if stacks <= 0 {
            self.write_clock_inputs(u, |c| c.venom_next_ms[i] = NEVER);
            return;
        }
        let v = self.rules.venom;
        let span = (v.decay_max_percent - v.decay_min_percent + 1).max(1) as u32;
        let percent = v.decay_min_percent + self.rng.below(span) as i32;
        let decay = super::arith::percent_of(stacks, percent).max(v.decay_minimum);
        let left = (stacks - decay).max(0);
        let source = self.u.venom_source[i];
        let tick = self.reduced_tick(u, self.amplified_tick(u, stacks));
        self.emit(EventKind::VenomTick, u, source, tick, left, "800.73a");
        // The appliers' parts as the tick lands: a revival within it
        // builds the unit again.
        let (deaths, shares) = (self.u.deaths[i], self.u.venom_shares[i]);
        let landed = self.deal_damage(source, u, tick, DamageKind::Venom).vitality_lost;
        self.feast_shares(shares, landed);
        // As for Burn: a tick that killed the unit ends its Venom, a
        // revival within the tick notwithstanding (800.49l, 500.9).
        if !self.u.alive[i] || self.u.deaths[i] != deaths {
            return;
        }
        self.u.venom[i] = left;
        self.u.venom_shares[i].rescale(stacks, left);
        let next = if left == 0 {
            NEVER
        } else {
            self.now.saturating_add(v.tick_ms)
        };
        self.write_clock_inputs(u, |c| c.venom_next_ms[i] = next);
    }

    /// A tick's Feast, split between its appliers in proportion to their
    /// parts of the stack (800.22g): each applier with Feast heals from its
    /// own part of the Vitality the tick took.
    pub(super) fn feast_shares(&mut self, shares: super::ApplierShares, landed: i32) {
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
        let window = crate::CrushWindow {
            amount,
            expires_ms: expires,
            key,
        };
        self.write_clock_inputs(u, |c| c.crush[u.i()].add(window, cap));
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
        if self.u.smash_ms[i] > 0 {
            self.write_clock_inputs(u, |c| c.smash_ms[i] = c.smash_ms[i].saturating_add(duration_ms));
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
        self.write_clock_inputs(u, |c| c.smash_ms[i] = duration_ms);
        self.emit(
            EventKind::SmashApplied,
            u,
            source,
            duration_ms,
            i32::from(lower),
            "800.65a",
        );
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
