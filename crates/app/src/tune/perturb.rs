//! The perturbation run: the suite's boards paired under a seed of the
//! tune's own, every fight fought twice on its stream, with each side's
//! levers moved up by their signed steps and then down
//! (`lever_effects.rs`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::levers::Levers;
use gridsim_analysis::lever_effects::{PerturbedFight, sign};
use gridsim_engine::Engine;
use gridsim_model::catalog::{Catalog, StatLine};
use gridsim_model::settings::Rules;
use gridsim_model::spec::Side;
use gridsim_sim::suite::Suite;

/// Fights per part: the unit of work a worker takes.
const PART: u64 = 4096;

/// Fights `pairs` pairs of fights of `suite` (whose master seed is the
/// perturbation's) and returns each fight's boards and outcome
/// differences, in fight order: the same at any thread count.
pub fn run(
    suite: &Suite,
    catalog: &Catalog,
    rules: &Rules,
    levers: &Levers,
    pairs: u64,
    threads: usize,
    progress: &(dyn Fn(String) + Sync),
) -> Result<Vec<PerturbedFight>, String> {
    let driver = gridsim_data::batch::Driver::new(threads)?;
    let parts: Vec<u64> = (0..pairs.div_ceil(PART)).collect();
    let done = AtomicU64::new(0);
    let reported = AtomicU64::new(0);
    let started = Instant::now();
    let seed = suite.master_seed;
    let results: Vec<Vec<PerturbedFight>> = driver.map(
        &parts,
        || {
            (
                Engine::new(catalog, *rules),
                [Vec::new(), Vec::new()],
                [Vec::new(), Vec::new()],
            )
        },
        |(engine, shifts, rune_shifts), &part| {
            let first = part * PART;
            let count = PART.min(pairs - first);
            let mut out = Vec::with_capacity(count as usize);
            for i in first..first + count {
                let (l, r) = suite.pairing(i);
                let boards = [&suite.boards[l as usize], &suite.boards[r as usize]];
                let mut won = [[false; 2]; 2];
                for (k, direction) in [1, -1].into_iter().enumerate() {
                    for (side, (shift, runes)) in shifts.iter_mut().zip(rune_shifts.iter_mut()).enumerate() {
                        let draw = Draw {
                            seed,
                            fight: i,
                            side,
                            direction,
                        };
                        fill_shifts(shift, runes, boards[side], levers, &draw);
                    }
                    let o = engine.fight_shifted(
                        boards[0],
                        boards[1],
                        [&shifts[0], &shifts[1]],
                        [&rune_shifts[0], &rune_shifts[1]],
                        suite.stream(i),
                    );
                    won[k] = [o.winner == Some(Side::Left), o.winner == Some(Side::Right)];
                }
                out.push(PerturbedFight {
                    left: l,
                    right: r,
                    left_diff: i8::from(won[0][0]) - i8::from(won[1][0]),
                    right_diff: i8::from(won[0][1]) - i8::from(won[1][1]),
                });
            }
            let now = done.fetch_add(count, Ordering::Relaxed) + count;
            // A line about every tenth of the run.
            let tenth = (now * 10 / pairs.max(1)).min(10);
            if reported.fetch_max(tenth, Ordering::Relaxed) < tenth {
                progress(format!(
                    "perturbation run: {now} of {pairs} fight pairs, {:.0} s",
                    started.elapsed().as_secs_f64()
                ));
            }
            out
        },
    )?;
    Ok(results.into_iter().flatten().collect())
}

/// Which half of which fight's side the shifts are drawn for.
struct Draw {
    seed: u64,
    fight: u64,
    side: usize,
    /// +1 for the fight's first half, -1 for its second.
    direction: i32,
}

impl Draw {
    /// Lever `l`'s move: its sign times its step, in this direction.
    fn shift(&self, levers: &Levers, l: u32) -> i32 {
        self.direction * sign(self.seed, self.fight, self.side, l) as i32 * levers.list[l as usize].step
    }
}

/// Each unit's shift on `board` (every lever of its card and tier moved)
/// into `out`, and each board rune's (its `amounts` lever) into `runes`.
fn fill_shifts(
    out: &mut Vec<StatLine>,
    runes: &mut Vec<i32>,
    board: &gridsim_model::spec::BoardSpec,
    levers: &Levers,
    draw: &Draw,
) {
    out.clear();
    for p in &board.units {
        let mut shift = StatLine::default();
        for (l, field) in levers.of_unit(p.card, p.tier) {
            *field.of_mut(&mut shift) += draw.shift(levers, l);
        }
        out.push(shift);
    }
    runes.clear();
    for p in &board.runes {
        runes.push(levers.of_rune(p.rune, p.tier).map_or(0, |l| draw.shift(levers, l)));
    }
}
