//! Riftbound scenario files (`tests/riftbound/`, `game = "riftbound"`)
//! into [`gridsim_sim::riftbound_scenario::Scenario`], with a diagnostic naming
//! the file, line and key of anything wrong.

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::{Diagnostic, parse_toml};
use gridsim_core::diagnostics;
use gridsim_riftbound::cards::{CardIndex, CardKind, Catalog};
use gridsim_riftbound::showdown::{End, Lane, LaneUnit};
use gridsim_riftbound::{EventKind, Lasts, Player};
mod game_scenario;
mod showdown;
pub use game_scenario::{DECKS_DIR, is_riftbound_game_scenario, parse_riftbound_game_scenario};
use showdown::{ShowdownDef, parse_showdown};

use gridsim_sim::riftbound_scenario::{
    Action, EventWant, Expect, Scenario, Script, ScriptedPlay, ShowdownSpec, Step, UnitSpec, ZoneWant,
};

/// Whether `text` is a Riftbound scenario: it says `game = "riftbound"`.
pub fn is_riftbound_scenario(text: &str) -> bool {
    toml::from_str::<toml::Table>(text).is_ok_and(|t| t.get("game").and_then(toml::Value::as_str) == Some("riftbound"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    #[allow(dead_code, reason = "read by `is_riftbound_scenario`")]
    game: String,
    name: String,
    covers: Spanned<Vec<String>>,
    #[serde(rename = "unit", default)]
    units: Vec<UnitDef>,
    #[serde(rename = "step", default)]
    steps: Vec<Spanned<StepDef>>,
    /// A whole showdown played from the frozen catalog, its choices
    /// scripted, instead of units and steps.
    showdown: Option<Spanned<ShowdownDef>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ZoneDef {
    player: Spanned<String>,
    trash: Option<u32>,
    deck_top: Option<u32>,
    returned: Option<u32>,
    recycled: Option<u32>,
    base_gear: Option<u32>,
    score: Option<u32>,
    banished: Option<u32>,
    energy: Option<u32>,
    drawn: Option<u32>,
    hidden: Option<u32>,
    hand: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitDef {
    name: Spanned<String>,
    might: i32,
    /// `battlefield` (the default) or `base`.
    at: Option<Spanned<String>>,
    /// `attacker` (the default) or `defender`: its owner and controller.
    player: Option<Spanned<String>>,
    /// Controlled by the other player than its owner (a stolen unit, RB8):
    /// its cards still go to its owner's zones (RB29).
    #[serde(default)]
    stolen: bool,
    #[serde(default)]
    temporary: bool,
    #[serde(default)]
    gear: Vec<GearDef>,
}

/// A gear a kernel scenario's unit holds: the Might it gives, what it does
/// instead of its unit's death.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GearDef {
    #[serde(default)]
    might: i32,
    replaces_death: Option<super::riftbound_catalog::ReplacementDef>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepDef {
    damage: Option<Amounted>,
    buff: Option<Spanned<String>>,
    remove_buff: Option<Spanned<String>>,
    recall: Option<RecallDef>,
    modify: Option<ModifyDef>,
    aura: Option<AuraDef>,
    #[serde(default)]
    cleanup: bool,
    #[serde(default)]
    combat_cleanup: bool,
    #[serde(default)]
    end_turn: bool,
    combat_damage: Option<CombatDef>,
    kill: Option<Spanned<String>>,
    #[serde(default)]
    beginning_phase: bool,
    recycle: Option<Spanned<String>>,
    /// Banished: off the board, its gear left at base (RB30).
    banish: Option<Spanned<String>>,
    shares: Option<Vec<i32>>,
    #[serde(default)]
    zones: Vec<ZoneDef>,
    #[serde(default)]
    expect: Vec<ExpectDef>,
    #[serde(default)]
    events: Vec<EventDef>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EventDef {
    kind: Spanned<String>,
    unit: Option<Spanned<String>>,
    amount: Option<i32>,
    /// A `played` or `resolved` line's card, by key (its amount).
    card: Option<Spanned<String>>,
    ruling: Option<String>,
    /// In `events`: how many such lines the whole log holds, exactly.
    count: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Amounted {
    unit: Spanned<String>,
    amount: i32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecallDef {
    unit: Spanned<String>,
    #[serde(default)]
    heal: bool,
    #[serde(default)]
    exhaust: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModifyDef {
    unit: Spanned<String>,
    amount: i32,
    minimum: Option<i32>,
    /// `turn` (the default) or `combat` (a Boost).
    lasts: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AuraDef {
    source: Spanned<String>,
    target: Spanned<String>,
    amount: i32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CombatDef {
    amount: i32,
    order: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectDef {
    unit: Spanned<String>,
    might: Option<i32>,
    calculated_might: Option<i32>,
    damage: Option<i32>,
    buffs: Option<i32>,
    alive: Option<bool>,
    at_base: Option<bool>,
    exhausted: Option<bool>,
    stunned: Option<bool>,
}

impl ExpectDef {
    /// The expectation on unit number `unit`.
    fn lowered(&self, unit: usize) -> Expect {
        Expect {
            unit,
            might: self.might,
            calculated_might: self.calculated_might,
            damage: self.damage,
            buffs: self.buffs,
            alive: self.alive,
            at_base: self.at_base,
            exhausted: self.exhausted,
            stunned: self.stunned,
        }
    }
}

/// A step that names one unit: the key's value, the key, the action.
type OneUnitStep<'a> = (&'a Option<Spanned<String>>, &'static str, fn(usize) -> Action);

/// Reads a Riftbound scenario; every error found, each with its line and
/// key.
pub fn parse_riftbound_scenario(file: &Path, text: &str) -> Result<Scenario, Vec<Diagnostic>> {
    let parsed: ScenarioFile = parse_toml(file, text)?;
    let mut bad = Vec::new();
    let rulings = gridsim_core::rule_book::riftbound_rulings();
    let ids: Vec<&str> = rulings.iter().map(|r| r.id.as_str()).collect();
    let accepts = |id: &str| ids.contains(&id);
    let citable = super::Citable {
        ids: &ids,
        accepts: &accepts,
        none: "name at least one ruling this scenario checks, RB1 to RB50",
        what: "a Riftbound ruling (RB1 to RB50)",
    };
    super::check_covers(file, text, &parsed.covers, &citable, &mut bad);
    let names: Vec<&str> = parsed.units.iter().map(|u| u.name.get_ref().as_str()).collect();
    for (i, u) in parsed.units.iter().enumerate() {
        if names[..i].contains(&u.name.get_ref().as_str()) {
            bad.push(Diagnostic::at(
                file,
                text,
                Some(u.name.span()),
                format!("unit[{i}].name"),
                format!("a second unit named `{}`", u.name.get_ref()),
            ));
        }
    }
    let units: Vec<UnitSpec> = parsed
        .units
        .iter()
        .enumerate()
        .map(|(i, u)| UnitSpec {
            name: u.name.get_ref().clone(),
            might: u.might,
            at_base: match u.at.as_ref().map(|a| (a.get_ref().as_str(), a.span())) {
                None | Some(("battlefield", _)) => false,
                Some(("base", _)) => true,
                Some((other, span)) => {
                    bad.push(Diagnostic::at(
                        file,
                        text,
                        Some(span),
                        format!("unit[{i}].at"),
                        format!(
                            "`{other}` is not a place: it is `battlefield` or `base`{}",
                            diagnostics::suggestion(other, &["battlefield", "base"])
                        ),
                    ));
                    false
                }
            },
            player: u
                .player
                .as_ref()
                .map_or(0, |p| player_of(file, text, p, format!("unit[{i}].player"), &mut bad)),
            stolen: u.stolen,
            temporary: u.temporary,
            gear: u
                .gear
                .iter()
                .map(|g| gridsim_riftbound::Gear {
                    card: 0,
                    might: g.might,
                    replacement: g.replaces_death.map(|r| match r {
                        super::riftbound_catalog::ReplacementDef::RecallHealed => {
                            gridsim_riftbound::cards::Replacement::RecallHealed
                        }
                        super::riftbound_catalog::ReplacementDef::TopOfDeck => {
                            gridsim_riftbound::cards::Replacement::TopOfDeck
                        }
                    }),
                })
                .collect(),
        })
        .collect();
    let unit =
        |name: &Spanned<String>, key: String, bad: &mut Vec<Diagnostic>| unit_named(file, text, &names, name, key, bad);
    let mut steps = Vec::new();
    for (k, spanned) in parsed.steps.iter().enumerate() {
        let s = spanned.get_ref();
        let at = |key: &str| format!("step[{k}].{key}");
        let mut actions = Vec::new();
        if let Some(d) = &s.damage {
            actions.push(Action::Damage {
                unit: unit(&d.unit, at("damage.unit"), &mut bad),
                amount: d.amount,
            });
        }
        // The steps that name one unit: its key and what the step does.
        let one_unit: [OneUnitStep; 5] = [
            (&s.buff, "buff", |unit| Action::Buff { unit }),
            (&s.kill, "kill", |unit| Action::Kill { unit }),
            (&s.recycle, "recycle", |unit| Action::Recycle { unit }),
            (&s.remove_buff, "remove_buff", |unit| Action::RemoveBuff { unit }),
            (&s.banish, "banish", |unit| Action::Banish { unit }),
        ];
        for (named, key, action) in one_unit {
            if let Some(n) = named {
                actions.push(action(unit(n, at(key), &mut bad)));
            }
        }
        if s.beginning_phase {
            actions.push(Action::BeginningPhase);
        }
        if let Some(r) = &s.recall {
            actions.push(Action::Recall {
                unit: unit(&r.unit, at("recall.unit"), &mut bad),
                heal: r.heal,
                exhaust: r.exhaust,
            });
        }
        if let Some(m) = &s.modify {
            let lasts = match m.lasts.as_ref().map(|l| (l.get_ref().as_str(), l.span())) {
                None | Some(("turn", _)) => Lasts::Turn,
                Some(("combat", _)) => Lasts::Combat,
                Some((other, span)) => {
                    bad.push(Diagnostic::at(
                        file,
                        text,
                        Some(span),
                        at("modify.lasts"),
                        format!(
                            "`{other}` is not a duration: it is `turn` or `combat`{}",
                            diagnostics::suggestion(other, &["turn", "combat"])
                        ),
                    ));
                    Lasts::Turn
                }
            };
            actions.push(Action::Modify {
                unit: unit(&m.unit, at("modify.unit"), &mut bad),
                amount: m.amount,
                minimum: m.minimum,
                lasts,
            });
        }
        if let Some(a) = &s.aura {
            actions.push(Action::Aura {
                source: unit(&a.source, at("aura.source"), &mut bad),
                target: unit(&a.target, at("aura.target"), &mut bad),
                amount: a.amount,
            });
        }
        if s.cleanup {
            actions.push(Action::Cleanup);
        }
        if s.combat_cleanup {
            actions.push(Action::CombatCleanup);
        }
        if s.end_turn {
            actions.push(Action::EndTurn);
        }
        if let Some(c) = &s.combat_damage {
            let order = c
                .order
                .iter()
                .enumerate()
                .map(|(i, n)| unit(n, at(&format!("combat_damage.order[{i}]")), &mut bad))
                .collect();
            actions.push(Action::CombatDamage {
                amount: c.amount,
                order,
            });
        }
        if actions.len() > 1 {
            bad.push(Diagnostic::at(
                file,
                text,
                Some(spanned.span()),
                format!("step[{k}]"),
                "a step does one thing: damage, buff, remove_buff, recall, modify, aura, cleanup, combat_cleanup, end_turn, combat_damage, kill, beginning_phase, recycle or banish",
            ));
        }
        let expect = s
            .expect
            .iter()
            .enumerate()
            .map(|(i, e)| e.lowered(unit(&e.unit, at(&format!("expect[{i}].unit")), &mut bad)))
            .collect();
        let events = parse_events(
            file,
            text,
            &s.events,
            &format!("step[{k}]"),
            &|n, key, bad| unit(n, key, bad),
            None,
            &mut bad,
        );
        let zones = s
            .zones
            .iter()
            .enumerate()
            .map(|(i, z)| zone_want(file, text, z, at(&format!("zones[{i}].player")), &mut bad))
            .collect();
        steps.push(Step {
            action: actions.into_iter().next(),
            shares: s.shares.clone(),
            expect,
            events,
            zones,
        });
    }
    let showdown = parsed.showdown.as_ref().map(|sd| {
        if !parsed.units.is_empty() || !parsed.steps.is_empty() {
            bad.push(Diagnostic::at(
                file,
                text,
                Some(sd.span()),
                "showdown",
                "a scenario is either units and steps or one showdown",
            ));
        }
        let catalog =
            super::load_riftbound_catalog(&[std::path::PathBuf::from(gridsim_sim::riftbound_scenario::CATALOG_DIR)])
                .unwrap_or_else(|mut d| {
                    bad.append(&mut d);
                    Catalog::default()
                });
        let spec = parse_showdown(file, text, sd.get_ref(), &catalog, &mut bad);
        (spec, catalog)
    });
    if !bad.is_empty() {
        return Err(bad);
    }
    Ok(Scenario {
        name: parsed.name,
        file: file.to_path_buf(),
        covers: parsed.covers.into_inner(),
        units,
        steps,
        showdown,
    })
}

/// The number of the unit `n` names among `names`; 0, with a diagnostic
/// naming the nearest, when none has that name.
fn unit_named(
    file: &Path,
    text: &str,
    names: &[&str],
    n: &Spanned<String>,
    key: String,
    bad: &mut Vec<Diagnostic>,
) -> usize {
    names.iter().position(|r| r == n.get_ref()).unwrap_or_else(|| {
        bad.push(Diagnostic::at(
            file,
            text,
            Some(n.span()),
            key,
            format!(
                "no unit `{}`{}",
                n.get_ref(),
                diagnostics::suggestion(n.get_ref(), names)
            ),
        ));
        0
    })
}

/// `attacker` (0) or `defender` (1).
fn player_of(file: &Path, text: &str, n: &Spanned<String>, key: String, bad: &mut Vec<Diagnostic>) -> Player {
    match n.get_ref().as_str() {
        "attacker" => 0,
        "defender" => 1,
        other => {
            bad.push(Diagnostic::at(
                file,
                text,
                Some(n.span()),
                key,
                format!(
                    "`{other}` is not a player: `attacker` or `defender`{}",
                    diagnostics::suggestion(other, &["attacker", "defender"])
                ),
            ));
            0
        }
    }
}

fn zone_want(file: &Path, text: &str, z: &ZoneDef, key: String, bad: &mut Vec<Diagnostic>) -> ZoneWant {
    ZoneWant {
        player: player_of(file, text, &z.player, key, bad),
        trash: z.trash,
        deck_top: z.deck_top,
        returned: z.returned,
        recycled: z.recycled,
        base_gear: z.base_gear,
        score: z.score,
        banished: z.banished,
        energy: z.energy,
        drawn: z.drawn,
        hidden: z.hidden,
        hand: z.hand,
    }
}

type UnitLookup<'a> = dyn Fn(&Spanned<String>, String, &mut Vec<Diagnostic>) -> usize + 'a;

/// The wanted log lines of a step or a showdown, `at` their key's prefix.
fn parse_events(
    file: &Path,
    text: &str,
    events: &[EventDef],
    at: &str,
    unit: &UnitLookup,
    catalog: Option<&Catalog>,
    bad: &mut Vec<Diagnostic>,
) -> Vec<EventWant> {
    let kinds: Vec<&str> = EventKind::ALL.iter().map(|k| k.name()).collect();
    events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let unit = e.unit.as_ref().map(|n| unit(n, format!("{at}.events[{i}].unit"), bad));
            let Some(kind) = EventKind::ALL.into_iter().find(|k| k.name() == e.kind.get_ref()) else {
                bad.push(Diagnostic::at(
                    file,
                    text,
                    Some(e.kind.span()),
                    format!("{at}.events[{i}].kind"),
                    format!(
                        "no event `{}`{}; they are {}",
                        e.kind.get_ref(),
                        diagnostics::suggestion(e.kind.get_ref(), &kinds),
                        diagnostics::backticked(&kinds)
                    ),
                ));
                return None;
            };
            let mut amount = e.amount;
            if let Some(c) = &e.card {
                let key = format!("{at}.events[{i}].card");
                let found = catalog.and_then(|cat| cat.index(c.get_ref()));
                match (catalog, found) {
                    (Some(_), Some(index)) if e.amount.is_none() => amount = Some(i32::from(index)),
                    (Some(_), Some(_)) => bad.push(Diagnostic::at(
                        file,
                        text,
                        Some(c.span()),
                        key,
                        "a line's `card` is its amount: give one of them",
                    )),
                    (Some(cat), None) => {
                        let keys: Vec<&str> = cat.cards.iter().map(|c| c.key.as_str()).collect();
                        bad.push(Diagnostic::at(
                            file,
                            text,
                            Some(c.span()),
                            key,
                            format!(
                                "no card `{}`{}",
                                c.get_ref(),
                                diagnostics::suggestion(c.get_ref(), &keys)
                            ),
                        ));
                    }
                    (None, _) => bad.push(Diagnostic::at(
                        file,
                        text,
                        Some(c.span()),
                        key,
                        "`card` names a card of a showdown scenario",
                    )),
                }
            }
            Some(EventWant {
                kind,
                unit,
                amount,
                ruling: e.ruling.clone(),
                count: e.count,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A misspelt unit, an unknown duration, a ruling that does not exist
    /// and a step doing two things: each named by its line and key.
    #[test]
    fn bad_scenarios_name_the_line_and_key() {
        let text = r#"game = "riftbound"
name = "bad"
covers = ["RB51"]

[[unit]]
name = "poro"
might = 2

[[step]]
damage = { unit = "pora", amount = 1 }

[[step]]
modify = { unit = "poro", amount = 1, lasts = "trun" }

[[step]]
buff = "poro"
end_turn = true

[[step]]
events = [{ kind = "dead" }]
"#;
        assert!(is_riftbound_scenario(text));
        let bad = parse_riftbound_scenario(Path::new("x.toml"), text).unwrap_err();
        let all: Vec<String> = bad.iter().map(ToString::to_string).collect();
        let has = |s: &str| all.iter().any(|d| d.contains(s));
        assert!(has("`RB51` is not a Riftbound ruling"), "{all:?}");
        assert!(
            has("x.toml:10") && has("step[0].damage.unit") && has("did you mean `poro`?"),
            "{all:?}"
        );
        assert!(has("step[1].modify.lasts") && has("did you mean `turn`?"), "{all:?}");
        assert!(
            has("x.toml:15") && has("step[2]") && has("a step does one thing"),
            "{all:?}"
        );
        assert!(has("step[3].events[0].kind") && has("did you mean `died`?"), "{all:?}");
    }
}
