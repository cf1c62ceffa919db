//! Riftbound's conformance scenarios (`tests/riftbound/`): a ruling's
//! sequence scripted step by step on the kernel ([`crate::riftbound`]),
//! each stated outcome checked, reported as a Gridforged scenario is so
//! that `gridsim coverage` lists both.

use std::path::PathBuf;

use crate::riftbound::{Board, Event, EventKind, Lasts, UnitId};
use crate::scenario::ScenarioReport;

/// A loaded scenario: its units by index, in file order.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub name: String,
    pub file: PathBuf,
    pub covers: Vec<String>,
    pub units: Vec<UnitSpec>,
    pub steps: Vec<Step>,
}

/// A unit as the scenario places it.
#[derive(Debug, Clone)]
pub struct UnitSpec {
    pub name: String,
    pub might: i32,
    /// At its base rather than at a battlefield.
    pub at_base: bool,
}

/// One step: what happens, then what must hold.
#[derive(Debug, Clone, Default)]
pub struct Step {
    pub action: Option<Action>,
    /// For a `combat_damage` step: each unit's share, in the order given.
    pub shares: Option<Vec<i32>>,
    pub expect: Vec<Expect>,
    /// Lines the step must log, in this order among its lines.
    pub events: Vec<EventWant>,
}

/// A log line a step must write; `None` fields match any.
#[derive(Debug, Clone)]
pub struct EventWant {
    pub kind: EventKind,
    pub unit: Option<usize>,
    pub amount: Option<i32>,
    pub ruling: Option<String>,
}

impl EventWant {
    fn matches(&self, e: &Event, ids: &[UnitId]) -> bool {
        e.kind == self.kind
            && self.unit.is_none_or(|u| Some(ids[u]) == e.unit)
            && self.amount.is_none_or(|a| a == e.amount)
            && self.ruling.as_ref().is_none_or(|r| r == e.ruling)
    }
}

#[derive(Debug, Clone)]
pub enum Action {
    Damage {
        unit: usize,
        amount: i32,
    },
    Buff {
        unit: usize,
    },
    RemoveBuff {
        unit: usize,
    },
    Recall {
        unit: usize,
        heal: bool,
        exhaust: bool,
    },
    Modify {
        unit: usize,
        amount: i32,
        minimum: Option<i32>,
        lasts: Lasts,
    },
    Aura {
        source: usize,
        target: usize,
        amount: i32,
    },
    /// The cleanup after an effect resolves: the lethal check alone.
    Cleanup,
    CombatCleanup,
    EndTurn,
    CombatDamage {
        amount: i32,
        order: Vec<usize>,
    },
}

/// What a unit must show after a step; `None` fields are not checked.
#[derive(Debug, Clone, Default)]
pub struct Expect {
    pub unit: usize,
    pub might: Option<i32>,
    pub calculated_might: Option<i32>,
    pub damage: Option<i32>,
    pub buffs: Option<i32>,
    pub alive: Option<bool>,
    pub at_base: Option<bool>,
    pub exhausted: Option<bool>,
}

/// Runs `s` and reports each expectation that fails.
pub fn run(s: &Scenario) -> ScenarioReport {
    let mut board = Board::default();
    let mut ids = Vec::with_capacity(s.units.len());
    let mut failures = Vec::new();
    for spec in &s.units {
        match board.add_unit(spec.might) {
            Some(u) => {
                board.place(u, spec.at_base);
                ids.push(u);
            }
            None => {
                failures.push(format!("unit {}: the board holds no more units", spec.name));
                ids.push(UnitId(0));
            }
        }
    }
    let mut checks = 0;
    for (k, step) in s.steps.iter().enumerate() {
        let logged = board.log.len();
        let shares = step.action.as_ref().and_then(|a| apply(&mut board, &ids, a));
        // In order: each wanted line after the one before it.
        let lines = &board.log[logged..];
        let mut from = 0;
        for want in &step.events {
            checks += 1;
            match lines[from..].iter().position(|e| want.matches(e, &ids)) {
                Some(p) => from += p + 1,
                None => failures.push(format!(
                    "step {k}: event {want:?}: not logged in order; the step logged {:?}",
                    lines
                        .iter()
                        .map(|e| format!(
                            "{} {} {} ({})",
                            e.kind.name(),
                            e.unit.map_or("-".to_string(), |u| u.0.to_string()),
                            e.amount,
                            e.ruling
                        ))
                        .collect::<Vec<_>>()
                )),
            }
        }
        if let Some(want) = &step.shares {
            checks += 1;
            if shares.as_ref() != Some(want) {
                failures.push(format!("step {k}: shares: expected {want:?}, found {shares:?}"));
            }
        }
        for e in &step.expect {
            let u = ids[e.unit];
            let name = &s.units[e.unit].name;
            let mut check = |field: &str, want: Option<i32>, got: i32| {
                if let Some(want) = want {
                    checks += 1;
                    if want != got {
                        failures.push(format!("step {k}: {name}.{field}: expected {want}, found {got}"));
                    }
                }
            };
            check("might", e.might, board.might(u));
            check("calculated_might", e.calculated_might, board.calculated_might(u));
            check("damage", e.damage, board.damage(u));
            check("buffs", e.buffs, board.buffs(u));
            check("alive", e.alive.map(i32::from), i32::from(board.alive(u)));
            check("at_base", e.at_base.map(i32::from), i32::from(board.at_base(u)));
            check("exhausted", e.exhausted.map(i32::from), i32::from(board.exhausted(u)));
        }
    }
    ScenarioReport {
        name: s.name.clone(),
        file: s.file.clone(),
        covers: s.covers.clone(),
        failures,
        checks,
    }
}

/// Applies one action; a `combat_damage` returns the shares it assigned.
fn apply(board: &mut Board, ids: &[UnitId], a: &Action) -> Option<Vec<i32>> {
    match *a {
        Action::Damage { unit, amount } => board.deal_damage(ids[unit], amount),
        Action::Buff { unit } => board.buff(ids[unit]),
        Action::RemoveBuff { unit } => board.remove_buff(ids[unit]),
        Action::Recall { unit, heal, exhaust } => board.recall(ids[unit], heal, exhaust),
        Action::Modify {
            unit,
            amount,
            minimum,
            lasts,
        } => {
            board.modify(ids[unit], amount, minimum, lasts);
        }
        Action::Aura { source, target, amount } => {
            board.add_aura(ids[source], ids[target], amount);
        }
        Action::Cleanup => {
            board.kill_lethal();
        }
        Action::CombatCleanup => board.combat_cleanup(),
        Action::EndTurn => board.end_turn(),
        Action::CombatDamage { amount, ref order } => {
            let order: Vec<UnitId> = order.iter().map(|&k| ids[k]).collect();
            let mut shares = vec![0; order.len()];
            board.assign_combat_damage(amount, &order, &mut shares);
            for (&u, &s) in order.iter().zip(&shares) {
                board.deal_damage(u, s);
            }
            return Some(shares);
        }
    }
    None
}
