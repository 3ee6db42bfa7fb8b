//! Basic fish: X-Wing (3.2), Swordfish (3.8), Jellyfish (5.2).
//!
//! `degree` base lines (columns first, then rows) whose positions of a digit
//! lie in `degree` cover lines remove the digit from the rest of the cover
//! lines. SE skips a digit already placed `9 - 2 * degree` times or more.

use super::board::{bit, bit_nums, indices, Board, Combinations, COLUMN, REGION_CELLS, ROW};
use super::hint::Hint;
use super::subsets::common_tuple;

/// SE's `Fisherman(degree)`: the first fish found.
pub fn fish(board: &Board, degree: usize) -> Option<Hint> {
    let mut occurrences = [0u32; 10];
    for v in 1..=9u8 {
        occurrences[v as usize] = board.occurrences(v);
    }
    for (base, cover) in [(COLUMN, ROW), (ROW, COLUMN)] {
        for combo in Combinations::new(degree, 9) {
            for v in 1..=9u8 {
                if occurrences[v as usize] as usize + degree * 2 > 9 {
                    continue;
                }
                let mut sets = [0u16; 4];
                for (s, k) in sets.iter_mut().zip(bit_nums(combo)) {
                    *s = board.positions(base * 9 + k, v);
                }
                let Some(covers) = common_tuple(&sets[..degree], degree) else {
                    continue;
                };
                let mut removable = [0u16; 81];
                let mut any = false;
                for i in indices(covers) {
                    let line = &REGION_CELLS[cover * 9 + i];
                    for j in indices(board.positions(cover * 9 + i, v) & !(combo as u16)) {
                        removable[line[j] as usize] = bit(v);
                        any = true;
                    }
                }
                if any {
                    let (difficulty, name) =
                        [(3.2, "X-Wing"), (3.8, "Swordfish"), (5.2, "Jellyfish")][degree - 2];
                    return Some(Hint::new(difficulty, name, &removable, None));
                }
            }
        }
    }
    None
}
