//! Showdown rules checked on a catalog built here; each test names the
//! misreading it would catch.

use super::*;

/// Keeps every order as given and plays nothing.
struct AsGiven;

impl Choices for AsGiven {
    fn play(&mut self, _p: Player, _castable: &[CardIndex]) -> Option<usize> {
        None
    }
    fn target(&mut self, _p: Player, _card: CardIndex, _unit: Option<UnitId>, _legal: &[UnitId]) -> usize {
        0
    }
    fn order(&mut self, _p: Player, _items: &mut [(usize, Option<UnitId>)]) {}
    fn damage_order(&mut self, _p: Player, _targets: &mut [UnitId]) {}
    fn may(&mut self, _p: Player, _card: CardIndex) -> bool {
        false
    }
    fn discard(&mut self, _p: Player, _hand: &[CardIndex]) -> usize {
        0
    }
    fn hide(&mut self, _p: Player, _card: CardIndex) -> bool {
        false
    }
}

/// An attacker's lane and a defender's, of units of these cards.
fn lanes(attackers: &[CardIndex], defenders: &[CardIndex]) -> (Lane, Lane) {
    let lane = |cards: &[CardIndex]| Lane {
        units: cards.iter().map(|&c| unit(c)).collect(),
        ..Lane::default()
    };
    (lane(attackers), lane(defenders))
}

/// A trigger of `when` doing `action` to `target`: not optional, "here",
/// with no Legion.
fn trigger(
    when: crate::cards::When,
    target: crate::cards::Target,
    action: crate::cards::Action,
) -> crate::cards::Trigger {
    crate::cards::Trigger {
        when,
        effect: crate::cards::Effect {
            target,
            action,
            optional: false,
            anywhere: false,
            legion: false,
        },
    }
}

fn unit(card: CardIndex) -> LaneUnit {
    LaneUnit {
        card,
        ..LaneUnit::default()
    }
}

/// Core Rules 731: the attacker's 3 damage go to the defending Tank
/// (Might 3) before the 1-Might unit its assigner put first: the Tank
/// dies and the small unit lives. The misreading: Tank ignored, the
/// small unit killed first and the Tank left with 2 damage.
#[test]
fn a_tank_takes_lethal_damage_first() {
    let mut tank = Card::plain("tank", CardKind::Unit, 3);
    tank.tank = true;
    let catalog = Catalog {
        cards: vec![
            Card::plain("raider", CardKind::Unit, 3),
            Card::plain("small", CardKind::Unit, 1),
            tank,
        ],
    };
    let mut s = Showdown::new(&catalog, false);
    let (attacker, defender) = lanes(&[0], &[1, 2]);
    let outcome = s.play_with(&attacker, &defender, &mut AsGiven);
    assert_eq!(outcome.end, End::Hold, "the defenders' 4 kill the raider");
    assert!(s.board.alive(UnitId(1)), "the small unit takes nothing");
    assert!(!s.board.alive(UnitId(2)), "the Tank takes its lethal 3");
}

/// Core Rules 179, Noxian Drummer: "when I move to a battlefield, play a
/// 1 Might Recruit unit token here". The Recruit enters at the
/// battlefield as the move trigger resolves, before combat, and fights as
/// an attacker (RB3): 3 and 1 against a 3-Might defender conquer. A token
/// is no card: none goes to a trash. The misreadings: the token at the
/// base (3 against 3: nobody is left), or none played.
#[test]
fn a_move_trigger_plays_a_token_that_attacks() {
    use crate::cards::{Action as Does, Target, When};
    let mut drummer = Card::plain("drummer", CardKind::Unit, 3);
    drummer.triggers = vec![trigger(
        When::Move,
        Target::Me,
        Does::PlayToken {
            token: 2,
            at_base: false,
        },
    )];
    let mut recruit = Card::plain("recruit", CardKind::Unit, 1);
    recruit.token = true;
    let catalog = Catalog {
        cards: vec![drummer, Card::plain("guard", CardKind::Unit, 3), recruit],
    };
    let mut s = Showdown::new(&catalog, false);
    let (attacker, defender) = lanes(&[0], &[1]);
    let outcome = s.play_with(&attacker, &defender, &mut AsGiven);
    assert_eq!(outcome.end, End::Conquer, "4 against 3");
    let token = UnitId(2);
    assert_eq!(s.board.card(token), 2, "the Recruit is the third unit on the board");
    assert_eq!(
        s.board.trash,
        [u32::from(!s.board.alive(UnitId(0))), 1],
        "the guard and, if it died, the Drummer: a dead token fills no trash"
    );
}

/// Core Rules 179: a token killed goes to no trash, and one returned to
/// hand to no hand; a card does. The misreading: a token counted as the
/// card it is not.
#[test]
fn a_token_leaving_the_board_counts_in_no_zone() {
    let mut b = Board::default();
    let card = b.add_unit(1).expect("room");
    let token = b.add_unit(1).expect("room");
    let returned = b.add_unit(1).expect("room");
    b.set_token(token);
    b.set_token(returned);
    b.kill(card, "test");
    b.kill(token, "test");
    b.return_to_hand(returned);
    assert_eq!(b.trash[0], 1, "the card alone");
    assert_eq!(b.returned[0], 0, "a token is no card in a hand");
}

/// Core Rules 361, Darius, Executioner ("other friendly units here have
/// +1 Might"): a showdown gives a unit its card's passive, so the raider
/// (2, and 1 from the captain) and the captain (2) deal 5 and conquer a
/// 4-Might defender's battlefield. The misreading: the passive a loader
/// key the showdown never reads (4 against 4: the defender holds).
#[test]
fn a_units_passive_counts_in_combat() {
    let mut captain = Card::plain("captain", CardKind::Unit, 2);
    captain.passive = Some(crate::cards::Passive::OthersHere(1));
    let catalog = Catalog {
        cards: vec![
            Card::plain("raider", CardKind::Unit, 2),
            captain,
            Card::plain("wall", CardKind::Unit, 4),
        ],
    };
    let mut s = Showdown::new(&catalog, false);
    let (attacker, defender) = lanes(&[0, 1], &[2]);
    let outcome = s.play_with(&attacker, &defender, &mut AsGiven);
    assert_eq!(outcome.end, End::Conquer);
}

/// Volibear, Furious: "when I attack, deal 5 split among enemy units
/// here". Against defenders of Might 2 and 4 (in the order given) the
/// split gives the first its lethal 2 and the last the 3 left, before
/// combat. The misreadings: the 5 dealt to one enemy unit, or 5 to each.
#[test]
fn split_damage_takes_each_enemy_units_lethal_in_turn() {
    use crate::cards::{Action as Does, Target, When};
    use crate::{Event, EventKind};
    let mut bear = Card::plain("bear", CardKind::Unit, 1);
    bear.triggers = vec![trigger(When::Attack, Target::EachEnemy, Does::DamageSplit(5))];
    let catalog = Catalog {
        cards: vec![
            bear,
            Card::plain("two", CardKind::Unit, 2),
            Card::plain("four", CardKind::Unit, 4),
        ],
    };
    let mut s = Showdown::new(&catalog, true);
    let (attacker, defender) = lanes(&[0], &[1, 2]);
    s.play_with(&attacker, &defender, &mut AsGiven);
    let first_damage = |u: u8| {
        s.board
            .log
            .iter()
            .find(|e: &&Event| e.kind == EventKind::Damaged && e.unit == Some(UnitId(u)))
            .map(|e| e.amount)
    };
    assert_eq!((first_damage(1), first_damage(2)), (Some(2), Some(3)));
}
