//! The streaming pipeline behind `solve` (and `count`): read records, work on
//! them in parallel, emit results in input order, in bounded memory.
//!
//! ```text
//!  reader thread ──Batch{seq, 1..1k records}──▶ bounded(2×threads) ──▶ worker 1..N
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
//! Batches are sized by work: one record each until the workers have
//! measured what a record costs, then about 20 ms of one worker's work (at
//! most `batch_size` records), so a few slow records (`count`, `rate`) go to
//! different workers while fast ones travel in big batches. When an input
//! that is not a regular file (a pipe, a terminal) has no whole line ready,
//! the reader passes on what it holds and, once those rows are emitted, the
//! caller is told to flush ([`Emit::Flush`], [`run_flushing`]): a producer
//! that writes one line and waits gets its row back (a co-process).
//! Regular files never wait, so their batching is untouched.
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

mod formats;
pub mod reader;
mod workers;
mod writer;

use crate::grid::Grid;
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
    pub grid: Result<Grid, String>,
}

/// How to run the pipeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipelineOptions {
    /// Inputs read in order as one stream; `-` is stdin, and no input at all
    /// means stdin.
    pub inputs: Vec<PathBuf>,
    /// Worker threads (values below 1 are treated as 1).
    pub threads: usize,
    /// Most records per batch (values below 1 are treated as 1); about
    /// 1,000 amortises channel traffic without holding much memory. Batches
    /// are smaller when records are slow (see the module documentation).
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
/// Errors: the first input that cannot be opened, is a directory, or is
/// UTF-16 text, with its path.
pub fn check_inputs(inputs: &[PathBuf]) -> anyhow::Result<()> {
    for path in inputs {
        if path.as_os_str() != "-" {
            reader::check_file(path)?;
        }
    }
    Ok(())
}

/// What [`run_flushing`]'s `emit` receives.
#[derive(Debug)]
pub enum Emit<T> {
    /// The next result, in input order.
    Row(T),
    /// Every record read so far has been emitted and the reader is waiting
    /// for input (a pipe or terminal that has nothing more yet): write out
    /// what is buffered, so that a line-by-line producer sees its rows.
    Flush,
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
    let mut emit = emit;
    run_flushing(opts, make_state, work, |e| match e {
        Emit::Row(t) => emit(t),
        Emit::Flush => Ok(()),
    })
}

/// [`run`], with `emit` also told when to flush ([`Emit::Flush`]): when the
/// reader waits on an input that is not a regular file (a pipe, a terminal),
/// the records it holds are passed on as a batch at once, and once every
/// record read so far has been emitted `emit` gets [`Emit::Flush`]. Regular
/// files never wait, so their batching is untouched.
///
/// Errors: as [`run`].
pub fn run_flushing<S, T, MS, W, E>(
    opts: &PipelineOptions,
    make_state: MS,
    work: W,
    emit: E,
) -> anyhow::Result<Summary>
where
    MS: Fn() -> S + Sync,
    W: Fn(&mut S, &Record) -> T + Sync,
    T: Send,
    E: FnMut(Emit<T>) -> anyhow::Result<()>,
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
