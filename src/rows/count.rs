//! `count`'s row for one record: the exact number of solutions (statuses
//! and the meaning of `solutions` are tabled in
//! [`crate::counting::solutions`]).

use crate::counting::solutions::{count_pencilmarks, count_record, CountOptions, CountResult};
use crate::pipeline::{self, Record};
use crate::solver::Solver;

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
            Ok(r) => (r.solutions().to_string(), String::new()),
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

/// The row for one record: counted if it parsed, invalid otherwise.
pub fn count_one(solver: &mut Solver, opts: &CountOptions, record: &Record) -> CountRow {
    if let Some(pencilmarks) = &record.pencilmarks {
        return CountRow {
            index: record.index,
            puzzle: record.raw.clone(),
            result: Ok(count_pencilmarks(solver, opts, pencilmarks)),
            internal_error: false,
        };
    }
    match &record.grid {
        Ok(grid) => CountRow {
            index: record.index,
            puzzle: grid.to_line(),
            result: count_record(solver, opts, grid)
                .map_err(|e| format!("{}:{}: {e}", record.source, record.line)),
            internal_error: false,
        },
        Err(message) => CountRow {
            index: record.index,
            puzzle: record.raw.clone(),
            result: Err(message.clone()),
            internal_error: false,
        },
    }
}
