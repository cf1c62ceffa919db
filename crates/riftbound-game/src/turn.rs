//! Setup and the turn (Core Rules 111–118, 315–317), scoring (442–445)
//! and burn out (418).

use super::bots::Action;
use super::*;
use gridsim_riftbound::cards::When;
use gridsim_riftbound::runes::Cost;

/// How a battlefield is scored (442).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scoring {
    Hold,
    Conquer,
}

impl Game<'_> {
    /// Setup (111–118): decks shuffled, champions aside, one battlefield of
    /// each player's three at random (458.5), who goes first at random
    /// (115.1), opening hands of 4 (116) and the mulligan (117).
    pub fn setup(&mut self, decks: [&Deck; 2], bots: [Bot; 2], rng: FightRng) {
        self.rng = rng;
        self.units = Units::default();
        self.scored = [false; MAX_FIELDS];
        self.turn = 0;
        self.ended = None;
        self.winner = None;
        self.showdowns = 0;
        self.log.clear();
        self.card_events.clear();
        self.second_card_due = [false; 2];
        self.deaths_due = [0; 2];
        self.discards_due = [0; 2];
        self.cards_played = [(0, 0); 2];
        for (seat, deck) in decks.iter().enumerate() {
            let side = &mut self.sides[seat];
            side.deck.clear();
            side.hand.clear();
            side.trash.clear();
            for &c in deck.main.iter().take(MAX_DECK) {
                side.deck.push(c);
            }
            side.deck.shuffle(&mut self.rng);
            side.champion = Some(deck.champion);
            side.rune_head = 0;
            side.rune_len = 0;
            for &d in deck.runes.iter().take(MAX_RUNES) {
                side.recycle_rune(d);
            }
            // 114.2: the rune deck is shuffled too.
            for i in (1..side.rune_len).rev() {
                let j = self.rng.below(i as u32 + 1) as usize;
                side.rune_deck.swap(i, j);
            }
            side.runes = Runes::default();
            side.score = 0;
            side.bot = bots[seat];
            let n = deck.battlefields.len().max(1) as u32;
            side.field = deck.battlefields.get(self.rng.below(n) as usize).copied().unwrap_or(0);
            side.legend = deck.legend;
            side.legend_exhausted = false;
        }
        self.first = self.rng.below(2) as Seat;
        self.active = self.first;
        self.fields = [
            self.sides[usize::from(self.first)].field,
            self.sides[usize::from(1 - self.first)].field,
        ];
        self.note(self.first, GameEventKind::First, None, 0, "115.1");
        for seat in [self.first, 1 - self.first] {
            self.draw(seat, self.settings.opening_hand, "116");
        }
        for seat in [self.first, 1 - self.first] {
            self.mulligan(seat);
        }
        for seat in [self.first, 1 - self.first] {
            for k in 0..self.sides[usize::from(seat)].hand.len() {
                let c = self.sides[usize::from(seat)].hand.as_slice()[k];
                self.card_event(seat, CardEventKind::Opening, c);
            }
        }
    }

    /// 117: set aside up to two, draw as many, recycle the set-aside to
    /// the bottom in random order.
    fn mulligan(&mut self, seat: Seat) {
        let s = usize::from(seat);
        let mut aside = [0; 8];
        let mut n = 0;
        let limit = (self.settings.mulligan as usize).min(aside.len());
        while n < limit {
            let Some(k) = self.sides[s].bot.mulligan(self, seat) else {
                break;
            };
            aside[n] = self.sides[s].hand.remove(k);
            n += 1;
        }
        if n == 0 {
            return;
        }
        self.note(seat, GameEventKind::Mulligan, None, n as i32, "117.1");
        self.draw(seat, n as u32, "117.2");
        // 403.5: several cards recycled together go in random order.
        for i in (1..n).rev() {
            let j = self.rng.below(i as u32 + 1) as usize;
            aside.swap(i, j);
        }
        for &c in &aside[..n] {
            self.sides[s].deck.push_bottom(c);
        }
    }

    /// One turn of the turn player, then the next player's turn (317.4).
    pub fn play_turn(&mut self) {
        if self.turn >= self.settings.turn_cap {
            self.ended = Some(EndReason::TurnCap);
            self.note(self.active, GameEventKind::TurnCap, None, self.turn as i32, "turn cap");
            return;
        }
        self.turn += 1;
        self.scored = [false; MAX_FIELDS];
        let p = self.active;
        self.note(p, GameEventKind::TurnBegan, None, self.turn as i32, "315");
        self.awaken(p);
        self.beginning(p);
        if self.ended.is_none() {
            self.channel(p);
            self.draw(p, self.settings.draw, "315.4.b");
        }
        if self.ended.is_none() {
            self.action_phase(p);
        }
        self.end_of_turn();
        self.active = 1 - p;
    }

    /// 315.1.a: the turn player readies its units and runes.
    pub(crate) fn awaken(&mut self, p: Seat) {
        for u in 0..MAX_UNITS {
            if self.units.alive[u] && self.units.owner[u] == p {
                self.units.exhausted[u] = false;
            }
        }
        self.sides[usize::from(p)].runes.ready_all();
        self.sides[usize::from(p)].legend_exhausted = false;
    }

    /// 315.2.b.1: the turn player holds every battlefield it controls.
    fn beginning(&mut self, p: Seat) {
        self.legend_at_beginning(p);
        for b in 0..MAX_FIELDS {
            if self.ended.is_none() && self.controller(b) == Some(p) {
                self.hold(b);
            }
        }
    }

    /// 315.3.b, 458.7: two runes from the rune deck, three in the second
    /// player's first turn; they enter ready.
    fn channel(&mut self, p: Seat) {
        let second_players_first = p != self.first && self.turn == 2;
        let n = if second_players_first {
            self.settings.second_player_first_channel
        } else {
            self.settings.channel
        };
        let side = &mut self.sides[usize::from(p)];
        let mut got = 0;
        for _ in 0..n {
            let Some(d) = side.take_rune() else { break };
            side.runes.ready[d.index()] += 1;
            got += 1;
        }
        let rule = if second_players_first { "458.7" } else { "315.3.b" };
        self.note(p, GameEventKind::Channeled, None, got, rule);
    }

    /// Draws `n` cards; a draw from an empty deck burns out first (418.2):
    /// the trash shuffled in as the deck, the opponent a point, then the
    /// draw finished if a card is there.
    pub(crate) fn draw(&mut self, p: Seat, n: u32, rule: &'static str) {
        let s = usize::from(p);
        for _ in 0..n {
            if self.ended.is_some() {
                return;
            }
            if self.sides[s].deck.is_empty() {
                self.burn_out(p);
                if self.ended.is_some() {
                    return;
                }
            }
            if let Some(c) = self.sides[s].deck.pop() {
                self.sides[s].hand.push(c);
                self.note(p, GameEventKind::Drew, Some(c), 1, rule);
                // Setup's draws (116, 117.2) are counted as the opening hand.
                if self.turn > 0 {
                    self.card_event(p, CardEventKind::Drew, c);
                }
            }
        }
    }

    /// 418.2: the trash becomes the deck, shuffled; an opponent gains a
    /// point. With the trash empty too, every further attempt burns out
    /// again (418.3).
    fn burn_out(&mut self, p: Seat) {
        let s = usize::from(p);
        let side = &mut self.sides[s];
        while let Some(c) = side.trash.pop() {
            side.deck.push(c);
        }
        side.deck.shuffle(&mut self.rng);
        self.note(
            p,
            GameEventKind::BurnedOut,
            None,
            self.sides[s].deck.len() as i32,
            "418.2",
        );
        self.gain(1 - p, self.settings.burn_out_points, GameEventKind::Scored, "418.2.c");
    }

    /// `p` gains `points`; at the victory score it wins at once (445).
    pub(crate) fn gain(&mut self, p: Seat, points: u32, kind: GameEventKind, rule: &'static str) {
        if points == 0 || self.ended.is_some() {
            return;
        }
        let side = &mut self.sides[usize::from(p)];
        side.score = side.score.saturating_add(points);
        let score = side.score;
        self.note(p, kind, None, score as i32, rule);
        if score >= self.settings.victory_score {
            self.ended = Some(EndReason::Victory);
            self.winner = Some(p);
            self.note(p, GameEventKind::Won, None, score as i32, "445");
        }
    }

    /// Scores battlefield `b` for `p` (442–444): once a turn (443); the
    /// final point from a conquest only when every battlefield has been
    /// scored this turn, a card drawn instead otherwise (444.1.b).
    pub(crate) fn score_field(&mut self, p: Seat, b: usize, how: Scoring) {
        if self.scored[b] {
            self.note(p, GameEventKind::AlreadyScored, Some(self.fields[b]), b as i32, "443");
            return;
        }
        self.scored[b] = true;
        let points = self.settings.score_points;
        let score = self.sides[usize::from(p)].score;
        let final_point = score + points >= self.settings.victory_score;
        let (kind, rule) = match how {
            Scoring::Hold => (GameEventKind::Held, "442.2"),
            Scoring::Conquer => (GameEventKind::Conquered, "442.1"),
        };
        if how == Scoring::Conquer && final_point && !self.scored.iter().all(|&s| s) {
            self.note(
                p,
                GameEventKind::FinalPointDrawn,
                Some(self.fields[b]),
                b as i32,
                "444.1.b",
            );
            self.draw(p, 1, "444.1.b");
            return;
        }
        self.gain(p, points, kind, rule);
        if how == Scoring::Conquer {
            self.legend_on_conquer(p);
        }
    }

    /// The action phase (316): the turn player's bot acts until it ends
    /// its turn.
    fn action_phase(&mut self, p: Seat) {
        self.cast_refused = false;
        for _ in 0..MAX_ACTIONS {
            if self.ended.is_some() {
                return;
            }
            let bot = self.sides[usize::from(p)].bot;
            let action = bot.action(self, p);
            if action == Action::End {
                return;
            }
            self.act(p, action);
        }
    }

    /// Does what `action` says, when the rules allow it; nothing otherwise.
    pub(crate) fn act(&mut self, p: Seat, action: Action) {
        match action {
            Action::End => {}
            Action::PlayFromHand { k, accelerate } => self.play_unit(p, Some(k), accelerate),
            Action::PlayCard { card, accelerate } => {
                if let Some(k) = self.sides[usize::from(p)]
                    .hand
                    .as_slice()
                    .iter()
                    .position(|&c| c == card)
                {
                    self.play_unit(p, Some(k), accelerate);
                }
            }
            Action::PlayChampion { accelerate } => self.play_unit(p, None, accelerate),
            Action::Cast { card, at } => self.cast(p, card, at),
            Action::Legend { unit, to } => self.use_legend(p, unit, to),
            Action::Move { units, to } => self.standard_move(p, units, to),
            Action::MoveToBase { units } => self.standard_move_to_base(p, units),
            Action::MoveCard { card, to } => {
                let units = self
                    .units
                    .of(p, Place::Base)
                    .filter(|&u| self.units.card[u] == card)
                    .fold(0, |m, u| m | 1 << u);
                self.standard_move(p, units, to);
            }
        }
    }

    /// What `card` costs `p` to play now (353): its printed cost, less its
    /// Legion discount once `p` has played another card this turn (the
    /// Energy never below 0), with its Accelerate when `accelerate` (721).
    pub fn play_cost(&self, p: Seat, card: CardIndex, accelerate: bool) -> Cost {
        let c = self.catalog.card(card);
        let mut cost = c.cost;
        if c.legion_discount > 0 && self.played_a_card_this_turn(p) {
            cost.energy = cost.energy.saturating_sub(c.legion_discount);
        }
        if accelerate {
            cost = cost.plus(&self.accelerate_cost(card));
        }
        cost
    }

    /// Whether `p` may play the unit `card` now: it can pay (353) and has
    /// room on the board.
    pub fn can_play_unit(&self, p: Seat, card: CardIndex) -> bool {
        let c = self.catalog.card(card);
        c.kind == CardKind::Unit
            && self.units.count_of(p) < MAX_PLAYER_UNITS
            && self.sides[usize::from(p)]
                .runes
                .can_pay(&self.play_cost(p, card, false))
    }

    /// Accelerate's additional cost for `card` (721, [`Settings`]): Energy
    /// and Power of its domain, or of any domain when it has none or
    /// several.
    pub fn accelerate_cost(&self, card: CardIndex) -> Cost {
        let domains = self.catalog.card(card).domains;
        let power = self.settings.accelerate_power;
        let mut extra = Cost {
            energy: self.settings.accelerate_energy,
            ..Cost::default()
        };
        match Domain::ALL.iter().find(|d| d.bit() == domains) {
            Some(d) => extra.power[d.index()] = power,
            None => extra.any_power = power,
        }
        extra
    }

    /// Whether `p` may play the unit `card` now paying its Accelerate:
    /// the card has it and the cost with it can be paid (721, 353).
    pub fn can_accelerate(&self, p: Seat, card: CardIndex) -> bool {
        let cost = self.play_cost(p, card, true);
        self.catalog.card(card).accelerate
            && self.can_play_unit(p, card)
            && self.sides[usize::from(p)].runes.can_pay(&cost)
    }

    /// Plays a unit from hand (position `k`) or the champion zone
    /// (`None`): its cost paid (353), it enters its base exhausted (140.4,
    /// 356.2.c), or ready when `accelerate` asks it and its Accelerate can
    /// be paid (721); one that cannot is played without it.
    fn play_unit(&mut self, p: Seat, k: Option<usize>, accelerate: bool) {
        let s = usize::from(p);
        let card = match k {
            Some(k) if k < self.sides[s].hand.len() => self.sides[s].hand.as_slice()[k],
            None if self.sides[s].champion.is_some() => self.sides[s].champion.unwrap_or(0),
            _ => return,
        };
        if !self.can_play_unit(p, card) {
            return;
        }
        if !(0..MAX_UNITS).any(|u| !self.units.alive[u]) {
            return;
        }
        if self.catalog.card(card).triggers.iter().any(|t| t.when == When::Play) {
            // Its "when you play me" trigger goes on the chain (RB26),
            // aimed where the opponent is strongest.
            let b = self.strongest_field(1 - p);
            self.act_at(k, card, b, accelerate);
            return;
        }
        match k {
            Some(k) => {
                self.sides[s].hand.remove(k);
            }
            None => self.sides[s].champion = None,
        }
        let accelerated = accelerate && self.can_accelerate(p, card);
        let ready = self.enters_ready(p, card, accelerated);
        let cost = self.play_cost(p, card, accelerated);
        let paid = self.sides[s].runes.pay(&cost);
        self.sides[s].recycle_runes(&paid.recycled);
        self.note_payment(p, card, &paid.recycled);
        let Some(slot) = self.enter_base(p, card, ready.is_none()) else {
            return;
        };
        self.note(
            p,
            GameEventKind::Played,
            Some(card),
            slot as i32,
            Self::played_rule(k, ready),
        );
        self.card_event(p, CardEventKind::Played, card);
        self.record_paid(card, &cost);
        self.legend_on_play(p, card);
        // No showdown saw the play: every unit's trigger is the game's.
        self.settle_away(0);
    }

    /// Whether unit `card`, played by `p` now, enters ready, and by which
    /// rule: its Accelerate paid (721), or Legion's "I enter ready" once
    /// `p` has played another card this turn (728); none: it enters
    /// exhausted (140.4). Read before the card's own play is recorded.
    pub(crate) fn enters_ready(&self, p: Seat, card: CardIndex, accelerated: bool) -> Option<&'static str> {
        if accelerated {
            Some("721")
        } else if self.catalog.card(card).legion_ready && self.played_a_card_this_turn(p) {
            Some("728")
        } else {
            None
        }
    }

    /// The rule a unit played from hand position `k` (none: the champion
    /// zone) enters by: the rule that readied it ([`Game::enters_ready`]),
    /// the Chosen Champion's (107.2.b), or a played unit's (140.4).
    pub(crate) fn played_rule(k: Option<usize>, ready: Option<&'static str>) -> &'static str {
        match (k, ready) {
            (_, Some(rule)) => rule,
            (None, None) => "107.2.b",
            (Some(_), None) => "140.4",
        }
    }

    /// A unit `card` enters `p`'s base in a free slot, fresh (140.4: a
    /// played unit enters exhausted, unless Accelerate readies it); its
    /// slot, none when the board has no room.
    pub(crate) fn enter_base(&mut self, p: Seat, card: CardIndex, exhausted: bool) -> Option<usize> {
        let slot = (0..MAX_UNITS).find(|&u| !self.units.alive[u])?;
        let u = &mut self.units;
        u.alive[slot] = true;
        u.card[slot] = card;
        u.owner[slot] = p;
        u.place[slot] = Place::Base;
        u.exhausted[slot] = exhausted;
        u.buffed[slot] = false;
        u.damage[slot] = 0;
        u.turn_might[slot] = 0;
        u.stunned[slot] = false;
        Some(slot)
    }

    /// The payment's lines (353, 157.2), worked out only for a game that
    /// is logged: a run's games pay nothing for them.
    pub(crate) fn note_payment(&mut self, p: Seat, card: CardIndex, recycled: &[u8; DOMAINS]) {
        if self.logging {
            let ready_left = self.sides[usize::from(p)].runes.ready_total() as i32;
            self.note(p, GameEventKind::Paid, Some(card), ready_left, "353");
            let recycled: i32 = recycled.iter().map(|&n| i32::from(n)).sum();
            if recycled > 0 {
                self.note(p, GameEventKind::RecycledRunes, Some(card), recycled, "157.2");
            }
        }
    }

    /// The battlefield where `p`'s units have the most Might (the first
    /// on a tie).
    pub fn strongest_field(&self, p: Seat) -> usize {
        (0..MAX_FIELDS).rev().max_by_key(|&b| self.might_at(p, b)).unwrap_or(0)
    }

    /// The Might of `p`'s units at battlefield `b`, as a bot reads it.
    pub fn might_at(&self, p: Seat, b: usize) -> i32 {
        self.units
            .of(p, Place::Field(b as u8))
            .map(|u| self.might(u).max(0))
            .sum()
    }

    /// Whether `p` may offer the spell `card` in its action phase: a
    /// spell (148: every spell of a game's catalog has Action or
    /// Reaction), paid from its runes (353), not refused this turn. The
    /// kernel checks its targets as it is played (RB39).
    pub fn can_cast(&self, p: Seat, card: CardIndex) -> bool {
        let c = self.catalog.card(card);
        c.kind == CardKind::Spell
            && !self.cast_refused
            && self.sides[usize::from(p)]
                .runes
                .can_pay(&self.play_cost(p, card, false))
    }

    /// Plays the first copy of the spell `card` in `p`'s hand in its
    /// action phase, aimed at battlefield `at` (316). One the kernel
    /// refuses (no legal target) ends the seat's casting for the turn, so
    /// a bot that asks again cannot stall.
    fn cast(&mut self, p: Seat, card: CardIndex, at: u8) {
        let b = usize::from(at);
        let k = self.sides[usize::from(p)]
            .hand
            .as_slice()
            .iter()
            .position(|&c| c == card);
        let Some(k) = k.filter(|_| b < MAX_FIELDS && self.can_cast(p, card)) else {
            return;
        };
        if !self.act_at(Some(k), card, b, false) {
            self.cast_refused = true;
        }
    }

    /// A standard move (141) of the ready units in `units` (a bit per
    /// slot) from `p`'s base to battlefield `to`: they are exhausted as
    /// its cost (141.2) and move together (141.3). A battlefield the
    /// opponent holds is contested by a combat; an uncontrolled one by a
    /// showdown (322.6, 322.7); one `p` already controls is not contested.
    fn standard_move(&mut self, p: Seat, units: u32, to: u8) {
        let b = usize::from(to);
        if b >= MAX_FIELDS {
            return;
        }
        let held_before = self.controller(b);
        let mut moved = 0;
        for u in 0..MAX_UNITS {
            let ready_at_base = self.units.alive[u]
                && self.units.owner[u] == p
                && self.units.place[u] == Place::Base
                && !self.units.exhausted[u];
            if units & (1 << u) != 0 && ready_at_base {
                self.units.exhausted[u] = true;
                self.units.place[u] = Place::Field(to);
                moved += 1;
            }
        }
        if moved == 0 {
            return;
        }
        self.note(p, GameEventKind::Moved, Some(self.fields[b]), moved, "141.3");
        if held_before != Some(p) {
            self.contest(b);
        }
    }

    /// A standard move (141) of the ready units in `units` (a bit per
    /// slot) from battlefields back to `p`'s base: exhausted as its cost
    /// (141.2), all to the one destination (141.3), from any battlefields.
    /// A base is never contested; a battlefield left with none of `p`'s
    /// units is no longer `p`'s to hold (`Game::controller`).
    fn standard_move_to_base(&mut self, p: Seat, units: u32) {
        let mut moved = 0;
        for u in 0..MAX_UNITS {
            let ready_at_a_battlefield = self.units.alive[u]
                && self.units.owner[u] == p
                && matches!(self.units.place[u], Place::Field(_))
                && !self.units.exhausted[u];
            if units & (1 << u) != 0 && ready_at_a_battlefield {
                self.units.exhausted[u] = true;
                self.units.place[u] = Place::Base;
                moved += 1;
            }
        }
        if moved > 0 {
            self.note(p, GameEventKind::MovedToBase, None, moved, "141.2");
        }
    }

    /// The end of the turn (317): damage healed, "this turn" effects and
    /// Stun ended, the rune pools emptied (160).
    pub(crate) fn end_of_turn(&mut self) {
        let u = &mut self.units;
        u.damage = [0; MAX_UNITS];
        u.turn_might = [0; MAX_UNITS];
        u.stunned = [false; MAX_UNITS];
        for side in &mut self.sides {
            side.runes.pool = 0;
        }
    }
}
