//! The streaming pipeline behind `solve` (and `count`): read records, work on
//! them in parallel, emit results in input order, in bounded memory.
//!
//! ```text
//!  reader thread ──Batch{seq, 1..1k records}──▶ bounded(2×threads) ──▶ worker 2..N
//!   (parse)           ▲                              │               (one state each,
//!                     │ window tokens                │                work(&mut S, &Record))
//!                     │                              ▼                    │
//!  calling thread ◀───┴── works on batches too ◀─────┘                    │
//!   (reorders by seq,  ◀──────────── (seq, Vec<T>) unbounded ◀────────────┘
//!    emit(T) in input order, reports progress)
//! ```
//!
//! With `-j N` (N ≥ 2) the calling thread is worker 1: whenever it has no
//! finished batch to emit it works on a batch itself, so N threads work and
//! the writer is not a thread of its own that the workers must share the
//! cores with. With one worker thread (`-j 1`) there is nothing to overlap:
//! the calling thread reads, works and emits each record in turn, which
//! saves the CPU time that handing records between threads costs.
//!
//! Batches are sized by work: one record each until the workers have
//! measured what a record costs, then about 20 ms of one worker's work (at
//! most `batch_size` records), so a few slow records (`count`, `rate`) go to
//! different workers while fast ones travel in big batches. When an input
//! that is not a regular file (a pipe, a terminal) has no whole line ready,
//! the reader passes on what it holds and, once those rows are emitted, the
//! caller is told to flush ([`Emit::Flush`], [`run_resumed`]): a producer
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
//!
//! **Regular files, two or more threads, rows as bytes** ([`run_formatted`],
//! `solve`'s CSV output): there is no reader thread. Each thread in turn
//! takes the next chunk of records from one shared reader
//! ([`reader::FileRecords`], under a lock), works on them and formats their
//! rows itself ([`Formatter`]); only the bytes of finished chunks reach the
//! calling thread, which writes them in order. On a VM whose two vCPUs
//! share no cache, handing records and rows between threads made `-j 2`
//! cost 7-9% more CPU than `-j 1`; this way it costs about what two
//! separate processes do (BENCHMARKS.md, tenth session).
//!
//! **A signal loses no finished row and writes no cut one.** On SIGINT or
//! SIGTERM ([`crate::interrupt`]) reading stops, the searches under way
//! stop within milliseconds ([`crate::work`]), and the records they were
//! working on get no row, nor does any later one: the rows emitted are
//! those of the first records of the input, whole (see [`run_resumed`]).
//!
//! **A panic loses no row.** `work` runs under [`std::panic::catch_unwind`]
//! for each record (the release profile unwinds for this; BENCHMARKS.md has
//! the cost). A record whose work panics (a bug) gets the row
//! [`FromPanic::from_panic`] makes, with status `error` and the panic's
//! message; the worker's state is rebuilt with `make_state` (it may have been
//! left half-updated) and the run goes on; the commands count these rows and
//! exit with [`crate::exit::INTERNAL`] (3). The panic's usual message still
//! goes to stderr, where it says which line of sudoflow failed.
//!
//! For tests only: when the environment variable `SUDOFLOW_TEST_PANIC_AT`
//! holds record indexes (comma-separated, 1-based), the work on those records
//! panics, so that tests can watch the above happen. It is read once per run.

pub(crate) mod formats;
mod formatted;
pub mod reader;
mod workers;
mod writer;

pub use formatted::{run_formatted, Formatter};

use crate::grid::{Grid, Pencilmarks};
use crate::interrupt;
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
    /// The input columns [`PipelineOptions::keep`] names (`--keep`), in
    /// that order, as the record's CSV fields hold them (quotes taken off;
    /// a field past the record's last one is empty). A record that is not
    /// a CSV record (a line of an input without a CSV header, a pasted
    /// grid, a line cut by a stray quote) has every kept column empty.
    /// Empty (no allocation) without `--keep`.
    pub kept: Vec<String>,
}

/// How to run the pipeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipelineOptions {
    /// Inputs read in order as one stream; `-` is stdin, and no input at all
    /// means stdin.
    pub inputs: Vec<PathBuf>,
    /// The CSV column that holds the puzzle (`--column`); `None`: the first
    /// field, or the column a header names (see [`reader`]).
    pub column: Option<reader::Column>,
    /// CSV columns to carry into each [`Record::kept`] (`--keep`), by
    /// header name (any case); empty: none. An input read as CSV records
    /// must have a header naming each (an error otherwise, see
    /// [`reader::for_each_item`]); other inputs' records get empty fields.
    pub keep: Vec<String>,
    /// A puzzle given as text (`-p PUZZLE`), read instead of `inputs` as
    /// the lines of one input named [`reader::TEXT_NAME`]
    /// ([`reader::for_each_text_item`]); `None`: read `inputs`.
    pub puzzle: Option<String>,
    /// Threads that work on records, the calling thread among them
    /// (values below 1 are treated as 1); with 2 or more, a reader thread
    /// runs beside them.
    pub threads: usize,
    /// Most records per batch (values below 1 are treated as 1); about
    /// 1,000 amortises channel traffic without holding much memory. Batches
    /// are smaller when records are slow (see the module documentation).
    pub batch_size: usize,
    /// Where to report progress (rows emitted so far), e.g. to a progress
    /// bar; `None` reports nothing. The library draws nothing itself: the
    /// command line supplies a bar on stderr when stderr is a terminal and
    /// `--quiet` is off.
    pub progress: Option<ProgressHook>,
}

/// Receives a run's progress, e.g. to draw a progress bar. The pipeline
/// calls it on the calling thread of [`run`] (the one that emits the rows).
pub trait Progress: Send + Sync {
    /// The run starts: called once, before the first record is read.
    fn start(&self) {}
    /// `records` rows have been emitted so far (not counting records that
    /// [`run_resumed`] skips); called after each batch.
    fn update(&self, records: u64);
    /// The run has ended, complete or not: called once, after the last row.
    fn finish(&self) {}
}

/// A shared [`Progress`], as [`PipelineOptions::progress`] holds it. Two
/// hooks are equal when they share the same reporter.
#[derive(Clone)]
pub struct ProgressHook(pub Arc<dyn Progress>);

impl std::fmt::Debug for ProgressHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressHook(..)")
    }
}

impl PartialEq for ProgressHook {
    fn eq(&self, other: &ProgressHook) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for ProgressHook {}

impl Default for PipelineOptions {
    fn default() -> Self {
        PipelineOptions {
            inputs: Vec::new(),
            column: None,
            keep: Vec::new(),
            puzzle: None,
            threads: crate::threads::thread_count(None),
            batch_size: 1024,
            progress: None,
        }
    }
}

/// What a completed run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Summary {
    /// Records read (and emitted, or skipped by [`run_resumed`]).
    pub records: u64,
    /// Of [`Summary::records`], those skipped because an interrupted run had
    /// already written their rows ([`run_resumed`]); 0 for [`run`].
    pub resumed: u64,
    /// Wall time from the start of [`run`] to the last emit.
    pub elapsed: Duration,
}

impl Summary {
    /// Records worked on per second over [`Summary::elapsed`] (resumed
    /// records left out; 0 for an instant run).
    pub fn records_per_sec(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            (self.records - self.resumed) as f64 / secs
        } else {
            0.0
        }
    }

    /// The end-of-run line for stderr, e.g. `49158 records (49158 unique) in
    /// 1.52 s, 32340 records/s` (`1 record`; a rate below 10/s to a tenth);
    /// `counts` are the caller's per-status counts, zero counts left out. A resumed run adds `; 20000 of them resumed
    /// from the interrupted run` (the time and rate are this run's).
    pub fn line(&self, counts: &[(&str, u64)]) -> String {
        let parts: Vec<String> = counts
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(name, n)| match (*n, singular(name)) {
                (1, Some(one)) => format!("1 {one}"),
                _ => format!("{n} {name}"),
            })
            .collect();
        let detail = if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join(", "))
        };
        let resumed = if self.resumed > 0 {
            format!(
                "; {} of them resumed from the interrupted run",
                self.resumed
            )
        } else {
            String::new()
        };
        let per_sec = self.records_per_sec();
        format!(
            "{} record{}{} in {:.2} s, {} records/s{resumed}",
            self.records,
            if self.records == 1 { "" } else { "s" },
            detail,
            self.elapsed.as_secs_f64(),
            // A tenth below 10/s, so that a slow run does not read 0/s.
            if per_sec > 0.0 && per_sec < 10.0 {
                format!("{per_sec:.1}")
            } else {
                format!("{per_sec:.0}")
            }
        )
    }

    /// Ends a run of `solve`, `count` or `rate`: prints [`Summary::line`] on
    /// stderr unless `quiet`, and returns the exit code (after everything
    /// was written): 3 when the count named `error` (records whose work
    /// panicked) is not 0; else 1 when `strict` and the count named
    /// `invalid` (the rows the caller wrote as invalid) is not 0; else 0.
    pub fn finish(
        &self,
        counts: &[(&str, u64)],
        quiet: bool,
        strict: bool,
    ) -> std::process::ExitCode {
        if !quiet {
            eprintln!("sudoflow: {}", self.line(counts));
        }
        let named = |wanted: &str| -> u64 {
            counts
                .iter()
                .filter(|(name, _)| *name == wanted)
                .map(|(_, n)| n)
                .sum()
        };
        let errors = named("error");
        if errors > 0 {
            eprintln!(
                "sudoflow: {errors} record(s) hit an internal error (status 'error', a bug in \
                 sudoflow: please report it); every other row was written"
            );
            return std::process::ExitCode::from(crate::exit::INTERNAL);
        }
        let invalid = named("invalid");
        if strict && invalid > 0 {
            eprintln!("sudoflow: --strict: {invalid} invalid record(s) (their rows say why)");
            return std::process::ExitCode::from(crate::exit::FAILURE);
        }
        std::process::ExitCode::from(crate::exit::OK)
    }
}

/// Checks that every input can be opened, so that a missing file is reported
/// (exit 2, naming it) before any output is created: each regular file is
/// read up to its first record (through gzip and zip), and with `--column
/// NAME` (`column`) its header must name that column.
///
/// Errors: the first input that cannot be opened, is a directory, is
/// UTF-16 text, is a damaged zip archive or lacks the named column, with
/// its path.
pub fn check_inputs(inputs: &[PathBuf], column: Option<&reader::Column>) -> anyhow::Result<()> {
    check_inputs_keeping(inputs, column, &[])
}

/// [`check_inputs`], and with `keep` (`--keep`) also that each regular
/// file read as CSV has a header naming each kept column.
///
/// Errors: those of [`check_inputs`]; a kept column missing from a CSV
/// input's header, with its path and the header's names.
pub fn check_inputs_keeping(
    inputs: &[PathBuf],
    column: Option<&reader::Column>,
    keep: &[String],
) -> anyhow::Result<()> {
    for path in inputs {
        if path.as_os_str() != "-" {
            reader::check_file(path)?;
            let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
            if regular {
                // Read up to the first record: the header check is the
                // reader's own, through gzip and zip alike (`--column N`
                // past a header's columns too: found only once the run
                // had begun, it left a partial file no resume could
                // continue), and so is the check of UTF-16 text inside a
                // gzip file or a zip member (found by probing: refused only
                // when reached, after the rows of the inputs before it).
                reader::check_header(path, column, keep)?;
            }
        }
    }
    Ok(())
}

/// What [`run_resumed`]'s `emit` receives.
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
    T: Send + FromPanic,
    E: FnMut(T) -> anyhow::Result<()>,
{
    let mut emit = emit;
    let summary = writer::run(opts, None, make_state, work, |e| match e {
        Emit::Row(t) => emit(t),
        Emit::Flush => Ok(()),
    });
    interrupt::settle();
    summary
}

/// Decides, for each record in input order from the first, whether an
/// interrupted run already wrote its row: `Ok(true)` skips the record (it
/// is read and numbered, not worked on nor emitted), `Ok(false)` ends the
/// skipping (this record and every later one are worked on; the check is
/// not called again), `Err` stops the run with that error (e.g. the row
/// kept does not belong to this record). Runs on the reader's thread.
pub type Skip<'a> = Option<&'a mut (dyn FnMut(&Record) -> anyhow::Result<bool> + Send)>;

/// [`run`], continuing an interrupted run: the first records, as long as
/// `skip` says so, are read but neither worked on nor emitted (see
/// [`Skip`]); their number is [`Summary::resumed`]. Records keep their
/// [`Record::index`] from the first record of the inputs.
///
/// Both this and [`run`] stop when [`crate::interrupt::requested`] reports
/// a signal: reading stops, no record is started, and the record each
/// worker had under way (whose work may have been cut short: the searches
/// stop on the signal too, [`crate::work`]) gets no row, nor does any
/// later record; the records finished before are emitted, in order, so
/// the emitted records are always the first ones of the input, each whole
/// (see `work_records`). The caller asks [`crate::interrupt::requested`]
/// afterwards to tell a stop from the end of the input.
///
/// `emit` is also told when to flush ([`Emit::Flush`]): when the reader
/// waits on an input that is not a regular file (a pipe, a terminal), the
/// records it holds are passed on as a batch at once, and once every record
/// read so far has been emitted `emit` gets [`Emit::Flush`]. Regular files
/// never wait, so their batching is untouched.
///
/// Errors: those of [`run`], and `skip`'s.
pub fn run_resumed<S, T, MS, W, E>(
    opts: &PipelineOptions,
    skip: Skip<'_>,
    make_state: MS,
    work: W,
    emit: E,
) -> anyhow::Result<Summary>
where
    MS: Fn() -> S + Sync,
    W: Fn(&mut S, &Record) -> T + Sync,
    T: Send + FromPanic,
    E: FnMut(Emit<T>) -> anyhow::Result<()>,
{
    let summary = writer::run(opts, skip, make_state, work, emit);
    // The caller tells a stop from the input's end by `requested`: a stop
    // signal already sent is let in first.
    interrupt::settle();
    summary
}

/// Whether [`run_formatted`] can run `opts`: two or more threads, and
/// inputs that are all regular files, none a zip archive
/// ([`reader::pullable`]); not a puzzle given as text.
pub fn formats_on_workers(opts: &PipelineOptions) -> bool {
    opts.threads >= 2 && opts.puzzle.is_none() && reader::pullable(&opts.inputs)
}

/// The items of the run's input: [`PipelineOptions::puzzle`]'s text if
/// given, else [`reader::for_each_item`] over the inputs.
fn read_items(
    opts: &PipelineOptions,
    f: impl FnMut(reader::Item) -> std::ops::ControlFlow<()>,
) -> anyhow::Result<()> {
    match &opts.puzzle {
        Some(text) => reader::for_each_text_item(text, &opts.keep, f),
        None => reader::for_each_item(&opts.inputs, opts.column.as_ref(), &opts.keep, f),
    }
}

/// A result the pipeline can make for a record whose `work` panicked.
pub trait FromPanic {
    /// The row of `record`, whose work panicked with `message` (the panic's
    /// payload, or a placeholder when it was not text): status `error`, and
    /// an error column naming the record's `source:line` and the message.
    fn from_panic(record: &Record, message: &str) -> Self;
}

/// The error column of a record whose work panicked: `a.txt:7: internal
/// error (a bug in sudoflow; please report it): MESSAGE`.
pub fn panic_message(record: &Record, message: &str) -> String {
    format!(
        "{}:{}: internal error (a bug in sudoflow; please report it): {message}",
        record.source, record.line
    )
}

/// `work` on one record, a panic caught: see the module's doc.
///
/// `panic_at` holds the record indexes `SUDOFLOW_TEST_PANIC_AT` names (empty
/// but in tests): one comparison per record when it is empty.
fn work_caught<S, T, W>(
    state: &mut S,
    make_state: &impl Fn() -> S,
    work: &W,
    record: &Record,
    panic_at: &[u64],
) -> T
where
    W: Fn(&mut S, &Record) -> T,
    T: FromPanic,
{
    use std::panic::{catch_unwind, AssertUnwindSafe};
    // AssertUnwindSafe: the state a panic may leave half-updated is replaced
    // below, and the record is only read.
    let caught = catch_unwind(AssertUnwindSafe(|| {
        if !panic_at.is_empty() && panic_at.contains(&record.index) {
            panic!("SUDOFLOW_TEST_PANIC_AT: record {}", record.index);
        }
        work(state, record)
    }));
    match caught {
        Ok(result) => result,
        Err(payload) => {
            *state = make_state();
            let message = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("a panic without a message");
            T::from_panic(record, message)
        }
    }
}

/// [`work_caught`] on each of `records` in turn, appending the results to
/// `out` until a stop is requested ([`interrupt::requested`]): true when
/// one was. The record under way then gets no result, since its work may
/// have been cut short (a search cut by its meter, [`crate::work`]), nor
/// does any later one, and the caller emits no later record's: the rows
/// emitted are always the first ones of the input, each whole. A record
/// that finished just as the signal came loses its row too, which costs
/// nothing: `--resume` works on it again.
///
/// The results are written in place as the work makes them, as
/// `Vec::extend` does (handing each through an `Option`, or looking at the
/// flag between the work and the result's return, cost `solve -j 1` one
/// more copy of its row a record, 0.6% of its instructions): so the flag
/// is looked at before each record, which covers the end of the record
/// before it, and once after the last. A record met after the stop gets a
/// placeholder row ([`FromPanic`], never worked on) that is then cut off.
fn work_records<S, T, W>(
    state: &mut S,
    make_state: &impl Fn() -> S,
    work: &W,
    records: &[Record],
    panic_at: &[u64],
    out: &mut Vec<T>,
) -> bool
where
    W: Fn(&mut S, &Record) -> T,
    T: FromPanic,
{
    let start = out.len();
    // Results from this index on are dropped.
    let mut keep = usize::MAX;
    out.extend(records.iter().enumerate().map(|(i, record)| {
        if keep == usize::MAX {
            if interrupt::requested().is_none() {
                return work_caught(state, make_state, work, record, panic_at);
            }
            // The stop came after the previous record started: its work
            // may have been cut short. (Before the first record, the
            // caller's look after the previous records covered them.)
            keep = i.saturating_sub(1);
        }
        placeholder(record)
    }));
    if keep == usize::MAX && interrupt::requested().is_some() {
        // The last record's work may have been cut short.
        keep = records.len().saturating_sub(1);
    }
    if keep == usize::MAX {
        return false;
    }
    out.truncate(start + keep);
    true
}

/// A row for a record that gets none (see [`work_records`]).
#[cold]
#[inline(never)]
fn placeholder<T: FromPanic>(record: &Record) -> T {
    T::from_panic(record, "not worked on: a stop was requested")
}

/// The record indexes in `SUDOFLOW_TEST_PANIC_AT` (see the module's doc);
/// empty when it is unset or holds no number.
fn test_panic_at() -> Vec<u64> {
    std::env::var("SUDOFLOW_TEST_PANIC_AT")
        .map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_default()
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
    /// A stop request cut the batch short: `results` are those of its
    /// first records, and no later batch may be emitted.
    cut: bool,
}

/// The singular of a summary count's noun (`classes`: `1 class`); `None`
/// for the statuses, which read the same for one (`1 unique`).
fn singular(name: &str) -> Option<&'static str> {
    match name {
        "classes" => Some("class"),
        "repeats" => Some("repeat"),
        "records" => Some("record"),
        _ => None,
    }
}
