//! What a player may play or activate at a moment, and playing it: cards
//! from hand and from Hidden (RB11, RB17, RB20), abilities at the base
//! with their costs (RB40, RB41), and the targets each may declare
//! (RB39).

use super::*;

impl<C: Choices> Play<'_, '_, '_, C> {
    /// Whether player `p` plays a card or activates an ability now (only a
    /// Reaction when `reaction_only`): the cards in hand, the cards it hid
    /// at the battlefield (Reactions, RB20) and the abilities at its base
    /// that have every target they need and whose costs it can pay are
    /// offered to its [`Choices`]; targets are declared as it goes on the
    /// chain (RB39).
    pub(super) fn try_cast(&mut self, p: Player, reaction_only: bool) -> Acted {
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
            let paid = !self.s.pays || self.s.runes[pi].can_pay(&self.s.cost_of(p, card));
            if speed_ok && paid && card.effects.iter().all(|e| self.has_target(p, *e, false)) {
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
            let paid = !(a.exhaust && self.s.base_exhausted[pi][k])
                && usize::from(a.discard) <= self.s.hand_len[pi] + self.s.held_len[pi];
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
                if self.s.pays {
                    let paid = self.s.runes[pi].pay(&self.s.cost_of(p, card));
                    for (r, n) in self.s.recycled_runes[pi].iter_mut().zip(paid.recycled) {
                        *r += n;
                    }
                }
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
                        self.count_played(p);
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
    pub(super) fn play_spell(&mut self, p: Player, card_index: CardIndex, from_hidden: bool) {
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
    pub(super) fn activate(&mut self, p: Player, k: usize, card_index: CardIndex) -> Acted {
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
        self.discard(p, a.discard);
        if a.adds > 0 && on_chain {
            self.resolve_top();
            return Acted::Kept;
        }
        self.finalize_pending();
        Acted::Played
    }

    /// Player `p` discards `n` cards (fewer if it holds fewer), each one
    /// of its choosing from its whole hand, the cards this showdown offers
    /// and those it holds back: each to the trash, each setting off its
    /// player's "when you discard" triggers (RB40).
    pub(super) fn discard(&mut self, p: Player, n: u8) {
        let pi = usize::from(p);
        for _ in 0..n {
            let (offered, held) = (self.s.hand_len[pi], self.s.held_len[pi]);
            let total = offered + held;
            if total == 0 {
                return;
            }
            let mut whole = [0; MAX_HAND + MAX_HELD];
            whole[..offered].copy_from_slice(&self.s.hand[pi][..offered]);
            whole[offered..total].copy_from_slice(&self.s.held[pi][..held]);
            let d = self.choices.discard(p, &whole[..total]).min(total - 1);
            // Out of its part of the hand: the last card takes its place.
            let gone = whole[d];
            if d < offered {
                self.s.hand_len[pi] -= 1;
                self.s.hand[pi][d] = self.s.hand[pi][offered - 1];
            } else {
                self.s.held_len[pi] -= 1;
                self.s.held[pi][d - offered] = self.s.held[pi][held - 1];
            }
            self.s.discarded[pi][self.s.discarded_len[pi]] = gone;
            self.s.discarded_len[pi] += 1;
            self.s.board.trash[pi] += 1;
            self.s
                .board
                .log_line(EventKind::Discarded, None, i32::from(gone), "RB40");
            self.player_triggers(p, When::Discard);
        }
    }

    /// A unit played finalizes at once, with no priority passed (RB17): from
    /// hand it enters its player's base; from Hidden, the battlefield where
    /// it was hidden, taking its player's role once combat has begun
    /// (RB11, RB12). Its "when you play me" triggers go on the chain,
    /// where both players may answer them (RB26). With the board full it
    /// enters nowhere and goes to the trash.
    pub(super) fn play_unit(&mut self, p: Player, card_index: CardIndex, from_hidden: bool) {
        self.s.played += 1;
        self.enter_unit(p, card_index, from_hidden, if from_hidden { "RB11" } else { "RB17" });
        self.count_played(p);
        self.cleanup();
    }

    /// A unit enters: at the battlefield (`here`) or its player's base.
    pub(super) fn enter_unit(&mut self, p: Player, card_index: CardIndex, here: bool, ruling: &'static str) {
        let card = self.s.catalog.card(card_index);
        let Some(u) = self.s.board.add_unit(card.might) else {
            // No room: the card to its trash; a token is no card (179).
            if !card.token {
                self.s.board.trash[usize::from(p)] += 1;
            }
            return;
        };
        self.s.board.set_card(u, card_index, p, card.assault, card.shield);
        self.s.board.set_passive(u, card.passive);
        if card.token {
            self.s.board.set_token(u);
        }
        self.s.unit_whens[usize::from(u.0)] = self.s.card_whens[usize::from(card_index)];
        self.s.board_whens |= self.s.unit_whens[usize::from(u.0)];
        self.s.board.set_controller(u, p);
        self.s.board.place(u, !here);
        self.s
            .board
            .log_line(EventKind::Played, Some(u), i32::from(card_index), ruling);
        self.collect(u, When::Play, None);
        if here {
            self.join_combat(u, p);
        }
    }

    /// Whether an effect of player `p` has what it needs to be declared.
    /// `here_only`: played from Hidden (RB11).
    pub(super) fn has_target(&self, p: Player, e: Effect, here_only: bool) -> bool {
        if e.action.is_players() {
            return true;
        }
        match e.target {
            Target::Enemy | Target::Friendly | Target::OtherFriendly | Target::Any | Target::EachEnemy => {
                self.s.board.units().any(|u| self.legal(p, e, u, here_only))
            }
            Target::Me | Target::Subject => true,
        }
    }

    /// Whether `u` is a legal target of `p`'s effect `e`: at the
    /// battlefield, or anywhere on the board for an effect that says so
    /// unless played from Hidden (RB11).
    pub(super) fn legal(&self, p: Player, e: Effect, u: UnitId, here_only: bool) -> bool {
        let b = &self.s.board;
        let side = match e.target {
            Target::Enemy | Target::EachEnemy => b.controller(u) != p,
            Target::Friendly | Target::OtherFriendly => b.controller(u) == p,
            _ => true,
        };
        let fits = match e.action {
            Action::ReturnToHand { max_might } => b.might(u) <= max_might,
            // Only a unit at its base can be moved to the battlefield.
            Action::MoveHere => b.at_base(u),
            // A prudent player takes its own unit out of the fight only to
            // save it from the item on top of the chain (RB21's sequence).
            Action::Recall { .. } if e.target == Target::Friendly && self.choices.prudent() => self.threatened(u),
            _ => true,
        };
        let placed = b.here(u) || (e.anywhere && !here_only && b.alive(u) && e.target != Target::EachEnemy);
        placed && side && fits
    }

    /// A target the policy picks for a chosen effect, uniformly among the
    /// legal ones; none for an effect that reads its units as it resolves.
    pub(super) fn choose_target(
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
        let mut legal = [UnitId(0); crate::MAX_UNITS];
        let mut n = 0;
        for u in self.s.board.units() {
            // "Another" is any but the trigger's own unit.
            let itself = e.target == Target::OtherFriendly && unit == Some(u);
            if self.legal(p, e, u, here_only) && !itself {
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
}
