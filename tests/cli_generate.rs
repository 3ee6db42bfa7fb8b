//! `sudoflow generate` run as a binary: proper, minimal, symmetric puzzles;
//! reproducible output whatever -j is; filters; scores equal to a fresh
//! solve; clear failures for requests that cannot be met.

use assert_cmd::Command;
use predicates::prelude::*;
use std::collections::HashMap;
use sudoflow::generator::Symmetry;
use sudoflow::grid::{Grid, PEERS};
use sudoflow::output::{SolveRow, SOLVE_HEADER};
use sudoflow::solver::{count_solutions, SolveOptions, Solver};

/// One output row, by column name.
type Row = HashMap<String, String>;

fn generate(args: &[&str]) -> (String, Vec<Row>) {
    let out = Command::cargo_bin("sudoflow")
        .unwrap()
        .arg("generate")
        .args(args)
        .arg("--quiet")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "generate {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    (text.clone(), parse_csv(&text))
}

fn parse_csv(text: &str) -> Vec<Row> {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let mut expected: Vec<&str> = SOLVE_HEADER.to_vec();
    expected.push("seed");
    assert_eq!(header, expected);
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            header
                .iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect()
}

fn puzzle(row: &Row) -> Grid {
    Grid::parse(&row["puzzle"]).unwrap()
}

/// A plain backtracking counter, independent of the product solver: fills the
/// blank cell with the fewest legal digits first, counts up to `limit`.
fn brute_count(g: &mut [u8; 81], limit: u64) -> u64 {
    let mut best = None;
    let mut best_n = 10;
    for c in 0..81 {
        if g[c] != 0 {
            continue;
        }
        let mut used = [false; 10];
        for &p in &PEERS[c] {
            used[g[p as usize] as usize] = true;
        }
        let n = (1..=9).filter(|&d| !used[d]).count();
        if n < best_n {
            best_n = n;
            best = Some((c, used));
        }
    }
    let Some((c, used)) = best else { return 1 };
    let mut found = 0;
    for d in 1..=9u8 {
        if !used[d as usize] {
            g[c] = d;
            found += brute_count(g, limit - found);
            g[c] = 0;
            if found >= limit {
                break;
            }
        }
    }
    found
}

fn check_proper(row: &Row) {
    let p = puzzle(row);
    assert!(p.check_givens().is_ok(), "{}", row["puzzle"]);
    assert_eq!(count_solutions(&p, 2), 1, "{}", row["puzzle"]);
    let solution = Grid::parse(&row["solution"]).unwrap();
    assert!(solution.is_solution_of(&p));
    assert_eq!(row["status"], "unique");
    assert_eq!(row["clues"], p.clues().to_string());
}

/// Removing `cells` from the puzzle leaves 2+ solutions.
fn necessary(p: &Grid, cells: &[u8]) -> bool {
    let mut q = *p;
    for &c in cells {
        q.set(c as usize, 0);
    }
    count_solutions(&q, 2) == 2
}

#[test]
fn puzzles_are_proper_and_minimal() {
    let (_, rows) = generate(&["-n", "40", "--seed", "7"]);
    assert_eq!(rows.len(), 40);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["index"], (i + 1).to_string());
        check_proper(row);
        let p = puzzle(row);
        // Every given necessary (a sample of rows, every given).
        if i % 4 == 0 {
            for c in 0..81u8 {
                if p.get(c as usize) != 0 {
                    assert!(
                        necessary(&p, &[c]),
                        "{}: r{}c{}",
                        row["puzzle"],
                        c / 9 + 1,
                        c % 9 + 1
                    );
                }
            }
        }
    }
    // The independent brute-force counter agrees on a few.
    for row in rows.iter().take(5) {
        let mut cells = *puzzle(row).cells();
        assert_eq!(brute_count(&mut cells, 2), 1, "{}", row["puzzle"]);
        let mut q = *puzzle(row).cells();
        let given = (0..81).find(|&c| q[c] != 0).unwrap();
        q[given] = 0;
        assert_eq!(brute_count(&mut q, 2), 2, "{}", row["puzzle"]);
    }
}

#[test]
fn every_symmetry_is_kept_and_no_orbit_is_removable() {
    for (name, sym) in [
        ("none", Symmetry::None),
        ("rot180", Symmetry::Rot180),
        ("rot90", Symmetry::Rot90),
        ("mirror", Symmetry::Mirror),
        ("flip", Symmetry::Flip),
        ("diagonal", Symmetry::Diagonal),
        ("antidiagonal", Symmetry::Antidiagonal),
    ] {
        let (_, rows) = generate(&["-n", "6", "--seed", "3", "--symmetry", name]);
        assert_eq!(rows.len(), 6);
        for row in &rows {
            check_proper(row);
            let p = puzzle(row);
            assert!(sym.matches(&p), "{name}: {}", row["puzzle"]);
            for orbit in sym.orbits() {
                if p.get(orbit.cells()[0] as usize) != 0 {
                    assert!(necessary(&p, orbit.cells()), "{name}: {}", row["puzzle"]);
                }
            }
        }
    }
}

#[test]
fn output_is_the_same_for_the_same_seed_whatever_the_threads() {
    let args = ["-n", "300", "--seed", "2026", "--symmetry", "rot180"];
    let (a, _) = generate(&[&args[..], &["-j", "1"]].concat());
    let (b, _) = generate(&[&args[..], &["-j", "2"]].concat());
    let (c, _) = generate(&[&args[..], &["-j", "2"]].concat());
    assert_eq!(a, b);
    assert_eq!(b, c);
    // More than one chunk, and a different seed gives different puzzles.
    assert_eq!(a.lines().count(), 301);
    let (d, _) = generate(&["-n", "3", "--seed", "2027", "--symmetry", "rot180"]);
    assert_ne!(a.lines().nth(1), d.lines().nth(1));
}

#[test]
fn blank_writes_the_puzzle_column_with_that_character_and_the_same_puzzles() {
    let args = ["-n", "20", "--seed", "7", "-j", "2"];
    let (_, dots) = generate(&args);
    for blank in ["0", "_", "x"] {
        let (_, rows) = generate(&[&args[..], &["--blank", blank]].concat());
        assert_eq!(rows.len(), dots.len());
        for (row, dot) in rows.iter().zip(&dots) {
            let b = blank.chars().next().unwrap();
            assert!(!row["puzzle"].contains('.'), "{blank}: {}", row["puzzle"]);
            assert_eq!(row["puzzle"].replace(b, "."), dot["puzzle"], "{blank}");
            let mut rest = row.clone();
            rest.remove("puzzle");
            let mut want = dot.clone();
            want.remove("puzzle");
            assert_eq!(rest, want, "{blank}: every other column is the same");
        }
    }
    Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["generate", "-q", "-n", "3", "--seed", "1", "--blank", "bad"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the blank must be one of"));
}

#[test]
fn the_seed_column_regenerates_its_row_alone() {
    let filters = [
        "--clues",
        "22..25",
        "--wnf-level",
        "2..3",
        "--symmetry",
        "mirror",
    ];
    let (_, rows) = generate(&[&["-n", "5", "--seed", "11"], &filters[..]].concat());
    for row in &rows {
        let (_, again) = generate(&[&["--puzzle-seed", &row["seed"]], &filters[..]].concat());
        assert_eq!(again.len(), 1);
        let mut expected = row.clone();
        expected.insert("index".into(), "1".into());
        assert_eq!(again[0], expected);
    }
}

#[test]
fn filters_hold_for_every_row() {
    let (_, rows) = generate(&[
        "-n",
        "25",
        "--seed",
        "5",
        "--clues",
        "23..25",
        "--wnf-level",
        "3..4",
        "--guesses",
        "1..3",
    ]);
    assert_eq!(rows.len(), 25);
    for row in &rows {
        check_proper(row);
        let clues: usize = row["clues"].parse().unwrap();
        let level: u8 = row["wnf_level"].parse().unwrap();
        let guesses: u64 = row["guesses"].parse().unwrap();
        assert!((23..=25).contains(&clues), "{row:?}");
        assert!((3..=4).contains(&level), "{row:?}");
        assert!((1..=3).contains(&guesses), "{row:?}");
    }
}

#[test]
fn non_minimal_puzzles_stop_inside_the_clue_range() {
    let (_, rows) = generate(&[
        "-n",
        "20",
        "--seed",
        "9",
        "--no-minimal",
        "--clues",
        "35..40",
    ]);
    for row in &rows {
        check_proper(row);
        let clues: usize = row["clues"].parse().unwrap();
        assert!((35..=40).contains(&clues), "{row:?}");
    }
    // With 35+ clues, some given is always removable: not minimal.
    let p = puzzle(&rows[0]);
    assert!((0..81u8).any(|c| p.get(c as usize) != 0 && !necessary(&p, &[c])));
}

#[test]
fn scores_equal_a_fresh_default_solve() {
    let (_, rows) = generate(&["-n", "30", "--seed", "13", "--symmetry", "rot90"]);
    for row in &rows {
        let p = puzzle(row);
        let opts = SolveOptions::default();
        let outcome = Solver::new(opts).solve(&p);
        let index: u64 = row["index"].parse().unwrap();
        let fields = SolveRow::solved(index, &p, &outcome, opts.limit).fields();
        for (name, value) in SOLVE_HEADER.iter().zip(fields.iter()) {
            assert_eq!(&row[*name], value, "column {name} of {}", row["puzzle"]);
        }
    }
}

/// `sudoflow solve` on the generated puzzles reproduces every score column.
#[test]
fn solve_reproduces_every_score_column() {
    let (_, rows) = generate(&["-n", "30", "--seed", "17"]);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("puzzles.txt");
    let lines: Vec<&str> = rows.iter().map(|r| r["puzzle"].as_str()).collect();
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let out = Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["solve", "--quiet"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let solved: Vec<Row> = r
        .records()
        .map(|rec| {
            header
                .iter()
                .cloned()
                .zip(rec.unwrap().iter().map(String::from))
                .collect()
        })
        .collect();
    assert_eq!(solved.len(), rows.len());
    for (g, s) in rows.iter().zip(&solved) {
        for name in SOLVE_HEADER {
            assert_eq!(g[name], s[name], "column {name} of {}", g["puzzle"]);
        }
    }
}

#[test]
fn impossible_clue_ranges_fail_fast_with_the_17_clue_fact() {
    Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["generate", "--clues", "10..12"])
        .timeout(std::time::Duration::from_secs(10))
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            predicate::str::contains("fewer than 17 clues")
                .and(predicate::str::contains("McGuire")),
        );
    Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["generate", "--clues", "25..20"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("MIN 25 is greater than MAX 20"));
    // Found by probing: these ran 100,000 tries, then advised raising
    // --max-tries. Under rot90 the givens are orbits of 4 and the centre;
    // no puzzle rates below 1.0.
    for (args, said) in [
        (
            &["--symmetry", "rot90", "--clues", "30", "--no-minimal"][..],
            "--clues 30..30 with --symmetry rot90: no puzzle has that many clues",
        ),
        (
            &["--se", "0.5"][..],
            "--se 0.5..0.5: no puzzle rates below 1.0",
        ),
    ] {
        Command::cargo_bin("sudoflow")
            .unwrap()
            .args(["generate", "-n", "1", "--seed", "3"])
            .args(args)
            .timeout(std::time::Duration::from_secs(10))
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(said));
    }
    // A rot90 range holding a 4k or 4k + 1 count goes ahead.
    Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["generate", "-n", "1", "--seed", "3", "--symmetry", "rot90"])
        .args(["--clues", "30..32", "-q"])
        .assert()
        .success();
}

#[test]
fn rare_targets_end_with_exit_1_and_keep_the_puzzles_made() {
    // 17..18-clue minimal puzzles essentially never come out of random carving.
    Command::cargo_bin("sudoflow")
        .unwrap()
        .args([
            "generate",
            "-n",
            "2",
            "--seed",
            "1",
            "--clues",
            "17..18",
            "--max-tries",
            "20",
        ])
        .assert()
        .code(1)
        .stdout(format!("{},seed\n", SOLVE_HEADER.join(",")))
        .stderr(predicate::str::contains(
            "puzzle 1: none of its 20 candidates (--max-tries) passed the filters",
        ));
    // A failure part-way: the rows before it are written, the same for any -j.
    let partial = |j: &str| {
        let out = Command::cargo_bin("sudoflow")
            .unwrap()
            .args(["generate", "-n", "300", "--seed", "4", "--clues", "26..27"])
            .args(["--max-tries", "12", "-q", "-j", j])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&out.stderr).contains("passed the filters"));
        String::from_utf8(out.stdout).unwrap()
    };
    let one = partial("1");
    assert_eq!(one, partial("2"));
    let rows = parse_csv(&one);
    assert!(rows.len() < 300, "{} rows", rows.len());
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["index"], (i + 1).to_string());
        assert!(["26", "27"].contains(&row["clues"].as_str()));
    }
    // A whole-run limit of zero stops at once; rows before the stop stay
    // written.
    Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["generate", "-n", "5", "--seed", "1", "--max-time", "0"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--max-time ran out at puzzle 1"));
    // --time-budget, a record's budget elsewhere, was --max-time's old
    // spelling here: a run given 1 ended after a second (found by
    // probing). It is refused, naming both options it may have meant.
    Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["generate", "-n", "5", "--seed", "1", "--time-budget", "1"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "generate has no --time-budget 1: give --max-time 1 to limit the whole run's wall \
             time, or --se-budget 1 to limit each rating's work with --se",
        ));
    // --puzzle-seed with filters its candidate fails.
    Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["generate", "--puzzle-seed", "1", "--clues", "17..18"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "puzzle seed 1 makes a candidate the filters reject",
        ));
}

/// A run that its own limits stop leaves an older FILE as it was (found by
/// probing: a failed run replaced a finished 50-row file with the rows it
/// made, or with a header alone); the rows it made stay in FILE.partial,
/// and after --max-time, --resume goes on to the whole run's bytes.
#[test]
fn a_run_its_limits_stop_leaves_an_older_file_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let vol = dir.path().join("vol.csv");
    let partial = dir.path().join("vol.csv.partial");
    let run = |args: &[&str]| {
        Command::cargo_bin("sudoflow")
            .unwrap()
            .args(["generate", "-j", "1"])
            .args(args)
            .arg("-o")
            .arg(&vol)
            .output()
            .unwrap()
    };
    assert!(run(&["-n", "50", "-q", "--seed", "1"]).status.success());
    let book = std::fs::read(&vol).unwrap();
    assert_eq!(book.iter().filter(|&&b| b == b'\n').count(), 51);
    // No row made (puzzle 1 fails, and --puzzle-seed's candidate is
    // rejected): nothing is left but the older FILE.
    for args in [
        &[
            "-n",
            "50",
            "--seed",
            "1",
            "--clues",
            "30..32",
            "--max-tries",
            "20",
        ][..],
        &["--puzzle-seed", "1", "--clues", "17..18"][..],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("vol.csv is left as it was"), "{args:?}: {err}");
        assert_eq!(std::fs::read(&vol).unwrap(), book, "{args:?}");
        assert!(!partial.exists(), "{args:?}");
    }
    // Rows made, then --max-tries: they stay in FILE.partial.
    let out = run(&[
        "-n",
        "300",
        "--seed",
        "4",
        "--clues",
        "26..27",
        "--max-tries",
        "12",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read(&vol).unwrap(), book);
    let kept = std::fs::read_to_string(&partial).unwrap();
    let rows = parse_csv(&kept);
    assert!(!rows.is_empty() && rows.len() < 300, "{} rows", rows.len());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the rows are in ")
            && err.contains("vol.csv is left as it was; to run again, delete ")
            && err.contains("vol.csv.partial and "),
        "{err}"
    );
    std::fs::remove_file(&partial).unwrap();
    std::fs::remove_file(dir.path().join("vol.csv.partial.json")).unwrap();
    // --max-time: the rows made stay, and --resume goes on.
    let out = run(&["-n", "20000", "--seed", "1", "--max-time", "0.05"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read(&vol).unwrap(), book);
    assert!(partial.exists());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("continue with: "), "{err}");
    assert!(run(&["-n", "20000", "--seed", "1", "-q", "--resume"])
        .status
        .success());
    let whole = Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["generate", "-j", "2", "-q", "--seed", "1", "-n", "20000"])
        .output()
        .unwrap();
    assert_eq!(std::fs::read(&vol).unwrap(), whole.stdout);
}

#[test]
fn distinct_puzzles_share_no_class_and_keep_the_seeds_output() {
    let (one, rows) = generate(&["-n", "120", "--seed", "14", "--distinct", "-j", "1"]);
    let (two, _) = generate(&["-n", "120", "--seed", "14", "--distinct", "-j", "2"]);
    assert_eq!(one, two, "same output whatever -j is");
    let mut forms = std::collections::HashSet::new();
    for row in &rows {
        check_proper(row);
        assert!(
            forms.insert(sudoflow::canon::canonical(&puzzle(row)).cells),
            "row {} repeats a class",
            row["index"]
        );
    }
    assert_eq!(forms.len(), 120);
    // No two random minimal puzzles met here are equivalent, so nothing
    // was replaced: the rows are those of the run without --distinct.
    let (plain, _) = generate(&["-n", "120", "--seed", "14", "-j", "2"]);
    assert_eq!(plain, one);
}
