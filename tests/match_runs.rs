//! Match runs (section 200) keep the guarantees of runs of fights: the same
//! bytes at any thread count and shard layout, resumes that play damaged
//! parts again, replays that reproduce a recorded match from anywhere; and
//! the match report counts what the matches did.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gridsim::matches::Event;
use gridsim::report::ReportSettings;
use gridsim::runs::RunInputs;

mod common;
use common::{data_checksums, gridsim, scratch};

const SUITE: &str = "configs/matches/solo.toml";
const MATCHES: &str = "300";

/// Plays a match run of `MATCHES` matches in parts of 64 under `out`, and
/// returns its run directory.
fn match_run(out: &Path, extra: &[&str]) -> PathBuf {
    let mut args = vec![
        "match",
        SUITE,
        "--matches",
        MATCHES,
        "--part-size",
        "64",
        "--out",
        out.to_str().expect("utf-8"),
    ];
    args.extend_from_slice(extra);
    let o = gridsim(&args);
    assert!(
        o.status.success(),
        "match run failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    out.join("solo-seed20261201")
}

#[test]
fn threads_and_shards_never_change_the_tables() {
    let one = match_run(&scratch("m-t1"), &["--threads", "1"]);
    let two = match_run(&scratch("m-t2"), &["--threads", "2"]);
    let reference = data_checksums(std::slice::from_ref(&one));
    // 300 matches in parts of 64: 5 parts of four tables each.
    assert_eq!(reference.len(), 5 * 4);
    assert_eq!(reference, data_checksums(&[two]));
    let out = scratch("m-shards");
    let shards: Vec<PathBuf> = (0..2)
        .map(|k| {
            let shard = format!("{k}/2");
            let o = gridsim(&[
                "match",
                SUITE,
                "--matches",
                MATCHES,
                "--part-size",
                "64",
                "--out",
                out.to_str().expect("utf-8"),
                "--shard",
                &shard,
            ]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            out.join(format!("solo-seed20261201-shard{k}of2"))
        })
        .collect();
    assert_eq!(data_checksums(&shards), reference);
    // The report of the shards is the report of the whole run.
    let json = |dirs: &[PathBuf]| {
        let r = gridsim::match_runs::report_of(dirs, &ReportSettings::default()).expect("match report");
        let mut v = serde_json::to_value(&r).expect("json");
        v["runs"] = serde_json::Value::Null;
        v
    };
    assert_eq!(json(&shards), json(std::slice::from_ref(&one)));
}

#[test]
fn a_resume_plays_missing_and_corrupt_parts_again() {
    let reference = match_run(&scratch("m-reference"), &[]);
    let dir = match_run(&scratch("m-damaged"), &[]);
    std::fs::remove_file(dir.join("rounds-000001.parquet")).expect("remove");
    std::fs::write(dir.join("shop_picks-000003.parquet"), b"not parquet").expect("corrupt");
    std::fs::write(dir.join("matches-000004.parquet.tmp"), b"half").expect("leftover");
    let o = gridsim(&["match", "--resume", dir.to_str().expect("utf-8")]);
    let notes = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "resume failed: {notes}");
    assert!(
        notes.contains("running part 1 again") && notes.contains("running part 3 again"),
        "{notes}"
    );
    assert_eq!(data_checksums(std::slice::from_ref(&dir)), data_checksums(&[reference]));
    // A run of matches is resumed by its own command.
    let o = gridsim(&["run", "--resume", dir.to_str().expect("utf-8")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("gridsim match --resume"), "{err}");
}

#[test]
fn replay_reproduces_a_recorded_match_from_any_directory() {
    let dir = match_run(&scratch("m-replay"), &[]);
    let elsewhere = scratch("m-elsewhere");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gridsim"))
        .current_dir(&elsewhere)
        .args(["replay", dir.to_str().expect("utf-8"), "200"])
        .output()
        .expect("replay");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Ten rounds (200.1), one line each for the solo player, then the match.
    assert_eq!(text.lines().filter(|l| l.starts_with("round ")).count(), 10, "{text}");
    assert!(text.contains("match 200 seat 0:"), "{text}");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gridsim"))
        .current_dir(&elsewhere)
        .args(["replay", dir.to_str().expect("utf-8"), "200", "--log"])
        .output()
        .expect("replay --log");
    let log = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && log.contains("[200.1]") && log.contains("bosses cleared"),
        "{log}"
    );
}

/// Per card on the board that fought the last round's boss: (players,
/// wins); per card offered when the player could pay for and place it:
/// (offered, bought); per bot: (players, wins, combined, tier 3 on the
/// final board); and per card probed: (probes, sum of the result with it
/// less the result without it); counted from the match logs of the same
/// suite played in memory, its seed matches left out.
type Counts = (
    BTreeMap<String, (u64, u64)>,
    BTreeMap<String, (u64, u64)>,
    BTreeMap<String, (u64, u64, u64, u64)>,
    BTreeMap<String, (u64, f64)>,
);

fn counted_in_memory(matches: u64) -> Counts {
    let mut loaded = gridsim::match_runs::LoadedMatches::from_files(
        Path::new("configs/rules.toml"),
        &[PathBuf::from("configs/cards"), PathBuf::from("configs/runes")],
        Path::new(SUITE),
    )
    .expect("suite loads");
    loaded.suite.matches = matches;
    let ctx = loaded.ctx();
    let pool = gridsim::match_runs::ghost_pool(&ctx, 2).expect("pool");
    let seeds = ctx.suite.pool_matches;
    let results = gridsim::batch::play_matches(&ctx, &pool, seeds, matches - seeds, 2).expect("rest");
    let (mut boards, mut picks, mut bots, mut effects): Counts = Default::default();
    let score = |w: &str| match w {
        "player" => 1.0,
        "draw" => 0.5,
        _ => 0.0,
    };
    for r in &results {
        let bot = bots
            .entry(ctx.suite.policy_of(r.index, 0).name().to_string())
            .or_default();
        bot.0 += 1;
        bot.1 += u64::from(r.won);
        bot.2 += u64::from(r.events.iter().any(|e| {
            matches!(
                e,
                Event::Bought {
                    combined_to: Some(_),
                    ..
                }
            )
        }));
        bot.3 += u64::from(r.final_boards[0].units.iter().any(|u| u.tier >= 3));
        // The board as it fought the deciding fight, the last boss fight.
        let mut held: Vec<String> = r
            .events
            .iter()
            .rev()
            .find_map(|e| match e {
                Event::Fight {
                    stage: gridsim::matches::Stage::Boss,
                    board,
                    ..
                } => Some(board.cards.clone()),
                _ => None,
            })
            .expect("a boss fight every round");
        held.sort();
        held.dedup();
        for card in held {
            let e = boards.entry(card).or_default();
            e.0 += 1;
            e.1 += u64::from(r.won);
        }
        let mut open: Vec<(String, u8)> = Vec::new();
        for e in &r.events {
            match e {
                Event::Offers {
                    units,
                    unit_tiers,
                    buyable,
                    ..
                } => {
                    // Units come first among the offers.
                    open = units
                        .iter()
                        .zip(unit_tiers)
                        .zip(buyable)
                        .filter(|(_, b)| **b)
                        .map(|((u, t), _)| (u.clone(), *t))
                        .collect();
                    for (u, _) in &open {
                        picks.entry(u.clone()).or_default().0 += 1;
                    }
                }
                Event::Probe {
                    source: "offer",
                    kind: "unit",
                    item,
                    with_it,
                    without_it,
                    ..
                } => {
                    let e = effects.entry(item.clone()).or_default();
                    e.0 += 1;
                    e.1 += score(with_it) - score(without_it);
                }
                Event::Bought {
                    item,
                    kind: "unit",
                    tier,
                    buyback: false,
                    ..
                } => {
                    // A purchase counts against its offer when that offer
                    // was open (one copy per open offer).
                    if let Some(k) = open.iter().position(|(u, t)| u == item && t == tier) {
                        open.remove(k);
                        picks.entry(item.clone()).or_default().1 += 1;
                    }
                }
                _ => {}
            }
        }
    }
    (boards, picks, bots, effects)
}

#[test]
fn the_match_report_counts_what_the_matches_did() {
    let dir = match_run(&scratch("m-report"), &[]);
    let report = gridsim::match_runs::report_of(&[dir], &ReportSettings::default()).expect("report");
    let (boards, picks, bots, effects) = counted_in_memory(300);
    // The suite's 64 seed matches meet only byes: left out of every figure.
    assert_eq!((report.matches, report.seed_matches), (236, 64));
    for row in &report.cards {
        let (players, wins) = boards.get(&row.item).copied().unwrap_or_default();
        assert_eq!((row.players, row.wins), (players, wins), "{} on final boards", row.item);
        let (offered, bought) = picks.get(&row.item).copied().unwrap_or_default();
        assert_eq!(row.offered, offered, "{} offered", row.item);
        let pick = row.pick_rate.map(|f| f.value).unwrap_or(0.0);
        assert!(
            offered == 0 || (pick - bought as f64 / offered as f64).abs() < 1e-12,
            "{} pick rate",
            row.item
        );
        if let Some(f) = row.win_rate {
            assert!(f.low <= f.value && f.value <= f.high, "{} interval", row.item);
        }
        // The effect: the mean over the card's probes of the result with
        // it less the result without it.
        let (probes, sum) = effects.get(&row.item).copied().unwrap_or_default();
        assert_eq!(row.probes, probes, "{} probes", row.item);
        if let Some(f) = row.effect {
            assert!((f.value - sum / probes as f64).abs() < 1e-12, "{} effect", row.item);
            assert!(f.low <= f.value && f.value <= f.high, "{} effect interval", row.item);
        }
    }
    // Adding a unit the player could take helps its next fight more often
    // than it hurts: over every probe of every card, the mean is above 0.
    let (n, sum) = effects.values().fold((0, 0.0), |(n, s), e| (n + e.0, s + e.1));
    assert!(n > 300 && sum / n as f64 > 0.05, "{n} probes, mean {}", sum / n as f64);
    // Rewards are apart from purchases: every Forge Core and resonance a
    // boss gave is a row of its own, with its effect probed.
    assert!(
        report
            .rewards
            .iter()
            .any(|r| r.item == "overpower" && r.earned > 0 && r.probes > 0)
    );
    assert!(report.rewards.iter().all(|r| r.offered == 0 && r.earned > 0));
    // Every card that ended on a board is in the report.
    for card in boards.keys() {
        assert!(report.cards.iter().any(|r| &r.item == card), "{card} missing");
    }
    // Solo matches: a player per match, the win rate the share of matches won.
    assert_eq!(report.players, 236);
    // The bots' table: one row per bot seated, counted as the logs say.
    assert_eq!(report.bots.len(), bots.len());
    for row in &report.bots {
        let (players, wins, combined, tier_three) = bots[&row.bot];
        let share = |f: Option<gridsim::match_report::Figure>| f.map_or(0.0, |f| f.value);
        assert_eq!(row.players, players, "{}", row.bot);
        assert!((share(row.win_rate) - wins as f64 / players as f64).abs() < 1e-12);
        assert!((share(row.combined) - combined as f64 / players as f64).abs() < 1e-12);
        assert!((share(row.tier_three) - tier_three as f64 / players as f64).abs() < 1e-12);
    }
}

#[test]
fn the_match_report_command_writes_its_three_files() {
    let dir = match_run(&scratch("m-report-files"), &[]);
    let out = scratch("m-report-out");
    let o = gridsim(&[
        "report",
        dir.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = out.join("solo-seed20261201");
    let html = std::fs::read_to_string(page.join("index.html")).expect("index.html");
    assert!(html.contains("match win rate") && html.contains("pick rate") && html.contains("average round"));
    let md = std::fs::read_to_string(page.join("summary.md")).expect("summary.md");
    assert!(md.contains("## Bots") && md.contains("## Cards") && md.contains("## Runes") && md.contains("## Keywords"));
    assert!(html.contains("<h2>Bots</h2>") && md.contains("| greedy | 236 |"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(page.join("summary.json")).expect("json")).expect("parses");
    assert_eq!(
        (json["matches"].as_u64(), json["seed_matches"].as_u64()),
        (Some(236), Some(64))
    );
    assert_eq!(json["bots"][0]["bot"], "greedy");
}
