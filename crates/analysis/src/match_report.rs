//! The report of a match run: how often a player whose board held a card
//! (rune, keyword, reward) as it fought wins the fight and the match, what
//! buying the card does to the next fight against passing it (probes), how
//! often a card is bought when a shop offers it, and in which round, each
//! with a 95% interval that counts matches, not rows (`docs/report.md`, "Match
//! runs"). Built from [`crate::analysis::match_tallies`]; drawn by
//! the present layer's `render`.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::analysis::{BotTally, MatchItem, MatchItemTally, MatchTallies};
use crate::report::ReportSettings;

pub use crate::stats::Figure;

/// One card, rune, keyword or reward of a match run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchRow {
    pub item: String,
    /// The printed name (cards), or the id.
    pub name: String,
    /// Players whose board held it as it fought the last round's boss (a
    /// reward: earned before that fight), and the matches they played.
    pub players: u64,
    pub matches: u64,
    pub wins: u64,
    /// Match win rate of those players.
    pub win_rate: Option<Figure>,
    /// Boss and nemesis fights of boards that held it as they entered
    /// them, and the share won (a draw half).
    pub fights: u64,
    pub fight_win_rate: Option<Figure>,
    /// Probes: the next fight's result with the item less its result
    /// without it, on the same opponent and stream (docs/matches.md,
    /// "Probes"); over all probes, and over those the player took or passed.
    pub probes: u64,
    pub effect: Option<Figure>,
    pub effect_taken: Option<Figure>,
    pub effect_passed: Option<Figure>,
    /// Times earned (rewards).
    pub earned: u64,
    /// Copies offered in shops, and the share bought (cards and runes).
    pub offered: u64,
    pub pick_rate: Option<Figure>,
    /// Purchases and their average round (cards and runes).
    pub bought: u64,
    pub average_round: Option<Figure>,
    /// Fewer players than the report's minimum sample: shown greyed.
    pub small_sample: bool,
}

impl MatchRow {
    fn new(item: &str, name: String, t: &MatchItemTally, min_sample: u64) -> MatchRow {
        let players = t.deciding.n as u64;
        MatchRow {
            item: item.to_string(),
            name,
            players,
            matches: t.deciding.clusters,
            wins: t.deciding.y as u64,
            win_rate: Figure::proportion(&t.deciding),
            fights: t.fought.n as u64,
            fight_win_rate: Figure::proportion(&t.fought),
            probes: t.effect.n as u64,
            effect: Figure::mean(&t.effect),
            effect_taken: Figure::mean(&t.effect_taken),
            effect_passed: Figure::mean(&t.effect_passed),
            earned: t.earned,
            offered: t.picks.n as u64,
            pick_rate: Figure::proportion(&t.picks),
            bought: t.rounds.n as u64,
            average_round: Figure::mean(&t.rounds),
            small_sample: players < min_sample,
        }
    }
}

/// One bot's players: how they fared and how they played, each a share of
/// the bot's players (or a mean per player) with its interval over matches.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BotRow {
    pub bot: String,
    pub players: u64,
    pub matches: u64,
    pub win_rate: Option<Figure>,
    pub bosses_per_player: Option<Figure>,
    pub nemeses_per_player: Option<Figure>,
    /// Players who combined copies at least once.
    pub combined: Option<Figure>,
    /// Players whose final board holds a tier-3 unit.
    pub tier_three: Option<Figure>,
    /// Players who ended the match with `analysis::GOLD_LEFT` Gold or more.
    pub gold_left: Option<Figure>,
}

impl BotRow {
    fn new(bot: &str, t: &BotTally) -> BotRow {
        BotRow {
            bot: bot.to_string(),
            players: t.won.n as u64,
            matches: t.won.clusters,
            win_rate: Figure::proportion(&t.won),
            bosses_per_player: Figure::mean(&t.boss_wins),
            nemeses_per_player: Figure::mean(&t.nemesis_wins),
            combined: Figure::proportion(&t.combined),
            tier_three: Figure::proportion(&t.tier_three),
            gold_left: Figure::proportion(&t.gold_left),
        }
    }
}

/// The report of a match run (or of its shards).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchReport {
    pub runs: Vec<String>,
    /// The run's seed matches, left out of every figure: they meet only byes.
    pub seed_matches: u64,
    pub matches: u64,
    pub players: u64,
    pub min_sample: u64,
    pub win_rate: Option<Figure>,
    pub bosses_per_player: Option<Figure>,
    pub nemeses_per_player: Option<Figure>,
    /// One row per bot, by name.
    pub bots: Vec<BotRow>,
    /// Each table sorted by match win rate, highest first; small samples last.
    pub cards: Vec<MatchRow>,
    pub runes: Vec<MatchRow>,
    pub keywords: Vec<MatchRow>,
    /// Boss rewards (Forge Cores and resonances), apart from purchases.
    pub rewards: Vec<MatchRow>,
    /// How every figure was computed, for the page.
    pub method: String,
}

pub const METHOD: &str = "The run's seed matches, played against an empty ghost pool (a bye in every nemesis fight), are left out of every figure. A match is the unit: its players share the team result (200.2d) and its purchases come from one board, so every figure is a ratio over matches with a cluster-robust standard error (k/(k-1) · Σ(y_i − r·n_i)² / (Σn)², k the matches involved). Match win rate: players whose board held the item as it fought the last round's boss, and won the match, over those players (an item counts once per board however many copies; a reward counts when earned before that fight). Fight win rate: the boss and nemesis fights of boards that held the item as they entered them, won (a draw half), over those fights. Both describe the boards that held the item, not what the item did: a strong board buys more, and a reward comes to those who beat its boss. Effect: the cause. A probe takes one shop offer the player could pay for and place (in probe_percent of the visits, drawn on a stream of its own) and fights the player's next opponent, on the same stream, twice: with the board as the visit opened plus that offer, and without it; a reward is probed at the round's nemesis fight, the board as it fought against the same board less the reward. The effect is the mean of (result with it − result without it), won 1, draw one half, lost 0, with ±1.96 cluster-robust standard errors; taken and passed split it by what the player did with the offer. Pick rate: copies offered in a shop that the player could pay for and place (or combine) when they were offered and that it bought, over those copies; an offer it could not take says nothing of the card. Bots: per bot, the share of its players who won, combined copies at least once, ended with a tier-3 unit, or ended with 10 Gold or more unspent, and the bosses and nemeses beaten per player. Average round: the mean round of its purchases, buybacks included. Rates carry Wilson 95% intervals on the effective sample size r(1−r)/se²; the average round carries ±1.96 standard errors. Rows with fewer players than the minimum sample are greyed and listed last.";

/// Builds the report from a match run's tallies; `printed` names cards.
pub fn build(
    runs: Vec<String>,
    t: &MatchTallies,
    printed: &BTreeMap<String, String>,
    s: &ReportSettings,
) -> MatchReport {
    let table = |kind: MatchItem| {
        let mut rows: Vec<MatchRow> = t
            .items
            .iter()
            .filter(|((k, _), _)| *k == kind)
            .map(|((_, item), tally)| {
                let name = printed.get(item).cloned().unwrap_or_else(|| item.clone());
                MatchRow::new(item, name, tally, s.min_sample)
            })
            .collect();
        rows.sort_by(|a, b| {
            let rate = |r: &MatchRow| r.win_rate.map_or(-1.0, |f| f.value);
            a.small_sample
                .cmp(&b.small_sample)
                .then(rate(b).total_cmp(&rate(a)))
                .then(a.item.cmp(&b.item))
        });
        rows
    };
    MatchReport {
        runs,
        seed_matches: t.seed_matches,
        matches: t.matches,
        players: t.players,
        min_sample: s.min_sample,
        win_rate: Figure::proportion(&t.won),
        bosses_per_player: Figure::mean(&t.boss_wins),
        nemeses_per_player: Figure::mean(&t.nemesis_wins),
        bots: t.bots.iter().map(|(bot, tally)| BotRow::new(bot, tally)).collect(),
        cards: table(MatchItem::Card),
        runes: table(MatchItem::Rune),
        keywords: table(MatchItem::Keyword),
        rewards: table(MatchItem::Reward),
        method: METHOD.to_string(),
    }
}

impl MatchReport {
    /// The four tables with their titles, in the page's order.
    pub fn tables(&self) -> [(&'static str, &Vec<MatchRow>); 4] {
        [
            ("Cards", &self.cards),
            ("Runes", &self.runes),
            ("Keywords", &self.keywords),
            ("Rewards", &self.rewards),
        ]
    }
}
