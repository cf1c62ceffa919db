//! Game scenarios: a few turns of a whole Riftbound game, every action
//! scripted, checked against the Core Rules numbers a game follows
//! (docs/scenarios.md, "Riftbound game scenarios"). The game is set up
//! from two decks and a seed, then put in the state the scenario states
//! (who goes first, the scores, units in play, an emptied deck); each
//! turn's actions are the turn player's script, and each turn's log is
//! checked for the lines it expects and the lines it must not hold.

use std::path::PathBuf;

use crate::scenario::ScenarioReport;
use gridsim_core::rng::FightRng;
use gridsim_riftbound::cards::{CardIndex, Catalog};
use gridsim_riftbound_game::bots::Action;
use gridsim_riftbound_game::{Bot, Deck, EndReason, Game, GameEvent, GameEventKind, MAX_UNITS, Place, Seat, Settings};

/// A game scenario, loaded.
#[derive(Debug, Clone)]
pub struct GameScenario {
    pub name: String,
    pub file: PathBuf,
    pub covers: Vec<String>,
    pub catalog: Catalog,
    pub decks: [Deck; 2],
    pub seed: u64,
    /// Who goes first, in place of the seed's draw (115.1).
    pub first: Option<Seat>,
    pub score: [u32; 2],
    /// Each seat's mulligan: the positions of its opening hand it sets
    /// aside, ascending (117.1).
    pub mulligan: [Vec<u8>; 2],
    /// Seats whose deck is emptied into their trash before the first turn.
    pub empty_decks: Vec<Seat>,
    pub units: Vec<GameUnit>,
    /// Lines setup must log (115–117), before the scenario's state is put.
    pub setup: Vec<LineWant>,
    pub turns: Vec<GameTurn>,
}

/// A unit in play when the first turn begins.
#[derive(Debug, Clone)]
pub struct GameUnit {
    pub name: String,
    pub seat: Seat,
    pub card: CardIndex,
    pub place: Place,
    pub exhausted: bool,
    pub buffed: bool,
}

/// One action of a turn's script.
#[derive(Debug, Clone)]
pub enum Step {
    /// Plays this unit from the hand, paying its Accelerate when asked
    /// (721).
    Play {
        card: CardIndex,
        accelerate: bool,
    },
    /// Plays this spell from the hand in the action phase, its targets at
    /// battlefield `to` (316).
    Cast {
        card: CardIndex,
        to: u8,
    },
    Champion,
    /// A standard move of the named units to a battlefield.
    Move {
        units: Vec<usize>,
        to: u8,
    },
    /// A standard move of the turn player's units of a card at its base.
    MoveCard {
        card: CardIndex,
        to: u8,
    },
    /// A standard move of the named units back to base.
    MoveToBase(Vec<usize>),
    /// Its Legend's ability (167.8), aimed at the named unit when it aims
    /// at one, and for a move from its base at battlefield `to`.
    Legend {
        unit: Option<usize>,
        to: u8,
    },
}

/// A line the turn's log must hold (or must not): every field given must
/// match.
#[derive(Debug, Clone, PartialEq)]
pub struct LineWant {
    pub event: GameEventKind,
    pub seat: Option<Seat>,
    pub amount: Option<i32>,
    pub rule: Option<String>,
    pub card: Option<CardIndex>,
    /// An expected line's number of matches in the turn, when exactly so
    /// many are wanted; at least one otherwise.
    pub count: Option<usize>,
}

impl LineWant {
    fn matches(&self, e: &GameEvent) -> bool {
        e.kind == self.event
            && self.seat.is_none_or(|s| s == e.seat)
            && self.amount.is_none_or(|a| a == e.amount)
            && self.rule.as_deref().is_none_or(|r| r == e.rule)
            && self.card.is_none_or(|c| Some(c) == e.card)
    }

    fn describe(&self, catalog: &Catalog) -> String {
        let mut out = self.event.name().to_string();
        if let Some(s) = self.seat {
            out += &format!(" seat {s}");
        }
        if let Some(a) = self.amount {
            out += &format!(" amount {a}");
        }
        if let Some(c) = self.card {
            out += &format!(" card {}", catalog.card(c).key);
        }
        if let Some(r) = &self.rule {
            out += &format!(" rule {r}");
        }
        out
    }
}

/// One turn: the turn player's script and what the turn must show.
#[derive(Debug, Clone, Default)]
pub struct GameTurn {
    pub steps: Vec<Step>,
    pub expect: Vec<LineWant>,
    pub absent: Vec<LineWant>,
    /// Both seats' scores once the turn is over.
    pub score: Option<[u32; 2]>,
    /// How the game stands once the turn is over: `None` still going.
    pub ended: Option<Option<EndReason>>,
    pub winner: Option<Option<Seat>>,
}

/// Plays a game scenario and checks every turn.
pub fn run(s: &GameScenario) -> ScenarioReport {
    let mut failures = Vec::new();
    let mut checks = 0;
    let mut g = Game::new(&s.catalog, Settings::default(), true);
    for seat in 0..2 {
        g.script[seat].set_mulligan(&s.mulligan[seat]);
    }
    g.setup(
        [&s.decks[0], &s.decks[1]],
        [Bot::Script; 2],
        FightRng::for_fight(s.seed, 0),
    );
    check_lines(&g.log, "setup", &s.setup, &[], &s.catalog, &mut checks, &mut failures);
    if let Some(f) = s.first {
        g.first = f;
        g.active = f;
        g.fields[0] = g.sides[usize::from(f)].field;
        g.fields[1] = g.sides[usize::from(1 - f)].field;
    }
    for seat in 0..2 {
        g.sides[seat].score = s.score[seat];
    }
    for &seat in &s.empty_decks {
        let side = &mut g.sides[usize::from(seat)];
        while let Some(c) = side.deck.pop() {
            side.trash.push(c);
        }
    }
    let mut slots = Vec::new();
    for u in &s.units {
        let Some(slot) = (0..MAX_UNITS).find(|&k| !g.units.alive[k]) else {
            failures.push(format!("no room on the board for unit `{}`", u.name));
            break;
        };
        g.units.alive[slot] = true;
        g.units.card[slot] = u.card;
        g.units.owner[slot] = u.seat;
        g.units.place[slot] = u.place;
        g.units.exhausted[slot] = u.exhausted;
        g.units.buffed[slot] = u.buffed;
        slots.push(slot);
    }
    for (t, turn) in s.turns.iter().enumerate() {
        if g.ended.is_some() {
            failures.push(format!("turn[{t}]: the game ended before it"));
            break;
        }
        let p = usize::from(g.active);
        let actions: Vec<Action> = turn
            .steps
            .iter()
            .map(|step| match step {
                Step::Play { card, accelerate } => Action::PlayCard {
                    card: *card,
                    accelerate: *accelerate,
                },
                Step::Cast { card, to } => Action::Cast { card: *card, at: *to },
                Step::Champion => Action::PlayChampion { accelerate: false },
                Step::Move { units, to } => Action::Move {
                    units: units.iter().filter_map(|&u| slots.get(u)).fold(0, |m, &k| m | 1 << k),
                    to: *to,
                },
                Step::MoveCard { card, to } => Action::MoveCard { card: *card, to: *to },
                Step::Legend { unit, to } => Action::Legend {
                    unit: unit.and_then(|u| slots.get(u).copied()).unwrap_or(MAX_UNITS),
                    to: *to,
                },
                Step::MoveToBase(units) => Action::MoveToBase {
                    units: units.iter().filter_map(|&u| slots.get(u)).fold(0, |m, &k| m | 1 << k),
                },
            })
            .collect();
        g.script[p].set(&actions);
        let before = g.log.len();
        g.play_turn();
        check_lines(
            &g.log[before..],
            &format!("turn[{t}]"),
            &turn.expect,
            &turn.absent,
            &s.catalog,
            &mut checks,
            &mut failures,
        );
        if let Some(score) = turn.score {
            checks += 1;
            let got = [g.sides[0].score, g.sides[1].score];
            if got != score {
                failures.push(format!("turn[{t}]: score {got:?}, expected {score:?}"));
            }
        }
        if let Some(ended) = turn.ended {
            checks += 1;
            if g.ended != ended {
                failures.push(format!("turn[{t}]: ended {:?}, expected {ended:?}", g.ended));
            }
        }
        if let Some(winner) = turn.winner {
            checks += 1;
            if g.winner != winner {
                failures.push(format!("turn[{t}]: winner {:?}, expected {winner:?}", g.winner));
            }
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

/// Checks `lines` (logged in `what`) against what they must and must not
/// hold.
fn check_lines(
    lines: &[GameEvent],
    what: &str,
    expect: &[LineWant],
    absent: &[LineWant],
    catalog: &Catalog,
    checks: &mut usize,
    failures: &mut Vec<String>,
) {
    for want in expect {
        *checks += 1;
        let found = lines.iter().filter(|e| want.matches(e)).count();
        match want.count {
            Some(n) if n != found => failures.push(format!(
                "{what}: expected {n} lines `{}`, found {found}; it logged: {}",
                want.describe(catalog),
                told(lines, catalog)
            )),
            None if found == 0 => failures.push(format!(
                "{what}: expected a line `{}`; it logged: {}",
                want.describe(catalog),
                told(lines, catalog)
            )),
            _ => {}
        }
    }
    for want in absent {
        *checks += 1;
        if let Some(e) = lines.iter().find(|e| want.matches(e)) {
            failures.push(format!(
                "{what}: `{}` must not be logged, and was: {}",
                want.describe(catalog),
                line(e, catalog)
            ));
        }
    }
}

fn line(e: &GameEvent, catalog: &Catalog) -> String {
    format!(
        "{} seat {} amount {}{} rule {}",
        e.kind.name(),
        e.seat,
        e.amount,
        e.card
            .map_or(String::new(), |c| format!(" card {}", catalog.card(c).key)),
        e.rule
    )
}

fn told(lines: &[GameEvent], catalog: &Catalog) -> String {
    lines.iter().map(|e| line(e, catalog)).collect::<Vec<_>>().join("; ")
}
