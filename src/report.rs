//! The balance report: win rates per card, card and tier, rune and keyword
//! with Wilson 95% intervals; keyword pairs with their lift; keyword against
//! keyword; outliers; and changes since a baseline run. Built from the
//! run's tallies and its boards, written as HTML (charts as inline SVG),
//! Markdown and JSON.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::analysis::Tallies;
use crate::sink::BoardRow;

/// Report settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReportSettings {
    /// Rows with fewer fights are greyed and not ranked.
    pub min_sample: u64,
    /// The band a win rate's whole interval must leave to be an outlier.
    pub band_low: f64,
    pub band_high: f64,
}

impl Default for ReportSettings {
    fn default() -> Self {
        ReportSettings {
            min_sample: 200,
            band_low: 0.45,
            band_high: 0.55,
        }
    }
}

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Wilson score interval for `wins` out of `n` at 95%.
pub fn wilson(wins: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = wins as f64 / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// One row of a win-rate table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RateRow {
    pub key: String,
    pub fights: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Wins over fights; a draw counts as no win.
    pub win_rate: f64,
    pub draw_rate: f64,
    pub low: f64,
    pub high: f64,
    /// At least the minimum sample: ranked and eligible as an outlier.
    pub ranked: bool,
    pub outlier: bool,
    /// Filled when a baseline is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<Change>,
}

/// A figure against the baseline run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    pub baseline_win_rate: f64,
    pub baseline_fights: u64,
    pub delta: f64,
    /// 1.96 x the combined standard error of the two rates.
    pub combined_uncertainty: f64,
    pub significant: bool,
}

#[derive(Debug, Clone, Copy, Default)]
struct Acc {
    n: u64,
    wins: u64,
    draws: u64,
}

impl Acc {
    fn add(&mut self, n: u64, wins: u64, draws: u64) {
        self.n += n;
        self.wins += wins;
        self.draws += draws;
    }
}

fn rows(map: BTreeMap<String, Acc>, s: &ReportSettings) -> Vec<RateRow> {
    let mut out: Vec<RateRow> = map
        .into_iter()
        .map(|(key, a)| {
            let (low, high) = wilson(a.wins, a.n);
            let ranked = a.n >= s.min_sample;
            let rate = |x: u64| if a.n == 0 { 0.0 } else { x as f64 / a.n as f64 };
            RateRow {
                key,
                fights: a.n,
                wins: a.wins,
                draws: a.draws,
                losses: a.n - a.wins - a.draws,
                win_rate: rate(a.wins),
                draw_rate: rate(a.draws),
                low,
                high,
                ranked,
                outlier: ranked && (high < s.band_low || low > s.band_high),
                change: None,
            }
        })
        .collect();
    // Ranked rows by win rate, highest first; the rest after, by name.
    out.sort_by(|a, b| {
        b.ranked
            .cmp(&a.ranked)
            .then(if a.ranked {
                b.win_rate.total_cmp(&a.win_rate)
            } else {
                std::cmp::Ordering::Equal
            })
            .then(a.key.cmp(&b.key))
    });
    out
}

/// A keyword pair on one side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairRow {
    pub a: String,
    pub b: String,
    pub fights: u64,
    pub wins: u64,
    pub draws: u64,
    pub win_rate: f64,
    pub low: f64,
    pub high: f64,
    /// The pair's win rate less what the two give apart, each measured as
    /// its distance from 50%: `p(ab) - p(a) - p(b) + 0.5`.
    pub lift: f64,
    pub ranked: bool,
}

/// Keyword `a` on one side against keyword `b` on the other.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VersusCell {
    pub a: String,
    pub b: String,
    pub fights: u64,
    pub wins: u64,
    pub draws: u64,
    pub win_rate: f64,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub runs: Vec<String>,
    pub baseline: Option<String>,
    pub fights: u64,
    pub boards: u64,
    pub min_sample: u64,
    pub band: [f64; 2],
    pub cards: Vec<RateRow>,
    pub card_tiers: Vec<RateRow>,
    pub runes: Vec<RateRow>,
    pub keywords: Vec<RateRow>,
    pub keyword_pairs: Vec<PairRow>,
    pub keyword_versus: Vec<VersusCell>,
    /// `section: key` of every outlier, listed first in the page.
    pub outliers: Vec<String>,
    /// `section: key` of every significant change since the baseline.
    pub significant_changes: Vec<String>,
}

/// Builds the report's figures from tallies and the boards table.
pub fn build(runs: Vec<String>, tallies: &Tallies, boards: &[BoardRow], s: &ReportSettings) -> Report {
    let by_id: BTreeMap<u32, &BoardRow> = boards.iter().map(|b| (b.board_id, b)).collect();
    let mut cards: BTreeMap<String, Acc> = BTreeMap::new();
    let mut tiers: BTreeMap<String, Acc> = BTreeMap::new();
    let mut runes: BTreeMap<String, Acc> = BTreeMap::new();
    let mut keywords: BTreeMap<String, Acc> = BTreeMap::new();
    let mut pairs: BTreeMap<(String, String), Acc> = BTreeMap::new();
    for t in &tallies.boards {
        let Some(b) = by_id.get(&t.board_id) else { continue };
        // A board counts once per card, card and tier, or rune it holds,
        // however many copies it holds.
        let tiered: Vec<String> = b.cards.iter().zip(&b.tiers).map(|(c, t)| format!("{c} t{t}")).collect();
        for (map, keys) in [(&mut cards, &b.cards), (&mut tiers, &tiered), (&mut runes, &b.runes)] {
            let mut unique: Vec<&String> = keys.iter().collect();
            unique.sort();
            unique.dedup();
            for k in unique {
                map.entry(k.clone()).or_default().add(t.fights, t.wins, t.draws);
            }
        }
        for (i, k) in b.keywords.iter().enumerate() {
            keywords.entry(k.clone()).or_default().add(t.fights, t.wins, t.draws);
            for k2 in &b.keywords[i + 1..] {
                pairs
                    .entry((k.clone(), k2.clone()))
                    .or_default()
                    .add(t.fights, t.wins, t.draws);
            }
        }
    }
    let keyword_rows = rows(keywords, s);
    let single: BTreeMap<&str, f64> = keyword_rows.iter().map(|r| (r.key.as_str(), r.win_rate)).collect();
    let mut keyword_pairs: Vec<PairRow> = pairs
        .into_iter()
        .map(|((a, b), acc)| {
            let rate = if acc.n == 0 {
                0.0
            } else {
                acc.wins as f64 / acc.n as f64
            };
            let (low, high) = wilson(acc.wins, acc.n);
            let lift =
                rate - single.get(a.as_str()).copied().unwrap_or(0.5) - single.get(b.as_str()).copied().unwrap_or(0.5)
                    + 0.5;
            PairRow {
                a,
                b,
                fights: acc.n,
                wins: acc.wins,
                draws: acc.draws,
                win_rate: rate,
                low,
                high,
                lift,
                ranked: acc.n >= s.min_sample,
            }
        })
        .collect();
    keyword_pairs.sort_by(|x, y| {
        y.ranked
            .cmp(&x.ranked)
            .then(y.lift.total_cmp(&x.lift))
            .then(x.a.cmp(&y.a))
            .then(x.b.cmp(&y.b))
    });

    // Keyword against keyword, from both sides of every matchup: counted in
    // a grid indexed by keyword (numbered in name order), since a suite of
    // 120 boards has 14,400 matchups, each adding to a hundred cells or so.
    let names: Vec<&String> = {
        let mut all: Vec<&String> = boards.iter().flat_map(|b| &b.keywords).collect();
        all.sort();
        all.dedup();
        all
    };
    let index: BTreeMap<&String, usize> = names.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    let board_keywords: BTreeMap<u32, Vec<usize>> = boards
        .iter()
        .map(|b| (b.board_id, b.keywords.iter().map(|k| index[k]).collect()))
        .collect();
    let k = names.len();
    let mut versus: Vec<Option<Acc>> = vec![None; k * k];
    for m in &tallies.matchups {
        let (Some(l), Some(r)) = (board_keywords.get(&m.left), board_keywords.get(&m.right)) else {
            continue;
        };
        for (mine, theirs, wins) in [(l, r, m.left_wins), (r, l, m.right_wins)] {
            for &a in mine {
                for &b in theirs {
                    versus[a * k + b].get_or_insert_default().add(m.fights, wins, m.draws);
                }
            }
        }
    }
    let keyword_versus = versus
        .into_iter()
        .enumerate()
        .filter_map(|(cell, acc)| acc.map(|acc| (cell, acc)))
        .map(|(cell, acc)| VersusCell {
            a: names[cell / k].clone(),
            b: names[cell % k].clone(),
            fights: acc.n,
            wins: acc.wins,
            draws: acc.draws,
            win_rate: if acc.n == 0 {
                0.0
            } else {
                acc.wins as f64 / acc.n as f64
            },
        })
        .collect();

    let mut report = Report {
        runs,
        baseline: None,
        fights: tallies.fights,
        boards: boards.len() as u64,
        min_sample: s.min_sample,
        band: [s.band_low, s.band_high],
        cards: rows(cards, s),
        card_tiers: rows(tiers, s),
        runes: rows(runes, s),
        keywords: keyword_rows,
        keyword_pairs,
        keyword_versus,
        outliers: Vec::new(),
        significant_changes: Vec::new(),
    };
    report.outliers = sections(&report)
        .into_iter()
        .flat_map(|(name, rows)| {
            rows.iter()
                .filter(|r| r.outlier)
                .map(move |r| format!("{name}: {}", r.key))
        })
        .collect();
    report
}

fn sections(r: &Report) -> Vec<(&'static str, &Vec<RateRow>)> {
    vec![
        ("card", &r.cards),
        ("card and tier", &r.card_tiers),
        ("rune", &r.runes),
        ("keyword", &r.keywords),
    ]
}

/// Compares every figure with the baseline report's: the change in win
/// rate and whether it exceeds the combined 95% uncertainty of the two.
pub fn compare(report: &mut Report, baseline: &Report, baseline_name: String) {
    fn mark(name: &str, rows: &mut [RateRow], base: &[RateRow], significant: &mut Vec<String>) {
        for row in rows.iter_mut() {
            let Some(b) = base.iter().find(|b| b.key == row.key) else {
                continue;
            };
            let var = |p: f64, n: u64| if n == 0 { 0.25 } else { p * (1.0 - p) / n as f64 };
            let combined = Z95 * (var(row.win_rate, row.fights) + var(b.win_rate, b.fights)).sqrt();
            let delta = row.win_rate - b.win_rate;
            let is_significant = delta.abs() > combined;
            if is_significant {
                significant.push(format!("{name}: {}", row.key));
            }
            row.change = Some(Change {
                baseline_win_rate: b.win_rate,
                baseline_fights: b.fights,
                delta,
                combined_uncertainty: combined,
                significant: is_significant,
            });
        }
    }
    let mut significant = Vec::new();
    mark("card", &mut report.cards, &baseline.cards, &mut significant);
    mark(
        "card and tier",
        &mut report.card_tiers,
        &baseline.card_tiers,
        &mut significant,
    );
    mark("rune", &mut report.runes, &baseline.runes, &mut significant);
    mark("keyword", &mut report.keywords, &baseline.keywords, &mut significant);
    report.significant_changes = significant;
    report.baseline = Some(baseline_name);
}

/// Builds the report of run directories already verified and checked to
/// be one run (see [`crate::runs::report_of`]).
pub fn from_verified_runs(
    manifests: &[(std::path::PathBuf, crate::dataset::Manifest)],
    s: &ReportSettings,
) -> Result<Report, String> {
    let (first_dir, first) = manifests.first().ok_or("name at least one run directory")?;
    let mut fight_files = Vec::new();
    let mut seen_parts = std::collections::BTreeSet::new();
    for (d, m) in manifests {
        for p in &m.parts {
            if !seen_parts.insert(p.index) {
                return Err(format!(
                    "{}: part {} is also in another run directory given",
                    d.display(),
                    p.index
                ));
            }
            fight_files.push(d.join(&p.fights_file.path));
        }
    }
    let boards_entry = first
        .boards_file
        .as_ref()
        .ok_or_else(|| format!("{}: the run has no boards table", first_dir.display()))?;
    let boards = crate::sink::read_boards(&first_dir.join(&boards_entry.path))?;
    let tallies = crate::analysis::tally(&fight_files)?;
    let names = manifests
        .iter()
        .map(|(d, _)| {
            d.file_name()
                .map_or_else(|| d.display().to_string(), |n| n.to_string_lossy().into_owned())
        })
        .collect();
    Ok(build(names, &tallies, &boards, s))
}

/// The report's directory name: the run's name without a shard suffix.
pub fn report_name(run_dir: &std::path::Path) -> String {
    let name = run_dir
        .file_name()
        .map_or_else(|| "run".to_string(), |n| n.to_string_lossy().into_owned());
    match name.rfind("-shard") {
        Some(i) => name[..i].to_string(),
        None => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_intervals() {
        // 50 of 100: 40.4% to 59.6%.
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3, "{lo} {hi}");
        // 0 of 10 stays inside [0, 1] and is not degenerate.
        let (lo, hi) = wilson(0, 10);
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 1e-3, "{lo} {hi}");
    }

    fn tallies() -> (Tallies, Vec<BoardRow>) {
        use crate::analysis::{BoardTally, MatchupTally};
        let board = |id: u32, cards: &[&str], keywords: &[&str]| BoardRow {
            board_id: id,
            name: format!("b{id}"),
            cards: cards.iter().map(|s| s.to_string()).collect(),
            tiers: vec![1; cards.len()],
            runes: Vec::new(),
            keywords: keywords.iter().map(|s| s.to_string()).collect(),
        };
        let boards = vec![
            board(0, &["crab", "fox"], &["burn", "maim"]),
            board(1, &["fox"], &["burn"]),
        ];
        let t = Tallies {
            fights: 1000,
            boards: vec![
                BoardTally {
                    board_id: 0,
                    fights: 1000,
                    wins: 800,
                    draws: 50,
                },
                BoardTally {
                    board_id: 1,
                    fights: 1000,
                    wins: 150,
                    draws: 50,
                },
            ],
            matchups: vec![
                MatchupTally {
                    left: 0,
                    right: 1,
                    fights: 500,
                    left_wins: 400,
                    right_wins: 75,
                    draws: 25,
                },
                MatchupTally {
                    left: 1,
                    right: 0,
                    fights: 500,
                    left_wins: 75,
                    right_wins: 400,
                    draws: 25,
                },
            ],
        };
        (t, boards)
    }

    #[test]
    fn figures_add_up_per_card_keyword_and_pair() {
        let (t, boards) = tallies();
        let r = build(vec!["run".into()], &t, &boards, &ReportSettings::default());
        let crab = r.cards.iter().find(|c| c.key == "crab").expect("crab");
        assert_eq!((crab.fights, crab.wins, crab.draws, crab.losses), (1000, 800, 50, 150));
        let fox = r.cards.iter().find(|c| c.key == "fox").expect("fox");
        assert_eq!((fox.fights, fox.wins), (2000, 950), "fox is on both boards");
        // Crab's interval lies wholly above 55%: an outlier, listed.
        assert!(crab.outlier && r.outliers.contains(&"card: crab".to_string()));
        let burn = r.keywords.iter().find(|k| k.key == "burn").expect("burn");
        assert_eq!(burn.fights, 2000);
        let pair = &r.keyword_pairs[0];
        assert_eq!((pair.a.as_str(), pair.b.as_str(), pair.fights), ("burn", "maim", 1000));
        // lift = p(ab) - p(a) - p(b) + 0.5 = 0.8 - 0.475 - 0.8 + 0.5.
        assert!((pair.lift - 0.025).abs() < 1e-9, "{}", pair.lift);
        let maim_vs_burn = r
            .keyword_versus
            .iter()
            .find(|c| c.a == "maim" && c.b == "burn")
            .expect("cell");
        assert_eq!((maim_vs_burn.fights, maim_vs_burn.wins), (1000, 800));
    }

    #[test]
    fn changes_beyond_noise_are_flagged() {
        let (t, boards) = tallies();
        let s = ReportSettings::default();
        let base = build(vec!["base".into()], &t, &boards, &s);
        let (mut t2, _) = tallies();
        t2.boards[0].wins = 500;
        let mut now = build(vec!["now".into()], &t2, &boards, &s);
        compare(&mut now, &base, "base".into());
        let crab = now.cards.iter().find(|c| c.key == "crab").expect("crab");
        let change = crab.change.as_ref().expect("compared");
        assert!((change.delta + 0.3).abs() < 1e-9 && change.significant);
        assert!(now.significant_changes.contains(&"card: crab".to_string()));
        let same = build(vec!["again".into()], &t, &boards, &s);
        let mut same = same;
        compare(&mut same, &base, "base".into());
        assert!(same.significant_changes.is_empty());
    }
}
