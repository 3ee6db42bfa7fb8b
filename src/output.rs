//! The CSV row that `solve` writes (and `generate` extends with `seed`).
//!
//! Columns, in order: `index,puzzle,status,solutions,solution,clues,wnf,wnf_level,
//! guesses,backtracks,error`. `wnf` is printed with 10 decimals, which is at
//! least 7 significant digits for every possible WNF (its minimum is 1/512).

use crate::grid::Grid;
use crate::rating::Wnf;
use crate::solver::Outcome;

/// The header of `solve`'s CSV, in column order.
pub const SOLVE_HEADER: [&str; 11] = [
    "index",
    "puzzle",
    "status",
    "solutions",
    "solution",
    "clues",
    "wnf",
    "wnf_level",
    "guesses",
    "backtracks",
    "error",
];

/// A record's status column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Exactly one solution.
    Unique,
    /// Two or more solutions (counting stopped at the limit).
    Multiple,
    /// No solution.
    Unsolvable,
    /// Not a puzzle: bad length, bad character or clashing givens.
    Invalid,
    /// Propagation stalled with guessing turned off.
    Stuck,
    /// The per-record time budget ran out.
    Timeout,
}

impl Status {
    /// The status as written in the CSV.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::Unsolvable => "unsolvable",
            Status::Invalid => "invalid",
            Status::Stuck => "stuck",
            Status::Timeout => "timeout",
        }
    }

    /// The status a solver outcome stands for (never `Invalid`).
    pub fn of(outcome: &Outcome) -> Status {
        if outcome.timed_out {
            Status::Timeout
        } else if outcome.stuck && outcome.solutions == 0 {
            Status::Stuck
        } else {
            match outcome.solutions {
                0 => Status::Unsolvable,
                1 if !outcome.stuck => Status::Unique,
                1 => Status::Stuck,
                _ => Status::Multiple,
            }
        }
    }
}

/// One row of `solve`'s output.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveRow {
    /// 1-based position of the record among all records.
    pub index: u64,
    /// The puzzle with `.` for blanks, or the raw text of an invalid record.
    pub puzzle: String,
    /// See [`Status`].
    pub status: Status,
    /// Solutions found, capped at the limit.
    pub solutions: u64,
    /// The first solution found, if any.
    pub solution: Option<Grid>,
    /// Number of givens (0 for a record that did not parse).
    pub clues: usize,
    /// WNF, for every record that is not invalid.
    pub wnf: Option<Wnf>,
    /// Guesses the solver took.
    pub guesses: u64,
    /// Backtracks the solver met.
    pub backtracks: u64,
    /// Empty unless invalid: names the record's source line and the problem.
    pub error: String,
}

impl SolveRow {
    /// The row for a valid puzzle that was solved with `outcome`.
    pub fn solved(index: u64, puzzle: &Grid, outcome: &Outcome) -> SolveRow {
        SolveRow {
            index,
            puzzle: puzzle.to_line(),
            status: Status::of(outcome),
            solutions: outcome.solutions,
            solution: outcome.solution,
            clues: puzzle.clues(),
            wnf: Some(crate::rating::wnf(puzzle)),
            guesses: outcome.guesses,
            backtracks: outcome.backtracks,
            error: String::new(),
        }
    }

    /// The row for an invalid record: `raw` is its puzzle field as read,
    /// `error` the message naming the source line and the problem.
    pub fn invalid(index: u64, raw: &str, error: String) -> SolveRow {
        SolveRow {
            index,
            puzzle: raw.to_string(),
            status: Status::Invalid,
            solutions: 0,
            solution: None,
            clues: 0,
            wnf: None,
            guesses: 0,
            backtracks: 0,
            error,
        }
    }

    /// The fields as CSV strings, in [`SOLVE_HEADER`] order.
    pub fn fields(&self) -> [String; 11] {
        [
            self.index.to_string(),
            self.puzzle.clone(),
            self.status.as_str().to_string(),
            self.solutions.to_string(),
            self.solution.map(|s| s.to_line()).unwrap_or_default(),
            self.clues.to_string(),
            self.wnf
                .map(|w| format!("{:.10}", w.value))
                .unwrap_or_default(),
            self.wnf.map(|w| w.level.to_string()).unwrap_or_default(),
            self.guesses.to_string(),
            self.backtracks.to_string(),
            self.error.clone(),
        ]
    }
}
