//! Cards in whole games (`docs/report.md`, "Cards in games"): for each
//! card, the score of a side whose deck holds it when the card was in its
//! opening hand, in its hand at all, or played, against the same deck's
//! games in which it was not; and, against a baseline run of the same
//! games, how the score of the decks holding it moved.
//!
//! What the figures count. A suite's decks are its design, fixed, not a
//! draw from a pool of decks: each comparison is made within a deck and
//! its opponent (a stratum), so a strong deck's wins are never credited to
//! its cards, and the strata are weighted by their games. A game is the
//! unit the interval counts: its two sides share one outcome, so both
//! sides' parts of an estimate are summed within the game before they are
//! squared (games given their decks and bots are independent, each on its
//! own stream). A card drawn more often in longer games, or played only
//! when its side is ahead, has a gap that is partly the game's shape, not
//! the card's worth: the gap is what a designer reads beside the card's
//! holders' score, not a cause.
//!
//! Built from [`crate::analysis::game_list`] and
//! [`crate::analysis::cards_seen`]; drawn by the present layer.

use crate::Error;
use serde::Serialize;

use crate::analysis::{CardSeen, GameList};
use crate::stats::{self, Figure};

/// The three comparisons, in the order of [`CardSeen::flags`]' bits.
pub const COMPARISONS: [&str; 3] = ["opening hand", "in hand", "played"];

/// 97.5% quantile of the standard normal.
const Z95: f64 = 1.959_964;

/// One card's row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardRow {
    pub key: String,
    pub name: String,
    /// Decks of the run holding the card.
    pub decks: u32,
    /// Sides of games whose deck holds the card.
    pub sides: u64,
    /// Of those sides, the share that had the card in hand (opening hand
    /// or drawn) and that played it.
    pub in_hand_share: f64,
    pub played_share: f64,
    /// The holders' score with the card in hand and without.
    pub in_hand_score: Option<f64>,
    pub not_in_hand_score: Option<f64>,
    /// Score with minus score without, within each deck and opponent, in
    /// the order of [`COMPARISONS`]; none where no stratum has both.
    pub gaps: [Option<Figure>; 3],
    /// The mean turn (both players' counted) of the card's first play in
    /// a game, and the mean Energy a play paid.
    pub first_played_turn: Option<f64>,
    pub energy_paid: Option<f64>,
    /// The opening-hand gap's interval lies wholly beyond the band's
    /// half-width from 0: holding the card from the start moves its side's
    /// score by more than the band allows a deck to stray from one half.
    /// The opening hand is the comparison the flag reads because it is
    /// dealt before anything happens: whether a card is drawn later, or
    /// played, depends on how long the game lasts and how it goes.
    pub outside_band: bool,
    /// Against a baseline run of the same games: the change in its
    /// holders' score (which moves with every card of a deck that
    /// changed), and the change in its own in-hand gap (which moves with
    /// the card itself: what flags a card).
    pub change: Option<PairedChange>,
    pub gap_change: Option<PairedChange>,
}

/// A change against a baseline run of the same games, paired game by
/// game.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PairedChange {
    pub delta: f64,
    /// 1.96 standard errors of the change.
    pub uncertainty: f64,
    pub p_value: f64,
    /// Beyond noise after the correction for testing many rows.
    pub significant: bool,
}

/// Running sums of one stratum: sides, score, score squared.
#[derive(Debug, Clone, Copy, Default)]
struct Sums {
    n: f64,
    y: f64,
}

impl Sums {
    fn add(&mut self, y: f64) {
        self.n += 1.0;
        self.y += y;
    }
    fn mean(&self) -> f64 {
        self.y / self.n
    }
}

/// One comparison in one stratum: the means with and without, and each
/// side's weight in the estimate (`with`, `without`), zero where the
/// stratum lacks one of the two.
#[derive(Debug, Clone, Copy, Default)]
struct Coefficients {
    mean_with: f64,
    mean_without: f64,
    with: f64,
    without: f64,
}

/// Which cards each deck holds: `holds[deck]` lists card indices, each once.
pub type Holdings = [Vec<u32>];

/// One run's estimates: its strata, each comparison's coefficients and
/// gap, and what the plays paid.
struct Estimates {
    decks: usize,
    cards: usize,
    /// Sides by deck and opponent: every holder of a card in a stratum.
    totals: Vec<Sums>,
    /// The sides with the card, per card, comparison and stratum.
    with: Vec<Sums>,
    coef: Vec<Coefficients>,
    /// Per card and comparison.
    gap: Vec<f64>,
    first_turns: Vec<u64>,
    firsts: Vec<u64>,
    plays: Vec<u64>,
    energy: Vec<u64>,
}

impl Estimates {
    fn stratum(&self, d: usize, e: usize) -> usize {
        d * self.decks + e
    }

    fn cell(&self, c: usize, k: usize, st: usize) -> usize {
        (c * 3 + k) * self.decks * self.decks + st
    }

    fn new(games: &GameList, seen: &[CardSeen], holds: &Holdings, cards: usize) -> Estimates {
        let decks = holds.len();
        let mut e = Estimates {
            decks,
            cards,
            totals: vec![Sums::default(); decks * decks],
            with: vec![Sums::default(); cards * 3 * decks * decks],
            coef: vec![Coefficients::default(); cards * 3 * decks * decks],
            gap: vec![0.0; cards * 3],
            first_turns: vec![0; cards],
            firsts: vec![0; cards],
            plays: vec![0; cards],
            energy: vec![0; cards],
        };
        for g in 0..games.ids.len() {
            let (l, r) = (games.left[g] as usize, games.right[g] as usize);
            if l < decks && r < decks {
                let (lr, rl) = (e.stratum(l, r), e.stratum(r, l));
                e.totals[lr].add(games.left_score[g]);
                e.totals[rl].add(1.0 - games.left_score[g]);
            }
        }
        for s in seen {
            let g = s.game as usize;
            let (l, r, y) = (games.left[g] as usize, games.right[g] as usize, games.left_score[g]);
            let (d, o, y) = if s.right { (r, l, 1.0 - y) } else { (l, r, y) };
            let c = s.card as usize;
            if d >= decks || o >= decks || c >= cards || !holds[d].contains(&s.card) {
                continue;
            }
            for k in 0..3 {
                if s.flags & (1 << k) != 0 {
                    let at = e.cell(c, k, e.stratum(d, o));
                    e.with[at].add(y);
                }
            }
            if s.plays > 0 {
                e.first_turns[c] += u64::from(s.first_played);
                e.firsts[c] += 1;
                e.plays[c] += u64::from(s.plays);
                e.energy[c] += u64::from(s.energy);
            }
        }
        // Each comparison's estimate: the strata that hold sides with and
        // without the card, weighted by their sides.
        for c in 0..cards {
            let strata: Vec<usize> = (0..decks)
                .filter(|&d| holds[d].contains(&(c as u32)))
                .flat_map(|d| (0..decks).map(move |o| d * decks + o))
                .collect();
            for k in 0..3 {
                let usable: Vec<usize> = strata
                    .iter()
                    .copied()
                    .filter(|&st| {
                        let (t, w) = (e.totals[st], e.with[e.cell(c, k, st)]);
                        w.n > 0.0 && t.n > w.n
                    })
                    .collect();
                let weight: f64 = usable.iter().map(|&st| e.totals[st].n).sum();
                for st in usable {
                    let (t, w) = (e.totals[st], e.with[e.cell(c, k, st)]);
                    let without = Sums {
                        n: t.n - w.n,
                        y: t.y - w.y,
                    };
                    let share = t.n / weight;
                    let at = e.cell(c, k, st);
                    e.coef[at] = Coefficients {
                        mean_with: w.mean(),
                        mean_without: without.mean(),
                        with: share / w.n,
                        without: share / without.n,
                    };
                    e.gap[c * 3 + k] += share * (w.mean() - without.mean());
                }
            }
        }
        e
    }

    /// Adds `sign` times game `g`'s part of each estimate to `part` (by
    /// card and comparison): each holder side's weight times its distance
    /// from its mean. `flags[card][seat]` are the game's.
    fn add_parts(&self, games: &GameList, g: usize, flags: &[[u8; 2]], holds: &Holdings, sign: f64, part: &mut [f64]) {
        let (l, r) = (games.left[g] as usize, games.right[g] as usize);
        if l >= self.decks || r >= self.decks {
            return;
        }
        let y = games.left_score[g];
        for (side, d, o, y) in [(0, l, r, y), (1, r, l, 1.0 - y)] {
            for &c in &holds[d] {
                let c = c as usize;
                if c >= self.cards {
                    continue;
                }
                let f = flags[c][side];
                for k in 0..3 {
                    let q = self.coef[self.cell(c, k, self.stratum(d, o))];
                    part[c * 3 + k] += sign
                        * if f & (1 << k) != 0 {
                            q.with * (y - q.mean_with)
                        } else {
                            -q.without * (y - q.mean_without)
                        };
                }
            }
        }
    }
}

/// The flags of one game at a time, read in order from a run's
/// [`CardSeen`]s (ordered by game).
struct Cursor<'a> {
    seen: &'a [CardSeen],
    next: usize,
    start: usize,
    flags: Vec<[u8; 2]>,
}

impl<'a> Cursor<'a> {
    fn new(seen: &'a [CardSeen], cards: usize) -> Cursor<'a> {
        Cursor {
            seen,
            next: 0,
            start: 0,
            flags: vec![[0; 2]; cards],
        }
    }

    /// The flags of game `g`, those of the game before cleared.
    fn load(&mut self, g: usize) -> &[[u8; 2]] {
        for s in &self.seen[self.start..self.next] {
            if let Some(f) = self.flags.get_mut(s.card as usize) {
                *f = [0; 2];
            }
        }
        while self.next < self.seen.len() && (self.seen[self.next].game as usize) < g {
            self.next += 1;
        }
        self.start = self.next;
        while self.next < self.seen.len() && self.seen[self.next].game as usize == g {
            let s = &self.seen[self.next];
            if let Some(f) = self.flags.get_mut(s.card as usize) {
                f[usize::from(s.right)] = s.flags;
            }
            self.next += 1;
        }
        &self.flags
    }
}

/// Adds the square of each part of game `g` to `variance` and clears it:
/// the parts of the cards either deck holds.
fn square_parts(games: &GameList, g: usize, holds: &Holdings, part: &mut [f64], variance: &mut [f64]) {
    for d in [games.left[g] as usize, games.right[g] as usize] {
        for &c in holds.get(d).map_or(&[][..], |h| &h[..]) {
            for k in 0..3 {
                if let Some(p) = part.get_mut(c as usize * 3 + k) {
                    let p = std::mem::take(p);
                    variance[c as usize * 3 + k] += p * p;
                }
            }
        }
    }
}

/// The card table of a run of games. `keys` and `names` by card index;
/// `band` is the report's, low and high.
pub fn card_rows(
    games: &GameList,
    seen: &[CardSeen],
    holds: &Holdings,
    keys: &[String],
    names: &[String],
    band: [f64; 2],
) -> Vec<CardRow> {
    let cards = keys.len();
    let e = Estimates::new(games, seen, holds, cards);
    let decks = e.decks;
    // The variance, game by game: each side's part of the estimate summed
    // within the game, then squared.
    let mut variance = vec![0.0; cards * 3];
    let mut part = vec![0.0; cards * 3];
    let mut cursor = Cursor::new(seen, cards);
    for g in 0..games.ids.len() {
        e.add_parts(games, g, cursor.load(g), holds, 1.0, &mut part);
        square_parts(games, g, holds, &mut part, &mut variance);
    }
    let half_band = (band[1] - band[0]) / 2.0;
    (0..cards)
        .filter_map(|c| {
            let holders: Vec<usize> = (0..decks).filter(|&d| holds[d].contains(&(c as u32))).collect();
            if holders.is_empty() {
                return None;
            }
            let (mut sides, mut in_hand, mut played) = (Sums::default(), Sums::default(), 0.0);
            for &d in &holders {
                for o in 0..decks {
                    let st = e.stratum(d, o);
                    sides.n += e.totals[st].n;
                    sides.y += e.totals[st].y;
                    let w = e.with[e.cell(c, 1, st)];
                    in_hand.n += w.n;
                    in_hand.y += w.y;
                    played += e.with[e.cell(c, 2, st)].n;
                }
            }
            let not_in_hand = Sums {
                n: sides.n - in_hand.n,
                y: sides.y - in_hand.y,
            };
            let gaps: [Option<Figure>; 3] = std::array::from_fn(|k| {
                let used = (0..decks * decks).any(|st| e.coef[e.cell(c, k, st)].with > 0.0);
                let se = variance[c * 3 + k].sqrt();
                let gap = e.gap[c * 3 + k];
                used.then_some(Figure {
                    value: gap,
                    low: gap - Z95 * se,
                    high: gap + Z95 * se,
                })
            });
            let per = |x: u64, n: u64| (n > 0).then(|| x as f64 / n as f64);
            Some(CardRow {
                key: keys[c].clone(),
                name: names.get(c).cloned().unwrap_or_else(|| keys[c].clone()),
                decks: holders.len() as u32,
                sides: sides.n as u64,
                in_hand_share: if sides.n > 0.0 { in_hand.n / sides.n } else { 0.0 },
                played_share: if sides.n > 0.0 { played / sides.n } else { 0.0 },
                in_hand_score: (in_hand.n > 0.0).then(|| in_hand.mean()),
                not_in_hand_score: (not_in_hand.n > 0.0).then(|| not_in_hand.mean()),
                outside_band: gaps[0].is_some_and(|f| f.low > half_band || f.high < -half_band),
                gaps,
                first_played_turn: per(e.first_turns[c], e.firsts[c]),
                energy_paid: per(e.energy[c], e.plays[c]),
                change: None,
                gap_change: None,
            })
        })
        .collect()
}

/// Each card's change in its in-hand gap against a baseline run of the
/// same games, paired: per game, the game's part of the gap in this run
/// less its part in the baseline, summed and squared. In a game where the
/// card never reached the hand the two runs play alike until something
/// else differs, so the change concentrates where the card was held: a
/// card made stronger moves its own gap, while the other cards of its
/// deck, held in its games as often as not, move theirs by nothing.
fn gap_changes(
    now: (&GameList, &[CardSeen]),
    base: (&GameList, &[CardSeen]),
    holds: &Holdings,
    cards: usize,
) -> Vec<(f64, f64)> {
    let (en, eb) = (
        Estimates::new(now.0, now.1, holds, cards),
        Estimates::new(base.0, base.1, holds, cards),
    );
    let mut variance = vec![0.0; cards * 3];
    let mut part = vec![0.0; cards * 3];
    let (mut cn, mut cb) = (Cursor::new(now.1, cards), Cursor::new(base.1, cards));
    for g in 0..now.0.ids.len() {
        en.add_parts(now.0, g, cn.load(g), holds, 1.0, &mut part);
        eb.add_parts(base.0, g, cb.load(g), holds, -1.0, &mut part);
        square_parts(now.0, g, holds, &mut part, &mut variance);
    }
    (0..cards)
        .map(|c| (en.gap[c * 3 + 1] - eb.gap[c * 3 + 1], variance[c * 3 + 1].sqrt()))
        .collect()
}

/// Seat 0's score change in each game against the baseline, summed by
/// deck pairing: `(games, sum, sum of squares)` at `left * decks + right`.
/// Fails, saying why, when the runs do not hold the same games between
/// the same decks (then they are not paired).
fn pairing_sums(now: &GameList, base: &GameList, decks: usize) -> Result<Vec<[f64; 3]>, Error> {
    if now.ids != base.ids {
        return Err(Error::NotComparable(format!(
            "the runs hold {} and {} games, not the same ids",
            now.ids.len(),
            base.ids.len()
        )));
    }
    let mut sums = vec![[0.0; 3]; decks * decks];
    for g in 0..now.ids.len() {
        let (l, r) = (now.left[g] as usize, now.right[g] as usize);
        if (l, r) != (base.left[g] as usize, base.right[g] as usize) {
            return Err(Error::NotComparable(format!(
                "game {} is played by other decks in the two runs",
                now.ids[g]
            )));
        }
        if l >= decks || r >= decks {
            return Err(Error::NotComparable(format!(
                "game {} names a deck the boards table does not hold",
                now.ids[g]
            )));
        }
        let d = now.left_score[g] - base.left_score[g];
        let s = &mut sums[l * decks + r];
        s[0] += 1.0;
        s[1] += d;
        s[2] += d * d;
    }
    Ok(sums)
}

/// The paired change of the score of the sides `holder(deck)` marks: per
/// game, the holders' changes summed (a game whose two decks both hold
/// it changes by nothing: one side's gain is the other's loss), over the
/// holders counted; its standard error counts games.
fn paired_change(sums: &[[f64; 3]], decks: usize, holder: impl Fn(usize) -> bool) -> Option<(f64, f64)> {
    let (mut x, mut m) = (0.0, 0.0);
    for l in 0..decks {
        for r in 0..decks {
            let (hl, hr) = (f64::from(u8::from(holder(l))), f64::from(u8::from(holder(r))));
            let s = sums[l * decks + r];
            x += (hl - hr) * s[1];
            m += (hl + hr) * s[0];
        }
    }
    if m == 0.0 {
        return None;
    }
    let est = x / m;
    let mut ss = 0.0;
    for l in 0..decks {
        for r in 0..decks {
            let (hl, hr) = (f64::from(u8::from(holder(l))), f64::from(u8::from(holder(r))));
            let s = sums[l * decks + r];
            let (a, b) = (hl - hr, hl + hr);
            ss += a * a * s[2] - 2.0 * est * a * b * s[1] + est * est * b * b * s[0];
        }
    }
    Some((est, ss.max(0.0).sqrt() / m))
}

/// Compares a run of games with a baseline run of the same games (same
/// ids, same decks on the same seats): each card's and each deck's
/// change, paired game by game, and whether it is beyond noise after a
/// Benjamini–Yekutieli correction at `q` over every row compared.
/// Returns the decks' changes by deck index.
pub fn compare(
    cards: &mut [CardRow],
    now: (&GameList, &[CardSeen]),
    base: (&GameList, &[CardSeen]),
    holds: &Holdings,
    keys: &[String],
    q: f64,
) -> Result<Vec<Option<PairedChange>>, Error> {
    let decks = holds.len();
    let sums = pairing_sums(now.0, base.0, decks)?;
    let gaps = gap_changes(now, base, holds, keys.len());
    let change = |(delta, se): (f64, f64)| PairedChange {
        delta,
        uncertainty: Z95 * se,
        p_value: stats::difference_p(delta, se),
        significant: false,
    };
    let mut deck_changes: Vec<Option<PairedChange>> = (0..decks)
        .map(|d| paired_change(&sums, decks, |x| x == d).map(change))
        .collect();
    for row in cards.iter_mut() {
        let Some(c) = keys.iter().position(|k| *k == row.key) else {
            continue;
        };
        row.change = paired_change(&sums, decks, |d| holds[d].contains(&(c as u32))).map(change);
        row.gap_change = row.gaps[1].map(|_| change(gaps[c]));
    }
    let p: Vec<f64> = deck_changes
        .iter()
        .flatten()
        .chain(cards.iter().flat_map(|r| r.change.iter().chain(r.gap_change.iter())))
        .map(|c| c.p_value)
        .collect();
    let beyond = stats::benjamini_yekutieli(&p, q);
    let mut it = beyond.into_iter();
    for c in deck_changes.iter_mut().flatten().chain(
        cards
            .iter_mut()
            .flat_map(|r| r.change.iter_mut().chain(r.gap_change.iter_mut())),
    ) {
        c.significant = it.next().unwrap_or(false);
    }
    Ok(deck_changes)
}

#[cfg(test)]
mod tests;
