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
    // A few events read differently by their numbers; every other reads
    // as its row's sentence (`events.rs`).
    let sentence = match ev.kind {
        EventKind::HubGranted if d > 0 => "{other} strengthens {unit} at {a}% plus a {d}% supplement",
        EventKind::Damage if other == "-" => "{unit} takes {a} damage, Vitality {d}",
        EventKind::Initiative if a == 0 => "{unit}'s Initiative resolves",
        EventKind::Revived if d == 0 => "{unit} revives by a Vessel at {a} Vitality",
        kind => kind.sentence(),
    };
    let stat = ["Power", "Speed", "Armor", "Focus"]
        .get(d as usize)
        .copied()
        .unwrap_or("stat");
    let why = Refusal::from_code(d).map_or("gate", |r| r.name());
    sentence
        .replace("{unit}", unit)
        .replace("{other}", other)
        .replace("{a}", &a.to_string())
        .replace("{d}", &d.to_string())
        .replace("{stat}", stat)
        .replace("{why}", why)
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
