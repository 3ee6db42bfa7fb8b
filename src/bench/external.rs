//! `--external NAME=CMD`: time an outside program as a solver.
//!
//! Protocol: `sh -c CMD` reads puzzles on stdin, one per line (81
//! characters, `.` for a blank), and writes one line per puzzle on stdout, in
//! order: the solution (81 digits), or anything else for "no solution". A
//! solution line is taken as "found this solution" (no count); any other line
//! as a claim that the puzzle has no solution. Both are validated like the
//! built-in solvers' answers: only a line that agrees with the reference and
//! the rules counts as answered; a wrong line is a disagreement; a puzzle the
//! program wrote no line for is unanswered.
//!
//! Any program may be pointed at, so every run of it is contained:
//!
//! - **Output**: stdout is read in chunks, never more than [`LINE_MAX`]
//!   bytes (64 KiB) per line and `(k + 1) × LINE_MAX` in all for a run on
//!   `k` puzzles; past either bound the program is killed and its row fails
//!   saying so (`printed more than ... bytes`). Of stderr only the last
//!   [`STDERR_KEPT`] bytes are kept, for a failure message.
//! - **Processes**: each run leads a process group of its own; when it ends
//!   (by itself or killed) the group is killed, and, as `sudoflow bench` is
//!   a child subreaper, so is every process that left the group (see
//!   [`contain`]): no process outlives its run.
//! - **Time**: every run has a limit, and so has every phase:
//!
//! 1. **Start-up**: the program is run three times on an empty input; the
//!    fastest run is its start-up time, reported apart (`startup_ms`). A run
//!    that fails (exit 127: the command is missing), floods its output or
//!    does not exit within `max(--validate-time, --time-budget)` gives the row a
//!    failure that says why.
//! 2. **Validation**: batches of 1, 2, 4, ... puzzles in file order, each in
//!    a fresh process that may take `grace + k × --time-budget` for `k` puzzles,
//!    `grace` being `2 × start-up + 50 ms` (so the budget holds on average
//!    over a batch, and a program that buffers its output until the end is
//!    not penalised). When a batch runs out, the process group is killed,
//!    the first puzzle without a line counts as a timeout, and validation
//!    stops there; a run that wrote a line for every puzzle but had not
//!    exited fails the row (a run is timed to its exit). A program that
//!    exits without a line for some puzzles is not waited on: those
//!    puzzles are unanswered, and validation goes on with the next batch. Validation stops, after the first batch, once
//!    `--validate-time` has been spent, and the whole phase ends
//!    `max(--validate-time, grace + --time-budget)` after it began: a batch
//!    still running then is killed, and its puzzles without a line are left
//!    out (not validated, not timeouts), unless the program had been on the
//!    first of them longer than a run on one puzzle may take (`grace +
//!    --time-budget` since its last line): that one is a timeout.
//! 3. **Timing**: the puzzles answered, from the first, before any puzzle
//!    without a line (and in batches that ended in time) run as one batch,
//!    under the same per-run limit: first untimed, until `--warmup` (wall
//!    time) has passed (a run still going then is killed), then timed,
//!    again and again until `--time` (wall time) has passed, one run at
//!    least. µs/puzzle is `(batch time - start-up) / puzzles`, so it
//!    excludes process start-up. Only runs that exit successfully with a
//!    line for every puzzle are timed; the first one that does not ends
//!    the timing, and when it is the first of all and validation had
//!    every puzzle answered, the row fails saying how it ended.
//!
//! So a program holds `bench` at most `3 × max(V, B)` in start-up,
//! `max(V, grace + B)` in validation and `W + T` plus one run in warm-up and
//! timing (`V`, `B`, `W`, `T`: `--validate-time`, `--time-budget`, `--warmup`,
//! `--time`), and a run at most `grace + k × B`.
//! SIGINT or SIGTERM ([`crate::interrupt`]) kills the running program at
//! once; [`External::bench`] then returns the row measured so far.

pub mod contain;

use super::harness::{check, Config, References, Row, Tally};
use super::Answer;
use crate::grid::Grid;
use crate::interrupt;
use anyhow::Context;
use crossbeam_channel::{unbounded, RecvTimeoutError, Sender};
use std::io::{Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// An outside program given as `NAME=CMD`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct External {
    /// The name shown in the output.
    pub name: String,
    /// The shell command, run with `sh -c`.
    pub command: String,
}

impl std::str::FromStr for External {
    type Err = String;

    /// Parses `NAME=CMD`.
    ///
    /// Errors: no `=`, an empty name or command, or a name holding a
    /// control character (a line end in it broke the table's rows; found
    /// by probing).
    fn from_str(s: &str) -> Result<External, String> {
        if let Some((name, _)) = s.split_once('=') {
            if name.chars().any(char::is_control) {
                return Err(format!(
                    "the name {name:?} holds a control character (a line end, a tab): the \
                     table names each solver on one line"
                ));
            }
        }
        match s.split_once('=') {
            Some((name, command)) if !name.trim().is_empty() && !command.trim().is_empty() => {
                Ok(External {
                    name: name.trim().to_string(),
                    command: command.to_string(),
                })
            }
            _ => Err(format!("expected NAME=CMD, got `{s}`")),
        }
    }
}

/// Most bytes of one line of a program's stdout (an answer is one line of
/// 81 characters): 64 KiB. A run on `k` puzzles may print `(k + 1)` times
/// this in all.
pub const LINE_MAX: usize = 64 * 1024;

/// Most of a program's stderr kept for a failure message, in bytes (the end).
pub const STDERR_KEPT: usize = 2000;

/// How long the main loop waits between looks at the clock, the signal flag
/// and (where no thread watches for it) the program's exit.
const TICK: Duration = Duration::from_millis(20);

/// How long, once a run's processes are all dead, its output may take to
/// drain from the pipes.
const DRAIN_WAIT: Duration = Duration::from_secs(1);

/// How one run of the program ended.
#[derive(Debug)]
enum End {
    /// It exited by itself with this status; `stderr` is the end of what it
    /// wrote there.
    Exited { status: ExitStatus, stderr: String },
    /// It ran past its own limit and was killed.
    Killed,
    /// The phase it ran in came to its end, and it was killed.
    Cut,
    /// It printed more than it may (the reason), and was killed.
    Flooded(String),
    /// SIGINT or SIGTERM came, and it was killed.
    Interrupted,
}

/// One run of the program: the lines it wrote before it ended (at most one
/// per puzzle), and its wall time.
#[derive(Debug)]
struct Run {
    lines: Vec<String>,
    end: End,
    elapsed: Duration,
    /// When its last line came (from its start; zero with no line): how
    /// long the program was on the puzzle after it when the run ended.
    last_line: Duration,
}

impl Run {
    /// True when the run exited successfully with a line for each of `n` puzzles.
    fn complete(&self, n: usize) -> bool {
        matches!(&self.end, End::Exited { status, .. } if status.success()) && self.lines.len() >= n
    }
}

/// What the reader of a run's stdout and the exit watcher report.
enum Event {
    /// One line, without its `\n`.
    Line(String),
    /// Past a bound: what was printed.
    Flood(String),
    /// Stdout is closed (every process holding it closed it or ended).
    Eof,
    /// The program (the shell) has exited.
    Exited,
}

/// Reads `out` in chunks and sends its lines to `tx`, until it ends or
/// breaks a bound: [`LINE_MAX`] bytes a line, `total_max` bytes in all.
fn read_lines(mut out: impl Read, total_max: usize, tx: &Sender<Event>) {
    let mut chunk = vec![0u8; 64 * 1024];
    let mut line = Vec::new();
    let mut total = 0usize;
    let long_line = || {
        Event::Flood(format!(
            "printed a line of more than {LINE_MAX} bytes (an answer is one line)"
        ))
    };
    loop {
        let n = match out.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let mut rest = &chunk[..n];
        while let Some(at) = memchr::memchr(b'\n', rest) {
            line.extend_from_slice(&rest[..at]);
            if line.len() > LINE_MAX {
                let _ = tx.send(long_line());
                return;
            }
            if tx
                .send(Event::Line(String::from_utf8_lossy(&line).into_owned()))
                .is_err()
            {
                return;
            }
            line.clear();
            rest = &rest[at + 1..];
        }
        line.extend_from_slice(rest);
        if line.len() > LINE_MAX {
            let _ = tx.send(long_line());
            return;
        }
        // Checked after the chunk's lines went out: a chunk holds at most
        // 64 KiB, so memory stays bounded all the same.
        total += n;
        if total > total_max {
            let _ = tx.send(Event::Flood(format!(
                "printed more than {total_max} bytes (at most {LINE_MAX} per puzzle and \
                 {LINE_MAX} more)"
            )));
            return;
        }
    }
    if !line.is_empty() {
        let _ = tx.send(Event::Line(String::from_utf8_lossy(&line).into_owned()));
    }
    let _ = tx.send(Event::Eof);
}

/// Reads `err` to its end, keeping the last [`STDERR_KEPT`] bytes.
fn tail_of(mut err: impl Read) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match err.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                kept.extend_from_slice(&chunk[..n]);
                if kept.len() > 2 * STDERR_KEPT {
                    kept.drain(..kept.len() - STDERR_KEPT);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let cut = kept.len().saturating_sub(STDERR_KEPT);
    kept.split_off(cut)
}

/// How the start-up measurement ended.
enum Startup {
    /// The fastest of the runs on an empty input.
    Took(Duration),
    /// A run failed: why.
    Failed(String),
    /// SIGINT or SIGTERM came.
    Interrupted,
}

impl External {
    /// Runs the program once on `input` (`puzzles` puzzles, one per line),
    /// for at most `limit` of wall time, and killed at `cut` if that comes
    /// first; the program's processes are all gone when this returns.
    ///
    /// Errors: the shell cannot be started.
    fn run_batch(
        &self,
        input: &[u8],
        puzzles: usize,
        limit: Duration,
        cut: Option<Instant>,
    ) -> anyhow::Result<Run> {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        contain::prepare(&mut command);
        let start = Instant::now();
        let deadline = start + limit;
        let child = command
            .spawn()
            .with_context(|| format!("cannot start `sh -c {}`", self.command))?;
        let mut tree = contain::Tree::new(child);
        let mut stdin = tree.child().stdin.take().context("no stdin pipe")?;
        let stdout = tree.child().stdout.take().context("no stdout pipe")?;
        let stderr = tree.child().stderr.take().context("no stderr pipe")?;
        // Write, read stdout and read stderr on threads of their own, so
        // that no pipe can block the others. They end once the program's
        // processes are all dead, which `tree.end()` sees to.
        // A thread the system refuses fails the run (`tree`, dropped, ends
        // the program).
        let spawn = |f: Box<dyn FnOnce() + Send>| {
            std::thread::Builder::new()
                .spawn(f)
                .map_err(|e| crate::threads::spawn_error("a thread to talk to the program", e))
        };
        let input = input.to_vec();
        spawn(Box::new(move || {
            // A program that stops reading early closes the pipe: not an error here.
            let _ = stdin.write_all(&input);
        }))?;
        let (tx, rx) = unbounded::<Event>();
        let total_max = (puzzles + 1).saturating_mul(LINE_MAX);
        let out_tx = tx.clone();
        spawn(Box::new(move || read_lines(stdout, total_max, &out_tx)))?;
        let (err_tx, err_rx) = unbounded::<Vec<u8>>();
        spawn(Box::new(move || {
            let _ = err_tx.send(tail_of(stderr));
        }))?;
        // The end of stdout alone does not end a run (a process that left
        // the group may hold it open), nor is it needed (a program may close
        // it and go on): the run ends when the shell exits, seen at once by
        // a thread waiting for it.
        tree.on_exit(move || {
            let _ = tx.send(Event::Exited);
        })
        .map_err(|e| crate::threads::spawn_error("a thread to wait for the program", e))?;
        let end_at = cut.map_or(deadline, |c| c.min(deadline));
        let mut lines = Vec::new();
        let mut last_line = Duration::ZERO;
        let mut stop: Option<End> = None;
        loop {
            if interrupt::requested().is_some() {
                stop = Some(End::Interrupted);
                break;
            }
            let now = Instant::now();
            if now >= deadline {
                stop = Some(End::Killed);
                break;
            }
            if now >= end_at {
                stop = Some(End::Cut);
                break;
            }
            match rx.recv_timeout((end_at - now).min(TICK)) {
                Ok(Event::Line(line)) => {
                    if lines.len() < puzzles {
                        lines.push(line);
                        last_line = start.elapsed();
                    }
                }
                Ok(Event::Flood(why)) => {
                    stop = Some(End::Flooded(why));
                    break;
                }
                Ok(Event::Exited) => break,
                Ok(Event::Eof) | Err(RecvTimeoutError::Timeout) => {
                    if tree.exited() {
                        break;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    std::thread::sleep(TICK);
                    if tree.exited() {
                        break;
                    }
                }
            }
        }
        let elapsed = start.elapsed();
        let status = tree.end();
        // Every process of the run is dead: what is left in the pipe drains
        // at once.
        if !matches!(stop, Some(End::Flooded(_))) {
            let until = Instant::now() + DRAIN_WAIT;
            while let Ok(event) = rx.recv_deadline(until) {
                match event {
                    Event::Line(line) if lines.len() < puzzles => lines.push(line),
                    Event::Line(_) | Event::Exited => {}
                    Event::Flood(why) => {
                        stop = Some(End::Flooded(why));
                        break;
                    }
                    Event::Eof => break,
                }
            }
        }
        // The signal action may have killed the program before the loop saw
        // the flag: its end is the signal's, not a failure of its own.
        if interrupt::requested().is_some() {
            stop = Some(End::Interrupted);
        }
        let end = match (stop, status) {
            (Some(end), _) => end,
            (None, Some(status)) => {
                let stderr = err_rx.recv_timeout(DRAIN_WAIT).unwrap_or_default();
                End::Exited {
                    status,
                    stderr: String::from_utf8_lossy(&stderr).trim().to_string(),
                }
            }
            (None, None) => End::Killed,
        };
        Ok(Run {
            lines,
            end,
            elapsed,
            last_line,
        })
    }

    /// The answer one output line stands for.
    fn answer(line: &str) -> Answer {
        match Grid::parse(line.trim()) {
            Ok(grid) if grid.is_complete() => Answer {
                solution: Some(grid),
                ..Answer::UNKNOWN
            },
            _ => Answer {
                solutions: Some(0),
                ..Answer::UNKNOWN
            },
        }
    }

    /// Why a run failed, if it did by itself (`what`: on which input):
    /// an exit status other than success, or output past its bounds.
    fn failed(run: &Run, what: &str) -> Option<String> {
        match &run.end {
            End::Exited { status, stderr } if !status.success() => {
                let why = if status.code() == Some(127) {
                    " (command not found)"
                } else {
                    ""
                };
                let said = if stderr.is_empty() {
                    String::new()
                } else {
                    format!(": {stderr}")
                };
                Some(format!("{status}{why} {what}{said}"))
            }
            End::Flooded(why) => Some(format!("{why} {what}; killed")),
            _ => None,
        }
    }

    /// Why a timing run on the `n` puzzles validation saw answered (its
    /// limit `limit`) could not be timed, when the first one is not: the
    /// program does the same work again and fails it. `None` after a
    /// signal.
    fn untimed(run: &Run, n: usize, limit: Duration) -> Option<String> {
        let what = format!("on puzzles 1..{n}, which it answered in validation");
        match &run.end {
            End::Interrupted => None,
            End::Exited { status, .. } if status.success() => Some(format!(
                "exited after {} lines {what}: no run timed",
                run.lines.len()
            )),
            End::Exited { .. } | End::Flooded(_) => {
                Self::failed(run, &what).map(|f| f + ": no run timed")
            }
            End::Killed | End::Cut => Some(format!(
                "did not exit within {:.1} s {what} (killed): no run timed",
                limit.as_secs_f64()
            )),
        }
    }

    /// The program's start-up time: the fastest of three runs on an empty
    /// input, each allowed `limit`.
    ///
    /// Errors: the shell cannot be started.
    fn startup(&self, limit: Duration) -> anyhow::Result<Startup> {
        let mut best = Duration::MAX;
        for _ in 0..3 {
            let run = self.run_batch(b"", 0, limit, None)?;
            if let Some(failure) = Self::failed(&run, "on an empty input") {
                return Ok(Startup::Failed(failure));
            }
            match run.end {
                End::Interrupted => return Ok(Startup::Interrupted),
                End::Killed | End::Cut => {
                    return Ok(Startup::Failed(format!(
                        "did not exit within {:.1} s on an empty input (killed)",
                        limit.as_secs_f64()
                    )))
                }
                End::Exited { .. } | End::Flooded(_) => {}
            }
            best = best.min(run.elapsed);
        }
        Ok(Startup::Took(best))
    }

    /// Validates and times the program on `puzzles` (see the module
    /// documentation for how each run and phase is bounded). A program that
    /// cannot be measured gives a row with [`Row::failure`] set; after
    /// SIGINT or SIGTERM ([`interrupt::requested`]) the row holds what was
    /// measured so far.
    ///
    /// Errors: the shell itself cannot be started.
    pub fn bench(
        &self,
        dataset: &str,
        puzzles: &[Grid],
        references: &mut References,
        config: &Config,
    ) -> anyhow::Result<Row> {
        let by = references.by();
        let row = |tally: Tally,
                   startup: Option<Duration>,
                   (runs, timed): (u64, Duration),
                   failure: Option<String>| {
            let mut row = tally.into_row(dataset, &self.name, puzzles.len(), runs, timed, by);
            row.startup_ms = startup.map(|s| s.as_secs_f64() * 1e3);
            row.failure = failure;
            row
        };
        let untimed = (0, Duration::ZERO);
        let startup = match self.startup(config.validate_time.max(config.budget))? {
            Startup::Took(s) => s,
            Startup::Failed(failure) => {
                return Ok(row(Tally::default(), None, untimed, Some(failure)))
            }
            Startup::Interrupted => return Ok(row(Tally::default(), None, untimed, None)),
        };
        // The limit of a run on `k` puzzles.
        let grace = 2 * startup + Duration::from_millis(50);
        let limit_for = |k: usize| grace + config.budget.saturating_mul(k as u32);
        let phase_end = Instant::now() + config.validate_time.max(limit_for(1));
        let limit = references.limit();
        let mut tally = Tally::default();
        let mut spent = Duration::ZERO;
        // Puzzles in the batches that ended in time.
        let mut done = 0usize;
        // Puzzles answered with a line, from the first, before any without.
        let mut prefix = 0usize;
        let mut gap = false;
        let mut k = 1usize;
        while done < puzzles.len() && (done == 0 || spent < config.validate_time) {
            let batch = &puzzles[done..(done + k).min(puzzles.len())];
            let run = self.run_batch(
                &lines_of(batch),
                batch.len(),
                limit_for(batch.len()),
                Some(phase_end),
            )?;
            spent += run.elapsed;
            let what = format!("on puzzles {}..{}", done + 1, done + batch.len());
            if let Some(failure) = Self::failed(&run, &what) {
                return Ok(row(tally, Some(startup), untimed, Some(failure)));
            }
            for (j, puzzle) in batch.iter().enumerate() {
                let i = done + j;
                let answer = match (run.lines.get(j), &run.end) {
                    (Some(line), _) => Self::answer(line),
                    // Past its limit: a timeout, and validation stops here.
                    (None, End::Killed) => Answer {
                        timed_out: true,
                        ..Answer::UNKNOWN
                    },
                    // It exited without a line for this puzzle: unanswered.
                    (None, End::Exited { .. }) => {
                        gap = true;
                        Answer::UNKNOWN
                    }
                    // Cut short by the phase's end after it had been on
                    // this puzzle longer than a run on one may take: a
                    // timeout (it was left out, and a program that hung
                    // inside a long batch read as answering everything).
                    (None, End::Cut)
                        if run.elapsed.saturating_sub(run.last_line) > limit_for(1) =>
                    {
                        Answer {
                            timed_out: true,
                            ..Answer::UNKNOWN
                        }
                    }
                    // Cut short by the phase's end or a signal: not validated.
                    (None, _) => break,
                };
                let verdict = if answer.answered() {
                    let reference = references.get(i, puzzle);
                    check(puzzle, &answer, &reference, limit, false)
                } else {
                    Ok(())
                };
                tally.add(i, puzzle, &answer, verdict);
                if answer.timed_out {
                    break;
                }
                if !gap {
                    prefix += 1;
                }
            }
            if !matches!(run.end, End::Exited { .. }) {
                // Every puzzle answered, and still running at its limit: a
                // run is timed to its exit, so none can be.
                if matches!(run.end, End::Killed) && run.lines.len() == batch.len() {
                    let failure = format!(
                        "answered puzzles {}..{} but did not exit within {:.1} s (killed): a \
                         run is timed to its exit",
                        done + 1,
                        done + batch.len(),
                        limit_for(batch.len()).as_secs_f64()
                    );
                    return Ok(row(tally, Some(startup), untimed, Some(failure)));
                }
                break;
            }
            done += batch.len();
            k *= 2;
        }
        if interrupt::requested().is_some() {
            return Ok(row(tally, Some(startup), untimed, None));
        }
        // Timing: the puzzles answered in time, as one batch per run.
        let timed_set = &puzzles[..prefix.min(done)];
        let n = timed_set.len();
        let (mut runs, mut timed) = (0u64, Duration::ZERO);
        let mut failure = None;
        if n > 0 {
            let input = lines_of(timed_set);
            let what = format!("on puzzles 1..{n}");
            let warm_end = Instant::now() + config.warmup;
            while Instant::now() < warm_end && interrupt::requested().is_none() {
                let run = self.run_batch(&input, n, limit_for(n), Some(warm_end))?;
                failure = Self::failed(&run, &what).filter(|_| matches!(run.end, End::Flooded(_)));
                if !run.complete(n) {
                    break;
                }
            }
            let timing_start = Instant::now();
            let mut batches = 0u32;
            while failure.is_none()
                && interrupt::requested().is_none()
                && (batches == 0 || timing_start.elapsed() < config.time)
            {
                let run = self.run_batch(&input, n, limit_for(n), None)?;
                failure = Self::failed(&run, &what).filter(|_| matches!(run.end, End::Flooded(_)));
                if !run.complete(n) {
                    if batches == 0 && failure.is_none() && !gap {
                        // No run timed, though validation saw every puzzle
                        // answered: the row says why, not only "-". (With
                        // puzzles it left unanswered, the row shows them.)
                        failure = Self::untimed(&run, n, limit_for(n));
                    }
                    break;
                }
                timed += run.elapsed.saturating_sub(startup);
                runs += n as u64;
                batches += 1;
            }
        }
        Ok(row(tally, Some(startup), (runs, timed), failure))
    }
}

/// The puzzles as the program reads them: one 81-character line each.
fn lines_of(puzzles: &[Grid]) -> Vec<u8> {
    let mut input = String::with_capacity(puzzles.len() * 82);
    for p in puzzles {
        p.write_line(&mut input);
        input.push('\n');
    }
    input.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_name_equals_command() {
        let e: External = "mine=./solve --fast".parse().unwrap();
        assert_eq!(e.name, "mine");
        assert_eq!(e.command, "./solve --fast");
        assert!("nocommand".parse::<External>().is_err());
        assert!("=cat".parse::<External>().is_err());
        let err = "a\nb=cat".parse::<External>().unwrap_err();
        assert!(err.contains("holds a control character"), "{err}");
        assert!("a\tb=cat".parse::<External>().is_err());
    }

    #[test]
    fn a_solution_line_is_a_solution_and_anything_else_means_none() {
        let solved =
            "812753649943682175675491283154237896369845721287169534521974368438526917796318452";
        assert!(External::answer(solved).solution.is_some());
        let puzzle =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
        assert_eq!(External::answer(puzzle).solutions, Some(0));
        assert_eq!(External::answer("no solution").solutions, Some(0));
    }

    #[cfg(unix)]
    #[test]
    fn a_run_past_its_limit_is_killed_with_its_children() {
        let e: External = "hang=sleep 1000; echo late".parse().unwrap();
        let start = Instant::now();
        let run = e
            .run_batch(b"", 0, Duration::from_millis(200), None)
            .unwrap();
        assert!(matches!(run.end, End::Killed));
        assert!(run.lines.is_empty());
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[cfg(unix)]
    #[test]
    fn a_run_printing_past_its_bounds_is_killed_and_says_why() {
        let e: External = "flood=yes 123456789".parse().unwrap();
        let run = e.run_batch(b"", 0, Duration::from_secs(30), None).unwrap();
        let End::Flooded(why) = &run.end else {
            panic!("not stopped for flooding: {run:?}");
        };
        assert!(why.starts_with("printed more than 65536 bytes"), "{why}");
        assert!(run.lines.is_empty(), "no line kept for no puzzle");
        let e: External = "line=while true; do printf 1234567890; done"
            .parse()
            .unwrap();
        let run = e
            .run_batch(b"x\n", 1, Duration::from_secs(30), None)
            .unwrap();
        let End::Flooded(why) = &run.end else {
            panic!("not stopped for flooding: {run:?}");
        };
        assert!(
            why.starts_with("printed a line of more than 65536"),
            "{why}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_run_ends_when_the_program_exits_though_a_child_holds_its_stdout() {
        let e: External = "bg=(sleep 1000 &); echo done".parse().unwrap();
        let run = e.run_batch(b"", 1, Duration::from_secs(60), None).unwrap();
        assert!(matches!(run.end, End::Exited { .. }), "{run:?}");
        assert_eq!(run.lines, ["done"]);
        // Output past one line a puzzle is read, bounded, and not kept.
        let e: External = "two=echo a; echo b; echo c".parse().unwrap();
        let run = e.run_batch(b"", 2, Duration::from_secs(60), None).unwrap();
        assert_eq!(run.lines, ["a", "b"]);
        assert!(run.complete(2));
    }

    #[cfg(unix)]
    #[test]
    fn a_missing_command_fails_and_says_so() {
        let e: External = "gone=/nonexistent/solver".parse().unwrap();
        let Startup::Failed(failure) = e.startup(Duration::from_secs(5)).unwrap() else {
            panic!("the start-up of a missing command succeeded");
        };
        assert!(failure.contains("127"), "{failure}");
        assert!(failure.contains("command not found"), "{failure}");
    }
}
