//! A whole Riftbound game of the games suite: one worker's game reused
//! across games as the batch runner does, its log off (issue 51's target:
//! 10,000 games a second on one core with the bots that do not look
//! ahead, the suite's roster).

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use gridsim::riftbound_game::Game;
use gridsim::riftbound_runs::LoadedGames;

fn games_suite_game(c: &mut Criterion) {
    let loaded = LoadedGames::load(Path::new("configs/riftbound/suites/games.toml"), None).expect("suite");
    let suite = &loaded.suite;
    let mut game = Game::new(&loaded.catalog, suite.settings, false);
    let mut id = 0u64;
    c.bench_function("riftbound_games_suite_game", |b| {
        b.iter(|| {
            id += 1;
            let (p, rng) = suite.pairing(id);
            let decks = [suite.deck(&p, 0), suite.deck(&p, 1)];
            std::hint::black_box(game.play(decks, p.bots, rng))
        })
    });
}

criterion_group!(benches, games_suite_game);
criterion_main!(benches);
