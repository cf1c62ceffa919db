//! Triggers a game resolves for units no showdown holds, and the kernel's
//! for those it does: Darius, Trifarian's "when you play your second card
//! in a turn" and Viktor, Leader's "when another non-Recruit unit you
//! control dies" (docs/riftbound-reconstruction.md, "Triggers away from a
//! showdown"); each test names the misreading it would catch.

use super::*;
use gridsim_riftbound::cards::{Action as Does, When};

/// The small catalog with plays, a token Recruit (card 10), Darius (11:
/// "+2 Might this turn, ready me" on the second card) and Viktor (12: a
/// Recruit at base for each other non-Recruit friendly unit that dies).
fn catalog_with_champions() -> Catalog {
    let mut c = catalog_with_plays();
    let mut recruit = card("recruit", CardKind::Unit, 1, 0, 0);
    recruit.token = true;
    recruit.tag = gridsim_riftbound::cards::RECRUIT.into();
    let mut darius = card("darius", CardKind::Unit, 5, 2, FURY);
    let plus_two = might_this_turn(2);
    darius.triggers = vec![on_me(When::SecondCard, plus_two), on_me(When::SecondCard, Does::Ready)];
    let mut viktor = card("viktor", CardKind::Unit, 4, 2, FURY);
    let recruit_at_base = Does::PlayToken {
        token: RECRUIT,
        at_base: true,
    };
    viktor.triggers = vec![on_me(When::FriendlyDies, recruit_at_base)];
    c.cards.extend([recruit, darius, viktor]);
    c
}

const RECRUIT: CardIndex = 10;
const DARIUS: CardIndex = 11;
const VIKTOR: CardIndex = 12;
const GRUNT: CardIndex = 2;
const BOLT: CardIndex = 5;

fn put(g: &mut Game, seat: Seat, card: CardIndex, place: Place, exhausted: bool) -> usize {
    let u = put_unit(g, seat, place);
    g.units.card[u] = card;
    g.units.exhausted[u] = exhausted;
    u
}

fn play_first(g: &mut Game) {
    let play = Action::PlayFromHand {
        k: 0,
        accelerate: false,
    };
    g.act(0, play);
}

fn recruits(g: &Game, seat: Seat) -> usize {
    (0..MAX_UNITS)
        .filter(|&u| g.units.alive[u] && g.units.owner[u] == seat && g.units.card[u] == RECRUIT)
        .count()
}

/// Darius, Trifarian, exhausted at its base: the first card played gives
/// nothing, the second "+2 Might this turn and ready me", the third
/// nothing more (once a turn). The misreadings: every card played, the
/// first, or the trigger never played by the game (a unit without a "when
/// you play me" never reaches the kernel).
#[test]
fn the_second_card_played_readies_and_grows_darius_once() {
    let c = catalog_with_champions();
    let mut g = ready_to_act(&c, 6, &[GRUNT, GRUNT, GRUNT]);
    let darius = put(&mut g, 0, DARIUS, Place::Base, true);
    play_first(&mut g);
    assert_eq!((g.units.turn_might[darius], g.units.exhausted[darius]), (0, true));
    play_first(&mut g);
    assert_eq!(g.cards_played_this_turn(0), 2);
    assert_eq!((g.units.turn_might[darius], g.units.exhausted[darius]), (2, false));
    assert_eq!(logged(&g, GameEventKind::Triggered), 2, "its two triggers");
    play_first(&mut g);
    assert_eq!(g.units.turn_might[darius], 2, "the third card sets off nothing");
    assert_eq!(logged(&g, GameEventKind::Triggered), 2);
}

/// Darius played as the second card sees itself (a judge's ruling): it
/// enters exhausted (140.4), then its trigger readies it. The misreading:
/// only units already on the board see the second card.
#[test]
fn darius_played_as_the_second_card_readies_itself() {
    let c = catalog_with_champions();
    let mut g = ready_to_act(&c, 6, &[GRUNT, DARIUS]);
    play_first(&mut g);
    play_first(&mut g);
    let darius = (0..MAX_UNITS).find(|&u| g.units.alive[u] && g.units.card[u] == DARIUS);
    let darius = darius.expect("Darius played");
    assert_eq!((g.units.turn_might[darius], g.units.exhausted[darius]), (2, false));
}

/// A second card resolved by the kernel (a spell of the action phase aimed
/// at battlefield 0): the Darius at its base is on the kernel's board and
/// gets the kernel's trigger, the Darius at battlefield 1 is not and gets
/// the game's; each once. The misreadings: only the kernel's (the far
/// Darius left exhausted), or both (the near one +4).
#[test]
fn a_second_card_in_the_kernel_reaches_darius_on_and_off_its_board() {
    let c = catalog_with_champions();
    let mut g = ready_to_act(&c, 6, &[GRUNT, BOLT]);
    let near = put(&mut g, 0, DARIUS, Place::Base, true);
    let far = put(&mut g, 0, DARIUS, Place::Field(1), true);
    let enemy = put(&mut g, 1, GRUNT, Place::Field(0), false);
    play_first(&mut g);
    g.act(0, Action::Cast { card: BOLT, at: 0 });
    assert!(!g.units.alive[enemy], "the bolt resolved");
    for d in [near, far] {
        assert_eq!(
            (g.units.turn_might[d], g.units.exhausted[d]),
            (2, false),
            "Darius in slot {d}"
        );
    }
    assert_eq!(
        logged(&g, GameEventKind::Triggered),
        2,
        "the game resolved the far Darius's two triggers only"
    );
}

/// Viktor, Leader away from the battlefield where its player's unit dies
/// (a bolt at battlefield 1, Viktor at battlefield 0): the game plays a
/// Recruit at its base; at the same battlefield the kernel does; a Recruit
/// dying plays none. The misreadings: the trigger seen only at its own
/// battlefield, the token played where the unit died, or a Recruit's death
/// counted (a Recruit per Recruit, without end).
#[test]
fn a_friendly_death_plays_a_recruit_at_base_wherever_viktor_is() {
    let c = catalog_with_champions();
    for viktor_at in [Place::Field(0), Place::Field(1)] {
        // The bolt's target is drawn: at battlefield 1 it may be Viktor,
        // who survives it, and then nothing died.
        let mut deaths = 0;
        for seed in 0..8 {
            let mut g = ready_to_act(&c, 2, &[BOLT]);
            g.rng = FightRng::for_fight(seed, 0);
            let viktor = put(&mut g, 1, VIKTOR, viktor_at, false);
            let victim = put(&mut g, 1, GRUNT, Place::Field(1), false);
            g.act(0, Action::Cast { card: BOLT, at: 1 });
            assert!(g.units.alive[viktor]);
            // Its slot may hold the Recruit now.
            let died = usize::from(!(g.units.alive[victim] && g.units.card[victim] == GRUNT));
            deaths += died;
            assert_eq!(recruits(&g, 1), died, "Viktor at {viktor_at:?}, seed {seed}");
            let token = (0..MAX_UNITS).find(|&u| g.units.alive[u] && g.units.card[u] == RECRUIT);
            if let Some(t) = token {
                assert_eq!(g.units.place[t], Place::Base, "to its base");
            }
        }
        assert!(deaths > 0, "Viktor at {viktor_at:?}: the grunt died in some seed");
    }
    let mut g = ready_to_act(&c, 2, &[BOLT]);
    put(&mut g, 1, VIKTOR, Place::Field(0), false);
    put(&mut g, 1, RECRUIT, Place::Field(1), false);
    g.act(0, Action::Cast { card: BOLT, at: 1 });
    assert_eq!(recruits(&g, 1), 0, "a Recruit's death plays none");
}

/// 409, RB40: a discard in a combat at battlefield 0 (the defender's
/// Deathknell "discard 1") sets off "when you discard, +1 Might this turn"
/// of its player's unit at battlefield 1, which the combat's board does
/// not hold (the game's), and of its unit at the battlefield (the
/// kernel's), each once. The misreadings: a unit away from the showdown
/// not set off, or set off by both the kernel and the game (+2).
#[test]
fn a_discard_in_a_combat_sets_off_the_discard_triggers_away_from_it() {
    let mut c = catalog_with_champions();
    let agent_card = c.cards.len() as CardIndex;
    let mut agent = card("agent", CardKind::Unit, 1, 2, FURY);
    agent.triggers = vec![on_me(When::Death, Does::Discard(1))];
    let mut rebel = card("rebel", CardKind::Unit, 5, 3, FURY);
    let plus_one = might_this_turn(1);
    rebel.triggers = vec![on_me(When::Discard, plus_one)];
    c.cards.extend([agent, rebel]);
    let rebel_card = agent_card + 1;
    let mut g = ready_to_act(&c, 0, &[]);
    let mover = put_unit(&mut g, 0, Place::Base);
    let agent = put(&mut g, 1, agent_card, Place::Field(0), false);
    let near = put(&mut g, 1, rebel_card, Place::Field(0), false);
    let far = put(&mut g, 1, rebel_card, Place::Field(1), false);
    g.sides[1].hand.clear();
    g.sides[1].hand.push(GRUNT);
    g.act(
        0,
        Action::Move {
            units: 1 << mover,
            to: 0,
        },
    );
    assert!(
        !g.units.alive[agent] || g.units.card[agent] != agent_card,
        "the agent died"
    );
    assert_eq!(
        g.sides[1].trash.as_slice().iter().filter(|&&c| c == GRUNT).count(),
        1,
        "the grunt discarded"
    );
    assert_eq!(g.units.turn_might[far], 1, "the Rebel away from the combat");
    assert_eq!(g.units.turn_might[near], 1, "the Rebel in it, once");
}
