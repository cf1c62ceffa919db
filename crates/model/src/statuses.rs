//! The timed statuses a unit can hold, declared once.
//!
//! [`timed_statuses!`] is the one list. Every place that handles "each
//! timed status" is generated from it or reads [`TimedStatus`]: the
//! engine's timer columns, the clock's countdown and pause, the invariant
//! checks, "has a negative status" (800.17e), how an application stacks,
//! the starting state a scenario or a board sets
//! (`InitialState` and the file's `state` keys), the scenarios'
//! readable fields, the fight page's chips and the log's sentence.
//! `docs/adding-a-keyword.md` walks through adding one.

use crate::settings::Rules;

// The effect that applies each status is generated beside `Effect`
// (`Effect::timed_status`), so this list stays below the abilities.

/// Calls the macro named first with every timed status, one row each, in
/// two groups: `carried` (a fight may start with them, set by a board or a
/// scenario's `state`) and `in_battle` (they begin and end inside one
/// battle). A row: `Name column_ms "Label" { event: EventKind, effect:
/// Effect, negative: bool, paused_by_prismbreak: bool, applied: (...) }`.
/// Tokens after the macro name are handed on first, untouched.
///
/// `applied` says how an application adds time, for [`TimedStatus::applying`]:
/// `(replaces, relentless_blocks, gate, rule)` sets the authored time;
/// `(adds section, relentless_blocks, gate, rule, boss_immune)` adds the
/// authored or the section's `duration_ms` to a unit without the status
/// and the section's `reapply_ms` to one that has it; `(own)` is a rule of
/// its own, written in the engine.
#[macro_export]
macro_rules! timed_statuses {
    ($then:ident $($pass:tt)*) => {
        $then! {
            $($pass)*
            carried: [
                /// Cannot charge or activate; a new Stun replaces the time
                /// left (800.68a, 800.68c).
                Stun stun_ms "Stun" {
                    event: Stunned, effect: Stun, negative: true, paused_by_prismbreak: false,
                    applied: (replaces, true, "800.68d", "800.68a"),
                }
                /// Charges at a fraction of the rate (800.27a); each
                /// reapplication adds a flat 4 s (800.27b).
                Freeze freeze_ms "Freeze" {
                    event: Frozen, effect: Freeze, negative: true, paused_by_prismbreak: true,
                    applied: (adds freeze, true, "800.27f", "800.27b", None),
                }
                /// Power lowered (800.3a); each reapplication adds a flat
                /// 2 s (800.3c); a boss is never Blinded (800.3e).
                Blind blind_ms "Blind" {
                    event: Blinded, effect: Blind, negative: true, paused_by_prismbreak: true,
                    applied: (adds blind, true, "800.3f", "800.3c", Some("800.3e")),
                }
                /// Out of the fight for its time: neither acts nor is
                /// targeted (800.19a); a per-tier ladder may set the time.
                Entrap entrap_ms "Entrap" {
                    event: Entrapped, effect: Entrap, negative: true, paused_by_prismbreak: false,
                    applied: (own),
                }
                /// Ticks hurt more and Freeze and Blind pause (800.52a,
                /// 800.27c, 800.3d); reapplying adds 3 s (800.52c).
                Prismbreak prismbreak_ms "Prismbreak" {
                    event: Prismbroken, effect: Prismbreak, negative: true, paused_by_prismbreak: false,
                    applied: (adds prismbreak, true, "800.52d", "800.52c", None),
                }
            ]
            in_battle: [
                /// Fights at a lower tier until it ends (800.65a).
                Smash smash_ms "Smash" {
                    event: SmashApplied, effect: Smash, negative: true, paused_by_prismbreak: false,
                    applied: (own),
                }
                /// A timed Dormant: wakes when its time is up (800.16i).
                Dormant dormant_ms "Dormant" {
                    event: DormantApplied, effect: Dormant, negative: false, paused_by_prismbreak: false,
                    applied: (own),
                }
                /// Relentless for a time (800.56g).
                Relentless relentless_ms "Relentless" {
                    event: RelentlessGranted, effect: GrantRelentless, negative: false, paused_by_prismbreak: false,
                    applied: (own),
                }
            ]
        }
    };
}
pub use crate::timed_statuses;

/// How an application of a stacking or replacing status adds time, from
/// its row and the rule book's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Applying {
    /// Time given to a unit without the status when the card names none.
    pub duration_ms: i32,
    /// Time a reapplication adds whatever the card named; `None`: each
    /// application replaces the time left with the authored time.
    pub reapply_ms: Option<i32>,
    /// Relentless refuses it (800.56b).
    pub relentless_blocks: bool,
    /// The rule a refusal cites.
    pub gate: &'static str,
    /// The rule the application's event cites.
    pub rule: &'static str,
    /// A boss refuses it, citing this rule.
    pub boss_immune: Option<&'static str>,
}

macro_rules! declare_timed_status {
    (
        carried: [ $( $(#[$cdoc:meta])* $C:ident $ckey:ident $clabel:literal {
            event: $cev:ident, effect: $ceff:ident, negative: $cneg:literal,
            paused_by_prismbreak: $cpause:literal, applied: $capp:tt,
        } )* ]
        in_battle: [ $( $(#[$bdoc:meta])* $B:ident $bkey:ident $blabel:literal {
            event: $bev:ident, effect: $beff:ident, negative: $bneg:literal,
            paused_by_prismbreak: $bpause:literal, applied: $bapp:tt,
        } )* ]
    ) => {
        /// A timed status; its row in [`timed_statuses!`] says what it does.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum TimedStatus { $( $(#[$cdoc])* $C, )* $( $(#[$bdoc])* $B, )* }

        impl TimedStatus {
            /// Every timed status, in the list's order.
            pub const ALL: &'static [TimedStatus] = &[ $( TimedStatus::$C, )* $( TimedStatus::$B, )* ];
            /// The statuses a fight may start with.
            pub const CARRIED: &'static [TimedStatus] = &[ $( TimedStatus::$C, )* ];

            /// The status as the rule book names it.
            pub const fn label(self) -> &'static str {
                match self { $( TimedStatus::$C => $clabel, )* $( TimedStatus::$B => $blabel, )* }
            }

            /// Its column and its key in a `state` table: the time left, in ms.
            pub const fn key(self) -> &'static str {
                match self {
                    $( TimedStatus::$C => stringify!($ckey), )*
                    $( TimedStatus::$B => stringify!($bkey), )*
                }
            }

            /// A negative status (800.17e: Dread's "any negative status").
            pub const fn negative(self) -> bool {
                match self { $( TimedStatus::$C => $cneg, )* $( TimedStatus::$B => $bneg, )* }
            }

            /// Its time stands still while the unit is Prismbroken (800.27c, 800.3d).
            pub const fn paused_by_prismbreak(self) -> bool {
                match self { $( TimedStatus::$C => $cpause, )* $( TimedStatus::$B => $bpause, )* }
            }

            /// How an application adds time; `None` for a status with a
            /// rule of its own.
            pub fn applying(self, rules: &Rules) -> Option<Applying> {
                match self {
                    $( TimedStatus::$C => declare_timed_status!(@applying rules $capp), )*
                    $( TimedStatus::$B => declare_timed_status!(@applying rules $bapp), )*
                }
            }

            /// The rule book's numbers an application reads, as
            /// `(section.key, value)`, each of which must be positive.
            pub fn settings(rules: &Rules) -> Vec<(&'static str, i32)> {
                [
                    $( declare_timed_status!(@settings rules $capp), )*
                    $( declare_timed_status!(@settings rules $bapp), )*
                ]
                .into_iter()
                .flatten()
                .flatten()
                .collect()
            }
        }
    };
    (@applying $rules:ident (own)) => { None };
    (@applying $rules:ident (replaces, $blocks:literal, $gate:literal, $rule:literal)) => {
        Some(Applying {
            duration_ms: 0,
            reapply_ms: None,
            relentless_blocks: $blocks,
            gate: $gate,
            rule: $rule,
            boss_immune: None,
        })
    };
    (@applying $rules:ident (adds $section:ident, $blocks:literal, $gate:literal, $rule:literal, $boss:expr)) => {
        Some(Applying {
            duration_ms: $rules.$section.duration_ms,
            reapply_ms: Some($rules.$section.reapply_ms),
            relentless_blocks: $blocks,
            gate: $gate,
            rule: $rule,
            boss_immune: $boss,
        })
    };
    (@settings $rules:ident (adds $section:ident, $($rest:tt)*)) => {
        Some([
            (concat!(stringify!($section), ".duration_ms"), $rules.$section.duration_ms),
            (concat!(stringify!($section), ".reapply_ms"), $rules.$section.reapply_ms),
        ])
    };
    (@settings $rules:ident $other:tt) => {
        None
    };
}

timed_statuses!(declare_timed_status);

impl TimedStatus {
    /// The status a `state` key or a scenario field names.
    pub fn from_key(key: &str) -> Option<TimedStatus> {
        TimedStatus::ALL.iter().copied().find(|s| s.key() == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_labels_are_each_named_once() {
        for (n, a) in TimedStatus::ALL.iter().enumerate() {
            for b in &TimedStatus::ALL[n + 1..] {
                assert_ne!(a.key(), b.key());
                assert_ne!(a.label(), b.label());
            }
            assert!(a.key().ends_with("_ms"), "{} counts milliseconds", a.key());
            assert_eq!(TimedStatus::from_key(a.key()), Some(*a));
        }
        assert_eq!(TimedStatus::from_key("blind"), None);
    }
}
