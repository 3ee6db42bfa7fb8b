//! The command line: clap derive definitions shared by the binary, the
//! parsers of its option values and its progress bar (feature `cli`).

use crate::cmd;
use crate::pipeline::{Progress, ProgressHook};
use clap::{Parser, Subcommand};

/// Sudoku at scale: solve, rate, generate and count puzzles, and benchmark solvers.
///
/// Exit codes: 0 the run completed; 1 `--strict` found invalid records or
/// `bench` found a disagreement; 2 usage or I/O error; 3 an internal error
/// (a bug) on some record, which got a row with status `error`; 130/143
/// stopped by SIGINT/SIGTERM (see `--resume`).
#[derive(Debug, Parser)]
#[command(name = "sudoflow", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve and rate puzzles in bulk: one CSV row per input record, in input order.
    Solve(cmd::solve::SolveArgs),
    /// Rate puzzles on Sudoku Explainer's scale (ER/EP/ED): one CSV row per record.
    Rate(cmd::rate::RateArgs),
    /// Show the path Sudoku Explainer follows through one puzzle, step by step.
    Explain(cmd::explain::ExplainArgs),
    /// Compare solvers on puzzle files: puzzles/s, guesses, answered %.
    Bench(cmd::bench::BenchArgs),
    /// Generate rated, proper (unique-solution) puzzles, reproducibly.
    Generate(cmd::generate::GenerateArgs),
    /// Exact number of solutions of each record.
    Count(cmd::count::CountArgs),
    /// Minlex canonical form, automorphisms and class of each record (deduplicate corpora).
    Canon(cmd::canon::CanonArgs),
    /// Number of complete grids for a box shape (default 3x3: all Sudoku grids).
    CountGrids(cmd::count_grids::CountGridsArgs),
}

pub use crate::threads::{thread_count, worker_pool};

/// Parses every duration option (`--time-budget`, `--se-budget`, `bench`'s
/// `--time`, `--warmup`, `--budget`, `--validate-time`): a plain number is
/// seconds (fractions allowed: `2.5`), anything else is read by the
/// humantime crate (`500ms`, `3s`, `2m`, `1h`, `1m30s`, `2min`).
///
/// Errors: neither form, or a negative or non-finite number; the message
/// gives the accepted forms.
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let t = text.trim();
    if let Ok(secs) = t.parse::<f64>() {
        return std::time::Duration::try_from_secs_f64(secs)
            .map_err(|_| format!("{text:?} is not a duration: seconds must be 0 or more"));
    }
    humantime::parse_duration(t).or_else(|e| {
        // humantime takes whole numbers only; `1.5s` and `0.5m` read too.
        let (num, scale) = [("ms", 1e-3), ("s", 1.0), ("m", 60.0), ("h", 3600.0)]
            .iter()
            .find_map(|&(unit, scale)| Some((t.strip_suffix(unit)?.trim(), scale)))
            .ok_or(e.to_string())
            .map_err(|e| bad(text, &e))?;
        let secs: f64 = num.parse().map_err(|_| bad(text, &e.to_string()))?;
        std::time::Duration::try_from_secs_f64(secs * scale).map_err(|_| bad(text, "negative"))
    })
}

fn bad(text: &str, why: &str) -> String {
    format!(
        "{text:?} is not a duration ({why}); write seconds (2.5) or a number with a unit: \
         500ms, 3s, 1.5s, 2m, 1h, 1m30s"
    )
}

/// [`parse_duration`] for budgets, which must be above zero.
///
/// Errors: as [`parse_duration`], or a zero duration.
pub fn parse_budget(text: &str) -> Result<std::time::Duration, String> {
    match parse_duration(text)? {
        d if d.is_zero() => Err(format!("{text:?}: a time budget must be above zero")),
        d => Ok(d),
    }
}

/// Parses `-j/--threads`: a whole number, at least 1 and at most
/// [`crate::threads::max_threads`].
///
/// Errors: not a whole number, 0 (the message says at least 1 thread), or
/// far more threads than cores (the message gives the limit).
pub fn parse_threads(text: &str) -> Result<std::num::NonZeroUsize, String> {
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
    std::num::NonZeroUsize::new(n).ok_or_else(|| "at least 1 thread is needed".to_string())
}

/// Whether `solve`, `count` and `rate` draw their progress bar: not with
/// `--quiet`, only on a terminal stderr, and not when the CSV goes to a
/// terminal stdout too (the bar would be drawn between the rows).
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
/// a [`RecordsBar`] when it says so, else none.
pub fn progress(quiet: bool, output: Option<&std::path::Path>) -> Option<ProgressHook> {
    show_progress(quiet, output).then(RecordsBar::hook)
}

/// The progress bar of `solve`, `count`, `rate` and `canon` on stderr: a
/// spinner, the records emitted, records/s and the time since the run
/// started. Drawn from the pipeline's [`Progress::start`] on, cleared at
/// [`Progress::finish`].
#[derive(Default)]
pub struct RecordsBar(std::sync::OnceLock<indicatif::ProgressBar>);

impl RecordsBar {
    /// A new bar, as the pipeline's progress reporter.
    pub fn hook() -> ProgressHook {
        ProgressHook(std::sync::Arc::new(RecordsBar::default()))
    }
}

impl Progress for RecordsBar {
    fn start(&self) {
        self.0.get_or_init(|| {
            use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} {human_pos} records  {rate}  {elapsed_precise}",
                )
                .expect("valid template")
                .with_key(
                    "rate",
                    |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.0} records/s", state.per_sec());
                    },
                ),
            );
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
            bar
        });
    }

    fn update(&self, records: u64) {
        if let Some(bar) = self.0.get() {
            bar.set_position(records);
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.0.get() {
            bar.finish_and_clear();
        }
    }
}

/// Says on stderr that the puzzles are read from stdin when stdin is a
/// terminal and no input file was given (otherwise the tool seems to hang).
pub fn note_terminal_stdin(inputs: &[std::path::PathBuf], quiet: bool) {
    use std::io::IsTerminal;
    let reads_stdin = inputs.is_empty() || inputs.iter().any(|p| p.as_os_str() == "-");
    if reads_stdin && !quiet && std::io::stdin().is_terminal() {
        eprintln!(
            "sudoflow: reading puzzles from stdin (one per line; Ctrl-D ends, Ctrl-C stops); \
             give a file to read it instead"
        );
    }
}

/// Parses `--blank`: the character the output's `puzzle` column writes for
/// a blank cell, one of the blanks every command reads (`.`, `0`, `_`, `-`,
/// `*`, `x`).
///
/// Errors: anything else.
pub fn parse_blank(text: &str) -> Result<u8, String> {
    match text {
        "." | "0" | "_" | "-" | "*" | "x" => Ok(text.as_bytes()[0]),
        _ => Err(format!(
            "{text:?}: the blank must be '.', '0', '_', '-', '*' or 'x' (what the reader takes \
             for a blank)"
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

/// `--column`, flattened into the commands that read records.
#[derive(Debug, Clone, clap::Args)]
pub struct ColumnArg {
    /// Read the puzzle from CSV column NAME (in the header) or N (1-based).
    #[arg(
        long,
        value_name = "NAME|N",
        value_parser = parse_column,
        long_help = COLUMN_HELP
    )]
    pub column: Option<crate::pipeline::reader::Column>,
}

/// `--column`'s long help.
const COLUMN_HELP: &str = "Read each record's puzzle from this CSV column: NAME, the column \
    so named in each input's first line (a header; any case), or N, the N-th comma-separated \
    column (1-based; a first line whose N-th field is a name, such as 'sudoku', is taken for \
    a header and skipped). Quoted fields may hold commas. Without --column the puzzle is the \
    first field, or the column a header names 'puzzle', 'quizzes' or 'quiz' wherever it is \
    (Kaggle's sets, sudoflow's own CSV).\n\
    Example: sudoflow solve --column sudoku data.csv; sudoflow solve --column 3 data.csv";

/// `--blank`'s long help, shared by `solve`, `count` and `rate`.
pub const BLANK_HELP: &str = "The character the output's puzzle column writes for a blank \
    cell: '.' (the default), '0', '_', '-', '*' or 'x'. With the input's own blank (Kaggle's sets use '0') the \
    column equals the input's puzzle field, so the output joins back on it (pandas: \
    df.merge(out, left_on='quizzes', right_on='puzzle')). Invalid records' text is written as \
    read whatever the option.\nExample: sudoflow solve --blank 0 sudoku.csv -o out.csv";

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

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
        assert!(parse_duration("-1").is_err());
        assert!(parse_duration("inf").is_err());
        assert!(parse_budget("0").is_err());
        assert_eq!(parse_budget("0.5"), Ok(Duration::from_millis(500)));
    }
}

/// `--format`, shared by every command that writes rows.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct FormatArg {
    /// Output format: csv, jsonl or parquet [default: -o's extension, else csv].
    #[arg(
        long,
        value_name = "FORMAT",
        value_parser = crate::output::Format::parse,
        long_help = "The rows' format: csv (the default), jsonl (one JSON object per row, \
            numbers as numbers, empty fields null) or parquet (typed columns, zstd, a row \
            group per 65,536 rows; pandas, polars, pyarrow and Spark read it). Without \
            --format, -o's extension decides: .parquet or .pq, .jsonl or .ndjson, else csv. \
            The columns are the CSV's in every format. Only CSV output can be --resume'd.\n\
            Example: sudoflow solve puzzles.txt -o out.parquet"
    )]
    pub format: Option<crate::output::Format>,
}

impl FormatArg {
    /// The format the run writes: `--format`, else `output`'s extension,
    /// else CSV ([`crate::output::Format::resolve`]).
    pub fn resolve(&self, output: Option<&std::path::Path>) -> crate::output::Format {
        crate::output::Format::resolve(self.format, output)
    }
}

/// `--keep` and `--source`, flattened into the commands that write a row
/// per input record (`solve`, `rate`, `count`, `canon`): what each row
/// carries from its record, so that results map back to the input
/// ([`crate::rows::Carry`]).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct CarryArgs {
    /// Copy these input CSV columns into every row, before the result columns.
    #[arg(
        long,
        value_name = "COL,...",
        value_delimiter = ',',
        long_help = KEEP_HELP
    )]
    pub keep: Vec<String>,

    /// Add the columns source and line: the input file and line of each record.
    #[arg(long, long_help = SOURCE_HELP)]
    pub source: bool,
}

impl CarryArgs {
    /// What the rows carry.
    pub fn carry(&self) -> crate::rows::Carry {
        crate::rows::Carry {
            keep: self.keep.clone(),
            source: self.source,
        }
    }
}

/// `--keep`'s long help.
const KEEP_HELP: &str = "Copy these input CSV columns (by header name, any case; \
    comma-separated, or --keep given again) into every row, as text, before the result \
    columns: a contributor's id, a book's page. Each input read as CSV (a header naming the \
    puzzle column, or --column) must have a header naming each column, else the run stops \
    before writing anything, naming the file and its columns; records of inputs that are \
    not CSV (one puzzle a line, pasted grids) get empty fields. A kept column may not share \
    a name with the command's own columns (-o's header names each column once). --resume \
    checks that the columns are those of the interrupted run.\n\
    Example: sudoflow solve kaggle.csv --keep id -o solved.csv";

/// `--source`'s long help.
const SOURCE_HELP: &str = "Add two columns after the result columns: source, the input \
    the record was read from (its path as given, <stdin>, ARCHIVE.zip/MEMBER, <puzzle> for \
    -p), and line, the record's first line in it (1-based). To carry them through a pipe, \
    write them where the input is still known and keep them downstream:\n\
    sudoflow canon --distinct --source --keep id big.csv -o distinct.csv\n\
    sudoflow rate distinct.csv --keep id,source,line -o rated.csv\n\
    (rated.csv's source and line then name big.csv's lines, while its error column names \
    distinct.csv's.)\n\
    Example: sudoflow solve a.txt b.txt --source -o out.csv";

/// Parses `-p/--puzzle`: any text that is not blank (the reader makes a
/// record of it, or an invalid record saying why it is none).
///
/// Errors: an empty or blank text, or a `#` comment (no record at all).
pub fn parse_puzzle(text: &str) -> Result<String, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err(
            "the puzzle is empty: give 81 cells, e.g. -p '8..........36......7..9.2...'".into(),
        );
    }
    if t.starts_with('#') {
        return Err(format!(
            "{text:?} is a comment, not a puzzle: give 81 cells ('.', '0' or '_' for blanks)"
        ));
    }
    Ok(text.to_string())
}

/// `-p/--puzzle`, flattened into `solve`, `rate`, `count` and `canon`: one
/// puzzle from the command line instead of input files.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PuzzleArg {
    /// One puzzle from the command line instead of input files (81 cells, '.', '0' or '_' blank).
    #[arg(
        short = 'p',
        long = "puzzle",
        value_name = "PUZZLE",
        conflicts_with = "inputs",
        value_parser = parse_puzzle,
        long_help = "One puzzle from the command line instead of input files, as `explain` \
            takes it: 81 cells row-major, 1-9 givens, '.', '0' or '_' blanks, text after \
            whitespace, ',', ';' or ':' ignored; a 729-character pencilmark line or a pasted \
            grid ('5 3 . | . 7 . | ...') reads too. Its row is written as any other (its \
            source is <puzzle>, line 1); an unsolvable puzzle's error column names the cell \
            or unit where propagation finds the contradiction.\n\
            Example: sudoflow solve -p '8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..'"
    )]
    pub puzzle: Option<String>,
}
