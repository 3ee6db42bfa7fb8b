//! `rate`'s row for one record: Sudoku Explainer's rating (ER/EP/ED) of a
//! puzzle with one solution. Columns:
//! `index,puzzle,status,er,ep,ed,technique,steps,error`.

use crate::grid::Pencilmarks;
use crate::pipeline::{self, Record};
use crate::rating::se::{self, RateError, Rater, Rating};
use crate::solver::{SolveOptions, Solver};
use crate::work::{self, Budget, Cut};
use std::time::Duration;

/// The header of `rate`'s CSV, in column order.
pub const RATE_HEADER: [&str; 9] = [
    "index",
    "puzzle",
    "status",
    "er",
    "ep",
    "ed",
    "technique",
    "steps",
    "error",
];

/// The default `--time-budget` per puzzle (of reference work).
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(10);

/// A rating's limits as the command line gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RateLimits {
    /// The budget as a duration of reference work (`--time-budget`,
    /// `--se-budget`), turned into work with [`work::rater_units`]:
    /// whether a puzzle runs out depends on it and the puzzle only.
    /// `None`: no budget.
    pub time: Option<Duration>,
    /// An extra wall-clock limit (`--wall-limit`), whose timeouts depend
    /// on the machine and its load; `None`: none.
    pub wall: Option<Duration>,
}

impl RateLimits {
    /// `time` of reference work, no wall-clock limit.
    pub fn work(time: Duration) -> RateLimits {
        RateLimits {
            time: Some(time),
            wall: None,
        }
    }

    /// The rater's budget for these limits.
    pub fn budget(&self) -> Budget {
        Budget {
            work: self.time.map(work::rater_units),
            wall: self.wall,
        }
    }

    /// The error column of a rating cut short by `cut` after `steps` steps:
    /// `rating took longer than the time budget of 10s of work (stopped
    /// after 12 steps)`. It names the budget as given, so that it says
    /// nothing that depends on the machine or its load (but for the
    /// wall-clock limit's steps), and holds no comma (a CSV field without
    /// quotes).
    pub fn timeout_message(&self, cut: Cut, steps: usize) -> String {
        let given = |d: Option<Duration>| d.map_or_else(|| "?".to_string(), human);
        match cut {
            Cut::Work => format!(
                "rating took longer than the time budget of {} of work (stopped after \
                 {steps} steps)",
                given(self.time)
            ),
            Cut::Wall => format!(
                "rating took longer than the wall-clock limit of {} (stopped after {steps} \
                 steps)",
                given(self.wall)
            ),
            Cut::Stop => format!("rating was stopped by a signal after {steps} steps"),
        }
    }
}

/// What rating one record gave.
#[derive(Debug, Clone, PartialEq)]
pub enum RateOutcome {
    /// One solution: SE's rating.
    Rated(Rating),
    /// Two or more solutions.
    Multiple,
    /// No solution: the error column, naming the record and where
    /// propagation finds the contradiction ([`crate::solver::why_unsolvable`]).
    Unsolvable(String),
    /// The budget ran out, or a stop was requested (`Cut::Stop`: such a
    /// row is not written), after `steps` steps.
    Timeout {
        /// What cut the rating short.
        cut: Cut,
        /// Steps applied before.
        steps: usize,
        /// The error column ([`RateLimits::timeout_message`]).
        message: String,
    },
    /// Not a puzzle: the message names the record and the problem.
    Invalid(String),
    /// The work on the record panicked (a bug): the message names the
    /// record and the panic.
    Error(String),
}

/// One row of `rate`'s output.
#[derive(Debug, Clone, PartialEq)]
pub struct RateRow {
    /// 1-based position of the record among all records.
    pub index: u64,
    /// The puzzle with `.` for blanks, or the raw text of an invalid record.
    pub puzzle: String,
    /// The outcome.
    pub outcome: RateOutcome,
}

impl RateRow {
    /// `--labels`' column: the level of its er on Sudoku Explainer's
    /// generator scale ([`crate::rating::labels`]: Easy ... Diabolical),
    /// empty for a row that is not rated.
    pub fn label(&self) -> &'static str {
        match &self.outcome {
            RateOutcome::Rated(r) => crate::rating::labels::label(r.er),
            _ => "",
        }
    }

    /// The status column.
    pub fn status(&self) -> &'static str {
        match self.outcome {
            RateOutcome::Rated(_) => "rated",
            RateOutcome::Multiple => "multiple",
            RateOutcome::Unsolvable(_) => "unsolvable",
            RateOutcome::Timeout { .. } => "timeout",
            RateOutcome::Invalid(_) => "invalid",
            RateOutcome::Error(_) => "error",
        }
    }

    /// The fields in [`RATE_HEADER`] order; rating columns are empty unless
    /// rated.
    pub fn fields(&self) -> [String; 9] {
        let mut f: [String; 9] = Default::default();
        f[0] = self.index.to_string();
        f[1].clone_from(&self.puzzle);
        f[2] = self.status().to_string();
        match &self.outcome {
            RateOutcome::Rated(r) => {
                f[3] = Rating::format(r.er);
                f[4] = Rating::format(r.ep);
                f[5] = Rating::format(r.ed);
                f[6].clone_from(&r.technique);
                f[7] = r.step_count.to_string();
            }
            RateOutcome::Timeout { message: e, .. }
            | RateOutcome::Unsolvable(e)
            | RateOutcome::Invalid(e)
            | RateOutcome::Error(e) => f[8].clone_from(e),
            RateOutcome::Multiple => {}
        }
        f
    }
}

impl pipeline::FromPanic for RateRow {
    fn from_panic(record: &Record, message: &str) -> RateRow {
        RateRow {
            index: record.index,
            puzzle: record
                .grid
                .as_ref()
                .map_or_else(|_| record.raw.clone(), |g| g.to_line()),
            outcome: RateOutcome::Error(pipeline::panic_message(record, message)),
        }
    }
}

/// A duration as a user wrote it: `10s`, `1.5s`, `500ms`.
fn human(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{}s", d.as_secs())
    } else if d < Duration::from_secs(1) {
        // In the largest unit that writes it whole: `1500us`, not `1ms`.
        match d.subsec_nanos() {
            n if n % 1_000_000 == 0 => format!("{}ms", n / 1_000_000),
            n if n % 1_000 == 0 => format!("{}us", n / 1_000),
            n => format!("{n}ns"),
        }
    } else {
        format!("{}s", d.as_secs_f64())
    }
}

/// A worker's state: a solver for the uniqueness check and a rater.
pub struct RateState {
    solver: Solver,
    rater: Rater,
    limits: RateLimits,
    /// Keep the path's steps in the rating (`explain`).
    keep_steps: bool,
}

impl RateState {
    /// A worker state rating within `limits` per puzzle.
    pub fn new(limits: RateLimits) -> RateState {
        RateState {
            solver: Solver::new(SolveOptions::default()),
            rater: Rater::new(),
            limits,
            keep_steps: false,
        }
    }

    /// A worker state for `explain`: as [`RateState::new`], and each
    /// rating keeps its steps with their cells and chains
    /// ([`se::Options::keep_steps`]).
    pub fn explaining(limits: RateLimits) -> RateState {
        RateState {
            keep_steps: true,
            ..RateState::new(limits)
        }
    }

    /// Rates a parsed puzzle: counts its solutions (up to 2) first, then
    /// rates it if it has exactly one. `Err` carries a clash message.
    /// An unsolvable puzzle's outcome holds where the contradiction lies
    /// (`no solution: ...`, [`crate::solver::why_unsolvable`]).
    pub fn rate_grid(&mut self, grid: &crate::grid::Grid) -> Result<RateOutcome, String> {
        let outcome = self.solver.solve(grid);
        self.rate_board(&outcome, grid, None, || se::Board::new(grid))
    }

    /// Rates a puzzle given by its candidates ([`se::Board::from_pencilmarks`]:
    /// single candidates are givens): counts its solutions within the
    /// candidates first, then rates it from them if it has exactly one.
    /// Single candidates that clash leave it no solution (`unsolvable`, as
    /// `solve` and `count` say), not a clash error.
    pub fn rate_pencilmarks(&mut self, pm: &Pencilmarks) -> Result<RateOutcome, String> {
        let (outcome, _) = self.solver.solve_pencilmarks(pm);
        self.rate_board(&outcome, &pm.singles(), Some(pm), || {
            se::Board::from_pencilmarks(pm)
        })
    }

    /// The outcome for a puzzle whose search gave `outcome` (solutions up
    /// to 2), whose givens are `givens` (within `pencilmarks`, for a puzzle
    /// given by its candidates) and whose board `board` makes.
    fn rate_board(
        &mut self,
        outcome: &crate::solver::Outcome,
        givens: &crate::grid::Grid,
        pencilmarks: Option<&Pencilmarks>,
        board: impl FnOnce() -> se::Board,
    ) -> Result<RateOutcome, String> {
        match outcome.solutions {
            0 => {
                // Clashing givens make a puzzle invalid; clashing single
                // candidates only leave a pencilmark puzzle no solution,
                // as `solve` and `count` say.
                if pencilmarks.is_none() {
                    givens.check_givens().map_err(|clash| clash.to_string())?;
                }
                Ok(RateOutcome::Unsolvable(
                    crate::solver::why_unsolvable(givens, pencilmarks, outcome).to_string(),
                ))
            }
            1 => {
                let opts = se::Options {
                    budget: self.limits.budget(),
                    keep_steps: self.keep_steps,
                    ceiling: None,
                };
                Ok(match self.rater.rate_board(board(), &opts) {
                    Ok(r) => RateOutcome::Rated(r),
                    Err(RateError::Timeout { cut, steps }) => RateOutcome::Timeout {
                        cut,
                        steps,
                        message: self.limits.timeout_message(cut, steps),
                    },
                    Err(RateError::AboveCeiling { .. }) => unreachable!("rated without a ceiling"),
                })
            }
            _ => Ok(RateOutcome::Multiple),
        }
    }
}

/// The row for one record: rated if it parsed and has one solution.
pub fn rate_record(state: &mut RateState, record: &Record) -> RateRow {
    let named = |outcome: Result<RateOutcome, String>| {
        let at = |e: String| format!("{}:{}: {e}", record.source, record.line);
        match outcome {
            Ok(RateOutcome::Unsolvable(why)) => RateOutcome::Unsolvable(at(why)),
            Ok(outcome) => outcome,
            Err(clash) => RateOutcome::Invalid(at(clash)),
        }
    };
    if let Some(pm) = &record.pencilmarks {
        let outcome = named(state.rate_pencilmarks(pm));
        return RateRow {
            index: record.index,
            puzzle: record.raw.clone(),
            outcome,
        };
    }
    match &record.grid {
        Ok(grid) => {
            let outcome = named(state.rate_grid(grid));
            RateRow {
                index: record.index,
                puzzle: grid.to_line(),
                outcome,
            }
        }
        Err(message) => RateRow {
            index: record.index,
            puzzle: record.raw.clone(),
            outcome: RateOutcome::Invalid(message.clone()),
        },
    }
}
