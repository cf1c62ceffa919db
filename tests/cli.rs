//! The command line as a person uses it.

use std::process::Command;

fn gridsim(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gridsim"))
        .args(args)
        .output()
        .expect("gridsim runs")
}

#[test]
fn the_sample_boards_fight_deterministically() {
    let args = [
        "fight",
        "configs/boards/tidal_execution.toml",
        "configs/boards/wildfire.toml",
        "--seed",
        "5",
        "--log",
    ];
    let a = gridsim(&args);
    let b = gridsim(&args);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(a.stdout, b.stdout);
    let text = String::from_utf8_lossy(&a.stdout);
    assert!(text.contains("result:") && text.contains("log:"), "{text}");
    let json = gridsim(&[
        "fight",
        "configs/boards/tidal_execution.toml",
        "configs/boards/wildfire.toml",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("valid JSON");
    assert!(["left", "right", "draw"].contains(&v["winner"].as_str().unwrap_or("")));
}

#[test]
fn validate_accepts_the_shipped_configs() {
    let out = gridsim(&["validate"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn validate_names_the_line_and_key_of_a_broken_file() {
    let dir = std::env::temp_dir().join(format!("gridsim-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("broken_board.toml");
    std::fs::write(
        &file,
        "name = \"x\"\n\n[[unit]]\ncard = \"executioner_crabb\"\ntier = 1\ncell = [0, 0]\n",
    )
    .expect("write");
    let out = gridsim(&["validate", file.to_str().expect("utf-8 path")]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("broken_board.toml:4:8"), "{err}");
    assert!(
        err.contains("unit[0].card") && err.contains("did you mean `executioner_crab`?"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
