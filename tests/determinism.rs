//! The same seed gives the same fight, whatever the engine did before; and
//! every fight keeps the engine's invariants and ends by the cap.

use std::path::{Path, PathBuf};

use gridsim::ability::RuneBoard;
use gridsim::catalog::{CardId, Catalog, ResonanceId, RuneId};
use gridsim::config;
use gridsim::engine::{Engine, EventKind, FightRng, FightStart, UnitGroup};
use gridsim::output;
use gridsim::settings::Rules;
use gridsim::spec::InitialState;
use gridsim::spec::{BoardSpec, Placement, RunePlacement, Side};

fn setup() -> (Catalog, Rules, BoardSpec, BoardSpec) {
    let rules = config::load_rules(Path::new("configs/rules.toml")).expect("rules");
    let catalog =
        config::load_catalog(&[PathBuf::from("configs/cards"), PathBuf::from("configs/runes")]).expect("catalog");
    let l = config::load_board(Path::new("configs/boards/tidal_execution.toml"), &catalog, &rules).expect("left");
    let r = config::load_board(Path::new("configs/boards/wildfire.toml"), &catalog, &rules).expect("right");
    (catalog, rules, l, r)
}

fn report_json(catalog: &Catalog, rules: Rules, l: &BoardSpec, r: &BoardSpec, seed: u64) -> String {
    let mut e = Engine::new(catalog, rules);
    e.enable_log();
    e.fight(l, r, FightRng::for_fight(seed, 0));
    serde_json::to_string(&output::fight_report(&mut e, &l.name, &r.name, seed, 0, true)).expect("json")
}

#[test]
fn same_seed_same_bytes() {
    let (c, rules, l, r) = setup();
    for seed in [1, 2, 99] {
        assert_eq!(
            report_json(&c, rules, &l, &r, seed),
            report_json(&c, rules, &l, &r, seed)
        );
    }
}

#[test]
fn a_reused_engine_matches_a_fresh_one() {
    // The worker scratch is reset between fights: no state may leak.
    let (c, rules, l, r) = setup();
    let mut reused = Engine::new(&c, rules);
    for seed in 0..50u64 {
        let a = reused.fight(&l, &r, FightRng::for_fight(seed, seed));
        let mut fresh = Engine::new(&c, rules);
        let b = fresh.fight(&l, &r, FightRng::for_fight(seed, seed));
        assert_eq!(a, b, "seed {seed}");
    }
}

/// A small deterministic generator of random legal boards.
fn random_board(catalog: &Catalog, rules: &Rules, rng: &mut FightRng) -> BoardSpec {
    let mut units = Vec::new();
    let mut taken = vec![false; (rules.board.columns * rules.board.rows) as usize];
    for _ in 0..12 {
        let card = CardId(rng.below(catalog.cards.len() as u32) as u16);
        let c = catalog.card(card);
        // A boss's phase is installed by the boss, never placed (800.48a).
        if c.phase_of.is_some() {
            continue;
        }
        let size = i32::from(c.footprint.side());
        if size > rules.board.columns || size > rules.board.rows {
            continue;
        }
        let col = rng.below((rules.board.columns - size + 1) as u32) as i32;
        let row = rng.below((rules.board.rows - size + 1) as u32) as i32;
        let cells: Vec<usize> = (0..size)
            .flat_map(|dx| (0..size).map(move |dy| ((row + dy) * rules.board.columns + col + dx) as usize))
            .collect();
        if cells.iter().any(|&i| taken[i]) {
            continue;
        }
        cells.iter().for_each(|&i| taken[i] = true);
        let tier = 1 + rng.below(u32::from(c.tiers())) as u8;
        units.push(Placement {
            card,
            tier,
            column: col as u8,
            row: row as u8,
            combined: false,
        });
    }
    // Runes on both rune boards and a resonance, so every rune effect
    // meets the consistency checks too.
    let mut runes: Vec<RunePlacement> = Vec::new();
    let placeable: Vec<RuneId> = (0..catalog.runes.len() as u16)
        .map(RuneId)
        .filter(|&r| !catalog.rune(r).innate_only)
        .collect();
    for (board, cells) in [
        (RuneBoard::Rows, rules.runes.row_board_cells),
        (RuneBoard::Columns, rules.runes.column_board_cells),
    ] {
        for _ in 0..3 {
            let rune = placeable[rng.below(placeable.len() as u32) as usize];
            let width = rules.runes.cells_per_rune;
            let cell = rng.below((cells - width + 1) as u32) as i32;
            if runes
                .iter()
                .any(|o| o.board == board && (i32::from(o.cell) - cell).abs() < width)
            {
                continue;
            }
            runes.push(RunePlacement {
                rune,
                tier: 1 + rng.below(u32::from(catalog.rune(rune).tiers())) as u8,
                board,
                cell: cell as u8,
            });
        }
    }
    let pick = rng.below(catalog.resonances.len() as u32 + 1) as usize;
    BoardSpec {
        name: "random".into(),
        units,
        runes,
        resonance: (pick < catalog.resonances.len()).then_some(ResonanceId(pick as u16)),
        ..Default::default()
    }
}

#[test]
fn random_boards_keep_invariants_and_end_by_the_cap() {
    let (c, rules, _, _) = setup();
    let mut boards_rng = FightRng::for_fight(7, 7);
    let mut e = Engine::new(&c, rules);
    e.enable_log();
    for seed in 0..300u64 {
        let l = random_board(&c, &rules, &mut boards_rng);
        let r = random_board(&c, &rules, &mut boards_rng);
        let o = e.fight(&l, &r, FightRng::for_fight(seed, 0));
        // 500.4: the dead never act: no activation of a unit between its
        // death and a revival (the event log holds every event of a fight
        // this size).
        assert_eq!(e.log.dropped, 0, "seed {seed}: the log overflowed");
        let mut dead = 0u64;
        for ev in &e.log.events {
            match ev.kind {
                EventKind::Death => dead |= 1 << ev.unit.i(),
                // 500.9: a revived unit is alive again and may act.
                EventKind::Revived => dead &= !(1 << ev.unit.i()),
                EventKind::Activate => {
                    assert_eq!(
                        dead & (1 << ev.unit.i()),
                        0,
                        "seed {seed}: a dead unit acted at {} ms",
                        ev.time_ms
                    )
                }
                _ => {}
            }
        }
        // 900.42d: every fight ends by the cap.
        assert!(o.end_ms <= rules.overtime.cap_ms, "seed {seed}: ended at {}", o.end_ms);
        // The engine's own check: Vitality within 0..=maximum, the dead at
        // 0, no negative status, Burn under its cap (900.33e), Crush totals,
        // standing counts.
        if let Err(why) = e.check_invariants() {
            panic!("seed {seed}: {why}");
        }
    }
}

#[test]
fn starting_state_is_set_through_the_engine_and_only_before_the_battle() {
    let (c, rules, l, r) = setup();
    let mut e = Engine::new(&c, rules);
    e.reset(FightRng::for_fight(5, 0));
    let left: Vec<_> = l.units.iter().filter_map(|p| e.add_unit(Side::Left, *p)).collect();
    for p in &r.units {
        e.add_unit(Side::Right, *p);
    }
    // 300.2: a unit one point short of the threshold activates within its
    // first millisecond of charging; the cached clock must see the charge.
    let primed = left[0];
    let state = InitialState {
        charge: Some(rules.clock.charge_to_activate - 1),
        ..InitialState::default()
    };
    e.set_initial_state(primed, &state).expect("before the battle");
    e.start_battle();
    assert!(e.battle_started());
    assert!(e.set_initial_state(primed, &state).is_err(), "after the battle started");
    e.run_until(1);
    assert_eq!(
        e.units().activations[primed.i()],
        1,
        "the primed unit activated at 1 ms"
    );
}

#[test]
fn every_fight_begins_by_one_path_in_the_order_of_its_groups() {
    // A scenario lists its units in its own order, sides interleaved; the
    // match and the run list a board per side. `Engine::begin` places them
    // group by group and sets each group's states on its first units, so a
    // state can never land on another side's unit.
    let (c, rules, l, r) = setup();
    let mut e = Engine::new(&c, rules);
    let state = InitialState {
        shield: Some(7),
        ..InitialState::default()
    };
    let groups = [
        UnitGroup {
            side: Side::Right,
            units: &r.units[..1],
            states: std::slice::from_ref(&state),
            shifts: &[],
        },
        UnitGroup::board(Side::Left, &l),
    ];
    let start = FightStart::boards(&groups, &l, &r);
    e.begin(&start, FightRng::for_fight(1, 0)).expect("both fit");
    assert_eq!(e.units().count, 1 + l.units.len());
    assert_eq!(e.units().side[0], Side::Right);
    assert_eq!(e.units().shield[0], 7, "the right unit's own state");
    assert!((1..=l.units.len()).all(|i| e.units().side[i] == Side::Left));
    assert!(e.battle_started());
    // More units than a fight holds: refused with a reason, never a panic,
    // and the battle still starts with those that fit.
    let many = vec![l.units[0]; gridsim::limits::MAX_UNITS + 1];
    let too_many = [UnitGroup {
        side: Side::Left,
        units: &many,
        states: &[],
        shifts: &[],
    }];
    let why = e
        .begin(&FightStart::boards(&too_many, &l, &r), FightRng::for_fight(1, 0))
        .expect_err("too many units");
    assert_eq!(why, gridsim::engine::StartError::TooManyUnits, "{why}");
    assert!(why.to_string().contains("units in one fight"), "{why}");
    assert_eq!(e.units().count, gridsim::limits::MAX_UNITS);
}

#[test]
fn a_threshold_near_the_integer_limit_still_ends_by_the_cap() {
    // 300.2 with a charge threshold of i32::MAX: the time to a full charge
    // is worked out in 64 bits, so it neither overflows nor stalls the
    // clock (a wrapped, negative time once kept `run_until` at one instant).
    let (c, mut rules, l, r) = setup();
    rules.clock.charge_to_activate = i32::MAX;
    let mut e = Engine::new(&c, rules);
    let o = e.fight(&l, &r, FightRng::for_fight(3, 0));
    assert!(o.end_ms <= rules.overtime.cap_ms, "ended at {}", o.end_ms);
}

/// A fight whose units are shifted (`Engine::fight_shifted`, `gridsim
/// tune`'s perturbations) is the fight of a catalog that prints those
/// numbers: the same winner, end and log, event for event. The misreading
/// this would catch: a shift applied after the battle-start pass, or to
/// Vitality but not to the maximum it is measured against, or to a copy of
/// the card at another tier.
#[test]
fn a_shifted_fight_is_the_fight_of_a_catalog_that_prints_the_shift() {
    let (catalog, rules, l, r) = setup();
    let shift = gridsim::catalog::StatLine {
        power: 7,
        vitality: -11,
        armor: 3,
        ..Default::default()
    };
    // The card and tier of the left board's first unit, changed in a copy
    // of the catalog; every unit of that card at that tier shifted.
    let first = l.units[0];
    let mut printed = catalog.clone();
    let line = &mut printed.cards[usize::from(first.card.0)].stats[usize::from(first.tier) - 1];
    *line = line.shifted(shift);
    let shifts = |b: &BoardSpec| -> Vec<gridsim::catalog::StatLine> {
        b.units
            .iter()
            .map(|p| {
                if p.card == first.card && p.tier == first.tier {
                    shift
                } else {
                    Default::default()
                }
            })
            .collect()
    };
    let (ls, rs) = (shifts(&l), shifts(&r));
    let pair = Pair {
        catalog: &catalog,
        printed: &printed,
        rules,
        boards: [&l, &r],
    };
    assert!(
        pair.fights_as_printed([&ls, &rs], [&[], &[]]),
        "the shift changes some fight"
    );
}

/// A catalog and a copy that prints some shift, and two boards.
struct Pair<'a> {
    catalog: &'a Catalog,
    printed: &'a Catalog,
    rules: Rules,
    boards: [&'a BoardSpec; 2],
}

impl Pair<'_> {
    /// Forty seeds: the fight on `catalog` with the shifts is the fight on
    /// `printed`, outcome and log, and with no shift the fight as printed.
    /// Whether any shifted fight differs from the unshifted one.
    fn fights_as_printed(&self, units: [&[gridsim::catalog::StatLine]; 2], runes: [&[i32]; 2]) -> bool {
        let [l, r] = self.boards;
        let log = |e: &Engine| format!("{:?}", e.log.events);
        let mut differs = false;
        for seed in 0..40 {
            let mut a = Engine::new(self.catalog, self.rules);
            a.enable_log();
            let shifted = a.fight_shifted(l, r, units, runes, FightRng::for_fight(seed, 0));
            let mut b = Engine::new(self.printed, self.rules);
            b.enable_log();
            let reprinted = b.fight(l, r, FightRng::for_fight(seed, 0));
            assert_eq!(shifted, reprinted, "seed {seed}");
            assert_eq!(log(&a), log(&b), "seed {seed}");
            let shifted_log = log(&a);
            let plain = a.fight_shifted(l, r, [&[], &[]], [&[], &[]], FightRng::for_fight(seed, 0));
            let mut c = Engine::new(self.catalog, self.rules);
            c.enable_log();
            assert_eq!(plain, c.fight(l, r, FightRng::for_fight(seed, 0)), "seed {seed}");
            differs |= log(&c) != shifted_log;
        }
        differs
    }
}

/// A board rune whose amounts are shifted (`gridsim tune`'s rune levers)
/// fights as a catalog whose rune prints the scaled amounts at that tier.
/// The misreading this would catch: the shift applied after potency
/// halves the amount (rounding twice), or to a rune of the other side.
#[test]
fn a_rune_shift_is_the_fight_of_a_catalog_that_prints_it() {
    let (catalog, rules, _, r) = setup();
    let l = config::load_board(Path::new("configs/boards/runed_bastion.toml"), &catalog, &rules).expect("runed");
    let first = l.runes[0];
    let percent = 30;
    let mut printed = catalog.clone();
    for line in &mut printed.runes[usize::from(first.rune.0)].lines {
        let t = usize::from(first.tier) - 1;
        line.amounts[t] = gridsim::catalog::scale_amount(line.amounts[t], percent);
    }
    let shifts = |b: &BoardSpec| -> Vec<i32> {
        b.runes
            .iter()
            .map(|p| {
                if p.rune == first.rune && p.tier == first.tier {
                    percent
                } else {
                    0
                }
            })
            .collect()
    };
    let (ls, rs) = (shifts(&l), shifts(&r));
    let pair = Pair {
        catalog: &catalog,
        printed: &printed,
        rules,
        boards: [&l, &r],
    };
    assert!(
        pair.fights_as_printed([&[], &[]], [&ls, &rs]),
        "the shift changes some fight"
    );
}
