//! `mrv`: backtracking on the cell with the fewest candidates, with naked
//! singles only: the modelling paper's backtracking (SEEDS.md section 2) and
//! the Russian paper's graph colouring with backtracking (SEEDS.md section 4):
//! keep a candidate set per cell; whenever a cell has one candidate, place it
//! and remove it from its 20 peers (naked singles to a fixed point); otherwise
//! branch on an empty cell with the fewest candidates (minimum remaining
//! values, first such cell in row-major order), copying the state per digit
//! tried and dropping the copy on a contradiction.
//!
//! State: `cand[c]`, bit `d - 1` set = digit `d` still possible in cell `c`;
//! a placed cell keeps exactly its digit's bit.

use super::masks::{grid_of, ALL};
use crate::bench::{Answer, BenchSolver, Settings};
use crate::grid::{Grid, PEERS};
use std::time::{Duration, Instant};

/// Minimum-remaining-values backtracking with naked singles.
pub struct Mrv {
    budget: Option<Duration>,
}

impl Mrv {
    /// A solver with `settings`' time budget.
    pub fn new(settings: &Settings) -> Mrv {
        Mrv {
            budget: settings.time_budget,
        }
    }
}

/// Places digit bit `bit` in `cell` and propagates naked singles to a fixed
/// point; false on a contradiction (a cell left without candidates, or a
/// single that a peer already holds).
fn place(cand: &mut [u16; 81], placed: &mut [bool; 81], cell: usize, bit: u16) -> bool {
    let mut queue = [(0u8, 0u16); 81];
    let (mut head, mut tail) = (0usize, 1usize);
    queue[0] = (cell as u8, bit);
    while head < tail {
        let (c, b) = queue[head];
        head += 1;
        let c = c as usize;
        if placed[c] {
            if cand[c] != b {
                return false;
            }
            continue;
        }
        if cand[c] & b == 0 {
            return false;
        }
        cand[c] = b;
        placed[c] = true;
        for &p in &PEERS[c] {
            let p = p as usize;
            if cand[p] & b == 0 {
                continue;
            }
            if placed[p] {
                return false;
            }
            cand[p] &= !b;
            match cand[p].count_ones() {
                0 => return false,
                1 => {
                    queue[tail] = (p as u8, cand[p]);
                    tail += 1;
                }
                _ => {}
            }
        }
    }
    true
}

struct Run {
    limit: u64,
    found: u64,
    solution: Option<Grid>,
    guesses: u64,
    deadline: Option<Instant>,
    timed_out: bool,
}

impl Run {
    fn search(&mut self, cand: &[u16; 81], placed: &[bool; 81]) {
        let mut best = usize::MAX;
        let mut best_n = 10;
        for c in 0..81 {
            if placed[c] {
                continue;
            }
            let n = cand[c].count_ones();
            if n < best_n {
                best = c;
                best_n = n;
                if n <= 2 {
                    break;
                }
            }
        }
        if best == usize::MAX {
            self.found += 1;
            if self.solution.is_none() {
                self.solution = grid_of(cand);
            }
            return;
        }
        if let Some(deadline) = self.deadline {
            if self.guesses.is_multiple_of(1024) && Instant::now() >= deadline {
                self.timed_out = true;
                return;
            }
        }
        self.guesses += 1;
        let mut digits = cand[best];
        while digits != 0 {
            let bit = digits & digits.wrapping_neg();
            digits &= digits - 1;
            let (mut next, mut next_placed) = (*cand, *placed);
            if place(&mut next, &mut next_placed, best, bit) {
                self.search(&next, &next_placed);
            }
            if self.found >= self.limit || self.timed_out {
                return;
            }
        }
    }
}

impl BenchSolver for Mrv {
    fn name(&self) -> &str {
        "mrv"
    }

    fn solve(&mut self, puzzle: &Grid, limit: u64) -> Answer {
        let mut run = Run {
            limit: limit.max(1),
            found: 0,
            solution: None,
            guesses: 0,
            deadline: self.budget.map(|b| Instant::now() + b),
            timed_out: false,
        };
        let mut cand = [ALL; 81];
        let mut placed = [false; 81];
        let ok = puzzle
            .cells()
            .iter()
            .enumerate()
            .all(|(c, &d)| d == 0 || place(&mut cand, &mut placed, c, 1 << (d - 1)));
        if ok {
            run.search(&cand, &placed);
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
        testkit::check_complete(&mut Mrv::new(&Settings { time_budget: None }));
    }
}
