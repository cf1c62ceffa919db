//! `gridsim nightly`: the nightly suite on the current catalog, its report
//! compared with the previous night's run, and one index of every night.
//!
//! The folders are the convention by which a night finds the one before:
//!
//! - `DATASETS/nightly/<date>/<run-id>/`: the night's run;
//! - `REPORTS/<date>/<run-id>/`: its report (`index.html`, `summary.md`,
//!   `summary.json`), compared with the latest earlier night that has a run;
//! - `REPORTS/index.html`: every night, newest first, with its alarms, and
//!   a trend chart of every item the newest night flags.
//!
//! Running a night again resumes its run (nothing finished is redone) and
//! writes its report again.

use std::path::{Path, PathBuf};

use crate::runs::{self, Argument, Error, NewRun, is_date};
use gridsim_analysis::report::ReportSettings;
use gridsim_data::dataset::{MANIFEST, Shard};
use gridsim_present::render::Night;

/// What `gridsim nightly` is asked to do.
pub struct Nightly {
    pub rules: PathBuf,
    pub cards: Vec<PathBuf>,
    pub suite: PathBuf,
    /// The night, `YYYY-MM-DD`.
    pub date: String,
    pub fights: Option<u64>,
    pub threads: usize,
    pub datasets: PathBuf,
    pub reports: PathBuf,
    pub progress: bool,
}

/// What a night found.
pub struct NightlyOutcome {
    pub run_dir: PathBuf,
    pub report_dir: PathBuf,
    pub index: PathBuf,
    /// The night compared with, if an earlier night has a run.
    pub baseline: Option<String>,
    /// Outliers and changes beyond noise, each in words.
    pub alarms: Vec<String>,
}

/// Today's date in UTC, `YYYY-MM-DD`.
pub fn today_utc() -> String {
    gridsim_data::dataset::utc_now()[..10].to_string()
}

/// The last folder, by name, inside `folder` that holds a file `marker`:
/// the run directory of a night (`manifest.json`), or its report
/// (`summary.json`).
fn folder_holding(folder: &Path, marker: &str) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(folder)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join(marker).is_file())
        .collect();
    dirs.sort();
    dirs.pop()
}

/// The run directory inside a night's folder, if it has one.
fn run_in(night: &Path) -> Option<PathBuf> {
    folder_holding(night, MANIFEST)
}

/// The latest night before `date` under `nightly/` that has a run.
fn previous_night(nightly: &Path, date: &str) -> Option<PathBuf> {
    let mut nights: Vec<(String, PathBuf)> = std::fs::read_dir(nightly)
        .ok()?
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (is_date(&name) && name.as_str() < date).then(|| (name, e.path()))
        })
        .collect();
    nights.sort();
    nights.into_iter().rev().find_map(|(_, p)| run_in(&p))
}

/// Runs (or resumes) the night's run, writes its report compared with the
/// previous night, and rewrites the index of every night.
pub fn run(n: &Nightly) -> Result<NightlyOutcome, Error> {
    if !is_date(&n.date) {
        return Err(Error::argument(
            Argument::Date,
            Some(Path::new("gridsim nightly")),
            format!(" `{}`: expected YYYY-MM-DD", n.date),
        ));
    }
    let nightly = n.datasets.join("nightly");
    let night = nightly.join(&n.date);
    let summary = match run_in(&night) {
        Some(dir) => runs::resume::<runs::Loaded>(&dir, n.threads, n.progress, &mut |note| eprintln!("note: {note}"))?,
        None => runs::start::<runs::Loaded>(&NewRun {
            rules: n.rules.clone(),
            cards: n.cards.clone(),
            suite: n.suite.clone(),
            count: n.fights,
            seed: None,
            out: night,
            shard: Shard::WHOLE,
            part_size: gridsim_data::dataset::DEFAULT_PART_SIZE,
            threads: n.threads,
            progress: n.progress,
        })?,
    };
    let baseline = previous_night(&nightly, &n.date);
    let (report, report_dir) = runs::write_report(
        std::slice::from_ref(&summary.dir),
        baseline.as_deref(),
        &n.reports.join(&n.date),
        &ReportSettings::default(),
    )?;
    let index = write_index(&n.reports)?;
    let mut alarms: Vec<String> = report.outliers.iter().map(|o| o.describe()).collect();
    alarms.extend(
        report
            .significant_changes
            .iter()
            .map(|c| format!("changed beyond noise: {c}")),
    );
    Ok(NightlyOutcome {
        run_dir: summary.dir,
        report_dir,
        index,
        baseline: baseline.map(|b| b.display().to_string()),
        alarms,
    })
}

/// Reads every night's `summary.json` under `reports` and writes
/// `reports/index.html`.
pub fn write_index(reports: &Path) -> Result<PathBuf, Error> {
    let mut nights = Vec::new();
    let mut dates: Vec<(String, PathBuf)> = std::fs::read_dir(reports)
        .map_err(|e| Error::file(reports, format!("cannot list: {e}")))?
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            is_date(&name).then(|| (name, e.path()))
        })
        .collect();
    dates.sort();
    for (date, folder) in dates {
        let Some(page) = folder_holding(&folder, "summary.json") else {
            continue;
        };
        let text = std::fs::read_to_string(page.join("summary.json"))
            .map_err(|e| Error::file(&page, format!("cannot read summary.json: {e}")))?;
        let json: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| Error::file(&page, format!("summary.json: {e}")))?;
        nights.push(night_of(&date, reports, &page, &json));
    }
    let path = reports.join("index.html");
    gridsim_core::atomic::write(&path, gridsim_present::render::nightly_index(&nights).as_bytes())
        .map_err(|e| Error::file(&path, e))?;
    Ok(path)
}

fn night_of(date: &str, reports: &Path, page: &Path, json: &serde_json::Value) -> Night {
    let mut alarms: Vec<String> = json["outliers"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|o| {
            format!(
                "{}: {}",
                o["section"].as_str().unwrap_or(""),
                o["key"].as_str().unwrap_or("")
            )
        })
        .collect();
    alarms.extend(
        json["significant_changes"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c.as_str().map(|c| format!("changed: {c}"))),
    );
    let mut rates = std::collections::BTreeMap::new();
    for (section, table) in gridsim_analysis::report::RATE_SECTIONS {
        for row in json[table].as_array().into_iter().flatten() {
            let f = |k: &str| row[k].as_f64().unwrap_or(0.0);
            let key = format!("{section}: {}", row["key"].as_str().unwrap_or(""));
            rates.insert(key, (f("win_rate"), f("low"), f("high")));
        }
    }
    let href = page
        .strip_prefix(reports)
        .unwrap_or(page)
        .join("index.html")
        .to_string_lossy()
        .replace('\\', "/");
    Night {
        date: date.to_string(),
        href,
        fights: json["fights"].as_u64().unwrap_or(0),
        alarms,
        rates,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_checked_and_today_is_one() {
        assert!(is_date("2026-11-30"));
        for bad in ["2026-13-01", "2026-11-3", "20261130", "2026/11/30", "tomorrow"] {
            assert!(!is_date(bad), "{bad}");
        }
        assert!(is_date(&today_utc()), "{}", today_utc());
    }
}
