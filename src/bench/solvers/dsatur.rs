//! `dsatur`: greedy graph colouring by saturation degree (Brélaz's DSatur),
//! with no backtracking, as in the colouring article (SEEDS.md section 3).
//!
//! The puzzle is the 81-vertex graph with an edge between any two cells of a
//! common unit; digits are colours and givens are pre-coloured vertices. Step:
//! take the uncoloured cell whose peers show the most distinct digits (its
//! saturation), ties broken by degree in the uncoloured part of the graph (the
//! number of uncoloured peers; all static degrees are 20), then by row-major
//! order, and give it the smallest digit none of its peers holds. With
//! saturation 9 no digit is left and the method fails: it never revisits a
//! choice.
//!
//! Answers: a completed colouring is a proper 9-colouring extending the givens,
//! i.e. a solution, reported as [`Answer::solution`] with `solutions: None`
//! (a greedy pass cannot count, so it never claims "unique" or "multiple");
//! a failure is "don't know" ([`Answer::UNKNOWN`]), never "no solution".

use super::masks::used_by_peers;
use crate::bench::{Answer, BenchSolver};
use crate::grid::{Grid, PEERS};

/// Greedy DSatur colouring.
pub struct Dsatur;

/// Colours `puzzle` greedily; `None` when some cell sees all nine digits.
pub fn colour(puzzle: &Grid) -> Option<Grid> {
    let mut grid = *puzzle;
    // used[c]: bit d - 1 set when a peer of c holds digit d.
    let mut used = used_by_peers(&grid);
    let mut uncoloured_peers = [0u8; 81];
    for (c, n) in uncoloured_peers.iter_mut().enumerate() {
        *n = PEERS[c]
            .iter()
            .filter(|&&p| grid.get(p as usize) == 0)
            .count() as u8;
    }
    loop {
        let mut best: Option<(u32, u8, usize)> = None;
        for c in 0..81 {
            if grid.get(c) != 0 {
                continue;
            }
            let key = (used[c].count_ones(), uncoloured_peers[c]);
            if best.is_none_or(|(s, d, _)| key > (s, d)) {
                best = Some((key.0, key.1, c));
            }
        }
        let Some((_, _, cell)) = best else {
            return Some(grid);
        };
        let free = !used[cell] & 0x1FF;
        if free == 0 {
            return None;
        }
        let d = free.trailing_zeros() as u8 + 1;
        grid.set(cell, d);
        for &p in &PEERS[cell] {
            let p = p as usize;
            used[p] |= 1 << (d - 1);
            uncoloured_peers[p] -= 1;
        }
    }
}

impl BenchSolver for Dsatur {
    fn name(&self) -> &str {
        "dsatur"
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
        let (_, solved) = testkit::easy()[0];
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
        testkit::check_sound(&mut Dsatur, &puzzles);
    }
}
