//! Loads match suites (`configs/matches/*.toml`): the party, the bots'
//! policies, the boss draft's options with their signature rewards, the
//! ghost pool's seed matches and the greedy value table, giving a
//! [`MatchSuite`](gridsim_sim::matches::MatchSuite).

use std::collections::BTreeMap;
use std::path::Path;

use toml::Spanned;

use super::boards::{lookup_card, lookup_resonance};
use super::{Diagnostic, parse_toml, read};
use gridsim_core::diagnostics;
use gridsim_model::ability::CardKind;
use gridsim_model::catalog::Catalog;
use gridsim_model::settings::Rules;
use gridsim_model::spec::Forge;
use gridsim_sim::matches::{BossOption, ForgeCore, MatchSuite, Policy, Signature};

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct MatchSuiteFile {
    name: String,
    master_seed: u64,
    #[schemars(with = "u64")]
    matches: Spanned<u64>,
    /// 1 (solo) up to `round.max_players` (200.1c).
    #[serde(default = "one")]
    #[schemars(with = "u8")]
    players: Spanned<u8>,
    /// The bots, dealt to the run's seats in turn: `greedy`, `planner`,
    /// `random`, `synergy`, `economy`, `tempo` or `measured`.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    policies: Vec<Spanned<String>>,
    /// Matches played first with an empty ghost pool.
    #[schemars(with = "u64")]
    pool_matches: Spanned<u64>,
    #[serde(default = "four")]
    #[schemars(with = "u32")]
    planner_fights: Spanned<u32>,
    /// The share of shop visits, in percent, whose offer a probe measures:
    /// one offer the player could take, fought with and without it.
    #[serde(default = "quarter")]
    #[schemars(with = "u32")]
    probe_percent: Spanned<u32>,
    #[serde(default)]
    boss: Vec<BossDef>,
    /// Greedy value per tier by card id.
    #[serde(default)]
    values: BTreeMap<String, i32>,
    #[serde(default)]
    rune_values: BTreeMap<String, i32>,
    /// How seats start, by seat.
    #[serde(default)]
    seat: Vec<SeatDef>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct SeatDef {
    #[serde(default)]
    gold: Option<i32>,
    #[serde(default)]
    dividend: i32,
    #[serde(default)]
    profit: i32,
    #[serde(default)]
    units: Vec<SeatUnitDef>,
    #[serde(default)]
    runes: Vec<SeatRuneDef>,
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    resonance: Option<Spanned<String>>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct SeatUnitDef {
    #[schemars(with = "String")]
    card: Spanned<String>,
    #[serde(default = "tier_one")]
    tier: u8,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct SeatRuneDef {
    #[schemars(with = "String")]
    rune: Spanned<String>,
    #[serde(default = "tier_one")]
    tier: u8,
}

fn tier_one() -> u8 {
    1
}

fn one() -> Spanned<u8> {
    Spanned::new(0..0, 1)
}

fn four() -> Spanned<u32> {
    Spanned::new(0..0, 4)
}

fn quarter() -> Spanned<u32> {
    Spanned::new(0..0, 25)
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct BossDef {
    name: String,
    #[schemars(with = "String")]
    boss: Spanned<String>,
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    minions: Vec<Spanned<String>>,
    signature: SignatureDef,
}

/// Exactly one of a Forge Core, a resonance or Gold (200.1e).
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct SignatureDef {
    #[serde(default)]
    forge_core: Option<String>,
    #[serde(default)]
    crush_bonus: i32,
    #[serde(default)]
    tick_reduction: i32,
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    resonance: Option<Spanned<String>>,
    #[serde(default)]
    gold: Option<i32>,
}

/// Parses a match suite against the catalog and rules.
pub fn parse_match_suite(
    file: &Path,
    text: &str,
    catalog: &Catalog,
    rules: &Rules,
) -> Result<MatchSuite, Vec<Diagnostic>> {
    let parsed: MatchSuiteFile = parse_toml(file, text)?;
    lower(file, text, parsed, "", catalog, rules)
}

/// The JSON Schema of a match suite file, from the type it is read with.
pub(crate) fn json_schema() -> schemars::Schema {
    schemars::schema_for!(MatchSuiteFile)
}

/// A match scenario: a match suite under `[suite]`, the match to play and
/// the expectations on its log.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct MatchScenarioFile {
    name: String,
    covers: Spanned<Vec<String>>,
    /// The match of the suite to play (seed matches come first).
    #[serde(default)]
    index: u64,
    suite: MatchSuiteFile,
    #[serde(default)]
    expect: Vec<ExpectDef>,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectDef {
    event: Spanned<String>,
    #[serde(default, rename = "where")]
    filter: toml::Table,
    #[serde(default)]
    count: Option<u64>,
    #[serde(default)]
    at_least: Option<u64>,
    #[serde(default)]
    field: Option<String>,
    #[serde(default)]
    is: Option<toml::Value>,
    #[serde(default)]
    all: toml::Table,
    #[serde(default)]
    distinct: bool,
    /// The field's values never fall from one event to the next.
    #[serde(default)]
    rising: bool,
    #[serde(default)]
    same_as: Option<SameAsDef>,
    #[serde(default)]
    note: String,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SameAsDef {
    event: String,
    #[serde(default, rename = "where")]
    filter: toml::Table,
    field: String,
}

/// Whether a scenario file is a match scenario (it has a `[suite]` table).
pub fn is_match_scenario(text: &str) -> bool {
    toml::from_str::<toml::Table>(text).is_ok_and(|t| t.contains_key("suite"))
}

/// Parses a match scenario.
pub fn parse_match_scenario(
    file: &Path,
    text: &str,
    catalog: &Catalog,
    rules: &Rules,
) -> Result<gridsim_sim::scenario::MatchScenario, Vec<Diagnostic>> {
    let parsed: MatchScenarioFile = parse_toml(file, text)?;
    let mut bad = Vec::new();
    super::check_gridforged_covers(file, text, &parsed.covers, &mut bad);
    let event_names = gridsim_sim::matches::Event::NAMES;
    let mut expect = Vec::new();
    for (i, e) in parsed.expect.iter().enumerate() {
        if !event_names.contains(&e.event.get_ref().as_str()) {
            bad.push(Diagnostic::at(
                file,
                text,
                Some(e.event.span()),
                format!("expect[{i}].event"),
                format!(
                    "unknown match event `{}`{}",
                    e.event.get_ref(),
                    diagnostics::suggestion(e.event.get_ref(), &event_names)
                ),
            ));
        }
        let asks = usize::from(e.count.is_some())
            + usize::from(e.at_least.is_some())
            + usize::from(e.is.is_some())
            + usize::from(!e.all.is_empty())
            + usize::from(e.distinct)
            + usize::from(e.rising)
            + usize::from(e.same_as.is_some());
        let needs_field = e.is.is_some() || e.distinct || e.rising || e.same_as.is_some();
        if asks == 0 || needs_field != e.field.is_some() {
            bad.push(Diagnostic::at(
                file,
                text,
                Some(e.event.span()),
                format!("expect[{i}]"),
                "an expectation asks `count`, `at_least`, `all = {...}`, or `field` with `is`, `distinct`, `rising` or `same_as`",
            ));
        }
        let json = |t: &toml::Table| serde_json::to_value(t).unwrap_or_default();
        expect.push(gridsim_sim::scenario::MatchExpect {
            event: e.event.get_ref().clone(),
            filter: json(&e.filter),
            count: e.count,
            at_least: e.at_least,
            field: e.field.clone(),
            is: e.is.as_ref().map(|v| serde_json::to_value(v).unwrap_or_default()),
            all: json(&e.all),
            distinct: e.distinct,
            rising: e.rising,
            same_as: e
                .same_as
                .as_ref()
                .map(|s| (s.event.clone(), json(&s.filter), s.field.clone())),
            note: e.note.clone(),
        });
    }
    let suite = lower(file, text, parsed.suite, "suite.", catalog, rules);
    let suite = match suite {
        Ok(s) => Some(s),
        Err(mut d) => {
            bad.append(&mut d);
            None
        }
    };
    if let Some(s) = &suite
        && parsed.index >= s.matches
    {
        {
            bad.push(Diagnostic::at(
                file,
                text,
                None,
                "index",
                format!(
                    "the suite holds {} matches; index {} is not one",
                    s.matches, parsed.index
                ),
            ));
        }
    }
    match suite {
        Some(suite) if bad.is_empty() => Ok(gridsim_sim::scenario::MatchScenario {
            name: parsed.name,
            file: file.to_path_buf(),
            covers: parsed.covers.into_inner(),
            index: parsed.index,
            suite,
            expect,
        }),
        _ => Err(bad),
    }
}

/// Checks a parsed match suite and builds it; `prefix` is the key path of
/// the suite's table (empty for a suite file, `suite.` in a scenario).
fn lower(
    file: &Path,
    text: &str,
    parsed: MatchSuiteFile,
    prefix: &str,
    catalog: &Catalog,
    rules: &Rules,
) -> Result<MatchSuite, Vec<Diagnostic>> {
    let mut bad = Vec::new();
    let at = |span: std::ops::Range<usize>, key: &str, msg: String| {
        Diagnostic::at(file, text, (!span.is_empty()).then_some(span), key, msg)
    };
    let players = *parsed.players.get_ref();
    if players == 0 || i32::from(players) > rules.round.max_players {
        bad.push(at(
            parsed.players.span(),
            &format!("{prefix}players"),
            format!(
                "a match has 1 to {} players (round.max_players, 200.1c), found {players}",
                rules.round.max_players
            ),
        ));
    }
    let matches = *parsed.matches.get_ref();
    if matches == 0 || matches > 100_000_000 {
        bad.push(at(
            parsed.matches.span(),
            &format!("{prefix}matches"),
            format!("a run holds 1..=100000000 matches, found {matches}"),
        ));
    }
    if *parsed.pool_matches.get_ref() > matches {
        bad.push(at(
            parsed.pool_matches.span(),
            &format!("{prefix}pool_matches"),
            format!(
                "the ghost pool's seed matches are the run's first: at most `matches` ({matches}), found {}",
                parsed.pool_matches.get_ref()
            ),
        ));
    }
    let planner_fights = *parsed.planner_fights.get_ref();
    if !(1..=64).contains(&planner_fights) {
        bad.push(at(
            parsed.planner_fights.span(),
            &format!("{prefix}planner_fights"),
            format!("expected 1..=64 trial fights, found {planner_fights}"),
        ));
    }
    let probe_percent = *parsed.probe_percent.get_ref();
    if probe_percent > 100 {
        bad.push(at(
            parsed.probe_percent.span(),
            &format!("{prefix}probe_percent"),
            format!("expected a share of shop visits from 0 to 100 percent, found {probe_percent}"),
        ));
    }
    let mut policies = Vec::new();
    for (i, p) in parsed.policies.iter().enumerate() {
        match Policy::parse(p.get_ref()) {
            Some(policy) => policies.push(policy),
            None => bad.push(at(
                p.span(),
                &format!("{prefix}policies[{i}]"),
                format!(
                    "unknown policy `{}`; expected {}{}",
                    p.get_ref(),
                    diagnostics::backticked(&Policy::NAMES),
                    diagnostics::suggestion(p.get_ref(), &Policy::NAMES)
                ),
            )),
        }
    }
    if policies.is_empty() {
        policies.push(Policy::Greedy);
    }
    let mut bosses = Vec::new();
    for (i, b) in parsed.boss.iter().enumerate() {
        let key = format!("{prefix}boss[{i}]");
        let Some(boss) = lookup_card(file, text, catalog, &b.boss, &format!("{key}.boss"), &mut bad) else {
            continue;
        };
        if catalog.card(boss).kind != CardKind::Boss {
            bad.push(at(
                b.boss.span(),
                &format!("{key}.boss"),
                format!("`{}` is not a boss card (kind = \"boss\", 200.1d)", b.boss.get_ref()),
            ));
        }
        let mut minions = Vec::new();
        for (k, m) in b.minions.iter().enumerate() {
            let mkey = format!("{key}.minions[{k}]");
            if let Some(id) = lookup_card(file, text, catalog, m, &mkey, &mut bad) {
                if catalog.card(id).kind == CardKind::Boss {
                    bad.push(at(
                        m.span(),
                        &mkey,
                        format!("`{}` is a boss; a minion is any other card (200.1d)", m.get_ref()),
                    ));
                }
                minions.push(id);
            }
        }
        let s = &b.signature;
        let given =
            usize::from(s.forge_core.is_some()) + usize::from(s.resonance.is_some()) + usize::from(s.gold.is_some());
        let signature = if given != 1 {
            bad.push(Diagnostic::at(
                file,
                text,
                Some(b.boss.span()),
                format!("{key}.signature"),
                "a signature reward is exactly one of `forge_core` (with `crush_bonus`, `tick_reduction`), `resonance` or `gold` (200.1e)",
            ));
            continue;
        } else if let Some(name) = &s.forge_core {
            Signature::Forge(ForgeCore {
                name: name.clone(),
                forge: Forge {
                    crush_bonus: s.crush_bonus,
                    tick_reduction: s.tick_reduction,
                },
            })
        } else if let Some(r) = &s.resonance {
            match lookup_resonance(file, text, catalog, r, &format!("{key}.signature.resonance"), &mut bad) {
                Some(id) => Signature::Resonance(id),
                None => continue,
            }
        } else {
            Signature::Gold(s.gold.unwrap_or(0).max(0))
        };
        bosses.push(BossOption {
            name: b.name.clone(),
            boss,
            minions,
            signature,
        });
    }
    // 200.1c: solo is offered three options; a party its size plus one,
    // capped; each player claims a distinct one.
    let n = i32::from(players);
    let needed = if n == 1 {
        rules.round.solo_boss_options
    } else {
        (n + rules.round.party_extra_boss_options).min(rules.round.max_boss_options)
    }
    .max(n);
    if bad.is_empty() && (bosses.len() as i32) < needed {
        bad.push(Diagnostic::at(
            file,
            text,
            None,
            format!("{prefix}boss"),
            format!(
                "the boss draft offers {needed} distinct options to {players} player(s) (200.1c): list at least {needed} `[[boss]]`, found {}",
                bosses.len()
            ),
        ));
    }
    let mut values = Vec::new();
    for (key, &v) in &parsed.values {
        match catalog.find(key) {
            Some(id) => values.push((id, v)),
            None => bad.push(Diagnostic::at(
                file,
                text,
                None,
                format!("{prefix}values.{key}"),
                format!("unknown card `{key}`"),
            )),
        }
    }
    let mut rune_values = Vec::new();
    for (key, &v) in &parsed.rune_values {
        match catalog.find_rune(key) {
            Some(id) => rune_values.push((id, v)),
            None => bad.push(Diagnostic::at(
                file,
                text,
                None,
                format!("{prefix}rune_values.{key}"),
                format!("unknown rune `{key}`"),
            )),
        }
    }
    let mut seats = Vec::new();
    for (i, seat) in parsed.seat.iter().enumerate() {
        let key = format!("{prefix}seat[{i}]");
        // A wallet never holds less than nothing (900.36).
        for (field, v) in [
            ("gold", seat.gold.unwrap_or(0)),
            ("dividend", seat.dividend),
            ("profit", seat.profit),
        ] {
            if v < 0 {
                bad.push(Diagnostic::at(
                    file,
                    text,
                    None,
                    format!("{key}.{field}"),
                    format!("a seat starts with no less than 0 {field}, found {v}"),
                ));
            }
        }
        let mut start = gridsim_sim::matches::SeatStart {
            gold: seat.gold.map(|g| g.max(0)),
            dividend: seat.dividend.max(0),
            profit: seat.profit.max(0),
            ..Default::default()
        };
        for (k, u) in seat.units.iter().enumerate() {
            let ukey = format!("{key}.units[{k}]");
            if let Some(id) = lookup_card(file, text, catalog, &u.card, &ukey, &mut bad) {
                let top = catalog.card(id).tiers();
                if u.tier == 0 || u.tier > top {
                    bad.push(at(
                        u.card.span(),
                        &format!("{ukey}.tier"),
                        format!("`{}` has tiers 1 to {top}", u.card.get_ref()),
                    ));
                }
                start.units.push((id, u.tier.clamp(1, top.max(1))));
            }
        }
        for (k, r) in seat.runes.iter().enumerate() {
            let rkey = format!("{key}.runes[{k}]");
            match catalog.find_rune(r.rune.get_ref()) {
                Some(id) => start.runes.push((id, r.tier.clamp(1, catalog.rune(id).tiers().max(1)))),
                None => bad.push(at(r.rune.span(), &rkey, format!("unknown rune `{}`", r.rune.get_ref()))),
            }
        }
        if let Some(r) = &seat.resonance {
            start.resonance = lookup_resonance(file, text, catalog, r, &format!("{key}.resonance"), &mut bad);
        }
        seats.push(start);
    }
    if !bad.is_empty() {
        return Err(bad);
    }
    Ok(MatchSuite {
        seats,
        name: parsed.name,
        master_seed: parsed.master_seed,
        matches,
        players,
        policies,
        bosses,
        pool_matches: *parsed.pool_matches.get_ref(),
        planner_fights,
        probe_percent: probe_percent.min(100) as u8,
        values,
        rune_values,
    })
}

pub fn load_match_suite(file: &Path, catalog: &Catalog, rules: &Rules) -> Result<MatchSuite, Vec<Diagnostic>> {
    let text = read(file).map_err(|d| vec![d])?;
    parse_match_suite(file, &text, catalog, rules)
}
