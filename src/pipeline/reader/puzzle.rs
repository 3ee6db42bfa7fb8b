//! A puzzle field made a [`Record`]: the fast parse of 81 cell characters,
//! pencilmark puzzles, and the error naming `source:line` for anything else.

use crate::grid::{Grid, Pencilmarks};
use crate::pipeline::Record;
use std::sync::Arc;

/// [`CELL_VALUE`]'s mark for a byte that is not a cell character.
#[cfg(any(not(target_arch = "x86_64"), test))]
const NOT_A_CELL: u8 = 0x10;

/// Value of each byte as a cell: 1..=9 for the givens `1`-`9`, 0 for the
/// blanks `.`, `0`, `_`, `-`, `*`, `x` and `X`, [`NOT_A_CELL`] for anything
/// else. A table, so that
/// the parse loop has no branch per cell: with givens scattered at random a
/// branch on "given or blank" is mispredicted several dozen times a puzzle.
#[cfg(any(not(target_arch = "x86_64"), test))]
const CELL_VALUE: [u8; 256] = {
    let mut t = [NOT_A_CELL; 256];
    let mut k = 0;
    while k < crate::grid::BLANKS.len() {
        t[crate::grid::BLANKS[k] as usize] = 0;
        k += 1;
    }
    let mut d = 1;
    while d <= 9 {
        t[(b'0' + d) as usize] = d;
        d += 1;
    }
    t
};

/// The common case in one branch-free pass: 81 cell characters (`1`-`9`
/// givens; `.`, `0`, `_`, `-`, `*`, `x`, `X` blanks), SSE2 on x86_64. `None` for anything else,
/// which callers then run through [`Grid::parse`] for the exact message (as
/// the reader does for a record; the Python package's inputs take the same path).
pub fn parse_valid(field: &[u8]) -> Option<Grid> {
    Grid::from_cells(cell_values(field.try_into().ok()?)?)
}

/// The values of 81 cell characters (1..=9 for `1`-`9`, 0 for `.`, `0`,
/// `_`, `-`, `*`, `x` and `X`), or `None` if some byte is not a cell
/// character.
///
/// On x86_64, SSE2 over 16 bytes at a time (the last vector overlaps the one
/// before it): a byte `b` is a digit when `b - '0'` (wrapping) is at most 9,
/// which is then its value, and a blank when it is `.`, `_`, `-`, `*`, or
/// `x` once lower-cased (`b | 0x20`); about 70 instructions against ~400 for
/// the table loop.
#[cfg(target_arch = "x86_64")]
fn cell_values(field: &[u8; 81]) -> Option<[u8; 81]> {
    use std::arch::x86_64::*;
    let mut cells = [0u8; 81];
    let mut bad = 0;
    // SAFETY: SSE2 is part of the x86_64 baseline; every load and store
    // covers 16 bytes at offsets 0, 16, 32, 48, 64 and 65 of 81-byte arrays;
    // unaligned loads and stores need no alignment.
    unsafe {
        let zero = _mm_set1_epi8(b'0' as i8);
        let nine = _mm_set1_epi8(9);
        let dot = _mm_set1_epi8(b'.' as i8);
        let underscore = _mm_set1_epi8(b'_' as i8);
        let dash = _mm_set1_epi8(b'-' as i8);
        let star = _mm_set1_epi8(b'*' as i8);
        let case = _mm_set1_epi8(0x20);
        let x = _mm_set1_epi8(b'x' as i8);
        for at in [0, 16, 32, 48, 64, 65] {
            let v = _mm_loadu_si128(field[at..at + 16].as_ptr() as *const __m128i);
            let d = _mm_sub_epi8(v, zero);
            let digit = _mm_cmpeq_epi8(_mm_min_epu8(d, nine), d);
            let blank = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(v, dot), _mm_cmpeq_epi8(v, underscore)),
                _mm_or_si128(
                    _mm_or_si128(_mm_cmpeq_epi8(v, dash), _mm_cmpeq_epi8(v, star)),
                    _mm_cmpeq_epi8(_mm_or_si128(v, case), x),
                ),
            );
            bad |= !_mm_movemask_epi8(_mm_or_si128(digit, blank)) & 0xffff;
            _mm_storeu_si128(
                cells[at..at + 16].as_mut_ptr() as *mut __m128i,
                _mm_and_si128(d, digit),
            );
        }
    }
    (bad == 0).then_some(cells)
}

/// [`cell_values`] where there is no SSE2.
#[cfg(not(target_arch = "x86_64"))]
fn cell_values(field: &[u8; 81]) -> Option<[u8; 81]> {
    cell_values_portable(field)
}

/// Portable [`cell_values`]: a table lookup per byte. Also built in tests on
/// x86_64, where a test holds the SSE2 version to it.
#[cfg(any(not(target_arch = "x86_64"), test))]
fn cell_values_portable(field: &[u8; 81]) -> Option<[u8; 81]> {
    let mut marks = 0u8;
    let cells: [u8; 81] = std::array::from_fn(|c| {
        let v = CELL_VALUE[usize::from(field[c])];
        marks |= v;
        v & 0xf
    });
    (marks & NOT_A_CELL == 0).then_some(cells)
}

/// Longest `raw` text kept for an invalid record, in characters: a runaway
/// line (a file with no line ends, say) must not become a giant CSV field.
/// The error message still gives the full length.
pub(super) const RAW_LIMIT: usize = 200;

/// `text` cut to [`RAW_LIMIT`] characters, with `...` marking the cut.
pub(super) fn clip(text: &str) -> String {
    match text.char_indices().nth(RAW_LIMIT) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_owned(),
    }
}

/// What `e`, from decoding `field` as UTF-8, says of it: `not UTF-8 text:
/// byte 0xff at byte position 3` (1-based).
pub(super) fn not_utf8(field: &[u8], e: std::str::Utf8Error) -> String {
    let at = e.valid_up_to();
    format!(
        "not UTF-8 text: byte 0x{:02x} at byte position {}",
        field[at],
        at + 1
    )
}

/// The error of a record whose line holds a `\r`, `at` bytes in, that is
/// not its end.
pub(super) fn cr_message(source: &str, line: u64, at: usize) -> String {
    format!(
        "{source}:{line}: a carriage return (CR) inside the line, {at} bytes in: are the \
         file's lines ended by CR alone (classic Mac OS)? Convert them to LF (e.g. tr \
         '\\r' '\\n')"
    )
}

pub(super) fn make_record(index: u64, source: &Arc<str>, line: u64, field: &[u8]) -> Record {
    if let Some(grid) = parse_valid(field) {
        return Record {
            index,
            source: Arc::clone(source),
            line,
            // The grid says it all; no copy of the text per record.
            raw: String::new(),
            grid: Ok(grid),
            pencilmarks: None,
            kept: Vec::new(),
        };
    }
    if let Some(parsed) = Pencilmarks::parse(field) {
        return pencilmark_record(index, source, line, field, parsed);
    }
    let (raw, grid) = match std::str::from_utf8(field) {
        Ok(text) if text.contains('\r') => (
            clip(text),
            Err(cr_message(source, line, text.find('\r').unwrap_or(0))),
        ),
        Ok(text) => {
            let grid = Grid::parse(text).map_err(|e| format!("{source}:{line}: {e}"));
            (clip(text), grid)
        }
        Err(e) => {
            let msg = format!("{source}:{line}: {}", not_utf8(field, e));
            (clip(&String::from_utf8_lossy(field)), Err(msg))
        }
    };
    Record {
        index,
        source: Arc::clone(source),
        line,
        raw,
        grid,
        pencilmarks: None,
        kept: Vec::new(),
    }
}

/// The record of a 729-character field: a pencilmark puzzle, or the error
/// naming its first bad character.
fn pencilmark_record(
    index: u64,
    source: &Arc<str>,
    line: u64,
    field: &[u8],
    parsed: Result<Pencilmarks, crate::grid::PencilmarkError>,
) -> Record {
    let text = String::from_utf8_lossy(field);
    let (raw, grid, pencilmarks) = match parsed {
        Ok(pm) => (
            text.into_owned(),
            Err(format!(
                "{source}:{line}: a pencilmark puzzle (729 characters): this command reads \
                 81-cell puzzles only"
            )),
            Some(Box::new(pm)),
        ),
        Err(e) => (clip(&text), Err(format!("{source}:{line}: {e}")), None),
    };
    Record {
        index,
        source: Arc::clone(source),
        line,
        raw,
        grid,
        pencilmarks,
        kept: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_values_match_their_portable_twin() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x3c6e_f372_fe94_f82b);
        // Mostly cell characters, sometimes any byte, at every position.
        let cell_chars = b"123456789.0_-*xX";
        for n in 0..20_000 {
            let mut field = [0u8; 81];
            for b in field.iter_mut() {
                *b = cell_chars[rng.gen_range(0..cell_chars.len())];
            }
            if n % 2 == 1 {
                field[rng.gen_range(0..81)] = rng.gen();
            }
            let want = cell_values_portable(&field);
            assert_eq!(cell_values(&field), want, "{field:?}");
            assert_eq!(
                want.is_some(),
                Grid::parse(&String::from_utf8_lossy(&field)).is_ok()
            );
        }
        // Every byte value at the first, a middle and the last position.
        for b in 0..=255u8 {
            for at in [0, 40, 80] {
                let mut field = [b'.'; 81];
                field[at] = b;
                assert_eq!(
                    cell_values(&field),
                    cell_values_portable(&field),
                    "{b} at {at}"
                );
            }
        }
    }

    #[test]
    fn malformed_records_name_source_and_line() {
        let src: Arc<str> = Arc::from("a.txt");
        let r = make_record(4, &src, 7, b"12\xff");
        assert_eq!(
            r.grid.unwrap_err(),
            "a.txt:7: not UTF-8 text: byte 0xff at byte position 3"
        );
        assert_eq!(r.raw, "12\u{fffd}");
        let r = make_record(1, &src, 2, b"123");
        assert_eq!(
            r.grid.unwrap_err(),
            "a.txt:2: wrong length: expected 81 cells, found 3"
        );
    }

    #[test]
    fn a_runaway_invalid_field_is_clipped_but_its_length_reported() {
        let field = "1".repeat(5000);
        let r = make_record(1, &Arc::from("big.txt"), 1, field.as_bytes());
        assert_eq!(r.raw, format!("{}...", "1".repeat(RAW_LIMIT)));
        assert_eq!(
            r.grid.unwrap_err(),
            "big.txt:1: wrong length: expected 81 cells, found 5000"
        );
        // Short invalid fields are kept whole.
        let r = make_record(2, &Arc::from("a"), 2, b"12x");
        assert_eq!(r.raw, "12x");
    }
}
