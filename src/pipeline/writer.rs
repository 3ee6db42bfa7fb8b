//! The calling thread's side: start the reader and the workers, then restore
//! input order and hand each result to `emit`.

use super::{
    reader, test_panic_at, work_caught, workers, Batch, Done, FromPanic, PipelineOptions, Record,
    Skip, Summary,
};
use crate::interrupt;
use crossbeam_channel::{bounded, unbounded, Receiver, Sender};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
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
    E: FnMut(T) -> anyhow::Result<()>,
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
    let (token_tx, token_rx) = bounded::<()>(window);
    for _ in 0..window {
        token_tx.send(()).expect("receiver alive");
    }
    let stop = AtomicBool::new(false);
    let progress = opts.progress.then(progress_bar);

    std::thread::scope(|scope| {
        let stop = &stop;
        let reader =
            scope.spawn(move || read_batches(opts, skip, batch_size, batch_tx, token_rx, stop));
        for _ in 0..threads {
            let batches = batch_rx.clone();
            let done = done_tx.clone();
            let (make_state, work, panic_at) = (&make_state, &work, &panic_at[..]);
            scope
                .spawn(move || workers::work_loop(make_state, work, batches, done, stop, panic_at));
        }
        drop(batch_rx);
        drop(done_tx);

        let emitted = reorder(done_rx, token_tx, &mut emit, progress.as_ref());
        if emitted.is_err() {
            // Make the reader and workers give up; dropping our channel ends
            // (done in `reorder`) unblocks them.
            stop.store(true, Ordering::Relaxed);
        }
        let read = reader.join().expect("reader thread panicked");
        if let Some(bar) = &progress {
            bar.finish_and_clear();
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
    E: FnMut(T) -> anyhow::Result<()>,
{
    let progress = opts.progress.then(progress_bar);
    let mut state = make_state();
    let mut records = 0u64;
    let mut emitted = Ok(());
    // Each phase runs over a whole batch: the solver's code and tables stay
    // in cache while it works, and so do the writer's.
    let mut batch: Vec<Record> = Vec::with_capacity(batch_size);
    let mut results: Vec<T> = Vec::with_capacity(batch_size);
    let mut flush = |batch: &mut Vec<Record>| -> anyhow::Result<()> {
        results.extend(
            batch
                .iter()
                .map(|record| work_caught(&mut state, &make_state, &work, record, panic_at)),
        );
        records += batch.len() as u64;
        batch.clear();
        for result in results.drain(..) {
            emit(result)?;
        }
        if let Some(bar) = &progress {
            bar.set_position(records);
        }
        Ok(())
    };
    let mut skipper = Skipper::new(skip);
    let read = reader::for_each_record(&opts.inputs, |record| {
        if interrupt::requested().is_some() {
            // Stop reading; the records already read get their rows below.
            return ControlFlow::Break(());
        }
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
        match flush(&mut batch) {
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
        emitted = flush(&mut batch);
    }
    if let Some(bar) = &progress {
        bar.finish_and_clear();
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

/// Records in the reader's first batch; each later batch doubles it, up to
/// the batch size. A short input (hardest_1106 is 375 records) then still
/// reaches every worker instead of filling one batch, while a long one soon
/// travels in full batches.
const FIRST_BATCH: usize = 16;

/// The reader thread: fills batches and sends them, one window token each.
/// Returns the number of records skipped.
fn read_batches(
    opts: &PipelineOptions,
    skip: Skip<'_>,
    batch_size: usize,
    batches: Sender<Batch>,
    tokens: Receiver<()>,
    stop: &AtomicBool,
) -> anyhow::Result<u64> {
    let mut seq = 0u64;
    let mut records = Vec::with_capacity(batch_size);
    let mut send = |records: Vec<Record>| -> ControlFlow<()> {
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
    let mut target = FIRST_BATCH.min(batch_size);
    let mut skipper = Skipper::new(skip);
    let mut skip_error = None;
    let read = reader::for_each_record(&opts.inputs, |record| {
        if interrupt::requested().is_some() {
            // Stop reading, and make the workers drop the batches they have
            // not started: the rows emitted stay a prefix of the input.
            stop.store(true, Ordering::Relaxed);
            stopped = true;
            return ControlFlow::Break(());
        }
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
        target = (2 * target).min(batch_size);
        let full = std::mem::replace(&mut records, Vec::with_capacity(target));
        let flow = send(full);
        stopped = flow.is_break();
        flow
    });
    // The records read before a failing read get their rows too; the error
    // is reported after them.
    if !stopped && !records.is_empty() {
        let _ = send(records);
    }
    if let Some(e) = skip_error {
        return Err(e);
    }
    read.map(|()| skipper.skipped)
}

/// Receives finished batches, emits them in batch order, returns a token per
/// emitted batch. Returns the number of records emitted.
fn reorder<T, E>(
    done: Receiver<Done<T>>,
    tokens: crossbeam_channel::Sender<()>,
    emit: &mut E,
    progress: Option<&ProgressBar>,
) -> anyhow::Result<u64>
where
    E: FnMut(T) -> anyhow::Result<()>,
{
    let mut pending: BTreeMap<u64, Done<T>> = BTreeMap::new();
    let (mut next, mut records) = (0u64, 0u64);
    for batch in done {
        pending.insert(batch.seq, batch);
        while let Some(batch) = pending.remove(&next) {
            let n = batch.results.len() as u64;
            for result in batch.results {
                emit(result)?;
            }
            records += n;
            next += 1;
            // The reader may have finished and dropped its receiver.
            let _ = tokens.send(());
            if let Some(bar) = progress {
                bar.inc(n);
            }
        }
    }
    debug_assert!(
        pending.is_empty() || interrupt::requested().is_some(),
        "every batch before the last was emitted (unless a signal stopped the workers)"
    );
    Ok(records)
}

fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} {human_pos} records  {rate}  {elapsed_precise}")
            .expect("valid template")
            .with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0} records/s", state.per_sec());
                },
            ),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
