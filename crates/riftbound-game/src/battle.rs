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
use gridsim_riftbound::showdown::{End, LaneUnit, MAX_HAND, Outcome};

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
        self.fill_lanes(b, [att, 1 - att], true);
        let mut choices = Table {
            bots: [self.sides[usize::from(att)].bot, self.sides[usize::from(1 - att)].bot],
            rng: &mut self.rng,
        };
        self.showdown.battlefield = Some(self.fields[b]);
        let outcome = self.showdown.play_with(&self.lanes[0], &self.lanes[1], &mut choices);
        self.showdowns += 1;
        self.read_back(b, [att, 1 - att], outcome);
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
        self.fill_lanes(b, [1 - p, p], false);
        let mut choices = Table {
            bots: [self.sides[usize::from(1 - p)].bot, self.sides[usize::from(p)].bot],
            rng: &mut self.rng,
        };
        self.showdown.battlefield = Some(self.fields[b]);
        let outcome = self.showdown.hold_with(&self.lanes[1], &mut choices);
        self.read_back(b, [1 - p, p], outcome);
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
                }
            }
            self.scout.runes[k] = self.sides[usize::from(seat)].runes;
        }
        self.scout.pays = true;
        self.scout.battlefield = Some(self.fields[b]);
        let mut f = Forecast::default();
        let (attackers, defenders) = (self.lanes[0].units.len() as f64, self.lanes[1].units.len() as f64);
        for _ in 0..tries {
            let mut choices = Table {
                bots: [Bot::Aggressive; 2],
                rng: &mut self.rng,
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

    /// Builds lane `k` for seat `seats[k]`: its units at `b`, its spells
    /// in hand; its runes handed to the showdown. With `both` false only
    /// lane 1 is filled (a hold).
    fn fill_lanes(&mut self, b: usize, seats: [Seat; 2], both: bool) {
        for (k, &seat) in seats.iter().enumerate() {
            let s = usize::from(seat);
            let lane = &mut self.lanes[k];
            lane.units.clear();
            lane.hand.clear();
            self.showdown.runes[k] = self.sides[s].runes;
            if k == 0 && !both {
                continue;
            }
            for u in 0..MAX_UNITS {
                let here =
                    self.units.alive[u] && self.units.owner[u] == seat && self.units.place[u] == Place::Field(b as u8);
                if !here || lane.units.len() == MAX_LANE {
                    continue;
                }
                self.lane_slots[k][lane.units.len()] = u;
                lane.units.push(LaneUnit {
                    card: self.units.card[u],
                    buffed: self.units.buffed[u],
                    exhausted: self.units.exhausted[u],
                    damage: self.units.damage[u],
                    might_this_turn: self.units.turn_might[u],
                    ..LaneUnit::default()
                });
            }
            for (pos, &c) in self.sides[s].hand.as_slice().iter().enumerate() {
                if lane.hand.len() == MAX_HAND {
                    break;
                }
                if self.catalog.card(c).kind == CardKind::Spell {
                    self.lane_hand[k][lane.hand.len()] = pos;
                    lane.hand.push(c);
                }
            }
        }
        self.showdown.pays = true;
    }

    /// Brings the game up to date with what the showdown left: each unit's
    /// place and state or where it went, the spells spent from hand, the
    /// runes, the cards drawn, the points, and a conquest's score.
    fn read_back(&mut self, b: usize, seats: [Seat; 2], outcome: Outcome) {
        let board = &self.showdown.board;
        let mut id = 0u8;
        for k in 0..2 {
            for j in 0..self.lanes[k].units.len() {
                let u = self.lane_slots[k][j];
                let bu = UnitId(id);
                id += 1;
                if board.alive(bu) {
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
                    continue;
                }
                self.units.alive[u] = false;
                let card = self.units.card[u];
                let side = &mut self.sides[usize::from(self.units.owner[u])];
                match board.gone(bu) {
                    Gone::Trash | Gone::Not => side.trash.push(card),
                    Gone::Hand => side.hand.push(card),
                    Gone::DeckBottom => side.deck.push_bottom(card),
                    Gone::DeckTop => side.deck.push(card),
                    Gone::Banished => {}
                }
            }
        }
        debug_assert_eq!(
            usize::from(id),
            board.units().count(),
            "a game's showdown puts no unit on the board but the lanes'"
        );
        for (k, &seat) in seats.iter().enumerate() {
            let s = usize::from(seat);
            // The spells that went to the showdown and did not come back
            // were played or discarded: to the trash (RB40). Removed from
            // the hand last position first, so earlier positions hold.
            let left = self.showdown.hand(k as u8);
            let mut kept = [false; MAX_HAND];
            for &c in left {
                if let Some(j) = (0..self.lanes[k].hand.len()).find(|&j| !kept[j] && self.lanes[k].hand[j] == c) {
                    kept[j] = true;
                }
            }
            for j in (0..self.lanes[k].hand.len()).rev() {
                if !kept[j] {
                    let c = self.sides[s].hand.remove(self.lane_hand[k][j]);
                    self.sides[s].trash.push(c);
                    // Played: a game's cards pay no discard cost yet
                    // (docs/riftbound-reconstruction.md, "Not played yet").
                    self.card_event(seat, CardEventKind::Played, c);
                }
            }
            self.sides[s].runes = self.showdown.runes[k];
            let recycled = self.showdown.recycled_runes[k];
            self.sides[s].recycle_runes(&recycled);
        }
        let drawn = self.showdown.board.drawn;
        let mut effect_points = self.showdown.board.score;
        // The kernel scores the conquest and the hold itself; the game
        // scores them under 443 and 444.1.b, and keeps only a card's points.
        match outcome.end {
            End::Conquer => effect_points[0] = effect_points[0].saturating_sub(1),
            End::Hold if self.lanes[0].units.is_empty() => effect_points[1] = effect_points[1].saturating_sub(1),
            _ => {}
        }
        for k in 0..2 {
            self.draw(seats[k], drawn[k], "RB14");
            self.gain(seats[k], effect_points[k], GameEventKind::Scored, "RB14");
        }
        if self.lanes[0].units.is_empty() {
            // A hold's triggers, not a contest.
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
}
