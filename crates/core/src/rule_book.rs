//! The rule book's ids: every lettered rule of 800, 900 and 200 (ids and
//! keyword names only, shipped with the project), the rulings of the
//! Riftbound FAQ (RB1 to RB50, with a title each), the sections the project
//! reconstructs, the rules it does not simulate, and the keywords of 800 by
//! section. Knows nothing else of the crate: the catalog, the loaders and
//! the coverage table all read it.

const RULE_IDS: &str = include_str!("rule_book/rule_ids.tsv");
/// The Riftbound rulings' ids and titles, as a table (a Riftbound run's
/// identity hashes it as a run of fights hashes its rules file).
pub const RIFTBOUND_RULINGS: &str = include_str!("rule_book/riftbound_rulings.tsv");
/// The Riftbound Core Rules numbers a whole game follows, prefixed `CR`,
/// each with a short title of ours: what game scenarios cite.
const RIFTBOUND_CORE_RULES: &str = include_str!("rule_book/riftbound_core_rules.tsv");

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
    /// A Riftbound ruling's first sentence, empty otherwise.
    pub title: String,
}

impl RuleId {
    /// `800.37c` -> `800.37`.
    pub fn base(&self) -> &str {
        self.id.trim_end_matches(|c: char| c.is_ascii_lowercase())
    }
}

/// Every lettered rule of 800, 900 and 200, in book order.
pub fn rule_ids() -> Vec<RuleId> {
    rows(RULE_IDS)
        .map(|(id, keyword)| RuleId {
            id,
            keyword,
            title: String::new(),
        })
        .collect()
}

/// The rulings of the Riftbound FAQ, RB1 to RB50 in the file's order (the
/// FAQ numbers none; docs/riftbound-reconstruction.md), each titled by its
/// first sentence.
pub fn riftbound_rulings() -> Vec<RuleId> {
    rows(RIFTBOUND_RULINGS)
        .map(|(id, title)| RuleId {
            id,
            keyword: String::new(),
            title,
        })
        .collect()
}

/// The Riftbound Core Rules numbers whole games follow (`CR443`), in the
/// book's order, each with a short title.
pub fn riftbound_core_rules() -> Vec<RuleId> {
    rows(RIFTBOUND_CORE_RULES)
        .map(|(id, title)| RuleId {
            id,
            keyword: String::new(),
            title,
        })
        .collect()
}

/// The two columns of a shipped table's rows, past its `#` comments.
fn rows(table: &'static str) -> impl Iterator<Item = (String, String)> {
    table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split('\t');
            (
                parts.next().unwrap_or_default().trim().to_string(),
                parts.next().unwrap_or_default().trim().to_string(),
            )
        })
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
