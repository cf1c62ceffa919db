//! A unit's trigger that no showdown sees: the unit is away from the
//! showdown's battlefield (at its base, at the other battlefield), or the
//! game plays the card that sets it off itself (a unit without a "when you
//! play me"). The kernel resolves the triggers of the units on its board;
//! the game resolves these at once, with no chain to answer them, as it
//! does a Legend's (docs/riftbound-reconstruction.md, "Triggers away from
//! a showdown"): "when you play your second card in a turn" (Darius,
//! Trifarian), "when another non-Recruit unit you control dies" (Viktor,
//! Leader) and "when you discard" (Jinx, Rebel). The loader lets those
//! triggers do only what can be done here: Might this turn (with no
//! floor), a ready or a Buff for the unit itself, a token played at its
//! player's base.

use super::*;
use gridsim_riftbound::cards::{Action, Effect, Target, When};

impl Game<'_> {
    /// How many cards `p` has played this turn: its `played` card events of
    /// the turn, counted as each is recorded ([`Game::count_play`]); a token
    /// or an ability is no card, and a hide is no play.
    pub fn cards_played_this_turn(&self, p: Seat) -> u8 {
        match self.cards_played[usize::from(p)] {
            (turn, n) if turn == self.turn => n,
            _ => 0,
        }
    }

    /// A card of `seat`'s was just recorded as played (the one place a
    /// play is counted: [`Game::card_event`]); its second this turn makes
    /// the "second card" triggers due.
    pub(crate) fn count_play(&mut self, seat: Seat) {
        let n = self.cards_played_this_turn(seat).saturating_add(1);
        self.cards_played[usize::from(seat)] = (self.turn, n);
        if n == 2 {
            self.second_card_due[usize::from(seat)] = true;
        }
    }

    /// Unit `u`, `seat`'s and no Recruit, died: its player's "when another
    /// unit you control dies" are due once more.
    pub(crate) fn count_death(&mut self, seat: Seat, u: usize) {
        if self.catalog_whens & When::FriendlyDies.bit() != 0 && !self.catalog.card(self.units.card[u]).is_recruit() {
            let due = &mut self.deaths_due[usize::from(seat)];
            *due = due.saturating_add(1);
        }
    }

    /// A card of `seat`'s was discarded (409): its "when you discard" are
    /// due once more.
    pub(crate) fn count_discard(&mut self, seat: Seat) {
        if self.catalog_whens & When::Discard.bit() != 0 {
            let due = &mut self.discards_due[usize::from(seat)];
            *due = due.saturating_add(1);
        }
    }

    /// Resolves the triggers made due, for the units not in `skip` (a bit
    /// per unit slot: those on the kernel's board, whose triggers the
    /// kernel resolved), the turn player's first (RB6's order).
    pub(crate) fn settle_away(&mut self, skip: u32) {
        for k in 0..2 {
            let p = if k == 0 { self.active } else { 1 - self.active };
            let s = usize::from(p);
            if std::mem::take(&mut self.second_card_due[s]) {
                self.triggers_away(p, When::SecondCard, skip);
            }
            for _ in 0..std::mem::take(&mut self.deaths_due[s]) {
                self.triggers_away(p, When::FriendlyDies, skip);
            }
            for _ in 0..std::mem::take(&mut self.discards_due[s]) {
                self.triggers_away(p, When::Discard, skip);
            }
        }
    }

    /// Every trigger of `p`'s units not in `skip` that waits for `when`,
    /// resolved in slot order.
    fn triggers_away(&mut self, p: Seat, when: When, skip: u32) {
        for u in 0..MAX_UNITS {
            let waits = self.card_whens[usize::from(self.units.card[u])] & when.bit() != 0;
            if !waits || !self.units.alive[u] || self.units.owner[u] != p || skip & (1 << u) != 0 {
                continue;
            }
            let card = self.catalog.card(self.units.card[u]);
            for t in card.triggers.iter().filter(|t| t.when == when) {
                self.resolve_away(p, u, t.effect);
            }
        }
    }

    /// One effect of unit `u`'s trigger, away from any showdown.
    fn resolve_away(&mut self, p: Seat, u: usize, e: Effect) {
        let card = Some(self.units.card[u]);
        match (e.target, e.action) {
            (Target::Me, Action::Might { amount, .. }) => {
                self.units.turn_might[u] += amount;
                self.note(p, GameEventKind::Triggered, card, u as i32, "383");
            }
            (Target::Me, Action::Ready) => {
                self.units.exhausted[u] = false;
                self.note(p, GameEventKind::Triggered, card, u as i32, "383");
            }
            (Target::Me, Action::Buff) => {
                // One Buff at a time (RB27).
                self.units.buffed[u] = true;
                self.note(p, GameEventKind::Triggered, card, u as i32, "383");
            }
            (_, Action::PlayToken { token, at_base: true }) => {
                if self.units.count_of(p) < MAX_PLAYER_UNITS
                    && let Some(slot) = self.enter_base(p, token, true)
                {
                    self.note(p, GameEventKind::Played, Some(token), slot as i32, "179");
                }
            }
            // The loader refuses any other effect on these triggers.
            _ => debug_assert!(false, "not resolved away from a showdown: {e:?}"),
        }
    }
}
