//! Lowering a checked card's parts into the catalog's forms: a boss's
//! phases as cards of their own (800.48a), ability and passive clauses into
//! operations, tier ladders into stat lines, innate keywords into their
//! set.

use super::*;

impl CatalogBuilder {
    /// A boss's phases (800.48a), each lowered as a card of its own from
    /// the boss card with the phase's fields in place: same checks, same
    /// diagnostics, under `KEY.phases[N]`. Thresholds fall strictly, each
    /// 1..=99 percent.
    pub(super) fn lower_phases(
        &mut self,
        src: &Source,
        key: &str,
        id: &str,
        name: &str,
        def: &CardDef,
        bad: &mut Vec<Diagnostic>,
    ) -> Vec<gridsim_model::catalog::Phase> {
        let diag = |span, k, m| src.diag(span, k, m);
        let mut out = Vec::new();
        let mut above = 100;
        for (n, phase) in def.phases.iter().enumerate() {
            let pk = format!("{key}.phases[{n}]");
            let p = phase.get_ref();
            if def.kind != CardKind::Boss {
                bad.push(diag(
                    Some(phase.span()),
                    pk.clone(),
                    "only a boss has phases (800.48a)".into(),
                ));
                continue;
            }
            let at = *p.below_percent.get_ref();
            if !(1..above).contains(&at) {
                bad.push(diag(
                    Some(p.below_percent.span()),
                    format!("{pk}.below_percent"),
                    format!("a phase threshold is a percent of maximum Vitality below the one before it: 1..={} (800.48a, 800.48e)", above - 1),
                ));
                continue;
            }
            above = at;
            let mut card = def.clone();
            card.id = None;
            card.name = Some(format!("{name} (phase {})", n + 1));
            card.phases = Vec::new();
            card.wake = None;
            card.stagger = None;
            if let Some(t) = &p.tribe {
                card.tribe = Some(t.clone());
            }
            for (field, value) in [
                (&mut card.power, &p.power),
                (&mut card.speed, &p.speed),
                (&mut card.armor, &p.armor),
                (&mut card.focus, &p.focus),
            ] {
                if value.is_some() {
                    field.clone_from(value);
                }
            }
            if let Some(k) = &p.keywords {
                card.keywords = k.clone();
            }
            if p.base_hit.is_some() {
                card.base_hit = p.base_hit;
            }
            if let Some(a) = &p.ability {
                card.ability = a.clone();
            }
            if let Some(l) = &p.passive {
                card.passive = l.clone();
            }
            match self.add_card(src, &pk, &card, Some(&format!("{id}#phase{}", n + 1))) {
                Ok(phase_card) => out.push(gridsim_model::catalog::Phase {
                    below_percent: at,
                    card: phase_card,
                }),
                Err(mut d) => bad.append(&mut d),
            }
        }
        out
    }
}

pub(super) fn push_ops(arena: &mut Vec<Op>, ops: Vec<Op>) -> OpRange {
    let start = arena.len() as u32;
    arena.extend(ops);
    OpRange {
        start,
        end: arena.len() as u32,
    }
}

/// What the clauses of one card share while they are lowered: its
/// once-per-battle slots, its tier count, and the catalog's store of
/// per-tier amounts, which each `amount = [..]` adds its numbers to.
pub(super) struct CardSlots<'a> {
    pub once: u8,
    pub tiers: usize,
    pub ladders: &'a mut Vec<i32>,
}

/// The fields every clause shape shares.
pub(super) struct ClauseParts {
    effect: Effect,
    amount: Option<schema::AmountDef>,
    scope: Scope,
    count: Option<u8>,
    when: Option<gridsim_model::ability::Condition>,
    duration_ms: Option<i32>,
    once: bool,
    fleeting: bool,
    through_entrap: bool,
    drains_boss: bool,
    overmatch: Option<gridsim_model::ability::StatName>,
}

impl From<&schema::ClauseDef> for ClauseParts {
    fn from(c: &schema::ClauseDef) -> Self {
        ClauseParts {
            effect: c.effect,
            amount: c.amount.clone(),
            scope: c.scope,
            count: c.count,
            when: c.when,
            duration_ms: c.duration_ms,
            once: c.once,
            fleeting: c.fleeting,
            through_entrap: c.through_entrap,
            drains_boss: c.drains_boss,
            overmatch: c.overmatch,
        }
    }
}

impl From<&schema::PassiveDef> for ClauseParts {
    fn from(c: &schema::PassiveDef) -> Self {
        ClauseParts {
            effect: c.effect,
            amount: c.amount.clone(),
            scope: c.scope,
            count: c.count,
            when: c.when,
            duration_ms: c.duration_ms,
            once: c.once,
            fleeting: c.fleeting,
            through_entrap: c.through_entrap,
            drains_boss: c.drains_boss,
            overmatch: c.overmatch,
        }
    }
}

pub(super) fn lower_op(
    src: &Source,
    key: &str,
    span: std::ops::Range<usize>,
    c: &ClauseParts,
    slots: &mut CardSlots,
    bad: &mut Vec<Diagnostic>,
) -> Op {
    let ClauseParts {
        effect,
        ref amount,
        scope,
        count,
        when,
        duration_ms,
        once,
        fleeting,
        through_entrap,
        drains_boss,
        overmatch,
    } = *c;
    let mut err = |k: &str, m: String| {
        bad.push(Diagnostic::at(
            src.file,
            src.text,
            Some(span.clone()),
            format!("{key}.{k}"),
            m,
        ));
    };
    if effect.needs_amount() && amount.is_none() {
        err("amount", format!("effect `{effect}` needs an `amount`"));
    }
    if !effect.needs_amount() && amount.is_some() {
        err("amount", format!("effect `{effect}` takes no `amount`"));
    }
    if effect.needs_duration() && duration_ms.is_none() {
        let rule = if effect == Effect::Smash { "800.65f" } else { "800.68a" };
        err(
            "duration_ms",
            format!("effect `{effect}` needs an authored `duration_ms` ({rule})"),
        );
    }
    if duration_ms.is_some() && !effect.takes_duration() {
        let why = if effect == Effect::Crush {
            "every Crush uses the same 2-second window (800.12a)".to_string()
        } else {
            format!("effect `{effect}` has no duration")
        };
        err("duration_ms", format!("{why}; leave `duration_ms` out"));
    }
    if let Some(d) = duration_ms
        && !(1..=600_000).contains(&d)
    {
        err("duration_ms", format!("duration must be 1..=600000 ms, found {d}"));
    }
    if fleeting
        && !matches!(
            effect,
            Effect::GainPower | Effect::GainSpeed | Effect::GainArmor | Effect::GainFocus
        )
    {
        err(
            "fleeting",
            format!(
                "only a stat gain (`gain_power`, `gain_speed`, `gain_armor`, `gain_focus`) can be Fleeting (800.25a), not `{effect}`"
            ),
        );
    }
    if through_entrap && !effect.reaches_through_entrap() {
        err(
            "through_entrap",
            format!(
                "only a status, buff, Shield, heal or Displace passes Entrap (800.19d); `{effect}` is damage an Entrapped unit never takes (800.19a)"
            ),
        );
    }
    if drains_boss && effect != Effect::PiercingRoar {
        err(
            "drains_boss",
            format!("only a `piercing_roar` can be authored to drain boss Power (800.50c), not `{effect}`"),
        );
    }
    match (scope.is_count_limited(), count) {
        (true, None) => err("count", format!("scope `{scope}` needs a `count` of units to pick")),
        (true, Some(0)) => err("count", "count must be at least 1".to_string()),
        (false, Some(_)) => err("count", format!("scope `{scope}` takes no `count`")),
        _ => {}
    }
    if effect == Effect::Cull
        && !matches!(
            scope,
            Scope::Target | Scope::AdjacentToTarget | Scope::FocusMaimedEnemies
        )
    {
        // 800.13i: the primary target, its neighbours, or a Maimed Focus pick.
        err(
            "scope",
            format!(
                "Cull may target `target`, `adjacent_to_target` or `focus_maimed_enemies`, not `{scope}` (800.13i)"
            ),
        );
    }
    if effect.hits_every_enemy() && !matches!(scope, Scope::Target | Scope::SelfUnit) {
        err(
            "scope",
            format!(
                "`{effect}` always reaches every enemy (800.2a, 800.72a, 800.50a, 800.11a, 800.30a); leave `scope` out"
            ),
        );
    }
    if effect == Effect::GainDividend && !matches!(scope, Scope::Target | Scope::SelfUnit) {
        err(
            "scope",
            "`gain_dividend` goes to the unit's owner (800.15b); leave `scope` out".to_string(),
        );
    }
    let once_slot = if once {
        if slots.once >= 64 {
            err("once", "a card has at most 64 once-per-battle clauses".to_string());
            Op::NOT_ONCE
        } else {
            slots.once += 1;
            slots.once - 1
        }
    } else {
        Op::NOT_ONCE
    };
    let amount = match amount {
        None => None,
        Some(schema::AmountDef::Amount(a)) => Some(*a),
        Some(schema::AmountDef::Ladder(numbers)) => {
            if numbers.len() != slots.tiers {
                err(
                    "amount",
                    format!(
                        "a per-tier amount has one number per tier: the card prints {} tier{}, the amount has {}",
                        slots.tiers,
                        if slots.tiers == 1 { "" } else { "s" },
                        numbers.len()
                    ),
                );
            }
            let values = gridsim_model::catalog::AMOUNT_LADDER_VALUES;
            if let Some(n) = numbers.iter().find(|n| !values.contains(*n)) {
                err(
                    "amount",
                    format!(
                        "a per-tier amount's numbers lie in {}..={}, found {n}",
                        values.start(),
                        values.end()
                    ),
                );
            }
            let start = slots.ladders.len() as u32;
            slots.ladders.extend(numbers.iter().take(9));
            Some(Amount::Ladder(gridsim_model::ability::LadderRef {
                start,
                tiers: numbers.len().clamp(1, 9) as u8,
            }))
        }
    };
    Op {
        effect,
        amount,
        scope,
        count: count.unwrap_or(0),
        condition: when,
        duration_ms: duration_ms.unwrap_or(0),
        once_slot,
        fleeting,
        through_entrap,
        drains_boss,
        overmatch,
    }
}

pub(super) fn lower_ladders(src: &Source, key: &str, def: &CardDef, bad: &mut Vec<Diagnostic>) -> Vec<StatLine> {
    let named: [(&str, &Option<Spanned<Vec<i32>>>); 7] = [
        ("vitality", &def.vitality),
        ("power", &def.power),
        ("speed", &def.speed),
        ("armor", &def.armor),
        ("focus", &def.focus),
        ("durability", &def.durability),
        ("settle", &def.settle),
    ];
    let combat = def.kind.has_combat_stats();
    let mut tiers: Option<(usize, &str)> = None;
    for (name, ladder) in named {
        let is_combat_stat = !matches!(name, "durability" | "settle");
        let allowed = StatField::parse(name).is_some_and(|f| f.printed_by(def.kind));
        match ladder {
            Some(l) if !allowed => bad.push(Diagnostic::at(
                src.file,
                src.text,
                Some(l.span()),
                format!("{key}.{name}"),
                match def.kind {
                    CardKind::Tool => "a Tool prints only `durability` in place of combat stats (800.18a)".to_string(),
                    CardKind::Hub => "a Hub prints only `settle` in place of combat stats (800.61a)".to_string(),
                    _ => format!(
                        "only a {} prints `{name}`",
                        if name == "durability" { "Tool" } else { "Hub" }
                    ),
                },
            )),
            Some(l) => {
                let len = l.get_ref().len();
                if len == 0 || len > 9 {
                    bad.push(Diagnostic::at(
                        src.file,
                        src.text,
                        Some(l.span()),
                        format!("{key}.{name}"),
                        format!("a tier ladder has 1 to 9 entries, found {len}"),
                    ));
                }
                if l.get_ref()
                    .iter()
                    .any(|v| !gridsim_model::catalog::LADDER_VALUES.contains(v))
                {
                    bad.push(Diagnostic::at(
                        src.file,
                        src.text,
                        Some(l.span()),
                        format!("{key}.{name}"),
                        "ladder values must lie in -100000..=1000000".to_string(),
                    ));
                }
                if name == "vitality" && l.get_ref().iter().any(|v| *v <= 0) {
                    bad.push(Diagnostic::at(
                        src.file,
                        src.text,
                        Some(l.span()),
                        format!("{key}.{name}"),
                        "Vitality must be greater than 0 at every tier".to_string(),
                    ));
                }
                match tiers {
                    None => tiers = Some((len, name)),
                    Some((n, first)) if n != len => bad.push(Diagnostic::at(
                        src.file, src.text, Some(l.span()), format!("{key}.{name}"),
                        format!("ladder has {len} tiers but `{first}` has {n}; every ladder of a card has one entry per tier"),
                    )),
                    _ => {}
                }
            }
            None if combat && is_combat_stat => bad.push(Diagnostic::at(
                src.file,
                src.text,
                def.id.as_ref().map(|s| s.span()),
                format!("{key}.{name}"),
                format!(
                    "missing ladder `{name}`; a {} card prints Vitality, Power, Speed, Armor and Focus per tier",
                    def.kind
                ),
            )),
            None => {}
        }
    }
    let n = tiers.map_or(1, |(n, _)| n.clamp(1, 9));
    let at =
        |l: &Option<Spanned<Vec<i32>>>, i: usize| l.as_ref().and_then(|l| l.get_ref().get(i).copied()).unwrap_or(0);
    (0..n)
        .map(|i| StatLine {
            vitality: at(&def.vitality, i),
            power: at(&def.power, i),
            speed: at(&def.speed, i),
            armor: at(&def.armor, i),
            focus: at(&def.focus, i),
            durability: at(&def.durability, i),
            settle: at(&def.settle, i),
            amounts: 0,
        })
        .collect()
}

pub(super) fn lower_keywords(src: &Source, key: &str, def: &CardDef, bad: &mut Vec<Diagnostic>) -> Keywords {
    let mut k = Keywords::default();
    let mut seen = Vec::new();
    for (i, kw) in def.keywords.iter().enumerate() {
        let d = kw.get_ref();
        if seen.contains(&d.name) {
            bad.push(Diagnostic::at(
                src.file,
                src.text,
                Some(kw.span()),
                format!("{key}.keywords[{i}]"),
                format!("keyword `{}` is listed twice", d.name),
            ));
        }
        seen.push(d.name);
        if let Some(a) = d.amount
            && !matches!(
                a,
                gridsim_model::ability::Amount::Const(_) | gridsim_model::ability::Amount::PerTier(_)
            )
        {
            bad.push(Diagnostic::at(
                src.file,
                src.text,
                Some(kw.span()),
                format!("{key}.keywords[{i}]"),
                "a keyword amount is a whole number or `N x tier`; it reads no board state".to_string(),
            ));
        }
        k.set(d.name, d.amount);
    }
    k
}
