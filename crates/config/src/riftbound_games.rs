//! Riftbound decks (`configs/riftbound/decks/`) and game suites
//! (`configs/riftbound/suites/games.toml`): TOML into the whole game's
//! [`Deck`]s and a [`GameSuite`], every problem a diagnostic naming file,
//! line and key, with the nearest name for an unknown card. One lowering
//! function per concern: the Legend and its champion, the main deck, the
//! runes, the battlefields; then the deck's legality as the game reads it
//! (Core Rules 103), which the lowering's own checks make a backstop.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::riftbound_catalog::GameName;
use super::{Diagnostic, parse_toml, read, toml_files};
use gridsim_core::diagnostics;
use gridsim_riftbound::cards::{CardIndex, CardKind, Catalog};
use gridsim_riftbound::runes::{Domain, Domains};
use gridsim_riftbound_game::{Bot, Deck, MAX_DECK, MAX_RUNES, Settings};
use gridsim_sim::riftbound_games::GameSuite;

/// A deck file.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeckFile {
    /// Always `"riftbound"`.
    pub game: GameName,
    pub name: String,
    /// The Champion Legend's card key: its domains are the deck's identity
    /// (103.1).
    #[schemars(with = "String")]
    pub legend: Spanned<String>,
    /// The Chosen Champion's card key: a champion unit of the Legend's tag
    /// (103.2.a), counted among the main deck's cards and its name's
    /// copies.
    #[schemars(with = "String")]
    pub champion: Spanned<String>,
    /// What the deck is built to do (aggression, control, ramp, tokens).
    pub plan: String,
    /// The three battlefields it brings (458.5).
    #[schemars(with = "Vec<String>")]
    pub battlefields: Spanned<Vec<Spanned<String>>>,
    /// The rune deck: runes of each domain (103.3).
    #[schemars(with = "BTreeMap<String, u32>")]
    pub runes: Spanned<BTreeMap<Spanned<String>, Spanned<u32>>>,
    /// The main deck but its Chosen Champion: card key = copies (103.2).
    #[schemars(with = "BTreeMap<String, u32>")]
    pub cards: Spanned<BTreeMap<Spanned<String>, Spanned<u32>>>,
}

/// Whether a TOML text is a Riftbound deck.
pub fn is_riftbound_deck(text: &str) -> bool {
    toml::from_str::<toml::Table>(text)
        .is_ok_and(|t| t.get("game").and_then(toml::Value::as_str) == Some("riftbound") && t.contains_key("legend"))
}

struct Lowering<'a> {
    file: &'a Path,
    text: &'a str,
    catalog: &'a Catalog,
    bad: Vec<Diagnostic>,
}

impl Lowering<'_> {
    fn err(&mut self, span: std::ops::Range<usize>, key: impl Into<String>, msg: impl Into<String>) {
        self.bad
            .push(Diagnostic::at(self.file, self.text, Some(span), key.into(), msg.into()));
    }

    /// The card `key` names, of `kind`; a diagnostic with the nearest key
    /// of that kind otherwise.
    fn card(&mut self, key: &Spanned<String>, at: &str, kinds: &[CardKind]) -> Option<CardIndex> {
        let found = self
            .catalog
            .index(key.get_ref())
            .filter(|&c| kinds.contains(&self.catalog.card(c).kind));
        if found.is_none() {
            let names: Vec<&str> = self
                .catalog
                .cards
                .iter()
                .filter(|c| kinds.contains(&c.kind))
                .map(|c| c.key.as_str())
                .collect();
            let kind_names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
            let msg = format!(
                "no {} `{}` in the catalog{}",
                kind_names.join(" or "),
                key.get_ref(),
                diagnostics::suggestion(key.get_ref(), &names)
            );
            self.err(key.span(), at, msg);
        }
        found
    }

    /// The Legend and the Chosen Champion (103.1, 103.2.a).
    fn legend_and_champion(&mut self, d: &DeckFile) -> Option<(CardIndex, CardIndex)> {
        let legend = self.card(&d.legend, "legend", &[CardKind::Legend])?;
        let champion = self.card(&d.champion, "champion", &[CardKind::Unit])?;
        let (l, c) = (self.catalog.card(legend), self.catalog.card(champion));
        if !c.champion || c.tag != l.tag {
            let msg = format!(
                "`{}` is not a champion unit tagged {}: the Chosen Champion is one of its Legend's (103.2.a)",
                c.key, l.tag
            );
            self.err(d.champion.span(), "champion", msg);
        }
        Some((legend, champion))
    }

    /// The main deck: every card known, a main-deck kind, within the
    /// Legend's domains (103.1.b.3), at most `copies_max` of a name, the
    /// Chosen Champion among them (103.2.b), and the deck's size (103.2).
    fn main_deck(&mut self, d: &DeckFile, identity: Domains, champion: CardIndex, s: &Settings) -> Vec<CardIndex> {
        let mut main = Vec::new();
        let champion_name = self.catalog.card(champion).name.clone();
        for (key, copies) in d.cards.get_ref() {
            let at = format!("cards.{}", key.get_ref());
            let Some(c) = self.card(key, &at, &[CardKind::Unit, CardKind::Gear, CardKind::Spell]) else {
                continue;
            };
            let card = self.catalog.card(c);
            if card.token {
                let msg = format!(
                    "`{}` is a token, played by an effect: not a card of a deck (179)",
                    card.key
                );
                self.err(key.span(), at.clone(), msg);
                continue;
            }
            if card.domains == 0 || card.domains & !identity != 0 {
                let domains: Vec<&str> = Domain::ALL
                    .iter()
                    .filter(|d| card.domains & d.bit() != 0)
                    .map(|d| d.name())
                    .collect();
                let msg = format!(
                    "`{}` ({}) is outside the Legend's domains (103.1.b.3)",
                    card.key,
                    if domains.is_empty() {
                        "no domain".to_string()
                    } else {
                        domains.join(", ")
                    }
                );
                self.err(key.span(), at.clone(), msg);
            }
            let n = *copies.get_ref() + u32::from(card.name == champion_name);
            if n > s.copies_max || *copies.get_ref() == 0 {
                let msg = format!(
                    "{n} copies of {}{}: 1 to {} (103.2.b)",
                    card.name,
                    if card.name == champion_name {
                        ", the Chosen Champion among them"
                    } else {
                        ""
                    },
                    s.copies_max
                );
                self.err(copies.span(), at, msg);
            }
            for _ in 0..*copies.get_ref() {
                main.push(c);
            }
        }
        let total = main.len() + 1;
        if (total as u32) < s.deck_min || total > MAX_DECK {
            let msg = format!(
                "a main deck of {total} cards, its Chosen Champion among them: {} to {MAX_DECK} (103.2)",
                s.deck_min
            );
            self.err(d.cards.span(), "cards", msg);
        }
        main
    }

    /// The rune deck: runes of the Legend's domains only (103.3.a.1), as
    /// many as the rules say (103.3.a).
    fn runes(&mut self, d: &DeckFile, identity: Domains, s: &Settings) -> Vec<Domain> {
        let mut runes = Vec::new();
        for (name, n) in d.runes.get_ref() {
            let at = format!("runes.{}", name.get_ref());
            let Some(domain) = Domain::ALL.into_iter().find(|d| d.name() == name.get_ref()) else {
                let names: Vec<&str> = Domain::ALL.iter().map(|d| d.name()).collect();
                let msg = format!(
                    "no domain `{}`{}",
                    name.get_ref(),
                    diagnostics::suggestion(name.get_ref(), &names)
                );
                self.err(name.span(), at, msg);
                continue;
            };
            if identity & domain.bit() == 0 {
                let msg = format!("{} runes are outside the Legend's domains (103.3.a.1)", domain.name());
                self.err(name.span(), at, msg);
            }
            for _ in 0..(*n.get_ref()).min(MAX_RUNES as u32 + 1) {
                runes.push(domain);
            }
        }
        if runes.len() as u32 != s.rune_deck {
            let msg = format!(
                "a rune deck of {} runes: it holds {} (103.3.a)",
                runes.len(),
                s.rune_deck
            );
            self.err(d.runes.span(), "runes", msg);
        }
        runes
    }

    /// Three battlefields of different names (458.5, 103.4.c).
    fn battlefields(&mut self, d: &DeckFile, s: &Settings) -> Vec<CardIndex> {
        let mut fields: Vec<CardIndex> = Vec::new();
        for (k, b) in d.battlefields.get_ref().iter().enumerate() {
            let at = format!("battlefields[{k}]");
            let Some(c) = self.card(b, &at, &[CardKind::Battlefield]) else {
                continue;
            };
            if fields.contains(&c) {
                self.err(b.span(), at, "a second battlefield of one name (103.4.c)");
            }
            fields.push(c);
        }
        if d.battlefields.get_ref().len() as u32 != s.battlefields {
            let msg = format!(
                "{} battlefields: a duel's deck brings {} (458.5)",
                d.battlefields.get_ref().len(),
                s.battlefields
            );
            self.err(d.battlefields.span(), "battlefields", msg);
        }
        fields
    }
}

/// Loads one deck file against `catalog` under `settings`.
pub fn parse_deck(file: &Path, text: &str, catalog: &Catalog, settings: &Settings) -> Result<Deck, Vec<Diagnostic>> {
    let d: DeckFile = parse_toml(file, text)?;
    let mut l = Lowering {
        file,
        text,
        catalog,
        bad: Vec::new(),
    };
    let Some((legend, champion)) = l.legend_and_champion(&d) else {
        return Err(l.bad);
    };
    let identity = catalog.card(legend).domains;
    let main = l.main_deck(&d, identity, champion, settings);
    let runes = l.runes(&d, identity, settings);
    let battlefields = l.battlefields(&d, settings);
    let deck = Deck {
        name: d.name.clone(),
        legend,
        champion,
        main,
        runes,
        battlefields,
    };
    if l.bad.is_empty() {
        // The game's own reading of 103: whatever the lowering missed.
        for p in deck.problems(catalog, settings) {
            l.err(d.legend.span(), "legend", p);
        }
    }
    if l.bad.is_empty() { Ok(deck) } else { Err(l.bad) }
}

/// Loads every deck of `paths` (files or folders), in file-name order.
pub fn load_decks(paths: &[PathBuf], catalog: &Catalog, settings: &Settings) -> Result<Vec<Deck>, Vec<Diagnostic>> {
    let files = toml_files(paths).map_err(|d| vec![d])?;
    let mut decks = Vec::new();
    let mut bad = Vec::new();
    for f in files {
        let text = read(&f).map_err(|d| vec![d])?;
        match parse_deck(&f, &text, catalog, settings) {
            Ok(d) => decks.push(d),
            Err(mut e) => bad.append(&mut e),
        }
    }
    if bad.is_empty() { Ok(decks) } else { Err(bad) }
}

/// A game suite file: which decks meet, played by which bots, how often.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameSuiteFile {
    /// Always `"riftbound"`.
    pub game: GameName,
    pub name: String,
    /// The card folder, relative to the suite file.
    pub catalog: String,
    /// The deck folder (or files), relative to the suite file.
    pub decks: Vec<String>,
    /// Games in the run: each pairing of two decks (either may be the
    /// same) and two bots in turn.
    #[schemars(with = "u64")]
    pub games: Spanned<u64>,
    pub master_seed: u64,
    /// The bots that play, by name (`random`, `aggressive`, `defensive`, `lookahead`).
    #[schemars(with = "Vec<String>")]
    pub bots: Spanned<Vec<Spanned<String>>>,
    /// The rules' numbers, where a suite changes them (Core Rules numbers
    /// in `Settings`).
    #[serde(default)]
    pub rules: RulesDef,
}

/// The game's settings a suite may change; each defaults to the rule's.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesDef {
    /// Points to win (458.3).
    pub victory_score: Option<u32>,
    /// Turns after which a game is a draw (not a rule).
    pub turn_cap: Option<u32>,
}

/// A game suite as its file gives it: the suite without its decks, and
/// where its catalog and decks are.
#[derive(Debug, Clone)]
pub struct GameSuiteSource {
    pub suite: GameSuite,
    pub catalog_dir: PathBuf,
    pub deck_paths: Vec<PathBuf>,
}

/// Whether a TOML text is a Riftbound game suite.
pub fn is_riftbound_games(text: &str) -> bool {
    toml::from_str::<toml::Table>(text)
        .is_ok_and(|t| t.get("game").and_then(toml::Value::as_str) == Some("riftbound") && t.contains_key("games"))
}

/// The most games a suite runs.
pub const MAX_GAMES: u64 = 1 << 40;
/// The most turns a game's cap may allow.
pub const MAX_TURN_CAP: u32 = 1_000;

/// Parses a game suite; its decks are loaded by [`load_decks`].
pub fn parse_game_suite(file: &Path, text: &str) -> Result<GameSuiteSource, Vec<Diagnostic>> {
    let s: GameSuiteFile = parse_toml(file, text)?;
    let mut bad = Vec::new();
    let mut err = |span: std::ops::Range<usize>, key: &str, msg: String| {
        bad.push(Diagnostic::at(file, text, Some(span), key.to_string(), msg));
    };
    let games = *s.games.get_ref();
    if !(1..=MAX_GAMES).contains(&games) {
        err(s.games.span(), "games", format!("1 to {MAX_GAMES} games"));
    }
    let mut bots = Vec::new();
    for (k, b) in s.bots.get_ref().iter().enumerate() {
        match Bot::named(b.get_ref()) {
            Some(bot) => bots.push(bot),
            None => {
                let names: Vec<&str> = Bot::ALL.iter().map(|b| b.name()).collect();
                err(
                    b.span(),
                    &format!("bots[{k}]"),
                    format!(
                        "no bot `{}`{}",
                        b.get_ref(),
                        diagnostics::suggestion(b.get_ref(), &names)
                    ),
                );
            }
        }
    }
    if s.bots.get_ref().is_empty() {
        err(s.bots.span(), "bots", "at least one bot".to_string());
    }
    let mut settings = Settings::default();
    if let Some(v) = s.rules.victory_score {
        settings.victory_score = v;
    }
    if let Some(t) = s.rules.turn_cap {
        settings.turn_cap = t;
    }
    if settings.victory_score == 0 || settings.turn_cap == 0 || settings.turn_cap > MAX_TURN_CAP {
        err(
            0..0,
            "rules",
            format!("a victory score of at least 1 and a turn cap of 1 to {MAX_TURN_CAP}"),
        );
    }
    if !bad.is_empty() {
        return Err(bad);
    }
    let dir = file.parent().unwrap_or(Path::new("."));
    Ok(GameSuiteSource {
        suite: GameSuite {
            name: s.name,
            games,
            master_seed: s.master_seed,
            bots,
            settings,
            decks: Vec::new(),
        },
        catalog_dir: dir.join(&s.catalog),
        deck_paths: s.decks.iter().map(|d| dir.join(d)).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load_riftbound_catalog;

    fn origins() -> Catalog {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/riftbound/origins");
        load_riftbound_catalog(&[root]).expect("the Origins catalog loads")
    }

    fn errors(text: &str) -> Vec<String> {
        let c = origins();
        parse_deck(Path::new("d.toml"), text, &c, &Settings::default())
            .err()
            .unwrap_or_default()
            .iter()
            .map(|d| d.to_string())
            .collect()
    }

    const DECK: &str = r#"game = "riftbound"
name = "Jinx"
legend = "jinx_loose_cannon"
champion = "jinx_demolitionist"
plan = "aggression"
battlefields = ["trifarian_war_camp", "windswept_hillock", "reavers_row"]
runes = { fury = 6, chaos = 6 }

[cards]
chemtech_enforcer = 3
legion_rearguard = 3
pouty_poro = 3
mystic_poro = 3
tideturner = 3
flame_chompers = 3
shipyard_skulker = 3
sneaky_deckhand = 3
raging_soul = 3
jinx_rebel = 2
hextech_ray = 3
incinerate = 3
gust = 3
void_seeker = 1
"#;

    #[test]
    fn every_bundled_deck_is_legal() {
        let c = origins();
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/riftbound/decks");
        let decks = load_decks(&[dir], &c, &Settings::default()).expect("the bundled decks load");
        assert!(decks.len() >= 8, "eight decks at least: {}", decks.len());
        let mut domains = 0;
        for d in &decks {
            assert!(d.problems(&c, &Settings::default()).is_empty());
            domains |= c.card(d.legend).domains;
        }
        assert_eq!(domains, 0b11_1111, "the decks cover the six domains");
    }

    /// 103.2.b, 103.1.b.3, 103.2, 103.3.a: the loader's errors name the
    /// line and key, with the nearest card for a misspelt one.
    #[test]
    fn a_bad_deck_names_its_line_key_and_rule() {
        assert!(errors(DECK).is_empty(), "{:?}", errors(DECK));
        let e = errors(&DECK.replace("gust = 3", "gusts = 3"));
        assert!(
            e.iter()
                .any(|m| m.contains("cards.gusts") && m.contains("did you mean `gust`")),
            "{e:?}"
        );
        let e = errors(&DECK.replace("void_seeker = 1", "void_seeker = 4"));
        assert!(
            e.iter()
                .any(|m| m.contains("4 copies of Void Seeker") && m.contains("103.2.b")),
            "{e:?}"
        );
        let e = errors(&DECK.replace("jinx_rebel = 2", "jinx_rebel = 2\njinx_demolitionist = 3"));
        assert!(e.iter().any(|m| m.contains("the Chosen Champion among them")), "{e:?}");
        let e = errors(&DECK.replace("gust = 3", "gust = 3\nstalwart_poro = 1"));
        assert!(
            e.iter().any(|m| m.contains("stalwart_poro") && m.contains("103.1.b.3")),
            "{e:?}"
        );
        let e = errors(&DECK.replace("gust = 3", "gust = 3\nrecruit = 1"));
        assert!(
            e.iter()
                .any(|m| m.contains("cards.recruit") && m.contains("a token") && m.contains("179")),
            "{e:?}"
        );
        let e = errors(&DECK.replace("void_seeker = 1\n", ""));
        assert!(
            e.iter()
                .any(|m| m.contains("a main deck of 39 cards") && m.contains("103.2")),
            "{e:?}"
        );
        let e = errors(&DECK.replace("chaos = 6", "chaos = 5"));
        assert!(
            e.iter().any(|m| m.contains("11 runes") && m.contains("103.3.a")),
            "{e:?}"
        );
        let e = errors(&DECK.replace("chaos = 6", "calm = 6"));
        assert!(
            e.iter().any(|m| m.contains("runes.calm") && m.contains("103.3.a.1")),
            "{e:?}"
        );
        let e = errors(&DECK.replace("\"reavers_row\"", "\"windswept_hillock\""));
        assert!(e.iter().any(|m| m.contains("103.4.c")), "{e:?}");
        let e = errors(&DECK.replace("champion = \"jinx_demolitionist\"", "champion = \"yasuo_windrider\""));
        assert!(
            e.iter().any(|m| m.contains("103.2.a") && m.contains(":4:")),
            "the champion's line: {e:?}"
        );
    }
}
