//! Puzzle generation: a random solved grid, then removal of givens in a random
//! order, keeping a removal only while the solution stays unique
//! (../shared/docs/ALGORITHMS.md section 4; the standard method of Sudoku
//! Explainer's generator and of the `sudoku` crate).
//!
//! Every candidate puzzle is built from one 64-bit *candidate seed* alone
//! ([`Generator::candidate`]), through a [`ChaCha8Rng`] seeded with it: the
//! solved grid comes from [`Solver::solve_random`] on the empty grid, then the
//! orbits of the [`Symmetry`] are shuffled and visited once each. A run's
//! puzzle number `i` (1-based) draws its candidate seeds from its own stream,
//! [`seed_stream`]`(run_seed, i)`, until one candidate passes the filters, so
//! the output depends on the run seed, the options and the solver, never on
//! the number of threads.
//!
//! # Minimality: one pass suffices
//!
//! With `minimal` on, every orbit of the symmetry is visited once, in random
//! order; its givens are removed for good when the puzzle without them still
//! has exactly one solution, and put back otherwise. Claim: at the end no
//! orbit can be removed, i.e. the puzzle is *minimal* (for [`Symmetry::None`],
//! every single given is necessary; for a symmetry, no whole orbit can go
//! without breaking uniqueness, though a single cell of an orbit might).
//!
//! Proof. Write a puzzle as its set of givens; a solution of `P` is a
//! solution of every `Q ⊆ P` (fewer givens, fewer constraints), so
//! `sol(P) ⊆ sol(Q)`. Take an orbit `O` that was put back when it was visited,
//! with the puzzle then being `P_t`: `|sol(P_t \ O)| ≥ 2`. The final puzzle
//! `F` is `P_t` minus orbits removed later, so `F ⊆ P_t` and
//! `F \ O ⊆ P_t \ O`, hence `sol(P_t \ O) ⊆ sol(F \ O)` and
//! `|sol(F \ O)| ≥ 2`: `O` is still necessary in `F`. Every orbit left in `F`
//! was put back when visited, so none is removable. ∎
//!
//! With `minimal` off, the pass stops as soon as the clue count reaches a
//! target drawn uniformly from the clue range, so givens whose removal would
//! keep the solution unique may remain.
//!
//! # The uniqueness check
//!
//! Let `S` be the solved grid and `P` the current (proper) puzzle. A solution
//! `T ≠ S` of `P \ O` must differ from `S` somewhere in `O` (otherwise `T`
//! solves `P`, so `T = S`), with a digit that no remaining given among that
//! cell's peers holds: an *alternative*. Three tests, cheapest first:
//!
//! 1. *Forced* (no solver): if every cell of `O` is forced by the remaining
//!    givens (a naked single: its 8 other digits all appear among its peers'
//!    givens; or a hidden single: every other cell of one of its units is a
//!    given or sees a given of its digit), every solution of `P \ O` agrees
//!    with `S` on `O`: the removal is safe. This settles about 73% of the
//!    removals that succeed (500 minimal puzzles, symmetry none).
//! 2. *Unavoidable sets* (no solver): sets of cells whose digits can be
//!    rearranged into another valid grid that agrees with `S` everywhere
//!    else, so every proper puzzle with solution `S` has a given in each. The
//!    generator lists, per solved grid, the two-digit ones: for digits
//!    `a < b`, link two of the 18 cells holding `a` or `b` when they share a
//!    unit; swapping `a` and `b` on a connected component keeps every unit
//!    valid (a unit holds one `a` and one `b`, both in the component or
//!    neither). If removing `O` leaves such a set without a given, `P \ O` is
//!    not proper. This settles about 38% of the removals that must be
//!    refused (same sample).
//! 3. *Solver*: with exactly one alternative `e` at cell `o`, one limit-1
//!    [`Solver`] run on `P \ O` plus the given `o = e` answers (any solution
//!    is a second one); with more, one limit-2 run counts the solutions of
//!    `P \ O`.
//!
//! Measured with callgrind (300 puzzles, seed 1, fast band solver): the
//! solver runs take ~88% of the instructions, the carving, shortcuts,
//! shuffling and WNF the rest. Rejected for step 3: one limit-1 run per
//! alternative digit, stopping at the first solvable one (+9.8% instructions:
//! a safe removal must refute every alternative, each run paying the solver's
//! set-up; with the baseline solver it had been 2.5% cheaper than counting);
//! always counting to 2 (+4.8%: with a single alternative the count must
//! first find `S` again); `Prune::Matching` or `Prune::MatchingRoot` in the
//! checks (2.9x and 1.5x the instructions with main's solver at 4e0086c: the
//! matching sweeps cost more than the guesses they save on these puzzles).
//! A solver entry point taking forbidden candidates
//! (`o ≠ S[o]`, limit 1) would make step 3 a single run that never looks
//! for `S`.

pub mod spans;
mod symmetry;

pub use symmetry::{Orbit, Symmetry};

use crate::grid::{Grid, PEERS, UNITS};
use crate::rating;
use crate::rating::se::{self as se_rating, Rater, Rating};
use crate::solver::{Outcome, SolveOptions, Solver};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::ops::RangeInclusive;

/// No proper Sudoku puzzle has fewer than 17 clues (McGuire, Tugemann,
/// Civario, "There is no 16-clue Sudoku", arXiv:1201.0749, 2012).
pub const MIN_PROPER_CLUES: usize = 17;

/// What the generator makes and which candidates it keeps.
#[derive(Debug, Clone, PartialEq)]
pub struct GenerateOptions {
    /// The symmetry of the pattern of givens.
    pub symmetry: Symmetry,
    /// Make minimal puzzles (no orbit removable, see the module doc); when
    /// false, stop removing at a clue count drawn from `clues`.
    pub minimal: bool,
    /// Keep puzzles whose clue count is in this range (inclusive).
    pub clues: RangeInclusive<usize>,
    /// Keep puzzles whose WNF level ([`rating::wnf`], 1..=4) is in this range.
    pub wnf_level: RangeInclusive<u8>,
    /// Keep puzzles whose scoring solve took this many guesses (inclusive).
    pub guesses: RangeInclusive<u64>,
    /// Keep puzzles whose Sudoku Explainer rating ER, in tenths as SE prints
    /// it (`70..=80` is 7.0 to 8.0), is in this range; `None` does not rate.
    /// Rating stops as soon as a step exceeds the maximum, as SE's own
    /// generator does.
    pub se: Option<RangeInclusive<i64>>,
    /// The budget of each candidate's SE rating ([`se_rating::Options::budget`]):
    /// a candidate whose rating runs past it is rejected
    /// ([`Reject::SeRating`]). Counted in work, so that a seed makes the
    /// same puzzles on any machine under any load (`generate --se-budget`,
    /// 10 s of reference work by default there); no limit by default here.
    pub se_budget: crate::work::Budget,
    /// Options of the scoring solve whose outcome fills the output row; the
    /// defaults equal `solve`'s, so `solve` reproduces the scores.
    pub score: SolveOptions,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            symmetry: Symmetry::None,
            minimal: true,
            clues: MIN_PROPER_CLUES..=81,
            wnf_level: 1..=4,
            guesses: 0..=u64::MAX,
            se: None,
            se_budget: crate::work::Budget::NONE,
            score: SolveOptions::default(),
        }
    }
}

impl GenerateOptions {
    /// Refuses options that no puzzle can meet, so that a run says so at
    /// once rather than after its tries: a clue range with no count the
    /// symmetry allows ([`Symmetry::allows_clues`]: under `rot90` only 4k
    /// or 4k + 1), or a rating range below 1.0, the easiest step's.
    ///
    /// Errors: the reason, naming the options as the CLI spells them.
    pub fn check_reachable(&self) -> Result<(), String> {
        if !self.clues.clone().any(|n| self.symmetry.allows_clues(n)) {
            return Err(format!(
                "--clues {}..{} with --symmetry {}: no puzzle has that many clues with that \
                 symmetry (its givens come in orbits of 4 and the centre: 4k or 4k + 1 clues)",
                self.clues.start(),
                self.clues.end(),
                format!("{:?}", self.symmetry).to_lowercase()
            ));
        }
        if let Some(se) = self.se.as_ref().filter(|se| *se.end() < 10) {
            return Err(format!(
                "--se {:.1}..{:.1}: no puzzle rates below 1.0 (its easiest step, the last cell \
                 of a region, is 1.0)",
                *se.start() as f64 / 10.0,
                *se.end() as f64 / 10.0
            ));
        }
        Ok(())
    }
}

/// Why a candidate puzzle was not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reject {
    /// Fewer clues than the range's minimum (found during removal, which only
    /// lowers the count, so the candidate is dropped at once).
    FewerClues,
    /// More clues than the range's maximum.
    MoreClues,
    /// WNF level outside the range.
    WnfLevel,
    /// Guess count of the scoring solve outside the range.
    Guesses,
    /// Sudoku Explainer rating outside the range, or past its budget
    /// ([`GenerateOptions::se_budget`]).
    SeRating,
    /// A stop was requested ([`crate::interrupt`]) while the candidate was
    /// made: its searches may have been cut short, so it is neither kept
    /// nor rejected, and the caller should stop.
    Stopped,
}

impl Reject {
    /// A short name for summaries: `clues<`, `clues>`, `wnf`, `guesses`.
    pub fn as_str(self) -> &'static str {
        match self {
            Reject::FewerClues => "clues<min",
            Reject::MoreClues => "clues>max",
            Reject::WnfLevel => "wnf_level",
            Reject::Guesses => "guesses",
            Reject::SeRating => "se",
            Reject::Stopped => "stopped",
        }
    }
}

/// A puzzle that passed the filters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Generated {
    /// Its Sudoku Explainer rating (ER, EP, ED) when
    /// [`GenerateOptions::se`] asked for one.
    pub se: Option<[f64; 3]>,
    /// The puzzle (proper: exactly one solution).
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// The scoring solve (options [`GenerateOptions::score`]) of the puzzle.
    pub outcome: Outcome,
    /// The candidate seed that rebuilds exactly this puzzle.
    pub seed: u64,
}

/// The stream of candidate seeds for puzzle number `index` of a run with seed
/// `run_seed`: ChaCha8 keyed by `run_seed` (through `seed_from_u64`) on stream
/// `index`; draw candidate seeds with `next_u64`. Streams of different indices
/// are independent, so puzzle `index` does not depend on any other puzzle.
pub fn seed_stream(run_seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(run_seed);
    rng.set_stream(index);
    rng
}

/// Bit `c` set = cell index `c` (0..81).
type CellSet = u128;

/// Each cell's 20 peers as a [`CellSet`].
const PEER_SETS: [CellSet; 81] = {
    let mut sets = [0; 81];
    let mut c = 0;
    while c < 81 {
        let mut k = 0;
        while k < 20 {
            sets[c] |= 1 << PEERS[c][k];
            k += 1;
        }
        c += 1;
    }
    sets
};

/// The 27 units (rows, columns, boxes, as in [`UNITS`]) as [`CellSet`]s.
const UNIT_SETS: [CellSet; 27] = {
    let mut sets = [0; 27];
    let mut u = 0;
    while u < 27 {
        let mut k = 0;
        while k < 9 {
            sets[u] |= 1 << UNITS[u][k];
            k += 1;
        }
        u += 1;
    }
    sets
};

/// The puzzle being carved from its solution, with its givens indexed by digit.
struct Carving {
    puzzle: Grid,
    solution: Grid,
    /// Cells holding a given.
    givens: CellSet,
    /// `by_digit[d]`: cells holding a given `d` (1..=9; index 0 unused).
    by_digit: [CellSet; 10],
}

impl Carving {
    fn new(solution: Grid) -> Carving {
        let mut by_digit = [0; 10];
        for (c, &d) in solution.cells().iter().enumerate() {
            by_digit[d as usize] |= 1 << c;
        }
        Carving {
            puzzle: solution,
            solution,
            givens: (1 << 81) - 1,
            by_digit,
        }
    }

    fn remove(&mut self, cell: usize) {
        let d = self.solution.get(cell) as usize;
        self.puzzle.set(cell, 0);
        self.givens &= !(1 << cell);
        self.by_digit[d] &= !(1 << cell);
    }

    fn restore(&mut self, cell: usize) {
        let d = self.solution.get(cell);
        self.puzzle.set(cell, d);
        self.givens |= 1 << cell;
        self.by_digit[d as usize] |= 1 << cell;
    }

    /// Replaces `sets` with the two-digit unavoidable sets of the solved grid
    /// (see the module doc): for each pair of digits `a < b`, the connected
    /// components of the 18 cells holding `a` or `b`, two cells linked when
    /// they share a unit (so one holds `a`, the other `b`).
    fn unavoidable_pairs(&self, sets: &mut Vec<CellSet>) {
        sets.clear();
        for a in 1..=9 {
            for b in a + 1..=9 {
                let pair = self.by_digit[a] | self.by_digit[b];
                let mut rest = pair;
                while rest != 0 {
                    let mut component: CellSet = 1 << rest.trailing_zeros();
                    let mut todo = component;
                    while todo != 0 {
                        let c = todo.trailing_zeros() as usize;
                        todo &= todo - 1;
                        let new = PEER_SETS[c] & pair & !component;
                        component |= new;
                        todo |= new;
                    }
                    rest &= !component;
                    sets.push(component);
                }
            }
        }
    }

    /// Digits 1..=9 held by givens among `cell`'s peers, as bit `d`.
    fn peer_digits(&self, cell: usize) -> u16 {
        let peers = PEER_SETS[cell];
        let mut seen = 0u16;
        for d in 1..=9 {
            if peers & self.by_digit[d] != 0 {
                seen |= 1 << d;
            }
        }
        seen
    }

    /// True when the remaining givens alone force blank `cell` to its solution
    /// digit, as a naked single or a hidden single (see the module doc).
    fn forced(&self, cell: usize) -> bool {
        let d = self.solution.get(cell) as usize;
        // Naked single: bits 1..=9 except d all seen.
        if self.peer_digits(cell) | (1 << d) == 0x3FE {
            return true;
        }
        // Hidden single: cells that cannot hold d are givens and peers of a given d.
        let mut blocked = self.givens;
        let mut with_d = self.by_digit[d];
        while with_d != 0 {
            blocked |= PEER_SETS[with_d.trailing_zeros() as usize];
            with_d &= with_d - 1;
        }
        let (r, c, b) = (cell / 9, cell % 9, crate::grid::box_of(cell));
        [r, 9 + c, 18 + b]
            .iter()
            .any(|&u| UNIT_SETS[u] & !blocked == 1 << cell)
    }
}

/// Makes puzzles; one per thread, reusing its solvers.
pub struct Generator {
    opts: GenerateOptions,
    orbits: Vec<Orbit>,
    /// Visit order of the orbits, reshuffled per candidate.
    order: Vec<Orbit>,
    /// Limit-1 solver for random grids and one-alternative uniqueness checks.
    check: Solver,
    /// Limit-2 solver for the other uniqueness checks.
    pair: Solver,
    /// Solver with the scoring options.
    score: Solver,
    /// Two-digit unavoidable sets of the current solved grid.
    unavoidable: Vec<CellSet>,
    /// The rater for [`GenerateOptions::se`].
    rater: Rater,
}

impl Generator {
    /// A generator with these options.
    pub fn new(opts: GenerateOptions) -> Generator {
        let orbits = opts.symmetry.orbits();
        Generator {
            order: orbits.clone(),
            orbits,
            check: Solver::new(SolveOptions {
                limit: 1,
                budget: crate::work::Budget::NONE,
                ..opts.score
            }),
            pair: Solver::new(SolveOptions {
                limit: 2,
                budget: crate::work::Budget::NONE,
                ..opts.score
            }),
            score: Solver::new(opts.score),
            unavoidable: Vec::with_capacity(128),
            rater: Rater::new(),
            opts,
        }
    }

    /// The options this generator was built with.
    pub fn options(&self) -> &GenerateOptions {
        &self.opts
    }

    /// Builds the candidate puzzle of candidate seed `seed` and applies the
    /// filters: the puzzle with its scoring solve, or why it was dropped.
    /// The same seed and options always give the same result.
    pub fn candidate(&mut self, seed: u64) -> Result<Generated, Reject> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // Box 1 gets a random permutation of 1..=9 (every grid is one of 9!
        // relabellings with a given box 1, so this loses no grid), and the
        // randomised solver completes the rest. Started this way because the
        // fast solver once panicked branching on the empty grid (fixed on main
        // in 4228990); kept so that a seed keeps making the same puzzles.
        let mut box1 = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        box1.shuffle(&mut rng);
        let mut start = Grid::EMPTY;
        for (k, &d) in box1.iter().enumerate() {
            start.set(UNITS[18][k] as usize, d);
        }
        let Some(solution) = self.check.solve_random(&start, &mut rng).solution else {
            // A stop request can cut even this search short.
            assert!(
                crate::interrupt::requested().is_some(),
                "a grid with only box 1 filled has solutions"
            );
            return Err(Reject::Stopped);
        };
        let min = (*self.opts.clues.start()).max(MIN_PROPER_CLUES);
        let max = *self.opts.clues.end();
        let target = if self.opts.minimal {
            0
        } else {
            rng.gen_range(min.min(80)..=max.clamp(min.min(80), 80))
        };
        self.order.copy_from_slice(&self.orbits);
        self.order.shuffle(&mut rng);
        let mut carving = Carving::new(solution);
        carving.unavoidable_pairs(&mut self.unavoidable);
        let mut clues = 81;
        for k in 0..self.order.len() {
            if clues <= target {
                break;
            }
            let orbit = self.order[k];
            let n = orbit.len();
            if !self.opts.minimal && clues - n < min {
                continue;
            }
            for &c in orbit.cells() {
                carving.remove(c as usize);
            }
            if self.still_unique(&mut carving, &orbit) {
                clues -= n;
                if clues < min {
                    return Err(Reject::FewerClues);
                }
            } else {
                for &c in orbit.cells() {
                    carving.restore(c as usize);
                }
            }
        }
        if clues > max {
            return Err(Reject::MoreClues);
        }
        let puzzle = carving.puzzle;
        if !self.opts.wnf_level.contains(&rating::wnf(&puzzle).level) {
            return Err(Reject::WnfLevel);
        }
        let outcome = self.score.solve(&puzzle);
        debug_assert_eq!(outcome.solutions, 1);
        debug_assert_eq!(outcome.solution, Some(solution));
        if !self.opts.guesses.contains(&outcome.guesses) {
            return Err(Reject::Guesses);
        }
        let mut se = None;
        if let Some(range) = &self.opts.se {
            // A step rated above the maximum (printed in tenths) ends the
            // rating: difficulties are tenths in doubles, so halfway to the
            // next tenth separates them.
            let ceiling = (*range.end() as f64 + 0.5) / 10.0;
            let opts = se_rating::Options {
                ceiling: Some(ceiling),
                budget: self.opts.se_budget,
                ..se_rating::Options::default()
            };
            match self.rater.rate(&puzzle, &opts) {
                Ok(r) if range.contains(&Rating::tenths(r.er)) => se = Some([r.er, r.ep, r.ed]),
                Ok(_) | Err(_) => return Err(Reject::SeRating),
            }
        }
        if crate::interrupt::requested().is_some() {
            // Any of the searches above may have been cut short.
            return Err(Reject::Stopped);
        }
        Ok(Generated {
            se,
            puzzle,
            solution,
            outcome,
            seed,
        })
    }

    /// With `orbit` already removed from the (proper) carving: true when the
    /// puzzle still has exactly one solution (see the module doc).
    fn still_unique(&mut self, carving: &mut Carving, orbit: &Orbit) -> bool {
        if orbit.cells().iter().all(|&c| carving.forced(c as usize)) {
            return true;
        }
        if self
            .unavoidable
            .iter()
            .any(|&set| set & carving.givens == 0)
        {
            return false;
        }
        // Digits other than the solution's still open in each cell of O.
        let mut open = [0u16; 4];
        let mut alternatives = 0;
        for (k, &o) in orbit.cells().iter().enumerate() {
            let d = carving.solution.get(o as usize);
            open[k] = !carving.peer_digits(o as usize) & 0x3FE & !(1 << d);
            alternatives += open[k].count_ones();
        }
        if alternatives > 1 {
            return self.pair.solve(&carving.puzzle).solutions == 1;
        }
        for (k, &o) in orbit.cells().iter().enumerate() {
            let mut digits = open[k];
            while digits != 0 {
                let e = digits.trailing_zeros() as u8;
                digits &= digits - 1;
                carving.puzzle.set(o as usize, e);
                let found = self.check.solve(&carving.puzzle).solutions;
                carving.puzzle.set(o as usize, 0);
                if found > 0 {
                    return false;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::count_solutions;

    fn gen(opts: GenerateOptions) -> Generator {
        Generator::new(opts)
    }

    #[test]
    fn candidates_are_proper_minimal_and_reproducible() {
        let mut g = gen(GenerateOptions::default());
        for seed in 0..5u64 {
            let p = g.candidate(seed).expect("no filters");
            assert_eq!(count_solutions(&p.puzzle, 2), 1);
            assert!(p.solution.is_solution_of(&p.puzzle));
            for c in 0..81 {
                if p.puzzle.get(c) != 0 {
                    let mut q = p.puzzle;
                    q.set(c, 0);
                    assert_eq!(
                        count_solutions(&q, 2),
                        2,
                        "seed {seed}: given {c} removable"
                    );
                }
            }
            assert_eq!(g.candidate(seed), Ok(p));
        }
    }

    #[test]
    fn symmetric_candidates_keep_their_pattern_and_no_orbit_is_removable() {
        for sym in [Symmetry::Rot90, Symmetry::Diagonal] {
            let mut g = gen(GenerateOptions {
                symmetry: sym,
                ..GenerateOptions::default()
            });
            let p = g.candidate(7).unwrap();
            assert!(sym.matches(&p.puzzle), "{sym:?}");
            assert_eq!(count_solutions(&p.puzzle, 2), 1);
            for orbit in sym.orbits() {
                if p.puzzle.get(orbit.cells()[0] as usize) == 0 {
                    continue;
                }
                let mut q = p.puzzle;
                for &c in orbit.cells() {
                    q.set(c as usize, 0);
                }
                assert_eq!(count_solutions(&q, 2), 2, "{sym:?}: orbit {orbit:?}");
            }
        }
    }

    #[test]
    fn forced_cells_are_really_forced() {
        // A proper carving: a minimal puzzle plus 15 of its blanks filled in.
        // Every given the cheap test calls forced must keep it proper when
        // removed alone, and the test must fire sometimes (on the extra
        // givens) but not always (the minimal puzzle's givens are necessary).
        let mut g = gen(GenerateOptions::default());
        let p = g.candidate(3).unwrap();
        let mut carving = Carving::new(p.solution);
        let blanks: Vec<usize> = (0..81).filter(|&c| p.puzzle.get(c) == 0).collect();
        for &c in &blanks[15..] {
            carving.remove(c);
        }
        let (mut forced, mut not_forced) = (0, 0);
        let givens: Vec<usize> = (0..81).filter(|&c| carving.puzzle.get(c) != 0).collect();
        for c in givens {
            carving.remove(c);
            if carving.forced(c) {
                forced += 1;
                assert_eq!(count_solutions(&carving.puzzle, 2), 1, "cell {c}");
            } else {
                not_forced += 1;
            }
            carving.restore(c);
        }
        assert!(forced > 0 && not_forced > 0, "{forced} {not_forced}");
    }

    #[test]
    fn unavoidable_pairs_swap_into_other_valid_grids() {
        let mut g = gen(GenerateOptions::default());
        let solution = g.candidate(11).unwrap().solution;
        let carving = Carving::new(solution);
        let mut sets = Vec::new();
        carving.unavoidable_pairs(&mut sets);
        // Each of the 36 digit pairs covers its 18 cells with its components.
        assert!(sets.len() >= 36);
        for &set in &sets {
            let cells: Vec<usize> = (0..81).filter(|&c| set >> c & 1 == 1).collect();
            let mut digits: Vec<u8> = cells.iter().map(|&c| solution.get(c)).collect();
            digits.sort_unstable();
            digits.dedup();
            assert_eq!(digits.len(), 2);
            let mut other = solution;
            for &c in &cells {
                let d = solution.get(c);
                other.set(c, if d == digits[0] { digits[1] } else { digits[0] });
            }
            assert_ne!(other, solution);
            assert!(
                other.is_complete() && other.check_givens().is_ok(),
                "{other}"
            );
        }
    }

    #[test]
    fn non_minimal_stops_at_the_clue_range() {
        let mut g = gen(GenerateOptions {
            minimal: false,
            clues: 40..=45,
            ..GenerateOptions::default()
        });
        for seed in 0..5 {
            let p = g.candidate(seed).unwrap();
            assert!((40..=45).contains(&p.puzzle.clues()));
            assert_eq!(count_solutions(&p.puzzle, 2), 1);
        }
    }

    #[test]
    fn seed_streams_differ_by_index_and_repeat() {
        use rand::RngCore;
        let a: Vec<u64> = (1..4).map(|i| seed_stream(9, i).next_u64()).collect();
        assert_ne!(a[0], a[1]);
        assert_ne!(a[1], a[2]);
        assert_eq!(seed_stream(9, 2).next_u64(), a[1]);
        assert_ne!(seed_stream(10, 2).next_u64(), a[1]);
    }
}
