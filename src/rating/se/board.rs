//! The candidate grid the rater works on, in Sudoku Explainer's terms.
//!
//! A [`Board`] holds each cell's value (0 = empty) and its candidates (SE's
//! "potential values"). Cells are numbered row-major, 0..81, as everywhere in
//! sudoflow. Candidates are a `u16` per cell with bit `v` set when digit `v`
//! (1..=9) is still possible; bit 0 and bits 10-15 stay clear, and a filled
//! cell has no candidates.
//!
//! Regions (SE's word for units) are numbered the way SE iterates them, since
//! the order decides which hint is found first: region types in SE's order
//! block, row, column, so
//!
//! ```text
//! region  0..9   blocks, row-major (block 0 top-left, block 2 top-right)
//! region  9..18  rows 0..9
//! region 18..27  columns 0..9
//! ```
//!
//! and the cells of a region in SE's index order: a row left to right, a
//! column top to bottom, a block row-major. A region's *positions* of a digit
//! are a 9-bit mask over those indices.

use crate::grid::Grid;

/// Region types in SE's iteration order (`Grid.getRegionTypes()`).
pub const BLOCK: usize = 0;
/// See [`BLOCK`].
pub const ROW: usize = 1;
/// See [`BLOCK`].
pub const COLUMN: usize = 2;

/// `REGION_CELLS[r][k]`: cell of index `k` (0..9) in region `r` (0..27).
pub const REGION_CELLS: [[u8; 9]; 27] = {
    let mut t = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut k = 0;
        while k < 9 {
            let (bv, bh) = (i / 3, i % 3);
            t[i][k] = ((bv * 3 + k / 3) * 9 + bh * 3 + k % 3) as u8;
            t[9 + i][k] = (i * 9 + k) as u8;
            t[18 + i][k] = (k * 9 + i) as u8;
            k += 1;
        }
        i += 1;
    }
    t
};

/// `CELL_REGIONS[c]`: the block, row and column (region numbers) of cell `c`.
pub const CELL_REGIONS: [[u8; 3]; 81] = {
    let mut t = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let (y, x) = (c / 9, c % 9);
        t[c] = [((y / 3) * 3 + x / 3) as u8, (9 + y) as u8, (18 + x) as u8];
        c += 1;
    }
    t
};

/// `INDEX_IN[c][t]`: index of cell `c` within its region of type `t`.
pub const INDEX_IN: [[u8; 3]; 81] = {
    let mut t = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let (y, x) = (c / 9, c % 9);
        t[c] = [((y % 3) * 3 + x % 3) as u8, x as u8, y as u8];
        c += 1;
    }
    t
};

/// `pos[r][v]` of [`Board`] from the candidates: per digit, its cells as
/// an 81-bit set row-major (a row's positions are 9 consecutive bits, a
/// block's three runs of 3) and column-major (a column's are 9 consecutive
/// bits), cut into regions.
fn positions_of(cands: &[u16; 81]) -> [[u16; 10]; 27] {
    let mut by_row = [0u128; 10];
    let mut by_col = [0u128; 10];
    for (c, &m) in cands.iter().enumerate() {
        let (y, x) = (c / 9, c % 9);
        let mut m = m;
        while m != 0 {
            let v = m.trailing_zeros() as usize;
            m &= m - 1;
            by_row[v] |= 1u128 << c;
            by_col[v] |= 1u128 << (x * 9 + y);
        }
    }
    let mut pos = [[0u16; 10]; 27];
    for v in 1..10 {
        let (m, t) = (by_row[v], by_col[v]);
        for i in 0..9 {
            pos[9 + i][v] = (m >> (9 * i)) as u16 & 0x1ff;
            pos[18 + i][v] = (t >> (9 * i)) as u16 & 0x1ff;
            let s = 27 * (i / 3) + 3 * (i % 3);
            pos[i][v] = ((m >> s) as u16 & 7)
                | ((m >> (s + 9)) as u16 & 7) << 3
                | ((m >> (s + 18)) as u16 & 7) << 6;
        }
    }
    pos
}

/// `HOUSE[c]`: the 20 peers of cell `c` in SE's `Cell.getHouseCells()` order:
/// the block's cells, then the row's, then the column's, each once.
pub const HOUSE: [[u8; 20]; 81] = {
    let mut t = [[0u8; 20]; 81];
    let mut c = 0;
    while c < 81 {
        let mut n = 0;
        let mut seen = [false; 81];
        seen[c] = true;
        let mut ty = 0;
        while ty < 3 {
            let r = CELL_REGIONS[c][ty] as usize;
            let mut k = 0;
            while k < 9 {
                let o = REGION_CELLS[r][k] as usize;
                if !seen[o] {
                    seen[o] = true;
                    t[c][n] = o as u8;
                    n += 1;
                }
                k += 1;
            }
            ty += 1;
        }
        c += 1;
    }
    t
};

/// `CELL_BIT[c]`: cell `c` as an 81-bit set: one load, where shifting a
/// `u128` by a variable takes several instructions (hot searches test and
/// set cells in sets this way).
pub const CELL_BIT: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut c = 0;
    while c < 81 {
        t[c] = 1 << c;
        c += 1;
    }
    t
};

/// `PEER_MASK[c]`: the 20 peers of cell `c` as an 81-bit set (bit = cell).
pub const PEER_MASK: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut c = 0;
    while c < 81 {
        let mut k = 0;
        while k < 20 {
            t[c] |= 1u128 << HOUSE[c][k];
            k += 1;
        }
        c += 1;
    }
    t
};

/// `REGION_MASK[r]`: the cells of region `r` as an 81-bit set.
pub const REGION_MASK: [u128; 27] = {
    let mut t = [0u128; 27];
    let mut r = 0;
    while r < 27 {
        let mut k = 0;
        while k < 9 {
            t[r] |= 1u128 << REGION_CELLS[r][k];
            k += 1;
        }
        r += 1;
    }
    t
};

/// Whether two regions share a cell (SE's `Region.crosses`).
#[inline]
pub fn crosses(r1: usize, r2: usize) -> bool {
    REGION_MASK[r1] & REGION_MASK[r2] != 0
}

/// Bit of digit `v` (1..=9) in a candidate mask.
#[inline]
pub const fn bit(v: u8) -> u16 {
    1 << v
}

/// `CARD[m]`: number of set bits of a 10-bit mask (candidates use bits
/// 1..=9, positions bits 0..=8). A table because the portable build has no
/// popcount instruction and counting is the rater's most common operation.
const CARD: [u8; 1024] = {
    let mut t = [0u8; 1024];
    let mut m = 0;
    while m < 1024 {
        t[m] = (m as u32).count_ones() as u8;
        m += 1;
    }
    t
};

/// Number of candidates (or positions) in a mask.
pub trait Card {
    /// The number of set bits.
    fn card(self) -> u32;
}

impl Card for u16 {
    #[inline]
    fn card(self) -> u32 {
        debug_assert!(self < 1024);
        u32::from(CARD[usize::from(self & 0x3ff)])
    }
}

/// Whether an 81-bit cell set has exactly two cells.
#[inline]
pub fn is_two(m: u128) -> bool {
    let rest = m & m.wrapping_sub(1);
    rest != 0 && rest & rest.wrapping_sub(1) == 0
}

/// The digits of a candidate mask, ascending.
#[inline]
pub fn digits(mask: u16) -> impl Iterator<Item = u8> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let v = m.trailing_zeros() as u8;
            m &= m - 1;
            Some(v)
        }
    })
}

/// The cells of an 81-bit cell set, ascending.
#[inline]
pub fn cells_of(mut m: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            c
        })
    })
}

/// The set bits of a 9-bit position mask, ascending.
#[inline]
pub fn indices(mask: u16) -> impl Iterator<Item = usize> {
    digits(mask).map(usize::from)
}

/// Values and candidates of the 81 cells: SE's `Grid` with its potential
/// values (see the module doc for the bit layout), plus each region's
/// positions of each digit and number of empty cells, kept in step by
/// [`Board::remove`] and [`Board::place`] so that the techniques read them
/// in one load.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// Cell values, row-major: 0 empty, 1..=9 placed.
    pub(crate) values: [u8; 81],
    /// Candidates per cell: bit `v` for digit `v`; 0 for a filled cell.
    pub(crate) cands: [u16; 81],
    /// `pos[r][v]`: positions of digit `v` in region `r` (9-bit).
    pos: [[u16; 10]; 27],
    /// Empty cells per region.
    empty: [u8; 27],
    /// Cells holding each value (index 0: empty cells).
    placed: [u8; 10],
}

impl Board {
    /// The board SE rates: the givens placed, every empty cell given all
    /// digits not already placed in its row, column or block (SE's
    /// `rebuildPotentialValues`). Clashing givens are not checked here.
    pub fn new(puzzle: &Grid) -> Board {
        Board::placed_and_open(*puzzle.cells(), &[0x3fe; 81])
    }

    /// `values` placed, every empty cell given its candidates in `open`
    /// less the digits placed in its row, column or block.
    fn placed_and_open(values: [u8; 81], open: &[u16; 81]) -> Board {
        let mut cands = [0u16; 81];
        for (c, cand) in cands.iter_mut().enumerate() {
            if values[c] == 0 {
                *cand = open[c];
            }
        }
        for region in &REGION_CELLS {
            let mut seen = 0u16;
            for &c in region {
                seen |= bit(values[c as usize]) & 0x3fe;
            }
            for &c in region {
                cands[c as usize] &= !seen;
            }
        }
        Board::from_parts(values, cands)
    }

    /// The board of a puzzle given by its candidates ([`Pencilmarks`],
    /// tdoku's `-p` lines): a cell with one candidate is placed, as a given
    /// is (the solver takes it so too); every other cell keeps the
    /// candidates given, less the digits placed in its row, column or block
    /// (what SE's `rebuildPotentialValues` would remove). The pencilmarks of
    /// a puzzle's givens with full blanks give [`Board::new`]'s board.
    ///
    /// [`Pencilmarks`]: crate::grid::Pencilmarks
    pub fn from_pencilmarks(pencilmarks: &crate::grid::Pencilmarks) -> Board {
        Board::placed_and_open(*pencilmarks.singles().cells(), pencilmarks.masks())
    }

    /// A board with these values and candidates (taken as they are).
    pub fn from_parts(values: [u8; 81], cands: [u16; 81]) -> Board {
        let mut empty = [0u8; 27];
        let mut placed = [0u8; 10];
        for (c, &v) in values.iter().enumerate() {
            placed[v as usize] += 1;
            if v == 0 {
                for &r in &CELL_REGIONS[c] {
                    empty[r as usize] += 1;
                }
            }
        }
        Board {
            values,
            cands,
            pos: positions_of(&cands),
            empty,
            placed,
        }
    }

    /// Cell values, row-major: 0 empty, 1..=9 placed.
    pub fn values(&self) -> &[u8; 81] {
        &self.values
    }

    /// Candidates per cell: bit `v` for digit `v`; 0 for a filled cell.
    pub fn candidates(&self) -> &[u16; 81] {
        &self.cands
    }

    /// Removes the candidates `mask` from `cell`; whether any was there.
    #[inline]
    pub fn remove(&mut self, cell: usize, mask: u16) -> bool {
        let gone = self.cands[cell] & mask;
        if gone == 0 {
            return false;
        }
        self.cands[cell] &= !mask;
        for (t, &r) in CELL_REGIONS[cell].iter().enumerate() {
            let k = !(1u16 << INDEX_IN[cell][t]);
            for v in digits(gone) {
                self.pos[r as usize][v as usize] &= k;
            }
        }
        true
    }

    /// Whether every cell holds a value.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Positions of digit `v` in region `r`: bit `k` when the region's cell of
    /// index `k` has `v` as a candidate.
    #[inline]
    pub fn positions(&self, r: usize, v: u8) -> u16 {
        self.pos[r][v as usize]
    }

    /// Number of empty cells in region `r`.
    #[inline]
    pub fn empty_count(&self, r: usize) -> u32 {
        u32::from(self.empty[r])
    }

    /// Places `v` in `cell` and removes `v` from the candidates of the cell's
    /// block, row and column (SE's `setValueAndCancel`); whether the board
    /// changed.
    pub fn place(&mut self, cell: usize, v: u8) -> bool {
        let mut changed = self.values[cell] != v;
        if self.values[cell] == 0 {
            for &r in &CELL_REGIONS[cell] {
                self.empty[r as usize] -= 1;
            }
        }
        self.placed[self.values[cell] as usize] -= 1;
        self.placed[v as usize] += 1;
        self.values[cell] = v;
        changed |= self.remove(cell, 0x3fe);
        // The peers still holding v, region by region (a cell in two of
        // the regions loses v in the first).
        for &r in &CELL_REGIONS[cell] {
            let mut holding = self.pos[r as usize][v as usize];
            while holding != 0 {
                let k = holding.trailing_zeros() as usize;
                holding &= holding - 1;
                changed |= self.remove(REGION_CELLS[r as usize][k] as usize, bit(v));
            }
        }
        changed
    }

    /// `positions(r, v)` of every region `r` and digit `v`, as one table
    /// (index 0 of each region unused).
    #[inline]
    pub(crate) fn all_positions(&self) -> &[[u16; 10]; 27] {
        &self.pos
    }

    /// The cells that hold candidate `v`, as an 81-bit set.
    pub fn cells_with(&self, v: u8) -> u128 {
        let b = bit(v);
        let mut m = 0u128;
        for c in 0..81 {
            if self.cands[c] & b != 0 {
                m |= 1 << c;
            }
        }
        m
    }

    /// Number of cells holding value `v` (SE's `getCountOccurancesOfValue`).
    #[inline]
    pub fn occurrences(&self, v: u8) -> u32 {
        u32::from(self.placed[v as usize])
    }
}

/// The `k`-subsets of `0..n` as bit masks, in increasing numeric order: SE's
/// `Permutations(k, n)` (Gosper's hack), whose order decides which of several
/// hints is found first. `k = 0` yields the empty set once; `n = 0` nothing.
pub struct Combinations {
    value: u64,
    mask: u64,
    done: bool,
}

impl Combinations {
    /// All `k`-subsets of `0..n`; `k <= n <= 63`.
    pub fn new(k: usize, n: usize) -> Combinations {
        debug_assert!(k <= n && n < 64);
        Combinations {
            value: (1u64 << k) - 1,
            mask: (1u64 << (n - k)) - 1,
            done: n == 0,
        }
    }
}

impl Iterator for Combinations {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        if self.done {
            return None;
        }
        let v = self.value;
        let smallest = v & v.wrapping_neg();
        if smallest & self.mask == 0 {
            self.done = true;
        } else {
            let ripple = v + smallest;
            // `smallest` is a power of two: a shift, not a division.
            let ones = ((v ^ ripple) >> 2) >> smallest.trailing_zeros();
            self.value = ripple | ones;
        }
        Some(v)
    }
}

/// The `k`-subsets of the set bits of `eligible` (a 9-bit mask), as masks
/// over the same 9 bits, in increasing numeric order: the order SE's
/// `Permutations(k, 9)` meets them in, skipping the subsets that hold an
/// element outside `eligible`. A technique whose sets can only be made of
/// eligible elements finds the same first one, faster.
pub fn subsets_of(eligible: u16, k: usize) -> impl Iterator<Item = u16> {
    let mut at = [0u8; 9];
    let mut n = 0;
    for i in 0..9 {
        if eligible >> i & 1 != 0 {
            at[n] = i as u8;
            n += 1;
        }
    }
    let combos = if k <= n {
        Some(Combinations::new(k, n))
    } else {
        None
    };
    combos.into_iter().flatten().map(move |compact| {
        let mut mask = 0u16;
        for i in bit_nums(compact) {
            mask |= 1 << at[i];
        }
        mask
    })
}

/// The set bit indices of a combination mask, ascending (SE's `nextBitNums`).
#[inline]
pub fn bit_nums(mask: u64) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(i)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_each_regions_cells_with_the_digit() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            let mut cands = [0u16; 81];
            for c in &mut cands {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *c = (seed >> 40) as u16 & 0x3fe;
            }
            let pos = positions_of(&cands);
            for r in 0..27 {
                for v in 1..10u8 {
                    let want = (0..9)
                        .filter(|&k| cands[REGION_CELLS[r][k] as usize] & bit(v) != 0)
                        .fold(0u16, |m, k| m | 1 << k);
                    assert_eq!(pos[r][v as usize], want, "region {r}, digit {v}");
                }
            }
        }
    }

    #[test]
    fn combinations_follow_gosper_order() {
        let all: Vec<u64> = Combinations::new(2, 4).collect();
        assert_eq!(all, vec![0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100]);
        assert_eq!(Combinations::new(0, 5).collect::<Vec<_>>(), vec![0]);
        assert_eq!(Combinations::new(0, 0).count(), 0);
        assert_eq!(Combinations::new(3, 9).count(), 84);
        assert_eq!(Combinations::new(9, 9).collect::<Vec<_>>(), vec![0x1ff]);
    }

    #[test]
    fn subsets_of_keep_the_full_enumeration_order() {
        for eligible in [0u16, 0b1_0110_1101, 0x1ff, 0b1_0000_0001] {
            for k in 1..=4 {
                let restricted: Vec<u16> = subsets_of(eligible, k).collect();
                let filtered: Vec<u16> = Combinations::new(k, 9)
                    .map(|m| m as u16)
                    .filter(|&m| m & !eligible == 0)
                    .collect();
                assert_eq!(restricted, filtered, "eligible {eligible:#b}, k {k}");
            }
        }
    }

    #[test]
    fn house_is_block_then_row_then_column() {
        // r1c1's house: its block (r1c2 r1c3 r2c1 ...), then r1c4..r1c9, then r4c1..r9c1.
        assert_eq!(&HOUSE[0][..8], &[1, 2, 9, 10, 11, 18, 19, 20]);
        assert_eq!(&HOUSE[0][8..14], &[3, 4, 5, 6, 7, 8]);
        assert_eq!(&HOUSE[0][14..], &[27, 36, 45, 54, 63, 72]);
        for (c, &peers) in PEER_MASK.iter().enumerate() {
            assert_eq!(peers.count_ones(), 20);
            assert_eq!(peers & (1 << c), 0);
        }
    }

    #[test]
    fn regions_index_their_cells() {
        for c in 0..81 {
            for t in 0..3 {
                let r = CELL_REGIONS[c][t] as usize;
                assert_eq!(REGION_CELLS[r][INDEX_IN[c][t] as usize] as usize, c);
            }
        }
        assert_eq!(REGION_CELLS[2], [6, 7, 8, 15, 16, 17, 24, 25, 26]);
    }
}
