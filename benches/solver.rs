//! Criterion benchmarks of the solver alone (issue 2, "Speed"): for each
//! public set, the throughput of solving every puzzle of the set (count up to
//! 2, keep the first solution, one thread) with sudoflow at each pruning level
//! and with the `sudoku` crate 0.8 (a peer, dev-dependency only) in the same
//! run on the same puzzles.
//!
//! ```text
//! cargo bench --bench solver                 # all four sets, ~2-3 minutes
//! cargo bench --bench solver -- hardest      # one group
//! ```
//! Throughput is reported in elements (puzzles) per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::time::Duration;
use sudoflow::datasets;
use sudoflow::grid::Grid;
use sudoflow::solver::{Prune, SolveOptions, Solver};

fn sudoflow_all(solver: &mut Solver, puzzles: &[Grid]) -> u64 {
    puzzles.iter().map(|p| solver.solve(p).solutions).sum()
}

fn sudoku_crate_all(puzzles: &[[u8; 81]]) -> usize {
    let mut buf = [[0u8; 81]; 2];
    puzzles
        .iter()
        .map(|p| {
            let sudoku = sudoku::Sudoku::from_bytes(*p).expect("valid cells");
            sudoku.solutions_up_to_buffer(&mut buf, 2)
        })
        .sum()
}

fn bench_sets(c: &mut Criterion) {
    for name in datasets::PUBLIC {
        let puzzles = match datasets::load_public(name) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("skipping {name}: {e}");
                continue;
            }
        };
        let bytes: Vec<[u8; 81]> = puzzles.iter().map(|p| *p.cells()).collect();
        let mut group = c.benchmark_group(name.trim_end_matches(".txt"));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(4))
            .throughput(Throughput::Elements(puzzles.len() as u64));
        for prune in [Prune::Basic, Prune::Matching] {
            let mut solver = Solver::new(SolveOptions {
                prune,
                ..SolveOptions::default()
            });
            let id = format!("sudoflow_{prune:?}").to_lowercase();
            group.bench_function(id, |b| b.iter(|| sudoflow_all(&mut solver, &puzzles)));
        }
        group.bench_function("sudoku_crate_0.8", |b| b.iter(|| sudoku_crate_all(&bytes)));
        group.finish();
    }
}

criterion_group!(benches, bench_sets);
criterion_main!(benches);
