//! Replays the fuzz corpora (`fuzz/corpus/<target>/`) and the crash inputs
//! the fuzzer found (`fuzz/regressions/<target>/`) through the same checks
//! the fuzz targets run (`sudoflow::checks`): CI checks every input the
//! fuzzer kept, in seconds, without cargo-fuzz or a nightly toolchain.
//! `make fuzz` grows the corpora.

use std::path::Path;
use sudoflow::checks;

/// Runs `check` on every file of the target's corpus and regressions;
/// returns how many there were. `SUDOFLOW_FUZZ_DIR` replays another
/// directory laid out as `fuzz/` (e.g. a copy of a corpus being fuzzed).
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let root = std::env::var_os("SUDOFLOW_FUZZ_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz"),
        std::path::PathBuf::from,
    );
    let mut failed = Vec::new();
    let mut n = 0;
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        let mut paths: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for path in paths {
            let data = std::fs::read(&path).unwrap();
            if std::panic::catch_unwind(|| check(&data)).is_err() {
                failed.push(path.display().to_string());
            }
            n += 1;
        }
    }
    assert!(failed.is_empty(), "failing their check: {failed:#?}");
    n
}

#[test]
fn reader_corpus() {
    assert!(replay("reader", checks::check_reader) >= 20);
}

#[test]
fn grid_parse_corpus() {
    assert!(replay("grid_parse", checks::check_grid_parse) >= 20);
}

#[test]
fn solver_corpus() {
    assert!(replay("solver", checks::check_solver) >= 20);
}

#[test]
fn count_corpus() {
    assert!(replay("count", checks::check_count) >= 20);
}

/// The checks catch what they are meant to: a wrong answer, a clash
/// reported solvable, a lost record.
#[test]
fn the_checks_can_fail() {
    use sudoflow::grid::Grid;
    let p17 = Grid::parse(
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
    )
    .unwrap();
    let solution = sudoflow::solver::Solver::new(Default::default())
        .solve(&p17)
        .solution
        .unwrap();
    assert!(checks::obeys_rules(&solution, &p17));
    let mut wrong = *solution.cells();
    wrong.swap(0, 1);
    assert!(!checks::obeys_rules(
        &Grid::from_cells(wrong).unwrap(),
        &p17
    ));
    // A solution that changes a given.
    let mut other = p17;
    other.set(17, 0);
    other.set(0, solution.get(0) % 9 + 1);
    assert!(!checks::obeys_rules(&solution, &other));
    assert_eq!(checks::reference_count(&p17, 2, 1_000_000), Some(1));
    let clash = checks::grid_from_bytes(&[1, 1]);
    assert!(checks::givens_clash(&clash));
    assert_eq!(checks::reference_count(&clash, 2, 10), Some(0));
    assert_eq!(checks::reference_count(&Grid::EMPTY, 5, 1_000), Some(5));
    assert_eq!(checks::reference_count(&Grid::EMPTY, u64::MAX, 1_000), None);
}

/// Texts made of the shapes the reader tells apart (pasted rows with spaces
/// and `|`, box rules, 81 cells between blanks, headers, quoted CSV fields
/// with commas, comments, junk; CSV records cut short and quoted fields over
/// several lines, after a header or not), in any order and cut at any read size, go
/// through the reader's check: its records equal the documented rules'
/// (`checks::check_reader`, the model the fuzz target holds it to). Random
/// bytes seldom make a 9-cell row or a header; these texts make them often.
mod shaped_texts {
    use proptest::prelude::*;
    use sudoflow::checks;

    fn cells(n: usize) -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                8 => proptest::char::range('1', '9'),
                4 => Just('.'),
                1 => Just('0'),
                1 => Just('-'),
                1 => Just('*'),
                1 => Just('x'),
                1 => Just('X'),
                1 => Just('_'),
            ],
            n,
        )
        .prop_map(|c| c.into_iter().collect())
    }

    /// `text` with a random run of spaces, tabs or `|` after some cells.
    fn spaced(text: String, gaps: Vec<u8>) -> String {
        let mut out = String::new();
        for (i, c) in text.chars().enumerate() {
            out.push(c);
            match gaps.get(i).copied().unwrap_or(0) % 6 {
                0 | 1 => {}
                2 => out.push(' '),
                3 => out.push_str(" | "),
                4 => out.push('\t'),
                _ => out.push('|'),
            }
        }
        out
    }

    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => (cells(9), proptest::collection::vec(any::<u8>(), 9)).prop_map(|(c, g)| spaced(c, g)),
            2 => (cells(81), proptest::collection::vec(any::<u8>(), 81)).prop_map(|(c, g)| spaced(c, g)),
            2 => cells(81),
            1 => (1usize..12).prop_flat_map(cells),
            1 => prop_oneof![
                Just("------+-------+------".to_string()),
                Just("+-------+-------+-------+".to_string()),
                Just("---------".to_string()),
                Just("----------".to_string()),
                Just("=== | ===".to_string()),
            ],
            1 => prop_oneof![
                Just("id,puzzle,solution".to_string()),
                Just("\"Smith, J.\",quizzes".to_string()),
                Just("\"a,\"\"b\",x".to_string()),
                Just("# comment".to_string()),
                Just(String::new()),
                Just("   ".to_string()),
            ],
            1 => (cells(81), "[a-c ,\"]{0,6}").prop_map(|(c, pre)| format!("{pre},{c},x")),
            // CSV records cut short, and quoted fields over several lines
            // (opened, closed, with text after the closing quote).
            1 => prop_oneof![
                Just("205".to_string()),
                Just("202,\"C, D\"".to_string()),
                Just("\"multi".to_string()),
                Just("line\", x".to_string()),
                Just("line\"x,".to_string()),
                Just("9,\"\"\"q\"\" ,".to_string()),
            ],
            1 => (cells(81), "[a-c ,\"]{0,3}").prop_map(|(c, note)| format!("7,{c},\"{note}")),
            1 => "[0-9a-z .|,;:\"#+=-]{0,20}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn shaped_texts_follow_the_rules(
            header in 0..4usize,
            lines in proptest::collection::vec(line(), 0..40),
            crlf in any::<bool>(),
            ended in any::<bool>(),
            gzip in any::<bool>(),
            cap in 0u8..128,
            splits in proptest::collection::vec(1u8..=255, 0..6),
        ) {
            let end = if crlf { "\r\n" } else { "\n" };
            // Half the texts are CSV: a header names the puzzle's column.
            let header = ["", "id,puzzle,notes", "\"quizzes\",x", "a,\"b, c\",Quiz"][header];
            let mut text = if header.is_empty() {
                String::new()
            } else {
                format!("{header}{end}")
            };
            text.push_str(&lines.join(end));
            if ended {
                text.push_str(end);
            }
            // flags: bit 0 gzip, bits 1-7 the line cap less 1; 127: no line
            // shaped here meets a cap of 128 but long ones meet smaller caps.
            let cap = if cap % 4 == 0 { cap } else { 127 };
            let mut data = vec![u8::from(gzip) | (cap << 1), splits.len() as u8];
            data.extend(&splits);
            data.extend(text.as_bytes());
            checks::check_reader(&data);
        }
    }
}
