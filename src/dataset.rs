//! A run directory: its manifest, which lists only finished parts with row
//! counts and checksums, and the checks that keep a directory trustworthy
//! (nothing missing, nothing corrupt, nothing foreign).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The manifest's format version.
pub const FORMAT: u32 = 1;
pub const MANIFEST: &str = "manifest.json";

/// A finished file of the run, relative to the run directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    pub path: String,
    pub rows: u64,
    pub sha256: String,
}

/// A finished part: a fixed range of fight ids and its two files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartEntry {
    pub index: u64,
    pub first_fight: u64,
    pub fights: u64,
    pub fights_file: FileEntry,
    pub units_file: FileEntry,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuiteInfo {
    pub name: String,
    pub file: String,
    pub sha256: String,
    pub fights: u64,
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
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| format!("shard `{text}`: expected K/N, e.g. 0/4"))?;
        let k: u32 = k
            .trim()
            .parse()
            .map_err(|_| format!("shard `{text}`: K is not a whole number"))?;
        let n: u32 = n
            .trim()
            .parse()
            .map_err(|_| format!("shard `{text}`: N is not a whole number"))?;
        if n == 0 || k >= n {
            return Err(format!("shard `{text}`: expected 0 <= K < N"));
        }
        Ok(Shard { index: k, count: n })
    }
}

/// Everything a run directory records about itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    pub gridsim_version: String,
    pub catalog_hash: String,
    pub rules_hash: String,
    pub suite: SuiteInfo,
    pub master_seed: u64,
    pub part_size: u64,
    pub shard: Shard,
    /// For information only: results never depend on it.
    pub threads: usize,
    pub started_at: String,
    pub finished_at: Option<String>,
    pub complete: bool,
    pub boards_file: Option<FileEntry>,
    /// Finished parts only, sorted by index.
    pub parts: Vec<PartEntry>,
}

impl Manifest {
    /// The parts this shard must hold, in order.
    pub fn expected_parts(&self) -> Vec<u64> {
        let total = self.suite.fights.div_ceil(self.part_size.max(1));
        (0..total).filter(|&p| self.shard.owns(p)).collect()
    }

    pub fn write(&self, dir: &Path) -> Result<(), String> {
        let mut sorted = self.clone();
        sorted.parts.sort_by_key(|p| p.index);
        let text = serde_json::to_string_pretty(&sorted).map_err(|e| format!("cannot encode the manifest: {e}"))?;
        write_atomic(&dir.join(MANIFEST), text.as_bytes())
    }

    pub fn read(dir: &Path) -> Result<Manifest, String> {
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!(
                "{}: cannot read the manifest: {e}; is this a gridsim run directory?",
                path.display()
            )
        })?;
        let m: Manifest =
            serde_json::from_str(&text).map_err(|e| format!("{}: not a gridsim manifest: {e}", path.display()))?;
        if m.format != FORMAT {
            return Err(format!(
                "{}: manifest format {} is not {FORMAT}",
                path.display(),
                m.format
            ));
        }
        Ok(m)
    }

    /// Every file the manifest lists.
    pub fn files(&self) -> Vec<&FileEntry> {
        let mut out: Vec<&FileEntry> = self.boards_file.iter().collect();
        for p in &self.parts {
            out.push(&p.fights_file);
            out.push(&p.units_file);
        }
        out
    }
}

/// Writes a small file atomically: temporary name, sync, rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let tmp = path.with_extension("tmp");
    {
        let mut f = std::fs::File::create(&tmp).map_err(|e| format!("{}: cannot create: {e}", tmp.display()))?;
        f.write_all(bytes)
            .map_err(|e| format!("{}: cannot write: {e}", tmp.display()))?;
        f.sync_all()
            .map_err(|e| format!("{}: cannot sync: {e}", tmp.display()))?;
    }
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: cannot rename into place: {e}", path.display()))
}

/// Checks a run directory against its manifest: every listed file present
/// with its checksum, and no file the manifest does not explain. With
/// `allow_unfinished`, leftover temporary files of an interrupted run are
/// tolerated (a resume removes them); otherwise they are errors too.
pub fn verify(dir: &Path, m: &Manifest, allow_unfinished: bool) -> Result<(), String> {
    for f in m.files() {
        let path = dir.join(&f.path);
        if !path.exists() {
            return Err(format!(
                "{}: missing; the manifest lists it as finished",
                path.display()
            ));
        }
        let sum = crate::sink::file_sha256(&path)?;
        if sum != f.sha256 {
            return Err(format!(
                "{}: corrupt: its SHA-256 is {sum}, the manifest recorded {}",
                path.display(),
                f.sha256
            ));
        }
    }
    let listed: Vec<&str> = m.files().iter().map(|f| f.path.as_str()).collect();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: cannot list: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: cannot list: {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let unfinished = name.ends_with(".tmp");
        if name == MANIFEST || listed.contains(&name.as_str()) || (allow_unfinished && unfinished) {
            continue;
        }
        let why = if unfinished {
            "an unfinished file of an interrupted run; resume the run with `gridsim run --resume` to finish it"
        } else {
            "a file the manifest does not list; remove it or move it out of the run directory"
        };
        return Err(format!("{}: {why}", dir.join(&name).display()));
    }
    Ok(())
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
        assert!(Shard::parse("3/3").is_err());
        assert_eq!(Shard::parse("1/4"), Ok(Shard { index: 1, count: 4 }));
    }

    #[test]
    fn utc_now_is_well_formed() {
        let t = utc_now();
        assert_eq!(t.len(), 20, "{t}");
        assert!(t.starts_with("20") && t.ends_with('Z'));
    }
}
