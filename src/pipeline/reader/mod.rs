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
//!   own `index,puzzle,...`; a UTF-8 byte-order mark before it is ignored;
//!   its fields read by RFC 4180, a quote after blanks aside): the input's
//!   records are then CSV records (below), so that `solve` re-reads a
//!   `generate` corpus or its own output;
//! - **a record**: everything else. Its puzzle field is the text up to the
//!   first separator (space, tab, `,`, `;` or `:`), or a quoted CSV field's
//!   text (`"0043..."`); what follows the separator
//!   (`ED=7.1/1.2/1.2`, tdoku's `:count:solution`, Kaggle's solution column) is
//!   ignored.
//!   The field must hold 81 cells (`1`-`9` givens; `.`, `0`, `_`, `-`, `*`,
//!   `x` or `X` blanks), otherwise the record's grid is an error naming
//!   `source:line` and the problem, e.g. `a.txt:7: wrong length: expected 81
//!   cells, found 80`.
//!   A field of exactly 729 characters is a pencilmark puzzle
//!   ([`Pencilmarks`](crate::grid::Pencilmarks), tdoku's `-p` format) in [`Record::pencilmarks`].
//!   A malformed line is still exactly one record, so it never shifts the
//!   records after it. Whether the givens clash is the workers' check
//!   ([`Grid::check_givens`](crate::grid::Grid::check_givens)), so that it runs in parallel, and in `solve`
//!   only for the records the solver finds no solution to.
//!
//! CSV records: after a header naming the puzzle's column, or from an
//! input's start with `--column` ([`Column`]; there the first record is a
//! header when it names the column), records are read by RFC 4180 with
//! csv-core (the reader's `csv` module): fields between commas, a field that starts
//! with `"` runs to its closing quote and may hold commas, `""` and line
//! ends, so that a record may run over several lines; it is numbered at its
//! first. Blank and `#` lines where a record would start are skipped. The
//! puzzle is the puzzle column's field, read as above (blanks and line ends
//! before it dropped, the text to the first separator). A record with fewer
//! fields is one invalid record saying so (`a.csv:3: has 2 fields, the
//! puzzle column (puzzle) is field 3`), as is an invalid record that runs
//! over several lines (its error adds `(the record runs over lines 5-6: a
//! quoted field holds line ends)`, so that a row swallowed by a stray
//! quote is seen). A record of one line is read up to [`LINE_CAP`] bytes,
//! one over several lines up to [`record_cap`] (1 MiB); one whose
//! quoted field is still open past that or at the input's end, or that runs
//! over lines and has text after a closing quote (`"a"b`: the quote that
//! closed it belonged to a later record), has a quote that does not close:
//! its first line is one invalid record saying so (`a.csv:2: unclosed
//! quote? ...`) and the lines read after it are read again, each as one
//! record, so that memory stays bounded and one stray quote costs one row.
//!
//! Kept columns (`--keep NAME,...`, [`Record::kept`]): a CSV record's
//! fields under those header names (any case), quotes taken off, a field
//! past the record's last one empty. Each input read as CSV records must
//! have a header naming every kept column, else reading it is an error
//! naming the input and its header's names (checked before any output for
//! regular files, [`check_header`]); an input that is not read as CSV
//! records (puzzles one a line, pasted grids: no header naming a puzzle
//! column) gives every record empty kept columns, as does a line a stray
//! quote cut (its fields are not known).
//!
//! Puzzles pasted from web pages and books: where no CSV column is in use
//! (no header naming one, no `--column`), a line whose field is neither 81
//! nor 729 characters long but that holds only cell characters between
//! spaces, tabs and `|` is read by its cells: 81 of them are a puzzle (`5 3 . | . 7 . |
//! ...`), 9 are a row of a grid written on 9 lines, which is one record
//! (numbered at its first row) once its ninth row is read. Box rules between
//! the bands (`------+-------+------`, `+---+---+---+`; see
//! `Pasted::Rule` in the `formats` module) are skipped, as are blank lines and comments
//! before a grid, between its bands and after it. Rows cut short by another
//! line, by a rule, blank line or comment inside a band (after 1, 2, 4, 5, 7
//! or 8 rows), or by the input's end are one invalid record saying what they
//! look like (`a.txt:3: looks like one row of a 9-line grid (line 3); ...`),
//! never the start of a grid that rows after them complete.
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
//! them). A file named `*.gz` must start with gzip's magic bytes. Gzip
//! checks a member's data only at its end (its CRC-32 and length), so a
//! damaged member is found after its lines were read: the error names the
//! line where the member starts and the rows that came from it, which must
//! not be trusted (`rows 6-45 came from it and must not be trusted`).
//!
//! Other compressed formats (zstd, xz, bzip2, lz4, 7-Zip), told by their
//! magic bytes at an input's start, are an error naming the format and the
//! command that decompresses them, never text read as invalid records.
//!
//! Zip: an input (a file or stdin) that starts with a zip signature is an
//! archive whose members are read in the order they lie in it, each a
//! source named `ARCHIVE/MEMBER` with its own line numbers and header
//! (Kaggle ships its sets as `.zip`); directories are skipped. Members may
//! be stored or deflated. A file named `*.zip` must be a zip archive. An
//! archive in a regular file has each member checked whole (its CRC-32)
//! before its records are read, so that a damaged member gives no row but
//! an error naming it; one piped in is read once, and the error names the
//! rows that came from the damaged member (the `archive` module).

mod archive;
mod csv;
mod lines;
mod puzzle;
mod records;
mod streaming;

pub use puzzle::parse_valid;
pub use records::item_record;

use super::formats;
use super::Record;
use anyhow::{bail, Context};
use archive::is_zip;
use lines::GZIP_MAGIC;
use records::InputRecords;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// What a damaged stream's error says of the rows numbered `start + 1` to
/// `end`, which came from it before the damage was found: that they must
/// not be trusted (or that there are none).
fn rows_from(start: u64, end: u64) -> String {
    match end.saturating_sub(start) {
        0 => "no row came from it".to_owned(),
        1 => format!("row {end} came from it and must not be trusted"),
        _ => format!(
            "rows {}-{end} came from it and must not be trusted",
            start + 1
        ),
    }
}

/// Read buffer per input: large reads keep syscalls off the profile.
const BUFFER: usize = 64 * 1024;

/// Longest line read whole, in bytes, its end (`\n` or `\r\n`) not
/// counted: 64 KiB, the read buffer's size, far above any puzzle format's
/// line. A longer line is read as a stream, only its first 64 KiB kept, and
/// becomes one invalid record giving its length, so memory stays bounded
/// whatever the input (a file with no line ends, a binary file). A CSV
/// record over several lines is bounded alike (see the module's
/// documentation).
pub const LINE_CAP: usize = BUFFER;

/// The longest CSV record over several lines (a quoted field holding line
/// ends), its lines' ends counted, for lines of at most `line_cap` bytes:
/// 16 lines' worth, 1 MiB for [`LINE_CAP`]. Longer than a line's cap so
/// that a field of notes a little over 64 KiB is read as the one record it
/// is (found by probing: cut at 64 KiB, its lines were read again as
/// records, made-up rows with ids from the notes); bounded, so that a
/// stray quote holds at most this much before its lines are read again.
pub fn record_cap(line_cap: usize) -> usize {
    line_cap.saturating_mul(16)
}

/// Refuses a standard input that cannot be read: one the shell closed
/// (`<&-`; the binary opens /dev/null write-only there before `main`, see
/// its `STDOUT_CLOSED_STAYS_UNWRITABLE`), which Rust's `Stdin` reads as
/// empty, a run of no records with exit 0 (found by probing).
///
/// Errors: descriptor 0 is closed or open only for writing.
pub fn check_stdin() -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        // SAFETY: fcntl(F_GETFL) only reads the descriptor's flags.
        let flags = unsafe { libc::fcntl(0, libc::F_GETFL) };
        if flags == -1 || flags & libc::O_ACCMODE == libc::O_WRONLY {
            anyhow::bail!(
                "cannot read stdin: it is closed (give the inputs as files, or redirect stdin \
                 from a file or a pipe)"
            );
        }
    }
    Ok(())
}

/// The name [`Record::source`] gives standard input.
pub const STDIN_NAME: &str = "<stdin>";

/// Opens one input file.
///
/// Errors: the file cannot be opened, or it is a directory; the message
/// names it.
pub fn open_file(path: &Path) -> anyhow::Result<File> {
    let file = open_without_waiting(path)
        .with_context(|| format!("cannot open input {}", path.display()))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        bail!(
            "input {} is a directory: give the files in it instead (e.g. {}/*.txt)",
            path.display(),
            path.display()
        );
    }
    Ok(file)
}

/// Opens `path` to read. A FIFO is opened without waiting for a writer
/// (`O_NONBLOCK`, cleared once open): a blocking open would hold the reader
/// in the kernel through a SIGINT or SIGTERM, and the records read before
/// it would wait unwritten. Its reads then wait in the [`streaming`]
/// module's poll, which a stop ends, and which waits for a writer to come
/// (Linux's `poll` gives a FIFO no end before a writer has come and gone).
fn open_without_waiting(path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
        if std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo()) {
            let file = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(path)?;
            // SAFETY: flag queries and changes on a descriptor `file` owns.
            unsafe {
                let flags = libc::fcntl(file.as_raw_fd(), libc::F_GETFL);
                if flags == -1
                    || libc::fcntl(file.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK) == -1
                {
                    return Err(io::Error::last_os_error());
                }
            }
            return Ok(file);
        }
    }
    File::open(path)
}

/// Checks that the input file `path` can be read as records before any
/// output is created: it opens, is not a directory, and (a regular file)
/// does not start with a UTF-16 byte-order mark; a file named `*.gz` or
/// `*.zip` is one, and a zip archive's central directory reads.
///
/// A pipe, FIFO or device (anything but a regular file or a directory)
/// is not opened here: only the reader opens it, once. An open and close
/// before the reader's would drop what a writer has put in a FIFO and
/// leave the reader waiting for another writer.
///
/// Errors: the first of those that fails; the message names the file.
pub fn check_file(path: &Path) -> anyhow::Result<()> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return Ok(());
    }
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
    // UTF-16 or UTF-32: iconv's name for either byte order, read from the
    // mark.
    let family = &encoding[..6];
    format!(
        "input {name} is {encoding} text (it starts with a {family} byte-order mark{}); \
         sudoflow reads UTF-8: convert it first, e.g. `iconv -f {family} -t UTF-8 IN > OUT`, \
         or in PowerShell `Out-File -Encoding utf8`",
        if family == "UTF-16" {
            ", as PowerShell's `>` writes files"
        } else {
            ""
        }
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
    for_each_item(inputs, None, &[], |item| match item {
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
/// names), the CSV columns `keep` names carried into each record's
/// [`Record::kept`] (`--keep`; empty: none), also telling `f` when the
/// reader is about to wait for input ([`Item::Waiting`]; never for regular
/// files, and not inside a gzip member or a zip archive).
///
/// `--keep` and inputs: an input read as CSV records (a header naming the
/// puzzle's column, or `--column`) must have a header naming each kept
/// column (any case, as `--column NAME` is looked up), read again for each
/// input (each zip member); an input whose lines are not CSV records (no
/// such header: puzzles one a line, pasted grids) gives records whose kept
/// columns are empty, so that a CSV file and a text file may be read in
/// one run.
///
/// Errors: as [`for_each_record`]; also, with [`Column::Name`], an input
/// whose first line names no such column; with `keep`, an input read as
/// CSV whose header names no column of a kept name, or that has no header
/// (`--column N` and a first record that is a puzzle).
pub fn for_each_item(
    inputs: &[PathBuf],
    column: Option<&Column>,
    keep: &[String],
    f: impl FnMut(Item) -> ControlFlow<()>,
) -> anyhow::Result<()> {
    read_inputs(inputs, column, (keep, &[]), Archives::Checked, f)
}

/// [`for_each_item`], also keeping the CSV columns `optional` names where
/// an input's header has them: in [`Record::kept`] after `keep`'s, each
/// empty where the header lacks it or the input is not read as CSV
/// records (never an error). `print` reads a corpus so: its `index`, `er`
/// and `label` columns when there.
///
/// Errors: as [`for_each_item`]'s.
pub fn for_each_item_keeping(
    inputs: &[PathBuf],
    column: Option<&Column>,
    keep: &[String],
    optional: &[String],
    f: impl FnMut(Item) -> ControlFlow<()>,
) -> anyhow::Result<()> {
    read_inputs(inputs, column, (keep, optional), Archives::Checked, f)
}

/// [`for_each_item_keeping`] over one input already read (or open):
/// `name` is its [`Record::source`]; gzip is decompressed and a zip
/// archive read member by member as from stdin. For a caller that had to
/// look at an input's bytes before choosing how to read them (`print`
/// reads JSON Lines itself): stdin cannot be opened again. Records are
/// numbered from 1.
///
/// Errors: as [`for_each_item`]'s for one input.
pub fn for_each_item_in(
    name: &str,
    input: Box<dyn BufRead + '_>,
    column: Option<&Column>,
    (keep, optional): (&[String], &[String]),
    mut f: impl FnMut(Item) -> ControlFlow<()>,
) -> anyhow::Result<()> {
    let reading = Reading {
        line_cap: LINE_CAP,
        column,
        keep,
        optional,
        watch: None,
    };
    records_of_input(&Arc::from(name), input, &reading, &mut 0, &mut f).map(drop)
}

/// The name [`Record::source`] gives a puzzle given on the command line
/// (`-p`), read by [`for_each_text_item`].
pub const TEXT_NAME: &str = "<puzzle>";

/// [`for_each_item`] over `text` (`-p PUZZLE`: a puzzle given on the
/// command line), read as the lines of one input named [`TEXT_NAME`]: a
/// puzzle on one line, a 729-character pencilmark line, a pasted grid
/// (cells between spaces or `|`; 9 lines of 9 cells) are each one record.
///
/// Errors: those of [`for_each_item`] (none for a line of text, in
/// practice).
pub fn for_each_text_item(
    text: &str,
    keep: &[String],
    mut f: impl FnMut(Item) -> ControlFlow<()>,
) -> anyhow::Result<()> {
    let mut index = 0;
    let reading = Reading {
        line_cap: LINE_CAP,
        column: None,
        keep,
        optional: &[],
        watch: None,
    };
    let input: Box<dyn BufRead + '_> = Box::new(text.as_bytes());
    records_of(&Arc::from(TEXT_NAME), input, &reading, &mut index, &mut f).map(drop)
}

/// Reads the input file `path` up to its first record, as [`for_each_item`]
/// would with `column`, so that a header that does not name the
/// `--column NAME` column, or has fewer than `--column N`'s columns, is
/// reported before any output exists. A zip archive in a regular file has
/// each member read to its first record, not checked whole (that would
/// decompress it all: the run checks each); one read as a stream, its
/// first member's.
///
/// With `keep` (`--keep`), the header must also name each kept column
/// when the file is read as CSV.
///
/// Errors: as [`for_each_item`]'s.
pub fn check_header(path: &Path, column: Option<&Column>, keep: &[String]) -> anyhow::Result<()> {
    read_inputs(
        std::slice::from_ref(&path.to_path_buf()),
        column,
        (keep, &[]),
        Archives::FirstRecords,
        |_| ControlFlow::Break(()),
    )
}

/// How [`read_inputs`] reads a zip archive in a regular file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Archives {
    /// By its directory, each member checked whole before its records.
    Checked,
    /// By its directory, each member's first record only ([`check_header`]:
    /// every member's header is read before any output, so that one that
    /// lacks a `--keep` column or names two puzzle columns stops the run
    /// before the rows of the members before it are written; found by
    /// probing). Items are not handed on.
    FirstRecords,
}

/// [`for_each_item`]; `archives`: how zip archives in regular files are
/// read (see [`Archives`]).
fn read_inputs(
    inputs: &[PathBuf],
    column: Option<&Column>,
    (keep, optional): (&[String], &[String]),
    archives: Archives,
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
        // A regular file that holds a zip archive is read by its directory,
        // each member checked before its records are read.
        let mut archive = None;
        let (name, input): (Arc<str>, Box<dyn BufRead>) = if path.as_os_str() == "-" {
            check_stdin()?;
            let stdin = io::stdin();
            let input: Box<dyn BufRead> = match streaming::watch(&stdin) {
                Some(w) => Box::new(streaming::Watched::new(stdin, &mut watch, w)),
                None => {
                    archive = archive::stdin_archive();
                    Box::new(BufReader::with_capacity(BUFFER, stdin))
                }
            };
            (Arc::from(STDIN_NAME), input)
        } else {
            let file = open_file(path)?;
            if let Some(w) = streaming::watch(&file) {
                // A named pipe or a device: no gzip check (it would wait).
                let input = streaming::Watched::new(file, &mut watch, w);
                (Arc::from(path.display().to_string()), Box::new(input))
            } else {
                let mut input = buffered_file(path, file)?;
                let name = Arc::from(path.display().to_string());
                let head = input
                    .fill_buf()
                    .with_context(|| format!("cannot read input {name}"))?;
                if is_zip(head) {
                    archive = Some(input.into_inner().file);
                    (name, Box::new(io::empty()))
                } else {
                    (name, Box::new(input))
                }
            }
        };
        let reading = Reading {
            line_cap: LINE_CAP,
            column,
            keep,
            optional,
            watch: watch.as_ref(),
        };
        let flow = match archive {
            Some(file) if archives == Archives::Checked => {
                archive::records_of_file(&name, file, &reading, &mut index, &mut f)?
            }
            Some(file) => {
                archive::first_records_of_members(&name, file, &reading)?;
                ControlFlow::Break(())
            }
            None => records_of_input(&name, input, &reading, &mut index, &mut f)?,
        };
        if flow.is_break() {
            return Ok(());
        }
    }
    Ok(())
}

/// Bytes this process has read from regular input files so far (for a
/// progress bar: the bytes read against the inputs' sizes). Zip archives'
/// bytes are not counted.
static BYTES_READ: AtomicU64 = AtomicU64::new(0);

/// Bytes read from regular input files by this process so far (monotonic;
/// a progress bar takes the difference from its start).
pub fn bytes_read() -> u64 {
    BYTES_READ.load(Ordering::Relaxed)
}

/// A regular file whose reads are added to [`BYTES_READ`] (one relaxed add
/// per buffer fill), and whose end is checked against its size: a file
/// that shrank while read (truncated, or rewritten in place, by another
/// program) is a read error at its end, not a quiet end of input.
/// Before, a file truncated under a run ended the run with exit 0 on a
/// record cut in the middle (an invalid row for a puzzle that was whole
/// when the run began), and nothing said the file had changed.
pub(crate) struct Counted {
    file: File,
    /// Bytes read so far.
    read: u64,
    /// The file's size when it was opened.
    opened: u64,
}

impl Counted {
    fn new(file: File) -> Counted {
        let opened = file.metadata().map_or(0, |m| m.len());
        Counted {
            file,
            read: 0,
            opened,
        }
    }
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.file.read(buf)?;
        BYTES_READ.fetch_add(n as u64, Ordering::Relaxed);
        self.read += n as u64;
        if n == 0 && !buf.is_empty() {
            // One fstat per file, at its end. A file that grew is read to
            // its new end; one now shorter than what was read, or ending
            // before the size it had when opened, was cut under the run.
            let now = self.file.metadata()?.len();
            if self.read < self.opened || now < self.read {
                return Err(io::Error::other(format!(
                    "the file shrank while it was read ({} bytes when opened, {now} now, \
                     {} read): another program truncated or rewrote it, so the last record \
                     read may be cut; run again once it is complete",
                    self.opened, self.read
                )));
            }
        }
        Ok(n)
    }
}

/// A regular file's buffered reader, its signature checked against its name
/// ([`check_signature`]); what is read from it is counted ([`bytes_read`]).
///
/// Errors: the file cannot be read, or its bytes are not what its name
/// promises.
fn buffered_file(path: &Path, file: File) -> anyhow::Result<BufReader<Counted>> {
    let mut input = BufReader::with_capacity(BUFFER, Counted::new(file));
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
            // Asked before opening: a FIFO is opened by its reader only
            // (see [`check_file`]).
            if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
                return false;
            }
            let Ok(mut file) = File::open(path) else {
                return false;
            };
            let mut head = [0u8; 4];
            file.read(&mut head).is_ok_and(|n| !is_zip(&head[..n]))
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
    keep: Vec<String>,
    current: Option<InputRecords<Box<dyn BufRead + Send>>>,
    index: u64,
}

impl FileRecords {
    /// Reads `inputs` ([`pullable`] ones) in order, the puzzle taken from
    /// `column` and the columns `keep` names kept as [`for_each_item`]
    /// takes them.
    pub fn new(inputs: &[PathBuf], column: Option<&Column>, keep: &[String]) -> FileRecords {
        FileRecords {
            inputs: inputs.to_vec(),
            next: 0,
            column: column.cloned(),
            keep: keep.to_vec(),
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
                keep: &self.keep,
                optional: &[],
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
                Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Err(format!(
                    "{text}: no CSV record has that many columns (the most is {})",
                    usize::MAX
                )),
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
    refuse_unread_compression(&path.display().to_string(), head)
}

/// Refuses an input named `name` whose first bytes `head` (at least four,
/// or the whole input) are those of a compressed format the reader does not
/// decompress (zstd, xz, bzip2, lz4, 7-Zip): read as text, its bytes would
/// be invalid records, the puzzles in it unread.
///
/// Errors: the input is in one of those formats; the message names it and
/// the command that decompresses it.
fn refuse_unread_compression(name: &str, head: &[u8]) -> anyhow::Result<()> {
    let (format, tool) = match head {
        [0x28, 0xb5, 0x2f, 0xfd, ..] => ("zstd", "zstd -dc"),
        [0xfd, b'7', b'z', b'X', ..] => ("xz", "xz -dc"),
        [b'B', b'Z', b'h', b'1'..=b'9', ..] => ("bzip2", "bzip2 -dc"),
        [0x04, 0x22, 0x4d, 0x18, ..] => ("lz4", "lz4 -dc"),
        [b'7', b'z', 0xbc, 0xaf, ..] => ("7-Zip", "7z x -so"),
        _ => return Ok(()),
    };
    let file = if name == STDIN_NAME { "FILE" } else { name };
    bail!(
        "input {name} is {format} data, which sudoflow does not decompress (it reads text, \
         gzip and zip): decompress it first, e.g. `{tool} {file} | sudoflow ...`"
    )
}

/// How [`records_of`] reads one input.
struct Reading<'a> {
    /// Longest line kept whole ([`LINE_CAP`], smaller in the fuzz checks).
    line_cap: usize,
    /// `--column`, if given.
    column: Option<&'a Column>,
    /// `--keep`'s column names (empty: none).
    keep: &'a [String],
    /// Columns kept after `keep`'s where an input's header names them,
    /// empty where it does not (no error): `print`'s `index`, `er`, `label`
    /// ([`for_each_item_keeping`]).
    optional: &'a [String],
    /// The descriptor to watch for [`Item::Waiting`] (pipes, terminals).
    watch: Option<&'a streaming::Watch>,
}

/// The records of one input read as a stream: those of each member of a zip
/// archive in turn when the input starts with a zip signature (see the
/// `archive` module), else those of its lines ([`records_of`]).
///
/// Errors: as [`records_of`]; also a zip member that cannot be read (an
/// unsupported compression method, encryption, damage), named, with the
/// rows that came from it.
fn records_of_input(
    name: &Arc<str>,
    mut input: Box<dyn BufRead + '_>,
    reading: &Reading,
    index: &mut u64,
    f: &mut impl FnMut(Item) -> ControlFlow<()>,
) -> anyhow::Result<ControlFlow<()>> {
    // The first read may wait (an idle pipe, a FIFO with no writer yet):
    // the records of the inputs before it go to work first.
    if reading.watch.is_some_and(|w| w.will_wait()) && f(Item::Waiting).is_break() {
        return Ok(ControlFlow::Break(()));
    }
    let head = input
        .fill_buf()
        .with_context(|| format!("cannot read input {name}"))?;
    if head.is_empty() {
        // Empty (on a terminal, Ctrl-D at once: not to be read twice).
        return Ok(ControlFlow::Continue(()));
    }
    refuse_unread_compression(name, head)?;
    if !is_zip(head) {
        return records_of(name, input, reading, index, f);
    }
    archive::records_of_stream(name, input, reading, index, f)
}

/// [`for_each_record`] over one input already open: `name` is its
/// [`Record::source`], `line_cap` the longest line kept ([`LINE_CAP`] in
/// the commands; the fuzz checks of `sudoflow::checks`, feature
/// `fuzzing`, use small caps so that short inputs meet it). Records are
/// numbered from 1.
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
        keep: &[],
        optional: &[],
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
        let csv = format!(
            "id,puzzle,solution\n1,{p17},x\n2,\"{p17}\",y\n3,bad,z\n4\n5,{p17},\"two\r\nlines\"\n\
             6,\"{p17}"
        );
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
    fn both_ways(inputs: &[PathBuf], keep: &[String]) -> (Vec<Record>, Vec<Record>) {
        let mut handed = Vec::new();
        for_each_item(inputs, None, keep, |item| {
            if let Item::Record(r) = item {
                handed.push(r);
            }
            ControlFlow::Continue(())
        })
        .unwrap();
        let mut records = FileRecords::new(inputs, None, keep);
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
        let (expected, taken) = both_ways(&inputs, &[]);
        // 7 per pasted file (the grid, a row cut short, the puzzle line,
        // the long line, the pencilmarks, `12x`, the last line), 6 CSV
        // records: one short, one over two lines, one whose quote never
        // closes.
        assert_eq!(expected.len(), 2 * 7 + 6);
        assert_eq!(taken, expected);
    }

    /// The records of `text` (one input, `name`) with `keep`.
    fn kept_of(name: &str, text: &str, keep: &[&str]) -> anyhow::Result<Vec<Record>> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let keep: Vec<String> = keep.iter().map(|k| k.to_string()).collect();
        let mut records = Vec::new();
        for_each_item(&[path], None, &keep, |item| {
            if let Item::Record(r) = item {
                records.push(r);
            }
            ControlFlow::Continue(())
        })?;
        Ok(records)
    }

    #[test]
    fn kept_columns_are_the_csv_fields_under_their_header_names() {
        let p17 =
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
        // Kaggle's shape, CRLF ends, a quoted id holding a comma, a field
        // over two lines, a short record, the kept column last.
        let text = format!(
            "Id,puzzle,note\r\nk-1,{p17},plain\r\n\"k,2\",\"{p17}\",\"two\r\nlines\"\r\nk-3\r\n\
             k-4,{p17},last\r\n"
        );
        let records = kept_of("a.csv", &text, &["note", "id"]).unwrap();
        let kept: Vec<Vec<String>> = records.iter().map(|r| r.kept.clone()).collect();
        let want: [[&str; 2]; 4] = [
            ["plain", "k-1"],
            ["two\r\nlines", "k,2"],
            ["", "k-3"],
            ["last", "k-4"],
        ];
        assert_eq!(kept, want.map(|w| w.map(String::from).to_vec()));
        assert!(records[2].grid.is_err(), "the short record is invalid");
        assert_eq!(
            records.iter().map(|r| r.line).collect::<Vec<_>>(),
            [2, 3, 5, 6]
        );
        // No header: not CSV; every kept column is empty.
        let records = kept_of("a.txt", &format!("{p17}\n12x\n"), &["id"]).unwrap();
        assert_eq!(records.len(), 2);
        assert!(records.iter().all(|r| r.kept == [""]));
        // Without --keep, no kept columns at all.
        let records = kept_of("a.csv", &text, &[]).unwrap();
        assert!(records.iter().all(|r| r.kept.is_empty()));
    }

    #[test]
    fn a_kept_column_missing_from_a_csv_header_is_an_error_naming_it() {
        let p17 =
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
        let error = kept_of("a.csv", &format!("id,puzzle\n1,{p17}\n"), &["id", "author"])
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("has no column named \"author\" (--keep)")
                && error.contains("\"id\", \"puzzle\""),
            "{error}"
        );
        // The check before any output reads only the header.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.csv");
        std::fs::write(&path, format!("id,puzzle\n1,{p17}\n")).unwrap();
        let keep = ["who".to_string()];
        assert!(check_header(&path, None, &keep).is_err());
        assert!(check_header(&path, None, &["ID".to_string()]).is_ok());
        // --column N on a file without a header: nothing to name the column.
        let mut records = FileRecords::new(
            std::slice::from_ref(&path),
            Some(&Column::Number(std::num::NonZeroUsize::new(2).unwrap())),
            &keep,
        );
        assert!(records.next_record().is_err());
        std::fs::write(&path, format!("1,{p17}\n")).unwrap();
        let error = check_header(
            &path,
            Some(&Column::Number(std::num::NonZeroUsize::new(2).unwrap())),
            &["id".to_string()],
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("has no CSV header"), "{error}");
    }

    /// Optional kept columns (`print`'s index, er, label): the fields
    /// where the header has them, empty where it lacks them or the input
    /// is not CSV, never an error; after `--keep`'s, before a `--source`
    /// CSV's origin (which still names the record); and read the same from
    /// an input already open (stdin's bytes, a zip archive among them).
    #[test]
    fn optional_kept_columns_are_kept_where_the_header_has_them() {
        let p17 =
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
        let dir = tempfile::tempdir().unwrap();
        let optional = ["index", "er", "label"].map(String::from);
        let read = |name: &str, text: &str, keep: &[String]| -> anyhow::Result<Vec<Record>> {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            let mut records = Vec::new();
            for_each_item_keeping(&[path], None, keep, &optional, |item| {
                if let Item::Record(r) = item {
                    records.push(r);
                }
                ControlFlow::Continue(())
            })?;
            Ok(records)
        };
        let text =
            format!("er,Puzzle,Index,source,line\n2.6,{p17},7,big.txt,12\n,12x,8,big.txt,13\n");
        let records = read("a.csv", &text, &["line".to_string()]).unwrap();
        let kept: Vec<Vec<&str>> = records
            .iter()
            .map(|r| r.kept.iter().map(String::as_str).collect())
            .collect();
        assert_eq!(kept, [["12", "7", "2.6", ""], ["13", "8", "", ""]]);
        assert_eq!(
            records
                .iter()
                .map(|r| (&*r.source, r.line))
                .collect::<Vec<_>>(),
            [("big.txt", 12), ("big.txt", 13)]
        );
        assert_eq!(
            records[1].grid.as_ref().unwrap_err(),
            "big.txt:13: wrong length: expected 81 cells, found 3"
        );
        // No header, or one without them: empty, no error.
        let records = read("b.txt", &format!("{p17}\n"), &[]).unwrap();
        assert_eq!(records[0].kept, ["", "", ""]);
        let records = read("c.csv", &format!("id,puzzle\n1,{p17}\n"), &[]).unwrap();
        assert_eq!(records[0].kept, ["", "", ""]);
        // --keep's columns are still required.
        let e = read(
            "c.csv",
            &format!("id,puzzle\n1,{p17}\n"),
            &["who".to_string()],
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("has no column named \"who\" (--keep)"), "{e}");
        // An input already open reads alike.
        let mut again = Vec::new();
        for_each_item_in(
            "s",
            Box::new(text.as_bytes()),
            None,
            (&[], &optional),
            |item| {
                if let Item::Record(r) = item {
                    again.push(r);
                }
                ControlFlow::Continue(())
            },
        )
        .unwrap();
        assert_eq!(again[0].kept, ["7", "2.6", ""]);
        assert_eq!((&*again[0].source, again[0].line), ("big.txt", 12));
    }

    #[test]
    fn a_puzzle_given_as_text_is_one_input() {
        let p17 =
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
        let mut records = Vec::new();
        for_each_text_item(p17, &["id".to_string()], |item| {
            if let Item::Record(r) = item {
                records.push(r);
            }
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(records.len(), 1);
        assert_eq!(&*records[0].source, TEXT_NAME);
        assert_eq!((records[0].index, records[0].line), (1, 1));
        assert!(records[0].grid.is_ok());
        assert_eq!(records[0].kept, [""]);
    }

    #[test]
    fn file_records_report_a_missing_column_after_the_records_before_it() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = tricky_inputs(dir.path());
        let column = Column::Name("puzzle".into());
        // pasted.txt has no header: its first line is read as one.
        let mut records = FileRecords::new(&inputs[1..], Some(&column), &[]);
        let mut n = 0;
        let error = loop {
            match records.next_record() {
                Ok(Some(_)) => n += 1,
                Ok(None) => panic!("pasted.txt.gz has no column named puzzle"),
                Err(e) => break e.to_string(),
            }
        };
        assert_eq!(n, 6, "kaggle.csv's rows come first");
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
    const LINE_KINDS: [&str; 17] = [
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
        // CSV records cut short, and quoted fields over lines.
        "202,\"C, D\"",
        "205",
        "1,\"multi",
        "line\", x",
        "7,\"a \"\"b\"\"\",.................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...,\"c",
    ];

    proptest::proptest! {
        /// Over one to three files made of those lines (CRLF or LF, gzipped
        /// or not, after a CSV header or not), FileRecords gives the records
        /// for_each_item gives: numbering across inputs, headers per input,
        /// 9-line grids and CSV records over lines cut by an input's end.
        #[test]
        fn file_records_read_any_mix_of_lines_as_for_each_item_does(
            files in proptest::collection::vec(
                (proptest::collection::vec(0..LINE_KINDS.len(), 0..40),
                 proptest::bool::ANY,
                 proptest::bool::ANY,
                 proptest::bool::ANY),
                1..4,
            )
        ) {
            let dir = tempfile::tempdir().unwrap();
            let inputs: Vec<PathBuf> = files
                .iter()
                .enumerate()
                .map(|(k, (lines, crlf, gzipped, header))| {
                    let end = if *crlf { "\r\n" } else { "\n" };
                    let header = if *header { format!("id,\"a, b\",puzzle{end}") } else { String::new() };
                    let text: String = header
                        + &lines.iter().map(|&i| format!("{}{end}", LINE_KINDS[i])).collect::<String>();
                    let path = dir.path().join(format!("{k}.txt"));
                    let bytes = if *gzipped { gz(text.as_bytes()) } else { text.into_bytes() };
                    std::fs::write(&path, bytes).unwrap();
                    path
                })
                .collect();
            let (expected, taken) = both_ways(&inputs, &[]);
            proptest::prop_assert_eq!(taken, expected);
            // Every header the lines make names an `id` column.
            let (expected, taken) = both_ways(&inputs, &["ID".to_string()]);
            proptest::prop_assert!(expected.iter().all(|r| r.kept.len() == 1));
            proptest::prop_assert_eq!(taken, expected);
        }
    }
}
