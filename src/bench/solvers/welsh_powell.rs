//! `welsh-powell`: the colouring article's first greedy method (SEEDS.md
//! section 3), Welsh and Powell's colouring by descending degree, with no
//! backtracking.
//!
//! Order the uncoloured cells once by descending degree in the uncoloured part
//! of the graph (the number of uncoloured peers; every static degree is 20),
//! ties by row-major order. Then for each digit 1 to 9 in turn, walk that order
//! and give the digit to every uncoloured cell none of whose peers holds it
//! (givens are pre-coloured, so each digit's class starts with its givens).
//! Cells still uncoloured after digit 9 mean failure.
//!
//! Answers as [`super::dsatur`]: a completed colouring is a solution
//! (`solutions: None`, it cannot count); a failure is "don't know".

use super::masks::used_by_peers;
use crate::bench::{Answer, BenchSolver};
use crate::grid::{Grid, PEERS};

/// Greedy Welsh-Powell colouring.
pub struct WelshPowell;

/// Colours `puzzle` greedily; `None` when some cell is left uncoloured.
pub fn colour(puzzle: &Grid) -> Option<Grid> {
    let mut grid = *puzzle;
    let mut order: Vec<(u8, usize)> = (0..81)
        .filter(|&c| grid.get(c) == 0)
        .map(|c| {
            let degree = PEERS[c]
                .iter()
                .filter(|&&p| grid.get(p as usize) == 0)
                .count();
            (degree as u8, c)
        })
        .collect();
    // Descending degree, then ascending cell.
    order.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut used = used_by_peers(&grid);
    for d in 1..=9u8 {
        let bit = 1u16 << (d - 1);
        for &(_, c) in &order {
            if grid.get(c) != 0 || used[c] & bit != 0 {
                continue;
            }
            grid.set(c, d);
            for &p in &PEERS[c] {
                used[p as usize] |= bit;
            }
        }
    }
    grid.is_complete().then_some(grid)
}

impl BenchSolver for WelshPowell {
    fn name(&self) -> &str {
        "welsh-powell"
    }

    fn solve(&mut self, puzzle: &Grid, _limit: u64) -> Answer {
        Answer {
            solution: colour(puzzle),
            guesses: Some(0),
            ..Answer::UNKNOWN
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::solvers::testkit;

    #[test]
    fn solves_a_puzzle_with_one_blank_per_box() {
        let (_, solved) = testkit::easy()[3];
        let mut puzzle = solved;
        for b in 0..9 {
            puzzle.set((b / 3) * 27 + (b % 3) * 3 + 10, 0);
        }
        assert_eq!(colour(&puzzle), Some(solved));
    }

    #[test]
    fn never_claims_a_wrong_solution() {
        let mut puzzles: Vec<Grid> = testkit::easy().into_iter().map(|(p, _)| p).collect();
        puzzles.extend(testkit::top1465(100).unwrap_or_default());
        testkit::check_sound(&mut WelshPowell, &puzzles);
    }
}
