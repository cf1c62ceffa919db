//! Riftbound's kernel: the second game, turn-based, whose rules are the
//! rulings of its FAQ (RB1 to RB50, docs/riftbound-reconstruction.md). It
//! shares nothing with the Gridforged engine; it knows no file, clock or
//! thread.
//!
//! This is the kernel's Might and damage: units with a printed Might, Buffs,
//! Boosts and modifiers, damage marked on them, the checks that kill, and
//! the cleanups that heal; whose each unit is (owner and controller), its
//! gear, Stun and combat role; each player's trash, deck top and score. A
//! unit's state is a set of columns indexed by [`UnitId`], as the
//! Gridforged engine keeps its own. [`showdown`] plays a whole combat
//! showdown on it, with the chain; [`cards`] is what it plays.

pub mod cards;
mod event;
pub mod runes;
pub mod showdown;

pub use event::{Event, EventKind};

use cards::{CardIndex, Passive, Replacement};

/// A unit's index on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UnitId(pub u8);

impl UnitId {
    fn i(self) -> usize {
        usize::from(self.0)
    }
}

/// The most units a board holds.
pub const MAX_UNITS: usize = 32;
/// The most Might modifiers one unit holds at once.
pub const MAX_MODIFIERS: usize = 16;
const _: () = assert!(MAX_MODIFIERS <= u8::MAX as usize, "Board::mods_n counts them in a u8");
/// The most auras on a board at once.
pub const MAX_AURAS: usize = 32;
/// The most gear one unit holds.
pub const MAX_GEAR: usize = 2;
/// The most Buffs one unit has: a second Buff fails to apply (RB27,
/// against RB4's "three Buffs"; docs/riftbound-reconstruction.md, "One
/// Buff per unit").
pub const MAX_BUFFS: i32 = 1;
/// The most cards one player hides at one battlefield.
pub const MAX_HIDDEN: usize = 4;
/// A player: 0 or 1. In a showdown, 0 attacks and 1 defends.
pub type Player = u8;

/// A unit's part in the combat showdown, given at its start and kept to
/// its end (RB3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    None,
    Attacker,
    Defender,
}

/// How long a Might modifier lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lasts {
    /// Until the end of the turn ("this turn").
    Turn,
    /// Until the end of the combat: a Boost (RB25, RB31).
    Combat,
}

/// A Might change made once, when its effect resolved (RB36): what it was
/// able to apply, kept as it was (RB38), and how long it lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Modifier {
    applied: i32,
    lasts: Lasts,
}

/// A continuous Might change from one unit to another (Trifarian War
/// Camp's, a Master Yi's): applied while its source is on the board,
/// through no chain (RB24).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Aura {
    source: UnitId,
    target: UnitId,
    amount: i32,
}

/// Where a unit that left the board went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gone {
    /// Still on the board.
    Not,
    /// Died, to its owner's trash (RB8).
    Trash,
    /// Back to its owner's hand (RB30).
    Hand,
    /// To the bottom of its owner's deck (RB29).
    DeckBottom,
    /// To the top of its owner's deck, its death replaced (RB10).
    DeckTop,
    /// Banished (RB30).
    Banished,
}

/// The board: every unit's Might and damage, whose it is, what it holds;
/// each player's zones as counts.
#[derive(Debug, Clone)]
pub struct Board {
    count: usize,
    printed: [i32; MAX_UNITS],
    buffs: [i32; MAX_UNITS],
    damage: [i32; MAX_UNITS],
    alive: [bool; MAX_UNITS],
    /// Where a unit no longer on the board went.
    gone: [Gone; MAX_UNITS],
    /// At its base rather than at a battlefield: both are on the board.
    at_base: [bool; MAX_UNITS],
    exhausted: [bool; MAX_UNITS],
    stunned: [bool; MAX_UNITS],
    temporary: [bool; MAX_UNITS],
    /// A token, no card: gone from the board, it counts in no zone (Core
    /// Rules 179).
    token: [bool; MAX_UNITS],
    card: [CardIndex; MAX_UNITS],
    owner: [Player; MAX_UNITS],
    controller: [Player; MAX_UNITS],
    role: [Role; MAX_UNITS],
    assault: [i32; MAX_UNITS],
    shield: [i32; MAX_UNITS],
    gear: [[Option<Gear>; MAX_GEAR]; MAX_UNITS],
    modifiers: [[Option<Modifier>; MAX_MODIFIERS]; MAX_UNITS],
    auras: [Option<Aura>; MAX_AURAS],
    /// Each unit's passive Might ability, and a bit per unit that has one:
    /// a board with none reckons no Might from them.
    passive: [Option<Passive>; MAX_UNITS],
    passives: u32,
    /// How many aura slots, and each unit's modifier slots, have ever
    /// been used since the reset: reads scan no further.
    auras_n: usize,
    mods_n: [u8; MAX_UNITS],
    /// Each player's cards in the trash, on top of the deck (RB10), back
    /// in hand (RB30), gear left at base (RB29, RB30), and points.
    pub trash: [u32; 2],
    pub deck_top: [u32; 2],
    pub returned: [u32; 2],
    pub recycled: [u32; 2],
    /// Each player's cards banished (RB30).
    pub banished: [u32; 2],
    pub base_gear: [u32; 2],
    pub score: [u32; 2],
    /// The Might every unit at the battlefield has from the battlefield
    /// itself ("units here have +1 Might": Trifarian War Camp, RB24).
    pub field_might: i32,
    /// Gear played at the battlefield, recalled to base at the next
    /// cleanup (RB21); energy added (RB41); cards drawn (RB14).
    pub field_gear: [u32; 2],
    pub energy: [u32; 2],
    pub drawn: [u32; 2],
    /// Each player's Legend ready to save its buffed unit from death
    /// (Sett, The Boss, Core Rules 167.7: "exhaust me: spend its Buff and
    /// recall it instead"); the save spends it (RB9, RB18, RB31).
    pub legend_save: [bool; 2],
    /// The cards each player has hidden at the battlefield (RB11, RB12).
    pub hidden: [[CardIndex; MAX_HIDDEN]; 2],
    pub hidden_len: [usize; 2],
    /// The units the last lethal check killed, in board order.
    deaths: [UnitId; MAX_UNITS],
    deaths_n: usize,
    /// Whether [`Board::log`] is written: on for scenarios and single
    /// showdowns, off in batch runs, whose showdowns allocate nothing.
    pub logging: bool,
    pub log: Vec<Event>,
}

/// A gear attached to a unit: its card, the Might it gives, what it does
/// instead of the unit's death.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gear {
    pub card: CardIndex,
    pub might: i32,
    pub replacement: Option<Replacement>,
}

impl Default for Board {
    fn default() -> Self {
        Board {
            count: 0,
            printed: [0; MAX_UNITS],
            buffs: [0; MAX_UNITS],
            damage: [0; MAX_UNITS],
            alive: [false; MAX_UNITS],
            gone: [Gone::Not; MAX_UNITS],
            at_base: [false; MAX_UNITS],
            exhausted: [false; MAX_UNITS],
            stunned: [false; MAX_UNITS],
            temporary: [false; MAX_UNITS],
            token: [false; MAX_UNITS],
            card: [0; MAX_UNITS],
            owner: [0; MAX_UNITS],
            controller: [0; MAX_UNITS],
            role: [Role::None; MAX_UNITS],
            assault: [0; MAX_UNITS],
            shield: [0; MAX_UNITS],
            gear: [[None; MAX_GEAR]; MAX_UNITS],
            modifiers: [[None; MAX_MODIFIERS]; MAX_UNITS],
            auras: [None; MAX_AURAS],
            passive: [None; MAX_UNITS],
            passives: 0,
            auras_n: 0,
            mods_n: [0; MAX_UNITS],
            trash: [0; 2],
            deck_top: [0; 2],
            returned: [0; 2],
            recycled: [0; 2],
            banished: [0; 2],
            base_gear: [0; 2],
            score: [0; 2],
            field_might: 0,
            field_gear: [0; 2],
            energy: [0; 2],
            drawn: [0; 2],
            legend_save: [false; 2],
            hidden: [[0; MAX_HIDDEN]; 2],
            hidden_len: [0; 2],
            deaths: [UnitId(0); MAX_UNITS],
            deaths_n: 0,
            logging: true,
            log: Vec::new(),
        }
    }
}

impl Board {
    /// Empties the board for the next showdown, keeping its buffers: only
    /// the units placed since the last reset are cleared.
    pub fn reset(&mut self) {
        for i in 0..self.count {
            self.gear[i] = [None; MAX_GEAR];
            self.modifiers[i] = [None; MAX_MODIFIERS];
            self.mods_n[i] = 0;
        }
        self.count = 0;
        self.passives = 0;
        self.auras = [None; MAX_AURAS];
        self.auras_n = 0;
        self.trash = [0; 2];
        self.deck_top = [0; 2];
        self.returned = [0; 2];
        self.recycled = [0; 2];
        self.banished = [0; 2];
        self.base_gear = [0; 2];
        self.score = [0; 2];
        self.field_might = 0;
        self.field_gear = [0; 2];
        self.energy = [0; 2];
        self.drawn = [0; 2];
        self.legend_save = [false; 2];
        self.hidden_len = [0; 2];
        self.deaths_n = 0;
        self.log.clear();
    }

    /// Puts a unit of printed Might `might` on the board; `None` when the
    /// board is full.
    pub fn add_unit(&mut self, might: i32) -> Option<UnitId> {
        if self.count == MAX_UNITS {
            return None;
        }
        let u = UnitId(self.count as u8);
        let i = u.i();
        self.count += 1;
        self.printed[i] = might;
        self.buffs[i] = 0;
        self.damage[i] = 0;
        self.alive[i] = true;
        self.gone[i] = Gone::Not;
        self.at_base[i] = false;
        self.exhausted[i] = false;
        self.stunned[i] = false;
        self.temporary[i] = false;
        self.token[i] = false;
        self.card[i] = 0;
        self.owner[i] = 0;
        self.controller[i] = 0;
        self.role[i] = Role::None;
        self.assault[i] = 0;
        self.shield[i] = 0;
        self.gear[i] = [None; MAX_GEAR];
        self.modifiers[i] = [None; MAX_MODIFIERS];
        self.mods_n[i] = 0;
        self.passive[i] = None;
        self.passives &= !(1 << i);
        Some(u)
    }

    /// Gives `u` its card's passive Might ability.
    pub fn set_passive(&mut self, u: UnitId, passive: Option<Passive>) {
        let i = u.i();
        self.passive[i] = passive;
        if passive.is_some() {
            self.passives |= 1 << i;
        } else {
            self.passives &= !(1 << i);
        }
    }

    /// Sets what the unit is: its card, its owner (and controller), its
    /// Assault and Shield.
    pub fn set_card(&mut self, u: UnitId, card: CardIndex, owner: Player, assault: i32, shield: i32) {
        let i = u.i();
        self.card[i] = card;
        self.owner[i] = owner;
        self.controller[i] = owner;
        self.assault[i] = assault;
        self.shield[i] = shield;
    }

    /// Another player takes control; the owner stays (RB8).
    pub fn set_controller(&mut self, u: UnitId, p: Player) {
        self.controller[u.i()] = p;
    }

    /// Attaches `g` to `u`; `false` when it holds as much gear as it can.
    pub fn equip(&mut self, u: UnitId, g: Gear) -> bool {
        match self.gear[u.i()].iter_mut().find(|s| s.is_none()) {
            Some(slot) => {
                *slot = Some(g);
                true
            }
            None => false,
        }
    }

    /// Units placed so far (living or not), in board order.
    pub fn units(&self) -> impl Iterator<Item = UnitId> + use<> {
        (0..self.count as u8).map(UnitId)
    }

    pub fn alive(&self, u: UnitId) -> bool {
        self.alive[u.i()]
    }

    /// Alive and at the battlefield: "here" (RB17).
    pub fn here(&self, u: UnitId) -> bool {
        self.alive[u.i()] && !self.at_base[u.i()]
    }

    /// Where `u` went when it left the board.
    pub fn gone(&self, u: UnitId) -> Gone {
        self.gone[u.i()]
    }

    /// The sum of `u`'s "this turn" Might changes: what a whole game keeps
    /// of them between one showdown and the next of the same turn.
    pub fn turn_might(&self, u: UnitId) -> i32 {
        let i = u.i();
        self.modifiers[i][..usize::from(self.mods_n[i])]
            .iter()
            .flatten()
            .filter(|m| m.lasts == Lasts::Turn)
            .map(|m| m.applied)
            .sum()
    }

    /// Sets `u`'s state as a whole game hands it to a showdown: exhausted
    /// or ready, and the damage marked earlier this turn.
    pub fn set_state(&mut self, u: UnitId, exhausted: bool, damage: i32) {
        let i = u.i();
        self.exhausted[i] = exhausted;
        self.damage[i] = damage.max(0);
    }

    pub fn damage(&self, u: UnitId) -> i32 {
        self.damage[u.i()]
    }

    pub fn buffs(&self, u: UnitId) -> i32 {
        self.buffs[u.i()]
    }

    pub fn at_base(&self, u: UnitId) -> bool {
        self.at_base[u.i()]
    }

    pub fn exhausted(&self, u: UnitId) -> bool {
        self.exhausted[u.i()]
    }

    pub fn stunned(&self, u: UnitId) -> bool {
        self.stunned[u.i()]
    }

    pub fn card(&self, u: UnitId) -> CardIndex {
        self.card[u.i()]
    }

    pub fn controller(&self, u: UnitId) -> Player {
        self.controller[u.i()]
    }

    pub fn role(&self, u: UnitId) -> Role {
        self.role[u.i()]
    }

    pub fn gear(&self, u: UnitId) -> impl Iterator<Item = Gear> + '_ {
        self.gear[u.i()].iter().flatten().copied()
    }

    /// The units the last lethal check killed, in board order.
    pub fn deaths(&self) -> &[UnitId] {
        &self.deaths[..self.deaths_n]
    }

    /// Places `u` at its base (`true`) or at a battlefield.
    pub fn place(&mut self, u: UnitId, at_base: bool) {
        self.at_base[u.i()] = at_base;
    }

    /// Gives `u` its part in the combat showdown (RB3).
    pub fn set_role(&mut self, u: UnitId, role: Role) {
        self.role[u.i()] = role;
        if role != Role::None {
            self.log(EventKind::RoleAssigned, u, i32::from(role == Role::Defender), "RB3");
        }
    }

    /// Stuns `u` for the rest of the turn (RB47; a recall keeps it, RB18).
    pub fn stun(&mut self, u: UnitId) {
        if self.alive[u.i()] {
            self.stunned[u.i()] = true;
            self.log(EventKind::Stunned, u, 1, "RB47");
        }
    }

    /// Readies `u` (an effect's "ready me"): a unit already ready stays so.
    pub fn ready(&mut self, u: UnitId) {
        if self.alive[u.i()] {
            self.exhausted[u.i()] = false;
            self.log(EventKind::Readied, u, 1, "383");
        }
    }

    /// Recalls `u` to its base: no move (RB43), and since the base is on
    /// the board as the battlefield is, every modification stays with it —
    /// Buffs (RB4), "this turn" changes (RB18), Boosts and decreases (RB31:
    /// only a change to or from a zone off the board removes them). `heal`
    /// clears its damage (Hourglass, RB4; Sett's legend, RB18); `exhaust`
    /// leaves it exhausted (Hourglass, RB4).
    pub fn recall(&mut self, u: UnitId, heal: bool, exhaust: bool) {
        let i = u.i();
        if !self.alive[i] {
            return;
        }
        if heal && self.damage[i] > 0 {
            self.damage[i] = 0;
            self.log(EventKind::Healed, u, 0, "RB18");
        }
        self.at_base[i] = true;
        self.exhausted[i] |= exhaust;
        self.log(EventKind::Recalled, u, i32::from(exhaust), "RB43");
    }

    /// `u` goes back to its owner's hand: it leaves the board, so every
    /// modification ends, and its gear falls off and stays at the base
    /// (RB30).
    pub fn return_to_hand(&mut self, u: UnitId) {
        let i = u.i();
        if !self.alive[i] {
            return;
        }
        self.leave_board(u);
        self.gone[i] = Gone::Hand;
        let owner = self.owner[i];
        self.returned[usize::from(owner)] += u32::from(!self.token[i]);
        self.log(EventKind::ReturnedToHand, u, i32::from(owner), "RB30");
    }

    /// Takes one Buff off `u` (RB31: Sett's revival takes the Buff and
    /// leaves every Boost); nothing when it has none. Returns whether one
    /// came off: a Buff spent as a cost (Monastery of Hirana, RB27).
    pub fn remove_buff(&mut self, u: UnitId) -> bool {
        let i = u.i();
        if !self.alive[i] || self.buffs[i] == 0 {
            return false;
        }
        self.buffs[i] -= 1;
        self.log(EventKind::BuffRemoved, u, self.buffs[i], "RB31");
        true
    }

    /// The unit's calculated Might: printed, plus its Buffs, its gear, its
    /// Assault while attacking and Shield while defending (RB3), the
    /// battlefield's while it is there (RB24), its
    /// auras' increases, then every decrease (RB24: increases before
    /// decreases, which the sum leaves unchanged and a floored decrease
    /// reads when it resolves). It may be negative (RB35).
    pub fn calculated_might(&self, u: UnitId) -> i32 {
        let i = u.i();
        // A card off the board keeps no modification (RB30, RB31), nor the
        // battlefield's Might or an aura: its Might is the printed one.
        if !self.alive[i] {
            return self.printed[i];
        }
        // Summed wide and clamped: a scenario may print any i32.
        let mods: i64 = self.modifiers[i][..usize::from(self.mods_n[i])]
            .iter()
            .flatten()
            .map(|m| i64::from(m.applied))
            .sum();
        let auras: i64 = self.auras[..self.auras_n]
            .iter()
            .flatten()
            .filter(|a| a.target == u && self.alive[a.source.i()])
            .map(|a| i64::from(a.amount))
            .sum();
        let gear: i64 = self.gear[i].iter().flatten().map(|g| i64::from(g.might)).sum();
        let role = match self.role[i] {
            Role::Attacker => self.assault[i],
            Role::Defender => self.shield[i],
            Role::None => 0,
        };
        let site = if self.at_base[i] { 0 } else { self.field_might };
        let passives = if self.passives == 0 { 0 } else { self.passive_might(i) };
        let sum = i64::from(self.printed[i])
            + i64::from(self.buffs[i])
            + gear
            + i64::from(role)
            + i64::from(site)
            + auras
            + passives
            + mods;
        sum.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// What the passive abilities on the board give unit `i`: those of
    /// its controller's units where it is (its battlefield, or its base),
    /// its own among them ("here" is where the unit with the ability is).
    fn passive_might(&self, i: usize) -> i64 {
        let mut sum = 0;
        let mut bits = self.passives;
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let with = self.alive[s] && self.controller[s] == self.controller[i] && self.at_base[s] == self.at_base[i];
            sum += match self.passive[s] {
                _ if !with => 0,
                Some(Passive::OthersHere(n)) if s != i => i64::from(n),
                Some(Passive::OtherBuffedHere(n)) if s != i && self.buffs[i] > 0 => i64::from(n),
                Some(Passive::PerBuffedHere(n)) if s == i && !self.at_base[i] => {
                    let buffed = (0..self.count)
                        .filter(|&v| {
                            self.alive[v]
                                && self.buffs[v] > 0
                                && self.controller[v] == self.controller[i]
                                && !self.at_base[v]
                        })
                        .count();
                    i64::from(n) * buffed as i64
                }
                _ => 0,
            };
        }
        sum
    }

    /// The Might the game reads ("what Might are you"): never below 0
    /// (RB35). A unit deals this in combat (RB1: its Might, not its Might
    /// less its damage).
    pub fn might(&self, u: UnitId) -> i32 {
        self.calculated_might(u).max(0)
    }

    /// Marks `amount` damage on `u`. Its Might does not change (RB1), and
    /// nothing dies until a cleanup checks (RB34).
    pub fn deal_damage(&mut self, u: UnitId, amount: i32) {
        let i = u.i();
        if !self.alive[i] || amount <= 0 {
            return;
        }
        self.damage[i] = self.damage[i].saturating_add(amount);
        self.log(EventKind::Damaged, u, self.damage[i], "RB1");
    }

    /// A Buff: one more Might until something removes it; damage never
    /// does (RB4). A unit that has one already is a legal target, but the
    /// Buff fails to apply (RB27). Returns whether it applied.
    pub fn buff(&mut self, u: UnitId) -> bool {
        let i = u.i();
        if !self.alive[i] || self.buffs[i] >= MAX_BUFFS {
            return false;
        }
        self.buffs[i] += 1;
        self.log(EventKind::MightChanged, u, 1, "RB4");
        true
    }

    /// A Might change resolving now (RB36): applied once to the unit as it
    /// is, never re-read. With `minimum`, a decrease stops there, and what
    /// it was able to apply is what it keeps (RB38); a change with none may
    /// take the Might below 0 (RB35). Returns what it applied; 0 when the
    /// unit already holds as many modifiers as it can.
    pub fn modify(&mut self, u: UnitId, amount: i32, minimum: Option<i32>, lasts: Lasts) -> i32 {
        let i = u.i();
        if !self.alive[i] {
            return 0;
        }
        let now = self.calculated_might(u);
        let applied = match minimum {
            Some(floor) if amount < 0 => amount.max(floor.saturating_sub(now).min(0)),
            _ => amount,
        };
        let Some(k) = self.modifiers[i].iter().position(Option::is_none) else {
            return 0;
        };
        self.modifiers[i][k] = Some(Modifier { applied, lasts });
        self.mods_n[i] = self.mods_n[i].max(k as u8 + 1);
        self.log(EventKind::MightChanged, u, applied, "RB38");
        applied
    }

    /// A continuous Might change from `source` to `target` while the
    /// source is on the board (RB24, RB34). `false` when the board holds
    /// as many auras as it can.
    pub fn add_aura(&mut self, source: UnitId, target: UnitId, amount: i32) -> bool {
        let Some(k) = self.auras.iter().position(Option::is_none) else {
            return false;
        };
        self.auras[k] = Some(Aura { source, target, amount });
        self.auras_n = self.auras_n.max(k + 1);
        true
    }

    /// The check a cleanup makes: every unit whose marked damage equals or
    /// exceeds its Might dies, all at once (RB37, RB34), read against the
    /// Might as it stands before any of them leaves. A unit with no damage
    /// marked is not killed by it (docs/riftbound-reconstruction.md). A
    /// gear that replaces the death acts instead (RB9, RB10): the unit
    /// never dies, so it is not among [`Board::deaths`]. A unit that dies
    /// goes to its owner's trash (RB8) and its gear stays at the base
    /// (RB30). Returns how many died.
    pub fn kill_lethal(&mut self) -> usize {
        let mut dying = [false; MAX_UNITS];
        for (i, d) in dying.iter_mut().enumerate().take(self.count) {
            let u = UnitId(i as u8);
            *d = self.alive[i] && self.damage[i] > 0 && self.damage[i] >= self.might(u);
        }
        self.deaths_n = 0;
        for (i, &d) in dying.iter().enumerate().take(self.count) {
            if d {
                self.kill(UnitId(i as u8), "RB37");
            }
        }
        self.deaths_n
    }

    /// Kills `u` (lethal damage, or an effect that kills): a gear that
    /// replaces the death acts instead (RB9, RB10), and the unit never
    /// dies; otherwise it leaves the board for its owner's trash (RB8), its
    /// gear stays at the base (RB30), and it is added to
    /// [`Board::deaths`]. Returns whether it died.
    pub fn kill(&mut self, u: UnitId, ruling: &'static str) -> bool {
        let i = u.i();
        if !self.alive[i] {
            return false;
        }
        let saving = self.gear[i]
            .iter()
            .position(|g| g.is_some_and(|g| g.replacement.is_some()));
        match saving.and_then(|k| self.gear[i][k].map(|g| (k, g))) {
            Some((k, g)) if g.replacement == Some(Replacement::RecallHealed) => {
                // Zhonya's: the unit stays on the board, healed at its
                // base; the Hourglass is spent.
                self.gear[i][k] = None;
                self.trash[usize::from(self.owner[i])] += 1;
                self.log(EventKind::Saved, u, 0, "RB9");
                self.recall(u, true, false);
                false
            }
            Some(_) => {
                // Guardian Angel: to the top of the deck, gear and all.
                let owner = usize::from(self.owner[i]);
                let held = self.gear[i].iter().flatten().count() as u32;
                self.gear[i] = [None; MAX_GEAR];
                self.leave_board(u);
                self.gone[i] = Gone::DeckTop;
                self.deck_top[owner] += u32::from(!self.token[i]) + held;
                self.log(EventKind::Saved, u, 1, "RB10");
                false
            }
            None if self.buffs[i] > 0 && self.legend_save[usize::from(self.controller[i])] => {
                // Sett's Legend: the Buff spent, the unit recalled and
                // healed (RB18, RB31); it never died, so no Deathknell
                // (RB9). The Legend is exhausted: no second save.
                self.legend_save[usize::from(self.controller[i])] = false;
                self.remove_buff(u);
                self.log(EventKind::Saved, u, 2, "167.7");
                self.recall(u, true, false);
                false
            }
            None => {
                self.leave_board(u);
                self.gone[i] = Gone::Trash;
                self.trash[usize::from(self.owner[i])] += u32::from(!self.token[i]);
                if self.deaths_n < MAX_UNITS {
                    self.deaths[self.deaths_n] = u;
                    self.deaths_n += 1;
                }
                self.log(EventKind::Died, u, self.damage[i], ruling);
                true
            }
        }
    }

    /// Kills `u` by an effect's instruction (Baited Hook's, RB48): the
    /// deaths list holds it alone, so its Deathknell is made at once,
    /// before the effect's next instruction. Returns whether it died.
    pub fn destroy(&mut self, u: UnitId) -> bool {
        self.deaths_n = 0;
        self.kill(u, "RB48")
    }

    /// Makes `u` a token (179): once it leaves the board no zone counts it.
    pub fn set_token(&mut self, u: UnitId) {
        self.token[u.i()] = true;
    }

    /// Makes `u` Temporary: killed at the start of each beginning phase
    /// (RB15).
    pub fn set_temporary(&mut self, u: UnitId) {
        self.temporary[u.i()] = true;
    }

    /// The start of a beginning phase: Temporary triggers once for each
    /// Temporary unit and kills it (RB15). A death prevented here is not
    /// tried again before the next beginning phase: nothing else kills a
    /// Temporary unit for being Temporary. Returns how many died.
    pub fn beginning_phase(&mut self) -> usize {
        self.deaths_n = 0;
        for i in 0..self.count {
            if self.alive[i] && self.temporary[i] {
                self.kill(UnitId(i as u8), "RB15");
            }
        }
        self.deaths_n
    }

    /// Recycles `u`: to the bottom of its owner's deck, off the board, so
    /// its gear detaches and stays at the base (RB29).
    pub fn recycle(&mut self, u: UnitId) {
        let i = u.i();
        if !self.alive[i] {
            return;
        }
        self.leave_board(u);
        self.gone[i] = Gone::DeckBottom;
        let owner = self.owner[i];
        self.recycled[usize::from(owner)] += 1;
        self.log(EventKind::Recycled, u, i32::from(owner), "RB29");
    }

    /// Banishes `u`: off the board to its owner's banishment, so its
    /// modifications end and its gear detaches and stays at the base, as
    /// when it dies or goes back to hand (RB29, RB30).
    pub fn banish(&mut self, u: UnitId) {
        let i = u.i();
        if !self.alive[i] {
            return;
        }
        self.leave_board(u);
        self.gone[i] = Gone::Banished;
        let owner = self.owner[i];
        self.banished[usize::from(owner)] += 1;
        self.log(EventKind::Banished, u, i32::from(owner), "RB30");
    }

    /// Combat cleanup: the lethal check, then, as one step, every unit's
    /// damage cleared and every Boost ended (RB34: step 2, then 2a; RB25:
    /// the heal and the end of a Boost together, so a Boost's loss kills
    /// no one). No check follows until the next cleanup (RB34).
    pub fn combat_cleanup(&mut self) {
        self.kill_lethal();
        self.heal_all("RB34");
        self.end_modifiers(Lasts::Combat);
    }

    /// The end of the turn: marked damage clears (RB1), "this turn"
    /// modifiers and Stun end, with any Boost still running.
    pub fn end_turn(&mut self) {
        self.heal_all("RB1");
        self.end_modifiers(Lasts::Combat);
        self.end_modifiers(Lasts::Turn);
        self.stunned[..self.count].fill(false);
    }

    /// Assigns `total` combat damage to `order`, each in turn taking what
    /// is lethal to it — its Might less the damage already marked, at
    /// least 1 (RB42) — before the next takes any; what is left after
    /// the last is lethal goes to the last. Writes each unit's share into
    /// `shares` (as long as `order`) and deals nothing: combat damage is
    /// dealt by both sides at once.
    pub fn assign_combat_damage(&self, total: i32, order: &[UnitId], shares: &mut [i32]) {
        let mut left = total.max(0);
        for (k, &u) in order.iter().enumerate() {
            let lethal = (self.might(u) - self.damage(u)).max(1);
            let share = if k + 1 == order.len() { left } else { left.min(lethal) };
            shares[k] = share;
            left -= share;
        }
    }

    /// Debug-build checks of the board's invariants (TigerBeetle's way):
    /// a dead unit holds no gear, Buff or role, a living one at most one
    /// Buff (RB27) and its own owner's
    /// or a player's control, and the counts stay within their limits.
    pub fn check_invariants(&self) {
        debug_assert!(self.count <= MAX_UNITS);
        debug_assert!(self.deaths_n <= self.count);
        debug_assert!(self.hidden_len.iter().all(|&n| n <= MAX_HIDDEN));
        for i in 0..self.count {
            debug_assert!(self.owner[i] < 2 && self.controller[i] < 2, "unit {i}: no such player");
            if !self.alive[i] {
                debug_assert!(
                    self.gear[i].iter().all(Option::is_none),
                    "unit {i}: gear on a unit gone"
                );
                debug_assert_eq!(self.buffs[i], 0, "unit {i}: a Buff on a unit gone");
            }
            debug_assert!(
                (0..=MAX_BUFFS).contains(&self.buffs[i]),
                "unit {i}: Buffs past the limit"
            );
            debug_assert!(self.damage[i] >= 0, "unit {i}: negative damage");
        }
    }

    /// A unit leaves the board (dies, goes to hand or deck): its
    /// modifications end (RB31) and its gear stays at the base (RB29,
    /// RB30).
    fn leave_board(&mut self, u: UnitId) {
        let i = u.i();
        let gear = self.gear[i].iter().flatten().count() as u32;
        self.base_gear[usize::from(self.controller[i])] += gear;
        self.gear[i] = [None; MAX_GEAR];
        self.modifiers[i] = [None; MAX_MODIFIERS];
        self.mods_n[i] = 0;
        // A Buff is a modification too: a card off the board has none.
        self.buffs[i] = 0;
        self.alive[i] = false;
        self.role[i] = Role::None;
    }

    fn heal_all(&mut self, ruling: &'static str) {
        for i in 0..self.count {
            if self.alive[i] && self.damage[i] > 0 {
                self.damage[i] = 0;
                self.log(EventKind::Healed, UnitId(i as u8), 0, ruling);
            }
        }
    }

    fn end_modifiers(&mut self, lasts: Lasts) {
        for (mods, &n) in self.modifiers.iter_mut().zip(&self.mods_n).take(self.count) {
            for m in &mut mods[..usize::from(n)] {
                if m.is_some_and(|m| m.lasts == lasts) {
                    *m = None;
                }
            }
        }
    }

    /// Writes a line about a unit, when the log is on.
    pub fn log(&mut self, kind: EventKind, unit: UnitId, amount: i32, ruling: &'static str) {
        self.log_line(kind, Some(unit), amount, ruling);
    }

    /// Writes any line, when the log is on.
    pub fn log_line(&mut self, kind: EventKind, unit: Option<UnitId>, amount: i32, ruling: &'static str) {
        if self.logging {
            self.log.push(Event {
                kind,
                unit,
                amount,
                ruling,
            });
        }
    }
}

#[cfg(test)]
mod tests;
