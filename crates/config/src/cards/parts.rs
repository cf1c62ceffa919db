//! A card's parts lowered one concern at a time: each reads the card's
//! definition, adds what is wrong to `bad` (in the order a reader meets
//! it) and gives its part of the compiled card.

use super::lowering::{CardSlots, ClauseParts, lower_op};
use super::schema::{CardDef, WakeDef};
use super::{Diagnostic, Source};
use gridsim_model::ability::{CardKind, Lane, PackageEvent, PackageTiming, Scope, Trigger};
use gridsim_model::catalog::{Lanes, Op, OpRange, Package, Passive, Wake};
use gridsim_model::effects::Effect;

/// The ability clauses lowered, then split into lanes by the rules
/// ([`Lanes::split`], which knows no TOML).
pub(super) fn lower_lanes(
    src: &Source,
    key: &str,
    def: &CardDef,
    slots: &mut CardSlots,
    bad: &mut Vec<Diagnostic>,
) -> Lanes {
    let clauses: Vec<(Op, Lane)> = def
        .ability
        .iter()
        .enumerate()
        .map(|(i, clause)| {
            let ck = format!("{key}.ability[{i}]");
            let c = clause.get_ref();
            (
                lower_op(src, &ck, clause.span(), &ClauseParts::from(c), slots, bad),
                c.lane,
            )
        })
        .collect();
    Lanes::split(clauses)
}

/// What a card's kind forbids: hits and combat keywords on Tools and Hubs,
/// a Penny larger than a cell, ability clauses on a Tool or Hub.
pub(super) fn check_kind(
    src: &Source,
    key: &str,
    def: &CardDef,
    id_span: Option<std::ops::Range<usize>>,
    bad: &mut Vec<Diagnostic>,
) {
    // A Hub may print its Settle bonus (800.61e) and Franchise (800.26),
    // keywords of Scrip.
    let combat_keywords = def.keywords.iter().any(|k| {
        let name = k.get_ref().name;
        !(def.kind == CardKind::Hub
            && matches!(
                name,
                gridsim_model::ability::KeywordName::SettlePerHub | gridsim_model::ability::KeywordName::Franchise
            ))
    });
    if def.kind.is_object() && (def.base_hit.is_some() || combat_keywords) {
        // 800.71b, 800.33b: Tools and Hubs discard every combat interaction.
        bad.push(src.diag(
            id_span.clone(),
            format!("{key}.{}", if def.base_hit.is_some() { "base_hit" } else { "keywords" }),
            format!("a {} has no hit and no combat keywords (800.71b, 800.33b)", def.kind),
        ));
    }
    if def.kind == CardKind::Penny && def.footprint != gridsim_model::ability::Footprint::Scrip {
        bad.push(src.diag(
            id_span.clone(),
            format!("{key}.footprint"),
            "a Penny occupies a single cell: footprint = \"1x1\" (800.47a)".into(),
        ));
    }
    if def.kind.is_object() && !def.ability.is_empty() {
        // 800.71a, 800.33a: Tools and Hubs never activate.
        bad.push(src.diag(
            Some(def.ability[0].span()),
            format!("{key}.ability"),
            format!(
                "a {} never activates (800.71a, 800.33a); write its reactions as `passive` lines{}",
                def.kind,
                if def.kind == CardKind::Tool {
                    " or `package` tables"
                } else {
                    ""
                }
            ),
        ));
    }
}

/// The passive lines.
pub(super) fn lower_passives(
    src: &Source,
    key: &str,
    def: &CardDef,
    slots: &mut CardSlots,
    bad: &mut Vec<Diagnostic>,
) -> Vec<Passive> {
    let mut passives = Vec::new();
    for (i, p) in def.passive.iter().enumerate() {
        let pk = format!("{key}.passive[{i}]");
        let pd = p.get_ref();
        let op = lower_op(src, &pk, p.span(), &ClauseParts::from(pd), slots, bad);
        if pd.when == Some(gridsim_model::ability::Condition::HitLanded) {
            bad.push(src.diag(
                Some(p.span()),
                format!("{pk}.when"),
                "a passive line has no hit of its own: `hit_landed` only gates ability clauses (900.40c)".into(),
            ));
        }
        // 800.15d, 800.47d: a sale is a shop event, with no battle to
        // resolve in: only a fixed Dividend gain answers it.
        if pd.on == Trigger::Sold
            && (pd.effect != Effect::GainDividend
                || !pd.amount.as_ref().is_some_and(|a| a.is_fixed())
                || pd.when.is_some()
                || pd.once
                || pd.overmatch.is_some())
        {
            bad.push(src.diag(
                Some(p.span()),
                format!("{pk}.effect"),
                "a `sold` line resolves in the shop: only `gain_dividend` with a whole number, `N x tier` or one number per tier, no condition (800.15d, 800.47d)".into(),
            ));
        }
        if pd.on == Trigger::WhileInsured {
            // 800.37h: a reversible stat layer, not an event.
            let fixed = pd.amount.as_ref().is_some_and(|a| a.is_fixed());
            let stat_gain = matches!(
                pd.effect,
                Effect::GainArmor | Effect::GainPower | Effect::GainSpeed | Effect::GainFocus
            );
            if !stat_gain || !fixed || pd.scope != Scope::SelfUnit || pd.when.is_some() || pd.once {
                bad.push(src.diag(
                    Some(p.span()),
                    pk.clone(),
                    "a `while_insured` line is a stat layer on the unit itself: a `gain_*` effect with a whole number, `N x tier` or one number per tier, scope `self`, no condition (800.37h)".into(),
                ));
            }
        }
        passives.push(Passive { trigger: pd.on, op });
    }
    passives
}

/// A Tool's effect packages, each with its effects.
pub(super) fn lower_packages(
    src: &Source,
    key: &str,
    def: &CardDef,
    slots: &mut CardSlots,
    bad: &mut Vec<Diagnostic>,
) -> Vec<(Package, Vec<Op>)> {
    // Tool packages (800.71c): effects with Crush and Smash first
    // (900.3e), armor-setup packages first (900.3d).
    let mut packages: Vec<(Package, Vec<Op>)> = Vec::new();
    if !def.package.is_empty() && def.kind != CardKind::Tool {
        bad.push(src.diag(
            Some(def.package[0].span()),
            format!("{key}.package"),
            "only a Tool has effect packages (800.71c)".into(),
        ));
    }
    for (i, pk) in def.package.iter().enumerate() {
        let pkey = format!("{key}.package[{i}]");
        let pd = pk.get_ref();
        match (pd.on, pd.timing) {
            (PackageEvent::AllyActivated, None) => bad.push(src.diag(
                Some(pk.span()),
                format!("{pkey}.timing"),
                "an `ally_activated` package names its pass: `immediate`, `after_impact` or `after_activation` (800.71d)".into(),
            )),
            (PackageEvent::AllyActivated, Some(_)) | (_, None) => {}
            (_, Some(_)) => bad.push(src.diag(
                Some(pk.span()),
                format!("{pkey}.timing"),
                "only `ally_activated` packages have a timing (800.71d)".into(),
            )),
        }
        if pd.overmatch.is_some() && !matches!(pd.on, PackageEvent::AllyActivated | PackageEvent::AllyDamaged) {
            bad.push(src.diag(
                Some(pk.span()),
                format!("{pkey}.overmatch"),
                "Overmatch compares a triggering ally with an enemy: only on `ally_activated` and `ally_damaged` packages (800.46a)".into(),
            ));
        }
        if pd.adjacent.is_some() && matches!(pd.on, PackageEvent::BattleStart | PackageEvent::EnemyDied) {
            bad.push(src.diag(
                Some(pk.span()),
                format!("{pkey}.adjacent"),
                "`battle_start` and `enemy_died` packages are about no ally, so they take no `adjacent`".into(),
            ));
        }
        if let Some(c) = pd.chance
            && !(1..=100).contains(&c)
        {
            bad.push(src.diag(
                Some(pk.span()),
                format!("{pkey}.chance"),
                format!("chance is a percent 1..=100, found {c}"),
            ));
        }
        if pd.effects.is_empty() {
            bad.push(src.diag(
                Some(pk.span()),
                format!("{pkey}.effects"),
                "a package resolves at least one effect".into(),
            ));
        }
        let mut ops: Vec<Op> = Vec::new();
        for (j, e) in pd.effects.iter().enumerate() {
            let ek = format!("{pkey}.effects[{j}]");
            ops.push(lower_op(
                src,
                &ek,
                e.span(),
                &ClauseParts::from(e.get_ref()),
                slots,
                bad,
            ));
            if e.get_ref().overmatch.is_some() {
                bad.push(src.diag(
                    Some(e.span()),
                    format!("{ek}.overmatch"),
                    "a Tool's Overmatch compares the ally that triggered it: put `overmatch` on the package (800.46a)".into(),
                ));
            }
            if e.get_ref().when == Some(gridsim_model::ability::Condition::HitLanded) {
                bad.push(src.diag(
                    Some(e.span()),
                    format!("{ek}.when"),
                    "a package has no hit of its own: `hit_landed` only gates ability clauses (900.40c)".into(),
                ));
            }
        }
        // 900.3e: within a package, Crush and Smash first (stable).
        ops.sort_by_key(|o| !o.effect.is_armor_setup());
        let armor_setup = pd.on == PackageEvent::AllyActivated
            && pd.timing == Some(PackageTiming::Immediate)
            && ops.iter().any(|o| o.effect.is_armor_setup());
        let adjacent = pd.adjacent.unwrap_or(matches!(
            pd.on,
            PackageEvent::AllyActivated | PackageEvent::AllyDamaged | PackageEvent::ToolDepleted
        ));
        let package = Package {
            event: pd.on,
            timing: pd.timing,
            adjacent,
            chance_percent: pd.chance,
            overmatch: pd.overmatch,
            ops: OpRange::default(),
            armor_setup,
        };
        packages.push((package, ops));
    }
    // 900.3d: armor-setup packages ahead of the Tool's others (stable).
    packages.sort_by_key(|(p, _)| !p.armor_setup);
    packages
}

/// The Dormant card's wake condition (800.16f).
pub(super) fn lower_wake(src: &Source, key: &str, def: &CardDef, bad: &mut Vec<Diagnostic>) -> Option<Wake> {
    def.wake.as_ref().and_then(|w| {
        let span = Some(w.span());
        let w = w.get_ref();
        let set = [w.after_ms, w.ally_activations, w.ally_damage];
        let mut say = |m: String| bad.push(src.diag(span.clone(), format!("{key}.wake"), m));
        if set.iter().filter(|v| v.is_some()).count() != 1 {
            say("give exactly one of `after_ms`, `ally_activations`, `ally_damage` (800.16f)".into());
            return None;
        }
        if set.iter().flatten().any(|&v| v <= 0 || v > 600_000) {
            say("a wake condition is 1..=600000".into());
            return None;
        }
        if def.kind.is_object() {
            say("a Tool or Hub is never Dormant".into());
            return None;
        }
        Some(match *w {
            WakeDef { after_ms: Some(ms), .. } => Wake::AfterMs(ms),
            WakeDef {
                ally_activations: Some(n),
                ..
            } => Wake::AllyActivations(n),
            WakeDef {
                ally_damage: Some(n), ..
            } => Wake::AllyDamage(n),
            _ => unreachable!("exactly one is set"),
        })
    })
}

/// What the Dormant card turns into as it wakes (800.16h): the filter here,
/// the matching cards once the catalog is complete
/// ([`gridsim_model::catalog::Catalog::resolve_awakenings`]).
pub(super) fn lower_awaken_into(
    src: &Source,
    key: &str,
    def: &CardDef,
    bad: &mut Vec<Diagnostic>,
) -> Option<gridsim_model::catalog::AwakenInto> {
    let w = def.wake.as_ref()?;
    let into = w.get_ref().into.as_ref()?;
    let mut say = |m: String| bad.push(src.diag(Some(w.span()), format!("{key}.wake.into"), m));
    if into.tribe.trim().is_empty() {
        say("an awakening names the tribe it draws from (800.16h)".into());
        return None;
    }
    if into.max_tier == 0 {
        say("`max_tier` is the printed tier cap, at least 1 (800.16h)".into());
        return None;
    }
    Some(gridsim_model::catalog::AwakenInto {
        tribe: into.tribe.clone(),
        max_tier: into.max_tier,
        candidates: Vec::new(),
    })
}

/// The Quest: its event and how many complete it.
pub(super) fn lower_quest(
    src: &Source,
    key: &str,
    def: &CardDef,
    bad: &mut Vec<Diagnostic>,
) -> Option<(gridsim_model::ability::QuestEvent, i32)> {
    match &def.quest {
        Some(q) if !(1..=1000).contains(&q.get_ref().count) => {
            bad.push(src.diag(
                Some(q.span()),
                format!("{key}.quest.count"),
                format!("a Quest completes at 1..=1000 events, found {}", q.get_ref().count),
            ));
            None
        }
        Some(q) => Some((q.get_ref().on, q.get_ref().count)),
        None => None,
    }
}

/// The named counter (200.3b).
pub(super) fn lower_counter(
    src: &Source,
    key: &str,
    def: &CardDef,
    bad: &mut Vec<Diagnostic>,
) -> Option<gridsim_model::catalog::NamedCounter> {
    match &def.counter {
        Some(c) => {
            let d = c.get_ref();
            if !(0..=10_000).contains(&d.start) || !(1..=100).contains(&d.gain) {
                bad.push(src.diag(
                    Some(c.span()),
                    format!("{key}.counter"),
                    format!(
                        "a named counter starts at 0..=10000 and gains 1..=100 per event (200.3b), found start {} and gain {}",
                        d.start, d.gain
                    ),
                ));
                None
            } else {
                Some(gridsim_model::catalog::NamedCounter {
                    name: d.name.clone(),
                    start: d.start,
                    on: d.on,
                    gain: d.gain,
                })
            }
        }
        None => None,
    }
}

/// A boss's Stagger meter (800.66a, 800.66b); 0 for none.
pub(super) fn lower_stagger(src: &Source, key: &str, def: &CardDef, bad: &mut Vec<Diagnostic>) -> i32 {
    match &def.stagger {
        Some(size) => {
            let n = *size.get_ref();
            if def.kind != CardKind::Boss || !(1..=10_000).contains(&n) {
                bad.push(src.diag(
                    Some(size.span()),
                    format!("{key}.stagger"),
                    "a Stagger meter is a boss's, 1..=10000 qualifying hits (800.66a, 800.66b)".into(),
                ));
            }
            n
        }
        None => 0,
    }
}

/// The Entrap duration per tier (800.19e), for a card of `tiers` tiers.
pub(super) fn lower_entrap(
    src: &Source,
    key: &str,
    def: &CardDef,
    tiers: usize,
    bad: &mut Vec<Diagnostic>,
) -> Vec<i32> {
    match &def.entrap_ms {
        Some(ladder) => {
            let v = ladder.get_ref();
            if v.len() != tiers || v.iter().any(|&ms| !(1..=600_000).contains(&ms)) {
                bad.push(src.diag(
                    Some(ladder.span()),
                    format!("{key}.entrap_ms"),
                    format!("expected one Entrap duration per tier ({tiers}), each 1..=600000 ms (800.19e)"),
                ));
            }
            v.clone()
        }
        None => Vec::new(),
    }
}
