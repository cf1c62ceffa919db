//! The event log: what happened, to whom, for how much, under which rule.
//! Fixed-size records in a buffer reserved once; recording stops at the
//! per-fight limit rather than growing without bound.

use super::UnitIdx;

macro_rules! event_kinds {
    ($( $(#[$vmeta:meta])* $Variant:ident = $text:literal ),* $(,)?) => {
        /// Every kind of event the engine records.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum EventKind { $( $(#[$vmeta])* $Variant, )* }

        impl EventKind {
            pub const ALL: &'static [EventKind] = &[ $( EventKind::$Variant, )* ];
            pub fn name(self) -> &'static str {
                match self { $( EventKind::$Variant => $text, )* }
            }
            pub fn from_name(text: &str) -> Option<EventKind> {
                match text { $( $text => Some(EventKind::$Variant), )* _ => None }
            }
        }
    };
}

event_kinds! {
    BattleStart = "battle_start",
    /// A rescue fight continues its sides where their fights left them,
    /// with no battle-start pass: `amount` the units (200.2c).
    BattleContinued = "battle_continued",
    /// A board or innate rune reaches `unit`: `amount` its potency in
    /// percent, `detail` the rune's index (900.24).
    RuneProjected = "rune_projected",
    /// The side's resonance reaches `unit`: `amount` the level, `detail`
    /// the resonance's index (800.58).
    ResonanceGranted = "resonance_granted",
    /// A timed resonance line ends for `unit` (800.58e).
    ResonanceEnded = "resonance_ended",
    /// A resonator of the side died, fell Dormant, woke, came back or
    /// completed its Quest: `amount` the new level, `detail` the old
    /// (800.58d).
    ResonanceLevel = "resonance_level",
    /// A defy-death rune leaves `unit` at `amount` Vitality (800.4h).
    DefiedDeath = "defied_death",
    /// A new-target rune adds `amount` to `unit`'s hit on `other` (800.20c).
    NewTarget = "new_target",
    /// Hub `other` strengthens Penny `unit` at `amount` percent of its
    /// bonuses, plus a `detail` percent scarcity supplement (800.33d-800.33h).
    HubGranted = "hub_granted",
    /// Hub `unit` settles `amount` Stock into Dividend; `detail` Stock is
    /// left in the pool (800.61c).
    Settled = "settled",
    /// `unit`'s Quest advances to `amount` of `detail` (800.54a).
    QuestProgress = "quest_progress",
    /// `unit`'s named counter gains `detail` and reaches `amount` (200.3b).
    CounterGained = "counter_gained",
    Activate = "activate",
    NoTarget = "no_target",
    HitSkipped = "hit_skipped",
    /// `amount` is the Vitality lost; `detail` the Vitality left.
    Damage = "damage",
    /// An instance Armor reduced to nothing; `amount` is the incoming damage.
    ArmorAbsorbed = "armor_absorbed",
    /// `amount` absorbed, `detail` points spent.
    InsuranceSpent = "insurance_spent",
    SubrogatedSpent = "subrogated_spent",
    ShieldAbsorbed = "shield_absorbed",
    ShieldBroken = "shield_broken",
    /// `amount` restored.
    Heal = "heal",
    /// `amount` prevented, `detail` Maim points consumed.
    MaimPrevented = "maim_prevented",
    ShieldGained = "shield_gained",
    MaimApplied = "maim_applied",
    CullSucceeded = "cull_succeeded",
    /// `amount` is the Maim, `detail` the Vitality it was compared with.
    CullFailed = "cull_failed",
    BurnApplied = "burn_applied",
    /// `amount` is the tick's damage before mitigation, `detail` the Burn left after decay.
    BurnTick = "burn_tick",
    BurnSpread = "burn_spread",
    VenomApplied = "venom_applied",
    VenomTick = "venom_tick",
    CrushApplied = "crush_applied",
    CrushExpired = "crush_expired",
    SmashApplied = "smash_applied",
    SmashExpired = "smash_expired",
    Stunned = "stunned",
    Frozen = "frozen",
    /// `amount` ms of Blind added, `detail` ms left after.
    Blinded = "blinded",
    /// `amount` Kindled stacks added; `detail` the stacks after.
    Kindled = "kindled",
    /// `unit`'s Entrap ended (800.19f).
    Released = "released",
    /// `unit` became Dormant for `amount` ms (800.16i).
    DormantApplied = "dormant_applied",
    /// `unit` woke; `amount` 1 when its wake condition was met (its
    /// `awaken` lines follow), 0 when a timed Dormant ran out.
    Awakened = "awakened",
    /// `unit` and `other` exchanged positions (800.14a); `amount` and
    /// `detail` are `unit`'s new column and row.
    Displaced = "displaced",
    /// A Displace found no viable adjacent partner for `unit`.
    DisplaceFailed = "displace_failed",
    /// A Fleeting buff of `unit` lost `amount` of the stat numbered `detail`
    /// (0 Power, 1 Speed, 2 Armor, 3 Focus).
    FleetingDecayed = "fleeting_decayed",
    /// A Hallow instance of `amount` (Exalt included) started; `detail` the
    /// instances running after.
    HallowApplied = "hallow_applied",
    /// A Hallow instance healed `amount` (before Maim); `detail` the decay
    /// percent rolled for this tick.
    HallowTick = "hallow_tick",
    /// `amount` Roost gained, `detail` the unit's Roost total after.
    RoostGained = "roost_gained",
    /// `amount` the tick's heal before Maim, `detail` the Roost total.
    RoostTick = "roost_tick",
    Prismbroken = "prismbroken",
    Entrapped = "entrapped",
    InsuranceGained = "insurance_gained",
    /// `amount` stacks added, `detail` Dread after.
    DreadApplied = "dread_applied",
    /// `amount` stacks taken by a Harvest, `detail` Dread left.
    DreadRemoved = "dread_removed",
    /// `unit` lost `amount` Armor to `other`.
    Repossessed = "repossessed",
    RelentlessGranted = "relentless_granted",
    RelentlessSuppressed = "relentless_suppressed",
    /// A Tool's package resolved; `other` is the unit the event was about,
    /// `amount` the Durability left.
    PackageResolved = "package_resolved",
    /// `amount` Durability restored, `detail` Durability after.
    Repaired = "repaired",
    StatChanged = "stat_changed",
    /// An application the gates refused; `detail` is a [`Refusal`] code.
    Refused = "refused",
    Thorns = "thorns",
    Retort = "retort",
    /// A Reflect rune answers: `unit` is the attacker hit back, `amount` the
    /// damage sent before mitigation.
    Reflect = "reflect",
    /// `amount` ms of Freeze removed by a Shatter.
    Shattered = "shattered",
    Riposte = "riposte",
    SubrogatedRetaliation = "subrogated_retaliation",
    Feast = "feast",
    BloodlettingPaid = "bloodletting_paid",
    AbilityAborted = "ability_aborted",
    StockMinted = "stock_minted",
    /// A Shock forced `unit` to activate; `amount` is the forced depth (800.64b).
    Shocked = "shocked",
    /// A Shock thawed `amount` ms of `unit`'s Freeze; `detail` the Freeze left (800.64a).
    ShockThawed = "shock_thawed",
    /// `amount` Haywire stacks added, `detail` the stacks after.
    HaywireApplied = "haywire_applied",
    /// `unit` spent a Haywire stack after its activation; `detail` the stacks left (800.31b).
    HaywireFired = "haywire_fired",
    /// `amount` Overclock stacks added, `detail` the stacks after.
    OverclockApplied = "overclock_applied",
    /// `unit` blew out: `amount` Overclock stacks lost, `detail` the chance in percent (800.45d).
    Blowout = "blowout",
    /// `amount` Feral stacks added, `detail` the stacks after.
    FeralApplied = "feral_applied",
    /// `unit`'s activation misfired at `other` (800.23a).
    Misfire = "misfire",
    /// `unit`'s Cascade succeeded; `amount` is the chain's depth after it (800.9a).
    Cascade = "cascade",
    /// `unit`'s Initiative clauses resolved on `other`; `amount` 0 for the
    /// first pass, then each repeat's number (800.36a, 800.36c).
    Initiative = "initiative",
    RabidGranted = "rabid_granted",
    /// `amount` Interest stacks added, `detail` the debt after.
    InterestApplied = "interest_applied",
    /// `unit` paid a debt of `amount` stacks, `detail` of them in Vitality (800.38b).
    InterestPaid = "interest_paid",
    EverlastingGranted = "everlasting_granted",
    /// A boss installed its phase number `amount` at `detail` Vitality (800.48a).
    PhaseChanged = "phase_changed",
    /// The boss's Stagger meter filled; `amount` the Stun that follows (800.66f).
    Staggered = "staggered",
    /// `unit` came back with `amount` Vitality; `detail` 0 by a Vessel, 1 by
    /// Everlasting (500.9).
    Revived = "revived",
    /// `unit` spent a Vessel at its death; `amount` the Vessels left (800.49i).
    VesselSpent = "vessel_spent",
    /// `unit` earned `amount` Vessel Points from a batch; `detail` its
    /// progress after (800.49d).
    VesselPoints = "vessel_points",
    /// `unit` formed a Vessel; `amount` the Vessels held after (900.27f).
    VesselFormed = "vessel_formed",
    /// `amount` Consecrate stacks added (Exalt included), `detail` the stacks after.
    Consecrated = "consecrated",
    /// Overtime damage about to be dealt; `amount` is N x N.
    Overtime = "overtime",
    Death = "death",
    FightEnd = "fight_end",
    /// `amount` added to the additive Roost-tick bonus, `detail` that
    /// bonus after (800.59d).
    RoostBonusGained = "roost_bonus_gained",
    /// `amount` percent added to the percentage Roost-tick bonus, `detail`
    /// that bonus after (800.59d).
    RoostPercentGained = "roost_percent_gained",
    /// `unit`'s side gained `amount` Dividend from an ability; `detail` the
    /// side's Dividend after (800.15b).
    DividendGained = "dividend_gained",
    /// `unit` became another card as it woke (800.16h); `amount` its tier
    /// now, `detail` the new card's id.
    Transformed = "transformed",
}

/// Why an application was refused (700.3, 700.4, reconstructed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i32)]
pub enum Refusal {
    Dead = 1,
    Entrapped = 2,
    Dormant = 3,
    Object = 4,
    Relentless = 5,
    TierOne = 6,
    NotEnemy = 7,
    NotTool = 8,
    /// A boss is immune to the effect (800.3e).
    Boss = 9,
    /// A Stunned unit cannot activate, so a Shock cannot force it (800.68a).
    Stunned = 10,
    /// Already Shocked in this Shock resolution (800.64e).
    AlreadyShocked = 11,
    /// Nested forced activations reached their depth (800.64e).
    ShockDepth = 12,
    /// The unit has no ability to activate (800.64f).
    NoAbility = 13,
    /// Relentless is suppressed for the battle (800.56g).
    Suppressed = 14,
}

impl Refusal {
    pub const ALL: [Refusal; 14] = [
        Refusal::Dead,
        Refusal::Entrapped,
        Refusal::Dormant,
        Refusal::Object,
        Refusal::Relentless,
        Refusal::TierOne,
        Refusal::NotEnemy,
        Refusal::NotTool,
        Refusal::Boss,
        Refusal::Stunned,
        Refusal::AlreadyShocked,
        Refusal::ShockDepth,
        Refusal::NoAbility,
        Refusal::Suppressed,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Refusal::Dead => "dead",
            Refusal::Entrapped => "entrapped",
            Refusal::Dormant => "dormant",
            Refusal::Object => "tool_or_hub",
            Refusal::Relentless => "relentless",
            Refusal::TierOne => "tier_one",
            Refusal::NotEnemy => "not_an_enemy",
            Refusal::NotTool => "not_a_tool",
            Refusal::Boss => "boss",
            Refusal::Stunned => "stunned",
            Refusal::AlreadyShocked => "already_shocked",
            Refusal::ShockDepth => "shock_depth",
            Refusal::NoAbility => "no_ability",
            Refusal::Suppressed => "suppressed",
        }
    }
    pub fn from_code(code: i32) -> Option<Refusal> {
        Refusal::ALL.into_iter().find(|r| *r as i32 == code)
    }
}

/// One recorded event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    pub time_ms: i32,
    pub kind: EventKind,
    /// The unit the event happened to.
    pub unit: UnitIdx,
    /// The other unit involved (source, attacker, target), or [`UnitIdx::NONE`].
    pub other: UnitIdx,
    pub amount: i32,
    pub detail: i32,
    /// The rule that made it happen, e.g. `"800.8b"`.
    pub rule: &'static str,
}

/// A bounded event buffer. Disabled logs record nothing and cost nothing.
#[derive(Debug, Clone)]
pub struct EventLog {
    pub events: Vec<Event>,
    pub enabled: bool,
    pub limit: usize,
    /// Events that happened past the limit and were not recorded.
    pub dropped: u32,
}

impl EventLog {
    pub fn new(limit: usize) -> EventLog {
        EventLog {
            events: Vec::new(),
            enabled: false,
            limit,
            dropped: 0,
        }
    }

    /// Turns recording on and reserves the whole buffer once.
    pub fn enable(&mut self) {
        self.enabled = true;
        self.events.reserve(self.limit);
    }

    pub fn clear(&mut self) {
        self.events.clear();
        self.dropped = 0;
    }

    #[inline]
    pub fn push(&mut self, e: Event) {
        if !self.enabled {
            return;
        }
        if self.events.len() < self.limit {
            self.events.push(e);
        } else {
            self.dropped = self.dropped.saturating_add(1);
        }
    }
}
