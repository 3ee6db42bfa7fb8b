//! The records of one input's lines: headers, CSV columns, pasted grids.

use super::csv::{line_fields, quoting, unquoted_field, Fields, Parser, Step};
use super::lines::{Input, Line, Lines};
use super::puzzle::{clip, cr_message, make_record, parse_valid};
use super::{streaming, utf16_message, Column, Item, Reading, LINE_CAP};
use crate::grid::Grid;
use crate::pipeline::formats::{self, Pasted};
use crate::pipeline::Record;
use anyhow::bail;
use std::io::BufRead;
use std::sync::Arc;

/// The records of one input's lines, one at a time ([`InputRecords::next`]):
/// the reading of lines into records that the reader's documentation
/// describes, for [`records_of`](super::records_of) (which hands them on)
/// and [`FileRecords`](super::FileRecords) (whose caller takes them when it
/// wants them).
pub(super) struct InputRecords<R> {
    name: Arc<str>,
    lines: Lines<R>,
    /// Where a line is assembled when it does not lie whole in the buffer.
    buf: Vec<u8>,
    /// Lines to read again before the input's next ones (see [`Again`]).
    again: Again,
    /// Longest line kept whole ([`Reading::line_cap`]); a CSV record over
    /// several lines is bounded by [`super::record_cap`] of it.
    line_cap: usize,
    /// `--column`, if given.
    wanted: Option<Column>,
    /// `--keep`'s column names (empty: none), then the optional kept
    /// columns' ([`Reading::optional`](super::Reading)).
    keep: Vec<String>,
    /// How many of `keep`'s names are `--keep`'s, which a header must name.
    required: usize,
    /// Where the kept columns are among a CSV record's fields, once the
    /// input's header named them (`None` for an optional column it lacks);
    /// `None` while the input's records are not CSV records (their kept
    /// fields are empty).
    keep_cols: Option<Vec<Option<usize>>>,
    /// The input's CSV header names the columns `source` and `line` (what
    /// `--source` writes): their fields name each record ([`Origin`]);
    /// they are looked up after `--keep`'s, at the end of `keep_cols`.
    origin: bool,
    /// [`Item::Waiting`] was the last item: read on without asking again.
    waited: bool,
    /// Lines read so far.
    line_no: u64,
    /// No record (nor header) read yet.
    first: bool,
    /// The puzzle's CSV column, from `--column N` or a header naming it
    /// (sudoflow's own CSV, Kaggle's sets); 0: the first field.
    column: usize,
    /// The puzzle column's name in the header, for messages.
    column_name: Option<String>,
    /// Records are CSV records (RFC 4180, see the [`csv`](super::csv)
    /// module), read for the puzzle's column: a header named one, or
    /// `--column` is given. Otherwise lines are records, and may be pasted
    /// puzzles (cells between spaces or `|`, box rules, 9-line grids).
    csv: bool,
    /// csv-core's reader, for CSV records that hold a quote.
    parser: Parser,
    /// A CSV record whose quoted field holds a line end: its lines so far.
    open: Option<OpenRecord>,
    grid: PendingGrid,
    /// A record read together with the record of a 9-line grid it cut
    /// short: handed out on the next call.
    queued: Option<Record>,
    /// The input's end was read (it is told once).
    ended: bool,
    /// The gzip member the last line read came from, if any.
    member: Option<GzipMember>,
}

/// Where a gzip member's records begin, to name them when it turns out
/// damaged.
#[derive(Clone, Copy)]
struct GzipMember {
    /// [`Lines::gzip_member`]'s number.
    number: u64,
    /// The input's line where its bytes begin.
    first_line: u64,
    /// The first record (row) that may hold its bytes.
    first_row: u64,
}

impl<R: Input> InputRecords<R> {
    /// Reads `input`, named `name`, as `reading` says (its `watch` aside:
    /// see [`InputRecords::next`]).
    pub(super) fn new(name: &Arc<str>, input: R, reading: &Reading<'_>) -> Self {
        InputRecords {
            name: Arc::clone(name),
            lines: Lines::new(input, reading.line_cap),
            buf: Vec::with_capacity(256),
            again: Again::default(),
            line_cap: reading.line_cap,
            wanted: reading.column.cloned(),
            keep: reading
                .keep
                .iter()
                .chain(reading.optional)
                .cloned()
                .collect(),
            required: reading.keep.len(),
            keep_cols: None,
            origin: false,
            waited: false,
            line_no: 0,
            first: true,
            column: match reading.column {
                Some(Column::Number(n)) => n.get() - 1,
                _ => 0,
            },
            column_name: match reading.column {
                Some(Column::Name(name)) => Some(name.clone()),
                _ => None,
            },
            csv: reading.column.is_some(),
            parser: Parser::new(),
            open: None,
            grid: PendingGrid::default(),
            queued: None,
            ended: false,
            member: None,
        }
    }

    /// The next record (numbered on from `index`), or [`Item::Waiting`]
    /// before a read that would wait for the descriptor `watch` (a pipe, a
    /// terminal), or `None` at the input's end.
    ///
    /// Errors: the input fails to read, starts with a UTF-16 byte-order
    /// mark, or (with `--column NAME`) its first line names no such column;
    /// with `--keep`, an input read as CSV whose header names no column of
    /// that name (or that has no header).
    pub(super) fn next(
        &mut self,
        index: &mut u64,
        watch: Option<&streaming::Watch>,
    ) -> anyhow::Result<Option<Item>> {
        let mut item = self.next_item(index, watch)?;
        if let Some(Item::Record(record)) = &mut item {
            if self.origin && record.kept.len() == self.keep.len() + 2 {
                let line = record.kept.pop().expect("two more");
                let source = record.kept.pop().expect("two more");
                Origin::of_fields(&source, &line).name(record);
            }
            // Not a CSV record (or one too damaged to have fields): its
            // kept columns are empty.
            if !self.keep.is_empty() && record.kept.is_empty() {
                record.kept = vec![String::new(); self.keep.len()];
            }
        }
        Ok(item)
    }

    /// The error of a read that failed after line `line_no`, the records
    /// numbered up to `index`. Inside a gzip member it names the line where
    /// the member starts and the rows that came from it: gzip finds a
    /// member's damage only at its end, after its lines were read.
    fn read_error(&self, e: std::io::Error, index: u64, line_no: u64) -> anyhow::Error {
        let e = match self.lines.gzip_member() {
            Some(n) => {
                let (first_line, first_row) = match self.member {
                    Some(m) if m.number == n => (m.first_line, m.first_row),
                    _ => (line_no + 1, index + 1),
                };
                anyhow::Error::new(e).context(format!(
                    "its gzip member from line {first_line} is damaged: {} (gzip checks a \
                     member's data only at its end)",
                    super::rows_from(first_row - 1, index)
                ))
            }
            None => anyhow::Error::new(e),
        };
        e.context(if line_no == 0 {
            format!("cannot read input {} at its start", self.name)
        } else {
            format!("cannot read input {} after line {line_no}", self.name)
        })
    }

    /// Where the input's first line cannot be read whole (`why`: it is
    /// over the line limit, or a quoted field runs on past it): an error
    /// when an option needs that line as a CSV header (`--column NAME`,
    /// `--keep`), which would otherwise become an invalid record and leave
    /// the option without its columns (every puzzle then read from the
    /// first field, no column kept, exit 0).
    fn header_needed(
        name: &str,
        (wanted, keep): (&Option<Column>, &[String]),
        why: &str,
    ) -> anyhow::Result<()> {
        let option = match (wanted, keep.is_empty()) {
            (Some(Column::Name(wanted)), _) => format!("--column {wanted}"),
            (_, false) => format!("--keep {}", keep.join(",")),
            _ => return Ok(()),
        };
        bail!(
            "input {name}'s first line {why}, so its CSV header, which {option} reads, cannot \
             be read"
        )
    }

    /// [`InputRecords::next`], its records' kept columns filled only
    /// where they are CSV records.
    fn next_item(
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
                emit!($record, None)
            }};
            ($record:expr, $kept:expr) => {{
                let kept: Option<Kept> = $kept;
                let cut = self.grid.cut_short(name, index);
                let mut record = $record;
                if let Some(kept) = kept {
                    kept.into_record(&mut record, &self.keep);
                }
                return Ok(Some(Item::Record(match cut {
                    Some(grid) => {
                        self.queued = Some(record);
                        grid
                    }
                    None => record,
                })));
            }};
        }
        // Skips a line that holds no record (a comment, a blank line, a
        // box rule); inside a band of a 9-line grid, it first hands out the
        // rows before it as a grid cut short, which the rows after it must
        // not complete ([`PendingGrid::cut_off_band_edge`]).
        macro_rules! skip {
            () => {{
                if let Some(cut) = self.grid.cut_off_band_edge(name, index) {
                    return Ok(Some(Item::Record(cut)));
                }
                continue;
            }};
        }
        loop {
            if let Some(w) = watch {
                if !std::mem::take(&mut self.waited)
                    && self.again.reads_input()
                    && self.lines.will_wait(w)
                {
                    self.waited = true;
                    return Ok(Some(Item::Waiting));
                }
            }
            let line_no = self.line_no;
            let line = match self.again.next_line(&mut self.lines, &mut self.buf) {
                Ok(line) => line,
                Err(e) => return Err(self.read_error(e, *index, line_no)),
            };
            if let Some(Some(number)) = line.as_ref().map(|(line, _)| line.member) {
                if self.member.is_none_or(|m| m.number != number) {
                    self.member = Some(GzipMember {
                        number,
                        first_line: line_no + 1,
                        first_row: *index + 1,
                    });
                }
            }
            let Some((
                Line {
                    bytes: whole,
                    len,
                    rest_blank,
                    ..
                },
                read_again,
            )) = line
            else {
                if let Some(open) = self.open.take() {
                    self.parser.restart();
                    self.line_no = open.first_line;
                    self.first = false;
                    let why = "is still open at the input's end";
                    emit!(open.cut(name, next_index(index), why, line_no, &mut self.again));
                }
                self.ended = true;
                return Ok(self.grid.cut_short(name, index).map(Item::Record));
            };
            self.line_no += 1;
            let line_no = self.line_no;
            if let Some(open) = &mut self.open {
                // The next line of a CSV record whose quoted field holds a
                // line end.
                // Within the record's cap, each line within a line's (a
                // longer line is kept only in part: its quotes are not all
                // known).
                let so_far = open.len + len;
                let record_cap = super::record_cap(line_cap) as u64;
                let within = so_far <= record_cap && len <= line_cap as u64;
                let ends = within && self.parser.feed(&open.text, whole) == Step::Ends;
                open.push(whole, len, rest_blank);
                if within && !ends {
                    continue;
                }
                let open = self.open.take().expect("open");
                let stray = if len > line_cap as u64 {
                    Some(format!(
                        "has a line over {line_cap} bytes, the limit of a line (line {line_no}, \
                         {len} bytes)"
                    ))
                } else if !ends {
                    Some(format!(
                        "runs on past {record_cap} bytes, the limit of a record ({so_far} by line \
                         {line_no})"
                    ))
                } else {
                    quoting(&open.text, &[]).stray.map(|at| {
                        format!(
                            "closes on line {} with text after the quote",
                            open.line_at(at)
                        )
                    })
                };
                if let Some(why) = stray {
                    if self.first {
                        Self::header_needed(
                            name,
                            (&self.wanted, &self.keep[..self.required]),
                            &why,
                        )?;
                    }
                    self.parser.restart();
                    self.line_no = open.first_line;
                    self.first = false;
                    emit!(open.cut(name, next_index(index), &why, line_no, &mut self.again));
                }
                let fields = self.parser.fields();
                if std::mem::take(&mut self.first) {
                    let header = csv_header(name, &self.wanted, fields, self.column)?;
                    (self.keep_cols, self.origin) = header_columns(
                        name,
                        (&self.keep, self.required),
                        header.is_some(),
                        fields,
                    )?;
                    if let Some((k, header_name)) = header {
                        self.column = k;
                        self.column_name = Some(header_name);
                        continue;
                    }
                }
                let column = (self.column, self.column_name.as_deref());
                let lines = (open.first_line, line_no);
                let kept = kept_of_fields(&self.keep_cols, fields);
                emit!(
                    csv_record(name, next_index(index), lines, fields, column, &open.text),
                    kept
                );
            }
            if line_no == 1 {
                if let Some(encoding) = formats::utf16_bom(whole) {
                    bail!("{}", utf16_message(name, encoding));
                }
            }
            if len > line_cap as u64 {
                // Consumed as a stream: only its first `line_cap` bytes were kept.
                let head = &whole[..line_cap.min(whole.len())];
                // Blanks however many (as a short line of them): skipped.
                let kept = &whole[..whole.len().min(len as usize)];
                let kept = match self.first {
                    true => kept.strip_prefix(BOM).unwrap_or(kept),
                    false => kept,
                };
                if rest_blank && kept.iter().all(|&b| b == b' ' || b == b'\t') {
                    skip!();
                }
                // A `#` comment is skipped whatever its length (inside a
                // band of a 9-line grid, it ends the rows before it).
                // Not in a CSV past its first line: there a line is a record
                // whatever its first field holds (an id `#12`).
                let start = head.iter().position(|&b| b != b' ' && b != b'\t');
                // Not with a CR inside (all of a file of lines ended by CR
                // alone, its first line a comment).
                let comment = start.is_some_and(|s| head[s] == b'#');
                if (self.first || !self.csv) && comment && memchr::memchr(b'\r', head).is_none() {
                    skip!();
                }
                if self.first {
                    let why = format!("is {len} bytes long, over the limit of {line_cap}");
                    Self::header_needed(name, (&self.wanted, &self.keep[..self.required]), &why)?;
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
                    kept: Vec::new(),
                });
            }
            // A CR inside the line (not its end, nor in a quoted field):
            // lines ended by CR alone would read as the first record, the
            // rest of the file dropped unsaid (as text after the puzzle, a
            // comment, a header). The line is one record; the header may
            // still come after it (a comment holding a CR before it).
            let body = match self.first {
                true => whole.strip_prefix(BOM).unwrap_or(whole),
                false => whole,
            };
            if let Some(at) = inner_cr(body) {
                let text = String::from_utf8_lossy(formats::trim_line_end(body));
                emit!(Record {
                    index: next_index(index),
                    source: Arc::clone(name),
                    line: line_no,
                    raw: clip(&text),
                    grid: Err(cr_message(name, line_no, at)),
                    pencilmarks: None,
                    kept: Vec::new(),
                });
            }
            if self.csv {
                // The start of a CSV record.
                let whole = if self.first {
                    whole.strip_prefix(BOM).unwrap_or(whole)
                } else {
                    whole
                };
                // A comment only before the header (or the first record):
                // after it, a line is a record by RFC 4180 whatever its
                // first field holds (an id `#12`), and only a blank line is
                // skipped.
                if if self.first {
                    is_skipped(whole)
                } else {
                    is_blank(whole)
                } {
                    continue;
                }
                if !self.first && memchr::memchr(b'"', whole).is_none() {
                    // The common case: a record of one line, its fields
                    // split at commas.
                    let kept = kept_of_line(&self.keep_cols, whole);
                    match unquoted_field(whole, self.column) {
                        Ok(field) => {
                            if let Some(puzzle) = line_of_valid_puzzle(field) {
                                emit!(
                                    Record {
                                        index: next_index(index),
                                        source: Arc::clone(name),
                                        line: line_no,
                                        raw: String::new(),
                                        grid: Ok(puzzle),
                                        pencilmarks: None,
                                        kept: Vec::new(),
                                    },
                                    kept
                                );
                            }
                            emit!(
                                make_record(next_index(index), name, line_no, field_puzzle(field)),
                                kept
                            );
                        }
                        Err(n) => {
                            let column = (self.column, self.column_name.as_deref());
                            let lines = (line_no, line_no);
                            emit!(
                                short_record(name, next_index(index), lines, n, column, whole),
                                kept
                            );
                        }
                    }
                }
                if self.parser.feed(&[], whole) == Step::Open {
                    if read_again {
                        // Read again after a cut: one line, one record.
                        self.parser.close();
                    } else {
                        self.open = Some(OpenRecord::new(line_no, whole));
                        continue;
                    }
                }
                let fields = self.parser.fields();
                if std::mem::take(&mut self.first) {
                    let header = csv_header(name, &self.wanted, fields, self.column)?;
                    (self.keep_cols, self.origin) = header_columns(
                        name,
                        (&self.keep, self.required),
                        header.is_some(),
                        fields,
                    )?;
                    if let Some((k, header_name)) = header {
                        self.column = k;
                        self.column_name = Some(header_name);
                        continue;
                    }
                }
                let column = (self.column, self.column_name.as_deref());
                let lines = (line_no, line_no);
                let kept = kept_of_fields(&self.keep_cols, fields);
                emit!(
                    csv_record(name, next_index(index), lines, fields, column, whole),
                    kept
                );
            }
            // The common case first: 81 cells then a separator or the end.
            if let Some(puzzle) = line_of_valid_puzzle(whole).filter(|_| !self.first) {
                emit!(Record {
                    index: next_index(index),
                    source: Arc::clone(name),
                    line: line_no,
                    raw: String::new(),
                    grid: Ok(puzzle),
                    pencilmarks: None,
                    kept: Vec::new(),
                });
            }
            let line = whole;
            let Some(field) = puzzle_field(line, self.first) else {
                // A blank line or a comment.
                skip!();
            };
            if std::mem::take(&mut self.first) {
                // No --column (else `csv`): a header naming the puzzle's
                // column starts CSV records.
                let header = line_fields(whole.strip_prefix(BOM).unwrap_or(whole));
                let column = formats::header_column(header.fields().iter())
                    .map_err(|both| two_puzzle_columns(name, both, header.fields()))?;
                if let Some(k) = column {
                    self.column = k;
                    self.column_name = header.fields().get(k).map(header_name);
                    self.csv = true;
                    (self.keep_cols, self.origin) =
                        header_columns(name, (&self.keep, self.required), true, header.fields())?;
                    continue;
                }
            }
            // A field of 81 or 729 characters is read as it stands.
            if field.len() != 81 && field.len() != 729 {
                match formats::pasted(line) {
                    Some(Pasted::Rule) => skip!(),
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
                            kept: Vec::new(),
                        });
                    }
                    _ => {}
                }
            }
            emit!(make_record(next_index(index), name, line_no, field));
        }
    }
}

/// The record of one item of a list of puzzles, each item one record (the
/// Python package's input): `item` read as a line of an input named `source`
/// is read (see the module documentation: text after a separator ignored,
/// a quoted field, 729-character pencilmarks, cells pasted between spaces or
/// `|`), numbered `index` (from 1) and named `source:index` in its error,
/// a line end after it ignored. What only makes sense across lines is not
/// looked for (a header) or is an error, so that every item is exactly one
/// record: an item that is blank, a `#` comment or a box rule, one row of a
/// 9-line grid, or that holds more than one line.
pub fn item_record(index: u64, source: &Arc<str>, item: &[u8]) -> Record {
    let invalid = |raw: &[u8], error: &str| Record {
        index,
        source: Arc::clone(source),
        line: index,
        raw: clip(&String::from_utf8_lossy(raw)),
        grid: Err(format!("{source}:{index}: {error}")),
        pencilmarks: None,
        kept: Vec::new(),
    };
    let line = formats::trim_line_end(item);
    if let Some(at) = memchr::memchr(b'\n', line) {
        let lines = line.split(|&b| b == b'\n').count();
        return invalid(
            &line[..at],
            &format!("{lines} lines in one item: an item holds one puzzle, on one line"),
        );
    }
    // A CR inside it, as a file's line says it (it was taken for text after
    // the puzzle; found by probing).
    if let Some(at) = inner_cr(item) {
        return Record {
            grid: Err(cr_message(source, index, at)),
            ..invalid(line, "")
        };
    }
    // The common case first, as the reader takes it: within a line's cap
    // (a longer item is "line too long", as the same line of a file is,
    // whatever its start; found by probing).
    if let Some(grid) = line_of_valid_puzzle(line).filter(|_| line.len() <= LINE_CAP) {
        return Record {
            index,
            source: Arc::clone(source),
            line: index,
            raw: String::new(),
            grid: Ok(grid),
            pencilmarks: None,
            kept: Vec::new(),
        };
    }
    let reading = Reading {
        line_cap: LINE_CAP,
        column: None,
        keep: &[],
        optional: &[],
        watch: None,
    };
    let input: Box<dyn BufRead + Send + '_> = Box::new(line);
    let mut records = InputRecords::new(source, input, &reading);
    // A line of a file past its header, numbered as the item.
    records.first = false;
    records.line_no = index.saturating_sub(1);
    let mut counter = index.saturating_sub(1);
    let text = line.trim_ascii();
    match records.next(&mut counter, None) {
        Ok(Some(Item::Record(record))) => record,
        Ok(_) if text.is_empty() => invalid(text, "no puzzle (an empty item)"),
        Ok(_) if text[0] == b'#' => invalid(text, "no puzzle (a # comment)"),
        Ok(_) => invalid(text, "no puzzle (a box rule)"),
        Err(e) => invalid(text, &format!("{e:#}")),
    }
}

/// Where a record read from a CSV with the columns `source` and `line`
/// came from: sudoflow's own `--source` output (`canon --distinct
/// --source big.csv | rate -`). Such a record is named by those fields instead of
/// its place in the CSV: its [`Record::source`] and [`Record::line`] (so
/// that errors, and `--source` downstream, name the original input and
/// line), and the `source:line` its reader's error starts with.
#[derive(Debug, PartialEq, Eq)]
struct Origin<'a> {
    source: &'a str,
    line: u64,
}

impl<'a> Origin<'a> {
    /// The origin the fields `source` and `line` name: `None` unless
    /// `source` is not blank and `line` is a line number (1 or more, and at
    /// most `i64::MAX`, what every output's `line` column holds: Parquet's is
    /// an int64).
    fn of_fields(source: &'a str, line: &str) -> Option<Origin<'a>> {
        let line = line
            .trim()
            .parse()
            .ok()
            .filter(|&n: &u64| n > 0 && i64::try_from(n).is_ok())?;
        let source = source.trim();
        (!source.is_empty()).then_some(Origin { source, line })
    }
}

trait NameRecord {
    /// Names `record` by this origin (nothing for `None`).
    fn name(self, record: &mut Record);
}

impl NameRecord for Option<Origin<'_>> {
    fn name(self, record: &mut Record) {
        let Some(origin) = self else {
            return;
        };
        if let Err(message) = &mut record.grid {
            let here = format!("{}:{}: ", record.source, record.line);
            if let Some(why) = message.strip_prefix(&here) {
                *message = format!("{}:{}: {why}", origin.source, origin.line);
            }
        }
        if *record.source != *origin.source {
            record.source = Arc::from(origin.source);
        }
        record.line = origin.line;
    }
}

/// A UTF-8 byte-order mark, dropped before an input's first record.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Advances the record counter `index` and returns the new record's index.
#[inline]
fn next_index(index: &mut u64) -> u64 {
    *index += 1;
    *index
}

/// Whether `line` (end included) holds only spaces, tabs and its line end.
#[inline]
fn is_blank(line: &[u8]) -> bool {
    line.iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

/// Whether `line` (end included) is no record: blank (spaces and tabs), or
/// a `#` comment (its first other byte).
#[inline]
fn is_skipped(line: &[u8]) -> bool {
    match line.first() {
        Some(b' ' | b'\t' | b'#' | b'\r' | b'\n') | None => puzzle_field(line, false).is_none(),
        Some(_) => false,
    }
}

/// The first CSV record of an input read with `--column` (`wanted`), told
/// apart as a header: the puzzle's column and its name when it is one
/// (`--column NAME`: the column so named; `--column N`: a record naming a
/// puzzle column, or whose N-th field, at `column`, is a name), `None` when
/// it is a record.
///
/// Errors: `--column NAME` and the record names no such column; `--column
/// N` and the record is a header with fewer than N fields.
fn csv_header(
    name: &str,
    wanted: &Option<Column>,
    fields: Fields<'_>,
    column: usize,
) -> anyhow::Result<Option<(usize, String)>> {
    match wanted {
        Some(Column::Name(wanted)) => match formats::named_column(fields.iter(), wanted) {
            Some(k) => Ok(Some((k, wanted.clone()))),
            None => bail!(
                "input {name} has no column named {wanted:?} (--column): its first line, read \
                 as a CSV header, names {}",
                header_list(fields)
            ),
        },
        Some(Column::Number(_)) => {
            let named = formats::header_column(fields.iter()) != Ok(None)
                || fields
                    .get(column)
                    .is_some_and(|f| formats::is_column_name(field_puzzle(f)));
            if !named {
                return Ok(None);
            }
            match fields.get(column) {
                Some(f) => Ok(Some((column, header_name(f)))),
                None => bail!(
                    "input {name} has no column {} (--column): its first line, read as a CSV \
                     header, names {}",
                    column + 1,
                    header_list(fields)
                ),
            }
        }
        None => Ok(None),
    }
}

/// Where the kept columns (`keep`: the first `required` of them
/// `--keep`'s, the rest optional) lie among the fields of an input's first
/// CSV record, which is a header when `is_header`: `None` without kept
/// columns, or with optional ones only and no header; `None` for an
/// optional column the header lacks.
///
/// Errors: `--keep` names a column the header does not have, or the input
/// has no header (its first record is a puzzle) to name it.
fn keep_columns(
    name: &str,
    (keep, required): (&[String], usize),
    is_header: bool,
    fields: Fields<'_>,
) -> anyhow::Result<Option<Vec<Option<usize>>>> {
    if keep.is_empty() || (!is_header && required == 0) {
        return Ok(None);
    }
    if !is_header {
        bail!(
            "input {name} has no CSV header (its first record is a puzzle), so no column \
             named {:?} (--keep)",
            keep[0]
        );
    }
    keep.iter()
        .enumerate()
        .map(
            |(k, wanted)| match formats::named_column(fields.iter(), wanted) {
                Some(at) => Ok(Some(at)),
                None if k >= required => Ok(None),
                None => bail!(
                    "input {name} has no column named {wanted:?} (--keep): its first line, read \
                     as a CSV header, names {}",
                    header_list(fields)
                ),
            },
        )
        .collect::<anyhow::Result<Vec<Option<usize>>>>()
        .map(Some)
}

/// Where the kept columns are in the header `fields` (`is_header`:
/// whether the first record is one), and the columns `source` and `line`
/// after them when the header names both ([`Origin`]); whether it does.
///
/// Errors: as [`keep_columns`].
fn header_columns(
    name: &str,
    keep: (&[String], usize),
    is_header: bool,
    fields: Fields<'_>,
) -> anyhow::Result<(Option<Vec<Option<usize>>>, bool)> {
    let mut cols = keep_columns(name, keep, is_header, fields)?;
    let origin = ["source", "line"].map(|n| formats::named_column(fields.iter(), n));
    if let (true, [Some(source), Some(line)]) = (is_header, origin) {
        cols.get_or_insert_with(|| vec![None; keep.0.len()])
            .extend([Some(source), Some(line)]);
        return Ok((cols, true));
    }
    Ok((cols, false))
}

/// A record's kept fields ([`Record::kept`]) as read, and the first of them
/// that is not UTF-8 text.
struct Kept {
    /// Each kept field, lossily decoded (U+FFFD for each bad sequence).
    texts: Vec<String>,
    /// The first field that is not UTF-8: its position among the kept
    /// columns, and what is wrong ([`super::puzzle::not_utf8`]).
    not_utf8: Option<(usize, String)>,
}

impl Kept {
    /// Kept fields read from `fields` (each `None` past the record's last
    /// field: empty); `last` says whether a field is its record's last one,
    /// which drops the `\r` a CSV record's last field keeps of `\r\n`.
    fn of<'f>(fields: impl Iterator<Item = (Option<&'f [u8]>, bool)>) -> Kept {
        let mut kept = Kept {
            texts: Vec::new(),
            not_utf8: None,
        };
        for (k, (field, last)) in fields.enumerate() {
            let Some(field) = field else {
                kept.texts.push(String::new());
                continue;
            };
            let field = if last {
                formats::trim_line_end(field)
            } else {
                field
            };
            if let (Err(e), None) = (std::str::from_utf8(field), &kept.not_utf8) {
                kept.not_utf8 = Some((k, super::puzzle::not_utf8(field, e)));
            }
            kept.texts.push(String::from_utf8_lossy(field).into_owned());
        }
        kept
    }

    /// Puts these fields into `record`. A field that is not UTF-8 would be
    /// written changed (two distinct ids could become one value), so it
    /// makes the record invalid, its error naming the column (`keep`'s
    /// names, then `source` and `line` for a record that carries its
    /// origin); a record already invalid keeps its own error. A pencilmark
    /// puzzle's record drops its candidates, so that its error is said.
    fn into_record(self, record: &mut Record, keep: &[String]) {
        let mut texts = self.texts;
        let valid = record.grid.is_ok() || record.pencilmarks.is_some();
        if let (Some((k, why)), true) = (self.not_utf8, valid) {
            let column = match keep.get(k) {
                Some(name) => name.as_str(),
                None if k == keep.len() => {
                    // A `source` field that is not UTF-8 names no origin:
                    // the record keeps its own place, which its error
                    // names (found by probing: it was named by the changed
                    // text).
                    texts[k].clear();
                    "source"
                }
                None => "line",
            };
            if let Ok(grid) = &record.grid {
                record.raw = grid.to_line();
            }
            record.pencilmarks = None;
            record.grid = Err(format!(
                "{}:{}: column {column:?} is {why} of its field (convert the input to UTF-8, \
                 e.g. with iconv)",
                record.source, record.line
            ));
        }
        record.kept = texts;
    }
}

/// The kept columns (`cols`, `None` without `--keep`) of a CSV record's
/// `fields`; a column past the record's last field is empty.
fn kept_of_fields(cols: &Option<Vec<Option<usize>>>, fields: Fields<'_>) -> Option<Kept> {
    let cols = cols.as_ref()?;
    Some(Kept::of(cols.iter().map(|&k| match k {
        Some(k) => (fields.get(k), k + 1 == fields.len()),
        None => (None, false),
    })))
}

/// [`kept_of_fields`] of a line without a double quote (its end included),
/// whose fields end at commas.
fn kept_of_line(cols: &Option<Vec<Option<usize>>>, line: &[u8]) -> Option<Kept> {
    let cols = cols.as_ref()?;
    let fields: Vec<&[u8]> = formats::trim_line_end(line).split(|&b| b == b',').collect();
    Some(Kept::of(
        cols.iter()
            .map(|&k| (k.and_then(|k| fields.get(k).copied()), false)),
    ))
}

/// A header field as a name for messages.
fn header_name(field: &[u8]) -> String {
    String::from_utf8_lossy(formats::column_name(field)).into_owned()
}

/// A header's column names for a message: `id, puzzle, solution` (at most
/// 20, then `...`).
fn header_list(fields: Fields<'_>) -> String {
    let names: Vec<String> = fields
        .iter()
        .take(21)
        .map(|n| format!("{:?}", header_name(n)))
        .collect();
    if names.len() > 20 {
        format!("{}, ...", names[..20].join(", "))
    } else {
        names.join(", ")
    }
}

/// The error of a header naming two columns alike as the puzzle's (`both`,
/// 0-based; [`formats::header_column`]).
fn two_puzzle_columns(name: &str, both: [usize; 2], fields: Fields<'_>) -> anyhow::Error {
    let named = both.map(|k| (k, header_name(fields.get(k).unwrap_or_default())));
    formats::two_puzzle_columns(name, named)
}

/// The puzzle's column and its name in the header, if any, for messages.
type PuzzleColumn<'a> = (usize, Option<&'a str>);

/// The record of a CSV record on lines `lines` (first, last) whose fields
/// are `fields` and text `text` (for `raw`): its puzzle column's
/// ([`field_puzzle`]), or [`short_record`]'s when it has too few fields.
fn csv_record(
    name: &Arc<str>,
    index: u64,
    lines: (u64, u64),
    fields: Fields<'_>,
    column: PuzzleColumn<'_>,
    text: &[u8],
) -> Record {
    let Some(field) = fields.get(column.0) else {
        return short_record(name, index, lines, fields.len(), column, text);
    };
    let mut record = make_record(index, name, lines.0, field_puzzle(field));
    if lines.1 > lines.0 {
        if let Err(error) = &mut record.grid {
            error.push_str(&format!(
                " (the record runs over lines {}-{}: a quoted field holds line ends)",
                lines.0, lines.1
            ));
        }
    }
    record
}

/// The invalid record of a CSV record with `n` fields, too few for the
/// puzzle's `column`.
fn short_record(
    name: &Arc<str>,
    index: u64,
    lines: (u64, u64),
    n: usize,
    column: PuzzleColumn<'_>,
    text: &[u8],
) -> Record {
    let (first, last) = lines;
    let fields = if n == 1 { "field" } else { "fields" };
    let named = column.1.map(|c| format!(" ({c})")).unwrap_or_default();
    let on = if last > first {
        format!(" (over lines {first}-{last}: a quoted field holds line ends)")
    } else {
        String::new()
    };
    Record {
        index,
        source: Arc::clone(name),
        line: first,
        raw: clip(&String::from_utf8_lossy(formats::trim_line_end(text))),
        grid: Err(format!(
            "{name}:{first}: has {n} {fields}{on}, the puzzle column{named} is field {}",
            column.0 + 1
        )),
        pencilmarks: None,
        kept: Vec::new(),
    }
}

/// The puzzle in a CSV field (or in what follows a field's start, to the
/// line's end): blanks and line ends before it dropped, a `"`-quoted text's inside (when
/// blanks came before the quote, which is then no CSV quote), else the text
/// up to the first separator (space, tab, `,`, `;`, `:`, `\r` or a line
/// end), as [`puzzle_field`] reads a line's first field.
fn field_puzzle(field: &[u8]) -> &[u8] {
    let start = field
        .iter()
        .position(|&b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        .unwrap_or(field.len());
    let field = &field[start..];
    if let Some(quoted) = formats::quoted_field(field) {
        return quoted;
    }
    let end = field
        .iter()
        .position(|&b| is_separator(b) || b == b'\r' || b == b'\n')
        .unwrap_or(field.len());
    &field[..end]
}

/// A CSV record whose quoted field holds a line end, being read.
struct OpenRecord {
    /// The line it starts on.
    first_line: u64,
    /// Its lines so far, ends included (a line past the cap as [`Lines`]
    /// keeps it: its head).
    text: Vec<u8>,
    /// The lines after the first: where each starts in `text`, its length
    /// less its end, and whether its bytes not kept are blanks.
    later: Vec<(usize, u64, bool)>,
    /// Its length so far in bytes, its lines' ends included.
    len: u64,
    /// Where its first line ends in `text`.
    first_end: usize,
}

impl OpenRecord {
    /// A record whose first line, `line_no`, is `line` (its end included).
    fn new(line_no: u64, line: &[u8]) -> OpenRecord {
        OpenRecord {
            first_line: line_no,
            text: line.to_vec(),
            later: Vec::new(),
            len: line.len() as u64,
            first_end: line.len(),
        }
    }

    /// Takes the record's next line (its end included), `len` bytes less
    /// its end, and whether the bytes of it not kept are blanks
    /// ([`Line::rest_blank`]).
    fn push(&mut self, line: &[u8], len: u64, rest_blank: bool) {
        self.later.push((self.text.len(), len, rest_blank));
        self.text.extend_from_slice(line);
        self.len += line.len() as u64;
    }

    /// The line of the record that byte `at` of its text lies on.
    fn line_at(&self, at: usize) -> u64 {
        let later = self.later.iter().take_while(|&&(start, ..)| start <= at);
        self.first_line + later.count() as u64
    }

    /// Cuts the record, read to line `last`, back to its first line: that
    /// line's invalid record, numbered `index`, saying that a quoted field
    /// `why` (does not close as it should); the lines after it go to
    /// `again`, to be read again one record each.
    fn cut(self, name: &Arc<str>, index: u64, why: &str, last: u64, again: &mut Again) -> Record {
        let mut starts = self.later.iter().map(|&(start, ..)| start).skip(1);
        for &(start, len, rest_blank) in &self.later {
            let end = starts.next().unwrap_or(self.text.len());
            again.push(self.text[start..end].to_vec(), len, rest_blank);
        }
        let first = &self.text[..self.first_end];
        let line = self.first_line;
        let after = if last > line + 1 {
            format!(" and lines {}-{last} each as one", line + 1)
        } else if last > line {
            format!(" and line {last} as another")
        } else {
            String::new()
        };
        Record {
            index,
            source: Arc::clone(name),
            line,
            raw: clip(&String::from_utf8_lossy(formats::trim_line_end(first))),
            grid: Err(format!(
                "{name}:{line}: unclosed quote? A quoted field of the record starting here \
                 {why}, so this line is read as one record{after}"
            )),
            pencilmarks: None,
            kept: Vec::new(),
        }
    }
}

/// Lines read once and to be read again: those after the first line of a
/// CSV record cut back to it ([`OpenRecord::cut`]); each is read as one
/// record ([`Again::next_line`] says which lines come from here). At most a
/// record's worth: [`super::record_cap`] bytes and one more line.
#[derive(Default)]
struct Again {
    /// The lines, each with its length less its end and whether its bytes
    /// not kept are blanks ([`Line::rest_blank`]).
    lines: std::collections::VecDeque<(Vec<u8>, u64, bool)>,
    /// The line handed out last.
    current: Vec<u8>,
    /// The input's end was read.
    ended: bool,
}

impl Again {
    fn push(&mut self, line: Vec<u8>, len: u64, rest_blank: bool) {
        self.lines.push_back((line, len, rest_blank));
    }

    /// The next line is the input's, and its end has not been read.
    fn reads_input(&self) -> bool {
        self.lines.is_empty() && !self.ended
    }

    /// The next line to read again, else the input's next line (`None` at
    /// its end, told once); with whether it is read again.
    fn next_line<'a, R: Input>(
        &'a mut self,
        lines: &'a mut Lines<R>,
        buf: &'a mut Vec<u8>,
    ) -> std::io::Result<Option<(Line<'a>, bool)>> {
        if let Some((line, len, rest_blank)) = self.lines.pop_front() {
            self.current = line;
            return Ok(Some((
                Line {
                    bytes: &self.current,
                    len,
                    rest_blank,
                    member: None,
                },
                true,
            )));
        }
        if self.ended {
            return Ok(None);
        }
        let line = lines.next_line(buf)?;
        self.ended = line.is_none();
        Ok(line.map(|line| (line, false)))
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

    /// [`PendingGrid::cut_short`] where a line that holds no row (a box
    /// rule, a blank line, a comment) comes inside a band of the grid:
    /// such a line may stand before the grid, between its bands and after
    /// it (after 0, 3 or 6 rows), not inside a band, so the rows before it
    /// end there (`None` at a band edge, or with no row pending). Without
    /// it, 8 rows of one grid and the first row of the next, a comment
    /// between them, were read as one puzzle that is in no input.
    fn cut_off_band_edge(&mut self, name: &Arc<str>, index: &mut u64) -> Option<Record> {
        if self.cells.len().is_multiple_of(27) {
            return None;
        }
        self.cut_short(name, index)
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
            kept: Vec::new(),
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
        // A CR ends it only as the line's end (CRLF or a last line's CR).
        Some(b'\r') => matches!(line.get(82), None | Some(b'\n')),
        Some(&b) => is_separator(b) || b == b'\n',
    };
    ends_there.then(|| parse_valid(&line[..81])).flatten()
}

/// Where `line` (its end included, as read) holds a `\r` that is not its
/// end (`\r\n`, or a last line's `\r`) nor inside double quotes (a quoted
/// CSV field may hold one, RFC 4180), if it does.
fn inner_cr(line: &[u8]) -> Option<usize> {
    let line = formats::trim_line_end(line);
    memchr::memchr(b'\r', line)?;
    let mut quoted = false;
    for (i, &b) in line.iter().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            b'\r' if !quoted => return Some(i),
            _ => {}
        }
    }
    None
}

/// The bytes that end a puzzle field: whitespace, `,`, `;`, `:`. Not a
/// `\r` inside a line: a file whose lines end in CR alone (classic Mac OS)
/// would read as its first puzzle, the rest of it dropped unsaid; such a
/// field is an invalid record naming the CR ([`make_record`]).
#[inline]
fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b',' | b';' | b':')
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor};

    /// A quote that never closes, before a flood of lines: the record is
    /// cut back at the record cap, the lines read again, and what is held
    /// (the open record, the lines to read again) never passes a record's
    /// cap and a line's.
    #[test]
    fn a_stray_quote_holds_at_most_a_record_of_lines() {
        let cap = 1000;
        let lines = 100_000;
        let mut text = b"id,puzzle\n1,\"\n".to_vec();
        text.extend(b"abcdefgh\n".repeat(lines));
        let input: Box<dyn std::io::BufRead> = Box::new(BufReader::new(Cursor::new(text)));
        let reading = Reading {
            line_cap: cap,
            column: None,
            keep: &[],
            optional: &[],
            watch: None,
        };
        let mut records = InputRecords::new(&Arc::from("a.csv"), input, &reading);
        let (mut index, mut cut, mut others) = (0, 0, 0);
        while let Some(item) = records.next(&mut index, None).unwrap() {
            let Item::Record(record) = item else {
                panic!("no waiting on a reader that is not watched");
            };
            let held = records.open.as_ref().map_or(0, |o| o.text.len())
                + records
                    .again
                    .lines
                    .iter()
                    .map(|(l, ..)| l.len())
                    .sum::<usize>();
            assert!(
                held <= super::super::record_cap(cap) + cap + 2,
                "{held} bytes held"
            );
            match record.grid.unwrap_err() {
                e if e.contains("unclosed quote?") => cut += 1,
                e => {
                    assert!(
                        e.contains("has 1 field, the puzzle column (puzzle) is field 2"),
                        "{e}"
                    );
                    others += 1;
                }
            }
        }
        assert_eq!((cut, others), (1, lines));
        assert_eq!(index, lines as u64 + 1);
    }

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
