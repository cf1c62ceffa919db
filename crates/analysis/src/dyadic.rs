//! Two-way (dyadic) cluster-robust standard errors of the report's rates,
//! from per-board and per-pair sums: one estimator behind every rate table,
//! the rate against boards without the item, and a paired comparison of
//! two runs that fought the same pairs.
//!
//! Why dyadic: every fight has a board on each side, and fights that share
//! a board are not independent evidence. An item's rate is a ratio
//! `r = Σ y / Σ n` over fights, where `y` is the wins of the sides holding
//! it and `n` the number of such sides (0, 1 or 2). Its residual per fight
//! is `e = y − r·n`, and the variance of `Σ e` counts every two fights that
//! share a board:
//!
//! ```text
//! V = Σ_boards S_b²  −  Σ_pairs T_p²          se(r) = sqrt(H/(H−1) · V) / Σ n
//! ```
//!
//! with `S_b` the sum of `e` over every fight board `b` played (either side,
//! whether or not `b` holds the item) and `T_p` the sum over the fights of
//! one unordered pair of distinct boards: two fights of the same pair share
//! both boards and `Σ S_b²` counts them twice. A board meeting itself is
//! one cluster, so its fights are in no `T_p`. `H` is the number of boards
//! that hold the item and fought: the residuals are centred on those
//! boards' own mean, so the holders' sums of squares run short by about one
//! holder in `H` (with one holder, `V` is exactly zero); `H/(H−1)` is the
//! small-sample factor, as `G/(G−1)` is for one-way clusters.
//!
//! Every sum is taken over pairs of boards, not fights: a pair's fights
//! enter only through their count and each side's total `y`, so the
//! estimator reads per-pair tallies and its cost is boards × items plus
//! pairs × items of a board. Everything is exact integer arithmetic until
//! the final division: `V·(Σn)² = (Σn)²·A − 2·Σy·Σn·B + (Σy)²·C` with
//! `A, B, C` the sums of `y²`, `y·n`, `n²` over boards less those over pairs.
//! `docs/report.md` has the derivation and a worked example.

/// The fights between two boards of the run, `a` against `b`, in either
/// order or both: dense board indices, fights, and each side's measure
/// (its wins; or, for a paired comparison, its wins less its wins in the
/// other run). A board meeting itself is `a == b`, each fight counted once
/// with `a_value + b_value` its two sides' measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dyad {
    pub a: u32,
    pub b: u32,
    pub fights: i64,
    pub a_value: i64,
    pub b_value: i64,
}

/// An item's ratio and its dyadic standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ratio {
    /// `Σ y` and `Σ n`: wins (or differences) and fights counted from the
    /// holder's side.
    pub numerator: i64,
    pub denominator: i64,
    /// `Σ y / Σ n`; NaN when `Σ n` is 0.
    pub ratio: f64,
    /// NaN when `Σ n` is 0 or fewer than two boards fought.
    pub se: f64,
}

/// What the estimator gives for one item.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ItemRates {
    /// Every fight of a holder, from the holder's side (a mirror fight,
    /// where both sides hold it, counts from both).
    pub all: Ratio,
    /// Only the fights against boards without the item (mirrors out).
    pub apart: Ratio,
}

/// Running sums of one ratio: totals, and `y², y·n, n²` of the board sums
/// less those of the pair sums.
#[derive(Debug, Clone, Copy, Default)]
struct Sums {
    y: i64,
    n: i64,
    yy: i128,
    yn: i128,
    nn: i128,
}

impl Sums {
    fn add_square(&mut self, y: i64, n: i64, sign: i128) {
        let (y, n) = (i128::from(y), i128::from(n));
        self.yy += sign * y * y;
        self.yn += sign * y * n;
        self.nn += sign * n * n;
    }

    fn ratio(&self, holders: u32) -> Ratio {
        if self.n == 0 {
            return Ratio {
                numerator: self.y,
                denominator: 0,
                ratio: f64::NAN,
                se: f64::NAN,
            };
        }
        let (y, n) = (i128::from(self.y), i128::from(self.n));
        // V·n² exactly; fall back to floating point past i128's range
        // (beyond a billion fights).
        let scaled = n.checked_mul(n).and_then(|nn| nn.checked_mul(self.yy)).and_then(|a| {
            let b = y.checked_mul(n)?.checked_mul(2)?.checked_mul(self.yn)?;
            let c = y.checked_mul(y)?.checked_mul(self.nn)?;
            a.checked_sub(b)?.checked_add(c)
        });
        let (nf, yf) = (self.n as f64, self.y as f64);
        let variance = match scaled {
            Some(v) => v as f64 / (nf * nf * nf * nf),
            None => {
                let r = yf / nf;
                (self.yy as f64 - 2.0 * r * self.yn as f64 + r * r * self.nn as f64) / (nf * nf)
            }
        };
        let se = if holders < 2 {
            f64::NAN
        } else {
            let h = f64::from(holders);
            (h / (h - 1.0) * variance.max(0.0)).sqrt()
        };
        Ratio {
            numerator: self.y,
            denominator: self.n,
            ratio: yf / nf,
            se,
        }
    }
}

/// Each item's rate and its rate against boards without it, with dyadic
/// standard errors.
///
/// `holdings[b]` lists the items board `b` holds (dense indices below
/// `items`, each at most once; any order). `dyads` are the run's fights by
/// pair; a pair may appear several times and in either order. Boards with
/// no fight are not clusters. The standard error is NaN for an item fewer
/// than two boards that fought hold.
pub fn item_rates(holdings: &[Vec<u32>], items: usize, dyads: &[Dyad]) -> Vec<ItemRates> {
    let holdings = ItemLists::new(holdings.to_vec());
    let mut sums = RateSums::new(items);
    sums.add_block(&holdings, 0..holdings.boards(), dyads);
    sums.finish()
}

/// Each board's items in one array, board after board: the estimator
/// reads an opponent's list for every pair, in no order a cache can
/// follow, so a list is one place, not a pointer to another.
pub struct ItemLists {
    /// Board `b`'s items are `items[start[b]..start[b + 1]]`.
    start: Vec<usize>,
    items: Vec<u32>,
}

impl ItemLists {
    /// No board yet.
    pub fn empty() -> ItemLists {
        ItemLists {
            start: vec![0],
            items: Vec::new(),
        }
    }

    /// Takes the lists, freeing each as it is copied.
    pub fn new(lists: Vec<Vec<u32>>) -> ItemLists {
        let mut out = ItemLists::empty();
        for (b, list) in lists.into_iter().enumerate() {
            out.append(b, list);
        }
        out
    }

    /// Board `b`'s list, after the last board appended: the boards between
    /// get empty lists. Lists are appended board by board, so the items
    /// are held once, with no list of lists beside them.
    pub fn append(&mut self, b: usize, list: impl IntoIterator<Item = u32>) {
        assert!(
            self.start.len() <= b + 1,
            "board {b}'s list appended after a later board's"
        );
        self.pad(b);
        self.items.extend(list);
        self.start.push(self.items.len());
    }

    /// Empty lists up to `boards` boards.
    pub fn pad(&mut self, boards: usize) {
        while self.boards() < boards {
            self.start.push(self.items.len());
        }
    }

    /// Every item of every board, in order, to renumber.
    pub fn items_mut(&mut self) -> &mut [u32] {
        &mut self.items
    }

    pub fn boards(&self) -> usize {
        self.start.len() - 1
    }

    pub fn of(&self, b: usize) -> &[u32] {
        &self.items[self.start[b]..self.start[b + 1]]
    }
}

/// The sums of [`item_rates`] gathered a block of boards at a time
/// ([`gridsim_data::pair_blocks`]): integer sums, so the same bytes however the
/// boards are split.
pub struct RateSums {
    totals: BoardSums,
}

impl RateSums {
    pub fn new(items: usize) -> RateSums {
        RateSums {
            totals: BoardSums::new(items),
        }
    }

    /// Adds the boards in `boards` (dense indices), every fight of which is
    /// among `dyads` (which may hold fights of other boards too).
    pub fn add_block(&mut self, holdings: &ItemLists, boards: std::ops::Range<usize>, dyads: &[Dyad]) {
        use rayon::prelude::*;
        let items = self.totals.holders.len();
        let adjacency = Adjacency::new(holdings.boards(), dyads);
        // Boards in ranges, each range's sums on a core of its own, added
        // up after. A range's sums are as long as the items (tens of
        // thousands with the pair rows), zeroed and added once per range and
        // block: a few ranges keep both cores busy.
        let ranges = 8usize;
        let per = boards.len().div_ceil(ranges).max(1);
        let block = (0..ranges)
            .into_par_iter()
            .map(|r| {
                let first = (boards.start + r * per).min(boards.end);
                let last = (boards.start + (r + 1) * per).min(boards.end);
                board_sums(holdings, items, &adjacency, first..last)
            })
            .reduce(
                || BoardSums::new(items),
                |mut a, b| {
                    a.add(&b);
                    a
                },
            );
        self.totals.add(&block);
    }

    pub fn finish(self) -> Vec<ItemRates> {
        let totals = self.totals;
        totals
            .all
            .iter()
            .zip(&totals.apart)
            .zip(&totals.holders)
            .map(|((s, a), &h)| ItemRates {
                all: s.ratio(h),
                apart: a.ratio(h),
            })
            .collect()
    }
}

/// The sums of [`item_rates`] over a range of boards.
struct BoardSums {
    all: Vec<Sums>,
    apart: Vec<Sums>,
    holders: Vec<u32>,
}

impl BoardSums {
    fn new(items: usize) -> BoardSums {
        BoardSums {
            all: vec![Sums::default(); items],
            apart: vec![Sums::default(); items],
            holders: vec![0; items],
        }
    }

    fn add(&mut self, other: &BoardSums) {
        for (a, b) in self
            .all
            .iter_mut()
            .zip(&other.all)
            .chain(self.apart.iter_mut().zip(&other.apart))
        {
            a.y += b.y;
            a.n += b.n;
            a.yy += b.yy;
            a.yn += b.yn;
            a.nn += b.nn;
        }
        for (a, b) in self.holders.iter_mut().zip(&other.holders) {
            *a += b;
        }
    }
}

/// Every item's board and pair sums over the boards in `range`.
fn board_sums(holdings: &ItemLists, items: usize, adjacency: &Adjacency, range: std::ops::Range<usize>) -> BoardSums {
    let mut sums = BoardSums::new(items);
    let BoardSums { all, apart, holders } = &mut sums;
    let mut scratch = Scratch::new(items);
    for b in range {
        let edges = adjacency.of(b);
        if edges.is_empty() {
            continue;
        }
        let own = holdings.of(b);
        for &k in own {
            holders[k as usize] += 1;
            scratch.hold(k as usize);
        }
        // Board b's own side over its fights with other boards, and the
        // squares of its per-pair measures (its part of every `T_p` of an
        // item it holds), added once per item at the end.
        let (mut own_y, mut own_n, mut self_y, mut self_n) = (0i64, 0i64, 0i64, 0i64);
        let (mut pyy, mut pyn, mut pnn) = (0i128, 0i128, 0i128);
        // Edges a word's bits at a time: an opponent's items mark the
        // edge's bit (a small array, no branch), and each item marked is
        // then summed over its edges once.
        for chunk in edges.chunks(Scratch::EDGES) {
            // The opponents' lists copied side by side first: the copies
            // are independent reads, so the cache misses of the whole chunk
            // overlap instead of following each other, list by list.
            scratch.gathered.clear();
            scratch.ends.clear();
            for e in chunk {
                if e.opponent as usize != b {
                    scratch.gathered.extend_from_slice(holdings.of(e.opponent as usize));
                }
                scratch.ends.push(scratch.gathered.len());
            }
            let mut from = 0;
            for (i, e) in chunk.iter().enumerate() {
                let c = e.opponent as usize;
                if c == b {
                    // A board meeting itself: both sides are b, a mirror
                    // for every item it holds, one cluster.
                    self_y += e.own;
                    self_n += 2 * e.fights;
                    continue;
                }
                own_y += e.own;
                own_n += e.fights;
                let (y, n) = (i128::from(e.own), i128::from(e.fights));
                pyy += y * y;
                pyn += y * n;
                pnn += n * n;
                let to = scratch.ends[i];
                for j in from..to {
                    let k = scratch.gathered[j];
                    scratch.mark(k, i);
                }
                from = to;
            }
            scratch.fold(chunk, b);
        }
        for &k in own {
            let k = k as usize;
            let [opp_y, opp_n] = scratch.opponents[k];
            let mirror = &scratch.mirror[k];
            let (s, a) = (&mut all[k], &mut apart[k]);
            s.y += own_y + self_y;
            s.n += own_n + self_n;
            a.y += own_y - mirror.y;
            a.n += own_n - mirror.n;
            for t in [&mut *s, &mut *a] {
                // b's part of every T_p, subtracted (V = ΣS² − ΣT²).
                t.yy -= pyy;
                t.yn -= pyn;
                t.nn -= pnn;
            }
            // A mirror pair's T_p holds nothing for k against boards
            // without k: b's part of it given back; and T_p² of a mirror
            // pair holds the cross term 2·y_b·y_c (and its n parts) in
            // every fight, once per pair.
            a.yy += mirror.own_yy;
            a.yn += mirror.own_yn;
            a.nn += mirror.own_nn;
            s.yy -= mirror.cross_yy;
            s.yn -= mirror.cross_yn;
            s.nn -= mirror.cross_nn;
            s.add_square(own_y + self_y + opp_y, own_n + self_n + opp_n, 1);
            // Against boards without k, b's opponents add nothing: every
            // opponent holding k met b in a mirror.
            a.add_square(own_y - mirror.y, own_n - mirror.n, 1);
        }
        for &k in &scratch.touched {
            let k = k as usize;
            if !scratch.holds(k) {
                // b lacks k: its opponents holding k met it apart, so their
                // sums are the same in both.
                let [opp_y, opp_n] = scratch.opponents[k];
                all[k].add_square(opp_y, opp_n, 1);
                apart[k].add_square(opp_y, opp_n, 1);
            }
        }
        scratch.clear(own);
    }
    sums
}

/// The per-board scratch of [`item_rates`]: sums over one board's fights,
/// by item, and which items were touched, so clearing costs what was used.
/// The inner loop visits every item of every opponent: it only sets the
/// edge's bit in the item's mark, a word an item in a column small enough
/// for the first-level cache, and each item marked is summed over its
/// edges after. The items the board holds are a bit each, and their mirror
/// sums apart.
struct Scratch {
    /// For each item, the edges of the chunk in hand whose opponent holds
    /// it, a bit each.
    marks: Vec<u64>,
    /// The items marked in the chunk in hand, each once: the first
    /// `marked_len`, with room for one more (a write that is not kept).
    marked: Vec<u32>,
    marked_len: usize,
    /// The chunk's opponents' items, list after list; edge `i`'s end at
    /// `ends[i]`.
    gathered: Vec<u32>,
    ends: Vec<usize>,
    /// Opponents holding the item: their measures and their fights (no
    /// fights: not yet touched; a pair always has fights).
    opponents: Vec<[i64; 2]>,
    /// The items the board holds, a bit each.
    held: Vec<u64>,
    /// Items the board holds: its sums over their mirrors.
    mirror: Vec<MirrorSums>,
    touched: Vec<u32>,
}

/// A board's sums over its mirrors of one item it holds (fights in which
/// the opponent holds the item too).
#[derive(Debug, Clone, Copy, Default)]
struct MirrorSums {
    /// The board's own measure and fights.
    y: i64,
    n: i64,
    /// Squares of its per-pair measure and fights: `y², y·n, n²`.
    own_yy: i128,
    own_yn: i128,
    own_nn: i128,
    /// The cross terms of the mirror pairs' `T_p²`, over the pairs whose
    /// other board is the higher (each pair once): `2·y_b·y_c`,
    /// `(y_b + y_c)·n`, `2·n²`.
    cross_yy: i128,
    cross_yn: i128,
    cross_nn: i128,
}

impl MirrorSums {
    /// One mirror pair; `first` when the board is the pair's lower.
    fn add(&mut self, e: &Edge, first: bool) {
        let (own, theirs, n) = (i128::from(e.own), i128::from(e.theirs), i128::from(e.fights));
        self.y += e.own;
        self.n += e.fights;
        self.own_yy += own * own;
        self.own_yn += own * n;
        self.own_nn += n * n;
        if first {
            self.cross_yy += 2 * own * theirs;
            self.cross_yn += (own + theirs) * n;
            self.cross_nn += 2 * n * n;
        }
    }
}

impl Scratch {
    fn new(items: usize) -> Scratch {
        Scratch {
            marks: vec![0; items],
            // An item is listed when its first bit is set: at most once.
            marked: vec![0; items + 1],
            marked_len: 0,
            gathered: Vec::new(),
            ends: Vec::new(),
            opponents: vec![[0; 2]; items],
            held: vec![0; items.div_ceil(64)],
            mirror: vec![MirrorSums::default(); items],
            touched: Vec::new(),
        }
    }

    fn hold(&mut self, k: usize) {
        self.held[k / 64] |= 1 << (k % 64);
    }

    fn holds(&self, k: usize) -> bool {
        self.held[k / 64] & (1 << (k % 64)) != 0
    }

    /// Edges per chunk: the bits of a mark.
    const EDGES: usize = 64;

    /// The opponent of the chunk's edge `edge` holds item `k`.
    fn mark(&mut self, k: u32, edge: usize) {
        let mark = &mut self.marks[k as usize];
        // Listed when first marked, without a branch: written always, kept
        // only then.
        self.marked[self.marked_len] = k;
        self.marked_len += usize::from(*mark == 0);
        *mark |= 1 << edge;
    }

    /// Adds each item marked in `chunk` (board `b`'s edges) to its
    /// opponent sums, and to its mirror sums where `b` holds it too; clears
    /// the marks.
    fn fold(&mut self, chunk: &[Edge], b: usize) {
        for &k in &self.marked[..self.marked_len] {
            let k = k as usize;
            let mut bits = std::mem::take(&mut self.marks[k]);
            let (mut theirs, mut fights) = (0i64, 0i64);
            let mirror = self.holds(k);
            while bits != 0 {
                let e = &chunk[bits.trailing_zeros() as usize];
                theirs += e.theirs;
                fights += e.fights;
                if mirror {
                    // A mirror for k: against boards without k it counts
                    // from neither side.
                    self.mirror[k].add(e, b < e.opponent as usize);
                }
                bits &= bits - 1;
            }
            let slot = &mut self.opponents[k];
            if slot[1] == 0 {
                self.touched.push(k as u32);
            }
            slot[0] += theirs;
            slot[1] += fights;
        }
        self.marked_len = 0;
    }

    fn clear(&mut self, own: &[u32]) {
        for &k in own {
            let k = k as usize;
            self.held[k / 64] = 0;
            self.mirror[k] = MirrorSums::default();
        }
        for &k in &self.touched {
            self.opponents[k as usize] = [0; 2];
        }
        self.touched.clear();
    }
}

/// One board's fights against one opponent, merged over every dyad of the
/// pair, from the board's side.
#[derive(Debug, Clone, Copy)]
struct Edge {
    opponent: u32,
    fights: i64,
    own: i64,
    theirs: i64,
}

/// Every board's edges, in compressed rows: a pair of distinct boards is an
/// edge of each, a board meeting itself one edge of its own.
struct Adjacency {
    start: Vec<usize>,
    edges: Vec<Edge>,
}

impl Adjacency {
    fn new(boards: usize, dyads: &[Dyad]) -> Adjacency {
        // Merge the dyads by unordered pair, measures from the lower side.
        let mut pairs: Vec<Dyad> = dyads
            .iter()
            .map(|d| {
                if d.a <= d.b {
                    *d
                } else {
                    Dyad {
                        a: d.b,
                        b: d.a,
                        fights: d.fights,
                        a_value: d.b_value,
                        b_value: d.a_value,
                    }
                }
            })
            .filter(|d| d.fights > 0)
            .collect();
        pairs.sort_unstable_by_key(|d| (d.a, d.b));
        pairs.dedup_by(|later, kept| {
            let same = (later.a, later.b) == (kept.a, kept.b);
            if same {
                kept.fights += later.fights;
                kept.a_value += later.a_value;
                kept.b_value += later.b_value;
            }
            same
        });
        let mut degree = vec![0usize; boards + 1];
        for d in &pairs {
            degree[d.a as usize] += 1;
            if d.a != d.b {
                degree[d.b as usize] += 1;
            }
        }
        let mut start = vec![0usize; boards + 1];
        for b in 0..boards {
            start[b + 1] = start[b] + degree[b];
        }
        let mut fill = start.clone();
        let placeholder = Edge {
            opponent: 0,
            fights: 0,
            own: 0,
            theirs: 0,
        };
        let mut edges = vec![placeholder; start[boards]];
        for d in &pairs {
            let (a, b) = (d.a as usize, d.b as usize);
            if a == b {
                edges[fill[a]] = Edge {
                    opponent: d.a,
                    fights: d.fights,
                    own: d.a_value + d.b_value,
                    theirs: 0,
                };
                fill[a] += 1;
                continue;
            }
            edges[fill[a]] = Edge {
                opponent: d.b,
                fights: d.fights,
                own: d.a_value,
                theirs: d.b_value,
            };
            fill[a] += 1;
            edges[fill[b]] = Edge {
                opponent: d.a,
                fights: d.fights,
                own: d.b_value,
                theirs: d.a_value,
            };
            fill[b] += 1;
        }
        Adjacency { start, edges }
    }

    fn of(&self, b: usize) -> &[Edge] {
        &self.edges[self.start[b]..self.start[b + 1]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small generator of its own (splitmix64), so the checks share no
    /// code with what they check.
    struct Mix(u64);
    impl Mix {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// One fight: left, right, left's measure, right's measure.
    type Fight = (u32, u32, i64, i64);

    /// The dyadic variance from its definition: every ordered pair of
    /// fights that share a board, each fight's residual summed over the
    /// sides holding the item (`apart`: only sides whose opponent does not).
    fn by_definition(holdings: &[Vec<u32>], item: u32, fights: &[Fight], apart: bool) -> (f64, f64) {
        let holds = |b: u32| holdings[b as usize].contains(&item);
        let counts = |f: &Fight| -> (f64, f64) {
            let (l, r) = (holds(f.0), holds(f.1));
            let left = l && !(apart && r);
            let right = r && !(apart && l);
            (
                f64::from(u8::from(left)) * f.2 as f64 + f64::from(u8::from(right)) * f.3 as f64,
                f64::from(u8::from(left)) + f64::from(u8::from(right)),
            )
        };
        let (y, n) = fights
            .iter()
            .map(counts)
            .fold((0.0, 0.0), |a, c| (a.0 + c.0, a.1 + c.1));
        let r = y / n;
        let e: Vec<f64> = fights
            .iter()
            .map(|f| {
                let (y, n) = counts(f);
                y - r * n
            })
            .collect();
        let mut v = 0.0;
        for (i, f) in fights.iter().enumerate() {
            for (j, g) in fights.iter().enumerate() {
                if f.0 == g.0 || f.0 == g.1 || f.1 == g.0 || f.1 == g.1 {
                    v += e[i] * e[j];
                }
            }
        }
        let mut boards: Vec<u32> = fights.iter().flat_map(|f| [f.0, f.1]).collect();
        boards.sort_unstable();
        boards.dedup();
        let h = boards.iter().filter(|&&b| holds(b)).count() as f64;
        (r, (h / (h - 1.0) * v.max(0.0)).sqrt() / n)
    }

    fn random_design(seed: u64, boards: u32, items: u32, fights: usize, signed: bool) -> (Vec<Vec<u32>>, Vec<Fight>) {
        let mut rng = Mix(seed);
        let holdings: Vec<Vec<u32>> = (0..boards)
            .map(|_| (0..items).filter(|_| rng.below(3) > 0).collect())
            .collect();
        let fights = (0..fights)
            .map(|_| {
                let l = rng.below(u64::from(boards)) as u32;
                // Some boards meet themselves; pairs repeat.
                let r = if rng.below(10) == 0 {
                    l
                } else {
                    rng.below(u64::from(boards)) as u32
                };
                let outcome = rng.below(5);
                let (lw, rw) = match outcome {
                    0 | 1 => (1, 0),
                    2 | 3 => (0, 1),
                    _ => (0, 0),
                };
                if signed {
                    // A difference of two runs' wins: -1, 0 or 1 a side.
                    (l, r, lw - rng.below(2) as i64, rw - rng.below(2) as i64)
                } else {
                    (l, r, lw, rw)
                }
            })
            .collect();
        (holdings, fights)
    }

    /// The sums over boards and pairs equal the definition's sum over every
    /// two fights sharing a board, for the rate, the rate against boards
    /// without the item, and signed (paired) measures; with repeated
    /// pairs, boards meeting themselves and fights in either order. The
    /// last two designs give most boards more opponents than a chunk of
    /// edges holds (`Scratch::EDGES`), so an item's marks are folded over
    /// several chunks.
    #[test]
    fn board_and_pair_sums_equal_the_sum_over_fights_sharing_a_board() {
        let designs = [
            (1, false, 9, 160),
            (2, false, 9, 160),
            (5, false, 9, 160),
            (3, true, 9, 160),
            (4, true, 9, 160),
            (6, true, 9, 160),
            (7, false, 120, 6000),
            (8, true, 120, 6000),
        ];
        for (seed, signed, boards, fights) in designs {
            let (holdings, fights) = random_design(seed, boards, 4, fights, signed);
            if boards > 100 {
                let most = (0..boards)
                    .map(|b| {
                        let mut met: Vec<u32> = fights
                            .iter()
                            .filter_map(|&(l, r, _, _)| (l == b).then_some(r).or((r == b).then_some(l)))
                            .collect();
                        met.sort_unstable();
                        met.dedup();
                        met.len()
                    })
                    .max();
                assert!(
                    most > Some(Scratch::EDGES),
                    "a board meets more opponents than a chunk holds"
                );
            }
            let dyads: Vec<Dyad> = fights
                .iter()
                .map(|&(a, b, av, bv)| Dyad {
                    a,
                    b,
                    fights: 1,
                    a_value: av,
                    b_value: bv,
                })
                .collect();
            let got = item_rates(&holdings, 4, &dyads);
            for item in 0..4u32 {
                for apart in [false, true] {
                    let (r, se) = by_definition(&holdings, item, &fights, apart);
                    let g = if apart {
                        got[item as usize].apart
                    } else {
                        got[item as usize].all
                    };
                    if r.is_nan() {
                        // No fight counts for it: nothing to estimate.
                        assert_eq!(g.denominator, 0, "seed {seed} item {item} apart {apart}");
                        continue;
                    }
                    assert!(
                        (g.ratio - r).abs() < 1e-12,
                        "seed {seed} item {item} apart {apart}: {g:?} vs {r}"
                    );
                    assert!(
                        (g.se - se).abs() < 1e-9 * se + 1e-8,
                        "seed {seed} item {item} apart {apart}: se {} vs {se}",
                        g.se
                    );
                }
            }
        }
    }

    /// The worked example of docs/report.md: boards A, B (holding the
    /// item), C, D; A beat C, D beat A, B beat C twice, B beat D, A beat B,
    /// C beat D. r = 5/7, V = 90/49 − 58/49, se = sqrt(2 · 32/49) / 7 (two
    /// holders: H/(H−1) = 2).
    #[test]
    fn the_worked_example_of_docs_report() {
        let holdings = vec![vec![0], vec![0], vec![], vec![]];
        let (a, b, c, d) = (0, 1, 2, 3);
        let dyad = |x: u32, y: u32, fights: i64, x_wins: i64, y_wins: i64| Dyad {
            a: x,
            b: y,
            fights,
            a_value: x_wins,
            b_value: y_wins,
        };
        let fights = [
            dyad(a, c, 1, 1, 0),
            dyad(d, a, 1, 1, 0),
            dyad(b, c, 2, 2, 0),
            dyad(b, d, 1, 1, 0),
            dyad(a, b, 1, 1, 0),
            dyad(c, d, 1, 1, 0),
        ];
        let r = item_rates(&holdings, 1, &fights)[0];
        assert_eq!((r.all.numerator, r.all.denominator), (5, 7));
        let se = (2.0 * 32.0 / 49.0f64).sqrt() / 7.0;
        assert!((r.all.se - se).abs() < 1e-12, "{} vs {se}", r.all.se);
        assert!((r.all.se - 0.1633).abs() < 1e-4);
        // Mirrors out: A–B leaves, 4 wins of 5.
        assert_eq!((r.apart.numerator, r.apart.denominator), (4, 5));
    }

    /// A pair's fights given as one dyad or as many, in either order, are
    /// the same evidence.
    #[test]
    fn dyads_of_one_pair_merge() {
        let holdings = vec![vec![0], vec![], vec![0]];
        let split = [
            Dyad {
                a: 0,
                b: 1,
                fights: 3,
                a_value: 2,
                b_value: 1,
            },
            Dyad {
                a: 1,
                b: 0,
                fights: 2,
                a_value: 2,
                b_value: 0,
            },
            Dyad {
                a: 2,
                b: 1,
                fights: 4,
                a_value: 1,
                b_value: 3,
            },
            Dyad {
                a: 0,
                b: 2,
                fights: 2,
                a_value: 1,
                b_value: 1,
            },
        ];
        let merged = [
            Dyad {
                a: 0,
                b: 1,
                fights: 5,
                a_value: 2,
                b_value: 3,
            },
            Dyad {
                a: 1,
                b: 2,
                fights: 4,
                a_value: 3,
                b_value: 1,
            },
            Dyad {
                a: 2,
                b: 0,
                fights: 2,
                a_value: 1,
                b_value: 1,
            },
        ];
        assert_eq!(item_rates(&holdings, 1, &split), item_rates(&holdings, 1, &merged));
    }

    /// An item on every board, no draws: every fight's residual is
    /// (w − ½) + (1 − w − ½) = 0, so the rate is exactly 50% with no
    /// uncertainty, and there is no fight against a board without it.
    #[test]
    fn an_item_on_every_board_wins_half_with_no_error_and_has_no_rate_apart() {
        let holdings = vec![vec![0], vec![0], vec![0]];
        let dyads = [
            Dyad {
                a: 0,
                b: 1,
                fights: 10,
                a_value: 7,
                b_value: 3,
            },
            Dyad {
                a: 1,
                b: 2,
                fights: 10,
                a_value: 2,
                b_value: 8,
            },
        ];
        let r = item_rates(&holdings, 1, &dyads)[0];
        assert_eq!((r.all.numerator, r.all.denominator), (20, 40));
        assert!(r.all.se.abs() < 1e-12, "{r:?}");
        assert_eq!(r.apart.denominator, 0);
        assert!(r.apart.ratio.is_nan());
    }
}
