//! `gridsim sweep`: one number of one card tried at several values, each
//! run on the same suite with the same seeds (common random numbers), and
//! the card's win rate with its board-bootstrap interval at each value.
//! The only module that edits a card file: it knows the path syntax
//! (`power[2]`, `ability[0].amount`, `keywords[1]`) and writes each
//! value's catalog beside the runs, so every point documents itself.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::config::{self, Diagnostic, diagnostics};
use crate::dataset;
use crate::report::ReportSettings;
use crate::runs;

/// What to sweep, as asked for on the command line.
#[derive(Debug, Clone)]
pub struct SweepRequest {
    pub rules: PathBuf,
    pub cards: Vec<PathBuf>,
    pub suite: PathBuf,
    pub card: String,
    pub field: String,
    pub values: Vec<i64>,
    pub target: f64,
    pub fights: Option<u64>,
    pub seed: Option<u64>,
    /// Folder that receives the sweep's folder.
    pub out: PathBuf,
    pub threads: usize,
    pub progress: bool,
}

/// The card's figures at one value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepPoint {
    pub value: i64,
    pub fights: u64,
    pub boards: u64,
    pub win_rate: f64,
    /// 95% board-bootstrap interval (as in the report).
    pub low: f64,
    pub high: f64,
    pub se: f64,
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
    pub target: f64,
    pub points: Vec<SweepPoint>,
    pub crossing: Option<Crossing>,
    #[serde(skip)]
    pub dir: PathBuf,
}

/// `A..B`, `A..B:STEP` (both ends included) or `a,b,c`.
pub fn parse_values(text: &str) -> Result<Vec<i64>, String> {
    let bad = |why: &str| format!("--values `{text}`: {why}; write `A..B`, `A..B:STEP` or `a,b,c`");
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

/// One step of a path: a key, optionally indexed.
fn steps(path: &str) -> Option<Vec<(&str, Option<usize>)>> {
    path.split('.')
        .map(|part| match part.split_once('[') {
            Some((key, rest)) => {
                let index = rest.strip_suffix(']')?.parse().ok()?;
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
        if let Some(i) = index {
            at = at.as_array_mut()?.get_mut(i)?;
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
        toml::Value::String(s) => number_in(s).map_or(0, |(_, n)| n),
        _ => 0,
    }
}

fn write_number(v: &mut toml::Value, n: i64) {
    match v {
        toml::Value::Integer(x) => *x = n,
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

fn locate(cards: &[PathBuf], card: &str) -> Result<(Located, Vec<PathBuf>), Vec<Diagnostic>> {
    let files = config::toml_files(cards).map_err(|d| vec![d])?;
    let mut ids = Vec::new();
    for f in &files {
        let text =
            std::fs::read_to_string(f).map_err(|e| vec![Diagnostic::whole_file(f, format!("cannot read: {e}"))])?;
        let doc: toml::Table = text
            .parse()
            .map_err(|e| vec![Diagnostic::whole_file(f, format!("not TOML: {e}"))])?;
        let list = doc.get("card").and_then(|c| c.as_array()).cloned().unwrap_or_default();
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
    Err(vec![Diagnostic::whole_file(
        cards.first().map_or(Path::new("configs/cards"), |p| p.as_path()),
        format!(
            "--card: no card `{card}` in the catalog{}",
            diagnostics::suggestion(card, &names)
        ),
    )])
}

/// Checks the request and writes each value's catalog, before any fight
/// runs: a path that leads to no number, or a value the card format
/// rejects, is a diagnostic naming the path (and the nearest valid one) or
/// the value.
fn prepare(req: &SweepRequest, dir: &Path) -> Result<(i64, Vec<PathBuf>), Vec<Diagnostic>> {
    let (located, files) = locate(&req.cards, &req.card)?;
    let card_of = |doc: &toml::Table| doc["card"].as_array().map(|a| a[located.index].clone());
    let mut card = card_of(&located.doc).unwrap_or(toml::Value::Table(Default::default()));
    let Some(printed) = leaf(&mut card, &req.field).map(|v| read_number(v)) else {
        let mut paths = Vec::new();
        numeric_paths(&card, "", &mut paths);
        let names: Vec<&str> = paths.iter().map(String::as_str).collect();
        return Err(vec![Diagnostic::whole_file(
            &located.file,
            format!(
                "--field `{}`: card `{}` has no number there{}; its numbers are at {}",
                req.field,
                req.card,
                diagnostics::suggestion(&req.field, &names),
                diagnostics::backticked(&names)
            ),
        )]);
    };
    let mut catalogs = Vec::new();
    let mut bad = Vec::new();
    for &v in &req.values {
        let cards_dir = dir.join(format!("value_{v}")).join("cards");
        std::fs::create_dir_all(&cards_dir)
            .map_err(|e| vec![Diagnostic::whole_file(&cards_dir, format!("cannot create: {e}"))])?;
        let mut doc = located.doc.clone();
        if let Some(list) = doc.get_mut("card").and_then(|c| c.as_array_mut())
            && let Some(slot) = leaf(&mut list[located.index], &req.field)
        {
            write_number(slot, v);
        }
        for (k, f) in files.iter().enumerate() {
            // Each file keeps its own name, numbered so that two folders'
            // files of one name cannot collide.
            let name = format!(
                "{k:03}_{}",
                f.file_name().map_or("cards.toml".into(), |n| n.to_string_lossy())
            );
            let text = if *f == located.file {
                toml::to_string(&doc).map_err(|e| vec![Diagnostic::whole_file(f, e.to_string())])?
            } else {
                std::fs::read_to_string(f).map_err(|e| vec![Diagnostic::whole_file(f, format!("cannot read: {e}"))])?
            };
            crate::atomic::write(&cards_dir.join(name), text.as_bytes())
                .map_err(|e| vec![Diagnostic::whole_file(&cards_dir, e)])?;
        }
        if let Err(diags) = config::load_catalog(std::slice::from_ref(&cards_dir)) {
            for d in diags {
                bad.push(Diagnostic::whole_file(
                    &located.file,
                    format!("--values: `{}` = {v} is not a valid card: {}", req.field, d.message),
                ));
            }
        }
        catalogs.push(cards_dir);
    }
    if bad.is_empty() {
        Ok((printed, catalogs))
    } else {
        Err(bad)
    }
}

/// Runs the sweep into `out/sweep_<card>_<field>/`: one run directory per
/// value, then `sweep.csv`, `sweep.md`, `sweep.svg` and `sweep.json`.
pub fn run(req: &SweepRequest) -> Result<Sweep, Vec<Diagnostic>> {
    let whole = |m: String| vec![Diagnostic::whole_file(&req.out, m)];
    let slug: String = req
        .field
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let dir = req.out.join(format!("sweep_{}_{slug}", req.card));
    let (printed, catalogs) = prepare(req, &dir)?;
    let settings = ReportSettings::default();
    let mut points = Vec::new();
    for (&value, cards) in req.values.iter().zip(&catalogs) {
        let runs_dir = dir.join(format!("value_{value}"));
        let run_dir = dataset::run_dir(&runs_dir, &suite_name(req)?, seed_of(req)?, dataset::Shard::WHOLE);
        if run_dir.exists() {
            std::fs::remove_dir_all(&run_dir)
                .map_err(|e| whole(format!("{}: cannot clear: {e}", run_dir.display())))?;
        }
        let summary = runs::start(&runs::NewRun {
            rules: req.rules.clone(),
            cards: vec![cards.clone()],
            suite: req.suite.clone(),
            fights: req.fights,
            seed: req.seed,
            out: runs_dir,
            shard: dataset::Shard::WHOLE,
            part_size: dataset::DEFAULT_PART_SIZE,
            threads: req.threads,
            progress: req.progress,
        })?;
        let report = runs::report_of(std::slice::from_ref(&summary.dir), &settings).map_err(whole)?;
        let row = report.cards.iter().find(|r| r.key == req.card);
        points.push(match row {
            Some(r) => SweepPoint {
                value,
                fights: r.fights,
                boards: r.boards,
                win_rate: r.win_rate,
                low: r.low,
                high: r.high,
                se: r.se,
            },
            None => {
                return Err(whole(format!(
                    "card `{}` fought in no fight of this suite: a sweep needs a suite whose boards hold it",
                    req.card
                )));
            }
        });
    }
    let sweep = Sweep {
        card: req.card.clone(),
        field: req.field.clone(),
        printed,
        target: req.target,
        crossing: crossing(&points, req.target),
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
        crate::atomic::write(&dir.join(name), text.as_bytes()).map_err(whole)?;
    }
    Ok(sweep)
}

fn suite_name(req: &SweepRequest) -> Result<String, Vec<Diagnostic>> {
    Ok(suite_of(req)?.0)
}

fn seed_of(req: &SweepRequest) -> Result<u64, Vec<Diagnostic>> {
    Ok(req.seed.unwrap_or(suite_of(req)?.1))
}

fn suite_of(req: &SweepRequest) -> Result<(String, u64), Vec<Diagnostic>> {
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
    let mut out = String::from("value,fights,boards,win_rate,low,high,se\n");
    for p in &s.points {
        let _ = writeln!(
            out,
            "{},{},{},{:.6},{:.6},{:.6},{:.6}",
            p.value, p.fights, p.boards, p.win_rate, p.low, p.high, p.se
        );
    }
    out
}

/// The sweep as a Markdown table with the crossing in words.
pub fn markdown(s: &Sweep) -> String {
    let mut out = format!(
        "# Sweep of `{}` `{}` (printed: {})\n\n| value | win rate | 95% interval | fights | boards |\n|---|---|---|---|---|\n",
        s.card, s.field, s.printed
    );
    for p in &s.points {
        let _ = writeln!(
            out,
            "| {} | {:.1}% | {:.1}–{:.1}% | {} | {} |",
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
    out += "\n\nEach value ran the same suite with the same seeds (common random numbers); intervals are the report's board bootstrap.\n";
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

#[cfg(test)]
mod tests {
    use super::*;

    fn point(value: i64, win_rate: f64) -> SweepPoint {
        SweepPoint {
            value,
            fights: 100,
            boards: 10,
            win_rate,
            low: win_rate - 0.05,
            high: win_rate + 0.05,
            se: 0.025,
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
