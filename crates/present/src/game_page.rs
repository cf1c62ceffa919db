//! One whole Riftbound game as people read it: its log turn by turn as
//! text, one line per event with the Core Rules number it follows, or as a
//! self-contained HTML page with both decks and the log (`gridsim game`).

use gridsim_riftbound::cards::Catalog;
use gridsim_riftbound_game::{Bot, Deck, GameEvent, GameEventKind, GameOutcome};

/// What a page shows of one game.
pub struct GameView<'a> {
    pub title: String,
    pub catalog: &'a Catalog,
    /// Seat 0's deck, then seat 1's.
    pub decks: [&'a Deck; 2],
    pub bots: [Bot; 2],
    pub log: &'a [GameEvent],
    pub outcome: GameOutcome,
}

impl GameView<'_> {
    fn seat(&self, s: u8) -> String {
        format!(
            "[{s}] {} ({})",
            self.decks[usize::from(s)].name,
            self.bots[usize::from(s)].name()
        )
    }

    fn deck_line(&self, s: u8) -> String {
        let d = self.decks[usize::from(s)];
        format!(
            "seat {s}: {}, {} with {}",
            self.seat(s),
            self.catalog.card(d.legend).name,
            self.catalog.card(d.champion).name
        )
    }

    /// One event as words: turn, seat, what happened, the rule.
    fn event_line(&self, e: &GameEvent) -> (String, String) {
        let card = e.card.map_or_else(String::new, |c| self.catalog.card(c).name.clone());
        let detail = match e.kind {
            GameEventKind::First => "goes first".to_string(),
            GameEventKind::Mulligan => format!("sets aside {} and draws as many", e.amount),
            GameEventKind::TurnBegan => format!("turn {}", e.amount),
            GameEventKind::Held => format!("holds a battlefield: score {}", e.amount),
            GameEventKind::Conquered => format!("conquers a battlefield: score {}", e.amount),
            GameEventKind::AlreadyScored => format!("{card}: scored this turn already"),
            GameEventKind::FinalPointDrawn => format!("{card}: the final point refused, a card drawn"),
            GameEventKind::Channeled => format!("channels {} runes", e.amount),
            GameEventKind::Drew => format!("draws {card}"),
            GameEventKind::Discarded => format!("discards {card}"),
            GameEventKind::BurnedOut => format!("burns out: {} cards shuffled back", e.amount),
            GameEventKind::Paid => format!("pays for {card}: {} runes left ready", e.amount),
            GameEventKind::RecycledRunes => format!("recycles {} runes for the Power", e.amount),
            GameEventKind::Played => format!("plays {card}"),
            GameEventKind::Cast => format!("plays {card} at battlefield {}", e.amount),
            GameEventKind::Moved => format!("moves {} units to {card}", e.amount),
            GameEventKind::MovedToBase => format!("moves {} units back to base", e.amount),
            GameEventKind::Showdown => {
                let end = ["conquer", "hold", "nobody left"]
                    .get(e.amount as usize)
                    .copied()
                    .unwrap_or("");
                format!("showdown at {card}: {end}")
            }
            GameEventKind::Scored => format!("scores: {}", e.amount),
            GameEventKind::Legend => format!("{card}'s ability: {}", e.amount),
            GameEventKind::Triggered => format!("{card}'s trigger resolves, away from a showdown"),
            GameEventKind::Won => format!("wins with {} points", e.amount),
            GameEventKind::TurnCap => format!("the turn cap after {} turns: a draw", e.amount),
        };
        (format!("{} {}", self.seat(e.seat), detail), e.rule.to_string())
    }

    fn result_line(&self) -> String {
        let o = &self.outcome;
        let who = o.winner.map_or("nobody".to_string(), |s| self.seat(s));
        format!(
            "{}: {who} wins after {} turns, {} to {}; {} showdowns and combats",
            o.reason.name(),
            o.turns,
            o.score[0],
            o.score[1],
            o.showdowns
        )
    }

    /// The log as text.
    pub fn text(&self) -> String {
        let mut out = format!("{}\n{}\n{}\n", self.title, self.deck_line(0), self.deck_line(1));
        for e in self.log {
            let (line, rule) = self.event_line(e);
            out.push_str(&format!("  turn {:>3}  {:<70} ({rule})\n", e.turn, line));
        }
        out.push_str(&self.result_line());
        out.push('\n');
        out
    }

    /// The page: both decks, the log as a table, the result.
    pub fn html(&self) -> String {
        let esc = |s: &str| {
            s.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
                .replace('"', "&quot;")
        };
        let mut rows = String::new();
        for e in self.log {
            let (line, rule) = self.event_line(e);
            rows.push_str(&format!(
                "<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                e.kind.name(),
                e.turn,
                esc(&line),
                esc(&rule)
            ));
        }
        format!(
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title>\n<style>\nbody{{font-family:system-ui,sans-serif;margin:2em;max-width:70em}}\ntable{{border-collapse:collapse}}td,th{{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left}}\ntr.conquered td,tr.held td,tr.won td{{font-weight:bold}}\ntr.turn_began td{{border-top:2px solid #888}}\n</style></head><body>\n<h1>{title}</h1>\n<p>{a}</p>\n<p>{b}</p>\n<table><thead><tr><th>turn</th><th>event</th><th>rule</th></tr></thead><tbody>\n{rows}</tbody></table>\n<p id=\"result\"><strong>{result}</strong></p>\n</body></html>\n",
            title = esc(&self.title),
            a = esc(&self.deck_line(0)),
            b = esc(&self.deck_line(1)),
            result = esc(&self.result_line()),
        )
    }
}
