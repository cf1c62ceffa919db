//! Loads card files: checks each card and lowers it into the [`Catalog`],
//! with its tier ladders, innate keywords, ability lanes, passive lines and
//! Tool packages.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use toml::Spanned;

use super::schema::{self, CardDef, CardFile, ResonanceDef, RuneDef, WakeDef};
use super::{Diagnostic, parse_toml, read, toml_files};
use crate::ability::{Amount, CardKind, Effect, Lane, PackageEvent, PackageTiming, Scope, Trigger};
use crate::catalog::{
    Card, CardId, Catalog, Keywords, Op, OpRange, Package, Passive, Resonance, ResonanceLine, Rune, RuneId, RuneLine,
    StatLine, Wake,
};

mod lowering;
use lowering::{ClauseParts, lower_keywords, lower_ladders, lower_op, push_ops};

/// Where a card definition came from, for diagnostics.
pub struct Source<'a> {
    pub file: &'a Path,
    pub text: &'a str,
}

/// Builds a catalog one card at a time.
#[derive(Default)]
pub struct CatalogBuilder {
    catalog: Catalog,
    seen: BTreeMap<String, PathBuf>,
}

impl CatalogBuilder {
    pub fn new() -> CatalogBuilder {
        CatalogBuilder::default()
    }

    pub fn finish(self) -> Catalog {
        self.catalog
    }

    /// Starts from an existing catalog, so scenario cards extend it.
    pub fn from_catalog(catalog: Catalog) -> CatalogBuilder {
        let seen = catalog
            .cards
            .iter()
            .map(|c| (c.key.clone(), PathBuf::from("catalog")))
            .collect();
        CatalogBuilder { catalog, seen }
    }

    pub fn find(&self, key: &str) -> Option<CardId> {
        self.catalog.find(key)
    }

    /// The catalog as built so far.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    pub fn card_keys(&self) -> Vec<String> {
        self.catalog.cards.iter().map(|c| c.key.clone()).collect()
    }

    pub fn tiers_of(&self, id: CardId) -> u8 {
        self.catalog.card(id).tiers()
    }

    pub fn size_of(&self, id: CardId) -> u8 {
        self.catalog.card(id).footprint.side()
    }

    /// Parses a catalog file and adds its runes and resonances; its cards
    /// come in a second pass ([`CatalogBuilder::add_file`]), so a card may
    /// name a rune of any file.
    pub fn add_runes_file(&mut self, file: &Path, text: &str) -> Result<(), Vec<Diagnostic>> {
        let parsed: CardFile = parse_toml(file, text).map_err(|d| vec![d])?;
        let src = Source { file, text };
        let mut bad = Vec::new();
        for (i, def) in parsed.rune.iter().enumerate() {
            if let Err(mut d) = self.add_rune(&src, &format!("rune[{i}]"), def) {
                bad.append(&mut d);
            }
        }
        for (i, def) in parsed.resonance.iter().enumerate() {
            if let Err(mut d) = self.add_resonance(&src, &format!("resonance[{i}]"), def) {
                bad.append(&mut d);
            }
        }
        if bad.is_empty() { Ok(()) } else { Err(bad) }
    }

    fn add_rune(&mut self, src: &Source, key: &str, def: &RuneDef) -> Result<(), Vec<Diagnostic>> {
        let diag = |span: Option<std::ops::Range<usize>>, k: String, m: String| {
            vec![Diagnostic::at(src.file, src.text, span, k, m)]
        };
        let id = def.id.get_ref().clone();
        if self.catalog.find_rune(&id).is_some() {
            return Err(diag(
                Some(def.id.span()),
                format!("{key}.id"),
                format!("rune id `{id}` is already defined"),
            ));
        }
        let lines = def.effects.get_ref();
        let tiers = lines.first().map_or(0, |l| l.amount.len());
        if lines.is_empty() || !(1..=4).contains(&tiers) || lines.iter().any(|l| l.amount.len() != tiers) {
            return Err(diag(
                Some(def.effects.span()),
                format!("{key}.effects"),
                "expected at least one effect, every `amount` with the same number of tiers, 1 to 4".into(),
            ));
        }
        if let Some(l) = lines
            .iter()
            .find(|l| l.amount.iter().any(|a| !(0..=10_000).contains(a)))
        {
            return Err(diag(
                Some(def.effects.span()),
                format!("{key}.effects"),
                format!("`{}` amounts are 0..=10000, found {:?}", l.effect, l.amount),
            ));
        }
        if self.catalog.runes.len() >= usize::from(u16::MAX) {
            return Err(diag(None, key.to_string(), "too many runes (at most 65535)".into()));
        }
        self.catalog.runes.push(Rune {
            innate_only: def.innate_only,
            name: def.name.clone().unwrap_or_else(|| id.clone()),
            key: id,
            lines: lines
                .iter()
                .map(|l| RuneLine {
                    effect: l.effect,
                    amounts: l.amount.clone(),
                })
                .collect(),
        });
        Ok(())
    }

    fn add_resonance(&mut self, src: &Source, key: &str, def: &ResonanceDef) -> Result<(), Vec<Diagnostic>> {
        let diag = |span: Option<std::ops::Range<usize>>, k: String, m: String| {
            vec![Diagnostic::at(src.file, src.text, span, k, m)]
        };
        let id = def.id.get_ref().clone();
        if self.catalog.find_resonance(&id).is_some() {
            return Err(diag(
                Some(def.id.span()),
                format!("{key}.id"),
                format!("resonance id `{id}` is already defined"),
            ));
        }
        let lines = def.effects.get_ref();
        let eligible: Vec<&str> = crate::ability::RuneEffect::ALL
            .iter()
            .filter(|e| e.for_resonance())
            .map(|e| e.name())
            .collect();
        if lines.is_empty() {
            return Err(diag(
                Some(def.effects.span()),
                format!("{key}.effects"),
                "expected at least one effect".into(),
            ));
        }
        for (i, l) in lines.iter().enumerate() {
            if !l.effect.for_resonance() {
                return Err(diag(
                    Some(def.effects.span()),
                    format!("{key}.effects[{i}].effect"),
                    format!(
                        "a resonance grants one of {}, not `{}` (800.58e)",
                        crate::diagnostics::backticked(&eligible),
                        l.effect
                    ),
                ));
            }
            if !(0..=1000).contains(&l.per_level) || !(0..=120_000).contains(&l.duration_ms) {
                return Err(diag(
                    Some(def.effects.span()),
                    format!("{key}.effects[{i}]"),
                    "`per_level` is 0..=1000 and `duration_ms` 0..=120000".into(),
                ));
            }
        }
        self.catalog.resonances.push(Resonance {
            name: def.name.clone().unwrap_or_else(|| id.clone()),
            key: id,
            lines: lines
                .iter()
                .map(|l| ResonanceLine {
                    effect: l.effect,
                    per_level: l.per_level,
                    duration_ms: l.duration_ms,
                })
                .collect(),
        });
        Ok(())
    }

    /// A card's innate runes, `"RUNE TIER"` each.
    fn lower_innate_runes(
        &self,
        src: &Source,
        key: &str,
        def: &CardDef,
        bad: &mut Vec<Diagnostic>,
    ) -> Vec<(RuneId, u8)> {
        let names: Vec<&str> = self.catalog.runes.iter().map(|r| r.key.as_str()).collect();
        let mut out = Vec::new();
        for (i, text) in def.runes.iter().enumerate() {
            let k = format!("{key}.runes[{i}]");
            let mut parts = text.get_ref().split_whitespace();
            let (Some(name), tier, None) = (parts.next(), parts.next(), parts.next()) else {
                bad.push(Diagnostic::at(
                    src.file,
                    src.text,
                    Some(text.span()),
                    k,
                    "expected `\"RUNE TIER\"`, e.g. `\"boss_reflect 1\"`".to_string(),
                ));
                continue;
            };
            let Some(id) = self.catalog.find_rune(name) else {
                bad.push(Diagnostic::at(
                    src.file,
                    src.text,
                    Some(text.span()),
                    k,
                    format!("unknown rune `{name}`{}", crate::diagnostics::suggestion(name, &names)),
                ));
                continue;
            };
            let top = self.catalog.rune(id).tiers();
            match tier.unwrap_or("1").parse::<u8>() {
                Ok(t) if (1..=top).contains(&t) => out.push((id, t)),
                _ => bad.push(Diagnostic::at(
                    src.file,
                    src.text,
                    Some(text.span()),
                    k,
                    format!("rune `{name}` has tiers 1..={top}"),
                )),
            }
        }
        out
    }

    /// Parses a card file and adds its cards.
    pub fn add_file(&mut self, file: &Path, text: &str) -> Result<(), Vec<Diagnostic>> {
        let parsed: CardFile = parse_toml(file, text).map_err(|d| vec![d])?;
        let src = Source { file, text };
        let mut bad = Vec::new();
        for (i, def) in parsed.card.iter().enumerate() {
            if let Err(mut d) = self.add_card(&src, &format!("card[{i}]"), def, None) {
                bad.append(&mut d);
            }
        }
        if bad.is_empty() { Ok(()) } else { Err(bad) }
    }

    /// Checks one card and lowers it into the catalog.
    /// `inline_id` names a scenario's inline card, which prints no id.
    pub fn add_card(
        &mut self,
        src: &Source,
        key: &str,
        def: &CardDef,
        inline_id: Option<&str>,
    ) -> Result<CardId, Vec<Diagnostic>> {
        let mut bad = Vec::new();
        let diag =
            |span: Option<std::ops::Range<usize>>, k: String, m: String| Diagnostic::at(src.file, src.text, span, k, m);
        let id_span = def.id.as_ref().map(|s| s.span());
        let id = match (&def.id, inline_id) {
            (Some(id), _) => id.get_ref().clone(),
            (None, Some(inline)) => inline.to_string(),
            (None, None) => {
                return Err(vec![diag(
                    None,
                    format!("{key}.id"),
                    "missing field `id`: every card in a card file needs an id".into(),
                )]);
            }
        };
        let name = match (&def.name, inline_id) {
            (Some(n), _) => n.clone(),
            (None, Some(_)) => id.clone(),
            (None, None) => {
                return Err(vec![diag(
                    id_span,
                    format!("{key}.name"),
                    "missing field `name`: every card in a card file needs a display name".into(),
                )]);
            }
        };
        if inline_id.is_none()
            && (id.is_empty()
                || !id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
        {
            bad.push(diag(
                id_span.clone(),
                format!("{key}.id"),
                format!("card id `{id}` must be lowercase letters, digits and `_`"),
            ));
        }
        if let Some(first) = self.seen.get(&id) {
            bad.push(diag(
                id_span.clone(),
                format!("{key}.id"),
                format!("card id `{id}` is already defined in {}", first.display()),
            ));
        }

        let stats = lower_ladders(src, key, def, &mut bad);
        let keywords = lower_keywords(src, key, def, &mut bad);
        let innate_runes = self.lower_innate_runes(src, key, def, &mut bad);

        // Ability clauses, split into lanes (300.3).
        let mut once_slots: u8 = 0;
        let mut hoisted = Vec::new();
        let mut activation = Vec::new();
        let mut lucid = Vec::new();
        let mut initiative = Vec::new();
        let mut post = Vec::new();
        for (i, clause) in def.ability.iter().enumerate() {
            let ck = format!("{key}.ability[{i}]");
            let c = clause.get_ref();
            let op = lower_op(
                src,
                &ck,
                clause.span(),
                &ClauseParts::from(c),
                &mut once_slots,
                &mut bad,
            );
            let is_lucid = c.when == Some(crate::ability::Condition::Lucid);
            // 900.1a, 800.13f: authored Maim and Cull are post-damage
            // effects, whichever lane the clause names.
            let lane = if matches!(c.effect, Effect::Maim | Effect::Cull) {
                Lane::PostDamage
            } else {
                c.lane
            };
            match lane {
                // 900.2a/900.2c: ordinary Crush and Smash move to the front,
                // keeping their relative order; 900.2d: Crush on Frozen
                // enemies stays in authored order.
                Lane::Activation if c.effect.is_armor_setup() && c.scope != Scope::FrozenEnemies && !is_lucid => {
                    hoisted.push(op)
                }
                // 800.41b: Lucid clauses resolve after the ordinary ones.
                Lane::Activation if is_lucid => lucid.push(op),
                Lane::Activation => activation.push(op),
                // 900.1a: post-damage effects resolve in authored order.
                Lane::PostDamage => post.push(op),
                // 800.36a: kept apart, resolved on the first activation only.
                Lane::Initiative => initiative.push(op),
            }
        }
        // A Hub may print its Settle bonus (800.61e) and Franchise (800.26),
        // keywords of Scrip.
        let combat_keywords = def.keywords.iter().any(|k| {
            let name = k.get_ref().name;
            !(def.kind == CardKind::Hub
                && matches!(
                    name,
                    crate::ability::KeywordName::SettlePerHub | crate::ability::KeywordName::Franchise
                ))
        });
        if def.kind.is_object() && (def.base_hit.is_some() || combat_keywords) {
            // 800.71b, 800.33b: Tools and Hubs discard every combat interaction.
            bad.push(diag(
                id_span.clone(),
                format!("{key}.{}", if def.base_hit.is_some() { "base_hit" } else { "keywords" }),
                format!("a {} has no hit and no combat keywords (800.71b, 800.33b)", def.kind),
            ));
        }
        if def.kind == CardKind::Penny && def.footprint != crate::ability::Footprint::Scrip {
            bad.push(diag(
                id_span.clone(),
                format!("{key}.footprint"),
                "a Penny occupies a single cell: footprint = \"1x1\" (800.47a)".into(),
            ));
        }
        if def.kind.is_object() && !def.ability.is_empty() {
            // 800.71a, 800.33a: Tools and Hubs never activate.
            bad.push(diag(
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
        let mut passives = Vec::new();
        for (i, p) in def.passive.iter().enumerate() {
            let pk = format!("{key}.passive[{i}]");
            let pd = p.get_ref();
            let op = lower_op(src, &pk, p.span(), &ClauseParts::from(pd), &mut once_slots, &mut bad);
            if pd.when == Some(crate::ability::Condition::HitLanded) {
                bad.push(diag(
                    Some(p.span()),
                    format!("{pk}.when"),
                    "a passive line has no hit of its own: `hit_landed` only gates ability clauses (900.40c)".into(),
                ));
            }
            if pd.on == Trigger::WhileInsured {
                // 800.37h: a reversible stat layer, not an event.
                let fixed = matches!(pd.amount, Some(Amount::Const(_) | Amount::PerTier(_)));
                let stat_gain = matches!(
                    pd.effect,
                    Effect::GainArmor | Effect::GainPower | Effect::GainSpeed | Effect::GainFocus
                );
                if !stat_gain || !fixed || pd.scope != Scope::SelfUnit || pd.when.is_some() || pd.once {
                    bad.push(diag(
                        Some(p.span()),
                        pk.clone(),
                        "a `while_insured` line is a stat layer on the unit itself: a `gain_*` effect with a whole number or `N x tier`, scope `self`, no condition (800.37h)".into(),
                    ));
                }
            }
            passives.push(Passive { trigger: pd.on, op });
        }

        // Tool packages (800.71c): effects with Crush and Smash first
        // (900.3e), armor-setup packages first (900.3d).
        let mut packages: Vec<(Package, Vec<Op>)> = Vec::new();
        if !def.package.is_empty() && def.kind != CardKind::Tool {
            bad.push(diag(
                Some(def.package[0].span()),
                format!("{key}.package"),
                "only a Tool has effect packages (800.71c)".into(),
            ));
        }
        for (i, pk) in def.package.iter().enumerate() {
            let pkey = format!("{key}.package[{i}]");
            let pd = pk.get_ref();
            match (pd.on, pd.timing) {
                (PackageEvent::AllyActivated, None) => bad.push(diag(
                    Some(pk.span()),
                    format!("{pkey}.timing"),
                    "an `ally_activated` package names its pass: `immediate`, `after_impact` or `after_activation` (800.71d)".into(),
                )),
                (PackageEvent::AllyActivated, Some(_)) | (_, None) => {}
                (_, Some(_)) => bad.push(diag(
                    Some(pk.span()),
                    format!("{pkey}.timing"),
                    "only `ally_activated` packages have a timing (800.71d)".into(),
                )),
            }
            if pd.overmatch.is_some() && !matches!(pd.on, PackageEvent::AllyActivated | PackageEvent::AllyDamaged) {
                bad.push(diag(
                    Some(pk.span()),
                    format!("{pkey}.overmatch"),
                    "Overmatch compares a triggering ally with an enemy: only on `ally_activated` and `ally_damaged` packages (800.46a)".into(),
                ));
            }
            if pd.adjacent.is_some() && matches!(pd.on, PackageEvent::BattleStart | PackageEvent::EnemyDied) {
                bad.push(diag(
                    Some(pk.span()),
                    format!("{pkey}.adjacent"),
                    "`battle_start` and `enemy_died` packages are about no ally, so they take no `adjacent`".into(),
                ));
            }
            if let Some(c) = pd.chance
                && !(1..=100).contains(&c)
            {
                bad.push(diag(
                    Some(pk.span()),
                    format!("{pkey}.chance"),
                    format!("chance is a percent 1..=100, found {c}"),
                ));
            }
            if pd.effects.is_empty() {
                bad.push(diag(
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
                    &mut once_slots,
                    &mut bad,
                ));
                if e.get_ref().when == Some(crate::ability::Condition::HitLanded) {
                    bad.push(diag(
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
        let armor_setup_tool = packages.iter().any(|(p, _)| p.armor_setup);

        let wake = def.wake.as_ref().and_then(|w| {
            let span = Some(w.span());
            let w = *w.get_ref();
            let set = [w.after_ms, w.ally_activations, w.ally_damage];
            let mut say = |m: String| bad.push(diag(span.clone(), format!("{key}.wake"), m));
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
            Some(match w {
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
        });
        let quest = match &def.quest {
            Some(q) if !(1..=1000).contains(&q.get_ref().count) => {
                bad.push(diag(
                    Some(q.span()),
                    format!("{key}.quest.count"),
                    format!("a Quest completes at 1..=1000 events, found {}", q.get_ref().count),
                ));
                None
            }
            Some(q) => Some((q.get_ref().on, q.get_ref().count)),
            None => None,
        };
        let counter = match &def.counter {
            Some(c) => {
                let d = c.get_ref();
                if !(0..=10_000).contains(&d.start) || !(1..=100).contains(&d.gain) {
                    bad.push(diag(
                        Some(c.span()),
                        format!("{key}.counter"),
                        format!(
                            "a named counter starts at 0..=10000 and gains 1..=100 per event (200.3b), found start {} and gain {}",
                            d.start, d.gain
                        ),
                    ));
                    None
                } else {
                    Some(crate::catalog::NamedCounter {
                        name: d.name.clone(),
                        start: d.start,
                        on: d.on,
                        gain: d.gain,
                    })
                }
            }
            None => None,
        };
        let stagger = match &def.stagger {
            Some(size) => {
                let n = *size.get_ref();
                if def.kind != CardKind::Boss || !(1..=10_000).contains(&n) {
                    bad.push(diag(
                        Some(size.span()),
                        format!("{key}.stagger"),
                        "a Stagger meter is a boss's, 1..=10000 qualifying hits (800.66a, 800.66b)".into(),
                    ));
                }
                n
            }
            None => 0,
        };
        let phases = self.lower_phases(src, key, &id, &name, def, &mut bad);
        let entrap_ms = match &def.entrap_ms {
            Some(ladder) => {
                let tiers = stats.len();
                let v = ladder.get_ref();
                if v.len() != tiers || v.iter().any(|&ms| !(1..=600_000).contains(&ms)) {
                    bad.push(diag(
                        Some(ladder.span()),
                        format!("{key}.entrap_ms"),
                        format!("expected one Entrap duration per tier ({tiers}), each 1..=600000 ms (800.19e)"),
                    ));
                }
                v.clone()
            }
            None => Vec::new(),
        };
        if !bad.is_empty() {
            return Err(bad);
        }
        let c = &mut self.catalog;
        let hoisted = push_ops(&mut c.ops, hoisted);
        let activation = push_ops(&mut c.ops, activation);
        let lucid = push_ops(&mut c.ops, lucid);
        let initiative = push_ops(&mut c.ops, initiative);
        let post_damage = push_ops(&mut c.ops, post);
        let pstart = c.passives.len() as u32;
        c.passives.extend(passives);
        let passives = OpRange {
            start: pstart,
            end: c.passives.len() as u32,
        };
        let kstart = c.packages.len() as u32;
        for (mut package, ops) in packages {
            package.ops = push_ops(&mut c.ops, ops);
            c.packages.push(package);
        }
        let packages = OpRange {
            start: kstart,
            end: c.packages.len() as u32,
        };
        let is_object = def.kind.is_object();
        c.cards.push(Card {
            key: id.clone(),
            name,
            kind: def.kind,
            footprint: def.footprint,
            tribe: def.tribe.clone().unwrap_or_default(),
            stats,
            keywords,
            base_hit: def.base_hit.unwrap_or(true) && !is_object,
            bloodletting: def.bloodletting,
            hoisted,
            activation,
            lucid,
            initiative,
            post_damage,
            passives,
            packages,
            armor_setup_tool,
            permanent: def.kind == CardKind::Tool && def.durability.is_none(),
            wake,
            entrap_ms,
            stagger,
            phases,
            phase_of: None,
            innate_runes,
            quest,
            counter,
        });
        if c.cards.len() > u16::MAX as usize {
            return Err(vec![diag(
                None,
                key.to_string(),
                "too many cards (at most 65535)".into(),
            )]);
        }
        self.seen.insert(id, src.file.to_path_buf());
        let me = CardId((self.catalog.cards.len() - 1) as u16);
        let phases: Vec<CardId> = self.catalog.cards[usize::from(me.0)]
            .phases
            .iter()
            .map(|p| p.card)
            .collect();
        for phase in phases {
            self.catalog.cards[usize::from(phase.0)].phase_of = Some(me);
        }
        Ok(me)
    }
}

/// Loads every card file under `paths` into one catalog.
pub fn load_catalog(paths: &[PathBuf]) -> Result<Catalog, Vec<Diagnostic>> {
    let files = toml_files(paths).map_err(|d| vec![d])?;
    let mut builder = CatalogBuilder::new();
    let mut bad = Vec::new();
    let mut texts = Vec::new();
    for f in files {
        match read(&f) {
            Ok(t) => texts.push((f, t)),
            Err(d) => bad.push(d),
        }
    }
    // Runes and resonances first, so a card may name a rune of any file.
    for (f, text) in &texts {
        if let Err(mut d) = builder.add_runes_file(f, text) {
            bad.append(&mut d);
        }
    }
    if !bad.is_empty() {
        return Err(bad);
    }
    for (f, text) in &texts {
        if let Err(mut d) = builder.add_file(f, text) {
            bad.append(&mut d);
        }
    }
    if bad.is_empty() { Ok(builder.finish()) } else { Err(bad) }
}
