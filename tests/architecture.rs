//! The workspace's layers, as ARCHITECTURE.md declares them, hold: every
//! crate is in exactly one layer, a crate depends only on crates of lower
//! layers (the compiler refuses a cycle; this refuses an upward or sideways
//! dependency it would accept), the modules a crate holds are the ones the
//! table names and the library's front names, no two modules of a crate use
//! each other, directly or through others, and each outside crate stays in
//! the files the table lets it into.
//!
//! The misreadings this catches: a lower layer reaching up for a helper
//! (the compiled catalog calling into the coverage table, the statistics
//! importing the engine), one engine leaning on the other, two modules of
//! one crate leaning on each other until neither can be read alone, and
//! polars or Arrow leaking out of the one file that knows it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// One row of ARCHITECTURE.md's layer table.
#[derive(Debug)]
struct Row {
    layer: String,
    /// Top first: a higher layer has a smaller depth.
    depth: usize,
    krate: String,
    modules: Vec<String>,
}

/// ARCHITECTURE.md's layer table, top first.
fn declared_crates() -> Vec<Row> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md is at the top");
    let section = text
        .split("\n## ")
        .find(|s| s.starts_with("Layers"))
        .expect("ARCHITECTURE.md has a Layers section");
    let names = |cell: &str| -> Vec<String> {
        cell.split(',')
            .map(|m| m.trim().trim_matches('`').to_string())
            .filter(|m| !m.is_empty())
            .collect()
    };
    let mut rows: Vec<Row> = Vec::new();
    for line in section.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if cells.len() < 4 || cells[0] == "layer" || cells[0].starts_with("---") {
            continue;
        }
        let depth = match rows.last() {
            Some(last) if last.layer == cells[0] => last.depth,
            Some(last) => last.depth + 1,
            None => 0,
        };
        assert!(
            !rows.iter().any(|r| r.layer == cells[0] && r.depth != depth),
            "layer {} is split in the table",
            cells[0]
        );
        rows.push(Row {
            layer: cells[0].to_string(),
            depth,
            krate: cells[1].trim_matches('`').to_string(),
            modules: names(cells[2]),
        });
    }
    assert!(rows.len() >= 2, "the Layers table lists the crates");
    rows
}

/// The source folder of a crate of the table.
fn src_of(krate: &str) -> PathBuf {
    match krate.strip_prefix("gridsim-") {
        Some(dir) => root().join("crates").join(dir).join("src"),
        None => root().join("src"),
    }
}

/// The `gridsim-*` crates a crate's manifest depends on (its
/// `[dependencies]`, not its dev-dependencies).
fn crate_dependencies(krate: &str) -> BTreeSet<String> {
    let manifest = src_of(krate).parent().expect("a crate folder").join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).expect("a crate manifest");
    let toml: toml::Table = toml::from_str(&text).expect("the manifest is TOML");
    toml.get("dependencies")
        .and_then(|d| d.as_table())
        .map(|d| d.keys().filter(|k| k.starts_with("gridsim-")).cloned().collect())
        .unwrap_or_default()
}

/// Every crate of the workspace: the top one and each folder of `crates/`.
fn crates_in_workspace() -> BTreeSet<String> {
    let mut out: BTreeSet<String> = std::fs::read_dir(root().join("crates"))
        .expect("crates/")
        .map(|e| e.expect("an entry of crates/").path())
        .filter(|p| p.join("Cargo.toml").exists())
        .map(|p| format!("gridsim-{}", p.file_name().and_then(|n| n.to_str()).expect("a name")))
        .collect();
    out.insert("gridsim".to_string());
    out
}

#[test]
fn every_crate_depends_only_on_crates_of_lower_layers() {
    let rows = declared_crates();
    let mut depth_of: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &rows {
        assert!(
            depth_of.insert(&r.krate, r.depth).is_none(),
            "`{}` is in the table twice",
            r.krate
        );
    }
    let present = crates_in_workspace();
    let declared: BTreeSet<String> = depth_of.keys().map(|k| k.to_string()).collect();
    assert_eq!(
        present, declared,
        "the workspace's crates and ARCHITECTURE.md's table differ"
    );
    let mut wrong = Vec::new();
    for r in &rows {
        for d in crate_dependencies(&r.krate) {
            let Some(&dd) = depth_of.get(d.as_str()) else {
                wrong.push(format!("`{}` depends on `{d}`, which the table does not name", r.krate));
                continue;
            };
            if dd <= r.depth {
                wrong.push(format!(
                    "`{}` ({}) depends on `{d}`, which is not below it",
                    r.krate, r.layer
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "dependencies that go up or sideways:\n{}",
        wrong.join("\n")
    );
}

/// The top-level modules a crate declares in `lib.rs`.
fn declared_modules(src: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest = l.strip_prefix("pub mod ").or_else(|| l.strip_prefix("mod "))?;
            Some(rest.trim_end_matches(';').trim().to_string())
        })
        .collect()
}

#[test]
fn each_crate_holds_the_modules_the_table_names_and_the_front_names_them() {
    let rows = declared_crates();
    let front = std::fs::read_to_string(root().join("src/lib.rs")).expect("src/lib.rs");
    for r in &rows {
        if r.krate != "gridsim" {
            let src = src_of(&r.krate);
            let declared = declared_modules(&src);
            // A module with no file of its own is the crate's root: its own
            // files are the lib.rs's other modules.
            let rooted = r.modules.iter().any(|m| files_of(&src, m).is_empty());
            let with_files: BTreeSet<String> = r
                .modules
                .iter()
                .filter(|m| !files_of(&src, m).is_empty())
                .cloned()
                .collect();
            if rooted {
                let missing: Vec<&String> = with_files.difference(&declared).collect();
                assert!(
                    missing.is_empty(),
                    "`{}`'s lib.rs does not declare {missing:?}",
                    r.krate
                );
            } else {
                assert_eq!(
                    declared, with_files,
                    "`{}`'s lib.rs and ARCHITECTURE.md's table name different modules",
                    r.krate
                );
            }
        }
        if r.krate == "gridsim" {
            continue;
        }
        let ident = r.krate.replace('-', "_");
        for m in &r.modules {
            // `pub use gridsim_x::{a, b};`, `pub use gridsim_x::a;`,
            // `pub use gridsim_x::a as x_a;` (two crates' modules of one
            // name) or `pub use gridsim_x as a;`.
            let named = front.split(';').any(|statement| {
                let words: String = statement.split_whitespace().collect::<Vec<_>>().join(" ");
                let Some(rest) = words.strip_prefix(&format!("pub use {ident}")) else {
                    return false;
                };
                rest == format!(" as {m}")
                    || rest == format!("::{m}")
                    || rest.starts_with(&format!("::{m} as "))
                    || rest
                        .strip_prefix("::{")
                        .and_then(|g| g.strip_suffix('}'))
                        .is_some_and(|g| g.split(',').any(|n| n.trim() == m))
            });
            assert!(named, "src/lib.rs does not name `{m}` from `{}`", r.krate);
        }
    }
}

/// The Rust files of module `m` of a crate, but unit-test files: `m.rs`
/// and everything under `m/`.
fn files_of(src: &Path, m: &str) -> Vec<PathBuf> {
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

/// Every Rust file of a crate, unit-test files too.
fn all_files(src: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for p in std::fs::read_dir(&dir)
            .expect("a source folder")
            .map(|e| e.expect("an entry").path())
        {
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
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
        if code[..at].ends_with('$') {
            continue;
        }
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
fn no_two_modules_of_a_crate_use_each_other() {
    for r in declared_crates().iter().filter(|r| r.modules.len() > 1) {
        let src = src_of(&r.krate);
        let present: BTreeSet<String> = r.modules.iter().cloned().collect();
        // A module with no file of its own is the crate's root (`engine` in
        // `gridsim-engine`): its files are all the others', and a path
        // through `crate::` that names no other module names it.
        let root_module = present.iter().find(|m| files_of(&src, m).is_empty()).cloned();
        let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for m in &present {
            let files = match files_of(&src, m) {
                files if !files.is_empty() => files,
                _ => {
                    let others: BTreeSet<PathBuf> = present
                        .iter()
                        .filter(|o| *o != m)
                        .flat_map(|o| files_of(&src, o))
                        .collect();
                    all_files(&src)
                        .into_iter()
                        .filter(|f| !others.contains(f) && f.file_name().is_some_and(|n| n != "tests.rs"))
                        .collect()
                }
            };
            let mut used = BTreeSet::new();
            for f in files {
                let text = std::fs::read_to_string(&f).expect("a source file");
                for u in uses_of(&code_of(&text)) {
                    let u = if present.contains(&u) {
                        Some(u)
                    } else {
                        root_module.clone()
                    };
                    used.extend(u.filter(|u| u != m));
                }
            }
            uses.insert(m.clone(), used);
        }
        // Peel modules that use nothing left, or that nothing left uses;
        // what remains lies on cycles.
        let mut left = uses.clone();
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
        assert!(
            cycles.is_empty(),
            "modules of `{}` in import cycles:\n{}",
            r.krate,
            cycles.join("\n")
        );
    }
}

/// The sibling modules `code` (a file other than a folder's `mod.rs`)
/// names through `super::`, alone or in a `super::{…}` group.
fn sibling_uses_of(code: &str) -> BTreeSet<String> {
    uses_of(&code.replace("super::", "crate::"))
}

#[test]
fn no_two_files_of_a_folder_use_each_other() {
    // Inside a folder module (`matches/`, `showdown/`, `report/`), the
    // files beside `mod.rs` reach each other through `super::`; two that
    // do so both ways (the bots and the shop, once) cannot be read apart.
    for krate in crates_in_workspace() {
        let mut folders = vec![src_of(&krate)];
        while let Some(dir) = folders.pop() {
            let entries: Vec<PathBuf> = std::fs::read_dir(&dir)
                .expect("a source folder")
                .map(|e| e.expect("an entry").path())
                .collect();
            folders.extend(entries.iter().filter(|p| p.is_dir()).cloned());
            if !dir.join("mod.rs").exists() {
                continue;
            }
            let name = |p: &Path| p.file_stem().and_then(|n| n.to_str()).expect("a name").to_string();
            let siblings: BTreeSet<String> = entries
                .iter()
                .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "rs"))
                .map(|p| name(p))
                .filter(|n| n != "mod" && n != "tests")
                .collect();
            let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
            for p in entries.iter().filter(|p| p.extension().is_some_and(|e| e == "rs")) {
                let m = name(p);
                if !siblings.contains(&m) {
                    continue;
                }
                let code = code_of(&std::fs::read_to_string(p).expect("a source file"));
                let used: BTreeSet<String> = sibling_uses_of(&code)
                    .into_iter()
                    .filter(|u| *u != m && siblings.contains(u))
                    .collect();
                uses.insert(m, used);
            }
            let mut both_ways = Vec::new();
            for (a, used) in &uses {
                for b in used {
                    if a < b && uses.get(b).is_some_and(|u| u.contains(a)) {
                        both_ways.push(format!("{a} <-> {b}"));
                    }
                }
            }
            assert!(
                both_ways.is_empty(),
                "{}: files that use each other: {both_ways:?}",
                dir.display()
            );
        }
    }
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

/// The files of the workspace, by path from the top, whose code (comments
/// aside) names `word`.
fn files_naming(word: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for krate in crates_in_workspace() {
        for f in all_files(&src_of(&krate)) {
            let text = std::fs::read_to_string(&f).expect("a source file");
            let code = text
                .lines()
                .map(|l| match l.find("//") {
                    Some(at) => &l[..at],
                    None => l,
                })
                .collect::<Vec<_>>()
                .join("\n");
            if code.contains(word) {
                let rel = f
                    .strip_prefix(root())
                    .expect("under the top")
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel);
            }
        }
    }
    out
}

#[test]
fn each_outside_crate_stays_in_the_files_that_know_it() {
    // ARCHITECTURE.md: "only sink knows Arrow; only analysis knows polars";
    // clap only in the command line; plotters only in render; ChaCha8
    // only in the random stream; a pool of threads only in the one driver.
    let homes: [(&str, &[&str]); 7] = [
        // One parallel driver: the batch layer's, which every parallel
        // engine loop goes through.
        ("ThreadPoolBuilder", &["crates/data/src/batch.rs"]),
        ("polars::", &["crates/analysis/src/analysis.rs"]),
        ("arrow::", &["crates/data/src/sink.rs"]),
        ("parquet::", &["crates/data/src/sink.rs"]),
        ("plotters::", &["crates/present/src/render.rs"]),
        ("rand_chacha::", &["crates/core/src/rng.rs"]),
        ("clap::", &["src/cli/args.rs", "src/cli/mod.rs"]),
    ];
    for (word, allowed) in homes {
        let found = files_naming(word);
        let allowed: BTreeSet<String> = allowed.iter().map(|s| s.to_string()).collect();
        let outside: Vec<&String> = found.difference(&allowed).collect();
        assert!(
            outside.is_empty(),
            "`{word}` is named outside its home {allowed:?}: {outside:?}"
        );
        assert!(
            !found.is_empty(),
            "`{word}` is named nowhere: its home moved and this list did not"
        );
    }
}

#[test]
fn the_engines_know_no_file_system_clock_threads_or_hash_maps() {
    // ARCHITECTURE.md's first invariant: a fight depends only on the
    // catalog, the boards and its stream. A file read, a clock, a thread or
    // a hash map's order inside an engine would make it depend on more.
    let forbidden = [
        "std::fs",
        "std::time",
        "std::thread",
        "std::env",
        "HashMap",
        "HashSet",
        "rayon",
        "Instant",
    ];
    for krate in ["gridsim-engine", "gridsim-riftbound"] {
        for f in all_files(&src_of(krate)) {
            let text = std::fs::read_to_string(&f).expect("a source file");
            let code = code_of(&text);
            for word in forbidden {
                assert!(!code.contains(word), "{} names `{word}`", f.display());
            }
        }
        let manifest = src_of(krate).parent().expect("a crate folder").join("Cargo.toml");
        let toml: toml::Table = toml::from_str(&std::fs::read_to_string(manifest).expect("a manifest")).expect("TOML");
        let outside: Vec<&String> = toml
            .get("dependencies")
            .and_then(|d| d.as_table())
            .map(|d| {
                d.keys()
                    .filter(|k| !k.starts_with("gridsim-") && *k != "serde")
                    .collect()
            })
            .unwrap_or_default();
        assert!(outside.is_empty(), "`{krate}` depends on {outside:?}");
    }
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

/// Where a crate below the command line still spells a flag, and why.
/// Every other place names a request's argument (`runs::Argument`), and
/// the command line, which alone knows the flags, names it (`cli::flag`).
const FLAGS_BELOW_THE_COMMAND_LINE: &[(&str, &str)] = &[
    // The generated conformance page says how it is made again.
    ("crates/present/src/coverage/mod.rs", "gridsim coverage --markdown"),
    // How to resume a run: a command for the user to type, in errors that
    // name the run's folder (not yet turned into typed errors).
    ("crates/app/src/runs.rs", "--resume"),
    ("crates/data/src/dataset.rs", "--resume"),
];

/// Nothing below the command line spells a flag (`--levers`, `--band`):
/// the command line turns its arguments into validated values, and the
/// errors about them into messages naming the flag.
#[test]
fn no_crate_below_the_command_line_spells_a_flag() {
    let mut found = Vec::new();
    for krate in crates_in_workspace().into_iter().filter(|k| k != "gridsim") {
        for f in all_files(&src_of(&krate)) {
            let rel = f
                .strip_prefix(root())
                .expect("under the top")
                .to_string_lossy()
                .replace('\\', "/");
            let code = code_of(&std::fs::read_to_string(&f).expect("a source file"));
            for (n, line) in code.lines().enumerate() {
                let spells = line
                    .match_indices("--")
                    .any(|(at, _)| line[at + 2..].starts_with(|c: char| c.is_ascii_lowercase()));
                let allowed = FLAGS_BELOW_THE_COMMAND_LINE
                    .iter()
                    .any(|(file, what)| *file == rel && line.contains(what));
                if spells && !allowed {
                    found.push(format!("{rel}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "flags spelt below the command line:\n{}",
        found.join("\n")
    );
}

/// The error type of each `Result<T, E>` written in `code`, as written,
/// whitespace removed.
fn result_error_types(code: &str) -> Vec<String> {
    let flat: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = Vec::new();
    for (at, _) in flat.match_indices("Result<") {
        let before = flat[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let (mut depth, mut comma) = (1, None);
        let args = &flat[at + "Result<".len()..];
        for (k, c) in args.char_indices() {
            match c {
                '<' | '(' | '[' => depth += 1,
                '>' | ')' | ']' => {
                    depth -= 1;
                    if depth == 0 {
                        if let Some(from) = comma {
                            out.push(args[from + 1..k].to_string());
                        }
                        break;
                    }
                }
                ',' if depth == 1 => comma = Some(k),
                _ => {}
            }
        }
    }
    out
}

/// Errors below the app layer are typed: each crate under the app says
/// what went wrong with a type of its own (`gridsim_data::Error`,
/// `gridsim_analysis::Error`, `StartError`, a diagnostic), never with a
/// bare message; the app layer turns them into what a person reads.
#[test]
fn no_crate_below_the_app_layer_returns_a_bare_message_as_its_error() {
    let mut found = Vec::new();
    for krate in crates_in_workspace()
        .into_iter()
        .filter(|k| k != "gridsim" && k != "gridsim-app")
    {
        for f in all_files(&src_of(&krate)) {
            let code = code_of(&std::fs::read_to_string(&f).expect("a source file"));
            for error in result_error_types(&code) {
                if error == "String" || error == "std::string::String" {
                    found.push(format!("{}: Result<_, {error}>", f.display()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "bare messages as errors below the app layer:\n{}",
        found.join("\n")
    );
    assert_eq!(
        result_error_types("fn f() -> Result<Vec<(u8, String)>, String> { g::<Result<(), Error>>() }"),
        ["String", "Error"],
        "the reader finds each Result's error type"
    );
}

/// The engine's files every other may call into: shared arithmetic, the
/// grid's geometry, the bit set of possible work, the event log, the
/// refusals and how a fight ended. They hold no rule of their own.
const ENGINE_LEAVES: [&str; 6] = ["arith", "geometry", "possible", "events", "errors", "outcome"];

/// Each `module::name` path `code` spells for one of `modules`, as
/// (module, name): a path's start only (after `super::`, `crate::` or no
/// path at all), and every name of a group `module::{a, b::c}`.
fn module_paths<'a>(code: &'a str, modules: &BTreeSet<String>) -> Vec<(String, &'a str)> {
    let mut out = Vec::new();
    for m in modules {
        let pat = format!("{m}::");
        for (at, _) in code.match_indices(&pat) {
            let before = &code[..at];
            let starts_path = before.ends_with("super::")
                || before.ends_with("crate::")
                || !before.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':');
            if !starts_path {
                continue;
            }
            let rest = &code[at + pat.len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for name in group[..end].split(',') {
                    out.push((m.clone(), identifier(name.trim())));
                }
            } else {
                out.push((m.clone(), identifier(rest)));
            }
        }
    }
    out
}

/// The rule for which engine file may call which (ARCHITECTURE.md, "Between
/// the engine's files"): the rule files reach each other through the
/// `Engine`'s methods and name of one another only vocabulary — types,
/// traits and constants, capitalised —, never a free function; the free
/// functions they share live in the leaves, which any file may call. A
/// rounding or a time helper kept in a rule file (as the percentages once
/// were in damage.rs) fails here.
#[test]
fn the_engine_rule_files_share_only_vocabulary_and_the_leaves() {
    let src = src_of("gridsim-engine");
    let modules: BTreeSet<String> = all_files(&src)
        .iter()
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .filter(|m| m != "lib" && m != "mod" && m != "tests")
        .collect();
    // The reader sees grouped and single paths, and no longer path ending in a module's name.
    let sample = "use super::{Engine, arith::{div_ceil, percent_of}};\nlet x = damage::percent_of(1, 2) + gridsim_model::effects::go();";
    assert_eq!(
        module_paths(sample, &modules),
        vec![
            ("arith".to_string(), "div_ceil"),
            ("arith".to_string(), "percent_of"),
            ("damage".to_string(), "percent_of")
        ]
    );
    let mut wrong = Vec::new();
    for path in all_files(&src).iter().filter(|p| !p.ends_with("lib.rs")) {
        let own = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let code = code_of(&std::fs::read_to_string(path).expect("a source file"));
        for (m, name) in module_paths(&code, &modules) {
            let free_function = name.starts_with(|c: char| c.is_ascii_lowercase());
            if m != own && !ENGINE_LEAVES.contains(&m.as_str()) && free_function {
                wrong.push(format!("{}: {m}::{name}", path.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "an engine rule file calls another's free function; reach it through the Engine or move it to a leaf ({ENGINE_LEAVES:?}):\n{}",
        wrong.join("\n")
    );
}

/// The methods of the engine's containers that change them: `name(` after
/// `fn`, whose receiver is `&mut self`.
fn mutating_methods(containers: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in containers.match_indices("fn ") {
        let rest = &containers[at + 3..];
        let name = identifier(rest);
        let args = rest[name.len()..].trim_start_matches(|c: char| c != '(');
        if args.trim_start_matches('(').trim_start().starts_with("&mut self") {
            out.insert(name.to_string());
        }
    }
    out
}

/// Where `code` writes a unit column of `inputs` straight through `self.u`
/// (an assignment, a compound assignment, a `&mut` borrow or a container's
/// changing method) or takes all of `self.u` (or one of its writers) by
/// `&mut`: the writes the clock's door exists for.
fn direct_clock_writes(code: &str, inputs: &[&str], mutating: &BTreeSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    for line in code.lines() {
        let l = line.trim();
        let mut hit = ["reset_unit(", "set_row(", "stack_mut(", "timer_mut(", "count_down("]
            .iter()
            .any(|w| l.contains(&format!("self.u.{w}")));
        hit |= l
            .match_indices("&mut self.u")
            .any(|(at, _)| !l[at + "&mut self.u".len()..].starts_with('.'))
            || l.match_indices("&mut self.u").any(|(at, _)| {
                let rest = &l[at + "&mut self.u.".len().min(l.len())..];
                inputs.contains(&identifier(rest))
            });
        for (at, _) in l.match_indices("self.u.") {
            let rest = &l[at + "self.u.".len()..];
            let column = identifier(rest);
            if !inputs.contains(&column) {
                continue;
            }
            // Past the column's indices: `[i]`, `[i][k]`.
            let mut after = rest[column.len()..].trim_start();
            while after.starts_with('[') {
                let close = after.find(']').map_or(after.len(), |c| c + 1);
                after = after[close..].trim_start();
            }
            let assigns = ["=", "+=", "-=", "|=", "&=", "*="]
                .iter()
                .any(|op| after.starts_with(op) && !after[op.len()..].starts_with(['=', '>']));
            let changes = after
                .strip_prefix('.')
                .is_some_and(|m| mutating.contains(identifier(m)) && m[identifier(m).len()..].starts_with('('));
            hit |= assigns || changes;
        }
        if hit {
            out.push(l.to_string());
        }
    }
    out
}

/// Every column the clock reads is written through its one door,
/// `Engine::write_clock_inputs`, which marks the unit's clock after the
/// write (issue: a write followed by `touch_clock` by hand, at fifty-odd
/// places, is how a Stun ending on a full charge once acted late). Only
/// clock.rs, the clock's own bookkeeping, writes them straight.
#[test]
fn the_columns_the_clock_reads_are_written_only_through_its_door() {
    let src = src_of("gridsim-engine");
    let inputs: Vec<&str> = gridsim::engine::clock_inputs().collect();
    let inputs = inputs.as_slice();
    let mutating = mutating_methods(&std::fs::read_to_string(src.join("containers.rs")).expect("containers.rs"));
    assert!(mutating.contains("add") && mutating.contains("tick") && !mutating.contains("running"));
    // The reader on a sample: writes of each kind caught, reads and
    // comparisons left alone.
    let sample = "self.u.dread[i] -= 1;\nif self.u.dread[i] == 0 {}\nlet x = match k { A if self.u.alive[t] => self.u.burn[t], _ => 0 };\nself.u.crush[i].add(w, 3);\nlet n = self.u.crush[i].earliest_expiry();\nlet c = &mut self.u;\n*self.u.timer_mut(s, i) = 3;\nself.u.insured_layer[i][1] = 2;";
    assert_eq!(
        direct_clock_writes(sample, inputs, &mutating),
        vec![
            "self.u.dread[i] -= 1;",
            "self.u.crush[i].add(w, 3);",
            "let c = &mut self.u;",
            "*self.u.timer_mut(s, i) = 3;",
            "self.u.insured_layer[i][1] = 2;"
        ]
    );
    let mut wrong = Vec::new();
    for path in all_files(&src).iter().filter(|p| !p.ends_with("clock.rs")) {
        let code = code_of(&std::fs::read_to_string(path).expect("a source file"));
        for w in direct_clock_writes(&code, inputs, &mutating) {
            wrong.push(format!("{}: {w}", path.display()));
        }
    }
    assert!(
        wrong.is_empty(),
        "a column the clock reads written past `write_clock_inputs`, which would leave the unit's cached clock stale:\n{}",
        wrong.join("\n")
    );
}
