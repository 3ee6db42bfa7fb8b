//! `sudoflow bench` end to end: the binary on a tiny puzzle file written here.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const INKALA_SOLUTION: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

/// The solution with its main diagonal blanked: 72 givens, each blank a
/// naked single (its row holds the other eight digits).
fn diagonal_blanked() -> String {
    INKALA_SOLUTION
        .chars()
        .enumerate()
        .map(|(i, ch)| if i % 9 == i / 9 { '.' } else { ch })
        .collect()
}

/// A tiny dataset (a comment line, Inkala's puzzle, the diagonal-blanked solution),
/// both with the same unique solution.
fn tiny(dir: &Path) -> PathBuf {
    let path = dir.join("tiny.txt");
    std::fs::write(
        &path,
        format!("# two puzzles\n{INKALA}\n{}\n", diagonal_blanked()),
    )
    .unwrap();
    path
}

fn bench() -> Command {
    let mut cmd = Command::cargo_bin("sudoflow").unwrap();
    cmd.args(["bench", "--time", "0.05", "--warmup", "0"]);
    cmd
}

const COLUMNS: [&str; 19] = [
    "dataset",
    "solver",
    "puzzles",
    "validated",
    "runs",
    "puzzles_per_sec",
    "us_per_puzzle",
    "startup_ms",
    "no_guess_pct",
    "guesses_per_puzzle",
    "answered_pct",
    "timeouts",
    "disagreements",
    "reference",
    "failure",
    "rustc",
    "profile",
    "target_features",
    "permute_seed",
];

#[test]
fn csv_has_the_columns_and_one_row_per_solver() {
    let dir = tempfile::tempdir().unwrap();
    let file = tiny(dir.path());
    let out = bench()
        .args(["--format", "csv", "-s", "sudoflow,dlx,dsatur,matching-only"])
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let mut reader = csv::Reader::from_reader(out.as_slice());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, COLUMNS);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let solvers: Vec<&str> = rows.iter().map(|r| &r[1]).collect();
    assert_eq!(solvers, ["sudoflow", "dlx", "dsatur", "matching-only"]);
    for r in &rows {
        assert_eq!(&r[0], "tiny.txt");
        assert_eq!(&r[2], "2", "puzzles");
        assert_eq!(&r[3], "2", "validated");
        assert!(r[4].parse::<u64>().unwrap() >= 2, "every puzzle timed");
        assert!(r[5].parse::<f64>().unwrap() > 0.0);
        assert!(r[6].parse::<f64>().unwrap() > 0.0);
        assert_eq!(&r[7], "", "no start-up for a built-in solver");
        assert_eq!(&r[12], "0", "disagreements");
        assert_eq!(&r[14], "", "no failure");
    }
    // Checked against an independent reference: dlx, and mrv for dlx itself.
    let references: Vec<&str> = rows.iter().map(|r| &r[13]).collect();
    assert_eq!(references, ["dlx", "mrv", "dlx", "dlx"]);
    // The complete solvers answer both puzzles; the diagonal-blanked one
    // needs no guess, Inkala's does.
    assert_eq!(&rows[0][10], "100.00");
    assert_eq!(&rows[1][10], "100.00");
    assert_eq!(&rows[0][8], "50.00");
}

/// `bench --format json` with `command`'s arguments, which must succeed.
fn json_of(command: &mut Command) -> serde_json::Value {
    let out = command
        .args(["--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).unwrap()
}

#[test]
fn json_has_the_build_and_the_same_keys() {
    let dir = tempfile::tempdir().unwrap();
    let file = tiny(dir.path());
    let doc = json_of(bench().args(["-s", "mrv,welsh-powell"]).arg(&file));
    for key in ["rustc", "profile", "target_features"] {
        assert!(doc["build"][key].is_string(), "build.{key}");
    }
    assert!(doc["build"]["rustc"]
        .as_str()
        .unwrap()
        .starts_with("rustc "));
    assert_eq!(doc["limit"], 2);
    let results = doc["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for r in results {
        for key in &COLUMNS[..15] {
            assert!(r.get(*key).is_some(), "missing key {key}");
        }
        assert_eq!(r["disagreements"], 0);
    }
    assert_eq!(results[0]["solver"], "mrv");
    assert_eq!(results[0]["answered_pct"], 100.0);
}

#[test]
fn every_solver_agrees_on_the_tiny_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = tiny(dir.path());
    let out = bench()
        .args(["--format", "csv", "-s", "all"])
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let mut reader = csv::Reader::from_reader(out.as_slice());
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    // One row per solver `all` names, in that order, none disagreeing.
    let names: Vec<&str> = rows.iter().map(|r| &r[1]).collect();
    assert_eq!(names, sudoflow::bench::solvers::ALL);
    assert!(rows.iter().all(|r| &r[12] == "0"));
}

#[test]
fn an_external_echoing_the_puzzles_fails_validation() {
    let dir = tempfile::tempdir().unwrap();
    let file = tiny(dir.path());
    bench()
        .args(["-s", "sudoflow", "--external", "echo=cat"])
        .arg(&file)
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "echo disagrees on tiny.txt puzzle 1",
        ));
}

#[test]
fn an_external_printing_the_solutions_passes() {
    let dir = tempfile::tempdir().unwrap();
    let file = tiny(dir.path());
    let script = dir.path().join("known.sh");
    std::fs::write(
        &script,
        format!("cat >/dev/null\necho {INKALA_SOLUTION}\necho {INKALA_SOLUTION}\n"),
    )
    .unwrap();
    let out = bench()
        .args(["-s", "sudoflow", "--format", "csv", "--external"])
        .arg(format!("known=sh {}", script.display()))
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let mut reader = csv::Reader::from_reader(out.as_slice());
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(&rows[1][1], "known");
    assert_eq!(&rows[1][10], "100.00");
    assert_eq!(&rows[1][9], "", "an external does not report guesses");
    assert!(
        rows[1][7].parse::<f64>().unwrap() > 0.0,
        "start-up measured"
    );
}

#[test]
fn an_unknown_solver_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = tiny(dir.path());
    bench()
        .args(["-s", "sudoflow,quantum"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("unknown solver `quantum`"));
}

#[test]
fn a_bad_line_is_skipped_with_a_warning_naming_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.txt");
    std::fs::write(&path, format!("{INKALA}\n12x\n")).unwrap();
    let out = bench()
        .args(["-s", "sudoflow", "--format", "csv"])
        .arg(&path)
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "skipping 1 record(s) that are not puzzles or whose givens clash: ",
        ))
        .stderr(predicates::str::contains("bad.txt:2: wrong length"))
        .get_output()
        .stdout
        .clone();
    let rows = csv_rows(&out);
    assert_eq!(&rows[0][2], "1", "puzzles");
}

fn csv_rows(out: &[u8]) -> Vec<csv::StringRecord> {
    csv::Reader::from_reader(out)
        .records()
        .map(Result::unwrap)
        .collect()
}

/// The column of `name` in `bench --format csv`'s output.
fn col(name: &str) -> usize {
    COLUMNS.iter().position(|c| *c == name).unwrap()
}

#[test]
fn bench_reads_what_solve_reads_generate_and_kaggle_csvs() {
    let dir = tempfile::tempdir().unwrap();
    let generated = dir.path().join("gen.csv");
    Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["generate", "-n", "3", "--seed", "7", "-o"])
        .arg(&generated)
        .assert()
        .success();
    let kaggle = dir.path().join("kaggle.csv");
    let zeros = INKALA.replace('.', "0");
    std::fs::write(
        &kaggle,
        format!("quizzes,solutions\n{zeros},{INKALA_SOLUTION}\n"),
    )
    .unwrap();
    let out = bench()
        .args(["-s", "sudoflow", "--format", "csv"])
        .arg(&generated)
        .arg(&kaggle)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let rows = csv_rows(&out);
    assert_eq!(&rows[0][col("puzzles")], "3");
    assert_eq!(&rows[1][col("puzzles")], "1");
    assert!(rows.iter().all(|r| &r[col("disagreements")] == "0"));
}

#[test]
fn solver_names_are_unique_and_the_default_set_times_each_solver_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = tiny(dir.path());
    bench()
        .args(["-s", "sudoflow", "--external", "sudoflow=cat"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "solver name `sudoflow` is given twice",
        ));
    let out = bench()
        .args(["--format", "csv"])
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let names: Vec<String> = csv_rows(&out).iter().map(|r| r[1].to_string()).collect();
    assert_eq!(names, sudoflow::bench::solvers::DEFAULT);
    assert!(!names.iter().any(|n| n == "sudoflow-basic"));
}

/// Externals that print nothing, print a wrong grid, echo their input, are
/// missing, hang, or take 3 s a puzzle under a 1 s budget: each gets its
/// row, honest figures, and the run ends promptly with exit 1.
#[cfg(unix)]
#[test]
fn any_external_program_is_safe_to_bench() {
    let dir = tempfile::tempdir().unwrap();
    let file = tiny(dir.path());
    let ones = "1".repeat(81);
    let started = std::time::Instant::now();
    let out = bench()
        .args(["--format", "csv", "-s", "sudoflow", "--budget", "1"])
        .args(["--validate-time", "2"])
        .args(["--external", "silent=cat >/dev/null"])
        .arg("--external")
        .arg(format!("ones=while read l; do echo {ones}; done"))
        .args(["--external", "echo=cat"])
        .args(["--external", "gone=/nonexistent/solver"])
        .args(["--external", "hang=sleep 1000"])
        .args(["--external", "slow=while read l; do sleep 3; echo $l; done"])
        .arg(&file)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "gone failed on tiny.txt: exit status: 127 (command not found)",
        ))
        .stderr(predicates::str::contains(
            "hang failed on tiny.txt: did not exit",
        ))
        .stderr(predicates::str::contains(
            "2 row(s) with disagreements and 2 external program(s) that could not be measured",
        ))
        .get_output()
        .stdout
        .clone();
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "took {:?}",
        started.elapsed()
    );
    let rows = csv_rows(&out);
    let by_name = |name: &str| rows.iter().find(|r| &r[1] == name).unwrap().clone();
    let field = |name: &str, column: &str| by_name(name)[col(column)].to_string();
    // Nothing written: unanswered, not a disagreement.
    assert_eq!(field("silent", "answered_pct"), "0.00");
    assert_eq!(field("silent", "disagreements"), "0");
    // Wrong lines: disagreements, not answers.
    for name in ["ones", "echo"] {
        assert_eq!(field(name, "answered_pct"), "0.00", "{name}");
        assert_eq!(field(name, "disagreements"), "2", "{name}");
    }
    // Missing and hanging: a row each, saying why, nothing timed.
    assert!(field("gone", "failure").contains("127"));
    assert!(field("hang", "failure").contains("did not exit"));
    for name in ["gone", "hang"] {
        assert_eq!(field(name, "puzzles_per_sec"), "", "{name}");
    }
    // 3 s a puzzle under a 1 s budget: a timeout, counted.
    assert_eq!(field("slow", "timeouts"), "1");
    assert_eq!(field("slow", "failure"), "");
    // The built-in row is unaffected.
    assert_eq!(field("sudoflow", "answered_pct"), "100.00");
}

/// The build line says which solver path ran (`sudoflow::solver::simd`):
/// `SUDOFLOW_SIMD=sse2` forces the baseline, `avx2` the AVX2 copy without
/// `pext` and `avx2+pext` the one with it; without it a CPU with AVX2 runs
/// the AVX2 copy, with `pext` where that is fast, compiled with AVX-512
/// where the CPU has it.
#[test]
fn the_build_says_which_solver_path_ran() {
    let dir = tempfile::tempdir().unwrap();
    let file = tiny(dir.path());
    let path_of = |env: Option<&str>| -> String {
        let mut cmd = bench();
        if let Some(v) = env {
            cmd.env("SUDOFLOW_SIMD", v);
        } else {
            cmd.env_remove("SUDOFLOW_SIMD");
        }
        let doc = json_of(cmd.args(["-s", "sudoflow"]).arg(&file));
        doc["build"]["target_features"].as_str().unwrap().to_owned()
    };
    assert!(path_of(Some("sse2")).ends_with("(solver: sse2)"));
    let want = if sudoflow::solver::simd::avx512_available() {
        "(solver: avx512)"
    } else if sudoflow::solver::simd::fast_pext_available() {
        "(solver: avx2+pext)"
    } else if sudoflow::solver::simd::avx2_available() {
        "(solver: avx2)"
    } else {
        "(solver: sse2)"
    };
    assert!(path_of(None).ends_with(want), "{}", path_of(None));
    if sudoflow::solver::simd::avx2_available() {
        assert!(path_of(Some("avx2")).ends_with("(solver: avx2)"));
    }
    if sudoflow::solver::simd::fast_pext_available() {
        assert!(path_of(Some("avx2+pext")).ends_with("(solver: avx2+pext)"));
    }
}

/// Twenty puzzles with Inkala's solution: Inkala's puzzle and the
/// diagonal-blanked solution, in turn.
fn twenty(dir: &Path) -> PathBuf {
    let path = dir.join("twenty.txt");
    let blanked = diagonal_blanked();
    let lines: Vec<&str> = (0..20)
        .map(|i| if i % 2 == 0 { INKALA } else { &blanked })
        .collect();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// A `sleep` argument no other test uses: `4000 + n` seconds and this test
/// process's id as the fraction, so that a `sleep` left behind is found by
/// its exact arguments (not by the shell or bench whose command line holds
/// them too).
#[cfg(target_os = "linux")]
fn marker(n: u32) -> String {
    format!("{}.{}", 4000 + n, std::process::id())
}

/// The processes running `sleep MARKER`, from `/proc/*/cmdline`.
#[cfg(target_os = "linux")]
fn sleeping(marker: &str) -> Vec<i32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let args: Vec<&[u8]> = cmdline.split(|&b| b == 0).collect();
        let is_sleep = args.first().is_some_and(|a| a.ends_with(b"sleep"));
        if is_sleep && args.get(1) == Some(&marker.as_bytes()) {
            found.push(pid);
        }
    }
    found
}

/// The `sleep MARKER` processes still running, after killing them (so a
/// failing run leaves nothing behind either).
#[cfg(target_os = "linux")]
fn left_behind(marker: &str) -> Vec<i32> {
    let found = sleeping(marker);
    for &pid in &found {
        // SAFETY: kill(2) with a pid found just above.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
    found
}

/// A program flooding stdout with short lines (`yes`) or with one endless
/// line is killed as soon as it is past its bound, and its row says so;
/// bench's own memory stays small (it runs under a 1 GiB address-space
/// limit, which the unbounded read of the past outgrew in seconds).
#[cfg(unix)]
#[test]
fn a_program_flooding_stdout_is_killed_at_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let file = tiny(dir.path());
    let out = Command::new("sh")
        .args(["-c", "ulimit -v 1048576 && exec \"$@\"", "sh"])
        .arg(assert_cmd::cargo::cargo_bin("sudoflow"))
        .args([
            "bench", "--time", "0.05", "--warmup", "0", "--format", "csv",
        ])
        .args(["-s", "sudoflow", "--budget", "0.2", "--validate-time", "1"])
        .args(["--external", "lines=yes 123456789"])
        .args(["--external", "oneline=cat /dev/zero"])
        .arg(&file)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "lines failed on tiny.txt: printed more than 65536 bytes",
        ))
        .stderr(predicates::str::contains(
            "oneline failed on tiny.txt: printed a line of more than 65536 bytes",
        ))
        .get_output()
        .stdout
        .clone();
    let rows = csv_rows(&out);
    let failure = |name: &str| {
        let row = rows.iter().find(|r| &r[1] == name).unwrap();
        row[col("failure")].to_string()
    };
    assert!(failure("lines").ends_with("on an empty input; killed"));
    assert!(failure("oneline").contains("(an answer is one line)"));
    assert_eq!(rows[0][col("answered_pct")], *"100.00");
}

/// A program that leaves children behind, in its process group or in a
/// session of their own (`setsid`, once directly and once two levels down),
/// ends with each run: bench finishes, and none of them is left running.
#[cfg(target_os = "linux")]
#[test]
fn a_program_leaving_children_behind_leaves_no_process() {
    let dir = tempfile::tempdir().unwrap();
    let file = twenty(dir.path());
    let marks: Vec<String> = (1..=4).map(marker).collect();
    let program = format!(
        "bg=(sleep {} &); setsid sleep {} & sh -c \"setsid sh -c 'sleep {} & sleep {}' &\"; \
         while read l; do echo {INKALA_SOLUTION}; done",
        marks[0], marks[1], marks[2], marks[3]
    );
    let assert = bench()
        .args(["--format", "csv", "-s", "sudoflow", "--budget", "0.5"])
        .arg("--external")
        .arg(&program)
        .arg(&file)
        .timeout(std::time::Duration::from_secs(60))
        .assert();
    let left: Vec<(String, Vec<i32>)> = marks
        .iter()
        .map(|m| (m.clone(), left_behind(m)))
        .filter(|(_, pids)| !pids.is_empty())
        .collect();
    assert!(left.is_empty(), "left running: {left:?}");
    let out = assert.success().get_output().stdout.clone();
    let rows = csv_rows(&out);
    assert_eq!(rows[1][col("solver")], *"bg");
    assert_eq!(rows[1][col("answered_pct")], *"100.00");
    assert_eq!(rows[1][col("validated")], *"20");
    assert!(rows[1][col("runs")].parse::<u64>().unwrap() >= 20, "timed");
}

/// A program that answers the first puzzle of each run and exits: its
/// other puzzles are unanswered at once (not waited on, not timeouts), and
/// as no run answers all its puzzles, nothing is timed.
#[cfg(unix)]
#[test]
fn a_program_exiting_early_is_not_waited_on_nor_timed() {
    let dir = tempfile::tempdir().unwrap();
    let file = twenty(dir.path());
    let out = bench()
        .args(["--format", "csv", "-s", "sudoflow", "--budget", "0.2"])
        .arg("--external")
        .arg(format!(
            "early=head -1 >/dev/null; echo {INKALA_SOLUTION}; exit 0"
        ))
        .arg(&file)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let rows = csv_rows(&out);
    let early = &rows[1];
    assert_eq!(early[col("solver")], *"early");
    // Runs of 1, 2, 4, 8 and the last 5 puzzles: one answer each.
    assert_eq!(early[col("validated")], *"20");
    assert_eq!(early[col("answered_pct")], *"25.00");
    assert_eq!(early[col("timeouts")], *"0");
    assert_eq!(early[col("disagreements")], *"0");
    assert_eq!(early[col("failure")], *"");
    assert_eq!(early[col("runs")], *"0");
    assert_eq!(early[col("us_per_puzzle")], *"");
}

/// SIGINT while an external program is being validated: exit 130, the rows
/// measured so far (the built-in solver's, whole, and the program's, up to
/// the signal), and none of the program's processes left running.
#[cfg(target_os = "linux")]
#[test]
fn sigint_ends_bench_with_the_rows_so_far_and_no_process_left() {
    signal_ends_bench(libc::SIGINT, "SIGINT");
}

/// SIGHUP (the terminal closed) and SIGQUIT as SIGINT: they ended bench by
/// their default action, and the program's processes ran on, orphaned.
#[cfg(target_os = "linux")]
#[test]
fn sighup_and_sigquit_end_bench_as_sigint_does() {
    signal_ends_bench(libc::SIGHUP, "SIGHUP");
    signal_ends_bench(libc::SIGQUIT, "SIGQUIT");
}

/// `signal` (named `name`) while an external program is being validated,
/// with bench started with every signal's default action (`env
/// --default-signal`: a test runner under `nohup` ignores SIGHUP).
#[cfg(target_os = "linux")]
fn signal_ends_bench(signal: i32, name: &str) {
    use wait_timeout::ChildExt;
    let dir = tempfile::tempdir().unwrap();
    let file = twenty(dir.path());
    let mark = marker(5);
    let answered = dir.path().join("answered");
    let program = format!(
        "slow=setsid sleep {mark} & while read l; do sleep 0.2; echo {INKALA_SOLUTION}; \
         touch {}; done",
        answered.display()
    );
    let mut child = std::process::Command::new("env")
        .arg("--default-signal")
        .arg(assert_cmd::cargo::cargo_bin("sudoflow"))
        .args([
            "bench", "--time", "0.05", "--warmup", "0", "--format", "csv",
        ])
        .args(["-s", "sudoflow", "--budget", "1", "--external", &program])
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The program has answered a puzzle: its row has something to show.
    let waiting = std::time::Instant::now();
    while !answered.exists() && waiting.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // SAFETY: kill(2) on the child started above, not reaped yet.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    let status = child
        .wait_timeout(std::time::Duration::from_secs(60))
        .unwrap();
    if status.is_none() {
        let _ = child.kill();
    }
    let left = left_behind(&mark);
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr).into_owned();
    assert!(answered.exists(), "the program never answered: {err}");
    assert!(left.is_empty(), "left running: {left:?}");
    assert_eq!(done.status.code(), Some(128 + signal), "{err}");
    assert!(
        err.contains(&format!(
            "sudoflow: bench: stopped by {name}: 2 row(s) measured"
        )),
        "{err}"
    );
    let rows = csv_rows(&done.stdout);
    let names: Vec<&str> = rows.iter().map(|r| &r[1]).collect();
    assert_eq!(names, ["sudoflow", "slow"]);
    assert_eq!(rows[0][col("validated")], *"20");
    let validated: usize = rows[1][col("validated")].parse().unwrap();
    assert!((1..20).contains(&validated), "{validated}");
    assert_eq!(rows[1][col("answered_pct")], *"100.00");
}

/// Waits until process `pid` catches SIGINT (bit 2 of `SigCgt` in
/// `/proc/PID/status`), so that a signal sent next is handled, not fatal;
/// false if it still does not after 30 s.
#[cfg(target_os = "linux")]
fn catches_sigint(pid: u32) -> bool {
    let waiting = std::time::Instant::now();
    while waiting.elapsed() < std::time::Duration::from_secs(30) {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let caught = status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok());
        if caught.is_some_and(|mask| mask & (1 << (libc::SIGINT - 1)) != 0) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    false
}

/// SIGINT during a built-in solver's long timing loop: exit 130 at once,
/// with its row as measured so far.
#[cfg(target_os = "linux")]
#[test]
fn sigint_during_a_builtin_solver_prints_its_row_so_far() {
    use wait_timeout::ChildExt;
    let dir = tempfile::tempdir().unwrap();
    let file = twenty(dir.path());
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoflow"))
        .args(["bench", "--time", "600", "--warmup", "0", "--format", "csv"])
        .args(["-s", "mrv,dlx"])
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    if !catches_sigint(child.id()) {
        let _ = child.kill();
        panic!("bench does not catch SIGINT");
    }
    // Past the reading of the file, into mrv's 600 s of timing.
    std::thread::sleep(std::time::Duration::from_millis(500));
    // SAFETY: kill(2) on the child started above, not reaped yet.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    if child
        .wait_timeout(std::time::Duration::from_secs(60))
        .unwrap()
        .is_none()
    {
        let _ = child.kill();
    }
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr).into_owned();
    assert_eq!(done.status.code(), Some(130), "{err}");
    assert!(
        err.contains("stopped by SIGINT: 1 row(s) measured; the last one, mrv on twenty.txt"),
        "{err}"
    );
    let rows = csv_rows(&done.stdout);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0][col("solver")], *"mrv");
    assert!(rows[0][col("validated")].parse::<usize>().unwrap() >= 1);
}

/// Six of magictour's top 1465 and Inkala's: puzzles whose guess counts
/// depend on the order of the cells and the labels of the digits.
const HARD: [&str; 7] = [
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
    "7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5...........",
    "3.7.4...........918........4.....7.....16.......25..........38..9....5...2.6.....",
    "5..7..6....38...........2..62.4............917............35.8.4.....1......9....",
    "4..7..6....38...........2..62.5............917............43.8.5.....1......9....",
    INKALA,
];

fn hard(dir: &Path) -> PathBuf {
    let path = dir.join("hard.txt");
    std::fs::write(&path, HARD.join("\n") + "\n").unwrap();
    path
}

/// `bench --format csv` on `file` with `extra` arguments: each solver's
/// guesses per puzzle, and the `permute_seed` column (the same on every row).
fn guesses_and_seed(file: &Path, extra: &[&str]) -> (Vec<(String, String)>, String) {
    let out = bench()
        .args(["-s", "sudoflow,mrv,dlx", "--format", "csv"])
        .args(extra)
        .arg(file)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let rows = csv_rows(&out);
    let seeds: Vec<&str> = rows.iter().map(|r| &r[col("permute_seed")]).collect();
    assert!(seeds.iter().all(|s| *s == seeds[0]), "{seeds:?}");
    for r in &rows {
        assert_eq!(&r[col("answered_pct")], "100.00");
        assert_eq!(&r[col("disagreements")], "0");
    }
    (
        rows.iter()
            .map(|r| (r[1].to_string(), r[col("guesses_per_puzzle")].to_string()))
            .collect(),
        seeds[0].to_string(),
    )
}

/// `--permute=SEED` (issue 33, point 3): the same seed gives the same
/// puzzles, so the same guesses for every solver, and says so in the CSV,
/// the JSON and the table; another seed or none gives other guesses.
#[test]
fn permute_with_a_seed_gives_the_same_guesses_and_reports_the_seed() {
    let dir = tempfile::tempdir().unwrap();
    let file = hard(dir.path());
    let (written, seed) = guesses_and_seed(&file, &[]);
    assert_eq!(seed, "", "not permuted");
    let (first, seed) = guesses_and_seed(&file, &["--permute=42"]);
    assert_eq!(seed, "42");
    let (again, _) = guesses_and_seed(&file, &["--permute=42"]);
    assert_eq!(first, again, "the same seed, the same guesses");
    let (other, seed) = guesses_and_seed(&file, &["--permute=43"]);
    assert_eq!(seed, "43");
    assert_ne!(first, other, "another seed, other puzzles");
    assert_ne!(first, written, "the transformed puzzles are not the file's");
    // --permute alone draws a seed and reports it.
    let (_, drawn) = guesses_and_seed(&file, &["--permute"]);
    assert!(drawn.parse::<u64>().is_ok(), "{drawn:?}");

    let doc = json_of(bench().args(["-s", "sudoflow", "--permute=42"]).arg(&file));
    assert_eq!(doc["permute_seed"], 42);
    let doc = json_of(bench().args(["-s", "sudoflow"]).arg(&file));
    assert!(doc["permute_seed"].is_null());
    let table = |extra: &[&str]| -> String {
        let out = bench()
            .args(["-s", "sudoflow"])
            .args(extra)
            .arg(&file)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_owned()
    };
    assert!(table(&["--permute=42"]).ends_with("; puzzles permuted, seed 42"));
    assert!(table(&[]).ends_with("; puzzles as written"));
}

#[test]
fn permute_takes_an_integer_seed_only() {
    let dir = tempfile::tempdir().unwrap();
    let file = tiny(dir.path());
    for bad in ["--permute=x", "--permute=-1", "--permute=1.5", "--permute="] {
        bench()
            .args(["-s", "sudoflow", bad])
            .arg(&file)
            .assert()
            .code(2)
            .stderr(predicates::str::contains("--permute"));
    }
}

/// Under `--permute` every solver, external programs too, is given the
/// transformed puzzles and checked against the reference on them: a program
/// printing the solutions of the file as written disagrees, one that solves
/// what it is given passes, and what it was given is each puzzle of the file
/// under some transformation (the same canonical forms), not the file itself.
#[test]
fn permuted_puzzles_are_transforms_and_answers_are_checked_on_them() {
    let dir = tempfile::tempdir().unwrap();
    let file = tiny(dir.path());
    let known = dir.path().join("known.sh");
    std::fs::write(
        &known,
        format!("cat >/dev/null\necho {INKALA_SOLUTION}\necho {INKALA_SOLUTION}\n"),
    )
    .unwrap();
    bench()
        .args(["-s", "sudoflow", "--permute=7", "--external"])
        .arg(format!("known=sh {}", known.display()))
        .arg(&file)
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "known disagrees on tiny.txt puzzle 1",
        ))
        .stderr(predicates::str::contains(
            "known disagrees on tiny.txt puzzle 2",
        ));

    let seen = dir.path().join("seen.txt");
    let solver = dir.path().join("solver.sh");
    std::fs::write(
        &solver,
        format!(
            "tee -a {} | {} solve -q -j 1 | tail -n +2 | cut -d, -f5\n",
            seen.display(),
            env!("CARGO_BIN_EXE_sudoflow")
        ),
    )
    .unwrap();
    let out = bench()
        .args(["-s", "sudoflow", "--permute=7", "--format", "csv"])
        .args(["--external"])
        .arg(format!("solver=sh {}", solver.display()))
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let rows = csv_rows(&out);
    assert_eq!(&rows[1][1], "solver");
    assert_eq!(&rows[1][col("answered_pct")], "100.00");
    assert_eq!(&rows[1][col("permute_seed")], "7");

    let mut given: Vec<String> = std::fs::read_to_string(&seen)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    given.sort();
    given.dedup();
    assert_eq!(given.len(), 2, "{given:?}");
    let originals = [INKALA.to_string(), diagonal_blanked()];
    let canonical =
        |p: &str| sudoflow::canon::canonical(&sudoflow::grid::Grid::parse(p).unwrap()).to_line();
    for g in &given {
        assert!(!originals.contains(g), "{g} is the file's own puzzle");
    }
    let mut want: Vec<_> = originals.iter().map(|p| canonical(p)).collect();
    let mut got: Vec<_> = given.iter().map(|p| canonical(p)).collect();
    want.sort();
    got.sort();
    assert_eq!(
        want, got,
        "each given puzzle is a transform of one of the file's"
    );
}

/// `bench --limit 1` on puzzles with many solutions: each solver may answer
/// with any of them, and none is a disagreement (the reference still counts
/// to 2, so it knows these puzzles are not unique), while the unique puzzle
/// beside them is still checked against its one solution.
#[test]
fn limit_one_accepts_any_solution_of_a_puzzle_with_several() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("multi.txt");
    // The empty grid and Inkala's puzzle without its first given (many
    // solutions each: the solvers and their references, dlx and for dlx mrv,
    // do not all take the same one, and this run failed validation when the
    // reference's was the only answer taken), and Inkala's puzzle itself.
    let without_first = format!(".{}", &INKALA[1..]);
    std::fs::write(
        &file,
        format!("{}\n{without_first}\n{INKALA}\n", ".".repeat(81)),
    )
    .unwrap();
    let doc = json_of(
        bench()
            .args(["--limit", "1", "-s", "sudoflow,sudoflow-matching,mrv,dlx"])
            .arg(&file),
    );
    assert_eq!(doc["limit"], 1);
    let results = doc["results"].as_array().unwrap();
    assert_eq!(results.len(), 4);
    for r in results {
        assert_eq!(r["validated"], 3, "{}", r["solver"]);
        assert_eq!(r["disagreements"], 0, "{}", r["solver"]);
        assert_eq!(r["answered_pct"], 100.0, "{}", r["solver"]);
    }
}

/// Datasets whose files share a name are told apart by their paths as
/// given (found by probing: both rows said `tiny.txt`); others keep the
/// file's name.
#[test]
fn datasets_sharing_a_file_name_are_named_by_their_paths() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir(&a).unwrap();
    std::fs::create_dir(&b).unwrap();
    let other = dir.path().join("other.txt");
    std::fs::copy(tiny(&a), &other).unwrap();
    tiny(&b);
    let out = bench()
        .args(["-s", "sudoflow", "--format", "csv"])
        .arg(a.join("tiny.txt"))
        .arg(b.join("tiny.txt"))
        .arg(&other)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let names: Vec<String> = csv::Reader::from_reader(&out[..])
        .records()
        .map(|r| r.unwrap()[0].to_string())
        .collect();
    assert_eq!(
        names,
        [
            a.join("tiny.txt").display().to_string(),
            b.join("tiny.txt").display().to_string(),
            "other.txt".to_string()
        ]
    );
}

/// A program that answers every puzzle of its run and then does not exit
/// was reported as answering 100%, with no failure, nothing timed and exit
/// 0: a run is timed to its exit, so it cannot be measured, and its row
/// now fails saying so. So does one that validates (in batches of at most
/// 8) but answers nothing in the timing run of all 20, whose row showed
/// `-` for its speed and no reason.
#[cfg(unix)]
#[test]
fn a_program_that_answers_and_does_not_exit_fails_saying_so() {
    let dir = tempfile::tempdir().unwrap();
    let file = twenty(dir.path());
    let out = bench()
        .args(["--format", "csv", "-s", "sudoflow", "--budget", "0.2"])
        .arg("--external")
        .arg(format!(
            "stays=n=0; while read l; do echo {INKALA_SOLUTION}; n=1; done; \
             if [ $n = 1 ]; then exec sleep {}; fi",
            marker(6)
        ))
        .arg("--external")
        .arg(format!(
            "quits=n=$(wc -l); [ $n -gt 8 ] && exit 0; \
             while [ $n -gt 0 ]; do echo {INKALA_SOLUTION}; n=$((n - 1)); done"
        ))
        .arg(&file)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    assert!(left_behind(&marker(6)).is_empty());
    let rows = csv_rows(&out);
    let stays = &rows[1];
    assert_eq!(stays[col("solver")], *"stays");
    assert!(
        stays[col("failure")].starts_with("answered puzzles 1..1 but did not exit within "),
        "{stays:?}"
    );
    assert_eq!(stays[col("runs")], *"0");
    let quits = &rows[2];
    assert_eq!(quits[col("solver")], *"quits");
    assert_eq!(quits[col("validated")], *"20");
    assert_eq!(
        quits[col("failure")],
        *"exited after 0 lines on puzzles 1..20, which it answered in validation: no run timed"
    );
}

/// A program that hangs on a puzzle inside a long batch, cut by the end of
/// validation: that puzzle was left out (not validated, not a timeout) and
/// the row read as every puzzle answered. A puzzle the program has been on
/// longer than a one-puzzle run may take is a timeout.
#[cfg(unix)]
#[test]
fn a_program_hanging_inside_a_batch_cut_by_validation_times_out() {
    let dir = tempfile::tempdir().unwrap();
    // Twenty puzzles, all with Inkala's solution; the eighth, the first of
    // the fourth batch (8..15), differs from the others.
    let blanked = diagonal_blanked();
    let mut eighth = INKALA_SOLUTION.to_string();
    eighth.replace_range(40..41, ".");
    let lines: Vec<&str> = (1..=20)
        .map(|i| {
            if i == 8 {
                eighth.as_str()
            } else {
                blanked.as_str()
            }
        })
        .collect();
    let file = dir.path().join("twenty.txt");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let out = bench()
        .args(["--format", "csv", "-s", "sudoflow", "--budget", "0.2"])
        .args(["--validate-time", "2"])
        .arg("--external")
        .arg(format!(
            "hangs=while read l; do [ \"$l\" = {eighth} ] && exec sleep {}; \
             echo {INKALA_SOLUTION}; done",
            marker(7)
        ))
        .arg(&file)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(left_behind(&marker(7)).is_empty());
    let rows = csv_rows(&out);
    let hangs = &rows[1];
    assert_eq!(hangs[col("solver")], *"hangs");
    assert_eq!(
        (
            &hangs[col("validated")],
            &hangs[col("timeouts")],
            &hangs[col("answered_pct")]
        ),
        ("8", "1", "87.50"),
        "{hangs:?}"
    );
}
