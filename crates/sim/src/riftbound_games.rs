//! A Riftbound game suite: decks and bots, and which two decks meet in
//! game `i`, which bot plays each, and the stream the game plays on
//! (docs/riftbound.md). Game `i` depends only on the master seed and its
//! index, so any part of a run is played alike on any thread.

use gridsim_core::rng::FightRng;
use gridsim_riftbound_game::{Bot, Deck, Seat, Settings};

/// A loaded game suite.
#[derive(Debug, Clone, PartialEq)]
pub struct GameSuite {
    pub name: String,
    pub games: u64,
    pub master_seed: u64,
    pub bots: Vec<Bot>,
    pub settings: Settings,
    pub decks: Vec<Deck>,
}

/// One game of a suite: the deck and the bot of each seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GamePairing {
    pub decks: [u32; 2],
    pub bots: [Bot; 2],
}

impl GameSuite {
    /// How many pairings the suite cycles through: every ordered pair of
    /// decks (a deck against itself too: the mirror measures the first
    /// player's advantage) with every ordered pair of bots.
    pub fn cycle(&self) -> u64 {
        let d = self.decks.len().max(1) as u64;
        let b = self.bots.len().max(1) as u64;
        d * d * b * b
    }

    /// Game `id`: its pairing, in turn through the cycle, and its stream.
    pub fn pairing(&self, id: u64) -> (GamePairing, FightRng) {
        let d = self.decks.len().max(1) as u64;
        let b = self.bots.len().max(1) as u64;
        let k = id % self.cycle();
        let bot = |i: u64| self.bots.get(i as usize).copied().unwrap_or(Bot::Random);
        let pairing = GamePairing {
            decks: [(k / (d * b * b)) as u32, (k / (b * b) % d) as u32],
            bots: [bot(k / b % b), bot(k % b)],
        };
        (pairing, FightRng::for_fight(self.master_seed, id))
    }

    /// The deck of `seat` in `pairing`.
    pub fn deck(&self, pairing: &GamePairing, seat: Seat) -> &Deck {
        &self.decks[pairing.decks[usize::from(seat)] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suite(decks: usize, bots: &[Bot]) -> GameSuite {
        let deck = Deck {
            name: String::new(),
            legend: 0,
            champion: 0,
            main: Vec::new(),
            runes: Vec::new(),
            battlefields: Vec::new(),
        };
        GameSuite {
            name: "s".into(),
            games: 100,
            master_seed: 1,
            bots: bots.to_vec(),
            settings: Settings::default(),
            decks: vec![deck; decks],
        }
    }

    /// Each cycle meets every ordered pair of decks with every ordered
    /// pair of bots once. The misreading: a deck always in seat 0, so its
    /// rate mixes with the seat's.
    #[test]
    fn a_cycle_meets_every_pairing_once() {
        let s = suite(3, &[Bot::Random, Bot::Aggressive]);
        let mut seen = std::collections::BTreeSet::new();
        for id in 0..s.cycle() {
            let (p, _) = s.pairing(id);
            assert!(seen.insert((p.decks, p.bots.map(Bot::name))), "{p:?} twice");
        }
        assert_eq!(seen.len(), 36);
        assert_eq!(s.pairing(5).0, s.pairing(5 + s.cycle()).0);
    }
}
