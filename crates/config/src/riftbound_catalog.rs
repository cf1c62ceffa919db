//! Riftbound's card files (`configs/riftbound/cards/`) and suites
//! (`configs/riftbound/suites/`), both marked `game = "riftbound"`, into
//! [`gridsim_riftbound::cards::Catalog`] and
//! [`gridsim_sim::riftbound_suite::Suite`], with a diagnostic naming the file,
//! line and key of anything wrong and the nearest valid name.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::{Diagnostic, parse_toml, read, toml_files};
use gridsim_riftbound::Lasts;
use gridsim_riftbound::cards::{
    Ability, Action, Card, CardKind, Catalog, Effect, LegendAbility, MAX_EFFECTS, Passive, Replacement, Speed, Target,
    Trigger, When,
};
use gridsim_riftbound::runes::{Cost, Domain, Domains};
use gridsim_riftbound::showdown::{MAX_HAND, MAX_LANE, Policy};
use gridsim_sim::riftbound_suite::{LaneRules, Suite};

/// The most triggers one card has.
pub const MAX_TRIGGERS: usize = 2;
/// The most lanes a suite draws.
pub const MAX_LANES: u32 = 100_000;
/// The largest number a card states (Might, an effect's amount): no
/// printed card comes near it, and a board of 32 units' sums stay far
/// inside an `i32`.
pub const MAX_CARD_NUMBER: i32 = 1_000;

/// Whether `text` is a Riftbound file: it says `game = "riftbound"`.
pub fn is_riftbound(text: &str) -> bool {
    toml::from_str::<toml::Table>(text).is_ok_and(|t| t.get("game").and_then(toml::Value::as_str) == Some("riftbound"))
}

/// A Riftbound card file.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardFile {
    /// Always `"riftbound"`.
    pub game: GameName,
    #[serde(default)]
    pub card: Vec<CardDef>,
}

/// The game a file belongs to.
#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameName {
    Riftbound,
}

#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum KindDef {
    Unit,
    Gear,
    Spell,
    Battlefield,
    Rune,
    Legend,
}

/// A domain (Core Rules 133.2); `any` only in a cost's Power ([A]).
#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum DomainDef {
    Fury,
    Calm,
    Mind,
    Body,
    Chaos,
    Order,
    Any,
}

impl DomainDef {
    fn domain(self) -> Option<Domain> {
        match self {
            DomainDef::Fury => Some(Domain::Fury),
            DomainDef::Calm => Some(Domain::Calm),
            DomainDef::Mind => Some(Domain::Mind),
            DomainDef::Body => Some(Domain::Body),
            DomainDef::Chaos => Some(Domain::Chaos),
            DomainDef::Order => Some(Domain::Order),
            DomainDef::Any => None,
        }
    }
}

#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SpeedDef {
    Action,
    Reaction,
}

#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum WhenDef {
    Attack,
    Defend,
    EnemyAttacks,
    FriendlyDefends,
    Move,
    Death,
    Play,
    Conquer,
    EnemyMovesHere,
    DefendAlone,
    Hold,
    Discard,
    Add,
    SecondCard,
    FriendlyDies,
}

/// A unit's passive Might ability (cards::Passive).
#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum PassiveDef {
    OthersHere { might: i32 },
    OtherBuffedHere { might: i32 },
    PerBuffedHere { might: i32 },
}

#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum TargetDef {
    Enemy,
    Friendly,
    /// A friendly unit other than the trigger's own.
    OtherFriendly,
    Any,
    EachEnemy,
    Me,
    Subject,
}

#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LastsDef {
    Turn,
    Combat,
}

#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReplacementDef {
    RecallHealed,
    TopOfDeck,
}

/// One card as a designer writes it.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardDef {
    #[schemars(with = "String")]
    pub key: Spanned<String>,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: KindDef,
    /// A unit's printed Might; a gear's Might for the unit holding it.
    #[serde(default)]
    pub might: Option<i32>,
    #[serde(default)]
    pub assault: i32,
    #[serde(default)]
    pub shield: i32,
    /// A spell's speed (default `action`).
    #[serde(default)]
    #[schemars(with = "Option<SpeedDef>")]
    pub speed: Option<Spanned<SpeedDef>>,
    /// A spell's effects, in order.
    #[serde(default)]
    #[schemars(with = "Vec<EffectDef>")]
    pub effects: Vec<Spanned<EffectDef>>,
    /// A unit's or gear's triggers, each an effect with a `when`.
    #[serde(default)]
    #[schemars(with = "Vec<EffectDef>")]
    pub triggers: Vec<Spanned<EffectDef>>,
    /// A gear's replacement of its unit's death.
    #[serde(default)]
    #[schemars(with = "Option<ReplacementDef>")]
    pub replaces_death: Option<Spanned<ReplacementDef>>,
    /// Hidden: it may be hidden at a battlefield and played from there
    /// (RB11, RB12, RB20, RB21).
    #[serde(default)]
    pub hidden: bool,
    /// A gear's: its unit's hold effects are conquer effects too (RB14).
    #[serde(default)]
    pub hold_as_conquer: bool,
    /// A unit's Accelerate: 1 Energy and 1 Power more as it is played, to
    /// enter ready (Core Rules 721).
    #[serde(default)]
    pub accelerate: bool,
    /// A unit's Tank: assigned lethal combat damage before its
    /// controller's units without it (Core Rules 731).
    #[serde(default)]
    pub tank: bool,
    /// A unit's passive Might ability: `{ kind = "others_here", might = 1 }`
    /// (Darius, Executioner), `other_buffed_here` (Lee Sin, Centered),
    /// `per_buffed_here` (Sett, Kingpin).
    #[serde(default)]
    #[schemars(with = "Option<PassiveDef>")]
    pub passive: Option<Spanned<PassiveDef>>,
    /// Legion: Energy off its cost once its player has played another
    /// card this turn ("Legion — I cost N less").
    #[serde(default)]
    pub legion_discount: u8,
    /// Legion: the unit enters ready once its player has played another
    /// card this turn ("Legion — I enter ready").
    #[serde(default)]
    pub legion_ready: bool,
    /// A token unit (Core Rules 179): played by an effect that names it
    /// (a Legend's `play_a_token`), never in a deck.
    #[serde(default)]
    pub token: bool,
    /// A Legend's ability, which a whole game plays (Core Rules 167.7,
    /// 167.8).
    #[serde(default)]
    #[schemars(with = "Option<LegendAbilityDef>")]
    pub legend_ability: Option<Spanned<LegendAbilityDef>>,
    /// A gear's or rune's activated ability, used from its player's base.
    #[serde(default)]
    #[schemars(with = "Option<AbilityDef>")]
    pub ability: Option<Spanned<AbilityDef>>,
    /// Its Energy cost, the numeral (Core Rules 130.2.a); 0 when absent.
    #[serde(default)]
    pub energy: u8,
    /// Its Power cost, one domain per symbol, `any` for [A] (130.2.b,
    /// 133.2.e).
    #[serde(default)]
    #[schemars(with = "Vec<DomainDef>")]
    pub power: Vec<Spanned<DomainDef>>,
    /// Its domains (133.2); a Legend's are its deck's identity (103.1).
    #[serde(default)]
    #[schemars(with = "Vec<DomainDef>")]
    pub domains: Vec<Spanned<DomainDef>>,
    /// A champion unit (132.7.a), which a Legend of its tag may choose as
    /// its deck's Chosen Champion (103.2.a).
    #[serde(default)]
    pub champion: bool,
    /// A champion unit's or a Legend's champion tag (`"Jinx"`).
    #[serde(default)]
    pub tag: Option<String>,
    /// What was reconstructed, and from which rulings: the FAQ prints no
    /// card text.
    #[schemars(with = "String")]
    pub reconstructed: Spanned<String>,
}

/// A Legend's ability, by the game's handler that plays it.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum LegendAbilityDef {
    /// Draw 1 at the start of the beginning phase with `hand_at_most`
    /// cards or fewer in hand.
    DrawWithFewCards { hand_at_most: u8 },
    /// Pay `energy` and exhaust the Legend: buff a friendly unit.
    BuffAUnit { energy: u8 },
    /// On playing a unit of Might `might` or more, exhaust the Legend to
    /// channel 1 rune exhausted.
    ChannelOnMighty { might: i32 },
    /// An enemy unit attacking a battlefield its player controls gets
    /// `might` this turn.
    WeakenAttackers { might: i32 },
    /// Pay `energy` and exhaust the Legend: move a friendly unit to or
    /// from its base.
    MoveAUnit { energy: u8 },
    /// Pay `energy` and exhaust the Legend: play a `token` unit token, the
    /// key of a token card declared before the Legend.
    PlayAToken { energy: u8, token: String },
    /// Exhaust the Legend, once its player has played a card this turn
    /// (Legion): add `energy` Energy.
    LegionEnergy { energy: u8 },
    /// A buffed unit of its player that would die spends its Buff and is
    /// recalled, healed, instead, the Legend exhausted; a conquest readies
    /// the Legend.
    SaveABuffedUnit,
}

/// An activated ability: its speed (default `action`), its costs, what
/// it does.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AbilityDef {
    #[serde(default)]
    pub speed: Option<SpeedDef>,
    /// Cost: exhaust the card.
    #[serde(default)]
    pub exhaust: bool,
    /// Cost: cards discarded from hand (RB40).
    #[serde(default)]
    pub discard: u8,
    /// [Add]: the energy it adds, resolving at once (RB41).
    #[serde(default)]
    pub adds: i32,
    #[serde(default)]
    pub effects: Vec<EffectDef>,
}

/// An effect: a target and exactly one action (`damage`,
/// `damage_my_might`, `might`, `buff`, `stun`, `return_to_hand`,
/// `recall`, `move_to_base`, `move_here`, `kill`, `activate_conquer`,
/// `spend_buff_draw`), or one action for its player with no target
/// (`score`, `draw`, `discard`, `play_from_deck`, `play_token`); a
/// trigger adds `when`.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EffectDef {
    #[serde(default)]
    pub when: Option<WhenDef>,
    #[serde(default)]
    pub target: Option<TargetDef>,
    /// A chosen target may be at a base too ("a unit", not "a unit
    /// here"); played from Hidden it is "here" only (RB11).
    #[serde(default)]
    pub anywhere: bool,
    /// Legion (Core Rules 728): it does something only once its player has
    /// played another card this turn.
    #[serde(default)]
    pub legion: bool,
    #[serde(default)]
    pub damage: Option<i32>,
    /// Damage split among the enemy units at the battlefield as its
    /// controller chooses; with `target = "each_enemy"`.
    #[serde(default)]
    pub damage_split: Option<i32>,
    #[serde(default)]
    pub damage_my_might: bool,
    /// A Might change; with `minimum` and `lasts` (default `turn`).
    #[serde(default)]
    pub might: Option<i32>,
    #[serde(default)]
    pub minimum: Option<i32>,
    #[serde(default)]
    pub lasts: Option<LastsDef>,
    #[serde(default)]
    pub buff: bool,
    #[serde(default)]
    pub stun: bool,
    /// Back to hand when its Might is at most this.
    #[serde(default)]
    pub return_to_hand: Option<i32>,
    #[serde(default)]
    pub recall: bool,
    /// "You may": decided as it resolves (RB50).
    #[serde(default)]
    pub may: bool,
    #[serde(default)]
    pub heal: bool,
    #[serde(default)]
    pub exhaust: bool,
    /// A move to its base: its move triggers trigger (RB20).
    #[serde(default)]
    pub move_to_base: bool,
    /// A move from its base to the battlefield (Zenith Blade, RB3); the
    /// target is a unit at its base, so the effect says `anywhere`.
    #[serde(default)]
    pub move_here: bool,
    /// Killed at once, as this instruction resolves (RB48).
    #[serde(default)]
    pub kill: bool,
    /// The unit's conquer effects happen now (RB14).
    #[serde(default)]
    pub activate_conquer: bool,
    /// Its player scores this many points (RB14).
    #[serde(default)]
    pub score: Option<i32>,
    /// Its player draws this many cards (RB14).
    #[serde(default)]
    pub draw: Option<i32>,
    /// Its player discards this many cards from its hand, of its choosing
    /// (RB40).
    #[serde(default)]
    pub discard: Option<i32>,
    /// Its player plays a unit from the top of its deck (RB48), looking
    /// at `look` cards (default 1; Baited Hook's five, RB39).
    #[serde(default)]
    pub play_from_deck: bool,
    #[serde(default)]
    pub look: Option<i32>,
    /// A Buff spent from the target: if one came off, its player draws
    /// this many (Monastery of Hirana, RB27).
    #[serde(default)]
    pub spend_buff_draw: Option<i32>,
    /// Its player plays this token unit (the key of a token card declared
    /// before) at the trigger's unit's battlefield (Core Rules 179), or
    /// with `at_base` at its player's base.
    #[serde(default)]
    pub play_token: Option<String>,
    #[serde(default)]
    pub at_base: bool,
    /// "Ready me" (Darius, Trifarian).
    #[serde(default)]
    pub ready: bool,
}

/// Loads every Riftbound card file under `paths` into one catalog.
pub fn load_riftbound_catalog(paths: &[PathBuf]) -> Result<Catalog, Vec<Diagnostic>> {
    let files = toml_files(paths).map_err(|d| vec![d])?;
    let mut texts = Vec::new();
    let mut bad = Vec::new();
    for f in files {
        match read(&f) {
            Ok(t) => texts.push((f, t)),
            Err(d) => bad.push(d),
        }
    }
    let mut catalog = Catalog::default();
    for (f, t) in &texts {
        if let Err(mut d) = add_card_file(&mut catalog, f, t) {
            bad.append(&mut d);
        }
    }
    if catalog.cards.is_empty() && bad.is_empty() {
        let at = paths.first().map_or_else(|| PathBuf::from("."), Clone::clone);
        bad.push(Diagnostic::whole_file(
            &at,
            "no Riftbound card here: the catalog is empty",
        ));
    }
    if bad.is_empty() { Ok(catalog) } else { Err(bad) }
}

/// Adds one card file's cards to `catalog`; every problem found.
pub fn add_card_file(catalog: &mut Catalog, file: &Path, text: &str) -> Result<(), Vec<Diagnostic>> {
    let parsed: CardFile = parse_toml(file, text)?;
    let mut bad = Vec::new();
    for (i, c) in parsed.card.iter().enumerate() {
        let at = |key: &str| format!("card[{i}].{key}");
        let mut err = |span: std::ops::Range<usize>, key: String, msg: String| {
            bad.push(Diagnostic::at(file, text, Some(span), key, msg));
        };
        let key = c.key.get_ref();
        let key_ok = !key.is_empty()
            && key
                .chars()
                .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_');
        if !key_ok {
            err(
                c.key.span(),
                at("key"),
                format!("`{key}` is not a key: lower-case letters, digits and `_`"),
            );
        }
        if catalog.index(key).is_some() {
            err(c.key.span(), at("key"), format!("a second card `{key}`"));
        }
        if c.reconstructed.get_ref().trim().is_empty() {
            err(
                c.reconstructed.span(),
                at("reconstructed"),
                "say what was reconstructed and from which ruling (RB1 to RB50)".into(),
            );
        }
        let kind = match c.kind {
            KindDef::Unit => CardKind::Unit,
            KindDef::Gear => CardKind::Gear,
            KindDef::Spell => CardKind::Spell,
            KindDef::Battlefield => CardKind::Battlefield,
            KindDef::Rune => CardKind::Rune,
            KindDef::Legend => CardKind::Legend,
        };
        let card_span = c.key.span();
        if kind == CardKind::Unit && c.might.is_none() {
            err(
                card_span.clone(),
                at("might"),
                "a unit needs its printed `might`".into(),
            );
        }
        if kind != CardKind::Spell && c.speed.is_some() {
            err(card_span.clone(), at("speed"), "only a spell has a speed".into());
        }
        if kind == CardKind::Spell && (c.effects.is_empty() || c.effects.len() > MAX_EFFECTS) {
            err(
                card_span.clone(),
                at("effects"),
                format!("a spell has 1 to {MAX_EFFECTS} effects"),
            );
        }
        if kind != CardKind::Spell && !c.effects.is_empty() {
            err(
                c.effects[0].span(),
                at("effects"),
                "only a spell has `effects`; a unit's or gear's are `triggers`".into(),
            );
        }
        if kind == CardKind::Spell && !c.triggers.is_empty() {
            err(c.triggers[0].span(), at("triggers"), "a spell has no triggers".into());
        }
        if c.triggers.len() > MAX_TRIGGERS {
            err(
                c.triggers[MAX_TRIGGERS].span(),
                at("triggers"),
                format!("at most {MAX_TRIGGERS} triggers a card"),
            );
        }
        if kind != CardKind::Gear
            && let Some(r) = &c.replaces_death
        {
            err(r.span(), at("replaces_death"), "only a gear replaces a death".into());
        }
        if kind == CardKind::Battlefield {
            let mut bf = |k: usize, t: &Spanned<EffectDef>| {
                let d = t.get_ref();
                let when_ok = matches!(d.when, Some(WhenDef::Conquer | WhenDef::EnemyMovesHere | WhenDef::Hold));
                let subject_ok = d.target != Some(TargetDef::Subject) || d.when == Some(WhenDef::EnemyMovesHere);
                if !when_ok || d.target == Some(TargetDef::Me) || !subject_ok {
                    err(
                        t.span(),
                        at(&format!("triggers[{k}]")),
                        "a battlefield's triggers are `when = \"conquer\"`, `\"hold\"` or `\"enemy_moves_here\"` (whose `subject` is the unit that moved), aimed at enemy, friendly, any or each_enemy".into(),
                    );
                }
            };
            for (k, t) in c.triggers.iter().enumerate() {
                bf(k, t);
            }
            if c.assault != 0 || c.shield != 0 {
                err(
                    card_span.clone(),
                    at("assault"),
                    "a battlefield has no Assault or Shield; its `might` is what each unit there has".into(),
                );
            }
        }
        if c.hidden && !matches!(kind, CardKind::Unit | CardKind::Gear | CardKind::Spell) {
            err(
                card_span.clone(),
                at("hidden"),
                "only a unit, gear or spell is hidden".into(),
            );
        }
        if c.legend_ability.is_some() && kind != CardKind::Legend {
            err(
                card_span.clone(),
                at("legend_ability"),
                "only a Legend has a `legend_ability` (167.7, 167.8)".into(),
            );
        }
        if c.token && kind != CardKind::Unit {
            err(
                card_span.clone(),
                at("token"),
                "only a unit is a token here: a Recruit, played by an effect (179)".into(),
            );
        }
        if let Some(a) = &c.legend_ability
            && let LegendAbilityDef::PlayAToken { token, .. } = a.get_ref()
            && !catalog.index(token).is_some_and(|t| catalog.card(t).token)
        {
            err(
                a.span(),
                at("legend_ability.token"),
                format!(
                    "`{token}` is no token card declared before this one: declare the token (`token = true`) above the Legend that plays it"
                ),
            );
        }
        if c.legion_discount > 0 && !matches!(kind, CardKind::Unit | CardKind::Gear | CardKind::Spell) {
            err(
                card_span.clone(),
                at("legion_discount"),
                "only a card played from a hand costs less with Legion".into(),
            );
        }
        if c.legion_ready && kind != CardKind::Unit {
            err(card_span.clone(), at("legion_ready"), "only a unit enters ready".into());
        }
        if c.tank && kind != CardKind::Unit {
            err(
                card_span.clone(),
                at("tank"),
                "only a unit has Tank: it takes combat damage first (731)".into(),
            );
        }
        if c.accelerate && kind != CardKind::Unit {
            err(
                card_span.clone(),
                at("accelerate"),
                "only a unit has Accelerate: it enters ready (721)".into(),
            );
        }
        if c.hold_as_conquer && kind != CardKind::Gear {
            err(
                card_span.clone(),
                at("hold_as_conquer"),
                "only a gear makes hold effects conquer effects".into(),
            );
        }
        match (&c.ability, kind) {
            (Some(a), CardKind::Gear | CardKind::Rune) => {
                let d = a.get_ref();
                if d.effects.len() > MAX_EFFECTS || (d.effects.is_empty() && d.adds <= 0) || d.adds < 0 {
                    err(
                        a.span(),
                        at("ability"),
                        format!("an ability does 1 to {MAX_EFFECTS} effects, or adds energy (`adds` at least 1)"),
                    );
                }
                // Exhausting is what bounds how often it is used: an
                // ability without it could be activated without end.
                if !d.exhaust {
                    err(
                        a.span(),
                        at("ability.exhaust"),
                        "an ability's costs include `exhaust = true`".into(),
                    );
                }
            }
            (Some(a), _) => err(
                a.span(),
                at("ability"),
                "only a gear or rune has an activated ability".into(),
            ),
            (None, CardKind::Rune) => err(
                card_span.clone(),
                at("ability"),
                "a rune has an ability: `adds` energy".into(),
            ),
            (None, _) => {}
        }
        let effects_of = c
            .effects
            .iter()
            .chain(&c.triggers)
            .map(|e| e.get_ref())
            .chain(c.ability.iter().flat_map(|a| a.get_ref().effects.iter()));
        let numbers = [c.might, Some(c.assault), Some(c.shield)]
            .into_iter()
            .chain(effects_of.flat_map(|d| {
                [
                    d.damage,
                    d.damage_split,
                    d.might,
                    d.minimum,
                    d.return_to_hand,
                    d.score,
                    d.draw,
                    d.look,
                    d.spend_buff_draw,
                ]
            }));
        if numbers.flatten().any(|n| n.unsigned_abs() > MAX_CARD_NUMBER as u32) {
            err(
                card_span.clone(),
                at("might"),
                format!("a card's numbers are -{MAX_CARD_NUMBER} to {MAX_CARD_NUMBER}"),
            );
        }
        if c.assault < 0 || c.shield < 0 {
            err(
                card_span.clone(),
                at("assault"),
                "Assault and Shield are at least 0".into(),
            );
        }
        let mut cost = Cost {
            energy: c.energy,
            ..Cost::default()
        };
        for (k, p) in c.power.iter().enumerate() {
            let slot = match p.get_ref().domain() {
                Some(d) => &mut cost.power[d.index()],
                None => &mut cost.any_power,
            };
            *slot = slot.saturating_add(1);
            if k >= usize::from(u8::MAX) {
                err(
                    p.span(),
                    at("power"),
                    "a cost of more Power than a deck has runes".into(),
                );
                break;
            }
        }
        let mut domains: Domains = 0;
        for d in &c.domains {
            match d.get_ref().domain() {
                Some(d) => domains |= d.bit(),
                None => err(
                    d.span(),
                    at("domains"),
                    "`any` is a cost's Power, not a card's domain".into(),
                ),
            }
        }
        for p in &c.power {
            if let Some(d) = p.get_ref().domain()
                && domains & d.bit() == 0
            {
                err(
                    p.span(),
                    at("power"),
                    format!(
                        "Power of {} on a card not of that domain (130.3.b): add it to `domains`",
                        d.name()
                    ),
                );
            }
        }
        if kind == CardKind::Legend && (domains == 0 || c.tag.is_none()) {
            err(
                card_span.clone(),
                at("domains"),
                "a Legend needs its `domains` (its deck's identity, 103.1) and its champion `tag` (103.2.a)".into(),
            );
        }
        if let Some(p) = &c.passive {
            let (PassiveDef::OthersHere { might }
            | PassiveDef::OtherBuffedHere { might }
            | PassiveDef::PerBuffedHere { might }) = *p.get_ref();
            if kind != CardKind::Unit || might.unsigned_abs() > MAX_CARD_NUMBER as u32 {
                err(
                    p.span(),
                    at("passive"),
                    format!("a passive is a unit's, its Might -{MAX_CARD_NUMBER} to {MAX_CARD_NUMBER}"),
                );
            }
        }
        if c.champion && (kind != CardKind::Unit || c.tag.is_none()) {
            err(
                card_span.clone(),
                at("champion"),
                "a champion is a unit with its champion `tag` (132.7.a)".into(),
            );
        }
        let mut effect = |d: &EffectDef, span: std::ops::Range<usize>, key: String, trigger: bool| {
            effect::lower(catalog, d, trigger, &mut |sub, msg| {
                let key = sub.map_or_else(|| key.clone(), |sub| format!("{key}.{sub}"));
                bad.push(Diagnostic::at(file, text, Some(span.clone()), key, msg));
            })
        };
        let effects: Vec<Effect> = c
            .effects
            .iter()
            .enumerate()
            .filter_map(|(k, e)| {
                effect(e.get_ref(), e.span(), format!("card[{i}].effects[{k}]"), false).map(|(_, e)| e)
            })
            .collect();
        let ability = c.ability.as_ref().map(|a| {
            let d = a.get_ref();
            Ability {
                speed: match d.speed {
                    None | Some(SpeedDef::Action) => Speed::Action,
                    Some(SpeedDef::Reaction) => Speed::Reaction,
                },
                exhaust: d.exhaust,
                discard: d.discard,
                adds: d.adds.max(0),
                effects: d
                    .effects
                    .iter()
                    .enumerate()
                    .filter_map(|(k, e)| {
                        effect(e, a.span(), format!("card[{i}].ability.effects[{k}]"), false).map(|(_, e)| e)
                    })
                    .collect(),
            }
        });
        let triggers: Vec<Trigger> = c
            .triggers
            .iter()
            .enumerate()
            .filter_map(|(k, e)| {
                let (when, effect) = effect(e.get_ref(), e.span(), format!("card[{i}].triggers[{k}]"), true)?;
                Some(Trigger { when: when?, effect })
            })
            .collect();
        if catalog.cards.len() >= usize::from(u16::MAX) {
            bad.push(Diagnostic::at(
                file,
                text,
                Some(card_span),
                at("key"),
                "the catalog holds no more cards",
            ));
            continue;
        }
        catalog.cards.push(Card {
            key: key.clone(),
            name: c.name.clone(),
            kind,
            might: c.might.unwrap_or(0),
            assault: c.assault,
            shield: c.shield,
            speed: match c.speed.as_ref().map(|s| *s.get_ref()) {
                None | Some(SpeedDef::Action) => Speed::Action,
                Some(SpeedDef::Reaction) => Speed::Reaction,
            },
            effects,
            triggers,
            replacement: c.replaces_death.as_ref().map(|r| match r.get_ref() {
                ReplacementDef::RecallHealed => Replacement::RecallHealed,
                ReplacementDef::TopOfDeck => Replacement::TopOfDeck,
            }),
            hidden: c.hidden,
            hold_as_conquer: c.hold_as_conquer,
            accelerate: c.accelerate,
            tank: c.tank,
            passive: c.passive.as_ref().map(|p| match *p.get_ref() {
                PassiveDef::OthersHere { might } => Passive::OthersHere(might),
                PassiveDef::OtherBuffedHere { might } => Passive::OtherBuffedHere(might),
                PassiveDef::PerBuffedHere { might } => Passive::PerBuffedHere(might),
            }),
            legend_ability: c.legend_ability.as_ref().map(|a| match *a.get_ref() {
                LegendAbilityDef::DrawWithFewCards { hand_at_most } => {
                    LegendAbility::DrawWithFewCards { hand: hand_at_most }
                }
                LegendAbilityDef::BuffAUnit { energy } => LegendAbility::BuffAUnit { energy },
                LegendAbilityDef::ChannelOnMighty { might } => LegendAbility::ChannelOnMighty { might },
                LegendAbilityDef::WeakenAttackers { might } => LegendAbility::WeakenAttackers { might },
                LegendAbilityDef::MoveAUnit { energy } => LegendAbility::MoveAUnit { energy },
                LegendAbilityDef::PlayAToken { energy, ref token } => LegendAbility::PlayAToken {
                    energy,
                    token: catalog.index(token).unwrap_or(0),
                },
                LegendAbilityDef::LegionEnergy { energy } => LegendAbility::LegionEnergy { energy },
                LegendAbilityDef::SaveABuffedUnit => LegendAbility::SaveABuffedUnit,
            }),
            token: c.token,
            legion_discount: c.legion_discount,
            legion_ready: c.legion_ready,
            ability,
            cost,
            domains,
            champion: c.champion,
            tag: c.tag.clone().unwrap_or_default(),
            reconstructed: c.reconstructed.get_ref().clone(),
        });
    }
    if bad.is_empty() { Ok(()) } else { Err(bad) }
}

mod effect;
mod suite;
pub use suite::{SuiteFile, parse_riftbound_suite, riftbound_suite_catalog};

#[cfg(test)]
mod tests;
