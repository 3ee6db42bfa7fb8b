//! The exact number of solutions of one puzzle, with an optional cap and a
//! budget: what `sudoflow count` computes for each record.
//!
//! Counting runs [`crate::solver`]'s search to exhaustion (`limit` = the cap,
//! or `u64::MAX`): every solution is found and counted once, as an integer.
//! The statuses:
//!
//! | status       | meaning                                   | `solutions`               |
//! |--------------|-------------------------------------------|---------------------------|
//! | `unique`     | exactly one solution                      | 1                         |
//! | `multiple`   | two or more, counted exactly              | the exact count           |
//! | `unsolvable` | no solution                               | 0                         |
//! | `capped`     | the cap (`--max N`) was reached           | N, meaning N or more      |
//! | `timeout`    | the budget ran out first                  | found so far, lower bound |
//! | `invalid`    | not a puzzle (bad length/character, clash)| empty                     |
//!
//! The cap follows `solve --limit N`'s convention: the search stops at the
//! N-th solution, so a count that reached the cap is written as N and means
//! "N or more" (a record with exactly N solutions is `capped` too); counts
//! below the cap are exact.
//!
//! The budget is counted in search nodes ([`crate::work`]), so a count
//! that runs out does so at the same node, with the same lower bound, on
//! any machine under any load; only the optional wall-clock limit makes
//! it depend on the machine.

use crate::grid::{Grid, Pencilmarks};
use crate::solver::{Outcome, SolveOptions, Solver};
use crate::work::Budget;

/// Options of a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CountOptions {
    /// Stop once this many solutions are found (`--max`): the count then
    /// means "this many or more"; `None` counts all of them.
    pub max: Option<u64>,
    /// Give up on a record past this budget (search nodes, and optionally
    /// wall time: `--time-budget`, `--wall-limit`; see
    /// [`SolveOptions::budget`]).
    pub budget: Budget,
}

impl CountOptions {
    /// The solver options that implement these counting options.
    pub fn solve_options(&self) -> SolveOptions {
        SolveOptions {
            limit: self.max.unwrap_or(u64::MAX),
            budget: self.budget,
            ..SolveOptions::default()
        }
    }
}

/// The count of one valid puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountResult {
    /// All solutions were counted: 0 (unsolvable), 1 (unique) or more.
    Exact(u64),
    /// The search stopped at [`CountOptions::max`] solutions: holds `max`,
    /// meaning `max` or more.
    Capped(u64),
    /// The budget ran out (or a stop was requested:
    /// [`crate::interrupt::requested`]); holds the solutions found so far.
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
    count_outcome(solver, opts, puzzle).map(|(count, _)| count)
}

/// [`count_record`], with the search's [`Outcome`] (its guesses, for the
/// diagnosis of an unsolvable puzzle: [`crate::solver::why_unsolvable`]).
///
/// Errors: as [`count_record`].
pub fn count_outcome(
    solver: &mut Solver,
    opts: &CountOptions,
    puzzle: &Grid,
) -> Result<(CountResult, Outcome), String> {
    puzzle.check_givens().map_err(|e| e.to_string())?;
    let outcome = solver.solve(puzzle);
    Ok((classify(opts, &outcome), outcome))
}

/// Counts the solutions of a puzzle given by its candidates
/// ([`Solver::solve_pencilmarks`]). Cells with one candidate that clash
/// leave no solution: the count is then 0 (`unsolvable`), not an error.
pub fn count_pencilmarks(
    solver: &mut Solver,
    opts: &CountOptions,
    pencilmarks: &Pencilmarks,
) -> CountResult {
    count_pencilmarks_outcome(solver, opts, pencilmarks).0
}

/// [`count_pencilmarks`], with the search's [`Outcome`].
pub fn count_pencilmarks_outcome(
    solver: &mut Solver,
    opts: &CountOptions,
    pencilmarks: &Pencilmarks,
) -> (CountResult, Outcome) {
    let outcome = solver.solve_pencilmarks(pencilmarks).0;
    (classify(opts, &outcome), outcome)
}

/// The result a finished search stands for.
fn classify(opts: &CountOptions, out: &Outcome) -> CountResult {
    if out.timed_out {
        CountResult::Timeout(out.solutions)
    } else if opts.max.is_some_and(|m| out.solutions >= m) {
        CountResult::Capped(out.solutions)
    } else {
        CountResult::Exact(out.solutions)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_stops_at_the_cap() {
        let limit = |max| {
            CountOptions {
                max,
                budget: Budget::NONE,
            }
            .solve_options()
            .limit
        };
        assert_eq!(limit(None), u64::MAX);
        assert_eq!(limit(Some(5)), 5);
        assert_eq!(limit(Some(u64::MAX)), u64::MAX);
    }

    #[test]
    fn statuses_and_clashes() {
        let opts = CountOptions {
            max: Some(3),
            budget: Budget::NONE,
        };
        let mut solver = Solver::new(opts.solve_options());
        // First row 1-9, the rest blank: far more than 3 solutions.
        let open = Grid::parse(&format!("123456789{}", ".".repeat(72))).unwrap();
        let capped = count_record(&mut solver, &opts, &open).unwrap();
        assert_eq!((capped.status(), capped.solutions()), ("capped", 3));
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
