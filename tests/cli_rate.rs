//! `sudoflow rate`, `explain`, `solve --se` and `generate --se` through the
//! binary, as a user runs them: ratings against Sudoku Explainer's
//! (tests/data/se_rated.txt, rated by SE 1.2.1.3), a row per record with
//! bad records named, exit codes, order and -j, the time budget.

use assert_cmd::Command;
use std::io::Write;

const RATED: &str = include_str!("data/se_rated.txt");
/// A puzzle with two solutions (from datasets/sample.txt).
const MULTIPLE: &str =
    "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
/// A well-formed puzzle with no solution: r1c1 can hold nothing (its row has
/// 1-8 and its column 9).
const UNSOLVABLE: &str =
    ".123456789.......................................................................";

fn sudoflow() -> Command {
    Command::cargo_bin("sudoflow").unwrap()
}

/// The reference lines: (puzzle, "er/ep/ed").
fn references() -> Vec<(String, String)> {
    RATED
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            (
                l[..81].to_owned(),
                l.split("ED=").nth(1).unwrap().to_owned(),
            )
        })
        .collect()
}

fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn rate_matches_sudoku_explainer_line_by_line() {
    let refs = references();
    let input: String = refs.iter().map(|(p, e)| format!("{p} ED={e}\n")).collect();
    let out = stdout_of(sudoflow().args(["rate", "-q"]).write_stdin(input.clone()));
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("index,puzzle,status,er,ep,ed,technique,steps,error")
    );
    for (i, ((puzzle, expected), line)) in refs.iter().zip(lines).enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f[0], (i + 1).to_string());
        assert_eq!(f[1], puzzle.replace('0', "."));
        assert_eq!(f[2], "rated");
        assert_eq!(format!("{}/{}/{}", f[3], f[4], f[5]), *expected, "{puzzle}");
        assert!(
            !f[6].is_empty() && f[7].parse::<u32>().unwrap() > 0 && f[8].is_empty(),
            "{line}"
        );
    }
    // -j 1 and -j 2 write the same bytes.
    let one = stdout_of(
        sudoflow()
            .args(["rate", "-q", "-j", "1"])
            .write_stdin(input.clone()),
    );
    let two = stdout_of(
        sudoflow()
            .args(["rate", "-q", "-j", "2", "--batch-size", "1"])
            .write_stdin(input),
    );
    assert_eq!(one, out);
    assert_eq!(two, out);
}

#[test]
fn every_record_gets_one_row_and_bad_ones_say_why() {
    let (easy, easy_rating) = references().remove(0);
    let input = format!(
        "# comment\n{easy}\n{MULTIPLE}\n{UNSOLVABLE}\n12345\n5.....5{}\n",
        ".".repeat(74)
    );
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(input.as_bytes()).unwrap();
    let path = file.path().to_str().unwrap().to_owned();
    let out = stdout_of(sudoflow().args(["rate", "-q", &path]));
    let rows: Vec<Vec<String>> = out
        .lines()
        .skip(1)
        .map(|l| {
            csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(l.as_bytes())
                .records()
                .next()
                .unwrap()
                .unwrap()
                .iter()
                .map(String::from)
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), 5);
    let status: Vec<&str> = rows.iter().map(|r| r[2].as_str()).collect();
    assert_eq!(
        status,
        ["rated", "multiple", "unsolvable", "invalid", "invalid"]
    );
    assert_eq!(
        format!("{}/{}/{}", rows[0][3], rows[0][4], rows[0][5]),
        easy_rating
    );
    for r in &rows[1..3] {
        assert!(r[3..8].iter().all(String::is_empty), "{r:?}");
    }
    assert_eq!(rows[1][8], "");
    // An unsolvable row says where the contradiction lies (issue 30).
    assert_eq!(
        rows[2][8],
        format!("{path}:4: no solution: r1c1 has no candidate left after propagation")
    );
    assert_eq!(
        rows[3][8],
        format!("{path}:5: wrong length: expected 81 cells, found 5")
    );
    assert_eq!(
        rows[4][8],
        format!("{path}:6: duplicate 5 in row 1: r1c1, r1c7")
    );
    // --strict: exit 1 after writing every row.
    let strict = sudoflow()
        .args(["rate", "-q", "--strict", &path])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8(strict).unwrap(), out);
    // A missing input: exit 2, naming it, no output.
    let err = sudoflow()
        .args(["rate", "no-such-file.txt"])
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(String::from_utf8(err).unwrap().contains("no-such-file.txt"));
}

/// The budget is named as given, in the unit that writes it whole (`1ns`
/// said `0ms` before).
#[test]
fn a_puzzle_past_the_time_budget_times_out_and_the_run_goes_on() {
    let inkala =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    let (easy, _) = references().remove(0);
    for (budget, named) in [("50ms", "50ms"), ("1500us", "1500us"), ("1ns", "1ns")] {
        let out = stdout_of(
            sudoflow()
                .args(["rate", "-q", "--time-budget", budget])
                .write_stdin(format!("{inkala}\n{easy}\n")),
        );
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines[1].starts_with(&format!("1,{inkala},timeout,,,,,,")),
            "{}",
            lines[1]
        );
        assert!(
            lines[1].contains(&format!(
                "rating took longer than the time budget of {named} of work"
            )),
            "{}",
            lines[1]
        );
        if budget == "50ms" {
            assert!(lines[2].contains(",rated,1.2,1.2,1.2,"), "{}", lines[2]);
        }
    }
}

#[test]
fn explain_shows_the_path_with_rates_numbers() {
    let (puzzle, expected) = references()
        .into_iter()
        .find(|(_, e)| e.starts_with("7.1"))
        .unwrap();
    let text = stdout_of(sudoflow().args(["explain", &puzzle]));
    let [er, ep, ed]: [&str; 3] = expected.split('/').collect::<Vec<_>>().try_into().unwrap();
    assert!(
        text.contains(&format!("ER {er}  EP {ep}  ED {ed}")),
        "{text}"
    );
    assert!(
        text.contains("hardest  step") && text.contains("Forcing Chain"),
        "{text}"
    );
    // One line per step after the header line: "step rating technique
    // result", each followed by the step in words (indented).
    let steps: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("step  rating"))
        .skip(1)
        .filter(|l| !l.starts_with("              "))
        .collect();
    let count: usize = text.lines().find(|l| l.starts_with("steps")).unwrap()[5..]
        .trim()
        .parse()
        .unwrap();
    assert_eq!(steps.len(), count);
    assert!(
        steps.iter().any(|l| l.contains("<>")),
        "eliminations in r1c2 notation"
    );
    assert!(steps[0].trim_start().starts_with("1 "), "{}", steps[0]);

    let json = stdout_of(sudoflow().args(["explain", &puzzle, "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(format!("{}/{}/{}", v["er"], v["ep"], v["ed"]), expected);
    assert_eq!(v["steps"].as_array().unwrap().len(), count);
    let hardest = &v["steps"][v["hardest_step"].as_u64().unwrap() as usize - 1];
    assert_eq!(hardest["technique"], v["technique"]);
    // A step's rating is SE's double (6.699999999999999 for 6.7).
    assert_eq!(
        format!("{:.1}", hardest["rating"].as_f64().unwrap()),
        v["er"].to_string()
    );
    // The same puzzle through stdin.
    let again = stdout_of(
        sudoflow()
            .args(["explain", "-"])
            .write_stdin(format!("{puzzle}\n")),
    );
    assert_eq!(again, text);
    // Not a proper puzzle, or not a puzzle at all: exit 1 with a reason.
    sudoflow()
        .args(["explain", MULTIPLE])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("more than one solution"));
    sudoflow()
        .args(["explain", "123"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "the puzzle is not valid: wrong length",
        ));
}

#[test]
fn solve_se_adds_the_rating_columns() {
    let refs = references();
    let input: String = refs
        .iter()
        .take(4)
        .map(|(p, _)| format!("{p}\n"))
        .chain([format!("{MULTIPLE}\n")])
        .collect();
    let out = stdout_of(sudoflow().args(["solve", "--se", "-q"]).write_stdin(input));
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("index,puzzle,status,solutions,solution,clues,wnf,wnf_level,guesses,backtracks,error,er,ep,ed"));
    for ((_, expected), line) in refs.iter().take(4).zip(lines.by_ref()) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f[2], "unique");
        assert_eq!(format!("{}/{}/{}", f[11], f[12], f[13]), *expected);
    }
    let last = lines.next().unwrap();
    assert_eq!(last.split(',').nth(2), Some("multiple"));
    assert!(
        last.ends_with(",,,,"),
        "no rating for a puzzle with two solutions: {last}"
    );
}

#[test]
fn generate_se_keeps_the_band_asked_for_whatever_j() {
    let args = [
        "generate", "-n", "6", "--seed", "11", "--se", "6.5..7.4", "-q",
    ];
    let one = stdout_of(sudoflow().args(args).args(["-j", "1"]));
    let two = stdout_of(sudoflow().args(args).args(["-j", "2"]));
    assert_eq!(one, two);
    let mut lines = one.lines();
    assert!(lines.next().unwrap().ends_with(",error,er,ep,ed,seed"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 6);
    // Each row's ER is in range, and `rate` on the puzzle agrees with it.
    let puzzles: String = rows
        .iter()
        .map(|r| format!("{}\n", r.split(',').nth(1).unwrap()))
        .collect();
    let rated = stdout_of(sudoflow().args(["rate", "-q"]).write_stdin(puzzles));
    for (row, rate_row) in rows.iter().zip(rated.lines().skip(1)) {
        let f: Vec<&str> = row.split(',').collect();
        let er: f64 = f[11].parse().unwrap();
        assert!((6.5..=7.4).contains(&er), "{row}");
        let r: Vec<&str> = rate_row.split(',').collect();
        assert_eq!(&f[11..14], &r[3..6], "{row}");
    }
    sudoflow()
        .args(["generate", "--se", "8..7"])
        .assert()
        .code(2);
}
