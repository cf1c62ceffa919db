//! A batch run's showdowns and games allocate nothing (issues 30 and 51):
//! after the first part, which sizes the worker's buffers, a worker plays
//! showdown after showdown, and game after game, without one allocation,
//! counted by this test binary's own allocator. One test, since the count
//! is the whole binary's and tests run side by side.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use gridsim::game_rows;
use gridsim::riftbound::showdown::Showdown;
use gridsim::riftbound_game::Game;
use gridsim::riftbound_runs::LoadedGames;
use gridsim::riftbound_runs::LoadedRiftbound;
use gridsim::showdown_rows::play;
use gridsim::sink::ShowdownColumns;

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn a_worker_plays_showdowns_and_games_without_allocating() {
    let loaded = LoadedRiftbound::load(Path::new("configs/riftbound/suites/default.toml"), None).expect("suite");
    let mut showdown = Showdown::new(&loaded.catalog, false);
    let mut rows = ShowdownColumns::default();
    // The first part sizes the row buffers, as a worker's first part does.
    play(&mut showdown, &loaded.suite, 0, 4096, &mut rows);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    play(&mut showdown, &loaded.suite, 4096, 4096, &mut rows);
    let during = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(during, 0, "4,096 showdowns allocated {during} times");
    assert_eq!(rows.fight_id.len(), 4096);
    // The log is what a single showdown keeps; on, it allocates.
    let mut logged = Showdown::new(&loaded.catalog, true);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    play(&mut logged, &loaded.suite, 0, 16, &mut rows);
    assert!(ALLOCATIONS.load(Ordering::Relaxed) > before, "the counter counts");

    let games = LoadedGames::load(Path::new("configs/riftbound/suites/games.toml"), None).expect("games suite");
    let mut game = Game::new(&games.catalog, games.suite.settings, false);
    let mut rows = game_rows::GameRows::default();
    // A first part twice the second's sizes the buffers of the card events,
    // whose count varies from game to game.
    game_rows::play(&mut game, &games.suite, 0, 4096, &mut rows);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    game_rows::play(&mut game, &games.suite, 4096, 2048, &mut rows);
    let during = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(during, 0, "2,048 games allocated {during} times");
    assert_eq!(rows.games.fight_id.len(), 2048);
    assert!(
        rows.cards.fight_id.len() > 2048 * 8,
        "every game keeps at least its two opening hands"
    );
}
