//! `explain`'s result for one puzzle: the path Sudoku Explainer follows, one
//! step at a time, with its rating ([`Explanation`]), as `sudoflow explain
//! --format json` writes it and the Python package's `explain()` returns it.
//!
//! The steps are those [`Rater`] takes to rate the puzzle (kept with
//! [`se::Options::keep_steps`]), after `rate`'s uniqueness check
//! ([`RateState::rate_grid`]), so the ER/EP/ED are `rate`'s.

use crate::grid::{cell_name, Grid};
use crate::rating::se::{self, Hint, RateError, Rater, Rating};
use crate::rows::rate::{RateLimits, RateOutcome, RateState};
use serde::Serialize;

/// One step of the path.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// 1-based position on the path.
    pub step: usize,
    /// SE's rating of the step, in tenths (7.1).
    pub rating: f64,
    /// SE's name of the technique.
    pub technique: String,
    /// The value placed (`r4c2=1`), if the step places one.
    pub placed: Option<String>,
    /// The candidates removed (`r1c3<>9` each), those of a placed value's
    /// cell left out.
    pub removed: Vec<String>,
}

/// The whole path and its rating.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    /// The puzzle, `.` for blanks.
    pub puzzle: String,
    /// ER, EP and ED in tenths (as `rate` gives them).
    pub er: f64,
    /// EP: the hardest step up to the first value placed.
    pub ep: f64,
    /// ED: the first step.
    pub ed: f64,
    /// SE's name of the step that set ER.
    pub technique: String,
    /// 1-based position of that step.
    pub hardest_step: usize,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

/// Why a puzzle has no explanation.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Unexplained {
    /// Its givens clash (the message names the clash).
    #[error("the puzzle is not valid: {0}")]
    Clash(String),
    /// It has more than one solution.
    #[error("the puzzle has more than one solution: Sudoku Explainer rates only proper puzzles")]
    Multiple,
    /// It has no solution: the message says where propagation finds the
    /// contradiction ("no solution: ..." as `rate`'s error column).
    #[error("the puzzle has {0}")]
    Unsolvable(String),
    /// The rating ran out of its budget, or a stop was requested: the
    /// message says which ([`RateLimits::timeout_message`]).
    #[error("{message}")]
    Timeout {
        /// What cut the rating short.
        cut: crate::work::Cut,
        /// The message.
        message: String,
    },
}

/// The path SE follows through `grid`, giving up past `limits` (as
/// `rate` does).
///
/// Errors: see [`Unexplained`].
pub fn explain(grid: &Grid, limits: &RateLimits) -> Result<Explanation, Unexplained> {
    // The uniqueness check and clash message of `rate`, then the rating
    // again with its steps kept.
    match RateState::new(*limits).rate_grid(grid) {
        Err(clash) => return Err(Unexplained::Clash(clash)),
        Ok(RateOutcome::Multiple) => return Err(Unexplained::Multiple),
        Ok(RateOutcome::Unsolvable(why)) => return Err(Unexplained::Unsolvable(why)),
        // The second rating would run out alike (the budget is work).
        Ok(RateOutcome::Timeout { cut, message, .. }) => {
            return Err(Unexplained::Timeout { cut, message })
        }
        Ok(_) => {}
    }
    let opts = se::Options {
        budget: limits.budget(),
        keep_steps: true,
        ceiling: None,
    };
    match Rater::new().rate(grid, &opts) {
        Ok(rating) => Ok(explanation(grid, &rating)),
        Err(RateError::Timeout { cut, steps }) => Err(Unexplained::Timeout {
            cut,
            message: limits.timeout_message(cut, steps),
        }),
        Err(e @ RateError::AboveCeiling { .. }) => unreachable!("rated without a ceiling: {e}"),
    }
}

/// The [`Explanation`] of `grid` rated `rating` (rated with its steps kept).
pub fn explanation(grid: &Grid, rating: &Rating) -> Explanation {
    Explanation {
        puzzle: grid.to_line(),
        er: tenths(rating.er),
        ep: tenths(rating.ep),
        ed: tenths(rating.ed),
        technique: rating.technique.clone(),
        hardest_step: rating.hardest + 1,
        steps: rating
            .steps
            .iter()
            .enumerate()
            .map(|(i, h)| Step {
                step: i + 1,
                rating: tenths(h.difficulty),
                technique: h.name.to_string(),
                placed: placed(h),
                removed: removed(h),
            })
            .collect(),
    }
}

/// A rating in tenths as a number (7.1, not 7.1000000001).
fn tenths(x: f64) -> f64 {
    Rating::tenths(x) as f64 / 10.0
}

/// The value a hint places, `r4c2=1`.
pub fn placed(hint: &Hint) -> Option<String> {
    hint.placement
        .map(|(c, v)| format!("{}={v}", cell_name(c as usize)))
}

/// The candidates a hint removes, `r1c3<>9` each; for a hint that places a
/// value, the other candidates of that cell are left out (placing removes
/// them anyway).
pub fn removed(hint: &Hint) -> Vec<String> {
    let mut out = Vec::new();
    for &(cell, mask) in &hint.removals {
        if hint.placement.is_some_and(|(c, _)| c == cell) {
            continue;
        }
        for v in 1..=9 {
            if mask >> v & 1 != 0 {
                out.push(format!("{}<>{v}", cell_name(cell as usize)));
            }
        }
    }
    out
}
