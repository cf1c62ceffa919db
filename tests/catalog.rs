//! The bundled starter catalog (`configs/cards`, `configs/runes`) against
//! what it promises: every keyword of section 800 on some card, the cards
//! the rule texts name, enough runes, bosses and Forge Cores, and every card
//! in play in the nightly suite.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use gridsim::ability::CardKind;
use gridsim::catalog::{CardId, Catalog};
use gridsim::config;
use gridsim::matches::Signature;
use gridsim::rule_book;

fn catalog() -> Catalog {
    config::load_catalog(&[PathBuf::from("configs/cards"), PathBuf::from("configs/runes")]).expect("catalog")
}

/// Cards a player can hold: every card but a boss's phases.
fn placeable(catalog: &Catalog) -> Vec<CardId> {
    (0..catalog.cards.len() as u16)
        .map(CardId)
        .filter(|&c| catalog.card(c).phase_of.is_none())
        .collect()
}

#[test]
fn every_keyword_of_800_is_on_some_card() {
    let catalog = catalog();
    let mut shown: BTreeSet<&str> = BTreeSet::new();
    for id in placeable(&catalog) {
        for k in catalog.rule_book_keywords(id) {
            assert_ne!(
                rule_book::keyword_section(k),
                u32::MAX,
                "`{k}` on {} is not a heading of 800",
                catalog.card(id).key
            );
            shown.insert(k);
        }
    }
    let missing: Vec<String> = rule_book::keywords()
        .iter()
        .filter(|(_, k)| !shown.contains(k.as_str()))
        .map(|(s, k)| format!("800.{s} {k}"))
        .collect();
    assert_eq!(rule_book::keywords().len(), 73, "section 800 has 73 keywords");
    assert!(missing.is_empty(), "no bundled card shows {}", missing.join(", "));
}

#[test]
fn the_catalog_has_the_counts_it_promises() {
    let catalog = catalog();
    let cards = placeable(&catalog);
    assert!(cards.len() >= 60, "{} cards, at least 60 promised", cards.len());
    for kind in CardKind::ALL {
        assert!(
            cards.iter().any(|&c| catalog.card(c).kind == *kind),
            "no card of kind `{kind}`"
        );
    }
    let tribes: BTreeSet<&str> = cards.iter().map(|&c| catalog.card(c).tribe.as_str()).collect();
    assert!(tribes.len() >= 6, "tribes: {tribes:?}");
    let bosses: Vec<&str> = cards
        .iter()
        .map(|&c| catalog.card(c))
        .filter(|c| c.kind == CardKind::Boss)
        .map(|c| c.key.as_str())
        .collect();
    assert!(bosses.len() >= 6, "bosses: {bosses:?}");
    for &id in &cards {
        let card = catalog.card(id);
        if card.kind == CardKind::Boss {
            // 800.48a, 800.66b: every boss has phases and a Stagger meter.
            assert!(!card.phases.is_empty(), "boss {} has no phase", card.key);
            assert!(card.stagger > 0, "boss {} has no Stagger meter", card.key);
        }
    }
    let placeable_runes = catalog.runes.iter().filter(|r| !r.innate_only).count();
    assert!(placeable_runes >= 12, "{placeable_runes} placeable runes");
    assert!(catalog.runes.iter().any(|r| r.tiers() >= 3), "runes over several tiers");
    assert!(catalog.resonances.len() >= 2, "the two named resonances");
}

/// The cards the rule texts name exist under their names.
#[test]
fn the_named_cards_exist() {
    let catalog = catalog();
    for name in [
        "Executioner Crab",
        "Rime Oracle",
        "Brushfire Ibex",
        "Tally Savant",
        "Master Appraiser",
        "Grohm",
        "Rune Resonator",
    ] {
        assert!(catalog.cards.iter().any(|c| c.name == name), "no card named {name}");
    }
}

/// Every boss of the match suite comes with minions, and the suite offers
/// a few Forge Cores as signature rewards (200.1d, 200.1e).
#[test]
fn the_match_suite_has_six_bosses_with_minions_and_forge_cores() {
    let catalog = catalog();
    let rules = config::load_rules(Path::new("configs/rules.toml")).expect("rules");
    let suite = config::load_match_suite(Path::new("configs/matches/solo.toml"), &catalog, &rules).expect("suite");
    let bosses: BTreeSet<CardId> = suite.bosses.iter().map(|b| b.boss).collect();
    assert!(bosses.len() >= 6, "{} distinct bosses in the draft", bosses.len());
    for b in &suite.bosses {
        assert!(!b.minions.is_empty(), "{} has no minion", b.name);
    }
    let cores: BTreeSet<&str> = suite
        .bosses
        .iter()
        .filter_map(|b| match &b.signature {
            Signature::Forge(core) => Some(core.name.as_str()),
            _ => None,
        })
        .collect();
    assert!(cores.len() >= 3, "Forge Cores: {cores:?}");
}

/// Every card a random board may hold appears on some board of the nightly
/// suite's first 10,000 fights.
#[test]
fn every_card_is_in_the_nightly_suites_first_fights() {
    let catalog = catalog();
    let rules = config::load_rules(Path::new("configs/rules.toml")).expect("rules");
    let suite = config::load_suite(Path::new("configs/suites/default.toml"), &catalog, &rules).expect("suite");
    let mut seen: BTreeSet<CardId> = BTreeSet::new();
    for i in 0..10_000 {
        let (l, r) = suite.pairing(i);
        for b in [l, r] {
            seen.extend(suite.boards[b as usize].units.iter().map(|u| u.card));
        }
    }
    let unseen: Vec<&str> = placeable(&catalog)
        .into_iter()
        .filter(|c| !seen.contains(c))
        .map(|c| catalog.card(c).key.as_str())
        .collect();
    assert!(unseen.is_empty(), "never in the first 10,000 fights: {unseen:?}");
}

/// The round the boss suite's boards stand for: the first in which bosses
/// and minions fight at tier 3 (`round.boss_tier_three_round`, 200.1d).
const BOSS_SUITE_ROUND: u8 = 7;

/// Each boss board of the boss suite (`configs/boards/boss_*.toml`) is the
/// boss as the match fields it in round 7 (200.1d): the first draft option
/// with that boss, built by the match's own `boss_entrant` (the round's
/// tier, another copy of the minions every two rounds, the boss's Power and
/// Armor grown by the round). On a mismatch the test prints the file the
/// match would write; `GRIDSIM_BLESS=1` writes it.
#[test]
fn boss_boards_are_the_matchs_bosses_in_round_seven() {
    use gridsim::matches::{MatchCtx, boss_entrant};
    let catalog = catalog();
    let rules = config::load_rules(Path::new("configs/rules.toml")).expect("rules");
    assert_eq!(
        i32::from(BOSS_SUITE_ROUND),
        rules.round.boss_tier_three_round,
        "the boss suite stands for the first round of tier-3 bosses (200.1d)"
    );
    let suite = config::load_match_suite(Path::new("configs/matches/solo.toml"), &catalog, &rules).expect("suite");
    let ctx = MatchCtx::new(&catalog, rules, &suite);
    let mut seen = BTreeSet::new();
    for option in &suite.bosses {
        if !seen.insert(option.boss) {
            continue;
        }
        let key = &catalog.card(option.boss).key;
        let file = PathBuf::from(format!("configs/boards/boss_{key}.toml"));
        let entrant = boss_entrant(&ctx, option, BOSS_SUITE_ROUND);
        let mut expected = format!(
            "# {} as the match's boss draft fields it in round {BOSS_SUITE_ROUND} (configs/matches/solo.toml,\n\
             # 200.1d): boss and minions at tier 3, a copy of the minions for every two\n\
             # rounds as they fit, the boss's Power and Armor grown by the round and\n\
             # by one round more for each minion copy the grid cannot hold.\n\
             # tests/catalog.rs checks it against the match's own boss_entrant\n\
             # (GRIDSIM_BLESS=1 rewrites it). The boss suite (configs/suites/bosses.toml)\n\
             # pits random boards against it.\nname = \"{}\"\n",
            option.name, option.name
        );
        for (p, s) in entrant.board.units.iter().zip(&entrant.states) {
            expected += &format!(
                "\n[[unit]]\ncard = \"{}\"\ntier = {}\ncell = [{}, {}]\n",
                catalog.card(p.card).key,
                p.tier,
                p.column,
                p.row
            );
            if let (Some(power), Some(armor)) = (s.power_bonus, s.armor_bonus) {
                expected += &format!("state = {{ power_bonus = {power}, armor_bonus = {armor} }}\n");
            }
        }
        if std::env::var_os("GRIDSIM_BLESS").is_some() {
            std::fs::write(&file, &expected).expect("write boss board");
        }
        let board = config::load_board(&file, &catalog, &rules)
            .unwrap_or_else(|e| panic!("{}: {e:?}\nexpected:\n{expected}", file.display()));
        assert_eq!(
            board.units,
            entrant.board.units,
            "{}: expected\n{expected}",
            file.display()
        );
        let states: Vec<_> = entrant.states.iter().map(|s| (s.power_bonus, s.armor_bonus)).collect();
        let loaded: Vec<_> = board.states.iter().map(|s| (s.power_bonus, s.armor_bonus)).collect();
        assert_eq!(loaded, states, "{}: expected\n{expected}", file.display());
        // 200.1d, reconstructed: the boss's growth is the round's, and a
        // round's more for each minion copy without a cell.
        let every = rules.round.extra_minion_every_rounds;
        let copies = option.minions.len() as i32 * (1 + (i32::from(BOSS_SUITE_ROUND) - 1) / every);
        let placed = entrant.board.units.len() as i32 - 1;
        let grown = i32::from(BOSS_SUITE_ROUND) - 1 + (copies - placed);
        assert_eq!(
            states[0],
            (
                Some(rules.round.boss_power_per_round * grown),
                Some(rules.round.boss_armor_per_round * grown)
            )
        );
    }
    assert_eq!(seen.len(), 6, "one boss board per boss of the draft");
}
