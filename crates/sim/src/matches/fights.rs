//! A fight inside a match: the boards as they enter it with their carried
//! state, the engine fight, what persists after it, and its log lines.

use super::*;
use gridsim_engine::continuation::SideEnd;
use gridsim_engine::{FightStart, UnitGroup};

/// A side as it enters a fresh battle: its board and each unit's
/// starting state (what persists, 200.3; a boss grown by its round, 200.1d).
#[derive(Debug, Clone, Default)]
pub struct Carried {
    pub board: BoardSpec,
    pub states: Vec<InitialState>,
    pub dividend: i32,
    pub profit: i32,
}

impl Carried {
    /// A player's board as it enters a fight of its own: nothing carried
    /// but its Scrip and kept progress.
    pub(super) fn of(p: &Player) -> Carried {
        Carried::fresh(
            p.board(format!("seat {}", p.seat)),
            p.wallet.dividend,
            p.wallet.profit,
            &p.kept(),
        )
    }

    /// A fresh board: nothing carried (200.3c).
    pub(super) fn fresh(board: BoardSpec, dividend: i32, profit: i32, kept: &[Kept]) -> Carried {
        let n = board.units.len();
        Carried {
            board,
            states: (0..n)
                .map(|i| InitialState {
                    quest: kept.get(i).map(|k| k.quest).filter(|&q| q > 0),
                    counter: kept.get(i).and_then(|k| k.counter),
                    ..InitialState::default()
                })
                .collect(),
            dividend,
            profit,
        }
    }
}

/// A fight's result with both sides' end states.
pub(super) struct Fought {
    pub(super) outcome: Outcome,
    /// What the left side's units carry on, by unit.
    pub(super) kept: Vec<Kept>,
    /// The Dividend the player's side gained: authored gains and what its
    /// Hubs settled (800.15b, 800.61c).
    pub(super) dividend_gained: i32,
    pub(super) survivors: [u32; 2],
    /// Both sides as the fight left them: what a rescue continues (200.2c).
    pub(super) end: [SideEnd; 2],
}

/// One match fight: both sides placed, the round and Scrip set, the
/// carried states applied, then the battle.
pub(super) fn fight(
    ctx: &MatchCtx,
    engine: &mut Engine,
    round: u8,
    left: &Carried,
    right: &Carried,
    rng: FightRng,
) -> Fought {
    let groups = [
        UnitGroup {
            side: Side::Left,
            units: &left.board.units,
            states: &left.states,
            shifts: &[],
        },
        UnitGroup {
            side: Side::Right,
            units: &right.board.units,
            states: &right.states,
            shifts: &[],
        },
    ];
    let start = FightStart {
        round,
        scrip: [[left.dividend, left.profit], [right.dividend, right.profit]],
        ..FightStart::boards(&groups, &left.board, &right.board)
    };
    // Match boards are built within a side's cap, so every unit fits.
    let placed = engine.begin(&start, rng);
    debug_assert!(placed.is_ok(), "a match board did not fit: {placed:?}");
    play_out(ctx, engine)
}

/// A rescue fight (200.2c): `left`, the rescuer as its last fight left it,
/// continues against `right`, the enemy as it stood when the teammate
/// fell, with no battle-start pass.
pub(super) fn rescue_fight(
    ctx: &MatchCtx,
    engine: &mut Engine,
    round: u8,
    left: &SideEnd,
    right: &SideEnd,
    rng: FightRng,
) -> Fought {
    // Both sides come out of fights of match boards, so they fit together.
    let placed = engine.resume([left, right], round, rng);
    debug_assert!(placed.is_ok(), "a rescue did not fit: {placed:?}");
    play_out(ctx, engine)
}

/// Runs a set-up fight to its end and reads what it leaves.
fn play_out(ctx: &MatchCtx, engine: &mut Engine) -> Fought {
    engine.run_until(ctx.rules.overtime.cap_ms);
    let outcome = engine.finish();
    #[cfg(debug_assertions)]
    if let Err(broken) = engine.check_invariants() {
        panic!("engine invariant broken in a match fight: {broken}");
    }
    let units = engine.units();
    let n_left = units.indices().take_while(|&i| units.side[i] == Side::Left).count();
    Fought {
        outcome,
        kept: (0..n_left)
            .map(|i| {
                let kept = engine.persisting_state(UnitIdx(i as u8));
                Kept {
                    quest: kept.quest.unwrap_or(0),
                    counter: kept.counter,
                }
            })
            .collect(),
        dividend_gained: engine.dividend_gained(Side::Left),
        survivors: [
            engine.side_summary(Side::Left).survivors,
            engine.side_summary(Side::Right).survivors,
        ],
        end: [engine.side_end(Side::Left), engine.side_end(Side::Right)],
    }
}

pub(super) fn winner_name(o: &Outcome) -> &'static str {
    match o.winner {
        Some(Side::Left) => "player",
        Some(Side::Right) => "opponent",
        None => "draw",
    }
}

/// Takes a fight's Quest progress, named counters and settled Dividend
/// into the player (200.3a, 200.3b): the fight's left units are the
/// player's, in order, in its battles and its rescues alike.
pub(super) fn keep_progress(p: &mut Player, f: &Fought) {
    for (o, &k) in p.units.iter_mut().zip(&f.kept) {
        o.kept = k;
    }
    p.wallet.bank(f.dividend_gained);
}

#[allow(clippy::too_many_arguments)]
pub(super) fn log_fight(
    log: &mut Vec<Event>,
    round: u8,
    seat: u8,
    stage: Stage,
    opponent: &str,
    rescued: Option<u8>,
    stream: u64,
    f: &Fought,
    carried_units: u32,
    opponent_forge_cores: &[String],
    board: FoughtBoard,
) {
    log.push(Event::Fight {
        round,
        seat,
        stage,
        opponent: opponent.to_string(),
        rescued,
        stream,
        winner: winner_name(&f.outcome),
        reason: f.outcome.reason.name(),
        end_ms: f.outcome.end_ms,
        survivors: f.survivors[0],
        opponent_survivors: f.survivors[1],
        carried_units,
        opponent_forge_cores: opponent_forge_cores.to_vec(),
        dividend: f.dividend_gained,
        board,
    });
}

/// One of a probe's fights (docs/matches.md, "Probes"): `me` against
/// `opponent` on the real fight's stream `s`, so that the item is all that
/// differs between the probe's boards; the winner's name. Nothing is kept.
pub(super) fn probe_fight(
    ctx: &MatchCtx,
    engine: &mut Engine,
    round: u8,
    opponent: &Carried,
    s: u64,
    me: &Carried,
) -> &'static str {
    let f = fight(
        ctx,
        engine,
        round,
        me,
        opponent,
        FightRng::for_fight(ctx.suite.master_seed, s),
    );
    winner_name(&f.outcome)
}
