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
    let attacker = Lane {
        units: vec![unit(0)],
        ..Lane::default()
    };
    let defender = Lane {
        units: vec![unit(1), unit(2)],
        ..Lane::default()
    };
    let outcome = s.play_with(&attacker, &defender, &mut AsGiven);
    assert_eq!(outcome.end, End::Hold, "the defenders' 4 kill the raider");
    assert!(s.board.alive(UnitId(1)), "the small unit takes nothing");
    assert!(!s.board.alive(UnitId(2)), "the Tank takes its lethal 3");
}
