//! The CSV row that `solve` writes (and `generate` extends with `seed`).
//!
//! Columns, in order: `index,puzzle,status,solutions,solution,clues,wnf,wnf_level,
//! guesses,backtracks,error`. `wnf` is printed with 10 decimals, which is at
//! least 7 significant digits for every possible WNF (its minimum is 1/512).
//! Fields that do not apply are empty, never a made-up 0: an `invalid` row
//! has no `solutions`, `solution`, `clues`, `wnf`, `wnf_level`, `guesses` or
//! `backtracks`; a `stuck`, `timeout` or `error` row has no `solutions`
//! ([`Status::counted`]).

#[cfg(feature = "parquet")]
pub mod parquet;
pub mod sink;
#[cfg(feature = "arrow")]
pub mod table;

pub use sink::{Format, Sink};

use crate::grid::Grid;
use crate::rating::Wnf;
use crate::solver::Outcome;

/// The header of `solve`'s CSV, in column order.
pub const SOLVE_HEADER: [&str; 11] = [
    "index",
    "puzzle",
    "status",
    "solutions",
    "solution",
    "clues",
    "wnf",
    "wnf_level",
    "guesses",
    "backtracks",
    "error",
];

/// A record's status column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Exactly one solution.
    Unique,
    /// Two or more solutions (counting stopped at the limit).
    Multiple,
    /// A solution was found but uniqueness was not checked: the limit was 1
    /// (`solve --limit 1`), so the search stopped at the first solution.
    Solved,
    /// No solution.
    Unsolvable,
    /// Not a puzzle: bad length, bad character or clashing givens.
    Invalid,
    /// Propagation stalled with guessing turned off.
    Stuck,
    /// The per-record time budget ran out.
    Timeout,
    /// The work on this record panicked (a bug in sudoflow): the `error`
    /// column has the message; the run went on (exit code 3).
    Error,
}

impl Status {
    /// The status as written in the CSV.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Invalid => "invalid",
            Status::Stuck => "stuck",
            Status::Timeout => "timeout",
            Status::Error => "error",
        }
    }

    /// Whether a row of this status knows its number of solutions (the
    /// `solutions` column; "N or more" at the limit): not an invalid record,
    /// nor one whose search stopped short of an answer (`stuck`, `timeout`)
    /// or failed (`error`), whose column is empty rather than a count of 0
    /// that would read as unsolvable.
    pub fn counted(self) -> bool {
        matches!(
            self,
            Status::Unique | Status::Multiple | Status::Solved | Status::Unsolvable
        )
    }

    /// The status a solver outcome stands for (never `Invalid`); `limit` is the
    /// [`crate::solver::SolveOptions::limit`] it was solved with.
    pub fn of(outcome: &Outcome, limit: u64) -> Status {
        if outcome.timed_out {
            Status::Timeout
        } else if outcome.stuck && outcome.solutions == 0 {
            Status::Stuck
        } else {
            match outcome.solutions {
                0 => Status::Unsolvable,
                1 if outcome.stuck => Status::Stuck,
                1 if limit <= 1 => Status::Solved,
                1 => Status::Unique,
                _ => Status::Multiple,
            }
        }
    }
}

impl crate::pipeline::FromPanic for SolveRow {
    fn from_panic(record: &crate::pipeline::Record, message: &str) -> SolveRow {
        SolveRow::error(record, message)
    }
}

/// One row of `solve`'s output.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveRow {
    /// 1-based position of the record among all records.
    pub index: u64,
    /// The puzzle; `None` for an invalid record or a pencilmark puzzle. The
    /// `puzzle` column is its 81 cells with `.` for blanks, or
    /// [`SolveRow::raw`] when `None`.
    pub puzzle: Option<Grid>,
    /// An invalid record's text as read ([`crate::pipeline::Record::raw`]),
    /// or a pencilmark puzzle's 729 characters; empty for a valid puzzle.
    pub raw: String,
    /// See [`Status`].
    pub status: Status,
    /// Solutions found, capped at the limit.
    pub solutions: u64,
    /// The first solution found, if any.
    pub solution: Option<Grid>,
    /// Number of givens (not written for an invalid record).
    pub clues: usize,
    /// WNF, for every record that is not invalid.
    pub wnf: Option<Wnf>,
    /// Guesses the solver took.
    pub guesses: u64,
    /// Backtracks the solver met.
    pub backtracks: u64,
    /// Empty unless invalid or unsolvable: names the record's source line
    /// and the problem (an unsolvable puzzle's: where propagation finds the
    /// contradiction, [`crate::solver::why_unsolvable`]); or, with `--se`,
    /// why the rating was cut short.
    pub error: String,
}

impl SolveRow {
    /// The row for a valid puzzle that was solved with `outcome`, counting up to
    /// `limit` solutions.
    pub fn solved(index: u64, puzzle: &Grid, outcome: &Outcome, limit: u64) -> SolveRow {
        SolveRow::rated(index, puzzle, crate::rating::wnf(puzzle), outcome, limit)
    }

    /// [`SolveRow::solved`] with the puzzle's WNF already at hand (e.g. rated
    /// by [`crate::solver::Solver::solve_rated`]).
    pub fn rated(index: u64, puzzle: &Grid, wnf: Wnf, outcome: &Outcome, limit: u64) -> SolveRow {
        SolveRow {
            index,
            puzzle: Some(*puzzle),
            raw: String::new(),
            status: Status::of(outcome, limit),
            solutions: outcome.solutions,
            solution: outcome.solution,
            clues: puzzle.clues(),
            wnf: Some(wnf),
            guesses: outcome.guesses,
            backtracks: outcome.backtracks,
            error: String::new(),
        }
    }

    /// The row for an invalid record: `raw` is its puzzle field as read,
    /// `error` the message naming the source line and the problem.
    pub fn invalid(index: u64, raw: &str, error: String) -> SolveRow {
        SolveRow {
            index,
            puzzle: None,
            raw: raw.to_string(),
            status: Status::Invalid,
            solutions: 0,
            solution: None,
            clues: 0,
            wnf: None,
            guesses: 0,
            backtracks: 0,
            error,
        }
    }

    /// The row for a record whose work panicked with `message`: status
    /// `error`, the puzzle (or the raw text) kept, no solution.
    pub fn error(record: &crate::pipeline::Record, message: &str) -> SolveRow {
        SolveRow {
            puzzle: record.grid.as_ref().ok().copied(),
            raw: record.raw.clone(),
            status: Status::Error,
            clues: record.grid.as_ref().map_or(0, Grid::clues),
            ..SolveRow::invalid(
                record.index,
                "",
                crate::pipeline::panic_message(record, message),
            )
        }
    }

    /// The fields as CSV strings, in [`SOLVE_HEADER`] order.
    pub fn fields(&self) -> [String; 11] {
        [
            self.index.to_string(),
            self.puzzle
                .map_or_else(|| self.raw.clone(), |p| p.to_line()),
            self.status.as_str().to_string(),
            match self.status.counted() {
                true => self.solutions.to_string(),
                false => String::new(),
            },
            self.solution.map(|s| s.to_line()).unwrap_or_default(),
            self.applies(self.clues as u64),
            self.wnf.map(|w| wnf_text(&w)).unwrap_or_default(),
            self.wnf.map(|w| w.level.to_string()).unwrap_or_default(),
            self.applies(self.guesses),
            self.applies(self.backtracks),
            self.error.clone(),
        ]
    }

    /// `n` as text, or empty for an invalid row, to which the solver's
    /// figures do not apply.
    fn applies(&self, n: u64) -> String {
        if self.status == Status::Invalid {
            String::new()
        } else {
            n.to_string()
        }
    }

    /// Puts the row's fields into `record` (cleared first), in
    /// [`SOLVE_HEADER`] order: the same text as [`SolveRow::fields`], but
    /// formatted into stack buffers and copied into `record`'s one buffer, so
    /// that a reused record costs no allocation per row and
    /// [`csv::Writer::write_byte_record`] can take its fast path (the
    /// whole record at once rather than field by field).
    pub fn fill_record(&self, record: &mut csv::ByteRecord) {
        self.fill_record_with_blank(record, b'.');
    }

    /// [`SolveRow::fill_record`] with `blank` (`.`, `0` or `_`) for the
    /// blanks of the `puzzle` column (`--blank`; an invalid record's text is
    /// kept as read).
    pub fn fill_record_with_blank(&self, record: &mut csv::ByteRecord, blank: u8) {
        record.clear();
        self.push_fields(record, blank);
    }

    /// [`SolveRow::fill_record_with_blank`] without clearing `record`
    /// first: the row's fields go after those it holds (`--keep`'s).
    pub fn push_fields(&self, record: &mut csv::ByteRecord, blank: u8) {
        let mut num = itoa::Buffer::new();
        let mut line = [0u8; 81];
        record.push_field(num.format(self.index).as_bytes());
        match &self.puzzle {
            Some(p) => record.push_field(grid_line(p, &mut line, blank)),
            None => record.push_field(self.raw.as_bytes()),
        }
        record.push_field(self.status.as_str().as_bytes());
        let valid = self.status != Status::Invalid;
        let mut count = |record: &mut csv::ByteRecord, n: u64| {
            record.push_field(if valid { num.format(n).as_bytes() } else { b"" })
        };
        match self.status.counted() {
            true => count(record, self.solutions),
            false => record.push_field(b""),
        }
        match &self.solution {
            Some(s) => record.push_field(grid_line(s, &mut line, b'.')),
            None => record.push_field(b""),
        }
        count(record, self.clues as u64);
        match &self.wnf {
            Some(w) => {
                let mut text = [0u8; WNF_TEXT_LEN];
                match wnf_decimals(w, &mut text) {
                    Some(fixed) => record.push_field(fixed),
                    None => record.push_field(wnf_text(w).as_bytes()),
                }
                record.push_field(itoa::Buffer::new().format(w.level).as_bytes());
            }
            None => {
                record.push_field(b"");
                record.push_field(b"");
            }
        }
        count(record, self.guesses);
        count(record, self.backtracks);
        record.push_field(self.error.as_bytes());
    }
}

/// Decimals of the `wnf` column.
const WNF_DECIMALS: usize = 10;

/// Length of the `wnf` column's text: `0.` or `1.` and [`WNF_DECIMALS`] digits.
const WNF_TEXT_LEN: usize = 2 + WNF_DECIMALS;

/// The `wnf` column as `format!("{:.10}", w.value)` writes it.
fn wnf_text(w: &Wnf) -> String {
    format!("{:.*}", WNF_DECIMALS, w.value)
}

/// The `wnf` column from integers, the same text as [`wnf_text`] but without
/// float formatting (whose exact mode costs as much as the WNF itself).
///
/// `WNF = wf / (512·|E|)`, so `WNF·10^10 = wf·19,531,250 / |E|` exactly
/// (`10^10 / 512 = 19,531,250`), and its quotient and remainder give the ten
/// decimals rounded to nearest. `w.value` is that fraction rounded once to
/// f64, an error below `10^-17`, while a fraction with `|E| <= 81` that is not
/// exactly halfway between two 10-decimal numbers lies at least
/// `10^-10 / 162` from the halfway point: so both round the same way. At an
/// exact tie the f64 is the fraction itself when the fraction's reduced
/// denominator is a power of two, and float formatting then rounds half to
/// even, as here; otherwise (|E| a multiple of 20, a handful of fractions)
/// the f64's own rounding decides and this returns `None`: the caller then
/// formats the float.
fn wnf_decimals<'a>(w: &Wnf, buf: &'a mut [u8; WNF_TEXT_LEN]) -> Option<&'a [u8]> {
    let (num, den) = match w.empty {
        0 => (0, 1),
        e => (w.wf * 19_531_250, u64::from(e)),
    };
    let (mut q, r) = (num / den, num % den);
    match (2 * r).cmp(&den) {
        std::cmp::Ordering::Less => {}
        std::cmp::Ordering::Greater => q += 1,
        std::cmp::Ordering::Equal => {
            let mut a = (w.wf, den);
            while a.1 != 0 {
                a = (a.1, a.0 % a.1);
            }
            if !(den / a.0).is_power_of_two() {
                return None;
            }
            q += q & 1;
        }
    }
    // q <= 10^10, i.e. WNF <= 1.
    buf[0] = b'0' + (q / 10_000_000_000) as u8;
    buf[1] = b'.';
    let mut digits = q % 10_000_000_000;
    for out in buf[2..].iter_mut().rev() {
        *out = b'0' + (digits % 10) as u8;
        digits /= 10;
    }
    Some(&buf[..])
}

/// The 81-character line form of `grid` (`blank` for blanks) in `buf`.
fn grid_line<'a>(grid: &Grid, buf: &'a mut [u8; 81], blank: u8) -> &'a [u8] {
    for (out, &v) in buf.iter_mut().zip(grid.cells()) {
        *out = if v == 0 { blank } else { b'0' + v };
    }
    buf
}

/// A grid's line form (`.` blanks, as [`Grid::to_line`] writes it) with
/// `blank` for the blanks instead (`--blank`).
pub fn with_blank(line: &str, blank: u8) -> String {
    if blank == b'.' {
        return line.to_string();
    }
    line.bytes()
        .map(|b| char::from(if b == b'.' { blank } else { b }))
        .collect()
}

/// A sink of `format` (not CSV) writing to `out`, which errors call `name`.
///
/// Errors: `format` is Parquet and the `parquet` feature is off.
pub fn open_sink(
    format: Format,
    out: Box<dyn std::io::Write + Send>,
    name: String,
) -> anyhow::Result<Box<dyn Sink>> {
    open_sink_with_text(format, out, name, &[])
}

/// [`open_sink`], the columns `text` typed as text whatever their names
/// (`--keep`'s input columns: [`sink::column_kind_in`]).
///
/// Errors: as [`open_sink`].
pub fn open_sink_with_text(
    format: Format,
    out: Box<dyn std::io::Write + Send>,
    name: String,
    text: &[String],
) -> anyhow::Result<Box<dyn Sink>> {
    #[cfg(not(feature = "parquet"))]
    let _ = text;
    match format {
        Format::Csv => unreachable!("CSV is CsvSink's own"),
        Format::Jsonl => Ok(Box::new(sink::JsonlSink::with_text(
            out,
            name,
            text.to_vec(),
        ))),
        #[cfg(feature = "parquet")]
        Format::Parquet => Ok(Box::new(parquet::ParquetSink::with_text(
            out,
            name,
            text.to_vec(),
        ))),
        #[cfg(not(feature = "parquet"))]
        Format::Parquet => {
            anyhow::bail!("--format parquet: this sudoflow was built without the `parquet` feature")
        }
    }
}

/// A buffered CSV destination: a file, or stdout for `None` or `-`.
///
/// Shared by every command that writes CSV. Write errors name the destination
/// and keep an I/O error (such as the [`std::io::ErrorKind::BrokenPipe`] of a
/// closed stdout) as an `std::io::Error` in the chain, where the binary looks
/// for it to end quietly.
///
/// Quoting: the text is what a csv writer with the default
/// `QuoteStyle::Necessary` writes. The writer underneath is set to
/// `QuoteStyle::Never` and fields arrive already quoted where they need it,
/// decided and quoted by csv-core ([`csv_core::Writer::should_quote`],
/// [`csv_core::quote`]), so that the rows of valid puzzles, whose fields are
/// digits, dots, status words and decimals, skip the per-byte scan.
pub struct CsvSink {
    wtr: csv::Writer<Shared<Box<dyn std::io::Write>>>,
    /// The destination under `wtr`, for [`CsvSink::write_formatted`].
    out: Shared<Box<dyn std::io::Write>>,
    name: String,
    /// Decides which fields need quotes (csv-core's default configuration).
    quoter: csv_core::Writer,
    /// Reused for each row.
    record: csv::ByteRecord,
    /// The blank of `solve` rows' `puzzle` column (`--blank`).
    blank: u8,
    /// The same row with its fields quoted where needed.
    quoted: csv::ByteRecord,
    /// `--format jsonl|parquet`: the rows go there instead, unquoted.
    other: Option<Box<dyn Sink>>,
}

/// Whether `a` and `b` name one existing file (`-`, stdin, names none).
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    if a.as_os_str() == "-" || b.as_os_str() == "-" {
        return false;
    }
    let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        ma.dev() == mb.dev() && ma.ino() == mb.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (ma, mb);
        matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
    }
}

/// Whether stdin is the file `path` names (`sudoflow solve -o in.txt <
/// in.txt`), or the pipe it names (`Some(true)`) (`-o /dev/stdin` with stdin a pipe, which
/// read the run's own rows back for ever, found by probing): the same
/// device and inode. A terminal is not: what is written to it is not read
/// back.
fn stdin_is(path: &std::path::Path) -> Option<bool> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::MetadataExt;
        let (Some(stdin), Ok(out)) = (
            fd_metadata(std::io::stdin().as_fd()),
            std::fs::metadata(path),
        ) else {
            return None;
        };
        use std::os::unix::fs::FileTypeExt;
        let pipe = stdin.file_type().is_fifo();
        ((stdin.is_file() || pipe) && stdin.dev() == out.dev() && stdin.ino() == out.ino())
            .then_some(pipe)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// The metadata of the file open on `fd` (stdin's, stdout's), if it can be
/// read.
#[cfg(unix)]
fn fd_metadata(fd: std::os::fd::BorrowedFd<'_>) -> Option<std::fs::Metadata> {
    let fd = fd.try_clone_to_owned().ok()?;
    std::fs::File::from(fd).metadata().ok()
}

/// Opens `path`, a file written directly, not replaced (`/dev/null`, a
/// FIFO: [`crate::outfile::replaced_path`] gives `None`), for writing. A FIFO with no reader yet is waited
/// for without blocking a stop signal: the open is tried again every 50 ms
/// until a reader comes or a stop is requested ([`crate::interrupt`]).
///
/// Errors: it cannot be opened, or a stop signal came first
/// ([`crate::interrupt::Stopped`]).
pub fn open_direct(path: &std::path::Path) -> anyhow::Result<std::fs::File> {
    use anyhow::Context;
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let fifo = std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo());
    if !fifo {
        return std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .with_context(|| format!("cannot open {}", path.display()));
    }
    loop {
        match std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
        {
            Ok(file) => {
                // Writes block again as on any pipe.
                let fd = std::os::fd::AsRawFd::as_raw_fd(&file);
                // SAFETY: fcntl on a descriptor this function owns.
                unsafe {
                    let flags = libc::fcntl(fd, libc::F_GETFL);
                    libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
                }
                return Ok(file);
            }
            // No reader yet.
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {
                if let Some(signal) = crate::interrupt::requested() {
                    let stop = crate::interrupt::Stopped {
                        signal,
                        what: "while waiting for a reader of the FIFO",
                    };
                    return Err(anyhow::Error::new(stop));
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            Err(e) => {
                return Err(anyhow::Error::new(e).context(format!("cannot open {}", path.display())))
            }
        }
    }
}

/// Refuses a stdout that cannot take writes: descriptor 1 closed by the
/// shell (`>&-`, which the binary leaves open read-only on /dev/null rather
/// than let Rust's runtime open it writable there) or opened read-only.
/// Rust's stdout drops writes that fail with EBADF, so the rows would be
/// lost with exit 0.
///
/// Errors: descriptor 1 is not open for writing.
pub fn check_stdout() -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        // SAFETY: a query of the descriptor's flags.
        let flags = unsafe { libc::fcntl(1, libc::F_GETFL) };
        if flags == -1 || flags & libc::O_ACCMODE == libc::O_RDONLY {
            anyhow::bail!(
                "cannot write to stdout: it is closed or open only for reading (give -o FILE, \
                 or redirect it to a file)"
            );
        }
    }
    Ok(())
}

/// Refuses a stdout that is one of `inputs`: the same regular file, by
/// device and inode (`sudoflow solve in.txt >> in.txt`, or `- < in.txt >>
/// in.txt`), whose rows the run would read back as records, growing the
/// file until the disk is full (found by probing: `-o` was refused so, plain
/// stdout was not). A stdout that is no regular file (a terminal, a pipe,
/// /dev/null) is never refused.
///
/// Errors: stdout is one of `inputs`; the message names it.
pub fn refuse_input_as_stdout(inputs: &[std::path::PathBuf]) -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::MetadataExt;
        let Some(out) = fd_metadata(std::io::stdout().as_fd()).filter(|m| m.is_file()) else {
            return Ok(());
        };
        for input in inputs {
            let meta = match input.as_os_str() == "-" {
                true => fd_metadata(std::io::stdin().as_fd()),
                false => std::fs::metadata(input).ok(),
            };
            if meta.is_some_and(|m| m.dev() == out.dev() && m.ino() == out.ino()) {
                let name = match input.as_os_str() == "-" {
                    true => "the file stdin reads (the input)".to_string(),
                    false => format!("the input {} (the same file)", input.display()),
                };
                anyhow::bail!(
                    "refusing to write to stdout: it is {name}, whose rows would be read back as \
                     records; nothing was written (give -o FILE)"
                );
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = inputs;
    }
    Ok(())
}

/// Refuses an output `path` that is one of `inputs` (the same file, by
/// device and inode, so also through a hard or symbolic link; `-` is
/// stdin, whose file, when stdin is redirected from one, counts too),
/// before anything is opened for writing.
///
/// Errors: `path` is one of `inputs`; the message names both.
pub fn refuse_input_as_output(
    path: &std::path::Path,
    inputs: &[std::path::PathBuf],
) -> anyhow::Result<()> {
    if let Some(input) = inputs.iter().find(|i| same_file(path, i)) {
        anyhow::bail!(
            "refusing to write output {}: it is the input {} (the same file); \
             nothing was written",
            path.display(),
            input.display()
        );
    }
    // A pipe is refused even when stdin is not an input: nothing reads it,
    // and the run's writes fill it and wait for ever, through SIGTERM
    // (found by probing).
    let stdin_input = inputs.iter().any(|i| i.as_os_str() == "-");
    match stdin_is(path) {
        Some(_) if stdin_input => anyhow::bail!(
            "refusing to write output {}: it is the file stdin reads (the input); \
             nothing was written",
            path.display()
        ),
        Some(true) => anyhow::bail!(
            "refusing to write output {}: it is the pipe stdin reads, which nothing would \
             read (the writes would wait for ever); nothing was written",
            path.display()
        ),
        _ => {}
    }
    Ok(())
}

impl CsvSink {
    /// Opens `path` (created or truncated), or stdout for `None` or `-`.
    /// `inputs` are the run's input files (`-` for stdin): a `path` that is
    /// one of them (the same file, by device and inode, so also through a
    /// hard or symbolic link) is refused before anything is opened for
    /// writing, so that the input stays as it was.
    ///
    /// Errors: `path` is one of `inputs` (the message names both), or the
    /// file cannot be created (the message names it).
    pub fn create(
        path: Option<&std::path::Path>,
        inputs: &[std::path::PathBuf],
    ) -> anyhow::Result<CsvSink> {
        CsvSink::create_as(path, inputs, Format::Csv)
    }

    /// [`CsvSink::create`] writing `format` (rows in another format than
    /// CSV go through a [`Sink`]).
    ///
    /// Errors: those of [`CsvSink::create`], and [`open_sink`]'s.
    pub fn create_as(
        path: Option<&std::path::Path>,
        inputs: &[std::path::PathBuf],
        format: Format,
    ) -> anyhow::Result<CsvSink> {
        CsvSink::create_with_text(path, inputs, format, &[])
    }

    /// [`CsvSink::create_as`], the columns `text` typed as text in the
    /// typed formats whatever their names ([`open_sink_with_text`]).
    ///
    /// Errors: as [`CsvSink::create_as`].
    pub fn create_with_text(
        path: Option<&std::path::Path>,
        inputs: &[std::path::PathBuf],
        format: Format,
        text: &[String],
    ) -> anyhow::Result<CsvSink> {
        use anyhow::Context;
        let (file, name) = match path {
            Some(path) if path.as_os_str() != "-" => (
                Some({
                    refuse_input_as_output(path, inputs)?;
                    open_direct(path)
                        .with_context(|| format!("cannot create output {}", path.display()))?
                }),
                path.display().to_string(),
            ),
            _ => {
                check_stdout()?;
                refuse_input_as_stdout(inputs)?;
                (None, "stdout".to_string())
            }
        };
        if format != Format::Csv {
            // An output written directly (a FIFO, `/dev/stdout`) is watched
            // as stdout is: a stop signal ends a write that its reader no
            // longer takes (found by probing: `-o FIFO` waited for a second
            // signal).
            let out: Box<dyn std::io::Write + Send> = match file {
                Some(f) => Box::new(crate::interrupt::Watched(f)),
                None => Box::new(crate::interrupt::Watched(std::io::stdout())),
            };
            return CsvSink::to_writer_with_text(out, name, format, text);
        }
        let out: Box<dyn std::io::Write> = match file {
            Some(f) => Box::new(crate::interrupt::Watched(f)),
            None => Box::new(crate::interrupt::Watched(std::io::stdout().lock())),
        };
        Ok(CsvSink::to_writer(out, name))
    }

    /// A sink writing `format` to `out`, which write errors call `name`.
    ///
    /// Errors: [`open_sink`]'s (Parquet without the `parquet` feature).
    pub fn to_writer_as(
        out: Box<dyn std::io::Write + Send>,
        name: String,
        format: Format,
    ) -> anyhow::Result<CsvSink> {
        CsvSink::to_writer_with_text(out, name, format, &[])
    }

    /// [`CsvSink::to_writer_as`], the columns `text` typed as text in the
    /// typed formats whatever their names ([`open_sink_with_text`]).
    ///
    /// Errors: as [`CsvSink::to_writer_as`].
    pub fn to_writer_with_text(
        out: Box<dyn std::io::Write + Send>,
        name: String,
        format: Format,
        text: &[String],
    ) -> anyhow::Result<CsvSink> {
        if format == Format::Csv {
            return Ok(CsvSink::to_writer(out, name));
        }
        let other = open_sink_with_text(format, out, name.clone(), text)?;
        let mut sink = CsvSink::to_writer(Box::new(std::io::sink()), name);
        sink.other = Some(other);
        Ok(sink)
    }

    /// A sink writing to `out`, which write errors call `name`.
    pub fn to_writer(out: Box<dyn std::io::Write>, name: String) -> CsvSink {
        let out = Shared(std::rc::Rc::new(std::cell::RefCell::new(out)));
        let wtr = csv::WriterBuilder::new()
            .buffer_capacity(64 * 1024)
            .quote_style(csv::QuoteStyle::Never)
            .from_writer(out.clone());
        CsvSink {
            wtr,
            out,
            name,
            quoter: csv_core::Writer::new(),
            record: csv::ByteRecord::new(),
            quoted: csv::ByteRecord::new(),
            blank: b'.',
            other: None,
        }
    }

    /// Sets the character `solve` rows' `puzzle` column writes for a blank
    /// (`--blank`: `.`, the default, or another of the blanks the reader
    /// takes, [`crate::opts::parse_blank`]).
    pub fn set_blank(&mut self, blank: u8) {
        self.blank = blank;
    }

    /// Writes one record (a header, or a row's fields).
    ///
    /// Errors: the destination's, see [`CsvSink`].
    pub fn write_record<I, T>(&mut self, fields: I) -> anyhow::Result<()>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        self.record.clear();
        for field in fields {
            self.record.push_field(field.as_ref());
        }
        if let Some(other) = &mut self.other {
            return other.write(&self.record);
        }
        self.write_quoted()
    }

    /// Writes a `solve` row through [`SolveRow::fill_record`] (no allocation).
    ///
    /// Errors: the destination's, see [`CsvSink`].
    pub fn write_solve_row(&mut self, row: &SolveRow) -> anyhow::Result<()> {
        row.fill_record_with_blank(&mut self.record, self.blank);
        if let Some(other) = &mut self.other {
            return other.write(&self.record);
        }
        if row.puzzle.is_none() || !row.error.is_empty() {
            // Raw text and error messages may hold commas and quotes.
            return self.write_quoted();
        }
        debug_assert!(
            self.record.iter().all(|f| !self.quoter.should_quote(f)),
            "a valid row needs no quotes: {:?}",
            self.record
        );
        self.wtr
            .write_byte_record(&self.record)
            .map_err(|e| self.error(e))
    }

    /// Writes a `solve` row's fields followed by `extra` fields (e.g. `generate`'s seed).
    ///
    /// Errors: the destination's, see [`CsvSink`].
    pub fn write_solve_row_with(&mut self, row: &SolveRow, extra: &[&str]) -> anyhow::Result<()> {
        row.fill_record_with_blank(&mut self.record, self.blank);
        for field in extra {
            self.record.push_field(field.as_bytes());
        }
        if let Some(other) = &mut self.other {
            return other.write(&self.record);
        }
        self.write_quoted()
    }

    /// Writes a `solve` row between `before` fields (`--keep`'s columns)
    /// and `after` fields (`--se`'s, `generate`'s seed, `--source`'s).
    ///
    /// Errors: the destination's, see [`CsvSink`].
    pub fn write_solve_row_between<'a>(
        &mut self,
        before: impl IntoIterator<Item = &'a [u8]>,
        row: &SolveRow,
        after: impl IntoIterator<Item = &'a [u8]>,
    ) -> anyhow::Result<()> {
        self.record.clear();
        for field in before {
            self.record.push_field(field);
        }
        row.push_fields(&mut self.record, self.blank);
        for field in after {
            self.record.push_field(field);
        }
        if let Some(other) = &mut self.other {
            return other.write(&self.record);
        }
        self.write_quoted()
    }

    /// Writes `self.record` with each field quoted where csv's
    /// `QuoteStyle::Necessary` would quote it.
    fn write_quoted(&mut self) -> anyhow::Result<()> {
        self.quoted.clear();
        let mut buf = Vec::new();
        for field in self.record.iter() {
            if !self.quoter.should_quote(field) {
                self.quoted.push_field(field);
                continue;
            }
            // Worst case: every byte doubled, plus the two quotes.
            buf.clear();
            buf.resize(2 * field.len() + 2, 0);
            buf[0] = b'"';
            let (_, _, n) = csv_core::quote(field, &mut buf[1..], b'"', b'\\', true);
            buf[n + 1] = b'"';
            self.quoted.push_field(&buf[..n + 2]);
        }
        if self.quoted.len() == 1 && self.quoted[0].is_empty() {
            // A lone empty field must be written `""` to be a record at all.
            self.quoted.clear();
            self.quoted.push_field(b"\"\"");
        }
        self.wtr
            .write_byte_record(&self.quoted)
            .map_err(|e| self.error(e))
    }

    /// Flushes everything written so far.
    ///
    /// Errors: the destination's, see [`CsvSink`].
    pub fn flush(&mut self) -> anyhow::Result<()> {
        if let Some(other) = &mut self.other {
            return other.flush();
        }
        self.wtr
            .flush()
            .map_err(|e| anyhow::Error::from(e).context(format!("cannot write {}", self.name)))
    }

    /// Ends the output and flushes it: a Parquet file gets its footer here
    /// (readable from then on); CSV and JSON Lines are only flushed. Later
    /// calls only flush.
    ///
    /// Errors: the destination's, see [`CsvSink`].
    pub fn finish(&mut self) -> anyhow::Result<()> {
        match &mut self.other {
            Some(other) => other.finish(),
            None => self.flush(),
        }
    }

    /// Writes `bytes`, whole CSV rows a [`CsvBuffer`] formatted (on another
    /// thread, e.g. by [`crate::pipeline::run_formatted`]'s workers), after
    /// everything written so far. For CSV only: a sink writing another
    /// format refuses them.
    ///
    /// Errors: the destination's, see [`CsvSink`]; another format.
    pub fn write_formatted(&mut self, bytes: &[u8]) -> anyhow::Result<()> {
        use std::io::Write;
        anyhow::ensure!(
            self.other.is_none(),
            "{}: rows formatted as CSV cannot go to another format",
            self.name
        );
        // What went through the csv writer (the header) goes out first.
        self.wtr.flush().map_err(|e| self.io_error(e))?;
        self.out.write_all(bytes).map_err(|e| self.io_error(e))
    }

    /// csv wraps I/O errors; unwrap them so that a closed stdout stays a
    /// `BrokenPipe` the binary can recognise.
    fn error(&self, e: csv::Error) -> anyhow::Error {
        let io = match e.into_kind() {
            csv::ErrorKind::Io(io) => io,
            other => std::io::Error::other(format!("{other:?}")),
        };
        self.io_error(io)
    }

    /// An I/O error writing the destination, naming it.
    fn io_error(&self, e: std::io::Error) -> anyhow::Error {
        anyhow::Error::from(e).context(format!("cannot write {}", self.name))
    }
}

/// CSV rows formatted into memory, byte for byte as a [`CsvSink`] writes
/// them (its [`CsvSink::write_solve_row`] and the others): lets each thread
/// of a run format the rows it made, which the thread that owns the output
/// then writes with [`CsvSink::write_formatted`]. Not `Send`: each thread
/// makes its own.
pub struct CsvBuffer {
    sink: CsvSink,
    bytes: Shared<Vec<u8>>,
}

/// A writer that several owners write to in turn (one thread): a
/// [`CsvSink`]'s csv writer and [`CsvSink::write_formatted`], or a
/// [`CsvBuffer`]'s sink and [`CsvBuffer::take`].
struct Shared<W>(std::rc::Rc<std::cell::RefCell<W>>);

impl<W> Clone for Shared<W> {
    fn clone(&self) -> Self {
        Shared(std::rc::Rc::clone(&self.0))
    }
}

impl<W: std::io::Write> std::io::Write for Shared<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().write(bytes)
    }

    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.0.borrow_mut().write_all(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

impl CsvBuffer {
    /// An empty buffer whose `solve` rows write `blank` for a blank cell
    /// ([`CsvSink::set_blank`]).
    pub fn new(blank: u8) -> CsvBuffer {
        let bytes = Shared(std::rc::Rc::default());
        let mut sink = CsvSink::to_writer(Box::new(bytes.clone()), "memory".into());
        sink.set_blank(blank);
        CsvBuffer { sink, bytes }
    }

    /// The sink to write rows with.
    pub fn sink(&mut self) -> &mut CsvSink {
        &mut self.sink
    }

    /// The bytes of the rows written since the last call.
    ///
    /// Errors: none in practice (memory is written); those of
    /// [`CsvSink::flush`].
    pub fn take(&mut self) -> anyhow::Result<Vec<u8>> {
        self.sink.flush()?;
        let mut bytes = self.bytes.0.borrow_mut();
        let capacity = bytes.len();
        Ok(std::mem::replace(&mut *bytes, Vec::with_capacity(capacity)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csv_of(row: &SolveRow) -> String {
        let mut wtr = csv::Writer::from_writer(Vec::new());
        let mut record = csv::ByteRecord::new();
        row.fill_record(&mut record);
        wtr.write_byte_record(&record).unwrap();
        String::from_utf8(wtr.into_inner().unwrap()).unwrap()
    }

    fn csv_via_fields(row: &SolveRow) -> String {
        let mut wtr = csv::Writer::from_writer(Vec::new());
        wtr.write_record(row.fields()).unwrap();
        String::from_utf8(wtr.into_inner().unwrap()).unwrap()
    }

    #[test]
    fn wnf_decimals_match_float_formatting_for_every_fraction() {
        // Every WF a puzzle can have lies in [|E|, 512·|E|]; check them all
        // (and a few outside), for every number of empty cells.
        let (mut ties, mut checked) = (0, 0);
        for empty in 0..=81u32 {
            for wf in 0..=512 * u64::from(empty.max(1)) {
                let value = if empty == 0 {
                    0.0
                } else {
                    wf as f64 / (512.0 * f64::from(empty))
                };
                let w = Wnf {
                    wf,
                    empty,
                    value,
                    level: crate::rating::wnf_level(value),
                };
                checked += 1;
                let mut buf = [0u8; WNF_TEXT_LEN];
                match wnf_decimals(&w, &mut buf) {
                    Some(text) => assert_eq!(text, wnf_text(&w).as_bytes(), "{wf}/{empty}"),
                    None => ties += 1,
                }
            }
        }
        // Ties whose f64 is not the exact fraction (|E| = 20, 40, 60, 80)
        // exist and fall back to float formatting; they are about 1%.
        assert!(ties > 0 && ties < checked / 50, "{ties} ties of {checked}");
    }

    #[test]
    fn sink_quotes_exactly_as_a_default_csv_writer() {
        let dir = tempfile::tempdir().unwrap();
        let puzzle = Grid::parse(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        )
        .unwrap();
        let outcome = crate::solver::Solver::new(Default::default()).solve(&puzzle);
        let rows = [
            SolveRow::solved(1, &puzzle, &outcome, 2),
            SolveRow::invalid(
                2,
                "1,2\"3;\u{e9}",
                "x:2: duplicate 5 in row 3: r3c2, r3c8".into(),
            ),
            SolveRow::invalid(
                3,
                "",
                "x:3: wrong length: expected 81 cells, found 0".into(),
            ),
        ];
        let sink_at = |name: &str| CsvSink::create(Some(&dir.path().join(name)), &[]).unwrap();
        let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
        let text = |w: csv::Writer<Vec<u8>>| String::from_utf8(w.into_inner().unwrap()).unwrap();
        // solve's rows, then generate's (one more field), each with its header.
        let (mut sink, mut want) = (sink_at("solve.csv"), csv::Writer::from_writer(Vec::new()));
        sink.write_record(SOLVE_HEADER).unwrap();
        want.write_record(SOLVE_HEADER).unwrap();
        for row in &rows {
            sink.write_solve_row(row).unwrap();
            want.write_record(row.fields()).unwrap();
        }
        sink.flush().unwrap();
        let want = text(want);
        assert_eq!(read("solve.csv"), want);
        assert!(want.contains("\"1,2\"\"3;\u{e9}\""), "{want}");
        // The same rows formatted in memory, in two chunks, then written
        // after the header: the same file.
        let mut sink = sink_at("formatted.csv");
        sink.write_record(SOLVE_HEADER).unwrap();
        let mut buffer = CsvBuffer::new(b'.');
        buffer.sink().write_solve_row(&rows[0]).unwrap();
        let first = buffer.take().unwrap();
        for row in &rows[1..] {
            buffer.sink().write_solve_row(row).unwrap();
        }
        sink.write_formatted(&first).unwrap();
        sink.write_formatted(&buffer.take().unwrap()).unwrap();
        assert!(buffer.take().unwrap().is_empty(), "taken bytes are gone");
        sink.flush().unwrap();
        assert_eq!(read("formatted.csv"), want);
        let jsonl = dir.path().join("a.jsonl");
        let mut jsonl = CsvSink::create_as(Some(&jsonl), &[], Format::Jsonl).unwrap();
        assert!(
            jsonl.write_formatted(b"1,2\n").is_err(),
            "CSV bytes in JSON Lines"
        );
        let (mut sink, mut want) = (sink_at("gen.csv"), csv::Writer::from_writer(Vec::new()));
        for row in &rows {
            sink.write_solve_row_with(row, &["a,b"]).unwrap();
            let mut fields: Vec<String> = row.fields().into();
            fields.push("a,b".to_string());
            want.write_record(&fields).unwrap();
        }
        sink.flush().unwrap();
        assert_eq!(read("gen.csv"), text(want));
        // Other records: a lone empty field, newlines, quotes, blanks.
        let others: [&[&str]; 2] = [&["a\nb", "\"", " ", ""], &["", "", "x", "y"]];
        for (k, fields) in others.into_iter().chain([&[""][..]]).enumerate() {
            let name = format!("other{k}.csv");
            let (mut sink, mut want) = (sink_at(&name), csv::Writer::from_writer(Vec::new()));
            sink.write_record(fields).unwrap();
            want.write_record(fields).unwrap();
            sink.flush().unwrap();
            assert_eq!(read(&name), text(want), "{fields:?}");
        }
    }

    #[test]
    fn write_csv_matches_fields() {
        let puzzle = Grid::parse(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        )
        .unwrap();
        let outcome = crate::solver::Solver::new(Default::default()).solve(&puzzle);
        let row = SolveRow::solved(18_446_744_073_709_551_615, &puzzle, &outcome, 2);
        assert_eq!(csv_of(&row), csv_via_fields(&row));
        assert!(csv_of(&row).contains(",0.0451822917,4,"));
        let row = SolveRow::invalid(0, "1,2\"", "x:1: duplicate 5 in row 3: r3c2, r3c8".into());
        assert_eq!(csv_of(&row), csv_via_fields(&row));
        assert_eq!(
            csv_of(&row),
            "0,\"1,2\"\"\",invalid,,,,,,,,\"x:1: duplicate 5 in row 3: r3c2, r3c8\"\n"
        );
    }
}
