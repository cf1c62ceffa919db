//! The pages in a real browser: headless Chromium (installed with apt-get
//! where missing; the test says so and passes without checking where it
//! cannot be installed) loads them.
//! - The report page, checked against `summary.json`: every chart and table
//!   is there, every number a table shows is the one in the JSON, the "what
//!   changed" paragraph is the JSON's, and sorting and search work.
//! - The fight page, checked against the fight's outcome: the state it draws
//!   at the end is the outcome's, and scrubbing, the log's links and play
//!   work.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{gridsim, scratch};
use serde_json::Value;

/// Debian's Chromium, installed if missing and possible.
fn chromium() -> Option<PathBuf> {
    let found = || {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
            .iter()
            .map(PathBuf::from)
            .find(|p| p.exists())
    };
    if let Some(p) = found() {
        return Some(p);
    }
    let quiet = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let installed = quiet(&["update", "-qq"]) && quiet(&["install", "-y", "-qq", "chromium"]);
    if !installed {
        eprintln!("SKIPPED: Chromium is not installed and `apt-get install chromium` failed here");
        return None;
    }
    found()
}

/// The page's DOM after its scripts ran.
fn dump_dom(browser: &Path, page: &Path, profile: &Path) -> String {
    dump_dom_at(browser, &format!("file://{}", page.display()), profile)
}

/// The DOM of the page at `url` after its scripts ran.
fn dump_dom_at(browser: &Path, url: &str, profile: &Path) -> String {
    let o = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=5000",
            &format!("--user-data-dir={}", profile.display()),
            "--dump-dom",
            url,
        ])
        .output()
        .expect("chromium runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).expect("utf-8 DOM")
}

/// The text between `open` (searched from `from`) and the next `close`.
fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let end = text[start..].find(close)? + start;
    Some(&text[start..end])
}

/// The rows of the table with `id`: each row's `data-key` (when it has one)
/// and the `data-v` values of its cells, in order.
fn table_rows(dom: &str, id: &str) -> Vec<(String, Vec<String>, bool)> {
    let table = between(dom, &format!("<table class=\"sortable\" id=\"{id}\">"), "</table>")
        .unwrap_or_else(|| panic!("table `{id}` is on the page"));
    let body = between(table, "<tbody>", "</tbody>").expect("tbody");
    body.split("<tr")
        .skip(1)
        .map(|row| {
            let key = between(row, "data-key=\"", "\"").unwrap_or("").to_string();
            let hidden = between(row, "style=\"", "\"").is_some_and(|s| s.contains("none"));
            let values = row
                .split("data-v=\"")
                .skip(1)
                .map(|v| v[..v.find('"').expect("closing quote")].to_string())
                .collect();
            (key, values, hidden)
        })
        .collect()
}

/// The page writes each number in full; serde_json's default float parser
/// may differ in the last bit, so equal means within a few ulps.
fn close(page: &str, json: f64) -> bool {
    page.parse::<f64>()
        .is_ok_and(|v| (v - json).abs() <= 1e-12 * json.abs().max(1.0))
}

#[test]
fn the_report_page_shows_the_numbers_of_summary_json_and_sorts_and_searches() {
    let Some(browser) = chromium() else {
        return;
    };
    let dir = scratch("page");
    let run = dir.join("run");
    let o = gridsim(&[
        "run",
        "configs/suites/default.toml",
        "--fights",
        "30000",
        "--out",
        run.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let reports = dir.join("reports");
    let o = gridsim(&[
        "report",
        run.join("default-seed20261129").to_str().expect("utf-8"),
        "--out",
        reports.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let folder = reports.join("default-seed20261129");
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("summary.json")).expect("summary.json"))
            .expect("json");
    let dom = dump_dom(&browser, &folder.join("index.html"), &dir.join("profile"));

    // The paragraph at the top is the JSON's, in words.
    let what = summary["what_changed"].as_str().expect("what_changed");
    assert!(what.starts_with("No earlier run"), "{what}");
    let shown = between(&dom, "<p id=\"what-changed\" class=\"lead\">", "</p>").expect("what changed");
    assert_eq!(shown.replace("&amp;", "&"), what);

    // Every chart: a win-rate chart for each section and the keyword heat
    // map, and the page leads with what is out of band, drawn.
    for caption in [
        "Card win rate",
        "Card tier win rate",
        "Rune win rate",
        "Keyword win rate",
        "Footprint win rate",
        "Keyword (row) against keyword (column)",
    ] {
        assert!(dom.contains(caption), "chart `{caption}`");
    }
    // Every flagged row of every section is drawn: in the chart at the top
    // (before the list of outliers) and in its section's chart.
    let sections = ["cards", "card_tiers", "runes", "keywords", "footprints"];
    let flagged: Vec<&str> = sections
        .iter()
        .flat_map(|t| summary[*t].as_array().expect("section"))
        .filter(|r| r["outlier"].as_bool() == Some(true))
        .map(|r| r["name"].as_str().expect("name"))
        .collect();
    assert!(!flagged.is_empty(), "the default suite has rows out of band");
    let top = between(&dom, "<h2>Outliers</h2>", "</svg>").expect("the out-of-band chart leads the outliers");
    assert!(top.contains("Out of band: every flagged row"));
    let charts: Vec<&str> = dom
        .split("<svg")
        .skip(1)
        .map(|c| c.split("</svg>").next().unwrap_or(""))
        .collect();
    for name in &flagged {
        let drawn = name.replace('&', "&amp;");
        assert!(top.contains(&drawn), "flagged `{name}` in the chart at the top");
        assert!(
            charts.iter().filter(|c| c.contains(&drawn)).count() >= 2,
            "flagged `{name}` in its section's chart too"
        );
    }

    // Every table, every row, the same numbers: boards, fights, win rate,
    // interval, effect and draws.
    for table in ["cards", "card_tiers", "keywords", "footprints"] {
        let rows = table_rows(&dom, table);
        let expected = summary[table].as_array().expect("section");
        assert_eq!(rows.len(), expected.len(), "{table}: rows");
        for (row, want) in rows.iter().zip(expected) {
            let key = want["key"].as_str().expect("key");
            assert_eq!(row.0, key, "{table}: row order");
            let name = want["name"].as_str().expect("name");
            assert!(dom.contains(name), "{table}: the display name {name}");
            let v = &row.1;
            // rank, name, boards, fights, win rate, low, rate against
            // boards without it, its low, mirror share, effect, draws.
            assert_eq!(v.len(), 11, "{table} {key}: {v:?}");
            let f = |k: &str| want[k].as_f64().unwrap_or_else(|| panic!("{table} {key}: {k}"));
            assert!(close(&v[2], f("boards")), "{table} {key}: boards {}", v[2]);
            assert!(close(&v[3], f("fights")), "{table} {key}: fights {}", v[3]);
            assert!(close(&v[4], f("win_rate")), "{table} {key}: win rate {}", v[4]);
            assert!(close(&v[5], f("low")), "{table} {key}: interval {}", v[5]);
            if f("apart_fights") > 0.0 {
                assert!(close(&v[6], f("apart_win_rate")), "{table} {key}: apart {}", v[6]);
                assert!(close(&v[7], f("apart_low")), "{table} {key}: apart interval {}", v[7]);
            } else {
                assert!(v[6].is_empty() && v[7].is_empty(), "{table} {key}: no apart rate {v:?}");
            }
            assert!(close(&v[8], f("mirror_share")), "{table} {key}: mirrors {}", v[8]);
            match want["effect"]["points"].as_f64() {
                Some(effect) => assert!(close(&v[9], effect), "{table} {key}: effect {}", v[9]),
                // Not separable from another item: no number shown.
                None => assert!(
                    v[9].is_empty() && want["not_separable_from"].is_array(),
                    "{table} {key}"
                ),
            }
            assert!(close(&v[10], f("draw_rate")), "{table} {key}: draws {}", v[10]);
            // And the text a person reads says the same, to a tenth of a point.
            let text = format!("{:.1}%", 100.0 * f("win_rate"));
            assert!(dom.contains(&text), "{table} {key}: {text} on the page");
        }
    }
    assert!(!table_rows(&dom, "keyword_pairs").is_empty());

    // Sorting and search, driven by a script added to a copy of the page:
    // sort the cards by win rate (a click sorts up), then search.
    let page = std::fs::read_to_string(folder.join("index.html")).expect("page");
    let probe = r#"<script>
var th = document.querySelectorAll('#cards thead th')[4];
th.click();
var rates = Array.prototype.map.call(document.querySelectorAll('#cards tbody tr'),
  function (r) { return parseFloat(r.cells[4].getAttribute('data-v')); });
var sorted = rates.every(function (x, i) { return i === 0 || rates[i - 1] <= x; });
var search = document.getElementById('search');
search.value = 'quake';
search.dispatchEvent(new Event('input'));
var visible = Array.prototype.filter.call(document.querySelectorAll('#cards tbody tr'),
  function (r) { return r.style.display !== 'none'; }).length;
document.body.setAttribute('data-probe', (sorted ? 'sorted' : 'unsorted') + ' ' + visible);
</script></body>"#;
    let probed = folder.join("probe.html");
    std::fs::write(&probed, page.replace("</body>", probe)).expect("probe page");
    let dom = dump_dom(&browser, &probed, &dir.join("profile"));
    let result = between(&dom, "data-probe=\"", "\"").expect("the probe ran");
    let quake_rows = summary["cards"]
        .as_array()
        .expect("cards")
        .iter()
        .filter(|c| c["key"].as_str().is_some_and(|k| k.contains("quake")))
        .count();
    assert_eq!(result, format!("sorted {quake_rows}"), "sorting and search");
    let hidden = table_rows(&dom, "cards").iter().filter(|r| r.2).count();
    assert_eq!(hidden, summary["cards"].as_array().expect("cards").len() - quake_rows);
}

#[test]
fn the_fight_page_ends_in_the_fights_outcome_and_scrubs_links_and_plays() {
    let Some(browser) = chromium() else {
        return;
    };
    let dir = scratch("fight-page");
    let page = dir.join("fight.html");
    let o = gridsim(&[
        "fight",
        "configs/boards/tidal_execution.toml",
        "configs/boards/wildfire.toml",
        "--seed",
        "5",
        "--log",
        "--json",
        "--html",
        page.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let fight: Value = serde_json::from_slice(&o.stdout).expect("fight JSON");
    let log = fight["log"].as_array().expect("log");

    // Opened at its end, the page draws the outcome: survivors and their
    // Vitality per side (combatants only, as the outcome counts them).
    let dom = dump_dom_at(
        &browser,
        &format!("file://{}#end", page.display()),
        &dir.join("profile"),
    );
    let standing = between(&dom, "<output id=\"standing\"", ">").expect("the standing line");
    let attr = |name: &str| {
        between(standing, &format!("{name}=\""), "\"")
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(attr("data-event"), (log.len() - 1).to_string(), "the last event");
    for (key, field) in [
        ("data-left-survivors", "left_survivors"),
        ("data-right-survivors", "right_survivors"),
        ("data-left-vitality", "left_vitality"),
        ("data-right-vitality", "right_vitality"),
    ] {
        assert_eq!(attr(key), fight[field].to_string(), "{key}");
    }
    let verdict = format!("{} wins", fight["winner"].as_str().expect("winner"));
    assert!(dom.contains(&verdict), "the title says who won");
    // Every log line is on the page with its rule.
    assert_eq!(dom.matches("<li data-event=").count(), log.len());
    assert!(dom.contains(&format!("title=\"rule {}\"", log[1]["rule"].as_str().expect("rule"))));

    // Scrubbed to 0 every combatant stands (Tidal Execution's Anvil is a
    // Tool, which does not count, 800.71b); a log line jumps to its moment;
    // play moves the clock on.
    let probe = r#"<script>
var s = document.getElementById('scrub');
s.value = '0'; s.dispatchEvent(new Event('input'));
var st = document.getElementById('standing');
var start = st.dataset.leftSurvivors + ' ' + st.dataset.rightSurvivors;
var li = document.querySelectorAll('#log li')[40];
li.click();
var clicked = (document.querySelector('#log li.now') === li ? 'now' : 'not-now') + ' ' + st.dataset.event;
var at = s.value;
document.getElementById('play').click();
setTimeout(function () {
  document.body.setAttribute('data-probe', start + '|' + clicked + '|' + at + '|' + s.value);
}, 1500);
</script></body>"#;
    let text = std::fs::read_to_string(&page).expect("page");
    let probed = dir.join("probe.html");
    std::fs::write(&probed, text.replace("</body>", probe)).expect("probe page");
    let dom = dump_dom(&browser, &probed, &dir.join("profile"));
    let result = between(&dom, "data-probe=\"", "\"").expect("the probe ran");
    let parts: Vec<&str> = result.split('|').collect();
    assert_eq!(parts[0], "7 7", "every combatant stands at 0 s");
    assert_eq!(parts[1], "now 40", "the clicked line is the current event");
    assert_eq!(
        parts[2],
        log[40]["time_ms"].to_string(),
        "the clock is at the clicked line's time"
    );
    let (from, to) = (
        parts[2].parse::<f64>().expect("time"),
        parts[3].parse::<f64>().expect("time"),
    );
    assert!(to > from, "play moved the clock: {result}");
}
