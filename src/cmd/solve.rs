//! `sudoflow solve`: one CSV row per input record, in input order.
//!
//! Records stream through [`crate::pipeline`]; each worker reuses one
//! [`Solver`]. The row is [`SolveRow`], written with
//! [`SolveRow::fill_record`] (no allocation per row).

use crate::canon::SharedClasses;
use crate::opts;
use crate::outfile::{KeptRows, RunOutput, RunSpec};
use crate::output::{CsvBuffer, CsvSink, Format, SolveRow, Status, SOLVE_HEADER};
use crate::pipeline::{self, Emit, PipelineOptions, Record};
use crate::rating::se::Rater;
use crate::rows::{classify, resume_check, Carried, Carry, RecordClasses};
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
  error       why a record is invalid, or where an unsolvable one's contradiction lies (source:line and the problem: 'no solution: r4c5 has no candidate left after propagation').
Fields that do not apply are empty: an invalid row has only index, puzzle, status, error.
With --keep COL,... the input's columns COL,... come first; with --source, source,line last.

Exit codes: 0 the run completed (whatever the statuses); 1 --strict and some record was \
invalid (after the whole output is written); 2 usage or I/O error, e.g. a missing input \
(rows written so far stay in FILE.partial); 3 an internal error (a bug) on some record, whose \
row has status 'error' (every other row is written); 130/143 stopped by SIGINT/SIGTERM, 129/131 by SIGHUP/SIGQUIT \
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

    #[command(flatten)]
    #[allow(missing_docs)]
    pub map: opts::MapArgs,

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
            and locked candidates to a fixed point (with hidden pairs before the first guess where \
            50 or more cells are open); 'matching' adds deletion of forbidden \
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

/// What frames a run's rows: the columns they carry (`--keep`,
/// `--source`) and, with `--distinct`, the classes claimed.
#[derive(Clone, Copy)]
struct Frame<'a> {
    carry: &'a Carry,
    classes: Option<&'a SharedClasses>,
}

/// A row `solve` writes: a [`SolveRow`], or one with its `--se` columns,
/// either carried ([`Carried`]) or not.
trait Row: Send + pipeline::FromPanic {
    /// Writes the row to `sink` between `before` and `after` fields (the
    /// carried columns); returns its status.
    ///
    /// Errors: the sink's.
    fn write_between(
        &self,
        sink: &mut CsvSink,
        before: &[&[u8]],
        after: &[&[u8]],
    ) -> anyhow::Result<Status>;

    /// Writes the row as `frame` frames it; returns its status, or `None`
    /// when the record gets no row (a repeat of a class, `--distinct`).
    ///
    /// Errors: the sink's.
    fn write(&self, sink: &mut CsvSink, frame: Frame<'_>) -> anyhow::Result<Option<Status>> {
        let _ = frame;
        self.write_between(sink, &[], &[]).map(Some)
    }
}

impl Row for SolveRow {
    fn write_between(
        &self,
        sink: &mut CsvSink,
        before: &[&[u8]],
        after: &[&[u8]],
    ) -> anyhow::Result<Status> {
        if before.is_empty() && after.is_empty() {
            sink.write_solve_row(self)?;
        } else {
            sink.write_solve_row_between(before.iter().copied(), self, after.iter().copied())?;
        }
        Ok(self.status)
    }
}

impl Row for WithSe {
    fn write_between(
        &self,
        sink: &mut CsvSink,
        before: &[&[u8]],
        after: &[&[u8]],
    ) -> anyhow::Result<Status> {
        let WithSe(row, se) = self;
        let se = se.iter().map(|f| f.as_bytes());
        sink.write_solve_row_between(before.iter().copied(), row, se.chain(after.iter().copied()))?;
        Ok(row.status)
    }
}

impl<R: Row> Row for Carried<R> {
    fn write_between(
        &self,
        sink: &mut CsvSink,
        before: &[&[u8]],
        after: &[&[u8]],
    ) -> anyhow::Result<Status> {
        let row = self
            .row
            .as_ref()
            .expect("a carried row is written through write");
        row.write_between(sink, before, after)
    }

    fn write(&self, sink: &mut CsvSink, frame: Frame<'_>) -> anyhow::Result<Option<Status>> {
        let Some(row) = self.written(frame.classes) else {
            return Ok(None);
        };
        let mut line = itoa::Buffer::new();
        let fields: Vec<&[u8]> = self.fields(frame.carry, [], &mut line).collect();
        let (before, after) = fields.split_at(frame.carry.keep.len());
        row.write_between(sink, before, after).map(Some)
    }
}

/// `solve`'s CSV rows, formatted by the thread that made them
/// ([`pipeline::run_formatted`]), counted by status; with the columns the
/// rows carry (never `--distinct`, which the calling thread decides).
struct SolveCsv(CsvBuffer, Carry);

impl<T: Row> pipeline::Formatter<T> for SolveCsv {
    type Tally = Counts;

    fn row(&mut self, row: T, counts: &mut Counts) -> anyhow::Result<()> {
        let frame = Frame {
            carry: &self.1,
            classes: None,
        };
        let status = row.write(self.0.sink(), frame)?;
        count(
            counts,
            status.expect("rows without classes are all written"),
        );
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
    /// Records that got no row: repeats of a class (`--distinct`).
    repeats: &'a mut u64,
    blank: u8,
    frame: Frame<'a>,
}

/// Runs the pipeline with `work` making each record's row: formatted on the
/// workers ([`pipeline::run_formatted`]) where the inputs, the format and a
/// fresh run allow it (and not `--distinct`, whose classes are settled in
/// input order), else written in order on this thread
/// ([`pipeline::run_resumed`], which also resumes; with `--distinct` the
/// records skipped claim their classes again).
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
        kept,
        counts,
        repeats,
        blank,
        frame,
    } = w;
    // A resumed run checks its kept rows record by record: the other path.
    if kept.is_none()
        && frame.classes.is_none()
        && format == Format::Csv
        && pipeline::formats_on_workers(opts)
    {
        return pipeline::run_formatted(
            opts,
            make_state,
            work,
            || SolveCsv(CsvBuffer::new(blank), frame.carry.clone()),
            |bytes: &[u8], tally: Counts| {
                for (total, n) in counts.iter_mut().zip(tally) {
                    *total += n;
                }
                sink.write_formatted(bytes)?;
                out.rows_written(sink, tally.iter().sum())
            },
        );
    }
    let mut check = resume_check(kept, frame.classes);
    pipeline::run_resumed(
        opts,
        Some(&mut check),
        make_state,
        work,
        |e: Emit<T>| match e {
            Emit::Row(row) => match row.write(sink, frame)? {
                Some(status) => {
                    count(counts, status);
                    out.row_written(sink)
                }
                None => {
                    *repeats += 1;
                    out.record_without_row(sink)
                }
            },
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
    let mut own: Vec<String> = SOLVE_HEADER.iter().map(|h| h.to_string()).collect();
    if args.se {
        own.extend(["er", "ep", "ed"].map(String::from));
    }
    let opts = opts::start_run(&args.input, &args.map, &own, &args.output, &args.work)?;
    let limits = crate::cmd::rate::RateLimits {
        time: Some(args.se_budget.unwrap_or(crate::cmd::rate::DEFAULT_BUDGET)),
        wall: args.se_wall_limit,
    };
    let carry = args.map.carry();
    let spec = RunSpec {
        command: "solve",
        resumable: true,
        inputs: args.input.sidecar_inputs(),
        options: [
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
            ("puzzle", args.input.puzzle_text()),
        ]
        .into_iter()
        .chain(args.map.sidecar_options())
        .collect(),
        header: carry.header(&own),
        text_columns: carry.keep.clone(),
        format: args.output.resolve_format(),
    };
    let (mut out, mut sink, mut kept) =
        RunOutput::open(args.output.output.as_deref(), &spec, args.output.resume)?;
    opts::note_terminal_stdin(&opts, args.output.quiet);
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
    let classes = args.map.distinct.then(SharedClasses::new);
    if let (Some(k), true) = (kept.as_mut(), args.map.distinct) {
        k.set_sparse();
    }
    let mut counts: Counts = [0; STATUSES.len()];
    let mut repeats = 0u64;
    let frame = Frame {
        carry: &carry,
        classes: classes.as_ref(),
    };
    let writing = Writing {
        sink: &mut sink,
        out: &mut out,
        kept: kept.as_mut(),
        counts: &mut counts,
        repeats: &mut repeats,
        blank,
        frame,
    };
    let framed = !carry.is_empty() || args.map.distinct;
    let result = match (args.se, framed) {
        (true, false) => {
            let make_state = || (Solver::new(solve_opts), Rater::new());
            let work = |(solver, rater): &mut (Solver, Rater), record: &Record| {
                let mut row = solve_record(solver, record);
                let se = se_columns(rater, &mut row, &limits);
                WithSe(row, se)
            };
            run_rows(&opts, spec.format, make_state, work, writing)
        }
        (true, true) => {
            let make_state = || {
                (
                    Solver::new(solve_opts),
                    Rater::new(),
                    RecordClasses::default(),
                )
            };
            let work = |(solver, rater, canon): &mut (Solver, Rater, RecordClasses),
                        record: &Record| {
                classify(classes.as_ref(), canon, solver, record, |solver, record| {
                    let mut row = solve_record(solver, record);
                    let se = se_columns(rater, &mut row, &limits);
                    WithSe(row, se)
                })
            };
            run_rows(&opts, spec.format, make_state, work, writing)
        }
        (false, false) => {
            let make_state = || Solver::new(solve_opts);
            run_rows(&opts, spec.format, make_state, solve_record, writing)
        }
        (false, true) => {
            let make_state = || (Solver::new(solve_opts), RecordClasses::default());
            let work = |(solver, canon): &mut (Solver, RecordClasses), record: &Record| {
                classify(classes.as_ref(), canon, solver, record, solve_record)
            };
            run_rows(&opts, spec.format, make_state, work, writing)
        }
    };
    let mut all: Vec<u64> = counts.to_vec();
    all.push(repeats);
    out.finish_with_repeats(
        sink,
        result,
        kept.as_mut(),
        &STATUSES.map(Status::as_str),
        &mut all,
        args.output.quiet,
        args.input.strict,
    )
}
