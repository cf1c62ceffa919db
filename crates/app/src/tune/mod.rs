//! `gridsim tune`: the catalog's numbers moved so that every ranked row of
//! the report lies in the band, from one perturbation run
//! (docs/tune.md). The stages, each kept on disk so an interrupted tune
//! resumes from what it finished:
//!
//! 1. the suite on the catalog as it is (`runs/current`): the rows and
//!    their rates now;
//! 2. the perturbation run (`perturbation.bin`): every lever's effect on
//!    every row (`lever_effects.rs`);
//! 3. a proposal (`propose.rs`), written as card files
//!    (`round_K/cards/`) and run on the suite's own seed, the same boards
//!    and fight streams as stage 1 (`runs/round_K`), so each row's change
//!    is paired; repeated from the measured rates while the budget lasts
//!    and rows are outside;
//! 4. the confirmation (`runs/confirmation`): the best round's catalog and
//!    the catalog as it was, both on a fresh seed, paired: the rounds chose
//!    by, and went on from, their own fights' measures, so those overstate
//!    how well the proposal does;
//! 5. the best round's card files, their diff, tune.md and tune.json.

mod edit;
mod levers;
mod output;
mod perturb;
mod propose;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::runs::{self, Argument, Error, RunInputs};
use gridsim_analysis::lever_effects::{self, Design, Effects, PerturbedFight};
use gridsim_analysis::report::{RATE_SECTIONS, RateRow, Report, ReportSettings};
use gridsim_analysis::stats::Band;
use gridsim_data::board_table::BoardTable;
use gridsim_data::dataset;
use gridsim_model::catalog::StatField;

pub use levers::{DEFAULT_LEVERS, Item, Lever, LeverSpec};
pub use output::markdown;

/// What to tune, as asked for on the command line.
#[derive(Debug, Clone)]
pub struct TuneRequest {
    pub rules: PathBuf,
    pub cards: Vec<PathBuf>,
    pub suite: PathBuf,
    /// The band the rows are brought into.
    pub band: Band,
    /// `--levers`: fields or `card.field`, comma-separated.
    pub levers: String,
    /// Fights to spend in all; `None` for [`default_budget`].
    pub budget: Option<u64>,
    /// The perturbation run's seed; `None` derives it from the suite's.
    pub seed: Option<u64>,
    /// Folder that receives the tune's folder.
    pub out: PathBuf,
    pub threads: usize,
    pub progress: bool,
}

/// The rate tables a tune brings into the band (the report's footprints
/// are a consequence of the cards, not a thing a designer tunes).
const SECTIONS: [usize; 4] = [0, 1, 2, 3];

/// A row's rate against the band, with its two-way standard error: the
/// rate against boards without the item (mirrors out, as the report's
/// outliers are judged) when it has the minimum sample, else over all its
/// fights.
fn band_rate(r: &RateRow, s: &ReportSettings) -> (f64, f64) {
    if r.apart_fights >= s.min_sample {
        (r.apart_win_rate, r.apart_se)
    } else {
        (r.win_rate, r.se)
    }
}

/// A ranked row of a report's rate tables.
#[derive(Debug, Clone)]
struct Ranked {
    /// Its table, an index of [`RATE_SECTIONS`].
    section: usize,
    key: String,
    name: String,
    /// Its rate against the band ([`band_rate`]) and that rate's standard
    /// error.
    rate: f64,
    se: f64,
}

/// Every ranked row of a report's tables.
fn ranked_rows(rep: &Report, s: &ReportSettings) -> Vec<Ranked> {
    let tables = rep.rate_tables();
    SECTIONS
        .iter()
        .flat_map(|&t| {
            tables[t].iter().filter(|r| r.ranked).map(move |r| {
                let (rate, se) = band_rate(r, s);
                Ranked {
                    section: t,
                    key: r.key.clone(),
                    name: r.name.clone(),
                    rate,
                    se,
                }
            })
        })
        .collect()
}

/// The budget a tune of `suite_fights`-fight verification runs spends when
/// none is given: a perturbation run of as many fight pairs as the suite
/// has fights, the run as it is, [`DEFAULT_ROUNDS`] rounds of proposals and
/// the confirmation (two runs).
pub fn default_budget(suite_fights: u64, boards: u64) -> u64 {
    2 * suite_fights.max(min_pairs(boards)) + (1 + DEFAULT_ROUNDS + CONFIRMATION_RUNS) * suite_fights
}

/// The confirmation's runs: the catalog as it was and the proposal, both
/// on fights no round has seen.
const CONFIRMATION_RUNS: u64 = 2;

/// The rounds the default budget pays for.
pub const DEFAULT_ROUNDS: u64 = 3;

/// A row's effects are corrected after a round only where the round's
/// prediction moved it at least this far (a fraction: a point), so that
/// the ratio of measured to predicted is not noise over noise.
const SECANT_MIN_MOVE: f64 = 0.01;
/// The correction stays within these factors.
const SECANT_RANGE: (f64, f64) = (0.25, 4.0);

/// The most verified rounds a tune runs: each goes on from the rates the
/// one before measured, with the same effects, and a budget beyond what
/// they need goes to the perturbation run.
pub const MAX_ROUNDS: u64 = 10;

/// The fewest fight pairs the perturbation run needs: each board on a
/// side of about eight fights, so that a row's holders each carry a few
/// signs of every lever.
fn min_pairs(boards: u64) -> u64 {
    (4 * boards).max(10_000)
}

/// How a budget is spent: the perturbation's fight pairs, the rounds of
/// verification after the run as it is, and the confirmation's two runs
/// of `verification_fights` each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Spending {
    pub budget: u64,
    pub perturbation_pairs: u64,
    pub verification_fights: u64,
    pub rounds: u64,
}

/// Splits `budget`: the run as it is and the confirmation's two runs; a
/// perturbation run of as many fight pairs as the suite has fights (at
/// least [`min_pairs`]); as many verified rounds as the rest pays for, up
/// to [`MAX_ROUNDS`]; anything left to the perturbation run. A budget short
/// of one round beside the full perturbation run gives one round and a
/// smaller perturbation run; short of that, an error saying what it needs.
/// A tune stops early when every row is in the band.
pub fn spending(budget: u64, suite_fights: u64, boards: u64) -> Result<Spending, String> {
    let least = min_pairs(boards);
    let fixed = (1 + CONFIRMATION_RUNS) * suite_fights;
    let need = 2 * least + fixed + suite_fights;
    if budget < need {
        return Err(format!(
            " {budget}: too few fights to estimate any effect and verify it; this suite needs at least {need} \
             ({least} fight pairs for the perturbation run, fought twice each, and four runs of its {suite_fights} fights: the catalog as it is, one proposal, and both again on fresh fights to confirm it)"
        ));
    }
    let pairs = suite_fights.max(least);
    let rounds = if budget >= 2 * pairs + fixed + suite_fights {
        ((budget - 2 * pairs - fixed) / suite_fights.max(1)).clamp(1, MAX_ROUNDS)
    } else {
        1
    };
    Ok(Spending {
        budget,
        perturbation_pairs: (budget - fixed - rounds * suite_fights) / 2,
        verification_fights: suite_fights,
        rounds,
    })
}

/// One row before and after.
#[derive(Debug, Clone, Serialize)]
pub struct TunedRow {
    pub section: &'static str,
    pub key: String,
    pub name: String,
    pub before: f64,
    /// What the effects predicted for the catalog verified.
    pub predicted: f64,
    /// Measured on the verification run.
    pub after: f64,
    /// The paired change of the row's rate over all its fights, with its
    /// 95% interval half-width.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_uncertainty: Option<f64>,
    pub in_band: bool,
    /// Why a row left outside could not be brought in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why_not: Option<String>,
}

/// One number changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub item: String,
    /// As `gridsim sweep` names it: `power[1]` is tier 2.
    pub field: String,
    pub tier: u8,
    pub old: i32,
    pub new: i32,
}

/// The rows of a run against the band.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Verified {
    pub in_band: usize,
    pub ranked: usize,
    pub outside_40_60: usize,
}

/// One round: its changes from the catalog as it was, and what the run
/// measured.
#[derive(Debug, Clone, Serialize)]
pub struct Round {
    pub round: usize,
    pub changes: usize,
    pub predicted_in_band: usize,
    pub verified: Verified,
}

/// A finished tune: what tune.json holds.
#[derive(Debug, Clone, Serialize)]
pub struct Tune {
    pub suite: String,
    pub band: [f64; 2],
    pub levers: Vec<String>,
    pub spending: Spending,
    pub perturbation_seed: u64,
    /// The catalog as it was.
    pub before: Verified,
    pub changes: Vec<Change>,
    /// The proposal on the confirmation's fresh fights.
    pub verified: Verified,
    /// The round whose catalog is proposed: the round whose own run had
    /// fewest rows outside 40–60%, then most in the band.
    pub chosen_round: usize,
    pub rounds: Vec<Round>,
    pub rows: Vec<TunedRow>,
    /// Effects read per row on average, and how many stood clear of noise.
    pub effects_estimated: usize,
    pub effects_clear: usize,
    #[serde(skip)]
    pub dir: PathBuf,
}

/// Runs a tune into `out/tune_<suite>_<seed>/`.
pub fn run(req: &TuneRequest) -> Result<Tune, Error> {
    let whole = |m: String| Error::file(&req.out, m);
    let (low, high) = (req.band.low(), req.band.high());
    let say = |m: String| {
        if req.progress {
            eprintln!("{m}");
        }
    };
    let loaded = runs::Loaded::from_files(&req.rules, &req.cards, &req.suite)?;
    let specs = levers::parse(&req.levers, &loaded.catalog)
        .map_err(|m| Error::argument(Argument::Levers, Some(&req.out), m))?;
    let levers = levers::Levers::of(&loaded.catalog, &specs, &loaded.suite.boards);
    if levers.list.is_empty() {
        return Err(Error::argument(
            Argument::Levers,
            Some(&req.out),
            format!(
                " `{}`: no card the suite's boards hold prints these numbers",
                req.levers
            ),
        ));
    }
    let suite = &loaded.suite;
    let boards = suite.boards.len() as u64;
    let budget = req.budget.unwrap_or_else(|| default_budget(suite.fights, boards));
    let spending =
        spending(budget, suite.fights, boards).map_err(|m| Error::argument(Argument::Budget, Some(&req.out), m))?;
    let perturbation_seed = req.seed.unwrap_or(suite.master_seed ^ PERTURBATION_SALT);
    let dir = req.out.join(format!("tune_{}_{perturbation_seed}", suite.name));
    std::fs::create_dir_all(&dir).map_err(|e| whole(format!("{}: cannot create: {e}", dir.display())))?;
    let settings = ReportSettings {
        band_low: low,
        band_high: high,
        ..ReportSettings::default()
    };

    // 1. The catalog as it is.
    say("the suite on the catalog as it is".to_string());
    let current = run_suite(req, &req.cards, &dir.join("runs").join("current"), suite.master_seed)?;
    let base_report = runs::report_of(std::slice::from_ref(&current), &settings).map_err(whole)?;
    let rows = ranked_rows(&base_report, &settings);
    if rows.is_empty() {
        return Err(whole(format!(
            "suite `{}`: its report ranks no row (a row needs {} fights and {} boards holding it), so there is nothing to tune; a tune needs a suite of many boards, such as configs/suites/default.toml",
            suite.name, settings.min_sample, settings.min_boards
        )));
    }
    let before = verify_rows(&rows, low, high);
    say(format!(
        "as it is: {} of {} ranked rows in the band, {} outside 40–60%",
        before.in_band, before.ranked, before.outside_40_60
    ));

    // 2. The perturbation run and the effects.
    let mut perturbed_suite = suite.clone();
    perturbed_suite.master_seed = perturbation_seed;
    let key = perturbation_key(&loaded, &levers.list, perturbation_seed, spending.perturbation_pairs);
    let fights = match read_perturbation(&dir.join(PERTURBATION_FILE), &key) {
        Some(f) => {
            say("perturbation run: finished before, read back".to_string());
            f
        }
        None => {
            let f = perturb::run(
                &perturbed_suite,
                &loaded.catalog,
                &loaded.rules,
                &levers,
                spending.perturbation_pairs,
                gridsim_data::batch::thread_count(req.threads),
                &say,
            )
            .map_err(whole)?;
            write_perturbation(&dir.join(PERTURBATION_FILE), &key, &f).map_err(whole)?;
            f
        }
    };
    let table = BoardTable::from_rows(&gridsim_data::batch::board_rows(suite, &loaded.catalog));
    let row_index: std::collections::HashMap<(usize, &str), u32> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| ((r.section, r.key.as_str()), i as u32))
        .collect();
    let row_index = &row_index;
    let board_rows: Vec<Vec<u32>> = table
        .iter()
        .map(|b| {
            let keys = gridsim_analysis::report::rate_keys(b, &table);
            let mut held: Vec<u32> = SECTIONS
                .iter()
                .flat_map(|&t| {
                    keys[t]
                        .iter()
                        .filter_map(move |k| row_index.get(&(t, k.as_ref())).copied())
                })
                .collect();
            held.sort_unstable();
            held.dedup();
            held
        })
        .collect();
    let steps: Vec<f64> = levers.list.iter().map(|l| f64::from(l.step)).collect();
    let board_levers = levers.of_boards(&suite.boards);
    say("estimating every lever's effect on every row".to_string());
    let effects = lever_effects::estimate(&Design {
        seed: perturbation_seed,
        steps: &steps,
        board_levers: &board_levers,
        board_rows: &board_rows,
        rows: rows.len(),
        fights: &fights,
    });
    let effects_clear = (0..rows.len())
        .flat_map(|r| (0..levers.list.len()).map(move |l| (r, l)))
        .filter(|&(r, l)| propose::clear(&effects, r, l, levers.list[l].field))
        .count();

    // 3. Rounds of proposals, each verified on the suite's own fights.
    let margin = ((high - low) * 0.1).min(0.01);
    let files = runs::read_card_files(&req.cards)?;
    let mut total = vec![0i32; levers.list.len()];
    let mut rates: Vec<f64> = rows.iter().map(|r| r.rate).collect();
    let noise: Vec<f64> = rows.iter().map(|r| r.se).collect();
    let mut row_scale = vec![1.0; rows.len()];
    let ranges: Vec<(i32, i32)> = levers.list.iter().map(|l| propose::range(l.field, l.value)).collect();
    let base = rates.clone();
    let mut rounds = Vec::new();
    let mut best: Option<Chosen> = None;
    for round in 1..=spending.rounds as usize {
        let now: Vec<Lever> = levers
            .list
            .iter()
            .zip(&total)
            .map(|(l, d)| Lever {
                value: l.value + d,
                ..l.clone()
            })
            .collect();
        let ladders: Vec<Vec<i32>> = now
            .iter()
            .map(|l| ladder_now(&loaded.catalog, &levers.list, &total, l))
            .collect();
        let proposal = propose::propose(&propose::Problem {
            rates: &rates,
            base: &base,
            row_scale: &row_scale,
            effects: &effects,
            levers: &now,
            ladders: &ladders,
            range: &ranges,
            noise: &noise,
            low: low + margin,
            high: high - margin,
            band: (low, high),
        });
        for (t, d) in total.iter_mut().zip(&proposal.changes) {
            *t += d;
        }
        let predicted_in_band = proposal.predicted.iter().filter(|p| (low..=high).contains(*p)).count();
        let cards_dir = dir.join(format!("round_{round}")).join("cards");
        edit::write_catalog(&files, &levers.list, &total, &cards_dir).map_err(whole)?;
        say(format!(
            "round {round}: {} numbers changed from the catalog as it was; {predicted_in_band} of {} rows predicted in the band",
            total.iter().filter(|d| **d != 0).count(),
            rows.len()
        ));
        let run_dir = run_suite(
            req,
            std::slice::from_ref(&cards_dir),
            &dir.join("runs").join(format!("round_{round}")),
            suite.master_seed,
        )?;
        let (rep, _) = runs::write_report(
            std::slice::from_ref(&run_dir),
            Some(&current),
            &dir.join("reports").join(format!("round_{round}")),
            &settings,
        )?;
        let measured = rows_of(&rep, &rows, &settings);
        let verified = verify_rows(&ranked_rows(&rep, &settings), low, high);
        say(format!(
            "round {round} verified: {} of {} ranked rows in the band, {} outside 40–60%",
            verified.in_band, verified.ranked, verified.outside_40_60
        ));
        rounds.push(Round {
            round,
            changes: total.iter().filter(|d| **d != 0).count(),
            predicted_in_band,
            verified,
        });
        let better = best.as_ref().is_none_or(|Chosen { verified: b, .. }| {
            (verified.outside_40_60, b.in_band * verified.ranked.max(1))
                < (b.outside_40_60, verified.in_band * b.ranked.max(1))
        });
        // The next round starts from what this one measured, and reads
        // each row's effects times what the run measured of its change
        // over what they predicted, where the prediction moved it a point
        // or more (a secant step: the rows bend away from the printed
        // numbers).
        for r in 0..rows.len() {
            let Some(m) = measured[r] else { continue };
            if (proposal.predicted[r] - rates[r]).abs() >= SECANT_MIN_MOVE {
                let unscaled = (propose::logit(proposal.predicted[r]) - propose::logit(rates[r])) / row_scale[r];
                let measured_move = propose::logit(m) - propose::logit(rates[r]);
                row_scale[r] = (measured_move / unscaled).clamp(SECANT_RANGE.0, SECANT_RANGE.1);
            }
            rates[r] = m;
        }
        if better {
            best = Some(Chosen {
                verified,
                round,
                changes: total.clone(),
                predicted: proposal.predicted.clone(),
            });
        }
        if verified.in_band == verified.ranked {
            break;
        }
    }
    let Some(Chosen {
        round: chosen_round,
        changes: chosen,
        predicted,
        ..
    }) = best
    else {
        return Err(whole("the budget left no round to verify".to_string()));
    };

    // 4. The confirmation: the rounds chose among catalogs, and went on
    // from, what their own fights measured, so the chosen one is measured
    // again on fights no round has seen (a seed of the tune's own), paired
    // with the catalog as it was on those same fights.
    let chosen_cards = dir.join(format!("round_{chosen_round}")).join("cards");
    let fresh_seed = suite.master_seed ^ CONFIRMATION_SALT;
    let fresh = dir.join("runs").join("confirmation");
    say(format!(
        "confirming round {chosen_round} on fresh fights (seed {fresh_seed})"
    ));
    let current_fresh = run_suite(req, &req.cards, &fresh.join("current"), fresh_seed)?;
    let chosen_fresh = run_suite(
        req,
        std::slice::from_ref(&chosen_cards),
        &fresh.join("proposal"),
        fresh_seed,
    )?;
    let (rep, _) = runs::write_report(
        std::slice::from_ref(&chosen_fresh),
        Some(&current_fresh),
        &dir.join("reports").join("confirmation"),
        &settings,
    )?;
    let verified = verify_rows(&ranked_rows(&rep, &settings), low, high);
    say(format!(
        "confirmed on fresh fights: {} of {} ranked rows in the band, {} outside 40–60%",
        verified.in_band, verified.ranked, verified.outside_40_60
    ));

    // 5. What a designer reviews.
    let changes: Vec<Change> = levers
        .list
        .iter()
        .zip(&chosen)
        .filter(|(_, d)| **d != 0)
        .map(|(l, d)| Change {
            item: l.key.clone(),
            field: l.path(),
            tier: l.tier,
            old: l.shown(l.value),
            new: l.shown(l.value + d),
        })
        .collect();
    let tuned_rows = tuned_rows(&rows, &predicted, &rep, &settings, &effects, &levers.list, low, high);
    let tune = Tune {
        suite: suite.name.clone(),
        band: [low, high],
        levers: specs
            .iter()
            .map(|s| match &s.card {
                Some(c) => format!("{c}.{}", s.field.name()),
                None => s.field.name().to_string(),
            })
            .collect(),
        spending,
        perturbation_seed,
        before,
        changes,
        verified,
        chosen_round,
        rounds,
        rows: tuned_rows,
        effects_estimated: effects.effect.len(),
        effects_clear,
        dir: dir.clone(),
    };
    let effects_table = effects_csv(&rows, &effects, &levers.list);
    output::write(
        &tune,
        &files,
        &levers.list,
        &chosen,
        &chosen_cards,
        &effects_table,
        &dir,
    )
    .map_err(whole)?;
    Ok(tune)
}

/// The best round so far: what it verified, its catalog's changes and
/// what it predicted.
struct Chosen {
    verified: Verified,
    round: usize,
    changes: Vec<i32>,
    predicted: Vec<f64>,
}

/// `effects.csv`: every effect a designer reads, each lever's on each row
/// where the row's holders carry the lever (its own ladders, a keyword's
/// carriers) or where it stands clear of its noise: in win-rate points per
/// unit of the number, with its two-way standard error and 95% interval.
fn effects_csv(rows: &[Ranked], effects: &Effects, levers: &[Lever]) -> String {
    let mut out = String::from("section,row,card,field,tier,points_per_unit,se,low,high,exposure,clear\n");
    for (r, Ranked { section: t, key, .. }) in rows.iter().enumerate() {
        for (l, lever) in levers.iter().enumerate() {
            let clear = propose::clear(effects, r, l, lever.field);
            let exposure = effects.exposure(r, l);
            if !clear && exposure < propose::NEAR {
                continue;
            }
            let (g, se) = effects.at(r, l);
            let z = 1.959_963_984_540_054 * se;
            out.push_str(&format!(
                "{},{key},{},{},{},{:.4},{:.4},{:.4},{:.4},{exposure:.3},{clear}\n",
                RATE_SECTIONS[*t].1,
                lever.key,
                lever.path(),
                lever.tier,
                g * 100.0,
                se * 100.0,
                (g - z) * 100.0,
                (g + z) * 100.0,
            ));
        }
    }
    out
}

/// The printed ladder of lever `l`'s card and field with the changes so
/// far.
fn ladder_now(catalog: &gridsim_model::catalog::Catalog, all: &[Lever], total: &[i32], l: &Lever) -> Vec<i32> {
    // An `amounts` ladder as printed: the levers carry the percents so far.
    let card = match l.item {
        Item::Rune(r) => {
            let lines = &catalog.rune(r).lines;
            let tiers = usize::from(catalog.rune(r).tiers());
            return (0..tiers)
                .map(|t| lines.iter().map(|line| line.amounts[t]).max().unwrap_or(0))
                .collect();
        }
        Item::Card(c) if l.field == StatField::Amounts => return catalog.amount_ladder(c).unwrap_or_default(),
        Item::Card(c) => catalog.card(c),
    };
    let mut ladder: Vec<i32> = card.stats.iter().map(|line| l.field.of(line)).collect();
    for (m, d) in all.iter().zip(total) {
        if m.item == l.item && m.field == l.field {
            ladder[usize::from(m.tier) - 1] += d;
        }
    }
    ladder
}

/// Runs the suite on `cards` under master seed `seed` into `runs_dir`, or
/// reads back a run finished there before, or resumes one left unfinished.
fn run_suite(req: &TuneRequest, cards: &[PathBuf], runs_dir: &Path, seed: u64) -> Result<PathBuf, Error> {
    // A run left there by a tune of other inputs (another catalog, rules or
    // suite: a round of an earlier proposal) is not this run: it starts
    // again.
    let mut inputs = runs::Loaded::from_files(&req.rules, cards, &req.suite)?;
    *inputs.count_and_seed().1 = seed;
    let run_dir = dataset::run_dir(runs_dir, &inputs.suite.name, seed, dataset::Shard::WHOLE);
    let existing = dataset::Manifest::read(&run_dir).ok().filter(|m| {
        inputs
            .identity(m.identity.part_size)
            .same_run("these inputs", &m.identity, "the run there")
            .is_ok()
    });
    if let Some(m) = existing {
        if m.complete {
            return Ok(run_dir);
        }
        let summary = runs::resume::<runs::Loaded>(&run_dir, req.threads, req.progress, &mut |m| {
            if req.progress {
                eprintln!("{m}");
            }
        })?;
        return Ok(summary.dir);
    }
    if run_dir.exists() {
        std::fs::remove_dir_all(&run_dir).map_err(|e| Error::file(&run_dir, format!("cannot clear: {e}")))?;
    }
    let summary = runs::start::<runs::Loaded>(&runs::NewRun {
        rules: req.rules.clone(),
        cards: cards.to_vec(),
        suite: req.suite.clone(),
        count: None,
        seed: Some(seed),
        out: runs_dir.to_path_buf(),
        shard: dataset::Shard::WHOLE,
        part_size: dataset::DEFAULT_PART_SIZE,
        threads: req.threads,
        progress: req.progress,
    })?;
    Ok(summary.dir)
}

/// The rows against the band.
fn verify_rows(rows: &[Ranked], low: f64, high: f64) -> Verified {
    Verified {
        in_band: rows.iter().filter(|r| (low..=high).contains(&r.rate)).count(),
        ranked: rows.len(),
        outside_40_60: rows
            .iter()
            .filter(|r| !(propose::WIDE_BAND.0..=propose::WIDE_BAND.1).contains(&r.rate))
            .count(),
    }
}

/// Each of `rows`' rate in `rep`, where it is ranked there.
fn rows_of(rep: &Report, rows: &[Ranked], s: &ReportSettings) -> Vec<Option<f64>> {
    let tables = rep.rate_tables();
    rows.iter()
        .map(|row| {
            tables[row.section]
                .iter()
                .find(|r| r.key == row.key && r.ranked)
                .map(|r| band_rate(r, s).0)
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn tuned_rows(
    rows: &[Ranked],
    predicted: &[f64],
    rep: &Report,
    s: &ReportSettings,
    effects: &Effects,
    levers: &[Lever],
    low: f64,
    high: f64,
) -> Vec<TunedRow> {
    let tables = rep.rate_tables();
    rows.iter()
        .enumerate()
        .map(|(i, row)| {
            let now = tables[row.section].iter().find(|r| r.key == row.key);
            let after = now.map_or(f64::NAN, |r| band_rate(r, s).0);
            let in_band = (low..=high).contains(&after);
            let why_not = (!in_band).then(|| why_not(i, effects, levers, predicted[i], low, high));
            TunedRow {
                section: RATE_SECTIONS[row.section].0,
                key: row.key.clone(),
                name: row.name.clone(),
                before: row.rate,
                predicted: predicted[i],
                after,
                change: now.and_then(|r| r.change.as_ref()).map(|c| c.delta),
                change_uncertainty: now.and_then(|r| r.change.as_ref()).map(|c| c.combined_uncertainty),
                in_band,
                why_not,
            }
        })
        .collect()
}

/// Why row `i` is left outside: no lever clearly moves it, or the
/// prediction put it inside and the run did not bear it out, or the
/// levers that move it could not go further.
fn why_not(i: usize, effects: &Effects, levers: &[Lever], predicted: f64, low: f64, high: f64) -> String {
    let clear: Vec<&Lever> = (0..levers.len())
        .filter(|&l| propose::clear(effects, i, l, levers[l].field))
        .map(|l| &levers[l])
        .collect();
    if clear.is_empty() {
        "no lever moves it clearly: none of the numbers tuned has an effect on it that stands out of the perturbation run's noise".to_string()
    } else if (low..=high).contains(&predicted) {
        format!(
            "predicted in the band ({:.1}%) but measured outside: the effects of the {} levers that move it are linear estimates, and the verification's own noise is about a point",
            predicted * 100.0,
            clear.len()
        )
    } else {
        format!(
            "predicted at {:.1}%: the {} levers that move it could not go further without taking other rows out of the band, leaving a ladder out of order, or leaving the card format's range",
            predicted * 100.0,
            clear.len()
        )
    }
}

const PERTURBATION_FILE: &str = "perturbation.bin";

/// The perturbation run's seed when none is given: the suite's, changed,
/// so its fights are fresh against the verification's.
const PERTURBATION_SALT: u64 = 0x7475_6E65_7475_6E65;
/// The confirmation's seed is the suite's changed by this.
const CONFIRMATION_SALT: u64 = 0x636F_6E66_6972_6D73;

/// What a saved perturbation run must match to be read back: the inputs,
/// the levers and their steps, the seed and the number of pairs.
fn perturbation_key(loaded: &runs::Loaded, levers: &[Lever], seed: u64, pairs: u64) -> String {
    let mut text = format!(
        "gridsim tune perturbation 1\n{}\n{:016x}\n{}\n{seed}\n{pairs}\n",
        gridsim_core::atomic::sha256(loaded.rules_text.as_bytes()),
        loaded.catalog.fingerprint(),
        gridsim_core::atomic::sha256(loaded.suite_text.as_bytes()),
    );
    for l in levers {
        text.push_str(&format!("{} {} {}\n", l.label(), l.value, l.step));
    }
    gridsim_core::atomic::sha256(text.as_bytes())
}

fn write_perturbation(path: &Path, key: &str, fights: &[PerturbedFight]) -> Result<(), String> {
    let mut bytes = Vec::with_capacity(key.len() + 1 + fights.len() * 10);
    bytes.extend_from_slice(key.as_bytes());
    bytes.push(b'\n');
    for f in fights {
        bytes.extend_from_slice(&f.left.to_le_bytes());
        bytes.extend_from_slice(&f.right.to_le_bytes());
        bytes.push(f.left_diff as u8);
        bytes.push(f.right_diff as u8);
    }
    gridsim_core::atomic::write(path, &bytes)?;
    Ok(())
}

fn read_perturbation(path: &Path, key: &str) -> Option<Vec<PerturbedFight>> {
    let bytes = std::fs::read(path).ok()?;
    let body = bytes.strip_prefix(key.as_bytes())?.strip_prefix(b"\n")?;
    if body.len() % 10 != 0 {
        return None;
    }
    Some(
        body.chunks_exact(10)
            .map(|c| PerturbedFight {
                left: u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
                right: u32::from_le_bytes([c[4], c[5], c[6], c[7]]),
                left_diff: c[8] as i8,
                right_diff: c[9] as i8,
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_too_small_says_what_it_needs() {
        let e = spending(1_000, 100_000, 1_000).unwrap_err();
        assert!(e.contains("at least 420000"), "{e}");
        let s = spending(default_budget(100_000, 1_000), 100_000, 1_000).unwrap();
        assert_eq!(s.perturbation_pairs, 100_000);
        assert_eq!(s.rounds, DEFAULT_ROUNDS);
        assert!(2 * s.perturbation_pairs + (s.rounds + 3) * 100_000 <= s.budget);
        // Just above the least: one round, the rest to the perturbation run.
        let s = spending(430_000, 100_000, 1_000).unwrap();
        assert_eq!((s.rounds, s.perturbation_pairs), (1, 15_000));
        // A large budget: the rounds up to their cap, then more pairs.
        let s = spending(100_000_000, 1_000_000, 100_000).unwrap();
        assert_eq!(s.rounds, MAX_ROUNDS);
        assert_eq!(s.perturbation_pairs, (100_000_000 - 13_000_000) / 2);
    }
}
