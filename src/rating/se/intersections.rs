//! Locked candidates (SE's "intersections"): pointing (a block's digit
//! confined to one line) and claiming (a line's digit confined to one block).
//!
//! The direct forms (1.7 pointing, 1.9 claiming) count only when removing
//! the locked digit leaves a hidden single in another region of the first
//! region's type; the hint then places that single. The plain forms rate 2.6
//! (pointing) and 2.8 (claiming).

use super::board::REGION_CELLS;
use super::board::{bit, crosses, Board, Card, BLOCK, COLUMN, REGION_MASK, ROW};
use super::hint::Hint;

/// The region pairs SE tries, in order: (where the digit is confined,
/// where it is removed).
const PASSES: [(usize, usize); 4] = [(BLOCK, COLUMN), (BLOCK, ROW), (COLUMN, BLOCK), (ROW, BLOCK)];

/// SE's `Locking(direct)`: the first pointing or claiming hint, direct or
/// not.
pub fn locking(board: &Board, direct: bool) -> Option<Hint> {
    for (t1, t2) in PASSES {
        for i1 in 0..9 {
            for i2 in 0..9 {
                let (r1, r2) = (t1 * 9 + i1, t2 * 9 + i2);
                if !crosses(r1, r2) {
                    continue;
                }
                for v in 1..=9u8 {
                    let pos = board.positions(r1, v);
                    if pos.card() <= 1 || !inside(r1, pos, r2) {
                        continue;
                    }
                    if direct {
                        if let Some(h) = following_hidden_single(board, t1, i1, r2, v) {
                            return Some(hint(board, r1, r2, Some(h), v, t1 == BLOCK));
                        }
                    } else {
                        let h = hint(board, r1, r2, None, v, t1 == BLOCK);
                        if !h.removals.is_empty() {
                            return Some(h);
                        }
                    }
                }
            }
        }
    }
    None
}

/// `INSIDE[r1][r2]`: the indices (9-bit mask) of region `r1`'s cells that
/// lie in region `r2`.
pub(crate) const INSIDE: [[u16; 27]; 27] = {
    let mut t = [[0u16; 27]; 27];
    let mut r1 = 0;
    while r1 < 27 {
        let mut r2 = 0;
        while r2 < 27 {
            let mut k = 0;
            while k < 9 {
                if REGION_MASK[r2] >> REGION_CELLS[r1][k] & 1 != 0 {
                    t[r1][r2] |= 1 << k;
                }
                k += 1;
            }
            r2 += 1;
        }
        r1 += 1;
    }
    t
};

/// Whether every position `pos` of region `r1` lies in region `r2`.
#[inline]
fn inside(r1: usize, pos: u16, r2: usize) -> bool {
    pos & !INSIDE[r1][r2] == 0
}

/// The cell of a hidden single that appears in another region of type `t1`
/// once `v` is removed from `r2` (SE's `lookForFollowingHiddenSingles`).
fn following_hidden_single(board: &Board, t1: usize, i1: usize, r2: usize, v: u8) -> Option<usize> {
    for i3 in (0..9).filter(|&i| i != i1) {
        let r3 = t1 * 9 + i3;
        if !crosses(r3, r2) {
            continue;
        }
        let pos3 = board.positions(r3, v);
        if pos3.card() <= 1 {
            continue;
        }
        let outside = pos3 & !INSIDE[r3][r2];
        if outside.card() == 1 {
            return Some(REGION_CELLS[r3][outside.trailing_zeros() as usize] as usize);
        }
    }
    None
}

/// The hint removing `v` from the cells of `r2` outside `r1`.
fn hint(board: &Board, r1: usize, r2: usize, single: Option<usize>, v: u8, pointing: bool) -> Hint {
    let mut removable = [0u16; 81];
    for &c in &REGION_CELLS[r2] {
        let c = c as usize;
        if REGION_MASK[r1] >> c & 1 == 0 && board.cands[c] & bit(v) != 0 {
            removable[c] = bit(v);
        }
    }
    let (difficulty, name) = match (single.is_some(), pointing) {
        (true, true) => (1.7, "Direct Pointing"),
        (true, false) => (1.9, "Direct Claiming"),
        (false, true) => (2.6, "Pointing"),
        (false, false) => (2.8, "Claiming"),
    };
    // SE's direct hint only places the single: the locked removals are shown,
    // not applied.
    if single.is_some() {
        removable = [0; 81];
    }
    Hint::new(difficulty, name, &removable, single.map(|c| (c, v)))
}
