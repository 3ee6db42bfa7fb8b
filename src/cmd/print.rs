//! `sudoflow print`: a book of puzzles as a PDF (or SVG pages): the
//! puzzles N to a page with their index and rating, optional chapters by ER,
//! the answers at the end, and optional step-by-step solutions.
//!
//! The corpus is any file `generate`, `rate` or `solve` writes (CSV or JSON
//! Lines, columns found by name: the puzzle column, and `index`, `er`,
//! `label` when present), or a plain list of puzzles. A puzzle without an
//! `er` is rated here; its solution is always found again (the answers
//! must be right whatever the corpus says). The layout is in
//! [`crate::render::book`].

use crate::exit;
use crate::grid::Grid;
use crate::opts;
use crate::output::refuse_input_as_output;
use crate::pipeline::reader::{self, Column};
use crate::rating::labels;
use crate::rating::se::{self, Rater, Rating};
use crate::render::book::{self, Book, Chapter, Entry, Paper, Solution};
use crate::rows::rate::{RateLimits, RateOutcome, RateState, DEFAULT_BUDGET};
use crate::solver::{SolveOptions, Solver};
use anyhow::{bail, Context};
use rayon::prelude::*;
use std::io::{Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Paper sizes `--page` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PaperArg {
    /// ISO A4 (210 x 297 mm).
    A4,
    /// US Letter (8.5 x 11 in).
    Letter,
}

/// One `--chapters` item: an ER range in tenths and an optional title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChapterSpec {
    /// Lowest ER, in tenths.
    pub min: i64,
    /// Highest ER, in tenths, inclusive.
    pub max: i64,
    /// The title given after `=`, if any.
    pub title: Option<String>,
}

/// Parses one `--chapters` item: an ER range as `generate --se` takes it
/// (`MIN..MAX`, `MIN..=MAX`, `MIN..`, `..MAX` or one rating `X`, one
/// decimal: [`crate::generator::spans::parse_se`]) and an optional
/// `=TITLE` (`split_title`). An open MAX holds every rating above MIN.
///
/// Before, the item was split at its first `=`: `1.0..=2.0` was a chapter
/// `1.0..` titled "2.0", and one rating (`6.5`), which every other range
/// option takes, was refused (found by probing).
///
/// Errors: the range is not one `--se` takes (not a rating, two
/// decimals, MIN above MAX).
pub fn parse_chapter(text: &str) -> Result<ChapterSpec, String> {
    let (range, title) = split_title(text);
    let range = range.trim();
    let span = crate::generator::spans::parse_se(range).map_err(|e| {
        format!(
            "{text:?}: {e} (a chapter is an ER range MIN..MAX, or one rating, with an \
             optional title: 1.0..2.5, 6.5, '2.6..4.0=Tougher')"
        )
    })?;
    // `--se`'s open MAX is the top of its scale (20.0); a chapter's is open.
    let open = range
        .split_once("..")
        .is_some_and(|(_, hi)| hi.strip_prefix('=').unwrap_or(hi).trim().is_empty());
    Ok(ChapterSpec {
        min: *span.start(),
        max: if open { i64::MAX } else { *span.end() },
        title: title
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty()),
    })
}

/// A `--chapters` item's range and title: the title follows the first `=`
/// that is not the range's own. An `=` right after `..` is the range's
/// (`..=MAX`) when a rating follows it (up to the next `=`: `1.0..=2.0`,
/// `1.0..=2.0=Gentle`) or nothing does (`6.1..=`, `6.1..==2024`: an open
/// range titled "2024"); before anything else it starts the title
/// (`6.1..=Diabolical`, the open range's title as the help writes it).
fn split_title(text: &str) -> (&str, Option<&str>) {
    for (at, _) in text.match_indices('=') {
        if text[..at].ends_with("..") {
            let max = text[at + 1..].split('=').next().unwrap_or("").trim();
            let rating = max.starts_with(|c: char| c.is_ascii_digit() || c == '.');
            if max.is_empty() || rating {
                continue;
            }
        }
        return (&text[..at], Some(&text[at + 1..]));
    }
    (text, None)
}

/// Options of `sudoflow print`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
The corpus: CSV or JSON Lines as generate, rate and solve write them (columns by name: the \
puzzle column puzzle/quizzes/quiz or --column, and index, er, label when there), or plain \
puzzle lists (any input solve reads: CSV and lists are read as every command reads them, \
gzip and zip archives too, piped or named). A record of a --source output is named by its \
source and line columns. A record without an er is rated here (--time-budget); \
without an index it is numbered by its place in the input. A record that cannot be printed \
(not a puzzle, no single solution, rating out of time) is named on stderr with its \
source:line and the reason, and left out; the summary counts them.

The book: the puzzles N to a page (--per-page, default 6), each captioned with its index, ER \
and label (the corpus's label column, else the level of ER: Easy 0.0-1.2, Medium 1.3-1.5, \
Hard 1.6-2.5, Fiendish 2.6-6.0, Diabolical 6.1 and up, Sudoku Explainer's generator levels); \
with --chapters, one chapter per ER range, in the order given, each from a new page (puzzles \
in no range go to a last chapter 'Other ratings'); then the answers, small; then with \
--explain, the chosen puzzles' solutions step by step (the pictures of explain --format svg). \
The PDF embeds its font (Bitstream Vera Sans) and its text reads in order: `pdftotext -raw` \
gives each grid's caption, then its rows, blanks as '.'.

Exit codes: 0 the book is written; 1 no record could be printed; 2 usage or I/O error (an \
input missing, --explain naming no record).

Examples:
  sudoflow generate -n 300 --se 1.0.. --labels --symmetry rot180 -o corpus.csv
  sudoflow print corpus.csv -o book.pdf
  sudoflow print corpus.csv -o book.pdf --page letter --per-page 4 \\
      --chapters '1.0..2.5=Warm-up,2.6..6.0=Fiendish,6.1..=Diabolical' --explain 12 40
  sudoflow print corpus.csv -o pages.svg        (pages-001.svg, pages-002.svg, ...)")]
pub struct PrintArgs {
    /// Corpus files: CSV or JSON Lines with a puzzle column, or puzzle lists ('-': stdin).
    #[arg(value_name = "CORPUS", required = true)]
    pub inputs: Vec<PathBuf>,

    /// Read the puzzle from CSV column NAME (in the header) or N (1-based).
    #[arg(long, value_name = "NAME|N", value_parser = opts::parse_column)]
    pub column: Option<Column>,

    /// The book: FILE.pdf, or FILE.svg for one SVG file per page (FILE-001.svg, ...).
    #[arg(
        short,
        long,
        value_name = "FILE",
        long_help = "Where the book goes: a PDF (FILE.pdf, or any name with --format pdf; '-' \
            is stdout), written whole or not at all (beside FILE under a name of its own, \
            .FILE.XXXXXX.partial, renamed when complete; a link stays a link, the file it \
            leads to replaced; a FIFO or a device is written, not replaced); or \
            SVG pages, one file per page: FILE.svg gives FILE-001.svg, FILE-002.svg, ...\n\
            Example: -o book.pdf"
    )]
    pub output: PathBuf,

    /// pdf or svg [default: -o's extension, else pdf].
    #[arg(long, value_enum, ignore_case = true)]
    pub format: Option<BookFormat>,

    /// Paper size.
    #[arg(long, value_enum, ignore_case = true, default_value_t = PaperArg::A4)]
    pub page: PaperArg,

    /// Puzzles per page (1-36).
    #[arg(long, value_name = "N", default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=36))]
    pub per_page: u32,

    /// Answers per page (1-80).
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=80))]
    pub answers_per_page: u32,

    /// Chapters by ER range, in order: MIN..MAX[=TITLE],... (e.g. 1.0..2.5=Easy,2.6..4.0,6.5).
    #[arg(
        long,
        value_name = "RANGES",
        value_delimiter = ',',
        value_parser = parse_chapter,
        long_help = "Chapters by ER range, in the order given, each from a new page: \
            a range as generate --se takes it, one decimal: MIN..MAX (or MIN..=MAX), either \
            end may be left out (6.1..), or one rating (6.5); then =TITLE for a title \
            (default 'ER MIN to MAX'). An = right after .. is the range's when a rating or \
            nothing follows it (1.0..=2.0=Gentle), else it starts the title \
            (6.1..=Diabolical; 6.1..==2024 for a title that is a number). Ranges are \
            separated by commas or given in several --chapters. A puzzle goes to the first \
            chapter whose range holds its ER; puzzles in none go to a last chapter, 'Other \
            ratings'.\n\
            Example: --chapters '1.0..2.5=Gentle,2.6..4.0=Moderate,4.1..=Tough'"
    )]
    pub chapters: Vec<ChapterSpec>,

    /// The book's title (page headings without chapters, PDF metadata).
    #[arg(long, value_name = "TEXT", default_value = "Sudoku")]
    pub title: String,

    /// Print these puzzles' solutions step by step (their index column
    /// values; where two corpora's indices overlap, the captions `a:1`).
    #[arg(long, value_name = "INDEX", num_args = 1.., value_delimiter = ',')]
    pub explain: Vec<String>,

    /// Leave out the answer pages.
    #[arg(long)]
    pub no_answers: bool,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub threads: opts::ThreadsArg,

    /// The rating's budget for records without er [default: 10s of work].
    #[command(flatten)]
    pub budget: opts::BudgetArgs,

    /// No summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

/// The book's file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BookFormat {
    /// One PDF file.
    Pdf,
    /// One SVG file per page.
    Svg,
}

/// One record of the corpus, as read: where it is and its fields by name.
#[derive(Debug, Clone, Default)]
struct Raw {
    source: String,
    line: u64,
    index: Option<String>,
    puzzle: String,
    er: Option<String>,
    label: Option<String>,
}

/// `--time-budget`'s long help in `print`, which writes no status column:
/// a puzzle out of budget is left out of the book, named on stderr.
pub const BUDGET_HELP: &str = "Give up rating a record that has no er column after TIME of \
    work: the puzzle is left out of the book, named on stderr, and the book goes on. TIME is \
    seconds or a number with a unit: 90, 90s, 500ms, 2m, 1h, counted in work as rate counts \
    it (the same puzzles are left out on any machine). Default: 10s, rate's.\n\
    Example: --time-budget 1m";

/// `--wall-limit`'s long help in `print`.
pub const WALL_LIMIT_HELP: &str = "Also give up rating a record after TIME of wall time (the \
    puzzle left out, named on stderr). Unlike --time-budget, which is counted in work, which \
    puzzles are left out may then depend on the machine's load and speed. Default: none.\n\
    Example: --wall-limit 1m";

/// The puzzle column's names a JSON object may use (as the reader takes
/// them in a CSV header).
const PUZZLE_NAMES: [&str; 3] = ["puzzle", "quizzes", "quiz"];

/// The columns a CSV corpus gives each record when its header has them:
/// its index, its rating and its label (kept by the reader, after the
/// puzzle column it finds as every command does).
const KEPT: [&str; 3] = ["index", "er", "label"];

/// The bytes of stdin or of the input `path` that is not a regular file (a
/// FIFO, a device), as they come (gzip and zip are the reader's).
fn read_all(path: &Path) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if path.as_os_str() == "-" {
        reader::check_stdin()?;
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .context("cannot read stdin")?;
    } else {
        reader::open_file(path)?
            .read_to_end(&mut bytes)
            .with_context(|| format!("cannot read input {}", path.display()))?;
    }
    Ok(bytes)
}

/// `bytes` gunzipped if they are gzip (`source` names them in the error).
fn gunzipped(bytes: Vec<u8>, source: &str) -> anyhow::Result<Vec<u8>> {
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(bytes);
    }
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(&bytes[..])
        .read_to_end(&mut out)
        .with_context(|| format!("input {source} is not readable gzip"))?;
    Ok(out)
}

/// Whether the first line of `input` (gunzipped) that is neither blank nor
/// a `#` comment starts a JSON object: the input is JSON Lines. A zip
/// archive, or an input that does not read (the reader then says why), is
/// not; only the first MiB of lines is looked at.
fn is_json_lines(input: impl Read) -> bool {
    let mut input = std::io::BufReader::new(input);
    let Ok(head) = std::io::BufRead::fill_buf(&mut input) else {
        return false;
    };
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        return false;
    }
    let mut lines: Box<dyn std::io::BufRead> = if head.starts_with(&[0x1f, 0x8b]) {
        Box::new(std::io::BufReader::new(flate2::read::MultiGzDecoder::new(
            input,
        )))
    } else {
        Box::new(input)
    };
    let mut line = Vec::new();
    let mut read = 0;
    while read < 1 << 20 {
        line.clear();
        match lines.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return false,
            Ok(n) => read += n,
        }
        let text = line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&line);
        match text.trim_ascii() {
            [] | [b'#', ..] => continue,
            first => return first.starts_with(b"{"),
        }
    }
    false
}

/// The name an input's records give as their source.
fn source_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        reader::STDIN_NAME.to_string()
    } else {
        path.display().to_string()
    }
}

/// The records of one input: JSON Lines (read here), or anything every
/// command reads (CSV with its puzzle column found by name or `--column`,
/// puzzle lists, pasted grids, gzip, zip archives), read by the library's
/// reader, which also names a record of a `--source` CSV by its `source`
/// and `line` columns. `next_index` numbers records that have no index
/// column.
///
/// Before, print read CSV with a copy of its own: `--column N` was
/// ignored for plain and gzip CSVs, `--column NAME` missing from the
/// header was not refused, a zip archive piped in read as nothing (its
/// bytes were taken before the reader opened stdin) and a `--source`
/// CSV's records were named by their line in it (found by probing).
///
/// Errors: the input cannot be read, or the reader refuses it (`--column
/// NAME` that the header lacks, two puzzle columns, ...).
fn read_input(
    path: &Path,
    column: Option<&Column>,
    next_index: &mut u64,
) -> anyhow::Result<Vec<Raw>> {
    let source = source_name(path);
    let stdin = path.as_os_str() == "-";
    if !stdin {
        reader::check_file(path)?;
    }
    let regular = !stdin && std::fs::metadata(path).is_ok_and(|m| m.is_file());
    // Stdin, a FIFO: read once, looked at, then read from the bytes held.
    let held = if regular { None } else { Some(read_all(path)?) };
    let json = match &held {
        Some(bytes) => is_json_lines(&bytes[..]),
        None => is_json_lines(reader::open_file(path)?),
    };
    let mut number = || {
        *next_index += 1;
        next_index.to_string()
    };
    if json {
        let bytes = match held {
            Some(bytes) => bytes,
            None => read_all(path)?,
        };
        let bytes = gunzipped(bytes, &source)?;
        return Ok(json_records(&source, &bytes, column, &mut number));
    }
    let mut out = Vec::new();
    let mut push = |rec: crate::pipeline::Record| {
        let mut kept = rec
            .kept
            .into_iter()
            .map(|k| Some(k.trim().to_string()).filter(|k| !k.is_empty()));
        let mut field = || kept.next().flatten();
        let (index, er, label) = (field(), field(), field());
        let n = number();
        out.push(Raw {
            source: rec.source.to_string(),
            line: rec.line,
            index: index.or(Some(n)),
            puzzle: match &rec.grid {
                Ok(g) => g.to_line(),
                Err(e) => format!("({e})"),
            },
            er,
            label,
        });
        ControlFlow::Continue(())
    };
    let kept = KEPT.map(String::from);
    let each = |item| match item {
        reader::Item::Record(rec) => push(rec),
        reader::Item::Waiting => ControlFlow::Continue(()),
    };
    match held {
        None => reader::for_each_item_keeping(
            std::slice::from_ref(&path.to_path_buf()),
            column,
            &[],
            &kept,
            each,
        )?,
        Some(bytes) => reader::for_each_item_in(
            &source,
            Box::new(std::io::Cursor::new(bytes)),
            column,
            (&[], &kept),
            each,
        )?,
    }
    Ok(out)
}

/// The records of a JSON Lines input named `source` (its text `bytes`):
/// one per line that is neither blank nor a `#` comment (the lines the
/// format's detection skips; found by probing: a comment was a record,
/// "not JSON"), the puzzle in the field `--column NAME` names or a puzzle
/// field, `index`, `er` and `label` when there, named by the fields
/// `source` and `line` when it has both (`rate --source --format jsonl`),
/// as the reader names a `--source` CSV's records.
fn json_records(
    source: &str,
    bytes: &[u8],
    column: Option<&Column>,
    number: &mut impl FnMut() -> String,
) -> Vec<Raw> {
    let text = String::from_utf8_lossy(bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut raw = Raw {
            source: source.to_string(),
            line: i as u64 + 1,
            ..Raw::default()
        };
        let field = |v: &serde_json::Value, name: &str| -> Option<String> {
            let obj = v.as_object()?;
            let (_, x) = obj.iter().find(|(k, _)| k.eq_ignore_ascii_case(name))?;
            match x {
                serde_json::Value::String(s) => Some(s.clone()),
                serde_json::Value::Number(n) => Some(n.to_string()),
                _ => None,
            }
        };
        match serde_json::from_str::<serde_json::Value>(line) {
            Ok(v) => {
                let names: Vec<String> = match column {
                    Some(Column::Name(n)) => vec![n.clone()],
                    _ => PUZZLE_NAMES.iter().map(|s| s.to_string()).collect(),
                };
                // Said as what it is, not as a puzzle of 0 cells (found
                // by probing: `[1,2]`, `{"x":1}`).
                raw.puzzle = match (v.is_object(), names.iter().find_map(|n| field(&v, n))) {
                    (_, Some(puzzle)) => puzzle,
                    (false, None) => "(not a JSON object)".to_string(),
                    (true, None) => format!("(no {} field)", names.join(" or ")),
                };
                raw.index = field(&v, "index");
                raw.er = field(&v, "er");
                raw.label = field(&v, "label");
                let origin = (field(&v, "source"), field(&v, "line"));
                if let (Some(from), Some(at)) = origin {
                    let at = at.trim().parse::<u64>().ok().filter(|&n| n > 0);
                    if let (false, Some(at)) = (from.trim().is_empty(), at) {
                        raw.source = from.trim().to_string();
                        raw.line = at;
                    }
                }
            }
            Err(e) => raw.puzzle = format!("(not JSON: {e})"),
        }
        let n = number();
        raw.index.get_or_insert(n);
        out.push(raw);
    }
    out
}

/// What became of one record.
enum Made {
    /// Printable.
    Entry(Entry),
    /// Left out, and why (with `source:line`).
    Skipped(String),
}

/// Checks, solves and (without an `er`) rates one record.
fn make_entry(raw: &Raw, limits: RateLimits) -> Made {
    let at = format!("{}:{}", raw.source, raw.line);
    let text = raw.puzzle.trim();
    if text.starts_with('(') {
        // The reader's message names the record already (it was said twice).
        // One pair of parentheses off (a message may end in its own: the
        // CR's "(e.g. tr '\r' '\n')" lost its closing one).
        let why = text.strip_prefix('(').unwrap_or(text);
        let why = why.strip_suffix(')').unwrap_or(why);
        let why = why.strip_prefix(&format!("{at}: ")).unwrap_or(why);
        return Made::Skipped(format!("{at}: {why}"));
    }
    let grid = match Grid::parse(
        text.split(|c: char| c.is_whitespace() || ",;:".contains(c))
            .next()
            .unwrap_or(""),
    ) {
        Ok(g) => g,
        Err(e) => return Made::Skipped(format!("{at}: {e}")),
    };
    if let Err(clash) = grid.check_givens() {
        return Made::Skipped(format!("{at}: {clash}"));
    }
    let outcome = Solver::new(SolveOptions::default()).solve(&grid);
    let solution = match (outcome.solutions, outcome.solution) {
        (1, Some(s)) => *s.cells(),
        (0, _) => return Made::Skipped(format!("{at}: the puzzle has no solution")),
        _ => return Made::Skipped(format!("{at}: the puzzle has more than one solution")),
    };
    let er = match raw.er.as_deref().map(str::parse::<f64>) {
        Some(Ok(x)) if x.is_finite() && x >= 0.0 => x,
        Some(_) => {
            return Made::Skipped(format!(
                "{at}: er {:?} is not a rating",
                raw.er.as_deref().unwrap_or("")
            ))
        }
        None => match RateState::new(limits).rate_grid(&grid) {
            Ok(RateOutcome::Rated(r)) => r.er,
            Ok(RateOutcome::Timeout { message, .. }) => {
                return Made::Skipped(format!("{at}: {message}"))
            }
            Ok(_) => return Made::Skipped(format!("{at}: the puzzle could not be rated")),
            Err(clash) => return Made::Skipped(format!("{at}: {clash}")),
        },
    };
    let label = match raw.label.as_deref() {
        Some(l) if !l.is_empty() => l.to_string(),
        _ => labels::label(er).to_string(),
    };
    Made::Entry(Entry {
        index: raw.index.clone().unwrap_or_default(),
        puzzle: grid,
        solution,
        er,
        label,
    })
}

/// Writes `bytes` to `path` whole or not at all (beside it under a name
/// of its own, then renamed: [`crate::outfile::Beside`]; a link's file
/// replaced, the link kept), to `path` itself where it is not a regular
/// file (a FIFO, `/dev/null`: [`crate::output::open_direct`]), or to
/// stdout for `None` or `-`. A `path` (or the file its link leads to) that
/// is one of `inputs` is refused before anything is written.
///
/// Before, `path.partial` was written (through a link planted there) and
/// renamed over `path` whatever it was (a FIFO, a device, a link).
///
/// Errors: `path` is an input, the file cannot be written or renamed, or
/// stdout is closed.
pub fn write_output(path: Option<&Path>, bytes: &[u8], inputs: &[PathBuf]) -> anyhow::Result<()> {
    match path {
        None => {
            crate::output::check_stdout()?;
            crate::output::refuse_input_as_stdout(inputs)?;
            crate::interrupt::Watched(std::io::stdout().lock())
                .write_all(bytes)
                .context("cannot write to stdout")
        }
        Some(p) if p.as_os_str() == "-" => write_output(None, bytes, inputs),
        Some(p) => {
            refuse_input_as_output(p, inputs)?;
            match crate::outfile::replaced_path(p) {
                // /dev/null, a FIFO, /dev/stdout: written, never replaced.
                None => crate::output::open_direct(p)
                    .and_then(|mut f| f.write_all(bytes).map_err(anyhow::Error::from))
                    .with_context(|| format!("cannot write {}", p.display())),
                Some(target) => {
                    refuse_input_as_output(&target, inputs)?;
                    crate::outfile::Beside::write(&target, bytes)?.replace()
                }
            }
        }
    }
}

/// How [`write_set`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetWritten {
    /// Every file is in place.
    Done {
        /// Files of an earlier, longer set removed ([`remove_stale`]).
        removed: usize,
    },
    /// A stop signal (its number) came before the files were in place:
    /// none was replaced.
    Stopped(i32),
}

/// Writes a set of `count` files, `name(1)` to `name(count)`, with the
/// bytes `bytes(n)` (a book's SVG pages, a path's step pictures), so that
/// neither a stop nor a failure leaves this run's files mixed with an
/// earlier run's under the same names: each file is first written whole
/// beside its name ([`crate::outfile::Beside`]: a name of its own, so
/// that neither a planted link nor another run writing the same names is
/// written through); only once all are written are they renamed over the
/// names, without looking at stop requests (a rename takes microseconds),
/// and then the files past `name(count)` left by an earlier, longer set
/// are removed ([`remove_stale`]). A stop signal ([`crate::interrupt`],
/// installed here) or an error while the files are written removes the
/// files written and leaves the earlier set as it was. Every name is
/// checked against the inputs, and must be a file the set can replace (a
/// directory or a FIFO there is refused), before the first is written; a
/// rename that still fails says how far the set was replaced.
///
/// Before, the files were renamed in place one by one, and a signal
/// mid-way left some pages of the new book and the rest of the old one
/// (exit 130, no message).
///
/// Errors: a name is an input, the signal handlers cannot be installed, or
/// a file cannot be written, renamed or removed (named; for the first two
/// kinds nothing was replaced).
pub fn write_set(
    count: usize,
    name: impl Fn(usize) -> PathBuf,
    bytes: impl Fn(usize) -> Vec<u8>,
    inputs: &[PathBuf],
) -> anyhow::Result<SetWritten> {
    let mut targets = Vec::with_capacity(count);
    for n in 1..=count {
        let path = name(n);
        refuse_input_as_output(&path, inputs)?;
        // Each name must be a file this set can replace (through a link
        // to one): a directory or a FIFO in the set's place is refused
        // before anything is written.
        let Some(target) = crate::outfile::replaced_path(&path) else {
            bail!(
                "{} is not a regular file: a set of files replaces each of its names",
                path.display()
            );
        };
        refuse_input_as_output(&target, inputs)?;
        targets.push(target);
    }
    crate::interrupt::install().context("cannot install the signal handlers")?;
    let delay = test_write_delay();
    // The files written so far, each beside its name; dropped, they go.
    let mut written = Vec::with_capacity(count);
    let wrote = (|| -> anyhow::Result<Option<i32>> {
        for (n, target) in (1..=count).zip(&targets) {
            if let Some(signal) = crate::interrupt::requested() {
                return Ok(Some(signal));
            }
            written.push(crate::outfile::Beside::write(target, &bytes(n))?);
            if let Some(delay) = delay {
                std::thread::sleep(delay);
            }
        }
        Ok(crate::interrupt::requested())
    })();
    if !matches!(wrote, Ok(None)) {
        drop(written);
        return match wrote {
            Ok(signal) => Ok(SetWritten::Stopped(signal.unwrap_or(2))),
            Err(e) => Err(e.context(format!(
                "nothing was replaced: {} and the files after it are as they were",
                name(1).display()
            ))),
        };
    }
    for (placed, file) in written.into_iter().enumerate() {
        if let Err(e) = file.replace() {
            // The files not yet in place go (dropped with the iterator).
            return Err(e.context(match placed {
                0 => "nothing was replaced: the files are as they were".to_string(),
                n => format!(
                    "the set is half replaced: {} to {} are this run's, the files from {} on \
                     are as they were",
                    name(1).display(),
                    name(n).display(),
                    name(n + 1).display()
                ),
            }));
        }
    }
    Ok(SetWritten::Done {
        removed: remove_stale(name, count + 1)?,
    })
}

/// For tests only: `SUDOFLOW_TEST_WRITE_DELAY_MS` makes [`write_set`] wait
/// this long after each file, so that a test's signal lands while the
/// files are being written.
fn test_write_delay() -> Option<std::time::Duration> {
    std::env::var("SUDOFLOW_TEST_WRITE_DELAY_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map(std::time::Duration::from_millis)
}

/// The stop message of a [`write_set`] stopped by `signal`, for files
/// `what` (`pages`, `pictures`) named as `names`; its exit code.
pub fn stopped_before_writing(signal: i32, what: &str, names: &str) -> ExitCode {
    eprintln!(
        "sudoflow: stopped by {} before the {what} were in place: none written ({names}, if any, \
         are as they were)",
        crate::interrupt::name(signal)
    );
    ExitCode::from(crate::interrupt::exit_status(signal))
}

/// Removes the files `name(n)`, `name(n + 1)`, ... that exist, up to the
/// first that does not: the pages or pictures past the last one written,
/// left by an earlier, longer run to the same name, which would otherwise
/// read as part of this one. Returns how many were removed.
///
/// Errors: one cannot be removed (named).
pub fn remove_stale(name: impl Fn(usize) -> PathBuf, n: usize) -> anyhow::Result<usize> {
    let mut removed = 0;
    loop {
        let path = name(n + removed);
        if !path.is_file() {
            return Ok(removed);
        }
        std::fs::remove_file(&path).with_context(|| {
            format!(
                "cannot remove {}, left by an earlier run to the same name",
                path.display()
            )
        })?;
        removed += 1;
    }
}

/// The note on stderr for `removed` stale files ([`remove_stale`]) of
/// `what` (`page`, `picture`): empty for none.
pub fn stale_note(removed: usize, what: &str) -> String {
    match removed {
        0 => String::new(),
        1 => format!("; removed 1 {what} left by an earlier run"),
        n => format!("; removed {n} {what}s left by an earlier run"),
    }
}

/// A chapter's default title: `ER 2.6 to 4.0`, `ER 6.1 and up`.
fn chapter_title(c: &ChapterSpec) -> String {
    let f = |t: i64| format!("{}.{}", t / 10, t % 10);
    match (c.min, c.max) {
        (0, i64::MAX) => "All ratings".to_string(),
        (lo, hi) if lo == hi => format!("ER {}", f(lo)),
        (lo, i64::MAX) => format!("ER {} and up", f(lo)),
        (0, hi) => format!("ER up to {}", f(hi)),
        (lo, hi) => format!("ER {} to {}", f(lo), f(hi)),
    }
}

/// Runs `sudoflow print`.
///
/// Where two records share an index (two corpora each numbered from 1),
/// captions name each record's input too (`a:1`, `b:1`: the file name
/// without its extension, or the input's place when two inputs share it),
/// unless that does not make them unique (one input repeats an index):
/// then the captions stay and the repeats are said. `inputs[k]` is the
/// place in `paths` of `raws[k]`'s input.
fn name_overlapping_indices(raws: &mut [Raw], inputs: &[usize], paths: &[PathBuf], quiet: bool) {
    let index = |r: &Raw| r.index.clone().unwrap_or_default();
    let repeats = |captions: &[String]| -> Vec<String> {
        let mut seen = std::collections::HashMap::new();
        for c in captions {
            *seen.entry(c.clone()).or_insert(0usize) += 1;
        }
        // Each repeated caption once, in the order first met.
        let mut said = std::collections::HashSet::new();
        captions
            .iter()
            .filter(|c| seen[*c] > 1 && said.insert(*c))
            .cloned()
            .collect()
    };
    let captions: Vec<String> = raws.iter().map(index).collect();
    if repeats(&captions).is_empty() {
        return;
    }
    let stems: Vec<String> = paths
        .iter()
        .map(|p| match p.file_stem() {
            _ if p.as_os_str() == "-" => "stdin".to_string(),
            Some(stem) => stem.to_string_lossy().trim_end_matches(".csv").to_string(),
            None => p.display().to_string(),
        })
        .collect();
    let tag = |k: usize| {
        if stems.iter().filter(|s| **s == stems[k]).count() == 1 {
            stems[k].clone()
        } else {
            (k + 1).to_string()
        }
    };
    let tagged: Vec<String> = raws
        .iter()
        .zip(inputs)
        .map(|(r, &k)| format!("{}:{}", tag(k), index(r)))
        .collect();
    if paths.len() > 1 && repeats(&tagged).is_empty() {
        if !quiet {
            eprintln!(
                "sudoflow: the inputs' indices overlap: each caption names its input too ({}, {}); \
                 --explain takes those",
                tagged[0],
                tagged.last().expect("repeats need two records")
            );
        }
        for (r, t) in raws.iter_mut().zip(tagged) {
            r.index = Some(t);
        }
        return;
    }
    for twice in repeats(&captions) {
        let places: Vec<String> = raws
            .iter()
            .filter(|r| index(r) == twice)
            .map(|r| format!("{}:{}", r.source, r.line))
            .collect();
        eprintln!(
            "sudoflow: index {twice} names {} records ({}): their captions are the same",
            places.len(),
            places.join(", ")
        );
    }
}

/// The entry `--explain WANT` names: the one captioned `want`, else the
/// one whose index as read is `want` (captions that name their input).
///
/// Errors: no entry, or several (named by source:line, with their captions).
fn explained_entry(
    entries: &[Entry],
    origins: &[(String, &str)],
    want: &str,
) -> anyhow::Result<usize> {
    let mut found: Vec<usize> = (0..entries.len())
        .filter(|&i| entries[i].index == want)
        .collect();
    if found.is_empty() {
        found = (0..entries.len())
            .filter(|&i| origins[i].1 == want)
            .collect();
    }
    match found[..] {
        [] => bail!("--explain {want}: no printed puzzle has index {want}"),
        [i] => Ok(i),
        _ => {
            let named: Vec<String> = found
                .iter()
                .map(|&i| format!("{} (caption #{})", origins[i].0, entries[i].index))
                .collect();
            bail!(
                "--explain {want}: {} printed puzzles have index {want}: {}; give a caption \
                 that names one",
                found.len(),
                named.join(", ")
            )
        }
    }
}

/// Errors: an input cannot be read, `--explain` names no printed record, or
/// the book cannot be written.
pub fn run(args: PrintArgs) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let format =
        args.format
            .unwrap_or_else(|| match args.output.extension().and_then(|e| e.to_str()) {
                Some(e) if e.eq_ignore_ascii_case("svg") => BookFormat::Svg,
                _ => BookFormat::Pdf,
            });
    if format == BookFormat::Svg && args.output.as_os_str() == "-" {
        bail!("SVG pages are one file each: give -o NAME.svg (NAME-001.svg, ...), not '-'");
    }
    if format == BookFormat::Pdf {
        // Before the work (the pages are checked once they are known).
        refuse_input_as_output(&args.output, &args.inputs)?;
    }
    let limits = RateLimits {
        time: Some(args.budget.time_budget.unwrap_or(DEFAULT_BUDGET)),
        wall: args.budget.wall_limit,
    };
    let mut raws = Vec::new();
    let mut inputs = Vec::new();
    let mut next_index = 0;
    for (k, path) in args.inputs.iter().enumerate() {
        raws.extend(read_input(path, args.column.as_ref(), &mut next_index)?);
        inputs.resize(raws.len(), k);
    }
    // Each record's index as read, then its caption (the two differ where
    // the inputs' indices overlap).
    let plain: Vec<String> = raws
        .iter()
        .map(|r| r.index.clone().unwrap_or_default())
        .collect();
    name_overlapping_indices(&mut raws, &inputs, &args.inputs, args.quiet);
    // A stop signal ends the ratings (their budgets check it) and the run,
    // before anything is written: the earlier book stays whole.
    crate::interrupt::install().context("cannot install the signal handlers")?;
    let pool = opts::worker_pool(args.threads.threads)?;
    let made: Vec<Made> = pool.install(|| raws.par_iter().map(|r| make_entry(r, limits)).collect());
    if let Some(signal) = crate::interrupt::requested() {
        let names = match format {
            BookFormat::Pdf => args.output.display().to_string(),
            BookFormat::Svg => format!("{}-NNN.svg", args.output.with_extension("").display()),
        };
        return Ok(stopped_before_writing(signal, "pages", &names));
    }
    let mut entries = Vec::new();
    // Per entry: its record's source:line and index as read (--explain).
    let mut origins: Vec<(String, &str)> = Vec::new();
    let mut skipped = 0usize;
    for (k, m) in made.into_iter().enumerate() {
        match m {
            Made::Entry(e) => {
                origins.push((format!("{}:{}", raws[k].source, raws[k].line), &plain[k]));
                entries.push(e)
            }
            Made::Skipped(why) => {
                skipped += 1;
                eprintln!("sudoflow: {why}: not printed");
            }
        }
    }
    if entries.is_empty() {
        eprintln!(
            "sudoflow: no puzzle to print ({} record{} read, none printable)",
            raws.len(),
            if raws.len() == 1 { "" } else { "s" }
        );
        return Ok(ExitCode::from(exit::FAILURE));
    }

    // Chapters: each puzzle in the first range that holds its ER.
    let mut chapters: Vec<Chapter> = args
        .chapters
        .iter()
        .map(|c| Chapter {
            title: c.title.clone().unwrap_or_else(|| chapter_title(c)),
            entries: Vec::new(),
        })
        .collect();
    let mut other = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let t = Rating::tenths(e.er);
        match args.chapters.iter().position(|c| c.min <= t && t <= c.max) {
            Some(k) => chapters[k].entries.push(i),
            None => other.push(i),
        }
    }
    if args.chapters.is_empty() {
        chapters.push(Chapter {
            title: String::new(),
            entries: other,
        });
    } else if !other.is_empty() {
        eprintln!(
            "sudoflow: {} puzzle{} in no --chapters range: printed in a last chapter, 'Other ratings'",
            other.len(),
            if other.len() == 1 { " is" } else { "s are" }
        );
        chapters.push(Chapter {
            title: "Other ratings".to_string(),
            entries: other,
        });
    }
    let empty: Vec<&str> = chapters
        .iter()
        .filter(|c| c.entries.is_empty())
        .map(|c| c.title.as_str())
        .collect();
    if !empty.is_empty() && !args.quiet {
        eprintln!(
            "sudoflow: no puzzle in chapter{} {}: left out",
            if empty.len() == 1 { "" } else { "s" },
            empty.join(", ")
        );
    }
    chapters.retain(|c| !c.entries.is_empty());

    // Solutions step by step.
    let mut solutions = Vec::new();
    for want in &args.explain {
        let i = explained_entry(&entries, &origins, want.trim())?;
        let opts = se::Options {
            budget: limits.budget(),
            keep_steps: true,
            ceiling: None,
        };
        let rating = Rater::new()
            .rate(&entries[i].puzzle, &opts)
            .map_err(|e| anyhow::anyhow!("--explain {want}: {e}"))?;
        solutions.push(Solution {
            entry: i,
            steps: crate::render::step::steps(&entries[i].puzzle, &rating),
        });
    }

    let book = Book {
        title: args.title.clone(),
        paper: match args.page {
            PaperArg::A4 => Paper::A4,
            PaperArg::Letter => Paper::Letter,
        },
        per_page: args.per_page as usize,
        chapters,
        answers: !args.no_answers,
        answers_per_page: args.answers_per_page as usize,
        solutions,
    };
    let pages = book::pages(&book, &entries);
    let mut removed = 0;
    match format {
        BookFormat::Pdf => {
            let pdf =
                crate::render::pdf::document(&pages, &args.title).map_err(anyhow::Error::msg)?;
            write_output(Some(&args.output), &pdf, &args.inputs)?;
        }
        BookFormat::Svg => {
            let stem = args.output.with_extension("");
            let page_name = |n: usize| {
                let mut name = stem.as_os_str().to_owned();
                name.push(format!("-{n:03}.svg"));
                PathBuf::from(name)
            };
            let page = |n: usize| crate::render::svg::document(&pages[n - 1]).into_bytes();
            match write_set(pages.len(), page_name, page, &args.inputs)? {
                SetWritten::Done { removed: r } => removed = r,
                SetWritten::Stopped(signal) => {
                    let names = format!("{}-NNN.svg", stem.display());
                    return Ok(stopped_before_writing(signal, "pages", &names));
                }
            }
        }
    }
    if !args.quiet {
        eprintln!(
            "sudoflow: printed {} puzzle{} on {} page{} to {}{}{} in {:.2} s",
            entries.len(),
            if entries.len() == 1 { "" } else { "s" },
            pages.len(),
            if pages.len() == 1 { "" } else { "s" },
            if format == BookFormat::Svg {
                format!("{}-NNN.svg", args.output.with_extension("").display())
            } else {
                args.output.display().to_string()
            },
            stale_note(removed, "page"),
            if skipped > 0 {
                format!(
                    " ({skipped} record{} left out, named above)",
                    if skipped == 1 { "" } else { "s" }
                )
            } else {
                String::new()
            },
            start.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::from(exit::OK))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chapter(min: i64, max: i64, title: Option<&str>) -> ChapterSpec {
        ChapterSpec {
            min,
            max,
            title: title.map(String::from),
        }
    }

    /// `--chapters` takes ranges as `generate --se` does (`..=`, one
    /// rating) and keeps its titles: found by probing, `1.0..=2.0` was a
    /// chapter `1.0..` titled "2.0" and `6.5` was refused.
    #[test]
    fn chapters_take_se_ranges_and_titles() {
        let open = i64::MAX;
        for (text, want) in [
            ("1.0..=2.0", chapter(10, 20, None)),
            ("1.0..2.0", chapter(10, 20, None)),
            ("1.0..=2.0=Gentle", chapter(10, 20, Some("Gentle"))),
            ("6.5", chapter(65, 65, None)),
            (
                "6.5=Six and a half",
                chapter(65, 65, Some("Six and a half")),
            ),
            ("6.1..", chapter(61, open, None)),
            ("6.1..=", chapter(61, open, None)),
            ("6.1..=Diabolical", chapter(61, open, Some("Diabolical"))),
            ("6.1..==2024", chapter(61, open, Some("2024"))),
            ("..=2.5=Easy", chapter(0, 25, Some("Easy"))),
            ("..2.5", chapter(0, 25, None)),
            (" 2.6..4.0 = Tougher ", chapter(26, 40, Some("Tougher"))),
        ] {
            assert_eq!(parse_chapter(text), Ok(want), "{text:?}");
        }
        for (text, why) in [
            ("1.05..2", "\"1.05\": ratings have one decimal"),
            ("3.0..2.0", "MIN 3 is greater than MAX 2"),
            ("Hard", "\"Hard\" is not a rating"),
            ("6.1..=10 hardest", "\"10 hardest\" is not a rating"),
            ("1.0-2.0", "a range is written MIN..MAX"),
        ] {
            let e = parse_chapter(text).unwrap_err();
            assert!(
                e.starts_with(&format!("{text:?}: ")) && e.contains(why),
                "{e}"
            );
        }
        assert_eq!(chapter_title(&chapter(65, 65, None)), "ER 6.5");
        assert_eq!(chapter_title(&chapter(61, open, None)), "ER 6.1 and up");
    }
}
