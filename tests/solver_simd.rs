//! The solver's instruction-set paths (`sudoflow::solver::simd`, issue 15):
//! the AVX2 copy of the search, propagation and branching, the AVX2 copy
//! with `pext`, and that copy compiled with AVX-512, must search exactly as
//! the baseline SSE2 copy does. Every
//! puzzle of the four public sets (17-clue and serg cut to their first
//! 5,000) is solved under each, at both pruning levels, counting to 2: the
//! same solution, count, guesses and backtracks, and the solution obeys the
//! rules. On a CPU without AVX2 (or without a fast `pext`, or AVX-512) the
//! test says so and checks the paths it can run.
//!
//! One test function: the path is process-wide, so the runs must not
//! overlap with another test's.

use sudoflow::datasets;
use sudoflow::grid::Grid;
use sudoflow::solver::simd::{self, Simd};
use sudoflow::solver::{Outcome, Prune, SolveOptions, Solver};

fn outcomes(puzzles: &[Grid], prune: Prune) -> Vec<Outcome> {
    let mut solver = Solver::new(SolveOptions {
        prune,
        limit: 2,
        ..SolveOptions::default()
    });
    puzzles.iter().map(|p| solver.solve(p)).collect()
}

#[test]
fn every_path_searches_alike_on_the_public_sets() {
    let mut wide = Vec::new();
    if simd::avx2_available() {
        wide.push(Simd::Avx2);
    } else {
        eprintln!("this CPU has no AVX2 path: checking the baseline alone");
    }
    if simd::fast_pext_available() {
        wide.push(Simd::Avx2Pext);
    } else {
        eprintln!("this CPU has no fast PEXT: the avx2+pext path is not checked");
    }
    if simd::avx512_available() {
        wide.push(Simd::Avx512);
    } else {
        eprintln!("this CPU has no AVX-512 (F, VL, BW, DQ, CD): the avx512 path is not checked");
    }
    for name in [
        datasets::SEVENTEEN_CLUE,
        datasets::TOP1465,
        datasets::HARDEST_1106,
        datasets::SERG,
    ] {
        let Some(mut puzzles) = datasets::load_public_or_skip(name) else {
            continue;
        };
        puzzles.truncate(5_000);
        for prune in [Prune::Basic, Prune::Matching] {
            simd::force(Simd::Sse2).unwrap();
            assert_eq!(simd::current(), Simd::Sse2);
            let baseline = outcomes(&puzzles, prune);
            for (p, out) in puzzles.iter().zip(&baseline) {
                let solution = out.solution.expect("every public puzzle has a solution");
                assert!(solution.is_solution_of(p), "{name}: {}", p.to_line());
            }
            for &path in &wide {
                simd::force(path).unwrap();
                assert_eq!(simd::current(), path);
                let other = outcomes(&puzzles, prune);
                for (k, (a, b)) in baseline.iter().zip(&other).enumerate() {
                    assert_eq!(a, b, "{name} #{} {prune:?} {}", k + 1, path.name());
                }
            }
        }
    }
}
