//! The kernel's log: one line per thing that happened on the board, each
//! citing the ruling that made it; scenarios expect and forbid its lines
//! by their names.

use super::UnitId;

/// One line of the kernel's log, citing the ruling that made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub kind: EventKind,
    /// The unit it is about; none for a player's line (a point scored).
    pub unit: Option<UnitId>,
    pub amount: i32,
    pub ruling: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// Damage marked on a unit (RB1); `amount` is the damage now marked.
    Damaged,
    /// A Might modifier resolved; `amount` is what it applied (RB38).
    MightChanged,
    /// A unit died: its marked damage reached its Might (RB37).
    Died,
    /// A unit's marked damage cleared (RB1, RB34).
    Healed,
    /// A unit recalled to its base (RB4, RB18, RB43); `amount` is 1 when
    /// it arrives exhausted.
    Recalled,
    /// A Buff taken off (RB31); `amount` is the Buffs left.
    BuffRemoved,
    /// Stunned for the turn (RB47).
    Stunned,
    /// A death replaced (RB9, RB10); `amount` is 0 for a gear's recall, 1
    /// for the top of the deck, 2 for a Legend's recall (Sett's, 167.7).
    Saved,
    /// Returned to its owner's hand (RB30); `amount` is the owner.
    ReturnedToHand,
    /// A spell played; `amount` is its card, `unit` its first target.
    Played,
    /// An item finalized onto the chain (RB44, RB48); `amount` is the chain's
    /// length with it.
    Added,
    /// The chain's top item resolved (LIFO, RB44); `amount` is its card.
    Resolved,
    /// Attacker and defender assigned as the combat showdown starts (RB3);
    /// `amount` is 0 for attacker, 1 for defender.
    RoleAssigned,
    /// A battlefield conquered: a point scored at once (RB46); `amount` is
    /// the player.
    Conquered,
    /// The defender kept the battlefield (RB46, RB47); `amount` is the
    /// player.
    Held,
    /// Recycled to the bottom of its owner's deck (RB29); `amount` is the
    /// owner.
    Recycled,
    /// Moved to its base: a move, not a recall (RB20); `amount` is 1.
    Moved,
    /// Hidden cards trashed: their player no longer holds the battlefield
    /// (RB12, RB20); `amount` is how many.
    HiddenTrashed,
    /// A gear at the battlefield recalled to its player's base in cleanup
    /// (RB21); `amount` is the player.
    GearRecalled,
    /// A card discarded to pay a cost (RB40); `amount` is the card.
    Discarded,
    /// A gear or rune exhausted to pay a cost (RB40, RB41); `amount` is
    /// the card.
    Exhausted,
    /// Energy added by an [Add] ability (RB41); `amount` is the player's
    /// energy now.
    EnergyAdded,
    /// Points scored by an effect or a hold (RB14); `amount` is the
    /// player's score now.
    Scored,
    /// Cards drawn (RB14); `amount` is how many.
    Drew,
    /// A player with priority passed it (RB41, RB45); `amount` is the
    /// player.
    Passed,
    /// Banished: off the board to its owner's banishment (RB30); `amount`
    /// is the owner.
    Banished,
    /// Readied by an effect (Darius, Trifarian's "ready me"); `amount` is 1.
    Readied,
}

impl EventKind {
    pub const ALL: [EventKind; 27] = [
        EventKind::Damaged,
        EventKind::MightChanged,
        EventKind::Died,
        EventKind::Healed,
        EventKind::Recalled,
        EventKind::BuffRemoved,
        EventKind::Stunned,
        EventKind::Saved,
        EventKind::ReturnedToHand,
        EventKind::Played,
        EventKind::Added,
        EventKind::Resolved,
        EventKind::RoleAssigned,
        EventKind::Conquered,
        EventKind::Held,
        EventKind::Recycled,
        EventKind::Moved,
        EventKind::HiddenTrashed,
        EventKind::GearRecalled,
        EventKind::Discarded,
        EventKind::Exhausted,
        EventKind::EnergyAdded,
        EventKind::Scored,
        EventKind::Drew,
        EventKind::Passed,
        EventKind::Banished,
        EventKind::Readied,
    ];

    /// Its name in a scenario and a log.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Damaged => "damaged",
            EventKind::MightChanged => "might_changed",
            EventKind::Died => "died",
            EventKind::Healed => "healed",
            EventKind::Recalled => "recalled",
            EventKind::BuffRemoved => "buff_removed",
            EventKind::Stunned => "stunned",
            EventKind::Saved => "saved",
            EventKind::ReturnedToHand => "returned_to_hand",
            EventKind::Played => "played",
            EventKind::Added => "added",
            EventKind::Resolved => "resolved",
            EventKind::RoleAssigned => "role_assigned",
            EventKind::Conquered => "conquered",
            EventKind::Held => "held",
            EventKind::Recycled => "recycled",
            EventKind::Moved => "moved",
            EventKind::HiddenTrashed => "hidden_trashed",
            EventKind::GearRecalled => "gear_recalled",
            EventKind::Discarded => "discarded",
            EventKind::Exhausted => "exhausted",
            EventKind::EnergyAdded => "energy_added",
            EventKind::Scored => "scored",
            EventKind::Drew => "drew",
            EventKind::Passed => "passed",
            EventKind::Banished => "banished",
            EventKind::Readied => "readied",
        }
    }
}
