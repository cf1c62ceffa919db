//! Loads the rules file (`configs/rules.toml`): its settings, each with the
//! rule number it cites, checked and turned into [`Rules`].

use std::path::Path;

use super::{Diagnostic, parse_toml, read};
use gridsim_model::settings::{Rules, file::RulesFile};
use gridsim_model::statuses::TimedStatus;

/// The rules file shipped with the project, used when no other is named.
pub const DEFAULT_RULES_TOML: &str = include_str!("../../../configs/rules.toml");

/// Parses and checks a rules file.
pub fn parse_rules(file: &Path, text: &str) -> Result<(Rules, RulesFile), Vec<Diagnostic>> {
    let parsed: RulesFile = parse_toml(file, text)?;
    let rules = Rules::from_file(&parsed);
    let mut bad = Vec::new();
    for (key, _, rule) in Rules::citations(&parsed) {
        if !is_rule_id(&rule) {
            let key = format!("{key}.rule");
            bad.push(Diagnostic::at(
                file,
                text,
                setting_span(text, &key),
                key,
                format!("`{rule}` is not a rule number such as `800.8b` or `300.2`"),
            ));
        }
    }
    // Every stacking timed status's time and reapplication, from its row
    // in the statuses' list.
    let timed = TimedStatus::settings(&rules)
        .into_iter()
        .filter(|(_, v)| *v <= 0)
        .map(|(key, v)| (key, format!("must be greater than 0, found {v}")));
    for (key, problem) in timed.chain(rules.check()) {
        let key = format!("{key}.value");
        bad.push(Diagnostic::at(file, text, setting_span(text, &key), key, problem));
    }
    if bad.is_empty() { Ok((rules, parsed)) } else { Err(bad) }
}

/// The byte span of a dotted key's value in a TOML text (such as
/// `board.columns.value`), so a diagnostic about a setting names its line.
fn setting_span(text: &str, key: &str) -> Option<std::ops::Range<usize>> {
    let root = toml::de::DeTable::parse(text).ok()?;
    let mut table: &toml::de::DeTable = root.get_ref();
    let mut span = None;
    for part in key.split('.') {
        let value = table.iter().find(|(k, _)| &**k.get_ref() == part).map(|(_, v)| v)?;
        span = Some(value.span());
        if let toml::de::DeValue::Table(t) = value.get_ref() {
            table = t;
        }
    }
    span
}

fn is_rule_id(text: &str) -> bool {
    let Some((section, rest)) = text.split_once('.') else {
        return false;
    };
    let digits = rest.trim_end_matches(|c: char| c.is_ascii_lowercase());
    section.len() == 3
        && section.chars().all(|c| c.is_ascii_digit())
        && !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
        && rest.len() - digits.len() <= 1
}

/// The shipped rules.
pub fn default_rules() -> Rules {
    match parse_rules(Path::new("configs/rules.toml"), DEFAULT_RULES_TOML) {
        Ok((rules, _)) => rules,
        Err(d) => unreachable!("the shipped rules.toml is checked by tests: {d:?}"),
    }
}

pub fn load_rules(file: &Path) -> Result<Rules, Vec<Diagnostic>> {
    let text = read(file).map_err(|d| vec![d])?;
    parse_rules(file, &text).map(|(r, _)| r)
}
