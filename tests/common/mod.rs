//! Helpers shared by the tests that run the `gridsim` binary.

use std::path::PathBuf;
use std::process::Command;

use gridsim::dataset::Manifest;

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

/// (file, sha256) of every data file of finished runs (their copies of the
/// inputs left out), sorted.
#[allow(
    dead_code,
    reason = "used by the run tests, not by every test that shares this module"
)]
pub fn data_checksums(dirs: &[PathBuf]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for d in dirs {
        let m = Manifest::read(d).expect("manifest");
        assert!(m.complete, "{} is not complete", d.display());
        out.extend(
            m.files()
                .iter()
                .filter(|f| !f.path.starts_with("inputs/"))
                .map(|f| (f.path.clone(), f.sha256.clone())),
        );
    }
    out.sort();
    out
}
