//! What a seat may choose in a shop, and why: the words the bots speak and
//! the shop carries out (200.1b, 200.1f). The bots decide in them and the
//! shop acts on them, so neither needs the other to be read.

use serde::Serialize;

use super::MatchCtx;
use gridsim_model::ability::RuneBoard;
use gridsim_model::catalog::{CardId, RuneId};

/// Where a player shops (200.1f). Shop 1 is always the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Destination {
    /// Unit and rune offers.
    Store,
    /// Rune offers only, twice as many.
    Runesmith,
    /// Gold and no offers.
    Vault,
}

impl Destination {
    pub const ALL: [Destination; 3] = [Destination::Store, Destination::Runesmith, Destination::Vault];

    pub fn name(self) -> &'static str {
        match self {
            Destination::Store => "store",
            Destination::Runesmith => "runesmith",
            Destination::Vault => "vault",
        }
    }
}

/// Something a shop sells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    Unit(CardId, u8),
    Rune(RuneId, u8),
}

impl Item {
    /// The item as the log names it: its card or rune id, its kind
    /// (`unit` or `rune`) and its tier.
    pub fn logged(self, ctx: &MatchCtx) -> (String, &'static str, u8) {
        match self {
            Item::Unit(c, t) => (ctx.catalog.card(c).key.clone(), "unit", t),
            Item::Rune(r, t) => (ctx.catalog.rune(r).key.clone(), "rune", t),
        }
    }
}

/// An item sold by a player, which any player of the party may buy back
/// in Shop 2 (200.1f).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sold {
    pub item: Item,
    pub seller: u8,
}

macro_rules! reasons {
    ($( $(#[$doc:meta])* $Variant:ident = $name:literal, )*) => {
        /// Why a bot made a choice: logged beside it (`reason` in the log).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Reason { $( $(#[$doc])* $Variant, )* }

        impl Reason {
            pub const ALL: &'static [Reason] = &[ $( Reason::$Variant, )* ];

            pub fn name(self) -> &'static str {
                match self { $( Reason::$Variant => $name, )* }
            }
        }
    };
}

reasons! {
        /// The purchase worth most by the bot's table.
        MostValue = "most_value",
        /// The copy completes a combine (200.1b).
        CompletesCombine = "completes_combine",
        /// The copy joins copies already held: a step towards a combine.
        JoinsCopies = "joins_copies",
        /// The offer shares a tribe or keyword with the board.
        Synergy = "synergy",
        /// A Penny, a Hub, or a card that adds Dividend (800.15, 800.47).
        Economy = "economy",
        /// The option won most of the bot's trial fights.
        WinsTrials = "wins_trials",
        /// Drawn at random among the legal choices.
        Random = "random",
        /// A sale that makes room for a better offer.
        MakesRoom = "makes_room",
        /// XP because the unit cap binds.
        BoardFull = "board_full",
        /// XP with what is left when nothing else is worth buying.
        Leftover = "leftover",
        /// XP before buying: the bot levels hard.
        LevelsHard = "levels_hard",
        /// A reroll for better offers.
        Hunting = "hunting",
        /// A reroll for the copies that complete a combine.
        HuntingCopies = "hunting_copies",
        /// A rune raised a tier.
        RuneUpgrade = "rune_upgrade",
        /// A rune moved to where it reaches more units.
        ReachesMore = "reaches_more",
        /// The destination with something to buy.
        SomethingToBuy = "something_to_buy",
        /// The vault: nothing to buy elsewhere.
        NothingToBuy = "nothing_to_buy",
        /// The weakest option by the bot's table.
        Weakest = "weakest",
        /// A cancelled claim, so that a teammate's claim and this seat's swap.
        Swap = "swap",
        /// A party's nemesis sources are assigned, not chosen (200.1g).
        Assigned = "assigned",
}

impl Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// What a bot does next in a shop (200.1b, 200.1f).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShopAction {
    /// Buys offer `index`, or buyback item `index` when `from_buyback`.
    Buy { index: usize, from_buyback: bool },
    /// Sells the unit at `index` of the player's units.
    Sell(usize),
    /// Sells the rune at `index` of the player's runes.
    SellRune(usize),
    /// Raises the rune at `index` one tier.
    UpgradeRune(usize),
    /// Moves the rune at `index` to a free place.
    MoveRune { index: usize, board: RuneBoard, cell: u8 },
    /// Buys XP.
    BuyXp,
    /// Pays for new offers.
    Reroll,
    /// Ends the visit.
    Leave,
}

/// A shop action and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    pub action: ShopAction,
    pub reason: Reason,
}

/// What a bot sees of one shop visit besides its own seat.
pub struct ShopView<'v> {
    pub round: u8,
    /// The match's index, which numbers a planner's trial streams.
    pub match_index: u64,
    pub offers: &'v [Item],
    /// The party's sold items, open to buy back in Shop 2 (200.1f).
    pub buyback: Option<&'v [Sold]>,
    /// Rerolls paid for in this visit so far.
    pub rerolls: usize,
}
