//! Card texts a game plays beyond its turn: discards (409, RB40), Sett's
//! Legend (167.7) and Legion's ready and buff (728), each on the small
//! catalog of the parent module; each test names the misreading it would
//! catch.

use super::*;

/// 409, RB40: a "when you play me, discard 2" trigger discards two cards of
/// its player's hand — a planned bot the costliest, a unit too, which no
/// showdown offers — each to the trash, each recorded, each setting off a
/// "when you discard" trigger of a unit at its base. The misreadings: the
/// trigger ignored in the action phase, only the spells within reach (the
/// champion kept), a discarded spell counted as played, or the discard
/// trigger of a unit at its base not set off.
#[test]
fn a_play_trigger_discards_the_costliest_cards_and_sets_off_discard_triggers() {
    use gridsim_riftbound::cards::{Action as Does, When};
    let mut c = catalog_with_plays();
    let wrecker_card = c.cards.len() as CardIndex;
    let mut wrecker = card("wrecker", CardKind::Unit, 4, 2, FURY);
    wrecker.triggers = vec![on_me(When::Play, Does::Discard(2))];
    let mut rebel = card("rebel", CardKind::Unit, 3, 5, FURY);
    let plus_one = might_this_turn(1);
    rebel.triggers = vec![on_me(When::Discard, plus_one)];
    c.cards.extend([wrecker, rebel]);
    let (bolt, champion, grunt) = (5, 1, 2);
    let mut g = ready_to_act(&c, 2, &[wrecker_card, bolt, champion, grunt]);
    let r = put_unit(&mut g, 0, Place::Base);
    g.units.card[r] = wrecker_card + 1;
    g.act(
        0,
        Action::PlayCard {
            card: wrecker_card,
            accelerate: false,
        },
    );
    assert!((0..MAX_UNITS).any(|u| g.units.alive[u] && g.units.card[u] == wrecker_card));
    assert_eq!(
        g.sides[0].hand.as_slice(),
        &[bolt],
        "the champion (4) and the grunt (2) discarded"
    );
    assert_eq!(g.sides[0].trash.as_slice(), &[champion, grunt]);
    assert_eq!(logged(&g, GameEventKind::Discarded), 2);
    let events = |kind| g.card_events.iter().filter(|e| e.kind == kind).count();
    assert_eq!(events(CardEventKind::Discarded), 2);
    assert_eq!(events(CardEventKind::Played), 1, "only the wrecker was played");
    assert_eq!(g.units.turn_might[r], 2, "+1 this turn for each discard");
}

/// 409, RB40: a spell discarded in a combat (a defender's Deathknell
/// "discard 1" with only a spell in hand) goes to the trash as discarded,
/// not as played. The misreading: every spell that left the showdown's
/// hand counted as played.
#[test]
fn a_spell_discarded_in_a_combat_is_not_counted_as_played() {
    use gridsim_riftbound::cards::{Action as Does, When};
    let mut c = catalog_with_plays();
    let agent_card = c.cards.len() as CardIndex;
    let mut agent = card("agent", CardKind::Unit, 1, 2, FURY);
    agent.triggers = vec![on_me(When::Death, Does::Discard(1))];
    c.cards.push(agent);
    let bolt = 5;
    let mut g = ready_to_act(&c, 0, &[]);
    let mover = put_unit(&mut g, 0, Place::Base);
    let defender = put_unit(&mut g, 1, Place::Field(0));
    g.units.card[defender] = agent_card;
    g.sides[1].hand.clear();
    g.sides[1].hand.push(bolt);
    g.sides[1].runes = Runes::default();
    g.act(
        0,
        Action::Move {
            units: 1 << mover,
            to: 0,
        },
    );
    assert!(!g.units.alive[defender], "Might 2 against 1");
    assert!(g.sides[1].hand.is_empty());
    assert!(g.sides[1].trash.as_slice().contains(&bolt));
    let of = |kind| g.card_events.iter().filter(|e| e.seat == 1 && e.kind == kind).count();
    assert_eq!((of(CardEventKind::Discarded), of(CardEventKind::Played)), (1, 0));
}

/// 167.7, Sett, The Boss: a buffed unit of its player that would die
/// spends its Buff and is recalled, healed, instead (RB9, RB18, RB31),
/// the Legend exhausted, so a second buffed unit dies; a conquest that
/// scores readies the Legend. The misreadings: the save never made, made
/// without exhausting the Legend (the second unit saved too), the Buff
/// kept, the damage kept, or the Legend left exhausted after a conquest.
#[test]
fn a_legend_saves_one_buffed_unit_and_a_conquest_readies_it() {
    use gridsim_riftbound::cards::LegendAbility;
    let c = catalog_with_legend(LegendAbility::SaveABuffedUnit);
    let mut g = ready_to_act(&c, 0, &[]);
    let champion = 1;
    let first = put_unit(&mut g, 0, Place::Base);
    let second = put_unit(&mut g, 0, Place::Base);
    g.units.card[first] = champion;
    g.units.card[second] = champion;
    let saved = put_unit(&mut g, 1, Place::Field(0));
    let doomed = put_unit(&mut g, 1, Place::Field(1));
    g.units.buffed[saved] = true;
    g.units.buffed[doomed] = true;
    g.sides[0].legend_exhausted = true;
    g.act(
        0,
        Action::Move {
            units: 1 << first,
            to: 0,
        },
    );
    assert!(g.units.alive[saved], "Might 3 against 4: saved");
    assert_eq!(g.units.place[saved], Place::Base);
    assert!(
        !g.units.buffed[saved] && g.units.damage[saved] == 0,
        "its Buff spent, its damage healed"
    );
    assert!(g.sides[1].legend_exhausted, "the save exhausts the Legend");
    assert!(!g.sides[0].legend_exhausted, "seat 0 conquered: its Legend readied");
    g.act(
        0,
        Action::Move {
            units: 1 << second,
            to: 1,
        },
    );
    assert!(!g.units.alive[doomed], "the Legend exhausted: no second save");
}

/// 728: Legion on a play trigger ("Legion — when you play me, buff me")
/// and on entering ("Legion — I enter ready"): each only once its player
/// has played another card this turn, its own play not counted. The
/// misreadings: Legion ignored (the buff or the ready always, or never),
/// or a card's own play counted as the other card.
#[test]
fn legion_buffs_on_play_and_enters_ready_only_after_another_card() {
    use gridsim_riftbound::cards::{Action as Does, When};
    let mut c = catalog_with_plays();
    let seeker_card = c.cards.len() as CardIndex;
    let mut seeker = card("seeker", CardKind::Unit, 2, 1, FURY);
    let mut buff_with_legion = on_me(When::Play, Does::Buff);
    buff_with_legion.effect.legion = true;
    seeker.triggers = vec![buff_with_legion];
    let mut captain = card("captain", CardKind::Unit, 4, 1, FURY);
    captain.legion_ready = true;
    c.cards.extend([seeker, captain]);
    let captain_card = seeker_card + 1;
    let play = |g: &mut Game, card| {
        g.act(
            0,
            Action::PlayCard {
                card,
                accelerate: false,
            },
        )
    };
    let unit = |g: &Game, card| {
        (0..MAX_UNITS)
            .find(|&u| g.units.alive[u] && g.units.card[u] == card)
            .expect("played")
    };
    // First card of the turn: no Legion.
    let mut g = ready_to_act(&c, 4, &[seeker_card, captain_card]);
    play(&mut g, seeker_card);
    assert!(!g.units.buffed[unit(&g, seeker_card)], "its own play is no other card");
    // The captain after the seeker: Legion holds.
    play(&mut g, captain_card);
    let u = unit(&g, captain_card);
    assert!(!g.units.exhausted[u], "Legion: it enters ready");
    assert!(
        g.log
            .iter()
            .any(|e| e.kind == GameEventKind::Played && e.card == Some(captain_card) && e.rule == "728")
    );
    // The other way round.
    let mut g = ready_to_act(&c, 4, &[seeker_card, captain_card]);
    play(&mut g, captain_card);
    assert!(
        g.units.exhausted[unit(&g, captain_card)],
        "no Legion: it enters exhausted (140.4)"
    );
    play(&mut g, seeker_card);
    assert!(
        g.units.buffed[unit(&g, seeker_card)],
        "Legion: its play trigger buffs it"
    );
}
