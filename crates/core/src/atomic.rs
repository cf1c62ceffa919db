//! The one way gridsim writes a file: under a temporary name, hashed while
//! it is written, synced, then renamed into place. A reader therefore sees
//! either nothing or the whole file, and the SHA-256 a manifest records is
//! the hash of exactly the bytes written, without reading them back.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// A file being written. Dropped without [`AtomicFile::finish`], it removes
/// its temporary file: an interrupted write leaves nothing behind that
/// could look finished.
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    out: Option<BufWriter<File>>,
    hasher: Sha256,
    bytes: u64,
}

/// What a finished write produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    pub path: PathBuf,
    pub bytes: u64,
    pub sha256: String,
}

/// A file that could not be written or read: which file, what was being
/// done, and the system's error. Printed as `PATH: cannot DOING: ERROR`.
#[derive(Debug)]
pub struct FileError {
    pub path: PathBuf,
    /// What failed, as "cannot …" finishes it: `create`, `flush`, `sync`,
    /// `rename into place`, `write`, `open`, `read`.
    pub doing: &'static str,
    pub source: std::io::Error,
}

impl FileError {
    pub fn new(path: &Path, doing: &'static str, source: std::io::Error) -> FileError {
        FileError {
            path: path.to_path_buf(),
            doing,
            source,
        }
    }
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: cannot {}: {}", self.path.display(), self.doing, self.source)
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// The temporary name a file is written under: its name plus `.tmp`.
pub fn temporary_name(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".tmp");
    path.with_file_name(name)
}

/// The app layer speaks in messages where it has no type of its own: a
/// `FileError` becomes its message there.
impl From<FileError> for String {
    fn from(e: FileError) -> String {
        e.to_string()
    }
}

impl AtomicFile {
    pub fn create(path: &Path) -> Result<AtomicFile, FileError> {
        let tmp = temporary_name(path);
        let file = File::create(&tmp).map_err(|e| FileError::new(&tmp, "create", e))?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            tmp,
            out: Some(BufWriter::with_capacity(1 << 16, file)),
            hasher: Sha256::new(),
            bytes: 0,
        })
    }

    /// Flushes, syncs and renames the file into place; returns its hash.
    pub fn finish(mut self) -> Result<Finished, FileError> {
        // `finish` takes the file by value, so it cannot run twice.
        let out = self.out.take().expect("an unfinished file holds its writer");
        let file = out
            .into_inner()
            .map_err(|e| FileError::new(&self.tmp, "flush", e.into_error()))?;
        file.sync_all().map_err(|e| FileError::new(&self.tmp, "sync", e))?;
        drop(file);
        std::fs::rename(&self.tmp, &self.path).map_err(|e| FileError::new(&self.path, "rename into place", e))?;
        let hasher = std::mem::take(&mut self.hasher);
        Ok(Finished {
            path: self.path.clone(),
            bytes: self.bytes,
            sha256: hex(&hasher.finalize()),
        })
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let out = self
            .out
            .as_mut()
            .ok_or_else(|| std::io::Error::other("write after finish"))?;
        let n = out.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.as_mut().map_or(Ok(()), |o| o.flush())
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.out.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Writes a whole file atomically; returns its hash.
pub fn write(path: &Path, bytes: &[u8]) -> Result<Finished, FileError> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes)
        .map_err(|e| FileError::new(&temporary_name(path), "write", e))?;
    f.finish()
}

/// The SHA-256 of a file already on disk, as lowercase hex.
pub fn file_sha256(path: &Path) -> Result<String, FileError> {
    use std::io::Read;
    let mut f = File::open(path).map_err(|e| FileError::new(path, "open", e))?;
    let mut hasher = Sha256::new();
    // On the stack: a report hashes every file of a run, and a zeroed heap
    // buffer per file cost more than the reads it saved.
    let mut buf = [0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf).map_err(|e| FileError::new(path, "read", e))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

/// The SHA-256 of bytes in memory, as lowercase hex.
pub fn sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(digest: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut s = String::with_capacity(digest.len() * 2);
    for b in digest {
        let _ = write!(s, "{b:02x}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_while_writing_equals_the_hash_read_back() {
        let dir = std::env::temp_dir().join(format!("gridsim-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("a.bin");
        let data: Vec<u8> = (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let done = write(&path, &data).expect("write");
        assert_eq!(done.bytes, data.len() as u64);
        assert_eq!(done.sha256, file_sha256(&path).expect("read back"));
        assert_eq!(done.sha256, sha256(&data));
        assert!(!temporary_name(&path).exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unfinished_write_leaves_nothing() {
        let dir = std::env::temp_dir().join(format!("gridsim-atomic-drop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("b.bin");
        {
            let mut f = AtomicFile::create(&path).expect("create");
            f.write_all(b"half").expect("write");
            assert!(temporary_name(&path).exists());
        }
        assert!(!temporary_name(&path).exists(), "the temporary file is removed");
        assert!(!path.exists(), "nothing looks finished");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
