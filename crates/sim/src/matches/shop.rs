//! The shop (200.1b, 200.1f): offers of units and runes, buying with the
//! Dividend-first payment (900.36), selling into the party's buyback,
//! rerolls, XP and levels, combining copies into tiers, and placing on the
//! grid and the rune boards: a visit carries out what the seat's bot
//! chooses (`bots.rs`). Every number is a
//! `[shop]` or `[round]` setting (docs/rules-reconstruction.md, "The match").

use super::choice::{Decision, Reason, ShopAction, ShopView};
pub use super::choice::{Destination, Item, Sold};
use super::{Carried, Event, MatchCtx, Owned, Player, Values};
use gridsim_engine::{Engine, FightRng};
use gridsim_model::ability::RuneBoard;
use gridsim_model::catalog::CardId;
use gridsim_model::spec::RunePlacement;

/// The offers of one visit.
struct Offers {
    items: Vec<Item>,
}

/// One offer a probe measures (docs/matches.md, "Probes"): the player's
/// board as the visit opened, with the offer bought and without it.
pub struct OfferProbe {
    pub item: Item,
    /// The player bought this very offer during the visit.
    pub bought: bool,
    pub with: Carried,
    pub without: Carried,
}

/// What one visit may do.
pub struct Visit<'v> {
    pub round: u8,
    pub destination: Destination,
    /// The party's sold items, open to buy back in Shop 2 (200.1f).
    pub buyback: Option<&'v mut Vec<Sold>>,
    /// Where sales go (the party's buyback list).
    pub sold: &'v mut Vec<Sold>,
}

/// XP needed to go from `level` to the next.
pub fn xp_to_next(ctx: &MatchCtx, level: i32) -> i32 {
    let s = ctx.rules.shop;
    s.xp_first_level + s.xp_step_per_level * (level - 1)
}

/// Units a board may hold at `level`.
pub fn capacity(ctx: &MatchCtx, level: i32) -> usize {
    (ctx.rules.shop.units_at_level_one + level - 1).max(0) as usize
}

/// Adds XP, levelling up as often as it reaches the next level.
pub fn gain_xp(ctx: &MatchCtx, p: &mut Player, xp: i32, round: u8, log: &mut Vec<Event>) {
    p.xp += xp;
    while p.level < ctx.rules.shop.max_level && p.xp >= xp_to_next(ctx, p.level) {
        p.xp -= xp_to_next(ctx, p.level);
        p.level += 1;
        log.push(Event::LevelUp {
            round,
            seat: p.seat,
            level: p.level,
        });
    }
}

/// The tier of one unit offer to a buyer at `level` (200.1b, reconstructed):
/// tier 1 until the level reaches the first tier-2 offers; after that one
/// roll picks tier 3, tier 2 or tier 1 by the level's odds, capped at the
/// card's top tier.
fn offer_tier(ctx: &MatchCtx, rng: &mut FightRng, level: i32, card: CardId) -> u8 {
    let s = ctx.rules.shop;
    let (two, three) = (s.tier_two_offer_percent(level), s.tier_three_offer_percent(level));
    if two + three <= 0 {
        return 1;
    }
    let roll = i64::from(rng.below(100));
    let tier = if roll < three {
        3
    } else if roll < three + two {
        2
    } else {
        1
    };
    tier.min(ctx.catalog.card(card).tiers())
}

fn draw_offers(ctx: &MatchCtx, rng: &mut FightRng, destination: Destination, level: i32) -> Offers {
    let s = ctx.rules.shop;
    let (units, runes) = match destination {
        Destination::Store => (s.unit_offers, s.rune_offers),
        Destination::Runesmith => (0, 2 * s.rune_offers),
        Destination::Vault => (0, 0),
    };
    let mut items = Vec::new();
    if !ctx.unit_pool.is_empty() {
        for _ in 0..units {
            let card = ctx.unit_pool[rng.below(ctx.unit_pool.len() as u32) as usize];
            let tier = offer_tier(ctx, rng, level, card);
            items.push(Item::Unit(card, tier));
        }
    }
    if !ctx.rune_pool.is_empty() {
        for _ in 0..runes {
            items.push(Item::Rune(
                ctx.rune_pool[rng.below(ctx.rune_pool.len() as u32) as usize],
                1,
            ));
        }
    }
    Offers { items }
}

/// A free top-left cell for `card` on `p`'s grid, in reading order.
pub fn free_cell(ctx: &MatchCtx, units: &[Owned], card: CardId) -> Option<(u8, u8)> {
    let (cols, rows) = (ctx.rules.board.columns, ctx.rules.board.rows);
    let size = i32::from(ctx.catalog.card(card).footprint.side());
    let mut taken = vec![false; (cols * rows) as usize];
    for o in units {
        let side = i32::from(ctx.catalog.card(o.card).footprint.side());
        for i in crate::suite::footprint_cells(i32::from(o.column), i32::from(o.row), side, cols) {
            taken[i] = true;
        }
    }
    for row in 0..=(rows - size) {
        for col in 0..=(cols - size) {
            if crate::suite::footprint_cells(col, row, size, cols)
                .iter()
                .all(|&i| !taken[i])
            {
                return Some((col as u8, row as u8));
            }
        }
    }
    None
}

/// A free place for a rune on either rune board (900.24a): the row board
/// first, then the column board.
pub fn free_rune_place(ctx: &MatchCtx, runes: &[RunePlacement]) -> Option<(RuneBoard, u8)> {
    free_rune_places(ctx, runes, None).next()
}

/// Every free place for a rune, the row board first, then the column
/// board, each in cell order; the rune at `moving`, when given, counts as
/// lifted off its board.
pub fn free_rune_places<'r>(
    ctx: &MatchCtx,
    runes: &'r [RunePlacement],
    moving: Option<usize>,
) -> impl Iterator<Item = (RuneBoard, u8)> + 'r {
    let r = ctx.rules.runes;
    [
        (RuneBoard::Rows, r.row_board_cells),
        (RuneBoard::Columns, r.column_board_cells),
    ]
    .into_iter()
    .flat_map(move |(board, cells)| (0..=(cells - r.cells_per_rune)).map(move |cell| (board, cell)))
    .filter(move |&(board, cell)| {
        !runes
            .iter()
            .enumerate()
            .any(|(k, o)| Some(k) != moving && o.board == board && (i32::from(o.cell) - cell).abs() < r.cells_per_rune)
    })
    .map(|(board, cell)| (board, cell as u8))
}

/// The value of the units a rune at `(board, cell)` reaches: every unit
/// whose footprint meets one of the rows (or columns) it faces (900.24a).
pub fn rune_reach(ctx: &MatchCtx, values: &Values, units: &[Owned], board: RuneBoard, cell: u8) -> i64 {
    let (first, last) = (i32::from(cell), i32::from(cell) + ctx.rules.runes.cells_per_rune - 1);
    units
        .iter()
        .filter(|o| {
            let side = i32::from(ctx.catalog.card(o.card).footprint.side());
            let start = match board {
                RuneBoard::Rows => i32::from(o.row),
                RuneBoard::Columns => i32::from(o.column),
            };
            start <= last && start + side > first
        })
        .map(|o| i64::from(values.unit(o.card, o.tier)))
        .sum()
}

/// Whether the rune at `i` can rise a tier (its ladder goes higher).
pub fn upgradable(ctx: &MatchCtx, p: &Player, i: usize) -> bool {
    p.runes
        .get(i)
        .is_some_and(|r| r.tier < ctx.catalog.rune(r.rune).tiers())
}

/// What a free place is worth at `level`: a free place's worth in the
/// table times the mean tier of a unit offer at that level, so that a
/// place freed late, when offers come at higher tiers, is worth more.
pub fn place_worth(ctx: &MatchCtx, values: &Values, level: i32) -> i32 {
    let s = ctx.rules.shop;
    let percent_tiers = 100 + s.tier_two_offer_percent(level) + 2 * s.tier_three_offer_percent(level);
    (i64::from(values.place()) * percent_tiers / 100).clamp(0, i64::from(i32::MAX)) as i32
}

/// What buying `item` would add to `p`'s board by `values`; none when it
/// has no place (and does not combine).
pub fn gain(ctx: &MatchCtx, values: &Values, p: &Player, item: Item) -> Option<i32> {
    match item {
        Item::Unit(card, tier) => {
            let copies = copies_held(p, card, tier);
            if completes_combine(ctx, p, item) {
                // Combining: the copies become one of the next tier, and
                // every place but one is free again, worth what a typical
                // offer at the buyer's level would bring to it.
                let freed = copies - 1;
                Some(
                    values.unit(card, tier + 1) - copies * values.unit(card, tier)
                        + freed * place_worth(ctx, values, p.level),
                )
            } else if p.units.len() < capacity(ctx, p.level) && free_cell(ctx, &p.units, card).is_some() {
                // A copy that joins copies already held is a step towards a
                // combine: half a place more.
                let towards = if copies > 0 {
                    place_worth(ctx, values, p.level)
                } else {
                    0
                };
                Some(values.unit(card, tier) + towards)
            } else {
                None
            }
        }
        Item::Rune(rune, tier) => free_rune_place(ctx, &p.runes).map(|_| values.rune(rune, tier)),
    }
}

/// How many copies of `card` at `tier` the player holds.
pub fn copies_held(p: &Player, card: CardId, tier: u8) -> i32 {
    p.units.iter().filter(|o| o.card == card && o.tier == tier).count() as i32
}

/// Whether buying `item` completes a combine of `p`'s copies (200.1b).
pub fn completes_combine(ctx: &MatchCtx, p: &Player, item: Item) -> bool {
    match item {
        Item::Unit(card, tier) => {
            copies_held(p, card, tier) + 1 >= ctx.rules.shop.copies_to_combine && tier < ctx.catalog.card(card).tiers()
        }
        Item::Rune(..) => false,
    }
}

pub fn cost(ctx: &MatchCtx, item: Item) -> i32 {
    match item {
        Item::Unit(_, tier) => ctx.rules.shop.unit_cost * i32::from(tier),
        Item::Rune(_, tier) => ctx.rules.shop.rune_cost * i32::from(tier),
    }
}

/// Buys `item` for `p`: pays Dividend first (900.36), then places it,
/// combining copies into the next tier (200.1b; a combined unit is placed
/// above the tier it was bought at, 800.32a).
pub fn buy(
    ctx: &MatchCtx,
    p: &mut Player,
    item: Item,
    round: u8,
    from_seat: Option<u8>,
    reason: Reason,
    log: &mut Vec<Event>,
) -> bool {
    let buyback = from_seat.is_some();
    let price = cost(ctx, item);
    let Ok(paid) = p.wallet.pay(price) else {
        return false;
    };
    let mut combined = false;
    match item {
        Item::Unit(card, tier) => {
            let (mut card_tier, need) = (tier, ctx.rules.shop.copies_to_combine as usize);
            let top = ctx.catalog.card(card).tiers();
            // The bought copy, then every level of combining it causes.
            let mut at: Option<(u8, u8)> = None;
            // Where the first copy stood in the player's list: the
            // combined unit takes its place there, so it keeps its order
            // among the units as it keeps its cell.
            let mut index: Option<usize> = None;
            let mut kept = super::Kept::default();
            loop {
                let same: Vec<usize> = (0..p.units.len())
                    .filter(|&i| p.units[i].card == card && p.units[i].tier == card_tier)
                    .collect();
                if same.len() + 1 < need || card_tier >= top {
                    break;
                }
                let keep = &p.units[same[0]];
                at = Some((keep.column, keep.row));
                index = Some(same[0]);
                let best = same.iter().fold(kept, |k, &i| k.best(p.units[i].kept));
                for &i in same.iter().take(need - 1).rev() {
                    p.units.remove(i);
                }
                card_tier += 1;
                combined = true;
                // The combined unit keeps the best Quest progress and the
                // highest named counter of its copies (a reconstruction).
                kept = best;
            }
            let (column, row) = match at {
                Some(c) => c,
                None => match free_cell(ctx, &p.units, card) {
                    Some(c) => c,
                    None => {
                        // Checked by the caller; refund rather than lose the Gold.
                        p.wallet.refund(paid);
                        return false;
                    }
                },
            };
            let owned = Owned {
                card,
                tier: card_tier,
                column,
                row,
                combined,
                kept,
            };
            match index {
                Some(i) if i <= p.units.len() => p.units.insert(i, owned),
                _ => p.units.push(owned),
            }
            log.push(Event::Bought {
                round,
                seat: p.seat,
                item: ctx.catalog.card(card).key.clone(),
                kind: "unit",
                tier,
                gold: paid.gold,
                dividend: paid.dividend,
                profit: paid.profit,
                combined_to: combined.then_some(card_tier),
                buyback,
                from_seat,
                reason,
            });
        }
        Item::Rune(rune, tier) => {
            let Some((board, cell)) = free_rune_place(ctx, &p.runes) else {
                p.wallet.refund(paid);
                return false;
            };
            p.runes.push(RunePlacement {
                rune,
                tier,
                board,
                cell,
            });
            log.push(Event::Bought {
                round,
                seat: p.seat,
                item: ctx.catalog.rune(rune).key.clone(),
                kind: "rune",
                tier,
                gold: paid.gold,
                dividend: paid.dividend,
                profit: paid.profit,
                combined_to: None,
                buyback,
                from_seat,
                reason,
            });
        }
    }
    true
}

/// Sells `p`'s unit `i` for Gold (900.36c) into the party's buyback; the
/// card's `sold` lines add their Dividend (800.15d, 800.47d).
fn sell_unit(ctx: &MatchCtx, p: &mut Player, i: usize, at: (u8, Reason), sold: &mut Vec<Sold>, log: &mut Vec<Event>) {
    let o = p.units.remove(i);
    let sale = p
        .wallet
        .sell_card(ctx.catalog, ctx.rules.shop.sell_gold_per_tier, o.card, o.tier);
    record_sale(ctx, p, Item::Unit(o.card, o.tier), sale, at, sold, log);
}

/// Sells `p`'s rune `i` for Gold (900.36c) into the party's buyback.
fn sell_rune(ctx: &MatchCtx, p: &mut Player, i: usize, at: (u8, Reason), sold: &mut Vec<Sold>, log: &mut Vec<Event>) {
    let r = p.runes.remove(i);
    let gold = ctx.rules.shop.sell_gold_per_tier.saturating_mul(i32::from(r.tier));
    p.wallet.sell(gold);
    let sale = gridsim_model::scrip::Sale { gold, dividend: 0 };
    record_sale(ctx, p, Item::Rune(r.rune, r.tier), sale, at, sold, log);
}

/// A sale's item joins the party's buyback (200.1f) and the log.
fn record_sale(
    ctx: &MatchCtx,
    p: &Player,
    item: Item,
    sale: gridsim_model::scrip::Sale,
    (round, reason): (u8, Reason),
    sold: &mut Vec<Sold>,
    log: &mut Vec<Event>,
) {
    sold.push(Sold { item, seller: p.seat });
    let (key, kind, tier) = item.logged(ctx);
    log.push(Event::Sold {
        round,
        seat: p.seat,
        item: key,
        kind,
        tier,
        gold: sale.gold,
        dividend: sale.dividend,
        reason,
    });
}

/// Raises `p`'s rune `i` one tier in its place (200.1b, reconstructed: the
/// difference between the two tiers' offer prices, `shop.rune_cost`, paid
/// Dividend first, 800.15c). False when the rules refuse it.
fn upgrade_rune(ctx: &MatchCtx, p: &mut Player, i: usize, at: (u8, Reason), log: &mut Vec<Event>) -> bool {
    let (round, reason) = at;
    if !upgradable(ctx, p, i) {
        return false;
    }
    let Ok(paid) = p.wallet.pay(ctx.rules.shop.rune_cost) else {
        return false;
    };
    let r = &mut p.runes[i];
    r.tier += 1;
    log.push(Event::RuneUpgraded {
        round,
        seat: p.seat,
        rune: ctx.catalog.rune(r.rune).key.clone(),
        tier: r.tier,
        gold: paid.gold,
        dividend: paid.dividend,
        profit: paid.profit,
        reason,
    });
    true
}

/// Moves `p`'s rune `i` to a free place (200.1b: managing the rune boards
/// is free). False when the place is not free.
fn move_rune(
    ctx: &MatchCtx,
    p: &mut Player,
    i: usize,
    to: (RuneBoard, u8),
    at: (u8, Reason),
    log: &mut Vec<Event>,
) -> bool {
    let (round, reason) = at;
    if i >= p.runes.len() || !free_rune_places(ctx, &p.runes, Some(i)).any(|place| place == to) {
        return false;
    }
    let r = &mut p.runes[i];
    let from = (r.board, r.cell);
    (r.board, r.cell) = to;
    log.push(Event::RuneMoved {
        round,
        seat: p.seat,
        rune: ctx.catalog.rune(r.rune).key.clone(),
        from_board: from.0.name(),
        from_cell: from.1,
        board: to.0.name(),
        cell: to.1,
        reason,
    });
    true
}

/// The most a bot does in one visit, so a visit always ends.
const ACTIONS_PER_VISIT: usize = 24;
/// One shop visit of one bot player.
/// Returns the visit's probe, when one measured an offer.
pub fn visit(
    ctx: &MatchCtx,
    engine: &mut Engine,
    p: &mut Player,
    v: Visit,
    match_index: u64,
    log: &mut Vec<Event>,
) -> Option<OfferProbe> {
    let Visit {
        round,
        destination,
        mut buyback,
        sold,
    } = v;
    if destination == Destination::Vault {
        p.wallet.gold += ctx.rules.round.vault_gold;
        log.push(Event::Vault {
            round,
            seat: p.seat,
            gold: ctx.rules.round.vault_gold,
        });
        return None;
    }
    let mut offers = draw_offers(ctx, &mut p.rng, destination, p.level);
    let (mut probe, mut probed) = match probe_offer(ctx, p, round, &offers) {
        Some((at, pr)) => (Some(pr), Some(at)),
        None => (None, None),
    };
    log_offers(ctx, p, round, destination, &offers, probed, log);
    let mut rerolls = 0;
    let bot = p.policy.bot();
    for _ in 0..ACTIONS_PER_VISIT {
        let view = ShopView {
            round,
            match_index,
            offers: &offers.items,
            buyback: buyback.as_deref().map(|l| l.as_slice()),
            rerolls,
        };
        // The bot chooses; the rules carry it out or end the visit.
        let Decision { action, reason } = bot.shop_action(ctx, engine, p, &view);
        let at = (round, reason);
        match action {
            ShopAction::Buy { index, from_buyback } => {
                let (item, from_seat) = if from_buyback {
                    let Some(list) = buyback.as_deref_mut().filter(|l| index < l.len()) else {
                        break;
                    };
                    let s = list.remove(index);
                    (s.item, Some(s.seller))
                } else if index < offers.items.len() {
                    // Follow the probed offer as the offers before it go.
                    match probed {
                        Some(k) if k == index => {
                            if let Some(pr) = probe.as_mut() {
                                pr.bought = true;
                            }
                            probed = None;
                        }
                        Some(k) if index < k => probed = Some(k - 1),
                        _ => {}
                    }
                    (offers.items.remove(index), None)
                } else {
                    break;
                };
                if !buy(ctx, p, item, round, from_seat, reason, log) {
                    break;
                }
            }
            ShopAction::Sell(i) if i < p.units.len() => sell_unit(ctx, p, i, at, sold, log),
            ShopAction::SellRune(i) if i < p.runes.len() => sell_rune(ctx, p, i, at, sold, log),
            ShopAction::UpgradeRune(i) => {
                if !upgrade_rune(ctx, p, i, at, log) {
                    break;
                }
            }
            ShopAction::MoveRune { index, board, cell } => {
                if !move_rune(ctx, p, index, (board, cell), at, log) {
                    break;
                }
            }
            // 800.15c: XP is a shop purchase, so Dividend pays first.
            ShopAction::BuyXp if p.level < ctx.rules.shop.max_level => {
                let Ok(paid) = p.wallet.pay(ctx.rules.shop.xp_cost) else {
                    break;
                };
                log.push(Event::BoughtXp {
                    round,
                    seat: p.seat,
                    gold: paid.gold,
                    dividend: paid.dividend,
                    xp: ctx.rules.shop.xp_per_purchase,
                    reason,
                });
                gain_xp(ctx, p, ctx.rules.shop.xp_per_purchase, round, log);
            }
            ShopAction::Reroll => {
                let Ok(paid) = p.wallet.pay(ctx.rules.shop.reroll_cost) else {
                    break;
                };
                rerolls += 1;
                log.push(Event::Rerolled {
                    round,
                    seat: p.seat,
                    gold: paid.gold,
                    dividend: paid.dividend,
                    reason,
                });
                offers = draw_offers(ctx, &mut p.rng, destination, p.level);
                probed = None;
                log_offers(ctx, p, round, destination, &offers, None, log);
            }
            ShopAction::Sell(_) | ShopAction::SellRune(_) | ShopAction::BuyXp | ShopAction::Leave => break,
        }
    }
    probe
}

/// Whether `p` could pay for `item` and place it (or combine it).
fn can_take(ctx: &MatchCtx, p: &Player, item: Item) -> bool {
    cost(ctx, item) <= p.wallet.gold.saturating_add(p.wallet.dividend) && gain(ctx, &ctx.values, p, item).is_some()
}

/// Draws, from the probe stream alone, whether this visit is probed
/// (`probe_percent`) and which offer the player could take it measures;
/// builds the board with that offer bought and the board as it stands.
/// The offer's place, and the probe.
fn probe_offer(ctx: &MatchCtx, p: &mut Player, round: u8, offers: &Offers) -> Option<(usize, OfferProbe)> {
    let percent = u32::from(ctx.suite.probe_percent);
    if percent == 0 || p.probe_rng.below(100) >= percent {
        return None;
    }
    let open: Vec<usize> = (0..offers.items.len())
        .filter(|&i| can_take(ctx, p, offers.items[i]))
        .collect();
    if open.is_empty() {
        return None;
    }
    let at = open[p.probe_rng.below(open.len() as u32) as usize];
    let item = offers.items[at];
    let mut buyer = p.clone();
    // The purchase as the shop makes it, its log lines dropped.
    let mut unlogged = Vec::new();
    if !buy(ctx, &mut buyer, item, round, None, Reason::Random, &mut unlogged) {
        return None;
    }
    Some((
        at,
        OfferProbe {
            item,
            bought: false,
            with: Carried::of(&buyer),
            without: Carried::of(p),
        },
    ))
}

fn log_offers(
    ctx: &MatchCtx,
    p: &Player,
    round: u8,
    destination: Destination,
    offers: &Offers,
    probed: Option<usize>,
    log: &mut Vec<Event>,
) {
    let name = |i: &Item| i.logged(ctx).0;
    log.push(Event::Offers {
        round,
        seat: p.seat,
        destination,
        units: offers
            .items
            .iter()
            .filter(|i| matches!(i, Item::Unit(..)))
            .map(name)
            .collect(),
        unit_tiers: offers
            .items
            .iter()
            .filter_map(|i| match *i {
                Item::Unit(_, t) => Some(t),
                Item::Rune(..) => None,
            })
            .collect(),
        runes: offers
            .items
            .iter()
            .filter(|i| matches!(i, Item::Rune(..)))
            .map(name)
            .collect(),
        // Units then runes, as the offers stand.
        buyable: offers.items.iter().map(|&i| can_take(ctx, p, i)).collect(),
        probed,
    });
}

/// The Shop 2 destinations offered to a player: `round.destinations_offered`
/// distinct ones drawn by weight (200.1f).
pub fn offer_destinations(ctx: &MatchCtx, rng: &mut FightRng) -> Vec<Destination> {
    let r = ctx.rules.round;
    let mut left: Vec<(Destination, i32)> = vec![
        (Destination::Store, r.store_weight),
        (Destination::Runesmith, r.runesmith_weight),
        (Destination::Vault, r.vault_weight),
    ];
    left.retain(|d| d.1 > 0);
    let mut out = Vec::new();
    while out.len() < r.destinations_offered as usize && !left.is_empty() {
        let total: i32 = left.iter().map(|d| d.1).sum();
        let mut pick = rng.below(total as u32) as i32;
        let k = left
            .iter()
            .position(|d| {
                pick -= d.1;
                pick < 0
            })
            .unwrap_or(0);
        out.push(left.remove(k).0);
    }
    out
}
