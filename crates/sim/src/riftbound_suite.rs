//! A Riftbound suite: a pool of lanes drawn from the catalog under the
//! suite's stated rules, and which two lanes meet in showdown `i`, who
//! attacks, and the stream the showdown plays on (docs/riftbound.md).
//! Lane `k` and showdown `i` depend only on the master seed and their
//! index, so any part of a run is played alike on any thread.

use gridsim_engine::FightRng;
use gridsim_riftbound::cards::{CardKind, Catalog};
use gridsim_riftbound::showdown::{Lane, LaneUnit, Policy};

/// Lanes are drawn from this stream of the master seed, apart from every
/// showdown's own.
const LANE_SALT: u64 = 0x7269_6674_6c61_6e65;

/// How lanes are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneRules {
    pub lanes: u32,
    /// Units per lane, at least and at most.
    pub units_min: u32,
    pub units_max: u32,
    /// The chance, in percent, that a unit holds one gear.
    pub gear_percent: i32,
    /// Spells in each hand, at least and at most.
    pub hand_min: u32,
    pub hand_max: u32,
}

/// A loaded suite.
#[derive(Debug, Clone, PartialEq)]
pub struct Suite {
    pub name: String,
    pub showdowns: u64,
    pub master_seed: u64,
    pub rules: LaneRules,
    pub policy: Policy,
    pub lanes: Vec<Lane>,
}

/// One showdown of a suite: which lanes, who attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pairing {
    pub left: u32,
    pub right: u32,
    /// Whether the left lane attacks.
    pub left_attacks: bool,
}

impl Suite {
    /// Draws the suite's lanes from `catalog`. The loader has checked that
    /// the catalog holds a unit, and a gear and a spell where the rules
    /// ask for them.
    pub fn draw_lanes(&mut self, catalog: &Catalog) {
        let units = catalog.of_kind(CardKind::Unit);
        // A lane's unit holds gear that is worn, not gear with an ability
        // used from the base.
        let mut gear = catalog.of_kind(CardKind::Gear);
        gear.retain(|&g| catalog.card(g).ability.is_none());
        let spells = catalog.of_kind(CardKind::Spell);
        let r = self.rules;
        self.lanes = (0..u64::from(r.lanes))
            .map(|k| {
                let mut rng = FightRng::for_fight(self.master_seed ^ LANE_SALT, k);
                let n = r.units_min + rng.below(r.units_max - r.units_min + 1);
                let units = (0..n)
                    .map(|_| LaneUnit {
                        card: units[rng.below(units.len() as u32) as usize],
                        gear: (!gear.is_empty() && rng.chance_percent(r.gear_percent))
                            .then(|| gear[rng.below(gear.len() as u32) as usize]),
                        second_gear: None,
                        stolen: false,
                        at_base: false,
                        buffed: false,
                        ..LaneUnit::default()
                    })
                    .collect();
                let hand = if spells.is_empty() {
                    Vec::new()
                } else {
                    let n = r.hand_min + rng.below(r.hand_max - r.hand_min + 1);
                    (0..n)
                        .map(|_| spells[rng.below(spells.len() as u32) as usize])
                        .collect()
                };
                Lane {
                    units,
                    hand,
                    ..Lane::default()
                }
            })
            .collect();
    }

    /// Showdown `i`: two different lanes, each side's chance to attack
    /// even, and the stream that goes on to play it.
    pub fn pairing(&self, i: u64) -> (Pairing, FightRng) {
        let mut rng = FightRng::for_fight(self.master_seed, i);
        let n = self.lanes.len() as u32;
        let left = rng.below(n);
        let mut right = rng.below(n - 1);
        if right >= left {
            right += 1;
        }
        let left_attacks = rng.below(2) == 0;
        (
            Pairing {
                left,
                right,
                left_attacks,
            },
            rng,
        )
    }
}
