//! A Riftbound showdown suite (`configs/riftbound/suites/`): its lanes
//! drawn from the catalog it names, checked against that catalog.

use super::*;

/// A Riftbound suite file.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SuiteFile {
    /// Always `"riftbound"`.
    pub game: GameName,
    pub name: String,
    /// The card folder, relative to the suite file.
    pub catalog: String,
    /// Showdowns in the run.
    pub showdowns: u64,
    pub master_seed: u64,
    /// Lanes drawn from the catalog.
    #[schemars(with = "u32")]
    pub lanes: Spanned<u32>,
    /// Units per lane: `[least, most]`.
    #[schemars(with = "[u32; 2]")]
    pub units: Spanned<[u32; 2]>,
    /// The chance, in percent, that a unit holds a gear.
    #[schemars(with = "i32")]
    pub gear_percent: Spanned<i32>,
    /// Spells in each hand: `[least, most]`.
    #[schemars(with = "[u32; 2]")]
    pub hand: Spanned<[u32; 2]>,
    /// The policy's chance, in percent, to play a spell it can play.
    #[schemars(with = "i32")]
    pub cast_percent: Spanned<i32>,
}

/// The card folder a suite names, relative to the suite file.
pub fn riftbound_suite_catalog(file: &Path, text: &str) -> Result<PathBuf, Vec<Diagnostic>> {
    let parsed: SuiteFile = parse_toml(file, text)?;
    Ok(file.parent().unwrap_or(Path::new(".")).join(parsed.catalog))
}

/// Reads a Riftbound suite and draws its lanes from `catalog`.
pub fn parse_riftbound_suite(file: &Path, text: &str, catalog: &Catalog) -> Result<Suite, Vec<Diagnostic>> {
    let s: SuiteFile = parse_toml(file, text)?;
    let mut bad = Vec::new();
    let mut err = |span: std::ops::Range<usize>, key: &str, msg: String| {
        bad.push(Diagnostic::at(file, text, Some(span), key, msg));
    };
    let lanes = *s.lanes.get_ref();
    if !(2..=MAX_LANES).contains(&lanes) {
        err(s.lanes.span(), "lanes", format!("2 to {MAX_LANES} lanes"));
    }
    let [least, most] = *s.units.get_ref();
    if least < 1 || least > most || most as usize > MAX_LANE {
        err(
            s.units.span(),
            "units",
            format!("`[least, most]` units a lane, 1 ≤ least ≤ most ≤ {MAX_LANE}"),
        );
    }
    for (v, key) in [(&s.gear_percent, "gear_percent"), (&s.cast_percent, "cast_percent")] {
        if !(0..=100).contains(v.get_ref()) {
            err(v.span(), key, "a percentage, 0 to 100".into());
        }
    }
    let [hand_min, hand_max] = *s.hand.get_ref();
    if hand_min > hand_max || hand_max as usize > MAX_HAND {
        err(
            s.hand.span(),
            "hand",
            format!("`[least, most]` spells a hand, least ≤ most ≤ {MAX_HAND}"),
        );
    }
    let has = |k: CardKind| catalog.cards.iter().any(|c| c.kind == k);
    if !has(CardKind::Unit) {
        err(s.lanes.span(), "catalog", "the catalog holds no unit to draw".into());
    }
    if hand_max > 0 && !has(CardKind::Spell) {
        err(s.hand.span(), "hand", "the catalog holds no spell to draw".into());
    }
    if !bad.is_empty() {
        return Err(bad);
    }
    let mut suite = Suite {
        name: s.name,
        showdowns: s.showdowns,
        master_seed: s.master_seed,
        rules: LaneRules {
            lanes,
            units_min: least,
            units_max: most,
            gear_percent: *s.gear_percent.get_ref(),
            hand_min,
            hand_max,
        },
        policy: Policy {
            cast_percent: *s.cast_percent.get_ref(),
        },
        lanes: Vec::new(),
    };
    suite.draw_lanes(catalog);
    Ok(suite)
}
