//! CSV rows to typed Arrow columns: what the Parquet sink
//! ([`super::parquet`]) writes and the Python package returns.
//!
//! A row gives its fields as the CLI writes them (a [`csv::ByteRecord`], in
//! header order); each column's Arrow type follows from its header name
//! ([`column_type`]): counts and positions are `int64` (signed, as Spark and
//! Java need), ratings `float64`, the generator's candidate seed `uint64` (a
//! full 64-bit seed), everything else `string`. An empty field, which the
//! CSV writes for "no value" (no solution, no rating, no error), is a null.

use super::sink::{column_kind, column_kind_in, ColumnKind};
use arrow_array::builder::{Float64Builder, Int64Builder, StringBuilder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use std::sync::Arc;

/// The Arrow type of the CLI's column `name` ([`column_kind`]).
pub fn column_type(name: &str) -> DataType {
    kind_type(column_kind(name))
}

/// The Arrow type of a column of kind `kind`.
fn kind_type(kind: ColumnKind) -> DataType {
    match kind {
        ColumnKind::Int => DataType::Int64,
        ColumnKind::UInt => DataType::UInt64,
        ColumnKind::Float => DataType::Float64,
        ColumnKind::Text => DataType::Utf8,
    }
}

enum Builder {
    Int(Int64Builder),
    UInt(UInt64Builder),
    Float(Float64Builder),
    Text(StringBuilder),
}

/// Builders for one table's columns, filled a row at a time.
///
/// ```
/// use sudoflow::output::table::Columns;
///
/// let mut columns = Columns::new(&["index", "puzzle", "wnf", "error"]);
/// columns.push_with(|r| {
///     r.clear();
///     for f in ["1", "1.2", "0.5", ""] {
///         r.push_field(f.as_bytes());
///     }
/// })?;
/// let batch = columns.finish().map_err(|e| e.to_string())?;
/// assert_eq!((batch.num_rows(), batch.num_columns()), (1, 4));
/// assert_eq!(batch.column(3).null_count(), 1); // the empty error
/// # Ok::<(), String>(())
/// ```
pub struct Columns {
    schema: SchemaRef,
    builders: Vec<Builder>,
    record: csv::ByteRecord,
    rows: usize,
}

impl Columns {
    /// Empty columns under `header`.
    pub fn new(header: &[&str]) -> Columns {
        Columns::with_capacity(header, 0)
    }

    /// Empty columns under `header` with room for `rows` rows (growing the
    /// buffers as they fill costs copies and fresh pages).
    pub fn with_capacity(header: &[&str], rows: usize) -> Columns {
        Columns::with_text(header, &[], rows)
    }

    /// [`Columns::with_capacity`], the columns `text` strings whatever
    /// their names (`--keep`'s input columns: [`column_kind_in`]).
    pub fn with_text(header: &[&str], text: &[String], rows: usize) -> Columns {
        let fields: Vec<Field> = header
            .iter()
            .map(|name| Field::new(*name, kind_type(column_kind_in(name, text)), true))
            .collect();
        let builders = fields
            .iter()
            .map(|f| Self::builder(f.name(), f.data_type(), rows))
            .collect();
        Columns {
            schema: Arc::new(Schema::new(fields)),
            builders,
            record: csv::ByteRecord::new(),
            rows: 0,
        }
    }

    fn builder(name: &str, t: &DataType, rows: usize) -> Builder {
        match t {
            DataType::Int64 => Builder::Int(Int64Builder::with_capacity(rows)),
            DataType::UInt64 => Builder::UInt(UInt64Builder::with_capacity(rows)),
            DataType::Float64 => Builder::Float(Float64Builder::with_capacity(rows)),
            _ => {
                // Grids are 81 characters; other text is short or absent.
                let bytes = if matches!(name, "puzzle" | "solution") {
                    81
                } else {
                    8
                };
                Builder::Text(StringBuilder::with_capacity(rows, rows * bytes))
            }
        }
    }

    /// The table's schema.
    pub fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }

    /// Rows pushed since the last [`Columns::finish`].
    pub fn len(&self) -> usize {
        self.rows
    }

    /// True when no row was pushed since the last [`Columns::finish`].
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Appends one row, whose fields `fill` puts (after clearing it) into
    /// a record kept for reuse.
    ///
    /// Errors: the row has another number of fields than the header, or a
    /// numeric column holds text that is not a number (both would be bugs).
    pub fn push_with(&mut self, fill: impl FnOnce(&mut csv::ByteRecord)) -> Result<(), String> {
        fill(&mut self.record);
        if self.record.len() != self.builders.len() {
            return Err(format!(
                "a row has {} fields for {} columns",
                self.record.len(),
                self.builders.len()
            ));
        }
        for (i, (b, field)) in self.builders.iter_mut().zip(self.record.iter()).enumerate() {
            let bad = || {
                format!(
                    "column {}: {:?} is not a number",
                    self.schema.field(i).name(),
                    String::from_utf8_lossy(field)
                )
            };
            if let Builder::Int(b) = b {
                match field {
                    b"" => b.append_null(),
                    digits => b.append_value(int(digits).ok_or_else(bad)?),
                }
                continue;
            }
            let text = std::str::from_utf8(field).map_err(|_| bad())?;
            match b {
                Builder::Text(b) if text.is_empty() => b.append_null(),
                Builder::Text(b) => b.append_value(text),
                Builder::Int(_) => {} // above
                Builder::UInt(b) if text.is_empty() => b.append_null(),
                Builder::UInt(b) => b.append_value(text.parse().map_err(|_| bad())?),
                Builder::Float(b) if text.is_empty() => b.append_null(),
                Builder::Float(b) => b.append_value(text.parse().map_err(|_| bad())?),
            }
        }
        self.rows += 1;
        Ok(())
    }

    /// The rows pushed so far as one batch; the builders start again empty.
    pub fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        let arrays: Vec<ArrayRef> = self
            .builders
            .iter_mut()
            .map(|b| -> ArrayRef {
                match b {
                    Builder::Int(b) => Arc::new(b.finish()),
                    Builder::UInt(b) => Arc::new(b.finish()),
                    Builder::Float(b) => Arc::new(b.finish()),
                    Builder::Text(b) => Arc::new(b.finish()),
                }
            })
            .collect();
        self.rows = 0;
        RecordBatch::try_new(self.schema(), arrays)
    }
}

/// A decimal integer (optional `-`, then digits) that fits an `i64`, or `None`.
fn int(text: &[u8]) -> Option<i64> {
    let (negative, digits) = match text {
        [b'-', rest @ ..] => (true, rest),
        _ => (false, text),
    };
    if digits.is_empty() {
        return None;
    }
    let mut v = 0i64;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        v = v.checked_mul(10)?.checked_add(i64::from(d - b'0'))?;
    }
    Some(if negative { -v } else { v })
}
