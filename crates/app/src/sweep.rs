//! `gridsim sweep`: one number of one card tried at several values, each
//! run on the same suite with the same seeds (common random numbers), and
//! the card's win rate with its two-way clustered interval at each value,
//! and its paired change from the value nearest the target.
//! The only module that edits a card file: it knows the path syntax
//! (`power[2]`, `ability[0].amount`, `keywords[1]`) and writes each
//! value's catalog beside the runs, so every point documents itself.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::runs;
use crate::runs::{Argument, Error};
use gridsim_analysis::report::ReportSettings;
use gridsim_config as config;
use gridsim_core::diagnostics;
use gridsim_data::dataset;

/// What to sweep, as asked for on the command line.
#[derive(Debug, Clone)]
pub struct SweepRequest {
    pub rules: PathBuf,
    pub cards: Vec<PathBuf>,
    pub suite: PathBuf,
    /// What the number belongs to: a card, a rune or a resonance.
    pub kind: ItemKind,
    /// Its id.
    pub card: String,
    pub field: String,
    pub values: Vec<i64>,
    /// A second number swept across the first: a grid (a heat map).
    pub second: Option<(String, Vec<i64>)>,
    pub target: f64,
    pub fights: Option<u64>,
    pub seed: Option<u64>,
    /// Folder that receives the sweep's folder.
    pub out: PathBuf,
    pub threads: usize,
    pub progress: bool,
}

/// The kind of catalog entry a sweep changes a number of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    Card,
    Rune,
    Resonance,
}

impl ItemKind {
    /// The catalog file's table: `[[card]]`, `[[rune]]`, `[[resonance]]`.
    fn table(self) -> &'static str {
        match self {
            ItemKind::Card => "card",
            ItemKind::Rune => "rune",
            ItemKind::Resonance => "resonance",
        }
    }

    /// Its row's key in the report: a card's id in the card table, a rune's
    /// in the rune table, `resonance ID` there for a resonance.
    fn report_key(self, id: &str) -> String {
        match self {
            ItemKind::Card | ItemKind::Rune => id.to_string(),
            ItemKind::Resonance => format!("resonance {id}"),
        }
    }
}

/// The card's figures at one value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepPoint {
    pub value: i64,
    /// The second number's value in a grid sweep.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value2: Option<i64>,
    pub fights: u64,
    pub boards: u64,
    pub win_rate: f64,
    /// 95% interval, two-way clustered by board (as in the report).
    pub low: f64,
    pub high: f64,
    pub se: f64,
    /// The change from the reference value, fight by fight: every value
    /// ran the same boards, pairs and random streams, so the difference is
    /// paired and far tighter than the two intervals. Absent at the
    /// reference itself, and where the boards tables differ (a sweep of a
    /// card's keywords changes what the boards hold).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<PairedChange>,
}

/// One value's win rate less the reference value's, with its paired 95%
/// interval.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairedChange {
    pub reference: i64,
    pub delta: f64,
    pub low: f64,
    pub high: f64,
}

/// Where the win-rate curve meets the target, interpolated linearly
/// between the two values around the crossing; `low` and `high` are where
/// the interval's edges meet it, so they bound the value the data allow.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Crossing {
    pub value: f64,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

/// A finished sweep.
#[derive(Debug, Clone, Serialize)]
pub struct Sweep {
    pub card: String,
    pub field: String,
    /// The value the catalog prints.
    pub printed: i64,
    /// The second field of a grid sweep and its printed value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field2: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub printed2: Option<i64>,
    pub target: f64,
    pub points: Vec<SweepPoint>,
    pub crossing: Option<Crossing>,
    #[serde(skip)]
    pub dir: PathBuf,
}

/// `A..B`, `A..B:STEP` (both ends included) or `a,b,c`.
pub fn parse_values(text: &str) -> Result<Vec<i64>, String> {
    let bad = |why: &str| format!(" `{text}`: {why}; write `A..B`, `A..B:STEP` or `a,b,c`");
    let values: Vec<i64> = if let Some((from, rest)) = text.split_once("..") {
        let (to, step) = match rest.split_once(':') {
            Some((to, step)) => (to, step),
            None => (rest, "1"),
        };
        let num = |s: &str| {
            s.trim()
                .parse::<i64>()
                .map_err(|_| bad(&format!("`{s}` is not a whole number")))
        };
        let (from, to, step) = (num(from)?, num(to)?, num(step)?);
        if step <= 0 {
            return Err(bad("the step must be positive"));
        }
        if to < from {
            return Err(bad("the range must go upwards"));
        }
        let count = (to - from) / step + 1;
        if count > 1000 {
            return Err(bad("more than 1000 values"));
        }
        (0..count).map(|k| from + k * step).collect()
    } else {
        text.split(',')
            .map(|s| {
                s.trim()
                    .parse::<i64>()
                    .map_err(|_| bad(&format!("`{s}` is not a whole number")))
            })
            .collect::<Result<_, _>>()?
    };
    if values.len() < 2 {
        return Err(bad("a sweep needs at least two values"));
    }
    Ok(values)
}

/// The index `[*]`: a whole ladder (`power[*]`), swept by its tier-1 number
/// with the steps between its tiers kept, so a card's numbers move
/// together at every tier.
const WHOLE_LADDER: usize = usize::MAX;

/// One step of a path: a key, optionally indexed.
fn steps(path: &str) -> Option<Vec<(&str, Option<usize>)>> {
    path.split('.')
        .map(|part| match part.split_once('[') {
            Some((key, rest)) => {
                let index = match rest.strip_suffix(']')? {
                    "*" => WHOLE_LADDER,
                    n => n.parse().ok()?,
                };
                (!key.is_empty()).then_some((key, Some(index)))
            }
            None => (!part.is_empty()).then_some((part, None)),
        })
        .collect()
}

/// The first whole number in a text amount (`9 x tier`, `thorns 5`,
/// `25% power`): its byte range and value.
fn number_in(text: &str) -> Option<(std::ops::Range<usize>, i64)> {
    let bytes = text.as_bytes();
    let start = bytes.iter().position(|b| b.is_ascii_digit())?;
    let start = if start > 0 && bytes[start - 1] == b'-' {
        start - 1
    } else {
        start
    };
    let end = start + 1 + bytes[start + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
    Some((start..end, text[start..end].parse().ok()?))
}

/// Every path in a card table that leads to a number a sweep can set.
fn numeric_paths(value: &toml::Value, prefix: &str, out: &mut Vec<String>) {
    match value {
        toml::Value::Integer(_) => out.push(prefix.to_string()),
        toml::Value::String(s) if number_in(s).is_some() => out.push(prefix.to_string()),
        toml::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                numeric_paths(v, &format!("{prefix}[{i}]"), out);
            }
        }
        toml::Value::Table(t) => {
            // Names, not numbers, even where they hold a digit ("3x3").
            for (k, v) in t
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "id" | "name" | "tribe" | "footprint"))
            {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                numeric_paths(v, &p, out);
            }
        }
        _ => {}
    }
}

/// The number at `path` in `card`, mutable.
fn leaf<'a>(card: &'a mut toml::Value, path: &str) -> Option<&'a mut toml::Value> {
    let mut at = card;
    for (key, index) in steps(path)? {
        at = at.as_table_mut()?.get_mut(key)?;
        match index {
            Some(WHOLE_LADDER) => {
                let ladder = at.as_array()?;
                return (!ladder.is_empty() && ladder.iter().all(toml::Value::is_integer)).then_some(at);
            }
            Some(i) => at = at.as_array_mut()?.get_mut(i)?,
            None => {}
        }
    }
    match at {
        toml::Value::Integer(_) => Some(at),
        toml::Value::String(s) if number_in(s).is_some() => Some(at),
        _ => None,
    }
}

fn read_number(v: &toml::Value) -> i64 {
    match v {
        toml::Value::Integer(n) => *n,
        // A whole ladder reads as its tier-1 number.
        toml::Value::Array(ladder) => ladder.first().map_or(0, read_number),
        toml::Value::String(s) => number_in(s).map_or(0, |(_, n)| n),
        _ => 0,
    }
}

fn write_number(v: &mut toml::Value, n: i64) {
    match v {
        toml::Value::Integer(x) => *x = n,
        // A whole ladder moves by the same amount at every tier.
        toml::Value::Array(ladder) => {
            let shift = n - ladder.first().map_or(0, read_number);
            for tier in ladder.iter_mut() {
                if let toml::Value::Integer(x) = tier {
                    *x += shift;
                }
            }
        }
        toml::Value::String(s) => {
            if let Some((range, _)) = number_in(s) {
                s.replace_range(range, &n.to_string());
            }
        }
        _ => {}
    }
}

/// The card file holding `card`, parsed, with the card's index in it.
struct Located {
    file: PathBuf,
    doc: toml::Table,
    index: usize,
}

fn locate(cards: &[PathBuf], kind: ItemKind, card: &str) -> Result<(Located, Vec<PathBuf>), Error> {
    let files = config::toml_files(cards).map_err(|d| vec![d])?;
    let mut ids = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).map_err(|e| Error::file(f, format!("cannot read: {e}")))?;
        let doc: toml::Table = text.parse().map_err(|e| Error::file(f, format!("not TOML: {e}")))?;
        let list = doc
            .get(kind.table())
            .and_then(|c| c.as_array())
            .cloned()
            .unwrap_or_default();
        for (index, c) in list.iter().enumerate() {
            let Some(id) = c.get("id").and_then(|v| v.as_str()) else {
                continue;
            };
            if id == card {
                let located = Located {
                    file: f.clone(),
                    doc,
                    index,
                };
                return Ok((located, files.clone()));
            }
            ids.push(id.to_string());
        }
    }
    let names: Vec<&str> = ids.iter().map(String::as_str).collect();
    Err(Error::file(
        cards.first().map_or(Path::new("configs/cards"), |p| p.as_path()),
        format!(
            "--{0}: no {0} `{card}` in the catalog{1}",
            kind.table(),
            diagnostics::suggestion(card, &names)
        ),
    ))
}

/// Checks the request and writes each value's catalog, before any fight
/// runs: a path that leads to no number, or a value the card format
/// rejects, is a diagnostic naming the path (and the nearest valid one) or
/// the value.
fn prepare(req: &SweepRequest, dir: &Path) -> Result<Prepared, Error> {
    let (located, files) = locate(&req.cards, req.kind, &req.card)?;
    let table = req.kind.table();
    let card = located.doc[table].as_array().map(|a| a[located.index].clone());
    let mut card = card.unwrap_or(toml::Value::Table(Default::default()));
    let mut printed = Vec::new();
    let second = req.second.as_ref().map(|(f, _)| f.as_str());
    for (argument, field) in [(Argument::Field, Some(req.field.as_str())), (Argument::Field2, second)] {
        let Some(field) = field else { continue };
        let Some(n) = leaf(&mut card, field).map(|v| read_number(v)) else {
            let mut paths = Vec::new();
            numeric_paths(&card, "", &mut paths);
            let names: Vec<&str> = paths.iter().map(String::as_str).collect();
            return Err(Error::argument(
                argument,
                Some(&located.file),
                format!(
                    " `{field}`: {table} `{}` has no number there{}; its numbers are at {}",
                    req.card,
                    diagnostics::suggestion(field, &names),
                    diagnostics::backticked(&names)
                ),
            ));
        };
        printed.push(n);
    }
    let mut points = Vec::new();
    let mut bad = Vec::new();
    for (v, v2) in grid(req) {
        let name = match v2 {
            Some(v2) => format!("value_{v}_{v2}"),
            None => format!("value_{v}"),
        };
        let cards_dir = dir.join(&name).join("cards");
        std::fs::create_dir_all(&cards_dir).map_err(|e| Error::file(&cards_dir, format!("cannot create: {e}")))?;
        let mut doc = located.doc.clone();
        if let Some(list) = doc.get_mut(table).and_then(|c| c.as_array_mut()) {
            for (field, value) in [(Some(req.field.as_str()), Some(v)), (second, v2)] {
                if let (Some(field), Some(value)) = (field, value)
                    && let Some(slot) = leaf(&mut list[located.index], field)
                {
                    write_number(slot, value);
                }
            }
        }
        for (k, f) in files.iter().enumerate() {
            // Each file keeps its own name, numbered so that two folders'
            // files of one name cannot collide.
            let file_name = format!(
                "{k:03}_{}",
                f.file_name().map_or("cards.toml".into(), |n| n.to_string_lossy())
            );
            let text = if *f == located.file {
                toml::to_string(&doc).map_err(|e| Error::file(f, e.to_string()))?
            } else {
                std::fs::read_to_string(f).map_err(|e| Error::file(f, format!("cannot read: {e}")))?
            };
            gridsim_core::atomic::write(&cards_dir.join(file_name), text.as_bytes())
                .map_err(|e| Error::file(&cards_dir, e))?;
        }
        if let Err(diags) = config::load_catalog(std::slice::from_ref(&cards_dir)) {
            let what = match (second, v2) {
                (Some(f2), Some(v2)) => format!("`{}` = {v} with `{f2}` = {v2}", req.field),
                _ => format!("`{}` = {v}", req.field),
            };
            for d in diags {
                bad.push(format!(": {what} is not a valid {table}: {}", d.message));
            }
        }
        points.push(((v, v2), dir.join(name), cards_dir));
    }
    if bad.is_empty() {
        Ok(Prepared { printed, points })
    } else {
        Err(Error::Argument {
            argument: Argument::Values,
            file: Some(located.file.clone()),
            messages: bad,
        })
    }
}

/// The checked request: the printed values, and per point its values, its
/// folder and its catalog.
struct Prepared {
    printed: Vec<i64>,
    points: Vec<((i64, Option<i64>), PathBuf, PathBuf)>,
}

/// Every point of the sweep: the values, or the grid of both fields' values.
fn grid(req: &SweepRequest) -> Vec<(i64, Option<i64>)> {
    match &req.second {
        None => req.values.iter().map(|&v| (v, None)).collect(),
        Some((_, values2)) => req
            .values
            .iter()
            .flat_map(|&v| values2.iter().map(move |&v2| (v, Some(v2))))
            .collect(),
    }
}

/// Runs the sweep into `out/sweep_<card>_<field>/` (`..._x_<field2>/` for a
/// grid): one run directory per value or pair of values, then `sweep.csv`,
/// `sweep.md`, `sweep.svg` (the curve, or the heat map) and `sweep.json`.
pub fn run(req: &SweepRequest) -> Result<Sweep, Error> {
    let whole = |m: String| Error::file(&req.out, m);
    let slug = |f: &str| -> String {
        f.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect()
    };
    let name = match &req.second {
        Some((f2, _)) => format!("sweep_{}_{}_x_{}", req.card, slug(&req.field), slug(f2)),
        None => format!("sweep_{}_{}", req.card, slug(&req.field)),
    };
    let dir = req.out.join(name);
    let prepared = prepare(req, &dir)?;
    let settings = ReportSettings::default();
    // Every value runs the same suite under the same seed: where its run
    // directory goes is worked out once.
    let (suite_name, suite_seed) = suite_of(req)?;
    let seed = req.seed.unwrap_or(suite_seed);
    let mut points = Vec::new();
    let mut run_dirs = Vec::new();
    for ((value, value2), runs_dir, cards) in &prepared.points {
        let run_dir = dataset::run_dir(runs_dir, &suite_name, seed, dataset::Shard::WHOLE);
        if run_dir.exists() {
            std::fs::remove_dir_all(&run_dir)
                .map_err(|e| whole(format!("{}: cannot clear: {e}", run_dir.display())))?;
        }
        let summary = runs::start::<runs::Loaded>(&runs::NewRun {
            rules: req.rules.clone(),
            cards: vec![cards.clone()],
            suite: req.suite.clone(),
            count: req.fights,
            seed: req.seed,
            out: runs_dir.clone(),
            shard: dataset::Shard::WHOLE,
            part_size: dataset::DEFAULT_PART_SIZE,
            threads: req.threads,
            progress: req.progress,
        })?;
        let report = runs::report_of(std::slice::from_ref(&summary.dir), &settings).map_err(whole)?;
        let key = req.kind.report_key(&req.card);
        let rows = match req.kind {
            ItemKind::Card => &report.cards,
            ItemKind::Rune | ItemKind::Resonance => &report.runes,
        };
        let Some(r) = rows.iter().find(|r| r.key == key) else {
            return Err(whole(format!(
                "{} `{}` fought in no fight of this suite: a sweep needs a suite whose boards hold it",
                req.kind.table(),
                req.card
            )));
        };
        points.push(SweepPoint {
            value: *value,
            value2: *value2,
            fights: r.fights,
            boards: r.boards,
            win_rate: r.win_rate,
            low: r.low,
            high: r.high,
            se: r.se,
            change: None,
        });
        run_dirs.push(summary.dir.clone());
    }
    paired_changes(&mut points, &run_dirs, req).map_err(whole)?;
    let sweep = Sweep {
        card: req.card.clone(),
        field: req.field.clone(),
        printed: prepared.printed[0],
        field2: req.second.as_ref().map(|(f, _)| f.clone()),
        printed2: prepared.printed.get(1).copied(),
        target: req.target,
        // A grid has no one curve to cross the target.
        crossing: if req.second.is_some() {
            None
        } else {
            crossing(&points, req.target)
        },
        points,
        dir: dir.clone(),
    };
    for (name, text) in [
        ("sweep.csv", csv(&sweep)),
        ("sweep.md", markdown(&sweep)),
        ("sweep.svg", svg(&sweep)),
        (
            "sweep.json",
            serde_json::to_string_pretty(&sweep).map_err(|e| whole(e.to_string()))?,
        ),
    ] {
        gridsim_core::atomic::write(&dir.join(name), text.as_bytes()).map_err(|e| whole(e.to_string()))?;
    }
    Ok(sweep)
}

/// Each value's change from the reference value (the one whose win rate is
/// nearest the target), paired fight by fight (`report::paired_changes`).
fn paired_changes(points: &mut [SweepPoint], run_dirs: &[PathBuf], req: &SweepRequest) -> Result<(), String> {
    let Some(reference) = (0..points.len()).min_by(|&a, &b| {
        let gap = |i: usize| (points[i].win_rate - req.target).abs();
        gap(a).total_cmp(&gap(b))
    }) else {
        return Ok(());
    };
    let (base, _) = runs::run_data_of(std::slice::from_ref(&run_dirs[reference]))?;
    let key = req.kind.report_key(&req.card);
    let table = match req.kind {
        ItemKind::Card => 0,
        ItemKind::Rune | ItemKind::Resonance => 2,
    };
    for (i, dir) in run_dirs.iter().enumerate() {
        if i == reference {
            continue;
        }
        let (now, _) = runs::run_data_of(std::slice::from_ref(dir))?;
        if now.boards != base.boards {
            continue;
        }
        let Ok(found) = gridsim_analysis::report::paired_changes(&now.tallies, &base.tallies, &now.boards) else {
            continue;
        };
        if let Some(d) = found[table].get(&key).filter(|d| d.denominator > 0 && d.se.is_finite()) {
            let z = 1.959_963_984_540_054 * d.se;
            points[i].change = Some(PairedChange {
                reference: points[reference].value,
                delta: d.ratio,
                low: d.ratio - z,
                high: d.ratio + z,
            });
        }
    }
    Ok(())
}

fn suite_of(req: &SweepRequest) -> Result<(String, u64), Error> {
    let rules = config::load_rules(&req.rules)?;
    let catalog = config::load_catalog(&req.cards)?;
    let s = config::load_suite(&req.suite, &catalog, &rules)?;
    Ok((s.name, s.master_seed))
}

/// Where a curve `f(value)` first meets `target`, interpolated linearly
/// between the two values around the crossing.
fn meets(points: &[SweepPoint], target: f64, f: impl Fn(&SweepPoint) -> f64) -> Option<f64> {
    points.windows(2).find_map(|w| {
        let (a, b) = (f(&w[0]) - target, f(&w[1]) - target);
        if a == 0.0 {
            return Some(w[0].value as f64);
        }
        if a.signum() == b.signum() && b != 0.0 {
            return None;
        }
        let t = a / (a - b);
        Some(w[0].value as f64 + t * (w[1].value - w[0].value) as f64)
    })
}

/// The value nearest the target, and where the interval's edges meet it.
pub fn crossing(points: &[SweepPoint], target: f64) -> Option<Crossing> {
    let value = meets(points, target, |p| p.win_rate)?;
    let (a, b) = (meets(points, target, |p| p.low), meets(points, target, |p| p.high));
    let (low, high) = match (a, b) {
        (Some(a), Some(b)) => (Some(a.min(b)), Some(a.max(b))),
        (a, b) => (a.or(b).filter(|x| *x <= value), a.or(b).filter(|x| *x >= value)),
    };
    Some(Crossing { value, low, high })
}

fn csv(s: &Sweep) -> String {
    let mut out = String::from("value,value2,fights,boards,win_rate,low,high,se\n");
    for p in &s.points {
        let _ = writeln!(
            out,
            "{},{},{},{},{:.6},{:.6},{:.6},{:.6}",
            p.value,
            p.value2.map_or(String::new(), |v| v.to_string()),
            p.fights,
            p.boards,
            p.win_rate,
            p.low,
            p.high,
            p.se
        );
    }
    out
}

/// The values of the second field, in the order swept.
fn values2(s: &Sweep) -> Vec<i64> {
    let mut v: Vec<i64> = Vec::new();
    for p in &s.points {
        if let Some(x) = p.value2
            && !v.contains(&x)
        {
            v.push(x);
        }
    }
    v
}

/// The values of the first field, in the order swept.
fn values1(s: &Sweep) -> Vec<i64> {
    let mut v: Vec<i64> = Vec::new();
    for p in &s.points {
        if !v.contains(&p.value) {
            v.push(p.value);
        }
    }
    v
}

fn rate_at(s: &Sweep, v: i64, v2: i64) -> Option<&SweepPoint> {
    s.points.iter().find(|p| p.value == v && p.value2 == Some(v2))
}

/// A grid sweep as a Markdown table: the first field down, the second
/// across, each cell the win rate and its interval.
fn markdown_grid(s: &Sweep, field2: &str) -> String {
    let cols = values2(s);
    let mut out = format!(
        "# Sweep of `{}`: `{}` (printed {}) down, `{}` (printed {}) across\n\n| {} \\ {} |",
        s.card,
        s.field,
        s.printed,
        field2,
        s.printed2.unwrap_or(0),
        s.field,
        field2
    );
    for c in &cols {
        let _ = write!(out, " {c} |");
    }
    out += "\n|---|";
    out += &"---|".repeat(cols.len());
    out += "\n";
    for v in values1(s) {
        let _ = write!(out, "| {v} |");
        for &c in &cols {
            match rate_at(s, v, c) {
                Some(p) => {
                    let _ = write!(
                        out,
                        " {:.1}% ({:.1}–{:.1}) |",
                        100.0 * p.win_rate,
                        100.0 * p.low,
                        100.0 * p.high
                    );
                }
                None => out += " |",
            }
        }
        out += "\n";
    }
    out += "\nEach cell ran the same suite with the same seeds (common random numbers); intervals are the report's, two-way clustered by board.\n";
    out
}

/// The sweep as a Markdown table with the crossing in words.
pub fn markdown(s: &Sweep) -> String {
    if let Some(field2) = &s.field2 {
        return markdown_grid(s, field2);
    }
    let mut out = format!(
        "# Sweep of `{}` `{}` (printed: {})\n\n| value | win rate | 95% interval | change from the reference (paired 95%) | fights | boards |\n|---|---|---|---|---|---|\n",
        s.card, s.field, s.printed
    );
    for p in &s.points {
        let change = match &p.change {
            Some(c) => format!(
                "{:+.2} ({:+.2} to {:+.2}) points",
                100.0 * c.delta,
                100.0 * c.low,
                100.0 * c.high
            ),
            None if s
                .points
                .iter()
                .any(|q| q.change.as_ref().is_some_and(|c| c.reference == p.value)) =>
            {
                "reference".to_string()
            }
            None => "-".to_string(),
        };
        let _ = writeln!(
            out,
            "| {} | {:.1}% | {:.1}–{:.1}% | {change} | {} | {} |",
            p.value,
            100.0 * p.win_rate,
            100.0 * p.low,
            100.0 * p.high,
            p.fights,
            p.boards
        );
    }
    out += "\n";
    out += &crossing_text(s);
    out += "\n\nEach value ran the same suite with the same seeds (common random numbers). The intervals are the report's, two-way clustered by board: each says how well that value's win rate is known, and most of that uncertainty (which boards the suite drew) is shared by every value, so it also bounds where the curve meets the target. The change from the reference value (the one nearest the target) is paired, fight by fight, and says how precisely the values are told apart (docs/report.md).\n";
    out
}

/// One line on where the curve meets the target.
pub fn crossing_text(s: &Sweep) -> String {
    let first = s.points.first().map_or(0, |p| p.value);
    let last = s.points.last().map_or(0, |p| p.value);
    match &s.crossing {
        Some(c) => format!(
            "Nearest {:.0}%: {} = {:.1}; the 95% band meets {:.0}% from {} to {}.",
            100.0 * s.target,
            s.field,
            c.value,
            100.0 * s.target,
            c.low.map_or(format!("below {first}"), |v| format!("{v:.1}")),
            c.high.map_or(format!("above {last}"), |v| format!("{v:.1}")),
        ),
        None => format!(
            "The win rate does not reach {:.0}% between {} and {}.",
            100.0 * s.target,
            first,
            last
        ),
    }
}

/// Win rate against value: the curve, its 95% band and the target line.
pub fn svg(s: &Sweep) -> String {
    if let Some(field2) = &s.field2 {
        return heat_map(s, field2);
    }
    let (w, h, m) = (640.0, 360.0, 48.0);
    let (x0, x1) = (
        s.points.first().map_or(0.0, |p| p.value as f64),
        s.points.last().map_or(1.0, |p| p.value as f64),
    );
    let span = (x1 - x0).max(1.0);
    let lo = s.points.iter().map(|p| p.low).fold(s.target, f64::min).max(0.0) - 0.02;
    let hi = s.points.iter().map(|p| p.high).fold(s.target, f64::max).min(1.0) + 0.02;
    let x = |v: f64| m + (v - x0) / span * (w - 2.0 * m);
    let y = |r: f64| h - m - (r - lo) / (hi - lo) * (h - 2.0 * m);
    let path = |f: &dyn Fn(&SweepPoint) -> f64| {
        s.points
            .iter()
            .map(|p| format!("{:.1},{:.1}", x(p.value as f64), y(f(p))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let band: Vec<String> = s
        .points
        .iter()
        .map(|p| format!("{:.1},{:.1}", x(p.value as f64), y(p.high)))
        .chain(
            s.points
                .iter()
                .rev()
                .map(|p| format!("{:.1},{:.1}", x(p.value as f64), y(p.low))),
        )
        .collect();
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <title>{} {}: win rate against value</title>\n\
         <polygon points=\"{}\" fill=\"#9ecae1\" opacity=\"0.6\"/>\n\
         <polyline points=\"{}\" fill=\"none\" stroke=\"#08519c\" stroke-width=\"2\"/>\n\
         <line x1=\"{m}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#e6550d\" stroke-dasharray=\"4 3\"/>\n",
        s.card,
        s.field,
        band.join(" "),
        path(&|p| p.win_rate),
        w - m,
        y(s.target),
        y(s.target)
    );
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"#e6550d\">target {:.0}%</text>",
        w - m,
        y(s.target) - 4.0,
        100.0 * s.target
    );
    // The value nearest the target: a line at it, and the stretch of the
    // target line the band allows, so the chart shows what the table says.
    if let Some(c) = &s.crossing {
        let clamp = |v: f64| x(v.clamp(x0, x1));
        let (from, to) = (clamp(c.low.unwrap_or(x0)), clamp(c.high.unwrap_or(x1)));
        let _ = writeln!(
            out,
            "<line class=\"crossing-band\" x1=\"{from:.1}\" x2=\"{to:.1}\" y1=\"{yt:.1}\" y2=\"{yt:.1}\" stroke=\"#e6550d\" stroke-width=\"5\" opacity=\"0.5\"/>\n\
             <line class=\"crossing\" x1=\"{xc:.1}\" x2=\"{xc:.1}\" y1=\"{m}\" y2=\"{:.1}\" stroke=\"#e6550d\"/>\n\
             <text x=\"{xc:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#e6550d\">nearest {:.0}%: {:.1}</text>",
            h - m,
            m - 6.0,
            100.0 * s.target,
            c.value,
            yt = y(s.target),
            xc = x(c.value),
        );
    }
    for p in &s.points {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            x(p.value as f64),
            h - m + 16.0,
            p.value
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"{m}\" y=\"{:.1}\">{:.0}%</text><text x=\"{m}\" y=\"{:.1}\">{:.0}%</text>\n<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{} ({})</text>\n</svg>",
        m - 8.0,
        100.0 * hi,
        h - m - 4.0,
        100.0 * lo,
        w / 2.0,
        h - 8.0,
        s.field,
        s.card
    );
    out
}

/// A grid sweep as a heat map: a cell per pair of values, coloured from
/// red (the lowest win rate) through white (the target) to blue (the
/// highest), the rate written in it.
fn heat_map(s: &Sweep, field2: &str) -> String {
    let (rows, cols) = (values1(s), values2(s));
    let (cell_w, cell_h, left, top) = (72.0, 36.0, 90.0, 40.0);
    let w = left + cell_w * cols.len() as f64 + 20.0;
    let h = top + cell_h * rows.len() as f64 + 50.0;
    let spread = s
        .points
        .iter()
        .map(|p| (p.win_rate - s.target).abs())
        .fold(0.01, f64::max);
    let colour = |r: f64| {
        // 0 at the target, 1 at the farthest rate of the grid.
        let t = ((r - s.target) / spread).clamp(-1.0, 1.0);
        let fade = |c: f64| (255.0 - (255.0 - c) * t.abs()).round() as u8;
        if t >= 0.0 {
            format!("rgb({},{},{})", fade(33.0), fade(102.0), fade(172.0))
        } else {
            format!("rgb({},{},{})", fade(178.0), fade(24.0), fade(43.0))
        }
    };
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n<title>{}: win rate over {} and {}</title>\n",
        s.card, s.field, field2
    );
    for (j, c) in cols.iter().enumerate() {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{c}</text>",
            left + cell_w * (j as f64 + 0.5),
            top - 8.0
        );
    }
    for (i, v) in rows.iter().enumerate() {
        let y = top + cell_h * i as f64;
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{v}</text>",
            left - 8.0,
            y + cell_h * 0.6
        );
        for (j, &c) in cols.iter().enumerate() {
            let Some(p) = rate_at(s, *v, c) else { continue };
            let x = left + cell_w * j as f64;
            let _ = writeln!(
                out,
                "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{cell_w}\" height=\"{cell_h}\" fill=\"{}\" stroke=\"#fff\"><title>{} = {v}, {} = {c}: {:.1}% ({:.1}–{:.1}%)</title></rect>\n<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{:.1}%</text>",
                colour(p.win_rate),
                s.field,
                field2,
                100.0 * p.win_rate,
                100.0 * p.low,
                100.0 * p.high,
                x + cell_w / 2.0,
                y + cell_h * 0.6,
                100.0 * p.win_rate
            );
        }
    }
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{field2} across, {} down ({}); white is {:.0}%</text>\n</svg>",
        w / 2.0,
        h - 12.0,
        s.field,
        s.card,
        100.0 * s.target
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(value: i64, win_rate: f64) -> SweepPoint {
        SweepPoint {
            value,
            value2: None,
            fights: 100,
            boards: 10,
            win_rate,
            low: win_rate - 0.05,
            high: win_rate + 0.05,
            se: 0.025,
            change: None,
        }
    }

    #[test]
    fn values_parse_as_ranges_steps_and_lists() {
        assert_eq!(parse_values("10..14").unwrap(), vec![10, 11, 12, 13, 14]);
        assert_eq!(parse_values("10..20:5").unwrap(), vec![10, 15, 20]);
        assert_eq!(parse_values("3, 7,9").unwrap(), vec![3, 7, 9]);
        assert!(parse_values("5").unwrap_err().contains("at least two"));
        assert!(parse_values("9..3").unwrap_err().contains("upwards"));
        assert!(parse_values("1..x").unwrap_err().contains("`x`"));
    }

    #[test]
    fn text_amounts_keep_their_words() {
        let mut v = toml::Value::String("9 x tier".into());
        write_number(&mut v, 12);
        // `power[*]`: the whole ladder, read by its tier-1 number and moved
        // by the same amount at every tier.
        let mut card: toml::Value = toml::from_str("power = [10, 14, 18]\nfocus = 5").expect("toml");
        let ladder = leaf(&mut card, "power[*]").expect("a ladder");
        assert_eq!(read_number(ladder), 10);
        write_number(ladder, 7);
        assert_eq!(
            card["power"]
                .as_array()
                .map(|a| a.iter().filter_map(toml::Value::as_integer).collect::<Vec<_>>()),
            Some(vec![7, 11, 15])
        );
        assert!(leaf(&mut card, "focus[*]").is_none(), "not a ladder");
        assert_eq!(v.as_str(), Some("12 x tier"));
        let mut k = toml::Value::String("thorns 5".into());
        assert_eq!(read_number(&k), 5);
        write_number(&mut k, 7);
        assert_eq!(k.as_str(), Some("thorns 7"));
    }

    #[test]
    fn the_crossing_is_interpolated_and_bounded_by_the_band() {
        // 40%, 50%, 60% at 10, 20, 30: the rate meets 45% at 15; the band
        // (rate ± 5 points) meets it at 10 (high edge) and 20 (low edge).
        let pts = [point(10, 0.40), point(20, 0.50), point(30, 0.60)];
        let c = crossing(&pts, 0.45).unwrap();
        assert!((c.value - 15.0).abs() < 1e-9);
        assert_eq!(c.low, Some(10.0));
        assert_eq!(c.high, Some(20.0));
        assert!(crossing(&pts, 0.9).is_none());
    }
}
