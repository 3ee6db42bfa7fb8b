//! `canon`'s row for one record: the record's canonical (minlex) form and
//! automorphism count, of its 81 cells or of its candidates. The class of a
//! record (the first record of the run with the same form) is the caller's,
//! looked up in input order (`sudoflow canon` and the Python package keep a
//! [`crate::canon::Classes`] set).

use crate::canon::{Canonical, Canonicalizer, PencilmarkCanonical, PencilmarkCanonicalizer};
use crate::pipeline::{self, Record};

/// The header of `canon`'s CSV, in column order.
pub const CANON_HEADER: [&str; 6] = [
    "index",
    "puzzle",
    "canonical",
    "automorphisms",
    "class_index",
    "error",
];

/// The form of one record: of its 81 cells, or of its candidates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Form {
    /// An 81-cell puzzle's form ([`Canonicalizer`]).
    Puzzle(Canonical),
    /// A pencilmark puzzle's form ([`PencilmarkCanonicalizer`]).
    Pencilmarks(Box<PencilmarkCanonical>),
}

impl Form {
    /// The `canonical` column: 81 characters (`0` blank), or 729.
    pub fn to_line(&self) -> String {
        match self {
            Form::Puzzle(c) => c.to_line(),
            Form::Pencilmarks(c) => c.to_line(),
        }
    }

    /// The `automorphisms` column.
    pub fn automorphisms(&self) -> u64 {
        match self {
            Form::Puzzle(c) => c.automorphisms,
            Form::Pencilmarks(c) => c.automorphisms,
        }
    }
}

/// A worker's result for one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CanonRow {
    /// 1-based position of the record among all records.
    pub index: u64,
    /// The puzzle with `.` for blanks, a pencilmark line as read, or the raw
    /// text of an invalid record.
    pub puzzle: String,
    /// The form, or the error message (naming `source:line`) of an invalid
    /// record.
    pub result: Result<Form, String>,
    /// The error is an internal one (the work on the record panicked: a
    /// bug), not the record's: the run exits 3, as every command does.
    pub internal: bool,
}

/// A worker's canonicalizers (one per kind of record).
#[derive(Debug, Default)]
pub struct CanonState {
    puzzles: Canonicalizer,
    pencilmarks: Option<PencilmarkCanonicalizer>,
}

/// The row for one record: its form if it parsed (as 81 cells or as
/// candidates), its error otherwise.
pub fn canon_one(state: &mut CanonState, record: &Record) -> CanonRow {
    if let Some(pm) = &record.pencilmarks {
        let canon = state
            .pencilmarks
            .get_or_insert_with(PencilmarkCanonicalizer::new);
        return CanonRow {
            index: record.index,
            puzzle: record.raw.clone(),
            result: Ok(Form::Pencilmarks(Box::new(canon.canonicalize(pm)))),
            internal: false,
        };
    }
    match &record.grid {
        Ok(grid) => CanonRow {
            index: record.index,
            puzzle: grid.to_line(),
            result: Ok(Form::Puzzle(state.puzzles.canonicalize(grid))),
            internal: false,
        },
        Err(message) => CanonRow {
            index: record.index,
            puzzle: record.raw.clone(),
            result: Err(message.clone()),
            internal: false,
        },
    }
}

impl pipeline::FromPanic for CanonRow {
    /// An error row: no form, the panic in the error column; counted as an
    /// error, not as an invalid record (found by probing: canon exited 0
    /// where the other commands exit 3).
    fn from_panic(record: &Record, message: &str) -> CanonRow {
        CanonRow {
            index: record.index,
            puzzle: record.raw.clone(),
            result: Err(pipeline::panic_message(record, message)),
            internal: true,
        }
    }
}
