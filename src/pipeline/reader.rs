//! Turning input bytes into [`Record`]s.
//!
//! The inputs are read in order as one stream of lines (LF or CRLF ends; a
//! last line without an end counts). Each line is one of:
//!
//! - **skipped, no record**: blank (only spaces or tabs), or its first
//!   non-blank character is `#` (tdoku-style headers), or it is the first
//!   non-skipped line of an input and a CSV header with a column named
//!   `puzzle`, `quizzes` or `quiz` (any case, quoted or not) anywhere in it
//!   (Kaggle's `quizzes,solutions` and `id,puzzle,solution,...`, sudoflow's
//!   own `index,puzzle,...`; a UTF-8 byte-order mark before it is ignored):
//!   the later lines then have their puzzle field read from that column, so
//!   that `solve` re-reads a `generate` corpus or its own output;
//! - **a record**: everything else. Its puzzle field is the text up to the
//!   first separator (space, tab, `,`, `;` or `:`), or a quoted CSV field's
//!   text (`"0043..."`); what follows the separator
//!   (`ED=7.1/1.2/1.2`, tdoku's `:count:solution`, Kaggle's solution column) is
//!   ignored. With `--column` ([`Column`]) the puzzle is read from that CSV
//!   column instead (a comma inside a quoted field before it does not count).
//!   The field must hold 81 cells (`1`-`9` givens; `.`, `0`, `_`, `-`, `*`,
//!   `x` or `X` blanks), otherwise the record's grid is an error naming
//!   `source:line` and the problem, e.g. `a.txt:7: wrong length: expected 81
//!   cells, found 80`.
//!   A field of exactly 729 characters is a pencilmark puzzle
//!   ([`Pencilmarks`], tdoku's `-p` format) in [`Record::pencilmarks`].
//!   A malformed line is still exactly one record, so it never shifts the
//!   records after it. Whether the givens clash is the workers' check
//!   ([`Grid::check_givens`]), so that it runs in parallel, and in `solve`
//!   only for the records the solver finds no solution to.
//!
//! Puzzles pasted from web pages and books: where no CSV column is in use
//! (no header naming one, no `--column`), a line whose field is neither 81
//! nor 729 characters long but that holds only cell characters between
//! spaces, tabs and `|` is read by its cells: 81 of them are a puzzle (`5 3 . | . 7 . |
//! ...`), 9 are a row of a grid written on 9 lines, which is one record
//! (numbered at its first row) once its ninth row is read. Box rules between
//! the bands (`------+-------+------`, `+---+---+---+`; see
//! `Pasted::Rule` in the `formats` module) are skipped, as are blank lines and comments
//! inside a grid. Rows cut short by another line or the input's end are one
//! invalid record saying what they look like (`a.txt:3: looks like one row
//! of a 9-line grid (line 3); ...`).
//!
//! A line longer than [`LINE_CAP`] (64 KiB) is read as a stream, never held
//! whole: a `#` comment (told by its first non-blank byte) is skipped as any
//! other, and any other such line is one invalid record whose error gives
//! its length, e.g. `a.txt:3: line too long: 1073741824 bytes, the limit is
//! 65536`; its `raw` text is the line's first 200 characters.
//!
//! An input that is a directory, or text with a UTF-16 byte-order mark, is
//! an error naming it (and the encoding), not a stream of invalid records.
//!
//! Gzip: a gzip member starting at the beginning of a line (gzip's magic bytes
//! `1f 8b`) is decompressed in place, so `.gz` files, gzip on stdin and
//! `cat a.txt b.txt.gz | sudoflow solve` all work; members follow one another
//! as in `cat` (a line may run across a member boundary, as bgzip writes
//! them). A file named `*.gz` must start with gzip's magic bytes.
//!
//! Zip: an input (a file or stdin) that starts with a zip signature is an
//! archive whose members are read in the order they lie in it, each a
//! source named `ARCHIVE/MEMBER` with its own line numbers and header
//! (Kaggle ships its sets as `.zip`); directories are skipped. Members may
//! be stored or deflated. A file named `*.zip` must be a zip archive.

use super::formats::{self, Pasted};
use super::Record;
use crate::grid::{Grid, Pencilmarks};
use anyhow::{bail, Context};
use flate2::bufread::GzDecoder;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read, Seek};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// gzip's magic bytes (RFC 1952, ID1 ID2).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Read buffer per input: large reads keep syscalls off the profile.
const BUFFER: usize = 64 * 1024;

/// Longest line read whole, in bytes, its end (`\n` or `\r\n`) not
/// counted: 64 KiB, the read buffer's size, far above any puzzle format's
/// line. A longer line is read as a stream, only its first 64 KiB kept, and
/// becomes one invalid record giving its length, so memory stays bounded
/// whatever the input (a file with no line ends, a binary file).
pub const LINE_CAP: usize = BUFFER;

/// The name [`Record::source`] gives standard input.
pub const STDIN_NAME: &str = "<stdin>";

/// Opens one input file.
///
/// Errors: the file cannot be opened, or it is a directory; the message
/// names it.
pub fn open_file(path: &Path) -> anyhow::Result<File> {
    let file = File::open(path).with_context(|| format!("cannot open input {}", path.display()))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        bail!(
            "input {} is a directory: give the files in it instead (e.g. {}/*.txt)",
            path.display(),
            path.display()
        );
    }
    Ok(file)
}

/// Checks that the input file `path` can be read as records before any
/// output is created: it opens, is not a directory, and (a regular file)
/// does not start with a UTF-16 byte-order mark; a file named `*.gz` or
/// `*.zip` is one, and a zip archive's central directory reads.
///
/// Errors: the first of those that fails; the message names the file.
pub fn check_file(path: &Path) -> anyhow::Result<()> {
    let mut file = open_file(path)?;
    if file.metadata().is_ok_and(|m| m.is_file()) {
        let mut head = [0u8; 4];
        let n = file.read(&mut head).unwrap_or(0);
        let head = &head[..n];
        if let Some(encoding) = formats::utf16_bom(head) {
            bail!("{}", utf16_message(&path.display().to_string(), encoding));
        }
        check_signature(path, head)?;
        if is_zip(head) {
            // The central directory must read: a truncated download is
            // reported now, before any output exists.
            file.rewind()
                .with_context(|| format!("cannot read input {}", path.display()))?;
            zip::ZipArchive::new(BufReader::new(file)).with_context(|| {
                format!("input {} is not a readable zip archive", path.display())
            })?;
        }
    }
    Ok(())
}

/// The error for a UTF-16 input.
fn utf16_message(name: &str, encoding: &str) -> String {
    format!(
        "input {name} is {encoding} text (it starts with a UTF-16 byte-order mark, as \
         PowerShell's `>` writes files); sudoflow reads UTF-8: convert it first, e.g. \
         `iconv -f UTF-16 -t UTF-8 IN > OUT`, or in PowerShell `Out-File -Encoding utf8`"
    )
}

/// Calls `f` with every record of `inputs` in order (`-`, or no input at all,
/// is stdin), numbering records from 1; stops early when `f` breaks.
///
/// Errors: an input cannot be opened or read, or a `*.gz` input is not gzip;
/// the message names the input (and the line reached, for read errors).
/// Malformed records are not errors: they reach `f` with an `Err` grid.
pub fn for_each_record(
    inputs: &[PathBuf],
    mut f: impl FnMut(Record) -> ControlFlow<()>,
) -> anyhow::Result<()> {
    for_each_item(inputs, None, |item| match item {
        Item::Record(record) => f(record),
        Item::Waiting => ControlFlow::Continue(()),
    })
}

/// What [`for_each_item`] hands over.
#[derive(Debug)]
pub enum Item {
    /// The next record.
    Record(Record),
    /// The reader is about to wait for input: the input is a pipe, a
    /// terminal or a socket (not a regular file), no whole line is buffered
    /// and none is ready to read. A caller that batches records passes on
    /// the ones it holds now, so that a line-by-line producer gets its rows
    /// as it goes (see [`crate::pipeline`]).
    Waiting,
}

/// [`for_each_record`], with the puzzle read from `column` of CSV inputs
/// when given (`--column`; `None`: the first field, or the column a header
/// names), also telling `f` when the reader is about to wait for input
/// ([`Item::Waiting`]; never for regular files, and not inside a gzip
/// member or a zip archive).
///
/// Errors: as [`for_each_record`]; also, with [`Column::Name`], an input
/// whose first line names no such column.
pub fn for_each_item(
    inputs: &[PathBuf],
    column: Option<&Column>,
    mut f: impl FnMut(Item) -> ControlFlow<()>,
) -> anyhow::Result<()> {
    let stdin_only = [PathBuf::from("-")];
    let inputs = if inputs.is_empty() {
        &stdin_only[..]
    } else {
        inputs
    };
    let mut index = 0u64;
    for path in inputs {
        let mut watch = None;
        let (name, input): (Arc<str>, Box<dyn BufRead>) = if path.as_os_str() == "-" {
            let stdin = io::stdin();
            let input: Box<dyn BufRead> = match streaming::watch(&stdin) {
                Some(w) => Box::new(streaming::Watched::new(stdin, &mut watch, w)),
                None => Box::new(BufReader::with_capacity(BUFFER, stdin)),
            };
            (Arc::from(STDIN_NAME), input)
        } else {
            let file = open_file(path)?;
            if let Some(w) = streaming::watch(&file) {
                // A named pipe or a device: no gzip check (it would wait).
                let input = streaming::Watched::new(file, &mut watch, w);
                (Arc::from(path.display().to_string()), Box::new(input))
            } else {
                let input = buffered_file(path, file)?;
                (Arc::from(path.display().to_string()), Box::new(input))
            }
        };
        let reading = Reading {
            line_cap: LINE_CAP,
            column,
            watch: watch.as_ref(),
        };
        if records_of_input(&name, input, &reading, &mut index, &mut f)?.is_break() {
            return Ok(());
        }
    }
    Ok(())
}

/// A regular file's buffered reader, its signature checked against its name
/// ([`check_signature`]).
///
/// Errors: the file cannot be read, or its bytes are not what its name
/// promises.
fn buffered_file(path: &Path, file: File) -> anyhow::Result<BufReader<File>> {
    let mut input = BufReader::with_capacity(BUFFER, file);
    let head = input
        .fill_buf()
        .with_context(|| format!("cannot read input {}", path.display()))?;
    check_signature(path, head)?;
    Ok(input)
}

/// Whether [`FileRecords`] can read `inputs`: there is at least one, and each
/// is a regular file (not stdin, a pipe or a device) that is not a zip
/// archive. An input that cannot be opened or read answers `false` (the
/// reader then reports it as usual).
pub fn pullable(inputs: &[PathBuf]) -> bool {
    !inputs.is_empty()
        && inputs.iter().all(|path| {
            let Ok(mut file) = File::open(path) else {
                return false;
            };
            let mut head = [0u8; 4];
            file.metadata().is_ok_and(|m| m.is_file())
                && file.read(&mut head).is_ok_and(|n| !is_zip(&head[..n]))
        })
}

/// The records of regular files, taken one at a time by whoever wants the
/// next ([`FileRecords::next_record`]), where [`for_each_item`] hands every
/// record to one callback: lets the threads of a run take turns at reading
/// (see [`crate::pipeline`]). The records are those [`for_each_item`] reads
/// from the same inputs, numbered alike.
pub struct FileRecords {
    inputs: Vec<PathBuf>,
    /// The next input to open.
    next: usize,
    column: Option<Column>,
    current: Option<InputRecords<Box<dyn BufRead + Send>>>,
    index: u64,
}

impl FileRecords {
    /// Reads `inputs` ([`pullable`] ones) in order, the puzzle taken from
    /// `column` as [`for_each_item`] takes it.
    pub fn new(inputs: &[PathBuf], column: Option<&Column>) -> FileRecords {
        FileRecords {
            inputs: inputs.to_vec(),
            next: 0,
            column: column.cloned(),
            current: None,
            index: 0,
        }
    }

    /// The next record, or `None` after the last input's last one.
    ///
    /// Errors: as [`for_each_item`]'s; also an input that has become
    /// something [`pullable`] refuses (a zip archive, not a regular file).
    pub fn next_record(&mut self) -> anyhow::Result<Option<Record>> {
        loop {
            if let Some(records) = &mut self.current {
                match records.next(&mut self.index, None)? {
                    Some(Item::Record(record)) => return Ok(Some(record)),
                    // Regular files are not watched.
                    Some(Item::Waiting) => continue,
                    None => self.current = None,
                }
            }
            let Some(path) = self.inputs.get(self.next) else {
                return Ok(None);
            };
            self.next += 1;
            let file = open_file(path)?;
            if !file.metadata().is_ok_and(|m| m.is_file()) {
                bail!("input {} is no longer a regular file", path.display());
            }
            let mut input = buffered_file(path, file)?;
            let head = input
                .fill_buf()
                .with_context(|| format!("cannot read input {}", path.display()))?;
            if is_zip(head) {
                bail!(
                    "input {} has become a zip archive while read",
                    path.display()
                );
            }
            let reading = Reading {
                line_cap: LINE_CAP,
                column: self.column.as_ref(),
                watch: None,
            };
            let name: Arc<str> = Arc::from(path.display().to_string());
            self.current = Some(InputRecords::new(&name, Box::new(input), &reading));
        }
    }
}

/// Which CSV column of the inputs holds the puzzle (`--column NAME|N`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Column {
    /// The column with this name (any case, quotes aside) in each input's
    /// first line, a header.
    Name(String),
    /// The N-th comma-separated column (1-based). An input's first line is a
    /// header, and skipped, when it names a puzzle column (as without
    /// `--column`) or its N-th field holds a letter that no cell character
    /// is (`id,sudoku,...`).
    Number(std::num::NonZeroUsize),
}

impl std::str::FromStr for Column {
    type Err = String;

    /// Digits are a column number (1 or more), anything else a name.
    fn from_str(text: &str) -> Result<Column, String> {
        if text.is_empty() {
            return Err("give a column name or a 1-based column number".into());
        }
        if text.bytes().all(|b| b.is_ascii_digit()) {
            return match text.parse::<std::num::NonZeroUsize>() {
                Ok(n) => Ok(Column::Number(n)),
                Err(_) => Err(format!(
                    "{text}: column numbers start at 1 (the first column is 1)"
                )),
            };
        }
        Ok(Column::Name(text.to_owned()))
    }
}

impl std::fmt::Display for Column {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Column::Name(name) => f.write_str(name),
            Column::Number(n) => write!(f, "{n}"),
        }
    }
}

/// The signatures a zip archive starts with: a local file header, or the
/// end of the central directory (an archive with no members).
const ZIP_MAGIC: [&[u8]; 2] = [b"PK\x03\x04", b"PK\x05\x06"];

/// Whether `head`, an input's first bytes, start a zip archive.
fn is_zip(head: &[u8]) -> bool {
    ZIP_MAGIC.iter().any(|m| head.starts_with(m))
}

/// Checks that a file named `*.gz` starts with gzip's magic bytes and one
/// named `*.zip` (any case) with a zip signature; `head` holds its first
/// bytes (at least four, or the whole file). An empty file passes.
///
/// Errors: the name promises a format the bytes do not start with.
fn check_signature(path: &Path, head: &[u8]) -> anyhow::Result<()> {
    if head.is_empty() {
        return Ok(());
    }
    let extension = path.extension();
    if extension.is_some_and(|e| e == "gz") && !head.starts_with(&GZIP_MAGIC) {
        bail!(
            "input {} is named .gz but is not gzip data (no gzip magic bytes)",
            path.display()
        );
    }
    if extension.is_some_and(|e| e.eq_ignore_ascii_case("zip")) && !is_zip(head) {
        bail!(
            "input {} is named .zip but is not a zip archive (no zip signature)",
            path.display()
        );
    }
    Ok(())
}

/// How [`records_of`] reads one input.
struct Reading<'a> {
    /// Longest line kept whole ([`LINE_CAP`], smaller in the fuzz checks).
    line_cap: usize,
    /// `--column`, if given.
    column: Option<&'a Column>,
    /// The descriptor to watch for [`Item::Waiting`] (pipes, terminals).
    watch: Option<&'a streaming::Watch>,
}

/// The records of one input: those of each member of a zip archive in turn
/// when the input starts with a zip signature (each member a source named
/// `ARCHIVE/MEMBER`, with its own lines and header; directories skipped),
/// else those of its lines ([`records_of`]).
///
/// Errors: as [`records_of`]; also a zip member that cannot be read (an
/// unsupported compression method, encryption, damage), named.
fn records_of_input(
    name: &Arc<str>,
    mut input: Box<dyn BufRead + '_>,
    reading: &Reading,
    index: &mut u64,
    f: &mut impl FnMut(Item) -> ControlFlow<()>,
) -> anyhow::Result<ControlFlow<()>> {
    let head = input
        .fill_buf()
        .with_context(|| format!("cannot read input {name}"))?;
    if head.is_empty() {
        // Empty (on a terminal, Ctrl-D at once: not to be read twice).
        return Ok(ControlFlow::Continue(()));
    }
    if !is_zip(head) {
        return records_of(name, input, reading, index, f);
    }
    // Members in the order they lie in the archive, read as a stream, so
    // that a zip on stdin reads as a file does.
    let members = Reading {
        watch: None,
        ..*reading
    };
    let mut previous = String::new();
    loop {
        let member = zip::read::read_zipfile_from_stream(&mut input).with_context(|| {
            if previous.is_empty() {
                format!("cannot read zip archive {name}: its first member")
            } else {
                format!("cannot read zip archive {name}: the member after {previous}")
            }
        })?;
        let Some(member) = member else {
            return Ok(ControlFlow::Continue(()));
        };
        previous = member.name().to_owned();
        if member.is_dir() {
            continue;
        }
        let source: Arc<str> = Arc::from(format!("{name}/{previous}"));
        let member: Box<dyn BufRead + '_> = Box::new(BufReader::with_capacity(BUFFER, member));
        if records_of(&source, member, &members, index, f)?.is_break() {
            return Ok(ControlFlow::Break(()));
        }
    }
}

/// [`for_each_record`] over one input already open: `name` is its
/// [`Record::source`], `line_cap` the longest line kept ([`LINE_CAP`] in
/// the commands; the fuzz checks of [`crate::checks`] use small caps so that
/// short inputs meet it). Records are numbered from 1.
///
/// Errors: `input` fails to read (or holds a broken gzip member); the
/// message names `name` and the last line read.
pub fn for_each_record_in(
    name: &str,
    input: Box<dyn BufRead>,
    line_cap: usize,
    mut f: impl FnMut(Record) -> ControlFlow<()>,
) -> anyhow::Result<()> {
    let mut index = 0;
    let mut f = |item| match item {
        Item::Record(record) => f(record),
        Item::Waiting => ControlFlow::Continue(()),
    };
    let reading = Reading {
        line_cap,
        column: None,
        watch: None,
    };
    records_of(&Arc::from(name), input, &reading, &mut index, &mut f).map(drop)
}

/// The records of one input's lines, numbered on from `index`; breaks when
/// `f` does.
///
/// Errors: those of [`InputRecords::next`].
fn records_of(
    name: &Arc<str>,
    input: Box<dyn BufRead + '_>,
    reading: &Reading,
    index: &mut u64,
    f: &mut impl FnMut(Item) -> ControlFlow<()>,
) -> anyhow::Result<ControlFlow<()>> {
    let mut records = InputRecords::new(name, input, reading);
    while let Some(item) = records.next(index, reading.watch)? {
        if f(item).is_break() {
            return Ok(ControlFlow::Break(()));
        }
    }
    Ok(ControlFlow::Continue(()))
}

/// The records of one input's lines, one at a time ([`InputRecords::next`]):
/// the reading of lines into records that the module documentation
/// describes, for [`records_of`] (which hands them on) and [`FileRecords`]
/// (whose caller takes them when it wants them).
struct InputRecords<R> {
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
    fn new(name: &Arc<str>, input: R, reading: &Reading<'_>) -> Self {
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
    fn next(
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
    };
    let line = formats::trim_line_end(item);
    if let Some(at) = memchr::memchr(b'\n', line) {
        let lines = line.split(|&b| b == b'\n').count();
        return invalid(
            &line[..at],
            &format!("{lines} lines in one item: an item holds one puzzle, on one line"),
        );
    }
    if let Some(grid) = line_of_valid_puzzle(line) {
        return Record {
            index,
            source: Arc::clone(source),
            line: index,
            raw: String::new(),
            grid: Ok(grid),
            pencilmarks: None,
        };
    }
    let reading = Reading {
        line_cap: LINE_CAP,
        column: None,
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
const RAW_LIMIT: usize = 200;

/// `text` cut to [`RAW_LIMIT`] characters, with `...` marking the cut.
fn clip(text: &str) -> String {
    match text.char_indices().nth(RAW_LIMIT) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_owned(),
    }
}

fn make_record(index: u64, source: &Arc<str>, line: u64, field: &[u8]) -> Record {
    if let Some(grid) = parse_valid(field) {
        return Record {
            index,
            source: Arc::clone(source),
            line,
            // The grid says it all; no copy of the text per record.
            raw: String::new(),
            grid: Ok(grid),
            pencilmarks: None,
        };
    }
    if let Some(parsed) = Pencilmarks::parse(field) {
        return pencilmark_record(index, source, line, field, parsed);
    }
    let (raw, grid) = match std::str::from_utf8(field) {
        Ok(text) => {
            let grid = Grid::parse(text).map_err(|e| format!("{source}:{line}: {e}"));
            (clip(text), grid)
        }
        Err(e) => {
            let at = e.valid_up_to();
            let msg = format!(
                "{source}:{line}: not UTF-8 text: byte 0x{:02x} at byte position {}",
                field[at],
                at + 1
            );
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
    }
}

/// The bytes of one input, gzip members decompressed where they start.
struct Lines<R> {
    layer: Layer<R>,
    /// Bytes of the layer's buffer that the line last returned by
    /// [`Lines::next_line`] took in place; consumed on the next call.
    pending: usize,
    /// Longest line (end of line not counted) whose bytes are all kept.
    cap: usize,
}

/// One line as [`Lines::next_line`] returns it.
struct Line<'a> {
    /// The line, end of line included; for a line longer than the cap, only
    /// its first bytes (at least the cap's worth).
    bytes: &'a [u8],
    /// The line's whole length in bytes, its end (`\n` or `\r\n`) not
    /// counted.
    len: u64,
}

/// Length of a line of `len` bytes whose last two bytes are `last`, less
/// its `\n` or `\r\n` end.
fn without_end(len: u64, last: [u8; 2]) -> u64 {
    match last {
        [b'\r', b'\n'] if len >= 2 => len - 2,
        [_, b'\n'] if len >= 1 => len - 1,
        _ => len,
    }
}

/// What [`Lines::read_line`] knows of the line it is reading.
struct LineSoFar {
    /// Bytes of the line kept in the buffer, at most.
    keep: usize,
    /// Bytes read so far, end of line included.
    len: u64,
    /// The last two bytes read (to tell a `\r\n` end).
    last: [u8; 2],
}

impl LineSoFar {
    /// Takes `bytes`, the next bytes of the line, keeping what fits in `buf`.
    fn push(&mut self, bytes: &[u8], buf: &mut Vec<u8>) {
        let room = self.keep.saturating_sub(buf.len());
        buf.extend_from_slice(&bytes[..bytes.len().min(room)]);
        self.len += bytes.len() as u64;
        self.last = match bytes {
            [.., a, b] => [*a, *b],
            [b] => [self.last[1], *b],
            [] => self.last,
        };
    }

    /// The length so far less a `\n` or `\r\n` end.
    fn without_end(&self) -> u64 {
        without_end(self.len, self.last)
    }
}

/// A gzip member's decoder reads from the bytes of the line where its magic
/// bytes were seen, then from the rest of the input.
type Member<R> = BufReader<GzDecoder<io::Chain<Cursor<Vec<u8>>, R>>>;

/// An input as [`Lines`] holds it: a boxed reader, `Send` or not (the
/// records of [`FileRecords`] are taken by several threads in turn; a zip
/// member's reader cannot be sent). Boxed, so that the bytes a gzip member
/// left unused can be put back in front of the rest ([`Input::chained`]).
trait Input: BufRead + Sized {
    /// `head`'s unread bytes, then `rest`.
    fn chained(head: Cursor<Vec<u8>>, rest: Self) -> Self;
}

impl<'a> Input for Box<dyn BufRead + 'a> {
    fn chained(head: Cursor<Vec<u8>>, rest: Self) -> Self {
        Box::new(head.chain(rest))
    }
}

impl<'a> Input for Box<dyn BufRead + Send + 'a> {
    fn chained(head: Cursor<Vec<u8>>, rest: Self) -> Self {
        Box::new(head.chain(rest))
    }
}

enum Layer<R> {
    Plain(R),
    Gzip(Box<Member<R>>),
    /// Only while switching between the two.
    Switching,
}

impl<R: Input> Lines<R> {
    fn new(input: R, cap: usize) -> Lines<R> {
        Lines {
            layer: Layer::Plain(input),
            pending: 0,
            cap,
        }
    }

    /// Whether reading the next line would wait for input watched by `w`:
    /// plain bytes (not a gzip member), no whole line buffered, and nothing
    /// ready on the descriptor.
    fn will_wait(&mut self, w: &streaming::Watch) -> bool {
        let pending = std::mem::take(&mut self.pending);
        self.input().consume(pending);
        matches!(self.layer, Layer::Plain(_)) && w.will_wait()
    }

    /// The layer's buffered reader.
    fn input(&mut self) -> &mut dyn BufRead {
        match &mut self.layer {
            Layer::Plain(input) => input,
            Layer::Gzip(member) => member,
            Layer::Switching => unreachable!("layer restored before use"),
        }
    }

    /// The next line, or `None` at the end of the input. A line that lies
    /// whole in the reader's buffer is returned in place (no copy: the
    /// common case); any other is assembled in `buf` by [`Lines::read_line`],
    /// which keeps at most the cap's worth of it. In plain bytes, a line
    /// starting with gzip's first magic byte always takes that path, which
    /// opens gzip members.
    fn next_line<'b>(&'b mut self, buf: &'b mut Vec<u8>) -> io::Result<Option<Line<'b>>> {
        let pending = std::mem::take(&mut self.pending);
        self.input().consume(pending);
        let plain = matches!(self.layer, Layer::Plain(_));
        let avail = self.input().fill_buf()?;
        if plain && avail.is_empty() {
            // The end, told once: a terminal's Ctrl-D is a single read of
            // nothing, and reading again would wait for more typing.
            return Ok(None);
        }
        let in_place = if plain && avail.first() == Some(&GZIP_MAGIC[0]) {
            None
        } else {
            memchr::memchr(b'\n', avail).map(|end| end + 1)
        };
        match in_place {
            Some(len) => {
                self.pending = len;
                // Still buffered: fill_buf returns the same bytes.
                let bytes = &self.input().fill_buf()?[..len];
                let last = [bytes[len.saturating_sub(2)], bytes[len - 1]];
                let len = without_end(len as u64, last);
                Ok(Some(Line { bytes, len }))
            }
            None => Ok(self.read_line(buf)?.map(|len| Line { bytes: buf, len })),
        }
    }

    /// Reads the next line into `buf` (cleared first), end of line included,
    /// keeping at most the cap plus two bytes (so a line at the cap keeps its
    /// `\r\n`): the rest of a longer line is read and dropped, so memory
    /// stays bounded however long the line. Returns the line's length less
    /// its end (see [`Line::len`]), `None` at the end of the input.
    fn read_line(&mut self, buf: &mut Vec<u8>) -> io::Result<Option<u64>> {
        buf.clear();
        let mut line = LineSoFar {
            keep: self.cap.saturating_add(2),
            len: 0,
            last: [0; 2],
        };
        // A gzip member may start here: at a line start or where the previous
        // member ended.
        let mut member_may_start = true;
        loop {
            let plain = matches!(self.layer, Layer::Plain(_));
            if plain && std::mem::take(&mut member_may_start) {
                let input = self.input();
                let avail = input.fill_buf()?;
                if avail.is_empty() {
                    // The end (read once: see `next_line`).
                    return Ok((line.len > 0).then(|| line.without_end()));
                }
                if avail.first() == Some(&GZIP_MAGIC[0]) {
                    if avail.get(1) == Some(&GZIP_MAGIC[1]) {
                        input.consume(2);
                        self.enter_gzip(GZIP_MAGIC.to_vec());
                        continue;
                    }
                    if avail.len() == 1 {
                        // The second byte lies past the buffer's end.
                        input.consume(1);
                        let next = input.fill_buf()?;
                        if next.first() == Some(&GZIP_MAGIC[1]) {
                            input.consume(1);
                            self.enter_gzip(GZIP_MAGIC.to_vec());
                            continue;
                        }
                        let end = next.is_empty();
                        line.push(&GZIP_MAGIC[..1], buf);
                        if end {
                            return Ok(Some(line.without_end()));
                        }
                    }
                }
            }
            let input = self.input();
            let avail = input.fill_buf()?;
            if avail.is_empty() {
                if plain {
                    return Ok((line.len > 0).then(|| line.without_end()));
                }
                // The member ended (maybe mid-line): back to plain bytes.
                self.leave_gzip();
                member_may_start = true;
                continue;
            }
            let (n, done) = match memchr::memchr(b'\n', avail) {
                Some(end) => (end + 1, true),
                None => (avail.len(), false),
            };
            line.push(&avail[..n], buf);
            input.consume(n);
            if done {
                return Ok(Some(line.without_end()));
            }
        }
    }

    fn enter_gzip(&mut self, head: Vec<u8>) {
        let Layer::Plain(rest) = std::mem::replace(&mut self.layer, Layer::Switching) else {
            unreachable!("enter_gzip from plain bytes only")
        };
        let input = Cursor::new(head).chain(rest);
        self.layer = Layer::Gzip(Box::new(BufReader::with_capacity(
            BUFFER,
            GzDecoder::new(input),
        )));
    }

    fn leave_gzip(&mut self) {
        let Layer::Gzip(member) = std::mem::replace(&mut self.layer, Layer::Switching) else {
            unreachable!("leave_gzip from a gzip member only")
        };
        let (head, rest) = member.into_inner().into_inner().into_inner();
        // Bytes of `head` the decoder did not use belong to what follows the
        // member; usually there are none and the chain is not kept.
        self.layer = if head.position() as usize >= head.get_ref().len() {
            Layer::Plain(rest)
        } else {
            Layer::Plain(R::chained(head, rest))
        };
    }
}

/// Inputs that are not regular files (pipes, terminals, sockets): a buffer
/// that tells whether a whole line is buffered, and a zero-timeout poll of
/// the descriptor, so the record loop knows when the next read would wait.
mod streaming {
    use std::cell::Cell;
    use std::io::{self, BufRead, BufReader, Read};
    use std::rc::Rc;

    /// What the record loop keeps of a watched input.
    pub(super) struct Watch {
        /// Whether the buffer holds a whole line (updated by [`Watched`]).
        line_buffered: Rc<Cell<bool>>,
        /// The descriptor to poll.
        #[cfg(unix)]
        fd: std::os::fd::RawFd,
    }

    /// A descriptor's [`Watch`] (without its flag yet), or `None` for a
    /// regular file, which never waits.
    #[cfg(unix)]
    pub(super) fn watch(input: &impl std::os::fd::AsFd) -> Option<std::os::fd::RawFd> {
        use std::os::fd::AsRawFd;
        let fd = input.as_fd();
        let file = std::fs::File::from(fd.try_clone_to_owned().ok()?);
        let regular = file.metadata().map(|m| m.is_file()).unwrap_or(true);
        (!regular).then(|| fd.as_raw_fd())
    }

    /// Elsewhere: never watched.
    #[cfg(not(unix))]
    pub(super) fn watch<T>(_: &T) -> Option<()> {
        None
    }

    impl Watch {
        /// No whole line buffered and nothing ready to read.
        pub(super) fn will_wait(&self) -> bool {
            if self.line_buffered.get() {
                return false;
            }
            #[cfg(unix)]
            {
                let mut poll = libc::pollfd {
                    fd: self.fd,
                    events: libc::POLLIN,
                    revents: 0,
                };
                // SAFETY: one valid pollfd, zero timeout; the descriptor is
                // owned by the input being read, open for the whole loop.
                let ready = unsafe { libc::poll(&mut poll, 1, 0) };
                ready == 0
            }
            #[cfg(not(unix))]
            false
        }
    }

    /// A buffered reader that keeps its [`Watch`]'s flag up to date.
    pub(super) struct Watched<R> {
        inner: BufReader<R>,
        line_buffered: Rc<Cell<bool>>,
    }

    impl<R: Read> Watched<R> {
        /// Wraps `input` (descriptor `fd`) and stores its [`Watch`] in `watch`.
        #[cfg(unix)]
        pub(super) fn new(input: R, watch: &mut Option<Watch>, fd: std::os::fd::RawFd) -> Self {
            let line_buffered = Rc::new(Cell::new(false));
            *watch = Some(Watch {
                line_buffered: Rc::clone(&line_buffered),
                fd,
            });
            Watched {
                inner: BufReader::with_capacity(super::BUFFER, input),
                line_buffered,
            }
        }

        /// Elsewhere: never built ([`watch`] is always `None`).
        #[cfg(not(unix))]
        pub(super) fn new(input: R, _: &mut Option<Watch>, _: ()) -> Self {
            Watched {
                inner: BufReader::with_capacity(super::BUFFER, input),
                line_buffered: Rc::new(Cell::new(false)),
            }
        }

        fn update(&self) {
            let buffered = self.inner.buffer();
            self.line_buffered
                .set(memchr::memchr(b'\n', buffered).is_some());
        }
    }

    impl<R: Read> Read for Watched<R> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.inner.read(out)?;
            self.update();
            Ok(n)
        }
    }

    impl<R: Read> BufRead for Watched<R> {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            self.inner.fill_buf()?;
            self.update();
            Ok(self.inner.buffer())
        }

        fn consume(&mut self, n: usize) {
            self.inner.consume(n);
            self.update();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn lines_of(bytes: Vec<u8>) -> Vec<Vec<u8>> {
        // A tiny buffer puts lines across buffer boundaries (the copying
        // path); a whole-input one serves most lines in place.
        let tiny = lines_with(BufReader::with_capacity(3, Cursor::new(bytes.clone())));
        let whole = lines_with(BufReader::with_capacity(1 << 16, Cursor::new(bytes)));
        assert_eq!(tiny, whole);
        whole
    }

    fn lines_with(input: impl BufRead + 'static) -> Vec<Vec<u8>> {
        let input: Box<dyn BufRead> = Box::new(input);
        let mut lines = Lines::new(input, LINE_CAP);
        let mut out = Vec::new();
        let mut buf = Vec::new();
        while let Some(line) = lines.next_line(&mut buf).unwrap() {
            out.push(line.bytes.to_vec());
        }
        out
    }

    #[test]
    fn plain_gzip_plain_gzip_members_in_one_stream() {
        let mut bytes = b"a\nb\n".to_vec();
        bytes.extend(gz(b"c\nd\n"));
        bytes.extend(b"e\n");
        bytes.extend(gz(b"f\ng"));
        bytes.extend(gz(b"h\n"));
        bytes.extend(b"i");
        let got = lines_of(bytes);
        let want: Vec<&[u8]> = vec![
            b"a\n", b"b\n", b"c\n", b"d\n", b"e\n", b"f\n", b"gh\n", b"i",
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn a_line_over_the_cap_is_streamed_not_kept() {
        // 64 MiB of one line and its CRLF, then a short line, plain and in a
        // gzip member: the line buffer never grows past the cap (+ CRLF).
        let long = 64 << 20;
        for gzipped in [false, true] {
            let body = io::repeat(b'7').take(long).chain(&b"\r\nnext"[..]);
            let input: Box<dyn BufRead> = if gzipped {
                let mut e = flate2::read::GzEncoder::new(body, flate2::Compression::fast());
                let mut bytes = Vec::new();
                e.read_to_end(&mut bytes).unwrap();
                Box::new(Cursor::new(bytes))
            } else {
                Box::new(BufReader::new(body))
            };
            let mut lines = Lines::new(input, LINE_CAP);
            let mut buf = Vec::new();
            let line = lines.next_line(&mut buf).unwrap().unwrap();
            assert_eq!(line.len, long);
            assert_eq!(line.bytes.len(), LINE_CAP + 2);
            assert!(line.bytes.iter().all(|&b| b == b'7'));
            assert!(buf.capacity() <= 2 * LINE_CAP, "{}", buf.capacity());
            let line = lines.next_line(&mut buf).unwrap().unwrap();
            assert_eq!((line.bytes, line.len), (&b"next"[..], 4));
            assert!(lines.next_line(&mut buf).unwrap().is_none());
        }
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

    /// Inputs of every kind of line: a CSV header, `#` comments, blank
    /// lines, CRLF ends, a 9-line grid with box rules, rows cut short, a
    /// line past the cap, a pencilmark line; plain and gzip.
    fn tricky_inputs(dir: &Path) -> Vec<PathBuf> {
        let p17 =
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
        let mut pasted = String::from("# a pasted grid\n");
        for (r, row) in p17.as_bytes().chunks(9).enumerate() {
            let cells: Vec<String> = row.iter().map(|&c| (c as char).to_string()).collect();
            pasted.push_str(&cells.join(" "));
            pasted.push_str("\r\n");
            if r % 3 == 2 && r < 8 {
                pasted.push_str("------+-------+------\n");
            }
        }
        pasted.push_str(&format!(
            "1 2 3 4 5 6 7 8 9\n{p17}\n\n{}\n",
            "7".repeat(LINE_CAP + 5)
        ));
        pasted.push_str(&format!("{}\n12x\n{p17}", "123456789".repeat(81)));
        let csv = format!("id,puzzle,solution\n1,{p17},x\n2,\"{p17}\",y\n3,bad,z\n");
        let files: [(&str, Vec<u8>); 4] = [
            ("pasted.txt", pasted.clone().into_bytes()),
            ("kaggle.csv", csv.into_bytes()),
            ("pasted.txt.gz", gz(pasted.as_bytes())),
            ("empty.txt", Vec::new()),
        ];
        files
            .iter()
            .map(|(name, bytes)| {
                let path = dir.join(name);
                std::fs::write(&path, bytes).unwrap();
                path
            })
            .collect()
    }

    /// The records of `inputs` as for_each_item hands them over and as
    /// FileRecords gives them, the end asked for twice.
    fn both_ways(inputs: &[PathBuf]) -> (Vec<Record>, Vec<Record>) {
        let mut handed = Vec::new();
        for_each_record(inputs, |r| {
            handed.push(r);
            ControlFlow::Continue(())
        })
        .unwrap();
        let mut records = FileRecords::new(inputs, None);
        let mut taken = Vec::new();
        while let Some(r) = records.next_record().unwrap() {
            taken.push(r);
        }
        // The end is told again, not read past.
        assert!(records.next_record().unwrap().is_none());
        (handed, taken)
    }

    #[test]
    fn file_records_are_the_records_for_each_item_reads() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = tricky_inputs(dir.path());
        assert!(pullable(&inputs));
        let (expected, taken) = both_ways(&inputs);
        // 7 per pasted file (the grid, a row cut short, the puzzle line,
        // the long line, the pencilmarks, `12x`, the last line), 3 CSV rows.
        assert_eq!(expected.len(), 2 * 7 + 3);
        assert_eq!(taken, expected);
    }

    #[test]
    fn file_records_report_a_missing_column_after_the_records_before_it() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = tricky_inputs(dir.path());
        let column = Column::Name("puzzle".into());
        // pasted.txt has no header: its first line is read as one.
        let mut records = FileRecords::new(&inputs[1..], Some(&column));
        let mut n = 0;
        let error = loop {
            match records.next_record() {
                Ok(Some(_)) => n += 1,
                Ok(None) => panic!("pasted.txt.gz has no column named puzzle"),
                Err(e) => break e.to_string(),
            }
        };
        assert_eq!(n, 3, "kaggle.csv's rows come first");
        assert!(
            error.contains("pasted.txt.gz has no column named \"puzzle\""),
            "{error}"
        );
    }

    #[test]
    fn only_regular_files_that_are_not_zip_archives_are_pullable() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = tricky_inputs(dir.path());
        let zip = dir.path().join("a.zip");
        std::fs::write(&zip, b"PK\x05\x06").unwrap();
        assert!(!pullable(&[]));
        assert!(!pullable(&[PathBuf::from("-")]));
        assert!(!pullable(&[inputs[0].clone(), zip]));
        assert!(!pullable(&[dir.path().to_path_buf()]));
        assert!(!pullable(&[dir.path().join("missing.txt")]));
        assert!(pullable(&inputs[..1]));
    }

    /// Lines of every kind the reader tells apart, to build inputs from.
    const LINE_KINDS: [&str; 12] = [
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...,x",
        ". . . | . . . | . . .",
        "1 2 3 4 5 6 7 8 9",
        "------+-------+------",
        "# comment",
        "",
        "   ",
        "12x",
        "id,puzzle,solution",
        "\".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...\"",
        "5 3 . . 7 . . . . 6 . . 1 9 5 . . . . 9 8 . . . . 6 . 8 . . . 6 . . . 3 4 . . 8 . 3 . . 1 7 . . . 2 . . . 6 . 6 . . . . 2 8 . . . . 4 1 9 . . 5 . . . . 8 . . 7 9",
    ];

    proptest::proptest! {
        /// Over one to three files made of those lines (CRLF or LF, gzipped
        /// or not), FileRecords gives the records for_each_item gives:
        /// numbering across inputs, headers per input, 9-line grids cut by
        /// an input's end.
        #[test]
        fn file_records_read_any_mix_of_lines_as_for_each_item_does(
            files in proptest::collection::vec(
                (proptest::collection::vec(0..LINE_KINDS.len(), 0..40),
                 proptest::bool::ANY,
                 proptest::bool::ANY),
                1..4,
            )
        ) {
            let dir = tempfile::tempdir().unwrap();
            let inputs: Vec<PathBuf> = files
                .iter()
                .enumerate()
                .map(|(k, (lines, crlf, gzipped))| {
                    let end = if *crlf { "\r\n" } else { "\n" };
                    let text: String = lines.iter().map(|&i| format!("{}{end}", LINE_KINDS[i])).collect();
                    let path = dir.path().join(format!("{k}.txt"));
                    let bytes = if *gzipped { gz(text.as_bytes()) } else { text.into_bytes() };
                    std::fs::write(&path, bytes).unwrap();
                    path
                })
                .collect();
            let (expected, taken) = both_ways(&inputs);
            proptest::prop_assert_eq!(taken, expected);
        }
    }
}
