//! `--external NAME=CMD`: time an outside program as a solver.
//!
//! Protocol: `sh -c CMD` reads every puzzle on stdin, one per line (81
//! characters, `.` for a blank), and writes one line per puzzle on stdout, in
//! order: the solution (81 digits), or anything else for "no solution". A
//! solution line is taken as "found this solution" (no count); any other line
//! as a claim that the puzzle has no solution. Both are validated like the
//! built-in solvers' answers. The program is timed as whole batches (process
//! start to exit), so its startup cost is included.

use super::harness::{check, Config, References, Row, Tally};
use super::Answer;
use crate::grid::Grid;
use anyhow::{bail, Context};
use std::io::Write;
use std::process::{Command, Stdio};
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

impl External {
    /// Runs the program once on `input` (the puzzles, one per line) and
    /// returns its stdout.
    ///
    /// Errors: the shell cannot be started, stdout is not UTF-8, or the program
    /// exits with a failure status (the message quotes its stderr).
    fn run_batch(&self, input: &[u8]) -> anyhow::Result<String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot start `sh -c {}`", self.command))?;
        let mut stdin = child.stdin.take().context("no stdin pipe")?;
        let input = input.to_vec();
        // Write from another thread so a program that answers as it reads
        // cannot block on a full stdout pipe while we block on its stdin.
        let writer = std::thread::spawn(move || {
            // A program that stops reading early closes the pipe: not an error here.
            let _ = stdin.write_all(&input);
        });
        let output = child
            .wait_with_output()
            .context("waiting for the external solver")?;
        let _ = writer.join();
        if !output.status.success() {
            bail!(
                "external solver `{}` failed ({}): {}",
                self.name,
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            );
        }
        let out = String::from_utf8(output.stdout)
            .with_context(|| format!("external solver `{}`: stdout is not UTF-8", self.name))?;
        Ok(out)
    }

    /// The answer one output line stands for.
    fn answer(line: Option<&str>) -> Answer {
        match line.map(str::trim).and_then(|l| Grid::parse(l).ok()) {
            Some(grid) if grid.is_complete() => Answer {
                solution: Some(grid),
                ..Answer::UNKNOWN
            },
            _ => Answer {
                solutions: Some(0),
                ..Answer::UNKNOWN
            },
        }
    }

    /// Validates and times the program on `puzzles`, as [`super::harness::run`]
    /// does for built-in solvers, but one batch of all puzzles at a time.
    ///
    /// Errors: the program cannot be run or fails (see `run_batch`).
    pub fn bench(
        &self,
        dataset: &str,
        puzzles: &[Grid],
        references: &mut References,
        config: &Config,
    ) -> anyhow::Result<Row> {
        let mut input = String::with_capacity(puzzles.len() * 82);
        for p in puzzles {
            p.write_line(&mut input);
            input.push('\n');
        }
        let limit = references.limit();
        let output = self.run_batch(input.as_bytes())?;
        let mut lines = output.lines();
        let mut tally = Tally::default();
        for (i, puzzle) in puzzles.iter().enumerate() {
            let line = lines.next();
            let answer = Self::answer(line);
            let reference = references.get(i, puzzle);
            let verdict = match line {
                None => Err("the program wrote no line for it".to_string()),
                Some(_) => check(puzzle, &answer, &reference, limit, false),
            };
            tally.add(i, puzzle, &answer, verdict);
        }
        let warm_start = Instant::now();
        while warm_start.elapsed() < config.warmup {
            self.run_batch(input.as_bytes())?;
        }
        let mut timed = Duration::ZERO;
        let mut runs = 0u64;
        while timed < config.time || runs == 0 {
            let start = Instant::now();
            self.run_batch(input.as_bytes())?;
            timed += start.elapsed();
            runs += puzzles.len() as u64;
            if puzzles.is_empty() {
                break;
            }
        }
        Ok(tally.into_row(dataset, &self.name, puzzles.len(), runs, timed))
    }
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
        assert!(External::answer(Some(solved)).solution.is_some());
        let puzzle =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
        assert_eq!(External::answer(Some(puzzle)).solutions, Some(0));
        assert_eq!(External::answer(Some("no solution")).solutions, Some(0));
    }
}
