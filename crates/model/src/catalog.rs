//! The compiled catalog: dense card tables and the ability IR the engine
//! interprets. Built once by the loader; never changes during a run. The
//! accessors the engine reads in its loop are `#[inline]`: the engine is
//! another crate, and without it each would be a call.

use crate::ability::{
    Amount, CardKind, Condition, Footprint, KeywordName, Lane, PackageEvent, PackageTiming, Scope, StatName, Trigger,
};
use crate::effects::Effect;

/// Index of a card in [`Catalog::cards`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct CardId(pub u16);

/// One tier's printed numbers. Tools print Durability and Hubs Settle in place
/// of the five combat stats (800.18a, 800.61a); the others stay 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StatLine {
    pub vitality: i32,
    pub power: i32,
    pub speed: i32,
    pub armor: i32,
    pub focus: i32,
    pub durability: i32,
    pub settle: i32,
    /// The percent by which the fixed amounts of the card's clauses are
    /// raised (lowered, when negative) at this tier: 0 in every catalog,
    /// since a card prints its amounts in its clauses; only a tune's
    /// perturbation shifts it ([`scale_amount`]).
    pub amounts: i32,
}

/// An amount `n` raised by `percent`, rounded to the nearest whole number
/// (a half away from zero): how a tune's perturbation shifts a clause's
/// fixed amount, and how its proposal rewrites one, alike.
pub fn scale_amount(n: i32, percent: i32) -> i32 {
    let scaled = i64::from(n) * (100 + i64::from(percent));
    let rounded = if scaled >= 0 {
        (scaled + 50) / 100
    } else {
        (scaled - 50) / 100
    };
    rounded.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// A number of a card's printed line, named as its ladder is in a card file
/// (docs/card-format.md): what `gridsim tune` may move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StatField {
    Vitality,
    Power,
    Speed,
    Armor,
    Focus,
    Durability,
    Settle,
    /// The fixed amounts of the card's clauses, as a percent of what they
    /// print ([`StatLine::amounts`]).
    Amounts,
}

impl StatField {
    pub const ALL: [StatField; 8] = [
        StatField::Vitality,
        StatField::Power,
        StatField::Speed,
        StatField::Armor,
        StatField::Focus,
        StatField::Durability,
        StatField::Settle,
        StatField::Amounts,
    ];

    /// The ladder's key in a card file.
    pub fn name(self) -> &'static str {
        match self {
            StatField::Vitality => "vitality",
            StatField::Power => "power",
            StatField::Speed => "speed",
            StatField::Armor => "armor",
            StatField::Focus => "focus",
            StatField::Durability => "durability",
            StatField::Settle => "settle",
            StatField::Amounts => "amounts",
        }
    }

    /// Whether a card of `kind` prints this ladder: a Tool only Durability,
    /// a Hub only Settle (800.18a, 800.61a), any other kind the five combat
    /// stats.
    pub fn printed_by(self, kind: CardKind) -> bool {
        if self == StatField::Amounts {
            // Any kind's clauses may print fixed amounts.
            return true;
        }
        match kind {
            CardKind::Tool => self == StatField::Durability,
            CardKind::Hub => self == StatField::Settle,
            _ => !matches!(self, StatField::Durability | StatField::Settle),
        }
    }

    pub fn parse(name: &str) -> Option<StatField> {
        StatField::ALL.into_iter().find(|f| f.name() == name)
    }

    /// This number of `line`.
    #[inline]
    pub fn of(self, line: &StatLine) -> i32 {
        match self {
            StatField::Vitality => line.vitality,
            StatField::Power => line.power,
            StatField::Speed => line.speed,
            StatField::Armor => line.armor,
            StatField::Focus => line.focus,
            StatField::Durability => line.durability,
            StatField::Settle => line.settle,
            StatField::Amounts => line.amounts,
        }
    }

    #[inline]
    pub fn of_mut(self, line: &mut StatLine) -> &mut i32 {
        match self {
            StatField::Vitality => &mut line.vitality,
            StatField::Power => &mut line.power,
            StatField::Speed => &mut line.speed,
            StatField::Armor => &mut line.armor,
            StatField::Focus => &mut line.focus,
            StatField::Durability => &mut line.durability,
            StatField::Settle => &mut line.settle,
            StatField::Amounts => &mut line.amounts,
        }
    }
}

impl StatLine {
    /// The line with `by` added to every number: a unit whose card is
    /// printed differently for one fight (`gridsim tune`'s perturbations).
    #[inline]
    pub fn shifted(self, by: StatLine) -> StatLine {
        let mut out = self;
        for f in StatField::ALL {
            *f.of_mut(&mut out) = f.of(&self).saturating_add(f.of(&by));
        }
        out
    }
}

/// Innate keywords, one slot per [`KeywordName`]: `None` when the card does
/// not print the keyword, `Some(None)` for a printed flag keyword (one that
/// takes no amount), `Some(Some(amount))` for a printed keyword with its
/// amount. Amounts are evaluated at the unit's tier when the unit is placed.
/// Indexed by the enum itself, so a new keyword needs no new field or list.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Keywords([Option<Option<Amount>>; KeywordName::COUNT]);

// The table is indexed by `name as usize`, which must be the keyword's place
// in `KeywordName::ALL` (so `names()` reads the table in the enum's order).
const _: () = {
    let mut i = 0;
    while i < KeywordName::COUNT {
        assert!(KeywordName::ALL[i] as usize == i);
        i += 1;
    }
};

impl Default for Keywords {
    fn default() -> Keywords {
        Keywords([None; KeywordName::COUNT])
    }
}

impl Keywords {
    /// Whether the card prints `name`.
    #[inline]
    pub fn has(&self, name: KeywordName) -> bool {
        self.0[name as usize].is_some()
    }

    /// The printed amount of `name`; `None` when it is absent or a flag.
    #[inline]
    pub fn amount(&self, name: KeywordName) -> Option<Amount> {
        self.0[name as usize].flatten()
    }

    /// Marks `name` as printed, with its amount (`None` for a flag keyword).
    pub fn set(&mut self, name: KeywordName, amount: Option<Amount>) {
        debug_assert_eq!(amount.is_some(), name.takes_amount(), "keyword `{name}`");
        self.0[name as usize] = Some(amount);
    }

    /// Names of the keywords present, for the `boards` table and reports.
    pub fn names(&self) -> Vec<&'static str> {
        KeywordName::ALL
            .iter()
            .filter(|&&k| self.has(k))
            .map(|k| k.name())
            .collect()
    }
}

/// The same text as a struct with one field per keyword (a flag as a bool,
/// an amount keyword as its `Option<Amount>`), because the catalog's
/// fingerprint hashes the debug form and run directories record it: the same
/// cards keep the same fingerprint.
impl std::fmt::Debug for Keywords {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let mut s = f.debug_struct("Keywords");
        for &k in KeywordName::ALL {
            if k.takes_amount() {
                s.field(k.name(), &self.amount(k));
            } else {
                s.field(k.name(), &self.has(k));
            }
        }
        s.finish()
    }
}

/// A card's ability clauses by lane (300.3), in resolution order within
/// each: what the activation sequence runs, in its order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lanes {
    /// Crush and Smash moved to the front (900.2a).
    pub hoisted: Vec<Op>,
    pub activation: Vec<Op>,
    /// Lucid clauses, after the ordinary ones (800.41b).
    pub lucid: Vec<Op>,
    /// Resolved on the first activation only (800.36a).
    pub initiative: Vec<Op>,
    pub post: Vec<Op>,
}

impl Lanes {
    /// Splits clauses, each with the lane its card names, into the lanes
    /// they resolve in, keeping authored order within each.
    pub fn split(clauses: impl IntoIterator<Item = (Op, Lane)>) -> Lanes {
        let mut lanes = Lanes::default();
        for (op, named) in clauses {
            let is_lucid = op.condition == Some(Condition::Lucid);
            // 900.1a, 800.13f: authored Maim and Cull are post-damage
            // effects, whichever lane the clause names.
            let lane = if matches!(op.effect, Effect::Maim | Effect::Cull) {
                Lane::PostDamage
            } else {
                named
            };
            match lane {
                // 900.2a/900.2c: ordinary Crush and Smash move to the front,
                // keeping their relative order; 900.2d: Crush on Frozen
                // enemies stays in authored order.
                Lane::Activation if op.effect.is_armor_setup() && op.scope != Scope::FrozenEnemies && !is_lucid => {
                    lanes.hoisted.push(op)
                }
                // 800.41b: Lucid clauses resolve after the ordinary ones.
                Lane::Activation if is_lucid => lanes.lucid.push(op),
                Lane::Activation => lanes.activation.push(op),
                // 900.1a: post-damage effects resolve in authored order.
                Lane::PostDamage => lanes.post.push(op),
                // 800.36a: kept apart, resolved on the first activation only.
                Lane::Initiative => lanes.initiative.push(op),
            }
        }
        lanes
    }
}

/// One lowered clause.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Op {
    pub effect: Effect,
    pub amount: Option<Amount>,
    pub scope: Scope,
    /// Picks for a count-limited scope; 0 otherwise.
    pub count: u8,
    pub condition: Option<Condition>,
    /// Authored duration, or 0 for the rules' default.
    pub duration_ms: i32,
    /// The card's bit for a once-per-battle clause (900.6e), or [`Op::NOT_ONCE`].
    pub once_slot: u8,
    /// A stat gain that decays away over five seconds (800.25a).
    pub fleeting: bool,
    /// Reaches Entrapped units in scope and passes their gate (800.17d,
    /// 800.19d).
    pub through_entrap: bool,
    /// A Piercing Roar that drains a boss's Power too (800.50c).
    pub drains_boss: bool,
    /// Gate: the acting unit has more of the stat than the compared enemy,
    /// its target or the event's other unit (800.46a).
    pub overmatch: Option<StatName>,
}

impl Op {
    pub const NOT_ONCE: u8 = u8::MAX;
}

/// A Tool's effect package (800.71c-800.71e), its effects already ordered
/// with Crush and Smash first (900.3e).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Package {
    pub event: PackageEvent,
    pub timing: Option<PackageTiming>,
    pub adjacent: bool,
    pub chance_percent: Option<i32>,
    pub overmatch: Option<StatName>,
    pub ops: OpRange,
    /// Holds an immediate activation Crush or Smash (900.3c, 900.3d).
    pub armor_setup: bool,
}

/// A half-open range of ops in [`Catalog::ops`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpRange {
    pub start: u32,
    pub end: u32,
}

impl OpRange {
    #[inline]
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
    #[inline]
    pub fn indices(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// A passive line: its event and the clause it resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Passive {
    pub trigger: Trigger,
    pub op: Op,
}

/// A card as the engine reads it. The ability is already split into the
/// lanes of the activation sequence (300.3), with armor setup hoisted
/// (900.2a) and Lucid clauses moved behind the ordinary ones (800.41b).
#[derive(Debug, Clone)]
pub struct Card {
    pub key: String,
    pub name: String,
    pub kind: CardKind,
    pub footprint: Footprint,
    pub tribe: String,
    /// One line per tier; tier `t` is `stats[t - 1]`.
    pub stats: Vec<StatLine>,
    pub keywords: Keywords,
    pub base_hit: bool,
    pub bloodletting: Option<Amount>,
    pub hoisted: OpRange,
    pub activation: OpRange,
    pub lucid: OpRange,
    /// Clauses resolved on the unit's first activation only (800.36a).
    pub initiative: OpRange,
    pub post_damage: OpRange,
    /// Range into [`Catalog::passives`].
    pub passives: OpRange,
    /// Range into [`Catalog::packages`], armor-setup packages first (900.3d).
    pub packages: OpRange,
    /// Some package holds an immediate activation Crush or Smash, so this
    /// Tool resolves before the others (900.3c).
    pub armor_setup_tool: bool,
    /// A Tool with no Durability ladder never wears out (800.18b).
    pub permanent: bool,
    /// The card starts every battle Dormant and wakes on this (800.16f).
    pub wake: Option<Wake>,
    /// What it turns into as it wakes (800.16h).
    pub awaken_into: Option<AwakenInto>,
    /// The card's Entrap duration at each tier, tier 1 first, overriding
    /// the applied duration (800.19e); empty when the card has none.
    pub entrap_ms: Vec<i32>,
    /// A boss's Stagger meter size, 0 for none (800.66b).
    pub stagger: i32,
    /// A boss's phases in order (800.48a); each phase is a card of its own
    /// (key `BOSS#phaseN`), never placed on a board.
    pub phases: Vec<Phase>,
    /// This card is a phase of the boss with this id.
    pub phase_of: Option<CardId>,
    /// Runes the card carries itself, at full potency (a boss's signature
    /// runes, such as the boss Reflect rune, 900.26d).
    pub innate_runes: Vec<(RuneId, u8)>,
    /// A Quest: the event it counts and the count that completes it (800.54a).
    pub quest: Option<(crate::ability::QuestEvent, i32)>,
    /// A named counter (200.3b).
    pub counter: Option<NamedCounter>,
}

/// A card's named counter, the printed X of the Tally Savant and Master
/// Appraiser Pennies (200.3b): it starts at `start`, gains `gain` on each
/// `on` event of its side, and persists with the unit for the rest of a
/// match; an amount reads it as `N per counter`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedCounter {
    /// The name the card prints (`X`).
    pub name: String,
    pub start: i32,
    pub on: crate::ability::QuestEvent,
    pub gain: i32,
}

/// One phase of a boss (800.48a).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Phase {
    /// Vitality at or below this percent of the maximum starts it.
    pub below_percent: i32,
    pub card: CardId,
}

/// An awakening that transforms the unit (800.16h): the printed filter and
/// the cards that match it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AwakenInto {
    pub tribe: String,
    /// The printed tier cap: the new card comes at the unit's tier, at most
    /// this.
    pub max_tier: u8,
    /// The combat cards of the tribe with the unit's footprint, itself and
    /// Dormant cards aside, in catalog order.
    pub candidates: Vec<CardId>,
}

/// A wake condition (800.16f): combat time, or a count of events caused by
/// the unit's side, in occurrences or in an amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wake {
    AfterMs(i32),
    AllyActivations(i32),
    AllyDamage(i32),
}

impl Card {
    pub fn tiers(&self) -> u8 {
        self.stats.len() as u8
    }
    /// The printed line at `tier` (1-based), clamped into the ladder.
    #[inline]
    pub fn at_tier(&self, tier: u8) -> StatLine {
        let i = (tier.max(1) as usize - 1).min(self.stats.len().saturating_sub(1));
        self.stats.get(i).copied().unwrap_or_default()
    }
    pub fn has_ability(&self) -> bool {
        self.base_hit
            || !self.hoisted.is_empty()
            || !self.activation.is_empty()
            || !self.lucid.is_empty()
            || !self.initiative.is_empty()
            || !self.post_damage.is_empty()
    }
}

/// What a printed stat ladder may hold: the loader's bounds, which a
/// tune's proposals keep too.
pub const LADDER_VALUES: std::ops::RangeInclusive<i32> = -100_000..=1_000_000;

/// What a per-tier amount (`amount = [9, 13, 16]`) may hold.
pub const AMOUNT_LADDER_VALUES: std::ops::RangeInclusive<i32> = 0..=1_000_000;

/// Every card of a run, with the ability IR in flat arenas.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub cards: Vec<Card>,
    pub ops: Vec<Op>,
    pub passives: Vec<Passive>,
    pub packages: Vec<Package>,
    pub runes: Vec<Rune>,
    pub resonances: Vec<Resonance>,
    /// The numbers of every per-tier amount (`amount = [9, 13, 16]`),
    /// one run per amount, addressed by [`crate::ability::LadderRef`].
    pub amount_ladders: Vec<i32>,
}

/// Index of a rune in [`Catalog::runes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct RuneId(pub u16);

/// Index of a resonance in [`Catalog::resonances`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ResonanceId(pub u16);

/// One line of a rune: what it grants at each tier (tier `t` is
/// `amounts[t - 1]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuneLine {
    pub effect: crate::ability::RuneEffect,
    pub amounts: Vec<i32>,
}

/// A board rune (900.24): placed on a rune board, it projects its lines
/// onto the units of the rows or columns it faces. A boss may carry one as
/// an innate rune instead (the boss Reflect rune, 900.26d).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rune {
    pub key: String,
    pub name: String,
    pub lines: Vec<RuneLine>,
    /// Carried by a card itself, never placed on a rune board.
    pub innate_only: bool,
}

impl Rune {
    /// Tiers on its ladder (every line has the same length).
    pub fn tiers(&self) -> u8 {
        self.lines.first().map_or(1, |l| l.amounts.len() as u8)
    }
}

/// One line of a resonance: `per_level` x the side's resonance level,
/// for the whole battle or its first `duration_ms` (800.58e).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResonanceLine {
    pub effect: crate::ability::RuneEffect,
    pub per_level: i32,
    /// 0: the whole battle.
    pub duration_ms: i32,
}

/// A resonance (800.58): one equipped per side, applied to every eligible
/// allied unit, scaled by the side's resonance level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resonance {
    pub key: String,
    pub name: String,
    pub lines: Vec<ResonanceLine>,
}

impl Catalog {
    #[inline]
    pub fn card(&self, id: CardId) -> &Card {
        &self.cards[id.0 as usize]
    }

    pub fn find(&self, key: &str) -> Option<CardId> {
        self.cards.iter().position(|c| c.key == key).map(|i| CardId(i as u16))
    }

    #[inline]
    pub fn rune(&self, id: RuneId) -> &Rune {
        &self.runes[id.0 as usize]
    }

    pub fn find_rune(&self, key: &str) -> Option<RuneId> {
        self.runes.iter().position(|r| r.key == key).map(|i| RuneId(i as u16))
    }

    #[inline]
    pub fn resonance(&self, id: ResonanceId) -> &Resonance {
        &self.resonances[id.0 as usize]
    }

    pub fn find_resonance(&self, key: &str) -> Option<ResonanceId> {
        self.resonances
            .iter()
            .position(|r| r.key == key)
            .map(|i| ResonanceId(i as u16))
    }

    #[inline]
    pub fn ops(&self, range: OpRange) -> &[Op] {
        &self.ops[range.indices()]
    }

    /// Fills every awakening's candidates once all cards are in (800.16h).
    pub fn resolve_awakenings(&mut self) {
        for i in 0..self.cards.len() {
            let Some(into) = &self.cards[i].awaken_into else {
                continue;
            };
            let footprint = self.cards[i].footprint;
            let candidates = self
                .cards
                .iter()
                .enumerate()
                .filter(|&(j, c)| {
                    j != i
                        && c.kind == CardKind::Combat
                        && c.footprint == footprint
                        && c.wake.is_none()
                        && c.tribe == into.tribe
                })
                .map(|(j, _)| CardId(j as u16))
                .collect();
            if let Some(into) = &mut self.cards[i].awaken_into {
                into.candidates = candidates;
            }
        }
    }

    /// An amount that reads no board state (a whole number, `N x tier`, one
    /// number per tier) at `tier`; any other is 0. Keywords, `sold` lines
    /// and `while_insured` layers hold only these.
    #[inline]
    pub fn fixed_amount(&self, amount: Amount, tier: u8) -> i32 {
        match amount {
            Amount::Const(n) => n,
            Amount::PerTier(n) => n.saturating_mul(i32::from(tier)),
            Amount::Ladder(l) => self.ladder_amount(l, tier),
            _ => 0,
        }
    }

    /// A per-tier amount at `tier`. A unit above the card's last printed
    /// tier reads the last number, as a stat ladder's last rung.
    #[inline]
    pub fn ladder_amount(&self, ladder: crate::ability::LadderRef, tier: u8) -> i32 {
        let t = usize::from(tier.clamp(1, ladder.tiers.max(1))) - 1;
        self.amount_ladders[ladder.start as usize + t]
    }

    #[inline]
    pub fn passives_of(&self, id: CardId) -> &[Passive] {
        &self.passives[self.card(id).passives.indices()]
    }

    /// The Dividend a card's `sold` lines add when it is sold at `tier`
    /// (800.15d, 800.47d); the loader admits only fixed `gain_dividend`
    /// amounts there.
    pub fn sale_dividend(&self, id: CardId, tier: u8) -> i32 {
        self.passives_of(id)
            .iter()
            .filter(|p| p.trigger == Trigger::Sold && p.op.effect == Effect::GainDividend)
            .map(|p| p.op.amount.map_or(0, |a| self.fixed_amount(a, tier)))
            .fold(0, i32::saturating_add)
    }

    /// The clauses whose fixed amounts a unit's amount shift raises
    /// ([`StatLine::amounts`]): every clause the card resolves in battle
    /// with a fixed amount, so not its `while_insured` layers (set once at
    /// placement) nor its `sold` lines (a shop event).
    pub fn shifted_amount_ops(&self, id: CardId) -> impl Iterator<Item = &Op> {
        self.clauses_where(id, |p| !matches!(p.trigger, Trigger::WhileInsured | Trigger::Sold))
            .filter(|op| op.amount.is_some_and(Amount::is_fixed))
    }

    /// The card's amounts as one ladder, for a tune's ladder-order check:
    /// at each tier, the largest of its shifted clauses' fixed amounts;
    /// `None` when it has none.
    pub fn amount_ladder(&self, id: CardId) -> Option<Vec<i32>> {
        let tiers = self.card(id).tiers().max(1);
        let mut out: Option<Vec<i32>> = None;
        for op in self.shifted_amount_ops(id) {
            let Some(a) = op.amount else { continue };
            let ladder = out.get_or_insert_with(|| vec![i32::MIN; usize::from(tiers)]);
            for (t, v) in ladder.iter_mut().enumerate() {
                *v = (*v).max(self.fixed_amount(a, t as u8 + 1));
            }
        }
        out
    }

    /// Every clause a card holds: its ability lanes, its passive lines and
    /// its Tool packages.
    fn all_ops(&self, id: CardId) -> impl Iterator<Item = &Op> {
        self.clauses_where(id, |_| true)
    }

    /// A card's ability lanes, the passive lines `keep` admits, and its
    /// Tool packages.
    fn clauses_where(&self, id: CardId, keep: fn(&Passive) -> bool) -> impl Iterator<Item = &Op> {
        let card = self.card(id);
        [
            card.hoisted,
            card.activation,
            card.lucid,
            card.initiative,
            card.post_damage,
        ]
        .into_iter()
        .flat_map(|r| self.ops(r).iter())
        .chain(self.passives_of(id).iter().filter(move |p| keep(p)).map(|p| &p.op))
        .chain(self.packages_of(id).iter().flat_map(|p| self.ops(p.ops).iter()))
    }

    /// The keywords a card carries, for the `boards` table and the report:
    /// its innate keywords, the keyword effects and conditions its clauses
    /// use, Bloodletting, and its kind when that is a keyword. Sorted, unique.
    pub fn carried_keywords(&self, id: CardId) -> Vec<&'static str> {
        let card = self.card(id);
        let mut out = card.keywords.names();
        for op in self.all_ops(id) {
            let name = match op.effect {
                Effect::SubrogatedInsurance => Some("insurance"),
                Effect::GrantRabid => Some("rabid"),
                Effect::PushInitiative => Some("initiative"),
                Effect::Damage | Effect::Heal | Effect::GrantRelentless | Effect::Repair => None,
                Effect::GainArmor | Effect::GainPower | Effect::GainSpeed | Effect::GainFocus => None,
                e => Some(e.name()),
            };
            out.extend(name);
            match op.condition {
                Some(Condition::Lucid) => out.push("lucid"),
                Some(Condition::Bloodlust) => out.push("bloodlust"),
                _ => {}
            }
        }
        for p in self.passives_of(id) {
            match p.trigger {
                Trigger::Supercharge => out.push("supercharge"),
                Trigger::Poach => out.push("poach"),
                _ => {}
            }
        }
        if !card.initiative.is_empty() {
            out.push("initiative");
        }
        if card.bloodletting.is_some() {
            out.push("bloodletting");
        }
        match card.kind {
            CardKind::Penny => out.push("penny"),
            CardKind::Hub => out.push("hub"),
            CardKind::Tool => out.push("tool"),
            _ => {}
        }
        match card.footprint {
            Footprint::Large => out.push("large"),
            Footprint::Huge => out.push("huge"),
            _ => {}
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The keywords of section 800 a card shows, by their rule-book names
    /// (`AoE`, `Piercing Roar`): what a player reading the card would look
    /// up. A keyword counts when the card prints it, when a clause uses its
    /// effect, condition, trigger or count, or when the card's kind, size
    /// or printed fields make it one (a Hub's Settle, a Tool's Durability,
    /// a boss's phases and Stagger meter). Sorted by section, unique. The
    /// catalog test checks that the bundled cards show every keyword.
    pub fn rule_book_keywords(&self, id: CardId) -> Vec<&'static str> {
        use crate::ability::{Count, QuestEvent};
        let card = self.card(id);
        let mut out: Vec<&'static str> = Vec::new();
        let mut push = |k: &'static str| out.push(k);
        for &k in KeywordName::ALL.iter().filter(|&&k| card.keywords.has(k)) {
            match k {
                KeywordName::Relentless => push("Relentless"),
                KeywordName::Feast => push("Feast"),
                KeywordName::Rabid => push("Rabid"),
                KeywordName::Exalt => push("Exalt"),
                KeywordName::Insurance | KeywordName::Subrogated | KeywordName::Underwriting => push("Insurance"),
                KeywordName::Fury => push("Fury"),
                KeywordName::Brute => push("Brute"),
                KeywordName::Braced => push("Braced"),
                KeywordName::LucidPower => push("Lucid"),
                KeywordName::IgnitedFuryAura => push("Ignited"),
                KeywordName::Cascade => push("Cascade"),
                KeywordName::InitiativeRepeats => push("Initiative"),
                KeywordName::Everlasting => push("Everlasting"),
                KeywordName::Phylactery => push("Phylactery"),
                KeywordName::Runic => push("Runic"),
                KeywordName::Resonator => push("Resonance"),
                KeywordName::SettlePerHub => push("Settle"),
                KeywordName::Franchise => push("Franchise"),
                KeywordName::Thorns
                | KeywordName::Riposte
                | KeywordName::DamageCap
                | KeywordName::NoBurnSpread
                | KeywordName::Retort
                | KeywordName::Reflect
                | KeywordName::AllyDamageImmune => {}
            }
        }
        let mut counts: Vec<Count> = Vec::new();
        for op in self.all_ops(id) {
            let name = op.effect.keyword();
            out.extend(name);
            out.extend(match op.condition {
                Some(Condition::Lucid) => Some("Lucid"),
                Some(Condition::Bloodlust) => Some("Bloodlust"),
                Some(Condition::Ignited) => Some("Ignited"),
                Some(Condition::Highland) => Some("Highland"),
                Some(Condition::QuestComplete) => Some("Quest"),
                _ => None,
            });
            if op.fleeting {
                out.push("Fleeting");
            }
            if op.scope == Scope::FlankAllies {
                out.push("Flank");
            }
            if let Some(Amount::Per { count, .. }) = op.amount {
                counts.push(count);
            }
        }
        for count in counts {
            out.extend(match count {
                Count::FlankAlly => Some("Flank"),
                Count::Dividend => Some("Dividend"),
                Count::Profit => Some("Profit"),
                Count::Stock => Some("Stock"),
                _ => None,
            });
        }
        for p in self.passives_of(id) {
            out.extend(match p.trigger {
                Trigger::Acclimate => Some("Acclimate"),
                Trigger::Threat => Some("Threat"),
                Trigger::OtherDied => Some("Macabre"),
                Trigger::Supercharge => Some("Supercharge"),
                Trigger::Poach => Some("Poach"),
                Trigger::Cascaded | Trigger::AllyCascaded => Some("Cascade"),
                Trigger::Released => Some("Entrap"),
                Trigger::Awaken => Some("Dormant"),
                Trigger::HaywireEmptied => Some("Haywire"),
                Trigger::Feasted => Some("Feast"),
                Trigger::BloodlettingPaid => Some("Bloodletting"),
                Trigger::QuestCompleted => Some("Quest"),
                Trigger::InterestPaid => Some("Interest"),
                Trigger::VesselRevived => Some("Phylactery"),
                Trigger::EverlastingRevived => Some("Everlasting"),
                Trigger::ShieldDamaged | Trigger::ShieldBroken => Some("Shield"),
                Trigger::InsuranceGained | Trigger::AllyInsuranceGained | Trigger::WhileInsured => Some("Insurance"),
                Trigger::EnemyCulled => Some("Cull"),
                // A Hub's battle-start lines are its Markup (800.44a).
                Trigger::BattleStart if card.kind == CardKind::Hub => Some("Markup"),
                _ => None,
            });
        }
        if self.packages_of(id).iter().any(|p| p.overmatch.is_some()) || self.all_ops(id).any(|o| o.overmatch.is_some())
        {
            out.push("Overmatch");
        }
        if !card.initiative.is_empty() {
            out.push("Initiative");
        }
        if card.bloodletting.is_some() {
            out.push("Bloodletting");
        }
        if card.wake.is_some() {
            out.push("Dormant");
        }
        if card.quest.is_some() {
            out.push("Quest");
        }
        for event in card.quest.iter().map(|q| q.0).chain(card.counter.iter().map(|c| c.on)) {
            if event == QuestEvent::StockMinted {
                out.push("Stock");
            }
        }
        if card.stagger > 0 {
            out.push("Stagger");
        }
        if !card.phases.is_empty() {
            out.push("Phasebreak");
        }
        match card.kind {
            CardKind::Penny => out.push("Penny"),
            CardKind::Hub => {
                out.push("Hub");
                out.push("Settle");
            }
            CardKind::Tool => {
                out.push("Tool");
                if !card.permanent {
                    out.push("Durability");
                }
            }
            CardKind::Combat | CardKind::Boss => {}
        }
        match card.footprint {
            Footprint::Large => out.push("Large"),
            Footprint::Huge => out.push("Huge"),
            Footprint::Scrip | Footprint::Standard => {}
        }
        out.sort_unstable_by_key(|k| gridsim_core::rule_book::keyword_section(k));
        out.dedup();
        out
    }

    #[inline]
    pub fn packages_of(&self, id: CardId) -> &[Package] {
        &self.packages[self.card(id).packages.indices()]
    }

    /// A stable fingerprint of the catalog's contents (FNV-1a over the debug
    /// form), recorded with results so runs on different catalogs are told apart.
    pub fn fingerprint(&self) -> u64 {
        let text = format!("{:?}{:?}{:?}{:?}", self.cards, self.ops, self.passives, self.packages);
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in text.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(effect: Effect, scope: Scope, condition: Option<Condition>) -> Op {
        Op {
            effect,
            amount: None,
            scope,
            count: 0,
            condition,
            duration_ms: 0,
            once_slot: Op::NOT_ONCE,
            fleeting: false,
            through_entrap: false,
            drains_boss: false,
            overmatch: None,
        }
    }

    #[test]
    fn lanes_hoist_armor_setup_put_lucid_last_and_maim_after_damage() {
        let damage = op(Effect::Damage, Scope::Target, None);
        let crush = op(Effect::Crush, Scope::Target, None);
        let frozen_crush = op(Effect::Crush, Scope::FrozenEnemies, None);
        let lucid = op(Effect::Damage, Scope::Target, Some(Condition::Lucid));
        let maim = op(Effect::Maim, Scope::Target, None);
        let lanes = Lanes::split([
            (damage, Lane::Activation),
            (lucid, Lane::Activation),
            (frozen_crush, Lane::Activation),
            (crush, Lane::Activation),
            (maim, Lane::Activation),
        ]);
        // 900.2a: ordinary Crush moves to the front; 900.2d: Crush on
        // Frozen enemies keeps its authored place.
        assert_eq!(lanes.hoisted, vec![crush]);
        assert_eq!(lanes.activation, vec![damage, frozen_crush]);
        // 800.41b: Lucid after the ordinary clauses.
        assert_eq!(lanes.lucid, vec![lucid]);
        // 900.1a, 800.13f: Maim is post-damage whatever lane it names.
        assert_eq!(lanes.post, vec![maim]);
        assert!(lanes.initiative.is_empty());
    }
}
