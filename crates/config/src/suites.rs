//! Loads suites (`configs/suites/*.toml`): a round-robin of listed board
//! files or a draw of random boards, with the fight count, giving a
//! [`Suite`](gridsim_sim::suite::Suite).

use std::path::{Path, PathBuf};

use toml::Spanned;

use super::boards::lookup_card;
use super::{Diagnostic, load_board, parse_toml, read};
use gridsim_model::catalog::Catalog;
use gridsim_model::settings::Rules;
use gridsim_sim::suite::Pairing;

/// The TOML shape of a suite (`configs/suites/*.toml`).
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct SuiteFile {
    name: String,
    master_seed: u64,
    /// Fights in all; or give `fights_per_matchup`.
    #[serde(default)]
    fights: Option<u64>,
    #[serde(default)]
    fights_per_matchup: Option<u64>,
    /// `all_pairs` (the default), `random`, or `gauntlet` (both `[random]`
    /// and `[round_robin]`: each listed board meets the random boards).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pairing: Option<Spanned<String>>,
    #[serde(default)]
    random: Option<RandomDef>,
    #[serde(default)]
    round_robin: Option<RoundRobinDef>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct RandomDef {
    seed: u64,
    boards: u32,
    units: [u8; 2],
    tiers: [u8; 2],
    budget: u32,
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    cards: Vec<Spanned<String>>,
    /// Runes per board, inclusive (900.24a); none when left out.
    #[serde(default)]
    runes: [u8; 2],
    /// Percent chance a board equips a resonance, drawn evenly (800.58a).
    #[serde(default)]
    resonance_percent: u8,
    /// Percent chance a board is led by a boss of the catalog.
    #[serde(default)]
    boss_percent: u8,
    /// Percent chance a board holds a Hub of the catalog (800.33).
    #[serde(default)]
    hub_percent: u8,
    /// Rune tiers are paid from `budget` like unit tiers.
    #[serde(default)]
    runes_use_budget: bool,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct RoundRobinDef {
    /// Board files, relative to the suite file.
    #[schemars(with = "Vec<String>")]
    boards: Vec<Spanned<String>>,
}

/// The JSON Schema of a suite file, from the type it is read with.
pub(crate) fn json_schema() -> schemars::Schema {
    schemars::schema_for!(SuiteFile)
}

/// Parses a suite and builds its boards against the catalog.
pub fn parse_suite(
    file: &Path,
    text: &str,
    catalog: &Catalog,
    rules: &Rules,
) -> Result<gridsim_sim::suite::Suite, Vec<Diagnostic>> {
    parse_suite_from(file, text, catalog, rules, BoardSource::NextToSuite)
}

/// Where a round-robin suite's listed board files are read from.
#[derive(Debug, Clone, Copy)]
pub enum BoardSource<'a> {
    /// Each listed path, relative to the suite file's folder.
    NextToSuite,
    /// Copies named by [`board_copy_name`] in this folder (a run directory's
    /// `inputs/boards`).
    Copies(&'a Path),
}

/// The name a run directory gives its copy of a suite's `k`-th listed board.
pub fn board_copy_name(k: usize, listed: &Path) -> String {
    let name = listed
        .file_name()
        .map_or_else(|| "board.toml".into(), |n| n.to_string_lossy());
    format!("{k:03}-{name}")
}

/// The board files a suite lists, resolved next to the suite (none for a
/// suite of random boards).
pub fn suite_board_files(file: &Path, text: &str) -> Result<Vec<PathBuf>, Vec<Diagnostic>> {
    let parsed: SuiteFile = parse_toml(file, text)?;
    let base = file.parent().unwrap_or(Path::new("."));
    Ok(parsed
        .round_robin
        .map(|rr| rr.boards.iter().map(|b| base.join(b.get_ref())).collect())
        .unwrap_or_default())
}

/// [`parse_suite`], reading listed boards from `source`.
pub fn parse_suite_from(
    file: &Path,
    text: &str,
    catalog: &Catalog,
    rules: &Rules,
    source: BoardSource,
) -> Result<gridsim_sim::suite::Suite, Vec<Diagnostic>> {
    let parsed: SuiteFile = parse_toml(file, text)?;
    let whole = |key: &str, msg: String| vec![Diagnostic::at(file, text, None, key, msg)];
    if parsed.random.is_none() && parsed.round_robin.is_none() {
        return Err(whole(
            "",
            "a suite has `[random]`, `[round_robin]`, or both with `pairing = \"gauntlet\"`".into(),
        ));
    }
    let mut draw = None;
    let mut listed = Vec::new();
    if let Some(rr) = &parsed.round_robin {
        listed = {
            let base = file.parent().unwrap_or(Path::new("."));
            let mut boards = Vec::new();
            let mut bad = Vec::new();
            for (k, b) in rr.boards.iter().enumerate() {
                let path = match source {
                    BoardSource::NextToSuite => base.join(b.get_ref()),
                    BoardSource::Copies(dir) => dir.join(board_copy_name(k, Path::new(b.get_ref()))),
                };
                match load_board(&path, catalog, rules) {
                    Ok(board) => boards.push(board),
                    Err(mut d) => bad.append(&mut d),
                }
            }
            if !bad.is_empty() {
                return Err(bad);
            }
            boards
        };
    }
    let mut drawn = Vec::new();
    if let Some(r) = &parsed.random {
        drawn = {
            let mut cards = Vec::new();
            let mut bad = Vec::new();
            for (i, c) in r.cards.iter().enumerate() {
                if let Some(id) = lookup_card(file, text, catalog, c, &format!("random.cards[{i}]"), &mut bad) {
                    cards.push(id);
                }
            }
            if !bad.is_empty() {
                return Err(bad);
            }
            if r.units[0] == 0
                || r.units[0] > r.units[1]
                || usize::from(r.units[1]) > gridsim_core::limits::MAX_UNITS_PER_SIDE
            {
                return Err(whole(
                    "random.units",
                    format!(
                        "expected [least, most] with 1 <= least <= most <= {}",
                        gridsim_core::limits::MAX_UNITS_PER_SIDE
                    ),
                ));
            }
            if r.tiers[0] == 0 || r.tiers[0] > r.tiers[1] {
                return Err(whole(
                    "random.tiers",
                    "expected [lowest, highest] with 1 <= lowest <= highest".into(),
                ));
            }
            if r.runes[0] > r.runes[1] || usize::from(r.runes[1]) > gridsim_core::limits::MAX_RUNES_PER_SIDE {
                return Err(whole(
                    "random.runes",
                    format!(
                        "expected [least, most] with least <= most <= {}",
                        gridsim_core::limits::MAX_RUNES_PER_SIDE
                    ),
                ));
            }
            for (key, percent) in [
                ("random.resonance_percent", r.resonance_percent),
                ("random.boss_percent", r.boss_percent),
                ("random.hub_percent", r.hub_percent),
            ] {
                if percent > 100 {
                    return Err(whole(key, "a percentage, 0 to 100".into()));
                }
            }
            for (key, percent, kind) in [
                (
                    "random.boss_percent",
                    r.boss_percent,
                    gridsim_model::ability::CardKind::Boss,
                ),
                (
                    "random.hub_percent",
                    r.hub_percent,
                    gridsim_model::ability::CardKind::Hub,
                ),
            ] {
                if percent > 0 && !catalog.cards.iter().any(|c| c.kind == kind) {
                    return Err(whole(key, format!("the catalog has no {} card", kind.name())));
                }
            }
            if r.runes[1] > 0 && !catalog.runes.iter().any(|x| !x.innate_only) {
                return Err(whole("random.runes", "the catalog has no rune to place".into()));
            }
            if r.resonance_percent > 0 && catalog.resonances.is_empty() {
                return Err(whole("random.resonance_percent", "the catalog has no resonance".into()));
            }
            if r.boards < 2 || r.boards > 100_000 {
                return Err(whole("random.boards", "expected 2..=100000 boards".into()));
            }
            let spec = gridsim_sim::suite::RandomBoards {
                seed: r.seed,
                boards: r.boards,
                min_units: r.units[0],
                max_units: r.units[1],
                min_tier: r.tiers[0],
                max_tier: r.tiers[1],
                budget: r.budget,
                cards,
                min_runes: r.runes[0],
                max_runes: r.runes[1],
                resonance_percent: r.resonance_percent,
                boss_percent: r.boss_percent,
                hub_percent: r.hub_percent,
                runes_use_budget: r.runes_use_budget,
            };
            let boards =
                gridsim_sim::suite::random_boards(&spec, catalog, rules).map_err(|m| whole("random", m.to_string()))?;
            draw = Some(spec);
            boards
        };
    }
    let pairing = match parsed.pairing.as_ref().map(|p| p.get_ref().as_str()) {
        None | Some("all_pairs") => Pairing::AllPairs,
        Some("random") => Pairing::Random,
        Some("gauntlet") => Pairing::Gauntlet {
            listed: listed.len() as u32,
        },
        Some(other) => {
            let span = parsed.pairing.as_ref().map(|p| p.span());
            return Err(vec![Diagnostic::at(
                file,
                text,
                span,
                "pairing",
                format!("expected `all_pairs`, `random` or `gauntlet`, found `{other}`"),
            )]);
        }
    };
    match pairing {
        Pairing::Gauntlet { .. } if parsed.random.is_none() || listed.is_empty() => {
            return Err(whole(
                "pairing",
                "a gauntlet pits `[random]` boards against the `[round_robin]` boards: give both".into(),
            ));
        }
        Pairing::Gauntlet { .. } => {}
        _ if parsed.random.is_some() && parsed.round_robin.is_some() => {
            return Err(whole(
                "",
                "a suite with both `[random]` and `[round_robin]` is a gauntlet: set `pairing = \"gauntlet\"`".into(),
            ));
        }
        _ if parsed.round_robin.is_some() && listed.len() < 2 => {
            return Err(whole(
                "round_robin.boards",
                "a round-robin needs at least two boards".into(),
            ));
        }
        _ => {}
    }
    let mut boards = listed;
    boards.extend(drawn);
    let n = boards.len() as u64;
    let matchups = n * (n - 1);
    let fights = match (parsed.fights, parsed.fights_per_matchup) {
        (Some(f), None) => f,
        (None, Some(_)) if pairing != Pairing::AllPairs => {
            return Err(whole(
                "fights_per_matchup",
                "only `all_pairs` fights each matchup a set number of times: give `fights`".into(),
            ));
        }
        (None, Some(per)) => per.saturating_mul(matchups),
        _ => {
            return Err(whole(
                "fights",
                "give exactly one of `fights` or `fights_per_matchup`".into(),
            ));
        }
    };
    if fights == 0 || fights > 10_000_000_000 {
        return Err(whole(
            "fights",
            format!("a run holds 1..=10000000000 fights, found {fights}"),
        ));
    }
    Ok(gridsim_sim::suite::Suite {
        name: parsed.name,
        master_seed: parsed.master_seed,
        boards,
        pairing,
        fights,
        draw,
    })
}

pub fn load_suite(file: &Path, catalog: &Catalog, rules: &Rules) -> Result<gridsim_sim::suite::Suite, Vec<Diagnostic>> {
    let text = read(file).map_err(|d| vec![d])?;
    parse_suite(file, &text, catalog, rules)
}
