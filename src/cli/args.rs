//! The command line's arguments: every command, its options and their
//! defaults, declared for clap.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Parser)]
#[command(name = "gridsim", version, about = "Balance-analysis batch simulator for Gridforged")]
pub struct Cli {
    /// The rules file (every number of the rule book).
    #[arg(long, global = true, default_value = "configs/rules.toml")]
    pub rules: PathBuf,
    /// Card files or folders making up the catalog: cards, runes and
    /// resonances.
    #[arg(long, global = true, default_values = ["configs/cards", "configs/runes"])]
    pub cards: Vec<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// One fight between two boards.
    Fight(FightArgs),
    /// One showdown of a Riftbound suite, with its log: the chain, each
    /// event and the ruling it follows.
    Showdown(ShowdownArgs),
    /// One whole game of a Riftbound game suite, turn by turn, each line
    /// with the rule it follows.
    Game(GameArgs),
    /// Run a suite's fights across all cores into datasets/<run-id>/.
    Run(RunArgs),
    /// Play a match suite's matches (section 200): ten rounds of shops,
    /// bosses, rescue fights and nemesis ghosts with bot players.
    Match(MatchArgs),
    /// Re-run one fight of a run from its recorded seed, with its event
    /// log; in a match run, one match, round by round.
    Replay(ReplayArgs),
    /// Aggregate runs (or the shards of one run) into reports/<run-id>/.
    Report(ReportArgs),
    /// The nightly job: the suite on the current catalog into
    /// DATASETS/nightly/<date>/, its report compared with the previous night
    /// into REPORTS/<date>/, and REPORTS/index.html over every night. Exits
    /// with 3 when an outlier or a change beyond noise is found.
    Nightly(NightlyArgs),
    /// Hash every file of run directories against their manifests; non-zero
    /// exit when a file is missing, corrupt or not listed.
    Verify(VerifyArgs),
    /// Run a suite without keeping its output; print fights per second.
    Bench(BenchArgs),
    /// Try one number of one card at several values on the same suite and
    /// seeds; print the card's win rate at each, with its interval, and the
    /// value nearest the target. Writes sweep.csv, sweep.md, sweep.svg and
    /// sweep.json under OUT/sweep_CARD_FIELD/.
    Sweep(SweepArgs),
    /// Search for boards that beat the suite's boards most often: MAP-Elites
    /// over mean Speed and keyword count, with racing, under the suite's
    /// random-board rules. Writes board_NN.toml (ready for `gridsim fight`),
    /// suite_best.toml, search.md, search.json and archive.csv under
    /// OUT/search_SUITE_SEED/.
    Search(SearchArgs),
    /// Move the catalog's numbers so that every ranked row of the report
    /// lies in the band: one perturbation run gives every number's effect
    /// on every row, a proposal of the fewest whole-number changes is run
    /// on the suite's own fights and compared paired with the catalog as
    /// it is. Writes cards/, cards.diff, tune.md and tune.json under
    /// OUT/tune_SUITE_SEED/; a second call resumes what the first finished.
    Tune(TuneArgs),
    /// Check rules, card, board and scenario files; non-zero exit on any error.
    Validate(ValidateArgs),
    /// Write the JSON Schemas of card, rune, board and suite files, which
    /// editors read through .taplo.toml, derived from the loader's types.
    Schema(SchemaArgs),
    /// Write the catalog pages (docs/catalog.md and a page per tribe under
    /// docs/catalog/): every card's numbers and text as a player reads them,
    /// generated from the card files.
    Catalog(CatalogArgs),
    /// Run conformance scenarios and print each failed expectation.
    Scenario(ScenarioArgs),
    /// Coverage of every lettered rule of 800, 900 and 200 by the scenarios.
    Coverage(CoverageArgs),
}

/// The arguments of `gridsim fight`.
#[derive(Args)]
pub struct FightArgs {
    pub left: PathBuf,
    pub right: PathBuf,
    /// Master seed; the fight uses stream 0 of it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print the event log.
    #[arg(long)]
    pub log: bool,
    /// Print the outcome (and log) as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write the fight page: both grids, bars and statuses on a
    /// timeline to play and scrub, and the event log beside it.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// The arguments of `gridsim showdown`.
#[derive(Args)]
pub struct ShowdownArgs {
    /// The Riftbound suite (default: configs/riftbound/suites/default.toml).
    pub suite: Option<PathBuf>,
    /// The showdown's index in the suite: its lanes, attacker and stream.
    #[arg(long, default_value_t = 0)]
    pub id: u64,
    /// Master seed instead of the suite's.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write the showdown page: both lanes and the log.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// The arguments of `gridsim game`.
#[derive(Args)]
pub struct GameArgs {
    /// The game suite (default: configs/riftbound/suites/games.toml).
    pub suite: Option<PathBuf>,
    /// The game's index in the suite: its decks, bots and stream.
    #[arg(long, default_value_t = 0)]
    pub id: u64,
    /// Write the game's page: both decks and the log.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// What every command that writes a run shares: how it runs, where it
/// goes, which shard, resuming and reporting.
#[derive(Args)]
pub struct RunOptions {
    /// Worker threads (default: one per core). Results never depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Master seed instead of the suite's.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Folder that receives the run directory.
    #[arg(long, default_value = "datasets")]
    pub out: PathBuf,
    /// Only shard K of N (parts dealt round-robin), e.g. 0/4.
    #[arg(long)]
    pub shard: Option<String>,
    /// Continue an interrupted run in RUN_DIR without redoing finished parts.
    #[arg(long, value_name = "RUN_DIR")]
    pub resume: Option<PathBuf>,
    /// Write the report (reports/<run-id>/) as soon as the run is done.
    #[arg(long)]
    pub report: bool,
}

/// The arguments of `gridsim run`.
#[derive(Args)]
pub struct RunArgs {
    /// The suite (default: configs/suites/default.toml).
    pub suite: Option<PathBuf>,
    /// Run this many fights instead of the suite's number.
    #[arg(long)]
    pub fights: Option<u64>,
    /// Fights per part file. Rows never depend on it; a resume keeps the run's own.
    #[arg(long, default_value_t = gridsim_data::dataset::DEFAULT_PART_SIZE)]
    pub part_size: u64,
    #[command(flatten)]
    pub run: RunOptions,
}

/// The arguments of `gridsim match`.
#[derive(Args)]
pub struct MatchArgs {
    /// The match suite (default: configs/matches/solo.toml).
    pub suite: Option<PathBuf>,
    /// Play this many matches instead of the suite's number.
    #[arg(long)]
    pub matches: Option<u64>,
    /// Matches per part file. Rows never depend on it; a resume keeps the run's own.
    #[arg(long, default_value_t = gridsim_app::match_runs::DEFAULT_PART_SIZE)]
    pub part_size: u64,
    #[command(flatten)]
    pub run: RunOptions,
    /// Play only match INDEX and print its log, round by round; writes nothing.
    #[arg(long, value_name = "INDEX")]
    pub show: Option<u64>,
    /// With --show: the log as JSON lines.
    #[arg(long)]
    pub json: bool,
}

/// The arguments of `gridsim replay`.
#[derive(Args)]
pub struct ReplayArgs {
    pub run_dir: PathBuf,
    /// The fight id (the match index in a match run).
    #[arg(value_name = "ID")]
    pub fight_id: u64,
    /// Print the event log (a match's whole log).
    #[arg(long)]
    pub log: bool,
    #[arg(long)]
    pub json: bool,
    /// Write the fight page (as `gridsim fight --html`).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// The arguments of `gridsim report`.
#[derive(Args)]
pub struct ReportArgs {
    #[arg(required = true)]
    pub run_dirs: Vec<PathBuf>,
    /// Compare every figure with this earlier run.
    #[arg(long, value_name = "RUN_DIR")]
    pub baseline: Option<PathBuf>,
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// Rows with fewer fights are greyed and not ranked.
    #[arg(long, default_value_t = 200)]
    pub min_sample: u64,
    /// The neutral band in percent, `LOW,HIGH`.
    #[arg(long, default_value = "45,55")]
    pub band: String,
    /// Exit with code 3 when an outlier or a change beyond noise is found.
    #[arg(long)]
    pub alarm: bool,
}

/// The arguments of `gridsim nightly`.
#[derive(Args)]
pub struct NightlyArgs {
    /// The suite (default: configs/suites/default.toml).
    pub suite: Option<PathBuf>,
    /// The night, YYYY-MM-DD (default: today, UTC).
    #[arg(long)]
    pub date: Option<String>,
    /// Run this many fights instead of the suite's number.
    #[arg(long)]
    pub fights: Option<u64>,
    #[arg(long)]
    pub threads: Option<usize>,
    #[arg(long, default_value = "datasets")]
    pub datasets: PathBuf,
    #[arg(long, default_value = "reports")]
    pub reports: PathBuf,
}

/// The arguments of `gridsim verify`.
#[derive(Args)]
pub struct VerifyArgs {
    #[arg(required = true)]
    pub run_dirs: Vec<PathBuf>,
}

/// The arguments of `gridsim bench`.
#[derive(Args)]
pub struct BenchArgs {
    pub suite: Option<PathBuf>,
    #[arg(long)]
    pub fights: Option<u64>,
    #[arg(long)]
    pub threads: Option<usize>,
}

/// The arguments of `gridsim sweep`.
#[derive(Args)]
pub struct SweepArgs {
    /// The suite (default: configs/suites/default.toml).
    pub suite: Option<PathBuf>,
    /// The card's id.
    #[arg(long, required_unless_present_any = ["rune", "resonance"], conflicts_with_all = ["rune", "resonance"])]
    pub card: Option<String>,
    /// A rune's id instead of a card's; its win rate is the rune
    /// table's row.
    #[arg(long, conflicts_with = "resonance")]
    pub rune: Option<String>,
    /// A resonance's id instead of a card's.
    #[arg(long)]
    pub resonance: Option<String>,
    /// Where the number is in the card, e.g. `power[2]` (tier 3),
    /// `power[*]` (the whole ladder by its tier-1 number, its steps
    /// kept), `ability[0].amount`, `keywords[1]`; in a rune
    /// `effects[0].amount[1]`, in a resonance `effects[0].per_level`.
    #[arg(long)]
    pub field: String,
    /// `A..B`, `A..B:STEP` (both ends included) or `a,b,c`.
    #[arg(long)]
    pub values: String,
    /// A second number of the same card, swept across the first: every
    /// pair of values runs, drawn as a heat map.
    #[arg(long, requires = "values2")]
    pub field2: Option<String>,
    /// The second number's values, written as for --values.
    #[arg(long, requires = "field2")]
    pub values2: Option<String>,
    /// The win rate to aim for.
    #[arg(long, default_value_t = 0.5)]
    pub target: f64,
    /// Fights per value instead of the suite's number.
    #[arg(long)]
    pub fights: Option<u64>,
    /// Master seed instead of the suite's (the same for every value).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Folder that receives the sweep.
    #[arg(long, default_value = "datasets")]
    pub out: PathBuf,
    #[arg(long)]
    pub threads: Option<usize>,
}

/// The arguments of `gridsim tune`.
#[derive(Args)]
pub struct TuneArgs {
    /// The suite whose report is tuned (default: configs/suites/default.toml).
    pub suite: Option<PathBuf>,
    /// The band in percent, `LOW,HIGH`.
    #[arg(long, default_value = "45,55")]
    pub band: String,
    /// The numbers that may move: fields (every card's) or `card.field`,
    /// comma-separated, e.g. `power,vitality`, `grohm.vitality` or
    /// `keen_rune.amounts` (a card's or board rune's amounts, in percent).
    #[arg(long, default_value = gridsim_app::tune::DEFAULT_LEVERS)]
    pub levers: String,
    /// Fights to spend in all: the perturbation run (each pair twice), the
    /// run as it is and the verified rounds (default: a perturbation run of
    /// as many pairs as the suite has fights, and three rounds; a larger
    /// budget pays for more rounds, up to ten, then a larger perturbation
    /// run).
    #[arg(long)]
    pub budget: Option<u64>,
    /// The perturbation run's seed (default: derived from the suite's).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Folder that receives the tune.
    #[arg(long, default_value = "datasets")]
    pub out: PathBuf,
    #[arg(long)]
    pub threads: Option<usize>,
}

/// The arguments of `gridsim search`.
#[derive(Args)]
pub struct SearchArgs {
    /// The suite whose boards are the field (default: configs/suites/default.toml).
    pub suite: Option<PathBuf>,
    /// Fights to spend in all, the final measurement (a fifth) included.
    #[arg(long, default_value_t = 200_000)]
    pub budget: u64,
    /// Boards to return.
    #[arg(long, default_value_t = 8)]
    pub top: usize,
    /// Children bred per generation (generation 0 draws four times as
    /// many suite boards).
    #[arg(long, default_value_t = 16)]
    pub batch: usize,
    /// Seed of the search instead of the suite's.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Folder that receives the search.
    #[arg(long, default_value = "datasets")]
    pub out: PathBuf,
    #[arg(long)]
    pub threads: Option<usize>,
}

/// The arguments of `gridsim validate`.
#[derive(Args)]
pub struct ValidateArgs {
    /// Files or folders (default: configs/).
    pub paths: Vec<PathBuf>,
}

/// The arguments of `gridsim schema`.
#[derive(Args)]
pub struct SchemaArgs {
    /// The folder that receives them.
    #[arg(long, default_value = gridsim_config::json_schema::SCHEMA_DIR)]
    pub out: PathBuf,
}

/// The arguments of `gridsim catalog`.
#[derive(Args)]
pub struct CatalogArgs {
    /// The docs folder that receives catalog.md and catalog/.
    #[arg(long, default_value = gridsim_present::card_text::DOCS_DIR)]
    pub out: PathBuf,
}

/// The arguments of `gridsim scenario`.
#[derive(Args)]
pub struct ScenarioArgs {
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The catalog the scenarios' catalog cards and runes come from: a
    /// frozen copy, so tuning the starter catalog leaves the rule checks
    /// where they are (the global --cards is not read here).
    #[arg(long, default_value = gridsim_sim::scenario::CATALOG_DIR)]
    pub catalog: Vec<PathBuf>,
}

/// The arguments of `gridsim coverage`.
#[derive(Args)]
pub struct CoverageArgs {
    /// Scenario files or folders: Gridforged's and Riftbound's.
    #[arg(long, default_values = ["tests/conformance", "tests/riftbound"])]
    pub scenarios: Vec<PathBuf>,
    /// The scenarios' catalog, as for `gridsim scenario`.
    #[arg(long, default_value = gridsim_sim::scenario::CATALOG_DIR)]
    pub catalog: Vec<PathBuf>,
    /// One JSON object per rule letter.
    #[arg(long)]
    pub json: bool,
    /// Print Markdown (the committed docs/conformance.md).
    #[arg(long)]
    pub markdown: bool,
}
