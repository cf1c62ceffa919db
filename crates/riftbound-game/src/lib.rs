//! A whole one-on-one game of Riftbound, played to the victory score: two
//! decks (a Legend, its Chosen Champion, a main deck, a rune deck, three
//! battlefields), setup and the mulligan, turns of awaken, beginning
//! (holds), channel, draw, action and end, runes paid for every play,
//! standard moves, and every showdown and combat through the kernel's
//! [`Showdown`]. The rules are the public Core Rules' (Origins revision,
//! v1.1), cited by number; docs/riftbound-reconstruction.md ("The whole
//! game") says what each reads and what is filled in. Like the kernel, a
//! game knows no file, clock or thread, and a worker's [`Game`] is reused
//! game after game: it allocates nothing once its buffers are warm.

mod away;
mod battle;
pub mod bots;
mod legend;
mod pile;
mod turn;

use gridsim_core::rng::FightRng;
use gridsim_riftbound::cards::{CardIndex, CardKind, Catalog};
use gridsim_riftbound::runes::{DOMAINS, Domain, Runes};
use gridsim_riftbound::showdown::{Lane, MAX_LANE, Showdown};

pub use bots::{Bot, Script};
pub use pile::{MAX_DECK, Pile};

/// A deck's seat: 0 for the suite's first deck of the pairing, 1 for the
/// second. Who goes first is drawn at random (115.1), so a seat is not a
/// turn order.
pub type Seat = u8;

/// The most runes a rune deck holds (its size is a setting, 103.3.a).
pub const MAX_RUNES: usize = 16;
/// The most units one player has on the board: a lane's room, since all
/// of them may be at one battlefield. The Core Rules set no limit (163.6);
/// a unit that would exceed it is not offered to the player.
pub const MAX_PLAYER_UNITS: usize = MAX_LANE;
/// The most units on the board.
pub const MAX_UNITS: usize = 2 * MAX_PLAYER_UNITS;
const _: () = assert!(MAX_UNITS <= 32, "Game::kernel_slots holds one bit per unit slot");
/// The most battlefields a game has (458.4: two in a duel).
pub const MAX_FIELDS: usize = 2;
/// The most actions one player takes in one action phase: every action
/// plays a card or exhausts a unit, so a turn ends long before; the bound
/// makes a bot that would loop end its turn instead (TigerBeetle's way).
pub const MAX_ACTIONS: usize = 64;

/// Every number of the game, each with its rule (Core Rules v1.1); the
/// turn cap is the one number no rule gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Points to win a duel (458.3).
    pub victory_score: u32,
    /// Cards in the opening hand (116).
    pub opening_hand: u32,
    /// Cards a player may set aside in the mulligan (117.1).
    pub mulligan: u32,
    /// Runes channeled each turn (315.3.b).
    pub channel: u32,
    /// Runes the second player channels in its first turn (458.7).
    pub second_player_first_channel: u32,
    /// Cards drawn in the draw phase (315.4.b).
    pub draw: u32,
    /// Points the opponent gains when a player burns out (418.2.c).
    pub burn_out_points: u32,
    /// Points a scored battlefield gives (444.1).
    pub score_points: u32,
    /// Turns after which a game is ended as a draw (not a rule: the Core
    /// Rules have no drawn game; docs/riftbound-reconstruction.md, "Gaps").
    pub turn_cap: u32,
    /// The least cards in a main deck, the Chosen Champion among them
    /// (103.2).
    pub deck_min: u32,
    /// The most copies of one name in a main deck (103.2.b).
    pub copies_max: u32,
    /// The runes of a rune deck (103.3.a).
    pub rune_deck: u32,
    /// The battlefields a player brings (458.5).
    pub battlefields: u32,
    /// Accelerate's additional cost: Energy, and Power of the unit's
    /// domain (721).
    pub accelerate_energy: u8,
    pub accelerate_power: u8,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            victory_score: 8,
            opening_hand: 4,
            mulligan: 2,
            channel: 2,
            second_player_first_channel: 3,
            draw: 1,
            burn_out_points: 1,
            score_points: 1,
            turn_cap: 80,
            deck_min: 40,
            copies_max: 3,
            rune_deck: 12,
            battlefields: 3,
            accelerate_energy: 1,
            accelerate_power: 1,
        }
    }
}

/// A deck as a game plays it: the loader has checked it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deck {
    pub name: String,
    pub legend: CardIndex,
    /// The Chosen Champion: starts in the champion zone (103.2.a, 112).
    pub champion: CardIndex,
    /// The main deck without its Chosen Champion.
    pub main: Vec<CardIndex>,
    pub runes: Vec<Domain>,
    pub battlefields: Vec<CardIndex>,
}

impl Deck {
    /// What makes the deck illegal under `settings` (103): each problem a
    /// sentence naming its rule; empty when it is legal.
    pub fn problems(&self, catalog: &Catalog, settings: &Settings) -> Vec<String> {
        let mut bad = Vec::new();
        let legend = catalog.card(self.legend);
        if legend.kind != CardKind::Legend {
            bad.push(format!("`{}` is not a Legend (103.1)", legend.key));
            return bad;
        }
        let identity = legend.domains;
        let champion = catalog.card(self.champion);
        if !champion.champion || champion.tag != legend.tag {
            bad.push(format!(
                "the Chosen Champion `{}` is not a champion unit tagged {} (103.2.a)",
                champion.key, legend.tag
            ));
        }
        let total = self.main.len() + 1;
        if (total as u32) < settings.deck_min || total > MAX_DECK {
            bad.push(format!(
                "a main deck of {total} cards, its Chosen Champion among them: {} to {MAX_DECK} (103.2)",
                settings.deck_min
            ));
        }
        let mut seen: Vec<CardIndex> = Vec::new();
        for &c in self.main.iter().chain([&self.champion]) {
            let card = catalog.card(c);
            if !matches!(card.kind, CardKind::Unit | CardKind::Gear | CardKind::Spell) || card.token {
                bad.push(format!(
                    "`{}` is a {}, not a main-deck card (103.2, 179)",
                    card.key,
                    if card.token { "token" } else { card.kind.name() }
                ));
            }
            if card.domains & !identity != 0 || card.domains == 0 {
                bad.push(format!(
                    "`{}` is outside {}'s domains (103.1.b.3)",
                    card.key, legend.name
                ));
            }
            if seen.contains(&c) {
                continue;
            }
            seen.push(c);
            let copies = self.main.iter().filter(|&&x| catalog.card(x).name == card.name).count()
                + usize::from(champion.name == card.name);
            if copies as u32 > settings.copies_max {
                bad.push(format!(
                    "{copies} copies of {} (at most {}, 103.2.b)",
                    card.name, settings.copies_max
                ));
            }
        }
        if self.runes.len() as u32 != settings.rune_deck || self.runes.len() > MAX_RUNES {
            bad.push(format!(
                "a rune deck of {} runes: it holds {} (103.3.a)",
                self.runes.len(),
                settings.rune_deck
            ));
        }
        if self.runes.iter().any(|d| identity & d.bit() == 0) {
            bad.push("a rune outside the Legend's domains (103.3.a.1)".to_string());
        }
        if self.battlefields.len() as u32 != settings.battlefields
            || self
                .battlefields
                .iter()
                .any(|&b| catalog.card(b).kind != CardKind::Battlefield)
        {
            bad.push(format!(
                "{} battlefields: a duel's deck brings {} (458.5)",
                self.battlefields.len(),
                settings.battlefields
            ));
        }
        bad
    }
}

/// Where a unit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Base,
    /// At the game's battlefield of this index.
    Field(u8),
}

/// The units on the board, a column each, indexed by slot; a slot whose
/// unit left is free for the next.
#[derive(Debug, Clone)]
pub struct Units {
    pub alive: [bool; MAX_UNITS],
    pub card: [CardIndex; MAX_UNITS],
    /// Owner and controller: no card of a game's decks takes control of
    /// another's unit, so they are one.
    pub owner: [Seat; MAX_UNITS],
    pub place: [Place; MAX_UNITS],
    pub exhausted: [bool; MAX_UNITS],
    pub buffed: [bool; MAX_UNITS],
    pub damage: [i32; MAX_UNITS],
    /// "This turn" Might changes, ended at the end of the turn (317.3).
    pub turn_might: [i32; MAX_UNITS],
    pub stunned: [bool; MAX_UNITS],
}

impl Default for Units {
    fn default() -> Self {
        Units {
            alive: [false; MAX_UNITS],
            card: [0; MAX_UNITS],
            owner: [0; MAX_UNITS],
            place: [Place::Base; MAX_UNITS],
            exhausted: [false; MAX_UNITS],
            buffed: [false; MAX_UNITS],
            damage: [0; MAX_UNITS],
            turn_might: [0; MAX_UNITS],
            stunned: [false; MAX_UNITS],
        }
    }
}

impl Units {
    /// The slots of `p`'s living units at `place`.
    pub fn of(&self, p: Seat, place: Place) -> impl Iterator<Item = usize> + '_ {
        (0..MAX_UNITS).filter(move |&u| self.alive[u] && self.owner[u] == p && self.place[u] == place)
    }

    pub fn count_of(&self, p: Seat) -> usize {
        (0..MAX_UNITS).filter(|&u| self.alive[u] && self.owner[u] == p).count()
    }
}

/// One player's zones.
#[derive(Debug, Clone)]
pub struct Side {
    pub deck: Pile,
    pub hand: Pile,
    pub trash: Pile,
    /// The Chosen Champion while it waits in the champion zone (107.2).
    pub champion: Option<CardIndex>,
    /// The rune deck as a ring: channel takes from `rune_head`, a recycle
    /// adds at the bottom (403.1.b).
    pub rune_deck: [Domain; MAX_RUNES],
    pub rune_head: usize,
    pub rune_len: usize,
    pub runes: Runes,
    pub score: u32,
    /// The battlefield this player brought into play (458.5).
    pub field: CardIndex,
    /// Its Legend (167), exhausted by its ability's cost until its
    /// player's next awaken (315.1.a).
    pub legend: CardIndex,
    pub legend_exhausted: bool,
    pub bot: Bot,
}

impl Default for Side {
    fn default() -> Self {
        Side {
            deck: Pile::default(),
            hand: Pile::default(),
            trash: Pile::default(),
            champion: None,
            rune_deck: [Domain::Fury; MAX_RUNES],
            rune_head: 0,
            rune_len: 0,
            runes: Runes::default(),
            score: 0,
            field: 0,
            legend: 0,
            legend_exhausted: false,
            bot: Bot::Random,
        }
    }
}

impl Side {
    /// Takes the rune on top of the rune deck.
    pub fn take_rune(&mut self) -> Option<Domain> {
        (self.rune_len > 0).then(|| {
            let d = self.rune_deck[self.rune_head];
            self.rune_head = (self.rune_head + 1) % MAX_RUNES;
            self.rune_len -= 1;
            d
        })
    }

    /// Puts a recycled rune at the bottom of the rune deck (403.1.b).
    pub fn recycle_rune(&mut self, d: Domain) {
        debug_assert!(self.rune_len < MAX_RUNES);
        if self.rune_len < MAX_RUNES {
            self.rune_deck[(self.rune_head + self.rune_len) % MAX_RUNES] = d;
            self.rune_len += 1;
        }
    }

    /// Runes recycled paying, by domain, to the rune deck's bottom.
    pub fn recycle_runes(&mut self, recycled: &[u8; DOMAINS]) {
        for (d, &n) in Domain::ALL.iter().zip(recycled) {
            for _ in 0..n {
                self.recycle_rune(*d);
            }
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    /// A player reached the victory score (445).
    Victory,
    /// The turn cap was reached: a draw (not a rule; see [`Settings`]).
    TurnCap,
}

impl EndReason {
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Victory => "victory",
            EndReason::TurnCap => "turn_cap",
        }
    }
}

/// What a game came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameOutcome {
    /// The seat that won; none in a drawn game.
    pub winner: Option<Seat>,
    /// The seat that went first (115.1).
    pub first: Seat,
    /// Turns played, both players' counted.
    pub turns: u32,
    pub score: [u32; 2],
    pub reason: EndReason,
    /// Showdowns and combats played.
    pub showdowns: u32,
}

/// What a line of a game's log is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameEventKind {
    /// The seat that goes first (115.1).
    First,
    Mulligan,
    TurnBegan,
    /// A battlefield scored by holding it (442.2); `amount` the score.
    Held,
    /// A battlefield scored by conquering it (442.1); `amount` the score.
    Conquered,
    /// A score refused: the battlefield was scored this turn (443).
    AlreadyScored,
    /// The final point refused to a conquest: a card drawn instead
    /// (444.1.b).
    FinalPointDrawn,
    Channeled,
    Drew,
    /// A card discarded from the hand by a card's cost or effect (409, RB40).
    Discarded,
    /// The deck was empty: the trash shuffled in, the opponent a point
    /// (418.2).
    BurnedOut,
    /// A card's cost paid from runes (353): `amount` the runes left ready
    /// (Energy exhausts ready runes, 157.2.a).
    Paid,
    /// Runes recycled to the rune deck for a cost's Power (157.2):
    /// `amount` how many.
    RecycledRunes,
    /// A unit played to its base (140.4), its cost paid (353).
    Played,
    /// A spell played in the action phase (316), its cost paid (353):
    /// `amount` the battlefield its targets are at.
    Cast,
    /// Units moved to a battlefield (141).
    Moved,
    /// Units moved from battlefields back to their base (141).
    MovedToBase,
    /// A showdown or combat ended; `amount` 0 conquer, 1 hold, 2 empty.
    Showdown,
    /// Points scored by a card's effect.
    Scored,
    /// A unit's trigger resolved away from any showdown (383; a second
    /// card's, a friend's death): `card` the unit's, `amount` its slot.
    Triggered,
    /// A Legend's ability resolved (167.7, 167.8): `card` the Legend,
    /// `amount` what it gave (cards drawn, the unit buffed, runes
    /// channelled).
    Legend,
    Won,
    TurnCap,
}

impl GameEventKind {
    pub const ALL: [GameEventKind; 23] = [
        GameEventKind::First,
        GameEventKind::Mulligan,
        GameEventKind::TurnBegan,
        GameEventKind::Held,
        GameEventKind::Conquered,
        GameEventKind::AlreadyScored,
        GameEventKind::FinalPointDrawn,
        GameEventKind::Channeled,
        GameEventKind::Drew,
        GameEventKind::Discarded,
        GameEventKind::BurnedOut,
        GameEventKind::Paid,
        GameEventKind::RecycledRunes,
        GameEventKind::Played,
        GameEventKind::Cast,
        GameEventKind::Moved,
        GameEventKind::MovedToBase,
        GameEventKind::Showdown,
        GameEventKind::Scored,
        GameEventKind::Triggered,
        GameEventKind::Legend,
        GameEventKind::Won,
        GameEventKind::TurnCap,
    ];

    pub fn name(self) -> &'static str {
        match self {
            GameEventKind::First => "first",
            GameEventKind::Mulligan => "mulligan",
            GameEventKind::TurnBegan => "turn_began",
            GameEventKind::Held => "held",
            GameEventKind::Conquered => "conquered",
            GameEventKind::AlreadyScored => "already_scored",
            GameEventKind::FinalPointDrawn => "final_point_drawn",
            GameEventKind::Channeled => "channeled",
            GameEventKind::Drew => "drew",
            GameEventKind::Discarded => "discarded",
            GameEventKind::BurnedOut => "burned_out",
            GameEventKind::Paid => "paid",
            GameEventKind::RecycledRunes => "recycled_runes",
            GameEventKind::Played => "played",
            GameEventKind::Cast => "cast",
            GameEventKind::Legend => "legend",
            GameEventKind::Triggered => "triggered",
            GameEventKind::Moved => "moved",
            GameEventKind::MovedToBase => "moved_to_base",
            GameEventKind::Showdown => "showdown",
            GameEventKind::Scored => "scored",
            GameEventKind::Won => "won",
            GameEventKind::TurnCap => "turn_cap",
        }
    }
}

/// One line of a game's log, citing the rule it follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameEvent {
    pub turn: u32,
    pub seat: Seat,
    pub kind: GameEventKind,
    pub card: Option<CardIndex>,
    pub amount: i32,
    pub rule: &'static str,
}

/// What happened to a card, as the card-quality table counts it
/// (docs/riftbound.md, "Cards in games").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardEventKind {
    /// In the hand kept after the mulligan (116, 117): turn 0.
    Opening,
    /// Drawn after setup (315.4.b, an effect's draw, a final point's).
    Drew,
    /// Played from the hand or the champion zone, its cost paid (353).
    Played,
    /// Discarded from the hand to the trash, by a card's cost or effect
    /// (RB40).
    Discarded,
}

impl CardEventKind {
    pub fn name(self) -> &'static str {
        match self {
            CardEventKind::Opening => "opening",
            CardEventKind::Drew => "drew",
            CardEventKind::Played => "played",
            CardEventKind::Discarded => "discarded",
        }
    }
}

/// One card's event: kept for every game, not only logged ones, since the
/// run's `card_events` table is made of them. `energy` and `power` are
/// the cost paid at a play (the printed cost: no card of a game reduces
/// one yet), 0 otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardEvent {
    pub turn: u32,
    pub seat: Seat,
    pub kind: CardEventKind,
    pub card: CardIndex,
    pub energy: u8,
    pub power: u8,
}

/// Room for a long game's card events, reserved once per worker so that a
/// game allocates nothing (a game to the turn cap draws about 45 cards a
/// seat and plays fewer).
const CARD_EVENTS_RESERVED: usize = 512;

/// A worker's game: the state of one game and the showdown it plays its
/// combats on, reused game after game.
pub struct Game<'c> {
    pub catalog: &'c Catalog,
    pub settings: Settings,
    showdown: Showdown<'c>,
    /// Where the look-ahead bot plays out a move before making it: a
    /// second showdown, so the game's own is untouched.
    scout: Showdown<'c>,
    pub sides: [Side; 2],
    pub units: Units,
    /// The battlefields in play: the first player's, then the second's.
    pub fields: [CardIndex; MAX_FIELDS],
    /// The battlefields the turn player has scored this turn (443).
    pub scored: [bool; MAX_FIELDS],
    /// Turns begun, both players' counted.
    pub turn: u32,
    /// The turn player.
    pub active: Seat,
    pub first: Seat,
    pub rng: FightRng,
    pub ended: Option<EndReason>,
    pub winner: Option<Seat>,
    pub showdowns: u32,
    /// The two lanes a showdown is given, and the unit slot of each of
    /// their units, kept so that no showdown allocates.
    lanes: [Lane; 2],
    lane_slots: [[usize; MAX_LANE]; 2],
    /// Which hand cards went to a showdown, by position in the hand.
    lane_hand: [[usize; gridsim_riftbound::showdown::MAX_HAND]; 2],
    pub logging: bool,
    pub log: Vec<GameEvent>,
    /// The cards' events of the game, in order.
    pub card_events: Vec<CardEvent>,
    /// Each seat's scripted actions, for a seat whose bot is
    /// [`Bot::Script`] (a game scenario).
    pub script: [Script; 2],
    /// The kernel refused a spell of the turn player's this action phase
    /// (no legal target): it casts no more this turn.
    pub cast_refused: bool,
    /// The units on the kernel's board in the last showdown, a bit per
    /// slot: their triggers were the kernel's to resolve.
    kernel_slots: u32,
    /// Each seat's triggers due away from a showdown (`away`): its second
    /// card played, and its units that died.
    second_card_due: [bool; 2],
    deaths_due: [u8; 2],
    discards_due: [u8; 2],
    /// Each seat's cards played: the turn, and how many that turn (the
    /// count of its `played` card events that turn).
    cards_played: [(u32, u8); 2],
    /// Each card's triggers' `When`s as a set of bits, and every card's
    /// together: a trigger away from a showdown is looked for only on a
    /// unit whose card has one.
    card_whens: Vec<u32>,
    catalog_whens: u32,
}

impl<'c> Game<'c> {
    /// A game on `catalog` under `settings`; `logging` writes its log and
    /// its showdowns'.
    pub fn new(catalog: &'c Catalog, settings: Settings, logging: bool) -> Game<'c> {
        Game {
            catalog,
            settings,
            showdown: Showdown::new(catalog, logging),
            scout: Showdown::new(catalog, false),
            sides: [Side::default(), Side::default()],
            units: Units::default(),
            fields: [0; MAX_FIELDS],
            scored: [false; MAX_FIELDS],
            turn: 0,
            active: 0,
            first: 0,
            rng: FightRng::for_fight(0, 0),
            ended: None,
            winner: None,
            showdowns: 0,
            lanes: [Lane::default(), Lane::default()],
            lane_slots: [[0; MAX_LANE]; 2],
            lane_hand: [[0; gridsim_riftbound::showdown::MAX_HAND]; 2],
            logging,
            log: Vec::new(),
            card_events: Vec::with_capacity(CARD_EVENTS_RESERVED),
            script: [Script::default(); 2],
            cast_refused: false,
            kernel_slots: 0,
            second_card_due: [false; 2],
            deaths_due: [0; 2],
            discards_due: [0; 2],
            cards_played: [(0, 0); 2],
            card_whens: catalog
                .cards
                .iter()
                .map(|c| c.triggers.iter().fold(0, |m, t| m | t.when.bit()))
                .collect(),
            catalog_whens: catalog
                .cards
                .iter()
                .flat_map(|c| &c.triggers)
                .fold(0, |m, t| m | t.when.bit()),
        }
    }

    /// Plays one whole game of `decks` (seat 0 and seat 1), each seat's
    /// choices made by its bot, every random draw from `rng`.
    pub fn play(&mut self, decks: [&Deck; 2], bots: [Bot; 2], rng: FightRng) -> GameOutcome {
        self.setup(decks, bots, rng);
        while self.ended.is_none() {
            self.play_turn();
        }
        self.outcome()
    }

    pub fn outcome(&self) -> GameOutcome {
        GameOutcome {
            winner: self.winner,
            first: self.first,
            turns: self.turn,
            score: [self.sides[0].score, self.sides[1].score],
            reason: self.ended.unwrap_or(EndReason::TurnCap),
            showdowns: self.showdowns,
        }
    }

    /// The battlefield `b`'s controller: the player with units there (a
    /// battlefield with none is uncontrolled, 181.4.c).
    pub fn controller(&self, b: usize) -> Option<Seat> {
        (0..MAX_UNITS)
            .find(|&u| self.units.alive[u] && self.units.place[u] == Place::Field(b as u8))
            .map(|u| self.units.owner[u])
    }

    /// A unit's Might as a bot reads it: printed, Buff, "this turn".
    pub fn might(&self, u: usize) -> i32 {
        self.catalog.card(self.units.card[u]).might + i32::from(self.units.buffed[u]) + self.units.turn_might[u]
    }

    fn card_event(&mut self, seat: Seat, kind: CardEventKind, card: CardIndex) {
        let (energy, power) = match kind {
            CardEventKind::Played => {
                let cost = self.catalog.card(card).cost;
                (cost.energy, u8::try_from(cost.total_power()).unwrap_or(u8::MAX))
            }
            CardEventKind::Opening | CardEventKind::Drew | CardEventKind::Discarded => (0, 0),
        };
        self.card_events.push(CardEvent {
            turn: self.turn,
            seat,
            kind,
            card,
            energy,
            power,
        });
        if kind == CardEventKind::Played {
            self.count_play(seat);
        }
    }

    /// The latest play of `card` paid `cost` (its Accelerate added, a
    /// Legion discount taken off: [`Game::play_cost`]): its card event says
    /// so.
    fn record_paid(&mut self, card: CardIndex, cost: &gridsim_riftbound::runes::Cost) {
        let played = self.card_events.iter_mut().rev();
        if let Some(e) = played
            .filter(|e| e.kind == CardEventKind::Played)
            .find(|e| e.card == card)
        {
            e.energy = cost.energy;
            e.power = u8::try_from(cost.total_power()).unwrap_or(u8::MAX);
        }
    }

    fn note(&mut self, seat: Seat, kind: GameEventKind, card: Option<CardIndex>, amount: i32, rule: &'static str) {
        if self.logging {
            self.log.push(GameEvent {
                turn: self.turn,
                seat,
                kind,
                card,
                amount,
                rule,
            });
        }
    }
}

#[cfg(test)]
mod tests;
