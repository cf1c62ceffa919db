//! The bots: how a seat decides. The match loop asks a [`Bot`] at each
//! choice a player makes (where to shop, what to do next in a shop, which
//! boss or ghost to claim) and carries out the answer by the rules, so a
//! bot can choose but never break a rule: an answer the rules refuse (an
//! item it cannot pay for, a level it cannot buy) ends its visit.
//!
//! The suite names a seat's bot by its [`Policy`]; a new bot is a type
//! implementing [`Bot`] and a name in `Policy`.

use super::shop::{self, Destination, Item, Sold};
use super::{Carried, MatchCtx, Player, Policy, board_strength, boss_entrant, trial_score};
use crate::engine::Engine;

/// A purchase worth making: its gain in value by the suite's table, where
/// it is (an index into the visit's offers, or into the buyback list) and
/// the item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    pub gain: i32,
    pub index: usize,
    pub from_buyback: bool,
    pub item: Item,
}

/// What a bot does next in a shop (200.1b, 200.1f).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShopAction {
    /// Buys offer `index`, or buyback item `index` when `from_buyback`.
    Buy { index: usize, from_buyback: bool },
    /// Sells the unit at `index` of the player's units.
    Sell(usize),
    /// Buys XP with Gold.
    BuyXp,
    /// Pays for new offers.
    Reroll,
    /// Ends the visit.
    Leave,
}

/// What a bot sees of one shop visit besides its own seat.
pub struct ShopView<'v> {
    pub round: u8,
    /// The match's index, which numbers a planner's trial streams.
    pub match_index: u64,
    pub offers: &'v [Item],
    /// The party's sold items, open to buy back in Shop 2 (200.1f).
    pub buyback: Option<&'v [Sold]>,
    /// Rerolls paid for in this visit so far.
    pub rerolls: usize,
}

/// One seat's boss claim as every seat sees it in the draft (200.1c): the
/// strength of its board and of the boss it claimed, by the value table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claim {
    pub board: i64,
    pub boss: i64,
}

/// Rerolls a bot allows itself per visit.
const REROLLS_PER_VISIT: usize = 2;

/// A seat's decisions. Every method has the greedy bot's answer, so a bot
/// overrides only the choices it makes differently.
pub trait Bot: Sync {
    /// The destination among `offered` (200.1f): the store when it can buy
    /// a unit, the runesmith when it can buy a rune and has a free rune
    /// place, else the vault (or the first offered).
    fn choose_destination(&self, ctx: &MatchCtx, p: &Player, offered: &[Destination]) -> Destination {
        let funds = p.wallet.gold + p.wallet.dividend;
        let wants = |d: Destination| match d {
            Destination::Store => funds >= ctx.rules.shop.unit_cost,
            Destination::Runesmith => {
                funds >= ctx.rules.shop.rune_cost && shop::free_rune_place(ctx, &p.runes).is_some()
            }
            Destination::Vault => true,
        };
        Destination::ALL
            .into_iter()
            .find(|&d| offered.contains(&d) && wants(d))
            .unwrap_or(offered[0])
    }

    /// The next thing to do in a shop: buy the purchase
    /// [`Bot::choose_purchase`] picks among those worth making (an item it
    /// sold only when it completes a combine); with none, on a board full
    /// by its cap or by its grid, sell the weakest unit when an offer is
    /// worth more and can then be paid, else (at the cap) buy a level; else
    /// reroll (twice a visit at most below the top level, keeping enough to
    /// buy after); else put what is left into XP; else leave.
    fn shop_action(&self, ctx: &MatchCtx, engine: &mut Engine, p: &mut Player, view: &ShopView) -> ShopAction {
        let funds = p.wallet.gold + p.wallet.dividend;
        let affordable = |item: Item| shop::cost(ctx, item) <= funds;
        let can_level = p.level < ctx.rules.shop.max_level && funds >= ctx.rules.shop.xp_cost;
        let mut candidates: Vec<Candidate> = Vec::new();
        for (index, &item) in view.offers.iter().enumerate() {
            if affordable(item)
                && let Some(gain) = shop::gain(ctx, p, item)
            {
                candidates.push(Candidate {
                    gain,
                    index,
                    from_buyback: false,
                    item,
                });
            }
        }
        // What it sold itself comes back only to complete a combine: bought
        // back otherwise, it costs more than it was sold for and returns
        // without its counters (200.3b). A teammate's sale is an offer like
        // any other.
        for (index, s) in view.buyback.unwrap_or_default().iter().enumerate() {
            if affordable(s.item)
                && (s.seller != p.seat || shop::completes_combine(ctx, p, s.item))
                && let Some(gain) = shop::gain(ctx, p, s.item)
            {
                candidates.push(Candidate {
                    gain,
                    index,
                    from_buyback: true,
                    item: s.item,
                });
            }
        }
        candidates.retain(|c| c.gain > 0);
        candidates.sort_by_key(|c| (std::cmp::Reverse(c.gain), c.from_buyback, c.index));
        if !candidates.is_empty() {
            let c = self.choose_purchase(ctx, engine, p, view, &candidates);
            return ShopAction::Buy {
                index: c.index,
                from_buyback: c.from_buyback,
            };
        }
        let at_cap = p.units.len() >= shop::capacity(ctx, p.level);
        // The weakest unit for sale: one carrying Quest progress or a named
        // counter would lose it when sold (200.3a, 200.3b).
        let for_sale = p
            .units
            .iter()
            .enumerate()
            .filter(|(_, o)| o.kept.quest == 0 && o.kept.counter.is_none())
            .map(|(i, o)| (i, shop::unit_value(ctx, o.card, o.tier)))
            .min_by_key(|&(i, v)| (v, i));
        // The grid binds before the cap when an offer worth more than that
        // unit has no free cell of its size.
        let grid_bound = !at_cap
            && view.offers.iter().any(|&item| match item {
                Item::Unit(c, t) => {
                    for_sale.is_some_and(|(_, w)| shop::unit_value(ctx, c, t) > w)
                        && shop::free_cell(ctx, &p.units, c).is_none()
                }
                Item::Rune(..) => false,
            });
        if at_cap || grid_bound {
            if let Some((weakest, wv)) = for_sale {
                let refund = ctx.rules.shop.sell_gold_per_tier * i32::from(p.units[weakest].tier);
                let side = ctx.catalog.card(p.units[weakest].card).footprint.side();
                let better = view.offers.iter().any(|&item| match item {
                    Item::Unit(c, t) => {
                        shop::unit_value(ctx, c, t) > wv
                            && shop::cost(ctx, item) <= funds + refund
                            && ctx.catalog.card(c).footprint.side() <= side
                    }
                    Item::Rune(..) => false,
                });
                if better {
                    return ShopAction::Sell(weakest);
                }
            }
            // A full board grows with a level.
            if at_cap && can_level {
                return ShopAction::BuyXp;
            }
        }
        let cheapest = view.offers.iter().map(|&i| shop::cost(ctx, i)).min().unwrap_or(0);
        // At the top level nothing else turns Gold into strength: it rerolls
        // for as long as it can still buy after.
        let rerolls_allowed = if p.level < ctx.rules.shop.max_level {
            REROLLS_PER_VISIT
        } else {
            usize::MAX
        };
        if view.rerolls < rerolls_allowed
            && funds >= ctx.rules.shop.reroll_cost + ctx.rules.shop.unit_cost.min(cheapest.max(1))
        {
            return ShopAction::Reroll;
        }
        // Gold kept buys nothing later that a level bought now does not
        // also buy: what is left goes into XP.
        if can_level {
            return ShopAction::BuyXp;
        }
        ShopAction::Leave
    }

    /// The purchase to make among `candidates` (never empty), best first by
    /// the value table: the first.
    fn choose_purchase(
        &self,
        _ctx: &MatchCtx,
        _engine: &mut Engine,
        _p: &mut Player,
        _view: &ShopView,
        candidates: &[Candidate],
    ) -> Candidate {
        candidates[0]
    }

    /// Whether seat `seat` cancels its boss claim before combat (200.1c),
    /// seeing every seat's claim: when some teammate holds its claim the
    /// other way round (a weaker board on a stronger boss while this seat
    /// has a weaker boss, or a stronger board on a weaker boss while this
    /// seat has a stronger one). The draft then lets the cancelled seats
    /// claim again weakest board first, so the pair swaps.
    fn cancels_claim(&self, _ctx: &MatchCtx, seat: usize, claims: &[Claim]) -> bool {
        let me = claims[seat];
        claims.iter().enumerate().any(|(t, c)| {
            t != seat && ((c.board < me.board && c.boss > me.boss) || (c.board > me.board && c.boss < me.boss))
        })
    }

    /// The option to claim among `boards` (boss or ghost options, never
    /// empty): the weakest by the value table.
    fn claim(
        &self,
        ctx: &MatchCtx,
        _engine: &mut Engine,
        _p: &mut Player,
        _round: u8,
        _index: u64,
        boards: &[&Carried],
    ) -> usize {
        weakest(ctx, boards)
    }
}

/// The weakest of `boards` by the value table, the first on a tie.
fn weakest(ctx: &MatchCtx, boards: &[&Carried]) -> usize {
    (0..boards.len())
        .min_by_key(|&k| (board_strength(ctx, &boards[k].board), k))
        .unwrap_or(0)
}

/// Buys the offer of most value (the suite's value table), claims the
/// weakest boss and ghost by the same table.
pub struct Greedy;

impl Bot for Greedy {}

/// Ranks as the greedy bot does, then plays a few fights with each of the
/// best buys (and each boss and ghost option) and takes the one that wins
/// most.
pub struct Planner;

impl Bot for Planner {
    /// Each of the best few tried on a copy of the player against this
    /// round's first boss option, on the same trial streams (common random
    /// numbers); most wins, then the greedy order.
    fn choose_purchase(
        &self,
        ctx: &MatchCtx,
        engine: &mut Engine,
        p: &mut Player,
        view: &ShopView,
        candidates: &[Candidate],
    ) -> Candidate {
        let round = view.round;
        let option = &ctx.suite.bosses[usize::from(round - 1) % ctx.suite.bosses.len()];
        let boss = boss_entrant(ctx, option, round);
        let mut best = (i32::MIN, 0usize);
        for (k, c) in candidates.iter().take(super::PLANNER_CANDIDATES).enumerate() {
            let mut trial = p.clone();
            let mut scratch = Vec::new();
            if !shop::buy(ctx, &mut trial, c.item, round, None, &mut scratch) {
                continue;
            }
            let me = Carried::fresh(
                trial.board(String::new()),
                trial.wallet.dividend,
                trial.wallet.profit,
                &trial.kept(),
            );
            let score = trial_score(ctx, engine, round, &me, &boss, p.planned, view.match_index, p.seat);
            if score > best.0 {
                best = (score, k);
            }
        }
        p.planned += u64::from(ctx.suite.planner_fights);
        candidates[best.1]
    }

    /// The option it beats most in trial fights, then the weakest.
    fn claim(
        &self,
        ctx: &MatchCtx,
        engine: &mut Engine,
        p: &mut Player,
        round: u8,
        index: u64,
        boards: &[&Carried],
    ) -> usize {
        if boards.len() < 2 {
            return weakest(ctx, boards);
        }
        let me = Carried::fresh(p.board(String::new()), p.wallet.dividend, p.wallet.profit, &p.kept());
        let mut best = (i32::MIN, i64::MAX, 0usize);
        for (k, b) in boards.iter().enumerate() {
            let strength = board_strength(ctx, &b.board);
            let s = trial_score(ctx, engine, round, &me, b, p.planned, index, p.seat);
            if (s, -strength) > (best.0, -best.1) {
                best = (s, strength, k);
            }
        }
        p.planned += u64::from(ctx.suite.planner_fights);
        best.2
    }
}

impl Policy {
    /// The bot that plays this policy.
    pub fn bot(self) -> &'static dyn Bot {
        match self {
            Policy::Greedy => &Greedy,
            Policy::Planner => &Planner,
        }
    }
}
