//! The engine's state as others see it: a read-only view of the unit
//! columns for batch output, results and scenarios; and the one door
//! through which a scenario sets a unit's starting state, so the engine's
//! incremental state (cached clocks, standing counts) stays right. The
//! trace the fight page is drawn from is in `trace.rs`.

use super::{Engine, StartError, UnitIdx, Units};
use gridsim_model::spec::InitialState;
use gridsim_model::stacks::Stack;
use gridsim_model::statuses::TimedStatus;

impl Engine<'_> {
    /// The unit columns, read-only: every write goes through the engine.
    pub fn units(&self) -> &Units {
        &self.u
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
        let (now, burn_tick_ms, venom_tick_ms) = (self.now, self.rules.burn.tick_ms, self.rules.venom.tick_ms);
        self.write_clock_inputs(u, |c| {
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
            c.settled_at_ms[i] = now;
            set(&mut c.quest, s.quest.map(|q| q.max(0)));
            set(&mut c.counter, s.counter.map(|q| q.max(0)));
            // A status held at the start ticks one interval in (800.8b, 800.73a).
            if c.burn[i] > 0 {
                c.burn_next_ms[i] = burn_tick_ms;
            }
            if c.venom[i] > 0 {
                c.venom_next_ms[i] = venom_tick_ms;
            }
            if let Some(r) = s.relentless {
                c.relentless[i] = r;
            }
            if let Some(d) = s.dormant {
                c.dormant[i] = d;
            }
        });
        Ok(())
    }
}
