//! `sudoflow count`: the exact number of solutions of each record, one CSV
//! row per input record, in input order.
//!
//! Records stream through [`crate::pipeline`] exactly as in `solve` (same
//! reader, worker pool, ordering and invalid rows); each worker reuses one
//! [`Solver`] and counts with [`count_record`]. Columns:
//! `index,puzzle,status,solutions,error`; statuses and the meaning of
//! `solutions` are tabled in [`crate::counting::solutions`].

use crate::cli;
use crate::counting::solutions::{count_pencilmarks, count_record, CountOptions, CountResult};
use crate::output::CsvSink;
use crate::pipeline::{self, PipelineOptions, Record};
use crate::solver::Solver;
use std::io::IsTerminal;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The header of `count`'s CSV, in column order.
pub const COUNT_HEADER: [&str; 5] = ["index", "puzzle", "status", "solutions", "error"];

/// Statuses in the order the summary line lists them.
const STATUSES: [&str; 6] = [
    "unique",
    "multiple",
    "unsolvable",
    "capped",
    "timeout",
    "invalid",
];

/// Options of `sudoflow count`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Columns: index,puzzle,status,solutions,error. Statuses: unique (1 solution), multiple (2 or \
more, exact), unsolvable (0), capped (more than --max N; solutions = N+1, a lower bound), \
timeout (--time-budget ran out; solutions = those found so far, a lower bound), invalid (bad \
length or character, or clashing givens; solutions empty, error names source:line).

Exit codes: 0 the run completed (whatever the statuses); 1 --strict and some record was \
invalid (after the whole output is written); 2 usage or I/O error, e.g. a missing input.

Examples:
  sudoflow count puzzles.txt --max 1000000 --time-budget 10 -o counts.csv
  echo '.................................................................................' \\
    | sudoflow count --time-budget 0.5")]
pub struct CountArgs {
    /// Puzzle files read in order as one stream ('-' or none: stdin).
    #[arg(
        value_name = "INPUT",
        long_help = "Puzzle files, read in order as one stream; '-' or no INPUT reads stdin. \
            The same records as `solve`: one puzzle per line (81 cells, '.', '0' or '_' \
            blank), '#' comments and blank lines skipped, text after a separator ignored, \
            gzip read as is. A field of 729 characters is a puzzle given by its candidates \
            (tdoku's -p pencilmarks), counted from them.\n\
            Example: sudoflow count a.txt b.txt.gz -"
    )]
    pub inputs: Vec<PathBuf>,

    /// Write the CSV to FILE instead of stdout.
    #[arg(
        short,
        long,
        value_name = "FILE",
        long_help = "Write the CSV to FILE instead of stdout ('-' is stdout). The file is \
            created only once every input has been found.\n\
            Example: sudoflow count puzzles.txt -o counts.csv"
    )]
    pub output: Option<PathBuf>,

    /// Worker threads [default: all cores].
    #[arg(
        short = 'j',
        long,
        value_name = "N",
        long_help = "Number of worker threads counting in parallel [default: all cores]. The \
            output is identical whatever N is (timeouts aside, which depend on speed).\n\
            Example: sudoflow count -j 2 puzzles.txt"
    )]
    pub threads: Option<NonZeroUsize>,

    /// Stop counting a record once it has more than N solutions (status 'capped').
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u64).range(1..),
        long_help = "Stop counting a record once more than N solutions are found: it gets \
            status 'capped' and solutions N+1 (a lower bound). Records with at most N \
            solutions are still counted exactly. Default: no cap.\n\
            Example: sudoflow count --max 1000 puzzles.txt"
    )]
    pub max: Option<u64>,

    /// Give up on a record after SECS seconds (status 'timeout').
    #[arg(
        long,
        value_name = "SECS",
        value_parser = parse_seconds,
        long_help = "Give up on a record after SECS seconds of wall time (decimals allowed): \
            it gets status 'timeout' and solutions holds those found so far, a lower bound. \
            Default: no budget (a record with very many solutions, like the empty grid, \
            then runs for ever).\n\
            Example: sudoflow count --time-budget 2.5 puzzles.txt"
    )]
    pub time_budget: Option<Duration>,

    /// Records per batch handed to a worker.
    #[arg(
        long,
        value_name = "N",
        default_value_t = NonZeroUsize::new(64).expect("nonzero"),
        long_help = "Records per batch handed to a worker. Counting can take long per record, \
            so batches are smaller than solve's; memory holds about 4 x threads batches.\n\
            Example: sudoflow count --batch-size 1024 many-easy.txt"
    )]
    pub batch_size: NonZeroUsize,

    /// No progress bar and no summary line on stderr.
    #[arg(
        short,
        long,
        long_help = "Print nothing on stderr but errors: no progress bar (shown only when \
            stderr is a terminal) and no summary line at the end.\n\
            Example: sudoflow count -q puzzles.txt > counts.csv"
    )]
    pub quiet: bool,

    /// Exit 1 if any record is invalid (after writing everything).
    #[arg(
        long,
        long_help = "Exit with code 1 if any record is invalid (bad length, bad character, \
            clashing givens). The whole output is still written first.\n\
            Example: sudoflow count --strict puzzles.txt -o counts.csv || echo 'bad records'"
    )]
    pub strict: bool,
}

/// `--time-budget`: positive, finite seconds.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !(secs.is_finite() && secs > 0.0) {
        return Err(format!(
            "{text:?}: the budget must be a positive number of seconds"
        ));
    }
    Duration::try_from_secs_f64(secs).map_err(|e| format!("{text:?}: {e}"))
}

/// One row of `count`'s output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountRow {
    /// 1-based position of the record among all records.
    pub index: u64,
    /// The puzzle with `.` for blanks, or the raw text of an invalid record.
    pub puzzle: String,
    /// The count, or the error message (naming `source:line`) of an invalid
    /// record.
    pub result: Result<CountResult, String>,
}

impl CountRow {
    /// The status column.
    pub fn status(&self) -> &'static str {
        match &self.result {
            Ok(r) => r.status(),
            Err(_) => "invalid",
        }
    }

    /// The fields in [`COUNT_HEADER`] order; `solutions` is empty for an
    /// invalid record.
    pub fn fields(&self) -> [String; 5] {
        let (solutions, error) = match &self.result {
            Ok(r) => (r.solutions().to_string(), String::new()),
            Err(e) => (String::new(), e.clone()),
        };
        [
            self.index.to_string(),
            self.puzzle.clone(),
            self.status().to_string(),
            solutions,
            error,
        ]
    }
}

/// The row for one record: counted if it parsed, invalid otherwise.
pub fn count_one(solver: &mut Solver, opts: &CountOptions, record: &Record) -> CountRow {
    if let Some(pencilmarks) = &record.pencilmarks {
        return CountRow {
            index: record.index,
            puzzle: record.raw.clone(),
            result: Ok(count_pencilmarks(solver, opts, pencilmarks)),
        };
    }
    match &record.grid {
        Ok(grid) => CountRow {
            index: record.index,
            puzzle: grid.to_line(),
            result: count_record(solver, opts, grid)
                .map_err(|e| format!("{}:{}: {e}", record.source, record.line)),
        },
        Err(message) => CountRow {
            index: record.index,
            puzzle: record.raw.clone(),
            result: Err(message.clone()),
        },
    }
}

/// Runs `sudoflow count`.
///
/// Errors: an input cannot be opened or read, or the output cannot be
/// written (a closed stdout is reported as a broken pipe, which the binary
/// turns into a quiet exit 0).
pub fn run(args: CountArgs) -> anyhow::Result<ExitCode> {
    let count_opts = CountOptions {
        max: args.max,
        time_budget: args.time_budget,
    };
    let solve_opts = count_opts.solve_options();
    let opts = PipelineOptions {
        inputs: args.inputs,
        threads: cli::thread_count(args.threads),
        batch_size: args.batch_size.get(),
        progress: !args.quiet && std::io::stderr().is_terminal(),
    };
    pipeline::check_inputs(&opts.inputs)?;
    let mut sink = CsvSink::create(args.output.as_deref(), &opts.inputs)?;
    sink.write_record(COUNT_HEADER)?;

    let mut counts = [0u64; STATUSES.len()];
    let summary = pipeline::run(
        &opts,
        || Solver::new(solve_opts),
        |solver: &mut Solver, record: &Record| count_one(solver, &count_opts, record),
        |row: CountRow| {
            let slot = STATUSES.iter().position(|&s| s == row.status());
            counts[slot.expect("every status is listed")] += 1;
            sink.write_record(row.fields())
        },
    )?;
    sink.flush()?;
    let named: Vec<(&str, u64)> = STATUSES.iter().copied().zip(counts).collect();
    Ok(summary.finish(&named, args.quiet, args.strict))
}
