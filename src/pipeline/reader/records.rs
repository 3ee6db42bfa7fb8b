//! The records of one input's lines: headers, CSV columns, pasted grids.

use super::lines::{Input, Line, Lines};
use super::puzzle::{clip, make_record, parse_valid};
use super::{streaming, utf16_message, Column, Item, Reading};
use crate::grid::Grid;
use crate::pipeline::formats::{self, Pasted};
use crate::pipeline::Record;
use anyhow::{bail, Context};
use std::sync::Arc;

/// The records of one input's lines, one at a time ([`InputRecords::next`]):
/// the reading of lines into records that the reader's documentation
/// describes, for [`records_of`](super::records_of) (which hands them on) and [`FileRecords`](super::FileRecords)
/// (whose caller takes them when it wants them).
pub(super) struct InputRecords<R> {
    name: Arc<str>,
    lines: Lines<R>,
    /// Where a line is assembled when it does not lie whole in the buffer.
    buf: Vec<u8>,
    /// Longest line kept whole ([`Reading::line_cap`]).
    line_cap: usize,
    /// `--column`, if given.
    wanted: Option<Column>,
    /// [`Item::Waiting`] was the last item: read on without asking again.
    waited: bool,
    /// Lines read so far.
    line_no: u64,
    /// No record (nor header) read yet.
    first: bool,
    /// The puzzle's CSV column, from `--column N` or a header naming it
    /// (sudoflow's own CSV, Kaggle's sets); 0: the first field.
    column: usize,
    /// Lines are read as pasted puzzles (cells between spaces or `|`, box
    /// rules, 9-line grids) only where no CSV column is in use.
    csv: bool,
    grid: PendingGrid,
    /// A record read together with the record of a 9-line grid it cut
    /// short: handed out on the next call.
    queued: Option<Record>,
    /// The input's end was read (it is told once).
    ended: bool,
}

impl<R: Input> InputRecords<R> {
    /// Reads `input`, named `name`, as `reading` says (its `watch` aside:
    /// see [`InputRecords::next`]).
    pub(super) fn new(name: &Arc<str>, input: R, reading: &Reading<'_>) -> Self {
        InputRecords {
            name: Arc::clone(name),
            lines: Lines::new(input, reading.line_cap),
            buf: Vec::with_capacity(256),
            line_cap: reading.line_cap,
            wanted: reading.column.cloned(),
            waited: false,
            line_no: 0,
            first: true,
            column: match reading.column {
                Some(Column::Number(n)) => n.get() - 1,
                _ => 0,
            },
            csv: reading.column.is_some(),
            grid: PendingGrid::default(),
            queued: None,
            ended: false,
        }
    }

    /// The next record (numbered on from `index`), or [`Item::Waiting`]
    /// before a read that would wait for the descriptor `watch` (a pipe, a
    /// terminal), or `None` at the input's end.
    ///
    /// Errors: the input fails to read, starts with a UTF-16 byte-order
    /// mark, or (with `--column NAME`) its first line names no such column.
    pub(super) fn next(
        &mut self,
        index: &mut u64,
        watch: Option<&streaming::Watch>,
    ) -> anyhow::Result<Option<Item>> {
        if let Some(record) = self.queued.take() {
            return Ok(Some(Item::Record(record)));
        }
        if self.ended {
            return Ok(None);
        }
        let name = &self.name;
        let line_cap = self.line_cap;
        // Hands out a record, after the record of the 9-line grid it cuts
        // short, if any (numbered first: its rows came first).
        macro_rules! emit {
            ($record:expr) => {{
                let cut = self.grid.cut_short(name, index);
                let record = $record;
                return Ok(Some(Item::Record(match cut {
                    Some(grid) => {
                        self.queued = Some(record);
                        grid
                    }
                    None => record,
                })));
            }};
        }
        loop {
            if let Some(w) = watch {
                if !std::mem::take(&mut self.waited) && self.lines.will_wait(w) {
                    self.waited = true;
                    return Ok(Some(Item::Waiting));
                }
            }
            let line_no = self.line_no;
            let line = self
                .lines
                .next_line(&mut self.buf)
                .with_context(|| format!("cannot read input {name} after line {line_no}"))?;
            let Some(Line { bytes: whole, len }) = line else {
                self.ended = true;
                return Ok(self.grid.cut_short(name, index).map(Item::Record));
            };
            self.line_no += 1;
            let line_no = self.line_no;
            if line_no == 1 {
                if let Some(encoding) = formats::utf16_bom(whole) {
                    bail!("{}", utf16_message(name, encoding));
                }
            }
            if len > line_cap as u64 {
                // Consumed as a stream: only its first `line_cap` bytes were kept.
                let head = &whole[..line_cap.min(whole.len())];
                // A `#` comment is skipped whatever its length.
                let start = head.iter().position(|&b| b != b' ' && b != b'\t');
                if start.is_some_and(|s| head[s] == b'#') {
                    continue;
                }
                self.first = false;
                emit!(Record {
                    index: next_index(index),
                    source: Arc::clone(name),
                    line: line_no,
                    raw: clip(&String::from_utf8_lossy(head)),
                    grid: Err(format!(
                        "{name}:{line_no}: line too long: {len} bytes, the limit is {line_cap}"
                    )),
                    pencilmarks: None,
                });
            }
            let line = formats::from_field(whole, self.column);
            // The common case first: 81 cells then a separator or the end.
            if let Some(puzzle) = line_of_valid_puzzle(line).filter(|_| !self.first) {
                emit!(Record {
                    index: next_index(index),
                    source: Arc::clone(name),
                    line: line_no,
                    raw: String::new(),
                    grid: Ok(puzzle),
                    pencilmarks: None,
                });
            }
            let Some(field) = puzzle_field(line, self.first) else {
                continue;
            };
            if std::mem::take(&mut self.first) {
                match &self.wanted {
                    None => {
                        if let Some(k) = formats::header_column(whole) {
                            self.column = k;
                            self.csv = true;
                            continue;
                        }
                    }
                    Some(Column::Name(wanted)) => match formats::named_column(whole, wanted) {
                        Some(k) => {
                            self.column = k;
                            continue;
                        }
                        None => bail!(
                            "input {name} has no column named {wanted:?} (--column): its first \
                             line, read as a CSV header, names {}",
                            header_list(whole)
                        ),
                    },
                    Some(Column::Number(_)) => {
                        if formats::header_column(whole).is_some() || formats::is_column_name(field)
                        {
                            continue;
                        }
                    }
                }
            }
            // A field of 81 or 729 characters is read as it stands.
            if !self.csv && field.len() != 81 && field.len() != 729 {
                match formats::pasted(line) {
                    Some(Pasted::Rule) => continue,
                    Some(Pasted::Cells(cells)) if cells.len() == 9 => {
                        if let Some(record) = self.grid.push(&cells, name, line_no, index) {
                            return Ok(Some(Item::Record(record)));
                        }
                        continue;
                    }
                    Some(Pasted::Cells(cells)) if cells.len() == 81 => {
                        emit!(make_record(next_index(index), name, line_no, &cells));
                    }
                    Some(Pasted::Cells(cells)) if cells.len() != field.len() => {
                        // Cells between spaces or `|`, too few or too many.
                        emit!(Record {
                            index: next_index(index),
                            source: Arc::clone(name),
                            line: line_no,
                            raw: clip(&String::from_utf8_lossy(formats::trim_line_end(line))),
                            grid: Err(format!(
                                "{name}:{line_no}: wrong length: expected 81 cells, or 9 for a \
                                 row of a 9-line grid; found {} cells between the spaces or '|'",
                                cells.len()
                            )),
                            pencilmarks: None,
                        });
                    }
                    _ => {}
                }
            }
            emit!(make_record(next_index(index), name, line_no, field));
        }
    }
}

/// Advances the record counter `index` and returns the new record's index.
#[inline]
fn next_index(index: &mut u64) -> u64 {
    *index += 1;
    *index
}

/// A header line's column names for a message: `id, puzzle, solution`
/// (at most 20, then `...`).
fn header_list(line: &[u8]) -> String {
    let names: Vec<String> = formats::header_names(line)
        .take(21)
        .map(|n| format!("{:?}", String::from_utf8_lossy(n)))
        .collect();
    if names.len() > 20 {
        format!("{}, ...", names[..20].join(", "))
    } else {
        names.join(", ")
    }
}

/// The rows read so far of a puzzle written on 9 lines of 9 cells (a grid
/// pasted from a web page or a book); see [`formats::Pasted`].
#[derive(Default)]
struct PendingGrid {
    /// The rows' cells, 9 per row read, at most 72.
    cells: Vec<u8>,
    /// Lines of the first and the last row read.
    first_line: u64,
    last_line: u64,
}

impl PendingGrid {
    /// Takes the row read on line `line_no`: the grid's record (numbered on
    /// from `index`) when it is the ninth row, else `None`.
    fn push(
        &mut self,
        row: &[u8],
        name: &Arc<str>,
        line_no: u64,
        index: &mut u64,
    ) -> Option<Record> {
        if self.cells.is_empty() {
            self.first_line = line_no;
        }
        self.last_line = line_no;
        self.cells.extend_from_slice(row);
        if self.cells.len() < 81 {
            return None;
        }
        let cells = std::mem::take(&mut self.cells);
        *index += 1;
        Some(make_record(*index, name, self.first_line, &cells))
    }

    /// The record of rows read but cut short by a line that is no row (or
    /// the input's end), numbered on from `index`: an invalid record saying
    /// what they look like; `None` when no row is pending.
    fn cut_short(&mut self, name: &Arc<str>, index: &mut u64) -> Option<Record> {
        if self.cells.is_empty() {
            return None;
        }
        let cells = std::mem::take(&mut self.cells);
        let rows = cells.len() / 9;
        let (what, lines) = if rows == 1 {
            ("one row".to_owned(), format!("line {}", self.first_line))
        } else {
            (
                format!("{rows} rows"),
                format!("lines {}-{}", self.first_line, self.last_line),
            )
        };
        *index += 1;
        Some(Record {
            index: *index,
            source: Arc::clone(name),
            line: self.first_line,
            raw: String::from_utf8_lossy(&cells).into_owned(),
            grid: Err(format!(
                "{name}:{}: looks like {what} of a 9-line grid ({lines}); a grid written on \
                 lines needs 9 rows of 9 cells",
                self.first_line
            )),
            pencilmarks: None,
        })
    }
}

/// The puzzle field of one line (end of line included in `line`), or `None`
/// for a line that is not a record (blank or `#` comment). `first` strips a
/// UTF-8 byte-order mark.
fn puzzle_field(line: &[u8], first: bool) -> Option<&[u8]> {
    let mut line = line.strip_suffix(b"\n").unwrap_or(line);
    line = line.strip_suffix(b"\r").unwrap_or(line);
    if first {
        line = line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line);
    }
    let start = line.iter().position(|&b| b != b' ' && b != b'\t')?;
    let line = &line[start..];
    if line[0] == b'#' {
        return None;
    }
    if let Some(quoted) = formats::quoted_field(line) {
        return Some(quoted);
    }
    let end = line
        .iter()
        .position(|&b| is_separator(b))
        .unwrap_or(line.len());
    Some(&line[..end])
}

/// The puzzle of a line that starts with 81 cell characters followed by the
/// end of the line or a separator: what [`puzzle_field`] and [`make_record`]
/// would make of it, without scanning for the separator (no cell character
/// is one).
fn line_of_valid_puzzle(line: &[u8]) -> Option<Grid> {
    let ends_there = match line.get(81) {
        None => line.len() == 81,
        Some(&b) => is_separator(b) || b == b'\n',
    };
    ends_there.then(|| parse_valid(&line[..81])).flatten()
}

/// The bytes that end a puzzle field: whitespace, `,`, `;`, `:`, and the
/// `\r` of a CRLF line end.
#[inline]
fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b',' | b';' | b':' | b'\r')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_skipped_lines() {
        assert_eq!(puzzle_field(b"  \t\r\n", false), None);
        assert_eq!(puzzle_field(b"# note\n", false), None);
        assert_eq!(puzzle_field(b"  # note\n", false), None);
        assert_eq!(puzzle_field(b"abc ED=1\r\n", false), Some(&b"abc"[..]));
        assert_eq!(puzzle_field(b"abc:1:def", false), Some(&b"abc"[..]));
        assert_eq!(puzzle_field(b"abc;x", false), Some(&b"abc"[..]));
        assert_eq!(puzzle_field(b"abc,x\n", false), Some(&b"abc"[..]));
        assert_eq!(puzzle_field(b"\xef\xbb\xbfabc\n", true), Some(&b"abc"[..]));
        assert_eq!(puzzle_field(b"\"0043\",x\n", false), Some(&b"0043"[..]));
    }

    #[test]
    fn fast_path_agrees_with_grid_parse() {
        let p17 =
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
        let mut cases = vec![
            p17.to_string(),
            p17.replace('.', "0"),
            p17.replace('.', "_"),
        ];
        for (i, ch) in [
            (0, '1'),
            (16, '1'),
            (20, '2'),
            (30, '9'),
            (5, 'y'),
            (6, 'x'),
            (7, '*'),
            (8, '-'),
            (9, 'X'),
            (80, '3'),
        ] {
            let mut s = p17.to_string();
            s.replace_range(i..i + 1, &ch.to_string());
            cases.push(s);
        }
        cases.push(p17[..80].to_string());
        let src: Arc<str> = Arc::from("t");
        for case in cases {
            // Clashing givens (cases 3-5) parse: the workers check them.
            let slow = Grid::parse(&case).ok();
            assert_eq!(parse_valid(case.as_bytes()), slow, "{case}");
            // Whole lines: the shortcut agrees with the general path.
            for end in [
                "", "\n", "\r\n", " ED=7.1", ":1:x", ",x", ";", "\t", "x", "5\n",
            ] {
                let line = format!("{case}{end}");
                let general = puzzle_field(line.as_bytes(), false)
                    .and_then(|field| make_record(1, &src, 1, field).grid.ok());
                assert_eq!(line_of_valid_puzzle(line.as_bytes()), general, "{line:?}");
            }
        }
    }
}
