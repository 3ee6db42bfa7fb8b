//! `naive`: plain exhaustive backtracking, the modelling paper's "exhaustive"
//! method (SEEDS.md section 2): fill the first empty cell (row-major) with the
//! digits 1 to 9 in order, keep each digit that does not repeat one in the
//! cell's row, column or box, and recurse. No propagation, no ordering.
//!
//! The row, column and box masks (bit `d - 1` = digit `d` present) only make
//! the "does it repeat" test O(1); the search tree is the plain one. It can take
//! minutes on a 17-clue puzzle, so it checks its time budget every 4,096 cells
//! visited.

use crate::bench::{Answer, BenchSolver, Settings};
use crate::grid::{box_of, col_of, row_of, Grid};
use std::time::{Duration, Instant};

/// Plain exhaustive backtracking.
pub struct Naive {
    budget: Option<Duration>,
}

impl Naive {
    /// A solver with `settings`' time budget.
    pub fn new(settings: &Settings) -> Naive {
        Naive {
            budget: settings.time_budget,
        }
    }
}

struct Run {
    cells: [u8; 81],
    /// `rows[r]`, `cols[c]`, `boxes[b]`: bit `d - 1` set when digit `d` is placed there.
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    /// The empty cells of the puzzle, in row-major order.
    empty: Vec<u8>,
    limit: u64,
    found: u64,
    solution: Option<Grid>,
    guesses: u64,
    visits: u64,
    deadline: Option<Instant>,
    timed_out: bool,
}

impl Run {
    fn search(&mut self, k: usize) {
        if k == self.empty.len() {
            self.found += 1;
            if self.solution.is_none() {
                self.solution = Grid::from_cells(self.cells);
            }
            return;
        }
        self.visits += 1;
        if self.visits.is_multiple_of(4096) {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.timed_out = true;
                    return;
                }
            }
        }
        let cell = self.empty[k] as usize;
        let (r, c, b) = (row_of(cell), col_of(cell), box_of(cell));
        let free = !(self.rows[r] | self.cols[c] | self.boxes[b]) & 0x1FF;
        if free.count_ones() >= 2 {
            self.guesses += 1;
        }
        for d in 1..=9u8 {
            let bit = 1u16 << (d - 1);
            if free & bit == 0 {
                continue;
            }
            self.cells[cell] = d;
            self.rows[r] |= bit;
            self.cols[c] |= bit;
            self.boxes[b] |= bit;
            self.search(k + 1);
            self.rows[r] &= !bit;
            self.cols[c] &= !bit;
            self.boxes[b] &= !bit;
            self.cells[cell] = 0;
            if self.found >= self.limit || self.timed_out {
                return;
            }
        }
    }
}

impl BenchSolver for Naive {
    fn name(&self) -> &str {
        "naive"
    }

    fn solve(&mut self, puzzle: &Grid, limit: u64) -> Answer {
        let mut run = Run {
            cells: *puzzle.cells(),
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
            empty: Vec::with_capacity(81),
            limit: limit.max(1),
            found: 0,
            solution: None,
            guesses: 0,
            visits: 0,
            deadline: self.budget.map(|b| Instant::now() + b),
            timed_out: false,
        };
        for (cell, &d) in puzzle.cells().iter().enumerate() {
            if d == 0 {
                run.empty.push(cell as u8);
                continue;
            }
            let bit = 1u16 << (d - 1);
            let (r, c, b) = (row_of(cell), col_of(cell), box_of(cell));
            if (run.rows[r] | run.cols[c] | run.boxes[b]) & bit != 0 {
                // Clashing givens: no solution.
                return Answer {
                    solutions: Some(0),
                    guesses: Some(0),
                    ..Answer::UNKNOWN
                };
            }
            run.rows[r] |= bit;
            run.cols[c] |= bit;
            run.boxes[b] |= bit;
        }
        run.search(0);
        Answer::searched(run.found, run.solution, run.guesses, run.timed_out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::solvers::testkit;

    #[test]
    fn agrees_with_the_default_solver() {
        let settings = Settings { time_budget: None };
        testkit::check_complete(&mut Naive::new(&settings));
    }

    #[test]
    fn a_tiny_budget_times_out_on_an_empty_grid_counted_to_a_million() {
        let settings = Settings {
            time_budget: Some(Duration::from_millis(5)),
        };
        let answer = Naive::new(&settings).solve(&Grid::EMPTY, 1_000_000_000);
        assert!(answer.timed_out);
        assert_eq!(answer.solutions, None);
    }
}
