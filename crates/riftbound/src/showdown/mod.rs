//! One combat showdown at one battlefield, played whole: the attacker's
//! lane moves in against the defender's, move triggers resolve (RB2, RB22),
//! roles are assigned (RB3), the initial chain is built (RB44, RB49), the
//! players play spells from their hands with focus and priority until both
//! pass (RB45), combat damage is assigned lethal-first (RB42) and combat
//! cleanup kills and heals (RB34); then the attacker conquers or the
//! defender holds (RB46). Every choice the rulings leave to a player — the
//! order of one's own simultaneous triggers (RB6, RB27), targets (RB39),
//! whether and what to play, the order of combat damage — is made by a
//! seeded [`Policy`] from the showdown's own stream. The batch runner keeps
//! one [`Showdown`] per worker: a showdown allocates nothing.

use super::cards::{Action, Card, CardIndex, CardKind, Catalog, Effect, MAX_EFFECTS, Speed, Target, When};
use super::runes::{Cost, DOMAINS, Runes};
use super::{Board, EventKind, Gear, MAX_HIDDEN, Player, Role, UnitId};
use gridsim_core::rng::FightRng;

mod chain;
mod plays;
mod policy;
pub use policy::Seeded;

/// The most items the chain, and the items waiting to be finalized, hold;
/// an item past it is not added (the loader's limits keep a suite's
/// showdowns far below it).
pub const MAX_CHAIN: usize = 256;
/// The most spells in one hand.
pub const MAX_HAND: usize = 8;
/// The most units in one lane: two lanes fill a board.
pub const MAX_LANE: usize = 16;
const _: () = assert!(2 * MAX_LANE <= super::MAX_UNITS, "both lanes' units fit on the board");
/// The most cards of a deck a showdown reads from its top (RB48).
pub const MAX_DECK: usize = 8;
/// The most cards of a hand a showdown holds without offering them
/// ([`Lane::held`]); a whole game's hand past it keeps the rest out of
/// reach of a discard.
pub const MAX_HELD: usize = 32;
/// The most cards a player can discard in one showdown: all it holds.
const MAX_DISCARDS: usize = MAX_HAND + MAX_HELD;
/// The most gear and runes at one player's base with an ability.
pub const MAX_BASE: usize = 4;
/// The most cards a player may play at one moment: from hand, from
/// Hidden, abilities at its base.
const MAX_OPTIONS: usize = MAX_HAND + MAX_HIDDEN + MAX_BASE;

/// One unit of a lane and the gear it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LaneUnit {
    pub card: CardIndex,
    pub gear: Option<CardIndex>,
    /// A second gear it holds (RB14's Skyfall of Areion with Trinity
    /// Force); never in a suite's lanes.
    pub second_gear: Option<CardIndex>,
    /// Owned by the other player and controlled by this lane's (a stolen
    /// unit, RB7, RB8); never in a suite's lanes.
    pub stolen: bool,
    /// Stays at its base: an attacker that does not move in, a defender
    /// not at the battlefield (a target "anywhere", RB11).
    pub at_base: bool,
    /// Comes with a Buff (RB27: a Buff to a unit that has one fails);
    /// never in a suite's lanes.
    pub buffed: bool,
    /// What a whole game brings from earlier in the turn: exhausted by a
    /// move (141.2), damage marked and not yet healed (317.2), "this
    /// turn" Might changes (317.3); never in a suite's lanes.
    pub exhausted: bool,
    pub damage: i32,
    pub might_this_turn: i32,
}

/// One side's forces: its units and its hand of spells; in scenarios also
/// the cards it hid at the battlefield (RB11, RB12), its deck's top cards,
/// top first (RB48), and the gear and runes at its base whose abilities it
/// may activate (RB40, RB41).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Lane {
    pub units: Vec<LaneUnit>,
    pub hand: Vec<CardIndex>,
    /// The rest of a whole game's hand, which this showdown does not offer:
    /// units and gear, which no showdown plays (Core Rules 308.1.a), and in
    /// a play of the action phase every card but the one played. A discard
    /// may take them (RB40).
    pub held: Vec<CardIndex>,
    pub hidden: Vec<CardIndex>,
    pub deck: Vec<CardIndex>,
    pub base: Vec<CardIndex>,
}

/// How the seeded policy plays both sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// The chance, in percent, that a player with a spell it can play plays
    /// one when it has priority or focus.
    pub cast_percent: i32,
}

/// Every choice the rulings leave to a player, asked of whoever makes it:
/// the seeded policy in batch runs ([`Seeded`]), a script in a scenario.
pub trait Choices {
    /// Which of `castable` (cards in `p`'s hand it may play now) player `p`
    /// plays, by index; `None` passes.
    fn play(&mut self, p: Player, castable: &[CardIndex]) -> Option<usize>;
    /// Which of `legal` an effect of `card` aims at, by index: a spell's
    /// (`unit` none) or a trigger's of `unit`. `legal` is never empty.
    fn target(&mut self, p: Player, card: CardIndex, unit: Option<UnitId>, legal: &[UnitId]) -> usize;
    /// The order in which `p`'s simultaneous items go on the chain, first
    /// first (RB6, RB27), permuted in place: each item as its place among
    /// the pending and the unit whose trigger it is.
    fn order(&mut self, p: Player, items: &mut [(usize, Option<UnitId>)]);
    /// The order in which `p` assigns combat damage to `targets` (RB42).
    fn damage_order(&mut self, p: Player, targets: &mut [UnitId]);
    /// Whether a player takes its own unit out of the fight (a recall)
    /// only to save it from the item on top of the chain: the seeded
    /// policy's prudence, which the rules do not ask (a script may recall
    /// at will, RB45).
    fn prudent(&self) -> bool {
        false
    }
    /// Whether `p` does what an optional ("you may") effect of `card` offers,
    /// decided as it resolves (RB50).
    fn may(&mut self, p: Player, card: CardIndex) -> bool;
    /// Which card of `hand` player `p` discards to pay a cost (RB40).
    fn discard(&mut self, p: Player, hand: &[CardIndex]) -> usize;
    /// Whether the battlefield's holder `p` hides `card`, a Hidden card in
    /// its hand, at the battlefield before the showdown (RB11, RB20).
    fn hide(&mut self, p: Player, card: CardIndex) -> bool;
}

/// How a showdown ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// No defender left and an attacker at the battlefield: a point at once
    /// (RB46).
    Conquer,
    /// A defender left: the attackers recalled, the battlefield kept (RB46,
    /// RB47).
    Hold,
    /// Neither side left at the battlefield.
    Empty,
}

impl End {
    pub fn name(self) -> &'static str {
        match self {
            End::Conquer => "conquer",
            End::Hold => "hold",
            End::Empty => "empty",
        }
    }
}

/// What a showdown came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// The player who won (0 the attacker, 1 the defender); none when
    /// neither side is left at the battlefield.
    pub winner: Option<Player>,
    pub end: End,
    /// Chain items resolved, and spells played.
    pub resolved: u32,
    pub played: u32,
    /// Each player's units still on the board.
    pub survivors: [u32; 2],
    /// Items the chain had no room for (0 in any suite the loader takes).
    pub dropped: u32,
}

/// Where a chain item comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Spell,
    /// The card's trigger at this index.
    Trigger(u8),
    /// A gear's or rune's activated ability (RB40, RB41).
    Ability,
    /// A unit being played: it finalizes and resolves at once, entering
    /// its player's base (RB17, RB48).
    Unit,
}

/// Where a card a player may play now is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    Hand(usize),
    Hidden(usize),
    Base(usize),
}

/// What a player did with priority or focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Acted {
    Passed,
    /// Played a card or activated an ability: priority goes to the other
    /// player.
    Played,
    /// An [Add] ability resolved at once: its player keeps priority
    /// (RB41).
    Kept,
}

/// An item on the chain, or waiting to be finalized onto it (RB41, RB48).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Item {
    controller: Player,
    card: CardIndex,
    source: Source,
    /// The unit whose trigger it is.
    unit: Option<UnitId>,
    /// The unit the trigger is about.
    subject: Option<UnitId>,
    /// Chosen targets, one per effect, declared as it is finalized (RB39).
    targets: [Option<UnitId>; MAX_EFFECTS],
    /// Played from Hidden: its targets must be "here" (RB11).
    here_only: bool,
    /// The instruction that made it pending: items pending from earlier
    /// instructions are finalized first (RB48); one instruction's items
    /// are simultaneous, ordered by their players (RB6, RB27).
    batch: u32,
}

const NO_ITEM: Item = Item {
    controller: 0,
    card: 0,
    source: Source::Spell,
    unit: None,
    subject: None,
    targets: [None; MAX_EFFECTS],
    here_only: false,
    batch: 0,
};

/// A worker's showdown: the board and the chain, reused showdown after
/// showdown.
pub struct Showdown<'c> {
    catalog: &'c Catalog,
    /// Each card's triggers' `When`s as a set of bits, and each unit's
    /// (its card's and gear's as it entered): a unit with no trigger for a
    /// moment is passed over at once.
    card_whens: Vec<u32>,
    unit_whens: [u32; super::MAX_UNITS],
    /// Every `When` some unit of the showdown has waited for: a moment
    /// none waits for is passed over without a look at the units.
    board_whens: u32,
    /// Where finalizing orders one player's pending items (kept here so
    /// that no call fills a fresh array).
    order_scratch: [(usize, Option<UnitId>); MAX_CHAIN],
    pub board: Board,
    /// The battlefield's card, when it has one: its conquer triggers are
    /// the conqueror's (RB19).
    pub battlefield: Option<CardIndex>,
    chain: [Item; MAX_CHAIN],
    chain_len: usize,
    pending: [Item; MAX_CHAIN],
    pending_len: usize,
    hand: [[CardIndex; MAX_HAND]; 2],
    hand_len: [usize; 2],
    held: [[CardIndex; MAX_HELD]; 2],
    held_len: [usize; 2],
    /// The cards each player discarded, in order (RB40).
    discarded: [[CardIndex; MAX_DISCARDS]; 2],
    discarded_len: [usize; 2],
    /// Each player's deck top, top first, and how much of it is drawn.
    deck: [[CardIndex; MAX_DECK]; 2],
    deck_len: [usize; 2],
    deck_next: [usize; 2],
    /// Each player's gear and runes at base with an ability, and which are
    /// exhausted.
    base: [[CardIndex; MAX_BASE]; 2],
    base_exhausted: [[bool; MAX_BASE]; 2],
    base_len: [usize; 2],
    /// Who holds the battlefield: its Hidden cards are trashed once they
    /// no longer do (RB12, RB20).
    holder: Option<Player>,
    /// Roles are assigned: a unit entering the battlefield takes its
    /// player's (RB12).
    in_combat: bool,
    /// The instruction now resolving (see [`Item::batch`]).
    batch: u32,
    /// A kill instruction of the item now resolving killed its unit: what
    /// its later instructions read of "the killed unit" (RB9, RB39).
    killed: bool,
    /// The attacker's units that do not move in, one bit per unit (a
    /// board holds at most 32 units).
    stays: u32,
    resolved: u32,
    played: u32,
    dropped: u32,
    /// Whether a card played from hand is paid for from its player's
    /// runes (Core Rules 130, 353): in a whole game; a suite's showdowns
    /// pay nothing.
    pub pays: bool,
    /// Each player's runes, as a whole game hands them to the showdown
    /// (player 0 the attacker) and reads them back.
    pub runes: [Runes; 2],
    /// The runes each player recycled paying, by domain: to the bottom of
    /// its rune deck (403.1.b).
    pub recycled_runes: [[u8; DOMAINS]; 2],
    /// What player 0's card costs in a play of the action phase
    /// (`act_with`), as the game reckons it: its Accelerate added (Core
    /// Rules 721), a Legion discount taken off; its printed cost when
    /// none, and none once that play is over.
    pub play_cost: Option<Cost>,
    /// Each player's Legend ready to save its buffed unit from death, as a
    /// whole game hands it over (Sett, The Boss): the board's
    /// [`Board::legend_save`] at the start of each showdown.
    pub legend_saves: [bool; 2],
    /// How many cards each player has played this turn before the
    /// showdown, as a whole game reckons them; none in a suite's
    /// showdowns. Legion (Core Rules 728) reads it: an effect marked
    /// `legion` does nothing without a card played.
    pub cards_played: [u8; 2],
    /// The same count as the showdown goes on, each card played in it
    /// counted (a unit as it enters, a spell as it resolves): the second
    /// sets off "when you play your second card in a turn".
    played_now: [u8; 2],
}

impl<'c> Showdown<'c> {
    /// A showdown on `catalog`; `logging` writes the board's log.
    pub fn new(catalog: &'c Catalog, logging: bool) -> Showdown<'c> {
        let card_whens = catalog
            .cards
            .iter()
            .map(|c| c.triggers.iter().fold(0, |m, t| m | t.when.bit()))
            .collect();
        Showdown {
            catalog,
            card_whens,
            unit_whens: [0; super::MAX_UNITS],
            board_whens: 0,
            order_scratch: [(0, None); MAX_CHAIN],
            board: Board {
                logging,
                ..Board::default()
            },
            battlefield: None,
            chain: [NO_ITEM; MAX_CHAIN],
            chain_len: 0,
            pending: [NO_ITEM; MAX_CHAIN],
            pending_len: 0,
            hand: [[0; MAX_HAND]; 2],
            hand_len: [0; 2],
            held: [[0; MAX_HELD]; 2],
            held_len: [0; 2],
            discarded: [[0; MAX_DISCARDS]; 2],
            discarded_len: [0; 2],
            deck: [[0; MAX_DECK]; 2],
            deck_len: [0; 2],
            deck_next: [0; 2],
            base: [[0; MAX_BASE]; 2],
            base_exhausted: [[false; MAX_BASE]; 2],
            base_len: [0; 2],
            holder: None,
            in_combat: false,
            batch: 0,
            killed: false,
            stays: 0,
            resolved: 0,
            played: 0,
            dropped: 0,
            pays: false,
            runes: [Runes::default(); 2],
            recycled_runes: [[0; DOMAINS]; 2],
            play_cost: None,
            legend_saves: [false; 2],
            cards_played: [0; 2],
            played_now: [0; 2],
        }
    }

    /// Plays one showdown: `attacker` (player 0, the turn player) moves
    /// into the battlefield `defender` (player 1) holds.
    pub fn play(&mut self, attacker: &Lane, defender: &Lane, policy: Policy, rng: &mut FightRng) -> Outcome {
        self.play_with(attacker, defender, &mut Seeded { policy, rng })
    }

    /// Plays one showdown with `choices` making every player's choice.
    /// The cards left in `p`'s hand.
    pub fn hand_size(&self, p: Player) -> usize {
        self.hand_len[usize::from(p)]
    }

    /// The cards left in `p`'s hand, in no order.
    pub fn hand(&self, p: Player) -> &[CardIndex] {
        let pi = usize::from(p);
        &self.hand[pi][..self.hand_len[pi]]
    }

    /// The cards `p` discarded in this showdown, in order.
    pub fn discarded(&self, p: Player) -> &[CardIndex] {
        let pi = usize::from(p);
        &self.discarded[pi][..self.discarded_len[pi]]
    }

    pub fn play_with(&mut self, attacker: &Lane, defender: &Lane, choices: &mut impl Choices) -> Outcome {
        self.setup(attacker, defender);
        let mut p = Play { s: self, choices };
        p.hide_cards();
        p.move_in();
        let end = p.combat();
        self.outcome(end)
    }

    /// Plays the hold of the battlefield `holder` (player 1) keeps, at the
    /// start of its turn: a point, then its units' and the battlefield's
    /// hold triggers (RB14).
    pub fn hold_with(&mut self, holder: &Lane, choices: &mut impl Choices) -> Outcome {
        self.setup(&Lane::default(), holder);
        let mut p = Play { s: self, choices };
        p.hold();
        self.outcome(End::Hold)
    }

    /// One play of the turn player (player 0) in its action phase, outside
    /// any showdown (Core Rules 148, 310.1.a): it is offered the cards of
    /// `actor`'s hand; what it plays goes on the chain — a unit enters its
    /// base at once and its "when you play me" triggers go on (RB17,
    /// RB26) —, and the chain resolves with priority passed, so `other`
    /// (player 1) may answer only with Reactions (309.1.a, RB41). Each
    /// lane's units at the battlefield are there already (nothing moves
    /// in), the rest at their base; no combat follows, nothing is
    /// conquered.
    pub fn act_with(&mut self, actor: &Lane, other: &Lane, choices: &mut impl Choices) -> Outcome {
        self.setup(actor, other);
        for u in self.board.units() {
            if self.board.controller(u) == 0 && self.stays & (1 << u.0) == 0 {
                self.board.place(u, false);
            }
        }
        let present = |p: Player| {
            let b = &self.board;
            b.units().any(|u| b.here(u) && b.controller(u) == p)
        };
        self.holder = [0, 1].into_iter().find(|&p| present(p));
        let mut p = Play { s: self, choices };
        let acted = p.try_cast(0, false);
        p.s.play_cost = None;
        if acted != Acted::Passed {
            p.run_chain(0);
        }
        self.outcome(End::Empty)
    }

    /// What `card` costs player `p` now: its printed cost, or what the
    /// game reckons player 0's card of a play of the action phase costs.
    fn cost_of(&self, p: Player, card: &Card) -> Cost {
        match self.play_cost {
            Some(cost) if p == 0 => cost,
            _ => card.cost,
        }
    }

    fn outcome(&mut self, end: End) -> Outcome {
        let s = self;
        s.board.check_invariants();
        let mut survivors = [0; 2];
        for u in s.board.units() {
            if s.board.alive(u) {
                survivors[usize::from(s.board.controller(u))] += 1;
            }
        }
        let winner = match end {
            End::Conquer => Some(0),
            End::Hold => Some(1),
            End::Empty => None,
        };
        Outcome {
            winner,
            end,
            resolved: s.resolved,
            played: s.played,
            survivors,
            dropped: s.dropped,
        }
    }

    fn setup(&mut self, attacker: &Lane, defender: &Lane) {
        self.board.reset();
        self.board.legend_save = self.legend_saves;
        self.chain_len = 0;
        self.pending_len = 0;
        self.resolved = 0;
        self.played = 0;
        self.played_now = self.cards_played;
        self.dropped = 0;
        self.in_combat = false;
        self.batch = 0;
        self.stays = 0;
        self.recycled_runes = [[0; DOMAINS]; 2];
        self.board_whens = 0;
        for (player, lane) in [attacker, defender].into_iter().enumerate() {
            let p = player as Player;
            for lu in lane.units.iter().take(MAX_LANE) {
                let card = self.catalog.card(lu.card);
                let Some(u) = self.board.add_unit(card.might) else {
                    break;
                };
                // A stolen unit is the other player's card under this
                // lane's control (RB8).
                let owner = if lu.stolen { 1 - p } else { p };
                self.board.set_card(u, lu.card, owner, card.assault, card.shield);
                self.board.set_passive(u, card.passive);
                if card.token {
                    self.board.set_token(u);
                }
                self.unit_whens[usize::from(u.0)] = self.card_whens[usize::from(lu.card)];
                self.board.set_controller(u, p);
                // The defender's units hold the battlefield; the attacker's
                // wait at base until they move in.
                self.board.place(u, p == 0 || lu.at_base);
                if lu.at_base {
                    self.stays |= 1 << u.0;
                }
                if lu.buffed {
                    self.board.buff(u);
                }
                if lu.exhausted || lu.damage != 0 {
                    self.board.set_state(u, lu.exhausted, lu.damage);
                }
                if lu.might_this_turn != 0 {
                    self.board.modify(u, lu.might_this_turn, None, super::Lasts::Turn);
                }
                for g in lu.gear.into_iter().chain(lu.second_gear) {
                    self.unit_whens[usize::from(u.0)] |= self.card_whens[usize::from(g)];
                    let gear = self.catalog.card(g);
                    self.board.equip(
                        u,
                        Gear {
                            card: g,
                            might: gear.might,
                            replacement: gear.replacement,
                        },
                    );
                }
                self.board_whens |= self.unit_whens[usize::from(u.0)];
            }
            let n = lane.hand.len().min(MAX_HAND);
            self.hand[player][..n].copy_from_slice(&lane.hand[..n]);
            self.hand_len[player] = n;
            let n = lane.held.len().min(MAX_HELD);
            self.held[player][..n].copy_from_slice(&lane.held[..n]);
            self.held_len[player] = n;
            self.discarded_len[player] = 0;
            let n = lane.hidden.len().min(MAX_HIDDEN);
            self.board.hidden[player][..n].copy_from_slice(&lane.hidden[..n]);
            self.board.hidden_len[player] = n;
            let n = lane.deck.len().min(MAX_DECK);
            self.deck[player][..n].copy_from_slice(&lane.deck[..n]);
            self.deck_len[player] = n;
            self.deck_next[player] = 0;
            let n = lane.base.len().min(MAX_BASE);
            self.base[player][..n].copy_from_slice(&lane.base[..n]);
            self.base_exhausted[player] = [false; MAX_BASE];
            self.base_len[player] = n;
        }
        self.board.field_might = self.battlefield.map_or(0, |b| self.catalog.card(b).might);
        // The defender holds the battlefield it has units at.
        let defended = defender.units.iter().take(MAX_LANE).any(|u| !u.at_base);
        self.holder = defended.then_some(1);
    }
}

/// One showdown in play: the showdown and who makes its choices.
struct Play<'s, 'c, 'x, C: Choices> {
    s: &'s mut Showdown<'c>,
    choices: &'x mut C,
}

impl<C: Choices> Play<'_, '_, '_, C> {
    /// The defender, holding the battlefield, may hide the Hidden cards of
    /// its hand there before the attacker comes (RB11, RB20).
    fn hide_cards(&mut self) {
        if self.s.holder != Some(1) {
            return;
        }
        let catalog = self.s.catalog;
        for k in (0..self.s.hand_len[1]).rev() {
            let card = self.s.hand[1][k];
            if !catalog.card(card).hidden || self.s.board.hidden_len[1] == MAX_HIDDEN || !self.choices.hide(1, card) {
                continue;
            }
            let b = &mut self.s.board;
            b.hidden[1][b.hidden_len[1]] = card;
            b.hidden_len[1] += 1;
            self.s.hand_len[1] -= 1;
            self.s.hand[1][k] = self.s.hand[1][self.s.hand_len[1]];
        }
    }

    /// The attacker's units move in; their move triggers go on the chain
    /// and resolve before combat can start (RB2, RB16, RB22). Assault is
    /// not theirs yet: roles come with the combat showdown (RB3, RB5).
    fn move_in(&mut self) {
        for u in self.s.board.units() {
            if self.s.board.controller(u) == 0 && self.s.stays & (1 << u.0) == 0 {
                self.s.board.place(u, false);
                self.collect(u, When::Move, None);
                self.battlefield_triggers(When::EnemyMovesHere, 1, Some(u));
            }
        }
        self.finalize_pending();
        self.run_chain(0);
    }

    /// The combat showdown, combat damage and cleanup, and who keeps the
    /// battlefield. An attacker that arrives where no enemy unit is plays
    /// a non-combat showdown first: no roles, so no Assault or Shield;
    /// a unit moved in during it contests the battlefield, and the combat
    /// showdown follows (RB3).
    fn combat(&mut self) -> End {
        if self.present(0) && !self.present(1) {
            self.focus_loop();
        }
        if self.present(0) && self.present(1) {
            self.s.in_combat = true;
            self.assign_roles();
            // The initial chain: the attacker's triggers first, the
            // defender's on top, so the defender's resolve first (RB44,
            // RB49); then priority, with the turn player first.
            self.finalize_pending();
            self.run_chain(0);
            self.focus_loop();
            if self.present(0) && self.present(1) {
                self.combat_damage();
            }
            self.s.board.combat_cleanup();
            self.s.in_combat = false;
            self.deaths_to_pending();
            self.cleanup();
            self.run_chain(0);
        }
        let end = match (self.present(0), self.present(1)) {
            (_, true) => {
                // Attackers still here are recalled: no move (RB43, RB46).
                for u in self.s.board.units() {
                    if self.s.board.controller(u) == 0 && self.s.board.here(u) {
                        self.s.board.recall(u, false, false);
                    }
                }
                self.s.board.log_line(EventKind::Held, None, 1, "RB46");
                End::Hold
            }
            (true, false) => {
                self.s.holder = Some(0);
                self.s.board.score[0] += 1;
                self.s.board.log_line(EventKind::Conquered, None, 0, "RB46");
                self.site_triggers(0, When::Conquer);
                End::Conquer
            }
            (false, false) => End::Empty,
        };
        for u in self.s.board.units() {
            self.s.board.set_role(u, Role::None);
        }
        end
    }

    /// The holder scores its hold, then its units' hold triggers (their
    /// cards' and gear's) and the battlefield's go on the chain at once, in
    /// the holder's order, and resolve (RB14).
    fn hold(&mut self) {
        self.s.board.score[1] += 1;
        self.s.board.log_line(EventKind::Held, None, 1, "RB14");
        let score = self.s.board.score[1] as i32;
        self.s.board.log_line(EventKind::Scored, None, score, "RB14");
        self.site_triggers(1, When::Hold);
    }

    /// Player `p`'s units' triggers at the battlefield and the
    /// battlefield's own that wait for `when` (a conquest, a hold), all at
    /// once, in `p`'s order (RB14, RB19), then resolved.
    fn site_triggers(&mut self, p: Player, when: When) {
        for u in self.s.board.units() {
            if self.s.board.controller(u) == p && self.s.board.here(u) {
                self.collect(u, when, None);
            }
        }
        self.battlefield_triggers(when, p, None);
        self.finalize_pending();
        self.run_chain(p);
    }

    /// The battlefield's triggers that wait for `when`, controlled by
    /// `controller`, about `subject`, among the pending items.
    fn battlefield_triggers(&mut self, when: When, controller: Player, subject: Option<UnitId>) {
        let Some(bf) = self.s.battlefield else { return };
        let catalog = self.s.catalog;
        for (k, t) in catalog.card(bf).triggers.iter().enumerate() {
            if t.when == when {
                self.push_pending(Item {
                    controller,
                    card: bf,
                    source: Source::Trigger(k as u8),
                    subject,
                    ..NO_ITEM
                });
            }
        }
    }

    /// Whether player `p` has a unit at the battlefield.
    fn present(&self, p: Player) -> bool {
        self.s
            .board
            .units()
            .any(|u| self.s.board.here(u) && self.s.board.controller(u) == p)
    }

    /// Attacker and defender given at the start of the combat showdown,
    /// and the triggers that come with them (RB3, RB44, RB49).
    fn assign_roles(&mut self) {
        for u in self.s.board.units() {
            if self.s.board.here(u) {
                let role = if self.s.board.controller(u) == 0 {
                    Role::Attacker
                } else {
                    Role::Defender
                };
                self.s.board.set_role(u, role);
            }
        }
        for u in self.s.board.units() {
            let role = self.s.board.role(u);
            self.role_triggers(u, role);
        }
    }

    /// `u`, player `p`'s, arrived at the battlefield (played from Hidden,
    /// moved in): once combat has begun it becomes an attacker or a
    /// defender after the start, which triggers what becoming one at the
    /// start does (RB3); before, it takes no role (a non-combat showdown).
    pub(super) fn join_combat(&mut self, u: UnitId, p: Player) {
        if self.s.in_combat {
            let role = if p == 0 { Role::Attacker } else { Role::Defender };
            self.s.board.set_role(u, role);
            self.role_triggers(u, role);
        }
    }

    /// `u` became an attacker or a defender: its own "when I attack" or
    /// "when I defend" (Mask's too), and each defender's "when an enemy
    /// unit attacks" or "when a friendly unit defends" about it (RB3,
    /// RB33, RB49).
    pub(super) fn role_triggers(&mut self, u: UnitId, role: Role) {
        let about = match role {
            Role::Attacker => {
                self.collect(u, When::Attack, None);
                When::EnemyAttacks
            }
            Role::Defender => {
                self.defend(u);
                When::FriendlyDefends
            }
            Role::None => return,
        };
        for v in self.s.board.units() {
            if self.s.board.here(v) && self.s.board.controller(v) == 1 {
                self.collect(v, about, Some(u));
            }
        }
    }

    /// `u` became a defender: its "when I defend" triggers, and Mask's
    /// "when I defend alone" if it is its player's only unit at the
    /// battlefield now — read as it triggers only, so a unit joining it
    /// later takes nothing back (RB12).
    fn defend(&mut self, u: UnitId) {
        self.collect(u, When::Defend, None);
        if self.s.unit_whens[usize::from(u.0)] & When::DefendAlone.bit() == 0 {
            return;
        }
        let p = self.s.board.controller(u);
        let b = &self.s.board;
        let alone = b.units().all(|v| v == u || !b.here(v) || b.controller(v) != p);
        if alone {
            self.collect(u, When::DefendAlone, None);
        }
    }

    /// Players with focus play or pass in turn; the showdown ends when
    /// both pass in a row without starting a chain (RB45).
    fn focus_loop(&mut self) {
        let mut focus: Player = 0;
        let mut passes = 0;
        while passes < 2 {
            match self.try_cast(focus, false) {
                // Its player holds priority on the chain it started (RB26);
                // once the chain is resolved, focus passes.
                Acted::Played => {
                    self.run_chain(focus);
                    passes = 0;
                }
                // An [Add] resolved: its player keeps focus, and priority
                // on whatever its cleanup put on the chain (RB41).
                Acted::Kept => {
                    self.run_chain(focus);
                    passes = 0;
                    continue;
                }
                Acted::Passed => {
                    self.s.board.log_line(EventKind::Passed, None, i32::from(focus), "RB45");
                    passes += 1;
                }
            }
            focus = 1 - focus;
        }
    }

    /// Both sides deal their Might at once — a stunned unit none (RB47),
    /// Might read as at least 0 (RB35) — each assigned lethal-first in an
    /// order its player chooses (RB42).
    fn combat_damage(&mut self) {
        let mut order = [[UnitId(0); super::MAX_UNITS]; 2];
        let mut n = [0usize; 2];
        let mut total = [0i32; 2];
        for u in self.s.board.units() {
            if !self.s.board.here(u) {
                continue;
            }
            let p = usize::from(self.s.board.controller(u));
            order[p][n[p]] = u;
            n[p] += 1;
            if !self.s.board.stunned(u) {
                total[p] = total[p].saturating_add(self.s.board.might(u));
            }
        }
        let mut shares = [[0i32; super::MAX_UNITS]; 2];
        for (p, &dealt) in total.iter().enumerate() {
            // Player p assigns its damage to the other side's units.
            let enemy = 1 - p;
            let targets = &mut order[enemy][..n[enemy]];
            self.choices.damage_order(p as Player, targets);
            self.tanks_first(targets);
            self.s
                .board
                .assign_combat_damage(dealt, targets, &mut shares[enemy][..n[enemy]]);
        }
        for ((units, dealt), &count) in order.iter().zip(&shares).zip(&n) {
            for (&u, &d) in units[..count].iter().zip(&dealt[..count]) {
                self.s.board.deal_damage(u, d);
            }
        }
    }
}

impl<C: Choices> Play<'_, '_, '_, C> {
    /// The units with Tank moved ahead of the rest, each group in the
    /// order its assigner chose: lethal goes to every Tank before any
    /// other unit of theirs (Core Rules 731; lethal first, RB42).
    fn tanks_first(&self, targets: &mut [UnitId]) {
        let catalog = self.s.catalog;
        let mut front = 0;
        for i in 0..targets.len() {
            if catalog.card(self.s.board.card(targets[i])).tank {
                targets[front..=i].rotate_right(1);
                front += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests;

const _: () = assert!(super::MAX_UNITS <= 32, "Showdown::stays holds one bit per unit");
