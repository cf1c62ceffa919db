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
//! `json_schema.rs` the editors' JSON Schemas derived from those shapes; the
//! errors are [`gridsim_core::diagnostics`]'s. This file keeps what they share: the TOML
//! parse with its key paths, file reading and the walk over folders.

mod boards;
mod cards;
pub mod json_schema;
mod matches;
mod riftbound;
pub mod riftbound_catalog;
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
pub use riftbound::{is_riftbound_scenario, parse_riftbound_scenario};
pub use riftbound_catalog::{is_riftbound, load_riftbound_catalog, parse_riftbound_suite, riftbound_suite_catalog};
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

/// Parses `text` as `T`, turning any error into a diagnostic with the key path.
pub fn parse_toml<T: DeserializeOwned>(file: &Path, text: &str) -> Result<T, Diagnostic> {
    let de = toml::de::Deserializer::parse(text)
        .map_err(|e| Diagnostic::at(file, text, e.span(), "", e.message().trim().to_string()))?;
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
        Diagnostic::at(
            file,
            text,
            inner.span(),
            key,
            gridsim_core::diagnostics::enrich_serde_message(inner.message().trim()),
        )
    })
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
