//! The validation pass and the timing loop.
//!
//! For each dataset and solver:
//! 1. **Validation**: solve the puzzles in file order, once each, and check
//!    every answer with [`check`] against the default solver
//!    ([`crate::solver::Solver`] at default options, no time budget) and the
//!    rules. It stops early, after at least one puzzle, once the solver has
//!    spent [`Config::validate_time`] on it; the puzzles it reached are the
//!    *validated* ones. The per-puzzle statistics (answered %, solved without
//!    a guess %, guesses/puzzle, timeouts) come from this pass: one solve per
//!    distinct puzzle.
//! 2. **Warm-up**: cycle through the validated puzzles for [`Config::warmup`]
//!    (wall time), untimed.
//! 3. **Timing**: keep cycling through the validated puzzles, single-threaded,
//!    with [`Instant`] read just before and after each solve, until the summed
//!    solve time reaches [`Config::time`] and every validated puzzle has been
//!    timed at least once (so this loop takes at most about as long as the
//!    validation pass when that is longer than `time`); puzzles/s and
//!    µs/puzzle come from this loop only.

use super::{Answer, BenchSolver};
use crate::grid::Grid;
use crate::solver::{SolveOptions, Solver};
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
}

/// The default solver's answer for one puzzle: the yardstick of [`check`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reference {
    /// Solutions, capped at the limit.
    pub solutions: u64,
    /// The first solution found, if any.
    pub solution: Option<Grid>,
}

/// The default solver's answer for `puzzle`, counting up to `limit`.
pub fn reference(puzzle: &Grid, limit: u64) -> Reference {
    let outcome = Solver::new(SolveOptions {
        limit: limit.max(1),
        ..SolveOptions::default()
    })
    .solve(puzzle);
    Reference {
        solutions: outcome.solutions,
        solution: outcome.solution,
    }
}

/// The default solver's answers for a dataset, computed on first use.
pub struct References {
    limit: u64,
    solver: Solver,
    cache: Vec<Option<Reference>>,
}

impl References {
    /// An empty cache for `n` puzzles counted up to `limit`.
    pub fn new(n: usize, limit: u64) -> References {
        let limit = limit.max(1);
        References {
            limit,
            solver: Solver::new(SolveOptions {
                limit,
                ..SolveOptions::default()
            }),
            cache: vec![None; n],
        }
    }

    /// The reference for puzzle number `i` (0-based) of `puzzles`.
    pub fn get(&mut self, i: usize, puzzle: &Grid) -> Reference {
        if let Some(r) = self.cache[i] {
            return r;
        }
        let outcome = self.solver.solve(puzzle);
        let r = Reference {
            solutions: outcome.solutions,
            solution: outcome.solution,
        };
        self.cache[i] = Some(r);
        r
    }

    /// The limit counts are capped at.
    pub fn limit(&self) -> u64 {
        self.limit
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
                "it gives the solution {} but the default solver finds none",
                s.to_line()
            ));
        }
        if expected == 1 && reference.solution != Some(s) {
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
                "it counts {n} solution(s), the default solver {expected} (limit {limit})"
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
    /// Timed solves per second of summed solve time.
    pub puzzles_per_sec: f64,
    /// Mean solve time, microseconds.
    pub us_per_puzzle: f64,
    /// % of validated puzzles answered with no guess (`None` when the solver
    /// does not count guesses).
    pub no_guess_pct: Option<f64>,
    /// Mean guesses per validated puzzle (`None` when not counted).
    pub guesses_per_puzzle: Option<f64>,
    /// % of validated puzzles for which the solver gave a count or a solution.
    pub answered_pct: f64,
    /// Validated puzzles on which the per-puzzle time budget ran out.
    pub timeouts: u64,
    /// Validated puzzles on which the solver disagreed with the reference.
    pub disagreements: usize,
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
        if answer.answered() {
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

    pub(crate) fn into_row(
        self,
        dataset: &str,
        solver: &str,
        puzzles: usize,
        runs: u64,
        timed: Duration,
    ) -> Row {
        let n = self.validated.max(1) as f64;
        let secs = timed.as_secs_f64();
        Row {
            dataset: dataset.to_string(),
            solver: solver.to_string(),
            puzzles,
            validated: self.validated,
            runs,
            puzzles_per_sec: if secs > 0.0 { runs as f64 / secs } else { 0.0 },
            us_per_puzzle: if runs > 0 {
                secs * 1e6 / runs as f64
            } else {
                0.0
            },
            no_guess_pct: self
                .counts_guesses
                .then(|| 100.0 * self.no_guess as f64 / n),
            guesses_per_puzzle: self.counts_guesses.then(|| self.guesses as f64 / n),
            answered_pct: 100.0 * self.answered as f64 / n,
            timeouts: self.timeouts,
            disagreements: self.problems.len(),
            problems: self.problems,
        }
    }
}

/// Validates and times `solver` on `puzzles` (givens known not to clash).
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
    for (i, puzzle) in puzzles.iter().enumerate() {
        if i > 0 && spent >= config.validate_time {
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
        while warm_start.elapsed() < config.warmup {
            if let Some(p) = cycle.next() {
                std::hint::black_box(solver.solve(p, limit));
            }
        }
        // Every validated puzzle is timed at least once, so a slow solver's
        // figure is not that of the first few puzzles of the file.
        while timed < config.time || runs < validated.len() as u64 {
            let Some(p) = cycle.next() else { break };
            let start = Instant::now();
            let answer = solver.solve(p, limit);
            timed += start.elapsed();
            std::hint::black_box(answer);
            runs += 1;
        }
    }
    tally.into_row(dataset, solver.name(), puzzles.len(), runs, timed)
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
        let r = reference(&puzzle, 2);
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
        let r = reference(&puzzle, 2);
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
        let mut refs = References::new(puzzles.len(), 2);
        let config = Config {
            time: Duration::from_millis(5),
            warmup: Duration::ZERO,
            limit: 2,
            validate_time: Duration::from_secs(10),
        };
        let row = run("easy", &puzzles, &mut refs, &mut AlwaysNone, true, &config);
        assert_eq!(row.validated, puzzles.len());
        assert_eq!(row.disagreements, puzzles.len());
        assert_eq!(row.problems[0].index, 1);
        assert!(row.runs >= 1);
        assert_eq!(row.answered_pct, 100.0);
        assert_eq!(row.no_guess_pct, Some(100.0));
    }
}
