//! The activation sequence (300.3, reconstructed) and the clause
//! interpreter: targeting, lanes, scopes, amounts, conditions, passives.
//!
//! Steps, in order: activation start (target pick with Focus and Rabid,
//! Penny mint), the Bloodletting cost (800.4a), hoisted armor setup
//! (900.2a), the activation lane with bonus damage accumulating (900.7a),
//! Lucid clauses (800.41b), the base hit (900.7b), the post-damage lane
//! (900.1a), and the follow-up step for passives reacting to the unit's own
//! activation (900.8f).

use super::arith::div_ceil;
use super::damage::{DamageKind, Loss};
use super::effects::Stat;
use super::possible::Feature;
use super::timed_statuses::RoostBonus;
use super::{ActCtx, Engine, EventKind, UnitIdx, UnitList};
use gridsim_model::ability::{Amount, CardKind, Condition, Count, PackageEvent, PackageTiming, Scope, Trigger};
use gridsim_model::catalog::Op;
use gridsim_model::effects::Effect;

impl Engine<'_> {
    /// One Focus-weighted pick: each candidate's chance is its Focus, floored
    /// at 1, over the pool's total (900.30a-900.30c).
    pub fn focus_pick(&mut self, pool: &[UnitIdx]) -> Option<UnitIdx> {
        if pool.len() < 2 {
            return pool.first().copied();
        }
        let floor = self.rules.targeting.focus_floor;
        // Each candidate's Focus is read once.
        for (k, &u) in pool.iter().enumerate().take(super::MAX_UNITS) {
            self.pick.pool[k] = u;
            self.pick.weights[k] = self.focus(u).max(floor);
        }
        self.pick_weighted(pool.len().min(super::MAX_UNITS))
    }

    /// The roll of a Focus-weighted pick over the first `n` candidates of
    /// the pick scratch, already weighed: one alone is taken without a roll.
    fn pick_weighted(&mut self, n: usize) -> Option<UnitIdx> {
        let n = n.min(super::MAX_UNITS);
        let (pool, weights) = (&self.pick.pool[..n], &self.pick.weights[..n]);
        match n {
            0 => return None,
            1 => return Some(pool[0]),
            _ => {}
        }
        let total: i64 = weights.iter().map(|&w| i64::from(w)).sum();
        let total = total.clamp(1, i64::from(u32::MAX)) as u32;
        let mut roll = i64::from(self.rng.below(total));
        for (&w, &u) in weights.iter().zip(pool) {
            roll -= i64::from(w);
            if roll < 0 {
                return Some(u);
            }
        }
        pool.last().copied()
    }

    /// Count-limited pick without repeats (900.30e).
    fn focus_pick_many(&mut self, mut pool: UnitList, count: u8, out: &mut UnitList) {
        for _ in 0..count {
            let Some(u) = self.focus_pick(pool.as_slice()) else {
                break;
            };
            out.push(u);
            if let Some(at) = pool.as_slice().iter().position(|&x| x == u) {
                pool.remove_at(at);
            }
        }
    }

    /// Living targetable enemies of `u`, in resolution order.
    pub(crate) fn enemies_of(&self, u: UnitIdx) -> UnitList {
        let mut list = UnitList::default();
        let enemy_side = self.u.side[u.i()].other().index();
        for &c in self.side_order[enemy_side].as_slice() {
            if self.in_reach(c) {
                list.push(c);
            }
        }
        list
    }

    pub(crate) fn allies_of(&self, u: UnitIdx, include_self: bool) -> UnitList {
        let mut list = UnitList::default();
        for &c in self.side_order[self.u.side[u.i()].index()].as_slice() {
            if (include_self || c != u) && self.in_reach(c) {
                list.push(c);
            }
        }
        list
    }

    /// Whether a clause's scope takes in `c`: a targetable unit, or, while
    /// a clause that passes Entrap resolves, one that is untargetable only
    /// for being Entrapped (800.19d).
    fn in_reach(&self, c: UnitIdx) -> bool {
        if self.through_entrap {
            let i = c.i();
            self.u.alive[i] && !self.u.dormant[i] && !self.u.kind[i].is_object()
        } else {
            self.is_targetable(c)
        }
    }

    /// Primary target: a Focus-weighted enemy; Rabid drops the last target
    /// unless that would empty the pool (800.55a, 800.55b).
    pub fn pick_primary_target(&mut self, u: UnitIdx) -> Option<UnitIdx> {
        // One pass over the enemies, weighing each as it is found.
        let floor = self.rules.targeting.focus_floor;
        let enemy_side = self.u.side[u.i()].other().index();
        let mut n = 0;
        for &c in self.side_order[enemy_side].as_slice() {
            // Written in every slot and kept only for a target, without a
            // branch: `n` never passes the units seen, so `n % MAX_UNITS` is `n`.
            let slot = n % super::MAX_UNITS;
            self.pick.pool[slot] = c;
            self.pick.weights[slot] = self.focus(c).max(floor);
            n += usize::from(self.is_targetable(c));
        }
        let last = self.u.last_target[u.i()];
        if self.u.rabid[u.i()]
            && !last.is_none()
            && n > 1
            && let Some(at) = self.pick.pool[..n].iter().position(|&x| x == last)
        {
            self.pick.pool.copy_within(at + 1..n, at);
            self.pick.weights.copy_within(at + 1..n, at);
            n -= 1;
        }
        self.pick_weighted(n)
    }

    /// Runs one activation of `u`, natural or forced, and returns whether
    /// its Cascade succeeded, so that it activates again (800.9a). A
    /// `forced_target` overrides the pick (used by scenarios).
    #[inline]
    pub fn activate(&mut self, u: UnitIdx, forced_target: UnitIdx) -> bool {
        self.nesting.activating += 1;
        // 800.49e: one activation and its whole trigger tree is one batch;
        // a nested one joins it.
        self.open_batch();
        let again = self.run_activation(u, forced_target);
        self.close_batch();
        self.nesting.activating -= 1;
        again
    }

    fn run_activation(&mut self, u: UnitIdx, forced_target: UnitIdx) -> bool {
        let i = u.i();
        if !self.u.alive[i] || !self.u.has_ability[i] {
            return false;
        }
        let card_id = self.u.card[i];
        let catalog = self.catalog;
        let card = catalog.card(card_id);
        self.u.activations[i] += 1;
        if self.possible.any(Feature::Quests) {
            self.quest_event(self.u.side[i], gridsim_model::ability::QuestEvent::AllyActivation);
        }
        // 800.31c, 900.17a: only Haywire held now may fire at the close.
        let haywire_at_start = self.u.haywire[i];
        // 800.9e: a unit that dies in its activation cannot Cascade from it,
        // even when a Vessel has brought it back before the close.
        let deaths_at_start = self.u.deaths[i];

        // 800.4k, 900.20f, 900.40e: immediate rune effects resolve at the
        // start, whatever happens to the attack after.
        if self.possible.any(Feature::Runes) && self.rune_grants[i].activation_shield > 0 {
            let shield = self.rune_grants[i].activation_shield;
            self.gain_shield(u, shield, u);
        }
        // Activation start: target selection, the Feral roll first (800.23b);
        // 900.21e: a Relentless unit never misfires, whatever it holds.
        let target = if !forced_target.is_none() {
            Some(forced_target)
        } else if self.u.feral[i] > 0
            && !self.is_relentless(u)
            && let Some(pick) = self.feral_misfire(u)
        {
            pick
        } else {
            self.pick_primary_target(u)
        };
        let Some(target) = target else {
            // 900.40e: no living target, the whole attack is skipped.
            self.emit(EventKind::NoTarget, u, UnitIdx::NONE, 0, 0, "900.40e");
            return false;
        };
        self.u.last_target[i] = target;
        if self.log.enabled {
            self.emit(EventKind::Activate, u, target, self.power(u), 0, "300.3");
        }
        // 800.38a: the whole Interest debt, after the target is chosen and
        // before anything else; 800.38d: the activation goes on regardless.
        if self.u.interest[i] > 0 {
            self.pay_interest(u);
        }
        // 800.47b: a Penny may mint Stock at the activation-start step,
        // alongside the Penny-activated channel, which its side hears.
        if self.u.kind[i] == CardKind::Penny {
            let side = self.u.side[i].index();
            if self.rng.chance_percent(self.rules.penny.stock_mint_chance_percent) {
                self.stock[side] += 1;
                self.emit(EventKind::StockMinted, u, UnitIdx::NONE, 1, self.stock[side], "800.47b");
                self.quest_event(self.u.side[i], gridsim_model::ability::QuestEvent::StockMinted);
            }
            let allies = self.side_order[side];
            for &a in allies.as_slice() {
                self.dispatch(a, Trigger::PennyActivated, u);
            }
        }

        let mut ctx = ActCtx::new(u, target, u);
        ctx.joins_hit = true;
        // 800.5c: Bloodlust is sampled once, before anything of this
        // activation resolves: an enemy this activation drops below half,
        // by its hit or by its own AoE or Tremor in the activation lane,
        // enables Bloodlust only from the next activation.
        if self.facts[usize::from(card_id.0)].samples_bloodlust {
            ctx.bloodlust_sample = Some(self.bloodlust(u));
        }
        // 800.4a: the cost is paid before the activation's damage is
        // computed, so every clause that reads the cost paid sees it (900.20g).
        if let Some(cost) = card.bloodletting
            && !self.pay_bloodletting(u, cost, &mut ctx)
        {
            self.emit(EventKind::AbilityAborted, u, UnitIdx::NONE, 0, 0, "800.4k");
            return false;
        }
        // 800.20c: a new-target rune's bonus joins the hit; an aborted
        // activation never reaches it (800.4k lets only immediate rune
        // effects resolve), so the target stays new.
        if self.possible.any(Feature::Runes) {
            ctx.bonus = ctx.bonus.saturating_add(self.new_target_bonus(u, target));
        }
        // 900.3a: immediate Tool packages resolve before anything of the
        // ally's own, armor setup hoisted at three levels (900.3c-900.3e).
        self.run_packages(PackageEvent::AllyActivated, Some(PackageTiming::Immediate), u, target);
        for op in catalog.ops(card.hoisted) {
            self.resolve_op(op, &mut ctx);
        }
        // 800.36a, 900.31b: Initiative, first activation only, before the hit.
        if !card.initiative.is_empty() {
            self.resolve_initiative(&mut ctx);
        }
        for op in catalog.ops(card.activation) {
            self.resolve_op(op, &mut ctx);
        }
        for op in catalog.ops(card.lucid) {
            self.resolve_op(op, &mut ctx);
        }
        ctx.joins_hit = false;

        if card.base_hit || ctx.bonus > 0 {
            let base = if card.base_hit { self.power(u) } else { 0 };
            let damage = base.saturating_add(ctx.bonus);
            if damage <= 0 || !self.u.alive[target.i()] {
                // 900.40a: the damage step is skipped; post-damage still runs.
                self.emit(EventKind::HitSkipped, target, u, damage, 0, "900.40a");
            } else {
                let report = self.deal_damage(u, target, damage, DamageKind::Hit);
                ctx.hit_landed = report.removed_something();
            }
        }

        for op in catalog.ops(card.post_damage) {
            self.resolve_op(op, &mut ctx);
        }
        // 800.71d: Tool packages after the ally's impact, then after it completes.
        self.run_packages(PackageEvent::AllyActivated, Some(PackageTiming::AfterImpact), u, target);
        self.run_packages(
            PackageEvent::AllyActivated,
            Some(PackageTiming::AfterActivation),
            u,
            target,
        );

        // Follow-up step: passives reacting to the unit's own activation (900.8f).
        self.dispatch(u, Trigger::OwnActivation, target);
        // 800.16f: an activation of this side counts towards its Dormant
        // allies' wake conditions.
        let side = self.u.side[i].index();
        if self.wake_watch[side] != 0 {
            self.count_towards_wake(side, false, 1);
        }
        self.close_activation(u, haywire_at_start);
        self.cascade_roll(u, self.u.deaths[i] != deaths_at_start)
    }

    /// 800.4b-800.4m: the first unit in reading order on the caster's side,
    /// where the units stand at the payment (800.14f), pays the whole cost as a Vitality loss; a Tool or Hub first in line
    /// pays nothing and so aborts the ability. Returns whether it may go on.
    fn pay_bloodletting(&mut self, caster: UnitIdx, cost: Amount, ctx: &mut ActCtx) -> bool {
        // 800.4l, 900.20g: a reduction rune lowers the cost before a payer
        // is chosen.
        let cost = (self.amount(cost, ctx) - self.rune_grants[caster.i()].bloodletting_reduction).max(0);
        if cost <= 0 {
            // 800.4m: nothing to pay, the step is skipped.
            return true;
        }
        let side = self.u.side[caster.i()];
        let payer = if self.u.kind[caster.i()] == CardKind::Boss {
            Some(caster)
        } else {
            // 800.4b with 800.14f: reading order is read from the positions
            // as they stand at the payment, not from the resolution order,
            // which a Displace earlier in the same step leaves stale until
            // the next step.
            let mut first: Option<UnitIdx> = None;
            for &c in self.side_order[side.index()].as_slice() {
                let j = c.i();
                let eligible = self.u.alive[j] && self.u.entrap_ms[j] == 0 && self.u.kind[j] != CardKind::Boss;
                let key = super::geometry::reading_key(self.u.rect[j]);
                if eligible && first.is_none_or(|f| key < super::geometry::reading_key(self.u.rect[f.i()])) {
                    first = Some(c);
                }
            }
            first
        };
        let Some(payer) = payer else { return false };
        if self.u.kind[payer.i()].is_object() {
            return false;
        }
        // 800.4g: clamped to what the payer has; logged before a death it causes.
        let paid = cost.min(self.u.vitality[payer.i()]);
        self.emit(EventKind::BloodlettingPaid, payer, caster, paid, cost, "800.4f");
        let lost = self.lose_vitality(payer, paid, UnitIdx::NONE, Loss::Payment);
        ctx.cost_paid = paid;
        // 800.4i: the payment fires only this channel, and only when the
        // payer lost Vitality (a payer it killed hears nothing, 900.8c).
        if lost > 0 {
            self.dispatch(payer, Trigger::BloodlettingPaid, caster);
        }
        paid > 0
    }

    /// Bloodlust: some living targetable enemy below half its maximum (800.5a).
    fn bloodlust(&self, u: UnitIdx) -> bool {
        let enemy_side = self.u.side[u.i()].other().index();
        self.side_order[enemy_side].as_slice().iter().any(|&c| {
            self.is_targetable(c) && i64::from(self.u.vitality[c.i()]) * 2 < i64::from(self.u.max_vitality[c.i()])
        })
    }

    /// Evaluates a condition now (900.6a).
    fn condition_holds(&self, cond: Condition, ctx: &ActCtx) -> bool {
        let a = ctx.actor.i();
        let t = ctx.target;
        let on_target = |f: &dyn Fn(usize) -> bool| !t.is_none() && self.u.alive[t.i()] && f(t.i());
        match cond {
            Condition::Lucid => self.u.vitality[a] == self.u.max_vitality[a],
            Condition::Highland => self.highland(self.u.side[a]),
            Condition::QuestComplete => self.quest_complete(ctx.actor),
            Condition::Bloodlust => ctx.bloodlust_sample.unwrap_or_else(|| self.bloodlust(ctx.actor)),
            Condition::HitLanded => ctx.hit_landed,
            Condition::TargetBurning => on_target(&|i| self.u.burn[i] > 0),
            Condition::TargetMaimed => on_target(&|i| self.u.maim[i] > 0),
            Condition::TargetFrozen => on_target(&|i| self.u.freeze_ms[i] > 0),
            Condition::Ignited => self.ignited(ctx.actor),
            Condition::TargetNegativeStatus => on_target(&|i| self.has_negative_status(UnitIdx(i as u8))),
        }
    }

    /// A resolving clause's amount: a fixed one raised by the unit's amount
    /// shift (0 outside a tune's perturbation, `StatLine::amounts`).
    fn clause_amount(&self, a: Amount, ctx: &ActCtx) -> i32 {
        let n = self.amount(a, ctx);
        let shift = self.u.line[ctx.actor.i()].amounts;
        if shift != 0 && a.is_fixed() {
            gridsim_model::catalog::scale_amount(n, shift)
        } else {
            n
        }
    }

    /// Evaluates an amount expression now. Ordinary amounts floor at 1;
    /// counted ones may be 0 (900.4a, 900.4b).
    pub fn amount(&self, a: Amount, ctx: &ActCtx) -> i32 {
        let u = ctx.actor;
        let tier = i32::from(self.u.tier[u.i()]);
        match a {
            Amount::Const(n) => n,
            Amount::PerTier(n) => n.saturating_mul(tier),
            Amount::Ladder(l) => self.catalog.ladder_amount(l, self.u.tier[u.i()]),
            // 800.62c, 900.4d: floors after multiplying, never below 0.
            Amount::Per {
                each,
                count: Count::ShatteredSecond,
            } => (i64::from(each) * i64::from(ctx.shattered_ms) / 1000).clamp(0, i64::from(i32::MAX)) as i32,
            Amount::Per { each, count } => each.saturating_mul(self.count(count, ctx)),
            Amount::PowerPercent(p) => (self.power(u).saturating_mul(p) / 100).max(1),
            // 800.8h: 75% of effective Power, at least 1.
            Amount::BurnPower => (self.power(u).saturating_mul(self.rules.burn.from_power_percent) / 100).max(1),
            // 900.4a: an ordinary amount, so a share of a cost paid floors
            // at 1; with no cost paid there is nothing to take a share of
            // (900.4b: no effect fabricated from nothing).
            Amount::CostPaidPercent(p) if ctx.cost_paid > 0 => (ctx.cost_paid.saturating_mul(p) / 100).max(1),
            Amount::CostPaidPercent(_) => 0,
            // 900.7e: the running total of the hit, base Power plus bonus so far.
            Amount::CurrentDamagePercent(p) => (self.power(u).saturating_add(ctx.bonus).saturating_mul(p) / 100).max(1),
            // 800.22f: what was actually restored; nothing restored, nothing.
            Amount::RestoredPercent(p) if ctx.restored > 0 => super::arith::percent_of(ctx.restored, p).max(1),
            Amount::RestoredPercent(_) => 0,
        }
    }

    /// "Per" counts sample living, targetable units when the clause resolves
    /// (900.5a, 900.5b); Tools only when counted explicitly (900.5d).
    fn count(&self, what: Count, ctx: &ActCtx) -> i32 {
        let u = ctx.actor;
        let t = ctx.target;
        let rect = self.u.rect[u.i()];
        let mut n = 0;
        for &c in self.order() {
            let j = c.i();
            let enemy = self.is_enemy(u, c);
            let hit = match what {
                Count::AdjacentTool => {
                    !enemy
                        && c != u
                        && self.u.alive[j]
                        && self.u.kind[j] == CardKind::Tool
                        && super::geometry::adjacent(rect, self.u.rect[j])
                }
                _ if !self.is_targetable(c) => false,
                Count::BurningEnemy => enemy && self.u.burn[j] > 0,
                Count::VenomedEnemy => enemy && self.u.venom[j] > 0,
                Count::MaimedEnemy => enemy && self.u.maim[j] > 0,
                Count::LivingEnemy => enemy,
                Count::LivingAlly => !enemy && c != u,
                Count::AdjacentAlly => !enemy && c != u && super::geometry::adjacent(rect, self.u.rect[j]),
                Count::FlankAlly => !enemy && c != u && super::geometry::flanks(rect, self.u.rect[j]),
                Count::TargetBurn
                | Count::TargetMaim
                | Count::ShatteredSecond
                | Count::RuneEffect
                | Count::Counter
                | Count::Dividend
                | Count::Profit
                | Count::Stock => false,
            };
            n += i32::from(hit);
        }
        match what {
            Count::TargetBurn if !t.is_none() && self.u.alive[t.i()] => self.u.burn[t.i()],
            Count::TargetMaim if !t.is_none() && self.u.alive[t.i()] => self.u.maim[t.i()],
            Count::RuneEffect => i32::from(self.u.rune_effects[u.i()]),
            // 200.3b: a named counter is the card's own number, read as a count.
            Count::Counter => self.u.counter[u.i()],
            Count::Dividend => self.scrip[self.u.side[u.i()].index()][0],
            Count::Profit => self.scrip[self.u.side[u.i()].index()][1],
            Count::Stock => self.stock[self.u.side[u.i()].index()],
            _ => n,
        }
    }

    /// The units a clause affects, resolved now (400.5, reconstructed).
    fn select(&mut self, op: &Op, ctx: &ActCtx, out: &mut UnitList) {
        let u = ctx.actor;
        let t = ctx.target;
        match op.scope {
            Scope::Target => {
                if !t.is_none() {
                    out.push(t)
                }
            }
            Scope::SelfUnit => out.push(u),
            Scope::Subject => {
                if !ctx.subject.is_none() {
                    out.push(ctx.subject)
                }
            }
            Scope::AdjacentTools => {
                let r = self.u.rect[u.i()];
                for &c in self.order() {
                    let j = c.i();
                    if c != u
                        && !self.is_enemy(u, c)
                        && self.u.kind[j] == CardKind::Tool
                        && super::geometry::adjacent(r, self.u.rect[j])
                    {
                        out.push(c);
                    }
                }
            }
            Scope::AllEnemies => *out = self.enemies_of(u),
            Scope::AllAllies => *out = self.allies_of(u, true),
            Scope::AdjacentToTarget => {
                if !t.is_none() {
                    let r = self.u.rect[t.i()];
                    for c in self.enemies_of(u).as_slice() {
                        if *c != t
                            && self.u.side[c.i()] == self.u.side[t.i()]
                            && super::geometry::adjacent(r, self.u.rect[c.i()])
                        {
                            out.push(*c);
                        }
                    }
                }
            }
            Scope::AdjacentAllies | Scope::FlankAllies => {
                let r = self.u.rect[u.i()];
                for c in self.allies_of(u, false).as_slice() {
                    let rc = self.u.rect[c.i()];
                    let ok = if op.scope == Scope::FlankAllies {
                        super::geometry::flanks(r, rc)
                    } else {
                        super::geometry::adjacent(r, rc)
                    };
                    if ok {
                        out.push(*c);
                    }
                }
            }
            Scope::FocusEnemies => {
                let pool = self.enemies_of(u);
                self.focus_pick_many(pool, op.count, out);
            }
            Scope::FocusMaimedEnemies => {
                let mut pool = UnitList::default();
                for c in self.enemies_of(u).as_slice() {
                    if self.u.maim[c.i()] > 0 {
                        pool.push(*c);
                    }
                }
                self.focus_pick_many(pool, op.count, out);
            }
            Scope::FrozenEnemies => {
                for c in self.enemies_of(u).as_slice() {
                    if self.u.freeze_ms[c.i()] > 0 {
                        out.push(*c);
                    }
                }
            }
        }
    }

    /// Resolves one clause: condition, amount, scope, then the effect on
    /// each unit in scope.
    pub fn resolve_op(&mut self, op: &Op, ctx: &mut ActCtx) {
        let outer = std::mem::replace(&mut self.through_entrap, op.through_entrap);
        self.resolve_op_through(op, ctx);
        self.through_entrap = outer;
    }

    fn resolve_op_through(&mut self, op: &Op, ctx: &mut ActCtx) {
        if let Some(cond) = op.condition
            && !self.condition_holds(cond, ctx)
        {
            // 900.6e: a failed condition does not spend a once-per-battle clause.
            return;
        }
        // 800.46a, 800.46b: this unit against the compared enemy, strictly;
        // with no enemy to compare (a passive line answering an ally) there
        // is no Overmatch.
        if let Some(stat) = op.overmatch
            && !(!ctx.target.is_none()
                && self.is_enemy(ctx.actor, ctx.target)
                && self.overmatches(ctx.actor, ctx.target, stat))
        {
            return;
        }
        if op.once_slot != Op::NOT_ONCE {
            let bit = 1u64 << op.once_slot;
            let used = &mut self.u.once_used[ctx.actor.i()];
            if *used & bit != 0 {
                return;
            }
            *used |= bit;
        }
        let amount = op.amount.map_or(0, |a| self.clause_amount(a, ctx));
        let source = ctx.actor;
        match op.effect {
            Effect::Aoe => return self.aoe(source, amount),
            Effect::Tremor => return self.tremor(source, amount),
            Effect::Harvest => return self.harvest(source, amount, op.scope == Scope::SelfUnit),
            Effect::PiercingRoar => return self.reduce_every_enemy(source, Stat::Power, amount, op.drains_boss),
            Effect::CripplingScream => return self.reduce_every_enemy(source, Stat::Speed, amount, false),
            Effect::GainDividend => return self.gain_dividend(source, amount),
            // 900.7a: activation-lane damage on the target joins the base hit.
            Effect::Damage if ctx.joins_hit && op.scope == Scope::Target => {
                ctx.bonus = ctx.bonus.saturating_add(amount.max(0));
                return;
            }
            _ => {}
        }
        let mut targets = UnitList::default();
        self.select(op, ctx, &mut targets);
        if op.effect == Effect::Shock {
            self.open_shock_resolution();
        }
        if op.effect == Effect::Shatter {
            for &t in targets.as_slice() {
                ctx.shattered_ms += self.shatter(source, t);
            }
            return;
        }
        for &t in targets.as_slice() {
            self.apply_effect(op, source, t, amount);
        }
    }

    /// Applies one clause from `source` (or no source) to `target` outside
    /// any activation, as a scenario's `apply` step does.
    pub fn apply_clause(&mut self, op: &Op, source: UnitIdx, target: UnitIdx) {
        let outer = std::mem::replace(&mut self.through_entrap, op.through_entrap);
        self.apply_clause_through(op, source, target);
        self.through_entrap = outer;
    }

    fn apply_clause_through(&mut self, op: &Op, source: UnitIdx, target: UnitIdx) {
        let actor = if source.is_none() { target } else { source };
        let ctx = ActCtx::new(actor, target, target);
        let amount = op.amount.map_or(0, |a| self.amount(a, &ctx));
        match op.effect {
            Effect::Aoe => self.aoe(actor, amount),
            Effect::Tremor => self.tremor(actor, amount),
            Effect::Harvest => self.harvest(actor, amount, op.scope == Scope::SelfUnit),
            Effect::PiercingRoar => self.reduce_every_enemy(actor, Stat::Power, amount, op.drains_boss),
            Effect::CripplingScream => self.reduce_every_enemy(actor, Stat::Speed, amount, false),
            Effect::GainDividend => self.gain_dividend(actor, amount),
            _ => {
                if op.effect == Effect::Shock {
                    self.open_shock_resolution();
                }
                self.apply_effect(op, source, target, amount)
            }
        }
    }

    /// AoE (800.2): each enemy first gets 1 point when the total covers the
    /// number of targets, then a share of the rest by raw Focus (no floor);
    /// with no positive Focus the shares are equal; the rounding remainder
    /// goes to the first target. Each share is its own instance.
    pub fn aoe(&mut self, source: UnitIdx, total: i32) {
        let targets = self.enemies_of(source);
        let n = targets.len() as i32;
        if n == 0 || total <= 0 {
            return;
        }
        let mut shares = [0i32; super::MAX_UNITS];
        let (first_point, rest) = if total >= n { (1, total - n) } else { (0, total) };
        // 800.2d: the raw total decides whether shares are equal; 800.2c: no floor.
        let raw_total: i64 = targets.as_slice().iter().map(|&u| i64::from(self.focus(u))).sum();
        let weights: i64 = if raw_total > 0 {
            targets
                .as_slice()
                .iter()
                .map(|&u| i64::from(self.focus(u).max(0)))
                .sum()
        } else {
            0
        };
        let mut given = 0;
        for (k, &u) in targets.as_slice().iter().enumerate() {
            let share = if weights > 0 {
                (i64::from(rest) * i64::from(self.focus(u).max(0)) / weights) as i32
            } else {
                rest / n
            };
            shares[k] = first_point + share;
            given += share;
        }
        shares[0] += rest - given;
        for (k, &u) in targets.as_slice().iter().enumerate() {
            self.deal_damage(source, u, shares[k], DamageKind::Ability);
        }
    }

    /// Tremor (800.72a): the amount to each enemy in two hits split as evenly
    /// as possible, the first taking the odd point.
    pub fn tremor(&mut self, source: UnitIdx, total: i32) {
        let targets = self.enemies_of(source);
        let hits = self.rules.tremor.hits.max(1);
        for &u in targets.as_slice() {
            let mut left = total;
            for k in 0..hits {
                let part = div_ceil(left, hits - k);
                left -= part;
                self.deal_damage(source, u, part, DamageKind::Ability);
            }
        }
    }

    /// Resolves `u`'s passive lines for `trigger` (400.6, reconstructed):
    /// directly, with no activation (900.8b), while the unit lives, with
    /// nesting cut off at the configured depth (900.38e).
    #[inline]
    pub fn dispatch(&mut self, u: UnitIdx, trigger: Trigger, other: UnitIdx) {
        self.dispatch_with(u, trigger, other, 0);
    }

    /// `dispatch` for an event that carries an amount the lines may read
    /// (`P% restored`, 800.22f).
    #[inline]
    pub fn dispatch_with(&mut self, u: UnitIdx, trigger: Trigger, other: UnitIdx, restored: i32) {
        if u.is_none() {
            return;
        }
        let card = self.u.card[u.i()];
        if self.hears(u, card, trigger) {
            self.resolve_passives(u, card, trigger, other, restored);
        }
    }

    /// `dispatch` with the lines of `card`, which is not always the card the
    /// unit is now: a transformed unit's awaken lines are its printed
    /// card's (800.16h).
    pub(crate) fn dispatch_as(
        &mut self,
        u: UnitIdx,
        card: gridsim_model::catalog::CardId,
        trigger: Trigger,
        other: UnitIdx,
    ) {
        if self.hears(u, card, trigger) {
            self.resolve_passives(u, card, trigger, other, 0);
        }
    }

    /// Whether `u` hears `trigger` with `card`'s lines: every dispatch asks,
    /// so it is inlined into each.
    #[inline(always)]
    fn hears(&self, u: UnitIdx, card: gridsim_model::catalog::CardId, trigger: Trigger) -> bool {
        // 900.8c: the dead stop listening; 800.16a: so do the Dormant, whose
        // passives contribute nothing (an Entrapped unit still hears, 800.19g).
        self.u.alive[u.i()]
            && !self.u.dormant[u.i()]
            && self.facts[usize::from(card.0)].listens & super::trigger_bit(trigger) != 0
            && i32::from(self.nesting.depth) < self.rules.limits.trigger_depth
    }

    /// The body of `dispatch`, kept out of line so the common case (nobody
    /// listens) is a few tests at the call site.
    #[inline(never)]
    pub(crate) fn resolve_passives(
        &mut self,
        u: UnitIdx,
        card: gridsim_model::catalog::CardId,
        trigger: Trigger,
        other: UnitIdx,
        restored: i32,
    ) {
        let catalog = self.catalog;
        self.nesting.depth += 1;
        let deaths = self.u.deaths[u.i()];
        for p in catalog.passives_of(card) {
            // 800.42g, 900.8c: a unit that dies while its lines resolve
            // resolves no more of them (nor does it once a Vessel has
            // brought it back: that is a new incarnation).
            if !self.u.alive[u.i()] || self.u.deaths[u.i()] != deaths {
                break;
            }
            if p.trigger != trigger {
                continue;
            }
            let mut ctx = ActCtx::new(u, other, other);
            ctx.restored = restored;
            self.resolve_op(&p.op, &mut ctx);
        }
        self.nesting.depth -= 1;
    }
}

/// `Engine::apply_effect`, one arm per row of the effects' list
/// (`crates/model/src/effects.rs`), each calling the handler its row names.
macro_rules! apply_effect_from_rows {
    ($(
        $(#[$doc:meta])* $V:ident = $name:literal {
            keyword: $kw:tt, amount: $amount:ident, duration: $duration:ident,
            text: $text:expr, handler: $shape:ident $(($($arg:tt)*))?
        }
    )*) => {
        impl Engine<'_> {
            /// One clause's effect on one recipient `t`, from `source`, with
            /// its amount worked out.
            fn apply_effect(&mut self, op: &Op, source: UnitIdx, t: UnitIdx, amount: i32) {
                match op.effect {
                    $( Effect::$V => apply_effect_from_rows!(@call self op source t amount $shape $(($($arg)*))?), )*
                }
            }
        }
    };
    (@call $e:ident $op:ident $s:ident $t:ident $a:ident damage) => {
        {
            $e.deal_damage($s, $t, $a, DamageKind::Ability);
        }
    };
    // Resolved once for every enemy, or for the owner, by the caller.
    (@call $e:ident $op:ident $s:ident $t:ident $a:ident elsewhere) => {
        {}
    };
    (@call $e:ident $op:ident $s:ident $t:ident $a:ident timed) => {
        if let Some(status) = $op.effect.timed_status() {
            $e.apply_timed(status, $s, $t, $op.duration_ms);
        }
    };
    (@call $e:ident $op:ident $s:ident $t:ident $a:ident stat($stat:ident)) => {
        if $op.fleeting && $a > 0 {
            $e.gain_fleeting($s, $t, Stat::$stat, $a);
        } else {
            $e.change_stat($s, $t, Stat::$stat, $a);
        }
    };
    (@call $e:ident $op:ident $s:ident $t:ident $a:ident source_target($f:ident)) => {
        { $e.$f($s, $t); }
    };
    (@call $e:ident $op:ident $s:ident $t:ident $a:ident source_target_amount($f:ident)) => {
        {
            $e.$f($s, $t, $a);
        }
    };
    (@call $e:ident $op:ident $s:ident $t:ident $a:ident source_target_amount_and($f:ident, $x:expr)) => {
        {
            $e.$f($s, $t, $a, $x);
        }
    };
    (@call $e:ident $op:ident $s:ident $t:ident $a:ident target_amount_source($f:ident)) => {
        { $e.$f($t, $a, $s); }
    };
}

gridsim_model::effects::effects!(apply_effect_from_rows);
