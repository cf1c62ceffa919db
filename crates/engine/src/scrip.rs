//! Scrip in a battle (800.33, 800.61, 800.67, 800.32, 900.35, 900.37):
//! Hubs strengthening allied Pennies at battle start, the early-round
//! scarcity supplement, Settle turning the side's Stock into Dividend at
//! battle end, and Highland's roster. The match round is an input
//! ([`Engine::set_round`]), so the match loop calls the same code.

use super::{Engine, EventKind, UnitIdx, arith};
use gridsim_model::ability::{CardKind, KeywordName};
use gridsim_model::spec::Side;

impl Engine<'_> {
    /// The match round this battle belongs to (1 to 10), or 0 outside a
    /// match: the scarcity supplement reads it (800.33f).
    pub fn set_round(&mut self, round: u8) {
        self.round = round;
    }

    /// A side's Dividend and Profit going into the battle, which "per
    /// dividend" and "per profit" amounts read without spending
    /// (800.15b, 800.53c).
    pub fn set_scrip(&mut self, side: Side, dividend: i32, profit: i32) {
        self.scrip[side.index()] = [dividend, profit];
    }

    /// The Dividend each side gained in the battle: authored gains
    /// (800.15b) and what its Hubs settled at the end (800.61c).
    pub fn dividend_gained(&self, side: Side) -> i32 {
        self.dividend[side.index()]
    }

    /// An authored Dividend gain for `owner`'s side (800.15b): "per
    /// dividend" amounts read it from now (it is held, not spent, 800.15a),
    /// and the match banks it after the battle.
    pub(crate) fn gain_dividend(&mut self, owner: UnitIdx, amount: i32) {
        if amount <= 0 || owner.is_none() {
            return;
        }
        let side = self.u.side[owner.i()].index();
        self.scrip[side][0] = self.scrip[side][0].saturating_add(amount);
        self.dividend[side] = self.dividend[side].saturating_add(amount);
        self.emit(
            EventKind::DividendGained,
            owner,
            UnitIdx::NONE,
            amount,
            self.scrip[side][0],
            "800.15b",
        );
    }

    /// 800.33d-800.33h, 900.37: ranks every Hub for its grant: the Hubs
    /// of a side in descending tier order (ties by unit id) take 100%,
    /// 50%, 25%, then 10% of their bonuses; the strongest adds the
    /// scarcity supplement in the early rounds. The grant itself resolves
    /// in the Hub's turn of the battle-start pass ([`Engine::hub_grant`]),
    /// which 800.44a makes one reading-order pass for every battle-start
    /// effect.
    pub(crate) fn rank_hubs(&mut self) {
        let h = self.rules.hub;
        for side in [Side::Left, Side::Right] {
            if !self.has_hub[side.index()] {
                continue;
            }
            // A fixed list: nothing in a fight allocates.
            let mut hubs = [(0u8, 0usize); super::MAX_UNITS_PER_SIDE];
            let (mut n, mut pennies) = (0, 0);
            for i in self.u.indices() {
                if self.u.side[i] != side || !self.u.alive[i] {
                    continue;
                }
                match self.u.kind[i] {
                    CardKind::Hub if n < hubs.len() => {
                        hubs[n] = (self.u.tier[i], i);
                        n += 1;
                    }
                    CardKind::Penny => pennies += 1,
                    _ => {}
                }
            }
            if pennies == 0 || n == 0 {
                continue;
            }
            let hubs = &mut hubs[..n];
            hubs.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            // 800.33f: 5% per missing Penny below three, times the early
            // rounds remaining including this one; never from round 3 on,
            // never with three Pennies (800.33g).
            let early = i32::from(self.round) >= 1 && i32::from(self.round) <= h.early_rounds;
            let missing = (h.supplement_pennies - pennies).max(0);
            let supplement = if early {
                h.supplement_percent_per_missing_penny * missing * (h.early_rounds - i32::from(self.round) + 1)
            } else {
                0
            };
            for (k, &(_, hub)) in hubs.iter().enumerate() {
                self.u.hub_share[hub] = match k {
                    0 => h.first_percent,
                    1 => h.second_percent,
                    2 => h.third_percent,
                    _ => h.later_percent,
                };
                self.u.hub_supplement[hub] = if k == 0 { supplement } else { 0 };
            }
        }
    }

    /// Hub `u`'s grant to every allied Penny, at its share of its bonuses
    /// rounded up, plus its supplement rounded to nearest (800.33e,
    /// 800.33h). A Dormant Penny cannot be affected (800.16a).
    pub(crate) fn hub_grant(&mut self, u: UnitIdx) {
        let h = self.rules.hub;
        let hub = u.i();
        let (percent, extra) = (self.u.hub_share[hub], self.u.hub_supplement[hub]);
        if percent == 0 && extra == 0 {
            return;
        }
        let side = self.u.side[hub];
        let tier = i32::from(self.u.tier[hub]);
        let base = [
            h.vitality_per_tier,
            h.power_per_tier,
            h.speed_per_tier,
            h.armor_per_tier,
        ]
        .map(|per| per.saturating_mul(tier));
        // The stacked share rounds up (800.33e), the supplement to the
        // nearest point (800.33h).
        let grant = base.map(|b| arith::percent_up(b, percent) + arith::percent_nearest(b, extra));
        for i in self.u.indices() {
            if self.u.side[i] != side || !self.u.alive[i] || self.u.dormant[i] || self.u.kind[i] != CardKind::Penny {
                continue;
            }
            self.write_clock_inputs(UnitIdx(i as u8), |c| {
                c.max_vitality[i] = c.max_vitality[i].saturating_add(grant[0]);
                c.vitality[i] = c.vitality[i].saturating_add(grant[0]);
                c.power_bonus[i] = c.power_bonus[i].saturating_add(grant[1]);
                c.speed_bonus[i] = c.speed_bonus[i].saturating_add(grant[2]);
                c.armor_bonus[i] = c.armor_bonus[i].saturating_add(grant[3]);
            });
            self.emit(EventKind::HubGranted, UnitIdx(i as u8), u, percent, extra, "800.33d");
        }
    }

    /// 800.26a-800.26c: inside a Franchise Hub's own Markup beat, a copy of
    /// each cardinally adjacent allied Hub's Markup (its battle-start lines)
    /// fires with the Franchise Hub as the actor, so at its tier, in
    /// reading order; its own Markup is not copied.
    pub(crate) fn franchise(&mut self, u: UnitIdx) {
        let i = u.i();
        if !self.catalog.card(self.u.card[i]).keywords.has(KeywordName::Franchise) {
            return;
        }
        let side = self.u.side[i];
        let order = self.side_order[side.index()];
        for &h in order.as_slice() {
            let j = h.i();
            if h == u || self.u.kind[j] != CardKind::Hub || !super::geometry::adjacent(self.u.rect[i], self.u.rect[j]) {
                continue;
            }
            let card = self.u.card[j];
            if self.facts[usize::from(card.0)].listens
                & super::trigger_bit(gridsim_model::ability::Trigger::BattleStart)
                != 0
            {
                self.resolve_passives(u, card, gridsim_model::ability::Trigger::BattleStart, UnitIdx::NONE, 0);
            }
        }
    }

    /// Whether unit `u`'s Quest is complete (800.54b).
    pub(crate) fn quest_complete(&self, u: UnitIdx) -> bool {
        self.catalog
            .card(self.u.printed[u.i()])
            .quest
            .is_some_and(|(_, count)| self.u.quest[u.i()] >= count)
    }

    /// An event `side` caused: every Quest of that side counting it
    /// advances by one, each copy on its own (800.54a); a Quest reaching
    /// its count completes and fires its `quest_completed` lines.
    pub(crate) fn quest_event(&mut self, side: Side, event: gridsim_model::ability::QuestEvent) {
        if self.quest_events[side.index()] & (1 << (event as u8)) == 0 {
            return;
        }
        for i in self.u.indices() {
            if self.u.side[i] != side || !self.u.alive[i] {
                continue;
            }
            let card = self.catalog.card(self.u.printed[i]);
            if let Some(c) = card.counter.as_ref().filter(|c| c.on == event) {
                // 200.3b: the counter accumulates each battle, with no cap.
                self.u.counter[i] = self.u.counter[i].saturating_add(c.gain);
                let gain = c.gain;
                self.emit(
                    EventKind::CounterGained,
                    UnitIdx(i as u8),
                    UnitIdx::NONE,
                    self.u.counter[i],
                    gain,
                    "200.3b",
                );
            }
            let Some((on, count)) = card.quest else {
                continue;
            };
            if on != event || self.u.quest[i] >= count {
                continue;
            }
            self.u.quest[i] += 1;
            let u = UnitIdx(i as u8);
            self.emit(
                EventKind::QuestProgress,
                u,
                UnitIdx::NONE,
                self.u.quest[i],
                count,
                "800.54a",
            );
            if self.u.quest[i] >= count {
                // 800.58d: a Rune Resonator's levels count from its Quest.
                self.refresh_resonance(u);
                self.dispatch(u, gridsim_model::ability::Trigger::QuestCompleted, UnitIdx::NONE);
            }
        }
    }

    /// 800.61c-800.61f, 900.35: at battle end each allied Hub, in reading
    /// order, converts up to its Settle (the printed ladder plus its
    /// board-derived bonus, read against the final board) of the side's
    /// shared Stock into Dividend, 1:1; the pool is never driven negative.
    pub(crate) fn settle(&mut self) {
        for side in [Side::Left, Side::Right] {
            if !self.has_hub[side.index()] {
                continue;
            }
            let order = self.side_order[side.index()];
            let hubs = order
                .as_slice()
                .iter()
                .filter(|u| self.u.kind[u.i()] == CardKind::Hub)
                .count() as i32;
            for &u in order.as_slice() {
                let i = u.i();
                if self.u.kind[i] != CardKind::Hub {
                    continue;
                }
                let card = self.catalog.card(self.u.card[i]);
                let printed = card.at_tier(self.u.tier[i]).settle;
                // 800.61e: a bonus per allied Hub, this one included, read now.
                let bonus = card
                    .keywords
                    .amount(KeywordName::SettlePerHub)
                    .map_or(0, |a| self.catalog.fixed_amount(a, self.u.tier[i]))
                    .saturating_mul(hubs);
                let stock = self.stock[side.index()];
                let converted = printed.saturating_add(bonus).min(stock).max(0);
                self.stock[side.index()] -= converted;
                self.dividend[side.index()] = self.dividend[side.index()].saturating_add(converted);
                self.emit(
                    EventKind::Settled,
                    u,
                    UnitIdx::NONE,
                    converted,
                    self.stock[side.index()],
                    "800.61c",
                );
            }
        }
    }

    /// 800.32: Highland holds for `side` while every non-Tool unit it
    /// started combat with is a distinct card, none combined (placed above
    /// its native tier), and none's current tier differs from its native
    /// tier (a live Smash, 800.32c). The roster is the one taken when the
    /// battle started (800.32b).
    pub(crate) fn highland(&self, side: Side) -> bool {
        if !self.highland_roster[side.index()] {
            return false;
        }
        self.u
            .indices()
            .all(|i| self.u.side[i] != side || self.u.tier[i] == self.u.native_tier[i])
    }

    /// Takes each side's starting roster for Highland (800.32a, 800.32b,
    /// 800.32d, 800.32e): Hubs and Pennies count, Tools do not.
    pub(crate) fn take_roster(&mut self) {
        let counted = |i: usize, side: Side| self.u.side[i] == side && self.u.kind[i] != CardKind::Tool;
        // The Hub passes (grants at battle start, Settle at the end) run
        // only for a side that has a Hub.
        self.has_hub = [Side::Left, Side::Right].map(|side| {
            self.u
                .indices()
                .any(|i| self.u.side[i] == side && self.u.kind[i] == CardKind::Hub)
        });
        for side in [Side::Left, Side::Right] {
            let live = self.u.indices();
            let unique = live.clone().filter(|&i| counted(i, side)).all(|i| {
                !self.u.combined[i]
                    && (i + 1..live.end).all(|j| !counted(j, side) || self.u.printed[j] != self.u.printed[i])
            });
            self.highland_roster[side.index()] = unique;
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn stacking_rounds_up_and_the_supplement_to_nearest() {
        // 800.33e: 25% of 10 is 2.5, rounded up to 3.
        assert_eq!(crate::arith::percent_up(10, 25), 3);
        // 800.33h: 5% of 9 is 0.45, to nearest 0 (rounded up it would be 1).
        assert_eq!(crate::arith::percent_nearest(9, 5), 0);
        assert_eq!(crate::arith::percent_nearest(10, 5), 1);
    }
}
