//! The product solver: bitmask backtracking with constraint propagation.
//!
//! Terms, used throughout: a *cell* holds a *digit*; a *given* (clue) is a cell
//! filled in the puzzle; a *candidate* is a digit still possible in a cell; a
//! *unit* is a row, column or box; a *band* is three rows of boxes and a *stack*
//! three columns; a *minirow* is the three cells where a row meets a box. A
//! *guess* is a branch point taken by the search, a *backtrack* a dead end.
//!
//! [`Solver`] is the one entry point: build it once per thread with
//! [`SolveOptions`] and call [`Solver::solve`] for each puzzle; it reuses its
//! buffers and never allocates on the hot path (the matching levels grow a
//! per-depth buffer the first time a search goes deeper than before).
//!
//! Layout, each module below the ones that use it: `state` (the band masks
//! and their propagation; its module doc has the cell numbering and bit
//! layout), `masks` (lookup tables), `branch` (which cell to guess on),
//! `hidden_pairs` (the root's hidden pairs on the band masks),
//! `prune` (the seam between the band masks and the per-unit [`matching`]
//! filter), and `core` (the search, which drives all of them).

mod branch;
mod core;
pub mod diagnose;
mod hidden_pairs;
mod masks;
pub mod matching;
mod prune;
pub mod simd;
mod state;

pub use diagnose::{why_unsolvable, Contradiction};

use crate::grid::{Grid, Pencilmarks};
use crate::rating::Wnf;
use crate::work::Budget;

/// How much propagation runs before the solver guesses.
///
/// Every level runs the basic propagation of `state` (naked and hidden
/// singles, locked candidates, to a fixed point), and at the search root,
/// where that leaves at least 50 cells open, hidden pairs with it
/// (`hidden_pairs`). The matching levels then
/// delete forbidden edges ([`matching::filter_unit`], Régin 1994; SEEDS.md
/// section 1) in the units whose candidates changed since the branch's last
/// matching pass, alternating with basic propagation until neither changes
/// anything.
///
/// **Why `basic` is the default.** Measured on the whole public sets (one
/// thread, count up to 2, criterion, quiet machine; BENCHMARKS.md, top
/// section), puzzles per second:
///
/// | set | basic | matching | matching-root |
/// |---|---:|---:|---:|
/// | 17-clue | 656k | 385k | 508k |
/// | top1465 | 143k | 49.0k | 108k |
/// | hardest_1106 | 14.0k | 3.6k | 13.5k |
/// | serg | 691k | 85.5k | 252k |
///
/// With the branching rule of `branch` at every level, `matching` cuts
/// guesses per puzzle by 45% on top1465 (11.23 -> 6.12), 13% on hardest_1106
/// (99.9 -> 87.2; issue 3 asks for 30%) and 54% on 17-clue (0.79 -> 0.36), but
/// a filter pass over the changed units (~700 instructions per unit) costs
/// as much as several basic search nodes, so every set gets slower.
/// `matching-root` loses less but still loses everywhere. Only `basic` is at
/// least as fast as `basic` on both hard sets and within 5% on 17-clue, so
/// it is the default; the matching levels serve the study of the pruning,
/// rating, and the seed's "no search" mode (`guess = false`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Prune {
    /// Naked singles, hidden singles and locked candidates, to a fixed point
    /// (with hidden pairs at the root where 50+ cells are open).
    #[default]
    Basic,
    /// `basic`, plus deletion of forbidden edges whenever basic propagation
    /// stalls, at every search node.
    Matching,
    /// `matching` at the root only (before the first guess), `basic` below:
    /// most of matching's pruning of easy-to-moderate puzzles for one pass.
    MatchingRoot,
}

/// What a [`Solver`] is asked to do for each puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolveOptions {
    /// Count solutions up to this many, then stop (`solve --limit`, default 2,
    /// enough to tell unique from multiple). Values below 1 are treated as 1.
    pub limit: u64,
    /// Propagation level.
    pub prune: Prune,
    /// When false, propagate to a fixed point and never guess: a puzzle that
    /// propagation does not finish is reported [`Outcome::stuck`].
    pub guess: bool,
    /// Give up on a puzzle past this budget and report
    /// [`Outcome::timed_out`]: its work is search nodes (about ten
    /// million a second on the reference host,
    /// [`crate::work::SOLVER_NODES_PER_SEC`]), its optional wall-clock
    /// limit counts from the search's 4,096th node (so a puzzle solved in
    /// fewer never reads the clock). The search stops at the first branch
    /// point past the budget, so a node budget gives the same outcome on
    /// any machine under any load. Whatever the budget, a stop request
    /// (SIGINT/SIGTERM, [`crate::interrupt`]) ends the search within 4,096
    /// nodes (as [`Outcome::timed_out`]).
    pub budget: Budget,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            limit: 2,
            prune: Prune::default(),
            guess: true,
            budget: Budget::NONE,
        }
    }
}

/// The result of solving one puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Outcome {
    /// Solutions found, at most [`SolveOptions::limit`] (a lower bound when
    /// `stuck` or `timed_out`).
    pub solutions: u64,
    /// The first solution found, if any.
    pub solution: Option<Grid>,
    /// Branch points taken by the search.
    pub guesses: u64,
    /// Dead ends met (contradictions after a guess, or at the root).
    pub backtracks: u64,
    /// Propagation stalled and [`SolveOptions::guess`] was false.
    pub stuck: bool,
    /// The search ended before the count was final: the budget
    /// ([`SolveOptions::budget`]) ran out, or a stop was requested
    /// ([`crate::interrupt::requested`] then tells; the outcome stays the
    /// size it was, as `solve` copies it for every record).
    pub timed_out: bool,
}

/// A reusable solver; one per thread.
///
/// A puzzle whose givens clash ([`Grid::check_givens`]) is reported as
/// having no solution: propagation finds most clashes at the root, and a
/// search checks the givens once it has met 64 dead ends.
pub struct Solver {
    opts: SolveOptions,
    inner: core::Search,
}

impl Solver {
    /// A solver with these options.
    pub fn new(opts: SolveOptions) -> Solver {
        Solver {
            opts,
            inner: core::Search::new(),
        }
    }

    /// The options this solver was built with.
    pub fn options(&self) -> &SolveOptions {
        &self.opts
    }

    /// Solves `puzzle`: counts solutions up to the limit and keeps the first.
    pub fn solve(&mut self, puzzle: &Grid) -> Outcome {
        self.inner.run(puzzle, &self.opts, None, None, None)
    }

    /// [`Solver::solve`], and the puzzle's WNF (SEEDS.md section 2), the
    /// same value as [`crate::rating::wnf`] for any grid (clashing givens
    /// included), read off the search's root state: the candidate masks the
    /// search starts from are the WNF's candidates on the blank cells, so
    /// rating costs a few hundred instructions instead of a pass over the
    /// cells and their units (`solve` rates every record).
    pub fn solve_rated(&mut self, puzzle: &Grid) -> (Outcome, Wnf) {
        let mut counts = [0u32; 10];
        let outcome = self
            .inner
            .run(puzzle, &self.opts, None, Some(&mut counts), None);
        (outcome, crate::rating::wnf_from_counts(&counts))
    }

    /// Solves a puzzle given by its candidates ([`Pencilmarks`]): like
    /// [`Solver::solve`] on the cells with one candidate as givens, every
    /// candidate the pencilmarks eliminate removed before the first
    /// propagation. Also returns the WNF of that starting state (its blank
    /// cells' candidate counts, as [`Solver::solve_rated`]).
    pub fn solve_pencilmarks(&mut self, pencilmarks: &Pencilmarks) -> (Outcome, Wnf) {
        let mut counts = [0u32; 10];
        let puzzle = pencilmarks.singles();
        let outcome = self.inner.run(
            &puzzle,
            &self.opts,
            None,
            Some(&mut counts),
            Some(pencilmarks),
        );
        (outcome, crate::rating::wnf_from_counts(&counts))
    }

    /// Finds one solution of `puzzle`, trying a guess's candidates in an order
    /// drawn from `rng` (for random grids and generation); counts up to the
    /// solver's limit like [`Solver::solve`].
    pub fn solve_random(&mut self, puzzle: &Grid, rng: &mut dyn rand::RngCore) -> Outcome {
        self.inner.run(puzzle, &self.opts, Some(rng), None, None)
    }
}

/// Counts solutions of `puzzle` up to `limit` with default options: a shortcut
/// for tests and one-off calls.
pub fn count_solutions(puzzle: &Grid, limit: u64) -> u64 {
    Solver::new(SolveOptions {
        limit,
        ..SolveOptions::default()
    })
    .solve(puzzle)
    .solutions
}
