//! One Riftbound showdown as people read it: its log as text, one line per
//! event with the ruling it cites, or as a self-contained HTML page with
//! both lanes and the log (`gridsim showdown`).

use gridsim_riftbound::cards::Catalog;
use gridsim_riftbound::showdown::{Lane, Outcome};
use gridsim_riftbound::{Event, EventKind};

/// What a page shows of one showdown.
pub struct ShowdownView<'a> {
    pub title: String,
    pub catalog: &'a Catalog,
    /// Attacker's lane, then defender's.
    pub lanes: [&'a Lane; 2],
    /// Each unit on the board, by index: its player (0 attacks) and name.
    pub units: &'a [(u8, String)],
    pub log: &'a [Event],
    pub outcome: Outcome,
}

fn player(p: u8) -> &'static str {
    if p == 0 { "attacker" } else { "defender" }
}

impl ShowdownView<'_> {
    fn lane_line(&self, p: usize) -> String {
        let lane = self.lanes[p];
        let units: Vec<String> = lane
            .units
            .iter()
            .map(|u| match u.gear {
                Some(g) => format!("{} ({})", self.catalog.card(u.card).name, self.catalog.card(g).name),
                None => self.catalog.card(u.card).name.clone(),
            })
            .collect();
        let hand: Vec<&str> = lane.hand.iter().map(|&c| self.catalog.card(c).name.as_str()).collect();
        format!(
            "{}: {}; hand: {}",
            player(p as u8),
            units.join(", "),
            if hand.is_empty() {
                "none".to_string()
            } else {
                hand.join(", ")
            }
        )
    }

    /// One event as words: kind, unit, what the amount means.
    fn event_line(&self, e: &Event) -> (String, String, String) {
        let unit = e.unit.map_or_else(String::new, |u| {
            let (p, name) = &self.units[usize::from(u.0)];
            format!("{name} #{} ({})", u.0, player(*p))
        });
        let card = |n: i32| {
            u16::try_from(n)
                .ok()
                .filter(|&c| usize::from(c) < self.catalog.cards.len())
                .map_or_else(|| n.to_string(), |c| self.catalog.card(c).name.clone())
        };
        let amount = match e.kind {
            EventKind::Damaged => format!("{} damage marked", e.amount),
            EventKind::MightChanged => format!("{:+} Might", e.amount),
            EventKind::Died => format!("with {} damage", e.amount),
            EventKind::Healed => "damage cleared".to_string(),
            EventKind::Recalled => if e.amount == 1 { "exhausted" } else { "" }.to_string(),
            EventKind::BuffRemoved => format!("{} Buffs left", e.amount),
            EventKind::Stunned | EventKind::Readied => String::new(),
            EventKind::Saved => if e.amount == 0 {
                "recalled instead"
            } else {
                "to the top of the deck"
            }
            .to_string(),
            EventKind::ReturnedToHand => format!("to the {}'s hand", player(e.amount as u8)),
            EventKind::Played if e.unit.is_some() => format!("{}, aimed at it", card(e.amount)),
            EventKind::Played => card(e.amount),
            EventKind::Resolved => card(e.amount),
            EventKind::Added => format!("chain length {}", e.amount),
            EventKind::RoleAssigned => player(e.amount as u8).to_string(),
            EventKind::Conquered | EventKind::Held => format!("by the {}", player(e.amount as u8)),
            EventKind::Recycled => format!("to the bottom of the {}'s deck", player(e.amount as u8)),
            EventKind::Moved => "to its base".to_string(),
            EventKind::HiddenTrashed => format!("{} Hidden cards", e.amount),
            EventKind::GearRecalled => format!("to the {}'s base", player(e.amount as u8)),
            EventKind::Discarded | EventKind::Exhausted => card(e.amount),
            EventKind::EnergyAdded => format!("energy now {}", e.amount),
            EventKind::Scored => format!("score now {}", e.amount),
            EventKind::Drew => format!("{} cards", e.amount),
            EventKind::Passed => format!("by the {}", player(e.amount as u8)),
            EventKind::Banished => format!("to the {}'s banishment", player(e.amount as u8)),
        };
        (unit, amount, e.ruling.to_string())
    }

    fn result_line(&self) -> String {
        let o = &self.outcome;
        let who = o.winner.map_or("nobody".to_string(), |p| format!("the {}", player(p)));
        format!(
            "{}: {who} wins; {} chain items resolved, {} spells played; units left: attacker {}, defender {}",
            o.end.name(),
            o.resolved,
            o.played,
            o.survivors[0],
            o.survivors[1]
        )
    }

    /// The log as text.
    pub fn text(&self) -> String {
        let mut out = format!("{}\n{}\n{}\n", self.title, self.lane_line(0), self.lane_line(1));
        for e in self.log {
            let (unit, amount, ruling) = self.event_line(e);
            out.push_str(&format!(
                "  {:<16} {:<34} {:<28} ({ruling})\n",
                e.kind.name(),
                unit,
                amount
            ));
        }
        out.push_str(&self.result_line());
        out.push('\n');
        out
    }

    /// The page: both lanes, the log as a table, the result.
    pub fn html(&self) -> String {
        let esc = |s: &str| {
            s.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
                .replace('"', "&quot;")
        };
        let mut rows = String::new();
        for (k, e) in self.log.iter().enumerate() {
            let (unit, amount, ruling) = self.event_line(e);
            rows.push_str(&format!(
                "<tr class=\"{}\"><td>{k}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                e.kind.name(),
                e.kind.name(),
                esc(&unit),
                esc(&amount),
                esc(&ruling)
            ));
        }
        format!(
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title>\n<style>\nbody{{font-family:system-ui,sans-serif;margin:2em;max-width:70em}}\ntable{{border-collapse:collapse}}td,th{{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left}}\ntr.died td,tr.conquered td,tr.held td{{font-weight:bold}}\n.lane{{margin:.3em 0}}\n</style></head><body>\n<h1>{title}</h1>\n<p class=\"lane\">{a}</p>\n<p class=\"lane\">{d}</p>\n<table><thead><tr><th>#</th><th>event</th><th>unit</th><th>detail</th><th>ruling</th></tr></thead><tbody>\n{rows}</tbody></table>\n<p id=\"result\"><strong>{result}</strong></p>\n</body></html>\n",
            title = esc(&self.title),
            a = esc(&self.lane_line(0)),
            d = esc(&self.lane_line(1)),
            result = esc(&self.result_line()),
        )
    }
}
