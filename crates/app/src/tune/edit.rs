//! The proposed card files: each changed ladder rewritten where it stands
//! in its file, every other byte as it was, so the diff shows only the
//! changed lines. A card's changed `amounts` rewrite each of its clauses'
//! fixed amounts as one number per tier (`amount = [10, 19, 29]`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::levers::{Item, Lever};
use gridsim_model::catalog::{StatField, scale_amount};

/// A card file as far as its ladders go, with where each stands.
#[derive(Deserialize)]
struct LadderFile {
    #[serde(default)]
    card: Vec<LadderCard>,
    #[serde(default)]
    rune: Vec<RuneAmounts>,
}

/// A rune as far as its amounts go: one ladder per line.
#[derive(Deserialize)]
struct RuneAmounts {
    id: String,
    #[serde(default)]
    effects: Vec<RuneLineAmount>,
}

#[derive(Deserialize)]
struct RuneLineAmount {
    amount: Spanned<Vec<i64>>,
}

#[derive(Deserialize)]
struct LadderCard {
    id: String,
    vitality: Option<Spanned<Vec<i64>>>,
    power: Option<Spanned<Vec<i64>>>,
    speed: Option<Spanned<Vec<i64>>>,
    armor: Option<Spanned<Vec<i64>>>,
    focus: Option<Spanned<Vec<i64>>>,
    durability: Option<Spanned<Vec<i64>>>,
    settle: Option<Spanned<Vec<i64>>>,
    #[serde(default)]
    ability: Vec<AmountClause>,
    #[serde(default)]
    passive: Vec<AmountClause>,
    #[serde(default)]
    package: Vec<AmountPackage>,
}

/// A clause as far as its amount goes, with where the amount stands.
#[derive(Deserialize)]
struct AmountClause {
    on: Option<String>,
    amount: Option<Spanned<toml::Value>>,
}

#[derive(Deserialize)]
struct AmountPackage {
    #[serde(default)]
    effects: Vec<AmountClause>,
}

impl LadderCard {
    fn ladder(&self, field: StatField) -> Option<&Spanned<Vec<i64>>> {
        match field {
            StatField::Vitality => self.vitality.as_ref(),
            StatField::Power => self.power.as_ref(),
            StatField::Speed => self.speed.as_ref(),
            StatField::Armor => self.armor.as_ref(),
            StatField::Focus => self.focus.as_ref(),
            StatField::Durability => self.durability.as_ref(),
            StatField::Settle => self.settle.as_ref(),
            StatField::Amounts => None,
        }
    }

    /// The card's tier count, from its ladders.
    fn tiers(&self) -> usize {
        StatField::ALL
            .into_iter()
            .find_map(|f| self.ladder(f).map(|l| l.get_ref().len()))
            .unwrap_or(1)
            .max(1)
    }

    /// The clauses whose fixed amounts an `amounts` change rewrites: as
    /// `Catalog::shifted_amount_ops`, every clause but `while_insured` and
    /// `sold` lines.
    fn amount_clauses(&self) -> impl Iterator<Item = &AmountClause> {
        self.ability
            .iter()
            .chain(
                self.passive
                    .iter()
                    .filter(|c| !matches!(c.on.as_deref(), Some("while_insured" | "sold"))),
            )
            .chain(self.package.iter().flat_map(|p| p.effects.iter()))
    }
}

/// A fixed amount's number at each of `tiers` tiers, as written (a whole
/// number, `N x tier` or one number per tier); `None` for any other form.
fn fixed_values(value: &toml::Value, tiers: usize) -> Option<Vec<i64>> {
    let amount = match value {
        toml::Value::Integer(n) => gridsim_model::ability::Amount::Const(i32::try_from(*n).ok()?),
        toml::Value::String(s) => gridsim_model::ability::Amount::parse(s).ok()?,
        toml::Value::Array(a) => {
            let v: Option<Vec<i64>> = a.iter().map(toml::Value::as_integer).collect();
            return v.filter(|v| v.len() == tiers);
        }
        _ => return None,
    };
    match amount {
        gridsim_model::ability::Amount::Const(n) => Some(vec![i64::from(n); tiers]),
        gridsim_model::ability::Amount::PerTier(n) => Some((1..=tiers as i64).map(|t| i64::from(n) * t).collect()),
        _ => None,
    }
}

/// One card file before and after.
pub struct Edited {
    pub path: PathBuf,
    pub before: String,
    pub after: String,
}

/// Every card file with `changes` (one per lever) applied.
pub fn edit(files: &[(PathBuf, String)], levers: &[Lever], changes: &[i32]) -> Result<Vec<Edited>, String> {
    // Per card and field, the tiers' changes; per rune, its amounts'.
    let mut wanted: BTreeMap<(String, StatField), Vec<(usize, i64)>> = BTreeMap::new();
    let mut wanted_runes: BTreeMap<String, Vec<(usize, i64)>> = BTreeMap::new();
    for (l, &d) in levers.iter().zip(changes) {
        if d != 0 {
            let tier = (usize::from(l.tier) - 1, i64::from(d));
            match l.item {
                Item::Card(_) => wanted.entry((l.key.clone(), l.field)).or_default().push(tier),
                Item::Rune(_) => wanted_runes.entry(l.key.clone()).or_default().push(tier),
            }
        }
    }
    let mut out = Vec::new();
    for (path, text) in files {
        let parsed: LadderFile =
            toml::from_str(text).map_err(|e| format!("{}: cannot read its ladders: {e}", path.display()))?;
        let mut replacements: Vec<(std::ops::Range<usize>, String)> = Vec::new();
        for rune in &parsed.rune {
            let Some(tiers) = wanted_runes.remove(&rune.id) else {
                continue;
            };
            for line in &rune.effects {
                let mut values = line.amount.get_ref().clone();
                for &(t, d) in &tiers {
                    if let Some(v) = values.get_mut(t) {
                        *v = i64::from(scale_amount(*v as i32, d as i32));
                    }
                }
                if values != *line.amount.get_ref() {
                    let text: Vec<String> = values.iter().map(i64::to_string).collect();
                    replacements.push((line.amount.span(), format!("[{}]", text.join(", "))));
                }
            }
        }
        for card in &parsed.card {
            if let Some(tiers) = wanted.remove(&(card.id.clone(), StatField::Amounts)) {
                let count = card.tiers();
                let mut percent = vec![0i64; count];
                for (t, d) in tiers {
                    if let Some(p) = percent.get_mut(t) {
                        *p += d;
                    }
                }
                for amount in card.amount_clauses().filter_map(|c| c.amount.as_ref()) {
                    let Some(values) = fixed_values(amount.get_ref(), count) else {
                        continue;
                    };
                    let new: Vec<i64> = values
                        .iter()
                        .zip(&percent)
                        .map(|(&v, &p)| i64::from(scale_amount(v as i32, p as i32)))
                        .collect();
                    if new != values {
                        let text: Vec<String> = new.iter().map(i64::to_string).collect();
                        replacements.push((amount.span(), format!("[{}]", text.join(", "))));
                    }
                }
            }
            for field in StatField::ALL {
                if field == StatField::Amounts {
                    continue;
                }
                let Some(tiers) = wanted.remove(&(card.id.clone(), field)) else {
                    continue;
                };
                let Some(ladder) = card.ladder(field) else {
                    return Err(format!(
                        "{}: card `{}` prints no `{}`",
                        path.display(),
                        card.id,
                        field.name()
                    ));
                };
                let mut values = ladder.get_ref().clone();
                for (t, d) in tiers {
                    if let Some(v) = values.get_mut(t) {
                        *v += d;
                    }
                }
                let text: Vec<String> = values.iter().map(i64::to_string).collect();
                replacements.push((ladder.span(), format!("[{}]", text.join(", "))));
            }
        }
        let mut after = text.clone();
        replacements.sort_by_key(|(span, _)| std::cmp::Reverse(span.start));
        for (span, new) in replacements {
            after.replace_range(span, &new);
        }
        out.push(Edited {
            path: path.clone(),
            before: text.clone(),
            after,
        });
    }
    if let Some((rune, _)) = wanted_runes.into_iter().next() {
        return Err(format!("no rune file holds rune `{rune}`"));
    }
    if let Some(((card, field), _)) = wanted.into_iter().next() {
        return Err(format!(
            "no card file holds the `{}` ladder of card `{card}`",
            field.name()
        ));
    }
    Ok(out)
}

/// Writes the edited catalog into `dir`, each file numbered in loading
/// order (as a run's copies are, so two folders' files of one name cannot
/// collide and every card keeps its index).
pub fn write_catalog(files: &[(PathBuf, String)], levers: &[Lever], changes: &[i32], dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    for (k, e) in edit(files, levers, changes)?.iter().enumerate() {
        let name = format!(
            "{k:03}_{}",
            e.path.file_name().map_or("cards.toml".into(), |n| n.to_string_lossy())
        );
        gridsim_core::atomic::write(&dir.join(name), e.after.as_bytes())?;
    }
    Ok(())
}

/// A unified diff of the changed lines only (no context), file by file.
pub fn diff(edited: &[Edited]) -> String {
    let mut out = String::new();
    for e in edited {
        let (before, after): (Vec<&str>, Vec<&str>) = (e.before.lines().collect(), e.after.lines().collect());
        if before == after {
            continue;
        }
        let name = e.path.display();
        out.push_str(&format!("--- a/{name}\n+++ b/{name}\n"));
        // Ladders are rewritten within their own lines, so the files keep
        // their line count; a multi-line ladder becomes one line, and the
        // rest is a single hunk from the first difference to the last.
        if before.len() == after.len() {
            for (i, (b, a)) in before.iter().zip(&after).enumerate() {
                if b != a {
                    out.push_str(&format!("@@ -{0},1 +{0},1 @@\n-{b}\n+{a}\n", i + 1));
                }
            }
        } else {
            let first = before.iter().zip(&after).take_while(|(b, a)| b == a).count();
            let tail = before
                .iter()
                .rev()
                .zip(after.iter().rev())
                .take_while(|(b, a)| b == a)
                .count();
            let (b, a) = (&before[first..before.len() - tail], &after[first..after.len() - tail]);
            out.push_str(&format!(
                "@@ -{},{} +{},{} @@\n",
                first + 1,
                b.len(),
                first + 1,
                a.len()
            ));
            for l in b {
                out.push_str(&format!("-{l}\n"));
            }
            for l in a {
                out.push_str(&format!("+{l}\n"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridsim_model::catalog::CardId;

    #[test]
    fn only_the_changed_ladder_changes_and_the_diff_names_its_line() {
        let text = "# a comment kept\n[[card]]\nid = \"fox\"\nname = \"Fox\"\npower = [10, 18, 26] # kept too\nvitality = [100, 122, 143]\n";
        let files = vec![(PathBuf::from("configs/cards/x.toml"), text.to_string())];
        let lever = Lever {
            item: super::super::Item::Card(CardId(0)),
            key: "fox".into(),
            tier: 2,
            field: StatField::Power,
            value: 18,
            step: 1,
        };
        let e = edit(&files, &[lever], &[3]).unwrap();
        assert_eq!(e[0].after, text.replace("[10, 18, 26]", "[10, 21, 26]"));
        assert_eq!(
            diff(&e),
            "--- a/configs/cards/x.toml\n+++ b/configs/cards/x.toml\n@@ -5,1 +5,1 @@\n-power = [10, 18, 26] # kept too\n+power = [10, 21, 26] # kept too\n"
        );
    }

    /// An `amounts` change of -20% at tier 2 rewrites each fixed clause
    /// amount as one number per tier, the other tiers as printed; a
    /// `sold` line and a share of Power are left as they are.
    #[test]
    fn an_amounts_change_rewrites_each_fixed_amount_as_a_ladder() {
        let text = r#"[[card]]
id = "crab"
name = "Crab"
vitality = [100, 120, 140]
ability = [
  { effect = "maim", amount = "9 x tier", lane = "post_damage" },
  { effect = "shield", amount = 25, scope = "self" },
  { effect = "damage", amount = "50% power" },
  { effect = "heal", amount = [4, 6, 9], scope = "self" },
]
passive = [{ on = "sold", effect = "gain_dividend", amount = 3 }]
"#;
        let files = vec![(PathBuf::from("x.toml"), text.to_string())];
        let lever = Lever {
            item: super::super::Item::Card(CardId(0)),
            key: "crab".into(),
            tier: 2,
            field: StatField::Amounts,
            value: 0,
            step: 8,
        };
        let e = edit(&files, &[lever], &[-20]).unwrap();
        let want = text
            .replace("amount = \"9 x tier\"", "amount = [9, 14, 27]")
            .replace("amount = 25,", "amount = [25, 20, 25],")
            .replace("amount = [4, 6, 9]", "amount = [4, 5, 9]");
        assert_eq!(e[0].after, want);
    }

    /// A rune's `amounts` change of +30% at tier 3 rewrites every line's
    /// third number and leaves the rest of the file as it was.
    #[test]
    fn a_rune_amounts_change_rewrites_each_line_at_its_tier() {
        let text = "[[rune]]\nid = \"keen_rune\"\nname = \"Keen Rune\"\neffects = [{ effect = \"focus\", amount = [3, 5, 8] }, { effect = \"power\", amount = [1, 2, 10] }]\n";
        let files = vec![(PathBuf::from("runes.toml"), text.to_string())];
        let lever = Lever {
            item: super::super::Item::Rune(gridsim_model::catalog::RuneId(0)),
            key: "keen_rune".into(),
            tier: 3,
            field: StatField::Amounts,
            value: 0,
            step: 8,
        };
        let e = edit(&files, &[lever], &[30]).unwrap();
        assert_eq!(
            e[0].after,
            text.replace("[3, 5, 8]", "[3, 5, 10]")
                .replace("[1, 2, 10]", "[1, 2, 13]")
        );
    }

    /// A unit whose amounts are shifted by 12% (`StatLine::amounts`, as the
    /// perturbation shifts them) fights as the card files the proposal
    /// writes for a change of 12% make it fight: the same outcome and log,
    /// seed for seed. The misreading this catches: the engine and the
    /// rewrite rounding differently, or the shift reaching clauses the
    /// rewrite leaves alone (or the other way about).
    #[test]
    fn an_amounts_shift_fights_as_the_rewritten_card_files() {
        use gridsim_engine::{Engine, FightRng};
        // Unit tests run in the crate's folder; the catalog is at the top.
        let top = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let folders = [top.join("configs/cards"), top.join("configs/runes")];
        let files = crate::runs::read_card_files(&folders).unwrap();
        let load = |files: &[(PathBuf, String)]| {
            let mut b = gridsim_config::CatalogBuilder::new();
            for (path, text) in files {
                b.add_runes_file(path, text).unwrap();
            }
            for (path, text) in files {
                b.add_file(path, text).unwrap();
            }
            b.finish()
        };
        let catalog = load(&files);
        let rules = gridsim_config::load_rules(&top.join("configs/rules.toml")).unwrap();
        let board =
            |name: &str| gridsim_config::load_board(&top.join("configs/boards").join(name), &catalog, &rules).unwrap();
        let (l, r) = (board("tidal_execution.toml"), board("wildfire.toml"));
        let first = *l
            .units
            .iter()
            .find(|p| catalog.amount_ladder(p.card).is_some())
            .expect("a unit whose card prints fixed amounts");
        let lever = Lever {
            item: super::super::Item::Card(first.card),
            key: catalog.card(first.card).key.clone(),
            tier: first.tier,
            field: StatField::Amounts,
            value: 0,
            step: 8,
        };
        let edited: Vec<(PathBuf, String)> = edit(&files, &[lever], &[12])
            .unwrap()
            .into_iter()
            .map(|e| (e.path, e.after))
            .collect();
        assert_ne!(edited, files, "the change rewrites some amount");
        let printed = load(&edited);
        let shift = gridsim_model::catalog::StatLine {
            amounts: 12,
            ..Default::default()
        };
        let shifts = |b: &gridsim_model::spec::BoardSpec| -> Vec<gridsim_model::catalog::StatLine> {
            b.units
                .iter()
                .map(|p| {
                    if p.card == first.card && p.tier == first.tier {
                        shift
                    } else {
                        Default::default()
                    }
                })
                .collect()
        };
        let (ls, rs) = (shifts(&l), shifts(&r));
        let mut differs = false;
        for seed in 0..40 {
            let mut a = Engine::new(&catalog, rules);
            a.enable_log();
            let shifted = a.fight_shifted(&l, &r, [&ls, &rs], [&[], &[]], FightRng::for_fight(seed, 0));
            let mut b = Engine::new(&printed, rules);
            b.enable_log();
            let reprinted = b.fight(&l, &r, FightRng::for_fight(seed, 0));
            assert_eq!(shifted, reprinted, "seed {seed}");
            assert_eq!(
                format!("{:?}", a.log.events),
                format!("{:?}", b.log.events),
                "seed {seed}"
            );
            let mut c = Engine::new(&catalog, rules);
            c.enable_log();
            c.fight(&l, &r, FightRng::for_fight(seed, 0));
            differs |= format!("{:?}", c.log.events) != format!("{:?}", a.log.events);
        }
        assert!(differs, "the shift changes some fight");
    }
}
