//! A fight that continues where others left off: a rescue (200.2c).
//!
//! "Each fight opens from the rescuer's current state (vitality, statuses,
//! charges, and ledger carry over with no heal) against the enemy exactly
//! as it stood when that teammate was wiped." So a rescue is no new
//! battle: each side is taken out of the fight it last stood in, every
//! column of every unit as it was ([`SideEnd`]), and set down in the
//! rescue ([`Engine::resume`]) with no battle-start pass. Hub grants,
//! Markups, Braced and battle-start lines have already happened
//! (800.44a), and Dread, Kindled, Interest, Crush, Smash, Roost, Hallow,
//! Vessels, a boss's phase and its Stagger meter stand as they stood.
//!
//! The two sides come from two fights, each with its own clock and its
//! own unit indices, so what a row says in those terms is translated
//! (docs/rules-reconstruction.md, "Rescue fights"):
//! - The rescue's clock starts at 0: every absolute time of a side (a
//!   Burn or Venom tick, a Crush expiry, a Hallow or Fleeting step, the
//!   charge's settling point, a timed resonance's end) moves earlier by
//!   the time its fight ended at, so what was 300 ms away still is. Timers
//!   are kept as time left and need nothing.
//! - A side's units keep their order and take the indices after the
//!   units placed before them; a reference to an ally follows it, and a
//!   reference to a unit of the other fight (the applier of a Burn stack,
//!   a Tool's Crush key, the last target, targets a rune has met) has no
//!   unit to point at and becomes none: its part of the stack stays, its
//!   credit goes to nobody.
//! - The rescue draws its own tie-break side and runs its own overtime
//!   schedule (900.42), as every fight does.

use super::arith::earlier;
use super::possible::Possible;
use super::*;

/// One side as a fight left it: every unit's columns, the fallen
/// included, and what the side holds apart from its units.
#[derive(Clone)]
pub struct SideEnd {
    side: Side,
    rows: Vec<UnitRow>,
    grants: Vec<RuneGrants>,
    /// The index each unit had in its fight.
    indices: Vec<u8>,
    /// When that fight's clock stood when the side was taken out.
    end_ms: i32,
    runes: runes::SideRunes,
    resonance_level: i32,
    resonance_start_level: i32,
    /// Side-relative bits: bit k is the side's k-th unit.
    resonators: u64,
    holders: u64,
    resonance_end_ms: i32,
    resonance_timed: bool,
    stock: i32,
    scrip: [i32; 2],
    forge: Forge,
    possible: Possible,
}

impl SideEnd {
    /// How many of the side's units stand.
    pub fn standing(&self) -> usize {
        self.rows.iter().filter(|r| r.alive).count()
    }

    /// The side's Dividend and Profit going into the next fight: the
    /// ledger carries over (200.2c), and a match sets it from the wallet.
    pub fn set_scrip(&mut self, dividend: i32, profit: i32) {
        self.scrip = [dividend, profit];
    }
}

/// Where each unit of a side moves: the k-th of `from` (its indices in
/// the fight it leaves) becomes unit `to + k`; any other unit has no place.
#[derive(Clone, Copy)]
struct Moves<'a> {
    from: &'a [u8],
    to: usize,
}

impl Moves<'_> {
    fn unit(self, u: UnitIdx) -> UnitIdx {
        match self.from.iter().position(|&i| i == u.0) {
            Some(k) if !u.is_none() => UnitIdx((self.to + k) as u8),
            _ => UnitIdx::NONE,
        }
    }

    /// A mask of unit bits, each moved; bits of other units dropped.
    fn mask(self, mask: u64) -> u64 {
        self.from
            .iter()
            .enumerate()
            .filter(|&(_, &i)| i < 64 && mask & (1u64 << i) != 0)
            .fold(0, |m, (k, _)| m | 1u64 << (self.to + k))
    }
}

/// Unit `k` at index `k`: a side-relative mask's positions.
const RELATIVE: [u8; MAX_UNITS] = {
    let mut r = [0u8; MAX_UNITS];
    let mut k = 0;
    while k < MAX_UNITS {
        r[k] = k as u8;
        k += 1;
    }
    r
};

impl Engine<'_> {
    /// What `side` holds as the fight stands now: what a rescue continues
    /// from (200.2c).
    pub fn side_end(&self, side: Side) -> SideEnd {
        let idx: Vec<usize> = self.u.indices().filter(|&i| self.u.side[i] == side).collect();
        let indices: Vec<u8> = idx.iter().map(|&i| i as u8).collect();
        let own = Moves { from: &indices, to: 0 };
        let mut rows: Vec<UnitRow> = idx.iter().map(|&i| self.u.row(i)).collect();
        for (row, &i) in rows.iter_mut().zip(&idx) {
            // The charge as it stands, settled at the moment taken out.
            row.settled_charge = self.charge(UnitIdx(i as u8));
            row.settled_at_ms = self.now;
        }
        let k = side.index();
        SideEnd {
            side,
            rows,
            grants: idx.iter().map(|&i| self.rune_grants[i]).collect(),
            end_ms: self.now,
            runes: self.side_runes[k],
            resonance_level: self.resonance.level[k],
            resonance_start_level: self.resonance.start_level[k],
            resonators: own.mask(self.resonance.resonators[k]),
            holders: own.mask(self.resonance.holders[k]),
            resonance_end_ms: self.resonance.side_end_ms[k],
            resonance_timed: self.resonance.timed[k],
            stock: self.stock[k],
            scrip: self.scrip[k],
            forge: self.forge[k],
            possible: self.possible,
            indices,
        }
    }

    /// Sets up a fight that continues two sides where their fights left
    /// them (200.2c): `sides[0]` as the left side, `sides[1]` as the
    /// right, each unit as it stood, with no battle-start pass. The round
    /// is the match's (800.33f). Refuses sides on the wrong hand or more
    /// units than a fight holds.
    pub fn resume(&mut self, sides: [&SideEnd; 2], round: u8, rng: FightRng) -> Result<(), StartError> {
        for (end, side) in sides.iter().zip([Side::Left, Side::Right]) {
            if end.side != side {
                return Err(StartError::WrongSide {
                    side: end.side,
                    as_side: side,
                });
            }
        }
        if sides[0].rows.len() + sides[1].rows.len() > MAX_UNITS {
            return Err(StartError::TooManyUnits);
        }
        self.reset(rng);
        self.set_round(round);
        let mut possible = Possible::NONE;
        for end in sides {
            let k = end.side.index();
            let to = self.u.count;
            let n = end.rows.len();
            let dt = end.end_ms;
            let moves = Moves { from: &end.indices, to };
            let map = |u: UnitIdx| moves.unit(u);
            // The side's own masks were taken side-relative.
            let relative = Moves {
                from: &RELATIVE[..n],
                to,
            };
            for (j, (row, grants)) in end.rows.iter().zip(&end.grants).enumerate() {
                let i = to + j;
                let mut row = row.clone();
                row.rebase_ticks(dt);
                row.settled_at_ms = 0;
                // The clock's caches are worked out afresh below.
                row.rate_now = 0;
                row.full_ms = NEVER;
                row.next_but_full_ms = NEVER;
                row.next_expiry_ms = NEVER;
                row.next_tick_ms = NEVER;
                row.crush.rebase(dt, map);
                row.burn_source = map(row.burn_source);
                row.venom_source = map(row.venom_source);
                row.burn_shares.remap(map);
                row.venom_shares.remap(map);
                row.last_target = map(row.last_target);
                row.targets_met = moves.mask(row.targets_met);
                self.u.count += 1;
                self.write_clock_inputs(UnitIdx(i as u8), |c| c.set_row(i, &row));
                self.rune_grants[i] = *grants;
                if self.u.kind[i] == CardKind::Tool {
                    self.tool_mask[k] |= 1u64 << i;
                }
            }
            let mut runes = end.runes;
            for m in runes.reached.iter_mut().chain(runes.partial.iter_mut()) {
                *m = moves.mask(*m);
            }
            self.side_runes[k] = runes;
            self.resonance.level[k] = end.resonance_level;
            self.resonance.start_level[k] = end.resonance_start_level;
            self.resonance.resonators[k] = relative.mask(end.resonators);
            self.resonance.holders[k] = relative.mask(end.holders);
            self.resonance.timed[k] = end.resonance_timed;
            self.resonance.set_end(k, earlier(end.resonance_end_ms, dt));
            self.stock[k] = end.stock;
            self.scrip[k] = end.scrip;
            self.forge[k] = end.forge;
            possible = possible.union(end.possible);
        }
        // What each fight had learnt could happen still can.
        self.possible = possible;
        self.continue_battle();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridsim_model::statuses::TimedStatus;

    /// Every column that holds an absolute time or a unit index must be
    /// translated by `resume`; a column added later fails here until it
    /// is sorted into one of these lists.
    #[test]
    fn every_time_and_unit_reference_column_is_translated() {
        // Absolute times, moved earlier by the fight's end, or caches
        // worked out afresh.
        const ABSOLUTE: &[&str] = &[
            "burn_next_ms",
            "venom_next_ms",
            "roost_next_ms",
            "settled_at_ms",
            "full_ms",
            "next_but_full_ms",
            "next_expiry_ms",
            "next_tick_ms",
        ];
        // Time left, which needs nothing.
        const RELATIVE: &[&str] = &["revive_ms"];
        // Unit indices or records holding them or absolute times.
        const TRANSLATED: &[&str] = &[
            "burn_source",
            "venom_source",
            "burn_shares",
            "venom_shares",
            "last_target",
            "targets_met",
            "crush",
            "hallow",
            "fleeting",
        ];
        for &(name, ty) in UNIT_COLUMNS {
            let timer = TimedStatus::ALL.iter().any(|s| s.key() == name);
            if name.ends_with("_ms") {
                assert!(
                    timer || ABSOLUTE.contains(&name) || RELATIVE.contains(&name),
                    "column {name} holds a time: is it absolute or time left?"
                );
            }
            let refers = [
                "UnitIdx",
                "ApplierShares",
                "CrushWindows",
                "HallowInstances",
                "FleetingBuffs",
            ]
            .iter()
            .any(|t| ty.contains(t));
            if refers || name.starts_with("targets_") {
                assert!(TRANSLATED.contains(&name), "column {name} ({ty}) must be translated");
            }
        }
    }

    #[test]
    fn a_unit_and_a_mask_move_with_their_side() {
        // Units 3 and 5 of one fight become units 1 and 2 of the next;
        // unit 4 (the other side) has no place.
        let m = Moves { from: &[3, 5], to: 1 };
        assert_eq!(m.unit(UnitIdx(5)), UnitIdx(2));
        assert_eq!(m.unit(UnitIdx(4)), UnitIdx::NONE);
        assert_eq!(m.unit(UnitIdx::NONE), UnitIdx::NONE);
        assert_eq!(m.mask(0b11_1000), 0b110);
        assert_eq!(m.mask(0b1_0000), 0);
    }
}
