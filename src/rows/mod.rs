//! The row each streaming command writes for one input record, and the work
//! that makes it: what `sudoflow solve`, `count`, `rate`, `canon` and `explain` run on every
//! record (through [`crate::pipeline`]), in a form the Python package and
//! other library users call directly, without the command line.

pub mod canon;
pub mod count;
pub mod explain;
pub mod rate;
pub mod solve;

use crate::canon::{Canonicalizer, PencilmarkCanonicalizer, SharedClasses};
use crate::outfile::KeptRows;
use crate::pipeline::{FromPanic, Record};
use std::sync::Arc;

/// What a run carries from each record into its row besides the command's
/// own columns, so that results map back to their input:
///
/// - `--keep COL,...`: the record's input CSV columns ([`Record::kept`]),
///   as text, before the command's columns;
/// - `--source`: `source` (the input: a path as given, `<stdin>`,
///   `ARCHIVE/MEMBER`, `<puzzle>` for `-p`) and `line` (the record's first
///   line in it, 1-based), after the command's columns (`source` as the
///   Python package's Spark and Dask adapters name the input file; their
///   `row` is an ordering key, not a line).
///
/// Header: `KEPT...,index,puzzle,...,error[,...],source,line`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Carry {
    /// `--keep`'s column names, in order (as given: the header uses them).
    pub keep: Vec<String>,
    /// `--source`.
    pub source: bool,
}

/// The columns `--source` adds.
pub const SOURCE_COLUMNS: [&str; 2] = ["source", "line"];

impl Carry {
    /// Nothing to carry: rows are the command's own.
    pub fn is_empty(&self) -> bool {
        self.keep.is_empty() && !self.source
    }

    /// The header of rows whose own columns are `own`: the kept columns,
    /// `own`, then `source,line` with `--source`.
    pub fn header(&self, own: &[String]) -> Vec<String> {
        let source = SOURCE_COLUMNS.iter().filter(|_| self.source);
        self.keep
            .iter()
            .chain(own)
            .cloned()
            .chain(source.map(|s| s.to_string()))
            .collect()
    }

    /// Checks that the header [`Carry::header`] makes has no name twice:
    /// a kept column named as another kept one, or (in any case: a reader
    /// that looks names up in any case would find either) as one of the
    /// command's columns (`own`) or `--source`'s. Kept columns whose names
    /// differ in case only (`id`, `ID`) are two columns: the reader takes
    /// the one named exactly so first.
    ///
    /// Errors: the first name met twice, with advice.
    pub fn check(&self, own: &[String]) -> Result<(), String> {
        let header = self.header(own);
        for (k, name) in self.keep.iter().enumerate() {
            if name.trim().is_empty() {
                return Err("--keep: a column name is empty".to_string());
            }
            let same = |other: &String| other.eq_ignore_ascii_case(name);
            if self.keep[..k].contains(name) {
                return Err(format!("--keep names the column {name:?} twice"));
            }
            if let Some(other) = header[self.keep.len()..].iter().find(|o| same(o)) {
                let whose = if self.source && SOURCE_COLUMNS.contains(&other.as_str()) {
                    "--source adds"
                } else {
                    "this command writes"
                };
                return Err(format!(
                    "--keep {name}: {whose} a column {other:?} of its own, and a header names a \
                     column once (the columns written: {})",
                    header[self.keep.len()..].join(",")
                ));
            }
        }
        Ok(())
    }
}

/// A row with what its record carries into it ([`Carry`]) and, with
/// `--distinct`, the record's class: what `solve`, `rate`, `count` and
/// `canon` emit when a run carries columns or keeps one record per class.
#[derive(Debug, Clone, PartialEq)]
pub struct Carried<T> {
    /// The command's row; `None` for a record that was not worked on: an
    /// earlier record had claimed its class (`--distinct`, [`classify`]).
    pub row: Option<T>,
    /// The record's [`Record::index`].
    pub index: u64,
    /// The digest of the record's class (`--distinct`; `None`: the record
    /// is no puzzle, or no classes are kept): see [`Carried::written`].
    pub class: Option<u128>,
    /// [`Record::kept`].
    pub kept: Vec<String>,
    /// [`Record::source`].
    pub source: Arc<str>,
    /// [`Record::line`].
    pub line: u64,
}

impl<T> Carried<T> {
    /// The row made by `work` for `record`, which is in class `class`.
    pub fn of(record: &Record, class: Option<u128>, row: Option<T>) -> Carried<T> {
        Carried {
            row,
            index: record.index,
            class,
            kept: record.kept.clone(),
            source: Arc::clone(&record.source),
            line: record.line,
        }
    }

    /// The row to write, if any: `None` for a record that is not its
    /// class's first (`classes`: `--distinct`'s, every record below this
    /// one having claimed its class, as when the pipeline emits it).
    pub fn written(&self, classes: Option<&SharedClasses>) -> Option<&T> {
        let row = self.row.as_ref()?;
        match (classes, self.class) {
            (Some(classes), Some(class)) if classes.first(class) != Some(self.index) => None,
            _ => Some(row),
        }
    }

    /// The kept columns' text (as many as `carry` keeps), then the row's
    /// own fields `own`, then `source,line` if `carry` asks: the fields
    /// of the carried row, in [`Carry::header`]'s order.
    pub fn fields<'a>(
        &'a self,
        carry: &'a Carry,
        own: impl IntoIterator<Item = &'a [u8]>,
        line: &'a mut itoa::Buffer,
    ) -> impl Iterator<Item = &'a [u8]> {
        let kept =
            (0..carry.keep.len()).map(|k| self.kept.get(k).map_or(&b""[..], |f| f.as_bytes()));
        let source: &[u8] = self.source.as_bytes();
        let after: [&[u8]; 2] = [source, line.format(self.line).as_bytes()];
        let after = after.into_iter().filter(|_| carry.source);
        kept.chain(own).chain(after)
    }
}

impl<T: FromPanic> FromPanic for Carried<T> {
    /// The command's panic row, carrying what the record carries; no class
    /// (so it is written, as an invalid record's row is).
    fn from_panic(record: &Record, message: &str) -> Carried<T> {
        Carried::of(record, None, Some(T::from_panic(record, message)))
    }
}

/// A worker's canonicalizers, to tell each record's class (`--distinct`).
#[derive(Debug, Default)]
pub struct RecordClasses {
    puzzles: Canonicalizer,
    pencilmarks: Option<PencilmarkCanonicalizer>,
}

impl RecordClasses {
    /// The digest of `record`'s class: its minlex form's
    /// ([`crate::canon`]), as `canon` gives it (of its 81 cells, or of its
    /// candidates for a pencilmark line); `None` for a record that is no
    /// puzzle or whose givens clash (it has no class, and always gets its
    /// row, as `--distinct`'s help promises an invalid record: found by
    /// probing, a repeated clashing record got none).
    pub fn digest(&mut self, record: &Record) -> Option<u128> {
        if let Some(pm) = &record.pencilmarks {
            let canon = self
                .pencilmarks
                .get_or_insert_with(PencilmarkCanonicalizer::new);
            return Some(canon.canonicalize(pm).digest());
        }
        let grid = record.grid.as_ref().ok()?;
        grid.check_givens().ok()?;
        Some(self.puzzles.canonicalize(grid).digest())
    }
}

/// `work`'s row for `record`, carried ([`Carried`]); with `classes`
/// (`--distinct`), only for a record that is (so far) its class's first:
/// the record claims its class first ([`SharedClasses::claim`]), and one
/// that an earlier record has claimed is not worked on (its row is `None`).
/// `canon` is the worker's own.
pub fn classify<S, T>(
    classes: Option<&SharedClasses>,
    canon: &mut RecordClasses,
    state: &mut S,
    record: &Record,
    work: impl FnOnce(&mut S, &Record) -> T,
) -> Carried<T> {
    let class = classes.and_then(|_| canon.digest(record));
    if let (Some(classes), Some(d)) = (classes, class) {
        if !classes.claim(d, record.index) {
            return Carried::of(record, class, None);
        }
    }
    Carried::of(record, class, Some(work(state, record)))
}

/// Writes `carried`'s row, if it gets one ([`Carried::written`]), to
/// `sink`: the kept columns, the command's own fields (`own` makes them),
/// then `source,line` (as `carry` asks); returns the row written, or
/// `None` for a repeat (no row).
///
/// Errors: the sink's.
pub fn write_carried<'a, T>(
    sink: &mut crate::output::CsvSink,
    carry: &Carry,
    classes: Option<&SharedClasses>,
    carried: &'a Carried<T>,
    own: impl FnOnce(&T) -> Vec<String>,
) -> anyhow::Result<Option<&'a T>> {
    let Some(row) = carried.written(classes) else {
        return Ok(None);
    };
    let own = own(row);
    let mut line = itoa::Buffer::new();
    let fields = carried.fields(carry, own.iter().map(|f| f.as_bytes()), &mut line);
    sink.write_record(fields)?;
    Ok(Some(row))
}

/// The check of a resumed run's records against its kept rows
/// ([`KeptRows::check`]; none for a fresh run) for
/// [`crate::pipeline::run_resumed`]; with `--distinct`'s `classes`, the records
/// skipped (those with a kept row and the repeats between them) claim
/// their classes as they did in the interrupted run, so that the classes
/// are those of that run's records (taken from the inputs read again, the
/// same way the run took them).
pub fn resume_check<'a>(
    mut kept: Option<&'a mut KeptRows>,
    classes: Option<&'a SharedClasses>,
) -> impl FnMut(&Record) -> anyhow::Result<bool> + Send + 'a {
    let mut canon = RecordClasses::default();
    move |record: &Record| {
        let Some(k) = kept.as_mut() else {
            return Ok(false);
        };
        let skipped = k.check(record)?;
        if let (true, Some(classes)) = (skipped, classes) {
            if let Some(d) = canon.digest(record) {
                classes.claim(d, record.index);
            }
        }
        Ok(skipped)
    }
}

/// A record of an `--exclude` file: its class's digest, `None` for one
/// that is no 81-cell puzzle, or the panic that canonicalizing it met.
struct ExcludedRecord(Result<Option<u128>, String>);

impl crate::pipeline::FromPanic for ExcludedRecord {
    fn from_panic(record: &crate::pipeline::Record, message: &str) -> ExcludedRecord {
        ExcludedRecord(Err(crate::pipeline::panic_message(record, message)))
    }
}

/// The classes (minlex forms, [`crate::canon`]) of the puzzles in
/// `files`, read as every command reads its inputs, on `threads` threads,
/// and the number of records that are no 81-cell puzzle (skipped): what
/// `generate --exclude` and the Python package's `generate(exclude=)`
/// pass over.
///
/// Errors: a file cannot be read (the reader's message names it).
pub fn classes_in(
    files: &[std::path::PathBuf],
    threads: usize,
) -> anyhow::Result<(crate::canon::Classes, u64)> {
    let opts = crate::pipeline::PipelineOptions {
        inputs: files.to_vec(),
        threads,
        ..Default::default()
    };
    let (mut classes, mut skipped) = (crate::canon::Classes::new(), 0);
    crate::pipeline::run(
        &opts,
        crate::canon::Canonicalizer::new,
        |canon: &mut crate::canon::Canonicalizer, record: &crate::pipeline::Record| {
            let grid = record
                .grid
                .as_ref()
                .ok()
                .filter(|_| record.pencilmarks.is_none());
            ExcludedRecord(Ok(grid.map(|g| canon.canonicalize(g).digest())))
        },
        |ExcludedRecord(digest)| {
            match digest.map_err(anyhow::Error::msg)? {
                Some(digest) => {
                    classes.first_of(digest, 0);
                }
                None => skipped += 1,
            }
            Ok(())
        },
    )?;
    Ok((classes, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn carried_columns_frame_the_commands_own() {
        let own = names(&["index", "puzzle", "error"]);
        let carry = Carry {
            keep: names(&["id", "Author"]),
            source: true,
        };
        assert_eq!(
            carry.header(&own),
            names(&["id", "Author", "index", "puzzle", "error", "source", "line"])
        );
        assert!(carry.check(&own).is_ok());
        assert!(Carry::default().is_empty());
        let clash = |keep: &[&str], source| {
            Carry {
                keep: names(keep),
                source,
            }
            .check(&own)
            .unwrap_err()
        };
        assert!(clash(&["PUZZLE"], false).contains("this command writes a column \"puzzle\""));
        assert!(clash(&["line"], true).contains("--source adds a column \"line\""));
        // The columns written, --source's among them.
        assert!(clash(&["line"], true).ends_with(",source,line)"));
        assert!(clash(&["id", "id"], false).contains("twice"));
        // Names that differ in case are two columns (the reader takes the
        // one named exactly so first).
        let cased = Carry {
            keep: names(&["id", "ID"]),
            source: false,
        };
        assert!(cased.check(&own).is_ok());
        assert!(clash(&[""], false).contains("empty"));
        // Without --source, `source,line` may be kept (a canon --source
        // output read back).
        assert!(Carry {
            keep: names(&["source", "line"]),
            source: false
        }
        .check(&own)
        .is_ok());
    }
}
