//! Baseline search: one 9-bit candidate mask per cell, naked and hidden
//! singles to a fixed point, branching on a cell with the fewest candidates.
//!
//! Candidate mask layout: bit `d - 1` set = digit `d` (1..=9) still possible.

use super::{Outcome, SolveOptions};
use crate::grid::{Grid, PEERS, UNITS};
use std::time::Instant;

const ALL: u16 = 0x1FF;

#[derive(Clone, Copy)]
struct State {
    cand: [u16; 81],
}

pub(super) struct Search {
    stack: Vec<State>,
}

struct Run<'a, 'r> {
    opts: &'a SolveOptions,
    rng: Option<&'r mut (dyn rand::RngCore + 'r)>,
    deadline: Option<Instant>,
    out: Outcome,
}

impl Search {
    pub(super) fn new() -> Search {
        Search {
            stack: Vec::with_capacity(82),
        }
    }

    pub(super) fn run<'r>(
        &mut self,
        puzzle: &Grid,
        opts: &SolveOptions,
        rng: Option<&'r mut (dyn rand::RngCore + 'r)>,
    ) -> Outcome {
        let mut run = Run {
            opts,
            rng,
            deadline: opts.time_budget.map(|b| Instant::now() + b),
            out: Outcome::default(),
        };
        let mut st = State { cand: [ALL; 81] };
        let ok = puzzle
            .cells()
            .iter()
            .enumerate()
            .all(|(c, &d)| d == 0 || assign(&mut st, c, 1 << (d - 1)));
        if !ok {
            run.out.backtracks += 1;
            return run.out;
        }
        self.stack.clear();
        search(&mut st, &mut run);
        run.out
    }
}

/// Places digit bit `bit` in `cell` and propagates naked singles; false on contradiction.
fn assign(st: &mut State, cell: usize, bit: u16) -> bool {
    if st.cand[cell] & bit == 0 {
        return false;
    }
    let mut queue = [(0u8, 0u16); 81];
    let (mut head, mut tail) = (0, 0);
    queue[tail] = (cell as u8, bit);
    tail += 1;
    while head < tail {
        let (c, b) = queue[head];
        head += 1;
        let c = c as usize;
        if st.cand[c] & b == 0 {
            return false;
        }
        st.cand[c] = b;
        for &p in &PEERS[c] {
            let p = p as usize;
            if st.cand[p] & b != 0 {
                st.cand[p] &= !b;
                match st.cand[p].count_ones() {
                    0 => return false,
                    1 => {
                        queue[tail] = (p as u8, st.cand[p]);
                        tail += 1;
                    }
                    _ => {}
                }
            }
        }
    }
    true
}

/// Hidden singles to a fixed point; false on contradiction.
fn hidden_singles(st: &mut State) -> bool {
    loop {
        let mut changed = false;
        for unit in &UNITS {
            let (mut once, mut twice, mut fixed) = (0u16, 0u16, 0u16);
            for &c in unit {
                let m = st.cand[c as usize];
                twice |= once & m;
                once |= m;
                if m.count_ones() == 1 {
                    fixed |= m;
                }
            }
            if once != ALL {
                return false;
            }
            let mut singles = once & !twice & !fixed;
            while singles != 0 {
                let b = singles & singles.wrapping_neg();
                singles &= singles - 1;
                // An earlier placement in this sweep may have removed the digit
                // from the unit altogether: that is a contradiction.
                let Some(c) = unit
                    .iter()
                    .map(|&c| c as usize)
                    .find(|&c| st.cand[c] & b != 0)
                else {
                    return false;
                };
                if !assign(st, c, b) {
                    return false;
                }
                changed = true;
            }
        }
        if !changed {
            return true;
        }
    }
}

fn search(st: &mut State, run: &mut Run<'_, '_>) {
    if run.out.solutions >= run.opts.limit.max(1) || run.out.timed_out {
        return;
    }
    if !hidden_singles(st) {
        run.out.backtracks += 1;
        return;
    }
    // Cell with the fewest candidates (>1).
    let mut best = usize::MAX;
    let mut best_n = 10;
    for c in 0..81 {
        let n = st.cand[c].count_ones();
        if n > 1 && n < best_n {
            best = c;
            best_n = n;
            if n == 2 {
                break;
            }
        }
    }
    if best == usize::MAX {
        run.out.solutions += 1;
        if run.out.solution.is_none() {
            let mut cells = [0u8; 81];
            for (c, v) in cells.iter_mut().enumerate() {
                *v = st.cand[c].trailing_zeros() as u8 + 1;
            }
            run.out.solution = Grid::from_cells(cells);
        }
        return;
    }
    if !run.opts.guess {
        run.out.stuck = true;
        return;
    }
    if let Some(deadline) = run.deadline {
        if run.out.guesses % 1024 == 0 && Instant::now() >= deadline {
            run.out.timed_out = true;
            return;
        }
    }
    run.out.guesses += 1;
    let mut digits = [0u16; 9];
    let mut n = 0;
    let mut m = st.cand[best];
    while m != 0 {
        digits[n] = m & m.wrapping_neg();
        m &= m - 1;
        n += 1;
    }
    if let Some(rng) = run.rng.as_deref_mut() {
        for i in (1..n).rev() {
            let j = (rng.next_u32() as usize) % (i + 1);
            digits.swap(i, j);
        }
    }
    for &b in &digits[..n] {
        let mut next = *st;
        if assign(&mut next, best, b) {
            search(&mut next, run);
        } else {
            run.out.backtracks += 1;
        }
        if run.out.solutions >= run.opts.limit.max(1) || run.out.timed_out {
            return;
        }
    }
}
