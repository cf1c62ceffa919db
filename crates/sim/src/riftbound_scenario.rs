//! Riftbound's conformance scenarios (`tests/riftbound/`): a ruling's
//! sequence scripted step by step on the kernel ([`gridsim_riftbound`]),
//! each stated outcome checked, reported as a Gridforged scenario is so
//! that `gridsim coverage` lists both.

use std::path::PathBuf;

use crate::scenario::ScenarioReport;
use gridsim_riftbound::cards::{CardIndex, Catalog};
use gridsim_riftbound::showdown::{Choices, End, Lane, Showdown};
use gridsim_riftbound::{Board, Event, EventKind, Lasts, Player, UnitId};

/// The frozen catalog a showdown scenario plays its cards from: a tuning
/// of the starter catalog changes no scenario.
pub const CATALOG_DIR: &str = "tests/fixtures/riftbound_catalog";

/// A loaded scenario: its units by index, in file order.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub name: String,
    pub file: PathBuf,
    pub covers: Vec<String>,
    pub units: Vec<UnitSpec>,
    pub steps: Vec<Step>,
    /// A whole showdown instead of steps, with the catalog it plays.
    pub showdown: Option<(ShowdownSpec, Catalog)>,
}

/// A scripted showdown: both lanes, every choice, what must hold after.
#[derive(Debug, Clone, Default)]
pub struct ShowdownSpec {
    /// Attacker's lane, then defender's.
    pub lanes: [Lane; 2],
    /// Unit names: the attacker's lane units, then the defender's (in
    /// board order), then the units in hand, in hand order.
    pub names: Vec<String>,
    /// How many of `names` are lane units.
    pub lane_units: usize,
    /// The cards of the units in hand, named after the lane units: each is
    /// found on the board once played.
    pub hand_units: Vec<CardIndex>,
    pub script: Script,
    /// The battlefield's card, if it has one (RB19).
    pub battlefield: Option<CardIndex>,
    /// The defender holds the battlefield instead of a combat showdown
    /// being played (RB14).
    pub hold: bool,
    /// How it must end (the winner follows: conquer the attacker, hold the
    /// defender, empty nobody).
    pub end: Option<End>,
    /// Cards played and abilities activated (the outcome's `played`).
    pub played: Option<u32>,
    /// Chain items resolved (the outcome's `resolved`).
    pub resolved: Option<u32>,
    pub expect: Vec<Expect>,
    pub events: Vec<EventWant>,
    /// Lines the showdown must not log at all.
    pub absent: Vec<EventWant>,
    pub zones: Vec<ZoneWant>,
}

/// A player's zone counts after a showdown; `None` fields are not checked.
#[derive(Debug, Clone, Default)]
pub struct ZoneWant {
    pub player: Player,
    pub trash: Option<u32>,
    pub deck_top: Option<u32>,
    pub returned: Option<u32>,
    pub recycled: Option<u32>,
    pub base_gear: Option<u32>,
    pub score: Option<u32>,
    pub banished: Option<u32>,
    pub energy: Option<u32>,
    pub drawn: Option<u32>,
    /// Cards still hidden at the battlefield.
    pub hidden: Option<u32>,
    /// Cards left in hand: a card played or discarded leaves it.
    pub hand: Option<u32>,
}

/// Every choice of a scripted showdown. Whatever the script does not say
/// is the first legal choice in board order.
#[derive(Debug, Clone, Default)]
pub struct Script {
    /// Spells to play, in order: each when its player next may play it.
    pub plays: Vec<ScriptedPlay>,
    /// A trigger of unit `.0` aims at unit `.1`.
    pub trigger_targets: Vec<(usize, usize)>,
    /// Each player's simultaneous items go on the chain in this order of
    /// their units (RB6, RB27).
    pub order: [Vec<usize>; 2],
    /// Each player assigns combat damage in this order (RB42).
    pub damage_order: [Vec<usize>; 2],
    /// The answers to "you may", in the order asked (unlisted: yes).
    pub may: Vec<bool>,
}

#[derive(Debug, Clone)]
pub struct ScriptedPlay {
    pub player: Player,
    pub card: CardIndex,
    pub targets: Vec<usize>,
}

/// The name `battlefield` in a script's `order`: the battlefield's items.
pub const BATTLEFIELD: usize = usize::MAX;

/// A script being played: which play is next, the targets of the spell
/// just played, and any step of the script that could not be followed.
struct Scripted<'a> {
    script: &'a Script,
    battlefield: Option<CardIndex>,
    next: usize,
    /// "You may" answers given so far.
    asked: usize,
    targets: std::collections::VecDeque<usize>,
    problems: Vec<String>,
}

impl Choices for Scripted<'_> {
    fn play(&mut self, p: Player, castable: &[CardIndex]) -> Option<usize> {
        let play = self.script.plays.get(self.next).filter(|play| play.player == p)?;
        let k = castable.iter().position(|&c| c == play.card)?;
        self.next += 1;
        self.targets = play.targets.iter().copied().collect();
        Some(k)
    }

    fn target(&mut self, _p: Player, card: CardIndex, unit: Option<UnitId>, legal: &[UnitId]) -> usize {
        // A trigger's target is scripted by its unit's number, the
        // battlefield's by `BATTLEFIELD`; a spell's come with its play.
        let source = match unit {
            Some(u) => Some(usize::from(u.0)),
            None if Some(card) == self.battlefield => Some(BATTLEFIELD),
            None => None,
        };
        let wanted = match source {
            None => self.targets.pop_front(),
            Some(from) => self
                .script
                .trigger_targets
                .iter()
                .find(|(f, _)| *f == from)
                .map(|&(_, to)| to),
        };
        match wanted {
            None => 0,
            Some(w) => legal.iter().position(|l| usize::from(l.0) == w).unwrap_or_else(|| {
                self.problems
                    .push(format!("the scripted target unit #{w} is not a legal target"));
                0
            }),
        }
    }

    fn order(&mut self, p: Player, items: &mut [(usize, Option<UnitId>)]) {
        let rank = |u: Option<UnitId>| {
            let listed = &self.script.order[usize::from(p)];
            // An item of no unit is the battlefield's.
            let key = u.map_or(BATTLEFIELD, |u| usize::from(u.0));
            listed.iter().position(|&x| x == key).unwrap_or(usize::MAX)
        };
        items.sort_by_key(|&(k, u)| (rank(u), k));
    }

    fn may(&mut self, _p: Player, _card: CardIndex) -> bool {
        let answer = self.script.may.get(self.asked).copied().unwrap_or(true);
        self.asked += 1;
        answer
    }

    /// Never: a scenario lists what is hidden (`defender_hidden`).
    fn hide(&mut self, _p: Player, _card: CardIndex) -> bool {
        false
    }

    /// The first card in hand: a script discards in hand order.
    fn discard(&mut self, _p: Player, _hand: &[CardIndex]) -> usize {
        0
    }

    fn damage_order(&mut self, p: Player, targets: &mut [UnitId]) {
        let listed = &self.script.damage_order[usize::from(p)];
        let rank = |u: UnitId| listed.iter().position(|&x| x == usize::from(u.0)).unwrap_or(usize::MAX);
        targets.sort_by_key(|&u| (rank(u), u.0));
    }
}

/// Plays a scripted showdown and checks what it must show.
fn run_showdown(s: &Scenario, spec: &ShowdownSpec, catalog: &Catalog) -> ScenarioReport {
    let mut showdown = Showdown::new(catalog, true);
    showdown.battlefield = spec.battlefield;
    let mut script = Scripted {
        script: &spec.script,
        battlefield: spec.battlefield,
        next: 0,
        asked: 0,
        targets: Default::default(),
        problems: Vec::new(),
    };
    let outcome = if spec.hold {
        showdown.hold_with(&spec.lanes[1], &mut script)
    } else {
        showdown.play_with(&spec.lanes[0], &spec.lanes[1], &mut script)
    };
    let mut failures = script.problems;
    if script.next < spec.script.plays.len() {
        failures.push(format!(
            "the script's play {} was never made: its player never had it in hand with a legal target at their turn",
            script.next
        ));
    }
    let board = &showdown.board;
    let mut ids: Vec<UnitId> = (0..spec.lane_units).map(|k| UnitId(k as u8)).collect();
    // A unit played from hand is the next unit of its card placed after
    // the lanes'.
    let mut taken = Vec::new();
    for (k, &c) in spec.hand_units.iter().enumerate() {
        let found = board
            .units()
            .skip(spec.lane_units)
            .find(|u| board.card(*u) == c && !taken.contains(u));
        match found {
            Some(u) => {
                taken.push(u);
                ids.push(u);
            }
            None => {
                // A card left in hand, in the deck or hidden is no failure
                // unless the scenario checks it as a unit on the board.
                let n = spec.lane_units + k;
                let checked = spec.expect.iter().any(|e| e.unit == n)
                    || spec.events.iter().any(|e| e.unit == Some(n))
                    || spec.absent.iter().any(|e| e.unit == Some(n));
                if checked {
                    failures.push(format!("{} was never played", spec.names[n]));
                }
                // A slot no placed unit uses: its checks fail, none panics.
                ids.push(UnitId((gridsim_riftbound::MAX_UNITS - 1) as u8));
            }
        }
    }
    let mut checks = 0;
    if let Some(end) = spec.end {
        checks += 1;
        if outcome.end != end {
            failures.push(format!("end: expected {}, found {}", end.name(), outcome.end.name()));
        }
    }
    for (what, want, found) in [
        ("played", spec.played, outcome.played),
        ("resolved", spec.resolved, outcome.resolved),
    ] {
        if let Some(want) = want {
            checks += 1;
            if found != want {
                failures.push(format!("{what}: expected {want}, found {found}"));
            }
        }
    }
    check_events(
        &board.log,
        &spec.events,
        &ids,
        "the showdown",
        &mut checks,
        &mut failures,
    );
    check_absent(&board.log, &spec.absent, &ids, &mut checks, &mut failures);
    check_units(
        board,
        &spec.expect,
        &ids,
        &spec.names,
        "after the showdown",
        &mut checks,
        &mut failures,
    );
    let hands = [0, 1].map(|p| showdown.hand_size(p) as u32);
    check_zones(
        board,
        Some(hands),
        &spec.zones,
        "after the showdown",
        &mut checks,
        &mut failures,
    );
    ScenarioReport {
        name: s.name.clone(),
        file: s.file.clone(),
        covers: s.covers.clone(),
        failures,
        checks,
    }
}

/// Checks that `lines` hold every wanted line, in order.
fn check_events(
    lines: &[Event],
    wanted: &[EventWant],
    ids: &[UnitId],
    at: &str,
    checks: &mut usize,
    failures: &mut Vec<String>,
) {
    let mut from = 0;
    for want in wanted {
        *checks += 1;
        if let Some(n) = want.count {
            let found = lines.iter().filter(|e| want.matches(e, ids)).count();
            if found != n as usize {
                failures.push(format!("{at}: event {want:?}: {found} logged, {n} wanted"));
            }
        }
        match lines[from..].iter().position(|e| want.matches(e, ids)) {
            Some(p) => from += p + 1,
            None => failures.push(format!(
                "{at}: event {want:?}: not logged in order; logged {:?}",
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
}

/// Checks that `lines` hold none of the lines a ruling says never
/// happen (RB9: no Deathknell for a unit Zhonya's saved).
fn check_absent(lines: &[Event], absent: &[EventWant], ids: &[UnitId], checks: &mut usize, failures: &mut Vec<String>) {
    for want in absent {
        *checks += 1;
        if let Some(e) = lines.iter().find(|e| want.matches(e, ids)) {
            failures.push(format!(
                "the showdown: absent {want:?}: logged as {} {} {} ({})",
                e.kind.name(),
                e.unit.map_or("-".to_string(), |u| u.0.to_string()),
                e.amount,
                e.ruling
            ));
        }
    }
}

/// Checks players' zone counts.
/// `hands`: the cards left in each hand, known after a showdown (a step
/// scenario has no hands).
fn check_zones(
    board: &Board,
    hands: Option<[u32; 2]>,
    zones: &[ZoneWant],
    at: &str,
    checks: &mut usize,
    failures: &mut Vec<String>,
) {
    for z in zones {
        let p = usize::from(z.player);
        let who = if p == 0 { "attacker" } else { "defender" };
        for (field, want, got) in [
            ("trash", z.trash, board.trash[p]),
            ("deck_top", z.deck_top, board.deck_top[p]),
            ("returned", z.returned, board.returned[p]),
            ("recycled", z.recycled, board.recycled[p]),
            ("base_gear", z.base_gear, board.base_gear[p]),
            ("score", z.score, board.score[p]),
            ("banished", z.banished, board.banished[p]),
            ("energy", z.energy, board.energy[p]),
            ("drawn", z.drawn, board.drawn[p]),
            ("hidden", z.hidden, board.hidden_len[p] as u32),
        ] {
            check_count(who, field, want, got, at, checks, failures);
        }
        if let Some(want) = z.hand {
            match hands {
                Some(h) => check_count(who, "hand", Some(want), h[p], at, checks, failures),
                None => failures.push(format!("{at}: {who}.hand: a hand is counted only after a showdown")),
            }
        }
    }
}

/// One count of a zone, checked when the scenario states it.
fn check_count(
    who: &str,
    field: &str,
    want: Option<u32>,
    got: u32,
    at: &str,
    checks: &mut usize,
    failures: &mut Vec<String>,
) {
    if let Some(want) = want {
        *checks += 1;
        if want != got {
            failures.push(format!("{at}: {who}.{field}: expected {want}, found {got}"));
        }
    }
}

/// Checks each unit's expected state.
fn check_units(
    board: &Board,
    expect: &[Expect],
    ids: &[UnitId],
    names: &[String],
    at: &str,
    checks: &mut usize,
    failures: &mut Vec<String>,
) {
    for e in expect {
        let u = ids[e.unit];
        let name = &names[e.unit];
        let mut check = |field: &str, want: Option<i32>, got: i32| {
            if let Some(want) = want {
                *checks += 1;
                if want != got {
                    failures.push(format!("{at}: {name}.{field}: expected {want}, found {got}"));
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
        check("stunned", e.stunned.map(i32::from), i32::from(board.stunned(u)));
    }
}

/// A unit as the scenario places it.
#[derive(Debug, Clone)]
pub struct UnitSpec {
    pub name: String,
    pub might: i32,
    /// At its base rather than at a battlefield.
    pub at_base: bool,
    /// Its owner and controller: 0 attacker, 1 defender.
    pub player: Player,
    /// Controlled by the other player (RB8): `player` stays its owner.
    pub stolen: bool,
    /// Temporary: killed at the start of each beginning phase (RB15).
    pub temporary: bool,
    /// The gear it holds.
    pub gear: Vec<gridsim_riftbound::Gear>,
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
    /// Players' zone counts after the step.
    pub zones: Vec<ZoneWant>,
}

/// A log line a step must write; `None` fields match any.
#[derive(Debug, Clone)]
pub struct EventWant {
    pub kind: EventKind,
    pub unit: Option<usize>,
    pub amount: Option<i32>,
    pub ruling: Option<String>,
    /// In `events`: how many lines of the whole log match, exactly (a
    /// trigger that must happen once, not again later).
    pub count: Option<u32>,
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
    /// An effect that kills (RB15's Temporary, a spell).
    Kill {
        unit: usize,
    },
    /// The start of a beginning phase: Temporary triggers (RB15).
    BeginningPhase,
    /// To the bottom of its owner's deck (RB29).
    Recycle {
        unit: usize,
    },
    /// Banished (RB30).
    Banish {
        unit: usize,
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
    pub stunned: Option<bool>,
}

/// Runs `s` and reports each expectation that fails.
pub fn run(s: &Scenario) -> ScenarioReport {
    if let Some((spec, catalog)) = &s.showdown {
        return run_showdown(s, spec, catalog);
    }
    let mut board = Board::default();
    let mut ids = Vec::with_capacity(s.units.len());
    let mut failures = Vec::new();
    for spec in &s.units {
        match board.add_unit(spec.might) {
            Some(u) => {
                board.place(u, spec.at_base);
                board.set_card(u, 0, spec.player, 0, 0);
                if spec.stolen {
                    board.set_controller(u, 1 - spec.player);
                }
                if spec.temporary {
                    board.set_temporary(u);
                }
                for &g in &spec.gear {
                    if !board.equip(u, g) {
                        failures.push(format!("unit {}: it holds no more gear", spec.name));
                    }
                }
                ids.push(u);
            }
            None => {
                failures.push(format!("unit {}: the board holds no more units", spec.name));
                ids.push(UnitId(0));
            }
        }
    }
    let names: Vec<String> = s.units.iter().map(|u| u.name.clone()).collect();
    let mut checks = 0;
    for (k, step) in s.steps.iter().enumerate() {
        let logged = board.log.len();
        let shares = step.action.as_ref().and_then(|a| apply(&mut board, &ids, a));
        let at = format!("step {k}");
        check_events(
            &board.log[logged..],
            &step.events,
            &ids,
            &at,
            &mut checks,
            &mut failures,
        );
        if let Some(want) = &step.shares {
            checks += 1;
            if shares.as_ref() != Some(want) {
                failures.push(format!("{at}: shares: expected {want:?}, found {shares:?}"));
            }
        }
        check_units(&board, &step.expect, &ids, &names, &at, &mut checks, &mut failures);
        check_zones(&board, None, &step.zones, &at, &mut checks, &mut failures);
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
        Action::Buff { unit } => {
            board.buff(ids[unit]);
        }
        Action::RemoveBuff { unit } => {
            board.remove_buff(ids[unit]);
        }
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
        Action::Kill { unit } => {
            board.kill(ids[unit], "RB15");
        }
        Action::BeginningPhase => {
            board.beginning_phase();
        }
        Action::Recycle { unit } => board.recycle(ids[unit]),
        Action::Banish { unit } => board.banish(ids[unit]),
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
