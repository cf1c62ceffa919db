//! The data layer's one error, [`Error`]: why a run's files could not be
//! written, read or trusted, why runs cannot be read together, or why the
//! worker pool failed. Each variant prints as one line naming its file
//! where there is one; the app layer adds the command's context.

use std::fmt;
use std::path::{Path, PathBuf};

use gridsim_core::atomic::FileError;

#[derive(Debug)]
pub enum Error {
    /// A file could not be created, written, read or listed.
    File(FileError),
    /// Arrow or Parquet refused a table: what was being done (`doing`, as
    /// "cannot …" finishes it) to which file, and their message.
    Table {
        path: PathBuf,
        doing: String,
        message: String,
    },
    /// A file is not what a run writes: a column missing or of another
    /// type, a damaged block, a manifest of another format.
    Malformed { path: PathBuf, what: String },
    /// A manifest could not be encoded as JSON.
    Encode(String),
    /// A shard, written `text`, is not `K/N` with `0 <= K < N`.
    Shard { text: String, expected: &'static str },
    /// Runs read together are not one run: each field that differs, with
    /// both values.
    NotSameRun(Vec<String>),
    /// Two runs compared fight by fight did not fight the same fights: the
    /// fields of their identities that differ.
    NotSameFights(Vec<&'static str>),
    /// A file of a run cannot be trusted: missing, corrupt or not listed in
    /// its manifest; the first problem a check found.
    Untrusted(String),
    /// The worker pool could not start, or a worker failed.
    Workers(String),
}

impl Error {
    /// Arrow or Parquet refused `doing` to `path`.
    pub fn table(path: &Path, doing: impl Into<String>, message: impl fmt::Display) -> Error {
        Error::Table {
            path: path.to_path_buf(),
            doing: doing.into(),
            message: message.to_string(),
        }
    }

    /// `path` is not what a run writes.
    pub fn malformed(path: &Path, what: impl Into<String>) -> Error {
        Error::Malformed {
            path: path.to_path_buf(),
            what: what.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::File(e) => e.fmt(f),
            Error::Table { path, doing, message } => write!(f, "{}: cannot {doing}: {message}", path.display()),
            Error::Malformed { path, what } => write!(f, "{}: {what}", path.display()),
            Error::Encode(message) => write!(f, "cannot encode the manifest: {message}"),
            Error::Shard { text, expected } => write!(f, "shard `{text}`: {expected}"),
            Error::NotSameRun(diffs) => write!(f, "not the same run: {}", diffs.join("; ")),
            Error::NotSameFights(diffs) => write!(f, "the runs differ in {}", diffs.join(", ")),
            Error::Untrusted(why) | Error::Workers(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::File(e) => Some(e),
            _ => None,
        }
    }
}

impl From<FileError> for Error {
    fn from(e: FileError) -> Error {
        Error::File(e)
    }
}

/// The app layer speaks in messages where it has no type of its own: an
/// error becomes its message there.
impl From<Error> for String {
    fn from(e: Error) -> String {
        e.to_string()
    }
}
