//! The bridge to the kernel: a contested battlefield's showdown or combat,
//! and a hold's triggers, played by [`Showdown`] on lanes built from the
//! game's units, and the game's zones brought up to date from what it
//! left. The showdown's player 0 is the turn player (the attacker, or
//! the mover of a non-combat showdown), player 1 its opponent.
//!
//! What the lanes hold: the units at the battlefield (the movers as
//! attackers, the opponent's as defenders), each player's spells in hand
//! (a unit is not played in a showdown: it has no Action, 722) and its
//! runes, which pay for them (353). Units elsewhere — at a base, at the
//! other battlefield — are not on the kernel's board, so a spell in a
//! showdown reaches only the battlefield (docs/riftbound-reconstruction.md).

use super::bots::{Bot, Table};
use super::turn::Scoring;
use super::*;
use gridsim_riftbound::Gone;
use gridsim_riftbound::UnitId;
use gridsim_riftbound::showdown::{End, LaneUnit, MAX_HAND, MAX_HELD, Outcome};

/// What playing out a move foretold (see [`Game::forecast`]).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Forecast {
    /// The share of tries that conquered.
    pub conquer: f64,
    /// Units the mover lost, and units the defender lost, on average.
    pub lost: f64,
    pub killed: f64,
}

impl Game<'_> {
    /// Plays the showdown (or combat) at battlefield `b`, which the turn
    /// player has just moved into, and scores a conquest (440.2, 345.2).
    pub(crate) fn contest(&mut self, b: usize) {
        let att = self.active;
        self.fill_lanes(b, [att, 1 - att], Fill::Contest);
        self.legend_on_attack(1 - att, b);
        let mut choices = Table {
            bots: [self.sides[usize::from(att)].bot, self.sides[usize::from(1 - att)].bot],
            rng: &mut self.rng,
            catalog: self.catalog,
            chosen: false,
        };
        self.showdown.battlefield = Some(self.fields[b]);
        let outcome = self.showdown.play_with(&self.lanes[0], &self.lanes[1], &mut choices);
        self.showdowns += 1;
        self.read_back(b, [att, 1 - att], outcome, Fill::Contest);
    }

    /// The hold of battlefield `b` by the turn player (442.2): its point,
    /// then its units' and the battlefield's hold triggers through the
    /// kernel, when any of them has one (RB14).
    pub(crate) fn hold(&mut self, b: usize) {
        let p = self.active;
        let when = gridsim_riftbound::cards::When::Hold;
        let triggered = self
            .catalog
            .card(self.fields[b])
            .triggers
            .iter()
            .any(|t| t.when == when)
            || self.units.of(p, Place::Field(b as u8)).any(|u| {
                self.catalog
                    .card(self.units.card[u])
                    .triggers
                    .iter()
                    .any(|t| t.when == when)
            });
        self.score_field(p, b, Scoring::Hold);
        if !triggered || self.ended.is_some() {
            return;
        }
        // The holder is the kernel's player 1 in a hold.
        self.fill_lanes(b, [1 - p, p], Fill::Hold);
        let mut choices = Table {
            bots: [self.sides[usize::from(1 - p)].bot, self.sides[usize::from(p)].bot],
            rng: &mut self.rng,
            catalog: self.catalog,
            chosen: false,
        };
        self.showdown.battlefield = Some(self.fields[b]);
        let outcome = self.showdown.hold_with(&self.lanes[1], &mut choices);
        self.read_back(b, [1 - p, p], outcome, Fill::Hold);
    }

    /// The turn player plays `card` through the kernel, outside any
    /// showdown (148, 310.1.a): a spell from its hand (position `k`), or a
    /// unit with a "when you play me" trigger from its hand or (`k` none)
    /// its champion zone. Its targets are the units at battlefield `b` and,
    /// for an effect that reaches anywhere, at either base: the kernel's
    /// board holds one battlefield (docs/riftbound-reconstruction.md,
    /// "Plays in the action phase"). The opponent may answer with
    /// Reactions. Whether it was played: the kernel refuses a card with no
    /// legal target or one its runes cannot pay. A unit played with
    /// `accelerate` pays its Accelerate too, when it can, and enters ready
    /// (721).
    pub(crate) fn act_at(&mut self, k: Option<usize>, card: CardIndex, b: usize, accelerate: bool) -> bool {
        let p = self.active;
        let s = usize::from(p);
        let accelerated = accelerate && self.can_accelerate(p, card);
        let ready = self.enters_ready(p, card, accelerated);
        let cost = self.play_cost(p, card, accelerated);
        self.showdown.play_cost = Some(cost);
        let alive_before = self.units.alive;
        let mine_before = self.units.of(p, Place::Field(b as u8)).count();
        self.fill_lanes(b, [p, 1 - p], Fill::Act);
        // Only the chosen card is offered; the rest of the hand is held,
        // within a discard's reach (RB40).
        let lane = &mut self.lanes[0];
        lane.hand.clear();
        lane.hand.push(card);
        lane.held.clear();
        for (pos, &c) in self.sides[s].hand.as_slice().iter().enumerate() {
            if Some(pos) != k && lane.held.len() < MAX_HELD {
                lane.held.push(c);
            }
        }
        let mut choices = Table {
            bots: [self.sides[s].bot, self.sides[1 - s].bot],
            rng: &mut self.rng,
            catalog: self.catalog,
            chosen: true,
        };
        self.showdown.battlefield = Some(self.fields[b]);
        let outcome = self.showdown.act_with(&self.lanes[0], &self.lanes[1], &mut choices);
        let played = self.showdown.hand(0).is_empty();
        if played {
            match k {
                Some(k) => {
                    self.sides[s].hand.remove(k);
                }
                None => self.sides[s].champion = None,
            }
        }
        self.read_back(b, [p, 1 - p], outcome, Fill::Act);
        if !played {
            return false;
        }
        if ready.is_some() {
            // It enters ready (721, 728): never exhausted, then readied.
            for u in (0..MAX_UNITS).filter(|&u| self.units.alive[u] && !alive_before[u]) {
                if self.units.card[u] == card && self.units.owner[u] == p {
                    self.units.exhausted[u] = false;
                }
            }
        }
        if self.catalog.card(card).kind == CardKind::Unit {
            // Its line cites the rule it entered by, as a unit the game
            // plays itself does.
            if let Some(e) = self
                .log
                .iter_mut()
                .rev()
                .find(|e| e.kind == GameEventKind::Played && e.card == Some(card))
            {
                e.rule = Self::played_rule(k, ready);
            }
        }
        if self.catalog.card(card).kind == CardKind::Unit {
            self.legend_on_play(p, card);
        }
        if self.catalog.card(card).kind == CardKind::Spell {
            // A resolved spell goes to its owner's trash.
            self.sides[s].trash.push(card);
            self.note(p, GameEventKind::Cast, Some(card), b as i32, "316");
            self.card_event(p, CardEventKind::Played, card);
            self.settle_away(self.kernel_slots);
        }
        self.record_paid(card, &cost);
        let recycled = self.showdown.recycled_runes[0];
        self.note_payment(p, card, &recycled);
        // A unit moved onto the battlefield by the chain contests it once
        // the chain is empty (322.9).
        let theirs = self.units.of(1 - p, Place::Field(b as u8)).count();
        let moved_in = self.units.of(p, Place::Field(b as u8)).count() > mine_before;
        if moved_in && (theirs > 0 || mine_before == 0) && self.ended.is_none() {
            self.contest(b);
        }
        true
    }

    /// Plays out `tries` times, on the scout showdown, the turn player's
    /// move of `movers` (a bit per slot, at its base) into battlefield `b`
    /// against the opponent's units there, both sides played by the
    /// aggressive bot's choices: the share of tries that conquer, and the
    /// mean units each side loses. The game's state is untouched; its
    /// stream draws the tries.
    pub(crate) fn forecast(&mut self, b: usize, movers: u32, tries: u32) -> Forecast {
        let p = self.active;
        for (k, seat) in [p, 1 - p].into_iter().enumerate() {
            let lane = &mut self.lanes[k];
            lane.units.clear();
            lane.hand.clear();
            lane.held.clear();
            for u in 0..MAX_UNITS {
                let alive = self.units.alive[u] && self.units.owner[u] == seat;
                let side = if k == 0 {
                    movers & (1 << u) != 0
                } else {
                    self.units.place[u] == Place::Field(b as u8)
                };
                if !alive || !side || lane.units.len() == MAX_LANE {
                    continue;
                }
                lane.units.push(LaneUnit {
                    card: self.units.card[u],
                    buffed: self.units.buffed[u],
                    exhausted: true,
                    damage: self.units.damage[u],
                    might_this_turn: self.units.turn_might[u],
                    ..LaneUnit::default()
                });
            }
            for &c in self.sides[usize::from(seat)].hand.as_slice() {
                if lane.hand.len() < MAX_HAND && self.catalog.card(c).kind == CardKind::Spell {
                    lane.hand.push(c);
                } else if lane.held.len() < MAX_HELD {
                    lane.held.push(c);
                }
            }
            self.scout.runes[k] = self.sides[usize::from(seat)].runes;
            self.scout.legend_saves[k] = self.legend_saves(seat);
            self.scout.cards_played[k] = self.cards_played_this_turn(seat);
        }
        self.scout.pays = true;
        self.scout.battlefield = Some(self.fields[b]);
        let mut f = Forecast::default();
        let (attackers, defenders) = (self.lanes[0].units.len() as f64, self.lanes[1].units.len() as f64);
        for _ in 0..tries {
            let mut choices = Table {
                bots: [Bot::Aggressive; 2],
                rng: &mut self.rng,
                catalog: self.catalog,
                chosen: false,
            };
            // The runes are spent anew in each try.
            self.scout.runes = [self.sides[usize::from(p)].runes, self.sides[usize::from(1 - p)].runes];
            let o = self.scout.play_with(&self.lanes[0], &self.lanes[1], &mut choices);
            f.conquer += f64::from(u8::from(o.end == End::Conquer));
            f.lost += attackers - f64::from(o.survivors[0]);
            f.killed += defenders - f64::from(o.survivors[1]);
        }
        let n = f64::from(tries.max(1));
        f.conquer /= n;
        f.lost /= n;
        f.killed /= n;
        // The lanes are the game's: a contest fills them afresh.
        f
    }

    /// Builds lane `k` for seat `seats[k]`: its units at `b` (and, for a
    /// play in the action phase, at its base), its spells in hand; its
    /// runes handed to the showdown. For a hold only lane 1 is filled.
    fn fill_lanes(&mut self, b: usize, seats: [Seat; 2], fill: Fill) {
        self.kernel_slots = 0;
        for (k, &seat) in seats.iter().enumerate() {
            let s = usize::from(seat);
            self.showdown.legend_saves[k] = self.legend_saves(seat);
            self.showdown.cards_played[k] = self.cards_played_this_turn(seat);
            let lane = &mut self.lanes[k];
            lane.units.clear();
            lane.hand.clear();
            lane.held.clear();
            self.showdown.runes[k] = self.sides[s].runes;
            if k == 0 && fill == Fill::Hold {
                continue;
            }
            for u in 0..MAX_UNITS {
                let mine = self.units.alive[u] && self.units.owner[u] == seat;
                let at_base = self.units.place[u] == Place::Base;
                let on_board = self.units.place[u] == Place::Field(b as u8) || (at_base && fill == Fill::Act);
                if !mine || !on_board || lane.units.len() == MAX_LANE {
                    continue;
                }
                self.lane_slots[k][lane.units.len()] = u;
                self.kernel_slots |= 1 << u;
                lane.units.push(LaneUnit {
                    card: self.units.card[u],
                    buffed: self.units.buffed[u],
                    exhausted: self.units.exhausted[u],
                    damage: self.units.damage[u],
                    might_this_turn: self.units.turn_might[u],
                    at_base,
                    ..LaneUnit::default()
                });
            }
            // The spells are offered; the rest of the hand is held, out of
            // play (308.1.a) but within a discard's reach (RB40).
            for (pos, &c) in self.sides[s].hand.as_slice().iter().enumerate() {
                if lane.hand.len() < MAX_HAND && self.catalog.card(c).kind == CardKind::Spell {
                    self.lane_hand[k][lane.hand.len()] = pos;
                    lane.hand.push(c);
                } else if lane.held.len() < MAX_HELD {
                    lane.held.push(c);
                }
            }
        }
        self.showdown.pays = true;
    }

    /// Brings the game up to date with what the showdown left: each unit's
    /// place and state or where it went, a unit played during it, the
    /// spells spent from hand, the runes, the cards drawn, the points, and
    /// a conquest's score.
    fn read_back(&mut self, b: usize, seats: [Seat; 2], outcome: Outcome, fill: Fill) {
        let mut id = 0u8;
        for k in 0..2 {
            for j in 0..self.lanes[k].units.len() {
                let u = self.lane_slots[k][j];
                let bu = UnitId(id);
                id += 1;
                if self.showdown.board.alive(bu) {
                    self.read_unit(u, bu, b);
                    continue;
                }
                self.units.alive[u] = false;
                self.send_away(u, self.showdown.board.gone(bu));
            }
        }
        // A unit played during it (a play of the action phase: the unit
        // with a "when you play me" trigger; a token a trigger played) is
        // on the board after the lanes' (RB17, 179).
        let count = self.showdown.board.units().count() as u8;
        for bu in (id..count).map(UnitId) {
            let board = &self.showdown.board;
            let (card, seat) = (board.card(bu), seats[usize::from(board.controller(bu))]);
            let token = self.catalog.card(card).token;
            let Some(u) = (0..MAX_UNITS).find(|&u| !self.units.alive[u]) else {
                // No room: the offer was checked against it (`can_play_unit`);
                // a token played by a trigger is no card, so none is kept (179).
                if !token {
                    self.sides[usize::from(seat)].trash.push(card);
                }
                continue;
            };
            self.units.alive[u] = true;
            self.units.card[u] = card;
            self.units.owner[u] = seat;
            self.kernel_slots |= 1 << u;
            if token {
                self.note(seat, GameEventKind::Played, Some(card), u as i32, "179");
            } else {
                self.note(seat, GameEventKind::Played, Some(card), u as i32, "140.4");
                self.card_event(seat, CardEventKind::Played, card);
            }
            if self.showdown.board.alive(bu) {
                self.read_unit(u, bu, b);
                // It enters exhausted (140.4), as a unit played by the game does.
                self.units.exhausted[u] = true;
            } else {
                self.units.alive[u] = false;
                self.send_away(u, self.showdown.board.gone(bu));
            }
        }
        for (k, &seat) in seats.iter().enumerate() {
            let s = usize::from(seat);
            // The actor's card of a play in the action phase is the
            // caller's to account for (`Game::act_at`).
            let left = if fill == Fill::Act && k == 0 {
                &self.lanes[k].hand[..]
            } else {
                self.showdown.hand(k as u8)
            };
            // The spells that went to the showdown and did not come back
            // were played or discarded: to the trash (RB40). Removed from
            // the hand last position first, so earlier positions hold.
            let mut kept = [false; MAX_HAND];
            // A spell discarded is not played: kept here, discarded below.
            let discarded = self.showdown.discarded(k as u8);
            for &c in left.iter().chain(discarded) {
                if let Some(j) = (0..self.lanes[k].hand.len()).find(|&j| !kept[j] && self.lanes[k].hand[j] == c) {
                    kept[j] = true;
                }
            }
            for j in (0..self.lanes[k].hand.len()).rev() {
                if !kept[j] {
                    let c = self.sides[s].hand.remove(self.lane_hand[k][j]);
                    self.sides[s].trash.push(c);
                    // Played: a discarded card was kept above.
                    self.card_event(seat, CardEventKind::Played, c);
                }
            }
            for j in 0..self.showdown.discarded(k as u8).len() {
                let c = self.showdown.discarded(k as u8)[j];
                if let Some(pos) = self.sides[s].hand.position(c) {
                    self.sides[s].hand.remove(pos);
                    self.sides[s].trash.push(c);
                    self.note(seat, GameEventKind::Discarded, Some(c), 1, "409");
                    self.card_event(seat, CardEventKind::Discarded, c);
                    self.count_discard(seat);
                }
            }
            self.legend_after_showdown(seat, self.showdown.legend_saves[k], self.showdown.board.legend_save[k]);
            self.sides[s].runes = self.showdown.runes[k];
            let recycled = self.showdown.recycled_runes[k];
            self.sides[s].recycle_runes(&recycled);
        }
        // The triggers of the units the showdown did not hold.
        self.settle_away(self.kernel_slots);
        let drawn = self.showdown.board.drawn;
        let mut effect_points = self.showdown.board.score;
        // The kernel scores the conquest and the hold itself; the game
        // scores them under 443 and 444.1.b, and keeps only a card's points.
        match (outcome.end, fill) {
            (End::Conquer, _) => effect_points[0] = effect_points[0].saturating_sub(1),
            (End::Hold, Fill::Hold) => effect_points[1] = effect_points[1].saturating_sub(1),
            _ => {}
        }
        for k in 0..2 {
            self.draw(seats[k], drawn[k], if fill == Fill::Act { "RB26" } else { "RB14" });
            self.gain(seats[k], effect_points[k], GameEventKind::Scored, "RB14");
        }
        if fill != Fill::Contest {
            return;
        }
        let end = match outcome.end {
            End::Conquer => 0,
            End::Hold => 1,
            End::Empty => 2,
        };
        self.note(seats[0], GameEventKind::Showdown, Some(self.fields[b]), end, "440");
        if outcome.end == End::Conquer {
            // A conquest is the turn player's (440.2).
            self.score_field(seats[0], b, Scoring::Conquer);
        }
    }

    /// Game unit `u` takes the state the showdown left board unit `bu` in.
    fn read_unit(&mut self, u: usize, bu: UnitId, b: usize) {
        let board = &self.showdown.board;
        self.units.place[u] = if board.at_base(bu) {
            Place::Base
        } else {
            Place::Field(b as u8)
        };
        self.units.exhausted[u] = board.exhausted(bu);
        self.units.buffed[u] = board.buffs(bu) > 0;
        self.units.damage[u] = board.damage(bu);
        self.units.turn_might[u] = board.turn_might(bu);
        self.units.stunned[u] = board.stunned(bu);
    }

    /// Unit `u`'s card, gone from the board, to where the showdown sent it;
    /// a token, not a card, ceases to exist (179).
    fn send_away(&mut self, u: usize, gone: Gone) {
        if gone == Gone::Trash {
            self.count_death(self.units.owner[u], u);
        }
        let card = self.units.card[u];
        if self.catalog.card(card).token {
            return;
        }
        let side = &mut self.sides[usize::from(self.units.owner[u])];
        match gone {
            Gone::Trash | Gone::Not => side.trash.push(card),
            Gone::Hand => side.hand.push(card),
            Gone::DeckBottom => side.deck.push_bottom(card),
            Gone::DeckTop => side.deck.push(card),
            Gone::Banished => {}
        }
    }
}

/// What a showdown is for, so that its lanes are filled and read back
/// accordingly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fill {
    /// A contested battlefield: the movers against the units there.
    Contest,
    /// A hold's triggers: the holder's units there only.
    Hold,
    /// A play of the turn player's action phase: both players' units
    /// there and at their bases, the actor's one chosen card.
    Act,
}
