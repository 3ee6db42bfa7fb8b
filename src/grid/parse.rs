//! Parsing the 81 cells of one record, and the givens-clash check.

use super::{cell_name, Grid, UNITS};
use std::fmt;

/// Why a record's puzzle field is not a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The field does not hold exactly 81 cells; `found` is its length in
    /// characters. Near 729 the message names the pencilmark length too.
    #[error("wrong length: expected 81 cells, found {found}{}", pencilmark_hint(.found))]
    Length {
        /// Number of characters found.
        found: usize,
    },
    /// A character that is not a digit 1-9 or a blank (`.`, `0`, `_`, `-`,
    /// `*`, `x`, `X`).
    #[error(
        "bad character {ch:?} at position {position} ({cell}): expected 1-9 or a blank \
         ('.', '0', '_', '-', '*', 'x' or 'X')"
    )]
    Char {
        /// The offending character.
        ch: char,
        /// 1-based position within the 81 cells.
        position: usize,
        /// The cell it would fill, e.g. `r1c5`.
        cell: String,
    },
    /// Two givens with the same digit in one unit.
    #[error(transparent)]
    Clash(#[from] Clash),
}

/// What a wrong length near a pencilmark line's says: that one is 729
/// characters (a line of 728 or 730 is a pencilmark line with a character
/// lost or added, not a puzzle of 81 cells gone wrong).
fn pencilmark_hint(found: &usize) -> &'static str {
    if (729 - 81..=729 + 81).contains(found) {
        " (a pencilmark puzzle has 729 characters, 9 per cell)"
    } else {
        ""
    }
}

/// Row, column or box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitKind {
    /// A row (1-based index in messages).
    Row,
    /// A column.
    Column,
    /// A box, numbered 1..9 row-major.
    Box,
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UnitKind::Row => "row",
            UnitKind::Column => "column",
            UnitKind::Box => "box",
        })
    }
}

/// Two givens with the same digit in one unit: `duplicate 5 in row 3: r3c2, r3c8`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("duplicate {digit} in {kind} {unit}: {}, {}", cell_name(*first), cell_name(*second))]
pub struct Clash {
    /// The repeated digit, 1..=9.
    pub digit: u8,
    /// Which kind of unit.
    pub kind: UnitKind,
    /// The unit's 1-based number.
    pub unit: usize,
    /// Cell index (0..81) of the first given, in unit order.
    pub first: usize,
    /// Cell index (0..81) of the second given.
    pub second: usize,
}

pub(super) fn parse_cells(text: &str) -> Result<Grid, ParseError> {
    // Length in characters, not bytes, so that non-ASCII text is reported as the
    // character it is rather than as a byte count.
    let found = if text.is_ascii() {
        text.len()
    } else {
        text.chars().count()
    };
    if found != 81 {
        return Err(ParseError::Length { found });
    }
    let mut cells = [0u8; 81];
    for (i, ch) in text.chars().enumerate() {
        cells[i] = match ch {
            '1'..='9' => ch as u8 - b'0',
            _ if ch.is_ascii() && super::is_blank(ch as u8) => 0,
            _ => {
                return Err(ParseError::Char {
                    ch,
                    position: i + 1,
                    cell: cell_name(i),
                })
            }
        };
    }
    Ok(Grid { cells })
}

pub(super) fn check_givens(grid: &Grid) -> Result<(), Clash> {
    for (u, unit) in UNITS.iter().enumerate() {
        let mut seen = [usize::MAX; 10];
        for &c in unit {
            let c = c as usize;
            let d = grid.cells[c] as usize;
            if d == 0 {
                continue;
            }
            if seen[d] != usize::MAX {
                let kind = [UnitKind::Row, UnitKind::Column, UnitKind::Box][u / 9];
                return Err(Clash {
                    digit: d as u8,
                    kind,
                    unit: u % 9 + 1,
                    first: seen[d],
                    second: c,
                });
            }
            seen[d] = c;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanks_and_digits() {
        let text = "1.0_".to_string() + &".".repeat(77);
        let g = Grid::parse(&text).unwrap();
        assert_eq!(&g.cells()[..4], &[1, 0, 0, 0]);
    }

    #[test]
    fn wrong_length_names_length() {
        assert_eq!(
            Grid::parse("123").unwrap_err(),
            ParseError::Length { found: 3 }
        );
        assert_eq!(
            Grid::parse("123").unwrap_err().to_string(),
            "wrong length: expected 81 cells, found 3"
        );
        // A pencilmark line with a character lost: its length named.
        assert_eq!(
            Grid::parse(&".".repeat(728)).unwrap_err().to_string(),
            "wrong length: expected 81 cells, found 728 (a pencilmark puzzle has 729 \
             characters, 9 per cell)"
        );
    }

    #[test]
    fn bad_char_names_char_and_cell() {
        let mut text = ".".repeat(81);
        text.replace_range(13..14, "y");
        let err = Grid::parse(&text).unwrap_err();
        assert_eq!(
            err,
            ParseError::Char {
                ch: 'y',
                position: 14,
                cell: "r2c5".into()
            }
        );
        assert_eq!(
            err.to_string(),
            "bad character 'y' at position 14 (r2c5): expected 1-9 or a blank ('.', '0', '_', \
             '-', '*', 'x' or 'X')"
        );
    }

    #[test]
    fn non_ascii_counts_characters() {
        // 79 dots + 'é' (2 bytes) = 81 bytes but 80 characters.
        let text = ".".repeat(79) + "é";
        assert_eq!(
            Grid::parse(&text).unwrap_err(),
            ParseError::Length { found: 80 }
        );
        let text = ".".repeat(80) + "é";
        assert_eq!(
            Grid::parse(&text).unwrap_err(),
            ParseError::Char {
                ch: 'é',
                position: 81,
                cell: "r9c9".into()
            }
        );
    }

    #[test]
    fn clash_in_row_column_box() {
        let mut cells = [0u8; 81];
        cells[19] = 5; // r3c2
        cells[25] = 5; // r3c8
        let err = Grid::from_cells(cells).unwrap().check_givens().unwrap_err();
        assert_eq!(err.to_string(), "duplicate 5 in row 3: r3c2, r3c8");

        let mut cells = [0u8; 81];
        cells[4] = 7; // r1c5
        cells[76] = 7; // r9c5
        let err = Grid::from_cells(cells).unwrap().check_givens().unwrap_err();
        assert_eq!(err.to_string(), "duplicate 7 in column 5: r1c5, r9c5");

        let mut cells = [0u8; 81];
        cells[30] = 2; // r4c4
        cells[50] = 2; // r6c6
        let err = Grid::from_cells(cells).unwrap().check_givens().unwrap_err();
        assert_eq!(err.to_string(), "duplicate 2 in box 5: r4c4, r6c6");
    }
}
