//! Every number the rule book gives, in one place (`configs/rules.toml`).
//!
//! The engine reads [`Rules`], a plain `Copy`-friendly struct of integers. The
//! file form wraps each value as `{ value, rule }` so that every number carries
//! the rule it comes from; [`Rules::citations`] lists them for documentation and
//! tests.

use serde::Deserialize;

/// One setting as written in `rules.toml`: the number and the rule it cites.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setting {
    pub value: i32,
    pub rule: String,
}

macro_rules! rules_settings {
    ($( $section:ident : $Section:ident { $( $field:ident ),* $(,)? } )*) => {
        /// The rule book's numbers, as the engine reads them.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct Rules { $( pub $section: $Section, )* }

        $(
            #[derive(Debug, Clone, Copy, PartialEq, Eq)]
            pub struct $Section { $( pub $field: i32, )* }
        )*

        /// The file form: every value beside its rule number.
        pub mod file {
            use super::Setting;
            use serde::Deserialize;

            #[derive(Debug, Clone, Deserialize)]
            #[serde(deny_unknown_fields)]
            pub struct RulesFile { $( pub $section: $Section, )* }

            $(
                #[derive(Debug, Clone, Deserialize)]
                #[serde(deny_unknown_fields)]
                pub struct $Section { $( pub $field: Setting, )* }
            )*
        }

        impl Rules {
            /// Lowers the file form, keeping only the numbers.
            pub fn from_file(file: &file::RulesFile) -> Rules {
                Rules { $( $section: $Section { $( $field: file.$section.$field.value, )* }, )* }
            }

            /// `(section.key, value, rule)` for every setting, in file order.
            pub fn citations(file: &file::RulesFile) -> Vec<(String, i32, String)> {
                vec![ $( $(
                    (
                        concat!(stringify!($section), ".", stringify!($field)).to_string(),
                        file.$section.$field.value,
                        file.$section.$field.rule.clone(),
                    ),
                )* )* ]
            }
        }
    };
}

rules_settings! {
    board: BoardRules { columns, rows }
    clock: ClockRules { charge_to_activate, rate_at_zero_speed, minimum_rate, freeze_rate_percent }
    armor: ArmorRules { curve_constant, flat_divisor }
    insurance: InsuranceRules { point_capacity, reaction_depth }
    maim: MaimRules { restoration_per_point }
    burn: BurnRules { tick_ms, decay_percent, decay_minimum, spread_chance_percent, cap, from_power_percent }
    venom: VenomRules { tick_ms, decay_min_percent, decay_max_percent, decay_minimum }
    prismbreak: PrismbreakRules { duration_ms, reapply_ms, tick_bonus_percent }
    crush: CrushRules { duration_ms, windows_per_unit }
    freeze: FreezeRules { duration_ms, reapply_ms }
    blind: BlindRules { duration_ms, reapply_ms, power_loss_percent, power_floor }
    entrap: EntrapRules { duration_ms }
    roost: RoostRules { tick_ms, tick_minimum, tick_cap }
    hallow: HallowRules { tick_ms, decay_min_percent, decay_max_percent, instances_per_unit }
    fleeting: FleetingRules { tick_ms, decay_percent_per_tick, buffs_per_unit }
    kindled: KindledRules { power_per_stack, speed_halves_per_stack, ignited_at }
    feast: FeastRules { percent, minimum }
    cascade: CascadeRules { chance_percent, chance_ceiling_percent, max_retriggers }
    haywire: HaywireRules { cap, stun_ms }
    shock: ShockRules { thaw_ms, max_depth }
    overclock: OverclockRules { power_per_stack, armor_per_stack, speed_per_stack, blowout_percent_per_stack, blowout_stun_ms }
    feral: FeralRules { cap, misfire_percent_per_stack }
    interest: InterestRules { max_stacks }
    everlasting: EverlastingRules { delay_ms }
    stagger: StaggerRules { stun_ms }
    phylactery: PhylacteryRules { starting_vessels, max_vessels, points_per_vessel, raw_per_dread_stack, raw_per_frozen_unit, full_band_raw, half_band_raw }
    exalt: ExaltRules { percent_per_stack }
    dread: DreadRules { power_per_stack, armor_per_stack, speed_per_two_stacks }
    fury: FuryRules { focus_per_power }
    brute: BruteRules { tool_threshold, power_loss_percent }
    tool: ToolRules { durability_per_package }
    targeting: TargetingRules { focus_floor }
    penny: PennyRules { stock_mint_chance_percent }
    tremor: TremorRules { hits }
    overtime: OvertimeRules { start_ms, tick_ms, cap_ms }
    limits: LimitRules { events_per_fight, trigger_depth }
    runes: RuneRules { row_board_cells, column_board_cells, cells_per_rune, partial_potency_percent }
    resonance: ResonanceRules { base_level }
    hub: HubRules { vitality_per_tier, power_per_tier, speed_per_tier, armor_per_tier, first_percent, second_percent, third_percent, later_percent, supplement_percent_per_missing_penny, supplement_pennies, early_rounds }
    shop: ShopRules { starting_gold, unit_cost, rune_cost, reroll_cost, sell_gold_per_tier, unit_offers, rune_offers, xp_cost, xp_per_purchase, copies_to_combine, units_at_level_one, max_level, xp_first_level, xp_step_per_level, tier_two_offer_level, tier_two_offer_percent_per_level, tier_three_offer_level, tier_three_offer_percent_per_level }
    round: RoundRules { rounds, max_players, solo_boss_options, party_extra_boss_options, max_boss_options, boss_tier_two_round, boss_tier_three_round, boss_power_per_round, boss_armor_per_round, extra_minion_every_rounds, boss_gold, boss_xp, destinations_offered, store_weight, runesmith_weight, vault_weight, vault_gold, solo_nemesis_options, nemesis_win_gold, nemesis_loss_gold, nemesis_xp }
}

impl ShopRules {
    /// The percent chance that a unit offer to a buyer at `level` is tier 2
    /// (200.1b, reconstructed: docs/rules-reconstruction.md, "The match").
    pub fn tier_two_offer_percent(&self, level: i32) -> i64 {
        offer_percent(level, self.tier_two_offer_level, self.tier_two_offer_percent_per_level)
    }

    /// The same for tier 3.
    pub fn tier_three_offer_percent(&self, level: i32) -> i64 {
        offer_percent(
            level,
            self.tier_three_offer_level,
            self.tier_three_offer_percent_per_level,
        )
    }
}

/// `per_level` percent for every level from `from` to `level`, both counted.
fn offer_percent(level: i32, from: i32, per_level: i32) -> i64 {
    if level < from {
        0
    } else {
        (i64::from(level) - i64::from(from) + 1) * i64::from(per_level)
    }
}

impl Rules {
    /// Checks the relations between settings that the engine relies on.
    /// Returns `(key, what is wrong)` for each violation.
    pub fn check(&self) -> Vec<(&'static str, String)> {
        let mut bad = Vec::new();
        let mut positive = |key: &'static str, v: i32| {
            if v <= 0 {
                bad.push((key, format!("must be greater than 0, found {v}")));
            }
        };
        positive("board.columns", self.board.columns);
        positive("board.rows", self.board.rows);
        positive("clock.charge_to_activate", self.clock.charge_to_activate);
        positive("clock.rate_at_zero_speed", self.clock.rate_at_zero_speed);
        positive("clock.minimum_rate", self.clock.minimum_rate);
        positive("clock.freeze_rate_percent", self.clock.freeze_rate_percent);

        positive("armor.curve_constant", self.armor.curve_constant);
        positive("armor.flat_divisor", self.armor.flat_divisor);
        positive("insurance.point_capacity", self.insurance.point_capacity);
        positive("maim.restoration_per_point", self.maim.restoration_per_point);
        positive("burn.tick_ms", self.burn.tick_ms);
        positive("venom.tick_ms", self.venom.tick_ms);
        positive("roost.tick_ms", self.roost.tick_ms);
        positive("hallow.tick_ms", self.hallow.tick_ms);
        positive("fleeting.tick_ms", self.fleeting.tick_ms);
        positive("kindled.ignited_at", self.kindled.ignited_at);
        positive("fleeting.decay_percent_per_tick", self.fleeting.decay_percent_per_tick);
        positive("fleeting.buffs_per_unit", self.fleeting.buffs_per_unit);
        positive("hallow.instances_per_unit", self.hallow.instances_per_unit);

        positive("crush.windows_per_unit", self.crush.windows_per_unit);
        positive("overtime.tick_ms", self.overtime.tick_ms);
        positive("overtime.cap_ms", self.overtime.cap_ms);
        positive("tremor.hits", self.tremor.hits);
        positive("fury.focus_per_power", self.fury.focus_per_power);
        positive("limits.events_per_fight", self.limits.events_per_fight);
        positive("haywire.stun_ms", self.haywire.stun_ms);
        positive("everlasting.delay_ms", self.everlasting.delay_ms);
        positive("stagger.stun_ms", self.stagger.stun_ms);
        positive("phylactery.points_per_vessel", self.phylactery.points_per_vessel);
        positive("overclock.blowout_stun_ms", self.overclock.blowout_stun_ms);
        for (key, v) in [
            ("cascade.chance_percent", self.cascade.chance_percent),
            ("cascade.chance_ceiling_percent", self.cascade.chance_ceiling_percent),
            (
                "overclock.blowout_percent_per_stack",
                self.overclock.blowout_percent_per_stack,
            ),
            ("feral.misfire_percent_per_stack", self.feral.misfire_percent_per_stack),
        ] {
            if !(0..=100).contains(&v) {
                bad.push((key, "a percentage, 0 to 100".to_string()));
            }
        }
        for (key, v) in [
            ("cascade.max_retriggers", self.cascade.max_retriggers),
            ("haywire.cap", self.haywire.cap),
            ("shock.thaw_ms", self.shock.thaw_ms),
            ("feral.cap", self.feral.cap),
            ("interest.max_stacks", self.interest.max_stacks),
            ("phylactery.starting_vessels", self.phylactery.starting_vessels),
            ("phylactery.max_vessels", self.phylactery.max_vessels),
            ("phylactery.raw_per_dread_stack", self.phylactery.raw_per_dread_stack),
            ("phylactery.raw_per_frozen_unit", self.phylactery.raw_per_frozen_unit),
            ("phylactery.full_band_raw", self.phylactery.full_band_raw),
            ("phylactery.half_band_raw", self.phylactery.half_band_raw),
        ] {
            if v < 0 {
                bad.push((key, format!("must not be negative, found {v}")));
            }
        }
        // Each rune-board cell faces one row or one column of the grid
        // (900.24a; docs/rules-reconstruction.md).
        if self.runes.row_board_cells != self.board.rows {
            bad.push((
                "runes.row_board_cells",
                "equals board.rows: a cell faces each row".to_string(),
            ));
        }
        if self.runes.column_board_cells != self.board.columns {
            bad.push((
                "runes.column_board_cells",
                "equals board.columns: a cell faces each column".to_string(),
            ));
        }
        if !(1..=self.board.rows.min(self.board.columns)).contains(&self.runes.cells_per_rune) {
            bad.push((
                "runes.cells_per_rune",
                "1 up to the smaller of board.rows and board.columns".to_string(),
            ));
        }
        if !(0..=100).contains(&self.runes.partial_potency_percent) {
            bad.push(("runes.partial_potency_percent", "a percentage, 0 to 100".to_string()));
        }
        if self.resonance.base_level < 1 {
            bad.push(("resonance.base_level", "at least 1 (800.58c: a floor of 1)".to_string()));
        }
        if !(0..=100).contains(&self.blind.power_loss_percent) {
            bad.push(("blind.power_loss_percent", "a percentage, 0 to 100".to_string()));
        }
        if !(0..=100).contains(&self.hallow.decay_min_percent)
            || !(self.hallow.decay_min_percent..=100).contains(&self.hallow.decay_max_percent)
        {
            bad.push((
                "hallow.decay_min_percent",
                "percentages with 0 <= decay_min_percent <= decay_max_percent <= 100".to_string(),
            ));
        }
        // Bounds on what one step may do: Tremor's hits are a loop within one
        // clause, and each level of nested reactions can multiply the work.
        for (key, v, most) in [
            ("tremor.hits", self.tremor.hits, 16),
            ("limits.trigger_depth", self.limits.trigger_depth, 16),
            // Each forced activation and each Cascade link nests one
            // activation inside another (900.16d, 900.16e).
            ("shock.max_depth", self.shock.max_depth, 16),
            ("cascade.max_retriggers", self.cascade.max_retriggers, 64),
            // Each stack of a debt is one roll when it is paid.
            ("interest.max_stacks", self.interest.max_stacks, 1_000_000),
            ("limits.events_per_fight", self.limits.events_per_fight, 10_000_000),
            // An hour of combat: every timer may tick each millisecond.
            ("overtime.cap_ms", self.overtime.cap_ms, 3_600_000),
        ] {
            if v > most {
                bad.push((key, format!("at most {most}")));
            }
        }
        // Per-unit capacities the engine holds in fixed arrays.
        for (key, v, most) in [
            (
                "hallow.instances_per_unit",
                self.hallow.instances_per_unit,
                gridsim_core::limits::MAX_HALLOW_INSTANCES,
            ),
            (
                "fleeting.buffs_per_unit",
                self.fleeting.buffs_per_unit,
                gridsim_core::limits::MAX_FLEETING_BUFFS,
            ),
            (
                "crush.windows_per_unit",
                self.crush.windows_per_unit,
                gridsim_core::limits::MAX_CRUSH_WINDOWS,
            ),
        ] {
            if v > most as i32 {
                bad.push((key, format!("at most {most}")));
            }
        }
        if self.fleeting.decay_percent_per_tick > 100 || 100 % self.fleeting.decay_percent_per_tick.max(1) != 0 {
            bad.push((
                "fleeting.decay_percent_per_tick",
                "a whole number of ticks must take the whole buff: a divisor of 100".to_string(),
            ));
        }
        if self.phylactery.starting_vessels > self.phylactery.max_vessels {
            bad.push((
                "phylactery.starting_vessels",
                "must not exceed phylactery.max_vessels".to_string(),
            ));
        }
        if self.roost.tick_minimum > self.roost.tick_cap {
            bad.push(("roost.tick_minimum", "must not exceed roost.tick_cap".to_string()));
        }
        if self.board.columns > 64 || self.board.rows > 64 {
            bad.push(("board.columns", "a side's grid is at most 64 x 64 cells".to_string()));
        }
        // The match (section 200): counts the loop relies on.
        for (key, v) in [
            ("shop.unit_offers", self.shop.unit_offers),
            ("shop.copies_to_combine", self.shop.copies_to_combine),
            ("shop.units_at_level_one", self.shop.units_at_level_one),
            ("shop.max_level", self.shop.max_level),
            ("shop.xp_per_purchase", self.shop.xp_per_purchase),
            ("round.rounds", self.round.rounds),
            ("round.max_players", self.round.max_players),
            ("round.solo_boss_options", self.round.solo_boss_options),
            ("round.max_boss_options", self.round.max_boss_options),
            ("round.destinations_offered", self.round.destinations_offered),
            ("round.store_weight", self.round.store_weight),
        ] {
            if v <= 0 {
                bad.push((key, format!("must be greater than 0, found {v}")));
            }
        }
        for (key, v) in [
            ("shop.starting_gold", self.shop.starting_gold),
            ("shop.unit_cost", self.shop.unit_cost),
            ("shop.rune_cost", self.shop.rune_cost),
            ("shop.reroll_cost", self.shop.reroll_cost),
            ("shop.sell_gold_per_tier", self.shop.sell_gold_per_tier),
            ("shop.rune_offers", self.shop.rune_offers),
            ("shop.xp_cost", self.shop.xp_cost),
            ("shop.xp_first_level", self.shop.xp_first_level),
            ("shop.xp_step_per_level", self.shop.xp_step_per_level),
            (
                "shop.tier_two_offer_percent_per_level",
                self.shop.tier_two_offer_percent_per_level,
            ),
            (
                "shop.tier_three_offer_percent_per_level",
                self.shop.tier_three_offer_percent_per_level,
            ),
            ("round.party_extra_boss_options", self.round.party_extra_boss_options),
            ("round.boss_gold", self.round.boss_gold),
            ("round.boss_power_per_round", self.round.boss_power_per_round),
            ("round.boss_armor_per_round", self.round.boss_armor_per_round),
            ("round.extra_minion_every_rounds", self.round.extra_minion_every_rounds),
            ("round.boss_xp", self.round.boss_xp),
            ("round.runesmith_weight", self.round.runesmith_weight),
            ("round.vault_weight", self.round.vault_weight),
            ("round.vault_gold", self.round.vault_gold),
            ("round.solo_nemesis_options", self.round.solo_nemesis_options),
            ("round.nemesis_win_gold", self.round.nemesis_win_gold),
            ("round.nemesis_loss_gold", self.round.nemesis_loss_gold),
            ("round.nemesis_xp", self.round.nemesis_xp),
        ] {
            if v < 0 {
                bad.push((key, format!("must not be negative, found {v}")));
            }
        }
        for (key, v, most) in [
            ("round.rounds", self.round.rounds, 64),
            // 200.1c: a party is at most five, the boss draft at most five options.
            ("round.max_players", self.round.max_players, 5),
            ("round.max_boss_options", self.round.max_boss_options, 5),
            ("round.destinations_offered", self.round.destinations_offered, 3),
            ("shop.unit_offers", self.shop.unit_offers, 16),
            ("shop.rune_offers", self.shop.rune_offers, 16),
            ("shop.max_level", self.shop.max_level, 32),
        ] {
            if v > most {
                bad.push((key, format!("at most {most}")));
            }
        }
        // 200.1b (reconstructed): a unit offer's tier odds at the top level
        // must not exceed certainty.
        let top = self.shop.max_level;
        if self.shop.tier_two_offer_percent(top) + self.shop.tier_three_offer_percent(top) > 100 {
            bad.push((
                "shop.tier_two_offer_percent_per_level",
                format!(
                    "with shop.tier_three_offer_percent_per_level, the chances of a tier-2 and a tier-3 offer at the top level (shop.max_level {top}) must add up to at most 100%"
                ),
            ));
        }
        if self.venom.decay_min_percent > self.venom.decay_max_percent {
            bad.push((
                "venom.decay_min_percent",
                "must not exceed venom.decay_max_percent".to_string(),
            ));
        }
        bad
    }
}
