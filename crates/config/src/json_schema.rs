//! JSON Schemas of the configuration files, for editors: Taplo and Even
//! Better TOML read `.taplo.toml` at the repository root, which points each
//! kind of file at its schema here, and then complete keys and flag errors
//! as the designer types.
//!
//! Each schema is derived from the serde types the loader itself reads the
//! file with (`schemars`), so it cannot drift from what `gridsim validate`
//! accepts; `gridsim schema` writes them to [`SCHEMA_DIR`] and a test fails
//! when the committed files differ from what the types give. A schema checks
//! shapes and names; the loader's further checks (a ladder's length, a rune
//! that fits its board) stay with `gridsim validate`.

/// Where the committed schemas live.
pub const SCHEMA_DIR: &str = "configs/schemas";

/// One schema file: its name under [`SCHEMA_DIR`], the files it describes,
/// and its JSON.
pub struct SchemaFile {
    pub name: &'static str,
    pub describes: &'static str,
    pub json: String,
}

/// Every schema, in a fixed order.
pub fn schema_files() -> Vec<SchemaFile> {
    let pretty = |s: schemars::Schema| {
        let mut text = serde_json::to_string_pretty(&s).unwrap_or_default();
        text.push('\n');
        text
    };
    vec![
        SchemaFile {
            name: "cards.json",
            describes: "card and rune files (configs/cards/, configs/runes/)",
            json: pretty(schemars::schema_for!(super::schema::CardFile)),
        },
        SchemaFile {
            name: "board.json",
            describes: "board files (configs/boards/)",
            json: pretty(schemars::schema_for!(super::schema::BoardFile)),
        },
        SchemaFile {
            name: "suite.json",
            describes: "suites (configs/suites/)",
            json: pretty(super::suites::json_schema()),
        },
        SchemaFile {
            name: "match_suite.json",
            describes: "match suites (configs/matches/)",
            json: pretty(super::matches::json_schema()),
        },
        SchemaFile {
            name: "riftbound_cards.json",
            describes: "Riftbound card files (configs/riftbound/cards/)",
            json: pretty(schemars::schema_for!(super::riftbound_catalog::CardFile)),
        },
        SchemaFile {
            name: "riftbound_suite.json",
            describes: "Riftbound showdown suites (configs/riftbound/suites/)",
            json: pretty(schemars::schema_for!(super::riftbound_catalog::SuiteFile)),
        },
        SchemaFile {
            name: "riftbound_deck.json",
            describes: "Riftbound decks (configs/riftbound/decks/)",
            json: pretty(schemars::schema_for!(super::riftbound_games::DeckFile)),
        },
        SchemaFile {
            name: "riftbound_games.json",
            describes: "Riftbound game suites (configs/riftbound/suites/games.toml)",
            json: pretty(schemars::schema_for!(super::riftbound_games::GameSuiteFile)),
        },
    ]
}
