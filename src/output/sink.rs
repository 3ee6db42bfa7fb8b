//! Output formats other than CSV: the [`Sink`] trait, its JSON Lines and
//! Parquet implementations, and how a run picks one ([`Format`]).
//!
//! Commands build each row as the CSV fields they write (a
//! [`csv::ByteRecord`] in header order); [`super::CsvSink`] writes them as
//! CSV itself, or hands them to a [`Sink`] for `--format jsonl|parquet`.
//! Both typed formats take a column's type from its name ([`column_kind`]):
//! counts are integers, ratings and WNF floats, the rest text, and an empty
//! CSV field is a null.

use std::io::Write;
use std::path::Path;

/// How rows are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Comma-separated values with a header line (the default).
    #[default]
    Csv,
    /// JSON Lines: one object per row, keys the CSV's header, typed values
    /// (numbers, strings, `null` for an empty field).
    Jsonl,
    /// Apache Parquet, zstd-compressed, one row group per 65,536 rows
    /// (needs the `parquet` cargo feature, on by default).
    Parquet,
}

impl Format {
    /// Parses a `--format` value: `csv`, `jsonl` (or `ndjson`) or `parquet`.
    ///
    /// Errors: any other text; the message lists the choices.
    pub fn parse(text: &str) -> Result<Format, String> {
        match text.to_ascii_lowercase().as_str() {
            "csv" => Ok(Format::Csv),
            "jsonl" | "ndjson" => Ok(Format::Jsonl),
            // The names the extensions take too (`.pq`).
            "parquet" | "pq" => Ok(Format::Parquet),
            _ => Err(format!(
                "unknown format {text:?}: expected csv, jsonl or parquet"
            )),
        }
    }

    /// The format a run writes: `explicit` (`--format`) if given, else the
    /// one `-o`'s extension names (`.parquet`/`.pq`; `.jsonl`, `.ndjson`
    /// or `.json`: rows are a stream, so JSON is JSON Lines), else CSV.
    pub fn resolve(explicit: Option<Format>, output: Option<&Path>) -> Format {
        if let Some(f) = explicit {
            return f;
        }
        let ext = output
            .and_then(Path::extension)
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("parquet" | "pq") => Format::Parquet,
            Some("jsonl" | "ndjson" | "json") => Format::Jsonl,
            _ => Format::Csv,
        }
    }

    /// Its name as `--format` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Jsonl => "jsonl",
            Format::Parquet => "parquet",
        }
    }
}

/// Where rows go in a format other than CSV. The first record a command
/// writes is the header; every later one a row with the same number of
/// fields.
pub trait Sink {
    /// Takes one record (the header first), its fields as CSV text.
    ///
    /// Errors: the destination's, or a field that does not fit its column's
    /// type (a bug).
    fn write(&mut self, record: &csv::ByteRecord) -> anyhow::Result<()>;

    /// Pushes what is buffered towards the destination where the format
    /// allows it (JSON Lines: every whole row; Parquet: nothing, its rows go
    /// out by row group).
    ///
    /// Errors: the destination's.
    fn flush(&mut self) -> anyhow::Result<()>;

    /// Ends the output (Parquet: the last row group and the footer, after
    /// which the file is readable) and flushes. Later calls do nothing.
    ///
    /// Errors: the destination's.
    fn finish(&mut self) -> anyhow::Result<()>;
}

/// What a column holds, by its header name: the one rule for every typed
/// format (JSON Lines here, Arrow and Parquet in `table`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnKind {
    /// Counts and positions: signed 64-bit (as Spark and Java need).
    Int,
    /// The generator's per-puzzle seed: a full unsigned 64-bit number.
    UInt,
    /// Ratings and WNF.
    Float,
    /// Everything else.
    Text,
}

/// The kind of the CLI's column `name`. (`explain`'s JSON Lines put the
/// array of steps in `steps`: JSON Lines writes every column that is not
/// text as it is.)
pub fn column_kind(name: &str) -> ColumnKind {
    match name {
        "index" | "solutions" | "clues" | "wnf_level" | "guesses" | "backtracks" | "steps"
        | "row" | "automorphisms" | "class_index" | "line" | "hardest_step" => ColumnKind::Int,
        "seed" => ColumnKind::UInt,
        "wnf" | "er" | "ep" | "ed" => ColumnKind::Float,
        _ => ColumnKind::Text,
    }
}

/// The kind of column `name` in a header whose columns `text` are text
/// whatever their names (`--keep`'s input columns, carried as read: a kept
/// `line` or `solutions` column is the input's text, not sudoflow's
/// number), else [`column_kind`].
pub fn column_kind_in(name: &str, text: &[String]) -> ColumnKind {
    if text.iter().any(|t| t == name) {
        ColumnKind::Text
    } else {
        column_kind(name)
    }
}

/// JSON Lines: `{"index":1,"puzzle":"...","status":"unique",...,"error":null}`.
pub struct JsonlSink {
    out: std::io::BufWriter<Box<dyn Write + Send>>,
    name: String,
    /// Columns written as strings whatever their names ([`column_kind_in`]).
    text: Vec<String>,
    /// Each column's `"name":` (JSON-escaped), and whether it is numeric.
    keys: Vec<(Vec<u8>, bool)>,
    line: Vec<u8>,
}

impl JsonlSink {
    /// A sink writing to `out` (buffered, 64 KiB).
    pub fn new(out: Box<dyn Write + Send>, name: String) -> JsonlSink {
        JsonlSink::with_text(out, name, Vec::new())
    }

    /// [`JsonlSink::new`], the columns `text` written as strings whatever
    /// their names ([`column_kind_in`]).
    pub fn with_text(out: Box<dyn Write + Send>, name: String, text: Vec<String>) -> JsonlSink {
        JsonlSink {
            out: std::io::BufWriter::with_capacity(64 * 1024, out),
            name,
            text,
            keys: Vec::new(),
            line: Vec::new(),
        }
    }

    fn io(&self, e: std::io::Error) -> anyhow::Error {
        anyhow::Error::from(e).context(format!("cannot write {}", self.name))
    }
}

impl Sink for JsonlSink {
    fn write(&mut self, record: &csv::ByteRecord) -> anyhow::Result<()> {
        if self.keys.is_empty() {
            for name in record.iter() {
                let name = String::from_utf8_lossy(name);
                let mut key = serde_json::to_vec(&name)?;
                key.push(b':');
                self.keys
                    .push((key, column_kind_in(&name, &self.text) != ColumnKind::Text));
            }
            return Ok(());
        }
        anyhow::ensure!(
            record.len() == self.keys.len(),
            "a row has {} fields for {} columns",
            record.len(),
            self.keys.len()
        );
        self.line.clear();
        self.line.push(b'{');
        for (i, ((key, numeric), field)) in self.keys.iter().zip(record.iter()).enumerate() {
            if i > 0 {
                self.line.push(b',');
            }
            self.line.extend_from_slice(key);
            if field.is_empty() {
                self.line.extend_from_slice(b"null");
            } else if *numeric {
                // The CSV's numbers are plain decimals, valid JSON as they are.
                self.line.extend_from_slice(field);
            } else {
                serde_json::to_writer(&mut self.line, &String::from_utf8_lossy(field))?;
            }
        }
        self.line.extend_from_slice(b"}\n");
        let line = std::mem::take(&mut self.line);
        let written = self.out.write_all(&line);
        self.line = line;
        written.map_err(|e| self.io(e))
    }

    fn flush(&mut self) -> anyhow::Result<()> {
        self.out.flush().map_err(|e| self.io(e))
    }

    fn finish(&mut self) -> anyhow::Result<()> {
        self.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_from_names_and_extensions() {
        assert_eq!(Format::parse("JSONL"), Ok(Format::Jsonl));
        // Each name an extension takes is a --format name too.
        for (name, format) in [("ndjson", Format::Jsonl), ("pq", Format::Parquet)] {
            assert_eq!(Format::parse(name), Ok(format));
        }
        assert!(Format::parse("xml")
            .unwrap_err()
            .contains("csv, jsonl or parquet"));
        let out = |p: &str| Format::resolve(None, Some(Path::new(p)));
        assert_eq!(out("a.parquet"), Format::Parquet);
        assert_eq!(out("a.JSONL"), Format::Jsonl);
        assert_eq!(out("a.json"), Format::Jsonl);
        assert_eq!(out("a.csv"), Format::Csv);
        assert_eq!(out("a"), Format::Csv);
        assert_eq!(Format::resolve(None, None), Format::Csv);
        assert_eq!(
            Format::resolve(Some(Format::Csv), Some(Path::new("a.parquet"))),
            Format::Csv
        );
    }

    #[test]
    fn jsonl_rows_are_typed_objects() {
        #[derive(Clone, Default)]
        struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let buf = Shared::default();
        let mut sink = JsonlSink::new(Box::new(buf.clone()), "test".into());
        for rec in [
            &["index", "puzzle", "wnf", "error"][..],
            &["1", "12.", "0.25", ""],
            &["2", "x\"y,z", "", "a.txt:2: wrong length"],
        ] {
            sink.write(&csv::ByteRecord::from(rec.to_vec())).unwrap();
        }
        sink.finish().unwrap();
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert_eq!(
            text,
            "{\"index\":1,\"puzzle\":\"12.\",\"wnf\":0.25,\"error\":null}\n\
             {\"index\":2,\"puzzle\":\"x\\\"y,z\",\"wnf\":null,\"error\":\"a.txt:2: wrong length\"}\n"
        );
        for line in text.lines() {
            serde_json::from_str::<serde_json::Value>(line).unwrap();
        }
    }
}
