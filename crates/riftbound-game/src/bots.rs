//! The game's players: a bot for each seat makes every choice the game
//! asks (the mulligan, each action of the action phase) and, through
//! [`Table`], every choice a showdown asks of the kernel's [`Choices`].
//! Every random choice is drawn from the game's stream.
//!
//! - **random**: a random legal action at each step; the floor.
//! - **aggressive**: conquers first — plays its largest units and sends
//!   every ready unit where it can take a battlefield.
//! - **defensive**: holds and trades — takes an empty battlefield, keeps
//!   its units on what it holds, attacks only with twice the Might there.
//! - **lookahead**: plays each move it might make out on a second kernel
//!   showdown a few times ([`LOOKAHEAD_TRIES`]) and makes the one worth
//!   most: points, battlefields taken from the opponent, units traded.

use super::*;
use gridsim_riftbound::Player;
use gridsim_riftbound::UnitId;
use gridsim_riftbound::cards::{LegendAbility, Target};
use gridsim_riftbound::showdown::Choices;

/// A seat's bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bot {
    Random,
    Aggressive,
    Defensive,
    Lookahead,
    /// A game scenario's seat: its actions are the seat's [`Script`], it
    /// keeps its opening hand and plays no spell in a showdown. Not one of
    /// [`Bot::ALL`], so no suite names it.
    Script,
}

/// The most actions a game scenario scripts for one turn.
pub const MAX_SCRIPT: usize = 16;

/// A scripted seat's actions for the turn being played, in order; once
/// they are done, the turn ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Script {
    actions: [Action; MAX_SCRIPT],
    len: usize,
    next: usize,
    /// The opening hand's positions it sets aside in the mulligan,
    /// ascending (117.1).
    aside: [u8; MAX_SCRIPT],
    aside_len: usize,
    aside_next: usize,
}

impl Default for Script {
    fn default() -> Self {
        Script {
            actions: [Action::End; MAX_SCRIPT],
            len: 0,
            next: 0,
            aside: [0; MAX_SCRIPT],
            aside_len: 0,
            aside_next: 0,
        }
    }
}

impl Script {
    /// The actions for the next turn (at most [`MAX_SCRIPT`]; the rest
    /// are dropped, which the scenario loader refuses first).
    pub fn set(&mut self, actions: &[Action]) {
        self.len = actions.len().min(MAX_SCRIPT);
        self.actions[..self.len].copy_from_slice(&actions[..self.len]);
        self.next = 0;
    }

    /// The positions of the opening hand to set aside in the mulligan,
    /// ascending (at most [`MAX_SCRIPT`]).
    pub fn set_mulligan(&mut self, positions: &[u8]) {
        self.aside_len = positions.len().min(MAX_SCRIPT);
        self.aside[..self.aside_len].copy_from_slice(&positions[..self.aside_len]);
        self.aside_next = 0;
    }

    /// Where the next card to set aside sits in the hand now: each card
    /// set aside before it, at a lower position, moved it down by one.
    fn next_aside(&mut self) -> Option<usize> {
        let k = self.aside_next;
        self.aside_next += 1;
        (k < self.aside_len).then(|| usize::from(self.aside[k]) - k)
    }

    fn take(&mut self) -> Action {
        let a = self.actions.get(self.next).filter(|_| self.next < self.len).copied();
        self.next += 1;
        a.unwrap_or(Action::End)
    }
}

/// How many times the look-ahead bot plays out each move it weighs.
pub const LOOKAHEAD_TRIES: u32 = 4;

impl Bot {
    pub const ALL: [Bot; 4] = [Bot::Random, Bot::Aggressive, Bot::Defensive, Bot::Lookahead];

    pub fn name(self) -> &'static str {
        match self {
            Bot::Random => "random",
            Bot::Aggressive => "aggressive",
            Bot::Defensive => "defensive",
            Bot::Lookahead => "lookahead",
            Bot::Script => "script",
        }
    }

    pub fn named(name: &str) -> Option<Bot> {
        Bot::ALL.into_iter().find(|b| b.name() == name)
    }

    /// The percent of the times it may that it plays a spell in a
    /// showdown.
    fn cast_percent(self) -> i32 {
        match self {
            Bot::Random => 50,
            Bot::Aggressive | Bot::Defensive | Bot::Lookahead => 100,
            Bot::Script => 0,
        }
    }

    /// The card of `seat`'s hand it sets aside next in the mulligan
    /// (117.1), by position; `None` keeps the rest.
    pub fn mulligan(self, game: &mut Game, seat: Seat) -> Option<usize> {
        let hand = game.sides[usize::from(seat)].hand;
        if hand.is_empty() {
            return None;
        }
        match self {
            Bot::Script => game.script[usize::from(seat)].next_aside().filter(|&k| k < hand.len()),
            Bot::Random => game
                .rng
                .chance_percent(50)
                .then(|| game.rng.below(hand.len() as u32) as usize),
            // A card it cannot pay for by its third turn (five runes).
            Bot::Aggressive | Bot::Defensive | Bot::Lookahead => {
                let (k, energy) = hand
                    .as_slice()
                    .iter()
                    .enumerate()
                    .map(|(k, &c)| (k, game.catalog.card(c).cost.energy))
                    .max_by_key(|&(k, e)| (e, std::cmp::Reverse(k)))?;
                (energy > 5).then_some(k)
            }
        }
    }

    /// The next action of `seat`'s action phase.
    pub fn action(self, game: &mut Game, seat: Seat) -> Action {
        match self {
            Bot::Script => game.script[usize::from(seat)].take(),
            Bot::Random => random_action(game, seat),
            Bot::Aggressive | Bot::Defensive | Bot::Lookahead => {
                if let Some(play) = largest_unit(game, seat) {
                    return play;
                }
                if let Some(cast) = removal(game, seat) {
                    return cast;
                }
                if let Some(legend) = legend_action(game, seat) {
                    return legend;
                }
                if self == Bot::Lookahead {
                    return weighed_move(game, seat);
                }
                planned_move(game, seat, self == Bot::Defensive)
            }
        }
    }
}

/// What a player does in its action phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Plays the unit at position `k` of its hand, paying its Accelerate
    /// when `accelerate` and it can (721).
    PlayFromHand { k: usize, accelerate: bool },
    /// Plays the first copy of this card in its hand: a scenario's script
    /// names cards, since where a card sits in a hand changes with every
    /// play.
    PlayCard { card: CardIndex, accelerate: bool },
    /// Plays its Chosen Champion from the champion zone (107.2.b).
    PlayChampion { accelerate: bool },
    /// Plays the first copy of this spell in its hand, its targets at
    /// battlefield `at` (316).
    Cast { card: CardIndex, at: u8 },
    /// Its Legend's activated ability (167.8), aimed at its unit in slot
    /// `unit` when it aims at one, and for a move from its base, at
    /// battlefield `to`.
    Legend { unit: usize, to: u8 },
    /// A standard move of the units in `units` (a bit per slot) to
    /// battlefield `to` (141.3).
    Move { units: u32, to: u8 },
    /// A standard move of its units of this card at its base to
    /// battlefield `to`: a script's move of units played in the scenario,
    /// whose slots it cannot know.
    MoveCard { card: CardIndex, to: u8 },
    /// A standard move of the units in `units` (a bit per slot) from
    /// their battlefields back to its base (141).
    MoveToBase { units: u32 },
    /// Ends the turn (316.6).
    End,
}

/// The ready units at `seat`'s base, a bit each.
fn ready_at_base(game: &Game, seat: Seat) -> u32 {
    game.units
        .of(seat, Place::Base)
        .filter(|&u| !game.units.exhausted[u])
        .fold(0, |m, u| m | 1 << u)
}

fn might_of(game: &Game, units: u32) -> i32 {
    (0..MAX_UNITS)
        .filter(|&u| units & (1 << u) != 0)
        .map(|u| game.might(u).max(0))
        .sum()
}

fn random_action(game: &mut Game, seat: Seat) -> Action {
    let s = usize::from(seat);
    // The end, a card of the hand each, the champion, the Legend, a move
    // to each battlefield.
    let mut options = [Action::End; 1 + MAX_DECK + 1 + 1 + MAX_FIELDS];
    let mut n = 1;
    for (k, &c) in game.sides[s].hand.as_slice().iter().enumerate() {
        if game.can_play_unit(seat, c) {
            let accelerate = game.can_accelerate(seat, c) && game.rng.chance_percent(50);
            options[n] = Action::PlayFromHand { k, accelerate };
            n += 1;
        } else if game.can_cast(seat, c) {
            let at = game.rng.below(MAX_FIELDS as u32) as u8;
            options[n] = Action::Cast { card: c, at };
            n += 1;
        }
    }
    if let Some(c) = game.sides[s].champion.filter(|&c| game.can_play_unit(seat, c)) {
        let accelerate = game.can_accelerate(seat, c) && game.rng.chance_percent(50);
        options[n] = Action::PlayChampion { accelerate };
        n += 1;
    }
    let mine = (0..MAX_UNITS)
        .filter(|&u| game.legend_aims_at_a_unit(seat) && game.can_use_legend(seat, u))
        .fold(0u32, |m, u| m | 1 << u);
    if mine != 0 {
        // The k-th of the units it may aim at, at random.
        let k = game.rng.below(mine.count_ones());
        let unit = (0..MAX_UNITS)
            .filter(|&u| mine & (1 << u) != 0)
            .nth(k as usize)
            .unwrap_or(0);
        let to = game.rng.below(MAX_FIELDS as u32) as u8;
        options[n] = Action::Legend { unit, to };
        n += 1;
    } else if !game.legend_aims_at_a_unit(seat) && game.can_use_legend(seat, MAX_UNITS) {
        options[n] = Action::Legend { unit: MAX_UNITS, to: 0 };
        n += 1;
    }
    let ready = ready_at_base(game, seat);
    if ready != 0 {
        for to in 0..MAX_FIELDS {
            // A random non-empty part of the ready units.
            let mut units = 0;
            while units == 0 {
                units = ready & game.rng.next_u32();
            }
            options[n] = Action::Move { units, to: to as u8 };
            n += 1;
        }
    }
    options[game.rng.below(n as u32) as usize]
}

/// The unit (or champion) with the highest Energy cost it can pay, its
/// Accelerate paid when it can be, so that it moves this turn.
fn largest_unit(game: &Game, seat: Seat) -> Option<Action> {
    let s = usize::from(seat);
    let mut best: Option<(u8, Action)> = None;
    if let Some(c) = game.sides[s].champion
        && game.can_play_unit(seat, c)
    {
        let accelerate = game.can_accelerate(seat, c);
        best = Some((game.catalog.card(c).cost.energy, Action::PlayChampion { accelerate }));
    }
    for (k, &c) in game.sides[s].hand.as_slice().iter().enumerate() {
        let e = game.catalog.card(c).cost.energy;
        if game.can_play_unit(seat, c) && best.is_none_or(|(b, _)| e > b) {
            let accelerate = game.can_accelerate(seat, c);
            best = Some((e, Action::PlayFromHand { k, accelerate }));
        }
    }
    best.map(|(_, a)| a)
}

/// A spell that removes an enemy unit (damage, a kill, a return to hand
/// or base) and does nothing else but to enemy units or draw, aimed at
/// the battlefield where the opponent is strongest, when it has units
/// there: what the aggressive, defensive and look-ahead bots play in
/// their action phase once no unit can be played. Spells whose effect
/// lasts the turn (a Might change, a Stun) or help their own units wait
/// for a showdown, where they count.
fn removal(game: &Game, seat: Seat) -> Option<Action> {
    let enemy = 1 - seat;
    let b = game.strongest_field(enemy);
    game.units.of(enemy, Place::Field(b as u8)).next()?;
    let hand = game.sides[usize::from(seat)].hand.as_slice();
    let card = hand.iter().copied().find(|&c| {
        let effects = &game.catalog.card(c).effects;
        game.can_cast(seat, c)
            && effects.iter().any(|e| e.action.removes())
            && effects
                .iter()
                .all(|e| e.action.is_players() || matches!(e.target, Target::Enemy | Target::EachEnemy))
    })?;
    Some(Action::Cast { card, at: b as u8 })
}

/// The planned bots' use of their Legend's activated ability, when it
/// has one they can use: Lee Sin buffs the mightiest ready unit at its
/// base (it is about to move), else the mightiest at a battlefield;
/// Yasuo sends the mightiest exhausted unit at its base (one that cannot
/// make a standard move) to an uncontrolled battlefield not yet scored;
/// Viktor plays its token; Darius adds its Energy, which the next action
/// may spend (it empties at the end of the turn either way).
fn legend_action(game: &Game, seat: Seat) -> Option<Action> {
    if !game.legend_aims_at_a_unit(seat) {
        return game
            .can_use_legend(seat, MAX_UNITS)
            .then_some(Action::Legend { unit: MAX_UNITS, to: 0 });
    }
    let mightiest = |place: Place, ready: Option<bool>| {
        game.units
            .of(seat, place)
            .filter(|&u| game.can_use_legend(seat, u) && ready.is_none_or(|r| game.units.exhausted[u] != r))
            .max_by_key(|&u| (game.might(u), std::cmp::Reverse(u)))
    };
    match game.legend_ability(seat) {
        Some(LegendAbility::BuffAUnit { .. }) => mightiest(Place::Base, Some(true))
            .or_else(|| (0..MAX_FIELDS).find_map(|b| mightiest(Place::Field(b as u8), None)))
            .map(|unit| Action::Legend { unit, to: 0 }),
        Some(LegendAbility::MoveAUnit { .. }) => {
            let b = (0..MAX_FIELDS).find(|&b| game.controller(b).is_none() && !game.scored[b])?;
            let unit = mightiest(Place::Base, Some(false))?;
            Some(Action::Legend { unit, to: b as u8 })
        }
        _ => None,
    }
}

/// Where the aggressive and defensive bots send their ready units.
fn planned_move(game: &Game, seat: Seat, defensive: bool) -> Action {
    let ready = ready_at_base(game, seat);
    if ready == 0 {
        return Action::End;
    }
    let ours = might_of(game, ready);
    // First an uncontrolled battlefield not yet scored: a conquest for
    // any force (the defensive bot sends its smallest unit).
    for b in 0..MAX_FIELDS {
        if game.controller(b).is_none() && !game.scored[b] {
            let units = if defensive { smallest(game, ready) } else { ready };
            return Action::Move { units, to: b as u8 };
        }
    }
    // Then a battlefield the opponent holds, where it outweighs the
    // defenders (twice over, for the defensive bot).
    let enemy = 1 - seat;
    let target = (0..MAX_FIELDS)
        .filter(|&b| game.controller(b) == Some(enemy) && !game.scored[b])
        .min_by_key(|&b| game.might_at(enemy, b));
    if let Some(b) = target {
        let theirs = game.might_at(enemy, b);
        let enough = if defensive {
            ours >= 2 * theirs.max(1)
        } else {
            ours > theirs
        };
        if enough {
            return Action::Move {
                units: ready,
                to: b as u8,
            };
        }
    }
    // The defensive bot reinforces what it holds; no contest follows.
    if defensive && let Some(b) = (0..MAX_FIELDS).find(|&b| game.controller(b) == Some(seat)) {
        return Action::Move {
            units: ready,
            to: b as u8,
        };
    }
    Action::End
}

/// The look-ahead bot's move: each battlefield it could contest, with all
/// its ready units, its smallest one, or the fewest largest ones that
/// outweigh the defenders, played out on the kernel; the move worth most,
/// or none when nothing is worth making.
fn weighed_move(game: &mut Game, seat: Seat) -> Action {
    let ready = ready_at_base(game, seat);
    if ready == 0 {
        return Action::End;
    }
    let mut best = (0.0, Action::End);
    for b in 0..MAX_FIELDS {
        let held = game.controller(b);
        if held == Some(seat) {
            continue;
        }
        let theirs = game.might_at(1 - seat, b);
        let mut by_might = [0usize; MAX_UNITS];
        let mut n = 0;
        for u in 0..MAX_UNITS {
            if ready & (1 << u) != 0 {
                by_might[n] = u;
                n += 1;
            }
        }
        // Unstable sorts allocate nothing; the slot breaks ties.
        by_might[..n].sort_unstable_by_key(|&u| (std::cmp::Reverse(game.might(u)), u));
        let mut enough = 0u32;
        let mut sum = 0;
        for &u in &by_might[..n] {
            if sum > theirs {
                break;
            }
            enough |= 1 << u;
            sum += game.might(u).max(0);
        }
        for movers in [ready, smallest(game, ready), enough] {
            let f = game.forecast(b, movers, LOOKAHEAD_TRIES);
            // A point if the battlefield is not yet scored this turn, the
            // opponent's hold denied, units traded.
            let point = if game.scored[b] { 0.0 } else { 1.0 };
            let denied = if held == Some(1 - seat) { 0.5 } else { 0.0 };
            let value = f.conquer * (point + denied) + 0.2 * (f.killed - f.lost);
            if value > best.0 {
                best = (
                    value,
                    Action::Move {
                        units: movers,
                        to: b as u8,
                    },
                );
            }
        }
    }
    best.1
}

fn smallest(game: &Game, units: u32) -> u32 {
    (0..MAX_UNITS)
        .filter(|&u| units & (1 << u) != 0)
        .min_by_key(|&u| game.might(u))
        .map_or(units, |u| 1 << u)
}

/// The kernel's choices in a game's showdown, made by the two seats' bots
/// (index 0 the showdown's player 0).
pub(crate) struct Table<'r> {
    pub bots: [Bot; 2],
    pub rng: &'r mut FightRng,
    pub catalog: &'r Catalog,
    /// The card player 0 has already chosen to play (an action of its
    /// action phase, [`Game::act`]): its first offer is taken at once.
    pub chosen: bool,
}

impl Choices for Table<'_> {
    fn play(&mut self, p: Player, castable: &[CardIndex]) -> Option<usize> {
        if p == 0 && self.chosen {
            self.chosen = false;
            return (!castable.is_empty()).then_some(0);
        }
        let bot = self.bots[usize::from(p)];
        if castable.is_empty() || !self.rng.chance_percent(bot.cast_percent()) {
            return None;
        }
        Some(self.rng.below(castable.len() as u32) as usize)
    }

    fn target(&mut self, _p: Player, _card: CardIndex, _unit: Option<UnitId>, legal: &[UnitId]) -> usize {
        self.rng.below(legal.len() as u32) as usize
    }

    fn order(&mut self, _p: Player, items: &mut [(usize, Option<UnitId>)]) {
        for i in (1..items.len()).rev() {
            let j = self.rng.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    fn damage_order(&mut self, _p: Player, targets: &mut [UnitId]) {
        for i in (1..targets.len()).rev() {
            let j = self.rng.below(i as u32 + 1) as usize;
            targets.swap(i, j);
        }
    }

    fn prudent(&self) -> bool {
        true
    }

    fn may(&mut self, p: Player, _card: CardIndex) -> bool {
        self.bots[usize::from(p)] != Bot::Random || self.rng.below(2) == 0
    }

    /// A game hides no card yet (727): the bots keep Hidden cards in hand.
    fn hide(&mut self, _p: Player, _card: CardIndex) -> bool {
        false
    }

    /// The random bot discards any card; the planned bots, and a scripted
    /// seat, the one that costs the most Energy, the furthest from being
    /// played (the first of equals, the cards offered before those held).
    fn discard(&mut self, p: Player, hand: &[CardIndex]) -> usize {
        match self.bots[usize::from(p)] {
            Bot::Random => self.rng.below(hand.len().max(1) as u32) as usize,
            Bot::Aggressive | Bot::Defensive | Bot::Lookahead | Bot::Script => {
                let energy = |k: usize| self.catalog.card(hand[k]).cost.energy;
                (0..hand.len()).fold(0, |best, k| if energy(k) > energy(best) { k } else { best })
            }
        }
    }
}
