//! Bad input gets a diagnostic naming the line, column and key, never a
//! panic. Data-driven through one `check` helper.

use std::path::Path;

use gridsim::config::{self, CatalogBuilder};

const GOOD_CARD: &str = r#"
[[card]]
id = "crab"
name = "Crab"
kind = "combat"
footprint = "2x2"
vitality = [90, 110]
power = [20, 30]
speed = [0, 5]
armor = [5, 10]
focus = [20, 20]
ability = [{ effect = "maim", amount = "9 x tier", lane = "post_damage" }]
"#;

/// Loads `text` as a card file and checks the first diagnostic's line, key
/// and message fragments.
fn check_cards(text: &str, line: usize, key: &str, fragments: &[&str]) {
    let mut b = CatalogBuilder::new();
    let diags = b
        .add_file(Path::new("cards.toml"), text)
        .expect_err("should be rejected");
    let d = &diags[0];
    let shown = d.to_string();
    assert_eq!(d.line, line, "line of: {shown}");
    assert!(d.column >= 1, "column of: {shown}");
    assert_eq!(d.key, key, "key of: {shown}");
    for f in fragments {
        assert!(shown.contains(f), "`{f}` missing from: {shown}");
    }
    assert!(shown.starts_with("cards.toml:"), "file name missing: {shown}");
}

#[test]
fn card_file_errors_name_line_key_and_suggestion() {
    check_cards(
        &GOOD_CARD.replace("effect = \"maim\"", "effect = \"mian\""),
        12,
        "card[0].ability[0].effect",
        &["unknown effect `mian`", "did you mean `maim`?"],
    );
    check_cards(
        &GOOD_CARD.replace("power = [20, 30]", "powr = [20, 30]"),
        8,
        "card[0].powr",
        &["unknown field `powr`", "did you mean `power`?"],
    );
    check_cards(
        &GOOD_CARD.replace("lane = \"post_damage\"", "lane = \"post_damge\""),
        12,
        "card[0].ability[0].lane",
        &["did you mean `post_damage`?"],
    );
    check_cards(
        &GOOD_CARD.replace("kind = \"combat\"", "kind = \"tol\""),
        5,
        "card[0].kind",
        &["unknown kind `tol`", "did you mean `tool`?"],
    );
    check_cards(
        &GOOD_CARD.replace("footprint = \"2x2\"", "footprint = \"5x5\""),
        6,
        "card[0].footprint",
        &["expected one of"],
    );
    check_cards(
        &GOOD_CARD.replace("\"9 x tier\"", "\"9 per burnin_enemy\""),
        12,
        "card[0].ability[0].amount",
        &["unknown count `burnin_enemy`", "did you mean `burning_enemy`?"],
    );
    check_cards(
        &GOOD_CARD.replace("ability =", "keywords = [\"relentles\"]\nability ="),
        12,
        "card[0].keywords[0]",
        &["unknown keyword `relentles`", "did you mean `relentless`?"],
    );
    check_cards(
        &GOOD_CARD.replace("armor = [5, 10]", "armor = [5]"),
        10,
        "card[0].armor",
        &["ladder has 1 tiers but `vitality` has 2"],
    );
    check_cards(
        &GOOD_CARD.replace("focus = [20, 20]\n", ""),
        3,
        "card[0].focus",
        &["missing ladder `focus`"],
    );
    check_cards(
        &GOOD_CARD.replace("amount = \"9 x tier\", ", ""),
        12,
        "card[0].ability[0].amount",
        &["needs an `amount`"],
    );
    check_cards(
        &format!("{GOOD_CARD}\n{GOOD_CARD}"),
        16,
        "card[1].id",
        &["already defined"],
    );
    check_cards(
        "[[card]]\nid = \"x\"\nname = \"X\"\nkind = \"tool\"\nfootprint = \"2x2\"\nvitality = [5]\n",
        6,
        "card[0].vitality",
        &["only `durability`"],
    );
    check_cards("[[card\nid = 1", 1, "", &["cards.toml:1:"]);
}

const BOARD_CATALOG: &str = GOOD_CARD;

fn check_board(text: &str, line: usize, key: &str, fragments: &[&str]) {
    let mut b = CatalogBuilder::new();
    b.add_file(Path::new("cards.toml"), BOARD_CATALOG).expect("catalog");
    let catalog = b.finish();
    let rules = config::default_rules();
    let diags = config::parse_board(Path::new("board.toml"), text, &catalog, &rules).expect_err("should be rejected");
    let shown = diags[0].to_string();
    assert_eq!(diags[0].line, line, "line of: {shown}");
    assert_eq!(diags[0].key, key, "key of: {shown}");
    for f in fragments {
        assert!(shown.contains(f), "`{f}` missing from: {shown}");
    }
}

#[test]
fn board_errors_name_line_key_and_suggestion() {
    let unit =
        |card: &str, tier: i64, cell: &str| format!("[[unit]]\ncard = \"{card}\"\ntier = {tier}\ncell = {cell}\n");
    check_board(
        &unit("carb", 1, "[0, 0]"),
        2,
        "unit[0].card",
        &["unknown card id `carb`", "did you mean `crab`?"],
    );
    check_board(
        &unit("crab", 3, "[0, 0]"),
        3,
        "unit[0].tier",
        &["outside `crab`'s ladder", "1..=2"],
    );
    check_board(&unit("crab", 1, "[7, 0]"), 4, "unit[0].cell", &["leaves the 8x4 grid"]);
    check_board(&unit("crab", 1, "[-1, 0]"), 4, "unit[0].cell", &["leaves the 8x4 grid"]);
    check_board(
        &format!("{}{}", unit("crab", 1, "[0, 0]"), unit("crab", 2, "[1, 1]")),
        8,
        "unit[1].cell",
        &["overlaps unit[0]"],
    );
    check_board(
        "[[unit]]\ncard = \"crab\"\ntier = 1\ncel = [0, 0]\n",
        4,
        "unit[0].cel",
        &["unknown field `cel`", "did you mean `cell`?"],
    );
}

#[test]
fn rules_file_rejects_a_setting_without_its_rule() {
    let broken = config::DEFAULT_RULES_TOML.replace(
        "tick_ms = { value = 500, rule = \"800.8b\" }",
        "tick_ms = { value = 500 }",
    );
    let d = config::parse_rules(Path::new("rules.toml"), &broken).expect_err("missing rule");
    assert!(d[0].to_string().contains("missing field `rule`"), "{}", d[0]);
    assert_eq!(d[0].key, "burn.tick_ms");
    let shipped = config::parse_rules(Path::new("rules.toml"), config::DEFAULT_RULES_TOML);
    assert!(shipped.is_ok(), "{:?}", shipped.err());
}

/// A tiny deterministic byte mangler, so the fuzz corpus is reproducible.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(text: &str, rng: &mut Lcg) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let alphabet = b"[]{}=\",.#x0123456789-_ \nabcdefghijklmnopqrstuvwxyz\xc3\xa9\xff";
    for _ in 0..1 + rng.below(4) {
        if bytes.is_empty() {
            break;
        }
        let at = rng.below(bytes.len());
        match rng.below(4) {
            0 => bytes[at] = alphabet[rng.below(alphabet.len())],
            1 => {
                bytes.remove(at);
            }
            2 => bytes.insert(at, alphabet[rng.below(alphabet.len())]),
            _ => {
                let end = (at + rng.below(40)).min(bytes.len());
                let chunk: Vec<u8> = bytes[at..end].to_vec();
                let to = rng.below(bytes.len());
                bytes.splice(to..to, chunk);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn mutated_and_random_files_never_panic() {
    let starter = std::fs::read_to_string("configs/cards/starter.toml").expect("starter");
    let board = std::fs::read_to_string("configs/boards/wildfire.toml").expect("board");
    let scenario = std::fs::read_to_string("tests/conformance/ruling_900_1_cull_sees_maim.toml").expect("scenario");
    let catalog = config::load_catalog(&[std::path::PathBuf::from("configs/cards")]).expect("catalog");
    let rules = config::default_rules();
    let mut rng = Lcg(0x5eed);
    let mut rejected = 0;
    for i in 0..1500 {
        let card_text = mutate(&starter, &mut rng);
        let board_text = mutate(&board, &mut rng);
        let scenario_text = mutate(&scenario, &mut rng);
        let rules_text = mutate(config::DEFAULT_RULES_TOML, &mut rng);
        let random: String = (0..rng.below(200))
            .map(|_| (b' ' + rng.below(95) as u8) as char)
            .collect();
        let outcome = std::panic::catch_unwind(|| {
            let mut n = 0;
            let mut b = CatalogBuilder::new();
            n += usize::from(b.add_file(Path::new("c.toml"), &card_text).is_err());
            n += usize::from(CatalogBuilder::new().add_file(Path::new("r.toml"), &random).is_err());
            n += usize::from(config::parse_board(Path::new("b.toml"), &board_text, &catalog, &rules).is_err());
            n += usize::from(
                config::scenario::parse_scenario(Path::new("s.toml"), &scenario_text, &catalog, &rules).is_err(),
            );
            n += usize::from(config::parse_rules(Path::new("rules.toml"), &rules_text).is_err());
            n
        });
        match outcome {
            Ok(n) => rejected += n,
            Err(_) => panic!(
                "iteration {i} panicked on:\n--- cards\n{card_text}\n--- board\n{board_text}\n--- scenario\n{scenario_text}"
            ),
        }
    }
    assert!(
        rejected > 1500,
        "the mutations should break many files, broke {rejected}"
    );
}

#[test]
fn suite_errors_name_the_key() {
    let catalog = config::load_catalog(&[std::path::PathBuf::from("configs/cards")]).expect("catalog");
    let rules = config::default_rules();
    let parse = |text: &str| config::parse_suite(Path::new("suite.toml"), text, &catalog, &rules);
    let base = "name = \"s\"\nmaster_seed = 1\nfights = 10\n";
    let d = parse(&format!(
        "{base}[random]\nseed = 1\nboards = 4\nunits = [6, 8]\ntiers = [1, 3]\nbudjet = 9\n"
    ))
    .expect_err("typo");
    assert!(d[0].to_string().contains("did you mean `budget`?"), "{}", d[0]);
    assert_eq!(d[0].line, 9);
    let d = parse(&format!(
        "{base}[random]\nseed = 1\nboards = 4\nunits = [6, 8]\ntiers = [1, 3]\nbudget = 9\ncards = [\"ember_fux\"]\n"
    ))
    .expect_err("card");
    assert!(d[0].to_string().contains("did you mean `ember_fox`?"), "{}", d[0]);
    let d = parse(base).expect_err("no boards");
    assert!(
        d[0].message.contains("exactly one of `[random]` or `[round_robin]`"),
        "{}",
        d[0]
    );
    // Eight units in a budget of 4 tiers cannot be drawn: an error, not a loop.
    let d = parse(&format!(
        "{base}[random]\nseed = 1\nboards = 4\nunits = [8, 8]\ntiers = [1, 1]\nbudget = 4\n"
    ))
    .expect_err("impossible");
    assert!(d[0].message.contains("cannot draw board"), "{}", d[0]);
    assert!(parse(&std::fs::read_to_string("configs/suites/default.toml").expect("default")).is_ok());
}
