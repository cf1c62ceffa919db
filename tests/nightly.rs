//! `gridsim nightly`: two nights make two dated reports, the second
//! compared with the first, both linked from one index; alarms exit with 3.

use std::path::PathBuf;

mod common;
use common::{gridsim, scratch};

fn night(root: &std::path::Path, suite: &str, date: &str, fights: &str) -> std::process::Output {
    night_with(
        root,
        suite,
        date,
        fights,
        std::path::Path::new(gridsim::scenario::CATALOG_DIR),
    )
}

fn night_with(
    root: &std::path::Path,
    suite: &str,
    date: &str,
    fights: &str,
    cards: &std::path::Path,
) -> std::process::Output {
    let (datasets, reports) = (root.join("datasets"), root.join("reports"));
    gridsim(&[
        "nightly",
        suite,
        "--date",
        date,
        "--fights",
        fights,
        "--datasets",
        datasets.to_str().expect("utf-8"),
        "--reports",
        reports.to_str().expect("utf-8"),
        // The frozen catalog (tests/fixtures/catalog): the alarms below rest
        // on its numbers, which tuning configs/ does not move.
        "--cards",
        cards.to_str().expect("utf-8"),
    ])
}

#[test]
fn two_nights_make_two_linked_reports_and_alarm() {
    let root = scratch("two");
    let suite = "configs/suites/default.toml";
    let first = night(&root, suite, "2026-11-29", "20000");
    let out = String::from_utf8_lossy(&first.stdout);
    // The default suite's anvil_tool at tier 1 loses beyond noise: an alarm.
    assert_eq!(
        first.status.code(),
        Some(3),
        "{out}{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(
        out.contains("no earlier night") && out.contains("ALARM") && out.contains("anvil_tool t1"),
        "{out}"
    );

    let second = night(&root, suite, "2026-11-30", "20000");
    let out = String::from_utf8_lossy(&second.stdout);
    assert_eq!(second.status.code(), Some(3), "{out}");
    assert!(out.contains("compared with") && out.contains("2026-11-29"), "{out}");

    let reports = root.join("reports");
    for date in ["2026-11-29", "2026-11-30"] {
        let pages: Vec<PathBuf> = std::fs::read_dir(reports.join(date))
            .expect("dated folder")
            .flatten()
            .map(|e| e.path().join("index.html"))
            .collect();
        assert!(pages.iter().any(|p| p.is_file()), "{date}: no report page");
    }
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(reports.join("2026-11-30/default-seed20261129/summary.json")).expect("summary"),
    )
    .expect("json");
    assert_eq!(
        summary["baseline"].as_str(),
        Some("default-seed20261129 of 2026-11-29"),
        "the second night is compared with the first, named by its date"
    );
    // The page opens with what changed since that night, in words: the
    // same catalog and seed, so nothing moved.
    let what = summary["what_changed"].as_str().expect("what_changed");
    assert!(
        what.starts_with("Since default-seed20261129 of 2026-11-29, no win rate moved beyond noise."),
        "{what}"
    );
    let index = std::fs::read_to_string(reports.join("index.html")).expect("index");
    assert!(
        index.contains("2026-11-29/default-seed20261129/index.html")
            && index.contains("2026-11-30/default-seed20261129/index.html"),
        "the index links both nights"
    );
    assert!(
        index.contains("<svg") && index.contains("anvil_tool t1"),
        "a trend chart per flagged item"
    );

    // A night again resumes its finished run and reports the same figures.
    let again = night(&root, suite, "2026-11-30", "20000");
    assert_eq!(again.status.code(), Some(3));
    let summary_again: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(reports.join("2026-11-30/default-seed20261129/summary.json")).expect("summary"),
    )
    .expect("json");
    assert_eq!(summary["cards"], summary_again["cards"]);
    // The same suite and seed fight the same pairs every night, so the
    // nights are compared fight by fight.
    assert!(
        summary["comparison"].as_str().is_some_and(|c| c.starts_with("paired")),
        "{}",
        summary["comparison"]
    );

    // A third night with one card's Power cut (ember_fox 12/18/24 to
    // 10/15/20): the paired comparison names it as changed beyond noise,
    // and the night alarms.
    let nerfed = root.join("nerfed");
    std::fs::create_dir_all(&nerfed).expect("scratch");
    for file in ["cards.toml", "runes.toml"] {
        let text = std::fs::read_to_string(std::path::Path::new(gridsim::scenario::CATALOG_DIR).join(file))
            .expect("catalog file");
        let text = if file == "cards.toml" {
            let fox = text.find("id = \"ember_fox\"").expect("ember_fox");
            let at = fox + text[fox..].find("power = [12, 18, 24]").expect("its Power");
            format!(
                "{}power = [10, 15, 20]{}",
                &text[..at],
                &text[at + "power = [12, 18, 24]".len()..]
            )
        } else {
            text
        };
        std::fs::write(nerfed.join(file), text).expect("write");
    }
    let third = night_with(&root, suite, "2026-12-01", "20000", &nerfed);
    let out = String::from_utf8_lossy(&third.stdout);
    assert_eq!(third.status.code(), Some(3), "{out}");
    assert!(out.contains("changed beyond noise: card: ember_fox"), "{out}");
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(reports.join("2026-12-01/default-seed20261129/summary.json")).expect("summary"),
    )
    .expect("json");
    let fox = summary["cards"]
        .as_array()
        .and_then(|c| c.iter().find(|r| r["key"] == "ember_fox"))
        .expect("ember_fox row");
    let change = &fox["change"];
    assert!(
        change["paired"].as_bool() == Some(true) && change["delta"].as_f64() < Some(0.0),
        "{change}"
    );
}

#[test]
fn a_quiet_night_exits_zero_and_a_bad_date_is_refused() {
    let root = scratch("quiet");
    // Two boards: nothing is ranked, so nothing can alarm.
    let quiet = night(&root, "tests/suites/two_boards.toml", "2026-11-30", "2000");
    assert_eq!(
        quiet.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&quiet.stderr)
    );
    let bad = night(&root, "tests/suites/two_boards.toml", "30-11-2026", "2000");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("YYYY-MM-DD"));
}
