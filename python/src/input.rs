//! Python input to the library's [`Record`]s.
//!
//! Each item is one record, numbered from 1 in input order (the `index`
//! column), whatever it holds: 81 cells (`1`-`9` givens; `.`, `0` or `_`
//! blanks, surrounding whitespace ignored) parse to a grid; anything else
//! (wrong length, a bad character, a null, an item that is not a string)
//! becomes an invalid record whose error names `<input>:N` (N the item's
//! 1-based position) and the problem, as the CLI names `file:line`.

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef};
use arrow_schema::DataType;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use pyo3_arrow::input::AnyArray;
use std::sync::Arc;
use sudoflow::grid::Grid;
use sudoflow::pipeline::reader::parse_valid;
use sudoflow::pipeline::Record;

/// The name records from Python carry as their source.
const SOURCE: &str = "<input>";

/// Longest text kept for an invalid record's `puzzle` column, in characters
/// (the CLI's reader keeps as many); the error still gives the full length.
const RAW_LIMIT: usize = 200;

/// Puzzles taken from Python: ready records (from a sequence of `str`,
/// read while the GIL is held) or Arrow string arrays, read into records
/// after the GIL is released.
pub enum Records {
    Ready(Vec<Record>),
    Arrow(Vec<ArrayRef>),
}

impl Records {
    /// Takes any Arrow string column (an object with `__arrow_c_array__` or
    /// `__arrow_c_stream__`; a one-column table is taken as its column) or
    /// an iterable of `str`.
    ///
    /// Errors: `TypeError` for a lone `str`, a non-iterable, or an Arrow
    /// column that is not of strings.
    pub fn extract(obj: &Bound<'_, PyAny>) -> PyResult<Records> {
        if obj.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "expected a list of puzzles (or an Arrow string column), not one str: wrap it \
                 in a list",
            ));
        }
        if obj.hasattr("__arrow_c_array__")? || obj.hasattr("__arrow_c_stream__")? {
            let arrays = obj.extract::<AnyArray>()?;
            let chunked = arrays
                .into_chunked_array()
                .map_err(|e| PyTypeError::new_err(format!("cannot read the Arrow input: {e}")))?;
            let (chunks, _) = chunked.into_inner();
            let chunks = chunks
                .into_iter()
                .map(strings)
                .collect::<PyResult<Vec<_>>>()?;
            return Ok(Records::Arrow(chunks));
        }
        let source: Arc<str> = Arc::from(SOURCE);
        let mut out = Vec::with_capacity(obj.len().unwrap_or(0));
        for (i, item) in obj.try_iter()?.enumerate() {
            let item = item?;
            let index = i as u64 + 1;
            out.push(match item.cast::<PyString>() {
                Ok(s) => record(index, &source, Some(s.to_str()?)),
                Err(_) if item.is_none() => record(index, &source, None),
                Err(_) => not_a_string(index, &source, &item.get_type().name()?.to_string()),
            });
        }
        Ok(Records::Ready(out))
    }

    /// The records, in input order.
    pub fn into_records(self) -> Vec<Record> {
        match self {
            Records::Ready(r) => r,
            Records::Arrow(chunks) => {
                let source: Arc<str> = Arc::from(SOURCE);
                let mut out = Vec::with_capacity(chunks.iter().map(|c| c.len()).sum());
                for chunk in &chunks {
                    let texts = chunk.as_string::<i32>();
                    for i in 0..texts.len() {
                        let index = out.len() as u64 + 1;
                        let text = texts.is_valid(i).then(|| texts.value(i));
                        out.push(record(index, &source, text));
                    }
                }
                out
            }
        }
    }
}

/// `array` as a `Utf8` array: a one-field struct (a table's rows) is taken
/// as its field; large, view and dictionary strings are cast.
fn strings(array: ArrayRef) -> PyResult<ArrayRef> {
    let array = match array.data_type() {
        DataType::Struct(fields) if fields.len() == 1 => Arc::clone(array.as_struct().column(0)),
        _ => array,
    };
    let string_like =
        |t: &DataType| matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View);
    match array.data_type() {
        DataType::Utf8 => Ok(array),
        t if string_like(t) => cast(&array),
        DataType::Dictionary(_, v) if string_like(v) => cast(&array),
        t => Err(PyTypeError::new_err(format!(
            "expected a column of strings (puzzles), found Arrow type {t}"
        ))),
    }
}

fn cast(array: &ArrayRef) -> PyResult<ArrayRef> {
    arrow_cast::cast(array, &DataType::Utf8)
        .map_err(|e| PyTypeError::new_err(format!("cannot read the column as strings: {e}")))
}

/// The record for item `index` holding `text` (`None`: a null).
fn record(index: u64, source: &Arc<str>, text: Option<&str>) -> Record {
    let Some(text) = text else {
        return Record {
            index,
            source: Arc::clone(source),
            line: index,
            raw: String::new(),
            grid: Err(format!("{source}:{index}: no puzzle (null)")),
            pencilmarks: None,
            kept: Vec::new(),
        };
    };
    let text = text.trim();
    if let Some(grid) = parse_valid(text.as_bytes()) {
        return Record {
            index,
            source: Arc::clone(source),
            line: index,
            raw: String::new(),
            grid: Ok(grid),
            pencilmarks: None,
            kept: Vec::new(),
        };
    }
    match Grid::parse(text) {
        Ok(grid) => Record {
            index,
            source: Arc::clone(source),
            line: index,
            raw: String::new(),
            grid: Ok(grid),
            pencilmarks: None,
            kept: Vec::new(),
        },
        Err(e) => Record {
            index,
            source: Arc::clone(source),
            line: index,
            raw: clip(text),
            grid: Err(format!("{source}:{index}: {e}")),
            pencilmarks: None,
            kept: Vec::new(),
        },
    }
}

fn not_a_string(index: u64, source: &Arc<str>, type_name: &str) -> Record {
    Record {
        index,
        source: Arc::clone(source),
        line: index,
        raw: String::new(),
        grid: Err(format!("{source}:{index}: not a string but {type_name}")),
        pencilmarks: None,
        kept: Vec::new(),
    }
}

/// `text` cut to [`RAW_LIMIT`] characters, `...` marking the cut.
fn clip(text: &str) -> String {
    match text.char_indices().nth(RAW_LIMIT) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_owned(),
    }
}
