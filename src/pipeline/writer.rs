//! The calling thread's side: start the reader and the workers, then restore
//! input order and hand each result to `emit`.

use super::reader::Item;
use super::{
    test_panic_at, work_records, workers, Batch, Done, Emit, FromPanic, PipelineOptions, Progress,
    Record, Skip, Summary,
};
use crate::interrupt;
use crossbeam_channel::{bounded, unbounded, Receiver, Sender, TryRecvError};
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub(super) fn run<S, T, MS, W, E>(
    opts: &PipelineOptions,
    skip: Skip<'_>,
    make_state: MS,
    work: W,
    mut emit: E,
) -> anyhow::Result<Summary>
where
    MS: Fn() -> S + Sync,
    W: Fn(&mut S, &Record) -> T + Sync,
    T: Send + FromPanic,
    E: FnMut(Emit<T>) -> anyhow::Result<()>,
{
    let started = Instant::now();
    let panic_at = test_panic_at();
    let threads = opts.threads.max(1);
    let batch_size = opts.batch_size.max(1);
    if threads == 1 {
        return run_inline(
            opts,
            skip,
            batch_size.min(INLINE_BATCH),
            make_state,
            work,
            emit,
            started,
            &panic_at,
        );
    }
    // Batches in flight (read but not yet emitted): bounds memory whatever
    // the input length and however unevenly batches take time.
    let window = 4 * threads + 2;
    let (batch_tx, batch_rx) = bounded::<Batch>(2 * threads);
    let (done_tx, done_rx) = unbounded::<Done<T>>();
    // Worked-on batches' record vectors, back to the reader (see
    // `read_batches`).
    let (recycle_tx, recycle_rx) = unbounded::<Vec<Record>>();
    let (token_tx, token_rx) = bounded::<()>(window);
    for _ in 0..window {
        token_tx.send(()).expect("receiver alive");
    }
    let stop = AtomicBool::new(false);
    let progress = start_progress(opts);
    let cost = AtomicU64::new(0);
    let idle_mark = AtomicU64::new(0);
    // Each worker times a sample of its records, so the reader can size
    // batches by work.
    let make_state = || (make_state(), Timer::default());
    let work = timed(&work, &cost);

    std::thread::scope(|scope| {
        let stop = &stop;
        let shared = Shared {
            stop,
            cost: &cost,
            idle_mark: &idle_mark,
        };
        // The calling thread is one of the `threads` that work (see
        // `reorder`), so `threads - 1` workers are spawned.
        // A thread the system refuses (`ulimit -u`) fails the run before
        // anything is read: the workers started end once the batches'
        // sender is dropped.
        for _ in 1..threads {
            let batches = batch_rx.clone();
            let done = (done_tx.clone(), recycle_tx.clone());
            let (make_state, work, panic_at) = (&make_state, &work, &panic_at[..]);
            let worker =
                move || workers::work_loop(make_state, work, batches, done, stop, panic_at);
            if let Err(e) = crate::threads::spawn_scoped(scope, worker) {
                drop(batch_tx);
                return Err(crate::threads::spawn_error("the worker threads", e));
            }
        }
        drop(done_tx);

        let helper = Helper {
            batches: batch_rx,
            recycle: recycle_tx,
            state: make_state(),
            make_state: &make_state,
            work: &work,
            stop,
            panic_at: &panic_at,
        };
        let reader = crate::threads::spawn_scoped(scope, move || {
            let channels = (batch_tx, token_rx, recycle_rx);
            read_batches(opts, skip, batch_size, channels, shared)
        })
        .map_err(|e| crate::threads::spawn_error("the reader thread", e))?;
        let emitted = reorder(done_rx, helper, token_tx, &mut emit, progress, &idle_mark);
        if emitted.is_err() {
            // Make the reader and workers give up; dropping our channel ends
            // (done in `reorder`) unblocks them.
            stop.store(true, Ordering::Relaxed);
        }
        let read = reader.join().expect("reader thread panicked");
        if let Some(p) = progress {
            p.finish();
        }
        let records = emitted?;
        let skipped = read?;
        Ok(Summary {
            records: skipped + records,
            resumed: skipped,
            elapsed: started.elapsed(),
        })
    })
}

/// Records per phase of [`run_inline`]: enough to keep each phase's code
/// and tables in cache, small enough that the records and results (~420
/// bytes each) stay in L2 instead of streaming 430 KB per batch of 1,024
/// through it. serg, `solve -j 1`, 80 interleaved runs: median task-clock
/// 19.74 ms with 1,024, 19.47 ms with 64; 104 fewer page faults.
const INLINE_BATCH: usize = 64;

/// One worker: read, work and emit on the calling thread, a batch at a time.
/// Handing records between threads costs more CPU than the reading does
/// (wake-ups, spinning on the channels, the scheduler), so with no parallel
/// work to gain the pipeline does without.
// The threaded path's context, passed apart rather than bundled for one caller.
#[allow(clippy::too_many_arguments)]
fn run_inline<S, T, MS, W, E>(
    opts: &PipelineOptions,
    skip: Skip<'_>,
    batch_size: usize,
    make_state: MS,
    work: W,
    mut emit: E,
    started: Instant,
    panic_at: &[u64],
) -> anyhow::Result<Summary>
where
    MS: Fn() -> S,
    W: Fn(&mut S, &Record) -> T,
    T: FromPanic,
    E: FnMut(Emit<T>) -> anyhow::Result<()>,
{
    let progress = start_progress(opts);
    let mut state = make_state();
    let mut records = 0u64;
    let mut emitted = Ok(());
    // Each phase runs over a whole batch: the solver's code and tables stay
    // in cache while it works, and so do the writer's.
    let mut batch: Vec<Record> = Vec::with_capacity(batch_size);
    let mut results: Vec<T> = Vec::with_capacity(batch_size);
    // Rows emitted since the last Emit::Flush.
    let mut unflushed = false;
    // Works and emits a batch; `waiting`: the reader waits for input, so
    // the output is flushed too.
    let mut flush = |batch: &mut Vec<Record>, waiting: bool| -> anyhow::Result<()> {
        // Cut short by a stop request, the batch's later records get no
        // row either; the reader stops at its next record.
        work_records(
            &mut state,
            &make_state,
            &work,
            batch,
            panic_at,
            &mut results,
        );
        records += results.len() as u64;
        unflushed |= !results.is_empty();
        batch.clear();
        for result in results.drain(..) {
            emit(Emit::Row(result))?;
        }
        if waiting && std::mem::take(&mut unflushed) {
            emit(Emit::Flush)?;
        }
        if let Some(p) = progress {
            p.update(records);
        }
        Ok(())
    };
    let mut skipper = Skipper::new(skip);
    let read = super::read_items(opts, |item| {
        if interrupt::requested().is_some() {
            // Stop reading; the records already read get their rows below.
            return ControlFlow::Break(());
        }
        let waiting = match item {
            Item::Record(record) => {
                match skipper.skips(&record) {
                    Ok(true) => return ControlFlow::Continue(()),
                    Ok(false) => {}
                    Err(e) => {
                        emitted = Err(e);
                        return ControlFlow::Break(());
                    }
                }
                batch.push(record);
                if batch.len() < batch_size {
                    return ControlFlow::Continue(());
                }
                false
            }
            Item::Waiting => true,
        };
        match flush(&mut batch, waiting) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                emitted = Err(e);
                ControlFlow::Break(())
            }
        }
    });
    // The records read before a failing read get their rows too; the error
    // is reported after them.
    if emitted.is_ok() && !batch.is_empty() {
        emitted = flush(&mut batch, false);
    }
    if let Some(p) = progress {
        p.finish();
    }
    emitted?;
    read?;
    Ok(Summary {
        records: skipper.skipped + records,
        resumed: skipper.skipped,
        elapsed: started.elapsed(),
    })
}

/// Applies a [`Skip`] to the records in input order: asks it about each
/// record until it first answers "work on it", then never again.
struct Skipper<'a> {
    skip: Skip<'a>,
    skipped: u64,
}

impl<'a> Skipper<'a> {
    fn new(skip: Skip<'a>) -> Self {
        Skipper { skip, skipped: 0 }
    }

    /// Whether `record` is skipped (its row was already written).
    fn skips(&mut self, record: &Record) -> anyhow::Result<bool> {
        let Some(check) = self.skip.as_mut() else {
            return Ok(false);
        };
        if check(record)? {
            self.skipped += 1;
            return Ok(true);
        }
        self.skip = None;
        Ok(false)
    }
}

/// The work a batch should hold, in nanoseconds of one worker's time: long
/// enough that handing it over costs next to nothing (a few microseconds a
/// batch), short enough that slow records spread over the workers.
const BATCH_WORK_NS: u64 = 20_000_000;

/// A worker's running total of work time over a sample of its records (its
/// first [`Timer::FIRST`], then every [`Timer::EVERY`]-th, so that reading
/// the clock costs nothing next to fast records), published to the reader as
/// the mean nanoseconds per record (an exponential average): first after
/// four samples, then about every millisecond of sampled work, or at every
/// sampled record slower than that.
#[derive(Default)]
pub(super) struct Timer {
    ns: u64,
    records: u64,
    seen: u64,
}

impl Timer {
    /// Records timed one by one at the start, for a first figure soon.
    const FIRST: u64 = 8;

    /// After those, one record in this many is timed. At one in eight, the
    /// two clock reads were 0.3-0.5% of `solve -j 2`'s CPU on the 17-clue
    /// set (`perf`: `__vdso_clock_gettime` and callers, ninth session);
    /// at one in 64 they are under 0.1%.
    const EVERY: u64 = 64;

    /// Whether the next record is one of the sample.
    fn samples(&mut self) -> bool {
        self.seen += 1;
        self.seen <= Self::FIRST || self.seen.is_multiple_of(Self::EVERY)
    }

    fn add(&mut self, took: Duration, cost: &AtomicU64) {
        self.ns += u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        self.records += 1;
        // The first figure soon (until then the reader sends one record a
        // batch), later ones about every millisecond.
        let first = cost.load(Ordering::Relaxed) == 0 && self.records >= 4;
        if self.ns >= 1_000_000 || first {
            let mean = (self.ns / self.records).max(1);
            let old = cost.load(Ordering::Relaxed);
            let new = if old == 0 { mean } else { (3 * old + mean) / 4 };
            cost.store(new.max(1), Ordering::Relaxed);
            (self.ns, self.records) = (0, 0);
        }
    }
}

/// `work` timing a sample of its records with the worker's [`Timer`] (kept
/// beside its state), published in `cost` for [`batch_target`].
pub(super) fn timed<'a, S, T, W>(
    work: &'a W,
    cost: &'a AtomicU64,
) -> impl Fn(&mut (S, Timer), &Record) -> T + Sync + 'a
where
    W: Fn(&mut S, &Record) -> T + Sync,
{
    move |(state, timer): &mut (S, Timer), record: &Record| {
        if !timer.samples() {
            return work(state, record);
        }
        let start = Instant::now();
        let result = work(state, record);
        timer.add(start.elapsed(), cost);
        result
    }
}

/// What the reader thread shares with the others.
#[derive(Clone, Copy)]
struct Shared<'a> {
    /// Set when emitting failed: give up.
    stop: &'a AtomicBool,
    /// Mean work per record in nanoseconds, 0 until first measured.
    cost: &'a AtomicU64,
    /// The number of batches sent when the reader last waited for input:
    /// once that many have been emitted, the output is flushed.
    idle_mark: &'a AtomicU64,
}

/// Records in the next batch: one until the workers have measured a
/// record's cost (so a few slow records go to different workers), then
/// [`BATCH_WORK_NS`] worth of them, at most `batch_size`.
pub(super) fn batch_target(cost: &AtomicU64, batch_size: usize) -> usize {
    match cost.load(Ordering::Relaxed) {
        0 => 1,
        ns => usize::try_from(BATCH_WORK_NS / ns)
            .unwrap_or(usize::MAX)
            .clamp(1, batch_size),
    }
}

/// The reader thread: fills batches and sends them, one window token each.
/// Batches are sized by work ([`batch_target`]); when the reader is about to
/// wait for input (a pipe), it sends what it holds at once. Returns the
/// number of records skipped.
///
/// The record vectors of batches that were worked on come back on
/// `recycled`: the reader drops their records and refills them. Each
/// record's source is an `Arc` the reader clones, so its count is changed
/// on the reader's core only, and the vectors' memory is reused instead of
/// freed on one thread and allocated afresh on another.
fn read_batches(
    opts: &PipelineOptions,
    skip: Skip<'_>,
    batch_size: usize,
    (batches, tokens, recycled): (Sender<Batch>, Receiver<()>, Receiver<Vec<Record>>),
    shared: Shared<'_>,
) -> anyhow::Result<u64> {
    let stop = shared.stop;
    let mut seq = 0u64;
    let mut records = Vec::new();
    let mut send = |records: Vec<Record>, waiting: bool| -> ControlFlow<()> {
        if waiting {
            shared.idle_mark.store(seq + 1, Ordering::Release);
        }
        if stop.load(Ordering::Relaxed)
            || tokens.recv().is_err()
            || batches.send(Batch { seq, records }).is_err()
        {
            return ControlFlow::Break(());
        }
        seq += 1;
        ControlFlow::Continue(())
    };
    let mut stopped = false;
    let mut target = batch_target(shared.cost, batch_size);
    // Batches sent since the reader last waited.
    let mut sent_since_wait = false;
    let mut skipper = Skipper::new(skip);
    let mut skip_error = None;
    let read = super::read_items(opts, |item| {
        if interrupt::requested().is_some() {
            // Stop reading, and make the workers drop the batches they have
            // not started: the rows emitted stay a prefix of the input.
            stop.store(true, Ordering::Relaxed);
            stopped = true;
            return ControlFlow::Break(());
        }
        let waiting = match item {
            Item::Record(record) => {
                match skipper.skips(&record) {
                    Ok(true) => return ControlFlow::Continue(()),
                    Ok(false) => {}
                    Err(e) => {
                        skip_error = Some(e);
                        stopped = true;
                        return ControlFlow::Break(());
                    }
                }
                records.push(record);
                if records.len() < target {
                    return ControlFlow::Continue(());
                }
                false
            }
            // A batch, even an empty one, travels to the reorderer, which
            // flushes once it has emitted it.
            Item::Waiting if records.is_empty() && !sent_since_wait => {
                return ControlFlow::Continue(())
            }
            Item::Waiting => true,
        };
        target = batch_target(shared.cost, batch_size);
        let empty = match recycled.try_recv() {
            Ok(mut used) => {
                used.clear();
                used
            }
            Err(_) => Vec::with_capacity(target),
        };
        let full = std::mem::replace(&mut records, empty);
        sent_since_wait = !waiting;
        let flow = send(full, waiting);
        stopped = flow.is_break();
        flow
    });
    // The records read before a failing read get their rows too; the error
    // is reported after them.
    if !stopped && !records.is_empty() {
        let _ = send(records, false);
    }
    if let Some(e) = skip_error {
        return Err(e);
    }
    read.map(|()| skipper.skipped)
}

/// The calling thread's share of the work: it takes batches from the same
/// channel as the workers whenever it has nothing to emit.
struct Helper<'a, S, MS, W> {
    batches: Receiver<Batch>,
    recycle: Sender<Vec<Record>>,
    state: S,
    make_state: &'a MS,
    work: &'a W,
    stop: &'a AtomicBool,
    panic_at: &'a [u64],
}

impl<S, MS, W> Helper<'_, S, MS, W> {
    /// Works on `batch`, unless the run is stopping (`None` then, like a
    /// worker that drops the batches it has not started).
    fn work<T>(&mut self, batch: Batch) -> Option<Done<T>>
    where
        MS: Fn() -> S,
        W: Fn(&mut S, &Record) -> T,
        T: FromPanic,
    {
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        Some(workers::work_batch(
            &mut self.state,
            self.make_state,
            self.work,
            batch,
            &self.recycle,
            self.panic_at,
        ))
    }
}

/// Receives finished batches, emits them in batch order, returns a token per
/// emitted batch; between emits, works on batches itself (`helper`), so that
/// `-j N` runs N threads of work, not N beside a mostly idle writer: on two
/// cores, one thread fewer to share them and half the results emitted from
/// the cache that made them. Returns the number of records emitted.
///
/// Emitting comes first: all finished batches that are next in order are
/// emitted (returning their tokens to the reader) before the thread takes
/// on another batch, which delays a row by at most one batch's work
/// ([`BATCH_WORK_NS`]).
///
/// Flushes (`Emit::Flush`) once every batch sent before the reader last
/// waited for input has been emitted.
fn reorder<S, MS, W, T, E>(
    done: Receiver<Done<T>>,
    mut helper: Helper<'_, S, MS, W>,
    tokens: crossbeam_channel::Sender<()>,
    emit: &mut E,
    progress: Option<&dyn Progress>,
    idle_mark: &AtomicU64,
) -> anyhow::Result<u64>
where
    MS: Fn() -> S,
    W: Fn(&mut S, &Record) -> T,
    T: FromPanic,
    E: FnMut(Emit<T>) -> anyhow::Result<()>,
{
    let mut pending: BTreeMap<u64, Done<T>> = BTreeMap::new();
    let (mut next, mut records, mut flushed) = (0u64, 0u64, 0u64);
    // A batch cut short by a stop request has been emitted: no later row
    // may be (the rows emitted stay the first ones of the input). Later
    // batches are still taken in, and their tokens returned, so that the
    // reader, if it waits for one, goes on and sees the stop.
    let mut ended = false;
    loop {
        // Whatever has arrived, without waiting; else a batch to work on.
        let finished = match done.try_recv() {
            Ok(batch) => Some(batch),
            Err(_) => match helper.batches.try_recv() {
                Ok(batch) => helper.work(batch),
                Err(TryRecvError::Disconnected) => {
                    // The reader is done and its batches taken: wait for
                    // the workers only (the end once they are all gone).
                    match done.recv() {
                        Ok(batch) => Some(batch),
                        Err(_) => break,
                    }
                }
                // Nothing to emit and nothing to work on: wait for either.
                Err(TryRecvError::Empty) => crossbeam_channel::select! {
                    recv(done) -> batch => match batch {
                        Ok(batch) => Some(batch),
                        // Every worker is gone; the reader's batches, if
                        // any, are still ours to work on.
                        Err(_) => helper.batches.recv().ok().and_then(|b| helper.work(b)),
                    },
                    // Disconnected: the next turn waits for the workers.
                    recv(helper.batches) -> batch => batch.ok().and_then(|b| helper.work(b)),
                },
            },
        };
        let Some(batch) = finished else { continue };
        pending.insert(batch.seq, batch);
        while let Some(batch) = pending.remove(&next) {
            if !ended {
                let n = batch.results.len() as u64;
                for result in batch.results {
                    emit(Emit::Row(result))?;
                }
                records += n;
                ended = batch.cut;
            }
            next += 1;
            // The reader may have finished and dropped its receiver.
            let _ = tokens.send(());
            if let Some(p) = progress {
                p.update(records);
            }
        }
        let mark = idle_mark.load(Ordering::Acquire);
        if mark > flushed && next >= mark && !ended {
            emit(Emit::Flush)?;
            flushed = mark;
        }
    }
    debug_assert!(
        pending.is_empty() || interrupt::requested().is_some(),
        "every batch before the last was emitted (unless a signal stopped the workers)"
    );
    Ok(records)
}

/// Tells the run's progress reporter, if any, that the run starts.
pub(super) fn start_progress(opts: &PipelineOptions) -> Option<&dyn Progress> {
    let progress = opts.progress.as_ref().map(|hook| &*hook.0);
    if let Some(p) = progress {
        p.start();
    }
    progress
}
