//! One damage instance (500.1), recovery (500.3), Vitality costs (500.8) and
//! death (500.4), reconstructed.
//!
//! The pipeline, in order: Armor percentage (rounded up) then flat Armor
//! (900.29), the incoming-damage cap, Insurance with Subrogated points first
//! (800.37c, 800.37f), Shield (800.63a), Vitality. Reactions are gated as the
//! rules say: Thorns and Riposte answer the absorption itself (900.26b),
//! everything else needs Vitality damage that landed (900.26c).

use super::{
    Engine, EventKind, UnitIdx,
    arith::{div_ceil, percent_of},
};
use gridsim_model::ability::{CardKind, Trigger};

/// What a Vitality loss that is not a damage instance pays for. It decides
/// who feasts on it and whether a defy-death rune may answer it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loss {
    /// Thorns, Riposte, Retort and Subrogation: the retaliator feasts on it,
    /// except into a boss (800.22c).
    Retaliation,
    /// Bloodletting: a defy-death rune answers a lethal payment (800.4h,
    /// 900.20d).
    Payment,
    /// Interest's Vitality part: a cost that bypasses lethal-hit prevention
    /// (800.38c).
    Interest,
}

impl Loss {
    /// Whether a defy-death rune may answer this loss when it is lethal.
    fn answerable(self) -> bool {
        self != Loss::Interest
    }
}

/// Where a damage instance comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DamageKind {
    /// The activation's base hit with its bonus damage (900.7).
    Hit,
    /// A separate instance from a clause: other-unit damage, AoE shares,
    /// Tremor halves (900.7d, 800.2e, 800.72b).
    Ability,
    /// A Burn tick: skips Armor, not Shield (800.8c).
    Burn,
    /// A Venom tick: skips Armor, not Shield (800.73c).
    Venom,
    /// Overtime: plain damage, no attacker (900.42e).
    Overtime,
    /// A boss Reflect rune's answer: a real instance that is itself a
    /// retaliation (900.26f, 800.37e).
    Reflect,
}

impl DamageKind {
    fn ignores_armor(self) -> bool {
        self.is_tick()
    }
    /// A Burn or Venom tick.
    fn is_tick(self) -> bool {
        matches!(self, DamageKind::Burn | DamageKind::Venom)
    }
    /// Status ticks and overtime reach Entrapped units (800.19b); ability
    /// damage does not (800.19a).
    fn is_from_ability(self) -> bool {
        matches!(self, DamageKind::Hit | DamageKind::Ability | DamageKind::Reflect)
    }
    /// Retaliation answers a hostile actor's hit. Damage over time and
    /// overtime have no actor at the moment they land (900.42e; see the
    /// reconstruction document for ticks).
    fn retaliable(self) -> bool {
        self.is_from_ability()
    }
}

/// What one instance did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DamageReport {
    pub shield_absorbed: i32,
    pub vitality_lost: i32,
    pub killed: bool,
}

impl DamageReport {
    /// Removed Shield or Vitality (the Stagger test of 800.66c).
    pub fn removed_something(&self) -> bool {
        self.shield_absorbed > 0 || self.vitality_lost > 0
    }
}

/// Armor's two steps on one instance (900.29): the percentage step
/// `sqrt(A) / (sqrt(A) + K)` with the result rounded up, then 1 less per
/// `flat_divisor` Armor. Negative Armor mirrors both steps into
/// amplification (800.12h, 800.57b; reconstructed).
#[cfg(test)]
pub fn armor_mitigate(damage: i32, armor: i32, curve_constant: i32, flat_divisor: i32) -> i32 {
    mitigate(damage, armor, armor_share(armor, curve_constant), flat_divisor)
}

/// The percentage step's share of `armor`: sqrt(|A|) / (sqrt(|A|) + c).
pub fn armor_share(armor: i32, curve_constant: i32) -> f64 {
    let root = f64::from(armor.unsigned_abs().min(1_000_000)).sqrt();
    root / (root + f64::from(curve_constant))
}

/// [`armor_mitigate`] with the share already known (from
/// [`ArmorShares`], the same number computed once).
#[inline]
fn mitigate(damage: i32, armor: i32, share: f64, flat_divisor: i32) -> i32 {
    if damage <= 0 {
        return 0;
    }
    if armor == 0 {
        return damage;
    }
    let flat = f64::from(armor.unsigned_abs() / flat_divisor.max(1).unsigned_abs());
    // The small epsilon keeps an exact product such as 8.0000000001 from
    // rounding up to 9 through floating-point noise.
    let out = if armor > 0 {
        ceil(f64::from(damage) * (1.0 - share) - 1e-9) - flat
    } else {
        ceil(f64::from(damage) * (1.0 + share) - 1e-9) + flat
    };
    out.clamp(0.0, f64::from(i32::MAX / 2)) as i32
}

/// `x.ceil()` for the magnitudes damage takes (|x| < 2^52), without the
/// library call the baseline x86-64 target makes for it.
#[inline]
fn ceil(x: f64) -> f64 {
    let t = x as i64 as f64;
    if t < x { t + 1.0 } else { t }
}

/// The percentage step's share for every Armor from -1023 to 1023, made
/// once per engine: the square root and division leave the damage path.
pub(crate) struct ArmorShares {
    shares: Box<[f64; 2 * Self::REACH + 1]>,
    curve_constant: i32,
}

impl ArmorShares {
    const REACH: usize = 1023;

    pub(crate) fn new(curve_constant: i32) -> ArmorShares {
        let mut shares = Box::new([0.0; 2 * Self::REACH + 1]);
        for (i, s) in shares.iter_mut().enumerate() {
            *s = armor_share(i as i32 - Self::REACH as i32, curve_constant);
        }
        ArmorShares { shares, curve_constant }
    }

    #[inline]
    fn share(&self, armor: i32) -> f64 {
        if armor.unsigned_abs() as usize <= Self::REACH {
            self.shares[(armor + Self::REACH as i32) as usize]
        } else {
            armor_share(armor, self.curve_constant)
        }
    }
}

impl Engine<'_> {
    /// Deals one damage instance from `source` (or none) to `target`.
    pub fn deal_damage(&mut self, source: UnitIdx, target: UnitIdx, amount: i32, kind: DamageKind) -> DamageReport {
        let report = self.resolve_instance(source, target, amount, kind);
        // 800.66g: the meter scores first and the phase change keeps it.
        if self.u.stagger_size[target.i()] > 0 {
            self.score_stagger(source, target, kind, &report);
        }
        if self.u.phase_at[target.i()] > 0 {
            self.check_phases(target);
        }
        report
    }

    /// Stagger (800.66): a direct hit from an enemy unit that removed
    /// Shield or Vitality and did not kill advances the meter by exactly 1,
    /// whatever it took (800.66a, 800.66c-800.66e); damage over time,
    /// retaliation and overtime never do. A full meter empties and Stuns
    /// the boss for 2 s over its immunity (800.66f).
    fn score_stagger(&mut self, source: UnitIdx, boss: UnitIdx, kind: DamageKind, report: &DamageReport) {
        let b = boss.i();
        let direct = matches!(kind, DamageKind::Hit | DamageKind::Ability);
        if !direct || source.is_none() || !self.is_enemy(source, boss) || report.killed || !report.removed_something() {
            return;
        }
        self.u.stagger[b] += 1;
        if self.u.stagger[b] < self.u.stagger_size[b] {
            return;
        }
        self.u.stagger[b] = 0;
        self.emit(
            EventKind::Staggered,
            boss,
            source,
            self.rules.stagger.stun_ms,
            0,
            "800.66f",
        );
        // The recipient gate still stands; only the immunity is overridden.
        if self.passes_recipient_gate(boss, source, "800.66f") {
            let stun_ms = self.rules.stagger.stun_ms;
            self.write_clock_inputs(boss, |c| c.stun_ms[b] = stun_ms);
            self.emit(
                EventKind::Stunned,
                boss,
                source,
                self.rules.stagger.stun_ms,
                0,
                "800.66f",
            );
        }
    }

    /// One damage instance, start to end (500.1).
    fn resolve_instance(&mut self, source: UnitIdx, target: UnitIdx, amount: i32, kind: DamageKind) -> DamageReport {
        let mut report = DamageReport::default();
        let t = target.i();
        if !self.u.alive[t] || self.u.kind[t].is_object() {
            // Tools and Hubs discard every combat interaction (800.71b, 800.33b).
            return report;
        }
        if kind.is_from_ability() && (self.u.entrap_ms[t] > 0 || self.u.dormant[t]) {
            let why = if self.u.dormant[t] {
                super::Refusal::Dormant
            } else {
                super::Refusal::Entrapped
            };
            self.emit(EventKind::Refused, target, source, amount, why as i32, "800.19a");
            return report;
        }
        if amount <= 0 {
            return report;
        }
        // The two sections this reads, not a copy of every rule.
        let (armor_rules, insurance_rules) = (self.rules.armor, self.rules.insurance);
        let mut dmg = amount;
        if !kind.ignores_armor() {
            let armor = self.armor(target);
            dmg = mitigate(dmg, armor, self.armor_shares.share(armor), armor_rules.flat_divisor);
        }
        if self.u.damage_cap[t] > 0 {
            dmg = dmg.min(self.u.damage_cap[t]);
        }
        if dmg <= 0 {
            // 900.26c: nothing is left for any reaction to answer.
            self.emit(
                EventKind::ArmorAbsorbed,
                target,
                source,
                amount,
                self.armor(target),
                "500.1",
            );
            return report;
        }
        let retaliable = kind.retaliable() && !source.is_none() && self.is_enemy(source, target);

        // Insurance: measured after Armor and the cap, before Shield (800.37c).
        if self.u.insurance[t] > 0 || self.u.subrogated[t] > 0 {
            let capacity = insurance_rules
                .point_capacity
                .saturating_add(self.u.underwriting[t])
                .max(1);
            // 800.37f: Subrogated points are spent first.
            let sub_spent = self.u.subrogated[t].min(div_ceil(dmg, capacity));
            let sub_absorbed = dmg.min(sub_spent.saturating_mul(capacity));
            self.write_clock_inputs(target, |c| c.subrogated[t] -= sub_spent);
            dmg -= sub_absorbed;
            let plain_spent = if dmg > 0 {
                self.u.insurance[t].min(div_ceil(dmg, capacity))
            } else {
                0
            };
            let plain_absorbed = dmg.min(plain_spent.saturating_mul(capacity));
            // The insured stat layer leaves with the last point: its Speed
            // is what the clock reads.
            self.write_clock_inputs(target, |c| c.insurance[t] -= plain_spent);
            dmg -= plain_absorbed;
            if sub_spent > 0 {
                self.emit(
                    EventKind::SubrogatedSpent,
                    target,
                    source,
                    sub_absorbed,
                    sub_spent,
                    "800.37f",
                );
            }
            if plain_spent > 0 {
                self.emit(
                    EventKind::InsuranceSpent,
                    target,
                    source,
                    plain_absorbed,
                    plain_spent,
                    "800.37a",
                );
            }
            // 800.37f: Subrogated points give back exactly what they absorbed,
            // as a Vitality loss on the source.
            if sub_absorbed > 0 && retaliable && self.u.alive[source.i()] {
                self.emit(
                    EventKind::SubrogatedRetaliation,
                    source,
                    target,
                    sub_absorbed,
                    0,
                    "800.37f",
                );
                self.lose_vitality(source, sub_absorbed, target, Loss::Retaliation);
            }
            if dmg == 0 {
                // 800.37e: swallowed whole, yet Thorns and Riposte still answer,
                // unless the instance is itself a retaliation (a Reflect).
                if retaliable && kind != DamageKind::Reflect {
                    self.retaliate(target, source);
                }
                return report;
            }
        }

        // Shield absorbs what is left before Vitality (800.63a).
        if self.u.shield[t] > 0 {
            let absorbed = self.u.shield[t].min(dmg);
            self.u.shield[t] -= absorbed;
            dmg -= absorbed;
            report.shield_absorbed = absorbed;
            self.emit(
                EventKind::ShieldAbsorbed,
                target,
                source,
                absorbed,
                self.u.shield[t],
                "800.63a",
            );
            self.dispatch(target, Trigger::ShieldDamaged, source);
            if self.u.shield[t] == 0 {
                // 800.63f: broken to exactly 0.
                self.emit(EventKind::ShieldBroken, target, source, 0, 0, "800.63f");
                self.dispatch(target, Trigger::ShieldBroken, source);
            }
        }
        if dmg <= 0 || !self.u.alive[t] {
            // 900.26c: Shield swallowed the rest; no landed-damage fanout.
            return report;
        }

        let lost = dmg.min(self.u.vitality[t]);
        self.u.vitality[t] -= lost;
        report.vitality_lost = lost;
        self.u.damage_taken[t] += i64::from(lost);
        if !source.is_none() {
            self.u.damage_dealt[source.i()] += i64::from(lost);
            // 800.16f: damage this side deals counts towards its Dormant
            // allies' wake conditions that count an amount.
            let side = self.u.side[source.i()].index();
            if self.wake_watch[side] != 0 {
                self.count_towards_wake(side, true, lost);
            }
        }
        let rule = match kind {
            DamageKind::Burn => "800.8b",
            DamageKind::Venom => "800.73a",
            DamageKind::Overtime => "900.42e",
            _ => "500.1",
        };
        self.emit(EventKind::Damage, target, source, lost, self.u.vitality[t], rule);
        // 900.8c, read once: a unit whose Vitality this instance takes to 0
        // is dead from that moment, and a dead unit's channels stop
        // listening. So a killing instance sets off none of the victim's own
        // reactions: not its damage-taken lines, nor Thorns, Riposte,
        // Retort or Reflect; the Tools that hear an ally damaged are alive
        // and still hear it, after the death, so they cannot undo it.
        // 800.4h: a defy-death rune that answers leaves the unit standing,
        // and a standing unit's reactions answer as for any hit.
        let lethal = self.u.vitality[t] <= 0 && !self.defy_death(target);
        if lethal {
            report.killed = true;
            self.kill(target, source, rule);
        } else {
            self.dispatch(target, Trigger::DamageTaken, source);
        }
        // 800.71c: Tools hear an ally taking damage.
        self.run_packages(gridsim_model::ability::PackageEvent::AllyDamaged, None, target, source);
        if retaliable && !lethal {
            self.retaliate(target, source);
            // 900.26d: Retort answers landed damage only.
            let retort = self.u.retort[t];
            if retort > 0 && lost > 0 && self.u.alive[source.i()] {
                self.emit(EventKind::Retort, source, target, retort, 0, "900.26d");
                self.lose_vitality(source, retort, target, Loss::Retaliation);
            }
        }
        // A Burn or Venom tick's Feast is split between its appliers by
        // the tick itself (800.22g). 800.22c: retaliation into a boss
        // scores as damage dealt but feeds no Feast, and a Reflect is
        // retaliation (900.26f), as Thorns, Riposte and Retort are.
        let retaliation_into_boss = kind == DamageKind::Reflect && self.u.kind[t] == CardKind::Boss;
        if !source.is_none() && lost > 0 && !kind.is_tick() && !retaliation_into_boss {
            self.feast(source, lost);
        }
        // 900.26d, 900.26f: Reflect reads the damage actually taken and
        // answers with a real instance, which the attacker's own Armor,
        // Shield, Thorns and Riposte meet. A Reflect is never reflected.
        let reflect = self.u.reflect[t];
        if retaliable
            && !lethal
            && kind != DamageKind::Reflect
            && reflect > 0
            && lost > 0
            && self.u.alive[t]
            && self.u.alive[source.i()]
        {
            let back = percent_of(lost, reflect).max(1);
            self.emit(EventKind::Reflect, source, target, back, 0, "900.26f");
            self.deal_damage(target, source, back, DamageKind::Reflect);
        }
        report
    }

    /// Thorns and Riposte: a fixed Vitality loss on the attacker, never a
    /// damage instance, never answered in turn (900.26a, 900.26e).
    fn retaliate(&mut self, defender: UnitIdx, attacker: UnitIdx) {
        let d = defender.i();
        for (amount, kind, rule) in [
            (self.u.thorns[d], EventKind::Thorns, "900.26a"),
            (self.u.riposte[d], EventKind::Riposte, "900.26a"),
        ] {
            if amount > 0 && self.u.alive[attacker.i()] {
                self.emit(kind, attacker, defender, amount, 0, rule);
                self.lose_vitality(attacker, amount, defender, Loss::Retaliation);
            }
        }
    }

    /// Feast: the source heals 35% of the Vitality damage it dealt, at least
    /// 1, through recovery so Maim applies (800.22a, 800.22d, 800.22e).
    pub(crate) fn feast(&mut self, source: UnitIdx, landed: i32) {
        let s = source.i();
        if !self.u.feast[s] || !self.u.alive[s] || landed <= 0 {
            return;
        }
        let f = self.rules.feast;
        let amount = percent_of(landed, f.percent).max(f.minimum);
        let restored = self.recover(source, amount, source);
        self.emit(EventKind::Feast, source, UnitIdx::NONE, restored, amount, "800.22a");
        // 800.22f: lines that convert Feast read what it restored; a Feast
        // at full Vitality restores nothing and sets off nothing.
        if restored > 0 {
            self.dispatch_with(source, Trigger::Feasted, UnitIdx::NONE, restored);
        }
    }

    /// A Vitality loss that is not a damage instance: Armor, Insurance and
    /// Shield never meet it (800.4f, 900.26e, 800.38c). Returns what was lost.
    pub fn lose_vitality(&mut self, u: UnitIdx, amount: i32, by: UnitIdx, loss: Loss) -> i32 {
        let i = u.i();
        if !self.u.alive[i] || self.u.kind[i].is_object() || amount <= 0 {
            return 0;
        }
        let lost = amount.min(self.u.vitality[i]);
        self.u.vitality[i] -= lost;
        self.u.damage_taken[i] += i64::from(lost);
        if !by.is_none() {
            self.u.damage_dealt[by.i()] += i64::from(lost);
            // 800.22c: retaliation feeds the retaliator's Feast, except
            // retaliation into a boss, which only scores.
            if loss == Loss::Retaliation && self.is_enemy(by, u) && self.u.kind[i] != CardKind::Boss {
                self.feast(by, lost);
            }
        }
        // 800.4h, 900.20d: a defy-death rune answers a lethal payment or
        // retaliation; 800.38c: never the Interest cost.
        if self.u.vitality[i] <= 0 && !(loss.answerable() && self.defy_death(u)) {
            self.kill(u, by, "500.8");
        } else if self.u.phase_at[i] > 0 {
            self.check_phases(u);
        }
        lost
    }

    /// Recovery (500.3): capped by missing Vitality first, then Maim prevents
    /// 2 per point and is consumed at ceil(prevented / 2) (800.43b, 800.43c,
    /// 900.14b). Returns the Vitality restored.
    pub fn recover(&mut self, u: UnitIdx, amount: i32, source: UnitIdx) -> i32 {
        if amount <= 0 || !self.passes_recipient_gate(u, source, "800.43e") {
            return 0;
        }
        self.restore(u, amount, source)
    }

    /// A tick of a heal over time already running (Roost, Hallow): it goes
    /// on while the unit is Entrapped or Dormant (900.18c, 800.16b,
    /// 800.19b); only a dead unit stops it.
    pub fn recover_over_time(&mut self, u: UnitIdx, amount: i32) -> i32 {
        if amount <= 0 || !self.u.alive[u.i()] || self.u.kind[u.i()].is_object() {
            return 0;
        }
        self.restore(u, amount, u)
    }

    /// Recovery past its gate: the cap, then Maim.
    fn restore(&mut self, u: UnitIdx, amount: i32, source: UnitIdx) -> i32 {
        let i = u.i();
        let eligible = amount.min(self.u.max_vitality[i] - self.u.vitality[i]);
        if eligible <= 0 {
            return 0;
        }
        let restored = eligible - self.maim_prevents(u, eligible);
        self.u.vitality[i] += restored;
        self.u.healing[i] += i64::from(restored);
        if restored > 0 {
            self.emit(EventKind::Heal, u, source, restored, self.u.vitality[i], "500.3");
        }
        restored
    }

    /// Shield gain: Exalt raises the amount received, then Maim prevents
    /// part of it (800.63c, 800.63d, 800.21b). Returns Shield gained.
    pub fn gain_shield(&mut self, u: UnitIdx, amount: i32, source: UnitIdx) -> i32 {
        let i = u.i();
        if amount <= 0 || !self.passes_recipient_gate(u, source, "800.63e") {
            return 0;
        }
        let exalted = self.exalted(u, amount);
        let gained = exalted - self.maim_prevents(u, exalted);
        self.u.shield[i] = self.u.shield[i].saturating_add(gained);
        self.emit(EventKind::ShieldGained, u, source, gained, self.u.shield[i], "800.63c");
        gained
    }

    /// An amount as `u` receives it with Exalt: Shield, Hallow, Fleeting buffs
    /// and Consecrate (800.21a), before Maim (800.21b).
    pub(crate) fn exalted(&self, u: UnitIdx, amount: i32) -> i32 {
        let exalt_percent = self.u.exalt[u.i()].saturating_mul(self.rules.exalt.percent_per_stack);
        amount.saturating_add(percent_of(amount, exalt_percent))
    }

    /// Consumes Maim against `eligible` recovery; returns the amount prevented.
    fn maim_prevents(&mut self, u: UnitIdx, eligible: i32) -> i32 {
        let i = u.i();
        let per = self.rules.maim.restoration_per_point.max(1);
        let prevented = eligible.min(self.u.maim[i].saturating_mul(per));
        if prevented > 0 {
            let consumed = div_ceil(prevented, per);
            self.u.maim[i] -= consumed;
            self.emit(
                EventKind::MaimPrevented,
                u,
                UnitIdx::NONE,
                prevented,
                consumed,
                "800.43c",
            );
        }
        prevented
    }

    /// Death (500.4): the unit leaves the board, its statuses stop, kill
    /// credit goes to an enemy source, and every other living unit hears it.
    pub fn kill(&mut self, u: UnitIdx, killer: UnitIdx, rule: &'static str) {
        let i = u.i();
        if !self.u.alive[i] {
            return;
        }
        // 800.49e: one death and everything it fires is one batch.
        self.open_batch();
        self.write_clock_inputs(u, |c| c.alive[i] = false);
        if self.is_combatant(u) {
            let side = self.u.side[i].index();
            self.standing[side] = self.standing[side].saturating_sub(1);
        }
        self.u.vitality[i] = 0;
        self.stop_ticks(i);
        self.u.deaths[i] += 1;
        if !killer.is_none() && self.is_enemy(killer, u) {
            self.u.kills[killer.i()] += 1;
            self.quest_event(self.u.side[killer.i()], gridsim_model::ability::QuestEvent::AllyKill);
        }
        self.emit(EventKind::Death, u, killer, 0, 0, rule);
        // 800.58d: a dead resonator contributes nothing from now on.
        self.refresh_resonance(u);
        let order = self.order;
        for &other in order.as_slice() {
            if other != u && self.u.alive[other.i()] {
                self.dispatch(other, Trigger::OtherDied, u);
            }
        }
        // 800.71c: Tools of the other side hear an enemy dying.
        if self.u.kind[i] != gridsim_model::ability::CardKind::Tool {
            self.run_packages(gridsim_model::ability::PackageEvent::EnemyDied, None, u, killer);
        }
        self.close_batch();
        if self.u.everlasting[i] || self.u.phylactery[i] {
            self.after_death(u);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tremor_worked_example_halves() {
        // 900.29: 28 -> 22 -> 14 and 27 -> 21 -> 13 against 40 Armor.
        assert_eq!(armor_mitigate(28, 40, 20, 5), 14);
        assert_eq!(armor_mitigate(27, 40, 20, 5), 13);
        // The same 55 as one instance: 42 - 8 = 34.
        assert_eq!(armor_mitigate(55, 40, 20, 5), 34);
    }

    #[test]
    fn exact_products_do_not_round_up() {
        // 25 Armor: share 5/25 = 20%; 10 -> 8 exactly, then 5 flat.
        assert_eq!(armor_mitigate(10, 25, 20, 5), 3);
        // 400 Armor: share 20/40 = 50%; 30 -> 15, then 80 flat.
        assert_eq!(armor_mitigate(30, 400, 20, 5), 0);
    }

    /// The table and the division-free rounding give what the formula
    /// computed in full gives, for every Armor the table holds and beyond.
    #[test]
    fn table_and_rounding_match_the_formula() {
        let full = |damage: i32, armor: i32, c: i32, flat_divisor: i32| -> i32 {
            if damage <= 0 {
                return 0;
            }
            if armor == 0 {
                return damage;
            }
            let root = f64::from(armor.unsigned_abs().min(1_000_000)).sqrt();
            let share = root / (root + f64::from(c));
            let flat = (armor.unsigned_abs() as i64 / i64::from(flat_divisor.max(1))) as f64;
            let out = if armor > 0 {
                (f64::from(damage) * (1.0 - share) - 1e-9).ceil() - flat
            } else {
                (f64::from(damage) * (1.0 + share) - 1e-9).ceil() + flat
            };
            out.clamp(0.0, f64::from(i32::MAX / 2)) as i32
        };
        let shares = ArmorShares::new(20);
        for armor in (-1100..=1100).chain([i32::MIN, -1_000_000, 1_000_000, i32::MAX]) {
            for damage in [
                -3,
                0,
                1,
                2,
                7,
                10,
                27,
                28,
                55,
                99,
                1000,
                123_456,
                i32::MAX / 3,
                i32::MAX,
            ] {
                let expected = full(damage, armor, 20, 5);
                assert_eq!(armor_mitigate(damage, armor, 20, 5), expected, "{damage} vs {armor}");
                assert_eq!(
                    mitigate(damage, armor, shares.share(armor), 5),
                    expected,
                    "{damage} vs {armor}"
                );
            }
        }
    }

    #[test]
    fn negative_armor_amplifies() {
        // 800.12h: below zero, Armor adds damage rather than removing it.
        assert!(armor_mitigate(20, -25, 20, 5) > 20);
        assert_eq!(armor_mitigate(10, -25, 20, 5), 12 + 5);
    }
}
