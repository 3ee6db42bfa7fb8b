//! Cells, digits and whole grids: the puzzle as the user sees it.
//!
//! A grid is 81 cells in row-major order; cell index `i` (0..81) is row `i / 9`,
//! column `i % 9`, box `(i / 27) * 3 + (i % 9) / 3`, all zero-based. Messages to
//! users name cells the community's way, 1-based: `r3c8` is row 3, column 8.
//! A digit is stored as 1..=9 and a blank as 0.
//!
//! ```text
//!        c1 c2 c3   c4 c5 c6   c7 c8 c9
//!   r1 |  0  1  2 |  3  4  5 |  6  7  8 |   band 1 (rows 1-3)
//!   r2 |  9 10 11 | 12 13 14 | 15 16 17 |   boxes 1, 2, 3
//!   r3 | 18 19 20 | 21 22 23 | 24 25 26 |
//!   ---+----------+----------+----------+
//!   r4 | 27 ...                         |   band 2 (rows 4-6)
//!   ...                                     stack 1 = columns 1-3, ...
//!   r9 | 72 73 74 | 75 76 77 | 78 79 80 |   band 3 (rows 7-9)
//! ```

mod parse;
mod pencilmark;
pub mod transform;

pub use parse::{Clash, ParseError, UnitKind};
pub use pencilmark::{PencilmarkError, Pencilmarks, PENCILMARK_LEN};

use std::fmt;

/// Number of cells in a grid.
pub const CELLS: usize = 81;

/// Row (0..9) of cell index `cell` (0..81).
#[inline]
pub const fn row_of(cell: usize) -> usize {
    cell / 9
}

/// Column (0..9) of cell index `cell` (0..81).
#[inline]
pub const fn col_of(cell: usize) -> usize {
    cell % 9
}

/// Box (0..9, numbered row-major) of cell index `cell` (0..81).
#[inline]
pub const fn box_of(cell: usize) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}

/// The 27 units as cell indices: rows 0..9, then columns 9..18, then boxes 18..27.
pub const UNITS: [[u8; 9]; 27] = build_units();

const fn build_units() -> [[u8; 9]; 27] {
    let mut units = [[0u8; 9]; 27];
    let mut u = 0;
    while u < 9 {
        let mut k = 0;
        while k < 9 {
            units[u][k] = (u * 9 + k) as u8; // row u
            units[9 + u][k] = (k * 9 + u) as u8; // column u
            let (br, bc) = ((u / 3) * 3, (u % 3) * 3);
            units[18 + u][k] = ((br + k / 3) * 9 + bc + k % 3) as u8; // box u
            k += 1;
        }
        u += 1;
    }
    units
}

/// The 20 peers of each cell (cells sharing a row, column or box), ascending.
pub const PEERS: [[u8; 20]; 81] = build_peers();

const fn build_peers() -> [[u8; 20]; 81] {
    let mut peers = [[0u8; 20]; 81];
    let mut c = 0;
    while c < 81 {
        let mut n = 0;
        let mut o = 0;
        while o < 81 {
            if o != c
                && (row_of(o) == row_of(c) || col_of(o) == col_of(c) || box_of(o) == box_of(c))
            {
                peers[c][n] = o as u8;
                n += 1;
            }
            o += 1;
        }
        c += 1;
    }
    peers
}

/// The digits given in each unit, from 81 cell values in one branch-free
/// pass ([`crate::rating::wnf`] rates a grid from them).
///
/// Bit layout of `rows[r]`, `cols[c]`, `boxes[b]` (each index 0..9): bit `d`
/// (1..=9) set when digit `d` is a given in that unit; bit 0 and bits 10-15
/// stay clear.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnitGivens {
    /// Digits given in each row.
    pub rows: [u16; 9],
    /// Digits given in each column.
    pub cols: [u16; 9],
    /// Digits given in each box (numbered row-major).
    pub boxes: [u16; 9],
    /// True when some digit is given twice in a unit (the givens clash).
    pub clash: bool,
}

/// `DIGIT_BIT[v] = 1 << v` for a digit `v` in 1..=9, 0 for a blank (and for
/// 10..16, which no cell holds).
const DIGIT_BIT: [u16; 16] = {
    let mut t = [0u16; 16];
    let mut v = 1;
    while v <= 9 {
        t[v] = 1 << v;
        v += 1;
    }
    t
};

impl UnitGivens {
    /// The unit masks of `cells` (row-major, 0 blank, 1..=9 given; values
    /// above 9 are read modulo 16 and above 9 count as blank).
    ///
    /// No branch per cell: a clash is a digit's bit already set in one of
    /// its cell's unit masks, accumulated with `|`.
    #[inline]
    pub fn of(cells: &[u8; 81]) -> UnitGivens {
        let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
        // Digits seen twice: a digit's bit meets the unit masks built so far.
        let mut twice = 0u16;
        for band in 0..3 {
            let mut band_boxes = [0u16; 3];
            for r in 3 * band..3 * band + 3 {
                let mut row = 0u16;
                for c in 0..9 {
                    let bit = DIGIT_BIT[usize::from(cells[9 * r + c] & 15)];
                    twice |= (row | cols[c] | band_boxes[c / 3]) & bit;
                    row |= bit;
                    cols[c] |= bit;
                    band_boxes[c / 3] |= bit;
                }
                rows[r] = row;
            }
            boxes[3 * band..3 * band + 3].copy_from_slice(&band_boxes);
        }
        let differ = twice;
        UnitGivens {
            rows,
            cols,
            boxes,
            clash: differ != 0,
        }
    }
}

/// The characters read as a blank cell: `.`, `0` and `_`, and `-`, `*`,
/// `x` and `X` as puzzles pasted from web pages and books write them.
pub const BLANKS: [u8; 7] = *b".0_-*xX";

/// Whether `b` is one of the [`BLANKS`].
#[inline]
pub const fn is_blank(b: u8) -> bool {
    let mut k = 0;
    while k < BLANKS.len() {
        if BLANKS[k] == b {
            return true;
        }
        k += 1;
    }
    false
}

/// A 9x9 grid: 81 cells row-major, each 0 (blank) or a digit 1..=9.
///
/// Built by [`Grid::parse`] (which checks characters and length) or
/// [`Grid::from_cells`]; neither checks that givens are consistent, which is
/// [`Grid::check_givens`]'s job.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    cells: [u8; 81],
}

impl Grid {
    /// The empty grid (81 blanks).
    pub const EMPTY: Grid = Grid { cells: [0; 81] };

    /// A grid from 81 values, each 0 (blank) or 1..=9.
    ///
    /// Errors: `None` if any value is above 9.
    pub fn from_cells(cells: [u8; 81]) -> Option<Grid> {
        // A max over all cells, not `all`: no early exit, so it compiles to
        // a few SIMD steps instead of a branch per cell (the solver builds
        // every solution through here).
        (cells.iter().fold(0, |m, &v| m.max(v)) <= 9).then_some(Grid { cells })
    }

    /// Parses exactly the 81 puzzle characters of one record: digits `1`-`9` are
    /// givens; `.`, `0` and `_` are blanks, and so are `-`, `*`, `x` and `X`
    /// (puzzles pasted from web pages and books).
    ///
    /// Errors: [`ParseError::Length`] when `text` is not 81 characters long,
    /// [`ParseError::Char`] naming the first character that is not a cell.
    /// Record framing (comments, trailing fields, CSV) is the reader's job.
    pub fn parse(text: &str) -> Result<Grid, ParseError> {
        parse::parse_cells(text)
    }

    /// The 81 cell values, row-major, 0 for blank.
    #[inline]
    pub fn cells(&self) -> &[u8; 81] {
        &self.cells
    }

    /// Value of one cell (0..81): 0 for blank, else 1..=9.
    #[inline]
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Sets one cell (0..81) to `value` (0 = blank, 1..=9).
    ///
    /// Panics if `value > 9` or `cell >= 81`.
    #[inline]
    pub fn set(&mut self, cell: usize, value: u8) {
        assert!(value <= 9, "cell value {value} out of range");
        self.cells[cell] = value;
    }

    /// Number of givens (non-blank cells).
    pub fn clues(&self) -> usize {
        // A byte-wide count without a branch (at most 81 fits a u8):
        // vectorised, where `filter().count()` ran a loop per cell (~380
        // instructions a record in `solve`).
        usize::from(self.cells.iter().fold(0u8, |n, &v| n + u8::from(v != 0)))
    }

    /// True when no cell is blank.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Checks that no two givens clash in a unit.
    ///
    /// Errors: the first [`Clash`] in unit order rows, columns, boxes: the digit,
    /// the unit and the two cells, e.g. `duplicate 5 in row 3: r3c2, r3c8`.
    pub fn check_givens(&self) -> Result<(), Clash> {
        parse::check_givens(self)
    }

    /// True when this is a complete grid obeying the rules (each digit once per
    /// unit) that agrees with every given of `puzzle`.
    pub fn is_solution_of(&self, puzzle: &Grid) -> bool {
        self.is_complete()
            && self.check_givens().is_ok()
            && puzzle
                .cells
                .iter()
                .zip(self.cells.iter())
                .all(|(&g, &s)| g == 0 || g == s)
    }

    /// The 81-character line form: digits for givens, `.` for blanks.
    pub fn to_line(&self) -> String {
        let mut s = String::with_capacity(81);
        self.write_line(&mut s);
        s
    }

    /// Appends the 81-character line form to `out` (no allocation if it has room).
    pub fn write_line(&self, out: &mut String) {
        out.extend(
            self.cells
                .iter()
                .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char }),
        );
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_line())
    }
}

/// Formats a cell index (0..81) as the community's `r{row}c{col}`, 1-based.
pub fn cell_name(cell: usize) -> String {
    format!("r{}c{}", row_of(cell) + 1, col_of(cell) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The branch-free masks and clash flag agree with the plain
        /// definitions: a unit's mask is the digits of its givens, and a
        /// clash is what `check_givens` reports. Sparse grids (mostly
        /// blanks) make clash-free cases common.
        #[test]
        fn unit_givens_match_the_definition(
            cells in proptest::collection::vec(
                proptest::prop_oneof![4 => proptest::strategy::Just(0u8), 1 => 1u8..=9],
                81,
            )
        ) {
            let cells: [u8; 81] = cells.try_into().unwrap();
            let got = UnitGivens::of(&cells);
            let grid = Grid::from_cells(cells).unwrap();
            for u in 0..9 {
                let mask = |k: usize| {
                    UNITS[k].iter().fold(0u16, |m, &c| m | (1 << cells[c as usize]) & !1)
                };
                proptest::prop_assert_eq!(got.rows[u], mask(u));
                proptest::prop_assert_eq!(got.cols[u], mask(9 + u));
                proptest::prop_assert_eq!(got.boxes[u], mask(18 + u));
            }
            proptest::prop_assert_eq!(got.clash, grid.check_givens().is_err());
        }
    }

    #[test]
    fn units_cover_every_cell_three_times() {
        let mut seen = [0u8; 81];
        for unit in UNITS {
            for c in unit {
                seen[c as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 3));
        assert_eq!(UNITS[18 + 4], [30, 31, 32, 39, 40, 41, 48, 49, 50]);
        assert_eq!(UNITS[9 + 2][8], 74);
    }

    #[test]
    fn peers_are_twenty_distinct_cells_sharing_a_unit() {
        for (c, p) in PEERS.iter().enumerate() {
            assert!(p.windows(2).all(|w| w[0] < w[1]));
            for &o in p {
                let o = o as usize;
                assert_ne!(o, c, "a cell is not its own peer");
                assert!(row_of(o) == row_of(c) || col_of(o) == col_of(c) || box_of(o) == box_of(c));
            }
        }
        assert_eq!(&PEERS[0][..8], &[1, 2, 3, 4, 5, 6, 7, 8]);
    }

    #[test]
    fn round_trip_line() {
        let line =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
        assert_eq!(Grid::parse(line).unwrap().to_line(), line);
        assert_eq!(Grid::parse(line).unwrap().clues(), 21);
    }

    #[test]
    fn clues_count_the_givens() {
        assert_eq!(Grid::EMPTY.clues(), 0);
        assert_eq!(Grid::from_cells([9; 81]).unwrap().clues(), 81);
        let mut g = Grid::EMPTY;
        for (n, cell) in [0, 40, 80, 17].into_iter().enumerate() {
            g.set(cell, 1 + n as u8);
            assert_eq!(g.clues(), n + 1);
        }
    }
}
