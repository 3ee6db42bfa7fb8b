//! Puzzles given by their candidates (pencilmarks): tdoku's `-p` format.
//!
//! A line of 729 characters: the 81 cells in row-major order, each as 9
//! characters, one per digit 1..=9 in order; character `k` (0-based) of a
//! cell is the digit `k + 1` when that digit is still possible in the cell,
//! `.` when it has been eliminated. `123456789` is a cell with every
//! candidate, `....5....` a cell holding 5, `.........` a cell with none
//! (the puzzle then has no solution).

use super::{cell_name, Grid};

/// Characters in a pencilmark line: 81 cells x 9 candidates.
pub const PENCILMARK_LEN: usize = 729;

/// A puzzle given by the candidates of each cell.
///
/// Bit layout of each of the 81 masks (row-major cells): bit `d` (1..=9)
/// set when digit `d` is a candidate of the cell; bit 0 and bits 10-15 are
/// always clear.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pencilmarks {
    masks: [u16; 81],
}

/// Why a 729-character field is not a pencilmark puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad character {ch:?} at position {position} ({cell}, candidate {digit}) of a pencilmark \
     puzzle: expected '{digit}' or '.'"
)]
pub struct PencilmarkError {
    /// The offending character.
    pub ch: char,
    /// 1-based position within the 729 characters.
    pub position: usize,
    /// The cell it belongs to, e.g. `r1c2`.
    pub cell: String,
    /// The candidate (1..=9) its position stands for.
    pub digit: u8,
}

impl Pencilmarks {
    /// Parses exactly 729 characters (see the module doc).
    ///
    /// Errors: `None` when `text` is not 729 bytes long (not this format);
    /// `Some(Err)` naming the first character that is neither its
    /// position's digit nor `.`.
    pub fn parse(text: &[u8]) -> Option<Result<Pencilmarks, PencilmarkError>> {
        if text.len() != PENCILMARK_LEN {
            return None;
        }
        let mut masks = [0u16; 81];
        for (i, &ch) in text.iter().enumerate() {
            let digit = (i % 9) as u8 + 1;
            if ch == b'0' + digit {
                masks[i / 9] |= 1 << digit;
            } else if ch != b'.' {
                // Name the whole character when it is not ASCII.
                let ch = std::str::from_utf8(&text[i..])
                    .ok()
                    .or_else(|| {
                        let end = (i + 4).min(text.len());
                        (i + 1..=end).find_map(|e| std::str::from_utf8(&text[i..e]).ok())
                    })
                    .and_then(|s| s.chars().next())
                    .unwrap_or(char::REPLACEMENT_CHARACTER);
                return Some(Err(PencilmarkError {
                    ch,
                    position: i + 1,
                    cell: cell_name(i / 9),
                    digit,
                }));
            }
        }
        Some(Ok(Pencilmarks { masks }))
    }

    /// The pencilmarks of a puzzle: a given's digit alone in its cell, every
    /// digit in a blank cell (no elimination by the givens).
    pub fn of_grid(grid: &Grid) -> Pencilmarks {
        let mut masks = [0u16; 81];
        for (mask, &v) in masks.iter_mut().zip(grid.cells()) {
            *mask = if v == 0 { 0b11_1111_1110 } else { 1 << v };
        }
        Pencilmarks { masks }
    }

    /// A puzzle with these candidates (bit layout in [`Pencilmarks`]; bits
    /// other than 1..=9 are dropped).
    pub fn from_masks(masks: [u16; 81]) -> Pencilmarks {
        Pencilmarks {
            masks: masks.map(|m| m & 0x3fe),
        }
    }

    /// The candidates of each cell (bit layout in [`Pencilmarks`]).
    #[inline]
    pub fn masks(&self) -> &[u16; 81] {
        &self.masks
    }

    /// The cells with exactly one candidate, as givens; every other cell
    /// blank.
    pub fn singles(&self) -> Grid {
        let mut cells = [0u8; 81];
        for (v, &m) in cells.iter_mut().zip(&self.masks) {
            if m.count_ones() == 1 {
                *v = m.trailing_zeros() as u8;
            }
        }
        Grid::from_cells(cells).expect("digits 1..=9")
    }

    /// The 729-character line (see the module doc).
    pub fn to_line(&self) -> String {
        let mut s = String::with_capacity(PENCILMARK_LEN);
        for &m in &self.masks {
            for d in 1..=9u8 {
                s.push(if m & 1 << d != 0 {
                    char::from(b'0' + d)
                } else {
                    '.'
                });
            }
        }
        s
    }
}

impl std::fmt::Debug for Pencilmarks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pencilmarks({})", self.to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_singles() {
        let p = Grid::parse(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        )
        .unwrap();
        let pm = Pencilmarks::of_grid(&p);
        let line = pm.to_line();
        assert_eq!(line.len(), PENCILMARK_LEN);
        assert_eq!(&line[..18], ".......8.123456789");
        assert_eq!(Pencilmarks::parse(line.as_bytes()), Some(Ok(pm)));
        assert_eq!(pm.singles(), p);
        assert_eq!(pm.masks()[0], 1 << 8);
    }

    #[test]
    fn bad_characters_name_cell_and_candidate() {
        let mut line = "123456789".repeat(81).into_bytes();
        line[9 + 2] = b'x';
        let err = Pencilmarks::parse(&line).unwrap().unwrap_err();
        assert_eq!(
            err.to_string(),
            "bad character 'x' at position 12 (r1c2, candidate 3) of a pencilmark puzzle: \
             expected '3' or '.'"
        );
        // A digit in another digit's place is an error too.
        let mut line = "123456789".repeat(81).into_bytes();
        line[728] = b'8';
        let err = Pencilmarks::parse(&line).unwrap().unwrap_err();
        assert_eq!(
            (err.position, err.cell.as_str(), err.digit),
            (729, "r9c9", 9)
        );
        assert!(Pencilmarks::parse(b"123").is_none());
    }
}
