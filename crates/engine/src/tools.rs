//! Tools: effect packages on the five events (800.71c), their gates
//! (800.71e, 800.46), Durability (800.18) and the three-level hoisting of
//! armor setup on the ally-activated pass (900.3).

use super::{ActCtx, Engine, EventKind, UnitIdx, UnitList};
use gridsim_model::ability::{PackageEvent, PackageTiming, StatName};

impl Engine<'_> {
    /// One bit per event and pass a package may listen to, for a side's
    /// `package_mask`: a pass no Tool of the side has a package for costs one
    /// test (five events, each with no timing or one of the three passes).
    pub(crate) fn package_bit(event: PackageEvent, timing: Option<PackageTiming>) -> u32 {
        1 << (event as u32 * 4 + timing.map_or(0, |t| t as u32 + 1))
    }

    /// Runs every package listening to `event` (and `timing`, for the
    /// ally-activated passes). `subject` is the unit the event is about;
    /// `target` the activating ally's target, or the attacker or killer.
    /// Tools worn to 0 are destroyed at the end of the pass (900.34c).
    #[inline]
    pub(crate) fn run_packages(
        &mut self,
        event: PackageEvent,
        timing: Option<PackageTiming>,
        subject: UnitIdx,
        target: UnitIdx,
    ) {
        if i32::from(self.nesting.depth) >= self.rules.limits.trigger_depth {
            return;
        }
        // The side whose Tools listen: the subject's, or for a death the
        // other side (800.71c "an enemy dying").
        let side = match (event, subject.get()) {
            (_, None) => return,
            (PackageEvent::EnemyDied, Some(s)) => self.u.side[s.i()].other(),
            (_, Some(s)) => self.u.side[s.i()],
        };
        if self.package_mask[side.index()] & Self::package_bit(event, timing) == 0 {
            return;
        }
        self.run_side_packages(side, event, timing, subject, target);
    }

    /// The body of `run_packages`, kept out of line so an event no Tool
    /// listens to costs a few tests at the call site.
    #[inline(never)]
    fn run_side_packages(
        &mut self,
        side: gridsim_model::spec::Side,
        event: PackageEvent,
        timing: Option<PackageTiming>,
        subject: UnitIdx,
        target: UnitIdx,
    ) {
        let mut tools = UnitList::default();
        // 900.3c: Tools holding an immediate activation Crush or Smash first.
        let hoist = event == PackageEvent::AllyActivated && timing == Some(PackageTiming::Immediate);
        let passes: &[bool] = if hoist { &[true, false] } else { &[true] };
        let side_tools = self.tools[side.index()];
        for &want_setup in passes {
            for &t in side_tools.as_slice() {
                let j = t.i();
                if !self.u.alive[j] || t == subject {
                    continue;
                }
                if hoist && self.catalog.card(self.u.card[j]).armor_setup_tool != want_setup {
                    continue;
                }
                tools.push(t);
            }
        }
        if tools.is_empty() {
            return;
        }
        self.nesting.depth += 1;
        for &tool in tools.as_slice() {
            self.run_tool(tool, event, timing, subject, target);
        }
        self.nesting.depth -= 1;
        self.destroy_worn_tools(side);
    }

    /// One Tool's packages for the event, in their hoisted order (900.3d).
    pub(crate) fn run_tool(
        &mut self,
        tool: UnitIdx,
        event: PackageEvent,
        timing: Option<PackageTiming>,
        subject: UnitIdx,
        target: UnitIdx,
    ) {
        let catalog = self.catalog;
        let card = self.u.card[tool.i()];
        for package in catalog.packages_of(card) {
            if package.event != event || package.timing != timing {
                continue;
            }
            let i = tool.i();
            if !self.u.alive[i] || (!self.u.permanent[i] && self.u.vitality[i] <= 0) {
                return;
            }
            // 800.71e: adjacency, chance and the Overmatch gate are all
            // checked first, so a rejected package spends nothing.
            if package.adjacent
                && !subject.is_none()
                && event != PackageEvent::EnemyDied
                && !super::geometry::adjacent(self.u.rect[i], self.u.rect[subject.i()])
            {
                continue;
            }
            if let Some(chance) = package.chance_percent
                && !self.rng.chance_percent(chance)
            {
                continue;
            }
            if let Some(stat) = package.overmatch
                && !self.overmatches(subject, target, stat)
            {
                // 800.46b, 900.34b: ties fail, and a failed comparison is free.
                continue;
            }
            let mut ctx = ActCtx::new(tool, target, subject);
            for op in catalog.ops(package.ops) {
                self.resolve_op(op, &mut ctx);
            }
            // 800.18c, 900.3g: the package resolved, so it costs Durability.
            if !self.u.permanent[i] {
                self.u.vitality[i] = (self.u.vitality[i] - self.rules.tool.durability_per_package).max(0);
            }
            self.emit(
                EventKind::PackageResolved,
                tool,
                subject,
                self.u.vitality[i],
                0,
                "800.18c",
            );
        }
    }

    /// Overmatch: the unit (for a Tool, the ally that triggered it) must
    /// have strictly more of the stat than the compared enemy (800.46a,
    /// 800.46b).
    pub(super) fn overmatches(&self, ally: UnitIdx, enemy: UnitIdx, stat: StatName) -> bool {
        if ally.is_none() || enemy.is_none() {
            return false;
        }
        let read = |u: UnitIdx| match stat {
            StatName::Vitality => self.u.vitality[u.i()],
            StatName::Power => self.power(u),
            StatName::Speed => self.speed(u),
            StatName::Armor => self.armor(u),
            StatName::Focus => self.focus(u),
        };
        read(ally) > read(enemy)
    }

    /// Destroys the side's Tools worn to 0, then lets the other Tools hear
    /// it (800.18c, 800.71c). Adjacency-derived stats such as Brute are read
    /// live, so they refresh at once (900.34e).
    pub(crate) fn destroy_worn_tools(&mut self, side: gridsim_model::spec::Side) {
        // The side's Tools in unit order, as placed before this pass.
        let mut tools = self.tool_mask[side.index()];
        while tools != 0 {
            let j = tools.trailing_zeros() as usize;
            tools &= tools - 1;
            let t = UnitIdx(j as u8);
            if self.u.alive[j] && !self.u.permanent[j] && self.u.vitality[j] <= 0 {
                self.kill(t, UnitIdx::NONE, "800.18c");
                self.run_packages(PackageEvent::ToolDepleted, None, t, UnitIdx::NONE);
            }
        }
    }
}
