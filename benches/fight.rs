//! A standard fight: the two sample boards (eight units against seven), one worker
//! scratch reused across fights as the batch runner does.

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use gridsim::config;
use gridsim::engine::{Engine, FightRng};

fn standard_fight(c: &mut Criterion) {
    let rules = config::load_rules(Path::new("configs/rules.toml")).expect("rules");
    let catalog =
        config::load_catalog(&[PathBuf::from("configs/cards"), PathBuf::from("configs/runes")]).expect("catalog");
    let left = config::load_board(Path::new("configs/boards/tidal_execution.toml"), &catalog, &rules).expect("left");
    let right = config::load_board(Path::new("configs/boards/wildfire.toml"), &catalog, &rules).expect("right");
    let mut engine = Engine::new(&catalog, rules);
    let mut index = 0u64;
    c.bench_function("standard_fight_sample_boards", |b| {
        b.iter(|| {
            index += 1;
            std::hint::black_box(engine.fight(&left, &right, FightRng::for_fight(1, index)))
        })
    });
}

criterion_group!(benches, standard_fight);
criterion_main!(benches);
