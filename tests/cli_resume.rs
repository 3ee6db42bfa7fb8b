//! Long runs end to end: atomic `-o`, `--resume` after kills and signals,
//! refused resumes (issue 12).
//!
//! The input is the 17-clue set (run `make datasets` first) twenty times over,
//! with a few invalid records (commas, quotes) spread through it, so that a
//! kill lands mid-run and kept rows of every kind are checked on resume.
//! Every resumed output is compared byte for byte with an uninterrupted run's.

use assert_cmd::Command;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Duration;
use sudoflow::datasets;

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("sudoflow")
}

/// The big input: 17-clue ×20 with an invalid record every 7,000 lines,
/// some 980,000 records (80 MB; the release binary solves them in about a
/// second with two threads: 3 copies took 0.14 s, which a signal sent after
/// the first rows could miss), and the bytes of its uninterrupted
/// `solve -j 1` (200 MB). Made once for all the tests of this binary, in
/// cargo's temporary directory for tests, so that tests running side by
/// side do not each hold a copy on disk (a CI machine ran out of space).
/// Tests only read it; one that changes its input uses `big_input_copy`.
struct Big {
    input: PathBuf,
    want: Vec<u8>,
    /// The uninterrupted `solve -j 1` run's wall time.
    took: Duration,
}

fn big() -> &'static Big {
    static BIG: std::sync::OnceLock<Big> = std::sync::OnceLock::new();
    BIG.get_or_init(|| {
        let set = datasets::public_path(datasets::SEVENTEEN_CLUE).expect("make datasets");
        let text = std::fs::read_to_string(set).unwrap();
        let mut out = String::new();
        let mut n = 0;
        for _ in 0..20 {
            for line in text.lines() {
                n += 1;
                if n % 7000 == 0 {
                    out.push_str("12,3\"4 not a puzzle\n");
                }
                out.push_str(line);
                out.push('\n');
            }
        }
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
        std::fs::create_dir_all(dir).unwrap();
        let input = dir.join("cli_resume_big.txt");
        // Written aside and renamed, so that another run of this binary
        // never reads a half-written file.
        let aside = dir.join(format!("cli_resume_big.txt.{}", std::process::id()));
        std::fs::write(&aside, out).unwrap();
        std::fs::rename(&aside, &input).unwrap();
        let reference = dir.join(format!("cli_resume_ref.{}.csv", std::process::id()));
        let started = std::time::Instant::now();
        let want = uninterrupted("solve", &[], &input, &reference);
        let took = started.elapsed();
        std::fs::remove_file(&reference).unwrap();
        Big { input, want, took }
    })
}

/// An uninterrupted `CMD -q -j 1 EXTRA... INPUT -o OUT`: the bytes of `out`.
fn uninterrupted(cmd: &str, extra: &[&str], input: &Path, out: &Path) -> Vec<u8> {
    Command::new(bin())
        .args([cmd, "-q", "-j", "1"])
        .args(extra)
        .arg(input)
        .arg("-o")
        .arg(out)
        .assert()
        .success();
    std::fs::read(out).unwrap()
}

/// The big input (read only).
fn big_input() -> PathBuf {
    big().input.clone()
}

/// A copy of the big input in `dir`, for a test that changes it.
fn big_input_copy(dir: &Path) -> PathBuf {
    let path = dir.join("big.txt");
    std::fs::copy(big_input(), &path).unwrap();
    path
}

/// The bytes of an uninterrupted `solve -j 1` of the big input.
fn reference() -> &'static [u8] {
    &big().want
}

fn partial(out: &Path) -> PathBuf {
    PathBuf::from(format!("{}.partial", out.display()))
}

fn sidecar(out: &Path) -> PathBuf {
    PathBuf::from(format!("{}.partial.json", out.display()))
}

/// Checkpoints every 20 ms instead of every second (a test hook), so that
/// runs killed after a few hundred milliseconds have some to resume from.
const FLUSH_MS: (&str, &str) = ("SUDOFLOW_TEST_FLUSH_MS", "20");

fn spawn(args: &[&str]) -> Child {
    std::process::Command::new(bin())
        .env(FLUSH_MS.0, FLUSH_MS.1)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn signal(child: &Child, sig: &str) {
    let ok = std::process::Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill {sig} failed");
}

/// Waits until `out.partial` holds at least one row after the header, so a
/// signal lands after the run has started writing. Panics if the run ends
/// first.
fn wait_for_rows(child: &mut Child, out: &Path) {
    for _ in 0..2000 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it could be stopped"
        );
        let text = std::fs::read(partial(out)).unwrap_or_default();
        if text.iter().filter(|&&b| b == b'\n').count() >= 2 {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!("no rows after 4 s");
}

/// The last checkpoint in the sidecar of `out`, if any: `(bytes, records,
/// rows)`.
fn last_checkpoint(out: &Path) -> Option<(u64, u64, u64)> {
    let text = std::fs::read(sidecar(out)).ok()?;
    serde_json::Deserializer::from_slice(&text)
        .into_iter::<serde_json::Value>()
        .map_while(Result::ok)
        .filter_map(|v| {
            Some((
                v.get("bytes")?.as_u64()?,
                v.get("records")?.as_u64()?,
                v.get("rows")?.as_u64()?,
            ))
        })
        .last()
}

/// Waits until the sidecar of `out` has a checkpoint past `records`
/// records, or `child` ends; returns the checkpoint's records (or `None`
/// if the run ended first). Panics after 60 s.
fn wait_for_checkpoint(child: &mut Child, out: &Path, records: u64) -> Option<u64> {
    for _ in 0..30_000 {
        if let Some((_, r, _)) = last_checkpoint(out).filter(|c| c.1 > records) {
            return Some(r);
        }
        if child.try_wait().unwrap().is_some() {
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!("no checkpoint past {records} records in 60 s");
}

/// The rows of a CSV file, checked to be whole: the text ends with `\n`
/// and every row has the header's number of fields and index = row number.
fn whole_rows(text: &[u8]) -> usize {
    assert_eq!(text.last(), Some(&b'\n'), "the output ends inside a row");
    let mut rdr = csv::Reader::from_reader(text);
    let columns = rdr.headers().unwrap().len();
    let mut rows = 0;
    for (k, row) in rdr.records().enumerate() {
        let row = row.unwrap();
        assert_eq!(row.len(), columns, "row {}", k + 1);
        assert_eq!(row[0], (k + 1).to_string());
        rows += 1;
    }
    rows
}

#[test]
fn a_killed_run_leaves_no_file_and_an_older_file_stays() {
    let dir = tempfile::tempdir().unwrap();
    let input = big_input();
    let out = dir.path().join("out.csv");
    std::fs::write(&out, "an older output\n").unwrap();
    let mut child = spawn(&[
        "solve",
        "-j",
        "2",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    wait_for_rows(&mut child, &out);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "an older output\n");
    assert!(partial(&out).exists() && sidecar(&out).exists());

    // A new run without --resume does not overwrite the interrupted run's rows.
    let kept = std::fs::read(partial(&out)).unwrap();
    let err = solve_fails(&[], &input, &out);
    assert!(
        err.contains("out.csv.partial exists") && err.contains("--resume"),
        "{err}"
    );
    assert_eq!(std::fs::read(partial(&out)).unwrap(), kept);

    // --resume completes it: the same bytes as an uninterrupted run, and the
    // partial file and its sidecar are gone.
    Command::new(bin())
        .args(["solve", "-q", "--resume"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    assert_eq!(std::fs::read(&out).unwrap(), reference());
    assert!(!partial(&out).exists() && !sidecar(&out).exists());
}

/// Kills `solve -j threads` with SIGKILL at random moments (each resumed run
/// after the first too), then resumes to the end.
/// Runs `args` (a run with `--resume` into `out`) up to four times, killing
/// each (SIGKILL) after a random delay within `within` ms, until one run
/// completes by itself, checking that no killed run left `out`; then runs
/// it once more to the end and checks that `out` holds `want`, the bytes of
/// an uninterrupted run, and that no partial file or sidecar is left. The
/// delays come from a random seed, named in every failure.
fn kill_and_resume(args: &[&str], out: &Path, within: u64, want: &[u8]) {
    let seed: u64 = rand::random();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut kills = Vec::new();
    for _ in 0..4 {
        let mut child = spawn(args);
        // Past start-up (a few ms), somewhere in the first third of a run.
        let delay = Duration::from_millis(rng.gen_range(5..within));
        std::thread::sleep(delay);
        if child.try_wait().unwrap().is_some() {
            break;
        }
        child.kill().unwrap();
        // A run may complete between the look above and the kill: then it
        // exited by itself (status 0, FILE in place), and the loop is over.
        if child.wait().unwrap().success() {
            break;
        }
        let rows =
            std::fs::read(partial(out)).map_or(0, |t| t.iter().filter(|&&b| b == b'\n').count());
        kills.push((delay, rows));
        assert!(
            !out.exists(),
            "seed {seed}: a killed run left {}",
            out.display()
        );
    }
    assert!(!kills.is_empty(), "seed {seed}: no run was killed");
    Command::new(bin()).args(args).assert().success();
    assert!(
        std::fs::read(out).unwrap() == want,
        "seed {seed}, kills (delay, lines in the partial file) {kills:?}: the resumed \
         output differs from the uninterrupted run's"
    );
    assert!(!partial(out).exists() && !sidecar(out).exists());
}

fn resume_after_kills(threads: &str) {
    let dir = tempfile::tempdir().unwrap();
    let input = big_input();
    let want = reference();
    // Kills land within the first third of an uninterrupted -j 1 run's time
    // (the release binary's run is a few hundred ms, the ci build's longer),
    // so the first run at least is stopped part-way with -j 2 too.
    let within = (big().took.as_millis() as u64 / 3).max(6);
    let out = dir.path().join("out.csv");
    let args = [
        "solve",
        "-q",
        "-j",
        threads,
        "--batch-size",
        "256",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--resume",
    ];
    kill_and_resume(&args, &out, within, want);
}

#[test]
fn resume_after_sigkills_is_byte_identical_with_one_thread() {
    resume_after_kills("1");
}

#[test]
fn resume_after_sigkills_is_byte_identical_with_two_threads() {
    resume_after_kills("2");
}

/// `solve` started through `env` with `env_args` (which set the signals'
/// dispositions the run inherits), writing `out`.
fn spawn_solve_through_env(env_args: &[&str], threads: &str, out: &Path) -> Child {
    std::process::Command::new("env")
        .args(env_args)
        .arg(bin())
        .args(["solve", "-j", threads])
        .arg(big_input())
        .arg("-o")
        .arg(out)
        .env(FLUSH_MS.0, FLUSH_MS.1)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// A stop signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT): exit 128 + signal,
/// whole rows in the partial file, a summary line with the command that
/// continues, which finishes the run. The run starts with every signal's
/// default action, whatever the test runner's (a runner under `nohup`
/// ignores SIGHUP, which the run would inherit).
fn stop_with(sig: &str, code: i32, name: &str, threads: &str) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let mut child = spawn_solve_through_env(&["--default-signal"], threads, &out);
    wait_for_rows(&mut child, &out);
    signal(&child, sig);
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr).into_owned();
    assert_eq!(done.status.code(), Some(code), "{err}");
    assert!(!out.exists());
    let rows = whole_rows(&std::fs::read(partial(&out)).unwrap());
    assert!(rows > 0, "{err}");
    let line = err
        .lines()
        .find(|l| l.starts_with(&format!("sudoflow: stopped by {name}: {rows} records")))
        .unwrap_or_else(|| panic!("no summary line for {rows} rows: {err}"));
    let command = line
        .split_once("continue with: ")
        .expect("the summary gives the command")
        .1;
    assert!(command.ends_with(" --resume"), "{command}");
    let resumed = std::process::Command::new("sh")
        .args(["-c", command])
        .output()
        .unwrap();
    assert!(resumed.status.success(), "{resumed:?}");
    let summary = String::from_utf8_lossy(&resumed.stderr);
    assert!(
        summary.contains(&format!("{rows} of them resumed")),
        "{summary}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), reference());
}

#[test]
fn sigint_stops_with_whole_rows_exit_130_and_the_resume_command() {
    stop_with("-INT", 130, "SIGINT", "2");
}

#[test]
fn sigterm_stops_with_whole_rows_exit_143_and_the_resume_command() {
    stop_with("-TERM", 143, "SIGTERM", "1");
}

/// SIGHUP (the terminal closed) and SIGQUIT ended the process by their
/// default action: the rows since the last checkpoint were lost, and under
/// `bench --external` the program being timed was left running.
#[test]
fn sighup_and_sigquit_stop_as_sigterm_does() {
    stop_with("-HUP", 129, "SIGHUP", "2");
    stop_with("-QUIT", 131, "SIGQUIT", "1");
}

/// A run started with SIGHUP ignored (`nohup`) goes on through it, as it
/// asked, and writes every row.
#[test]
fn a_run_started_under_nohup_goes_on_through_sighup() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let mut child = spawn_solve_through_env(&["--ignore-signal=HUP"], "2", &out);
    wait_for_rows(&mut child, &out);
    signal(&child, "-HUP");
    let done = child.wait_with_output().unwrap();
    assert!(done.status.success(), "{done:?}");
    assert_eq!(std::fs::read(&out).unwrap(), reference());
}

#[test]
fn a_second_sigint_exits_at_once_and_the_run_still_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let input = big_input();
    let out = dir.path().join("out.csv");
    let args = [
        "solve",
        "-q",
        "-j",
        "2",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    let mut child = spawn(&args);
    wait_for_rows(&mut child, &out);
    signal(&child, "-INT");
    signal(&child, "-INT");
    let done = child.wait_with_output().unwrap();
    assert_eq!(done.status.code(), Some(130));
    // Said either way: the second signal's note (it said nothing), or the
    // first's summary when its clean stop ended the run before the second.
    let err = String::from_utf8_lossy(&done.stderr);
    assert!(
        err.contains(
            "sudoflow: stopped at once by a second signal: the output ends where the last \
             write left it; with -o FILE, FILE.partial keeps the rows up to its last \
             checkpoint and --resume continues from there"
        ) || err.contains("sudoflow: stopped by SIGINT: "),
        "{err}"
    );
    assert!(!out.exists());
    let mut resume = args.to_vec();
    resume.push("--resume");
    Command::new(bin()).args(resume).assert().success();
    assert_eq!(std::fs::read(&out).unwrap(), reference());
}

/// A Parquet run stopped by two signals is not told that --resume continues
/// it (found by probing): a Parquet file cannot be resumed, and this one
/// has no footer.
#[test]
fn a_second_signal_to_a_parquet_run_says_it_cannot_be_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let input = big_input();
    let out = dir.path().join("out.parquet");
    let mut child = spawn(&[
        "solve",
        "-q",
        "-j",
        "1",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    for _ in 0..2000 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended before the signals"
        );
        if std::fs::metadata(partial(&out)).is_ok_and(|m| m.len() > 0) {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    signal(&child, "-INT");
    signal(&child, "-INT");
    let done = child.wait_with_output().unwrap();
    assert_eq!(done.status.code(), Some(130));
    let err = String::from_utf8_lossy(&done.stderr);
    assert!(
        err.contains(
            "sudoflow: stopped at once by a second signal: the output ends where the last \
             write left it; this run's FILE.partial cannot be resumed (its format cannot): \
             delete it and run again"
        ) || err.contains("sudoflow: stopped by SIGINT: "),
        "{err}"
    );
    assert!(!err.contains("--resume continues"), "{err}");
}

#[test]
fn a_signal_without_o_still_writes_whole_rows_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let input = big_input();
    let stdout = dir.path().join("stdout.csv");
    let child = std::process::Command::new(bin())
        .args(["solve", "-j", "2"])
        .arg(&input)
        .stdout(std::fs::File::create(&stdout).unwrap())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    for _ in 0..2000 {
        if std::fs::metadata(&stdout).unwrap().len() > 100_000 {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    signal(&child, "-TERM");
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(143), "{err}");
    let rows = whole_rows(&std::fs::read(&stdout).unwrap());
    assert!(
        err.contains(&format!("stopped by SIGTERM: {rows} records")),
        "{err}"
    );
    assert!(
        err.contains("use -o FILE, a regular file, to be able to --resume"),
        "{err}"
    );
}

/// An interrupted run's partial file, stopped by SIGINT: (dir, input, out).
/// The input is a copy in `dir` when `own_input` (the test changes it).
fn interrupted_run(own_input: bool) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let input = if own_input {
        big_input_copy(dir.path())
    } else {
        big_input()
    };
    let out = dir.path().join("out.csv");
    let mut child = spawn(&[
        "solve",
        "-j",
        "2",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    wait_for_rows(&mut child, &out);
    signal(&child, "-INT");
    assert_eq!(child.wait().unwrap().code(), Some(130));
    (dir, input, out)
}

/// `--resume` with `extra` arguments must exit 2 saying `why`, leaving the
/// partial file as it was.
/// `solve -q EXTRA... INPUT -o OUT`, which must fail (exit 2): its stderr.
fn solve_fails(extra: &[&str], input: &Path, out: &Path) -> String {
    let err = Command::new(bin())
        .args(["solve", "-q"])
        .args(extra)
        .arg(input)
        .arg("-o")
        .arg(out)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    String::from_utf8_lossy(&err).into_owned()
}

fn refused(input: &Path, out: &Path, extra: &[&str], why: &str) {
    let before = std::fs::read(partial(out)).unwrap();
    let err = solve_fails(&[&["--resume"], extra].concat(), input, out);
    assert!(err.contains("cannot resume") && err.contains(why), "{err}");
    assert_eq!(std::fs::read(partial(out)).unwrap(), before);
    assert!(!out.exists());
}

#[test]
fn a_resume_with_other_options_is_refused_saying_which() {
    let (_dir, input, out) = interrupted_run(false);
    refused(&input, &out, &["--limit", "3"], "--limit was 2, now 3");
    refused(
        &input,
        &out,
        &["--no-guess"],
        "--no-guess was false, now true",
    );
    // Found by probing: another format was read as a damaged file.
    refused(
        &input,
        &out,
        &["--format", "jsonl"],
        "--format was csv, now jsonl",
    );
    // Another command on the same file.
    let err = Command::new(bin())
        .args(["count", "-q", "--resume"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(
        String::from_utf8_lossy(&err).contains("written by `sudoflow solve`, not `sudoflow count`")
    );
    // -j and --batch-size do not shape the rows: that resume goes through.
    Command::new(bin())
        .args(["solve", "-q", "--resume", "-j", "1", "--batch-size", "7"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
}

#[test]
fn a_resume_with_changed_inputs_is_refused_saying_which() {
    let (dir, input, out) = interrupted_run(true);
    // Another path.
    let copy = dir.path().join("copy.txt");
    std::fs::copy(&input, &copy).unwrap();
    refused(&copy, &out, &[], "input 1 was");
    // The same file spelt otherwise: the rows name their records by the
    // path as given (source, errors), so the resumed rows would have named
    // them otherwise than the kept ones (found by probing).
    let spelt = dir.path().join(".").join(input.file_name().unwrap());
    refused(
        &spelt,
        &out,
        &[],
        &format!(
            "input 1 was given as {}, now as {} (the rows name their records by the path as \
             given: give it as before)",
            input.display(),
            spelt.display()
        ),
    );
    // Grown.
    let mtime = std::fs::metadata(&input).unwrap().modified().unwrap();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&input)
        .unwrap();
    f.write_all(b"# one more line\n").unwrap();
    drop(f);
    refused(&input, &out, &[], "bytes, now");
    // Same size and modification time, two records swapped near the start:
    // the fingerprint's first MiB catches it.
    let text = std::fs::read_to_string(&copy).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| !l.starts_with('#')).unwrap();
    lines.swap(at, at + 1);
    let swapped = lines.join("\n") + "\n";
    assert_eq!(swapped.len(), text.len());
    std::fs::write(&input, &swapped).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&input)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    refused(&input, &out, &[], "first MiB changed");
}

/// The first `n` records of the big input.
fn first_records(n: usize) -> Vec<String> {
    std::fs::read_to_string(big_input())
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .take(n)
        .map(String::from)
        .collect()
}

/// What an uninterrupted `solve -q` writes for `records` on its stdin.
fn solved(records: &[String]) -> Vec<u8> {
    Command::new(bin())
        .args(["solve", "-q"])
        .write_stdin(records.join("\n") + "\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone()
}

/// `solve -q -o OUT` reading its stdin, fed `lines` and left waiting for
/// more: the child and its stdin, held open until dropped.
fn solve_fed(out: &Path, lines: &[String]) -> (Child, std::process::ChildStdin) {
    let mut child = std::process::Command::new(bin())
        .env(FLUSH_MS.0, FLUSH_MS.1)
        .args(["solve", "-q", "-o"])
        .arg(out)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all((lines.join("\n") + "\n").as_bytes())
        .unwrap();
    stdin.flush().unwrap();
    (child, stdin)
}

#[test]
fn kept_rows_are_checked_against_the_records_read_again() {
    // A resume whose fingerprint cannot tell (stdin): the rows' own index
    // and puzzle columns catch other records.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let first = first_records(5);
    let stdin_run = |stdin: String| {
        Command::new(bin())
            .args(["solve", "-q", "--resume", "-o"])
            .arg(&out)
            .write_stdin(stdin)
            .assert()
    };
    // A stdin run that read the first five records, wrote their rows and
    // waits for more (its checkpoint says so), killed there; then a torn
    // sixth row after them, as a kill can leave.
    let (mut child, stdin) = solve_fed(&out, &first);
    let five = wait_for_checkpoint(&mut child, &out, 4);
    assert_eq!(
        five,
        Some(5),
        "the rows of five records, flushed as the input waits"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    drop(stdin);
    let mut torn = std::fs::OpenOptions::new()
        .append(true)
        .open(partial(&out))
        .unwrap();
    torn.write_all(b"6,.................1.....2.3......3.2...1.4....")
        .unwrap();
    drop(torn);
    // Records 2 and 1 swapped: refused at row 1.
    let mut other = first.clone();
    other.swap(0, 1);
    let err = stdin_run(other.join("\n") + "\n")
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&err);
    assert!(
        err.contains("row 1 of") && err.contains("record 1 of the inputs (<stdin>:1)"),
        "{err}"
    );
    // Fewer records than rows kept: refused.
    let err = stdin_run(first[..3].join("\n") + "\n")
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(
        String::from_utf8_lossy(&err).contains("more rows than the inputs have records"),
        "{}",
        String::from_utf8_lossy(&err)
    );
    // The same records: the torn sixth row is dropped and redone.
    stdin_run(first.join("\n") + "\n").success();
    assert_eq!(std::fs::read(&out).unwrap(), solved(&first));
}

/// A write that fails part-way (a full disk; here the file-size limit,
/// `ulimit -f`, its signal ignored) leaves the partial file ending inside
/// a row: the resume cuts it back to the last checkpoint that holds and
/// ends byte-identical to an uninterrupted run. Before, the failing run's
/// last checkpoint paired the bytes on disk with rows still in the
/// buffer, and every resume failed on the damaged rows.
#[test]
fn a_write_failing_part_way_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let input = big_input();
    // 40,000 blocks of 512 bytes: 20 MB of the 200 MB of rows.
    let failed = std::process::Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 40000; exec \"$0\" solve -q -j 2 \"$1\" -o \"$2\"")
        .arg(bin())
        .arg(&input)
        .arg(&out)
        .env(FLUSH_MS.0, FLUSH_MS.1)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert_eq!(failed.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("File too large"), "{stderr}");
    assert_eq!(
        std::fs::metadata(partial(&out)).unwrap().len(),
        40_000 * 512
    );
    let (bytes, _, _) = last_checkpoint(&out).unwrap();
    assert!(bytes < 40_000 * 512, "a checkpoint past the rows: {bytes}");
    Command::new(bin())
        .args(["solve", "-q", "-j", "1", "--resume"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    assert!(std::fs::read(&out).unwrap() == reference());
}

/// Runs `script` under `sh` in a mount namespace of the test's own
/// (`unshare -rm`), where it may mount a tmpfs: `$0` is the binary, `$1`,
/// `$2`... are `args`. Its stdout and stderr, once it exited 0.
#[cfg(target_os = "linux")]
fn in_own_mounts(script: &str, args: &[&PathBuf]) -> (String, String) {
    let run = std::process::Command::new("unshare")
        .args(["-rm", "sh", "-c", script])
        .arg(bin())
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(run.status.success(), "{stdout}{stderr}");
    (stdout, stderr)
}

/// A disk too full for even the header (a 4 KiB tmpfs, mounted in a mount
/// namespace of the test's own: `unshare -rm`): the run failed, leaving an
/// empty `FILE.partial` and its sidecar, and the next fresh run to FILE
/// was refused ("holds the rows of an interrupted run"), though the error
/// had not said anything was kept. Now nothing is left, and once there is
/// room the same command runs.
#[cfg(target_os = "linux")]
#[test]
fn a_disk_too_full_for_the_header_leaves_nothing_that_blocks_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, format!("{}\n", ".".repeat(81)).repeat(200)).unwrap();
    let disk = dir.path().join("disk");
    std::fs::create_dir(&disk).unwrap();
    let script = "mount -t tmpfs -o size=4k tmpfs \"$2\" || exit 99; \
                  \"$0\" solve -q \"$1\" -o \"$2/o.csv\"; echo \"full: $? $(ls -A \"$2\")\"; \
                  mount -o remount,size=1m \"$2\" || exit 99; \
                  \"$0\" solve -q \"$1\" -o \"$2/o.csv\"; echo \"room: $? $(ls -A \"$2\")\"";
    let (stdout, stderr) = in_own_mounts(script, &[&input, &disk]);
    assert!(
        stderr.contains("o.csv.partial: No space left on device"),
        "{stderr}"
    );
    assert_eq!(stdout, "full: 2 \nroom: 0 o.csv\n", "{stderr}");
}

/// A disk that fills part-way through a run: the message says that the
/// output needs room, not that the inputs must be read again, and
/// --resume with room continues to the bytes of an uninterrupted run.
/// Before, explain's message named the inputs (its flush after the failed
/// write went through).
#[cfg(target_os = "linux")]
#[test]
fn a_disk_full_part_way_says_the_output_needs_room_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    // Rows of some kilobytes each (a rated path's steps), some larger than
    // the write buffer.
    let set = datasets::public_path(datasets::TOP1465).expect("make datasets");
    let text = std::fs::read_to_string(set).unwrap();
    let head: String = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(200)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&input, head).unwrap();
    let disk = dir.path().join("disk");
    std::fs::create_dir(&disk).unwrap();
    let script = "mount -t tmpfs -o size=64k tmpfs \"$2\" || exit 99; \
                  \"$0\" explain -q -j 1 --format jsonl \"$1\" -o \"$2/e.jsonl\"; echo \"full: $?\"; \
                  mount -o remount,size=4m \"$2\" || exit 99; \
                  \"$0\" explain -q -j 1 --format jsonl \"$1\" -o \"$2/e.jsonl\" --resume; \
                  echo \"room: $?\"; cp \"$2/e.jsonl\" \"$3\"";
    let resumed = dir.path().join("resumed.jsonl");
    let (stdout, stderr) = in_own_mounts(script, &[&input, &disk, &resumed]);
    assert_eq!(stdout, "full: 2\nroom: 0\n", "{stderr}");
    assert!(
        stderr.contains("once the output can be written") && !stderr.contains("inputs read again"),
        "{stderr}"
    );
    let want = Command::new(bin())
        .args(["explain", "-q", "-j", "1", "--format", "jsonl"])
        .arg(&input)
        .output()
        .unwrap()
        .stdout;
    assert!(std::fs::read(&resumed).unwrap() == want);
}

/// A Parquet run whose disk fills (at its last row group and footer, on
/// a 64 KiB tmpfs): found by probing, it said the system's error twice
/// behind "Previous row group writer was not closed", and nothing of the
/// unreadable partial file. Now the error once, what is left and what to
/// do; with room, the run after deleting them writes the whole file.
#[cfg(target_os = "linux")]
#[test]
fn a_parquet_run_on_a_full_disk_says_what_is_left_and_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let set = datasets::public_path(datasets::SEVENTEEN_CLUE).expect("make datasets");
    std::fs::copy(set, &input).unwrap();
    let disk = dir.path().join("disk");
    std::fs::create_dir(&disk).unwrap();
    let script = "mount -t tmpfs -o size=64k tmpfs \"$2\" || exit 99; \
                  \"$0\" solve -q -j 1 \"$1\" -o \"$2/o.parquet\"; echo \"full: $?\"; \
                  mount -o remount,size=8m \"$2\" || exit 99; \
                  rm \"$2/o.parquet.partial\" \"$2/o.parquet.partial.json\"; \
                  \"$0\" solve -q -j 1 \"$1\" -o \"$2/o.parquet\"; echo \"room: $?\"; \
                  ls \"$2\"";
    let (stdout, stderr) = in_own_mounts(script, &[&input, &disk]);
    assert_eq!(stdout, "full: 2\nroom: 0\no.parquet\n", "{stderr}");
    let partial = format!("{}/o.parquet.partial", disk.display());
    assert_eq!(
        stderr.trim_end(),
        format!(
            "sudoflow: error: {partial} is left incomplete and this run cannot be resumed: \
             delete it and {partial}.json, then run again once the output can be written: \
             cannot write {partial}: No space left on device (os error 28)"
        )
    );
}

/// A run that fails before its sidecar is written (a directory in its
/// place) leaves no partial file behind: found by probing, the empty
/// `FILE.partial` it left refused both a fresh run (it "holds an
/// interrupted run's rows") and `--resume` (no sidecar).
#[test]
fn a_run_failing_before_its_sidecar_leaves_nothing_that_blocks_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("f.csv");
    let input = dir.path().join("in.txt");
    std::fs::write(&input, "1........\n").unwrap();
    std::fs::create_dir(sidecar(&out)).unwrap();
    let err = solve_fails(&[], &input, &out);
    assert!(err.contains("Is a directory"), "{err}");
    std::fs::remove_dir(sidecar(&out)).unwrap();
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n != "in.txt")
        .collect();
    assert!(left.is_empty(), "{left:?}");
    Command::new(bin())
        .args(["solve", "-q"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    assert!(out.exists());
}

/// Two runs writing one `-o` at once: the second is refused while the
/// first writes, whether it resumes or not, and the first's rows stay
/// whole. Before, a second fresh run truncated the partial file the first
/// was writing and a second `--resume` appended to it, interleaving both.
#[test]
fn a_second_run_writing_the_same_output_is_refused_while_the_first_writes() {
    let dir = tempfile::tempdir().unwrap();
    let input = big_input();
    let out = dir.path().join("out.csv");
    let first = first_records(5);
    // The first run: four records read, their rows flushed, waiting for
    // more on its stdin.
    let (mut child, mut stdin) = solve_fed(&out, &first[..4]);
    assert_eq!(wait_for_checkpoint(&mut child, &out, 3), Some(4));
    for resume in [false, true] {
        let extra: &[&str] = if resume { &["--resume"] } else { &[] };
        let err = solve_fails(extra, &input, &out);
        assert!(
            err.contains(&format!(
                "{} is being written by another sudoflow run now",
                partial(&out).display()
            )),
            "resume {resume}: {err}"
        );
        assert!(!out.exists());
    }
    // The first run goes on and ends with every row of its records.
    stdin
        .write_all((first[4].to_string() + "\n").as_bytes())
        .unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    assert_eq!(std::fs::read(&out).unwrap(), solved(&first));
    assert!(!partial(&out).exists() && !sidecar(&out).exists());
}

#[test]
fn strict_exit_1_is_complete_but_a_failed_read_keeps_the_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("bad.txt");
    std::fs::write(
        &input,
        "12,3\n.................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...\n",
    )
    .unwrap();
    let out = dir.path().join("out.csv");
    Command::new(bin())
        .args(["solve", "-q", "--strict"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(1);
    assert_eq!(whole_rows(&std::fs::read(&out).unwrap()), 2);
    assert!(!partial(&out).exists() && !sidecar(&out).exists());

    // A gzip input cut short: the rows read are kept in out2.csv.partial,
    // exit 2, and no out2.csv.
    let set = datasets::public_path(datasets::SEVENTEEN_CLUE).expect("make datasets");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&std::fs::read(set).unwrap()).unwrap();
    let gz = gz.finish().unwrap();
    let cut = dir.path().join("cut.txt.gz");
    std::fs::write(&cut, &gz[..30_000]).unwrap();
    let out2 = dir.path().join("out2.csv");
    let err = Command::new(bin())
        .args(["solve", "-q"])
        .arg(&cut)
        .arg("-o")
        .arg(&out2)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&err);
    assert!(
        err.contains("kept in") && err.contains("out2.csv.partial"),
        "{err}"
    );
    assert!(!out2.exists());
    assert!(whole_rows(&std::fs::read(partial(&out2)).unwrap()) > 1000);
}

#[test]
fn generate_resumes_with_its_blank_and_refuses_another() {
    let dir = tempfile::tempdir().unwrap();
    let want = dir.path().join("want.csv");
    let base = [
        "generate", "-q", "-n", "3000", "--seed", "3", "--blank", "0",
    ];
    Command::new(bin())
        .args(base)
        .arg("-o")
        .arg(&want)
        .assert()
        .success();
    let want = std::fs::read(want).unwrap();
    let out = dir.path().join("out.csv");
    let mut child = spawn(&[&base[..], &["-j", "2", "-o", out.to_str().unwrap()]].concat());
    wait_for_rows(&mut child, &out);
    signal(&child, "-INT");
    assert_eq!(child.wait().unwrap().code(), Some(130));
    Command::new(bin())
        .args(&base[..6])
        .args(["--resume", "-o"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--blank was 0, now ."));
    Command::new(bin())
        .args(base)
        .args(["-j", "1", "--resume", "-o"])
        .arg(&out)
        .assert()
        .success();
    assert_eq!(std::fs::read(&out).unwrap(), want);
}

#[test]
fn generate_resumes_the_same_random_stream() {
    let dir = tempfile::tempdir().unwrap();
    let want = dir.path().join("want.csv");
    let base = ["generate", "-q", "-n", "3000"];
    Command::new(bin())
        .args(base)
        .args(["--seed", "11", "-o"])
        .arg(&want)
        .assert()
        .success();
    let want = std::fs::read(want).unwrap();
    // Without --seed: the drawn seed is kept in the sidecar for the resume.
    let out = dir.path().join("out.csv");
    let mut child = spawn(&[
        "generate",
        "-n",
        "3000",
        "-j",
        "2",
        "-o",
        out.to_str().unwrap(),
    ]);
    wait_for_rows(&mut child, &out);
    signal(&child, "-INT");
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(130), "{err}");
    let rows = whole_rows(&std::fs::read(partial(&out)).unwrap());
    let seed: u64 = err
        .split("seed ")
        .nth(1)
        .and_then(|s| s.split(';').next())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| panic!("no seed in {err}"));
    Command::new(bin())
        .args(base)
        .args(["-j", "1", "--resume", "-o"])
        .arg(&out)
        .assert()
        .success();
    let text = std::fs::read(&out).unwrap();
    assert_eq!(whole_rows(&text), 3000, "{rows} rows were kept");
    let again = dir.path().join("again.csv");
    Command::new(bin())
        .args(base)
        .args(["--seed", &seed.to_string(), "-o"])
        .arg(&again)
        .assert()
        .success();
    assert_eq!(text, std::fs::read(again).unwrap());
    // With --seed 11 and a kill: the same bytes as the run above.
    let out = dir.path().join("seeded.csv");
    let args = [
        "generate",
        "-q",
        "-n",
        "3000",
        "--seed",
        "11",
        "-o",
        out.to_str().unwrap(),
        "--resume",
    ];
    let mut child = spawn(&args);
    wait_for_rows(&mut child, &out);
    child.kill().unwrap();
    child.wait().unwrap();
    Command::new(bin())
        .args([
            "generate",
            "-q",
            "-n",
            "3000",
            "--seed",
            "12",
            "-o",
            out.to_str().unwrap(),
            "--resume",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--seed was 11, now 12"));
    Command::new(bin())
        .args([
            "generate",
            "-q",
            "-n",
            "3000",
            "--seed",
            "11",
            "--distinct",
            "-o",
            out.to_str().unwrap(),
            "--resume",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--distinct was false, now true"));
    Command::new(bin()).args(args).assert().success();
    assert_eq!(std::fs::read(&out).unwrap(), want);
}

#[test]
fn special_and_linked_outputs_are_never_renamed_over() {
    let dir = tempfile::tempdir().unwrap();
    let set = datasets::public_path(datasets::HARDEST_1106).expect("make datasets");
    let want = Command::new(bin())
        .args(["solve", "-q"])
        .arg(&set)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    // -o /dev/stdout with stdout sent to a file: written through, and
    // /dev/stdout is still the link it was.
    let before = std::fs::symlink_metadata("/dev/stdout")
        .ok()
        .map(|m| m.file_type());
    let redirected = dir.path().join("redirected.csv");
    std::process::Command::new(bin())
        .args(["solve", "-q", "-o", "/dev/stdout"])
        .arg(&set)
        .stdout(std::fs::File::create(&redirected).unwrap())
        .status()
        .unwrap();
    assert_eq!(std::fs::read(&redirected).unwrap(), want);
    assert_eq!(
        std::fs::symlink_metadata("/dev/stdout")
            .ok()
            .map(|m| m.file_type()),
        before
    );
    assert!(!Path::new("/dev/stdout.partial").exists());
    // A link, to a file there or not yet: the link stays, its file is written.
    std::fs::create_dir(dir.path().join("real")).unwrap();
    for existing in [false, true] {
        let link = dir.path().join(format!("link-{existing}.csv"));
        let file = dir.path().join(format!("real/{existing}.csv"));
        if existing {
            std::fs::write(&file, "old\n").unwrap();
        }
        std::os::unix::fs::symlink(&file, &link).unwrap();
        Command::new(bin())
            .args(["solve", "-q"])
            .arg(&set)
            .arg("-o")
            .arg(&link)
            .assert()
            .success();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&file).unwrap(), want);
    }
}

/// `cmd` on `input` stopped by SIGTERM once rows are written, then resumed:
/// the same bytes as an uninterrupted run.
fn stop_and_resume(cmd: &str, extra: &[&str], input: &Path, dir: &Path) {
    let want = uninterrupted(cmd, extra, input, &dir.join(format!("{cmd}-ref.csv")));
    let out = dir.join(format!("{cmd}.csv"));
    let mut args = vec![cmd, "-q", "-j", "2"];
    args.extend(extra);
    args.extend([input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let mut child = spawn(&args);
    wait_for_rows(&mut child, &out);
    signal(&child, "-TERM");
    assert_eq!(child.wait().unwrap().code(), Some(143));
    assert!(!out.exists());
    // Whole rows only (`canon --distinct`'s indices have gaps, so they are
    // not checked here).
    let text = std::fs::read(partial(&out)).unwrap();
    assert_eq!(
        text.last(),
        Some(&b'\n'),
        "{cmd}: the partial file ends inside a row"
    );
    let kept = text.iter().filter(|&&b| b == b'\n').count() - 1;
    let mut resume = args.clone();
    resume.push("--resume");
    Command::new(bin()).args(resume).assert().success();
    assert_eq!(
        std::fs::read(&out).unwrap(),
        want,
        "{cmd}: {kept} rows kept"
    );
}

/// Copies of `set` (a public set's file name) into `dir/name`, one after
/// another: an input long enough that a run is still going when the test's
/// signal lands (the release binary counts the 17-clue set in 60 ms with two
/// threads, and writes its rows to the file only as its 64 KiB buffer fills).
fn repeated(dir: &Path, set: &str, copies: usize, name: &str) -> PathBuf {
    let path = datasets::public_path(set).expect("make datasets");
    let text = std::fs::read_to_string(path).unwrap();
    let input = dir.join(name);
    std::fs::write(&input, text.repeat(copies)).unwrap();
    input
}

#[test]
fn count_and_rate_resume_too() {
    let dir = tempfile::tempdir().unwrap();
    // About a million records: over a second of counting, some 30 MB of rows.
    let count_input = repeated(dir.path(), datasets::SEVENTEEN_CLUE, 20, "seventeen20.txt");
    stop_and_resume("count", &[], &count_input, dir.path());
    // Rating takes about 2 ms per top1465 puzzle on one core; all 1,465 give
    // some 190 KB of rows, so the file has rows long before the run ends.
    let rate_input = repeated(dir.path(), datasets::TOP1465, 1, "top1465.txt");
    stop_and_resume("rate", &[], &rate_input, dir.path());
}

/// `--blank 0` writes the puzzle column as a Kaggle `quizzes` field: the
/// kept rows are still recognised as the records' puzzles on resume.
#[test]
fn a_run_with_another_blank_resumes_too() {
    let dir = tempfile::tempdir().unwrap();
    let input = big_input();
    stop_and_resume("solve", &["--blank", "0"], &input, dir.path());
}

#[test]
fn generate_distinct_resumes_with_the_kept_classes() {
    // The kept rows' classes are recorded again before generation goes on,
    // so the resumed rows are those of an uninterrupted --distinct run.
    let dir = tempfile::tempdir().unwrap();
    let args = |out: &Path| -> Vec<String> {
        [
            "generate",
            "-q",
            "-n",
            "4000",
            "--seed",
            "5",
            "--distinct",
            "-o",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([out.display().to_string()])
        .collect()
    };
    let want = dir.path().join("want.csv");
    Command::new(bin()).args(args(&want)).assert().success();
    let out = dir.path().join("out.csv");
    let mut child = std::process::Command::new(bin())
        .args(args(&out))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_rows(&mut child, &out);
    child.kill().unwrap();
    child.wait().unwrap();
    Command::new(bin())
        .args(args(&out))
        .arg("--resume")
        .assert()
        .success();
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&want).unwrap());
}

/// The 17-clue puzzles four times over, with a transformed copy of an
/// earlier puzzle after every third one and an invalid record every 5,000:
/// `canon --distinct` writes rows with gaps in their indices, and the later
/// copies are all repeats.
fn canon_input(dir: &Path) -> PathBuf {
    let set = datasets::load_public(datasets::SEVENTEEN_CLUE).expect("make datasets");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
    let mut out = String::new();
    for _ in 0..4 {
        for (i, p) in set.iter().enumerate() {
            out.push_str(&p.to_line());
            out.push('\n');
            if i % 3 == 0 {
                let t = sudoflow::canon::group::random(&mut rng);
                out.push_str(&t.apply(&set[i / 2]).to_line());
                out.push('\n');
            }
            if i % 5000 == 0 {
                out.push_str("12,3\"4 not a puzzle\n");
            }
        }
    }
    let path = dir.join("canon.txt");
    std::fs::write(&path, out).unwrap();
    path
}

#[test]
fn canon_output_is_atomic_and_resumes_after_signals() {
    let dir = tempfile::tempdir().unwrap();
    let input = canon_input(dir.path());
    let out = dir.path().join("stopped.csv");
    std::fs::write(&out, "older\n").unwrap();
    let mut child = spawn(&[
        "canon",
        "-j",
        "2",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    wait_for_rows(&mut child, &out);
    signal(&child, "-INT");
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(130), "{err}");
    assert!(
        err.contains("continue with: ") && err.contains("--resume"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "older\n");
    assert!(whole_rows(&std::fs::read(partial(&out)).unwrap()) > 0);
    // Refused while the partial file is there without --resume.
    Command::new(bin())
        .args(["canon", "-q"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "Add --resume to continue that run",
        ));
    // With --distinct changed: refused, saying so.
    Command::new(bin())
        .args(["canon", "-q", "--distinct", "--resume"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("distinct"));
    Command::new(bin())
        .args(["canon", "-q", "--resume"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    // One row per line; the same bytes as a run never stopped.
    let text = std::fs::read_to_string(&input).unwrap();
    assert_eq!(
        whole_rows(&std::fs::read(&out).unwrap()),
        text.lines().count()
    );
    let want = uninterrupted("canon", &[], &input, &dir.path().join("want.csv"));
    assert_eq!(std::fs::read(&out).unwrap(), want);
    assert!(!partial(&out).exists() && !sidecar(&out).exists());
    // And stopped by SIGTERM, without --distinct and with it.
    for (sub, extra) in [("all", &[][..]), ("distinct", &["--distinct"][..])] {
        let sub = dir.path().join(sub);
        std::fs::create_dir(&sub).unwrap();
        stop_and_resume("canon", extra, &input, &sub);
    }
}

/// `canon --distinct` killed (SIGKILL) at random moments, then resumed:
/// the classes come back from the kept rows, the records between kept rows
/// (repeats) are skipped, and the file is the uninterrupted run's.
#[test]
fn canon_distinct_resumes_after_sigkills() {
    let dir = tempfile::tempdir().unwrap();
    let input = canon_input(dir.path());
    let started = std::time::Instant::now();
    let want = uninterrupted(
        "canon",
        &["--distinct"],
        &input,
        &dir.path().join("want.csv"),
    );
    let within = (started.elapsed().as_millis() as u64 / 3).max(6);
    let out = dir.path().join("out.csv");
    let args = [
        "canon",
        "-q",
        "-j",
        "2",
        "--distinct",
        "--batch-size",
        "256",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--resume",
    ];
    kill_and_resume(&args, &out, within, &want);
}

/// A partial file changed after it was written (issue 29): each kind of
/// damage is found by the checkpoints' hashes, named on stderr with its
/// byte range and rows, and the rows from the last checkpoint before it
/// are redone, so `FILE` is always the uninterrupted run's, byte for byte.
#[test]
fn a_damaged_partial_file_never_reaches_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let input = big_input();
    let want = reference();
    let out = dir.path().join("out.csv");
    let mut child = spawn(&[
        "solve",
        "-j",
        "1",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    // Killed once the checkpoints cover some 60,000 rows.
    let records = wait_for_checkpoint(&mut child, &out, 60_000).expect("still running");
    child.kill().unwrap();
    child.wait().unwrap();
    let (verified, _, _) = last_checkpoint(&out).unwrap();
    let kept = std::fs::read(partial(&out)).unwrap();
    let side = std::fs::read(sidecar(&out)).unwrap();
    // The byte ranges of the rows (after the header) within the verified
    // part.
    let mut rows = Vec::new();
    let mut start = kept.iter().position(|&b| b == b'\n').unwrap() + 1;
    for (i, &b) in kept.iter().enumerate().skip(start) {
        if b == b'\n' && (i as u64) < verified {
            rows.push(start..i + 1);
            start = i + 1;
        }
    }
    assert!(rows.len() as u64 >= records.min(60_000));
    let mid = rows[rows.len() / 2].clone();
    let third = rows[rows.len() / 3].clone();
    let quarter = rows[rows.len() / 4].clone();
    let splice = |at: usize, cut: usize, with: &[u8]| -> Vec<u8> {
        let mut d = kept[..at].to_vec();
        d.extend_from_slice(with);
        d.extend_from_slice(&kept[at + cut..]);
        d
    };
    // The solution column of a row: the fifth field.
    let solution_at = {
        let row = &kept[third.clone()];
        let mut commas = row.iter().enumerate().filter(|(_, &b)| b == b',');
        third.start + commas.nth(3).unwrap().0 + 10
    };
    let flipped = if kept[solution_at] == b'1' {
        b"2"
    } else {
        b"1"
    };
    let attacks: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "an unclosed quote at the end of a middle row",
            splice(mid.end - 1, 0, b"\""),
            "was changed after it was written",
        ),
        (
            "a digit changed in a kept solution",
            splice(solution_at, 1, flipped),
            "was changed after it was written",
        ),
        (
            "an X in a kept solution",
            splice(solution_at, 1, b"X"),
            "was changed after it was written",
        ),
        (
            "a NUL byte",
            splice(quarter.start + 5, 1, b"\0"),
            "was changed after it was written",
        ),
        (
            "a row deleted",
            splice(mid.start, mid.len(), b""),
            "was changed after it was written",
        ),
        (
            "a row repeated",
            splice(mid.start, 0, &kept[mid.clone()]),
            "was changed after it was written",
        ),
        (
            "the file cut inside a row",
            kept[..quarter.start + 7].to_vec(),
            "ends at byte",
        ),
        // Found by probing: the span was said as "rows 1..0".
        (
            "the file emptied",
            Vec::new(),
            "(the header) the file ends at byte 0; keeping what verifies (nothing but the \
             header, 0 bytes)",
        ),
    ];
    for (k, (what, damaged, says)) in attacks.into_iter().enumerate() {
        let out = dir.path().join(format!("out{k}.csv"));
        std::fs::write(partial(&out), &damaged).unwrap();
        std::fs::write(sidecar(&out), &side).unwrap();
        let done = Command::new(bin())
            .args(["solve", "-q", "-j", "2", "--resume"])
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .assert()
            .success();
        let err = String::from_utf8_lossy(&done.get_output().stderr).into_owned();
        assert!(
            err.contains(says) && err.contains("redoing the rest"),
            "{what}: {err}"
        );
        assert!(
            std::fs::read(&out).unwrap() == want,
            "{what}: the resumed output differs from the uninterrupted run's"
        );
    }
    // Undamaged, it resumes from its last checkpoint without a word.
    let done = Command::new(bin())
        .args(["solve", "-q", "-j", "2", "--resume"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    assert_eq!(done.get_output().stderr, b"");
    assert!(std::fs::read(&out).unwrap() == want);
}

/// `canon --distinct` over input whose end is nothing but repeats: no row
/// is written there, but the checkpoints still move on with the records
/// consumed (issue 29: 19 SIGKILLs made no progress), so every run killed
/// after a checkpoint leaves the next one less to do.
#[test]
fn canon_distinct_makes_progress_under_kills_where_only_repeats_remain() {
    let dir = tempfile::tempdir().unwrap();
    let input = repeated(dir.path(), datasets::SEVENTEEN_CLUE, 6, "dup.txt");
    let want = dir.path().join("want.csv");
    Command::new(bin())
        .args(["canon", "-q", "-j", "1", "--distinct"])
        .arg(&input)
        .arg("-o")
        .arg(&want)
        .assert()
        .success();
    let out = dir.path().join("out.csv");
    let args = [
        "canon",
        "-q",
        "-j",
        "2",
        "--distinct",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--resume",
    ];
    let (mut done, mut past_the_rows) = (0u64, false);
    for _ in 0..200 {
        let mut child = spawn(&args);
        // Each run is killed once it has checkpointed 20,000 more records.
        match wait_for_checkpoint(&mut child, &out, done + 20_000) {
            None => {
                assert!(child.wait().unwrap().success());
                break;
            }
            Some(records) => {
                child.kill().unwrap();
                child.wait().unwrap();
                let (_, kept, rows) = last_checkpoint(&out).unwrap();
                assert!(kept > done, "no progress past {done} records");
                past_the_rows |= kept > rows + 50_000;
                done = records.max(kept);
            }
        }
    }
    assert!(out.exists(), "the run never completed");
    assert!(past_the_rows, "no run was killed among the repeats");
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&want).unwrap());
}

/// JSON Lines runs resume like CSV ones (issue 29: the command printed
/// for them was refused); a Parquet run's stop says it cannot be resumed
/// and prints no command, and `--resume` says why.
#[test]
fn jsonl_resumes_and_parquet_says_it_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let input = big_input();
    let want = uninterrupted("solve", &[], &input, &dir.path().join("ref.jsonl"));
    let out = dir.path().join("out.jsonl");
    // Stopped by SIGTERM: the printed command continues the run.
    let mut child = spawn(&[
        "solve",
        "-j",
        "2",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    wait_for_checkpoint(&mut child, &out, 1000).expect("still running");
    signal(&child, "-TERM");
    let stopped = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(143), "{err}");
    let command = err
        .split_once("continue with: ")
        .expect("the summary gives the command")
        .1
        .trim();
    let resumed = std::process::Command::new("sh")
        .args(["-c", command])
        .env(FLUSH_MS.0, FLUSH_MS.1)
        .output()
        .unwrap();
    assert!(resumed.status.success(), "{resumed:?}");
    assert!(std::fs::read(&out).unwrap() == want);
    // And killed (SIGKILL) at random moments.
    std::fs::remove_file(&out).unwrap();
    let args = [
        "solve",
        "-q",
        "-j",
        "2",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--resume",
    ];
    kill_and_resume(&args, &out, 400, &want);

    let parquet = dir.path().join("out.parquet");
    let mut child = spawn(&[
        "solve",
        "-j",
        "2",
        input.to_str().unwrap(),
        "-o",
        parquet.to_str().unwrap(),
    ]);
    wait_for_rows(&mut child, &parquet);
    signal(&child, "-INT");
    let stopped = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(130), "{err}");
    assert!(
        err.contains("cannot be resumed") && !err.contains("continue with"),
        "{err}"
    );
    Command::new(bin())
        .args(["solve", "-q", "--resume"])
        .arg(&input)
        .arg("-o")
        .arg(&parquet)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "a run writing parquet cannot be resumed",
        ));
}

/// `generate` pushes rows to `FILE.partial` as it makes them, not after
/// each chunk of 256 indices (issue 29: 12 s of a slow `--se` run left 0
/// rows, and a SIGKILL lost them all); with `--distinct` too. Then a kill
/// and a resume give the uninterrupted run's file.
#[test]
fn generate_writes_rows_as_it_makes_them() {
    let dir = tempfile::tempdir().unwrap();
    for distinct in [false, true] {
        let out = dir.path().join(format!("g{distinct}.csv"));
        let mut args = vec![
            "generate", "-q", "-n", "300", "--seed", "11", "--se", "7.6..9.0",
        ];
        if distinct {
            args.push("--distinct");
        }
        let out_args = ["-o", out.to_str().unwrap()];
        let mut first = args.clone();
        first.extend(["-j", "1"]);
        first.extend(out_args);
        let mut child = spawn(&first);
        wait_for_rows(&mut child, &out);
        let rows = std::fs::read(partial(&out))
            .unwrap()
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            - 1;
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(
            rows < 256,
            "distinct {distinct}: the first rows seen came as a chunk of {rows}"
        );
        let mut resume = args.clone();
        resume.extend(["-j", "2", "--resume"]);
        resume.extend(out_args);
        Command::new(bin()).args(&resume).assert().success();
        let want = dir.path().join(format!("want{distinct}.csv"));
        let mut whole = args.clone();
        whole.extend(["-o", want.to_str().unwrap()]);
        Command::new(bin()).args(&whole).assert().success();
        assert_eq!(
            std::fs::read(&out).unwrap(),
            std::fs::read(&want).unwrap(),
            "distinct {distinct}"
        );
    }
}

/// A resume from stdin checked only each kept row's puzzle against its
/// record: an id changed in a record already written, or a comment line
/// put before the records (every line number one more), resumed into a
/// file whose first rows held the old values and the rest the new (found
/// by probing). The kept columns (`--keep`) and `source`, `line`
/// (`--source`) are now checked too.
#[test]
fn a_resume_checks_the_kept_columns_and_the_line_numbers_too() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("kept.csv");
    // 300 empty grids counted to 50,000: about 8 ms each at -j 1.
    let csv = |first_id: &str, before: &str| {
        let mut text = format!("{before}id,puzzle\n{first_id},{}\n", ".".repeat(81));
        for i in 2..=300 {
            text.push_str(&format!("id{i},{}\n", ".".repeat(81)));
        }
        text
    };
    let args = [
        "count", "-q", "-j", "1", "--limit", "50000", "--keep", "id", "--source", "-o",
    ];
    let mut child = std::process::Command::new(bin())
        .env(FLUSH_MS.0, FLUSH_MS.1)
        .args(args)
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let original = csv("id1", "");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(original.as_bytes())
        .unwrap();
    wait_for_rows(&mut child, &out);
    signal(&child, "-TERM");
    assert_eq!(child.wait().unwrap().code(), Some(143));
    let resume = |stdin: String| {
        Command::new(bin())
            .args(args)
            .arg(&out)
            .arg("--resume")
            .write_stdin(stdin)
            .assert()
    };
    let before = std::fs::read(partial(&out)).unwrap();
    let err = resume(csv("idZ", "")).code(2).get_output().stderr.clone();
    assert!(
        String::from_utf8_lossy(&err).contains(&format!(
            "cannot resume: row 1 of {} has id \"id1\", but record 1 of the inputs (<stdin>:2) \
             has \"idZ\": the inputs are not those of the interrupted run",
            partial(&out).display()
        )),
        "{}",
        String::from_utf8_lossy(&err)
    );
    let err = resume(csv("id1", "# a comment\n"))
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(
        String::from_utf8_lossy(&err).contains("row 1 of")
            && String::from_utf8_lossy(&err)
                .contains("has line \"2\", but record 1 of the inputs (<stdin>:3) has \"3\""),
        "{}",
        String::from_utf8_lossy(&err)
    );
    assert_eq!(std::fs::read(partial(&out)).unwrap(), before);
    // The same records: the run goes on, every row naming its record.
    resume(original).success();
    let rows: Vec<csv::StringRecord> = csv::Reader::from_path(&out)
        .unwrap()
        .records()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows.len(), 300);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(&row[0], format!("id{}", i + 1), "{row:?}");
        assert_eq!(&row[row.len() - 1], (i + 2).to_string(), "{row:?}");
    }
}

/// `generate --se` recorded its rating budget as given (`none` when left
/// at its default, 10s), so a resume that gave `--se-budget 10s`, the
/// same budget, was refused ("was none, now 10s"; found by probing). The
/// budget in effect is recorded now.
#[test]
fn generate_se_resumes_with_its_default_budget_given() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rated.csv");
    let args = [
        "generate", "-q", "-n", "3000", "--seed", "5", "--se", "1.0..", "-j", "1", "-o",
    ];
    let mut child = std::process::Command::new(bin())
        .env(FLUSH_MS.0, FLUSH_MS.1)
        .args(args)
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_rows(&mut child, &out);
    signal(&child, "-INT");
    assert_eq!(child.wait().unwrap().code(), Some(130));
    Command::new(bin())
        .args(args)
        .arg(&out)
        .args(["--resume", "--se-budget", "10s"])
        .assert()
        .success();
    assert_eq!(whole_rows(&std::fs::read(&out).unwrap()), 3000);
}

/// A run that completes removes only its own sidecar: a second run to the
/// same FILE that started once the first had renamed FILE.partial into
/// place has its own sidecar there, which stays, so that the second run,
/// stopped, resumes. Before, the first run's last step removed it and the
/// stopped run's partial file could neither be resumed nor replaced.
#[test]
fn a_run_completing_keeps_the_sidecar_of_a_run_that_started_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let input = big_input();
    let out = dir.path().join("race.csv");
    // The first run: held for a second between its rename and the removal
    // of its sidecar (a test hook).
    let mut first = std::process::Command::new(bin())
        .env("SUDOFLOW_TEST_COMMIT_DELAY_MS", "1500")
        .args([
            "count",
            "-q",
            "-p",
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            "-o",
        ])
        .arg(&out)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let waited = std::time::Instant::now();
    while !out.exists() {
        assert!(
            waited.elapsed() < Duration::from_secs(30),
            "the first run wrote no file"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(
        first.try_wait().unwrap().is_none(),
        "the first run ended too soon"
    );
    // The second run starts in that window and writes its rows.
    let args = [
        "solve",
        "-q",
        "-j",
        "1",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    let mut second = spawn(&args);
    wait_for_rows(&mut second, &out);
    assert!(first.wait().unwrap().success());
    assert!(
        sidecar(&out).exists(),
        "the first run removed the second run's sidecar"
    );
    signal(&second, "-INT");
    assert_eq!(second.wait().unwrap().code(), Some(130));
    Command::new(bin())
        .args(args)
        .arg("--resume")
        .assert()
        .success();
    assert!(std::fs::read(&out).unwrap() == reference());
}

/// Another program that replaces, removes or cuts FILE.partial while the run
/// writes it: the run's end does not rename it (found by probing: it
/// renamed what lay there, exit 0, and FILE held another run's rows, or
/// zeros and junk), an older FILE stays, and --resume redoes what no longer
/// verifies. And `-o FILE.partial` beside a run to FILE is refused: its
/// end would have replaced that run's rows.
#[test]
fn a_partial_file_changed_under_the_run_is_not_renamed_and_another_runs_is_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let first = first_records(5);
    let want = solved(&first);
    for tamper in ["replaced", "cut and written", "removed"] {
        std::fs::write(&out, "an older FILE\n").unwrap();
        let (mut child, stdin) = solve_fed(&out, &first);
        assert_eq!(
            wait_for_checkpoint(&mut child, &out, 4),
            Some(5),
            "{tamper}"
        );
        // Another run to out.csv.partial (or its sidecar), refused while
        // this one writes it, and after it stops with its sidecar beside.
        for name in ["out.csv.partial", "out.csv.partial.json"] {
            let err = Command::new(bin())
                .args(["solve", "-q", "-o"])
                .arg(dir.path().join(name))
                .write_stdin(first[0].clone() + "\n")
                .assert()
                .code(2)
                .get_output()
                .stderr
                .clone();
            let err = String::from_utf8_lossy(&err);
            assert!(
                err.contains("is the partial file of a run to")
                    && err.contains("being written by another sudoflow run now"),
                "{err}"
            );
        }
        match tamper {
            "replaced" => {
                let other = dir.path().join("other");
                std::fs::write(&other, "index,puzzle\n1,another run's row\n").unwrap();
                std::fs::rename(&other, partial(&out)).unwrap();
            }
            "cut and written" => std::fs::write(partial(&out), "junk\n").unwrap(),
            _ => std::fs::remove_file(partial(&out)).unwrap(),
        }
        drop(stdin);
        let done = child.wait_with_output().unwrap();
        assert_eq!(done.status.code(), Some(2), "{tamper}");
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "an older FILE\n",
            "{tamper}"
        );
        // (stderr is not piped by solve_fed: the refusal is checked by the
        // exit code and the untouched FILE.)
        Command::new(bin())
            .args(["solve", "-q", "--resume", "-o"])
            .arg(&out)
            .write_stdin(first.join("\n") + "\n")
            .assert()
            .success();
        assert_eq!(std::fs::read(&out).unwrap(), want, "{tamper}");
        assert!(
            !partial(&out).exists() && !sidecar(&out).exists(),
            "{tamper}"
        );
    }
    // An interrupted run's partial file, its sidecar beside it: refused too.
    let (mut child, stdin) = solve_fed(&out, &first);
    assert_eq!(wait_for_checkpoint(&mut child, &out, 4), Some(5));
    child.kill().unwrap();
    child.wait().unwrap();
    drop(stdin);
    let err = Command::new(bin())
        .args(["solve", "-q", "-o"])
        .arg(partial(&out))
        .write_stdin(first[0].clone() + "\n")
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(
        String::from_utf8_lossy(&err).contains("holding an interrupted run's rows"),
        "{}",
        String::from_utf8_lossy(&err)
    );
}

/// An input that is a FIFO (or `<(...)`, a pipe by path) resumes as stdin
/// does, its rows checked against the records read again (found by
/// probing: its modification time and `pipe:[N]` name changed with each
/// run, so every resume was refused while the stop message offered one).
#[test]
fn a_fifo_input_resumes_as_stdin_does() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("in.fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let out = dir.path().join("out.csv");
    let first = first_records(8);
    // Feeds the FIFO `lines`, then holds it open until `hold` is dropped.
    let feed = |lines: Vec<String>, hold: std::sync::mpsc::Receiver<()>| {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut w = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
            w.write_all((lines.join("\n") + "\n").as_bytes()).unwrap();
            w.flush().unwrap();
            let _ = hold.recv();
        })
    };
    let (hold, held) = std::sync::mpsc::channel::<()>();
    let writer = feed(first[..5].to_vec(), held);
    let mut child = std::process::Command::new(bin())
        .env(FLUSH_MS.0, FLUSH_MS.1)
        .args(["solve", "-q", "-o"])
        .arg(&out)
        .arg(&fifo)
        .spawn()
        .unwrap();
    assert_eq!(wait_for_checkpoint(&mut child, &out, 4), Some(5));
    child.kill().unwrap();
    child.wait().unwrap();
    drop(hold);
    writer.join().unwrap();
    // The whole input, through the FIFO again.
    let (hold, held) = std::sync::mpsc::channel::<()>();
    drop(hold);
    let writer = feed(first.clone(), held);
    let resumed = std::process::Command::new(bin())
        .args(["solve", "-q", "--resume", "-o"])
        .arg(&out)
        .arg(&fifo)
        .output()
        .unwrap();
    writer.join().unwrap();
    assert_eq!(
        resumed.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert_eq!(std::fs::read(&out).unwrap(), solved(&first));
}

/// An empty FILE.partial with no sidecar (a run killed between creating it
/// and writing its sidecar, or one whose lock failed, on NFS) holds no
/// rows: a fresh run and a `--resume` each take it as their own and write
/// what an uninterrupted run writes (found by probing: both were refused,
/// the fresh run told that it held "the rows of an interrupted run").
/// A FILE.partial with bytes and no sidecar is still refused.
#[test]
fn an_empty_partial_file_without_a_sidecar_is_no_interrupted_run() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/sample.txt");
    std::fs::copy(sample, &input).unwrap();
    let want = uninterrupted("solve", &[], &input, &dir.path().join("want.csv"));
    for resume in [false, true] {
        let out = dir.path().join(format!("out-{resume}.csv"));
        std::fs::write(partial(&out), b"").unwrap();
        let mut cmd = Command::new(bin());
        cmd.args(["solve", "-q", "-j", "1"])
            .arg(&input)
            .arg("-o")
            .arg(&out);
        if resume {
            cmd.arg("--resume");
        }
        cmd.assert().success();
        assert_eq!(std::fs::read(&out).unwrap(), want, "--resume {resume}");
        assert!(!partial(&out).exists() && !sidecar(&out).exists());
    }
    let out = dir.path().join("rows.csv");
    std::fs::write(partial(&out), b"index,puzzle\n").unwrap();
    Command::new(bin())
        .args(["solve", "-q"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "holds the rows of an interrupted run",
        ));
    assert_eq!(std::fs::read(partial(&out)).unwrap(), b"index,puzzle\n");
}

/// A dangling symbolic link where FILE.partial goes is said as such, for a
/// fresh run and for --resume, and left as it is (found by probing: both
/// were told to wait for another run, which never ends).
#[test]
fn a_link_at_the_partial_files_place_is_named_not_taken_for_a_run() {
    let dir = tempfile::tempdir().unwrap();
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/sample.txt");
    let out = dir.path().join("out.csv");
    let target = dir.path().join("nowhere/x");
    std::os::unix::fs::symlink(&target, partial(&out)).unwrap();
    for resume in [false, true] {
        let mut cmd = Command::new(bin());
        cmd.args(["solve", "-q"]).arg(&input).arg("-o").arg(&out);
        if resume {
            cmd.arg("--resume");
        }
        cmd.assert()
            .code(2)
            .stderr(predicates::str::contains(format!(
                "{} is a symbolic link (to {}), which the run does not write through: remove it",
                partial(&out).display(),
                target.display()
            )));
        assert_eq!(std::fs::read_link(partial(&out)).unwrap(), target);
        assert!(!out.exists() && !target.exists());
    }
    // Nor through one to a file, empty or not (found by probing: an empty
    // one was written through, and the link renamed FILE).
    for text in ["", "index,puzzle\n"] {
        let target = dir.path().join(format!("file-{}", text.len()));
        std::fs::write(&target, text).unwrap();
        std::fs::remove_file(partial(&out)).unwrap();
        std::os::unix::fs::symlink(&target, partial(&out)).unwrap();
        for resume in [false, true] {
            let mut cmd = Command::new(bin());
            cmd.args(["solve", "-q"]).arg(&input).arg("-o").arg(&out);
            if resume {
                cmd.arg("--resume");
            }
            cmd.assert()
                .code(2)
                .stderr(predicates::str::contains("is a symbolic link"));
            assert_eq!(std::fs::read_to_string(&target).unwrap(), text);
            assert!(!out.exists());
        }
    }
}
