//! A run directory: its manifest, which lists only finished parts with row
//! counts and checksums, and the checks that keep a directory trustworthy
//! (nothing missing, nothing corrupt, nothing foreign).

use gridsim_core::atomic::FileError;

use crate::Error;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The manifest's format version. 2: one [`RunIdentity`], and the run's
/// own copies of its inputs. 3: runs of fights or of matches, a part
/// listing one file per table of its kind.
pub const FORMAT: u32 = 3;
pub const MANIFEST: &str = "manifest.json";
/// Fights per part file unless a run asks otherwise. Rows never depend on it.
pub const DEFAULT_PART_SIZE: u64 = 16_384;
/// The boards table of a run.
pub const BOARDS: &str = "boards.parquet";
/// The folder of a run directory holding the rules, catalog and suite the
/// run used, so the run documents itself and replays from anywhere.
/// A report's tallies of the run's fights, saved for the next report of
/// the run or against it (`report::saved_tallies`). Derived, not listed in
/// the manifest: it names the files it was tallied from, and is made
/// again when they change. Written through `SAVED_TALLIES` + `.partial`.
pub const SAVED_TALLIES: &str = "tallies.bin";
pub const INPUTS: &str = "inputs";
pub const INPUT_RULES: &str = "inputs/rules.toml";
pub const INPUT_SUITE: &str = "inputs/suite.toml";
pub const INPUT_CARDS: &str = "inputs/cards";
/// Copies of the board files a round-robin suite lists, in its order.
pub const INPUT_BOARDS: &str = "inputs/boards";

/// A finished file of the run, relative to the run directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    pub path: String,
    pub rows: u64,
    pub sha256: String,
}

/// What a run plays: single fights of a suite, or whole matches of a
/// match suite (section 200). Each kind has its own tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunKind {
    Fights,
    Matches,
    /// Riftbound's combat showdowns between lanes (docs/riftbound.md).
    Showdowns,
    /// Whole Riftbound games between decks (docs/riftbound.md).
    Games,
}

impl RunKind {
    /// The tables a part of this kind writes, one file each, in the order
    /// [`PartEntry::files`] lists them.
    pub fn tables(self) -> &'static [&'static str] {
        match self {
            RunKind::Fights => &["fights", "units"],
            RunKind::Matches => &["matches", "rounds", "match_fights", "shop_picks"],
            RunKind::Showdowns => &["showdowns"],
            RunKind::Games => &["games", "card_events"],
        }
    }

    /// The table of one row per contest between two boards, with
    /// `left_board`, `right_board` and `winner`, that the report of
    /// boards tallies; none for matches.
    pub fn contest_table(self) -> Option<&'static str> {
        match self {
            RunKind::Fights => Some("fights"),
            RunKind::Showdowns => Some("showdowns"),
            RunKind::Games => Some("games"),
            RunKind::Matches => None,
        }
    }

    /// The tables the report does not read: only their presence is checked
    /// before a report (see [`verify_read`]).
    fn unread_tables(self) -> &'static [&'static str] {
        match self {
            RunKind::Fights => &["units"],
            RunKind::Matches | RunKind::Showdowns | RunKind::Games => &[],
        }
    }

    /// The command that starts and resumes such a run.
    pub fn command(self) -> &'static str {
        match self {
            RunKind::Fights | RunKind::Showdowns | RunKind::Games => "run",
            RunKind::Matches => "match",
        }
    }

    /// What the run counts: `fights` or `matches`.
    pub fn noun(self) -> &'static str {
        match self {
            RunKind::Fights => "fights",
            RunKind::Matches => "matches",
            RunKind::Showdowns => "showdowns",
            RunKind::Games => "games",
        }
    }
}

/// A finished part: a fixed range of fight (or match) ids and its files,
/// one per table of the run's kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartEntry {
    pub index: u64,
    /// The first fight or match id of the part.
    pub first: u64,
    /// How many fights or matches it holds.
    pub count: u64,
    pub files: Vec<FileEntry>,
}

impl PartEntry {
    /// The part's file of `table`, if its kind writes that table.
    pub fn file(&self, kind: RunKind, table: &str) -> Option<&FileEntry> {
        let k = kind.tables().iter().position(|t| *t == table)?;
        self.files.get(k)
    }

    pub fn holds(&self, id: u64) -> bool {
        (self.first..self.first + self.count).contains(&id)
    }
}

/// What makes two run directories the same run: the same kind, inputs,
/// seed, fight (or match) count and part layout. Resume, replay and shard merging all ask
/// [`RunIdentity::same_run`] and nothing else.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunIdentity {
    pub kind: RunKind,
    /// SHA-256 of the rules file's text.
    pub rules_sha256: String,
    /// Fingerprint of the compiled catalog.
    pub catalog_hash: String,
    /// SHA-256 of the suite file's text followed by each board file it lists.
    pub suite_sha256: String,
    pub master_seed: u64,
    /// Fights (or matches) in the whole run.
    pub count: u64,
    pub part_size: u64,
}

impl RunIdentity {
    /// `Ok` when `other` is the same run; otherwise an error naming every
    /// field that differs with both values, `this` and `that` saying where
    /// each side comes from.
    pub fn same_run(&self, this: &str, other: &RunIdentity, that: &str) -> Result<(), Error> {
        let mut diffs = Vec::new();
        let mut field = |name: &str, a: String, b: String| {
            if a != b {
                diffs.push(format!("{name}: {a} in {this}, {b} in {that}"));
            }
        };
        field("kind", self.kind.noun().into(), other.kind.noun().into());
        field("rules (SHA-256)", self.rules_sha256.clone(), other.rules_sha256.clone());
        field(
            "catalog (fingerprint)",
            self.catalog_hash.clone(),
            other.catalog_hash.clone(),
        );
        field("suite (SHA-256)", self.suite_sha256.clone(), other.suite_sha256.clone());
        field(
            "master seed",
            self.master_seed.to_string(),
            other.master_seed.to_string(),
        );
        field(self.kind.noun(), self.count.to_string(), other.count.to_string());
        field("part size", self.part_size.to_string(), other.part_size.to_string());
        if diffs.is_empty() {
            Ok(())
        } else {
            Err(Error::NotSameRun(diffs))
        }
    }
}

impl RunIdentity {
    /// `Ok` with the reason when `other` fought the same fights as this run
    /// (the same suite, master seed, count and part layout: fight `i` is
    /// the same pair of board ids and the same random stream in both), so
    /// the two compare fight by fight whatever their catalog or rules;
    /// otherwise the fields that differ.
    pub fn shares_fights(&self, other: &RunIdentity) -> Result<String, Error> {
        let mut diffs = Vec::new();
        if self.kind != other.kind {
            diffs.push("kind");
        }
        if self.suite_sha256 != other.suite_sha256 {
            diffs.push("suite");
        }
        if self.master_seed != other.master_seed {
            diffs.push("master seed");
        }
        if self.count != other.count {
            diffs.push(self.kind.noun());
        }
        if self.part_size != other.part_size {
            diffs.push("part size");
        }
        if diffs.is_empty() {
            Ok("the same suite, master seed and fights, so every fight id is the same pair and random stream in both runs".into())
        } else {
            Err(Error::NotSameFights(diffs))
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuiteInfo {
    pub name: String,
    /// Where the suite was read from when the run started (for people; the
    /// run reads its own copy, `inputs/suite.toml`).
    pub file: String,
    pub boards: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Parts are dealt to shards round-robin by part index.
    pub fn owns(self, part: u64) -> bool {
        part % u64::from(self.count) == u64::from(self.index)
    }

    /// `K/N`.
    pub fn parse(text: &str) -> Result<Shard, Error> {
        let shard = |expected| Error::Shard {
            text: text.to_string(),
            expected,
        };
        let (k, n) = text.split_once('/').ok_or_else(|| shard("expected K/N, e.g. 0/4"))?;
        let k: u32 = k.trim().parse().map_err(|_| shard("K is not a whole number"))?;
        let n: u32 = n.trim().parse().map_err(|_| shard("N is not a whole number"))?;
        if n == 0 || k >= n {
            return Err(shard("expected 0 <= K < N"));
        }
        Ok(Shard { index: k, count: n })
    }
}

/// Everything a run directory records about itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    pub gridsim_version: String,
    pub identity: RunIdentity,
    pub suite: SuiteInfo,
    pub shard: Shard,
    /// For information only: results never depend on it.
    pub threads: usize,
    pub started_at: String,
    pub finished_at: Option<String>,
    pub complete: bool,
    /// The run's copies of its rules, suite and card files (`inputs/`).
    pub inputs: Vec<FileEntry>,
    pub boards_file: Option<FileEntry>,
    /// Finished parts only, sorted by index.
    pub parts: Vec<PartEntry>,
}

impl Manifest {
    /// The parts this shard must hold, in order.
    pub fn expected_parts(&self) -> Vec<u64> {
        let total = self.identity.count.div_ceil(self.identity.part_size.max(1));
        (0..total).filter(|&p| self.shard.owns(p)).collect()
    }

    pub fn write(&self, dir: &Path) -> Result<(), Error> {
        let mut sorted = self.clone();
        sorted.parts.sort_by_key(|p| p.index);
        let text = serde_json::to_string_pretty(&sorted).map_err(|e| Error::Encode(e.to_string()))?;
        gridsim_core::atomic::write(&dir.join(MANIFEST), text.as_bytes())?;
        Ok(())
    }

    pub fn read(dir: &Path) -> Result<Manifest, Error> {
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            Error::malformed(
                &path,
                format!("cannot read the manifest: {e}; is this a gridsim run directory?"),
            )
        })?;
        #[derive(Deserialize)]
        struct Version {
            format: u32,
        }
        let version: Version =
            serde_json::from_str(&text).map_err(|e| Error::malformed(&path, format!("not a gridsim manifest: {e}")))?;
        if version.format != FORMAT {
            return Err(Error::malformed(
                &path,
                format!(
                    "manifest format {} is not {FORMAT}; this run was written by another gridsim version",
                    version.format
                ),
            ));
        }
        serde_json::from_str(&text).map_err(|e| Error::malformed(&path, format!("not a gridsim manifest: {e}")))
    }

    /// Every file the manifest lists: the inputs, the boards table, then
    /// each part's files (the order audits rely on).
    pub fn files(&self) -> Vec<&FileEntry> {
        let mut out: Vec<&FileEntry> = self.inputs.iter().chain(self.boards_file.iter()).collect();
        for p in &self.parts {
            out.extend(&p.files);
        }
        out
    }
}

/// Why a listed file cannot be trusted, or `None` when it can.
fn check_file(dir: &Path, f: &FileEntry) -> Result<Option<String>, Error> {
    let path = dir.join(&f.path);
    if !path.exists() {
        return Ok(Some(format!(
            "{}: missing; the manifest lists it as finished",
            path.display()
        )));
    }
    let sum = gridsim_core::atomic::file_sha256(&path)?;
    Ok((sum != f.sha256).then(|| {
        format!(
            "{}: corrupt: its SHA-256 is {sum}, the manifest recorded {}",
            path.display(),
            f.sha256
        )
    }))
}

/// [`check_file`] for each (directory, file), in order. Hashing every file
/// is most of the work of reading a large run (873 MB for ten million
/// fights), so the files are shared out over every core.
fn check_files(files: &[(&Path, &FileEntry)]) -> Result<Vec<Option<String>>, Error> {
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let results: Vec<OnceLock<Result<Option<String>, Error>>> = files.iter().map(|_| OnceLock::new()).collect();
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(files.len());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((dir, f)) = files.get(i) else { break };
                    let _ = results[i].set(check_file(dir, f));
                }
            });
        }
    });
    results
        .into_iter()
        .map(|r| {
            r.into_inner()
                .unwrap_or_else(|| Err(Error::Workers("a file was not checked".into())))
        })
        .collect()
}

/// What an audit of a run directory found.
#[derive(Debug, Default)]
pub struct Audit {
    /// Parts with a missing or corrupt file, with the reason. They can be
    /// run again: a part's rows depend only on the run's identity.
    pub bad_parts: Vec<(u64, String)>,
    /// The boards table is missing or corrupt (it can be written again).
    pub bad_boards: Option<String>,
    /// What cannot be regenerated: a damaged copy of the inputs, or a file
    /// the manifest does not explain.
    pub fatal: Vec<String>,
    /// Files of the run's own names written but not yet recorded when the
    /// run stopped (only looked for when resuming); a resume removes them.
    pub unrecorded: Vec<PathBuf>,
}

/// Checks every file of a run directory against its manifest. With
/// `allow_unfinished`, temporary files of an interrupted run are tolerated.
pub fn audit(dir: &Path, m: &Manifest, allow_unfinished: bool) -> Result<Audit, Error> {
    let files: Vec<(&Path, &FileEntry)> = m.files().into_iter().map(|f| (dir, f)).collect();
    audit_checked(dir, m, allow_unfinished, check_files(&files)?)
}

/// The audit of a run directory whose listed files were checked already:
/// `problems` holds the result of each file of [`Manifest::files`], in its
/// order.
fn audit_checked(
    dir: &Path,
    m: &Manifest,
    allow_unfinished: bool,
    problems: Vec<Option<String>>,
) -> Result<Audit, Error> {
    let mut a = Audit::default();
    let mut problems = problems.into_iter();
    for _ in &m.inputs {
        if let Some(why) = problems.next().flatten() {
            a.fatal
                .push(format!("{why}; the run's copy of its inputs cannot be regenerated"));
        }
    }
    if m.boards_file.is_some() {
        a.bad_boards = problems.next().flatten();
    }
    for p in &m.parts {
        // The first problem of a part names it; all its files are run again.
        let found: Vec<String> = p.files.iter().filter_map(|_| problems.next().flatten()).collect();
        if let Some(why) = found.into_iter().next() {
            a.bad_parts.push((p.index, why));
        }
    }
    // A set: a run of a hundred million fights lists twelve thousand files.
    let listed: std::collections::BTreeSet<&str> = m.files().iter().map(|f| f.path.as_str()).collect();
    // A run stopped between renaming a finished file into place and
    // recording it in the manifest leaves a complete file the manifest does
    // not list yet. Those names are the run's own, so a resume writes them
    // again; anything else unlisted is foreign.
    let own_unrecorded = |name: &str| {
        name == BOARDS
            || m.expected_parts()
                .iter()
                .any(|&p| m.identity.kind.tables().iter().any(|table| name == part_file(table, p)))
    };
    for (name, path) in list_files(dir)? {
        let unfinished = name.ends_with(".tmp");
        let derived = name
            .strip_prefix(SAVED_TALLIES)
            .is_some_and(|rest| rest.is_empty() || rest == ".partial");
        if name == MANIFEST || derived || listed.contains(name.as_str()) || (allow_unfinished && unfinished) {
            continue;
        }
        if allow_unfinished && own_unrecorded(&name) {
            a.unrecorded.push(path);
            continue;
        }
        let why = if unfinished {
            format!(
                "an unfinished file of an interrupted run; resume the run with `gridsim {} --resume` to finish it",
                m.identity.kind.command()
            )
        } else {
            "a file the manifest does not list; remove it or move it out of the run directory".to_string()
        };
        a.fatal.push(format!("{}: {why}", path.display()));
    }
    Ok(a)
}

/// Every file under `dir`, as (path relative to `dir` with `/`, full path).
fn list_files(dir: &Path) -> Result<Vec<(String, PathBuf)>, Error> {
    let mut out = Vec::new();
    let mut stack = vec![(String::new(), dir.to_path_buf())];
    while let Some((prefix, folder)) = stack.pop() {
        let entries = std::fs::read_dir(&folder).map_err(|e| FileError::new(&folder, "list", e))?;
        for entry in entries {
            let entry = entry.map_err(|e| FileError::new(&folder, "list", e))?;
            let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
            if entry.path().is_dir() {
                stack.push((format!("{name}/"), entry.path()));
            } else {
                out.push((name, entry.path()));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Checks a run directory against its manifest: every listed file present
/// with its checksum, and no file the manifest does not explain. The first
/// problem is the error.
pub fn verify(dir: &Path, m: &Manifest, allow_unfinished: bool) -> Result<(), Error> {
    first_problem(audit(dir, m, allow_unfinished)?)
}

fn first_problem(a: Audit) -> Result<(), Error> {
    let first = a
        .fatal
        .into_iter()
        .chain(a.bad_boards)
        .chain(a.bad_parts.into_iter().map(|(_, why)| why))
        .next();
    match first {
        None => Ok(()),
        Some(why) => Err(Error::Untrusted(why)),
    }
}

/// Checks what a report reads of finished run directories, then runs
/// `work`, and returns what it returned only when every directory passed
/// (otherwise the first directory's first problem, as [`verify`] names it).
///
/// `work` may read the inputs, boards tables and the parts of the tables a
/// report reads: those are hashed and compared with their manifests before
/// it starts. The parts of the other tables (a fight run's units, seven
/// bytes in eight of it; a match run's rounds and match fights), read by
/// nothing `work` does, are only required to be present; [`verify`] (`gridsim verify`) and a
/// resume hash them too. A report's figures so rest on checked bytes only,
/// without paying for hashing bytes it never reads.
pub fn verify_read<T, E: From<Error>>(
    runs: &[(PathBuf, Manifest)],
    work: impl FnOnce() -> Result<T, E>,
) -> Result<T, E> {
    let mut problems: Vec<Vec<Option<String>>> = Vec::new();
    for (dir, m) in runs {
        let kind = m.identity.kind;
        let units: std::collections::BTreeSet<&str> = m
            .parts
            .iter()
            .flat_map(|p| kind.unread_tables().iter().filter_map(|t| p.file(kind, t)))
            .map(|f| f.path.as_str())
            .collect();
        let files = m.files();
        let read: Vec<(&Path, &FileEntry)> = files
            .iter()
            .filter(|f| !units.contains(f.path.as_str()))
            .map(|f| (dir.as_path(), *f))
            .collect();
        let mut hashed = check_files(&read)?.into_iter();
        let found = files
            .iter()
            .map(|f| {
                if units.contains(f.path.as_str()) {
                    let path = dir.join(&f.path);
                    (!path.exists()).then(|| format!("{}: missing; the manifest lists it as finished", path.display()))
                } else {
                    hashed.next().flatten()
                }
            })
            .collect();
        problems.push(found);
    }
    for ((dir, m), found) in runs.iter().zip(problems) {
        first_problem(audit_checked(dir, m, false, found)?)?;
    }
    work()
}

/// Part file names: zero-padded so they sort in order.
pub fn part_file(table: &str, part: u64) -> String {
    format!("{table}-{part:06}.parquet")
}

/// The run directory for a suite, seed and shard under `out`.
pub fn run_dir(out: &Path, suite: &str, seed: u64, shard: Shard) -> PathBuf {
    if shard.count > 1 {
        out.join(format!("{suite}-seed{seed}-shard{}of{}", shard.index, shard.count))
    } else {
        out.join(format!("{suite}-seed{seed}"))
    }
}

/// UTC now as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_parts_without_overlap() {
        let shards: Vec<Shard> = (0..3).map(|k| Shard { index: k, count: 3 }).collect();
        for part in 0..30 {
            assert_eq!(shards.iter().filter(|s| s.owns(part)).count(), 1);
        }
        assert_eq!(
            Shard::parse("3/3").map_err(|e| e.to_string()),
            Err("shard `3/3`: expected 0 <= K < N".to_string())
        );
        assert_eq!(Shard::parse("1/4").ok(), Some(Shard { index: 1, count: 4 }));
    }

    #[test]
    fn utc_now_is_well_formed() {
        let t = utc_now();
        assert_eq!(t.len(), 20, "{t}");
        assert!(t.starts_with("20") && t.ends_with('Z'));
    }
}
