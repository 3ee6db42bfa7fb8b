//! Running work off the calling thread while it watches for Ctrl-C.
//!
//! [`watched`] runs a call's work on a thread of its own (which hands the
//! records to a rayon pool), the GIL released, while the calling thread
//! wakes every [`POLL`] to run Python's signal handlers
//! (`py.check_signals()`) and report progress. On Ctrl-C (or any exception
//! a signal handler or the progress callback raises) it raises
//! [`Watch::stop`], which the workers check between records, and the
//! library's stop flag ([`stop_all`]: [`sudoflow::interrupt::request`]),
//! which the library's searches check every few thousand nodes (about a
//! millisecond), so that a record that would run for ever (the empty grid
//! counted with no cap) stops too. It then waits for the work to wind
//! down, lowers the flag and raises that exception: `KeyboardInterrupt`
//! for Ctrl-C.
//!
//! The library's flag is the process's: sudoflow calls running meanwhile
//! in other Python threads stop as well and raise `KeyboardInterrupt`
//! ([`cut_by_another`]) rather than return rows cut short, and a call that
//! starts while a stopped one winds down waits for the flag to go down
//! ([`settle`]).

use crossbeam_channel::{bounded, RecvTimeoutError};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use sudoflow::pipeline::Record;

/// How often the calling thread checks for signals while the work runs.
pub const POLL: Duration = Duration::from_millis(50);

/// What the calling thread and the work share: made by [`Watch::begin`]
/// when a call's work starts, ended by [`Watch::end`] when it has ended.
pub struct Watch {
    /// Set to stop the work: checked between records, and by the searches
    /// of the threads that took it ([`sudoflow::interrupt::stop_this_thread_on`]).
    pub stop: Arc<AtomicBool>,
    /// Units done so far (records, puzzles), for progress.
    pub done: AtomicU64,
    /// [`STOPS`] when the work began: when it moves, the library's stop
    /// flag was raised during the work.
    epoch: u64,
    /// Whether [`Watch::end`] was called.
    ended: AtomicBool,
}

/// The calls whose work runs, and whether the library's stop flag
/// ([`sudoflow::interrupt::request`]) is up.
struct Calls {
    running: usize,
    stopping: bool,
}

static CALLS: Mutex<Calls> = Mutex::new(Calls {
    running: 0,
    stopping: false,
});

/// How many times the library's stop flag was raised: a call that sees it
/// move during its work was cut short.
static STOPS: AtomicU64 = AtomicU64::new(0);

fn calls() -> std::sync::MutexGuard<'static, Calls> {
    CALLS.lock().unwrap_or_else(|e| e.into_inner())
}

impl Watch {
    /// A call's work begins. While the library's stop flag of an earlier
    /// stop is still up (calls winding down, within milliseconds), waits
    /// for it to go down, the GIL released, at most 10 s: past that the
    /// work begins anyway, and is cut at once ([`Watch::cut`]).
    pub fn begin(py: Python<'_>) -> Watch {
        let enter = || {
            let mut c = calls();
            (!c.stopping).then(|| {
                c.running += 1;
                STOPS.load(Relaxed)
            })
        };
        let epoch = match enter() {
            Some(epoch) => epoch,
            None => py.detach(|| {
                let start = Instant::now();
                loop {
                    if let Some(epoch) = enter() {
                        break epoch;
                    }
                    if start.elapsed() > Duration::from_secs(10) {
                        calls().running += 1;
                        break STOPS.load(Relaxed).wrapping_sub(1);
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
            }),
        };
        Watch {
            stop: Arc::new(AtomicBool::new(false)),
            done: AtomicU64::new(0),
            epoch,
            ended: AtomicBool::new(false),
        }
    }

    /// Whether the work should stop: [`Watch::stop`] or [`Watch::cut`].
    pub fn stopped(&self) -> bool {
        self.stop.load(Relaxed) || self.cut()
    }

    /// Whether the library's stop flag was raised since the work began
    /// (by this call's [`stop_all`] or another's): searches under way were
    /// cut short and the pipeline stopped reading, so the rows are not
    /// the call's.
    pub fn cut(&self) -> bool {
        STOPS.load(Relaxed) != self.epoch
    }

    /// Counts `n` more units done.
    pub fn add(&self, n: u64) {
        self.done.fetch_add(n, Relaxed);
    }

    /// The work has ended (every worker of it): the last call to end after
    /// a stop lowers the library's stop flag. Only the first call counts.
    pub fn end(&self) {
        if self.ended.swap(true, Relaxed) {
            return;
        }
        let mut c = calls();
        c.running = c.running.saturating_sub(1);
        if c.running == 0 && c.stopping {
            c.stopping = false;
            sudoflow::interrupt::clear();
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.end();
    }
}

/// Stops the work of every call under way: raises the library's stop flag,
/// which their searches check every few thousand nodes and their workers
/// between records, until the last of them has ended ([`Watch::end`]).
/// For the `KeyboardInterrupt` (or other exception) of one call: the
/// others raise [`cut_by_another`]. Nothing happens when no call runs.
pub fn stop_all() {
    let mut c = calls();
    if c.running > 0 {
        c.stopping = true;
        STOPS.fetch_add(1, Relaxed);
        sudoflow::interrupt::request(2);
    }
}

/// The error of a call whose work ran while another call's exception
/// raised the library's stop flag ([`stop_all`]).
pub fn cut_by_another() -> PyErr {
    pyo3::exceptions::PyKeyboardInterrupt::new_err(
        "stopped: another sudoflow call was interrupted (Ctrl-C, or an exception from its \
         progress callback), which stops the work under way in every call, this one's too",
    )
}

/// The error a stopped work returns (never seen: the caller raises the
/// exception that stopped it).
pub fn stopped() -> PyErr {
    PyRuntimeError::new_err("stopped")
}

/// A progress reporter made by `sudoflow._progress.reporter` from the
/// `progress` argument (`None`: no progress).
pub struct Progress {
    reporter: Option<Py<PyAny>>,
    shown: u64,
}

impl Progress {
    /// The reporter for `progress` (None, False, True or a callable) over
    /// `total` units (`None`: unknown) called `unit`.
    ///
    /// Errors: `TypeError` for another `progress` (from the reporter's maker).
    pub fn new(
        py: Python<'_>,
        progress: Option<&Bound<'_, PyAny>>,
        total: Option<u64>,
        unit: &str,
    ) -> PyResult<Progress> {
        let reporter = match progress {
            None => None,
            Some(p) if p.is_none() => None,
            Some(p) => {
                let r = py
                    .import("sudoflow._progress")?
                    .getattr("reporter")?
                    .call1((p, total, unit))?;
                (!r.is_none()).then(|| r.unbind())
            }
        };
        Ok(Progress { reporter, shown: 0 })
    }

    /// Reports `done` units if that is news.
    pub fn update(&mut self, py: Python<'_>, done: u64) -> PyResult<()> {
        if let Some(r) = &self.reporter {
            if done != self.shown {
                self.shown = done;
                r.bind(py).call_method1("update", (done,))?;
            }
        }
        Ok(())
    }

    /// Reports the end (complete or not).
    pub fn close(&mut self, py: Python<'_>) -> PyResult<()> {
        match self.reporter.take() {
            Some(r) => r.bind(py).call_method0("close").map(|_| ()),
            None => Ok(()),
        }
    }
}

/// Runs `work` on a thread of its own while this thread, the GIL released
/// between checks, runs Python's signal handlers and reports progress every
/// [`POLL`]. An exception from either stops the work ([`Watch::stop`]) and
/// is raised once the work has ended.
///
/// Errors: `work`'s, or the exception that stopped it.
pub fn watched<T: Send>(
    py: Python<'_>,
    progress: &mut Progress,
    work: impl FnOnce(&Watch) -> PyResult<T> + Send,
) -> PyResult<T> {
    let watch = Watch::begin(py);
    let (done_tx, done_rx) = bounded::<()>(1);
    let result = std::thread::scope(|scope| {
        let watch = &watch;
        let handle = std::thread::Builder::new()
            .name("sudoflow-call".into())
            .spawn_scoped(scope, move || {
                let result = work(watch);
                drop(done_tx);
                result
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        let mut failure = None;
        loop {
            let finished =
                py.detach(|| !matches!(done_rx.recv_timeout(POLL), Err(RecvTimeoutError::Timeout)));
            if finished {
                break;
            }
            if let Err(e) = py
                .check_signals()
                .and_then(|()| progress.update(py, watch.done.load(Relaxed)))
            {
                failure = Some(e);
                break;
            }
        }
        if failure.is_some() {
            // A record's search may run for ever (the empty grid counted
            // with no cap): only the library's stop flag ends it.
            watch.stop.store(true, Relaxed);
            stop_all();
        }
        let joined = py.detach(|| handle.join());
        watch.end();
        match (failure, joined) {
            (Some(e), _) => Err(e),
            (None, _) if watch.cut() => Err(cut_by_another()),
            (None, Ok(result)) => result,
            (None, Err(panic)) => Err(PyRuntimeError::new_err(format!(
                "internal error (a bug in sudoflow; please report it): {}",
                panic
                    .downcast_ref::<&str>()
                    .copied()
                    .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
                    .unwrap_or("a panic")
            ))),
        }
    });
    let end = progress
        .update(py, watch.done.load(Relaxed))
        .and_then(|()| progress.close(py));
    let result = result?;
    end?;
    Ok(result)
}

/// A rayon pool of `threads` workers, kept for later calls with the same
/// count (starting threads per call would cost more than a small call's work).
pub fn pool(threads: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.get(&threads) {
        return Ok(Arc::clone(p));
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("sudoflow-{i}"))
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start worker threads: {e}")))?;
    let p = Arc::new(p);
    pools.insert(threads, Arc::clone(&p));
    Ok(p)
}

/// Records handled per step of [`for_each_chunk`] and thread: their rows
/// are turned into columns before the next step, while they are still in
/// cache (and the rows of a long input are never all in memory at once).
pub const CHUNK: usize = 4096;

/// `work` on every record with one state per worker (inline for one
/// thread, else on a pool of `threads`), the results handed to `take` in
/// input order, a chunk at a time; counts each record done in `watch` and
/// stops between records once it is stopped.
///
/// Errors: `take`'s, or [`stopped`].
pub fn for_each_chunk<S, T: Send>(
    records: &[Record],
    threads: usize,
    watch: &Watch,
    make_state: impl Fn() -> S + Sync + Send,
    work: impl Fn(&mut S, &Record) -> T + Sync + Send,
    mut take: impl FnMut(Vec<T>) -> PyResult<()>,
) -> PyResult<()> {
    let one = |state: &mut S, r: &Record| {
        if watch.stopped() {
            return None;
        }
        let out = work(state, r);
        watch.add(1);
        Some(out)
    };
    let pool = if threads > 1 {
        Some(pool(threads)?)
    } else {
        None
    };
    let mut inline = None;
    for chunk in records.chunks(CHUNK * threads) {
        let results: Option<Vec<T>> = match &pool {
            Some(pool) if chunk.len() > 1 => pool.install(|| {
                chunk
                    .par_iter()
                    .with_min_len(16)
                    .map_init(&make_state, |s, r| one(s, r))
                    .collect()
            }),
            _ => {
                let state = inline.get_or_insert_with(&make_state);
                chunk.iter().map(|r| one(state, r)).collect()
            }
        };
        take(results.ok_or_else(stopped)?)?;
    }
    Ok(())
}
