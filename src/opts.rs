//! The command line's one vocabulary (feature `cli`): the option groups
//! every command flattens into its arguments, their value parsers, the
//! progress bar and the wording of values in messages.
//!
//! Below [`crate::cmd`] (which uses these) and above the library (which
//! knows nothing of them); [`crate::cli`] only names the commands. An idea
//! has one spelling, one default and one help text wherever it appears:
//!
//! | group | options |
//! |---|---|
//! | [`InputArgs`] | `INPUT...`, `--column`, `--blank`, `--strict` |
//! | [`OutputArgs`] | `-o/--output`, `--format`, `--resume`, `-q/--quiet` |
//! | [`WorkArgs`] | `-j/--threads`, `--batch-size` |
//! | [`BudgetArgs`] | `--time-budget`, `--wall-limit` (per record) |
//! | [`MapArgs`] | `--keep`, `--source`, `--distinct` |
//!
//! with `-p/--puzzle` in [`InputArgs`] (one puzzle instead of the inputs),
//! and the solution cap is `--limit` everywhere (`count --max` is its old,
//! hidden spelling). Old spellings stay as hidden aliases, so scripts keep
//! working.

use crate::pipeline::{Progress, ProgressHook};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use crate::threads::{thread_count, worker_pool};

/// The characters the reader takes for a blank cell, as every help text
/// lists them.
pub const BLANKS: &str = "'.', '0', '_', '-', '*', 'x' or 'X'";

/// `--limit`'s long help (`solve`; `count`'s cap has its own default: none;
/// `bench` has [`BENCH_LIMIT_HELP`]).
pub const LIMIT_HELP: &str = "Count solutions up to N, then stop: the default 2 is enough to \
    tell 'unique' from 'multiple'. The 'solutions' column is exact below N; N means N or more \
    (the search stopped at the N-th solution; `count --limit N` writes its cap the same way). \
    With --limit 1 the search stops at the first solution, so uniqueness is not checked and \
    the status is 'solved'.\n\
    Example: --limit 1000";

/// `bench --limit`'s long help: its table has no solutions column (found
/// by probing: it had solve's help, which names one).
pub const BENCH_LIMIT_HELP: &str = "Each solver counts solutions up to N, then stops: the \
    default 2 tells 'unique' from 'multiple', as `solve` does. With --limit 1 each stops at \
    the first solution, so uniqueness is not checked, and any grid that keeps the rules and the \
    givens is an answer.\n\
    Example: --limit 1";

/// Parses every duration option (`--time-budget`, `--wall-limit`,
/// `--se-budget`, `generate --max-time`, `bench`'s `--time`, `--warmup`,
/// `--validate-time`): a plain number is seconds (fractions allowed: `2.5`),
/// anything else is read by the humantime crate (`500ms`, `3s`, `2m`, `1h`,
/// `1m30s`, `2min`).
///
/// Errors: neither form, or a negative or non-finite number; the message
/// gives the accepted forms.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    if let Ok(secs) = t.parse::<f64>() {
        return Duration::try_from_secs_f64(secs).map_err(|_| {
            if secs.is_nan() {
                // Not "0 or more", which a budget's refusal of 0 would
                // contradict (found by probing).
                bad(text, "not a number")
            } else if secs > 0.0 {
                // 1e308, inf: above zero, and past what a duration holds
                // (2^64 s; the number is not given: 18446744073709551615
                // itself reads as 2^64 once a float, and is refused).
                format!(
                    "{text:?} is too long a duration: the longest is about 584 billion years \
                     (e.g. 10s, 500ms, 2m)"
                )
            } else {
                format!("{text:?} is not a duration: it must be 0 or more (e.g. 10s, 500ms, 2m)")
            }
        });
    }
    humantime::parse_duration(t).or_else(|e| {
        // humantime takes whole numbers only; `1.5s` and `0.5m` read too.
        let (num, scale) = [("ms", 1e-3), ("s", 1.0), ("m", 60.0), ("h", 3600.0)]
            .iter()
            .find_map(|&(unit, scale)| Some((t.strip_suffix(unit)?.trim(), scale)))
            .ok_or(e.to_string())
            .map_err(|e| bad(text, &e))?;
        let secs: f64 = num.parse().map_err(|_| bad(text, &e.to_string()))?;
        Duration::try_from_secs_f64(secs * scale).map_err(|_| bad(text, "negative"))
    })
}

fn bad(text: &str, why: &str) -> String {
    format!(
        "{text:?} is not a duration ({why}); write seconds (2.5) or a number with a unit: \
         500ms, 3s, 1.5s, 2m, 1h, 1m30s"
    )
}

/// [`parse_duration`] for budgets and limits, which must be above zero.
///
/// Errors: as [`parse_duration`], or a zero duration.
pub fn parse_budget(text: &str) -> Result<Duration, String> {
    let above_zero = || format!("{text:?}: a time budget must be above zero (e.g. 10s, 500ms, 2m)");
    match parse_duration(text) {
        // Not "0 or more", which the zero it then refuses would contradict.
        Err(_) if text.trim().starts_with('-') => Err(above_zero()),
        Err(e) => Err(e),
        Ok(d) if d.is_zero() => Err(above_zero()),
        Ok(d) => Ok(d),
    }
}

/// A duration as messages and the resume sidecar write it: `10s`,
/// `1m 30s`, `500ms` (humantime's format), `none` for no value.
pub fn duration_text(d: Option<Duration>) -> String {
    d.map_or_else(
        || "none".to_string(),
        |d| humantime::format_duration(d).to_string(),
    )
}

/// An optional value as messages and the resume sidecar write it: the
/// value, or `none`.
pub fn value_text<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "none".to_string(), |v| v.to_string())
}

/// An inclusive range as messages and the resume sidecar write it:
/// `MIN..MAX`, the way the options take it.
pub fn range_text<T: std::fmt::Display>(r: &std::ops::RangeInclusive<T>) -> String {
    format!("{}..{}", r.start(), r.end())
}

/// Parses `-j/--threads`: a whole number, at least 1 and at most
/// [`crate::threads::max_threads`].
///
/// Errors: not a whole number, 0 (the message says at least 1 thread), or
/// far more threads than cores (the message gives the limit).
pub fn parse_threads(text: &str) -> Result<NonZeroUsize, String> {
    let n: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a whole number of threads"))?;
    let max = crate::threads::max_threads();
    if n > max {
        return Err(format!(
            "{n} threads is far more than this machine's {} cores: at most {max} (4 per core, \
             at least 16); more only add start-up time and switching",
            crate::threads::cores()
        ));
    }
    NonZeroUsize::new(n).ok_or_else(|| "at least 1 thread is needed".to_string())
}

/// Parses `--blank`: the character the output's `puzzle` column writes for
/// a blank cell, one of the blanks every command reads ([`BLANKS`]).
///
/// Errors: anything else.
pub fn parse_blank(text: &str) -> Result<u8, String> {
    match text {
        "." | "0" | "_" | "-" | "*" | "x" | "X" => Ok(text.as_bytes()[0]),
        _ => Err(format!(
            "{text:?}: the blank must be one of {BLANKS} (what the reader takes for a blank)"
        )),
    }
}

/// Parses `--column`: digits are a 1-based column number, anything else a
/// column name.
///
/// Errors: an empty text, or column number 0.
pub fn parse_column(text: &str) -> Result<crate::pipeline::reader::Column, String> {
    text.parse()
}

/// What a command reads: its inputs and how records are taken from them.
/// Flattened into `solve`, `rate`, `count` and `canon`.
#[derive(Debug, Clone, clap::Args)]
pub struct InputArgs {
    /// Puzzle files read in order as one stream ('-' or none: stdin).
    #[arg(value_name = "INPUT", long_help = INPUT_HELP)]
    pub inputs: Vec<PathBuf>,

    /// One puzzle from the command line instead of input files (as `explain` takes it).
    #[arg(
        short = 'p',
        long = "puzzle",
        value_name = "PUZZLE",
        conflicts_with = "inputs",
        value_parser = parse_puzzle,
        long_help = PUZZLE_HELP
    )]
    pub puzzle: Option<String>,

    /// Read the puzzle from CSV column NAME (in the header) or N (1-based).
    #[arg(
        long,
        value_name = "NAME|N",
        value_parser = parse_column,
        long_help = COLUMN_HELP
    )]
    pub column: Option<crate::pipeline::reader::Column>,

    /// Write blanks in the output's puzzle column as CHAR [default: .].
    #[arg(
        long,
        value_name = "CHAR",
        default_value = ".",
        hide_default_value = true,
        value_parser = parse_blank,
        long_help = BLANK_HELP
    )]
    pub blank: u8,

    /// Exit 1 if any record is invalid (after writing everything).
    #[arg(
        long,
        long_help = "Exit with code 1 if any record is invalid (bad length, bad character, \
            clashing givens; canon gives clashing givens a form, so there they are not \
            invalid). The whole output is still written first.\n\
            Example: --strict -o out.csv || echo 'bad records'"
    )]
    pub strict: bool,
}

/// `INPUT`'s long help.
const INPUT_HELP: &str = "Puzzle files, read in order as one stream; '-' or no INPUT reads \
    stdin, so puzzles can be piped in. One puzzle per line: 81 cells row-major, \
    digits 1-9 given, '.', '0', '_', '-', '*', 'x' or 'X' blank. Blank lines and lines \
    starting with '#' are skipped (in a CSV, '#' lines only before its header: past it a \
    line is a record whatever its first field holds, an id '#7' too); text after the 81 cells is ignored when a space, ',', ';' \
    or ':' separates it ('puzzle ED=7.1/1.2/1.2', tdoku's 'puzzle:count:solution'). A CSV \
    whose header names a column puzzle, quizzes or quiz (Kaggle's sets, sudoflow's own \
    output) is read by RFC 4180 from that column (see --column). gzip and zip inputs are \
    recognised by their bytes; a directory, a UTF-16 file or a damaged archive is an error \
    naming it.\n\
    Pasted puzzles: cells separated by spaces or '|' ('5 3 . | . 7 . | ...'), and a grid on 9 \
    lines of 9 cells, box rules ('------+-------+------') skipped, which is one record; rows \
    cut short are one invalid record saying so.\n\
    A field of 729 characters is a puzzle given by its candidates (tdoku's -p pencilmarks: \
    per cell 9 characters, the digit if still possible, '.' if eliminated).\n\
    Every record gets exactly one row; one that is not a puzzle is 'invalid' and its error \
    names source:line and the problem.\n\
    Example: a.txt b.txt.gz -";

/// `-p/--puzzle`'s long help.
const PUZZLE_HELP: &str = "One puzzle from the command line instead of input files, as \
    `explain` takes it: 81 cells row-major, 1-9 givens, '.', '0', '_', '-', '*', 'x' or 'X' \
    blanks, text after a space, ',', ';' or ':' ignored; a 729-character pencilmark line or a \
    pasted grid ('5 3 . | . 7 . | ...', on one line or nine) reads too. Its row is written as \
    any other (--source names it <puzzle>, line 1). An unsolvable puzzle's error names the \
    cell or unit where propagation finds the contradiction ('no solution: r4c5 has no \
    candidate left after propagation', '7 has no place in row 3'), or says that every guess \
    fails; clashing givens are named as in a file.\n\
    Example: -p '8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..'";

/// Parses `-p/--puzzle`: any text that is not blank (the reader makes a
/// record of it, or an invalid record saying why it is none).
///
/// Errors: an empty or blank text, or a `#` comment (the reader skips
/// those, which would leave no record at all).
pub fn parse_puzzle(text: &str) -> Result<String, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("the puzzle is empty: give its 81 cells, e.g. -p '8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..'".into());
    }
    if t.starts_with('#') {
        return Err(format!(
            "{text:?} is a comment, not a puzzle: give its 81 cells ({BLANKS} for blanks)"
        ));
    }
    Ok(text.to_string())
}

/// `--column`'s long help.
const COLUMN_HELP: &str = "Read each record's puzzle from this CSV column: NAME, the column \
    so named in each input's first line (a header; in any case where none is named exactly so), or N, the N-th column (1-based; \
    a first line whose N-th field is a name, such as 'sudoku', is taken for a header and \
    skipped). Records are read by RFC 4180: quoted fields may hold commas, \"\" and line ends. \
    Without --column the puzzle is the first field, or the column a header names 'puzzle', \
    'quizzes' or 'quiz' wherever it is (Kaggle's sets, sudoflow's own CSV); a header naming \
    two such columns is refused until --column says which.\n\
    Example: --column sudoku data.csv; --column 3 data.csv";

/// `--blank`'s long help.
const BLANK_HELP: &str = "The character the output's puzzle column writes for a blank cell: \
    '.' (the default), '0', '_', '-', '*', 'x' or 'X', the blanks the reader takes. With the \
    input's own blank (Kaggle's sets use '0') the column equals the input's puzzle field, so \
    the output joins back on it (pandas: df.merge(out, left_on='quizzes', \
    right_on='puzzle')). A record that is no puzzle of 81 cells (bad length, bad character) is \
    written as read whatever the option; one whose givens clash is 81 cells, written with this \
    blank like any puzzle.\n\
    Example: --blank 0 sudoku.csv -o out.csv";

/// Where and how a command writes its rows. Flattened into every command
/// that writes rows (`solve`, `rate`, `count`, `canon`, `generate`).
#[derive(Debug, Clone, clap::Args)]
pub struct OutputArgs {
    /// Write the rows to FILE instead of stdout, atomically (FILE.partial until complete).
    #[arg(short, long, value_name = "FILE", long_help = OUTPUT_HELP)]
    pub output: Option<PathBuf>,

    /// Output format: csv, jsonl or parquet [default: -o's extension, else csv].
    #[arg(
        long,
        value_name = "FORMAT",
        value_parser = crate::output::Format::parse,
        long_help = "The rows' format: csv (the default), jsonl (JSON Lines: one JSON object \
            per row, numbers as numbers, empty fields null; generate's seed, up to 2^64, is an \
            integer past 2^53, which readers that hold numbers as doubles round, as jq 1.6 \
            and JavaScript do: Python's json, jq 1.7 and serde keep it) or parquet (typed \
            columns, zstd, \
            a row group per 65,536 rows; pandas, polars, pyarrow and Spark read it). Without \
            --format, -o's extension decides: .parquet or .pq, .jsonl, .ndjson or .json (JSON \
            Lines), else csv. The columns are the CSV's in every format. CSV and JSON Lines \
            runs can be --resume'd, Parquet runs cannot.\n\
            Example: -o out.parquet"
    )]
    pub format: Option<crate::output::Format>,

    /// Continue an interrupted run from FILE.partial (same inputs and options).
    #[arg(long, requires = "output", long_help = RESUME_HELP)]
    pub resume: bool,

    /// No progress bar and no summary line on stderr.
    #[arg(short, long, long_help = QUIET_HELP)]
    pub quiet: bool,
}

/// `-o`'s long help.
const OUTPUT_HELP: &str = "Write the rows to FILE instead of stdout ('-' is stdout). They go \
    to FILE.partial, created once every input has been found, and renamed FILE (after an \
    fsync) only when the run completes: FILE is never left half-written, and an older FILE \
    stays until then. At least once a second the rows are pushed to FILE.partial with a \
    checkpoint (its sidecar FILE.partial.json), so a run stopped in any way can be continued \
    with --resume. FILE must not be an input (nor the file or pipe stdin reads), nor another \
    run's FILE.partial or its sidecar. FILE.partial is read back through its checksum before \
    the rename: if another program changed it, FILE is left as it was.\n\
    Example: -o out.csv";

/// `--resume`'s long help.
const RESUME_HELP: &str = "Continue an interrupted run (a signal, a kill, a failed read) \
    from FILE.partial: the inputs and the options that shape the rows must be those of that \
    run (-j, -q and, where the command has it, --batch-size may differ), else the resume is refused, saying what \
    differs. The partial file is verified against its checkpoints: the rows that verify are \
    kept (and checked against the records read again), anything after them or damaged is \
    redone, so the final FILE is the one an uninterrupted run writes. Without FILE.partial \
    the run starts afresh.\n\
    Example: -o big.csv --resume";

/// `-q`'s long help.
const QUIET_HELP: &str = "Print nothing on stderr but errors: no progress bar (shown only \
    when stderr is a terminal) and no summary line at the end.\n\
    Example: -q > out.csv";

/// [`OutputArgs`] but `--format`: `-o/--output`, `--resume`, `-q/--quiet`,
/// with the same help, for a command whose formats are its own (`explain`:
/// text, json, jsonl), which takes `--format` itself.
#[derive(Debug, Clone, clap::Args)]
pub struct OutputFileArgs {
    /// Write the rows to FILE instead of stdout, atomically (FILE.partial until complete).
    #[arg(short, long, value_name = "FILE", long_help = OUTPUT_HELP)]
    pub output: Option<PathBuf>,

    /// Continue an interrupted run from FILE.partial (same inputs and options).
    #[arg(long, requires = "output", long_help = RESUME_HELP)]
    pub resume: bool,

    /// No progress bar and no summary line on stderr.
    #[arg(short, long, long_help = QUIET_HELP)]
    pub quiet: bool,
}

impl OutputFileArgs {
    /// These options with `format` as the rows' format, as the run's
    /// machinery ([`start_run`], [`crate::outfile::RunOutput`]) takes them.
    pub fn with_format(&self, format: crate::output::Format) -> OutputArgs {
        OutputArgs {
            output: self.output.clone(),
            format: Some(format),
            resume: self.resume,
            quiet: self.quiet,
        }
    }
}

impl OutputArgs {
    /// The format the run writes: `--format`, else `-o`'s extension,
    /// else CSV ([`crate::output::Format::resolve`]).
    pub fn resolve_format(&self) -> crate::output::Format {
        crate::output::Format::resolve(self.format, self.output.as_deref())
    }
}

/// What each row carries back to its input, and which records get one.
/// Flattened into the commands that write a row per input record
/// (`solve`, `rate`, `count`, `canon`): see [`crate::rows::Carry`].
#[derive(Debug, Clone, Default, clap::Args)]
pub struct MapArgs {
    /// Copy these input CSV columns into every row, before the result columns.
    #[arg(
        long,
        value_name = "COL,...",
        value_delimiter = ',',
        long_help = KEEP_HELP
    )]
    pub keep: Vec<String>,

    /// Add the columns source and line: the input and line each record was read from.
    #[arg(long, long_help = SOURCE_HELP)]
    pub source: bool,

    /// Only the first record of each class of equivalent puzzles gets worked on and a row.
    #[arg(long, long_help = DISTINCT_HELP)]
    pub distinct: bool,
}

impl MapArgs {
    /// What the rows carry ([`crate::rows::Carry`]).
    pub fn carry(&self) -> crate::rows::Carry {
        crate::rows::Carry {
            keep: self.keep.clone(),
            source: self.source,
        }
    }

    /// The first of these options given (`--keep`, `--source`,
    /// `--distinct`), for a refusal where rows are not written.
    pub fn named(&self) -> Option<&'static str> {
        [
            (!self.keep.is_empty(), "--keep"),
            (self.source, "--source"),
            (self.distinct, "--distinct"),
        ]
        .into_iter()
        .find_map(|(given, name)| given.then_some(name))
    }

    /// The options as the resume sidecar records them (`--keep`'s columns
    /// must be those of the interrupted run, as `--column` must).
    pub fn sidecar_options(&self) -> [(&'static str, String); 3] {
        let keep = if self.keep.is_empty() {
            "none".to_string()
        } else {
            self.keep.join(",")
        };
        [
            ("keep", keep),
            ("source", self.source.to_string()),
            ("distinct", self.distinct.to_string()),
        ]
    }
}

/// `--keep`'s long help.
const KEEP_HELP: &str = "Copy these input CSV columns (by header name, the one named \
    exactly so first, else in any case; \
    comma-separated, or --keep given again) into every row, as text, before the result \
    columns: a contributor's id, a book's page. Each input read as CSV (a header naming the \
    puzzle column, or --column) must have a header naming each column, else the run stops \
    before writing anything, naming the file and the column; records of inputs that are not \
    CSV (one puzzle a line, pasted grids, -p) get empty fields. A record whose kept field is \
    not UTF-8 text is invalid, its error naming the column (its bytes would be written \
    changed, and two ids could become one). A kept column may not share a \
    name with the command's own columns (a header names each column once). --resume checks \
    that the columns are those of the interrupted run.\n\
    Example: --keep id,author kaggle.csv -o out.csv";

/// `--source`'s long help.
const SOURCE_HELP: &str = "Add two columns after the result columns: source, the input the \
    record was read from (its path as given, <stdin>, ARCHIVE.zip/MEMBER, <puzzle> for -p, \
    argument N for explain's Nth puzzle argument), and line, the record's first line in it \
    (1-based); source is the name the Python \
    package's Spark and Dask adapters give the input file. A CSV input with columns source \
    and line (this option's output) names its records by them instead of by its own lines: their \
    errors and their source and line columns name the original input, so a pipe such as \
    canon --distinct --source big.csv | rate - --source maps back to big.csv (a row whose \
    source is empty or whose line is no number keeps the CSV's own).\n\
    Example: --source a.txt b.txt.gz -o out.csv";

/// `--distinct`'s long help.
const DISTINCT_HELP: &str = "Work on and write only the first record of each class of \
    equivalent puzzles: same minlex form, as `sudoflow canon` gives it (relabelled digits, \
    transposed, rows, columns, bands or stacks permuted; a pencilmark line's class is among \
    pencilmark lines). Later records of a class get no row, and solve, rate and count do no \
    work on them (equivalent puzzles have the same solution count and rating; canon writes \
    class_index = index on each row). Invalid records still get their row. The index \
    column keeps the input's numbering, so gaps show what was dropped; the summary counts \
    the repeats. Memory: about 60 bytes per class (`canon --help`). Resumable.\n\
    Example: --distinct corpus.txt -o distinct.csv";

/// How a command spreads its work. Flattened into `solve`, `rate`,
/// `count` and `canon` (`generate` and `count-grids` take `-j` alone).
#[derive(Debug, Clone, clap::Args)]
pub struct WorkArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub threads: ThreadsArg,

    /// Most records per batch handed to a worker [default: 1024].
    #[arg(
        long,
        value_name = "N",
        default_value_t = NonZeroUsize::new(1024).expect("nonzero"),
        hide_default_value = true,
        long_help = "Most records per batch handed to a worker [default: 1024]. Batches are \
            sized by the work they hold (about 20 ms of one thread's work, from one record \
            while a record's cost is unknown), up to N records; memory holds about 4 x \
            threads batches at once.\n\
            Example: --batch-size 4096"
    )]
    pub batch_size: NonZeroUsize,
}

/// `-j/--threads`, alone (`generate`, `count-grids`) or in [`WorkArgs`].
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct ThreadsArg {
    /// Worker threads [default: all cores].
    #[arg(
        short = 'j',
        long,
        value_name = "N",
        value_parser = parse_threads,
        long_help = "Threads that work in parallel [default: all cores; at most 4 per core, \
            and at least 16 are allowed]. The output is byte-identical whatever N is.\n\
            Example: -j 1"
    )]
    pub threads: Option<NonZeroUsize>,
}

impl ThreadsArg {
    /// The number of threads: `-j`, else every core.
    pub fn count(&self) -> usize {
        thread_count(self.threads)
    }
}

/// A per-record budget: how much work one record may take before it gets
/// status `timeout`. Flattened into `rate`, `count` and `explain`, each of
/// which names its default in the short help ([`budget_help`]).
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct BudgetArgs {
    /// Give up on a record after TIME of work (status 'timeout').
    #[arg(
        long,
        value_name = "TIME",
        value_parser = parse_budget,
        allow_negative_numbers = true,
        long_help = "Give up on a record after TIME of work: it gets status 'timeout' and the \
            run goes on. TIME is seconds or a number with a unit: 90, 90s, 500ms, 2m, 1h. The \
            budget is counted in work, not wall time (10 million units of the command's \
            search a second: nodes of the solver's search, the rater's chaining steps; about \
            a second of this project's reference host), so a record runs out at the same \
            point, with the same row, whatever the machine's load, its speed and -j. The \
            default is the command's (rate and explain: 10s; count: none).\n\
            Example: --time-budget 1m"
    )]
    pub time_budget: Option<Duration>,

    /// Also give up on a record after TIME of wall time (rows then depend on load).
    #[arg(
        long,
        value_name = "TIME",
        value_parser = parse_budget,
        allow_negative_numbers = true,
        long_help = "Also give up on a record after TIME of wall time (status 'timeout'). \
            Unlike --time-budget, which is counted in work, a record may then get another row \
            on a loaded or slower machine, or on a resume. Default: none.\n\
            Example: --wall-limit 1m"
    )]
    pub wall_limit: Option<Duration>,
}

impl InputArgs {
    /// The inputs as the resume sidecar lists them: none means stdin, `-`;
    /// none at all for `-p` (the puzzle is an option the sidecar records:
    /// [`InputArgs::puzzle_text`]).
    pub fn sidecar_inputs(&self) -> Vec<PathBuf> {
        if self.puzzle.is_some() {
            Vec::new()
        } else if self.inputs.is_empty() {
            vec![PathBuf::from("-")]
        } else {
            self.inputs.clone()
        }
    }

    /// `--column` as the sidecar and messages write it (`none` without it).
    pub fn column_text(&self) -> String {
        value_text(self.column.as_ref())
    }

    /// `-p` as the sidecar and messages write it (`none` without it).
    pub fn puzzle_text(&self) -> String {
        value_text(self.puzzle.as_ref())
    }
}

/// What every command that reads records does before its rows: the
/// pipeline's options from the groups (`-p`'s puzzle instead of the
/// inputs, `--keep`'s columns, the progress bar where [`show_progress`]
/// says so), the inputs checked before any output exists
/// ([`crate::pipeline::check_inputs_keeping`]: with `--keep`, each CSV
/// file's header must name the columns), and the SIGINT/SIGTERM handlers
/// installed. `own` is the command's own header: `--keep` may not name one
/// of its columns ([`crate::rows::Carry::check`]).
///
/// Errors: a kept column named twice or as one of the row's own, an input
/// that cannot be read or lacks a kept column (the message names it), or
/// the handlers cannot be installed.
pub fn start_run(
    input: &InputArgs,
    map: &MapArgs,
    own: &[String],
    output: &OutputArgs,
    work: &WorkArgs,
) -> anyhow::Result<crate::pipeline::PipelineOptions> {
    use anyhow::Context;
    map.carry().check(own).map_err(anyhow::Error::msg)?;
    let opts = crate::pipeline::PipelineOptions {
        inputs: input.inputs.clone(),
        column: input.column.clone(),
        keep: map.keep.clone(),
        puzzle: input.puzzle.clone(),
        threads: work.threads.count(),
        batch_size: work.batch_size.get(),
        progress: progress(output.quiet, output.output.as_deref(), &input.inputs),
    };
    crate::pipeline::check_inputs_keeping(&opts.inputs, opts.column.as_ref(), &opts.keep)?;
    crate::interrupt::install().context("cannot install the signal handlers")?;
    Ok(opts)
}

/// `--time-budget`'s short help with a command's `default`, for
/// `#[command(mut_arg("time_budget", ...))]`.
pub fn budget_help(arg: clap::Arg, default: &'static str) -> clap::Arg {
    let help =
        format!("Give up on a record after TIME of work (status 'timeout') [default: {default}]");
    arg.help(help)
}

/// Whether the progress bar is drawn: not with `--quiet`, only on a
/// terminal stderr, and not when the rows go to a terminal stdout too (the
/// bar would be drawn between the rows).
pub fn show_progress(quiet: bool, output: Option<&std::path::Path>) -> bool {
    use std::io::IsTerminal;
    let to_stdout = match output {
        None => true,
        Some(p) => p.as_os_str() == "-",
    };
    let csv_on_terminal = to_stdout && std::io::stdout().is_terminal();
    !quiet && std::io::stderr().is_terminal() && !csv_on_terminal
}

/// [`show_progress`] as the pipeline's
/// [`PipelineOptions::progress`](crate::pipeline::PipelineOptions::progress):
/// a [`RecordsBar`] over `inputs` when it says so, else none.
pub fn progress(
    quiet: bool,
    output: Option<&std::path::Path>,
    inputs: &[PathBuf],
) -> Option<ProgressHook> {
    show_progress(quiet, output).then(|| RecordsBar::hook(inputs))
}

/// The progress bar of the commands that read records, on stderr. Where
/// every input is a regular file, the bar is the bytes read against their
/// total size, with the percentage and the time left; otherwise a spinner.
/// Beside it: the records emitted and records/s (to a tenth below 10/s).
/// Drawn from the pipeline's [`Progress::start`] on, cleared at
/// [`Progress::finish`].
pub struct RecordsBar {
    bar: std::sync::OnceLock<indicatif::ProgressBar>,
    /// The inputs' total size in bytes, when every one is a regular file.
    total: Option<u64>,
    /// When the run started, and [`crate::pipeline::reader::bytes_read`] then.
    started: std::sync::OnceLock<(std::time::Instant, u64)>,
}

impl RecordsBar {
    /// A new bar over `inputs`, as the pipeline's progress reporter.
    pub fn hook(inputs: &[PathBuf]) -> ProgressHook {
        let sizes: Option<Vec<u64>> = if inputs.is_empty() {
            None
        } else {
            inputs
                .iter()
                .map(|p| {
                    (p.as_os_str() != "-")
                        .then(|| std::fs::metadata(p).ok().filter(|m| m.is_file()))
                        .flatten()
                        .map(|m| m.len())
                })
                .collect()
        };
        ProgressHook(Arc::new(RecordsBar {
            bar: std::sync::OnceLock::new(),
            total: sizes.map(|s| s.iter().sum()),
            started: std::sync::OnceLock::new(),
        }))
    }
}

/// Records per second as the bar and the summary write it: whole numbers
/// from 10/s up, a tenth below.
pub fn rate_text(per_sec: f64) -> String {
    if per_sec >= 10.0 || per_sec == 0.0 {
        format!("{per_sec:.0}")
    } else {
        format!("{per_sec:.1}")
    }
}

impl Progress for RecordsBar {
    fn start(&self) {
        self.started.get_or_init(|| {
            (
                std::time::Instant::now(),
                crate::pipeline::reader::bytes_read(),
            )
        });
        self.bar.get_or_init(|| {
            use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
            let bar = match self.total {
                Some(total) => {
                    let bar =
                        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
                    bar.set_style(
                        ProgressStyle::with_template(
                            "{elapsed_precise} {wide_bar} {bytes}/{total_bytes} {percent}% \
                             (eta {eta}) {msg}",
                        )
                        .expect("valid template"),
                    );
                    bar
                }
                None => {
                    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                    bar.set_style(
                        ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                            .expect("valid template"),
                    );
                    bar
                }
            };
            bar.set_message("0 records, 0 records/s");
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
    }

    fn update(&self, records: u64) {
        if let (Some(bar), Some(&(started, base))) = (self.bar.get(), self.started.get()) {
            if self.total.is_some() {
                bar.set_position(crate::pipeline::reader::bytes_read() - base);
            }
            let secs = started.elapsed().as_secs_f64();
            let per_sec = if secs > 0.0 {
                records as f64 / secs
            } else {
                0.0
            };
            bar.set_message(format!(
                "{records} {}, {} records/s",
                if records == 1 { "record" } else { "records" },
                rate_text(per_sec)
            ));
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
    }
}

/// Says on stderr that the puzzles are read from stdin when stdin is a
/// terminal and neither an input file nor `-p` was given (otherwise the
/// tool seems to hang).
pub fn note_terminal_stdin(opts: &crate::pipeline::PipelineOptions, quiet: bool) {
    use std::io::IsTerminal;
    let inputs = &opts.inputs;
    let reads_stdin =
        opts.puzzle.is_none() && (inputs.is_empty() || inputs.iter().any(|p| p.as_os_str() == "-"));
    if reads_stdin && !quiet && std::io::stdin().is_terminal() {
        eprintln!(
            "sudoflow: reading puzzles from stdin (one per line; Ctrl-D ends, Ctrl-C stops); \
             give a file to read it instead"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_plain_seconds_or_numbers_with_a_unit() {
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("2.5"), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_duration("0"), Ok(Duration::ZERO));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("3s"), Ok(Duration::from_secs(3)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_duration("1m30s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("0.5m"), Ok(Duration::from_secs(30)));
        assert!(parse_duration("soon").unwrap_err().contains("500ms"));
        assert!(parse_duration("-1").unwrap_err().contains("0 or more"));
        // Above zero and past what a duration holds: too long, not "0 or
        // more" (found by probing).
        for long in ["inf", "1e308", "18446744073709551615"] {
            let err = parse_duration(long).unwrap_err();
            assert!(
                err.contains("is too long a duration: the longest is about 584 billion years"),
                "{err}"
            );
            assert!(parse_budget(long).unwrap_err().contains("too long"));
        }
        assert!(parse_budget("0").unwrap_err().contains("above zero"));
        assert_eq!(parse_budget("0.5"), Ok(Duration::from_millis(500)));
    }

    #[test]
    fn values_in_messages_are_written_as_a_person_would() {
        assert_eq!(duration_text(Some(Duration::from_secs(10))), "10s");
        assert_eq!(duration_text(Some(Duration::from_secs(90))), "1m 30s");
        assert_eq!(duration_text(Some(Duration::from_millis(500))), "500ms");
        assert_eq!(duration_text(None), "none");
        assert_eq!(value_text(Some(3)), "3");
        assert_eq!(value_text::<u64>(None), "none");
        assert_eq!(rate_text(0.4), "0.4");
        assert_eq!(rate_text(12436.2), "12436");
    }
}
