//! The battle core. Struct-of-arrays unit state, integer arithmetic, time in
//! milliseconds, no I/O and no allocation per fight once the scratch is
//! built: a worker owns one [`Engine`] and calls [`Engine::fight`] again
//! and again.

mod activation;
mod arith;
mod chains;
mod clock;
mod containers;
pub mod continuation;
mod damage;
mod effects;
mod errors;
pub mod events;
pub mod geometry;
mod invariants;
mod outcome;
pub mod output;
mod possible;
mod revival;
mod runes;
mod scrip;
mod setup;
mod stat_effects;
pub mod state;
mod stats;
mod timed_statuses;
mod tools;
pub mod trace;

pub use clock::{CLOCK_INPUTS, clock_inputs};
pub use containers::*;
pub use errors::{Broken, StartError};
pub use events::{Event, EventKind, EventLog, Refusal};
use geometry::Rect;
pub use gridsim_core::rng::{self, FightRng};
use gridsim_model::ability::{CardKind, Trigger};
use gridsim_model::catalog::{CardId, Catalog, StatLine};
use gridsim_model::settings::Rules;
use gridsim_model::spec::{BoardSpec, Forge, InitialState, Placement, Side};
use gridsim_model::stacks::Stack;
use gridsim_model::statuses::TimedStatus;
pub use outcome::{EndReason, Outcome, SideSummary};
use possible::Possible;
pub use runes::RuneGrants;

use gridsim_core::limits::{
    MAX_APPLIERS, MAX_CRUSH_WINDOWS, MAX_FLEETING_BUFFS, MAX_HALLOW_INSTANCES, MAX_UNITS, MAX_UNITS_PER_SIDE,
};

/// "Never" for absolute times.
pub const NEVER: i32 = i32::MAX;

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

            /// Every column of unit `i`, taken out of its fight.
            fn row(&self, i: usize) -> UnitRow {
                UnitRow { $( $field: self.$field[i], )* }
            }

            /// Writes every column of unit `i` from a row.
            fn set_row(&mut self, i: usize, row: &UnitRow) {
                $( self.$field[i] = row.$field; )*
            }
        }

        /// One unit's every column as a record: a side carried out of one
        /// fight into the next (200.2c, [`continuation`]).
        #[derive(Clone)]
        pub struct UnitRow {
            $( $(#[$meta])* pub(crate) $field: $ty, )*
        }

        /// Every column's name and type as written, so a test can ask that
        /// each column holding a time or a unit index is carried right.
        #[cfg(test)]
        pub(crate) const UNIT_COLUMNS: &[(&str, &str)] = &[ $( (stringify!($field), stringify!($ty)), )* ];
    };
}

/// The unit columns with one timer column per timed status (in ms left),
/// and the clock's view of a unit's timers, from the statuses' list.
macro_rules! unit_columns_and_timers {
    (
        { $($columns:tt)* }
        sets: [ $( $set:ident => $set_tick:ident, )* ]
        state_stacks: [ $(
            $(#[$sdoc:meta])* $S:ident $skey:ident $slabel:literal $sunit:literal
            { $( ticks: $snext:ident => $stick:ident )? $( reads: $sreads:ident )? }
        )* ]
        battle_stacks: [ $(
            $(#[$tdoc:meta])* $T:ident $tkey:ident $tlabel:literal $tunit:literal
            { $( ticks: $tnext:ident => $ttick:ident )? $( reads: $treads:ident )? }
        )* ]
        carried: [ $( $(#[$cdoc:meta])* $C:ident $ckey:ident $clabel:literal { $($ctraits:tt)* } )* ]
        in_battle: [ $( $(#[$bdoc:meta])* $B:ident $bkey:ident $blabel:literal { $($btraits:tt)* } )* ]
    ) => {
        unit_columns! {
            $($columns)*
            $( $(#[$sdoc])* $skey: i32 = 0, )* $( $(#[$tdoc])* $tkey: i32 = 0, )*
            $( $( $snext: i32 = NEVER, )? )* $( $( $tnext: i32 = NEVER, )? )*
            $( $(#[$cdoc])* $ckey: i32 = 0, )* $( $(#[$bdoc])* $bkey: i32 = 0, )*
        }

        /// The unit columns the clock reads that their declarations name:
        /// each timed status's timer, each ticker's next tick or timed set,
        /// and each count whose row says the clock reads it (through
        /// Speed). [`clock::CLOCK_INPUTS`] lists the others.
        pub(crate) const DECLARED_CLOCK_INPUTS: &[&str] = &[
            $( stringify!($ckey), )* $( stringify!($bkey), )*
            $( $( stringify!($snext), )? )* $( $( stringify!($tnext), )? )*
            $( stringify!($set), )*
            $( $( { let _read_through = stringify!($sreads); stringify!($skey) }, )? )*
            $( $( { let _read_through = stringify!($treads); stringify!($tkey) }, )? )*
        ];

        clock::tickers! {
            $( $( $snext => $stick, )? )*
            $( $( $tnext => $ttick, )? )*
            $( $set => $set_tick, )*
        }

        /// A unit's timed statuses, read together by the clock.
        #[derive(Clone, Copy)]
        struct Timers { $( $ckey: i32, )* $( $bkey: i32, )* }

        impl Timers {
            #[inline]
            fn of(u: &Units, i: usize) -> Timers {
                Timers { $( $ckey: u.$ckey[i], )* $( $bkey: u.$bkey[i], )* }
            }

            /// Whether any is non-zero: one OR of them all tells.
            #[inline]
            fn any(self) -> bool {
                (0 $( | self.$ckey )* $( | self.$bkey )*) != 0
            }

            /// The earliest end of a running negative status, from `now`:
            /// the end of one may change what the unit does next (whether
            /// it charges, at what rate, its tier), so the clock stops
            /// there. A positive one's end (Relentless) changes nothing
            /// until the next event; a timed Dormant wakes by its expiry.
            /// Freeze's and Blind's time stands still while Prismbroken
            /// (800.27c, 800.3d).
            #[inline]
            fn earliest_negative_end(self, now: i32) -> i32 {
                let paused = self.prismbreak_ms > 0;
                let mut end = NEVER;
                $(
                    if TimedStatus::$C.negative()
                        && !(paused && TimedStatus::$C.paused_by_prismbreak())
                        && self.$ckey > 0
                    {
                        end = end.min(now.saturating_add(self.$ckey));
                    }
                )*
                $(
                    if TimedStatus::$B.negative()
                        && !(paused && TimedStatus::$B.paused_by_prismbreak())
                        && self.$bkey > 0
                    {
                        end = end.min(now.saturating_add(self.$bkey));
                    }
                )*
                end
            }
        }

        impl Units {
            /// Count `s` on unit `i`.
            #[inline]
            pub fn stack(&self, s: Stack, i: usize) -> i32 {
                match s {
                    $( Stack::$S => self.$skey[i], )*
                    $( Stack::$T => self.$tkey[i], )*
                }
            }

            fn stack_mut(&mut self, s: Stack, i: usize) -> &mut i32 {
                match s {
                    $( Stack::$S => &mut self.$skey[i], )*
                    $( Stack::$T => &mut self.$tkey[i], )*
                }
            }

            /// Milliseconds left of status `s` on unit `i`.
            #[inline]
            pub fn timer(&self, s: TimedStatus, i: usize) -> i32 {
                match s {
                    $( TimedStatus::$C => self.$ckey[i], )*
                    $( TimedStatus::$B => self.$bkey[i], )*
                }
            }

            fn timer_mut(&mut self, s: TimedStatus, i: usize) -> &mut i32 {
                match s {
                    $( TimedStatus::$C => &mut self.$ckey[i], )*
                    $( TimedStatus::$B => &mut self.$bkey[i], )*
                }
            }

            /// Counts every running timer of unit `i` down by `dt` ms,
            /// except those standing still while it is Prismbroken (800.27c,
            /// 800.3d); whether one reached its end.
            #[inline]
            fn count_down(&mut self, i: usize, dt: i32) -> bool {
                let paused = self.prismbreak_ms[i] > 0;
                let mut ended = false;
                $(
                    if !(paused && TimedStatus::$C.paused_by_prismbreak()) && self.$ckey[i] > 0 {
                        self.$ckey[i] = (self.$ckey[i] - dt).max(0);
                        ended |= self.$ckey[i] == 0;
                    }
                )*
                $(
                    if !(paused && TimedStatus::$B.paused_by_prismbreak()) && self.$bkey[i] > 0 {
                        self.$bkey[i] = (self.$bkey[i] - dt).max(0);
                        ended |= self.$bkey[i] == 0;
                    }
                )*
                ended
            }

            /// Whether unit `i` has a negative timed status running (800.17e).
            #[inline]
            fn negative_timer_running(&self, i: usize) -> bool {
                false $( || (TimedStatus::$C.negative() && self.$ckey[i] > 0) )*
                    $( || (TimedStatus::$B.negative() && self.$bkey[i] > 0) )*
            }
        }
    };
}

/// The counts, then the timed statuses, handed to the macro named first.
macro_rules! then_timed_statuses {
    ($then:ident $($rest:tt)*) => {
        gridsim_model::statuses::timed_statuses!($then $($rest)*);
    };
}

// The tickers (`clock::tickers!`): the counts of `stacks!` that tick, then
// these timed sets, each with the function resolving a tick.
gridsim_model::stacks::stacks!(then_timed_statuses unit_columns_and_timers {
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
    /// Relentless suppressed for the battle, through death and revival
    /// (800.56g, 800.56h).
    relentless_suppressed: bool = false,
    feast: bool = false,
    rabid: bool = false,
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
    burn_source: UnitIdx = UnitIdx::NONE,
    /// Each applier's part of the Burn stack (800.22g).
    burn_shares: ApplierShares = ApplierShares::default(),
    venom_source: UnitIdx = UnitIdx::NONE,
    /// Each applier's part of the Venom stacks (800.22g).
    venom_shares: ApplierShares = ApplierShares::default(),
    /// The additive and percentage bonuses to each Roost tick (800.59d).
    roost_bonus: i32 = 0,
    roost_percent: i32 = 0,
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
    /// Points towards the next Vessel (900.27f).
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
} sets: [
    hallow => hallow_tick,
    fleeting => fleeting_tick,
]);

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

/// Each side's resonance as it stands (800.58).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ResonanceState {
    /// The level now, and at battle start.
    pub(crate) level: [i32; 2],
    pub(crate) start_level: [i32; 2],
    /// Per side, the units whose card is a resonator, when the side has a
    /// resonance (800.58d), and the units that received the resonance.
    pub(crate) resonators: [u64; 2],
    pub(crate) holders: [u64; 2],
    /// When each side's timed resonance lines end (800.58e), `NEVER` when
    /// none runs; written only through `set_end`, which keeps `end_ms`,
    /// the earlier of the two, for the clock to read every step.
    pub(crate) side_end_ms: [i32; 2],
    end_ms: i32,
    pub(crate) timed: [bool; 2],
}

impl ResonanceState {
    /// When the next timed resonance ends, on either side: what the clock
    /// waits for.
    #[inline]
    pub(crate) fn end_ms(&self) -> i32 {
        debug_assert_eq!(self.end_ms, self.side_end_ms[0].min(self.side_end_ms[1]));
        self.end_ms
    }

    /// Sets when side `k`'s timed resonance ends.
    pub(crate) fn set_end(&mut self, k: usize, ms: i32) {
        self.side_end_ms[k] = ms;
        self.end_ms = self.side_end_ms[0].min(self.side_end_ms[1]);
    }

    const NONE: ResonanceState = ResonanceState {
        level: [0; 2],
        start_level: [0; 2],
        resonators: [0; 2],
        holders: [0; 2],
        side_end_ms: [NEVER; 2],
        end_ms: NEVER,
        timed: [false; 2],
    };
}

/// What the clock caches between events.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ClockCache {
    /// Earliest Crush or Smash expiry and earliest Burn or Venom tick over
    /// all units, found by `next_event_ms`: `resolve_due` skips a pass
    /// whose first event is later than now.
    pub(crate) expiry_next_ms: i32,
    pub(crate) tick_next_ms: i32,
    /// Units whose cached clock (`rate_now`, `next_ms`, ...) may be out of
    /// date, one bit per unit. Every write to a column the clock reads
    /// marks its unit (`touch_clock`); `next_event_ms` refreshes only the
    /// marked units. Between events a unit's absolute next event does not
    /// move (its remaining times shrink as `now` grows), so an untouched
    /// unit's cache stays exact. Debug builds check this every step.
    pub(crate) stale: u64,
    /// Units whose charge alone was set (`set_charge`) since their clock
    /// was refreshed: only when the charge fills has moved, not the rate,
    /// the gates, the ticks or the timers, so `next_event_ms` recomputes
    /// that one time (`refresh_full_time`) unless the unit is also in
    /// `clock.stale`.
    pub(crate) charge_stale: u64,
    /// Targetable units ([`Engine::is_targetable`]), one bit per unit, so a
    /// target pick tests one bit instead of four columns. What it reads
    /// (alive, Entrap's timer, Dormant, kind) is what the clock reads, so
    /// every write that marks a unit's clock (`touch_clock`) refreshes its
    /// bit, as do placement and a timer running out; debug builds compare
    /// it with the columns on every read.
    pub(crate) targetable: u64,
    /// Units with a timed status running, one bit per unit, so the clock
    /// ticks only those.
    pub(crate) timed: u64,
    /// Units with an event other than their charge filling (a timed
    /// status, an expiry, a tick, an Everlasting countdown: `next_but_full_ms`
    /// not NEVER), one bit per unit, kept by `refresh_clock`: the step's
    /// scan reads every unit's full time and only these units' other events.
    pub(crate) eventful: u64,
    /// Candidates to activate this step, one bit per resolution rank.
    pub(crate) due_ranks: u64,
}

impl ClockCache {
    /// A new fight's: every unit's clock stale, so the first step computes
    /// them all, and no expiry, tick or candidate known yet.
    const FRESH: ClockCache = ClockCache {
        expiry_next_ms: NEVER,
        tick_next_ms: NEVER,
        stale: u64::MAX,
        charge_stale: 0,
        targetable: 0,
        timed: 0,
        eventful: 0,
        due_ranks: 0,
    };
}

/// How deep the running resolution is nested, and who it has touched.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Nesting {
    /// Nesting depth of passive reactions (900.38e).
    pub(crate) depth: u8,
    /// Nesting depth of forced activations (800.64e).
    pub(crate) forced_depth: u8,
    /// Activations running, nested (a Shock inside an activation).
    pub(crate) activating: u8,
    /// Units Shocked in the running Shock resolution (800.64e), one bit each.
    pub(crate) shocked: u64,
    /// Supercharge units that fired in the running chain (800.69c).
    pub(crate) supercharged: u64,
}

/// The open Vessel-Point batch.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct VesselBatch {
    /// Nesting of open Vessel-Point batches (800.49e); each side's raw
    /// score and the units it Froze in the open batch (900.27a).
    pub(crate) depth: u8,
    pub(crate) raw: [i32; 2],
    pub(crate) frozen: [u64; 2],
}

/// A run of units of one side, in the order they take their unit indices,
/// with the starting states of its first units (a boss grown by its round,
/// 200.1d; what a match or a rescue carries, 200.2c, 200.3c; a scenario's).
#[derive(Debug, Clone, Copy)]
pub struct UnitGroup<'a> {
    pub side: Side,
    pub units: &'a [Placement],
    /// Fewer states than units leaves the rest as placed; more are ignored.
    pub states: &'a [InitialState],
    /// Each unit's printed line shifted for this fight, as if its card
    /// printed other numbers at its tier; fewer than units leaves the rest
    /// as printed.
    pub shifts: &'a [StatLine],
}

impl<'a> UnitGroup<'a> {
    /// A board's units with the board's own starting states.
    pub fn board(side: Side, board: &'a BoardSpec) -> UnitGroup<'a> {
        UnitGroup {
            side,
            units: &board.units,
            states: &board.states,
            shifts: &[],
        }
    }
}

/// Everything a fight starts from, which [`Engine::begin`] sets up.
#[derive(Debug, Clone, Copy)]
pub struct FightStart<'a> {
    /// Every unit, group by group, in the order they take their indices.
    pub groups: &'a [UnitGroup<'a>],
    /// Each side's board runes and resonance (900.24, 800.58).
    pub runes: [&'a [gridsim_model::spec::RunePlacement]; 2],
    /// Each side's board runes with their amounts raised by a percent for
    /// this fight alone, in the order of `runes` (a tune's perturbation,
    /// `scale_amount`); fewer than runes leaves the rest as printed.
    pub rune_shifts: [&'a [i32]; 2],
    pub resonance: [Option<gridsim_model::catalog::ResonanceId>; 2],
    /// Each side's Forge Core modifiers (200.3a).
    pub forge: [Forge; 2],
    /// The match round, 0 outside a match (800.33f).
    pub round: u8,
    /// Each side's Dividend and Profit going in (800.15b, 800.53c).
    pub scrip: [[i32; 2]; 2],
}

impl<'a> FightStart<'a> {
    /// Two boards with their runes and Forge Cores, outside a match: round
    /// 0, no Scrip.
    pub fn boards(groups: &'a [UnitGroup<'a>], left: &'a BoardSpec, right: &'a BoardSpec) -> FightStart<'a> {
        FightStart {
            groups,
            runes: [&left.runes, &right.runes],
            rune_shifts: [&[], &[]],
            resonance: [left.resonance, right.resonance],
            forge: [left.forge, right.forge],
            round: 0,
            scrip: [[0; 2]; 2],
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
    /// Each side's resonance as it stands (800.58).
    resonance: ResonanceState,
    /// The match round, 0 outside a match (800.33f).
    round: u8,
    /// Dividend each side's Hubs settled at battle end (800.61c).
    dividend: [i32; 2],
    /// Each side's Dividend and Profit going in, for "per" amounts.
    scrip: [[i32; 2]; 2],
    /// Per side, a bit per Quest event (`QuestEvent as u8`) some unit of
    /// the side counts with a Quest or a named counter, so an event nobody
    /// counts costs no scan of the units (800.54a, 200.3b).
    quest_events: [u8; 2],
    /// Each side holds a Hub this fight (taken with Highland's roster).
    has_hub: [bool; 2],
    /// Each side's starting roster passes Highland's checks (800.32).
    highland_roster: [bool; 2],
    /// Every unit's drawn state after each logged event, for the fight page.
    pub trace: trace::Trace,
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
    /// What work this fight may need (Consecrate, Fury auras, Quests,
    /// Vessels, ...), so a fight without it skips it.
    pub(crate) possible: Possible,
    /// Scratch of a Focus-weighted pick: the candidates and their weights,
    /// kept here so a pick neither allocates nor clears an array.
    pick: Box<PickScratch>,
    /// Per side, living combatants: kept by `kill`, read by `check_end`.
    standing: [u16; 2],
    /// Each side's units Dormant until a counted wake condition is met
    /// (800.16f), one bit per unit: activations and damage of that side
    /// count towards them only while some bit is set.
    wake_watch: [u64; 2],
    /// What the clock caches between events: the earliest expiry and
    /// tick, and the per-unit bits of stale clocks, targetable units,
    /// running timers, other events and this step's candidates.
    clock: ClockCache,
    /// A Displace moved units this step: resolution order, which follows
    /// reading order, is rebuilt before the next step (800.14f).
    order_stale: bool,
    /// Each unit's place in `order`.
    rank: [u8; MAX_UNITS],
    /// How deep the running resolution is nested, and who it has touched.
    nesting: Nesting,
    /// The open Vessel-Point batch (800.49e, 900.27a).
    vessel_batch: VesselBatch,
    /// Set while a clause authored to pass Entrap resolves (800.17d,
    /// 800.19d): its scope takes in Entrapped units and their gate lets it
    /// through. A clause it sets off sets its own.
    through_entrap: bool,
    outcome: Option<Outcome>,
    /// Per unit, what its printed line is shifted by in this fight (its
    /// card printed otherwise for it alone: `gridsim tune`'s
    /// perturbations); zero for a unit placed without one. Kept across the
    /// unit's revivals, as a printed number would be.
    line_shift: Box<[StatLine; MAX_UNITS]>,
}

impl<'c> Engine<'c> {
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

    /// Units in resolution order.
    pub fn order(&self) -> &[UnitIdx] {
        self.order.as_slice()
    }

    /// The line unit `i` reads for `card` at `tier`: the card's, shifted by
    /// the unit's own shift when it is the card and tier it was placed as.
    pub(crate) fn printed_line(&self, i: usize, card: CardId, tier: u8) -> StatLine {
        let line = self.catalog.card(card).at_tier(tier);
        if card == self.u.printed[i] && tier == self.u.native_tier[i] {
            line.shifted(self.line_shift[i])
        } else {
            line
        }
    }

    /// Changes a unit's tier, keeping current Vitality as the same fraction
    /// of maximum (800.65c), rounded up so a living unit stays alive. The
    /// tier scales the card's ladder only (800.65a): what the maximum holds
    /// beside the ladder (a rune's, a Hub's or a resonance's Vitality, an
    /// Interest cut "for the rest of the battle", 800.38c) is carried over.
    fn set_tier(&mut self, u: UnitIdx, tier: u8) {
        let i = u.i();
        let old_max = i64::from(self.u.max_vitality[i].max(1));
        let beside_ladder = i64::from(self.u.max_vitality[i]) - i64::from(self.line(u).vitality);
        let line = self.printed_line(i, self.u.card[i], tier);
        self.write_clock_inputs(u, |c| {
            c.tier[i] = tier;
            c.line[i] = line;
        });
        let new_max = arith::clamp_i32(i64::from(self.line(u).vitality) + beside_ladder).max(1);
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
                            .any(|op| op.condition == Some(gridsim_model::ability::Condition::Bloodlust))
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
// The clock's unit masks (`clock.stale`, `timed`) hold one bit per unit.
const _: () = assert!(MAX_UNITS <= 64);
