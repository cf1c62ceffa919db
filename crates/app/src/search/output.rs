//! What a search writes: the boards as TOML, search.md, archive.csv and
//! search.json.

use super::*;

pub(super) fn slug(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// A board as a board file `gridsim fight` reads.
pub fn board_toml(m: &Measured) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# {}: won {:.1}% of {} final fights against the suite's boards (95% interval {:.1}-{:.1}%).",
        m.name,
        m.win_rate * 100.0,
        m.fights,
        m.low * 100.0,
        m.high * 100.0
    );
    if let Some(d) = m.versus_suite_best {
        let _ = writeln!(
            out,
            "# Against the best suite board on the same fights: {:+.1} points ({:+.1} to {:+.1}).",
            d.delta * 100.0,
            d.low * 100.0,
            d.high * 100.0
        );
    }
    let _ = writeln!(out, "name = {:?}", m.name);
    if let Some(r) = &m.resonance {
        let _ = writeln!(out, "resonance = {r:?}");
    }
    for r in &m.runes {
        let _ = writeln!(
            out,
            "\n[[rune]]\nrune = {:?}\ntier = {}\nboard = {:?}\ncell = {}",
            r.rune, r.tier, r.board, r.cell
        );
    }
    for u in &m.units {
        let _ = writeln!(
            out,
            "\n[[unit]]\ncard = {:?}\ntier = {}\ncell = [{}, {}]",
            u.card, u.tier, u.cell[0], u.cell[1]
        );
    }
    out
}

pub(super) fn percent(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

/// The search as Markdown: the boards, what they share, the archive.
pub fn markdown(s: &Search) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Search on `{}` (seed {})\n", s.suite, s.seed);
    let _ = writeln!(
        out,
        "{} candidates ({} stopped early by racing), {} of {} fights spent; boards kept to {}.\n",
        s.candidates, s.raced_out, s.fights_spent, s.budget, s.limits
    );
    let _ = writeln!(
        out,
        "| board | origin | file | win rate | 95% interval | fights | vs best suite board | mean Speed | keywords |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|");
    for m in s.boards.iter().chain(s.suite_best.iter()) {
        let versus = m.versus_suite_best.map_or("—".to_string(), |d| {
            format!(
                "{:+.1} ({:+.1} to {:+.1})",
                d.delta * 100.0,
                d.low * 100.0,
                d.high * 100.0
            )
        });
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {}–{} | {} | {} | {:.1} | {} |",
            m.name,
            m.origin,
            m.file,
            percent(m.win_rate),
            percent(m.low),
            percent(m.high),
            m.fights,
            versus,
            m.mean_speed,
            m.keywords.len()
        );
    }
    let _ = writeln!(out, "\n## What the top boards share\n");
    if s.shared.cards.is_empty() {
        let _ = writeln!(out, "No card is on two of the top boards.");
    }
    for c in &s.shared.cards {
        let _ = writeln!(
            out,
            "- `{}` on {} of {} boards, mean tier {:.1}, most often at [{}, {}]",
            c.card,
            c.boards,
            s.boards.len(),
            c.mean_tier,
            c.usual_cell[0],
            c.usual_cell[1]
        );
    }
    if !s.shared.keywords.is_empty() {
        let list: Vec<String> = s.shared.keywords.iter().map(|(k, n)| format!("{k} ({n})")).collect();
        let _ = writeln!(out, "- keywords: {}", list.join(", "));
    }
    out
}

/// The archive, one row per niche.
pub(super) fn archive_csv(s: &Search) -> String {
    let mut out = String::from("speed_bin,keyword_bin,search_win_rate,fights\n");
    for (n, rate, fights) in &s.niches {
        let _ = writeln!(out, "{},{},{rate:.6},{fights}", n.speed_bin, n.keyword_bin);
    }
    out
}

pub(super) fn write(s: &Search, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    let mut files: Vec<(String, String)> = s.boards.iter().map(|m| (m.file.clone(), board_toml(m))).collect();
    if let Some(m) = &s.suite_best {
        files.push((m.file.clone(), board_toml(m)));
    }
    files.push(("search.md".into(), markdown(s)));
    files.push(("archive.csv".into(), archive_csv(s)));
    files.push((
        "search.json".into(),
        serde_json::to_string_pretty(s).map_err(|e| e.to_string())?,
    ));
    for (name, text) in files {
        gridsim_core::atomic::write(&dir.join(name), text.as_bytes())?;
    }
    Ok(())
}
