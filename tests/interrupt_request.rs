//! A library user's stop (the Python package's Ctrl-C, issue 31 defect 7):
//! `interrupt::request` stops a search under way, however long its record
//! would run, without the command line's signal handlers, and
//! `interrupt::clear` lets later work run to its end.
//!
//! Its own test binary: the stop flag is the process's, and would cut the
//! searches of other tests running beside it. The guard only catches a
//! search that ignored the stop; nothing here is timed.

use std::time::Duration;
use sudoflow::counting::solutions::{count_record, CountOptions, CountResult};
use sudoflow::grid::Grid;
use sudoflow::interrupt;
use sudoflow::solver::Solver;

/// Counts `puzzle`'s solutions with no cap and no budget on a thread of
/// its own; the result, or a failure once `guard` has passed.
fn count_within(puzzle: &str, guard: Duration, stop_after: Option<Duration>) -> CountResult {
    let grid = Grid::parse(puzzle).expect("a puzzle");
    let (tx, rx) = crossbeam_channel::bounded(1);
    std::thread::spawn(move || {
        let opts = CountOptions::default();
        let mut solver = Solver::new(opts.solve_options());
        let _ = tx.send(count_record(&mut solver, &opts, &grid));
    });
    if let Some(after) = stop_after {
        std::thread::sleep(after);
        interrupt::request(2);
    }
    rx.recv_timeout(guard)
        .expect("the count ignored the stop")
        .expect("givens that do not clash")
}

#[test]
fn a_requested_stop_ends_a_search_that_would_run_for_ever_and_clear_lets_work_run() {
    assert_eq!(interrupt::requested(), None);
    // The empty grid has 6.67e21 solutions: only the stop ends its count.
    let cut = count_within(
        &".".repeat(81),
        Duration::from_secs(60),
        Some(Duration::from_millis(200)),
    );
    assert!(
        matches!(cut, CountResult::Timeout(n) if n > 0),
        "cut short with the solutions found so far: {cut:?}"
    );
    assert_eq!(interrupt::requested(), Some(2));
    // Still requested: a new search stops at its first look.
    assert!(matches!(
        count_within(&".".repeat(81), Duration::from_secs(60), None),
        CountResult::Timeout(_)
    ));
    interrupt::clear();
    let serg = "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
    assert_eq!(interrupt::requested(), None);
    assert_eq!(
        count_within(serg, Duration::from_secs(60), None),
        CountResult::Exact(872)
    );
}
