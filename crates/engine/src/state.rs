//! The engine's state as others see it: a read-only view of the unit
//! columns for batch output, results and scenarios; the one door through
//! which a scenario sets a unit's starting state, so the engine's
//! incremental state (cached clocks, standing counts) stays right; and the
//! trace the fight page is drawn from.

use super::{Engine, MAX_UNITS, StartError, UnitIdx, Units};
use gridsim_model::catalog::CardId;
use gridsim_model::spec::InitialState;
use gridsim_model::stacks::Stack;
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
    /// The unit columns, read-only: every write goes through the engine.
    pub fn units(&self) -> &Units {
        &self.u
    }

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

    /// What unit `u` takes into the match's next battle (200.3): its Quest
    /// progress (200.3a, 800.54c) and its named counter (200.3b). Nothing
    /// else: Stock, Burn, Venom, Maim, Dread, Shield and every combat-scoped
    /// buff reset (200.3c), and the unit comes back at full Vitality.
    pub fn persisting_state(&self, u: UnitIdx) -> InitialState {
        let (c, i) = (&self.u, u.i());
        let counts = self.catalog.card(c.printed[i]).counter.is_some();
        InitialState {
            quest: Some(c.quest[i]).filter(|&q| q > 0),
            counter: counts.then_some(c.counter[i]),
            ..InitialState::default()
        }
    }

    /// Whether `start_battle` has run for this fight.
    pub fn battle_started(&self) -> bool {
        !self.order.is_empty()
    }

    /// Sets a placed unit's starting state. Only before `start_battle`,
    /// which counts the standing combatants (a Dormant unit is none) and
    /// from which the clock starts; Vitality is kept within 1..=maximum.
    pub fn set_initial_state(&mut self, u: UnitIdx, s: &InitialState) -> Result<(), StartError> {
        if self.battle_started() {
            return Err(StartError::AfterBattleStart);
        }
        if u.i() >= self.u.count {
            return Err(StartError::NoSuchUnit(u.i()));
        }
        let i = u.i();
        let set = |col: &mut [i32], v: Option<i32>| {
            if let Some(v) = v {
                col[i] = v;
            }
        };
        let c = &mut self.u;
        set(
            &mut c.vitality,
            s.vitality.map(|v| v.clamp(1, c.max_vitality[i].max(1))),
        );
        for &k in Stack::STATE {
            if let Some(v) = s.stack(k) {
                *c.stack_mut(k, i) = v;
            }
        }
        set(&mut c.armor_bonus, s.armor_bonus);
        set(&mut c.power_bonus, s.power_bonus);
        set(&mut c.focus_bonus, s.focus_bonus);
        set(&mut c.speed_bonus, s.speed_bonus);
        for &status in TimedStatus::CARRIED {
            if let Some(ms) = s.timer(status) {
                *c.timer_mut(status, i) = ms;
            }
        }
        set(&mut c.settled_charge, s.charge);
        c.settled_at_ms[i] = self.now;
        set(&mut c.quest, s.quest.map(|q| q.max(0)));
        set(&mut c.counter, s.counter.map(|q| q.max(0)));
        // A status held at the start ticks one interval in (800.8b, 800.73a).
        if c.burn[i] > 0 {
            c.burn_next_ms[i] = self.rules.burn.tick_ms;
        }
        if c.venom[i] > 0 {
            c.venom_next_ms[i] = self.rules.venom.tick_ms;
        }
        if let Some(r) = s.relentless {
            c.relentless[i] = r;
        }
        if let Some(d) = s.dormant {
            c.dormant[i] = d;
        }
        self.touch_clock(u);
        Ok(())
    }
}
