//! `sudoflow bench`: a fair, validated comparison of Sudoku solvers.
//!
//! Every method from the seeds (SEEDS.md) is a [`BenchSolver`] in its own
//! module under [`solvers`]; [`harness`] runs the validation pass and the
//! timing loop; [`report`] prints the table, CSV or JSON; [`external`] times an
//! outside program fed through stdin/stdout.
//!
//! What an answer may claim (checked by the validation pass against an
//! independent reference solver, [`harness::References`], and the rules):
//!
//! | [`Answer::solutions`] | [`Answer::solution`] | meaning |
//! |---|---|---|
//! | `Some(n)` | `Some(grid)` if `n >= 1` | exactly `n` solutions (at least `n` when `n` = limit), `grid` one of them |
//! | `None` | `Some(grid)` | found the solution `grid`, cannot count (greedy colourings, external programs) |
//! | `None` | `None` | does not know (an incomplete method gave up, or the time budget ran out) |

pub mod external;
pub mod harness;
pub mod report;
pub mod solvers;

use crate::grid::Grid;
use rand::SeedableRng;
use std::time::Duration;

/// Transforms each puzzle of a dataset in place by its own uniformly random
/// element of Sudoku's validity-preserving group ([`crate::canon::group::random`]:
/// transposition, rows within bands, bands, columns within stacks, stacks and
/// a relabelling of the digits), drawn in order from a ChaCha8 generator
/// seeded with `seed` (`seed_from_u64`). The same seed gives the same puzzles
/// on every machine, whichever dataset came before.
///
/// This is tdoku's benchmark protocol (`run_benchmark -r 1`, its default,
/// permutes every puzzle before timing): a transformed puzzle has the same
/// solutions up to the transformation and the same logical difficulty, but a
/// backtracking solver's guess count, and so its time, depend on the cells'
/// order and the digits' labels, which a file's author may have chosen.
pub fn permute(puzzles: &mut [Grid], seed: u64) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for puzzle in puzzles {
        *puzzle = crate::canon::group::random(&mut rng).apply(puzzle);
    }
}

/// One solver's reply for one puzzle; see the module table for what it may claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Answer {
    /// Solutions counted up to the limit; `None` when the solver does not know
    /// the count (incomplete method, or [`Answer::timed_out`]).
    pub solutions: Option<u64>,
    /// A solution, if the solver found one.
    pub solution: Option<Grid>,
    /// Branch points taken by the search (one per cell or column branched on,
    /// not one per digit tried); `None` for solvers that do not count them
    /// (the ILP and SAT back ends, external programs).
    pub guesses: Option<u64>,
    /// The per-puzzle time budget ran out before the solver could answer.
    pub timed_out: bool,
}

impl Answer {
    /// "Does not know": no count, no solution, no timeout.
    pub const UNKNOWN: Answer = Answer {
        solutions: None,
        solution: None,
        guesses: None,
        timed_out: false,
    };

    /// The answer of a complete backtracking search that counted `found`
    /// solutions (up to its limit), kept the first one and took `guesses`
    /// branch points; a search that ran out of time (`timed_out`) does not
    /// know the count.
    pub fn searched(found: u64, solution: Option<Grid>, guesses: u64, timed_out: bool) -> Answer {
        Answer {
            solutions: (!timed_out).then_some(found),
            solution,
            guesses: Some(guesses),
            timed_out,
        }
    }

    /// True when the answer claims something: a count or a solution.
    pub fn answered(&self) -> bool {
        self.solutions.is_some() || self.solution.is_some()
    }
}

/// A solver that `bench` can time: one per thread, reused across puzzles.
pub trait BenchSolver {
    /// The name used by `--solvers` and in the output.
    fn name(&self) -> &str;

    /// Solves `puzzle` (givens known not to clash), counting solutions up to
    /// `limit` (at least 1) if the method can count.
    fn solve(&mut self, puzzle: &Grid, limit: u64) -> Answer;
}

/// What every solver is built with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Give up on a puzzle after this much time and answer
    /// [`Answer::timed_out`]; `None` runs to the end. Solvers check it every
    /// few thousand steps, so they overrun it slightly.
    pub time_budget: Option<Duration>,
}

/// The build that is being measured, printed once at the top of the table.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BuildInfo {
    /// `rustc -V` of the compiler that built this binary (read by build.rs).
    pub rustc: String,
    /// `debug` when debug assertions are on, else `release`.
    pub profile: String,
    /// The SIMD target features enabled at compile time, then the solver's
    /// path chosen at run time ([`crate::solver::simd`]), e.g.
    /// `sse2 (solver: avx2+pext)`.
    pub target_features: String,
}

impl BuildInfo {
    /// The build of this binary.
    pub fn current() -> BuildInfo {
        let mut features = Vec::new();
        if cfg!(target_feature = "sse2") {
            features.push("sse2");
        }
        if cfg!(target_feature = "ssse3") {
            features.push("ssse3");
        }
        if cfg!(target_feature = "sse4.1") {
            features.push("sse4.1");
        }
        if cfg!(target_feature = "popcnt") {
            features.push("popcnt");
        }
        if cfg!(target_feature = "avx") {
            features.push("avx");
        }
        if cfg!(target_feature = "avx2") {
            features.push("avx2");
        }
        if cfg!(target_feature = "bmi2") {
            features.push("bmi2");
        }
        if cfg!(target_feature = "avx512f") {
            features.push("avx512f");
        }
        if cfg!(target_feature = "neon") {
            features.push("neon");
        }
        BuildInfo {
            rustc: option_env!("SUDOFLOW_RUSTC_VERSION")
                .unwrap_or("unknown")
                .to_string(),
            profile: if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            }
            .to_string(),
            target_features: format!(
                "{} (solver: {})",
                if features.is_empty() {
                    "none".to_string()
                } else {
                    features.join(",")
                },
                crate::solver::simd::current().name()
            ),
        }
    }
}
