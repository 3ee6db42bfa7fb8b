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

use crate::grid::{Grid, Pencilmarks};
use crate::solver::{Outcome, SolveOptions, Solver};
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
    Ok(classify(opts, &solver.solve(puzzle)))
}

/// Counts the solutions of a puzzle given by its candidates
/// ([`Solver::solve_pencilmarks`]). Cells with one candidate that clash
/// leave no solution: the count is then 0 (`unsolvable`), not an error.
pub fn count_pencilmarks(
    solver: &mut Solver,
    opts: &CountOptions,
    pencilmarks: &Pencilmarks,
) -> CountResult {
    classify(opts, &solver.solve_pencilmarks(pencilmarks).0)
}

/// The result a finished search stands for.
fn classify(opts: &CountOptions, out: &Outcome) -> CountResult {
    if out.timed_out {
        CountResult::Timeout(out.solutions)
    } else if opts.max.is_some_and(|m| out.solutions > m) {
        CountResult::Capped(out.solutions)
    } else {
        CountResult::Exact(out.solutions)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_is_counted_one_past() {
        let limit = |max| {
            CountOptions {
                max,
                time_budget: None,
            }
            .solve_options()
            .limit
        };
        assert_eq!(limit(None), u64::MAX);
        assert_eq!(limit(Some(5)), 6);
        assert_eq!(limit(Some(u64::MAX)), u64::MAX);
    }

    #[test]
    fn statuses_and_clashes() {
        let opts = CountOptions {
            max: Some(3),
            time_budget: None,
        };
        let mut solver = Solver::new(opts.solve_options());
        // First row 1-9, the rest blank: far more than 3 solutions.
        let open = Grid::parse(&format!("123456789{}", ".".repeat(72))).unwrap();
        let capped = count_record(&mut solver, &opts, &open).unwrap();
        assert_eq!((capped.status(), capped.solutions()), ("capped", 4));
        let clash = Grid::parse(&format!("11{}", ".".repeat(79))).unwrap();
        assert_eq!(
            count_record(&mut solver, &opts, &clash),
            Err("duplicate 1 in row 1: r1c1, r1c2".to_string())
        );
        assert_eq!(CountResult::Exact(0).status(), "unsolvable");
        assert_eq!(CountResult::Exact(1).status(), "unique");
        assert_eq!(CountResult::Exact(7).status(), "multiple");
        assert_eq!(CountResult::Timeout(9).solutions(), 9);
    }
}
