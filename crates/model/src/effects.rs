//! What a clause does, declared once: one row per effect naming its file
//! name, the keyword it belongs to, whether it takes an amount and a
//! duration, how its card text reads and the engine's handler.
//!
//! [`effects!`] is the one list. [`Effect`] and its questions (the keyword,
//! `needs_amount`, `takes_duration`, `needs_duration`, the card text) are
//! generated from it here, and the engine's `apply_effect` from it in
//! `crates/engine/src/activation.rs`: a new effect is a row and its handler.

use crate::statuses::TimedStatus;

/// Calls the macro named first with every effect, one row each:
/// `Name = "file name" { keyword, amount, duration, text, handler }`.
/// Tokens after the macro name are handed on first, untouched.
///
/// - `keyword`: the rule-book keyword a player looks it up by (section
///   800), `status` for the label of the timed status it applies, or
///   `none` for the plain effects every card may use.
/// - `amount`: `needed` or `none`.
/// - `duration`: `none`, `optional` (a clause may name one) or `needed`.
/// - `text`: how the card text reads it ([`EffectText`]).
/// - `handler`: how the engine resolves it on one recipient: `damage`, an
///   ability damage instance; `elsewhere`, resolved once for every enemy
///   or for the owner before the recipients are walked; `timed`, the
///   timed status as its row says; `stat(S)`, a gain of stat `S`;
///   `source_target(f)`, `source_target_amount(f)` and
///   `target_amount_source(f)`, the engine method `f` with those
///   arguments; `source_target_amount_and(f, x)`, with `x` after them.
#[macro_export]
macro_rules! effects {
    ($then:ident $($pass:tt)*) => {
        $then! {
            $($pass)*
            /// Damage. On the activation's target in the activation lane it is
            /// bonus damage joining the base hit (900.7a); elsewhere a separate
            /// instance per unit (900.7d).
            Damage = "damage" { keyword: none, amount: needed, duration: none, text: Damage, handler: damage }
            /// Divides the amount across all enemies by Focus (800.2).
            Aoe = "aoe" {
                keyword: "AoE", amount: needed, duration: none,
                text: Template("AoE {a}, split across every enemy by Focus"), handler: elsewhere
            }
            /// The amount to each enemy in two split hits (800.72).
            Tremor = "tremor" {
                keyword: "Tremor", amount: needed, duration: none,
                text: Template("Tremor {a} to every enemy"), handler: elsewhere
            }
            Burn = "burn" {
                keyword: "Burn", amount: needed, duration: none,
                text: Named, handler: source_target_amount(apply_burn)
            }
            Venom = "venom" {
                keyword: "Venom", amount: needed, duration: none,
                text: Named, handler: source_target_amount(apply_venom)
            }
            Shield = "shield" {
                keyword: "Shield", amount: needed, duration: none,
                text: Named, handler: target_amount_source(gain_shield)
            }
            Heal = "heal" {
                keyword: none, amount: needed, duration: none,
                text: Template("heal {a}"), handler: target_amount_source(recover)
            }
            /// A new Hallow instance: heals twice per second for its current
            /// amount, which then decays by 50-75% (800.29a).
            Hallow = "hallow" {
                keyword: "Hallow", amount: needed, duration: none,
                text: Named, handler: source_target_amount(apply_hallow)
            }
            /// Adds to the unit's Roost total, healed once per second for the
            /// rest of the battle (800.59a, 800.59b).
            Roost = "roost" {
                keyword: "Roost", amount: needed, duration: none,
                text: Named, handler: source_target_amount(gain_roost)
            }
            Maim = "maim" {
                keyword: "Maim", amount: needed, duration: none,
                text: Named, handler: source_target_amount(apply_maim)
            }
            Cull = "cull" { keyword: "Cull", amount: none, duration: none, text: Named, handler: source_target(try_cull) }
            Crush = "crush" {
                keyword: "Crush", amount: needed, duration: none,
                text: Named, handler: source_target_amount(apply_crush)
            }
            Smash = "smash" { keyword: status, amount: none, duration: needed, text: Named, handler: timed }
            Stun = "stun" { keyword: status, amount: none, duration: needed, text: Named, handler: timed }
            Freeze = "freeze" { keyword: status, amount: none, duration: optional, text: Named, handler: timed }
            /// Halves effective Power for 3 s (800.3a).
            Blind = "blind" { keyword: status, amount: none, duration: optional, text: Named, handler: timed }
            Prismbreak = "prismbreak" { keyword: status, amount: none, duration: optional, text: Named, handler: timed }
            Entrap = "entrap" { keyword: status, amount: none, duration: optional, text: Named, handler: timed }
            Insurance = "insurance" {
                keyword: "Insurance", amount: needed, duration: none,
                text: Named, handler: source_target_amount_and(grant_insurance, false)
            }
            SubrogatedInsurance = "subrogated_insurance" {
                keyword: "Insurance", amount: needed, duration: none,
                text: NamedAs("Subrogated Insurance"), handler: source_target_amount_and(grant_insurance, true)
            }
            GainArmor = "gain_armor" { keyword: none, amount: needed, duration: none, text: Gain("Armor"), handler: stat(Armor) }
            GainPower = "gain_power" { keyword: none, amount: needed, duration: none, text: Gain("Power"), handler: stat(Power) }
            GainSpeed = "gain_speed" { keyword: none, amount: needed, duration: none, text: Gain("Speed"), handler: stat(Speed) }
            GainFocus = "gain_focus" { keyword: none, amount: needed, duration: none, text: Gain("Focus"), handler: stat(Focus) }
            /// Dread stacks: -1 Power, -0.5 Speed, -1 Armor each (800.17a).
            Dread = "dread" {
                keyword: "Dread", amount: needed, duration: none,
                text: Named, handler: source_target_amount(apply_dread)
            }
            /// Moves up to the amount of Dread from allies to enemies (800.30).
            Harvest = "harvest" {
                keyword: "Harvest", amount: needed, duration: none,
                text: Template("Harvest {a} Dread from allies onto every enemy"), handler: elsewhere
            }
            /// The target loses Armor and the source gains it (800.57a).
            Repossess = "repossess" {
                keyword: "Repossess", amount: needed, duration: none,
                text: Named, handler: source_target_amount(repossess)
            }
            /// Every enemy's Power reduced (800.50a).
            PiercingRoar = "piercing_roar" {
                keyword: "Piercing Roar", amount: needed, duration: none,
                text: Template("Piercing Roar {a} on every enemy"), handler: elsewhere
            }
            /// Every enemy's Speed reduced (800.11a).
            CripplingScream = "crippling_scream" {
                keyword: "Crippling Scream", amount: needed, duration: none,
                text: Template("Crippling Scream {a} on every enemy"), handler: elsewhere
            }
            /// Relentless for the rest of the battle, or for `duration_ms` when
            /// the clause names one (800.56g).
            GrantRelentless = "grant_relentless" {
                keyword: status, amount: none, duration: optional, text: Named, handler: timed
            }
            /// Restores a Tool's Durability, even from 0 (800.18e, 900.34d).
            Repair = "repair" {
                keyword: "Durability", amount: needed, duration: none,
                text: Template("repair {a} Durability"), handler: source_target_amount(repair)
            }
            /// Removes a Frozen target's Freeze; later clauses of the same
            /// resolution can scale off the seconds removed (800.62a, 800.62b).
            Shatter = "shatter" { keyword: "Shatter", amount: none, duration: none, text: Named, handler: source_target(shatter) }
            /// Kindled stacks: +2 Power and +1.5 Speed each, for the battle
            /// (800.39a, 800.39b).
            Kindle = "kindle" {
                keyword: "Kindled", amount: needed, duration: none,
                text: Named, handler: source_target_amount(kindle)
            }
            /// Dormant for `duration_ms`, with no wake condition (800.16i).
            Dormant = "dormant" { keyword: status, amount: none, duration: needed, text: Named, handler: timed }
            /// Exchanges the recipient's position with a viable adjacent unit
            /// of its own side (800.14a): with `scope = "self"` the rule book's
            /// Displace Ally, on an enemy target its Displace Enemy.
            Displace = "displace" {
                keyword: "Displace", amount: none, duration: none, text: Named, handler: source_target(displace)
            }
            /// Thaws up to 3 s of a Frozen recipient's Freeze; otherwise forces
            /// it to activate now, its charge cycle untouched (800.64a, 800.64b).
            Shock = "shock" { keyword: "Shock", amount: none, duration: none, text: Named, handler: source_target(shock) }
            /// Haywire stacks, at most 5: the recipient's next activation ends
            /// with a stack spent and a 3 s Stun (800.31a, 800.31b).
            Haywire = "haywire" {
                keyword: "Haywire", amount: needed, duration: none,
                text: Named, handler: source_target_amount(apply_haywire)
            }
            /// Overclock stacks: +2 Power, +1 Armor, +4 Speed each, risking a
            /// blowout at the close of the holder's own activation (800.45a).
            Overclock = "overclock" {
                keyword: "Overclock", amount: needed, duration: none,
                text: Named, handler: source_target_amount(apply_overclock)
            }
            /// Feral stacks, at most 10: each a 10% chance that an activation
            /// misfires at a random unit, ally or enemy (800.23a).
            Feral = "feral" {
                keyword: "Feral", amount: needed, duration: none,
                text: Named, handler: source_target_amount(apply_feral)
            }
            /// Rabid for the rest of the battle (800.55e).
            GrantRabid = "grant_rabid" {
                keyword: "Rabid", amount: none, duration: none, text: Named, handler: source_target(grant_rabid)
            }
            /// Everlasting for the rest of the battle (800.20d).
            GrantEverlasting = "grant_everlasting" {
                keyword: "Everlasting", amount: none, duration: none,
                text: Named, handler: source_target(grant_everlasting)
            }
            /// Relentless suppressed for the rest of the battle: the unit is
            /// treated as not having it, and later grants are refused (800.56g).
            SuppressRelentless = "suppress_relentless" {
                keyword: "Relentless", amount: none, duration: none,
                text: Template("loses Relentless"), handler: source_target(suppress_relentless)
            }
            /// Interest stacks: a debt with no timer, paid whole at the start of
            /// the debtor's next activation, 1 Vitality, Power, Speed or Armor
            /// a stack at even odds (800.38a, 800.38b).
            Interest = "interest" {
                keyword: "Interest", amount: needed, duration: none,
                text: Named, handler: source_target_amount(apply_interest)
            }
            /// Consecrate stacks: +1 Power to each adjacent ally per stack, an
            /// aura read from the board (800.10a, 800.10b).
            Consecrate = "consecrate" {
                keyword: "Consecrate", amount: needed, duration: none,
                text: Named, handler: source_target_amount(consecrate)
            }
            /// Fires the recipient's `initiative` clauses now, on its own target
            /// and with its own stats, if they have not fired yet (800.36e).
            PushInitiative = "push_initiative" {
                keyword: "Initiative", amount: none, duration: none,
                text: Template("its Initiative now"), handler: source_target(push_initiative)
            }
            /// An additive bonus to every Roost tick of the recipient, for the
            /// battle: added to the summed Roost before any percentage (800.59d).
            RoostBonus = "roost_bonus" {
                keyword: "Roost", amount: needed, duration: none,
                text: Template("+{a} to each Roost tick"),
                handler: source_target_amount_and(gain_roost_bonus, RoostBonus::Additive)
            }
            /// A percentage bonus to every Roost tick of the recipient, for the
            /// battle: on top of the sum and the additive bonuses, before the
            /// clamp (800.59d).
            RoostPercent = "roost_percent" {
                keyword: "Roost", amount: needed, duration: none,
                text: Template("+{a}% to each Roost tick"),
                handler: source_target_amount_and(gain_roost_bonus, RoostBonus::Percent)
            }
            /// Dividend for the unit's owner, from now for the match (800.15a,
            /// 800.15b): "per dividend" amounts read it at once, and the match
            /// banks it with what Hubs settle.
            GainDividend = "gain_dividend" {
                keyword: "Dividend", amount: needed, duration: none,
                text: Template("+{a} Dividend for its owner"), handler: elsewhere
            }
        }
    };
}
pub use crate::effects;

/// How a clause's effect reads in its card text, before its scope and
/// conditions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EffectText {
    /// Its keyword, with its amount when it takes one: `Burn 3`, `Stun`.
    Named,
    /// Another name, with its amount: `Subrogated Insurance 4`.
    NamedAs(&'static str),
    /// A sentence in which `{a}` is the amount: `heal {a}`.
    Template(&'static str),
    /// `9 damage`, `5 damage per burning enemy`, `damage equal to 75% power`.
    Damage,
    /// A stat gain: `+4 Power`, `-2 Armor`, `+1 Speed per adjacent ally`.
    Gain(&'static str),
}

macro_rules! declare_effect {
    ($(
        $(#[$doc:meta])* $V:ident = $name:literal {
            keyword: $kw:tt, amount: $amount:ident, duration: $duration:ident,
            text: $text:expr, handler: $($handler:tt)*
        }
    )*) => {
        crate::ability::named_enum! {
            /// What a clause does; its row in [`effects!`] says what it is.
            Effect, "effect" { $( $(#[$doc])* $V = $name, )* }
        }

        impl Effect {
            /// The rule-book keyword an effect belongs to, as a player looks
            /// it up (section 800): its card text and the card's keywords
            /// both read it. `None` for the plain effects every card may
            /// use (damage, healing, stat gains).
            pub fn keyword(self) -> Option<&'static str> {
                match self { $( Effect::$V => declare_effect!(@keyword self $kw), )* }
            }

            /// Whether a clause must give it an amount.
            pub const fn needs_amount(self) -> bool {
                match self { $( Effect::$V => declare_effect!(@needed $amount), )* }
            }

            /// Whether a clause may name a duration.
            pub const fn takes_duration(self) -> bool {
                match self { $( Effect::$V => !declare_effect!(@none $duration), )* }
            }

            /// Whether a clause must name a duration (800.65f for Smash).
            pub const fn needs_duration(self) -> bool {
                match self { $( Effect::$V => declare_effect!(@needed $duration), )* }
            }

            /// How its card text reads.
            pub const fn text(self) -> EffectText {
                match self { $( Effect::$V => { use EffectText::*; $text } )* }
            }
        }
    };
    (@keyword $e:ident none) => { None };
    (@keyword $e:ident status) => { $e.timed_status().map(|s| s.label()) };
    (@keyword $e:ident $k:literal) => { Some($k) };
    (@needed needed) => { true };
    (@needed $other:ident) => { false };
    (@none none) => { true };
    (@none $other:ident) => { false };
}

effects!(declare_effect);

impl Effect {
    /// Effects that always reach every enemy, whatever the scope says.
    pub fn hits_every_enemy(self) -> bool {
        matches!(
            self,
            Effect::Aoe | Effect::Tremor | Effect::PiercingRoar | Effect::CripplingScream | Effect::Harvest
        )
    }
    /// What an Entrapped unit may still take from a clause authored to pass
    /// Entrap: statuses, buffs, Shield, heals and Displace (800.19d). Damage
    /// never lands on it (800.19a), and Cull destroys rather than applies.
    pub fn reaches_through_entrap(self) -> bool {
        !matches!(self, Effect::Damage | Effect::Aoe | Effect::Tremor | Effect::Cull)
    }
    /// Armor setup, hoisted to the front of the activation (900.2a, 900.2c).
    pub fn is_armor_setup(self) -> bool {
        matches!(self, Effect::Crush | Effect::Smash)
    }
}

/// Each timed status's effect, from the statuses' list (`statuses.rs`).
macro_rules! effect_of_timed_status {
    (
        carried: [ $( $(#[$cdoc:meta])* $C:ident $ckey:ident $clabel:literal {
            event: $cev:ident, effect: $ceff:ident, $($ctraits:tt)*
        } )* ]
        in_battle: [ $( $(#[$bdoc:meta])* $B:ident $bkey:ident $blabel:literal {
            event: $bev:ident, effect: $beff:ident, $($btraits:tt)*
        } )* ]
    ) => {
        impl Effect {
            /// The timed status this effect applies, if it applies one.
            pub const fn timed_status(self) -> Option<TimedStatus> {
                match self {
                    $( Effect::$ceff => Some(TimedStatus::$C), )*
                    $( Effect::$beff => Some(TimedStatus::$B), )*
                    _ => None,
                }
            }
        }

        impl TimedStatus {
            /// The effect that applies it.
            pub const fn effect(self) -> Effect {
                match self {
                    $( TimedStatus::$C => Effect::$ceff, )*
                    $( TimedStatus::$B => Effect::$beff, )*
                }
            }
        }
    };
}

crate::statuses::timed_statuses!(effect_of_timed_status);

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows agree with the timed statuses' list: an effect that
    /// applies a timed status takes a duration, no amount, and the
    /// status's label as its keyword; no other effect takes a duration.
    #[test]
    fn a_timed_status_effect_takes_a_duration_and_no_amount() {
        for &e in Effect::ALL {
            if let Some(s) = e.timed_status() {
                assert!(e.takes_duration(), "{e}");
                assert!(!e.needs_amount(), "{e}");
                assert_eq!(e.keyword(), Some(s.label()));
                assert_eq!(s.effect(), e);
            } else {
                assert!(!e.takes_duration(), "{e} names no duration");
                assert!(!e.needs_duration(), "{e}");
            }
        }
    }

    #[test]
    fn every_effect_but_the_plain_ones_belongs_to_a_keyword() {
        // Damage, healing and stat gains are every card's; every other
        // effect is a keyword of section 800, which the card text and the
        // card's keyword list both name.
        let plain = [
            Effect::Damage,
            Effect::Heal,
            Effect::GainArmor,
            Effect::GainPower,
            Effect::GainSpeed,
            Effect::GainFocus,
        ];
        for &e in Effect::ALL {
            assert_eq!(e.keyword().is_none(), plain.contains(&e), "{}", e.name());
        }
        for &s in TimedStatus::ALL {
            assert_eq!(s.effect().keyword(), Some(s.label()));
            assert_eq!(s.effect().timed_status(), Some(s));
            assert!(s.effect().takes_duration() && !s.effect().needs_amount());
        }
    }
}
