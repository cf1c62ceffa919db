//! A report against a baseline: paired where the runs fought the same
//! pairs, independent otherwise, and the opening paragraph in words.

use crate::Error;
use std::collections::BTreeMap;

use super::holdings::Holdings;
use super::{Change, Outlier, RATE_SECTIONS, RateRow, Report, ReportSettings, Z95, finite, rate_rows, sections_mut};
use crate::analysis::Tallies;
use crate::dyadic::{Dyad, Ratio};
use crate::stats;
use gridsim_data::board_table::BoardTable;

/// What a report is compared with.
pub enum Against<'a> {
    /// A run that fought the same pairs of the same boards as this one, as
    /// a night does with the night before or a tuning change with the run
    /// before it: `now` and `base` are the two runs' tallies, `boards` the
    /// boards table they share. Each row's change is the per-fight
    /// difference of its holders' wins, whose noise the two runs share is
    /// taken out, with its two-way clustered standard error.
    Paired {
        now: &'a Tallies,
        base: &'a Tallies,
        boards: &'a BoardTable,
        /// Why the runs are paired, said on the page.
        why: String,
    },
    /// Any other run: its rate tables (in the order of
    /// [`RATE_SECTIONS`]), compared as an independent sample
    /// (`sqrt(se² + se_baseline²)`).
    Independent { rates: [&'a Vec<RateRow>; 5], why: String },
}

/// Each rate row's paired change: the difference of its holders' wins,
/// per fight, between two runs of the same pairs. Fails, saying why, when
/// a pair fought a different number of times in the two runs (then they
/// are not paired).
pub fn paired_changes(
    now: &Tallies,
    base: &Tallies,
    boards: &BoardTable,
) -> Result<[BTreeMap<String, Ratio>; 5], Error> {
    if now.pairs.bounds() != base.pairs.bounds() || now.fights != base.fights {
        return Err(Error::NotComparable(format!(
            "the runs hold {} and {} fights",
            now.fights, base.fights
        )));
    }
    let holdings = Holdings::new(now, boards);
    let (found, _) = holdings.estimates(|add| {
        for i in 0..now.pairs.count() {
            let (a, b) = (now.pairs.block(i)?, base.pairs.block(i)?);
            if a.pairs.len() != b.pairs.len() {
                return Err(Error::NotComparable(format!(
                    "the runs fought {} and {} distinct pairs of boards with a board among ids {}..{}",
                    a.pairs.len(),
                    b.pairs.len(),
                    a.ids.start,
                    a.ids.end
                )));
            }
            if let Some((m, _)) = a
                .pairs
                .iter()
                .zip(b.pairs.iter())
                .find(|(m, o)| (m.left, m.right, m.fights) != (o.left, o.right, o.fights))
            {
                return Err(Error::NotComparable(format!(
                    "board {} against board {} fought a different number of times",
                    m.left, m.right
                )));
            }
            let dyads: Vec<Dyad> = a
                .pairs
                .iter()
                .zip(b.pairs.iter())
                .filter_map(|(m, o)| {
                    holdings.dyad(
                        m,
                        m.left_wins as i64 - o.left_wins as i64,
                        m.right_wins as i64 - o.right_wins as i64,
                    )
                })
                .collect();
            add(&a.ids, &dyads);
        }
        Ok(())
    })?;
    let mut keyed: [BTreeMap<String, Ratio>; 5] = Default::default();
    for ((out, table), found) in keyed.iter_mut().zip(&holdings.tables).zip(found) {
        *out = table.keys().cloned().zip(found.into_iter().map(|e| e.all)).collect();
    }
    Ok(keyed)
}

/// Compares every rate row with the baseline: the change in win rate, its
/// 95% uncertainty, and whether it is beyond noise after a
/// Benjamini–Hochberg correction over every compared row. Paired where the
/// runs fought the same pairs (falling back to independent, and saying
/// why, where the tallies show they did not).
pub fn compare(report: &mut Report, against: Against, baseline_name: String) -> Result<(), Error> {
    let q = report.false_discovery_rate;
    let mut tested: Vec<(usize, usize)> = Vec::new();
    let mut p_values = Vec::new();
    let paired = match &against {
        Against::Paired { now, base, boards, why } => match paired_changes(now, base, boards) {
            Ok(found) => Ok((found, why.clone())),
            Err(e) => Err(format!("independent: the runs look paired, but {e}")),
        },
        Against::Independent { why, .. } => Err(format!("independent: {why}")),
    };
    let independent = match (&against, &paired) {
        (Against::Independent { rates, .. }, _) => Some(rates.map(|t| t.clone())),
        (Against::Paired { base, boards, .. }, Err(_)) => {
            let settings = ReportSettings {
                min_sample: report.min_sample,
                min_boards: report.min_boards,
                band_low: report.band[0],
                band_high: report.band[1],
                ..ReportSettings::default()
            };
            Some(rate_rows(base, boards, &settings)?)
        }
        _ => None,
    };
    report.comparison = Some(match &paired {
        Ok((_, why)) => format!("paired: {why}"),
        Err(why) => why.clone(),
    });
    for (section, (_, rows)) in sections_mut(report).into_iter().enumerate() {
        for (i, row) in rows.iter_mut().enumerate() {
            let change = match (&paired, &independent) {
                (Ok((found, _)), _) => {
                    let Some(&d) = found[section].get(&row.key) else {
                        continue;
                    };
                    if d.denominator == 0 {
                        continue;
                    }
                    Change {
                        baseline_win_rate: row.win_rate - d.ratio,
                        baseline_fights: row.fights,
                        delta: d.ratio,
                        combined_uncertainty: Z95 * finite(d.se),
                        p_value: stats::difference_p(d.ratio, finite(d.se)),
                        paired: true,
                        significant: false,
                    }
                }
                (Err(_), Some(base)) => {
                    let Some(b) = base[section].iter().find(|b| b.key == row.key) else {
                        continue;
                    };
                    let se = (row.se * row.se + b.se * b.se).sqrt();
                    let delta = row.win_rate - b.win_rate;
                    Change {
                        baseline_win_rate: b.win_rate,
                        baseline_fights: b.fights,
                        delta,
                        combined_uncertainty: Z95 * se,
                        p_value: stats::difference_p(delta, se),
                        paired: false,
                        significant: false,
                    }
                }
                (Err(_), None) => continue,
            };
            p_values.push(change.p_value);
            row.change = Some(change);
            tested.push((section, i));
        }
    }
    // Benjamini–Yekutieli, not Hochberg: the rows' changes are negatively
    // dependent (stats::benjamini_yekutieli).
    let found = stats::benjamini_yekutieli(&p_values, q);
    let mut significant = Vec::new();
    let mut sections = sections_mut(report);
    for (&(section, i), beyond) in tested.iter().zip(found) {
        if !beyond {
            continue;
        }
        let (name, rows) = &mut sections[section];
        if let Some(change) = rows[i].change.as_mut() {
            change.significant = true;
        }
        significant.push(format!("{name}: {}", rows[i].key));
    }
    report.significant_changes = significant;
    report.baseline = Some(baseline_name);
    report.what_changed = what_changed(report);
    Ok(())
}

pub(super) fn points(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The report's opening paragraph, in words: the largest changes beyond
/// noise since the baseline (at most five), then the outliers (the
/// furthest from the band first, at most five).
pub(super) fn what_changed(r: &Report) -> String {
    let mut out = Vec::new();
    let named = |section: &str, row: &RateRow| format!("{} ({section})", row.name);
    match &r.baseline {
        None => out.push("No earlier run to compare with.".to_string()),
        Some(b) => {
            let mut moved: Vec<(&str, &RateRow, &Change)> = Vec::new();
            for ((section, _), rows) in RATE_SECTIONS.iter().zip(r.rate_tables()) {
                for row in rows {
                    if let Some(c) = row.change.as_ref().filter(|c| c.significant) {
                        moved.push((section, row, c));
                    }
                }
            }
            moved.sort_by(|x, y| y.2.delta.abs().total_cmp(&x.2.delta.abs()).then(x.1.key.cmp(&y.1.key)));
            if moved.is_empty() {
                out.push(format!("Since {b}, no win rate moved beyond noise."));
            } else {
                let told: Vec<String> = moved
                    .iter()
                    .take(5)
                    .map(|(section, row, c)| {
                        format!(
                            "{} {} from {} to {} ({:+.1} points, ±{:.1})",
                            named(section, row),
                            if c.delta > 0.0 { "rose" } else { "fell" },
                            points(c.baseline_win_rate),
                            points(row.win_rate),
                            100.0 * c.delta,
                            100.0 * c.combined_uncertainty
                        )
                    })
                    .collect();
                let more = if moved.len() > 5 {
                    format!(" ({} more in the tables)", moved.len() - 5)
                } else {
                    String::new()
                };
                out.push(format!(
                    "Since {b}, {} win rates moved beyond noise: {}{more}.",
                    moved.len(),
                    told.join("; ")
                ));
            }
        }
    }
    if r.outliers.is_empty() {
        out.push(format!(
            "No item lies outside the {}–{} band beyond noise.",
            points(r.band[0]),
            points(r.band[1])
        ));
    } else {
        let mut far: Vec<&Outlier> = r.outliers.iter().collect();
        let distance = |o: &Outlier| (o.win_rate - 0.5).abs();
        far.sort_by(|x, y| distance(y).total_cmp(&distance(x)).then(x.key.cmp(&y.key)));
        let told: Vec<String> = far
            .iter()
            .take(5)
            .map(|o| format!("{} ({}) at {}", o.name, o.section, points(o.win_rate)))
            .collect();
        out.push(format!(
            "{} items lie outside the {}–{} band beyond noise; the furthest: {}.",
            r.outliers.len(),
            points(r.band[0]),
            points(r.band[1]),
            told.join("; ")
        ));
    }
    out.join(" ")
}
