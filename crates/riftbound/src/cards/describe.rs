//! What the loader, the runs and the report say of a card: its kind's
//! name, the keywords a report counts it under, the cards of a kind and the
//! catalog's fingerprint. No rule reads them, so the mutation runs leave
//! this file out (docs/mutation.md); its tests check them.

use super::*;

impl CardKind {
    /// Its name in card files, errors and reports.
    pub fn name(self) -> &'static str {
        match self {
            CardKind::Unit => "unit",
            CardKind::Gear => "gear",
            CardKind::Spell => "spell",
            CardKind::Battlefield => "battlefield",
            CardKind::Rune => "rune",
            CardKind::Legend => "legend",
        }
    }
}

impl Card {
    /// A card with its key (its name too), kind and Might and nothing else:
    /// no keyword, effect or trigger, free to play, of no domain. What a
    /// test builds the card it needs from.
    pub fn plain(key: &str, kind: CardKind, might: i32) -> Card {
        Card {
            key: key.to_string(),
            name: key.to_string(),
            kind,
            might,
            assault: 0,
            shield: 0,
            speed: Speed::Action,
            effects: Vec::new(),
            triggers: Vec::new(),
            replacement: None,
            hidden: false,
            accelerate: false,
            tank: false,
            passive: None,
            legend_ability: None,
            token: false,
            legion_discount: 0,
            legion_ready: false,
            hold_as_conquer: false,
            ability: None,
            cost: Cost::default(),
            domains: 0,
            champion: false,
            tag: String::new(),
            reconstructed: "a test card".to_string(),
        }
    }

    /// The keywords a report counts it under, derived from what it does.
    pub fn keywords(&self) -> Vec<&'static str> {
        let mut k = Vec::new();
        if self.assault > 0 {
            k.push("assault");
        }
        if self.shield > 0 {
            k.push("shield");
        }
        if self.kind == CardKind::Spell && self.speed == Speed::Reaction {
            k.push("reaction");
        }
        for t in &self.triggers {
            let name = match t.when {
                When::Death => "deathknell",
                When::Attack => "when_attacking",
                When::Defend | When::FriendlyDefends => "when_defending",
                When::EnemyAttacks => "when_enemy_attacks",
                When::Move => "when_moving",
                When::Play => "when_played",
                When::Conquer => "when_conquering",
                When::EnemyMovesHere => "when_enemy_moves_here",
                When::DefendAlone => "mask",
                When::Hold => "when_holding",
                When::Discard => "when_discarding",
                When::Add => "when_adding",
                When::SecondCard => "when_second_card",
                When::FriendlyDies => "when_a_friend_dies",
            };
            if !k.contains(&name) {
                k.push(name);
            }
        }
        let actions = self.effects.iter().chain(self.triggers.iter().map(|t| &t.effect));
        for e in actions {
            if e.action == Action::Stun && !k.contains(&"stun") {
                k.push("stun");
            }
        }
        if self.hidden {
            k.push("hidden");
        }
        if self.passive.is_some() {
            k.push("passive_might");
        }
        if self.ability.is_some() {
            k.push("activated");
        }
        match self.replacement {
            Some(Replacement::RecallHealed) => k.push("saves_by_recall"),
            Some(Replacement::TopOfDeck) => k.push("saves_to_deck"),
            None => {}
        }
        k
    }
}

impl Catalog {
    /// The cards of one kind, by index.
    pub fn of_kind(&self, kind: CardKind) -> Vec<CardIndex> {
        (0..self.cards.len())
            .filter(|&i| self.cards[i].kind == kind)
            .map(|i| i as CardIndex)
            .collect()
    }

    /// A fingerprint of every number and name, for a run's identity.
    pub fn fingerprint(&self) -> String {
        gridsim_core::atomic::sha256(format!("{:?}", self.cards).as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(key: &str, kind: CardKind) -> Card {
        Card::plain(key, kind, 1)
    }

    #[test]
    fn a_card_counts_under_the_keywords_of_what_it_does() {
        let mut c = card("brute", CardKind::Unit);
        assert!(c.keywords().is_empty());
        c.assault = 2;
        c.shield = 1;
        c.hidden = true;
        assert_eq!(c.keywords(), vec!["assault", "shield", "hidden"]);
        let mut s = card("quick", CardKind::Spell);
        s.speed = Speed::Reaction;
        assert_eq!(s.keywords(), vec!["reaction"]);
    }

    #[test]
    fn the_catalog_lists_a_kind_and_its_fingerprint_moves_with_a_number() {
        let mut cat = Catalog {
            cards: vec![
                card("a", CardKind::Unit),
                card("b", CardKind::Spell),
                card("c", CardKind::Unit),
            ],
        };
        assert_eq!(cat.of_kind(CardKind::Unit), vec![0, 2]);
        assert_eq!(cat.of_kind(CardKind::Gear), Vec::<CardIndex>::new());
        assert_eq!(CardKind::Battlefield.name(), "battlefield");
        let before = cat.fingerprint();
        assert_eq!(before.len(), 64);
        cat.cards[1].might = 3;
        assert_ne!(cat.fingerprint(), before);
    }
}
