//! What a fight is made of: two boards of placed cards. Plain data, built by
//! the loader or a suite, read by the engine.

use crate::ability::RuneBoard;
use crate::catalog::{CardId, ResonanceId, RuneId};
use crate::stacks::Stack;
use crate::statuses::TimedStatus;

/// One card on a board: its tier and the cell of its footprint's top-left
/// corner, as column and row counted from 0 (100.4, reconstructed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Placement {
    pub card: CardId,
    pub tier: u8,
    pub column: u8,
    pub row: u8,
    /// Made by combining copies: placed above the tier it was bought at
    /// (Highland, 800.32a).
    pub combined: bool,
}

/// One rune on one of a side's rune boards: it takes cells `cell` and
/// `cell + 1` and faces the grid's rows or columns of the same numbers
/// (900.24a; docs/rules-reconstruction.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RunePlacement {
    pub rune: RuneId,
    pub tier: u8,
    pub board: RuneBoard,
    pub cell: u8,
}

/// One side's units, runes and resonance.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct BoardSpec {
    pub name: String,
    pub units: Vec<Placement>,
    pub forge: Forge,
    pub runes: Vec<RunePlacement>,
    pub resonance: Option<ResonanceId>,
    /// Each unit's state when the battle starts, in the order of `units`:
    /// empty for a board whose units all start fresh (nearly every board;
    /// a boss board grown by its round carries one, 200.1d).
    pub states: Vec<InitialState>,
}

/// Forge Core modifiers a player's board carries into battle (200.3a, 200.3d).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Forge {
    /// Added to every Crush the side applies (800.12g).
    pub crush_bonus: i32,
    /// Taken off every Burn and Venom tick the side's units take (900.11d).
    pub tick_reduction: i32,
}

/// The two sides of a fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Left = 0,
    Right = 1,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Right => "right",
        }
    }
}

/// Declares [`InitialState`] with a field for each count a battle may
/// start with and each carried timed status, between the fields written
/// here.
macro_rules! initial_state {
    (
        { $($before:tt)* } { $($after:tt)* }
        state_stacks: [ $( $(#[$sdoc:meta])* $S:ident $skey:ident $slabel:literal $sunit:literal $sticks:tt )* ]
        battle_stacks: [ $($battle_stacks:tt)* ]
        carried: [ $( $(#[$cdoc:meta])* $C:ident $ckey:ident $clabel:literal { $($ctraits:tt)* } )* ]
        in_battle: [ $($battle:tt)* ]
    ) => {
        /// State set on a unit before the battle starts; a field left `None`
        /// keeps what placement gave the unit.
        #[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
        pub struct InitialState {
            $($before)*
            $( #[doc = concat!($slabel, " ", $sunit, ".")] pub $skey: Option<i32>, )*
            $( #[doc = concat!($clabel, " left, in milliseconds.")] pub $ckey: Option<i32>, )*
            $($after)*
        }

        impl InitialState {
            /// The count `s` the battle starts with, if set.
            pub fn stack(&self, s: Stack) -> Option<i32> {
                match s {
                    $( Stack::$S => self.$skey, )*
                    _ => None,
                }
            }

            /// The time left of carried status `s`, if set.
            pub fn timer(&self, s: TimedStatus) -> Option<i32> {
                match s {
                    $( TimedStatus::$C => self.$ckey, )*
                    _ => None,
                }
            }

            /// Sets the time left of carried status `s`; a status that only
            /// lives within a battle is never set.
            pub fn set_timer(&mut self, s: TimedStatus, ms: Option<i32>) {
                match s {
                    $( TimedStatus::$C => self.$ckey = ms, )*
                    _ => {}
                }
            }
        }
    };
}

/// The counts, then the timed statuses, handed to the macro named first.
macro_rules! with_unit_state {
    ($then:ident $($pass:tt)*) => {
        crate::stacks::stacks!(then_timed_statuses $then $($pass)*);
    };
}

macro_rules! then_timed_statuses {
    ($then:ident $($rest:tt)*) => {
        crate::statuses::timed_statuses!($then $($rest)*);
    };
}

with_unit_state!(initial_state {
    pub vitality: Option<i32>,
    pub armor_bonus: Option<i32>,
    pub power_bonus: Option<i32>,
    pub focus_bonus: Option<i32>,
    pub speed_bonus: Option<i32>,
} {
    pub charge: Option<i32>,
    pub relentless: Option<bool>,
    pub dormant: Option<bool>,
    /// Quest progress going into the battle (800.54c).
    pub quest: Option<i32>,
    /// The named counter going into the battle (200.3b).
    pub counter: Option<i32>,
});
