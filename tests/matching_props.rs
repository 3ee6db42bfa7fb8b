//! The forbidden-edge filter against its definition (issue 3), and the pure
//! matching propagation against solutions found by the solver.
//!
//! The reference below is the seed's brute force written plainly (SEEDS.md
//! section 1): an edge (cell, d) is kept iff deleting the cell and the digit
//! leaves a graph with a perfect matching, tested by recursive search.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use rand::{seq::SliceRandom, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cell::Cell;
use sudoflow::datasets;
use sudoflow::grid::{Grid, UNITS};
use sudoflow::solver::matching::{
    candidates_from_givens, filter_unit, propagate_matching, Contradiction,
};
use sudoflow::solver::{count_solutions, SolveOptions, Solver};

/// True when the cells in `cells` (bit i = cell i of the unit) can each take a
/// different digit from `digits` (bit d-1 = digit d) among their candidates,
/// using every cell once: plain recursive search over the cells in order.
fn has_perfect_matching(cands: &[u16; 9], cells: u16, digits: u16) -> bool {
    if cells == 0 {
        return true;
    }
    let cell = cells.trailing_zeros() as usize;
    let rest = cells & !(1 << cell);
    (0..9).any(|d| {
        let bit = 1u16 << d;
        cands[cell] & digits & bit != 0 && has_perfect_matching(cands, rest, digits & !bit)
    })
}

/// The definition: `None` iff no perfect matching; else keep (i, d) iff
/// (i, d) is an edge and the graph without cell i and digit d has a perfect
/// matching.
fn reference_filter(cands: &[u16; 9]) -> Option<[u16; 9]> {
    const ALL: u16 = 0o777;
    if !has_perfect_matching(cands, ALL, ALL) {
        return None;
    }
    let mut out = [0u16; 9];
    for (i, o) in out.iter_mut().enumerate() {
        for d in 0..9 {
            let bit = 1u16 << d;
            if cands[i] & bit != 0 && has_perfect_matching(cands, ALL & !(1 << i), ALL & !bit) {
                *o |= bit;
            }
        }
    }
    Some(out)
}

/// Random unit graphs of varied density: each cell's mask is an AND (sparse)
/// or OR (dense) of 1 to 3 random masks, optionally on top of a planted
/// perfect matching (a random permutation), so that many graphs have a perfect
/// matching and many do not. Mode 6 mimics a stalled unit: a random half of
/// the cells are singles of the planted matching, the others keep their noise.
fn unit_graphs() -> impl Strategy<Value = [u16; 9]> {
    let masks = proptest::array::uniform9(0u16..0o1000);
    let perm = Just((0u16..9).collect::<Vec<u16>>()).prop_shuffle();
    (
        masks.clone(),
        masks.clone(),
        masks,
        0u8..7,
        any::<bool>(),
        perm,
    )
        .prop_map(|(a, b, c, mode, planted, perm)| {
            std::array::from_fn(|i| {
                let noise = match mode {
                    0 => a[i] & b[i] & c[i],               // density 1/8
                    1 => a[i] & b[i],                      // 1/4
                    2 => a[i],                             // 1/2
                    3 => a[i] | b[i],                      // 3/4
                    4 => a[i] | b[i] | c[i],               // 7/8
                    5 => a[i] & b[i] & c[i] & (a[i] >> 3), // ~1/16
                    _ if c[i] & 1 == 1 => 0,               // a single
                    _ => a[i] & b[i],
                };
                noise | if planted { 1 << perm[i] } else { 0 }
            })
        })
}

#[test]
fn filter_unit_keeps_exactly_the_edges_in_some_perfect_matching() {
    let config = Config {
        cases: 100_000,
        failure_persistence: None,
        ..Config::default()
    };
    let (with_matching, without, pruned) = (Cell::new(0u32), Cell::new(0u32), Cell::new(0u32));
    let mut runner = TestRunner::new(config);
    let result = runner.run(&unit_graphs(), |cands| {
        let got = filter_unit(cands);
        let want = reference_filter(&cands);
        prop_assert_eq!(got, want, "unit {:?}", cands.map(|c| format!("{c:03o}")));
        match got {
            Some(out) => {
                with_matching.set(with_matching.get() + 1);
                if out != cands {
                    pruned.set(pruned.get() + 1);
                }
                // Idempotent: the filtered graph has the same perfect matchings.
                prop_assert_eq!(filter_unit(out), Some(out));
            }
            None => without.set(without.get() + 1),
        }
        Ok::<(), TestCaseError>(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    // The generator really covers both outcomes, and pruning is exercised.
    let (w, wo, p) = (with_matching.get(), without.get(), pruned.get());
    eprintln!("with perfect matching {w}, without {wo}, pruned {p}");
    assert!(w + wo >= 100_000);
    assert!(w >= 30_000 && wo >= 20_000 && p >= 20_000, "{w} {wo} {p}");
}

/// Inkala's puzzle (SEEDS.md section 2) and its unique solution.
const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const INKALA_SOLUTION: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

/// Checks the fixed point of propagate_matching on `puzzle` against `solution`
/// (a solution of the puzzle): no digit of the solution is removed; every unit
/// is a fixed point of filter_unit; when solved, the grid is `solution`.
/// Returns whether the pure method solved it.
fn check_propagation(puzzle: &Grid, solution: &Grid) -> bool {
    let mut cands = candidates_from_givens(puzzle);
    let result = propagate_matching(&mut cands);
    assert!(result.is_ok(), "contradiction on {puzzle}");
    for (cell, &c) in cands.iter().enumerate() {
        let bit = 1u16 << (solution.get(cell) - 1);
        assert_ne!(
            c & bit,
            0,
            "{puzzle}: r{}c{} lost its solution digit",
            cell / 9 + 1,
            cell % 9 + 1
        );
    }
    for unit in &UNITS {
        let masks = unit.map(|c| cands[c as usize]);
        assert_eq!(
            filter_unit(masks),
            Some(masks),
            "{puzzle}: not a fixed point"
        );
    }
    let solved = result == Ok(true);
    assert_eq!(solved, cands.iter().all(|c| c.count_ones() == 1));
    if solved {
        let grid = Grid::from_cells(cands.map(|c| c.trailing_zeros() as u8 + 1)).unwrap();
        assert!(
            grid.is_solution_of(puzzle),
            "{puzzle}: {grid} breaks the rules"
        );
        assert_eq!(grid, *solution);
    }
    solved
}

#[test]
fn propagation_keeps_inkala_solution() {
    let puzzle = Grid::parse(INKALA).unwrap();
    let solution = Grid::parse(INKALA_SOLUTION).unwrap();
    assert!(solution.is_solution_of(&puzzle));
    // The seed's pure method does not finish this 21-clue puzzle.
    assert!(!check_propagation(&puzzle, &solution));
}

#[test]
fn propagation_keeps_solutions_of_public_puzzles() {
    if datasets::public_dir().is_none() && datasets::skip_missing("public datasets not found") {
        return;
    }
    let mut solver = Solver::new(SolveOptions::default());
    for name in datasets::PUBLIC {
        let puzzles = datasets::load_public(name).unwrap();
        for puzzle in puzzles.iter().step_by(puzzles.len() / 25 + 1) {
            let outcome = solver.solve(puzzle);
            let solution = outcome.solution.expect("public puzzles have solutions");
            assert!(solution.is_solution_of(puzzle));
            check_propagation(puzzle, &solution);
        }
    }
}

/// A puzzle with `givens` givens and one solution, `solution`: blanks cells of
/// `solution` in random order, skipping any blank that would allow a second
/// solution.
fn unique_puzzle(solution: &Grid, givens: usize, rng: &mut ChaCha8Rng) -> Grid {
    let mut cells: Vec<usize> = (0..81).collect();
    cells.shuffle(rng);
    let mut puzzle = *solution;
    let mut left = 81;
    for &cell in &cells {
        if left == givens {
            break;
        }
        puzzle.set(cell, 0);
        if count_solutions(&puzzle, 2) == 1 {
            left -= 1;
        } else {
            puzzle.set(cell, solution.get(cell));
        }
    }
    assert_eq!(puzzle.clues(), givens);
    puzzle
}

#[test]
fn propagation_solves_puzzles_with_many_givens() {
    let solution = Grid::parse(INKALA_SOLUTION).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut solved = 0;
    for _ in 0..40 {
        let puzzle = unique_puzzle(&solution, 35, &mut rng);
        solved += check_propagation(&puzzle, &solution) as u32;
    }
    eprintln!("35-given unique puzzles solved by pure matching: {solved}/40");
    // Pure matching is incomplete, so not every unique puzzle falls, but with
    // 35 givens nearly all do (39 of these 40 at the time of writing): a
    // filter that missed Hall sets would fall far below this.
    assert!(solved >= 36, "{solved}/40");
}

#[test]
fn clashing_givens_are_a_contradiction() {
    // Two 5s in row 1.
    let mut puzzle = Grid::EMPTY;
    puzzle.set(0, 5);
    puzzle.set(8, 5);
    let mut cands = candidates_from_givens(&puzzle);
    assert_eq!(propagate_matching(&mut cands), Err(Contradiction));
}

#[test]
fn a_complete_grid_is_solved_at_once() {
    let solution = Grid::parse(INKALA_SOLUTION).unwrap();
    let mut cands = candidates_from_givens(&solution);
    assert_eq!(propagate_matching(&mut cands), Ok(true));
}
