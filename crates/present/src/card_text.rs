//! Cards as a player reads them: each card's printed numbers and its text,
//! written from the compiled catalog, and the catalog pages
//! (`docs/catalog.md` and a page per tribe under `docs/catalog/`) that
//! `gridsim catalog` writes from it. Generated from the same tables the
//! engine runs, so the pages cannot drift from the cards; a test fails when
//! the committed pages differ from what the catalog gives.
//!
//! Clauses are listed in the order they resolve (300.3): Initiative on the
//! first activation, then armor setup hoisted to the front (900.2a), the
//! activation lane, Lucid clauses behind the ordinary ones (800.41b), and
//! the post-damage lane after the hit (900.1a).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use gridsim_model::ability::{
    Amount, CardKind, Condition, Count, KeywordName, PackageEvent, PackageTiming, QuestEvent, Scope, Trigger,
};
use gridsim_model::catalog::{Card, CardId, Catalog, Op, Wake};
use gridsim_model::effects::EffectText;

/// Where `gridsim catalog` writes by default: `docs/catalog.md` and
/// `docs/catalog/<tribe>.md`.
pub const DOCS_DIR: &str = "docs";

/// One generated page: its path under the docs folder and its Markdown.
pub struct Page {
    pub path: String,
    pub markdown: String,
}

/// An amount at every tier of the card: `9/18/27` for `9 x tier` on a
/// three-tier card, `3 per Burning enemy` for a count.
fn amount_text(catalog: &Catalog, amount: Amount, card: &Card) -> String {
    let tiers = card.tiers().max(1);
    match amount {
        Amount::Const(n) => n.to_string(),
        Amount::PerTier(n) => (1..=i32::from(tiers))
            .map(|t| (n * t).to_string())
            .collect::<Vec<_>>()
            .join("/"),
        Amount::Ladder(l) => (1..=tiers)
            .map(|t| catalog.ladder_amount(l, t).to_string())
            .collect::<Vec<_>>()
            .join("/"),
        Amount::Per { each, count } => format!("{each} per {}", count_text(count, card)),
        Amount::PowerPercent(p) => format!("{p}% of its Power"),
        Amount::BurnPower => "its Power's Burn share".to_string(),
        Amount::CostPaidPercent(p) => format!("{p}% of the Bloodletting cost paid"),
        Amount::CurrentDamagePercent(p) => format!("{p}% of the hit so far"),
        Amount::RestoredPercent(p) => format!("{p}% of the Vitality restored"),
    }
}

fn count_text(count: Count, card: &Card) -> String {
    match count {
        Count::BurningEnemy => "Burning enemy",
        Count::VenomedEnemy => "Venomed enemy",
        Count::MaimedEnemy => "Maimed enemy",
        Count::LivingEnemy => "living enemy",
        Count::LivingAlly => "living ally",
        Count::AdjacentAlly => "adjacent ally",
        Count::FlankAlly => "Flank ally",
        Count::AdjacentTool => "adjacent Tool",
        Count::TargetBurn => "Burn on the target",
        Count::TargetMaim => "Maim on the target",
        Count::ShatteredSecond => "second of Freeze shattered",
        Count::Dividend => "Dividend",
        Count::Profit => "Profit",
        Count::Stock => "Stock",
        Count::RuneEffect => "rune effect on it",
        Count::Counter => return card.counter.as_ref().map_or("X".to_string(), |c| c.name.clone()),
    }
    .to_string()
}

/// The effect with its amount: `Maim 9/18/27`, `+4 Power`, `Cull`.
fn effect_text(catalog: &Catalog, op: &Op, card: &Card) -> String {
    let a = op.amount.map(|a| amount_text(catalog, a, card)).unwrap_or_default();
    let gain = |stat: &str| match op.amount {
        Some(Amount::Per { each, count }) => format!("{each:+} {stat} per {}", count_text(count, card)),
        _ if a.starts_with('-') => format!("{a} {stat}"),
        _ => format!("+{a} {stat}"),
    };
    let named = |name: &str| {
        if a.is_empty() {
            name.to_string()
        } else {
            format!("{name} {a}")
        }
    };
    match op.effect.text() {
        EffectText::Damage => match op.amount {
            Some(Amount::Per { each, count }) => format!("{each} damage per {}", count_text(count, card)),
            Some(Amount::Const(_) | Amount::PerTier(_) | Amount::Ladder(_)) => format!("{a} damage"),
            _ => format!("damage equal to {a}"),
        },
        EffectText::Gain(stat) => gain(stat),
        EffectText::Template(sentence) => sentence.replace("{a}", &a),
        EffectText::NamedAs(name) => named(name),
        // Its keyword (`Effect::keyword`), with its amount when it takes
        // one: `Burn 3`, `Stun`.
        EffectText::Named => match op.effect.keyword() {
            Some(k) if op.effect.needs_amount() => named(k),
            Some(k) => k.to_string(),
            None => op.effect.name().to_string(),
        },
    }
}

fn scope_text(op: &Op) -> String {
    if op.effect.hits_every_enemy() {
        return String::new();
    }
    match op.scope {
        Scope::Target => " on the target".to_string(),
        Scope::SelfUnit => " on itself".to_string(),
        Scope::AllEnemies => " on every enemy".to_string(),
        Scope::AllAllies => " on every ally".to_string(),
        Scope::AdjacentToTarget => " on the enemies beside the target".to_string(),
        Scope::AdjacentAllies => " on adjacent allies".to_string(),
        Scope::FlankAllies => " on its Flank allies, left and right".to_string(),
        Scope::FocusEnemies => format!(" on {} enemies picked by Focus", op.count),
        Scope::FocusMaimedEnemies => format!(" on {} Maimed enemies picked by Focus", op.count),
        Scope::FrozenEnemies => " on every Frozen enemy".to_string(),
        Scope::Subject => " on that unit".to_string(),
        Scope::AdjacentTools => " on adjacent Tools".to_string(),
    }
}

fn condition_text(condition: Condition) -> &'static str {
    match condition {
        Condition::Lucid => "while at full Vitality (Lucid)",
        Condition::Bloodlust => "if an enemy is below half Vitality (Bloodlust)",
        Condition::HitLanded => "if the hit landed",
        Condition::TargetBurning => "if the target is Burning",
        Condition::TargetMaimed => "if the target is Maimed",
        Condition::TargetFrozen => "if the target is Frozen",
        Condition::Ignited => "while Ignited",
        Condition::TargetNegativeStatus => "if the target has a negative status",
        Condition::Highland => "if its board is Highland",
        Condition::QuestComplete => "once its Quest is complete",
    }
}

fn seconds(ms: i32) -> String {
    if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{} s", f64::from(ms) / 1000.0)
    }
}

/// One clause as a sentence fragment: `Fleeting +3 Power on itself, if the
/// hit landed (once per battle)`.
pub fn clause_text(catalog: &Catalog, op: &Op, card: &Card) -> String {
    let mut s = String::new();
    if op.fleeting {
        s.push_str("Fleeting ");
    }
    s.push_str(&effect_text(catalog, op, card));
    s.push_str(&scope_text(op));
    if op.drains_boss {
        s.push_str(", draining a boss's Power too");
    }
    if op.through_entrap {
        s.push_str(", through Entrap");
    }
    if op.duration_ms > 0 {
        let _ = write!(s, " for {}", seconds(op.duration_ms));
    }
    if let Some(c) = op.condition {
        let _ = write!(s, ", {}", condition_text(c));
    }
    if let Some(stat) = op.overmatch {
        let _ = write!(s, ", if its {stat} is greater than its target's (Overmatch)");
    }
    if op.once_slot != Op::NOT_ONCE {
        s.push_str(" (once per battle)");
    }
    s
}

fn keyword_text(catalog: &Catalog, k: KeywordName, amount: Option<Amount>, card: &Card) -> String {
    let a = amount.map(|a| amount_text(catalog, a, card)).unwrap_or_default();
    match k {
        KeywordName::Relentless => "Relentless".to_string(),
        KeywordName::Feast => "Feast".to_string(),
        KeywordName::Rabid => "Rabid".to_string(),
        KeywordName::Thorns => format!("Thorns {a}"),
        KeywordName::Riposte => format!("Riposte {a}"),
        KeywordName::Underwriting => format!("Underwriting {a}"),
        KeywordName::Exalt => format!("Exalt {a}"),
        KeywordName::Insurance => format!("Insurance {a}"),
        KeywordName::Subrogated => format!("Subrogated Insurance {a}"),
        KeywordName::DamageCap => format!("no single hit takes more than {a}"),
        KeywordName::Fury => "Fury".to_string(),
        KeywordName::Brute => "Brute".to_string(),
        KeywordName::NoBurnSpread => "Burn never spreads on its side".to_string(),
        KeywordName::Braced => format!("Braced {a}"),
        KeywordName::Retort => format!("Retort {a}"),
        KeywordName::LucidPower => "double Power while Lucid".to_string(),
        KeywordName::IgnitedFuryAura => "while Ignited, its adjacent allies have Fury".to_string(),
        KeywordName::Cascade => "Cascade".to_string(),
        KeywordName::InitiativeRepeats => format!("adjacent allies' Initiative resolves {a} more time(s)"),
        KeywordName::Everlasting => "Everlasting".to_string(),
        KeywordName::Phylactery => "Phylactery".to_string(),
        KeywordName::AllyDamageImmune => "immune to ally damage".to_string(),
        KeywordName::Runic => "Runic".to_string(),
        KeywordName::Resonator => format!("+{a} resonance levels while active"),
        KeywordName::SettlePerHub => format!("+{a} Settle per allied Hub"),
        KeywordName::Franchise => "Franchise".to_string(),
        KeywordName::Reflect => format!("Reflect {a}%"),
    }
}

fn trigger_text(trigger: Trigger) -> &'static str {
    match trigger {
        Trigger::BattleStart => "At battle start",
        Trigger::DamageTaken => "When it takes damage",
        Trigger::ShieldDamaged => "When its Shield absorbs damage",
        Trigger::ShieldBroken => "When its Shield breaks",
        Trigger::EnemyCulled => "When it Culls an enemy",
        Trigger::OwnActivation => "After each of its activations",
        Trigger::OtherDied => "When another unit dies (Macabre)",
        Trigger::InsuranceGained => "When it gains Insurance",
        Trigger::AllyInsuranceGained => "When an ally gains Insurance",
        Trigger::WhileInsured => "While it holds Insurance",
        Trigger::Acclimate => "When it is Displaced (Acclimate)",
        Trigger::Threat => "When two enemies are Displaced (Threat)",
        Trigger::Released => "When its Entrap ends",
        Trigger::Awaken => "When it wakes",
        Trigger::HaywireEmptied => "When its last Haywire stack is spent",
        Trigger::Cascaded => "When it Cascades",
        Trigger::AllyCascaded => "When an ally Cascades",
        Trigger::Supercharge => "When an adjacent ally finishes acting (Supercharge)",
        Trigger::VesselRevived => "When a Vessel brings it back",
        Trigger::EverlastingRevived => "When Everlasting brings it back",
        Trigger::AllyRevived => "When an ally comes back",
        Trigger::InterestPaid => "When an enemy pays its Interest",
        Trigger::Feasted => "When its Feast heals it",
        Trigger::BloodlettingPaid => "When it pays a Bloodletting cost",
        Trigger::QuestCompleted => "When its Quest is complete",
        Trigger::Poach => "When a full-size ally finishes acting (Poach)",
        Trigger::Sold => "When it is sold",
        Trigger::PennyActivated => "When a Penny of its side starts to act",
    }
}

fn quest_event_text(event: QuestEvent) -> &'static str {
    match event {
        QuestEvent::AllyKill => "enemy its side kills",
        QuestEvent::AllyActivation => "activation of its side",
        QuestEvent::StockMinted => "Stock its side mints",
        QuestEvent::BattleStart => "battle it starts",
    }
}

fn package_event_text(event: PackageEvent, timing: Option<PackageTiming>, adjacent: bool) -> String {
    let ally = if adjacent { "an adjacent ally" } else { "an ally" };
    match event {
        PackageEvent::BattleStart => "At battle start".to_string(),
        PackageEvent::AllyActivated => {
            let when = match timing {
                Some(PackageTiming::Immediate) | None => "starts to act",
                Some(PackageTiming::AfterImpact) => "has hit",
                Some(PackageTiming::AfterActivation) => "finishes acting",
            };
            format!("When {ally} {when}")
        }
        PackageEvent::AllyDamaged => format!("When {ally} takes damage"),
        PackageEvent::EnemyDied => "When an enemy dies".to_string(),
        PackageEvent::ToolDepleted => "When another allied Tool wears out".to_string(),
    }
}

/// The printed numbers, one row per tier.
fn stat_table(card: &Card, out: &mut String) {
    if card.kind == CardKind::Tool {
        if card.permanent {
            out.push_str("Never wears out (no Durability).\n\n");
            return;
        }
        out.push_str("| Tier | Durability |\n|---|---|\n");
        for (t, s) in card.stats.iter().enumerate() {
            let _ = writeln!(out, "| {} | {} |", t + 1, s.durability);
        }
    } else if card.kind == CardKind::Hub {
        out.push_str("| Tier | Settle |\n|---|---|\n");
        for (t, s) in card.stats.iter().enumerate() {
            let _ = writeln!(out, "| {} | {} |", t + 1, s.settle);
        }
    } else {
        out.push_str("| Tier | Vitality | Power | Speed | Armor | Focus |\n|---|---|---|---|---|---|\n");
        for (t, s) in card.stats.iter().enumerate() {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                t + 1,
                s.vitality,
                s.power,
                s.speed,
                s.armor,
                s.focus
            );
        }
    }
    out.push('\n');
}

/// The text lines of a card (or of a boss's phase): keywords, abilities,
/// passive lines and Tool packages, each a Markdown list item.
/// A phase passes its boss card, whose keywords it does not repeat.
fn text_lines(catalog: &Catalog, id: CardId, boss: Option<&Card>, out: &mut Vec<String>) {
    let card = catalog.card(id);
    let keywords: Vec<String> = KeywordName::ALL
        .iter()
        .filter(|&&k| card.keywords.has(k))
        .map(|&k| keyword_text(catalog, k, card.keywords.amount(k), card))
        .collect();
    if !keywords.is_empty() && boss.is_none_or(|b| b.keywords != card.keywords) {
        out.push(format!("**Keywords:** {}.", keywords.join(", ")));
    }
    let clauses = |ranges: &[gridsim_model::catalog::OpRange]| -> String {
        ranges
            .iter()
            .flat_map(|&r| catalog.ops(r).iter())
            .map(|op| clause_text(catalog, op, card))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let first = clauses(&[card.initiative]);
    if !first.is_empty() {
        out.push(format!("**First activation (Initiative):** {first}."));
    }
    let each = clauses(&[card.hoisted, card.activation, card.lucid]);
    let hit = if card.base_hit {
        "hits the target for its Power"
    } else {
        "no base hit"
    };
    if card.kind.has_combat_stats() {
        if each.is_empty() {
            out.push(format!("**Each activation:** {hit}."));
        } else {
            out.push(format!("**Each activation:** {each}; then {hit}."));
        }
    }
    let after = clauses(&[card.post_damage]);
    if !after.is_empty() {
        out.push(format!("**After the hit:** {after}."));
    }
    for p in catalog.passives_of(id) {
        let mut when = trigger_text(p.trigger).to_string();
        if p.trigger == Trigger::BattleStart && card.kind == CardKind::Hub {
            when.push_str(" (Markup)");
        }
        out.push(format!("**{when}:** {}.", clause_text(catalog, &p.op, card)));
    }
    for p in catalog.packages_of(id) {
        let mut when = package_event_text(p.event, p.timing, p.adjacent);
        if let Some(stat) = p.overmatch {
            let _ = write!(when, ", if its {stat} is greater than its target's (Overmatch)");
        }
        if let Some(c) = p.chance_percent {
            let _ = write!(when, ", {c}% of the time");
        }
        let effects: Vec<String> = catalog
            .ops(p.ops)
            .iter()
            .map(|op| clause_text(catalog, op, card))
            .collect();
        out.push(format!("**{when}:** {}.", effects.join("; ")));
    }
}

/// A card's whole entry: heading, kind line, stats and text.
pub fn card_markdown(catalog: &Catalog, id: CardId) -> String {
    let card = catalog.card(id);
    let mut out = String::new();
    let _ = writeln!(out, "### {}\n", card.name);
    let size = match card.footprint.side() {
        1 => "1x1",
        2 => "2x2",
        3 => "3x3 (Large)",
        _ => "4x4 (Huge)",
    };
    let kind = match card.kind {
        CardKind::Combat => "Combat unit",
        CardKind::Penny => "Penny",
        CardKind::Hub => "Hub",
        CardKind::Tool => "Tool",
        CardKind::Boss => "Boss",
    };
    let _ = writeln!(out, "*{kind}, {size}* · `{}`\n", card.key);
    stat_table(card, &mut out);
    let mut lines = Vec::new();
    if let Some(cost) = card.bloodletting {
        lines.push(format!(
            "**Bloodletting:** pays {} Vitality each activation.",
            amount_text(catalog, cost, card)
        ));
    }
    if let Some(wake) = card.wake {
        let when = match wake {
            Wake::AfterMs(ms) => format!("after {} of combat", seconds(ms)),
            Wake::AllyActivations(n) => format!("after {n} activations of its side"),
            Wake::AllyDamage(n) => format!("once its side has dealt {n} damage"),
        };
        let into = card.awaken_into.as_ref().map_or(String::new(), |into| {
            format!(
                ", becoming a random {} card of its size (at most tier {})",
                into.tribe, into.max_tier
            )
        });
        lines.push(format!("**Dormant** at battle start; wakes {when}{into}."));
    }
    if let Some((event, count)) = card.quest {
        lines.push(format!(
            "**Quest:** complete after {count}, counting each {}.",
            quest_event_text(event)
        ));
    }
    if let Some(c) = &card.counter {
        lines.push(format!(
            "**{}** starts at {} and gains {} for each {}; it stays with the unit for the match.",
            c.name,
            c.start,
            c.gain,
            quest_event_text(c.on)
        ));
    }
    text_lines(catalog, id, None, &mut lines);
    if !card.entrap_ms.is_empty() {
        let ladder: Vec<String> = card.entrap_ms.iter().map(|&ms| seconds(ms)).collect();
        lines.push(format!("An Entrap holds it {}.", ladder.join("/")));
    }
    for &(rune, tier) in &card.innate_runes {
        lines.push(format!("Carries the {} (tier {tier}) itself.", catalog.rune(rune).name));
    }
    if card.stagger > 0 {
        lines.push(format!(
            "**Stagger {}:** every {} direct hits it takes Stun it.",
            card.stagger, card.stagger
        ));
    }
    for phase in &card.phases {
        let mut phase_lines = Vec::new();
        text_lines(catalog, phase.card, Some(card), &mut phase_lines);
        let p = catalog.card(phase.card);
        let mut changed = Vec::new();
        for (stat, get) in [
            (
                "Power",
                (|s: &gridsim_model::catalog::StatLine| s.power) as fn(&gridsim_model::catalog::StatLine) -> i32,
            ),
            ("Speed", |s| s.speed),
            ("Armor", |s| s.armor),
            ("Focus", |s| s.focus),
        ] {
            let (now, then): (Vec<i32>, Vec<i32>) =
                card.stats.iter().zip(&p.stats).map(|(a, b)| (get(a), get(b))).unzip();
            if now != then {
                let ladder: Vec<String> = then.iter().map(i32::to_string).collect();
                changed.push(format!("{stat} {}", ladder.join("/")));
            }
        }
        let mut text = format!("**Below {}% Vitality (Phasebreak):**", phase.below_percent);
        if !changed.is_empty() {
            let _ = write!(text, " {}.", changed.join(", "));
        }
        for l in phase_lines {
            let _ = write!(text, " {l}");
        }
        lines.push(text);
    }
    for l in lines {
        let _ = writeln!(out, "- {l}");
    }
    let keywords = catalog.rule_book_keywords(id);
    if !keywords.is_empty() {
        let named: Vec<String> = keywords
            .iter()
            .map(|k| format!("{k} (800.{})", gridsim_core::rule_book::keyword_section(k)))
            .collect();
        let _ = writeln!(out, "- *Rule-book keywords:* {}.", named.join(", "));
    }
    out.push('\n');
    out
}

/// A tribe's file name: `Frost` is `frost.md`.
fn tribe_file(tribe: &str) -> String {
    let slug: String = tribe
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!(
        "catalog/{}.md",
        if slug.is_empty() { "no-tribe".to_string() } else { slug }
    )
}

const GENERATED: &str =
    "Generated by `gridsim catalog` from `configs/cards/` and `configs/runes/`; edit the TOML, not this page.";

/// The catalog pages: `catalog.md` (the tribes, runes and resonances) and a
/// page per tribe with every card a player can hold, in catalog order.
pub fn pages(catalog: &Catalog) -> Vec<Page> {
    let mut tribes: BTreeMap<&str, Vec<CardId>> = BTreeMap::new();
    for (i, card) in catalog.cards.iter().enumerate() {
        if card.phase_of.is_none() {
            tribes.entry(card.tribe.as_str()).or_default().push(CardId(i as u16));
        }
    }
    let mut index = String::new();
    let _ = writeln!(index, "# The starter catalog\n\n{GENERATED}\n");
    let total: usize = tribes.values().map(Vec::len).sum();
    let _ = writeln!(
        index,
        "{total} cards in {} tribes, {} runes and {} resonances. A card's text lists its clauses in the order they resolve (300.3); the numbers `a/b/c` are its tiers 1, 2 and 3.\n",
        tribes.len(),
        catalog.runes.len(),
        catalog.resonances.len()
    );
    index.push_str(
        "## Tribes\n\n| Tribe | Cards | Combat | Penny | Tool | Hub | Boss |\n|---|---|---|---|---|---|---|\n",
    );
    let mut out = Vec::new();
    for (tribe, ids) in &tribes {
        let count = |kind: CardKind| ids.iter().filter(|&&c| catalog.card(c).kind == kind).count();
        let file = tribe_file(tribe);
        let _ = writeln!(
            index,
            "| [{tribe}]({file}) | {} | {} | {} | {} | {} | {} |",
            ids.len(),
            count(CardKind::Combat),
            count(CardKind::Penny),
            count(CardKind::Tool),
            count(CardKind::Hub),
            count(CardKind::Boss)
        );
        let mut page = String::new();
        let _ = writeln!(page, "# {tribe}\n\n{GENERATED} Back to [the catalog](../catalog.md).\n");
        for &id in ids {
            page.push_str(&card_markdown(catalog, id));
        }
        out.push(Page {
            path: file,
            markdown: page,
        });
    }
    index.push_str("\n## Runes\n\nA rune on a rune board projects its lines onto the units of the rows or columns it faces (900.24).\n\n| Rune | Effects by tier |\n|---|---|\n");
    for rune in &catalog.runes {
        let lines: Vec<String> = rune
            .lines
            .iter()
            .map(|l| {
                let ladder: Vec<String> = l.amounts.iter().map(i32::to_string).collect();
                format!("{} {}", l.effect.name().replace('_', " "), ladder.join("/"))
            })
            .collect();
        let carried = if rune.innate_only { " (carried by a boss)" } else { "" };
        let _ = writeln!(index, "| {}{carried} | {} |", rune.name, lines.join("; "));
    }
    index.push_str("\n## Resonances\n\nOne per side, scaled by the side's resonance level (800.58).\n\n| Resonance | Per level |\n|---|---|\n");
    for r in &catalog.resonances {
        let lines: Vec<String> = r
            .lines
            .iter()
            .map(|l| {
                let time = if l.duration_ms > 0 {
                    format!(" for the first {}", seconds(l.duration_ms))
                } else {
                    String::new()
                };
                format!("{} {}{time}", l.effect.name().replace('_', " "), l.per_level)
            })
            .collect();
        let _ = writeln!(index, "| {} | {} |", r.name, lines.join("; "));
    }
    out.insert(
        0,
        Page {
            path: "catalog.md".to_string(),
            markdown: index,
        },
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starter() -> Catalog {
        // The frozen catalog, whose numbers tuning configs/ does not move.
        // Unit tests run in the crate's folder; the catalog is at the top.
        let top = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        gridsim_config::load_catalog(&[top.join(gridsim_sim::scenario::CATALOG_DIR)]).expect("the frozen catalog")
    }

    fn text_of(key: &str) -> String {
        let catalog = starter();
        card_markdown(&catalog, catalog.find(key).expect(key))
    }

    /// Each case: a card of the starter catalog and lines its text must hold.
    #[test]
    fn cards_read_as_they_play() {
        let cases: &[(&str, &[&str])] = &[
            // 900.1: Maim first, then Cull, both after the hit.
            (
                "executioner_crab",
                &[
                    "**After the hit:** Maim 9/18/27 on the target; Cull on the target.",
                    "| 1 | 90 | 20 | 0 | 5 | 20 |",
                ],
            ),
            // 900.2a: Crush written after the damage resolves before it.
            (
                "iron_breaker",
                &[
                    "**Each activation:** Crush 10/20/30 on the target; 5/10/15 damage on the target; then hits the target for its Power.",
                ],
            ),
            // 800.72, base_hit = false.
            (
                "quake_titan",
                &["Tremor 20/40/60 to every enemy; then no base hit.", "Large"],
            ),
            // 800.44a: a Hub's battle-start line is its Markup; 800.61a Settle is its stat.
            (
                "franchise_plaza",
                &[
                    "**At battle start (Markup):** +2/4/6 Armor on every ally.",
                    "| Tier | Settle |",
                    "Franchise (800.26)",
                ],
            ),
            // 800.46a: a Tool package gated by Overmatch; 800.18a Durability.
            (
                "tower_shield",
                &[
                    "When an adjacent ally starts to act, if its armor is greater than its target's (Overmatch):",
                    "| Tier | Durability |",
                ],
            ),
            // 800.48a, 800.66b: phases and the Stagger meter.
            (
                "iron_warlord",
                &[
                    "**Stagger 12:**",
                    "**Below 50% Vitality (Phasebreak):** Speed 0/5/10, Armor 10/14/18.",
                    "Fury",
                ],
            ),
            // 200.3b: a named counter.
            (
                "tally_savant",
                &[
                    "**X** starts at 0 and gains 1 for each Stock its side mints",
                    "1 damage per X on the target",
                ],
            ),
            ("master_appraiser", &["**At battle start:** +2 Power per X on itself."]),
            // 800.54a, 800.58d: the Rune Resonator's Quest and levels.
            (
                "rune_resonator",
                &[
                    "**Quest:** complete after 6, counting each activation of its side.",
                    "+4 resonance levels while active",
                ],
            ),
            // 800.25a: a Fleeting buff.
            (
                "exalted_templar",
                &["**When it takes damage:** Fleeting +3 Power on itself."],
            ),
        ];
        for (key, wanted) in cases {
            let text = text_of(key);
            for w in *wanted {
                assert!(text.contains(w), "{key}: `{w}` not in\n{text}");
            }
        }
    }

    /// Every card a player can hold is on exactly one tribe page, and the
    /// index links every page.
    #[test]
    fn every_card_is_on_its_tribe_page() {
        let catalog = starter();
        let pages = pages(&catalog);
        let index = &pages[0];
        for card in catalog.cards.iter().filter(|c| c.phase_of.is_none()) {
            let heading = format!("### {}\n", card.name);
            let on: Vec<&str> = pages[1..]
                .iter()
                .filter(|p| p.markdown.contains(&heading))
                .map(|p| p.path.as_str())
                .collect();
            assert_eq!(on, vec![tribe_file(&card.tribe).as_str()], "{}", card.key);
        }
        for p in &pages[1..] {
            assert!(
                index.markdown.contains(&format!("]({})", p.path)),
                "{} not linked",
                p.path
            );
        }
    }
}
