//! A Legend's ability (Core Rules 167.7, 167.8), played by the game: one
//! handler per row of [`LegendAbility`]. A Legend is exhausted by its
//! ability's cost and readied by its player's awaken (315.1.a); it is
//! never on the kernel's board, so its triggers resolve at once, with no
//! chain to answer them (docs/riftbound-reconstruction.md, "Legends").

use super::*;
use gridsim_riftbound::cards::LegendAbility;
use gridsim_riftbound::runes::Cost;

impl Game<'_> {
    fn legend_ability(&self, p: Seat) -> Option<LegendAbility> {
        self.catalog.card(self.sides[usize::from(p)].legend).legend_ability
    }

    /// "At the start of your Beginning Phase, draw 1 if you have N or fewer
    /// cards in hand" (Jinx, Loose Cannon): before the holds, its
    /// condition read as it resolves.
    pub(crate) fn legend_at_beginning(&mut self, p: Seat) {
        let Some(LegendAbility::DrawWithFewCards { hand }) = self.legend_ability(p) else {
            return;
        };
        if self.sides[usize::from(p)].hand.len() <= usize::from(hand) {
            let legend = self.sides[usize::from(p)].legend;
            self.note(p, GameEventKind::Legend, Some(legend), 1, "167.7");
            self.draw(p, 1, "167.7");
        }
    }

    /// Whether `p` may pay its Legend's "N, exhaust me: buff a friendly
    /// unit" (Lee Sin, Blind Monk) for its unit `u`: the Legend ready, the
    /// Energy there, `u` its own and without a Buff (a second one fails to
    /// apply, RB27).
    pub fn can_legend_buff(&self, p: Seat, u: usize) -> bool {
        let Some(LegendAbility::BuffAUnit { energy }) = self.legend_ability(p) else {
            return false;
        };
        let side = &self.sides[usize::from(p)];
        let cost = Cost {
            energy,
            ..Cost::default()
        };
        let unit = u < MAX_UNITS && self.units.alive[u] && self.units.owner[u] == p && !self.units.buffed[u];
        unit && !side.legend_exhausted && side.runes.can_pay(&cost)
    }

    /// Pays the Legend's buff and gives `u` its Buff (167.8).
    pub(crate) fn legend_buff(&mut self, p: Seat, u: usize) {
        if !self.can_legend_buff(p, u) {
            return;
        }
        let Some(LegendAbility::BuffAUnit { energy }) = self.legend_ability(p) else {
            return;
        };
        let s = usize::from(p);
        let paid = self.sides[s].runes.pay(&Cost {
            energy,
            ..Cost::default()
        });
        self.sides[s].recycle_runes(&paid.recycled);
        self.sides[s].legend_exhausted = true;
        let legend = self.sides[s].legend;
        self.note_payment(p, legend, &paid.recycled);
        self.units.buffed[u] = true;
        self.note(p, GameEventKind::Legend, Some(legend), u as i32, "167.8");
    }

    /// "When an enemy unit attacks a battlefield you control, give it N
    /// this turn" (Ahri, Nine-Tailed Fox), for the movers in lane 0 about
    /// to attack battlefield `b`, which `defender` controls: the change is
    /// theirs as the combat starts, kept for the turn. **Decision**: made
    /// as the lanes are handed to the kernel, before the attack triggers,
    /// rather than as a trigger ordered among them.
    pub(crate) fn legend_on_attack(&mut self, defender: Seat, b: usize) {
        let Some(LegendAbility::WeakenAttackers { might }) = self.legend_ability(defender) else {
            return;
        };
        // It controls the battlefield it has units at (the movers are
        // there already, so `controller` could name either).
        if self.units.of(defender, Place::Field(b as u8)).next().is_none() {
            return;
        }
        for lu in &mut self.lanes[0].units {
            lu.might_this_turn = lu.might_this_turn.saturating_add(might);
        }
        let legend = self.sides[usize::from(defender)].legend;
        let attackers = self.lanes[0].units.len() as i32;
        self.note(defender, GameEventKind::Legend, Some(legend), attackers, "167.7");
    }

    /// "When you play a unit of Might N or more, you may exhaust me to
    /// channel 1 rune exhausted" (Volibear, Relentless Storm), after `card`
    /// entered under `p`: always taken, since the Legend has no other use.
    pub(crate) fn legend_on_play(&mut self, p: Seat, card: CardIndex) {
        let Some(LegendAbility::ChannelOnMighty { might }) = self.legend_ability(p) else {
            return;
        };
        let s = usize::from(p);
        if self.sides[s].legend_exhausted || self.catalog.card(card).might < might {
            return;
        }
        let Some(d) = self.sides[s].take_rune() else { return };
        self.sides[s].runes.exhausted[d.index()] += 1;
        self.sides[s].legend_exhausted = true;
        let legend = self.sides[s].legend;
        self.note(p, GameEventKind::Legend, Some(legend), 1, "167.7");
    }
}
