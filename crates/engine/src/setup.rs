//! Setting a fight up: the engine made once per worker, reset per fight,
//! units built and placed, starting states, the battle-start pass.

use super::possible::Feature;
use super::*;

impl<'c> Engine<'c> {
    pub fn new(catalog: &'c Catalog, rules: Rules) -> Engine<'c> {
        let limit = rules.limits.events_per_fight.max(1) as usize;
        Engine {
            catalog,
            rules,
            u: Units::with_capacity(),
            now: 0,
            rng: FightRng::for_fight(0, 0),
            log: EventLog::new(limit),
            side_runes: [runes::SideRunes::default(); 2],
            rune_grants: Box::new([RuneGrants::default(); MAX_UNITS]),
            resonance: ResonanceState::NONE,
            round: 0,
            dividend: [0; 2],
            scrip: [[0; 2]; 2],
            highland_roster: [false; 2],
            quest_events: [0; 2],
            has_hub: [false; 2],
            trace: trace::Trace::default(),
            stock: [0; 2],
            forge: [Forge::default(); 2],
            overtime_next_ms: NEVER,
            first_side: Side::Left,
            order: UnitList::default(),
            tools: [UnitList::default(); 2],
            side_order: [UnitList::default(); 2],
            armor_shares: damage::ArmorShares::new(rules.armor.curve_constant),
            facts: (0..catalog.cards.len())
                .map(|c| CardFacts::of(catalog, CardId(c as u16)))
                .collect(),
            package_mask: [0; 2],
            tool_mask: [0; 2],
            possible: Possible::NONE,
            pick: Box::new(PickScratch {
                pool: [UnitIdx::NONE; MAX_UNITS],
                weights: [0; MAX_UNITS],
            }),
            standing: [0; 2],
            wake_watch: [0; 2],
            clock: ClockCache::FRESH,
            order_stale: false,
            rank: [0; MAX_UNITS],
            nesting: Nesting::default(),
            vessel_batch: VesselBatch::default(),
            through_entrap: false,
            outcome: None,
            line_shift: Box::new([StatLine::default(); MAX_UNITS]),
        }
    }

    /// Records every event from now on (for `--log`, replays and scenarios).
    pub fn enable_log(&mut self) {
        self.log.enable();
    }

    /// Clears all state for a new fight with its own random stream.
    pub fn reset(&mut self, rng: FightRng) {
        self.u.count = 0;
        self.now = 0;
        self.rng = rng;
        self.log.clear();
        self.trace.clear();
        for s in &mut self.side_runes {
            s.count = 0;
            s.resonance = None;
        }
        if self.possible.any(Feature::Runes) {
            self.rune_grants.fill(RuneGrants::default());
        }
        self.resonance = ResonanceState::NONE;
        self.possible = Possible::NONE;
        self.dividend = [0; 2];
        self.scrip = [[0; 2]; 2];
        self.highland_roster = [false; 2];
        self.quest_events = [0; 2];
        self.has_hub = [false; 2];
        self.stock = [0; 2];
        self.forge = [Forge::default(); 2];
        self.overtime_next_ms = self.rules.overtime.start_ms.saturating_add(self.rules.overtime.tick_ms);
        self.first_side = Side::Left;
        self.order.clear();
        self.tools = [UnitList::default(); 2];
        self.side_order = [UnitList::default(); 2];
        self.package_mask = [0; 2];
        self.tool_mask = [0; 2];
        self.standing = [0; 2];
        self.wake_watch = [0; 2];
        self.clock = ClockCache::FRESH;
        self.order_stale = false;
        self.nesting = Nesting::default();
        self.vessel_batch = VesselBatch::default();
        self.outcome = None;
    }

    /// Places one unit at full Vitality. Returns `None` when the fight is full.
    pub fn add_unit(&mut self, side: Side, p: Placement) -> Option<UnitIdx> {
        self.add_unit_shifted(side, p, StatLine::default())
    }

    /// Places one unit whose printed line is shifted by `shift` for this
    /// fight (see [`UnitGroup::shifts`]).
    fn add_unit_shifted(&mut self, side: Side, p: Placement, shift: StatLine) -> Option<UnitIdx> {
        if self.u.count >= MAX_UNITS {
            return None;
        }
        let idx = UnitIdx(self.u.count as u8);
        self.u.count += 1;
        self.line_shift[idx.i()] = shift;
        self.build_unit(idx, side, p);
        self.refresh_targetable(idx.i());
        if self.u.kind[idx.i()] == CardKind::Tool {
            self.tool_mask[side.index()] |= 1u64 << idx.i();
        }
        Some(idx)
    }

    /// Builds one unit for the battle from its card, as placement and a
    /// revival (500.9) both do: every column from the card at `p.tier`,
    /// full Vitality, nothing gained or suffered yet.
    pub(super) fn build_unit(&mut self, idx: UnitIdx, side: Side, p: Placement) {
        let i = idx.i();
        let card = self.catalog.card(p.card);
        let tier = p.tier.clamp(1, card.tiers().max(1));
        let line = card.at_tier(tier).shifted(self.line_shift[i]);
        let (catalog, r) = (self.catalog, self.rules.phylactery);
        // A unit built is all new to the clock.
        let phylactery = self.write_clock_inputs(idx, |u| {
            u.reset_unit(i);
            u.printed[i] = p.card;
            u.side[i] = side;
            u.kind[i] = card.kind;
            u.native_tier[i] = tier;
            u.tier[i] = tier;
            u.combined[i] = p.combined;
            u.rect[i] = Rect {
                column: p.column,
                row: p.row,
                size: card.footprint.side(),
            };
            u.alive[i] = true;
            // A Tool's Durability is its Vitality (800.18c); a Hub cannot die (800.61f).
            let vit = match card.kind {
                CardKind::Tool => line.durability.max(1),
                CardKind::Hub => 1,
                _ => line.vitality.max(1),
            };
            u.max_vitality[i] = vit;
            u.vitality[i] = vit;
            u.permanent[i] = card.permanent;
            // 800.16f: a card with a wake condition starts every battle Dormant.
            if let Some(w) = card.wake {
                u.dormant[i] = true;
                u.awaiting_wake[i] = true;
                if let gridsim_model::catalog::Wake::AfterMs(ms) = w {
                    u.dormant_timed[i] = true;
                    u.dormant_ms[i] = ms;
                }
            }
            let kw = card.keywords;
            let eval = |a: Option<gridsim_model::ability::Amount>| a.map_or(0, |a| catalog.fixed_amount(a, tier));
            u.insurance[i] = eval(kw.amount(gridsim_model::ability::KeywordName::Insurance));
            u.subrogated[i] = eval(kw.amount(gridsim_model::ability::KeywordName::Subrogated));
            u.stagger_size[i] = card.stagger;
            u.counter[i] = card.counter.as_ref().map_or(0, |c| c.start);
            u.phase_at[i] = card.phases.first().map_or(0, |ph| ph.below_percent);
            u.phylactery[i] = kw.has(gridsim_model::ability::KeywordName::Phylactery);
            // 800.49b: the starting Vessel comes with the unit, not from a
            // battle-start effect.
            if u.phylactery[i] {
                u.vessels[i] = r.starting_vessels;
                // 800.49h: a unit built at the ceiling holds its meter one
                // point short of forming another.
                if r.starting_vessels >= r.max_vessels {
                    u.vessel_points[i] = r.points_per_vessel.max(1) - 1;
                }
            }
            u.phylactery[i]
        });
        if phylactery {
            self.possible.mark(Feature::Vessels, 0, true);
        }
        self.install_loadout(idx, p.card);
    }

    /// Installs a card's loadout on a unit at its current tier: the card
    /// itself (its ability and passive lines), the printed line, and every
    /// column its keywords set. Placement does it once; a boss's phase
    /// change does it again with the phase's card (800.48a), keeping what
    /// was granted for the battle (Relentless, Rabid, Everlasting).
    pub(super) fn install_loadout(&mut self, idx: UnitIdx, card_id: CardId) {
        use gridsim_model::ability::KeywordName as K;
        let i = idx.i();
        let card = self.catalog.card(card_id);
        let tier = self.u.tier[i];
        let kw = card.keywords;
        let catalog = self.catalog;
        let eval = |a: Option<gridsim_model::ability::Amount>| a.map_or(0, |a| catalog.fixed_amount(a, tier));
        let mut layer = [0; 4];
        for passive in self.catalog.passives_of(card_id) {
            if passive.trigger == Trigger::WhileInsured {
                let amount = passive.op.amount.map_or(0, |a| catalog.fixed_amount(a, tier));
                let slot = match passive.op.effect {
                    gridsim_model::effects::Effect::GainPower => 0,
                    gridsim_model::effects::Effect::GainSpeed => 1,
                    gridsim_model::effects::Effect::GainArmor => 2,
                    _ => 3,
                };
                layer[slot] += amount;
            }
        }
        let grants = self.rune_grants[i];
        let line = self.printed_line(i, card_id, tier);
        self.write_clock_inputs(idx, |u| {
            u.card[i] = card_id;
            u.line[i] = line;
            u.has_ability[i] = card.has_ability() && !card.kind.is_object();
            u.relentless[i] = (u.relentless[i] || kw.has(K::Relentless)) && !u.relentless_suppressed[i];
            u.rabid[i] |= kw.has(K::Rabid);
            u.everlasting[i] |= kw.has(K::Everlasting);
            u.feast[i] = kw.has(K::Feast);
            u.cascade[i] = kw.has(K::Cascade);
            u.ally_damage_immune[i] = kw.has(K::AllyDamageImmune);
            u.fury[i] = kw.has(K::Fury);
            u.brute[i] = kw.has(K::Brute);
            u.lucid_power[i] = kw.has(K::LucidPower);
            u.ignited_fury_aura[i] = kw.has(K::IgnitedFuryAura);
            u.no_burn_spread[i] = kw.has(K::NoBurnSpread);
            u.insured_layer[i] = layer;
            // Runes project onto the cells, whatever loadout stands there.
            u.thorns[i] = eval(kw.amount(K::Thorns)).saturating_add(grants.thorns);
            u.riposte[i] = eval(kw.amount(K::Riposte)).saturating_add(grants.riposte);
            u.retort[i] = eval(kw.amount(K::Retort));
            u.reflect[i] = eval(kw.amount(K::Reflect)).saturating_add(grants.reflect);
            u.underwriting[i] = eval(kw.amount(K::Underwriting));
            u.exalt[i] = eval(kw.amount(K::Exalt));
            u.damage_cap[i] = eval(kw.amount(K::DamageCap));
            u.initiative_repeats[i] = eval(kw.amount(K::InitiativeRepeats));
        });
        self.possible.mark(Feature::InsuredLayers, 0, layer != [0; 4]);
    }

    /// Phasebreak (800.48): every authored threshold the boss's Vitality
    /// has reached, in order, installs the next phase's loadout (800.48a,
    /// 800.48f); thresholds are one-way (800.48e). No heal, Stagger kept
    /// (800.48b, 800.66g); the charge keeps its progress and fills at the
    /// new Speed (800.48b); gains and losses on Focus and the other stats
    /// are deltas and carry over (800.48c); the new card's keywords, Fury
    /// included, count from the first read (800.48g).
    pub(crate) fn check_phases(&mut self, u: UnitIdx) {
        let i = u.i();
        let phases = &self.catalog.card(self.u.printed[i]).phases;
        while self.u.alive[i] && usize::from(self.u.phase[i]) < phases.len() {
            let next = phases[usize::from(self.u.phase[i])];
            if i64::from(self.u.vitality[i]) * 100 > i64::from(self.u.max_vitality[i]) * i64::from(next.below_percent) {
                break;
            }
            self.u.phase[i] += 1;
            self.install_loadout(u, next.card);
            self.u.phase_at[i] = phases
                .get(usize::from(self.u.phase[i]))
                .map_or(0, |ph| ph.below_percent);
            self.mark_possible(u);
            self.emit(
                EventKind::PhaseChanged,
                u,
                UnitIdx::NONE,
                i32::from(self.u.phase[i]),
                self.u.vitality[i],
                "800.48a",
            );
            // 800.58d: a phase may bring or drop a resonator's levels.
            self.refresh_resonance(u);
        }
    }

    /// Sets up a run's fight between two boards (left's units first, as
    /// unit 0 onward, then right's), outside a match. Validated boards fit
    /// (`MAX_UNITS_PER_SIDE`), so [`Engine::begin`] has nothing to refuse.
    pub fn setup(&mut self, left: &BoardSpec, right: &BoardSpec, rng: FightRng) {
        let groups = [UnitGroup::board(Side::Left, left), UnitGroup::board(Side::Right, right)];
        let start = FightStart::boards(&groups, left, right);
        let placed = self.begin(&start, rng);
        debug_assert!(placed.is_ok(), "a validated board did not fit: {placed:?}");
    }

    /// Sets up any fight from what it starts from: the scratch reset, each
    /// side's Forge Cores, runes and resonance, the round and Scrip, every
    /// unit placed in the order of `start.groups` with its starting state,
    /// then the battle started: the tie-break side drawn and the
    /// battle-start pass resolved in reading order (800.44a). Every fight
    /// begins here: a run's, a match's, a scenario's. Refuses more units
    /// than a fight holds, after placing those that fit.
    pub fn begin(&mut self, start: &FightStart, rng: FightRng) -> Result<(), StartError> {
        self.reset(rng);
        self.forge = start.forge;
        self.set_round(start.round);
        for side in [Side::Left, Side::Right] {
            let k = side.index();
            self.set_scrip(side, start.scrip[k][0], start.scrip[k][1]);
            self.set_runes(side, start.runes[k], start.rune_shifts[k], start.resonance[k]);
        }
        let mut refused = None;
        for g in start.groups {
            let first = self.u.count;
            for (k, p) in g.units.iter().enumerate() {
                let shift = g.shifts.get(k).copied().unwrap_or_default();
                if self.add_unit_shifted(g.side, *p, shift).is_none() && refused.is_none() {
                    refused = Some(StartError::TooManyUnits);
                }
            }
            // A state whose unit was not placed has no unit to take it.
            for (k, state) in g.states.iter().enumerate().take(self.u.count - first) {
                self.set_initial_state(UnitIdx((first + k) as u8), state)?;
            }
        }
        self.start_battle();
        refused.map_or(Ok(()), Err)
    }

    /// Draws the tie-break side, fixes resolution order and resolves the
    /// battle-start pass. Called once after all units are placed.
    pub fn start_battle(&mut self) {
        self.draw_first_side();
        self.rebuild_order();
        self.take_roster();
        self.count_quest_events();
        self.start_runes();
        self.rank_hubs();
        self.count_units();
        self.emit(
            EventKind::BattleStart,
            UnitIdx::NONE,
            UnitIdx::NONE,
            self.u.count as i32,
            0,
            "300.3",
        );
        // 200.3b: a counter counting battles gains before any battle-start
        // line reads it, so "per counter" amounts see this battle's count.
        if self.possible.any(Feature::Quests) {
            let first = self.first_side;
            self.quest_event(first, gridsim_model::ability::QuestEvent::BattleStart);
            self.quest_event(first.other(), gridsim_model::ability::QuestEvent::BattleStart);
        }
        let order = self.order;
        // 800.49e: the battle-start pass is one Vessel-Point batch.
        self.open_batch();
        for &u in order.as_slice() {
            // 800.44a: every battle-start effect resolves in this one pass,
            // at its unit's turn, Braced included: a unit an earlier turn
            // displaced counts the Tools beside it where it now stands.
            self.brace(u);
            // 800.54b: a completed Quest's reward stays with its unit.
            // 800.44a: a Hub's grant is a battle-start effect of its turn.
            if self.u.kind[u.i()] == CardKind::Hub {
                self.hub_grant(u);
            }
            if self.possible.any(Feature::Quests) && self.quest_complete(u) {
                self.dispatch(u, Trigger::QuestCompleted, UnitIdx::NONE);
            }
            self.dispatch(u, Trigger::BattleStart, UnitIdx::NONE);
            if self.u.kind[u.i()] == CardKind::Hub {
                self.franchise(u);
            }
            if self.u.kind[u.i()] == CardKind::Tool {
                self.run_tool(
                    u,
                    gridsim_model::ability::PackageEvent::BattleStart,
                    None,
                    UnitIdx::NONE,
                    UnitIdx::NONE,
                );
            }
            // 800.18c: a Tool worn to 0 is destroyed at 0. Only an ally's
            // activation defers it, to the end of its package pass (800.18f,
            // 900.34c); no ally activates at battle start, so a Tool its turn
            // wore out is gone before the next turn, and a later Braced no
            // longer counts it (800.6b).
            self.destroy_worn_tools(Side::Left);
            self.destroy_worn_tools(Side::Right);
        }
        self.close_batch();
        self.destroy_worn_tools(Side::Left);
        self.destroy_worn_tools(Side::Right);
        self.check_end();
    }

    /// A rescue fight's start once its units stand as they stood
    /// ([`Engine::resume`], 200.2c): what a fight derives from its units
    /// worked out again, every unit's clock afresh, and no battle-start
    /// pass: its grants and lines happened when the battle began.
    pub(super) fn continue_battle(&mut self) {
        self.draw_first_side();
        self.rebuild_order();
        self.take_roster();
        self.count_quest_events();
        self.count_units();
        for i in self.u.indices() {
            self.touch_clock(UnitIdx(i as u8));
        }
        self.emit(
            EventKind::BattleContinued,
            UnitIdx::NONE,
            UnitIdx::NONE,
            self.u.count as i32,
            0,
            "200.2c",
        );
        self.check_end();
    }

    /// Which side resolves first among same-millisecond ties, drawn when
    /// a fight starts.
    fn draw_first_side(&mut self) {
        self.first_side = if self.rng.below(2) == 0 {
            Side::Left
        } else {
            Side::Right
        };
    }

    /// The Quest and counter events each side counts (800.54a, 200.3b).
    fn count_quest_events(&mut self) {
        for i in self.u.indices() {
            let card = self.catalog.card(self.u.printed[i]);
            let counted = card
                .quest
                .map(|(on, _)| on)
                .into_iter()
                .chain(card.counter.as_ref().map(|c| c.on));
            for on in counted {
                self.quest_events[self.u.side[i].index()] |= 1 << (on as u8);
            }
        }
        self.possible.mark(Feature::Quests, 0, self.quest_events != [0; 2]);
    }

    /// Per side, the Tool package events listened to, the standing
    /// combatants, the units waiting on a counted wake condition, and what
    /// each unit's loadout makes possible.
    fn count_units(&mut self) {
        for i in self.u.indices() {
            let side = self.u.side[i].index();
            for p in self.catalog.packages_of(self.u.card[i]) {
                self.package_mask[side] |= Self::package_bit(p.event, p.timing);
            }
            if self.u.alive[i] && self.is_combatant(UnitIdx(i as u8)) {
                self.standing[side] += 1;
            }
            if self.u.awaiting_wake[i] && !self.u.dormant_timed[i] {
                self.wake_watch[side] |= 1 << i;
            }
            self.mark_possible(UnitIdx(i as u8));
        }
    }

    /// 800.6a-800.6c: Braced is a one-time battle-start grant per adjacent
    /// living Tool; losing a Tool later takes nothing back.
    fn brace(&mut self, u: UnitIdx) {
        let card = self.catalog.card(self.u.card[u.i()]);
        if let Some(a) = card.keywords.amount(gridsim_model::ability::KeywordName::Braced) {
            let per_tool = self.catalog.fixed_amount(a, self.u.tier[u.i()]);
            let gain = per_tool.saturating_mul(self.adjacent_living_tools(u));
            if gain != 0 {
                self.change_stat(UnitIdx::NONE, u, effects::Stat::Armor, gain);
            }
        }
    }

    pub(super) fn rebuild_order(&mut self) {
        self.order.clear();
        for side in [self.first_side, self.first_side.other()] {
            let mut list = UnitList::default();
            for i in self.u.indices() {
                if self.u.side[i] == side {
                    list.push(UnitIdx(i as u8));
                }
            }
            let slice = &mut list.items[..list.len as usize];
            slice.sort_by_key(|u| geometry::reading_key(self.u.rect[u.i()]));
            for &u in list.as_slice() {
                self.order.push(u);
            }
        }
        self.tools = [UnitList::default(); 2];
        self.side_order = [UnitList::default(); 2];
        for (rank, &u) in self.order.as_slice().iter().enumerate() {
            self.rank[u.i()] = rank as u8;
        }
        for &u in self.order.as_slice() {
            self.side_order[self.u.side[u.i()].index()].push(u);
            if self.u.kind[u.i()] == CardKind::Tool {
                self.tools[self.u.side[u.i()].index()].push(u);
            }
        }
    }

    /// Runs one whole fight and returns its outcome.
    pub fn fight(&mut self, left: &BoardSpec, right: &BoardSpec, rng: FightRng) -> Outcome {
        self.setup(left, right, rng);
        self.play_out()
    }

    /// Runs one whole fight in which each side's units have their printed
    /// lines shifted (`shifts[side][unit]`, see [`UnitGroup::shifts`]) and
    /// its board runes their amounts (`rune_shifts[side][rune]`, see
    /// [`FightStart::rune_shifts`]): the fight as if the cards and runes
    /// printed other numbers for this fight alone.
    pub fn fight_shifted(
        &mut self,
        left: &BoardSpec,
        right: &BoardSpec,
        shifts: [&[StatLine]; 2],
        rune_shifts: [&[i32]; 2],
        rng: FightRng,
    ) -> Outcome {
        let mut groups = [UnitGroup::board(Side::Left, left), UnitGroup::board(Side::Right, right)];
        groups[0].shifts = shifts[0];
        groups[1].shifts = shifts[1];
        let start = FightStart {
            rune_shifts,
            ..FightStart::boards(&groups, left, right)
        };
        let placed = self.begin(&start, rng);
        debug_assert!(placed.is_ok(), "a validated board did not fit: {placed:?}");
        self.play_out()
    }

    /// Runs a set-up fight to its end.
    fn play_out(&mut self) -> Outcome {
        self.run_until(self.rules.overtime.cap_ms);
        let outcome = self.finish();
        #[cfg(debug_assertions)]
        if let Err(broken) = self.check_invariants() {
            panic!("engine invariant broken at {} ms: {broken}", self.now);
        }
        outcome
    }
}
