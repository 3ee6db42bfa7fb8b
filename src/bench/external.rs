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
//! Any program may be pointed at, so every run of it is bounded:
//!
//! 1. **Start-up**: the program is run three times on an empty input; the
//!    fastest run is its start-up time, reported apart (`startup_ms`). A run
//!    that fails (exit 127: the command is missing) or does not exit within
//!    `max(--validate-time, --budget)` gives the row a failure that says why.
//! 2. **Validation**: batches of 1, 2, 4, ... puzzles in file order, each in
//!    a fresh process that may take `2 × start-up + 50 ms + k × --budget` for
//!    `k` puzzles (so the budget holds on average over a batch, and a program
//!    that buffers its output until the end is not penalised). When a batch
//!    runs out, the process group is killed, the first puzzle without a line
//!    counts as a timeout, and validation stops there. It also stops, after
//!    at least one batch, once `--validate-time` has been spent.
//! 3. **Timing**: the puzzles validated before any timeout run as one batch,
//!    again and again, under the same limit; µs/puzzle is `(batch time -
//!    start-up) / puzzles`, so it excludes process start-up.

use super::harness::{check, Config, References, Row, Tally};
use super::Answer;
use crate::grid::Grid;
use anyhow::Context;
use crossbeam_channel::{unbounded, RecvTimeoutError};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

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
    /// Errors: no `=`, or an empty name or command.
    fn from_str(s: &str) -> Result<External, String> {
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

/// How one run of the program ended.
#[derive(Debug)]
enum End {
    /// It exited by itself with this status; `stderr` is the end of what it
    /// wrote there.
    Exited { status: ExitStatus, stderr: String },
    /// It ran past its limit and its process group was killed.
    Killed,
}

/// One run of the program: the lines it wrote before it ended, and its wall time.
#[derive(Debug)]
struct Run {
    lines: Vec<String>,
    end: End,
    elapsed: Duration,
}

/// Most of a program's stderr kept for a failure message, in bytes.
const STDERR_KEPT: usize = 2000;

/// Kills the process group the child leads (its shell and everything the
/// shell started), then reaps the child.
fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    {
        // SAFETY: kill(2) with a negative pid signals that process group;
        // the child was spawned as the leader of a group of its own, and it
        // has not been reaped (so its id is not reused yet).
        unsafe {
            libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

impl External {
    /// Runs the program once on `input` (puzzles, one per line), for at most
    /// `limit` of wall time.
    ///
    /// Errors: the shell cannot be started.
    fn run_batch(&self, input: &[u8], limit: Duration) -> anyhow::Result<Run> {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            // A group of its own, so that a timeout kills the shell's
            // children too (`sh -c 'sleep 1000'`).
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let start = Instant::now();
        let deadline = start + limit;
        let mut child = command
            .spawn()
            .with_context(|| format!("cannot start `sh -c {}`", self.command))?;
        let mut stdin = child.stdin.take().context("no stdin pipe")?;
        let stdout = child.stdout.take().context("no stdout pipe")?;
        let mut stderr = child.stderr.take().context("no stderr pipe")?;
        // Write, read stdout and read stderr on threads of their own, so
        // that no pipe can block the others; the threads are not joined
        // after a kill (a grandchild that left the group may hold a pipe).
        let input = input.to_vec();
        std::thread::spawn(move || {
            // A program that stops reading early closes the pipe: not an error here.
            let _ = stdin.write_all(&input);
        });
        let (line_tx, line_rx) = unbounded::<String>();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).split(b'\n') {
                let Ok(line) = line else { break };
                if line_tx
                    .send(String::from_utf8_lossy(&line).into_owned())
                    .is_err()
                {
                    break;
                }
            }
        });
        let (err_tx, err_rx) = unbounded::<Vec<u8>>();
        std::thread::spawn(move || {
            let mut all = Vec::new();
            let _ = (&mut stderr).take(1 << 20).read_to_end(&mut all);
            let _ = err_tx.send(all);
        });
        let mut lines = Vec::new();
        // Lines until stdout ends, or until the program has exited and its
        // output has had a moment to drain: the end of stdout alone is not
        // to be trusted, since another process (a grandchild that left the
        // group, or one forked while the pipe was open) may still hold its
        // write end, which would hold this loop until the deadline.
        let mut exited_at: Option<Instant> = None;
        loop {
            let now = Instant::now();
            let left = deadline.saturating_duration_since(now);
            let step = left.min(Duration::from_millis(20));
            match line_rx.recv_timeout(step) {
                Ok(line) => lines.push(line),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) if left.is_zero() => {
                    kill_group(&mut child);
                    return Ok(Run {
                        lines,
                        end: End::Killed,
                        elapsed: start.elapsed(),
                    });
                }
                Err(RecvTimeoutError::Timeout) => match exited_at {
                    Some(t) if now.duration_since(t) >= Duration::from_millis(100) => break,
                    Some(_) => {}
                    None => {
                        if matches!(child.try_wait(), Ok(Some(_))) {
                            exited_at = Some(now);
                        }
                    }
                },
            }
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let status = match child.wait_timeout(left) {
            Ok(Some(status)) => status,
            _ => {
                kill_group(&mut child);
                return Ok(Run {
                    lines,
                    end: End::Killed,
                    elapsed: start.elapsed(),
                });
            }
        };
        let elapsed = start.elapsed();
        let stderr = err_rx
            .recv_timeout(Duration::from_millis(100))
            .unwrap_or_default();
        let tail = &stderr[stderr.len().saturating_sub(STDERR_KEPT)..];
        Ok(Run {
            lines,
            end: End::Exited {
                status,
                stderr: String::from_utf8_lossy(tail).trim().to_string(),
            },
            elapsed,
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

    /// Why a run that exited by itself failed, if it did.
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
            _ => None,
        }
    }

    /// The program's start-up time: the fastest of three runs on an empty
    /// input, each allowed `limit`.
    ///
    /// Errors: (as the failure text) a run fails or does not exit in time.
    fn startup(&self, limit: Duration) -> anyhow::Result<Result<Duration, String>> {
        let mut best = Duration::MAX;
        for _ in 0..3 {
            let run = self.run_batch(b"", limit)?;
            if let Some(failure) = Self::failed(&run, "on an empty input") {
                return Ok(Err(failure));
            }
            if matches!(run.end, End::Killed) {
                return Ok(Err(format!(
                    "did not exit within {:.1} s on an empty input (killed)",
                    limit.as_secs_f64()
                )));
            }
            best = best.min(run.elapsed);
        }
        Ok(Ok(best))
    }

    /// Validates and times the program on `puzzles` (see the module
    /// documentation for how each run is bounded). A program that cannot be
    /// measured gives a row with [`Row::failure`] set.
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
        let failed_row = |tally: Tally, startup: Option<Duration>, failure: String| {
            let mut row = tally.into_row(dataset, &self.name, puzzles.len(), 0, Duration::ZERO, by);
            row.startup_ms = startup.map(|s| s.as_secs_f64() * 1e3);
            row.failure = Some(failure);
            row
        };
        let startup = match self.startup(config.validate_time.max(config.budget))? {
            Ok(s) => s,
            Err(failure) => return Ok(failed_row(Tally::default(), None, failure)),
        };
        // The limit of a batch of `k` puzzles.
        let limit_for = |k: usize| {
            2 * startup + Duration::from_millis(50) + config.budget.saturating_mul(k as u32)
        };
        let limit = references.limit();
        let mut tally = Tally::default();
        let mut spent = Duration::ZERO;
        let mut done = 0usize;
        // Puzzles validated before the first timeout: the ones timed.
        let mut in_time = 0usize;
        let mut k = 1usize;
        while done < puzzles.len() && (done == 0 || spent < config.validate_time) {
            let batch = &puzzles[done..(done + k).min(puzzles.len())];
            let run = self.run_batch(&lines_of(batch), limit_for(batch.len()))?;
            spent += run.elapsed;
            if let Some(failure) = Self::failed(&run, &format!("on puzzles {}..", done + 1)) {
                return Ok(failed_row(tally, Some(startup), failure));
            }
            let killed = matches!(run.end, End::Killed);
            for (j, puzzle) in batch.iter().enumerate() {
                let i = done + j;
                let reference = references.get(i, puzzle);
                let (answer, verdict) = match run.lines.get(j) {
                    Some(line) => {
                        let answer = Self::answer(line);
                        let verdict = check(puzzle, &answer, &reference, limit, false);
                        (answer, verdict)
                    }
                    None if killed => (
                        Answer {
                            timed_out: true,
                            ..Answer::UNKNOWN
                        },
                        Ok(()),
                    ),
                    // It exited without a line for this puzzle: unanswered.
                    None => (Answer::UNKNOWN, Ok(())),
                };
                tally.add(i, puzzle, &answer, verdict);
                if killed && run.lines.get(j).is_none() {
                    break;
                }
            }
            if killed {
                break;
            }
            done += batch.len();
            in_time = done;
            k *= 2;
        }
        // Timing: the puzzles answered in time, as one batch per run.
        let timed_set = &puzzles[..in_time];
        let (mut runs, mut timed) = (0u64, Duration::ZERO);
        if !timed_set.is_empty() {
            let input = lines_of(timed_set);
            let limit = limit_for(timed_set.len());
            let warm_start = Instant::now();
            while warm_start.elapsed() < config.warmup {
                if matches!(self.run_batch(&input, limit)?.end, End::Killed) {
                    break;
                }
            }
            let mut batches = 0u32;
            while timed < config.time || batches == 0 {
                let run = self.run_batch(&input, limit)?;
                if matches!(run.end, End::Killed) {
                    break;
                }
                timed += run.elapsed.saturating_sub(startup);
                runs += timed_set.len() as u64;
                batches += 1;
                if timed.is_zero() && batches > 1000 {
                    break;
                }
            }
        }
        let mut row = tally.into_row(dataset, &self.name, puzzles.len(), runs, timed, by);
        row.startup_ms = Some(startup.as_secs_f64() * 1e3);
        Ok(row)
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
        let run = e.run_batch(b"", Duration::from_millis(200)).unwrap();
        assert!(matches!(run.end, End::Killed));
        assert!(run.lines.is_empty());
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[cfg(unix)]
    #[test]
    fn a_missing_command_fails_and_says_so() {
        let e: External = "gone=/nonexistent/solver".parse().unwrap();
        let failure = e.startup(Duration::from_secs(5)).unwrap().unwrap_err();
        assert!(failure.contains("127"), "{failure}");
        assert!(failure.contains("command not found"), "{failure}");
    }
}
