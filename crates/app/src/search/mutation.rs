//! A candidate board's mutations, kept to the suite's random-board rules:
//! its units and its runes.

use super::*;

/// One to three changes to a board, each kept only if the board still
/// keeps the limits: a tier up or down, a card replaced, a unit moved, two
/// units exchanged, a unit added or removed.
/// One change to a board's runes or resonance, within the suite's rune
/// rules: a rune added, removed, moved or re-tiered, or the resonance
/// changed (removed, when the suite equips none on some boards).
pub(super) fn mutate_runes(board: &mut BoardSpec, limits: &Limits, catalog: &Catalog, rng: &mut FightRng) {
    use gridsim_model::ability::RuneBoard;
    use gridsim_model::spec::RunePlacement;
    let runes_allowed = limits.max_runes > 0 && !limits.rune_pool.is_empty();
    if !runes_allowed && !limits.resonance {
        return;
    }
    if limits.resonance && (!runes_allowed || rng.below(4) == 0) {
        // One more than the resonances: none.
        let pick = rng.below(u32::from(limits.resonances) + 1) as u16;
        board.resonance = (pick < limits.resonances).then_some(gridsim_model::catalog::ResonanceId(pick));
        return;
    }
    for _try in 0..16 {
        let mut next = board.runes.clone();
        let n = next.len();
        match rng.below(4) {
            0 if n < usize::from(limits.max_runes) => {
                let rune = limits.rune_pool[rng.below(limits.rune_pool.len() as u32) as usize];
                let top = limits.max_tier.min(catalog.rune(rune).tiers()).max(1);
                let bottom = limits.min_tier.clamp(1, top);
                next.push(RunePlacement {
                    rune,
                    tier: bottom + rng.below(u32::from(top - bottom) + 1) as u8,
                    board: RuneBoard::Rows,
                    cell: 0,
                });
                let k = next.len() - 1;
                place_rune(&mut next[k], limits, rng);
            }
            1 if n > usize::from(limits.min_runes) && n > 0 => {
                next.remove(rng.below(n as u32) as usize);
            }
            2 if n > 0 => {
                let k = rng.below(n as u32) as usize;
                place_rune(&mut next[k], limits, rng);
            }
            3 if n > 0 => {
                let k = rng.below(n as u32) as usize;
                let top = limits.max_tier.min(catalog.rune(next[k].rune).tiers()).max(1);
                let bottom = limits.min_tier.clamp(1, top);
                next[k].tier = bottom + rng.below(u32::from(top - bottom) + 1) as u8;
            }
            _ => continue,
        }
        let overlap = next.iter().enumerate().any(|(a, x)| {
            next[a + 1..]
                .iter()
                .any(|y| x.board == y.board && (i32::from(x.cell) - i32::from(y.cell)).abs() < limits.rune_width)
        });
        let units: u32 = board.units.iter().map(|p| u32::from(p.tier)).sum();
        let affordable = units + limits.rune_cost(&next) <= limits.budget;
        if !overlap && affordable && next != board.runes {
            board.runes = next;
            return;
        }
    }
}

/// A rune on a random board and place.
pub(super) fn place_rune(r: &mut gridsim_model::spec::RunePlacement, limits: &Limits, rng: &mut FightRng) {
    use gridsim_model::ability::RuneBoard;
    let side = rng.below(2) as usize;
    r.board = if side == 0 { RuneBoard::Rows } else { RuneBoard::Columns };
    r.cell = rng.below((limits.rune_cells[side] - limits.rune_width + 1).max(1) as u32) as u8;
}

pub(super) fn mutate(
    units: &[Placement],
    rune_cost: u32,
    limits: &Limits,
    catalog: &Catalog,
    rng: &mut FightRng,
) -> Vec<Placement> {
    let mut board = units.to_vec();
    let changes = 1 + rng.below(3);
    for _ in 0..changes {
        // A change that breaks the limits is drawn again, a bounded number
        // of times: a board with no legal change stays as it is.
        for _try in 0..32 {
            let mut next = board.clone();
            let pick = rng.below(next.len() as u32) as usize;
            match rng.below(6) {
                0 => {
                    let (low, high) = limits.tiers(catalog, next[pick].card);
                    next[pick].tier = low + rng.below(u32::from(high - low) + 1) as u8;
                }
                1 => {
                    let card = limits.pool[rng.below(limits.pool.len() as u32) as usize];
                    let (low, high) = limits.tiers(catalog, card);
                    next[pick].card = card;
                    next[pick].tier = next[pick].tier.clamp(low, high);
                }
                2 => {
                    let size = i32::from(catalog.card(next[pick].card).footprint.side());
                    next[pick].column = rng.below((limits.columns - size + 1).max(1) as u32) as u8;
                    next[pick].row = rng.below((limits.rows - size + 1).max(1) as u32) as u8;
                }
                3 => {
                    let other = rng.below(next.len() as u32) as usize;
                    let (a, b) = (next[pick], next[other]);
                    (next[pick].column, next[pick].row) = (b.column, b.row);
                    (next[other].column, next[other].row) = (a.column, a.row);
                }
                4 => {
                    let card = limits.pool[rng.below(limits.pool.len() as u32) as usize];
                    let (low, high) = limits.tiers(catalog, card);
                    let size = i32::from(catalog.card(card).footprint.side());
                    next.push(Placement {
                        card,
                        tier: low + rng.below(u32::from(high - low) + 1) as u8,
                        column: rng.below((limits.columns - size + 1).max(1) as u32) as u8,
                        row: rng.below((limits.rows - size + 1).max(1) as u32) as u8,
                        combined: false,
                    });
                }
                _ => {
                    next.remove(pick);
                }
            }
            if next != board && limits.broken(&next, rune_cost, catalog).is_none() {
                board = next;
                break;
            }
        }
    }
    board
}
