//! The match (section 200): ten rounds of Shop 1, boss draft, boss combat
//! with its rescue fights, boss reward, Shop 2, nemesis draft, nemesis
//! combat and nemesis reward, for a party of bot players; what persists
//! between battles (200.3). A match depends only on the catalog, the rules,
//! the match suite, its index and the ghost pool, so it is seeded and
//! replayable like a fight. Every fight in it is an ordinary engine fight;
//! the round number, Scrip and carried state go in through the engine's
//! doors (`set_round`, `set_scrip`, `set_initial_state`).

pub mod bots;
pub mod choice;
mod fights;
mod log;
mod play;
pub mod rescue;
pub mod shop;
pub mod values;

pub use fights::*;
pub use log::*;
pub use play::play;
use serde::Serialize;

use gridsim_engine::{Engine, FightRng, Outcome, UnitIdx};
use gridsim_model::catalog::{CardId, Catalog, ResonanceId, RuneId};
use gridsim_model::scrip::{ResonanceSlot, Wallet};
use gridsim_model::settings::Rules;
use gridsim_model::spec::{BoardSpec, Forge, InitialState, Placement, RunePlacement, Side};
use shop::{Destination, Sold, Visit};
pub use values::Values;

/// How many of the greedy ranking's best buys the planner tries in fights.
pub const PLANNER_CANDIDATES: usize = 3;
/// Keys of the match's own random streams, apart from its fights'.
const SHOP_KEY: u64 = 0x5348_4f50_0000_0001;
const DRAFT_KEY: u64 = 0x4452_4146_0000_0002;
/// The probes' stream, apart from the shop's, so that probing a visit
/// changes nothing the match does.
const PROBE_KEY: u64 = 0x5052_4f42_0000_0003;
const PLANNER_KEY: u64 = 0x504c_414e_0000_0003;

/// The bot a seat plays, by the name a match suite gives it: balance
/// depends on how players buy. [`Policy::bot`] is the bot (`bots.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// [`bots::Greedy`].
    Greedy,
    /// [`bots::Planner`].
    Planner,
    /// [`bots::RandomLegal`].
    Random,
    /// [`bots::Synergy`].
    Synergy,
    /// [`bots::Economy`].
    Economy,
    /// [`bots::Tempo`].
    Tempo,
    /// [`bots::Measured`].
    Measured,
}

impl Policy {
    /// Every policy, in the order of `NAMES`.
    pub const ALL: [Policy; 7] = [
        Policy::Greedy,
        Policy::Planner,
        Policy::Random,
        Policy::Synergy,
        Policy::Economy,
        Policy::Tempo,
        Policy::Measured,
    ];
    pub const NAMES: [&'static str; 7] = ["greedy", "planner", "random", "synergy", "economy", "tempo", "measured"];

    pub fn parse(name: &str) -> Option<Policy> {
        Policy::NAMES.iter().position(|&n| n == name).map(|k| Policy::ALL[k])
    }

    pub fn name(self) -> &'static str {
        Policy::NAMES[self as usize]
    }
}

/// A Forge Core: a named modifier a board carries into every battle
/// (200.3a), kept in the order won (200.3d).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForgeCore {
    pub name: String,
    pub forge: Forge,
}

/// A boss's signature reward, given after a team win (200.1e).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Signature {
    Forge(ForgeCore),
    Resonance(ResonanceId),
    Gold(i32),
}

/// One option of the boss draft: a boss and its minions (200.1d).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BossOption {
    pub name: String,
    pub boss: CardId,
    pub minions: Vec<CardId>,
    pub signature: Signature,
}

/// A match suite after loading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchSuite {
    pub name: String,
    pub master_seed: u64,
    pub matches: u64,
    /// Players per match, 1 (solo) to `round.max_players`.
    pub players: u8,
    /// The bots, dealt to the run's seats in turn (`policy_of`).
    pub policies: Vec<Policy>,
    pub bosses: Vec<BossOption>,
    /// The first matches of the run, played with an empty ghost pool (a bye
    /// in every nemesis fight, 200.1h); the boards they commit are the pool
    /// of every later match (docs/rules-reconstruction.md, "Nemesis ghosts").
    pub pool_matches: u64,
    /// Trial fights the planner plays per option.
    pub planner_fights: u32,
    /// The share of shop visits, in percent, that probe one offer: the
    /// next fight fought with it and without it (docs/matches.md, "Probes").
    pub probe_percent: u8,
    /// The greedy value table's entries the suite gives (per tier).
    pub values: Vec<(CardId, i32)>,
    pub rune_values: Vec<(RuneId, i32)>,
    /// How seats start, when the suite says (by seat; the rest start empty
    /// with `shop.starting_gold`).
    pub seats: Vec<SeatStart>,
}

impl MatchSuite {
    /// The bot at `seat` of match `index`: the policies dealt in turn to
    /// the run's seats, match by match, so a list as long as the party (or
    /// a divisor of it) seats the same bots in every match, and a longer
    /// one (a roster in solo matches) gives each bot its share of matches.
    pub fn policy_of(&self, index: u64, seat: u8) -> Policy {
        let n = self.policies.len().max(1) as u64;
        let at = (index % n) * u64::from(self.players) + u64::from(seat);
        self.policies.get((at % n) as usize).copied().unwrap_or(Policy::Greedy)
    }
}

/// A seat's state at the start of a match: for hand-built openings and
/// for scenarios that need a board that surely wins or surely loses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeatStart {
    pub gold: Option<i32>,
    pub dividend: i32,
    pub profit: i32,
    /// Units in the first free cells, in order.
    pub units: Vec<(CardId, u8)>,
    pub runes: Vec<(RuneId, u8)>,
    pub resonance: Option<ResonanceId>,
}

/// What a match reads besides its index: the catalog, the rules, the suite
/// and the shop's pools and value tables derived from them once.
pub struct MatchCtx<'a> {
    pub catalog: &'a Catalog,
    pub rules: Rules,
    pub suite: &'a MatchSuite,
    /// Cards the shop offers: every combat card, Penny, Tool and Hub.
    pub unit_pool: Vec<CardId>,
    /// Runes the shop offers: every rune that may be placed.
    pub rune_pool: Vec<RuneId>,
    /// The suite's value table, which most bots read.
    pub values: Values,
    /// The table measured by fights, when a seat plays the `measured` bot.
    pub measured: Option<Values>,
    /// Each card's carried keywords (`Catalog::carried_keywords`), by id,
    /// for the board logged with every fight.
    pub keywords_by_card: Vec<Vec<&'static str>>,
}

impl<'a> MatchCtx<'a> {
    pub fn new(catalog: &'a Catalog, rules: Rules, suite: &'a MatchSuite) -> MatchCtx<'a> {
        use gridsim_model::ability::CardKind;
        let unit_pool: Vec<CardId> = (0..catalog.cards.len() as u16)
            .map(CardId)
            .filter(|&c| {
                let card = catalog.card(c);
                card.phase_of.is_none()
                    && matches!(
                        card.kind,
                        CardKind::Combat | CardKind::Penny | CardKind::Tool | CardKind::Hub
                    )
            })
            .collect();
        let rune_pool = (0..catalog.runes.len() as u16)
            .map(RuneId)
            .filter(|&r| !catalog.rune(r).innate_only)
            .collect();
        let values = Values::table(catalog, suite, &unit_pool);
        let mut ctx = MatchCtx {
            catalog,
            rules,
            suite,
            unit_pool,
            rune_pool,
            values,
            measured: None,
            keywords_by_card: (0..catalog.cards.len() as u16)
                .map(|c| catalog.carried_keywords(CardId(c)))
                .collect(),
        };
        if suite.policies.contains(&Policy::Measured) {
            ctx.measured = Some(Values::measured(&ctx, &ctx.values));
        }
        ctx
    }
}

/// A unit a player owns, where it stands, and what it carries between
/// battles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owned {
    pub card: CardId,
    pub tier: u8,
    pub column: u8,
    pub row: u8,
    pub combined: bool,
    /// What the unit carries from battle to battle.
    pub kept: Kept,
}

/// What a unit carries from battle to battle besides its place: Quest
/// progress (800.54c, 200.3a) and its named counter (200.3b; `None` until
/// its first battle, which starts it at the card's start value).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Kept {
    pub quest: i32,
    pub counter: Option<i32>,
}

impl Kept {
    /// What a combined unit keeps of its copies: the best of each.
    pub fn best(self, other: Kept) -> Kept {
        Kept {
            quest: self.quest.max(other.quest),
            counter: self.counter.max(other.counter),
        }
    }
}

/// One player of a match between battles.
#[derive(Debug, Clone)]
pub struct Player {
    pub seat: u8,
    pub policy: Policy,
    pub wallet: Wallet,
    pub xp: i32,
    pub level: i32,
    pub units: Vec<Owned>,
    pub runes: Vec<RunePlacement>,
    pub resonance: ResonanceSlot,
    /// In the order won (200.3d).
    pub forge_cores: Vec<ForgeCore>,
    /// The seat's shop stream: offers, rerolls, destinations.
    rng: FightRng,
    /// Which visits a probe measures, and which offer (docs/matches.md,
    /// "Probes").
    probe_rng: FightRng,
    /// Trial fights the planner has used, numbering its streams.
    pub planned: u64,
}

impl Player {
    pub fn new(ctx: &MatchCtx, index: u64, seat: u8) -> Player {
        let mut p = Player {
            seat,
            policy: ctx.suite.policy_of(index, seat),
            wallet: Wallet {
                gold: ctx.rules.shop.starting_gold,
                dividend: 0,
                profit: 0,
            },
            xp: 0,
            level: 1,
            units: Vec::new(),
            runes: Vec::new(),
            resonance: ResonanceSlot::default(),
            forge_cores: Vec::new(),
            rng: FightRng::for_fight(ctx.suite.master_seed ^ SHOP_KEY, (index << 3) | u64::from(seat)),
            probe_rng: FightRng::for_fight(ctx.suite.master_seed ^ PROBE_KEY, (index << 3) | u64::from(seat)),
            planned: 0,
        };
        if let Some(start) = ctx.suite.seats.get(usize::from(seat)) {
            p.start_from(ctx, start);
        }
        p
    }

    fn start_from(&mut self, ctx: &MatchCtx, start: &SeatStart) {
        if let Some(g) = start.gold {
            self.wallet.gold = g;
        }
        self.wallet.dividend = start.dividend;
        self.wallet.profit = start.profit;
        for &(card, tier) in &start.units {
            if let Some((column, row)) = shop::free_cell(ctx, &self.units, card) {
                self.units.push(Owned {
                    card,
                    tier,
                    column,
                    row,
                    combined: false,
                    kept: Kept::default(),
                });
            }
        }
        // A seat may start above its level's unit count: it levels to hold them.
        while shop::capacity(ctx, self.level) < self.units.len() && self.level < ctx.rules.shop.max_level {
            self.level += 1;
        }
        for &(rune, tier) in &start.runes {
            if let Some((board, cell)) = shop::free_rune_place(ctx, &self.runes) {
                self.runes.push(RunePlacement {
                    rune,
                    tier,
                    board,
                    cell,
                });
            }
        }
        if let Some(r) = start.resonance {
            self.resonance.claim(r);
        }
    }

    /// The board this player fights with: units, runes, resonance, and the
    /// Forge Cores added up (200.3a).
    pub fn board(&self, name: String) -> BoardSpec {
        let mut forge = Forge::default();
        for c in &self.forge_cores {
            forge.crush_bonus += c.forge.crush_bonus;
            forge.tick_reduction += c.forge.tick_reduction;
        }
        BoardSpec {
            name,
            units: self
                .units
                .iter()
                .map(|o| Placement {
                    card: o.card,
                    tier: o.tier,
                    column: o.column,
                    row: o.row,
                    combined: o.combined,
                })
                .collect(),
            // A player's units carry their states as `Carried` (200.3c).
            states: Vec::new(),
            forge,
            runes: self.runes.clone(),
            resonance: self.resonance.equipped(),
        }
    }

    fn kept(&self) -> Vec<Kept> {
        self.units.iter().map(|o| o.kept).collect()
    }
}

/// A board as a player committed it (200.1g): what a nemesis ghost is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ghost {
    pub source_match: u64,
    pub seat: u8,
    pub board: BoardSpec,
    pub dividend: i32,
    pub profit: i32,
    pub kept: Vec<Kept>,
    pub forge_cores: Vec<String>,
}

impl Ghost {
    pub fn label(&self) -> String {
        format!("match {} seat {}", self.source_match, self.seat)
    }
}

/// Committed boards by round (index 0 is round 1).
#[derive(Debug, Clone, Default)]
pub struct GhostPool {
    pub by_round: Vec<Vec<Ghost>>,
}

impl GhostPool {
    /// The pool the seed matches' commitments make, in match and seat order.
    pub fn from_results<'r>(results: impl IntoIterator<Item = &'r MatchResult>) -> GhostPool {
        let mut pool = GhostPool::default();
        for r in results {
            for (round, g) in &r.committed {
                let k = usize::from(*round) - 1;
                if pool.by_round.len() <= k {
                    pool.by_round.resize(k + 1, Vec::new());
                }
                pool.by_round[k].push(g.clone());
            }
        }
        pool
    }

    fn round(&self, round: u8) -> &[Ghost] {
        self.by_round.get(usize::from(round) - 1).map_or(&[], |v| v.as_slice())
    }
}

/// A match played.
#[derive(Debug, Clone)]
pub struct MatchResult {
    pub index: u64,
    pub players: u8,
    pub events: Vec<Event>,
    /// Each player's board as committed each round (200.1g).
    pub committed: Vec<(u8, Ghost)>,
    /// Cleared the last round's boss (docs/rules-reconstruction.md).
    pub won: bool,
    pub boss_wins: u32,
    pub nemesis_wins: u32,
    /// Each seat's board after the last round.
    pub final_boards: Vec<BoardSpec>,
    pub final_wallets: Vec<Wallet>,
    pub final_levels: Vec<i32>,
}

/// A fight's stream within a match: the match index, round, stage and a
/// slot (the seat, or a rescuer's chain position) packed into one number
/// of the run's fight streams.
pub fn stream(index: u64, round: u8, stage: Stage, slot: u32) -> u64 {
    (index << 20) | (u64::from(round) << 12) | ((stage as u64) << 10) | u64::from(slot & 0x3ff)
}

/// The tier bosses and minions fight at in `round` (200.1d, reconstructed).
pub fn boss_tier(rules: &Rules, round: u8) -> u8 {
    let r = i32::from(round);
    if r >= rules.round.boss_tier_three_round {
        3
    } else if r >= rules.round.boss_tier_two_round {
        2
    } else {
        1
    }
}

/// A boss option's board in `round`: the boss in the first place it fits,
/// then its minions in reading order, all at the round's tier
/// ([`boss_tier`]), with another copy of the minions every
/// `round.extra_minion_every_rounds` rounds (200.1d, reconstructed).
pub fn boss_board(ctx: &MatchCtx, option: &BossOption, round: u8) -> BoardSpec {
    boss_board_placed(ctx, option, round).0
}

/// The boss board of `round`, and how many minion copies found no free
/// cell on it (docs/rules-reconstruction.md, "The boss draft and combat":
/// each grows the boss instead).
fn boss_board_placed(ctx: &MatchCtx, option: &BossOption, round: u8) -> (BoardSpec, i32) {
    let tier = boss_tier(&ctx.rules, round);
    let every = ctx.rules.round.extra_minion_every_rounds;
    let copies = 1 + if every > 0 { (i32::from(round) - 1) / every } else { 0 };
    let minions = (0..copies).flat_map(|_| option.minions.iter());
    let mut units: Vec<Owned> = Vec::new();
    let mut unplaced = 0;
    for &card in std::iter::once(&option.boss).chain(minions) {
        if let Some((column, row)) = shop::free_cell(ctx, &units, card) {
            units.push(Owned {
                card,
                tier: tier.min(ctx.catalog.card(card).tiers()).max(1),
                column,
                row,
                combined: false,
                kept: Kept::default(),
            });
        } else {
            unplaced += 1;
        }
    }
    let board = BoardSpec {
        name: option.name.clone(),
        units: units
            .iter()
            .map(|o| Placement {
                card: o.card,
                tier: o.tier,
                column: o.column,
                row: o.row,
                combined: false,
            })
            .collect(),
        forge: Forge::default(),
        runes: Vec::new(),
        resonance: None,
        // The round's growth is the entrant's state ([`boss_entrant`]).
        states: Vec::new(),
    };
    (board, unplaced)
}

/// A boss option as a fighter in `round`: its board, the boss (unit 0)
/// strengthened by the round (200.1d, reconstructed).
pub fn boss_entrant(ctx: &MatchCtx, option: &BossOption, round: u8) -> Carried {
    let (board, unplaced) = boss_board_placed(ctx, option, round);
    let mut c = Carried::fresh(board, 0, 0, &[]);
    // A round's growth each round after the first, and one more for each
    // minion copy the grid cannot hold, so a boss whose board is full keeps
    // growing instead of losing its copies without a word.
    let grown = i32::from(round) - 1 + unplaced;
    if let Some(boss) = c.states.first_mut() {
        boss.power_bonus = Some(ctx.rules.round.boss_power_per_round * grown);
        boss.armor_bonus = Some(ctx.rules.round.boss_armor_per_round * grown);
    }
    c
}

/// Wins count 2 and draws 1 over the planner's trial fights.
#[allow(clippy::too_many_arguments)]
fn trial_score(
    ctx: &MatchCtx,
    engine: &mut Engine,
    round: u8,
    me: &Carried,
    them: &Carried,
    first: u64,
    index: u64,
    seat: u8,
) -> i32 {
    let mut score = 0;
    for j in 0..u64::from(ctx.suite.planner_fights) {
        let rng = FightRng::for_fight(
            ctx.suite.master_seed ^ PLANNER_KEY,
            (index << 20) | (u64::from(seat) << 16) | ((first + j) & 0xffff),
        );
        let f = fight(ctx, engine, round, me, them, rng);
        score += match f.outcome.winner {
            Some(Side::Left) => 2,
            None => 1,
            Some(Side::Right) => 0,
        };
    }
    score
}

/// `want` distinct indices below `n`, drawn in order.
fn draw_distinct(rng: &mut FightRng, n: usize, want: usize) -> Vec<usize> {
    let mut all: Vec<usize> = (0..n).collect();
    let mut out = Vec::new();
    while out.len() < want && !all.is_empty() {
        out.push(all.remove(rng.below(all.len() as u32) as usize));
    }
    out
}

/// A ghost as a fighter: its committed board with its Scrip and Quest
/// progress, nothing else carried (200.3c); its Forge Cores travel with
/// the board (200.3d).
fn ghost_entrant(g: &Ghost) -> Carried {
    let mut c = Carried::fresh(g.board.clone(), g.dividend, g.profit, &g.kept);
    c.board.name = g.label();
    c
}
