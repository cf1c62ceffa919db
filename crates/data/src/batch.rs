//! The batch runner: a run's parts across a rayon pool, each part written
//! and recorded in the manifest once finished, for every [`Workload`] (a
//! suite's fights here, whole matches in [`crate::match_rows`]).
//!
//! Parts are fixed ranges of fight ids, so a part's rows depend only on the
//! suite: any thread count, any shard layout and any resume give the same
//! files.

use crate::Error;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use rayon::prelude::*;

use crate::dataset::{self, FileEntry, Manifest, PartEntry, RunKind};
use crate::sink::{self, BoardRow, FightColumns, UnitColumns};
use gridsim_engine::Engine;
use gridsim_model::catalog::Catalog;
use gridsim_model::settings::Rules;
use gridsim_model::spec::Side;
use gridsim_sim::suite::Suite;

/// What a finished run did.
#[derive(Debug, Clone)]
pub struct RunSummary {
    pub dir: PathBuf,
    /// Fights (or matches) run by this call.
    pub ran: u64,
    pub seconds: f64,
    pub threads: usize,
}

/// What a run plays, part by part: the fights of a suite, whole matches,
/// and whatever comes next. The runner ([`run`]) owns a part's lifecycle
/// (which parts are left, the worker pool, the manifest, progress, the
/// summary) once for every workload; a workload only plays one part and
/// writes its tables.
///
/// A part is a fixed range of ids, and what a workload writes for it may
/// depend on nothing but those ids and the workload: any thread count,
/// shard layout or resume then gives the same files.
pub trait Workload: Sync {
    /// What one worker keeps from part to part (an engine and its row
    /// buffers): made once per worker, so a part allocates nothing new.
    type Worker;
    /// The kind of run the manifest records: its tables and its noun.
    fn kind(&self) -> RunKind;
    /// A fresh worker.
    fn worker(&self) -> Self::Worker;
    /// The tables written once per run before any part, recorded in
    /// `manifest` (a run of fights' boards table); none by default.
    fn write_run_tables(&self, _manifest: &mut Manifest, _dir: &Path) -> Result<(), Error> {
        Ok(())
    }
    /// Plays ids `first..first + count` (part `part`) and writes the part's
    /// files under `dir`: one per table of [`Workload::kind`], in its order.
    fn play_part(
        &self,
        worker: &mut Self::Worker,
        part: u64,
        first: u64,
        count: u64,
        dir: &Path,
    ) -> Result<Vec<FileEntry>, Error>;
}

/// Runs the parts of `manifest` that are not finished yet into `dir`,
/// recording each in the manifest as it finishes. The manifest is prepared
/// by the app layer's `runs` (a new run, or a resumed one with its damaged parts
/// removed); `threads` 0 means one per core.
pub fn run<W: Workload>(
    workload: &W,
    mut manifest: Manifest,
    dir: &Path,
    threads: usize,
    show_progress: bool,
) -> Result<RunSummary, Error> {
    assert_eq!(
        manifest.identity.kind,
        workload.kind(),
        "a manifest of another kind of run"
    );
    let threads = thread_count(threads);
    manifest.threads = threads;
    workload.write_run_tables(&mut manifest, dir)?;
    manifest.write(dir)?;

    let done: Vec<u64> = manifest.parts.iter().map(|p| p.index).collect();
    let todo: Vec<u64> = manifest
        .expected_parts()
        .into_iter()
        .filter(|p| !done.contains(p))
        .collect();
    let part_size = manifest.identity.part_size;
    let total = manifest.identity.count;
    let total_todo: u64 = todo.iter().map(|&p| part_len(p, part_size, total)).sum();

    let manifest = Mutex::new(manifest);
    let progress = Progress::new(show_progress, total_todo, workload.kind().noun());
    let started = Instant::now();
    let recorder = Recorder {
        manifest: &manifest,
        dir,
        progress: &progress,
    };
    let result = Driver::new(threads)?.drive(
        &todo,
        || workload.worker(),
        |worker, &part| {
            let first = part * part_size;
            let count = part_len(part, part_size, total);
            let files = workload.play_part(worker, part, first, count, dir)?;
            Ok(PartEntry {
                index: part,
                first,
                count,
                files,
            })
        },
        &recorder,
    );
    progress.finish();
    result?;
    let mut m = manifest
        .into_inner()
        .map_err(|_| Error::Workers("a worker failed while holding the manifest".into()))?;
    m.complete = true;
    m.finished_at = Some(dataset::utc_now());
    m.write(dir)?;
    Ok(RunSummary {
        dir: dir.to_path_buf(),
        ran: total_todo,
        seconds: started.elapsed().as_secs_f64(),
        threads,
    })
}

/// A suite's fights: a part is a range of fight ids, written as its
/// `fights` and `units` tables; the run's boards table comes first.
pub struct Fights<'a> {
    pub suite: &'a Suite,
    pub catalog: &'a Catalog,
    pub rules: &'a Rules,
    card_names: Vec<String>,
}

impl<'a> Fights<'a> {
    pub fn new(suite: &'a Suite, catalog: &'a Catalog, rules: &'a Rules) -> Fights<'a> {
        Fights {
            suite,
            catalog,
            rules,
            card_names: catalog.cards.iter().map(|c| c.key.clone()).collect(),
        }
    }
}

impl<'a> Workload for Fights<'a> {
    type Worker = (Engine<'a>, FightColumns, UnitColumns);

    fn kind(&self) -> RunKind {
        RunKind::Fights
    }

    fn worker(&self) -> Self::Worker {
        (
            Engine::new(self.catalog, *self.rules),
            FightColumns::default(),
            UnitColumns::default(),
        )
    }

    fn write_run_tables(&self, manifest: &mut Manifest, dir: &Path) -> Result<(), Error> {
        write_boards_once(manifest, dir, || board_rows(self.suite, self.catalog))
    }

    fn play_part(
        &self,
        (engine, fights, units): &mut Self::Worker,
        part: u64,
        first: u64,
        count: u64,
        dir: &Path,
    ) -> Result<Vec<FileEntry>, Error> {
        simulate(engine, self.suite, first, count, fights, units);
        let fname = dataset::part_file("fights", part);
        let uname = dataset::part_file("units", part);
        let fw = sink::write_fights(&dir.join(&fname), fights)?;
        let uw = sink::write_units(&dir.join(&uname), units, &self.card_names)?;
        Ok(vec![entry(&fname, &fw), entry(&uname, &uw)])
    }
}

/// Writes a run's `boards` table and records it in `manifest`, unless a
/// resumed run has it already.
pub fn write_boards_once(
    manifest: &mut Manifest,
    dir: &Path,
    rows: impl FnOnce() -> Vec<BoardRow>,
) -> Result<(), Error> {
    if manifest.boards_file.is_none() {
        let name = dataset::BOARDS;
        let written = sink::write_boards(&dir.join(name), &rows())?;
        manifest.boards_file = Some(entry(name, &written));
    }
    Ok(())
}

/// `threads`, or one per core for 0.
pub fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    }
}

/// Times `total` items played in parts of `part_size` on `threads`
/// workers (0: every core) with no output: each worker makes its state
/// once with `init`, then `work(state, first, count)` plays a part. The
/// bench of fights and of showdowns alike. Returns the wall seconds and
/// the threads used.
pub fn time_parts<S, I, W>(threads: usize, total: u64, part_size: u64, init: I, work: W) -> Result<(f64, usize), Error>
where
    I: Fn() -> S + Sync + Send,
    W: Fn(&mut S, u64, u64) + Sync + Send,
{
    let driver = Driver::new(threads)?;
    let part_size = part_size.max(1);
    let parts: Vec<u64> = (0..total.div_ceil(part_size)).collect();
    let started = Instant::now();
    driver.drive(
        &parts,
        init,
        |state, &part| {
            let first = part * part_size;
            work(state, first, part_size.min(total - first));
            Ok(())
        },
        &Discard,
    )?;
    Ok((started.elapsed().as_secs_f64(), driver.threads()))
}

/// The one way gridsim plays anything in parallel: a run's parts, a
/// bench, the seed matches of a ghost pool, a tune's perturbations and a
/// search's races all go through [`Driver::drive`]. A pool of workers, each
/// keeping its state (an engine and its buffers) from item to item, plays
/// the items and hands each result to a [`Sink`]. What an item produces
/// depends on the item alone, so any thread count gives the same results.
pub struct Driver {
    pool: rayon::ThreadPool,
    threads: usize,
}

/// Where the driver hands each item's result: called from the workers,
/// once per item, in any order, so a sink that needs an order keeps it
/// itself (as [`InOrder`] does).
pub trait Sink<T>: Sync {
    /// Takes the result of item `index` (its place in the driven list).
    fn take(&self, index: usize, value: T) -> Result<(), Error>;
}

impl Driver {
    /// A pool of `threads` workers, one per core for 0.
    pub fn new(threads: usize) -> Result<Driver, Error> {
        let threads = thread_count(threads);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| Error::Workers(format!("cannot start {threads} worker threads: {e}")))?;
        Ok(Driver { pool, threads })
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Plays every item with a worker's state (made by `init`, kept from
    /// item to item) and hands each result to `sink`; stops at the first
    /// error, of a play or of the sink.
    pub fn drive<I, S, T>(
        &self,
        items: &[I],
        init: impl Fn() -> S + Sync + Send,
        play: impl Fn(&mut S, &I) -> Result<T, Error> + Sync + Send,
        sink: &impl Sink<T>,
    ) -> Result<(), Error>
    where
        I: Sync,
    {
        self.pool.install(|| {
            items
                .par_iter()
                .enumerate()
                .try_for_each_init(&init, |state, (k, item)| sink.take(k, play(state, item)?))
        })
    }

    /// Every item's result, in the items' order.
    pub fn map<I, S, T>(
        &self,
        items: &[I],
        init: impl Fn() -> S + Sync + Send,
        play: impl Fn(&mut S, &I) -> T + Sync + Send,
    ) -> Result<Vec<T>, Error>
    where
        I: Sync,
        T: Send + Sync,
    {
        let out = InOrder::new(items.len());
        self.drive(items, init, |state, item| Ok(play(state, item)), &out)?;
        out.into_vec()
    }
}

/// A sink that keeps every result in its item's place.
pub struct InOrder<T> {
    slots: Vec<OnceLock<T>>,
}

impl<T> InOrder<T> {
    pub fn new(items: usize) -> InOrder<T> {
        InOrder {
            slots: (0..items).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The results in order; an error if an item was never played.
    pub fn into_vec(self) -> Result<Vec<T>, Error> {
        self.slots
            .into_iter()
            .enumerate()
            .map(|(k, slot)| {
                slot.into_inner()
                    .ok_or_else(|| Error::Workers(format!("item {k} was never played")))
            })
            .collect()
    }
}

impl<T: Send + Sync> Sink<T> for InOrder<T> {
    fn take(&self, index: usize, value: T) -> Result<(), Error> {
        self.slots[index]
            .set(value)
            .map_err(|_| Error::Workers(format!("item {index} was played twice")))
    }
}

/// A sink for work whose results are its side effects (a bench).
pub struct Discard;

impl Sink<()> for Discard {
    fn take(&self, _index: usize, _value: ()) -> Result<(), Error> {
        Ok(())
    }
}

/// A run's sink: each finished part recorded in the manifest, which is
/// written again at once, so a run stopped at any moment resumes from
/// the parts it lists.
struct Recorder<'r> {
    manifest: &'r Mutex<Manifest>,
    dir: &'r Path,
    progress: &'r Progress,
}

impl Sink<PartEntry> for Recorder<'_> {
    fn take(&self, _index: usize, part: PartEntry) -> Result<(), Error> {
        let count = part.count;
        let mut m = self
            .manifest
            .lock()
            .map_err(|_| Error::Workers("a worker failed while holding the manifest".into()))?;
        m.parts.push(part);
        m.write(self.dir)?;
        drop(m);
        self.progress.advance(count);
        Ok(())
    }
}

/// A written file as the manifest records it.
pub fn entry(name: &str, w: &sink::WrittenFile) -> FileEntry {
    FileEntry {
        path: name.to_string(),
        rows: w.rows,
        sha256: w.sha256.clone(),
    }
}

fn part_len(part: u64, part_size: u64, fights: u64) -> u64 {
    let first = part * part_size;
    part_size.min(fights.saturating_sub(first))
}

/// The `boards` table rows of a suite.
pub fn board_rows(suite: &Suite, catalog: &Catalog) -> Vec<BoardRow> {
    suite
        .boards
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let mut keywords: Vec<String> = b
                .units
                .iter()
                .flat_map(|p| catalog.carried_keywords(p.card))
                .map(str::to_string)
                .collect();
            keywords.sort();
            keywords.dedup();
            BoardRow {
                board_id: i as u32,
                name: b.name.clone(),
                cards: b.units.iter().map(|p| catalog.card(p.card).key.clone()).collect(),
                tiers: b.units.iter().map(|p| i32::from(p.tier)).collect(),
                runes: board_runes(catalog, b)
                    .map(|(r, _)| catalog.rune(r).key.clone())
                    .collect(),
                rune_tiers: board_runes(catalog, b).map(|(_, t)| i32::from(t)).collect(),
                resonance: b
                    .resonance
                    .map(|r| catalog.resonance(r).key.clone())
                    .unwrap_or_default(),
                keywords,
                footprints: b
                    .units
                    .iter()
                    .map(|p| catalog.card(p.card).footprint.name().to_string())
                    .collect(),
            }
        })
        .collect()
}

/// Runs fights `first..first + count` into the column buffers, which are
/// cleared first and reused across parts.
pub fn simulate(engine: &mut Engine, suite: &Suite, first: u64, count: u64, f: &mut FightColumns, u: &mut UnitColumns) {
    f.clear();
    u.clear();
    for id in first..first + count {
        let (l, r) = suite.pairing(id);
        let o = engine.fight(&suite.boards[l as usize], &suite.boards[r as usize], suite.stream(id));
        let ls = engine.side_summary(Side::Left);
        let rs = engine.side_summary(Side::Right);
        f.fight_id.push(id);
        f.master_seed.push(suite.master_seed);
        f.left_board.push(l);
        f.right_board.push(r);
        f.winner.push(o.winner.map_or("draw", |s| s.name()));
        f.end_reason.push(o.reason.name());
        f.end_ms.push(o.end_ms);
        f.left_survivors.push(ls.survivors);
        f.right_survivors.push(rs.survivors);
        f.left_vitality.push(ls.remaining_vitality);
        f.right_vitality.push(rs.remaining_vitality);
        let units = engine.units();
        for side in [Side::Left, Side::Right] {
            let mut slot = 0u32;
            for &x in engine.order() {
                let i = x.i();
                if units.side[i] != side {
                    continue;
                }
                let rect = units.rect[i];
                u.fight_id.push(id);
                u.side.push(side.name());
                u.slot.push(slot);
                u.card.push(u32::from(units.card[i].0));
                u.tier.push(u32::from(units.native_tier[i]));
                u.column.push(u32::from(rect.column));
                u.row.push(u32::from(rect.row));
                u.damage_dealt.push(units.damage_dealt[i]);
                u.damage_taken.push(units.damage_taken[i]);
                u.healing.push(units.healing[i]);
                u.kills.push(units.kills[i]);
                u.deaths.push(units.deaths[i]);
                u.revivals.push(0);
                u.activations.push(units.activations[i]);
                u.survived.push(units.alive[i]);
                slot += 1;
            }
        }
    }
}

/// Progress: a bar on a terminal, a line every few seconds otherwise.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    /// What is counted: `fights` or `matches`.
    noun: &'static str,
    done: AtomicU64,
    total: u64,
    started: Instant,
    last_line: Mutex<Instant>,
    enabled: bool,
}

impl Progress {
    fn new(enabled: bool, total: u64, noun: &'static str) -> Progress {
        use std::io::IsTerminal;
        let bar = (enabled && std::io::stderr().is_terminal()).then(|| {
            let b = indicatif::ProgressBar::new(total);
            b.set_style(
                indicatif::ProgressStyle::with_template(&format!(
                    "{{bar:40}} {{pos}}/{{len}} {noun}  {{rate}}  {{elapsed_precise}} elapsed, {{eta_precise}} left"
                ))
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .with_key(
                    "rate",
                    move |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.0} {noun}/s", state.per_sec());
                    },
                ),
            );
            b
        });
        Progress {
            bar,
            noun,
            done: AtomicU64::new(0),
            total,
            started: Instant::now(),
            last_line: Mutex::new(Instant::now()),
            enabled,
        }
    }

    fn advance(&self, n: u64) {
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        if let Some(b) = &self.bar {
            b.inc(n);
            return;
        }
        if !self.enabled {
            return;
        }
        if let Ok(mut last) = self.last_line.lock()
            && last.elapsed().as_secs() >= 5
        {
            *last = Instant::now();
            let secs = self.started.elapsed().as_secs_f64().max(1e-9);
            let rate = done as f64 / secs;
            let left = (self.total.saturating_sub(done)) as f64 / rate.max(1e-9);
            let noun = self.noun;
            eprintln!("{done}/{} {noun}, {rate:.0} {noun}/s, {left:.0} s left", self.total);
        }
    }

    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

/// What `gridsim bench` measures.
#[derive(Debug, Clone)]
pub struct BenchStats {
    pub fights: u64,
    pub seconds: f64,
    pub threads: usize,
    pub mean_fight_seconds: f64,
    pub mean_units_per_side: f64,
}

/// Runs `fights` fights of a suite across the pool, building the same
/// column buffers a run writes but keeping none of them.
pub fn bench(
    suite: &Suite,
    catalog: &Catalog,
    rules: &Rules,
    threads: usize,
    fights: u64,
    part_size: u64,
) -> Result<BenchStats, Error> {
    let end_ms = AtomicU64::new(0);
    let units = AtomicU64::new(0);
    let (seconds, threads) = time_parts(
        threads,
        fights,
        part_size,
        || {
            (
                Engine::new(catalog, *rules),
                FightColumns::default(),
                UnitColumns::default(),
            )
        },
        |(engine, f, u), first, count| {
            simulate(engine, suite, first, count, f, u);
            end_ms.fetch_add(f.end_ms.iter().map(|&t| t as u64).sum(), Ordering::Relaxed);
            units.fetch_add(u.fight_id.len() as u64, Ordering::Relaxed);
        },
    )?;
    let n = fights.max(1) as f64;
    Ok(BenchStats {
        fights,
        seconds,
        threads,
        mean_fight_seconds: end_ms.load(Ordering::Relaxed) as f64 / 1000.0 / n,
        mean_units_per_side: units.load(Ordering::Relaxed) as f64 / (2.0 * n),
    })
}

/// Peak resident memory of this process in bytes, where the system tells it.
pub fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Plays matches `first..first + count` of a match suite on `threads`
/// workers (0: one per core), one engine per worker, and returns them in
/// index order: the same results at any thread count.
pub fn play_matches(
    ctx: &gridsim_sim::matches::MatchCtx,
    pool: &gridsim_sim::matches::GhostPool,
    first: u64,
    count: u64,
    threads: usize,
) -> Result<Vec<gridsim_sim::matches::MatchResult>, Error> {
    let indices: Vec<u64> = (first..first + count).collect();
    Driver::new(threads)?.map(
        &indices,
        || Engine::new(ctx.catalog, ctx.rules),
        |engine, &index| gridsim_sim::matches::play(ctx, engine, index, pool),
    )
}

/// The runes a board brings into its fights: those on its rune boards, then
/// those its cards carry themselves (a boss's Reflect rune, 900.26d), each
/// with its tier.
fn board_runes<'a>(
    catalog: &'a Catalog,
    b: &'a gridsim_model::spec::BoardSpec,
) -> impl Iterator<Item = (gridsim_model::catalog::RuneId, u8)> + 'a {
    b.runes.iter().map(|r| (r.rune, r.tier)).chain(
        b.units
            .iter()
            .flat_map(|p| catalog.card(p.card).innate_runes.iter().copied()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{RunIdentity, Shard, SuiteInfo};

    /// A workload with no engine: part `p` writes its ids as text, one
    /// file per table, and counts the parts it played. The runner's
    /// contract is checked on it alone.
    struct Ids {
        played: AtomicU64,
    }

    impl Workload for Ids {
        type Worker = String;

        fn kind(&self) -> RunKind {
            RunKind::Fights
        }

        fn worker(&self) -> String {
            String::new()
        }

        fn play_part(
            &self,
            text: &mut String,
            part: u64,
            first: u64,
            count: u64,
            dir: &Path,
        ) -> Result<Vec<FileEntry>, Error> {
            self.played.fetch_add(1, Ordering::Relaxed);
            text.clear();
            for id in first..first + count {
                text.push_str(&format!("{id}\n"));
            }
            RunKind::Fights
                .tables()
                .iter()
                .map(|table| {
                    let name = dataset::part_file(table, part);
                    let written = gridsim_core::atomic::write(&dir.join(&name), text.as_bytes())?;
                    Ok(FileEntry {
                        path: name,
                        rows: count,
                        sha256: written.sha256,
                    })
                })
                .collect()
        }
    }

    fn manifest(count: u64, part_size: u64) -> Manifest {
        Manifest {
            format: dataset::FORMAT,
            gridsim_version: String::new(),
            identity: RunIdentity {
                kind: RunKind::Fights,
                rules_sha256: String::new(),
                catalog_hash: String::new(),
                suite_sha256: String::new(),
                master_seed: 1,
                count,
                part_size,
            },
            suite: SuiteInfo {
                name: "ids".into(),
                file: String::new(),
                boards: 0,
            },
            shard: Shard::WHOLE,
            threads: 0,
            started_at: String::new(),
            finished_at: None,
            complete: false,
            inputs: Vec::new(),
            boards_file: None,
            parts: Vec::new(),
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gridsim-batch-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        dir
    }

    #[test]
    fn every_part_is_played_once_recorded_and_the_same_at_any_thread_count() {
        // 10 ids in parts of 4: parts 0..3, the last one short (2 ids).
        let mut parts_by_threads = Vec::new();
        for threads in [1, 2] {
            let dir = scratch(&format!("threads{threads}"));
            let ids = Ids {
                played: AtomicU64::new(0),
            };
            let summary = run(&ids, manifest(10, 4), &dir, threads, false).expect("run");
            assert_eq!(summary.ran, 10);
            assert_eq!(ids.played.load(Ordering::Relaxed), 3, "three parts, each once");
            let m = Manifest::read(&dir).expect("manifest");
            assert!(m.complete && m.finished_at.is_some());
            let counts: Vec<(u64, u64, u64)> = m.parts.iter().map(|p| (p.index, p.first, p.count)).collect();
            assert_eq!(counts, [(0, 0, 4), (1, 4, 4), (2, 8, 2)]);
            parts_by_threads.push(m.parts);
            let _ = std::fs::remove_dir_all(&dir);
        }
        assert_eq!(
            parts_by_threads[0], parts_by_threads[1],
            "files do not depend on threads"
        );
    }

    #[test]
    fn a_finished_part_is_not_played_again() {
        // A resumed run: the manifest already lists part 1 as finished.
        let dir = scratch("resume");
        let ids = Ids {
            played: AtomicU64::new(0),
        };
        let first = run(&ids, manifest(12, 4), &dir, 2, false).expect("run");
        assert_eq!(first.ran, 12);
        let mut resumed = Manifest::read(&dir).expect("manifest");
        resumed.parts.retain(|p| p.index == 1);
        resumed.complete = false;
        let again = Ids {
            played: AtomicU64::new(0),
        };
        let summary = run(&again, resumed, &dir, 2, false).expect("resume");
        assert_eq!(summary.ran, 8, "parts 0 and 2 only");
        assert_eq!(again.played.load(Ordering::Relaxed), 2);
        let m = Manifest::read(&dir).expect("manifest");
        assert_eq!(m.parts.iter().map(|p| p.index).collect::<Vec<_>>(), [0, 1, 2]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
