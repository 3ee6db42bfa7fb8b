//! The `*_file` functions: files streamed through the CLI's own pipeline
//! (reader, workers, reordering: [`sudoflow::pipeline::run`]) on threads of
//! their own, the rows handed to Python as a `pyarrow.RecordBatchReader`
//! whose batches a [`Batches`] iterator pulls, at most a few batches in
//! memory whatever the files' size.
//!
//! While Python waits for the next batch, [`Batches::__next__`] releases the
//! GIL and checks for signals every [`POLL`]: Ctrl-C stops the run (with
//! the library's stop flag, as [`crate::run`] does) and raises
//! `KeyboardInterrupt`. Dropping the reader stops the run too, the searches
//! under way within milliseconds (this run's own flag, which its threads'
//! searches look at as they look for a signal; other calls go on).

use crate::args::{self, Int, Real};
use crate::run::{self, Progress, Watch, POLL};
use crate::table::{self, Builder, CarriedOut, RateOut, Row};
use crate::{
    canon_row, count_options, count_row, rate_header, rate_limits, rate_row, ClassBook, SolveSpec,
};
use arrow_array::RecordBatch;
use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, SendTimeoutError};
use pyo3::exceptions::{PyIOError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};
use sudoflow::canon::SharedClasses;
use sudoflow::pipeline::{self, FromPanic, PipelineOptions, Record};
use sudoflow::rows::canon::{CanonState, CANON_HEADER};
use sudoflow::rows::count::COUNT_HEADER;
use sudoflow::rows::rate::RateState;
use sudoflow::rows::{classify, Carried, Carry, RecordClasses};
use sudoflow::solver::Solver;

/// How the pipeline thread's run ended, set before it drops its sender.
enum End {
    /// Every record's row was sent.
    Finished,
    /// An input failed to read past some record.
    Failed(String),
    /// Another call's stop ([`run::stop_all`]) cut the run short.
    CutByAnother,
    /// The reader stopped the run (an exception while it waited).
    Stopped,
}

/// What the pipeline thread and the reader share.
struct Shared {
    watch: Watch,
    end: Mutex<Option<End>>,
}

impl Shared {
    /// Records how the run ended, unless that is known already.
    fn set_end(&self, end: End) {
        self.end
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(end);
    }
}

/// The batches of a streamed run, for `pyarrow.RecordBatchReader.from_batches`.
#[pyclass(module = "sudoflow._sudoflow", name = "_Batches", frozen)]
pub struct Batches {
    rx: Receiver<RecordBatch>,
    shared: Arc<Shared>,
    /// Held by the thread reading: one reader read from several Python
    /// threads hands each batch to one of them, in turn (found by probing:
    /// a second thread got pyo3's `RuntimeError('Already borrowed')`).
    progress: Mutex<Progress>,
}

impl Batches {
    /// An exception while reading (Ctrl-C, the progress callback's): stops
    /// this run, with the library's stop flag (a record's search may run
    /// for ever), and closes the progress display.
    fn stop(&self, py: Python<'_>, progress: &mut Progress) {
        self.shared.set_end(End::Stopped);
        self.shared.watch.stop.store(true, Relaxed);
        run::stop_all();
        let _ = progress.close(py);
    }

    /// The progress display, once no other thread reads: waits with the
    /// GIL released between tries (the reading thread needs it to finish),
    /// running signal handlers meanwhile.
    ///
    /// Errors: the exception a signal handler raises while waiting.
    fn turn(&self, py: Python<'_>) -> PyResult<std::sync::MutexGuard<'_, Progress>> {
        loop {
            match self.progress.try_lock() {
                Ok(guard) => return Ok(guard),
                Err(std::sync::TryLockError::Poisoned(e)) => return Ok(e.into_inner()),
                Err(std::sync::TryLockError::WouldBlock) => {
                    py.detach(|| std::thread::sleep(std::time::Duration::from_millis(1)));
                    py.check_signals()?;
                }
            }
        }
    }
}

#[pymethods]
impl Batches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next batch (a `pyarrow.RecordBatch`), or the end.
    ///
    /// Errors: `OSError` when an input fails to read past some record (the
    /// batches before hold every row before it); the exception a signal
    /// handler (`KeyboardInterrupt`) or the progress callback raises while
    /// waiting, which stops the run; `KeyboardInterrupt` when another
    /// call's stopped it; `RuntimeError` after the run was stopped, once
    /// the batches made before are read.
    ///
    /// `slf` is a reference of its own: while one thread waits here, another
    /// may read the end, and pyarrow then drops its reference to the
    /// iterator (found by probing: `&self` was freed under the waiting
    /// thread).
    fn __next__(slf: Bound<'_, Self>, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let this = slf.get();
        let mut progress = this.turn(py)?;
        let progress = &mut *progress;
        loop {
            let rx = &this.rx;
            let received = py.detach(|| rx.recv_timeout(POLL));
            // Read after the batch came (found by probing: read before, the
            // count lagged a batch behind, and never reached the end).
            let done = this.shared.watch.done.load(Relaxed);
            match received {
                Ok(batch) => {
                    if let Err(e) = progress.update(py, done) {
                        this.stop(py, progress);
                        return Err(e);
                    }
                    return table::batch_to_pyarrow(py, batch).map(Some);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    // Every record counted (the run has ended): the last
                    // update gives the final count.
                    if let Err(e) = progress.update(py, done) {
                        this.stop(py, progress);
                        return Err(e);
                    }
                    progress.close(py)?;
                    let end = this.shared.end.lock().unwrap_or_else(|e| e.into_inner());
                    return match &*end {
                        Some(End::Finished) => Ok(None),
                        Some(End::Failed(message)) => {
                            Err(PyIOError::new_err(args::python_words(message)))
                        }
                        Some(End::CutByAnother) => Err(run::cut_by_another()),
                        Some(End::Stopped) => Err(PyRuntimeError::new_err(
                            "this run was stopped by an exception while it was read: \
                             the rows past the batches read are missing",
                        )),
                        None => Err(PyRuntimeError::new_err(
                            "internal error (a bug in sudoflow; please report it): \
                             the run ended without saying how",
                        )),
                    };
                }
                Err(RecvTimeoutError::Timeout) => {
                    let checked = py.check_signals().and_then(|()| progress.update(py, done));
                    if let Err(e) = checked {
                        this.stop(py, progress);
                        return Err(e);
                    }
                }
            }
        }
    }
}

impl Drop for Batches {
    fn drop(&mut self) {
        self.shared.watch.stop.store(true, Relaxed);
    }
}

/// The inputs of a `*_file` call: paths, `column`, `keep` and `source`,
/// threads, batch size.
struct Files {
    opts: PipelineOptions,
    /// `keep=` and `source=`: what each record carries into its row.
    carry: Arc<Carry>,
    batch_rows: usize,
    /// `distinct=` (`--distinct`): only the first record of each class of
    /// equivalent puzzles is worked on and gets a row.
    distinct: bool,
}

impl Files {
    /// Errors: `TypeError` for paths that are not a path or a sequence of
    /// them, `ValueError` for a bad `column`, `threads` or `batch_rows`,
    /// `OSError` for an input that cannot be read (or whose header lacks
    /// the `column` named, or a column `keep` names); `ValueError` for
    /// `keep` naming a column twice, or one of the rows' own columns
    /// (`own`, and `source`, `line` with `source`).
    fn new(
        paths: &Bound<'_, PyAny>,
        column: Option<&Bound<'_, PyAny>>,
        keep: Option<&Bound<'_, PyAny>>,
        source: bool,
        own: &[&str],
        threads: Option<Int>,
        batch_rows: Int,
    ) -> PyResult<Files> {
        let paths = args::paths(paths, "paths")?;
        // The library reads stdin for no paths (the CLI's default); here an
        // empty list (a glob that matched nothing) would wait on the
        // notebook's stdin: stdin is read only when named ("-").
        if paths.is_empty() {
            return Err(PyValueError::new_err(
                "paths: no input files (the list is empty; pass \"-\" to read stdin)",
            ));
        }
        let column = column
            .map(|c| {
                // Found by probing: column=True was column 1.
                if c.is_instance_of::<pyo3::types::PyBool>() {
                    return Err(args::not_bool(
                        "column",
                        "a column's name (str) or its 1-based number (int)",
                        c.is_truthy()?,
                    ));
                }
                let text = match c.extract::<Int>() {
                    Ok(n) => n.get("column")?.to_string(),
                    Err(_) => c.extract::<String>()?,
                };
                text.parse::<pipeline::reader::Column>()
                    .map_err(|e| PyValueError::new_err(format!("column: {e}")))
            })
            .transpose()?;
        let keep: Vec<String> = match keep {
            None => Vec::new(),
            // One str is split at commas, as `--keep COL,...` is.
            Some(k) => match k.extract::<String>() {
                Ok(text) => text.split(',').map(str::to_owned).collect(),
                Err(_) => k.extract().map_err(|_| {
                    PyTypeError::new_err("keep: a column name or a sequence of them (str)")
                })?,
            },
        };
        let carry = Carry { keep, source };
        let own: Vec<String> = own.iter().map(|h| h.to_string()).collect();
        carry.check(&own).map_err(|e| {
            PyValueError::new_err(e.replace("--keep", "keep").replace("--source", "source"))
        })?;
        pipeline::check_inputs_keeping(&paths, column.as_ref(), &carry.keep)
            .map_err(|e| PyIOError::new_err(args::python_words(&format!("{e:#}"))))?;
        Ok(Files {
            opts: PipelineOptions {
                inputs: paths,
                column,
                keep: carry.keep.clone(),
                puzzle: None,
                threads: args::threads(threads)?,
                batch_size: 1024,
                progress: None,
            },
            carry: Arc::new(carry),
            distinct: false,
            batch_rows: args::natural("batch_rows", batch_rows, 1)?
                .try_into()
                .unwrap_or(usize::MAX),
        })
    }
}

/// Starts the pipeline over `files` on a thread of its own: `work` on each
/// record, `out` on each result in input order (`None`: no row), the rows
/// under `header` sent in batches; returns the `pyarrow.RecordBatchReader`.
#[allow(clippy::too_many_arguments)]
fn start<S, T, R>(
    py: Python<'_>,
    files: Files,
    header: Vec<&'static str>,
    progress: Option<&Bound<'_, PyAny>>,
    make_state: impl Fn() -> S + Sync + Send + 'static,
    work: impl Fn(&mut S, &Record) -> T + Sync + Send + 'static,
    mut out: impl FnMut(T) -> Option<R> + Send + 'static,
) -> PyResult<Py<PyAny>>
where
    T: Send + FromPanic + 'static,
    R: Row,
{
    let carry = Arc::clone(&files.carry);
    let own: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    let header = carry.header(&own);
    let new_builder = move |rows| {
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        Builder::with_text(&header, &carry.keep, rows)
    };
    let schema = new_builder(1).schema();
    let shared = Arc::new(Shared {
        watch: Watch::begin(py),
        end: Mutex::new(None),
    });
    let (tx, rx) = bounded::<RecordBatch>(2);
    let theirs = Arc::clone(&shared);
    // --distinct: the classes claimed, first by input order ([`classify`]).
    let classes = files.distinct.then(SharedClasses::new);
    std::thread::Builder::new()
        .name("sudoflow-file".into())
        .spawn(move || {
            let shared = theirs;
            let watch = &shared.watch;
            // Waits for the reader to take the batch, but not once the run
            // is stopped (the reader may be kept and never read again).
            let send = |batch: RecordBatch| -> anyhow::Result<()> {
                let mut batch = batch;
                loop {
                    match tx.send_timeout(batch, POLL) {
                        Ok(()) => return Ok(()),
                        Err(SendTimeoutError::Timeout(back)) if !watch.stopped() => batch = back,
                        Err(_) => anyhow::bail!("the reader was closed or stopped"),
                    }
                }
            };
            let mut builder = new_builder(files.batch_rows);
            let classes = classes.as_ref();
            let run = pipeline::run(
                &files.opts,
                // Each thread that works (made per run) stops its search
                // under way when the reader is dropped, as on Ctrl-C: a
                // record's search may run for ever (found by probing: a
                // dropped reader kept a core busy).
                || {
                    sudoflow::interrupt::stop_this_thread_on(Some(Arc::clone(&watch.stop)));
                    (make_state(), RecordClasses::default())
                },
                // Once stopped, the records still queued cost nothing.
                |(s, canon): &mut (S, RecordClasses), r| {
                    if watch.stopped() {
                        Carried::from_panic(r, "stopped")
                    } else {
                        classify(classes, canon, s, r, &work)
                    }
                },
                |carried: Carried<T>| {
                    if watch.stopped() {
                        anyhow::bail!("stopped");
                    }
                    watch.add(1);
                    // A repeat (`distinct`): no row.
                    let repeat = carried.written(classes).is_none() && carried.row.is_some();
                    let Carried {
                        row,
                        index,
                        class,
                        kept,
                        source,
                        line,
                    } = carried;
                    if let Some(row) = row.filter(|_| !repeat).and_then(&mut out) {
                        let carried = Carried {
                            row: None,
                            index,
                            class,
                            kept,
                            source,
                            line,
                        };
                        let row = CarriedOut {
                            carried,
                            row,
                            carry: Arc::clone(&files.carry),
                        };
                        builder.push(&row, None).map_err(anyhow::Error::msg)?;
                    }
                    if let Some(batch) = builder.take_batch() {
                        send(batch)?;
                    }
                    Ok(())
                },
            );
            let end = match run {
                // The reader stopped the run, or was dropped.
                _ if watch.stop.load(Relaxed) => End::Stopped,
                // The pipeline stops reading when the library's stop flag
                // is up: another call's stop, not the input's end.
                _ if watch.cut() => End::CutByAnother,
                Ok(_) => match builder.finish_batch() {
                    Ok(None) => End::Finished,
                    Ok(Some(batch)) => match send(batch) {
                        Ok(()) => End::Finished,
                        Err(_) if watch.cut() => End::CutByAnother,
                        Err(_) => End::Stopped,
                    },
                    Err(e) => End::Failed(e.to_string()),
                },
                // An input failed past some record: the rows of the records
                // read before go out first, as the CLI writes them (a
                // damaged gzip member's error names those not to trust).
                Err(e) => {
                    if let Ok(Some(batch)) = builder.finish_batch() {
                        let _ = send(batch);
                    }
                    End::Failed(format!("{e:#}"))
                }
            };
            shared.set_end(end);
            drop(tx);
            watch.end();
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the reader thread: {e}")))?;
    let batches = Batches {
        rx,
        shared,
        progress: Mutex::new(Progress::new(py, progress, None, "puzzles")?),
    };
    let pa_schema = table::schema_to_pyarrow(py, schema)?;
    Ok(py
        .import("pyarrow")?
        .getattr("RecordBatchReader")?
        .call_method1("from_batches", (pa_schema, Py::new(py, batches)?))?
        .unbind())
}

/// :func:`solve` over files, streamed: the rows of ``sudoflow solve FILE...``, in batches.
///
/// The files go through the CLI's own pipeline (reader, workers,
/// reordering) on threads of their own; the reader holds a few batches at
/// most, whatever the files' size. Dropping it stops the run.
///
/// Parameters
/// ----------
/// paths : str, os.PathLike or a sequence of them
///     Files read in order as one stream, as ``sudoflow solve`` reads them:
///     one puzzle per line, ``#`` comments and blank lines skipped, CSV
///     files whose header names a ``puzzle``, ``quizzes`` or ``quiz`` column
///     read by it, pasted grids on 9 lines, gzip and zip read as they are.
///     ``"-"`` is stdin; an empty list is refused (stdin only when named).
/// column : str or int, optional
///     The CSV column holding the puzzle (``--column``): a header's name or
///     a 1-based number.
/// keep : str or sequence of str, optional
///     Input CSV columns copied into each row, before its own columns, as
///     ``--keep COL,...`` (one str is split at commas too): by header name
///     (any case), as strings; a record
///     that is not a CSV record gets them empty (null).
/// source : bool, default False
///     Add the columns ``source`` (the file, as given) and ``line`` (int64,
///     from 1) naming where each record was read, as ``--source``; a CSV
///     with ``source`` and ``line`` columns (``--source`` output) names its
///     records by them.
/// distinct : bool, default False
///     Only the first record of each class of equivalent puzzles (same
///     minlex form, as :func:`canon_file` finds it) is worked on and gets a
///     row; ``index`` keeps its place (``--distinct``).
/// limit : int, default 2
///     Count solutions up to this many, as :func:`solve`.
/// prune : str, default "basic"
///     ``"basic"``, ``"matching"`` or ``"matching-root"``, as :func:`solve`.
/// no_guess : bool, default False
///     Propagate only (status ``stuck``), as :func:`solve`.
/// se : bool, default False
///     Add Sudoku Explainer's ``er``, ``ep``, ``ed``, as :func:`solve`.
/// se_budget : float, optional
///     The budget per rating with ``se``, seconds of reference work (default 10).
/// se_wall_limit : float, optional
///     Also give up rating after this many seconds of wall time.
/// blank : str, default "."
///     How the ``puzzle`` column writes blanks, as :func:`solve`.
/// threads : int, optional
///     Worker threads (default: every core); the rows are the same for any.
/// batch_rows : int, default 65536
///     Rows per batch.
/// progress : bool or callable, optional
///     As for :func:`solve`, with ``total`` None (records read so far);
///     at the end, a last call gives the final count.
///
/// Returns
/// -------
/// pyarrow.RecordBatchReader
///     Batches of :func:`solve`'s columns, in input order; ``error`` names
///     ``file:line``. ``.read_all()`` makes a table.
///
/// Raises
/// ------
/// OSError
///     At once: a file cannot be opened or is not readable as records (a
///     directory, UTF-16 text), or its header lacks the ``column`` named
///     or a ``keep`` column; while reading: an input fails past some record.
/// TypeError
///     ``keep`` is not a name or a sequence of names; a bool given for a
///     number (``column=True``, ``batch_rows=True``).
/// ValueError
///     An option out of range (named); ``paths`` is an empty list or holds
///     an empty path (``""``); ``keep``
///     names a column twice, or one the rows have of their own (``source``
///     and ``line`` too with ``source``).
/// KeyboardInterrupt
///     Ctrl-C while waiting for a batch: the run stops.
#[pyfunction]
#[pyo3(signature = (paths, *, column = None, keep = None, source = false, distinct = false, limit = Int::of(2), prune = "basic", no_guess = false,
    se = false, se_budget = None, se_wall_limit = None, blank = ".", threads = None,
    batch_rows = Int::of(65536), progress = None))]
// Int defaults would show as "..." (an expression, not a literal).
#[pyo3(
    text_signature = "(paths, *, column=None, keep=None, source=False, distinct=False, limit=2, prune=\"basic\", no_guess=False, se=False, se_budget=None, se_wall_limit=None, blank=\".\", threads=None, batch_rows=65536, progress=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn solve_file(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    column: Option<&Bound<'_, PyAny>>,
    keep: Option<&Bound<'_, PyAny>>,
    source: bool,
    distinct: bool,
    limit: Int,
    prune: &str,
    no_guess: bool,
    se: bool,
    se_budget: Option<Real>,
    se_wall_limit: Option<Real>,
    blank: &str,
    threads: Option<Int>,
    batch_rows: Int,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let spec = SolveSpec::new(limit, prune, no_guess, se, se_budget, se_wall_limit, blank)?;
    let mut files = Files::new(
        paths,
        column,
        keep,
        source,
        &spec.header(),
        threads,
        batch_rows,
    )?;
    files.distinct = distinct;
    start(
        py,
        files,
        spec.header(),
        progress,
        move || spec.state(),
        move |s, r| spec.row(s, r),
        Some,
    )
}

/// :func:`count` over files, streamed: the rows of ``sudoflow count FILE...``, in batches.
///
/// Parameters
/// ----------
/// paths : str, os.PathLike or a sequence of them
///     Files read in order as one stream, as :func:`solve_file` reads them.
/// column : str or int, optional
///     The CSV column holding the puzzle (``--column``): a name or a 1-based number.
/// keep : str or sequence of str, optional
///     Input CSV columns copied into each row, before its own columns, as
///     ``--keep COL,...`` (one str is split at commas too): by header name
///     (any case), as strings; a record
///     that is not a CSV record gets them empty (null).
/// source : bool, default False
///     Add the columns ``source`` (the file, as given) and ``line`` (int64,
///     from 1) naming where each record was read, as ``--source``; a CSV
///     with ``source`` and ``line`` columns (``--source`` output) names its
///     records by them.
/// distinct : bool, default False
///     Only the first record of each class of equivalent puzzles (same
///     minlex form, as :func:`canon_file` finds it) is worked on and gets a
///     row; ``index`` keeps its place (``--distinct``).
/// limit : int, optional
///     Stop a puzzle at its limit-th solution (status ``capped``), as
///     :func:`count` (``max``: the old spelling).
/// time_budget : float, optional
///     The budget per puzzle, seconds of reference work, as :func:`count`.
/// wall_limit : float, optional
///     Also give up after this many seconds of wall time, as :func:`count`.
/// blank : str, default "."
///     How the ``puzzle`` column writes blanks, as :func:`solve`.
/// threads : int, optional
///     Worker threads (default: every core); the rows are the same for any.
/// batch_rows : int, default 65536
///     Rows per batch.
/// progress : bool or callable, optional
///     As for :func:`solve_file`.
///
/// Returns
/// -------
/// pyarrow.RecordBatchReader
///     Batches of :func:`count`'s columns, in input order.
///
/// Raises
/// ------
/// OSError, TypeError, ValueError, KeyboardInterrupt
///     As for :func:`solve_file`.
#[pyfunction]
#[pyo3(signature = (paths, *, column = None, keep = None, source = false, distinct = false, limit = None, time_budget = None,
    wall_limit = None, blank = ".", threads = None, batch_rows = Int::of(65536), progress = None,
    max = None))]
// Int defaults would show as "..." (an expression, not a literal).
#[pyo3(
    text_signature = "(paths, *, column=None, keep=None, source=False, distinct=False, limit=None, time_budget=None, wall_limit=None, blank=\".\", threads=None, batch_rows=65536, progress=None, max=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn count_file(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    column: Option<&Bound<'_, PyAny>>,
    keep: Option<&Bound<'_, PyAny>>,
    source: bool,
    distinct: bool,
    limit: Option<Int>,
    time_budget: Option<Real>,
    wall_limit: Option<Real>,
    blank: &str,
    threads: Option<Int>,
    batch_rows: Int,
    progress: Option<&Bound<'_, PyAny>>,
    max: Option<Int>,
) -> PyResult<Py<PyAny>> {
    let opts = count_options(limit, max, time_budget, wall_limit)?;
    let blank = args::blank(blank)?;
    let solve_opts = opts.solve_options();
    let mut files = Files::new(
        paths,
        column,
        keep,
        source,
        &COUNT_HEADER,
        threads,
        batch_rows,
    )?;
    files.distinct = distinct;
    start(
        py,
        files,
        COUNT_HEADER.to_vec(),
        progress,
        move || Solver::new(solve_opts),
        move |s, r| count_row(s, &opts, r, blank),
        Some,
    )
}

/// :func:`rate` over files, streamed: the rows of ``sudoflow rate FILE...``, in batches.
///
/// Parameters
/// ----------
/// paths : str, os.PathLike or a sequence of them
///     Files read in order as one stream, as :func:`solve_file` reads them.
/// column : str or int, optional
///     The CSV column holding the puzzle (``--column``): a name or a 1-based number.
/// keep : str or sequence of str, optional
///     Input CSV columns copied into each row, before its own columns, as
///     ``--keep COL,...`` (one str is split at commas too): by header name
///     (any case), as strings; a record
///     that is not a CSV record gets them empty (null).
/// source : bool, default False
///     Add the columns ``source`` (the file, as given) and ``line`` (int64,
///     from 1) naming where each record was read, as ``--source``; a CSV
///     with ``source`` and ``line`` columns (``--source`` output) names its
///     records by them.
/// distinct : bool, default False
///     Only the first record of each class of equivalent puzzles (same
///     minlex form, as :func:`canon_file` finds it) is worked on and gets a
///     row; ``index`` keeps its place (``--distinct``).
/// time_budget : float, optional
///     The budget per puzzle, seconds of reference work (default 10), as :func:`rate`.
/// wall_limit : float, optional
///     Also give up after this many seconds of wall time, as :func:`rate`.
/// blank : str, default "."
///     How the ``puzzle`` column writes blanks, as :func:`solve`.
/// labels : bool, default False
///     Add a ``label`` column, as :func:`rate` (``--labels``).
/// threads : int, optional
///     Worker threads (default: every core); the rows are the same for any.
/// batch_rows : int, default 65536
///     Rows per batch.
/// progress : bool or callable, optional
///     As for :func:`solve_file`.
///
/// Returns
/// -------
/// pyarrow.RecordBatchReader
///     Batches of :func:`rate`'s columns, in input order.
///
/// Raises
/// ------
/// OSError, TypeError, ValueError, KeyboardInterrupt
///     As for :func:`solve_file`.
#[pyfunction]
#[pyo3(signature = (paths, *, column = None, keep = None, source = false, distinct = false, time_budget = None, wall_limit = None,
    blank = ".", labels = false, threads = None, batch_rows = Int::of(65536), progress = None))]
// Int defaults would show as "..." (an expression, not a literal).
#[pyo3(
    text_signature = "(paths, *, column=None, keep=None, source=False, distinct=False, time_budget=None, wall_limit=None, blank=\".\", labels=False, threads=None, batch_rows=65536, progress=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn rate_file(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    column: Option<&Bound<'_, PyAny>>,
    keep: Option<&Bound<'_, PyAny>>,
    source: bool,
    distinct: bool,
    time_budget: Option<Real>,
    wall_limit: Option<Real>,
    blank: &str,
    labels: bool,
    threads: Option<Int>,
    batch_rows: Int,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let limits = rate_limits(time_budget, wall_limit)?;
    let blank = args::blank(blank)?;
    let mut files = Files::new(
        paths,
        column,
        keep,
        source,
        &rate_header(labels),
        threads,
        batch_rows,
    )?;
    files.distinct = distinct;
    start(
        py,
        files,
        rate_header(labels),
        progress,
        move || RateState::new(limits),
        move |s, r| rate_row(s, r, blank),
        move |row| Some(RateOut { row, labels }),
    )
}

/// :func:`canon` over files, streamed: the rows of ``sudoflow canon FILE...``, in batches.
///
/// The classes seen are kept as 128-bit digests (about 90 MB for a million
/// distinct classes), whatever the number of records.
///
/// Parameters
/// ----------
/// paths : str, os.PathLike or a sequence of them
///     Files read in order as one stream, as :func:`solve_file` reads them.
/// column : str or int, optional
///     The CSV column holding the puzzle (``--column``): a name or a 1-based number.
/// keep : str or sequence of str, optional
///     Input CSV columns copied into each row, before its own columns, as
///     ``--keep COL,...`` (one str is split at commas too): by header name
///     (any case), as strings; a record
///     that is not a CSV record gets them empty (null).
/// source : bool, default False
///     Add the columns ``source`` (the file, as given) and ``line`` (int64,
///     from 1) naming where each record was read, as ``--source``; a CSV
///     with ``source`` and ``line`` columns (``--source`` output) names its
///     records by them.
/// distinct : bool, default False
///     Keep only the first record of each class (and every invalid record).
/// blank : str, default "."
///     How the ``puzzle`` column writes blanks, as :func:`canon`.
/// threads : int, optional
///     Worker threads (default: every core); the rows are the same for any.
/// batch_rows : int, default 65536
///     Rows per batch.
/// progress : bool or callable, optional
///     As for :func:`solve_file`.
///
/// Returns
/// -------
/// pyarrow.RecordBatchReader
///     Batches of :func:`canon`'s columns, in input order.
///
/// Raises
/// ------
/// OSError, TypeError, ValueError, KeyboardInterrupt
///     As for :func:`solve_file`.
#[pyfunction]
#[pyo3(signature = (paths, *, column = None, keep = None, source = false, distinct = false, blank = ".", threads = None,
    batch_rows = Int::of(65536), progress = None))]
// Int defaults would show as "..." (an expression, not a literal).
#[pyo3(
    text_signature = "(paths, *, column=None, keep=None, source=False, distinct=False, blank=\".\", threads=None, batch_rows=65536, progress=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn canon_file(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    column: Option<&Bound<'_, PyAny>>,
    keep: Option<&Bound<'_, PyAny>>,
    source: bool,
    distinct: bool,
    blank: &str,
    threads: Option<Int>,
    batch_rows: Int,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let blank = args::blank(blank)?;
    let files = Files::new(
        paths,
        column,
        keep,
        source,
        &CANON_HEADER,
        threads,
        batch_rows,
    )?;
    let mut book = ClassBook::new(distinct);
    start(
        py,
        files,
        CANON_HEADER.to_vec(),
        progress,
        CanonState::default,
        move |s, r| canon_row(s, r, blank),
        move |row| book.out(row),
    )
}
