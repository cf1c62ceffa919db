//! Runes and resonance in a fight (800.58, 800.60, 900.23, 900.24): what
//! each side's board runes project onto its units, at which potency, and
//! what its resonance grants at its level. Computed once when the battle
//! starts, kept per unit outside the unit columns, so a revived unit (a
//! new incarnation in the same cells) receives them again (800.20c).
//!
//! The rune board's geometry is reconstructed in
//! docs/rules-reconstruction.md: a side has a row board (a cell facing
//! each grid row) and a column board (a cell facing each column); a rune
//! takes `cells_per_rune` adjacent cells and faces those rows or columns.

use super::possible::Feature;
use super::{Engine, EventKind, MAX_UNITS, NEVER, UnitIdx, arith};
use gridsim_model::ability::{KeywordName, RuneBoard, RuneEffect};
use gridsim_model::catalog::{ResonanceId, RuneId};
use gridsim_model::spec::{RunePlacement, Side};

use gridsim_core::limits::MAX_RUNES_PER_SIDE;

/// One side's runes and resonance, as placed.
#[derive(Debug, Clone, Copy)]
pub struct SideRunes {
    pub runes: [RunePlacement; MAX_RUNES_PER_SIDE],
    pub count: usize,
    pub resonance: Option<ResonanceId>,
    /// The units each rune reached when the battle started, and those it
    /// reached at partial potency, one bit per unit index.
    pub reached: [u64; MAX_RUNES_PER_SIDE],
    pub partial: [u64; MAX_RUNES_PER_SIDE],
    /// Each rune's amounts raised by this percent (0 outside a tune's
    /// perturbation).
    pub shift: [i32; MAX_RUNES_PER_SIDE],
}

impl Default for SideRunes {
    fn default() -> Self {
        SideRunes {
            runes: [RunePlacement {
                rune: RuneId(0),
                tier: 1,
                board: RuneBoard::Rows,
                cell: 0,
            }; MAX_RUNES_PER_SIDE],
            count: 0,
            resonance: None,
            reached: [0; MAX_RUNES_PER_SIDE],
            partial: [0; MAX_RUNES_PER_SIDE],
            shift: [0; MAX_RUNES_PER_SIDE],
        }
    }
}

impl SideRunes {
    fn as_slice(&self) -> &[RunePlacement] {
        &self.runes[..self.count]
    }
}

/// Everything runes and resonance give one unit, summed over its sources.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RuneGrants {
    /// Rune effects reaching the unit: projected board runes and innate
    /// runes, each counted once (900.4e).
    pub effects: u8,
    /// Power, Speed, Armor, Focus for the whole battle.
    pub stats: [i32; 4],
    /// Power, Speed, Armor, Focus until the side's timed resonance ends.
    pub timed: [i32; 4],
    pub vitality: i32,
    pub thorns: i32,
    pub riposte: i32,
    pub reflect: i32,
    pub tick_reduction: i32,
    pub cascade_chance: i32,
    pub bloodletting_reduction: i32,
    pub hallow_preserve: i32,
    pub defy_death: i32,
    pub new_target_damage: i32,
    pub activation_shield: i32,
}

impl RuneGrants {
    fn add(&mut self, effect: RuneEffect, amount: i32, timed: bool) {
        let stat = |s: &mut [i32; 4], k: usize| s[k] = s[k].saturating_add(amount);
        let slot = if timed { &mut self.timed } else { &mut self.stats };
        match effect {
            RuneEffect::Power => stat(slot, 0),
            RuneEffect::Speed => stat(slot, 1),
            RuneEffect::Armor => stat(slot, 2),
            RuneEffect::Focus => stat(slot, 3),
            RuneEffect::Vitality => self.vitality = self.vitality.saturating_add(amount),
            RuneEffect::Thorns => self.thorns = self.thorns.saturating_add(amount),
            RuneEffect::Riposte => self.riposte = self.riposte.saturating_add(amount),
            RuneEffect::Reflect => self.reflect = self.reflect.saturating_add(amount),
            RuneEffect::TickReduction => self.tick_reduction = self.tick_reduction.saturating_add(amount),
            RuneEffect::CascadeChance => self.cascade_chance = self.cascade_chance.saturating_add(amount),
            RuneEffect::BloodlettingReduction => {
                self.bloodletting_reduction = self.bloodletting_reduction.saturating_add(amount);
            }
            RuneEffect::HallowPreserve => self.hallow_preserve = self.hallow_preserve.saturating_add(amount),
            RuneEffect::DefyDeath => self.defy_death = self.defy_death.max(amount),
            RuneEffect::NewTargetDamage => {
                self.new_target_damage = self.new_target_damage.saturating_add(amount);
            }
            RuneEffect::ActivationShield => {
                self.activation_shield = self.activation_shield.saturating_add(amount);
            }
        }
    }
}

/// How many of a rune's lines (rows or columns, `first..first + width`)
/// a footprint spanning `from..from + size` meets, and whether that is full
/// potency: every line of the rune inside the footprint, or a size-1 unit
/// (900.24a, 900.24d).
fn coverage(first: i32, width: i32, from: i32, size: i32) -> (i32, bool) {
    let lo = first.max(from);
    let hi = (first + width).min(from + size);
    let met = (hi - lo).max(0);
    (met, met > 0 && (size == 1 || met == width.min(size)))
}

impl Engine<'_> {
    /// A side's runes and resonance for the fight being set up; read when
    /// the battle starts.
    pub fn set_runes(
        &mut self,
        side: Side,
        runes: &[RunePlacement],
        shifts: &[i32],
        resonance: Option<gridsim_model::catalog::ResonanceId>,
    ) {
        let s = &mut self.side_runes[side.index()];
        s.count = runes.len().min(MAX_RUNES_PER_SIDE);
        s.runes[..s.count].copy_from_slice(&runes[..s.count]);
        for (k, shift) in s.shift.iter_mut().enumerate() {
            *shift = shifts.get(k).copied().unwrap_or(0);
        }
        s.resonance = resonance;
    }

    /// A side's resonance level now (800.58c, 800.58d): its board runes'
    /// tiers plus the base, plus every active resonator.
    pub fn resonance_level(&self, side: Side) -> i32 {
        self.resonance.level[side.index()]
    }

    /// A side's resonance level when the battle started.
    pub fn resonance_start_level(&self, side: Side) -> i32 {
        self.resonance.start_level[side.index()]
    }

    /// 800.58c, 800.58d: the base, each board rune's tier once (900.23b),
    /// and each active resonator of the side: alive, not Dormant, and a
    /// Rune Resonator only with its Quest complete. Never below the base.
    pub(crate) fn active_resonance_level(&self, side: Side) -> i32 {
        let base = self.rules.resonance.base_level;
        let mut level = base;
        for p in self.side_runes[side.index()].as_slice() {
            level = level.saturating_add(i32::from(p.tier));
        }
        let mut sources = self.resonance.resonators[side.index()];
        while sources != 0 {
            let i = sources.trailing_zeros() as usize;
            sources &= sources - 1;
            if !self.u.alive[i] || self.u.dormant[i] {
                continue;
            }
            let questing =
                self.catalog.card(self.u.printed[i]).quest.is_some() && !self.quest_complete(UnitIdx(i as u8));
            let amount = self
                .catalog
                .card(self.u.card[i])
                .keywords
                .amount(KeywordName::Resonator);
            if let Some(a) = amount.filter(|_| !questing) {
                level = level.saturating_add(self.catalog.fixed_amount(a, self.u.tier[i]));
            }
        }
        level.max(base)
    }

    /// 800.58d read in combat: "an inactive, dead, or Dormant source
    /// contributes nothing", so when resonator `u` dies, falls Dormant,
    /// wakes, comes back or completes its Quest, its side's level is worked
    /// out again and every unit that holds the resonance gets the
    /// difference: stats, Vitality and Riposte now (a timed line only while
    /// it runs), and its grants, so a holder revived later stands at the
    /// new level. Nothing happens for a unit that is no resonator.
    pub(crate) fn refresh_resonance(&mut self, u: UnitIdx) {
        let i = u.i();
        let side = self.u.side[i];
        if (self.resonance.resonators[side.index()] >> i) & 1 == 0 {
            return;
        }
        let before = self.resonance.level[side.index()];
        let after = self.active_resonance_level(side);
        if after == before {
            return;
        }
        self.resonance.level[side.index()] = after;
        let Some(id) = self.side_runes[side.index()].resonance else {
            return;
        };
        self.emit(EventKind::ResonanceLevel, u, UnitIdx::NONE, after, before, "800.58d");
        let change = after - before;
        let timed_live = self.now < self.resonance.side_end_ms[side.index()] && self.resonance.timed[side.index()];
        // The difference is the same for every holder.
        let mut d = RuneGrants::default();
        for line in &self.catalog.resonance(id).lines {
            d.add(line.effect, line.per_level.saturating_mul(change), line.duration_ms > 0);
        }
        let mut holders = self.resonance.holders[side.index()];
        while holders != 0 {
            let h = holders.trailing_zeros() as usize;
            holders &= holders - 1;
            let g = &mut self.rune_grants[h];
            for k in 0..4 {
                g.stats[k] = g.stats[k].saturating_add(d.stats[k]);
                g.timed[k] = g.timed[k].saturating_add(d.timed[k]);
            }
            g.vitality = g.vitality.saturating_add(d.vitality);
            g.riposte = g.riposte.saturating_add(d.riposte);
            if !self.u.alive[h] {
                continue;
            }
            self.write_clock_inputs(UnitIdx(h as u8), |c| {
                add_stat_grants(c, h, &d, timed_live);
                // A lower level lowers the maximum and what exceeds it, never
                // to 0: losing a grant is not a Vitality loss (no death).
                c.max_vitality[h] = c.max_vitality[h].saturating_add(d.vitality).max(1);
                c.vitality[h] = if d.vitality > 0 {
                    c.vitality[h].saturating_add(d.vitality)
                } else {
                    c.vitality[h].min(c.max_vitality[h])
                }
                .min(c.max_vitality[h]);
                c.riposte[h] = c.riposte[h].saturating_add(d.riposte).max(0);
            });
        }
    }

    /// Projects every rune and resonance onto the units as the battle
    /// starts and applies what they grant.
    pub(crate) fn start_runes(&mut self) {
        let catalog = self.catalog;
        // Most fights carry no rune at all: nothing to work out then.
        let placed = self.side_runes.iter().any(|s| s.count > 0 || s.resonance.is_some());
        if !placed
            && self
                .u
                .indices()
                .all(|i| catalog.card(self.u.printed[i]).innate_runes.is_empty())
        {
            self.resonance.level = [self.rules.resonance.base_level; 2];
            self.resonance.start_level = self.resonance.level;
            return;
        }
        for side in [Side::Left, Side::Right] {
            let s = &mut self.side_runes[side.index()];
            s.reached[..s.count].fill(0);
            s.partial[..s.count].fill(0);
            // 800.58d: the resonators a side's resonance listens to, read
            // live from here on (see `refresh_resonance`).
            let mut resonators = 0u64;
            if s.resonance.is_some() {
                // A boss's phase cards count too: a phase may bring the keyword.
                let resonator =
                    |c: gridsim_model::catalog::CardId| catalog.card(c).keywords.has(KeywordName::Resonator);
                for i in self.u.indices() {
                    let card = catalog.card(self.u.card[i]);
                    if self.u.side[i] == side
                        && (resonator(self.u.card[i]) || card.phases.iter().any(|ph| resonator(ph.card)))
                    {
                        resonators |= 1u64 << i;
                    }
                }
            }
            self.resonance.resonators[side.index()] = resonators;
            let level = self.active_resonance_level(side);
            self.resonance.level[side.index()] = level;
            self.resonance.start_level[side.index()] = level;
        }
        for i in self.u.indices() {
            let u = UnitIdx(i as u8);
            let side = self.u.side[i];
            let kind = self.u.kind[i];
            let mut g = RuneGrants::default();
            // 900.24d, 800.71a: Tools receive no rune; Hubs take no combat
            // interaction (800.33b), so none reaches them either.
            if kind.is_object() {
                self.rune_grants[i] = g;
                continue;
            }
            let card = catalog.card(self.u.printed[i]);
            for k in 0..self.side_runes[side.index()].count {
                let p = self.side_runes[side.index()].runes[k];
                let Some(potency) = self.potency(&p, u) else {
                    continue;
                };
                let record = &mut self.side_runes[side.index()];
                record.reached[k] |= 1u64 << i;
                if potency < 100 {
                    record.partial[k] |= 1u64 << i;
                }
                let rune = catalog.rune(p.rune);
                let shift = self.side_runes[side.index()].shift[k];
                for line in &rune.lines {
                    let mut amount = line.amounts[usize::from(p.tier) - 1];
                    if shift != 0 {
                        amount = gridsim_model::catalog::scale_amount(amount, shift);
                    }
                    g.add(line.effect, at_potency(amount, potency), false);
                }
                g.effects = g.effects.saturating_add(1);
                self.emit(
                    EventKind::RuneProjected,
                    u,
                    UnitIdx::NONE,
                    potency,
                    i32::from(p.rune.0),
                    "900.24a",
                );
            }
            for &(id, tier) in &card.innate_runes {
                for line in &catalog.rune(id).lines {
                    g.add(line.effect, line.amounts[usize::from(tier) - 1], false);
                }
                g.effects = g.effects.saturating_add(1);
                self.emit(
                    EventKind::RuneProjected,
                    u,
                    UnitIdx::NONE,
                    100,
                    i32::from(id.0),
                    "900.26d",
                );
            }
            // 800.58a: the resonance reaches every eligible allied unit.
            if let Some(id) = self.side_runes[side.index()].resonance {
                let level = self.resonance.level[side.index()];
                for line in &catalog.resonance(id).lines {
                    let timed = line.duration_ms > 0;
                    g.add(line.effect, line.per_level.saturating_mul(level), timed);
                    if timed {
                        let k = side.index();
                        self.resonance
                            .set_end(k, self.resonance.side_end_ms[k].min(line.duration_ms));
                        self.resonance.timed[k] = true;
                    }
                }
                self.resonance.holders[side.index()] |= 1u64 << i;
                self.emit(
                    EventKind::ResonanceGranted,
                    u,
                    UnitIdx::NONE,
                    level,
                    i32::from(id.0),
                    "800.58e",
                );
            }
            self.rune_grants[i] = g;
            self.possible.mark(Feature::Runes, 0, g != RuneGrants::default());
            if g != RuneGrants::default() {
                self.apply_rune_grants(u, true);
            }
        }
    }

    /// The potency in percent at which a board rune reaches unit `u`, or
    /// `None` when it does not (900.24): full on both projected lines or a
    /// size-1 unit; on one line half, unless Runic (900.24b, 900.24c),
    /// rounded up as the percentages of 800.33e. Tools and Hubs: none.
    pub fn potency(&self, p: &RunePlacement, u: UnitIdx) -> Option<i32> {
        let i = u.i();
        if self.u.kind[i].is_object() {
            return None;
        }
        let rect = self.u.rect[i];
        let from = match p.board {
            RuneBoard::Rows => i32::from(rect.row),
            RuneBoard::Columns => i32::from(rect.column),
        };
        let (met, full) = coverage(
            i32::from(p.cell),
            self.rules.runes.cells_per_rune,
            from,
            i32::from(rect.size),
        );
        let runic = self.catalog.card(self.u.printed[i]).keywords.has(KeywordName::Runic);
        (met > 0).then_some(if full || runic {
            100
        } else {
            self.rules.runes.partial_potency_percent
        })
    }

    /// A side's placed runes and resonance, as the fight was set up.
    pub fn side_runes(&self, side: Side) -> (&[RunePlacement], Option<ResonanceId>) {
        let s = &self.side_runes[side.index()];
        (s.as_slice(), s.resonance)
    }

    /// The units rune `k` of `side` reached when the battle started, and
    /// those of them at partial potency (bit masks by unit index).
    pub fn rune_reach(&self, side: Side, k: usize) -> (u64, u64) {
        let s = &self.side_runes[side.index()];
        (s.reached[k], s.partial[k])
    }

    /// Applies a unit's grants: stats, Vitality and the rune columns; with
    /// `loadout`, also the Thorns, Riposte and Reflect its loadout holds
    /// (a revived unit's loadout already counts them, see
    /// `install_loadout`).
    pub(crate) fn apply_rune_grants(&mut self, u: UnitIdx, loadout: bool) {
        let i = u.i();
        let g = self.rune_grants[i];
        let k = self.u.side[i].index();
        let timed_live = self.now < self.resonance.side_end_ms[k] && self.resonance.timed[k];
        self.write_clock_inputs(u, |c| {
            add_stat_grants(c, i, &g, timed_live);
            if g.vitality > 0 {
                c.max_vitality[i] = c.max_vitality[i].saturating_add(g.vitality);
                c.vitality[i] = c.vitality[i].saturating_add(g.vitality);
            }
            if loadout {
                c.thorns[i] = c.thorns[i].saturating_add(g.thorns);
                c.riposte[i] = c.riposte[i].saturating_add(g.riposte);
                c.reflect[i] = c.reflect[i].saturating_add(g.reflect);
            }
            c.rune_effects[i] = g.effects;
            c.defy_death[i] = g.defy_death;
        });
    }

    /// 800.58e: a timed resonance (Brace Step's first 20 seconds) ends:
    /// what it granted is taken back from every living unit that holds it,
    /// on each side whose time is up.
    pub(crate) fn end_timed_resonance(&mut self) {
        let now = self.now;
        let ending = [0, 1].map(|k| self.resonance.timed[k] && self.resonance.side_end_ms[k] <= now);
        for i in self.u.indices() {
            if !ending[self.u.side[i].index()] || !self.u.alive[i] {
                continue;
            }
            let t = self.rune_grants[i].timed;
            if t == [0; 4] {
                continue;
            }
            self.write_clock_inputs(UnitIdx(i as u8), |c| {
                c.power_bonus[i] = c.power_bonus[i].saturating_sub(t[0]);
                c.speed_bonus[i] = c.speed_bonus[i].saturating_sub(t[1]);
                c.armor_bonus[i] = c.armor_bonus[i].saturating_sub(t[2]);
                c.focus_bonus[i] = c.focus_bonus[i].saturating_sub(t[3]);
            });
            self.emit(
                EventKind::ResonanceEnded,
                UnitIdx(i as u8),
                UnitIdx::NONE,
                0,
                0,
                "800.58e",
            );
        }
        for (k, ended) in ending.into_iter().enumerate() {
            if ended {
                self.resonance.timed[k] = false;
                self.resonance.set_end(k, NEVER);
            }
        }
    }

    /// A unit's Cascade chance: the rules' chance plus its runes', never
    /// above the ceiling (800.9b).
    pub(crate) fn cascade_chance(&self, u: UnitIdx) -> i32 {
        let c = self.rules.cascade;
        c.chance_percent
            .saturating_add(self.rune_grants[u.i()].cascade_chance)
            .min(c.chance_ceiling_percent)
    }

    /// 800.4h, 900.20d: a defy-death rune answers a lethal Vitality loss
    /// once per life, leaving the unit at its amount (within its maximum).
    /// Returns whether it did.
    pub(crate) fn defy_death(&mut self, u: UnitIdx) -> bool {
        let i = u.i();
        if self.u.defy_death[i] <= 0 || self.u.defy_spent[i] || self.u.vitality[i] > 0 {
            return false;
        }
        self.u.defy_spent[i] = true;
        self.u.vitality[i] = self.u.defy_death[i].min(self.u.max_vitality[i]).max(1);
        self.emit(
            EventKind::DefiedDeath,
            u,
            UnitIdx::NONE,
            self.u.vitality[i],
            0,
            "800.4h",
        );
        true
    }

    /// 800.20c, 900.28f: a new-target rune's bonus on this unit's first
    /// activation against each target incarnation.
    pub(crate) fn new_target_bonus(&mut self, u: UnitIdx, target: UnitIdx) -> i32 {
        let bonus = self.rune_grants[u.i()].new_target_damage;
        if bonus <= 0 || target.is_none() {
            return 0;
        }
        let bit = 1u64 << target.i();
        if self.u.targets_met[u.i()] & bit != 0 {
            return 0;
        }
        self.u.targets_met[u.i()] |= bit;
        self.emit(EventKind::NewTarget, u, target, bonus, 0, "800.20c");
        bonus
    }

    /// A revived unit is a new target incarnation (800.20c): every unit's
    /// new-target effects may fire for it again.
    pub(crate) fn forget_incarnation(&mut self, u: UnitIdx) {
        let bit = !(1u64 << u.i());
        for i in self.u.indices() {
            self.u.targets_met[i] &= bit;
        }
    }
}

/// Adds grants' Power, Speed, Armor and Focus to unit `i`'s bonus columns,
/// the timed ones only while the side's timed resonance runs.
fn add_stat_grants(c: &mut super::Units, i: usize, g: &RuneGrants, timed_live: bool) {
    for (k, col) in [
        &mut c.power_bonus,
        &mut c.speed_bonus,
        &mut c.armor_bonus,
        &mut c.focus_bonus,
    ]
    .into_iter()
    .enumerate()
    {
        let timed = if timed_live { g.timed[k] } else { 0 };
        col[i] = col[i].saturating_add(g.stats[k]).saturating_add(timed);
    }
}

/// A line's amount at `potency` percent: rounded up when partial, whole at
/// full potency or more.
fn at_potency(amount: i32, potency: i32) -> i32 {
    if potency >= 100 {
        return amount;
    }
    arith::percent_up(amount, potency)
}

const _: () = assert!(MAX_UNITS <= 64, "targets_met is a 64-bit mask");

#[cfg(test)]
mod tests {
    use super::coverage;

    #[test]
    fn coverage_is_full_on_both_lines_or_a_single_cell_and_partial_on_one() {
        // A 2x2 unit on rows 1-2: a rune on rows 1-2 covers both (900.24a).
        assert_eq!(coverage(1, 2, 1, 2), (2, true));
        // Rows 0-1 or 2-3: one of its rows, partial.
        assert_eq!(coverage(0, 2, 1, 2), (1, false));
        assert_eq!(coverage(2, 2, 1, 2), (1, false));
        // Rows 3-4 miss it.
        assert_eq!(coverage(3, 2, 1, 2).0, 0);
        // A 4x4 unit: both of the rune's lines inside it is full.
        assert_eq!(coverage(1, 2, 0, 4), (2, true));
        // A size-1 unit is always full when met (900.24d).
        assert_eq!(coverage(0, 2, 1, 1), (1, true));
    }

    #[test]
    fn partial_potency_rounds_up() {
        assert_eq!(super::at_potency(5, 50), 3);
        assert_eq!(super::at_potency(4, 50), 2);
        assert_eq!(super::at_potency(7, 100), 7);
    }
}
