//! Effects on a unit's numbers and economy: Insurance, Dread and Harvest,
//! Repossess, stat reductions and Shatter, Interest, Relentless, Repair,
//! Fleeting buffs and stat changes.

use super::damage::Loss;
use super::effects::{Immunity, Stat};
use super::possible::Feature;
use super::{Engine, EventKind, Refusal, UnitIdx, UnitList};
use gridsim_model::ability::CardKind;
use gridsim_model::ability::Trigger;

impl Engine<'_> {
    /// Grants Insurance points; Relentless never blocks it (800.37g).
    pub fn grant_insurance(&mut self, source: UnitIdx, u: UnitIdx, points: i32, subrogated: bool) {
        if points <= 0 || !self.passes_status_gate(u, source, Immunity::Ignored, "800.37g") {
            return;
        }
        let i = u.i();
        // Holding Insurance of either kind brings in the insured stat
        // layer, whose Speed the clock reads.
        self.write_clock_inputs(u, |c| {
            let held = if subrogated {
                &mut c.subrogated[i]
            } else {
                &mut c.insurance[i]
            };
            *held = held.saturating_add(points);
        });
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
        if i32::from(self.nesting.depth) >= self.rules.insurance.reaction_depth {
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
        self.write_clock_inputs(u, |c| c.dread[i] = c.dread[i].saturating_add(stacks));
        self.emit(EventKind::DreadApplied, u, source, stacks, self.u.dread[i], "800.17a");
        if self.possible.any(Feature::Vessels) {
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
            self.write_clock_inputs(d, |c| c.dread[d.i()] -= 1);
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
    pub fn reduce_every_enemy(&mut self, source: UnitIdx, stat: Stat, amount: i32, drains_boss: bool) {
        let enemies = self.enemies_of(source);
        for &e in enemies.as_slice() {
            // 800.50c: a boss's Power is drained only by a card authored to
            // do so; the drain comes off before a Lucid boss's doubling
            // (800.41e, 800.3e), as every Power delta does.
            if stat == Stat::Power && self.u.kind[e.i()] == CardKind::Boss && !drains_boss {
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
        self.write_clock_inputs(u, |c| c.freeze_ms[i] = 0);
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
        self.u.armor_bonus[i] = self.u.armor_bonus[i].saturating_sub(armor);
        // Speed changes the charge rate.
        self.write_clock_inputs(u, |c| c.speed_bonus[i] = c.speed_bonus[i].saturating_sub(speed));
        self.emit(EventKind::InterestPaid, u, UnitIdx::NONE, debt, vitality, "800.38b");
        if vitality > 0 {
            self.u.max_vitality[i] = (self.u.max_vitality[i] - vitality).max(0);
            self.lose_vitality(u, vitality, UnitIdx::NONE, Loss::Interest);
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
            self.write_clock_inputs(u, |c| c.relentless_ms[i] = c.relentless_ms[i].max(duration_ms));
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
        self.write_clock_inputs(u, |c| c.relentless_ms[u.i()] = 0);
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
        self.write_clock_inputs(u, |c| c.alive[i] = true);
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
        let cap = f.buffs_per_unit.max(1) as usize;
        // The set's next decay is one of the unit's events.
        if !self.write_clock_inputs(u, |c| c.fleeting[i].add(buff, cap)) {
            return;
        }
        self.add_stat_bonus(u, stat, received);
        self.emit(EventKind::StatChanged, u, source, received, stat as i32, "800.25a");
    }

    /// One second of every Fleeting buff due on `u` (800.25a).
    pub fn fleeting_tick(&mut self, u: UnitIdx) {
        let i = u.i();
        let f = self.rules.fleeting;
        let steps = (100 / f.decay_percent_per_tick.max(1)).max(1);
        let mut losses = [(0u8, 0i32); gridsim_core::limits::MAX_FLEETING_BUFFS];
        let now = self.now;
        let due = self.write_clock_inputs(u, |c| c.fleeting[i].tick(now, f.tick_ms, steps, &mut losses));
        for &(stat, loss) in &losses[..due] {
            let stat = Stat::from_index(stat);
            // A decay is never negative: taking it off is adding its opposite.
            self.add_stat_bonus(u, stat, -loss);
            self.emit(EventKind::FleetingDecayed, u, u, loss, stat as i32, "800.25a");
        }
    }

    /// Adds `delta` to a unit's bonus to `stat`: Speed's through the
    /// clock's door, since the clock reads it (the charge rate).
    pub(super) fn add_stat_bonus(&mut self, u: UnitIdx, stat: Stat, delta: i32) {
        let i = u.i();
        match stat {
            Stat::Power => self.u.power_bonus[i] = self.u.power_bonus[i].saturating_add(delta),
            Stat::Speed => self.write_clock_inputs(u, |c| c.speed_bonus[i] = c.speed_bonus[i].saturating_add(delta)),
            Stat::Armor => self.u.armor_bonus[i] = self.u.armor_bonus[i].saturating_add(delta),
            Stat::Focus => self.u.focus_bonus[i] = self.u.focus_bonus[i].saturating_add(delta),
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
        self.add_stat_bonus(u, stat, delta);
        self.emit(EventKind::StatChanged, u, source, delta, stat as i32, "900.10a");
    }
}
