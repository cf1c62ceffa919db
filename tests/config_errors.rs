//! Bad input gets a diagnostic naming the line, column and key, never a
//! panic. Data-driven through one `check` helper.

use std::path::Path;

use gridsim::catalog::{CardId, Catalog};
use gridsim::config::{self, CatalogBuilder};
use gridsim::engine::{Engine, FightRng};
use gridsim::settings::Rules;
use gridsim::spec::{BoardSpec, Placement};

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
    // 800.16f: one wake condition, not two.
    check_cards(
        &GOOD_CARD.replace(
            "focus = [20, 20]",
            "focus = [20, 20]\nwake = { after_ms = 100, ally_activations = 2 }",
        ),
        12,
        "card[0].wake",
        &["exactly one of", "800.16f"],
    );
    // 800.66b: a Stagger meter is a boss's.
    check_cards(
        &GOOD_CARD.replace("focus = [20, 20]", "focus = [20, 20]\nstagger = 5"),
        12,
        "card[0].stagger",
        &["boss", "800.66b"],
    );
    // 800.48a: phases are a boss's, thresholds fall, and a phase is checked
    // like a card, its diagnostics under its own key.
    let boss = GOOD_CARD.replace("kind = \"combat\"", "kind = \"boss\"");
    check_cards(
        &GOOD_CARD.replace(
            "focus = [20, 20]",
            "focus = [20, 20]\nphases = [{ below_percent = 50 }]",
        ),
        12,
        "card[0].phases[0]",
        &["only a boss", "800.48a"],
    );
    check_cards(
        &boss.replace(
            "focus = [20, 20]",
            "focus = [20, 20]\nphases = [{ below_percent = 50 }, { below_percent = 60 }]",
        ),
        12,
        "card[0].phases[1].below_percent",
        &["1..=49", "800.48e"],
    );
    check_cards(
        &boss.replace(
            "focus = [20, 20]",
            "focus = [20, 20]\nphases = [{ below_percent = 50, ability = [{ effect = \"stnu\", duration_ms = 10 }] }]",
        ),
        12,
        "card[0].phases[0].ability[0].effect",
        &["did you mean `stun`?"],
    );
    // 800.25a: only a stat gain can be Fleeting.
    check_cards(
        &GOOD_CARD.replace("lane = \"post_damage\"", "lane = \"post_damage\", fleeting = true"),
        12,
        "card[0].ability[0].fleeting",
        &["only a stat gain", "800.25a", "not `maim`"],
    );
    // 800.19d: only what is applied passes Entrap; damage never does.
    check_cards(
        &GOOD_CARD.replace(
            "effect = \"maim\", amount = \"9 x tier\", lane = \"post_damage\"",
            "effect = \"damage\", amount = 5, through_entrap = true",
        ),
        12,
        "card[0].ability[0].through_entrap",
        &["800.19d", "`damage`"],
    );
    // 800.46a: a Tool's Overmatch is the package's, comparing the ally.
    check_cards(
        r#"
[[card]]
id = "anvil"
name = "Anvil"
kind = "tool"
footprint = "2x2"
durability = [3]
package = [
  { on = "ally_activated", timing = "immediate", effects = [{ effect = "crush", amount = 5, overmatch = "armor" }] },
]
"#,
        9,
        "card[0].package[0].effects[0].overmatch",
        &["put `overmatch` on the package", "800.46a"],
    );
    // 800.15b: Dividend goes to the owner, whatever a scope would pick.
    check_cards(
        &GOOD_CARD.replace(
            "effect = \"maim\", amount = \"9 x tier\", lane = \"post_damage\"",
            "effect = \"gain_dividend\", amount = 2, scope = \"all_allies\"",
        ),
        12,
        "card[0].ability[0].scope",
        &["`gain_dividend` goes to the unit's owner", "800.15b"],
    );
    // 800.47d: a sale resolves in the shop, so only a fixed Dividend gain.
    check_cards(
        &GOOD_CARD.replace(
            "ability = [{ effect = \"maim\", amount = \"9 x tier\", lane = \"post_damage\" }]",
            "passive = [{ on = \"sold\", effect = \"gain_dividend\", amount = \"1 per living_ally\" }]",
        ),
        12,
        "card[0].passive[0].effect",
        &["a `sold` line resolves in the shop", "800.47d"],
    );
    // 800.16h: an awakening's filter names a tribe and a tier cap.
    check_cards(
        &GOOD_CARD.replace(
            "focus = [20, 20]",
            "focus = [20, 20]\nwake = { after_ms = 100, into = { tribe = \"Ashen\", max_tier = 0 } }",
        ),
        12,
        "card[0].wake.into",
        &["`max_tier` is the printed tier cap", "800.16h"],
    );
    // 800.50c: only a Piercing Roar is authored to drain boss Power.
    check_cards(
        &GOOD_CARD.replace("lane = \"post_damage\"", "lane = \"post_damage\", drains_boss = true"),
        12,
        "card[0].ability[0].drains_boss",
        &["only a `piercing_roar`", "800.50c", "not `maim`"],
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

/// The catalog boards are checked against: the good card and a boss with
/// a phase.
fn board_catalog() -> String {
    format!(
        "{GOOD_CARD}{}",
        r#"
[[card]]
id = "titan"
name = "Titan"
kind = "boss"
vitality = [500]
power = [20]
speed = [0]
armor = [5]
focus = [20]
phases = [{ below_percent = 50, power = [40] }]
"#
    )
}

const RUNES: &str = r#"
[[rune]]
id = "ember_rune"
effects = [{ effect = "power", amount = [4, 8] }]

[[rune]]
id = "boss_reflect"
innate_only = true
effects = [{ effect = "reflect", amount = [50] }]

[[resonance]]
id = "overpower"
effects = [{ effect = "power", per_level = 3 }]
"#;

fn check_board(text: &str, line: usize, key: &str, fragments: &[&str]) {
    let mut b = CatalogBuilder::new();
    b.add_runes_file(Path::new("runes.toml"), RUNES).expect("runes");
    b.add_file(Path::new("cards.toml"), &board_catalog()).expect("catalog");
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
    // 800.48a: a boss's phase is installed by the boss, never placed.
    check_board(
        &unit("titan#phase1", 1, "[0, 0]"),
        2,
        "unit[0].card",
        &["is a phase of `titan`", "800.48a"],
    );
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
    // A unit's starting state: known keys, amounts and timers never negative.
    check_board(
        &format!("{}state = {{ power_bonu = 5 }}\n", unit("crab", 1, "[0, 0]")),
        5,
        "unit[0].state.power_bonu",
        &["unknown field `power_bonu`", "power_bonus"],
    );
    check_board(
        &format!(
            "{}state = {{ power_bonus = -5, stun_ms = -1 }}\n",
            unit("crab", 1, "[0, 0]")
        ),
        5,
        "unit[0].state.stun_ms",
        &["stun_ms = -1 is outside 0..=1000000"],
    );
    check_board(
        &format!("{}state = {{ vitality = 0 }}\n", unit("crab", 1, "[0, 0]")),
        5,
        "unit[0].state.vitality",
        &["vitality = 0 is outside 1..=1000000"],
    );
    // Runes and resonance (900.24a, 800.58a).
    let crab = unit("crab", 1, "[0, 0]");
    let rune = |id: &str, tier: i64, board: &str, cell: i64| {
        format!("[[rune]]\nrune = \"{id}\"\ntier = {tier}\nboard = \"{board}\"\ncell = {cell}\n")
    };
    check_board(
        &format!("{}{crab}", rune("embr_rune", 1, "rows", 0)),
        2,
        "rune[0].rune",
        &["unknown rune `embr_rune`", "did you mean `ember_rune`?"],
    );
    check_board(
        &format!("{}{crab}", rune("ember_rune", 1, "rows", 3)),
        5,
        "rune[0].cell",
        &["4-cell `rows` rune board", "expected cell 0..=2", "900.24a"],
    );
    check_board(
        &format!(
            "{}{}{crab}",
            rune("ember_rune", 1, "columns", 2),
            rune("ember_rune", 2, "columns", 3)
        ),
        10,
        "rune[1].cell",
        &["overlaps rune[0]", "900.24a"],
    );
    check_board(
        &format!("{}{crab}", rune("ember_rune", 3, "rows", 0)),
        3,
        "rune[0].tier",
        &["outside `ember_rune`'s ladder", "1..=2"],
    );
    check_board(
        &format!("{}{crab}", rune("boss_reflect", 1, "rows", 0)),
        2,
        "rune[0].rune",
        &["carried by a card itself"],
    );
    check_board(
        &format!("resonance = \"overpowr\"\n{crab}"),
        1,
        "resonance",
        &["unknown resonance `overpowr`", "800.58a", "did you mean `overpower`?"],
    );
    check_board(
        &format!("{}{crab}", rune("ember_rune", 1, "diagonal", 0)),
        4,
        "rune[0].board",
        &["unknown rune board `diagonal`", "`rows`"],
    );
}

#[test]
fn rune_file_errors_name_line_key_and_suggestion() {
    let check = |text: &str, line: usize, fragments: &[&str]| {
        let mut b = CatalogBuilder::new();
        let diags = b
            .add_runes_file(Path::new("runes.toml"), text)
            .expect_err("should be rejected");
        let shown = diags[0].to_string();
        assert_eq!(diags[0].line, line, "line of: {shown}");
        for f in fragments {
            assert!(shown.contains(f), "`{f}` missing from: {shown}");
        }
    };
    check(
        "[[rune]]\nid = \"r\"\neffects = [{ effect = \"powr\", amount = [1] }]\n",
        3,
        &["unknown rune effect `powr`", "did you mean `power`?"],
    );
    check(
        "[[rune]]\nid = \"r\"\neffects = [{ effect = \"power\", amount = [1, 2] }, { effect = \"armor\", amount = [1] }]\n",
        3,
        &["the same number of tiers"],
    );
    check(
        "[[resonance]]\nid = \"r\"\neffects = [{ effect = \"thorns\", per_level = 1 }]\n",
        3,
        &["a resonance grants one of", "not `thorns`", "800.58e"],
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

#[test]
fn a_setting_out_of_range_is_reported_at_its_own_line() {
    // A grid of 81 columns is valid TOML but breaks a bound of the rules
    // file; the diagnostic names the setting's line, not 1:1.
    // (The column rune board follows the grid, so it changes with it.)
    let text = config::DEFAULT_RULES_TOML
        .replace(
            "columns = { value = 8, rule = \"100.4\" }",
            "columns = { value = 81, rule = \"100.4\" }",
        )
        .replace(
            "column_board_cells = { value = 8,",
            "column_board_cells = { value = 81,",
        );
    let line = text
        .lines()
        .position(|l| l.starts_with("columns = { value = 81"))
        .expect("the edited line")
        + 1;
    let d = config::parse_rules(Path::new("rules.toml"), &text).expect_err("81 columns");
    assert_eq!(d[0].key, "board.columns.value");
    assert_eq!(d[0].line, line, "{}", d[0]);
    assert!(d[0].column > 1, "{}", d[0]);
    // Settings that bound the work of one step: a Tremor of a billion hits
    // is refused, not run (it would loop inside one clause).
    let text = config::DEFAULT_RULES_TOML.replace("hits = { value = 2,", "hits = { value = 1000000000,");
    let d = config::parse_rules(Path::new("rules.toml"), &text).expect_err("a billion hits");
    assert_eq!(d[0].key, "tremor.hits.value", "{}", d[0]);
    assert!(d[0].message.contains("at most 16"), "{}", d[0]);
    // A rule number that is not one is reported at its line too.
    let text = config::DEFAULT_RULES_TOML.replace("rule = \"800.8b\" }", "rule = \"eight\" }");
    let d = config::parse_rules(Path::new("rules.toml"), &text).expect_err("bad rule id");
    assert!(d[0].key.ends_with(".rule") && d[0].line > 1, "{}", d[0]);
}

#[test]
fn a_stacking_timed_status_needs_a_positive_time_and_reapplication() {
    // 800.3c: Blind's reapplication adds a flat time; a zero would let a
    // reapplication add nothing, which the statuses' list refuses for every
    // status that stacks (statuses.rs), at the setting's own line.
    let text = config::DEFAULT_RULES_TOML.replace(
        "reapply_ms = { value = 2000, rule = \"800.3c\" }",
        "reapply_ms = { value = 0, rule = \"800.3c\" }",
    );
    assert_ne!(text, config::DEFAULT_RULES_TOML, "the edit must apply");
    let d = config::parse_rules(Path::new("rules.toml"), &text).expect_err("a zero reapplication");
    assert_eq!(d[0].key, "blind.reapply_ms.value", "{}", d[0]);
    assert!(d[0].message.contains("greater than 0, found 0"), "{}", d[0]);
    let line = text
        .lines()
        .position(|l| l.contains("value = 0, rule = \"800.3c\""))
        .expect("the line")
        + 1;
    assert_eq!(d[0].line, line, "{}", d[0]);
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
        match rng.below(5) {
            // A number made extreme: what the loader accepts must still fight
            // without overflow (checked in the dev profile) or broken invariants.
            4 => {
                let Some(start) = (at..bytes.len()).find(|&i| bytes[i].is_ascii_digit()) else {
                    continue;
                };
                let end = (start..bytes.len())
                    .find(|&i| !bytes[i].is_ascii_digit())
                    .unwrap_or(bytes.len());
                let extreme: &[u8] = [b"0" as &[u8], b"1", b"999999", b"2147483647", b"65535"][rng.below(5)];
                bytes.splice(start..end, extreme.iter().copied());
            }
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

/// A board unit's `state` lands before the battle starts, as the match
/// sets a boss grown by its round (200.1d): the boss suite's boards carry
/// it, and a board without one starts fresh.
#[test]
fn a_board_units_state_lands_before_the_battle() {
    let mut b = CatalogBuilder::new();
    b.add_runes_file(Path::new("runes.toml"), RUNES).expect("runes");
    b.add_file(Path::new("cards.toml"), &board_catalog()).expect("catalog");
    let catalog = b.finish();
    let rules = config::default_rules();
    let unit = "[[unit]]\ncard = \"crab\"\ntier = 1\ncell = [0, 0]\n";
    let fresh = config::parse_board(Path::new("fresh.toml"), unit, &catalog, &rules).expect("fresh");
    assert!(fresh.states.is_empty(), "a board of fresh units carries no states");
    let grown_text = format!("{unit}state = {{ power_bonus = 72, armor_bonus = 30, shield = 9 }}\n");
    let grown = config::parse_board(Path::new("grown.toml"), &grown_text, &catalog, &rules).expect("grown");
    assert_eq!(grown.states.len(), 1);
    let mut e = Engine::new(&catalog, rules);
    e.setup(&fresh, &fresh, FightRng::for_fight(1, 0));
    let (power, armor) = (
        e.power(gridsim::engine::UnitIdx(0)),
        e.armor(gridsim::engine::UnitIdx(0)),
    );
    e.setup(&grown, &fresh, FightRng::for_fight(1, 0));
    let boss = gridsim::engine::UnitIdx(0);
    assert_eq!(e.power(boss), power + 72);
    assert_eq!(e.armor(boss), armor + 30);
    assert_eq!(e.units().shield[0], 9);
    // The right side's unit is unit 1, and it was given nothing.
    assert_eq!(e.power(gridsim::engine::UnitIdx(1)), power);
}

/// Every card of `catalog` that fits, placed in reading order at its top
/// tier: a board that exercises whatever a mutated card file defines.
fn board_of(catalog: &Catalog, rules: &Rules, skip: usize) -> BoardSpec {
    let (columns, rows) = (rules.board.columns.max(0), rules.board.rows.max(0));
    let mut taken = vec![false; (columns * rows) as usize];
    let mut units = Vec::new();
    for (k, card) in catalog.cards.iter().enumerate().skip(skip) {
        let size = i32::from(card.footprint.side());
        'place: for row in 0..=rows - size {
            for col in 0..=columns - size {
                let cells: Vec<usize> = (0..size)
                    .flat_map(|dy| (0..size).map(move |dx| ((row + dy) * columns + col + dx) as usize))
                    .collect();
                if cells.iter().any(|&c| taken[c]) {
                    continue;
                }
                cells.iter().for_each(|&c| taken[c] = true);
                units.push(Placement {
                    card: CardId(k as u16),
                    tier: card.tiers(),
                    column: col as u8,
                    row: row as u8,
                    combined: false,
                });
                break 'place;
            }
        }
    }
    BoardSpec {
        name: "fuzz".into(),
        units,
        ..Default::default()
    }
}

/// Fights two boards with the engine's consistency checks; a broken
/// invariant is reported like a panic.
fn fight_checked(catalog: &Catalog, rules: Rules, l: &BoardSpec, r: &BoardSpec, seed: u64) -> Result<(), String> {
    let mut e = Engine::new(catalog, rules);
    let o = e.fight(l, r, FightRng::for_fight(seed, 0));
    if o.end_ms > rules.overtime.cap_ms {
        return Err(format!("ended at {} ms, past the cap (900.42d)", o.end_ms));
    }
    e.check_invariants().map_err(|broken| broken.to_string())
}

#[test]
fn mutated_and_random_files_never_panic_and_accepted_ones_fight() {
    let starter = std::fs::read_to_string("configs/cards/starter.toml").expect("starter");
    // The board mutated carries runes and a resonance, so mutations reach
    // the rune-board checks too.
    let board = std::fs::read_to_string("configs/boards/runed_bastion.toml").expect("board");
    let runes = std::fs::read_to_string("configs/runes/runes.toml").expect("runes");
    let scenario = std::fs::read_to_string("tests/conformance/ruling_900_1_cull_sees_maim.toml").expect("scenario");
    let catalog = config::load_catalog(&[
        std::path::PathBuf::from("configs/cards"),
        std::path::PathBuf::from("configs/runes"),
    ])
    .expect("catalog");
    let rules = config::default_rules();
    let wildfire = config::load_board(Path::new("configs/boards/wildfire.toml"), &catalog, &rules).expect("wildfire");
    let mut rng = Lcg(0x5eed);
    let mut rejected = 0;
    let mut fought = 0;
    for i in 0..1500 {
        let card_text = mutate(&starter, &mut rng);
        let board_text = mutate(&board, &mut rng);
        let scenario_text = mutate(&scenario, &mut rng);
        let rules_text = mutate(config::DEFAULT_RULES_TOML, &mut rng);
        let rune_text = mutate(&runes, &mut rng);
        let random: String = (0..rng.below(200))
            .map(|_| (b' ' + rng.below(95) as u8) as char)
            .collect();
        let outcome = std::panic::catch_unwind(|| {
            let (mut n, mut fights) = (0, 0);
            let mut problems = Vec::new();
            let mut b = CatalogBuilder::new();
            match b.add_file(Path::new("c.toml"), &card_text) {
                Err(_) => n += 1,
                Ok(()) => {
                    // An accepted card file must also fight within the rules.
                    let mutated = b.finish();
                    let (l, r) = (board_of(&mutated, &rules, 0), board_of(&mutated, &rules, 1));
                    problems.push(fight_checked(&mutated, rules, &l, &r, i).map_err(|e| format!("cards: {e}")));
                    fights += 1;
                }
            }
            n += usize::from(CatalogBuilder::new().add_file(Path::new("r.toml"), &random).is_err());
            n += usize::from(
                CatalogBuilder::new()
                    .add_runes_file(Path::new("runes.toml"), &rune_text)
                    .is_err(),
            );
            match config::parse_board(Path::new("b.toml"), &board_text, &catalog, &rules) {
                Err(_) => n += 1,
                Ok(b) => {
                    problems.push(fight_checked(&catalog, rules, &b, &wildfire, i).map_err(|e| format!("board: {e}")));
                    fights += 1;
                }
            }
            match config::scenario::parse_scenario(Path::new("s.toml"), &scenario_text, &catalog, &rules) {
                Err(_) => n += 1,
                Ok(s) => {
                    // Whether its expectations hold is not the point: it must run.
                    let _report = gridsim::scenario::run(&s, &rules);
                }
            }
            match config::parse_rules(Path::new("rules.toml"), &rules_text) {
                Err(_) => n += 1,
                Ok((mutated, _)) => {
                    problems.push(
                        fight_checked(&catalog, mutated, &wildfire, &wildfire, i).map_err(|e| format!("rules: {e}")),
                    );
                    fights += 1;
                }
            }
            (
                n,
                fights,
                problems.into_iter().filter_map(Result::err).collect::<Vec<_>>(),
            )
        });
        match outcome {
            Ok((n, f, problems)) => {
                rejected += n;
                fought += f;
                assert!(
                    problems.is_empty(),
                    "iteration {i}: {problems:?} on:\n--- cards\n{card_text}\n--- board\n{board_text}\n--- rules\n{rules_text}"
                );
            }
            Err(_) => panic!(
                "iteration {i} panicked on:\n--- cards\n{card_text}\n--- board\n{board_text}\n--- scenario\n{scenario_text}\n--- rules\n{rules_text}"
            ),
        }
    }
    assert!(
        rejected > 1500,
        "the mutations should break many files, broke {rejected}"
    );
    assert!(
        fought > 300,
        "the accepted mutants should have been fought, fought {fought}"
    );
}

#[test]
fn suite_errors_name_the_key() {
    let catalog = config::load_catalog(&[
        std::path::PathBuf::from("configs/cards"),
        std::path::PathBuf::from("configs/runes"),
    ])
    .expect("catalog");
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
        d[0].message
            .contains("a suite has `[random]`, `[round_robin]`, or both"),
        "{}",
        d[0]
    );
    // Eight units in a budget of 4 tiers cannot be drawn: an error, not a loop.
    let d = parse(&format!(
        "{base}[random]\nseed = 1\nboards = 4\nunits = [8, 8]\ntiers = [1, 1]\nbudget = 4\n"
    ))
    .expect_err("impossible");
    assert!(d[0].message.contains("cannot draw board"), "{}", d[0]);
    // Pairing: a named choice, and no fights per matchup when drawn at random.
    let random = "[random]\nseed = 1\nboards = 4\nunits = [2, 3]\ntiers = [1, 1]\nbudget = 9\n";
    let d = parse(&format!("{base}pairing = \"sideways\"\n{random}")).expect_err("pairing");
    assert_eq!((d[0].key.as_str(), d[0].line), ("pairing", 4), "{}", d[0]);
    assert!(d[0].message.contains("`all_pairs`, `random` or `gauntlet`"), "{}", d[0]);
    let d = parse(&format!(
        "name = \"s\"\nmaster_seed = 1\nfights_per_matchup = 10\npairing = \"random\"\n{random}"
    ))
    .expect_err("per matchup");
    assert_eq!(d[0].key, "fights_per_matchup", "{}", d[0]);
    let s = parse(&format!("{base}pairing = \"random\"\n{random}")).expect("random pairing");
    assert_eq!(s.pairing, gridsim::suite::Pairing::Random);
    assert!(parse(&std::fs::read_to_string("configs/suites/default.toml").expect("default")).is_ok());
    // A gauntlet needs both kinds of board, and both kinds make a gauntlet.
    let listed = "[round_robin]\nboards = [\"configs/boards/wildfire.toml\"]\n";
    let d = parse(&format!("{base}pairing = \"gauntlet\"\n{random}")).expect_err("no listed boards");
    assert_eq!(d[0].key, "pairing", "{}", d[0]);
    let d = parse(&format!("{base}{random}{listed}")).expect_err("both without gauntlet");
    assert!(d[0].message.contains("set `pairing = \"gauntlet\"`"), "{}", d[0]);
    let s = parse(&format!("{base}pairing = \"gauntlet\"\n{random}{listed}")).expect("gauntlet");
    assert_eq!(s.pairing, gridsim::suite::Pairing::Gauntlet { listed: 1 });
    assert_eq!(s.boards.len(), 5, "the listed board, then the four drawn");
    assert_eq!(s.boards[0].name, "Wildfire");
    // runes_use_budget: a board's rune tiers and unit tiers share the
    // budget; without it the runes come on top of a full budget.
    let runed = |pay: bool| {
        parse(&format!(
            "{base}[random]\nseed = 3\nboards = 50\nunits = [3, 6]\ntiers = [2, 3]\nbudget = 14\nrunes = [2, 2]\nrunes_use_budget = {pay}\n"
        ))
        .expect("runed suite")
    };
    let tiers = |b: &gridsim::spec::BoardSpec| {
        let units: u32 = b.units.iter().map(|u| u32::from(u.tier)).sum();
        let runes: u32 = b.runes.iter().map(|r| u32::from(r.tier)).sum();
        (units, runes)
    };
    let paid = runed(true);
    assert!(paid.boards.iter().all(|b| b.runes.len() == 2 && {
        let (u, r) = tiers(b);
        u + r <= 14
    }));
    let free = runed(false);
    assert!(free.boards.iter().all(|b| tiers(b).0 <= 14));
    assert!(
        free.boards.iter().any(|b| {
            let (u, r) = tiers(b);
            u + r > 14
        }),
        "runes on top of the budget"
    );
    for (p, f) in paid.boards.iter().zip(&free.boards) {
        assert_eq!(
            p.runes, f.runes,
            "the runes' own stream draws the same runes either way"
        );
    }
}

/// `amount = [9, 13, 16]`: one number per tier, read at the unit's tier,
/// written as the ladder it is; a list of the wrong length or with a
/// number below 0 is refused with its key.
#[test]
fn a_per_tier_amount_is_read_at_the_units_tier() {
    let card = GOOD_CARD.replace("amount = \"9 x tier\"", "amount = [7, 19]");
    let mut b = CatalogBuilder::new();
    b.add_file(Path::new("cards.toml"), &card)
        .expect("a per-tier amount loads");
    let catalog = b.finish();
    let crab = CardId(0);
    assert_eq!(
        gridsim::card_text::card_markdown(&catalog, crab)
            .matches("7/19")
            .count(),
        1,
        "the card text prints the ladder"
    );
    // A damage clause of [5, 12] at tier 1 and at tier 2 (a scenario, so
    // the engine's own evaluation is what is read).
    let scenario = r#"
name = "per-tier amount"
# 900.5a: an amount is worked out when its clause resolves, at the
# unit's tier then.
covers = ["900.5a"]
[[unit]]
name = "low"
side = "left"
cell = [0, 0]
define = { vitality = [100, 100], power = [0, 0], speed = [0, 0], armor = [0, 0], focus = [10, 10], base_hit = false, ability = [{ effect = "damage", amount = [5, 12] }] }
[[unit]]
name = "high"
side = "left"
cell = [2, 0]
tier = 2
define = { vitality = [100, 100], power = [0, 0], speed = [0, 0], armor = [0, 0], focus = [10, 10], base_hit = false, ability = [{ effect = "damage", amount = [5, 12] }] }
[[unit]]
name = "dummy"
side = "right"
cell = [0, 0]
define = { vitality = [500], power = [0], speed = [0], armor = [0], focus = [10], base_hit = false }
[[step]]
activate = "low"
target = "dummy"
events = [{ kind = "damage", unit = "dummy", other = "low", amount = 5, detail = 495 }]
[[step]]
activate = "high"
target = "dummy"
events = [{ kind = "damage", unit = "dummy", other = "high", amount = 12, detail = 483 }]
"#;
    let rules = config::load_rules(Path::new("configs/rules.toml")).expect("rules");
    let frozen = config::load_catalog(&[std::path::PathBuf::from(gridsim::scenario::CATALOG_DIR)]).expect("catalog");
    let report = gridsim::jobs::scenario_report(Path::new("per_tier.toml"), scenario, &frozen, &rules)
        .unwrap_or_else(|d| panic!("{d:?}"));
    assert!(report.passed(), "{report:?}");

    check_cards(
        &GOOD_CARD.replace("amount = \"9 x tier\"", "amount = [9, 13, 16]"),
        12,
        "card[0].ability[0].amount",
        &["one number per tier", "prints 2 tiers, the amount has 3"],
    );
    check_cards(
        &GOOD_CARD.replace("amount = \"9 x tier\"", "amount = [9, -1]"),
        12,
        "card[0].ability[0].amount",
        &["0..=1000000", "found -1"],
    );
}

/// Decks and game suites (issue 51): a mangled deck, game suite or
/// Origins card file is refused or accepted, never a panic, and an
/// accepted deck plays whole games with every bot, which end.
#[test]
fn mutated_decks_and_game_suites_never_panic_and_accepted_decks_play() {
    use gridsim::riftbound_game::{Bot, Game, Settings};
    let deck = std::fs::read_to_string("configs/riftbound/decks/jinx_aggro.toml").expect("deck");
    let suite = std::fs::read_to_string("configs/riftbound/suites/games.toml").expect("suite");
    let units = std::fs::read_to_string("configs/riftbound/origins/units.toml").expect("units");
    let origins = [std::path::PathBuf::from("configs/riftbound/origins")];
    let catalog = config::load_riftbound_catalog(&origins).expect("the Origins catalog");
    let settings = Settings::default();
    let other = config::parse_deck(Path::new("d.toml"), &deck, &catalog, &settings).expect("the deck");
    let mut rng = Lcg(0xdec5);
    let (mut rejected, mut played) = (0, 0);
    for i in 0..600u64 {
        let deck_text = mutate(&deck, &mut rng);
        let suite_text = mutate(&suite, &mut rng);
        let units_text = mutate(&units, &mut rng);
        let outcome = std::panic::catch_unwind(|| {
            let (mut n, mut games) = (0, 0);
            match config::parse_deck(Path::new("d.toml"), &deck_text, &catalog, &settings) {
                Err(_) => n += 1,
                Ok(d) => {
                    for bots in [[Bot::Random, Bot::Aggressive], [Bot::Defensive, Bot::Random]] {
                        let o = Game::new(&catalog, settings, false).play(
                            [&d, &other],
                            bots,
                            gridsim::rng::FightRng::for_fight(i, 0),
                        );
                        assert!(o.turns <= settings.turn_cap);
                        games += 1;
                    }
                }
            }
            n += usize::from(config::parse_game_suite(Path::new("s.toml"), &suite_text).is_err());
            // A mangled unit file that loads: the bundled deck plays on it,
            // whatever numbers its cards now have.
            let mut c = gridsim::riftbound::cards::Catalog::default();
            let rest = ["legends", "spells", "battlefields"]
                .map(|f| format!("configs/riftbound/origins/{f}.toml"))
                .map(|f| (std::fs::read_to_string(&f).expect("a card file"), f));
            let loaded = config::riftbound_catalog::add_card_file(&mut c, Path::new("u.toml"), &units_text).is_ok()
                && rest
                    .iter()
                    .all(|(text, f)| config::riftbound_catalog::add_card_file(&mut c, Path::new(f), text).is_ok());
            n += usize::from(!loaded);
            if let (true, Ok(d)) = (loaded, config::parse_deck(Path::new("d.toml"), &deck, &c, &settings)) {
                let o = Game::new(&c, settings, false).play(
                    [&d, &d],
                    [Bot::Aggressive, Bot::Random],
                    gridsim::rng::FightRng::for_fight(i, 1),
                );
                assert!(o.turns <= settings.turn_cap);
                games += 1;
            }
            (n, games)
        });
        match outcome {
            Ok((n, g)) => {
                rejected += n;
                played += g;
            }
            Err(_) => panic!("iteration {i} panicked on:\n--- deck\n{deck_text}\n--- suite\n{suite_text}"),
        }
    }
    assert!(
        rejected > 300,
        "the mutations should break many files, broke {rejected}"
    );
    assert!(played > 100, "accepted decks should have played, played {played}");
}

/// A game scenario's play: a spell names the battlefield it is aimed at
/// (`to`, Core Rules 310.1.a), a unit names none (it enters its base,
/// 140.4); each mistake is reported at its line and key.
#[test]
fn a_game_scenarios_play_names_a_battlefield_for_a_spell_only() {
    let text = r#"game = "riftbound"
name = "plays"
covers = ["CR310.1.a"]
decks = ["jinx_aggro", "ahri_control"]
seed = 1

[[turn]]
actions = [
    { play = "hextech_ray" },
    { play = "pouty_poro", to = 1 },
    { play = "pouty_poro", accelerate = true },
]
"#;
    let diags = config::parse_riftbound_game_scenario(Path::new("plays.toml"), text).expect_err("refused");
    let shown: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
    let spell = diags.iter().find(|d| d.key == "turn[0].actions[0].to");
    let spell = spell.unwrap_or_else(|| panic!("the spell's missing `to`: {shown:?}"));
    assert_eq!(spell.line, 9, "{shown:?}");
    assert!(spell.to_string().contains("is a spell"), "{shown:?}");
    let unit = diags.iter().find(|d| d.key == "turn[0].actions[1].to");
    let unit = unit.unwrap_or_else(|| panic!("the unit's `to`: {shown:?}"));
    assert_eq!(unit.line, 10, "{shown:?}");
    assert!(unit.to_string().contains("is a unit"), "{shown:?}");
    let slow = diags.iter().find(|d| d.key == "turn[0].actions[2].accelerate");
    let slow = slow.unwrap_or_else(|| panic!("Accelerate on a unit without it: {shown:?}"));
    assert_eq!(slow.line, 11, "{shown:?}");
    assert!(slow.to_string().contains("721"), "{shown:?}");
}
