//! The compiled catalog: dense card tables and the ability IR the engine
//! interprets. Built once by the loader; never changes during a run.

use crate::ability::{Amount, CardKind, Condition, Effect, Footprint, KeywordName, Scope, Trigger};

/// Index of a card in [`Catalog::cards`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
}

/// Innate keywords; amounts are evaluated at the unit's tier at battle start.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Keywords {
    pub relentless: bool,
    pub feast: bool,
    pub rabid: bool,
    pub thorns: Option<Amount>,
    pub riposte: Option<Amount>,
    pub underwriting: Option<Amount>,
    pub exalt: Option<Amount>,
    pub insurance: Option<Amount>,
    pub subrogated: Option<Amount>,
    pub damage_cap: Option<Amount>,
}

impl Keywords {
    /// Names of the keywords present, for the `boards` table and reports.
    pub fn names(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        let flags = [
            (self.relentless, KeywordName::Relentless),
            (self.feast, KeywordName::Feast),
            (self.rabid, KeywordName::Rabid),
            (self.thorns.is_some(), KeywordName::Thorns),
            (self.riposte.is_some(), KeywordName::Riposte),
            (self.underwriting.is_some(), KeywordName::Underwriting),
            (self.exalt.is_some(), KeywordName::Exalt),
            (self.insurance.is_some(), KeywordName::Insurance),
            (self.subrogated.is_some(), KeywordName::Subrogated),
            (self.damage_cap.is_some(), KeywordName::DamageCap),
        ];
        for (on, name) in flags {
            if on {
                out.push(name.name());
            }
        }
        out
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
}

/// A half-open range of ops in [`Catalog::ops`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpRange {
    pub start: u32,
    pub end: u32,
}

impl OpRange {
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
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
    pub post_damage: OpRange,
    /// Range into [`Catalog::passives`].
    pub passives: OpRange,
}

impl Card {
    pub fn tiers(&self) -> u8 {
        self.stats.len() as u8
    }
    /// The printed line at `tier` (1-based), clamped into the ladder.
    pub fn at_tier(&self, tier: u8) -> StatLine {
        let i = (tier.max(1) as usize - 1).min(self.stats.len().saturating_sub(1));
        self.stats.get(i).copied().unwrap_or_default()
    }
    pub fn has_ability(&self) -> bool {
        self.base_hit
            || !self.hoisted.is_empty()
            || !self.activation.is_empty()
            || !self.lucid.is_empty()
            || !self.post_damage.is_empty()
    }
}

/// Every card of a run, with the ability IR in flat arenas.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub cards: Vec<Card>,
    pub ops: Vec<Op>,
    pub passives: Vec<Passive>,
}

impl Catalog {
    pub fn card(&self, id: CardId) -> &Card {
        &self.cards[id.0 as usize]
    }

    pub fn find(&self, key: &str) -> Option<CardId> {
        self.cards.iter().position(|c| c.key == key).map(|i| CardId(i as u16))
    }

    pub fn ops(&self, range: OpRange) -> &[Op] {
        &self.ops[range.indices()]
    }

    pub fn passives_of(&self, id: CardId) -> &[Passive] {
        &self.passives[self.card(id).passives.indices()]
    }

    /// A stable fingerprint of the catalog's contents (FNV-1a over the debug
    /// form), recorded with results so runs on different catalogs are told apart.
    pub fn fingerprint(&self) -> u64 {
        let text = format!("{:?}{:?}{:?}", self.cards, self.ops, self.passives);
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in text.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h
    }
}
