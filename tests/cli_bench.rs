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

const COLUMNS: [&str; 15] = [
    "dataset",
    "solver",
    "puzzles",
    "validated",
    "runs",
    "puzzles_per_sec",
    "us_per_puzzle",
    "no_guess_pct",
    "guesses_per_puzzle",
    "answered_pct",
    "timeouts",
    "disagreements",
    "rustc",
    "profile",
    "target_features",
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
        assert_eq!(&r[11], "0", "disagreements");
    }
    // The complete solvers answer both puzzles; the diagonal-blanked one
    // needs no guess, Inkala's does.
    assert_eq!(&rows[0][9], "100.00");
    assert_eq!(&rows[1][9], "100.00");
    assert_eq!(&rows[0][7], "50.00");
}

#[test]
fn json_has_the_build_and_the_same_keys() {
    let dir = tempfile::tempdir().unwrap();
    let file = tiny(dir.path());
    let out = bench()
        .args(["--format", "json", "-s", "mrv,welsh-powell"])
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
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
        for key in &COLUMNS[..12] {
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
    assert!(rows.iter().all(|r| &r[11] == "0"));
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
    assert_eq!(&rows[1][9], "100.00");
    assert_eq!(&rows[1][8], "", "an external does not report guesses");
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
fn a_bad_line_names_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.txt");
    std::fs::write(&path, format!("{INKALA}\n12x\n")).unwrap();
    bench()
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("bad.txt:2: not a puzzle"));
}
