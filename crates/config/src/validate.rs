//! Loads any mix of TOML files for `validate`: guesses each file's kind and
//! checks it with the loader for that kind.

use std::path::{Path, PathBuf};

use super::{
    CatalogBuilder, Diagnostic, parse_board, parse_rules, parse_suite, parse_toml, read, scenario, toml_files,
};
use gridsim_model::settings::Rules;

/// The catalog a deck file alone is checked against.
pub const ORIGINS_DIR: &str = "configs/riftbound/origins";

/// What one file was taken to be by [`validate_paths`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Rules,
    Cards,
    Board,
    Scenario,
    Suite,
    /// A match suite (`configs/matches/`).
    MatchSuite,
    /// Riftbound's cards and suites (`game = "riftbound"`; its scenarios
    /// are `Scenario`s).
    RiftboundCards,
    RiftboundSuite,
    /// A Riftbound deck and a game suite (whole games).
    RiftboundDeck,
    RiftboundGames,
    /// Not even TOML.
    Broken,
    Unknown,
}

/// Guesses a file's kind from its top-level keys, so `validate` checks any
/// mix of files.
pub fn file_kind(path: &Path, text: &str) -> FileKind {
    if path.file_name().is_some_and(|n| n == "rules.toml") {
        return FileKind::Rules;
    }
    let Ok(table) = text.parse::<toml::Table>() else {
        return FileKind::Broken;
    };
    if table.get("game").and_then(toml::Value::as_str) == Some("riftbound") {
        if table.contains_key("card") {
            return FileKind::RiftboundCards;
        }
        if table.contains_key("showdowns") {
            return FileKind::RiftboundSuite;
        }
        if table.contains_key("legend") {
            return FileKind::RiftboundDeck;
        }
        if table.contains_key("games") {
            return FileKind::RiftboundGames;
        }
    }
    // A board names runes and a resonance too, beside its units.
    let catalog_keys = table.contains_key("rune") || table.contains_key("resonance");
    if table.contains_key("card") || (catalog_keys && !table.contains_key("unit")) {
        FileKind::Cards
    } else if table.contains_key("pool_matches") {
        FileKind::MatchSuite
    } else if table.contains_key("step") || table.contains_key("covers") {
        FileKind::Scenario
    } else if table.contains_key("unit") && !table.contains_key("step") {
        FileKind::Board
    } else if table.contains_key("random") || table.contains_key("round_robin") {
        FileKind::Suite
    } else {
        FileKind::Unknown
    }
}

/// Checks every TOML file under `paths`. Card files are loaded first (the
/// catalog under `catalog_dirs` is added when the paths hold none), then
/// boards and scenarios against that catalog. Returns the number of files
/// checked and every problem found.
pub fn validate_paths(paths: &[PathBuf], catalog_dirs: &[PathBuf], rules: Rules) -> (usize, Vec<Diagnostic>) {
    let files = match toml_files(paths) {
        Ok(f) => f,
        Err(d) => return (0, vec![d]),
    };
    let mut bad = Vec::new();
    let mut texts = Vec::new();
    for f in &files {
        match read(f) {
            Ok(t) => texts.push((f.clone(), file_kind(f, &t), t)),
            Err(d) => bad.push(d),
        }
    }
    let mut rules = rules;
    for (f, kind, t) in &texts {
        if *kind == FileKind::Rules {
            match parse_rules(f, t) {
                Ok((r, _)) => rules = r,
                Err(mut d) => bad.append(&mut d),
            }
        }
    }
    let mut builder = CatalogBuilder::new();
    let has_cards = texts.iter().any(|(_, k, _)| *k == FileKind::Cards);
    if !has_cards {
        // Boards are checked against the default catalog; its own problems
        // are reported when it is validated itself.
        add_catalog(&mut builder, catalog_dirs);
    }
    // Scenarios run on the frozen catalog, so they are checked against it,
    // unless the paths bring cards of their own.
    let has_scenarios = texts.iter().any(|(_, k, _)| *k == FileKind::Scenario);
    let scenario_catalog = (has_scenarios && !has_cards).then(|| {
        let mut frozen = CatalogBuilder::new();
        add_catalog(&mut frozen, &[PathBuf::from(gridsim_sim::scenario::CATALOG_DIR)]);
        frozen.finish()
    });
    // Runes first, so a card may name a rune of any file.
    for (f, kind, t) in &texts {
        if *kind == FileKind::Cards
            && let Err(mut d) = builder.add_runes_file(f, t)
        {
            bad.append(&mut d);
        }
    }
    for (f, kind, t) in &texts {
        if *kind == FileKind::Cards
            && let Err(mut d) = builder.add_file(f, t)
        {
            bad.append(&mut d);
        }
    }
    let catalog = builder.finish();
    for (f, kind, t) in &texts {
        match kind {
            FileKind::Board => {
                if let Err(mut d) = parse_board(f, t, &catalog, &rules) {
                    bad.append(&mut d);
                }
            }
            FileKind::Scenario => {
                let catalog = scenario_catalog.as_ref().unwrap_or(&catalog);
                let parsed = if super::riftbound::is_riftbound_game_scenario(t) {
                    super::riftbound::parse_riftbound_game_scenario(f, t).map(|_| ())
                } else if super::riftbound::is_riftbound_scenario(t) {
                    super::riftbound::parse_riftbound_scenario(f, t).map(|_| ())
                } else if super::matches::is_match_scenario(t) {
                    super::matches::parse_match_scenario(f, t, catalog, &rules).map(|_| ())
                } else {
                    scenario::parse_scenario(f, t, catalog, &rules).map(|_| ())
                };
                if let Err(mut d) = parsed {
                    bad.append(&mut d);
                }
            }
            FileKind::MatchSuite => {
                if let Err(mut d) = super::matches::parse_match_suite(f, t, &catalog, &rules) {
                    bad.append(&mut d);
                }
            }
            FileKind::Suite => {
                if let Err(mut d) = parse_suite(f, t, &catalog, &rules) {
                    bad.append(&mut d);
                }
            }
            FileKind::Broken => {
                if let Err(mut d) = parse_toml::<toml::Table>(f, t) {
                    bad.append(&mut d);
                }
            }
            FileKind::Unknown => bad.push(Diagnostic::at(
                f,
                t,
                None,
                "",
                "not a rules, card, board, suite, match suite or scenario file: expected a top-level `card`, `rune`, `unit`, `step`, `random`, `round_robin` or `pool_matches` key",
            )),
            FileKind::RiftboundCards => {
                // Checked as the catalog loads it: after the card files of
                // its folder that come before it, whose cards it may name
                // (a token declared before the card that plays it); their
                // own problems are reported when each is validated.
                let mut catalog = gridsim_riftbound::cards::Catalog::default();
                let folder = f.parent().map(Path::to_path_buf).unwrap_or_default();
                for before in toml_files(&[folder])
                    .unwrap_or_default()
                    .iter()
                    .filter(|g| g.as_path() < f)
                {
                    if let Ok(text) = read(before)
                        && super::riftbound_catalog::is_riftbound(&text)
                    {
                        let _ = super::riftbound_catalog::add_card_file(&mut catalog, before, &text);
                    }
                }
                if let Err(mut d) = super::riftbound_catalog::add_card_file(&mut catalog, f, t) {
                    bad.append(&mut d);
                }
            }
            FileKind::RiftboundSuite => {
                // Checked against the catalog it names, whose own problems
                // are reported when it is validated itself.
                let parsed = super::riftbound_suite_catalog(f, t).and_then(|dir| {
                    let catalog = super::load_riftbound_catalog(&[dir]).unwrap_or_default();
                    super::parse_riftbound_suite(f, t, &catalog)
                });
                if let Err(mut d) = parsed {
                    bad.append(&mut d);
                }
            }
            FileKind::RiftboundDeck => {
                // Checked against the Origins catalog, whose own problems
                // are reported when it is validated itself.
                let catalog = super::load_riftbound_catalog(&[PathBuf::from(ORIGINS_DIR)]).unwrap_or_default();
                let settings = gridsim_riftbound_game::Settings::default();
                if let Err(mut d) = super::parse_deck(f, t, &catalog, &settings) {
                    bad.append(&mut d);
                }
            }
            FileKind::RiftboundGames => {
                let parsed = super::parse_game_suite(f, t).and_then(|s| {
                    let catalog = super::load_riftbound_catalog(std::slice::from_ref(&s.catalog_dir))?;
                    super::load_decks(&s.deck_paths, &catalog, &s.suite.settings).map(|_| ())
                });
                if let Err(mut d) = parsed {
                    bad.append(&mut d);
                }
            }
            FileKind::Rules | FileKind::Cards => {}
        }
    }
    // A card file is read twice (its runes, then its cards), so a problem
    // in the parse itself would be reported by each pass: each problem once.
    let mut reported: Vec<Diagnostic> = Vec::with_capacity(bad.len());
    for d in bad {
        if !reported.contains(&d) {
            reported.push(d);
        }
    }
    (texts.len(), reported)
}

/// Adds every card and rune file under `dirs` to `builder`, ignoring their
/// problems (reported when those files are validated themselves).
fn add_catalog(builder: &mut CatalogBuilder, dirs: &[PathBuf]) {
    let Ok(files) = toml_files(dirs) else {
        return;
    };
    let cards: Vec<(PathBuf, String)> = files
        .into_iter()
        .filter_map(|f| read(&f).ok().map(|t| (f, t)))
        .filter(|(f, t)| file_kind(f, t) == FileKind::Cards)
        .collect();
    for (f, t) in &cards {
        let _ = builder.add_runes_file(f, t);
    }
    for (f, t) in &cards {
        let _ = builder.add_file(f, t);
    }
}
