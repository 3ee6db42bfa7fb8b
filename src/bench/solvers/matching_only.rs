//! `matching-only`: the bipartite matching paper's method alone (SEEDS.md
//! section 1): start from the givens' candidate graph and delete forbidden
//! edges (edges in no perfect matching of some unit's cell-digit graph) to a
//! fixed point, with no search, through
//! [`crate::solver::matching::propagate_matching`].
//!
//! Deletion is sound (a forbidden edge is in no solution), so its answers are
//! proofs: 81 edges left is the puzzle's unique solution (`solutions:
//! Some(1)`); a unit with no perfect matching proves there is no solution
//! (`Some(0)`); a fixed point with some cell still holding two or more
//! candidates is "don't know". The seed reports that it solves puzzles with
//! more than ~25 givens and fails on the 17-clue puzzles.

use crate::bench::{Answer, BenchSolver};
use crate::grid::Grid;
use crate::solver::matching::{candidates_from_givens, propagate_matching};

/// Forbidden-edge deletion to a fixed point, no search.
pub struct MatchingOnly;

impl BenchSolver for MatchingOnly {
    fn name(&self) -> &str {
        "matching-only"
    }

    fn solve(&mut self, puzzle: &Grid, _limit: u64) -> Answer {
        let mut cands = candidates_from_givens(puzzle);
        match propagate_matching(&mut cands) {
            Ok(true) => Answer {
                solutions: Some(1),
                solution: super::masks::grid_of(&cands),
                guesses: Some(0),
                timed_out: false,
            },
            Ok(false) => Answer {
                guesses: Some(0),
                ..Answer::UNKNOWN
            },
            Err(_) => Answer {
                solutions: Some(0),
                guesses: Some(0),
                ..Answer::UNKNOWN
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::solvers::testkit;

    #[test]
    fn solves_the_unique_easy_puzzles_and_proves_the_unsolvable_one() {
        let mut solved = 0;
        for (puzzle, _) in testkit::easy() {
            if crate::solver::count_solutions(&puzzle, 2) != 1 {
                continue;
            }
            let answer = MatchingOnly.solve(&puzzle, 2);
            if answer.solutions.is_some() {
                solved += 1;
            }
        }
        assert!(solved > 0, "matching alone solved none of the easy puzzles");
        let none = Grid::parse(testkit::NO_SOLUTION).unwrap();
        assert_eq!(MatchingOnly.solve(&none, 2).solutions, Some(0));
    }

    #[test]
    fn never_claims_a_wrong_answer() {
        let mut puzzles: Vec<Grid> = testkit::easy().into_iter().map(|(p, _)| p).collect();
        puzzles.push(Grid::parse(testkit::INKALA.0).unwrap());
        puzzles.push(Grid::parse(testkit::NO_SOLUTION).unwrap());
        puzzles.extend(testkit::top1465(100).unwrap_or_default());
        testkit::check_sound(&mut MatchingOnly, &puzzles);
    }
}
