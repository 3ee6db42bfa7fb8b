//! The streaming pipeline behind `solve` (and `count`): read records, work on
//! them in parallel, emit results in input order, in bounded memory.
//!
//! ```text
//!  reader thread ──Batch{seq, 16..1k records}─▶ bounded(2×threads) ──▶ worker 1..N
//!   (parse)           ▲                                              (one state each,
//!                     │ window tokens                                 work(&mut S, &Record))
//!                     │                                                   │
//!  calling thread ◀───┴──────────── (seq, Vec<T>) unbounded ◀─────────────┘
//!   (reorders by seq, emit(T) in input order, progress bar)
//! ```
//!
//! With one worker thread (`-j 1`) there is nothing to overlap: the calling
//! thread reads, works and emits each record in turn, which saves the CPU
//! time that handing records between threads costs.
//!
//! The shape follows fd's `walk.rs`: one reader, a pool of workers, one
//! receiver that owns the output. Memory is bounded by a window of batches in
//! flight: the reader takes a token before it sends a batch and the calling
//! thread returns the token once that batch has been emitted, so at most
//! `4 × threads + 2` batches exist at any time, however slow one batch is and
//! however long the input is. Output order never depends on `threads`.
//!
//! What a record is, and how each line of input becomes one, is described in
//! [`reader`].

pub mod reader;
mod workers;
mod writer;

use crate::grid::{Grid, Pencilmarks};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// One input record: a line that is not blank and not a `#` comment (nor a CSV
/// header), whether or not it holds a valid puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// 1-based position among all records of all inputs.
    pub index: u64,
    /// The input it came from: the path as given, or `<stdin>`.
    pub source: Arc<str>,
    /// 1-based line number within its source (after gzip decoding).
    pub line: u64,
    /// For an invalid record, its puzzle field as read (up to the first
    /// separator), lossily decoded if it was not UTF-8; a field longer than
    /// 200 characters is cut there and ends in `...` (its error gives the
    /// full length). Empty for a valid record, whose [`Record::grid`] holds
    /// the puzzle (not copying the text saves an allocation per record).
    pub raw: String,
    /// The puzzle, or a message naming `source:line` and the problem: wrong
    /// length, a bad character, or text that is not UTF-8. An `Ok` grid's
    /// givens may still clash: `work` checks ([`Grid::check_givens`]).
    /// For a pencilmark puzzle, an error saying that the command reads
    /// 81-cell puzzles only, for the commands that do not look at
    /// [`Record::pencilmarks`].
    pub grid: Result<Grid, String>,
    /// A puzzle given by its candidates (a 729-character line, see
    /// [`Pencilmarks`]); [`Record::raw`] then holds the whole line. `None`
    /// for every other record.
    pub pencilmarks: Option<Box<Pencilmarks>>,
}

/// How to run the pipeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipelineOptions {
    /// Inputs read in order as one stream; `-` is stdin, and no input at all
    /// means stdin.
    pub inputs: Vec<PathBuf>,
    /// Worker threads (values below 1 are treated as 1).
    pub threads: usize,
    /// Records per batch (values below 1 are treated as 1); about 1,000
    /// amortises channel traffic without holding much memory.
    pub batch_size: usize,
    /// Draw a progress bar (records, records/s) on stderr. The caller decides:
    /// normally stderr is a terminal and `--quiet` is off.
    pub progress: bool,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        PipelineOptions {
            inputs: Vec::new(),
            threads: crate::cli::thread_count(None),
            batch_size: 1024,
            progress: false,
        }
    }
}

/// What a completed run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Summary {
    /// Records read (and emitted).
    pub records: u64,
    /// Wall time from the start of [`run`] to the last emit.
    pub elapsed: Duration,
}

impl Summary {
    /// Records per second over [`Summary::elapsed`] (0 for an instant run).
    pub fn records_per_sec(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.records as f64 / secs
        } else {
            0.0
        }
    }

    /// The end-of-run line for stderr, e.g. `49158 records (49158 unique) in
    /// 1.52 s, 32340 records/s`; `counts` are the caller's per-status counts,
    /// zero counts left out.
    pub fn line(&self, counts: &[(&str, u64)]) -> String {
        let parts: Vec<String> = counts
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(name, n)| format!("{n} {name}"))
            .collect();
        let detail = if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join(", "))
        };
        format!(
            "{} records{} in {:.2} s, {:.0} records/s",
            self.records,
            detail,
            self.elapsed.as_secs_f64(),
            self.records_per_sec()
        )
    }

    /// Ends a run of `solve` or `count`: prints [`Summary::line`] on stderr
    /// unless `quiet`, and returns the exit code: 1 when `strict` and the
    /// count named `invalid` (the rows the caller wrote as invalid) is not 0
    /// (after everything was written), else 0.
    pub fn finish(
        &self,
        counts: &[(&str, u64)],
        quiet: bool,
        strict: bool,
    ) -> std::process::ExitCode {
        if !quiet {
            eprintln!("sudoflow: {}", self.line(counts));
        }
        let invalid: u64 = counts
            .iter()
            .filter(|(name, _)| *name == "invalid")
            .map(|(_, n)| n)
            .sum();
        if strict && invalid > 0 {
            eprintln!("sudoflow: --strict: {invalid} invalid record(s) (see the error column)");
            return std::process::ExitCode::from(crate::exit::FAILURE);
        }
        std::process::ExitCode::from(crate::exit::OK)
    }
}

/// Checks that every input can be opened, so that a missing file is reported
/// (exit 2, naming it) before any output is created.
///
/// Errors: the first input that cannot be opened, with its path.
pub fn check_inputs(inputs: &[PathBuf]) -> anyhow::Result<()> {
    for path in inputs {
        if path.as_os_str() != "-" {
            reader::open_file(path)?;
        }
    }
    Ok(())
}

/// Runs the pipeline over `opts.inputs`.
///
/// - `make_state` is called once per worker thread (e.g. to build a
///   [`crate::solver::Solver`] that the worker reuses);
/// - `work` is called once per record, valid or not, on some worker, in no
///   particular order;
/// - `emit` is called once per record with `work`'s result, on the calling
///   thread, strictly in input order (so it may own a non-`Send` writer).
///
/// Errors: an input cannot be opened or read (the message names it), or
/// `emit` fails (e.g. a closed stdout: the error chain then holds an
/// [`std::io::ErrorKind::BrokenPipe`]). Reading and working stop soon after.
pub fn run<S, T, MS, W, E>(
    opts: &PipelineOptions,
    make_state: MS,
    work: W,
    emit: E,
) -> anyhow::Result<Summary>
where
    MS: Fn() -> S + Sync,
    W: Fn(&mut S, &Record) -> T + Sync,
    T: Send,
    E: FnMut(T) -> anyhow::Result<()>,
{
    writer::run(opts, make_state, work, emit)
}

/// A numbered batch of records on its way from the reader to the workers.
struct Batch {
    /// 0-based batch number, in input order.
    seq: u64,
    records: Vec<Record>,
}

/// A batch's results on their way from a worker to the calling thread.
struct Done<T> {
    seq: u64,
    results: Vec<T>,
}
