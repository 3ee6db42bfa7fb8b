//! Locked candidates (SE's "intersections"): pointing (a block's digit
//! confined to one line) and claiming (a line's digit confined to one block).
//!
//! The direct forms (1.7 pointing, 1.9 claiming) count only when removing
//! the locked digit leaves a hidden single in another region of the first
//! region's type; the hint then places that single. The plain forms rate 2.6
//! (pointing) and 2.8 (claiming).

use super::board::REGION_CELLS;
use super::board::{bit, crosses, digits, Board, Card, BLOCK, COLUMN, REGION_MASK, ROW};
use super::hint::Hint;

/// The region pairs SE tries, in order: (where the digit is confined,
/// where it is removed).
const PASSES: [(usize, usize); 4] = [(BLOCK, COLUMN), (BLOCK, ROW), (COLUMN, BLOCK), (ROW, BLOCK)];

/// What the last search of one `Locking` producer found nothing on, so that
/// the next skips what did not change.
///
/// A pointing or claiming hint of digit `v` between a block and a line
/// depends only on `v`'s candidates in the chute (band for a row, stack for
/// a column) holding both: the confined positions, the removals and, for
/// the direct forms, the other blocks or lines of the chute where the
/// following hidden single appears. So when a search gave nothing, the next
/// search looks only at the (digit, chute) pairs whose candidates changed
/// since; on any board, whatever came between.
#[derive(Clone, Default)]
pub struct LockingMemo {
    /// The candidates when the last search gave nothing, per cell; `None`
    /// before the first such search or after a search that found a hint.
    nothing_on: Option<[u16; 81]>,
}

/// SE's `Locking(direct)`: the first pointing or claiming hint, direct or
/// not. `memo` carries what the previous search found nothing on (one memo
/// per value of `direct`; a fresh one searches everything).
pub fn locking_with(board: &Board, direct: bool, memo: &mut LockingMemo) -> Option<Hint> {
    // Digits (candidate bits) whose candidates changed, per band and per
    // stack.
    let (mut bands, mut stacks) = ([0x3feu16; 3], [0x3feu16; 3]);
    if let Some(seen) = &memo.nothing_on {
        (bands, stacks) = ([0; 3], [0; 3]);
        for (c, (&now, &then)) in board.cands.iter().zip(seen).enumerate() {
            let d = now ^ then;
            bands[c / 27] |= d;
            stacks[c % 9 / 3] |= d;
        }
        if bands == [0; 3] {
            return None;
        }
    }
    for (pass, &(t1, t2)) in PASSES.iter().enumerate() {
        for i1 in 0..9 {
            let r1 = t1 * 9 + i1;
            // The chute holding r1 and every r2 it crosses.
            let dirty = match (t1, t2) {
                (BLOCK, ROW) => bands[i1 / 3],
                (BLOCK, _) => stacks[i1 % 3],
                (ROW, _) => bands[i1 / 3],
                _ => stacks[i1 / 3],
            };
            // Per crossing region (in SE's order of r2): the digits
            // confined to it, with two positions or more.
            let crossing = &CROSSING[pass][i1];
            let mut confined = [0u16; 3];
            for v in digits(dirty) {
                let pos = board.positions(r1, v);
                if pos.card() <= 1 {
                    continue;
                }
                for (k, &(_, inside)) in crossing.iter().enumerate() {
                    if pos & !inside == 0 {
                        confined[k] |= bit(v);
                    }
                }
            }
            for (k, &(r2, _)) in crossing.iter().enumerate() {
                let r2 = usize::from(r2);
                for v in digits(confined[k]) {
                    let found = if direct {
                        following_hidden_single(board, t1, i1, r2, v)
                            .map(|h| hint(board, r1, r2, Some(h), v, t1 == BLOCK))
                    } else if board.positions(r2, v) & !INSIDE[r2][r1] != 0 {
                        // v outside r1 in r2: the hint removes it there.
                        Some(hint(board, r1, r2, None, v, t1 == BLOCK))
                    } else {
                        None
                    };
                    if found.is_some() {
                        memo.nothing_on = None;
                        return found;
                    }
                }
            }
        }
    }
    memo.nothing_on = Some(board.cands);
    None
}

/// `CROSSING[pass][i1]`: for region `r1` (index `i1` of the pass's first
/// type), the three regions of the second type it crosses, in index order,
/// each with `INSIDE[r1][r2]`.
const CROSSING: [[[(u8, u16); 3]; 9]; 4] = {
    let mut t = [[[(0u8, 0u16); 3]; 9]; 4];
    let mut pass = 0;
    while pass < 4 {
        let (t1, t2) = PASSES[pass];
        let mut i1 = 0;
        while i1 < 9 {
            let r1 = t1 * 9 + i1;
            let (mut i2, mut k) = (0, 0);
            while i2 < 9 {
                let r2 = t2 * 9 + i2;
                if REGION_MASK[r1] & REGION_MASK[r2] != 0 {
                    t[pass][i1][k] = (r2 as u8, INSIDE[r1][r2]);
                    k += 1;
                }
                i2 += 1;
            }
            assert!(k == 3);
            i1 += 1;
        }
        pass += 1;
    }
    t
};

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
    // SE's text names the locked cells: r2's cells in r1 holding v.
    let locked = REGION_CELLS[r2]
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| REGION_MASK[r1] >> c & 1 != 0 && board.cands[c] & bit(v) != 0);
    Hint::new(difficulty, name, &removable, single.map(|c| (c, v))).with_cells(locked)
}
