//! The TOML shape of a conformance scenario, and its lowering into a
//! [`Scenario`] the harness runs. The format is documented in
//! `docs/scenarios.md`.

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::schema::CardDef;
use super::{CatalogBuilder, Diagnostic, Source, parse_toml};
use gridsim_core::diagnostics;
use gridsim_engine::EventKind;
use gridsim_model::ability::{Amount, Scope};
use gridsim_model::catalog::{Catalog, Op};
use gridsim_model::effects::Effect;
use gridsim_model::settings::Rules;
use gridsim_model::spec::{Placement, Side};
use gridsim_sim::scenario::{
    Action, EventMatch, Expectation, Field, InitialState, Scenario, ScenarioStep, ScenarioUnit, Want,
};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    name: String,
    /// Rule letters this scenario checks, e.g. `["900.1a", "800.13f"]`.
    covers: Spanned<Vec<String>>,
    #[serde(default)]
    seed: u64,
    /// Runs with fight indices 0..runs; more than 1 for chance rules.
    #[serde(default = "one")]
    runs: u32,
    /// Each side's Forge Core modifiers: `[forge.left]`, `[forge.right]`.
    #[serde(default)]
    forge: ForgeSides,
    /// Each side's runes and resonance: `[runes.left]`, `[runes.right]`.
    #[serde(default)]
    runes: RuneSides,
    /// The match round the battle belongs to, 0 (the default) outside a
    /// match (800.33f).
    #[serde(default)]
    round: u8,
    /// The left player's Gold, Dividend and Profit, for shop steps and for
    /// the left side's "per dividend" and "per profit" counts.
    #[serde(default)]
    wallet: WalletDef,
    #[serde(default)]
    unit: Vec<UnitDef>,
    #[serde(default)]
    step: Vec<StepDef>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ForgeSides {
    #[serde(default)]
    left: super::schema::ForgeDef,
    #[serde(default)]
    right: super::schema::ForgeDef,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuneSides {
    #[serde(default)]
    left: SideRunesDef,
    #[serde(default)]
    right: SideRunesDef,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SideRunesDef {
    #[serde(default)]
    resonance: Option<Spanned<String>>,
    #[serde(default)]
    rune: Vec<super::schema::BoardRuneDef>,
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
struct WalletDef {
    #[serde(default)]
    gold: i32,
    #[serde(default)]
    dividend: i32,
    #[serde(default)]
    profit: i32,
}

/// A shop action on the left player's wallet.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
enum ShopDef {
    /// A purchase or reroll of this total cost (900.36a).
    Buy(i32),
    /// A sale for this Gold value (900.36c).
    Sell(i32),
    /// A sale of this unit's card at its tier: its Gold value and the
    /// Dividend its `sold` lines add (800.15d, 800.47d).
    SellUnit(Spanned<String>),
    /// The Dividend the left side's Hubs settled in the battle so far joins
    /// the wallet (800.61c).
    Bank(bool),
    /// The left player claims this resonance (800.58b).
    Claim(Spanned<String>),
}

fn one() -> u32 {
    1
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitDef {
    name: Spanned<String>,
    side: SideName,
    cell: Spanned<super::schema::Cell>,
    #[serde(default = "tier_one")]
    tier: Spanned<i64>,
    #[serde(default)]
    card: Option<Spanned<String>>,
    #[serde(default)]
    define: Option<CardDef>,
    /// Made by combining copies (Highland, 800.32a).
    #[serde(default)]
    combined: bool,
    #[serde(default, deserialize_with = "initial_state")]
    state: InitialState,
}

fn tier_one() -> Spanned<i64> {
    Spanned::new(0..0, 1)
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum SideName {
    Left,
    Right,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StepDef {
    #[serde(default)]
    activate: Option<Spanned<String>>,
    #[serde(default)]
    target: Option<Spanned<String>>,
    #[serde(default)]
    apply: Option<ApplyDef>,
    #[serde(default)]
    advance_ms: Option<i32>,
    /// Runs the fight to its end.
    #[serde(default)]
    run: bool,
    /// Ends the battle and opens a rescue fight from every unit's state.
    #[serde(default)]
    rescue: bool,
    /// Ends the battle and opens the match's next one: every unit back,
    /// with only what persists (200.3).
    #[serde(default)]
    next_battle: bool,
    #[serde(default)]
    expect: Vec<ExpectDef>,
    #[serde(default)]
    events: Vec<EventDef>,
    #[serde(default)]
    no_events: Vec<EventDef>,
    #[serde(default)]
    outcome: Option<OutcomeDef>,
    /// A shop action on the wallet: `{ buy = 5 }`, `{ sell = 3 }`, `{ bank = true }`.
    #[serde(default)]
    shop: Option<ShopDef>,
    /// The wallet after the step.
    #[serde(default)]
    wallet: Option<WalletDef>,
    /// The left player's equipped resonance after the step.
    #[serde(default)]
    resonance: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ApplyDef {
    effect: Effect,
    #[serde(default)]
    amount: Option<Amount>,
    #[serde(default)]
    source: Option<Spanned<String>>,
    target: Spanned<String>,
    #[serde(default)]
    duration_ms: Option<i32>,
    /// The clause's scope, as on a card (default `target`).
    #[serde(default)]
    scope: Option<Scope>,
    /// A Fleeting stat gain (800.25a).
    #[serde(default)]
    fleeting: bool,
    /// Applies through Entrap (800.19d).
    #[serde(default)]
    through_entrap: bool,
    /// A Piercing Roar that drains boss Power (800.50c).
    #[serde(default)]
    drains_boss: bool,
}

/// The checked fields are collected by `flatten`, so unknown names are
/// caught by [`Field::from_name`] rather than by serde.
#[derive(Debug, Deserialize)]
struct ExpectDef {
    unit: Spanned<String>,
    #[serde(default)]
    rate: Option<f64>,
    #[serde(default)]
    tolerance: Option<f64>,
    #[serde(flatten)]
    fields: std::collections::BTreeMap<String, toml::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EventDef {
    kind: Spanned<String>,
    #[serde(default)]
    unit: Option<Spanned<String>>,
    #[serde(default)]
    other: Option<Spanned<String>>,
    #[serde(default)]
    amount: Option<i32>,
    #[serde(default)]
    detail: Option<i32>,
    #[serde(default)]
    rule: Option<String>,
    #[serde(default)]
    rate: Option<f64>,
    #[serde(default)]
    tolerance: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OutcomeDef {
    /// `left`, `right` or `draw`.
    winner: Spanned<String>,
    #[serde(default)]
    reason: Option<Spanned<String>>,
    #[serde(default)]
    end_ms: Option<i32>,
}

/// Parses a scenario, lowering inline cards into a catalog of their own
/// (extending a copy of `catalog`).
pub fn parse_scenario(file: &Path, text: &str, catalog: &Catalog, rules: &Rules) -> Result<Scenario, Vec<Diagnostic>> {
    let parsed: ScenarioFile = parse_toml(file, text)?;
    let src = Source { file, text };
    let at = |span: std::ops::Range<usize>, key: String, msg: String| Diagnostic::at(file, text, Some(span), key, msg);
    let mut bad = Vec::new();

    super::check_gridforged_covers(file, text, &parsed.covers, &mut bad);
    if parsed.runs == 0 || parsed.runs > 100_000 {
        bad.push(Diagnostic::at(file, text, None, "runs", "runs must be 1..=100000"));
    }

    let mut builder = CatalogBuilder::from_catalog(catalog.clone());
    let mut units: Vec<ScenarioUnit> = Vec::new();
    for (i, u) in parsed.unit.iter().enumerate() {
        let key = format!("unit[{i}]");
        let name = u.name.get_ref().clone();
        if units.iter().any(|x| x.name == name) {
            bad.push(at(
                u.name.span(),
                format!("{key}.name"),
                format!("unit name `{name}` is used twice"),
            ));
        }
        let card = match (&u.card, &u.define) {
            (Some(c), None) => match builder.find(c.get_ref()) {
                Some(id) => id,
                None => {
                    let names = builder.card_keys();
                    let names: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
                    bad.push(at(
                        c.span(),
                        format!("{key}.card"),
                        format!(
                            "unknown card id `{}`{}",
                            c.get_ref(),
                            diagnostics::suggestion(c.get_ref(), &names)
                        ),
                    ));
                    continue;
                }
            },
            (None, Some(def)) => {
                match builder.add_card(&src, &format!("{key}.define"), def, Some(&format!("scenario_{name}"))) {
                    Ok(id) => id,
                    Err(mut d) => {
                        bad.append(&mut d);
                        continue;
                    }
                }
            }
            _ => {
                bad.push(at(
                    u.name.span(),
                    key.clone(),
                    "give exactly one of `card` (a catalog id) or `define` (an inline card)".into(),
                ));
                continue;
            }
        };
        let tiers = builder.tiers_of(card);
        let tier = *u.tier.get_ref();
        if tier < 1 || tier > i64::from(tiers) {
            bad.push(Diagnostic::at(
                file,
                text,
                Some(u.tier.span()).filter(|s| !s.is_empty()),
                format!("{key}.tier"),
                format!("tier {tier} is outside the ladder; expected 1..={tiers}"),
            ));
            continue;
        }
        let super::schema::Cell(col, row) = *u.cell.get_ref();
        let size = i64::from(builder.size_of(card));
        if col < 0 || row < 0 || col + size > i64::from(rules.board.columns) || row + size > i64::from(rules.board.rows)
        {
            bad.push(at(
                u.cell.span(),
                format!("{key}.cell"),
                format!(
                    "footprint at [{col}, {row}] leaves the {}x{} grid (100.4)",
                    rules.board.columns, rules.board.rows
                ),
            ));
            continue;
        }
        let side = match u.side {
            SideName::Left => Side::Left,
            SideName::Right => Side::Right,
        };
        let rect = [col, row, col + size, row + size];
        if let Some(other) = units.iter().find(|x| {
            x.side == side && {
                let r = x.rect;
                r[0] < rect[2] && rect[0] < r[2] && r[1] < rect[3] && rect[1] < r[3]
            }
        }) {
            bad.push(at(
                u.cell.span(),
                format!("{key}.cell"),
                format!("footprint overlaps `{}` (100.4)", other.name),
            ));
            continue;
        }
        units.push(ScenarioUnit {
            name,
            side,
            rect,
            placement: Placement {
                card,
                tier: tier as u8,
                column: col as u8,
                row: row as u8,
                combined: u.combined,
            },
            state: u.state.clone(),
        });
    }

    let mut steps = Vec::new();
    for (si, s) in parsed.step.iter().enumerate() {
        if let Some(step) = parse_step(file, text, si, s, &units, &builder, &mut bad) {
            steps.push(step);
        }
    }

    let mut side_runes = Vec::new();
    for (side, def) in [("left", &parsed.runes.left), ("right", &parsed.runes.right)] {
        let catalog = builder.catalog();
        let runes = super::boards::board_runes(file, text, &def.rune, catalog, rules, &mut bad);
        let resonance = def.resonance.as_ref().and_then(|r| {
            super::boards::lookup_resonance(file, text, catalog, r, &format!("runes.{side}.resonance"), &mut bad)
        });
        side_runes.push((runes, resonance));
    }
    if !bad.is_empty() {
        return Err(bad);
    }
    let right_runes = side_runes.pop().unwrap_or_default();
    let left_runes = side_runes.pop().unwrap_or_default();
    Ok(Scenario {
        round: parsed.round,
        wallet: gridsim_model::scrip::Wallet {
            gold: parsed.wallet.gold,
            dividend: parsed.wallet.dividend,
            profit: parsed.wallet.profit,
        },
        runes: [left_runes, right_runes],
        name: parsed.name,
        file: file.to_path_buf(),
        covers: parsed.covers.into_inner(),
        seed: parsed.seed,
        runs: parsed.runs,
        catalog: builder.finish(),
        units,
        steps,
        forge: [parsed.forge.left, parsed.forge.right].map(|f| gridsim_model::spec::Forge {
            crush_bonus: f.crush_bonus,
            tick_reduction: f.tick_reduction,
        }),
    })
}

/// Step `si` of a scenario, checked against its units (and the catalog
/// for a resonance); `None` when it is wrong, its problems added to `bad`.
fn parse_step(
    file: &Path,
    text: &str,
    si: usize,
    s: &StepDef,
    units: &[ScenarioUnit],
    builder: &CatalogBuilder,
    bad: &mut Vec<Diagnostic>,
) -> Option<ScenarioStep> {
    let at = |span: std::ops::Range<usize>, key: String, msg: String| Diagnostic::at(file, text, Some(span), key, msg);
    let lookup = |s: &Spanned<String>, key: String, bad: &mut Vec<Diagnostic>| -> Option<usize> {
        let found = units.iter().position(|u| u.name == *s.get_ref());
        if found.is_none() {
            let names: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
            bad.push(at(
                s.span(),
                key,
                format!(
                    "no unit named `{}`{}",
                    s.get_ref(),
                    diagnostics::suggestion(s.get_ref(), &names)
                ),
            ));
        }
        found
    };
    let key = format!("step[{si}]");
    let actions = [
        s.activate.is_some(),
        s.apply.is_some(),
        s.advance_ms.is_some(),
        s.run,
        s.shop.is_some(),
        s.rescue,
        s.next_battle,
    ];
    let n_actions = actions.iter().filter(|a| **a).count();
    if n_actions > 1 {
        bad.push(Diagnostic::at(
            file,
            text,
            None,
            key.clone(),
            "a step does one thing: `activate`, `apply`, `advance_ms`, `run`, `shop`, `rescue` or `next_battle`",
        ));
        return None;
    }
    let action = if let Some(a) = &s.activate {
        let unit = lookup(a, format!("{key}.activate"), bad)?;
        let target = match &s.target {
            Some(t) => match lookup(t, format!("{key}.target"), bad) {
                Some(t) => Some(t),
                None => return None,
            },
            None => None,
        };
        Action::Activate { unit, target }
    } else if let Some(ap) = &s.apply {
        let source = match &ap.source {
            Some(sn) => match lookup(sn, format!("{key}.apply.source"), bad) {
                Some(u) => Some(u),
                None => return None,
            },
            None => None,
        };
        let target = lookup(&ap.target, format!("{key}.apply.target"), bad)?;
        if ap.effect.needs_amount() && ap.amount.is_none() {
            bad.push(at(
                ap.target.span(),
                format!("{key}.apply.amount"),
                format!("effect `{}` needs an `amount`", ap.effect),
            ));
            return None;
        }
        Action::Apply {
            op: Op {
                effect: ap.effect,
                amount: ap.amount,
                scope: ap.scope.unwrap_or_default(),
                count: 0,
                condition: None,
                duration_ms: ap.duration_ms.unwrap_or(0),
                once_slot: Op::NOT_ONCE,
                fleeting: ap.fleeting,
                through_entrap: ap.through_entrap,
                drains_boss: ap.drains_boss,
                overmatch: None,
            },
            source,
            target,
        }
    } else if let Some(ms) = s.advance_ms {
        if !(0..=600_000).contains(&ms) {
            bad.push(Diagnostic::at(
                file,
                text,
                None,
                format!("{key}.advance_ms"),
                "advance 0..=600000 ms",
            ));
            return None;
        }
        Action::Advance(ms)
    } else if s.run {
        Action::RunToEnd
    } else if s.rescue {
        Action::Rescue
    } else if s.next_battle {
        Action::NextBattle
    } else if let Some(shop) = &s.shop {
        match shop {
            ShopDef::Buy(cost) => Action::Shop(gridsim_sim::scenario::ShopAction::Buy(*cost)),
            ShopDef::Sell(value) => Action::Shop(gridsim_sim::scenario::ShopAction::Sell(*value)),
            ShopDef::SellUnit(name) => {
                let unit = lookup(name, format!("{key}.shop.sell_unit"), bad)?;
                Action::Shop(gridsim_sim::scenario::ShopAction::SellUnit(unit))
            }
            ShopDef::Bank(true) => Action::Shop(gridsim_sim::scenario::ShopAction::Bank),
            ShopDef::Bank(false) => Action::Nothing,
            ShopDef::Claim(name) => {
                let found = super::boards::lookup_resonance(
                    file,
                    text,
                    builder.catalog(),
                    name,
                    &format!("{key}.shop.claim"),
                    bad,
                );
                match found {
                    Some(r) => Action::Shop(gridsim_sim::scenario::ShopAction::Claim(r)),
                    None => return None,
                }
            }
        }
    } else {
        Action::Nothing
    };

    let mut expects = Vec::new();
    for (ei, e) in s.expect.iter().enumerate() {
        let ek = format!("{key}.expect[{ei}]");
        let Some(unit) = lookup(&e.unit, format!("{ek}.unit"), bad) else {
            continue;
        };
        if e.fields.is_empty() {
            bad.push(at(
                e.unit.span(),
                ek.clone(),
                "an expectation names at least one field to check".into(),
            ));
        }
        for (fname, value) in &e.fields {
            let Some(field) = Field::from_name(fname) else {
                let names = Field::names();
                bad.push(at(
                    e.unit.span(),
                    format!("{ek}.{fname}"),
                    format!(
                        "unknown field `{fname}`; expected one of {}{}",
                        diagnostics::backticked(&names),
                        diagnostics::suggestion(fname, &names)
                    ),
                ));
                continue;
            };
            let want = match (field.is_flag(), value) {
                (_, toml::Value::String(t)) if field == Field::Tribe => Want::Text(t.clone()),
                _ if field == Field::Tribe => {
                    bad.push(at(
                        e.unit.span(),
                        format!("{ek}.{fname}"),
                        format!("`{fname}` is a name in quotes"),
                    ));
                    continue;
                }
                (true, toml::Value::Boolean(b)) => Want::Flag(*b),
                (false, toml::Value::Integer(n)) => Want::Number(*n),
                (true, _) => {
                    bad.push(at(
                        e.unit.span(),
                        format!("{ek}.{fname}"),
                        format!("`{fname}` is true or false"),
                    ));
                    continue;
                }
                (false, _) => {
                    bad.push(at(
                        e.unit.span(),
                        format!("{ek}.{fname}"),
                        format!("`{fname}` is a whole number"),
                    ));
                    continue;
                }
            };
            expects.push(Expectation {
                unit,
                field,
                want,
                rate: rate_of(e.rate, e.tolerance, &ek, file, text, bad),
            });
        }
    }
    let lower_events = |defs: &[EventDef], what: &str, bad: &mut Vec<Diagnostic>| -> Vec<EventMatch> {
        let mut out = Vec::new();
        for (ei, e) in defs.iter().enumerate() {
            let ek = format!("{key}.{what}[{ei}]");
            let Some(kind) = EventKind::from_name(e.kind.get_ref()) else {
                let names: Vec<&str> = EventKind::ALL.iter().map(|k| k.name()).collect();
                bad.push(at(
                    e.kind.span(),
                    format!("{ek}.kind"),
                    format!(
                        "unknown event kind `{}`; expected one of {}{}",
                        e.kind.get_ref(),
                        diagnostics::backticked(&names),
                        diagnostics::suggestion(e.kind.get_ref(), &names)
                    ),
                ));
                continue;
            };
            let unit = match &e.unit {
                Some(u) => match lookup(u, format!("{ek}.unit"), bad) {
                    Some(x) => Some(x),
                    None => continue,
                },
                None => None,
            };
            let other = match &e.other {
                Some(u) => match lookup(u, format!("{ek}.other"), bad) {
                    Some(x) => Some(x),
                    None => continue,
                },
                None => None,
            };
            out.push(EventMatch {
                kind,
                unit,
                other,
                amount: e.amount,
                detail: e.detail,
                rule: e.rule.clone(),
                rate: rate_of(e.rate, e.tolerance, &ek, file, text, bad),
            });
        }
        out
    };
    let events = lower_events(&s.events, "events", bad);
    let no_events = lower_events(&s.no_events, "no_events", bad);
    let outcome = match &s.outcome {
        None => None,
        Some(o) => {
            let winner = match o.winner.get_ref().as_str() {
                "left" => Some(Some(Side::Left)),
                "right" => Some(Some(Side::Right)),
                "draw" => Some(None),
                other => {
                    bad.push(at(
                        o.winner.span(),
                        format!("{key}.outcome.winner"),
                        format!(
                            "`{other}` is not `left`, `right` or `draw`{}",
                            diagnostics::suggestion(other, &["left", "right", "draw"])
                        ),
                    ));
                    None
                }
            };
            let reason = match &o.reason {
                None => None,
                Some(r) => match r.get_ref().as_str() {
                    "wipe" => Some(gridsim_engine::EndReason::Wipe),
                    "mutual_wipe" => Some(gridsim_engine::EndReason::MutualWipe),
                    "timeout" => Some(gridsim_engine::EndReason::Timeout),
                    other => {
                        bad.push(at(
                            r.span(),
                            format!("{key}.outcome.reason"),
                            format!("`{other}` is not `wipe`, `mutual_wipe` or `timeout`"),
                        ));
                        None
                    }
                },
            };
            winner.map(|w| gridsim_sim::scenario::OutcomeWant {
                winner: w,
                reason,
                end_ms: o.end_ms,
            })
        }
    };
    let resonance = match &s.resonance {
        None => None,
        Some(name) => {
            match super::boards::lookup_resonance(file, text, builder.catalog(), name, &format!("{key}.resonance"), bad)
            {
                Some(r) => Some(r),
                None => return None,
            }
        }
    };
    Some(ScenarioStep {
        resonance,
        wallet: s.wallet.map(|w| gridsim_model::scrip::Wallet {
            gold: w.gold,
            dividend: w.dividend,
            profit: w.profit,
        }),
        action,
        expects,
        events,
        no_events,
        outcome,
    })
}

fn rate_of(
    rate: Option<f64>,
    tolerance: Option<f64>,
    key: &str,
    file: &Path,
    text: &str,
    bad: &mut Vec<Diagnostic>,
) -> Option<(f64, f64)> {
    match (rate, tolerance) {
        (None, None) => None,
        (Some(r), Some(t)) if (0.0..=1.0).contains(&r) && (0.0..=1.0).contains(&t) => Some((r, t)),
        _ => {
            bad.push(Diagnostic::at(
                file,
                text,
                None,
                key.to_string(),
                "`rate` and `tolerance` go together, each between 0 and 1",
            ));
            None
        }
    }
}

/// The initial-state table is plain numbers; serde checks its keys
/// ([`super::schema::UnitStateDef`], which board files read too).
fn initial_state<'de, D: serde::Deserializer<'de>>(d: D) -> Result<InitialState, D::Error> {
    super::schema::UnitStateDef::deserialize(d).map(InitialState::from)
}
