//! Runs every scenario under tests/conformance/ and checks that the
//! committed coverage table is the one the scenarios generate.

use std::path::{Path, PathBuf};

use gridsim::config;
use gridsim::coverage;
use gridsim::scenario::ScenarioReport;

fn run_all() -> Vec<ScenarioReport> {
    let rules = config::load_rules(Path::new("configs/rules.toml")).expect("rules load");
    let catalog = config::load_catalog(&[PathBuf::from(gridsim::scenario::CATALOG_DIR)]).expect("catalog loads");
    let files = config::toml_files(&[PathBuf::from("tests/conformance")]).expect("scenario folder");
    assert!(!files.is_empty(), "no scenarios found");
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).expect("readable");
            gridsim::jobs::scenario_report(f, &text, &catalog, &rules)
                .unwrap_or_else(|d| panic!("{} does not load:\n{}", f.display(), join(&d)))
        })
        .collect()
}

fn join(d: &[config::Diagnostic]) -> String {
    d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("\n")
}

#[test]
fn every_scenario_passes() {
    let reports = run_all();
    let failed: Vec<String> = reports
        .iter()
        .filter(|r| !r.passed())
        .map(|r| format!("{} ({}):\n  {}", r.file.display(), r.name, r.failures.join("\n  ")))
        .collect();
    assert!(
        failed.is_empty(),
        "{} scenario(s) failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

#[test]
fn committed_coverage_table_is_current() {
    let rows = coverage::table(&run_all());
    let generated = coverage::markdown(&rows);
    let committed = std::fs::read_to_string("docs/conformance.md").unwrap_or_default();
    assert!(
        committed == generated,
        "docs/conformance.md is stale: regenerate it with `gridsim coverage --markdown > docs/conformance.md`"
    );
}
