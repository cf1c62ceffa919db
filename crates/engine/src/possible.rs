//! What can happen in this fight, learnt as it is set up: a bit for each
//! piece of work some unit of a side could need, so a fight without it
//! skips the work (a Power read looks for Consecrate only when a unit of
//! the side holds it). One bit set, reset with the fight.

use super::{Engine, UnitIdx, trigger_bit};
use gridsim_model::ability::Trigger;

/// Work a fight may need. A bit per side each; the fight-wide ones use
/// side 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Feature {
    /// Some unit received a rune or resonance (900.24, 800.58).
    Runes,
    /// Some unit counts with a Quest or a named counter (800.54a, 200.3b).
    Quests,
    /// Some unit holds a stat layer under Insurance (800.37h): otherwise
    /// every stat read skips the Insurance test.
    InsuredLayers,
    /// Some unit has Phylactery, so Dread and Freeze score Vessel Points
    /// (800.49c).
    Vessels,
    /// A unit of the side carries the no-spread aura (900.33h).
    Ward,
    /// A unit of the side carries an Ignited Fury aura, so Power reads
    /// look for it (800.35c).
    FuryAura,
    /// A unit of the side holds Consecrate, so Power reads look for it
    /// (800.10a).
    Consecrate,
    /// A unit of the side listens to its allies' activations (Supercharge,
    /// Poach), so the follow-up step scans the side.
    HearsActivations,
    /// A unit of the side grants Initiative repeats (800.36c).
    GrantsInitiative,
}

/// A bit per (feature, side).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Possible(u32);

impl Possible {
    pub(crate) const NONE: Possible = Possible(0);

    #[inline]
    fn bit(f: Feature, side: usize) -> u32 {
        debug_assert!(side < 2);
        1 << (2 * f as u32 + (side as u32 & 1))
    }

    /// Whether `f` may happen on `side`.
    #[inline]
    pub(crate) fn on(self, f: Feature, side: usize) -> bool {
        self.0 & Possible::bit(f, side) != 0
    }

    /// Whether a fight-wide `f` may happen.
    #[inline]
    pub(crate) fn any(self, f: Feature) -> bool {
        self.0 & (0b11 << (2 * f as u32)) != 0
    }

    /// What either may need.
    pub(crate) fn union(self, other: Possible) -> Possible {
        Possible(self.0 | other.0)
    }

    /// Marks `f` possible on `side` when `when` holds; never unmarks.
    #[inline]
    pub(crate) fn mark(&mut self, f: Feature, side: usize, when: bool) {
        if when {
            self.0 |= Possible::bit(f, side);
        }
    }
}

impl Engine<'_> {
    /// Marks what unit `u`'s loadout makes possible for its side: a placed
    /// unit at battle start, and a boss whose phase installs a new loadout
    /// (800.48g).
    pub(super) fn mark_possible(&mut self, u: UnitIdx) {
        let i = u.i();
        let side = self.u.side[i].index();
        let listens = self.facts[usize::from(self.u.card[i].0)].listens;
        let p = &mut self.possible;
        p.mark(
            Feature::HearsActivations,
            side,
            listens & (trigger_bit(Trigger::Supercharge) | trigger_bit(Trigger::Poach)) != 0,
        );
        p.mark(Feature::GrantsInitiative, side, self.u.initiative_repeats[i] > 0);
        p.mark(Feature::FuryAura, side, self.u.ignited_fury_aura[i]);
        p.mark(Feature::Ward, side, self.u.no_burn_spread[i]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feature_marked_on_one_side_is_not_on_the_other() {
        let mut p = Possible::NONE;
        p.mark(Feature::Consecrate, 1, true);
        p.mark(Feature::Ward, 0, false);
        assert!(p.on(Feature::Consecrate, 1) && !p.on(Feature::Consecrate, 0));
        assert!(p.any(Feature::Consecrate) && !p.any(Feature::Ward));
        assert!(!p.any(Feature::FuryAura) && !p.any(Feature::GrantsInitiative));
        p.mark(Feature::GrantsInitiative, 0, true);
        assert!(p.on(Feature::GrantsInitiative, 0) && !p.on(Feature::Consecrate, 0));
    }
}
