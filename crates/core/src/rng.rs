//! The fight's random stream. Every draw of a fight comes from here.
//!
//! The generator is ChaCha8 from `rand_chacha`, keyed by the run's master
//! seed (expanded by `SeedableRng::seed_from_u64`) and set to stream number
//! = the fight's index. Ranges are drawn with our own unbiased rejection
//! method on `next_u32`, so only the raw stream (pinned by a snapshot test)
//! decides outcomes, never a library's range algorithm.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// The named generator: change it only together with the snapshot test.
pub const GENERATOR: &str = "ChaCha8 (rand_chacha), key = seed_from_u64(master seed), stream = fight index";

#[derive(Clone, Debug)]
pub struct FightRng {
    inner: ChaCha8Rng,
}

impl FightRng {
    /// The stream of fight number `fight_index` of a run seeded with `master_seed`.
    pub fn for_fight(master_seed: u64, fight_index: u64) -> FightRng {
        let mut inner = ChaCha8Rng::seed_from_u64(master_seed);
        inner.set_stream(fight_index);
        FightRng { inner }
    }

    /// Stream `fight_index` of `master_seed`, read from word `word_pos`
    /// on: for draws that must not disturb the fight's own, which start at
    /// word 0.
    pub fn for_fight_at(master_seed: u64, fight_index: u64, word_pos: u128) -> FightRng {
        let mut rng = FightRng::for_fight(master_seed, fight_index);
        rng.inner.set_word_pos(word_pos);
        rng
    }

    // Drawn in both engines' inner loops, across a crate boundary.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        self.inner.next_u32()
    }

    /// Uniform in `0..n`; `n` must be at least 1.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        // Lemire's multiply-shift with rejection: unbiased and cheap. The
        // rejection threshold (2^32 mod n) is below n, so a low half of at
        // least n is always accepted and the division is needed only when
        // it is smaller: the same draws, without a division per draw.
        let mut m = u64::from(self.next_u32()) * u64::from(n);
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = u64::from(self.next_u32()) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }

    /// True with probability `percent`/100 (clamped into 0..=100).
    #[inline]
    pub fn chance_percent(&mut self, percent: i32) -> bool {
        if percent <= 0 {
            return false;
        }
        if percent >= 100 {
            return true;
        }
        (self.below(100) as i32) < percent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pins the generator: a dependency bump that changed the stream would
    /// change every recorded fight, so it must fail here first.
    #[test]
    fn stream_snapshot_is_pinned() {
        let mut r = FightRng::for_fight(42, 0);
        let first: Vec<u32> = (0..4).map(|_| r.next_u32()).collect();
        let mut r7 = FightRng::for_fight(42, 7);
        let other: Vec<u32> = (0..2).map(|_| r7.next_u32()).collect();
        assert_eq!(first, SNAPSHOT_SEED42_FIGHT0, "ChaCha8 stream changed");
        assert_eq!(other, SNAPSHOT_SEED42_FIGHT7, "stream selection changed");
    }

    const SNAPSHOT_SEED42_FIGHT0: [u32; 4] = [962419617, 2928721845, 628724104, 4081401798];
    const SNAPSHOT_SEED42_FIGHT7: [u32; 2] = [901654480, 551931016];

    /// The division-free fast path draws exactly what the plain rejection
    /// loop draws (same values, same stream consumption).
    #[test]
    fn below_matches_the_plain_rejection_loop() {
        let plain = |r: &mut FightRng, n: u32| {
            let threshold = n.wrapping_neg() % n;
            loop {
                let m = u64::from(r.next_u32()) * u64::from(n);
                if (m as u32) >= threshold {
                    return (m >> 32) as u32;
                }
            }
        };
        let (mut fast, mut slow) = (FightRng::for_fight(9, 3), FightRng::for_fight(9, 3));
        for n in (1..200u32).chain([1 << 31, (1 << 31) + 1, u32::MAX, 3_000_000_019]) {
            for _ in 0..50 {
                assert_eq!(fast.below(n), plain(&mut slow, n), "n = {n}");
            }
        }
        assert_eq!(fast.next_u32(), slow.next_u32(), "streams drifted apart");
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut r = FightRng::for_fight(1, 1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[r.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800), "{seen:?}");
    }
}
