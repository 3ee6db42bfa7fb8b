//! Inputs people have (issue 13): a header naming the puzzle column anywhere,
//! quoted CSV fields, UTF-16 text, a directory. Each runs the binary as a
//! user would.

use assert_cmd::Command;

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn sudoflow() -> Command {
    Command::cargo_bin("sudoflow").unwrap()
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
            let out = sudoflow()
                .arg(command)
                .write_stdin(input.clone())
                .assert()
                .success()
                .get_output()
                .stdout
                .clone();
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
