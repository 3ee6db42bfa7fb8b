//! Symmetries of the pattern of givens, and the orbits of cells they induce.
//!
//! A symmetry is a map of the 9x9 square onto itself; a puzzle "has" the
//! symmetry when a cell is a given exactly when its image is (the digits
//! themselves are free). Cells are numbered as in [`crate::grid`]: index
//! `9 * r + c`, row `r` and column `c` zero-based. The generator removes givens
//! one *orbit* at a time: an orbit is a cell together with all its images under
//! repeated application of the map (1, 2 or 4 cells), so the pattern keeps the
//! symmetry after every removal.

use crate::grid::Grid;

/// The symmetry the pattern of givens must have (`generate --symmetry`).
///
/// With `(r, c)` zero-based row and column, each variant maps a cell to:
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Symmetry {
    /// No constraint: every cell is its own orbit (81 orbits).
    #[default]
    None,
    /// Half-turn about the centre: `(8 - r, 8 - c)`; 40 pairs and the centre
    /// (41 orbits). The usual newspaper symmetry.
    Rot180,
    /// Quarter-turn about the centre: `(c, 8 - r)`; 20 orbits of 4 and the
    /// centre (21 orbits). Implies `rot180`.
    Rot90,
    /// Left-right mirror about the middle column: `(r, 8 - c)`; 36 pairs and
    /// the 9 cells of the middle column, c = 4 (45 orbits).
    Mirror,
    /// Top-bottom mirror about the middle row: `(8 - r, c)`; 36 pairs and the 9
    /// cells of the middle row, r = 4 (45 orbits).
    Flip,
    /// Reflection in the main diagonal r1c1-r9c9: `(c, r)`; 36 pairs and the 9
    /// diagonal cells (45 orbits).
    Diagonal,
    /// Reflection in the anti-diagonal r1c9-r9c1: `(8 - c, 8 - r)`; 36 pairs and
    /// the 9 anti-diagonal cells (45 orbits).
    Antidiagonal,
}

/// One orbit: 1 to 4 distinct cell indices (0..81), the first the smallest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Orbit {
    cells: [u8; 4],
    len: u8,
}

impl Orbit {
    /// The cells of the orbit (1, 2 or 4 cell indices, 0..81).
    #[inline]
    pub fn cells(&self) -> &[u8] {
        &self.cells[..self.len as usize]
    }

    /// Number of cells in the orbit.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Always false: an orbit holds at least its own cell.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Symmetry {
    /// Whether a puzzle with this symmetry can have `clues` givens: its
    /// givens are whole orbits, so under `rot90` (orbits of 4 and the
    /// centre) only 4k or 4k + 1; the other symmetries have orbits of 1 and
    /// 2 (or 1 only) and allow any count.
    pub fn allows_clues(self, clues: usize) -> bool {
        match self {
            Symmetry::Rot90 => clues % 4 <= 1,
            _ => true,
        }
    }

    /// The image of cell index `cell` (0..81) under one application of the map.
    pub fn image(self, cell: usize) -> usize {
        let (r, c) = (cell / 9, cell % 9);
        let (r2, c2) = match self {
            Symmetry::None => (r, c),
            Symmetry::Rot180 => (8 - r, 8 - c),
            Symmetry::Rot90 => (c, 8 - r),
            Symmetry::Mirror => (r, 8 - c),
            Symmetry::Flip => (8 - r, c),
            Symmetry::Diagonal => (c, r),
            Symmetry::Antidiagonal => (8 - c, 8 - r),
        };
        r2 * 9 + c2
    }

    /// The orbits partitioning the 81 cells, in order of their smallest cell.
    pub fn orbits(self) -> Vec<Orbit> {
        let mut seen = [false; 81];
        let mut orbits = Vec::new();
        for start in 0..81 {
            if seen[start] {
                continue;
            }
            let mut orbit = Orbit {
                cells: [0; 4],
                len: 0,
            };
            let mut cell = start;
            loop {
                seen[cell] = true;
                orbit.cells[orbit.len as usize] = cell as u8;
                orbit.len += 1;
                cell = self.image(cell);
                if cell == start {
                    break;
                }
            }
            orbits.push(orbit);
        }
        orbits
    }

    /// True when `puzzle`'s pattern of givens has this symmetry: every cell is
    /// a given exactly when its image is.
    pub fn matches(self, puzzle: &Grid) -> bool {
        (0..81).all(|c| (puzzle.get(c) != 0) == (puzzle.get(self.image(c)) != 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "cli")]
    use clap::ValueEnum;

    #[test]
    fn orbits_partition_the_grid_with_the_expected_counts() {
        let expected = [
            (Symmetry::None, 81),
            (Symmetry::Rot180, 41),
            (Symmetry::Rot90, 21),
            (Symmetry::Mirror, 45),
            (Symmetry::Flip, 45),
            (Symmetry::Diagonal, 45),
            (Symmetry::Antidiagonal, 45),
        ];
        #[cfg(feature = "cli")]
        assert_eq!(expected.len(), Symmetry::value_variants().len());
        for (sym, count) in expected {
            let orbits = sym.orbits();
            assert_eq!(orbits.len(), count, "{sym:?}");
            let mut seen = [0u8; 81];
            for o in &orbits {
                for &c in o.cells() {
                    seen[c as usize] += 1;
                    // Each orbit is closed under the map.
                    assert!(o.cells().contains(&(sym.image(c as usize) as u8)));
                }
            }
            assert!(seen.iter().all(|&n| n == 1), "{sym:?}");
        }
    }

    #[test]
    fn images_of_named_cells() {
        // r1c2 (index 1) under each map.
        assert_eq!(Symmetry::Rot180.image(1), 79); // r9c8
        assert_eq!(Symmetry::Rot90.image(1), 17); // r2c9
        assert_eq!(Symmetry::Mirror.image(1), 7); // r1c8
        assert_eq!(Symmetry::Flip.image(1), 73); // r9c2
        assert_eq!(Symmetry::Diagonal.image(1), 9); // r2c1
        assert_eq!(Symmetry::Antidiagonal.image(1), 71); // r8c9
    }

    #[test]
    fn matches_detects_a_broken_pattern() {
        let mut g = Grid::EMPTY;
        g.set(0, 5);
        assert!(Symmetry::None.matches(&g));
        assert!(!Symmetry::Rot180.matches(&g));
        g.set(80, 3);
        assert!(Symmetry::Rot180.matches(&g));
        assert!(!Symmetry::Rot90.matches(&g));
        assert!(!Symmetry::Mirror.matches(&g));
        assert!(Symmetry::Diagonal.matches(&g));
    }
}
