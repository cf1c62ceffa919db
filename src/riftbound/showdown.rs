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
use super::{Board, EventKind, Gear, Player, Role, UnitId};
use crate::engine::FightRng;

/// The most items the chain, and the items waiting to be finalized, hold;
/// an item past it is not added (the loader's limits keep a suite's
/// showdowns far below it).
pub const MAX_CHAIN: usize = 256;
/// The most spells in one hand.
pub const MAX_HAND: usize = 8;
/// The most units in one lane.
pub const MAX_LANE: usize = 8;

/// One unit of a lane and the gear it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneUnit {
    pub card: CardIndex,
    pub gear: Option<CardIndex>,
    /// Owned by the other player and controlled by this lane's (a stolen
    /// unit, RB7, RB8); never in a suite's lanes.
    pub stolen: bool,
}

/// One side's forces: its units and its hand of spells.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Lane {
    pub units: Vec<LaneUnit>,
    pub hand: Vec<CardIndex>,
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
}

const NO_ITEM: Item = Item {
    controller: 0,
    card: 0,
    source: Source::Spell,
    unit: None,
    subject: None,
    targets: [None; MAX_EFFECTS],
};

/// A worker's showdown: the board and the chain, reused showdown after
/// showdown.
pub struct Showdown<'c> {
    catalog: &'c Catalog,
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
    resolved: u32,
    played: u32,
    dropped: u32,
}

impl<'c> Showdown<'c> {
    /// A showdown on `catalog`; `logging` writes the board's log.
    pub fn new(catalog: &'c Catalog, logging: bool) -> Showdown<'c> {
        Showdown {
            catalog,
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
        p.move_in();
        let end = p.combat();
        let s = p.s;
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
                self.board.set_controller(u, p);
                // The defender's units hold the battlefield; the attacker's
                // wait at base until they move in.
                self.board.place(u, p == 0);
                if let Some(g) = lu.gear {
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
        }
    }
}

/// One showdown in play: the showdown and who makes its choices.
struct Play<'s, 'c, 'x, C: Choices> {
    s: &'s mut Showdown<'c>,
    choices: &'x mut C,
}

impl<C: Choices> Play<'_, '_, '_, C> {
    /// The attacker's units move in; their move triggers go on the chain
    /// and resolve before combat can start (RB2, RB16, RB22). Assault is
    /// not theirs yet: roles come with the combat showdown (RB3, RB5).
    fn move_in(&mut self) {
        for u in self.s.board.units() {
            if self.s.board.controller(u) == 0 {
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
            self.deaths_to_pending();
            self.finalize_pending();
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
                self.s.board.score[0] += 1;
                self.s.board.log_line(EventKind::Conquered, None, 0, "RB46");
                self.conquer_triggers();
                End::Conquer
            }
            (false, false) => End::Empty,
        };
        for u in self.s.board.units() {
            self.s.board.set_role(u, Role::None);
        }
        end
    }

    /// The conquering units' and the battlefield's conquer triggers, all
    /// at once, in the conqueror's order (RB19), then resolved.
    fn conquer_triggers(&mut self) {
        for u in self.s.board.units() {
            if self.s.board.controller(u) == 0 && self.s.board.here(u) {
                self.collect(u, When::Conquer, None);
            }
        }
        self.battlefield_triggers(When::Conquer, 0, None);
        self.finalize_pending();
        self.run_chain(0);
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
                    self.collect(u, When::Defend, None);
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

    /// Players with focus play or pass in turn; the showdown ends when
    /// both pass in a row without starting a chain (RB45).
    fn focus_loop(&mut self) {
        let mut focus: Player = 0;
        let mut passes = 0;
        while passes < 2 {
            if self.try_cast(focus, false) {
                self.run_chain(1 - focus);
                passes = 0;
            } else {
                passes += 1;
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
            if self.try_cast(priority, true) {
                passes = 0;
                priority = 1 - priority;
                continue;
            }
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

    /// The top item resolves (LIFO, RB44), then the cleanup after it: the
    /// lethal check, whose Deathknells wait and are finalized in order
    /// (RB48).
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
        }
        self.s.board.kill_lethal();
        self.deaths_to_pending();
        self.finalize_pending();
    }

    /// One effect of the top item. `from_unit`: a chosen target must be
    /// where the trigger's unit is, "here" (RB28: Yasuo moved to base deals
    /// no damage).
    fn resolve_effect(&mut self, item: &Item, e: Effect, chosen: Option<UnitId>, from_unit: bool) {
        // "You may" is decided now, the target having been chosen as the
        // item went on the chain (RB50).
        if e.optional && !self.choices.may(item.controller, item.card) {
            return;
        }
        let b = &self.s.board;
        let source_here = !from_unit || item.unit.is_some_and(|u| b.here(u));
        // A unit that has left, or left the battlefield, is no target any
        // more: the item still resolves, doing nothing to it (RB17, RB28,
        // RB39).
        let one = match e.target {
            Target::Enemy | Target::Friendly | Target::Any => chosen.filter(|&u| b.here(u) && source_here),
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
        }
    }

    /// Whether player `p` plays a spell now (only a Reaction when
    /// `reaction_only`): the policy's chance, then a spell chosen among
    /// those with every target they need, targets declared (RB39).
    fn try_cast(&mut self, p: Player, reaction_only: bool) -> bool {
        let pi = usize::from(p);
        let mut castable = [0usize; MAX_HAND];
        let mut n = 0;
        for k in 0..self.s.hand_len[pi] {
            let card = self.s.catalog.card(self.s.hand[pi][k]);
            // A unit is played at Action speed only (RB17).
            let speed_ok = !reaction_only || (card.speed == Speed::Reaction && card.kind == CardKind::Spell);
            if speed_ok && card.effects.iter().all(|e| self.has_target(p, *e)) {
                castable[n] = k;
                n += 1;
            }
        }
        let mut cards = [0; MAX_HAND];
        for (c, &k) in cards.iter_mut().zip(&castable[..n]) {
            *c = self.s.hand[pi][k];
        }
        let Some(choice) = self.choices.play(p, &cards[..n]).filter(|&c| c < n) else {
            return false;
        };
        let k = castable[choice];
        let card_index = self.s.hand[pi][k];
        // Out of the hand: the last card takes its place.
        self.s.hand_len[pi] -= 1;
        self.s.hand[pi][k] = self.s.hand[pi][self.s.hand_len[pi]];
        let mut item = Item {
            controller: p,
            card: card_index,
            source: Source::Spell,
            ..NO_ITEM
        };
        let card = self.s.catalog.card(card_index);
        if card.kind == CardKind::Unit {
            self.play_unit(p, card_index);
            return true;
        }
        for (k, e) in card.effects.iter().enumerate().take(MAX_EFFECTS) {
            item.targets[k] = self.choose_target(p, *e, card_index, None);
        }
        self.s.played += 1;
        let first = item.targets[0];
        self.s
            .board
            .log_line(EventKind::Played, first, i32::from(card_index), "RB39");
        self.push_chain(item);
        true
    }

    /// A unit played from hand finalizes at once and enters at its
    /// player's base, with no priority passed (RB17); its "when you play
    /// me" triggers go on the chain, where both players may answer them
    /// (RB26). With the board full it enters nowhere and goes to the trash.
    fn play_unit(&mut self, p: Player, card_index: CardIndex) {
        self.s.played += 1;
        let card = self.s.catalog.card(card_index);
        let Some(u) = self.s.board.add_unit(card.might) else {
            self.s.board.trash[usize::from(p)] += 1;
            return;
        };
        self.s.board.set_card(u, card_index, p, card.assault, card.shield);
        self.s.board.place(u, true);
        self.s
            .board
            .log_line(EventKind::Played, Some(u), i32::from(card_index), "RB17");
        self.collect(u, When::Play, None);
        self.finalize_pending();
    }

    /// Whether an effect of player `p` has what it needs to be declared.
    fn has_target(&self, p: Player, e: Effect) -> bool {
        match e.target {
            Target::Enemy | Target::Friendly | Target::Any | Target::EachEnemy => {
                self.s.board.units().any(|u| self.legal(p, e, u))
            }
            Target::Me | Target::Subject => true,
        }
    }

    fn legal(&self, p: Player, e: Effect, u: UnitId) -> bool {
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
        b.here(u) && side && fits
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
    fn choose_target(&mut self, p: Player, e: Effect, card: CardIndex, unit: Option<UnitId>) -> Option<UnitId> {
        if !e.target.is_chosen() {
            return None;
        }
        let mut legal = [UnitId(0); super::MAX_UNITS];
        let mut n = 0;
        for u in self.s.board.units() {
            if self.legal(p, e, u) {
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
                        targets: [None; MAX_EFFECTS],
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

    /// Finalizes the pending items onto the chain: the turn player's first,
    /// then the other's, each player's in an order it chooses (RB6, RB27,
    /// RB44, RB49), each declaring its targets as it goes on (RB39, RB44).
    fn finalize_pending(&mut self) {
        if self.s.pending_len == 0 {
            return;
        }
        for p in 0..2u8 {
            let mut mine = [(0usize, None); MAX_CHAIN];
            let mut n = 0;
            for k in 0..self.s.pending_len {
                if self.s.pending[k].controller == p {
                    mine[n] = (k, self.s.pending[k].unit);
                    n += 1;
                }
            }
            self.choices.order(p, &mut mine[..n]);
            for &(k, _) in &mine[..n] {
                let mut item = self.s.pending[k];
                let card = self.s.catalog.card(item.card);
                if let Source::Trigger(t) = item.source
                    && let Some(t) = card.triggers.get(usize::from(t))
                {
                    item.targets[0] = self.choose_target(p, t.effect, item.card, item.unit);
                }
                self.push_chain(item);
            }
        }
        self.s.pending_len = 0;
    }

    fn push_pending(&mut self, item: Item) {
        if self.s.pending_len < MAX_CHAIN {
            self.s.pending[self.s.pending_len] = item;
            self.s.pending_len += 1;
        } else {
            self.s.dropped += 1;
        }
    }

    fn push_chain(&mut self, item: Item) {
        if self.s.chain_len < MAX_CHAIN {
            self.s.chain[self.s.chain_len] = item;
            self.s.chain_len += 1;
            let len = self.s.chain_len as i32;
            self.s.board.log_line(EventKind::Added, item.unit, len, "RB44");
        } else {
            self.s.dropped += 1;
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
