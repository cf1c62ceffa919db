//! A Riftbound showdown of the default suite: one worker's showdown reused
//! across showdowns as the batch runner does, its log off (issue 30's
//! target: 50,000 showdowns a second on one core).

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use gridsim::riftbound::showdown::Showdown;
use gridsim::riftbound_runs::LoadedRiftbound;

fn default_suite_showdown(c: &mut Criterion) {
    let loaded = LoadedRiftbound::load(Path::new("configs/riftbound/suites/default.toml"), None).expect("suite");
    let suite = &loaded.suite;
    let mut showdown = Showdown::new(&loaded.catalog, false);
    let mut id = 0u64;
    c.bench_function("riftbound_default_suite_showdown", |b| {
        b.iter(|| {
            id += 1;
            let (p, mut rng) = suite.pairing(id);
            let (a, d) = (&suite.lanes[p.left as usize], &suite.lanes[p.right as usize]);
            std::hint::black_box(showdown.play(a, d, suite.policy, &mut rng))
        })
    });
}

criterion_group!(benches, default_suite_showdown);
criterion_main!(benches);
