//! A run of games' own sections of the report page and summary: the
//! decks, the matrix, going first, length and end, the bots, and the cards
//! (`docs/report.md`, "Runs of games").

use super::{esc, figure_num, figure_pct};
use gridsim_analysis::game_cards::{COMPARISONS, CardRow, PairedChange};
use gridsim_analysis::game_report::GameReport;

/// A cell of a matrix: the score, its interval as the title.
fn matrix_html(names: &[String], m: &[Vec<Option<gridsim_analysis::match_report::Figure>>]) -> String {
    let mut t = String::from("<table class=\"matrix\"><thead><tr><th>row against column</th>");
    for n in names {
        t += &format!("<th>{}</th>", esc(n));
    }
    t += "</tr></thead><tbody>";
    for (a, row) in m.iter().enumerate() {
        t += &format!("<tr><th>{}</th>", esc(&names[a]));
        for f in row {
            let (v, i) = figure_pct(*f);
            t += &format!("<td title=\"95% interval {i}\">{v}</td>");
        }
        t += "</tr>";
    }
    t + "</tbody></table>"
}

/// A run of games' own sections: the decks, the matrix, going first, the
/// games' length and end, the bots (`docs/report.md`, "Runs of games").
pub(super) fn games_html(g: &GameReport) -> String {
    let mut out = String::from(
        "<h2 id=\"decks\">Decks</h2><p class=\"note\">Each deck's score against the other decks of the run (a draw is half a win; mirrors left out), with a 95% interval that counts games: a game's decks and bots are fixed by the suite, and games given them are independent. A deck's score is against this field, not any other. A row is flagged when its interval lies wholly outside the band.</p><table class=\"sortable\"><thead><tr><th>deck</th><th>games</th><th>score</th><th>95% interval</th>",
    );
    if g.baseline.is_some() {
        out += "<th>change, paired</th>";
    }
    out += "</tr></thead><tbody>";
    for d in &g.decks {
        let (v, i) = figure_pct(d.score);
        let flag = if d.outside_band { " class=\"outlier\"" } else { "" };
        let moved = if g.baseline.is_some() {
            format!("<td>{}</td>", change(d.change))
        } else {
            String::new()
        };
        out += &format!(
            "<tr{flag}><td>{}</td><td>{}</td><td>{v}</td><td>{i}</td>{moved}</tr>",
            esc(&d.name),
            d.games
        );
    }
    out += "</tbody></table><h2 id=\"matrix\">Deck against deck</h2><p class=\"note\">The row deck's score against the column deck, in either seat; hover a cell for its 95% interval.</p>";
    let names: Vec<String> = g.decks.iter().map(|d| d.name.clone()).collect();
    out += &matrix_html(&names, &g.matrix);
    let (first, first_i) = figure_pct(g.first_player);
    let (mirror, mirror_i) = figure_pct(g.first_player_mirrors);
    let (turns, turns_i) = figure_num(g.mean_turns);
    let (cap, cap_i) = figure_pct(g.turn_cap_share);
    out += &format!(
        "<h2 id=\"game-length\">Going first, length and end</h2><ul><li>The first player's score: {first} ({first_i}); in mirrors alone: {mirror} ({mirror_i}).</li><li>Turns a game, both players' counted: {turns} ({turns_i}).</li><li>Games ended by the turn cap, drawn: {cap} ({cap_i}).</li></ul>"
    );
    out += "<h2 id=\"bots\">Bots</h2><p class=\"note\">Each bot's score against the other bots (games between two of the same bot left out), and bot against bot.</p><table><thead><tr><th>bot</th><th>games</th><th>score</th><th>95% interval</th></tr></thead><tbody>";
    for b in &g.bots {
        let (v, i) = figure_pct(b.score);
        out += &format!(
            "<tr><td>{}</td><td>{}</td><td>{v}</td><td>{i}</td></tr>",
            esc(&b.name),
            b.games
        );
    }
    out += "</tbody></table>";
    let bots: Vec<String> = g.bots.iter().map(|b| b.name.clone()).collect();
    out += &matrix_html(&bots, &g.bot_matrix);
    out + &cards_html(g)
}

/// A gap in points and its interval.
fn gap(f: Option<gridsim_analysis::match_report::Figure>) -> (String, String) {
    match f {
        Some(f) => (
            format!("{:+.1}", 100.0 * f.value),
            format!("{:+.1} to {:+.1}", 100.0 * f.low, 100.0 * f.high),
        ),
        None => ("–".into(), "–".into()),
    }
}

/// A change in points, its uncertainty, and a mark when beyond noise.
fn change(c: Option<PairedChange>) -> String {
    match c {
        Some(c) => format!(
            "{:+.1} ±{:.1}{}",
            100.0 * c.delta,
            100.0 * c.uncertainty,
            if c.significant { " ▲" } else { "" }
        ),
        None => "–".into(),
    }
}

/// The cards, the largest opening-hand gap first.
fn cards_in_order(g: &GameReport) -> Vec<&CardRow> {
    let mut rows: Vec<&CardRow> = g.cards.iter().collect();
    let key = |c: &CardRow| c.gaps[0].map_or(f64::NEG_INFINITY, |f| f.value);
    rows.sort_by(|a, b| key(b).total_cmp(&key(a)).then(a.key.cmp(&b.key)));
    rows
}

const CARDS_NOTE: &str = "Per card, the score of a side whose deck holds it with the card in its opening hand, in hand at all (opening or drawn), or played, less the same deck's score against the same opponent without it, in points, weighted by the games of each deck and opponent. A strong deck's wins are not its cards': each comparison is made within a deck. The 95% interval counts games (a game's two sides share one outcome). The opening hand is dealt before anything happens and is the comparison a row is flagged by, when its interval lies wholly beyond the band's half-width from 0; whether a card is drawn later or played depends on how long a game lasts and how it goes, so those gaps describe the card in play rather than measure its worth.";

fn cards_html(g: &GameReport) -> String {
    if g.cards.is_empty() {
        return String::new();
    }
    let mut out = format!("<h2 id=\"cards\">Cards</h2><p class=\"note\">{CARDS_NOTE}</p>");
    if let Some(b) = &g.baseline {
        out += &format!(
            "<p class=\"note\">Against {}: {}. The holders' change is the change in the score of the decks holding the card (it moves with every card of a deck that changed); the gap change is the change in the card's own in-hand gap, paired game by game (it moves with the card itself). ▲: beyond noise after the correction for testing many rows.</p>",
            esc(b),
            esc(g.comparison.as_deref().unwrap_or(""))
        );
    }
    out += "<table class=\"sortable\"><thead><tr><th>card</th><th>decks</th><th>sides</th><th>in hand</th><th>played</th><th>first played, turn</th><th>Energy paid</th>";
    for c in COMPARISONS {
        out += &format!("<th>{c} gap</th><th>95% interval</th>");
    }
    if g.baseline.is_some() {
        out += "<th>holders' change</th><th>gap change</th>";
    }
    out += "</tr></thead><tbody>";
    for c in cards_in_order(g) {
        let moved = c.gap_change.is_some_and(|x| x.significant);
        let flag = if c.outside_band || moved {
            " class=\"outlier\""
        } else {
            ""
        };
        out += &format!(
            "<tr{flag}><td>{}</td><td>{}</td><td>{}</td><td>{:.0}%</td><td>{:.0}%</td><td>{}</td><td>{}</td>",
            esc(&c.name),
            c.decks,
            c.sides,
            100.0 * c.in_hand_share,
            100.0 * c.played_share,
            c.first_played_turn.map_or("–".into(), |t| format!("{t:.1}")),
            c.energy_paid.map_or("–".into(), |e| format!("{e:.1}")),
        );
        for f in c.gaps {
            let (v, i) = gap(f);
            out += &format!("<td>{v}</td><td>{i}</td>");
        }
        if g.baseline.is_some() {
            out += &format!("<td>{}</td><td>{}</td>", change(c.change), change(c.gap_change));
        }
        out += "</tr>";
    }
    out + "</tbody></table>"
}

fn cards_markdown(g: &GameReport) -> String {
    if g.cards.is_empty() {
        return String::new();
    }
    let mut out = format!("## Cards\n\n{CARDS_NOTE}\n\n");
    if let Some(b) = &g.baseline {
        out += &format!("Against {b}: {}.\n\n", g.comparison.as_deref().unwrap_or(""));
    }
    out += "| card | in hand | played | opening hand gap | in hand gap | played gap |";
    if g.baseline.is_some() {
        out += " holders' change | gap change |";
    }
    out += "\n|---|---:|---:|---|---|---|";
    if g.baseline.is_some() {
        out += "---|---|";
    }
    out += "\n";
    for c in cards_in_order(g) {
        let flag = if c.outside_band { " (beyond the band)" } else { "" };
        out += &format!(
            "| {}{flag} | {:.0}% | {:.0}% |",
            c.name,
            100.0 * c.in_hand_share,
            100.0 * c.played_share
        );
        for f in c.gaps {
            let (v, i) = gap(f);
            out += &format!(" {v} ({i}) |");
        }
        if g.baseline.is_some() {
            out += &format!(" {} | {} |", change(c.change), change(c.gap_change));
        }
        out += "\n";
    }
    out + "\n"
}

/// The same sections in Markdown.
pub(super) fn games_markdown(g: &GameReport) -> String {
    let mut out = String::from("## Decks\n\n| deck | games | score | 95% interval |\n|---|---:|---:|---|\n");
    for d in &g.decks {
        let (v, i) = figure_pct(d.score);
        let flag = if d.outside_band { " (outside the band)" } else { "" };
        out += &format!("| {}{flag} | {} | {v} | {i} |\n", d.name, d.games);
    }
    out += "\n## Deck against deck\n\n| row against column |";
    for d in &g.decks {
        out += &format!(" {} |", d.name);
    }
    out += "\n|---|";
    out += &"---:|".repeat(g.decks.len());
    out += "\n";
    for (a, row) in g.matrix.iter().enumerate() {
        out += &format!("| {} |", g.decks[a].name);
        for f in row {
            out += &format!(" {} |", figure_pct(*f).0);
        }
        out += "\n";
    }
    let (first, first_i) = figure_pct(g.first_player);
    let (mirror, mirror_i) = figure_pct(g.first_player_mirrors);
    let (turns, turns_i) = figure_num(g.mean_turns);
    let (cap, cap_i) = figure_pct(g.turn_cap_share);
    out += &format!(
        "\n## Going first, length and end\n\n- The first player's score: {first} ({first_i}); in mirrors alone: {mirror} ({mirror_i}).\n- Turns a game: {turns} ({turns_i}).\n- Ended by the turn cap, drawn: {cap} ({cap_i}).\n\n## Bots\n\n| bot | games | score | 95% interval |\n|---|---:|---:|---|\n"
    );
    for b in &g.bots {
        let (v, i) = figure_pct(b.score);
        out += &format!("| {} | {} | {v} | {i} |\n", b.name, b.games);
    }
    out + "\n" + &cards_markdown(g)
}
