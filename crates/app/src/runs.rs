//! Runs as a person asks for them: start one, resume one, replay a fight of
//! one, report on one or on its shards. The command line turns arguments
//! into one of these calls; everything that decides what a run is lives
//! here and in [`gridsim_data::dataset`].
//!
//! A run directory keeps its own copy of the rules, card and suite files it
//! ran (`inputs/`), so resume and replay read the run, not the working
//! directory, and work from anywhere.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gridsim_analysis::analysis::Tallies;
use gridsim_analysis::report::{self, Report, ReportSettings, RunData};
use gridsim_config::{self as config, Diagnostic};
use gridsim_core::atomic;
use gridsim_data::batch::{self, RunSummary};
use gridsim_data::board_table::BoardTable;
use gridsim_data::dataset::{self, FileEntry, Manifest, RunIdentity, RunKind, Shard, SuiteInfo};
use gridsim_data::pair_blocks::PairBlocks;
use gridsim_data::sink::RecordedFight;
use gridsim_engine::Engine;
use gridsim_engine::output::{self, FightReport};
use gridsim_model::catalog::Catalog;
use gridsim_model::settings::Rules;
use gridsim_sim::suite::Suite;

pub use crate::error::{Argument, Error};

/// A failure of the call itself, about no input file.
pub(crate) fn whole(message: impl Into<String>) -> Error {
    Error::Message(message.into())
}

pub(crate) fn read_text(path: &Path) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(|e| Error::file(path, format!("cannot read file: {e}")))
}

/// Everything a run is made of, loaded and checked.
pub struct Loaded {
    pub rules_text: String,
    pub rules: Rules,
    pub catalog: Catalog,
    /// The card files in loading order, with their text.
    pub card_files: Vec<(PathBuf, String)>,
    pub suite_text: String,
    /// The board files the suite lists, in its order, with their text.
    pub board_files: Vec<(PathBuf, String)>,
    pub suite: Suite,
}

impl Loaded {
    /// Loads rules, catalog and suite, with the board files the suite
    /// lists from `boards`.
    fn load(rules: &Path, cards: &[PathBuf], suite: &Path, boards: config::BoardSource) -> Result<Loaded, Error> {
        let rules_text = read_text(rules)?;
        let (parsed_rules, _) = config::parse_rules(rules, &rules_text)?;
        let card_files = read_card_files(cards)?;
        let catalog = config::load_catalog(cards)?;
        let suite_text = read_text(suite)?;
        let parsed_suite = config::parse_suite_from(suite, &suite_text, &catalog, &parsed_rules, boards)?;
        let mut board_files = Vec::new();
        for (k, listed) in config::suite_board_files(suite, &suite_text)?.into_iter().enumerate() {
            let text = match boards {
                config::BoardSource::NextToSuite => read_text(&listed)?,
                config::BoardSource::Copies(dir) => read_text(&dir.join(config::board_copy_name(k, &listed)))?,
            };
            board_files.push((listed, text));
        }
        Ok(Loaded {
            rules_text,
            rules: parsed_rules,
            catalog,
            card_files,
            suite_text,
            board_files,
            suite: parsed_suite,
        })
    }

    fn fights_identity(&self, part_size: u64) -> RunIdentity {
        RunIdentity {
            kind: RunKind::Fights,
            rules_sha256: atomic::sha256(self.rules_text.as_bytes()),
            catalog_hash: format!("{:016x}", self.catalog.fingerprint()),
            suite_sha256: self.suite_sha256(),
            master_seed: self.suite.master_seed,
            count: self.suite.fights,
            part_size,
        }
    }

    /// SHA-256 of the suite file followed by each board file it lists: a
    /// changed board changes the suite.
    fn suite_sha256(&self) -> String {
        let mut bytes = self.suite_text.clone().into_bytes();
        for (_, text) in &self.board_files {
            bytes.push(0);
            bytes.extend_from_slice(text.as_bytes());
        }
        atomic::sha256(&bytes)
    }
}

/// The inputs of one kind of run, loaded and checked: what starting a run,
/// resuming it and checking its copies need to know of its workload. Runs
/// of fights ([`Loaded`]) and of matches (`match_runs::LoadedMatches`)
/// share [`start`] and [`resume`] through it.
pub trait RunInputs: Sized {
    /// The kind of run these inputs make.
    const KIND: RunKind;

    /// Loads rules, catalog and suite from where a person keeps them.
    fn from_files(rules: &Path, cards: &[PathBuf], suite: &Path) -> Result<Self, Error>;

    /// Loads the copies under a run directory's `inputs/`.
    fn from_copies(dir: &Path) -> Result<Self, Error>;

    /// The suite's name, for the run directory's.
    fn suite_name(&self) -> &str;

    /// The suite's number of fights or matches and its master seed.
    fn count_and_seed(&mut self) -> (&mut u64, &mut u64);

    /// The boards the suite lists (0 when it lists none).
    fn suite_boards(&self) -> u64;

    /// What makes the run this run, with parts of `part_size`.
    fn identity(&self, part_size: u64) -> RunIdentity;

    /// Writes the copies of the inputs into a new run directory.
    fn write_inputs(&self, dir: &Path) -> Result<Vec<FileEntry>, String>;

    /// Plays the parts `manifest` has not finished into `dir`.
    fn run_parts(&self, manifest: Manifest, dir: &Path, threads: usize, progress: bool) -> Result<RunSummary, Error>;

    /// The report of a run of this kind in `runs` (one directory, or its
    /// shards), compared with `baseline` if given. By default the report of
    /// a run of contests: fights, showdowns and games share it, a run of
    /// matches has its own.
    fn report(runs: &RunDirs, baseline: Option<&Path>, settings: &ReportSettings) -> Result<Written, Error> {
        contest_report(runs, baseline, settings).map(Written::Contests)
    }

    /// Loads the copies a run directory keeps of its inputs, and checks that
    /// they still make the run the manifest describes.
    fn from_run(dir: &Path, m: &Manifest) -> Result<Self, Error> {
        let mut loaded = Self::from_copies(dir)?;
        let (count, seed) = loaded.count_and_seed();
        *count = m.identity.count;
        *seed = m.identity.master_seed;
        loaded
            .identity(m.identity.part_size)
            .same_run("its inputs/", &m.identity, "its manifest")
            .map_err(|e| whole(format!("{}: {e}", dir.display())))?;
        Ok(loaded)
    }
}

impl RunInputs for Loaded {
    const KIND: RunKind = RunKind::Fights;

    fn from_files(rules: &Path, cards: &[PathBuf], suite: &Path) -> Result<Loaded, Error> {
        Loaded::load(rules, cards, suite, config::BoardSource::NextToSuite)
    }

    fn from_copies(dir: &Path) -> Result<Loaded, Error> {
        Loaded::load(
            &dir.join(dataset::INPUT_RULES),
            &[dir.join(dataset::INPUT_CARDS)],
            &dir.join(dataset::INPUT_SUITE),
            config::BoardSource::Copies(&dir.join(dataset::INPUT_BOARDS)),
        )
    }

    fn suite_name(&self) -> &str {
        &self.suite.name
    }

    fn count_and_seed(&mut self) -> (&mut u64, &mut u64) {
        (&mut self.suite.fights, &mut self.suite.master_seed)
    }

    fn suite_boards(&self) -> u64 {
        self.suite.boards.len() as u64
    }

    fn identity(&self, part_size: u64) -> RunIdentity {
        self.fights_identity(part_size)
    }

    fn write_inputs(&self, dir: &Path) -> Result<Vec<FileEntry>, String> {
        write_input_copies(
            dir,
            Some(&self.rules_text),
            &self.suite_text,
            &self.card_files,
            &self.board_files,
        )
    }

    fn run_parts(&self, manifest: Manifest, dir: &Path, threads: usize, progress: bool) -> Result<RunSummary, Error> {
        let fights = batch::Fights::new(&self.suite, &self.catalog, &self.rules);
        batch::run(&fights, manifest, dir, threads, progress).map_err(whole)
    }
}

/// Writes the copies of a run's inputs into its new directory: the rules
/// (a Riftbound run has no rules file), the suite, every card file
/// (numbered in loading order, which keeps every card's index) and every
/// board file the suite lists (numbered in its order).
pub(crate) fn write_input_copies(
    dir: &Path,
    rules_text: Option<&str>,
    suite_text: &str,
    card_files: &[(PathBuf, String)],
    board_files: &[(PathBuf, String)],
) -> Result<Vec<FileEntry>, String> {
    let cards_dir = dir.join(dataset::INPUT_CARDS);
    std::fs::create_dir_all(&cards_dir).map_err(|e| format!("{}: cannot create: {e}", cards_dir.display()))?;
    let mut files: Vec<(String, &str)> = rules_text
        .map(|r| (dataset::INPUT_RULES.to_string(), r))
        .into_iter()
        .collect();
    files.push((dataset::INPUT_SUITE.to_string(), suite_text));
    for (k, (path, text)) in card_files.iter().enumerate() {
        let name = path
            .file_name()
            .map_or_else(|| "cards.toml".into(), |n| n.to_string_lossy());
        files.push((format!("{}/{k:03}-{name}", dataset::INPUT_CARDS), text.as_str()));
    }
    for (k, (path, text)) in board_files.iter().enumerate() {
        let rel = format!("{}/{}", dataset::INPUT_BOARDS, config::board_copy_name(k, path));
        files.push((rel, text.as_str()));
    }
    if !board_files.is_empty() {
        let boards_dir = dir.join(dataset::INPUT_BOARDS);
        std::fs::create_dir_all(&boards_dir).map_err(|e| format!("{}: cannot create: {e}", boards_dir.display()))?;
    }
    files
        .into_iter()
        .map(|(rel, text)| {
            let done = atomic::write(&dir.join(&rel), text.as_bytes())?;
            Ok(FileEntry {
                path: rel,
                rows: 0,
                sha256: done.sha256,
            })
        })
        .collect()
}

/// Reads the card files a catalog is loaded from, in loading order, with
/// their text (for the run's copies).
pub(crate) fn read_card_files(cards: &[PathBuf]) -> Result<Vec<(PathBuf, String)>, Error> {
    let files = config::toml_files(cards).map_err(|d| vec![d])?;
    files.into_iter().map(|f| read_text(&f).map(|text| (f, text))).collect()
}

/// A new, empty run directory for a suite, seed and shard under `out`.
pub(crate) fn new_run_dir(out: &Path, suite: &str, seed: u64, shard: Shard) -> Result<PathBuf, Error> {
    let dir = dataset::run_dir(out, suite, seed, shard);
    if dir.exists() && std::fs::read_dir(&dir).map(|mut d| d.next().is_some()).unwrap_or(false) {
        return Err(whole(format!(
            "{}: already holds a run; resume it with `--resume {}` or choose another `--out`",
            dir.display(),
            dir.display()
        )));
    }
    std::fs::create_dir_all(&dir).map_err(|e| whole(format!("{}: cannot create: {e}", dir.display())))?;
    Ok(dir)
}

/// The manifest of a run that has not finished a part yet.
pub(crate) fn first_manifest(
    identity: RunIdentity,
    suite: SuiteInfo,
    shard: Shard,
    threads: usize,
    inputs: Vec<FileEntry>,
) -> Manifest {
    Manifest {
        format: dataset::FORMAT,
        gridsim_version: env!("CARGO_PKG_VERSION").to_string(),
        identity,
        suite,
        shard,
        threads,
        started_at: dataset::utc_now(),
        finished_at: None,
        complete: false,
        inputs,
        boards_file: None,
        parts: Vec::new(),
    }
}

/// A new run, as asked for on the command line.
#[derive(Debug, Clone)]
pub struct NewRun {
    pub rules: PathBuf,
    pub cards: Vec<PathBuf>,
    pub suite: PathBuf,
    /// Fights or matches, when not the suite's own number.
    pub count: Option<u64>,
    pub seed: Option<u64>,
    /// Folder that receives the run directory.
    pub out: PathBuf,
    pub shard: Shard,
    pub part_size: u64,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    pub progress: bool,
}

/// Starts a run of `L`'s kind in a new run directory.
pub fn start<L: RunInputs>(req: &NewRun) -> Result<RunSummary, Error> {
    let mut loaded = L::from_files(&req.rules, &req.cards, &req.suite)?;
    let (count, seed) = loaded.count_and_seed();
    if let Some(n) = req.count {
        *count = n;
    }
    if let Some(s) = req.seed {
        *seed = s;
    }
    let master_seed = *seed;
    let dir = new_run_dir(&req.out, loaded.suite_name(), master_seed, req.shard)?;
    let inputs = loaded.write_inputs(&dir).map_err(whole)?;
    let suite = SuiteInfo {
        name: loaded.suite_name().to_string(),
        file: req.suite.display().to_string(),
        boards: loaded.suite_boards(),
    };
    let manifest = first_manifest(
        loaded.identity(req.part_size.max(1)),
        suite,
        req.shard,
        req.threads,
        inputs,
    );
    loaded.run_parts(manifest, &dir, req.threads, req.progress)
}

/// Continues a run of `L`'s kind: finished parts are kept, a part whose
/// file is missing or corrupt is run again (parts are deterministic), and
/// only what cannot be regenerated — a damaged copy of the inputs, a
/// foreign file — stops it. `notes` receives one line per part that will
/// be run again.
pub fn resume<L: RunInputs>(
    dir: &Path,
    threads: usize,
    progress: bool,
    notes: &mut dyn FnMut(String),
) -> Result<RunSummary, Error> {
    let m = prepare_resume(dir, L::KIND, threads, notes)?;
    let loaded = L::from_run(dir, &m)?;
    loaded.run_parts(m, dir, threads, progress)
}

/// Readies a run directory of `kind` for a resume: checks every finished
/// file, removes the files of any part that must run again (and the
/// temporary files of an interrupted write), and returns the manifest with
/// only the parts that stay. `notes` receives one line per file or part
/// that will be written again.
fn prepare_resume(dir: &Path, kind: RunKind, threads: usize, notes: &mut dyn FnMut(String)) -> Result<Manifest, Error> {
    let mut m = Manifest::read(dir).map_err(whole)?;
    if m.identity.kind != kind {
        return Err(whole(format!(
            "{}: a run of {}; resume it with `gridsim {} --resume`",
            dir.display(),
            m.identity.kind.noun(),
            m.identity.kind.command()
        )));
    }
    let audit = dataset::audit(dir, &m, true).map_err(whole)?;
    if !audit.fatal.is_empty() {
        return Err(audit
            .fatal
            .into_iter()
            .map(|why| Diagnostic::whole_file(dir, format!("cannot resume: {why}")))
            .collect());
    }
    for (part, why) in &audit.bad_parts {
        notes(format!("{why}; running part {part} again"));
    }
    let bad: Vec<u64> = audit.bad_parts.iter().map(|(p, _)| *p).collect();
    for p in m.parts.iter().filter(|p| bad.contains(&p.index)) {
        for f in &p.files {
            let _ = std::fs::remove_file(dir.join(&f.path));
        }
    }
    m.parts.retain(|p| !bad.contains(&p.index));
    if let Some(why) = audit.bad_boards {
        notes(format!("{why}; writing the boards table again"));
        m.boards_file = None;
    }
    for path in &audit.unrecorded {
        notes(format!(
            "{}: written but not recorded when the run stopped; writing it again",
            path.display()
        ));
        std::fs::remove_file(path).map_err(|e| whole(format!("{}: cannot remove: {e}", path.display())))?;
    }
    remove_unfinished(dir).map_err(whole)?;
    m.complete = false;
    m.finished_at = None;
    m.threads = threads;
    Ok(m)
}

fn remove_unfinished(dir: &Path) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: cannot list: {e}", dir.display()))?;
    for e in entries.flatten() {
        if e.file_name().to_string_lossy().ends_with(".tmp") {
            std::fs::remove_file(e.path()).map_err(|err| format!("{}: cannot remove: {err}", e.path().display()))?;
        }
    }
    Ok(())
}

/// What the run in `dir` plays: fights or matches.
pub fn kind_of(dir: &Path) -> Result<RunKind, String> {
    Ok(Manifest::read(dir)?.identity.kind)
}

/// One fight of a run, re-run from its recorded seed.
pub struct Replayed {
    pub report: FightReport,
    /// The fight page, when asked for.
    pub page: Option<String>,
    /// The row the run recorded, when this run directory holds its part.
    pub recorded: Option<RecordedFight>,
}

impl Replayed {
    /// Whether the replay reproduced the recorded row (true when there is
    /// no recorded row to compare with).
    pub fn reproduces(&self) -> bool {
        self.recorded.as_ref().is_none_or(|rec| {
            let r = &self.report;
            rec.winner == r.winner
                && rec.end_reason == r.reason
                && rec.end_ms == r.end_ms
                && rec.left_survivors == r.left_survivors
                && rec.right_survivors == r.right_survivors
                && rec.left_vitality == r.left_vitality
                && rec.right_vitality == r.right_vitality
        })
    }
}

/// Re-runs fight `fight_id` of the run in `dir` with its event log, from the
/// run's own copy of its inputs.
pub fn replay(dir: &Path, fight_id: u64, with_log: bool, with_page: bool) -> Result<Replayed, Error> {
    let m = Manifest::read(dir).map_err(whole)?;
    let loaded = Loaded::from_run(dir, &m)?;
    let s = &loaded.suite;
    if fight_id >= s.fights {
        return Err(whole(format!(
            "fight {fight_id} is not in this run (it holds fights 0..{})",
            s.fights
        )));
    }
    let file = m
        .parts
        .iter()
        .find(|p| p.holds(fight_id))
        .and_then(|p| p.file(RunKind::Fights, "fights"));
    let recorded = match file {
        Some(f) => gridsim_data::sink::read_fight(&dir.join(&f.path), fight_id).map_err(whole)?,
        None => None,
    };
    let (l, r) = s.pairing(fight_id);
    let (lb, rb) = (&s.boards[l as usize], &s.boards[r as usize]);
    let mut engine = Engine::new(&loaded.catalog, loaded.rules);
    engine.enable_log();
    if with_page {
        engine.enable_trace();
    }
    engine.fight(lb, rb, s.stream(fight_id));
    let mut report = output::fight_report(
        &mut engine,
        &lb.name,
        &rb.name,
        s.master_seed,
        fight_id,
        with_log || with_page,
    );
    let page = with_page.then(|| gridsim_present::fight_page::html(&engine, &report));
    if !with_log {
        report.log = None;
    }
    Ok(Replayed { report, page, recorded })
}

/// What `gridsim verify` found in one run directory.
#[derive(Debug)]
pub struct Verified {
    /// Files hashed and found as the manifest recorded them.
    pub files: usize,
    /// Every problem, each naming its file; empty when the run is intact.
    pub problems: Vec<String>,
}

/// Hashes every file a run's manifest lists (inputs, boards table, every
/// fights and units part) and looks for files it does not list: the full
/// check the report leaves out for the units parts it does not read.
pub fn verify(dir: &Path) -> Result<Verified, String> {
    let m = Manifest::read(dir)?;
    let a = dataset::audit(dir, &m, false)?;
    let problems: Vec<String> = a
        .fatal
        .into_iter()
        .chain(a.bad_boards)
        .chain(a.bad_parts.into_iter().map(|(_, why)| why))
        .collect();
    Ok(Verified {
        files: m.files().len(),
        problems,
    })
}

/// The directories of one run (one, or the shards of one run) with their
/// manifests: what every report reads a run through.
pub struct RunDirs {
    manifests: Vec<(PathBuf, Manifest)>,
}

impl RunDirs {
    /// Reads the manifest of each directory in `dirs` (at least one).
    pub fn read(dirs: &[PathBuf]) -> Result<RunDirs, String> {
        if dirs.is_empty() {
            return Err("name at least one run directory".to_string());
        }
        let mut manifests = Vec::new();
        for d in dirs {
            manifests.push((d.clone(), Manifest::read(d)?));
        }
        Ok(RunDirs { manifests })
    }

    /// The first directory named and its manifest: the run's name, inputs
    /// and boards are read from it.
    pub fn first(&self) -> (&Path, &Manifest) {
        let (d, m) = &self.manifests[0];
        (d, m)
    }

    /// Every directory with its manifest, in the order named.
    pub fn manifests(&self) -> &[(PathBuf, Manifest)] {
        &self.manifests
    }

    /// Every part of every directory, with its directory.
    pub fn parts(&self) -> impl Iterator<Item = (&Path, &dataset::PartEntry)> {
        self.manifests
            .iter()
            .flat_map(|(d, m)| m.parts.iter().map(move |p| (d.as_path(), p)))
    }

    /// How each directory is named in a report: its [`run_label`].
    pub fn labels(&self) -> Vec<String> {
        self.manifests.iter().map(|(d, _)| run_label(d)).collect()
    }

    /// `read`'s result once every file of every directory is verified and
    /// the directories are checked to be one run (each a shard of the
    /// first's run, no part in two of them). `read` runs while the files it
    /// does not read are still being hashed; its result is returned only
    /// once every file passed.
    pub fn verified<T>(&self, read: impl FnOnce(&RunDirs) -> Result<T, String>) -> Result<T, String> {
        dataset::verify_read(&self.manifests, || {
            self.check_one_run()?;
            read(self)
        })
    }

    fn check_one_run(&self) -> Result<(), String> {
        let (first_dir, first) = self.first();
        for (d, m) in &self.manifests[1..] {
            first
                .identity
                .same_run(&first_dir.display().to_string(), &m.identity, &d.display().to_string())
                .map_err(|e| {
                    format!(
                        "{}: not a shard of the same run as {}: {e}",
                        d.display(),
                        first_dir.display()
                    )
                })?;
        }
        let mut seen = std::collections::BTreeSet::new();
        for (d, p) in self.parts() {
            if !seen.insert(p.index) {
                return Err(format!(
                    "{}: part {} is also in another run directory given",
                    d.display(),
                    p.index
                ));
            }
        }
        Ok(())
    }
}

/// Reads run directories (one run, or the shards of one run) of contests
/// (fights, showdowns or games) into a report, after [`RunDirs::verified`].
pub fn report_of(dirs: &[PathBuf], s: &ReportSettings) -> Result<Report, String> {
    let (data, identity) = run_data_of(dirs)?;
    let mut rep = data.report(s)?;
    rep.vocabulary = gridsim_analysis::report::Vocabulary::of(identity.kind);
    Ok(rep)
}

/// Reads run directories (one run, or the shards of one run) after the
/// checks of [`RunDirs::verified`]: the run's tallies and boards, and its identity.
pub fn run_data_of(dirs: &[PathBuf]) -> Result<(RunData, dataset::RunIdentity), String> {
    RunDirs::read(dirs)?.verified(|runs| Ok((contest_data(runs)?, runs.first().1.identity.clone())))
}

/// Reads a verified run of contests for its report: the boards table, the
/// saved tallies or the contests tallied again, the printed names from the
/// run's own catalog, and a run of games' own tables.
fn contest_data(runs: &RunDirs) -> Result<RunData, String> {
    let (first_dir, first) = runs.first();
    let mut fight_files = Vec::new();
    let mut card_files = Vec::new();
    for (d, p) in runs.parts() {
        let kind = first.identity.kind;
        let f = kind.contest_table().and_then(|t| p.file(kind, t)).ok_or_else(|| {
            format!(
                "{}: a run of matches; its report is `gridsim report` on a match run",
                d.display()
            )
        })?;
        fight_files.push(d.join(&f.path));
        if let Some(f) = p.file(kind, "card_events") {
            card_files.push(d.join(&f.path));
        }
    }
    let boards_entry = first
        .boards_file
        .as_ref()
        .ok_or_else(|| format!("{}: the run has no boards table", first_dir.display()))?;
    let mut boards = BoardTable::default();
    gridsim_data::sink::for_each_board(&first_dir.join(&boards_entry.path), |row| boards.push(&row))?;
    let fights = runs.parts().map(|(_, p)| p.count).sum();
    let tallies = saved_tallies(first_dir, &saved_tallies_key(runs.manifests()), || {
        Ok(gridsim_analysis::analysis::tally(
            &fight_files,
            fights,
            boards.len() as u32,
        )?)
    })?;
    // Printed names from the run's own copy of the catalog, already hashed.
    let cards = [first_dir.join(dataset::INPUT_CARDS)];
    let joined = |d: Vec<config::Diagnostic>| d.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n");
    let mut catalog_keys: Vec<(String, String)> = Vec::new();
    let printed: BTreeMap<String, String> = if matches!(first.identity.kind, RunKind::Showdowns | RunKind::Games) {
        let catalog = config::load_riftbound_catalog(&cards).map_err(joined)?;
        catalog_keys = catalog.cards.iter().map(|c| (c.key.clone(), c.name.clone())).collect();
        catalog_keys.iter().cloned().collect()
    } else {
        let catalog = config::load_catalog(&cards).map_err(joined)?;
        catalog.cards.iter().map(|c| (c.key.clone(), c.name.clone())).collect()
    };
    let names = runs
        .manifests()
        .iter()
        .map(|(d, _)| {
            d.file_name()
                .map_or_else(|| d.display().to_string(), |n| n.to_string_lossy().into_owned())
        })
        .collect();
    let games = if first.identity.kind == RunKind::Games {
        Some(report::GameData::read(
            &first_dir.join(&boards_entry.path),
            &fight_files,
            &card_files,
            catalog_keys,
        )?)
    } else {
        None
    };
    Ok(RunData {
        names,
        tallies,
        boards,
        printed,
        games,
    })
}

/// What saved tallies were made from: the SHA-256 of the boards table and
/// of each fights part the manifests list, in order. Tallies saved from
/// other files (a resumed run with more parts, another set of shards)
/// have another key and are made again.
pub fn saved_tallies_key(manifests: &[(PathBuf, Manifest)]) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    for (_, m) in manifests {
        for f in m.boards_file.iter().chain(m.parts.iter().flat_map(|p| &p.files)) {
            hash.update(f.path.as_bytes());
            hash.update(b" ");
            hash.update(f.sha256.as_bytes());
            hash.update(b"\n");
        }
    }
    format!("{:x}", hash.finalize())
}

/// The run's tallies saved in `dir` under `key`; otherwise `tally()`'s,
/// saved there for next time. Saving is a convenience: a run directory
/// that cannot be written to, or damaged saved tallies, cost only the
/// time to tally again, said on standard error.
fn saved_tallies(dir: &Path, key: &str, tally: impl FnOnce() -> Result<Tallies, String>) -> Result<Tallies, String> {
    let path = dir.join(dataset::SAVED_TALLIES);
    match PairBlocks::open(&path, key) {
        Ok(Some(pairs)) => return Ok(Tallies::from_blocks(pairs)?),
        Ok(None) => {}
        Err(e) => eprintln!("warning: {e}; tallying the fights again"),
    }
    let tallies = tally()?;
    if let Err(e) = tallies.pairs.save(&path, key) {
        eprintln!("warning: the tallies were not saved: {e}");
    }
    Ok(tallies)
}

/// A report of a run, of whichever kind: what `gridsim report` writes.
pub enum Written {
    /// Of a run of contests: fights, showdowns or games.
    Contests(Report),
    Matches(gridsim_analysis::match_report::MatchReport),
}

impl Written {
    /// What the command prints once the report is written to `dir`.
    pub fn line(&self, dir: &Path) -> String {
        let page = dir.join("index.html");
        match self {
            Written::Contests(r) => format!(
                "{} {}, {} outliers{}{} -> {}",
                r.fights,
                r.vocabulary.contests,
                r.outliers.len(),
                if r.baseline.is_some() {
                    format!(", {} changes beyond noise", r.significant_changes.len())
                } else {
                    String::new()
                },
                r.games.as_ref().map_or(String::new(), |g| {
                    let (decks, cards, moved) = g.flags();
                    format!("; games: {decks} decks and {cards} cards flagged, {moved} changes beyond noise")
                }),
                page.display()
            ),
            Written::Matches(r) => format!(
                "{} matches, {} cards, {} runes -> {}",
                r.matches,
                r.cards.len(),
                r.runes.len(),
                page.display()
            ),
        }
    }

    /// Whether `--alarm` fires: an outlier or a change beyond noise.
    pub fn alarms(&self) -> bool {
        match self {
            Written::Contests(r) => {
                !r.outliers.is_empty()
                    || !r.significant_changes.is_empty()
                    || r.games.as_ref().is_some_and(|g| g.flags() != (0, 0, 0))
            }
            Written::Matches(_) => false,
        }
    }

    /// Writes index.html, summary.md and summary.json into `dir`.
    pub fn write(&self, dir: &Path) -> Result<PathBuf, Error> {
        match self {
            Written::Contests(r) => write_pages(
                dir,
                r,
                gridsim_present::render::html(r),
                gridsim_present::render::markdown(r),
            ),
            Written::Matches(r) => write_pages(
                dir,
                r,
                gridsim_present::render::match_html(r),
                gridsim_present::render::match_markdown(r),
            ),
        }
    }
}

/// The report of the run `L` makes in `run_dirs`, written under
/// `out/<run-id>/` as [`Written::write`] writes it: the one path every
/// kind of run's report takes. The command line picks `L` by the run's
/// kind, as it does to start or resume a run.
pub fn write_report_with<L: RunInputs>(
    run_dirs: &[PathBuf],
    baseline: Option<&Path>,
    out: &Path,
    settings: &ReportSettings,
) -> Result<(Written, PathBuf), Error> {
    let runs = RunDirs::read(run_dirs).map_err(whole)?;
    let written = L::report(&runs, baseline, settings)?;
    let dir = written.write(&out.join(report_name(runs.first().0)))?;
    Ok((written, dir))
}

/// Builds the report of the run of fights in `run_dirs` (compared with
/// `baseline` if given) and writes index.html, summary.md and summary.json
/// under `out/<run-id>/`. Returns the report and its directory.
pub fn write_report(
    run_dirs: &[PathBuf],
    baseline: Option<&Path>,
    out: &Path,
    settings: &ReportSettings,
) -> Result<(Report, PathBuf), Error> {
    match write_report_with::<Loaded>(run_dirs, baseline, out, settings)? {
        (Written::Contests(r), dir) => Ok((r, dir)),
        (Written::Matches(_), _) => unreachable!("a run of fights reports as contests"),
    }
}

/// The report of a run of contests in `runs`, compared with `baseline` if
/// given: paired when the two runs fought the same fights between the same
/// boards, as independent runs otherwise.
fn contest_report(runs: &RunDirs, baseline: Option<&Path>, settings: &ReportSettings) -> Result<Report, Error> {
    let (now, identity) = runs
        .verified(|r| Ok((contest_data(r)?, r.first().1.identity.clone())))
        .map_err(whole)?;
    let mut rep = now.report(settings).map_err(whole)?;
    rep.vocabulary = gridsim_analysis::report::Vocabulary::of(identity.kind);
    if let Some(b) = baseline {
        let (base, base_identity) = run_data_of(&[b.to_path_buf()]).map_err(whole)?;
        // Paired when the two runs fought the same fights between the same
        // boards: the tallies then differ only by what changed.
        let shared = match identity.shares_fights(&base_identity) {
            Ok(why) if now.boards == base.boards => Ok(why),
            Ok(_) => Err("the runs' boards tables differ".to_string()),
            Err(e) => Err(e.to_string()),
        };
        let label = run_label(b);
        match shared {
            Ok(why) => report::compare(
                &mut rep,
                report::Against::Paired {
                    now: &now.tallies,
                    base: &base.tallies,
                    boards: &now.boards,
                    why,
                },
                label,
            )
            .map_err(whole)?,
            Err(why) => {
                let rates = report::rate_rows(&base.tallies, &base.boards, settings).map_err(whole)?;
                report::compare(
                    &mut rep,
                    report::Against::Independent {
                        rates: rates.each_ref(),
                        why,
                    },
                    label,
                )
                .map_err(whole)?;
            }
        }
        if let (Some(g), Some(now_games), Some(base_games)) = (rep.games.as_deref_mut(), &now.games, &base.games) {
            report::compare_games(g, now_games, base_games, run_label(b), rep.false_discovery_rate);
            // The comparison above rewrote the opening paragraph.
            rep.what_changed = format!("{}{}", g.headline(), rep.what_changed);
        }
    }
    Ok(rep)
}

/// Writes a report's three files into `dir` (made if missing):
/// `index.html`, `summary.md` and `summary.json`, each atomically.
fn write_pages(dir: &Path, report: &impl serde::Serialize, html: String, markdown: String) -> Result<PathBuf, Error> {
    std::fs::create_dir_all(dir).map_err(|e| whole(format!("{}: cannot create: {e}", dir.display())))?;
    let json = serde_json::to_string_pretty(report).map_err(|e| whole(e.to_string()))?;
    for (name, text) in [("index.html", html), ("summary.md", markdown), ("summary.json", json)] {
        atomic::write(&dir.join(name), text.as_bytes()).map_err(whole)?;
    }
    Ok(dir.to_path_buf())
}

/// The report's directory name: the run's name without a shard suffix.
pub fn report_name(run_dir: &std::path::Path) -> String {
    let name = run_dir
        .file_name()
        .map_or_else(|| "run".to_string(), |n| n.to_string_lossy().into_owned());
    match name.rfind("-shard") {
        Some(i) => name[..i].to_string(),
        None => name,
    }
}

/// How the page names a run it compares with: its [`report_name`], and the
/// night's date for a nightly run, since every night's run has the same
/// name and sits in a folder named by its date.
pub fn run_label(run_dir: &std::path::Path) -> String {
    let night = run_dir
        .parent()
        .and_then(|p| p.file_name())
        .map(|d| d.to_string_lossy().into_owned())
        .filter(|d| is_date(d));
    match night {
        Some(date) => format!("{} of {date}", report_name(run_dir)),
        None => report_name(run_dir),
    }
}

/// Whether `date` is a calendar date written `YYYY-MM-DD`.
pub fn is_date(date: &str) -> bool {
    let b = date.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' || !digits(0..4) || !digits(5..7) || !digits(8..10) {
        return false;
    }
    let month: u32 = date[5..7].parse().unwrap_or(0);
    let day: u32 = date[8..10].parse().unwrap_or(0);
    (1..=12).contains(&month) && (1..=31).contains(&day)
}
