//! The app layer's one error, [`Error`]: the problems found in input
//! files, a problem of the call itself, or an argument of a request the app
//! found wrong, which the command line names by its flag.

use std::path::{Path, PathBuf};

use gridsim_config::Diagnostic;

/// The app layer's one error: why a command failed. The problems found in
/// input files, each naming its file, line and key; or one problem of the
/// call itself (its arguments, a run directory, a file it writes).
#[derive(Debug)]
pub enum Error {
    Files(Vec<Diagnostic>),
    Message(String),
    /// A request's argument is wrong: each message says why, continuing
    /// after the argument's name, and names `file` when one is concerned.
    /// The command line, which alone knows how the argument was spelt,
    /// turns it into a message naming its flag (`Error::naming`).
    Argument {
        argument: Argument,
        file: Option<PathBuf>,
        messages: Vec<String>,
    },
}

/// The arguments of a request the app checks against what it loads (a
/// catalog, a suite, a run), named for what they are, not how a command
/// line spells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Argument {
    /// A sweep's values.
    Values,
    /// A sweep's field, and its second.
    Field,
    Field2,
    /// A tune's levers.
    Levers,
    /// A tune's or a search's fight budget.
    Budget,
    /// A night's date.
    Date,
    /// A search's finalists and generation size.
    TopAndBatch,
    /// A report's baseline run.
    Baseline,
}

impl From<Vec<Diagnostic>> for Error {
    fn from(diagnostics: Vec<Diagnostic>) -> Error {
        Error::Files(diagnostics)
    }
}

impl From<String> for Error {
    fn from(message: String) -> Error {
        Error::Message(message)
    }
}

impl Error {
    /// How many problems.
    pub fn count(&self) -> usize {
        match self {
            Error::Files(d) => d.len(),
            Error::Message(_) => 1,
            Error::Argument { messages, .. } => messages.len(),
        }
    }

    /// An argument's problem, `message` continuing after its name.
    pub fn argument(argument: Argument, file: Option<&Path>, message: impl Into<String>) -> Error {
        Error::Argument {
            argument,
            file: file.map(Path::to_path_buf),
            messages: vec![message.into()],
        }
    }

    /// The error with each argument named as `name` spells it: the
    /// command line's flags.
    pub fn naming(self, name: impl Fn(Argument) -> &'static str) -> Error {
        match self {
            Error::Argument {
                argument,
                file: Some(file),
                messages,
            } => Error::Files(
                messages
                    .into_iter()
                    .map(|m| Diagnostic::whole_file(&file, format!("{}{m}", name(argument))))
                    .collect(),
            ),
            Error::Argument {
                argument,
                file: None,
                messages,
            } => Error::Message(
                messages
                    .iter()
                    .map(|m| format!("{}{m}", name(argument)))
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            other => other,
        }
    }
}

impl std::fmt::Display for Error {
    /// A line per problem, then their number.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Error::Files(diagnostics) => {
                for d in diagnostics {
                    writeln!(f, "{d}")?;
                }
            }
            Error::Message(message) => writeln!(f, "gridsim: error: {message}")?,
            Error::Argument { argument, messages, .. } => {
                for m in messages {
                    writeln!(f, "gridsim: error: {argument:?}{m}")?;
                }
            }
        }
        let n = self.count();
        write!(f, "{n} error{}", if n == 1 { "" } else { "s" })
    }
}

impl FromIterator<Diagnostic> for Error {
    fn from_iter<I: IntoIterator<Item = Diagnostic>>(problems: I) -> Error {
        Error::Files(problems.into_iter().collect())
    }
}

impl Error {
    /// A problem with the file at `path` as a whole (reading or writing it).
    pub fn file(path: &Path, message: impl Into<String>) -> Error {
        Error::Files(vec![Diagnostic::whole_file(path, message)])
    }
}
