//! Recognising the shapes of input that people have, line by line: which
//! CSV column holds the puzzle (from a header naming it, or `--column`),
//! quoted fields, puzzles pasted from web pages and books (cells between
//! spaces or `|`, box rules, 9-line grids), and text in an encoding the
//! reader does not take (UTF-16).

/// Header names of a puzzle column (any case, optionally quoted): Kaggle's
/// `quizzes` (1M set) and `puzzle` (3M set, sudoflow's own CSV), and `quiz`.
const PUZZLE_COLUMN_NAMES: [&[u8]; 3] = [b"puzzle", b"quizzes", b"quiz"];

/// The 0-based column of the puzzle when `fields` (an input's first
/// record, read as CSV) are a header with a column named `puzzle`,
/// `quizzes` or `quiz` anywhere in it (e.g. Kaggle's `id,puzzle,solution,
/// clues,difficulty`, sudoflow's `index,puzzle,...`, `quizzes,solutions`);
/// `Ok(None)` for any other record. Names are compared as [`column_name`]
/// gives them, in any case.
///
/// Errors: two columns (0-based) that could each hold the puzzles: two of
/// the names in any case (`quiz,puzzle`, `PUZZLE,quiz`), or one name twice
/// with none or both written exactly so (`Puzzle,PUZZLE`, `puzzle,puzzle`;
/// `Puzzle,puzzle` reads `puzzle`): which is the user's to say (`--column`).
pub(crate) fn header_column<'a>(
    fields: impl Iterator<Item = &'a [u8]> + Clone,
) -> Result<Option<usize>, [usize; 2]> {
    let named: Vec<(usize, &[u8])> = fields
        .map(column_name)
        .enumerate()
        .filter(|(_, name)| {
            PUZZLE_COLUMN_NAMES
                .iter()
                .any(|w| name.eq_ignore_ascii_case(w))
        })
        .collect();
    let Some(&(first, first_name)) = named.first() else {
        return Ok(None);
    };
    // Two of the names (`quiz` and `PUZZLE`): which holds the puzzles is
    // the user's to say, whatever their case.
    if let Some(&(other, _)) = named
        .iter()
        .find(|(_, name)| !name.eq_ignore_ascii_case(first_name))
    {
        return Err([first, other]);
    }
    // One name, in several columns: the one written exactly so, if one is.
    let exact: Vec<usize> = named
        .iter()
        .filter(|(_, name)| PUZZLE_COLUMN_NAMES.contains(name))
        .map(|&(k, _)| k)
        .collect();
    match (&exact[..], &named[..]) {
        ([k], _) => Ok(Some(*k)),
        ([a, b, ..], _) => Err([*a, *b]),
        ([], [_]) => Ok(Some(first)),
        ([], [a, b, ..]) => Err([a.0, b.0]),
        ([], []) => Ok(None),
    }
}

/// The error of input `input`'s header naming two columns that could hold
/// the puzzles ([`header_column`]'s error): each as `(0-based column,
/// its name)`.
pub(crate) fn two_puzzle_columns(input: &str, both: [(usize, String); 2]) -> anyhow::Error {
    let [a, b] = both.map(|(k, name)| format!("{name:?} (column {})", k + 1));
    anyhow::anyhow!(
        "input {input} names two columns that could hold the puzzles, {a} and {b}: say which \
         with --column"
    )
}

/// The position among `names` (a header's column names) of one of
/// `wanted`: the first written exactly so, else the first written so in
/// another case (`puzzle` beside `Puzzle` is taken). Every lookup of a
/// column by a name the user gave uses it: the reader's and `print`'s.
pub(crate) fn column_position<'a>(
    mut names: impl Iterator<Item = &'a [u8]> + Clone,
    wanted: &[&[u8]],
) -> Option<usize> {
    let exact = names.clone().position(|name| wanted.contains(&name));
    exact.or_else(|| names.position(|name| wanted.iter().any(|w| name.eq_ignore_ascii_case(w))))
}

/// The 0-based column a header (an input's first record) names `name` in
/// (as [`column_name`] gives the names), for `--column NAME` and `--keep`:
/// the column named exactly so, else the first named so in another case
/// (`--keep ID` on `id,ID` is the second column, `--keep Id` the first).
pub(super) fn named_column<'a>(
    fields: impl Iterator<Item = &'a [u8]> + Clone,
    name: &str,
) -> Option<usize> {
    column_position(fields.map(column_name), &[name.as_bytes()])
}

/// A header field as a column name: blanks around it (a `\r` line end
/// among them) and one pair of double quotes inside those dropped (` "quiz" `
/// is `quiz`: a quote after a blank is no CSV quote).
pub(super) fn column_name(field: &[u8]) -> &[u8] {
    unquote(field.trim_ascii())
}

/// Whether the field `--column N` picked from an input's first line is a
/// column name rather than a puzzle: it holds a letter that is no cell
/// character (`puzzle`, `sudoku`, `grid`; not `x`, a blank), and no more
/// cell characters than others (`sudoku_17` is a name; a puzzle with a
/// typo, `4..3o..`, is a record, invalid, not a header dropped unsaid).
pub(super) fn is_column_name(field: &[u8]) -> bool {
    let cells = field.iter().filter(|&&b| is_cell_char(b)).count();
    field
        .iter()
        .any(|&b| b.is_ascii_alphabetic() && !is_cell_char(b))
        && cells <= field.len() - cells
}

/// A character that a pasted puzzle may hold in a cell: the givens `1`-`9`
/// and the blanks `.`, `0`, `_`, `-`, `*`, `x` and `X` (the ones web pages
/// and books use), as [`crate::grid::Grid::parse`] reads them.
pub(super) fn is_cell_char(b: u8) -> bool {
    matches!(b, b'1'..=b'9') || crate::grid::is_blank(b)
}

/// What a line that is not a puzzle as it stands looks like, read as
/// pasted from a web page or a book ([`pasted`]).
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Pasted {
    /// A box rule drawn between the bands of a grid: only `-`, `+`, `=`,
    /// `|` and blanks, with a `+` or `=` in it, or ten or more dashes (but
    /// not 81, a puzzle of `-` blanks): `------+-------+------`,
    /// `+-------+-------+-------+`, `=====================`.
    Rule,
    /// The line's cells once the spaces, tabs and `|` between them are
    /// dropped (`5 3 . | . 7 . | . . .` is `53..7....`): 81 of them are a
    /// puzzle, 9 a row of a 9-line grid.
    Cells(Vec<u8>),
}

/// The pasted reading of `line` (end of line included): a [`Pasted::Rule`],
/// the [`Pasted::Cells`] of a line made of cell characters and the spaces,
/// tabs and `|` between them, or `None` for anything else.
pub(super) fn pasted(line: &[u8]) -> Option<Pasted> {
    let line = trim_line_end(line);
    if is_rule(line) {
        return Some(Pasted::Rule);
    }
    let mut cells = Vec::with_capacity(81);
    for &b in line {
        match b {
            b' ' | b'\t' | b'|' => {}
            b if is_cell_char(b) => cells.push(b),
            _ => return None,
        }
    }
    (!cells.is_empty()).then_some(Pasted::Cells(cells))
}

/// See [`Pasted::Rule`].
fn is_rule(line: &[u8]) -> bool {
    let mut dashes = 0;
    let mut marks = false;
    for &b in line {
        match b {
            b'-' => dashes += 1,
            b'+' | b'=' => marks = true,
            b'|' | b' ' | b'\t' => {}
            _ => return false,
        }
    }
    marks || (dashes >= 10 && dashes != 81)
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
pub(super) fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The UTF-16 or UTF-32 flavour an input's first bytes announce with a
/// byte-order mark (`FF FE`: UTF-16 little-endian, what PowerShell's `>`
/// writes; `FE FF`: big-endian; `FF FE 00 00` and `00 00 FE FF`: UTF-32),
/// or `None`.
pub(super) fn utf16_bom(first_line: &[u8]) -> Option<&'static str> {
    // UTF-32's marks first: little-endian's starts as UTF-16LE's does.
    if first_line.starts_with(&[0xff, 0xfe, 0, 0]) {
        Some("UTF-32LE")
    } else if first_line.starts_with(&[0, 0, 0xfe, 0xff]) {
        Some("UTF-32BE")
    } else if first_line.starts_with(&[0xff, 0xfe]) {
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
        // Fields as the CSV reader gives them: quotes taken off, a `\r`
        // line end in the last.
        let header =
            |fields: &[&'static str]| fields.iter().map(|f| f.as_bytes()).collect::<Vec<_>>();
        let column =
            |fields: &[&'static str]| header_column(header(fields).into_iter()).ok().flatten();
        assert_eq!(column(&["quizzes", "solutions\r"]), Some(0));
        assert_eq!(column(&["Puzzle"]), Some(0));
        assert_eq!(column(&["index", "puzzle", "status"]), Some(1));
        assert_eq!(
            column(&["id", "puzzle", "solution", "clues", "difficulty"]),
            Some(1)
        );
        assert_eq!(column(&["id", " \"quiz\" ", "x"]), Some(1));
        assert_eq!(column(&["puzzles", "x"]), None);
        assert_eq!(column(&["8........", "x"]), None);
        assert_eq!(column(&["Smith, J.", "puzzle"]), Some(1));
        assert_eq!(column(&["a \"b,\" c", " quiz"]), Some(1));
        // Two alike: the one written exactly so, else neither.
        let both = |fields: &[&'static str]| header_column(header(fields).into_iter());
        assert_eq!(both(&["Puzzle", "x", "puzzle"]), Ok(Some(2)));
        assert_eq!(both(&["id", "quiz", "x", "puzzle"]), Err([1, 3]));
        assert_eq!(both(&["Quiz", "PUZZLE\r"]), Err([0, 1]));
        assert_eq!(both(&["puzzle", "puzzle"]), Err([0, 1]));
        assert_eq!(both(&["PUZZLE", "quiz"]), Err([0, 1]));
        assert_eq!(both(&["id", "\"quiz\"", "x", "Puzzle"]), Err([1, 3]));
        assert_eq!(both(&["Puzzle", "PUZZLE"]), Err([0, 1]));
        assert_eq!(both(&["Puzzle"]), Ok(Some(0)));
        let named = |fields: &[&'static str], name| named_column(header(fields).into_iter(), name);
        assert_eq!(named(&["id", "Sudoku\r"], "sudoku"), Some(1));
        assert_eq!(named(&["id", "Sudoku\r"], "grid"), None);
    }

    #[test]
    fn fields_and_quotes() {
        assert_eq!(quoted_field(b"\"0043\",x"), Some(&b"0043"[..]));
        assert_eq!(quoted_field(b"\"0043"), Some(&b"0043"[..]));
        assert_eq!(quoted_field(b"0043"), None);
        assert_eq!(utf16_bom(b"\xff\xfe8\x00"), Some("UTF-16LE"));
        assert_eq!(utf16_bom(b"\xfe\xff\x008"), Some("UTF-16BE"));
        assert_eq!(utf16_bom(b"\xef\xbb\xbf8"), None);
        assert_eq!(
            utf16_bom(b"\xff\xfe\x00\x008\x00\x00\x00"),
            Some("UTF-32LE")
        );
        assert_eq!(
            utf16_bom(b"\x00\x00\xfe\xff\x00\x00\x008"),
            Some("UTF-32BE")
        );
    }

    #[test]
    fn pasted_lines() {
        let cells = |s: &[u8]| Some(Pasted::Cells(s.to_vec()));
        assert_eq!(pasted(b"5 3 . | . 7 . | . . .\r\n"), cells(b"53..7...."));
        assert_eq!(pasted(b"|5-3|x*X|\t0__|\n"), cells(b"5-3x*X0__"));
        assert_eq!(pasted(b"------+-------+------\n"), Some(Pasted::Rule));
        assert_eq!(pasted(b"+---+---+---+"), Some(Pasted::Rule));
        assert_eq!(pasted(b"=========="), Some(Pasted::Rule));
        assert_eq!(pasted(b"----------"), Some(Pasted::Rule));
        // Nine dashes are a row of blanks, 81 a puzzle of them.
        assert_eq!(pasted(b"---------"), cells(b"---------"));
        assert_eq!(pasted(&[b'-'; 81]), cells(&[b'-'; 81]));
        assert_eq!(pasted(b"5 3 a"), None);
        assert_eq!(pasted(b"53,7"), None);
        assert_eq!(pasted(b" | \n"), None);
        assert!(is_column_name(b"sudoku"));
        assert!(is_column_name(b"sudoku_17"));
        assert!(!is_column_name(b"x.x.X-*0123"));
        // A puzzle with a typo is a record, not a header.
        let mut typo =
            b"4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
                .to_vec();
        typo[80] = b'o';
        assert!(!is_column_name(&typo));
    }
}
