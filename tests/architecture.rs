//! The crate's layers, as ARCHITECTURE.md declares them, hold in `src/`:
//! every top-level module is in exactly one layer, a module uses only
//! modules of its own layer or below, and no two modules use each other,
//! directly or through others (no import cycle).
//!
//! A module "uses" another where its code (not its comments, not its unit
//! tests) names `crate::other`, alone or in a `crate::{…}` group. The
//! misreadings this catches: a lower layer reaching up for a helper (the
//! compiled catalog calling into the coverage table, the statistics
//! importing the engine), and two modules of one layer leaning on each
//! other until neither can be read alone.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// ARCHITECTURE.md's layer table: each layer's name and modules, top first.
fn declared_layers() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"))
        .expect("ARCHITECTURE.md is at the top of the repository");
    let section = text
        .split("\n## ")
        .find(|s| s.starts_with("Layers"))
        .expect("ARCHITECTURE.md has a Layers section");
    let mut layers = Vec::new();
    for line in section.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if cells.len() < 2 || cells[0] == "layer" || cells[0].starts_with("---") {
            continue;
        }
        let modules: Vec<String> = cells[1]
            .split(',')
            .map(|m| m.trim().trim_matches('`').to_string())
            .filter(|m| !m.is_empty())
            .collect();
        layers.push((cells[0].to_string(), modules));
    }
    assert!(layers.len() >= 2, "the Layers table lists the layers");
    layers
}

/// Every top-level module under `src/` (a file or a folder), but the
/// crate roots.
fn modules_in_src(src: &Path) -> BTreeSet<String> {
    std::fs::read_dir(src)
        .expect("src/")
        .map(|e| e.expect("an entry of src/").path())
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_string();
            if p.is_dir() {
                // A folder is a module when a file of the same name or a
                // mod.rs declares it (rule_book/ only holds its data).
                p.join("mod.rs").exists().then_some(name)
            } else {
                let stem = name.strip_suffix(".rs")?;
                (stem != "lib" && stem != "main").then(|| stem.to_string())
            }
        })
        .collect()
}

/// The Rust files of module `m`: `src/m.rs` and everything under `src/m/`
/// but unit-test files.
fn files_of(src: &Path, m: &str) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let file = src.join(format!("{m}.rs"));
    if file.exists() {
        out.push(file);
    }
    let mut stack = vec![src.join(m)];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for p in entries.map(|e| e.expect("a directory entry").path()) {
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") && p.file_name().is_some_and(|n| n != "tests.rs") {
                out.push(p);
            }
        }
    }
    out
}

/// A file's code without its comments and its trailing unit tests.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(at) => &l[..at],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first identifier of `text`.
fn identifier(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The top-level modules `code` names through `crate::`.
fn uses_of(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // `crate::{a, b::{c, d}, e}`: the names at the group's own depth.
            let mut depth = 0;
            let mut expect_name = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => expect_name = true,
                    c if expect_name && depth == 0 && (c.is_ascii_alphabetic() || c == '_') => {
                        out.insert(identifier(&group[i..]).to_string());
                        expect_name = false;
                    }
                    _ => {}
                }
            }
        } else {
            out.insert(identifier(rest).to_string());
        }
    }
    out
}

#[test]
fn every_module_uses_only_its_own_layer_and_those_below_without_cycles() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let layers = declared_layers();
    let mut layer_of: BTreeMap<String, usize> = BTreeMap::new();
    for (depth, (layer, modules)) in layers.iter().enumerate() {
        for m in modules {
            // Top first: a higher layer has a smaller index.
            let before = layer_of.insert(m.clone(), depth);
            assert!(before.is_none(), "`{m}` is in two layers (the second: {layer})");
        }
    }
    let present = modules_in_src(&src);
    let declared: BTreeSet<String> = layer_of.keys().cloned().collect();
    let missing: Vec<&String> = present.difference(&declared).collect();
    let extra: Vec<&String> = declared.difference(&present).collect();
    assert!(
        missing.is_empty(),
        "modules in src/ missing from ARCHITECTURE.md's layers: {missing:?}"
    );
    assert!(
        extra.is_empty(),
        "ARCHITECTURE.md's layers name modules not in src/: {extra:?}"
    );

    let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut upward = Vec::new();
    for m in &present {
        let files = files_of(&src, m);
        assert!(!files.is_empty(), "module `{m}` has source files");
        let mut used = BTreeSet::new();
        for f in files {
            let text = std::fs::read_to_string(&f).expect("a source file");
            used.extend(
                uses_of(&code_of(&text))
                    .into_iter()
                    .filter(|u| u != m && present.contains(u)),
            );
        }
        for u in &used {
            if layer_of[u] < layer_of[m] {
                upward.push(format!(
                    "`{m}` ({}) uses `{u}` ({})",
                    layers[layer_of[m]].0, layers[layer_of[u]].0
                ));
            }
        }
        uses.insert(m.clone(), used);
    }
    assert!(upward.is_empty(), "uses that go up a layer:\n{}", upward.join("\n"));

    // No cycle: peel modules that use nothing left, or that nothing left
    // uses; what remains lies on cycles.
    let mut left: BTreeMap<String, BTreeSet<String>> = uses.clone();
    loop {
        let used_by_left: BTreeSet<&String> = left.values().flatten().collect();
        let free: Vec<String> = left
            .iter()
            .filter(|(m, used)| used.iter().all(|u| !left.contains_key(u)) || !used_by_left.contains(m))
            .map(|(m, _)| m.clone())
            .collect();
        if free.is_empty() {
            break;
        }
        for m in free {
            left.remove(&m);
        }
    }
    let cycles: Vec<String> = left
        .iter()
        .map(|(m, used)| {
            let within: Vec<&String> = used.iter().filter(|u| left.contains_key(*u)).collect();
            format!("`{m}` uses {within:?}")
        })
        .collect();
    assert!(cycles.is_empty(), "modules in import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_use_reader_sees_single_paths_groups_and_not_comments() {
    // The reader itself: if it missed a form, the test above would pass on
    // a crate full of cycles.
    let code = code_of(
        "use crate::alpha::X;\nuse crate::{beta, gamma::{Y, Z}, delta::W};\n// crate::epsilon in a comment\nfn f() { crate::zeta::g(); }\n#[cfg(test)]\nmod tests {\n    use crate::eta;\n}\n",
    );
    let found: Vec<String> = uses_of(&code).into_iter().collect();
    assert_eq!(found, ["alpha", "beta", "delta", "gamma", "zeta"]);
}

/// Each package's features as `cargo tree` resolves them, with or without
/// the dev-dependencies.
fn resolved_features(with_dev: bool) -> BTreeMap<String, String> {
    let edges = if with_dev { "normal,build,dev" } else { "normal,build" };
    let out = std::process::Command::new(env!("CARGO"))
        .args(["tree", "--offline", "-e", edges, "--prefix", "none", "-f", "{p}|{f}"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let (package, features) = l.trim_end_matches(" (*)").split_once('|')?;
            Some((package.to_string(), features.to_string()))
        })
        .collect()
}

#[test]
fn the_build_and_the_tests_resolve_every_shared_package_alike() {
    // The README's two commands share one build only when every package
    // both use has the same features in both: otherwise `cargo test
    // --release` after `cargo build --release` compiles it (and all that
    // depends on it, the Arrow and polars stack) again. Cargo.toml names the
    // features the dev-dependencies turn on; this catches a new one.
    let build = resolved_features(false);
    let test = resolved_features(true);
    let differ: Vec<String> = build
        .iter()
        .filter_map(|(package, features)| {
            let with_dev = test.get(package)?;
            (with_dev != features).then(|| format!("{package}: build [{features}], tests [{with_dev}]"))
        })
        .collect();
    assert!(build.len() > 100, "cargo tree lists the dependencies");
    assert!(
        differ.is_empty(),
        "packages whose features differ between the build and the tests (name the tests' features in Cargo.toml):\n{}",
        differ.join("\n")
    );
}
