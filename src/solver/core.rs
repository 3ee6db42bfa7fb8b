//! The search: propagates a [`State`] to a fixed point (its module,
//! [`super::state`], has the design, the cell numbering and the bit layout),
//! alternates with the matching level ([`super::prune`]) where the run asks
//! for it, and branches on the cell or row pair [`super::branch`] chooses,
//! copying the state (256 bytes) for every alternative but the last.

use super::branch::Guess;
use super::hidden_pairs;
use super::state::{band_givens, givens_clash, Dead, Snapshot, State, GIVENS_CLASH, MASKS};
use super::{Outcome, Prune, SolveOptions};
use crate::grid::{Grid, Pencilmarks};
use crate::work::Meter;

/// Per-thread search driver. The search state lives on the call stack; the
/// matching level keeps one [`Snapshot`] per search depth here, so that the
/// basic level copies nothing but the candidates on a guess.
pub(super) struct Search {
    snapshots: Vec<Snapshot>,
}

/// One puzzle's run: options, counters, clock.
struct Run<'a, 'r> {
    opts: &'a SolveOptions,
    puzzle: &'a Grid,
    /// [`Run::givens_clash`] has run.
    givens_checked: bool,
    /// It found a clash: the run is over, with no solution.
    clash: bool,
    /// Matching snapshots by depth (used at [`Prune::Matching`] only).
    snapshots: &'a mut Vec<Snapshot>,
    limit: u64,
    rng: Option<&'r mut (dyn rand::RngCore + 'r)>,
    /// The search's budget ([`SolveOptions::budget`]): one unit per node.
    /// It looks at the budget, the stop flag and (with a wall-clock limit)
    /// the clock every [`crate::work::CHECK_EVERY`] nodes, so a search
    /// that ends sooner (well under a millisecond) never reads the clock,
    /// where reading it once per puzzle cost ~1.3% of a serg solve (1.5 µs)
    /// under `bench`'s budget; a wall-clock limit thus counts from the
    /// search's 4,096th node (about 1 ms in).
    meter: Meter,
    out: Outcome,
}

impl Run<'_, '_> {
    #[inline]
    fn done(&self) -> bool {
        self.out.solutions >= self.limit || self.out.timed_out || self.clash
    }

    /// Checks once whether the givens clash ([`givens_clash`]); if they do,
    /// the run ends with no solution.
    ///
    /// Lazy, because it is rarely needed: propagation finds most clashes at
    /// the root (two givens of a digit in one column of different bands, or
    /// in one box, or any clash in a complete grid), and a puzzle whose
    /// givens clash has no solution, so its search can only end in dead
    /// ends. But two givens of a digit in one row are two candidates of the
    /// row to the band's masks, both counted solved, and the search may then
    /// run for seconds before its tree is exhausted: so a search checks once
    /// it has met [`CHECK_GIVENS_AFTER`] dead ends, and a propagation that
    /// stalls with guessing off checks before reporting `stuck`. A property
    /// test (tests/solver_props.rs) holds that clashing givens never yield a
    /// solution.
    #[cold]
    fn givens_clash(&mut self) -> bool {
        self.givens_checked = true;
        self.clash = givens_clash(&band_givens(self.puzzle.cells()));
        if self.clash {
            self.out.solutions = 0;
            self.out.solution = None;
        }
        self.clash
    }
}

/// Dead ends a search meets before it checks the givens
/// ([`Run::givens_clash`]): a puzzle past this costs thousands of
/// instructions per dead end, so the check (~700) is noise there, while
/// puzzles below it (most of serg, the 17-clue set) never pay for it.
const CHECK_GIVENS_AFTER: u64 = 64;

impl Search {
    pub(super) fn new() -> Search {
        Search {
            snapshots: Vec::new(),
        }
    }

    /// Solves `puzzle`; with `counts`, also writes WNF's candidate counts
    /// of its blank cells there ([`State::candidate_counts`], from the root
    /// state before propagation).
    pub(super) fn run<'r>(
        &mut self,
        puzzle: &Grid,
        opts: &SolveOptions,
        rng: Option<&'r mut (dyn rand::RngCore + 'r)>,
        counts: Option<&mut [u32; 10]>,
        candidates: Option<&Pencilmarks>,
    ) -> Outcome {
        if opts.prune != Prune::Basic {
            self.snapshots.clear();
            self.snapshots.push([0; MASKS]);
        }
        let mut run = Run {
            opts,
            puzzle,
            givens_checked: false,
            clash: false,
            snapshots: &mut self.snapshots,
            limit: opts.limit.max(1),
            rng,
            meter: Meter::new(opts.budget),
            out: Outcome::default(),
        };
        let mut root = State {
            cands: [0; MASKS],
            dirty: 0,
        };
        root.set_grid(puzzle);
        if let Some(pm) = candidates {
            root.restrict(pm.masks());
        }
        if cfg!(debug_assertions) {
            // Pencilmarks, like clashing givens, give masks that do not come
            // from consistent givens: the skip's exactness check is off.
            let off = candidates.is_some() || givens_clash(&band_givens(puzzle.cells()));
            GIVENS_CLASH.with(|c| c.set(off));
        }
        if let Some(counts) = counts {
            *counts = root.candidate_counts();
        }
        search(&mut root, 0, &mut run);
        run.out
    }
}

/// Propagates `st`, at search depth `depth` (the root,
/// [`Path::propagate_root`], at 0), to a fixed point at the run's pruning
/// level; `snapshot` is the branch's matching snapshot.
#[inline(always)]
fn settle<P: Path>(
    st: &mut State,
    depth: usize,
    prune: Prune,
    snapshot: Option<&mut Snapshot>,
) -> Result<(), Dead> {
    if depth == 0 {
        P::propagate_root(st)?;
        // Hidden pairs where many cells are open (`hidden_pairs` module doc).
        if hidden_pairs::open_cells(st) >= hidden_pairs::MIN_OPEN {
            while P::hidden_pairs(st) {
                P::propagate(st)?;
            }
        }
    } else {
        P::propagate(st)?;
    }
    if let (Prune::Matching | Prune::MatchingRoot, Some(snapshot)) = (prune, snapshot) {
        while !st.solved() && super::prune::matching_pass(st, snapshot)? {
            st.propagate()?;
        }
    }
    Ok(())
}

/// An instruction-set path of the search ([`super::simd`]): the search is
/// compiled once per path, with propagation inlined into it, so that a node
/// costs no call into propagation and a guess's 256-byte copy is inlined
/// (AVX2: eight 32-byte moves, not a `memcpy` call).
trait Path {
    /// The search below a node, on this path.
    fn search(st: &mut State, depth: usize, run: &mut Run<'_, '_>);
    /// Basic propagation, inlined into this path's search.
    fn propagate(st: &mut State) -> Result<(), Dead>;
    /// [`Path::propagate`] of the search root, where every mask of a band
    /// with a given is dirty at once: the AVX-512 path first updates all 27
    /// masks in one vector pass ([`State::root_pass_avx512`]), the AVX2
    /// paths in the same pass written lane by lane
    /// ([`State::root_pass_lanes`]); the baseline propagates as at any node.
    #[inline(always)]
    fn propagate_root(st: &mut State) -> Result<(), Dead> {
        Self::propagate(st)
    }
    /// One pass of [`hidden_pairs::pass`] at a fixed point; true if it
    /// removed a candidate. On x86_64 every path finds the pairs with vector
    /// compares ([`hidden_pairs::pass_sse2`], [`hidden_pairs::pass_avx2`],
    /// [`hidden_pairs::pass_avx512`]); the same fixed point.
    #[inline(always)]
    fn hidden_pairs(st: &mut State) -> bool {
        hidden_pairs::pass(st)
    }
}

/// The x86_64 baseline (or any architecture).
struct Baseline;

impl Path for Baseline {
    #[inline(always)]
    fn search(st: &mut State, depth: usize, run: &mut Run<'_, '_>) {
        search_baseline(st, depth, run)
    }
    #[inline(always)]
    fn propagate(st: &mut State) -> Result<(), Dead> {
        st.propagate_body::<false>()
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn hidden_pairs(st: &mut State) -> bool {
        hidden_pairs::pass_sse2(st)
    }
}

/// AVX2, BMI1, BMI2, POPCNT, LZCNT: [`super::simd::Simd::Avx2`], or with
/// `PEXT` [`super::simd::Simd::Avx2Pext`] (`pext` in propagation).
#[cfg(target_arch = "x86_64")]
struct Avx2<const PEXT: bool>;

#[cfg(target_arch = "x86_64")]
impl<const PEXT: bool> Path for Avx2<PEXT> {
    #[inline(always)]
    fn search(st: &mut State, depth: usize, run: &mut Run<'_, '_>) {
        // SAFETY: this path only runs where the CPU has its features
        // (`search` chose it from `simd::current`).
        unsafe { search_avx2::<PEXT>(st, depth, run) }
    }
    #[inline(always)]
    fn propagate(st: &mut State) -> Result<(), Dead> {
        st.propagate_body::<PEXT>()
    }
    #[inline(always)]
    fn propagate_root(st: &mut State) -> Result<(), Dead> {
        let touched = st.root_pass_lanes()?;
        st.propagate_from::<PEXT>(touched)
    }
    #[inline(always)]
    fn hidden_pairs(st: &mut State) -> bool {
        // SAFETY: this path only runs where the CPU has AVX2, BMI1, POPCNT.
        unsafe { hidden_pairs::pass_avx2(st) }
    }
}

/// [`Avx2`] with `pext` and AVX-512 (F, VL, BW, DQ, CD):
/// [`super::simd::Simd::Avx512`].
#[cfg(target_arch = "x86_64")]
struct Avx512;

#[cfg(target_arch = "x86_64")]
impl Path for Avx512 {
    #[inline(always)]
    fn search(st: &mut State, depth: usize, run: &mut Run<'_, '_>) {
        // SAFETY: this path only runs where the CPU has its features
        // (`search` chose it from `simd::current`).
        unsafe { search_avx512(st, depth, run) }
    }
    #[inline(always)]
    fn propagate(st: &mut State) -> Result<(), Dead> {
        st.propagate_body::<true>()
    }
    #[inline(always)]
    fn propagate_root(st: &mut State) -> Result<(), Dead> {
        // SAFETY: this path only runs where the CPU has AVX-512 F, VL, BW, DQ.
        let touched = unsafe { st.root_pass_avx512()? };
        st.propagate_from::<true>(touched)
    }
    #[inline(always)]
    fn hidden_pairs(st: &mut State) -> bool {
        // SAFETY: this path only runs where the CPU has AVX-512 F, VL, BW,
        // DQ and CD.
        unsafe { hidden_pairs::pass_avx512(st) }
    }
}

/// Searches below `st` at search depth `depth` (0 = root), on the path
/// [`super::simd::current`] gives.
fn search(st: &mut State, depth: usize, run: &mut Run<'_, '_>) {
    #[cfg(target_arch = "x86_64")]
    match super::simd::current() {
        super::simd::Simd::Avx512 => return Avx512::search(st, depth, run),
        super::simd::Simd::Avx2Pext => return Avx2::<true>::search(st, depth, run),
        super::simd::Simd::Avx2 => return Avx2::<false>::search(st, depth, run),
        super::simd::Simd::Sse2 => {}
    }
    search_baseline(st, depth, run)
}

/// The search compiled for the baseline.
fn search_baseline(st: &mut State, depth: usize, run: &mut Run<'_, '_>) {
    search_body::<Baseline>(st, depth, run)
}

/// The search compiled for the AVX2 path, with `pext` in propagation
/// where `PEXT`.
///
/// # Safety
/// The CPU must have AVX2, BMI1, BMI2, POPCNT and LZCNT (and with `PEXT`,
/// `pext` should be fast: [`super::simd::fast_pext_available`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
unsafe fn search_avx2<const PEXT: bool>(st: &mut State, depth: usize, run: &mut Run<'_, '_>) {
    search_body::<Avx2<PEXT>>(st, depth, run)
}

/// The search compiled for the AVX-512 path (with `pext`).
///
/// # Safety
/// The CPU must have what [`super::simd::avx512_available`] checks.
#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512bw,avx512dq,avx512cd"
)]
unsafe fn search_avx512(st: &mut State, depth: usize, run: &mut Run<'_, '_>) {
    search_body::<Avx512>(st, depth, run)
}

/// The body of the search, inlined into each path's copy.
#[inline(always)]
fn search_body<P: Path>(st: &mut State, depth: usize, run: &mut Run<'_, '_>) {
    run.meter.count(1);
    let matching = match run.opts.prune {
        Prune::Basic => false,
        Prune::Matching => true,
        Prune::MatchingRoot => depth == 0,
    };
    let snapshot = if matching {
        if run.snapshots.len() <= depth {
            run.snapshots.push([0; MASKS]);
        }
        if depth > 0 {
            run.snapshots[depth] = run.snapshots[depth - 1];
        }
        Some(&mut run.snapshots[depth])
    } else {
        None
    };
    if settle::<P>(st, depth, run.opts.prune, snapshot).is_err() {
        run.out.backtracks += 1;
        return;
    }
    if st.solved() {
        run.out.solutions += 1;
        if run.out.solution.is_none() {
            run.out.solution = st.solution_grid();
        }
        return;
    }
    if !run.opts.guess {
        if !run.givens_checked && run.givens_clash() {
            return;
        }
        run.out.stuck = true;
        return;
    }
    if run.out.backtracks >= CHECK_GIVENS_AFTER && !run.givens_checked && run.givens_clash() {
        return;
    }
    if run.meter.stopped() {
        run.out.timed_out = true;
        return;
    }
    let (b, cell) = match super::branch::branch(st, run.out.backtracks, depth) {
        Guess::Cell { band, cell } => (band, cell),
        Guess::RowPair { digit, a, b } => {
            // The digit's two places in a band row: at one, else at the
            // other; in a random order where the run draws the digits' order.
            run.out.guesses += 1;
            let swap = run
                .rng
                .as_deref_mut()
                .is_some_and(|rng| rng.next_u32() & 1 == 1);
            let (first, second) = if swap { (b, a) } else { (a, b) };
            if !try_digit::<P>(st, first.0, first.1, digit, false, depth, run) {
                try_digit::<P>(st, second.0, second.1, digit, true, depth, run);
            }
            return;
        }
    };
    let bit = cell.trailing_zeros() as usize & 31;
    let mut set = st.digit_set(b, bit);
    run.out.guesses += 1;
    if let Some(rng) = run.rng.as_deref_mut() {
        let mut digits = [0usize; 9];
        let mut n = 0;
        while set != 0 {
            digits[n] = set.trailing_zeros() as usize;
            set &= set - 1;
            n += 1;
        }
        for i in (1..n).rev() {
            let j = (rng.next_u32() as usize) % (i + 1);
            digits.swap(i, j);
        }
        for (k, &d) in digits[..n].iter().enumerate() {
            if try_digit::<P>(st, b, bit, d, k + 1 == n, depth, run) {
                return;
            }
        }
    } else {
        while set != 0 {
            let d = set.trailing_zeros() as usize;
            set &= set - 1;
            if try_digit::<P>(st, b, bit, d, set == 0, depth, run) {
                return;
            }
        }
    }
}

/// One alternative of a guess: digit `d` in the cell at bit `bit` of band
/// `b`, searched on a copy of `st`, or on `st` itself for the `last`
/// alternative. True when the run is done (limit or budget reached, or a
/// stop requested).
#[inline(always)]
fn try_digit<P: Path>(
    st: &mut State,
    b: usize,
    bit: usize,
    d: usize,
    last: bool,
    depth: usize,
    run: &mut Run<'_, '_>,
) -> bool {
    if last {
        if st.place_one(d, b, bit).is_ok() {
            P::search(st, depth + 1, run);
        } else {
            run.out.backtracks += 1;
        }
        return true;
    }
    let mut next = st.child();
    if next.place_one(d, b, bit).is_ok() {
        P::search(&mut next, depth + 1, run);
    } else {
        run.out.backtracks += 1;
    }
    run.done()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::work::Budget;
    use std::time::Duration;

    const INKALA: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    fn opts() -> SolveOptions {
        SolveOptions::default()
    }

    #[test]
    fn empty_grid_has_many_solutions_and_guesses() {
        let out = Search::new().run(&Grid::EMPTY, &opts(), None, None, None);
        assert_eq!(out.solutions, 2);
        assert!(out.guesses > 0);
        assert!(out.solution.unwrap().is_complete());
    }

    #[test]
    fn hard_puzzle_unique_and_stuck_without_guessing() {
        let p = Grid::parse(INKALA).unwrap();
        let out = Search::new().run(&p, &opts(), None, None, None);
        assert_eq!(out.solutions, 1);
        assert!(out.solution.unwrap().is_solution_of(&p));
        assert!(out.guesses > 0);
        let no_guess = SolveOptions {
            guess: false,
            ..opts()
        };
        let out = Search::new().run(&p, &no_guess, None, None, None);
        assert!(out.stuck);
        assert_eq!((out.solutions, out.guesses), (0, 0));
    }

    #[test]
    fn wall_limit_stops_an_endless_count() {
        let endless = SolveOptions {
            limit: u64::MAX,
            budget: Budget {
                work: None,
                wall: Some(Duration::from_millis(20)),
            },
            ..opts()
        };
        let out = Search::new().run(&Grid::EMPTY, &endless, None, None, None);
        assert!(out.timed_out);
        assert!(out.solutions > 0);
    }

    #[test]
    fn a_node_budget_stops_an_endless_count_at_the_same_point_every_time() {
        let endless = |nodes| SolveOptions {
            limit: u64::MAX,
            budget: Budget {
                work: Some(nodes),
                wall: None,
            },
            ..opts()
        };
        for nodes in [1, 4095, 4096, 100_000] {
            let runs: Vec<Outcome> = (0..3)
                .map(|_| Search::new().run(&Grid::EMPTY, &endless(nodes), None, None, None))
                .collect();
            assert!(runs[0].timed_out, "{nodes} nodes");
            assert!(runs.iter().all(|o| *o == runs[0]), "{nodes} nodes");
            // Counting is cut after `nodes` nodes, so the count grows with it.
            assert!(runs[0].solutions <= nodes, "{nodes} nodes");
        }
        let far = Search::new().run(&Grid::EMPTY, &endless(100_000), None, None, None);
        let near = Search::new().run(&Grid::EMPTY, &endless(4096), None, None, None);
        assert!(far.solutions > near.solutions);
    }

    #[test]
    fn clashing_givens_have_no_solution() {
        // Same digit twice in a row, a column, a box; and a cell with no candidate.
        let mut row = Grid::EMPTY;
        row.set(0, 5);
        row.set(8, 5);
        let mut col = Grid::EMPTY;
        col.set(4, 3);
        col.set(76, 3);
        let mut bx = Grid::EMPTY;
        bx.set(0, 7);
        bx.set(20, 7);
        let mut dead = Grid::EMPTY;
        for (cell, d) in [
            (1, 1),
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (6, 6),
            (7, 7),
            (9, 8),
            (72, 9),
        ] {
            dead.set(cell, d);
        }
        // Found by the property test of tests/solver_props.rs: two 4s in
        // row 1, which propagation alone took for two candidates of the row
        // (the search then guessed for seconds).
        let far = Grid::parse(
            ".9.4...4..........2......4.....5............2.....................9.5.....3......",
        )
        .unwrap();
        // Most colliding givens are found by the first propagation, without
        // a guess; the others once the search has met CHECK_GIVENS_AFTER
        // dead ends.
        for g in [row, col, bx] {
            assert_eq!(
                State::from_grid(&g).propagate(),
                Err(Dead),
                "{}",
                g.to_line()
            );
        }
        for g in [row, col, bx, far, dead] {
            let out = Search::new().run(&g, &opts(), None, None, None);
            assert!(out.backtracks <= 2 * CHECK_GIVENS_AFTER, "{}", g.to_line());
            assert_eq!(out.solutions, 0, "{}", g.to_line());
            assert!(out.backtracks > 0);
        }
    }

    #[test]
    fn state_of_a_solution_round_trips() {
        let p = Grid::parse(INKALA).unwrap();
        let sol = Search::new()
            .run(&p, &opts(), None, None, None)
            .solution
            .unwrap();
        let mut st = State::from_grid(&sol);
        st.propagate().unwrap();
        assert!(st.solved());
        assert_eq!(st.solution_grid(), Some(sol));
    }
}
