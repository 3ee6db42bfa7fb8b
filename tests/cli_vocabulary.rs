//! One vocabulary (issue 30): every command spells an idea the same way,
//! with the same default, help text and messages, and the old spellings
//! still work without being shown.

use assert_cmd::Command;
use predicates::prelude::*;

fn sudoflow() -> Command {
    Command::cargo_bin("sudoflow").unwrap()
}

const PUZZLE: &str =
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";

/// The long help of `command` (`--help`).
fn help(command: &str) -> String {
    let out = sudoflow().args([command, "--help"]).output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// The block of `help` that documents `option` (its line and the indented
/// lines under it, up to the next option).
fn option_block<'a>(help: &'a str, option: &str) -> Option<&'a str> {
    let start = help.find(&format!("  {option}"))?;
    let rest = &help[start..];
    // The next line that starts an option or an argument (indented at most
    // six spaces, where a value list under an option is indented ten).
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        let indent = line.len() - line.trim_start().len();
        if offset > 0 && indent <= 6 && line.trim_start().starts_with(['-', '[', '<']) {
            return Some(&rest[..offset]);
        }
        offset += line.len();
    }
    Some(rest)
}

#[test]
fn shared_options_read_the_same_in_every_command() {
    let commands = ["solve", "rate", "count", "canon"];
    let helps: Vec<String> = commands.iter().map(|c| help(c)).collect();
    for option in [
        "--column",
        "--blank",
        "--strict",
        "-o, --output",
        "--format",
        "--resume",
        "-q, --quiet",
        "-j, --threads",
        "--batch-size",
        "[INPUT]...",
    ] {
        let first = option_block(&helps[0], option)
            .unwrap_or_else(|| panic!("solve --help lacks {option}"));
        for (command, help) in commands.iter().zip(&helps).skip(1) {
            let block = option_block(help, option)
                .unwrap_or_else(|| panic!("{command} --help lacks {option}"));
            assert_eq!(block, first, "{command} {option}");
        }
        // An example is the option's own, never another command's.
        assert!(!first.contains("sudoflow solve"), "{option}: {first}");
    }
    // The budget: one spelling, each command's default.
    for (command, default) in [("rate", "10s"), ("count", "none"), ("explain", "10s")] {
        let out = sudoflow().args([command, "-h"]).output().unwrap();
        let short = String::from_utf8(out.stdout).unwrap();
        // The option's entry: its line and the wrapped lines under it.
        let start = short
            .find("--time-budget <TIME>")
            .unwrap_or_else(|| panic!("{command} -h: {short}"));
        let line: String = short[start..]
            .lines()
            .enumerate()
            .take_while(|(i, l)| *i == 0 || l.starts_with("            "))
            .map(|(_, l)| l.trim())
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            line.contains(&format!("[default: {default}]")),
            "{command}: {line}"
        );
        assert!(short.contains("--wall-limit <TIME>"), "{command}: {short}");
    }
    // print writes no status column: its budgets say what they do there.
    let out = sudoflow().args(["print", "--help"]).output().unwrap();
    let long = String::from_utf8(out.stdout).unwrap();
    let start = long.find("--time-budget <TIME>").unwrap();
    let end = long[start..].find("-q, --quiet").unwrap();
    let budgets = long[start..start + end]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(!budgets.contains("status 'timeout'"), "{budgets}");
    assert!(budgets.contains("left out of the book"), "{budgets}");
    // -j everywhere it exists, worded one way.
    for command in ["solve", "rate", "count", "canon", "generate", "count-grids"] {
        let out = sudoflow().args([command, "-h"]).output().unwrap();
        let short = String::from_utf8(out.stdout).unwrap();
        assert!(
            short.contains("Worker threads [default: all cores]"),
            "{command}: {short}"
        );
    }
    // The blanks are listed alike wherever input is described.
    for command in ["solve", "rate", "count", "canon", "explain"] {
        assert!(
            help(command)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains("'.', '0', '_', '-', '*', 'x' or 'X'"),
            "{command}"
        );
    }
}

#[test]
fn old_spellings_still_work_and_are_not_shown() {
    // count --max is --limit.
    let new = sudoflow()
        .args(["count", "-q", "--limit", "3"])
        .write_stdin(format!("{}\n", ".".repeat(81)))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    sudoflow()
        .args(["count", "-q", "--max", "3"])
        .write_stdin(format!("{}\n", ".".repeat(81)))
        .assert()
        .success()
        .stdout(String::from_utf8(new.clone()).unwrap());
    assert!(String::from_utf8_lossy(&new).contains(",capped,3,"));
    assert!(!help("count").contains("--max"));
    // bench --budget is --time-budget.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("one.txt");
    std::fs::write(&file, format!("{PUZZLE}\n")).unwrap();
    for spelling in ["--budget", "--time-budget"] {
        sudoflow()
            .args([
                "bench", "-s", "sudoflow", "-t", "0.05", "-w", "0", spelling, "0.5",
            ])
            .arg(&file)
            .assert()
            .success();
    }
    let bench = help("bench");
    assert!(bench.contains("--time-budget") && !bench.contains("--budget <"));
    // generate's whole-run limit is --max-time. --time-budget, its old
    // name, is refused: elsewhere it is a record's budget, which here is
    // --se-budget, and the error names both.
    sudoflow()
        .args([
            "generate",
            "-q",
            "-n",
            "2",
            "--seed",
            "1",
            "--max-time",
            "1m",
        ])
        .assert()
        .success();
    sudoflow()
        .args([
            "generate",
            "-q",
            "-n",
            "2",
            "--seed",
            "1",
            "--time-budget",
            "1m",
        ])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("--max-time 1m")
                .and(predicate::str::contains("--se-budget 1m")),
        );
    assert!(!help("generate").contains("--time-budget <"));
}

#[test]
fn values_are_refused_with_our_own_words() {
    // A negative budget: not clap's "-- -1" advice.
    for command in ["rate", "count"] {
        sudoflow()
            .args([command, "--time-budget", "-1"])
            .write_stdin("")
            .assert()
            .code(2)
            .stderr(predicate::str::contains("a time budget must be above zero"))
            .stderr(predicate::str::contains("-- -1").not());
        // NaN is not a number, not a duration "below 0" (found by probing).
        sudoflow()
            .args([command, "--time-budget", "nan"])
            .write_stdin("")
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "\"nan\" is not a duration (not a number)",
            ))
            .stderr(predicate::str::contains("0 or more").not());
    }
    // A range written with a dash says to use two dots.
    sudoflow()
        .args(["generate", "--se", "1.0-1.5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("MIN..MAX"))
        .stderr(predicate::str::contains("1.0..1.5"));
    sudoflow()
        .args(["generate", "--clues", "20-23"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("20..23"));
}

#[test]
fn an_output_named_json_is_json_lines() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    sudoflow()
        .args(["solve", "-q", "-o"])
        .arg(&out)
        .write_stdin(format!("{PUZZLE}\n{PUZZLE}\n"))
        .assert()
        .success();
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    for (i, line) in lines.iter().enumerate() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(row["index"], i + 1);
        assert_eq!(row["status"], "unique");
    }
}

/// `--format` reads the same in every command: any case, and `ndjson` for
/// JSON Lines wherever JSON Lines is offered (found by probing: explain
/// refused `JSONL` and `ndjson`, bench `CSV`, print `PDF`, which solve
/// would take).
#[test]
fn format_names_read_alike_in_every_command() {
    let lines = |args: &[&str]| -> Vec<u8> {
        sudoflow()
            .args(args)
            .write_stdin(format!("{PUZZLE}\n"))
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    for command in ["solve", "rate", "count", "canon", "explain"] {
        let want = lines(&[command, "-q", "--format", "jsonl"]);
        let row: serde_json::Value = serde_json::from_slice(&want).unwrap();
        assert_eq!(row["index"], 1, "{command}");
        for spelling in ["JSONL", "ndjson", "NDJSON"] {
            assert_eq!(
                lines(&[command, "-q", "--format", spelling]),
                want,
                "{command} --format {spelling}"
            );
        }
    }
    let table = |format: &str| {
        sudoflow()
            .args([
                "bench", "-s", "sudoflow", "-t", "0.01", "-w", "0", "--format", format,
            ])
            .arg("-")
            .write_stdin(format!("{PUZZLE}\n"))
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book");
    sudoflow()
        .args(["print", "-q", "--format", "PDF", "--page", "A4", "-o"])
        .arg(&book)
        .arg("-")
        .write_stdin(format!("{PUZZLE}\n"))
        .assert()
        .success();
    assert!(std::fs::read(&book).unwrap().starts_with(b"%PDF"));
    let csv = String::from_utf8(table("CSV")).unwrap();
    assert!(csv.starts_with("dataset,solver,puzzles,"), "{csv}");
    assert!(
        csv.lines().nth(1).unwrap().starts_with("-,sudoflow,1,1,"),
        "{csv}"
    );
}

#[test]
fn messages_write_values_as_a_person_would() {
    // A refused resume names the budget as it was given, not Some(10s).
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, format!("{PUZZLE}\n")).unwrap();
    let out = dir.path().join("out.csv");
    // An interrupted run's files: the partial file is created, then its
    // sidecar (atomically, by a rename), before any row; killed once both
    // are there.
    let partial = dir.path().join("out.csv.partial");
    let sidecar = dir.path().join("out.csv.partial.json");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoflow"))
        .args(["rate", "-q", "--time-budget", "10"])
        .arg("-o")
        .arg(&out)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !(partial.exists() && sidecar.exists()) {
        assert!(start.elapsed() < std::time::Duration::from_secs(30));
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    sudoflow()
        .args(["rate", "-q", "--resume", "--time-budget", "20"])
        .arg("-o")
        .arg(&out)
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--time-budget was 10s, now 20s"));
    // One record is "1 record".
    sudoflow()
        .args(["solve", "-"])
        .write_stdin(format!("{PUZZLE}\n"))
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "sudoflow: 1 record (1 unique) in ",
        ));
}

#[test]
fn generate_names_the_filters_that_rejected_and_says_it_all_even_quiet() {
    // Only --se rejects (nothing rates 11.9 among a few easy candidates):
    // the hint names it alone, and with -q, which hides the summary, the
    // error itself gives the acceptance.
    let out = sudoflow()
        .args([
            "generate",
            "-q",
            "-n",
            "1",
            "--seed",
            "1",
            "--se",
            "11.9..11.9",
            "--max-tries",
            "3",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Loosen --se, or raise --max-tries"), "{err}");
    assert!(
        !err.contains("--clues") && !err.contains("--guesses"),
        "{err}"
    );
    assert!(
        err.contains("3 candidates were made and 0.000% accepted; rejected: se 3"),
        "{err}"
    );
    assert!(!err.contains("summary above"), "{err}");
}
