//! Inputs people have (issue 13): a header naming the puzzle column anywhere,
//! quoted CSV fields, UTF-16 text, a directory. Each runs the binary as a
//! user would.

use assert_cmd::Command;

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn sudoflow() -> Command {
    Command::cargo_bin("sudoflow").unwrap()
}

/// The stdout of `command`, which must succeed.
fn stdout_ok(command: &mut Command) -> Vec<u8> {
    command.assert().success().get_output().stdout.clone()
}

fn rows(out: &[u8]) -> Vec<Vec<String>> {
    csv::Reader::from_reader(out)
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}

/// Inkala's solution with its first row blanked: quick to solve and rate.
fn easy() -> String {
    format!(
        "{}{}",
        ".".repeat(9),
        &"812753649943682175675491283154237896369845721287169534521974368438526917796318452"[9..]
    )
}

/// Kaggle's 3M set (`id,puzzle,solution,clues,difficulty`), its 1M set
/// with quoted fields, and a header with `quiz` in the third column: the
/// puzzle column is read wherever the header puts it.
#[test]
fn the_header_names_the_puzzle_column_wherever_it_is() {
    let easy = easy();
    let zeros = easy.replace('.', "0");
    for input in [
        format!("id,puzzle,solution,clues,difficulty\n1,{easy},x,21,3.4\n2,{zeros},x,21,3.4\n"),
        format!("\"quizzes\",\"solutions\"\n\"{zeros}\",\"x\"\n\"{easy}\",\"x\"\n"),
        format!("source,level,Quiz\nbook,5,{easy}\nbook,5,\"{zeros}\"\n"),
    ] {
        for command in ["solve", "count", "rate"] {
            let out = stdout_ok(sudoflow().arg(command).write_stdin(input.clone()));
            let rows = rows(&out);
            assert_eq!(rows.len(), 2, "{command} {input}");
            for row in &rows {
                assert_eq!(row[1], easy, "{command} {input}");
                assert_ne!(row[2], "invalid", "{command} {input}");
            }
        }
    }
}

/// A UTF-16 file (what PowerShell's `>` writes): one clear error naming the
/// encoding, exit 2, and no output file.
#[test]
fn utf16_input_is_one_clear_error_and_creates_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("ps.txt");
    let mut bytes = vec![0xff, 0xfe];
    for unit in format!("{INKALA}\r\n").encode_utf16() {
        bytes.extend(unit.to_le_bytes());
    }
    std::fs::write(&input, bytes).unwrap();
    let output = dir.path().join("out.csv");
    sudoflow()
        .arg("solve")
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("is UTF-16LE text"))
        .stderr(predicates::str::contains("iconv"));
    assert!(!output.exists());
    // On stdin too: an error, not rows of NUL bytes.
    let mut bytes = vec![0xff, 0xfe];
    for unit in format!("{INKALA}\n").encode_utf16() {
        bytes.extend(unit.to_le_bytes());
    }
    sudoflow()
        .arg("count")
        .write_stdin(bytes)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("<stdin> is UTF-16LE text"));
}

/// A directory given as input: an error naming it, and no output file.
#[test]
fn a_directory_input_creates_no_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("out.csv");
    for command in ["solve", "count", "rate"] {
        sudoflow()
            .arg(command)
            .arg(dir.path())
            .arg("-o")
            .arg(&output)
            .assert()
            .code(2)
            .stderr(predicates::str::contains("is a directory"));
        assert!(!output.exists(), "{command}");
    }
}

/// The rows of `sudoflow solve ARGS` on `input` (stdin), which must succeed.
fn solve_rows(args: &[&str], input: impl Into<Vec<u8>>) -> Vec<Vec<String>> {
    let out = stdout_ok(sudoflow().arg("solve").args(args).write_stdin(input));
    rows(&out)
}

/// Checks that `row` (solve's CSV) solved `puzzle`: status unique and a
/// solution that obeys the rules and keeps the givens.
fn assert_solved(row: &[String], puzzle: &str) {
    use sudoflow::grid::Grid;
    assert_eq!(row[2], "unique", "{row:?}");
    let puzzle = Grid::parse(puzzle).unwrap();
    let solution = Grid::parse(&row[4]).unwrap();
    assert!(solution.is_solution_of(&puzzle), "{row:?}");
}

/// `--column NAME` and `--column N` read the puzzle from any column, a
/// quoted field before it may hold commas, and the header (a name in the
/// N-th field) is skipped; a name no header has is one clear error.
#[test]
fn column_by_name_or_number_and_quoted_commas_before_it() {
    let easy = easy();
    let zeros = easy.replace('.', "0");
    let input = format!(
        "author,sudoku,level\n\"Smith, J.\",{easy},3\n\"Doe, \"\"Jo\"\", A.\",\"{zeros}\",4\n"
    );
    for args in [
        ["--column", "sudoku"],
        ["--column", "SUDOKU"],
        ["--column", "2"],
    ] {
        let rows = solve_rows(&args, input.clone());
        assert_eq!(rows.len(), 2, "{args:?}");
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row[0], (i + 1).to_string());
            assert_eq!(row[1], easy, "{args:?}");
            assert_solved(row, &easy);
        }
    }
    // Without --column the first field is read: the author names are
    // invalid records, each its own row.
    let rows = solve_rows(&[], input.clone());
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r[2] == "invalid"), "{rows:?}");
    // A header naming `puzzle` after a quoted comma: found without --column.
    let named = format!("\"Smith, J.\",puzzle\n\"a, b\",{easy}\n");
    let rows = solve_rows(&[], named);
    assert_eq!(rows.len(), 1);
    assert_solved(&rows[0], &easy);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.csv");
    std::fs::write(&path, &input).unwrap();
    let output = dir.path().join("out.csv");
    sudoflow()
        .args(["solve", "--column", "grid"])
        .arg(&path)
        .arg("-o")
        .arg(&output)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(format!(
            "input {} has no column named \"grid\" (--column): its first line, read as a CSV \
             header, names \"author\", \"sudoku\", \"level\"",
            path.display()
        )));
    assert!(!output.exists());
    assert!(!dir.path().join("out.csv.partial").exists());
    sudoflow()
        .args(["solve", "--column", "0"])
        .write_stdin(input)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("column numbers start at 1"));
}

/// A zip archive (as Kaggle ships its sets) is read member by member in
/// order, from a file or from stdin; each member has its own header and line
/// numbers, and an error names the member. A file named .zip that is not
/// one, and a truncated archive, are one clear error before any output.
#[test]
fn zip_archives_are_read_member_by_member() {
    use std::io::Write;
    use zip::write::SimpleFileOptions;
    let easy = easy();
    let zeros = easy.replace('.', "0");
    let mut bytes = std::io::Cursor::new(Vec::new());
    {
        let mut zip = zip::ZipWriter::new(&mut bytes);
        let deflated =
            SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        let stored =
            SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
        zip.start_file("a.txt", deflated).unwrap();
        zip.write_all(format!("# two puzzles\n{easy}\n{INKALA}\n").as_bytes())
            .unwrap();
        zip.add_directory("sub/", stored).unwrap();
        zip.start_file("sub/kaggle.csv", stored).unwrap();
        zip.write_all(format!("quizzes,solutions\n{zeros},x\n123,x\n").as_bytes())
            .unwrap();
        zip.finish().unwrap();
    }
    let bytes = bytes.into_inner();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sudoku.zip");
    std::fs::write(&path, &bytes).unwrap();
    let from_file = stdout_ok(sudoflow().arg("solve").arg(&path));
    let from_stdin = stdout_ok(sudoflow().arg("solve").write_stdin(bytes.clone()));
    for (out, name) in [
        (from_file, path.display().to_string()),
        (from_stdin, "<stdin>".into()),
    ] {
        let rows = rows(&out);
        assert_eq!(rows.len(), 4, "{name}");
        assert_solved(&rows[0], &easy);
        assert_solved(&rows[1], INKALA);
        assert_solved(&rows[2], &easy);
        assert_eq!(rows[3][2], "invalid");
        let error = rows[3].last().unwrap();
        assert_eq!(
            error,
            &format!("{name}/sub/kaggle.csv:3: wrong length: expected 81 cells, found 3")
        );
    }

    // Not a zip, and a zip cut short: exit 2, nothing created.
    let fake = dir.path().join("fake.zip");
    std::fs::write(&fake, format!("{easy}\n")).unwrap();
    let cut = dir.path().join("cut.zip");
    std::fs::write(&cut, &bytes[..bytes.len() - 30]).unwrap();
    let output = dir.path().join("out.csv");
    for (input, message) in [
        (&fake, "is named .zip but is not a zip archive"),
        (&cut, "is not a readable zip archive"),
    ] {
        sudoflow()
            .arg("solve")
            .arg(input)
            .arg("-o")
            .arg(&output)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(message));
        assert!(!output.exists());
    }
}

/// Puzzles pasted from web pages and books: cells between spaces or `|`,
/// blanks written `-`, `*`, `x` or `0`, a grid on 9 lines with or without
/// box rules (one record, numbered at its first row), and rows cut short
/// (one invalid record saying what they look like).
#[test]
fn pasted_puzzles_are_read() {
    // Inkala's puzzle, one row per line, each with its own blank.
    let rows_of = |blank: char| -> Vec<String> {
        INKALA
            .as_bytes()
            .chunks(9)
            .map(|r| {
                let r: String = r
                    .iter()
                    .map(|&b| if b == b'.' { blank } else { b as char })
                    .collect();
                format!(
                    "{} {} {} | {} {} {} | {} {} {}",
                    &r[0..1],
                    &r[1..2],
                    &r[2..3],
                    &r[3..4],
                    &r[4..5],
                    &r[5..6],
                    &r[6..7],
                    &r[7..8],
                    &r[8..9]
                )
            })
            .collect()
    };
    let boxed = {
        let r = rows_of('-');
        let rule = "------+-------+------";
        format!(
            "+-------+-------+-------+\n{}\n{rule}\n{}\n{rule}\n{}\n+-------+-------+-------+\n",
            r[0..3].join("\n"),
            r[3..6].join("\n"),
            r[6..9].join("\n")
        )
    };
    let plain: String = rows_of('*')
        .iter()
        .map(|r| r.replace(['|', ' '], "") + "\n")
        .collect();
    let one_line = rows_of('x').join(" | ");
    let zeros = rows_of('0').join("  ");
    let easy = easy();
    let input = format!(
        "{boxed}\n{plain}{one_line}\n{zeros}\n{easy}\n1 2 3 | 4 5 6 | 7 8 9\n4 5 6 | 7 8 9 | 1 2 3\n\
         {easy}\n. . . | . . . | . . .\n5 3 . 7\n"
    );
    let rows = solve_rows(&[], input);
    let statuses: Vec<&str> = rows.iter().map(|r| r[2].as_str()).collect();
    assert_eq!(
        statuses,
        [
            "unique", "unique", "unique", "unique", "unique", "invalid", "unique", "invalid",
            "invalid"
        ],
        "{rows:?}"
    );
    for row in &rows[..4] {
        assert_eq!(row[1], INKALA);
        assert_solved(row, INKALA);
    }
    assert_solved(&rows[4], &easy);
    assert_solved(&rows[6], &easy);
    let error = |r: &Vec<String>| r.last().unwrap().clone();
    assert_eq!(
        error(&rows[5]),
        "<stdin>:27: looks like 2 rows of a 9-line grid (lines 27-28); a grid written on lines \
         needs 9 rows of 9 cells"
    );
    assert_eq!(
        error(&rows[7]),
        "<stdin>:30: looks like one row of a 9-line grid (line 30); a grid written on lines \
         needs 9 rows of 9 cells"
    );
    assert_eq!(
        error(&rows[8]),
        "<stdin>:31: wrong length: expected 81 cells, or 9 for a row of a 9-line grid; found 4 \
         cells between the spaces or '|'"
    );
    // The grids' records are numbered at their first row.
    let valid: Vec<u64> = rows
        .iter()
        .map(|r| r.last().unwrap().is_empty())
        .zip(&rows)
        .filter(|(valid, _)| *valid)
        .map(|(_, r)| r[0].parse().unwrap())
        .collect();
    assert_eq!(valid, [1, 2, 3, 4, 5, 7]);
}
