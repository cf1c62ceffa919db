//! Who rescues whom after a boss batch with mixed outcomes (200.2a,
//! 200.2b). A pure function of the seat ring and the outcomes: players
//! never choose (200.2a).

/// One survivor's rescue chain: the fallen teammates it fights for, in the
/// order it fights them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chain {
    pub rescuer: u8,
    pub fallen: Vec<u8>,
}

/// The rescue chains for a ring of seats `0..won.len()` (seat order is ring
/// order) where `won[s]` says whether seat `s` won its boss fight.
///
/// 200.2b, read as: pairs are made one-to-one first, nearest first — each
/// fallen seat looks backwards around the ring (s-1, s-2, ...) and takes the
/// first survivor not yet paired; the pairs at backward distance 1 are
/// made before those at distance 2, and so on, seats in ring order within
/// a distance. So while survivors outnumber the fallen, each survivor gets
/// at most one. A fallen seat left over (the fallen outnumber the
/// survivors) joins the chain of the nearest survivor backwards, and each
/// chain is ordered by forward ring distance from its rescuer. No
/// outcome mixed, no chains (200.2a).
pub fn assign(won: &[bool]) -> Vec<Chain> {
    let n = won.len();
    if won.iter().all(|&w| w) || won.iter().all(|&w| !w) {
        return Vec::new();
    }
    let back = |seat: usize, d: usize| (seat + n - d % n) % n;
    let mut rescuer_of: Vec<Option<usize>> = vec![None; n];
    let mut paired = vec![false; n];
    for d in 1..n {
        for f in (0..n).filter(|&f| !won[f]) {
            let s = back(f, d);
            if rescuer_of[f].is_none() && won[s] && !paired[s] {
                rescuer_of[f] = Some(s);
                paired[s] = true;
            }
        }
    }
    for f in (0..n).filter(|&f| !won[f]) {
        if rescuer_of[f].is_none() {
            rescuer_of[f] = (1..n).map(|d| back(f, d)).find(|&s| won[s]);
        }
    }
    let mut chains: Vec<Chain> = Vec::new();
    for s in (0..n).filter(|&s| won[s]) {
        let mut fallen: Vec<u8> = (0..n).filter(|&f| rescuer_of[f] == Some(s)).map(|f| f as u8).collect();
        if fallen.is_empty() {
            continue;
        }
        fallen.sort_by_key(|&f| (usize::from(f) + n - s) % n);
        chains.push(Chain {
            rescuer: s as u8,
            fallen,
        });
    }
    chains
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chains(won: &[bool]) -> Vec<(u8, Vec<u8>)> {
        assign(won).into_iter().map(|c| (c.rescuer, c.fallen)).collect()
    }

    #[test]
    fn no_rescue_unless_outcomes_are_mixed() {
        // 200.2a: only a mixed batch opens rescues.
        assert!(assign(&[true, true, true]).is_empty());
        assert!(assign(&[false, false]).is_empty());
        assert!(assign(&[true]).is_empty());
    }

    #[test]
    fn survivors_outnumbering_the_fallen_take_one_each_walking_backwards() {
        // 200.2b: seat 2 fell; walking backwards from it, seat 1 is first.
        assert_eq!(chains(&[true, true, false, true]), vec![(1, vec![2])]);
        // Seats 1 and 2 fell: 1 takes seat 0 (distance 1); 2's seat at
        // distance 1 fell and seat 0 is paired, so it wraps to seat 3.
        assert_eq!(chains(&[true, false, false, true]), vec![(0, vec![1]), (3, vec![2])]);
    }

    #[test]
    fn surplus_fallen_chain_in_forward_ring_distance() {
        // 200.2b: one survivor (seat 1) and three fallen: its chain runs
        // forward from it: 2, 3, then 0.
        assert_eq!(chains(&[false, true, false, false]), vec![(1, vec![2, 3, 0])]);
        // Two survivors, three fallen: one-to-one first, then the surplus.
        let c = chains(&[true, false, true, false, false]);
        // Distance 1: seat 1 takes 0, seat 3 takes 2. Seat 4 is surplus; its
        // nearest survivor backwards is 2 (distance 2), so 2's chain is 3, 4.
        assert_eq!(c, vec![(0, vec![1]), (2, vec![3, 4])]);
    }
}
