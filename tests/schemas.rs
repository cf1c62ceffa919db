//! The editors' JSON Schemas (`configs/schemas/`, read through
//! `.taplo.toml`): committed as the loader's types give them, accepting
//! every shipped file and flagging what the loader refuses.

use std::path::Path;

use gridsim::config::json_schema::{SCHEMA_DIR, schema_files};

fn validator(name: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(Path::new(SCHEMA_DIR).join(name)).expect("schema");
    jsonschema::validator_for(&serde_json::from_str(&text).expect("json")).expect("a valid schema")
}

fn as_json(text: &str) -> serde_json::Value {
    toml::from_str(text).expect("toml")
}

fn toml_files(dir: &str) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect(dir)
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
}

#[test]
fn the_committed_schemas_are_what_the_loader_types_give() {
    for f in schema_files() {
        let committed = std::fs::read_to_string(Path::new(SCHEMA_DIR).join(f.name)).unwrap_or_default();
        assert!(
            committed == f.json,
            "{SCHEMA_DIR}/{} differs from the loader's types: run `gridsim schema`",
            f.name
        );
    }
}

#[test]
fn every_shipped_file_conforms_to_its_schema() {
    let cases = [
        ("cards.json", vec!["configs/cards", "configs/runes"]),
        ("board.json", vec!["configs/boards"]),
        ("suite.json", vec!["configs/suites", "tests/suites", "tests/golden"]),
        ("match_suite.json", vec!["configs/matches"]),
        (
            "riftbound_cards.json",
            vec!["configs/riftbound/cards", "configs/riftbound/origins"],
        ),
        ("riftbound_suite.json", vec!["configs/riftbound/suites"]),
        ("riftbound_games.json", vec!["configs/riftbound/suites"]),
        ("riftbound_deck.json", vec!["configs/riftbound/decks"]),
    ];
    for (schema, dirs) in cases {
        let v = validator(schema);
        let mut seen = 0;
        for dir in dirs {
            for file in toml_files(dir) {
                let text = std::fs::read_to_string(&file).expect("file");
                // The suites folder holds showdown suites and game suites.
                let games = gridsim::config::is_riftbound_games(&text);
                if (schema == "riftbound_suite.json" && games) || (schema == "riftbound_games.json" && !games) {
                    continue;
                }
                let doc = as_json(&text);
                let errors: Vec<String> = v
                    .iter_errors(&doc)
                    .map(|e| format!("{} at {}", e, e.instance_path()))
                    .collect();
                assert!(errors.is_empty(), "{}: {errors:?}", file.display());
                seen += 1;
            }
        }
        assert!(seen > 0, "no file checked against {schema}");
    }
    // A match scenario's `[suite]` table is a match suite.
    let v = validator("match_suite.json");
    let scenarios: Vec<_> = toml_files("tests/conformance")
        .into_iter()
        .map(|p| {
            let doc = as_json(&std::fs::read_to_string(&p).expect("file"));
            (p, doc)
        })
        .filter(|(_, doc)| doc.get("suite").is_some())
        .collect();
    assert!(scenarios.len() > 10);
    for (file, doc) in scenarios {
        let errors: Vec<String> = v
            .iter_errors(&doc["suite"])
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{} [suite]: {errors:?}", file.display());
    }
}

#[test]
fn the_schemas_flag_what_the_loader_refuses() {
    let cards = validator("cards.json");
    // A misspelt key, an unknown effect, a keyword that does not exist, a
    // footprint out of the list: each is a load error and a schema error.
    let good = r#"
[[card]]
id = "x"
vitality = [10]
power = [1]
speed = [0]
armor = [0]
focus = [1]
keywords = ["thorns 5"]
ability = [{ effect = "burn", amount = "2 x tier" }]
"#;
    assert!(cards.is_valid(&as_json(good)), "a good card is accepted");
    for (bad, what) in [
        (good.replace("power = [1]", "powr = [1]"), "a misspelt key"),
        (good.replace("\"burn\"", "\"brun\""), "an unknown effect"),
        (good.replace("thorns 5", "thornz 5"), "an unknown keyword"),
        (
            good.replace("id = \"x\"", "id = \"x\"\nfootprint = \"5x5\""),
            "an unknown footprint",
        ),
    ] {
        assert!(!cards.is_valid(&as_json(&bad)), "the schema accepts {what}");
    }
    let suite = validator("suite.json");
    let bad_suite = "name = \"s\"\nmaster_seed = 1\nfights = 10\n[random]\nseed = 1\nboards = 4\nunits = [1, 2]\ntiers = [1, 1]\nbudget = 4\nboss_precent = 5\n";
    assert!(
        !suite.is_valid(&as_json(bad_suite)),
        "the schema accepts a misspelt suite key"
    );
}
