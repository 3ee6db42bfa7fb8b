//! Python input to the library's [`Record`]s.
//!
//! Each item is one record, numbered from 1 in input order (the `index`
//! column), read as a line of a file is read ([`item_record`]: the CLI's
//! reader, so `P ED=7.1/1.2/1.2`, `P:1:`, `P,x`, pasted cells and
//! 729-character pencilmarks read as they do from a file), whatever it
//! holds: anything that is not a puzzle (wrong length, a bad character, a
//! blank item, a null, an item that is not a string) becomes an invalid
//! record whose error names `<input>:N` (N the item's 1-based position) and
//! the problem, as the CLI names `file:line`.
//!
//! The Spark and Dask adapters pass [`Named`] input: the puzzles with the
//! `source` and `row` of each, which the errors then name instead of the
//! position within the batch ([`Names::rename`]).

use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{Array, ArrayRef};
use arrow_schema::DataType;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyFloat, PyInt, PyMemoryView, PyString};
use pyo3_arrow::input::AnyArray;
use std::sync::Arc;
use sudoflow::pipeline::reader::item_record;
use sudoflow::pipeline::Record;

/// The name records from Python carry as their source.
pub const SOURCE: &str = "<input>";

/// Puzzles taken from Python: ready records (from a sequence of `str`,
/// read while the GIL is held) or Arrow string arrays, read into records
/// after the GIL is released; with the names of the records when the input
/// was [`Named`].
pub struct Records {
    items: Items,
    /// The `source` and `row` of each record ([`Named`] input).
    pub names: Option<Names>,
}

enum Items {
    Ready(Vec<Record>),
    Arrow(Vec<ArrayRef>),
}

/// Puzzles with the name of each (the Spark and Dask adapters' input):
/// `sources` and `rows` are Arrow columns (strings and 64-bit integers) as
/// long as `puzzles`; an error then names its record `SOURCE row ROW`
/// (`row ROW` when the source is empty or null), as the adapters' `source`
/// and `row` columns do, instead of its position within the batch.
#[pyclass(module = "sudoflow._sudoflow", name = "_Named", frozen)]
pub struct Named {
    puzzles: Py<PyAny>,
    sources: Py<PyAny>,
    rows: Py<PyAny>,
}

#[pymethods]
impl Named {
    #[new]
    fn new(puzzles: Py<PyAny>, sources: Py<PyAny>, rows: Py<PyAny>) -> Self {
        Named {
            puzzles,
            sources,
            rows,
        }
    }
}

/// The names of the records of a [`Named`] input, in order.
pub struct Names {
    sources: Vec<Option<String>>,
    rows: Vec<Option<i64>>,
}

impl Names {
    /// `error`, a message that names its record `<input>:N: ...` (N its
    /// 1-based position in the input), naming it by its source and row
    /// instead; `None` for a message that names no record so.
    pub fn rename(&self, error: &[u8]) -> Option<Vec<u8>> {
        let rest = error.strip_prefix(SOURCE.as_bytes())?.strip_prefix(b":")?;
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let n: usize = std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()?;
        let rest = rest[digits..].strip_prefix(b": ")?;
        let position = n.checked_sub(1)?;
        let source = self.sources.get(position).cloned().flatten();
        let row = self.rows.get(position).copied().flatten();
        let mut name = match (source.as_deref(), row) {
            (Some(s), Some(r)) if !s.is_empty() => format!("{s} row {r}"),
            (_, Some(r)) => format!("row {r}"),
            (Some(s), None) if !s.is_empty() => s.to_owned(),
            _ => SOURCE.to_owned(),
        }
        .into_bytes();
        name.extend_from_slice(b": ");
        name.extend_from_slice(rest);
        Some(name)
    }
}

/// The fix for puzzles read as numbers, for the messages below.
const AS_TEXT: &str = "puzzles must be read as text: a puzzle read as a number loses the \
                       leading zeros of its 0 blanks. Read the CSV with every column as text, \
                       e.g. polars.read_csv(path, infer_schema=False), pandas.read_csv(path, \
                       dtype=str), or pyarrow.csv.read_csv(path, convert_options=pyarrow.csv.\
                       ConvertOptions(column_types={\"quizzes\": pyarrow.string()}))";

impl Records {
    /// Takes any Arrow string column (an object with `__arrow_c_array__` or
    /// `__arrow_c_stream__`; a one-column table is taken as its column), an
    /// iterable of `str`, or a [`Named`] one of those.
    ///
    /// Errors: `TypeError` for a lone `str` or `bytes`, a non-iterable, or
    /// an Arrow column that is not of strings (for numbers, saying how to
    /// read them as text).
    pub fn extract(obj: &Bound<'_, PyAny>) -> PyResult<Records> {
        if let Ok(named) = obj.cast::<Named>() {
            let named = named.get();
            let py = obj.py();
            let records = Records::extract(named.puzzles.bind(py))?;
            let names = Names {
                sources: column_values(named.sources.bind(py), "sources", |a| {
                    let a = strings(a.clone(), "sources")?;
                    let s = a.as_string::<i32>();
                    Ok((0..s.len())
                        .map(|i| s.is_valid(i).then(|| s.value(i).to_owned()))
                        .collect())
                })?,
                rows: column_values(named.rows.bind(py), "rows", |a| {
                    let a = arrow_cast::cast(a, &DataType::Int64)
                        .map_err(|e| PyTypeError::new_err(format!("rows: {e}")))?;
                    let r = a.as_primitive::<Int64Type>();
                    Ok((0..r.len())
                        .map(|i| r.is_valid(i).then(|| r.value(i)))
                        .collect())
                })?,
            };
            return Ok(Records {
                names: Some(names),
                ..records
            });
        }
        for (lone, what) in [
            (obj.is_instance_of::<PyString>(), "str"),
            (obj.is_instance_of::<PyBytes>(), "bytes object"),
            (obj.is_instance_of::<PyByteArray>(), "bytearray"),
            (obj.is_instance_of::<PyMemoryView>(), "memoryview"),
        ] {
            if lone {
                return Err(PyTypeError::new_err(format!(
                    "expected a list of puzzles (or an Arrow string column), not one {what}: \
                     wrap one puzzle in a list, as [puzzle]{}",
                    if what == "str" {
                        ""
                    } else {
                        ", decoded to str (puzzle.decode())"
                    }
                )));
            }
        }
        if obj.hasattr("__arrow_c_array__")? || obj.hasattr("__arrow_c_stream__")? {
            // A pandas object column holds any Python objects: read item by
            // item, as a list is (found by probing: one int among the
            // puzzles made pyarrow raise, no row for any item).
            if object_column(obj)? {
                return read_items(obj, true);
            }
            let arrays = match obj.extract::<AnyArray>() {
                Ok(arrays) => arrays,
                // Not convertible to Arrow (mixed objects): item by item.
                Err(_) if obj.try_iter().is_ok() => return read_items(obj, true),
                Err(e) => {
                    let py = obj.py();
                    if e.is_instance_of::<PyTypeError>(py) {
                        return Err(e);
                    }
                    return Err(PyTypeError::new_err(format!(
                        "cannot read the input as an Arrow column of strings ({}: {}); {AS_TEXT}",
                        e.get_type(py)
                            .name()
                            .map_or_else(|_| "error".into(), |n| n.to_string()),
                        e.value(py)
                    )));
                }
            };
            let chunked = arrays
                .into_chunked_array()
                .map_err(|e| PyTypeError::new_err(format!("cannot read the Arrow input: {e}")))?;
            let (chunks, _) = chunked.into_inner();
            let chunks = chunks
                .into_iter()
                .map(|c| strings(c, "puzzles"))
                .collect::<PyResult<Vec<_>>>()?;
            return Ok(Records {
                items: Items::Arrow(chunks),
                names: None,
            });
        }
        read_items(obj, false)
    }

    /// The number of records.
    pub fn len(&self) -> usize {
        match &self.items {
            Items::Ready(r) => r.len(),
            Items::Arrow(chunks) => chunks.iter().map(|c| c.len()).sum(),
        }
    }

    /// The records, in input order.
    pub fn into_records(self) -> (Vec<Record>, Option<Names>) {
        let records = match self.items {
            Items::Ready(r) => r,
            Items::Arrow(chunks) => {
                let source: Arc<str> = Arc::from(SOURCE);
                let mut out = Vec::with_capacity(chunks.iter().map(|c| c.len()).sum());
                for chunk in &chunks {
                    let texts = chunk.as_string::<i32>();
                    for i in 0..texts.len() {
                        let index = out.len() as u64 + 1;
                        out.push(if texts.is_valid(i) {
                            item_record(index, &source, texts.value(i).as_bytes())
                        } else {
                            null(index, &source)
                        });
                    }
                }
                out
            }
        };
        (records, self.names)
    }
}

/// Whether `obj` is a column of Python objects (a pandas Series or Index
/// of dtype `object`), read item by item.
fn object_column(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let Ok(dtype) = obj.getattr("dtype") else {
        return Ok(false);
    };
    Ok(dtype.str()?.to_cow()? == "object")
}

/// The records of an iterable, one per item. `column`: the items are a
/// column's (a pandas object column, or one Arrow cannot read), where
/// `None`, NaN, `pd.NA` and `pd.NaT` are its nulls, as pandas takes them;
/// a column whose items are all numbers is refused as an Arrow column of
/// numbers is (puzzles read as numbers).
///
/// Errors: `TypeError` for a non-iterable, or a column of numbers only.
fn read_items(obj: &Bound<'_, PyAny>, column: bool) -> PyResult<Records> {
    let source: Arc<str> = Arc::from(SOURCE);
    let mut out = Vec::with_capacity(obj.len().unwrap_or(0));
    let (mut numbers, mut nulls) = (0usize, 0usize);
    for (i, item) in obj.try_iter()?.enumerate() {
        let item = item?;
        let index = i as u64 + 1;
        out.push(match item.cast::<PyString>() {
            Ok(s) => match s.to_cow() {
                Ok(text) => item_record(index, &source, text.as_bytes()),
                Err(_) => surrogates(index, &source, s),
            },
            Err(_) if item.is_none() || (column && missing(&item)) => {
                nulls += 1;
                null(index, &source)
            }
            Err(_) => {
                if item.is_instance_of::<PyInt>() && !item.is_instance_of::<PyBool>()
                    || item.is_instance_of::<PyFloat>()
                {
                    numbers += 1;
                }
                not_a_string(index, &source, &item.get_type().name()?.to_string())
            }
        });
    }
    if column && numbers > 0 && numbers + nulls == out.len() {
        return Err(PyTypeError::new_err(format!(
            "puzzles: expected a column of strings, found numbers (an object column of \
             Python numbers); {AS_TEXT}"
        )));
    }
    Ok(Records {
        items: Items::Ready(out),
        names: None,
    })
}

/// Whether `item` is one of pandas' markers of a missing value: NaN,
/// `pd.NA`, `pd.NaT`.
fn missing(item: &Bound<'_, PyAny>) -> bool {
    if let Ok(f) = item.cast::<PyFloat>() {
        return f.value().is_nan();
    }
    item.get_type()
        .name()
        .is_ok_and(|n| n.to_cow().is_ok_and(|n| n == "NAType" || n == "NaTType"))
}

/// The values of an Arrow column `obj` (parameter `name`) through `values`.
fn column_values<T>(
    obj: &Bound<'_, PyAny>,
    name: &str,
    values: impl Fn(&ArrayRef) -> PyResult<Vec<T>>,
) -> PyResult<Vec<T>> {
    let arrays = obj
        .extract::<AnyArray>()
        .map_err(|e| PyTypeError::new_err(format!("{name}: not an Arrow column ({e})")))?;
    let (chunks, _) = arrays
        .into_chunked_array()
        .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?
        .into_inner();
    let mut out = Vec::new();
    for chunk in &chunks {
        out.extend(values(chunk)?);
    }
    Ok(out)
}

/// `array` as a `Utf8` array: a one-field struct (a table's rows) is taken
/// as its field, null where the struct is (a null row is not its field's
/// value: before, such a row was read as the puzzle beneath it); large,
/// view and dictionary strings are cast.
///
/// Errors: `TypeError` naming the type found (and for numbers, how to read
/// them as text).
fn strings(array: ArrayRef, name: &str) -> PyResult<ArrayRef> {
    let array = match array.data_type() {
        DataType::Struct(fields) if fields.len() == 1 => {
            let rows = array.as_struct();
            let field = Arc::clone(rows.column(0));
            match rows.nulls() {
                None => field,
                Some(nulls) => {
                    let both = arrow_buffer::NullBuffer::union(Some(nulls), field.nulls());
                    let data = field
                        .to_data()
                        .into_builder()
                        .nulls(both)
                        .build()
                        .map_err(|e| {
                            PyTypeError::new_err(format!("cannot read the Arrow input: {e}"))
                        })?;
                    arrow_array::make_array(data)
                }
            }
        }
        DataType::Struct(fields) => {
            let names: Vec<&str> = fields.iter().map(|f| f.name().as_str()).collect();
            return Err(PyTypeError::new_err(format!(
                "{name}: expected one column of strings, found a table of {} columns ({}): \
                 pass the puzzle column alone, e.g. table[\"{}\"]",
                fields.len(),
                names.join(", "),
                names.first().copied().unwrap_or("puzzle")
            )));
        }
        _ => array,
    };
    let string_like =
        |t: &DataType| matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View);
    match array.data_type() {
        DataType::Utf8 => Ok(array),
        t if string_like(t) => cast(&array),
        DataType::Dictionary(_, v) if string_like(v) => cast(&array),
        // A column of nulls only (pandas' all-None object column).
        DataType::Null => cast(&array),
        t if t.is_numeric() => Err(PyTypeError::new_err(format!(
            "{name}: expected a column of strings, found numbers (Arrow type {t}); {AS_TEXT}"
        ))),
        t => Err(PyTypeError::new_err(format!(
            "{name}: expected a column of strings, found Arrow type {t}"
        ))),
    }
}

fn cast(array: &ArrayRef) -> PyResult<ArrayRef> {
    arrow_cast::cast(array, &DataType::Utf8)
        .map_err(|e| PyTypeError::new_err(format!("cannot read the column as strings: {e}")))
}

/// The record of a `str` that UTF-8 cannot encode: it holds lone
/// surrogates. Those of a `surrogateescape` decode (U+DC80 to U+DCFF, as
/// Python gives undecodable bytes read from `sys.stdin` or a file under a
/// C locale) are the bytes they stand for, read as a line of a file is
/// (the CLI's record for those bytes: `not UTF-8 text: byte 0xff at ...`);
/// others make the record invalid. Before, one such item made the whole
/// call raise `UnicodeEncodeError`, with no row for any item.
fn surrogates(index: u64, source: &Arc<str>, text: &Bound<'_, PyString>) -> Record {
    let bytes = text
        .call_method1("encode", ("utf-8", "surrogateescape"))
        .and_then(|b| b.extract::<Vec<u8>>());
    match bytes {
        Ok(bytes) => item_record(index, source, &bytes),
        Err(_) => invalid(
            index,
            source,
            "not valid text: it holds a lone surrogate code point (U+D800 to U+DFFF), which \
             is no character"
                .to_owned(),
        ),
    }
}

/// The record of a null item.
fn null(index: u64, source: &Arc<str>) -> Record {
    invalid(index, source, "no puzzle (null)".to_owned())
}

fn not_a_string(index: u64, source: &Arc<str>, type_name: &str) -> Record {
    invalid(index, source, format!("not a string but {type_name}"))
}

fn invalid(index: u64, source: &Arc<str>, problem: String) -> Record {
    Record {
        index,
        source: Arc::clone(source),
        line: index,
        raw: String::new(),
        grid: Err(format!("{source}:{index}: {problem}")),
        pencilmarks: None,
        kept: Vec::new(),
    }
}
