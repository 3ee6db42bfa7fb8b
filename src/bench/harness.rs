//! The validation pass and the timing loop.
//!
//! For each dataset and solver:
//! 1. **Validation**: solve the puzzles in file order, once each, and check
//!    every answer with [`check`] against an independent reference solver
//!    ([`References`]: the dancing-links solver `dlx`, or `mrv` when `dlx`
//!    itself is measured; no time budget) and the rules. It stops early, after at least one puzzle, once the solver has
//!    spent [`Config::validate_time`] on it; the puzzles it reached are the
//!    *validated* ones. The per-puzzle statistics (answered %: answers that
//!    claim something and agree with the reference; solved without
//!    a guess %, guesses/puzzle, timeouts) come from this pass: one solve per
//!    distinct puzzle.
//! 2. **Warm-up**: cycle through the validated puzzles for [`Config::warmup`]
//!    (wall time), untimed.
//! 3. **Timing**: keep cycling through the validated puzzles, single-threaded,
//!    with [`Instant`] read before and after each block of solves (up to
//!    [`TIMED_BLOCK`], about 100 µs of them: [`block_len`]), until the summed
//!    solve time reaches [`Config::time`] and every validated puzzle has been
//!    timed at least once (so this loop takes at most about as long as the
//!    validation pass when that is longer than `time`); puzzles/s and
//!    µs/puzzle come from this loop only.

use super::{Answer, BenchSolver};
use crate::grid::Grid;

use std::time::{Duration, Instant};

/// How a run is measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    /// Target summed solve time per solver and dataset (`--time`).
    pub time: Duration,
    /// Untimed warm-up per solver and dataset (`--warmup`).
    pub warmup: Duration,
    /// Count solutions up to this many (`--limit`, at least 1).
    pub limit: u64,
    /// Solve time after which validation stops (`--validate-time`); it also
    /// bounds the timing loop, which times each validated puzzle at least once.
    pub validate_time: Duration,
    /// Per-puzzle time budget (`--time-budget`): built-in solvers get it through
    /// [`super::Settings`]; external programs are killed past it (see
    /// [`super::external`]).
    pub budget: Duration,
}

/// The reference solver's answer for one puzzle: the yardstick of [`check`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reference {
    /// Solutions, capped at what the reference counts to (the run's limit,
    /// and at least 2: [`References::new`]).
    pub solutions: u64,
    /// The first solution found, if any.
    pub solution: Option<Grid>,
    /// The reference solver's name (`dlx` or `mrv`), for messages.
    pub by: &'static str,
}

/// The reference solver for a measured solver: `dlx` (Knuth's Algorithm X,
/// sharing no code with [`crate::solver`]), or `mrv` (a plain
/// fewest-candidates backtracker) when the measured solver is `dlx` itself,
/// so that no solver is checked against its own answers.
pub fn reference_for(solver: &str) -> &'static str {
    if solver == "dlx" {
        "mrv"
    } else {
        "dlx"
    }
}

/// The answer of the reference solver `by` (`dlx` or `mrv`) for `puzzle`,
/// for a run counting up to `limit` (the reference itself counts up to at
/// least 2, [`References::new`]).
///
/// Panics: `by` is not `dlx` or `mrv`.
pub fn reference(puzzle: &Grid, limit: u64, by: &'static str) -> Reference {
    References::new(1, limit, by).get(0, puzzle)
}

/// A reference solver's answers for a dataset, computed on first use.
pub struct References {
    limit: u64,
    by: &'static str,
    solver: Box<dyn BenchSolver>,
    cache: Vec<Option<Reference>>,
}

impl References {
    /// An empty cache for `n` puzzles of a run counting up to `limit`, by the
    /// reference solver `by` (`dlx` or `mrv`, run without a time budget).
    /// The reference counts up to `limit` and at least 2: at limit 1 a
    /// solver may give any solution of a puzzle that has several, and only
    /// the count to 2 says whether the puzzle has one to compare with.
    ///
    /// Panics: `by` is not `dlx` or `mrv`.
    pub fn new(n: usize, limit: u64, by: &'static str) -> References {
        let settings = super::Settings { time_budget: None };
        let solver: Box<dyn BenchSolver> = match by {
            "dlx" => Box::new(super::solvers::dlx::Dlx::new(&settings)),
            "mrv" => Box::new(super::solvers::mrv::Mrv::new(&settings)),
            other => panic!("no reference solver `{other}`"),
        };
        References {
            limit: limit.max(1),
            by,
            solver,
            cache: vec![None; n],
        }
    }

    /// The reference for puzzle number `i` (0-based) of `puzzles`.
    pub fn get(&mut self, i: usize, puzzle: &Grid) -> Reference {
        if let Some(r) = self.cache[i] {
            return r;
        }
        // At least 2, so that a run at limit 1 still knows which puzzles
        // are unique.
        let answer = self.solver.solve(puzzle, self.limit.max(2));
        // Both reference solvers are complete and run without a budget, so
        // they always count.
        let r = Reference {
            solutions: answer.solutions.unwrap_or(0),
            solution: answer.solution,
            by: self.by,
        };
        self.cache[i] = Some(r);
        r
    }

    /// The run's limit: what the measured solvers count up to, and what
    /// [`check`] caps both counts at.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The reference solver's name.
    pub fn by(&self) -> &'static str {
        self.by
    }
}

/// Checks one answer against the reference and the rules.
///
/// Rules: a solution must obey the rules and keep the givens, and equal the
/// unique solution when there is one; a count must equal the reference count
/// (both capped at `limit`) and come with a solution when it is not 0; a
/// `complete` solver must answer unless it timed out.
///
/// Errors: a one-line description of the disagreement.
pub fn check(
    puzzle: &Grid,
    answer: &Answer,
    reference: &Reference,
    limit: u64,
    complete: bool,
) -> Result<(), String> {
    let limit = limit.max(1);
    let expected = reference.solutions.min(limit);
    if let Some(s) = answer.solution {
        if !s.is_solution_of(puzzle) {
            return Err(format!(
                "its solution {} breaks the rules or the givens",
                s.to_line()
            ));
        }
        if expected == 0 {
            return Err(format!(
                "it gives the solution {} but the reference ({}) finds none",
                s.to_line(),
                reference.by
            ));
        }
        // A puzzle with one solution: the answer must be it. With more (the
        // reference counts to 2 at least), any grid that keeps the rules.
        if reference.solutions == 1 && reference.solution != Some(s) {
            return Err(format!(
                "its solution {} differs from the unique solution",
                s.to_line()
            ));
        }
    }
    if let Some(n) = answer.solutions {
        let n = n.min(limit);
        if n != expected {
            return Err(format!(
                "it counts {n} solution(s), the reference ({}) {expected} (limit {limit})",
                reference.by
            ));
        }
        if n >= 1 && answer.solution.is_none() {
            return Err(format!("it counts {n} solution(s) but gives none"));
        }
    }
    if complete && !answer.answered() && !answer.timed_out {
        return Err("a complete solver gave no answer".to_string());
    }
    Ok(())
}

/// One disagreement found by the validation pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement {
    /// 1-based position of the puzzle among the dataset's puzzles.
    pub index: usize,
    /// The puzzle, 81 characters.
    pub puzzle: String,
    /// What is wrong, from [`check`].
    pub problem: String,
}

/// The measurements for one solver on one dataset.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Row {
    /// The dataset's file name.
    pub dataset: String,
    /// The solver's name.
    pub solver: String,
    /// Puzzles in the dataset (with non-clashing givens).
    pub puzzles: usize,
    /// Puzzles the validation pass reached (a prefix of the dataset).
    pub validated: usize,
    /// Solves timed (for external solvers: puzzles over all timed batches).
    pub runs: u64,
    /// Timed solves per second of summed solve time (`None` when nothing
    /// was timed: no puzzle validated, or an external program failed).
    pub puzzles_per_sec: Option<f64>,
    /// Mean solve time, microseconds (`None` as for `puzzles_per_sec`). For
    /// an external program, its start-up ([`Row::startup_ms`]) is taken out:
    /// (batch time - start-up) / puzzles per batch.
    pub us_per_puzzle: Option<f64>,
    /// An external program's start-up, milliseconds: the fastest of three
    /// runs on an empty input (`None` for built-in solvers).
    pub startup_ms: Option<f64>,
    /// % of validated puzzles answered with no guess (`None` when the solver
    /// does not count guesses).
    pub no_guess_pct: Option<f64>,
    /// Mean guesses per validated puzzle (`None` when not counted).
    pub guesses_per_puzzle: Option<f64>,
    /// % of validated puzzles for which the solver gave a count or a solution
    /// that agrees with the reference and the rules (a wrong answer is a
    /// disagreement, not an answer).
    pub answered_pct: f64,
    /// Validated puzzles on which the per-puzzle time budget ran out.
    pub timeouts: u64,
    /// Validated puzzles on which the solver disagreed with the reference.
    pub disagreements: usize,
    /// The reference solver answers were checked against (`dlx` or `mrv`).
    pub reference: String,
    /// Why the solver could not be measured (an external program that is
    /// missing, fails or does not exit); `None` when it ran.
    pub failure: Option<String>,
    /// The disagreements themselves (not serialized; printed to stderr).
    #[serde(skip)]
    pub problems: Vec<Disagreement>,
}

/// Per-puzzle statistics gathered by a validation pass.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    pub validated: usize,
    pub answered: u64,
    pub no_guess: u64,
    pub guesses: u64,
    pub counts_guesses: bool,
    pub timeouts: u64,
    pub problems: Vec<Disagreement>,
}

impl Tally {
    pub(crate) fn add(
        &mut self,
        index: usize,
        puzzle: &Grid,
        answer: &Answer,
        verdict: Result<(), String>,
    ) {
        self.validated += 1;
        if answer.answered() && verdict.is_ok() {
            self.answered += 1;
            if answer.guesses == Some(0) {
                self.no_guess += 1;
            }
        }
        if let Some(g) = answer.guesses {
            self.counts_guesses = true;
            self.guesses += g;
        }
        if answer.timed_out {
            self.timeouts += 1;
        }
        if let Err(problem) = verdict {
            self.problems.push(Disagreement {
                index: index + 1,
                puzzle: puzzle.to_line(),
                problem,
            });
        }
    }

    /// The row of these statistics; `runs` solves were timed in `timed`
    /// (in all), `reference` names the reference solver.
    pub(crate) fn into_row(
        self,
        dataset: &str,
        solver: &str,
        puzzles: usize,
        runs: u64,
        timed: Duration,
        reference: &str,
    ) -> Row {
        let n = self.validated.max(1) as f64;
        let secs = timed.as_secs_f64();
        Row {
            dataset: dataset.to_string(),
            solver: solver.to_string(),
            puzzles,
            validated: self.validated,
            runs,
            puzzles_per_sec: (runs > 0 && secs > 0.0).then(|| runs as f64 / secs),
            us_per_puzzle: (runs > 0).then(|| secs * 1e6 / runs as f64),
            startup_ms: None,
            no_guess_pct: self
                .counts_guesses
                .then(|| 100.0 * self.no_guess as f64 / n),
            guesses_per_puzzle: self.counts_guesses.then(|| self.guesses as f64 / n),
            answered_pct: 100.0 * self.answered as f64 / n,
            timeouts: self.timeouts,
            disagreements: self.problems.len(),
            reference: reference.to_string(),
            failure: None,
            problems: self.problems,
        }
    }
}

/// Most solves timed between two reads of the clock in the timing loop.
///
/// Reading the clock costs ~20 ns (`clock_gettime` through the vDSO): 3-4%
/// of a 1.5 µs solve when read around each one (perf, serg), ~0.05% over a
/// block of 64. tdoku's `run_benchmark` likewise reads it once per pass
/// through its set.
pub const TIMED_BLOCK: usize = 64;

/// Solves per timed block for a solver that spent `spent` on `solved`
/// puzzles in the validation pass: about 100 µs of them, 1 to
/// [`TIMED_BLOCK`], so that the timing loop overshoots [`Config::time`] by
/// little even for slow solvers.
pub fn block_len(spent: Duration, solved: usize) -> usize {
    let mean_ns = spent.as_nanos() / (solved.max(1) as u128);
    (100_000 / mean_ns.max(1)).clamp(1, TIMED_BLOCK as u128) as usize
}

/// Validates and times `solver` on `puzzles` (givens known not to clash).
/// After SIGINT or SIGTERM ([`crate::interrupt::requested`]) each phase
/// stops at its next puzzle or timed block, and the row holds what was
/// measured so far (at least one puzzle validated).
pub fn run(
    dataset: &str,
    puzzles: &[Grid],
    references: &mut References,
    solver: &mut dyn BenchSolver,
    complete: bool,
    config: &Config,
) -> Row {
    let limit = references.limit();
    let mut tally = Tally::default();
    let mut spent = Duration::ZERO;
    let stopped = || crate::interrupt::requested().is_some();
    for (i, puzzle) in puzzles.iter().enumerate() {
        if i > 0 && (spent >= config.validate_time || stopped()) {
            break;
        }
        let start = Instant::now();
        let answer = solver.solve(puzzle, limit);
        spent += start.elapsed();
        let reference = references.get(i, puzzle);
        let verdict = check(puzzle, &answer, &reference, limit, complete);
        tally.add(i, puzzle, &answer, verdict);
    }
    let validated = &puzzles[..tally.validated];
    let mut runs = 0u64;
    let mut timed = Duration::ZERO;
    if !validated.is_empty() {
        let mut cycle = validated.iter().cycle();
        let warm_start = Instant::now();
        while warm_start.elapsed() < config.warmup && !stopped() {
            if let Some(p) = cycle.next() {
                std::hint::black_box(solver.solve(p, limit));
            }
        }
        // Every validated puzzle is timed at least once, so a slow solver's
        // figure is not that of the first few puzzles of the file.
        let block = block_len(spent, validated.len());
        while (timed < config.time || runs < validated.len() as u64) && !stopped() {
            let start = Instant::now();
            for p in cycle.by_ref().take(block) {
                std::hint::black_box(solver.solve(p, limit));
                runs += 1;
            }
            timed += start.elapsed();
        }
    }
    let by = references.by();
    tally.into_row(dataset, solver.name(), puzzles.len(), runs, timed, by)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::solvers::testkit;

    fn inkala() -> (Grid, Grid) {
        (
            Grid::parse(testkit::INKALA.0).unwrap(),
            Grid::parse(testkit::INKALA.1).unwrap(),
        )
    }

    #[test]
    fn check_accepts_the_right_answer_and_names_each_wrong_one() {
        let (puzzle, solution) = inkala();
        let r = reference(&puzzle, 2, "dlx");
        assert_eq!(r.solutions, 1);
        let right = Answer {
            solutions: Some(1),
            solution: Some(solution),
            guesses: Some(3),
            timed_out: false,
        };
        assert_eq!(check(&puzzle, &right, &r, 2, true), Ok(()));
        // Found, uncounted: fine.
        let found = Answer {
            solution: Some(solution),
            ..Answer::UNKNOWN
        };
        assert_eq!(check(&puzzle, &found, &r, 2, false), Ok(()));
        // Wrong count.
        let two = Answer {
            solutions: Some(2),
            ..right
        };
        assert!(check(&puzzle, &two, &r, 2, true)
            .unwrap_err()
            .contains("counts 2"));
        // A grid that breaks the rules (two cells swapped in row 1).
        let mut broken = solution;
        broken.set(1, solution.get(2));
        let wrong = Answer {
            solution: Some(broken),
            ..right
        };
        assert!(check(&puzzle, &wrong, &r, 2, true)
            .unwrap_err()
            .contains("breaks the rules"));
        // "No solution" for a puzzle that has one.
        let none = Answer {
            solutions: Some(0),
            solution: None,
            ..right
        };
        assert!(check(&puzzle, &none, &r, 2, true).is_err());
        // A complete solver that shrugs; an incomplete one may.
        assert!(check(&puzzle, &Answer::UNKNOWN, &r, 2, true).is_err());
        assert_eq!(check(&puzzle, &Answer::UNKNOWN, &r, 2, false), Ok(()));
        // A timeout is no claim.
        let late = Answer {
            timed_out: true,
            ..Answer::UNKNOWN
        };
        assert_eq!(check(&puzzle, &late, &r, 2, true), Ok(()));
    }

    /// A deadly pattern in Inkala's solution: rows r1, r2 of one band and
    /// columns c1, c2 of different stacks with a at (r1,c1), (r2,c2) and b at
    /// (r1,c2), (r2,c1). Blanking the four cells leaves exactly two solutions,
    /// the grid and the grid with a and b swapped there.
    fn deadly_pattern(solution: &Grid) -> Option<(Grid, Grid)> {
        for r1 in 0..9 {
            for r2 in r1 + 1..(r1 / 3 + 1) * 3 {
                for c1 in 0..9 {
                    for c2 in c1 + 1..9 {
                        if c1 / 3 == c2 / 3 {
                            continue;
                        }
                        let (a, b) = (solution.get(9 * r1 + c1), solution.get(9 * r1 + c2));
                        if solution.get(9 * r2 + c1) == b && solution.get(9 * r2 + c2) == a {
                            let mut puzzle = *solution;
                            let mut other = *solution;
                            for (cell, v) in [
                                (9 * r1 + c1, b),
                                (9 * r1 + c2, a),
                                (9 * r2 + c1, a),
                                (9 * r2 + c2, b),
                            ] {
                                puzzle.set(cell, 0);
                                other.set(cell, v);
                            }
                            return Some((puzzle, other));
                        }
                    }
                }
            }
        }
        None
    }

    #[test]
    fn both_solutions_of_a_two_solution_puzzle_pass() {
        let (_, solution) = inkala();
        let (puzzle, other) = deadly_pattern(&solution).expect("Inkala's solution has one");
        assert!(other.is_solution_of(&puzzle) && other != solution);
        let r = reference(&puzzle, 2, "dlx");
        assert_eq!(r.solutions, 2);
        for grid in [solution, other] {
            let found = Answer {
                solution: Some(grid),
                ..Answer::UNKNOWN
            };
            assert_eq!(check(&puzzle, &found, &r, 2, false), Ok(()));
            let counted = Answer {
                solutions: Some(2),
                ..found
            };
            assert_eq!(check(&puzzle, &counted, &r, 2, true), Ok(()));
        }
        // At limit 1 either solution is an answer: the reference still counts
        // to 2, so it knows the puzzle is not unique.
        let r1 = reference(&puzzle, 1, "dlx");
        assert_eq!(r1.solutions, 2);
        for grid in [solution, other] {
            let one = Answer {
                solutions: Some(1),
                solution: Some(grid),
                guesses: Some(1),
                timed_out: false,
            };
            assert_eq!(check(&puzzle, &one, &r1, 1, true), Ok(()));
        }
        // A puzzle the reference counts unique still wants that solution at
        // limit 1: a grid that keeps the rules but is not the reference's
        // (here a reference made to say the two-solution puzzle is unique).
        let unique = Reference {
            solutions: 1,
            solution: Some(solution),
            by: "dlx",
        };
        let one = Answer {
            solutions: Some(1),
            solution: Some(other),
            guesses: Some(1),
            timed_out: false,
        };
        assert!(check(&puzzle, &one, &unique, 1, true)
            .unwrap_err()
            .contains("differs from the unique solution"));
        let (inkala, inkala_solution) = inkala();
        let r = reference(&inkala, 1, "dlx");
        assert_eq!(r.solutions, 1);
        let right = Answer {
            solution: Some(inkala_solution),
            ..one
        };
        assert_eq!(check(&inkala, &right, &r, 1, true), Ok(()));
    }

    #[test]
    fn timed_blocks_hold_about_100_us_of_solves() {
        let us = Duration::from_micros;
        // Fast solvers: the clock is read once per 64 solves.
        assert_eq!(block_len(us(150), 100), TIMED_BLOCK);
        // 10 µs a puzzle: 10 per block; 100 µs or slower: one.
        assert_eq!(block_len(us(1_000), 100), 10);
        assert_eq!(block_len(us(100), 1), 1);
        assert_eq!(block_len(Duration::from_secs(3), 1), 1);
        // A validation pass too fast to read: the largest block.
        assert_eq!(block_len(Duration::ZERO, 0), TIMED_BLOCK);
    }

    #[test]
    fn run_validates_times_and_reports_a_wrong_solver() {
        struct AlwaysNone;
        impl BenchSolver for AlwaysNone {
            fn name(&self) -> &str {
                "always-none"
            }
            fn solve(&mut self, _: &Grid, _: u64) -> Answer {
                Answer {
                    solutions: Some(0),
                    guesses: Some(0),
                    ..Answer::UNKNOWN
                }
            }
        }
        let puzzles: Vec<Grid> = testkit::easy().into_iter().map(|(p, _)| p).collect();
        let mut refs = References::new(puzzles.len(), 2, "dlx");
        let config = Config {
            time: Duration::from_millis(5),
            warmup: Duration::ZERO,
            limit: 2,
            validate_time: Duration::from_secs(10),
            budget: Duration::from_secs(1),
        };
        let row = run("easy", &puzzles, &mut refs, &mut AlwaysNone, true, &config);
        assert_eq!(row.validated, puzzles.len());
        assert_eq!(row.disagreements, puzzles.len());
        assert_eq!(row.problems[0].index, 1);
        assert!(row.runs >= 1);
        // Wrong answers are disagreements, not answers.
        assert_eq!(row.answered_pct, 0.0);
        assert_eq!(row.reference, "dlx");
    }
}
