//! The event log: what happened, to whom, for how much, under which rule.
//! Fixed-size records in a buffer reserved once; recording stops at the
//! per-fight limit rather than growing without bound.

use super::UnitIdx;

/// Every event kind, declared once: its name in the log's JSON and its
/// sentence in the log's text.
macro_rules! event_kinds {
    ($( $(#[$vmeta:meta])* $Variant:ident = $text:literal => $sentence:literal ),* $(,)?) => {
        /// Every kind of event the engine records.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum EventKind { $( $(#[$vmeta])* $Variant, )* }

        impl EventKind {
            pub const ALL: &'static [EventKind] = &[ $( EventKind::$Variant, )* ];
            pub fn name(self) -> &'static str {
                match self { $( EventKind::$Variant => $text, )* }
            }
            /// The log's sentence: `{unit}`, `{other}`, `{a}` (the amount)
            /// and `{d}` (the detail) stand for the event's parts.
            pub fn sentence(self) -> &'static str {
                match self { $( EventKind::$Variant => $sentence, )* }
            }
            pub fn from_name(text: &str) -> Option<EventKind> {
                match text { $( $text => Some(EventKind::$Variant), )* _ => None }
            }
        }
    };
}

event_kinds! {
    BattleStart = "battle_start" => "battle starts with {a} units",
    /// A rescue fight continues its sides where their fights left them,
    /// with no battle-start pass: `amount` the units (200.2c).
    BattleContinued = "battle_continued" => "rescue fight continues with {a} units as they stood",
    /// A board or innate rune reaches `unit`: `amount` its potency in
    /// percent, `detail` the rune's index (900.24).
    RuneProjected = "rune_projected" => "{unit} receives rune {d} at {a}% potency",
    /// The side's resonance reaches `unit`: `amount` the level, `detail`
    /// the resonance's index (800.58).
    ResonanceGranted = "resonance_granted" => "{unit} receives resonance {d} at level {a}",
    /// A timed resonance line ends for `unit` (800.58e).
    ResonanceEnded = "resonance_ended" => "{unit}'s timed resonance ends",
    /// A resonator of the side died, fell Dormant, woke, came back or
    /// completed its Quest: `amount` the new level, `detail` the old
    /// (800.58d).
    ResonanceLevel = "resonance_level" => "{unit} moves its side's resonance from level {d} to {a}",
    /// A defy-death rune leaves `unit` at `amount` Vitality (800.4h).
    DefiedDeath = "defied_death" => "{unit} defies death at {a} Vitality",
    /// A new-target rune adds `amount` to `unit`'s hit on `other` (800.20c).
    NewTarget = "new_target" => "{unit} meets {other} as a new target (+{a} damage)",
    /// Hub `other` strengthens Penny `unit` at `amount` percent of its
    /// bonuses, plus a `detail` percent scarcity supplement (800.33d-800.33h).
    HubGranted = "hub_granted" => "{other} strengthens {unit} at {a}%",
    /// Hub `unit` settles `amount` Stock into Dividend; `detail` Stock is
    /// left in the pool (800.61c).
    Settled = "settled" => "{unit} settles {a} Stock into Dividend, {d} Stock left",
    /// `unit`'s Quest advances to `amount` of `detail` (800.54a).
    QuestProgress = "quest_progress" => "{unit}'s Quest advances to {a} of {d}",
    /// `unit`'s named counter gains `detail` and reaches `amount` (200.3b).
    CounterGained = "counter_gained" => "{unit}'s counter gains {d}, now {a}",
    Activate = "activate" => "{unit} activates against {other} (Power {a})",
    NoTarget = "no_target" => "{unit} finds no living target",
    HitSkipped = "hit_skipped" => "hit on {unit} skipped ({a} damage)",
    /// `amount` is the Vitality lost; `detail` the Vitality left.
    Damage = "damage" => "{other} deals {a} damage to {unit}, Vitality {d}",
    /// An instance Armor reduced to nothing; `amount` is the incoming damage.
    ArmorAbsorbed = "armor_absorbed" => "{unit}'s Armor {d} absorbs all {a}",
    /// `amount` absorbed, `detail` points spent.
    InsuranceSpent = "insurance_spent" => "{unit} spends {d} Insurance, absorbing {a}",
    SubrogatedSpent = "subrogated_spent" => "{unit} spends {d} Subrogated Insurance, absorbing {a}",
    ShieldAbsorbed = "shield_absorbed" => "{unit}'s Shield absorbs {a}, {d} left",
    ShieldBroken = "shield_broken" => "{unit}'s Shield breaks",
    /// `amount` restored.
    Heal = "heal" => "{unit} restores {a}, Vitality {d}",
    /// `amount` prevented, `detail` Maim points consumed.
    MaimPrevented = "maim_prevented" => "{unit}'s Maim prevents {a}, {d} points consumed",
    ShieldGained = "shield_gained" => "{unit} gains {a} Shield, now {d}",
    MaimApplied = "maim_applied" => "{unit} is Maimed {a}, now {d}",
    CullSucceeded = "cull_succeeded" => "{other} Culls {unit} (Maim {a} > Vitality {d})",
    /// `amount` is the Maim, `detail` the Vitality it was compared with.
    CullFailed = "cull_failed" => "Cull on {unit} fails (Maim {a} vs Vitality {d})",
    BurnApplied = "burn_applied" => "{unit} Burns {a}, now {d}",
    /// `amount` is the tick's damage before mitigation, `detail` the Burn left after decay.
    BurnTick = "burn_tick" => "{unit}'s Burn ticks for {a}, {d} left",
    BurnSpread = "burn_spread" => "Burn {a} spreads to {unit}, now {d}",
    VenomApplied = "venom_applied" => "{unit} gains {a} Venom, now {d}",
    VenomTick = "venom_tick" => "{unit}'s Venom ticks for {a}, {d} left",
    CrushApplied = "crush_applied" => "{unit} is Crushed {a}, Armor {d}",
    CrushExpired = "crush_expired" => "{unit}'s Crush of {a} expires",
    SmashApplied = "smash_applied" => "{unit} is Smashed for {a} ms",
    SmashExpired = "smash_expired" => "{unit}'s Smash ends, tier {a}",
    Stunned = "stunned" => "{unit} is Stunned for {a} ms",
    Frozen = "frozen" => "{unit} is Frozen for {a} ms more, {d} left",
    /// `amount` ms of Blind added, `detail` ms left after.
    Blinded = "blinded" => "{unit} is Blinded for {a} ms more, {d} left",
    /// `amount` Kindled stacks added; `detail` the stacks after.
    Kindled = "kindled" => "{unit} gains {a} Kindled ({d} in all)",
    /// `unit`'s Entrap ended (800.19f).
    Released = "released" => "{unit} is released from Entrap",
    /// `unit` became Dormant for `amount` ms (800.16i).
    DormantApplied = "dormant_applied" => "{unit} falls Dormant for {a} ms",
    /// `unit` woke; `amount` 1 when its wake condition was met (its
    /// `awaken` lines follow), 0 when a timed Dormant ran out.
    Awakened = "awakened" => "{unit} wakes",
    /// `unit` and `other` exchanged positions (800.14a); `amount` and
    /// `detail` are `unit`'s new column and row.
    Displaced = "displaced" => "{unit} and {other} exchange positions ({unit} now at column {a}, row {d})",
    /// A Displace found no viable adjacent partner for `unit`.
    DisplaceFailed = "displace_failed" => "{unit} has no viable partner to exchange with",
    /// A Fleeting buff of `unit` lost `amount` of the stat numbered `detail`
    /// (0 Power, 1 Speed, 2 Armor, 3 Focus).
    FleetingDecayed = "fleeting_decayed" => "{unit}'s Fleeting buff fades by {a}",
    /// A Hallow instance of `amount` (Exalt included) started; `detail` the
    /// instances running after.
    HallowApplied = "hallow_applied" => "{unit} gains a Hallow of {a} ({d} running)",
    /// A Hallow instance healed `amount` (before Maim); `detail` the decay
    /// percent rolled for this tick.
    HallowTick = "hallow_tick" => "{unit}'s Hallow heals up to {a}, then decays {d}%",
    /// `amount` Roost gained, `detail` the unit's Roost total after.
    RoostGained = "roost_gained" => "{unit} gains {a} Roost ({d} in all)",
    /// `amount` the tick's heal before Maim, `detail` the Roost total.
    RoostTick = "roost_tick" => "{unit}'s Roost heals up to {a} (Roost {d})",
    Prismbroken = "prismbroken" => "{unit} is Prismbroken for {a} ms more",
    Entrapped = "entrapped" => "{unit} is Entrapped for {a} ms",
    InsuranceGained = "insurance_gained" => "{unit} gains {a} Insurance",
    /// `amount` stacks added, `detail` Dread after.
    DreadApplied = "dread_applied" => "{unit} gains {a} Dread, now {d}",
    /// `amount` stacks taken by a Harvest, `detail` Dread left.
    DreadRemoved = "dread_removed" => "{other} harvests {a} Dread from {unit}, {d} left",
    /// `unit` lost `amount` Armor to `other`.
    Repossessed = "repossessed" => "{other} repossesses {a} Armor from {unit}, Armor {d}",
    RelentlessGranted = "relentless_granted" => "{unit} becomes Relentless",
    RelentlessSuppressed = "relentless_suppressed" => "{unit}'s Relentless is suppressed for the battle",
    /// A Tool's package resolved; `other` is the unit the event was about,
    /// `amount` the Durability left.
    PackageResolved = "package_resolved" => "{unit} resolves a package for {other}, Durability {a}",
    /// `amount` Durability restored, `detail` Durability after.
    Repaired = "repaired" => "{unit} is repaired by {a}, Durability {d}",
    StatChanged = "stat_changed" => "{unit}'s {stat} changes by {a}",
    /// An application the gates refused; `detail` is a [`Refusal`] code.
    Refused = "refused" => "{unit} refuses an effect ({why})",
    Thorns = "thorns" => "{other}'s Thorns take {a} Vitality from {unit}",
    Retort = "retort" => "{other}'s Retort takes {a} Vitality from {unit}",
    /// A Reflect rune answers: `unit` is the attacker hit back, `amount` the
    /// damage sent before mitigation.
    Reflect = "reflect" => "{other} reflects {a} damage at {unit}",
    /// `amount` ms of Freeze removed by a Shatter.
    Shattered = "shattered" => "{other} shatters {a} ms of Freeze on {unit}",
    Riposte = "riposte" => "{other}'s Riposte takes {a} Vitality from {unit}",
    SubrogatedRetaliation = "subrogated_retaliation" => "{other}'s Subrogated Insurance takes {a} Vitality from {unit}",
    Feast = "feast" => "{unit} Feasts for {a}",
    BloodlettingPaid = "bloodletting_paid" => "{unit} pays {a} Vitality for {other}'s Bloodletting",
    AbilityAborted = "ability_aborted" => "{unit}'s ability is aborted",
    StockMinted = "stock_minted" => "{unit} mints 1 Stock, side holds {d}",
    /// A Shock forced `unit` to activate; `amount` is the forced depth (800.64b).
    Shocked = "shocked" => "{other} Shocks {unit} into activating (depth {a})",
    /// A Shock thawed `amount` ms of `unit`'s Freeze; `detail` the Freeze left (800.64a).
    ShockThawed = "shock_thawed" => "a Shock thaws {a} ms of {unit}'s Freeze, {d} left",
    /// `amount` Haywire stacks added, `detail` the stacks after.
    HaywireApplied = "haywire_applied" => "{unit} gains {a} Haywire, now {d}",
    /// `unit` spent a Haywire stack after its activation; `detail` the stacks left (800.31b).
    HaywireFired = "haywire_fired" => "{unit}'s Haywire fires, {d} left",
    /// `amount` Overclock stacks added, `detail` the stacks after.
    OverclockApplied = "overclock_applied" => "{unit} gains {a} Overclock, now {d}",
    /// `unit` blew out: `amount` Overclock stacks lost, `detail` the chance in percent (800.45d).
    Blowout = "blowout" => "{unit} blows out ({d}% chance), losing {a} Overclock",
    /// `amount` Feral stacks added, `detail` the stacks after.
    FeralApplied = "feral_applied" => "{unit} gains {a} Feral, now {d}",
    /// `unit`'s activation misfired at `other` (800.23a).
    Misfire = "misfire" => "{unit} misfires at {other} ({d}% chance)",
    /// `unit`'s Cascade succeeded; `amount` is the chain's depth after it (800.9a).
    Cascade = "cascade" => "{unit} Cascades (link {a}, {d}% chance)",
    /// `unit`'s Initiative clauses resolved on `other`; `amount` 0 for the
    /// first pass, then each repeat's number (800.36a, 800.36c).
    Initiative = "initiative" => "{unit}'s Initiative resolves again (repeat {a})",
    RabidGranted = "rabid_granted" => "{unit} becomes Rabid",
    /// `amount` Interest stacks added, `detail` the debt after.
    InterestApplied = "interest_applied" => "{unit} owes {a} more Interest, {d} in all",
    /// `unit` paid a debt of `amount` stacks, `detail` of them in Vitality (800.38b).
    InterestPaid = "interest_paid" => "{unit} pays {a} Interest, {d} of it in Vitality",
    EverlastingGranted = "everlasting_granted" => "{unit} becomes Everlasting",
    /// A boss installed its phase number `amount` at `detail` Vitality (800.48a).
    PhaseChanged = "phase_changed" => "{unit} enters phase {a} at {d} Vitality",
    /// The boss's Stagger meter filled; `amount` the Stun that follows (800.66f).
    Staggered = "staggered" => "{unit} is Staggered by {other}",
    /// `unit` came back with `amount` Vitality; `detail` 0 by a Vessel, 1 by
    /// Everlasting (500.9).
    Revived = "revived" => "{unit} revives by Everlasting at {a} Vitality",
    /// `unit` spent a Vessel at its death; `amount` the Vessels left (800.49i).
    VesselSpent = "vessel_spent" => "{unit} spends a Vessel, {a} left",
    /// `unit` earned `amount` Vessel Points from a batch; `detail` its
    /// progress after (800.49d).
    VesselPoints = "vessel_points" => "{unit} earns {a} Vessel Points, {d} towards the next",
    /// `unit` formed a Vessel; `amount` the Vessels held after (900.27f).
    VesselFormed = "vessel_formed" => "{unit} forms a Vessel, {a} held",
    /// `amount` Consecrate stacks added (Exalt included), `detail` the stacks after.
    Consecrated = "consecrated" => "{unit} gains {a} Consecrate, now {d}",
    /// Overtime damage about to be dealt; `amount` is N x N.
    Overtime = "overtime" => "overtime: {a} damage to every combatant",
    Death = "death" => "{unit} dies",
    FightEnd = "fight_end" => "fight ends",
    /// `amount` added to the additive Roost-tick bonus, `detail` that
    /// bonus after (800.59d).
    RoostBonusGained = "roost_bonus_gained" => "{unit}'s Roost ticks heal {a} more ({d} more in all)",
    /// `amount` percent added to the percentage Roost-tick bonus, `detail`
    /// that bonus after (800.59d).
    RoostPercentGained = "roost_percent_gained" => "{unit}'s Roost ticks heal {a}% more ({d}% more in all)",
    /// `unit`'s side gained `amount` Dividend from an ability; `detail` the
    /// side's Dividend after (800.15b).
    DividendGained = "dividend_gained" => "{unit} gains {a} Dividend for its side ({d} held)",
    /// `unit` became another card as it woke (800.16h); `amount` its tier
    /// now, `detail` the new card's id.
    Transformed = "transformed" => "{unit} wakes as card {d} at tier {a}",
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
