//! The analysis layer's one error, [`Error`]: a run's files could not be
//! read, polars could not aggregate them, or runs cannot be compared as
//! asked.

use std::fmt;

#[derive(Debug)]
pub enum Error {
    /// Reading or trusting a run's files failed.
    Data(gridsim_data::Error),
    /// polars could not aggregate the run: its message.
    Aggregate(String),
    /// The run holds no finished part to read.
    NoParts,
    /// Two runs cannot be compared as asked: why.
    NotComparable(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Data(e) => e.fmt(f),
            Error::Aggregate(message) => write!(f, "aggregating the run failed: {message}"),
            Error::NoParts => f.write_str("the run holds no finished parts"),
            Error::NotComparable(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Data(e) => Some(e),
            _ => None,
        }
    }
}

impl From<gridsim_data::Error> for Error {
    fn from(e: gridsim_data::Error) -> Error {
        Error::Data(e)
    }
}

/// The app layer speaks in messages where it has no type of its own: an
/// error becomes its message there.
impl From<Error> for String {
    fn from(e: Error) -> String {
        e.to_string()
    }
}
