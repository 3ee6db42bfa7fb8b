//! Results that map back to their input (issue 30): `--keep` and `--source`
//! columns on every row-writing command (explain's in each format),
//! `--distinct` on solve, rate, count and explain, `-p/--puzzle`, unsolvable rows naming their contradiction,
//! errors through a pipe naming the original input, `generate --exclude`.

use assert_cmd::Command;
use rand::SeedableRng;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;
use sudoflow::canon::{canonical, group};
use sudoflow::grid::Grid;

/// Easy puzzles (rated in milliseconds), each with one solution.
const EASY: &str =
    "530070000600195000098000060800060003400803001700020006060000280000419005000080079";
const EASY2: &str =
    "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

/// A puzzle of `givens` (cell 0..81, digit), blanks elsewhere.
fn puzzle_of(givens: &[(usize, u8)]) -> String {
    let mut cells = [b'.'; 81];
    for &(cell, digit) in givens {
        cells[cell] = b'0' + digit;
    }
    String::from_utf8(cells.to_vec()).unwrap()
}

/// r1c1 sees every digit: 1-4 and 8 in row 1, 5-7 in column 1, 9 in box
/// 1. Propagation finds the contradiction before any guess.
fn no_candidate() -> String {
    puzzle_of(&[
        (1, 1),
        (2, 8),
        (3, 2),
        (4, 3),
        (5, 4),
        (10, 9),
        (27, 5),
        (36, 6),
        (45, 7),
    ])
}

/// Row 1's blanks r1c1-r1c3 need 7, 8, 9, but box 1 has its 7 at r2c1.
fn no_place() -> String {
    puzzle_of(&[(3, 1), (4, 2), (5, 3), (6, 4), (7, 5), (8, 6), (9, 7)])
}

fn sudoflow() -> Command {
    Command::cargo_bin("sudoflow").expect("binary built")
}

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("sudoflow")
}

/// A random equivalent of `line` (digits relabelled, rows, columns, bands
/// moved, maybe transposed), seeded.
fn transformed(line: &str, seed: u64) -> String {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    group::random(&mut rng)
        .apply(&Grid::parse(line).unwrap())
        .to_line()
}

/// A CSV's header and rows.
fn table(out: &[u8]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut rdr = csv::Reader::from_reader(out);
    let header = rdr.headers().unwrap().iter().map(String::from).collect();
    let rows = rdr
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// The field of `row` under column `name` of `header`.
fn field<'a>(header: &[String], row: &'a [String], name: &str) -> &'a str {
    let k = header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header:?}"));
    &row[k]
}

fn stdout(args: &[&str], stdin: &str) -> Vec<u8> {
    sudoflow()
        .args(args)
        .write_stdin(stdin)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone()
}

/// The commands that write a row per input record.
const ROW_COMMANDS: [&str; 4] = ["solve", "rate", "count", "canon"];

/// The own header of each of [`ROW_COMMANDS`]: the columns after the kept
/// ones, before `source,line`.
fn own_header(command: &str) -> &'static [&'static str] {
    match command {
        "solve" => &sudoflow::output::SOLVE_HEADER,
        "rate" => &sudoflow::rows::rate::RATE_HEADER,
        "count" => &sudoflow::rows::count::COUNT_HEADER,
        "canon" => &sudoflow::cmd::canon::CANON_HEADER,
        _ => unreachable!(),
    }
}

/// A contributor's CSV: ids that look like numbers, a quoted field with a
/// comma, an invalid record, a record whose kept field is missing.
fn contributors(dir: &Path) -> PathBuf {
    let path = dir.join("in.csv");
    let text = format!("id,puzzle,book\n007,{EASY},Vol 1\nx2,not a puzzle,\"Vol, 2\"\n3,{EASY2}\n");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn keep_and_source_carry_the_input_into_every_row_writing_command() {
    let dir = tempfile::tempdir().unwrap();
    let input = contributors(dir.path());
    let input = input.to_str().unwrap();
    for command in ROW_COMMANDS {
        let args = [command, "-q", "--keep", "id,BOOK", "--source", input];
        let out = stdout(&args, "");
        let (header, rows) = table(&out);
        let own = own_header(command);
        let mut want: Vec<&str> = vec!["id", "BOOK"];
        want.extend(own);
        want.extend(["source", "line"]);
        assert_eq!(header, want, "{command}");
        assert_eq!(rows.len(), 3, "{command}");
        let kept: Vec<(&str, &str)> = rows.iter().map(|r| (&*r[0], &*r[1])).collect();
        assert_eq!(
            kept,
            [("007", "Vol 1"), ("x2", "Vol, 2"), ("3", "")],
            "{command}"
        );
        for (row, line) in rows.iter().zip(["2", "3", "4"]) {
            assert_eq!(field(&header, row, "source"), input, "{command}");
            assert_eq!(field(&header, row, "line"), line, "{command}");
            assert_eq!(row.len(), header.len());
        }
        assert_eq!(field(&header, &rows[0], "index"), "1");
        assert!(
            field(&header, &rows[1], "error").starts_with(&format!("{input}:3: ")),
            "{command}: {:?}",
            rows[1]
        );
        // The same rows with one thread or two (solve formats on its workers).
        let one = stdout(&[&args[..], &["-j", "1"]].concat(), "");
        let two = stdout(&[&args[..], &["-j", "2"]].concat(), "");
        assert_eq!(one, out, "{command} -j 1");
        assert_eq!(two, out, "{command} -j 2");
    }
}

/// A JSON object's keys in the order written, and its values.
struct Object(Vec<(String, serde_json::Value)>);

impl<'de> serde::Deserialize<'de> for Object {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Object, D::Error> {
        struct Keys;
        impl<'de> serde::de::Visitor<'de> for Keys {
            type Value = Object;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Object, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Object(entries))
            }
        }
        d.deserialize_map(Keys)
    }
}

impl Object {
    fn keys(&self) -> Vec<&str> {
        self.0.iter().map(|(k, _)| k.as_str()).collect()
    }
}

impl std::ops::Index<&str> for Object {
    type Output = serde_json::Value;
    fn index(&self, key: &str) -> &serde_json::Value {
        let found = self.0.iter().find(|(k, _)| k == key);
        &found.unwrap_or_else(|| panic!("no key {key}")).1
    }
}

/// The JSON objects of a stream (JSON Lines or pretty-printed).
fn objects(out: &[u8]) -> Vec<Object> {
    serde_json::Deserializer::from_slice(out)
        .into_iter::<Object>()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn explain_carries_keep_and_source_in_every_format_and_distinct_too() {
    let dir = tempfile::tempdir().unwrap();
    let input = contributors(dir.path());
    let input = input.to_str().unwrap();
    let mut want: Vec<&str> = vec!["id", "BOOK"];
    want.extend(sudoflow::rows::explain::EXPLAIN_HEADER);
    want.extend(["source", "line"]);
    let args = ["explain", "-q", "--keep", "id,BOOK", "--source", input];
    for format in ["jsonl", "json"] {
        let out = stdout(&[&args[..], &["--format", format]].concat(), "");
        let rows = objects(&out);
        assert_eq!(rows.len(), 3, "{format}");
        for (row, (id, book, line)) in
            rows.iter()
                .zip([("007", "Vol 1", 2), ("x2", "Vol, 2", 3), ("3", "", 4)])
        {
            assert_eq!(row.keys(), want, "{format}");
            assert_eq!(row["id"], id, "{format}: an id is the input's text");
            // A missing field is null, as an empty one is in JSON Lines.
            let book = Some(book).filter(|b| !b.is_empty());
            assert_eq!(row["BOOK"], serde_json::json!(book), "{format}");
            assert_eq!(row["source"], input, "{format}");
            assert_eq!(row["line"], line, "{format}");
        }
        assert_eq!(rows[0]["status"], "rated");
        let error = rows[1]["error"].as_str().unwrap();
        assert!(error.starts_with(&format!("{input}:3: ")), "{error}");
        for threads in ["1", "2"] {
            let again = stdout(
                &[&args[..], &["--format", format, "-j", threads]].concat(),
                "",
            );
            assert_eq!(again, out, "{format} -j {threads}");
        }
    }
    // Text: the index, a line for each kept column and the source before
    // the puzzle's.
    let text = String::from_utf8(stdout(&args, "")).unwrap();
    let blocks: Vec<&str> = text
        .split("\n\n")
        .filter(|b| b.starts_with("index "))
        .collect();
    assert_eq!(blocks.len(), 3, "{text}");
    assert!(
        blocks[0].starts_with(&format!(
            "index    1\nid       007\nBOOK     Vol 1\nsource   {input}:2\npuzzle "
        )),
        "{}",
        blocks[0]
    );
    assert!(blocks[1].starts_with(&format!(
        "index    2\nid       x2\nBOOK     Vol, 2\nsource   {input}:3\n"
    )));
    // A kept field holding a line end stays on its line, escaped; with
    // --distinct, the index says which records were dropped (found by
    // probing: neither could be read back from the text).
    let multi = format!(
        "id,puzzle\n\"4\n5\",{EASY}\n6,{}\n4\\n5,{EASY2}\n",
        transformed(EASY, 5)
    );
    let text = String::from_utf8(stdout(
        &["explain", "-q", "--distinct", "--keep", "id"],
        &multi,
    ))
    .unwrap();
    assert!(
        text.starts_with("index    1\nid       4\\n5\npuzzle   "),
        "{text}"
    );
    assert!(!text.contains("index    2"), "{text}");
    // A backslash is doubled, so that the two read apart.
    assert!(
        text.contains("index    3\nid       4\\\\n5\npuzzle   "),
        "{text}"
    );
    // --distinct: the first record of each class explained, the others
    // counted as repeats.
    let assert = sudoflow()
        .args(["explain", "--distinct", "--source", "--format", "jsonl"])
        .write_stdin(with_repeats())
        .assert()
        .success();
    let rows = objects(&assert.get_output().stdout);
    let lines: Vec<u64> = rows.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [1, 3, 4, 7]);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(err.contains("3 repeats"), "{err}");
    // Puzzles given as arguments carry theirs too.
    let out = stdout(
        &[
            "explain",
            "--source",
            "--distinct",
            "--format",
            "jsonl",
            EASY,
            &transformed(EASY, 4),
            EASY2,
        ],
        "",
    );
    let rows = objects(&out);
    let at: Vec<(&str, u64)> = rows
        .iter()
        .map(|r| (r["source"].as_str().unwrap(), r["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(at, [("argument 1", 1), ("argument 3", 1)]);
    // An argument holding two puzzles (two lines) names each by its line:
    // found by probing, both rows were `argument,1`.
    let out = stdout(
        &[
            "explain",
            "--source",
            "--format",
            "jsonl",
            EASY,
            &format!("{EASY2}\n{EASY}"),
        ],
        "",
    );
    let rows = objects(&out);
    let at: Vec<(&str, u64, &str)> = rows
        .iter()
        .map(|r| {
            let puzzle = r["puzzle"].as_str().unwrap();
            (
                r["source"].as_str().unwrap(),
                r["line"].as_u64().unwrap(),
                puzzle,
            )
        })
        .collect();
    let [easy, easy2] = [EASY, EASY2].map(|p| Grid::parse(p).unwrap().to_line());
    assert_eq!(
        at,
        [
            ("argument 1", 1, easy.as_str()),
            ("argument 2", 1, easy2.as_str()),
            ("argument 2", 2, easy.as_str())
        ]
    );
    // Pictures draw one puzzle: the options that map rows are refused.
    sudoflow()
        .args(["explain", "--source", "--format", "svg", EASY])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--source maps rows to their records: --format svg and html draw one puzzle",
        ));
}

#[test]
fn kept_columns_are_text_in_json_lines() {
    let dir = tempfile::tempdir().unwrap();
    let input = contributors(dir.path());
    let out = stdout(
        &[
            "solve", "-q", "--keep", "id", "--source", "--format", "jsonl",
        ],
        &std::fs::read_to_string(input).unwrap(),
    );
    let first: serde_json::Value =
        serde_json::from_slice(out.split(|&b| b == b'\n').next().unwrap()).unwrap();
    assert_eq!(first["id"], "007", "an id is the input's text: {first}");
    assert_eq!(first["source"], "<stdin>");
    assert_eq!(first["line"], 2, "line is a number: {first}");
    assert_eq!(first["index"], 1);
}

#[test]
fn a_kept_field_that_is_not_utf8_makes_its_record_invalid_not_a_changed_id() {
    // Found by probing: `Müller` and `Möller` in Latin-1 were both written
    // `M\u{fffd}ller`, one id for two records, with their rows valid.
    // Quoted and unquoted fields, the puzzle in a middle column and in the
    // last, and an origin's `source` too.
    let mut input = b"id,puzzle,note\nM\xfcller,".to_vec();
    input.extend_from_slice(EASY.as_bytes());
    input.extend_from_slice(b",a\n\"M\xf6ller\",");
    input.extend_from_slice(EASY.as_bytes());
    input.extend_from_slice(b",b\nMaria,");
    input.extend_from_slice(EASY2.as_bytes());
    input.extend_from_slice(b",\"n\xe9\"\nJo,");
    input.extend_from_slice(EASY2.as_bytes());
    input.extend_from_slice(b",c\r\n");
    for command in ROW_COMMANDS {
        let out = sudoflow()
            .args([command, "-q", "--keep", "id,note", "-"])
            .write_stdin(input.clone())
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let (header, rows) = table(&out);
        let errors: Vec<&str> = rows.iter().map(|r| field(&header, r, "error")).collect();
        assert_eq!(rows.len(), 4, "{command}: one row a record");
        for (error, (line, column, byte)) in errors.iter().zip([
            (2, "id", "0xfc at byte position 2"),
            (3, "id", "0xf6 at byte position 2"),
        ]) {
            assert_eq!(
                *error,
                format!(
                    "<stdin>:{line}: column \"{column}\" is not UTF-8 text: byte {byte} of its \
                     field (convert the input to UTF-8, e.g. with iconv)"
                ),
                "{command}"
            );
        }
        assert!(
            errors[2].contains("column \"note\""),
            "{command}: {errors:?}"
        );
        assert_eq!(errors[3], "", "{command}: a UTF-8 record is read");
        if command != "canon" {
            for row in &rows[..3] {
                assert_eq!(field(&header, row, "status"), "invalid", "{command}");
            }
        }
        // The puzzle is still said.
        assert_eq!(
            field(&header, &rows[0], "puzzle"),
            Grid::parse(EASY).unwrap().to_line(),
            "{command}"
        );
    }
    let mut origin = b"puzzle,source,line\n".to_vec();
    origin.extend_from_slice(EASY.as_bytes());
    origin.extend_from_slice(b",b\xffig.txt,7\n");
    let out = sudoflow()
        .args(["solve", "-q", "--source", "-"])
        .write_stdin(origin)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let (header, rows) = table(&out);
    // Named by its own place, not by the changed text of its source.
    let error = field(&header, &rows[0], "error");
    assert_eq!(
        error,
        "<stdin>:2: column \"source\" is not UTF-8 text: byte 0xff at byte position 2 of its \
         field (convert the input to UTF-8, e.g. with iconv)"
    );
    assert_eq!(field(&header, &rows[0], "source"), "<stdin>");
    assert_eq!(field(&header, &rows[0], "line"), "2");
}

#[test]
fn a_missing_kept_column_stops_the_run_before_any_output_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let input = contributors(dir.path());
    for command in ROW_COMMANDS {
        let out = dir.path().join(format!("{command}.csv"));
        let assert = sudoflow()
            .args([command, "-q", "--keep", "id,author"])
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(
            err.contains("no column named \"author\" (--keep)") && err.contains("in.csv"),
            "{command}: {err}"
        );
        assert!(!out.exists(), "{command}");
        assert!(!dir.path().join(format!("{command}.csv.partial")).exists());
    }
    // An input that is no CSV (one puzzle a line) has no columns: its
    // records' kept fields are empty, beside a CSV's.
    let text = dir.path().join("a.txt");
    std::fs::write(&text, format!("{EASY}\n")).unwrap();
    let out = sudoflow()
        .args(["solve", "-q", "--keep", "id"])
        .arg(&text)
        .arg(&input)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let (_, rows) = table(&out);
    let ids: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(ids, ["", "007", "x2", "3"]);
    // A kept column named as one of the command's own, or twice.
    for (keep, why) in [
        ("puzzle", "this command writes a column \"puzzle\""),
        ("id,id", "names the column \"id\" twice"),
        ("PUZZLE", "this command writes a column \"puzzle\""),
    ] {
        let err = sudoflow()
            .args(["count", "--keep", keep])
            .arg(&input)
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        assert!(String::from_utf8_lossy(&err).contains(why), "{keep}");
    }
}

/// A header naming columns that differ in case only: `--keep` and
/// `--column` take the one named exactly so, else the first in any case,
/// and both can be kept.
#[test]
fn a_column_named_exactly_so_is_taken_before_one_in_another_case() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("cased.csv");
    std::fs::write(
        &input,
        format!("id,ID,Puzzle,puzzle\nlow,UP,{EASY},{EASY2}\n"),
    )
    .unwrap();
    let input = input.to_str().unwrap();
    let row = |args: &[&str]| {
        let (header, rows) = table(&stdout(&[&["count", "-q"], args, &[input]].concat(), ""));
        assert_eq!(rows.len(), 1, "{args:?}");
        (header, rows[0].clone())
    };
    let (header, r) = row(&["--keep", "ID"]);
    assert_eq!((header[0].as_str(), r[0].as_str()), ("ID", "UP"));
    let (_, r) = row(&["--keep", "id"]);
    assert_eq!(r[0], "low");
    let (_, r) = row(&["--keep", "Id"]);
    assert_eq!(r[0], "low", "no exact name: the first in any case");
    let (header, r) = row(&["--keep", "id,ID"]);
    assert_eq!(header[..2], ["id", "ID"]);
    assert_eq!(r[..2], ["low", "UP"]);
    // The puzzle column: `puzzle` named exactly, by --column or by itself.
    for args in [&["--column", "puzzle"][..], &[]] {
        let (header, r) = row(args);
        assert_eq!(
            field(&header, &r, "puzzle").replace('.', "0"),
            EASY2,
            "{args:?}"
        );
    }
    let (header, r) = row(&["--column", "Puzzle"]);
    assert_eq!(field(&header, &r, "puzzle").replace('.', "0"), EASY);
}

/// A header naming two puzzle columns alike (`quiz` and `puzzle`, or
/// `Quiz` and `PUZZLE`): no command guesses which holds the puzzles. Each
/// refuses before any row, naming both columns, and `--column` chooses.
#[test]
fn a_header_naming_two_puzzle_columns_is_refused_until_column_chooses() {
    let dir = tempfile::tempdir().unwrap();
    for (header, a, b) in [
        (
            "id,quiz,puzzle",
            "\"quiz\" (column 2)",
            "\"puzzle\" (column 3)",
        ),
        (
            "Quiz,id,PUZZLE",
            "\"Quiz\" (column 1)",
            "\"PUZZLE\" (column 3)",
        ),
        // Found by probing: an exact `quiz` was taken over `PUZZLE`.
        (
            "PUZZLE,id,quiz",
            "\"PUZZLE\" (column 1)",
            "\"quiz\" (column 3)",
        ),
    ] {
        let input = dir.path().join("two.csv");
        let cells: Vec<&str> = header.split(',').collect();
        let record: Vec<&str> = cells
            .iter()
            .map(|c| match c.to_ascii_lowercase().as_str() {
                "quiz" => EASY,
                "puzzle" => EASY2,
                _ => "7",
            })
            .collect();
        std::fs::write(&input, format!("{header}\n{}\n", record.join(","))).unwrap();
        let input = input.to_str().unwrap();
        let message = format!(
            "input {input} names two columns that could hold the puzzles, {a} and {b}: say \
             which with --column"
        );
        let book = dir.path().join("book.pdf");
        for args in [
            &["solve"][..],
            &["rate"],
            &["count"],
            &["canon"],
            &["explain"],
            &["generate", "--count", "1", "--exclude"],
            &["print", "-o", book.to_str().unwrap()],
        ] {
            let out = sudoflow().args(args).arg(input).output().unwrap();
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            let rows = String::from_utf8_lossy(&out.stdout).lines().count();
            assert!(
                rows <= 1,
                "{args:?}: a header at most, no row before the refusal"
            );
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains(&message), "{args:?}: {stderr}");
        }
        assert!(!book.exists());
        let name = header.split(',').nth(2).unwrap();
        let (head, rows) = table(&stdout(&["count", "-q", "--column", name, input], ""));
        assert_eq!(rows.len(), 1);
        let want = if name.eq_ignore_ascii_case("quiz") {
            EASY
        } else {
            EASY2
        };
        assert_eq!(field(&head, &rows[0], "puzzle").replace('.', "0"), want);
    }
}

/// Equivalent copies among distinct puzzles: rows 1 (EASY), 2 (a copy), 3
/// (invalid), 4 (EASY2), 5 and 6 (copies of EASY2 and EASY), 7 (invalid
/// again: invalid records have no class).
fn with_repeats() -> String {
    [
        EASY.to_string(),
        transformed(EASY, 1),
        "12x".to_string(),
        EASY2.to_string(),
        transformed(EASY2, 2),
        transformed(EASY, 3),
        "12x".to_string(),
    ]
    .join("\n")
        + "\n"
}

#[test]
fn distinct_works_on_and_writes_the_first_record_of_each_class_only() {
    let input = with_repeats();
    for command in ["solve", "rate", "count", "canon"] {
        let assert = sudoflow()
            .args([command, "--distinct", "--source"])
            .write_stdin(input.clone())
            .assert()
            .success();
        let (header, rows) = table(&assert.get_output().stdout);
        let indices: Vec<&str> = rows.iter().map(|r| field(&header, r, "index")).collect();
        assert_eq!(indices, ["1", "3", "4", "7"], "{command}");
        let lines: Vec<&str> = rows.iter().map(|r| field(&header, r, "line")).collect();
        assert_eq!(lines, ["1", "3", "4", "7"], "{command}");
        let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        if command != "canon" {
            assert!(err.contains("3 repeats"), "{command}: {err}");
        }
        for threads in ["1", "2"] {
            let again = stdout(
                &[command, "-q", "--distinct", "--source", "-j", threads],
                &input,
            );
            assert_eq!(again, assert.get_output().stdout, "{command} -j {threads}");
        }
    }
    // From a regular file solve -j 2 formats rows on its workers, but not
    // with --distinct: the same rows.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("repeats.txt");
    std::fs::write(&file, &input).unwrap();
    let from_file = sudoflow()
        .args(["solve", "-q", "--distinct", "-j", "2"])
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let one = sudoflow()
        .args(["solve", "-q", "--distinct", "-j", "1"])
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(from_file, one);
    let (_, rows) = table(&one);
    assert_eq!(rows.len(), 4);
}

/// A record whose givens clash is invalid in solve, rate, count and
/// explain, so `--distinct` gives it its row however often it repeats, an
/// equivalent copy included (found by probing: the repeats got none, while
/// the help promises every invalid record its row).
#[test]
fn distinct_gives_every_record_with_clashing_givens_its_row() {
    let clash = format!("5.....5{}", ".".repeat(74));
    // The same clash moved to another row (rows 1 and 2 swapped).
    let moved = format!("{}5.....5{}", ".".repeat(9), ".".repeat(65));
    let input = format!("{clash}\n{clash}\n{EASY}\n{moved}\n");
    for command in ["solve", "rate", "count"] {
        let assert = sudoflow()
            .args([command, "--distinct", "--source"])
            .write_stdin(input.clone())
            .assert()
            .success();
        let (header, rows) = table(&assert.get_output().stdout);
        let lines: Vec<&str> = rows.iter().map(|r| field(&header, r, "line")).collect();
        assert_eq!(lines, ["1", "2", "3", "4"], "{command}");
        for k in [0, 1, 3] {
            assert_eq!(field(&header, &rows[k], "status"), "invalid", "{command}");
            assert!(
                field(&header, &rows[k], "error").contains("duplicate 5 in row"),
                "{command}: {:?}",
                rows[k]
            );
        }
    }
    let out = stdout(
        &["explain", "--distinct", "--source", "--format", "jsonl"],
        &input,
    );
    let lines: Vec<u64> = objects(&out)
        .iter()
        .map(|r| r["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [1, 2, 3, 4]);
}

#[test]
fn one_puzzle_from_the_command_line() {
    for command in ROW_COMMANDS {
        let out = stdout(&[command, "-q", "-p", EASY, "--source"], "");
        let (header, rows) = table(&out);
        assert_eq!(rows.len(), 1, "{command}");
        assert_eq!(field(&header, &rows[0], "source"), "<puzzle>");
        assert_eq!(field(&header, &rows[0], "line"), "1");
        let puzzle = field(&header, &rows[0], "puzzle");
        assert_eq!(puzzle.replace('.', "0"), EASY, "{command}");
    }
    // A pasted grid reads as from a file; an invalid text is an invalid row.
    let pasted = EASY
        .as_bytes()
        .chunks(9)
        .map(|r| {
            r.iter()
                .map(|&b| (b as char).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join(" | ");
    let (_, rows) = table(&stdout(&["solve", "-q", "-p", &pasted], ""));
    assert_eq!(rows[0][2], "unique");
    let (_, rows) = table(&stdout(&["count", "-q", "-p", "12345"], ""));
    assert_eq!(rows[0][2], "invalid");
    assert!(
        rows[0][4].starts_with("<puzzle>:1: wrong length"),
        "{:?}",
        rows[0]
    );
    // -p and an input, or nothing to read, are usage errors.
    sudoflow()
        .args(["solve", "-p", EASY, "a.txt"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot be used with"));
    for text in ["", "  ", "# a comment"] {
        sudoflow().args(["rate", "-p", text]).assert().code(2);
    }
}

#[test]
fn an_unsolvable_puzzle_names_where_propagation_finds_the_contradiction() {
    for (puzzle, why) in [
        (
            no_candidate(),
            "r1c1 has no candidate left after propagation",
        ),
        (no_place(), "7 has no place in row 1"),
    ] {
        let puzzle = puzzle.as_str();
        assert_eq!(puzzle.len(), 81);
        for command in ["solve", "rate", "count"] {
            let (header, rows) = table(&stdout(&[command, "-q", "-p", puzzle], ""));
            assert_eq!(
                field(&header, &rows[0], "status"),
                "unsolvable",
                "{command}"
            );
            assert_eq!(
                field(&header, &rows[0], "error"),
                format!("<puzzle>:1: no solution: {why}"),
                "{command}"
            );
        }
        // From a file, the record's own source:line.
        let (header, rows) = table(&stdout(&["solve", "-q"], &format!("{EASY}\n{puzzle}\n")));
        assert_eq!(
            field(&header, &rows[1], "error"),
            format!("<stdin>:2: no solution: {why}")
        );
        sudoflow()
            .args(["explain", puzzle])
            .assert()
            .code(1)
            .stderr(predicates::str::contains(format!("no solution: {why}")));
    }
    // Clashing givens are still named as clashes.
    let clash = puzzle_of(&[(0, 1), (1, 1)]);
    for command in ["solve", "rate", "count"] {
        let (header, rows) = table(&stdout(&[command, "-q", "-p", &clash], ""));
        assert_eq!(field(&header, &rows[0], "status"), "invalid", "{command}");
        assert!(
            field(&header, &rows[0], "error").starts_with("<puzzle>:1: duplicate 1 in row 1"),
            "{command}: {:?}",
            rows[0]
        );
    }
}

#[test]
fn a_pipe_of_commands_names_the_original_input() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.csv");
    // Line 2 a puzzle, 3 a repeat of it, 4 invalid, 5 clashing givens.
    let clash = format!("55{}", &EASY[2..]);
    std::fs::write(
        &big,
        format!(
            "puzzle\n{EASY}\n{}\nnot a puzzle\n{clash}\n",
            transformed(EASY, 9)
        ),
    )
    .unwrap();
    let big = big.to_str().unwrap();
    let distinct = stdout(&["canon", "-q", "--distinct", "--source", big], "");
    for command in ["rate", "solve", "count", "canon"] {
        let (header, rows) = table(&stdout(
            &[command, "-q", "-", "--source"],
            std::str::from_utf8(&distinct).unwrap(),
        ));
        let at: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| (field(&header, r, "source"), field(&header, r, "line")))
            .collect();
        assert_eq!(at, [(big, "2"), (big, "4"), (big, "5")], "{command}");
        // Errors name big.csv's lines, not <stdin>'s (canon has a form
        // for clashing givens, no error).
        let invalid = if command == "canon" { 1 } else { 2 };
        for (row, line) in rows[1..].iter().zip(["4", "5"]).take(invalid) {
            let error = field(&header, row, "error");
            assert!(
                error.starts_with(&format!("{big}:{line}: ")),
                "{command}: {error}"
            );
        }
    }
    // A row whose source is empty or whose line is no number keeps its own;
    // so does one past i64::MAX, which no file has: found by probing, such
    // a line made the Parquet writer fail and the run lose every row.
    let odd = "puzzle,source,line\nxx,,7\nyy,a.txt,seven\nzz,b.txt,3\n\
               ww,c.txt,9223372036854775808\nvv,d.txt,9223372036854775807\n";
    let (header, rows) = table(&stdout(&["solve", "-q", "--source"], odd));
    let errors: Vec<&str> = rows.iter().map(|r| field(&header, r, "error")).collect();
    assert!(errors[0].starts_with("<stdin>:2: "), "{errors:?}");
    assert!(errors[1].starts_with("<stdin>:3: "), "{errors:?}");
    assert!(errors[2].starts_with("b.txt:3: "), "{errors:?}");
    assert!(errors[3].starts_with("<stdin>:5: "), "{errors:?}");
    assert!(
        errors[4].starts_with("d.txt:9223372036854775807: "),
        "{errors:?}"
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("odd.parquet");
    sudoflow()
        .args(["count", "-q", "--source", "-o"])
        .arg(&out)
        .write_stdin(odd)
        .assert()
        .success();
    let file = std::fs::File::open(&out).unwrap();
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let rows: usize = reader.map(|batch| batch.unwrap().num_rows()).sum();
    assert_eq!(rows, 5);
}

/// The sidecar's last checkpoint's record count, if any.
fn checkpoint_records(out: &Path) -> u64 {
    let sidecar = format!("{}.partial.json", out.display());
    let text = std::fs::read(sidecar).unwrap_or_default();
    serde_json::Deserializer::from_slice(&text)
        .into_iter::<serde_json::Value>()
        .map_while(Result::ok)
        .filter_map(|v| v.get("records")?.as_u64())
        .last()
        .unwrap_or(0)
}

/// `args` reading `input` from a pipe, stopped by SIGINT once a checkpoint
/// counts `first` lines' records (the rest not sent yet).
fn interrupted(args: &[&str], out: &Path, input: &str, first: usize, records: u64) {
    let mut child = std::process::Command::new(bin())
        .env("SUDOFLOW_TEST_FLUSH_MS", "20")
        .args(args)
        .arg("-o")
        .arg(out)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let head: String = input.split_inclusive('\n').take(first).collect();
    child
        .stdin
        .as_mut()
        .unwrap()
        .write_all(head.as_bytes())
        .unwrap();
    child.stdin.as_mut().unwrap().flush().unwrap();
    let mut waited = 0;
    while checkpoint_records(out) < records {
        assert!(waited < 30_000, "no checkpoint of {records} records");
        std::thread::sleep(Duration::from_millis(10));
        waited += 10;
    }
    let ok = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok);
    // stdin stays open until the run has ended: the signal alone must end
    // it (`wait` would close stdin first, and under load the reader could
    // meet that end before the signal's handler ran: a run of 5 lines,
    // exit 0, seen once in CI).
    let stdin = child.stdin.take();
    assert_eq!(child.wait().unwrap().code(), Some(130));
    drop(stdin);
}

#[test]
fn keep_source_and_distinct_runs_resume_and_a_changed_keep_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut input = String::from("id,puzzle,book\n");
    for (k, line) in with_repeats().lines().enumerate() {
        input.push_str(&format!("id{k},{line},b{}\n", k % 2));
    }
    // explain resumes JSON Lines.
    let runs: [(&str, &[&str]); 5] = [
        ("solve", &[]),
        ("count", &[]),
        ("rate", &[]),
        ("canon", &[]),
        ("explain", &["--format", "jsonl"]),
    ];
    for (command, format) in runs {
        let args = [
            &[
                command,
                "-q",
                "-",
                "--keep",
                "id,book",
                "--source",
                "--distinct",
            ][..],
            format,
        ]
        .concat();
        let want = stdout(&args, &input);
        let out = dir.path().join(format!("{command}.csv"));
        // Header and the first four records (two rows of them) kept.
        interrupted(&args, &out, &input, 5, 4);
        let refused = sudoflow()
            .args([
                command,
                "-q",
                "-",
                "--keep",
                "book",
                "--source",
                "--distinct",
            ])
            .args(format)
            .args(["--resume", "-o"])
            .arg(&out)
            .write_stdin(input.clone())
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        let refused = String::from_utf8_lossy(&refused);
        assert!(
            refused.contains("cannot resume") && refused.contains("--keep was id,book, now book"),
            "{command}: {refused}"
        );
        sudoflow()
            .args(&args)
            .args(["--resume", "-o"])
            .arg(&out)
            .write_stdin(input.clone())
            .assert()
            .success();
        assert_eq!(
            String::from_utf8(std::fs::read(&out).unwrap()).unwrap(),
            String::from_utf8(want).unwrap(),
            "{command}"
        );
    }
}

/// The minlex forms of the puzzles in a generate CSV.
fn forms(csv: &Path) -> Vec<String> {
    let (header, rows) = table(&std::fs::read(csv).unwrap());
    rows.iter()
        .map(|r| canonical(&Grid::parse(field(&header, r, "puzzle")).unwrap()).to_line())
        .collect()
}

#[test]
fn generate_exclude_never_emits_a_puzzle_equivalent_to_one_in_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let vol1 = dir.path().join("vol1.csv");
    sudoflow()
        .args(["generate", "-q", "-n", "40", "--seed", "7", "-o"])
        .arg(&vol1)
        .assert()
        .success();
    // The same seed would give vol1's puzzles again: excluded, as well as
    // an equivalent (transformed) copy given as a plain line.
    let (header, rows) = table(&std::fs::read(&vol1).unwrap());
    let copies = dir.path().join("copies.txt");
    let mut text = String::from("# transformed copies of vol1\nnot a puzzle\n");
    for (k, row) in rows.iter().enumerate() {
        text.push_str(&transformed(field(&header, row, "puzzle"), k as u64));
        text.push('\n');
    }
    std::fs::write(&copies, text).unwrap();
    let excluded: std::collections::HashSet<String> = forms(&vol1).into_iter().collect();
    let mut outputs = Vec::new();
    for (threads, distinct) in [("1", false), ("2", false), ("2", true)] {
        let out = dir.path().join(format!("vol2-{threads}-{distinct}.csv"));
        let mut cmd = sudoflow();
        cmd.args([
            "generate",
            "-n",
            "40",
            "--seed",
            "7",
            "-j",
            threads,
            "--exclude",
        ])
        .arg(&copies)
        .arg("-o")
        .arg(&out);
        if distinct {
            cmd.arg("--distinct");
        }
        let err = cmd.assert().success().get_output().stderr.clone();
        let err = String::from_utf8_lossy(&err);
        assert!(
            err.contains("40 classes excluded (--exclude, 1 record not a puzzle skipped)"),
            "{err}"
        );
        let got = forms(&out);
        assert_eq!(got.len(), 40);
        assert!(
            got.iter().all(|f| !excluded.contains(f)),
            "an excluded class was emitted"
        );
        if distinct {
            let set: std::collections::HashSet<&String> = got.iter().collect();
            assert_eq!(set.len(), 40, "--distinct: no two rows equivalent");
        }
        outputs.push(std::fs::read(&out).unwrap());
    }
    assert_eq!(outputs[0], outputs[1], "the same output whatever -j is");
    // A missing file is named before any output.
    let out = dir.path().join("never.csv");
    sudoflow()
        .args(["generate", "-n", "3", "--exclude", "nope.txt", "-o"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--exclude: cannot open input nope.txt",
        ));
    assert!(!out.exists());
}

#[test]
fn the_shared_options_read_the_same_in_every_row_writing_command() {
    let helps: Vec<String> = ROW_COMMANDS
        .iter()
        .map(|c| {
            let out = sudoflow().args([c, "--help"]).output().unwrap();
            String::from_utf8(out.stdout).unwrap()
        })
        .collect();
    for option in [
        "--keep <COL,...>",
        "--source",
        "--distinct",
        "-p, --puzzle <PUZZLE>",
    ] {
        let block = |help: &str| -> String {
            let start = help
                .find(&format!("  {option}\n"))
                .unwrap_or_else(|| panic!("no {option} in {help}"));
            help[start..]
                .lines()
                .enumerate()
                .take_while(|(i, l)| *i == 0 || l.starts_with("          "))
                .map(|(_, l)| l)
                .collect::<Vec<_>>()
                .join("\n")
        };
        let first = block(&helps[0]);
        for (command, help) in ROW_COMMANDS.iter().zip(&helps) {
            assert_eq!(block(help), first, "{command} {option}");
        }
        // explain writes rows too (its -p reads as explain takes it).
        if option != "-p, --puzzle <PUZZLE>" {
            let out = sudoflow().args(["explain", "--help"]).output().unwrap();
            let help = String::from_utf8(out.stdout).unwrap();
            assert_eq!(block(&help), first, "explain {option}");
        }
    }
}
