//! The binary on a terminal (issue 13, "Help that matches the tool"): run
//! under a pseudo-terminal, as a user at a shell runs it. With the CSV on
//! the terminal no progress bar is drawn between its rows; with only stderr
//! on the terminal the bar is drawn; with stdin on the terminal the tool says
//! it reads puzzles from there, and reads what is typed.

#![cfg(unix)]

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// A pseudo-terminal of 24 rows and 80 columns: (master, slave).
fn openpty() -> (File, OwnedFd) {
    let mut master = 0;
    let mut slave = 0;
    let size = libc::winsize {
        ws_row: 24,
        ws_col: 80,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: two valid out-pointers, no name buffer, default terminal
    // settings, a valid window size.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            &size,
        )
    };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // Not inherited by the processes other tests start meanwhile (their
    // copies would keep the terminal open after our child exits).
    for fd in [master, slave] {
        // SAFETY: fcntl on a descriptor just opened.
        assert_eq!(
            unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) },
            0
        );
    }
    // SAFETY: openpty returned two open descriptors that nothing else owns.
    unsafe { (File::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}

/// Everything written to the terminal `master` until the last process
/// holding its other end exits (reads then fail with EIO), on a thread.
fn collect(mut master: File) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut all = Vec::new();
        let mut chunk = [0u8; 4096];
        while let Ok(n) = master.read(&mut chunk) {
            if n == 0 {
                break;
            }
            all.extend_from_slice(&chunk[..n]);
        }
        let _ = tx.send(all);
    });
    rx
}

/// Runs `command` (stdin and stdout null) with stderr on a terminal; it must
/// succeed. Returns what it wrote there.
fn stderr_on_a_terminal(mut command: Command) -> String {
    let (master, slave) = openpty();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(slave))
        .spawn()
        .unwrap();
    // The command holds its copy of the terminal until dropped: the reads
    // end only once no process but the child's holds it.
    drop(command);
    let err = collect(master);
    assert!(child.wait().unwrap().success());
    String::from_utf8_lossy(&err.recv_timeout(Duration::from_secs(30)).unwrap()).into_owned()
}

fn sudoflow() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoflow"))
}

/// Records that take about `seconds` in all on one worker: empty grids,
/// each counted for 0.25 s of wall time (`--wall-limit`, so the bar has
/// time to draw whatever the binary's speed).
fn slow_input(dir: &std::path::Path, seconds: u32) -> std::path::PathBuf {
    let path = dir.join("slow.txt");
    let line = ".".repeat(81);
    let text: String = (0..seconds * 4).map(|_| format!("{line}\n")).collect();
    std::fs::write(&path, text).unwrap();
    path
}

/// The progress bar's text: `00:00:01 ####---- 12.5 KiB/25 KiB 50% (eta 1s)
/// 3 records, 4 records/s` (the final summary, `8 records (8 timeout) in
/// 2.01 s, 4 records/s`, has no comma after "records").
const BAR: &str = " records, ";

/// `sudoflow count` with stdout and stderr both on one terminal: the CSV
/// rows come through whole, one per line, and no bar is drawn among them.
#[test]
fn no_progress_bar_between_csv_rows_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let input = slow_input(dir.path(), 2);
    let (master, slave) = openpty();
    let mut child = sudoflow()
        .args(["count", "-j", "1", "--wall-limit", "0.25"])
        .arg(&input)
        .stdin(Stdio::null())
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave))
        .spawn()
        .unwrap();
    let out = collect(master);
    assert!(child.wait().unwrap().success());
    let text = String::from_utf8(out.recv_timeout(Duration::from_secs(30)).unwrap()).unwrap();
    assert!(!text.contains(BAR), "a bar on the terminal: {text:?}");
    // The terminal turns each `\n` into `\r\n`; nothing else is between.
    let lines: Vec<&str> = text
        .split("\r\n")
        .filter(|l| !l.is_empty() && !l.starts_with("sudoflow: 8 records"))
        .collect();
    assert_eq!(lines.len(), 1 + 8, "{text:?}");
    assert!(lines[0].starts_with("index,puzzle,status"), "{text:?}");
    for (i, line) in lines[1..].iter().enumerate() {
        assert!(
            line.starts_with(&format!("{},{},timeout,", i + 1, ".".repeat(81))),
            "row {i}: {line:?}"
        );
    }
}

/// With the CSV going to a file and stderr on a terminal, the bar is drawn
/// on stderr (so the test above would see one if it were drawn), and the
/// file holds the rows alone.
#[test]
fn the_progress_bar_is_drawn_when_only_stderr_is_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let input = slow_input(dir.path(), 2);
    let output = dir.path().join("out.csv");
    let mut count = sudoflow();
    count
        .args(["count", "-j", "1", "--wall-limit", "0.25"])
        .arg(&input)
        .arg("-o")
        .arg(&output);
    let text = stderr_on_a_terminal(count);
    assert!(text.contains(BAR), "no bar on the terminal: {text:?}");
    // A regular file: the bar is its bytes read against its size, with the
    // percentage and the time left (issue 30).
    let size = std::fs::metadata(&input).unwrap().len();
    assert!(
        text.contains(&format!("/{size} B")) && text.contains('%') && text.contains("eta"),
        "no total, percentage or eta: {text:?}"
    );
    let csv = std::fs::read_to_string(&output).unwrap();
    assert_eq!(csv.lines().count(), 1 + 8);
    assert!(!csv.contains(BAR));
}

/// Stdin on a terminal and no input file: a note says where the puzzles are
/// read from (the tool would otherwise seem to hang); a typed puzzle, then
/// Ctrl-D, is solved.
#[test]
fn stdin_on_a_terminal_is_announced_and_read() {
    let (mut master, slave) = openpty();
    let reader = master.try_clone().unwrap();
    let mut child = sudoflow()
        .arg("solve")
        .stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::piped())
        .stderr(Stdio::from(slave))
        .spawn()
        .unwrap();
    let echoed = collect(reader);
    // The note comes before anything is typed.
    let puzzle =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    let start = Instant::now();
    let mut stdout = child.stdout.take().unwrap();
    // Type the puzzle, then Ctrl-D on an empty line: the end of input.
    thread::sleep(Duration::from_millis(300));
    master.write_all(format!("{puzzle}\n").as_bytes()).unwrap();
    thread::sleep(Duration::from_millis(100));
    master.write_all(&[4]).unwrap();
    let mut csv = String::new();
    stdout.read_to_string(&mut csv).unwrap();
    assert!(child.wait().unwrap().success());
    assert!(start.elapsed() < Duration::from_secs(30));
    drop(master);
    let terminal = String::from_utf8_lossy(&echoed.recv_timeout(Duration::from_secs(30)).unwrap())
        .into_owned();
    assert!(
        terminal.contains("sudoflow: reading puzzles from stdin"),
        "no note on the terminal: {terminal:?}"
    );
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 2, "{csv:?}");
    assert!(
        rows[1].starts_with(&format!("1,{puzzle},unique,")),
        "{csv:?}"
    );
}

/// Stdin from a file: no note (the same run, stdin not a terminal).
#[test]
fn no_note_when_stdin_is_not_a_terminal() {
    let mut solve = sudoflow();
    solve.arg("solve");
    let text = stderr_on_a_terminal(solve);
    assert!(!text.contains("reading puzzles from stdin"), "{text:?}");
}
