//! The documentation names everything a designer can type, so nothing in
//! the vocabulary goes undocumented when it grows; and the mutation
//! records name the code as it stands.

use gridsim::ability::{
    CardKind, Condition, Count, Footprint, KeywordName, Lane, PackageEvent, PackageTiming, QuestEvent, RuneBoard,
    RuneEffect, Scope, StatName, Trigger,
};
use gridsim::effects::Effect;
use gridsim::engine::EventKind;
use gridsim::scenario::Field;

fn missing(doc: &str, names: &[&str]) -> Vec<String> {
    names
        .iter()
        .filter(|n| !doc.contains(&format!("`{n}`")))
        .map(|n| n.to_string())
        .collect()
}

#[test]
fn card_format_documents_every_name() {
    let doc = std::fs::read_to_string("docs/card-format.md").expect("docs/card-format.md");
    let mut names: Vec<&str> = Vec::new();
    names.extend(Effect::ALL.iter().map(|x| x.name()));
    names.extend(Scope::ALL.iter().map(|x| x.name()));
    names.extend(Lane::ALL.iter().map(|x| x.name()));
    names.extend(Condition::ALL.iter().map(|x| x.name()));
    names.extend(Count::ALL.iter().map(|x| x.name()));
    names.extend(Trigger::ALL.iter().map(|x| x.name()));
    names.extend(KeywordName::ALL.iter().map(|x| x.name()));
    names.extend(CardKind::ALL.iter().map(|x| x.name()));
    names.extend(Footprint::ALL.iter().map(|x| x.name()));
    names.extend(PackageEvent::ALL.iter().map(|x| x.name()));
    names.extend(PackageTiming::ALL.iter().map(|x| x.name()));
    names.extend(StatName::ALL.iter().map(|x| x.name()));
    names.extend(RuneEffect::ALL.iter().map(|x| x.name()));
    names.extend(RuneBoard::ALL.iter().map(|x| x.name()));
    names.extend(QuestEvent::ALL.iter().map(|x| x.name()));
    let gaps = missing(&doc, &names);
    assert!(gaps.is_empty(), "docs/card-format.md does not mention: {gaps:?}");
}

#[test]
fn card_format_lists_exactly_the_keywords_a_card_may_print() {
    // A name in the keywords row that the loader refuses (Reflect is a
    // rune's effect, not a printed keyword) sends a designer to an error.
    let doc = std::fs::read_to_string("docs/card-format.md").expect("docs/card-format.md");
    let row = doc
        .lines()
        .find(|l| l.starts_with("| keywords |"))
        .expect("the names table has a keywords row");
    let mut listed: Vec<&str> = row.split('`').skip(1).step_by(2).collect();
    let mut printed: Vec<&str> = KeywordName::ALL.iter().map(|k| k.name()).collect();
    listed.sort_unstable();
    printed.sort_unstable();
    assert_eq!(listed, printed);
}

#[test]
fn scenario_format_documents_every_event_and_field() {
    let doc = std::fs::read_to_string("docs/scenarios.md").expect("docs/scenarios.md");
    let mut names: Vec<&str> = EventKind::ALL.iter().map(|k| k.name()).collect();
    names.extend(Field::names());
    let gaps = missing(&doc, &names);
    assert!(gaps.is_empty(), "docs/scenarios.md does not mention: {gaps:?}");
}

#[test]
fn match_docs_name_every_bot_reason_and_log_event() {
    // A designer reads the log's reasons and events, and seats bots by
    // name, from docs/matches.md.
    use gridsim::matches::bots::Reason;
    use gridsim::matches::{Event, Policy};
    let doc = std::fs::read_to_string("docs/matches.md").expect("docs/matches.md");
    let mut names: Vec<&str> = Reason::ALL.iter().map(|r| r.name()).collect();
    names.extend(Event::NAMES);
    names.extend(Policy::NAMES);
    let gaps = missing(&doc, &names);
    assert!(gaps.is_empty(), "docs/matches.md does not mention: {gaps:?}");
}

/// The catalog pages are what `gridsim catalog` writes from the card files
/// today: a changed card shows up as a stale page.
#[test]
fn catalog_pages_are_generated_from_the_cards() {
    let catalog = gridsim::config::load_catalog(&[
        std::path::PathBuf::from("configs/cards"),
        std::path::PathBuf::from("configs/runes"),
    ])
    .expect("catalog");
    for page in gridsim::card_text::pages(&catalog) {
        let path = std::path::Path::new(gridsim::card_text::DOCS_DIR).join(&page.path);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == page.markdown,
            "{} differs from the card files: run `gridsim catalog`",
            path.display()
        );
    }
}

/// The mutation table sets apart the survivors judged equivalent
/// (docs/mutation.md): each listed one must be a survivor the outcomes
/// record at its line as the code stands, with a reason, so a listing
/// cannot outlive the code it was written for, nor hide a mutant the
/// scenarios now catch or one never run.
#[test]
fn every_equivalent_mutant_is_a_recorded_survivor_at_its_line() {
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{p}: {e}"));
    let outcomes = read("docs/mutation-outcomes.tsv");
    let missed: std::collections::BTreeSet<&str> = outcomes
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f.get(1) == Some(&"missed")).then(|| f[2])
        })
        .collect();
    let equivalents = read("docs/mutation-equivalents.tsv");
    let mut problems = Vec::new();
    for (n, row) in equivalents.lines().enumerate().skip(1) {
        let (mutant, why) = row.split_once('\t').unwrap_or((row, ""));
        if why.trim().len() < 20 {
            problems.push(format!("line {}: {mutant}: no reason given", n + 1));
        }
        if !missed.contains(mutant) {
            problems.push(format!(
                "line {}: {mutant}: not a survivor in docs/mutation-outcomes.tsv",
                n + 1
            ));
        }
        // "FILE:LINE:COL: replace A with B in …", A an operator: A stands at
        // that place.
        let mut at = mutant.splitn(4, ':');
        let (file, line, col, what) = (at.next(), at.next(), at.next(), at.next().unwrap_or(""));
        let operator = what
            .strip_prefix(" replace ")
            .and_then(|r| r.split_once(" with "))
            .map(|(a, _)| a);
        if let (Some(file), Some(Ok(line)), Some(Ok(col)), Some(op)) = (
            file,
            line.map(str::parse::<usize>),
            col.map(str::parse::<usize>),
            operator.filter(|a| a.chars().all(|c| "+-*/%<>=!&|^".contains(c))),
        ) {
            let text = read(file);
            let found = text.lines().nth(line - 1).and_then(|l| l.get(col - 1..)).unwrap_or("");
            if !found.starts_with(op) {
                problems.push(format!(
                    "line {}: {mutant}: `{op}` is not at {file}:{line}:{col}",
                    n + 1
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "docs/mutation-equivalents.tsv:\n{}",
        problems.join("\n")
    );
}
