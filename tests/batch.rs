//! The batch runner's guarantees: thread count, shards and interruptions
//! never change the data; bad run directories are named, never trusted.

use std::path::{Path, PathBuf};
use std::process::Command;

use gridsim::dataset::Manifest;
use gridsim::report::ReportSettings;
use gridsim::runs;

mod common;
use common::{gridsim, scratch};

fn run(out: &Path, extra: &[&str]) -> PathBuf {
    let mut args = vec![
        "run",
        "tests/suites/two_boards.toml",
        "--out",
        out.to_str().expect("utf-8"),
        "--part-size",
        "500",
    ];
    args.extend_from_slice(extra);
    let o = gridsim(&args);
    assert!(o.status.success(), "run failed: {}", String::from_utf8_lossy(&o.stderr));
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(out)
        .expect("out")
        .flatten()
        .map(|e| e.path())
        .collect();
    dirs.sort();
    dirs.pop().expect("a run directory")
}

/// (file name, sha256) of every finished file, in part order.
fn checksums(dir: &Path) -> Vec<(String, String)> {
    let m = Manifest::read(dir).expect("manifest");
    assert!(m.complete, "{} is not complete", dir.display());
    let mut out: Vec<(String, String)> = m.files().iter().map(|f| (f.path.clone(), f.sha256.clone())).collect();
    out.sort();
    out
}

#[test]
fn one_thread_and_two_threads_write_identical_rows() {
    let a = run(&scratch("t1"), &["--fights", "3000", "--threads", "1"]);
    let b = run(&scratch("t2"), &["--fights", "3000", "--threads", "2"]);
    let (ca, cb) = (checksums(&a), checksums(&b));
    let data = ca.iter().filter(|(p, _)| !p.starts_with("inputs/")).count();
    assert_eq!(data, 1 + 2 * 6, "boards plus 6 parts of fights and units");
    assert_eq!(ca, cb, "the same suite and seed must give byte-identical files");
}

fn report_json(dirs: &[PathBuf]) -> serde_json::Value {
    let r = runs::report_of(dirs, &ReportSettings::default()).expect("report");
    let mut v = serde_json::to_value(&r).expect("json");
    v["runs"] = serde_json::Value::Null;
    v
}

#[test]
fn shards_reported_together_match_one_unsharded_run() {
    let whole = run(&scratch("whole"), &["--fights", "4000"]);
    let out = scratch("shards");
    let shards: Vec<PathBuf> = (0..3)
        .map(|k| {
            let o = gridsim(&[
                "run",
                "tests/suites/two_boards.toml",
                "--out",
                out.to_str().expect("utf-8"),
                "--part-size",
                "500",
                "--fights",
                "4000",
                "--shard",
                &format!("{k}/3"),
            ]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            out.join(format!("two_boards-seed1-shard{k}of3"))
        })
        .collect();
    assert_eq!(report_json(&shards), report_json(std::slice::from_ref(&whole)));
    // Fight rows are the same files too.
    let mut sharded: Vec<(String, String)> = shards
        .iter()
        .flat_map(|d| checksums(d))
        .filter(|(p, _)| p != "boards.parquet" && !p.starts_with("inputs/"))
        .collect();
    sharded.sort();
    let single: Vec<(String, String)> = checksums(&whole)
        .into_iter()
        .filter(|(p, _)| p != "boards.parquet" && !p.starts_with("inputs/"))
        .collect();
    assert_eq!(sharded, single);
}

#[test]
fn a_killed_run_resumed_matches_an_uninterrupted_one() {
    let reference = run(&scratch("uninterrupted"), &["--fights", "120000", "--threads", "2"]);
    let out = scratch("killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gridsim"))
        .args([
            "run",
            "tests/suites/two_boards.toml",
            "--out",
            out.to_str().expect("utf-8"),
            "--part-size",
            "500",
            "--fights",
            "120000",
            "--threads",
            "2",
        ])
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    let dir = out.join("two_boards-seed1");
    // Wait for a few finished parts, then kill it mid-run.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let parts = Manifest::read(&dir).map(|m| m.parts.len()).unwrap_or(0);
        if parts >= 3 || std::time::Instant::now() > deadline {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().expect("kill");
    let _ = child.wait();
    let before = Manifest::read(&dir).expect("manifest survives the kill");
    assert!(
        !before.complete,
        "the run should have been interrupted; raise --fights if this machine is too fast"
    );
    let o = gridsim(&["run", "--resume", dir.to_str().expect("utf-8")]);
    assert!(
        o.status.success(),
        "resume failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(checksums(&dir), checksums(&reference));
}

#[test]
fn missing_corrupt_and_foreign_files_are_named() {
    let dir = run(&scratch("damaged"), &["--fights", "1500"]);
    let d = dir.to_str().expect("utf-8");
    let report = |dirs: &[&str]| {
        let mut args = vec!["report", "--out"];
        let out = scratch("damaged-report");
        let out = out.to_str().expect("utf-8").to_string();
        args.push(&out);
        args.extend_from_slice(dirs);
        let o = gridsim(&args);
        (o.status.success(), String::from_utf8_lossy(&o.stderr).into_owned())
    };
    assert!(report(&[d]).0, "an intact run reports");

    // Foreign file.
    let foreign = dir.join("notes.txt");
    std::fs::write(&foreign, "hello").expect("write");
    let (ok, err) = report(&[d]);
    assert!(
        !ok && err.contains("notes.txt") && err.contains("does not list"),
        "{err}"
    );
    std::fs::remove_file(&foreign).expect("rm");

    // Corrupt part, one byte changed: a fights part stops the report; a
    // units part, which the report does not read, stops `gridsim verify`.
    let verify = || {
        let o = gridsim(&["verify", d]);
        (o.status.success(), String::from_utf8_lossy(&o.stderr).into_owned())
    };
    assert!(verify().0, "an intact run verifies");
    for table in ["fights", "units"] {
        let name = format!("{table}-000001.parquet");
        let part = dir.join(&name);
        let original = std::fs::read(&part).expect("read");
        let mut bytes = original.clone();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0xff;
        std::fs::write(&part, &bytes).expect("write");
        let (ok, err) = verify();
        assert!(!ok && err.contains(&name) && err.contains("corrupt"), "{err}");
        let (ok, err) = report(&[d]);
        if table == "fights" {
            assert!(!ok && err.contains(&name) && err.contains("corrupt"), "{err}");
        } else {
            assert!(ok, "the report reads no units part: {err}");
        }
        std::fs::write(&part, &original).expect("restore");
    }

    // Missing part.
    let gone = dir.join("fights-000002.parquet");
    let kept = std::fs::read(&gone).expect("read");
    std::fs::remove_file(&gone).expect("rm");
    let (ok, err) = report(&[d]);
    assert!(
        !ok && err.contains("fights-000002.parquet") && err.contains("missing"),
        "{err}"
    );
    std::fs::write(&gone, kept).expect("restore");

    // A second run into the same place is refused rather than overwriting.
    let o = gridsim(&[
        "run",
        "tests/suites/two_boards.toml",
        "--out",
        dir.parent().and_then(Path::to_str).expect("utf-8"),
        "--fights",
        "1500",
    ]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("already holds a run"));
}

#[test]
fn a_resume_runs_missing_and_corrupt_parts_again_and_refuses_what_it_cannot_regenerate() {
    // Parts are deterministic, so a damaged part is regenerated, not refused.
    let dir = run(&scratch("regenerate"), &["--fights", "1500"]);
    let d = dir.to_str().expect("utf-8");
    let intact = checksums(&dir);
    let part = dir.join("units-000001.parquet");
    let mut bytes = std::fs::read(&part).expect("read");
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    std::fs::write(&part, &bytes).expect("write");
    std::fs::remove_file(dir.join("fights-000002.parquet")).expect("rm");
    let o = gridsim(&["run", "--resume", d]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("units-000001.parquet") && err.contains("running part 1 again"),
        "{err}"
    );
    assert!(
        err.contains("fights-000002.parquet") && err.contains("running part 2 again"),
        "{err}"
    );
    assert_eq!(checksums(&dir), intact, "the regenerated parts are byte-identical");

    // Stopped after a part's files were renamed into place but before the
    // manifest recorded them: the files are the run's own, written again.
    let mut m = Manifest::read(&dir).expect("manifest");
    m.parts.retain(|p| p.index != 2);
    m.complete = false;
    m.write(&dir).expect("manifest without part 2");
    let o = gridsim(&["run", "--resume", d]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("fights-000002.parquet") && err.contains("not recorded"),
        "{err}"
    );
    assert_eq!(checksums(&dir), intact);

    // The run's copy of its inputs cannot be regenerated: refused, named.
    let rules = dir.join("inputs/rules.toml");
    let text = std::fs::read_to_string(&rules).expect("rules copy");
    std::fs::write(&rules, text.replace("value = 120000", "value = 90000")).expect("write");
    let o = gridsim(&["run", "--resume", d]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "a damaged input copy is refused");
    assert!(
        err.contains("inputs/rules.toml") && err.contains("cannot be regenerated"),
        "{err}"
    );
}

#[test]
fn replay_and_resume_work_from_any_directory() {
    // The run directory keeps its own rules, cards and suite.
    let dir = run(&scratch("anywhere"), &["--fights", "1200"]);
    let elsewhere = scratch("anywhere-cwd");
    let o = Command::new(env!("CARGO_BIN_EXE_gridsim"))
        .current_dir(&elsewhere)
        .args(["replay", dir.to_str().expect("utf-8"), "777"])
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::remove_file(dir.join("fights-000001.parquet")).expect("rm");
    let o = Command::new(env!("CARGO_BIN_EXE_gridsim"))
        .current_dir(&elsewhere)
        .args(["run", "--resume", dir.to_str().expect("utf-8")])
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn shards_of_different_rules_are_not_merged() {
    let out = scratch("rules-shards");
    let rules = out.join("rules.toml");
    let text = std::fs::read_to_string("configs/rules.toml").expect("rules");
    std::fs::write(&rules, text.replace("value = 120000", "value = 90000")).expect("write");
    let shard = |k: u32, rules: &str| {
        let o = gridsim(&[
            "--rules",
            rules,
            "run",
            "tests/suites/two_boards.toml",
            "--out",
            out.to_str().expect("utf-8"),
            "--fights",
            "1000",
            "--part-size",
            "500",
            "--shard",
            &format!("{k}/2"),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        out.join(format!("two_boards-seed1-shard{k}of2"))
    };
    let a = shard(0, "configs/rules.toml");
    let b = shard(1, rules.to_str().expect("utf-8"));
    let err = runs::report_of(&[a, b], &ReportSettings::default()).expect_err("refused");
    assert!(
        err.contains("not a shard of the same run") && err.contains("rules (SHA-256)"),
        "{err}"
    );
}

#[test]
fn replay_reproduces_the_recorded_fight() {
    let dir = run(&scratch("replay"), &["--fights", "1200"]);
    for id in ["0", "777", "1199"] {
        let o = gridsim(&["replay", dir.to_str().expect("utf-8"), id, "--log"]);
        assert!(o.status.success(), "fight {id}: {}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains("result:") && text.contains("log:"), "{text}");
    }
    let o = gridsim(&["replay", dir.to_str().expect("utf-8"), "5000"]);
    assert!(!o.status.success(), "a fight outside the run is an error");
    // The replayed fight's page carries that fight (the page's behaviour
    // in a browser is tests/page.rs).
    let page = dir.join("fight-777.html");
    let o = gridsim(&[
        "replay",
        dir.to_str().expect("utf-8"),
        "777",
        "--json",
        "--html",
        page.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let fight: serde_json::Value = serde_json::from_slice(&o.stdout).expect("fight JSON");
    let text = std::fs::read_to_string(&page).expect("the page is written");
    let data = text
        .split("<script type=\"application/json\" id=\"fight-data\">")
        .nth(1)
        .and_then(|rest| rest.split("</script>").next())
        .expect("the page's data");
    let data: serde_json::Value = serde_json::from_str(data).expect("the page's data is JSON");
    assert_eq!(data["fight"], 777);
    assert_eq!(data["winner"], fight["winner"]);
    assert_eq!(data["end_ms"], fight["end_ms"]);
    assert_eq!(
        data["events"].as_array().map(Vec::len),
        fight["log"].as_array().map(Vec::len),
        "every event of the log is on the page"
    );
}

#[test]
fn report_writes_three_files_and_alarms_on_outliers() {
    // Two boards cannot make an outlier, however lopsided their fights:
    // an item on one board is not ranked (too few boards), so no alarm.
    let two = run(&scratch("two-boards"), &["--fights", "4000"]);
    let out = scratch("two-boards-report");
    let o = gridsim(&[
        "report",
        two.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
        "--alarm",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));

    // The default suite on the frozen catalog (tests/fixtures/catalog, whose
    // numbers tuning configs/ does not move): anvil_tool at tier 1 loses on
    // the boards that hold it, well beyond noise.
    let field = scratch("alarm");
    let o = gridsim(&[
        "run",
        "--fights",
        "20000",
        "--part-size",
        "5000",
        "--out",
        field.to_str().expect("utf-8"),
        "--cards",
        gridsim::scenario::CATALOG_DIR,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let dir = std::fs::read_dir(&field)
        .expect("out")
        .flatten()
        .next()
        .expect("run dir")
        .path();
    let out = scratch("alarm-report");
    let args = |alarm: bool| {
        let mut a = vec![
            "report".to_string(),
            dir.to_str().expect("utf-8").into(),
            "--out".into(),
            out.to_str().expect("utf-8").into(),
        ];
        if alarm {
            a.push("--alarm".into());
        }
        a
    };
    let plain = Command::new(env!("CARGO_BIN_EXE_gridsim"))
        .args(args(false))
        .output()
        .expect("runs");
    assert!(plain.status.success(), "{}", String::from_utf8_lossy(&plain.stderr));
    let page = out.join(dir.file_name().expect("name"));
    for f in ["index.html", "summary.md", "summary.json"] {
        assert!(page.join(f).exists(), "{f} missing");
    }
    let html = std::fs::read_to_string(page.join("index.html")).expect("html");
    assert!(
        html.contains("<svg") && html.contains("Outliers"),
        "charts are inline SVG"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(page.join("summary.json")).expect("json")).expect("valid");
    // The rune table has a row for every rune of the catalog, the boss
    // Reflect rune included (a boss carries it itself, 900.26d, and the
    // default suite leads some boards with a boss); the card table has the
    // bosses and Hubs it draws.
    let runes = rune_ids(&std::fs::read_to_string("configs/runes/runes.toml").expect("runes"));
    let frozen = rune_ids(&std::fs::read_to_string("tests/fixtures/catalog/runes.toml").expect("runes"));
    assert_eq!(runes, frozen, "the frozen catalog has the live catalog's runes");
    let listed = json["runes"].as_array().expect("runes");
    assert!(runes.len() >= 14 && runes.iter().any(|r| r == "boss_reflect"));
    for id in &runes {
        let row = listed.iter().find(|r| r["key"] == id.as_str());
        assert!(
            row.is_some_and(|r| r["boards"].as_u64().expect("boards") > 0),
            "rune {id} has no row with boards in the default suite's report"
        );
        assert!(html.contains(id.as_str()), "rune {id} is not on the page");
    }
    for card in ["tide_leviathan", "iron_warlord", "ledger_hub", "exchange_hub"] {
        assert!(
            json["cards"]
                .as_array()
                .expect("cards")
                .iter()
                .any(|r| r["key"] == card),
            "{card} is never drawn"
        );
    }
    // Each outlier is listed with its numbers, direction and sample.
    let outliers = json["outliers"].as_array().expect("outliers");
    let anvil = outliers
        .iter()
        .find(|o| o["section"] == "card and tier" && o["key"] == "anvil_tool t1")
        .expect("anvil_tool t1 flagged");
    assert_eq!(anvil["direction"], "below");
    assert!(anvil["high"].as_f64().expect("high") < 0.45 && anvil["boards"].as_u64().expect("boards") >= 5);
    assert!(
        std::fs::read_to_string(page.join("summary.md"))
            .expect("md")
            .contains("anvil_tool t1")
    );
    let alarmed = Command::new(env!("CARGO_BIN_EXE_gridsim"))
        .args(args(true))
        .output()
        .expect("runs");
    assert_eq!(alarmed.status.code(), Some(3));
}

/// The tallies the old in-memory query gave: per matchup, and per board as
/// the union of a left and a right selection. The streamed tallies must
/// equal them.
fn in_memory_tallies(files: &[PathBuf]) -> (Vec<[u64; 6]>, Vec<[u64; 4]>) {
    use polars::prelude::*;
    let frames: Vec<LazyFrame> = files
        .iter()
        .map(|f| {
            let path = PlRefPath::try_from_path(f).expect("path");
            LazyFrame::scan_parquet(path, ScanArgsParquet::default()).expect("scan")
        })
        .collect();
    let fights = concat(frames, UnionArgs::default()).expect("concat");
    let win = |side: &str| col("winner").eq(lit(side.to_string())).cast(DataType::UInt64);
    let rows = |df: DataFrame| -> Vec<Vec<u64>> {
        let columns: Vec<Vec<u64>> = df
            .columns()
            .iter()
            .map(|c| {
                let s = c.as_materialized_series().cast(&DataType::UInt64).expect("cast");
                s.u64().expect("u64").into_no_null_iter().collect()
            })
            .collect();
        (0..df.height())
            .map(|i| columns.iter().map(|c| c[i]).collect())
            .collect()
    };
    let matchups = fights
        .clone()
        .group_by([col("left_board"), col("right_board")])
        .agg([
            len().alias("n"),
            win("left").sum().alias("lw"),
            win("right").sum().alias("rw"),
            win("draw").sum().alias("d"),
        ])
        .sort(["left_board", "right_board"], SortMultipleOptions::default())
        .collect()
        .expect("matchups");
    let side = |board: &str, me: &str| {
        fights
            .clone()
            .select([col(board).alias("board_id"), win(me).alias("w"), win("draw").alias("d")])
    };
    let boards = concat(
        [side("left_board", "left"), side("right_board", "right")],
        UnionArgs::default(),
    )
    .expect("union")
    .group_by([col("board_id")])
    .agg([len().alias("n"), col("w").sum(), col("d").sum()])
    .sort(["board_id"], SortMultipleOptions::default())
    .collect()
    .expect("boards");
    (
        rows(matchups)
            .into_iter()
            .map(|r| [r[0], r[1], r[2], r[3], r[4], r[5]])
            .collect(),
        rows(boards).into_iter().map(|r| [r[0], r[1], r[2], r[3]]).collect(),
    )
}

/// Pairs of boards merged over both orders, the lower board first, as the
/// blocks hold them.
fn unordered(rows: Vec<[u64; 6]>) -> Vec<[u64; 6]> {
    let mut merged: std::collections::BTreeMap<(u64, u64), [u64; 6]> = Default::default();
    for [l, r, n, lw, rw, d] in rows {
        let (l, r, lw, rw) = if l <= r { (l, r, lw, rw) } else { (r, l, rw, lw) };
        let m = merged.entry((l, r)).or_insert([l, r, 0, 0, 0, 0]);
        for (total, add) in m[2..].iter_mut().zip([n, lw, rw, d]) {
            *total += add;
        }
    }
    merged.into_values().collect()
}

/// The streamed tallies, with the run said to hold `fights` fights (which
/// only sizes the blocks: a huge claim puts them on disk).
fn streamed_tallies_sized(files: &[PathBuf], fights: u64) -> (Vec<[u64; 6]>, Vec<[u64; 4]>) {
    let t = gridsim::analysis::tally(files, fights, 200).expect("tally");
    let mut matchups = Vec::new();
    t.pairs
        .each_pair(|m| {
            let (l, r) = (u64::from(m.left), u64::from(m.right));
            matchups.push([l, r, m.fights, m.left_wins, m.right_wins, m.draws]);
        })
        .expect("blocks");
    let boards = t
        .boards
        .iter()
        .map(|b| [u64::from(b.board_id), b.fights, b.wins, b.draws])
        .collect();
    assert_eq!(t.fights, matchups.iter().map(|m| m[2]).sum::<u64>());
    (matchups, boards)
}

fn streamed_tallies(files: &[PathBuf]) -> (Vec<[u64; 6]>, Vec<[u64; 4]>) {
    let small = streamed_tallies_sized(files, 1);
    assert_eq!(
        streamed_tallies_sized(files, 1 << 34),
        small,
        "blocks on disk tally as one block in memory"
    );
    small
}

/// A run of the default suite in parts of 6,000 fights: its folder, its
/// manifest and its fights files.
fn default_run(name: &str, fights: &str) -> (PathBuf, Manifest, Vec<PathBuf>) {
    let out = scratch(name);
    let o = gridsim(&[
        "run",
        "configs/suites/default.toml",
        "--out",
        out.to_str().expect("utf-8"),
        "--fights",
        fights,
        "--part-size",
        "6000",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let dir = out.join("default-seed20261129");
    let m = Manifest::read(&dir).expect("manifest");
    let files: Vec<PathBuf> = m.parts.iter().map(|p| dir.join(&p.files[0].path)).collect();
    (dir, m, files)
}

#[test]
fn streamed_tallies_equal_the_in_memory_query_with_more_matchups_than_polars_keeps_hot() {
    // The default suite's 120 boards make 14,400 matchups: more groups than
    // polars' streaming group-by keeps in its hot table (4,096).
    let (_, _, files) = default_run("many-matchups", "40000");
    let (matchups, boards) = streamed_tallies(&files);
    assert!(matchups.len() > 4096, "{} matchups", matchups.len());
    assert_eq!(matchups.iter().map(|m| m[2]).sum::<u64>(), 40_000);
    let (query_matchups, query_boards) = in_memory_tallies(&files);
    assert_eq!((matchups, boards), (unordered(query_matchups), query_boards));
}

#[test]
fn tallies_count_odd_rows_as_the_in_memory_query_does() {
    use polars::prelude::*;
    // Rows gridsim never writes: board ids past the dense grid, a board
    // against itself, a winner that is no outcome, no winner at all.
    let dir = scratch("odd-rows");
    let path = dir.join("fights-000000.parquet");
    let mut df = DataFrame::new_infer_height(vec![
        Column::new("left_board".into(), [0u32, 0, 5000, 5000, 7, 7, 7]),
        Column::new("right_board".into(), [1u32, 1, 2, 2, 7, 7, 1]),
        Column::new(
            "winner".into(),
            [
                Some("left"),
                Some("draw"),
                Some("right"),
                Some("nobody"),
                Some("left"),
                None,
                Some("right"),
            ],
        ),
    ])
    .expect("frame");
    let file = std::fs::File::create(&path).expect("create");
    ParquetWriter::new(file).finish(&mut df).expect("write");
    let files = vec![path];
    let (matchups, boards) = streamed_tallies(&files);
    assert_eq!(
        matchups,
        // Merged over both orders of a pair, the lower board's wins first.
        vec![
            [0, 1, 2, 1, 0, 1],
            [1, 7, 1, 1, 0, 0],
            [2, 5000, 2, 1, 0, 0],
            [7, 7, 2, 1, 0, 0]
        ]
    );
    // Board 7 met itself twice: two fights on each side, its one win counted
    // once (on the left), as the union of a left and a right selection does.
    assert_eq!(
        boards,
        vec![[0, 2, 1, 1], [1, 3, 1, 1], [2, 2, 1, 0], [7, 5, 1, 0], [5000, 2, 0, 0]]
    );
    let (query_matchups, query_boards) = in_memory_tallies(&files);
    assert_eq!((matchups, boards), (unordered(query_matchups), query_boards));
}

#[test]
fn a_run_in_a_folder_whose_name_looks_like_a_pattern_reports() {
    // The report reads exactly the files the manifest lists: `[` and `*` in
    // a folder's name are characters, not a pattern to expand.
    let out = scratch("pattern").join("runs [v2] *");
    let dir = run(&out, &["--fights", "1500"]);
    let plain = run(&scratch("pattern-plain"), &["--fights", "1500"]);
    assert_eq!(report_json(&[dir]), report_json(&[plain]));
}

/// The ids of the `[[rune]]` tables of a rune file (not its resonances).
fn rune_ids(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_rune = false;
    for line in text.lines() {
        if line.starts_with("[[") {
            in_rune = line.trim() == "[[rune]]";
        } else if in_rune && let Some(id) = line.strip_prefix("id = ") {
            out.push(id.trim_matches('"').to_string());
        }
    }
    out
}

/// The report built from a run's pairs in one block in memory and in many
/// blocks on disk (`pair_blocks`): every count and text the same, every
/// number the same to rounding (the rates' sums are integers; the fit's are
/// added block by block). The misreading caught: a pair counted in
/// both blocks it touches, or a board's fights split across blocks.
#[test]
fn the_report_is_the_same_however_the_pairs_are_blocked() {
    let (dir, m, files) = default_run("blocked-report", "20000");
    let boards_file = m.boards_file.as_ref().expect("boards table");
    let rows = gridsim::sink::read_boards(&dir.join(&boards_file.path)).expect("boards");
    let table = gridsim::board_table::BoardTable::from_rows(&rows);
    let report = |claimed: u64| {
        let t = gridsim::analysis::tally(&files, claimed, rows.len() as u32).expect("tally");
        let blocks = t.pairs.count();
        let r = gridsim::report::build(vec!["run".into()], &t, &table, &ReportSettings::default()).expect("report");
        (blocks, serde_json::to_value(&r).expect("json"))
    };
    let (one, single) = report(20_000);
    let (many, blocked) = report(20 * gridsim::pair_blocks::FIGHTS_PER_BLOCK);
    assert_eq!((one, many), (1, 20));
    fn same(a: &serde_json::Value, b: &serde_json::Value, path: &str) {
        use serde_json::Value;
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                assert_eq!(x.len(), y.len(), "{path}");
                for (k, v) in x {
                    same(v, &y[k], &format!("{path}.{k}"));
                }
            }
            (Value::Array(x), Value::Array(y)) => {
                assert_eq!(x.len(), y.len(), "{path}");
                for (i, (v, w)) in x.iter().zip(y).enumerate() {
                    same(v, w, &format!("{path}[{i}]"));
                }
            }
            (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
                let (x, y) = (x.as_f64().expect("number"), y.as_f64().expect("number"));
                assert!((x - y).abs() <= 1e-9 * (1.0 + x.abs()), "{path}: {x} against {y}");
            }
            _ => assert_eq!(a, b, "{path}"),
        }
    }
    same(&single, &blocked, "report");
}

/// A report saves its tallies in the run directory (`tallies.bin`), which
/// `gridsim verify` accepts as the run's own; the next report of the run,
/// or one comparing with it, reads them instead of the fights; tallies
/// saved from other fights are never read as this run's. The misreadings
/// caught: a saved file the audit calls foreign; a baseline tallied from
/// the fights again; another run's tallies (copied in, or left by a run
/// since resumed with more parts) trusted.
#[test]
fn a_report_reads_the_tallies_it_saved_and_no_others() {
    use gridsim::pair_blocks::PairBlocks;
    let (dir, _, _) = default_run("saved-tallies", "5000");
    let (other, _, _) = default_run("saved-tallies-other", "4000");
    let saved = dir.join(gridsim::dataset::SAVED_TALLIES);
    assert!(!saved.exists());
    let first = report_json(std::slice::from_ref(&dir));
    assert!(saved.exists(), "the report saves its tallies");
    let o = gridsim(&["verify", dir.to_str().expect("utf-8")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        report_json(std::slice::from_ref(&dir)),
        first,
        "read back, the same report"
    );

    // Saved tallies under this run's key are what the report reads: keep
    // only the first pair and the report counts its fights alone.
    let m = Manifest::read(&dir).expect("manifest");
    let key = gridsim::runs::saved_tallies_key(&[(dir.clone(), m)]);
    let blocks = PairBlocks::open(&saved, &key)
        .expect("read")
        .expect("saved under the run's key");
    let pairs = blocks.block(0).expect("block").pairs.into_owned();
    assert!(pairs.len() > 1);
    let kept = PairBlocks::single(pairs[..1].iter().copied());
    kept.save(&saved, &key).expect("saved");
    let cut = report_json(std::slice::from_ref(&dir));
    assert_eq!(cut["fights"].as_u64(), Some(pairs[0].fights));

    // Another run's saved tallies copied in are not this run's: the report
    // tallies the fights again, and saves them over the copy.
    report_json(std::slice::from_ref(&other));
    std::fs::copy(other.join(gridsim::dataset::SAVED_TALLIES), &saved).expect("copy");
    assert_eq!(report_json(std::slice::from_ref(&dir)), first);
    assert_eq!(report_json(std::slice::from_ref(&dir)), first);
}
