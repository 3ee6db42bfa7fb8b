//! `dlx`: Sudoku as exact cover, solved by Knuth's Algorithm X with dancing
//! links ("Dancing Links", D. E. Knuth, 2000), the classic baseline.
//!
//! Matrix: 729 rows, one per (cell, digit) placement, and 324 columns, one per
//! constraint, each row having a 1 in exactly four:
//!
//! ```text
//!   column   0.. 81   cell c is filled           (c = 9 * row + col)
//!   column  81..162   row r holds digit d        (81 + 9 * r + d - 1)
//!   column 162..243   column k holds digit d     (162 + 9 * k + d - 1)
//!   column 243..324   box b holds digit d        (243 + 9 * b + d - 1)
//! ```
//!
//! Links live in arrays of node indices (`left`, `right`, `up`, `down`,
//! `column`): node 0 is the root, nodes 1..=324 the column headers, and the
//! four nodes of matrix row `r = 9 * cell + d - 1` are `325 + 4 * r + k`.
//! The givens' rows are selected (their columns covered) before the search;
//! the search then always branches on a column with the fewest rows (Knuth's
//! S heuristic) and uncovers everything on the way back, so the matrix is
//! whole again when `solve` returns.

use crate::bench::{Answer, BenchSolver, Settings};
use crate::grid::{box_of, col_of, row_of, Grid};
use std::time::{Duration, Instant};

const COLUMNS: usize = 324;
const ROWS: usize = 729;
const FIRST_ROW_NODE: usize = COLUMNS + 1;
const NODES: usize = FIRST_ROW_NODE + 4 * ROWS;

/// Dancing-links exact cover solver.
pub struct Dlx {
    left: Vec<u16>,
    right: Vec<u16>,
    up: Vec<u16>,
    down: Vec<u16>,
    /// Header node (1..=324) of each node's column.
    column: Vec<u16>,
    /// Rows left in each column, indexed by header node.
    size: Vec<u16>,
    /// Matrix rows chosen so far (givens first, then the search's choices).
    chosen: Vec<u16>,
    budget: Option<Duration>,
}

/// The four columns (0..324) of matrix row `9 * cell + d - 1`.
fn row_columns(row: usize) -> [usize; 4] {
    let (cell, d) = (row / 9, row % 9);
    [
        cell,
        81 + 9 * row_of(cell) + d,
        162 + 9 * col_of(cell) + d,
        243 + 9 * box_of(cell) + d,
    ]
}

struct Run {
    limit: u64,
    found: u64,
    solution: Option<Grid>,
    guesses: u64,
    steps: u64,
    deadline: Option<Instant>,
    timed_out: bool,
}

impl Dlx {
    /// The full 729 x 324 matrix.
    pub fn new(settings: &Settings) -> Dlx {
        let mut d = Dlx {
            left: vec![0; NODES],
            right: vec![0; NODES],
            up: vec![0; NODES],
            down: vec![0; NODES],
            column: vec![0; NODES],
            size: vec![0; COLUMNS + 1],
            chosen: Vec::with_capacity(81),
            budget: settings.time_budget,
        };
        // Root and headers in one circular list.
        for h in 0..=COLUMNS {
            d.left[h] = if h == 0 { COLUMNS } else { h - 1 } as u16;
            d.right[h] = if h == COLUMNS { 0 } else { h + 1 } as u16;
            d.up[h] = h as u16;
            d.down[h] = h as u16;
            d.column[h] = h as u16;
        }
        for row in 0..ROWS {
            let cols = row_columns(row);
            for (k, &col) in cols.iter().enumerate() {
                let node = FIRST_ROW_NODE + 4 * row + k;
                let header = col + 1;
                // Append at the bottom of the column.
                let last = d.up[header] as usize;
                d.down[last] = node as u16;
                d.up[node] = last as u16;
                d.down[node] = header as u16;
                d.up[header] = node as u16;
                d.column[node] = header as u16;
                d.size[header] += 1;
                // Circular row list of four.
                d.left[node] = (FIRST_ROW_NODE + 4 * row + (k + 3) % 4) as u16;
                d.right[node] = (FIRST_ROW_NODE + 4 * row + (k + 1) % 4) as u16;
            }
        }
        d
    }

    fn cover(&mut self, header: usize) {
        let (l, r) = (self.left[header] as usize, self.right[header] as usize);
        self.right[l] = r as u16;
        self.left[r] = l as u16;
        let mut i = self.down[header] as usize;
        while i != header {
            let mut j = self.right[i] as usize;
            while j != i {
                let (u, dn) = (self.up[j] as usize, self.down[j] as usize);
                self.down[u] = dn as u16;
                self.up[dn] = u as u16;
                self.size[self.column[j] as usize] -= 1;
                j = self.right[j] as usize;
            }
            i = self.down[i] as usize;
        }
    }

    fn uncover(&mut self, header: usize) {
        let mut i = self.up[header] as usize;
        while i != header {
            let mut j = self.left[i] as usize;
            while j != i {
                let (u, dn) = (self.up[j] as usize, self.down[j] as usize);
                self.down[u] = j as u16;
                self.up[dn] = j as u16;
                self.size[self.column[j] as usize] += 1;
                j = self.left[j] as usize;
            }
            i = self.up[i] as usize;
        }
        let (l, r) = (self.left[header] as usize, self.right[header] as usize);
        self.right[l] = header as u16;
        self.left[r] = header as u16;
    }

    /// Covers the other columns of the row holding `node` (its own column is
    /// already covered), left to right.
    fn select(&mut self, node: usize) {
        let mut j = self.right[node] as usize;
        while j != node {
            self.cover(self.column[j] as usize);
            j = self.right[j] as usize;
        }
    }

    /// Undoes [`Dlx::select`], right to left.
    fn deselect(&mut self, node: usize) {
        let mut j = self.left[node] as usize;
        while j != node {
            self.uncover(self.column[j] as usize);
            j = self.left[j] as usize;
        }
    }

    fn search(&mut self, run: &mut Run) {
        if self.right[0] == 0 {
            run.found += 1;
            if run.solution.is_none() {
                let mut cells = [0u8; 81];
                for &row in &self.chosen {
                    let row = row as usize;
                    cells[row / 9] = (row % 9) as u8 + 1;
                }
                run.solution = Grid::from_cells(cells);
            }
            return;
        }
        run.steps += 1;
        if run.steps.is_multiple_of(1024) {
            if let Some(deadline) = run.deadline {
                if Instant::now() >= deadline {
                    run.timed_out = true;
                    return;
                }
            }
        }
        // Column with the fewest rows.
        let mut best = self.right[0] as usize;
        let mut h = best;
        while h != 0 {
            if self.size[h] < self.size[best] {
                best = h;
                if self.size[h] <= 1 {
                    break;
                }
            }
            h = self.right[h] as usize;
        }
        if self.size[best] == 0 {
            return;
        }
        if self.size[best] >= 2 {
            run.guesses += 1;
        }
        self.cover(best);
        let mut r = self.down[best] as usize;
        while r != best {
            self.chosen.push(((r - FIRST_ROW_NODE) / 4) as u16);
            self.select(r);
            self.search(run);
            self.deselect(r);
            self.chosen.pop();
            if run.found >= run.limit || run.timed_out {
                break;
            }
            r = self.down[r] as usize;
        }
        self.uncover(best);
    }
}

impl BenchSolver for Dlx {
    fn name(&self) -> &str {
        "dlx"
    }

    fn solve(&mut self, puzzle: &Grid, limit: u64) -> Answer {
        let mut run = Run {
            limit: limit.max(1),
            found: 0,
            solution: None,
            guesses: 0,
            steps: 0,
            deadline: self.budget.map(|b| Instant::now() + b),
            timed_out: false,
        };
        self.chosen.clear();
        // Select the givens' rows; a given whose column is already covered
        // clashes with an earlier given.
        let mut covered = [false; COLUMNS];
        let mut clash = false;
        let mut selected = Vec::with_capacity(81);
        for (cell, &d) in puzzle.cells().iter().enumerate() {
            if d == 0 {
                continue;
            }
            let row = 9 * cell + d as usize - 1;
            let cols = row_columns(row);
            if cols.iter().any(|&c| covered[c]) {
                clash = true;
                break;
            }
            let node = FIRST_ROW_NODE + 4 * row;
            self.cover(self.column[node] as usize);
            self.select(node);
            for c in cols {
                covered[c] = true;
            }
            selected.push(node);
            self.chosen.push(row as u16);
        }
        if !clash {
            self.search(&mut run);
        }
        for &node in selected.iter().rev() {
            self.deselect(node);
            self.uncover(self.column[node] as usize);
        }
        Answer::searched(run.found, run.solution, run.guesses, run.timed_out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::solvers::testkit;

    #[test]
    fn agrees_with_the_default_solver() {
        testkit::check_complete(&mut Dlx::new(&Settings { time_budget: None }));
    }

    #[test]
    fn the_matrix_is_whole_again_after_each_solve() {
        let mut dlx = Dlx::new(&Settings { time_budget: None });
        let fresh = (
            dlx.left.clone(),
            dlx.right.clone(),
            dlx.up.clone(),
            dlx.down.clone(),
        );
        let inkala = Grid::parse(testkit::INKALA.0).unwrap();
        dlx.solve(&inkala, 2);
        dlx.solve(&Grid::parse(testkit::NO_SOLUTION).unwrap(), 2);
        assert_eq!(
            (
                dlx.left.clone(),
                dlx.right.clone(),
                dlx.up.clone(),
                dlx.down.clone()
            ),
            fresh
        );
        assert!(dlx.size[1..].iter().all(|&s| s == 9));
    }
}
