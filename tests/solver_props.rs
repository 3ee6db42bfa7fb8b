//! Property tests of the solver against a plain reference solver written
//! here (issue 2, "Tests"): counts agree on random puzzles with 0, 1 and 2+
//! solutions, every reported solution is a valid grid keeping the givens,
//! and relabelling digits, transposing and swapping bands leave counts
//! unchanged.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudoflow::grid::Grid;
use sudoflow::solver::{Prune, SolveOptions, Solver};

/// Plain reference: backtracking over cells, each time on an empty cell with
/// the fewest digits not seen among its peers; counts solutions up to `cap`.
fn reference_count(puzzle: &Grid, cap: u64) -> (u64, Option<Grid>) {
    fn allowed(cells: &[u8; 81], i: usize) -> Vec<u8> {
        let (r, c) = (i / 9, i % 9);
        (1..=9u8)
            .filter(|&v| {
                (0..9).all(|k| {
                    let br = 3 * (r / 3) + k / 3;
                    let bc = 3 * (c / 3) + k % 3;
                    cells[r * 9 + k] != v && cells[k * 9 + c] != v && cells[br * 9 + bc] != v
                })
            })
            .collect()
    }
    fn go(cells: &mut [u8; 81], cap: u64, count: &mut u64, first: &mut Option<Grid>) {
        let mut best: Option<(usize, Vec<u8>)> = None;
        for i in 0..81 {
            if cells[i] == 0 {
                let a = allowed(cells, i);
                if best.as_ref().is_none_or(|(_, b)| a.len() < b.len()) {
                    best = Some((i, a));
                }
            }
        }
        let Some((i, digits)) = best else {
            *count += 1;
            if first.is_none() {
                *first = Grid::from_cells(*cells);
            }
            return;
        };
        for v in digits {
            cells[i] = v;
            go(cells, cap, count, first);
            cells[i] = 0;
            if *count >= cap {
                return;
            }
        }
    }
    let mut cells = *puzzle.cells();
    // Givens must agree with each other first.
    for i in 0..81 {
        let v = cells[i];
        if v != 0 {
            cells[i] = 0;
            let ok = allowed(&cells, i).contains(&v);
            cells[i] = v;
            if !ok {
                return (0, None);
            }
        }
    }
    let (mut count, mut first) = (0, None);
    go(&mut cells, cap, &mut count, &mut first);
    (count, first)
}

/// Rows, columns and boxes each hold 1..=9.
fn is_valid_solution(g: &Grid) -> bool {
    g.is_complete()
        && sudoflow::grid::UNITS.iter().all(|unit| {
            let seen = unit.iter().fold(0u16, |m, &c| m | 1 << g.get(c as usize));
            seen == 0b11_1111_1110
        })
}

/// A random solved grid from the randomised solver, checked plainly.
fn random_grid(rng: &mut ChaCha8Rng) -> Grid {
    let mut solver = Solver::new(SolveOptions {
        limit: 1,
        ..SolveOptions::default()
    });
    let out = solver.solve_random(&Grid::EMPTY, rng);
    let grid = out.solution.expect("the empty grid has solutions");
    assert!(is_valid_solution(&grid));
    grid
}

/// A puzzle from a random grid: keep `keep` random cells; when `tweak`,
/// change one given to another digit (often no solution, sometimes a clash).
fn random_puzzle(seed: u64, keep: usize, tweak: bool) -> Grid {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let grid = random_grid(&mut rng);
    let mut order: Vec<usize> = (0..81).collect();
    for i in (1..81).rev() {
        order.swap(i, rng.gen_range(0..=i));
    }
    let mut puzzle = Grid::EMPTY;
    for &c in &order[..keep] {
        puzzle.set(c, grid.get(c));
    }
    if tweak {
        let c = order[rng.gen_range(0..keep)];
        let v = (puzzle.get(c) + rng.gen_range(1..9u8) - 1) % 9 + 1;
        puzzle.set(c, v);
    }
    puzzle
}

fn solve(puzzle: &Grid, prune: Prune, limit: u64) -> sudoflow::solver::Outcome {
    Solver::new(SolveOptions {
        limit,
        prune,
        ..SolveOptions::default()
    })
    .solve(puzzle)
}

fn map_cells(puzzle: &Grid, f: impl Fn(usize, u8) -> (usize, u8)) -> Grid {
    let mut out = Grid::EMPTY;
    for i in 0..81 {
        let (j, v) = f(i, puzzle.get(i));
        out.set(j, v);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn counts_agree_with_reference(seed in any::<u64>(), keep in 22usize..=40, tweak in prop::bool::weighted(0.3)) {
        let puzzle = random_puzzle(seed, keep, tweak);
        let (want, want_solution) = reference_count(&puzzle, 2);
        for prune in [Prune::Basic, Prune::Matching, Prune::MatchingRoot] {
            let out = solve(&puzzle, prune, 2);
            prop_assert_eq!(out.solutions, want, "{} {:?}", puzzle.to_line(), prune);
            prop_assert!(!out.stuck && !out.timed_out);
            match out.solution {
                Some(s) => {
                    prop_assert!(is_valid_solution(&s) && s.is_solution_of(&puzzle));
                    if want == 1 {
                        prop_assert_eq!(Some(s), want_solution);
                    }
                }
                None => prop_assert_eq!(want, 0),
            }
        }
    }

    #[test]
    fn counts_up_to_five_agree(seed in any::<u64>(), keep in 22usize..=28) {
        let puzzle = random_puzzle(seed, keep, false);
        let (want, _) = reference_count(&puzzle, 5);
        prop_assert_eq!(solve(&puzzle, Prune::Basic, 5).solutions, want);
    }

    #[test]
    fn symmetries_keep_counts(seed in any::<u64>(), keep in 22usize..=34, perm_seed in any::<u64>()) {
        let puzzle = random_puzzle(seed, keep, false);
        let base = solve(&puzzle, Prune::Basic, 2).solutions;
        let mut rng = ChaCha8Rng::seed_from_u64(perm_seed);
        let mut labels: Vec<u8> = (1..=9).collect();
        for i in (1..9).rev() {
            labels.swap(i, rng.gen_range(0..=i));
        }
        let relabelled = map_cells(&puzzle, |i, v| (i, if v == 0 { 0 } else { labels[v as usize - 1] }));
        let transposed = map_cells(&puzzle, |i, v| ((i % 9) * 9 + i / 9, v));
        let (b1, b2) = (rng.gen_range(0..3usize), rng.gen_range(0..3usize));
        let swapped = map_cells(&puzzle, |i, v| {
            let band = i / 27;
            let to = if band == b1 { b2 } else if band == b2 { b1 } else { band };
            (to * 27 + i % 27, v)
        });
        for (what, g) in [("relabelled", relabelled), ("transposed", transposed), ("bands swapped", swapped)] {
            for prune in [Prune::Basic, Prune::Matching] {
                prop_assert_eq!(solve(&g, prune, 2).solutions, base, "{} {:?}", what, prune);
            }
        }
    }

    #[test]
    fn solve_random_gives_valid_solutions(seed in any::<u64>(), keep in 0usize..=30) {
        let puzzle = random_puzzle(seed, keep, false);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9);
        let mut solver = Solver::new(SolveOptions { limit: 1, ..SolveOptions::default() });
        let out = solver.solve_random(&puzzle, &mut rng);
        let s = out.solution.expect("puzzle cut from a grid has a solution");
        prop_assert!(is_valid_solution(&s) && s.is_solution_of(&puzzle));
    }

    /// `solve` checks the givens only for the records the solver finds no
    /// solution to, and the solver checks them only after 64 dead ends:
    /// clashing givens must never yield a solution, at any level, guessing
    /// or not, whatever the limit (complete grids with a clash included).
    #[test]
    fn clashing_givens_have_no_solution(seed in any::<u64>(), keep in 1usize..=81, peer in 0usize..20) {
        let mut puzzle = random_puzzle(seed, keep, false);
        let given = (0..81).find(|&c| puzzle.get(c) != 0).expect("keep >= 1");
        let other = usize::from(sudoflow::grid::PEERS[given][peer]);
        puzzle.set(other, puzzle.get(given));
        prop_assert!(puzzle.check_givens().is_err());
        for prune in [Prune::Basic, Prune::Matching, Prune::MatchingRoot] {
            for (guess, limit) in [(true, 1), (true, 2), (false, 2)] {
                let out = Solver::new(SolveOptions { guess, limit, prune, ..SolveOptions::default() }).solve(&puzzle);
                prop_assert_eq!(out.solutions, 0, "{} {:?}", puzzle.to_line(), prune);
                prop_assert!(!out.stuck);
            }
        }
    }

    /// The WNF that `solve_rated` reads off the root state is the rating
    /// module's, on any grid (clashing givens and the empty and full grids
    /// included).
    #[test]
    fn solve_rated_wnf_is_the_rating(seed in any::<u64>(), keep in 0usize..=81, tweak in prop::bool::weighted(0.3)) {
        let puzzle = random_puzzle(seed, keep.max(usize::from(tweak)), tweak);
        let mut solver = Solver::new(SolveOptions::default());
        let (out, wnf) = solver.solve_rated(&puzzle);
        prop_assert_eq!(wnf, sudoflow::rating::wnf(&puzzle), "{}", puzzle.to_line());
        prop_assert_eq!(out, solver.solve(&puzzle));
    }

    #[test]
    fn no_guess_mode_is_sound(seed in any::<u64>(), keep in 22usize..=40) {
        let puzzle = random_puzzle(seed, keep, false);
        for prune in [Prune::Basic, Prune::Matching] {
            let out = Solver::new(SolveOptions { guess: false, prune, ..SolveOptions::default() }).solve(&puzzle);
            prop_assert_eq!(out.guesses, 0);
            if out.stuck {
                prop_assert_eq!(out.solutions, 0);
            } else {
                // Propagation alone finished: the one solution it found is right.
                let s = out.solution.expect("not stuck means solved");
                prop_assert!(s.is_solution_of(&puzzle) && is_valid_solution(&s));
            }
        }
    }
}

#[test]
fn random_grids_differ() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let a = random_grid(&mut rng);
    let b = random_grid(&mut rng);
    assert_ne!(a, b);
}
