//! Basic fish: X-Wing (3.2), Swordfish (3.8), Jellyfish (5.2).
//!
//! `degree` base lines (columns first, then rows) whose positions of a digit
//! lie in `degree` cover lines remove the digit from the rest of the cover
//! lines. SE skips a digit already placed `9 - 2 * degree` times or more.

use super::board::{bit, bit_nums, indices, subsets_of, Board, Card, COLUMN, REGION_CELLS, ROW};
use super::hint::Hint;
use super::subsets::common_tuple;

/// SE's `Fisherman(degree)`: the first fish found.
///
/// SE tries the sets of base lines in combination order and, for each, the
/// digits 1 to 9. Only lines where the digit has 2..=degree positions can be
/// base lines, so each digit's first fish is searched among those alone, and
/// the first overall is the one with the lowest (combination, digit).
pub fn fish(board: &Board, degree: usize) -> Option<Hint> {
    fish_in(board, degree, 0x3fe)
}

/// [`fish`] searched only for the digits in `digits` (bit `v` for digit
/// `v`). What it finds for a digit depends only on the cells holding it
/// (placing the digit takes it from its cell), so where another board of
/// the same path gave no fish, searching the digits whose cells changed
/// since then finds the first fish SE's full search would.
pub fn fish_in(board: &Board, degree: usize, digits: u16) -> Option<Hint> {
    let mut occurrences = [0u32; 10];
    for v in 1..=9u8 {
        occurrences[v as usize] = board.occurrences(v);
    }
    for (base, cover) in [(COLUMN, ROW), (ROW, COLUMN)] {
        let mut first: Option<(u16, u8, [u16; 81], u16)> = None;
        for v in 1..=9u8 {
            if digits & bit(v) == 0 || occurrences[v as usize] as usize + degree * 2 > 9 {
                continue;
            }
            let eligible = (0..9)
                .filter(|&k| (2..=degree as u32).contains(&board.positions(base * 9 + k, v).card()))
                .fold(0u16, |m, k| m | 1 << k);
            for combo in subsets_of(eligible, degree) {
                if first.as_ref().is_some_and(|&(c, _, _, _)| c < combo) {
                    break; // a lower digit already has an earlier fish
                }
                let mut sets = [0u16; 4];
                for (s, k) in sets.iter_mut().zip(bit_nums(u64::from(combo))) {
                    *s = board.positions(base * 9 + k, v);
                }
                let Some(covers) = common_tuple(&sets[..degree], degree) else {
                    continue;
                };
                let mut removable = [0u16; 81];
                let mut any = false;
                for i in indices(covers) {
                    let line = &REGION_CELLS[cover * 9 + i];
                    for j in indices(board.positions(cover * 9 + i, v) & !combo) {
                        removable[line[j] as usize] = bit(v);
                        any = true;
                    }
                }
                if any {
                    if first.as_ref().is_none_or(|&(c, _, _, _)| combo < c) {
                        first = Some((combo, v, removable, covers));
                    }
                    break;
                }
            }
        }
        if let Some((combo, v, removable, covers)) = first {
            let (difficulty, name) =
                [(3.2, "X-Wing"), (3.8, "Swordfish"), (5.2, "Jellyfish")][degree - 2];
            // SE's text names the fish's cells cover line by cover line,
            // each along the base lines.
            let mut cells = Vec::new();
            for i in indices(covers) {
                for j in indices(combo) {
                    let c = REGION_CELLS[cover * 9 + i][j] as usize;
                    if board.cands[c] & bit(v) != 0 {
                        cells.push(c);
                    }
                }
            }
            return Some(Hint::new(difficulty, name, &removable, None).with_cells(cells));
        }
    }
    None
}
