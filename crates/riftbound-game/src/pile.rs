//! A pile of cards of fixed room: a main deck (its top the last card), a
//! hand, a trash. Every card of a player's deck is in exactly one of its
//! piles or on the board, so a pile as large as the largest deck the
//! loader takes never overflows, and a game allocates nothing.

use gridsim_core::rng::FightRng;
use gridsim_riftbound::cards::CardIndex;

/// The most cards a main deck holds (Core Rules 103.2 sets no maximum;
/// this limit is the loader's, docs/riftbound-reconstruction.md).
pub const MAX_DECK: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pile {
    cards: [CardIndex; MAX_DECK],
    len: usize,
}

impl Default for Pile {
    fn default() -> Self {
        Pile {
            cards: [0; MAX_DECK],
            len: 0,
        }
    }
}

impl Pile {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[CardIndex] {
        &self.cards[..self.len]
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Adds `c` on top (a deck's top is its last card).
    pub fn push(&mut self, c: CardIndex) {
        debug_assert!(self.len < MAX_DECK, "a pile holds at most a deck");
        if self.len < MAX_DECK {
            self.cards[self.len] = c;
            self.len += 1;
        }
    }

    /// Takes the top card.
    pub fn pop(&mut self) -> Option<CardIndex> {
        (self.len > 0).then(|| {
            self.len -= 1;
            self.cards[self.len]
        })
    }

    /// Puts `c` at the bottom (a recycle, 403.1.a).
    pub fn push_bottom(&mut self, c: CardIndex) {
        debug_assert!(self.len < MAX_DECK, "a pile holds at most a deck");
        if self.len < MAX_DECK {
            self.cards.copy_within(0..self.len, 1);
            self.cards[0] = c;
            self.len += 1;
        }
    }

    /// Takes the card at `k`; the pile's order is kept.
    pub fn remove(&mut self, k: usize) -> CardIndex {
        let c = self.cards[k];
        self.cards.copy_within(k + 1..self.len, k);
        self.len -= 1;
        c
    }

    /// Where `c` is, if it is here.
    pub fn position(&self, c: CardIndex) -> Option<usize> {
        self.as_slice().iter().position(|&x| x == c)
    }

    /// Shuffles the pile (Fisher–Yates on the game's stream).
    pub fn shuffle(&mut self, rng: &mut FightRng) {
        for i in (1..self.len).rev() {
            let j = rng.below(i as u32 + 1) as usize;
            self.cards.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_is_the_last_card_and_a_recycle_goes_under() {
        let mut p = Pile::default();
        p.push(1);
        p.push(2);
        p.push_bottom(3);
        assert_eq!(p.as_slice(), &[3, 1, 2]);
        assert_eq!(p.pop(), Some(2));
        assert_eq!(p.remove(0), 3);
        assert_eq!(p.as_slice(), &[1]);
        assert_eq!(p.position(1), Some(0));
    }
}
