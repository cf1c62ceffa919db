//! The `gridsim` command line, clap's only home: [`args`] declares every
//! command and option, [`commands`] lowers each into calls on the app
//! layer, prints the results and picks the exit code.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

/// Writes to standard output; a closed pipe (`gridsim coverage | head`)
/// ends the program quietly instead of panicking.
fn write_out(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if out.write_all(text.as_bytes()).and_then(|_| out.flush()).is_err() {
        std::process::exit(0);
    }
}

macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::write_out(&format!($($arg)*)) };
}

macro_rules! outln {
    ($($arg:tt)*) => { $crate::cli::write_out(&format!("{}\n", format!($($arg)*))) };
}

mod args;
mod commands;

pub use args::Cli;

/// The rules file and the catalog's files every command reads (the global
/// `--rules` and `--cards`).
pub struct RulesAndCards {
    pub rules: PathBuf,
    pub cards: Vec<PathBuf>,
}

use gridsim_app::runs::Argument;
pub use gridsim_app::runs::Error;

/// Parses the arguments and runs the command: exit code 2 on an error,
/// the command's own code otherwise.
pub fn main() -> ExitCode {
    match commands::run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("{}", e.naming(flag));
            ExitCode::from(2)
        }
    }
}

/// The flag that gives each argument the app checks: the one place below
/// which no layer spells a flag.
fn flag(argument: Argument) -> &'static str {
    match argument {
        Argument::Values => "--values",
        Argument::Field => "--field",
        Argument::Field2 => "--field2",
        Argument::Levers => "--levers",
        Argument::Budget => "--budget",
        Argument::Date => "--date",
        Argument::TopAndBatch => "--top and --batch",
        Argument::Baseline => "--baseline",
    }
}
