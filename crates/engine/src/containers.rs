//! Fixed-capacity containers the unit columns hold: no allocation in a
//! fight. Unit indices and lists, Burn/Venom applier shares, timed sets
//! (Fleeting buffs, Hallow instances) and Crush windows.

use super::arith::earlier;
use super::*;

/// A unit's index in the fight's columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct UnitIdx(pub u8);

impl UnitIdx {
    pub const NONE: UnitIdx = UnitIdx(u8::MAX);
    /// The column index. Masked so the compiler knows it is in bounds;
    /// indexing with `NONE` is a bug, caught by the assertion in builds
    /// with debug assertions.
    #[inline]
    pub fn i(self) -> usize {
        debug_assert!(
            (self.0 as usize) < MAX_UNITS,
            "unit index {} used as a column index",
            self.0
        );
        self.0 as usize & (MAX_UNITS - 1)
    }
    pub fn is_none(self) -> bool {
        self == UnitIdx::NONE
    }
    pub fn get(self) -> Option<UnitIdx> {
        if self.is_none() { None } else { Some(self) }
    }
}

/// A fixed-capacity list of units that never allocates.
#[derive(Clone, Copy)]
pub struct UnitList {
    pub(super) len: u8,
    pub(super) items: [UnitIdx; MAX_UNITS],
}

impl Default for UnitList {
    fn default() -> Self {
        UnitList {
            len: 0,
            items: [UnitIdx::NONE; MAX_UNITS],
        }
    }
}

impl UnitList {
    pub fn push(&mut self, u: UnitIdx) {
        if (self.len as usize) < MAX_UNITS {
            self.items[self.len as usize] = u;
            self.len += 1;
        }
    }
    pub fn as_slice(&self) -> &[UnitIdx] {
        &self.items[..self.len as usize]
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn remove_at(&mut self, i: usize) -> UnitIdx {
        let u = self.items[i];
        self.items.copy_within(i + 1..self.len as usize, i);
        self.len -= 1;
        u
    }
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

/// One running Crush reduction (800.12a).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CrushWindow {
    pub amount: i32,
    pub expires_ms: i32,
    /// The Tool whose Crush this is, or NONE: a Tool's Crush on one enemy
    /// replaces its own earlier window (800.12e).
    pub key: UnitIdx,
}

/// Who applied how much of a unit's Burn or Venom stack, so each tick's
/// Feast can be split between them in proportion (800.22g). The parts add
/// up to the stack; when the stack decays, every part decays in proportion.
#[derive(Debug, Clone, Copy)]
pub struct ApplierShares {
    pub(super) len: u8,
    pub(super) parts: [(UnitIdx, i32); MAX_APPLIERS],
}

impl Default for ApplierShares {
    fn default() -> Self {
        ApplierShares {
            len: 0,
            parts: [(UnitIdx::NONE, 0); MAX_APPLIERS],
        }
    }
}

impl ApplierShares {
    pub fn running(&self) -> &[(UnitIdx, i32)] {
        &self.parts[..self.len as usize]
    }
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// `amount` more from `applier`. Past the capacity, a new applier takes
    /// the smallest part's place, and that part's amount joins its own, so
    /// the parts still add up to the stack.
    pub fn add(&mut self, applier: UnitIdx, amount: i32) {
        if amount <= 0 {
            return;
        }
        let len = self.len as usize;
        if let Some(p) = self.parts[..len].iter_mut().find(|p| p.0 == applier) {
            p.1 = p.1.saturating_add(amount);
        } else if len < MAX_APPLIERS {
            self.parts[len] = (applier, amount);
            self.len += 1;
        } else if let Some(p) = self.parts.iter_mut().min_by_key(|p| p.1) {
            *p = (applier, p.1.saturating_add(amount));
        }
    }
    /// Scales every part from a stack of `from` to one of `to` (rounded
    /// down, the remainder to the largest part), dropping parts at 0.
    pub fn rescale(&mut self, from: i32, to: i32) {
        if from <= 0 || to <= 0 {
            self.clear();
            return;
        }
        let mut sum = 0i64;
        for p in self.parts[..self.len as usize].iter_mut() {
            p.1 = (i64::from(p.1) * i64::from(to) / i64::from(from)) as i32;
            sum += i64::from(p.1);
        }
        let rest = (i64::from(to) - sum).max(0) as i32;
        if let Some(p) = self.parts[..self.len as usize].iter_mut().max_by_key(|p| p.1) {
            p.1 += rest;
        }
        let mut kept = 0;
        for k in 0..self.len as usize {
            if self.parts[k].1 > 0 {
                self.parts[kept] = self.parts[k];
                kept += 1;
            }
        }
        self.len = kept as u8;
    }
    /// Every applier passed through `map`: an applier with no place in the
    /// new fight (`NONE`) keeps its part, so the parts still add up to the
    /// stack, and is credited with nothing (200.2c).
    pub(super) fn remap(&mut self, map: impl Fn(UnitIdx) -> UnitIdx) {
        for p in self.parts[..self.len as usize].iter_mut() {
            p.0 = map(p.0);
        }
    }
    /// `amount` split between the appliers in proportion to their parts,
    /// rounded down, the remainder to the largest part.
    pub fn split(&self, amount: i32) -> [(UnitIdx, i32); MAX_APPLIERS] {
        let mut out = [(UnitIdx::NONE, 0); MAX_APPLIERS];
        let total: i64 = self.running().iter().map(|p| i64::from(p.1)).sum();
        if total <= 0 || amount <= 0 {
            return out;
        }
        let mut given = 0i64;
        let mut largest = 0;
        for (k, p) in self.running().iter().enumerate() {
            let share = i64::from(amount) * i64::from(p.1) / total;
            out[k] = (p.0, share as i32);
            given += share;
            if p.1 > self.parts[largest].1 {
                largest = k;
            }
        }
        out[largest].1 += (i64::from(amount) - given) as i32;
        out
    }
}

/// A record that runs on its own clock: what a [`TimedSet`] holds.
pub trait Timed: Copy {
    /// A blank record for the unused slots.
    const BLANK: Self;
    /// When the record next needs the engine.
    fn next_ms(&self) -> i32;
    /// The record with its time moved `dt` ms earlier.
    fn earlier(self, dt: i32) -> Self;
}

/// A fixed-capacity set of timed records on one unit (Hallow instances,
/// Fleeting buffs), with their earliest `next_ms` kept as one number so the
/// unit's clock reads it without a scan.
#[derive(Debug, Clone, Copy)]
pub struct TimedSet<T: Timed, const N: usize> {
    pub(super) len: u8,
    pub(super) next: i32,
    pub(super) items: [T; N],
}

impl<T: Timed, const N: usize> Default for TimedSet<T, N> {
    fn default() -> Self {
        TimedSet {
            len: 0,
            next: NEVER,
            items: [T::BLANK; N],
        }
    }
}

impl<T: Timed, const N: usize> TimedSet<T, N> {
    pub fn running(&self) -> &[T] {
        &self.items[..self.len as usize]
    }
    /// The earliest `next_ms` of the running records.
    #[inline]
    pub fn next_ms(&self) -> i32 {
        self.next
    }
    /// Adds a record unless `cap` already run; whether it was added.
    pub fn add(&mut self, item: T, cap: usize) -> bool {
        let len = self.len as usize;
        if len >= cap.clamp(1, N) {
            return false;
        }
        self.items[len] = item;
        self.len += 1;
        self.next = self.next.min(item.next_ms());
        true
    }
    pub fn clear(&mut self) {
        self.len = 0;
        self.next = NEVER;
    }
    /// Every record's time moved `dt` ms earlier: the set carried into a
    /// fight whose clock starts `dt` ms after this one's (200.2c).
    pub(super) fn rebase(&mut self, dt: i32) {
        self.update(|item| {
            *item = item.earlier(dt);
            true
        });
    }
    /// Runs `step` on every record in order; a record for which it returns
    /// false is dropped. The earliest `next_ms` is worked out again after.
    pub(super) fn update(&mut self, mut step: impl FnMut(&mut T) -> bool) {
        let mut kept = 0;
        for k in 0..self.len as usize {
            let mut item = self.items[k];
            if step(&mut item) {
                self.items[kept] = item;
                kept += 1;
            }
        }
        self.len = kept as u8;
        self.next = self.running().iter().map(T::next_ms).min().unwrap_or(NEVER);
    }
}

/// One Fleeting stat gain: its stat, the amount it started with, the
/// seconds it has decayed, and its next second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FleetingBuff {
    pub stat: u8,
    pub original: i32,
    pub seconds: u8,
    pub next_ms: i32,
}

impl Timed for FleetingBuff {
    const BLANK: Self = FleetingBuff {
        stat: 0,
        original: 0,
        seconds: 0,
        next_ms: NEVER,
    };
    fn next_ms(&self) -> i32 {
        self.next_ms
    }
    fn earlier(self, dt: i32) -> Self {
        FleetingBuff {
            next_ms: earlier(self.next_ms, dt),
            ..self
        }
    }
}

/// The Fleeting buffs decaying on one unit.
pub type FleetingBuffs = TimedSet<FleetingBuff, MAX_FLEETING_BUFFS>;

impl FleetingBuffs {
    /// Decays every buff due at `now` by one step of `steps`: writes each
    /// one's `(stat, loss)` to `losses` and returns how many; the loss after
    /// `k` steps adds up to `original x k / steps`, rounded down, so the
    /// last step takes whatever is left. A buff that took its last step ends.
    pub(super) fn tick(
        &mut self,
        now: i32,
        tick_ms: i32,
        steps: i32,
        losses: &mut [(u8, i32); MAX_FLEETING_BUFFS],
    ) -> usize {
        let mut due = 0;
        self.update(|b| {
            if b.next_ms <= now {
                let lost = |s: u8| (i64::from(b.original) * i64::from(s) / i64::from(steps)) as i32;
                let before = lost(b.seconds);
                b.seconds = b.seconds.saturating_add(1);
                losses[due] = (b.stat, lost(b.seconds) - before);
                due += 1;
                b.next_ms = now.saturating_add(tick_ms);
            }
            i32::from(b.seconds) < steps
        });
        due
    }
}

/// One Hallow application on a unit: its current amount and its next tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HallowInstance {
    pub amount: i32,
    pub next_ms: i32,
}

impl Timed for HallowInstance {
    const BLANK: Self = HallowInstance {
        amount: 0,
        next_ms: NEVER,
    };
    fn next_ms(&self) -> i32 {
        self.next_ms
    }
    fn earlier(self, dt: i32) -> Self {
        HallowInstance {
            next_ms: earlier(self.next_ms, dt),
            ..self
        }
    }
}

/// The Hallow instances running on one unit, each its own (800.29c).
pub type HallowInstances = TimedSet<HallowInstance, MAX_HALLOW_INSTANCES>;

impl HallowInstances {
    /// The current amounts added up.
    pub fn total(&self) -> i32 {
        self.running().iter().fold(0i32, |t, h| t.saturating_add(h.amount))
    }
    /// Ticks every instance due at `now`: writes each one's amount to
    /// `heals` (returning how many), keeps `100 - decay` percent of it,
    /// rounded down, drops those left at 0, and schedules the rest `tick_ms`
    /// later.
    pub(super) fn tick(
        &mut self,
        now: i32,
        decay: i32,
        tick_ms: i32,
        heals: &mut [i32; MAX_HALLOW_INSTANCES],
    ) -> usize {
        let mut due = 0;
        self.update(|h| {
            if h.next_ms <= now {
                heals[due] = h.amount;
                due += 1;
                h.amount = (i64::from(h.amount) * i64::from(100 - decay) / 100) as i32;
                h.next_ms = now.saturating_add(tick_ms);
            }
            h.amount > 0
        });
        due
    }
}

/// Crush reductions running on one unit: each its own 2-second window
/// (800.12a, 800.12e). All last equally long, so they expire oldest first;
/// windows are kept sorted by expiry. Each window is one record, so its
/// amount, expiry and key can never drift apart when windows move.
#[derive(Debug, Clone, Copy)]
pub struct CrushWindows {
    pub(super) len: u8,
    /// Sum of the running amounts, kept with every change.
    pub(super) total: i32,
    pub(super) windows: [CrushWindow; MAX_CRUSH_WINDOWS],
}

impl Default for CrushWindows {
    fn default() -> Self {
        CrushWindows {
            len: 0,
            total: 0,
            windows: [CrushWindow {
                amount: 0,
                expires_ms: NEVER,
                key: UnitIdx::NONE,
            }; MAX_CRUSH_WINDOWS],
        }
    }
}

impl CrushWindows {
    pub fn running(&self) -> &[CrushWindow] {
        &self.windows[..self.len as usize]
    }
    pub fn total(&self) -> i32 {
        self.total
    }
    pub fn earliest_expiry(&self) -> i32 {
        if self.len == 0 {
            NEVER
        } else {
            self.windows[0].expires_ms
        }
    }
    pub fn clear(&mut self) {
        self.len = 0;
        self.total = 0;
    }

    /// Adds a window. A keyed window first removes the window of the same
    /// key (800.12e). Past `cap`, the newest window absorbs the amount and
    /// takes the later expiry (see the reconstruction document).
    pub fn add(&mut self, window: CrushWindow, cap: usize) {
        let cap = cap.clamp(1, MAX_CRUSH_WINDOWS);
        if !window.key.is_none()
            && let Some(at) = self.running().iter().position(|w| w.key == window.key)
        {
            self.total -= self.windows[at].amount;
            self.windows.copy_within(at + 1..self.len as usize, at);
            self.len -= 1;
        }
        let len = self.len as usize;
        self.total = self.total.saturating_add(window.amount);
        if len < cap {
            let mut at = len;
            while at > 0 && self.windows[at - 1].expires_ms > window.expires_ms {
                at -= 1;
            }
            self.windows.copy_within(at..len, at + 1);
            self.windows[at] = window;
            self.len += 1;
        } else {
            let last = &mut self.windows[len - 1];
            last.amount = last.amount.saturating_add(window.amount);
            last.expires_ms = last.expires_ms.max(window.expires_ms);
        }
    }

    /// Every window's expiry moved `dt` ms earlier and its key passed
    /// through `map` (a Tool with no place in the new fight leaves its
    /// window unkeyed): the windows carried into a fight whose clock starts
    /// `dt` ms after this one's (200.2c). The order by expiry is kept.
    pub(super) fn rebase(&mut self, dt: i32, map: impl Fn(UnitIdx) -> UnitIdx) {
        for w in self.windows[..self.len as usize].iter_mut() {
            w.expires_ms = earlier(w.expires_ms, dt);
            w.key = map(w.key);
        }
    }

    /// Removes every window whose time is up at `now`; returns the amount
    /// they held.
    pub fn expire(&mut self, now: i32) -> i32 {
        let len = self.len as usize;
        let expired = self.windows[..len].iter().take_while(|w| w.expires_ms <= now).count();
        if expired == 0 {
            return 0;
        }
        let amount: i32 = self.windows[..expired].iter().map(|w| w.amount).sum();
        self.windows.copy_within(expired..len, 0);
        self.len -= expired as u8;
        self.total -= amount;
        amount
    }
}

/// The candidates of a Focus-weighted pick and their weights.
pub(super) struct PickScratch {
    pub(super) pool: [UnitIdx; MAX_UNITS],
    pub(super) weights: [i32; MAX_UNITS],
}

/// What a column of the clock's tickers (`tickers!`, clock.rs) holds:
/// when the keyword next ticks, a way to stop it, and its times moved
/// earlier for a fight that continues this one (200.2c). A bare `i32` is
/// the next tick's absolute time.
pub trait Ticker {
    /// When it next ticks, absolute ms; `NEVER` when it does not.
    fn next_ms(&self) -> i32;
    /// Never ticks again (its unit died).
    fn stop(&mut self);
    /// Every time `dt` ms earlier.
    fn rebase(&mut self, dt: i32);
}

impl Ticker for i32 {
    #[inline]
    fn next_ms(&self) -> i32 {
        *self
    }
    fn stop(&mut self) {
        *self = NEVER;
    }
    fn rebase(&mut self, dt: i32) {
        *self = earlier(*self, dt);
    }
}

impl<T: Timed, const N: usize> Ticker for TimedSet<T, N> {
    #[inline]
    fn next_ms(&self) -> i32 {
        TimedSet::next_ms(self)
    }
    fn stop(&mut self) {
        self.clear();
    }
    fn rebase(&mut self, dt: i32) {
        TimedSet::rebase(self, dt);
    }
}
