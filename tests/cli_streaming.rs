//! Rows as they are ready (issue 13): with input arriving slowly on a pipe,
//! each record's row comes out before the next record is written, so the
//! tool works as a line-by-line filter or a co-process; and a few slow
//! records spread over the workers. Each runs the binary as a user would.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const INKALA_SOLUTION: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

/// Runs `sudoflow ARGS` as a co-process: writes one puzzle, waits for its
/// row, writes the next (the pipe stays open all along), then closes stdin.
/// Each row must arrive while the tool still waits for more input.
fn co_process(args: &[&str], puzzle: &str) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoflow"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let wait = Duration::from_secs(20);
    for i in 1..=3 {
        writeln!(stdin, "{puzzle}").unwrap();
        stdin.flush().unwrap();
        let mut row = rx.recv_timeout(wait).unwrap_or_else(|_| {
            let _ = child.kill();
            panic!("{args:?}: no row for record {i} while the pipe stays open")
        });
        if row.starts_with("index,") {
            row = rx.recv_timeout(wait).expect("a row after the header");
        }
        assert!(
            row.starts_with(&format!("{i},{puzzle},")),
            "{args:?}: {row}"
        );
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn solve_is_a_line_by_line_filter_with_one_or_more_workers() {
    co_process(&["solve", "-q", "-j", "1"], INKALA);
    co_process(&["solve", "-q", "-j", "2"], INKALA);
}

#[test]
fn count_and_rate_are_line_by_line_filters_too() {
    co_process(&["count", "-q", "-j", "2"], INKALA);
    // Inkala's puzzle with its first row blanked: naked singles only, quick to rate.
    let easy = format!("{}{}", ".".repeat(9), &INKALA_SOLUTION[9..]);
    co_process(&["rate", "-q", "-j", "1"], &easy);
}

#[test]
fn a_file_gives_the_same_rows_as_a_slow_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    let lines: Vec<String> = (0..50)
        .map(|i| {
            if i % 7 == 3 {
                "12x".to_string()
            } else {
                INKALA.to_string()
            }
        })
        .collect();
    std::fs::write(&file, lines.join("\n")).unwrap();
    // The file as stdin, so that both runs name the source `<stdin>`.
    let from_file = Command::new(env!("CARGO_BIN_EXE_sudoflow"))
        .args(["solve", "-q", "-j", "2"])
        .stdin(std::fs::File::open(&file).unwrap())
        .output()
        .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoflow"))
        .args(["solve", "-q", "-j", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for (i, line) in lines.iter().enumerate() {
        write!(stdin, "{line}").unwrap();
        if i + 1 < lines.len() {
            writeln!(stdin).unwrap();
        }
        stdin.flush().unwrap();
        if i % 10 == 0 {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    drop(stdin);
    let from_pipe = child.wait_with_output().unwrap();
    let from_file = String::from_utf8(from_file.stdout).unwrap();
    assert_eq!(String::from_utf8(from_pipe.stdout).unwrap(), from_file);
    assert!(from_file.contains(INKALA_SOLUTION));
    assert_eq!(from_file.lines().count(), 51);
}

/// Six records that each use their whole 1 s wall-clock limit (the empty
/// grid has too many solutions to count), on two workers: one batch
/// holding all six would take 6 s; spread over both workers they take 3 s.
/// The bound (5 s) is far from both, so the test checks how the work is
/// split, not speed. (`--time-budget` is counted in work: how long it
/// lasts depends on the binary's speed and the machine's load.)
#[test]
fn a_few_slow_records_spread_over_the_workers() {
    let empty = ".".repeat(81);
    let input = format!("{}\n", vec![empty; 6].join("\n"));
    let start = Instant::now();
    let out = assert_cmd::Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["count", "-q", "-j", "2", "--wall-limit", "1"])
        .write_stdin(input)
        .output()
        .unwrap();
    let took = start.elapsed();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches(",timeout,").count(), 6, "{text}");
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

/// A slow run's rows reach a pipe at least once a second, as they reach a
/// file: `count ... | head -2` ran to the end of its input (rows held in
/// the buffer, so the reader's going was never seen), and a reader that
/// takes the first rows waited for all of them. Here 1,000 empty grids
/// counted to 200,000 (about 30 s at -j 1): the first rows come within
/// seconds, and once the reader has gone the run ends.
#[test]
fn a_slow_run_flushes_stdout_and_ends_soon_after_its_reader_goes() {
    let input = format!("{}\n", ".".repeat(81)).repeat(1000);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("slow.txt");
    std::fs::write(&path, input).unwrap();
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoflow"))
        .args(["count", "-q", "-j", "1", "--limit", "200000"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut rows = BufReader::new(child.stdout.take().unwrap());
    for want in ["index,", "1,"] {
        let mut line = String::new();
        rows.read_line(&mut line).unwrap();
        assert!(line.starts_with(want), "{line:?}");
    }
    let first = started.elapsed();
    assert!(first < Duration::from_secs(15), "first row after {first:?}");
    drop(rows);
    let gone = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            gone.elapsed() < Duration::from_secs(15),
            "still running 15 s after its reader went"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
}
