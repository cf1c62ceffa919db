//! Which scenarios cover which lettered rules, and whether they pass. The
//! list of rule ids (ids and keyword names only) ships with the project.

use std::collections::BTreeMap;

use crate::scenario::ScenarioReport;

const RULE_IDS: &str = include_str!("rule_ids.tsv");

/// Sections the rule book refers to without containing them; the project
/// reconstructs them (docs/rules-reconstruction.md), and scenarios may cite them.
pub const RECONSTRUCTED: &[&str] = &[
    "100.4", "100.5", "300.2", "300.3", "400.3", "400.4", "400.5", "400.6", "500.1", "500.3", "500.4", "500.8",
    "500.9", "700.3", "700.4",
];

/// Rules outside what gridsim simulates, with the reason
/// (docs/rules-reconstruction.md, "The match"). Shown as their own status,
/// never as a pass.
pub const OUT_OF_SCOPE: &[(&str, &str)] = &[
    (
        "200.4a",
        "party membership is server behaviour; bot parties never remove a member, so no balance figure depends on it",
    ),
    (
        "200.4b",
        "the removed player's solo fork continues the same state as a solo match; bots are never removed",
    ),
    (
        "200.4c",
        "durable writes and their rollback are server storage, not game state",
    ),
];

/// One lettered rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleId {
    pub id: String,
    /// The keyword's name for 800 rules, empty otherwise.
    pub keyword: String,
}

impl RuleId {
    /// `800.37c` -> `800.37`.
    pub fn base(&self) -> &str {
        self.id.trim_end_matches(|c: char| c.is_ascii_lowercase())
    }
}

/// Every lettered rule of 800, 900 and 200, in book order.
pub fn rule_ids() -> Vec<RuleId> {
    RULE_IDS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split('\t');
            RuleId {
                id: parts.next().unwrap_or_default().trim().to_string(),
                keyword: parts.next().unwrap_or_default().trim().to_string(),
            }
        })
        .collect()
}

/// The keywords of section 800 in order: each section number with its
/// rule-book name (`(2, "AoE")`).
pub fn keywords() -> &'static [(u32, String)] {
    static KEYWORDS: std::sync::OnceLock<Vec<(u32, String)>> = std::sync::OnceLock::new();
    KEYWORDS.get_or_init(|| {
        let mut out: Vec<(u32, String)> = Vec::new();
        for rule in rule_ids() {
            let Some(rest) = rule.id.strip_prefix("800.") else {
                continue;
            };
            let section: u32 = rest
                .trim_end_matches(|c: char| c.is_ascii_alphabetic())
                .parse()
                .unwrap_or(0);
            if out.last().is_none_or(|(s, _)| *s != section) {
                out.push((section, rule.keyword));
            }
        }
        out
    })
}

/// The section of 800 that a keyword's rule-book name heads (`"AoE"` is 2);
/// `u32::MAX` for a name that heads none.
pub fn keyword_section(name: &str) -> u32 {
    keywords().iter().find(|(_, k)| k == name).map_or(u32::MAX, |(s, _)| *s)
}

/// True for a whole ruling or keyword (`900.29`, `800.8`) or a reconstructed section.
pub fn is_section_or_ruling(id: &str) -> bool {
    RECONSTRUCTED.contains(&id) || rule_ids().iter().any(|r| r.base() == id)
}

/// A rule's coverage status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Pass,
    Fail,
    Uncovered,
    /// Not simulated, for a recorded reason ([`OUT_OF_SCOPE`]).
    OutOfScope,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Uncovered => "uncovered",
            Status::OutOfScope => "out of scope",
        }
    }
}

/// One row of the coverage table.
#[derive(Debug, Clone)]
pub struct Row {
    pub rule: RuleId,
    pub scenarios: Vec<String>,
    pub status: Status,
}

/// Builds the table from scenario results. A rule passes when every
/// scenario citing it passes.
pub fn table(reports: &[ScenarioReport]) -> Vec<Row> {
    let mut by_rule: BTreeMap<&str, Vec<&ScenarioReport>> = BTreeMap::new();
    for r in reports {
        for id in &r.covers {
            by_rule.entry(id.as_str()).or_default().push(r);
        }
    }
    rule_ids()
        .into_iter()
        .map(|rule| {
            let cited = by_rule.get(rule.id.as_str()).cloned().unwrap_or_default();
            let status = if cited.is_empty() && OUT_OF_SCOPE.iter().any(|(id, _)| *id == rule.id) {
                Status::OutOfScope
            } else if cited.is_empty() {
                Status::Uncovered
            } else if cited.iter().all(|r| r.passed()) {
                Status::Pass
            } else {
                Status::Fail
            };
            let mut scenarios: Vec<String> = cited.iter().map(|r| scenario_label(r)).collect();
            if let Some((_, why)) = OUT_OF_SCOPE.iter().find(|(id, _)| *id == rule.id) {
                scenarios.push(format!("out of scope: {why}"));
            }
            scenarios.sort();
            scenarios.dedup();
            Row {
                rule,
                scenarios,
                status,
            }
        })
        .collect()
}

/// A scenario's file stem, the name used in tables.
pub fn scenario_label(r: &ScenarioReport) -> String {
    r.file
        .file_stem()
        .map_or_else(|| r.name.clone(), |s| s.to_string_lossy().into_owned())
}

/// The coverage table as Markdown, with a summary per section.
pub fn markdown(rows: &[Row]) -> String {
    let mut out = String::from(
        "# Conformance coverage\n\nGenerated by `gridsim coverage --markdown`; do not edit by hand.\n\
         Each lettered rule of 800, 900 and 200 with the scenarios under `tests/conformance/` that cite it.\n\n",
    );
    for section in ["800", "900", "200"] {
        let in_section: Vec<&Row> = rows.iter().filter(|r| r.rule.id.starts_with(section)).collect();
        let count = |s: Status| in_section.iter().filter(|r| r.status == s).count();
        out += &format!(
            "- {section}: {} rules, {} pass, {} fail, {} uncovered{}\n",
            in_section.len(),
            count(Status::Pass),
            count(Status::Fail),
            count(Status::Uncovered),
            match count(Status::OutOfScope) {
                0 => String::new(),
                n => format!(", {n} out of scope"),
            }
        );
    }
    out += "\n| rule | keyword | status | scenarios |\n|---|---|---|---|\n";
    for r in rows {
        out += &format!(
            "| {} | {} | {} | {} |\n",
            r.rule.id,
            r.rule.keyword,
            r.status.name(),
            r.scenarios.join(", ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_list_matches_the_rule_book_counts() {
        // The rules README: 379 lettered rules in 800, 215 in 900; 200 has 20.
        let ids = rule_ids();
        assert_eq!(ids.iter().filter(|r| r.id.starts_with("800.")).count(), 379);
        assert_eq!(ids.iter().filter(|r| r.id.starts_with("900.")).count(), 215);
        assert_eq!(ids.iter().filter(|r| r.id.starts_with("200.")).count(), 20);
        let keywords: std::collections::BTreeSet<&str> = ids
            .iter()
            .filter(|r| r.id.starts_with("800."))
            .map(|r| r.keyword.as_str())
            .collect();
        assert_eq!(keywords.len(), 73, "73 keywords");
    }
}
