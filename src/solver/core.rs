//! The search: band-digit bitmasks, propagation to a fixed point, branching
//! on a bivalue cell, state copied on guess.
//!
//! Design (ALGORITHMS.md section 1, after JCZSolve; written from that
//! description): the state is 27 band masks, one per (digit, band), each
//! holding the cells of that band where the digit can still go (bit layout in
//! [`super::masks`]: bit `9r + c` = band row `r`, column `c`).
//!
//! ```text
//!   cands[3 * d + b]   d = digit - 1 (0..9), b = band (0..3)
//!
//!   grid cell i (row-major, 0..81)  ->  band i / 27, bit i % 27
//!
//!         c0 ........ c8
//!   r0 |  0  1 ...  8 |  band 0: cells  0..27, bits 0..27
//!   r1 |  9 10 ... 17 |
//!   r2 | 18 19 ... 26 |
//!   r3 | 27 28 ... 35 |  band 1: cells 27..54, bits 0..27
//!   ..                   band 2: cells 54..81, bits 0..27
//! ```
//!
//! A cell is *solved* once its digit is fixed: it stays in that digit's band
//! mask and leaves every other digit's; `unsolved[b]` holds the band's other
//! cells. One propagation step (`update`) works on one (digit, band) mask:
//!
//! 1. [`MINIROWS`] keeps the cells lying on some placement of the digit with
//!    one minirow per band row and per box: locked candidates inside the band,
//!    hidden singles in the band's rows and boxes, dead ends.
//! 2. [`ALONE`]: a box where the digit is down to one column removes that
//!    column from the digit's other two bands (pointing along a column; this
//!    also covers a digit placed in the band).
//! 3. A band row where the digit has one cell left solves that cell: the cell
//!    leaves the other eight digits' masks.
//!
//! Only changed masks are updated (a dirty bit per mask). When none is dirty,
//! bit-sliced counters across the nine digits of a band find dead cells (no
//! candidate) and naked singles; a column pass over each digit's three bands
//! finds columns the digit has left (dead) and columns it can only take in one
//! band ([`CLAIM`]: locked candidates from a column, which includes the
//! hidden singles in columns). At the fixed point the search branches on the
//! first bivalue cell, else a cell with the fewest candidates, copying the
//! state (a few hundred bytes) for every candidate but the last.
//!
//! The hot path has no per-cell loop: cells are only visited one by one to
//! list a guessed cell's candidates, to write the solution, and in the
//! matching stage.

use super::masks::{
    fold_cols, pattern, rows_touched, single_rows, spread_cols, ALONE, BAND, CLAIM, MINIROWS,
};
use super::{Outcome, Prune, SolveOptions};
use crate::grid::Grid;
use std::time::Instant;

/// A contradiction: the current branch has no solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Dead;

/// The two bands other than band `b`.
const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// Nodes between two looks at the clock when a time budget is set.
const CLOCK_EVERY: u64 = 4096;

/// One search node's candidates.
#[derive(Clone, Copy, Debug)]
pub(super) struct State {
    /// `cands[3 * d + b]`: band mask of the cells of band `b` where digit
    /// `d + 1` can go, solved cells included.
    pub(super) cands: [u32; 27],
    /// Band mask per band of the cells whose digit is not fixed yet.
    pub(super) unsolved: [u32; 3],
    /// Bit `3 * d + b` set: `cands[3 * d + b]` changed since its last update.
    dirty: u32,
    /// `cands` as the last matching pass saw it (all zero before the first),
    /// so the next pass filters only units whose candidates changed.
    pub(super) matched: [u32; 27],
}

impl State {
    /// The state of an empty grid: every digit possible everywhere.
    pub(super) fn empty() -> State {
        State {
            cands: [BAND; 27],
            unsolved: [BAND; 3],
            dirty: (1 << 27) - 1,
            matched: [0; 27],
        }
    }

    /// The state of `puzzle` before propagation; `Err` when givens collide
    /// in a row (other collisions surface in the first propagation).
    pub(super) fn from_grid(puzzle: &Grid) -> Result<State, Dead> {
        let mut st = State::empty();
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit != 0 {
                st.place(digit as usize - 1, cell / 27, 1 << (cell % 27))?;
            }
        }
        Ok(st)
    }

    /// Fixes digit `d` (0-based) in `cells` of band `b` (at most one cell
    /// per band row): trims those rows of the digit's mask to the cells; the
    /// next update does the rest. `Err` if a cell lost the digit or two cells
    /// share a row.
    #[inline]
    pub(super) fn place(&mut self, d: usize, b: usize, cells: u32) -> Result<(), Dead> {
        let i = 3 * d + b;
        let cur = self.cands[i];
        if cur & cells != cells || single_rows(cells) != cells {
            return Err(Dead);
        }
        self.cands[i] = cur & (cells | !rows_touched(cells));
        self.dirty |= 1 << i;
        Ok(())
    }

    /// Removes digit `d` from `cells` of band `b`; marks the mask dirty if it
    /// changed.
    #[inline]
    pub(super) fn remove(&mut self, d: usize, b: usize, cells: u32) {
        let i = 3 * d + b;
        let old = self.cands[i];
        let new = old & !cells;
        if new != old {
            self.cands[i] = new;
            self.dirty |= 1 << i;
        }
    }

    /// One propagation step on mask `i = 3 * d + b` (see the module doc).
    #[inline]
    fn update(&mut self, i: usize) -> Result<(), Dead> {
        let (d, b) = (i / 3, i % 3);
        let band = self.cands[i] & MINIROWS[pattern(self.cands[i])];
        if band == 0 {
            return Err(Dead);
        }
        self.cands[i] = band;
        let point = spread_cols(ALONE[fold_cols(band) as usize] as u32);
        let [b1, b2] = OTHER_BANDS[b];
        self.remove(d, b1, point);
        self.remove(d, b2, point);
        let solved = single_rows(band) & self.unsolved[b];
        if solved != 0 {
            self.unsolved[b] &= !solved;
            for other in 0..9 {
                if other != d {
                    self.remove(other, b, solved);
                }
            }
        }
        Ok(())
    }

    /// Naked singles and dead cells from bit-sliced counters; true if some
    /// naked single was placed.
    #[inline]
    fn naked_singles(&mut self) -> Result<bool, Dead> {
        let mut found = false;
        for b in 0..3 {
            let unsolved = self.unsolved[b];
            if unsolved == 0 {
                continue;
            }
            // at_least_1 / at_least_2: cells with >= 1 / >= 2 candidates.
            let (mut at_least_1, mut at_least_2) = (0u32, 0u32);
            for d in 0..9 {
                let cells = self.cands[3 * d + b];
                at_least_2 |= at_least_1 & cells;
                at_least_1 |= cells;
            }
            if unsolved & !at_least_1 != 0 {
                return Err(Dead);
            }
            let singles = unsolved & !at_least_2;
            if singles != 0 {
                found = true;
                for d in 0..9 {
                    let cells = self.cands[3 * d + b] & singles;
                    if cells != 0 {
                        self.place(d, b, cells)?;
                    }
                }
            }
        }
        Ok(found)
    }

    /// Column pass: for each digit, every column must keep the digit in some
    /// band, and a column where it is left in one band only claims it there
    /// ([`CLAIM`]). True if a mask changed.
    #[inline]
    fn column_claims(&mut self) -> Result<bool, Dead> {
        let mut changed = false;
        for d in 0..9 {
            let cols = [
                fold_cols(self.cands[3 * d]),
                fold_cols(self.cands[3 * d + 1]),
                fold_cols(self.cands[3 * d + 2]),
            ];
            let twice = (cols[0] & cols[1]) | (cols[0] & cols[2]) | (cols[1] & cols[2]);
            if cols[0] | cols[1] | cols[2] != 0o777 {
                return Err(Dead);
            }
            for (b, &here) in cols.iter().enumerate() {
                let only = here & !twice;
                if only == 0 {
                    continue;
                }
                let keep = spread_cols(CLAIM[only as usize] as u32);
                let i = 3 * d + b;
                if self.cands[i] & !keep != 0 {
                    self.cands[i] &= keep;
                    self.dirty |= 1 << i;
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    /// Basic propagation to a fixed point: updates, naked singles, column
    /// claims.
    pub(super) fn propagate(&mut self) -> Result<(), Dead> {
        loop {
            while self.dirty != 0 {
                let i = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1;
                self.update(i)?;
            }
            if self.naked_singles()? {
                continue;
            }
            if !self.column_claims()? {
                return Ok(());
            }
        }
    }

    /// True when every cell is solved (meaningful at a fixed point).
    #[inline]
    pub(super) fn solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The cell to branch on, as (band, one-bit band mask): the first
    /// bivalue cell, else the first cell with the fewest candidates. Call at a
    /// fixed point of an unsolved state.
    pub(super) fn branch_cell(&self) -> (usize, u32) {
        for b in 0..3 {
            let unsolved = self.unsolved[b];
            if unsolved == 0 {
                continue;
            }
            let (mut at_least_1, mut at_least_2, mut at_least_3) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let cells = self.cands[3 * d + b];
                at_least_3 |= at_least_2 & cells;
                at_least_2 |= at_least_1 & cells;
                at_least_1 |= cells;
            }
            let pairs = unsolved & at_least_2 & !at_least_3;
            if pairs != 0 {
                return (b, pairs & pairs.wrapping_neg());
            }
        }
        // No bivalue cell: full counters, at_least[k] = cells with > k candidates.
        let mut best = (0, 0, 10);
        for b in 0..3 {
            let unsolved = self.unsolved[b];
            if unsolved == 0 {
                continue;
            }
            let mut at_least = [0u32; 9];
            for d in 0..9 {
                let cells = self.cands[3 * d + b];
                for k in (1..9).rev() {
                    at_least[k] |= at_least[k - 1] & cells;
                }
                at_least[0] |= cells;
            }
            for k in 2..best.2 {
                let exactly = unsolved & at_least[k - 1] & !at_least[k];
                if exactly != 0 {
                    best = (b, exactly & exactly.wrapping_neg(), k);
                    break;
                }
            }
        }
        (best.0, best.1)
    }

    /// The digits (0-based) still possible in `cell` of band `b`, ascending;
    /// returns how many were written.
    #[inline]
    pub(super) fn digits_of(&self, b: usize, cell: u32, out: &mut [usize; 9]) -> usize {
        let mut n = 0;
        for d in 0..9 {
            if self.cands[3 * d + b] & cell != 0 {
                out[n] = d;
                n += 1;
            }
        }
        n
    }

    /// The grid of a solved state.
    pub(super) fn to_grid(&self) -> Option<Grid> {
        let mut cells = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut m = self.cands[3 * d + b];
                while m != 0 {
                    cells[27 * b + m.trailing_zeros() as usize] = d as u8 + 1;
                    m &= m - 1;
                }
            }
        }
        Grid::from_cells(cells)
    }
}

/// Per-thread search driver (holds nothing between puzzles: the state lives
/// on the call stack).
pub(super) struct Search;

/// One puzzle's run: options, counters, clock.
struct Run<'a, 'r> {
    opts: &'a SolveOptions,
    limit: u64,
    rng: Option<&'r mut (dyn rand::RngCore + 'r)>,
    deadline: Option<Instant>,
    nodes: u64,
    out: Outcome,
}

impl Run<'_, '_> {
    #[inline]
    fn done(&self) -> bool {
        self.out.solutions >= self.limit || self.out.timed_out
    }
}

impl Search {
    pub(super) fn new() -> Search {
        Search
    }

    pub(super) fn run<'r>(
        &mut self,
        puzzle: &Grid,
        opts: &SolveOptions,
        rng: Option<&'r mut (dyn rand::RngCore + 'r)>,
    ) -> Outcome {
        let mut run = Run {
            opts,
            limit: opts.limit.max(1),
            rng,
            deadline: opts.time_budget.map(|b| Instant::now() + b),
            nodes: 0,
            out: Outcome::default(),
        };
        match State::from_grid(puzzle) {
            Ok(mut st) => search(&mut st, &mut run),
            Err(Dead) => run.out.backtracks += 1,
        }
        run.out
    }
}

/// Propagates `st` to a fixed point at the run's pruning level.
#[inline]
fn settle(st: &mut State, prune: Prune) -> Result<(), Dead> {
    st.propagate()?;
    if prune == Prune::Matching {
        while !st.solved() && super::prune::matching_pass(st)? {
            st.propagate()?;
        }
    }
    Ok(())
}

fn search(st: &mut State, run: &mut Run<'_, '_>) {
    run.nodes += 1;
    if settle(st, run.opts.prune).is_err() {
        run.out.backtracks += 1;
        return;
    }
    if st.solved() {
        run.out.solutions += 1;
        if run.out.solution.is_none() {
            run.out.solution = st.to_grid();
        }
        return;
    }
    if !run.opts.guess {
        run.out.stuck = true;
        return;
    }
    if let Some(deadline) = run.deadline {
        if run.nodes % CLOCK_EVERY == 0 && Instant::now() >= deadline {
            run.out.timed_out = true;
            return;
        }
    }
    let (b, cell) = st.branch_cell();
    let mut digits = [0usize; 9];
    let n = st.digits_of(b, cell, &mut digits);
    if let Some(rng) = run.rng.as_deref_mut() {
        for i in (1..n).rev() {
            let j = (rng.next_u32() as usize) % (i + 1);
            digits.swap(i, j);
        }
    }
    run.out.guesses += 1;
    for (k, &d) in digits[..n].iter().enumerate() {
        if k + 1 < n {
            let mut next = *st;
            if next.place(d, b, cell).is_ok() {
                search(&mut next, run);
            } else {
                run.out.backtracks += 1;
            }
            if run.done() {
                return;
            }
        } else if st.place(d, b, cell).is_ok() {
            search(st, run);
        } else {
            run.out.backtracks += 1;
        }
    }
}
