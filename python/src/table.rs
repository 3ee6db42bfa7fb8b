//! The rows of each command as typed Arrow columns
//! ([`sudoflow::output::table::Columns`]: the CLI's CSV fields, typed by
//! column name), and the tables and batches returned to Python as pyarrow
//! objects.

use crate::input::Names;
use arrow_array::RecordBatch;
use arrow_schema::{ArrowError, SchemaRef};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3_arrow::{PyRecordBatch, PySchema, PyTable};
use std::sync::Arc;
use sudoflow::output::table::Columns;
use sudoflow::output::SolveRow;
use sudoflow::rating::se::Rating;
use sudoflow::rows::canon::CanonRow;
use sudoflow::rows::count::CountRow;
use sudoflow::rows::rate::RateRow;
use sudoflow::rows::{Carried, Carry};

/// Rows per Arrow record batch of a returned table.
pub const BATCH_ROWS: usize = 64 * 1024;

/// A result row that can put its CSV fields into a record.
pub trait Row {
    /// Clears `record`, then pushes the row's fields in header order.
    fn fill(&self, record: &mut csv::ByteRecord);
}

/// A `solve` row as `sudoflow solve` writes it: blanks of the `puzzle`
/// column written as `blank` (`--blank`), then the `--se` columns if rated.
pub struct SolveOut {
    pub row: SolveRow,
    pub blank: u8,
    pub se: Option<[String; 3]>,
}

impl Row for SolveOut {
    fn fill(&self, record: &mut csv::ByteRecord) {
        self.row.fill_record_with_blank(record, self.blank);
        for f in self.se.iter().flatten() {
            record.push_field(f.as_bytes());
        }
    }
}

impl Row for CountRow {
    fn fill(&self, record: &mut csv::ByteRecord) {
        record.clear();
        for f in self.fields() {
            record.push_field(f.as_bytes());
        }
    }
}

impl Row for RateRow {
    fn fill(&self, record: &mut csv::ByteRecord) {
        record.clear();
        for f in self.fields() {
            record.push_field(f.as_bytes());
        }
    }
}

/// A `canon` row with its class (the index of the first record with the
/// same form), as `sudoflow canon` writes it.
pub struct CanonOut {
    pub row: CanonRow,
    pub class: Option<u64>,
}

impl Row for CanonOut {
    fn fill(&self, record: &mut csv::ByteRecord) {
        record.clear();
        record.push_field(self.row.index.to_string().as_bytes());
        record.push_field(self.row.puzzle.as_bytes());
        match &self.row.result {
            Ok(form) => {
                record.push_field(form.to_line().as_bytes());
                record.push_field(form.automorphisms().to_string().as_bytes());
                record.push_field(self.class.unwrap_or(self.row.index).to_string().as_bytes());
                record.push_field(b"");
            }
            Err(error) => {
                for _ in 0..3 {
                    record.push_field(b"");
                }
                record.push_field(error.as_bytes());
            }
        }
    }
}

/// A row with what its record carries into it (`keep=`, `source=`): the
/// kept columns, the row's own, then `source,line`, as the CLI's `--keep`
/// and `--source` write them ([`Carried::fields`]).
pub struct CarriedOut<R> {
    pub carried: Carried<()>,
    pub row: R,
    pub carry: Arc<Carry>,
}

impl<R: Row> Row for CarriedOut<R> {
    fn fill(&self, record: &mut csv::ByteRecord) {
        self.row.fill(record);
        if self.carry.is_empty() {
            return;
        }
        let own = record.clone();
        let mut line = itoa::Buffer::new();
        record.clear();
        for f in self.carried.fields(&self.carry, own.iter(), &mut line) {
            record.push_field(f);
        }
    }
}

/// A generated puzzle as `generate`'s CSV row: solve's columns, then er, ep,
/// ed when rated, then the candidate seed, then with `labels` the label of
/// its er (`--labels`).
pub struct GeneratedRow {
    pub row: SolveRow,
    pub se: Option<[f64; 3]>,
    pub seed: u64,
    /// The character the `puzzle` column writes for a blank (`blank=`).
    pub blank: u8,
    pub labels: bool,
}

/// A `rate` row as `sudoflow rate` writes it, with `labels` (`--labels`)
/// the label of its er last.
pub struct RateOut {
    pub row: RateRow,
    pub labels: bool,
}

impl Row for RateOut {
    fn fill(&self, record: &mut csv::ByteRecord) {
        self.row.fill(record);
        if self.labels {
            record.push_field(self.row.label().as_bytes());
        }
    }
}

impl Row for GeneratedRow {
    fn fill(&self, record: &mut csv::ByteRecord) {
        self.row.fill_record_with_blank(record, self.blank);
        if let Some(se) = self.se {
            for x in se {
                record.push_field(Rating::format(x).as_bytes());
            }
        }
        record.push_field(self.seed.to_string().as_bytes());
        if self.labels {
            let label = self
                .se
                .map_or("", |se| sudoflow::rating::labels::label(se[0]));
            record.push_field(label.as_bytes());
        }
    }
}

/// Rows turned into record batches under a header, as they come; with
/// [`Names`], each error renamed after its record's source and row.
pub struct Builder {
    columns: Columns,
    batches: Vec<RecordBatch>,
    batch_rows: usize,
    /// The `error` column's position, for renames.
    error: Option<usize>,
}

impl Builder {
    /// An empty table under `header`, in batches of `batch_rows` rows.
    pub fn new(header: &[&str], batch_rows: usize) -> Builder {
        Builder::with_text(header, &[], batch_rows)
    }

    /// [`Builder::new`], the columns `text` strings whatever their names
    /// (`keep=`'s input columns, as the CLI's `--keep` writes them).
    pub fn with_text(header: &[&str], text: &[String], batch_rows: usize) -> Builder {
        Builder {
            columns: Columns::with_text(header, text, batch_rows.min(BATCH_ROWS)),
            batches: Vec::new(),
            batch_rows: batch_rows.max(1),
            error: header.iter().position(|h| *h == "error"),
        }
    }

    /// The schema.
    pub fn schema(&self) -> SchemaRef {
        self.columns.schema()
    }

    /// Appends `row`; a full batch is finished (see [`Builder::take_batch`]).
    ///
    /// Errors: a field the column's type refuses (a bug).
    pub fn push(&mut self, row: &impl Row, names: Option<&Names>) -> Result<(), String> {
        let error = self.error;
        self.columns.push_with(|record| {
            row.fill(record);
            if let (Some(names), Some(e)) = (names, error) {
                if let Some(renamed) = record.get(e).and_then(|f| names.rename(f)) {
                    let fields: Vec<Vec<u8>> = record
                        .iter()
                        .enumerate()
                        .map(|(i, f)| if i == e { renamed.clone() } else { f.to_vec() })
                        .collect();
                    record.clear();
                    for f in fields {
                        record.push_field(&f);
                    }
                }
            }
        })?;
        if self.columns.len() >= self.batch_rows {
            let batch = self.columns.finish().map_err(|e| e.to_string())?;
            self.batches.push(batch);
        }
        Ok(())
    }

    /// The oldest finished batch, if any.
    pub fn take_batch(&mut self) -> Option<RecordBatch> {
        (!self.batches.is_empty()).then(|| self.batches.remove(0))
    }

    /// The rows pushed since the last finished batch, as a batch (`None`
    /// when there are none).
    pub fn finish_batch(&mut self) -> Result<Option<RecordBatch>, ArrowError> {
        if self.columns.is_empty() {
            return Ok(None);
        }
        self.columns.finish().map(Some)
    }

    /// Every row pushed, as one table (one empty batch for no rows).
    pub fn into_table(mut self) -> PyResult<PyTable> {
        if let Some(last) = self.finish_batch().map_err(arrow_err)? {
            self.batches.push(last);
        }
        if self.batches.is_empty() {
            self.batches.push(self.columns.finish().map_err(arrow_err)?);
        }
        let schema = self.columns.schema();
        PyTable::try_new(self.batches, schema)
    }
}

pub fn arrow_err(e: ArrowError) -> PyErr {
    PyRuntimeError::new_err(e.to_string())
}

/// `table` as a `pyarrow.Table` (no copy: the Arrow C stream interface).
pub fn to_pyarrow(py: Python<'_>, table: PyTable) -> PyResult<Py<PyAny>> {
    Ok(table.into_pyarrow(py)?.unbind())
}

/// `batch` as a `pyarrow.RecordBatch`.
pub fn batch_to_pyarrow(py: Python<'_>, batch: RecordBatch) -> PyResult<Py<PyAny>> {
    Ok(PyRecordBatch::new(batch).into_pyarrow(py)?.unbind())
}

/// `schema` as a `pyarrow.Schema`.
pub fn schema_to_pyarrow(py: Python<'_>, schema: SchemaRef) -> PyResult<Bound<'_, PyAny>> {
    py.import("pyarrow")?
        .getattr("schema")?
        .call1((PySchema::new(schema),))
}
