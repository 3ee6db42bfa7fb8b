//! `solve`'s row for one record ([`SolveRow`], from [`crate::output`]) and
//! its `--se` columns.

use crate::output::{SolveRow, Status};
use crate::pipeline::Record;
use crate::rating::se::{self, RateError, Rater, Rating};
use crate::rows::rate::RateLimits;
use crate::solver::{why_unsolvable, Outcome, Solver};

/// The row for one record: solved and rated if it parsed and its givens do
/// not clash, invalid otherwise. A pencilmark puzzle is solved from its
/// candidates ([`Solver::solve_pencilmarks`]); its WNF is that of its
/// candidates, and `--se` leaves its rating columns empty.
///
/// Clashing givens leave the solver no solution (see [`Solver`]), so the
/// givens are checked only when it finds none: the check costs nothing on
/// the records that have a solution. A clash row's `puzzle` column is the
/// parsed puzzle (`.` for blanks). An unsolvable row's error column says
/// where the contradiction lies ([`why_unsolvable`]: `a.txt:3: no solution:
/// r4c5 has no candidate left after propagation`).
pub fn solve_record(solver: &mut Solver, record: &Record) -> SolveRow {
    if let Some(pencilmarks) = &record.pencilmarks {
        // The puzzle column is the 729-character line; `clues` counts the
        // cells with one candidate.
        let (outcome, wnf) = solver.solve_pencilmarks(pencilmarks);
        let limit = solver.options().limit;
        let singles = pencilmarks.singles();
        let mut row = SolveRow::rated(record.index, &singles, wnf, &outcome, limit);
        row.puzzle = None;
        row.raw = record.raw.clone();
        if row.status == Status::Unsolvable {
            let why = why_unsolvable(&singles, Some(pencilmarks), &outcome);
            row.error = format!("{}:{}: {why}", record.source, record.line);
        }
        return row;
    }
    match &record.grid {
        Ok(grid) => {
            let (outcome, wnf) = solver.solve_rated(grid);
            if outcome.solutions == 0 {
                if let Err(clash) = grid.check_givens() {
                    let message = format!("{}:{}: {clash}", record.source, record.line);
                    return SolveRow::invalid(record.index, &grid.to_line(), message);
                }
            }
            let mut row =
                SolveRow::rated(record.index, grid, wnf, &outcome, solver.options().limit);
            if row.status == Status::Unsolvable {
                unsolvable_error(&mut row, record, grid, &outcome);
            }
            row
        }
        Err(message) => SolveRow::invalid(record.index, &record.raw, message.clone()),
    }
}

/// Fills the error column of `row`, the row of `record` (`grid`) whose
/// search (`outcome`) found no solution: where propagation finds the
/// contradiction ([`why_unsolvable`]), after the record's `source:line`.
/// Out of line: only unsolvable puzzles come here.
#[cold]
#[inline(never)]
fn unsolvable_error(
    row: &mut SolveRow,
    record: &Record,
    grid: &crate::grid::Grid,
    outcome: &Outcome,
) {
    let why = why_unsolvable(grid, None, outcome);
    row.error = format!("{}:{}: {why}", record.source, record.line);
}

/// The `--se` columns (er, ep, ed) of a row: filled for a puzzle with one
/// solution, empty otherwise; a rating past `limits` (or cut by a stop
/// request) leaves them empty and says so in the row's error.
pub fn se_columns(rater: &mut Rater, row: &mut SolveRow, limits: &RateLimits) -> [String; 3] {
    let (Status::Unique, Some(puzzle)) = (row.status, row.puzzle) else {
        return Default::default();
    };
    match rater.rate(
        &puzzle,
        &se::Options {
            budget: limits.budget(),
            ..se::Options::default()
        },
    ) {
        Ok(r) => [
            Rating::format(r.er),
            Rating::format(r.ep),
            Rating::format(r.ed),
        ],
        Err(RateError::Timeout { cut, steps }) => {
            row.error = format!("SE rating: {}", limits.timeout_message(cut, steps));
            Default::default()
        }
        Err(RateError::AboveCeiling { .. }) => unreachable!("rated without a ceiling"),
    }
}
