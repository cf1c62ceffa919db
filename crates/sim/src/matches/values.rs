//! What a bot thinks a unit, a rune and a free place are worth. Two tables:
//! the suite's table (a card's printed numbers, or the suite's own values,
//! docs/matches.md), which most bots read, and a table measured by fights,
//! which the `measured` bot reads, so that at least one bot values offers
//! by what the cards do in the engine rather than by a formula of their
//! numbers.

use super::fights::{Carried, fight};
use super::{MatchCtx, MatchSuite};
use gridsim_engine::{Engine, FightRng};
use gridsim_model::catalog::{CardId, Catalog, RuneId};
use gridsim_model::spec::Side;
use gridsim_model::spec::{BoardSpec, Placement};

/// A rune's worth per tier when the suite's table does not say.
const DEFAULT_RUNE_VALUE: i32 = 8;
/// The measured table's stream key, apart from every match stream.
const MEASURE_KEY: u64 = 0x4d45_4153_0000_0004;
/// Points a measured duel is worth: a win 2, a draw 1, a loss 0; a card's
/// measured worth is its points over every duel, scaled so that an even
/// record is worth `MEASURED_EVEN`.
const MEASURED_EVEN: i64 = 20;

/// Worth per card and tier, per rune and tier, and of a free place.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Values {
    /// By card id, then tier - 1.
    unit: Vec<Vec<i32>>,
    /// By rune id: worth per tier.
    rune: Vec<i32>,
    /// What a free place on the board is worth: the mean tier-1 worth of
    /// the cards the shop offers, which a combine's freed places count at.
    place: i32,
}

impl Values {
    /// The suite's table: its `[values]` and `[rune_values]`, else a card's
    /// tier-1 numbers (Vitality weighed as one tenth) times the tier.
    pub fn table(catalog: &Catalog, suite: &MatchSuite, pool: &[CardId]) -> Values {
        let mut per_tier: Vec<i32> = catalog.cards.iter().map(default_value).collect();
        for &(c, v) in &suite.values {
            per_tier[c.0 as usize] = v;
        }
        let unit = catalog
            .cards
            .iter()
            .zip(&per_tier)
            .map(|(card, &v)| (1..=card.tiers()).map(|t| v.saturating_mul(i32::from(t))).collect())
            .collect();
        let mut rune: Vec<i32> = catalog.runes.iter().map(|_| DEFAULT_RUNE_VALUE).collect();
        for &(r, v) in &suite.rune_values {
            rune[r.0 as usize] = v;
        }
        let mut values = Values { unit, rune, place: 0 };
        values.place = values.mean_tier_one(pool);
        values
    }

    /// The table measured by fights: each card of the pool, at each tier,
    /// alone on its board against each card of the pool alone at the same
    /// tier, one fight each on the measure's own streams; its worth is its
    /// points (a win 2, a draw 1) scaled so that an even record is worth
    /// `MEASURED_EVEN`. Runes keep the suite's table. The same catalog,
    /// rules and seed give the same table.
    pub fn measured(ctx: &MatchCtx, table: &Values) -> Values {
        let mut engine = Engine::new(ctx.catalog, ctx.rules);
        let alone = |card: CardId, tier: u8| {
            let board = BoardSpec {
                units: vec![Placement {
                    card,
                    tier,
                    column: 0,
                    row: 0,
                    combined: false,
                }],
                ..BoardSpec::default()
            };
            Carried::fresh(board, 0, 0, &[])
        };
        let mut unit: Vec<Vec<i32>> = table.unit.clone();
        let pool = &ctx.unit_pool;
        for (i, &card) in pool.iter().enumerate() {
            let tiers = ctx.catalog.card(card).tiers();
            for tier in 1..=tiers {
                let me = alone(card, tier);
                let mut points = 0i64;
                for (j, &other) in pool.iter().enumerate() {
                    let them = alone(other, tier.min(ctx.catalog.card(other).tiers()));
                    let key = ((i as u64) << 24) | ((j as u64) << 8) | u64::from(tier);
                    let rng = FightRng::for_fight(ctx.suite.master_seed ^ MEASURE_KEY, key);
                    let f = fight(ctx, &mut engine, 1, &me, &them, rng);
                    points += match f.outcome.winner {
                        Some(Side::Left) => 2,
                        None => 1,
                        Some(Side::Right) => 0,
                    };
                }
                // An even record (points = pool size) is worth MEASURED_EVEN.
                let worth = (points * MEASURED_EVEN / pool.len().max(1) as i64).max(1);
                unit[card.0 as usize][usize::from(tier) - 1] = worth as i32;
            }
        }
        let mut values = Values {
            unit,
            rune: table.rune.clone(),
            place: 0,
        };
        values.place = values.mean_tier_one(pool);
        values
    }

    /// `card` at `tier` (its top tier when higher).
    pub fn unit(&self, card: CardId, tier: u8) -> i32 {
        let ladder = &self.unit[card.0 as usize];
        let at = usize::from(tier.max(1)).min(ladder.len()).max(1);
        ladder.get(at - 1).copied().unwrap_or(1)
    }

    pub fn rune(&self, rune: RuneId, tier: u8) -> i32 {
        self.rune[rune.0 as usize].saturating_mul(i32::from(tier))
    }

    /// What a free place is worth.
    pub fn place(&self) -> i32 {
        self.place
    }

    /// A board's worth: its units' and runes'.
    pub fn board(&self, board: &BoardSpec) -> i64 {
        board
            .units
            .iter()
            .map(|p| i64::from(self.unit(p.card, p.tier)))
            .sum::<i64>()
            + board
                .runes
                .iter()
                .map(|r| i64::from(self.rune(r.rune, r.tier)))
                .sum::<i64>()
    }

    fn mean_tier_one(&self, pool: &[CardId]) -> i32 {
        if pool.is_empty() {
            return 0;
        }
        let total: i64 = pool.iter().map(|&c| i64::from(self.unit(c, 1))).sum();
        (total / pool.len() as i64) as i32
    }
}

/// A card's worth per tier when the suite's table does not say: its
/// tier-1 numbers, Vitality weighed as one tenth (docs/matches.md).
fn default_value(card: &gridsim_model::catalog::Card) -> i32 {
    let s = card.at_tier(1);
    let keywords = card.keywords.names().len() as i32;
    (s.vitality / 10 + s.power + s.armor / 4 + s.focus / 10 + s.speed / 5 + 3 * keywords + s.settle).max(1)
}
