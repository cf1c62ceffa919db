//! The `gridsim` command line. The only module that knows clap: it lowers
//! arguments into calls on the library and turns results into exit codes.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use gridsim::config::{self, Diagnostic};
use gridsim::coverage;
use gridsim::engine::{Engine, FightRng};
use gridsim::output;
use gridsim::scenario;
use gridsim::settings::Rules;

#[derive(Parser)]
#[command(name = "gridsim", version, about = "Balance-analysis batch simulator for Gridforged")]
struct Cli {
    /// The rules file (every number of the rule book).
    #[arg(long, global = true, default_value = "configs/rules.toml")]
    rules: PathBuf,
    /// Card files or folders making up the catalog.
    #[arg(long, global = true, default_value = "configs/cards")]
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
    },
    /// Check rules, card, board and scenario files; non-zero exit on any error.
    Validate {
        /// Files or folders (default: configs/).
        paths: Vec<PathBuf>,
    },
    /// Run conformance scenarios and print each failed expectation.
    Scenario {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Coverage of every lettered rule of 800, 900 and 200 by the scenarios.
    Coverage {
        /// Scenario files or folders.
        #[arg(long, default_value = "tests/conformance")]
        scenarios: Vec<PathBuf>,
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
        } => {
            let rules = config::load_rules(&cli.rules)?;
            let catalog = config::load_catalog(&cli.cards)?;
            let l = config::load_board(&left, &catalog, &rules)?;
            let r = config::load_board(&right, &catalog, &rules)?;
            let mut engine = Engine::new(&catalog, rules);
            if log {
                engine.enable_log();
            }
            engine.fight(&l, &r, FightRng::for_fight(seed, 0));
            let report = output::fight_report(&mut engine, &l.name, &r.name, seed, 0, log);
            if json {
                outln!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
            } else {
                out!("{}", output::to_text(&report));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Scenario { files } => {
            let rules = config::load_rules(&cli.rules)?;
            let reports = run_scenarios(&files, &cli.cards, &rules)?;
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
        Command::Coverage {
            scenarios,
            json,
            markdown,
        } => {
            let rules = config::load_rules(&cli.rules)?;
            let reports = run_scenarios(&scenarios, &cli.cards, &rules)?;
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

/// Loads the catalog and runs every scenario under `paths`, in path order.
fn run_scenarios(
    paths: &[PathBuf],
    cards: &[PathBuf],
    rules: &Rules,
) -> Result<Vec<scenario::ScenarioReport>, Vec<Diagnostic>> {
    let catalog = config::load_catalog(cards)?;
    let files = config::toml_files(paths).map_err(|d| vec![d])?;
    let mut reports = Vec::new();
    let mut bad = Vec::new();
    for f in files {
        match load_scenario(&f, &catalog, rules) {
            Ok(s) => reports.push(scenario::run(&s, rules)),
            Err(mut d) => bad.append(&mut d),
        }
    }
    if bad.is_empty() { Ok(reports) } else { Err(bad) }
}

fn load_scenario(
    file: &Path,
    catalog: &gridsim::catalog::Catalog,
    rules: &Rules,
) -> Result<scenario::Scenario, Vec<Diagnostic>> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| vec![Diagnostic::whole_file(file, format!("cannot read file: {e}"))])?;
    config::scenario::parse_scenario(file, &text, catalog, rules)
}
