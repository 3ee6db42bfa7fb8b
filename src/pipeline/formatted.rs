//! [`super::run_formatted`]: `-j N` over regular files with no record and
//! no row handed between threads.
//!
//! ```text
//!  FileRecords (one, under a lock) ◀── each thread in turn takes the next
//!       │                               chunk of 1..1k records (its seq)
//!       ▼
//!  thread k: parse the chunk ─▶ work ─▶ format its rows into bytes
//!       │                                         │
//!  workers 2..N ──(seq, bytes, tally) unbounded──▶ calling thread (worker 1):
//!                                                  writes the chunks' bytes
//!                                                  in seq order
//! ```
//!
//! Why: with two threads on two vCPUs that share no cache (a VM whose host
//! places them apart), [`super::writer::run`]'s handing of records from the
//! reader thread to the workers and of results to the calling thread cost
//! `solve -j 2` 7-9% more CPU than `-j 1` (BENCHMARKS.md, ninth and tenth
//! sessions). Here each thread reads (parses) the records it works on, so
//! they stay in its cache, and only the finished rows' bytes, a stream the
//! calling thread copies once, cross over.
//!
//! Memory is bounded as in the other path: a thread takes a window token
//! before it takes a chunk, and the calling thread returns the token once
//! the chunk's bytes are written, so at most `4 × threads + 2` chunks exist.

use super::reader::FileRecords;
use super::writer::{batch_target, start_progress, timed, Timer};
use super::{test_panic_at, work_caught, FromPanic, PipelineOptions, Record, Summary};
use crate::interrupt;
use crossbeam_channel::{bounded, unbounded, Receiver, Sender};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// Formats a worker's rows into the bytes the output takes, on the thread
/// that made them ([`super::run_formatted`]).
pub trait Formatter<T> {
    /// What the formatter counts over its rows (e.g. rows per status):
    /// each chunk's tally reaches `emit` with its bytes.
    type Tally: Default + Send;

    /// Formats one row (the next in input order within its chunk), counting
    /// it in `tally`.
    ///
    /// Errors: the row cannot be formatted (the run stops with the error
    /// once the rows before it are written).
    fn row(&mut self, row: T, tally: &mut Self::Tally) -> anyhow::Result<()>;

    /// The bytes of every row formatted since the last call, in order.
    ///
    /// Errors: as [`Formatter::row`].
    fn take(&mut self) -> anyhow::Result<Vec<u8>>;
}

/// A chunk's rows on their way to the calling thread.
struct Chunk<C> {
    seq: u64,
    rows: u64,
    /// A stop request cut the chunk short: `rows` are those of its first
    /// records, and no later chunk may be written.
    cut: bool,
    /// The rows' bytes and tally, or the error formatting them.
    formatted: anyhow::Result<(Vec<u8>, C)>,
}

/// The reader all threads take chunks from, in turn.
struct Reader {
    records: FileRecords,
    /// The next chunk's number.
    seq: u64,
    /// No more chunks: the inputs' end, a read error, a signal or a stop.
    ended: bool,
    /// The read error that ended the reading, reported after every row.
    error: Option<anyhow::Error>,
}

/// What every thread of a run shares.
struct Shared<'a> {
    reader: Mutex<Reader>,
    /// Mean work per record in nanoseconds, 0 until first measured.
    cost: &'a AtomicU64,
    batch_size: usize,
    /// Set when writing failed: give up.
    stop: &'a AtomicBool,
}

impl Shared<'_> {
    /// Takes the next chunk into `records` (emptied first): its number, or
    /// `None` when there is no more. The old records are dropped under the
    /// lock, so that their sources' reference counts, shared by all threads,
    /// change on one core at a time.
    fn take(&self, records: &mut Vec<Record>) -> Option<u64> {
        let mut reader = self.reader.lock().unwrap_or_else(PoisonError::into_inner);
        records.clear();
        if self.stop.load(Ordering::Relaxed) || interrupt::requested().is_some() {
            // A signal: no chunk is started (those taken are written up
            // to the one under way then, see `Worker::chunk`), so the rows
            // written stay a prefix of the input.
            reader.ended = true;
        }
        if reader.ended {
            return None;
        }
        let target = batch_target(self.cost, self.batch_size);
        while records.len() < target {
            match reader.records.next_record() {
                Ok(Some(record)) => records.push(record),
                Ok(None) => {
                    reader.ended = true;
                    break;
                }
                Err(e) => {
                    // The records read before it get their rows first.
                    reader.error = Some(e);
                    reader.ended = true;
                    break;
                }
            }
        }
        if records.is_empty() {
            return None;
        }
        reader.seq += 1;
        Some(reader.seq - 1)
    }
}

/// One thread's state: the caller's, its [`Timer`], its formatter and its
/// chunk's records.
struct Worker<'a, S, MS, W, F> {
    state: (S, Timer),
    make_state: &'a MS,
    work: &'a W,
    format: F,
    records: Vec<Record>,
    panic_at: &'a [u64],
}

impl<S, T, MS, W, F> Worker<'_, S, MS, W, F>
where
    MS: Fn() -> (S, Timer),
    W: Fn(&mut (S, Timer), &Record) -> T,
    T: FromPanic,
    F: Formatter<T>,
{
    /// Takes the next chunk, works on it and formats its rows; `None` when
    /// there is no more.
    ///
    /// A stop request ([`interrupt::requested`]) during the chunk's work
    /// drops the whole chunk: the record under way may have been cut short
    /// (see `work_records`), and a formatted row cannot be taken back, so
    /// no row of the chunk is written, nor any later one; the earlier
    /// chunks' rows stay the first ones of the input. This costs a resume
    /// at most one chunk (about 20 ms of work). The flag is read after
    /// each row is formatted: read between the work and the formatting, it
    /// cost `solve -j 2` a copy of each row (0.3% of its instructions).
    fn chunk(&mut self, shared: &Shared) -> Option<Chunk<F::Tally>> {
        let seq = shared.take(&mut self.records)?;
        let mut tally = F::Tally::default();
        let mut formatted = Ok(());
        let mut cut = false;
        for record in &self.records {
            let row = work_caught(
                &mut self.state,
                self.make_state,
                self.work,
                record,
                self.panic_at,
            );
            formatted = self.format.row(row, &mut tally);
            if formatted.is_err() {
                break;
            }
            if interrupt::requested().is_some() {
                cut = true;
                break;
            }
        }
        if cut {
            let _ = self.format.take();
            return Some(Chunk {
                seq,
                rows: 0,
                cut,
                formatted: Ok((Vec::new(), F::Tally::default())),
            });
        }
        Some(Chunk {
            seq,
            rows: self.records.len() as u64,
            cut,
            formatted: formatted.and_then(|()| Ok((self.format.take()?, tally))),
        })
    }
}

/// [`run`](super::run) for inputs that
/// [`formats_on_workers`](super::formats_on_workers) accepts, with the rows
/// formatted by the thread that made them: each thread in turn takes the
/// next chunk of records from one shared reader (under a lock; chunks are
/// sized by work as batches are), works on them, and formats their rows
/// with its own [`Formatter`] (`make_format` makes one per thread);
/// `emit` receives each chunk's bytes and tally on the calling thread, in
/// input order. No record and no row passes between threads, only bytes
/// (see the module documentation).
///
/// Stops as [`run_resumed`](super::run_resumed) does when a signal arrives,
/// but a chunk under way then loses all its rows (a formatted row cannot be
/// taken back; see `Worker::chunk`): the rows written are those of the
/// chunks finished before, the first ones of the input. Nothing is ever flushed on the
/// reader's account (regular files never wait); there is no skipping
/// (`--resume` uses [`run_resumed`](super::run_resumed)).
///
/// Errors: those of [`run`](super::run); also a row [`Formatter::row`]
/// fails on (after the rows before it).
pub fn run_formatted<S, T, MS, W, MF, F, E>(
    opts: &PipelineOptions,
    make_state: MS,
    work: W,
    make_format: MF,
    mut emit: E,
) -> anyhow::Result<Summary>
where
    MS: Fn() -> S + Sync,
    W: Fn(&mut S, &Record) -> T + Sync,
    T: FromPanic,
    MF: Fn() -> F + Sync,
    F: Formatter<T>,
    E: FnMut(&[u8], F::Tally) -> anyhow::Result<()>,
{
    let started = Instant::now();
    let panic_at = test_panic_at();
    let threads = opts.threads.max(1);
    // Chunks taken but not yet written: bounds memory.
    let window = 4 * threads + 2;
    let (token_tx, token_rx) = bounded::<()>(window);
    for _ in 0..window {
        token_tx.send(()).expect("receiver alive");
    }
    let (done_tx, done_rx) = unbounded::<Chunk<F::Tally>>();
    let stop = AtomicBool::new(false);
    let cost = AtomicU64::new(0);
    let shared = Shared {
        reader: Mutex::new(Reader {
            records: FileRecords::new(&opts.inputs, opts.column.as_ref(), &opts.keep),
            seq: 0,
            ended: false,
            error: None,
        }),
        cost: &cost,
        batch_size: opts.batch_size.max(1),
        stop: &stop,
    };
    let progress = start_progress(opts);
    let make_state = || (make_state(), Timer::default());
    let work = timed(&work, &cost);
    let worker = || Worker {
        state: make_state(),
        make_state: &make_state,
        work: &work,
        format: make_format(),
        records: Vec::new(),
        panic_at: &panic_at,
    };
    let written = std::thread::scope(|scope| {
        // The calling thread is one of the `threads` that work.
        for _ in 1..threads {
            let (tokens, done, shared, worker) =
                (token_rx.clone(), done_tx.clone(), &shared, &worker);
            let started = crate::threads::spawn_scoped(scope, move || {
                let mut worker = worker();
                while !shared.stop.load(Ordering::Relaxed) && tokens.recv().is_ok() {
                    let Some(chunk) = worker.chunk(shared) else {
                        break;
                    };
                    if done.send(chunk).is_err() {
                        break;
                    }
                }
            });
            // A thread the system refuses (`ulimit -u`) fails the run
            // before any row is written; the workers started see the stop.
            if let Err(e) = started {
                shared.stop.store(true, Ordering::Relaxed);
                return Err(crate::threads::spawn_error("the worker threads", e));
            }
        }
        drop(done_tx);
        let written = write_in_order(
            &shared,
            worker(),
            (token_tx, token_rx),
            done_rx,
            &mut emit,
            progress,
        );
        if written.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        written
    });
    if let Some(p) = progress {
        p.finish();
    }
    let records = written?;
    let reader = shared
        .reader
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(e) = reader.error {
        return Err(e);
    }
    Ok(Summary {
        records,
        resumed: 0,
        elapsed: started.elapsed(),
    })
}

/// The calling thread: writes the chunks in order as they come, and works on
/// chunks itself whenever none is ready to write and a token is free.
/// Returns the number of rows written; the channels it owns are dropped on
/// return, which ends the workers.
fn write_in_order<S, T, MS, W, F, E>(
    shared: &Shared,
    mut worker: Worker<'_, S, MS, W, F>,
    (tokens_back, tokens): (Sender<()>, Receiver<()>),
    done: Receiver<Chunk<F::Tally>>,
    emit: &mut E,
    progress: Option<&dyn super::Progress>,
) -> anyhow::Result<u64>
where
    MS: Fn() -> (S, Timer),
    W: Fn(&mut (S, Timer), &Record) -> T,
    T: FromPanic,
    F: Formatter<T>,
    E: FnMut(&[u8], F::Tally) -> anyhow::Result<()>,
{
    let mut pending: BTreeMap<u64, Chunk<F::Tally>> = BTreeMap::new();
    let (mut next, mut rows) = (0u64, 0u64);
    let mut taking = true;
    // A chunk cut short by a stop request has been written: no later row
    // may be (the rows written stay the first ones of the input).
    let mut ended = false;
    loop {
        while let Some(chunk) = pending.remove(&next) {
            if !ended {
                let (bytes, tally) = chunk.formatted?;
                emit(&bytes, tally)?;
                rows += chunk.rows;
                ended = chunk.cut;
            }
            next += 1;
            // The workers may all have finished.
            let _ = tokens_back.send(());
            if let Some(p) = progress {
                p.update(rows);
            }
        }
        let arrived = match done.try_recv() {
            Ok(chunk) => Some(chunk),
            Err(_) if taking && tokens.try_recv().is_ok() => {
                let chunk = worker.chunk(shared);
                taking = chunk.is_some();
                chunk
            }
            // Nothing to write, no chunk to take: wait for a worker (the end
            // once they are all gone).
            Err(_) => match done.recv() {
                Ok(chunk) => Some(chunk),
                Err(_) => break,
            },
        };
        if let Some(chunk) = arrived {
            pending.insert(chunk.seq, chunk);
        }
    }
    debug_assert!(
        pending.is_empty() || ended,
        "every chunk taken was written (unless a stop cut one short)"
    );
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::super::{run, PipelineOptions, Record};
    use super::*;
    use std::path::PathBuf;

    /// A record's row: its index, line and whether it parsed.
    struct Row(u64, u64, bool);

    impl FromPanic for Row {
        fn from_panic(record: &Record, _: &str) -> Row {
            Row(record.index, record.line, false)
        }
    }

    fn row(_: &mut (), record: &Record) -> Row {
        Row(record.index, record.line, record.grid.is_ok())
    }

    /// `index:line:ok` lines; counts the rows that parsed; fails on the row
    /// of record `fail_at`.
    struct Lines {
        bytes: Vec<u8>,
        fail_at: u64,
    }

    impl Formatter<Row> for Lines {
        type Tally = u64;

        fn row(&mut self, Row(index, line, ok): Row, valid: &mut u64) -> anyhow::Result<()> {
            anyhow::ensure!(index != self.fail_at, "cannot format record {index}");
            *valid += u64::from(ok);
            self.bytes
                .extend(format!("{index}:{line}:{ok}\n").as_bytes());
            Ok(())
        }

        fn take(&mut self) -> anyhow::Result<Vec<u8>> {
            Ok(std::mem::take(&mut self.bytes))
        }
    }

    /// Two inputs: blank lines, comments, invalid records and a 9-line grid
    /// among the puzzles, so that chunks of a few records start and end
    /// inside them.
    fn inputs(dir: &std::path::Path) -> Vec<PathBuf> {
        let p17 =
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
        let mut text = String::new();
        for i in 0..60 {
            match i % 6 {
                0 => text.push_str(&format!("{p17}\n")),
                1 => text.push_str("\n# comment\n"),
                2 => text.push_str("12x\n"),
                3 => {
                    for row in p17.as_bytes().chunks(9) {
                        text.push_str(std::str::from_utf8(row).unwrap());
                        text.push('\n');
                    }
                }
                _ => text.push_str(&format!("{p17},extra\n")),
            }
        }
        ["a.txt", "b.txt"]
            .iter()
            .map(|name| {
                let path = dir.join(name);
                std::fs::write(&path, &text).unwrap();
                path
            })
            .collect()
    }

    fn formatted(opts: &PipelineOptions, fail_at: u64) -> (Vec<u8>, u64, anyhow::Result<u64>) {
        let (mut bytes, mut valid) = (Vec::new(), 0);
        let make_format = || Lines {
            bytes: Vec::new(),
            fail_at,
        };
        let result = run_formatted(
            opts,
            || (),
            row,
            make_format,
            |chunk: &[u8], n: u64| {
                bytes.extend_from_slice(chunk);
                valid += n;
                Ok(())
            },
        );
        (bytes, valid, result.map(|s| s.records))
    }

    #[test]
    fn rows_are_those_of_the_threaded_pipeline_in_input_order() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = inputs(dir.path());
        let mut expected: Vec<u8> = Vec::new();
        let opts = PipelineOptions {
            inputs: inputs.clone(),
            threads: 2,
            ..PipelineOptions::default()
        };
        run(
            &opts,
            || (),
            row,
            |Row(index, line, ok)| {
                expected.extend(format!("{index}:{line}:{ok}\n").as_bytes());
                Ok(())
            },
        )
        .unwrap();
        let records = expected.iter().filter(|&&b| b == b'\n').count() as u64;
        assert_eq!(records, 2 * 50, "5 records in every 6 turns");
        for threads in [1, 2, 3] {
            for batch_size in [1, 2, 3, 7, 1024] {
                let opts = PipelineOptions {
                    threads,
                    batch_size,
                    ..opts.clone()
                };
                let (bytes, valid, summary) = formatted(&opts, 0);
                assert_eq!(
                    summary.unwrap(),
                    records,
                    "-j {threads}, batch {batch_size}"
                );
                assert!(bytes == expected, "-j {threads}, batch {batch_size}");
                assert_eq!(valid, 2 * 40, "the tallies of every chunk reach emit");
            }
        }
    }

    #[test]
    fn a_row_that_cannot_be_formatted_stops_the_run_after_the_rows_before_it() {
        let dir = tempfile::tempdir().unwrap();
        let opts = PipelineOptions {
            inputs: inputs(dir.path()),
            threads: 2,
            batch_size: 4,
            ..PipelineOptions::default()
        };
        let (bytes, _, result) = formatted(&opts, 30);
        let error = result.unwrap_err().to_string();
        assert_eq!(error, "cannot format record 30");
        let text = String::from_utf8(bytes).unwrap();
        let indexes: Vec<&str> = text.lines().map(|l| l.split(':').next().unwrap()).collect();
        // Whole chunks are written, those before the failing one: chunks
        // hold one record until a record's cost is measured, then 4.
        let written = indexes.len();
        assert!((26..30).contains(&written), "{written} rows");
        let expected: Vec<String> = (1..=written).map(|i| i.to_string()).collect();
        assert_eq!(indexes, expected);
    }
}
