//! Turns a finished fight into what people read: a short outcome, a
//! readable event log, or JSON. Deterministic: the same fight prints the
//! same bytes.

use serde::Serialize;

use crate::{Engine, Event, EventKind, Refusal, UnitIdx};
use gridsim_model::spec::Side;

/// One fight, ready to print.
#[derive(Debug, Clone, Serialize)]
pub struct FightReport {
    pub left: String,
    pub right: String,
    pub seed: u64,
    pub fight_index: u64,
    /// `"left"`, `"right"` or `"draw"`.
    pub winner: String,
    pub reason: String,
    pub end_ms: i32,
    pub left_survivors: u32,
    pub right_survivors: u32,
    pub left_vitality: i64,
    pub right_vitality: i64,
    pub units: Vec<UnitReport>,
    /// What each side's runes and resonance reached (800.58, 900.24).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub runes: Vec<RuneReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log: Option<Vec<LogLine>>,
}

/// One rune or resonance of a side and the units it reached.
#[derive(Debug, Clone, Serialize)]
pub struct RuneReport {
    pub side: String,
    /// `Ember Rune t2 on rows 0-1`, or `resonance Overpower at level 5`.
    pub what: String,
    /// Each unit reached, with its potency in percent.
    pub reached: Vec<(String, i32)>,
    /// What it gave each unit it reached in full: `+8 power`.
    pub gives: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct UnitReport {
    pub label: String,
    pub card: String,
    pub side: String,
    pub tier: u8,
    pub alive: bool,
    pub vitality: i32,
    pub max_vitality: i32,
    pub damage_dealt: i64,
    pub damage_taken: i64,
    pub activations: u32,
    pub kills: u32,
    /// Quest progress after the battle, which the match carries on (800.54c).
    pub quest: i32,
}

#[derive(Debug, Clone, Serialize)]
pub struct LogLine {
    pub time_ms: i32,
    pub event: String,
    pub unit: String,
    pub other: String,
    pub amount: i32,
    pub detail: i32,
    pub rule: String,
    pub text: String,
}

/// `L1 Executioner Crab`: side letter, place in reading order, card name.
pub fn unit_label(e: &Engine, u: UnitIdx) -> String {
    if u.is_none() {
        return "-".to_string();
    }
    let side = e.units().side[u.i()];
    let rank = e
        .order()
        .iter()
        .filter(|x| e.units().side[x.i()] == side)
        .position(|x| *x == u)
        .map_or(0, |p| p + 1);
    let letter = if side == Side::Left { 'L' } else { 'R' };
    format!("{letter}{rank} {}", e.catalog.card(e.units().card[u.i()]).name)
}

/// Builds the report of a finished fight in `e`.
pub fn fight_report(
    e: &mut Engine,
    left: &str,
    right: &str,
    seed: u64,
    fight_index: u64,
    with_log: bool,
) -> FightReport {
    let o = e.finish();
    let l = e.side_summary(Side::Left);
    let r = e.side_summary(Side::Right);
    let units = e
        .order()
        .iter()
        .map(|&u| {
            let i = u.i();
            let c = e.units();
            UnitReport {
                label: unit_label(e, u),
                card: e.catalog.card(c.card[i]).key.clone(),
                side: c.side[i].name().to_string(),
                tier: c.native_tier[i],
                alive: c.alive[i],
                vitality: c.vitality[i],
                max_vitality: c.max_vitality[i],
                damage_dealt: c.damage_dealt[i],
                damage_taken: c.damage_taken[i],
                activations: c.activations[i],
                kills: c.kills[i],
                quest: c.quest[i],
            }
        })
        .collect();
    let runes = rune_reports(e);
    let log = with_log.then(|| e.log.events.iter().map(|ev| log_line(e, ev)).collect());
    FightReport {
        left: left.to_string(),
        right: right.to_string(),
        seed,
        fight_index,
        winner: o.winner.map_or("draw", |s| s.name()).to_string(),
        reason: o.reason.name().to_string(),
        end_ms: o.end_ms,
        left_survivors: l.survivors,
        right_survivors: r.survivors,
        left_vitality: l.remaining_vitality,
        right_vitality: r.remaining_vitality,
        units,
        runes,
        log,
    }
}

/// What each side's runes and resonance reached when the battle started.
fn rune_reports(e: &Engine) -> Vec<RuneReport> {
    let mut out = Vec::new();
    for side in [Side::Left, Side::Right] {
        let (runes, resonance) = e.side_runes(side);
        let everyone = || {
            e.order()
                .iter()
                .filter(move |u| e.units().side[u.i()] == side && !e.units().kind[u.i()].is_object())
        };
        for (k, p) in runes.iter().enumerate() {
            let rune = e.catalog.rune(p.rune);
            let (reached, partial) = e.rune_reach(side, k);
            let last = p.cell + (e.rules.runes.cells_per_rune as u8).saturating_sub(1);
            let gives: Vec<String> = rune
                .lines
                .iter()
                .map(|l| format!("+{} {}", l.amounts[usize::from(p.tier) - 1], l.effect))
                .collect();
            out.push(RuneReport {
                side: side.name().to_string(),
                what: format!("{} t{} on {} {}-{last}", rune.name, p.tier, p.board, p.cell),
                reached: everyone()
                    .filter(|u| reached & (1u64 << u.i()) != 0)
                    .map(|&u| {
                        (
                            unit_label(e, u),
                            if partial & (1u64 << u.i()) != 0 {
                                e.rules.runes.partial_potency_percent
                            } else {
                                100
                            },
                        )
                    })
                    .collect(),
                gives: gives.join(", "),
            });
        }
        if let Some(r) = resonance {
            let res = e.catalog.resonance(r);
            let level = e.resonance_start_level(side);
            let gives: Vec<String> = res
                .lines
                .iter()
                .map(|l| {
                    let until = if l.duration_ms > 0 {
                        format!(" for {} s", l.duration_ms / 1000)
                    } else {
                        String::new()
                    };
                    format!("+{} {}{until}", l.per_level.saturating_mul(level), l.effect)
                })
                .collect();
            out.push(RuneReport {
                side: side.name().to_string(),
                what: format!("resonance {} at level {level}", res.name),
                reached: everyone().map(|&u| (unit_label(e, u), 100)).collect(),
                gives: gives.join(", "),
            });
        }
    }
    out
}

fn log_line(e: &Engine, ev: &Event) -> LogLine {
    let unit = unit_label(e, ev.unit);
    let other = unit_label(e, ev.other);
    // Runes and resonances are named from the catalog.
    let text = match ev.kind {
        EventKind::RuneProjected => {
            let rune = e
                .catalog
                .runes
                .get(ev.detail as usize)
                .map_or("a rune", |r| r.name.as_str());
            format!("{unit} receives {rune} at {}% potency", ev.amount)
        }
        EventKind::ResonanceGranted => {
            let res = e
                .catalog
                .resonances
                .get(ev.detail as usize)
                .map_or("a resonance", |r| r.name.as_str());
            format!("{unit} receives {res} at resonance level {}", ev.amount)
        }
        _ => describe(ev, &unit, &other),
    };
    LogLine {
        time_ms: ev.time_ms,
        event: ev.kind.name().to_string(),
        text,
        unit,
        other,
        amount: ev.amount,
        detail: ev.detail,
        rule: ev.rule.to_string(),
    }
}

fn describe(ev: &Event, unit: &str, other: &str) -> String {
    let (a, d) = (ev.amount, ev.detail);
    match ev.kind {
        EventKind::BattleStart => format!("battle starts with {a} units"),
        EventKind::BattleContinued => format!("rescue fight continues with {a} units as they stood"),
        EventKind::RuneProjected => format!("{unit} receives rune {d} at {a}% potency"),
        EventKind::ResonanceGranted => format!("{unit} receives resonance {d} at level {a}"),
        EventKind::ResonanceEnded => format!("{unit}'s timed resonance ends"),
        EventKind::ResonanceLevel => format!("{unit} moves its side's resonance from level {d} to {a}"),
        EventKind::DefiedDeath => format!("{unit} defies death at {a} Vitality"),
        EventKind::NewTarget => format!("{unit} meets {other} as a new target (+{a} damage)"),
        EventKind::HubGranted if d > 0 => format!("{other} strengthens {unit} at {a}% plus a {d}% supplement"),
        EventKind::HubGranted => format!("{other} strengthens {unit} at {a}%"),
        EventKind::QuestProgress => format!("{unit}'s Quest advances to {a} of {d}"),
        EventKind::CounterGained => format!("{unit}'s counter gains {d}, now {a}"),
        EventKind::Settled => format!("{unit} settles {a} Stock into Dividend, {d} Stock left"),
        EventKind::Activate => format!("{unit} activates against {other} (Power {a})"),
        EventKind::NoTarget => format!("{unit} finds no living target"),
        EventKind::HitSkipped => format!("hit on {unit} skipped ({a} damage)"),
        EventKind::Damage if other == "-" => format!("{unit} takes {a} damage, Vitality {d}"),
        EventKind::Damage => format!("{other} deals {a} damage to {unit}, Vitality {d}"),
        EventKind::ArmorAbsorbed => format!("{unit}'s Armor {d} absorbs all {a}"),
        EventKind::InsuranceSpent => format!("{unit} spends {d} Insurance, absorbing {a}"),
        EventKind::SubrogatedSpent => format!("{unit} spends {d} Subrogated Insurance, absorbing {a}"),
        EventKind::ShieldAbsorbed => format!("{unit}'s Shield absorbs {a}, {d} left"),
        EventKind::ShieldBroken => format!("{unit}'s Shield breaks"),
        EventKind::Heal => format!("{unit} restores {a}, Vitality {d}"),
        EventKind::MaimPrevented => format!("{unit}'s Maim prevents {a}, {d} points consumed"),
        EventKind::ShieldGained => format!("{unit} gains {a} Shield, now {d}"),
        EventKind::MaimApplied => format!("{unit} is Maimed {a}, now {d}"),
        EventKind::CullSucceeded => format!("{other} Culls {unit} (Maim {a} > Vitality {d})"),
        EventKind::CullFailed => format!("Cull on {unit} fails (Maim {a} vs Vitality {d})"),
        EventKind::BurnApplied => format!("{unit} Burns {a}, now {d}"),
        EventKind::BurnTick => format!("{unit}'s Burn ticks for {a}, {d} left"),
        EventKind::BurnSpread => format!("Burn {a} spreads to {unit}, now {d}"),
        EventKind::VenomApplied => format!("{unit} gains {a} Venom, now {d}"),
        EventKind::VenomTick => format!("{unit}'s Venom ticks for {a}, {d} left"),
        EventKind::CrushApplied => format!("{unit} is Crushed {a}, Armor {d}"),
        EventKind::CrushExpired => format!("{unit}'s Crush of {a} expires"),
        EventKind::SmashApplied => format!("{unit} is Smashed for {a} ms"),
        EventKind::SmashExpired => format!("{unit}'s Smash ends, tier {a}"),
        EventKind::Stunned => format!("{unit} is Stunned for {a} ms"),
        EventKind::Frozen => format!("{unit} is Frozen for {a} ms more, {d} left"),
        EventKind::Kindled => format!("{unit} gains {a} Kindled ({d} in all)"),
        EventKind::Released => format!("{unit} is released from Entrap"),
        EventKind::DormantApplied => format!("{unit} falls Dormant for {a} ms"),
        EventKind::Awakened => format!("{unit} wakes"),
        EventKind::Displaced => format!("{unit} and {other} exchange positions ({unit} now at column {a}, row {d})"),
        EventKind::DisplaceFailed => format!("{unit} has no viable partner to exchange with"),
        EventKind::Blinded => format!("{unit} is Blinded for {a} ms more, {d} left"),
        EventKind::FleetingDecayed => format!("{unit}'s Fleeting buff fades by {a}"),
        EventKind::HallowApplied => format!("{unit} gains a Hallow of {a} ({d} running)"),
        EventKind::HallowTick => format!("{unit}'s Hallow heals up to {a}, then decays {d}%"),
        EventKind::RoostGained => format!("{unit} gains {a} Roost ({d} in all)"),
        EventKind::Transformed => format!("{unit} wakes as card {d} at tier {a}"),
        EventKind::DividendGained => format!("{unit} gains {a} Dividend for its side ({d} held)"),
        EventKind::RoostBonusGained => format!("{unit}'s Roost ticks heal {a} more ({d} more in all)"),
        EventKind::RoostPercentGained => format!("{unit}'s Roost ticks heal {a}% more ({d}% more in all)"),
        EventKind::RoostTick => format!("{unit}'s Roost heals up to {a} (Roost {d})"),
        EventKind::Prismbroken => format!("{unit} is Prismbroken for {a} ms more"),
        EventKind::Entrapped => format!("{unit} is Entrapped for {a} ms"),
        EventKind::InsuranceGained => format!("{unit} gains {a} Insurance"),
        EventKind::DreadApplied => format!("{unit} gains {a} Dread, now {d}"),
        EventKind::DreadRemoved => format!("{other} harvests {a} Dread from {unit}, {d} left"),
        EventKind::Repossessed => format!("{other} repossesses {a} Armor from {unit}, Armor {d}"),
        EventKind::RelentlessGranted => format!("{unit} becomes Relentless"),
        EventKind::RelentlessSuppressed => format!("{unit}'s Relentless is suppressed for the battle"),
        EventKind::PackageResolved => format!("{unit} resolves a package for {other}, Durability {a}"),
        EventKind::Repaired => format!("{unit} is repaired by {a}, Durability {d}"),
        EventKind::StatChanged => {
            let stat = ["Power", "Speed", "Armor", "Focus"]
                .get(d as usize)
                .copied()
                .unwrap_or("stat");
            format!("{unit}'s {stat} changes by {a}")
        }
        EventKind::Refused => {
            let why = Refusal::from_code(d).map_or("gate", |r| r.name());
            format!("{unit} refuses an effect ({why})")
        }
        EventKind::Thorns => format!("{other}'s Thorns take {a} Vitality from {unit}"),
        EventKind::Retort => format!("{other}'s Retort takes {a} Vitality from {unit}"),
        EventKind::Reflect => format!("{other} reflects {a} damage at {unit}"),
        EventKind::Shattered => format!("{other} shatters {a} ms of Freeze on {unit}"),
        EventKind::Riposte => format!("{other}'s Riposte takes {a} Vitality from {unit}"),
        EventKind::SubrogatedRetaliation => format!("{other}'s Subrogated Insurance takes {a} Vitality from {unit}"),
        EventKind::Feast => format!("{unit} Feasts for {a}"),
        EventKind::BloodlettingPaid => format!("{unit} pays {a} Vitality for {other}'s Bloodletting"),
        EventKind::AbilityAborted => format!("{unit}'s ability is aborted"),
        EventKind::StockMinted => format!("{unit} mints 1 Stock, side holds {d}"),
        EventKind::Shocked => format!("{other} Shocks {unit} into activating (depth {a})"),
        EventKind::ShockThawed => format!("a Shock thaws {a} ms of {unit}'s Freeze, {d} left"),
        EventKind::HaywireApplied => format!("{unit} gains {a} Haywire, now {d}"),
        EventKind::HaywireFired => format!("{unit}'s Haywire fires, {d} left"),
        EventKind::OverclockApplied => format!("{unit} gains {a} Overclock, now {d}"),
        EventKind::Blowout => format!("{unit} blows out ({d}% chance), losing {a} Overclock"),
        EventKind::FeralApplied => format!("{unit} gains {a} Feral, now {d}"),
        EventKind::Misfire => format!("{unit} misfires at {other} ({d}% chance)"),
        EventKind::Cascade => format!("{unit} Cascades (link {a}, {d}% chance)"),
        EventKind::Initiative if a == 0 => format!("{unit}'s Initiative resolves"),
        EventKind::Initiative => format!("{unit}'s Initiative resolves again (repeat {a})"),
        EventKind::RabidGranted => format!("{unit} becomes Rabid"),
        EventKind::InterestApplied => format!("{unit} owes {a} more Interest, {d} in all"),
        EventKind::InterestPaid => format!("{unit} pays {a} Interest, {d} of it in Vitality"),
        EventKind::PhaseChanged => format!("{unit} enters phase {a} at {d} Vitality"),
        EventKind::Staggered => format!("{unit} is Staggered by {other}"),
        EventKind::EverlastingGranted => format!("{unit} becomes Everlasting"),
        EventKind::Revived if d == 0 => format!("{unit} revives by a Vessel at {a} Vitality"),
        EventKind::Revived => format!("{unit} revives by Everlasting at {a} Vitality"),
        EventKind::VesselSpent => format!("{unit} spends a Vessel, {a} left"),
        EventKind::VesselPoints => format!("{unit} earns {a} Vessel Points, {d} towards the next"),
        EventKind::VesselFormed => format!("{unit} forms a Vessel, {a} held"),
        EventKind::Consecrated => format!("{unit} gains {a} Consecrate, now {d}"),
        EventKind::Overtime => format!("overtime: {a} damage to every combatant"),
        EventKind::Death => format!("{unit} dies"),
        EventKind::FightEnd => "fight ends".to_string(),
    }
}

/// The outcome as a few lines of text, then the log when present.
pub fn to_text(r: &FightReport) -> String {
    let mut out = String::new();
    let verdict = match r.winner.as_str() {
        "draw" => "draw".to_string(),
        w => format!("{w} wins ({})", if w == "left" { &r.left } else { &r.right }),
    };
    out += &format!(
        "{} vs {}  (seed {}, fight {})\n",
        r.left, r.right, r.seed, r.fight_index
    );
    out += &format!("result: {verdict} by {} at {}\n", r.reason, seconds(r.end_ms));
    out += &format!(
        "survivors: left {} ({} Vitality), right {} ({} Vitality)\n",
        r.left_survivors, r.left_vitality, r.right_survivors, r.right_vitality
    );
    for u in &r.units {
        out += &format!(
            "  {:<28} {:<5} t{} {:>5}/{:<5} dealt {:>6} taken {:>6} acts {:>3} kills {}\n",
            u.label,
            if u.alive { "alive" } else { "dead" },
            u.tier,
            u.vitality,
            u.max_vitality,
            u.damage_dealt,
            u.damage_taken,
            u.activations,
            u.kills
        );
    }
    if !r.runes.is_empty() {
        out += "runes:\n";
        for rr in &r.runes {
            let reached: Vec<String> = rr
                .reached
                .iter()
                .map(|(u, p)| if *p == 100 { u.clone() } else { format!("{u} ({p}%)") })
                .collect();
            let who = if reached.is_empty() {
                "no unit".to_string()
            } else {
                reached.join(", ")
            };
            out += &format!("  {:<5} {}: {} to {}\n", rr.side, rr.what, rr.gives, who);
        }
    }
    if let Some(log) = &r.log {
        out += "log:\n";
        for l in log {
            out += &format!("  {:>9}  {:<60} [{}]\n", seconds(l.time_ms), l.text, l.rule);
        }
    }
    out
}

fn seconds(ms: i32) -> String {
    format!("{}.{:03}s", ms / 1000, ms % 1000)
}
