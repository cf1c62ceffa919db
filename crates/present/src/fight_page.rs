//! The fight page: one self-contained HTML file showing a fight as it
//! happened. Both grids with every unit in its cells, Vitality, Shield and
//! status bars driven by the engine's trace, a timeline to play, pause and
//! scrub, and the event log beside it, each line linked to its moment and
//! naming its rule. The only module that knows the page's HTML; the report
//! pages are `render.rs`.
//!
//! The page carries its data as JSON and draws every state from it: the
//! state after event `k` is the first trace step's frames with every later
//! step up to `k` applied. `#end` in the address opens it at the end, and
//! the `#standing` element always holds the drawn state's survivors and
//! Vitality per side, which the browser test compares with the fight's
//! outcome.

use serde_json::{Value, json};

use gridsim_engine::output::{FightReport, unit_label};
use gridsim_engine::trace::UnitFrame;
use gridsim_engine::{Engine, UnitIdx};
use gridsim_model::statuses::TimedStatus;

/// A frame as a compact array, in the order `frame_fields` names.
fn frame_json(f: &UnitFrame) -> Value {
    let mut a = vec![
        json!(f.card.0),
        json!(f.tier),
        json!(f.column),
        json!(f.row),
        json!(u8::from(f.alive)),
        json!(u8::from(f.combatant)),
        json!(u8::from(f.dormant)),
        json!(f.vitality),
        json!(f.max_vitality),
        json!(f.shield),
        json!(f.armor),
        json!(f.maim),
        json!(f.burn),
        json!(f.venom),
        json!(u8::from(f.entrapped)),
    ];
    a.extend(f.timers.iter().map(|ms| json!(ms)));
    Value::Array(a)
}

/// The names of a frame array's entries, read by the page's script: then
/// each timed status's time left, by its key.
fn frame_fields() -> Vec<&'static str> {
    let mut names = vec![
        "card",
        "tier",
        "column",
        "row",
        "alive",
        "combatant",
        "dormant",
        "vitality",
        "max_vitality",
        "shield",
        "armor",
        "maim",
        "burn",
        "venom",
        "entrapped",
    ];
    names.extend(TimedStatus::ALL.iter().map(|s| s.key()));
    names
}

/// Each timed status as `[key, label]`, for the page's chips.
fn timed_chips() -> Vec<[&'static str; 2]> {
    TimedStatus::ALL.iter().map(|s| [s.key(), s.label()]).collect()
}

/// The page of the fight that just ran in `e` (with its trace enabled),
/// whose report is `r` (built with its log).
pub fn html(e: &Engine, r: &FightReport) -> String {
    let units: Vec<Value> = (0..e.units().count)
        .map(|i| {
            let u = UnitIdx(i as u8);
            json!({
                "label": unit_label(e, u),
                "side": e.units().side[i].name(),
            })
        })
        .collect();
    let mut cards: Vec<u16> = e
        .trace
        .steps
        .iter()
        .flat_map(|s| s.changes.iter().map(|(_, f)| f.card.0))
        .collect();
    cards.sort_unstable();
    cards.dedup();
    let cards: serde_json::Map<String, Value> = cards
        .into_iter()
        .map(|c| {
            let card = e.catalog.card(gridsim_model::catalog::CardId(c));
            (
                c.to_string(),
                json!({ "name": card.name, "size": card.footprint.side() }),
            )
        })
        .collect();
    let steps: Vec<Value> = e
        .trace
        .steps
        .iter()
        .map(|s| {
            let changes: Vec<Value> = s.changes.iter().map(|(u, f)| json!([u.i(), frame_json(f)])).collect();
            json!([s.event, changes])
        })
        .collect();
    let events: Vec<Value> = r
        .log
        .as_deref()
        .unwrap_or_default()
        .iter()
        .zip(&e.log.events)
        .map(|(l, ev)| {
            let unit = if ev.unit.is_none() { -1 } else { ev.unit.i() as i64 };
            json!([l.time_ms, l.text, l.rule, l.event, unit])
        })
        .collect();
    let data = json!({
        "left": r.left,
        "right": r.right,
        "seed": r.seed,
        "fight": r.fight_index,
        "winner": r.winner,
        "reason": r.reason,
        "end_ms": r.end_ms,
        "columns": e.rules.board.columns,
        "rows": e.rules.board.rows,
        "fields": frame_fields(),
        "timed": timed_chips(),
        "units": units,
        "cards": cards,
        "steps": steps,
        "events": events,
        "events_dropped": e.log.dropped,
    });
    // `</` inside a script element would end it early.
    let data = data.to_string().replace("</", "<\\/");
    let title = format!("{} vs {}", escape(&r.left), escape(&r.right));
    let verdict = match r.winner.as_str() {
        "draw" => format!("draw by {}", r.reason),
        w => format!(
            "{} wins ({}) by {}",
            w,
            escape(if w == "left" { &r.left } else { &r.right }),
            r.reason
        ),
    };
    PAGE.replace("{{TITLE}}", &title)
        .replace("{{VERDICT}}", &verdict)
        .replace(
            "{{SUBTITLE}}",
            &format!(
                "seed {}, fight {}, ends at {:.3} s",
                r.seed,
                r.fight_index,
                f64::from(r.end_ms) / 1000.0
            ),
        )
        .replace("{{DATA}}", &data)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

const PAGE: &str = r##"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{TITLE}}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1em; color: #222; }
h1 { font-size: 1.3em; margin: 0; }
.sub { color: #666; margin-bottom: .6em; }
#controls { display: flex; gap: .6em; align-items: center; margin: .6em 0; }
#scrub { flex: 1; }
#clock { font-variant-numeric: tabular-nums; min-width: 6em; }
main { display: flex; gap: 1.2em; align-items: flex-start; }
#boards { display: flex; flex-direction: column; gap: 1em; }
.side h2 { font-size: 1em; margin: 0 0 .3em; }
.grid { display: grid; gap: 3px; background: #eee; padding: 3px; border-radius: 4px; }
.cell { background: #fafafa; border-radius: 3px; }
.unit { border: 1px solid #889; border-radius: 4px; background: #fff; padding: 3px; font-size: 11px; overflow: hidden; z-index: 1; }
.unit.left { border-color: #36c; }
.unit.right { border-color: #c63; }
.unit.dead { opacity: .35; }
.unit.acting { box-shadow: 0 0 0 2px #fc3; } /* the unit the current event happened to */
.name { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.bar { height: 6px; background: #ddd; border-radius: 3px; margin: 2px 0; position: relative; }
.bar > span { display: block; height: 100%; border-radius: 3px; }
.vit > span { background: #3a3; }
.shield > span { background: #69c; }
.chips { display: flex; flex-wrap: wrap; gap: 2px; }
.chip { background: #eee; border-radius: 3px; padding: 0 3px; }
#log { width: 34em; max-height: 80vh; overflow: auto; margin: 0; padding: 0; list-style: none; font-size: 12px; }
#log li { padding: 1px 4px; cursor: pointer; display: flex; gap: .5em; }
#log li.past { color: #222; }
#log li.future { color: #aaa; }
#log li.now { background: #ffd; }
#log .t { font-variant-numeric: tabular-nums; min-width: 5em; }
#log .rule { margin-left: auto; color: #888; }
#standing { display: block; margin: .4em 0; color: #444; }
</style>
</head>
<body>
<h1>{{TITLE}}: {{VERDICT}}</h1>
<div class="sub">{{SUBTITLE}}</div>
<div id="controls">
<button id="play" type="button">Play</button>
<select id="speed" aria-label="speed"><option value="0.25">0.25x</option><option value="1" selected>1x</option><option value="4">4x</option><option value="16">16x</option></select>
<input id="scrub" type="range" min="0" step="1" value="0" aria-label="time">
<span id="clock">0.000 s</span>
</div>
<output id="standing"></output>
<main>
<div id="boards"></div>
<ol id="log"></ol>
</main>
<script type="application/json" id="fight-data">{{DATA}}</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("fight-data").textContent);
const F = {};
D.fields.forEach((name, k) => { F[name] = k; });
const scrub = document.getElementById("scrub");
const clock = document.getElementById("clock");
const standing = document.getElementById("standing");
const playButton = document.getElementById("play");
scrub.max = String(D.end_ms);

// The state after event k: every step up to k applied, in order.
function stateAfter(k) {
  const frames = [];
  for (const [event, changes] of D.steps) {
    if (event > k) break;
    for (const [u, f] of changes) frames[u] = f;
  }
  return frames;
}
// The last event at or before time t (-1 before the first).
function eventAt(t) {
  let k = -1;
  while (k + 1 < D.events.length && D.events[k + 1][0] <= t) k++;
  return k;
}

const boards = document.getElementById("boards");
const grids = {};
for (const side of ["left", "right"]) {
  const box = document.createElement("section");
  box.className = "side";
  const h = document.createElement("h2");
  h.textContent = side + ": " + D[side];
  const grid = document.createElement("div");
  grid.className = "grid";
  grid.id = "grid-" + side;
  grid.style.gridTemplateColumns = "repeat(" + D.columns + ", 7.5em)";
  grid.style.gridTemplateRows = "repeat(" + D.rows + ", 5.2em)";
  for (let r = 0; r < D.rows; r++) for (let c = 0; c < D.columns; c++) {
    const cell = document.createElement("div");
    cell.className = "cell";
    cell.style.gridColumn = String(c + 1);
    cell.style.gridRow = String(r + 1);
    grid.appendChild(cell);
  }
  box.append(h, grid);
  boards.appendChild(box);
  grids[side] = grid;
}
const unitBoxes = D.units.map((u, i) => {
  const div = document.createElement("div");
  div.className = "unit " + u.side;
  div.dataset.unit = String(i);
  div.innerHTML = '<div class="name"></div><div class="bar vit"><span></span></div>' +
    '<div class="bar shield"><span></span></div><div class="nums"></div><div class="chips"></div>';
  grids[u.side].appendChild(div);
  return div;
});

const log = document.getElementById("log");
const lines = D.events.map(([t, text, rule], k) => {
  const li = document.createElement("li");
  li.dataset.event = String(k);
  li.innerHTML = '<span class="t"></span><span class="text"></span><span class="rule"></span>';
  li.querySelector(".t").textContent = (t / 1000).toFixed(3) + " s";
  li.querySelector(".text").textContent = text;
  li.querySelector(".rule").textContent = rule;
  li.title = "rule " + rule;
  li.addEventListener("click", () => { pause(); show(t, k); });
  log.appendChild(li);
  return li;
});

let shownEvent = -2;
function show(t, k) {
  if (k === undefined) k = eventAt(t);
  scrub.value = String(t);
  clock.textContent = (t / 1000).toFixed(3) + " s";
  if (k === shownEvent) return;
  shownEvent = k;
  const frames = stateAfter(k);
  const total = { left: [0, 0], right: [0, 0] };
  const acting = k >= 0 ? D.events[k] : null;
  frames.forEach((f, i) => {
    const u = D.units[i];
    const card = D.cards[f[F.card]];
    const div = unitBoxes[i];
    div.style.gridColumn = (f[F.column] + 1) + " / span " + card.size;
    div.style.gridRow = (f[F.row] + 1) + " / span " + card.size;
    div.classList.toggle("dead", !f[F.alive]);
    div.querySelector(".name").textContent = u.label.replace(/^[LR]\d+ /, "") + " t" + f[F.tier];
    div.title = u.label + " (" + card.name + ")";
    const max = Math.max(1, f[F.max_vitality]);
    div.querySelector(".vit > span").style.width = Math.max(0, Math.min(100, 100 * f[F.vitality] / max)) + "%";
    div.querySelector(".shield > span").style.width = Math.min(100, 100 * f[F.shield] / max) + "%";
    div.querySelector(".nums").textContent = f[F.vitality] + "/" + f[F.max_vitality] +
      (f[F.shield] > 0 ? " +" + f[F.shield] + " Shield" : "") + " · Armor " + f[F.armor];
    const chips = [];
    if (!f[F.alive]) chips.push("dead");
    for (const [name, label] of [["burn", "Burn"], ["venom", "Venom"], ["maim", "Maim"]]) {
      if (f[F[name]] > 0) chips.push(label + " " + f[F[name]]);
    }
    for (const [name, label] of D.timed) {
      if (f[F[name]] > 0) chips.push(label);
    }
    // A timed Dormant or a running Entrap already has its chip.
    if (f[F.dormant] && !chips.includes("Dormant")) chips.push("Dormant");
    if (f[F.entrapped] && !chips.includes("Entrap")) chips.push("Entrapped");
    div.querySelector(".chips").innerHTML = "";
    for (const c of chips) {
      const s = document.createElement("span");
      s.className = "chip";
      s.textContent = c;
      div.querySelector(".chips").appendChild(s);
    }
    if (f[F.combatant]) {
      total[u.side][0] += 1;
      total[u.side][1] += f[F.vitality];
    }
    div.classList.remove("acting");
  });
  if (acting && acting[4] >= 0 && unitBoxes[acting[4]]) unitBoxes[acting[4]].classList.add("acting");
  standing.dataset.event = String(k);
  standing.dataset.leftSurvivors = String(total.left[0]);
  standing.dataset.leftVitality = String(total.left[1]);
  standing.dataset.rightSurvivors = String(total.right[0]);
  standing.dataset.rightVitality = String(total.right[1]);
  standing.textContent = "standing: left " + total.left[0] + " (" + total.left[1] + " Vitality), right " +
    total.right[0] + " (" + total.right[1] + " Vitality)";
  lines.forEach((li, j) => {
    li.className = j < k ? "past" : j === k ? "now" : "future";
  });
  if (k >= 0 && lines[k]) lines[k].scrollIntoView({ block: "nearest" });
}

// Ticks by timer rather than animation frames: a page in a background tab
// (or a headless browser) gets no frames, and the clock should still run.
let playing = false;
let last = 0;
function frame() {
  if (!playing) return;
  const now = performance.now();
  const speed = Number(document.getElementById("speed").value);
  const t = Math.min(D.end_ms, Number(scrub.value) + (now - last) * speed);
  last = now;
  show(t);
  if (t >= D.end_ms) { pause(); return; }
  setTimeout(frame, 30);
}
function pause() { playing = false; playButton.textContent = "Play"; }
playButton.addEventListener("click", () => {
  if (playing) { pause(); return; }
  if (Number(scrub.value) >= D.end_ms) show(0);
  playing = true;
  playButton.textContent = "Pause";
  last = performance.now();
  setTimeout(frame, 30);
});
scrub.addEventListener("input", () => { pause(); show(Number(scrub.value)); });
if (location.hash === "#end") show(D.end_ms, D.events.length - 1); else show(0);
</script>
</body>
</html>
"##;
