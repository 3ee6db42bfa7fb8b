//! Recognising the shapes of input that people have, line by line: which
//! CSV column holds the puzzle (from a header naming it), quoted fields, and
//! text in an encoding the reader does not take (UTF-16).

/// Header names of a puzzle column (any case, optionally quoted): Kaggle's
/// `quizzes` (1M set) and `puzzle` (3M set, sudoflow's own CSV), and `quiz`.
const PUZZLE_COLUMN_NAMES: [&[u8]; 3] = [b"puzzle", b"quizzes", b"quiz"];

/// The 0-based column of the puzzle when `line` (an input's first line, end
/// of line included) is a CSV header with a column named `puzzle`,
/// `quizzes` or `quiz` anywhere in it (e.g. Kaggle's `id,puzzle,solution,
/// clues,difficulty`, sudoflow's `index,puzzle,...`, `quizzes,solutions`);
/// `None` for any other line.
pub(super) fn header_column(line: &[u8]) -> Option<usize> {
    let line = trim_line_end(line);
    let line = line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line);
    line.split(|&b| b == b',').position(|field| {
        let name = unquote(field.trim_ascii());
        PUZZLE_COLUMN_NAMES
            .iter()
            .any(|n| name.eq_ignore_ascii_case(n))
    })
}

/// The text of `line` from its `k`-th comma-separated field on (0-based; the
/// whole line for `k` = 0, the empty end when it has fewer fields). Commas
/// inside quoted fields before it are not told apart (puzzle columns hold
/// none, and neither do Kaggle's other columns).
pub(super) fn from_field(line: &[u8], k: usize) -> &[u8] {
    let mut rest = line;
    for _ in 0..k {
        match rest.iter().position(|&b| b == b',') {
            Some(i) => rest = &rest[i + 1..],
            None => return &rest[rest.len()..],
        }
    }
    rest
}

/// `field` without one pair of surrounding double quotes.
fn unquote(field: &[u8]) -> &[u8] {
    field
        .strip_prefix(b"\"")
        .and_then(|f| f.strip_suffix(b"\""))
        .unwrap_or(field)
}

/// A field that starts with a double quote (a quoted CSV field, `"0043..."`):
/// its text up to the closing quote (or the line end when there is none).
pub(super) fn quoted_field(line: &[u8]) -> Option<&[u8]> {
    let rest = line.strip_prefix(b"\"")?;
    let end = rest.iter().position(|&b| b == b'"').unwrap_or(rest.len());
    Some(&rest[..end])
}

/// `line` without its `\n` or `\r\n`.
fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The UTF-16 flavour an input's first bytes announce with a byte-order
/// mark (`FF FE`: little-endian, what PowerShell's `>` writes; `FE FF`:
/// big-endian), or `None`.
pub(super) fn utf16_bom(first_line: &[u8]) -> Option<&'static str> {
    if first_line.starts_with(&[0xff, 0xfe]) {
        Some("UTF-16LE")
    } else if first_line.starts_with(&[0xfe, 0xff]) {
        Some("UTF-16BE")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_puzzle_column_is_found_wherever_the_header_names_it() {
        assert_eq!(header_column(b"quizzes,solutions\r\n"), Some(0));
        assert_eq!(header_column(b"\"Puzzle\"\n"), Some(0));
        assert_eq!(header_column(b"index,puzzle,status\n"), Some(1));
        assert_eq!(
            header_column(b"id,puzzle,solution,clues,difficulty\n"),
            Some(1)
        );
        assert_eq!(header_column(b"\xef\xbb\xbfid, \"quiz\" ,x"), Some(1));
        assert_eq!(header_column(b"puzzles,x\n"), None);
        assert_eq!(header_column(b"8........,x\n"), None);
    }

    #[test]
    fn fields_and_quotes() {
        assert_eq!(from_field(b"a,b,c\n", 0), b"a,b,c\n");
        assert_eq!(from_field(b"a,b,c\n", 1), b"b,c\n");
        assert_eq!(from_field(b"a,b,c\n", 2), b"c\n");
        assert_eq!(from_field(b"a,b\n", 3), b"");
        assert_eq!(quoted_field(b"\"0043\",x"), Some(&b"0043"[..]));
        assert_eq!(quoted_field(b"\"0043"), Some(&b"0043"[..]));
        assert_eq!(quoted_field(b"0043"), None);
        assert_eq!(utf16_bom(b"\xff\xfe8\x00"), Some("UTF-16LE"));
        assert_eq!(utf16_bom(b"\xfe\xff\x008"), Some("UTF-16BE"));
        assert_eq!(utf16_bom(b"\xef\xbb\xbf8"), None);
    }
}
