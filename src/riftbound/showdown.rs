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

use super::cards::{Action, CardIndex, CardKind, Catalog, Effect, MAX_EFFECTS, Speed, Target, When};
use super::{Board, EventKind, Gear, MAX_HIDDEN, Player, Role, UnitId};
use crate::engine::FightRng;

/// The most items the chain, and the items waiting to be finalized, hold;
/// an item past it is not added (the loader's limits keep a suite's
/// showdowns far below it).
pub const MAX_CHAIN: usize = 256;
/// The most spells in one hand.
pub const MAX_HAND: usize = 8;
/// The most units in one lane.
pub const MAX_LANE: usize = 8;
/// The most cards of a deck a showdown reads from its top (RB48).
pub const MAX_DECK: usize = 8;
/// The most gear and runes at one player's base with an ability.
pub const MAX_BASE: usize = 4;
/// The most cards a player may play at one moment: from hand, from
/// Hidden, abilities at its base.
const MAX_OPTIONS: usize = MAX_HAND + MAX_HIDDEN + MAX_BASE;

/// One unit of a lane and the gear it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
}

/// One side's forces: its units and its hand of spells; in scenarios also
/// the cards it hid at the battlefield (RB11, RB12), its deck's top cards,
/// top first (RB48), and the gear and runes at its base whose abilities it
/// may activate (RB40, RB41).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Lane {
    pub units: Vec<LaneUnit>,
    pub hand: Vec<CardIndex>,
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

/// The seeded policy: plays a spell it can play [`Policy::cast_percent`]
/// of the times it may, chooses targets uniformly, orders at random.
pub struct Seeded<'r> {
    pub policy: Policy,
    pub rng: &'r mut FightRng,
}

impl Choices for Seeded<'_> {
    fn play(&mut self, _p: Player, castable: &[CardIndex]) -> Option<usize> {
        if castable.is_empty() || !self.rng.chance_percent(self.policy.cast_percent) {
            return None;
        }
        Some(self.rng.below(castable.len() as u32) as usize)
    }

    fn target(&mut self, _p: Player, _card: CardIndex, _unit: Option<UnitId>, legal: &[UnitId]) -> usize {
        self.rng.below(legal.len() as u32) as usize
    }

    fn order(&mut self, _p: Player, items: &mut [(usize, Option<UnitId>)]) {
        shuffle(items, self.rng);
    }

    fn damage_order(&mut self, _p: Player, targets: &mut [UnitId]) {
        shuffle(targets, self.rng);
    }

    fn prudent(&self) -> bool {
        true
    }

    /// Even odds.
    fn may(&mut self, _p: Player, _card: CardIndex) -> bool {
        self.rng.below(2) == 0
    }

    /// Even odds.
    fn hide(&mut self, _p: Player, _card: CardIndex) -> bool {
        self.rng.below(2) == 0
    }

    fn discard(&mut self, _p: Player, hand: &[CardIndex]) -> usize {
        self.rng.below(hand.len().max(1) as u32) as usize
    }
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
    /// The attacker's units that do not move in, one bit per unit (a
    /// board holds at most 32 units).
    stays: u32,
    resolved: u32,
    played: u32,
    dropped: u32,
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
            deck: [[0; MAX_DECK]; 2],
            deck_len: [0; 2],
            deck_next: [0; 2],
            base: [[0; MAX_BASE]; 2],
            base_exhausted: [[false; MAX_BASE]; 2],
            base_len: [0; 2],
            holder: None,
            in_combat: false,
            batch: 0,
            stays: 0,
            resolved: 0,
            played: 0,
            dropped: 0,
        }
    }

    /// Plays one showdown: `attacker` (player 0, the turn player) moves
    /// into the battlefield `defender` (player 1) holds.
    pub fn play(&mut self, attacker: &Lane, defender: &Lane, policy: Policy, rng: &mut FightRng) -> Outcome {
        self.play_with(attacker, defender, &mut Seeded { policy, rng })
    }

    /// Plays one showdown with `choices` making every player's choice.
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
        self.chain_len = 0;
        self.pending_len = 0;
        self.resolved = 0;
        self.played = 0;
        self.dropped = 0;
        self.in_combat = false;
        self.batch = 0;
        self.stays = 0;
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
                self.unit_whens[usize::from(u.0)] = self.card_whens[usize::from(lu.card)];
                self.board.set_controller(u, p);
                // The defender's units hold the battlefield; the attacker's
                // wait at base until they move in.
                self.board.place(u, p == 0 || lu.at_base);
                if lu.at_base {
                    self.stays |= 1 << u.0;
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
            }
            let n = lane.hand.len().min(MAX_HAND);
            self.hand[player][..n].copy_from_slice(&lane.hand[..n]);
            self.hand_len[player] = n;
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
    /// battlefield.
    fn combat(&mut self) -> End {
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
            match self.s.board.role(u) {
                Role::Attacker => {
                    self.collect(u, When::Attack, None);
                    for v in self.s.board.units() {
                        if self.s.board.here(v) && self.s.board.controller(v) == 1 {
                            self.collect(v, When::EnemyAttacks, Some(u));
                        }
                    }
                }
                Role::Defender => {
                    self.defend(u);
                    for v in self.s.board.units() {
                        if self.s.board.here(v) && self.s.board.controller(v) == 1 {
                            self.collect(v, When::FriendlyDefends, Some(u));
                        }
                    }
                }
                Role::None => {}
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
                Acted::Played => {
                    self.run_chain(1 - focus);
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

    /// Resolves the chain to empty, `first` holding priority: a player
    /// may answer with a Reaction; two passes in a row resolve the top
    /// item, whose cleanup may add more (RB41, RB48), and priority goes to
    /// the controller of the item now on top.
    fn run_chain(&mut self, first: Player) {
        let mut priority = first;
        let mut passes = 0;
        while self.s.chain_len > 0 {
            match self.try_cast(priority, true) {
                Acted::Played => {
                    passes = 0;
                    priority = 1 - priority;
                    continue;
                }
                // An [Add] resolved with no priority passed (RB41).
                Acted::Kept => {
                    passes = 0;
                    continue;
                }
                Acted::Passed => {}
            }
            self.s
                .board
                .log_line(EventKind::Passed, None, i32::from(priority), "RB41");
            passes += 1;
            if passes < 2 {
                priority = 1 - priority;
                continue;
            }
            self.resolve_top();
            passes = 0;
            if self.s.chain_len > 0 {
                priority = self.s.chain[self.s.chain_len - 1].controller;
            }
        }
    }

    /// The top item resolves (LIFO, RB44), each instruction in turn (what
    /// one makes pending waits before the next's, RB48), then the cleanup
    /// after it.
    fn resolve_top(&mut self) {
        self.s.chain_len -= 1;
        let item = self.s.chain[self.s.chain_len];
        self.s.resolved += 1;
        self.s
            .board
            .log_line(EventKind::Resolved, item.unit, i32::from(item.card), "RB44");
        let catalog = self.s.catalog;
        let card = catalog.card(item.card);
        match item.source {
            Source::Spell => {
                for (k, e) in card.effects.iter().enumerate().take(MAX_EFFECTS) {
                    self.resolve_effect(&item, *e, item.targets[k], false);
                }
                // A resolved spell goes to its owner's trash.
                self.s.board.trash[usize::from(item.controller)] += 1;
            }
            Source::Trigger(k) => {
                if let Some(t) = card.triggers.get(usize::from(k)) {
                    // "Here" is where the trigger's unit is; a Deathknell's
                    // unit is in the trash and its targets read no place.
                    let from_unit = t.when != When::Death && item.unit.is_some();
                    self.resolve_effect(&item, t.effect, item.targets[0], from_unit);
                }
            }
            Source::Ability => {
                if let Some(a) = &card.ability {
                    for (k, e) in a.effects.iter().enumerate().take(MAX_EFFECTS) {
                        self.resolve_effect(&item, *e, item.targets[k], false);
                    }
                    if a.adds > 0 {
                        let p = usize::from(item.controller);
                        let b = &mut self.s.board;
                        b.energy[p] = b.energy[p].saturating_add(a.adds.unsigned_abs());
                        let now = b.energy[p] as i32;
                        b.log_line(EventKind::EnergyAdded, None, now, "RB41");
                        self.player_triggers(item.controller, When::Add);
                    }
                }
            }
            // A unit resolves as it is finalized (see `finalize_one`).
            Source::Unit => {}
        }
        self.next_instruction();
        self.s.board.kill_lethal();
        self.deaths_to_pending();
        self.cleanup();
    }

    /// A cleanup: a gear at the battlefield goes to its base (RB21); a
    /// player who no longer holds the battlefield loses its Hidden cards
    /// there (RB12, RB20, RB21); then the pending items are finalized, so
    /// a move trigger comes after the Hidden cards are gone (RB20).
    fn cleanup(&mut self) {
        for p in 0..2 {
            let n = self.s.board.field_gear[p];
            if n > 0 {
                self.s.board.field_gear[p] = 0;
                self.s.board.base_gear[p] += n;
                self.s.board.log_line(EventKind::GearRecalled, None, p as i32, "RB21");
            }
        }
        if self.s.board.hidden_len.iter().any(|&n| n > 0) {
            if let Some(h) = self.s.holder
                && !self.present(h)
            {
                self.s.holder = None;
            }
            for p in 0..2u8 {
                let pi = usize::from(p);
                let n = self.s.board.hidden_len[pi];
                if n > 0 && self.s.holder != Some(p) {
                    self.s.board.hidden_len[pi] = 0;
                    self.s.board.trash[pi] += n as u32;
                    self.s.board.log_line(EventKind::HiddenTrashed, None, n as i32, "RB12");
                }
            }
        }
        self.finalize_pending();
    }

    /// Every trigger of player `p`'s units on the board (and their gear)
    /// that waits for `when`: "when you discard", "when you add".
    fn player_triggers(&mut self, p: Player, when: When) {
        for u in self.s.board.units() {
            if self.s.board.alive(u) && self.s.board.controller(u) == p {
                self.collect(u, when, None);
            }
        }
    }

    /// The next instruction begins: what it makes pending comes after
    /// what earlier ones did (RB48).
    fn next_instruction(&mut self) {
        self.s.batch = self.s.batch.wrapping_add(1);
    }

    /// One effect of the top item. `from_unit`: a chosen target must be
    /// where the trigger's unit is, "here" (RB28: Yasuo moved to base deals
    /// no damage).
    fn resolve_effect(&mut self, item: &Item, e: Effect, chosen: Option<UnitId>, from_unit: bool) {
        self.next_instruction();
        // "You may" is decided now, the target having been chosen as the
        // item went on the chain (RB50).
        if e.optional && !self.choices.may(item.controller, item.card) {
            return;
        }
        if e.action.is_players() {
            self.act_for_player(item, e.action);
            return;
        }
        let b = &self.s.board;
        let source_here = !from_unit || item.unit.is_some_and(|u| b.here(u));
        let placed = |u: UnitId| b.here(u) || (e.anywhere && !item.here_only && b.alive(u));
        // A unit that has left, or left the battlefield, is no target any
        // more: the item still resolves, doing nothing to it (RB17, RB28,
        // RB39).
        let one = match e.target {
            Target::Enemy | Target::Friendly | Target::Any => chosen.filter(|&u| placed(u) && source_here),
            Target::Me => item.unit.filter(|&u| b.alive(u)),
            Target::Subject => item.subject.filter(|&u| b.alive(u)),
            Target::EachEnemy => None,
        };
        if e.target == Target::EachEnemy {
            for u in self.s.board.units() {
                if self.s.board.here(u) && self.s.board.controller(u) != item.controller {
                    self.act(item, e.action, u);
                }
            }
        } else if let Some(u) = one {
            self.act(item, e.action, u);
        }
    }

    /// An action for the item's player rather than a unit (RB14, RB48).
    fn act_for_player(&mut self, item: &Item, action: Action) {
        let p = item.controller;
        let pi = usize::from(p);
        let b = &mut self.s.board;
        match action {
            Action::Score(n) => {
                b.score[pi] = b.score[pi].saturating_add(n.unsigned_abs());
                let now = b.score[pi] as i32;
                b.log_line(EventKind::Scored, None, now, "RB14");
            }
            Action::Draw(n) => {
                b.drawn[pi] = b.drawn[pi].saturating_add(n.unsigned_abs());
                b.log_line(EventKind::Drew, None, n, "RB14");
            }
            Action::PlayFromDeck => {
                // The top card, revealed: a unit becomes pending now, after
                // what the effect's earlier instructions made pending (RB48).
                let k = self.s.deck_next[pi];
                if k < self.s.deck_len[pi] {
                    let card = self.s.deck[pi][k];
                    self.s.deck_next[pi] += 1;
                    if self.s.catalog.card(card).kind == CardKind::Unit {
                        self.push_pending(Item {
                            controller: p,
                            card,
                            source: Source::Unit,
                            ..NO_ITEM
                        });
                    } else {
                        self.s.board.recycled[pi] += 1;
                    }
                }
            }
            _ => debug_assert!(false, "not a player's action: {action:?}"),
        }
    }

    fn act(&mut self, item: &Item, action: Action, u: UnitId) {
        let b = &mut self.s.board;
        match action {
            Action::Damage(n) => b.deal_damage(u, n),
            Action::DamageMyMight => {
                let n = item.unit.filter(|&s| b.alive(s)).map_or(0, |s| b.might(s));
                b.deal_damage(u, n);
            }
            Action::Might { amount, minimum, lasts } => {
                b.modify(u, amount, minimum, lasts);
            }
            Action::Buff => b.buff(u),
            Action::Stun => b.stun(u),
            Action::ReturnToHand { max_might } => {
                if b.might(u) <= max_might {
                    b.return_to_hand(u);
                }
            }
            Action::Recall { heal, exhaust } => b.recall(u, heal, exhaust),
            Action::MoveToBase => {
                if b.here(u) {
                    b.place(u, true);
                    b.log(EventKind::Moved, u, 1, "RB20");
                    self.collect(u, When::Move, None);
                }
            }
            Action::Kill => {
                if b.destroy(u) {
                    self.deaths_to_pending();
                }
            }
            Action::ActivateConquer => self.activate_conquer(u),
            Action::PlayFromDeck | Action::Score(_) | Action::Draw(_) => self.act_for_player(item, action),
        }
    }

    /// `u`'s conquer effects happen now, its card's then its gear's, and
    /// its hold effects too when a gear makes them conquer effects
    /// (Reckoner's Arena with Skyfall of Areion, RB14). The battlefield's
    /// own effect is not the unit's and is not among them.
    fn activate_conquer(&mut self, u: UnitId) {
        let catalog = self.s.catalog;
        let b = &self.s.board;
        let hold_counts = b.gear(u).any(|g| catalog.card(g.card).hold_as_conquer);
        let mut sources = [None; 1 + super::MAX_GEAR];
        sources[0] = Some(b.card(u));
        for (k, g) in b.gear(u).enumerate() {
            sources[1 + k] = Some(g.card);
        }
        let controller = b.controller(u);
        for c in sources.into_iter().flatten() {
            for (k, t) in catalog.card(c).triggers.iter().enumerate() {
                if t.when == When::Conquer || (hold_counts && t.when == When::Hold) {
                    let mut item = Item {
                        controller,
                        card: c,
                        source: Source::Trigger(k as u8),
                        unit: Some(u),
                        ..NO_ITEM
                    };
                    item.targets[0] = self.choose_target(controller, t.effect, c, Some(u), false);
                    self.resolve_effect(&item, t.effect, item.targets[0], true);
                }
            }
        }
    }

    /// Whether player `p` plays a card or activates an ability now (only a
    /// Reaction when `reaction_only`): the cards in hand, the cards it hid
    /// at the battlefield (Reactions, RB20) and the abilities at its base
    /// that have every target they need and whose costs it can pay are
    /// offered to its [`Choices`]; targets are declared as it goes on the
    /// chain (RB39).
    fn try_cast(&mut self, p: Player, reaction_only: bool) -> Acted {
        let pi = usize::from(p);
        let mut options = [Origin::Hand(0); MAX_OPTIONS];
        let mut cards = [0; MAX_OPTIONS];
        let mut n = 0;
        let catalog = self.s.catalog;
        let mut offer = |origin: Origin, card: CardIndex| {
            options[n] = origin;
            cards[n] = card;
            n += 1;
        };
        for k in 0..self.s.hand_len[pi] {
            let c = self.s.hand[pi][k];
            let card = catalog.card(c);
            // A unit is played at Action speed only (RB17).
            let speed_ok = !reaction_only || (card.speed == Speed::Reaction && card.kind == CardKind::Spell);
            if speed_ok && card.effects.iter().all(|e| self.has_target(p, *e, false)) {
                offer(Origin::Hand(k), c);
            }
        }
        // A Hidden card has Reaction; a spell from Hidden is "here" only
        // (RB11, RB20).
        for k in 0..self.s.board.hidden_len[pi] {
            let c = self.s.board.hidden[pi][k];
            if catalog.card(c).effects.iter().all(|e| self.has_target(p, *e, true)) {
                offer(Origin::Hidden(k), c);
            }
        }
        for k in 0..self.s.base_len[pi] {
            let c = self.s.base[pi][k];
            let Some(a) = &catalog.card(c).ability else { continue };
            let speed_ok = !reaction_only || a.speed == Speed::Reaction;
            let paid = !(a.exhaust && self.s.base_exhausted[pi][k]) && usize::from(a.discard) <= self.s.hand_len[pi];
            if speed_ok && paid && a.effects.iter().all(|e| self.has_target(p, *e, false)) {
                offer(Origin::Base(k), c);
            }
        }
        let Some(choice) = self.choices.play(p, &cards[..n]).filter(|&c| c < n) else {
            return Acted::Passed;
        };
        let card_index = cards[choice];
        let card = catalog.card(card_index);
        match options[choice] {
            Origin::Hand(k) => {
                // Out of the hand: the last card takes its place.
                self.s.hand_len[pi] -= 1;
                self.s.hand[pi][k] = self.s.hand[pi][self.s.hand_len[pi]];
                if card.kind == CardKind::Unit {
                    self.play_unit(p, card_index, false);
                } else {
                    self.play_spell(p, card_index, false);
                }
                Acted::Played
            }
            Origin::Hidden(k) => {
                let b = &mut self.s.board;
                b.hidden_len[pi] -= 1;
                b.hidden[pi][k] = b.hidden[pi][b.hidden_len[pi]];
                match card.kind {
                    CardKind::Unit => self.play_unit(p, card_index, true),
                    // A gear played from Hidden enters at the battlefield,
                    // where no gear stays: the cleanup after it recalls it
                    // to base (RB21).
                    CardKind::Gear => {
                        self.s.played += 1;
                        self.s.board.field_gear[pi] += 1;
                        self.s
                            .board
                            .log_line(EventKind::Played, None, i32::from(card_index), "RB21");
                        self.cleanup();
                    }
                    _ => self.play_spell(p, card_index, true),
                }
                Acted::Played
            }
            Origin::Base(k) => self.activate(p, k, card_index),
        }
    }

    /// A spell goes on the chain with its targets declared (RB39); from
    /// Hidden, "here" only (RB11).
    fn play_spell(&mut self, p: Player, card_index: CardIndex, from_hidden: bool) {
        let mut item = Item {
            controller: p,
            card: card_index,
            source: Source::Spell,
            here_only: from_hidden,
            ..NO_ITEM
        };
        let card = self.s.catalog.card(card_index);
        for (k, e) in card.effects.iter().enumerate().take(MAX_EFFECTS) {
            item.targets[k] = self.choose_target(p, *e, card_index, None, from_hidden);
        }
        self.s.played += 1;
        let ruling = if from_hidden { "RB11" } else { "RB39" };
        self.s
            .board
            .log_line(EventKind::Played, item.targets[0], i32::from(card_index), ruling);
        self.push_chain(item);
    }

    /// Activates the ability of the card at `p`'s base slot `k`: it goes on
    /// the chain with its targets, then its costs are paid — a trigger of
    /// a discard comes after, on top of it (RB40). An [Add] resolves at
    /// once, with no priority passed, and its cleanup finalizes what it
    /// triggered (RB41).
    fn activate(&mut self, p: Player, k: usize, card_index: CardIndex) -> Acted {
        let pi = usize::from(p);
        let Some(a) = &self.s.catalog.card(card_index).ability else {
            return Acted::Passed;
        };
        let mut item = Item {
            controller: p,
            card: card_index,
            source: Source::Ability,
            ..NO_ITEM
        };
        for (t, e) in a.effects.iter().enumerate().take(MAX_EFFECTS) {
            item.targets[t] = self.choose_target(p, *e, card_index, None, false);
        }
        self.s.played += 1;
        let on_chain = self.push_chain(item);
        if a.exhaust {
            self.s.base_exhausted[pi][k] = true;
            self.s
                .board
                .log_line(EventKind::Exhausted, None, i32::from(card_index), "RB40");
        }
        for _ in 0..a.discard {
            let n = self.s.hand_len[pi];
            if n == 0 {
                break;
            }
            let d = self.choices.discard(p, &self.s.hand[pi][..n]).min(n - 1);
            let gone = self.s.hand[pi][d];
            self.s.hand_len[pi] -= 1;
            self.s.hand[pi][d] = self.s.hand[pi][n - 1];
            self.s.board.trash[pi] += 1;
            self.s
                .board
                .log_line(EventKind::Discarded, None, i32::from(gone), "RB40");
            self.player_triggers(p, When::Discard);
        }
        if a.adds > 0 && on_chain {
            self.resolve_top();
            return Acted::Kept;
        }
        self.finalize_pending();
        Acted::Played
    }

    /// A unit played finalizes at once, with no priority passed (RB17): from
    /// hand it enters its player's base; from Hidden, the battlefield where
    /// it was hidden, taking its player's role once combat has begun
    /// (RB11, RB12). Its "when you play me" triggers go on the chain,
    /// where both players may answer them (RB26). With the board full it
    /// enters nowhere and goes to the trash.
    fn play_unit(&mut self, p: Player, card_index: CardIndex, from_hidden: bool) {
        self.s.played += 1;
        self.enter_unit(p, card_index, from_hidden);
        self.cleanup();
    }

    /// A unit enters: at the battlefield (`here`) or its player's base.
    fn enter_unit(&mut self, p: Player, card_index: CardIndex, here: bool) {
        let card = self.s.catalog.card(card_index);
        let Some(u) = self.s.board.add_unit(card.might) else {
            self.s.board.trash[usize::from(p)] += 1;
            return;
        };
        self.s.board.set_card(u, card_index, p, card.assault, card.shield);
        self.s.unit_whens[usize::from(u.0)] = self.s.card_whens[usize::from(card_index)];
        self.s.board.set_controller(u, p);
        self.s.board.place(u, !here);
        let ruling = if here { "RB11" } else { "RB17" };
        self.s
            .board
            .log_line(EventKind::Played, Some(u), i32::from(card_index), ruling);
        self.collect(u, When::Play, None);
        if here && self.s.in_combat {
            if p == 0 {
                self.s.board.set_role(u, Role::Attacker);
                self.collect(u, When::Attack, None);
            } else {
                self.s.board.set_role(u, Role::Defender);
                self.defend(u);
            }
        }
    }

    /// Whether an effect of player `p` has what it needs to be declared.
    /// `here_only`: played from Hidden (RB11).
    fn has_target(&self, p: Player, e: Effect, here_only: bool) -> bool {
        if e.action.is_players() {
            return true;
        }
        match e.target {
            Target::Enemy | Target::Friendly | Target::Any | Target::EachEnemy => {
                self.s.board.units().any(|u| self.legal(p, e, u, here_only))
            }
            Target::Me | Target::Subject => true,
        }
    }

    /// Whether `u` is a legal target of `p`'s effect `e`: at the
    /// battlefield, or anywhere on the board for an effect that says so
    /// unless played from Hidden (RB11).
    fn legal(&self, p: Player, e: Effect, u: UnitId, here_only: bool) -> bool {
        let b = &self.s.board;
        let side = match e.target {
            Target::Enemy | Target::EachEnemy => b.controller(u) != p,
            Target::Friendly => b.controller(u) == p,
            _ => true,
        };
        let fits = match e.action {
            Action::ReturnToHand { max_might } => b.might(u) <= max_might,
            // A prudent player takes its own unit out of the fight only to
            // save it from the item on top of the chain (RB21's sequence).
            Action::Recall { .. } if e.target == Target::Friendly && self.choices.prudent() => self.threatened(u),
            _ => true,
        };
        let placed = b.here(u) || (e.anywhere && !here_only && b.alive(u) && e.target != Target::EachEnemy);
        placed && side && fits
    }

    /// Whether the item on top of the chain, an opponent's, would mark
    /// lethal damage on `u` as it resolves.
    fn threatened(&self, u: UnitId) -> bool {
        let b = &self.s.board;
        let Some(top) = self.s.chain[..self.s.chain_len].last() else {
            return false;
        };
        if top.controller == b.controller(u) {
            return false;
        }
        let card = self.s.catalog.card(top.card);
        let mut hits = [(None, None); MAX_EFFECTS];
        match top.source {
            Source::Spell => {
                for (k, e) in card.effects.iter().enumerate().take(MAX_EFFECTS) {
                    hits[k] = (Some(*e), top.targets[k]);
                }
            }
            Source::Trigger(k) => {
                if let Some(t) = card.triggers.get(usize::from(k)) {
                    hits[0] = (Some(t.effect), top.targets[0]);
                }
            }
            Source::Ability => {
                let effects = card.ability.iter().flat_map(|a| &a.effects);
                for (k, e) in effects.enumerate().take(MAX_EFFECTS) {
                    hits[k] = (Some(*e), top.targets[k]);
                }
            }
            Source::Unit => {}
        }
        let mut damage = 0i32;
        for (e, target) in hits {
            let Some(e) = e else { continue };
            let reaches = match e.target {
                Target::EachEnemy => b.here(u),
                _ => target == Some(u),
            };
            if !reaches {
                continue;
            }
            damage = damage.saturating_add(match e.action {
                Action::Damage(n) => n,
                Action::DamageMyMight => top.unit.filter(|&s| b.alive(s)).map_or(0, |s| b.might(s)),
                _ => 0,
            });
        }
        damage > 0 && b.damage(u).saturating_add(damage) >= b.might(u)
    }

    /// A target the policy picks for a chosen effect, uniformly among the
    /// legal ones; none for an effect that reads its units as it resolves.
    fn choose_target(
        &mut self,
        p: Player,
        e: Effect,
        card: CardIndex,
        unit: Option<UnitId>,
        here_only: bool,
    ) -> Option<UnitId> {
        if !e.target.is_chosen() || e.action.is_players() {
            return None;
        }
        let mut legal = [UnitId(0); super::MAX_UNITS];
        let mut n = 0;
        for u in self.s.board.units() {
            if self.legal(p, e, u, here_only) {
                legal[n] = u;
                n += 1;
            }
        }
        if n == 0 {
            return None;
        }
        let k = self.choices.target(p, card, unit, &legal[..n]);
        legal.get(k.min(n - 1)).copied()
    }

    /// Puts the triggers of `u` (its card's and its gear's) that wait for
    /// `when` among the pending items, controlled by its controller (RB8).
    fn collect(&mut self, u: UnitId, when: When, subject: Option<UnitId>) {
        if self.s.unit_whens[usize::from(u.0)] & when.bit() == 0 {
            return;
        }
        let catalog = self.s.catalog;
        let controller = self.s.board.controller(u);
        let own = self.s.board.card(u);
        let mut sources = [None; 1 + super::MAX_GEAR];
        sources[0] = Some(own);
        for (k, g) in self.s.board.gear(u).enumerate() {
            sources[1 + k] = Some(g.card);
        }
        for c in sources.into_iter().flatten() {
            for (k, t) in catalog.card(c).triggers.iter().enumerate() {
                if t.when == when {
                    self.push_pending(Item {
                        controller,
                        card: c,
                        source: Source::Trigger(k as u8),
                        unit: Some(u),
                        subject,
                        ..NO_ITEM
                    });
                }
            }
        }
    }

    /// The last lethal check's deaths: their Deathknells, made from the
    /// trash and controlled by the unit's last controller (RB7, RB8).
    fn deaths_to_pending(&mut self) {
        let n = self.s.board.deaths().len();
        for k in 0..n {
            let u = self.s.board.deaths()[k];
            debug_assert_eq!(self.s.catalog.card(self.s.board.card(u)).kind, CardKind::Unit);
            self.collect(u, When::Death, None);
        }
    }

    /// Finalizes the pending items onto the chain, instruction by
    /// instruction (RB48); one instruction's items the turn player's first,
    /// then the other's, each player's in an order it chooses (RB6, RB27,
    /// RB44, RB49), each declaring its targets as it goes on (RB39, RB44).
    fn finalize_pending(&mut self) {
        while self.s.pending_len > 0 {
            let batch = self.s.pending[..self.s.pending_len]
                .iter()
                .map(|i| i.batch)
                .min()
                .unwrap_or(0);
            let taken = self.s.pending_len;
            for p in 0..2u8 {
                let mut n = 0;
                for k in 0..taken {
                    let item = &self.s.pending[k];
                    if item.controller == p && item.batch == batch {
                        self.s.order_scratch[n] = (k, item.unit);
                        n += 1;
                    }
                }
                self.choices.order(p, &mut self.s.order_scratch[..n]);
                // Finalizing adds to the pending items but never orders
                // them, so the scratch holds until the loop ends.
                for i in 0..n {
                    let k = self.s.order_scratch[i].0;
                    self.finalize_one(self.s.pending[k]);
                }
            }
            // Those finalized leave the pending items, the rest (and what
            // finalizing them made pending) keep their order.
            let mut kept = 0;
            for k in 0..self.s.pending_len {
                if k >= taken || self.s.pending[k].batch != batch {
                    self.s.pending[kept] = self.s.pending[k];
                    kept += 1;
                }
            }
            self.s.pending_len = kept;
        }
    }

    /// One pending item onto the chain. A unit resolves at once: it enters
    /// its player's base and its "when you play me" triggers become pending
    /// after it (RB17, RB48).
    fn finalize_one(&mut self, mut item: Item) {
        let card = self.s.catalog.card(item.card);
        if let Source::Trigger(t) = item.source
            && let Some(t) = card.triggers.get(usize::from(t))
        {
            item.targets[0] = self.choose_target(item.controller, t.effect, item.card, item.unit, false);
        }
        if self.push_chain(item) && item.source == Source::Unit {
            self.s.chain_len -= 1;
            self.s.resolved += 1;
            self.next_instruction();
            self.enter_unit(item.controller, item.card, false);
        }
    }

    fn push_pending(&mut self, mut item: Item) {
        item.batch = self.s.batch;
        if self.s.pending_len < MAX_CHAIN {
            self.s.pending[self.s.pending_len] = item;
            self.s.pending_len += 1;
        } else {
            self.s.dropped += 1;
        }
    }

    /// Puts `item` on top of the chain; `false` when the chain has no room
    /// for it.
    fn push_chain(&mut self, item: Item) -> bool {
        if self.s.chain_len < MAX_CHAIN {
            self.s.chain[self.s.chain_len] = item;
            self.s.chain_len += 1;
            let len = self.s.chain_len as i32;
            self.s.board.log_line(EventKind::Added, item.unit, len, "RB44");
            true
        } else {
            self.s.dropped += 1;
            false
        }
    }
}

/// Fisher–Yates on the showdown's stream.
fn shuffle<T>(xs: &mut [T], rng: &mut FightRng) {
    for i in (1..xs.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        xs.swap(i, j);
    }
}

const _: () = assert!(super::MAX_UNITS <= 32, "Showdown::stays holds one bit per unit");
