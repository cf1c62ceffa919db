//! The engine's state as others see it: a read-only view of the unit
//! columns for batch output, results and scenarios, and the one door
//! through which a scenario sets a unit's starting state, so the engine's
//! incremental state (cached clocks, standing counts) stays right.

use super::{Engine, UnitIdx, Units};

/// State set on a unit before the battle starts; a field left `None`
/// keeps what placement gave the unit.
#[derive(Debug, Clone, Default)]
pub struct InitialState {
    pub vitality: Option<i32>,
    pub shield: Option<i32>,
    pub maim: Option<i32>,
    pub burn: Option<i32>,
    pub venom: Option<i32>,
    pub insurance: Option<i32>,
    pub subrogated: Option<i32>,
    pub armor_bonus: Option<i32>,
    pub power_bonus: Option<i32>,
    pub focus_bonus: Option<i32>,
    pub speed_bonus: Option<i32>,
    pub stun_ms: Option<i32>,
    pub freeze_ms: Option<i32>,
    pub blind_ms: Option<i32>,
    pub entrap_ms: Option<i32>,
    pub prismbreak_ms: Option<i32>,
    pub charge: Option<i32>,
    pub haywire: Option<i32>,
    pub overclock: Option<i32>,
    pub feral: Option<i32>,
    pub relentless: Option<bool>,
    pub dormant: Option<bool>,
}

impl Engine<'_> {
    /// The unit columns, read-only: every write goes through the engine.
    pub fn units(&self) -> &Units {
        &self.u
    }

    /// Whether `start_battle` has run for this fight.
    pub fn battle_started(&self) -> bool {
        !self.order.is_empty()
    }

    /// Sets a placed unit's starting state. Only before `start_battle`,
    /// which counts the standing combatants (a Dormant unit is none) and
    /// from which the clock starts; Vitality is kept within 1..=maximum.
    pub fn set_initial_state(&mut self, u: UnitIdx, s: &InitialState) -> Result<(), String> {
        if self.battle_started() {
            return Err("a unit's starting state is set before the battle starts".to_string());
        }
        if u.i() >= self.u.count {
            return Err(format!("no unit {} in this fight", u.i()));
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
        set(&mut c.shield, s.shield);
        set(&mut c.maim, s.maim);
        set(&mut c.insurance, s.insurance);
        set(&mut c.subrogated, s.subrogated);
        set(&mut c.armor_bonus, s.armor_bonus);
        set(&mut c.power_bonus, s.power_bonus);
        set(&mut c.focus_bonus, s.focus_bonus);
        set(&mut c.speed_bonus, s.speed_bonus);
        set(&mut c.stun_ms, s.stun_ms);
        set(&mut c.freeze_ms, s.freeze_ms);
        set(&mut c.blind_ms, s.blind_ms);
        set(&mut c.entrap_ms, s.entrap_ms);
        set(&mut c.prismbreak_ms, s.prismbreak_ms);
        set(&mut c.charge, s.charge);
        set(&mut c.haywire, s.haywire);
        set(&mut c.overclock, s.overclock);
        set(&mut c.feral, s.feral);
        // A status held at the start ticks one interval in (800.8b, 800.73a).
        if let Some(b) = s.burn.filter(|b| *b > 0) {
            c.burn[i] = b;
            c.burn_next_ms[i] = self.rules.burn.tick_ms;
        }
        if let Some(v) = s.venom.filter(|v| *v > 0) {
            c.venom[i] = v;
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
