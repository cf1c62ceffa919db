//! How a fight ended, and each side's summary.

use super::*;

/// How a fight ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// One side has no combatant left.
    Wipe,
    /// Both sides fell at the same moment.
    MutualWipe,
    /// The 120-second cap was reached with both sides standing (900.42d).
    Timeout,
}

impl EndReason {
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Wipe => "wipe",
            EndReason::MutualWipe => "mutual_wipe",
            EndReason::Timeout => "timeout",
        }
    }
}

/// The result of one fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// `None` is a draw.
    pub winner: Option<Side>,
    pub reason: EndReason,
    pub end_ms: i32,
}

/// One side's standing at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SideSummary {
    pub survivors: u32,
    pub remaining_vitality: i64,
    /// Stock left after Settle (800.67c: it resets after the battle).
    pub stock: i32,
    /// Dividend the side's Hubs settled (800.61c).
    pub dividend: i32,
}

impl Engine<'_> {
    /// The outcome, ending the fight at the cap if nobody has won (900.42d).
    pub fn finish(&mut self) -> Outcome {
        if let Some(o) = self.outcome {
            return o;
        }
        // A timeout is a draw: the terminal sweep ends the battle for both
        // sides at once (800.49k; see docs/rules-reconstruction.md).
        let o = Outcome {
            winner: None,
            reason: EndReason::Timeout,
            end_ms: self.now,
        };
        self.clear_revivals();
        self.settle();
        self.emit(
            EventKind::FightEnd,
            UnitIdx::NONE,
            UnitIdx::NONE,
            -1,
            EndReason::Timeout as i32,
            "900.42d",
        );
        self.outcome = Some(o);
        o
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn side_summary(&self, side: Side) -> SideSummary {
        let mut s = SideSummary {
            stock: self.stock[side.index()],
            dividend: self.dividend[side.index()],
            ..SideSummary::default()
        };
        for i in self.u.indices() {
            if self.u.side[i] == side && self.u.alive[i] && self.is_combatant(UnitIdx(i as u8)) {
                s.survivors += 1;
                s.remaining_vitality += i64::from(self.u.vitality[i]);
            }
        }
        s
    }
}
