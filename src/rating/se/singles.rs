//! Singles: hidden single (1.0 last cell of a region, 1.2 block, 1.5 row or
//! column) and naked single (2.3).

use super::board::{Board, Card, BLOCK, COLUMN, REGION_CELLS, ROW};
use super::hint::Hint;

/// SE's `HiddenSingle`: first the regions with one empty cell left (1.0), in
/// the order blocks, columns, rows; then every region in the same order, a
/// digit with one position rated 1.2 in a block and 1.5 in a line.
pub fn hidden_single(board: &Board) -> Option<Hint> {
    for alone_only in [true, false] {
        for ty in [BLOCK, COLUMN, ROW] {
            for i in 0..9 {
                let r = ty * 9 + i;
                let alone = board.empty_count(r) == 1;
                if alone != alone_only {
                    continue;
                }
                for v in 1..=9u8 {
                    let pos = board.positions(r, v);
                    if pos.card() == 1 {
                        let cell = REGION_CELLS[r][pos.trailing_zeros() as usize];
                        let difficulty = if alone {
                            1.0
                        } else if ty == BLOCK {
                            1.2
                        } else {
                            1.5
                        };
                        return Some(Hint::placement(
                            difficulty,
                            "Hidden Single",
                            cell as usize,
                            v,
                        ));
                    }
                }
            }
        }
    }
    None
}

/// SE's `NakedSingle`: the first cell, row-major, with one candidate (2.3).
pub fn naked_single(board: &Board) -> Option<Hint> {
    (0..81).find(|&c| board.cands[c].card() == 1).map(|c| {
        Hint::placement(
            2.3,
            "Naked Single",
            c,
            board.cands[c].trailing_zeros() as u8,
        )
    })
}
