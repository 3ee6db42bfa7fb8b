//! The solvers `bench` compares, one module each, and the name registry.
//!
//! Complete solvers (they answer every puzzle, given time): `sudoflow`,
//! `sudoflow-basic`, `sudoflow-matching`, `sudoflow-matching-root`, `naive`, `mrv`, `dlx`, `ilp`, `sat`.
//! Incomplete ones (they may answer "don't know", never a wrong answer):
//! `dsatur`, `welsh-powell`, `matching-only`.

pub mod dlx;
pub mod dsatur;
#[cfg(feature = "ilp")]
pub mod ilp;
pub mod matching_only;
pub mod mrv;
pub mod naive;
#[cfg(feature = "sat")]
pub mod sat;
pub mod sudoflow;
pub mod welsh_powell;

use super::{BenchSolver, Settings};
use anyhow::bail;

/// The solvers `all` runs, in table order: every name `--solvers` accepts
/// but `sudoflow-basic`, which is `sudoflow` itself while
/// [`crate::solver::Prune::default`] is `basic` (a unit test holds them to
/// that), so that no solver is timed twice under two names.
pub const ALL: [&str; 11] = [
    "sudoflow",
    "sudoflow-matching",
    "sudoflow-matching-root",
    "mrv",
    "dlx",
    "matching-only",
    "naive",
    "dsatur",
    "welsh-powell",
    "ilp",
    "sat",
];

/// The default `--solvers`: the ones fast enough to run on every public set
/// in seconds, each a different solver.
pub const DEFAULT: [&str; 5] = [
    "sudoflow",
    "sudoflow-matching",
    "mrv",
    "dlx",
    "matching-only",
];

/// True for the solvers that may answer "don't know" without a timeout.
pub fn is_incomplete(name: &str) -> bool {
    matches!(name, "dsatur" | "welsh-powell" | "matching-only")
}

/// Builds the solver called `name`.
///
/// Errors: an unknown name (the message lists the known ones), or a solver
/// whose cargo feature (`ilp`, `sat`) is off in this build.
pub fn build(name: &str, settings: &Settings) -> anyhow::Result<Box<dyn BenchSolver>> {
    use crate::solver::Prune;
    Ok(match name {
        "sudoflow" => Box::new(sudoflow::SudoflowSolver::new("sudoflow", None, settings)),
        "sudoflow-basic" => Box::new(sudoflow::SudoflowSolver::new(
            "sudoflow-basic",
            Some(Prune::Basic),
            settings,
        )),
        "sudoflow-matching" => Box::new(sudoflow::SudoflowSolver::new(
            "sudoflow-matching",
            Some(Prune::Matching),
            settings,
        )),
        "sudoflow-matching-root" => Box::new(sudoflow::SudoflowSolver::new(
            "sudoflow-matching-root",
            Some(Prune::MatchingRoot),
            settings,
        )),
        "naive" => Box::new(naive::Naive::new(settings)),
        "mrv" => Box::new(mrv::Mrv::new(settings)),
        "dsatur" => Box::new(dsatur::Dsatur),
        "welsh-powell" => Box::new(welsh_powell::WelshPowell),
        "dlx" => Box::new(dlx::Dlx::new(settings)),
        "matching-only" => Box::new(matching_only::MatchingOnly),
        #[cfg(feature = "ilp")]
        "ilp" => Box::new(ilp::Ilp::new(settings)),
        #[cfg(not(feature = "ilp"))]
        "ilp" => bail!("solver `ilp` needs the cargo feature `ilp`"),
        #[cfg(feature = "sat")]
        "sat" => Box::new(sat::Sat::new(settings)),
        #[cfg(not(feature = "sat"))]
        "sat" => bail!("solver `sat` needs the cargo feature `sat`"),
        _ => bail!(
            "unknown solver `{name}`; known: {}, sudoflow-basic",
            ALL.join(", ")
        ),
    })
}

/// Shared pieces of the candidate-mask solvers (`mrv`, `dsatur`,
/// `welsh-powell`). Mask layout: bit `d - 1` set = digit `d` (1..=9).
pub(crate) mod masks {
    use crate::grid::{Grid, PEERS};

    /// All nine digits.
    pub const ALL: u16 = 0x1FF;

    /// The digits used by the peers of each cell: `used[c]` has bit `d - 1`
    /// set when a peer of cell `c` holds digit `d`.
    pub fn used_by_peers(grid: &Grid) -> [u16; 81] {
        let mut used = [0u16; 81];
        for (c, u) in used.iter_mut().enumerate() {
            for &p in &PEERS[c] {
                let d = grid.get(p as usize);
                if d != 0 {
                    *u |= 1 << (d - 1);
                }
            }
        }
        used
    }

    /// The grid whose cell `c` holds the single digit of `cand[c]`; every
    /// mask must have exactly one bit set.
    pub fn grid_of(cand: &[u16; 81]) -> Option<Grid> {
        let mut cells = [0u8; 81];
        for (v, &m) in cells.iter_mut().zip(cand.iter()) {
            if m.count_ones() != 1 {
                return None;
            }
            *v = m.trailing_zeros() as u8 + 1;
        }
        Grid::from_cells(cells)
    }
}

#[cfg(test)]
pub(crate) mod testkit {
    //! Small puzzle sets for the solvers' unit tests: made from solved grids,
    //! so their solutions are known without trusting any solver.
    use crate::grid::Grid;

    /// Inkala's puzzle (SEEDS.md section 2) and its unique solution.
    pub const INKALA: (&str, &str) = (
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452",
    );

    /// A puzzle with no solution whose givens do not clash: r1c1-r1c8 hold
    /// 1-8, so r1c9 must be 9, but r2c9 is 9.
    pub const NO_SOLUTION: &str =
        "12345678.........9...............................................................";

    /// Twelve puzzles with many givens (41-61), each paired with the solved
    /// grid it was made from: Inkala's solution relabelled (digits rotated by
    /// k) and, every other time, transposed, then every second, third or
    /// fourth cell blanked. They need not have a unique solution.
    pub fn easy() -> Vec<(Grid, Grid)> {
        let base = Grid::parse(INKALA.1).unwrap();
        let mut out = Vec::new();
        for k in 0..12u32 {
            let mut cells = [0u8; 81];
            for (c, v) in cells.iter_mut().enumerate() {
                let (r, col) = (c / 9, c % 9);
                // Transpose every other grid; relabel digits by a rotation.
                let src = if k % 2 == 0 { c } else { col * 9 + r };
                *v = ((base.get(src) - 1 + k as u8) % 9) + 1;
            }
            let solved = Grid::from_cells(cells).unwrap();
            let mut puzzle = solved;
            let step = 2 + (k as usize % 3);
            for c in ((k as usize % step)..81).step_by(step) {
                puzzle.set(c, 0);
            }
            out.push((puzzle, solved));
        }
        out
    }

    /// The first `n` puzzles of magictour top1465; `None` only when the set
    /// is missing and `SUDOFLOW_ALLOW_MISSING_DATASETS` lets tests skip it.
    pub fn top1465(n: usize) -> Option<Vec<Grid>> {
        let mut all = crate::datasets::load_public_or_skip(crate::datasets::TOP1465)?;
        all.truncate(n);
        Some(all)
    }

    /// Checks a complete solver against the default solver on [`easy`] and
    /// Inkala's puzzle: same count at limit 2, a solution obeying the rules.
    pub fn check_complete(solver: &mut dyn super::BenchSolver) {
        let mut cases: Vec<Grid> = easy().into_iter().map(|(p, _)| p).collect();
        cases.push(Grid::parse(INKALA.0).unwrap());
        for puzzle in cases {
            let reference = crate::solver::count_solutions(&puzzle, 2);
            let answer = solver.solve(&puzzle, 2);
            assert_eq!(
                answer.solutions,
                Some(reference),
                "{} on {}",
                solver.name(),
                puzzle.to_line()
            );
            let solution = answer.solution.expect("a solution");
            assert!(solution.is_solution_of(&puzzle), "{}", solver.name());
            if reference == 1 && puzzle.to_line() == INKALA.0 {
                assert_eq!(solution.to_line(), INKALA.1);
            }
        }
        let none = Grid::parse(NO_SOLUTION).unwrap();
        let answer = solver.solve(&none, 2);
        assert_eq!(answer.solutions, Some(0), "{}", solver.name());
        assert_eq!(answer.solution, None, "{}", solver.name());
    }

    /// Checks that `solver` never claims anything wrong on `puzzles` (it may
    /// answer "don't know"), with the harness's own [`crate::bench::harness::check`].
    pub fn check_sound(solver: &mut dyn super::BenchSolver, puzzles: &[Grid]) {
        for puzzle in puzzles {
            let reference = crate::bench::harness::reference(puzzle, 2, "dlx");
            let answer = solver.solve(puzzle, 2);
            if let Err(problem) =
                crate::bench::harness::check(puzzle, &answer, &reference, 2, false)
            {
                panic!("{} on {}: {problem}", solver.name(), puzzle.to_line());
            }
        }
    }
}
