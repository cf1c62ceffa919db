//! Each command: its arguments lowered into calls on the app layer, its
//! results printed, its exit code.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::args::*;
use super::{Error, RulesAndCards};
use gridsim_analysis::stats::Band;
use gridsim_app::match_runs::LoadedMatches;
use gridsim_app::riftbound_runs::{LoadedGames, LoadedRiftbound};
use gridsim_app::runs::RunInputs;
use gridsim_app::{jobs, runs};
use gridsim_config as config;
use gridsim_data::dataset::RunKind;
use gridsim_engine::output;
use gridsim_present::coverage;

pub(super) fn run(cli: Cli) -> Result<ExitCode, Error> {
    let files = RulesAndCards {
        rules: cli.rules,
        cards: cli.cards,
    };
    match cli.command {
        Command::Validate(args) => validate(files, args),
        Command::Fight(args) => fight(files, args),
        Command::Showdown(args) => showdown(args),
        Command::Game(args) => game(args),
        Command::Run(args) => run_suite(files, args),
        Command::Replay(args) => replay(args),
        Command::Report(args) => report(args),
        Command::Nightly(args) => nightly(files, args),
        Command::Verify(args) => verify(args),
        Command::Sweep(args) => sweep(files, args),
        Command::Search(args) => search(files, args),
        Command::Tune(args) => tune(files, args),
        Command::Bench(args) => bench(files, args),
        Command::Match(args) => play_matches(files, args),
        Command::Scenario(args) => scenario(files, args),
        Command::Schema(args) => schema(args),
        Command::Catalog(args) => catalog(files, args),
        Command::Coverage(args) => coverage(files, args),
    }
}

/// `gridsim validate`.
fn validate(cli: RulesAndCards, args: ValidateArgs) -> Result<ExitCode, Error> {
    let ValidateArgs { paths } = args;
    let paths = if paths.is_empty() {
        vec![PathBuf::from("configs")]
    } else {
        paths
    };
    // The rules file in force sets the grid; one among the paths wins.
    let rules = config::load_rules(&cli.rules)?;
    let (count, bad) = config::validate_paths(&paths, &cli.cards, rules);
    if bad.is_empty() {
        outln!("{count} file{} ok", if count == 1 { "" } else { "s" });
        Ok(ExitCode::SUCCESS)
    } else {
        Err(bad.into())
    }
}

/// `gridsim fight`.
fn fight(cli: RulesAndCards, args: FightArgs) -> Result<ExitCode, Error> {
    let FightArgs {
        left,
        right,
        seed,
        log,
        json,
        html,
    } = args;
    let (report, page) = jobs::fight(&cli.rules, &cli.cards, &left, &right, seed, log, html.is_some())?;
    write_page(html.as_deref(), page)?;
    if json {
        outln!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
    } else {
        out!("{}", output::to_text(&report));
    }
    Ok(ExitCode::SUCCESS)
}

/// `gridsim run`.
fn run_suite(cli: RulesAndCards, args: RunArgs) -> Result<ExitCode, Error> {
    let RunArgs {
        suite,
        fights,
        part_size,
        run,
    } = args;
    let report = run.report;
    let suite = suite.unwrap_or_else(default_suite);
    match riftbound_run(&suite, run.resume.as_deref()) {
        Some(RunKind::Showdowns) => {
            let summary = start_or_resume::<LoadedRiftbound>(cli, suite, fights, part_size, run)?;
            return finish_run(&summary, "showdowns", report);
        }
        Some(_) => {
            let summary = start_or_resume::<LoadedGames>(cli, suite, fights, part_size, run)?;
            return finish_run(&summary, "games", report);
        }
        None => {}
    }
    let summary = start_or_resume::<runs::Loaded>(cli, suite, fights, part_size, run)?;
    finish_run(&summary, "fights", report)
}

/// `gridsim showdown`: one showdown of a Riftbound suite with its log.
fn showdown(args: ShowdownArgs) -> Result<ExitCode, Error> {
    let ShowdownArgs { suite, id, seed, html } = args;
    let suite = suite.unwrap_or_else(|| PathBuf::from("configs/riftbound/suites/default.toml"));
    let mut loaded = LoadedRiftbound::load(&suite, None)?;
    if let Some(s) = seed {
        loaded.suite.master_seed = s;
        // Lanes are drawn from the master seed too.
        let catalog = loaded.catalog.clone();
        loaded.suite.draw_lanes(&catalog);
    }
    let shown = loaded.show(id);
    let p = shown.pairing;
    let (a, d) = if p.left_attacks {
        (p.left, p.right)
    } else {
        (p.right, p.left)
    };
    let view = gridsim_present::showdown_page::ShowdownView {
        title: format!("{} showdown {id}: lane {a} attacks lane {d}", loaded.suite.name),
        catalog: &loaded.catalog,
        lanes: [&loaded.suite.lanes[a as usize], &loaded.suite.lanes[d as usize]],
        units: &shown.units,
        log: &shown.log,
        outcome: shown.outcome,
    };
    print!("{}", view.text());
    if let Some(path) = html {
        gridsim_core::atomic::write(&path, view.html().as_bytes()).map_err(|e| Error::file(&path, e))?;
        outln!("page: {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether `gridsim run` plays Riftbound showdowns or whole games: the run
/// resumed is a run of either, or the suite says `game = "riftbound"` (a
/// game suite with `games`).
fn riftbound_run(suite: &Path, resume: Option<&Path>) -> Option<RunKind> {
    match resume {
        Some(dir) => runs::kind_of(dir)
            .ok()
            .filter(|k| matches!(k, RunKind::Showdowns | RunKind::Games)),
        None => {
            let text = std::fs::read_to_string(suite).ok()?;
            if config::is_riftbound_games(&text) {
                Some(RunKind::Games)
            } else {
                config::is_riftbound(&text).then_some(RunKind::Showdowns)
            }
        }
    }
}

/// `gridsim game`: one game of a Riftbound game suite, turn by turn, each
/// line with the rule it follows.
fn game(args: GameArgs) -> Result<ExitCode, Error> {
    let GameArgs { suite, id, html } = args;
    let suite = suite.unwrap_or_else(|| PathBuf::from("configs/riftbound/suites/games.toml"));
    let loaded = LoadedGames::load(&suite, None)?;
    let (pairing, outcome, log) = loaded.show(id);
    let view = gridsim_present::game_page::GameView {
        title: format!("{} game {id}", loaded.suite.name),
        catalog: &loaded.catalog,
        decks: [loaded.suite.deck(&pairing, 0), loaded.suite.deck(&pairing, 1)],
        bots: pairing.bots,
        log: &log,
        outcome,
    };
    print!("{}", view.text());
    if let Some(path) = html {
        gridsim_core::atomic::write(&path, view.html().as_bytes()).map_err(|e| Error::file(&path, e))?;
        outln!("page: {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// A new run of `L`'s kind, or the one `--resume` names, to its end.
fn start_or_resume<L: RunInputs>(
    cli: RulesAndCards,
    suite: PathBuf,
    count: Option<u64>,
    part_size: u64,
    o: RunOptions,
) -> Result<gridsim_data::batch::RunSummary, Error> {
    let threads = o.threads.unwrap_or(0);
    Ok(match o.resume {
        Some(dir) => runs::resume::<L>(&dir, threads, true, &mut |note| eprintln!("note: {note}"))?,
        None => runs::start::<L>(&runs::NewRun {
            rules: cli.rules,
            cards: cli.cards,
            suite,
            count,
            seed: o.seed,
            out: o.out,
            shard: shard_of(o.shard.as_deref())?,
            part_size,
            threads,
            progress: true,
        })?,
    })
}

/// `gridsim replay`.
fn replay(args: ReplayArgs) -> Result<ExitCode, Error> {
    let ReplayArgs {
        run_dir,
        fight_id,
        log,
        json,
        html,
    } = args;
    if runs::kind_of(&run_dir).map_err(whole)? == gridsim_data::dataset::RunKind::Matches {
        let (loaded, replayed) = gridsim_app::match_runs::replay(&run_dir, fight_id, 0)?;
        if log || json {
            print_match_log(&replayed.result, json);
        } else {
            out!("{}", gridsim_data::match_rows::summary(&loaded.ctx(), &replayed.result));
        }
        return match &replayed.recorded {
            None => {
                eprintln!("note: match {fight_id} is in a part this run has not finished or does not hold (shard)");
                Ok(ExitCode::SUCCESS)
            }
            Some(_) if replayed.reproduces(&loaded) => Ok(ExitCode::SUCCESS),
            Some(rec) => Err(whole(format!("the replay differs from the recorded match: {rec:?}"))),
        };
    }
    let mut replayed = runs::replay(&run_dir, fight_id, log || json, html.is_some())?;
    write_page(html.as_deref(), replayed.page.take())?;
    if json {
        outln!("{}", serde_json::to_string_pretty(&replayed.report).unwrap_or_default());
    } else {
        out!("{}", output::to_text(&replayed.report));
    }
    match &replayed.recorded {
        None => {
            eprintln!("note: fight {fight_id} is in a part this run has not finished or does not hold (shard)");
            Ok(ExitCode::SUCCESS)
        }
        Some(_) if replayed.reproduces() => Ok(ExitCode::SUCCESS),
        Some(rec) => Err(whole(format!("the replay differs from the recorded fight: {rec:?}"))),
    }
}

/// `--band LOW,HIGH` in percent: within 0–100, LOW below HIGH.
fn parse_band(band: &str) -> Result<Band, Error> {
    band.split_once(',')
        .and_then(|(l, h)| Band::from_percent(l.trim().parse::<f64>().ok()?, h.trim().parse::<f64>().ok()?))
        .ok_or_else(|| {
            whole(format!(
                "--band `{band}`: expected LOW,HIGH in percent within 0–100, LOW below HIGH, e.g. 45,55"
            ))
        })
}

/// `gridsim report`.
fn report(args: ReportArgs) -> Result<ExitCode, Error> {
    let ReportArgs {
        run_dirs,
        baseline,
        out,
        min_sample,
        band,
        alarm,
    } = args;
    let band = parse_band(&band)?;
    let settings = gridsim_analysis::report::ReportSettings {
        min_sample,
        band_low: band.low(),
        band_high: band.high(),
        ..gridsim_analysis::report::ReportSettings::default()
    };
    let (written, dir) = write_report_of_run(&run_dirs, baseline.as_deref(), &out, &settings)?;
    outln!("{}", written.line(&dir));
    Ok(if alarm && written.alarms() {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

/// `gridsim nightly`.
fn nightly(cli: RulesAndCards, args: NightlyArgs) -> Result<ExitCode, Error> {
    let NightlyArgs {
        suite,
        date,
        fights,
        threads,
        datasets,
        reports,
    } = args;
    let night = gridsim_app::nightly::run(&gridsim_app::nightly::Nightly {
        rules: cli.rules,
        cards: cli.cards,
        suite: suite.unwrap_or_else(default_suite),
        date: date.unwrap_or_else(gridsim_app::nightly::today_utc),
        fights,
        threads: threads.unwrap_or(0),
        datasets,
        reports,
        progress: true,
    })?;
    match &night.baseline {
        Some(b) => outln!("compared with {b}"),
        None => outln!("no earlier night to compare with"),
    }
    for alarm in &night.alarms {
        outln!("ALARM {alarm}");
    }
    outln!(
        "{} alarms -> {} (index: {})",
        night.alarms.len(),
        night.report_dir.join("index.html").display(),
        night.index.display()
    );
    Ok(if night.alarms.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    })
}

/// `gridsim verify`.
fn verify(args: VerifyArgs) -> Result<ExitCode, Error> {
    let VerifyArgs { run_dirs } = args;
    let mut intact = true;
    for dir in &run_dirs {
        let v = runs::verify(dir).map_err(whole)?;
        if v.problems.is_empty() {
            outln!("{}: intact ({} files)", dir.display(), v.files);
        }
        for why in &v.problems {
            eprintln!("{why}");
        }
        intact &= v.problems.is_empty();
    }
    Ok(if intact { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// `gridsim sweep`.
fn sweep(cli: RulesAndCards, args: SweepArgs) -> Result<ExitCode, Error> {
    let SweepArgs {
        suite,
        card,
        rune,
        resonance,
        field,
        values,
        field2,
        values2,
        target,
        fights,
        seed,
        out,
        threads,
    } = args;
    let suite = suite.unwrap_or_else(default_suite);
    let parse = |flag: &str, v: &str| {
        gridsim_app::sweep::parse_values(v).map_err(|m| Error::file(&suite, format!("{flag}{m}")))
    };
    let values = parse("--values", &values)?;
    let second = match (field2, values2) {
        (Some(f), Some(v)) => Some((f, parse("--values2", &v)?)),
        _ => None,
    };
    if !(0.0..=1.0).contains(&target) {
        return Err(Error::file(
            &suite,
            format!("--target {target}: a win rate between 0 and 1"),
        ));
    }
    use gridsim_app::sweep::ItemKind;
    let (kind, card) = match (card, rune, resonance) {
        (Some(c), _, _) => (ItemKind::Card, c),
        (None, Some(r), _) => (ItemKind::Rune, r),
        (None, None, Some(r)) => (ItemKind::Resonance, r),
        (None, None, None) => return Err(whole("give --card, --rune or --resonance")),
    };
    let s = gridsim_app::sweep::run(&gridsim_app::sweep::SweepRequest {
        rules: cli.rules.clone(),
        cards: cli.cards.clone(),
        suite,
        kind,
        card,
        field,
        values,
        second,
        target,
        fights,
        seed,
        out,
        threads: threads.unwrap_or(0),
        progress: true,
    })?;
    out!("{}", gridsim_app::sweep::markdown(&s));
    outln!("written: {}", s.dir.display());
    Ok(ExitCode::SUCCESS)
}

/// `gridsim search`.
fn search(cli: RulesAndCards, args: SearchArgs) -> Result<ExitCode, Error> {
    let SearchArgs {
        suite,
        budget,
        top,
        batch,
        seed,
        out,
        threads,
    } = args;
    let s = gridsim_app::search::run(&gridsim_app::search::SearchRequest {
        rules: cli.rules,
        cards: cli.cards,
        suite: suite.unwrap_or_else(default_suite),
        budget,
        top,
        batch,
        seed,
        out,
        threads: threads.unwrap_or(0),
        progress: true,
    })?;
    out!("{}", gridsim_app::search::markdown(&s));
    outln!("written: {}", s.dir.display());
    Ok(ExitCode::SUCCESS)
}

/// `gridsim tune`.
fn tune(cli: RulesAndCards, args: TuneArgs) -> Result<ExitCode, Error> {
    let TuneArgs {
        suite,
        band,
        levers,
        budget,
        seed,
        out,
        threads,
    } = args;
    let t = gridsim_app::tune::run(&gridsim_app::tune::TuneRequest {
        rules: cli.rules,
        cards: cli.cards,
        suite: suite.unwrap_or_else(default_suite),
        band: parse_band(&band)?,
        levers,
        budget,
        seed,
        out,
        threads: threads.unwrap_or(0),
        progress: true,
    })?;
    out!("{}", gridsim_app::tune::markdown(&t));
    outln!("written: {}", t.dir.display());
    Ok(ExitCode::SUCCESS)
}

/// `gridsim bench`.
fn bench(cli: RulesAndCards, args: BenchArgs) -> Result<ExitCode, Error> {
    let BenchArgs { suite, fights, threads } = args;
    let suite = suite.unwrap_or_else(default_suite);
    if riftbound_run(&suite, None) == Some(RunKind::Games) {
        let (loaded, b) = gridsim_app::riftbound_runs::bench_games(&suite, fights, threads.unwrap_or(0))?;
        let per_second = b.games as f64 / b.seconds.max(1e-9);
        outln!(
            "suite: {} ({} decks), {} games on {} threads",
            loaded.suite.name,
            loaded.suite.decks.len(),
            b.games,
            b.threads
        );
        outln!("games per second: {per_second:.0}");
        outln!("games per second per thread: {:.0}", per_second / b.threads as f64);
        outln!("wall time: {:.2} s", b.seconds);
        outln!("mean turns: {:.2}", b.mean_turns);
        outln!("mean showdowns and combats: {:.2}", b.mean_showdowns);
        return Ok(ExitCode::SUCCESS);
    }
    if riftbound_run(&suite, None).is_some() {
        let (loaded, b) = gridsim_app::riftbound_runs::bench(&suite, fights, threads.unwrap_or(0))?;
        let per_second = b.showdowns as f64 / b.seconds.max(1e-9);
        outln!(
            "suite: {} ({} lanes), {} showdowns on {} threads",
            loaded.suite.name,
            loaded.suite.lanes.len(),
            b.showdowns,
            b.threads
        );
        outln!("showdowns per second: {per_second:.0}");
        outln!("showdowns per second per thread: {:.0}", per_second / b.threads as f64);
        outln!("wall time: {:.2} s", b.seconds);
        outln!("mean chain items resolved: {:.2}", b.mean_chain_items);
        outln!("mean spells played: {:.2}", b.mean_spells);
        return Ok(ExitCode::SUCCESS);
    }
    let b = jobs::bench(&cli.rules, &cli.cards, &suite, fights, threads.unwrap_or(0))?;
    let stats = &b.stats;
    outln!(
        "suite: {} ({} boards), {} fights on {} threads",
        b.suite,
        b.boards,
        stats.fights,
        stats.threads
    );
    outln!(
        "fights per second: {:.0}",
        stats.fights as f64 / stats.seconds.max(1e-9)
    );
    outln!("wall time: {:.2} s", stats.seconds);
    outln!("mean fight length: {:.2} game seconds", stats.mean_fight_seconds);
    outln!("mean units per side: {:.2}", stats.mean_units_per_side);
    match gridsim_data::batch::peak_memory_bytes() {
        Some(b) => outln!("peak memory: {:.1} MiB", b as f64 / (1024.0 * 1024.0)),
        None => outln!("peak memory: not available on this system"),
    }
    Ok(ExitCode::SUCCESS)
}

/// `gridsim match`.
fn play_matches(cli: RulesAndCards, args: MatchArgs) -> Result<ExitCode, Error> {
    let MatchArgs {
        suite,
        matches,
        part_size,
        run,
        show,
        json,
    } = args;
    let suite = suite.unwrap_or_else(|| PathBuf::from("configs/matches/solo.toml"));
    if let Some(index) = show {
        let mut loaded = LoadedMatches::from_files(&cli.rules, &cli.cards, &suite)?;
        if let Some(m) = matches {
            loaded.suite.matches = m;
        }
        if let Some(s) = run.seed {
            loaded.suite.master_seed = s;
        }
        let result = gridsim_app::match_runs::play_one(&loaded, index, run.threads.unwrap_or(0))?;
        print_match_log(&result, json);
        return Ok(ExitCode::SUCCESS);
    }
    let report = run.report;
    let summary = start_or_resume::<LoadedMatches>(cli, suite, matches, part_size, run)?;
    finish_run(&summary, "matches", report)
}

/// `gridsim scenario`.
fn scenario(cli: RulesAndCards, args: ScenarioArgs) -> Result<ExitCode, Error> {
    let ScenarioArgs { files, catalog } = args;
    let reports = jobs::scenarios(&cli.rules, &catalog, &files)?;
    let mut failed = 0;
    for r in &reports {
        if r.passed() {
            outln!("ok    {} ({} checks)", r.file.display(), r.checks);
        } else {
            failed += 1;
            outln!("FAIL  {} ({})", r.file.display(), r.name);
            for f in &r.failures {
                outln!("      {f}");
            }
        }
    }
    outln!("{} passed, {} failed", reports.len() - failed, failed);
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `gridsim schema`.
fn schema(args: SchemaArgs) -> Result<ExitCode, Error> {
    let SchemaArgs { out } = args;
    std::fs::create_dir_all(&out).map_err(|e| Error::file(&out, format!("cannot create the folder: {e}")))?;
    for f in gridsim_config::json_schema::schema_files() {
        let path = out.join(f.name);
        gridsim_core::atomic::write(&path, f.json.as_bytes()).map_err(|e| Error::file(&path, e))?;
        println!("{}: {}", path.display(), f.describes);
    }
    Ok(ExitCode::SUCCESS)
}

/// `gridsim catalog`.
fn catalog(cli: RulesAndCards, args: CatalogArgs) -> Result<ExitCode, Error> {
    let CatalogArgs { out } = args;
    let catalog = gridsim_config::load_catalog(&cli.cards)?;
    for page in gridsim_present::card_text::pages(&catalog) {
        let path = out.join(&page.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::file(dir, format!("cannot create the folder: {e}")))?;
        }
        gridsim_core::atomic::write(&path, page.markdown.as_bytes()).map_err(|e| Error::file(&path, e))?;
        println!("{}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `gridsim coverage`.
fn coverage(cli: RulesAndCards, args: CoverageArgs) -> Result<ExitCode, Error> {
    let CoverageArgs {
        scenarios,
        catalog,
        json,
        markdown,
    } = args;
    let reports = jobs::scenarios(&cli.rules, &catalog, &scenarios)?;
    let rows = coverage::table(&reports);
    if json {
        let items: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "id": r.rule.id,
                    "keyword": r.rule.keyword,
                    "title": r.rule.title,
                    "scenarios": r.scenarios,
                    "status": r.status.name(),
                })
            })
            .collect();
        outln!("{}", serde_json::to_string_pretty(&items).unwrap_or_default());
    } else if markdown {
        out!("{}", coverage::markdown(&rows));
    } else {
        for r in &rows {
            outln!(
                "{:<9} {:<10} {:<20} {}",
                r.rule.id,
                r.status.name(),
                if r.rule.title.is_empty() { &r.rule.keyword } else { "" },
                r.scenarios.join(", ")
            );
        }
    }
    let failing = rows.iter().any(|r| r.status == coverage::Status::Fail);
    Ok(if failing { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

/// A match's log, a line per event or (with `json`) a JSON object per line.
fn print_match_log(result: &gridsim_sim::matches::MatchResult, json: bool) {
    for e in &result.events {
        if json {
            outln!("{}", serde_json::to_string(e).unwrap_or_default());
        } else {
            outln!("{}", e.line());
        }
    }
}

/// Writes the fight page to `path` whole or not at all.
fn write_page(path: Option<&Path>, page: Option<String>) -> Result<(), Error> {
    if let (Some(path), Some(page)) = (path, page) {
        gridsim_core::atomic::write(path, page.as_bytes()).map_err(|e| Error::file(path, e))?;
        eprintln!("fight page: {}", path.display());
    }
    Ok(())
}

fn default_suite() -> PathBuf {
    PathBuf::from("configs/suites/default.toml")
}

/// The report of the runs in `run_dirs`, through the `RunInputs` of their
/// kind: the one path a report takes, as starting and resuming do.
fn write_report_of_run(
    run_dirs: &[PathBuf],
    baseline: Option<&Path>,
    out: &Path,
    settings: &gridsim_analysis::report::ReportSettings,
) -> Result<(runs::Written, PathBuf), Error> {
    let first = run_dirs
        .first()
        .ok_or_else(|| whole("name at least one run directory"))?;
    let write = match runs::kind_of(first).map_err(whole)? {
        RunKind::Fights => runs::write_report_with::<runs::Loaded>,
        RunKind::Showdowns => runs::write_report_with::<LoadedRiftbound>,
        RunKind::Games => runs::write_report_with::<LoadedGames>,
        RunKind::Matches => runs::write_report_with::<LoadedMatches>,
    };
    write(run_dirs, baseline, out, settings)
}

/// A command's own failure, about its arguments rather than a file.
fn whole(message: impl Into<String>) -> Error {
    Error::Message(message.into())
}

/// `--shard K/N`, or the whole run.
fn shard_of(shard: Option<&str>) -> Result<gridsim_data::dataset::Shard, Error> {
    match shard {
        Some(s) => gridsim_data::dataset::Shard::parse(s).map_err(whole),
        None => Ok(gridsim_data::dataset::Shard::WHOLE),
    }
}

/// A run's last line (what ran, how fast, where to), then its report with
/// `--report`.
fn finish_run(summary: &gridsim_data::batch::RunSummary, unit: &str, report: bool) -> Result<ExitCode, Error> {
    outln!(
        "{} {unit} in {:.1} s ({:.0} {unit}/s on {} threads) -> {}",
        summary.ran,
        summary.seconds,
        summary.ran as f64 / summary.seconds.max(1e-9),
        summary.threads,
        summary.dir.display()
    );
    if report {
        report_after_run(&summary.dir)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `--report` after a run: the run's report under `reports/`, as `gridsim
/// report` writes it.
fn report_after_run(run_dir: &Path) -> Result<(), Error> {
    let (written, dir) = write_report_of_run(
        std::slice::from_ref(&run_dir.to_path_buf()),
        None,
        Path::new("reports"),
        &gridsim_analysis::report::ReportSettings::default(),
    )?;
    outln!("{}", written.line(&dir));
    Ok(())
}
