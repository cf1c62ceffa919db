//! Helpers shared by the tests that run the `gridsim` binary.

use std::path::PathBuf;
use std::process::Command;

/// Runs the built `gridsim` with `args`.
pub fn gridsim(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gridsim"))
        .args(args)
        .output()
        .expect("gridsim runs")
}

/// A fresh empty folder for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gridsim-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}
