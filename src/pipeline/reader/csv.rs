//! CSV records by RFC 4180, for inputs with a puzzle column (a header naming
//! one, or `--column`): fields separated by commas, a field that starts with
//! a double quote runs to its closing quote and may hold commas, `""` (a
//! quote) and line ends, so that one record may lie on several lines; it is
//! numbered at its first.
//!
//! A line without a double quote is a record by itself, its fields split at
//! each comma: what RFC 4180 makes of it, found without the parser (the
//! common case, Kaggle's `quizzes,solutions`; see [`unquoted_field`]). Any
//! other record is read by csv-core ([`Parser`]).
//!
//! Bounds: a record is read up to [`super::LINE_CAP`] bytes a line (64 KiB)
//! and [`super::record_cap`] in all (1 MiB, line ends inside it counted). A record whose quoted field is still open past
//! that, or at the input's end, or one over several lines with text after a
//! closing quote (`"a"b`: RFC 4180 wants a comma or the line's end there,
//! and a later record's opening quote closed it; see [`quoting`]), has a
//! quote that does not close (a typo, most likely): the reader cuts it back
//! to its first line, which is one invalid record saying so, and reads the
//! lines after it again, each as one record (a quote still open at a line's
//! end closes there), so that memory stays bounded and no later record is
//! swallowed by the stray quote; each line is read at most twice.

use csv_core::{ReadRecordResult, ReaderBuilder, Terminator};

/// The fields of one CSV record, quotes taken off (`"a ""b"", c"` is
/// `a "b", c`).
#[derive(Clone, Copy)]
pub(super) struct Fields<'a> {
    bytes: &'a [u8],
    /// Where each field ends in `bytes`.
    ends: &'a [usize],
}

impl<'a> Fields<'a> {
    /// How many fields the record has.
    pub(super) fn len(&self) -> usize {
        self.ends.len()
    }

    /// The `k`-th field (0-based), or `None` when the record has fewer.
    pub(super) fn get(&self, k: usize) -> Option<&'a [u8]> {
        let end = *self.ends.get(k)?;
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        Some(&self.bytes[start..end])
    }

    /// The fields in order.
    pub(super) fn iter(self) -> impl Iterator<Item = &'a [u8]> + Clone {
        (0..self.len()).filter_map(move |k| self.get(k))
    }
}

/// What a line does to the record [`Parser::feed`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
    /// The record ends with this line: [`Parser::fields`] has its fields.
    Ends,
    /// A quoted field holds this line's end: the record goes on.
    Open,
}

/// csv-core's reader with buffers for one record's fields.
pub(super) struct Parser {
    reader: csv_core::Reader,
    /// The record's field bytes so far.
    bytes: Vec<u8>,
    /// Field ends so far.
    ends: Vec<usize>,
    /// Bytes of `bytes` and entries of `ends` in use.
    nout: usize,
    nend: usize,
}

impl Parser {
    pub(super) fn new() -> Parser {
        Parser {
            reader: fresh_reader(),
            bytes: vec![0; 256],
            ends: vec![0; 16],
            nout: 0,
            nend: 0,
        }
    }

    /// Forgets the record being read: the next line starts a record.
    pub(super) fn restart(&mut self) {
        restart(&mut self.reader);
        self.nout = 0;
        self.nend = 0;
    }

    /// Reads the next line of a record, its end included, after `before`,
    /// the record's lines so far. A line without an end, the input's last,
    /// ends the record unless a quoted field is open at its end.
    pub(super) fn feed(&mut self, before: &[u8], line: &[u8]) -> Step {
        let step = self.read(line);
        if step == Step::Open && line.last() != Some(&b'\n') && !quoting(before, line).open {
            self.close();
            return Step::Ends;
        }
        step
    }

    /// Ends the record at this point, a quoted field still open closing
    /// here (a line read alone after a cut: see the module's
    /// documentation).
    pub(super) fn close(&mut self) {
        loop {
            let (result, _, nout, nend) = self.reader.read_record(
                &[],
                &mut self.bytes[self.nout..],
                &mut self.ends[self.nend..],
            );
            self.nout += nout;
            self.nend += nend;
            match result {
                ReadRecordResult::OutputEndsFull => grow(&mut self.ends),
                ReadRecordResult::OutputFull => grow(&mut self.bytes),
                _ => break,
            }
        }
        // At its end the reader has nothing more to give: back to a
        // record's start for the next.
        restart(&mut self.reader);
    }

    /// The fields of the record read, once [`Parser::feed`] said
    /// [`Step::Ends`] (or after [`Parser::close`]); the next
    /// [`Parser::feed`] starts a new record.
    pub(super) fn fields(&mut self) -> Fields<'_> {
        let fields = Fields {
            bytes: &self.bytes[..self.nout],
            ends: &self.ends[..self.nend],
        };
        self.nout = 0;
        self.nend = 0;
        fields
    }

    fn read(&mut self, mut input: &[u8]) -> Step {
        loop {
            let (result, nin, nout, nend) = self.reader.read_record(
                input,
                &mut self.bytes[self.nout..],
                &mut self.ends[self.nend..],
            );
            input = &input[nin..];
            self.nout += nout;
            self.nend += nend;
            match result {
                // A record ends at a line's `\n`, its last byte.
                ReadRecordResult::Record | ReadRecordResult::End => return Step::Ends,
                ReadRecordResult::InputEmpty => return Step::Open,
                ReadRecordResult::OutputFull => grow(&mut self.bytes),
                ReadRecordResult::OutputEndsFull => grow(&mut self.ends),
            }
        }
    }
}

/// Doubles a buffer's length (the caller bounds the record's size).
fn grow<T: Default + Clone>(buffer: &mut Vec<T>) {
    let len = buffer.len().max(16);
    buffer.resize(2 * len, T::default());
}

/// csv-core's reader for RFC 4180 with records ending at `\n` only (a
/// `\r` before it stays in the last field, where the puzzle's reading
/// drops it), at the start of a record.
fn fresh_reader() -> csv_core::Reader {
    let mut reader = ReaderBuilder::new()
        .terminator(Terminator::Any(b'\n'))
        .build();
    prime(&mut reader);
    reader
}

/// Puts `reader` back at the start of a record: `reset`, which keeps its
/// tables (building them anew costs some 10^4 instructions, too much for a
/// line that a stray quote makes read alone), then [`prime`].
fn restart(reader: &mut csv_core::Reader) {
    reader.reset();
    prime(reader);
}

/// csv-core drops a UTF-8 byte-order mark at the start of the first bytes
/// a reader reads; the reader drops the input's own, and a later one is
/// text: a first read of an empty line (skipped) turns that off.
fn prime(reader: &mut csv_core::Reader) {
    let _ = reader.read_record(b"\n", &mut [0; 1], &mut [0; 1]);
}

/// The fields of `line` read alone as one record (a quoted field still
/// open at its end closes there): for an input's first line, told apart as
/// a header.
pub(super) fn line_fields(line: &[u8]) -> OwnedFields {
    let mut parser = Parser::new();
    if parser.feed(&[], line) == Step::Open {
        parser.close();
    }
    OwnedFields {
        ends: parser.ends[..parser.nend].to_vec(),
        bytes: parser.bytes[..parser.nout].to_vec(),
    }
}

/// [`Fields`] that own their bytes.
pub(super) struct OwnedFields {
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl OwnedFields {
    pub(super) fn fields(&self) -> Fields<'_> {
        Fields {
            bytes: &self.bytes,
            ends: &self.ends,
        }
    }
}

/// What RFC 4180's quotes make of a record's text so far (`before`, then
/// `line`), as csv-core reads them.
pub(super) struct Quoting {
    /// A quoted field is open at the text's end.
    pub(super) open: bool,
    /// Where (the offset in the text) text first follows a closing quote
    /// (`"a"b`, where a comma or the line's end belongs), if it does:
    /// csv-core reads it leniently (as `ab`); in a record that runs over
    /// lines it tells a stray quote, a closing quote missing on the first
    /// line, so that a quote of a later line closed the field and swallowed
    /// the lines between (see the module's documentation).
    pub(super) stray: Option<usize>,
}

/// See [`Quoting`]. (csv-core does not tell whether its reader is inside a
/// quoted field, and its `Reader::clone` does not copy the parsing tables,
/// so that a copy cannot be asked either.)
pub(super) fn quoting(before: &[u8], line: &[u8]) -> Quoting {
    #[derive(Clone, Copy, PartialEq)]
    enum At {
        FieldStart,
        Unquoted,
        Quoted,
        /// A quote inside a quoted field: a closing one, or the first of `""`.
        Quote,
    }
    let mut at = At::FieldStart;
    let mut stray = None;
    let mut bytes = before.iter().chain(line).copied().enumerate().peekable();
    while let Some((i, b)) = bytes.next() {
        at = match (at, b) {
            (At::FieldStart, b'"') => At::Quoted,
            (At::FieldStart | At::Unquoted | At::Quote, b',' | b'\n') => At::FieldStart,
            (At::FieldStart | At::Unquoted, _) => At::Unquoted,
            (At::Quoted, b'"') => At::Quote,
            (At::Quoted, _) => At::Quoted,
            (At::Quote, b'"') => At::Quoted,
            (At::Quote, _) => {
                let crlf = b == b'\r' && bytes.peek().is_some_and(|&(_, b)| b == b'\n');
                if !crlf && stray.is_none() {
                    stray = Some(i);
                }
                At::Unquoted
            }
        };
    }
    Quoting {
        open: at == At::Quoted,
        stray,
    }
}

/// The `k`-th field (0-based) of a line that holds no double quote, and
/// what follows it to the line's end; `Err(n)` when the line has only `n`
/// fields. RFC 4180 on such a line: fields end at commas.
#[inline]
pub(super) fn unquoted_field(line: &[u8], k: usize) -> Result<&[u8], usize> {
    let mut rest = line;
    for n in 0..k {
        match memchr::memchr(b',', rest) {
            Some(i) => rest = &rest[i + 1..],
            None => return Err(n + 1),
        }
    }
    Ok(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(lines: &[&[u8]]) -> (Vec<Step>, Vec<Vec<u8>>) {
        let mut parser = Parser::new();
        let mut before = Vec::new();
        let steps: Vec<Step> = lines
            .iter()
            .map(|l| {
                let step = parser.feed(&before, l);
                before.extend_from_slice(l);
                step
            })
            .collect();
        let fields = parser.fields().iter().map(<[u8]>::to_vec).collect();
        (steps, fields)
    }

    #[test]
    fn quoted_fields_hold_commas_quotes_and_line_ends() {
        let (steps, fields) = record(&[b"204,\"G \"\"H\"\" I\",x,\"multi\n", b"line, note\"\r\n"]);
        assert_eq!(steps, [Step::Open, Step::Ends]);
        let want: Vec<&[u8]> = vec![b"204", b"G \"H\" I", b"x", b"multi\nline, note\r"];
        assert_eq!(fields, want);
        // A line without an end (the input's last) ends the record.
        let (steps, fields) = record(&[b"1,\"a,b\""]);
        assert_eq!(steps, [Step::Ends]);
        assert_eq!(fields, [&b"1"[..], b"a,b"]);
        // ... unless a quoted field is still open there.
        let (steps, _) = record(&[b"1,\"a,b"]);
        assert_eq!(steps, [Step::Open]);
        // A `\r` is no record end; blanks before a quote make it text.
        let (_, fields) = record(&[b"a\rb, \"c,d\"\n"]);
        let want: Vec<&[u8]> = vec![b"a\rb", b" \"c", b"d\""];
        assert_eq!(fields, want);
        // A byte-order mark after the first record is text.
        let mut parser = Parser::new();
        assert_eq!(parser.feed(&[], b"\xef\xbb\xbfa,\"b\"\n"), Step::Ends);
        assert_eq!(parser.fields().get(0), Some(&b"\xef\xbb\xbfa"[..]));
    }

    #[test]
    fn a_line_read_alone_closes_its_quote() {
        let owned = line_fields(b"id,\"author, name\",\"open\n");
        let fields: Vec<&[u8]> = owned.fields().iter().collect();
        assert_eq!(fields, [&b"id"[..], b"author, name", b"open\n"]);
        let mut parser = Parser::new();
        assert_eq!(parser.feed(&[], b"\"a\n"), Step::Open);
        parser.close();
        assert_eq!(parser.fields().get(0), Some(&b"a\n"[..]));
        // The next record starts afresh.
        assert_eq!(parser.feed(&[], b"b,c\n"), Step::Ends);
        assert_eq!(parser.fields().len(), 2);
    }

    proptest::proptest! {
        /// On a line without quotes, the shortcut finds the fields csv-core
        /// finds, and tells a short line by its number of fields.
        #[test]
        fn unquoted_lines_split_as_csv_core_splits_them(
            line in "[a ,\r\t#]{0,12}\n?",
            k in 0usize..6,
        ) {
            // Empty lines are skipped before: csv-core skips them too.
            proptest::prop_assume!(line != "\n" && !line.is_empty());
            let owned = line_fields(line.as_bytes());
            let fields = owned.fields();
            match unquoted_field(line.as_bytes(), k) {
                Ok(rest) => {
                    let end = rest.iter().position(|&b| b == b',' || b == b'\n')
                        .unwrap_or(rest.len());
                    proptest::prop_assert_eq!(Some(&rest[..end]), fields.get(k));
                }
                Err(n) => {
                    proptest::prop_assert_eq!(n, fields.len());
                    proptest::prop_assert!(k >= n);
                }
            }
        }
    }
}
