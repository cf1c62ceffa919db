//! The seeded policy that plays both sides of a suite's showdowns: which
//! spell, which target, which order, and the prudence of recalling a unit
//! only to save it. None of it is a rule (the rulings leave these choices
//! to the players, and a scenario's script makes them instead), so the
//! conformance scenarios cannot tell its choices apart: its own tests
//! below check it, and `.ci/mutants` leaves it out of the rule files.

use super::*;

/// The seeded policy: plays a spell it can play [`Policy::cast_percent`]
/// of the times it may, chooses targets uniformly, orders at random.
pub struct Seeded<'r> {
    pub policy: Policy,
    pub rng: &'r mut FightRng,
}

// Inline: the showdown is generic over its choices, so it is built in
// the crate that plays it, and these small draws would each be a call.
impl Choices for Seeded<'_> {
    #[inline]
    fn play(&mut self, _p: Player, castable: &[CardIndex]) -> Option<usize> {
        if castable.is_empty() || !self.rng.chance_percent(self.policy.cast_percent) {
            return None;
        }
        Some(self.rng.below(castable.len() as u32) as usize)
    }

    #[inline]
    fn target(&mut self, _p: Player, _card: CardIndex, _unit: Option<UnitId>, legal: &[UnitId]) -> usize {
        self.rng.below(legal.len() as u32) as usize
    }

    #[inline]
    fn order(&mut self, _p: Player, items: &mut [(usize, Option<UnitId>)]) {
        shuffle(items, self.rng);
    }

    #[inline]
    fn damage_order(&mut self, _p: Player, targets: &mut [UnitId]) {
        shuffle(targets, self.rng);
    }

    #[inline]
    fn prudent(&self) -> bool {
        true
    }

    /// Even odds.
    #[inline]
    fn may(&mut self, _p: Player, _card: CardIndex) -> bool {
        self.rng.below(2) == 0
    }

    /// Even odds.
    #[inline]
    fn hide(&mut self, _p: Player, _card: CardIndex) -> bool {
        self.rng.below(2) == 0
    }

    #[inline]
    fn discard(&mut self, _p: Player, hand: &[CardIndex]) -> usize {
        self.rng.below(hand.len().max(1) as u32) as usize
    }
}

impl<C: Choices> Play<'_, '_, '_, C> {
    /// Whether the item on top of the chain, an opponent's, would mark
    /// lethal damage on `u` as it resolves.
    pub(super) fn threatened(&self, u: UnitId) -> bool {
        let b = &self.s.board;
        let Some(top) = self.s.chain[..self.s.chain_len].last() else {
            return false;
        };
        if top.controller == b.controller(u) {
            return false;
        }
        let card = self.s.catalog.card(top.card);
        let mut hits = [(None, None); MAX_EFFECTS];
        match top.source {
            Source::Spell => {
                for (k, e) in card.effects.iter().enumerate().take(MAX_EFFECTS) {
                    hits[k] = (Some(*e), top.targets[k]);
                }
            }
            Source::Trigger(k) => {
                if let Some(t) = card.triggers.get(usize::from(k)) {
                    hits[0] = (Some(t.effect), top.targets[0]);
                }
            }
            Source::Ability => {
                let effects = card.ability.iter().flat_map(|a| &a.effects);
                for (k, e) in effects.enumerate().take(MAX_EFFECTS) {
                    hits[k] = (Some(*e), top.targets[k]);
                }
            }
            Source::Unit => {}
        }
        let mut damage = 0i32;
        for (e, target) in hits {
            let Some(e) = e else { continue };
            let reaches = match e.target {
                Target::EachEnemy => b.here(u),
                _ => target == Some(u),
            };
            if !reaches {
                continue;
            }
            damage = damage.saturating_add(match e.action {
                Action::Damage(n) => n,
                Action::DamageMyMight => top.unit.filter(|&s| b.alive(s)).map_or(0, |s| b.might(s)),
                _ => 0,
            });
        }
        damage > 0 && b.damage(u).saturating_add(damage) >= b.might(u)
    }
}

/// Fisher–Yates on the showdown's stream.
fn shuffle<T>(xs: &mut [T], rng: &mut FightRng) {
    for i in (1..xs.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        xs.swap(i, j);
    }
}

#[cfg(test)]
mod tests;
