//! What a tune leaves for a designer: the proposed card files
//! (`cards/`), their diff (`cards.diff`), the effects it read
//! (`effects.csv`), `tune.md` and `tune.json`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::levers::Lever;
use super::{Tune, edit};

pub fn write(
    tune: &Tune,
    files: &[(PathBuf, String)],
    levers: &[Lever],
    changes: &[i32],
    chosen_cards: &Path,
    effects_csv: &str,
    dir: &Path,
) -> Result<(), String> {
    let edited = edit::edit(files, levers, changes)?;
    let cards = dir.join("cards");
    if cards.exists() {
        std::fs::remove_dir_all(&cards).map_err(|e| format!("{}: cannot clear: {e}", cards.display()))?;
    }
    std::fs::create_dir_all(&cards).map_err(|e| format!("{}: cannot create: {e}", cards.display()))?;
    // The verified round's files, as they ran.
    for entry in std::fs::read_dir(chosen_cards).map_err(|e| format!("{}: {e}", chosen_cards.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        let text = std::fs::read(entry.path()).map_err(|e| format!("{}: {e}", entry.path().display()))?;
        gridsim_core::atomic::write(&cards.join(entry.file_name()), &text)?;
    }
    gridsim_core::atomic::write(&dir.join("cards.diff"), edit::diff(&edited).as_bytes())?;
    gridsim_core::atomic::write(&dir.join("effects.csv"), effects_csv.as_bytes())?;
    gridsim_core::atomic::write(&dir.join("tune.md"), markdown(tune).as_bytes())?;
    let json = serde_json::to_string_pretty(tune).map_err(|e| e.to_string())?;
    gridsim_core::atomic::write(&dir.join("tune.json"), json.as_bytes())?;
    Ok(())
}

fn pct(x: f64) -> String {
    if x.is_finite() {
        format!("{:.1}%", x * 100.0)
    } else {
        "–".to_string()
    }
}

pub fn markdown(t: &Tune) -> String {
    let mut s = String::new();
    let band = format!("{:.0}–{:.0}%", t.band[0] * 100.0, t.band[1] * 100.0);
    let _ = writeln!(s, "# Tune of suite `{}` into {band}\n", t.suite);
    let _ = writeln!(
        s,
        "Before: {} of {} ranked rows in the band, {} outside 40–60%. \
         After (round {}, confirmed on fresh fights of the suite's boards that no round saw, paired with the catalog as it was on the same fights): \
         **{} of {} in the band, {} outside 40–60%**, with {} numbers changed.\n",
        t.before.in_band,
        t.before.ranked,
        t.before.outside_40_60,
        t.chosen_round,
        t.verified.in_band,
        t.verified.ranked,
        t.verified.outside_40_60,
        t.changes.len()
    );
    let _ = writeln!(
        s,
        "Budget: {} fights — a perturbation run of {} fight pairs (seed {}), the run as it is, up to {} verified rounds of {} fights and a confirmation of two more. \
         Levers: {}. Effects estimated: {}, of which {} stand clear of their noise (two-way clustered by board; docs/tune.md).\n",
        t.spending.budget,
        t.spending.perturbation_pairs,
        t.perturbation_seed,
        t.spending.rounds,
        t.spending.verification_fights,
        t.levers.join(", "),
        t.effects_estimated,
        t.effects_clear
    );
    let _ = writeln!(
        s,
        "## Rounds\n\n| round | numbers changed | predicted in band | verified in band | outside 40–60% |\n|---|---|---|---|---|"
    );
    for r in &t.rounds {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} of {} | {} |",
            r.round, r.changes, r.predicted_in_band, r.verified.in_band, r.verified.ranked, r.verified.outside_40_60
        );
    }
    let _ = writeln!(
        s,
        "\n## Changes\n\nThe card files in `cards/`; only the changed lines in `cards.diff`.\n\n| card | field | tier | old | new |\n|---|---|---|---|---|"
    );
    for c in &t.changes {
        let _ = writeln!(s, "| {} | {} | {} | {} | {} |", c.item, c.field, c.tier, c.old, c.new);
    }
    let _ = writeln!(
        s,
        "\n## Rows\n\nThe rate against boards without the item (the report's band rate). \
         The change is the paired change of the rate over all the row's fights, with its 95% interval.\n\n\
         | section | row | before | predicted | after | change | in band |\n|---|---|---|---|---|---|---|"
    );
    let mut rows: Vec<_> = t.rows.iter().collect();
    rows.sort_by(|a, b| {
        a.in_band
            .cmp(&b.in_band)
            .then(a.section.cmp(b.section))
            .then(a.key.cmp(&b.key))
    });
    for r in rows {
        let change = match (r.change, r.change_uncertainty) {
            (Some(d), Some(u)) => format!("{:+.1} ± {:.1}", d * 100.0, u * 100.0),
            _ => "–".to_string(),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} |",
            r.section,
            r.name,
            pct(r.before),
            pct(r.predicted),
            pct(r.after),
            change,
            if r.in_band { "yes" } else { "**no**" }
        );
    }
    let outside: Vec<_> = t.rows.iter().filter(|r| !r.in_band).collect();
    if !outside.is_empty() {
        let _ = writeln!(s, "\n## What could not be brought in, and why\n");
        for r in outside {
            let _ = writeln!(
                s,
                "- {} {} at {}: {}",
                r.section,
                r.name,
                pct(r.after),
                r.why_not.as_deref().unwrap_or("")
            );
        }
    }
    s
}
