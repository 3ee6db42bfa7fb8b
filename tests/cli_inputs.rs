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
    // Gzipped, after a good input: refused before any output too (found by
    // probing: only once reached, leaving a partial file with the first
    // input's rows that --resume could not continue once mended).
    let good = dir.path().join("good.txt");
    std::fs::write(&good, format!("{INKALA}\n")).unwrap();
    let mut utf16 = vec![0xff, 0xfe];
    for unit in format!("{INKALA}\n").encode_utf16() {
        utf16.extend(unit.to_le_bytes());
    }
    let gz = dir.path().join("ps.txt.gz");
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut e, &utf16).unwrap();
    std::fs::write(&gz, e.finish().unwrap()).unwrap();
    sudoflow()
        .args(["count", "-q"])
        .arg(&good)
        .arg(&gz)
        .arg("-o")
        .arg(&output)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains(format!(
            "input {} is UTF-16LE text",
            gz.display()
        )));
    assert!(!output.exists());
    assert!(!dir.path().join("out.csv.partial").exists());
    // UTF-32 is named as such, with iconv's name for it (it was called
    // UTF-16LE, and `iconv -f UTF-16` garbles it).
    let mut utf32 = vec![0xff, 0xfe, 0, 0];
    for c in format!("{INKALA}\n").chars() {
        utf32.extend((c as u32).to_le_bytes());
    }
    sudoflow()
        .arg("count")
        .write_stdin(utf32)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "<stdin> is UTF-32LE text (it starts with a UTF-32 byte-order mark); sudoflow \
             reads UTF-8: convert it first, e.g. `iconv -f UTF-32 -t UTF-8 IN > OUT`",
        ));
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
/// N-th field) is skipped; a name no header has, or a number past its
/// columns, is one clear error.
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
    // A first record whose puzzle has a typo (a letter) is a record, not a
    // header: found by probing, it was dropped unsaid.
    let typo = format!("1,{}o\n2,{easy}\n", &easy[..80]);
    let rows = solve_rows(&["--column", "2"], typo);
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(rows[0][2], "invalid");
    assert_solved(&rows[1], &easy);
    // A number past a header's columns is one clear error too (it named
    // the column "()" on every row before).
    let header = format!("puzzle,level\n{easy},3\n");
    let out = sudoflow()
        .args(["solve", "--column", "3"])
        .write_stdin(header)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "input <stdin> has no column 3 (--column): its first line, read as a CSV header, \
             names \"puzzle\", \"level\"",
        ))
        .get_output()
        .stdout
        .clone();
    assert!(crate::rows(&out).is_empty());
    // From a file with -o: said before any output exists (it left a partial
    // file that no --resume could continue and that refused a fresh run).
    std::fs::write(&path, format!("puzzle,level\n{easy},3\n")).unwrap();
    sudoflow()
        .args(["count", "--column", "3"])
        .arg(&path)
        .arg("-o")
        .arg(&output)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains(format!(
            "input {} has no column 3 (--column)",
            path.display()
        )));
    assert!(!output.exists());
    assert!(!dir.path().join("out.csv.partial").exists());
    assert!(!dir.path().join("out.csv.partial.json").exists());
    sudoflow()
        .args(["solve", "--column", "0"])
        .write_stdin(input.clone())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("column numbers start at 1"));
    // Past any record's columns: said so (it said "start at 1").
    sudoflow()
        .args(["solve", "--column", "99999999999999999999999"])
        .write_stdin(input)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "99999999999999999999999: no CSV record has that many columns",
        ));
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

/// Issue 29, point 6: every CSV record gets exactly one row. A record with
/// fewer fields than the puzzle's column is `invalid`, naming `source:line`
/// and what it lacks; quoted fields are read by RFC 4180 (commas, `""` and
/// line ends inside them), a record over several lines numbered at its first.
/// The same rows from stdin, from a file at -j 1 and -j 2 (whose threads take
/// turns at reading it), gzipped, and with --column by name or number.
#[test]
fn every_csv_record_gets_one_row_read_by_rfc_4180() {
    let easy = easy();
    let input = format!(
        "id,\"author, name\",puzzle,notes\n201,\"A, B\",{easy},x\n202,\"C, D\"\n\
         203,\"E, F\",{easy},\"note, with comma\"\n204,\"G \"\"H\"\" I\",{easy},\"multi\n\
         line note\"\n205\n206,J,\"{easy}\",\"a\r\n\r\n# not a comment\r\nb\"\r\n207,K,{easy},y\n\
         208,\"L\nM\",12x,z"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.csv");
    std::fs::write(&path, &input).unwrap();
    let gz = dir.path().join("in.csv.gz");
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut e, input.as_bytes()).unwrap();
    std::fs::write(&gz, e.finish().unwrap()).unwrap();
    let from_stdin = solve_rows(&[], input.clone());
    let name = path.display().to_string();
    let check = |rows: &[Vec<String>], name: &str, what: &str| {
        let statuses: Vec<&str> = rows.iter().map(|r| r[2].as_str()).collect();
        assert_eq!(
            statuses,
            ["unique", "invalid", "unique", "unique", "invalid", "unique", "unique", "invalid"],
            "{what}: {rows:?}"
        );
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row[0], (i + 1).to_string(), "{what}");
        }
        for row in [&rows[0], &rows[2], &rows[3], &rows[5], &rows[6]] {
            assert_solved(row, &easy);
        }
        let error = |r: &Vec<String>| r.last().unwrap().clone();
        assert_eq!(
            error(&rows[1]),
            format!("{name}:3: has 2 fields, the puzzle column (puzzle) is field 3"),
            "{what}"
        );
        assert_eq!(rows[1][1], "202,\"C, D\"", "{what}: the record as read");
        assert_eq!(
            error(&rows[4]),
            format!("{name}:7: has 1 field, the puzzle column (puzzle) is field 3"),
            "{what}"
        );
        // Numbered at its first line, after a record of lines 8-11.
        assert_eq!(
            error(&rows[7]),
            format!(
                "{name}:13: wrong length: expected 81 cells, found 3 (the record runs over \
                 lines 13-14: a quoted field holds line ends)"
            ),
            "{what}"
        );
    };
    check(&from_stdin, "<stdin>", "stdin");
    for threads in ["1", "2"] {
        let out = stdout_ok(sudoflow().args(["solve", "-j", threads]).arg(&path));
        check(&rows(&out), &name, &format!("-j {threads}"));
    }
    let out = stdout_ok(sudoflow().arg("solve").arg(&gz));
    check(&rows(&out), &gz.display().to_string(), "gzip");
    for column in ["puzzle", "3"] {
        let rows = solve_rows(&["--column", column], input.clone());
        check(&rows, "<stdin>", &format!("--column {column}"));
    }
}

/// A quote that never closes (a typo) costs its own line, not the records
/// after it: the line is one `invalid` record saying so, and the lines read
/// past it are read again as records, whether the quote ran to the input's
/// end, past the 1 MiB a record may hold, or into a later record's quoted
/// field (text after the quote that closed it).
#[test]
fn a_stray_quote_costs_its_line_not_the_records_after_it() {
    let easy = easy();
    let header = "id,puzzle,notes\n";
    // To the input's end.
    let input = format!("{header}1,{easy},\"never closed\n2,{easy},x\n3,{easy},y\n");
    let rows = solve_rows(&[], input);
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert_eq!(
        rows[0].last().unwrap(),
        "<stdin>:2: unclosed quote? A quoted field of the record starting here is still open \
         at the input's end, so this line is read as one record and lines 3-4 each as one"
    );
    assert_solved(&rows[1], &easy);
    assert_solved(&rows[2], &easy);
    // Into a later record's quoted field.
    let input = format!("{header}1,\"{easy},x\n2,{easy},\"note\"\n3,{easy},z\n");
    let rows = solve_rows(&[], input);
    let statuses: Vec<&str> = rows.iter().map(|r| r[2].as_str()).collect();
    assert_eq!(statuses, ["invalid", "unique", "unique"], "{rows:?}");
    assert!(
        rows[0]
            .last()
            .unwrap()
            .contains("closes on line 3 with text after the quote"),
        "{rows:?}"
    );
    // Past 1 MiB: 13,000 records of ~90 bytes after the stray quote.
    let mut input = format!("{header}0,{easy},\"never closed\n");
    for i in 1..=13_000 {
        input.push_str(&format!("{i},{easy},x\n"));
    }
    let rows = solve_rows(&[], input);
    assert_eq!(rows.len(), 13_001);
    assert_eq!(rows[0][2], "invalid");
    assert!(
        rows[0]
            .last()
            .unwrap()
            .contains("runs on past 1048576 bytes, the limit of a record"),
        "{:?}",
        rows[0]
    );
    assert!(rows[1..].iter().all(|r| r[2] == "unique"));
    // A quoted field of notes that closes past 64 KiB, its lines shaped
    // like records: one record (found by probing: cut at 64 KiB, its lines
    // were read again, 898 made-up rows from three records).
    let notes: String = (0..900).map(|i| format!("fake{i},{easy}\n")).collect();
    let input = format!("{header}1,{easy},short\n2,{easy},\"{notes}\"\n3,{easy},short\n");
    assert!(input.len() > 80_000);
    let rows = solve_rows(&[], input);
    let indices: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(indices, ["1", "2", "3"], "one row a record");
    for row in &rows {
        assert_solved(row, &easy);
    }
}

/// A zip archive whose second member is damaged half-way (bytes flipped in
/// the middle of its compressed data), and the archive's bytes.
/// Two members of one name (found by probing: the zip crate keys members
/// by name, so the first one's records were lost, exit 0, while the same
/// archive piped gave all of them). Given by name or on stdin from the
/// file: refused before any row, saying why and how to read it; piped,
/// read as a stream, every member's records. An archive comment holding
/// the end record's signature does not confuse the count.
#[test]
fn a_zip_with_two_members_of_one_name_is_refused_not_read_in_part() {
    use std::io::Write;
    use zip::write::SimpleFileOptions;
    let easy = easy();
    let build = |comment: &str| {
        let mut bytes = std::io::Cursor::new(Vec::new());
        {
            let mut zip = zip::ZipWriter::new(&mut bytes);
            let stored =
                SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
            zip.start_file("p.txt", stored).unwrap();
            zip.write_all(format!("{easy}\n{INKALA}\n").as_bytes())
                .unwrap();
            zip.start_file("q.txt", stored).unwrap();
            zip.write_all(format!("{INKALA}\n").as_bytes()).unwrap();
            zip.set_comment(comment);
            zip.finish().unwrap();
        }
        bytes.into_inner()
    };
    // The second member renamed as the first, in its local header and its
    // directory entry (ZipWriter refuses to write two such names).
    let mut dup = build("");
    let mut at = 0;
    while let Some(i) = dup[at..].windows(5).position(|w| w == b"q.txt") {
        dup[at + i..at + i + 5].copy_from_slice(b"p.txt");
        at += i + 5;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dup.zip");
    std::fs::write(&path, &dup).unwrap();
    let out = dir.path().join("out.csv");
    for from_stdin in [false, true] {
        let mut run = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoflow"));
        run.args(["solve", "-o"]).arg(&out);
        if from_stdin {
            // A regular file on stdin (`< dup.zip`), read as one given by name.
            run.stdin(std::fs::File::open(&path).unwrap());
        } else {
            run.arg(&path);
        }
        let done = run.output().unwrap();
        let err = String::from_utf8_lossy(&done.stderr);
        assert_eq!(done.status.code(), Some(2), "{err}");
        assert!(
            err.contains(
                "its directory lists 2 members, but only 1 distinct names: members that share \
                 a name cannot all be read"
            ),
            "{err}"
        );
        assert!(!out.exists() && !dir.path().join("out.csv.partial").exists());
    }
    let piped = rows(&stdout_ok(sudoflow().arg("solve").write_stdin(dup)));
    assert_eq!(piped.len(), 3, "{piped:?}");
    assert_solved(&piped[0], &easy);
    assert_solved(&piped[1], INKALA);
    assert_solved(&piped[2], INKALA);
    // An archive of no members (its end record alone): no records, however
    // given (found by probing: piped or by name, "failed to fill whole
    // buffer", exit 2; print read it as a puzzle).
    let empty = {
        let mut bytes = std::io::Cursor::new(Vec::new());
        zip::ZipWriter::new(&mut bytes).finish().unwrap();
        bytes.into_inner()
    };
    assert!(empty.starts_with(b"PK\x05\x06"));
    let empty_zip = dir.path().join("empty.zip");
    std::fs::write(&empty_zip, &empty).unwrap();
    for out in [
        stdout_ok(sudoflow().args(["solve", "-q"]).arg(&empty_zip)),
        stdout_ok(sudoflow().args(["solve", "-q"]).write_stdin(empty.clone())),
    ] {
        assert!(rows(&out).is_empty(), "{}", String::from_utf8_lossy(&out));
    }
    sudoflow()
        .args(["print", "-q", "-o"])
        .arg(dir.path().join("e.pdf"))
        .arg(&empty_zip)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("0 records read"));
    // Distinct names and a comment holding "PK\x05\x06": read whole.
    let commented = dir.path().join("commented.zip");
    std::fs::write(&commented, build("PK\x05\x06 a comment")).unwrap();
    assert_eq!(
        rows(&stdout_ok(sudoflow().arg("solve").arg(&commented))).len(),
        3
    );
}

/// Every member's header is read before any output: a later member that
/// lacks a `--keep` column, or names two puzzle columns, stops the run
/// before the rows of the members before it are written (found by probing:
/// refused only when reached, a partial file left that no resume could
/// finish).
#[test]
fn a_later_zip_members_header_is_checked_before_any_row() {
    use std::io::Write;
    use zip::write::SimpleFileOptions;
    let easy = easy();
    let dir = tempfile::tempdir().unwrap();
    for (second, why) in [
        ("puzzle,note\n", "has no column named \"id\""),
        ("quiz,puzzle,id\n", "two"),
    ] {
        let mut bytes = std::io::Cursor::new(Vec::new());
        {
            let mut zip = zip::ZipWriter::new(&mut bytes);
            let opts = SimpleFileOptions::default();
            zip.start_file("a.csv", opts).unwrap();
            zip.write_all(format!("id,puzzle\n1,{easy}\n2,{easy}\n").as_bytes())
                .unwrap();
            zip.start_file("b.csv", opts).unwrap();
            zip.write_all(format!("{second}{easy},x,y\n").as_bytes())
                .unwrap();
            zip.finish().unwrap();
        }
        let path = dir.path().join("two.zip");
        std::fs::write(&path, bytes.into_inner()).unwrap();
        let out = dir.path().join("out.csv");
        let done = sudoflow()
            .args(["solve", "--keep", "id", "-o"])
            .arg(&out)
            .arg(&path)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let err = String::from_utf8_lossy(&done.stderr);
        assert!(err.contains("b.csv") && err.contains(why), "{err}");
        assert!(
            !out.exists() && !dir.path().join("out.csv.partial").exists(),
            "{err}"
        );
    }
}

fn zip_with_damaged_member(easy: &str) -> Vec<u8> {
    use std::io::Write;
    use zip::write::SimpleFileOptions;
    let deflated =
        SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    let mut bytes = std::io::Cursor::new(Vec::new());
    {
        let mut zip = zip::ZipWriter::new(&mut bytes);
        zip.start_file("a.txt", deflated).unwrap();
        for i in 0..10 {
            writeln!(zip, "{easy} a{i}").unwrap();
        }
        zip.start_file("b.txt", deflated).unwrap();
        for i in 0..4000 {
            writeln!(zip, "{easy} b{i}").unwrap();
        }
        zip.finish().unwrap();
    }
    let mut bytes = bytes.into_inner();
    let (start, size) = {
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(&bytes)).unwrap();
        let member = archive.by_index(1).unwrap();
        assert_eq!(member.name(), "b.txt");
        (
            member.data_start() as usize,
            member.compressed_size() as usize,
        )
    };
    assert!(size > 1000, "{size}");
    for b in &mut bytes[start + size / 2..start + size / 2 + 8] {
        *b ^= 0x55;
    }
    bytes
}

/// Issue 29, point 10: a zip member damaged half-way. Given by name, or on
/// standard input from a file, each member is checked whole (its CRC-32)
/// before its records are read: exit 2, an error naming the member, and no
/// row from it (the rows of the member before it, which checked, are kept in
/// the partial output). Piped, it cannot be read twice: the error names the
/// rows that came from the damaged member.
#[test]
fn a_damaged_zip_member_gives_no_row_or_names_its_rows() {
    let easy = easy();
    let bytes = zip_with_damaged_member(&easy);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("damaged.zip");
    std::fs::write(&path, &bytes).unwrap();
    let output = dir.path().join("out.csv");
    let run = sudoflow()
        .args(["solve", "-j", "1"])
        .arg(&path)
        .arg("-o")
        .arg(&output)
        .assert()
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert!(
        stderr.contains(&format!(
            "cannot read zip archive {}: its member b.txt is damaged (",
            path.display()
        )) && stderr.contains("so no row comes from it; rows 1-10 came from the members before it"),
        "{stderr}"
    );
    let partial = dir.path().join("out.csv.partial");
    let kept = rows(&std::fs::read(&partial).unwrap());
    assert_eq!(kept.len(), 10, "only a.txt's rows: {}", kept.len());
    assert!(kept.iter().all(|r| r[2] == "unique"));

    // Standard input from the file: read as the file is.
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoflow"))
        .args(["solve", "-j", "1"])
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("cannot read zip archive <stdin>: its member b.txt is damaged (")
            && stderr.contains("no row comes from it"),
        "{stderr}"
    );
    assert_eq!(rows(&out.stdout).len(), 10);

    // Piped: the rows that came from b.txt are named.
    let (stdout, stderr) = solve_piped_fails(bytes);
    let named = stderr
        .split("its member b.txt is damaged: rows 11-")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or_else(|| panic!("no rows named: {stderr}"));
    assert!(stderr.contains("must not be trusted"), "{stderr}");
    assert!(named > 11, "{stderr}");
    // Every row written past a.txt's is among those named.
    let written = rows(&stdout);
    assert!(written.len() <= named, "{} > {named}", written.len());
}

/// A gzip member damaged after some of its lines decompressed: gzip finds
/// the damage only at the member's end (its CRC-32), so the rows written
/// from it are named as not to be trusted, those of the plain text and of a
/// whole member before it are not. Before, the error named only the line.
#[test]
fn a_damaged_gzip_member_names_the_rows_that_came_from_it() {
    let easy = easy();
    let gzip = |text: &str| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut e, text.as_bytes()).unwrap();
        e.finish().unwrap()
    };
    // Rows 1-3 plain, 4-5 a whole member, 6-45 the damaged member.
    let mut bytes = format!("{easy}\n").repeat(3).into_bytes();
    bytes.extend(gzip(&format!("{easy}\n").repeat(2)));
    let mut damaged = gzip(&format!("{easy}\n").repeat(40));
    // The CRC-32 in the trailer: the data inflate whole, the check fails.
    let crc = damaged.len() - 8;
    damaged[crc] ^= 0xff;
    bytes.extend(damaged);
    let (stdout, stderr) = solve_piped_fails(bytes);
    assert!(
        stderr.contains(
            "cannot read input <stdin> after line 45: its gzip member from line 6 is damaged: \
             rows 6-45 came from it and must not be trusted"
        ),
        "{stderr}"
    );
    assert_eq!(rows(&stdout).len(), 45);
}

/// Lines ended by CR alone (classic Mac OS): found by probing, the file
/// read as its first puzzle, the rest dropped unsaid (a CR ended the
/// field). Now the line is one invalid record naming the CR; CRLF and a
/// last line's CR still read as line ends.
#[test]
fn a_carriage_return_inside_a_line_is_named_not_a_field_end() {
    let easy = easy();
    let rows = solve_rows(&[], format!("{easy}\r{easy}\r{easy}\r"));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0][2], "invalid");
    assert!(
        rows[0][10].starts_with("<stdin>:1: a carriage return (CR) inside the line, 81 bytes in"),
        "{:?}",
        rows[0]
    );
    let rows = solve_rows(&[], format!("{easy}\r\n{easy}\r\n{easy}\r"));
    assert_eq!(rows.len(), 3);
    for row in &rows {
        assert_solved(row, &easy);
    }
    // Found by probing again: the CR after text that follows the puzzle
    // (`ED=...`), after a comment, or in a CSV (the header line, or a record
    // after an LF-ended header) was not seen, and all but the first record
    // were dropped unsaid, `--strict` passing. Each such line is now one
    // invalid row naming its CR, and `--strict` fails.
    for (input, line, at) in [
        (
            format!("{easy} ED=2.3/1.2/1.2\r{easy} ED=2.3\r{easy}\r"),
            1,
            96,
        ),
        (format!("# rated\r{easy}\r{easy}\r"), 1, 7),
        (
            format!("index,puzzle,status\r1,{easy},x\r2,{easy},x\r"),
            1,
            19,
        ),
        (
            format!("index,puzzle\n1,{easy}\r2,{easy}\r3,{easy}\n4,{easy}\n"),
            2,
            83,
        ),
    ] {
        let rows = solve_rows(&[], input.clone());
        let cr_row = &rows[0];
        assert_eq!(cr_row[2], "invalid", "{input:?}");
        assert!(
            cr_row[10].starts_with(&format!(
                "<stdin>:{line}: a carriage return (CR) inside the line, {at} bytes in"
            )),
            "{cr_row:?}"
        );
        let after = if line == 2 { 1 } else { 0 };
        assert_eq!(rows.len(), 1 + after, "{input:?}");
        if after == 1 {
            assert_solved(&rows[1], &easy);
        }
        sudoflow()
            .args(["count", "-q", "--strict"])
            .write_stdin(input)
            .assert()
            .code(1);
    }
    // Found by probing the above: a CR in a comment before a CSV header
    // lost the header (every record after it invalid), and a CR inside a
    // quoted field (which RFC 4180 allows) split its record in two. The
    // comment is its own invalid row and the header still read; the quoted
    // field's CR is the field's.
    let input = format!("# co\rmment\nid,puzzle\na,{easy}\n\"b\rx\ny\",{easy}\nc,{easy}\n");
    let out = sudoflow()
        .args(["count", "-q", "--keep", "id", "--source"])
        .write_stdin(input)
        .assert()
        .success()
        .get_output()
        .clone();
    let counted = self::rows(&out.stdout);
    let summary: Vec<(&str, &str, &str)> = counted
        .iter()
        .map(|r| (r[0].as_str(), r[3].as_str(), r[r.len() - 1].as_str()))
        .collect();
    assert_eq!(
        summary,
        [
            ("", "invalid", "1"),
            ("a", "unique", "3"),
            ("b\rx\ny", "unique", "4"),
            ("c", "unique", "6")
        ]
    );
}

/// A line of binary bytes that starts with gzip's magic bytes but holds no
/// gzip header is one invalid record, and the records after it are read.
/// Found by probing: it ended the run as a damaged gzip member (exit 2),
/// the records after it lost; /dev/urandom stopped the same way.
#[test]
fn a_line_starting_like_gzip_without_its_header_is_one_record() {
    let easy = easy();
    let mut bytes = format!("{easy}\n").into_bytes();
    bytes.extend(b"\x1f\x8bjunk\n");
    bytes.extend(format!("{easy}\n{easy}\n").into_bytes());
    let out = sudoflow()
        .args(["solve", "-q"])
        .write_stdin(bytes)
        .assert()
        .success();
    let rows = rows(&out.get_output().stdout);
    assert_eq!(rows.len(), 3 + 1);
    assert_eq!(rows[1][2], "invalid");
    assert!(
        rows[1][10].starts_with("<stdin>:2: not UTF-8 text"),
        "{:?}",
        rows[1]
    );
    for row in [&rows[0], &rows[2], &rows[3]] {
        assert_solved(row, &easy);
    }
}

/// An input compressed in a format the reader does not decompress (zstd,
/// xz, bzip2, lz4, 7-Zip) is one error naming the format and the command
/// to decompress it, by name (before any output) or on stdin. Found by
/// probing: read as text, it gave a few invalid rows of binary bytes and
/// exit 0, its puzzles unread.
#[test]
fn a_compression_the_reader_does_not_read_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    for (name, magic, format) in [
        ("a.zst", &b"\x28\xb5\x2f\xfd"[..], "zstd"),
        ("a.xz", b"\xfd7zXZ\x00", "xz"),
        ("a.bz2", b"BZh91AY&SY", "bzip2"),
    ] {
        let path = dir.path().join(name);
        let mut bytes = magic.to_vec();
        bytes.extend_from_slice(b"\x00\x01binary\n");
        std::fs::write(&path, &bytes).unwrap();
        sudoflow()
            .args(["solve", "-q"])
            .arg(&path)
            .arg("-o")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(format!(
                "input {} is {format} data, which sudoflow does not decompress",
                path.display()
            )));
        assert!(!out.exists() && !dir.path().join("out.csv.partial").exists());
        sudoflow()
            .args(["solve", "-q"])
            .write_stdin(bytes)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(format!(
                "input <stdin> is {format} data"
            )));
    }
}

/// `solve -j 1` reading `bytes` from a pipe, which must fail (exit 2): its
/// stdout and stderr.
fn solve_piped_fails(bytes: Vec<u8>) -> (Vec<u8>, String) {
    let out = sudoflow()
        .args(["solve", "-j", "1"])
        .write_stdin(bytes)
        .assert()
        .code(2)
        .get_output()
        .clone();
    (out.stdout, String::from_utf8(out.stderr).unwrap())
}

/// The records `solve` writes rows for in `out` (CSV with a header): the
/// `puzzle` column of each row.
fn puzzles_of(out: &[u8]) -> Vec<String> {
    rows(out).into_iter().map(|r| r[1].clone()).collect()
}

/// A pipe or FIFO given by name is read once, by the reader: the resume
/// fingerprint of `-o` read its first MiB before the reader opened it again
/// (every record of a small input lost, exit 0), and the input checks
/// opened and closed a FIFO, which dropped what its writer had put in it
/// and left the reader waiting for another writer for ever.
#[test]
fn a_pipe_or_fifo_given_by_name_gives_every_record_once() {
    let easy = easy();
    let text = format!("{INKALA}\n{easy}\n12345\n");
    let expected = vec![INKALA.to_string(), easy.clone(), "12345".to_string()];
    let dir = tempfile::tempdir().unwrap();
    // `solve` of `input` (with `stdin`, if any), to `-o` or stdout: the
    // puzzles of its rows.
    let solved = |input: &std::path::Path, stdin: Option<&str>, with_output: bool| {
        let out_file = dir.path().join("out.csv");
        let mut cmd = sudoflow();
        cmd.args(["solve", "-q"]).arg(input);
        if with_output {
            cmd.arg("-o").arg(&out_file);
        }
        if let Some(stdin) = stdin {
            cmd.write_stdin(stdin);
        }
        let stdout = stdout_ok(cmd.timeout(std::time::Duration::from_secs(60)));
        puzzles_of(&if with_output {
            std::fs::read(&out_file).unwrap()
        } else {
            stdout
        })
    };
    for with_output in [true, false] {
        // A pipe, as `/dev/stdin`.
        let got = solved("/dev/stdin".as_ref(), Some(&text), with_output);
        assert_eq!(got, expected, "pipe, -o {with_output}");
        // A FIFO whose writer writes and closes.
        let fifo = dir.path().join(format!("fifo-{with_output}"));
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let (path, data) = (fifo.clone(), text.clone());
        // Not joined: were the FIFO never opened for reading, the writer
        // would wait for ever, and the assertion below says why.
        std::thread::spawn(move || {
            use std::io::Write;
            let mut w = std::fs::OpenOptions::new().write(true).open(path).unwrap();
            w.write_all(data.as_bytes()).unwrap();
        });
        let got = solved(&fifo, None, with_output);
        assert_eq!(got, expected, "FIFO, -o {with_output}");
    }
}

/// Rows of one 9-line grid are never completed by rows of the next: a
/// comment, blank line or box rule inside a band ends the rows before it (a
/// grid cut short, one invalid row), where the same lines between bands are
/// skipped. Found by probing: 8 rows of a grid, `# Puzzle B` and a whole
/// grid gave a `unique` row for a puzzle in no input (the 8 rows and B's
/// first) and B as `invalid`.
#[test]
fn a_grid_cut_short_is_not_completed_by_the_next_grid() {
    let rows_of = |p: &str| -> Vec<String> {
        p.as_bytes()
            .chunks(9)
            .map(|r| String::from_utf8(r.to_vec()).unwrap())
            .collect()
    };
    let a = rows_of(INKALA);
    let easy = easy();
    let b = rows_of(&easy);
    for between in ["# Puzzle B", "", "------+-------+------"] {
        // Rules and blank lines between the bands of B are skipped.
        let b_text = format!(
            "{}\n{between}\n{}\n{between}\n{}\n",
            b[0..3].join("\n"),
            b[3..6].join("\n"),
            b[6..9].join("\n")
        );
        let input = format!("# Puzzle A\n{}\n{between}\n{b_text}", a[0..8].join("\n"));
        let rows = solve_rows(&[], input);
        assert_eq!(rows.len(), 2, "{between:?}: {rows:?}");
        assert_eq!(rows[0][2], "invalid", "{between:?}: {rows:?}");
        assert_eq!(
            rows[0].last().unwrap(),
            "<stdin>:2: looks like 8 rows of a 9-line grid (lines 2-9); a grid written on \
             lines needs 9 rows of 9 cells",
            "{between:?}"
        );
        assert_eq!(rows[1][1], easy, "{between:?}");
        assert_solved(&rows[1], &easy);
    }
}

/// An input file truncated (or rewritten in place) by another program while
/// a run reads it: the run ended with exit 0 on a record cut in the
/// middle, an invalid row for a puzzle that was whole when it began, and
/// nothing said the file had changed. Now the file's end is checked
/// against its size: an error naming the file and the line reached (exit
/// 2), after the rows of the records read before.
#[cfg(target_os = "linux")]
#[test]
fn an_input_file_that_shrinks_while_read_is_an_error_not_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shrinks.txt");
    // 64 empty grids counted to 200,000 (about 2 s at -j 1, while the
    // reader holds the file's first 64 KiB), then 2,000 quick puzzles.
    let mut text = format!("{}\n", ".".repeat(81)).repeat(64);
    text.push_str(&format!("{INKALA}\n").repeat(2000));
    std::fs::write(&path, &text).unwrap();
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoflow"))
        .args(["count", "-q", "-j", "1", "--limit", "200000"])
        .arg(&path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Once the run holds the file open, it is cut to its first 100 lines.
    let fds = format!("/proc/{}/fd", child.id());
    let waiting = std::time::Instant::now();
    while !std::fs::read_dir(&fds)
        .map(|fds| {
            fds.flatten()
                .any(|fd| std::fs::read_link(fd.path()).ok() == Some(path.clone()))
        })
        .unwrap_or(false)
    {
        assert!(
            waiting.elapsed().as_secs() < 60,
            "the run never opened the file"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(82 * 100)
        .unwrap();
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("cannot read input {} after line", path.display()))
            && err.contains(&format!(
                "the file shrank while it was read ({} bytes when opened, 8200 now",
                text.len()
            )),
        "{err}"
    );
    // The rows of the records read before the cut: the empty grids first.
    let rows = rows(&done.stdout);
    assert!(rows.len() >= 64, "{} rows", rows.len());
    assert!(rows[..64].iter().all(|r| r[2] == "capped"), "{:?}", rows[0]);
}

/// A CSV header over the line limit (a million columns) was read as an
/// invalid record: `--column NAME` then read every puzzle from the first
/// field and `--keep` kept nothing, with exit 0. Both need that header:
/// now it is an error naming the input, the length and the option, and no
/// row is written. Without them the long line is a record, as before.
#[test]
fn a_header_over_the_line_limit_is_an_error_where_an_option_needs_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wide.csv");
    let columns: Vec<String> = (0..20_000).map(|i| format!("c{i}")).collect();
    let mut text = format!("puzzle,{}\n", columns.join(","));
    let header_len = text.len() - 1;
    text.push_str(&format!("{INKALA},{}\n", "x,".repeat(3)));
    std::fs::write(&path, &text).unwrap();
    for option in [&["--column", "puzzle"][..], &["--keep", "c5"]] {
        let out = sudoflow()
            .args(["solve", "-q"])
            .args(option)
            .arg(&path)
            .assert()
            .code(2)
            .get_output()
            .clone();
        assert!(out.stdout.is_empty(), "{option:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!(
                "input {}'s first line is {header_len} bytes long, over the limit of 65536, so \
                 its CSV header, which {} reads, cannot be read",
                path.display(),
                option.join(" ")
            )),
            "{err}"
        );
    }
    // No option needs it: one invalid row for the line, then the puzzle.
    let rows = rows(&stdout_ok(sudoflow().args(["solve", "-q"]).arg(&path)));
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0][2], "invalid");
    assert_eq!(rows[1][2], "unique");
}

/// In a CSV, a line past the header is a record whatever its first field
/// holds: an id `#7` (or a `#` after spaces) is no comment there, so its
/// record gets its row in every command, `print` prints it and `generate
/// --exclude` excludes it. Comments before the header stay comments, and
/// a `#` line after it is a record that says why it is none.
#[test]
fn a_csv_record_whose_first_field_starts_with_a_hash_gets_its_row() {
    let easy = easy();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("ids.csv");
    let text =
        format!("# made by hand\nid,puzzle\n#7,{easy}\nA8,{INKALA}\n  #9,{easy}\n\n# the end\n");
    std::fs::write(&input, text).unwrap();
    for command in ["solve", "count", "rate", "canon"] {
        let out = stdout_ok(
            sudoflow()
                .args([command, "-q", "--keep", "id", "--source"])
                .arg(&input),
        );
        let rows = rows(&out);
        let ids: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| (r[0].as_str(), r[r.len() - 1].as_str()))
            .collect();
        assert_eq!(
            ids,
            [("#7", "3"), ("A8", "4"), ("  #9", "5"), ("# the end", "7")],
            "{command}"
        );
        assert_eq!(rows[0][2], easy, "{command}");
        let last = String::from_utf8_lossy(&out)
            .lines()
            .last()
            .unwrap()
            .to_string();
        assert!(last.contains("ids.csv:7: "), "{command}: {last}");
    }
    let out = stdout_ok(
        sudoflow()
            .args(["explain", "-q", "--format", "jsonl"])
            .arg(&input),
    );
    assert_eq!(
        out.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count(),
        4
    );
    // print: the three puzzles printed, the comment-like record named.
    let book = dir.path().join("book.svg");
    let assert = sudoflow()
        .arg("print")
        .arg(&input)
        .arg("-o")
        .arg(&book)
        .assert()
        .success();
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        err.contains("printed 3 puzzles") && err.contains("ids.csv:7:"),
        "{err}"
    );
    // generate --exclude: a generated puzzle is excluded though its id
    // starts with '#'.
    let first = stdout_ok(sudoflow().args(["generate", "-q", "-n", "1", "--seed", "1"]));
    let made = rows(&first)[0][1].clone();
    let excluded = dir.path().join("made.csv");
    std::fs::write(&excluded, format!("id,puzzle\n#1,{made}\n")).unwrap();
    let again = stdout_ok(
        sudoflow()
            .args(["generate", "-q", "-n", "1", "--seed", "1", "--exclude"])
            .arg(&excluded),
    );
    assert_ne!(rows(&again)[0][1], made);
}
