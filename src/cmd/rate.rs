//! `sudoflow rate`: Sudoku Explainer ratings (ER/EP/ED), one CSV row per
//! input record, in input order.
//!
//! Records stream through [`crate::pipeline`] as in `solve`. Each worker
//! keeps a [`Solver`](crate::solver::Solver) (to check that the puzzle has
//! exactly one solution, which SE's uniqueness techniques assume) and a
//! [`Rater`](crate::rating::se::Rater); the row is made in
//! [`crate::rows::rate`]. Columns:
//! `index,puzzle,status,er,ep,ed,technique,steps,error`.

use crate::cli;
use crate::interrupt;
use crate::outfile::{RunOutput, RunSpec};
use crate::pipeline::{self, Emit, PipelineOptions, Record};
use anyhow::Context;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Statuses in the order the summary line lists them.
const STATUSES: [&str; 6] = [
    "rated",
    "multiple",
    "unsolvable",
    "timeout",
    "invalid",
    "error",
];

/// Options of `sudoflow rate`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Columns: index,puzzle,status,er,ep,ed,technique,steps,error.
  er  the rating: the hardest step on SE's solution path (Sudoku Explainer 1.2.1.3's %r);
  ep  the pearl: the hardest step up to the first value placed (%p);
  ed  the diamond: the first step (%d);
  all three with one decimal as serate prints them; technique is SE's name of the step that
  set er, steps the number of steps of the path.
Statuses: rated; multiple (2+ solutions: SE's uniqueness techniques do not apply, no rating);
unsolvable (no solution); timeout (--time-budget or --wall-limit ran out; error says after \
how many steps);
invalid (bad length or character, or clashing givens; error names source:line).

Exit codes: 0 the run completed (whatever the statuses); 1 --strict and some record was \
invalid (after the whole output is written); 2 usage or I/O error, e.g. a missing input \
(rows written so far stay in FILE.partial); 3 an internal error (a bug) on some record, whose \
row has status 'error' (every other row is written); 130/143 stopped by SIGINT/SIGTERM \
(FILE.partial is kept for --resume). With -o FILE the rows go to FILE.partial, renamed FILE \
once complete.

Examples:
  sudoflow rate puzzles.txt -o rated.csv
  sudoflow generate -n 1000 --seed 1 | sudoflow rate -j 2 --time-budget 30")]
pub struct RateArgs {
    /// Puzzle files read in order as one stream ('-' or none: stdin).
    #[arg(
        value_name = "INPUT",
        long_help = "Puzzle files, read in order as one stream; '-' or no INPUT reads stdin. \
            The same records as `solve`: one puzzle per line (81 cells, '.', '0', '_', \
            '-', '*' or 'x' blank), pasted grids (cells between spaces or '|', 9 lines of 9), '#' comments and blank lines skipped, text after a separator ignored \
            (so 'puzzle ED=7.1/1.2/1.2' lines are read), Kaggle and sudoflow CSVs, gzip, zip. \
            A pencilmark line (729 characters, tdoku's -p) is rated from its candidates: a \
            cell with one candidate is a given, the others keep the candidates given (less \
            what the givens remove), and SE's steps go on from there.\n\
            Example: sudoflow rate a.txt b.txt.gz -"
    )]
    pub inputs: Vec<PathBuf>,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub column: crate::cli::ColumnArg,

    /// Write the CSV to FILE instead of stdout.
    #[arg(
        short,
        long,
        value_name = "FILE",
        long_help = "Write the CSV to FILE instead of stdout ('-' is stdout). The rows go to \
            FILE.partial, created once every input has been found, and renamed FILE (after \
            an fsync) only when the run completes: FILE is never left half-written, and an \
            older FILE stays until then.\n\
            Example: sudoflow rate puzzles.txt -o rated.csv"
    )]
    pub output: Option<PathBuf>,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub format: crate::cli::FormatArg,

    /// Worker threads [default: all cores].
    #[arg(
        value_parser = crate::cli::parse_threads,
        short = 'j',
        long,
        value_name = "N",
        long_help = "Number of worker threads rating in parallel [default: all cores]. The \
            output is byte-identical whatever N is (with --wall-limit, timeouts aside).\n\
            Example: sudoflow rate -j 1 puzzles.txt"
    )]
    pub threads: Option<NonZeroUsize>,

    /// Give up on a puzzle after TIME of reference work (status 'timeout') [default: 10s].
    #[arg(
        long,
        value_name = "TIME",
        value_parser = crate::cli::parse_budget,
        long_help = "Give up on a puzzle after TIME of work: it gets status 'timeout' and the \
            run goes on. TIME is a number with an optional unit: 90, 90s, 500ms, 2m, 1h \
            [default: 10s]. The budget is counted in work, not wall time: 10 million units of \
            the chaining techniques' work per second (about a second of this project's \
            reference host), so a puzzle runs out at the same step, with the same row, \
            whatever the machine's load and -j. Puzzles rated 9.5 and above (nested forcing \
            chains) take the longest; most others take milliseconds.\n\
            Example: sudoflow rate --time-budget 1m hardest.txt"
    )]
    pub time_budget: Option<Duration>,

    /// Also give up on a puzzle after TIME of wall time (rows then depend on load).
    #[arg(
        long,
        value_name = "TIME",
        value_parser = crate::cli::parse_budget,
        long_help = "Also give up on a puzzle after TIME of wall time (status 'timeout'). \
            Unlike --time-budget, which is counted in work, a puzzle may then get another \
            row on a loaded or slower machine, or on a resume. Default: none.\n\
            Example: sudoflow rate --wall-limit 1m hardest.txt"
    )]
    pub wall_limit: Option<Duration>,

    /// Records per batch handed to a worker.
    #[arg(
        long,
        value_name = "N",
        default_value_t = NonZeroUsize::new(16).expect("nonzero"),
        long_help = "Records per batch handed to a worker. Ratings take from microseconds \
            to seconds, so batches are small to keep the workers evenly busy.\n\
            Example: sudoflow rate --batch-size 256 easy.txt"
    )]
    pub batch_size: NonZeroUsize,

    /// Write blanks in the output's puzzle column as CHAR ('.', '0' or '_').
    #[arg(
        long,
        value_name = "CHAR",
        default_value = ".",
        value_parser = crate::cli::parse_blank,
        long_help = crate::cli::BLANK_HELP
    )]
    pub blank: u8,

    /// No progress bar and no summary line on stderr.
    #[arg(
        short,
        long,
        long_help = "Print nothing on stderr but errors: no progress bar (shown only when \
            stderr is a terminal) and no summary line at the end.\n\
            Example: sudoflow rate -q puzzles.txt > rated.csv"
    )]
    pub quiet: bool,

    /// Continue an interrupted run from FILE.partial (same inputs and options).
    #[arg(
        long,
        requires = "output",
        long_help = "Continue an interrupted run (a signal, a kill, a failed read) from \
            FILE.partial, the rows it kept: the inputs and the options that shape the rows \
            must be those of that run (-j, --batch-size and -q may differ), else the resume \
            is refused, saying what differs. The records whose rows are kept are read again \
            and checked, not worked on again; the final FILE is the one an uninterrupted run \
            writes. Without FILE.partial the run starts afresh.\n\
            Example: sudoflow rate big.txt -o big.csv --resume"
    )]
    pub resume: bool,

    /// Exit 1 if any record is invalid (after writing everything).
    #[arg(
        long,
        long_help = "Exit with code 1 if any record is invalid (bad length, bad character, \
            clashing givens). The whole output is still written first.\n\
            Example: sudoflow rate --strict puzzles.txt -o rated.csv || echo 'bad records'"
    )]
    pub strict: bool,
}

pub use crate::rows::rate::{
    rate_record, RateLimits, RateOutcome, RateRow, RateState, DEFAULT_BUDGET, RATE_HEADER,
};

/// Runs `sudoflow rate`.
///
/// Errors: an input cannot be opened or read, or the output cannot be
/// written (a closed stdout is reported as a broken pipe, which the binary
/// turns into a quiet exit 0).
pub fn run(args: RateArgs) -> anyhow::Result<ExitCode> {
    let limits = RateLimits {
        time: Some(args.time_budget.unwrap_or(DEFAULT_BUDGET)),
        wall: args.wall_limit,
    };
    let opts = PipelineOptions {
        inputs: args.inputs,
        column: args.column.column.clone(),
        threads: cli::thread_count(args.threads),
        batch_size: args.batch_size.get(),
        progress: cli::progress(args.quiet, args.output.as_deref()),
    };
    pipeline::check_inputs(&opts.inputs, opts.column.as_ref())?;
    interrupt::install().context("cannot install the SIGINT/SIGTERM handlers")?;
    let spec = RunSpec {
        command: "rate",
        resumable: true,
        inputs: crate::cmd::solve::outfile_inputs(&opts.inputs),
        options: vec![
            ("time-budget", format!("{:?}", limits.time)),
            ("wall-limit", format!("{:?}", limits.wall)),
            ("blank", char::from(args.blank).to_string()),
            ("column", format!("{:?}", args.column.column)),
        ],
        header: RATE_HEADER.iter().map(|h| h.to_string()).collect(),
        format: args.format.resolve(args.output.as_deref()),
    };
    let (mut out, mut sink, mut kept) =
        RunOutput::open(args.output.as_deref(), &spec, args.resume)?;
    cli::note_terminal_stdin(&opts.inputs, args.quiet);

    let mut counts = [0u64; STATUSES.len()];
    let mut check = |record: &Record| kept.as_mut().map_or(Ok(false), |k| k.check(record));
    let result = pipeline::run_resumed(
        &opts,
        Some(&mut check),
        || RateState::new(limits),
        |state: &mut RateState, record: &Record| {
            let mut row = rate_record(state, record);
            if record.grid.is_ok() {
                row.puzzle = crate::output::with_blank(&row.puzzle, args.blank);
            }
            row
        },
        |e: Emit<RateRow>| match e {
            Emit::Row(row) => {
                let slot = STATUSES.iter().position(|&s| s == row.status());
                counts[slot.expect("every status is listed")] += 1;
                sink.write_record(row.fields())?;
                out.row_written(&mut sink)
            }
            Emit::Flush => out.flush(&mut sink),
        },
    );
    out.finish(
        sink,
        result,
        kept.as_mut(),
        &STATUSES,
        &mut counts,
        args.quiet,
        args.strict,
    )
}
