//! The conformance harness: runs a [`Scenario`] step by step against the
//! engine and reports every expectation that failed, with expected and
//! actual values. Scenarios are TOML (see `docs/scenarios.md`), parsed by
//! `config::scenario`.

/// The catalog conformance scenarios run on and are checked against: a
/// frozen copy of the starter catalog's cards and runes as they stood when
/// the scenarios were written against them, so tuning `configs/cards` and
/// `configs/runes` (a matter of balance, not of rules) never moves a rule
/// check. A scenario that needs a card of its own defines it
/// (`define = { ... }`).
pub const CATALOG_DIR: &str = "tests/fixtures/catalog";

use std::path::PathBuf;

use gridsim_engine::{EndReason, Engine, Event, FightRng, FightStart, UnitGroup, UnitIdx};
use gridsim_model::catalog::{Catalog, Op};
use gridsim_model::settings::Rules;
pub use gridsim_model::spec::InitialState;
use gridsim_model::spec::{Placement, Side};
use gridsim_model::stacks::Stack;
use gridsim_model::statuses::TimedStatus;

/// A parsed, checked scenario.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub name: String,
    pub file: PathBuf,
    pub covers: Vec<String>,
    pub seed: u64,
    pub runs: u32,
    /// The catalog plus the scenario's inline cards.
    pub catalog: Catalog,
    pub units: Vec<ScenarioUnit>,
    pub steps: Vec<ScenarioStep>,
    /// Forge Core modifiers of the left and right sides.
    pub forge: [gridsim_model::spec::Forge; 2],
    /// The match round, 0 outside a match (800.33f).
    pub round: u8,
    /// The left player's wallet at the start.
    pub wallet: gridsim_model::scrip::Wallet,
    /// Runes and resonance of the left and right sides.
    pub runes: [(
        Vec<gridsim_model::spec::RunePlacement>,
        Option<gridsim_model::catalog::ResonanceId>,
    ); 2],
}

#[derive(Debug, Clone)]
pub struct ScenarioUnit {
    pub name: String,
    pub side: Side,
    /// Footprint as `[left, top, right, bottom)` cells.
    pub rect: [i64; 4],
    pub placement: Placement,
    pub state: InitialState,
}

#[derive(Debug, Clone)]
pub enum Action {
    Nothing,
    /// Force a full activation, optionally at a chosen target.
    Activate {
        unit: usize,
        target: Option<usize>,
    },
    /// Apply one clause from a source (or none) to a target.
    Apply {
        op: Op,
        source: Option<usize>,
        target: usize,
    },
    Advance(i32),
    RunToEnd,
    /// The fight ends where it stands and both sides continue into a
    /// rescue fight, every unit as it stood (200.2c, `Engine::resume`).
    Rescue,
    /// The match's next battle: every unit back with only what persists
    /// (200.3, `Engine::persisting_state`).
    NextBattle,
    /// A shop action on the left player's wallet.
    Shop(ShopAction),
}

/// What a shop step does to the wallet (crates/model/src/scrip.rs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShopAction {
    Buy(i32),
    Sell(i32),
    /// A scenario unit's card is sold at its tier (800.47d).
    SellUnit(usize),
    /// The left side's settled Dividend joins the wallet.
    Bank,
    /// The left player claims a resonance (800.58b).
    Claim(gridsim_model::catalog::ResonanceId),
}

#[derive(Debug, Clone)]
pub struct ScenarioStep {
    pub action: Action,
    pub expects: Vec<Expectation>,
    /// Must appear, in this order, among the step's events.
    pub events: Vec<EventMatch>,
    /// Must not appear among the step's events.
    pub no_events: Vec<EventMatch>,
    pub outcome: Option<OutcomeWant>,
    /// The wallet after the step.
    pub wallet: Option<gridsim_model::scrip::Wallet>,
    /// The left player's equipped resonance after the step.
    pub resonance: Option<gridsim_model::catalog::ResonanceId>,
}

#[derive(Debug, Clone)]
pub struct OutcomeWant {
    pub winner: Option<Side>,
    pub reason: Option<EndReason>,
    pub end_ms: Option<i32>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Want {
    Number(i64),
    Flag(bool),
    /// A name: the tribe of the card a unit is playing.
    Text(String),
}

impl std::fmt::Display for Want {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Want::Number(n) => write!(f, "{n}"),
            Want::Flag(b) => write!(f, "{b}"),
            Want::Text(t) => write!(f, "`{t}`"),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Expectation {
    pub unit: usize,
    pub field: Field,
    pub want: Want,
    /// `(rate, tolerance)`: a frequency over the runs instead of a certainty.
    pub rate: Option<(f64, f64)>,
}

#[derive(Debug, Clone)]
pub struct EventMatch {
    pub kind: gridsim_engine::EventKind,
    pub unit: Option<usize>,
    pub other: Option<usize>,
    pub amount: Option<i32>,
    pub detail: Option<i32>,
    pub rule: Option<String>,
    pub rate: Option<(f64, f64)>,
}

macro_rules! fields {
    ($( $Variant:ident = $text:literal, $flag:literal ),* $(,)?) => {
        /// A unit property an expectation can check.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Field {
            $( $Variant, )*
            /// A timed status's time left, by its key (`statuses.rs`).
            Timer(TimedStatus),
            /// A count, by its key (`stacks.rs`).
            Stack(Stack),
        }
        impl Field {
            /// Every field's name, for suggestions.
            pub fn names() -> Vec<&'static str> {
                let mut names = vec![ $( $text, )* ];
                names.extend(TimedStatus::ALL.iter().map(|s| s.key()));
                names.extend(Stack::ALL.iter().map(|s| s.key()));
                names
            }
            pub fn name(self) -> &'static str {
                match self { $( Field::$Variant => $text, )* Field::Timer(s) => s.key(), Field::Stack(s) => s.key() }
            }
            pub fn from_name(t: &str) -> Option<Field> {
                match t { $( $text => Some(Field::$Variant), )* _ => TimedStatus::from_key(t).map(Field::Timer).or_else(|| Stack::from_key(t).map(Field::Stack)) }
            }
            pub fn is_flag(self) -> bool {
                match self { $( Field::$Variant => $flag, )* Field::Timer(_) | Field::Stack(_) => false }
            }
        }
    };
}

fields! {
    Vitality = "vitality", false,
    MaxVitality = "max_vitality", false,
    Armor = "armor", false,
    Power = "power", false,
    Speed = "speed", false,
    Focus = "focus", false,
    Tier = "tier", false,
    Charge = "charge", false,
    Hallow = "hallow", false,
    Quest = "quest", false,
    Counter = "counter", false,
    Stagger = "stagger", false,
    Phase = "phase", false,
    VesselPoints = "vessel_points", false,
    ReviveMs = "revive_ms", false,
    Deaths = "deaths", false,
    CascadeDepth = "cascade_depth", false,
    Column = "column", false,
    Row = "row", false,
    Activations = "activations", false,
    Kills = "kills", false,
    DamageDealt = "damage_dealt", false,
    DamageTaken = "damage_taken", false,
    Healing = "healing", false,
    Stock = "stock", false,
    Alive = "alive", true,
    Dormant = "dormant", true,
    Rabid = "rabid", true,
    Everlasting = "everlasting", true,
    Relentless = "relentless", true,
    Tribe = "tribe", false,
}

fn read_field(e: &Engine, u: UnitIdx, f: Field) -> Want {
    let i = u.i();
    let c = e.units();
    let n = |v: i32| Want::Number(i64::from(v));
    match f {
        Field::Vitality => n(c.vitality[i]),
        Field::Timer(s) => n(c.timer(s, i)),
        Field::Stack(s) => n(c.stack(s, i)),
        Field::MaxVitality => n(c.max_vitality[i]),
        Field::Armor => n(e.armor(u)),
        Field::Power => n(e.power(u)),
        Field::Speed => n(e.speed(u)),
        Field::Focus => n(e.focus(u)),
        Field::Tier => n(i32::from(c.tier[i])),
        Field::Charge => n(e.charge(u)),
        Field::Hallow => n(c.hallow[i].total()),
        Field::Quest => n(c.quest[i]),
        Field::Counter => n(c.counter[i]),
        Field::Stagger => n(c.stagger[i]),
        Field::Phase => n(i32::from(c.phase[i])),
        Field::VesselPoints => n(c.vessel_points[i]),
        Field::ReviveMs => n(c.revive_ms[i]),
        Field::Deaths => n(c.deaths[i] as i32),
        Field::CascadeDepth => n(c.cascade_depth[i]),
        Field::Column => n(i32::from(c.rect[i].column)),
        Field::Row => n(i32::from(c.rect[i].row)),
        Field::Activations => n(c.activations[i] as i32),
        Field::Kills => n(c.kills[i] as i32),
        Field::DamageDealt => Want::Number(c.damage_dealt[i]),
        Field::DamageTaken => Want::Number(c.damage_taken[i]),
        Field::Healing => Want::Number(c.healing[i]),
        Field::Stock => n(e.stock[c.side[i].index()]),
        Field::Alive => Want::Flag(c.alive[i]),
        Field::Dormant => Want::Flag(c.dormant[i]),
        Field::Rabid => Want::Flag(c.rabid[i]),
        Field::Everlasting => Want::Flag(c.everlasting[i]),
        Field::Relentless => Want::Flag(e.is_relentless(u)),
        // The tribe of the card in force, which a boss's phase may change
        // (800.48d).
        Field::Tribe => Want::Text(e.catalog.card(c.card[i]).tribe.clone()),
    }
}

/// The result of running one scenario.
#[derive(Debug, Clone)]
pub struct ScenarioReport {
    pub name: String,
    pub file: PathBuf,
    pub covers: Vec<String>,
    /// One line per failed expectation: where, expected, actual.
    pub failures: Vec<String>,
    /// Expectations checked (per run, plus one per frequency).
    pub checks: usize,
}

impl ScenarioReport {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Runs a scenario `runs` times (fight indices 0..runs of its seed).
pub fn run(s: &Scenario, rules: &Rules) -> ScenarioReport {
    let mut failures = Vec::new();
    let mut checks = 0;
    // Frequencies: (label, hits, rate, tolerance) per rated expectation.
    let mut freq: Vec<(String, u32, f64, f64)> = Vec::new();
    let mut engine = Engine::new(&s.catalog, *rules);
    engine.enable_log();
    for run_index in 0..s.runs {
        let mut run_failures = Vec::new();
        let mut slot = 0;
        run_once(
            s,
            &mut engine,
            run_index,
            &mut run_failures,
            &mut checks,
            &mut |label, held, rate, tol| {
                if run_index == 0 {
                    freq.push((label, 0, rate, tol));
                }
                if held {
                    freq[slot].1 += 1;
                }
                slot += 1;
            },
        );
        if !run_failures.is_empty() {
            let prefix = if s.runs > 1 {
                format!("run {run_index}: ")
            } else {
                String::new()
            };
            failures.extend(run_failures.into_iter().map(|f| format!("{prefix}{f}")));
            break;
        }
    }
    for (label, hits, rate, tol) in freq {
        checks += 1;
        let observed = f64::from(hits) / f64::from(s.runs.max(1));
        if (observed - rate).abs() > tol {
            failures.push(format!(
                "{label}: expected rate {rate:.4} ± {tol:.4} over {} runs, observed {observed:.4}",
                s.runs
            ));
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

/// Places the scenario's units with the given starting states and starts
/// the battle on `stream`.
/// Every unit is a group of its own, so the units keep the scenario's
/// order (and their indices) whatever their sides: the same
/// [`Engine::begin`] as a run's and a match's fights.
/// Begins a battle of the scenario's units with `states`, the left player
/// bringing `wallet`'s Scrip and `resonance`, its slot's (200.3a).
fn begin_battle(
    s: &Scenario,
    e: &mut Engine,
    stream: FightRng,
    states: &[InitialState],
    wallet: &gridsim_model::scrip::Wallet,
    resonance: Option<gridsim_model::catalog::ResonanceId>,
) -> Result<(), gridsim_engine::StartError> {
    let groups: Vec<UnitGroup> = s
        .units
        .iter()
        .zip(states)
        .map(|(u, state)| UnitGroup {
            side: u.side,
            units: std::slice::from_ref(&u.placement),
            states: std::slice::from_ref(state),
            shifts: &[],
        })
        .collect();
    let start = FightStart {
        groups: &groups,
        runes: [&s.runes[0].0, &s.runes[1].0],
        rune_shifts: [&[], &[]],
        resonance: [resonance, s.runes[1].1],
        forge: s.forge,
        round: s.round,
        scrip: [[wallet.dividend, wallet.profit], [0, 0]],
    };
    e.begin(&start, stream)
}

fn run_once(
    s: &Scenario,
    e: &mut Engine,
    run_index: u32,
    failures: &mut Vec<String>,
    checks: &mut usize,
    rated: &mut dyn FnMut(String, bool, f64, f64),
) {
    let states: Vec<InitialState> = s.units.iter().map(|u| u.state.clone()).collect();
    let stream = FightRng::for_fight(s.seed, u64::from(run_index));
    if let Err(why) = begin_battle(s, e, stream, &states, &s.wallet, s.runes[0].1) {
        failures.push(why.to_string());
        return;
    }
    let mut wallet = s.wallet;
    let mut slot = gridsim_model::scrip::ResonanceSlot::new(s.runes[0].1);
    let mut banked = 0;
    let name = |i: usize| s.units[i].name.as_str();
    for (si, step) in s.steps.iter().enumerate() {
        let mut from = e.log.events.len();
        match &step.action {
            Action::Nothing => {}
            Action::Activate { unit, target } => {
                let t = target.map_or(UnitIdx::NONE, |t| UnitIdx(t as u8));
                e.activate_chain(UnitIdx(*unit as u8), t);
                e.check_end();
            }
            Action::Apply { op, source, target } => {
                let src = source.map_or(UnitIdx::NONE, |x| UnitIdx(x as u8));
                e.apply_clause(op, src, UnitIdx(*target as u8));
                e.check_end();
            }
            Action::Advance(ms) => {
                let stop = e.now.saturating_add(*ms);
                e.run_until(stop);
            }
            Action::RunToEnd => {
                e.run_until(e.rules.overtime.cap_ms);
                e.finish();
            }
            Action::Rescue => {
                // 200.2c: both sides continue as they stand, each unit where
                // the fight left it. The rescue fight places the left side's
                // units first, so the scenario's names keep their units only
                // when the file lists them so.
                if let Some(i) =
                    (1..s.units.len()).find(|&i| s.units[i].side == Side::Left && s.units[i - 1].side == Side::Right)
                {
                    failures.push(format!(
                        "step {si}: `rescue` needs every left unit listed before the right ones; {} comes after a right unit",
                        name(i)
                    ));
                    return;
                }
                let ends = [e.side_end(Side::Left), e.side_end(Side::Right)];
                let stream = FightRng::for_fight(s.seed, u64::from(run_index) | 1 << 63);
                if let Err(why) = e.resume([&ends[0], &ends[1]], s.round, stream) {
                    failures.push(format!("step {si}: {why}"));
                    return;
                }
                // The new fight's log starts over: check this step on it;
                // it has banked nothing yet.
                from = 0;
                banked = 0;
            }
            Action::NextBattle => {
                let states: Vec<InitialState> = (0..s.units.len())
                    .map(|i| e.persisting_state(UnitIdx(i as u8)))
                    .collect();
                let stream = FightRng::for_fight(s.seed, u64::from(run_index) | 1 << 62);
                // What persists with the player (200.3a): the wallet as it
                // stands and the resonance its slot holds.
                if let Err(why) = begin_battle(s, e, stream, &states, &wallet, slot.equipped()) {
                    failures.push(format!("step {si}: {why}"));
                    return;
                }
                from = 0;
                banked = 0;
            }
            Action::Shop(shop) => match shop {
                ShopAction::Buy(cost) => {
                    if let Err(why) = wallet.pay(*cost) {
                        failures.push(format!("step {si}: {why}"));
                    }
                }
                ShopAction::Sell(value) => wallet.sell(*value),
                ShopAction::SellUnit(i) => {
                    let p = s.units[*i].placement;
                    wallet.sell_card(e.catalog, e.rules.shop.sell_gold_per_tier, p.card, p.tier);
                }
                ShopAction::Claim(r) => {
                    slot.claim(*r);
                }
                ShopAction::Bank => {
                    let settled = e.dividend_gained(Side::Left);
                    wallet.bank(settled - banked);
                    banked = settled;
                }
            },
        }
        if let Some(want) = step.resonance {
            *checks += 1;
            if slot.equipped() != Some(want) {
                failures.push(format!(
                    "step {si}: resonance: expected {}, found {}",
                    s.catalog.resonance(want).key,
                    slot.equipped().map_or("none", |r| s.catalog.resonance(r).key.as_str())
                ));
            }
        }
        if let Some(want) = step.wallet {
            *checks += 1;
            if wallet != want {
                failures.push(format!("step {si}: wallet: expected {want:?}, found {wallet:?}"));
            }
        }
        let events = &e.log.events[from..];
        for x in &step.expects {
            let actual = read_field(e, UnitIdx(x.unit as u8), x.field);
            let label = format!("step {si}: {}.{}", name(x.unit), x.field.name());
            match x.rate {
                Some((r, t)) => rated(format!("{label} = {}", x.want), actual == x.want, r, t),
                None => {
                    *checks += 1;
                    if actual != x.want {
                        failures.push(format!("{label}: expected {}, found {actual}", x.want));
                    }
                }
            }
        }
        // Ordered subsequence: each matcher after the previous match.
        let mut cursor = 0;
        for m in &step.events {
            let label = format!("step {si}: event {}", describe(m, &name));
            let found = events[cursor..].iter().position(|ev| matches(ev, m));
            match m.rate {
                Some((r, t)) => rated(label, events.iter().any(|ev| matches(ev, m)), r, t),
                None => {
                    *checks += 1;
                    match found {
                        Some(p) => cursor += p + 1,
                        None => failures.push(format!(
                            "{label}: expected in order after event #{cursor} of this step, not found; the step's events were: {}",
                            summarize(events, &name)
                        )),
                    }
                }
            }
        }
        for m in &step.no_events {
            *checks += 1;
            if let Some(ev) = events.iter().find(|ev| matches(ev, m)) {
                failures.push(format!(
                    "step {si}: expected no event {}, found {}",
                    describe(m, &name),
                    one_event(ev, &name)
                ));
            }
        }
        if let Some(o) = &step.outcome {
            *checks += 1;
            match e.outcome() {
                None => failures.push(format!(
                    "step {si}: expected the fight to have ended, it is still running at {} ms",
                    e.now
                )),
                Some(got) => {
                    let side = |w: Option<Side>| w.map_or("draw", |s| s.name());
                    if got.winner != o.winner {
                        failures.push(format!(
                            "step {si}: outcome.winner: expected {}, found {}",
                            side(o.winner),
                            side(got.winner)
                        ));
                    }
                    if let Some(r) = o.reason
                        && r != got.reason
                    {
                        failures.push(format!(
                            "step {si}: outcome.reason: expected {}, found {}",
                            r.name(),
                            got.reason.name()
                        ));
                    }
                    if let Some(t) = o.end_ms
                        && t != got.end_ms
                    {
                        failures.push(format!("step {si}: outcome.end_ms: expected {t}, found {}", got.end_ms));
                    }
                }
            }
        }
    }
}

fn matches(ev: &Event, m: &EventMatch) -> bool {
    ev.kind == m.kind
        && m.unit.is_none_or(|u| ev.unit == UnitIdx(u as u8))
        && m.other.is_none_or(|u| ev.other == UnitIdx(u as u8))
        && m.amount.is_none_or(|a| ev.amount == a)
        && m.detail.is_none_or(|d| ev.detail == d)
        && m.rule.as_deref().is_none_or(|r| ev.rule == r)
}

fn describe<'a>(m: &EventMatch, name: &dyn Fn(usize) -> &'a str) -> String {
    let mut out = m.kind.name().to_string();
    if let Some(u) = m.unit {
        out += &format!(" unit={}", name(u));
    }
    if let Some(u) = m.other {
        out += &format!(" other={}", name(u));
    }
    if let Some(a) = m.amount {
        out += &format!(" amount={a}");
    }
    if let Some(d) = m.detail {
        out += &format!(" detail={d}");
    }
    if let Some(r) = &m.rule {
        out += &format!(" rule={r}");
    }
    out
}

fn one_event<'a>(ev: &Event, name: &dyn Fn(usize) -> &'a str) -> String {
    let who = |u: UnitIdx| {
        if u.is_none() {
            "-".to_string()
        } else {
            name(u.i()).to_string()
        }
    };
    format!(
        "{}(unit={}, other={}, amount={}, detail={}, rule={})",
        ev.kind.name(),
        who(ev.unit),
        who(ev.other),
        ev.amount,
        ev.detail,
        ev.rule
    )
}

fn summarize<'a>(events: &[Event], name: &dyn Fn(usize) -> &'a str) -> String {
    if events.is_empty() {
        return "(none)".to_string();
    }
    events.iter().map(|e| one_event(e, name)).collect::<Vec<_>>().join("; ")
}

/// A match scenario: one match of a match suite, and expectations on its
/// log (section 200).
#[derive(Debug, Clone)]
pub struct MatchScenario {
    pub name: String,
    pub file: PathBuf,
    pub covers: Vec<String>,
    pub index: u64,
    pub suite: crate::matches::MatchSuite,
    pub expect: Vec<MatchExpect>,
}

/// One expectation on a match log: the events named `event` whose fields
/// equal `filter`'s, and what must hold of them.
#[derive(Debug, Clone)]
pub struct MatchExpect {
    pub event: String,
    pub filter: serde_json::Value,
    /// Exactly this many.
    pub count: Option<u64>,
    pub at_least: Option<u64>,
    /// `field`'s values over the events, in log order, equal `is` (a list,
    /// one per event); `name.len` is the length of a list field, `name.N`
    /// its item N (from 0).
    pub field: Option<String>,
    pub is: Option<serde_json::Value>,
    /// Every such event (and at least one) has these field values.
    pub all: serde_json::Value,
    /// `field`'s values over the events are pairwise different (and, for
    /// a list field, its items within each event too).
    pub distinct: bool,
    /// `field`'s values over the events, in log order, never fall.
    pub rising: bool,
    /// `field`'s values over the events equal another selection's:
    /// `(event, filter, field)`.
    pub same_as: Option<(String, serde_json::Value, String)>,
    pub note: String,
}

fn field_of(event: &serde_json::Value, field: &str) -> serde_json::Value {
    let list = |name: &str| event.get(name).and_then(|v| v.as_array());
    let (name, part) = field.rsplit_once('.').unwrap_or((field, ""));
    match (part, part.parse::<usize>()) {
        ("len", _) => list(name).map_or(serde_json::Value::Null, |a| serde_json::Value::from(a.len())),
        (_, Ok(item)) => list(name).and_then(|a| a.get(item)).cloned().unwrap_or_default(),
        _ => event.get(field).cloned().unwrap_or_default(),
    }
}

fn has_fields(event: &serde_json::Value, fields: &serde_json::Value) -> bool {
    fields
        .as_object()
        .is_none_or(|m| m.iter().all(|(k, v)| same_value(&field_of(event, k), v)))
}

/// TOML has no null: an expected `"none"` matches an absent value.
fn same_value(found: &serde_json::Value, expected: &serde_json::Value) -> bool {
    found == expected || (found.is_null() && expected.as_str() == Some("none"))
}

/// Plays a match scenario's match (its seed matches first, when it is not
/// one, for the ghost pool) and checks each expectation.
pub fn run_match(s: &MatchScenario, catalog: &gridsim_model::catalog::Catalog, rules: &Rules) -> ScenarioReport {
    use crate::matches::{GhostPool, MatchCtx, play};
    let ctx = MatchCtx::new(catalog, *rules, &s.suite);
    let mut engine = gridsim_engine::Engine::new(catalog, *rules);
    let pool = if s.index >= s.suite.pool_matches {
        let seeds: Vec<_> = (0..s.suite.pool_matches)
            .map(|i| play(&ctx, &mut engine, i, &GhostPool::default()))
            .collect();
        GhostPool::from_results(&seeds)
    } else {
        GhostPool::default()
    };
    let result = play(&ctx, &mut engine, s.index, &pool);
    let log: Vec<serde_json::Value> = result
        .events
        .iter()
        .map(|e| serde_json::to_value(e).unwrap_or_default())
        .collect();
    let mut failures = Vec::new();
    let mut checks = 0;
    for (i, e) in s.expect.iter().enumerate() {
        let select = |event: &str, filter: &serde_json::Value| -> Vec<&serde_json::Value> {
            log.iter()
                .filter(|v| v.get("event").and_then(|n| n.as_str()) == Some(event) && has_fields(v, filter))
                .collect()
        };
        let found = select(&e.event, &e.filter);
        let values = |field: &str, events: &[&serde_json::Value]| -> Vec<serde_json::Value> {
            events.iter().map(|v| field_of(v, field)).collect()
        };
        let what = format!(
            "expect[{i}] ({} where {}){}",
            e.event,
            e.filter,
            if e.note.is_empty() {
                String::new()
            } else {
                format!(": {}", e.note)
            }
        );
        if let Some(n) = e.count {
            checks += 1;
            if found.len() as u64 != n {
                failures.push(format!("{what}: expected {n} such events, found {}", found.len()));
            }
        }
        if let Some(n) = e.at_least {
            checks += 1;
            if (found.len() as u64) < n {
                failures.push(format!(
                    "{what}: expected at least {n} such events, found {}",
                    found.len()
                ));
            }
        }
        if let (Some(field), Some(is)) = (&e.field, &e.is) {
            checks += 1;
            let got = serde_json::Value::Array(found.iter().map(|v| field_of(v, field)).collect());
            if got != *is {
                failures.push(format!("{what}: `{field}` expected {is}, found {got}"));
            }
        }
        if let (true, Some(field)) = (e.distinct, &e.field) {
            checks += 1;
            let got = values(field, &found);
            let mut seen = std::collections::BTreeSet::new();
            let mut repeated = got.iter().find(|v| !seen.insert(v.to_string())).cloned();
            for v in &got {
                if let Some(items) = v.as_array() {
                    let mut within = std::collections::BTreeSet::new();
                    if let Some(r) = items.iter().find(|x| !within.insert(x.to_string())) {
                        repeated = Some(r.clone());
                    }
                }
            }
            if found.is_empty() {
                failures.push(format!("{what}: no such event to compare"));
            } else if let Some(r) = repeated {
                failures.push(format!("{what}: `{field}` values must differ; {r} repeats in {got:?}"));
            }
        }
        if let (true, Some(field)) = (e.rising, &e.field) {
            checks += 1;
            let got = values(field, &found);
            let numbers: Vec<Option<f64>> = got.iter().map(serde_json::Value::as_f64).collect();
            if found.is_empty() || numbers.iter().any(Option::is_none) {
                failures.push(format!(
                    "{what}: `{field}` needs a number in every event, found {got:?}"
                ));
            } else if numbers.windows(2).any(|w| w[1] < w[0]) {
                failures.push(format!("{what}: `{field}` must never fall; found {got:?}"));
            }
        }
        if let (Some((event, filter, other)), Some(field)) = (&e.same_as, &e.field) {
            checks += 1;
            let mine = values(field, &found);
            let theirs = values(other, &select(event, filter));
            if found.is_empty() || mine != theirs {
                failures.push(format!(
                    "{what}: `{field}` {mine:?} should equal `{other}` of {event} where {filter}: {theirs:?}"
                ));
            }
        }
        if e.all.as_object().is_some_and(|m| !m.is_empty()) {
            checks += 1;
            if found.is_empty() {
                failures.push(format!("{what}: no such event to check {}", e.all));
            } else if let Some(v) = found.iter().find(|v| !has_fields(v, &e.all)) {
                failures.push(format!("{what}: expected every one to have {}, found {v}", e.all));
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
