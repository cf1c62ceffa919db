//! A Riftbound scenario's `[showdown]`: both lanes from the frozen
//! catalog, what each side holds (hand, Hidden, deck, base), the script
//! of every choice and what must hold after (docs/scenarios.md, "Showdown
//! scenarios").

use super::*;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ShowdownDef {
    /// The battlefield's card, when it has one.
    battlefield: Option<Spanned<String>>,
    attacker: Vec<LaneUnitDef>,
    defender: Vec<LaneUnitDef>,
    #[serde(default)]
    attacker_hand: Vec<Spanned<String>>,
    #[serde(default)]
    defender_hand: Vec<Spanned<String>>,
    /// Cards hidden at the battlefield (RB11, RB12); only its holder, the
    /// defender, hides there.
    #[serde(default)]
    defender_hidden: Vec<Spanned<String>>,
    /// Each side's deck, top first (RB48).
    #[serde(default)]
    attacker_deck: Vec<Spanned<String>>,
    #[serde(default)]
    defender_deck: Vec<Spanned<String>>,
    /// Gear and runes at each side's base, their abilities to activate
    /// (RB40, RB41).
    #[serde(default)]
    attacker_base: Vec<Spanned<String>>,
    #[serde(default)]
    defender_base: Vec<Spanned<String>>,
    /// `combat` (default): the attacker moves in and a combat showdown is
    /// played; `hold`: the defender, alone, holds the battlefield (RB14).
    #[serde(default)]
    phase: Option<Spanned<String>>,
    #[serde(default)]
    plays: Vec<PlayDef>,
    #[serde(default)]
    trigger_targets: Vec<TriggerTargetDef>,
    #[serde(default)]
    order: SidesDef,
    #[serde(default)]
    damage_order: SidesDef,
    /// The answers to "you may", in the order asked.
    #[serde(default)]
    may: Vec<bool>,
    end: Option<Spanned<String>>,
    /// Cards played and abilities activated in the showdown (the
    /// `spells_played` column of a run's `showdowns` table).
    played: Option<u32>,
    /// Chain items resolved in the showdown (the `resolved` column).
    resolved: Option<u32>,
    #[serde(default)]
    expect: Vec<ExpectDef>,
    #[serde(default)]
    events: Vec<EventDef>,
    /// Lines that must not be logged at all.
    #[serde(default)]
    absent: Vec<EventDef>,
    #[serde(default)]
    zones: Vec<ZoneDef>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LaneUnitDef {
    card: Spanned<String>,
    /// Its name in the scenario (default: the card's key).
    name: Option<Spanned<String>>,
    gear: Option<Spanned<String>>,
    /// A second gear it holds (RB14).
    second_gear: Option<Spanned<String>>,
    #[serde(default)]
    stolen: bool,
    /// Stays at its base (RB11: a unit a spell could reach anywhere).
    #[serde(default)]
    at_base: bool,
    /// Has a Buff as the showdown starts (RB27).
    #[serde(default)]
    buffed: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayDef {
    player: Spanned<String>,
    card: Spanned<String>,
    #[serde(default)]
    targets: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TriggerTargetDef {
    unit: Spanned<String>,
    target: Spanned<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SidesDef {
    #[serde(default)]
    attacker: Vec<Spanned<String>>,
    #[serde(default)]
    defender: Vec<Spanned<String>>,
}

/// A scripted showdown: lanes from the frozen catalog, names, the script,
/// what must hold after.
pub(super) fn parse_showdown(
    file: &Path,
    text: &str,
    d: &ShowdownDef,
    catalog: &Catalog,
    bad: &mut Vec<Diagnostic>,
) -> ShowdownSpec {
    let keys: Vec<&str> = catalog.cards.iter().map(|c| c.key.as_str()).collect();
    let card = |name: &Spanned<String>, key: String, kind: CardKind, bad: &mut Vec<Diagnostic>| -> CardIndex {
        match catalog.index(name.get_ref()) {
            Some(c) if catalog.card(c).kind == kind => c,
            Some(c) => {
                bad.push(Diagnostic::at(
                    file,
                    text,
                    Some(name.span()),
                    key,
                    format!(
                        "`{}` is a {}, not a {}",
                        name.get_ref(),
                        catalog.card(c).kind.name(),
                        kind.name()
                    ),
                ));
                c
            }
            None => {
                bad.push(Diagnostic::at(
                    file,
                    text,
                    Some(name.span()),
                    key,
                    format!(
                        "no card `{}` in {}{}",
                        name.get_ref(),
                        gridsim_sim::riftbound_scenario::CATALOG_DIR,
                        diagnostics::suggestion(name.get_ref(), &keys)
                    ),
                ));
                0
            }
        }
    };
    let mut names: Vec<String> = Vec::new();
    let mut lanes: [Lane; 2] = Default::default();
    let mut hand_units: Vec<(Spanned<String>, CardIndex, String)> = Vec::new();
    let no_hidden = Vec::new();
    let sides = [
        (
            &d.attacker,
            &d.attacker_hand,
            &no_hidden,
            &d.attacker_deck,
            &d.attacker_base,
        ),
        (
            &d.defender,
            &d.defender_hand,
            &d.defender_hidden,
            &d.defender_deck,
            &d.defender_base,
        ),
    ];
    for (side, (units, hand, hidden, deck, base)) in sides.into_iter().enumerate() {
        let who = ["attacker", "defender"][side];
        for (i, u) in units.iter().enumerate() {
            let c = card(&u.card, format!("showdown.{who}[{i}].card"), CardKind::Unit, bad);
            let gear = u
                .gear
                .as_ref()
                .map(|g| card(g, format!("showdown.{who}[{i}].gear"), CardKind::Gear, bad));
            let second_gear = u
                .second_gear
                .as_ref()
                .map(|g| card(g, format!("showdown.{who}[{i}].second_gear"), CardKind::Gear, bad));
            let name = u.name.as_ref().unwrap_or(&u.card);
            if names.contains(name.get_ref()) {
                bad.push(Diagnostic::at(
                    file,
                    text,
                    Some(name.span()),
                    format!("showdown.{who}[{i}]"),
                    format!("a second unit named `{}`: give it a `name`", name.get_ref()),
                ));
            }
            names.push(name.get_ref().clone());
            lanes[side].units.push(LaneUnit {
                card: c,
                gear,
                second_gear,
                stolen: u.stolen,
                at_base: u.at_base,
                buffed: u.buffed,
                ..LaneUnit::default()
            });
        }
        // A hand, a deck and the cards hidden hold spells (gear too,
        // hidden) and units to play (RB17, RB26), a unit named by its key
        // once played.
        for (zone, cards) in [("hand", hand), ("hidden", hidden), ("deck", deck)] {
            for (i, h) in cards.iter().enumerate() {
                let found = catalog.index(h.get_ref()).map(|c| catalog.card(c).kind);
                let kind = match found {
                    Some(CardKind::Unit) => CardKind::Unit,
                    Some(CardKind::Gear) if zone == "hidden" => CardKind::Gear,
                    _ => CardKind::Spell,
                };
                let key = format!("showdown.{who}_{zone}[{i}]");
                let c = card(h, key.clone(), kind, bad);
                if zone == "hidden" && !catalog.card(c).hidden {
                    bad.push(Diagnostic::at(
                        file,
                        text,
                        Some(h.span()),
                        key.clone(),
                        format!("`{}` has no Hidden: it cannot be hidden", h.get_ref()),
                    ));
                }
                let lane = &mut lanes[side];
                match zone {
                    "hand" => lane.hand.push(c),
                    "hidden" => lane.hidden.push(c),
                    _ => lane.deck.push(c),
                }
                if kind == CardKind::Unit {
                    hand_units.push((h.clone(), c, key));
                }
            }
        }
        for (i, g) in base.iter().enumerate() {
            let key = format!("showdown.{who}_base[{i}]");
            let is_rune = catalog
                .index(g.get_ref())
                .is_some_and(|c| catalog.card(c).kind == CardKind::Rune);
            let kind = if is_rune { CardKind::Rune } else { CardKind::Gear };
            let c = card(g, key.clone(), kind, bad);
            if catalog.card(c).ability.is_none() {
                bad.push(Diagnostic::at(
                    file,
                    text,
                    Some(g.span()),
                    key,
                    format!("`{}` has no ability to activate from the base", g.get_ref()),
                ));
            }
            lanes[side].base.push(c);
        }
    }
    let lane_units = names.len();
    for (name, _, key) in &hand_units {
        if names.contains(name.get_ref()) {
            bad.push(Diagnostic::at(
                file,
                text,
                Some(name.span()),
                key.clone(),
                format!(
                    "a second unit named `{}`: a unit in hand is named by its key",
                    name.get_ref()
                ),
            ));
        }
        names.push(name.get_ref().clone());
    }
    let limit = gridsim_riftbound::showdown::MAX_LANE;
    use gridsim_riftbound::showdown::{MAX_BASE, MAX_DECK, MAX_HAND};
    if lanes.iter().any(|l| {
        l.units.len() > limit
            || l.hand.len() > MAX_HAND
            || l.hidden.len() > gridsim_riftbound::MAX_HIDDEN
            || l.deck.len() > MAX_DECK
            || l.base.len() > MAX_BASE
    }) {
        bad.push(Diagnostic::at(
            file,
            text,
            None,
            "showdown",
            format!(
                "at most {limit} units, {MAX_HAND} cards in hand, {} hidden, {MAX_DECK} in the deck and {MAX_BASE} at the base a side",
                gridsim_riftbound::MAX_HIDDEN
            ),
        ));
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let unit = |n: &Spanned<String>, key: String, bad: &mut Vec<Diagnostic>| unit_named(file, text, &refs, n, key, bad);
    let player = |n: &Spanned<String>, key: String, bad: &mut Vec<Diagnostic>| player_of(file, text, n, key, bad);
    let plays = d
        .plays
        .iter()
        .enumerate()
        .map(|(i, p)| ScriptedPlay {
            player: player(&p.player, format!("showdown.plays[{i}].player"), bad),
            card: {
                // A card from hand or Hidden, or a gear or rune at the
                // base whose ability is activated.
                let kind = catalog
                    .index(p.card.get_ref())
                    .map_or(CardKind::Spell, |c| catalog.card(c).kind);
                card(&p.card, format!("showdown.plays[{i}].card"), kind, bad)
            },
            targets: p
                .targets
                .iter()
                .enumerate()
                .map(|(k, t)| unit(t, format!("showdown.plays[{i}].targets[{k}]"), bad))
                .collect(),
        })
        .collect();
    let trigger_targets = d
        .trigger_targets
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let from = if t.unit.get_ref() == "battlefield" && d.battlefield.is_some() {
                gridsim_sim::riftbound_scenario::BATTLEFIELD
            } else {
                unit(&t.unit, format!("showdown.trigger_targets[{i}].unit"), bad)
            };
            (
                from,
                unit(&t.target, format!("showdown.trigger_targets[{i}].target"), bad),
            )
        })
        .collect();
    let sides = |s: &SidesDef, key: &str, bad: &mut Vec<Diagnostic>| -> [Vec<usize>; 2] {
        let list = |v: &[Spanned<String>], who: &str, bad: &mut Vec<Diagnostic>| {
            v.iter()
                .enumerate()
                .map(|(i, n)| {
                    if n.get_ref() == "battlefield" && d.battlefield.is_some() {
                        gridsim_sim::riftbound_scenario::BATTLEFIELD
                    } else {
                        unit(n, format!("showdown.{key}.{who}[{i}]"), bad)
                    }
                })
                .collect()
        };
        [list(&s.attacker, "attacker", bad), list(&s.defender, "defender", bad)]
    };
    let order = sides(&d.order, "order", bad);
    let damage_order = sides(&d.damage_order, "damage_order", bad);
    let end = d.end.as_ref().and_then(|e| match e.get_ref().as_str() {
        "conquer" => Some(End::Conquer),
        "hold" => Some(End::Hold),
        "empty" => Some(End::Empty),
        other => {
            bad.push(Diagnostic::at(
                file,
                text,
                Some(e.span()),
                "showdown.end",
                format!(
                    "`{other}` is not an end: `conquer`, `hold` or `empty`{}",
                    diagnostics::suggestion(other, &["conquer", "hold", "empty"])
                ),
            ));
            None
        }
    });
    let expect = d
        .expect
        .iter()
        .enumerate()
        .map(|(i, e)| e.lowered(unit(&e.unit, format!("showdown.expect[{i}].unit"), bad)))
        .collect();
    let lookup = |n: &Spanned<String>, key: String, bad: &mut Vec<Diagnostic>| unit(n, key, bad);
    let events = parse_events(file, text, &d.events, "showdown", &lookup, Some(catalog), bad);
    let absent = parse_events(file, text, &d.absent, "showdown.absent", &lookup, Some(catalog), bad);
    let zones = d
        .zones
        .iter()
        .enumerate()
        .map(|(i, z)| zone_want(file, text, z, format!("showdown.zones[{i}].player"), bad))
        .collect();
    let battlefield = d
        .battlefield
        .as_ref()
        .map(|b| card(b, "showdown.battlefield".to_string(), CardKind::Battlefield, bad));
    let hold = match d.phase.as_ref().map(|p| (p, p.get_ref().as_str())) {
        None | Some((_, "combat")) => false,
        Some((_, "hold")) => {
            if !d.attacker.is_empty() {
                bad.push(Diagnostic::at(
                    file,
                    text,
                    None,
                    "showdown.attacker",
                    "a hold has no attacker: list the holder's units as `defender`".to_string(),
                ));
            }
            true
        }
        Some((p, other)) => {
            bad.push(Diagnostic::at(
                file,
                text,
                Some(p.span()),
                "showdown.phase",
                format!(
                    "`{other}` is not a phase: `combat` or `hold`{}",
                    diagnostics::suggestion(other, &["combat", "hold"])
                ),
            ));
            false
        }
    };
    ShowdownSpec {
        battlefield,
        hold,
        lanes,
        names,
        lane_units,
        hand_units: hand_units.iter().map(|(_, c, _)| *c).collect(),
        script: Script {
            plays,
            trigger_targets,
            order,
            damage_order,
            may: d.may.clone(),
        },
        end,
        played: d.played,
        resolved: d.resolved,
        expect,
        events,
        absent,
        zones,
    }
}
