use super::*;

fn card_errors(text: &str) -> Vec<String> {
    let mut c = Catalog::default();
    match add_card_file(&mut c, Path::new("cards.toml"), text) {
        Ok(()) => Vec::new(),
        Err(d) => d.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn a_bad_card_names_its_line_key_and_the_nearest_name() {
    let text =
        "game = \"riftbound\"\n[[card]]\nkey = \"ray\"\nname = \"Ray\"\ntype = \"spel\"\nreconstructed = \"RB1\"\n";
    let e = card_errors(text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("cards.toml:5"), "{}", e[0]);
    assert!(e[0].contains("card[0].type"), "{}", e[0]);
    assert!(e[0].contains("did you mean `spell`"), "{}", e[0]);
}

#[test]
fn an_effect_does_one_thing() {
    let text = "game = \"riftbound\"\n[[card]]\nkey = \"ray\"\nname = \"Ray\"\ntype = \"spell\"\nreconstructed = \"RB1\"\neffects = [{ target = \"enemy\", damage = 3, stun = true }]\n";
    let e = card_errors(text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains(":7") && e[0].contains("card[0].effects[0]") && e[0].contains("does 2"),
        "{}",
        e[0]
    );
}

#[test]
fn a_unit_needs_might_and_a_card_its_reconstruction() {
    let text =
        "game = \"riftbound\"\n[[card]]\nkey = \"poro\"\nname = \"Poro\"\ntype = \"unit\"\nreconstructed = \" \"\n";
    let e = card_errors(text);
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(e.iter().any(|m| m.contains("card[0].might")), "{e:?}");
    assert!(
        e.iter()
            .any(|m| m.contains("card[0].reconstructed") && m.contains(":6")),
        "{e:?}"
    );
}

/// RB40, RB41: an ability is a gear's or a rune's, and a rune adds
/// energy; a player's action (RB14, RB48) has no target, a unit's one.
#[test]
fn abilities_and_players_actions_are_checked() {
    let head = "game = \"riftbound\"\n[[card]]\nkey = \"x\"\nname = \"X\"\nreconstructed = \"RB40\"\n";
    let unit_with_ability = format!("{head}type = \"unit\"\nmight = 2\nability = {{ exhaust = true, adds = 1 }}\n");
    let unbounded = format!("{head}type = \"rune\"\nability = {{ adds = 1 }}\n");
    let e = card_errors(&unbounded);
    assert!(e.iter().any(|m| m.contains("card[0].ability.exhaust")), "{e:?}");
    let e = card_errors(&unit_with_ability);
    assert!(
        e.iter()
            .any(|m| m.contains("card[0].ability") && m.contains("gear or rune")),
        "{e:?}"
    );
    let rune_without = format!("{head}type = \"rune\"\n");
    let e = card_errors(&rune_without);
    assert!(
        e.iter().any(|m| m.contains("card[0].ability") && m.contains("adds")),
        "{e:?}"
    );
    let score_at_a_unit =
        format!("{head}type = \"gear\"\ntriggers = [{{ when = \"hold\", target = \"me\", score = 1 }}]\n");
    let e = card_errors(&score_at_a_unit);
    assert!(
        e.iter()
            .any(|m| m.contains("card[0].triggers[0]") && m.contains("no `target`")),
        "{e:?}"
    );
    let damage_at_nobody = format!("{head}type = \"spell\"\neffects = [{{ damage = 2 }}]\n");
    let e = card_errors(&damage_at_nobody);
    assert!(
        e.iter()
            .any(|m| m.contains("card[0].effects[0]") && m.contains("names its `target`")),
        "{e:?}"
    );
    let good = format!(
        "{head}type = \"gear\"\nhidden = true\nability = {{ exhaust = true, discard = 1, effects = [{{ target = \"friendly\", kill = true }}, {{ play_from_deck = true }}] }}\n"
    );
    assert!(card_errors(&good).is_empty(), "{:?}", card_errors(&good));
}

/// Baited Hook's `look` (RB39) goes with `play_from_deck` and reads no
/// more than a showdown holds of a deck; Zenith Blade's `move_here`
/// (RB3) aims at a unit at its base, so it says `anywhere`; Monastery
/// of Hirana's `spend_buff_draw` (RB27) draws no negative count.
#[test]
fn look_move_here_and_spend_buff_draw_are_checked() {
    let head =
        "game = \"riftbound\"\n[[card]]\nkey = \"x\"\nname = \"X\"\nreconstructed = \"RB39\"\ntype = \"spell\"\n";
    let has = |text: String, key: &str, words: &str| {
        let e = card_errors(&text);
        assert!(e.iter().any(|m| m.contains(key) && m.contains(words)), "{e:?}");
    };
    has(
        format!("{head}effects = [{{ target = \"friendly\", damage = 1, look = 5 }}]\n"),
        "card[0].effects[0]",
        "`look` goes with `play_from_deck`",
    );
    has(
        format!("{head}effects = [{{ play_from_deck = true, look = 9 }}]\n"),
        "card[0].effects[0]",
        "`look` is from 1 to 8",
    );
    has(
        format!("{head}effects = [{{ target = \"friendly\", move_here = true }}]\n"),
        "card[0].effects[0]",
        "needs `anywhere = true`",
    );
    has(
        format!("{head}effects = [{{ target = \"friendly\", spend_buff_draw = -1 }}]\n"),
        "card[0].effects[0]",
        "at least 0",
    );
    // 409: a discard is its player's, of at least one card.
    has(
        format!("{head}effects = [{{ discard = 0 }}]\n"),
        "card[0].effects[0]",
        "`discard` is from 1 to 255",
    );
    has(
        format!("{head}effects = [{{ target = \"friendly\", discard = 1 }}]\n"),
        "card[0].effects[0]",
        "its player's: no `target`",
    );
    let good = format!(
        "{head}effects = [{{ target = \"friendly\", move_here = true, anywhere = true }}, {{ play_from_deck = true, look = 8 }}]\n"
    );
    let discards = format!("{head}effects = [{{ discard = 2 }}]\n");
    assert!(card_errors(&discards).is_empty(), "{:?}", card_errors(&discards));
    assert!(card_errors(&good).is_empty(), "{:?}", card_errors(&good));
    let site = "game = \"riftbound\"\n[[card]]\nkey = \"x\"\nname = \"X\"\nreconstructed = \"RB27\"\ntype = \"battlefield\"\ntriggers = [{ when = \"conquer\", target = \"friendly\", spend_buff_draw = 1, may = true }]\n";
    assert!(card_errors(site).is_empty(), "{:?}", card_errors(site));
}

/// 179: a token is a unit declared before the Legend whose ability plays
/// it; a Legend naming a card that is no token, or one declared after
/// it, is refused at the ability's line; `token` on a spell too.
#[test]
fn a_token_is_a_unit_declared_before_the_legend_that_plays_it() {
    let recruit = "[[card]]\nkey = \"recruit\"\nname = \"Recruit\"\ntype = \"unit\"\nmight = 1\ntoken = true\nreconstructed = \"179\"\n";
    let legend = "[[card]]\nkey = \"viktor\"\nname = \"Viktor\"\ntype = \"legend\"\nlegend_ability = { kind = \"play_a_token\", energy = 1, token = \"recruit\" }\ndomains = [\"mind\"]\ntag = \"Viktor\"\nreconstructed = \"167.8\"\n";
    let head = "game = \"riftbound\"\n";
    assert_eq!(card_errors(&format!("{head}{recruit}{legend}")), Vec::<String>::new());
    let e = card_errors(&format!("{head}{legend}{recruit}"));
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains("cards.toml:6")
            && e[0].contains("card[0].legend_ability.token")
            && e[0].contains("declared before"),
        "{}",
        e[0]
    );
    let not_a_token = recruit.replace("token = true\n", "");
    let e = card_errors(&format!("{head}{not_a_token}{legend}"));
    assert!(e.iter().any(|m| m.contains("no token card")), "{e:?}");
    let drummer = "[[card]]\nkey = \"drummer\"\nname = \"Drummer\"\ntype = \"unit\"\nmight = 3\ntriggers = [{ when = \"move\", play_token = \"recruit\" }]\nreconstructed = \"179\"\n";
    assert_eq!(card_errors(&format!("{head}{recruit}{drummer}")), Vec::<String>::new());
    let e = card_errors(&format!("{head}{drummer}{recruit}"));
    assert!(
        e.iter()
            .any(|m| m.contains("card[0].triggers[0].play_token") && m.contains("declared before")),
        "{e:?}"
    );
    let spell = "[[card]]\nkey = \"bolt\"\nname = \"Bolt\"\ntype = \"spell\"\ntoken = true\nreconstructed = \"179\"\n";
    let e = card_errors(&format!("{head}{spell}"));
    assert!(e.iter().any(|m| m.contains("card[0].token")), "{e:?}");
}

/// 728: the Legion keys reach the card: an effect's `legion` and a unit's
/// `legion_ready` (the misreading: a key parsed and dropped, so every
/// Legion text plays as if Legion always held, or never) and `legion_ready`
/// on a spell is refused.
#[test]
fn legion_keys_reach_the_card() {
    let head = "game = \"riftbound\"\n[[card]]\nkey = \"x\"\nname = \"X\"\nreconstructed = \"728\"\n";
    let unit = format!(
        "{head}type = \"unit\"\nmight = 2\nlegion_ready = true\ntriggers = [{{ when = \"play\", target = \"me\", buff = true, legion = true }}]\n"
    );
    let mut c = Catalog::default();
    add_card_file(&mut c, Path::new("cards.toml"), &unit).expect("loads");
    let card = &c.cards[0];
    assert!(card.legion_ready);
    assert!(card.triggers[0].effect.legion);
    let plain =
        format!("{head}type = \"unit\"\nmight = 2\ntriggers = [{{ when = \"play\", target = \"me\", buff = true }}]\n");
    let mut c = Catalog::default();
    add_card_file(&mut c, Path::new("cards.toml"), &plain).expect("loads");
    assert!(!c.cards[0].legion_ready && !c.cards[0].triggers[0].effect.legion);
    let spell = format!("{head}type = \"spell\"\nlegion_ready = true\neffects = [{{ draw = 1 }}]\n");
    assert!(
        card_errors(&spell).iter().any(|m| m.contains("legion_ready")),
        "{:?}",
        card_errors(&spell)
    );
}

/// 383: a `second_card`, `friendly_dies` or `discard` trigger is resolved by a game
/// away from any showdown too, so it does only what can be done there:
/// Might this turn, a ready or a Buff for `me`, a token `at_base`. Darius's
/// and Viktor's load with their keys reaching the card (the misreading: a
/// key parsed and dropped — the token played "here", Viktor's at a
/// battlefield he may have left); damage to an enemy, or a token played
/// "here", is refused at the trigger's key; `at_base` alone is refused.
#[test]
fn triggers_away_from_a_showdown_do_what_a_game_can_do_there() {
    use gridsim_riftbound::cards::{Action, When};
    let recruit = "[[card]]\nkey = \"recruit\"\nname = \"Recruit\"\ntype = \"unit\"\nmight = 1\ntoken = true\ntag = \"Recruit\"\nreconstructed = \"179\"\n";
    let unit = |triggers: &str| {
        format!(
            "game = \"riftbound\"\n{recruit}[[card]]\nkey = \"x\"\nname = \"X\"\ntype = \"unit\"\nmight = 5\ntriggers = [{triggers}]\nreconstructed = \"383\"\n"
        )
    };
    let darius = unit(
        r#"{ when = "second_card", target = "me", might = 2 }, { when = "second_card", target = "me", ready = true }"#,
    );
    let mut c = Catalog::default();
    add_card_file(&mut c, Path::new("cards.toml"), &darius).expect("loads");
    assert!(c.cards[0].is_recruit() && !c.cards[1].is_recruit());
    let t = &c.cards[1].triggers;
    assert_eq!(
        (t[0].when, t[1].when, t[1].effect.action),
        (When::SecondCard, When::SecondCard, Action::Ready)
    );
    let viktor = unit(r#"{ when = "friendly_dies", play_token = "recruit", at_base = true }"#);
    let mut c = Catalog::default();
    add_card_file(&mut c, Path::new("cards.toml"), &viktor).expect("loads");
    assert_eq!(
        c.cards[1].triggers[0].effect.action,
        Action::PlayToken {
            token: 0,
            at_base: true
        }
    );
    for bad in [
        r#"{ when = "second_card", target = "enemy", damage = 2 }"#,
        r#"{ when = "friendly_dies", play_token = "recruit" }"#,
        r#"{ when = "second_card", target = "me", might = 2, lasts = "combat" }"#,
        r#"{ when = "discard", target = "enemy", damage = 1 }"#,
        r#"{ when = "second_card", target = "me", might = -2, minimum = 1 }"#,
    ] {
        let e = card_errors(&unit(bad));
        assert!(
            e.iter()
                .any(|m| m.contains("card[1].triggers[0]") && m.contains("`second_card`, `friendly_dies` or `discard`")),
            "{bad}: {e:?}"
        );
    }
    let e = card_errors(&unit(
        r#"{ when = "move", target = "me", buff = true, at_base = true }"#,
    ));
    assert!(
        e.iter().any(|m| m.contains("`at_base` goes with `play_token`")),
        "{e:?}"
    );
}

/// Volibear, Furious's "deal 5 split among enemy units here": the key
/// reaches the card as a split among `each_enemy` (the misreading: a key
/// parsed and dropped, or read as 5 to one unit), and a split aimed at one
/// unit is refused at its key.
#[test]
fn damage_split_splits_among_each_enemy() {
    use gridsim_riftbound::cards::{Action, Target};
    let unit = |trigger: &str| {
        format!(
            "game = \"riftbound\"\n[[card]]\nkey = \"bear\"\nname = \"Bear\"\ntype = \"unit\"\nmight = 9\ntriggers = [{trigger}]\nreconstructed = \"split\"\n"
        )
    };
    let mut c = Catalog::default();
    let text = unit(r#"{ when = "attack", target = "each_enemy", damage_split = 5 }"#);
    add_card_file(&mut c, Path::new("cards.toml"), &text).expect("loads");
    let e = c.cards[0].triggers[0].effect;
    assert_eq!((e.target, e.action), (Target::EachEnemy, Action::DamageSplit(5)));
    let e = card_errors(&unit(r#"{ when = "attack", target = "enemy", damage_split = 5 }"#));
    assert!(
        e.iter().any(|m| m.contains("card[0].triggers[0].damage_split")),
        "{e:?}"
    );
}
