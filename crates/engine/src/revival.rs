//! What follows a death: revival (500.9, reconstructed), Everlasting
//! (800.20), Phylactery's Vessels and the Vessel Points a side earns with
//! Dread and Freeze, scored once per batch (800.49, 900.27, 900.28).

use super::possible::Feature;
use super::{Engine, EventKind, UnitIdx};
use gridsim_model::ability::Trigger;
use gridsim_model::spec::Placement;

impl Engine<'_> {
    /// Everlasting for the rest of the battle (800.20d).
    pub fn grant_everlasting(&mut self, source: UnitIdx, u: UnitIdx) {
        if !self.passes_recipient_gate(u, source, "800.20d") {
            return;
        }
        self.u.everlasting[u.i()] = true;
        self.emit(EventKind::EverlastingGranted, u, source, 0, 0, "800.20d");
    }

    /// Called once a death has fully resolved (800.49i): a Vessel, if the
    /// unit holds one, brings it back at once (800.49j); otherwise
    /// Everlasting starts its countdown (800.20a). The Vessel goes first,
    /// so Everlasting only runs on a death that stays dead (800.20f,
    /// 900.28d).
    pub(crate) fn after_death(&mut self, u: UnitIdx) {
        let i = u.i();
        if self.u.phylactery[i] && self.u.vessels[i] > 0 {
            self.u.vessels[i] -= 1;
            self.emit(
                EventKind::VesselSpent,
                u,
                UnitIdx::NONE,
                self.u.vessels[i],
                0,
                "800.49i",
            );
            self.revive(u, true);
        } else if self.u.everlasting[i] {
            let delay_ms = self.rules.everlasting.delay_ms;
            self.write_clock_inputs(u, |c| {
                c.revive_armed[i] = true;
                c.revive_ms[i] = delay_ms;
            });
        }
    }

    /// An Everlasting countdown that reached 0 while combat still runs
    /// (800.20a, 800.20b).
    pub(crate) fn everlasting_due(&mut self, u: UnitIdx) {
        let i = u.i();
        if self.u.revive_armed[i] && self.u.revive_ms[i] == 0 && !self.u.alive[i] {
            self.write_clock_inputs(u, |c| c.revive_armed[i] = false);
            self.revive(u, false);
        }
    }

    /// The shared revival (500.9, reconstructed): the unit is built again
    /// from its card at its own tier, in the cell it died in (800.49l), at
    /// full Vitality with nothing gained or suffered, a new target
    /// incarnation (800.20c). It keeps what belongs to the battle rather
    /// than to the body: its tallies, its spent once-per-battle clauses and
    /// Initiative gate, what was granted for the battle (Relentless, Rabid,
    /// Everlasting), its Vessels and Vessel Points, and its Rabid memory
    /// (800.55d). Its listeners and its allies' `ally_revived` lines resolve
    /// after, as one batch (800.49e).
    pub(crate) fn revive(&mut self, u: UnitIdx, by_vessel: bool) {
        let i = u.i();
        if self.outcome.is_some() || self.u.alive[i] {
            return;
        }
        let c = &self.u;
        let kept = (
            (c.deaths[i], c.kills[i], c.activations[i]),
            (c.damage_dealt[i], c.damage_taken[i], c.healing[i]),
            (c.once_used[i], c.initiative_done[i], c.last_target[i]),
            (
                c.relentless[i],
                c.rabid[i],
                c.everlasting[i],
                c.relentless_suppressed[i],
            ),
            (c.vessels[i], c.vessel_points[i], c.quest[i], c.counter[i]),
        );
        let p = Placement {
            card: c.printed[i],
            tier: c.native_tier[i],
            column: c.rect[i].column,
            row: c.rect[i].row,
            combined: c.combined[i],
        };
        let side = c.side[i];
        self.build_unit(u, side, p);
        self.refresh_targetable(i);
        let ((deaths, kills, activations), (dealt, taken, healing), (once, initiative, last), granted, vessels) = kept;
        self.write_clock_inputs(u, |c| {
            (c.deaths[i], c.kills[i], c.activations[i]) = (deaths, kills, activations);
            (c.damage_dealt[i], c.damage_taken[i], c.healing[i]) = (dealt, taken, healing);
            (c.once_used[i], c.initiative_done[i], c.last_target[i]) = (once, initiative, last);
            // 800.56h: a suppression survives the revival, innate Relentless
            // included.
            c.relentless_suppressed[i] = granted.3;
            c.relentless[i] = (c.relentless[i] || granted.0) && !granted.3;
            c.rabid[i] |= granted.1;
            c.everlasting[i] |= granted.2;
            // 200.3b: the counter persists with the unit, through a revival too.
            (c.vessels[i], c.vessel_points[i], c.quest[i], c.counter[i]) = vessels;
            // A wake condition holds a unit Dormant from the start of the
            // battle only (800.16f); a revived unit comes back awake.
            c.dormant[i] = false;
            c.awaiting_wake[i] = false;
            c.dormant_timed[i] = false;
            c.dormant_ms[i] = 0;
        });
        self.wake_watch[side.index()] &= !(1u64 << i);
        // The runes project onto its cells again; it is a new target
        // incarnation for every new-target rune (800.20c, 900.28f).
        self.apply_rune_grants(u, false);
        self.forget_incarnation(u);
        if self.is_combatant(u) {
            self.standing[side.index()] += 1;
        }
        let vitality = self.u.vitality[i];
        self.emit(
            EventKind::Revived,
            u,
            UnitIdx::NONE,
            vitality,
            i32::from(!by_vessel),
            "500.9",
        );
        // 800.58d: a resonator back on the board is an active source again.
        self.refresh_resonance(u);
        self.open_batch();
        let own = if by_vessel {
            Trigger::VesselRevived
        } else {
            Trigger::EverlastingRevived
        };
        self.dispatch(u, own, u);
        let allies = self.side_order[side.index()];
        for &a in allies.as_slice() {
            if a != u {
                self.dispatch(a, Trigger::AllyRevived, u);
            }
        }
        self.close_batch();
    }

    /// Opens a Vessel-Point batch, or joins the one already open (800.49e).
    #[inline]
    pub(crate) fn open_batch(&mut self) {
        if self.possible.any(Feature::Vessels) {
            self.vessel_batch.depth += 1;
        }
    }

    /// Closes a batch; the outermost converts each side's raw score once
    /// and awards it (800.49d, 800.49f).
    #[inline]
    pub(crate) fn close_batch(&mut self) {
        if !self.possible.any(Feature::Vessels) {
            return;
        }
        self.vessel_batch.depth = self.vessel_batch.depth.saturating_sub(1);
        if self.vessel_batch.depth == 0 {
            self.award_batch();
        }
    }

    /// Dread stacks a side applied: 1 raw each (900.27a, 900.27g).
    pub(crate) fn score_dread(&mut self, source: UnitIdx, stacks: i32) {
        if source.is_none() || stacks <= 0 {
            return;
        }
        let side = self.u.side[source.i()].index();
        let raw = stacks.saturating_mul(self.rules.phylactery.raw_per_dread_stack);
        self.open_batch();
        self.vessel_batch.raw[side] = self.vessel_batch.raw[side].saturating_add(raw);
        self.close_batch();
    }

    /// A unit a side Froze: 2 raw, once per unit per batch (800.49g,
    /// 900.27a).
    pub(crate) fn score_freeze(&mut self, source: UnitIdx, frozen: UnitIdx) {
        if source.is_none() {
            return;
        }
        let side = self.u.side[source.i()].index();
        let bit = 1u64 << frozen.i();
        self.open_batch();
        if self.vessel_batch.frozen[side] & bit == 0 {
            self.vessel_batch.frozen[side] |= bit;
            self.vessel_batch.raw[side] =
                self.vessel_batch.raw[side].saturating_add(self.rules.phylactery.raw_per_frozen_unit);
        }
        self.close_batch();
    }

    /// The bands (900.27b): the first 4 raw at a point each, the next 4 at
    /// a point per 2, nothing past; the award goes whole to every living
    /// Phylactery unit of the side (800.49d, 900.27e).
    fn award_batch(&mut self) {
        for side in 0..2 {
            let raw = std::mem::take(&mut self.vessel_batch.raw[side]);
            self.vessel_batch.frozen[side] = 0;
            if raw <= 0 {
                continue;
            }
            let r = &self.rules.phylactery;
            let full = raw.min(r.full_band_raw.max(0));
            let half = (raw - full).clamp(0, r.half_band_raw.max(0)) / 2;
            let award = full + half;
            if award <= 0 {
                continue;
            }
            let members = self.side_order[side];
            for &m in members.as_slice() {
                if self.u.phylactery[m.i()] && self.u.alive[m.i()] {
                    self.gain_vessel_points(m, award);
                }
            }
        }
    }

    /// Points towards the next Vessel; at most two Vessels, and a unit
    /// holding them ignores points, its meter held one short (800.49h,
    /// 900.27f, 900.27h).
    fn gain_vessel_points(&mut self, u: UnitIdx, award: i32) {
        let i = u.i();
        let r = self.rules.phylactery;
        if self.u.vessels[i] >= r.max_vessels {
            return;
        }
        let per = r.points_per_vessel.max(1);
        let mut points = self.u.vessel_points[i].saturating_add(award);
        while points >= per && self.u.vessels[i] < r.max_vessels {
            points -= per;
            self.u.vessels[i] += 1;
            self.emit(
                EventKind::VesselFormed,
                u,
                UnitIdx::NONE,
                self.u.vessels[i],
                0,
                "900.27f",
            );
        }
        // 900.27h: at the ceiling the meter is held one point short of
        // forming another, whatever this batch brought; overflow is lost.
        if self.u.vessels[i] >= r.max_vessels {
            points = per - 1;
        }
        self.u.vessel_points[i] = points;
        self.emit(EventKind::VesselPoints, u, UnitIdx::NONE, award, points, "800.49d");
    }
}
