//! The match log: its stages, phases and events, each line citing its
//! rule, and how an event reads.

use super::bots::Reason;
use super::*;

/// The fights of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Boss = 0,
    Rescue = 1,
    Nemesis = 2,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Boss => "boss",
            Stage::Rescue => "rescue",
            Stage::Nemesis => "nemesis",
        }
    }
}

/// The steps of a round, in order (200.1a-200.1i).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Shop1,
    BossDraft,
    BossCombat,
    BossReward,
    Shop2,
    NemesisDraft,
    NemesisCombat,
    NemesisReward,
}

impl Phase {
    pub const ALL: [Phase; 8] = [
        Phase::Shop1,
        Phase::BossDraft,
        Phase::BossCombat,
        Phase::BossReward,
        Phase::Shop2,
        Phase::NemesisDraft,
        Phase::NemesisCombat,
        Phase::NemesisReward,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Phase::Shop1 => "shop1",
            Phase::BossDraft => "boss_draft",
            Phase::BossCombat => "boss_combat",
            Phase::BossReward => "boss_reward",
            Phase::Shop2 => "shop2",
            Phase::NemesisDraft => "nemesis_draft",
            Phase::NemesisCombat => "nemesis_combat",
            Phase::NemesisReward => "nemesis_reward",
        }
    }
}

/// One line of a match's log: what `gridsim match --log` and `gridsim
/// replay --match` print, what the datasets are made from and what match
/// scenarios check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A seat's wallet as the match opens: what every later change of
    /// Gold, Dividend and Profit in the log starts from.
    Seated {
        seat: u8,
        gold: i32,
        dividend: i32,
        profit: i32,
    },
    Phase {
        round: u8,
        phase: Phase,
    },
    Offers {
        round: u8,
        seat: u8,
        destination: Destination,
        units: Vec<String>,
        /// Each unit offer's tier, beside `units` (200.1b: offers rise in
        /// tier with the buyer's level).
        unit_tiers: Vec<u8>,
        runes: Vec<String>,
        /// Each offer, units then runes: whether the player could pay for
        /// it and place it (or combine it) when the set was drawn.
        buyable: Vec<bool>,
        /// The offer a probe measures, by its place among the offers
        /// (units then runes): the next fight fought with it and without
        /// it (docs/matches.md, "Probes"). The first set of a visit only.
        probed: Option<usize>,
    },
    Bought {
        round: u8,
        seat: u8,
        item: String,
        kind: &'static str,
        tier: u8,
        gold: i32,
        dividend: i32,
        profit: i32,
        combined_to: Option<u8>,
        buyback: bool,
        /// Who sold a bought-back item (200.1f).
        from_seat: Option<u8>,
        /// Why the bot chose it.
        reason: Reason,
    },
    Sold {
        round: u8,
        seat: u8,
        item: String,
        kind: &'static str,
        tier: u8,
        gold: i32,
        /// Added by the card's `sold` lines (800.15d, 800.47d).
        dividend: i32,
        /// Why the bot chose it.
        reason: Reason,
    },
    /// A placed rune raised one tier, paid Dividend first (200.1b, 800.15c).
    RuneUpgraded {
        round: u8,
        seat: u8,
        rune: String,
        tier: u8,
        gold: i32,
        dividend: i32,
        profit: i32,
        /// Why the bot chose it.
        reason: Reason,
    },
    /// A placed rune moved to another free place (200.1b).
    RuneMoved {
        round: u8,
        seat: u8,
        rune: String,
        from_board: &'static str,
        from_cell: u8,
        board: &'static str,
        cell: u8,
        /// Why the bot chose it.
        reason: Reason,
    },
    /// A reroll, paid Dividend first (800.15c).
    Rerolled {
        round: u8,
        seat: u8,
        gold: i32,
        dividend: i32,
        /// Why the bot chose it.
        reason: Reason,
    },
    /// XP bought, paid Dividend first (800.15c).
    BoughtXp {
        round: u8,
        seat: u8,
        gold: i32,
        dividend: i32,
        xp: i32,
        /// Why the bot chose it.
        reason: Reason,
    },
    LevelUp {
        round: u8,
        seat: u8,
        level: i32,
    },
    BossOffered {
        round: u8,
        options: Vec<String>,
    },
    BossClaimed {
        round: u8,
        seat: u8,
        boss: String,
        /// Why the bot chose it.
        reason: Reason,
    },
    /// A seat cancels its boss claim before combat (200.1c); it claims
    /// again after every seat has had its say.
    BossCancelled {
        round: u8,
        seat: u8,
        boss: String,
        /// Why the bot chose it.
        reason: Reason,
    },
    Fight {
        round: u8,
        seat: u8,
        stage: Stage,
        opponent: String,
        /// The teammate this rescue fight is for (200.2c).
        rescued: Option<u8>,
        stream: u64,
        /// `player`, `opponent` or `draw`.
        winner: &'static str,
        reason: &'static str,
        end_ms: i32,
        survivors: u32,
        opponent_survivors: u32,
        /// The rescuer's units standing as its rescue fight continues them
        /// (200.2c); 0 for a battle, which starts fresh.
        carried_units: u32,
        /// The Forge Cores the opponent's board brought (a ghost's, 200.3d).
        opponent_forge_cores: Vec<String>,
        /// The Dividend the player's side gained in the fight and banked:
        /// authored gains and what its Hubs settled (800.15b, 800.61c).
        dividend: i32,
        /// The player's board as it entered the fight (a rescuer's, its
        /// own board).
        board: FoughtBoard,
    },
    /// A probe's two fights, beside the real one: the same opponent and
    /// stream, the player's board with the item and without it. Nothing
    /// of the match depends on them (docs/matches.md, "Probes").
    Probe {
        round: u8,
        seat: u8,
        stage: Stage,
        /// `offer` (a shop offer the player could take) or `reward` (a boss
        /// reward's signature, probed at the round's nemesis fight).
        source: &'static str,
        item: String,
        /// `unit`, `rune`, `forge_core` or `resonance`.
        kind: &'static str,
        tier: u8,
        /// The player bought the offer (a reward is always taken).
        bought: bool,
        /// `player`, `opponent` or `draw`, with the item and without it.
        with_it: &'static str,
        without_it: &'static str,
    },
    /// The vault's Gold (200.1f).
    Vault {
        round: u8,
        seat: u8,
        gold: i32,
    },
    RescueChain {
        round: u8,
        rescuer: u8,
        fallen: Vec<u8>,
    },
    TeamResult {
        round: u8,
        stage: Stage,
        won: bool,
    },
    Reward {
        round: u8,
        seat: u8,
        stage: Stage,
        gold: i32,
        xp: i32,
        signature: Option<String>,
    },
    Destinations {
        round: u8,
        seat: u8,
        offered: Vec<Destination>,
        chosen: Destination,
        /// Why the bot chose it.
        reason: Reason,
    },
    Committed {
        round: u8,
        seat: u8,
        units: Vec<String>,
        runes: Vec<String>,
        resonance: Option<String>,
        forge_cores: Vec<String>,
        dividend: i32,
        profit: i32,
        quests: Vec<i32>,
        /// Each unit's named counter, `null` for a card without one or
        /// before its first battle (200.3b).
        counters: Vec<Option<i32>>,
    },
    NemesisOffered {
        round: u8,
        seat: u8,
        sources: Vec<String>,
    },
    NemesisClaimed {
        round: u8,
        seat: u8,
        source: String,
        /// Why the bot chose it.
        reason: Reason,
    },
    Bye {
        round: u8,
        seat: u8,
        why: &'static str,
    },
    MatchEnd {
        won: bool,
        boss_wins: u32,
        nemesis_wins: u32,
    },
}

impl Event {
    /// Every event's name, as logged (`event = "..."`).
    pub const NAMES: [&'static str; 25] = [
        "seated",
        "phase",
        "offers",
        "bought",
        "sold",
        "rune_upgraded",
        "rune_moved",
        "rerolled",
        "bought_xp",
        "level_up",
        "boss_offered",
        "boss_claimed",
        "boss_cancelled",
        "fight",
        "probe",
        "rescue_chain",
        "team_result",
        "reward",
        "destinations",
        "vault",
        "committed",
        "nemesis_offered",
        "nemesis_claimed",
        "bye",
        "match_end",
    ];

    /// The event as one line of `--log` text, citing its rule.
    pub fn line(&self) -> String {
        let text = self.text();
        // A bot's choice says why, before the rule it cites.
        match (self.bot_reason(), text.rfind(" [")) {
            (Some(r), Some(at)) => format!("{} ({}){}", &text[..at], r.name(), &text[at..]),
            _ => text,
        }
    }

    /// Why the bot made this choice, for the events that are a bot's choice.
    pub fn bot_reason(&self) -> Option<Reason> {
        match self {
            Event::Bought { reason, .. }
            | Event::Sold { reason, .. }
            | Event::RuneUpgraded { reason, .. }
            | Event::RuneMoved { reason, .. }
            | Event::Rerolled { reason, .. }
            | Event::BoughtXp { reason, .. }
            | Event::BossClaimed { reason, .. }
            | Event::BossCancelled { reason, .. }
            | Event::Destinations { reason, .. }
            | Event::NemesisClaimed { reason, .. } => Some(*reason),
            _ => None,
        }
    }

    fn text(&self) -> String {
        let list = |v: &[String]| if v.is_empty() { "-".to_string() } else { v.join(", ") };
        match self {
            Event::Phase { round, phase } => format!("round {round}: {} [200.1]", phase.name()),
            Event::Offers {
                seat,
                destination,
                units,
                unit_tiers,
                runes,
                ..
            } => {
                let units: Vec<String> = units.iter().zip(unit_tiers).map(|(u, t)| format!("{u} t{t}")).collect();
                format!(
                    "  seat {seat} {} offers: units {}; runes {} [200.1b]",
                    destination.name(),
                    list(&units),
                    list(runes)
                )
            }
            Event::Bought {
                seat,
                item,
                kind,
                tier,
                gold,
                dividend,
                profit,
                combined_to,
                buyback,
                ..
            } => format!(
                "  seat {seat} buys {kind} {item} t{tier}{} for {gold} Gold + {dividend} Dividend (+{profit} Profit){} [900.36]",
                if *buyback { " back" } else { "" },
                combined_to.map_or(String::new(), |t| format!(", combining into tier {t}"))
            ),
            Event::Sold {
                seat,
                item,
                kind,
                tier,
                gold,
                dividend: 0,
                ..
            } => format!("  seat {seat} sells {kind} {item} t{tier} for {gold} Gold [900.36c]"),
            Event::Sold {
                seat,
                item,
                kind,
                tier,
                gold,
                dividend,
                ..
            } => {
                format!(
                    "  seat {seat} sells {kind} {item} t{tier} for {gold} Gold and {dividend} Dividend [900.36c, 800.47d]"
                )
            }
            Event::RuneUpgraded {
                seat,
                rune,
                tier,
                gold,
                dividend,
                profit,
                ..
            } => format!(
                "  seat {seat} upgrades rune {rune} to t{tier} for {gold} Gold + {dividend} Dividend (+{profit} Profit) [200.1b, 800.15c]"
            ),
            Event::RuneMoved {
                seat,
                rune,
                from_board,
                from_cell,
                board,
                cell,
                ..
            } => format!(
                "  seat {seat} moves rune {rune} from {from_board} {from_cell} to {board} {cell} [200.1b, 900.24a]"
            ),
            Event::Rerolled {
                seat, gold, dividend, ..
            } => {
                format!("  seat {seat} rerolls for {} [200.1b, 800.15c]", paid(*gold, *dividend))
            }
            Event::BoughtXp {
                seat,
                gold,
                dividend,
                xp,
                ..
            } => {
                format!(
                    "  seat {seat} buys {xp} XP for {} [200.1b, 800.15c]",
                    paid(*gold, *dividend)
                )
            }
            Event::LevelUp { seat, level, .. } => format!("  seat {seat} reaches level {level} [200.1b]"),
            Event::BossOffered { options, .. } => format!("  boss options: {} [200.1c]", list(options)),
            Event::BossClaimed { seat, boss, .. } => format!("  seat {seat} claims {boss} [200.1c]"),
            Event::BossCancelled { seat, boss, .. } => format!("  seat {seat} cancels its claim on {boss} [200.1c]"),
            Event::Fight {
                seat,
                stage,
                opponent,
                rescued,
                stream,
                winner,
                reason,
                end_ms,
                survivors,
                opponent_survivors,
                carried_units,
                opponent_forge_cores,
                ..
            } => format!(
                "  seat {seat} {} fight{} against {opponent}{} (stream {stream}{}): {winner} wins by {reason} at {end_ms} ms, survivors {survivors} to {opponent_survivors} [{}]",
                stage.name(),
                rescued.map_or(String::new(), |f| format!(" for seat {f}")),
                if opponent_forge_cores.is_empty() {
                    String::new()
                } else {
                    format!(" with Forge Cores {}", opponent_forge_cores.join(", "))
                },
                if *carried_units > 0 {
                    format!(", {carried_units} units carried over")
                } else {
                    String::new()
                },
                match stage {
                    Stage::Boss => "200.1d",
                    Stage::Rescue => "200.2c",
                    Stage::Nemesis => "200.1h",
                }
            ),
            Event::Seated {
                seat,
                gold,
                dividend,
                profit,
            } => format!("  seat {seat} sits down with {gold} Gold, {dividend} Dividend, {profit} Profit"),
            Event::Vault { seat, gold, .. } => format!("  seat {seat} takes {gold} Gold from the vault [200.1f]"),
            Event::RescueChain { rescuer, fallen, .. } => format!(
                "  seat {rescuer} rescues seats {} [200.2b]",
                fallen.iter().map(|f| f.to_string()).collect::<Vec<_>>().join(", ")
            ),
            Event::TeamResult { stage, won, .. } => format!(
                "  team {} the {} stage [{}]",
                if *won { "wins" } else { "loses" },
                stage.name(),
                if *stage == Stage::Boss { "200.2d" } else { "200.1i" }
            ),
            Event::Reward {
                seat,
                stage,
                gold,
                xp,
                signature,
                ..
            } => format!(
                "  seat {seat} {} reward: {gold} Gold, {xp} XP{} [{}]",
                stage.name(),
                signature.as_ref().map_or(String::new(), |s| format!(", signature {s}")),
                if *stage == Stage::Boss { "200.1e" } else { "200.1i" }
            ),
            Event::Probe {
                seat,
                stage,
                source,
                item,
                tier,
                bought,
                with_it,
                without_it,
                ..
            } => format!(
                "  seat {seat} probe of the {source} {item} t{tier} ({}) at the {} fight: {with_it} wins with it, {without_it} without it [200.1b]",
                if *bought { "taken" } else { "passed" },
                stage.name()
            ),
            Event::Destinations {
                seat, offered, chosen, ..
            } => format!(
                "  seat {seat} is offered {} and goes to the {} [200.1f]",
                offered.iter().map(|d| d.name()).collect::<Vec<_>>().join(", "),
                chosen.name()
            ),
            Event::Committed {
                seat,
                units,
                runes,
                resonance,
                forge_cores,
                dividend,
                profit,
                counters,
                ..
            } => {
                // Named counters only where a unit has one (200.3b).
                let counted: Vec<String> = units
                    .iter()
                    .zip(counters)
                    .filter_map(|(u, c)| c.map(|x| format!("{} X={x}", u.split(' ').next().unwrap_or(u))))
                    .collect();
                let counted = if counted.is_empty() {
                    String::new()
                } else {
                    format!("; counters {}", counted.join(", "))
                };
                format!(
                    "  seat {seat} commits: {}; runes {}; resonance {}; Forge Cores {}; Dividend {dividend}, Profit {profit}{counted} [200.1g, 200.3]",
                    list(units),
                    list(runes),
                    resonance.as_deref().unwrap_or("-"),
                    list(forge_cores)
                )
            }
            Event::NemesisOffered { seat, sources, .. } => {
                format!("  seat {seat} is offered {} [200.1g]", list(sources))
            }
            Event::NemesisClaimed { seat, source, .. } => format!("  seat {seat} claims {source} [200.1g]"),
            Event::Bye { seat, why, .. } => format!("  seat {seat} has a bye: {why} [200.1h]"),
            Event::MatchEnd {
                won,
                boss_wins,
                nemesis_wins,
            } => format!(
                "match {}: {boss_wins} bosses cleared, {nemesis_wins} nemesis fights won [200.1i]",
                if *won { "won" } else { "lost" }
            ),
        }
    }
}

/// A player's board as it entered a fight: its units and their tiers in
/// placement order, its runes and its resonance.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FoughtBoard {
    pub cards: Vec<String>,
    pub tiers: Vec<u8>,
    pub runes: Vec<String>,
    pub resonance: Option<String>,
    /// Every keyword its cards carry, sorted, once each.
    pub keywords: Vec<&'static str>,
}

impl FoughtBoard {
    pub fn of(ctx: &MatchCtx, board: &BoardSpec) -> FoughtBoard {
        let catalog = ctx.catalog;
        let mut keywords: Vec<&'static str> = board
            .units
            .iter()
            .flat_map(|u| ctx.keywords_by_card[usize::from(u.card.0)].iter().copied())
            .collect();
        keywords.sort_unstable();
        keywords.dedup();
        FoughtBoard {
            cards: board.units.iter().map(|u| catalog.card(u.card).key.clone()).collect(),
            tiers: board.units.iter().map(|u| u.tier).collect(),
            runes: board.runes.iter().map(|r| catalog.rune(r.rune).key.clone()).collect(),
            resonance: board.resonance.map(|id| catalog.resonance(id).key.clone()),
            keywords,
        }
    }
}

/// Every keyword `cards` carry (as in `boards`), sorted, once each.
pub fn keywords_of(catalog: &gridsim_model::catalog::Catalog, cards: impl Iterator<Item = CardId>) -> Vec<String> {
    let mut keywords: Vec<String> = cards
        .flat_map(|c| catalog.carried_keywords(c))
        .map(str::to_string)
        .collect();
    keywords.sort();
    keywords.dedup();
    keywords
}

/// A payment as the log reads it: Gold, and the Dividend that paid first.
fn paid(gold: i32, dividend: i32) -> String {
    if dividend > 0 {
        format!("{gold} Gold and {dividend} Dividend")
    } else {
        format!("{gold} Gold")
    }
}
