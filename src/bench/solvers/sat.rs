//! `sat`: Sudoku as CNF, solved by the varisat SAT solver (cargo feature
//! `sat`; ALGORITHMS.md section 6).
//!
//! Variable `9 * cell + d - 1` (0..729) is true iff cell `cell` holds digit
//! `d`. Clauses: each cell holds at least one digit; at most one digit per
//! cell, and each digit at most once per row, column and box (pairwise
//! "not both" clauses); each digit at least once per unit (redundant, it
//! helps propagation); one unit clause per given.
//!
//! Counting up to the limit: after each model, add the blocking clause "not
//! all of this solution's 81 true variables" and solve again. varisat has no
//! time limit, so the per-puzzle budget is only checked between solves; one
//! Sudoku solve takes milliseconds.

use crate::bench::{Answer, BenchSolver, Settings};
use crate::grid::{Grid, UNITS};
use std::time::{Duration, Instant};
use varisat::{ExtendFormula, Lit, Var};

/// The CNF encoding through varisat.
pub struct Sat {
    budget: Option<Duration>,
}

impl Sat {
    /// A solver with `settings`' time budget.
    pub fn new(settings: &Settings) -> Sat {
        Sat {
            budget: settings.time_budget,
        }
    }
}

fn lit(cell: usize, d: usize) -> Lit {
    Lit::from_var(Var::from_index(9 * cell + d), true)
}

impl BenchSolver for Sat {
    fn name(&self) -> &str {
        "sat"
    }

    fn solve(&mut self, puzzle: &Grid, limit: u64) -> Answer {
        let deadline = self.budget.map(|b| Instant::now() + b);
        let mut solver = varisat::Solver::new();
        for cell in 0..81 {
            let any: Vec<Lit> = (0..9).map(|d| lit(cell, d)).collect();
            solver.add_clause(&any);
            for a in 0..9 {
                for b in a + 1..9 {
                    solver.add_clause(&[!lit(cell, a), !lit(cell, b)]);
                }
            }
        }
        for unit in &UNITS {
            for d in 0..9 {
                let somewhere: Vec<Lit> = unit.iter().map(|&c| lit(c as usize, d)).collect();
                solver.add_clause(&somewhere);
                for i in 0..9 {
                    for j in i + 1..9 {
                        solver.add_clause(&[!somewhere[i], !somewhere[j]]);
                    }
                }
            }
        }
        for (cell, &d) in puzzle.cells().iter().enumerate() {
            if d != 0 {
                solver.add_clause(&[lit(cell, d as usize - 1)]);
            }
        }
        let mut found: Vec<Grid> = Vec::new();
        while (found.len() as u64) < limit.max(1) {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Answer {
                    solution: found.first().copied(),
                    timed_out: true,
                    ..Answer::UNKNOWN
                };
            }
            match solver.solve() {
                Ok(true) => {}
                Ok(false) => break,
                Err(_) => {
                    return Answer {
                        solution: found.first().copied(),
                        timed_out: true,
                        ..Answer::UNKNOWN
                    }
                }
            }
            let model = solver.model().unwrap_or_default();
            let mut cells = [0u8; 81];
            for l in model.iter().filter(|l| l.is_positive()) {
                let i = l.var().index();
                if i < 729 {
                    cells[i / 9] = (i % 9) as u8 + 1;
                }
            }
            // Every cell has an "at least one digit" clause, so a model fills
            // all 81; anything else would be a solver bug: claim nothing.
            let Some(grid) = Grid::from_cells(cells).filter(Grid::is_complete) else {
                return Answer::UNKNOWN;
            };
            let block: Vec<Lit> = (0..81)
                .map(|cell| !lit(cell, grid.get(cell) as usize - 1))
                .collect();
            solver.add_clause(&block);
            found.push(grid);
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
        testkit::check_complete(&mut Sat::new(&Settings { time_budget: None }));
    }
}
