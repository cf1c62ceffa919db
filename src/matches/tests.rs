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
