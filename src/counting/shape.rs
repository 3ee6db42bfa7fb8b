//! What [`grids`](super::grids) and its top-band check (`top_band`) share:
//! box shapes, the errors of counting them, the packing of column-set keys
//! ([`Layout`]), the band table ([`Bands`]) and a union-find. Below both
//! modules, so that neither imports the other for these.

// Index loops mirror the notation (digit d, stack s, row i) of the method.
#![allow(clippy::needless_range_loop)]

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

/// Largest grid side handled (digit and row sets are `u16` bit masks).
pub const MAX_SIDE: usize = 16;

/// A box shape: `rows` x `cols` cells per box; the grid side is `rows * cols`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoxShape {
    /// Rows per box (also the number of stacks).
    pub rows: usize,
    /// Columns per box (also the number of bands).
    pub cols: usize,
}

impl BoxShape {
    /// The classic 9x9 Sudoku shape.
    pub const CLASSIC: BoxShape = BoxShape { rows: 3, cols: 3 };

    /// Grid side N = rows x cols (also the number of digits).
    pub fn side(&self) -> usize {
        self.rows * self.cols
    }

    /// The shape of the transposed grid (`cols` x `rows`), which has the same
    /// number of grids.
    pub fn transposed(&self) -> BoxShape {
        BoxShape {
            rows: self.cols,
            cols: self.rows,
        }
    }
}

impl fmt::Display for BoxShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for BoxShape {
    type Err = String;

    /// Parses `RxC` (e.g. `3x3`, `2x4`; `X` also accepted), both at least 1.
    fn from_str(s: &str) -> Result<BoxShape, String> {
        let bad = || format!("box shape {s:?}: expected RxC with R, C >= 1, e.g. 3x3 or 2x4");
        let (r, c) = s.split_once(['x', 'X']).ok_or_else(bad)?;
        let rows: usize = r.trim().parse().map_err(|_| bad())?;
        let cols: usize = c.trim().parse().map_err(|_| bad())?;
        if rows == 0 || cols == 0 {
            return Err(bad());
        }
        Ok(BoxShape { rows, cols })
    }
}

/// Why [`count_grids`](super::count_grids) could not count a shape.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CountGridsError {
    /// The shape is beyond what this implementation represents.
    #[error("box shape {shape}: {reason}")]
    Unsupported {
        /// The shape asked for.
        shape: BoxShape,
        /// What limit it exceeds.
        reason: String,
    },
    /// A count exceeded `u128`.
    #[error("box shape {0}: the count overflows u128")]
    Overflow(BoxShape),
    /// Two independent computations disagreed (a bug).
    #[error("box shape {shape}: internal check failed: {what}")]
    Check {
        /// The shape asked for.
        shape: BoxShape,
        /// Which figures disagreed.
        what: String,
    },
}

/// Figures from enumerating the top band directly (orientation
/// [`GridCount::counted_as`](super::GridCount::counted_as)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopBandFigures {
    /// Completions of the top band given the canonical first box (2,612,736).
    pub completions: u64,
    /// Of those, the lexicographically reduced ones: columns of each other
    /// stack increasing along the top row, those stacks ordered by their top
    /// row's first digit (36,288 = 2,612,736 / 72).
    pub reduced: u64,
    /// Classes of reduced top bands under stack and column permutations
    /// (re-relabelled and reduced): 2,051 for 9x9.
    pub classes_stack_column: usize,
    /// Classes when row permutations are added: 416 for 9x9.
    pub classes_with_rows: usize,
    /// Column-set classes the reduced top bands fall in: 44 for 9x9.
    pub column_set_classes: usize,
}

/// The oriented shape and the packing of column-set keys.
///
/// Key layout: digit tuples `(j_0, .., j_{R-1})` (`j_s` = the digit's column
/// inside stack `s`, 0-based) are numbered `cell = Σ_s j_s · C^s`, and the key
/// holds, in bits `[bits·cell, bits·cell + bits)`, how many digits have that
/// tuple (at most R, since stack 0's column `j_0` holds R digits). A key is
/// therefore `Σ_d 1 << (bits · cell_d)`.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    /// Grid side and number of digits.
    pub n: usize,
    /// Rows per box = rows per band = number of stacks.
    pub r: usize,
    /// Columns per box = columns per stack = number of bands.
    pub c: usize,
    /// Number of tuples, `C^R`.
    pub cells: usize,
    /// `pow[s] = C^s`.
    pub pow: [usize; MAX_SIDE],
    /// Bits per tuple count.
    pub bits: u32,
    /// `cell_cols[cell][s]`: the column (0..C) inside stack `s` of that tuple.
    pub cell_cols: Vec<[u8; MAX_SIDE]>,
}

impl Layout {
    pub(crate) fn new(shape: BoxShape) -> Result<Layout, CountGridsError> {
        let oriented = if shape.cols > shape.rows {
            shape.transposed()
        } else {
            shape
        };
        let (r, c) = (oriented.rows, oriented.cols);
        let n = r * c;
        let unsupported = |reason: String| CountGridsError::Unsupported { shape, reason };
        if n > MAX_SIDE {
            return Err(unsupported(format!(
                "grid side {n} is above the supported {MAX_SIDE}"
            )));
        }
        let bits = usize::BITS - r.leading_zeros();
        let cells = (0..r).try_fold(1usize, |acc, _| acc.checked_mul(c));
        match cells {
            Some(cells) if cells * bits as usize <= 128 => {}
            _ => {
                return Err(unsupported(format!(
                    "column-set keys of {c}^{r} tuples do not fit in 128 bits \
                     (and the enumeration would not finish)"
                )))
            }
        }
        let cells = cells.unwrap_or(0);
        let mut pow = [0usize; MAX_SIDE];
        let mut p = 1;
        for slot in pow.iter_mut().take(r) {
            *slot = p;
            p *= c;
        }
        let cell_cols = (0..cells)
            .map(|cell| {
                let mut cols = [0u8; MAX_SIDE];
                for s in 0..r {
                    cols[s] = ((cell / pow[s]) % c) as u8;
                }
                cols
            })
            .collect();
        Ok(Layout {
            n,
            r,
            c,
            cells,
            pow,
            bits,
            cell_cols,
        })
    }

    /// The shape as oriented for the method.
    pub(crate) fn shape(&self) -> BoxShape {
        BoxShape {
            rows: self.r,
            cols: self.c,
        }
    }

    /// Count of digits with tuple `cell` in `key`.
    #[inline]
    pub(crate) fn count(&self, key: u128, cell: usize) -> u32 {
        ((key >> (self.bits as usize * cell)) & ((1u128 << self.bits) - 1)) as u32
    }

    /// The key of a column-set vector given as each digit's column per stack
    /// (`cols[s][d]`, 0-based).
    #[inline]
    pub(crate) fn key_of(&self, cols: &[[u8; MAX_SIDE]; MAX_SIDE]) -> u128 {
        let mut key = 0u128;
        for d in 0..self.n {
            let mut cell = 0;
            for s in 0..self.r {
                cell += cols[s][d] as usize * self.pow[s];
            }
            key += 1u128 << (self.bits as usize * cell);
        }
        key
    }

    /// A concrete column-set vector for `key`: digits are handed out to the
    /// tuples in increasing tuple order; `cols[s][d]` = digit d's column in
    /// stack s.
    pub(crate) fn representative(&self, key: u128) -> [[u8; MAX_SIDE]; MAX_SIDE] {
        let mut cols = [[0u8; MAX_SIDE]; MAX_SIDE];
        let mut d = 0;
        for cell in 0..self.cells {
            for _ in 0..self.count(key, cell) {
                for s in 0..self.r {
                    cols[s][d] = self.cell_cols[cell][s];
                }
                d += 1;
            }
        }
        cols
    }

    /// The number of column-set vectors with this key: `N! / Π m_t!`.
    pub(crate) fn multiplicity(&self, key: u128) -> u128 {
        let mut m = factorial(self.n);
        for cell in 0..self.cells {
            m /= factorial(self.count(key, cell) as usize);
        }
        m
    }

    /// Applies a relabelling of tuples (`map[cell]` = new cell) to a key.
    pub(crate) fn map_key(&self, key: u128, map: &[usize]) -> u128 {
        let mut out = 0u128;
        for cell in 0..self.cells {
            let m = self.count(key, cell) as u128;
            out += m << (self.bits as usize * map[cell]);
        }
        out
    }
}

/// Hashes a column-set key for the `N_b` memo: the two halves folded and
/// multiplied by the 64-bit golden ratio, high bits folded back into the low
/// ones (the table indexes buckets by low bits). The memo is probed ~15
/// million times for 9x9; SipHash (std's default, DoS-resistant, which these
/// keys do not need) made that the largest cost.
#[derive(Default, Clone, Copy)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64((x as u64) ^ ((x >> 64) as u64).rotate_left(29));
    }
    fn write_u64(&mut self, x: u64) {
        let h = (self.0 ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 29);
    }
}

/// The `N_b` memo: key -> number of bands (keys with none are absent).
pub(crate) type BandMemo = HashMap<u128, u128, std::hash::BuildHasherDefault<KeyHasher>>;

/// `k!` as `u128` (k <= 16 here).
pub(crate) fn factorial(k: usize) -> u128 {
    (1..=k as u128).product()
}

/// A plain union-find over `0..n` (path halving, union by index).
pub(crate) struct UnionFind(Vec<usize>);

impl UnionFind {
    pub(crate) fn new(n: usize) -> UnionFind {
        UnionFind((0..n).collect())
    }
    pub(crate) fn find(&mut self, mut x: usize) -> usize {
        while self.0[x] != x {
            self.0[x] = self.0[self.0[x]];
            x = self.0[x];
        }
        x
    }
    pub(crate) fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.0[a.max(b)] = a.min(b);
        }
    }
    /// Number of classes.
    pub(crate) fn classes(&mut self) -> usize {
        (0..self.0.len()).filter(|&x| self.find(x) == x).count()
    }
}

/// The band counts of all keys with at least one band, and the class
/// structure of those keys.
pub(crate) struct Bands {
    pub(crate) lay: Layout,
    /// `N_b` of every key with at least one band.
    pub(crate) nb: BandMemo,
    /// Keys with at least one band, sorted.
    pub(crate) keys: Vec<u128>,
    /// Class (0-based, in order of first key) of each entry of `keys`.
    pub(crate) class_of: Vec<usize>,
    /// Number of classes.
    pub(crate) classes: usize,
}

impl Bands {
    /// The class of a key, if it has bands.
    pub(crate) fn class_of_key(&self, key: u128) -> Option<usize> {
        self.keys.binary_search(&key).ok().map(|i| self.class_of[i])
    }
}
