//! Loads card files: checks each card and lowers it into the [`Catalog`],
//! with its tier ladders, innate keywords, ability lanes, passive lines and
//! Tool packages.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use toml::Spanned;

use super::schema::{self, CardDef, CardFile, ResonanceDef, RuneDef};
use super::{Diagnostic, parse_toml, read, toml_files};
use gridsim_model::ability::{Amount, CardKind, Scope};
use gridsim_model::catalog::{
    Card, CardId, Catalog, Keywords, Op, OpRange, Resonance, ResonanceLine, Rune, RuneId, RuneLine, StatField, StatLine,
};
use gridsim_model::effects::Effect;

mod lowering;
mod parts;
use gridsim_model::catalog::Lanes;
use lowering::{CardSlots, lower_keywords, lower_ladders, push_ops};
use parts::{
    check_kind, lower_awaken_into, lower_counter, lower_entrap, lower_lanes, lower_packages, lower_passives,
    lower_quest, lower_stagger, lower_wake,
};

/// Where a card definition came from, for diagnostics.
pub struct Source<'a> {
    pub file: &'a Path,
    pub text: &'a str,
}

impl Source<'_> {
    /// A problem at `span` of this file, under `key`.
    fn diag(&self, span: Option<std::ops::Range<usize>>, key: String, message: String) -> Diagnostic {
        Diagnostic::at(self.file, self.text, span, key, message)
    }
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

    pub fn finish(mut self) -> Catalog {
        self.catalog.resolve_awakenings();
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
        let parsed: CardFile = parse_toml(file, text)?;
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
        let diag = |span, k, m| vec![src.diag(span, k, m)];
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
        let diag = |span, k, m| vec![src.diag(span, k, m)];
        let id = def.id.get_ref().clone();
        if self.catalog.find_resonance(&id).is_some() {
            return Err(diag(
                Some(def.id.span()),
                format!("{key}.id"),
                format!("resonance id `{id}` is already defined"),
            ));
        }
        let lines = def.effects.get_ref();
        let eligible: Vec<&str> = gridsim_model::ability::RuneEffect::ALL
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
                        gridsim_core::diagnostics::backticked(&eligible),
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
                    format!(
                        "unknown rune `{name}`{}",
                        gridsim_core::diagnostics::suggestion(name, &names)
                    ),
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
        let parsed: CardFile = parse_toml(file, text)?;
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
        let diag = |span, k, m| src.diag(span, k, m);
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

        let mut slots = CardSlots {
            once: 0,
            tiers: stats.len(),
            ladders: &mut self.catalog.amount_ladders,
        };
        let Lanes {
            hoisted,
            activation,
            lucid,
            initiative,
            post,
        } = lower_lanes(src, key, def, &mut slots, &mut bad);
        check_kind(src, key, def, id_span.clone(), &mut bad);
        let passives = lower_passives(src, key, def, &mut slots, &mut bad);
        let packages = lower_packages(src, key, def, &mut slots, &mut bad);
        let armor_setup_tool = packages.iter().any(|(p, _)| p.armor_setup);
        let wake = lower_wake(src, key, def, &mut bad);
        let awaken_into = lower_awaken_into(src, key, def, &mut bad);
        let quest = lower_quest(src, key, def, &mut bad);
        let counter = lower_counter(src, key, def, &mut bad);
        let stagger = lower_stagger(src, key, def, &mut bad);
        let phases = self.lower_phases(src, key, &id, &name, def, &mut bad);
        let entrap_ms = lower_entrap(src, key, def, stats.len(), &mut bad);
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
            awaken_into,
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
