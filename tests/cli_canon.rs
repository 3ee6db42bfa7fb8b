//! `sudoflow canon` through the binary: classes of transformed copies,
//! `--distinct`, invalid rows, order for any `-j`, exit codes, and the
//! published 17-clue list (49,158 inequivalent puzzles).

use assert_cmd::Command;
use rand::SeedableRng;
use sudoflow::canon::{canonical, group};
use sudoflow::cmd::canon::CANON_HEADER;
use sudoflow::datasets;
use sudoflow::grid::Grid;

const P17: &str =
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn canon() -> Command {
    let mut cmd = Command::cargo_bin("sudoflow").expect("binary built");
    cmd.arg("canon");
    cmd
}

/// Parses `canon`'s CSV (header checked) into rows of fields.
fn rows(out: &[u8]) -> Vec<Vec<String>> {
    let mut rdr = csv::Reader::from_reader(out);
    assert_eq!(rdr.headers().unwrap(), CANON_HEADER.as_slice());
    rdr.records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

/// A random transformation of `line` (digits relabelled, rows, columns
/// and bands moved, maybe transposed).
fn transformed(line: &str, rng: &mut rand_chacha::ChaCha8Rng) -> String {
    group::random(rng)
        .apply(&Grid::parse(line).unwrap())
        .to_line()
}

#[test]
fn transformed_copies_share_the_first_records_class() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
    let t1 = transformed(P17, &mut rng);
    let t2 = transformed(P17, &mut rng);
    let t3 = transformed(INKALA, &mut rng);
    let input = format!("{P17}\n{t1}\n{INKALA}\n# a comment\n{t2}\n12345\n{t3} ED=1.0\n");
    let out = canon().arg("-q").write_stdin(input).assert().success();
    let rows = rows(&out.get_output().stdout);
    assert_eq!(rows.len(), 6);
    let form17 = canonical(&Grid::parse(P17).unwrap()).to_line();
    let form_inkala = canonical(&Grid::parse(INKALA).unwrap()).to_line();
    assert_ne!(form17, form_inkala);
    let expect = [
        (P17.to_string(), &form17, "1"),
        (t1, &form17, "1"),
        (INKALA.to_string(), &form_inkala, "3"),
        (t2, &form17, "1"),
    ];
    for (i, (puzzle, form, class)) in expect.iter().enumerate() {
        let row = &rows[i];
        assert_eq!(row[0], (i + 1).to_string());
        assert_eq!(&row[1], puzzle);
        assert_eq!(&&row[2], form);
        // Both use all nine digits and have no symmetry.
        assert_eq!(row[3], "1");
        assert_eq!(row[4], *class);
        assert_eq!(row[5], "");
    }
    assert_eq!(
        rows[4],
        [
            "5",
            "12345",
            "",
            "",
            "",
            "<stdin>:6: wrong length: expected 81 cells, found 5"
        ]
    );
    assert_eq!(rows[5][2], form_inkala);
    assert_eq!(rows[5][4], "3");
}

#[test]
fn distinct_keeps_first_occurrences_and_invalid_rows() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let t1 = transformed(P17, &mut rng);
    let t2 = transformed(INKALA, &mut rng);
    let input = format!("{t1}\n{INKALA}\n{P17}\nnot a puzzle\n{t2}\n{P17}\n");
    let out = canon()
        .args(["-q", "--distinct"])
        .write_stdin(input)
        .assert()
        .success();
    let rows = rows(&out.get_output().stdout);
    let kept: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r[0].as_str(), r[4].as_str()))
        .collect();
    assert_eq!(kept, [("1", "1"), ("2", "2"), ("4", "")]);
    assert_eq!(rows[0][1], t1);
}

#[test]
fn clashing_givens_have_a_form_and_strict_counts_only_bad_lines() {
    // Two 5s in row 1: not a valid puzzle, but 81 well-formed cells.
    let clash = format!("5....5...{}", ".".repeat(72));
    let out = canon()
        .args(["-q", "--strict"])
        .write_stdin(format!("{clash}\n"))
        .assert()
        .success();
    let rows = rows(&out.get_output().stdout);
    // In one row, in two stacks: the last row's two stacks end in them.
    assert_eq!(rows[0][2], format!("{}001001", "0".repeat(75)));
    assert_eq!(rows[0][5], "");
    // A bad line makes --strict exit 1, after the rows are written.
    let out = canon()
        .args(["-q", "--strict"])
        .write_stdin(format!("{clash}\nxyz\n"))
        .assert()
        .code(1);
    assert_eq!(rows_len(&out.get_output().stdout), 2);
    canon()
        .arg("no-such-file.txt")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no-such-file.txt"));
}

fn rows_len(out: &[u8]) -> usize {
    rows(out).len()
}

#[test]
fn output_is_identical_whatever_the_thread_count() {
    // 400 puzzles of the generated corpus and a transformed copy of each,
    // interleaved: 400 classes, each copy pointing at its original.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/generated-10k.csv");
    let mut csv = csv::Reader::from_path(&path).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    let mut input = String::new();
    for record in csv.records().take(400) {
        let p = record.unwrap()[1].to_string();
        input += &format!("{p}\n{}\n", transformed(&p, &mut rng));
    }
    let one = canon()
        .args(["-q", "-j", "1", "--batch-size", "7"])
        .write_stdin(input.clone())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let two = canon()
        .args(["-q", "-j", "2", "--batch-size", "7"])
        .write_stdin(input)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(one, two);
    let rows = rows(&one);
    assert_eq!(rows.len(), 800);
    for (k, pair) in rows.chunks(2).enumerate() {
        assert_eq!(pair[0][4], (2 * k + 1).to_string(), "{pair:?}");
        assert_eq!(pair[1][4], (2 * k + 1).to_string(), "{pair:?}");
        assert_eq!(pair[0][2], pair[1][2]);
    }
}

/// The published list of 17-clue puzzles is a list of inequivalent
/// puzzles: 49,158 classes. Each form is its own form (canonicalising
/// the `canonical` column changes nothing).
#[test]
fn the_17_clue_list_has_49158_classes() {
    let path = datasets::public_path(datasets::SEVENTEEN_CLUE).unwrap();
    let out = canon().arg("-q").arg(&path).assert().success();
    let rows = rows(&out.get_output().stdout);
    assert_eq!(rows.len(), 49_158);
    assert!(
        rows.iter().all(|r| r[0] == r[4]),
        "every record its own class"
    );
    let forms: String = rows.iter().map(|r| format!("{}\n", r[2])).collect();
    let again = canon().arg("-q").write_stdin(forms).assert().success();
    let again = self::rows(&again.get_output().stdout);
    for (a, b) in rows.iter().zip(&again) {
        assert_eq!(a[2], b[2], "record {}", a[0]);
    }
}
