//! Riftbound scenario files (`tests/riftbound/`, `game = "riftbound"`)
//! into [`crate::riftbound_scenario::Scenario`], with a diagnostic naming
//! the file, line and key of anything wrong.

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::{Diagnostic, parse_toml};
use crate::diagnostics;
use crate::riftbound::{EventKind, Lasts};
use crate::riftbound_scenario::{Action, EventWant, Expect, Scenario, Step, UnitSpec};

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
    #[serde(rename = "unit")]
    units: Vec<UnitDef>,
    #[serde(rename = "step", default)]
    steps: Vec<Spanned<StepDef>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitDef {
    name: Spanned<String>,
    might: i32,
    /// `battlefield` (the default) or `base`.
    at: Option<Spanned<String>>,
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
    shares: Option<Vec<i32>>,
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
    ruling: Option<String>,
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
}

/// Reads a Riftbound scenario; every error found, each with its line and
/// key.
pub fn parse_riftbound_scenario(file: &Path, text: &str) -> Result<Scenario, Vec<Diagnostic>> {
    let parsed: ScenarioFile = parse_toml(file, text).map_err(|d| vec![d])?;
    let mut bad = Vec::new();
    let rulings = crate::rule_book::riftbound_rulings();
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
        })
        .collect();
    let unit = |name: &Spanned<String>, key: String, bad: &mut Vec<Diagnostic>| -> usize {
        names.iter().position(|n| *n == name.get_ref()).unwrap_or_else(|| {
            bad.push(Diagnostic::at(
                file,
                text,
                Some(name.span()),
                key,
                format!(
                    "no unit `{}`{}",
                    name.get_ref(),
                    diagnostics::suggestion(name.get_ref(), &names)
                ),
            ));
            0
        })
    };
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
        if let Some(b) = &s.buff {
            actions.push(Action::Buff {
                unit: unit(b, at("buff"), &mut bad),
            });
        }
        if let Some(b) = &s.remove_buff {
            actions.push(Action::RemoveBuff {
                unit: unit(b, at("remove_buff"), &mut bad),
            });
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
                "a step does one thing: damage, buff, remove_buff, recall, modify, aura, cleanup, combat_cleanup, end_turn or combat_damage",
            ));
        }
        let expect = s
            .expect
            .iter()
            .enumerate()
            .map(|(i, e)| Expect {
                unit: unit(&e.unit, at(&format!("expect[{i}].unit")), &mut bad),
                might: e.might,
                calculated_might: e.calculated_might,
                damage: e.damage,
                buffs: e.buffs,
                alive: e.alive,
                at_base: e.at_base,
                exhausted: e.exhausted,
            })
            .collect();
        let kinds: Vec<&str> = EventKind::ALL.iter().map(|k| k.name()).collect();
        let events = s
            .events
            .iter()
            .enumerate()
            .filter_map(|(i, e)| {
                let unit = e
                    .unit
                    .as_ref()
                    .map(|n| unit(n, at(&format!("events[{i}].unit")), &mut bad));
                let Some(kind) = EventKind::ALL.into_iter().find(|k| k.name() == e.kind.get_ref()) else {
                    bad.push(Diagnostic::at(
                        file,
                        text,
                        Some(e.kind.span()),
                        at(&format!("events[{i}].kind")),
                        format!(
                            "no event `{}`{}; they are {}",
                            e.kind.get_ref(),
                            diagnostics::suggestion(e.kind.get_ref(), &kinds),
                            diagnostics::backticked(&kinds)
                        ),
                    ));
                    return None;
                };
                Some(EventWant {
                    kind,
                    unit,
                    amount: e.amount,
                    ruling: e.ruling.clone(),
                })
            })
            .collect();
        steps.push(Step {
            action: actions.into_iter().next(),
            shares: s.shares.clone(),
            expect,
            events,
        });
    }
    if !bad.is_empty() {
        return Err(bad);
    }
    Ok(Scenario {
        name: parsed.name,
        file: file.to_path_buf(),
        covers: parsed.covers.into_inner(),
        units,
        steps,
    })
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
