//! The trace the fight page is drawn from: each unit's frame after each
//! logged event, kept as changes. No rule reads it; the fight page's tests
//! check it (tests/page.rs), not the conformance scenarios.

use super::{Engine, MAX_UNITS, UnitIdx};
use gridsim_model::catalog::CardId;
use gridsim_model::statuses::TimedStatus;

/// What the fight page draws of one unit at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UnitFrame {
    /// The loadout in force (a boss's phase changes it, 800.48).
    pub card: CardId,
    pub tier: u8,
    pub column: u8,
    pub row: u8,
    pub alive: bool,
    /// Standing and counted at the end (`Engine::is_combatant`).
    pub combatant: bool,
    pub dormant: bool,
    pub vitality: i32,
    pub max_vitality: i32,
    pub shield: i32,
    pub armor: i32,
    pub maim: i32,
    pub burn: i32,
    pub venom: i32,
    /// Milliseconds left of each timed status, in `TimedStatus::ALL` order.
    pub timers: [i32; TimedStatus::ALL.len()],
    pub entrapped: bool,
}

/// The units whose frame changed with one logged event.
#[derive(Debug, Clone, Default)]
pub struct TraceStep {
    /// Index of the event in the log.
    pub event: u32,
    pub changes: Vec<(UnitIdx, UnitFrame)>,
}

/// Every unit's frame after each logged event, kept as changes. Off unless
/// asked for; recorded only while the log records, so step `k` always
/// names event `k` of the log.
#[derive(Debug, Clone)]
pub struct Trace {
    pub enabled: bool,
    pub steps: Vec<TraceStep>,
    last: Box<[UnitFrame; MAX_UNITS]>,
    /// Units the last step knew of; any beyond are new.
    known: usize,
}

impl Default for Trace {
    fn default() -> Self {
        Trace {
            enabled: false,
            steps: Vec::new(),
            last: Box::new([UnitFrame::default(); MAX_UNITS]),
            known: 0,
        }
    }
}

impl Trace {
    pub fn clear(&mut self) {
        self.steps.clear();
        self.known = 0;
    }
}

impl Engine<'_> {
    /// Records frames from now on (and the log with them): the fight page.
    pub fn enable_trace(&mut self) {
        self.log.enable();
        self.trace.enabled = true;
    }

    /// Unit `u` as the fight page draws it.
    pub fn frame(&self, u: UnitIdx) -> UnitFrame {
        let (c, i) = (&self.u, u.i());
        UnitFrame {
            card: c.card[i],
            tier: c.tier[i],
            column: c.rect[i].column,
            row: c.rect[i].row,
            alive: c.alive[i],
            combatant: c.alive[i] && self.is_combatant(u),
            dormant: c.dormant[i],
            vitality: c.vitality[i],
            max_vitality: c.max_vitality[i],
            shield: c.shield[i],
            armor: self.armor(u),
            maim: c.maim[i],
            burn: c.burn[i],
            venom: c.venom[i],
            timers: std::array::from_fn(|k| c.timer(TimedStatus::ALL[k], i)),
            entrapped: c.entrapped[i],
        }
    }

    /// The step of the event just logged: every unit whose frame differs
    /// from the last step's.
    pub(super) fn record_frames(&mut self) {
        let mut step = TraceStep {
            event: (self.log.events.len() - 1) as u32,
            changes: Vec::new(),
        };
        for i in self.u.indices() {
            let u = UnitIdx(i as u8);
            let f = self.frame(u);
            if i >= self.trace.known || self.trace.last[i] != f {
                self.trace.last[i] = f;
                step.changes.push((u, f));
            }
        }
        self.trace.known = self.trace.known.max(self.u.count);
        if !step.changes.is_empty() {
            self.trace.steps.push(step);
        }
    }
}
