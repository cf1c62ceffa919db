//! The `gridsim` command line. The only module that knows clap: it lowers
//! arguments into calls on the library and turns results into exit codes.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use gridsim::config::{self, Diagnostic};
use gridsim::coverage;
use gridsim::jobs;
use gridsim::output;
use gridsim::runs;

#[derive(Parser)]
#[command(name = "gridsim", version, about = "Balance-analysis batch simulator for Gridforged")]
struct Cli {
    /// The rules file (every number of the rule book).
    #[arg(long, global = true, default_value = "configs/rules.toml")]
    rules: PathBuf,
    /// Card files or folders making up the catalog: cards, runes and
    /// resonances.
    #[arg(long, global = true, default_values = ["configs/cards", "configs/runes"])]
    cards: Vec<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// One fight between two boards.
    Fight {
        left: PathBuf,
        right: PathBuf,
        /// Master seed; the fight uses stream 0 of it.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print the event log.
        #[arg(long)]
        log: bool,
        /// Print the outcome (and log) as JSON.
        #[arg(long)]
        json: bool,
        /// Write the fight page: both grids, bars and statuses on a
        /// timeline to play and scrub, and the event log beside it.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
    /// Run a suite's fights across all cores into datasets/<run-id>/.
    Run {
        /// The suite (default: configs/suites/default.toml).
        suite: Option<PathBuf>,
        /// Run this many fights instead of the suite's number.
        #[arg(long)]
        fights: Option<u64>,
        /// Worker threads (default: one per core). Results never depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// Master seed instead of the suite's.
        #[arg(long)]
        seed: Option<u64>,
        /// Folder that receives the run directory.
        #[arg(long, default_value = "datasets")]
        out: PathBuf,
        /// Run only shard K of N (parts dealt round-robin), e.g. 0/4.
        #[arg(long)]
        shard: Option<String>,
        /// Continue an interrupted run in RUN_DIR without redoing finished parts.
        #[arg(long, value_name = "RUN_DIR")]
        resume: Option<PathBuf>,
        /// Fights per part file. Rows never depend on it; a resume keeps the run's own.
        #[arg(long, default_value_t = gridsim::dataset::DEFAULT_PART_SIZE)]
        part_size: u64,
        /// Write the report (reports/<run-id>/) as soon as the run is done.
        #[arg(long)]
        report: bool,
    },
    /// Play a match suite's matches (section 200): ten rounds of shops,
    /// bosses, rescue fights and nemesis ghosts with bot players.
    Match {
        /// The match suite (default: configs/matches/solo.toml).
        suite: Option<PathBuf>,
        /// Play this many matches instead of the suite's number.
        #[arg(long)]
        matches: Option<u64>,
        /// Worker threads (default: one per core). Results never depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// Master seed instead of the suite's.
        #[arg(long)]
        seed: Option<u64>,
        /// Folder that receives the run directory.
        #[arg(long, default_value = "datasets")]
        out: PathBuf,
        /// Play only shard K of N (parts dealt round-robin), e.g. 0/4.
        #[arg(long)]
        shard: Option<String>,
        /// Continue an interrupted match run in RUN_DIR without redoing finished parts.
        #[arg(long, value_name = "RUN_DIR")]
        resume: Option<PathBuf>,
        /// Matches per part file. Rows never depend on it; a resume keeps the run's own.
        #[arg(long, default_value_t = gridsim::match_runs::DEFAULT_PART_SIZE)]
        part_size: u64,
        /// Write the report (reports/<run-id>/) as soon as the run is done.
        #[arg(long)]
        report: bool,
        /// Play only match INDEX and print its log, round by round; writes nothing.
        #[arg(long, value_name = "INDEX")]
        show: Option<u64>,
        /// With --show: the log as JSON lines.
        #[arg(long)]
        json: bool,
    },
    /// Re-run one fight of a run from its recorded seed, with its event
    /// log; in a match run, one match, round by round.
    Replay {
        run_dir: PathBuf,
        /// The fight id (the match index in a match run).
        #[arg(value_name = "ID")]
        fight_id: u64,
        /// Print the event log (a match's whole log).
        #[arg(long)]
        log: bool,
        #[arg(long)]
        json: bool,
        /// Write the fight page (as `gridsim fight --html`).
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
    /// Aggregate runs (or the shards of one run) into reports/<run-id>/.
    Report {
        #[arg(required = true)]
        run_dirs: Vec<PathBuf>,
        /// Compare every figure with this earlier run.
        #[arg(long, value_name = "RUN_DIR")]
        baseline: Option<PathBuf>,
        #[arg(long, default_value = "reports")]
        out: PathBuf,
        /// Rows with fewer fights are greyed and not ranked.
        #[arg(long, default_value_t = 200)]
        min_sample: u64,
        /// The neutral band in percent, `LOW,HIGH`.
        #[arg(long, default_value = "45,55")]
        band: String,
        /// Exit with code 3 when an outlier or a change beyond noise is found.
        #[arg(long)]
        alarm: bool,
    },
    /// The nightly job: the suite on the current catalog into
    /// DATASETS/nightly/<date>/, its report compared with the previous night
    /// into REPORTS/<date>/, and REPORTS/index.html over every night. Exits
    /// with 3 when an outlier or a change beyond noise is found.
    Nightly {
        /// The suite (default: configs/suites/default.toml).
        suite: Option<PathBuf>,
        /// The night, YYYY-MM-DD (default: today, UTC).
        #[arg(long)]
        date: Option<String>,
        /// Run this many fights instead of the suite's number.
        #[arg(long)]
        fights: Option<u64>,
        #[arg(long)]
        threads: Option<usize>,
        #[arg(long, default_value = "datasets")]
        datasets: PathBuf,
        #[arg(long, default_value = "reports")]
        reports: PathBuf,
    },
    /// Hash every file of run directories against their manifests; non-zero
    /// exit when a file is missing, corrupt or not listed.
    Verify {
        #[arg(required = true)]
        run_dirs: Vec<PathBuf>,
    },
    /// Run a suite without keeping its output; print fights per second.
    Bench {
        suite: Option<PathBuf>,
        #[arg(long)]
        fights: Option<u64>,
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Try one number of one card at several values on the same suite and
    /// seeds; print the card's win rate at each, with its interval, and the
    /// value nearest the target. Writes sweep.csv, sweep.md, sweep.svg and
    /// sweep.json under OUT/sweep_CARD_FIELD/.
    Sweep {
        /// The suite (default: configs/suites/default.toml).
        suite: Option<PathBuf>,
        /// The card's id.
        #[arg(long, required_unless_present_any = ["rune", "resonance"], conflicts_with_all = ["rune", "resonance"])]
        card: Option<String>,
        /// A rune's id instead of a card's; its win rate is the rune
        /// table's row.
        #[arg(long, conflicts_with = "resonance")]
        rune: Option<String>,
        /// A resonance's id instead of a card's.
        #[arg(long)]
        resonance: Option<String>,
        /// Where the number is in the card, e.g. `power[2]` (tier 3),
        /// `power[*]` (the whole ladder by its tier-1 number, its steps
        /// kept), `ability[0].amount`, `keywords[1]`; in a rune
        /// `effects[0].amount[1]`, in a resonance `effects[0].per_level`.
        #[arg(long)]
        field: String,
        /// `A..B`, `A..B:STEP` (both ends included) or `a,b,c`.
        #[arg(long)]
        values: String,
        /// A second number of the same card, swept across the first: every
        /// pair of values runs, drawn as a heat map.
        #[arg(long, requires = "values2")]
        field2: Option<String>,
        /// The second number's values, written as for --values.
        #[arg(long, requires = "field2")]
        values2: Option<String>,
        /// The win rate to aim for.
        #[arg(long, default_value_t = 0.5)]
        target: f64,
        /// Fights per value instead of the suite's number.
        #[arg(long)]
        fights: Option<u64>,
        /// Master seed instead of the suite's (the same for every value).
        #[arg(long)]
        seed: Option<u64>,
        /// Folder that receives the sweep.
        #[arg(long, default_value = "datasets")]
        out: PathBuf,
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Search for boards that beat the suite's boards most often: MAP-Elites
    /// over mean Speed and keyword count, with racing, under the suite's
    /// random-board rules. Writes board_NN.toml (ready for `gridsim fight`),
    /// suite_best.toml, search.md, search.json and archive.csv under
    /// OUT/search_SUITE_SEED/.
    Search {
        /// The suite whose boards are the field (default: configs/suites/default.toml).
        suite: Option<PathBuf>,
        /// Fights to spend in all, the final measurement (a fifth) included.
        #[arg(long, default_value_t = 200_000)]
        budget: u64,
        /// Boards to return.
        #[arg(long, default_value_t = 8)]
        top: usize,
        /// Children bred per generation (generation 0 draws four times as
        /// many suite boards).
        #[arg(long, default_value_t = 16)]
        batch: usize,
        /// Seed of the search instead of the suite's.
        #[arg(long)]
        seed: Option<u64>,
        /// Folder that receives the search.
        #[arg(long, default_value = "datasets")]
        out: PathBuf,
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Check rules, card, board and scenario files; non-zero exit on any error.
    Validate {
        /// Files or folders (default: configs/).
        paths: Vec<PathBuf>,
    },
    /// Write the JSON Schemas of card, rune, board and suite files, which
    /// editors read through .taplo.toml, derived from the loader's types.
    Schema {
        /// The folder that receives them.
        #[arg(long, default_value = gridsim::config::json_schema::SCHEMA_DIR)]
        out: PathBuf,
    },
    /// Write the catalog pages (docs/catalog.md and a page per tribe under
    /// docs/catalog/): every card's numbers and text as a player reads them,
    /// generated from the card files.
    Catalog {
        /// The docs folder that receives catalog.md and catalog/.
        #[arg(long, default_value = gridsim::card_text::DOCS_DIR)]
        out: PathBuf,
    },
    /// Run conformance scenarios and print each failed expectation.
    Scenario {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The catalog the scenarios' catalog cards and runes come from: a
        /// frozen copy, so tuning the starter catalog leaves the rule checks
        /// where they are (the global --cards is not read here).
        #[arg(long, default_value = gridsim::scenario::CATALOG_DIR)]
        catalog: Vec<PathBuf>,
    },
    /// Coverage of every lettered rule of 800, 900 and 200 by the scenarios.
    Coverage {
        /// Scenario files or folders.
        #[arg(long, default_value = "tests/conformance")]
        scenarios: Vec<PathBuf>,
        /// The scenarios' catalog, as for `gridsim scenario`.
        #[arg(long, default_value = gridsim::scenario::CATALOG_DIR)]
        catalog: Vec<PathBuf>,
        /// One JSON object per rule letter.
        #[arg(long)]
        json: bool,
        /// Print Markdown (the committed docs/conformance.md).
        #[arg(long)]
        markdown: bool,
    },
}

/// Writes to standard output; a closed pipe (`gridsim coverage | head`)
/// ends the program quietly instead of panicking.
fn write_out(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if out.write_all(text.as_bytes()).and_then(|_| out.flush()).is_err() {
        std::process::exit(0);
    }
}

macro_rules! out {
    ($($arg:tt)*) => { write_out(&format!($($arg)*)) };
}

macro_rules! outln {
    ($($arg:tt)*) => { write_out(&format!("{}\n", format!($($arg)*))) };
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(diags) => {
            for d in &diags {
                eprintln!("{d}");
            }
            eprintln!("{} error{}", diags.len(), if diags.len() == 1 { "" } else { "s" });
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, Vec<Diagnostic>> {
    match cli.command {
        Command::Validate { paths } => {
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
                Err(bad)
            }
        }
        Command::Fight {
            left,
            right,
            seed,
            log,
            json,
            html,
        } => {
            let (report, page) = jobs::fight(&cli.rules, &cli.cards, &left, &right, seed, log, html.is_some())?;
            write_page(html.as_deref(), page)?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
            } else {
                out!("{}", output::to_text(&report));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Run {
            suite,
            fights,
            threads,
            seed,
            out,
            shard,
            resume,
            part_size,
            report,
        } => {
            let threads = threads.unwrap_or(0);
            let summary = match resume {
                Some(dir) => runs::resume(&dir, threads, true, &mut |note| eprintln!("note: {note}"))?,
                None => {
                    let shard = match &shard {
                        Some(s) => gridsim::dataset::Shard::parse(s).map_err(whole)?,
                        None => gridsim::dataset::Shard::WHOLE,
                    };
                    runs::start(&runs::NewRun {
                        rules: cli.rules,
                        cards: cli.cards,
                        suite: suite.unwrap_or_else(default_suite),
                        fights,
                        seed,
                        out,
                        shard,
                        part_size,
                        threads,
                        progress: true,
                    })?
                }
            };
            outln!(
                "{} fights in {:.1} s ({:.0} fights/s on {} threads) -> {}",
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
        Command::Replay {
            run_dir,
            fight_id,
            log,
            json,
            html,
        } => {
            if runs::kind_of(&run_dir).map_err(whole)? == gridsim::dataset::RunKind::Matches {
                let (loaded, replayed) = gridsim::match_runs::replay(&run_dir, fight_id, 0)?;
                if log || json {
                    print_match_log(&replayed.result, json);
                } else {
                    out!("{}", gridsim::match_rows::summary(&loaded.ctx(), &replayed.result));
                }
                return match &replayed.recorded {
                    None => {
                        eprintln!(
                            "note: match {fight_id} is in a part this run has not finished or does not hold (shard)"
                        );
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
        Command::Report {
            run_dirs,
            baseline,
            out,
            min_sample,
            band,
            alarm,
        } => {
            let (low, high) = band
                .split_once(',')
                .and_then(|(l, h)| Some((l.trim().parse::<f64>().ok()?, h.trim().parse::<f64>().ok()?)))
                .filter(|(l, h)| 0.0 <= *l && l < h && *h <= 100.0)
                .ok_or_else(|| whole(format!("--band `{band}`: expected LOW,HIGH in percent, e.g. 45,55")))?;
            let settings = gridsim::report::ReportSettings {
                min_sample,
                band_low: low / 100.0,
                band_high: high / 100.0,
                ..gridsim::report::ReportSettings::default()
            };
            let (written, dir) = runs::write_report_of_run(&run_dirs, baseline.as_deref(), &out, &settings)?;
            outln!("{}", written.line(&dir));
            Ok(if alarm && written.alarms() {
                ExitCode::from(3)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Nightly {
            suite,
            date,
            fights,
            threads,
            datasets,
            reports,
        } => {
            let night = gridsim::nightly::run(&gridsim::nightly::Nightly {
                rules: cli.rules,
                cards: cli.cards,
                suite: suite.unwrap_or_else(default_suite),
                date: date.unwrap_or_else(gridsim::nightly::today_utc),
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
        Command::Verify { run_dirs } => {
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
        Command::Sweep {
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
        } => {
            let suite = suite.unwrap_or_else(default_suite);
            let parse = |v: &str| gridsim::sweep::parse_values(v).map_err(|m| vec![Diagnostic::whole_file(&suite, m)]);
            let values = parse(&values)?;
            let second = match (field2, values2) {
                (Some(f), Some(v)) => Some((f, parse(&v)?)),
                _ => None,
            };
            if !(0.0..=1.0).contains(&target) {
                return Err(vec![Diagnostic::whole_file(
                    &suite,
                    format!("--target {target}: a win rate between 0 and 1"),
                )]);
            }
            use gridsim::sweep::ItemKind;
            let (kind, card) = match (card, rune, resonance) {
                (Some(c), _, _) => (ItemKind::Card, c),
                (None, Some(r), _) => (ItemKind::Rune, r),
                (None, None, Some(r)) => (ItemKind::Resonance, r),
                (None, None, None) => return Err(whole("give --card, --rune or --resonance")),
            };
            let s = gridsim::sweep::run(&gridsim::sweep::SweepRequest {
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
            out!("{}", gridsim::sweep::markdown(&s));
            outln!("written: {}", s.dir.display());
            Ok(ExitCode::SUCCESS)
        }
        Command::Search {
            suite,
            budget,
            top,
            batch,
            seed,
            out,
            threads,
        } => {
            let s = gridsim::search::run(&gridsim::search::SearchRequest {
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
            out!("{}", gridsim::search::markdown(&s));
            outln!("written: {}", s.dir.display());
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench { suite, fights, threads } => {
            let suite = suite.unwrap_or_else(default_suite);
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
            match gridsim::batch::peak_memory_bytes() {
                Some(b) => outln!("peak memory: {:.1} MiB", b as f64 / (1024.0 * 1024.0)),
                None => outln!("peak memory: not available on this system"),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Match {
            suite,
            matches,
            threads,
            seed,
            out,
            shard,
            resume,
            part_size,
            report,
            show,
            json,
        } => {
            let threads = threads.unwrap_or(0);
            let suite = suite.unwrap_or_else(|| PathBuf::from("configs/matches/solo.toml"));
            if let Some(index) = show {
                let mut loaded = gridsim::match_runs::LoadedMatches::from_files(&cli.rules, &cli.cards, &suite)?;
                if let Some(m) = matches {
                    loaded.suite.matches = m;
                }
                if let Some(s) = seed {
                    loaded.suite.master_seed = s;
                }
                let result = gridsim::match_runs::play_one(&loaded, index, threads)?;
                print_match_log(&result, json);
                return Ok(ExitCode::SUCCESS);
            }
            let summary = match resume {
                Some(dir) => gridsim::match_runs::resume(&dir, threads, true, &mut |note| eprintln!("note: {note}"))?,
                None => {
                    let shard = match &shard {
                        Some(s) => gridsim::dataset::Shard::parse(s).map_err(whole)?,
                        None => gridsim::dataset::Shard::WHOLE,
                    };
                    gridsim::match_runs::start(&gridsim::match_runs::NewMatchRun {
                        rules: cli.rules,
                        cards: cli.cards,
                        suite,
                        matches,
                        seed,
                        out,
                        shard,
                        part_size,
                        threads,
                        progress: true,
                    })?
                }
            };
            outln!(
                "{} matches in {:.1} s ({:.0} matches/s on {} threads) -> {}",
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
        Command::Scenario { files, catalog } => {
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
        Command::Schema { out } => {
            std::fs::create_dir_all(&out)
                .map_err(|e| vec![Diagnostic::whole_file(&out, format!("cannot create the folder: {e}"))])?;
            for f in gridsim::config::json_schema::schema_files() {
                let path = out.join(f.name);
                gridsim::atomic::write(&path, f.json.as_bytes()).map_err(|e| vec![Diagnostic::whole_file(&path, e)])?;
                println!("{}: {}", path.display(), f.describes);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Catalog { out } => {
            let catalog = gridsim::config::load_catalog(&cli.cards)?;
            for page in gridsim::card_text::pages(&catalog) {
                let path = out.join(&page.path);
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir)
                        .map_err(|e| vec![Diagnostic::whole_file(dir, format!("cannot create the folder: {e}"))])?;
                }
                gridsim::atomic::write(&path, page.markdown.as_bytes())
                    .map_err(|e| vec![Diagnostic::whole_file(&path, e)])?;
                println!("{}", path.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Coverage {
            scenarios,
            catalog,
            json,
            markdown,
        } => {
            let reports = jobs::scenarios(&cli.rules, &catalog, &scenarios)?;
            let rows = coverage::table(&reports);
            if json {
                let items: Vec<serde_json::Value> = rows
                    .iter()
                    .map(|r| {
                        serde_json::json!({
                            "id": r.rule.id,
                            "keyword": r.rule.keyword,
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
                        r.rule.keyword,
                        r.scenarios.join(", ")
                    );
                }
            }
            let failing = rows.iter().any(|r| r.status == coverage::Status::Fail);
            Ok(if failing { ExitCode::FAILURE } else { ExitCode::SUCCESS })
        }
    }
}

/// Writes the fight page to `path` whole or not at all.
/// A match's log, a line per event or (with `json`) a JSON object per line.
fn print_match_log(result: &gridsim::matches::MatchResult, json: bool) {
    for e in &result.events {
        if json {
            outln!("{}", serde_json::to_string(e).unwrap_or_default());
        } else {
            outln!("{}", e.line());
        }
    }
}

fn write_page(path: Option<&Path>, page: Option<String>) -> Result<(), Vec<Diagnostic>> {
    if let (Some(path), Some(page)) = (path, page) {
        gridsim::atomic::write(path, page.as_bytes()).map_err(|e| vec![Diagnostic::whole_file(path, e)])?;
        eprintln!("fight page: {}", path.display());
    }
    Ok(())
}

fn default_suite() -> PathBuf {
    PathBuf::from("configs/suites/default.toml")
}

fn whole(message: impl Into<String>) -> Vec<Diagnostic> {
    vec![Diagnostic::whole_file(Path::new("gridsim"), message)]
}

/// `--report` after a run: the run's report under `reports/`, as `gridsim
/// report` writes it.
fn report_after_run(run_dir: &Path) -> Result<(), Vec<Diagnostic>> {
    let (written, dir) = runs::write_report_of_run(
        std::slice::from_ref(&run_dir.to_path_buf()),
        None,
        Path::new("reports"),
        &gridsim::report::ReportSettings::default(),
    )?;
    outln!("{}", written.line(&dir));
    Ok(())
}
