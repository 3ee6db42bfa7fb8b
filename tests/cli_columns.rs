//! Columns users can trust (issue 13): `--blank` to join back on the input,
//! one duration syntax, empty fields where nothing applies, and help that
//! says what the columns mean. Each runs the binary as a user would.

use assert_cmd::Command;
use predicates::prelude::PredicateBooleanExt;

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const INKALA_SOLUTION: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

fn sudoflow() -> Command {
    Command::cargo_bin("sudoflow").unwrap()
}

fn records(out: &[u8]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut rdr = csv::Reader::from_reader(out);
    let header = rdr.headers().unwrap().iter().map(String::from).collect();
    let rows = rdr
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

fn column(header: &[String], name: &str) -> usize {
    header.iter().position(|h| h == name).unwrap()
}

/// A Kaggle-style CSV (`quizzes,solutions`, `0` blanks) through each command
/// with `--blank 0`: the puzzle column equals the input field, so the output
/// joins back on it. A clashing record's puzzle column takes the blank too;
/// a malformed one is written as read.
#[test]
fn blank_zero_gives_back_the_kaggle_field_in_every_command() {
    let zeros = INKALA.replace('.', "0");
    let clash = format!("55{}", "0".repeat(79));
    let short = "12.0";
    let input = format!("quizzes,solutions\n{zeros},{INKALA_SOLUTION}\n{clash},x\n{short},x\n");
    for command in ["solve", "count", "rate"] {
        let out = sudoflow()
            .args([command, "--blank", "0"])
            .write_stdin(input.clone())
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let (header, rows) = records(&out);
        let p = column(&header, "puzzle");
        assert_eq!(rows[0][p], zeros, "{command}");
        assert_eq!(rows[1][p], clash, "{command}");
        assert_eq!(rows[2][p], short, "{command}: an invalid record as read");
    }
    // The default stays '.'.
    let out = sudoflow()
        .arg("solve")
        .write_stdin(input.clone())
        .output()
        .unwrap();
    let (header, rows) = records(&out.stdout);
    assert_eq!(rows[0][column(&header, "puzzle")], INKALA);
    sudoflow()
        .args(["solve", "--blank", "y"])
        .write_stdin(input)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "the blank must be one of '.', '0', '_', '-', '*', 'x' or 'X'",
        ));
}

/// An invalid row in `solve` makes up no figures: the fields that do not
/// apply are empty, as in `count`, so `solutions == 0` and `clues.mean()`
/// see only real puzzles.
#[test]
fn invalid_rows_have_empty_fields_not_zeros() {
    let out = sudoflow()
        .arg("solve")
        .write_stdin(format!("{INKALA}\n12x\n"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let (header, rows) = records(&out);
    for name in [
        "solutions",
        "solution",
        "clues",
        "wnf",
        "wnf_level",
        "guesses",
        "backtracks",
    ] {
        assert_eq!(rows[1][column(&header, name)], "", "{name}");
    }
    assert_eq!(rows[0][column(&header, "clues")], "21");
    assert_eq!(rows[1][column(&header, "status")], "invalid");
}

/// Every option taking a duration reads the same forms: plain seconds,
/// fractions, and numbers with a unit.
#[test]
fn one_duration_syntax_for_every_option() {
    for budget in ["2", "1.5", "500ms", "3s", "1.5s", "2m", "1m30s"] {
        sudoflow()
            .args(["count", "--time-budget", budget])
            .write_stdin(format!("{INKALA}\n"))
            .assert()
            .success();
        sudoflow()
            .args(["rate", "--time-budget", budget])
            .write_stdin(format!("{INKALA}\n"))
            .assert()
            .success();
        sudoflow()
            .args(["solve", "--se", "--se-budget", budget])
            .write_stdin(format!("{INKALA}\n"))
            .assert()
            .success();
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("one.txt");
    std::fs::write(&file, format!("{INKALA}\n")).unwrap();
    sudoflow()
        .args([
            "bench", "-s", "sudoflow", "--time", "50ms", "--warmup", "0s",
        ])
        .args(["--budget", "1s", "--validate-time", "2s", "--format", "csv"])
        .arg(&file)
        .assert()
        .success();
    sudoflow()
        .args(["count", "--time-budget", "soon"])
        .write_stdin(format!("{INKALA}\n"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("500ms, 3s"));
}

/// `solve --help` explains its columns, WNF says what it measures, and the
/// limit convention is the one `count --max` follows.
#[test]
fn help_explains_the_columns_and_the_cap() {
    let out = sudoflow().args(["solve", "--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "Columns: index,puzzle,status,solutions",
        "not a difficulty",
        "N means N or more",
        "--blank",
    ] {
        assert!(help.contains(needle), "solve --help lacks {needle:?}");
    }
    let out = sudoflow().args(["count", "--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("N or more"), "{help}");
    let out = sudoflow().args(["generate", "--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(!help.contains("1 easy"), "{help}");
    assert!(
        help.contains("how few candidates the givens leave"),
        "{help}"
    );
}

/// Help and messages that match the tool (issue 13, "Help that matches the tool").
#[test]
fn help_and_messages_match_the_tool() {
    // -j 0 says what is needed, in every command that takes -j.
    for command in ["solve", "count", "rate", "generate", "count-grids"] {
        sudoflow()
            .args([command, "-j", "0"])
            .write_stdin("")
            .assert()
            .code(2)
            .stderr(predicates::str::contains("at least 1 thread"))
            .stderr(predicates::str::contains("non-zero type").not());
        // Far more threads than cores is refused too (issue 29: -j 100000
        // spent 11 s starting threads), before any output is made.
        sudoflow()
            .args([command, "-j", "100000"])
            .write_stdin("")
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicates::str::contains("far more than this machine's"))
            .stderr(predicates::str::contains("at most"));
    }
    // Up to 4 per core (at least 16) is taken.
    sudoflow()
        .args(["solve", "-q", "-j", "16"])
        .write_stdin(
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...\n",
        )
        .assert()
        .success();
    // --symmetry: one indexing throughout.
    let out = sudoflow().args(["generate", "--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("zero-based"), "{help}");
    assert!(
        !help.contains("column 5") && !help.contains("row 5"),
        "{help}"
    );
    assert!(help.contains("c = 4") && help.contains("r = 4"), "{help}");
    // solve --help's example path exists in a checkout.
    let out = sudoflow().args(["solve", "--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let example = help
        .lines()
        .find_map(|l| l.trim().strip_prefix("sudoflow solve datasets/"))
        .expect("an example reading a file of datasets/");
    let file = example.split_whitespace().next().unwrap();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("datasets")
        .join(file);
    assert!(path.is_file(), "{} is not in the checkout", path.display());
    // Every command the top-level help names exists.
    let out = sudoflow().arg("--help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    for command in ["solve", "rate", "generate", "count", "bench"] {
        assert!(help.contains(&format!("  {command} ")), "{command}");
        sudoflow().args([command, "--help"]).assert().success();
    }
}

/// A generator that cannot meet --clues with minimal puzzles suggests
/// --no-minimal and says what its counts are.
#[test]
fn generate_failure_suggests_no_minimal() {
    sudoflow()
        .args(["generate", "-n", "1", "--seed", "1", "--clues", "40..41"])
        .args(["--max-tries", "20", "-q"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("none of its 20 candidates"))
        .stderr(predicates::str::contains("try --no-minimal"));
    // Too few clues: --no-minimal would not help, so it is not suggested.
    sudoflow()
        .args(["generate", "-n", "1", "--seed", "1", "--clues", "17..18"])
        .args(["--max-tries", "20", "-q"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("--no-minimal").not());
}
