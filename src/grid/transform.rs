//! The validity-preserving transformations of a Sudoku grid: relabelling
//! digits, transposing, permuting the rows within each band, the bands, the
//! columns within each stack and the stacks. Together they form a group of
//! 9! x 2 x 6^8 = 1,218,998,108,160 elements, of which 3,359,232 move cells.
//!
//! A transformed puzzle has as many solutions as the original, and the same
//! difficulty by any rating defined by the logic of the puzzle (WNF and SE's
//! rating are; the backtracking solver's guess count is not).

use super::Grid;

/// One transformation: cell `(r, c)` of the result is cell
/// `(rows[r], cols[c])` of the source (after transposing the source when
/// `transpose`), with digit `d` written as `digits[d]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transform {
    /// Transpose first.
    pub transpose: bool,
    /// Source row of each row (0-based); keeps bands together.
    pub rows: [u8; 9],
    /// Source column of each column (0-based); keeps stacks together.
    pub cols: [u8; 9],
    /// New label of each digit: `digits[d]` for `d` in 1..=9; `digits[0]`
    /// is 0 (blanks stay blank).
    pub digits: [u8; 10],
}

impl Transform {
    /// The identity.
    pub const IDENTITY: Transform = Transform {
        transpose: false,
        rows: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        cols: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        digits: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    };

    /// The transformation these choices describe: `band_order` and
    /// `stack_order` permute the three bands and stacks, `row_orders[b]` and
    /// `col_orders[s]` the three rows of band `b` and columns of stack `s`
    /// (each a permutation of 0..3), `labels` is the new label of digits
    /// 1..=9 (a permutation of 1..=9).
    ///
    /// Panics if an argument is not a permutation.
    pub fn new(
        transpose: bool,
        band_order: [u8; 3],
        row_orders: [[u8; 3]; 3],
        stack_order: [u8; 3],
        col_orders: [[u8; 3]; 3],
        labels: [u8; 9],
    ) -> Transform {
        let perm3 = |p: [u8; 3]| {
            let mut s = p;
            s.sort_unstable();
            assert_eq!(s, [0, 1, 2], "not a permutation of 0..3: {p:?}");
        };
        perm3(band_order);
        perm3(stack_order);
        row_orders.iter().chain(&col_orders).for_each(|&p| perm3(p));
        let mut sorted = labels;
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            [1, 2, 3, 4, 5, 6, 7, 8, 9],
            "not a relabelling of 1..=9"
        );
        let mut t = Transform {
            transpose,
            ..Transform::IDENTITY
        };
        for b in 0..3 {
            for k in 0..3 {
                t.rows[3 * b + k] = 3 * band_order[b] + row_orders[b][k];
                t.cols[3 * b + k] = 3 * stack_order[b] + col_orders[b][k];
            }
        }
        t.digits[1..].copy_from_slice(&labels);
        t
    }

    /// The source cell (0..81) of result cell `cell`.
    #[inline]
    pub fn source_cell(&self, cell: usize) -> usize {
        let (r, c) = (self.rows[cell / 9] as usize, self.cols[cell % 9] as usize);
        if self.transpose {
            c * 9 + r
        } else {
            r * 9 + c
        }
    }

    /// The transformed grid.
    pub fn apply(&self, grid: &Grid) -> Grid {
        let src = grid.cells();
        let mut cells = [0u8; 81];
        for (cell, out) in cells.iter_mut().enumerate() {
            *out = self.digits[src[self.source_cell(cell)] as usize];
        }
        Grid::from_cells(cells).expect("a relabelling keeps digits in 0..=9")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_keeps_the_grid_and_transforms_keep_solutions() {
        let p = Grid::parse(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        )
        .unwrap();
        assert_eq!(Transform::IDENTITY.apply(&p), p);
        let s = Grid::parse(
            "812753649943682175675491283154237896369845721287169534521974368438526917796318452",
        )
        .unwrap();
        let t = Transform::new(
            true,
            [2, 0, 1],
            [[1, 0, 2], [0, 2, 1], [2, 1, 0]],
            [1, 2, 0],
            [[2, 0, 1], [0, 1, 2], [1, 2, 0]],
            [3, 1, 4, 5, 9, 2, 6, 8, 7],
        );
        assert!(t.apply(&s).is_solution_of(&t.apply(&p)));
        assert_eq!(t.apply(&p).clues(), p.clues());
    }
}
