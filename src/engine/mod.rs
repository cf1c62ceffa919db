//! The battle core. Struct-of-arrays unit state, integer arithmetic, time in
//! milliseconds, no I/O and no allocation per fight once the scratch is
//! built: a worker owns one [`Engine`] and calls [`Engine::fight`] again
//! and again.

mod activation;
mod chains;
mod damage;
mod effects;
pub mod events;
pub mod geometry;
mod revival;
pub mod rng;
mod runes;
mod scrip;
pub mod state;
mod tools;

use crate::ability::{CardKind, Trigger};
use crate::catalog::{CardId, Catalog, StatLine};
use crate::settings::Rules;
use crate::spec::{BoardSpec, Forge, InitialState, Placement, Side};
pub use events::{Event, EventKind, EventLog, Refusal};
use geometry::Rect;
pub use rng::FightRng;
pub use runes::RuneGrants;

use crate::limits::{
    MAX_APPLIERS, MAX_CRUSH_WINDOWS, MAX_FLEETING_BUFFS, MAX_HALLOW_INSTANCES, MAX_UNITS, MAX_UNITS_PER_SIDE,
};

/// "Never" for absolute times.
pub const NEVER: i32 = i32::MAX;

/// A unit's index in the fight's columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct UnitIdx(pub u8);

impl UnitIdx {
    pub const NONE: UnitIdx = UnitIdx(u8::MAX);
    /// The column index. Masked so the compiler knows it is in bounds;
    /// indexing with `NONE` is a bug, caught by the assertion in builds
    /// with debug assertions.
    #[inline]
    pub fn i(self) -> usize {
        debug_assert!(
            (self.0 as usize) < MAX_UNITS,
            "unit index {} used as a column index",
            self.0
        );
        self.0 as usize & (MAX_UNITS - 1)
    }
    pub fn is_none(self) -> bool {
        self == UnitIdx::NONE
    }
    pub fn get(self) -> Option<UnitIdx> {
        if self.is_none() { None } else { Some(self) }
    }
}

/// A fixed-capacity list of units that never allocates.
#[derive(Clone, Copy)]
pub struct UnitList {
    len: u8,
    items: [UnitIdx; MAX_UNITS],
}

impl Default for UnitList {
    fn default() -> Self {
        UnitList {
            len: 0,
            items: [UnitIdx::NONE; MAX_UNITS],
        }
    }
}

impl UnitList {
    pub fn push(&mut self, u: UnitIdx) {
        if (self.len as usize) < MAX_UNITS {
            self.items[self.len as usize] = u;
            self.len += 1;
        }
    }
    pub fn as_slice(&self) -> &[UnitIdx] {
        &self.items[..self.len as usize]
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn remove_at(&mut self, i: usize) -> UnitIdx {
        let u = self.items[i];
        self.items.copy_within(i + 1..self.len as usize, i);
        self.len -= 1;
        u
    }
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

/// One running Crush reduction (800.12a).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CrushWindow {
    pub amount: i32,
    pub expires_ms: i32,
    /// The Tool whose Crush this is, or NONE: a Tool's Crush on one enemy
    /// replaces its own earlier window (800.12e).
    pub key: UnitIdx,
}

/// Who applied how much of a unit's Burn or Venom stack, so each tick's
/// Feast can be split between them in proportion (800.22g). The parts add
/// up to the stack; when the stack decays, every part decays in proportion.
#[derive(Debug, Clone, Copy)]
pub struct ApplierShares {
    len: u8,
    parts: [(UnitIdx, i32); MAX_APPLIERS],
}

impl Default for ApplierShares {
    fn default() -> Self {
        ApplierShares {
            len: 0,
            parts: [(UnitIdx::NONE, 0); MAX_APPLIERS],
        }
    }
}

impl ApplierShares {
    pub fn running(&self) -> &[(UnitIdx, i32)] {
        &self.parts[..self.len as usize]
    }
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// `amount` more from `applier`. Past the capacity, a new applier takes
    /// the smallest part's place, and that part's amount joins its own, so
    /// the parts still add up to the stack.
    pub fn add(&mut self, applier: UnitIdx, amount: i32) {
        if amount <= 0 {
            return;
        }
        let len = self.len as usize;
        if let Some(p) = self.parts[..len].iter_mut().find(|p| p.0 == applier) {
            p.1 = p.1.saturating_add(amount);
        } else if len < MAX_APPLIERS {
            self.parts[len] = (applier, amount);
            self.len += 1;
        } else if let Some(p) = self.parts.iter_mut().min_by_key(|p| p.1) {
            *p = (applier, p.1.saturating_add(amount));
        }
    }
    /// Scales every part from a stack of `from` to one of `to` (rounded
    /// down, the remainder to the largest part), dropping parts at 0.
    pub fn rescale(&mut self, from: i32, to: i32) {
        if from <= 0 || to <= 0 {
            self.clear();
            return;
        }
        let mut sum = 0i64;
        for p in self.parts[..self.len as usize].iter_mut() {
            p.1 = (i64::from(p.1) * i64::from(to) / i64::from(from)) as i32;
            sum += i64::from(p.1);
        }
        let rest = (i64::from(to) - sum).max(0) as i32;
        if let Some(p) = self.parts[..self.len as usize].iter_mut().max_by_key(|p| p.1) {
            p.1 += rest;
        }
        let mut kept = 0;
        for k in 0..self.len as usize {
            if self.parts[k].1 > 0 {
                self.parts[kept] = self.parts[k];
                kept += 1;
            }
        }
        self.len = kept as u8;
    }
    /// `amount` split between the appliers in proportion to their parts,
    /// rounded down, the remainder to the largest part.
    pub fn split(&self, amount: i32) -> [(UnitIdx, i32); MAX_APPLIERS] {
        let mut out = [(UnitIdx::NONE, 0); MAX_APPLIERS];
        let total: i64 = self.running().iter().map(|p| i64::from(p.1)).sum();
        if total <= 0 || amount <= 0 {
            return out;
        }
        let mut given = 0i64;
        let mut largest = 0;
        for (k, p) in self.running().iter().enumerate() {
            let share = i64::from(amount) * i64::from(p.1) / total;
            out[k] = (p.0, share as i32);
            given += share;
            if p.1 > self.parts[largest].1 {
                largest = k;
            }
        }
        out[largest].1 += (i64::from(amount) - given) as i32;
        out
    }
}

/// A record that runs on its own clock: what a [`TimedSet`] holds.
pub trait Timed: Copy {
    /// A blank record for the unused slots.
    const BLANK: Self;
    /// When the record next needs the engine.
    fn next_ms(&self) -> i32;
}

/// A fixed-capacity set of timed records on one unit (Hallow instances,
/// Fleeting buffs), with their earliest `next_ms` kept as one number so the
/// unit's clock reads it without a scan.
#[derive(Debug, Clone, Copy)]
pub struct TimedSet<T: Timed, const N: usize> {
    len: u8,
    next: i32,
    items: [T; N],
}

impl<T: Timed, const N: usize> Default for TimedSet<T, N> {
    fn default() -> Self {
        TimedSet {
            len: 0,
            next: NEVER,
            items: [T::BLANK; N],
        }
    }
}

impl<T: Timed, const N: usize> TimedSet<T, N> {
    pub fn running(&self) -> &[T] {
        &self.items[..self.len as usize]
    }
    /// The earliest `next_ms` of the running records.
    #[inline]
    pub fn next_ms(&self) -> i32 {
        self.next
    }
    /// Adds a record unless `cap` already run; whether it was added.
    pub fn add(&mut self, item: T, cap: usize) -> bool {
        let len = self.len as usize;
        if len >= cap.clamp(1, N) {
            return false;
        }
        self.items[len] = item;
        self.len += 1;
        self.next = self.next.min(item.next_ms());
        true
    }
    pub fn clear(&mut self) {
        self.len = 0;
        self.next = NEVER;
    }
    /// Runs `step` on every record in order; a record for which it returns
    /// false is dropped. The earliest `next_ms` is worked out again after.
    fn update(&mut self, mut step: impl FnMut(&mut T) -> bool) {
        let mut kept = 0;
        for k in 0..self.len as usize {
            let mut item = self.items[k];
            if step(&mut item) {
                self.items[kept] = item;
                kept += 1;
            }
        }
        self.len = kept as u8;
        self.next = self.running().iter().map(T::next_ms).min().unwrap_or(NEVER);
    }
}

/// One Fleeting stat gain: its stat, the amount it started with, the
/// seconds it has decayed, and its next second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FleetingBuff {
    pub stat: u8,
    pub original: i32,
    pub seconds: u8,
    pub next_ms: i32,
}

impl Timed for FleetingBuff {
    const BLANK: Self = FleetingBuff {
        stat: 0,
        original: 0,
        seconds: 0,
        next_ms: NEVER,
    };
    fn next_ms(&self) -> i32 {
        self.next_ms
    }
}

/// The Fleeting buffs decaying on one unit.
pub type FleetingBuffs = TimedSet<FleetingBuff, MAX_FLEETING_BUFFS>;

impl FleetingBuffs {
    /// Decays every buff due at `now` by one step of `steps`: writes each
    /// one's `(stat, loss)` to `losses` and returns how many; the loss after
    /// `k` steps adds up to `original x k / steps`, rounded down, so the
    /// last step takes whatever is left. A buff that took its last step ends.
    fn tick(&mut self, now: i32, tick_ms: i32, steps: i32, losses: &mut [(u8, i32); MAX_FLEETING_BUFFS]) -> usize {
        let mut due = 0;
        self.update(|b| {
            if b.next_ms <= now {
                let lost = |s: u8| (i64::from(b.original) * i64::from(s) / i64::from(steps)) as i32;
                let before = lost(b.seconds);
                b.seconds = b.seconds.saturating_add(1);
                losses[due] = (b.stat, lost(b.seconds) - before);
                due += 1;
                b.next_ms = now.saturating_add(tick_ms);
            }
            i32::from(b.seconds) < steps
        });
        due
    }
}

/// One Hallow application on a unit: its current amount and its next tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HallowInstance {
    pub amount: i32,
    pub next_ms: i32,
}

impl Timed for HallowInstance {
    const BLANK: Self = HallowInstance {
        amount: 0,
        next_ms: NEVER,
    };
    fn next_ms(&self) -> i32 {
        self.next_ms
    }
}

/// The Hallow instances running on one unit, each its own (800.29c).
pub type HallowInstances = TimedSet<HallowInstance, MAX_HALLOW_INSTANCES>;

impl HallowInstances {
    /// The current amounts added up.
    pub fn total(&self) -> i32 {
        self.running().iter().fold(0i32, |t, h| t.saturating_add(h.amount))
    }
    /// Ticks every instance due at `now`: writes each one's amount to
    /// `heals` (returning how many), keeps `100 - decay` percent of it,
    /// rounded down, drops those left at 0, and schedules the rest `tick_ms`
    /// later.
    fn tick(&mut self, now: i32, decay: i32, tick_ms: i32, heals: &mut [i32; MAX_HALLOW_INSTANCES]) -> usize {
        let mut due = 0;
        self.update(|h| {
            if h.next_ms <= now {
                heals[due] = h.amount;
                due += 1;
                h.amount = (i64::from(h.amount) * i64::from(100 - decay) / 100) as i32;
                h.next_ms = now.saturating_add(tick_ms);
            }
            h.amount > 0
        });
        due
    }
}

/// Crush reductions running on one unit: each its own 2-second window
/// (800.12a, 800.12e). All last equally long, so they expire oldest first;
/// windows are kept sorted by expiry. Each window is one record, so its
/// amount, expiry and key can never drift apart when windows move.
#[derive(Debug, Clone, Copy)]
pub struct CrushWindows {
    len: u8,
    /// Sum of the running amounts, kept with every change.
    total: i32,
    windows: [CrushWindow; MAX_CRUSH_WINDOWS],
}

impl Default for CrushWindows {
    fn default() -> Self {
        CrushWindows {
            len: 0,
            total: 0,
            windows: [CrushWindow {
                amount: 0,
                expires_ms: NEVER,
                key: UnitIdx::NONE,
            }; MAX_CRUSH_WINDOWS],
        }
    }
}

impl CrushWindows {
    pub fn running(&self) -> &[CrushWindow] {
        &self.windows[..self.len as usize]
    }
    pub fn total(&self) -> i32 {
        self.total
    }
    pub fn earliest_expiry(&self) -> i32 {
        if self.len == 0 {
            NEVER
        } else {
            self.windows[0].expires_ms
        }
    }
    pub fn clear(&mut self) {
        self.len = 0;
        self.total = 0;
    }

    /// Adds a window. A keyed window first removes the window of the same
    /// key (800.12e). Past `cap`, the newest window absorbs the amount and
    /// takes the later expiry (see the reconstruction document).
    pub fn add(&mut self, window: CrushWindow, cap: usize) {
        let cap = cap.clamp(1, MAX_CRUSH_WINDOWS);
        if !window.key.is_none()
            && let Some(at) = self.running().iter().position(|w| w.key == window.key)
        {
            self.total -= self.windows[at].amount;
            self.windows.copy_within(at + 1..self.len as usize, at);
            self.len -= 1;
        }
        let len = self.len as usize;
        self.total = self.total.saturating_add(window.amount);
        if len < cap {
            let mut at = len;
            while at > 0 && self.windows[at - 1].expires_ms > window.expires_ms {
                at -= 1;
            }
            self.windows.copy_within(at..len, at + 1);
            self.windows[at] = window;
            self.len += 1;
        } else {
            let last = &mut self.windows[len - 1];
            last.amount = last.amount.saturating_add(window.amount);
            last.expires_ms = last.expires_ms.max(window.expires_ms);
        }
    }

    /// Removes every window whose time is up at `now`; returns the amount
    /// they held.
    pub fn expire(&mut self, now: i32) -> i32 {
        let len = self.len as usize;
        let expired = self.windows[..len].iter().take_while(|w| w.expires_ms <= now).count();
        if expired == 0 {
            return 0;
        }
        let amount: i32 = self.windows[..expired].iter().map(|w| w.amount).sum();
        self.windows.copy_within(expired..len, 0);
        self.len -= expired as u8;
        self.total -= amount;
        amount
    }
}

/// The candidates of a Focus-weighted pick and their weights.
struct PickScratch {
    pool: [UnitIdx; MAX_UNITS],
    weights: [i32; MAX_UNITS],
}

/// Declares the unit columns once: the struct, its sizing and the reset of
/// one unit all come from this list, so a new column cannot be left out of
/// any of them.
macro_rules! unit_columns {
    ($( $(#[$meta:meta])* $field:ident : $ty:ty = $default:expr ),* $(,)?) => {
        /// Every unit field as its own column, indexed by [`UnitIdx`].
        /// Columns are fixed-size arrays: no pointer to follow, and an index
        /// below [`MAX_UNITS`] needs no bounds check.
        #[derive(Clone)]
        pub struct Units {
            pub count: usize,
            $( $(#[$meta])* pub $field: [$ty; MAX_UNITS], )*
        }

        impl Units {
            fn with_capacity() -> Box<Units> {
                Box::new(Units { count: 0, $( $field: [$default; MAX_UNITS], )* })
            }

            /// The indices of the units placed, provably below [`MAX_UNITS`].
            #[inline]
            pub fn indices(&self) -> std::ops::Range<usize> {
                0..self.count.min(MAX_UNITS)
            }

            /// Puts every column of unit `i` back to its default.
            fn reset_unit(&mut self, i: usize) {
                $( self.$field[i] = $default; )*
            }
        }
    };
}

unit_columns! {
    card: CardId = CardId(0),
    side: Side = Side::Left,
    kind: CardKind = CardKind::Combat,
    native_tier: u8 = 1,
    tier: u8 = 1,
    /// The printed line at the current tier, cached (changes only with Smash).
    line: StatLine = StatLine::default(),
    rect: Rect = Rect::default(),
    alive: bool = false,
    dormant: bool = false,
    /// Dormant with a timer that wakes it: a temporary Dormant (800.16i) or
    /// a wake after combat time (800.16f).
    dormant_timed: bool = false,
    dormant_ms: i32 = 0,
    /// An Entrap is running, so its end fires the release channel (800.19f).
    entrapped: bool = false,
    /// Dormant until the card's wake condition is met; its `awaken` lines
    /// resolve then (800.16f, 800.16h).
    awaiting_wake: bool = false,
    /// Progress towards a counted wake condition, stopped at the
    /// requirement (800.16g).
    wake_progress: i32 = 0,
    relentless: bool = false,
    /// Relentless granted for a time: what is left of it (800.56g).
    relentless_ms: i32 = 0,
    /// Relentless suppressed for the battle, through death and revival
    /// (800.56g, 800.56h).
    relentless_suppressed: bool = false,
    feast: bool = false,
    rabid: bool = false,
    /// Haywire stacks (800.31a).
    haywire: i32 = 0,
    /// Overclock stacks (800.45a); no cap of their own (800.45c).
    overclock: i32 = 0,
    /// Feral stacks (800.23a).
    feral: i32 = 0,
    cascade: bool = false,
    /// Cascade re-triggers in the running chain (800.9c).
    cascade_depth: i32 = 0,
    /// The unit's Initiative clauses have resolved this battle (800.36a).
    initiative_done: bool = false,
    /// Repeats this unit grants its adjacent allies' Initiative (800.36c).
    initiative_repeats: i32 = 0,
    /// Never the pick of an ally's Feral misfire (800.23c).
    ally_damage_immune: bool = false,
    has_ability: bool = false,
    max_vitality: i32 = 0,
    vitality: i32 = 0,
    power_bonus: i32 = 0,
    speed_bonus: i32 = 0,
    armor_bonus: i32 = 0,
    focus_bonus: i32 = 0,
    shield: i32 = 0,
    maim: i32 = 0,
    burn: i32 = 0,
    burn_source: UnitIdx = UnitIdx::NONE,
    /// Each applier's part of the Burn stack (800.22g).
    burn_shares: ApplierShares = ApplierShares::default(),
    burn_next_ms: i32 = NEVER,
    venom: i32 = 0,
    venom_source: UnitIdx = UnitIdx::NONE,
    /// Each applier's part of the Venom stacks (800.22g).
    venom_shares: ApplierShares = ApplierShares::default(),
    venom_next_ms: i32 = NEVER,
    /// Every Roost gained, added up (800.59b), and its next tick.
    roost: i32 = 0,
    roost_next_ms: i32 = NEVER,
    insurance: i32 = 0,
    subrogated: i32 = 0,
    dread: i32 = 0,
    /// Stat layer held while the unit has any Insurance (800.37h):
    /// Power, Speed, Armor, Focus.
    insured_layer: [i32; 4] = [0; 4],
    /// Once-per-battle clauses already spent (900.6e), one bit per slot.
    once_used: u64 = 0,
    /// A Tool that never wears out (800.18b).
    permanent: bool = false,
    fury: bool = false,
    brute: bool = false,
    lucid_power: bool = false,
    everlasting: bool = false,
    /// An Everlasting revival is counting down (800.20a, 800.20b).
    revive_armed: bool = false,
    /// Milliseconds until the Everlasting revival.
    revive_ms: i32 = 0,
    phylactery: bool = false,
    /// Vessels held (800.49a) and points towards the next (900.27f).
    vessels: i32 = 0,
    vessel_points: i32 = 0,
    /// The card the unit was placed as; `card` is the loadout in force,
    /// which a boss's phase changes (800.48a).
    printed: CardId = CardId(0),
    /// Phases installed so far, and the Vitality percent of the next
    /// threshold (0 when none is left).
    phase: u8 = 0,
    phase_at: i32 = 0,
    /// A boss's Stagger meter size (800.66b) and progress (800.66a).
    stagger_size: i32 = 0,
    stagger: i32 = 0,
    /// Interest debt in stacks (800.38a).
    interest: i32 = 0,
    /// Consecrate stacks (800.10a), projected onto adjacent allies.
    consecrate: i32 = 0,
    /// Kindled stacks (800.39a); no cap (800.39b).
    kindled: i32 = 0,
    /// Grants Fury to adjacent allies while Ignited (800.35c).
    ignited_fury_aura: bool = false,
    no_burn_spread: bool = false,
    underwriting: i32 = 0,
    thorns: i32 = 0,
    riposte: i32 = 0,
    retort: i32 = 0,
    /// Percent of landed damage a Reflect rune sends back.
    reflect: i32 = 0,
    /// Rune effects reaching the unit (900.4e).
    rune_effects: u8 = 0,
    /// A defy-death rune's Vitality, and whether this life spent it (800.4h).
    defy_death: i32 = 0,
    defy_spent: bool = false,
    /// Placed above the tier it was bought at: combined (800.32a).
    combined: bool = false,
    /// Quest progress, carried by the unit across battles (800.54b, 800.54c).
    quest: i32 = 0,
    /// The named counter, the printed X carried across a match's battles (200.3b).
    counter: i32 = 0,
    /// A Hub's share of its bonuses for the allied Pennies, and its
    /// scarcity supplement, both in percent (800.33e, 800.33f).
    hub_share: i32 = 0,
    hub_supplement: i32 = 0,
    /// Target incarnations this unit's new-target rune has met (800.20c),
    /// one bit per unit index.
    targets_met: u64 = 0,
    exalt: i32 = 0,
    damage_cap: i32 = 0,
    /// Remaining milliseconds of each timed status.
    stun_ms: i32 = 0,
    freeze_ms: i32 = 0,
    blind_ms: i32 = 0,
    entrap_ms: i32 = 0,
    prismbreak_ms: i32 = 0,
    smash_ms: i32 = 0,
    /// Vitality just before and just after Smash lowered the tier, so its
    /// expiry restores the same fraction of maximum (800.65c).
    smash_from_vitality: i32 = 0,
    smash_to_vitality: i32 = 0,
    crush: CrushWindows = CrushWindows::default(),
    hallow: HallowInstances = HallowInstances::default(),
    fleeting: FleetingBuffs = FleetingBuffs::default(),
    /// The charge as it stood at `settled_at_ms`; it grows by `rate_now` per
    /// ms from then on, so the clock's advance writes nothing per unit. The
    /// charge now is [`Engine::charge`].
    settled_charge: i32 = 0,
    settled_at_ms: i32 = 0,
    /// Charge per ms since `settled_at_ms`, 0 when not charging; set by
    /// `refresh_clock`, which first settles the charge at the old rate.
    rate_now: i32 = 0,
    /// The unit's own events, absolute ms, cached by `refresh_clock` (see
    /// `Engine::clock_stale`): when the charge fills at `rate_now` (NEVER
    /// when not charging); the next of every other kind (a timed status
    /// ending, a Crush or Smash expiry, a Burn or Venom tick, an
    /// Everlasting countdown), which a change of the charge alone leaves as
    /// it was (`refresh_full_time`); and the expiries and ticks apart.
    full_ms: i32 = NEVER,
    next_but_full_ms: i32 = NEVER,
    next_expiry_ms: i32 = NEVER,
    next_tick_ms: i32 = NEVER,
    last_target: UnitIdx = UnitIdx::NONE,
    // Tallies for results.
    activations: u32 = 0,
    damage_dealt: i64 = 0,
    damage_taken: i64 = 0,
    healing: i64 = 0,
    kills: u32 = 0,
    deaths: u32 = 0,
}

/// The Speed slot of a unit's insured layer (`Engine::insured`).
const INSURED_SPEED: usize = 1;

/// One bit for each of the first `count` units.
#[inline]
fn live_mask(count: usize) -> u64 {
    if count >= 64 { u64::MAX } else { (1u64 << count) - 1 }
}

/// What the clock knows of one unit: its charge rate, when its charge
/// fills, its next event of any other kind, next expiry, next
/// damage-over-time tick, and whether a timed status runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct UnitClock {
    rate: i32,
    full: i32,
    next_but_full: i32,
    expiry: i32,
    tick: i32,
    timed: bool,
}

impl UnitClock {
    const STOPPED: UnitClock = UnitClock {
        rate: 0,
        full: NEVER,
        next_but_full: NEVER,
        expiry: NEVER,
        tick: NEVER,
        timed: false,
    };
}

/// A unit's timed statuses, read together by the clock.
#[derive(Clone, Copy)]
struct Timers {
    stun: i32,
    entrap: i32,
    prismbreak: i32,
    smash: i32,
    freeze: i32,
    blind: i32,
    dormant: i32,
    relentless: i32,
}

impl Timers {
    #[inline]
    fn of(u: &Units, i: usize) -> Timers {
        Timers {
            stun: u.stun_ms[i],
            entrap: u.entrap_ms[i],
            prismbreak: u.prismbreak_ms[i],
            smash: u.smash_ms[i],
            freeze: u.freeze_ms[i],
            blind: u.blind_ms[i],
            dormant: u.dormant_ms[i],
            relentless: u.relentless_ms[i],
        }
    }

    /// Whether any is non-zero: one OR of them all tells.
    #[inline]
    fn any(self) -> bool {
        (self.stun
            | self.entrap
            | self.prismbreak
            | self.smash
            | self.freeze
            | self.blind
            | self.dormant
            | self.relentless)
            != 0
    }
}

/// How a fight ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// One side has no combatant left.
    Wipe,
    /// Both sides fell at the same moment.
    MutualWipe,
    /// The 120-second cap was reached with both sides standing (900.42d).
    Timeout,
}

impl EndReason {
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Wipe => "wipe",
            EndReason::MutualWipe => "mutual_wipe",
            EndReason::Timeout => "timeout",
        }
    }
}

/// The result of one fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// `None` is a draw.
    pub winner: Option<Side>,
    pub reason: EndReason,
    pub end_ms: i32,
}

/// One side's standing at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SideSummary {
    pub survivors: u32,
    pub remaining_vitality: i64,
    /// Stock left after Settle (800.67c: it resets after the battle).
    pub stock: i32,
    /// Dividend the side's Hubs settled (800.61c).
    pub dividend: i32,
}

/// What the loop carries through one activation (300.3).
#[derive(Debug, Clone, Copy)]
pub struct ActCtx {
    /// The unit acting or whose passive is resolving.
    pub actor: UnitIdx,
    /// The activation's target, or the passive event's other unit.
    pub target: UnitIdx,
    /// Bonus damage accumulated for the base hit (900.7a).
    pub bonus: i32,
    pub hit_landed: bool,
    pub cost_paid: i32,
    /// True only while the activation lane runs: damage to the target joins the hit.
    pub joins_hit: bool,
    /// Bloodlust sampled before the hit, for post-damage clauses (800.5c).
    pub bloodlust_sample: Option<bool>,
    /// The unit an event is about (a Tool package's ally, a dying unit).
    pub subject: UnitIdx,
    /// Freeze removed by a Shatter earlier in this resolution (800.62b).
    pub shattered_ms: i32,
    /// What the event a passive line answers carried: the Vitality a Feast
    /// restored (800.22f).
    pub restored: i32,
}

impl ActCtx {
    /// A context with nothing accumulated yet.
    pub fn new(actor: UnitIdx, target: UnitIdx, subject: UnitIdx) -> ActCtx {
        ActCtx {
            actor,
            target,
            bonus: 0,
            hit_landed: false,
            cost_paid: 0,
            joins_hit: false,
            bloodlust_sample: None,
            subject,
            shattered_ms: 0,
            restored: 0,
        }
    }
}

/// One worker's fight scratch. Reset, never reallocated, between fights.
pub struct Engine<'c> {
    pub catalog: &'c Catalog,
    pub rules: Rules,
    /// The unit columns: written only by the engine, read by others
    /// through [`Engine::units`].
    u: Box<Units>,
    pub now: i32,
    pub rng: FightRng,
    pub log: EventLog,
    /// Each side's runes and resonance as placed (800.58, 900.24).
    side_runes: [runes::SideRunes; 2],
    /// What runes and resonance give each unit, kept across its revivals.
    rune_grants: Box<[RuneGrants; MAX_UNITS]>,
    resonance_level: [i32; 2],
    resonance_start_level: [i32; 2],
    /// Per side, the units whose card is a resonator, when the side has a
    /// resonance (800.58d), and the units that received the resonance.
    resonators: [u64; 2],
    resonance_holders: [u64; 2],
    /// When the timed resonance lines end (800.58e), `NEVER` when none runs.
    resonance_end_ms: i32,
    resonance_timed: [bool; 2],
    /// Some unit received a rune or resonance this fight.
    runes_possible: bool,
    /// The match round, 0 outside a match (800.33f).
    round: u8,
    /// Dividend each side's Hubs settled at battle end (800.61c).
    dividend: [i32; 2],
    /// Each side's Dividend and Profit going in, for "per" amounts.
    scrip: [[i32; 2]; 2],
    /// Some unit carries a Quest this fight.
    quests_possible: bool,
    /// Per side, a bit per Quest event (`QuestEvent as u8`) some unit of
    /// the side counts with a Quest or a named counter, so an event nobody
    /// counts costs no scan of the units (800.54a, 200.3b).
    quest_events: [u8; 2],
    /// Each side holds a Hub this fight (taken with Highland's roster).
    has_hub: [bool; 2],
    /// Each side's starting roster passes Highland's checks (800.32).
    highland_roster: [bool; 2],
    /// Every unit's drawn state after each logged event, for the fight page.
    pub trace: state::Trace,
    pub stock: [i32; 2],
    /// Each side's Forge Core modifiers.
    pub forge: [Forge; 2],
    pub overtime_next_ms: i32,
    /// Which side resolves first among same-millisecond ties, drawn at battle start.
    pub first_side: Side,
    /// Units in resolution order: first side's reading order, then the other's.
    order: UnitList,
    /// Each side's Tools in resolution order, for package events (800.71).
    pub(crate) tools: [UnitList; 2],
    /// Each side's units in resolution order, so a side's scan skips the other.
    pub(crate) side_order: [UnitList; 2],
    /// Armor's percentage step for every common Armor value (900.29).
    armor_shares: damage::ArmorShares,
    /// Per card, the facts the fight loop asks about on every event (made
    /// once per scratch from the catalog).
    pub(crate) facts: Vec<CardFacts>,
    /// Per side, a bit per Tool package event some Tool listens to, so
    /// events nobody listens to cost nothing.
    pub(crate) package_mask: [u32; 2],
    /// Each side's Tools, one bit per unit, set as they are placed: what
    /// `destroy_worn_tools` looks through, in unit order.
    pub(crate) tool_mask: [u64; 2],
    /// Per side, whether any unit carries the no-spread aura (900.33h).
    pub(crate) ward_possible: [bool; 2],
    /// Some unit of the fight holds a stat layer under Insurance (800.37h):
    /// otherwise every stat read skips the Insurance test.
    insured_layers: bool,
    /// Scratch of a Focus-weighted pick: the candidates and their weights,
    /// kept here so a pick neither allocates nor clears an array.
    pick: Box<PickScratch>,
    /// Per side, living combatants: kept by `kill`, read by `check_end`.
    standing: [u16; 2],
    /// Each side's units Dormant until a counted wake condition is met
    /// (800.16f), one bit per unit: activations and damage of that side
    /// count towards them only while some bit is set.
    wake_watch: [u64; 2],
    /// Some unit of the side carries an Ignited Fury aura, so Power reads
    /// check for it (800.35c); other fights skip the scan.
    fury_aura_possible: [bool; 2],
    /// Some unit of the side holds Consecrate, so Power reads look for it
    /// (800.10a); other fights skip the scan.
    consecrate_possible: [bool; 2],
    /// Earliest Crush or Smash expiry and earliest Burn or Venom tick over
    /// all units, found by `next_event_ms`: `resolve_due` skips a pass
    /// whose first event is later than now.
    expiry_next_ms: i32,
    tick_next_ms: i32,
    /// Units whose cached clock (`rate_now`, `next_ms`, ...) may be out of
    /// date, one bit per unit. Every write to a column the clock reads
    /// marks its unit (`touch_clock`); `next_event_ms` refreshes only the
    /// marked units. Between events a unit's absolute next event does not
    /// move (its remaining times shrink as `now` grows), so an untouched
    /// unit's cache stays exact. Debug builds check this every step.
    clock_stale: u64,
    /// Units whose charge alone was set (`set_charge`) since their clock
    /// was refreshed: only when the charge fills has moved, not the rate,
    /// the gates, the ticks or the timers, so `next_event_ms` recomputes
    /// that one time (`refresh_full_time`) unless the unit is also in
    /// `clock_stale`.
    charge_stale: u64,
    /// Targetable units ([`Engine::is_targetable`]), one bit per unit, so a
    /// target pick tests one bit instead of four columns. What it reads
    /// (alive, Entrap's timer, Dormant, kind) is what the clock reads, so
    /// every write that marks a unit's clock (`touch_clock`) refreshes its
    /// bit, as do placement and a timer running out; debug builds compare
    /// it with the columns on every read.
    targetable: u64,
    /// Units with a timed status running, one bit per unit, so the clock
    /// ticks only those.
    timed: u64,
    /// Units with an event other than their charge filling (a timed
    /// status, an expiry, a tick, an Everlasting countdown: `next_but_full_ms`
    /// not NEVER), one bit per unit, kept by `refresh_clock`: the step's
    /// scan reads every unit's full time and only these units' other events.
    eventful: u64,
    /// Candidates to activate this step, one bit per resolution rank.
    due_ranks: u64,
    /// A Displace moved units this step: resolution order, which follows
    /// reading order, is rebuilt before the next step (800.14f).
    order_stale: bool,
    /// Each unit's place in `order`.
    rank: [u8; MAX_UNITS],
    /// Nesting depth of passive reactions (900.38e).
    depth: u8,
    /// Nesting depth of forced activations (800.64e).
    forced_depth: u8,
    /// Activations running, nested (a Shock inside an activation).
    activating: u8,
    /// Units Shocked in the running Shock resolution (800.64e), one bit each.
    shocked: u64,
    /// Supercharge units that fired in the running chain (800.69c).
    supercharged: u64,
    /// Per side, some unit listens to its allies' activations (Supercharge,
    /// Poach), so the follow-up step scans the side; other fights skip it.
    hears_activations: [bool; 2],
    /// Per side, some unit grants Initiative repeats (800.36c).
    grants_initiative: [bool; 2],
    /// Some unit of the fight has Phylactery, so Dread and Freeze are
    /// scored for Vessel Points (800.49c); other fights skip it.
    vessels_possible: bool,
    /// Nesting of open Vessel-Point batches (800.49e); each side's raw
    /// score and the units it Froze in the open batch (900.27a).
    batch_depth: u8,
    batch_raw: [i32; 2],
    batch_frozen: [u64; 2],
    outcome: Option<Outcome>,
}

impl<'c> Engine<'c> {
    pub fn new(catalog: &'c Catalog, rules: Rules) -> Engine<'c> {
        let limit = rules.limits.events_per_fight.max(1) as usize;
        Engine {
            catalog,
            rules,
            u: Units::with_capacity(),
            now: 0,
            rng: FightRng::for_fight(0, 0),
            log: EventLog::new(limit),
            side_runes: [runes::SideRunes::default(); 2],
            rune_grants: Box::new([RuneGrants::default(); MAX_UNITS]),
            resonance_level: [0; 2],
            resonance_start_level: [0; 2],
            resonators: [0; 2],
            resonance_holders: [0; 2],
            resonance_end_ms: NEVER,
            resonance_timed: [false; 2],
            runes_possible: false,
            round: 0,
            dividend: [0; 2],
            scrip: [[0; 2]; 2],
            highland_roster: [false; 2],
            quests_possible: false,
            quest_events: [0; 2],
            has_hub: [false; 2],
            trace: state::Trace::default(),
            stock: [0; 2],
            forge: [Forge::default(); 2],
            overtime_next_ms: NEVER,
            first_side: Side::Left,
            order: UnitList::default(),
            tools: [UnitList::default(); 2],
            side_order: [UnitList::default(); 2],
            armor_shares: damage::ArmorShares::new(rules.armor.curve_constant),
            facts: (0..catalog.cards.len())
                .map(|c| CardFacts::of(catalog, CardId(c as u16)))
                .collect(),
            package_mask: [0; 2],
            tool_mask: [0; 2],
            ward_possible: [false; 2],
            insured_layers: false,
            pick: Box::new(PickScratch {
                pool: [UnitIdx::NONE; MAX_UNITS],
                weights: [0; MAX_UNITS],
            }),
            standing: [0; 2],
            wake_watch: [0; 2],
            fury_aura_possible: [false; 2],
            consecrate_possible: [false; 2],
            expiry_next_ms: NEVER,
            tick_next_ms: NEVER,
            clock_stale: u64::MAX,
            charge_stale: 0,
            targetable: 0,
            timed: 0,
            eventful: 0,
            order_stale: false,
            due_ranks: 0,
            rank: [0; MAX_UNITS],
            depth: 0,
            forced_depth: 0,
            activating: 0,
            shocked: 0,
            supercharged: 0,
            hears_activations: [false; 2],
            grants_initiative: [false; 2],
            vessels_possible: false,
            batch_depth: 0,
            batch_raw: [0; 2],
            batch_frozen: [0; 2],
            outcome: None,
        }
    }

    /// Records every event from now on (for `--log`, replays and scenarios).
    pub fn enable_log(&mut self) {
        self.log.enable();
    }

    /// Clears all state for a new fight with its own random stream.
    pub fn reset(&mut self, rng: FightRng) {
        self.u.count = 0;
        self.now = 0;
        self.rng = rng;
        self.log.clear();
        self.trace.clear();
        for s in &mut self.side_runes {
            s.count = 0;
            s.resonance = None;
        }
        if self.runes_possible {
            self.rune_grants.fill(RuneGrants::default());
        }
        self.resonance_level = [0; 2];
        self.resonance_start_level = [0; 2];
        self.resonators = [0; 2];
        self.resonance_holders = [0; 2];
        self.resonance_end_ms = NEVER;
        self.resonance_timed = [false; 2];
        self.runes_possible = false;
        self.dividend = [0; 2];
        self.scrip = [[0; 2]; 2];
        self.highland_roster = [false; 2];
        self.quests_possible = false;
        self.quest_events = [0; 2];
        self.has_hub = [false; 2];
        self.stock = [0; 2];
        self.forge = [Forge::default(); 2];
        self.overtime_next_ms = self.rules.overtime.start_ms.saturating_add(self.rules.overtime.tick_ms);
        self.first_side = Side::Left;
        self.order.clear();
        self.tools = [UnitList::default(); 2];
        self.side_order = [UnitList::default(); 2];
        self.package_mask = [0; 2];
        self.tool_mask = [0; 2];
        self.ward_possible = [false; 2];
        self.insured_layers = false;
        self.standing = [0; 2];
        self.wake_watch = [0; 2];
        self.fury_aura_possible = [false; 2];
        self.consecrate_possible = [false; 2];
        self.clock_stale = u64::MAX;
        self.charge_stale = 0;
        self.targetable = 0;
        self.timed = 0;
        self.eventful = 0;
        self.due_ranks = 0;
        self.order_stale = false;
        self.depth = 0;
        self.forced_depth = 0;
        self.activating = 0;
        self.shocked = 0;
        self.supercharged = 0;
        self.hears_activations = [false; 2];
        self.grants_initiative = [false; 2];
        self.vessels_possible = false;
        self.batch_depth = 0;
        self.batch_raw = [0; 2];
        self.batch_frozen = [0; 2];
        self.outcome = None;
    }

    /// Places one unit at full Vitality. Returns `None` when the fight is full.
    pub fn add_unit(&mut self, side: Side, p: Placement) -> Option<UnitIdx> {
        if self.u.count >= MAX_UNITS {
            return None;
        }
        let idx = UnitIdx(self.u.count as u8);
        self.u.count += 1;
        self.build_unit(idx, side, p);
        self.refresh_targetable(idx.i());
        if self.u.kind[idx.i()] == CardKind::Tool {
            self.tool_mask[side.index()] |= 1u64 << idx.i();
        }
        Some(idx)
    }

    /// Builds one unit for the battle from its card, as placement and a
    /// revival (500.9) both do: every column from the card at `p.tier`,
    /// full Vitality, nothing gained or suffered yet.
    fn build_unit(&mut self, idx: UnitIdx, side: Side, p: Placement) {
        let i = idx.i();
        let card = self.catalog.card(p.card);
        let tier = p.tier.clamp(1, card.tiers().max(1));
        let line = card.at_tier(tier);
        let u = &mut self.u;
        u.reset_unit(i);
        u.printed[i] = p.card;
        u.side[i] = side;
        u.kind[i] = card.kind;
        u.native_tier[i] = tier;
        u.tier[i] = tier;
        u.combined[i] = p.combined;
        u.rect[i] = Rect {
            column: p.column,
            row: p.row,
            size: card.footprint.side(),
        };
        u.alive[i] = true;
        // A Tool's Durability is its Vitality (800.18c); a Hub cannot die (800.61f).
        let vit = match card.kind {
            CardKind::Tool => line.durability.max(1),
            CardKind::Hub => 1,
            _ => line.vitality.max(1),
        };
        u.max_vitality[i] = vit;
        u.vitality[i] = vit;
        u.permanent[i] = card.permanent;
        // 800.16f: a card with a wake condition starts every battle Dormant.
        if let Some(w) = card.wake {
            u.dormant[i] = true;
            u.awaiting_wake[i] = true;
            if let crate::catalog::Wake::AfterMs(ms) = w {
                u.dormant_timed[i] = true;
                u.dormant_ms[i] = ms;
            }
        }
        let kw = card.keywords;
        let eval = |a: Option<crate::ability::Amount>| a.map_or(0, |a| keyword_amount(a, tier));
        u.insurance[i] = eval(kw.amount(crate::ability::KeywordName::Insurance));
        u.subrogated[i] = eval(kw.amount(crate::ability::KeywordName::Subrogated));
        u.stagger_size[i] = card.stagger;
        u.counter[i] = card.counter.as_ref().map_or(0, |c| c.start);
        u.phase_at[i] = card.phases.first().map_or(0, |ph| ph.below_percent);
        u.phylactery[i] = kw.has(crate::ability::KeywordName::Phylactery);
        // 800.49b: the starting Vessel comes with the unit, not from a
        // battle-start effect.
        if u.phylactery[i] {
            u.vessels[i] = self.rules.phylactery.starting_vessels;
            self.vessels_possible = true;
        }
        self.install_loadout(idx, p.card);
    }

    /// Installs a card's loadout on a unit at its current tier: the card
    /// itself (its ability and passive lines), the printed line, and every
    /// column its keywords set. Placement does it once; a boss's phase
    /// change does it again with the phase's card (800.48a), keeping what
    /// was granted for the battle (Relentless, Rabid, Everlasting).
    fn install_loadout(&mut self, idx: UnitIdx, card_id: CardId) {
        use crate::ability::KeywordName as K;
        let i = idx.i();
        let card = self.catalog.card(card_id);
        let tier = self.u.tier[i];
        let kw = card.keywords;
        let eval = |a: Option<crate::ability::Amount>| a.map_or(0, |a| keyword_amount(a, tier));
        let mut layer = [0; 4];
        for passive in self.catalog.passives_of(card_id) {
            if passive.trigger == Trigger::WhileInsured {
                let amount = passive.op.amount.map_or(0, |a| keyword_amount(a, tier));
                let slot = match passive.op.effect {
                    crate::ability::Effect::GainPower => 0,
                    crate::ability::Effect::GainSpeed => 1,
                    crate::ability::Effect::GainArmor => 2,
                    _ => 3,
                };
                layer[slot] += amount;
            }
        }
        let grants = self.rune_grants[i];
        let u = &mut self.u;
        u.card[i] = card_id;
        u.line[i] = card.at_tier(tier);
        u.has_ability[i] = card.has_ability() && !card.kind.is_object();
        u.relentless[i] = (u.relentless[i] || kw.has(K::Relentless)) && !u.relentless_suppressed[i];
        u.rabid[i] |= kw.has(K::Rabid);
        u.everlasting[i] |= kw.has(K::Everlasting);
        u.feast[i] = kw.has(K::Feast);
        u.cascade[i] = kw.has(K::Cascade);
        u.ally_damage_immune[i] = kw.has(K::AllyDamageImmune);
        u.fury[i] = kw.has(K::Fury);
        u.brute[i] = kw.has(K::Brute);
        u.lucid_power[i] = kw.has(K::LucidPower);
        u.ignited_fury_aura[i] = kw.has(K::IgnitedFuryAura);
        u.no_burn_spread[i] = kw.has(K::NoBurnSpread);
        u.insured_layer[i] = layer;
        self.insured_layers |= layer != [0; 4];
        // Runes project onto the cells, whatever loadout stands there.
        u.thorns[i] = eval(kw.amount(K::Thorns)).saturating_add(grants.thorns);
        u.riposte[i] = eval(kw.amount(K::Riposte)).saturating_add(grants.riposte);
        u.retort[i] = eval(kw.amount(K::Retort));
        u.reflect[i] = grants.reflect;
        u.underwriting[i] = eval(kw.amount(K::Underwriting));
        u.exalt[i] = eval(kw.amount(K::Exalt));
        u.damage_cap[i] = eval(kw.amount(K::DamageCap));
        u.initiative_repeats[i] = eval(kw.amount(K::InitiativeRepeats));
    }

    /// Phasebreak (800.48): every authored threshold the boss's Vitality
    /// has reached, in order, installs the next phase's loadout (800.48a,
    /// 800.48f); thresholds are one-way (800.48e). No heal, Stagger kept
    /// (800.48b, 800.66g); the charge keeps its progress and fills at the
    /// new Speed (800.48b); gains and losses on Focus and the other stats
    /// are deltas and carry over (800.48c); the new card's keywords, Fury
    /// included, count from the first read (800.48g).
    pub(crate) fn check_phases(&mut self, u: UnitIdx) {
        let i = u.i();
        let phases = &self.catalog.card(self.u.printed[i]).phases;
        while self.u.alive[i] && usize::from(self.u.phase[i]) < phases.len() {
            let next = phases[usize::from(self.u.phase[i])];
            if i64::from(self.u.vitality[i]) * 100 > i64::from(self.u.max_vitality[i]) * i64::from(next.below_percent) {
                break;
            }
            self.u.phase[i] += 1;
            self.install_loadout(u, next.card);
            self.u.phase_at[i] = phases
                .get(usize::from(self.u.phase[i]))
                .map_or(0, |ph| ph.below_percent);
            let side = self.u.side[i].index();
            let listens = self.facts[usize::from(next.card.0)].listens;
            self.hears_activations[side] |=
                listens & (trigger_bit(Trigger::Supercharge) | trigger_bit(Trigger::Poach)) != 0;
            self.grants_initiative[side] |= self.u.initiative_repeats[i] > 0;
            self.fury_aura_possible[side] |= self.u.ignited_fury_aura[i];
            self.ward_possible[side] |= self.u.no_burn_spread[i];
            self.touch_clock(u);
            self.emit(
                EventKind::PhaseChanged,
                u,
                UnitIdx::NONE,
                i32::from(self.u.phase[i]),
                self.u.vitality[i],
                "800.48a",
            );
            // 800.58d: a phase may bring or drop a resonator's levels.
            self.refresh_resonance(u);
        }
    }

    /// Sets up a fight: both boards placed, the tie-break side drawn, the
    /// battle-start pass resolved in reading order (800.44a).
    pub fn setup(&mut self, left: &BoardSpec, right: &BoardSpec, rng: FightRng) {
        self.place(left, right, rng);
        if !left.states.is_empty() || !right.states.is_empty() {
            self.set_starting_states(&left.states, left.units.len(), &right.states);
        }
        self.start_battle();
    }

    /// Sets both sides' starting states, left's units first as they were
    /// placed (`n_left` of them): a board's (a boss grown by its round,
    /// 200.1d) or what a match carries from the fight before (200.3c).
    /// Before the battle starts; a state whose unit was not placed (a full
    /// fight) has no unit to take it.
    pub fn set_starting_states(&mut self, left: &[InitialState], n_left: usize, right: &[InitialState]) {
        for (offset, states) in [(0, left), (n_left, right)] {
            for (i, s) in states.iter().enumerate() {
                let _ = self.set_initial_state(UnitIdx((offset + i) as u8), s);
            }
        }
    }

    /// Resets the scratch and places both boards (left's units first, as
    /// unit 0 onward, then right's) without starting the battle, so a
    /// caller may still set the round, Scrip and starting states.
    pub fn place(&mut self, left: &BoardSpec, right: &BoardSpec, rng: FightRng) {
        self.reset(rng);
        self.forge = [left.forge, right.forge];
        self.set_runes(Side::Left, &left.runes, left.resonance);
        self.set_runes(Side::Right, &right.runes, right.resonance);
        for p in &left.units {
            self.add_unit(Side::Left, *p);
        }
        for p in &right.units {
            self.add_unit(Side::Right, *p);
        }
    }

    /// Draws the tie-break side, fixes resolution order and resolves the
    /// battle-start pass. Called once after all units are placed.
    pub fn start_battle(&mut self) {
        self.first_side = if self.rng.below(2) == 0 {
            Side::Left
        } else {
            Side::Right
        };
        self.rebuild_order();
        self.take_roster();
        for i in self.u.indices() {
            let card = self.catalog.card(self.u.printed[i]);
            let counted = card
                .quest
                .map(|(on, _)| on)
                .into_iter()
                .chain(card.counter.as_ref().map(|c| c.on));
            for on in counted {
                self.quest_events[self.u.side[i].index()] |= 1 << (on as u8);
            }
        }
        self.quests_possible = self.quest_events != [0; 2];
        self.start_runes();
        self.rank_hubs();
        for i in self.u.indices() {
            let side = self.u.side[i].index();
            for p in self.catalog.packages_of(self.u.card[i]) {
                self.package_mask[side] |= tools::package_bit(p.event, p.timing);
            }
            self.ward_possible[side] |= self.u.no_burn_spread[i];
            if self.u.alive[i] && self.is_combatant(UnitIdx(i as u8)) {
                self.standing[side] += 1;
            }
            if self.u.awaiting_wake[i] && !self.u.dormant_timed[i] {
                self.wake_watch[side] |= 1 << i;
            }
            self.fury_aura_possible[side] |= self.u.ignited_fury_aura[i];
            let listens = self.facts[usize::from(self.u.card[i].0)].listens;
            self.hears_activations[side] |=
                listens & (trigger_bit(Trigger::Supercharge) | trigger_bit(Trigger::Poach)) != 0;
            self.grants_initiative[side] |= self.u.initiative_repeats[i] > 0;
        }
        self.emit(
            EventKind::BattleStart,
            UnitIdx::NONE,
            UnitIdx::NONE,
            self.u.count as i32,
            0,
            "300.3",
        );
        // 200.3b: a counter counting battles gains before any battle-start
        // line reads it, so "per counter" amounts see this battle's count.
        if self.quests_possible {
            let first = self.first_side;
            self.quest_event(first, crate::ability::QuestEvent::BattleStart);
            self.quest_event(first.other(), crate::ability::QuestEvent::BattleStart);
        }
        let order = self.order;
        // 800.6a-800.6c: Braced is a one-time battle-start grant per adjacent
        // living Tool; losing a Tool later takes nothing back.
        for &u in order.as_slice() {
            let card = self.catalog.card(self.u.card[u.i()]);
            if let Some(a) = card.keywords.amount(crate::ability::KeywordName::Braced) {
                let per_tool = keyword_amount(a, self.u.tier[u.i()]);
                let gain = per_tool.saturating_mul(self.adjacent_living_tools(u));
                if gain != 0 {
                    self.change_stat(UnitIdx::NONE, u, effects::Stat::Armor, gain);
                }
            }
        }
        // 800.49e: the battle-start pass is one Vessel-Point batch.
        self.open_batch();
        for &u in order.as_slice() {
            // 800.54b: a completed Quest's reward stays with its unit.
            // 800.44a: a Hub's grant is a battle-start effect of its turn.
            if self.u.kind[u.i()] == CardKind::Hub {
                self.hub_grant(u);
            }
            if self.quests_possible && self.quest_complete(u) {
                self.dispatch(u, Trigger::QuestCompleted, UnitIdx::NONE);
            }
            self.dispatch(u, Trigger::BattleStart, UnitIdx::NONE);
            if self.u.kind[u.i()] == CardKind::Hub {
                self.franchise(u);
            }
            if self.u.kind[u.i()] == CardKind::Tool {
                self.run_tool(
                    u,
                    crate::ability::PackageEvent::BattleStart,
                    None,
                    UnitIdx::NONE,
                    UnitIdx::NONE,
                );
            }
        }
        self.close_batch();
        self.destroy_worn_tools(Side::Left);
        self.destroy_worn_tools(Side::Right);
        self.check_end();
    }

    fn rebuild_order(&mut self) {
        self.order.clear();
        for side in [self.first_side, self.first_side.other()] {
            let mut list = UnitList::default();
            for i in self.u.indices() {
                if self.u.side[i] == side {
                    list.push(UnitIdx(i as u8));
                }
            }
            let slice = &mut list.items[..list.len as usize];
            slice.sort_by_key(|u| geometry::reading_key(self.u.rect[u.i()]));
            for &u in list.as_slice() {
                self.order.push(u);
            }
        }
        self.tools = [UnitList::default(); 2];
        self.side_order = [UnitList::default(); 2];
        for (rank, &u) in self.order.as_slice().iter().enumerate() {
            self.rank[u.i()] = rank as u8;
        }
        for &u in self.order.as_slice() {
            self.side_order[self.u.side[u.i()].index()].push(u);
            if self.u.kind[u.i()] == CardKind::Tool {
                self.tools[self.u.side[u.i()].index()].push(u);
            }
        }
    }

    /// Runs one whole fight and returns its outcome.
    pub fn fight(&mut self, left: &BoardSpec, right: &BoardSpec, rng: FightRng) -> Outcome {
        self.setup(left, right, rng);
        self.run_until(self.rules.overtime.cap_ms);
        let outcome = self.finish();
        #[cfg(debug_assertions)]
        if let Err(broken) = self.check_invariants() {
            panic!("engine invariant broken at {} ms: {broken}", self.now);
        }
        outcome
    }

    /// The engine's consistency checks: the state every rule keeps true,
    /// and the incremental state (standing counts, running Crush totals)
    /// equal to what a full scan of the columns finds. Run after every
    /// fight in builds with debug assertions (`cargo test` in the dev
    /// profile, as CI does), and by tests and the fuzz loop directly.
    pub fn check_invariants(&self) -> Result<(), String> {
        let u = &self.u;
        if self.now > self.rules.overtime.cap_ms {
            return Err(format!("time {} past the cap (900.42d)", self.now));
        }
        let mut standing = [0u16; 2];
        for i in 0..u.count {
            let (v, m) = (u.vitality[i], u.max_vitality[i]);
            if !(0..=m).contains(&v) {
                return Err(format!("unit {i}: Vitality {v} outside 0..={m}"));
            }
            if !u.alive[i] && v != 0 {
                return Err(format!("unit {i}: dead but holds Vitality {v}"));
            }
            if u.alive[i] && v == 0 {
                return Err(format!("unit {i}: alive at 0 Vitality (500.4)"));
            }
            if (self.targetable >> i) & 1 != u64::from(self.targetable_now(i)) {
                return Err(format!("unit {i}: targetable bit differs from its columns"));
            }
            for (name, value) in [
                ("Shield", u.shield[i]),
                ("Maim", u.maim[i]),
                ("Burn", u.burn[i]),
                ("Venom", u.venom[i]),
                ("Insurance", u.insurance[i]),
                ("Subrogated", u.subrogated[i]),
                ("Dread", u.dread[i]),
                ("Stun", u.stun_ms[i]),
                ("Freeze", u.freeze_ms[i]),
                ("Roost", u.roost[i]),
                ("Blind", u.blind_ms[i]),
                ("Entrap", u.entrap_ms[i]),
                ("charge", self.charge(UnitIdx(i as u8))),
            ] {
                if value < 0 {
                    return Err(format!("unit {i}: {name} is negative ({value})"));
                }
            }
            if u.burn[i] > self.rules.burn.cap {
                return Err(format!("unit {i}: Burn {} over the cap (900.33e)", u.burn[i]));
            }
            let crush = &u.crush[i];
            let sum: i64 = crush.running().iter().map(|w| i64::from(w.amount)).sum();
            if sum != i64::from(crush.total()) {
                return Err(format!(
                    "unit {i}: running Crush total {} but windows hold {sum}",
                    crush.total()
                ));
            }
            if crush.running().windows(2).any(|w| w[0].expires_ms > w[1].expires_ms) {
                return Err(format!("unit {i}: Crush windows out of expiry order"));
            }
            if u.alive[i] && self.is_combatant(UnitIdx(i as u8)) {
                standing[u.side[i].index()] += 1;
            }
        }
        if standing != self.standing {
            return Err(format!(
                "standing counts {:?} but the columns hold {standing:?}",
                self.standing
            ));
        }
        for side in [Side::Left, Side::Right] {
            let (now, live) = (self.resonance_level[side.index()], self.active_resonance_level(side));
            if self.side_runes[side.index()].resonance.is_some() && now != live {
                return Err(format!(
                    "{} resonance level {now} but its active sources make {live} (800.58d)",
                    side.name()
                ));
            }
        }
        Ok(())
    }

    /// The outcome, ending the fight at the cap if nobody has won (900.42d).
    pub fn finish(&mut self) -> Outcome {
        if let Some(o) = self.outcome {
            return o;
        }
        // A timeout is a draw: the terminal sweep ends the battle for both
        // sides at once (800.49k; see docs/rules-reconstruction.md).
        let o = Outcome {
            winner: None,
            reason: EndReason::Timeout,
            end_ms: self.now,
        };
        self.clear_revivals();
        self.settle();
        self.emit(
            EventKind::FightEnd,
            UnitIdx::NONE,
            UnitIdx::NONE,
            -1,
            EndReason::Timeout as i32,
            "900.42d",
        );
        self.outcome = Some(o);
        o
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn side_summary(&self, side: Side) -> SideSummary {
        let mut s = SideSummary {
            stock: self.stock[side.index()],
            dividend: self.dividend[side.index()],
            ..SideSummary::default()
        };
        for i in self.u.indices() {
            if self.u.side[i] == side && self.u.alive[i] && self.is_combatant(UnitIdx(i as u8)) {
                s.survivors += 1;
                s.remaining_vitality += i64::from(self.u.vitality[i]);
            }
        }
        s
    }

    /// Advances time to `stop_ms` (or until the fight ends), resolving every
    /// event on the way in time order.
    pub fn run_until(&mut self, stop_ms: i32) {
        let stop = stop_ms.min(self.rules.overtime.cap_ms);
        while self.outcome.is_none() {
            if self.order_stale {
                self.rebuild_order();
                self.order_stale = false;
            }
            let next = self.next_event_ms();
            if next > stop {
                if stop > self.now {
                    self.advance_clock(stop - self.now);
                    self.now = stop;
                }
                break;
            }
            if next > self.now {
                self.advance_clock(next - self.now);
                self.now = next;
            }
            self.resolve_due();
            if self.now >= self.rules.overtime.cap_ms {
                break;
            }
        }
    }

    /// Combatants hold the fight open: Tools and Hubs never do (800.33b), and
    /// neither does a Dormant unit (800.16a).
    pub fn is_combatant(&self, u: UnitIdx) -> bool {
        !self.u.kind[u.i()].is_object() && !self.u.dormant[u.i()]
    }

    /// Charge per millisecond (300.2, reconstructed): the rate at Speed 0
    /// plus Speed, never below the minimum; Freeze halves it (800.27a).
    pub fn charge_rate(&self, u: UnitIdx) -> i32 {
        let c = self.rules.clock;
        let mut rate = c.rate_at_zero_speed.saturating_add(self.speed(u)).max(c.minimum_rate);
        if self.u.freeze_ms[u.i()] > 0 {
            rate = damage::percent_of(rate, c.freeze_rate_percent).max(1);
        }
        rate
    }

    /// A unit charges unless dead, Stunned (800.68a), Entrapped (800.19a) or
    /// Dormant (800.16d); each of those preserves the charge it has.
    pub fn is_charging(&self, u: UnitIdx) -> bool {
        let i = u.i();
        self.u.alive[i]
            && self.u.has_ability[i]
            && self.u.stun_ms[i] == 0
            && self.u.entrap_ms[i] == 0
            && !self.u.dormant[i]
    }

    /// Sets a unit's charge from outside the clock (activation, scenario
    /// state): its cached due time no longer holds.
    pub(crate) fn set_charge(&mut self, u: UnitIdx, charge: i32) {
        self.u.settled_charge[u.i()] = charge;
        self.u.settled_at_ms[u.i()] = self.now;
        // Nothing else of the clock's inputs moved: only when the charge
        // fills is out of date, and the targetable bit is not.
        self.charge_stale |= 1u64 << u.i();
        if charge >= self.rules.clock.charge_to_activate {
            self.due_ranks |= 1u64 << self.rank[u.i()];
        }
    }

    /// A unit's charge now: what it held at its last settling plus its rate
    /// over the time since (never past `i32::MAX`: charge only grows).
    #[inline]
    pub fn charge(&self, u: UnitIdx) -> i32 {
        let i = u.i();
        let grown = i64::from(self.u.rate_now[i]) * i64::from(self.now - self.u.settled_at_ms[i]);
        damage::clamp_i32(i64::from(self.u.settled_charge[i]) + grown)
    }

    /// Marks a unit whose clock inputs changed: alive, charging gates,
    /// Speed and its layers, timed statuses, tier, Crush windows, Burn and
    /// Venom schedules, charge. A unit holding a full charge is also put
    /// among this step's candidates to activate, as a scan in resolution
    /// order would find it.
    #[inline]
    pub(crate) fn touch_clock(&mut self, u: UnitIdx) {
        self.clock_stale |= 1u64 << u.i();
        self.refresh_targetable(u.i());
        if self.charge(u) >= self.rules.clock.charge_to_activate {
            self.due_ranks |= 1u64 << self.rank[u.i()];
        }
    }

    /// A unit's clock from its columns.
    fn clock_of(&self, i: usize) -> UnitClock {
        if !self.u.alive[i] {
            // 800.20b: the Everlasting countdown runs only while dead.
            if self.u.revive_armed[i] {
                let at = self.now.saturating_add(self.u.revive_ms[i]);
                return UnitClock {
                    next_but_full: at,
                    expiry: at,
                    timed: true,
                    ..UnitClock::STOPPED
                };
            }
            return UnitClock::STOPPED;
        }
        let now = self.now;
        let u = UnitIdx(i as u8);
        let (mut rate, mut full) = (0, NEVER);
        if self.is_charging(u) {
            rate = self.charge_rate(u);
            full = self.full_time(self.charge(u), rate);
        }
        let tick = self.u.burn_next_ms[i]
            .min(self.u.venom_next_ms[i])
            .min(self.u.roost_next_ms[i])
            .min(self.u.hallow[i].next_ms())
            .min(self.u.fleeting[i].next_ms());
        let mut expiry = self.u.crush[i].earliest_expiry();
        let mut status_end = NEVER;
        let timers = Timers::of(&self.u, i);
        if timers.any() {
            for remaining in [timers.stun, timers.entrap, timers.prismbreak, timers.smash] {
                if remaining > 0 {
                    status_end = status_end.min(now.saturating_add(remaining));
                }
            }
            // 800.27c, 800.3d: Freeze's and Blind's timers pause while
            // Prismbroken.
            if timers.prismbreak == 0 {
                for remaining in [timers.freeze, timers.blind] {
                    if remaining > 0 {
                        status_end = status_end.min(now.saturating_add(remaining));
                    }
                }
            }
        }
        // 800.65a: a Smashed unit returns to its tier when Smash ends.
        if self.u.tier[i] != self.u.native_tier[i] {
            expiry = expiry.min(now.saturating_add(timers.smash));
        }
        // 800.16i, 800.16f: a timed Dormant wakes when its time is up.
        if self.u.dormant_timed[i] {
            expiry = expiry.min(now.saturating_add(timers.dormant));
        }
        // 800.19f: the end of an Entrap fires its own channel.
        if self.u.entrapped[i] {
            expiry = expiry.min(now.saturating_add(timers.entrap));
        }
        let next_but_full = status_end.min(tick).min(expiry);
        UnitClock {
            rate,
            full,
            next_but_full,
            expiry,
            tick,
            timed: timers.any(),
        }
    }

    /// When a charge of `charge` growing by `rate` (positive) per ms fills.
    #[inline]
    fn full_time(&self, charge: i32, rate: i32) -> i32 {
        let missing = (self.rules.clock.charge_to_activate - charge).max(0);
        // In 64 bits: a threshold near i32::MAX plus a fast rate would
        // overflow, wrap negative and stall the clock at `now`.
        let steps = (i64::from(missing) + i64::from(rate) - 1) / i64::from(rate);
        damage::clamp_i32(i64::from(self.now) + steps)
    }

    /// The clock of a unit whose charge alone was set (`charge_stale`): the
    /// rate and every other event stay, only when the charge fills moves.
    fn refresh_full_time(&mut self, i: usize) {
        let rate = self.u.rate_now[i];
        // A rate of 0 is a unit that does not charge (the rate is at least
        // the positive minimum otherwise): it never fills.
        if rate != 0 {
            self.u.full_ms[i] = self.full_time(self.charge(UnitIdx(i as u8)), rate);
        }
    }

    #[cfg(debug_assertions)]
    fn cached_clock(&self, i: usize) -> UnitClock {
        UnitClock {
            rate: self.u.rate_now[i],
            full: self.u.full_ms[i],
            next_but_full: self.u.next_but_full_ms[i],
            expiry: self.u.next_expiry_ms[i],
            tick: self.u.next_tick_ms[i],
            timed: self.timed & (1u64 << i) != 0,
        }
    }

    fn refresh_clock(&mut self, i: usize) {
        let c = self.clock_of(i);
        // Settle the charge at the rate that ran until now, before the new one.
        self.u.settled_charge[i] = self.charge(UnitIdx(i as u8));
        self.u.settled_at_ms[i] = self.now;
        self.u.rate_now[i] = c.rate;
        self.u.full_ms[i] = c.full;
        self.u.next_but_full_ms[i] = c.next_but_full;
        self.u.next_expiry_ms[i] = c.expiry;
        self.u.next_tick_ms[i] = c.tick;
        let bit = 1u64 << i;
        self.timed = if c.timed { self.timed | bit } else { self.timed & !bit };
        self.eventful = if c.next_but_full != NEVER {
            self.eventful | bit
        } else {
            self.eventful & !bit
        };
    }

    fn next_event_ms(&mut self) -> i32 {
        let live = self.u.indices();
        let placed = live_mask(live.end);
        let mut stale = self.clock_stale & placed;
        let mut charged = self.charge_stale & placed & !stale;
        while stale != 0 {
            self.refresh_clock(stale.trailing_zeros() as usize);
            stale &= stale - 1;
        }
        while charged != 0 {
            self.refresh_full_time(charged.trailing_zeros() as usize);
            charged &= charged - 1;
        }
        self.clock_stale = 0;
        self.charge_stale = 0;
        #[cfg(debug_assertions)]
        for i in self.u.indices() {
            debug_assert_eq!(
                self.cached_clock(i),
                self.clock_of(i),
                "unit {i}'s cached clock went stale at {} ms: a write missed touch_clock",
                self.now
            );
            debug_assert_eq!(
                self.eventful & (1u64 << i) != 0,
                self.u.next_but_full_ms[i] != NEVER,
                "unit {i}'s eventful bit differs from its cached clock"
            );
        }
        // The units whose charge fills first, as resolution ranks.
        let (mut full_first, mut full_ranks) = (NEVER, 0u64);
        for i in live {
            let full = self.u.full_ms[i];
            if full <= full_first {
                let bit = 1u64 << self.rank[i];
                full_ranks = if full < full_first { bit } else { full_ranks | bit };
                full_first = full;
            }
        }
        // A unit's next event is its full time or its next other event, so
        // the earliest of all is the earliest full time or the earliest
        // other event of an eventful unit.
        let mut next = full_first
            .min(self.overtime_next_ms)
            .min(self.rules.overtime.cap_ms)
            .min(self.resonance_end_ms);
        let mut expiry_next = NEVER;
        let mut tick_next = NEVER;
        let mut eventful = self.eventful & placed;
        while eventful != 0 {
            let i = eventful.trailing_zeros() as usize;
            eventful &= eventful - 1;
            next = next.min(self.u.next_but_full_ms[i]);
            expiry_next = expiry_next.min(self.u.next_expiry_ms[i]);
            tick_next = tick_next.min(self.u.next_tick_ms[i]);
        }
        self.tick_next_ms = tick_next;
        self.expiry_next_ms = expiry_next;
        let next = next.max(self.now);
        self.due_ranks = if full_first <= next { full_ranks } else { 0 };
        next
    }

    /// Moves every clock forward by `dt` ms. Nothing happens inside `dt`:
    /// it never crosses an event, so rates and pauses are constant over it.
    fn advance_clock(&mut self, dt: i32) {
        // Charge needs no write here: it grows from its settling time at
        // `rate_now` (see `Engine::charge`).
        let mut timed = self.timed;
        while timed != 0 {
            let i = timed.trailing_zeros() as usize;
            timed &= timed - 1;
            let frozen_paused = self.u.prismbreak_ms[i] > 0;
            let mut ended = false;
            let mut tick = |v: &mut i32| {
                if *v > 0 {
                    *v = (*v - dt).max(0);
                    ended |= *v == 0;
                }
            };
            tick(&mut self.u.stun_ms[i]);
            tick(&mut self.u.entrap_ms[i]);
            tick(&mut self.u.prismbreak_ms[i]);
            if !frozen_paused {
                tick(&mut self.u.freeze_ms[i]);
                tick(&mut self.u.blind_ms[i]);
            }
            tick(&mut self.u.smash_ms[i]);
            tick(&mut self.u.dormant_ms[i]);
            tick(&mut self.u.revive_ms[i]);
            tick(&mut self.u.relentless_ms[i]);
            // A status ending changes what the unit does next (charging,
            // Freeze's pause, Smash's expiry).
            if ended {
                self.clock_stale |= 1u64 << i;
                self.refresh_targetable(i);
            }
        }
    }

    /// Resolves everything due now: expiries, then damage-over-time ticks,
    /// then overtime, then activations, each in resolution order.
    fn resolve_due(&mut self) {
        let order = self.order;
        if self.resonance_end_ms <= self.now {
            self.end_timed_resonance();
        }
        // Nothing before these passes moves an expiry or a tick earlier, so
        // the earliest found by `next_event_ms` still decides (burn and
        // venom ticks are scheduled at least one positive interval ahead).
        if self.expiry_next_ms <= self.now {
            for &u in order.as_slice() {
                self.expire_timers(u);
            }
        }
        for &u in order.as_slice() {
            if self.outcome.is_some() || self.tick_next_ms > self.now {
                break;
            }
            // The unit's own earliest tick, cached by its clock: ticks are
            // only ever scheduled a positive interval ahead, so none can
            // have become due since.
            if self.u.next_tick_ms[u.i()] > self.now {
                continue;
            }
            if self.u.burn_next_ms[u.i()] <= self.now && self.u.alive[u.i()] {
                self.burn_tick(u);
            }
            if self.u.venom_next_ms[u.i()] <= self.now && self.u.alive[u.i()] {
                self.venom_tick(u);
            }
            if self.u.roost_next_ms[u.i()] <= self.now && self.u.alive[u.i()] {
                self.roost_tick(u);
            }
            if self.u.hallow[u.i()].next_ms() <= self.now && self.u.alive[u.i()] {
                self.hallow_tick(u);
            }
            if self.u.fleeting[u.i()].next_ms() <= self.now && self.u.alive[u.i()] {
                self.fleeting_tick(u);
            }
        }
        self.check_end();
        if self.outcome.is_none() && self.overtime_next_ms <= self.now {
            self.overtime_tick();
            self.check_end();
        }
        // In resolution order, every unit holding a full charge: those whose
        // charge filled now, and any a write during this step left full
        // further down the order (`touch_clock`), exactly as a scan of the
        // whole order would find them.
        let threshold = self.rules.clock.charge_to_activate;
        let mut from_rank = 0u32;
        loop {
            let pending = self.due_ranks & (u64::MAX << from_rank.min(63));
            if pending == 0 || from_rank >= 64 || self.outcome.is_some() {
                return;
            }
            let rank = pending.trailing_zeros();
            from_rank = rank + 1;
            let u = order.as_slice()[rank as usize];
            let charge = self.charge(u);
            if charge >= threshold && self.is_charging(u) {
                self.set_charge(u, charge - threshold);
                self.activate_chain(u, UnitIdx::NONE);
                self.check_end();
            }
        }
    }

    fn expire_timers(&mut self, u: UnitIdx) {
        let i = u.i();
        if self.u.revive_armed[i] && self.u.revive_ms[i] == 0 {
            self.everlasting_due(u);
        }
        if self.u.entrapped[i] && self.u.entrap_ms[i] == 0 {
            // 800.19f: released; the unit charges again from the next step,
            // with the charge it had.
            self.u.entrapped[i] = false;
            self.touch_clock(u);
            self.emit(EventKind::Released, u, UnitIdx::NONE, 0, 0, "800.19f");
            self.dispatch(u, Trigger::Released, UnitIdx::NONE);
        }
        if self.u.dormant_timed[i] && self.u.dormant_ms[i] == 0 {
            let rule = if self.u.awaiting_wake[i] { "800.16f" } else { "800.16i" };
            self.wake(u, rule);
        }
        if self.u.crush[i].earliest_expiry() <= self.now {
            let total = self.u.crush[i].expire(self.now);
            self.touch_clock(u);
            if total != 0 {
                self.emit(EventKind::CrushExpired, u, UnitIdx::NONE, total, 0, "800.12a");
            }
        }
        if self.u.tier[i] != self.u.native_tier[i] && self.u.smash_ms[i] == 0 {
            let native = self.u.native_tier[i];
            let reduced_max = i64::from(self.u.max_vitality[i].max(1));
            let change = i64::from(self.u.vitality[i]) - i64::from(self.u.smash_to_vitality[i]);
            self.set_tier(u, native);
            // 800.65c: the relative health the unit had when Smash applied
            // comes back exactly; only what changed while Smashed is carried
            // over at the native scale (rounded up), so applying and expiring
            // neither gains nor loses health by rounding twice.
            if self.u.alive[i] {
                let native_max = i64::from(self.u.max_vitality[i].max(1));
                let scaled = (change * native_max).div_euclid(reduced_max)
                    + i64::from((change * native_max).rem_euclid(reduced_max) != 0);
                let back = i64::from(self.u.smash_from_vitality[i]) + scaled;
                self.u.vitality[i] = damage::clamp_i32(back.clamp(1, native_max));
            }
            self.emit(
                EventKind::SmashExpired,
                u,
                UnitIdx::NONE,
                i32::from(native),
                0,
                "800.65a",
            );
        }
    }

    /// Overtime: every combatant takes N x N, N seconds past the threshold;
    /// plain damage with no attacker (900.42a, 900.42b, 900.42e).
    fn overtime_tick(&mut self) {
        let o = self.rules.overtime;
        let n = (self.now - o.start_ms) / 1000;
        let amount = n.saturating_mul(n);
        self.overtime_next_ms = self.overtime_next_ms.saturating_add(o.tick_ms);
        if amount <= 0 {
            return;
        }
        self.emit(EventKind::Overtime, UnitIdx::NONE, UnitIdx::NONE, amount, n, "900.42b");
        let order = self.order;
        for &u in order.as_slice() {
            // 900.42a "every combatant": a Dormant unit contests no combat
            // and cannot be affected (800.16a), so overtime passes it by.
            if self.u.alive[u.i()] && self.is_combatant(u) {
                self.deal_damage(UnitIdx::NONE, u, amount, damage::DamageKind::Overtime);
            }
        }
    }

    /// Ends the fight when a side has no living combatant.
    pub fn check_end(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        debug_assert_eq!(
            self.standing,
            [Side::Left, Side::Right].map(|s| self
                .u
                .indices()
                .filter(|&i| self.u.side[i] == s && self.u.alive[i] && self.is_combatant(UnitIdx(i as u8)))
                .count() as u16),
            "the standing counts drifted from the units"
        );
        let (winner, reason) = match self.standing.map(|n| n > 0) {
            [true, true] => return,
            [true, false] => (Some(Side::Left), EndReason::Wipe),
            [false, true] => (Some(Side::Right), EndReason::Wipe),
            [false, false] => (None, EndReason::MutualWipe),
        };
        self.outcome = Some(Outcome {
            winner,
            reason,
            end_ms: self.now,
        });
        self.clear_revivals();
        self.settle();
        self.emit(
            EventKind::FightEnd,
            UnitIdx::NONE,
            UnitIdx::NONE,
            winner.map_or(-1, |s| s as i32),
            reason as i32,
            "300.3",
        );
    }

    /// 800.20b: a countdown still running when combat ends is cleared.
    fn clear_revivals(&mut self) {
        for i in self.u.indices() {
            self.u.revive_armed[i] = false;
            self.u.revive_ms[i] = 0;
        }
    }

    #[inline]
    pub(crate) fn emit(
        &mut self,
        kind: EventKind,
        unit: UnitIdx,
        other: UnitIdx,
        amount: i32,
        detail: i32,
        rule: &'static str,
    ) {
        if self.log.enabled {
            self.record(kind, unit, other, amount, detail, rule);
        }
    }

    /// The body of `emit`, out of line: only fights with a log (single
    /// fights, replays, scenarios) reach it, so the fight loop's checks stay
    /// one branch.
    #[inline(never)]
    fn record(&mut self, kind: EventKind, unit: UnitIdx, other: UnitIdx, amount: i32, detail: i32, rule: &'static str) {
        self.log.push(Event {
            time_ms: self.now,
            kind,
            unit,
            other,
            amount,
            detail,
            rule,
        });
        if self.trace.enabled && self.log.dropped == 0 {
            self.record_frames();
        }
    }

    // ----- reading stats -------------------------------------------------

    #[inline]
    fn line(&self, u: UnitIdx) -> crate::catalog::StatLine {
        self.u.line[u.i()]
    }

    /// Whether Insurance coming or going moves `u`'s clock: only through the
    /// Speed of its insured layer (800.37h), the one stat the clock reads.
    pub(crate) fn insurance_moves_clock(&self, u: UnitIdx) -> bool {
        self.u.insured_layer[u.i()][INSURED_SPEED] != 0
    }

    /// The `while_insured` layer, present while any point is held (800.37h).
    /// Slots: Power, Speed, Armor, Focus.
    fn insured(&self, u: UnitIdx, slot: usize) -> i32 {
        let i = u.i();
        if self.insured_layers && (self.u.insurance[i] > 0 || self.u.subrogated[i] > 0) {
            self.u.insured_layer[i][slot]
        } else {
            0
        }
    }

    /// Effective Power: printed, plus gains, less Dread (800.17a), plus
    /// adjacent allies' Consecrate (800.10a), plus Fury's
    /// 1 per 2 Focus (800.28a); Brute then takes 33% (800.7a). Never below 0.
    /// Then doubled while Lucid for a card that says so (800.41c), and
    /// halved while Blind (800.3a), in that order (800.3b).
    #[inline]
    pub fn power(&self, u: UnitIdx) -> i32 {
        let i = u.i();
        let r = &self.rules;
        // Sums in 64 bits: stat layers added together never overflow.
        let mut p = damage::clamp_i32(
            i64::from(self.line(u).power) + i64::from(self.u.power_bonus[i]) + i64::from(self.insured(u, 0))
                - i64::from(self.u.dread[i]) * i64::from(r.dread.power_per_stack)
                + i64::from(self.u.kindled[i]) * i64::from(r.kindled.power_per_stack)
                + i64::from(self.u.overclock[i]) * i64::from(r.overclock.power_per_stack),
        );
        if self.consecrate_possible[self.u.side[i].index()] {
            p = p.saturating_add(self.consecrated(u));
        }
        if self.u.fury[i] || (self.fury_aura_possible[self.u.side[i].index()] && self.fury_aura_reaches(u)) {
            p = p.saturating_add(self.focus(u).max(0) / r.fury.focus_per_power.max(1));
        }
        if self.u.brute[i] && self.adjacent_living_tools(u) >= r.brute.tool_threshold {
            p -= damage::percent_of(p.max(0), r.brute.power_loss_percent);
        }
        let mut p = p.max(0);
        // 800.41c, 900.32d: doubled while Lucid, before Blind halves it.
        if self.u.lucid_power[i] && self.u.vitality[i] == self.u.max_vitality[i] {
            p = p.saturating_mul(2);
        }
        // 800.3a, 800.3b: Blind's loss, read from effective Power last,
        // never below the floor (a unit already under it keeps what it has).
        if self.u.blind_ms[i] > 0 {
            let floor = r.blind.power_floor.min(p);
            p = (p - damage::percent_of(p, r.blind.power_loss_percent)).max(floor);
        }
        p
    }
    /// Speed: printed, plus gains, less 1 per 2 Dread stacks (800.17a),
    /// plus 1.5 per Kindled stack, the total rounded up (800.39a), plus 4
    /// per Overclock stack (800.45a).
    pub fn speed(&self, u: UnitIdx) -> i32 {
        let i = u.i();
        let halves = i64::from(self.u.kindled[i]) * i64::from(self.rules.kindled.speed_halves_per_stack);
        damage::clamp_i32(
            i64::from(self.line(u).speed)
                + i64::from(self.u.speed_bonus[i])
                + i64::from(self.insured(u, INSURED_SPEED))
                - i64::from(self.u.dread[i] / 2) * i64::from(self.rules.dread.speed_per_two_stacks)
                + (halves + 1).div_euclid(2)
                + i64::from(self.u.overclock[i]) * i64::from(self.rules.overclock.speed_per_stack),
        )
    }

    /// Whether the unit is Ignited: 3 or more Kindled stacks, read live
    /// (800.35a, 800.35b).
    pub fn ignited(&self, u: UnitIdx) -> bool {
        self.u.kindled[u.i()] >= self.rules.kindled.ignited_at
    }

    /// Power that adjacent allies' Consecrate gives `u`: 1 per stack of
    /// each living, awake neighbour, read from the board every time
    /// (800.10a, 800.10b, 800.16c).
    fn consecrated(&self, u: UnitIdx) -> i32 {
        let (side, at) = (self.u.side[u.i()], self.u.rect[u.i()]);
        let mut sum = 0i32;
        for &c in self.side_order[side.index()].as_slice() {
            let j = c.i();
            if j != u.i()
                && self.u.consecrate[j] > 0
                && self.u.alive[j]
                && !self.u.dormant[j]
                && geometry::adjacent(at, self.u.rect[j])
            {
                sum = sum.saturating_add(self.u.consecrate[j]);
            }
        }
        sum
    }

    /// Whether `u` is Relentless now: for the battle (innate or granted) or
    /// for a time still running, and not suppressed (800.56g).
    #[inline]
    pub fn is_relentless(&self, u: UnitIdx) -> bool {
        let i = u.i();
        self.u.relentless[i] || self.u.relentless_ms[i] > 0
    }

    /// Whether `u` has a negative status, Dread included (800.17e).
    pub fn has_negative_status(&self, u: UnitIdx) -> bool {
        let i = u.i();
        let c = &self.u;
        c.burn[i] > 0
            || c.venom[i] > 0
            || c.maim[i] > 0
            || c.stun_ms[i] > 0
            || c.freeze_ms[i] > 0
            || c.blind_ms[i] > 0
            || c.prismbreak_ms[i] > 0
            || c.entrap_ms[i] > 0
            || c.smash_ms[i] > 0
            || c.crush[i].total() != 0
            || c.haywire[i] > 0
            || c.feral[i] > 0
            || c.dread[i] > 0
            || c.interest[i] > 0
    }

    /// Whether a living adjacent ally that is Ignited projects Fury onto
    /// `u` (800.35c). Read from the board every time, so overlapping
    /// sources never stack and a move or a death removes the grant.
    fn fury_aura_reaches(&self, u: UnitIdx) -> bool {
        let (side, at) = (self.u.side[u.i()], self.u.rect[u.i()]);
        self.side_order[side.index()].as_slice().iter().any(|&c| {
            let j = c.i();
            j != u.i()
                && self.u.alive[j]
                && self.u.ignited_fury_aura[j]
                && !self.u.dormant[j]
                && self.ignited(c)
                && geometry::adjacent(at, self.u.rect[j])
        })
    }
    /// Effective Armor: printed, plus gains, less Dread and running Crushes,
    /// plus 1 per Overclock stack (800.45a); may be negative (800.12h).
    pub fn armor(&self, u: UnitIdx) -> i32 {
        let i = u.i();
        damage::clamp_i32(
            i64::from(self.line(u).armor) + i64::from(self.u.armor_bonus[i]) + i64::from(self.insured(u, 2))
                - i64::from(self.u.dread[i]) * i64::from(self.rules.dread.armor_per_stack)
                - i64::from(self.u.crush[i].total())
                + i64::from(self.u.overclock[i]) * i64::from(self.rules.overclock.armor_per_stack),
        )
    }
    pub fn focus(&self, u: UnitIdx) -> i32 {
        damage::clamp_i32(
            i64::from(self.line(u).focus) + i64::from(self.u.focus_bonus[u.i()]) + i64::from(self.insured(u, 3)),
        )
    }

    /// Distinct living allied Tools sharing an edge with `u` (800.7b).
    pub fn adjacent_living_tools(&self, u: UnitIdx) -> i32 {
        let r = self.u.rect[u.i()];
        let side = self.u.side[u.i()];
        self.u
            .indices()
            .filter(|&j| {
                self.u.alive[j]
                    && self.u.side[j] == side
                    && self.u.kind[j] == CardKind::Tool
                    && geometry::adjacent(r, self.u.rect[j])
            })
            .count() as i32
    }

    pub fn is_enemy(&self, a: UnitIdx, b: UnitIdx) -> bool {
        self.u.side[a.i()] != self.u.side[b.i()]
    }

    /// Alive, not Entrapped, not Dormant, not a Tool or Hub: the filter for
    /// targets and for every unit count (900.5b, 900.5d).
    #[inline]
    pub fn is_targetable(&self, u: UnitIdx) -> bool {
        let held = self.targetable & (1u64 << u.i()) != 0;
        debug_assert_eq!(
            held,
            self.targetable_now(u.i()),
            "unit {}'s targetable bit went stale at {} ms: a write missed touch_clock",
            u.i(),
            self.now
        );
        held
    }

    /// [`Engine::is_targetable`] from the columns.
    fn targetable_now(&self, i: usize) -> bool {
        self.u.alive[i] && self.u.entrap_ms[i] == 0 && !self.u.dormant[i] && !self.u.kind[i].is_object()
    }

    #[inline]
    fn refresh_targetable(&mut self, i: usize) {
        let bit = 1u64 << i;
        self.targetable = if self.targetable_now(i) {
            self.targetable | bit
        } else {
            self.targetable & !bit
        };
    }

    /// Units in resolution order.
    pub fn order(&self) -> &[UnitIdx] {
        self.order.as_slice()
    }

    /// Changes a unit's tier, keeping current Vitality as the same fraction
    /// of maximum (800.65c), rounded up so a living unit stays alive.
    fn set_tier(&mut self, u: UnitIdx, tier: u8) {
        let i = u.i();
        let old_max = i64::from(self.u.max_vitality[i].max(1));
        self.u.tier[i] = tier;
        self.u.line[i] = self.catalog.card(self.u.card[i]).at_tier(tier);
        self.touch_clock(u);
        let new_max = self.line(u).vitality.max(1);
        let vit = i64::from(self.u.vitality[i]);
        let scaled = (vit * i64::from(new_max) + old_max - 1) / old_max;
        self.u.max_vitality[i] = new_max;
        if self.u.alive[i] {
            self.u.vitality[i] = (scaled as i32).clamp(1, new_max);
        }
    }
}

/// A card's hot facts: what the fight loop would otherwise find by
/// walking the card's clauses on every event.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CardFacts {
    /// A bit per passive trigger the card listens to ([`trigger_bit`]): an
    /// event no passive of the card hears costs one test.
    pub listens: u32,
    /// Some clause of the card's activation asks for Bloodlust, so the
    /// activation takes the sample at its start (800.5c); other activations
    /// skip the scan.
    pub samples_bloodlust: bool,
}

impl CardFacts {
    fn of(catalog: &Catalog, card: CardId) -> CardFacts {
        CardFacts {
            listens: catalog
                .passives_of(card)
                .iter()
                .fold(0u32, |mask, p| mask | trigger_bit(p.trigger)),
            samples_bloodlust: {
                let c = catalog.card(card);
                [c.hoisted, c.activation, c.lucid, c.post_damage]
                    .into_iter()
                    .any(|lane| {
                        catalog
                            .ops(lane)
                            .iter()
                            .any(|op| op.condition == Some(crate::ability::Condition::Bloodlust))
                    })
            },
        }
    }
}

/// The bit of a passive trigger in [`CardFacts::listens`].
#[inline]
pub(crate) fn trigger_bit(t: Trigger) -> u32 {
    1 << (t as u32)
}

// Every trigger needs its own bit in a `u32`.
const _: () = assert!(Trigger::ALL.len() <= 32);
// The clock's unit masks (`clock_stale`, `timed`) hold one bit per unit.
const _: () = assert!(MAX_UNITS <= 64);

/// Keyword amounts scale with tier but read no board state.
fn keyword_amount(a: crate::ability::Amount, tier: u8) -> i32 {
    use crate::ability::Amount;
    match a {
        Amount::Const(n) => n,
        Amount::PerTier(n) => n.saturating_mul(i32::from(tier)),
        _ => 0,
    }
}
