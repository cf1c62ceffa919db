//! Loads board files: each unit's card, tier and cell checked against the
//! catalog and the grid, giving a [`BoardSpec`].

use std::path::Path;

use toml::Spanned;

use super::schema::{self, BoardFile};
use super::{Diagnostic, parse_toml, read};
use gridsim_core::diagnostics;
use gridsim_model::ability::RuneBoard;
use gridsim_model::catalog::{CardId, Catalog};
use gridsim_model::settings::Rules;
use gridsim_model::spec::{BoardSpec, Placement, RunePlacement};

/// Parses and checks a board against the catalog and the grid.
pub fn parse_board(file: &Path, text: &str, catalog: &Catalog, rules: &Rules) -> Result<BoardSpec, Vec<Diagnostic>> {
    let parsed: BoardFile = parse_toml(file, text)?;
    let mut bad = Vec::new();
    let mut units = Vec::new();
    let mut occupied: Vec<(usize, [i64; 4])> = Vec::new();
    let mut states: Vec<gridsim_model::spec::InitialState> = Vec::new();
    for (key, v) in [
        ("forge.crush_bonus", parsed.forge.crush_bonus),
        ("forge.tick_reduction", parsed.forge.tick_reduction),
    ] {
        if !(0..=10_000).contains(&v) {
            bad.push(Diagnostic::at(
                file,
                text,
                None,
                key,
                format!("a Forge Core bonus is 0..=10000, found {v}"),
            ));
        }
    }
    for (i, u) in parsed.unit.iter().enumerate() {
        let key = format!("unit[{i}]");
        let Some(card) = lookup_card(file, text, catalog, &u.card, &format!("{key}.card"), &mut bad) else {
            continue;
        };
        let c = catalog.card(card);
        let tier = *u.tier.get_ref();
        if tier < 1 || tier > i64::from(c.tiers()) {
            bad.push(Diagnostic::at(
                file,
                text,
                Some(u.tier.span()),
                format!("{key}.tier"),
                format!(
                    "tier {tier} is outside `{}`'s ladder; expected 1..={}",
                    c.key,
                    c.tiers()
                ),
            ));
            continue;
        }
        let schema::Cell(col, row) = *u.cell.get_ref();
        let size = i64::from(c.footprint.side());
        let (cols, rows) = (i64::from(rules.board.columns), i64::from(rules.board.rows));
        if col < 0 || row < 0 || col + size > cols || row + size > rows {
            bad.push(Diagnostic::at(file, text, Some(u.cell.span()), format!("{key}.cell"),
                format!("a {} footprint at [{col}, {row}] leaves the {cols}x{rows} grid; expected column 0..={} and row 0..={} (100.4)",
                    c.footprint, cols - size, rows - size)));
            continue;
        }
        let rect = [col, row, col + size, row + size];
        if let Some((j, _)) = occupied
            .iter()
            .find(|(_, r)| r[0] < rect[2] && rect[0] < r[2] && r[1] < rect[3] && rect[1] < r[3])
        {
            bad.push(Diagnostic::at(
                file,
                text,
                Some(u.cell.span()),
                format!("{key}.cell"),
                format!("footprint overlaps unit[{j}]; footprints may not share a cell (100.4)"),
            ));
            continue;
        }
        occupied.push((i, rect));
        if let Some(state) = &u.state {
            check_state(file, text, state, &key, &mut bad);
        }
        states.push(
            u.state
                .as_ref()
                .map(|s| gridsim_model::spec::InitialState::from(*s.get_ref()))
                .unwrap_or_default(),
        );
        units.push(Placement {
            card,
            tier: tier as u8,
            column: col as u8,
            row: row as u8,
            combined: u.combined,
        });
    }
    if units.len() > gridsim_core::limits::MAX_UNITS_PER_SIDE {
        bad.push(Diagnostic::at(
            file,
            text,
            None,
            "unit",
            format!(
                "a board holds at most {} units",
                gridsim_core::limits::MAX_UNITS_PER_SIDE
            ),
        ));
    }
    let runes = board_runes(file, text, &parsed.rune, catalog, rules, &mut bad);
    let resonance = parsed
        .resonance
        .as_ref()
        .and_then(|r| lookup_resonance(file, text, catalog, r, "resonance", &mut bad));
    let name = parsed.name.unwrap_or_else(|| {
        file.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    if bad.is_empty() {
        Ok(BoardSpec {
            name,
            units,
            forge: gridsim_model::spec::Forge {
                crush_bonus: parsed.forge.crush_bonus,
                tick_reduction: parsed.forge.tick_reduction,
            },
            runes,
            resonance,
            // Nearly every board starts fresh: no states to apply then.
            states: if states
                .iter()
                .any(|s| *s != gridsim_model::spec::InitialState::default())
            {
                states
            } else {
                Vec::new()
            },
        })
    } else {
        Err(bad)
    }
}

/// The largest number a unit's starting state takes: far above any the
/// rules reach, low enough that no sum of them overflows.
const STATE_LIMIT: i32 = 1_000_000;

/// A unit's starting state: amounts, stacks and timers from 0 (Vitality
/// from 1), bonuses of either sign, none past [`STATE_LIMIT`].
fn check_state(file: &Path, text: &str, state: &Spanned<schema::UnitStateDef>, key: &str, bad: &mut Vec<Diagnostic>) {
    for (name, value, bonus) in state.get_ref().numbers() {
        let low = if bonus {
            -STATE_LIMIT
        } else {
            i32::from(name == "vitality")
        };
        if !(low..=STATE_LIMIT).contains(&value) {
            bad.push(Diagnostic::at(
                file,
                text,
                Some(state.span()),
                format!("{key}.state.{name}"),
                format!("{name} = {value} is outside {low}..={STATE_LIMIT}"),
            ));
        }
    }
}

/// The resonance a board or scenario side names (800.58a).
pub(super) fn lookup_resonance(
    file: &Path,
    text: &str,
    catalog: &Catalog,
    name: &Spanned<String>,
    key: &str,
    bad: &mut Vec<Diagnostic>,
) -> Option<gridsim_model::catalog::ResonanceId> {
    let found = catalog.find_resonance(name.get_ref());
    if found.is_none() {
        let names: Vec<&str> = catalog.resonances.iter().map(|x| x.key.as_str()).collect();
        bad.push(Diagnostic::at(
            file,
            text,
            Some(name.span()),
            key,
            format!(
                "unknown resonance `{}`; expected one of the catalog's (800.58a){}",
                name.get_ref(),
                diagnostics::suggestion(name.get_ref(), &names)
            ),
        ));
    }
    found
}

/// A board's runes: each a known rune at a tier of its ladder, inside its
/// rune board, not sharing a cell with another (900.24a).
pub(super) fn board_runes(
    file: &Path,
    text: &str,
    defs: &[schema::BoardRuneDef],
    catalog: &Catalog,
    rules: &Rules,
    bad: &mut Vec<Diagnostic>,
) -> Vec<RunePlacement> {
    let mut out: Vec<RunePlacement> = Vec::new();
    for (i, r) in defs.iter().enumerate() {
        match board_rune(r, catalog, rules, &out) {
            Ok(p) => out.push(p),
            Err((span, field, message)) => {
                bad.push(Diagnostic::at(
                    file,
                    text,
                    Some(span),
                    format!("rune[{i}].{field}"),
                    message,
                ));
            }
        }
    }
    out
}

/// One placed rune checked against the catalog, its board and the runes
/// placed before it; the problem's span, field and message otherwise.
fn board_rune(
    r: &schema::BoardRuneDef,
    catalog: &Catalog,
    rules: &Rules,
    placed: &[RunePlacement],
) -> Result<RunePlacement, (std::ops::Range<usize>, &'static str, String)> {
    let name = r.rune.get_ref();
    let Some(id) = catalog.find_rune(name) else {
        let names: Vec<&str> = catalog.runes.iter().map(|x| x.key.as_str()).collect();
        let hint = diagnostics::suggestion(name, &names);
        return Err((
            r.rune.span(),
            "rune",
            format!("unknown rune `{name}`; expected a rune of the catalog{hint}"),
        ));
    };
    if catalog.rune(id).innate_only {
        let why = format!("`{name}` is carried by a card itself, never placed on a rune board");
        return Err((r.rune.span(), "rune", why));
    }
    let top = i64::from(catalog.rune(id).tiers());
    let tier = *r.tier.get_ref();
    if !(1..=top).contains(&tier) {
        let why = format!("tier {tier} is outside `{name}`'s ladder; expected 1..={top}");
        return Err((r.tier.span(), "tier", why));
    }
    let board = *r.board.get_ref();
    let cells = i64::from(match board {
        RuneBoard::Rows => rules.runes.row_board_cells,
        RuneBoard::Columns => rules.runes.column_board_cells,
    });
    let width = i64::from(rules.runes.cells_per_rune);
    let cell = *r.cell.get_ref();
    if cell < 0 || cell + width > cells {
        let why = format!(
            "a rune takes {width} cells of the {cells}-cell `{board}` rune board; expected cell 0..={} (900.24a)",
            cells - width
        );
        return Err((r.cell.span(), "cell", why));
    }
    if let Some(j) = placed
        .iter()
        .position(|o| o.board == board && (i64::from(o.cell) - cell).abs() < width)
    {
        let why = format!("overlaps rune[{j}] on the `{board}` rune board; runes may not share a cell (900.24a)");
        return Err((r.cell.span(), "cell", why));
    }
    Ok(RunePlacement {
        rune: id,
        tier: tier as u8,
        board,
        cell: cell as u8,
    })
}

pub fn load_board(file: &Path, catalog: &Catalog, rules: &Rules) -> Result<BoardSpec, Vec<Diagnostic>> {
    let text = read(file).map_err(|d| vec![d])?;
    parse_board(file, &text, catalog, rules)
}

pub(super) fn lookup_card(
    file: &Path,
    text: &str,
    catalog: &Catalog,
    name: &Spanned<String>,
    key: &str,
    bad: &mut Vec<Diagnostic>,
) -> Option<CardId> {
    let found = catalog.find(name.get_ref());
    let problem = match found {
        // 800.48a: a boss's phase is installed by the boss, never placed.
        Some(c) => catalog.card(c).phase_of.map(|boss| {
            let boss = &catalog.card(boss).key;
            format!(
                "`{}` is a phase of `{boss}`, not a card of its own: place `{boss}` (800.48a)",
                name.get_ref()
            )
        }),
        None => {
            let names: Vec<&str> = catalog
                .cards
                .iter()
                .filter(|c| c.phase_of.is_none())
                .map(|c| c.key.as_str())
                .collect();
            Some(format!(
                "unknown card id `{}`; expected a card of the catalog{}",
                name.get_ref(),
                diagnostics::suggestion(name.get_ref(), &names)
            ))
        }
    };
    if let Some(message) = problem {
        bad.push(Diagnostic::at(file, text, Some(name.span()), key, message));
        return None;
    }
    found
}
