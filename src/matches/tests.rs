use std::path::{Path, PathBuf};

use super::*;

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
