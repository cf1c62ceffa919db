//! A run's matchups a block of boards at a time, so that the report's
//! memory does not grow with the number of fights.
//!
//! Everything the report computes from fights is a sum over boards of
//! what one board met (a board's cluster sum, its row of keyword against
//! keyword) or a sum over unordered pairs of boards (a pass of the model's
//! fit, a pair's cluster sum). A pool of 100,000 boards each meeting about
//! one opponent per fight has about as many pairs as fights, so a table of
//! every pair grows with the run. Instead the board ids are cut into
//! ranges, and block `i` holds every pair with a board in range `i` (a pair
//! with boards in two ranges is in both blocks). A board's every fight is
//! then in its own block, and a pair is owned by the block of its lower
//! board, so a sum over boards or over pairs visits one block at a time and
//! counts everything once.
//!
//! Blocks are sized by fights ([`FIGHTS_PER_BLOCK`]); a run whose blocks
//! together fit in [`IN_MEMORY_BYTES`] keeps them in memory, a larger one
//! writes them to a folder of its own under the system's temporary folder,
//! removed when the blocks are dropped. Each block's pairs are merged and
//! sorted once, when the scan ends.

use crate::Error;
use std::io::{BufReader, BufWriter, Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Results of one matchup: `left` against `right` (in a block, `left` is
/// the lower board, and both orders of the pair are merged).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MatchupTally {
    pub left: u32,
    pub right: u32,
    pub fights: u64,
    pub left_wins: u64,
    pub right_wins: u64,
    pub draws: u64,
}

/// Fights per block: a block then holds about twice as many pairs (a fight
/// is in the block of each of its two boards), whose working copies (the
/// rates' edges, the fit's pairs) take tens of MiB.
pub const FIGHTS_PER_BLOCK: u64 = 65_536;

/// Blocks whose pairs take no more than this stay in memory.
pub const IN_MEMORY_BYTES: u64 = 64 << 20;

/// Bytes of one pair on disk: six little-endian u64.
const RECORD: usize = 48;

/// The first bytes of a saved tallies file, naming its format.
const SAVED_MAGIC: &[u8; 16] = b"gridsim pairs v1";

/// Pairs read from a block file at once while merging.
const CHUNK: usize = 1 << 20;

/// A run's matchups, each merged over both orders of its pair (`left` ≤
/// `right`, `left_wins` the lower board's), in blocks of board ids.
#[derive(Debug)]
pub struct PairBlocks {
    /// Block `i` holds the pairs with a board in `bounds[i]..bounds[i + 1]`.
    bounds: Vec<u32>,
    store: Store,
}

#[derive(Debug)]
enum Store {
    Memory(Vec<Vec<MatchupTally>>),
    Disk(Spill),
    /// A run's saved tallies ([`PairBlocks::save`]): block `i` is
    /// `sizes[i]` records from byte `starts[i]` of the file.
    Saved {
        path: PathBuf,
        starts: Vec<u64>,
        sizes: Vec<u64>,
    },
}

/// A spill folder's name: this prefix, the process id, a time stamp.
const SPILL_PREFIX: &str = "gridsim-pairs-";

/// A folder of block files, removed on drop (or, if its process was
/// killed first, by the next report that spills: [`remove_abandoned`]).
#[derive(Debug)]
struct Spill {
    dir: PathBuf,
}

impl Drop for Spill {
    fn drop(&mut self) {
        // Nothing to do if it is already gone; a leftover temporary folder
        // is not worth failing a finished report over.
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Spill {
    fn file(&self, block: usize) -> PathBuf {
        self.dir.join(format!("block-{block:05}.bin"))
    }
}

/// Removes the spill folders under `temp` of processes no longer running
/// (a report killed before it could drop its blocks), so that they do not
/// pile up. Where the running processes cannot be listed (no `/proc`),
/// nothing is removed; a folder left by a process whose id has since been
/// reused waits for the next time.
fn remove_abandoned(temp: &Path) {
    let processes = Path::new("/proc");
    if !processes.join("self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(temp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name
            .to_str()
            .and_then(|n| n.strip_prefix(SPILL_PREFIX))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok());
        if let Some(pid) = pid
            && pid != std::process::id()
            && !processes.join(pid.to_string()).exists()
        {
            // Best effort: a folder another report removes first is gone
            // all the same.
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// One block: the board ids whose every fight it holds, and its pairs,
/// sorted by `(left, right)`: borrowed from memory, or read from disk.
pub struct Block<'a> {
    pub ids: Range<u32>,
    pub pairs: std::borrow::Cow<'a, [MatchupTally]>,
}

impl Block<'_> {
    /// Whether this block owns the pair (visits it in a sum over pairs):
    /// the block of its lower board.
    pub fn owns(&self, pair: &MatchupTally) -> bool {
        self.ids.contains(&pair.left.min(pair.right))
    }
}

/// `m` with its boards in order, the lower board first.
fn ordered(m: MatchupTally) -> MatchupTally {
    if m.left <= m.right {
        return m;
    }
    MatchupTally {
        left: m.right,
        right: m.left,
        left_wins: m.right_wins,
        right_wins: m.left_wins,
        ..m
    }
}

/// Sorts and merges pairs named twice.
fn merge(pairs: &mut Vec<MatchupTally>) {
    pairs.sort_unstable_by_key(|m| (m.left, m.right));
    pairs.dedup_by(|later, kept| {
        let same = (later.left, later.right) == (kept.left, kept.right);
        if same {
            kept.fights += later.fights;
            kept.left_wins += later.left_wins;
            kept.right_wins += later.right_wins;
            kept.draws += later.draws;
        }
        same
    });
}

impl PairBlocks {
    /// One block of every board, in memory.
    pub fn single(matchups: impl IntoIterator<Item = MatchupTally>) -> PairBlocks {
        let mut pairs: Vec<MatchupTally> = matchups.into_iter().map(ordered).filter(|m| m.fights > 0).collect();
        merge(&mut pairs);
        PairBlocks {
            bounds: vec![0, u32::MAX],
            store: Store::Memory(vec![pairs]),
        }
    }

    pub fn count(&self) -> usize {
        self.bounds.len() - 1
    }

    /// The board-id ranges of the blocks; two runs blocked alike can be
    /// read block by block side by side.
    pub fn bounds(&self) -> &[u32] {
        &self.bounds
    }

    /// Block `i`.
    pub fn block(&self, i: usize) -> Result<Block<'_>, Error> {
        let ids = self.bounds[i]..self.bounds[i + 1];
        let pairs = match &self.store {
            Store::Memory(blocks) => std::borrow::Cow::Borrowed(blocks[i].as_slice()),
            Store::Disk(spill) => std::borrow::Cow::Owned(read_all(&spill.file(i))?),
            Store::Saved { path, starts, sizes } => std::borrow::Cow::Owned(read_span(path, starts[i], sizes[i])?),
        };
        Ok(Block { ids, pairs })
    }

    /// How many pairs the blocks hold together, without reading them: a
    /// pair with boards in two blocks counts twice.
    pub fn records(&self) -> Result<u64, Error> {
        (0..self.count()).map(|i| self.pairs_in(i)).sum()
    }

    /// How many pairs block `i` holds, without reading them.
    fn pairs_in(&self, i: usize) -> Result<u64, Error> {
        Ok(match &self.store {
            Store::Memory(blocks) => blocks[i].len() as u64,
            Store::Disk(spill) => {
                let path = spill.file(i);
                std::fs::metadata(&path).map_err(|e| io(&path, "read", e))?.len() / RECORD as u64
            }
            Store::Saved { sizes, .. } => sizes[i],
        })
    }

    /// Every block in turn.
    pub fn each(&self, mut visit: impl FnMut(Block<'_>) -> Result<(), Error>) -> Result<(), Error> {
        for i in 0..self.count() {
            visit(self.block(i)?)?;
        }
        Ok(())
    }

    /// Every pair once, in `(left, right)` order, block by block.
    pub fn each_pair(&self, mut visit: impl FnMut(&MatchupTally)) -> Result<(), Error> {
        self.each(|block| {
            for p in block.pairs.iter().filter(|p| block.owns(p)) {
                visit(p);
            }
            Ok(())
        })
    }

    /// Saves the blocks to `path` (through a temporary file renamed into
    /// place, so a reader never sees half a file), under `key`: what they
    /// were tallied from, which [`PairBlocks::open`] checks.
    pub fn save(&self, path: &Path, key: &str) -> Result<(), Error> {
        let mut partial = path.as_os_str().to_owned();
        partial.push(".partial");
        let partial = PathBuf::from(partial);
        let file = std::fs::File::create(&partial).map_err(|e| io(&partial, "create", e))?;
        let mut out = BufWriter::new(file);
        let sizes = (0..self.count())
            .map(|i| self.pairs_in(i))
            .collect::<Result<Vec<u64>, Error>>()?;
        let mut header = Vec::new();
        header.extend_from_slice(SAVED_MAGIC);
        header.extend_from_slice(&(key.len() as u64).to_le_bytes());
        header.extend_from_slice(key.as_bytes());
        header.extend_from_slice(&(self.count() as u64).to_le_bytes());
        for &b in &self.bounds {
            header.extend_from_slice(&u64::from(b).to_le_bytes());
        }
        for &n in &sizes {
            header.extend_from_slice(&n.to_le_bytes());
        }
        out.write_all(&header).map_err(|e| io(&partial, "write", e))?;
        self.each(|block| {
            for p in block.pairs.iter() {
                out.write_all(&encode(p)).map_err(|e| io(&partial, "write", e))?;
            }
            Ok(())
        })?;
        // Not synced: a file cut short by a crash fails `open`'s length
        // check, and the run is tallied again.
        out.flush().map_err(|e| io(&partial, "write", e))?;
        drop(out);
        std::fs::rename(&partial, path).map_err(|e| io(path, "rename into place", e))
    }

    /// The blocks saved at `path` under `key`; `None` when there is no
    /// such file or it was saved from other inputs (or by another format),
    /// an error when it cannot be read whole.
    pub fn open(path: &Path, key: &str) -> Result<Option<PairBlocks>, Error> {
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io(path, "open", e)),
        };
        let length = file.metadata().map_err(|e| io(path, "read", e))?.len();
        let mut reader = BufReader::new(file);
        let mut magic = [0u8; SAVED_MAGIC.len()];
        if length < magic.len() as u64 {
            return Ok(None);
        }
        reader.read_exact(&mut magic).map_err(|e| io(path, "read", e))?;
        if magic != *SAVED_MAGIC {
            return Ok(None);
        }
        if read_word(&mut reader, path)? != key.len() as u64 {
            return Ok(None);
        }
        let mut saved_key = vec![0u8; key.len()];
        reader.read_exact(&mut saved_key).map_err(|e| io(path, "read", e))?;
        if saved_key != key.as_bytes() {
            return Ok(None);
        }
        let mut word = || read_word(&mut reader, path);
        let count = word()?;
        let damaged = || Error::malformed(path, "damaged saved tallies");
        if count == 0 || count.saturating_mul(16) > length {
            return Err(damaged());
        }
        let bounds = (0..=count)
            .map(|_| word().and_then(|b| u32::try_from(b).map_err(|_| damaged())))
            .collect::<Result<Vec<u32>, Error>>()?;
        let sizes = (0..count).map(|_| word()).collect::<Result<Vec<u64>, Error>>()?;
        let mut at = (SAVED_MAGIC.len() + 8 + key.len() + 8 + 8 * (2 * count as usize + 1)) as u64;
        let mut starts = Vec::with_capacity(sizes.len());
        for &n in &sizes {
            starts.push(at);
            at = n
                .checked_mul(RECORD as u64)
                .and_then(|b| at.checked_add(b))
                .ok_or_else(damaged)?;
        }
        if at != length || bounds.windows(2).any(|w| w[0] >= w[1]) {
            return Err(damaged());
        }
        Ok(Some(PairBlocks {
            bounds,
            store: Store::Saved {
                path: path.to_path_buf(),
                starts,
                sizes,
            },
        }))
    }
}

/// Gathers a run's matchups into blocks while its fights are scanned.
pub struct BlockWriter {
    bounds: Vec<u32>,
    sink: Sink,
}

enum Sink {
    Memory(Vec<Vec<MatchupTally>>),
    Disk {
        spill: Spill,
        files: Vec<BufWriter<std::fs::File>>,
    },
}

fn io(path: &std::path::Path, doing: &'static str, e: std::io::Error) -> Error {
    Error::File(gridsim_core::atomic::FileError::new(path, doing, e))
}

impl BlockWriter {
    /// Blocks for `fights` fights between boards with ids below `boards`.
    pub fn new(fights: u64, boards: u32) -> Result<BlockWriter, Error> {
        let count = fights.div_ceil(FIGHTS_PER_BLOCK).clamp(1, u64::from(boards.max(1))) as u32;
        let width = boards.max(1).div_ceil(count);
        let mut bounds: Vec<u32> = (0..count).map(|i| i * width).collect();
        // The last block takes every id above, so a board the boards table
        // does not list still lands in a block.
        bounds.push(u32::MAX);
        // Each fight is a pair in at most two blocks.
        let bytes = 2 * fights.saturating_mul(RECORD as u64);
        let sink = if count == 1 || bytes <= IN_MEMORY_BYTES {
            Sink::Memory(vec![Vec::new(); count as usize])
        } else {
            remove_abandoned(&std::env::temp_dir());
            let dir = std::env::temp_dir().join(format!(
                "{SPILL_PREFIX}{}-{}",
                std::process::id(),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos())
            ));
            std::fs::create_dir_all(&dir).map_err(|e| io(&dir, "create a temporary folder", e))?;
            let spill = Spill { dir };
            let files = (0..count as usize)
                .map(|i| {
                    let path = spill.file(i);
                    std::fs::File::create(&path)
                        .map(BufWriter::new)
                        .map_err(|e| io(&path, "create", e))
                })
                .collect::<Result<_, _>>()?;
            Sink::Disk { spill, files }
        };
        Ok(BlockWriter { bounds, sink })
    }

    fn block_of(&self, id: u32) -> usize {
        self.bounds.partition_point(|&b| b <= id) - 1
    }

    /// Adds one batch's matchups (a pair may come again in later batches).
    pub fn add(&mut self, batch: &[MatchupTally]) -> Result<(), Error> {
        for &m in batch {
            let m = ordered(m);
            let (low, high) = (self.block_of(m.left), self.block_of(m.right));
            let blocks = if low == high { &[low][..] } else { &[low, high][..] };
            for &b in blocks {
                match &mut self.sink {
                    Sink::Memory(out) => out[b].push(m),
                    Sink::Disk { spill, files } => {
                        files[b]
                            .write_all(&encode(&m))
                            .map_err(|e| io(&spill.file(b), "write", e))?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Merges each block's pairs.
    pub fn finish(self) -> Result<PairBlocks, Error> {
        let store = match self.sink {
            Sink::Memory(mut blocks) => {
                for b in &mut blocks {
                    merge(b);
                }
                Store::Memory(blocks)
            }
            Sink::Disk { spill, files } => {
                for (i, f) in files.into_iter().enumerate() {
                    let path = spill.file(i);
                    f.into_inner().map_err(|e| io(&path, "write", e.into_error()))?;
                    let pairs = read_merged(&path)?;
                    let mut out = BufWriter::new(std::fs::File::create(&path).map_err(|e| io(&path, "create", e))?);
                    for p in &pairs {
                        out.write_all(&encode(p)).map_err(|e| io(&path, "write", e))?;
                    }
                    out.flush().map_err(|e| io(&path, "write", e))?;
                }
                Store::Disk(spill)
            }
        };
        Ok(PairBlocks {
            bounds: self.bounds,
            store,
        })
    }
}

fn encode(m: &MatchupTally) -> [u8; RECORD] {
    let mut out = [0u8; RECORD];
    let fields = [
        u64::from(m.left),
        u64::from(m.right),
        m.fights,
        m.left_wins,
        m.right_wins,
        m.draws,
    ];
    for (chunk, v) in out.chunks_exact_mut(8).zip(fields) {
        chunk.copy_from_slice(&v.to_le_bytes());
    }
    out
}

fn decode(bytes: &[u8]) -> MatchupTally {
    let field = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[8 * i..8 * i + 8]);
        u64::from_le_bytes(b)
    };
    MatchupTally {
        // Written from u32 ids by `encode`.
        left: field(0) as u32,
        right: field(1) as u32,
        fights: field(2),
        left_wins: field(3),
        right_wins: field(4),
        draws: field(5),
    }
}

/// Reads a block file in chunks, merging as it goes: memory holds the
/// block's distinct pairs and one chunk, however often a pair recurs.
fn read_merged(path: &std::path::Path) -> Result<Vec<MatchupTally>, Error> {
    let mut reader = BufReader::new(std::fs::File::open(path).map_err(|e| io(path, "open", e))?);
    let mut merged: Vec<MatchupTally> = Vec::new();
    let mut last_merged = 0usize;
    let mut buffer = vec![0u8; CHUNK * RECORD];
    loop {
        let read = read_up_to(&mut reader, &mut buffer).map_err(|e| io(path, "read", e))?;
        merged.extend(buffer[..read - read % RECORD].chunks_exact(RECORD).map(decode));
        if merged.len() >= 2 * last_merged + CHUNK || read < buffer.len() {
            merge(&mut merged);
            last_merged = merged.len();
        }
        if read < buffer.len() {
            return Ok(merged);
        }
    }
}

/// One little-endian u64 of a saved tallies file's header.
fn read_word(reader: &mut impl Read, path: &Path) -> Result<u64, Error> {
    let mut b = [0u8; 8];
    reader.read_exact(&mut b).map_err(|e| io(path, "read", e))?;
    Ok(u64::from_le_bytes(b))
}

/// `records` pairs from byte `start` of a saved tallies file.
fn read_span(path: &Path, start: u64, records: u64) -> Result<Vec<MatchupTally>, Error> {
    use std::io::{Seek, SeekFrom};
    let mut file = std::fs::File::open(path).map_err(|e| io(path, "open", e))?;
    file.seek(SeekFrom::Start(start)).map_err(|e| io(path, "read", e))?;
    let mut bytes = vec![0u8; records as usize * RECORD];
    file.read_exact(&mut bytes).map_err(|e| io(path, "read", e))?;
    Ok(bytes.chunks_exact(RECORD).map(decode).collect())
}

/// A block file already merged.
fn read_all(path: &std::path::Path) -> Result<Vec<MatchupTally>, Error> {
    let bytes = std::fs::read(path).map_err(|e| io(path, "read", e))?;
    Ok(bytes.chunks_exact(RECORD).map(decode).collect())
}

/// Fills `buffer` as far as the file goes; the bytes read.
fn read_up_to(reader: &mut impl Read, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(left: u32, right: u32, left_wins: u64, right_wins: u64) -> MatchupTally {
        MatchupTally {
            left,
            right,
            fights: left_wins + right_wins + 1,
            left_wins,
            right_wins,
            draws: 1,
        }
    }

    fn all_pairs(blocks: &PairBlocks) -> Vec<MatchupTally> {
        let mut out = Vec::new();
        blocks.each_pair(|p| out.push(*p)).expect("blocks read");
        out
    }

    /// Blocks on disk or in memory, one or many, hold the same pairs, each
    /// merged over both orders and owned by one block; and a board's every
    /// pair is in its own block. The misreading caught: a pair split across
    /// two blocks counted in both sums over pairs, or missing from the
    /// block of its higher board.
    #[test]
    fn blocks_hold_every_pair_once_and_every_board_whole() {
        let mut fights = Vec::new();
        for i in 0..2_000u32 {
            let (a, b) = ((i * 7919) % 300, (i * 104_729 + 11) % 300);
            fights.push(m(a, b, u64::from(i % 3), u64::from(i % 2)));
        }
        // A folder left by a killed report (no process has this id: Linux
        // ids stop at 2^22) goes when the next report spills; this
        // process's own stays.
        let abandoned = std::env::temp_dir().join(format!("{SPILL_PREFIX}4294967290-1"));
        let own = std::env::temp_dir().join(format!("{SPILL_PREFIX}{}-1", std::process::id()));
        for dir in [&abandoned, &own] {
            std::fs::create_dir_all(dir).expect("folder");
        }
        let single = PairBlocks::single(fights.iter().copied());
        let want = all_pairs(&single);
        assert!(want.iter().all(|p| p.left <= p.right));
        for (total_fights, expect_disk) in [(600_000u64, false), (40_000_000, true)] {
            let mut writer = BlockWriter::new(total_fights, 300).expect("writer");
            for batch in fights.chunks(333) {
                writer.add(batch).expect("add");
            }
            let blocks = writer.finish().expect("finish");
            assert!(blocks.count() > 1);
            assert_eq!(matches!(blocks.store, Store::Disk(_)), expect_disk);
            if expect_disk && Path::new("/proc/self").exists() {
                assert!(!abandoned.exists() && own.exists());
            }
            let mut got = all_pairs(&blocks);
            got.sort_by_key(|p| (p.left, p.right));
            assert_eq!(got, want);
            blocks
                .each(|block| {
                    for board in block.ids.start..block.ids.end.min(300) {
                        let whole: Vec<_> = want.iter().filter(|p| p.left == board || p.right == board).collect();
                        let here: Vec<_> = block
                            .pairs
                            .iter()
                            .filter(|p| p.left == board || p.right == board)
                            .collect();
                        assert_eq!(here, whole, "board {board}");
                    }
                    Ok(())
                })
                .expect("blocks read");
        }
        let _ = std::fs::remove_dir_all(&own);
        let _ = std::fs::remove_dir_all(&abandoned);
    }

    /// Saved blocks read back as they were written, block by block; saved
    /// tallies from other inputs (another key), of another format, or cut
    /// short are never read as the run's. The misreading caught: a report
    /// of a resumed run reading the tallies of its first part alone.
    #[test]
    fn saved_blocks_read_back_only_under_their_key() {
        let fights: Vec<MatchupTally> = (0..3_000u32)
            .map(|i| m((i * 31) % 500, (i * 17 + 3) % 500, u64::from(i % 4), u64::from(i % 3)))
            .collect();
        let mut writer = BlockWriter::new(400_000, 500).expect("writer");
        writer.add(&fights).expect("add");
        let blocks = writer.finish().expect("finish");
        assert!(blocks.count() > 1);
        let dir = std::env::temp_dir().join(format!("gridsim-saved-blocks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("tallies.bin");
        assert!(PairBlocks::open(&path, "k").expect("no file is no error").is_none());
        blocks.save(&path, "key one").expect("saved");
        let saved = PairBlocks::open(&path, "key one").expect("read").expect("same key");
        assert_eq!(saved.bounds(), blocks.bounds());
        for i in 0..blocks.count() {
            let (a, b) = (blocks.block(i).expect("block"), saved.block(i).expect("block"));
            assert_eq!((a.ids.clone(), &*a.pairs), (b.ids.clone(), &*b.pairs), "block {i}");
        }
        assert!(PairBlocks::open(&path, "key two").expect("read").is_none());
        assert!(PairBlocks::open(&path, "key on").expect("read").is_none());
        let bytes = std::fs::read(&path).expect("read");
        std::fs::write(&path, &bytes[..bytes.len() - 5]).expect("cut");
        assert!(
            PairBlocks::open(&path, "key one").is_err(),
            "a file cut short is damaged"
        );
        std::fs::write(&path, b"not a tallies file at all").expect("write");
        assert!(PairBlocks::open(&path, "key one").expect("read").is_none());
        std::fs::remove_dir_all(&dir).expect("clean up");
    }
}
