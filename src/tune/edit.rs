//! The proposed card files: each changed ladder rewritten where it stands
//! in its file, every other byte as it was, so the diff shows only the
//! changed lines.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::levers::Lever;
use crate::catalog::StatField;

/// A card file as far as its ladders go, with where each stands.
#[derive(Deserialize)]
struct LadderFile {
    #[serde(default)]
    card: Vec<LadderCard>,
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
        }
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
    // Per card and field, the tiers' changes.
    let mut wanted: BTreeMap<(String, StatField), Vec<(usize, i64)>> = BTreeMap::new();
    for (l, &d) in levers.iter().zip(changes) {
        if d != 0 {
            wanted
                .entry((l.key.clone(), l.field))
                .or_default()
                .push((usize::from(l.tier) - 1, i64::from(d)));
        }
    }
    let mut out = Vec::new();
    for (path, text) in files {
        let parsed: LadderFile =
            toml::from_str(text).map_err(|e| format!("{}: cannot read its ladders: {e}", path.display()))?;
        let mut replacements: Vec<(std::ops::Range<usize>, String)> = Vec::new();
        for card in &parsed.card {
            for field in StatField::ALL {
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
        crate::atomic::write(&dir.join(name), e.after.as_bytes())?;
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
    use crate::catalog::CardId;

    #[test]
    fn only_the_changed_ladder_changes_and_the_diff_names_its_line() {
        let text = "# a comment kept\n[[card]]\nid = \"fox\"\nname = \"Fox\"\npower = [10, 18, 26] # kept too\nvitality = [100, 122, 143]\n";
        let files = vec![(PathBuf::from("configs/cards/x.toml"), text.to_string())];
        let lever = Lever {
            card: CardId(0),
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
}
