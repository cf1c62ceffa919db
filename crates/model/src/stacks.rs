//! The counts a unit holds, declared once: stacks (Maim, Haywire,
//! Overclock) and points (Shield, Insurance), whole numbers that never go
//! below 0.
//!
//! [`stacks!`] is the one list. Every place that handles "each count" is
//! generated from it or reads [`Stack`]: the engine's column, the invariant
//! that it is never negative, and for the counts a battle may start with
//! the `InitialState` field, the `state` key of boards and scenarios with
//! its schema and range check, and the line of `Engine::set_initial_state`;
//! and for all of them the scenarios' readable field.
//! `docs/adding-a-keyword.md` walks through adding one.

/// Calls the macro named first with every count, one row each, in two
/// groups: `state_stacks` (a battle may start with some, set by a board's
/// or a scenario's `state` key) and `battle_stacks` (gained and lost inside
/// one battle). A row: `Name column "Label" "unit" { ticks }`, the unit
/// (`stacks`, `points`) naming what the `state` key counts; `{ ticks:
/// next_ms_column => tick_function }` makes the count a ticker, resolved
/// on a schedule of its own (the engine's column holding its next tick,
/// and the engine function resolving one: `tickers!`, clock.rs), `{
/// reads: speed }` a count the clock reads through Speed (the charge rate,
/// 300.2), so the engine writes it only through the clock's door
/// (`write_clock_inputs`), `{}` a plain count. Tokens after the macro name
/// are handed on first, untouched.
#[macro_export]
macro_rules! stacks {
    ($then:ident $($pass:tt)*) => {
        $then! {
            $($pass)*
            state_stacks: [
                /// A pool of points in front of Vitality (800.63a).
                Shield shield "Shield" "points" {}
                /// Each point prevents 2 restoration or Shield, then is spent (800.43a, 800.43b).
                Maim maim "Maim" "stacks" {}
                /// A single stack value dealt at each tick (800.8a); a start
                /// with Burn ticks one interval in (800.8b).
                Burn burn "Burn" "stacks" { ticks: burn_next_ms => burn_tick }
                /// Damage at each tick, ignoring Armor (800.73a, 800.73c); a
                /// start with Venom ticks one interval in (800.73a).
                Venom venom "Venom" "stacks" { ticks: venom_next_ms => venom_tick }
                /// Each point prevents up to 10 of one damage instance (800.37a).
                Insurance insurance "Insurance" "points" { reads: speed }
                /// Insurance points that deal back what they absorb (800.37f).
                Subrogated subrogated "Subrogated" "points" { reads: speed }
                /// Haywire stacks (800.31a).
                Haywire haywire "Haywire" "stacks" {}
                /// Overclock stacks (800.45a); no cap of their own (800.45c).
                Overclock overclock "Overclock" "stacks" { reads: speed }
                /// Feral stacks (800.23a).
                Feral feral "Feral" "stacks" {}
            ]
            battle_stacks: [
                /// Dread stacks, until Harvest clears them (800.17a, 800.17b).
                Dread dread "Dread" "stacks" { reads: speed }
                /// Every Roost gained, added up (800.59b).
                Roost roost "Roost" "stacks" { ticks: roost_next_ms => roost_tick }
                /// Kindled stacks (800.39a); no cap (800.39b).
                Kindled kindled "Kindled" "stacks" { reads: speed }
                /// Consecrate stacks (800.10a), projected onto adjacent allies.
                Consecrate consecrate "Consecrate" "stacks" {}
                /// Interest debt in stacks (800.38a).
                Interest interest "Interest" "stacks" {}
                /// Vessels held, each a stored revival (800.49a).
                Vessels vessels "Vessels" "stacks" {}
            ]
        }
    };
}
pub use crate::stacks;

macro_rules! declare_stack {
    (
        state_stacks: [ $( $(#[$sdoc:meta])* $S:ident $skey:ident $slabel:literal $sunit:literal $sticks:tt )* ]
        battle_stacks: [ $( $(#[$bdoc:meta])* $B:ident $bkey:ident $blabel:literal $bunit:literal $bticks:tt )* ]
    ) => {
        /// A count a unit holds; its row in [`stacks!`] says what it is.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Stack { $( $(#[$sdoc])* $S, )* $( $(#[$bdoc])* $B, )* }

        impl Stack {
            /// Every count, in the list's order.
            pub const ALL: &'static [Stack] = &[ $( Stack::$S, )* $( Stack::$B, )* ];
            /// The counts a battle may start with.
            pub const STATE: &'static [Stack] = &[ $( Stack::$S, )* ];

            /// The count as the rule book names it.
            pub const fn label(self) -> &'static str {
                match self { $( Stack::$S => $slabel, )* $( Stack::$B => $blabel, )* }
            }

            /// Its column, its scenario field and, for a `state` count, its key.
            pub const fn key(self) -> &'static str {
                match self { $( Stack::$S => stringify!($skey), )* $( Stack::$B => stringify!($bkey), )* }
            }
        }
    };
}

stacks!(declare_stack);

impl Stack {
    /// The count a scenario field names.
    pub fn from_key(key: &str) -> Option<Stack> {
        Stack::ALL.iter().copied().find(|s| s.key() == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statuses::TimedStatus;

    #[test]
    fn keys_and_labels_are_each_named_once() {
        for (n, a) in Stack::ALL.iter().enumerate() {
            for b in &Stack::ALL[n + 1..] {
                assert_ne!(a.key(), b.key());
                assert_ne!(a.label(), b.label());
            }
            assert_eq!(Stack::from_key(a.key()), Some(*a));
            assert_eq!(
                TimedStatus::from_key(a.key()),
                None,
                "{} is a count, not a timer",
                a.key()
            );
        }
        assert!(Stack::STATE.iter().all(|s| Stack::ALL.contains(s)));
        assert_eq!(Stack::from_key("shield_ms"), None);
    }
}
