//! Rows as Apache Parquet: typed columns ([`super::table::Columns`]), a
//! row group per [`ROW_GROUP`] rows, zstd compression, through the parquet
//! crate's `ArrowWriter` (arrow-rs).
//!
//! The file is readable once [`Sink::finish`] has written its footer: a run
//! that completes, fails or is stopped by a signal finishes it, so even
//! `FILE.partial` of a stopped run reads back (its rows so far). A run
//! killed outright (SIGKILL) leaves a file without a footer; Parquet output
//! cannot be resumed (`--resume` reads the rows kept as CSV).

use super::sink::Sink;
use super::table::Columns;
use anyhow::Context;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;
use std::io::Write;

/// Rows per row group (and per Arrow batch handed to the writer).
pub const ROW_GROUP: usize = 65_536;

/// The Parquet sink: the header makes the schema, rows fill the columns.
pub struct ParquetSink {
    out: Option<Box<dyn Write + Send>>,
    name: String,
    /// Columns typed as strings whatever their names (`--keep`'s).
    text: Vec<String>,
    columns: Option<Columns>,
    writer: Option<ArrowWriter<Box<dyn Write + Send>>>,
    finished: bool,
}

impl ParquetSink {
    /// A sink writing to `out`, which errors call `name`.
    pub fn new(out: Box<dyn Write + Send>, name: String) -> ParquetSink {
        ParquetSink::with_text(out, name, Vec::new())
    }

    /// [`ParquetSink::new`], the columns `text` strings whatever their
    /// names (`--keep`'s input columns).
    pub fn with_text(out: Box<dyn Write + Send>, name: String, text: Vec<String>) -> ParquetSink {
        ParquetSink {
            out: Some(out),
            name,
            text,
            columns: None,
            writer: None,
            finished: false,
        }
    }

    /// Hands the rows gathered so far to the writer as one batch.
    fn write_batch(&mut self) -> anyhow::Result<()> {
        let (Some(columns), Some(writer)) = (&mut self.columns, &mut self.writer) else {
            return Ok(());
        };
        if columns.is_empty() {
            return Ok(());
        }
        let batch = columns.finish()?;
        writer.write(&batch).map_err(|e| write_error(&self.name, e))
    }
}

/// `e`, from writing the file named `name`, as an error naming it: a write
/// that failed (a full disk) gives the system's error once (the parquet
/// crate's `External` wraps it and repeats it as its source).
fn write_error(name: &str, e: parquet::errors::ParquetError) -> anyhow::Error {
    match e {
        // An I/O error kept as one, so that a closed pipe is told apart
        // (exit 0 as for CSV, found by probing: Parquet exited 2).
        parquet::errors::ParquetError::External(inner) => {
            match inner.downcast::<std::io::Error>() {
                Ok(io) => anyhow::Error::new(*io).context(format!("cannot write {name}")),
                Err(inner) => anyhow::anyhow!("cannot write {name}: {inner}"),
            }
        }
        e => anyhow::Error::new(e).context(format!("cannot write {name}")),
    }
}

impl Sink for ParquetSink {
    fn write(&mut self, record: &csv::ByteRecord) -> anyhow::Result<()> {
        let Some(columns) = &mut self.columns else {
            let header: Vec<String> = record
                .iter()
                .map(|f| String::from_utf8_lossy(f).into_owned())
                .collect();
            let names: Vec<&str> = header.iter().map(String::as_str).collect();
            let columns = Columns::with_text(&names, &self.text, 1024);
            let props = WriterProperties::builder()
                .set_compression(Compression::ZSTD(ZstdLevel::default()))
                .set_max_row_group_row_count(Some(ROW_GROUP))
                .build();
            let out = self.out.take().expect("the header comes first");
            self.writer = Some(
                ArrowWriter::try_new(out, columns.schema(), Some(props))
                    .map_err(|e| write_error(&self.name, e))?,
            );
            self.columns = Some(columns);
            return Ok(());
        };
        columns
            .push_with(|r| r.clone_from(record))
            .map_err(|e| anyhow::anyhow!("{}: {e}", self.name))?;
        if columns.len() >= ROW_GROUP {
            self.write_batch()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> anyhow::Result<()> {
        Ok(())
    }

    fn finish(&mut self) -> anyhow::Result<()> {
        if self.finished {
            return Ok(());
        }
        self.finished = true;
        self.write_batch()?;
        if let Some(writer) = self.writer.take() {
            let mut out = writer
                .into_inner()
                .map_err(|e| write_error(&self.name, e))?;
            out.flush()
                .with_context(|| format!("cannot write {}", self.name))?;
        }
        Ok(())
    }
}
