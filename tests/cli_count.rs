//! `sudoflow count` through the binary: counts against a plain brute-force
//! counter written here, `--max`, `--time-budget`, invalid rows and order.

use assert_cmd::Command;
use std::io::Write;
use sudoflow::grid::Grid;

/// A complete grid (the solution of Inkala's "world's hardest" puzzle).
const SOLVED: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

/// Counts the completions of `cells` (0 = blank) by trying 1..=9 in the first
/// blank cell against its row, column and box: no propagation, no tricks.
fn brute_force_count(cells: &mut [u8; 81]) -> u64 {
    let Some(cell) = cells.iter().position(|&v| v == 0) else {
        return 1;
    };
    let (r, c) = (cell / 9, cell % 9);
    let (br, bc) = (r / 3 * 3, c / 3 * 3);
    let mut total = 0;
    for d in 1..=9u8 {
        let clash = (0..9).any(|k| {
            cells[r * 9 + k] == d
                || cells[k * 9 + c] == d
                || cells[(br + k / 3) * 9 + bc + k % 3] == d
        });
        if !clash {
            cells[cell] = d;
            total += brute_force_count(cells);
            cells[cell] = 0;
        }
    }
    total
}

fn cells_of(line: &str) -> [u8; 81] {
    *Grid::parse(line).unwrap().cells()
}

fn line_of(cells: &[u8; 81]) -> String {
    Grid::from_cells(*cells).unwrap().to_line()
}

/// Blanks cells of [`SOLVED`] in a fixed scattered order (cell `37·k mod
/// 81`) and returns the first puzzle whose brute-force count reaches
/// `at_least`, with that count.
fn blanked_until(at_least: u64) -> (String, u64) {
    let mut cells = cells_of(SOLVED);
    for k in 0..81 {
        cells[(37 * k) % 81] = 0;
        let n = brute_force_count(&mut cells.clone());
        if n >= at_least {
            return (line_of(&cells), n);
        }
    }
    unreachable!("the empty grid has more than {at_least} completions")
}

/// Blanks the four cells of a rectangle in two rows of one band and two
/// columns of different stacks holding `a b / b a`: exactly two solutions.
fn two_solution_rectangle() -> String {
    let mut cells = cells_of(SOLVED);
    for r1 in 0..9 {
        for r2 in r1 + 1..(r1 / 3 * 3 + 3) {
            for c1 in 0..9 {
                for c2 in (c1 / 3 * 3 + 3)..9 {
                    let (a, b) = (cells[r1 * 9 + c1], cells[r1 * 9 + c2]);
                    if cells[r2 * 9 + c1] == b && cells[r2 * 9 + c2] == a {
                        for cell in [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2] {
                            cells[cell] = 0;
                        }
                        return line_of(&cells);
                    }
                }
            }
        }
    }
    unreachable!("this grid has an a-b rectangle")
}

/// Writes `lines` to a temp file, runs `sudoflow count FILE args`, returns
/// (exit code, stdout, file).
fn run_count(lines: &[String], args: &[&str]) -> (i32, String, tempfile::NamedTempFile) {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    for line in lines {
        writeln!(file, "{line}").unwrap();
    }
    file.flush().unwrap();
    let out = Command::cargo_bin("sudoflow")
        .unwrap()
        .arg("count")
        .arg(file.path())
        .args(["-q"])
        .args(args)
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    (code, String::from_utf8(out.stdout).unwrap(), file)
}

/// Parses the CSV into rows of 5 fields, checking the header.
fn rows(csv_text: &str) -> Vec<Vec<String>> {
    let mut rdr = csv::Reader::from_reader(csv_text.as_bytes());
    assert_eq!(
        rdr.headers().unwrap(),
        vec!["index", "puzzle", "status", "solutions", "error"]
    );
    rdr.records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

fn expected_status(n: u64) -> &'static str {
    match n {
        0 => "unsolvable",
        1 => "unique",
        _ => "multiple",
    }
}

#[test]
fn counts_agree_with_brute_force() {
    assert!(Grid::parse(SOLVED).unwrap().is_solution_of(&Grid::EMPTY));
    let mut puzzles = vec![
        // One blank cell, then a few: unique.
        {
            let mut c = cells_of(SOLVED);
            c[40] = 0;
            line_of(&c)
        },
        two_solution_rectangle(),
        blanked_until(2).0,
        blanked_until(20).0,
        blanked_until(1_000).0,
        // Row 1 holds 1-8 and r2c9 is 9: r1c9 has no candidate, no clash.
        format!("12345678.........9{}", ".".repeat(63)),
    ];
    puzzles.insert(0, blanked_until(1).0);
    let expected: Vec<u64> = puzzles
        .iter()
        .map(|p| brute_force_count(&mut cells_of(p)))
        .collect();
    // The cases span the range the brief asks for.
    assert_eq!(expected[2], 2);
    assert!(expected[4] >= 20 && expected[4] < 1_000, "{expected:?}");
    assert!(expected[5] >= 1_000, "{expected:?}");
    assert_eq!(expected[6], 0);

    let (code, stdout, file) = run_count(&puzzles, &["-j", "2"]);
    assert_eq!(code, 0);
    let rows = rows(&stdout);
    assert_eq!(rows.len(), puzzles.len());
    for (i, (row, (puzzle, n))) in rows.iter().zip(puzzles.iter().zip(&expected)).enumerate() {
        assert_eq!(row[0], (i + 1).to_string());
        assert_eq!(&row[1], puzzle);
        assert_eq!(row[2], expected_status(*n), "{puzzle}");
        assert_eq!(row[3], n.to_string(), "{puzzle}");
        // An unsolvable row says where the contradiction lies (issue 30).
        let error = match n {
            0 => format!(
                "{}:{}: no solution: r1c9 has no candidate left after propagation",
                file.path().display(),
                i + 1
            ),
            _ => String::new(),
        };
        assert_eq!(row[4], error, "{puzzle}");
    }
}

/// `solve`'s rows for `puzzles` with `args`.
fn solve_rows(puzzles: &[String], args: &[&str]) -> Vec<Vec<String>> {
    let out = Command::cargo_bin("sudoflow")
        .unwrap()
        .arg("solve")
        .args(args)
        .write_stdin(puzzles.join("\n"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    csv::Reader::from_reader(out.stdout.as_slice())
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}

#[test]
fn max_stops_at_n_and_n_means_n_or_more_as_in_solve() {
    let (dozens, n) = blanked_until(20);
    let two = two_solution_rectangle();
    let puzzles = vec![dozens.clone(), two.clone()];

    let (_, stdout, _f) = run_count(&puzzles, &["--max", "5"]);
    let r = rows(&stdout);
    assert_eq!((r[0][2].as_str(), r[0][3].as_str()), ("capped", "5"));
    assert_eq!((r[1][2].as_str(), r[1][3].as_str()), ("multiple", "2"));

    // Reaching the cap: "2 or more", as `solve --limit 2` writes `multiple,2`.
    let (_, stdout, _f) = run_count(&puzzles, &["--max", "2"]);
    let r = rows(&stdout);
    assert_eq!((r[0][2].as_str(), r[0][3].as_str()), ("capped", "2"));
    assert_eq!((r[1][2].as_str(), r[1][3].as_str()), ("capped", "2"));
    let solved = solve_rows(&puzzles, &["--limit", "2"]);
    assert_eq!(
        (solved[0][3].as_str(), solved[1][3].as_str()),
        ("2", "2"),
        "solve --limit 2 writes the same numbers"
    );

    let (_, stdout, _f) = run_count(&puzzles, &["--max", "1"]);
    let r = rows(&stdout);
    assert_eq!((r[1][2].as_str(), r[1][3].as_str()), ("capped", "1"));

    // One above the exact count: exact.
    let cap = (n + 1).to_string();
    let (_, stdout, _f) = run_count(&puzzles[..1], &["--max", &cap]);
    let r = rows(&stdout);
    assert_eq!(
        (r[0][2].as_str(), r[0][3].as_str()),
        ("multiple", n.to_string().as_str())
    );

    let out = Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["count", "--max", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn time_budget_reports_timeout_with_a_lower_bound() {
    // The first row alone completes to about 1.8e16 grids and the empty grid
    // to 6.7e21: neither is ever finished.
    let open = format!("123456789{}", ".".repeat(72));
    let empty = ".".repeat(81);
    let puzzles = vec![open, SOLVED.to_string(), empty];
    let (code, stdout, _f) = run_count(&puzzles, &["--time-budget", "0.05", "-j", "2"]);
    assert_eq!(code, 0);
    let r = rows(&stdout);
    assert_eq!(r.len(), 3);
    for i in [0, 2] {
        assert_eq!(r[i][2], "timeout");
        let found: u64 = r[i][3].parse().unwrap();
        assert!(found < 18_000_000_000_000_000, "{found}");
    }
    assert_eq!((r[1][2].as_str(), r[1][3].as_str()), ("unique", "1"));

    for bad in ["0", "-1", "soon", "inf"] {
        let out = Command::cargo_bin("sudoflow")
            .unwrap()
            .args(["count", "--time-budget", bad])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--time-budget {bad}");
    }
}

#[test]
fn bad_records_get_invalid_rows_naming_their_line() {
    let lines: Vec<String> = vec![
        "# a comment, not a record".into(),
        SOLVED.into(),
        "12345".into(),
        String::new(),
        format!("y{}", &SOLVED[1..]),
        format!("11{}", ".".repeat(79)),
        two_solution_rectangle(),
    ];
    let (code, stdout, file) = run_count(&lines, &[]);
    assert_eq!(code, 0);
    let path = file.path().display().to_string();
    let r = rows(&stdout);
    assert_eq!(r.len(), 5, "{stdout}");
    let summary: Vec<(&str, &str, &str)> = r
        .iter()
        .map(|f| (f[0].as_str(), f[2].as_str(), f[3].as_str()))
        .collect();
    assert_eq!(
        summary,
        vec![
            ("1", "unique", "1"),
            ("2", "invalid", ""),
            ("3", "invalid", ""),
            ("4", "invalid", ""),
            ("5", "multiple", "2"),
        ]
    );
    assert_eq!(r[1][1], "12345");
    assert_eq!(
        r[1][4],
        format!("{path}:3: wrong length: expected 81 cells, found 5")
    );
    assert!(
        r[2][4].starts_with(&format!("{path}:5: bad character 'y'")),
        "{}",
        r[2][4]
    );
    assert_eq!(
        r[3][4],
        format!("{path}:6: duplicate 1 in row 1: r1c1, r1c2")
    );

    // --strict: same output, exit 1.
    let (code, strict_out, strict_file) = run_count(&lines, &["--strict"]);
    assert_eq!(code, 1);
    let strict_path = strict_file.path().display().to_string();
    assert_eq!(
        strict_out.replace(&strict_path, "FILE"),
        stdout.replace(&path, "FILE")
    );
}

#[test]
fn output_follows_input_order_whatever_the_threads() {
    let mut puzzles = Vec::new();
    for target in [1_000, 1, 20, 2, 1, 300, 1] {
        puzzles.push(blanked_until(target).0);
    }
    puzzles.push(two_solution_rectangle());
    let (_, one, _f) = run_count(&puzzles, &["-j", "1", "--batch-size", "1"]);
    let (_, two, _f) = run_count(&puzzles, &["-j", "2", "--batch-size", "1"]);
    assert_eq!(one, two);
    let r = rows(&one);
    let order: Vec<&str> = r.iter().map(|f| f[1].as_str()).collect();
    let input: Vec<&str> = puzzles.iter().map(String::as_str).collect();
    assert_eq!(order, input);

    // Standard input, as '-'.
    let out = Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["count", "-q", "-"])
        .write_stdin(format!("{}\n{}\n", puzzles[0], two_solution_rectangle()))
        .output()
        .unwrap();
    let r = rows(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(
        r[0][3],
        brute_force_count(&mut cells_of(&puzzles[0])).to_string()
    );
    assert_eq!(r[1][3], "2");
}
