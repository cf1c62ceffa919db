//! The TOML shapes of card, board and scenario files, as serde types.
//!
//! Every struct denies unknown keys, and every name a designer types (effects,
//! scopes, lanes, conditions, keywords, triggers) is an enum, so a typo is a
//! load error that names the key and the nearest valid name.

use serde::Deserialize;
use serde::de::{self, Deserializer};
use toml::Spanned;

use gridsim_model::ability::{
    Amount, AmountVisitor, CardKind, Condition, Footprint, KeywordName, Lane, PackageEvent, PackageTiming, RuneBoard,
    RuneEffect, Scope, StatName, Trigger,
};
use gridsim_model::effects::Effect;

/// A file of cards: `[[card]]` tables.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardFile {
    #[serde(default)]
    pub card: Vec<CardDef>,
    #[serde(default)]
    pub rune: Vec<RuneDef>,
    #[serde(default)]
    pub resonance: Vec<ResonanceDef>,
}

/// A rune as a designer writes it: lines, each with one amount per tier.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RuneDef {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    #[serde(default)]
    pub name: Option<String>,
    /// Carried by a card itself (a boss's signature rune), never placed on
    /// a rune board.
    #[serde(default)]
    pub innate_only: bool,
    #[schemars(with = "Vec<RuneLineDef>")]
    pub effects: Spanned<Vec<RuneLineDef>>,
}

#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RuneLineDef {
    pub effect: RuneEffect,
    /// One amount per tier, tier 1 first.
    pub amount: Vec<i32>,
}

/// A resonance as a designer writes it: lines scaled by the level.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResonanceDef {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[schemars(with = "Vec<ResonanceLineDef>")]
    pub effects: Spanned<Vec<ResonanceLineDef>>,
}

#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResonanceLineDef {
    pub effect: RuneEffect,
    /// Granted per resonance level (800.58e: Overpower's 3 Power).
    pub per_level: i32,
    /// Lasts the battle's first this many milliseconds; 0 or absent for
    /// the whole battle (Brace Step's 20 s, 800.58e).
    #[serde(default)]
    pub duration_ms: i32,
}

/// One card as a designer writes it.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardDef {
    /// Required in card files; a scenario's inline card takes the unit's name.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub id: Option<Spanned<String>>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default = "combat")]
    pub kind: CardKind,
    #[serde(default = "standard")]
    pub footprint: Footprint,
    #[serde(default)]
    pub tribe: Option<String>,
    #[serde(default)]
    #[schemars(with = "Option<Vec<i32>>")]
    pub vitality: Option<Spanned<Vec<i32>>>,
    #[serde(default)]
    #[schemars(with = "Option<Vec<i32>>")]
    pub power: Option<Spanned<Vec<i32>>>,
    #[serde(default)]
    #[schemars(with = "Option<Vec<i32>>")]
    pub speed: Option<Spanned<Vec<i32>>>,
    #[serde(default)]
    #[schemars(with = "Option<Vec<i32>>")]
    pub armor: Option<Spanned<Vec<i32>>>,
    #[serde(default)]
    #[schemars(with = "Option<Vec<i32>>")]
    pub focus: Option<Spanned<Vec<i32>>>,
    /// A Tool's stat in place of the five combat stats (800.18a).
    #[serde(default)]
    #[schemars(with = "Option<Vec<i32>>")]
    pub durability: Option<Spanned<Vec<i32>>>,
    /// A Hub's stat in place of the five combat stats (800.61a).
    #[serde(default)]
    #[schemars(with = "Option<Vec<i32>>")]
    pub settle: Option<Spanned<Vec<i32>>>,
    #[serde(default)]
    #[schemars(with = "Vec<KeywordDef>")]
    pub keywords: Vec<Spanned<KeywordDef>>,
    /// Whether the activation ends in the base hit of effective Power (300.3).
    #[serde(default)]
    pub base_hit: Option<bool>,
    /// Vitality paid before the hit by the first unit in reading order (800.4).
    #[serde(default)]
    pub bloodletting: Option<Amount>,
    #[serde(default)]
    #[schemars(with = "Vec<ClauseDef>")]
    pub ability: Vec<Spanned<ClauseDef>>,
    #[serde(default)]
    #[schemars(with = "Vec<PassiveDef>")]
    pub passive: Vec<Spanned<PassiveDef>>,
    /// A Tool's effect packages (800.71c).
    #[serde(default)]
    #[schemars(with = "Vec<PackageDef>")]
    pub package: Vec<Spanned<PackageDef>>,
    /// How long this card's Entrap holds, per tier, overriding the applied
    /// duration (800.19e).
    #[serde(default)]
    #[schemars(with = "Option<Vec<i32>>")]
    pub entrap_ms: Option<Spanned<Vec<i32>>>,
    /// A wake condition: the card starts every battle Dormant (800.16f).
    #[serde(default)]
    #[schemars(with = "Option<WakeDef>")]
    pub wake: Option<Spanned<WakeDef>>,
    /// A boss's Stagger meter: qualifying hits that Stun it (800.66b).
    #[serde(default)]
    #[schemars(with = "Option<i32>")]
    pub stagger: Option<Spanned<i32>>,
    /// A boss's phases, in order (800.48).
    #[serde(default)]
    #[schemars(with = "Vec<PhaseDef>")]
    pub phases: Vec<Spanned<PhaseDef>>,
    /// A Quest: progress per owned copy on the listed event, complete at
    /// `count` (800.54a).
    #[serde(default)]
    #[schemars(with = "Option<QuestDef>")]
    pub quest: Option<Spanned<QuestDef>>,
    /// A named counter: the printed X that persists with the unit for the
    /// match and accumulates each battle (200.3b).
    #[serde(default)]
    #[schemars(with = "Option<CounterDef>")]
    pub counter: Option<Spanned<CounterDef>>,
    /// Runes the card carries itself, `"RUNE TIER"` (a boss's signature
    /// runes, such as the boss Reflect rune, 900.26d).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub runes: Vec<Spanned<String>>,
}

/// A card's named counter (200.3b).
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterDef {
    /// The name the card prints, `X` unless it says.
    #[serde(default = "counter_name")]
    pub name: String,
    /// X printed on the card, before any battle.
    #[serde(default)]
    pub start: i32,
    /// The event of its side that adds to it.
    pub on: gridsim_model::ability::QuestEvent,
    /// What each event adds.
    #[serde(default = "one_gain")]
    pub gain: i32,
}

fn counter_name() -> String {
    "X".into()
}

fn one_gain() -> i32 {
    1
}

/// A card's Quest (800.54).
#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QuestDef {
    pub on: gridsim_model::ability::QuestEvent,
    pub count: i32,
}

/// A boss's next phase (800.48a): a Vitality threshold and the loadout that
/// replaces the current one there; what it leaves out, it keeps from the
/// boss card.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PhaseDef {
    /// The phase starts when Vitality falls to this percent of the maximum.
    #[schemars(with = "i32")]
    pub below_percent: Spanned<i32>,
    #[serde(default)]
    pub tribe: Option<String>,
    #[serde(default)]
    #[schemars(with = "Option<Vec<i32>>")]
    pub power: Option<Spanned<Vec<i32>>>,
    #[serde(default)]
    #[schemars(with = "Option<Vec<i32>>")]
    pub speed: Option<Spanned<Vec<i32>>>,
    #[serde(default)]
    #[schemars(with = "Option<Vec<i32>>")]
    pub armor: Option<Spanned<Vec<i32>>>,
    #[serde(default)]
    #[schemars(with = "Option<Vec<i32>>")]
    pub focus: Option<Spanned<Vec<i32>>>,
    #[serde(default)]
    #[schemars(with = "Option<Vec<KeywordDef>>")]
    pub keywords: Option<Vec<Spanned<KeywordDef>>>,
    #[serde(default)]
    pub base_hit: Option<bool>,
    #[serde(default)]
    #[schemars(with = "Option<Vec<ClauseDef>>")]
    pub ability: Option<Vec<Spanned<ClauseDef>>>,
    #[serde(default)]
    #[schemars(with = "Option<Vec<PassiveDef>>")]
    pub passive: Option<Vec<Spanned<PassiveDef>>>,
}

/// When a Dormant card wakes: exactly one condition (800.16f), and what it
/// may turn into as it wakes (800.16h).
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WakeDef {
    /// On waking the unit becomes a card drawn among those that match
    /// (800.16h).
    #[serde(default)]
    pub into: Option<AwakenIntoDef>,
    /// After this much combat time.
    #[serde(default)]
    pub after_ms: Option<i32>,
    /// After this many activations by the unit's side.
    #[serde(default)]
    pub ally_activations: Option<i32>,
    /// After the unit's side has dealt this much Vitality damage.
    #[serde(default)]
    pub ally_damage: Option<i32>,
}

/// The printed filter of an awakening that transforms the unit (800.16h):
/// the combat cards of this tribe and the unit's footprint, at the unit's
/// tier capped by `max_tier`.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AwakenIntoDef {
    pub tribe: String,
    pub max_tier: u8,
}

fn combat() -> CardKind {
    CardKind::Combat
}

fn standard() -> Footprint {
    Footprint::Standard
}

/// One clause of an activation ability.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClauseDef {
    pub effect: Effect,
    #[serde(default)]
    pub amount: Option<AmountDef>,
    #[serde(default)]
    pub scope: Scope,
    /// How many units a count-limited scope picks (900.30e).
    #[serde(default)]
    pub count: Option<u8>,
    #[serde(default)]
    pub when: Option<Condition>,
    #[serde(default)]
    pub lane: Lane,
    #[serde(default)]
    pub duration_ms: Option<i32>,
    /// Resolves at most once per battle; a failed condition does not spend
    /// it (900.6e).
    #[serde(default)]
    pub once: bool,
    /// A Fleeting stat gain: loses a fifth of itself every second (800.25a).
    #[serde(default)]
    pub fleeting: bool,
    /// Applies through Entrap: an Entrapped unit in scope takes it
    /// (800.17d, 800.19d).
    #[serde(default)]
    pub through_entrap: bool,
    /// A Piercing Roar that drains a boss's Power too (800.50c).
    #[serde(default)]
    pub drains_boss: bool,
    /// Gate: this unit must have more of the stat than the compared enemy
    /// (800.46a, 800.46b).
    #[serde(default)]
    pub overmatch: Option<StatName>,
}

/// One passive line: a clause that resolves when its event fires (900.8a).
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PassiveDef {
    pub on: Trigger,
    pub effect: Effect,
    #[serde(default)]
    pub amount: Option<AmountDef>,
    #[serde(default = "self_scope")]
    pub scope: Scope,
    #[serde(default)]
    pub count: Option<u8>,
    #[serde(default)]
    pub when: Option<Condition>,
    #[serde(default)]
    pub duration_ms: Option<i32>,
    #[serde(default)]
    pub once: bool,
    #[serde(default)]
    pub fleeting: bool,
    #[serde(default)]
    pub through_entrap: bool,
    #[serde(default)]
    pub drains_boss: bool,
    #[serde(default)]
    pub overmatch: Option<StatName>,
}

/// A Tool's effect package: one event, its gates, and the effects it
/// resolves (800.71c-800.71e).
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PackageDef {
    pub on: PackageEvent,
    /// Required for `ally_activated`: which of the three passes (800.71d).
    #[serde(default)]
    pub timing: Option<PackageTiming>,
    /// Requires the Tool to be adjacent to the unit the event is about
    /// (800.71e); defaults to true where that unit is an ally.
    #[serde(default)]
    pub adjacent: Option<bool>,
    /// Percent chance, rolled before the package resolves (800.71e).
    #[serde(default)]
    pub chance: Option<i32>,
    /// Gate: the triggering ally must have more of this stat than the
    /// compared enemy (800.46a).
    #[serde(default)]
    pub overmatch: Option<StatName>,
    #[schemars(with = "Vec<ClauseDef>")]
    pub effects: Vec<Spanned<ClauseDef>>,
}

fn self_scope() -> Scope {
    Scope::SelfUnit
}

/// An innate keyword: a bare name (`"relentless"`) or a name and an amount
/// (`"thorns 6"`, `"insurance 1 x tier"`).
#[derive(Debug, Clone)]
pub struct KeywordDef {
    pub name: KeywordName,
    pub amount: Option<Amount>,
}

impl schemars::JsonSchema for KeywordDef {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "KeywordDef".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<String> = KeywordName::ALL.iter().map(|k| k.name().to_string()).collect();
        schemars::json_schema!({
            "type": "string",
            "description": "a keyword, alone or with its amount: `relentless`, `thorns 6`, `insurance 1 x tier`",
            "pattern": format!("^\\s*({})(\\s.*)?$", names.join("|")),
        })
    }
}

impl<'de> Deserialize<'de> for KeywordDef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        KeywordDef::parse(&text).map_err(de::Error::custom)
    }
}

impl KeywordDef {
    pub fn parse(text: &str) -> Result<KeywordDef, KeywordError> {
        let text = text.trim();
        let (word, rest) = match text.find(char::is_whitespace) {
            Some(i) => (&text[..i], text[i..].trim()),
            None => (text, ""),
        };
        let name = KeywordName::from_name(word).ok_or_else(|| KeywordError::Unknown(word.to_string()))?;
        let amount = if rest.is_empty() {
            None
        } else {
            Some(Amount::parse(rest).map_err(KeywordError::Amount)?)
        };
        match (name.takes_amount(), amount.is_some()) {
            (true, false) => Err(KeywordError::NeedsAmount(name)),
            (false, true) => Err(KeywordError::TakesNoAmount(name)),
            _ => Ok(KeywordDef { name, amount }),
        }
    }
}

/// Why a keyword as written cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeywordError {
    /// Not one of [`KeywordName::ALL`].
    Unknown(String),
    /// Its amount cannot be read.
    Amount(gridsim_model::ability::AmountError),
    NeedsAmount(KeywordName),
    TakesNoAmount(KeywordName),
}

impl std::fmt::Display for KeywordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeywordError::Unknown(word) => {
                let names: Vec<&str> = KeywordName::ALL.iter().map(|k| k.name()).collect();
                write!(
                    f,
                    "unknown keyword `{word}`; expected one of {}{}",
                    gridsim_core::diagnostics::backticked(&names),
                    gridsim_core::diagnostics::suggestion(word, &names)
                )
            }
            KeywordError::Amount(e) => e.fmt(f),
            KeywordError::NeedsAmount(name) => write!(
                f,
                "keyword `{}` needs an amount, for example `{} 5`",
                name.name(),
                name.name()
            ),
            KeywordError::TakesNoAmount(name) => write!(f, "keyword `{}` takes no amount", name.name()),
        }
    }
}

impl std::error::Error for KeywordError {}

/// A clause's amount as a card file writes it: a whole number or a written
/// form ([`Amount::parse`]), or one whole number per tier (`[9, 13, 16]`),
/// which the loader checks against the card's tiers and stores in the
/// catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AmountDef {
    Amount(Amount),
    Ladder(Vec<i32>),
}

impl AmountDef {
    /// Reads no board state: a whole number, `N x tier`, or one number per
    /// tier.
    pub fn is_fixed(&self) -> bool {
        match self {
            AmountDef::Ladder(_) => true,
            AmountDef::Amount(a) => a.is_fixed(),
        }
    }
}

impl<'de> Deserialize<'de> for AmountDef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> de::Visitor<'de> for V {
            type Value = AmountDef;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an integer, an amount such as \"9 x tier\", \"5 per burning_enemy\", \"75% power\", or one integer per tier such as [9, 13, 16]")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<AmountDef, E> {
                AmountVisitor.visit_i64(v).map(AmountDef::Amount)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<AmountDef, E> {
                AmountVisitor.visit_u64(v).map(AmountDef::Amount)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<AmountDef, E> {
                AmountVisitor.visit_str(v).map(AmountDef::Amount)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<AmountDef, A::Error> {
                let mut out = Vec::new();
                while let Some(n) = seq.next_element::<i64>()? {
                    out.push(i32::try_from(n).map_err(|_| de::Error::custom(format!("amount {n} is out of range")))?);
                }
                Ok(AmountDef::Ladder(out))
            }
        }
        d.deserialize_any(V)
    }
}

impl schemars::JsonSchema for AmountDef {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "AmountDef".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "an integer, an amount such as \"9 x tier\", \"5 per burning_enemy\", \"75% power\", or one integer per tier such as [9, 13, 16]",
            "anyOf": [
                { "type": ["integer", "string"] },
                { "type": "array", "items": { "type": "integer" }, "minItems": 1, "maxItems": 9 },
            ],
        })
    }
}

/// A board file: one side's units.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardFile {
    #[serde(default)]
    pub name: Option<String>,
    /// The player's Forge Cores, which travel with the board (200.3d).
    #[serde(default)]
    pub forge: ForgeDef,
    #[serde(default)]
    pub unit: Vec<BoardUnitDef>,
    /// The side's equipped resonance, by id (800.58a).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub resonance: Option<Spanned<String>>,
    #[serde(default)]
    pub rune: Vec<BoardRuneDef>,
}

/// One rune on a rune board: which rune, its tier, the board and the first
/// of the two cells it takes (900.24a).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardRuneDef {
    #[schemars(with = "String")]
    pub rune: Spanned<String>,
    #[schemars(with = "i64")]
    pub tier: Spanned<i64>,
    #[schemars(with = "RuneBoard")]
    pub board: Spanned<RuneBoard>,
    #[schemars(with = "i64")]
    pub cell: Spanned<i64>,
}

/// One unit placed on a board: which card, its tier, the cell of its
/// top-left corner as `[column, row]`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardUnitDef {
    #[schemars(with = "String")]
    pub card: Spanned<String>,
    #[schemars(with = "i64")]
    pub tier: Spanned<i64>,
    #[schemars(with = "Cell")]
    pub cell: Spanned<Cell>,
    /// Made by combining copies, so it fails Highland (800.32a).
    #[serde(default)]
    pub combined: bool,
    /// The unit's state when the battle starts (a boss's Power and Armor
    /// grown by its round, 200.1d); left out, the unit starts fresh.
    #[serde(default)]
    #[schemars(with = "Option<UnitStateDef>")]
    pub state: Option<Spanned<UnitStateDef>>,
}

/// Declares [`UnitStateDef`] with a key for each carried timed status
/// between the keys written here, and its lowering into `InitialState`.
macro_rules! unit_state_def {
    (
        { $( $(#[$bdoc:meta])* $before:ident : $bty:ty, )* }
        { $( $(#[$adoc:meta])* $after:ident : $aty:ty, )* }
        state_stacks: [ $( $(#[$sdoc:meta])* $S:ident $skey:ident $slabel:literal $sunit:literal $sticks:tt )* ]
        battle_stacks: [ $($battle_stacks:tt)* ]
        carried: [ $( $(#[$cdoc:meta])* $C:ident $ckey:ident $clabel:literal { $($ctraits:tt)* } )* ]
        in_battle: [ $($battle:tt)* ]
    ) => {
        /// A unit's state when the battle starts, in a scenario or on a board (a
        /// boss grown by its round, 200.1d); a key left out keeps what placement
        /// gives.
        #[derive(Debug, Clone, Copy, Default, Deserialize, schemars::JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct UnitStateDef {
            $( $(#[$bdoc])* pub $before: $bty, )*
            $( #[doc = concat!($slabel, " ", $sunit, ".")] pub $skey: Option<i32>, )*
            $( #[doc = concat!($clabel, " left, in milliseconds.")] pub $ckey: Option<i32>, )*
            $( $(#[$adoc])* pub $after: $aty, )*
        }

        impl UnitStateDef {
            /// Each whole-number key given, and whether it is a bonus (which may be
            /// negative) rather than an amount, a stack count or a timer (never).
            pub fn numbers(&self) -> Vec<(&'static str, i32, bool)> {
                let mut all = vec![ $( (stringify!($before), state_number(self.$before), stringify!($before).ends_with("_bonus")), )* ];
                $( all.push((stringify!($skey), self.$skey, false)); )*
                $( all.push((stringify!($ckey), self.$ckey, false)); )*
                all.extend([ $( (stringify!($after), state_number(self.$after), false), )* ]);
                all.into_iter()
                    .filter_map(|(k, v, bonus)| v.map(|v| (k, v, bonus)))
                    .collect()
            }
        }

        impl From<UnitStateDef> for gridsim_model::spec::InitialState {
            fn from(r: UnitStateDef) -> Self {
                gridsim_model::spec::InitialState {
                    $( $before: r.$before, )*
                    $( $skey: r.$skey, )*
                    $( $ckey: r.$ckey, )*
                    $( $after: r.$after, )*
                }
            }
        }
    };
}

/// A key's whole number, if it is one that is given; a yes-or-no key has none.
trait StateNumber {
    fn number(self) -> Option<i32>;
}

impl StateNumber for Option<i32> {
    fn number(self) -> Option<i32> {
        self
    }
}

impl StateNumber for Option<bool> {
    fn number(self) -> Option<i32> {
        None
    }
}

fn state_number(v: impl StateNumber) -> Option<i32> {
    v.number()
}

/// The counts, then the timed statuses, handed to the macro named first.
macro_rules! then_timed_statuses {
    ($then:ident $($rest:tt)*) => {
        gridsim_model::statuses::timed_statuses!($then $($rest)*);
    };
}

gridsim_model::stacks::stacks!(then_timed_statuses unit_state_def {
    /// Current Vitality (at most the maximum).
    vitality: Option<i32>,
    /// Armor on top of the printed ladder (a boss's growth by round, 200.1d).
    armor_bonus: Option<i32>,
    /// Power on top of the printed ladder (a boss's growth by round, 200.1d).
    power_bonus: Option<i32>,
    /// Focus on top of the printed ladder.
    focus_bonus: Option<i32>,
    /// Speed on top of the printed ladder.
    speed_bonus: Option<i32>,
} {
    /// Charge going into the battle.
    charge: Option<i32>,
    /// Relentless.
    relentless: Option<bool>,
    /// Dormant.
    dormant: Option<bool>,
    /// Quest progress going into the battle (800.54c).
    quest: Option<i32>,
    /// The named counter going into the battle (200.3b).
    counter: Option<i32>,
});

/// Forge Core modifiers a side carries into battle.
#[derive(Debug, Clone, Copy, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForgeDef {
    /// Added to every Crush this side applies, before it lands (800.12g).
    #[serde(default)]
    pub crush_bonus: i32,
    /// Taken off every Burn and Venom tick this side's units take, after
    /// Prismbreak and before Shield (800.52a, 900.11d).
    #[serde(default)]
    pub tick_reduction: i32,
}

/// A cell as `[column, row]`: exactly two whole numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell(pub i64, pub i64);

impl schemars::JsonSchema for Cell {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Cell".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "a cell as `[column, row]`",
            "type": "array",
            "items": { "type": "integer" },
            "minItems": 2,
            "maxItems": 2,
        })
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<i64>::deserialize(d)?;
        match v.as_slice() {
            [c, r] => Ok(Cell(*c, *r)),
            _ => Err(de::Error::custom(format!(
                "a cell is `[column, row]`, two whole numbers; found {} numbers",
                v.len()
            ))),
        }
    }
}
