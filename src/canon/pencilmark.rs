//! Canonical forms of puzzles given by their candidates ([`Pencilmarks`],
//! tdoku's 729-character `-p` lines).
//!
//! The group is the same as for 81-cell puzzles ([`super::group`]): a
//! position map moves whole cells, a relabelling renames the digits in every
//! cell's candidate set. The *minlex* form is the smallest 729-character
//! line (cell by cell, each cell's nine characters `1`..`9` or `.`, with `.`
//! sorting first) among all transforms of the puzzle; equivalent puzzles
//! have the same form, others different ones. A puzzle given by candidates
//! is a different thing from its givens: the form is that of the line, and
//! a pencilmark puzzle made of a puzzle's givens (one candidate) and blanks
//! (all nine) is not in the class of its 81-character line, but it has the
//! same automorphisms, and two such puzzles are equivalent exactly when
//! their 81-cell puzzles are (the tests check both against
//! [`super::Canonicalizer`]).
//!
//! # Method
//!
//! *Labels.* For a fixed position map the best relabelling needs no search:
//! the first cell's line is smallest when its candidates get the highest
//! labels (`.` first), in any order among themselves; each later cell
//! splits every group of labels still interchangeable into the digits it
//! lacks (lower labels) and those it has (higher), the order of the earlier
//! cells' groups staying put. That is a refinement of an ordered partition
//! of the digits, one pass of nine digits per cell, with one value per cell
//! and no branching. The digits still in one group at the end can be
//! permuted freely: a group of `n` gives `n!` relabellings, all reaching the
//! form.
//!
//! *Positions.* Depth first over transposition, the 1,296 column orders,
//! then the rows as [`super::Canonicalizer`] picks them (a band's first row
//! from any band left, the next two from the same band), each cell compared
//! with the best line found so far as soon as it is written: a larger value
//! stops the branch, a smaller one makes it the best (the maps counted for
//! the old one are dropped), and a complete line equal to the best adds its
//! relabellings to the automorphism count. Memory is a fixed few hundred
//! bytes, and a table of the distinct puzzles the column orders give:
//! column orders that give the same puzzle (columns holding the same
//! candidates in every row, e.g. full ones) are searched once and counted
//! for each. Time is at least the 23,328 first rows (about 3 ms for the
//! pencilmarks of a 17-clue puzzle), more for puzzles whose rows tie often.

use super::group::factorial;
use super::minlex::COLUMN_ORDERS;
use crate::grid::Pencilmarks;

/// The minlex form of a [`Pencilmarks`] puzzle and its automorphism count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PencilmarkCanonical {
    /// The canonical puzzle (candidates by label, bit layout as in
    /// [`Pencilmarks`]).
    pub pencilmarks: Pencilmarks,
    /// Number of group elements (position map and relabelling) mapping the
    /// puzzle to itself, 1 to 1,218,998,108,160 (every cell holding the
    /// same candidates); divides [`super::group::GROUP_ORDER`].
    pub automorphisms: u64,
}

impl PencilmarkCanonical {
    /// The form's 729 characters (see [`Pencilmarks::to_line`]).
    pub fn to_line(&self) -> String {
        self.pencilmarks.to_line()
    }

    /// A 128-bit digest (XXH3-128) of [`PencilmarkCanonical::to_line`]: see
    /// [`super::Canonical::digest`]. A 729-byte line never has the digest
    /// of an 81-character form but by a 2^-128 accident.
    pub fn digest(&self) -> u128 {
        super::line_digest(self.to_line().as_bytes())
    }
}

/// Which labels the digits hold: `start[d - 1]` is the first label position
/// (0..9) of the group of interchangeable digits that digit `d` is in;
/// the group's size is how many digits share that start.
type Partition = [u8; 9];

/// Refines `part` by a cell's candidates `mask` (bit `d` for digit `d`):
/// returns the cell's value and the refined partition. The value's bit
/// `8 - p` is set when label position `p` (label `p + 1`) is a candidate, so
/// a smaller value is a smaller 9-character line ('.' before a digit).
#[inline]
fn refine(part: &Partition, mask: u16) -> (u16, Partition) {
    let mut size = [0u8; 9];
    let mut inside = [0u8; 9];
    for (d, &s) in part.iter().enumerate() {
        size[usize::from(s)] += 1;
        inside[usize::from(s)] += ((mask >> (d + 1)) & 1) as u8;
    }
    let mut value = 0u16;
    for a in 0..9 {
        let (n, m) = (u16::from(size[a]), u16::from(inside[a]));
        if m != 0 {
            value |= ((1 << m) - 1) << (9 - a as u16 - n);
        }
    }
    let mut next = *part;
    for (d, s) in next.iter_mut().enumerate() {
        if (mask >> (d + 1)) & 1 != 0 {
            let a = usize::from(*s);
            *s += size[a] - inside[a];
        }
    }
    (value, next)
}

/// Relabellings a final partition allows: the product of its groups'
/// factorials.
fn relabellings(part: &Partition) -> u64 {
    let mut size = [0u32; 9];
    for &s in part {
        size[usize::from(s)] += 1;
    }
    size.iter().map(|&n| factorial(n)).product()
}

/// Computes minlex forms of pencilmark puzzles (see the module doc),
/// reusing its tables across puzzles.
#[derive(Debug)]
pub struct PencilmarkCanonicalizer {
    /// The candidates of each cell in each view: `views[0][r][c]` is cell
    /// `(r, c)`, `views[1][r][c]` cell `(c, r)`.
    views: [[[u16; 9]; 9]; 2],
    /// The current view's rows with the current column order applied.
    rows: [[u16; 9]; 9],
    /// The smallest line so far, as cell values (see [`refine`]);
    /// `u16::MAX` past a position where a branch went below it.
    best: [u16; 81],
    /// Group elements counted for the best line.
    maps: u64,
    /// Column orders giving the same rows as the one searched (searched
    /// once, counted this many times).
    weight: u64,
    /// The distinct column-permuted puzzles of a view, with how many column
    /// orders give each.
    distinct: std::collections::HashMap<[u16; 81], u64>,
}

impl Default for PencilmarkCanonicalizer {
    fn default() -> Self {
        PencilmarkCanonicalizer {
            views: [[[0; 9]; 9]; 2],
            rows: [[0; 9]; 9],
            best: [u16::MAX; 81],
            maps: 0,
            weight: 1,
            distinct: std::collections::HashMap::new(),
        }
    }
}

impl PencilmarkCanonicalizer {
    /// A canonicalizer with empty buffers.
    pub fn new() -> PencilmarkCanonicalizer {
        PencilmarkCanonicalizer::default()
    }

    /// The minlex form of `puzzle` and its automorphism count. Any
    /// candidates are accepted (cells with none, clashing singles): the
    /// form is that of the line as given.
    pub fn canonicalize(&mut self, puzzle: &Pencilmarks) -> PencilmarkCanonical {
        let masks = puzzle.masks();
        for r in 0..9 {
            for c in 0..9 {
                self.views[0][r][c] = masks[9 * r + c] & 0x3fe;
                self.views[1][r][c] = masks[9 * c + r] & 0x3fe;
            }
        }
        self.best = [u16::MAX; 81];
        self.maps = 0;
        for view in 0..2 {
            // Column orders that give the same puzzle (columns with the same
            // candidates in every row) give the same search: it runs once,
            // its maps counted for each.
            let mut distinct = std::mem::take(&mut self.distinct);
            distinct.clear();
            for order in COLUMN_ORDERS.iter() {
                let mut moved = [0u16; 81];
                for r in 0..9 {
                    for p in 0..9 {
                        moved[9 * r + p] = self.views[view][r][usize::from(order[p])];
                    }
                }
                *distinct.entry(moved).or_insert(0) += 1;
            }
            for (moved, &weight) in &distinct {
                for r in 0..9 {
                    self.rows[r].copy_from_slice(&moved[9 * r..9 * r + 9]);
                }
                self.weight = weight;
                self.level(0, 0b111, 0, &[0; 9]);
            }
            self.distinct = distinct;
        }
        let mut out = [0u16; 81];
        for (m, &v) in out.iter_mut().zip(&self.best) {
            for p in 0..9 {
                if v >> (8 - p) & 1 != 0 {
                    *m |= 1 << (p + 1);
                }
            }
        }
        PencilmarkCanonical {
            pencilmarks: Pencilmarks::from_masks(out),
            automorphisms: self.maps,
        }
    }

    /// Result row `k` from the rows allowed (`bands_left`, `rows_left` as in
    /// [`super::Canonicalizer`]), then the rows after it.
    fn level(&mut self, k: usize, bands_left: u8, rows_left: u16, part: &Partition) {
        if k == 9 {
            self.maps += self.weight * relabellings(part);
            return;
        }
        if k.is_multiple_of(3) {
            for b in 0..3 {
                if bands_left & 1 << b == 0 {
                    continue;
                }
                for r in 3 * b..3 * b + 3 {
                    let left = (0b111 << (3 * b)) & !(1 << r);
                    self.row(k, r, bands_left & !(1 << b), left, part);
                }
            }
        } else {
            let mut left = rows_left;
            while left != 0 {
                let r = left.trailing_zeros() as usize;
                left &= left - 1;
                self.row(k, r, bands_left, rows_left & !(1 << r), part);
            }
        }
    }

    /// Source row `r` as result row `k`, compared cell by cell with the best.
    fn row(&mut self, k: usize, r: usize, bands_left: u8, rows_left: u16, part: &Partition) {
        let mut part = *part;
        for p in 0..9 {
            let (v, next) = refine(&part, self.rows[r][p]);
            let i = 9 * k + p;
            let b = self.best[i];
            if v > b {
                return;
            }
            if v < b {
                self.best[i] = v;
                self.best[i + 1..].fill(u16::MAX);
                self.maps = 0;
            }
            part = next;
        }
        self.level(k + 1, bands_left, rows_left, &part);
    }
}

/// The minlex form of one pencilmark puzzle (a shortcut;
/// [`PencilmarkCanonicalizer`] reuses its tables).
pub fn canonical_pencilmarks(puzzle: &Pencilmarks) -> PencilmarkCanonical {
    PencilmarkCanonicalizer::new().canonicalize(puzzle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::{canonical, group};
    use crate::grid::transform::Transform;
    use crate::grid::Grid;
    use rand::{Rng, SeedableRng};

    /// `t` applied to candidates: cell `c` takes the candidates of its
    /// source cell, each digit renamed.
    fn apply(t: &Transform, pm: &Pencilmarks) -> Pencilmarks {
        let mut masks = [0u16; 81];
        for (c, m) in masks.iter_mut().enumerate() {
            let src = pm.masks()[t.source_cell(c)];
            for d in 1..=9 {
                if src & 1 << d != 0 {
                    *m |= 1 << t.digits[d];
                }
            }
        }
        Pencilmarks::from_masks(masks)
    }

    /// Random candidates: each cell full, a single, or a random set, with
    /// a bias drawn per puzzle so that sparse and dense lines come up.
    fn random_pencilmarks(rng: &mut impl Rng) -> Pencilmarks {
        let full_share = rng.gen_range(0..100);
        let mut masks = [0u16; 81];
        for m in &mut masks {
            let x = rng.gen_range(0..100);
            *m = if x < full_share {
                0x3fe
            } else if x % 2 == 0 {
                1 << rng.gen_range(1..=9)
            } else {
                rng.gen_range(0..512u16) << 1
            };
        }
        Pencilmarks::from_masks(masks)
    }

    fn puzzle_17() -> Grid {
        Grid::parse(
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
        )
        .unwrap()
    }

    #[test]
    fn transformed_puzzles_have_the_same_form() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(729);
        let mut canon = PencilmarkCanonicalizer::new();
        for _ in 0..12 {
            let pm = random_pencilmarks(&mut rng);
            let a = canon.canonicalize(&pm);
            let t = group::random(&mut rng);
            assert_eq!(canon.canonicalize(&apply(&t, &pm)), a, "{pm:?}");
            // A fixed point, and its count divides the group's order.
            assert_eq!(canon.canonicalize(&a.pencilmarks), a);
            assert_eq!(group::GROUP_ORDER % a.automorphisms, 0);
            // No greater than the line itself.
            assert!(a.to_line().as_bytes() <= pm.to_line().as_bytes());
        }
    }

    /// A puzzle's candidates as its givens and full blanks have the
    /// automorphisms [`super::super::Canonicalizer`] finds (an independent
    /// search, checked by brute force), and equivalent puzzles' candidates
    /// have one form, inequivalent ones different forms.
    #[test]
    fn agrees_with_the_form_of_givens() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(81);
        let mut canon = PencilmarkCanonicalizer::new();
        let mut cases = vec![puzzle_17(), Grid::EMPTY];
        let mut one = Grid::EMPTY;
        one.set(0, 5);
        cases.push(one);
        let mut by_form = std::collections::HashMap::new();
        for (a, b, d) in [
            (0, 1, 2),
            (0, 9, 2),
            (0, 10, 2),
            (0, 4, 2),
            (0, 40, 2),
            (0, 40, 1),
        ] {
            let mut g = Grid::EMPTY;
            g.set(a, 1);
            g.set(b, d);
            cases.push(g);
        }
        for p in cases {
            let t = group::random(&mut rng);
            let q = t.apply(&p);
            let form = canon.canonicalize(&Pencilmarks::of_grid(&p));
            assert_eq!(form.automorphisms, canonical(&p).automorphisms, "{p}");
            assert_eq!(canon.canonicalize(&Pencilmarks::of_grid(&q)), form, "{p}");
            // One pencilmark form per class of givens, and back.
            assert_eq!(*by_form.entry(form).or_insert(canonical(&p)), canonical(&p));
        }
        // (0,1,2) and (0,9,2) are one class (transposes): 8 classes.
        assert_eq!(by_form.len(), 8);
    }

    #[test]
    fn known_counts() {
        let full = Pencilmarks::from_masks([0x3fe; 81]);
        let c = canonical_pencilmarks(&full);
        assert_eq!(c.automorphisms, group::GROUP_ORDER);
        assert_eq!(c.pencilmarks, full);
        // No candidate anywhere: the same, written '.'.
        let none = Pencilmarks::from_masks([0; 81]);
        assert_eq!(
            canonical_pencilmarks(&none).automorphisms,
            group::GROUP_ORDER
        );
        // One candidate removed from one cell: position maps fixing the cell
        // (2 x 2^2 x 2^2 x ... ) times relabellings of the other 8 digits.
        let mut masks = [0x3fe; 81];
        masks[0] &= !(1 << 5);
        let c = canonical_pencilmarks(&Pencilmarks::from_masks(masks));
        let mut g = Grid::EMPTY;
        g.set(0, 5);
        assert_eq!(c.automorphisms, canonical(&g).automorphisms);
        // Its form: every full cell first would be larger; the cell lacking a
        // candidate comes first, lacking label 1.
        assert!(c.to_line().starts_with(".23456789123456789"));
    }
}
