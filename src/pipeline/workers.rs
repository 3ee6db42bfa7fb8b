//! The worker pool: each worker owns one state (e.g. a solver) and turns whole
//! batches of records into batches of results.

use super::{work_records, Batch, Done, FromPanic, Record};
use crossbeam_channel::{Receiver, Sender};
use std::sync::atomic::{AtomicBool, Ordering};

/// Runs one worker until the batch channel closes or `stop` is set; sends each
/// batch's results, tagged with the batch number, to the reorderer, and the
/// batch's record vector back to the reader (`recycle`).
pub(super) fn work_loop<S, T, W>(
    make_state: &impl Fn() -> S,
    work: &W,
    batches: Receiver<Batch>,
    (done, recycle): (Sender<Done<T>>, Sender<Vec<Record>>),
    stop: &AtomicBool,
    panic_at: &[u64],
) where
    W: Fn(&mut S, &Record) -> T,
    T: FromPanic,
{
    let mut state = make_state();
    for batch in batches {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let out = work_batch(&mut state, make_state, work, batch, &recycle, panic_at);
        if done.send(out).is_err() {
            // The receiving side has given up (an emit error).
            return;
        }
    }
}

/// Works on one batch with `state` (a worker's, or the calling thread's):
/// its results, tagged with the batch number; a stop request cuts the
/// batch short ([`work_records`], [`Done::cut`]). The batch's record vector
/// goes back to the reader on `recycle`, which drops the records and
/// refills it (see `read_batches`); the reader may have finished.
pub(super) fn work_batch<S, T, W>(
    state: &mut S,
    make_state: &impl Fn() -> S,
    work: &W,
    batch: Batch,
    recycle: &Sender<Vec<Record>>,
    panic_at: &[u64],
) -> Done<T>
where
    W: Fn(&mut S, &Record) -> T,
    T: FromPanic,
{
    let mut results = Vec::with_capacity(batch.records.len());
    let cut = work_records(
        state,
        make_state,
        work,
        &batch.records,
        panic_at,
        &mut results,
    );
    let _ = recycle.send(batch.records);
    Done {
        seq: batch.seq,
        results,
        cut,
    }
}
