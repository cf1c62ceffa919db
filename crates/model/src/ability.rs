//! The vocabulary of cards: effects, scopes, lanes, conditions, counts,
//! triggers, keywords, kinds and footprints. Shared by the loader (which
//! parses the names) and the engine (which interprets them).

use serde::Deserialize;
use serde::de::{self, Deserializer};

/// Declares a closed set of names a designer may type, with its list of
/// names for error messages and documentation, and a deserializer whose
/// error suggests the nearest valid name.
macro_rules! named_enum {
    ($(#[$meta:meta])* $Name:ident, $what:literal { $( $(#[$vmeta:meta])* $Variant:ident = $text:literal ),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $Name { $( $(#[$vmeta])* $Variant, )* }

        impl $Name {
            pub const ALL: &'static [$Name] = &[ $( $Name::$Variant, )* ];
            pub const WHAT: &'static str = $what;

            pub fn name(self) -> &'static str {
                match self { $( $Name::$Variant => $text, )* }
            }

            pub fn from_name(text: &str) -> Option<$Name> {
                match text { $( $text => Some($Name::$Variant), )* _ => None }
            }
        }

        impl<'de> serde::Deserialize<'de> for $Name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <String as serde::Deserialize>::deserialize(d)?;
                $Name::from_name(&text).ok_or_else(|| {
                    let names: Vec<&str> = $Name::ALL.iter().map(|v| v.name()).collect();
                    <D::Error as serde::de::Error>::custom(format!(
                        "unknown {} `{}`; expected one of {}{}",
                        $what,
                        text,
                        gridsim_core::diagnostics::backticked(&names),
                        gridsim_core::diagnostics::suggestion(&text, &names)
                    ))
                })
            }
        }

        impl std::fmt::Display for $Name {
            fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        /// The names a file may use, for editors (the same list the loader
        /// accepts).
        impl schemars::JsonSchema for $Name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($Name).into()
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                let names: Vec<&str> = $Name::ALL.iter().map(|v| v.name()).collect();
                schemars::json_schema!({ "type": "string", "enum": names, "description": format!("a {}", $what) })
            }
        }
    };
}
pub(crate) use named_enum;

named_enum! {
    /// What kind of object a card is.
    CardKind, "kind" {
        Combat = "combat",
        /// Size-1 Scrip combat unit that may mint Stock (800.47).
        Penny = "penny",
        /// Untargetable Scrip building that never activates (800.33).
        Hub = "hub",
        /// Untargetable Giant object that never activates (800.71).
        Tool = "tool",
        Boss = "boss",
    }
}

impl CardKind {
    /// Tools and Hubs discard every combat interaction (800.71b, 800.33b).
    pub fn is_object(self) -> bool {
        matches!(self, CardKind::Tool | CardKind::Hub)
    }
    /// Prints the five combat stats rather than Durability or Settle.
    pub fn has_combat_stats(self) -> bool {
        !self.is_object()
    }
}

named_enum! {
    /// Footprint size in cells: Scrip 1x1, standard 2x2, Large 3x3 (800.40a),
    /// Huge 4x4 (800.34a).
    Footprint, "footprint" {
        Scrip = "1x1",
        Standard = "2x2",
        Large = "3x3",
        Huge = "4x4",
    }
}

impl Footprint {
    pub fn side(self) -> u8 {
        match self {
            Footprint::Scrip => 1,
            Footprint::Standard => 2,
            Footprint::Large => 3,
            Footprint::Huge => 4,
        }
    }
}

named_enum! {
    /// Which units a clause affects (400.5, reconstructed).
    #[derive(Default)]
    Scope, "scope" {
        /// The activation's target (or, for a passive, the event's other unit).
        #[default]
        Target = "target",
        SelfUnit = "self",
        AllEnemies = "all_enemies",
        AllAllies = "all_allies",
        /// Enemies sharing a footprint edge with the target (900.41a).
        AdjacentToTarget = "adjacent_to_target",
        AdjacentAllies = "adjacent_allies",
        /// Left and right adjacent allies only (800.24).
        FlankAllies = "flank_allies",
        /// A Focus-weighted pick of `count` enemies without repeats (900.30e).
        FocusEnemies = "focus_enemies",
        /// A Focus-weighted pick among Maimed enemies (800.13i).
        FocusMaimedEnemies = "focus_maimed_enemies",
        /// Enemies that are Frozen when the clause resolves (900.2d).
        FrozenEnemies = "frozen_enemies",
        /// The unit an event is about: the activating or damaged ally of a
        /// Tool package, the dying unit of `other_died` (800.71c).
        Subject = "subject",
        /// Allied Tools sharing an edge with the actor, worn out or not: the
        /// way to aim a `repair` (800.18e).
        AdjacentTools = "adjacent_tools",
    }
}

impl Scope {
    pub fn is_count_limited(self) -> bool {
        matches!(self, Scope::FocusEnemies | Scope::FocusMaimedEnemies)
    }
}

named_enum! {
    /// When in the activation a clause resolves (300.3, reconstructed).
    #[derive(Default)]
    Lane, "lane" {
        /// Before the base hit; bonus damage joins the hit (900.7).
        #[default]
        Activation = "activation",
        /// After the base hit and everything it set off (900.1a, 900.1b).
        PostDamage = "post_damage",
        /// Initiative: only on the unit's first activation of the battle,
        /// after armor setup and before the activation lane; bonus damage
        /// joins the hit (800.36a, 900.31b).
        Initiative = "initiative",
    }
}

named_enum! {
    /// A gate checked when the clause resolves, never earlier (900.6a).
    Condition, "condition" {
        /// Exactly full Vitality (800.41a); Lucid clauses resolve after the
        /// ordinary activation effects (800.41b).
        Lucid = "lucid",
        /// Some living targetable enemy below half Vitality, sampled before
        /// the current hit (800.5a, 800.5c).
        Bloodlust = "bloodlust",
        /// The base hit actually landed (900.40c).
        HitLanded = "hit_landed",
        TargetBurning = "target_burning",
        TargetMaimed = "target_maimed",
        TargetFrozen = "target_frozen",
        /// The unit has 3 or more Kindled stacks, checked live (800.35a,
        /// 800.35b).
        Ignited = "ignited",
        /// The target has a negative status: Burn, Venom, Maim, Stun,
        /// Freeze, Blind, Prismbreak, Entrap, Smash, Crush, Haywire, Feral
        /// or Dread (800.17e).
        TargetNegativeStatus = "target_negative_status",
        /// Every non-Tool unit the side started combat with is a distinct
        /// card, none combined, and no unit of the side is at a tier other
        /// than its native one (800.32a-800.32e).
        Highland = "highland",
        /// The acting unit's Quest is complete (800.54b).
        QuestComplete = "quest_complete",
    }
}

named_enum! {
    /// What a "per" amount counts (400.3, reconstructed). Counts read living,
    /// targetable units when the clause resolves (900.5a, 900.5b).
    Count, "count" {
        BurningEnemy = "burning_enemy",
        VenomedEnemy = "venomed_enemy",
        MaimedEnemy = "maimed_enemy",
        LivingEnemy = "living_enemy",
        LivingAlly = "living_ally",
        AdjacentAlly = "adjacent_ally",
        FlankAlly = "flank_ally",
        /// Tools are never in a unit count; this one counts them explicitly (900.5d).
        AdjacentTool = "adjacent_tool",
        /// Stacks, not units: the target's Burn.
        TargetBurn = "target_burn",
        /// Stacks, not units: the target's Maim.
        TargetMaim = "target_maim",
        /// Seconds of Freeze a Shatter removed earlier in the same
        /// resolution; floors after multiplying, never below 0 (800.62c, 900.4d).
        ShatteredSecond = "shattered_second",
        /// The acting side's Dividend going into the battle, read, not
        /// spent (800.15b).
        Dividend = "dividend",
        /// The acting side's Profit, read, not spent (800.53c).
        Profit = "profit",
        /// The acting side's Stock now, read, not spent (800.67c).
        Stock = "stock",
        /// The acting unit's rune effects: the board runes projecting onto
        /// it and its innate runes; none means no effect (900.4e).
        RuneEffect = "rune_effect",
        /// The acting unit's named counter, the printed X that persists
        /// with the unit for the match (200.3b); 0 for a card without one.
        Counter = "counter",
    }
}

named_enum! {
    /// The event a passive line listens to (400.6, reconstructed).
    Trigger, "trigger" {
        BattleStart = "battle_start",
        /// Vitality damage landed on this unit (900.26c).
        DamageTaken = "damage_taken",
        /// Shield absorbed part of an instance (800.63f).
        ShieldDamaged = "shield_damaged",
        /// Shield broken to exactly 0 (800.63f).
        ShieldBroken = "shield_broken",
        /// This unit's Cull succeeded (800.13h).
        EnemyCulled = "enemy_culled",
        /// This unit finished an activation; resolves in the follow-up step (900.8f).
        OwnActivation = "own_activation",
        /// Any other unit died (800.42a).
        OtherDied = "other_died",
        /// This unit gained Insurance: fires on every positive grant (900.38a).
        InsuranceGained = "insurance_gained",
        /// An ally gained Insurance (900.38a, 900.38d).
        AllyInsuranceGained = "ally_insurance_gained",
        /// Not an event: a stat layer held while the unit has any Insurance
        /// (800.37h, 900.38b). Only stat gains of a fixed amount.
        WhileInsured = "while_insured",
        /// This unit was Displaced (800.1a); the event's other unit is its
        /// swap partner.
        Acclimate = "acclimate",
        /// A pair of this unit's enemies was Displaced (800.70a); the
        /// event's other unit is the one the Displace was aimed at.
        Threat = "threat",
        /// This unit's Entrap ended (800.19f).
        Released = "released",
        /// This unit woke from the Dormant its card's wake condition held it
        /// in (800.16h).
        Awaken = "awaken",
        /// This unit's last Haywire stack was spent, before its Stun (800.31e,
        /// 900.17c).
        HaywireEmptied = "haywire_emptied",
        /// This unit's Cascade succeeded (800.9f).
        Cascaded = "cascaded",
        /// An ally's Cascade succeeded (800.9f); the event's other unit is
        /// that ally.
        AllyCascaded = "ally_cascaded",
        /// Supercharge: an adjacent ally finished an activation; at most once
        /// per unit per chain (800.69a-800.69c). The other unit is that ally.
        Supercharge = "supercharge",
        /// This unit came back by spending a Vessel (800.49, 900.28h).
        VesselRevived = "vessel_revived",
        /// This unit came back by Everlasting (800.20a, 900.28h).
        EverlastingRevived = "everlasting_revived",
        /// An ally came back, by either revival (900.28h); the other unit is
        /// that ally.
        AllyRevived = "ally_revived",
        /// An enemy paid its Interest (800.38g), lethal or not; the other
        /// unit is the debtor.
        InterestPaid = "interest_paid",
        /// This unit's Feast restored Vitality (800.22f); `P% restored`
        /// reads how much.
        Feasted = "feasted",
        /// This unit paid a Bloodletting cost and lost Vitality (800.4i);
        /// the other unit is the caster.
        BloodlettingPaid = "bloodletting_paid",
        /// This unit's Quest is complete: when its progress reaches the
        /// count, and at every later battle start, since the reward stays
        /// with the unit (800.54b).
        QuestCompleted = "quest_completed",
        /// Poach: an allied non-Scrip combat unit finished an activation,
        /// wherever it stands (800.51a-800.51c). The other unit is that ally.
        Poach = "poach",
        /// A Penny on this unit's side (this unit included, if it is one)
        /// reached the start of its activation, after its Stock roll
        /// (800.47b). The other unit is the Penny.
        PennyActivated = "penny_activated",
        /// The card was sold in the shop (800.15d, 800.47d): only a fixed
        /// `gain_dividend` resolves here, outside any battle.
        Sold = "sold",
    }
}

named_enum! {
    /// Innate keywords a card can print.
    KeywordName, "keyword" {
        Relentless = "relentless",
        Feast = "feast",
        Rabid = "rabid",
        Thorns = "thorns",
        Riposte = "riposte",
        Underwriting = "underwriting",
        Exalt = "exalt",
        Insurance = "insurance",
        Subrogated = "subrogated",
        DamageCap = "damage_cap",
        /// +1 Power per 2 Focus (800.28a).
        Fury = "fury",
        /// Loses 33% Power while adjacent to 5 or more living allied Tools (800.7a).
        Brute = "brute",
        /// An aura: Burn on this unit's side never spreads (900.33h).
        NoBurnSpread = "no_burn_spread",
        /// At battle start, the amount of Armor per adjacent living Tool (800.6a).
        Braced = "braced",
        /// A fixed Vitality loss on an attacker whose hit landed Vitality
        /// damage; a fully prevented instance does not fire it (900.26d).
        Retort = "retort",
        /// Doubles effective Power while the unit is Lucid, before Blind's
        /// reduction (800.41c, 900.32d).
        LucidPower = "lucid_power",
        /// An aura: while this unit is Ignited, its adjacent allies have
        /// Fury (800.35c).
        IgnitedFuryAura = "ignited_fury_aura",
        /// After each activation, a 33% chance to activate again, up to 7
        /// times in a row (800.9a-800.9c).
        Cascade = "cascade",
        /// Adjacent allies' Initiative clauses resolve this many more times
        /// on their first activation (800.36c).
        InitiativeRepeats = "initiative_repeats",
        /// Revives at full Vitality 10 s after each death, while combat runs
        /// (800.20a).
        Everlasting = "everlasting",
        /// Starts the battle with one Vessel, spent at death to revive at
        /// once; Vessel Points earned by the side's Dread and Freeze form
        /// more, up to two (800.49).
        Phylactery = "phylactery",
        /// Immune to ally damage: never the pick of an ally's Feral misfire
        /// (800.23c).
        AllyDamageImmune = "ally_damage_immune",
        /// Board runes projected onto this unit apply at full potency even
        /// when they cover one of its rows or columns (800.60b, 900.24c).
        Runic = "runic",
        /// While active at battle start, adds this many resonance levels to
        /// its side (Grohm's 22, 800.58d).
        Resonator = "resonator",
        /// A Hub's board-derived Settle bonus: this much more Settle per
        /// allied Hub, itself included, read at Settle time (800.61e).
        SettlePerHub = "settle_per_hub",
        /// A Hub that fires a copy of each cardinally adjacent allied Hub's
        /// Markup (battle-start lines) at its own tier, in reading order,
        /// inside its own Markup beat (800.26a-800.26c).
        Franchise = "franchise",
        /// Answers landed damage with a real damage instance of this
        /// percent of the Vitality taken, which the attacker's Armor and
        /// Shield meet (900.26d, 900.26f): the boss Reflect rune's effect,
        /// printed on a card.
        Reflect = "reflect",
    }
}

named_enum! {
    /// What a Quest counts: events its owner's side causes (800.54a).
    QuestEvent, "quest event" {
        /// A unit of the owner's side kills an enemy.
        AllyKill = "ally_kill",
        /// A unit of the owner's side activates.
        AllyActivation = "ally_activation",
        /// A Penny of the owner's side mints Stock.
        StockMinted = "stock_minted",
        /// A battle starts: once per battle the unit is in (a named
        /// counter "accumulating each battle", 200.3b).
        BattleStart = "battle_start",
    }
}

named_enum! {
    /// Which of a side's two rune boards a rune sits on: the one facing the
    /// grid's rows (a cell per row) or its columns (a cell per column);
    /// docs/rules-reconstruction.md, 900.24a.
    RuneBoard, "rune board" {
        Rows = "rows",
        Columns = "columns",
    }
}

named_enum! {
    /// What a rune or a resonance line grants the units it reaches
    /// (800.58, 900.24, reconstructed in docs/rules-reconstruction.md).
    RuneEffect, "rune effect" {
        Power = "power",
        Armor = "armor",
        Speed = "speed",
        Focus = "focus",
        /// Raises maximum and current Vitality alike.
        Vitality = "vitality",
        /// A fixed Vitality loss on an attacker, at the rune's per-tier value (900.26a).
        Thorns = "thorns",
        /// A fixed Vitality loss on an attacker (900.26a); a resonance grants
        /// it at its level.
        Riposte = "riposte",
        /// Taken off each Burn and Venom tick the unit takes, with Forge
        /// Core reduction, before the pipeline (900.11d).
        TickReduction = "tick_reduction",
        /// Percentage points added to the unit's Cascade chance, never past
        /// the ceiling (800.9b).
        CascadeChance = "cascade_chance",
        /// Lowers the unit's Bloodletting cost before a payer is chosen
        /// (800.4l, 900.20g).
        BloodlettingReduction = "bloodletting_reduction",
        /// Percent chance that a Hallow tick heals without decaying (800.29e).
        HallowPreserve = "hallow_preserve",
        /// Once per life, a lethal Vitality loss leaves the unit at this much
        /// Vitality instead (800.4h, 900.20d).
        DefyDeath = "defy_death",
        /// Bonus damage on this unit's first hit against each target
        /// incarnation; a revived unit is a new one (800.20c, 900.28f).
        NewTargetDamage = "new_target_damage",
        /// Shield gained at the start of each activation, an immediate effect
        /// that resolves even when the attack is skipped or aborted (800.4k,
        /// 900.20f, 900.40e).
        ActivationShield = "activation_shield",
        /// The boss Reflect rune: landed damage answered with a real damage
        /// instance of this percent of what was taken (900.26d, 900.26f).
        Reflect = "reflect",
    }
}

impl RuneEffect {
    /// Whether a resonance may grant it (a stat, or Riposte at its level).
    pub fn for_resonance(self) -> bool {
        matches!(
            self,
            RuneEffect::Power
                | RuneEffect::Armor
                | RuneEffect::Speed
                | RuneEffect::Focus
                | RuneEffect::Vitality
                | RuneEffect::Riposte
        )
    }
}

impl KeywordName {
    /// How many keywords there are: the size of a table indexed by keyword.
    pub const COUNT: usize = KeywordName::ALL.len();

    pub fn takes_amount(self) -> bool {
        !matches!(
            self,
            KeywordName::Relentless
                | KeywordName::Feast
                | KeywordName::Rabid
                | KeywordName::Fury
                | KeywordName::Brute
                | KeywordName::NoBurnSpread
                | KeywordName::LucidPower
                | KeywordName::IgnitedFuryAura
                | KeywordName::Cascade
                | KeywordName::AllyDamageImmune
                | KeywordName::Everlasting
                | KeywordName::Phylactery
                | KeywordName::Runic
                | KeywordName::Franchise
        )
    }
}

/// An amount expression, evaluated when its clause resolves (400.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Amount {
    Const(i32),
    /// `N x tier`.
    PerTier(i32),
    /// `N per COUNT`: a count of zero gives zero (900.4).
    Per {
        each: i32,
        count: Count,
    },
    /// `P% power`: a share of effective Power, floored, at least 1.
    PowerPercent(i32),
    /// `burn_power`: the rules' Burn-from-Power share (800.8h).
    BurnPower,
    /// `P% cost_paid`: a share of the Bloodletting cost actually paid (900.20g).
    CostPaidPercent(i32),
    /// `P% current_damage`: a share of the hit as accumulated so far, base
    /// Power plus bonus damage (900.7e).
    CurrentDamagePercent(i32),
    /// `P% restored`: a share of the Vitality the Feast that set off a
    /// `feasted` line actually restored (800.22f); 0 elsewhere.
    RestoredPercent(i32),
    /// `[9, 13, 16]`: one number per tier, printed as a stat ladder is.
    Ladder(LadderRef),
}

/// Where a per-tier amount's numbers sit in the catalog's
/// `amount_ladders`: `tiers` of them from `start`, tier `t` at
/// `start + t - 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LadderRef {
    pub start: u32,
    pub tiers: u8,
}

impl Amount {
    /// Reads no board state: a whole number, `N x tier`, or one number per
    /// tier.
    pub fn is_fixed(self) -> bool {
        matches!(self, Amount::Const(_) | Amount::PerTier(_) | Amount::Ladder(_))
    }

    /// Counted amounts resolve to 0 on a count of 0; ordinary ones floor at 1 (900.4a).
    pub fn is_counted(self) -> bool {
        matches!(self, Amount::Per { .. })
    }
}

named_enum! {
    /// The five events a Tool package listens to (800.71c).
    PackageEvent, "package event" {
        BattleStart = "battle_start",
        AllyActivated = "ally_activated",
        AllyDamaged = "ally_damaged",
        EnemyDied = "enemy_died",
        /// Another allied Tool lost its last Durability.
        ToolDepleted = "tool_depleted",
    }
}

named_enum! {
    /// The three passes of an `ally_activated` package (800.71d).
    PackageTiming, "timing" {
        /// At the start of the ally's activation, before its damage (900.3a).
        Immediate = "immediate",
        /// After the ally's impact: the hit and the post-damage lane.
        AfterImpact = "after_impact",
        /// After the activation completes.
        AfterActivation = "after_activation",
    }
}

named_enum! {
    /// A stat an Overmatch gate compares (800.46a).
    StatName, "stat" {
        Vitality = "vitality",
        Power = "power",
        Speed = "speed",
        Armor = "armor",
        Focus = "focus",
    }
}

// An amount as a card file writes it (docs/card-format.md): read here, beside
// the type, so every file format that names an amount reads it alike.

impl schemars::JsonSchema for Amount {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Amount".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "an integer or an amount such as \"9 x tier\", \"5 per burning_enemy\", \"75% power\"",
            "type": ["integer", "string"],
        })
    }
}

/// A single amount: a whole number or a written form.
pub struct AmountVisitor;

impl de::Visitor<'_> for AmountVisitor {
    type Value = Amount;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an integer or an amount such as \"9 x tier\", \"5 per burning_enemy\", \"75% power\"")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Amount, E> {
        i32::try_from(v)
            .map(Amount::Const)
            .map_err(|_| E::custom(format!("amount {v} is out of range")))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Amount, E> {
        i32::try_from(v)
            .map(Amount::Const)
            .map_err(|_| E::custom(format!("amount {v} is out of range")))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Amount, E> {
        Amount::parse(v).map_err(E::custom)
    }
}

impl<'de> Deserialize<'de> for Amount {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(AmountVisitor)
    }
}

impl Amount {
    /// Parses the written forms listed in `docs/card-format.md`.
    pub fn parse(text: &str) -> Result<Amount, AmountError> {
        let t = text.trim();
        let int = |s: &str| -> Result<i32, AmountError> {
            s.trim().parse::<i32>().map_err(|_| AmountError::NotWholeNumber {
                part: s.trim().to_string(),
                text: t.to_string(),
            })
        };
        if t == "burn_power" {
            return Ok(Amount::BurnPower);
        }
        if let Some((n, rest)) = t.split_once('%') {
            let pct = int(n)?;
            return match rest.trim() {
                "power" => Ok(Amount::PowerPercent(pct)),
                "cost_paid" => Ok(Amount::CostPaidPercent(pct)),
                "current_damage" => Ok(Amount::CurrentDamagePercent(pct)),
                "restored" => Ok(Amount::RestoredPercent(pct)),
                other => Err(AmountError::UnknownShare {
                    share: other.to_string(),
                    text: t.to_string(),
                }),
            };
        }
        if let Some((n, rest)) = t.split_once(" per ") {
            let each = int(n)?;
            let word = rest.trim();
            let count = Count::from_name(word).ok_or_else(|| AmountError::UnknownCount {
                count: word.to_string(),
                text: t.to_string(),
            })?;
            return Ok(Amount::Per { each, count });
        }
        if let Some((n, rest)) = t.split_once(" x ") {
            if rest.trim() != "tier" {
                return Err(AmountError::NotPerTier(t.to_string()));
            }
            return Ok(Amount::PerTier(int(n)?));
        }
        int(t)
            .map(Amount::Const)
            .map_err(|_| AmountError::Unreadable(t.to_string()))
    }
}

/// Why a written amount cannot be read (docs/card-format.md): each names
/// the amount as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AmountError {
    /// A part that should be a whole number is not.
    NotWholeNumber { part: String, text: String },
    /// `P% share` with a share that is not one of the four.
    UnknownShare { share: String, text: String },
    /// `N per COUNT` with a count that is not one of [`Count::ALL`].
    UnknownCount { count: String, text: String },
    /// `N x something` other than `N x tier`.
    NotPerTier(String),
    /// None of the written forms.
    Unreadable(String),
}

impl std::fmt::Display for AmountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use gridsim_core::diagnostics::{backticked, suggestion};
        match self {
            AmountError::NotWholeNumber { part, text } => {
                write!(f, "`{part}` is not a whole number in amount `{text}`")
            }
            AmountError::UnknownShare { share, text } => {
                let shares = ["power", "cost_paid", "current_damage", "restored"];
                write!(
                    f,
                    "unknown share `{share}` in amount `{text}`; expected `power`, `cost_paid`, `current_damage` or `restored`{}",
                    suggestion(share, &shares)
                )
            }
            AmountError::UnknownCount { count, text } => {
                let names: Vec<&str> = Count::ALL.iter().map(|c| c.name()).collect();
                write!(
                    f,
                    "unknown count `{count}` in amount `{text}`; expected one of {}{}",
                    backticked(&names),
                    suggestion(count, &names)
                )
            }
            AmountError::NotPerTier(text) => write!(f, "expected `N x tier`, found `{text}`"),
            AmountError::Unreadable(text) => write!(
                f,
                "cannot read amount `{text}`; expected a whole number, `N x tier`, `N per COUNT`, `P% power`, `P% cost_paid`, `P% current_damage`, `P% restored` or `burn_power`"
            ),
        }
    }
}

impl std::error::Error for AmountError {}
