//! Riftbound runs (issue 30) keep the guarantees of runs of fights: the
//! same bytes at one and two threads and in shards, resumes that play a
//! damaged part again, and a report with a table of cards; and a worker's
//! reused showdown plays as a fresh one.

use std::path::{Path, PathBuf};

use gridsim::engine::FightRng;
use gridsim::riftbound::showdown::Showdown;
use gridsim::riftbound_runs::LoadedRiftbound;

mod common;
use common::{data_checksums, gridsim, scratch};

const SUITE: &str = "configs/riftbound/suites/default.toml";
const RUN: &str = "riftbound_default-seed20261204";

fn run(out: &Path, showdowns: &str, extra: &[&str]) -> PathBuf {
    let mut args = vec![
        "run",
        SUITE,
        "--fights",
        showdowns,
        "--out",
        out.to_str().expect("utf-8"),
    ];
    args.extend_from_slice(extra);
    let o = gridsim(&args);
    assert!(o.status.success(), "run failed: {}", String::from_utf8_lossy(&o.stderr));
    out.join(RUN)
}

#[test]
fn two_hundred_thousand_showdowns_are_the_same_bytes_at_one_and_two_threads() {
    let one = run(&scratch("rb-t1"), "200000", &["--threads", "1"]);
    let two = run(&scratch("rb-t2"), "200000", &["--threads", "2"]);
    let reference = data_checksums(std::slice::from_ref(&one));
    // The boards table of lanes and every part of the showdowns table.
    assert!(reference.iter().any(|(f, _)| f == "boards.parquet"), "{reference:?}");
    assert!(reference.iter().filter(|(f, _)| f.starts_with("showdowns-")).count() > 1);
    assert_eq!(reference, data_checksums(&[two]));
    // Two shards hold the same parts as the whole run.
    let out = scratch("rb-shards");
    let shards: Vec<PathBuf> = (0..2)
        .map(|k| {
            let shard = format!("{k}/2");
            run(&out, "200000", &["--shard", &shard]);
            out.join(format!("{RUN}-shard{k}of2"))
        })
        .collect();
    let mut parts = data_checksums(&shards);
    parts.dedup();
    assert_eq!(parts, reference);
}

#[test]
fn the_report_has_a_card_table_with_two_way_intervals() {
    let dir = run(&scratch("rb-report"), "20000", &[]);
    let out = scratch("rb-report-out");
    let o = gridsim(&[
        "report",
        dir.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join(RUN).join("summary.json")).expect("summary.json"))
            .expect("json");
    let cards = json["cards"].as_array().expect("a card table");
    let yasuo = cards.iter().find(|c| c["key"] == "yasuo").expect("a row for Yasuo");
    assert_eq!(yasuo["name"], "Yasuo", "printed names from the run's Riftbound catalog");
    let (low, high) = (
        yasuo["low"].as_f64().expect("low"),
        yasuo["high"].as_f64().expect("high"),
    );
    let rate = yasuo["win_rate"].as_f64().expect("rate");
    assert!(low < rate && rate < high, "{yasuo}");
    // Every card of the catalog held by some lane has its row; no row of a
    // card at a tier, which Riftbound does not have.
    assert!(cards.len() >= 20, "{}", cards.len());
    assert!(json["card_tiers"].as_array().is_none_or(Vec::is_empty));
    let keywords = json["keywords"].as_array().expect("keywords");
    assert!(keywords.iter().any(|k| k["key"] == "deathknell"), "{keywords:?}");
}

#[test]
fn a_resume_plays_a_damaged_part_again() {
    let reference = run(&scratch("rb-ref"), "20000", &["--part-size", "4096"]);
    let dir = run(&scratch("rb-damaged"), "20000", &["--part-size", "4096"]);
    std::fs::write(dir.join("showdowns-000002.parquet"), b"not parquet").expect("corrupt");
    let o = gridsim(&["run", "--resume", dir.to_str().expect("utf-8")]);
    let notes = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success() && notes.contains("running part 2 again"), "{notes}");
    assert_eq!(data_checksums(std::slice::from_ref(&dir)), data_checksums(&[reference]));
}

#[test]
fn a_reused_showdown_plays_as_a_fresh_one() {
    let loaded = LoadedRiftbound::load(Path::new(SUITE), None).expect("suite");
    let suite = &loaded.suite;
    let mut reused = Showdown::new(&loaded.catalog, false);
    for id in 0..500u64 {
        let (p, _) = suite.pairing(id);
        let (a, d) = (&suite.lanes[p.left as usize], &suite.lanes[p.right as usize]);
        let first = reused.play(a, d, suite.policy, &mut FightRng::for_fight(7, id));
        let mut fresh = Showdown::new(&loaded.catalog, true);
        let second = fresh.play(a, d, suite.policy, &mut FightRng::for_fight(7, id));
        assert_eq!(
            first, second,
            "showdown {id}: a reused board leaked state, or the log changed the play"
        );
        assert_eq!(first.dropped, 0);
    }
}

/// The seeded policy hides a Hidden card of the defender's hand at even
/// odds (docs/riftbound.md): over many showdowns Blinding Dart is played
/// both from Hidden (a `played` line citing RB11: "here" only) and from
/// hand (citing RB39), and the attacker, who does not hold the
/// battlefield, never hides one.
#[test]
fn the_policy_hides_the_defenders_hidden_cards_at_even_odds() {
    use gridsim::riftbound::EventKind;
    use gridsim::riftbound::showdown::{Lane, LaneUnit};
    let loaded = LoadedRiftbound::load(Path::new(SUITE), None).expect("suite");
    let catalog = &loaded.catalog;
    let dart = catalog.index("blinding_dart").expect("the catalog has Blinding Dart");
    let raider = catalog.index("cleave_raider").expect("the catalog has Cleave Raider");
    let lane = Lane {
        units: vec![LaneUnit {
            card: raider,
            gear: None,
            second_gear: None,
            stolen: false,
            at_base: false,
            buffed: false,
            ..LaneUnit::default()
        }],
        hand: vec![dart],
        ..Lane::default()
    };
    let mut showdown = Showdown::new(catalog, true);
    let (mut from_hidden, mut from_hand, mut attacker_hid) = (0, 0, 0);
    let policy = gridsim::riftbound::showdown::Policy { cast_percent: 100 };
    for id in 0..400u64 {
        showdown.play(&lane, &lane, policy, &mut FightRng::for_fight(11, id));
        for e in &showdown.board.log {
            if e.kind == EventKind::Played && e.amount == i32::from(dart) {
                match e.ruling {
                    "RB11" => from_hidden += 1,
                    "RB39" => from_hand += 1,
                    other => panic!("Blinding Dart played citing {other}"),
                }
            }
        }
        attacker_hid += showdown.board.hidden_len[0];
    }
    assert_eq!(attacker_hid, 0, "the attacker holds no battlefield to hide at");
    // Each showdown plays the defender's Dart once, from one place or the
    // other (the attacker's from hand); even odds put each near 200.
    assert!((140..=260).contains(&from_hidden), "from Hidden {from_hidden} of 400");
    assert!(from_hand > from_hidden, "from hand {from_hand}: both sides' Darts");
}

#[test]
fn one_showdown_is_a_log_and_a_page() {
    let dir = scratch("rb-page");
    let page = dir.join("showdown.html");
    let o = gridsim(&["showdown", SUITE, "--id", "3", "--html", page.to_str().expect("utf-8")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    // Both lanes, then one line per event citing its ruling, then the end.
    assert!(text.contains("attacker: ") && text.contains("defender: "), "{text}");
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_end().ends_with(')') && l.contains("(RB"))
        .collect();
    assert!(lines.len() >= 5, "{text}");
    assert!(lines.iter().any(|l| l.contains("role_assigned")), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("conquer:") || l.starts_with("hold:") || l.starts_with("empty:")),
        "{text}"
    );
    // The page shows the same log, a row per line, and the result.
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(html.starts_with("<!doctype html>"), "{html}");
    assert_eq!(html.matches("<tr class=").count(), lines.len(), "{html}");
    assert!(html.contains("id=\"result\""));
    // The same showdown again: the same bytes.
    let again = gridsim(&["showdown", SUITE, "--id", "3"]);
    let again = String::from_utf8_lossy(&again.stdout).to_string();
    assert!(text.starts_with(again.trim_end_matches('\n').lines().next().expect("title")));
    assert_eq!(
        text.lines().filter(|l| !l.starts_with("page: ")).collect::<Vec<_>>(),
        again.lines().collect::<Vec<_>>()
    );
}
