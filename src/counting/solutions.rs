//! The exact number of solutions of one puzzle, with an optional cap and a
//! time budget: what `sudoflow count` computes for each record.
//!
//! Counting runs [`crate::solver`]'s search to exhaustion (`limit` = the cap
//! plus one, or `u64::MAX`): every solution is found and counted once, as an
//! integer. The statuses:
//!
//! | status       | meaning                                   | `solutions`               |
//! |--------------|-------------------------------------------|---------------------------|
//! | `unique`     | exactly one solution                      | 1                         |
//! | `multiple`   | two or more, counted exactly              | the exact count           |
//! | `unsolvable` | no solution                               | 0                         |
//! | `capped`     | more than the cap (`--max N`)             | N + 1, a lower bound      |
//! | `timeout`    | the time budget ran out first             | found so far, lower bound |
//! | `invalid`    | not a puzzle (bad length/character, clash)| empty                     |
//!
//! Counting one past the cap tells "exactly N" (reported exactly, as
//! `multiple` or `unique`) from "more than N" (`capped`).

use crate::grid::Grid;
use crate::solver::{SolveOptions, Solver};
use std::time::Duration;

/// Options of a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CountOptions {
    /// Stop once more than this many solutions are found (`--max`); `None`
    /// counts all of them.
    pub max: Option<u64>,
    /// Give up on a record after this much wall time (`--time-budget`).
    pub time_budget: Option<Duration>,
}

impl CountOptions {
    /// The solver options that implement these counting options.
    pub fn solve_options(&self) -> SolveOptions {
        SolveOptions {
            limit: self.max.map_or(u64::MAX, |m| m.saturating_add(1)),
            time_budget: self.time_budget,
            ..SolveOptions::default()
        }
    }
}

/// The count of one valid puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountResult {
    /// All solutions were counted: 0 (unsolvable), 1 (unique) or more.
    Exact(u64),
    /// More than [`CountOptions::max`] solutions; holds the number found
    /// (`max + 1`).
    Capped(u64),
    /// The time budget ran out; holds the solutions found so far.
    Timeout(u64),
}

impl CountResult {
    /// The status column: `unique`, `multiple`, `unsolvable`, `capped` or
    /// `timeout`.
    pub fn status(&self) -> &'static str {
        match *self {
            CountResult::Exact(0) => "unsolvable",
            CountResult::Exact(1) => "unique",
            CountResult::Exact(_) => "multiple",
            CountResult::Capped(_) => "capped",
            CountResult::Timeout(_) => "timeout",
        }
    }

    /// The solutions column: exact, or a lower bound for `capped`/`timeout`.
    pub fn solutions(&self) -> u64 {
        match *self {
            CountResult::Exact(n) | CountResult::Capped(n) | CountResult::Timeout(n) => n,
        }
    }
}

/// Counts the solutions of `puzzle` with a solver built from
/// [`CountOptions::solve_options`] (reuse one solver per thread).
///
/// Errors: the givens clash; the message is the clash, e.g.
/// `duplicate 5 in row 3: r3c2, r3c8`.
pub fn count_record(
    solver: &mut Solver,
    opts: &CountOptions,
    puzzle: &Grid,
) -> Result<CountResult, String> {
    puzzle.check_givens().map_err(|e| e.to_string())?;
    let out = solver.solve(puzzle);
    Ok(if out.timed_out {
        CountResult::Timeout(out.solutions)
    } else if opts.max.is_some_and(|m| out.solutions > m) {
        CountResult::Capped(out.solutions)
    } else {
        CountResult::Exact(out.solutions)
    })
}
