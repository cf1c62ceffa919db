//! The fixed capacities the engine holds its state in: arrays sized at
//! compile time, so a fight allocates nothing. The rules may lower the
//! per-unit ones (each says which setting), never raise them; the loaders
//! refuse a board or a rules file beyond them. Knows nothing else of the
//! crate.

/// A board holds at most this many units per side.
pub const MAX_UNITS_PER_SIDE: usize = 32;
/// Units in one fight.
pub const MAX_UNITS: usize = 2 * MAX_UNITS_PER_SIDE;

/// The most runes a side's two rune boards can hold: every cell taken by
/// one-cell runes on the largest grid the rules allow is far below this.
pub const MAX_RUNES_PER_SIDE: usize = 32;

/// Most Crush windows one unit can hold; `crush.windows_per_unit` in the
/// rules may lower it, never raise it.
pub const MAX_CRUSH_WINDOWS: usize = 16;

/// Most Hallow instances one unit can hold; `hallow.instances_per_unit` may
/// lower it, never raise it.
pub const MAX_HALLOW_INSTANCES: usize = 8;

/// Most Fleeting buffs one unit can hold; `fleeting.buffs_per_unit` may
/// lower it, never raise it.
pub const MAX_FLEETING_BUFFS: usize = 8;

/// Most appliers whose shares of one unit's Burn (or Venom) are kept.
pub const MAX_APPLIERS: usize = 4;
