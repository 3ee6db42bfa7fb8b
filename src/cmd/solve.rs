//! `sudoflow solve`: one CSV row per input record, in input order.
//!
//! Records stream through [`crate::pipeline`]; each worker reuses one
//! [`Solver`]. The row is [`SolveRow`], written with
//! [`SolveRow::fill_record`] (no allocation per row).

use crate::opts;
use crate::outfile::{KeptRows, RunOutput, RunSpec};
use crate::output::{CsvBuffer, CsvSink, Format, SolveRow, Status, SOLVE_HEADER};
use crate::pipeline::{self, Emit, PipelineOptions, Record};
use crate::rating::se::Rater;
use crate::solver::{Prune, SolveOptions, Solver};
use std::process::ExitCode;

/// Options of `sudoflow solve`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Columns: index,puzzle,status,solutions,solution,clues,wnf,wnf_level,guesses,backtracks,error \
(with --se: er,ep,ed after error).
  index       the record's 1-based position among all records;
  puzzle      the 81 cells, '.' for blanks (--blank for another), or an invalid record's text;
  status      unique, multiple (2 or more), unsolvable, invalid, stuck (--no-guess), solved \
(--limit 1: a solution, uniqueness not checked);
  solutions   exact below --limit N; N means N or more;
  solution    the first solution found;
  clues       the number of givens;
  wnf         how few candidates the givens leave (the modelling paper's WNF: mean of \
2^candidates / 512 over the empty cells); not a difficulty (use --se or `sudoflow rate`);
  wnf_level   WNF's band 1-4 in the paper;
  guesses     branch points the solver took (it tracks difficulty far better than wnf);
  backtracks  dead ends it met;
  error       why a record is invalid (source:line and the problem).
Fields that do not apply are empty: an invalid row has only index, puzzle, status, error.

Exit codes: 0 the run completed (whatever the statuses); 1 --strict and some record was \
invalid (after the whole output is written); 2 usage or I/O error, e.g. a missing input \
(rows written so far stay in FILE.partial); 3 an internal error (a bug) on some record, whose \
row has status 'error' (every other row is written); 130/143 stopped by SIGINT/SIGTERM \
(FILE.partial is kept for --resume). With -o FILE the rows go to FILE.partial, renamed FILE \
once complete.

Examples:
  sudoflow solve datasets/sample.txt -o out.csv
  cat a.txt b.txt.gz | sudoflow solve > out.csv")]
pub struct SolveArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub input: opts::InputArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: opts::OutputArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub work: opts::WorkArgs,

    /// Count solutions up to N [default: 2].
    #[arg(
        long,
        value_name = "N",
        default_value_t = 2,
        hide_default_value = true,
        value_parser = clap::value_parser!(u64).range(1..),
        long_help = opts::LIMIT_HELP
    )]
    pub limit: u64,

    /// Propagation before each guess.
    #[arg(
        long,
        value_enum,
        value_name = "LEVEL",
        default_value_t = Prune::default(),
        long_help = "Propagation before each guess: 'basic' is naked singles, hidden singles \
            and locked candidates to a fixed point; 'matching' adds deletion of forbidden \
            edges (all-different matching) whenever basic propagation stalls; 'matching-root' \
            does that before the first guess only. 'basic' is the default because it is the \
            fastest on every public set (BENCHMARKS.md, section Solver).\n\
            Example: --prune matching"
    )]
    pub prune: Prune,

    /// Propagate only, never guess: unfinished puzzles get status 'stuck'.
    #[arg(
        long,
        long_help = "Propagate to a fixed point and never guess. A puzzle that propagation \
            alone does not finish gets status 'stuck' (its solution column stays empty).\n\
            Example: --no-guess --prune matching"
    )]
    pub no_guess: bool,

    /// Add Sudoku Explainer's rating: columns er, ep, ed (as `sudoflow rate` gives them).
    #[arg(
        long,
        long_help = "Rate every puzzle with one solution on Sudoku Explainer's scale and add \
            the columns er, ep, ed after 'error' (one decimal, as `sudoflow rate` and SE's \
            serate print them; empty for other statuses). A puzzle whose rating runs out of \
            --se-budget gets empty columns and an error saying so.\n\
            Example: --se -o solved-and-rated.csv"
    )]
    pub se: bool,

    /// Work allowed to rate one puzzle with --se [default: 10s].
    #[arg(
        long,
        value_name = "TIME",
        requires = "se",
        value_parser = opts::parse_budget,
        allow_negative_numbers = true,
        long_help = "Work allowed to rate one puzzle with --se, counted in work like `rate \
            --time-budget` (so the row is the same whatever the load) [default: 10s].\n\
            Example: --se --se-budget 1m"
    )]
    pub se_budget: Option<std::time::Duration>,

    /// Also stop rating a puzzle with --se after TIME of wall time (rows then depend on load).
    #[arg(
        long,
        value_name = "TIME",
        requires = "se",
        value_parser = opts::parse_budget,
        allow_negative_numbers = true,
        long_help = "Also stop rating a puzzle with --se after TIME of wall time. Unlike \
            --se-budget, which is counted in work, a puzzle may then get other columns on a \
            loaded or slower machine. Default: none.\n\
            Example: --se --se-wall-limit 1m"
    )]
    pub se_wall_limit: Option<std::time::Duration>,
}

/// Per-status counts, in the order the summary line lists them.
const STATUSES: [Status; 8] = [
    Status::Unique,
    Status::Multiple,
    Status::Solved,
    Status::Unsolvable,
    Status::Stuck,
    Status::Timeout,
    Status::Invalid,
    Status::Error,
];

pub use crate::rows::solve::{se_columns, solve_record};

/// A row of `solve --se`: the solve row and the er, ep, ed columns.
struct WithSe(SolveRow, [String; 3]);

/// Rows per status, in [`STATUSES`] order.
type Counts = [u64; STATUSES.len()];

/// Counts `status` in `counts`.
fn count(counts: &mut Counts, status: Status) {
    let slot = STATUSES.iter().position(|&s| s == status);
    counts[slot.expect("every status is listed")] += 1;
}

/// A row `solve` writes: a [`SolveRow`], or one with its `--se` columns.
trait Row: Send + pipeline::FromPanic {
    /// Writes the row to `sink`; returns its status.
    ///
    /// Errors: the sink's.
    fn write(&self, sink: &mut CsvSink) -> anyhow::Result<Status>;
}

impl Row for SolveRow {
    fn write(&self, sink: &mut CsvSink) -> anyhow::Result<Status> {
        sink.write_solve_row(self)?;
        Ok(self.status)
    }
}

impl Row for WithSe {
    fn write(&self, sink: &mut CsvSink) -> anyhow::Result<Status> {
        let WithSe(row, se) = self;
        sink.write_solve_row_with(row, &[&se[0], &se[1], &se[2]])?;
        Ok(row.status)
    }
}

/// `solve`'s CSV rows, formatted by the thread that made them
/// ([`pipeline::run_formatted`]), counted by status.
struct SolveCsv(CsvBuffer);

impl<T: Row> pipeline::Formatter<T> for SolveCsv {
    type Tally = Counts;

    fn row(&mut self, row: T, counts: &mut Counts) -> anyhow::Result<()> {
        count(counts, row.write(self.0.sink())?);
        Ok(())
    }

    fn take(&mut self) -> anyhow::Result<Vec<u8>> {
        self.0.take()
    }
}

/// Where a run's rows go: the output, its bookkeeping, the counts.
struct Writing<'a> {
    sink: &'a mut CsvSink,
    out: &'a mut RunOutput,
    kept: Option<&'a mut KeptRows>,
    counts: &'a mut Counts,
    blank: u8,
}

/// Runs the pipeline with `work` making each record's row: formatted on the
/// workers ([`pipeline::run_formatted`]) where the inputs, the format and a
/// fresh run allow it, else written in order on this thread
/// ([`pipeline::run_resumed`], which also resumes).
fn run_rows<S, T: Row>(
    opts: &PipelineOptions,
    format: Format,
    make_state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &Record) -> T + Sync,
    w: Writing<'_>,
) -> anyhow::Result<pipeline::Summary> {
    let Writing {
        sink,
        out,
        mut kept,
        counts,
        blank,
    } = w;
    // A resumed run checks its kept rows record by record: the other path.
    if kept.is_none() && format == Format::Csv && pipeline::formats_on_workers(opts) {
        return pipeline::run_formatted(
            opts,
            make_state,
            work,
            || SolveCsv(CsvBuffer::new(blank)),
            |bytes: &[u8], tally: Counts| {
                for (total, n) in counts.iter_mut().zip(tally) {
                    *total += n;
                }
                sink.write_formatted(bytes)?;
                out.rows_written(sink, tally.iter().sum())
            },
        );
    }
    let mut check = |record: &Record| kept.as_mut().map_or(Ok(false), |k| k.check(record));
    pipeline::run_resumed(
        opts,
        Some(&mut check),
        make_state,
        work,
        |e: Emit<T>| match e {
            Emit::Row(row) => {
                count(counts, row.write(sink)?);
                out.row_written(sink)
            }
            Emit::Flush => out.flush(sink),
        },
    )
}

impl pipeline::FromPanic for WithSe {
    fn from_panic(record: &Record, message: &str) -> WithSe {
        WithSe(SolveRow::error(record, message), Default::default())
    }
}

/// Runs `sudoflow solve`.
///
/// Errors: an input cannot be opened or read, or the output cannot be
/// written (a closed stdout is reported as a broken pipe, which the binary
/// turns into a quiet exit 0).
pub fn run(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let solve_opts = SolveOptions {
        limit: args.limit,
        prune: args.prune,
        guess: !args.no_guess,
        budget: crate::work::Budget::NONE,
    };
    let opts = opts::start_run(&args.input, &args.output, &args.work)?;
    let limits = crate::cmd::rate::RateLimits {
        time: Some(args.se_budget.unwrap_or(crate::cmd::rate::DEFAULT_BUDGET)),
        wall: args.se_wall_limit,
    };
    let mut header: Vec<String> = SOLVE_HEADER.iter().map(|h| h.to_string()).collect();
    if args.se {
        header.extend(["er", "ep", "ed"].map(String::from));
    }
    let spec = RunSpec {
        command: "solve",
        resumable: true,
        inputs: args.input.sidecar_inputs(),
        options: vec![
            ("limit", args.limit.to_string()),
            (
                "prune",
                clap::ValueEnum::to_possible_value(&args.prune)
                    .map_or_else(String::new, |v| v.get_name().to_string()),
            ),
            ("no-guess", args.no_guess.to_string()),
            ("se", args.se.to_string()),
            (
                "se-budget",
                opts::duration_text(limits.time.filter(|_| args.se)),
            ),
            ("se-wall-limit", opts::duration_text(limits.wall)),
            ("blank", char::from(args.input.blank).to_string()),
            ("column", args.input.column_text()),
        ],
        header,
        format: args.output.resolve_format(),
    };
    let (mut out, mut sink, mut kept) =
        RunOutput::open(args.output.output.as_deref(), &spec, args.output.resume)?;
    opts::note_terminal_stdin(&opts.inputs, args.output.quiet);
    sink.set_blank(args.input.blank);
    let blank = args.input.blank;
    // A clash row's puzzle column is the parsed puzzle: it takes --blank too.
    let solve_record = |solver: &mut Solver, record: &Record| {
        let mut row = solve_record(solver, record);
        if record.grid.is_ok() && row.puzzle.is_none() {
            row.raw = crate::output::with_blank(&row.raw, blank);
        }
        row
    };
    let mut counts: Counts = [0; STATUSES.len()];
    let writing = Writing {
        sink: &mut sink,
        out: &mut out,
        kept: kept.as_mut(),
        counts: &mut counts,
        blank,
    };
    let result = if args.se {
        let solve_and_rate = |(solver, rater): &mut (Solver, Rater), record: &Record| {
            let mut row = solve_record(solver, record);
            let se = se_columns(rater, &mut row, &limits);
            WithSe(row, se)
        };
        let make_state = || (Solver::new(solve_opts), Rater::new());
        run_rows(&opts, spec.format, make_state, solve_and_rate, writing)
    } else {
        let make_state = || Solver::new(solve_opts);
        run_rows(&opts, spec.format, make_state, solve_record, writing)
    };
    let names = STATUSES.map(Status::as_str);
    out.finish(
        sink,
        result,
        kept.as_mut(),
        &names,
        &mut counts,
        args.output.quiet,
        args.input.strict,
    )
}
