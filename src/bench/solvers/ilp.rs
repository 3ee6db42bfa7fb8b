//! `ilp`: the 0-1 integer programme of the modelling paper (SEEDS.md section
//! 2, ALGORITHMS.md section 6), solved by good_lp with its pure-Rust microlp
//! back end (cargo feature `ilp`).
//!
//! Variables: `x[9 * cell + d - 1]` = 1 iff cell `cell` (0..81, row-major)
//! holds digit `d`; 729 binaries. Constraints: 324 equalities, each a sum of
//! nine variables equal to 1: one digit per cell, and each digit once per row,
//! per column and per box. Givens fix their variable's lower bound to 1. The
//! objective is a dummy (0), as in the paper.
//!
//! Counting up to the limit: after each solution, add the no-good cut "the 81
//! variables that are 1 in this solution sum to at most 80" and solve again;
//! infeasible means no further solution. Each solve gets what is left of the
//! per-puzzle time budget (microlp's time limit).

use crate::bench::{Answer, BenchSolver, Settings};
use crate::grid::{box_of, col_of, row_of, Grid};
use good_lp::{
    microlp, variable, Expression, ProblemVariables, ResolutionError, Solution, SolverModel,
    Variable, WithTimeLimit,
};
use std::time::{Duration, Instant};

/// The 0-1 integer programme through good_lp + microlp.
pub struct Ilp {
    budget: Option<Duration>,
}

impl Ilp {
    /// A solver with `settings`' time budget.
    pub fn new(settings: &Settings) -> Ilp {
        Ilp {
            budget: settings.time_budget,
        }
    }
}

/// The outcome of one solve of the programme.
enum Step {
    Found(Grid),
    Infeasible,
    OutOfTime,
}

/// Builds the programme for `puzzle` with one no-good cut per grid in
/// `exclude`, and solves it within `time_left`.
fn solve_once(puzzle: &Grid, exclude: &[Grid], time_left: Option<Duration>) -> Step {
    let mut vars = ProblemVariables::new();
    let x: Vec<Variable> = (0..729)
        .map(|i| {
            let (cell, d) = (i / 9, (i % 9) as u8 + 1);
            if puzzle.get(cell) == d {
                vars.add(variable().binary().min(1))
            } else {
                vars.add(variable().binary())
            }
        })
        .collect();
    let mut model = vars.minimise(Expression::from(0)).using(microlp);
    if let Some(t) = time_left {
        model = model.with_time_limit(t.as_secs_f64());
    }
    // Group the 729 variables by the four constraints each belongs to.
    let mut groups: Vec<Vec<Variable>> = (0..324).map(|_| Vec::with_capacity(9)).collect();
    for (i, &v) in x.iter().enumerate() {
        let (cell, d) = (i / 9, i % 9);
        groups[cell].push(v);
        groups[81 + 9 * row_of(cell) + d].push(v);
        groups[162 + 9 * col_of(cell) + d].push(v);
        groups[243 + 9 * box_of(cell) + d].push(v);
    }
    for group in groups {
        let sum: Expression = group.into_iter().sum();
        model.add_constraint(sum.eq(1));
    }
    for grid in exclude {
        let ones: Expression = (0..81)
            .map(|cell| x[9 * cell + grid.get(cell) as usize - 1])
            .sum();
        model.add_constraint(ones.leq(80));
    }
    match model.solve() {
        Ok(solution) => {
            let mut cells = [0u8; 81];
            for (i, &v) in x.iter().enumerate() {
                if solution.value(v) > 0.5 {
                    cells[i / 9] = (i % 9) as u8 + 1;
                }
            }
            match Grid::from_cells(cells) {
                Some(grid) if grid.is_complete() => Step::Found(grid),
                // A time-limited incumbent that is not integral: no answer.
                _ => Step::OutOfTime,
            }
        }
        Err(ResolutionError::Infeasible) => Step::Infeasible,
        Err(_) => Step::OutOfTime,
    }
}

impl BenchSolver for Ilp {
    fn name(&self) -> &str {
        "ilp"
    }

    fn solve(&mut self, puzzle: &Grid, limit: u64) -> Answer {
        let deadline = self.budget.map(|b| Instant::now() + b);
        let mut found: Vec<Grid> = Vec::new();
        while (found.len() as u64) < limit.max(1) {
            let time_left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            if time_left == Some(Duration::ZERO) {
                return Answer {
                    solution: found.first().copied(),
                    timed_out: true,
                    ..Answer::UNKNOWN
                };
            }
            match solve_once(puzzle, &found, time_left) {
                Step::Found(grid) => found.push(grid),
                Step::Infeasible => break,
                Step::OutOfTime => {
                    return Answer {
                        solution: found.first().copied(),
                        timed_out: true,
                        ..Answer::UNKNOWN
                    }
                }
            }
        }
        Answer {
            solutions: Some(found.len() as u64),
            solution: found.first().copied(),
            guesses: None,
            timed_out: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::solvers::testkit;

    #[test]
    fn agrees_with_the_default_solver() {
        testkit::check_complete(&mut Ilp::new(&Settings { time_budget: None }));
    }
}
