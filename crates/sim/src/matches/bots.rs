//! The bots: how a seat decides. The match loop asks a [`Bot`] at each
//! choice a player makes (where to shop, what to do next in a shop, which
//! boss or ghost to claim) and carries out the answer by the rules, so a
//! bot can choose but never break a rule: an answer the rules refuse (an
//! item it cannot pay for, a level it cannot buy) ends its visit. Each
//! answer carries its [`Reason`], which the log prints beside the choice.
//!
//! The suite names a seat's bot by its [`Policy`]; a new bot is a type
//! implementing [`Bot`] and a name in `Policy`. The roster
//! (`configs/matches/roster.toml` seats every one) and what each does is in
//! docs/matches.md, "The bots".

pub use super::choice::{Decision, Reason, ShopAction, ShopView};
use super::choice::{Destination, Item};
use super::shop;
use super::{Carried, MatchCtx, Player, Policy, Values, boss_entrant, trial_score};
use gridsim_engine::Engine;
use gridsim_model::ability::{CardKind, RuneBoard};

/// A purchase worth making: its gain in value by the bot's table, where
/// it is (an index into the visit's offers, or into the buyback list), the
/// item and why it is worth buying.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    pub gain: i32,
    pub index: usize,
    pub from_buyback: bool,
    pub item: Item,
    pub reason: Reason,
}

fn decide(action: ShopAction, reason: Reason) -> Decision {
    Decision { action, reason }
}

/// One seat's boss claim as every seat sees it in the draft (200.1c): the
/// strength of its board and of the boss it claimed, by the suite's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claim {
    pub board: i64,
    pub boss: i64,
}

/// Rerolls a bot allows itself per visit below the top level.
const REROLLS_PER_VISIT: usize = 2;
/// The tempo bot's rerolls per visit while it holds copies to complete.
const TEMPO_REROLLS_PER_VISIT: usize = 5;

/// A seat's decisions. Every method has the greedy bot's answer, so a bot
/// overrides only the choices it makes differently.
pub trait Bot: Sync {
    /// The table this bot values units, runes and places by.
    fn values<'c>(&self, ctx: &'c MatchCtx) -> &'c Values {
        &ctx.values
    }

    /// What an offer is worth to this bot beyond the table, and why: 0 for
    /// the greedy bot.
    fn bonus(&self, _ctx: &MatchCtx, _p: &Player, _item: Item) -> (i32, Reason) {
        (0, Reason::MostValue)
    }

    /// Whether to buy XP before anything else in this visit.
    fn levels_first(&self, _ctx: &MatchCtx, _p: &Player, _view: &ShopView) -> bool {
        false
    }

    /// Rerolls allowed in this visit below the top level, and why.
    fn rerolls_allowed(&self, _ctx: &MatchCtx, _p: &Player) -> (usize, Reason) {
        (REROLLS_PER_VISIT, Reason::Hunting)
    }

    /// The destination among `offered` (200.1f): the store when it can buy
    /// a unit, the runesmith when it can buy or upgrade a rune, else the
    /// vault (or the first offered).
    fn choose_destination(&self, ctx: &MatchCtx, p: &mut Player, offered: &[Destination]) -> (Destination, Reason) {
        let funds = p.wallet.gold + p.wallet.dividend;
        let wants = |d: Destination| match d {
            Destination::Store => funds >= ctx.rules.shop.unit_cost,
            Destination::Runesmith => {
                funds >= ctx.rules.shop.rune_cost
                    && (shop::free_rune_place(ctx, &p.runes).is_some()
                        || (0..p.runes.len()).any(|i| shop::upgradable(ctx, p, i)))
            }
            Destination::Vault => true,
        };
        match Destination::ALL.into_iter().find(|&d| offered.contains(&d) && wants(d)) {
            Some(Destination::Vault) => (Destination::Vault, Reason::NothingToBuy),
            Some(d) => (d, Reason::SomethingToBuy),
            None => (offered[0], Reason::NothingToBuy),
        }
    }

    /// The next thing to do in a shop, in this order: move a rune to where
    /// it reaches more (free); XP first when the bot levels hard; buy the
    /// purchase [`Bot::choose_purchase`] picks among those worth making (an
    /// item it sold only when it completes a combine); on a board full by
    /// its cap or by its grid, sell the weakest unit (one in no pair first)
    /// when an offer is worth more and can then be paid, else (at the cap)
    /// buy a level; on full rune boards, sell the weakest rune for a better
    /// rune offer; reroll (as often as [`Bot::rerolls_allowed`], keeping
    /// enough to buy after); upgrade a rune; put what is left into XP;
    /// else leave.
    fn shop_action(&self, ctx: &MatchCtx, engine: &mut Engine, p: &mut Player, view: &ShopView) -> Decision {
        let values = self.values(ctx);
        let s = ctx.rules.shop;
        let funds = p.wallet.gold + p.wallet.dividend;
        let affordable = |item: Item| shop::cost(ctx, item) <= funds;
        let can_level = p.level < s.max_level && funds >= s.xp_cost;
        if let Some((index, board, cell)) = better_rune_place(ctx, values, p) {
            return decide(ShopAction::MoveRune { index, board, cell }, Reason::ReachesMore);
        }
        if can_level && self.levels_first(ctx, p, view) {
            return decide(ShopAction::BuyXp, Reason::LevelsHard);
        }
        let candidate = |index: usize, from_buyback: bool, item: Item| {
            let base = shop::gain(ctx, values, p, item)?;
            let (bonus, why) = self.bonus(ctx, p, item);
            let reason = if shop::completes_combine(ctx, p, item) {
                Reason::CompletesCombine
            } else if bonus > 0 {
                why
            } else if matches!(item, Item::Unit(c, t) if shop::copies_held(p, c, t) > 0) {
                Reason::JoinsCopies
            } else {
                Reason::MostValue
            };
            Some(Candidate {
                gain: base.saturating_add(bonus),
                index,
                from_buyback,
                item,
                reason,
            })
        };
        let mut candidates: Vec<Candidate> = Vec::new();
        for (index, &item) in view.offers.iter().enumerate() {
            if affordable(item)
                && let Some(c) = candidate(index, false, item)
            {
                candidates.push(c);
            }
        }
        // What it sold itself comes back only to complete a combine: bought
        // back otherwise, it costs more than it was sold for and returns
        // without its counters (200.3b). A teammate's sale is an offer like
        // any other.
        for (index, sold) in view.buyback.unwrap_or_default().iter().enumerate() {
            if affordable(sold.item)
                && (sold.seller != p.seat || shop::completes_combine(ctx, p, sold.item))
                && let Some(c) = candidate(index, true, sold.item)
            {
                candidates.push(c);
            }
        }
        candidates.retain(|c| c.gain > 0);
        candidates.sort_by_key(|c| (std::cmp::Reverse(c.gain), c.from_buyback, c.index));
        if !candidates.is_empty() {
            let (c, reason) = self.choose_purchase(ctx, engine, p, view, &candidates);
            return decide(
                ShopAction::Buy {
                    index: c.index,
                    from_buyback: c.from_buyback,
                },
                reason,
            );
        }
        if let Some(d) = make_room(ctx, values, p, view, funds) {
            return d;
        }
        if p.units.len() >= shop::capacity(ctx, p.level) && can_level {
            // A full board grows with a level.
            return decide(ShopAction::BuyXp, Reason::BoardFull);
        }
        if let Some(d) = make_rune_room(ctx, values, p, view, funds) {
            return d;
        }
        let cheapest = view.offers.iter().map(|&i| shop::cost(ctx, i)).min().unwrap_or(0);
        // At the top level nothing else turns Gold into strength: it rerolls
        // for as long as it can still buy after.
        let (rerolls, why) = if p.level < s.max_level {
            self.rerolls_allowed(ctx, p)
        } else {
            (usize::MAX, Reason::Hunting)
        };
        // New offers help only where one could be placed: the runesmith
        // (runes only) with full rune boards offers nothing to buy.
        let placeable =
            view.offers.iter().any(|i| matches!(i, Item::Unit(..))) || shop::free_rune_place(ctx, &p.runes).is_some();
        if placeable && view.rerolls < rerolls && funds >= s.reroll_cost + s.unit_cost.min(cheapest.max(1)) {
            return decide(ShopAction::Reroll, why);
        }
        if funds >= s.rune_cost
            && let Some(i) = (0..p.runes.len())
                .filter(|&i| shop::upgradable(ctx, p, i))
                .min_by_key(|&i| (p.runes[i].tier, i))
        {
            return decide(ShopAction::UpgradeRune(i), Reason::RuneUpgrade);
        }
        // Gold kept buys nothing later that a level bought now does not
        // also buy: what is left goes into XP.
        if can_level {
            return decide(ShopAction::BuyXp, Reason::Leftover);
        }
        decide(ShopAction::Leave, Reason::NothingToBuy)
    }

    /// The purchase to make among `candidates` (never empty), best first by
    /// the bot's table: the first.
    fn choose_purchase(
        &self,
        _ctx: &MatchCtx,
        _engine: &mut Engine,
        _p: &mut Player,
        _view: &ShopView,
        candidates: &[Candidate],
    ) -> (Candidate, Reason) {
        (candidates[0], candidates[0].reason)
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
    /// empty): the weakest by the bot's table.
    fn claim(
        &self,
        ctx: &MatchCtx,
        _engine: &mut Engine,
        _p: &mut Player,
        _round: u8,
        _index: u64,
        boards: &[&Carried],
    ) -> (usize, Reason) {
        (weakest(self.values(ctx), boards), Reason::Weakest)
    }
}

/// A rune and a free place where it reaches more units' worth than where it
/// stands (900.24a), the best such move; none when every rune stands best.
fn better_rune_place(ctx: &MatchCtx, values: &Values, p: &Player) -> Option<(usize, RuneBoard, u8)> {
    let mut best: Option<(i64, usize, RuneBoard, u8)> = None;
    for (i, r) in p.runes.iter().enumerate() {
        let here = shop::rune_reach(ctx, values, &p.units, r.board, r.cell);
        for (board, cell) in shop::free_rune_places(ctx, &p.runes, Some(i)) {
            let gain = shop::rune_reach(ctx, values, &p.units, board, cell) - here;
            if gain > 0 && best.is_none_or(|b| gain > b.0) {
                best = Some((gain, i, board, cell));
            }
        }
    }
    best.map(|(_, i, board, cell)| (i, board, cell))
}

/// On a board full by its unit cap or by its grid, a sale of the weakest
/// unit (one that pairs with no other copy first; never one carrying Quest
/// progress or a named counter, which a sale would lose, 200.3a, 200.3b)
/// when an offer is worth more, fits its place and can then be paid.
fn make_room(ctx: &MatchCtx, values: &Values, p: &Player, view: &ShopView, funds: i32) -> Option<Decision> {
    let at_cap = p.units.len() >= shop::capacity(ctx, p.level);
    let (weakest, worth) = p
        .units
        .iter()
        .enumerate()
        .filter(|(_, o)| o.kept.quest == 0 && o.kept.counter.is_none())
        .map(|(i, o)| (i, values.unit(o.card, o.tier), shop::copies_held(p, o.card, o.tier) > 1))
        .min_by_key(|&(i, v, paired)| (paired, v, i))
        .map(|(i, v, _)| (i, v))?;
    // The grid binds before the cap when an offer worth more than that unit
    // has no free cell of its size.
    let grid_bound = !at_cap
        && view.offers.iter().any(|&item| match item {
            Item::Unit(c, t) => values.unit(c, t) > worth && shop::free_cell(ctx, &p.units, c).is_none(),
            Item::Rune(..) => false,
        });
    if !at_cap && !grid_bound {
        return None;
    }
    let refund = ctx.rules.shop.sell_gold_per_tier * i32::from(p.units[weakest].tier);
    let side = ctx.catalog.card(p.units[weakest].card).footprint.side();
    let better = view.offers.iter().any(|&item| match item {
        Item::Unit(c, t) => {
            values.unit(c, t) > worth
                && shop::cost(ctx, item) <= funds + refund
                && ctx.catalog.card(c).footprint.side() <= side
        }
        Item::Rune(..) => false,
    });
    better.then(|| decide(ShopAction::Sell(weakest), Reason::MakesRoom))
}

/// On full rune boards, a sale of the weakest rune when a rune offer is
/// worth more and can then be paid.
fn make_rune_room(ctx: &MatchCtx, values: &Values, p: &Player, view: &ShopView, funds: i32) -> Option<Decision> {
    if shop::free_rune_place(ctx, &p.runes).is_some() {
        return None;
    }
    let (weakest, worth) = p
        .runes
        .iter()
        .enumerate()
        .map(|(i, r)| (i, values.rune(r.rune, r.tier)))
        .min_by_key(|&(i, v)| (v, i))?;
    let refund = ctx.rules.shop.sell_gold_per_tier * i32::from(p.runes[weakest].tier);
    let better = view.offers.iter().any(|&item| match item {
        Item::Rune(r, t) => values.rune(r, t) > worth && shop::cost(ctx, item) <= funds + refund,
        Item::Unit(..) => false,
    });
    better.then(|| decide(ShopAction::SellRune(weakest), Reason::MakesRoom))
}

/// The weakest of `boards` by `values`, the first on a tie.
fn weakest(values: &Values, boards: &[&Carried]) -> usize {
    (0..boards.len())
        .min_by_key(|&k| (values.board(&boards[k].board), k))
        .unwrap_or(0)
}

/// Buys the offer of most value by the suite's table, claims the weakest
/// boss and ghost by the same table.
pub struct Greedy;

impl Bot for Greedy {}

/// The baseline: every choice drawn at random among the legal ones, from the
/// seat's own shop stream.
pub struct RandomLegal;

impl Bot for RandomLegal {
    fn choose_destination(&self, _ctx: &MatchCtx, p: &mut Player, offered: &[Destination]) -> (Destination, Reason) {
        (offered[p.rng.below(offered.len() as u32) as usize], Reason::Random)
    }

    /// One kind of action drawn evenly among those the rules allow now
    /// (buy, sell a unit, sell a rune, upgrade a rune, buy XP, reroll,
    /// leave), then one item of that kind evenly.
    fn shop_action(&self, ctx: &MatchCtx, _engine: &mut Engine, p: &mut Player, view: &ShopView) -> Decision {
        let values = self.values(ctx);
        let s = ctx.rules.shop;
        let funds = p.wallet.gold + p.wallet.dividend;
        let legal = |item: Item| shop::cost(ctx, item) <= funds && shop::gain(ctx, values, p, item).is_some();
        let mut buys: Vec<ShopAction> = Vec::new();
        for (index, &item) in view.offers.iter().enumerate() {
            if legal(item) {
                buys.push(ShopAction::Buy {
                    index,
                    from_buyback: false,
                });
            }
        }
        for (index, sold) in view.buyback.unwrap_or_default().iter().enumerate() {
            if legal(sold.item) {
                buys.push(ShopAction::Buy {
                    index,
                    from_buyback: true,
                });
            }
        }
        let upgrades: Vec<ShopAction> = (0..p.runes.len())
            .filter(|&i| funds >= s.rune_cost && shop::upgradable(ctx, p, i))
            .map(ShopAction::UpgradeRune)
            .collect();
        let kinds: Vec<Vec<ShopAction>> = vec![
            buys,
            (0..p.units.len()).map(ShopAction::Sell).collect(),
            (0..p.runes.len()).map(ShopAction::SellRune).collect(),
            upgrades,
            if p.level < s.max_level && funds >= s.xp_cost {
                vec![ShopAction::BuyXp]
            } else {
                Vec::new()
            },
            if funds >= s.reroll_cost {
                vec![ShopAction::Reroll]
            } else {
                Vec::new()
            },
            vec![ShopAction::Leave],
        ];
        let open: Vec<&Vec<ShopAction>> = kinds.iter().filter(|k| !k.is_empty()).collect();
        let kind = open[p.rng.below(open.len() as u32) as usize];
        decide(kind[p.rng.below(kind.len() as u32) as usize], Reason::Random)
    }

    fn cancels_claim(&self, _ctx: &MatchCtx, _seat: usize, _claims: &[Claim]) -> bool {
        false
    }

    fn claim(
        &self,
        _ctx: &MatchCtx,
        _engine: &mut Engine,
        p: &mut Player,
        _round: u8,
        _index: u64,
        boards: &[&Carried],
    ) -> (usize, Reason) {
        (p.rng.below(boards.len() as u32) as usize, Reason::Random)
    }
}

/// Greedy, with an offer worth a quarter of a place more for each unit it
/// holds of the same tribe or sharing a keyword, up to a place more.
pub struct Synergy;

impl Bot for Synergy {
    fn bonus(&self, ctx: &MatchCtx, p: &Player, item: Item) -> (i32, Reason) {
        let Item::Unit(card, _) = item else {
            return (0, Reason::MostValue);
        };
        let c = ctx.catalog.card(card);
        let names = c.keywords.names();
        let shared = p
            .units
            .iter()
            .filter(|o| {
                let held = ctx.catalog.card(o.card);
                held.tribe == c.tribe || held.keywords.names().iter().any(|k| names.contains(k))
            })
            .count() as i32;
        let place = self.values(ctx).place();
        ((place / 4).saturating_mul(shared).min(place), Reason::Synergy)
    }
}

/// Greedy, with Pennies, Hubs and cards that add Dividend worth half a
/// place more (800.15, 800.47, 800.61), and no rerolls below the top level:
/// it saves its Gold for purchases and lets Dividend pay first (800.15c).
pub struct Economy;

impl Bot for Economy {
    fn bonus(&self, ctx: &MatchCtx, _p: &Player, item: Item) -> (i32, Reason) {
        let Item::Unit(card, tier) = item else {
            return (0, Reason::MostValue);
        };
        let c = ctx.catalog.card(card);
        let earns = matches!(c.kind, CardKind::Penny | CardKind::Hub)
            || c.at_tier(tier).settle > 0
            || ctx.catalog.sale_dividend(card, tier) > 0;
        if earns {
            (self.values(ctx).place() / 2, Reason::Economy)
        } else {
            (0, Reason::MostValue)
        }
    }

    fn rerolls_allowed(&self, _ctx: &MatchCtx, _p: &Player) -> (usize, Reason) {
        (0, Reason::Hunting)
    }
}

/// Greedy that levels hard (XP first while its level trails the round by
/// more than one) and hunts triples: a copy that joins copies held is worth
/// a place more again, and it rerolls up to five times a visit while it
/// holds copies a combine could complete.
pub struct Tempo;

impl Bot for Tempo {
    fn bonus(&self, ctx: &MatchCtx, p: &Player, item: Item) -> (i32, Reason) {
        match item {
            Item::Unit(c, t) if shop::copies_held(p, c, t) > 0 => {
                (shop::place_worth(ctx, self.values(ctx), p.level), Reason::JoinsCopies)
            }
            _ => (0, Reason::MostValue),
        }
    }

    fn levels_first(&self, _ctx: &MatchCtx, p: &Player, view: &ShopView) -> bool {
        p.level <= i32::from(view.round)
    }

    fn rerolls_allowed(&self, ctx: &MatchCtx, p: &Player) -> (usize, Reason) {
        let pairs = p.units.iter().any(|o| {
            shop::copies_held(p, o.card, o.tier) + 1 >= ctx.rules.shop.copies_to_combine
                && o.tier < ctx.catalog.card(o.card).tiers()
        });
        if pairs {
            (TEMPO_REROLLS_PER_VISIT, Reason::HuntingCopies)
        } else {
            (REROLLS_PER_VISIT, Reason::Hunting)
        }
    }
}

/// Greedy by the table measured in fights (`Values::measured`): each card's
/// worth is what it won alone against every card of the pool, so offers are
/// valued by what the cards do in the engine, not by a formula of their
/// numbers.
pub struct Measured;

impl Bot for Measured {
    fn values<'c>(&self, ctx: &'c MatchCtx) -> &'c Values {
        ctx.measured.as_ref().unwrap_or(&ctx.values)
    }
}

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
    ) -> (Candidate, Reason) {
        let round = view.round;
        let option = &ctx.suite.bosses[usize::from(round - 1) % ctx.suite.bosses.len()];
        let boss = boss_entrant(ctx, option, round);
        let mut best = (i32::MIN, 0usize);
        for (k, c) in candidates.iter().take(super::PLANNER_CANDIDATES).enumerate() {
            let mut trial = p.clone();
            let mut scratch = Vec::new();
            if !shop::buy(ctx, &mut trial, c.item, round, None, c.reason, &mut scratch) {
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
        (candidates[best.1], Reason::WinsTrials)
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
    ) -> (usize, Reason) {
        if boards.len() < 2 {
            return (weakest(self.values(ctx), boards), Reason::Weakest);
        }
        let me = Carried::fresh(p.board(String::new()), p.wallet.dividend, p.wallet.profit, &p.kept());
        let mut best = (i32::MIN, i64::MAX, 0usize);
        for (k, b) in boards.iter().enumerate() {
            let strength = self.values(ctx).board(&b.board);
            let s = trial_score(ctx, engine, round, &me, b, p.planned, index, p.seat);
            if (s, -strength) > (best.0, -best.1) {
                best = (s, strength, k);
            }
        }
        p.planned += u64::from(ctx.suite.planner_fights);
        (best.2, Reason::WinsTrials)
    }
}

impl Policy {
    /// The bot that plays this policy.
    pub fn bot(self) -> &'static dyn Bot {
        match self {
            Policy::Greedy => &Greedy,
            Policy::Planner => &Planner,
            Policy::Random => &RandomLegal,
            Policy::Synergy => &Synergy,
            Policy::Economy => &Economy,
            Policy::Tempo => &Tempo,
            Policy::Measured => &Measured,
        }
    }
}
