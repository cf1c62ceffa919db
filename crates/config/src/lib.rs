//! The only module that knows TOML: reads rules, cards, boards and scenarios,
//! checks them strictly, and lowers them into the catalog and fight specs.
//!
//! Nothing here panics on bad input: every problem becomes a [`Diagnostic`]
//! naming the file, line, column and key.
//!
//! One file per thing loaded: `rules.rs` the rules file, `cards.rs` card files
//! and their lowering into the catalog, `boards.rs` board files, `suites.rs`
//! suites, `scenario.rs` conformance scenarios, and `validate.rs` a check of
//! any mix of them. `schema.rs` holds the serde shapes of card and board files,
//! `json_schema.rs` the editors' JSON Schemas derived from those shapes;
//! `riftbound_catalog.rs` Riftbound cards and showdown suites,
//! `riftbound_games.rs` Riftbound decks and game suites; the
//! errors are [`gridsim_core::diagnostics`]'s. This file keeps what they share: the TOML
//! parse with its key paths, file reading and the walk over folders.

mod boards;
mod cards;
pub mod json_schema;
mod matches;
mod riftbound;
pub mod riftbound_catalog;
pub mod riftbound_games;
mod rules;
pub mod scenario;
pub mod schema;
mod suites;
mod validate;

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

pub use boards::{load_board, parse_board};
pub use cards::{CatalogBuilder, Source, load_catalog};
pub use gridsim_core::diagnostics::Diagnostic;
pub use matches::{is_match_scenario, load_match_suite, parse_match_scenario, parse_match_suite};
pub use riftbound::{
    DECKS_DIR, is_riftbound_game_scenario, is_riftbound_scenario, parse_riftbound_game_scenario,
    parse_riftbound_scenario,
};
pub use riftbound_catalog::{is_riftbound, load_riftbound_catalog, parse_riftbound_suite, riftbound_suite_catalog};
pub use riftbound_games::{
    GameSuiteSource, is_riftbound_deck, is_riftbound_games, load_decks, parse_deck, parse_game_suite,
};
pub use rules::{DEFAULT_RULES_TOML, default_rules, load_rules, parse_rules};
pub use suites::{BoardSource, board_copy_name, load_suite, parse_suite, parse_suite_from, suite_board_files};
pub use validate::{FileKind, file_kind, validate_paths};

/// Which rule ids a scenario kind may cite in `covers`, and how it names
/// them in an error.
pub(crate) struct Citable<'a> {
    /// The ids offered as suggestions.
    pub ids: &'a [&'a str],
    /// Whether an id may be cited (beyond `ids`: a whole ruling, a
    /// reconstructed section).
    pub accepts: &'a dyn Fn(&str) -> bool,
    /// The error's message when none is named.
    pub none: &'a str,
    /// What the ids are, as in "`X` is not {what}".
    pub what: &'a str,
}

/// A scenario's `covers`: at least one id, each one `citable` accepts,
/// every error with its key and the ids nearest.
pub(crate) fn check_covers(
    file: &Path,
    text: &str,
    covers: &toml::Spanned<Vec<String>>,
    citable: &Citable,
    bad: &mut Vec<Diagnostic>,
) {
    if covers.get_ref().is_empty() {
        bad.push(Diagnostic::at(file, text, Some(covers.span()), "covers", citable.none));
    }
    for (i, id) in covers.get_ref().iter().enumerate() {
        if !(citable.accepts)(id) {
            bad.push(Diagnostic::at(
                file,
                text,
                Some(covers.span()),
                format!("covers[{i}]"),
                format!(
                    "`{id}` is not {}{}",
                    citable.what,
                    gridsim_core::diagnostics::suggestion(id, citable.ids)
                ),
            ));
        }
    }
}

/// Gridforged's citable ids: the lettered rules of 800, 900 and 200, whole
/// rulings and keywords, and the reconstructed sections.
pub(crate) fn check_gridforged_covers(
    file: &Path,
    text: &str,
    covers: &toml::Spanned<Vec<String>>,
    bad: &mut Vec<Diagnostic>,
) {
    let known = gridsim_core::rule_book::rule_ids();
    let ids: Vec<&str> = known.iter().map(|r| r.id.as_str()).collect();
    let accepts = |id: &str| ids.contains(&id) || gridsim_core::rule_book::is_section_or_ruling(id);
    let citable = Citable {
        ids: &ids,
        accepts: &accepts,
        none: "name at least one rule letter this scenario checks",
        what: "a rule of 800, 900 or 200",
    };
    check_covers(file, text, covers, &citable, bad);
}

/// Parses `text` as `T`, turning every error it can find into a diagnostic
/// with the key path. Serde stops at a file's first error; to find the
/// next, the lines of the entry it names are commented out (bytes kept, so
/// every later position still points into the file as written) and the
/// file is read again, up to [`MAX_ERRORS_PER_FILE`] times. A key the
/// parser then misses because its line was commented out is not reported
/// again. A syntax error ends the search: TOML after it cannot be read.
pub fn parse_toml<T: DeserializeOwned>(file: &Path, text: &str) -> Result<T, Vec<Diagnostic>> {
    let mut bad: Vec<Diagnostic> = Vec::new();
    let mut edited = text.to_string();
    // The keys of the lines commented out so far.
    let mut removed: Vec<String> = Vec::new();
    for _ in 0..MAX_ERRORS_PER_FILE {
        match parse_once::<T>(&edited) {
            Ok(parsed) if bad.is_empty() => return Ok(parsed),
            Ok(_) => return Err(bad),
            Err(ParseError::Syntax { span, message }) => {
                if bad.is_empty() {
                    bad.push(Diagnostic::at(file, text, span, "", message));
                }
                return Err(bad);
            }
            Err(ParseError::Value { span, key, message }) => {
                let artefact = message
                    .strip_prefix("missing field `")
                    .and_then(|m| m.split('`').next())
                    .is_some_and(|field| removed.iter().any(|k| k == field));
                let Some(span) = span else {
                    if !artefact {
                        bad.push(Diagnostic::at(file, text, None, key, message));
                    }
                    return Err(bad);
                };
                if !artefact {
                    bad.push(Diagnostic::at(file, text, Some(span.clone()), key, message));
                }
                if !comment_out_lines(&mut edited, span, &mut removed) {
                    return Err(bad);
                }
            }
        }
    }
    Err(bad)
}

/// How many errors one file reports at most: past this many, the rest are
/// likely the same mistake repeated.
pub const MAX_ERRORS_PER_FILE: usize = 64;

enum ParseError {
    /// The TOML itself cannot be read.
    Syntax {
        span: Option<std::ops::Range<usize>>,
        message: String,
    },
    /// The TOML reads, but a key or value is not what the file takes.
    Value {
        span: Option<std::ops::Range<usize>>,
        key: String,
        message: String,
    },
}

fn parse_once<T: DeserializeOwned>(text: &str) -> Result<T, ParseError> {
    let de = toml::de::Deserializer::parse(text).map_err(|e| ParseError::Syntax {
        span: e.span(),
        message: e.message().trim().to_string(),
    })?;
    serde_path_to_error::deserialize(de).map_err(|e| {
        // `Spanned` values add a private segment to the path; drop it.
        let path = e.path().to_string();
        let key = if path == "." {
            String::new()
        } else {
            path.split('.')
                .filter(|seg| !seg.starts_with("$__"))
                .collect::<Vec<_>>()
                .join(".")
                .replace(".[", "[")
        };
        let inner = e.into_inner();
        ParseError::Value {
            span: inner.span(),
            key,
            message: gridsim_core::diagnostics::enrich_serde_message(inner.message().trim()),
        }
    })
}

/// A `[table]` or `[[array.of.tables]]` header line.
fn is_table_header(line: &str) -> bool {
    let line = line.split('#').next().unwrap_or("").trim();
    let inner = line
        .strip_prefix("[[")
        .and_then(|l| l.strip_suffix("]]"))
        .or_else(|| line.strip_prefix('[').and_then(|l| l.strip_suffix(']')));
    inner.is_some_and(|name| {
        !name.trim().is_empty()
            && name
                .trim()
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '"' | ' '))
            && name
                .trim()
                .starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '"')
    })
}

/// Comments out every line `span` touches, keeping each byte's position
/// (a `#` and spaces of the same length), and notes the keys those lines
/// held. False when nothing changed (the lines were out already), so the
/// search cannot go round.
fn comment_out_lines(text: &mut String, span: std::ops::Range<usize>, removed: &mut Vec<String>) -> bool {
    let start = text[..span.start.min(text.len())].rfind('\n').map_or(0, |at| at + 1);
    let mut end = text[span.end.min(text.len())..]
        .find('\n')
        .map_or(text.len(), |at| span.end.min(text.len()) + at);
    // A table's span is its header alone: take its keys with it, up to the
    // next header, or they would fall into the table before it.
    if text[start..end].lines().any(is_table_header) {
        let mut at = end;
        while at < text.len() {
            let next = text[at + 1..].find('\n').map_or(text.len(), |n| at + 1 + n);
            if is_table_header(&text[at + 1..next]) {
                break;
            }
            at = next;
        }
        end = at;
    }
    let lines = &text[start..end];
    if lines
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
    {
        return false;
    }
    for line in lines.lines() {
        let entry = line.trim_start().trim_start_matches(['{', '[', ',']).trim_start();
        if let Some((key, _)) = entry.split_once('=') {
            removed.push(key.trim().trim_matches('"').to_string());
        }
    }
    let blanked: String = lines
        .split('\n')
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                let mut out = String::from("#");
                out.extend(std::iter::repeat_n(' ', l.len() - 1));
                out
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    text.replace_range(start..end, &blanked);
    true
}

fn read(file: &Path) -> Result<String, Diagnostic> {
    std::fs::read_to_string(file).map_err(|e| Diagnostic::whole_file(file, format!("cannot read file: {e}")))
}

/// Collects the `.toml` files under each path (a file is taken as is),
/// sorted so that loading order never depends on the file system.
pub fn toml_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Diagnostic> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(Diagnostic::whole_file(p, "no such file or directory"));
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), Diagnostic> {
    let entries = std::fs::read_dir(dir).map_err(|e| Diagnostic::whole_file(dir, format!("cannot list: {e}")))?;
    for entry in entries {
        let path = entry
            .map_err(|e| Diagnostic::whole_file(dir, format!("cannot list: {e}")))?
            .path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
    Ok(())
}
