//! A Legend's ability (Core Rules 167.7, 167.8), played by the game: one
//! handler per row of [`LegendAbility`]. A Legend is exhausted by its
//! ability's cost and readied by its player's awaken (315.1.a); it is
//! never on the kernel's board, so its triggers resolve at once, with no
//! chain to answer them (docs/riftbound-reconstruction.md, "Legends").

use super::*;
use gridsim_riftbound::cards::LegendAbility;
use gridsim_riftbound::runes::Cost;

impl Game<'_> {
    /// `p`'s Legend's ability.
    pub fn legend_ability(&self, p: Seat) -> Option<LegendAbility> {
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

    /// Whether `p` may use its Legend's activated ability now (167.8): the
    /// Legend ready, its cost payable, and what it aims at there. `u` is
    /// the unit an ability that aims at one names (Lee Sin's buff: a
    /// friendly unit without a Buff, since a second one fails to apply,
    /// RB27; Yasuo's move: a friendly unit); the others ignore it. Darius's
    /// [Add] needs Legion: a card played by its player this turn.
    pub fn can_use_legend(&self, p: Seat, u: usize) -> bool {
        let side = &self.sides[usize::from(p)];
        let pays = |energy: u8| {
            side.runes.can_pay(&Cost {
                energy,
                ..Cost::default()
            })
        };
        let mine = u < MAX_UNITS && self.units.alive[u] && self.units.owner[u] == p;
        let usable = match self.legend_ability(p) {
            Some(LegendAbility::BuffAUnit { energy }) => mine && !self.units.buffed[u] && pays(energy),
            Some(LegendAbility::MoveAUnit { energy }) => mine && pays(energy),
            Some(LegendAbility::PlayAToken { energy, .. }) => self.units.count_of(p) < MAX_PLAYER_UNITS && pays(energy),
            Some(LegendAbility::LegionEnergy { .. }) => self.played_a_card_this_turn(p),
            _ => false,
        };
        usable && !side.legend_exhausted
    }

    /// Whether its Legend's activated ability names a unit (the
    /// [`Action::Legend`](crate::bots::Action::Legend)'s `unit`).
    pub fn legend_aims_at_a_unit(&self, p: Seat) -> bool {
        matches!(
            self.legend_ability(p),
            Some(LegendAbility::BuffAUnit { .. } | LegendAbility::MoveAUnit { .. })
        )
    }

    /// Legion (728): `p` has played a card this turn, read from the game's
    /// card events; a token or an ability is no card, and a hide is no
    /// play. A Legion card's own play is not among them yet as its cost
    /// is reckoned, so "another" card holds.
    pub fn played_a_card_this_turn(&self, p: Seat) -> bool {
        self.cards_played_this_turn(p) > 0
    }

    /// Pays the Legend's activated ability and resolves it (167.8): its
    /// unit `u` buffed (Lee Sin), moved to or from its base (Yasuo: to
    /// battlefield `to` from its base), a token played (Viktor), Energy
    /// added (Darius). **Decision**: it resolves at once, no chain to
    /// answer it (docs/riftbound-reconstruction.md, "Legends").
    pub(crate) fn use_legend(&mut self, p: Seat, u: usize, to: u8) {
        if !self.can_use_legend(p, u) {
            return;
        }
        let Some(ability) = self.legend_ability(p) else {
            return;
        };
        let energy = match ability {
            LegendAbility::BuffAUnit { energy }
            | LegendAbility::MoveAUnit { energy }
            | LegendAbility::PlayAToken { energy, .. } => energy,
            _ => 0,
        };
        if let LegendAbility::MoveAUnit { .. } = ability
            && self.units.place[u] == Place::Base
            && usize::from(to) >= MAX_FIELDS
        {
            return;
        }
        let s = usize::from(p);
        let paid = self.sides[s].runes.pay(&Cost {
            energy,
            ..Cost::default()
        });
        self.sides[s].recycle_runes(&paid.recycled);
        self.sides[s].legend_exhausted = true;
        let legend = self.sides[s].legend;
        if energy > 0 {
            self.note_payment(p, legend, &paid.recycled);
        }
        match ability {
            LegendAbility::BuffAUnit { .. } => {
                self.units.buffed[u] = true;
                self.note(p, GameEventKind::Legend, Some(legend), u as i32, "167.8");
            }
            LegendAbility::MoveAUnit { .. } => {
                self.note(p, GameEventKind::Legend, Some(legend), u as i32, "167.8");
                self.move_by_ability(p, u, to);
            }
            LegendAbility::PlayAToken { token, .. } => {
                let slot = self.enter_base(p, token, true);
                self.note(
                    p,
                    GameEventKind::Legend,
                    Some(legend),
                    slot.map_or(-1, |k| k as i32),
                    "167.8",
                );
                if slot.is_some() {
                    self.note(p, GameEventKind::Played, Some(token), 1, "179");
                }
            }
            LegendAbility::LegionEnergy { energy } => {
                let pool = &mut self.sides[s].runes.pool;
                *pool = pool.saturating_add(energy);
                self.note(p, GameEventKind::Legend, Some(legend), i32::from(energy), "167.8");
            }
            _ => {}
        }
    }

    /// Whether `p`'s Legend stands ready to save its buffed unit from
    /// death in the showdown about to be played (Sett, The Boss): the
    /// kernel makes the save ([`Board::legend_save`]), and a bot always
    /// takes it.
    ///
    /// [`Board::legend_save`]: gridsim_riftbound::Board::legend_save
    pub(crate) fn legend_saves(&self, p: Seat) -> bool {
        self.legend_ability(p) == Some(LegendAbility::SaveABuffedUnit) && !self.sides[usize::from(p)].legend_exhausted
    }

    /// After a showdown: a Legend whose save the kernel spent is exhausted.
    pub(crate) fn legend_after_showdown(&mut self, p: Seat, armed: bool, still: bool) {
        if armed && !still {
            let s = usize::from(p);
            self.sides[s].legend_exhausted = true;
            let legend = self.sides[s].legend;
            self.note(p, GameEventKind::Legend, Some(legend), 1, "167.7");
        }
    }

    /// "When you conquer, ready me" (Sett, The Boss): a conquest that
    /// scores readies the Legend (a judge's ruling: taking control and
    /// scoring).
    pub(crate) fn legend_on_conquer(&mut self, p: Seat) {
        let s = usize::from(p);
        if self.legend_ability(p) == Some(LegendAbility::SaveABuffedUnit) && self.sides[s].legend_exhausted {
            self.sides[s].legend_exhausted = false;
            let legend = self.sides[s].legend;
            self.note(p, GameEventKind::Legend, Some(legend), 0, "167.7");
        }
    }

    /// A move by an ability, not a standard move (141): the unit is not
    /// exhausted by it. From its base to battlefield `to`, contested as a
    /// standard move's arrival is (322.6, 322.7); from a battlefield home.
    fn move_by_ability(&mut self, p: Seat, u: usize, to: u8) {
        if self.units.place[u] != Place::Base {
            self.units.place[u] = Place::Base;
            self.note(p, GameEventKind::MovedToBase, None, 1, "167.8");
            return;
        }
        let b = usize::from(to);
        let held_before = self.controller(b);
        self.units.place[u] = Place::Field(to);
        self.note(p, GameEventKind::Moved, Some(self.fields[b]), 1, "167.8");
        if held_before != Some(p) {
            self.contest(b);
        }
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
