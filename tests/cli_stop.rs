//! Nothing lost under attack (issue 29): the first SIGINT/SIGTERM ends the
//! work on any record at once, however long it would have run, and the rows
//! written are the first ones of the input, whole (point 3); budgets are
//! counted in work, so a run's rows are the same on an idle and on a loaded
//! machine (point 8).
//!
//! The inputs put a few quick puzzles before records that run for seconds
//! to for ever (the empty grid counted with no cap; SE ratings of two of
//! hardest_1106's slowest puzzles with a budget of an hour; canonical forms
//! of 81 equal digits, the search's worst case): a signal then lands while
//! a slow record is being worked on, whose row, and every later one, must
//! not be written. The harness waits up to 30 s for the exit (a run that
//! finished its records first would take minutes, or for ever); nothing
//! here asserts a duration.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("sudoflow")
}

/// Three puzzles that `count`, `rate` and `canon` finish in microseconds
/// (ER 1.2, 1.5, 2.0).
const QUICK: [&str; 3] = [
    "....2.34.8...1...9..3..9.85.....1...2.68.37...5.........1..426......6.58..5......",
    "8..15...7.3....4.95..6...........5.33...6.........4..16..81..9..1...6.2..25......",
    "9..1..7...8..7.1...6........4..1...8.....83..2....6.5......39.1..92...3...5..1..2",
];

/// Two of hardest_1106's slowest puzzles for SE's rating (ER 11.7): each
/// takes 14-19 s of CPU on the reference host without a budget.
const SLOW_TO_RATE: [&str; 2] = [
    "..8...5...4...2.9.7.......3.2...4......93.......2.1.6.5.......8.1.6...2...3...7..",
    "..3...5...7...4.6.8.......9.4...7......45.......2.1.7.5.......3.1.7...2...9...8..",
];

/// The empty grid: 6.67e21 solutions, so counting them with no cap never
/// ends.
fn empty() -> String {
    ".".repeat(81)
}

fn partial(out: &Path) -> PathBuf {
    PathBuf::from(format!("{}.partial", out.display()))
}

fn write_input(dir: &Path, lines: &[String]) -> PathBuf {
    let path = dir.join("in.txt");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// CPU time (user and system, all threads) that process `pid` has used:
/// fields 14 and 15 of `/proc/PID/stat`, in clock ticks; zero once it is
/// gone.
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // After the command name's closing parenthesis, field 3 (the state)
    // comes first.
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: u64 = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .map(|v| v.parse::<u64>().unwrap())
        .sum();
    // SAFETY: sysconf only reads a system constant.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Duration::from_millis(ticks * 1000 / per_second)
}

/// Polls `ready` every 5 ms until it holds. Fails if the run `child`
/// (`sudoflow ARGS`) ends first; kills it and fails if `limit_s` seconds
/// pass from `start` (so that work which may never end is not left running).
fn wait_for(
    child: &mut Child,
    args: &[&str],
    start: Instant,
    limit_s: u64,
    what: &str,
    mut ready: impl FnMut() -> bool,
) {
    while !ready() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "{args:?} ended before it could be stopped"
        );
        if start.elapsed() > Duration::from_secs(limit_s) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{args:?} did not {what} in {limit_s} s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Sends `sig` to `child` (`what`, for messages) and waits up to 30 s for
/// it to end (else kills it and fails): its exit code and stderr.
fn signal_and_wait(child: &mut Child, sig: &str, what: &str) -> (i32, String) {
    let ok = std::process::Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill {sig} failed");
    wait_after(child, sig, what)
}

/// Waits up to 30 s for `child` (`what`), sent `sig`, to end (else kills it
/// and fails): its exit code (-1 for none) and stderr.
fn wait_after(child: &mut Child, sig: &str, what: &str) -> (i32, String) {
    let signalled = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if signalled.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{what} still running 30 s after {sig}: the signal did not stop its work");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.code().unwrap_or(-1), err)
}

/// Starts `sudoflow ARGS -o out`, waits until it has created the output and
/// used 400 ms of CPU time (so that it works on the slow record: the quick
/// ones take microseconds, and CPU time, unlike a wall-clock wait, is not
/// shortened by a loaded machine), sends `sig`, and waits up to 30 s for it
/// to end (else kills it and fails): its exit code and stderr.
fn stop(args: &[&str], out: &Path, sig: &str) -> (i32, String) {
    let mut child: Child = std::process::Command::new(bin())
        .args(args)
        .arg("-o")
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    wait_for(
        &mut child,
        args,
        start,
        30,
        "create its output file",
        || partial(out).exists(),
    );
    let id = child.id();
    wait_for(
        &mut child,
        args,
        start,
        120,
        "use 400 ms of CPU time",
        || cpu_time(id) >= Duration::from_millis(400),
    );
    assert!(
        child.try_wait().unwrap().is_none(),
        "{args:?} ended before it could be stopped"
    );
    signal_and_wait(&mut child, sig, &format!("{args:?}"))
}

/// The rows of `out`'s partial file, checked: the line `header`, then
/// whole rows numbered 1, 2, 3, ... (the first ones of the input, in
/// order).
fn kept_rows(out: &Path, header: &str) -> Vec<csv::StringRecord> {
    let text = std::fs::read(partial(out)).unwrap();
    assert!(
        text.starts_with(format!("{header}\n").as_bytes()),
        "the partial file lacks its header: {:?}",
        String::from_utf8_lossy(&text)
    );
    assert_eq!(text.last(), Some(&b'\n'), "the partial file ends in a row");
    let mut rdr = csv::Reader::from_reader(&text[..]);
    let columns = rdr.headers().unwrap().len();
    let rows: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), columns, "row {}", k + 1);
        assert_eq!(&row[0], (k + 1).to_string(), "rows out of order: {rows:?}");
    }
    rows
}

const COUNT_HEADER: &str = "index,puzzle,status,solutions,error";

/// `count` of the empty grid (no `--max`) after three quick puzzles, with
/// two more after it: SIGTERM ends the run, the three quick rows are kept
/// and nothing after them; a resume starts from there and stops the same
/// way.
fn count_stops(threads: &str) {
    let dir = tempfile::tempdir().unwrap();
    let mut lines: Vec<String> = QUICK.iter().map(|p| p.to_string()).collect();
    lines.push(empty());
    lines.extend(QUICK[..2].iter().map(|p| p.to_string()));
    let input = write_input(dir.path(), &lines);
    let out = dir.path().join("counts.csv");
    let args = ["count", "-q", "-j", threads, input.to_str().unwrap()];
    let (code, err) = stop(&args, &out, "-TERM");
    assert_eq!(code, 143, "{err}");
    assert!(!out.exists());
    let rows = kept_rows(&out, COUNT_HEADER);
    assert_eq!(
        rows.len(),
        3,
        "the quick records' rows, not the empty grid's: {rows:?}"
    );
    assert!(rows.iter().all(|r| &r[2] == "unique"), "{rows:?}");
    let (code, err) = stop(&[&args[..], &["--resume"]].concat(), &out, "-INT");
    assert_eq!(code, 130, "{err}");
    assert_eq!(kept_rows(&out, COUNT_HEADER), rows);
}

#[test]
fn a_signal_stops_a_count_that_would_never_end_with_one_thread() {
    count_stops("1");
}

#[test]
fn a_signal_stops_a_count_that_would_never_end_with_two_threads() {
    count_stops("2");
}

/// A second signal right after the first (issue 29: it left a 0-byte
/// partial file, the header never written): the run exits at once, and the
/// partial file holds the header (written when the file is made) and
/// nothing but whole rows of the first records, whatever the moment; a
/// resume then completes the run.
#[test]
fn a_second_signal_keeps_the_header() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines: Vec<String> = QUICK.iter().map(|p| p.to_string()).collect();
    lines.push(empty());
    let input = write_input(dir.path(), &lines);
    for (k, wait_ms) in [0u64, 30, 400].into_iter().enumerate() {
        let out = dir.path().join(format!("counts{k}.csv"));
        let mut child = std::process::Command::new(bin())
            .args(["count", "-q", "-j", "1", input.to_str().unwrap(), "-o"])
            .arg(&out)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while !partial(&out).exists() {
            assert!(start.elapsed() < Duration::from_secs(30), "no output file");
            std::thread::sleep(Duration::from_millis(2));
        }
        std::thread::sleep(Duration::from_millis(wait_ms));
        for _ in 0..2 {
            let ok = std::process::Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status()
                .unwrap()
                .success();
            assert!(ok);
        }
        assert_eq!(child.wait().unwrap().code(), Some(143));
        let text = std::fs::read(partial(&out)).unwrap();
        assert!(
            text.starts_with(format!("{COUNT_HEADER}\n").as_bytes()),
            "after {wait_ms} ms: {:?}",
            String::from_utf8_lossy(&text)
        );
        // Whole rows of the quick records, if any reached the file.
        let whole = &text[..text.iter().rposition(|&b| b == b'\n').unwrap() + 1];
        let mut rdr = csv::Reader::from_reader(whole);
        for (i, row) in rdr.records().enumerate() {
            let row = row.unwrap();
            assert_eq!(&row[0], (i + 1).to_string());
            assert_eq!(&row[2], "unique");
        }
        // The resume goes on (and is stopped in its turn: the count of the
        // empty grid never ends), keeping the three quick rows.
        let (code, err) = stop(
            &[
                "count",
                "-q",
                "-j",
                "1",
                input.to_str().unwrap(),
                "--resume",
            ],
            &out,
            "-INT",
        );
        assert_eq!(code, 130, "{err}");
        assert_eq!(kept_rows(&out, COUNT_HEADER).len(), 3);
    }
}

/// `cmd` (`rate`, or `solve --se`) on two quick puzzles, then the two slow
/// ones, then a quick one, with a budget of an hour: SIGTERM while the slow
/// ones are rated keeps the two quick rows only.
fn rating_stops(cmd: &[&str], header_start: &str, threads: &str) {
    let dir = tempfile::tempdir().unwrap();
    let mut lines: Vec<String> = QUICK[..2].iter().map(|p| p.to_string()).collect();
    lines.extend(SLOW_TO_RATE.iter().map(|p| p.to_string()));
    lines.push(QUICK[2].to_string());
    let input = write_input(dir.path(), &lines);
    let out = dir.path().join("rated.csv");
    let args = [cmd, &["-q", "-j", threads, input.to_str().unwrap()]].concat();
    let (code, err) = stop(&args, &out, "-TERM");
    assert_eq!(code, 143, "{err}");
    let text = std::fs::read_to_string(partial(&out)).unwrap();
    let header = text.lines().next().unwrap_or_default().to_string();
    assert!(header.starts_with(header_start), "{header}");
    let rows = kept_rows(&out, &header);
    assert_eq!(rows.len(), 2, "the quick records' rows only: {rows:?}");
}

#[test]
fn a_signal_stops_a_long_rating_with_one_thread() {
    rating_stops(
        &["rate", "--time-budget", "1h"],
        "index,puzzle,status,er",
        "1",
    );
}

#[test]
fn a_signal_stops_a_long_rating_with_two_threads() {
    rating_stops(
        &["rate", "--time-budget", "1h"],
        "index,puzzle,status,er",
        "2",
    );
}

#[test]
fn a_signal_stops_solve_se_on_a_long_rating_with_two_threads() {
    // Two threads over a regular file: the path where each thread formats
    // its own rows.
    rating_stops(
        &["solve", "--se", "--se-budget", "1h"],
        "index,puzzle,status,solutions",
        "2",
    );
}

/// `canon` of 200 copies of 81 equal digits (every one of the 3,359,232
/// position maps ties: a quarter of a second each on the reference host):
/// a signal stops the work at the record under way, not at the end of the
/// batch of 64 records that one thread reads at a time.
fn canon_stops(threads: &str) {
    let dir = tempfile::tempdir().unwrap();
    let lines = vec!["1".repeat(81); 200];
    let input = write_input(dir.path(), &lines);
    let out = dir.path().join("forms.csv");
    let args = ["canon", "-q", "-j", threads, input.to_str().unwrap()];
    let (code, err) = stop(&args, &out, "-TERM");
    assert_eq!(code, 143, "{err}");
    let rows = kept_rows(
        &out,
        "index,puzzle,canonical,automorphisms,class_index,error",
    );
    assert!(
        rows.len() < 64,
        "{} rows: the batch was finished",
        rows.len()
    );
}

#[test]
fn a_signal_stops_canon_at_the_record_under_way_with_one_thread() {
    canon_stops("1");
}

#[test]
fn a_signal_stops_canon_at_the_record_under_way_with_two_threads() {
    canon_stops("2");
}

/// Runs `args` (output on stdout) with `load` busy threads spinning in this
/// process meanwhile: its stdout.
fn run_loaded(args: &[&str], input: &Path, load: usize) -> String {
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..load {
            scope.spawn(|| {
                let mut x = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            });
        }
        let out = assert_cmd::Command::new(bin())
            .args(args)
            .arg(input)
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        stop.store(true, Ordering::Relaxed);
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    })
}

/// Point 8: a rating and a count that run out of their budget stop at the
/// same point, and so write the same row, on an idle machine and beside
/// three busy threads (which halve this process's share of two cores).
/// With wall-clock budgets the rating stopped after 2-4 steps idle and 0-1
/// loaded.
#[test]
fn rows_cut_by_a_budget_are_the_same_on_a_loaded_machine() {
    let dir = tempfile::tempdir().unwrap();
    let rate_in = write_input(dir.path(), &[SLOW_TO_RATE[0].to_string()]);
    let rate = ["rate", "-q", "-j", "1", "--time-budget", "300ms"];
    let idle = run_loaded(&rate, &rate_in, 0);
    assert!(
        idle.contains(",timeout,") && idle.contains("stopped after"),
        "{idle}"
    );
    let count_in = dir.path().join("empty.txt");
    std::fs::write(&count_in, empty() + "\n").unwrap();
    let count = ["count", "-q", "-j", "1", "--time-budget", "0.2"];
    let counted = run_loaded(&count, &count_in, 0);
    assert!(counted.contains(",timeout,"), "{counted}");
    assert_eq!(run_loaded(&rate, &rate_in, 3), idle, "3 busy threads");
    assert_eq!(run_loaded(&count, &count_in, 3), counted, "3 busy threads");
}

/// `solve -j THREADS INPUTS... -o FILE`, its stdin a pipe fed `feed` and
/// then left open and idle: once QUICK's three rows are in the partial
/// file, `sig` must end the run at once (exit `code`) with them.
fn stops_while_waiting(threads: &str, inputs: &[PathBuf], feed: &str, sig: &str, code: i32) {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rows.csv");
    let args = ["solve", "-q", "-j", threads];
    let mut child: Child = std::process::Command::new(bin())
        .args(args)
        .args(inputs)
        .arg("-o")
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Held open (not dropped) until the run has ended.
    let mut producer = child.stdin.take().unwrap();
    producer.write_all(feed.as_bytes()).unwrap();
    producer.flush().unwrap();
    let start = Instant::now();
    wait_for(&mut child, &args, start, 60, "write the three rows", || {
        std::fs::read_to_string(partial(&out)).is_ok_and(|t| t.lines().count() == 4)
    });
    let (status, err) = signal_and_wait(&mut child, sig, &format!("{args:?} {inputs:?}"));
    drop(producer);
    assert_eq!(status, code, "{err}");
    assert!(!out.exists());
    let rows = kept_rows(&out, &sudoflow::output::SOLVE_HEADER.join(","));
    let puzzles: Vec<&str> = rows.iter().map(|r| r.get(1).unwrap()).collect();
    assert_eq!(puzzles, QUICK, "{err}");
}

/// `solve` fed by a producer that has written three puzzles and then
/// stalls, its pipe left open: once the three rows are written, `sig`
/// ends the run at once with them (found by probing: the read of the idle
/// pipe went on through the signal, restarted by its handler, and the run
/// ended only when the input did).
fn idle_pipe_stops(threads: &str, sig: &str, code: i32) {
    stops_while_waiting(threads, &[], &(QUICK.join("\n") + "\n"), sig, code);
}

/// `solve FILE FIFO` (or `FILE -` on an idle pipe), the FIFO with no
/// writer yet: the file's rows are written while the run waits, and one
/// `sig` ends it with them. Found by probing: the open of the FIFO waited
/// in the kernel through the first signal (only a second one ended the
/// run, with the header alone), and the file's records waited unwritten.
fn waiting_second_input_stops(threads: &str, fifo: bool, sig: &str, code: i32) {
    let dir = tempfile::tempdir().unwrap();
    let first = write_input(dir.path(), &QUICK.map(String::from));
    let second = if fifo {
        let path = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap()
            .success());
        path
    } else {
        PathBuf::from("-")
    };
    stops_while_waiting(threads, &[first, second], "", sig, code);
}

#[test]
fn a_signal_stops_a_run_waiting_for_a_fifos_writer() {
    waiting_second_input_stops("1", true, "-TERM", 143);
    waiting_second_input_stops("2", true, "-INT", 130);
}

#[test]
fn a_file_s_rows_are_written_while_the_next_input_waits() {
    waiting_second_input_stops("2", false, "-TERM", 143);
}

#[test]
fn a_signal_stops_a_run_waiting_on_an_idle_pipe_with_one_thread() {
    idle_pipe_stops("1", "-TERM", 143);
}

#[test]
fn a_signal_stops_a_run_waiting_on_an_idle_pipe_with_two_threads() {
    idle_pipe_stops("2", "-INT", 130);
}

/// Ctrl-C to a pipeline (`producer | sudoflow solve - -o FILE`): the signal
/// goes to the whole process group, the producer dies and the input ends
/// at the same moment. The run is a stopped one (exit 130, FILE not
/// made), never a complete run of the records before the signal (seen once
/// in CI: the run met the input's end before its own handler ran, exit 0).
#[test]
fn ctrl_c_to_a_pipeline_stops_the_run_though_the_input_ends_with_it() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/sample.txt");
    for round in 0..10 {
        let out = dir.path().join(format!("out-{round}.csv"));
        let script = format!(
            "(cat '{}'; sleep 60) | '{}' solve -q - -o '{}'",
            input.display(),
            bin().display(),
            out.display()
        );
        let mut child = std::process::Command::new("sh")
            .args(["-c", &script])
            .process_group(0)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let since = Instant::now();
        while !partial(&out).exists() {
            assert!(since.elapsed() < Duration::from_secs(30), "no partial file");
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(50));
        // The whole group, as a terminal's Ctrl-C.
        let group = format!("-{}", child.id());
        assert!(std::process::Command::new("kill")
            .args(["-INT", "--", &group])
            .status()
            .unwrap()
            .success());
        let (code, err) = wait_after(&mut child, "-INT", "the pipeline");
        assert!(!out.exists(), "round {round}: {err}");
        assert!(
            err.contains("stopped by SIGINT") || code == 130,
            "round {round}: exit {code}: {err}"
        );
    }
}
