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
