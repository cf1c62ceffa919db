//! Riftbound's kernel: the second game, turn-based, whose rules are the
//! rulings of its FAQ (RB1 to RB50, docs/riftbound-reconstruction.md). It
//! shares nothing with the Gridforged engine; it knows no file, clock or
//! thread.
//!
//! This is the kernel's Might and damage: units with a printed Might, Buffs,
//! Boosts and modifiers, damage marked on them, the checks that kill, and
//! the cleanups that heal. A unit's state is a set of columns indexed by
//! [`UnitId`], as the Gridforged engine keeps its own.

/// A unit's index on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UnitId(pub u8);

impl UnitId {
    fn i(self) -> usize {
        usize::from(self.0)
    }
}

/// The most units a board holds.
pub const MAX_UNITS: usize = 32;
/// The most Might modifiers one unit holds at once.
pub const MAX_MODIFIERS: usize = 16;
/// The most auras on a board at once.
pub const MAX_AURAS: usize = 32;

/// How long a Might modifier lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lasts {
    /// Until the end of the turn ("this turn").
    Turn,
    /// Until the end of the combat: a Boost (RB25, RB31).
    Combat,
}

/// A Might change made once, when its effect resolved (RB36): what it was
/// able to apply, kept as it was (RB38), and how long it lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Modifier {
    applied: i32,
    lasts: Lasts,
}

/// A continuous Might change from one unit to another (Trifarian War
/// Camp's, a Master Yi's): applied while its source is on the board,
/// through no chain (RB24).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Aura {
    source: UnitId,
    target: UnitId,
    amount: i32,
}

/// One line of the kernel's log, citing the ruling that made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub kind: EventKind,
    pub unit: UnitId,
    pub amount: i32,
    pub ruling: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// Damage marked on a unit (RB1); `amount` is the damage now marked.
    Damaged,
    /// A Might modifier resolved; `amount` is what it applied (RB38).
    MightChanged,
    /// A unit died: its marked damage reached its Might (RB37).
    Died,
    /// A unit's marked damage cleared (RB1, RB34).
    Healed,
    /// A unit recalled to its base (RB4, RB18, RB43); `amount` is 1 when
    /// it arrives exhausted.
    Recalled,
    /// A Buff taken off (RB31); `amount` is the Buffs left.
    BuffRemoved,
}

impl EventKind {
    pub const ALL: [EventKind; 6] = [
        EventKind::Damaged,
        EventKind::MightChanged,
        EventKind::Died,
        EventKind::Healed,
        EventKind::Recalled,
        EventKind::BuffRemoved,
    ];

    /// Its name in a scenario and a log.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Damaged => "damaged",
            EventKind::MightChanged => "might_changed",
            EventKind::Died => "died",
            EventKind::Healed => "healed",
            EventKind::Recalled => "recalled",
            EventKind::BuffRemoved => "buff_removed",
        }
    }
}

/// The board: every unit's Might and damage.
#[derive(Debug, Clone)]
pub struct Board {
    count: usize,
    printed: [i32; MAX_UNITS],
    buffs: [i32; MAX_UNITS],
    damage: [i32; MAX_UNITS],
    alive: [bool; MAX_UNITS],
    /// At its base rather than at a battlefield: both are on the board.
    at_base: [bool; MAX_UNITS],
    exhausted: [bool; MAX_UNITS],
    modifiers: [[Option<Modifier>; MAX_MODIFIERS]; MAX_UNITS],
    auras: [Option<Aura>; MAX_AURAS],
    pub log: Vec<Event>,
}

impl Default for Board {
    fn default() -> Self {
        Board {
            count: 0,
            printed: [0; MAX_UNITS],
            buffs: [0; MAX_UNITS],
            damage: [0; MAX_UNITS],
            alive: [false; MAX_UNITS],
            at_base: [false; MAX_UNITS],
            exhausted: [false; MAX_UNITS],
            modifiers: [[None; MAX_MODIFIERS]; MAX_UNITS],
            auras: [None; MAX_AURAS],
            log: Vec::new(),
        }
    }
}

impl Board {
    /// Puts a unit of printed Might `might` on the board; `None` when the
    /// board is full.
    pub fn add_unit(&mut self, might: i32) -> Option<UnitId> {
        if self.count == MAX_UNITS {
            return None;
        }
        let u = UnitId(self.count as u8);
        self.count += 1;
        self.printed[u.i()] = might;
        self.alive[u.i()] = true;
        Some(u)
    }

    pub fn alive(&self, u: UnitId) -> bool {
        self.alive[u.i()]
    }

    pub fn damage(&self, u: UnitId) -> i32 {
        self.damage[u.i()]
    }

    pub fn buffs(&self, u: UnitId) -> i32 {
        self.buffs[u.i()]
    }

    pub fn at_base(&self, u: UnitId) -> bool {
        self.at_base[u.i()]
    }

    pub fn exhausted(&self, u: UnitId) -> bool {
        self.exhausted[u.i()]
    }

    /// Places `u` at its base (`true`) or at a battlefield.
    pub fn place(&mut self, u: UnitId, at_base: bool) {
        self.at_base[u.i()] = at_base;
    }

    /// Recalls `u` to its base: no move (RB43), and since the base is on
    /// the board as the battlefield is, every modification stays with it —
    /// Buffs (RB4), "this turn" changes (RB18), Boosts and decreases (RB31:
    /// only a change to or from a zone off the board removes them). `heal`
    /// clears its damage (Hourglass, RB4; Sett's legend, RB18); `exhaust`
    /// leaves it exhausted (Hourglass, RB4).
    pub fn recall(&mut self, u: UnitId, heal: bool, exhaust: bool) {
        let i = u.i();
        if !self.alive[i] {
            return;
        }
        if heal && self.damage[i] > 0 {
            self.damage[i] = 0;
            self.log(EventKind::Healed, u, 0, "RB18");
        }
        self.at_base[i] = true;
        self.exhausted[i] |= exhaust;
        self.log(EventKind::Recalled, u, i32::from(exhaust), "RB43");
    }

    /// Takes one Buff off `u` (RB31: Sett's revival takes the Buff and
    /// leaves every Boost); nothing when it has none.
    pub fn remove_buff(&mut self, u: UnitId) {
        let i = u.i();
        if self.alive[i] && self.buffs[i] > 0 {
            self.buffs[i] -= 1;
            self.log(EventKind::BuffRemoved, u, self.buffs[i], "RB31");
        }
    }

    /// The unit's calculated Might: printed, plus its Buffs, its auras'
    /// increases, then every decrease (RB24: increases before decreases,
    /// which the sum leaves unchanged and a floored decrease reads when it
    /// resolves). It may be negative (RB35).
    pub fn calculated_might(&self, u: UnitId) -> i32 {
        let i = u.i();
        // Summed wide and clamped: a scenario may print any i32.
        let mods: i64 = self.modifiers[i].iter().flatten().map(|m| i64::from(m.applied)).sum();
        let auras: i64 = self
            .auras
            .iter()
            .flatten()
            .filter(|a| a.target == u && self.alive[a.source.i()])
            .map(|a| i64::from(a.amount))
            .sum();
        let sum = i64::from(self.printed[i]) + i64::from(self.buffs[i]) + auras + mods;
        sum.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// The Might the game reads ("what Might are you"): never below 0
    /// (RB35). A unit deals this in combat (RB1: its Might, not its Might
    /// less its damage).
    pub fn might(&self, u: UnitId) -> i32 {
        self.calculated_might(u).max(0)
    }

    /// Marks `amount` damage on `u`. Its Might does not change (RB1), and
    /// nothing dies until a cleanup checks (RB34).
    pub fn deal_damage(&mut self, u: UnitId, amount: i32) {
        let i = u.i();
        if !self.alive[i] || amount <= 0 {
            return;
        }
        self.damage[i] = self.damage[i].saturating_add(amount);
        self.log(EventKind::Damaged, u, self.damage[i], "RB1");
    }

    /// A Buff: one more Might until something removes it; damage never
    /// does (RB4).
    pub fn buff(&mut self, u: UnitId) {
        if self.alive[u.i()] {
            self.buffs[u.i()] = self.buffs[u.i()].saturating_add(1);
            self.log(EventKind::MightChanged, u, 1, "RB4");
        }
    }

    /// A Might change resolving now (RB36): applied once to the unit as it
    /// is, never re-read. With `minimum`, a decrease stops there, and what
    /// it was able to apply is what it keeps (RB38); a change with none may
    /// take the Might below 0 (RB35). Returns what it applied; 0 when the
    /// unit already holds as many modifiers as it can.
    pub fn modify(&mut self, u: UnitId, amount: i32, minimum: Option<i32>, lasts: Lasts) -> i32 {
        let i = u.i();
        if !self.alive[i] {
            return 0;
        }
        let now = self.calculated_might(u);
        let applied = match minimum {
            Some(floor) if amount < 0 => amount.max(floor.saturating_sub(now).min(0)),
            _ => amount,
        };
        let Some(slot) = self.modifiers[i].iter_mut().find(|m| m.is_none()) else {
            return 0;
        };
        *slot = Some(Modifier { applied, lasts });
        self.log(EventKind::MightChanged, u, applied, "RB38");
        applied
    }

    /// A continuous Might change from `source` to `target` while the
    /// source is on the board (RB24, RB34). `false` when the board holds
    /// as many auras as it can.
    pub fn add_aura(&mut self, source: UnitId, target: UnitId, amount: i32) -> bool {
        let Some(slot) = self.auras.iter_mut().find(|a| a.is_none()) else {
            return false;
        };
        *slot = Some(Aura { source, target, amount });
        true
    }

    /// The check a cleanup makes: every unit whose marked damage equals or
    /// exceeds its Might dies, all at once (RB37, RB34), read against the
    /// Might as it stands before any of them leaves. A unit with no damage
    /// marked is not killed by it (docs/riftbound-reconstruction.md).
    /// Returns how many died.
    pub fn kill_lethal(&mut self) -> usize {
        let mut dying = [false; MAX_UNITS];
        for (i, d) in dying.iter_mut().enumerate().take(self.count) {
            let u = UnitId(i as u8);
            *d = self.alive[i] && self.damage[i] > 0 && self.damage[i] >= self.might(u);
        }
        let mut n = 0;
        for (i, &d) in dying.iter().enumerate().take(self.count) {
            if d {
                self.alive[i] = false;
                n += 1;
                self.log(EventKind::Died, UnitId(i as u8), self.damage[i], "RB37");
            }
        }
        n
    }

    /// Combat cleanup: the lethal check, then, as one step, every unit's
    /// damage cleared and every Boost ended (RB34: step 2, then 2a; RB25:
    /// the heal and the end of a Boost together, so a Boost's loss kills
    /// no one). No check follows until the next cleanup (RB34).
    pub fn combat_cleanup(&mut self) {
        self.kill_lethal();
        self.heal_all("RB34");
        self.end_modifiers(Lasts::Combat);
    }

    /// The end of the turn: marked damage clears (RB1) and "this turn"
    /// modifiers end, with any Boost still running.
    pub fn end_turn(&mut self) {
        self.heal_all("RB1");
        self.end_modifiers(Lasts::Combat);
        self.end_modifiers(Lasts::Turn);
    }

    /// Assigns `total` combat damage to `order`, each in turn taking what
    /// is lethal to it — its Might less the damage already marked, at
    /// least 1 (RB42) — before the next takes any; what is left after
    /// the last is lethal goes to the last. Returns each unit's share.
    pub fn assign_combat_damage(&mut self, total: i32, order: &[UnitId]) -> Vec<i32> {
        let mut left = total.max(0);
        let mut shares = vec![0; order.len()];
        for (k, &u) in order.iter().enumerate() {
            let lethal = (self.might(u) - self.damage(u)).max(1);
            let share = if k + 1 == order.len() { left } else { left.min(lethal) };
            shares[k] = share;
            left -= share;
        }
        for (&u, &s) in order.iter().zip(&shares) {
            self.deal_damage(u, s);
        }
        shares
    }

    fn heal_all(&mut self, ruling: &'static str) {
        for i in 0..self.count {
            if self.alive[i] && self.damage[i] > 0 {
                self.damage[i] = 0;
                self.log(EventKind::Healed, UnitId(i as u8), 0, ruling);
            }
        }
    }

    fn end_modifiers(&mut self, lasts: Lasts) {
        for mods in self.modifiers.iter_mut().take(self.count) {
            for m in mods.iter_mut() {
                if m.is_some_and(|m| m.lasts == lasts) {
                    *m = None;
                }
            }
        }
    }

    fn log(&mut self, kind: EventKind, unit: UnitId, amount: i32, ruling: &'static str) {
        self.log.push(Event {
            kind,
            unit,
            amount,
            ruling,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RB38's sequence, worked: −3 to a 2-Might unit with a minimum of 1
    /// applies −1, and +3 later that turn makes it 4, not 2.
    /// No printed number panics: Might and Buffs at the ends of `i32`
    /// saturate, in the dev profile's overflow checks too.
    #[test]
    fn extreme_numbers_saturate() {
        let mut b = Board::default();
        let u = b.add_unit(i32::MAX).unwrap();
        b.buff(u);
        b.modify(u, i32::MAX, None, Lasts::Turn);
        assert_eq!(b.might(u), i32::MAX);
        let v = b.add_unit(i32::MIN).unwrap();
        b.modify(v, i32::MIN, Some(i32::MAX), Lasts::Turn);
        assert_eq!(b.calculated_might(v), i32::MIN);
        assert_eq!(b.might(v), 0);
    }

    #[test]
    fn a_floored_reduction_keeps_what_it_applied() {
        let mut b = Board::default();
        let u = b.add_unit(2).unwrap();
        assert_eq!(b.modify(u, -3, Some(1), Lasts::Turn), -1);
        assert_eq!(b.might(u), 1);
        b.modify(u, 3, None, Lasts::Turn);
        assert_eq!(b.might(u), 4);
        b.end_turn();
        assert_eq!(b.might(u), 2, "both end with the turn");
    }
}
