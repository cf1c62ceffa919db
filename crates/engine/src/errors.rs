//! Why the engine refuses a request: a fight that cannot be set up as
//! asked, and a broken invariant. The callers above print them; a
//! scenario reports them as a failed step.

use std::fmt;

use gridsim_model::spec::Side;

use super::MAX_UNITS;

/// Why a fight could not be set up as asked (`Engine::begin`,
/// `Engine::resume`, `Engine::set_initial_state`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartError {
    /// More units than one fight holds; `begin` places those that fit.
    TooManyUnits,
    /// A starting state set once the battle has started.
    AfterBattleStart,
    /// A starting state for a unit the fight does not have.
    NoSuchUnit(usize),
    /// A side handed to `resume` on the other hand.
    WrongSide { side: Side, as_side: Side },
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::TooManyUnits => write!(f, "more than {MAX_UNITS} units in one fight"),
            StartError::AfterBattleStart => write!(f, "a unit's starting state is set before the battle starts"),
            StartError::NoSuchUnit(u) => write!(f, "no unit {u} in this fight"),
            StartError::WrongSide { side, as_side } => {
                write!(f, "a {side:?} side cannot continue as the {as_side:?} side")
            }
        }
    }
}

impl std::error::Error for StartError {}

/// A consistency check of `Engine::check_invariants` that failed: what
/// does not hold, with the unit and the numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Broken(pub String);

impl fmt::Display for Broken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Broken {}
