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

use crate::canon::SharedClasses;
use crate::counting::solutions::CountOptions;
use crate::opts;
use crate::outfile::{RunOutput, RunSpec};
use crate::pipeline::{self, Emit, Record};
use crate::rows::{classify, resume_check, write_carried, Carried, RecordClasses};
use crate::solver::Solver;
use crate::work::{self, Budget};
use std::process::ExitCode;

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
more, exact), unsolvable (0; error says where the contradiction lies), capped (--limit N reached: the search stopped at the N-th \
solution, solutions = N means N or more, as `solve --limit N` writes it), \
timeout (--time-budget or --wall-limit ran out; solutions = those found so far, a lower \
bound), invalid (bad length or character, or clashing givens; solutions empty, error names \
source:line).
With --keep COL,... the input's columns COL,... come first; with --source, source,line last.

--time-budget is counted in work (search nodes, 10 million per second of budget: about a \
second of this project's reference host), not in wall time, so the rows are the same on an \
idle or a loaded machine; --wall-limit adds a wall-clock limit, whose rows depend on load.

Exit codes: 0 the run completed (whatever the statuses); 1 --strict and some record was \
invalid (after the whole output is written); 2 usage or I/O error, e.g. a missing input \
(rows written so far stay in FILE.partial); 3 an internal error (a bug) on some record, whose \
row has status 'error' (every other row is written); 130/143 stopped by SIGINT/SIGTERM, 129/131 by SIGHUP/SIGQUIT \
(FILE.partial is kept for --resume). With -o FILE the rows go to FILE.partial, renamed FILE \
once complete.

Examples:
  sudoflow count puzzles.txt --limit 1000000 --time-budget 10 -o counts.csv
  echo '.................................................................................' \\
    | sudoflow count --time-budget 0.5")]
pub struct CountArgs {
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

    /// Stop counting a record at its N-th solution (status 'capped': N or more) [default: no cap].
    #[arg(
        long,
        alias = "max",
        value_name = "N",
        value_parser = clap::value_parser!(u64).range(1..),
        long_help = "Stop counting a record at its N-th solution: it gets status 'capped' \
            and solutions N, meaning N or more (as `solve --limit N` writes it: the same \
            option there, whose default is 2). Records with fewer than N solutions are \
            counted exactly. Default: no cap.\n\
            Example: --limit 1000"
    )]
    pub limit: Option<u64>,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub budget: opts::BudgetArgs,
}

pub use crate::rows::count::{count_one, CountRow, COUNT_HEADER};

/// Runs `sudoflow count`.
///
/// Errors: an input cannot be opened or read, or the output cannot be
/// written (a closed stdout is reported as a broken pipe, which the binary
/// turns into a quiet exit 0).
pub fn run(args: CountArgs) -> anyhow::Result<ExitCode> {
    let count_opts = CountOptions {
        max: args.limit,
        budget: Budget {
            work: args.budget.time_budget.map(work::solver_nodes),
            wall: args.budget.wall_limit,
        },
    };
    let solve_opts = count_opts.solve_options();
    let own: Vec<String> = COUNT_HEADER.iter().map(|h| h.to_string()).collect();
    let opts = opts::start_run(&args.input, &args.map, &own, &args.output, &args.work)?;
    let carry = args.map.carry();
    let spec = RunSpec {
        command: "count",
        resumable: true,
        inputs: args.input.sidecar_inputs(),
        options: [
            ("limit", opts::value_text(args.limit)),
            ("time-budget", opts::duration_text(args.budget.time_budget)),
            ("wall-limit", opts::duration_text(args.budget.wall_limit)),
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
    let blank = args.input.blank;

    let work = |solver: &mut Solver, record: &Record| {
        let mut row = count_one(solver, &count_opts, record);
        if record.grid.is_ok() {
            row.puzzle = crate::output::with_blank(&row.puzzle, blank);
        }
        row
    };
    let classes = args.map.distinct.then(SharedClasses::new);
    if let (Some(k), true) = (kept.as_mut(), args.map.distinct) {
        k.set_sparse();
    }
    // Slots: STATUSES, then the repeats --distinct gave no row.
    let mut counts = [0u64; STATUSES.len() + 1];
    let mut check = resume_check(kept.as_mut(), classes.as_ref());
    let result = pipeline::run_resumed(
        &opts,
        Some(&mut check),
        || (Solver::new(solve_opts), RecordClasses::default()),
        |(state, canon): &mut (Solver, RecordClasses), record: &Record| {
            classify(classes.as_ref(), canon, state, record, work)
        },
        |e: Emit<Carried<CountRow>>| match e {
            Emit::Row(carried) => {
                let fields = |row: &CountRow| Vec::from(row.fields());
                match write_carried(&mut sink, &carry, classes.as_ref(), &carried, fields)? {
                    Some(row) => {
                        let slot = STATUSES.iter().position(|&s| s == row.status());
                        counts[slot.expect("every status is listed")] += 1;
                        out.row_written(&mut sink)
                    }
                    None => {
                        counts[STATUSES.len()] += 1;
                        out.record_without_row(&mut sink)
                    }
                }
            }
            Emit::Flush => out.flush(&mut sink),
        },
    );
    drop(check);
    out.finish_with_repeats(
        sink,
        result,
        kept.as_mut(),
        &STATUSES,
        &mut counts,
        args.output.quiet,
        args.input.strict,
    )
}
