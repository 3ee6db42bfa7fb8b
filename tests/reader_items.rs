//! `reader::item_record`, the reader of one list item (the Python package's
//! input): an item is read as the same text on a line of a file is, and
//! every item is exactly one record.

use proptest::prelude::*;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use sudoflow::pipeline::reader::{for_each_record, item_record};
use sudoflow::pipeline::Record;

const P: &str = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

/// The records a file of `lines` gives (its first line a puzzle, so that no
/// later line is taken for a header), that first one left out.
fn file_records(lines: &[&str]) -> (PathBuf, Vec<Record>) {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(file, "{P}").unwrap();
    for line in lines {
        writeln!(file, "{line}").unwrap();
    }
    let path = file.into_temp_path().keep().unwrap();
    let mut out = Vec::new();
    for_each_record(std::slice::from_ref(&path), |r| {
        out.push(r);
        ControlFlow::Continue(())
    })
    .unwrap();
    std::fs::remove_file(&path).unwrap();
    out.remove(0);
    (path, out)
}

/// A pencilmark line of `P`: givens alone, blanks open.
fn pencilmarks() -> String {
    P.chars()
        .map(|c| match c.to_digit(10) {
            Some(d) => {
                let mut cell = [b'.'; 9];
                cell[d as usize - 1] = c as u8;
                String::from_utf8(cell.to_vec()).unwrap()
            }
            None => "123456789".to_string(),
        })
        .collect()
}

/// What the reader of a file makes of line 2, `text`, is what the item
/// reader makes of item 2 holding it (named by the same source), when the
/// file gives that line one record.
fn same_as_a_line(text: &str) {
    let (path, records) = file_records(&[text]);
    let source: Arc<str> = Arc::from(path.display().to_string());
    let item = item_record(2, &source, text.as_bytes());
    assert_eq!(item.index, 2);
    assert_eq!(item.line, 2);
    if let [record] = &records[..] {
        assert_eq!(&item, record, "{text:?}");
    } else {
        assert!(records.is_empty(), "{text:?}: {records:?}");
        let error = item.grid.unwrap_err();
        assert!(
            error.starts_with(&format!("{source}:2: no puzzle")),
            "{text:?}: {error}"
        );
    }
}

#[test]
fn what_a_line_of_a_file_may_be_an_item_is() {
    let pm = pencilmarks();
    let pasted: String = P
        .as_bytes()
        .chunks(9)
        .map(|row| {
            row.chunks(3)
                .map(|b| {
                    b.iter()
                        .map(|&c| (c as char).to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect::<Vec<_>>()
                .join(" | ")
        })
        .collect::<Vec<_>>()
        .join(" ");
    for text in [
        P,
        &format!("{P} ED=7.1/1.2/1.2"),
        &format!("{P},x"),
        &format!("{P}:1:"),
        &format!("\"{P}\",solution"),
        &format!("  {P}  "),
        &P.replace('.', "0"),
        &pm,
        &pasted,
        "1 2 3 | 4 5 6 | 7 8 9",
        "------+-------+------",
        "",
        "# a comment",
        "1234",
        &"1".repeat(80),
        &format!("y{}", &P[1..]),
        &"x".repeat(70_000),
        &format!("{}x", &pm[..728]),
        "11..............................................................................",
    ] {
        same_as_a_line(text);
    }
}

#[test]
fn an_item_is_one_record_whatever_it_holds() {
    let source: Arc<str> = Arc::from("<input>");
    let ok = item_record(5, &source, format!("{P} ED=7.1/1.2/1.2").as_bytes());
    assert_eq!(ok.grid.unwrap().to_line(), P);
    let pm = item_record(1, &source, pencilmarks().as_bytes());
    assert!(pm.pencilmarks.is_some());
    for (text, error) in [
        ("", "<input>:3: no puzzle (an empty item)"),
        ("   ", "<input>:3: no puzzle (an empty item)"),
        ("# note", "<input>:3: no puzzle (a # comment)"),
        (
            "+-------+-------+-------+",
            "<input>:3: no puzzle (a box rule)",
        ),
        (
            &format!("{P}\n{P}"),
            "<input>:3: 2 lines in one item: an item holds one puzzle, on one line",
        ),
        (
            "1 2 3 | 4 5 6 | 7 8 9",
            "<input>:3: looks like one row of a 9-line grid (line 3); a grid written on lines \
             needs 9 rows of 9 cells",
        ),
        (
            &"1".repeat(80),
            "<input>:3: wrong length: expected 81 cells, found 80",
        ),
    ] {
        let r = item_record(3, &source, text.as_bytes());
        assert_eq!((r.index, r.line), (3, 3));
        assert_eq!(r.grid.unwrap_err(), error, "{text:?}");
    }
    // A trailing line end, as a file's lines keep it, is no second line.
    let r = item_record(1, &source, format!("{P}\r\n").as_bytes());
    assert!(r.grid.is_ok());
}

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(P.to_string()),
        Just(P[..40].to_string()),
        Just(pencilmarks()),
        "[1-9.0_x*-]{1,12}",
        "[ ,;:|\t\"#+=-]{1,3}",
        "[a-zA-Z]{1,5}",
        Just("ED=7.1/1.2/1.2".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]
    /// Any one-line text: the item reads as the line.
    #[test]
    fn any_line_reads_alike(pieces in prop::collection::vec(piece(), 1..5)) {
        same_as_a_line(&pieces.concat());
    }
}
