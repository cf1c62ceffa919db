//! Runs every scenario under tests/conformance/ (Gridforged's) and
//! tests/riftbound/ (Riftbound's) and checks that the
//! committed coverage table is the one the scenarios generate.

use std::path::{Path, PathBuf};

use gridsim::config;
use gridsim::coverage;
use gridsim::scenario::ScenarioReport;
use rayon::prelude::*;

/// The frozen inputs every scenario reads.
struct Inputs {
    rules: gridsim::settings::Rules,
    catalog: gridsim::catalog::Catalog,
    files: Vec<PathBuf>,
}

fn inputs() -> Inputs {
    let files = config::toml_files(&[PathBuf::from("tests/conformance"), PathBuf::from("tests/riftbound")])
        .expect("scenario folders");
    assert!(!files.is_empty(), "no scenarios found");
    Inputs {
        rules: config::load_rules(Path::new("configs/rules.toml")).expect("rules load"),
        catalog: config::load_catalog(&[PathBuf::from(gridsim::scenario::CATALOG_DIR)]).expect("catalog loads"),
        files,
    }
}

fn run_one(inputs: &Inputs, f: &Path) -> ScenarioReport {
    let text = std::fs::read_to_string(f).expect("readable");
    gridsim::jobs::scenario_report(f, &text, &inputs.catalog, &inputs.rules)
        .unwrap_or_else(|d| panic!("{} does not load:\n{}", f.display(), join(&d)))
}

/// Every scenario, in parallel: mutation testing runs this file once per
/// mutant.
fn run_all() -> Vec<ScenarioReport> {
    let inputs = inputs();
    inputs.files.par_iter().map(|f| run_one(&inputs, f)).collect()
}

/// Set by mutation testing (docs/mutation.md), which needs one failure
/// per mutant, not the list.
fn fail_fast() -> bool {
    std::env::var_os("GRIDSIM_FAIL_FAST").is_some()
}

fn join(d: &[config::Diagnostic]) -> String {
    d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("\n")
}

#[test]
fn every_scenario_passes() {
    if fail_fast() {
        let inputs = inputs();
        let failed = inputs.files.par_iter().find_any(|f| !run_one(&inputs, f).passed());
        assert!(
            failed.is_none(),
            "{} failed",
            failed.map_or(String::new(), |f| f.display().to_string())
        );
        return;
    }
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
    if fail_fast() {
        // A statement about the docs, not the engine: every_scenario_passes
        // already reads the scenarios.
        return;
    }
    let rows = coverage::table(&run_all());
    let generated = coverage::markdown(&rows);
    let committed = std::fs::read_to_string("docs/conformance.md").unwrap_or_default();
    assert!(
        committed == generated,
        "docs/conformance.md is stale: regenerate it with `gridsim coverage --markdown > docs/conformance.md`"
    );
}

/// 800.58d with a resonance line of Vitality, which no catalog resonance
/// has: the level falling lowers each holder's maximum and what exceeds
/// it without killing anyone, and rising gives the difference back.
#[test]
fn a_vitality_resonance_follows_the_level_without_killing() {
    let rules = config::load_rules(Path::new("configs/rules.toml")).expect("rules load");
    let mut catalog = config::load_catalog(&[PathBuf::from(gridsim::scenario::CATALOG_DIR)]).expect("catalog loads");
    catalog.resonances.push(gridsim::catalog::Resonance {
        key: "test_vigor".into(),
        name: "Test Vigor".into(),
        lines: vec![gridsim::catalog::ResonanceLine {
            effect: gridsim::ability::RuneEffect::Vitality,
            per_level: 10,
            duration_ms: 0,
        }],
    });
    let text = r#"
name = "800.58d: a Vitality resonance follows the level"
covers = ["800.58d"]

[runes.left]
resonance = "test_vigor"

[[unit]]
name = "grohm"
side = "left"
cell = [0, 0]
define = { vitality = [100], power = [0], speed = [-95], armor = [0], focus = [10], base_hit = false, keywords = ["resonator 22", "everlasting"] }

[[unit]]
name = "wounded"
side = "left"
cell = [2, 0]
define = { vitality = [100], power = [0], speed = [-95], armor = [0], focus = [10], base_hit = false }

[[unit]]
name = "healthy"
side = "left"
cell = [4, 0]
define = { vitality = [100], power = [0], speed = [-95], armor = [0], focus = [10], base_hit = false }

[[unit]]
name = "enemy"
side = "right"
cell = [0, 0]
define = { vitality = [100], power = [0], speed = [-95], armor = [0], focus = [10], base_hit = false }

[[step]]
# Level 23: +230 Vitality.
apply = { effect = "damage", amount = 300, source = "enemy", target = "wounded" }
expect = [{ unit = "wounded", vitality = 30, max_vitality = 330 }, { unit = "healthy", vitality = 330, max_vitality = 330 }]

[[step]]
# Level 1: the maximum falls to 110; the wounded keeps its 30, the healthy
# is cut to the new maximum, and both live.
apply = { effect = "damage", amount = 1000, source = "enemy", target = "grohm" }
events = [{ kind = "resonance_level", unit = "grohm", amount = 1, detail = 23 }]
no_events = [{ kind = "death", unit = "wounded" }, { kind = "death", unit = "healthy" }]
expect = [{ unit = "wounded", vitality = 30, max_vitality = 110, alive = true }, { unit = "healthy", vitality = 110, max_vitality = 110 }]

[[step]]
# Grohm back (Everlasting, 10 s): +220 to both maximum and Vitality.
advance_ms = 10000
events = [{ kind = "resonance_level", unit = "grohm", amount = 23, detail = 1 }]
expect = [{ unit = "wounded", vitality = 250, max_vitality = 330 }, { unit = "healthy", vitality = 330, max_vitality = 330 }, { unit = "grohm", vitality = 330 }]
"#;
    let report = gridsim::jobs::scenario_report(Path::new("vitality_resonance.toml"), text, &catalog, &rules)
        .unwrap_or_else(|d| panic!("the scenario does not load:\n{}", join(&d)));
    assert!(report.passed(), "{}", report.failures.join("\n"));
}

/// The text of scenario `file`, checked to pass as written, and a runner
/// of any variant of it: a test of the harness then shows a misstated
/// line fails.
fn scenario_as_written(file: &'static str) -> (String, impl Fn(&str) -> ScenarioReport) {
    let inputs = inputs();
    let text = std::fs::read_to_string(file).expect("readable");
    let run = move |text: &str| {
        gridsim::jobs::scenario_report(Path::new(file), text, &inputs.catalog, &inputs.rules)
            .unwrap_or_else(|d| panic!("the scenario does not load:\n{}", join(&d)))
    };
    let as_written = run(&text);
    assert!(as_written.passed(), "{}", as_written.failures.join("\n"));
    (text, run)
}

/// docs/scenarios.md: a showdown scenario's `absent` lines must not be
/// logged. RB9's scenario passes as written; the same scenario with an
/// `absent` line the showdown does log (the Hourglass's save, RB9) fails,
/// naming that line, so an `absent` line cannot pass by being ignored.
#[test]
fn a_logged_absent_line_fails_its_scenario() {
    let (text, run) = scenario_as_written("tests/riftbound/rb_09_zhonya_prevents_deathknell.toml");
    let absent = "absent = [{ kind = \"died\", unit = \"acolyte\" }";
    assert!(
        text.contains(absent),
        "RB9's scenario lists the acolyte's death as absent"
    );
    let logged = text.replace(absent, "absent = [{ kind = \"saved\", unit = \"acolyte\" }");
    let report = run(&logged);
    assert!(!report.passed(), "a logged `absent` line passed");
    assert!(
        report
            .failures
            .iter()
            .any(|f| f.contains("absent") && f.contains("saved")),
        "{:?}",
        report.failures
    );
}

/// docs/scenarios.md: an `events` line's `count` is exact over the whole
/// log. The scenario of a recalled defender (RB21, RB50) passes with its
/// one Reaver's Row resolution; asking for two fails, naming the line and
/// the count logged. The misreading: a `count` parsed and never checked.
#[test]
fn a_showdown_line_count_is_exact() {
    let (text, run) = scenario_as_written("tests/riftbound/rb_21_recalled_defender_no_longer_holds.toml");
    let once = "card = \"reavers_row\", ruling = \"RB44\", count = 1 }";
    assert!(text.contains(once), "the scenario counts the Row's resolutions");
    let report = run(&text.replace(once, "card = \"reavers_row\", ruling = \"RB44\", count = 2 }"));
    assert!(!report.passed(), "a wrong count passed");
    assert!(
        report.failures.iter().any(|f| f.contains("1 logged, 2 wanted")),
        "{:?}",
        report.failures
    );
}

/// docs/scenarios.md, "Riftbound game scenarios": a game scenario's
/// `expect` lines must be logged in their turn, its `absent` lines must
/// not be, and a `count` is exact. The final point's scenario passes as
/// written; with its refused final point moved to `absent`, or a line the
/// turn never logs expected, or a count of two where one is logged, it
/// fails, naming the line. The misreading: lines parsed and never checked.
#[test]
fn a_game_scenarios_lines_are_checked() {
    let (text, run) =
        scenario_as_written("tests/riftbound/game_final_point_from_a_conquest_needs_every_battlefield.toml");
    let as_written = run(&text);
    assert!(as_written.checks >= 10, "{}", as_written.checks);
    let absent = "absent = [{ event = \"won\" }, { event = \"conquered\" }]";
    assert!(
        text.contains(absent),
        "the first turn lists a victory and a conquest as absent"
    );
    let logged = run(&text.replace(absent, "absent = [{ event = \"final_point_drawn\" }]"));
    assert!(
        logged
            .failures
            .iter()
            .any(|f| f.contains("must not be logged") && f.contains("final_point_drawn")),
        "{:?}",
        logged.failures
    );
    let expected = "{ event = \"drew\", seat = 0, rule = \"444.1.b\" },";
    assert!(text.contains(expected));
    let missing = run(&text.replace(expected, "{ event = \"conquered\", seat = 0 },"));
    assert!(
        missing
            .failures
            .iter()
            .any(|f| f.contains("expected a line `conquered seat 0`")),
        "{:?}",
        missing.failures
    );
    let twice = run(&text.replace(
        expected,
        "{ event = \"drew\", seat = 0, rule = \"444.1.b\", count = 2 },",
    ));
    assert!(
        twice.failures.iter().any(|f| f.contains("expected 2 lines")),
        "{:?}",
        twice.failures
    );
}
