//! Which fights a run holds: a suite's boards and its fight list, expanded
//! deterministically from the suite alone. Fight `i` always means the same
//! two boards and the same random stream, whatever the thread count, shard
//! or part size.

use gridsim_engine::FightRng;
use gridsim_model::catalog::{CardId, Catalog};
use gridsim_model::settings::Rules;
use gridsim_model::spec::{BoardSpec, Placement};

/// How random boards are drawn from the catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RandomBoards {
    /// Seed of the board generator's own stream.
    pub seed: u64,
    /// How many boards to draw.
    pub boards: u32,
    /// Units per board, inclusive.
    pub min_units: u8,
    pub max_units: u8,
    /// Tiers, inclusive; clamped to each card's ladder.
    pub min_tier: u8,
    pub max_tier: u8,
    /// The most a board's tiers may add up to (each unit costs its tier).
    pub budget: u32,
    /// Card ids that may be drawn; empty means every combat card, Penny and Tool.
    pub cards: Vec<CardId>,
    /// Runes per board, inclusive; each a rune of the catalog that may be
    /// placed, at a tier within `min_tier..=max_tier` clamped to its
    /// ladder, on a free place of either rune board.
    pub min_runes: u8,
    pub max_runes: u8,
    /// Percent chance a board equips a resonance, each equally likely.
    pub resonance_percent: u8,
    /// Percent chance a board is led by a boss, and percent chance it holds
    /// a Hub: one card of that kind, each equally likely, placed before the
    /// drawn units and counted among them (never a boss's phase).
    pub boss_percent: u8,
    pub hub_percent: u8,
    /// Runes are paid for from `budget` like units: a board's rune tiers
    /// and unit tiers together stay within it, so a tier-3 rune costs what
    /// a tier-3 unit costs (docs/catalog-tuning.md).
    pub runes_use_budget: bool,
}

/// How a suite pairs its boards into fights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pairing {
    /// Every ordered pair of distinct boards in turn, repeated until the
    /// fights are used up: each matchup is fought many times, which suits a
    /// few hand-built boards.
    #[default]
    AllPairs,
    /// Two distinct boards drawn at random for every fight: with a pool far
    /// larger than the fights per board, nearly every fight meets a new
    /// pair, so a million fights count tens of thousands of boards and the
    /// report's board-counted intervals narrow with the fights.
    Random,
    /// A gauntlet: the first `listed` boards (a suite's listed boards, such
    /// as each boss with its minions) each meet the random boards that
    /// follow them. Fight `i` puts random board `(i / listed) % random` on
    /// the left against listed board `i % listed` on the right, so every
    /// listed board meets the same challengers in turn and never another
    /// listed board.
    Gauntlet { listed: u32 },
}

/// A suite after loading: named boards and the number of fights.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suite {
    pub name: String,
    pub master_seed: u64,
    pub boards: Vec<BoardSpec>,
    pub pairing: Pairing,
    /// Fights in the whole run.
    pub fights: u64,
    /// The rules a random suite drew its boards under, which `gridsim
    /// search` keeps its boards to; `None` for listed boards.
    pub draw: Option<RandomBoards>,
}

/// Where in a fight's random stream its random pairing is read: far past
/// any word a fight consumes, so drawing the boards leaves the fight's own
/// draws as they were.
pub const PAIRING_WORD_POS: u128 = 1 << 64;

impl Suite {
    /// Ordered pairs of distinct boards: every board meets every other on
    /// both sides.
    pub fn matchups(&self) -> u64 {
        let n = self.boards.len() as u64;
        n * n.saturating_sub(1)
    }

    /// The two boards of fight `index`: for [`Pairing::AllPairs`] the
    /// matchups in order, repeated; for [`Pairing::Random`] two distinct
    /// boards drawn uniformly from the fight's own stream.
    pub fn pairing(&self, index: u64) -> (u32, u32) {
        let n = self.boards.len() as u64;
        // The second board is drawn from the others: skip the first.
        let others = |left: u64, right: u64| (left as u32, (right + u64::from(right >= left)) as u32);
        match self.pairing {
            Pairing::AllPairs => {
                let p = index % self.matchups().max(1);
                others(p / (n - 1).max(1), p % (n - 1).max(1))
            }
            Pairing::Random => {
                let mut rng = FightRng::for_fight_at(self.master_seed, index, PAIRING_WORD_POS);
                let left = rng.below(n as u32);
                let right = rng.below((n as u32 - 1).max(1));
                others(u64::from(left), u64::from(right))
            }
            Pairing::Gauntlet { listed } => {
                let listed = u64::from(listed.max(1));
                let challengers = n.saturating_sub(listed).max(1);
                let challenger = listed + (index / listed) % challengers;
                (challenger as u32, (index % listed) as u32)
            }
        }
    }

    /// The random stream of fight `index`.
    pub fn stream(&self, index: u64) -> FightRng {
        FightRng::for_fight(self.master_seed, index)
    }
}

/// Draws `spec.boards` legal boards. Deterministic in the spec and catalog.
pub fn random_boards(spec: &RandomBoards, catalog: &Catalog, rules: &Rules) -> Result<Vec<BoardSpec>, DrawError> {
    let pool = drawable_cards(spec, catalog)?;
    let (cols, rows) = (rules.board.columns, rules.board.rows);
    let mut rng = FightRng::for_fight(spec.seed, u64::MAX);
    // Runes come from a stream of their own, so a suite without runes
    // draws the same units as before runes existed.
    let mut rune_rng = FightRng::for_fight(spec.seed, u64::MAX - 1);
    // Bosses and Hubs are chosen from a third stream, so a suite without
    // them draws the same boards as before they could be drawn.
    let mut lead_rng = FightRng::for_fight(spec.seed, u64::MAX - 2);
    let of_kind = |kind: gridsim_model::ability::CardKind| -> Vec<CardId> {
        (0..catalog.cards.len() as u16)
            .map(CardId)
            .filter(|&c| catalog.card(c).kind == kind && catalog.card(c).phase_of.is_none())
            .collect()
    };
    let (bosses, hubs) = (
        of_kind(gridsim_model::ability::CardKind::Boss),
        of_kind(gridsim_model::ability::CardKind::Hub),
    );
    let mut out = Vec::with_capacity(spec.boards as usize);
    for b in 0..spec.boards {
        let mut leads: Vec<CardId> = Vec::new();
        for (percent, kind) in [(spec.boss_percent, &bosses), (spec.hub_percent, &hubs)] {
            if percent > 0 && !kind.is_empty() && lead_rng.chance_percent(i32::from(percent)) {
                leads.push(kind[lead_rng.below(kind.len() as u32) as usize]);
            }
        }
        // Runes come from their own stream, so drawing them first changes
        // nothing they draw; it tells the units what the runes have spent.
        let (runes, resonance) = draw_runes(spec, catalog, rules, &mut rune_rng);
        let unit_budget = if spec.runes_use_budget {
            spec.budget
                .saturating_sub(runes.iter().map(|r| u32::from(r.tier)).sum::<u32>())
        } else {
            spec.budget
        };
        let mut board = None;
        // A board that cannot reach its minimum is redrawn; the attempts are
        // bounded so a suite that asks the impossible fails instead of looping.
        for _attempt in 0..1000 {
            let span = u32::from(spec.max_units.saturating_sub(spec.min_units)) + 1;
            let want = spec.min_units + rng.below(span) as u8;
            let mut taken = vec![false; (cols * rows) as usize];
            let mut units = Vec::new();
            let mut spent = 0u32;
            let mut has_combatant = false;
            for _try in 0..64 {
                if units.len() >= usize::from(want) {
                    break;
                }
                // The board's boss or Hub first, then the pool's cards.
                let lead = leads.iter().find(|&&c| !units.iter().any(|u: &Placement| u.card == c));
                let card = match lead {
                    Some(&c) => c,
                    None => pool[rng.below(pool.len() as u32) as usize],
                };
                let c = catalog.card(card);
                let top = spec.max_tier.min(c.tiers()).max(1);
                let bottom = spec.min_tier.clamp(1, top);
                let tier = bottom + rng.below(u32::from(top - bottom) + 1) as u8;
                if spent + u32::from(tier) > unit_budget {
                    continue;
                }
                let size = i32::from(c.footprint.side());
                if size > cols || size > rows {
                    continue;
                }
                let col = rng.below((cols - size + 1) as u32) as i32;
                let row = rng.below((rows - size + 1) as u32) as i32;
                let cells = footprint_cells(col, row, size, cols);
                if cells.iter().any(|&i| taken[i]) {
                    continue;
                }
                cells.iter().for_each(|&i| taken[i] = true);
                spent += u32::from(tier);
                has_combatant |= !c.kind.is_object();
                units.push(Placement {
                    card,
                    tier,
                    column: col as u8,
                    row: row as u8,
                    combined: false,
                });
            }
            if units.len() >= usize::from(spec.min_units) && has_combatant {
                board = Some(units);
                break;
            }
        }
        let Some(units) = board else {
            return Err(DrawError::DoesNotFit {
                board: b,
                min_units: spec.min_units,
                max_units: spec.max_units,
                unit_budget,
                cols,
                rows,
            });
        };
        out.push(BoardSpec {
            name: format!("random-{b:04}"),
            units,
            forge: Default::default(),
            runes,
            resonance,
            states: Vec::new(),
        });
    }
    Ok(out)
}

/// A random board's runes and resonance under the spec (nothing drawn,
/// and nothing of the stream used, when it asks for none).
fn draw_runes(
    spec: &RandomBoards,
    catalog: &Catalog,
    rules: &Rules,
    rng: &mut FightRng,
) -> (
    Vec<gridsim_model::spec::RunePlacement>,
    Option<gridsim_model::catalog::ResonanceId>,
) {
    use gridsim_model::ability::RuneBoard;
    let mut runes: Vec<gridsim_model::spec::RunePlacement> = Vec::new();
    if spec.max_runes > 0 {
        let placeable: Vec<gridsim_model::catalog::RuneId> = (0..catalog.runes.len() as u16)
            .map(gridsim_model::catalog::RuneId)
            .filter(|&r| !catalog.rune(r).innate_only)
            .collect();
        let want = spec.min_runes + rng.below(u32::from(spec.max_runes - spec.min_runes) + 1) as u8;
        let width = rules.runes.cells_per_rune;
        // A rune that finds no free place is drawn again, a bounded number
        // of times: a full pair of boards simply holds fewer runes.
        for _try in 0..u32::from(want) * 8 {
            if runes.len() >= usize::from(want) || placeable.is_empty() {
                break;
            }
            let rune = placeable[rng.below(placeable.len() as u32) as usize];
            let (board, cells) = if rng.below(2) == 0 {
                (RuneBoard::Rows, rules.runes.row_board_cells)
            } else {
                (RuneBoard::Columns, rules.runes.column_board_cells)
            };
            let cell = rng.below((cells - width + 1).max(1) as u32) as i32;
            if runes
                .iter()
                .any(|o| o.board == board && (i32::from(o.cell) - cell).abs() < width)
            {
                continue;
            }
            let top = spec.max_tier.min(catalog.rune(rune).tiers()).max(1);
            let bottom = spec.min_tier.clamp(1, top);
            runes.push(gridsim_model::spec::RunePlacement {
                rune,
                tier: bottom + rng.below(u32::from(top - bottom) + 1) as u8,
                board,
                cell: cell as u8,
            });
        }
    }
    let resonance = (spec.resonance_percent > 0
        && !catalog.resonances.is_empty()
        && rng.chance_percent(i32::from(spec.resonance_percent)))
    .then(|| gridsim_model::catalog::ResonanceId(rng.below(catalog.resonances.len() as u32) as u16));
    (runes, resonance)
}

/// Why a suite's random boards cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DrawError {
    /// The spec's card list, or the catalog's drawable cards, is empty.
    NoCards,
    /// A board's units within its budget do not fit the grid.
    DoesNotFit {
        board: u32,
        min_units: u8,
        max_units: u8,
        unit_budget: u32,
        cols: i32,
        rows: i32,
    },
}

impl std::fmt::Display for DrawError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DrawError::NoCards => f.write_str("no cards to draw boards from"),
            DrawError::DoesNotFit {
                board,
                min_units,
                max_units,
                unit_budget,
                cols,
                rows,
            } => write!(
                f,
                "cannot draw board {board}: {min_units}..={max_units} units within budget {unit_budget} do not fit the {cols}x{rows} grid"
            ),
        }
    }
}

impl std::error::Error for DrawError {}

/// The cards a random board may hold: the spec's list, or every combat
/// card, Penny and Tool of the catalog (never a boss or one of its phases).
pub fn drawable_cards(spec: &RandomBoards, catalog: &Catalog) -> Result<Vec<CardId>, DrawError> {
    let pool: Vec<CardId> = if spec.cards.is_empty() {
        (0..catalog.cards.len() as u16)
            .map(CardId)
            .filter(|&c| {
                matches!(
                    catalog.card(c).kind,
                    gridsim_model::ability::CardKind::Combat
                        | gridsim_model::ability::CardKind::Penny
                        | gridsim_model::ability::CardKind::Tool
                )
            })
            .collect()
    } else {
        spec.cards.clone()
    };
    if pool.is_empty() {
        return Err(DrawError::NoCards);
    }
    Ok(pool)
}

/// The grid cells (row-major indices) a `size` x `size` footprint covers
/// with its top-left corner at `col`, `row`.
pub fn footprint_cells(col: i32, row: i32, size: i32, cols: i32) -> Vec<usize> {
    (0..size)
        .flat_map(|dy| (0..size).map(move |dx| ((row + dy) * cols + col + dx) as usize))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suite(boards: usize) -> Suite {
        Suite {
            name: "t".into(),
            master_seed: 1,
            boards: vec![BoardSpec::default(); boards],
            pairing: Pairing::AllPairs,
            fights: 100,
            draw: None,
        }
    }

    #[test]
    fn pairings_cover_every_ordered_pair_once_per_round() {
        let s = suite(4);
        let mut seen: Vec<(u32, u32)> = (0..s.matchups()).map(|i| s.pairing(i)).collect();
        assert!(seen.iter().all(|(a, b)| a != b));
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 12);
        assert_eq!(s.pairing(0), s.pairing(12), "the list repeats");
    }

    /// A gauntlet of 3 listed boards and 4 challengers: every challenger
    /// meets every listed board once in each 12 fights, on the left, and no
    /// two listed boards (or two challengers) ever meet.
    #[test]
    fn gauntlet_pairs_every_challenger_with_every_listed_board() {
        let mut s = suite(7);
        s.pairing = Pairing::Gauntlet { listed: 3 };
        let mut seen: Vec<(u32, u32)> = (0..12).map(|i| s.pairing(i)).collect();
        assert!(seen.iter().all(|&(challenger, listed)| challenger >= 3 && listed < 3));
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 12);
        assert_eq!(s.pairing(5), s.pairing(17), "the list repeats");
    }

    #[test]
    fn random_pairings_are_distinct_boards_spread_evenly_and_leave_the_fight_stream_alone() {
        let mut s = suite(5);
        s.pairing = Pairing::Random;
        let mut count = [[0u32; 5]; 5];
        for i in 0..20_000 {
            let (l, r) = s.pairing(i);
            assert_ne!(l, r, "fight {i} pairs a board with itself");
            assert_eq!((l, r), s.pairing(i), "the same fight, the same boards");
            count[l as usize][r as usize] += 1;
        }
        // 20 ordered pairs, 1,000 expected each; 4.5 standard deviations.
        for (l, row) in count.iter().enumerate() {
            for (r, &c) in row.iter().enumerate() {
                if l != r {
                    assert!((860..=1140).contains(&c), "pair {l}-{r} drawn {c} times");
                }
            }
        }
        // Drawing the pairing does not move the fight's own stream.
        let mut fight = s.stream(7);
        let mut fresh = FightRng::for_fight(1, 7);
        let _ = s.pairing(7);
        assert_eq!(fight.next_u32(), fresh.next_u32());
    }
}
