//! SIGINT and SIGTERM (and SIGHUP and SIGQUIT, see [`signals`]): the first
//! one asks the run to stop cleanly, a second one ends the process at once.
//!
//! [`install`] registers signal-hook handlers that only store to atomics
//! (async-signal-safe). The pipeline's reader and `generate`'s loop poll
//! [`requested`] between records and stop reading (a read that waits on an
//! idle pipe or terminal looks too, every 100 ms or on the signal, and
//! ends the input); the searches that may
//! run long (the solver's, SE's chains) poll it every few thousand nodes
//! through their [`crate::work::Meter`] and stop, so that no record's work
//! outlasts the signal by more than milliseconds. The pipeline drops the
//! rows of the records under way (their work may have been cut short) and
//! of every later one; the command then writes the rows of the records
//! finished before, flushes and fsyncs its output, and exits 128 + the
//! signal number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP, 131 for
//! SIGQUIT).
//! A second signal of any of these kinds, while the first one is being handled,
//! exits at once with that status (signal-hook's
//! `register_conditional_shutdown`, the double Ctrl-C pattern of its docs):
//! the output then ends wherever the last write left it, possibly inside a
//! row, which `--resume` drops. It says so on stderr first (one write(2)
//! in the handler), where the first signal's summary would have been.
//!
//! A run whose output is a pipe (stdout, a FIFO) cannot stop cleanly while
//! a write waits on a reader that no longer reads (`| less` left on one
//! page, a stalled consumer): the handlers restart the write, and the rows
//! cannot be delivered anyway (found by probing: it waited for a second
//! signal). So the first signal also starts a SIGALRM tick, once a second,
//! whose handler looks at the write under way through [`Watched`]: one
//! that has waited [`STALLED_WRITE`] since the signal (or since it began)
//! ends the process with the signal's status, saying that the rows not yet
//! taken are lost. A write longer than [`WATCHED_CHUNK`] (one begun before
//! the signal) has as long as a reader taking 8 KB/s needs, and after the
//! signal [`Watched`] writes at most [`WATCHED_CHUNK`] bytes a call, so that
//! a reader that still reads, however slowly, gets every row (found by
//! probing: a 64 KiB write to a reader taking 20 KB/s lasted 3 s, and the
//! run was ended as stalled). Writes go whole before a signal: in chunks of
//! 16 KiB, `solve -j 1` of 983,160 records piped to `cat` took 7% longer. No thread is
//! started for it (a thread had taken a worker's place under `ulimit -u`).
//! Writes to regular files never wait so; their runs stop as above.
//!
//! Without [`install`] (a library user, or commands that do not call it)
//! nothing here ever reports a signal, and the signals keep their default
//! action. A library user that catches signals its own way (the Python
//! package: Python's handler raises `KeyboardInterrupt`) asks the work to
//! stop with [`request`] and lets it go on again with [`clear`].

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Set by the first SIGINT or SIGTERM: arms the immediate exit on the next one.
static ARMED: AtomicBool = AtomicBool::new(false);

/// The number of the last signal received (0: none yet).
static SIGNAL: AtomicUsize = AtomicUsize::new(0);

/// The signals that stop a run: SIGINT and SIGTERM, and SIGHUP (the
/// terminal closed) and SIGQUIT (Ctrl-\\) unless the process started with
/// them ignored (`nohup` ignores SIGHUP, and so the run goes on, as it
/// asked). Before these two were handled, their default action ended the
/// process with the rows since the last checkpoint unwritten and, under
/// `bench --external`, the program being timed left running.
#[cfg(unix)]
pub fn signals() -> &'static [i32] {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    static SIGNALS: std::sync::OnceLock<Vec<i32>> = std::sync::OnceLock::new();
    SIGNALS.get_or_init(|| {
        let mut all = vec![SIGINT, SIGTERM];
        all.extend([SIGHUP, SIGQUIT].into_iter().filter(|&sig| !ignored(sig)));
        all
    })
}

/// True when `sig`'s action is "ignore" (inherited across exec).
#[cfg(unix)]
fn ignored(sig: i32) -> bool {
    // SAFETY: sigaction with a null new action only reads the current one
    // into `old`, a zeroed sigaction owned here.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(sig, std::ptr::null(), &mut old) == 0 && old.sa_sigaction == libc::SIG_IGN
    }
}

/// What a second stop signal says on stderr as it ends the process (the
/// first one's summary, with the rows written, is never printed then).
#[cfg(unix)]
const SECOND_SIGNAL: &str = "\nsudoflow: stopped at once by a second signal: the output ends \
    where the last write left it; with -o FILE, FILE.partial keeps the rows up to its last \
    checkpoint and --resume continues from there\n";

/// [`SECOND_SIGNAL`] for a run whose FILE.partial cannot be resumed (a
/// Parquet file, readable only once its footer is written; explain's text):
/// found by probing, a Parquet run was told that --resume continues it.
#[cfg(unix)]
const SECOND_SIGNAL_UNRESUMABLE: &str = "\nsudoflow: stopped at once by a second signal: the \
    output ends where the last write left it; this run's FILE.partial cannot be resumed (its \
    format cannot): delete it and run again\n";

/// Whether this run's output file cannot be resumed
/// ([`output_cannot_resume`]): the second signal says so.
static UNRESUMABLE: AtomicBool = AtomicBool::new(false);

/// Tells the second signal's note that this run's output file cannot be
/// resumed (a Parquet file, explain's text or JSON).
pub fn output_cannot_resume() {
    UNRESUMABLE.store(true, Ordering::SeqCst);
}

/// Installs the handlers for the stop signals, [`signals`] (idempotent: a
/// second call registers nothing more).
///
/// Errors: the handlers cannot be registered (`sigaction` failed).
pub fn install() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use signal_hook::flag;
        static INSTALLED: std::sync::Once = std::sync::Once::new();
        let mut result = Ok(());
        INSTALLED.call_once(|| {
            result = (|| {
                for &sig in signals() {
                    // Order matters: the note and the shutdown run first
                    // and see ARMED still false on the first signal.
                    // SAFETY: the action loads and stores atomics, reads the
                    // clock, and calls alarm(2) and write(2), all
                    // async-signal-safe.
                    unsafe {
                        signal_hook::low_level::register(sig, || {
                            if !ARMED.load(Ordering::SeqCst) {
                                // The first: the stall check's tick starts.
                                SIGNALLED_AT.store(now_mark(), Ordering::SeqCst);
                                libc::alarm(1);
                            }
                            if ARMED.load(Ordering::SeqCst) {
                                let note = match UNRESUMABLE.load(Ordering::SeqCst) {
                                    true => SECOND_SIGNAL_UNRESUMABLE,
                                    false => SECOND_SIGNAL,
                                };
                                let _ = libc::write(2, note.as_ptr().cast(), note.len());
                            }
                        })?;
                    }
                    flag::register_conditional_shutdown(sig, 128 + sig, &ARMED)?;
                    flag::register(sig, &ARMED)?;
                    flag::register_usize(sig, &SIGNAL, sig as usize)?;
                }
                epoch();
                // SAFETY: the action loads and stores atomics, reads the
                // clock, and calls write(2), alarm(2) and _exit(2).
                unsafe {
                    signal_hook::low_level::register(libc::SIGALRM, check_stalled_write)?;
                }
                HANDLED.store(true, Ordering::SeqCst);
                Ok(())
            })();
        });
        result
    }
    #[cfg(not(unix))]
    {
        Ok(())
    }
}

/// Whether [`install`]'s handlers are in place.
static HANDLED: AtomicBool = AtomicBool::new(false);

/// Waits, at most 100 ms, for the handler of a stop signal already sent to
/// the process but not yet run (the signal pending, the thread it went to
/// not yet scheduled), so that [`requested`] then reports it. A pipeline
/// calls it as its input ends: a producer killed by the same Ctrl-C ends
/// the input, and under load the run could meet that end, finish and take
/// itself for complete before its own handler ran (seen once in a test:
/// exit 0, a FILE of the records before the signal). Without [`install`]
/// it does nothing.
pub fn settle() {
    #[cfg(target_os = "linux")]
    {
        if !HANDLED.load(Ordering::SeqCst) {
            return;
        }
        for _ in 0..100 {
            if requested().is_some() || !stop_signal_pending() {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// Whether a stop signal sent to the process waits for its handler: the
/// process's pending set (`ShdPnd` of /proc/self/status; sigpending(2)
/// shows only blocked signals, and these are not blocked).
#[cfg(target_os = "linux")]
fn stop_signal_pending() -> bool {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return false;
    };
    let mask = status
        .lines()
        .find_map(|line| line.strip_prefix("ShdPnd:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .unwrap_or(0);
    signals()
        .iter()
        .any(|&sig| sig >= 1 && (mask >> (sig - 1)) & 1 == 1)
}

/// How long a write to the output may wait for a reader that takes nothing
/// after a stop signal before the process ends without it ([`Watched`]).
pub const STALLED_WRITE: Duration = Duration::from_secs(2);

/// When the write to the output under way began, in milliseconds since
/// [`epoch`] plus 1 (0: no write under way).
static WRITE_SINCE: AtomicU64 = AtomicU64::new(0);

/// The instant [`WRITE_SINCE`] counts from.
fn epoch() -> Instant {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// Milliseconds since [`epoch`], plus 1 (never 0).
fn now_mark() -> u64 {
    u64::try_from(epoch().elapsed().as_millis())
        .unwrap_or(u64::MAX - 1)
        .saturating_add(1)
}

/// When the first stop signal came ([`now_mark`]).
static SIGNALLED_AT: AtomicU64 = AtomicU64::new(0);

/// The most [`Watched`] writes in one call once a stop signal came: what
/// a reader taking 8 KB/s takes within [`STALLED_WRITE`].
pub const WATCHED_CHUNK: usize = 16 * 1024;

/// The length of the write under way ([`WRITE_SINCE`]), in bytes.
static WRITE_LEN: AtomicU64 = AtomicU64::new(0);

/// The stall's note, per signal (a handler cannot format).
#[cfg(unix)]
fn stalled_note(signal: i32) -> &'static str {
    macro_rules! note {
        ($name:literal) => {
            concat!(
                "\nsudoflow: stopped by ",
                $name,
                ": a write to the output waited 2 s for a reader that no longer reads, so the \
                 rows not yet written are lost (-o FILE keeps every row, and --resume goes on)\n"
            )
        };
    }
    match signal {
        1 => note!("SIGHUP"),
        3 => note!("SIGQUIT"),
        15 => note!("SIGTERM"),
        _ => note!("SIGINT"),
    }
}

/// SIGALRM's action after a stop signal (see the module's doc): ends the
/// process when the write under way has waited [`STALLED_WRITE`], else
/// ticks again in a second. Async-signal-safe: atomics, the clock,
/// write(2), alarm(2), _exit(2).
#[cfg(unix)]
fn check_stalled_write() {
    // The stop's signal (set by the first stop signal's flag, which armed
    // this tick).
    let Some(signal) = requested() else {
        return;
    };
    let now = now_mark();
    let since = WRITE_SINCE.load(Ordering::SeqCst);
    let from = since.max(SIGNALLED_AT.load(Ordering::SeqCst));
    // A longer write (begun before the signal): what 8 KB/s needs.
    let len = WRITE_LEN.load(Ordering::SeqCst);
    let limit = (STALLED_WRITE.as_millis() as u64).max(len * 1000 / 8192);
    if since != 0 && now.saturating_sub(from) >= limit {
        let note = stalled_note(signal);
        // SAFETY: write(2) and _exit(2); the output is left as the writes
        // left it, as a second signal leaves it.
        unsafe {
            let _ = libc::write(2, note.as_ptr().cast(), note.len());
            libc::_exit(i32::from(exit_status(signal)));
        }
    }
    // SAFETY: alarm(2) re-arms the tick.
    unsafe {
        libc::alarm(1);
    }
}

/// A writer to a pipe, FIFO or terminal (stdout, `-o FIFO`) whose writes
/// [`install`]'s stall check can see: after a stop signal, one that waits
/// [`STALLED_WRITE`] (more for a write longer than [`WATCHED_CHUNK`]) ends
/// the process with the signal's status. After a signal it writes at most
/// [`WATCHED_CHUNK`] bytes a call. Without [`install`], a plain wrapper.
#[derive(Debug)]
pub struct Watched<W>(pub W);

impl<W: std::io::Write> Watched<W> {
    /// Runs `write` of `len` bytes marked as a write under way.
    fn marked<T>(&mut self, len: usize, write: impl FnOnce(&mut W) -> T) -> T {
        WRITE_LEN.store(len as u64, Ordering::SeqCst);
        WRITE_SINCE.store(now_mark(), Ordering::SeqCst);
        let result = write(&mut self.0);
        WRITE_SINCE.store(0, Ordering::SeqCst);
        result
    }
}

impl<W: std::io::Write> std::io::Write for Watched<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let buf = match requested() {
            Some(_) => &buf[..buf.len().min(WATCHED_CHUNK)],
            None => buf,
        };
        self.marked(buf.len(), |w| w.write(buf))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.marked(0, |w| w.flush())
    }
}

/// The signal that asked the run to stop, if one did: its number (2 for
/// SIGINT, 15 for SIGTERM). One relaxed atomic load, cheap enough to call
/// once per record.
pub fn requested() -> Option<i32> {
    match SIGNAL.load(Ordering::Relaxed) {
        0 => None,
        sig => Some(sig as i32),
    }
}

/// Asks the work under way to stop as if `signal` had arrived (without
/// [`install`]'s handlers: nothing exits): [`requested`] reports it until
/// [`clear`].
pub fn request(signal: i32) {
    SIGNAL.store(
        usize::try_from(signal).unwrap_or(2).max(1),
        Ordering::Relaxed,
    );
}

/// Forgets a stop asked for with [`request`] (or a signal's), so that later
/// work runs. For library users between two runs; the command line never
/// calls it.
pub fn clear() {
    SIGNAL.store(0, Ordering::Relaxed);
}

thread_local! {
    /// This thread's own stop flag ([`stop_this_thread_on`]).
    static OWN_STOP: std::cell::RefCell<Option<std::sync::Arc<AtomicBool>>> =
        const { std::cell::RefCell::new(None) };
}

/// Makes the searches this thread runs from now on stop when `flag` is set,
/// as they stop on a signal ([`crate::work::Meter`] looks at it with
/// [`requested`]): for a library user that stops one run of its own while
/// others go on (the Python package's file reader, dropped while a record's
/// search may run for ever). `None` undoes it. The flag is this thread's
/// only: set it on each thread that does the run's work.
pub fn stop_this_thread_on(flag: Option<std::sync::Arc<AtomicBool>>) {
    OWN_STOP.with(|own| *own.borrow_mut() = flag);
}

/// Whether this thread's own stop flag ([`stop_this_thread_on`]) is set.
pub fn stopped_here() -> bool {
    OWN_STOP.with(|own| {
        own.borrow()
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    })
}

/// An error meaning that a stop signal ended the work before it could
/// finish (a wait for a FIFO's reader, say): the binary exits with the
/// signal's status ([`exit_status`]) after saying why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("stopped by {} {what}", name(*.signal))]
pub struct Stopped {
    /// The signal.
    pub signal: i32,
    /// What it stopped, for the message ("while waiting for ...").
    pub what: &'static str,
}

/// The conventional exit status for a run stopped by `signal`: 128 + its
/// number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP, 131 for
/// SIGQUIT).
pub fn exit_status(signal: i32) -> u8 {
    u8::try_from(128 + signal).unwrap_or(u8::MAX)
}

/// The signal's name: `SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT`, else
/// `signal N`.
pub fn name(signal: i32) -> String {
    match signal {
        1 => "SIGHUP".to_string(),
        2 => "SIGINT".to_string(),
        3 => "SIGQUIT".to_string(),
        15 => "SIGTERM".to_string(),
        n => format!("signal {n}"),
    }
}
