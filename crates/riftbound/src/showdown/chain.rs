//! The chain of a showdown: items resolving last in first out with
//! priority passed between the players (RB41, RB44), the cleanup after
//! each (RB12, RB20, RB21, RB37), effects and what they do, and the
//! pending items finalized onto the chain instruction by instruction
//! (RB6, RB27, RB48).

use super::*;

impl<C: Choices> Play<'_, '_, '_, C> {
    /// Resolves the chain to empty, `first` holding priority: a player
    /// may answer with a Reaction, and holds priority after it, free to
    /// play another before passing (RB26; a unit or gear played causes no
    /// pass, RB17); two passes in a row resolve the top item, whose
    /// cleanup may add more (RB41, RB48), and priority goes to the
    /// controller of the item now on top (RB26, RB41).
    pub(super) fn run_chain(&mut self, first: Player) {
        let mut priority = first;
        let mut passes = 0;
        while self.s.chain_len > 0 {
            match self.try_cast(priority, true) {
                Acted::Played => {
                    passes = 0;
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
    pub(super) fn resolve_top(&mut self) {
        self.s.chain_len -= 1;
        let item = self.s.chain[self.s.chain_len];
        self.s.resolved += 1;
        self.s
            .board
            .log_line(EventKind::Resolved, item.unit, i32::from(item.card), "RB44");
        let catalog = self.s.catalog;
        let card = catalog.card(item.card);
        self.s.killed = false;
        match item.source {
            Source::Spell => {
                for (k, e) in card.effects.iter().enumerate().take(MAX_EFFECTS) {
                    self.resolve_effect(&item, *e, item.targets[k], false);
                }
                // A resolved spell goes to its owner's trash; it is
                // played now (a judge's ruling: "played" is resolved).
                self.s.board.trash[usize::from(item.controller)] += 1;
                self.count_played(item.controller);
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
    pub(super) fn cleanup(&mut self) {
        for p in 0..2 {
            let n = self.s.board.field_gear[p];
            if n > 0 {
                self.s.board.field_gear[p] = 0;
                self.s.board.base_gear[p] += n;
                self.s.board.log_line(EventKind::GearRecalled, None, p as i32, "RB21");
            }
        }
        // Holding is read by more than the Hidden cards (a move here is
        // seen by the battlefield's holder: Reaver's Row), so it is
        // settled at every cleanup, whether or not a card is hidden.
        if let Some(h) = self.s.holder
            && !self.present(h)
        {
            self.s.holder = None;
        }
        // A player's hidden cards go to its trash once it no longer holds
        // the battlefield (RB12).
        for p in 0..2u8 {
            let pi = usize::from(p);
            let n = self.s.board.hidden_len[pi];
            if n > 0 && self.s.holder != Some(p) {
                self.s.board.hidden_len[pi] = 0;
                self.s.board.trash[pi] += n as u32;
                self.s.board.log_line(EventKind::HiddenTrashed, None, n as i32, "RB12");
            }
        }
        self.finalize_pending();
    }

    /// Every trigger of player `p`'s units on the board (and their gear)
    /// that waits for `when`: "when you discard", "when you add".
    pub(super) fn player_triggers(&mut self, p: Player, when: When) {
        if self.s.board_whens & when.bit() == 0 {
            return;
        }
        for u in self.s.board.units() {
            if self.s.board.alive(u) && self.s.board.controller(u) == p {
                self.collect(u, when, None);
            }
        }
    }

    /// The next instruction begins: what it makes pending comes after
    /// what earlier ones did (RB48).
    pub(super) fn next_instruction(&mut self) {
        self.s.batch = self.s.batch.wrapping_add(1);
    }

    /// One effect of the top item. `from_unit`: a chosen target must be
    /// where the trigger's unit is, "here" (RB28: Yasuo moved to base deals
    /// no damage).
    pub(super) fn resolve_effect(&mut self, item: &Item, e: Effect, chosen: Option<UnitId>, from_unit: bool) {
        self.next_instruction();
        // "You may" is decided now, the target having been chosen as the
        // item went on the chain (RB50).
        if e.optional && !self.choices.may(item.controller, item.card) {
            return;
        }
        // Legion (728): without another card played this turn, nothing.
        if e.legion && self.s.cards_played[usize::from(item.controller)] == 0 {
            return;
        }
        if e.action.is_players() {
            self.act_for_player(item, e.action);
            return;
        }
        let b = &self.s.board;
        // An effect that names its unit's place ("an enemy unit here") does
        // nothing once the unit has left it; one that does not ("a unit",
        // `anywhere`) resolves fully though the unit is gone (RB26, RB28).
        let source_here = !from_unit || e.anywhere || item.unit.is_some_and(|u| b.here(u));
        let placed = |u: UnitId| b.here(u) || (e.anywhere && !item.here_only && b.alive(u));
        // A unit that has left, or left the battlefield, is no target any
        // more: the item still resolves, doing nothing to it (RB17, RB28,
        // RB39).
        let one = match e.target {
            Target::Enemy | Target::Friendly | Target::OtherFriendly | Target::Any => {
                chosen.filter(|&u| placed(u) && source_here)
            }
            Target::Me => item.unit.filter(|&u| b.alive(u)),
            Target::Subject => item.subject.filter(|&u| b.alive(u)),
            Target::EachEnemy => None,
        };
        if let (Target::EachEnemy, Action::DamageSplit(n)) = (e.target, e.action) {
            if source_here {
                self.split_damage(item.controller, n);
            }
        } else if e.target == Target::EachEnemy {
            for u in self.s.board.units() {
                if self.s.board.here(u) && self.s.board.controller(u) != item.controller {
                    self.act(item, e.action, u);
                }
            }
        } else if let Some(u) = one {
            self.act(item, e.action, u);
        }
    }

    /// `total` damage split among player `p`'s enemy units at the
    /// battlefield in the order `p` chooses, each taking its lethal before
    /// the next (see [`Action::DamageSplit`]).
    pub(super) fn split_damage(&mut self, p: Player, total: i32) {
        let mut order = [UnitId(0); crate::MAX_UNITS];
        let mut n = 0;
        for u in self.s.board.units() {
            if self.s.board.here(u) && self.s.board.controller(u) != p {
                order[n] = u;
                n += 1;
            }
        }
        if n == 0 {
            return;
        }
        self.choices.damage_order(p, &mut order[..n]);
        let mut shares = [0i32; crate::MAX_UNITS];
        self.s.board.assign_combat_damage(total, &order[..n], &mut shares[..n]);
        for (&u, &d) in order[..n].iter().zip(&shares[..n]) {
            self.s.board.deal_damage(u, d);
        }
    }

    /// An action for the item's player rather than a unit (RB14, RB48).
    pub(super) fn act_for_player(&mut self, item: &Item, action: Action) {
        let p = item.controller;
        let pi = usize::from(p);
        if let Action::PlayToken { token, at_base } = action {
            // "Here" is where the trigger's unit is; gone from the
            // battlefield, nothing is played. "At your base" reads no
            // place of the unit (RB26).
            let b = &self.s.board;
            if at_base || item.unit.is_some_and(|u| b.alive(u) && b.here(u)) {
                self.enter_unit(p, token, !at_base, "179");
            }
            return;
        }
        if let Action::Discard(n) = action {
            self.discard(p, n);
            return;
        }
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
            Action::PlayFromDeck { look } => {
                // The top cards, looked at: with a unit killed, the first
                // unit among them becomes pending now, after what the
                // effect's earlier instructions made pending (RB48); every
                // other card, and all of them when nothing was killed, is
                // recycled (RB9, RB39).
                let from = self.s.deck_next[pi];
                let to = (from + usize::from(look)).min(self.s.deck_len[pi]);
                self.s.deck_next[pi] = to;
                let mut wanted = self.s.killed;
                for k in from..to {
                    let card = self.s.deck[pi][k];
                    if wanted && self.s.catalog.card(card).kind == CardKind::Unit {
                        wanted = false;
                        self.push_pending(Item {
                            controller: p,
                            card,
                            source: Source::Unit,
                            ..NO_ITEM
                        });
                    } else {
                        self.s.board.recycled[pi] += 1;
                        self.s.board.log_line(EventKind::Recycled, None, p as i32, "RB39");
                    }
                }
            }
            _ => debug_assert!(false, "not a player's action: {action:?}"),
        }
    }

    pub(super) fn act(&mut self, item: &Item, action: Action, u: UnitId) {
        let b = &mut self.s.board;
        match action {
            Action::Damage(n) | Action::DamageSplit(n) => b.deal_damage(u, n),
            Action::DamageMyMight => {
                let n = item.unit.filter(|&s| b.alive(s)).map_or(0, |s| b.might(s));
                b.deal_damage(u, n);
            }
            Action::Might { amount, minimum, lasts } => {
                b.modify(u, amount, minimum, lasts);
            }
            Action::Buff => {
                b.buff(u);
            }
            Action::SpendBuffToDraw(n) => {
                if b.remove_buff(u) {
                    let pi = usize::from(item.controller);
                    b.drawn[pi] = b.drawn[pi].saturating_add(n.unsigned_abs());
                    b.log_line(EventKind::Drew, None, n, "RB27");
                }
            }
            Action::Stun => b.stun(u),
            Action::Ready => b.ready(u),
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
            Action::MoveHere => {
                if b.alive(u) && b.at_base(u) {
                    b.place(u, false);
                    b.log(EventKind::Moved, u, 0, "RB3");
                    self.collect(u, When::Move, None);
                    let p = self.s.board.controller(u);
                    if let Some(h) = self.s.holder
                        && h != p
                    {
                        self.battlefield_triggers(When::EnemyMovesHere, h, Some(u));
                    }
                    self.join_combat(u, p);
                }
            }
            Action::Kill => {
                if b.destroy(u) {
                    self.s.killed = true;
                    self.deaths_to_pending();
                }
            }
            Action::ActivateConquer => self.activate_conquer(u),
            Action::PlayFromDeck { .. }
            | Action::Score(_)
            | Action::Draw(_)
            | Action::Discard(_)
            | Action::PlayToken { .. } => self.act_for_player(item, action),
        }
    }

    /// `u`'s conquer effects happen now, its card's then its gear's, and
    /// its hold effects too when a gear makes them conquer effects
    /// (Reckoner's Arena with Skyfall of Areion, RB14). The battlefield's
    /// own effect is not the unit's and is not among them.
    pub(super) fn activate_conquer(&mut self, u: UnitId) {
        let catalog = self.s.catalog;
        let b = &self.s.board;
        let hold_counts = b.gear(u).any(|g| catalog.card(g.card).hold_as_conquer);
        let mut sources = [None; 1 + crate::MAX_GEAR];
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

    /// Puts the triggers of `u` (its card's and its gear's) that wait for
    /// `when` among the pending items, controlled by its controller (RB8).
    pub(super) fn collect(&mut self, u: UnitId, when: When, subject: Option<UnitId>) {
        if self.s.unit_whens[usize::from(u.0)] & when.bit() == 0 {
            return;
        }
        let catalog = self.s.catalog;
        let controller = self.s.board.controller(u);
        let own = self.s.board.card(u);
        let mut sources = [None; 1 + crate::MAX_GEAR];
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
    /// trash and controlled by the unit's last controller (RB7, RB8), and
    /// for each that is no Recruit the "when another unit you control
    /// dies" of its player's units still alive — not of one that died with
    /// it (a judge's ruling: units dying together see none of the others).
    pub(super) fn deaths_to_pending(&mut self) {
        let n = self.s.board.deaths().len();
        for k in 0..n {
            let u = self.s.board.deaths()[k];
            let card = self.s.catalog.card(self.s.board.card(u));
            debug_assert_eq!(card.kind, CardKind::Unit);
            self.collect(u, When::Death, None);
            if card.is_recruit() || self.s.board_whens & When::FriendlyDies.bit() == 0 {
                continue;
            }
            let p = self.s.board.controller(u);
            for v in self.s.board.units() {
                if self.s.board.alive(v) && self.s.board.controller(v) == p {
                    self.collect(v, When::FriendlyDies, Some(u));
                }
            }
        }
    }

    /// Player `p` has played one more card this turn (not a token, 179);
    /// the second sets off its units' "when you play your second card in a
    /// turn", the card itself among them when it is a unit (a judge's
    /// ruling).
    pub(super) fn count_played(&mut self, p: Player) {
        let n = &mut self.s.played_now[usize::from(p)];
        *n = n.saturating_add(1);
        if *n == 2 {
            self.player_triggers(p, When::SecondCard);
        }
    }

    /// Finalizes the pending items onto the chain, instruction by
    /// instruction (RB48); one instruction's items the turn player's first,
    /// then the other's, each player's in an order it chooses (RB6, RB27,
    /// RB44, RB49), each declaring its targets as it goes on (RB39, RB44).
    pub(super) fn finalize_pending(&mut self) {
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
    pub(super) fn finalize_one(&mut self, mut item: Item) {
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
            self.enter_unit(item.controller, item.card, false, "RB17");
            self.count_played(item.controller);
        }
    }

    pub(super) fn push_pending(&mut self, mut item: Item) {
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
    pub(super) fn push_chain(&mut self, item: Item) -> bool {
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
