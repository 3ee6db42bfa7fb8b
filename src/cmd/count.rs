//! `sudoflow count`: the exact number of solutions of each record, one CSV
//! row per input record, in input order.
//!
//! Records stream through [`crate::pipeline`] exactly as in `solve` (same
//! reader, worker pool, ordering and invalid rows); each worker reuses one
//! [`Solver`] and counts with
//! [`count_record`](crate::counting::solutions::count_record) (the row:
//! [`crate::rows::count`]). Columns:
//! `index,puzzle,status,solutions,error`; statuses and the meaning of
//! `solutions` are tabled in [`crate::counting::solutions`].

use crate::cli;
use crate::counting::solutions::CountOptions;
use crate::interrupt;
use crate::outfile::{RunOutput, RunSpec};
use crate::pipeline::{self, Emit, PipelineOptions, Record};
use crate::solver::Solver;
use crate::work::{self, Budget};
use anyhow::Context;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Statuses in the order the summary line lists them.
const STATUSES: [&str; 7] = [
    "unique",
    "multiple",
    "unsolvable",
    "capped",
    "timeout",
    "invalid",
    "error",
];

/// Options of `sudoflow count`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Columns: index,puzzle,status,solutions,error. Statuses: unique (1 solution), multiple (2 or \
more, exact), unsolvable (0), capped (--max N reached: the search stopped at the N-th \
solution, solutions = N means N or more, as `solve --limit N` writes it), \
timeout (--time-budget or --wall-limit ran out; solutions = those found so far, a lower \
bound), invalid (bad length or character, or clashing givens; solutions empty, error names \
source:line).

--time-budget is counted in work (search nodes, 10 million per second of budget: about a \
second of this project's reference host), not in wall time, so the rows are the same on an \
idle or a loaded machine; --wall-limit adds a wall-clock limit, whose rows depend on load.

Exit codes: 0 the run completed (whatever the statuses); 1 --strict and some record was \
invalid (after the whole output is written); 2 usage or I/O error, e.g. a missing input \
(rows written so far stay in FILE.partial); 3 an internal error (a bug) on some record, whose \
row has status 'error' (every other row is written); 130/143 stopped by SIGINT/SIGTERM \
(FILE.partial is kept for --resume). With -o FILE the rows go to FILE.partial, renamed FILE \
once complete.

Examples:
  sudoflow count puzzles.txt --max 1000000 --time-budget 10 -o counts.csv
  echo '.................................................................................' \\
    | sudoflow count --time-budget 0.5")]
pub struct CountArgs {
    /// Puzzle files read in order as one stream ('-' or none: stdin).
    #[arg(
        value_name = "INPUT",
        long_help = "Puzzle files, read in order as one stream; '-' or no INPUT reads stdin. \
            The same records as `solve`: one puzzle per line (81 cells, '.', '0', '_', \
            '-', '*' or 'x' blank), pasted grids (cells between spaces or '|', 9 lines of 9), '#' comments and blank lines skipped, text after a separator ignored, \
            gzip and zip read as is. A field of 729 characters is a puzzle given by its candidates \
            (tdoku's -p pencilmarks), counted from them.\n\
            Example: sudoflow count a.txt b.txt.gz -"
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
            Example: sudoflow count puzzles.txt -o counts.csv"
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
        long_help = "Number of worker threads counting in parallel [default: all cores]. The \
            output is identical whatever N is (with --wall-limit, timeouts aside).\n\
            Example: sudoflow count -j 2 puzzles.txt"
    )]
    pub threads: Option<NonZeroUsize>,

    /// Stop counting a record at its N-th solution (status 'capped': N or more).
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u64).range(1..),
        long_help = "Stop counting a record at its N-th solution: it gets status 'capped' \
            and solutions N, meaning N or more (the convention of `solve --limit N`, whose \
            'solutions' column is also N or more once it reaches N). Records with fewer than \
            N solutions are counted exactly. Default: no cap.\n\
            Example: sudoflow count --max 1000 puzzles.txt"
    )]
    pub max: Option<u64>,

    /// Give up on a record after SECS seconds of reference work (status 'timeout').
    #[arg(
        long,
        value_name = "SECS",
        value_parser = crate::cli::parse_budget,
        long_help = "Give up on a record after SECS seconds of work (decimals allowed, or a \
            unit: 500ms, 2m): it gets status 'timeout' and solutions holds those found so \
            far, a lower bound. The budget is counted in search nodes, 10 million per second \
            (about a second of this project's reference host; faster machines take less \
            time), so a record runs out at the same point, with the same row, whatever the \
            machine's load and -j. Default: no budget (a record with very many solutions, \
            like the empty grid, then runs until stopped).\n\
            Example: sudoflow count --time-budget 2.5 puzzles.txt"
    )]
    pub time_budget: Option<Duration>,

    /// Also give up on a record after TIME of wall time (rows then depend on load).
    #[arg(
        long,
        value_name = "TIME",
        value_parser = crate::cli::parse_budget,
        long_help = "Also give up on a record after TIME of wall time (status 'timeout'), \
            counted from about a millisecond into its search. Unlike --time-budget, which \
            is counted in work, a record may then get another row on a loaded or slower \
            machine, or on a resume. Default: none.\n\
            Example: sudoflow count --time-budget 10 --wall-limit 1m puzzles.txt"
    )]
    pub wall_limit: Option<Duration>,

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
            Example: sudoflow count -q puzzles.txt > counts.csv"
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
            Example: sudoflow count big.txt -o big.csv --resume"
    )]
    pub resume: bool,

    /// Exit 1 if any record is invalid (after writing everything).
    #[arg(
        long,
        long_help = "Exit with code 1 if any record is invalid (bad length, bad character, \
            clashing givens). The whole output is still written first.\n\
            Example: sudoflow count --strict puzzles.txt -o counts.csv || echo 'bad records'"
    )]
    pub strict: bool,
}

pub use crate::rows::count::{count_one, CountRow, COUNT_HEADER};

/// Runs `sudoflow count`.
///
/// Errors: an input cannot be opened or read, or the output cannot be
/// written (a closed stdout is reported as a broken pipe, which the binary
/// turns into a quiet exit 0).
pub fn run(args: CountArgs) -> anyhow::Result<ExitCode> {
    let count_opts = CountOptions {
        max: args.max,
        budget: Budget {
            work: args.time_budget.map(work::solver_nodes),
            wall: args.wall_limit,
        },
    };
    let solve_opts = count_opts.solve_options();
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
        command: "count",
        resumable: true,
        inputs: crate::cmd::solve::outfile_inputs(&opts.inputs),
        options: vec![
            ("max", format!("{:?}", args.max)),
            ("time-budget", format!("{:?}", args.time_budget)),
            ("wall-limit", format!("{:?}", args.wall_limit)),
            ("blank", char::from(args.blank).to_string()),
            ("column", format!("{:?}", args.column.column)),
        ],
        header: COUNT_HEADER.iter().map(|h| h.to_string()).collect(),
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
        || Solver::new(solve_opts),
        |solver: &mut Solver, record: &Record| {
            let mut row = count_one(solver, &count_opts, record);
            if record.grid.is_ok() {
                row.puzzle = crate::output::with_blank(&row.puzzle, args.blank);
            }
            row
        },
        |e: Emit<CountRow>| match e {
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
