//! `count`'s row for one record: the exact number of solutions (statuses
//! and the meaning of `solutions` are tabled in
//! [`crate::counting::solutions`]).

use crate::counting::solutions::{
    count_outcome, count_pencilmarks_outcome, CountOptions, CountResult,
};
use crate::grid::{Grid, Pencilmarks};
use crate::pipeline::{self, Record};
use crate::solver::{why_unsolvable, Outcome, Solver};

/// The header of `count`'s CSV, in column order.
pub const COUNT_HEADER: [&str; 5] = ["index", "puzzle", "status", "solutions", "error"];

/// One row of `count`'s output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountRow {
    /// 1-based position of the record among all records.
    pub index: u64,
    /// The puzzle with `.` for blanks, or the raw text of an invalid record.
    pub puzzle: String,
    /// The count, or the error message (naming `source:line`) of an invalid
    /// record or, when [`CountRow::internal_error`], of a panic.
    pub result: Result<CountResult, String>,
    /// The work on the record panicked (a bug): status `error`.
    pub internal_error: bool,
    /// The error column of a counted record: for an unsolvable one, its
    /// `source:line` and where propagation finds the contradiction
    /// ([`crate::solver::why_unsolvable`]); empty otherwise.
    pub note: String,
}

impl pipeline::FromPanic for CountRow {
    fn from_panic(record: &Record, message: &str) -> CountRow {
        CountRow {
            index: record.index,
            puzzle: record
                .grid
                .as_ref()
                .map_or_else(|_| record.raw.clone(), |g| g.to_line()),
            result: Err(pipeline::panic_message(record, message)),
            internal_error: true,
            note: String::new(),
        }
    }
}

impl CountRow {
    /// The status column.
    pub fn status(&self) -> &'static str {
        match &self.result {
            Ok(r) => r.status(),
            Err(_) if self.internal_error => "error",
            Err(_) => "invalid",
        }
    }

    /// The fields in [`COUNT_HEADER`] order; `solutions` is empty for an
    /// invalid record.
    pub fn fields(&self) -> [String; 5] {
        let (solutions, error) = match &self.result {
            Ok(r) => (r.solutions().to_string(), self.note.clone()),
            Err(e) => (String::new(), e.clone()),
        };
        [
            self.index.to_string(),
            self.puzzle.clone(),
            self.status().to_string(),
            solutions,
            error,
        ]
    }
}

/// The row for one record: counted if it parsed, invalid otherwise; an
/// unsolvable one's error column says where the contradiction lies.
pub fn count_one(solver: &mut Solver, opts: &CountOptions, record: &Record) -> CountRow {
    let note = |result: &CountResult, givens: &Grid, pm: Option<&Pencilmarks>, out: &Outcome| {
        if *result != CountResult::Exact(0) {
            return String::new();
        }
        let why = why_unsolvable(givens, pm, out);
        format!("{}:{}: {why}", record.source, record.line)
    };
    if let Some(pencilmarks) = &record.pencilmarks {
        let (result, outcome) = count_pencilmarks_outcome(solver, opts, pencilmarks);
        return CountRow {
            index: record.index,
            puzzle: record.raw.clone(),
            note: note(&result, &pencilmarks.singles(), Some(pencilmarks), &outcome),
            result: Ok(result),
            internal_error: false,
        };
    }
    match &record.grid {
        Ok(grid) => {
            let counted = count_outcome(solver, opts, grid);
            CountRow {
                index: record.index,
                puzzle: grid.to_line(),
                note: counted
                    .as_ref()
                    .map_or_else(|_| String::new(), |(r, out)| note(r, grid, None, out)),
                result: counted
                    .map(|(r, _)| r)
                    .map_err(|e| format!("{}:{}: {e}", record.source, record.line)),
                internal_error: false,
            }
        }
        Err(message) => CountRow {
            index: record.index,
            puzzle: record.raw.clone(),
            result: Err(message.clone()),
            internal_error: false,
            note: String::new(),
        },
    }
}
