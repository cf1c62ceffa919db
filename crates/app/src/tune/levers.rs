//! The numbers a tune may move: each a card's ladder at one tier
//! (`power` of `ember_fox` at tier 2), or the amounts of a card's clauses
//! or of a board rune at one tier, named on the command line by field
//! (`power`: every card's) or by card or rune and field (`ember_fox.power`,
//! `keen_rune.amounts`).

use gridsim_core::diagnostics;
use gridsim_model::catalog::{CardId, Catalog, RuneId, StatField};
use gridsim_model::spec::BoardSpec;

/// The fields a tune moves when none are named: every printed line (a
/// Tool's Durability and a Hub's Settle in place of the combat stats), and
/// the fixed amounts of each card's clauses.
pub const DEFAULT_LEVERS: &str = "power,vitality,speed,armor,focus,durability,settle,amounts";

/// The perturbation's step, as a share of the printed number (at least 1):
/// large enough that a budget of a few hundred thousand fight pairs tells
/// a card's own effect from zero, small enough that the win rate is close
/// to linear over it (docs/tune.md, "How large the steps are").
pub const STEP_PERCENT: i32 = 8;

/// What the command line asked to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeverSpec {
    /// A card's or rune's id; `None`: every card that prints the field
    /// (and for `amounts`, every board rune too).
    pub card: Option<String>,
    pub field: StatField,
}

/// What a lever's number belongs to: a card, or a board rune, whose one
/// lever is its `amounts` (every line's amount at a tier, as a percent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Item {
    Card(CardId),
    Rune(RuneId),
}

/// Reads `--levers`: fields, or `card.field`, comma-separated. An unknown
/// field or card is an error naming the nearest valid one.
pub fn parse(text: &str, catalog: &Catalog) -> Result<Vec<LeverSpec>, String> {
    let fields: Vec<&str> = StatField::ALL.iter().map(|f| f.name()).collect();
    let cards: Vec<&str> = catalog
        .cards
        .iter()
        .map(|c| c.key.as_str())
        .chain(catalog.runes.iter().filter(|r| !r.innate_only).map(|r| r.key.as_str()))
        .collect();
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (card, field) = match part.split_once('.') {
            Some((c, f)) => (Some(c), f),
            None => (None, part),
        };
        let Some(field) = StatField::parse(field) else {
            return Err(format!(
                " `{part}`: no field `{field}`{}; the fields are {}",
                diagnostics::suggestion(field, &fields),
                diagnostics::backticked(&fields)
            ));
        };
        if let Some(card) = card {
            if catalog.runes.iter().any(|r| r.key == card && !r.innate_only) {
                if field != StatField::Amounts {
                    return Err(format!(
                        " `{part}`: a rune prints no `{}`; its lever is `{card}.amounts`",
                        field.name()
                    ));
                }
                out.push(LeverSpec {
                    card: Some(card.to_string()),
                    field,
                });
                continue;
            }
            let Some(c) = catalog.cards.iter().find(|c| c.key == card) else {
                return Err(format!(
                    " `{part}`: no card or board rune `{card}` in the catalog{}",
                    diagnostics::suggestion(card, &cards)
                ));
            };
            if !field.printed_by(c.kind) {
                let printed: Vec<&str> = StatField::ALL
                    .iter()
                    .filter(|f| f.printed_by(c.kind))
                    .map(|f| f.name())
                    .collect();
                return Err(format!(
                    " `{part}`: a {} card prints no `{}`; it prints {}",
                    c.kind,
                    field.name(),
                    diagnostics::backticked(&printed)
                ));
            }
        }
        out.push(LeverSpec {
            card: card.map(str::to_string),
            field,
        });
    }
    if out.is_empty() {
        return Err(format!(" `{text}`: name at least one field, such as `power`"));
    }
    Ok(out)
}

/// One number a tune may move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lever {
    pub item: Item,
    /// The card's or rune's id, as its file names it.
    pub key: String,
    pub tier: u8,
    pub field: StatField,
    /// The printed number; for `amounts`, the percent the clauses' amounts
    /// are raised by (0 as printed).
    pub value: i32,
    /// The perturbation's step.
    pub step: i32,
}

impl Lever {
    /// Its path in the card file, as `gridsim sweep` reads one:
    /// `power[1]` for tier 2.
    pub fn path(&self) -> String {
        format!("{}[{}]", self.field.name(), self.tier - 1)
    }

    /// The number a designer reads for `value`: itself, or for `amounts`
    /// the percent of the printed amounts (100 as printed).
    pub fn shown(&self, value: i32) -> i32 {
        if self.field == StatField::Amounts {
            100 + value
        } else {
            value
        }
    }

    /// `ember_fox power[1]`.
    pub fn label(&self) -> String {
        format!("{} {}", self.key, self.path())
    }
}

/// The levers of a run, and each board's.
#[derive(Debug, Clone)]
pub struct Levers {
    pub list: Vec<Lever>,
    /// Per card and tier (`card · TIERS + tier − 1`), the lever of each
    /// field, in the order of [`StatField::ALL`].
    by_unit: Vec<[Option<u32>; StatField::ALL.len()]>,
    /// Per rune and tier (`rune · TIERS + tier − 1`), its `amounts` lever.
    by_rune: Vec<Option<u32>>,
}

const TIERS: usize = 9;

impl Levers {
    /// The levers `specs` name among the cards the boards hold: a card no
    /// board holds moves no row.
    pub fn of(catalog: &Catalog, specs: &[LeverSpec], boards: &[BoardSpec]) -> Levers {
        let mut held = vec![[false; TIERS]; catalog.cards.len()];
        for b in boards {
            for p in &b.units {
                held[usize::from(p.card.0)][usize::from(p.tier.clamp(1, TIERS as u8)) - 1] = true;
            }
        }
        let mut list = Vec::new();
        let mut by_unit = vec![[None; StatField::ALL.len()]; catalog.cards.len() * TIERS];
        for (c, card) in catalog.cards.iter().enumerate() {
            for (k, field) in StatField::ALL.into_iter().enumerate() {
                let named = specs
                    .iter()
                    .any(|s| s.field == field && s.card.as_ref().is_none_or(|key| *key == card.key));
                if !named
                    || !field.printed_by(card.kind)
                    || (field == StatField::Amounts && catalog.amount_ladder(CardId(c as u16)).is_none())
                {
                    continue;
                }
                for (t, line) in card.stats.iter().enumerate().take(TIERS) {
                    if !held[c][t] {
                        continue;
                    }
                    let value = field.of(line);
                    let step = if field == StatField::Amounts {
                        let id = CardId(c as u16);
                        amounts_step(
                            catalog
                                .shifted_amount_ops(id)
                                .filter_map(|op| op.amount)
                                .map(|a| catalog.fixed_amount(a, t as u8 + 1)),
                        )
                    } else {
                        step(field, value)
                    };
                    by_unit[c * TIERS + t][k] = Some(list.len() as u32);
                    list.push(Lever {
                        item: Item::Card(CardId(c as u16)),
                        key: card.key.clone(),
                        tier: t as u8 + 1,
                        field,
                        value,
                        step,
                    });
                }
            }
        }
        // Board runes: their amounts, at the tiers the boards place them.
        let mut placed = vec![[false; TIERS]; catalog.runes.len()];
        for b in boards {
            for p in &b.runes {
                placed[usize::from(p.rune.0)][usize::from(p.tier.clamp(1, TIERS as u8)) - 1] = true;
            }
        }
        let mut by_rune = vec![None; catalog.runes.len() * TIERS];
        for (r, rune) in catalog.runes.iter().enumerate() {
            let named = specs
                .iter()
                .any(|s| s.field == StatField::Amounts && s.card.as_ref().is_none_or(|key| *key == rune.key));
            if !named || rune.innate_only {
                continue;
            }
            for t in 0..usize::from(rune.tiers()).min(TIERS) {
                if !placed[r][t] {
                    continue;
                }
                by_rune[r * TIERS + t] = Some(list.len() as u32);
                list.push(Lever {
                    item: Item::Rune(RuneId(r as u16)),
                    key: rune.key.clone(),
                    tier: t as u8 + 1,
                    field: StatField::Amounts,
                    value: 0,
                    step: amounts_step(rune.lines.iter().filter_map(|l| l.amounts.get(t).copied())),
                });
            }
        }
        Levers { list, by_unit, by_rune }
    }

    /// The `amounts` lever of a board rune placed at `tier`, if one is tuned.
    pub fn of_rune(&self, rune: RuneId, tier: u8) -> Option<u32> {
        let t = usize::from(tier.clamp(1, TIERS as u8)) - 1;
        self.by_rune.get(usize::from(rune.0) * TIERS + t).copied().flatten()
    }

    /// The levers of a unit of `card` at `tier`, with their fields.
    pub fn of_unit(&self, card: CardId, tier: u8) -> impl Iterator<Item = (u32, StatField)> + '_ {
        let t = usize::from(tier.clamp(1, TIERS as u8)) - 1;
        let slots = self.by_unit.get(usize::from(card.0) * TIERS + t);
        slots
            .into_iter()
            .flat_map(|s| s.iter().zip(StatField::ALL))
            .filter_map(|(l, f)| l.map(|l| (l, f)))
    }

    /// Each board's levers, sorted and distinct.
    pub fn of_boards(&self, boards: &[BoardSpec]) -> Vec<Vec<u32>> {
        boards
            .iter()
            .map(|b| {
                let mut ls: Vec<u32> = b
                    .units
                    .iter()
                    .flat_map(|p| self.of_unit(p.card, p.tier).map(|(l, _)| l))
                    .chain(b.runes.iter().filter_map(|p| self.of_rune(p.rune, p.tier)))
                    .collect();
                ls.sort_unstable();
                ls.dedup();
                ls
            })
            .collect()
    }
}

/// A lever's step: [`STEP_PERCENT`] of the printed number, at least 1, and
/// never so large that the number leaves the card format's range (a
/// Vitality stays above 0). An `amounts` lever's is [`amounts_step`].
fn step(field: StatField, value: i32) -> i32 {
    let s = (value.abs() * STEP_PERCENT + 50) / 100;
    let s = s.max(1);
    if matches!(field, StatField::Vitality | StatField::Durability) && value > 1 {
        s.min(value - 1)
    } else {
        s
    }
}

/// An `amounts` lever's step, in percent of the printed amounts it moves
/// (`amounts`): [`STEP_PERCENT`], or more where the smallest of them is so
/// small that [`STEP_PERCENT`] of it rounds to no change at all (8% of a
/// Keen Rune's 3 is 3 again): the least percent that moves it by 1 either
/// way (`scale_amount` rounds halves away from zero), at most
/// [`MAX_AMOUNTS_STEP`]. A lever whose step moves none of its amounts has
/// no effect to measure, and its rows would read as having no lever.
fn amounts_step(amounts: impl Iterator<Item = i32>) -> i32 {
    match amounts.map(i32::abs).filter(|a| *a > 0).min() {
        Some(a) => (50 / a + 1).clamp(STEP_PERCENT, MAX_AMOUNTS_STEP),
        None => STEP_PERCENT,
    }
}

/// The largest `amounts` step: half the printed amounts, so no amount is
/// written down to 0 by the perturbation (an amount of 1 then moves up to
/// 2 and not down).
const MAX_AMOUNTS_STEP: i32 = 50;

#[cfg(test)]
mod tests {
    use super::*;

    /// A board rune is named by its id, and its one lever is `amounts`.
    #[test]
    fn a_rune_lever_is_its_amounts() {
        // Unit tests run in the crate's folder; the catalog is at the top.
        let top = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let catalog = gridsim_config::load_catalog(&[top.join("configs/cards"), top.join("configs/runes")]).unwrap();
        assert_eq!(
            parse("keen_rune.amounts", &catalog).unwrap(),
            vec![LeverSpec {
                card: Some("keen_rune".into()),
                field: StatField::Amounts
            }]
        );
        let power = parse("keen_rune.power", &catalog).unwrap_err();
        assert!(power.contains("its lever is `keen_rune.amounts`"), "{power}");
        let typo = parse("keen_rnue.amounts", &catalog).unwrap_err();
        assert!(typo.contains("did you mean `keen_rune`?"), "{typo}");
    }

    #[test]
    fn a_step_is_a_share_of_the_number_and_keeps_vitality_above_zero() {
        assert_eq!(step(StatField::Power, 50), 4);
        assert_eq!(step(StatField::Power, 0), 1, "a zero still moves");
        assert_eq!(step(StatField::Speed, -30), 2, "a negative Speed moves by its size");
        assert_eq!(step(StatField::Vitality, 2), 1);
    }

    /// An `amounts` step moves the smallest amount by at least 1 each way,
    /// as the engine rounds it; the misreading it catches: a step of 8% on
    /// a Keen Rune's 3, which rounds to 3 both ways and measures nothing.
    #[test]
    fn an_amounts_step_moves_its_smallest_amount() {
        use gridsim_model::catalog::scale_amount;
        assert_eq!(
            amounts_step([40, 60].into_iter()),
            STEP_PERCENT,
            "large amounts: the share"
        );
        assert_eq!(amounts_step(std::iter::empty()), STEP_PERCENT);
        for a in 2..=20 {
            let s = amounts_step([a, 100].into_iter());
            assert!(scale_amount(a, s) > a && scale_amount(a, -s) < a, "{a} at ±{s}%");
        }
        let s = amounts_step([1, 0].into_iter());
        assert_eq!(
            (s, scale_amount(1, s), scale_amount(1, -s)),
            (50, 2, 1),
            "a 1 moves up only"
        );
    }
}
