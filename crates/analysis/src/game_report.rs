//! The figures of a run of whole Riftbound games (`docs/report.md`, "Runs
//! of games"): each deck's score against the other decks, the matrix of
//! deck against deck, the first player's advantage, how long games last
//! and how they end, and each bot's score against the others. A draw
//! counts half a win.
//!
//! What the intervals count: a game's decks and bots are fixed by the
//! suite's cycle, and games given their pairing are independent (each on
//! its own stream), so each game is its own cluster. A deck's rate is
//! against this field of decks, not any other; a field of other decks
//! would give other rates, which these intervals do not cover. Built from
//! [`crate::analysis::game_groups`]; drawn by the present layer's `render`.

use serde::Serialize;

use crate::analysis::GameGroup;
use crate::stats::{ClusterSums, Figure};

/// One deck's row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeckRow {
    pub name: String,
    /// Games against other decks (mirrors left out).
    pub games: u64,
    pub score: Option<Figure>,
    /// The interval lies wholly outside the band.
    pub outside_band: bool,
    /// Against a baseline run of the same games, paired game by game.
    pub change: Option<crate::game_cards::PairedChange>,
}

/// One bot's row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BotRow {
    pub name: String,
    /// Games against another bot.
    pub games: u64,
    pub score: Option<Figure>,
}

/// The game report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameReport {
    pub games: u64,
    pub decks: Vec<DeckRow>,
    /// `matrix[a][b]`: deck `a`'s score against deck `b`, either seat; none
    /// on the diagonal (a mirror scores one half).
    pub matrix: Vec<Vec<Option<Figure>>>,
    /// The first player's score over every game, and over mirrors alone,
    /// where nothing but going first tells the two apart.
    pub first_player: Option<Figure>,
    pub first_player_mirrors: Option<Figure>,
    pub mean_turns: Option<Figure>,
    /// The share of games ended by the turn cap (a draw), not a victory.
    pub turn_cap_share: Option<Figure>,
    pub bots: Vec<BotRow>,
    /// `bot_matrix[a][b]`: bot `a`'s score against bot `b`.
    pub bot_matrix: Vec<Vec<Option<Figure>>>,
    /// Each card the decks hold (`crate::game_cards`).
    pub cards: Vec<crate::game_cards::CardRow>,
    /// The baseline run the changes are against, and how it was compared.
    pub baseline: Option<String>,
    pub comparison: Option<String>,
}

impl GameReport {
    /// The rows flagged: decks outside the band, cards whose opening-hand
    /// gap lies beyond its half-width, and changes beyond noise (decks'
    /// and cards' own gaps) against a baseline.
    pub fn flags(&self) -> (usize, usize, usize) {
        let beyond = |c: &Option<crate::game_cards::PairedChange>| c.is_some_and(|c| c.significant);
        (
            self.decks.iter().filter(|d| d.outside_band).count(),
            self.cards.iter().filter(|c| c.outside_band).count(),
            self.decks.iter().filter(|d| beyond(&d.change)).count()
                + self.cards.iter().filter(|c| beyond(&c.gap_change)).count(),
        )
    }

    /// What a designer reads first, in words: the decks outside the band,
    /// the cards whose holding moves a side's score beyond the band's
    /// half-width, and against a baseline the decks and cards whose score
    /// moved beyond noise. Each sentence ends with a space; empty when
    /// there is nothing to say.
    pub fn headline(&self) -> String {
        let mut out = String::new();
        // At most five named, the furthest first, the rest counted.
        let mut say = |what: &str, mut named: Vec<(f64, String)>| {
            if named.is_empty() {
                return;
            }
            named.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            let told: Vec<&str> = named.iter().take(5).map(|n| n.1.as_str()).collect();
            let more = if named.len() > 5 {
                format!(" ({} more in the tables)", named.len() - 5)
            } else {
                String::new()
            };
            out += &format!("{what}: {}{more}. ", told.join("; "));
        };
        say(
            "Decks scoring outside the band against this field",
            self.decks
                .iter()
                .filter(|d| d.outside_band)
                .map(|d| (d.score.map_or(0.0, |f| (f.value - 0.5).abs()), d.name.clone()))
                .collect(),
        );
        say(
            "Cards whose side's score with them in the opening hand lies beyond the band's half-width from without",
            self.cards
                .iter()
                .filter(|c| c.outside_band)
                .map(|c| {
                    let gap = c.gaps[0].map_or(0.0, |f| f.value);
                    (gap.abs(), format!("{} ({:+.1} points)", c.name, 100.0 * gap))
                })
                .collect(),
        );
        if let Some(b) = &self.baseline {
            let moved = |name: &str, c: &Option<crate::game_cards::PairedChange>| {
                c.filter(|c| c.significant).map(|c| {
                    (
                        c.delta.abs(),
                        format!("{name} {:+.1} points (±{:.1})", 100.0 * c.delta, 100.0 * c.uncertainty),
                    )
                })
            };
            say(
                &format!("Since {b}, decks whose score moved beyond noise"),
                self.decks.iter().filter_map(|d| moved(&d.name, &d.change)).collect(),
            );
            say(
                &format!("Since {b}, cards whose own in-hand gap moved beyond noise"),
                self.cards
                    .iter()
                    .filter_map(|c| moved(&c.name, &c.gap_change))
                    .collect(),
            );
        }
        out
    }
}

/// A side's score in a game of `winner`: 1, one half, or 0.
fn score(winner: &str, side: &str) -> f64 {
    match winner {
        "draw" => 0.5,
        w if w == side => 1.0,
        _ => 0.0,
    }
}

/// Adds a group's games to `sums` from one side's view.
fn add(sums: &mut ClusterSums, g: &GameGroup, side: &str) {
    let s = score(&g.winner, side);
    sums.add_units(g.games, s * g.games as f64, s * s * g.games as f64);
}

/// Builds the game report from a run's groups; `deck_names` by deck index.
/// `band` is the report's, low and high.
pub fn build(groups: &[GameGroup], deck_names: &[String], band: [f64; 2]) -> GameReport {
    let n = deck_names.len().max(
        groups
            .iter()
            .map(|g| g.left.max(g.right) as usize + 1)
            .max()
            .unwrap_or(0),
    );
    let mut bot_names: Vec<String> = Vec::new();
    for g in groups {
        for b in [&g.left_bot, &g.right_bot] {
            if !bot_names.contains(b) {
                bot_names.push(b.clone());
            }
        }
    }
    bot_names.sort();
    let bot = |name: &str| bot_names.iter().position(|b| b == name).unwrap_or(0);
    let nb = bot_names.len();
    let mut decks = vec![ClusterSums::default(); n];
    let mut matrix = vec![vec![ClusterSums::default(); n]; n];
    let mut bots = vec![ClusterSums::default(); nb];
    let mut bot_matrix = vec![vec![ClusterSums::default(); nb]; nb];
    let (mut first, mut first_mirrors) = (ClusterSums::default(), ClusterSums::default());
    let (mut turns, mut capped) = (ClusterSums::default(), ClusterSums::default());
    let mut games = 0;
    for g in groups {
        games += g.games;
        let (l, r) = (g.left as usize, g.right as usize);
        add(&mut first, g, &g.first);
        if l == r {
            add(&mut first_mirrors, g, &g.first);
        } else {
            add(&mut decks[l], g, "left");
            add(&mut decks[r], g, "right");
            add(&mut matrix[l][r], g, "left");
            add(&mut matrix[r][l], g, "right");
        }
        let (bl, br) = (bot(&g.left_bot), bot(&g.right_bot));
        if bl != br {
            add(&mut bots[bl], g, "left");
            add(&mut bots[br], g, "right");
            add(&mut bot_matrix[bl][br], g, "left");
            add(&mut bot_matrix[br][bl], g, "right");
        }
        turns.add_units(g.games, g.turns as f64, g.turns_squared as f64);
        let cap = if g.end_reason == "turn_cap" { 1.0 } else { 0.0 };
        capped.add_units(g.games, cap * g.games as f64, cap * g.games as f64);
    }
    let grid = |m: &[Vec<ClusterSums>]| -> Vec<Vec<Option<Figure>>> {
        m.iter()
            .enumerate()
            .map(|(a, row)| {
                row.iter()
                    .enumerate()
                    .map(|(b, c)| if a == b { None } else { Figure::proportion(c) })
                    .collect()
            })
            .collect()
    };
    GameReport {
        games,
        decks: decks
            .iter()
            .enumerate()
            .map(|(d, c)| {
                let score = Figure::proportion(c);
                DeckRow {
                    name: deck_names.get(d).cloned().unwrap_or_else(|| format!("deck {d}")),
                    games: c.n as u64,
                    outside_band: score.is_some_and(|f| f.low > band[1] || f.high < band[0]),
                    score,
                    change: None,
                }
            })
            .collect(),
        matrix: grid(&matrix),
        first_player: Figure::proportion(&first),
        first_player_mirrors: Figure::proportion(&first_mirrors),
        mean_turns: Figure::mean(&turns),
        turn_cap_share: Figure::proportion(&capped),
        bots: bots
            .iter()
            .zip(&bot_names)
            .map(|(c, name)| BotRow {
                name: name.clone(),
                games: c.n as u64,
                score: Figure::proportion(c),
            })
            .collect(),
        bot_matrix: grid(&bot_matrix),
        cards: Vec::new(),
        baseline: None,
        comparison: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(left: u32, right: u32, first: &str, winner: &str, games: u64) -> GameGroup {
        GameGroup {
            left,
            right,
            left_bot: "aggressive".into(),
            right_bot: if left == right { "aggressive" } else { "defensive" }.into(),
            first: first.into(),
            winner: winner.into(),
            end_reason: if winner == "draw" { "turn_cap" } else { "victory" }.into(),
            games,
            turns: games * 10,
            turns_squared: games * 100,
        }
    }

    /// A deck's score counts both seats and leaves mirrors out; a draw is
    /// half a win; the first player's score counts every game. The
    /// misreadings: a deck's rate from seat 0 alone, or mirrors counted
    /// as its own wins and losses.
    #[test]
    fn a_deck_scores_from_both_seats_and_mirrors_measure_going_first() {
        let groups = vec![
            group(0, 1, "left", "left", 30),
            group(1, 0, "left", "left", 10),
            group(1, 0, "right", "draw", 10),
            group(0, 0, "left", "left", 6),
            group(0, 0, "right", "left", 4),
        ];
        let names = vec!["A".to_string(), "B".to_string()];
        let r = build(&groups, &names, [0.45, 0.55]);
        assert_eq!(r.games, 60);
        let a = r.decks[0].score.expect("a score");
        assert_eq!(r.decks[0].games, 50);
        assert!((a.value - 35.0 / 50.0).abs() < 1e-12, "{a:?}");
        let ab = r.matrix[0][1].expect("a cell");
        let ba = r.matrix[1][0].expect("a cell");
        assert!((ab.value + ba.value - 1.0).abs() < 1e-12);
        assert!(r.matrix[0][0].is_none());
        let mirrors = r.first_player_mirrors.expect("mirrors");
        assert!((mirrors.value - 0.6).abs() < 1e-12, "{mirrors:?}");
        let cap = r.turn_cap_share.expect("a share");
        assert!((cap.value - 10.0 / 60.0).abs() < 1e-12);
        assert!(a.low < a.value && a.value < a.high);
        assert_eq!(r.bots.len(), 2);
    }
}
