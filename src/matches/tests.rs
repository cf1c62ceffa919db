use std::path::{Path, PathBuf};

use super::*;
use crate::runs::RunInputs;

fn loaded() -> crate::match_runs::LoadedMatches {
    let mut l = crate::match_runs::LoadedMatches::from_files(
        Path::new("configs/rules.toml"),
        &[PathBuf::from("configs/cards"), PathBuf::from("configs/runes")],
        Path::new("configs/matches/solo.toml"),
    )
    .expect("the shipped match suite loads");
    l.suite.matches = 12;
    l.suite.pool_matches = 4;
    l
}

#[test]
fn matches_are_the_same_at_any_thread_count() {
    let l = loaded();
    let ctx = l.ctx();
    let pool = crate::match_runs::ghost_pool(&ctx, 2).expect("pool");
    let one = crate::batch::play_matches(&ctx, &pool, 4, 8, 1).expect("one thread");
    let two = crate::batch::play_matches(&ctx, &pool, 4, 8, 2).expect("two threads");
    assert_eq!(one.len(), 8);
    for (a, b) in one.iter().zip(&two) {
        assert_eq!(a.events, b.events, "match {}", a.index);
    }
    // The pool is the seed matches' commitments: 4 matches x 10 rounds.
    assert_eq!(pool.by_round.iter().map(Vec::len).sum::<usize>(), 40);
}

#[test]
fn seed_matches_meet_byes_and_later_ones_meet_ghosts() {
    // 200.1h: an empty pool is a visible bye, never a fake fight.
    let l = loaded();
    let ctx = l.ctx();
    let mut engine = Engine::new(&l.catalog, l.rules);
    let seed = play(&ctx, &mut engine, 0, &GhostPool::default());
    let byes = seed.events.iter().filter(|e| matches!(e, Event::Bye { .. })).count();
    assert_eq!(byes, 10);
    let pool = crate::match_runs::ghost_pool(&ctx, 1).expect("pool");
    let later = play(&ctx, &mut engine, 5, &pool);
    let nemesis = later
        .events
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Fight {
                    stage: Stage::Nemesis,
                    ..
                }
            )
        })
        .count();
    assert_eq!(nemesis, 10);
    // Replayable: the same index and pool give the same log.
    assert_eq!(play(&ctx, &mut engine, 5, &pool).events, later.events);
}

#[test]
fn the_planner_buys_back_what_it_sold_without_reading_past_the_offers() {
    // The planner weighs buyback items beside the offers (200.1f). A
    // candidate from the buyback list must be the item at its place in that
    // list, not in the offers: read from the offers, an index past their
    // end stopped whole runs of planner matches.
    let mut l = loaded();
    l.suite.policies = vec![Policy::Planner];
    let ctx = l.ctx();
    let mut engine = Engine::new(&l.catalog, l.rules);
    let mut bought_back = 0;
    for index in 0..64 {
        let m = play(&ctx, &mut engine, index, &GhostPool::default());
        for e in &m.events {
            if let Event::Bought {
                buyback: true,
                from_seat,
                gold,
                dividend,
                ..
            } = e
            {
                bought_back += 1;
                // Solo: the seller is the player itself, and it paid.
                assert_eq!(*from_seat, Some(0), "match {index}");
                assert!(gold + dividend > 0, "match {index}: a buyback is paid for");
            }
        }
        let byes = m.events.iter().filter(|e| matches!(e, Event::Bye { .. })).count();
        assert_eq!(byes, 10, "match {index} plays every round");
    }
    assert!(bought_back > 0, "the planner bought something back in 64 matches");
}

#[test]
fn each_policy_names_its_own_bot() {
    // The suite's names are the bots' names, and the two bots answer a
    // one-option claim alike (no trial fights for a single option).
    for (k, name) in Policy::NAMES.iter().enumerate() {
        let policy = Policy::parse(name).expect("a shipped name parses");
        assert_eq!(policy.name(), *name);
        assert_eq!(policy as usize, k);
    }
    let l = loaded();
    let ctx = l.ctx();
    let mut engine = Engine::new(&l.catalog, l.rules);
    let boss = boss_entrant(&ctx, &ctx.suite.bosses[0], 1);
    let mut p = Player::new(&ctx, 0, 0);
    for policy in [Policy::Greedy, Policy::Planner] {
        let planned = p.planned;
        assert_eq!(policy.bot().claim(&ctx, &mut engine, &mut p, 1, 0, &[&boss]), 0);
        assert_eq!(p.planned, planned, "{}: one option needs no trial", policy.name());
    }
}

/// Each seat's wallet rebuilt from the match log alone, checked after every
/// change: never below zero.
fn wallets_from_log(index: u64, events: &[Event], seats: usize) -> Vec<crate::scrip::Wallet> {
    let mut w = vec![crate::scrip::Wallet::default(); seats];
    for e in events {
        let (seat, gold, dividend, profit) = match *e {
            Event::Seated {
                seat,
                gold,
                dividend,
                profit,
            } => {
                w[usize::from(seat)] = crate::scrip::Wallet { gold, dividend, profit };
                continue;
            }
            Event::Bought {
                seat,
                gold,
                dividend,
                profit,
                ..
            } => (seat, -gold, -dividend, profit),
            Event::Rerolled {
                seat, gold, dividend, ..
            }
            | Event::BoughtXp {
                seat, gold, dividend, ..
            } => (seat, -gold, -dividend, dividend),
            Event::Sold {
                seat, gold, dividend, ..
            } => (seat, gold, dividend, 0),
            Event::Reward { seat, gold, .. } | Event::Vault { seat, gold, .. } => (seat, gold, 0, 0),
            Event::Fight { seat, dividend, .. } => (seat, 0, dividend, 0),
            _ => continue,
        };
        let x = &mut w[usize::from(seat)];
        x.gold += gold;
        x.dividend += dividend;
        x.profit += profit;
        assert!(
            x.gold >= 0 && x.dividend >= 0 && x.profit >= 0,
            "match {index}, seat {seat}: the wallet rebuilt from the log goes negative at {e:?}"
        );
    }
    w
}

#[test]
fn every_wallet_rebuilds_from_the_log() {
    // Every change of Gold, Dividend and Profit is an event with its
    // amount: purchases, rerolls and XP (paid Dividend first, 800.15c),
    // sales (900.36c), rewards (a Gold signature included), the vault, and
    // the Dividend a fight banks (800.15b, 800.61c). Rebuilt from the log,
    // every wallet equals the match's own at the end, for every bot, solo
    // and in a party.
    let mut l = loaded();
    let mut checked = 0;
    let mut seen = [0u32; 5];
    for (policy, players, matches) in [
        (Policy::Greedy, 1, 1000),
        (Policy::Greedy, 3, 300),
        (Policy::Planner, 1, 100),
        (Policy::Planner, 3, 30),
    ] {
        l.suite.policies = vec![policy];
        l.suite.players = players;
        let ctx = l.ctx();
        let mut engine = Engine::new(&l.catalog, l.rules);
        for index in 0..matches {
            let m = play(&ctx, &mut engine, index, &GhostPool::default());
            let rebuilt = wallets_from_log(index, &m.events, usize::from(players));
            assert_eq!(
                rebuilt, m.final_wallets,
                "match {index} ({policy:?}, {players} players)"
            );
            checked += 1;
            for e in &m.events {
                let kind = match e {
                    Event::Vault { .. } => 0,
                    Event::Fight { dividend, .. } if *dividend > 0 => 1,
                    Event::Rerolled { dividend, .. } | Event::BoughtXp { dividend, .. } if *dividend > 0 => 2,
                    Event::Reward { signature: Some(s), .. } if s.ends_with("gold") => 3,
                    Event::Sold { .. } => 4,
                    _ => continue,
                };
                seen[kind] += 1;
            }
        }
    }
    assert_eq!(checked, 1430);
    // Each kind of change the log must carry happened, so each was checked.
    assert!(
        seen.iter().all(|&n| n > 0),
        "vault, banked, Dividend-paid, Gold signature, sale: {seen:?}"
    );
}
