//! Riftbound's cards as the kernel plays them: units, gear and spells,
//! each ability a trigger or a spell's effects, every effect a target and
//! one action. The loader (`config::riftbound_cards`) builds them from
//! `configs/riftbound/cards/`; the FAQ prints no card text, so each card
//! carries the note of what was reconstructed, and from which ruling
//! (docs/riftbound-reconstruction.md).

use super::Lasts;
use super::runes::{Cost, Domains};

mod describe;

/// A card's index in its [`Catalog`].
pub type CardIndex = u16;

/// What a card is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardKind {
    Unit,
    Gear,
    Spell,
    /// The battlefield a showdown is at; its triggers are its
    /// controller's ("when you conquer here", RB19).
    Battlefield,
    /// A rune at its player's base: its ability adds energy ([Add], RB41).
    Rune,
    /// A Champion Legend: never played; its domains are a deck's domain
    /// identity and its tag names the deck's Chosen Champion (Core Rules
    /// 103.1, 103.2.a, 166–169).
    Legend,
}

/// When a spell may be played: Action only on an empty chain while its
/// player has focus, Reaction whenever its player has priority (RB2,
/// RB20, RB50).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speed {
    Action,
    Reaction,
}

/// What a trigger waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// "When I attack": the unit became an attacker (RB3, RB44).
    Attack,
    /// "When I defend" (RB22, RB44).
    Defend,
    /// "When an enemy unit attacks": one trigger per attacker, controlled by
    /// the defender, so added with the defender's (RB49).
    EnemyAttacks,
    /// "When a friendly unit defends": one trigger per defender (Master
    /// Yi's, RB33).
    FriendlyDefends,
    /// "When I move" (RB2, RB16, RB22).
    Move,
    /// Deathknell, "when I die": made from the trash, controlled by the
    /// unit's last controller (RB8).
    Death,
    /// "When you play me": the unit enters at once and this goes on the
    /// chain, where both players may answer it (RB17, RB26, RB33).
    Play,
    /// "When I conquer" (a unit's), "when you conquer here" (a
    /// battlefield's): all at once, in the conqueror's order (RB19).
    Conquer,
    /// A battlefield's "when an enemy unit moves here": controlled by the
    /// player holding it, about the unit that moved (Reaver's Row, RB50).
    EnemyMovesHere,
    /// Mask, "when I defend alone": the unit is its player's only one at
    /// the battlefield as it becomes a defender. Read as it triggers, not
    /// again as it resolves (RB12).
    DefendAlone,
    /// "When I hold" (a unit's or its gear's), "when you hold here" (a
    /// battlefield's): its player scores a hold (RB14).
    Hold,
    /// "When you discard a card": its player paid a discard, a cost
    /// included (Jinx, Rebel, RB40).
    Discard,
    /// "When you add energy": an [Add] ability of its player resolved
    /// (Sivir, RB41).
    Add,
    /// "When you play your second card in a turn" (Darius, Trifarian):
    /// once a turn, as its player's second card is played — a unit as it
    /// enters, a spell as it resolves (judges' rulings: "played" is
    /// resolved; the card that is second may be the unit itself).
    SecondCard,
    /// "When another non-Recruit unit you control dies" (Viktor, Leader):
    /// one trigger per unit that died, about it (`Subject`); a unit dying
    /// in the same instant sees none of the others die (judges' rulings).
    FriendlyDies,
}

impl When {
    /// Its bit in a set of `When`s.
    pub fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// Whom an effect is aimed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// An enemy unit at the battlefield, chosen when the item is finalized
    /// (RB39, RB44).
    Enemy,
    /// A friendly unit at the battlefield, chosen the same way.
    Friendly,
    /// Another friendly unit: one other than the trigger's own unit
    /// ("buff another friendly unit").
    OtherFriendly,
    /// Any unit at the battlefield.
    Any,
    /// Every enemy unit at the battlefield as the effect resolves.
    EachEnemy,
    /// The unit whose trigger it is (a gear's: the unit holding it).
    Me,
    /// The unit the trigger is about (the attacker of "when an enemy unit
    /// attacks", the defender of "when a friendly unit defends").
    Subject,
}

impl Target {
    /// Chosen when the item goes on the chain, rather than read as it
    /// resolves.
    pub fn is_chosen(self) -> bool {
        matches!(
            self,
            Target::Enemy | Target::Friendly | Target::OtherFriendly | Target::Any
        )
    }
}

/// What an effect does to each unit it reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Marks damage (RB1).
    Damage(i32),
    /// Marks N damage split among the enemy units at the battlefield as
    /// its controller chooses ("deal 5 split among enemy units here":
    /// Volibear, Furious): in the order its `Choices::damage_order` gives,
    /// each taking what is lethal to it before the next, the rest to the
    /// last (a decision: the split a player makes to kill the most it
    /// can, written down). Not combat damage: Tank does not order it.
    DamageSplit(i32),
    /// Marks damage equal to the source's Might as the effect resolves
    /// (Yasuo's, RB49); none when the source has left the board (RB9:
    /// no unit to read a Might from).
    DamageMyMight,
    /// A Might change made once as it resolves (RB36), stopped at
    /// `minimum` (RB38).
    Might {
        amount: i32,
        minimum: Option<i32>,
        lasts: Lasts,
    },
    /// A Buff (RB4).
    Buff,
    /// Stunned for the turn: deals no combat damage (RB47).
    Stun,
    /// Readied (Darius, Trifarian's "ready me"): no longer exhausted.
    Ready,
    /// Back to its owner's hand when its Might is at most `max_might`
    /// (Gust, RB2, RB50); its gear stays at the base (RB30).
    ReturnToHand { max_might: i32 },
    /// Recalled to base (Hourglass, RB4): no move (RB43).
    Recall { heal: bool, exhaust: bool },
    /// Moved to its base: a move, so its move triggers trigger (Charm,
    /// RB20), unlike a recall (RB21, RB43).
    MoveToBase,
    /// Moved from its base to the battlefield: a move, so its move
    /// triggers trigger; once combat has begun it takes its player's role
    /// (Zenith Blade, RB3).
    MoveHere,
    /// Killed at once, as this instruction resolves: its Deathknell is
    /// pending before the effect's next instruction (Baited Hook, RB48).
    Kill,
    /// Its player looks at the top `look` cards of its deck and plays the
    /// first unit among them, recycling the rest: the unit becomes pending,
    /// after whatever the effect's earlier instructions made pending
    /// (RB48). It reads the unit an earlier instruction of the same effect
    /// killed; with none killed (the target gone, RB39, or its death
    /// replaced, RB9) every card looked at is recycled.
    PlayFromDeck { look: u8 },
    /// Spend a Buff: one comes off the unit, and only if one did, its
    /// player draws `draw` (Monastery of Hirana, RB19, RB27).
    SpendBuffToDraw(i32),
    /// Its player scores points (Trinity Force, RB14).
    Score(i32),
    /// Its player draws cards (RB14).
    Draw(i32),
    /// Its player discards cards from its hand, each of its choosing, each
    /// setting off its "when you discard" triggers (Chemtech Enforcer's and
    /// Jinx, Demolitionist's "when you play me", RB40).
    Discard(u8),
    /// Its player plays this token unit (Core Rules 179): "here", at the
    /// battlefield of the trigger's unit (Noxian Drummer's Recruit),
    /// nothing once that unit has left it ("here" undefined, a judge's
    /// ruling); or `at_base`, at its player's base (Viktor, Leader's
    /// Recruit), which reads no place of the unit and so is played though
    /// it has left (RB26, RB28).
    PlayToken { token: CardIndex, at_base: bool },
    /// The unit's conquer effects happen now — its hold effects too when
    /// a gear makes them conquer effects (Reckoner's Arena, Skyfall of
    /// Areion, RB14).
    ActivateConquer,
}

impl Action {
    /// Takes a unit out of a fight for good: damage, a kill, a return to
    /// hand, a move to base (a bot's reading of what is worth playing
    /// outside a showdown).
    pub fn removes(self) -> bool {
        matches!(
            self,
            Action::Damage(_)
                | Action::DamageSplit(_)
                | Action::DamageMyMight
                | Action::Kill
                | Action::ReturnToHand { .. }
                | Action::MoveToBase
        )
    }

    /// Done for the effect's player rather than to a unit: it has no
    /// target.
    pub fn is_players(self) -> bool {
        matches!(
            self,
            Action::PlayFromDeck { .. }
                | Action::Score(_)
                | Action::Draw(_)
                | Action::Discard(_)
                | Action::PlayToken { .. }
        )
    }
}

/// One instruction: a target and an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Effect {
    pub target: Target,
    pub action: Action,
    /// "You may": its controller decides as it resolves, not as it goes on
    /// the chain, where only its target is chosen (RB44, RB50).
    pub optional: bool,
    /// A chosen target may be at a base as well as at the battlefield,
    /// unless the card is played from Hidden, which adds "here" (RB11).
    pub anywhere: bool,
    /// Legion (Core Rules 728): it does something only once its player
    /// has played another card this turn (Trifarian Gloryseeker's buff),
    /// as a whole game tells the showdown (`Showdown::legion`).
    pub legion: bool,
}

/// A triggered ability of a unit, or of a gear for the unit holding it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trigger {
    pub when: When,
    pub effect: Effect,
}

/// What a Legend's ability does: one row per ability, each naming the
/// game's handler for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegendAbility {
    /// "At the start of your Beginning Phase, draw 1 if you have `hand`
    /// or fewer cards in hand" (Jinx, Loose Cannon), checked as it
    /// resolves.
    DrawWithFewCards { hand: u8 },
    /// "`energy`, exhaust me: buff a friendly unit" (Lee Sin, Blind Monk).
    BuffAUnit { energy: u8 },
    /// "When you play a unit of Might `might` or more, you may exhaust me
    /// to channel 1 rune exhausted" (Volibear, Relentless Storm).
    ChannelOnMighty { might: i32 },
    /// "When an enemy unit attacks a battlefield you control, give it
    /// `might` this turn" (Ahri, Nine-Tailed Fox).
    WeakenAttackers { might: i32 },
    /// "`energy`, exhaust me: move a friendly unit to or from its base"
    /// (Yasuo, Unforgiven).
    MoveAUnit { energy: u8 },
    /// "`energy`, exhaust me: play a `token` unit token" (Viktor, Herald
    /// of the Arcane: a 1 Might Recruit).
    PlayAToken { energy: u8, token: CardIndex },
    /// "Exhaust me: Legion — add `energy` Energy" (Darius, Hand of Noxus):
    /// only once its player has played a card this turn.
    LegionEnergy { energy: u8 },
    /// "When a buffed unit you control would die, you may exhaust me to
    /// spend its Buff and recall it instead. When you conquer, ready me"
    /// (Sett, The Boss): the kernel's [`Board::legend_save`](crate::Board).
    SaveABuffedUnit,
}

/// A unit's passive Might ability ("units have +N Might"): a statement of
/// fact, true while the unit is on the board, read by every Might
/// reckoning. "Here" is where the unit is: its battlefield, or its base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Passive {
    /// "Other friendly units here have +N Might" (Darius, Executioner).
    OthersHere(i32),
    /// "Other buffed friendly units here have +N Might" (Lee Sin,
    /// Centered: a Buff worth 1 + N to them).
    OtherBuffedHere(i32),
    /// "I have +N Might for each buffed friendly unit at my battlefield",
    /// itself counted, and none at its base (Sett, Kingpin; judges'
    /// rulings).
    PerBuffedHere(i32),
}

/// What a gear does instead of its unit's death (RB9, RB10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replacement {
    /// Zhonya's Hourglass: the unit is recalled, healed, and never dies —
    /// no Deathknell (RB9), every modification kept (RB13, RB32); the
    /// Hourglass goes to the trash.
    RecallHealed,
    /// Guardian Angel: the unit goes to the top of its owner's deck with
    /// every gear it holds (RB10); it never died.
    TopOfDeck,
}

/// The most effects one spell has and one chain item carries.
pub const MAX_EFFECTS: usize = 2;

/// An activated ability of a gear or rune at its player's base: its costs
/// and what it does (RB39, RB40, RB41).
#[derive(Debug, Clone, PartialEq)]
pub struct Ability {
    /// Action: only with focus and the chain empty; Reaction: with
    /// priority.
    pub speed: Speed,
    /// Cost: the card is exhausted.
    pub exhaust: bool,
    /// Cost: cards discarded from hand, paid after the ability is on the
    /// chain (RB40).
    pub discard: u8,
    /// [Add]: the energy it adds. Such an ability resolves at once, with no
    /// priority passed, and a cleanup after it (RB41).
    pub adds: i32,
    /// What it does as it resolves, in order (RB48).
    pub effects: Vec<Effect>,
}

/// One card.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    pub key: String,
    pub name: String,
    pub kind: CardKind,
    /// A unit's printed Might; a gear's Might for the unit holding it.
    pub might: i32,
    /// Assault: Might while attacking (RB3, RB5; Cleave in older text).
    pub assault: i32,
    /// Shield: Might while defending (RB3, RB24).
    pub shield: i32,
    /// A spell's speed.
    pub speed: Speed,
    /// A spell's effects, in order (RB48), at most [`MAX_EFFECTS`].
    pub effects: Vec<Effect>,
    pub triggers: Vec<Trigger>,
    pub replacement: Option<Replacement>,
    /// Hidden: it may be hidden at a battlefield its player holds, then
    /// played from there as a Reaction, "here" only (RB11, RB20); trashed
    /// once its player no longer holds the battlefield (RB12, RB21).
    pub hidden: bool,
    /// A gear's: its unit's hold effects are conquer effects too (Skyfall
    /// of Areion, RB14).
    pub hold_as_conquer: bool,
    /// A unit's Accelerate: as it is played, its player may pay 1 Energy
    /// and 1 Power more to have it enter ready (Core Rules 721); a game's
    /// play, never a showdown's.
    pub accelerate: bool,
    /// A unit's passive Might ability.
    pub passive: Option<Passive>,
    /// A unit's Tank: its controller's units without Tank take no combat
    /// damage until every one with it has been assigned lethal (Core Rules
    /// 731).
    pub tank: bool,
    /// A Legend's ability, which a whole game plays (Core Rules 167.7,
    /// 167.8); the kernel never sees a Legend.
    pub legend_ability: Option<LegendAbility>,
    /// "Legion — I cost N less": Energy off its cost once its player has
    /// played another card this turn (Noxus Hopeful); a game's play.
    pub legion_discount: u8,
    /// "Legion — I enter ready" (Darius, Executioner); a game's play.
    pub legion_ready: bool,
    /// A token unit: played by an effect, never from a deck; not a card,
    /// so it ceases to exist once it leaves the board (Core Rules 179).
    pub token: bool,
    /// A gear's or rune's activated ability at its player's base.
    pub ability: Option<Ability>,
    /// What it costs to play (Core Rules 130): nothing in a showdown of a
    /// suite, whose lanes have no runes.
    pub cost: Cost,
    /// Its domains (133.2): a deck holds it only when each is one of its
    /// Legend's (103.1.b.3).
    pub domains: Domains,
    /// A champion unit (132.7.a): the Chosen Champion is one whose tag is
    /// its Legend's (103.2.a).
    pub champion: bool,
    /// Its tag: a champion unit's and a Legend's champion ("Jinx"), a
    /// token's kind ("Recruit", [`RECRUIT`]).
    pub tag: String,
    /// What was reconstructed, and from which rulings.
    pub reconstructed: String,
}

/// The tag of the Recruit tokens: "non-Recruit" in a card's text reads it
/// (Viktor, Leader).
pub const RECRUIT: &str = "Recruit";

impl Card {
    /// A Recruit: a unit tagged [`RECRUIT`].
    pub fn is_recruit(&self) -> bool {
        self.tag == RECRUIT
    }
}

/// The cards, in loading order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Catalog {
    pub cards: Vec<Card>,
}

impl Catalog {
    pub fn card(&self, c: CardIndex) -> &Card {
        &self.cards[usize::from(c)]
    }

    pub fn index(&self, key: &str) -> Option<CardIndex> {
        self.cards.iter().position(|c| c.key == key).map(|i| i as CardIndex)
    }
}
