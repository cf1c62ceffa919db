//! Riftbound game scenario files (`tests/riftbound/game_*.toml`: `game =
//! "riftbound"` with `[[turn]]`s) into
//! [`gridsim_sim::riftbound_game_scenario::GameScenario`]: the Origins
//! catalog, two bundled decks by name, the state the first turn begins
//! in, and each turn's script and expectations, with a diagnostic naming
//! the file, line and key of anything wrong (docs/scenarios.md).

use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::super::validate::ORIGINS_DIR;
use super::super::{Diagnostic, parse_toml};
use gridsim_core::diagnostics;
use gridsim_riftbound::cards::CardIndex;
use gridsim_riftbound_game::bots::MAX_SCRIPT;
use gridsim_riftbound_game::{EndReason, GameEventKind, MAX_FIELDS, MAX_UNITS, Place, Seat, Settings};
use gridsim_sim::riftbound_game_scenario::{GameScenario, GameTurn, GameUnit, LineWant, Step};

/// Where a game scenario's decks are found, by name.
pub const DECKS_DIR: &str = "configs/riftbound/decks";

/// Whether `text` is a Riftbound game scenario: `game = "riftbound"` and
/// turns to play.
pub fn is_riftbound_game_scenario(text: &str) -> bool {
    toml::from_str::<toml::Table>(text)
        .is_ok_and(|t| t.get("game").and_then(toml::Value::as_str) == Some("riftbound") && t.contains_key("turn"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[allow(dead_code, reason = "read by `is_riftbound_game_scenario`")]
    game: String,
    name: String,
    covers: Spanned<Vec<String>>,
    decks: Spanned<Vec<String>>,
    #[serde(default)]
    seed: u64,
    first: Option<Spanned<u8>>,
    #[serde(default)]
    score: [u32; 2],
    #[serde(default)]
    empty_decks: Vec<Spanned<u8>>,
    /// Each seat's mulligan: positions of its opening hand, ascending.
    #[serde(default)]
    mulligan: [Vec<Spanned<u8>>; 2],
    #[serde(rename = "unit", default)]
    units: Vec<UnitDef>,
    /// Lines setup logs, before the scenario's state is put.
    #[serde(default)]
    setup: Vec<LineDef>,
    #[serde(rename = "turn")]
    turns: Vec<TurnDef>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitDef {
    name: Spanned<String>,
    seat: Spanned<u8>,
    card: Spanned<String>,
    at: Spanned<String>,
    #[serde(default)]
    exhausted: bool,
    /// With a Buff (RB4).
    #[serde(default)]
    buffed: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnDef {
    actions: Option<Spanned<Vec<ActionDef>>>,
    #[serde(default)]
    expect: Vec<LineDef>,
    #[serde(default)]
    absent: Vec<LineDef>,
    score: Option<[u32; 2]>,
    ended: Option<Spanned<String>>,
    winner: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionDef {
    play: Option<Spanned<String>>,
    /// With `play` of a unit: its Accelerate paid (721).
    #[serde(default)]
    accelerate: Option<Spanned<bool>>,
    #[serde(default)]
    champion: bool,
    #[serde(rename = "move")]
    moves: Option<Vec<Spanned<String>>>,
    move_card: Option<Spanned<String>>,
    to: Option<Spanned<u8>>,
    move_to_base: Option<Vec<Spanned<String>>>,
    /// Its Legend's ability aimed at this unit (167.8); a move from its
    /// base goes to battlefield `to`.
    legend: Option<Spanned<String>>,
    /// Its Legend's ability that aims at no unit (167.8).
    #[serde(default)]
    use_legend: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LineDef {
    event: Spanned<String>,
    seat: Option<Spanned<u8>>,
    amount: Option<i32>,
    rule: Option<String>,
    card: Option<Spanned<String>>,
    count: Option<usize>,
}

/// Reads a Riftbound game scenario; every error found, each with its line
/// and key.
pub fn parse_riftbound_game_scenario(file: &Path, text: &str) -> Result<GameScenario, Vec<Diagnostic>> {
    let parsed: File = parse_toml(file, text)?;
    let mut bad = Vec::new();
    let core = gridsim_core::rule_book::riftbound_core_rules();
    let ids: Vec<&str> = core.iter().map(|r| r.id.as_str()).collect();
    let accepts = |id: &str| ids.contains(&id);
    let citable = super::super::Citable {
        ids: &ids,
        accepts: &accepts,
        none: "name at least one Core Rules number this scenario checks, as `CR443`",
        what: "a Core Rules number a game follows (crates/core/src/rule_book/riftbound_core_rules.tsv)",
    };
    super::super::check_covers(file, text, &parsed.covers, &citable, &mut bad);
    let catalog = super::super::load_riftbound_catalog(&[PathBuf::from(ORIGINS_DIR)])?;
    let settings = Settings::default();
    let at = |span: std::ops::Range<usize>, key: String, message: String| {
        Diagnostic::at(file, text, Some(span), key, message)
    };
    let card = |name: &Spanned<String>, key: String, bad: &mut Vec<Diagnostic>| -> CardIndex {
        let n = name.get_ref();
        catalog.index(n).unwrap_or_else(|| {
            let keys: Vec<&str> = catalog.cards.iter().map(|c| c.key.as_str()).collect();
            let nearest = diagnostics::suggestion(n, &keys);
            bad.push(at(name.span(), key, format!("no card `{n}` in {ORIGINS_DIR}{nearest}")));
            0
        })
    };
    let seat = |s: &Spanned<u8>, key: String, bad: &mut Vec<Diagnostic>| -> Seat {
        if *s.get_ref() > 1 {
            bad.push(at(s.span(), key, format!("seat {} is not a seat: 0 or 1", s.get_ref())));
        }
        (*s.get_ref()).min(1)
    };
    // The lines a log must (or must not) hold, at `what` (`turn[0].expect`).
    let lines = |defs: &[LineDef], what: &str, bad: &mut Vec<Diagnostic>| -> Vec<LineWant> {
        defs.iter()
            .enumerate()
            .map(|(l, w)| {
                let key = |k: &str| format!("{what}[{l}].{k}");
                let kinds: Vec<&str> = GameEventKind::ALL.iter().map(|k| k.name()).collect();
                let event = GameEventKind::ALL
                    .into_iter()
                    .find(|k| k.name() == w.event.get_ref())
                    .unwrap_or_else(|| {
                        bad.push(at(
                            w.event.span(),
                            key("event"),
                            format!(
                                "`{}` is not a game log line{}",
                                w.event.get_ref(),
                                diagnostics::suggestion(w.event.get_ref(), &kinds)
                            ),
                        ));
                        GameEventKind::TurnBegan
                    });
                LineWant {
                    event,
                    seat: w.seat.as_ref().map(|s| seat(s, key("seat"), bad)),
                    amount: w.amount,
                    rule: w.rule.clone(),
                    card: w.card.as_ref().map(|c| card(c, key("card"), bad)),
                    count: w.count,
                }
            })
            .collect()
    };
    let setup = lines(&parsed.setup, "setup", &mut bad);
    let mut decks = Vec::new();
    if parsed.decks.get_ref().len() != 2 {
        bad.push(at(
            parsed.decks.span(),
            "decks".into(),
            "name two decks, seat 0's then seat 1's".into(),
        ));
    }
    for name in parsed.decks.get_ref().iter().take(2) {
        let path = Path::new(DECKS_DIR).join(format!("{name}.toml"));
        match super::super::load_decks(&[path], &catalog, &settings) {
            Ok(mut d) if !d.is_empty() => decks.push(d.remove(0)),
            Ok(_) => {}
            Err(_) => {
                let names = deck_names();
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                bad.push(at(
                    parsed.decks.span(),
                    "decks".into(),
                    format!(
                        "no legal deck `{name}` in {DECKS_DIR}{}",
                        diagnostics::suggestion(name, &names)
                    ),
                ));
            }
        }
    }
    let first = parsed.first.as_ref().map(|f| seat(f, "first".into(), &mut bad));
    let empty_decks = parsed
        .empty_decks
        .iter()
        .enumerate()
        .map(|(i, s)| seat(s, format!("empty_decks[{i}]"), &mut bad))
        .collect();
    let hand = Settings::default().opening_hand;
    let mulligan = [0, 1].map(|s: usize| {
        let mut positions = Vec::new();
        for (i, p) in parsed.mulligan[s].iter().enumerate() {
            let after = positions.last().is_none_or(|&last| *p.get_ref() > last);
            if u32::from(*p.get_ref()) >= hand || !after || i >= MAX_SCRIPT {
                bad.push(at(
                    p.span(),
                    format!("mulligan[{s}][{i}]"),
                    format!(
                        "positions of the opening hand of {hand}, ascending, at most {MAX_SCRIPT}: 0 is its first card"
                    ),
                ));
            }
            positions.push(*p.get_ref());
        }
        positions
    });
    let names: Vec<&str> = parsed.units.iter().map(|u| u.name.get_ref().as_str()).collect();
    if parsed.units.len() > MAX_UNITS {
        bad.push(at(
            parsed.decks.span(),
            "unit".into(),
            format!("at most {MAX_UNITS} units"),
        ));
    }
    let mut units = Vec::new();
    for (i, u) in parsed.units.iter().enumerate() {
        let key = |k: &str| format!("unit[{i}].{k}");
        if names[..i].contains(&u.name.get_ref().as_str()) {
            bad.push(at(
                u.name.span(),
                key("name"),
                format!("a second unit named `{}`", u.name.get_ref()),
            ));
        }
        let place = match u.at.get_ref().as_str() {
            "base" => Place::Base,
            other => match other.strip_prefix("field ").and_then(|b| b.parse::<u8>().ok()) {
                Some(b) if usize::from(b) < MAX_FIELDS.min(2) => Place::Field(b),
                _ => {
                    bad.push(at(
                        u.at.span(),
                        key("at"),
                        format!("`{other}` is not a place: `base`, `field 0` or `field 1`"),
                    ));
                    Place::Base
                }
            },
        };
        units.push(GameUnit {
            name: u.name.get_ref().clone(),
            seat: seat(&u.seat, key("seat"), &mut bad),
            card: card(&u.card, key("card"), &mut bad),
            place,
            exhausted: u.exhausted,
            buffed: u.buffed,
        });
    }
    let mut turns = Vec::new();
    for (t, d) in parsed.turns.iter().enumerate() {
        let key = |k: &str| format!("turn[{t}].{k}");
        let (actions, actions_span) = match &d.actions {
            Some(a) => (a.get_ref().as_slice(), a.span()),
            None => (&[][..], 0..0),
        };
        if actions.len() > MAX_SCRIPT {
            bad.push(at(
                actions_span.clone(),
                key("actions"),
                format!("at most {MAX_SCRIPT} actions a turn"),
            ));
        }
        let mut steps = Vec::new();
        for (a, def) in actions.iter().enumerate() {
            let key = |k: &str| format!("turn[{t}].actions[{a}]{k}");
            let given = usize::from(def.play.is_some())
                + usize::from(def.champion)
                + usize::from(def.moves.is_some())
                + usize::from(def.move_card.is_some())
                + usize::from(def.move_to_base.is_some())
                + usize::from(def.legend.is_some())
                + usize::from(def.use_legend);
            if given != 1 {
                bad.push(at(
                    actions_span.clone(),
                    key(""),
                    "an action is one of `play = \"card\"` (a spell with `to = N`), `champion = true`, `move = [units], to = N`, `move_card = \"card\", to = N`, `move_to_base = [units]`, `legend = \"unit\"` (with `to = N` for a move) or `use_legend = true`".into(),
                ));
                continue;
            }
            // The scenario's units a move names, by their names.
            let named_units = |moved: &[Spanned<String>], what: &str, bad: &mut Vec<Diagnostic>| {
                let mut picked = Vec::new();
                for (m, n) in moved.iter().enumerate() {
                    match names.iter().position(|x| *x == n.get_ref().as_str()) {
                        Some(u) => picked.push(u),
                        None => bad.push(at(
                            n.span(),
                            key(&format!("{what}[{m}]")),
                            format!(
                                "no unit named `{}`{}",
                                n.get_ref(),
                                diagnostics::suggestion(n.get_ref(), &names)
                            ),
                        )),
                    }
                }
                picked
            };
            // Where a move goes: every move names its battlefield.
            let to = |bad: &mut Vec<Diagnostic>| match &def.to {
                Some(b) if usize::from(*b.get_ref()) < 2 => *b.get_ref(),
                Some(b) => {
                    bad.push(at(
                        b.span(),
                        key(".to"),
                        format!("battlefield {} is not 0 or 1", b.get_ref()),
                    ));
                    0
                }
                None => {
                    bad.push(at(
                        actions_span.clone(),
                        key(".to"),
                        "a move names its battlefield: `to = 0`".into(),
                    ));
                    0
                }
            };
            if let Some(a) = &def.accelerate {
                let unit = def.play.as_ref().and_then(|p| catalog.index(p.get_ref()));
                let accelerates = unit.is_some_and(|c| catalog.card(c).accelerate);
                if !accelerates {
                    bad.push(at(
                        a.span(),
                        key(".accelerate"),
                        "`accelerate` goes with `play` of a unit that has Accelerate (721)".into(),
                    ));
                }
            }
            if let Some(p) = &def.play {
                let c = card(p, key(".play"), &mut bad);
                // A spell is aimed at a battlefield (`to`); a unit enters
                // its base.
                let spell = catalog.card(c).kind == gridsim_riftbound::cards::CardKind::Spell;
                match (&def.to, spell) {
                    (Some(_), true) => steps.push(Step::Cast {
                        card: c,
                        to: to(&mut bad),
                    }),
                    (None, false) => steps.push(Step::Play {
                        card: c,
                        accelerate: def.accelerate.as_ref().is_some_and(|a| *a.get_ref()),
                    }),
                    (Some(b), false) => bad.push(at(
                        b.span(),
                        key(".to"),
                        format!(
                            "`{}` is a unit: it enters its base, aimed at no battlefield",
                            p.get_ref()
                        ),
                    )),
                    (None, true) => bad.push(at(
                        p.span(),
                        key(".to"),
                        format!(
                            "`{}` is a spell: name the battlefield its targets are at, `to = 0`",
                            p.get_ref()
                        ),
                    )),
                }
            } else if def.champion {
                steps.push(Step::Champion);
            } else if let Some(c) = &def.move_card {
                let c = card(c, key(".move_card"), &mut bad);
                steps.push(Step::MoveCard {
                    card: c,
                    to: to(&mut bad),
                });
            } else if let Some(moved) = &def.moves {
                let units = named_units(moved, ".move", &mut bad);
                steps.push(Step::Move {
                    units,
                    to: to(&mut bad),
                });
            } else if let Some(moved) = &def.move_to_base {
                steps.push(Step::MoveToBase(named_units(moved, ".move_to_base", &mut bad)));
            } else if def.use_legend {
                steps.push(Step::Legend { unit: None, to: 0 });
            } else if let Some(unit) = &def.legend {
                let at_field = if def.to.is_some() { to(&mut bad) } else { 0 };
                match names.iter().position(|x| *x == unit.get_ref().as_str()) {
                    Some(u) => steps.push(Step::Legend {
                        unit: Some(u),
                        to: at_field,
                    }),
                    None => bad.push(at(
                        unit.span(),
                        key(".legend"),
                        format!(
                            "no unit named `{}`{}",
                            unit.get_ref(),
                            diagnostics::suggestion(unit.get_ref(), &names)
                        ),
                    )),
                }
            }
        }
        let expect = lines(&d.expect, &format!("turn[{t}].expect"), &mut bad);
        let absent = lines(&d.absent, &format!("turn[{t}].absent"), &mut bad);
        let ended = d.ended.as_ref().map(|e| match e.get_ref().as_str() {
            "no" => None,
            "victory" => Some(EndReason::Victory),
            "turn_cap" => Some(EndReason::TurnCap),
            other => {
                bad.push(at(
                    e.span(),
                    key("ended"),
                    format!("`{other}` is not how a game stands: `no`, `victory` or `turn_cap`"),
                ));
                None
            }
        });
        let winner = d.winner.as_ref().map(|w| match w.get_ref().as_str() {
            "none" => None,
            "0" => Some(0),
            "1" => Some(1),
            other => {
                bad.push(at(
                    w.span(),
                    key("winner"),
                    format!("`{other}` is not a winner: `0`, `1` or `none`"),
                ));
                None
            }
        });
        turns.push(GameTurn {
            steps,
            expect,
            absent,
            score: d.score,
            ended,
            winner,
        });
    }
    if !bad.is_empty() {
        return Err(bad);
    }
    let [d0, d1]: [_; 2] = decks
        .try_into()
        .map_err(|_| vec![Diagnostic::whole_file(file, "two decks are needed")])?;
    Ok(GameScenario {
        name: parsed.name,
        file: file.to_path_buf(),
        covers: parsed.covers.into_inner(),
        catalog,
        decks: [d0, d1],
        seed: parsed.seed,
        first,
        score: parsed.score,
        mulligan,
        empty_decks,
        units,
        setup,
        turns,
    })
}

/// The bundled decks' names, for suggestions.
fn deck_names() -> Vec<String> {
    std::fs::read_dir(DECKS_DIR)
        .map(|d| {
            let mut names: Vec<String> = d
                .filter_map(Result::ok)
                .filter_map(|e| e.path().file_stem().map(|s| s.to_string_lossy().into_owned()))
                .collect();
            names.sort();
            names
        })
        .unwrap_or_default()
}
