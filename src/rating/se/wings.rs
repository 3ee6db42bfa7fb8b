//! XY-Wing (4.2) and XYZ-Wing (4.4).
//!
//! A pivot cell with candidates {x, y} (XYZ: {x, y, z}) sees two bivalue
//! pincers {x, z} and {y, z}; z is removed from every cell that sees both
//! pincers (XYZ: and the pivot). Pivots are tried row-major, pincers in the
//! pivot's house order (block, row, column).

use super::board::{bit, cells_of, Board, Card, HOUSE, PEER_MASK};
use super::hint::Hint;

/// SE's `XYWing(xyz)`: the first XY-Wing (or XYZ-Wing) that removes
/// something.
pub fn xy_wing(board: &Board, xyz: bool) -> Option<Hint> {
    xy_wing_in(board, xyz, !0)
}

/// [`xy_wing`] among the wings with a cell in `changed` (an 81-bit cell
/// set). A wing whose three cells are as on another board of the same path
/// where no wing removed anything removes nothing (the other cells' candidates
/// only shrink), so with `changed` the cells whose candidates changed since
/// then this finds the first wing SE's full search would.
pub fn xy_wing_in(board: &Board, xyz: bool, changed: u128) -> Option<Hint> {
    let target = if xyz { 3 } else { 2 };
    for xy_cell in 0..81 {
        let xy = board.cands[xy_cell];
        if xy.card() != target {
            continue;
        }
        let pivot_changed = changed >> xy_cell & 1 != 0;
        if !pivot_changed && changed & PEER_MASK[xy_cell] == 0 {
            continue;
        }
        for &xz_cell in &HOUSE[xy_cell] {
            let xz = board.cands[xz_cell as usize];
            if xz.card() != 2 || (xy & !xz).card() != 1 {
                continue;
            }
            let xz_changed = pivot_changed || changed >> xz_cell & 1 != 0;
            // The pincer {y, z} with {x, y} or {x, y, z} and {x, z} (three
            // digits in all; in all three cells only with XYZ). XY: xz
            // holds one of the pivot's digits and a third, so yz is their
            // difference. XYZ: xz is two of the pivot's three digits, and
            // yz another two of them (sharing one digit with xz).
            let yz_fits = |yz: u16| {
                if xyz {
                    yz & !xy == 0 && yz != xz && yz.card() == 2
                } else {
                    yz == xy ^ xz
                }
            };
            for &yz_cell in &HOUSE[xy_cell] {
                let yz = board.cands[yz_cell as usize];
                if !yz_fits(yz) || !(xz_changed || changed >> yz_cell & 1 != 0) {
                    continue;
                }
                let z = (xz & yz).trailing_zeros() as u8;
                let mut victims = PEER_MASK[xz_cell as usize] & PEER_MASK[yz_cell as usize];
                if xyz {
                    victims &= PEER_MASK[xy_cell];
                }
                victims &= !(1u128 << xy_cell | 1u128 << xz_cell | 1u128 << yz_cell);
                // The victims holding z (most wings have none).
                victims &= cells_of(victims)
                    .filter(|&c| board.cands[c] & bit(z) != 0)
                    .fold(0, |m, c| m | 1u128 << c);
                if victims != 0 {
                    let mut removable = [0u16; 81];
                    for c in cells_of(victims) {
                        removable[c] = bit(z);
                    }
                    let (difficulty, name) = if xyz {
                        (4.4, "XYZ-Wing")
                    } else {
                        (4.2, "XY-Wing")
                    };
                    let cells = [xy_cell, xz_cell as usize, yz_cell as usize];
                    return Some(Hint::new(difficulty, name, &removable, None).with_cells(cells));
                }
            }
        }
    }
    None
}
