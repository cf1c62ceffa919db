//! Extra and forced activations, and what closes an activation: Cascade
//! (800.9), Shock (800.64), Haywire (800.31), Overclock's blowout (800.45),
//! Supercharge (800.69) and Poach (800.51), Feral misfires (800.23),
//! Initiative (800.36), and the chains they build (900.16, 900.17).
//!
//! A natural activation and everything it sets off is one chain: its
//! Cascade links and the forced activations nested inside it. The close of
//! one activation runs, in order: the unit's own follow-up passives
//! (900.8f), the blowout roll (800.45b), Haywire (800.31b, 900.17d), the
//! allies' Supercharge and Poach (800.69b), then the Cascade roll (800.9a).

use super::effects::Immunity;
use super::possible::Feature;
use super::{ActCtx, Engine, EventKind, Refusal, UnitIdx};
use gridsim_model::ability::{CardKind, Trigger};
use gridsim_model::statuses::TimedStatus;

impl Engine<'_> {
    /// A natural activation (its charge already spent) and the Cascade
    /// re-triggers it sets off, as one chain (800.9a, 800.69c).
    #[inline]
    pub fn activate_chain(&mut self, u: UnitIdx, forced_target: UnitIdx) {
        if self.nesting.activating == 0 {
            self.nesting.supercharged = 0;
        }
        let mut again = self.activate(u, forced_target);
        while again {
            again = self.activate(u, UnitIdx::NONE);
        }
    }

    /// Shock (800.64): a Frozen recipient loses up to 3 s of Freeze and
    /// nothing else (800.64a, 900.15a, 900.15b); any other is forced to
    /// activate now (800.64b). Once per unit per Shock resolution, nested at
    /// most 10 deep (800.64e, 900.16d).
    pub fn shock(&mut self, source: UnitIdx, t: UnitIdx) {
        let i = t.i();
        // 800.64f, 900.15d: an untargetable unit is out of Shock's reach,
        // and Shock does nothing to a unit with no ability, not even thaw it.
        if !self.is_targetable(t) {
            return;
        }
        if !self.u.has_ability[i] {
            self.emit(EventKind::Refused, t, source, 0, Refusal::NoAbility as i32, "800.64f");
            return;
        }
        if self.u.freeze_ms[i] > 0 {
            let thawed = self.u.freeze_ms[i].min(self.rules.shock.thaw_ms.max(0));
            self.write_clock_inputs(t, |c| c.freeze_ms[i] -= thawed);
            self.emit(
                EventKind::ShockThawed,
                t,
                source,
                thawed,
                self.u.freeze_ms[i],
                "800.64a",
            );
            return;
        }
        let refusal = if self.u.stun_ms[i] > 0 {
            // 800.68a: a Stunned unit cannot activate, forced or not.
            Some((Refusal::Stunned, "800.68a"))
        } else if self.nesting.shocked & (1 << i) != 0 {
            Some((Refusal::AlreadyShocked, "800.64e"))
        } else if i32::from(self.nesting.forced_depth) >= self.rules.shock.max_depth {
            Some((Refusal::ShockDepth, "800.64e"))
        } else {
            None
        };
        if let Some((why, rule)) = refusal {
            self.emit(EventKind::Refused, t, source, 0, why as i32, rule);
            return;
        }
        self.nesting.shocked |= 1 << i;
        self.forced_activation(t, source);
    }

    /// Opens a Shock resolution before a Shock clause reaches its
    /// recipients: one clause, all its recipients and everything they set
    /// off, is one resolution (800.64e). Nested inside a forced activation,
    /// the clause belongs to the resolution already open. Outside any
    /// activation it also starts a chain (800.69c).
    pub(crate) fn open_shock_resolution(&mut self) {
        if self.nesting.forced_depth == 0 {
            self.nesting.shocked = 0;
            if self.nesting.activating == 0 {
                self.nesting.supercharged = 0;
            }
        }
    }

    /// One forced activation with everything it sets off. The unit's charge
    /// and Cascade depth are captured before and restored after, so the
    /// natural cycle is untouched (800.64b, 900.16b). A Cascade inside a
    /// Shock chain is another forced activation, so both caps bound it
    /// (900.16f).
    fn forced_activation(&mut self, u: UnitIdx, source: UnitIdx) {
        let i = u.i();
        let charge = self.charge(u);
        let depth = self.u.cascade_depth[i];
        self.nesting.forced_depth += 1;
        self.emit(
            EventKind::Shocked,
            u,
            source,
            i32::from(self.nesting.forced_depth),
            0,
            "800.64b",
        );
        let again = self.activate(u, UnitIdx::NONE);
        if again {
            if i32::from(self.nesting.forced_depth) < self.rules.shock.max_depth {
                self.forced_activation(u, u);
            } else {
                self.emit(EventKind::Refused, u, u, 0, Refusal::ShockDepth as i32, "900.16f");
            }
        }
        self.nesting.forced_depth -= 1;
        if self.u.alive[i] {
            self.u.cascade_depth[i] = depth;
            self.set_charge(u, charge);
        }
    }

    /// The Cascade roll at the close of an activation (800.9a-800.9e);
    /// `died` says the unit died during it. Returns whether the unit
    /// activates again.
    #[inline]
    pub(crate) fn cascade_roll(&mut self, u: UnitIdx, died: bool) -> bool {
        let i = u.i();
        if !self.u.cascade[i] {
            return false;
        }
        // 800.9e: "A dead unit cannot Cascade. No keyword grants an
        // exception": a unit that died in this activation does not roll,
        // though a Vessel revived it at once (800.49j); the depth resets.
        if died {
            self.u.cascade_depth[i] = 0;
            return false;
        }
        // 800.9d, 800.9e: dead or Entrapped, no Cascade; the depth resets.
        // A Stunned or Dormant unit cannot activate either (800.68a,
        // 800.16d): exactly the units that cannot charge.
        // 800.9c: past 7 re-triggers the chain ends, and with it its depth.
        if !self.is_charging(u) || self.u.cascade_depth[i] >= self.rules.cascade.max_retriggers {
            self.u.cascade_depth[i] = 0;
            return false;
        }
        // 800.9b: rolled fresh for every link, never above the ceiling.
        let chance = self.cascade_chance(u);
        if !self.rng.chance_percent(chance) {
            self.u.cascade_depth[i] = 0;
            return false;
        }
        self.u.cascade_depth[i] += 1;
        self.emit(
            EventKind::Cascade,
            u,
            UnitIdx::NONE,
            self.u.cascade_depth[i],
            chance,
            "800.9a",
        );
        // 800.9f: both channels.
        self.dispatch(u, Trigger::Cascaded, u);
        let side = self.u.side[i].index();
        let allies = self.side_order[side];
        for &a in allies.as_slice() {
            if a != u {
                self.dispatch(a, Trigger::AllyCascaded, u);
            }
        }
        true
    }

    /// What closes `u`'s activation after its own follow-up passives:
    /// blowout, Haywire, then the allies' Supercharge and Poach (800.69b).
    /// `haywire_at_start` is the Haywire held when the activation began
    /// (800.31c, 900.17a).
    #[inline]
    pub(crate) fn close_activation(&mut self, u: UnitIdx, haywire_at_start: i32) {
        let i = u.i();
        // 800.45b, 900.39a: rolled after every effect the activation
        // authored has read the stacks.
        if self.u.overclock[i] > 0 && self.u.alive[i] {
            self.blowout_roll(u);
        }
        // 800.31b-800.31d, 900.17c: only Haywire held when the activation
        // began fires, and some must still be held.
        if haywire_at_start > 0 && self.u.haywire[i] > 0 && self.u.alive[i] {
            self.u.haywire[i] -= 1;
            self.emit(
                EventKind::HaywireFired,
                u,
                UnitIdx::NONE,
                1,
                self.u.haywire[i],
                "800.31b",
            );
            if self.u.haywire[i] == 0 {
                // 800.31e: before the Stun (900.17c).
                self.dispatch(u, Trigger::HaywireEmptied, u);
            }
            // 800.31b: the stack goes whatever becomes of the Stun; a
            // self-applied Stun is still a Stun (900.39e).
            self.apply_timed(TimedStatus::Stun, u, u, self.rules.haywire.stun_ms);
        }
        let side = self.u.side[i].index();
        if self.possible.on(Feature::HearsActivations, side) {
            self.allies_hear_activation(u);
        }
    }

    /// Supercharge (800.69a, 800.69c) and Poach (800.51a-800.51c): the
    /// activating unit's allies that listen, in resolution order.
    #[inline(never)]
    fn allies_hear_activation(&mut self, u: UnitIdx) {
        let i = u.i();
        let side = self.u.side[i].index();
        let rect = self.u.rect[i];
        // 800.51c: a Scrip unit (size 1, or a Penny) does not set off Poach.
        let poachable = self.u.kind[i] != CardKind::Penny && rect.size > 1;
        let allies = self.side_order[side];
        for &a in allies.as_slice() {
            let j = a.i();
            if a == u || !self.u.alive[j] {
                continue;
            }
            let listens = self.facts[usize::from(self.u.card[j].0)].listens;
            if listens & super::trigger_bit(Trigger::Supercharge) != 0
                && self.nesting.supercharged & (1 << j) == 0
                && super::geometry::adjacent(rect, self.u.rect[j])
                && !self.u.dormant[j]
            {
                self.nesting.supercharged |= 1 << j;
                self.dispatch(a, Trigger::Supercharge, u);
            }
            if poachable && listens & super::trigger_bit(Trigger::Poach) != 0 {
                self.dispatch(a, Trigger::Poach, u);
            }
        }
    }

    /// The blowout roll: 5% per Overclock stack held, at most 100%; a
    /// blowout clears every stack and Stuns for 2 s (800.45c, 800.45d).
    fn blowout_roll(&mut self, u: UnitIdx) {
        let i = u.i();
        let stacks = self.u.overclock[i];
        let chance = stacks
            .saturating_mul(self.rules.overclock.blowout_percent_per_stack)
            .min(100);
        if !self.rng.chance_percent(chance) {
            return;
        }
        // Speed falls with the stacks.
        self.write_clock_inputs(u, |c| c.overclock[i] = 0);
        self.emit(EventKind::Blowout, u, UnitIdx::NONE, stacks, chance, "800.45d");
        // 900.39e: Relentless blocks the Stun, not the loss.
        self.apply_timed(TimedStatus::Stun, u, u, self.rules.overclock.blowout_stun_ms);
    }

    /// Haywire stacks, at most 5 (800.31a); Relentless blocks them (800.31f).
    pub fn apply_haywire(&mut self, source: UnitIdx, u: UnitIdx, stacks: i32) {
        if stacks <= 0 || !self.passes_status_gate(u, source, Immunity::Blocked, "800.31f") {
            return;
        }
        let i = u.i();
        self.u.haywire[i] = self.u.haywire[i].saturating_add(stacks).min(self.rules.haywire.cap);
        self.emit(
            EventKind::HaywireApplied,
            u,
            source,
            stacks,
            self.u.haywire[i],
            "800.31a",
        );
    }

    /// Overclock stacks, no cap (800.45a, 800.45c). Gaining them never rolls
    /// (800.45b).
    pub fn apply_overclock(&mut self, source: UnitIdx, u: UnitIdx, stacks: i32) {
        if stacks <= 0 || !self.passes_recipient_gate(u, source, "800.45a") {
            return;
        }
        let i = u.i();
        // Speed changes the charge rate.
        self.write_clock_inputs(u, |c| c.overclock[i] = c.overclock[i].saturating_add(stacks));
        self.emit(
            EventKind::OverclockApplied,
            u,
            source,
            stacks,
            self.u.overclock[i],
            "800.45a",
        );
    }

    /// Feral stacks, at most 10 (800.23a, 900.21d); Relentless blocks them
    /// (800.23f, 900.21e).
    pub fn apply_feral(&mut self, source: UnitIdx, u: UnitIdx, stacks: i32) {
        if stacks <= 0 || !self.passes_status_gate(u, source, Immunity::Blocked, "800.23f") {
            return;
        }
        let i = u.i();
        self.u.feral[i] = self.u.feral[i].saturating_add(stacks).min(self.rules.feral.cap);
        self.emit(EventKind::FeralApplied, u, source, stacks, self.u.feral[i], "800.23a");
    }

    /// Consecrate stacks on the recipient, raised by its Exalt (800.10c);
    /// refused by the dead, Entrapped, Dormant, Tools and Hubs (800.10d).
    /// The stacks give Power to the recipient's neighbours, not to itself.
    pub fn consecrate(&mut self, source: UnitIdx, u: UnitIdx, stacks: i32) {
        if stacks <= 0 || !self.passes_recipient_gate(u, source, "800.10d") {
            return;
        }
        let i = u.i();
        let stacks = self.exalted(u, stacks);
        self.u.consecrate[i] = self.u.consecrate[i].saturating_add(stacks);
        self.possible.mark(Feature::Consecrate, self.u.side[i].index(), true);
        self.emit(
            EventKind::Consecrated,
            u,
            source,
            stacks,
            self.u.consecrate[i],
            "800.10a",
        );
    }

    /// Rabid for the rest of the battle (800.55e).
    pub fn grant_rabid(&mut self, source: UnitIdx, u: UnitIdx) {
        if !self.passes_recipient_gate(u, source, "800.55e") {
            return;
        }
        self.u.rabid[u.i()] = true;
        self.emit(EventKind::RabidGranted, u, source, 0, 0, "800.55e");
    }

    /// The Feral roll, taken once before the target is fixed (800.23b,
    /// 900.21a): `Some(pick)` when the activation misfires.
    pub(crate) fn feral_misfire(&mut self, u: UnitIdx) -> Option<Option<UnitIdx>> {
        let i = u.i();
        let chance = self.u.feral[i]
            .saturating_mul(self.rules.feral.misfire_percent_per_stack)
            .min(100);
        if !self.rng.chance_percent(chance) {
            return None;
        }
        // 800.23c, 900.21c: every targetable unit but the Feral unit itself
        // and allies immune to ally damage; 800.23d: Focus-weighted and
        // Rabid-filtered like any pick.
        let side = self.u.side[i];
        let mut pool = super::UnitList::default();
        for &c in self.order() {
            let j = c.i();
            if c != u && self.is_targetable(c) && !(self.u.side[j] == side && self.u.ally_damage_immune[j]) {
                pool.push(c);
            }
        }
        let pool = self.rabid_filter(u, pool);
        let pick = self.focus_pick(pool.as_slice());
        if let Some(t) = pick {
            self.emit(EventKind::Misfire, u, t, 0, chance, "800.23a");
        }
        Some(pick)
    }

    /// Rabid drops the unit's previous target from a pool, unless that
    /// would empty it (800.55a, 800.55b).
    pub(crate) fn rabid_filter(&self, u: UnitIdx, mut pool: super::UnitList) -> super::UnitList {
        let last = self.u.last_target[u.i()];
        if self.u.rabid[u.i()]
            && !last.is_none()
            && pool.len() > 1
            && let Some(at) = pool.as_slice().iter().position(|&x| x == last)
        {
            pool.remove_at(at);
        }
        pool
    }

    /// The Initiative pass of `u`'s first activation: its `initiative`
    /// clauses, then once more per repeat its adjacent allies grant, each
    /// with fresh rolls (800.36a-800.36d, 900.31b, 900.31c). The gate is
    /// spent when the clauses resolve (900.31a).
    pub(crate) fn resolve_initiative(&mut self, ctx: &mut ActCtx) {
        let u = ctx.actor;
        let i = u.i();
        let card = self.catalog.card(self.u.card[i]);
        if card.initiative.is_empty() || self.u.initiative_done[i] {
            return;
        }
        self.u.initiative_done[i] = true;
        let repeats = if self.possible.on(Feature::GrantsInitiative, self.u.side[i].index()) {
            self.initiative_repeats_for(u)
        } else {
            0
        };
        let catalog = self.catalog;
        for pass in 0..=repeats {
            self.emit(EventKind::Initiative, u, ctx.target, pass, 0, "800.36a");
            for op in catalog.ops(card.initiative) {
                self.resolve_op(op, ctx);
            }
        }
    }

    /// Repeats granted by living adjacent allies (800.36c).
    fn initiative_repeats_for(&self, u: UnitIdx) -> i32 {
        let (side, at) = (self.u.side[u.i()], self.u.rect[u.i()]);
        self.side_order[side.index()]
            .as_slice()
            .iter()
            .filter(|&&c| {
                let j = c.i();
                c != u && self.u.alive[j] && !self.u.dormant[j] && super::geometry::adjacent(at, self.u.rect[j])
            })
            .map(|&c| self.u.initiative_repeats[c.i()].max(0))
            .fold(0i32, i32::saturating_add)
            .min(i32::from(u8::MAX))
    }

    /// Pushes `u`'s Initiative early: it resolves on `u`, against `u`'s own
    /// pick of target and with `u`'s stats, and the bonus damage it builds
    /// is dealt to that target (800.36e, 900.31d).
    pub fn push_initiative(&mut self, source: UnitIdx, u: UnitIdx) {
        if !self.passes_recipient_gate(u, source, "800.36e") {
            return;
        }
        let i = u.i();
        if self.u.initiative_done[i] || self.catalog.card(self.u.card[i]).initiative.is_empty() {
            return;
        }
        let Some(target) = self.pick_primary_target(u) else {
            return;
        };
        let mut ctx = ActCtx::new(u, target, u);
        ctx.joins_hit = true;
        self.resolve_initiative(&mut ctx);
        if ctx.bonus > 0 && self.u.alive[target.i()] {
            self.deal_damage(u, target, ctx.bonus, super::damage::DamageKind::Ability);
        }
    }
}
