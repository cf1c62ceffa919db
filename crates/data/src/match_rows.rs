//! A played match as rows of the match run's four tables (`matches`,
//! `rounds`, `match_fights`, `shop_picks`; docs/datasets.md), read from its
//! log and final state. The only place that turns the match log into table
//! rows, so the tables and `gridsim match --show` tell one story.

use crate::Error;
use std::path::Path;

use crate::batch::{self, Workload};
use crate::dataset::{self, FileEntry, RunKind};
use crate::sink::{self, MatchTables};
use gridsim_engine::Engine;
use gridsim_sim::matches::{Event, GhostPool, MatchCtx, MatchResult, Stage};

/// Whole matches of a match suite, as the batch runner plays them: a
/// part's matches in order on one worker, written as the four match tables.
/// A match depends only on the suite, its index and the ghost pool (built
/// from the run's seed matches; matches below `pool_matches` meet an empty
/// pool), so a part's rows never depend on threads, shards or resumes.
pub struct Matches<'a> {
    ctx: &'a MatchCtx<'a>,
    pool: &'a GhostPool,
    empty: GhostPool,
}

impl<'a> Matches<'a> {
    pub fn new(ctx: &'a MatchCtx<'a>, pool: &'a GhostPool) -> Matches<'a> {
        Matches {
            ctx,
            pool,
            empty: GhostPool::default(),
        }
    }
}

impl<'a> Workload for Matches<'a> {
    type Worker = (Engine<'a>, MatchTables);

    fn kind(&self) -> RunKind {
        RunKind::Matches
    }

    fn worker(&self) -> Self::Worker {
        (Engine::new(self.ctx.catalog, self.ctx.rules), MatchTables::default())
    }

    fn play_part(
        &self,
        (engine, tables): &mut Self::Worker,
        part: u64,
        first: u64,
        count: u64,
        dir: &Path,
    ) -> Result<Vec<FileEntry>, Error> {
        tables.clear();
        for index in first..first + count {
            let pool = if index < self.ctx.suite.pool_matches {
                &self.empty
            } else {
                self.pool
            };
            let played = gridsim_sim::matches::play(self.ctx, engine, index, pool);
            append(self.ctx, &played, tables);
        }
        let written = sink::write_match_tables(tables, |table| dir.join(dataset::part_file(table, part)))?;
        Ok(self
            .kind()
            .tables()
            .iter()
            .zip(&written)
            .map(|(table, w)| batch::entry(&dataset::part_file(table, part), w))
            .collect())
    }
}

/// What one player did in one round, gathered from the log.
#[derive(Debug, Clone)]
struct RoundRow {
    seen: bool,
    boss: String,
    boss_fight: &'static str,
    team_boss_won: bool,
    rescue_fights: u32,
    destination: &'static str,
    nemesis: String,
    nemesis_fight: &'static str,
    gold_spent: i32,
    bought: u32,
    sold: u32,
    level: i32,
    units: u32,
    runes: u32,
    dividend: i32,
    profit: i32,
    reward: String,
    reward_with: Option<&'static str>,
    reward_without: Option<&'static str>,
}

impl Default for RoundRow {
    fn default() -> RoundRow {
        RoundRow {
            seen: false,
            boss: String::new(),
            boss_fight: "none",
            team_boss_won: false,
            rescue_fights: 0,
            destination: "none",
            nemesis: String::new(),
            nemesis_fight: "none",
            gold_spent: 0,
            bought: 0,
            sold: 0,
            level: 1,
            units: 0,
            runes: 0,
            dividend: 0,
            profit: 0,
            reward: String::new(),
            reward_with: None,
            reward_without: None,
        }
    }
}

/// A fight's result from the player's side: `won`, `lost` or `draw`.
fn outcome(winner: &str) -> &'static str {
    match winner {
        "player" => "won",
        "opponent" => "lost",
        _ => "draw",
    }
}

/// Appends match `r`'s rows to the tables.
pub fn append(ctx: &MatchCtx, r: &MatchResult, t: &mut MatchTables) {
    let players = usize::from(r.players);
    let rounds = r
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Phase { round, .. } => Some(usize::from(*round)),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let mut grid = vec![RoundRow::default(); rounds.max(1) * players.max(1)];
    let at = |round: u8, seat: u8| (usize::from(round).max(1) - 1) * players + usize::from(seat);
    let mut level = vec![1; players];
    let mut forge_cores: Vec<Vec<String>> = vec![Vec::new(); players];
    // The picks rows of each seat's current offers, to mark what it buys.
    let mut offers: Vec<Vec<usize>> = vec![Vec::new(); players];
    let mut destination: Vec<&'static str> = vec!["store"; players];
    // Each seat's probed offer's picks row, until its probe's fights.
    let mut probed_row: Vec<Option<usize>> = vec![None; players];
    let cat = ctx.catalog;
    let p = &mut t.picks;
    for e in &r.events {
        match e {
            Event::Phase { round, .. } => {
                for seat in 0..r.players {
                    grid[at(*round, seat)].seen = true;
                }
            }
            Event::Offers {
                round,
                seat,
                destination: d,
                units,
                unit_tiers,
                runes,
                buyable,
                probed,
            } => {
                let s = usize::from(*seat);
                destination[s] = d.name();
                offers[s].clear();
                if let Some(k) = probed {
                    probed_row[s] = Some(p.match_id.len() + k);
                }
                let items = units
                    .iter()
                    .zip(unit_tiers)
                    .map(|(u, &t)| (u, "unit", t))
                    .chain(runes.iter().map(|u| (u, "rune", 1)));
                for ((item, kind, tier), &open) in items.zip(buyable) {
                    offers[s].push(p.match_id.len());
                    p.match_id.push(r.index);
                    p.round.push(u32::from(*round));
                    p.seat.push(u32::from(*seat));
                    p.destination.push(d.name());
                    p.item.push(item.clone());
                    p.kind.push(kind);
                    p.offered.push(true);
                    p.buyable.push(open);
                    p.bought.push(false);
                    p.buyback.push(false);
                    p.tier.push(Some(u32::from(tier)));
                    p.gold.push(0);
                    p.dividend.push(0);
                    p.profit.push(0);
                    p.combined_to.push(None);
                    p.probed.push(false);
                    p.probe_with.push(None);
                    p.probe_without.push(None);
                }
                if let Some(row) = probed_row[s].filter(|_| probed.is_some()) {
                    p.probed[row] = true;
                }
            }
            Event::Bought {
                round,
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
            } => {
                let s = usize::from(*seat);
                let row = &mut grid[at(*round, *seat)];
                row.gold_spent += gold + dividend;
                row.bought += 1;
                let offered = (!buyback)
                    .then(|| {
                        offers[s].iter().copied().find(|&k| {
                            !p.bought[k]
                                && p.item[k] == *item
                                && p.kind[k] == *kind
                                && p.tier[k] == Some(u32::from(*tier))
                        })
                    })
                    .flatten();
                let k = match offered {
                    Some(k) => k,
                    None => {
                        // Bought back from the party's sold items (200.1f).
                        p.match_id.push(r.index);
                        p.round.push(u32::from(*round));
                        p.seat.push(u32::from(*seat));
                        p.destination.push(destination[s]);
                        p.item.push(item.clone());
                        p.kind.push(kind);
                        p.offered.push(false);
                        p.buyable.push(true);
                        p.bought.push(false);
                        p.buyback.push(*buyback);
                        p.tier.push(None);
                        p.gold.push(0);
                        p.dividend.push(0);
                        p.profit.push(0);
                        p.combined_to.push(None);
                        p.probed.push(false);
                        p.probe_with.push(None);
                        p.probe_without.push(None);
                        p.match_id.len() - 1
                    }
                };
                p.bought[k] = true;
                p.tier[k] = Some(u32::from(*tier));
                p.gold[k] = *gold;
                p.dividend[k] = *dividend;
                p.profit[k] = *profit;
                p.combined_to[k] = combined_to.map(u32::from);
            }
            Event::Sold { round, seat, .. } => grid[at(*round, *seat)].sold += 1,
            Event::Rerolled {
                round,
                seat,
                gold,
                dividend,
                ..
            }
            | Event::BoughtXp {
                round,
                seat,
                gold,
                dividend,
                ..
            }
            | Event::RuneUpgraded {
                round,
                seat,
                gold,
                dividend,
                ..
            } => {
                grid[at(*round, *seat)].gold_spent += gold + dividend;
            }
            Event::LevelUp { seat, level: l, .. } => level[usize::from(*seat)] = *l,
            Event::BossClaimed { round, seat, boss, .. } => grid[at(*round, *seat)].boss = boss.clone(),
            Event::Fight {
                round,
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
                board,
                ..
            } => {
                let row = &mut grid[at(*round, *seat)];
                match stage {
                    Stage::Boss => row.boss_fight = outcome(winner),
                    Stage::Rescue => row.rescue_fights += 1,
                    Stage::Nemesis => row.nemesis_fight = outcome(winner),
                }
                let f = &mut t.fights;
                f.match_id.push(r.index);
                f.round.push(u32::from(*round));
                f.seat.push(u32::from(*seat));
                f.stage.push(stage.name());
                f.opponent.push(opponent.clone());
                f.rescued.push(rescued.map(u32::from));
                f.stream.push(*stream);
                f.winner.push(winner);
                f.end_reason.push(reason);
                f.end_ms.push(*end_ms);
                f.survivors.push(*survivors);
                f.opponent_survivors.push(*opponent_survivors);
                f.carried_units.push(*carried_units);
                f.cards.push(board.cards.clone());
                f.tiers.push(board.tiers.iter().map(|&t| i32::from(t)).collect());
                f.runes.push(board.runes.clone());
                f.resonance.push(board.resonance.clone().unwrap_or_default());
                f.keywords.push(board.keywords.iter().map(|k| k.to_string()).collect());
            }
            Event::Probe {
                round,
                seat,
                source,
                with_it,
                without_it,
                ..
            } => {
                let (with, without) = (Some(outcome(with_it)), Some(outcome(without_it)));
                if *source == "reward" {
                    let row = &mut grid[at(*round, *seat)];
                    row.reward_with = with;
                    row.reward_without = without;
                } else if let Some(k) = probed_row[usize::from(*seat)].take() {
                    p.probe_with[k] = with;
                    p.probe_without[k] = without;
                }
            }
            Event::Reward {
                round,
                seat,
                stage: Stage::Boss,
                signature: Some(signature),
                ..
            } => grid[at(*round, *seat)].reward = signature.clone(),
            Event::TeamResult {
                round,
                stage: Stage::Boss,
                won,
            } => {
                for seat in 0..r.players {
                    grid[at(*round, seat)].team_boss_won = *won;
                }
            }
            Event::Destinations {
                round, seat, chosen, ..
            } => {
                grid[at(*round, *seat)].destination = chosen.name();
            }
            Event::Committed {
                round,
                seat,
                units,
                runes,
                forge_cores: cores,
                dividend,
                profit,
                ..
            } => {
                let row = &mut grid[at(*round, *seat)];
                row.units = units.len() as u32;
                row.runes = runes.len() as u32;
                row.dividend = *dividend;
                row.profit = *profit;
                row.level = level[usize::from(*seat)];
                forge_cores[usize::from(*seat)].clone_from(cores);
            }
            Event::NemesisClaimed {
                round, seat, source, ..
            } => grid[at(*round, *seat)].nemesis = source.clone(),
            Event::Bye { round, seat, .. } => grid[at(*round, *seat)].nemesis_fight = "bye",
            _ => {}
        }
    }
    let rt = &mut t.rounds;
    for (k, row) in grid.into_iter().enumerate().filter(|(_, row)| row.seen) {
        rt.match_id.push(r.index);
        rt.round.push((k / players.max(1) + 1) as u32);
        rt.seat.push((k % players.max(1)) as u32);
        rt.boss.push(row.boss);
        rt.boss_fight.push(row.boss_fight);
        rt.team_boss_won.push(row.team_boss_won);
        rt.rescue_fights.push(row.rescue_fights);
        rt.destination.push(row.destination);
        rt.nemesis.push(row.nemesis);
        rt.nemesis_fight.push(row.nemesis_fight);
        rt.gold_spent.push(row.gold_spent);
        rt.bought.push(row.bought);
        rt.sold.push(row.sold);
        rt.level.push(row.level);
        rt.units.push(row.units);
        rt.runes.push(row.runes);
        rt.dividend.push(row.dividend);
        rt.profit.push(row.profit);
        rt.reward.push(row.reward);
        rt.reward_with.push(row.reward_with);
        rt.reward_without.push(row.reward_without);
    }
    let m = &mut t.matches;
    for (seat, board) in r.final_boards.iter().enumerate() {
        let wallet = r.final_wallets.get(seat).copied().unwrap_or_default();
        let cards: Vec<String> = board.units.iter().map(|u| cat.card(u.card).key.clone()).collect();
        let keywords = gridsim_sim::matches::keywords_of(cat, board.units.iter().map(|u| u.card));
        m.match_id.push(r.index);
        m.master_seed.push(ctx.suite.master_seed);
        m.seed_match.push(r.index < ctx.suite.pool_matches);
        m.players.push(u32::from(r.players));
        m.seat.push(seat as u32);
        m.policy
            .push(ctx.suite.policy_of(r.index, seat as u8).name().to_string());
        m.won.push(r.won);
        m.boss_wins.push(r.boss_wins);
        m.nemesis_wins.push(r.nemesis_wins);
        m.level.push(r.final_levels.get(seat).copied().unwrap_or(1));
        m.gold.push(wallet.gold);
        m.dividend.push(wallet.dividend);
        m.profit.push(wallet.profit);
        m.cards.push(cards);
        m.tiers.push(board.units.iter().map(|u| i32::from(u.tier)).collect());
        m.runes
            .push(board.runes.iter().map(|u| cat.rune(u.rune).key.clone()).collect());
        m.rune_tiers
            .push(board.runes.iter().map(|u| i32::from(u.tier)).collect());
        m.resonance.push(
            board
                .resonance
                .map(|id| cat.resonance(id).key.clone())
                .unwrap_or_default(),
        );
        m.keywords.push(keywords);
        m.forge_cores.push(std::mem::take(&mut forge_cores[seat]));
    }
}

/// Match `r` round by round, one line per player per round, from the same
/// rows the run's tables hold (`gridsim replay` on a match run).
pub fn summary(ctx: &MatchCtx, r: &MatchResult) -> String {
    use std::fmt::Write;
    let mut t = MatchTables::default();
    append(ctx, r, &mut t);
    let mut out = String::new();
    let rt = &t.rounds;
    for k in 0..rt.match_id.len() {
        let nemesis = if rt.nemesis[k].is_empty() { "-" } else { &rt.nemesis[k] };
        let _ = writeln!(
            out,
            "round {:>2} seat {}: boss {} {} (team {}), {} rescue fights; shop 2 {}; nemesis {nemesis} {}; spent {} on {} buys, sold {}; level {}, {} units, {} runes, Dividend {}, Profit {}",
            rt.round[k],
            rt.seat[k],
            rt.boss[k],
            rt.boss_fight[k],
            if rt.team_boss_won[k] { "won" } else { "lost" },
            rt.rescue_fights[k],
            rt.destination[k],
            rt.nemesis_fight[k],
            rt.gold_spent[k],
            rt.bought[k],
            rt.sold[k],
            rt.level[k],
            rt.units[k],
            rt.runes[k],
            rt.dividend[k],
            rt.profit[k],
        );
    }
    let m = &t.matches;
    for k in 0..m.match_id.len() {
        let _ = writeln!(
            out,
            "match {} seat {}: {} ({} bosses, {} nemeses); final board {}",
            m.match_id[k],
            m.seat[k],
            if m.won[k] { "won" } else { "lost" },
            m.boss_wins[k],
            m.nemesis_wins[k],
            if m.cards[k].is_empty() {
                "-".to_string()
            } else {
                m.cards[k].join(", ")
            }
        );
    }
    out
}
