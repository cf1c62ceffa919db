//! Turns a [`Report`] into what people read: one self-contained HTML page
//! with charts drawn by plotters as inline SVG, a Markdown summary for a
//! chat, and JSON. The only module that knows plotters.

use plotters::prelude::*;

use gridsim_analysis::report::{PairRow, RateRow, Report, Vocabulary};

mod games;
use games::{games_html, games_markdown};

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Rows a chart draws when a section has more: enough to read at the
/// page's width. The flagged rows come first; the room left is split
/// between the two ends of the ranking.
const CHART_ROWS: usize = 40;

/// The ranked rows a chart of `rows` draws, in their order (highest rate
/// first): all of them when they fit in [`CHART_ROWS`]; otherwise every
/// row flagged out of band, and of the others the highest and the lowest
/// alike, so neither end of the ranking is hidden. How many are left out.
fn chart_rows(rows: &[RateRow]) -> (Vec<&RateRow>, usize) {
    let ranked: Vec<&RateRow> = rows.iter().filter(|r| r.ranked).collect();
    if ranked.len() <= CHART_ROWS {
        return (ranked, 0);
    }
    let others: Vec<usize> = (0..ranked.len()).filter(|&i| !ranked[i].outlier).collect();
    let room = CHART_ROWS.saturating_sub(ranked.len() - others.len());
    let mut keep: Vec<bool> = ranked.iter().map(|r| r.outlier).collect();
    for &i in others
        .iter()
        .take(room.div_ceil(2))
        .chain(others.iter().rev().take(room / 2))
    {
        keep[i] = true;
    }
    let shown: Vec<&RateRow> = ranked.iter().zip(&keep).filter(|(_, k)| **k).map(|(r, _)| *r).collect();
    let left_out = ranked.len() - shown.len();
    (shown, left_out)
}

/// A win-rate chart of a report section, titled with what it leaves out.
fn section_chart(title: &str, rows: &[RateRow], band: [f64; 2]) -> String {
    let (shown, left_out) = chart_rows(rows);
    let title = if left_out > 0 {
        format!("{title}: every flagged row, the highest and the lowest ({left_out} between not drawn)")
    } else {
        title.to_string()
    };
    rate_chart(&title, &shown, band)
}

/// A forest plot of win rates around the band: for each row, its rate
/// against boards without it (the flagged figure) as a dot with its 95%
/// interval, red for an outlier, and its rate over all its fights as a
/// grey triangle. The axis spans the rows and the band, not 0–100%, so a
/// row's distance from the band is what the eye reads.
fn rate_chart(title: &str, rows: &[&RateRow], band: [f64; 2]) -> String {
    let mut shown: Vec<&RateRow> = rows.to_vec();
    // Segment 0 is at the bottom: reversed, the first row is on top.
    shown.reverse();
    if shown.is_empty() {
        return format!(
            "<p class=\"note\">{}: no row reaches the minimum sample.</p>",
            esc(title)
        );
    }
    let apart = |r: &RateRow| (r.apart_fights > 0).then_some((r.apart_low, r.apart_win_rate, r.apart_high));
    let (mut lo, mut hi) = (band[0], band[1]);
    for r in &shown {
        lo = lo.min(r.win_rate);
        hi = hi.max(r.win_rate);
        if let Some((l, _, h)) = apart(r) {
            lo = lo.min(l);
            hi = hi.max(h);
        }
    }
    let pad = 0.02;
    let (lo, hi) = ((lo - pad).max(0.0), (hi + pad).min(1.0));
    // Sized to be read at the page's width: 26 pixels and 14-pixel labels
    // per row, 960 wide, so forty rows stay legible; a section with more
    // flagged rows grows taller rather than hide one.
    let n = shown.len() as u32;
    let height = 70 + 26 * n;
    let mut svg = String::new();
    let drawn = (|| -> Result<(), Box<dyn std::error::Error>> {
        let root = SVGBackend::with_string(&mut svg, (960, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(8)
            .margin_right(28)
            .x_label_area_size(30)
            .y_label_area_size(230)
            .build_cartesian_2d(lo..hi, (0u32..n).into_segmented())?;
        let names: Vec<String> = shown.iter().map(|r| r.name.clone()).collect();
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(n as usize)
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => names.get(*i as usize).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .x_label_formatter(&|x| format!("{:.0}%", x * 100.0))
            .x_label_style(("sans-serif", 16))
            .y_label_style(("sans-serif", 18))
            .draw()?;
        // The band.
        chart.draw_series(std::iter::once(Rectangle::new(
            [(band[0], SegmentValue::Exact(0)), (band[1], SegmentValue::Exact(n))],
            RGBColor(225, 235, 225).filled(),
        )))?;
        chart.draw_series(shown.iter().enumerate().map(|(i, r)| {
            let at = SegmentValue::CenterOf(i as u32);
            EmptyElement::at((r.win_rate, at)) + TriangleMarker::new((0, 0), 5, RGBColor(150, 150, 150).filled())
        }))?;
        chart.draw_series(shown.iter().enumerate().filter_map(|(i, r)| {
            let (l, m, h) = apart(r)?;
            let color = if r.outlier {
                RGBColor(200, 70, 60)
            } else {
                RGBColor(70, 110, 180)
            };
            Some(ErrorBar::new_horizontal(
                SegmentValue::CenterOf(i as u32),
                l,
                m,
                h,
                color.filled(),
                8,
            ))
        }))?;
        chart.draw_series(shown.iter().enumerate().filter_map(|(i, r)| {
            let (_, m, _) = apart(r)?;
            let color = if r.outlier {
                RGBColor(200, 70, 60)
            } else {
                RGBColor(70, 110, 180)
            };
            Some(Circle::new((m, SegmentValue::CenterOf(i as u32)), 4, color.filled()))
        }))?;
        root.present()?;
        Ok(())
    })();
    match drawn {
        Ok(()) => svg,
        Err(e) => format!("<p class=\"note\">chart not drawn: {}</p>", esc(&e.to_string())),
    }
}

/// A heat map of keyword against keyword: the row keyword's win rate.
fn versus_chart(report: &Report) -> String {
    let mut keys: Vec<&str> = report
        .keywords
        .iter()
        .filter(|r| r.ranked)
        .map(|r| r.key.as_str())
        .collect();
    keys.sort_unstable();
    keys.truncate(30);
    if keys.len() < 2 {
        return "<p class=\"note\">Too few keywords reach the minimum sample for a heat map.</p>".into();
    }
    let k = keys.len() as u32;
    let size = 220 + 20 * k;
    let mut svg = String::new();
    let drawn = (|| -> Result<(), Box<dyn std::error::Error>> {
        let root = SVGBackend::with_string(&mut svg, (size, size)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Keyword (row) against keyword (column): row's win rate",
                ("sans-serif", 15),
            )
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(170)
            .build_cartesian_2d((0u32..k).into_segmented(), (0u32..k).into_segmented())?;
        // Rows read top to bottom in name order, each with its number;
        // columns carry the numbers only, so long names never collide.
        let row_label = |v: &SegmentValue<u32>| match v {
            SegmentValue::CenterOf(i) if *i < k => {
                let idx = (k - 1 - *i) as usize;
                format!("{} ({})", keys[idx], idx + 1)
            }
            _ => String::new(),
        };
        let column_label = |v: &SegmentValue<u32>| match v {
            SegmentValue::CenterOf(i) if *i < k => (i + 1).to_string(),
            _ => String::new(),
        };
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(k as usize)
            .y_labels(k as usize)
            .x_label_formatter(&column_label)
            .y_label_formatter(&row_label)
            .draw()?;
        let cells = report.keyword_versus.iter().filter_map(|c| {
            let a = keys.iter().position(|k| *k == c.a)? as u32;
            let b = keys.iter().position(|k| *k == c.b)? as u32;
            (c.fights >= report.min_sample).then_some((b, k - 1 - a, c.win_rate))
        });
        chart.draw_series(cells.map(|(x, y, rate)| {
            // Blue above 50%, red below, white at 50%.
            let t = ((rate - 0.5) * 4.0).clamp(-1.0, 1.0);
            let (r, g, b) = if t >= 0.0 {
                (255.0 - 185.0 * t, 255.0 - 145.0 * t, 255.0 - 75.0 * t)
            } else {
                (255.0 + 55.0 * t, 255.0 + 185.0 * t, 255.0 + 195.0 * t)
            };
            Rectangle::new(
                [
                    (SegmentValue::Exact(x), SegmentValue::Exact(y)),
                    (SegmentValue::Exact(x + 1), SegmentValue::Exact(y + 1)),
                ],
                RGBColor(r as u8, g as u8, b as u8).filled(),
            )
        }))?;
        root.present()?;
        Ok(())
    })();
    match drawn {
        Ok(()) => svg,
        Err(e) => format!("<p class=\"note\">heat map not drawn: {}</p>", esc(&e.to_string())),
    }
}

/// A number cell that sorts by its value, not its text.
fn num(value: f64, text: &str) -> String {
    format!("<td data-v=\"{value}\">{}</td>", esc(text))
}

/// The effect column: points with their interval, or what the data cannot
/// separate the item from, or a dash.
fn effect_cells(r: &RateRow) -> String {
    match &r.effect {
        Some(e) => num(e.points, &effect_text(r)),
        None => format!("<td data-v=\"\">{}</td>", esc(&effect_text(r))),
    }
}

/// The rate against boards without the item and its interval, or dashes
/// for an item every opponent held.
fn apart_cells(r: &RateRow) -> String {
    if r.apart_fights == 0 {
        return "<td data-v=\"\">-</td><td data-v=\"\">-</td>".into();
    }
    num(r.apart_win_rate, &pct(r.apart_win_rate))
        + &num(r.apart_low, &format!("{} – {}", pct(r.apart_low), pct(r.apart_high)))
}

/// A win-rate table: one row per item, sortable by any column, its rows
/// found by the page's search box (`data-search` holds name and id).
fn rate_table(id: &str, rows: &[RateRow], with_change: bool, v: &Vocabulary) -> String {
    if rows.is_empty() {
        return "<p class=\"note\">None in this run.</p>".into();
    }
    let mut out = format!(
        "<table class=\"sortable\" id=\"{id}\"><thead><tr><th>rank</th><th>name</th><th>{bs}</th><th>{fs}</th><th>win rate</th><th>95% interval</th><th>against {bs} without it</th><th>95% interval</th><th>mirror share</th><th>effect (points, 95%)</th><th>draws</th>",
        bs = v.sides,
        fs = v.contests,
    );
    if with_change {
        out += "<th>change</th><th>beyond noise</th>";
    }
    out += "</tr></thead><tbody>";
    let mut rank = 0;
    for r in rows {
        let class = if !r.ranked {
            " class=\"low\""
        } else if r.outlier {
            " class=\"outlier\""
        } else {
            ""
        };
        let shown_rank = if r.ranked {
            rank += 1;
            rank.to_string()
        } else {
            "-".into()
        };
        let label = if r.name == r.key {
            esc(&r.name)
        } else {
            format!("{} <code>{}</code>", esc(&r.name), esc(&r.key))
        };
        out += &format!(
            "<tr{class} data-key=\"{}\" data-search=\"{}\">{}<td data-v=\"{}\">{label}</td>{}{}{}{}{}{}{}{}",
            esc(&r.key),
            esc(&format!("{} {}", r.name, r.key).to_lowercase()),
            // Unranked rows sort after every ranked one.
            num(if r.ranked { f64::from(rank) } else { 1e9 }, &shown_rank),
            esc(&r.name.to_lowercase()),
            num(r.boards as f64, &r.boards.to_string()),
            num(r.fights as f64, &r.fights.to_string()),
            num(r.win_rate, &pct(r.win_rate)),
            num(r.low, &format!("{} – {}", pct(r.low), pct(r.high))),
            apart_cells(r),
            num(r.mirror_share, &pct(r.mirror_share)),
            effect_cells(r),
            num(r.draw_rate, &pct(r.draw_rate)),
        );
        if with_change {
            match &r.change {
                Some(c) => {
                    out += &num(
                        c.delta,
                        &format!("{:+.1} pts (±{:.1})", 100.0 * c.delta, 100.0 * c.combined_uncertainty),
                    );
                    out += &format!("<td>{}</td>", if c.significant { "yes" } else { "no" });
                }
                None => out += "<td data-v=\"\">new</td><td>-</td>",
            }
        }
        out += "</tr>";
    }
    out + "</tbody></table>"
}

fn pair_table(rows: &[PairRow], v: &Vocabulary) -> String {
    let mut out = format!(
        "<table class=\"sortable\" id=\"keyword_pairs\"><thead><tr><th>keywords</th><th>{}</th><th>{}</th><th>win rate</th><th>95% interval</th><th>lift</th></tr></thead><tbody>",
        v.sides, v.contests
    );
    for r in rows.iter().take(60) {
        let class = if r.ranked { "" } else { " class=\"low\"" };
        out += &format!(
            "<tr{class} data-search=\"{}\"><td>{} + {}</td>{}{}{}{}{}</tr>",
            esc(&format!("{} {}", r.a, r.b).to_lowercase()),
            esc(&r.a),
            esc(&r.b),
            num(r.boards as f64, &r.boards.to_string()),
            num(r.fights as f64, &r.fights.to_string()),
            num(r.win_rate, &pct(r.win_rate)),
            num(r.low, &format!("{} – {}", pct(r.low), pct(r.high))),
            num(r.lift, &format!("{:+.1} pts", 100.0 * r.lift)),
        );
    }
    out + "</tbody></table>"
}

/// The keyword-against-keyword cells furthest from 50%, both ways.
fn versus_table(report: &Report) -> String {
    let mut cells: Vec<_> = report
        .keyword_versus
        .iter()
        .filter(|c| c.fights >= report.min_sample && c.a != c.b)
        .collect();
    cells.sort_by(|x, y| {
        (y.win_rate - 0.5)
            .abs()
            .total_cmp(&(x.win_rate - 0.5).abs())
            .then(x.a.cmp(&y.a))
            .then(x.b.cmp(&y.b))
    });
    let mut out = format!(
        "<p>The 30 matchups of keywords furthest from even:</p><table class=\"sortable\" id=\"keyword_versus\"><thead><tr><th>keyword</th><th>against</th><th>{}</th><th>win rate</th><th>draws</th></tr></thead><tbody>",
        report.vocabulary.contests
    );
    for c in cells.iter().take(30) {
        let draws = if c.fights == 0 {
            0.0
        } else {
            c.draws as f64 / c.fights as f64
        };
        out += &format!(
            "<tr data-search=\"{}\"><td>{}</td><td>{}</td>{}{}{}</tr>",
            esc(&format!("{} {}", c.a, c.b).to_lowercase()),
            esc(&c.a),
            esc(&c.b),
            num(c.fights as f64, &c.fights.to_string()),
            num(c.win_rate, &pct(c.win_rate)),
            num(draws, &pct(draws)),
        );
    }
    out + "</tbody></table><p class=\"note\">Every cell is in summary.json.</p>"
}

/// The self-contained HTML page: what changed in words first, then the
/// outliers, then each table with its chart. Every table sorts by a click
/// on its heading, and the search box keeps the rows whose name or id
/// holds what is typed (`PAGE_SCRIPT`).
pub fn html(report: &Report) -> String {
    let with_change = report.baseline.is_some();
    let mut body = String::new();
    body += &format!(
        "<h1>Balance report</h1><p id=\"what-changed\" class=\"lead\">{}</p>",
        esc(&report.what_changed)
    );
    if let Some(g) = &report.games {
        body += &games_html(g);
    }
    body += "<p><label>Search <input id=\"search\" type=\"search\" placeholder=\"card, keyword or id\"></label> <span class=\"note\">Click a column heading to sort by it.</span></p>";
    body += &format!(
        "<p class=\"note\">Runs: {}. {} {fs} over {} {bs} that fought. Win rates count a draw as no win; draws are shown on their own. Rows under {} {fs} or held by fewer than {} {bs} are greyed and not ranked. Each 95% interval is two-way clustered: it counts the {bs} on both sides of every {f} (a dyadic cluster-robust standard error), so it is as wide as the {bs} behind it allow, however many {fs} they played; the {bs} column is that sample. Beside each rate is the rate against {bs} without the item (mirror {fs}, where both sides hold it, left out) and the share of mirrors: a mirror counts once as a win and once as a loss, pulling a common item's rate towards 50%, so <strong>outliers are flagged on the rate against {bs} without the item</strong>. The charts show that rate (dot, with its interval) and the rate over all {fs} (grey triangle) around the band. The effect is what the item adds with the rest of the {b} held equal, in win-rate points, from a logistic model of every {f} on both {bs}' contents: for a card, one copy in place of an average copy; for a keyword or rune, having it rather than not; its interval counts {bs} too (docs/report.md). Outliers: a rate outside {}–{} beyond noise after a Benjamini–Hochberg correction over every ranked row (false discovery rate {}).</p>",
        esc(&report.runs.join(", ")),
        report.fights,
        report.boards,
        report.min_sample,
        report.min_boards,
        pct(report.band[0]),
        pct(report.band[1]),
        pct(report.false_discovery_rate),
        fs = report.vocabulary.contests,
        f = report.vocabulary.contest,
        bs = report.vocabulary.sides,
        b = report.vocabulary.side,
    );
    if let Some(b) = &report.baseline {
        body += &format!(
            "<p id=\"comparison\">Compared with the baseline run {}, {}.</p>",
            esc(b),
            esc(report.comparison.as_deref().unwrap_or("independent"))
        );
    }
    body += "<h2>Outliers</h2>";
    // What is out of band, drawn first: every flagged row of every section.
    let sections = [
        ("card", &report.cards),
        ("tier", &report.card_tiers),
        ("rune", &report.runes),
        ("keyword", &report.keywords),
        ("footprint", &report.footprints),
    ];
    let flagged: Vec<RateRow> = sections
        .iter()
        .flat_map(|(kind, rows)| {
            rows.iter().filter(|r| r.ranked && r.outlier).map(move |r| RateRow {
                name: format!("{} ({kind})", r.name),
                ..r.clone()
            })
        })
        .collect();
    if !flagged.is_empty() {
        let drawn: Vec<&RateRow> = flagged.iter().collect();
        body += &rate_chart("Out of band: every flagged row", &drawn, report.band);
    }
    if report.outliers.is_empty() {
        body += "<p>None: no ranked rate lies outside the band beyond noise.</p>";
    } else {
        body += "<ul id=\"outliers\">";
        for o in &report.outliers {
            body += &format!("<li>{}</li>", esc(&o.describe_in(&report.vocabulary)));
        }
        body += "</ul>";
    }
    if with_change {
        body += "<h2>Changes beyond noise</h2>";
        if report.significant_changes.is_empty() {
            body += "<p>None.</p>";
        } else {
            body += "<ul>";
            for c in &report.significant_changes {
                body += &format!("<li>{}</li>", esc(c));
            }
            body += "</ul>";
        }
    }
    body += "<h2>Cards</h2>";
    body += &section_chart("Card win rate", &report.cards, report.band);
    body += &rate_table("cards", &report.cards, with_change, &report.vocabulary);
    body += "<h2>Cards by tier</h2>";
    body += &section_chart("Card tier win rate", &report.card_tiers, report.band);
    body += &rate_table("card_tiers", &report.card_tiers, with_change, &report.vocabulary);
    body += "<h2>Runes</h2>";
    body += &section_chart("Rune win rate", &report.runes, report.band);
    body += &rate_table("runes", &report.runes, with_change, &report.vocabulary);
    body += "<h2>Keywords</h2>";
    body += &section_chart("Keyword win rate", &report.keywords, report.band);
    body += &rate_table("keywords", &report.keywords, with_change, &report.vocabulary);
    body += "<h2>Footprints</h2>";
    body += &section_chart("Footprint win rate", &report.footprints, report.band);
    body += &rate_table("footprints", &report.footprints, with_change, &report.vocabulary);
    body += "<h2>Keyword pairs on one side</h2><p>Lift: the pair's win rate less what the two give apart, each taken as its distance from 50%.</p>";
    body += &pair_table(&report.keyword_pairs, &report.vocabulary);
    body += "<h2>Keyword against keyword</h2>";
    body += &versus_chart(report);
    body += &versus_table(report);
    page("gridsim balance report", &body)
}

/// Sorting and search, inline so the page stays one file. A heading click
/// sorts its table by the cells' `data-v` (numbers as numbers, the rest as
/// text), again to reverse; the search box hides the rows of every
/// sortable table whose `data-search` lacks what is typed.
const PAGE_SCRIPT: &str = r#"
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('thead th').forEach(function (th, col) {
    th.addEventListener('click', function () {
      var body = table.tBodies[0];
      var up = th.getAttribute('data-order') !== 'up';
      table.querySelectorAll('thead th').forEach(function (o) { o.removeAttribute('data-order'); });
      th.setAttribute('data-order', up ? 'up' : 'down');
      var key = function (row) {
        var cell = row.cells[col];
        var v = cell.hasAttribute('data-v') ? cell.getAttribute('data-v') : cell.textContent;
        var n = parseFloat(v);
        return isNaN(n) ? v : n;
      };
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        var c = (typeof x === typeof y) ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === 'number' ? -1 : 1);
        return up ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
var search = document.getElementById('search');
if (search) {
  search.addEventListener('input', function () {
    var q = search.value.trim().toLowerCase();
    document.querySelectorAll('table.sortable tbody tr').forEach(function (r) {
      var text = r.getAttribute('data-search') || r.textContent.toLowerCase();
      r.style.display = (q === '' || text.indexOf(q) >= 0) ? '' : 'none';
    });
  });
}
"#;

/// A self-contained page around `body`.
fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{}</title><style>{}</style></head><body>{body}<script>{PAGE_SCRIPT}</script></body></html>\n",
        esc(title),
        "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}.lead{font-size:1.1em;line-height:1.5}table{border-collapse:collapse;margin:1em 0}td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}td:nth-child(2),th:nth-child(2){text-align:left}th{cursor:pointer;user-select:none}th[data-order=up]::after{content:' \\25B2'}th[data-order=down]::after{content:' \\25BC'}code{color:#888;font-size:.85em}tr.low{color:#aaa}tr.outlier{background:#fde8e6}.note{color:#777}svg{display:block;margin:1em 0;max-width:100%;height:auto}#search{font-size:1em;padding:2px 6px;width:18em}"
    )
}

fn md_rows(rows: &[RateRow], n: usize, v: &Vocabulary) -> String {
    let mut out = format!(
        "| name | id | {bs} | {fs} | win rate | 95% interval | against {bs} without it | effect (points) |\n|---|---|---:|---:|---:|---|---|---|\n",
        bs = v.sides,
        fs = v.contests,
    );
    for r in rows.iter().filter(|r| r.ranked).take(n) {
        let apart = if r.apart_fights == 0 {
            "-".to_string()
        } else {
            format!(
                "{} ({} – {})",
                pct(r.apart_win_rate),
                pct(r.apart_low),
                pct(r.apart_high)
            )
        };
        out += &format!(
            "| {} | `{}` | {} | {} | {} | {} – {} | {apart} | {} |\n",
            r.name,
            r.key,
            r.boards,
            r.fights,
            pct(r.win_rate),
            pct(r.low),
            pct(r.high),
            effect_text(r)
        );
    }
    out
}

/// The effect as a person reads it: points with the interval (and what it
/// is measured against, where that is not absence or an average copy), or
/// what the data cannot separate it from.
fn effect_text(r: &RateRow) -> String {
    match &r.effect {
        Some(e) => {
            let against = e.against.as_ref().map_or(String::new(), |a| format!(" against {a}"));
            format!(
                "{:+.1} ({:+.1} – {:+.1}){against}",
                100.0 * e.points,
                100.0 * e.low,
                100.0 * e.high
            )
        }
        None if !r.not_separable_from.is_empty() => {
            format!("not separable from {}", r.not_separable_from.join(", "))
        }
        None => "-".to_string(),
    }
}

/// The Markdown summary, short enough to paste into a chat.
pub fn markdown(report: &Report) -> String {
    let mut out = format!(
        "# Balance report\n\n{}\n\n{} {fs}, {} {bs} that fought ({}). Band {}–{}, minimum sample {}.\n\n",
        report.what_changed,
        report.fights,
        report.boards,
        report.runs.join(", "),
        pct(report.band[0]),
        pct(report.band[1]),
        report.min_sample,
        fs = report.vocabulary.contests,
        bs = report.vocabulary.sides,
    );
    if let Some(g) = &report.games {
        out += &games_markdown(g);
    }
    out += "## Outliers\n\n";
    if report.outliers.is_empty() {
        out += "None.\n\n";
    } else {
        for o in &report.outliers {
            out += &format!("- {}\n", o.describe_in(&report.vocabulary));
        }
        out += "\n";
    }
    if let Some(b) = &report.baseline {
        out += &format!("## Changes since {b} beyond noise\n\n");
        if report.significant_changes.is_empty() {
            out += "None.\n\n";
        } else {
            for c in &report.significant_changes {
                out += &format!("- {c}\n");
            }
            out += "\n";
        }
    }
    out += "## Strongest cards\n\n";
    out += &md_rows(&report.cards, 5, &report.vocabulary);
    out += "\n## Weakest cards\n\n";
    let mut weakest: Vec<RateRow> = report.cards.iter().filter(|r| r.ranked).cloned().collect();
    weakest.reverse();
    out += &md_rows(&weakest, 5, &report.vocabulary);
    out += "\n## Keywords\n\n";
    out += &md_rows(&report.keywords, 10, &report.vocabulary);
    out += &format!(
        "\n## Best keyword pairs by lift\n\n| pair | {} | win rate | lift |\n|---|---:|---:|---:|\n",
        report.vocabulary.contests
    );
    for p in report.keyword_pairs.iter().filter(|p| p.ranked).take(5) {
        out += &format!(
            "| {} + {} | {} | {} | {:+.1} pts |\n",
            p.a,
            p.b,
            p.fights,
            pct(p.win_rate),
            100.0 * p.lift
        );
    }
    out
}

/// One night as the index shows it.
pub struct Night {
    pub date: String,
    /// The report page, relative to the index.
    pub href: String,
    pub fights: u64,
    pub alarms: Vec<String>,
    /// `section: key` to (win rate, low, high), for the trends.
    pub rates: std::collections::BTreeMap<String, (f64, f64, f64)>,
}

/// The index of every night (`gridsim nightly`): newest first, each with
/// its alarms and a link to its report, then a trend chart of every item
/// the newest night flags, across every night that measured it.
pub fn nightly_index(nights: &[Night]) -> String {
    let mut body = String::from("<h1>Nightly balance reports</h1>");
    let Some(newest) = nights.last() else {
        return page("Nightly balance reports", &(body + "<p>No night has a report yet.</p>"));
    };
    body += &format!(
        "<p>{} nights. The newest, {}, raised {} alarms.</p><table><tr><th>night</th><th>fights</th><th>alarms</th></tr>",
        nights.len(),
        esc(&newest.date),
        newest.alarms.len()
    );
    for n in nights.iter().rev() {
        body += &format!(
            "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td></tr>",
            esc(&n.href),
            esc(&n.date),
            n.fights,
            if n.alarms.is_empty() {
                "none".to_string()
            } else {
                esc(&n.alarms.join("; "))
            }
        );
    }
    body += "</table><h2>Trends of the items flagged last night</h2>";
    let flagged: Vec<String> = newest
        .alarms
        .iter()
        .map(|a| a.strip_prefix("changed: ").unwrap_or(a).to_string())
        .collect();
    if flagged.is_empty() {
        body += "<p>None flagged.</p>";
    }
    for item in flagged {
        let series: Vec<(usize, (f64, f64, f64))> = nights
            .iter()
            .enumerate()
            .filter_map(|(i, n)| n.rates.get(&item).map(|r| (i, *r)))
            .collect();
        body += &trend_chart(&item, nights, &series);
    }
    page("Nightly balance reports", &body)
}

/// One item's win rate night by night, with its interval as a band.
fn trend_chart(item: &str, nights: &[Night], series: &[(usize, (f64, f64, f64))]) -> String {
    let n = nights.len().max(2);
    let mut svg = String::new();
    let drawn = (|| -> Result<(), Box<dyn std::error::Error>> {
        let root = SVGBackend::with_string(&mut svg, (760, 260)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(item, ("sans-serif", 16))
            .margin(8)
            .x_label_area_size(28)
            .y_label_area_size(48)
            .build_cartesian_2d(0f64..(n - 1) as f64, 0f64..1f64)?;
        let dates: Vec<String> = nights.iter().map(|n| n.date.clone()).collect();
        chart
            .configure_mesh()
            .x_labels(n.min(10))
            .x_label_formatter(&|x| dates.get(x.round() as usize).cloned().unwrap_or_default())
            .y_label_formatter(&|y| format!("{:.0}%", y * 100.0))
            .draw()?;
        chart.draw_series(series.iter().map(|&(i, (_, low, high))| {
            ErrorBar::new_vertical(
                i as f64,
                low,
                (low + high) / 2.0,
                high,
                RGBColor(150, 150, 150).filled(),
                8,
            )
        }))?;
        chart.draw_series(LineSeries::new(
            series.iter().map(|&(i, (rate, _, _))| (i as f64, rate)),
            RGBColor(70, 110, 180).stroke_width(2),
        ))?;
        chart.draw_series(
            series
                .iter()
                .map(|&(i, (rate, _, _))| Circle::new((i as f64, rate), 4, RGBColor(70, 110, 180).filled())),
        )?;
        root.present()?;
        Ok(())
    })();
    match drawn {
        Ok(()) => svg,
        Err(e) => format!("<p class=\"note\">chart not drawn: {}</p>", esc(&e.to_string())),
    }
}

fn figure_pct(f: Option<gridsim_analysis::match_report::Figure>) -> (String, String) {
    f.map_or(("–".into(), String::new()), |f| {
        (pct(f.value), format!("{}–{}", pct(f.low), pct(f.high)))
    })
}

/// A difference of two rates, in percentage points with its sign.
fn figure_points(f: Option<gridsim_analysis::match_report::Figure>) -> (String, String) {
    let points = |x: f64| format!("{:+.1}", x * 100.0);
    f.map_or(("–".into(), String::new()), |f| {
        (points(f.value), format!("{} to {}", points(f.low), points(f.high)))
    })
}

fn figure_num(f: Option<gridsim_analysis::match_report::Figure>) -> (String, String) {
    f.map_or(("–".into(), String::new()), |f| {
        (format!("{:.2}", f.value), format!("{:.2}–{:.2}", f.low, f.high))
    })
}

/// The match report's page: the headline figures, then one sortable table
/// per kind of item, and how every figure was computed.
pub fn match_html(r: &gridsim_analysis::match_report::MatchReport) -> String {
    let (rate, rate_ci) = figure_pct(r.win_rate);
    let (bosses, bosses_ci) = figure_num(r.bosses_per_player);
    let (nemeses, nemeses_ci) = figure_num(r.nemeses_per_player);
    let mut body = format!(
        "<h1>Match report: {}</h1><p class=\"lead\">{} matches, {} players ({} seed matches left out). Match win rate {rate} ({rate_ci}); bosses beaten per player {bosses} ({bosses_ci}); nemeses beaten {nemeses} ({nemeses_ci}).</p><p><label>Search <input id=\"search\" type=\"search\" placeholder=\"card, rune, keyword or id\"></label> <span class=\"note\">Click a column heading to sort by it.</span></p>",
        esc(&r.runs.join(", ")),
        r.matches,
        r.players,
        r.seed_matches
    );
    body.push_str("<h2>Bots</h2><table class=\"sortable\"><thead><tr><th>bot</th><th>players</th><th>match win rate</th><th>95% interval</th><th>bosses per player</th><th>nemeses per player</th><th>combined</th><th>tier 3 on the final board</th><th>10+ Gold unspent</th></tr></thead><tbody>");
    for b in &r.bots {
        let cell = |f: Option<gridsim_analysis::match_report::Figure>, pct_of: bool| {
            let (v, ci) = if pct_of { figure_pct(f) } else { figure_num(f) };
            format!("<td>{v} <span class=\"note\">({ci})</span></td>")
        };
        let (w, wci) = figure_pct(b.win_rate);
        body.push_str(&format!(
            "<tr data-search=\"{}\"><td>{}</td><td>{}</td><td>{w}</td><td>{wci}</td>{}{}{}{}{}</tr>",
            esc(&b.bot),
            esc(&b.bot),
            b.players,
            cell(b.bosses_per_player, false),
            cell(b.nemeses_per_player, false),
            cell(b.combined, true),
            cell(b.tier_three, true),
            cell(b.gold_left, true),
        ));
    }
    body.push_str("</tbody></table>");
    for (title, rows) in r.tables() {
        let reward = title == "Rewards";
        body.push_str(&format!("<h2>{title}</h2>"));
        if reward {
            body.push_str("<p class=\"note\">Boss rewards, apart from purchases: their holders beat the boss that gave them, so their win rates describe strong boards; the effect is what the reward did to the round's nemesis fight.</p>");
        }
        body.push_str(&format!(
            "<table class=\"sortable\"><thead><tr><th>#</th><th>name</th>{}<th>players</th><th>match win rate</th><th>95% interval</th><th>fights</th><th>fight win rate</th><th>95% interval</th><th>probes</th><th>effect</th><th>95% interval</th>{}</tr></thead><tbody>",
            if reward { "<th>earned</th>" } else { "" },
            if reward {
                ""
            } else {
                "<th>effect taken</th><th>effect passed</th><th>offered</th><th>pick rate</th><th>95% interval</th><th>bought</th><th>average round</th><th>95% interval</th>"
            }
        ));
        for (k, row) in rows.iter().enumerate() {
            let (w, wci) = figure_pct(row.win_rate);
            let (fw, fwci) = figure_pct(row.fight_win_rate);
            let (e, eci) = figure_points(row.effect);
            let mut tail = String::new();
            if !reward {
                let (p, pci) = figure_pct(row.pick_rate);
                let (a, aci) = figure_num(row.average_round);
                tail = format!(
                    "<td>{}</td><td>{}</td><td>{}</td><td>{p}</td><td>{pci}</td><td>{}</td><td>{a}</td><td>{aci}</td>",
                    figure_points(row.effect_taken).0,
                    figure_points(row.effect_passed).0,
                    row.offered,
                    row.bought
                );
            }
            body.push_str(&format!(
                "<tr{} data-search=\"{} {}\"><td>{}</td><td>{} <code>{}</code></td>{}<td>{}</td><td>{w}</td><td>{wci}</td><td>{}</td><td>{fw}</td><td>{fwci}</td><td>{}</td><td>{e}</td><td>{eci}</td>{tail}</tr>",
                if row.small_sample { " class=\"low\"" } else { "" },
                esc(&row.name.to_lowercase()),
                esc(&row.item),
                k + 1,
                esc(&row.name),
                esc(&row.item),
                if reward { format!("<td>{}</td>", row.earned) } else { String::new() },
                row.players,
                row.fights,
                row.probes,
            ));
        }
        body.push_str("</tbody></table>");
    }
    body.push_str(&format!(
        "<h2>How these figures are computed</h2><p class=\"note\">{}</p>",
        esc(&r.method)
    ));
    page(&format!("Match report: {}", r.runs.join(", ")), &body)
}

/// The match report as Markdown: headline figures and each table's rows.
pub fn match_markdown(r: &gridsim_analysis::match_report::MatchReport) -> String {
    let (rate, rate_ci) = figure_pct(r.win_rate);
    let (bosses, bosses_ci) = figure_num(r.bosses_per_player);
    let mut out = format!(
        "# Match report: {}\n\n{} matches, {} players ({} seed matches left out); match win rate {rate} ({rate_ci}); bosses beaten per player {bosses} ({bosses_ci}).\n",
        r.runs.join(", "),
        r.matches,
        r.players,
        r.seed_matches
    );
    out.push_str("\n## Bots\n\n| bot | players | match win rate | 95% interval | bosses per player | combined | tier 3 on the final board | 10+ Gold unspent |\n|---|---:|---:|---|---:|---:|---:|---:|\n");
    for b in &r.bots {
        let (w, wci) = figure_pct(b.win_rate);
        out.push_str(&format!(
            "| {} | {} | {w} | {wci} | {} | {} | {} | {} |\n",
            b.bot,
            b.players,
            figure_num(b.bosses_per_player).0,
            figure_pct(b.combined).0,
            figure_pct(b.tier_three).0,
            figure_pct(b.gold_left).0,
        ));
    }
    for (title, rows) in r.tables() {
        out.push_str(&format!(
            "\n## {title}\n\n| name | id | players | match win rate | 95% interval | fight win rate | probes | effect | 95% interval | pick rate | 95% interval | average round |\n|---|---|---:|---:|---|---:|---:|---:|---|---:|---|---:|\n"
        ));
        for row in rows {
            let (w, wci) = figure_pct(row.win_rate);
            let (p, pci) = figure_pct(row.pick_rate);
            let (e, eci) = figure_points(row.effect);
            let (a, _) = figure_num(row.average_round);
            let low = if row.small_sample { " (small sample)" } else { "" };
            out.push_str(&format!(
                "| {}{low} | `{}` | {} | {w} | {wci} | {} | {} | {e} | {eci} | {p} | {pci} | {a} |\n",
                row.name,
                row.item,
                row.players,
                figure_pct(row.fight_win_rate).0,
                row.probes
            ));
        }
    }
    out.push_str(&format!("\n{}\n", r.method));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(k: usize, rate: f64, outlier: bool) -> RateRow {
        RateRow {
            key: format!("r{k}"),
            name: format!("Row {k}"),
            fights: 1000,
            wins: (rate * 1000.0) as u64,
            draws: 0,
            losses: 1000 - (rate * 1000.0) as u64,
            win_rate: rate,
            draw_rate: 0.0,
            boards: 100,
            low: rate - 0.02,
            high: rate + 0.02,
            se: 0.01,
            apart_fights: 800,
            apart_wins: (rate * 800.0) as u64,
            apart_win_rate: rate,
            apart_low: rate - 0.02,
            apart_high: rate + 0.02,
            apart_se: 0.01,
            mirror_share: 0.1,
            ranked: true,
            p_outside_band: 0.0,
            outlier,
            effect: None,
            not_separable_from: Vec::new(),
            change: None,
        }
    }

    /// Issue: the charts kept the forty highest rows and so hid the weakest
    /// cards and the only flagged keyword. 70 rows, highest first, three
    /// of them flagged near the bottom and one in the middle.
    #[test]
    fn a_chart_draws_every_flagged_row_and_both_ends_of_the_ranking() {
        let flagged = [35, 66, 67, 69];
        let rows: Vec<RateRow> = (0..70)
            .map(|k| row(k, 0.9 - 0.01 * k as f64, flagged.contains(&k)))
            .collect();
        let (shown, left_out) = chart_rows(&rows);
        let keys: Vec<&str> = shown.iter().map(|r| r.key.as_str()).collect();
        for k in flagged {
            assert!(keys.contains(&format!("r{k}").as_str()), "flagged row {k} drawn");
        }
        assert!(
            keys.contains(&"r0") && keys.contains(&"r68"),
            "both ends drawn: {keys:?}"
        );
        assert_eq!(shown.len(), CHART_ROWS);
        assert_eq!(left_out, 70 - shown.len());
        // In the list's order, highest first.
        assert!(shown.windows(2).all(|w| w[0].win_rate >= w[1].win_rate));
        // A short list is drawn whole; unranked rows never are.
        let mut few: Vec<RateRow> = (0..5).map(|k| row(k, 0.5, false)).collect();
        few[4].ranked = false;
        assert_eq!(chart_rows(&few), (few.iter().take(4).collect(), 0));
    }
}
