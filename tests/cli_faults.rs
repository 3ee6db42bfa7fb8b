//! Faults as a user meets them (issue 12): a runaway line and a panic on one
//! record. The real binary, the exact file, the exit code and every row.

use assert_cmd::Command;
use flate2::write::GzEncoder;
use std::io::Write;
use std::path::Path;
use sudoflow::grid::Grid;

const P17: &str =
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const TOP: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

/// A 1 MiB line: 16 times the 64 KiB cap.
const LONG: usize = 1 << 20;

fn rows(stdout: &[u8]) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_reader(stdout);
    reader
        .records()
        .map(|r| r.expect("CSV row").iter().map(str::to_owned).collect())
        .collect()
}

/// The row of a valid puzzle solved by `solve`: unique, and its solution
/// obeys the rules and keeps the givens.
fn assert_solved(row: &[String], index: usize, puzzle: &str) {
    assert_eq!(row[0], index.to_string());
    assert_eq!(row[1], puzzle);
    assert_eq!(row[2], "unique", "{row:?}");
    let solution = Grid::parse(&row[4]).expect("a solution");
    assert!(solution.is_solution_of(&Grid::parse(puzzle).unwrap()));
}

/// Writes `text` to `dir/name`, gzipped when the name ends in `.gz`.
fn write(dir: &Path, name: &str, text: &[u8]) -> std::path::PathBuf {
    let path = dir.join(name);
    let bytes = if name.ends_with(".gz") {
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(text).unwrap();
        e.finish().unwrap()
    } else {
        text.to_vec()
    };
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn a_line_over_64_kib_is_one_invalid_row_giving_its_length_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    // Line 2: 1 MiB of digits (CRLF); line 4: a 100 KB comment, skipped;
    // line 6: a last line of 1 MiB + 1 without an end.
    let mut text = Vec::new();
    text.extend(format!("{P17}\n").as_bytes());
    text.extend(std::iter::repeat_n(b'1', LONG));
    text.extend(format!("\r\n{INKALA}\n# ").as_bytes());
    text.extend(std::iter::repeat_n(b'x', 100_000));
    text.extend(format!("\n{TOP}\n").as_bytes());
    text.extend(std::iter::repeat_n(b'.', LONG + 1));
    for name in ["long.txt", "long.txt.gz"] {
        let path = write(dir.path(), name, &text);
        for threads in ["1", "2"] {
            let out = Command::cargo_bin("sudoflow")
                .unwrap()
                .args(["solve", "-j", threads])
                .arg(&path)
                .assert()
                .code(0)
                .get_output()
                .clone();
            let rows = rows(&out.stdout);
            assert_eq!(rows.len(), 5, "{name} -j {threads}");
            assert_solved(&rows[0], 1, P17);
            assert_eq!(rows[1][0], "2");
            assert_eq!(rows[1][1], format!("{}...", "1".repeat(200)));
            assert_eq!(rows[1][2], "invalid");
            let file = path.display();
            assert_eq!(
                rows[1][10],
                format!("{file}:2: line too long: 1048576 bytes, the limit is 65536")
            );
            assert_solved(&rows[2], 3, INKALA);
            assert_solved(&rows[3], 4, TOP);
            assert_eq!(rows[4][2], "invalid");
            assert_eq!(
                rows[4][10],
                format!("{file}:6: line too long: 1048577 bytes, the limit is 65536")
            );
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.contains("5 records (3 unique, 2 invalid)"),
                "{stderr}"
            );
        }
        // --strict: the same rows, exit 1.
        Command::cargo_bin("sudoflow")
            .unwrap()
            .args(["solve", "--strict", "-q"])
            .arg(&path)
            .assert()
            .code(1);
    }
}

/// A line of blanks is skipped however long (a short one is): 70,000
/// spaces, then 70,000 tabs and spaces with a CRLF end, in plain text,
/// gzip and a CSV past its header. Blanks with one other byte past the cap
/// (a stray `x`, a `\r` inside the line) are a record: an invalid row.
#[test]
fn a_line_of_blanks_over_64_kib_is_skipped_as_a_short_one_is() {
    let dir = tempfile::tempdir().unwrap();
    let spaces = " ".repeat(70_000);
    let tabs = " \t".repeat(35_000);
    let plain =
        format!("{P17}\n{spaces}\n{INKALA}\n{tabs}\r\n{spaces}x\n{TOP}\n{spaces}\r{spaces}\n");
    let csv = format!("id,puzzle\n{spaces}\na,{INKALA}\n{tabs}\r\n{spaces}x\nb,{TOP}\n");
    for (name, text, lines) in [
        ("blank.txt", &plain, [3, 5, 6, 7]),
        ("blank.txt.gz", &plain, [3, 5, 6, 7]),
        ("blank.csv", &csv, [3, 5, 6, 0]),
    ] {
        let path = write(dir.path(), name, text.as_bytes());
        let out = Command::cargo_bin("sudoflow")
            .unwrap()
            .args(["solve", "-q", "--source"])
            .arg(&path)
            .assert()
            .code(0)
            .get_output()
            .clone();
        let rows = rows(&out.stdout);
        let file = path.display().to_string();
        let at = |row: &[String]| (row[row.len() - 2].clone(), row[row.len() - 1].clone());
        let csv = name.ends_with(".csv");
        let mut want = vec![(INKALA, lines[0]), ("", lines[1]), (TOP, lines[2])];
        if !csv {
            want.insert(0, (P17, 1));
            want.push(("", lines[3]));
        }
        assert_eq!(rows.len(), want.len(), "{name}: {rows:?}");
        for (k, (row, (puzzle, line))) in rows.iter().zip(want).enumerate() {
            assert_eq!(row[0], (k + 1).to_string(), "{name}");
            assert_eq!(
                at(row),
                (file.clone(), line.to_string()),
                "{name} row {}",
                k + 1
            );
            if puzzle.is_empty() {
                assert_eq!(row[2], "invalid", "{name} line {line}");
                assert!(row[10].contains("line too long"), "{name}: {}", row[10]);
            } else {
                assert_solved(row, k + 1, puzzle);
            }
        }
    }
}

#[test]
fn a_line_of_exactly_64_kib_is_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    // 65,536 bytes and a CRLF: at the cap, so an ordinary (wrong-length) record.
    let mut text = vec![b'1'; 65_536];
    text.extend(b"\r\n");
    let path = write(dir.path(), "cap.txt", &text);
    let out = Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["solve", "-q"])
        .arg(&path)
        .assert()
        .code(0)
        .get_output()
        .clone();
    let rows = rows(&out.stdout);
    assert_eq!(rows.len(), 1);
    assert_eq!(
        rows[0][10],
        format!(
            "{}:1: wrong length: expected 81 cells, found 65536",
            path.display()
        )
    );
}

/// Six puzzles on lines 2-7 under a comment line.
fn six_puzzles(dir: &Path) -> std::path::PathBuf {
    let mut text = String::from("# six\n");
    for p in [P17, INKALA, TOP, P17, INKALA, TOP] {
        text.push_str(p);
        text.push('\n');
    }
    write(dir, "six.txt", text.as_bytes())
}

const SIX: [&str; 6] = [P17, INKALA, TOP, P17, INKALA, TOP];

fn panicking(args: &[&str], input: &Path) -> (Vec<Vec<String>>, String) {
    let out = Command::cargo_bin("sudoflow")
        .unwrap()
        .args(args)
        .arg(input)
        .env("SUDOFLOW_TEST_PANIC_AT", "2,5")
        .assert()
        .code(3)
        .get_output()
        .clone();
    (
        rows(&out.stdout),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn panic_error(input: &Path, line: usize, record: usize) -> String {
    format!(
        "{}:{line}: internal error (a bug in sudoflow; please report it): \
         SUDOFLOW_TEST_PANIC_AT: record {record}",
        input.display()
    )
}

#[test]
fn a_panic_on_a_record_gives_it_an_error_row_keeps_every_other_row_and_exits_3() {
    let dir = tempfile::tempdir().unwrap();
    let input = six_puzzles(dir.path());
    for threads in ["1", "2"] {
        for se in [false, true] {
            let mut args = vec!["solve", "-j", threads, "--batch-size", "2"];
            if se {
                args.push("--se");
            }
            let (rows, stderr) = panicking(&args, &input);
            assert_eq!(rows.len(), 6, "{args:?}");
            for (i, row) in rows.iter().enumerate() {
                if i == 1 || i == 4 {
                    assert_eq!(row[0], (i + 1).to_string());
                    assert_eq!(row[1], SIX[i]);
                    assert_eq!(row[2], "error");
                    assert_eq!(row[4], "");
                    assert_eq!(row[10], panic_error(&input, i + 2, i + 1));
                } else {
                    // The worker's state, rebuilt after the panic, still solves.
                    assert_solved(row, i + 1, SIX[i]);
                }
            }
            assert!(stderr.contains("6 records (4 unique, 2 error)"), "{stderr}");
            assert!(
                stderr.contains("2 record(s) hit an internal error"),
                "{stderr}"
            );
        }
    }
}

#[test]
fn count_and_rate_give_error_rows_too() {
    let dir = tempfile::tempdir().unwrap();
    let input = six_puzzles(dir.path());
    let (rows, stderr) = panicking(&["count", "-j", "2"], &input);
    assert_eq!(rows.len(), 6);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[..2], [(i + 1).to_string(), SIX[i].to_string()]);
        if i == 1 || i == 4 {
            assert_eq!(row[2..], ["error", "", &panic_error(&input, i + 2, i + 1)]);
        } else {
            assert_eq!(row[2..], ["unique", "1", ""]);
        }
    }
    assert!(stderr.contains("6 records (4 unique, 2 error)"), "{stderr}");

    let (rows, stderr) = panicking(&["rate", "-j", "1", "--time-budget", "1"], &input);
    assert_eq!(rows.len(), 6);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[..2], [(i + 1).to_string(), SIX[i].to_string()]);
        if i == 1 || i == 4 {
            assert_eq!(row[2], "error");
            assert_eq!(row[8], panic_error(&input, i + 2, i + 1));
        } else {
            assert!(["rated", "timeout"].contains(&row[2].as_str()), "{row:?}");
        }
    }
    assert!(stderr.contains("2 error)"), "{stderr}");

    // canon too: its error column says so, and the run exits 3 (found by
    // probing: it exited 0, the panics counted as invalid records).
    let (rows, stderr) = panicking(&["canon", "-j", "2"], &input);
    assert_eq!(rows.len(), 6);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[0], (i + 1).to_string());
        match i {
            1 | 4 => assert_eq!(row[5], panic_error(&input, i + 2, i + 1), "{row:?}"),
            _ => assert_eq!(row[5], "", "{row:?}"),
        }
    }
    assert!(
        stderr.contains("2 error)") && !stderr.contains("invalid"),
        "{stderr}"
    );
}

#[test]
fn help_and_readme_document_exit_code_3() {
    let help = Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["solve", "--help"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8_lossy(&help).contains("3 an internal error"));
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    assert!(readme.contains("3: the work on some record panicked"));
}

/// A system that refuses threads (`ulimit -u`, memory for their stacks)
/// made every command with `-j 2` or more panic (exit 101) where it starts
/// its workers. Here no stack fits: Rust's threads take their stack size
/// from RUST_MIN_STACK (rayon's too), and one of a petabyte cannot be
/// mapped, the same refusal (EAGAIN) as a process limit's, as root too.
/// Each command must stop with exit 2 and say so, writing no row.
#[test]
fn a_system_that_refuses_threads_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let input = six_puzzles(dir.path());
    let input = input.to_str().unwrap();
    let book = dir.path().join("book.pdf");
    let runs: [&[&str]; 9] = [
        &["solve", input],
        &["solve", input, "--format", "jsonl"],
        &["rate", input],
        &["count", input],
        &["canon", input],
        &["explain", input],
        &["generate", "--count", "3"],
        &["count-grids", "--box", "2x2"],
        &["print", input, "-o", book.to_str().unwrap()],
    ];
    for args in runs {
        let out = Command::cargo_bin("sudoflow")
            .unwrap()
            .args(args)
            .args(["-j", "2"])
            .env("RUST_MIN_STACK", "1000000000000000")
            .assert()
            .code(2)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("cannot start the worker threads: ")
                && stderr.contains("fewer worker threads may fit")
                && !stderr.contains("panicked"),
            "{args:?}: {stderr}"
        );
        assert!(
            rows(&out.stdout).is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    assert!(!book.exists());
}

/// A stdin the shell closed (`<&-`) is an error naming it, before any output
/// (found by probing: read as empty, a run of no records, exit 0); stdin
/// from /dev/null is still an empty input.
#[test]
fn a_closed_stdin_is_an_error_not_an_empty_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.csv");
    let bin = assert_cmd::cargo::cargo_bin("sudoflow");
    for command in ["solve", "rate", "count", "canon", "explain"] {
        let run = std::process::Command::new("sh")
            .arg("-c")
            .arg("exec \"$0\" \"$1\" -q -o \"$2\" <&-")
            .arg(&bin)
            .arg(command)
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{command}: {err}");
        assert!(
            err.contains("cannot read stdin: it is closed"),
            "{command}: {err}"
        );
        assert!(!out.exists() && !dir.path().join("x.csv.partial").exists());
        let empty = std::process::Command::new(&bin)
            .args([command, "-q"])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(empty.status.code(), Some(0), "{command}");
    }
}

/// A main-thread stack of 64 KiB (`ulimit -s 64`) does not bound the work:
/// the command runs on a thread of its own (found by probing: `rate -j 1`,
/// whose calling thread works too, overflowed it and aborted).
#[test]
fn a_small_stack_limit_does_not_abort_a_run() {
    let set =
        sudoflow::datasets::public_path(sudoflow::datasets::HARDEST_1106).expect("make datasets");
    let puzzles: String = std::fs::read_to_string(set)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(20)
        .map(|l| format!("{l}\n"))
        .collect();
    for command in ["rate", "solve", "explain"] {
        let mut child = std::process::Command::new("sh")
            .arg("-c")
            .arg("ulimit -s 64 && exec \"$0\" \"$1\" -j 1 -q --format jsonl")
            .arg(assert_cmd::cargo::cargo_bin("sudoflow"))
            .arg(command)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(puzzles.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{command}: {err}");
        assert_eq!(
            out.stdout
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .count(),
            20,
            "{command}"
        );
    }
}

/// `solve SAMPLE -o OUT` under strace, the `n`-th call of `syscall` failing
/// with `errno`: the exit code and stderr. strace is one of the test tools
/// (`make test-tools` installs it).
fn under_fault(syscall: &str, errno: &str, n: usize, input: &Path, out: &Path) -> (i32, String) {
    let output = std::process::Command::new("strace")
        .args(["-f", "-o", "/dev/null", "-e"])
        .arg(format!("trace={syscall}"))
        .arg("-e")
        .arg(format!("inject={syscall}:error={errno}:when={n}"))
        .arg(assert_cmd::cargo::cargo_bin("sudoflow"))
        .args(["solve", "-q", "-j", "1"])
        .arg(input)
        .arg("-o")
        .arg(out)
        .output()
        .expect("strace (make test-tools installs it)");
    let code = output.status.code().expect("an exit code");
    (code, String::from_utf8_lossy(&output.stderr).into_owned())
}

/// Each fsync of a run failing in turn, then each read: the run either
/// completes, or fails with FILE left as it was and FILE.partial resumable
/// to the same bytes, or (the folder's fsync after the rename) says that
/// FILE is written, whole, leaving no sidecar behind; a read of the partial
/// file back that fails is said as a read error, not as another program's
/// change (found by probing: the folder's fsync left the sidecar and said
/// nothing of FILE; the read's EIO was blamed on another program). A lock
/// the file system refuses (ENOLCK, NFS without its lock service) leaves no
/// empty FILE.partial that would refuse the next run.
#[test]
fn injected_io_errors_lose_nothing_and_say_what_happened() {
    let dir = tempfile::tempdir().unwrap();
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/sample.txt");
    let want_path = dir.path().join("want.csv");
    Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["solve", "-q", "-j", "1"])
        .arg(&input)
        .arg("-o")
        .arg(&want_path)
        .assert()
        .success();
    let want = std::fs::read(&want_path).unwrap();
    let partial = |out: &Path| std::path::PathBuf::from(format!("{}.partial", out.display()));
    let sidecar = |out: &Path| std::path::PathBuf::from(format!("{}.partial.json", out.display()));
    let mut said = std::collections::BTreeSet::new();
    for (syscall, calls) in [("fsync", 6), ("read", 80)] {
        for n in 1..=calls {
            let out = dir.path().join(format!("{syscall}-{n}.csv"));
            let (code, err) = under_fault(syscall, "EIO", n, &input, &out);
            let case = format!("{syscall} #{n}: exit {code}: {err}");
            match code {
                0 => assert_eq!(std::fs::read(&out).unwrap(), want, "{case}"),
                // The first reads are the loader's, before any of ours.
                127 if err.contains("error while loading shared libraries") => {
                    assert!(!out.exists() && !partial(&out).exists(), "{case}");
                }
                2 if err.contains("is written, whole, but its folder's fsync failed") => {
                    said.insert("folder");
                    assert_eq!(std::fs::read(&out).unwrap(), want, "{case}");
                    assert!(!partial(&out).exists() && !sidecar(&out).exists(), "{case}");
                }
                2 => {
                    if err.contains("cannot be read back to check it") {
                        said.insert("read back");
                    }
                    assert!(!err.contains("another program"), "{case}");
                    assert!(!out.exists(), "{case}");
                    Command::cargo_bin("sudoflow")
                        .unwrap()
                        .args(["solve", "-q", "-j", "1", "--resume"])
                        .arg(&input)
                        .arg("-o")
                        .arg(&out)
                        .assert()
                        .success();
                    assert_eq!(std::fs::read(&out).unwrap(), want, "{case}, resumed");
                }
                _ => panic!("{case}"),
            }
        }
    }
    assert_eq!(
        said.into_iter().collect::<Vec<_>>(),
        ["folder", "read back"],
        "both faults were met"
    );
    let out = dir.path().join("nolock.csv");
    let (code, err) = under_fault("flock", "ENOLCK", 1, &input, &out);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot lock"), "{err}");
    assert!(!partial(&out).exists() && !out.exists(), "{err}");
}
