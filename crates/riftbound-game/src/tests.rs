//! The rules a whole game adds, each checked on a small catalog built
//! here; each test names the misreading it would catch.

use super::bots::Action;
use super::turn::Scoring;
use super::*;
use gridsim_riftbound::cards::Card;
use gridsim_riftbound::runes::Cost;

fn card(key: &str, kind: CardKind, might: i32, energy: u8, domains: u8) -> Card {
    Card {
        cost: Cost {
            energy,
            ..Cost::default()
        },
        domains,
        ..Card::plain(key, kind, might)
    }
}

const FURY: u8 = 1;
const CALM: u8 = 2;

/// Cards 0–3: a Legend, its champion, a 2-Might unit of cost 2, a
/// battlefield, and a Calm unit outside the Legend's domains.
fn catalog() -> Catalog {
    let mut legend = card("legend", CardKind::Legend, 0, 0, FURY);
    legend.tag = "Hero".into();
    let mut champion = card("champion", CardKind::Unit, 4, 4, FURY);
    champion.champion = true;
    champion.tag = "Hero".into();
    Catalog {
        cards: vec![
            legend,
            champion,
            card("grunt", CardKind::Unit, 2, 2, FURY),
            card("field", CardKind::Battlefield, 0, 0, 0),
            card("monk", CardKind::Unit, 2, 2, CALM),
        ],
    }
}

fn deck(catalog: &Catalog) -> Deck {
    let _ = catalog;
    Deck {
        name: "test".into(),
        legend: 0,
        champion: 1,
        main: vec![2; 39],
        runes: vec![Domain::Fury; 12],
        battlefields: vec![3; 3],
    }
}

/// A game set up for seat 0 to go first, with both decks of grunts.
fn game(catalog: &Catalog, seed: u64) -> Game<'_> {
    let d = deck(catalog);
    let mut g = Game::new(catalog, Settings::default(), true);
    g.setup([&d, &d], [Bot::Aggressive; 2], FightRng::for_fight(seed, 0));
    g
}

fn put_unit(g: &mut Game, seat: Seat, place: Place) -> usize {
    let u = (0..MAX_UNITS).find(|&u| !g.units.alive[u]).expect("room");
    g.units.alive[u] = true;
    g.units.card[u] = 2;
    g.units.owner[u] = seat;
    g.units.place[u] = place;
    g.units.exhausted[u] = false;
    u
}

fn logged(g: &Game, kind: GameEventKind) -> usize {
    g.log.iter().filter(|e| e.kind == kind).count()
}

/// 103.2.b, 103.1.b.3, 103.2, 103.3.a: a deck with a fourth copy, a card
/// outside the Legend's domains, too few cards or runes is refused. The
/// misreading: the Chosen Champion not counted among its name's copies.
#[test]
fn an_illegal_deck_says_which_rule_it_breaks() {
    let c = catalog();
    let settings = Settings::default();
    assert!(
        deck(&c).problems(&c, &settings).iter().any(|p| p.contains("103.2.b")),
        "39 grunts are too many copies"
    );
    let mut legal = deck(&c);
    legal.main = Vec::new();
    assert!(legal.problems(&c, &settings).iter().any(|p| p.contains("103.2")));
    let mut champion_copies = deck(&c);
    champion_copies.main = vec![1, 1, 1];
    let problems = champion_copies.problems(&c, &settings);
    assert!(
        problems.iter().any(|p| p.contains("4 copies of champion")),
        "the Chosen Champion counts among its name's three: {problems:?}"
    );
    let mut off_domain = deck(&c);
    off_domain.main = vec![4];
    off_domain.runes = vec![Domain::Calm; 11];
    let problems = off_domain.problems(&c, &settings);
    assert!(problems.iter().any(|p| p.contains("103.1.b.3")), "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("103.3.a")), "{problems:?}");
}

/// 458.7: the second player channels three runes in its first turn, two
/// after. The misreading: three for every player's first turn, or two for
/// both.
#[test]
fn the_second_player_channels_a_third_rune_once() {
    let c = catalog();
    let mut g = game(&c, 1);
    g.sides[0].bot = Bot::Defensive;
    g.sides[1].bot = Bot::Defensive;
    let first = usize::from(g.first);
    let second = 1 - first;
    assert_eq!([g.sides[0].runes.total(), g.sides[1].runes.total()], [0, 0]);
    // The grunts cost no Power, so no rune goes back under the rune deck.
    let spent = |g: &Game, s: usize| 12 - g.sides[s].rune_len as u32;
    g.play_turn();
    assert_eq!(spent(&g, first), 2, "the first player channels 2 (315.3.b)");
    g.play_turn();
    assert_eq!(spent(&g, second), 3, "the second player's first channel is 3 (458.7)");
    g.play_turn();
    g.play_turn();
    assert_eq!(spent(&g, second), 5, "then 2 a turn");
    assert_eq!(spent(&g, first), 4);
}

/// 444.1.b: a conquest that would give the final point gives it only when
/// every battlefield was scored this turn; otherwise a card is drawn
/// instead. The misreading: the eighth point from any conquest.
#[test]
fn the_final_point_from_a_conquest_needs_every_battlefield_scored() {
    let c = catalog();
    let mut g = game(&c, 2);
    let p = g.first;
    g.active = p;
    g.turn = 3;
    g.sides[usize::from(p)].score = 7;
    let hand = g.sides[usize::from(p)].hand.len();
    let u = put_unit(&mut g, p, Place::Base);
    g.standard_move_for_test(p, 1 << u, 0);
    assert_eq!(
        g.sides[usize::from(p)].score,
        7,
        "no final point from one battlefield of two"
    );
    assert_eq!(logged(&g, GameEventKind::FinalPointDrawn), 1);
    assert_eq!(g.sides[usize::from(p)].hand.len(), hand + 1, "a card drawn instead");
    assert_eq!(g.controller(0), Some(p), "the battlefield is conquered all the same");
    // With the other battlefield scored this turn, the conquest wins.
    let mut g = game(&c, 2);
    g.active = p;
    g.turn = 3;
    g.sides[usize::from(p)].score = 6;
    g.score_field(p, 1, Scoring::Hold);
    assert_eq!(g.sides[usize::from(p)].score, 7);
    let u = put_unit(&mut g, p, Place::Base);
    g.standard_move_for_test(p, 1 << u, 0);
    assert_eq!(g.sides[usize::from(p)].score, 8);
    assert_eq!(g.winner, Some(p), "the eighth point wins at once (445)");
}

/// 444.1.b, 442.2: a hold always gives the final point. The misreading:
/// the final-point rule applied to holds too.
#[test]
fn a_hold_gives_the_final_point() {
    let c = catalog();
    let mut g = game(&c, 3);
    let p = g.first;
    g.sides[usize::from(p)].score = 7;
    put_unit(&mut g, p, Place::Field(0));
    g.play_turn();
    assert_eq!(g.winner, Some(p), "held in the beginning phase: 8 points");
    assert_eq!(logged(&g, GameEventKind::Held), 1);
}

/// 443: a battlefield scores at most once a turn for a player. The
/// misreading: a conquest after a hold of the same battlefield scores
/// again.
#[test]
fn a_battlefield_scores_once_a_turn() {
    let c = catalog();
    let mut g = game(&c, 4);
    let p = g.first;
    g.active = p;
    g.turn = 3;
    g.score_field(p, 0, Scoring::Hold);
    g.score_field(p, 0, Scoring::Conquer);
    assert_eq!(g.sides[usize::from(p)].score, 1);
    assert_eq!(logged(&g, GameEventKind::AlreadyScored), 1);
}

/// 418.2: drawing from an empty deck shuffles the trash in and gives the
/// opponent a point, then the draw goes on. The misreading: the player
/// loses, or draws nothing, or no point is given.
#[test]
fn burning_out_gives_the_opponent_a_point() {
    let c = catalog();
    let mut g = game(&c, 5);
    let p = g.first;
    let s = usize::from(p);
    while let Some(card) = g.sides[s].deck.pop() {
        g.sides[s].trash.push(card);
    }
    let trash = g.sides[s].trash.len();
    let hand = g.sides[s].hand.len();
    g.draw(p, 1, "315.4.b");
    assert_eq!(
        g.sides[usize::from(1 - p)].score,
        1,
        "the opponent gains a point (418.2.c)"
    );
    assert_eq!(g.sides[s].hand.len(), hand + 1, "then the draw is finished (418.2.d)");
    assert_eq!(g.sides[s].deck.len(), trash - 1);
    assert!(g.sides[s].trash.is_empty());
    // 418.3: with deck and trash empty, each attempt burns out again.
    g.sides[s].deck.clear();
    g.draw(p, 2, "315.4.b");
    assert_eq!(g.sides[usize::from(1 - p)].score, 3);
}

/// 141.2, 140.4: a unit played this turn is exhausted and cannot move; a
/// move exhausts. The misreading: a unit moves the turn it is played.
#[test]
fn a_unit_played_this_turn_does_not_move() {
    let c = catalog();
    let mut g = game(&c, 6);
    let p = g.first;
    let s = usize::from(p);
    g.active = p;
    g.sides[s].runes.ready[0] = 4;
    let k = g.sides[s].hand.position(2).expect("a grunt in hand");
    g.act(p, Action::PlayFromHand { k, accelerate: false });
    let u = g.units.of(p, Place::Base).next().expect("played to base");
    assert!(g.units.exhausted[u]);
    assert_eq!(
        g.sides[s].runes.ready[0], 2,
        "its two Energy paid by exhausting runes (157.2.a)"
    );
    g.act(p, Action::Move { units: 1 << u, to: 0 });
    assert_eq!(
        g.units.place[u],
        Place::Base,
        "an exhausted unit makes no standard move"
    );
}

/// A combat through the kernel: the larger side wins and a conquest
/// scores; a lost attack leaves the defender holding. The misreading: the
/// game scoring a battlefield the attacker failed to take.
#[test]
fn a_combat_is_played_by_the_kernel_and_a_conquest_scores() {
    let c = catalog();
    let mut g = game(&c, 7);
    let p = g.first;
    g.active = p;
    g.turn = 3;
    let defender = put_unit(&mut g, 1 - p, Place::Field(1));
    let a = put_unit(&mut g, p, Place::Base);
    let b = put_unit(&mut g, p, Place::Base);
    g.standard_move_for_test(p, (1 << a) | (1 << b), 1);
    assert!(!g.units.alive[defender], "4 Might against 2: the defender dies");
    assert_eq!(
        g.sides[usize::from(1 - p)].trash.as_slice(),
        &[2],
        "to its owner's trash"
    );
    assert_eq!(g.controller(1), Some(p));
    assert_eq!(g.sides[usize::from(p)].score, 1);
    assert_eq!(g.showdowns, 1);
}

/// Every game ends, by victory or the turn cap, for every pair of bots,
/// and the same seed plays the same game. The misreading: a bot that
/// never ends its turn, or a game that draws on something else than its
/// stream.
#[test]
fn every_game_ends_and_a_seed_replays_it() {
    let c = catalog();
    let d = deck(&c);
    let mut g = Game::new(&c, Settings::default(), false);
    for a in Bot::ALL {
        for b in Bot::ALL {
            for seed in 0..20 {
                let one = g.play([&d, &d], [a, b], FightRng::for_fight(seed, 1));
                let two = g.play([&d, &d], [a, b], FightRng::for_fight(seed, 1));
                assert_eq!(one, two);
                assert!(one.turns <= Settings::default().turn_cap);
                if one.reason == EndReason::Victory {
                    assert!(one.score[usize::from(one.winner.expect("a winner"))] >= 8);
                }
            }
        }
    }
}

/// The card events a run's `card_events` table is made of: the kept
/// opening hand (116, after the mulligan of 117) at turn 0, every later
/// draw, every play with the cost paid (353), in a game logged or not.
/// The misreadings: setup's draws counted as draws (a card in the opening
/// hand would then be "drawn" twice), or events kept only when logging.
#[test]
fn card_events_count_the_opening_hand_the_draws_and_the_plays() {
    let c = catalog();
    let d = deck(&c);
    let mut logged_game = Game::new(&c, Settings::default(), true);
    let mut quiet = Game::new(&c, Settings::default(), false);
    for seed in 0..10 {
        logged_game.play(
            [&d, &d],
            [Bot::Aggressive, Bot::Defensive],
            FightRng::for_fight(seed, 2),
        );
        quiet.play(
            [&d, &d],
            [Bot::Aggressive, Bot::Defensive],
            FightRng::for_fight(seed, 2),
        );
        let events = &logged_game.card_events;
        assert_eq!(events, &quiet.card_events, "seed {seed}");
        for seat in 0..2 {
            let of = |kind| events.iter().filter(|e| e.seat == seat && e.kind == kind).count();
            assert_eq!(of(CardEventKind::Opening), Settings::default().opening_hand as usize);
            let drawn_later = logged_game
                .log
                .iter()
                .filter(|e| e.seat == seat && e.kind == GameEventKind::Drew && e.turn > 0)
                .count();
            assert_eq!(of(CardEventKind::Drew), drawn_later, "seed {seed} seat {seat}");
            let played = logged_game
                .log
                .iter()
                .filter(|e| e.seat == seat && e.kind == GameEventKind::Played)
                .count();
            assert!(played > 0, "seed {seed}: the aggressive and defensive bots play units");
            assert_eq!(of(CardEventKind::Played), played, "seed {seed} seat {seat}");
        }
        for e in events {
            assert_eq!(e.turn == 0, e.kind == CardEventKind::Opening, "{e:?}");
            let paid = if e.kind == CardEventKind::Played {
                c.card(e.card).cost.energy
            } else {
                0
            };
            assert_eq!(e.energy, paid, "{e:?}");
        }
    }
}

impl Game<'_> {
    fn standard_move_for_test(&mut self, p: Seat, units: u32, to: u8) {
        self.act(p, Action::Move { units, to });
    }
}

/// The catalog with three more cards: 5 a bolt (an Action spell of 1
/// Energy, 3 damage to an enemy unit, at a base too), 6 a brace (a
/// Reaction of 1 Energy, +2 Might this turn to a friendly unit), 7 a
/// scholar (a 2-Might unit of 2 Energy whose "when you play me" draws 1),
/// 8 a sprinter (a 3-Might unit of 2 Energy with Accelerate), 9 a rookie
/// (a 2-Might unit of 1 Energy whose "when you play me" buffs another
/// friendly unit, at a base too).
fn catalog_with_plays() -> Catalog {
    use gridsim_riftbound::cards::{Action as Does, Effect, Speed, Target, Trigger, When};
    let mut c = catalog();
    let effect = |target, action, anywhere| Effect {
        target,
        action,
        optional: false,
        anywhere,
        legion: false,
    };
    let mut bolt = card("bolt", CardKind::Spell, 0, 1, FURY);
    bolt.effects = vec![effect(Target::Enemy, Does::Damage(3), true)];
    let mut brace = card("brace", CardKind::Spell, 0, 1, FURY);
    brace.speed = Speed::Reaction;
    let plus_two = might_this_turn(2);
    brace.effects = vec![effect(Target::Friendly, plus_two, false)];
    let mut scholar = card("scholar", CardKind::Unit, 2, 2, FURY);
    scholar.triggers = vec![Trigger {
        when: When::Play,
        effect: effect(Target::Me, Does::Draw(1), false),
    }];
    let mut sprinter = card("sprinter", CardKind::Unit, 3, 2, FURY);
    sprinter.accelerate = true;
    let mut rookie = card("rookie", CardKind::Unit, 2, 1, FURY);
    rookie.triggers = vec![Trigger {
        when: When::Play,
        effect: effect(Target::OtherFriendly, Does::Buff, true),
    }];
    c.cards.extend([bolt, brace, scholar, sprinter, rookie]);
    c
}

/// "+N Might this turn".
fn might_this_turn(amount: i32) -> gridsim_riftbound::cards::Action {
    gridsim_riftbound::cards::Action::Might {
        amount,
        minimum: None,
        lasts: gridsim_riftbound::Lasts::Turn,
    }
}

/// A trigger of `when` whose effect `action` is its own unit's, or its
/// player's: not optional, "here", with no Legion.
fn on_me(
    when: gridsim_riftbound::cards::When,
    action: gridsim_riftbound::cards::Action,
) -> gridsim_riftbound::cards::Trigger {
    use gridsim_riftbound::cards::{Effect, Target, Trigger};
    Trigger {
        when,
        effect: Effect {
            target: Target::Me,
            action,
            optional: false,
            anywhere: false,
            legion: false,
        },
    }
}

/// Seat 0 to act, with `runes` ready Fury runes and `hand` for its hand.
fn ready_to_act<'c>(c: &'c Catalog, runes: u8, hand: &[CardIndex]) -> Game<'c> {
    let mut g = game(c, 3);
    g.active = 0;
    g.turn = 1;
    g.sides[0].hand.clear();
    for &card in hand {
        g.sides[0].hand.push(card);
    }
    g.sides[0].runes = Runes::default();
    g.sides[0].runes.ready[Domain::Fury.index()] = runes;
    g
}

/// 310.1.a: in its action phase the turn player plays a spell outside any
/// showdown; it resolves on the units of the battlefield it is aimed at
/// (and the bases), then goes to the trash. The misreading: spells kept
/// for showdowns only (the defender at battlefield 1 would live), or
/// aimed at every battlefield (the one at battlefield 0 would be a target
/// as well).
#[test]
fn a_spell_of_the_action_phase_resolves_at_its_battlefield() {
    let c = catalog_with_plays();
    let mut g = ready_to_act(&c, 2, &[5]);
    let far = put_unit(&mut g, 1, Place::Field(0));
    let near = put_unit(&mut g, 1, Place::Field(1));
    g.act(0, Action::Cast { card: 5, at: 1 });
    assert!(!g.units.alive[near], "3 damage kills the 2-Might unit at battlefield 1");
    assert!(
        g.units.alive[far],
        "the unit at battlefield 0 is not on the spell's board"
    );
    assert_eq!(g.units.damage[far], 0);
    assert!(g.sides[0].hand.is_empty() && g.sides[0].trash.as_slice().contains(&5));
    assert_eq!(g.sides[0].runes.ready_total(), 1, "its Energy paid from a rune (353)");
    assert_eq!(logged(&g, GameEventKind::Cast), 1);
    // Aimed where no enemy unit is (nor at a base), it has no target and
    // stays in hand (RB39); the turn's casting ends there.
    let mut g = ready_to_act(&c, 2, &[5]);
    put_unit(&mut g, 1, Place::Field(0));
    g.act(0, Action::Cast { card: 5, at: 1 });
    assert_eq!(g.sides[0].hand.as_slice(), &[5]);
    assert_eq!(logged(&g, GameEventKind::Cast), 0);
    assert!(g.cast_refused && !g.can_cast(0, 5));
}

/// 309.1.a: while the spell is on the chain the opponent may answer only
/// with a Reaction: its brace saves its unit, its bolt (an Action) stays
/// in its hand though a target is there. The misreading: any spell played
/// in answer (the bolt would kill seat 0's unit at its base).
#[test]
fn the_opponent_answers_an_action_phase_spell_with_reactions_only() {
    let c = catalog_with_plays();
    let mut g = ready_to_act(&c, 2, &[5]);
    let mine = put_unit(&mut g, 0, Place::Base);
    let theirs = put_unit(&mut g, 1, Place::Field(1));
    g.sides[1].hand.clear();
    g.sides[1].hand.push(5);
    g.sides[1].hand.push(6);
    g.sides[1].runes = Runes::default();
    g.sides[1].runes.ready[Domain::Fury.index()] = 2;
    g.act(0, Action::Cast { card: 5, at: 1 });
    assert_eq!(g.sides[1].hand.as_slice(), &[5], "the Action spell stays in hand");
    assert!(g.sides[1].trash.as_slice().contains(&6), "the Reaction was played");
    assert!(g.units.alive[theirs], "+2 this turn: Might 4 takes the 3 damage");
    assert_eq!((g.units.damage[theirs], g.units.turn_might[theirs]), (3, 2));
    assert!(g.units.alive[mine] && g.units.damage[mine] == 0);
}

/// 140.4, RB26: a unit with a "when you play me" trigger played in the
/// action phase enters its base exhausted, and its trigger resolves. The
/// misreading: the trigger ignored outside a showdown (no card drawn).
#[test]
fn a_units_play_trigger_resolves_in_the_action_phase() {
    let c = catalog_with_plays();
    let mut g = ready_to_act(&c, 2, &[7]);
    let deck_before = g.sides[0].deck.len();
    g.act(
        0,
        Action::PlayCard {
            card: 7,
            accelerate: false,
        },
    );
    let u = (0..MAX_UNITS).find(|&u| g.units.alive[u] && g.units.card[u] == 7);
    let u = u.expect("the scholar is on the board");
    assert_eq!(g.units.place[u], Place::Base);
    assert!(g.units.exhausted[u], "it enters exhausted (140.4)");
    assert_eq!(g.sides[0].hand.len(), 1, "played, then one card drawn");
    assert_eq!(g.sides[0].deck.len(), deck_before - 1);
    assert_eq!(logged(&g, GameEventKind::Played), 1);
    let drawn = g
        .log
        .iter()
        .filter(|e| e.kind == GameEventKind::Drew && e.rule == "RB26");
    assert_eq!(drawn.count(), 1);
}

/// 721: a unit played paying its Accelerate — 1 Energy and 1 Power of its
/// domain more — enters ready and moves that turn; one whose player cannot
/// pay it, or does not ask, enters exhausted (140.4) paying its cost alone.
/// The misreadings: Accelerate for free (two runes would do), or its
/// Power not asked (three Energy exhausted, nothing recycled).
#[test]
fn accelerate_pays_one_energy_and_one_power_more_to_enter_ready() {
    let c = catalog_with_plays();
    let fury = Domain::Fury.index();
    let mut g = ready_to_act(&c, 3, &[8]);
    let rune_deck = g.sides[0].rune_len;
    g.act(0, Action::PlayFromHand { k: 0, accelerate: true });
    let u = (0..MAX_UNITS).find(|&u| g.units.alive[u] && g.units.card[u] == 8);
    let u = u.expect("the sprinter is on the board");
    assert!(!g.units.exhausted[u], "Accelerate paid: it enters ready");
    assert_eq!(
        g.sides[0].runes.ready[fury] + g.sides[0].runes.exhausted[fury],
        2,
        "one rune recycled for the Power"
    );
    assert_eq!(g.sides[0].rune_len, rune_deck + 1);
    assert_eq!(g.sides[0].runes.ready_total(), 0, "three Energy exhausted");
    let event = g
        .card_events
        .iter()
        .find(|e| e.card == 8 && e.kind == CardEventKind::Played);
    let event = event.expect("its card event");
    assert_eq!(
        (event.energy, event.power),
        (3, 1),
        "the card event records what was paid"
    );
    g.act(0, Action::Move { units: 1 << u, to: 0 });
    assert_eq!(
        g.units.place[u],
        Place::Field(0),
        "a ready unit moves the turn it is played"
    );
    for (runes, asks) in [(2, true), (3, false)] {
        let mut g = ready_to_act(&c, runes, &[8]);
        g.act(0, Action::PlayFromHand { k: 0, accelerate: asks });
        let u = (0..MAX_UNITS).find(|&u| g.units.alive[u] && g.units.card[u] == 8);
        assert!(
            g.units.exhausted[u.expect("played")],
            "{runes} runes, asked {asks}: exhausted"
        );
        assert_eq!(g.sides[0].runes.ready_total(), u32::from(runes) - 2, "its cost alone");
    }
}

/// The catalog with its Legend given `ability`.
fn catalog_with_legend(ability: gridsim_riftbound::cards::LegendAbility) -> Catalog {
    let mut c = catalog_with_plays();
    c.cards[0].legend_ability = Some(ability);
    c
}

/// 167.7, Jinx, Loose Cannon: at the start of the beginning phase its
/// player draws 1 when it holds 1 card or fewer, and not with 2. The
/// misreading: "fewer than 1", or a draw whatever the hand.
#[test]
fn a_legend_draws_at_the_beginning_with_few_cards() {
    use gridsim_riftbound::cards::LegendAbility;
    let c = catalog_with_legend(LegendAbility::DrawWithFewCards { hand: 1 });
    let mut g = ready_to_act(&c, 0, &[2]);
    g.legend_at_beginning(0);
    assert_eq!(g.sides[0].hand.len(), 2, "one card in hand: it draws");
    g.legend_at_beginning(0);
    assert_eq!(g.sides[0].hand.len(), 2, "two cards in hand: no draw");
    assert_eq!(logged(&g, GameEventKind::Legend), 1);
}

/// 167.8, Lee Sin, Blind Monk: "1, exhaust me: buff a friendly unit". The
/// Legend pays an Energy and exhausts, so a second use waits for its
/// player's awaken (315.1.a); a unit with a Buff takes no second (RB27).
/// The misreadings: a Legend never exhausted (two Buffs a turn), or one
/// never readied.
#[test]
fn a_legend_buffs_a_unit_once_a_turn() {
    use gridsim_riftbound::cards::LegendAbility;
    let c = catalog_with_legend(LegendAbility::BuffAUnit { energy: 1 });
    let mut g = ready_to_act(&c, 3, &[]);
    let a = put_unit(&mut g, 0, Place::Base);
    let b = put_unit(&mut g, 0, Place::Field(0));
    g.act(0, Action::Legend { unit: a, to: 0 });
    assert!(g.units.buffed[a] && g.sides[0].legend_exhausted);
    assert_eq!(g.sides[0].runes.ready_total(), 2, "its Energy paid");
    assert!(g.might(a) == 3, "a Buff is +1 Might");
    g.act(0, Action::Legend { unit: b, to: 0 });
    assert!(!g.units.buffed[b], "the Legend is exhausted");
    g.awaken(0);
    assert!(!g.can_use_legend(0, a), "a unit with a Buff takes no second");
    g.act(0, Action::Legend { unit: b, to: 0 });
    assert!(g.units.buffed[b], "readied by the awaken");
    assert!(!g.can_use_legend(1, b), "never for the opponent's unit");
}

/// 167.7, Volibear, Relentless Storm: playing a unit of Might 5 or more,
/// its player exhausts the Legend to channel 1 rune exhausted; a smaller
/// unit gives nothing. The misreadings: the rune channelled ready, or
/// for any unit.
#[test]
fn a_legend_channels_a_rune_for_a_mighty_unit() {
    use gridsim_riftbound::cards::LegendAbility;
    let c = catalog_with_legend(LegendAbility::ChannelOnMighty { might: 4 });
    let mut g = ready_to_act(&c, 8, &[2, 1]);
    let runes_left = g.sides[0].rune_len;
    g.act(
        0,
        Action::PlayFromHand {
            k: 0,
            accelerate: false,
        },
    );
    assert_eq!(g.sides[0].rune_len, runes_left, "a 2-Might unit channels nothing");
    g.act(0, Action::PlayChampion { accelerate: false });
    assert_eq!(g.sides[0].rune_len, runes_left - 1, "the 4-Might champion channels one");
    assert_eq!(g.sides[0].runes.ready_total(), 8 - 2 - 4, "it enters exhausted");
    assert_eq!(g.sides[0].runes.total(), 8 + 1);
    assert!(g.sides[0].legend_exhausted);
}

/// "When you play me, buff another friendly unit": the unit at its base
/// takes the Buff, the played unit never; alone, it buffs nobody. The
/// misreading: "another" read as any friendly unit, the rookie buffing
/// itself.
#[test]
fn a_play_trigger_buffs_another_friendly_unit_only() {
    let c = catalog_with_plays();
    let mut g = ready_to_act(&c, 2, &[9, 9]);
    g.act(
        0,
        Action::PlayCard {
            card: 9,
            accelerate: false,
        },
    );
    let first = (0..MAX_UNITS).find(|&u| g.units.alive[u] && g.units.card[u] == 9);
    let first = first.expect("played");
    assert!(!g.units.buffed[first], "alone: no other friendly unit to buff");
    g.act(
        0,
        Action::PlayCard {
            card: 9,
            accelerate: false,
        },
    );
    let second = (0..MAX_UNITS).find(|&u| g.units.alive[u] && g.units.card[u] == 9 && u != first);
    assert!(g.units.buffed[first], "the unit already there takes the Buff");
    assert!(!g.units.buffed[second.expect("played")]);
}

/// 167.7, Ahri, Nine-Tailed Fox: an enemy unit attacking a battlefield its
/// player controls gets −1 this turn; one moving to an empty battlefield
/// does not. The misreading: the ability ignored (2 against 2, both die),
/// or given to every mover.
#[test]
fn a_legend_weakens_an_enemy_attacking_its_battlefield() {
    use gridsim_riftbound::cards::LegendAbility;
    let c = catalog_with_legend(LegendAbility::WeakenAttackers { might: -1 });
    let mut g = ready_to_act(&c, 0, &[]);
    let raider = put_unit(&mut g, 0, Place::Base);
    let scout = put_unit(&mut g, 0, Place::Base);
    let guard = put_unit(&mut g, 1, Place::Field(1));
    g.act(
        0,
        Action::Move {
            units: 1 << scout,
            to: 0,
        },
    );
    assert_eq!(g.units.turn_might[scout], 0, "an empty battlefield: no attack");
    g.act(
        0,
        Action::Move {
            units: 1 << raider,
            to: 1,
        },
    );
    assert!(g.units.alive[guard], "the raider's 1 does not kill the guard");
    assert!(!g.units.alive[raider], "the guard's 2 kill the raider");
}

/// 167.8, Yasuo, Unforgiven: "2, exhaust me: move a friendly unit to or
/// from its base". A move by an ability is no standard move (141): an
/// exhausted unit (played this turn) goes, and stays as it was; arriving
/// at a battlefield the opponent holds starts a combat (322.6). The
/// misreadings: only ready units moved (the ability a standard move), the
/// unit exhausted by it, or no contest on arrival.
#[test]
fn a_legend_moves_an_exhausted_unit_and_it_contests() {
    use gridsim_riftbound::cards::LegendAbility;
    let c = catalog_with_legend(LegendAbility::MoveAUnit { energy: 2 });
    let mut g = ready_to_act(&c, 3, &[]);
    let fresh = put_unit(&mut g, 0, Place::Base);
    g.units.exhausted[fresh] = true;
    let guard = put_unit(&mut g, 1, Place::Field(1));
    g.units.turn_might[fresh] = 1;
    g.act(0, Action::Legend { unit: fresh, to: 1 });
    assert!(g.sides[0].legend_exhausted);
    assert_eq!(g.sides[0].runes.ready_total(), 1, "its 2 Energy paid");
    assert!(!g.units.alive[guard], "the combat is played: 3 against 2");
    assert_eq!(g.units.place[fresh], Place::Field(1), "it conquered");
    assert_eq!(logged(&g, GameEventKind::Showdown), 1);
    let mut g = ready_to_act(&c, 3, &[]);
    let home = put_unit(&mut g, 0, Place::Field(0));
    g.act(0, Action::Legend { unit: home, to: 0 });
    assert_eq!(g.units.place[home], Place::Base, "from a battlefield: home");
    assert!(!g.units.exhausted[home], "not exhausted by the move");
    assert_eq!(logged(&g, GameEventKind::Showdown), 0, "a base is never contested");
}

/// The Legends' catalog with a Recruit token (card 10) for Viktor.
fn catalog_with_token() -> Catalog {
    use gridsim_riftbound::cards::LegendAbility;
    let mut c = catalog_with_plays();
    let mut recruit = card("recruit", CardKind::Unit, 1, 0, 0);
    recruit.token = true;
    c.cards.push(recruit);
    c.cards[0].legend_ability = Some(LegendAbility::PlayAToken { energy: 1, token: 10 });
    c
}

/// 167.8 and 179, Viktor, Herald of the Arcane: "1, exhaust me: play a 1
/// Might Recruit unit token". The token is a unit: it enters its base
/// exhausted (140.4) and counts as the player's; it is not a card, so
/// once killed it goes to no trash and cannot be drawn again. The
/// misreadings: the token entering ready, or left in the trash (where a
/// burn out would shuffle it into the deck).
#[test]
fn a_legend_plays_a_token_that_leaves_no_card() {
    let c = catalog_with_token();
    let mut g = ready_to_act(&c, 2, &[]);
    g.act(0, Action::Legend { unit: MAX_UNITS, to: 0 });
    let token = (0..MAX_UNITS).find(|&u| g.units.alive[u] && g.units.card[u] == 10);
    let token = token.expect("a Recruit on the board");
    assert_eq!(g.units.place[token], Place::Base);
    assert!(g.units.exhausted[token], "it enters exhausted (140.4)");
    assert_eq!(g.sides[0].runes.ready_total(), 1, "its Energy paid");
    assert!(
        g.card_events.iter().all(|e| e.card != 10),
        "no card played: the token is not a card of the deck"
    );
    let trash = g.sides[0].trash.len();
    g.units.exhausted[token] = false;
    let guard = put_unit(&mut g, 1, Place::Field(0));
    g.act(
        0,
        Action::Move {
            units: 1 << token,
            to: 0,
        },
    );
    assert!(!g.units.alive[token] && g.units.alive[guard], "1 against 2");
    assert_eq!(g.sides[0].trash.len(), trash, "the token went to no trash (179)");
}

/// 167.8, Darius, Hand of Noxus: "exhaust me: Legion — add 1 Energy".
/// Legion asks for a card played by its player this turn; the Energy
/// pays the next cost, and what is left empties at the end of the turn
/// (160). The misreadings: Legion ignored (the Energy before any play),
/// the pool never spent, or kept into the next turn.
#[test]
fn a_legend_adds_energy_once_a_card_is_played() {
    use gridsim_riftbound::cards::LegendAbility;
    let c = catalog_with_legend(LegendAbility::LegionEnergy { energy: 1 });
    let mut g = ready_to_act(&c, 3, &[2, 2]);
    assert!(!g.can_use_legend(0, MAX_UNITS), "no card played yet: no Legion");
    g.act(0, Action::Legend { unit: MAX_UNITS, to: 0 });
    assert_eq!(g.sides[0].runes.pool, 0);
    g.act(
        0,
        Action::PlayFromHand {
            k: 0,
            accelerate: false,
        },
    );
    assert!(!g.can_play_unit(0, 2), "1 rune left for a 2-Energy grunt");
    g.act(0, Action::Legend { unit: MAX_UNITS, to: 0 });
    assert_eq!(g.sides[0].runes.pool, 1, "Legion: an Energy added");
    assert!(g.can_play_unit(0, 2), "the rune and the pool pay it");
    g.act(
        0,
        Action::PlayFromHand {
            k: 0,
            accelerate: false,
        },
    );
    assert_eq!(g.units.count_of(0), 2);
    assert_eq!(g.sides[0].runes.pool, 0, "spent");
    let mut g = ready_to_act(&c, 3, &[2]);
    g.act(
        0,
        Action::PlayFromHand {
            k: 0,
            accelerate: false,
        },
    );
    g.act(0, Action::Legend { unit: MAX_UNITS, to: 0 });
    g.end_of_turn();
    assert_eq!(
        g.sides[0].runes.pool, 0,
        "the pool empties at the end of the turn (160)"
    );
}

/// Legion (Noxus Hopeful: "Legion — I cost 2 less"): the discount comes
/// once its player has played another card this turn, and the card event
/// records the cost paid. The misreadings: the discount always (the
/// first play at 2), never (the second refused with 3 runes left), or the
/// printed cost recorded.
#[test]
fn legion_takes_energy_off_once_another_card_is_played() {
    let mut c = catalog_with_plays();
    let mut hopeful = card("hopeful", CardKind::Unit, 4, 4, FURY);
    hopeful.legion_discount = 2;
    c.cards.push(hopeful);
    let mut g = ready_to_act(&c, 5, &[10, 2]);
    assert_eq!(g.play_cost(0, 10, false).energy, 4, "no card played yet");
    g.act(
        0,
        Action::PlayFromHand {
            k: 1,
            accelerate: false,
        },
    );
    assert_eq!(g.sides[0].runes.ready_total(), 3);
    assert_eq!(g.play_cost(0, 10, false).energy, 2, "Legion: 2 less");
    g.act(
        0,
        Action::PlayFromHand {
            k: 0,
            accelerate: false,
        },
    );
    assert_eq!(g.units.count_of(0), 2, "played for 2");
    assert_eq!(g.sides[0].runes.ready_total(), 1);
    let event = g
        .card_events
        .iter()
        .rev()
        .find(|e| e.card == 10)
        .expect("its card event");
    assert_eq!(event.energy, 2, "the cost paid, not the printed one");
    g.turn += 1;
    assert_eq!(
        g.play_cost(0, 10, false).energy,
        4,
        "a new turn: no card played in it yet"
    );
}

/// 721 through the kernel: a unit with a "when you play me" trigger is
/// played by the kernel's chain, and what the game reckons it costs (its
/// Accelerate here) is what the kernel pays. The misreading: the kernel
/// paying the printed cost, so the Accelerate is free.
#[test]
fn the_kernel_pays_what_the_game_reckons_a_play_costs() {
    let mut c = catalog_with_plays();
    c.cards[9].accelerate = true;
    let mut g = ready_to_act(&c, 3, &[9]);
    g.act(0, Action::PlayFromHand { k: 0, accelerate: true });
    let u = (0..MAX_UNITS).find(|&u| g.units.alive[u] && g.units.card[u] == 9);
    assert!(!g.units.exhausted[u.expect("played")], "it enters ready (721)");
    assert_eq!(
        (g.sides[0].runes.ready_total(), g.sides[0].runes.total()),
        (1, 2),
        "1 Energy and 1 Energy and 1 Fury Power more: two runes exhausted, one recycled"
    );
}

mod away_triggers;
mod card_texts;
