//! Golden results: what the engine produces for the golden suite, pinned.
//!
//! Every other determinism test compares the code with itself; this one
//! compares it with results committed earlier, so a change that alters any
//! fight — deliberate or not — fails here and names the fights it changed.
//!
//! - `tests/golden/suite.toml`: the suite, a frozen copy of the nightly
//!   suite of the day the results were first pinned, so changing the
//!   nightly suite does not move them.
//! - `tests/fixtures/golden/catalog/` and `tests/fixtures/golden/rules.toml`:
//!   frozen copies of the cards, runes and rules the results were last
//!   pinned on, so tuning `configs/` never moves them: only a change to
//!   what a fight produces does.
//! - `tests/golden/first-20000.tsv`: one row per fight for the first
//!   20,000 fights of that suite (winner, end reason and
//!   time, survivors, remaining Vitality and damage dealt per side).
//! - `tests/golden/first-100000.sha256`: the SHA-256 of the fights and
//!   units rows of its first 100,000 fights, in a canonical text form.
//!
//! To regenerate on purpose (and name the rule that made the difference in
//! the commit): `GRIDSIM_BLESS=1 cargo test --release --test golden`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use gridsim::batch;
use gridsim::catalog::Catalog;
use gridsim::config;
use gridsim::engine::Engine;
use gridsim::settings::Rules;
use gridsim::sink::{FightColumns, UnitColumns};
use gridsim::suite::Suite;

const SUITE_FILE: &str = "tests/golden/suite.toml";
const CATALOG_DIR: &str = "tests/fixtures/golden/catalog";
const RULES_FILE: &str = "tests/fixtures/golden/rules.toml";
const ROWS_FILE: &str = "tests/golden/first-20000.tsv";
const DIGEST_FILE: &str = "tests/golden/first-100000.sha256";
const ROW_FIGHTS: u64 = 20_000;
const DIGEST_FIGHTS: u64 = 100_000;
const PART: u64 = 5_000;

fn setup() -> (Catalog, Rules, Suite) {
    let rules = config::load_rules(Path::new(RULES_FILE)).expect("rules");
    let catalog = config::load_catalog(&[PathBuf::from(CATALOG_DIR)]).expect("catalog");
    let suite = config::load_suite(Path::new(SUITE_FILE), &catalog, &rules).expect("suite");
    (catalog, rules, suite)
}

/// The fights and units rows of fights `0..n`, in fight order, simulated on
/// two threads part by part exactly as a batch run does.
fn simulate_parts(catalog: &Catalog, rules: Rules, suite: &Suite, n: u64) -> Vec<(FightColumns, UnitColumns)> {
    let parts: Vec<u64> = (0..n.div_ceil(PART)).collect();
    let mut out: Vec<Option<(FightColumns, UnitColumns)>> = vec![None; parts.len()];
    std::thread::scope(|scope| {
        for (lane, slots) in out.chunks_mut(parts.len().div_ceil(2)).enumerate() {
            let base = lane * parts.len().div_ceil(2);
            scope.spawn(move || {
                let mut engine = Engine::new(catalog, rules);
                for (k, slot) in slots.iter_mut().enumerate() {
                    let first = (base + k) as u64 * PART;
                    let count = PART.min(n - first);
                    let (mut f, mut u) = (FightColumns::default(), UnitColumns::default());
                    batch::simulate(&mut engine, suite, first, count, &mut f, &mut u);
                    *slot = Some((f, u));
                }
            });
        }
    });
    out.into_iter().map(|p| p.expect("every part simulated")).collect()
}

const HEADER: &str = "fight_id\tleft_board\tright_board\twinner\tend_reason\tend_ms\tleft_survivors\tright_survivors\tleft_vitality\tright_vitality\tleft_damage\tright_damage";

/// One line per fight of a part: the outcome and each side's damage dealt.
fn summary_rows(f: &FightColumns, u: &UnitColumns, out: &mut Vec<String>) {
    let mut unit = 0;
    for r in 0..f.fight_id.len() {
        let mut damage = [0i64; 2];
        while unit < u.fight_id.len() && u.fight_id[unit] == f.fight_id[r] {
            damage[usize::from(u.side[unit] != "left")] += u.damage_dealt[unit];
            unit += 1;
        }
        out.push(format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            f.fight_id[r],
            f.left_board[r],
            f.right_board[r],
            f.winner[r],
            f.end_reason[r],
            f.end_ms[r],
            f.left_survivors[r],
            f.right_survivors[r],
            f.left_vitality[r],
            f.right_vitality[r],
            damage[0],
            damage[1]
        ));
    }
}

/// SHA-256 over every column of every fights and units row, as text: the
/// digest does not depend on how Parquet happens to encode the rows.
fn digest(parts: &[(FightColumns, UnitColumns)]) -> String {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    let mut line = String::new();
    for (f, u) in parts {
        for r in 0..f.fight_id.len() {
            line.clear();
            let _ = writeln!(
                line,
                "F {} {} {} {} {} {} {} {} {} {} {}",
                f.fight_id[r],
                f.master_seed[r],
                f.left_board[r],
                f.right_board[r],
                f.winner[r],
                f.end_reason[r],
                f.end_ms[r],
                f.left_survivors[r],
                f.right_survivors[r],
                f.left_vitality[r],
                f.right_vitality[r]
            );
            h.update(line.as_bytes());
        }
        for r in 0..u.fight_id.len() {
            line.clear();
            let _ = writeln!(
                line,
                "U {} {} {} {} {} {} {} {} {} {} {} {} {} {} {}",
                u.fight_id[r],
                u.side[r],
                u.slot[r],
                u.card[r],
                u.tier[r],
                u.column[r],
                u.row[r],
                u.damage_dealt[r],
                u.damage_taken[r],
                u.healing[r],
                u.kills[r],
                u.deaths[r],
                u.revivals[r],
                u.activations[r],
                u.survived[r]
            );
            h.update(line.as_bytes());
        }
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// A readable account of how two row sets differ: the first differing
/// fights with each changed column, and how many differ in all.
fn describe_differences(expected: &[&str], actual: &[String]) -> String {
    let names: Vec<&str> = HEADER.split('\t').collect();
    let mut text = String::new();
    let mut differing = 0;
    for (i, (e, a)) in expected.iter().zip(actual).enumerate() {
        if *e == a.as_str() {
            continue;
        }
        differing += 1;
        if differing <= 20 {
            let changes: Vec<String> = e
                .split('\t')
                .zip(a.split('\t'))
                .zip(&names)
                .filter(|((x, y), _)| x != y)
                .map(|((x, y), n)| format!("{n} {x} -> {y}"))
                .collect();
            let _ = writeln!(text, "  fight {i}: {}", changes.join(", "));
        }
    }
    if expected.len() != actual.len() {
        let _ = writeln!(text, "  {} rows expected, {} produced", expected.len(), actual.len());
    }
    format!(
        "{differing} of {} fights differ from the golden results:\n{text}",
        expected.len()
    )
}

#[test]
fn the_golden_suite_produces_the_golden_results() {
    let (catalog, rules, suite) = setup();
    assert!(suite.fights >= DIGEST_FIGHTS, "the golden suite holds too few fights");
    let parts = simulate_parts(&catalog, rules, &suite, DIGEST_FIGHTS);
    let mut rows = vec![HEADER.to_string()];
    for (f, u) in parts.iter().take((ROW_FIGHTS / PART) as usize) {
        summary_rows(f, u, &mut rows);
    }
    let table = rows.join("\n") + "\n";
    let sum = format!("{}  first {DIGEST_FIGHTS} fights of {SUITE_FILE}\n", digest(&parts));

    if std::env::var_os("GRIDSIM_BLESS").is_some() {
        std::fs::create_dir_all("tests/golden").expect("tests/golden");
        std::fs::write(ROWS_FILE, &table).expect("write golden rows");
        std::fs::write(DIGEST_FILE, &sum).expect("write golden digest");
        return;
    }

    let regen = "if a rule changed on purpose, regenerate with `GRIDSIM_BLESS=1 cargo test --release --test golden` and name the rule in the commit";
    let expected = std::fs::read_to_string(ROWS_FILE).unwrap_or_else(|e| panic!("{ROWS_FILE}: {e}; {regen}"));
    let expected_rows: Vec<&str> = expected.lines().skip(1).collect();
    assert_eq!(
        expected.lines().next(),
        Some(HEADER),
        "{ROWS_FILE}: the header changed; {regen}"
    );
    assert!(
        expected == table,
        "{ROWS_FILE}: {}{regen}",
        describe_differences(&expected_rows, &rows[1..])
    );
    let expected_sum = std::fs::read_to_string(DIGEST_FILE).unwrap_or_else(|e| panic!("{DIGEST_FILE}: {e}; {regen}"));
    assert_eq!(
        expected_sum, sum,
        "{DIGEST_FILE}: fights {ROW_FIGHTS}..{DIGEST_FIGHTS} (or the units table) changed although the first {ROW_FIGHTS} did not; {regen}"
    );
}

#[test]
fn a_difference_is_described_fight_by_fight() {
    // The failure message is the tool for reading a regression: it must
    // name the fight and each changed column with both values.
    let expected = ["0\t1\t2\tleft\twipe\t9000\t3\t0\t120\t0\t500\t400"];
    let actual = vec!["0\t1\t2\tright\twipe\t9100\t0\t2\t0\t80\t300\t600".to_string()];
    let text = describe_differences(&expected, &actual);
    assert!(text.starts_with("1 of 1 fights differ"), "{text}");
    assert!(
        text.contains("fight 0: winner left -> right, end_ms 9000 -> 9100"),
        "{text}"
    );
    assert!(text.contains("right_damage 400 -> 600"), "{text}");
}
