//! `sudoflow rate`: Sudoku Explainer ratings (ER/EP/ED), one CSV row per
//! input record, in input order.
//!
//! Records stream through [`crate::pipeline`] as in `solve`. Each worker
//! keeps a [`Solver`](crate::solver::Solver) (to check that the puzzle has
//! exactly one solution, which SE's uniqueness techniques assume) and a
//! [`Rater`](crate::rating::se::Rater); the row is made in
//! [`crate::rows::rate`]. Columns:
//! `index,puzzle,status,er,ep,ed,technique,steps,error`.

use crate::opts;
use crate::outfile::{RunOutput, RunSpec};
use crate::pipeline::{self, Emit, Record};
use std::process::ExitCode;

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
    pub budget: opts::BudgetArgs,
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
        time: Some(args.budget.time_budget.unwrap_or(DEFAULT_BUDGET)),
        wall: args.budget.wall_limit,
    };
    let opts = opts::start_run(&args.input, &args.output, &args.work)?;
    let spec = RunSpec {
        command: "rate",
        resumable: true,
        inputs: args.input.sidecar_inputs(),
        options: vec![
            ("time-budget", opts::duration_text(limits.time)),
            ("wall-limit", opts::duration_text(limits.wall)),
            ("blank", char::from(args.input.blank).to_string()),
            ("column", args.input.column_text()),
        ],
        header: RATE_HEADER.iter().map(|h| h.to_string()).collect(),
        format: args.output.resolve_format(),
    };
    let (mut out, mut sink, mut kept) =
        RunOutput::open(args.output.output.as_deref(), &spec, args.output.resume)?;
    opts::note_terminal_stdin(&opts.inputs, args.output.quiet);
    let blank = args.input.blank;

    let mut counts = [0u64; STATUSES.len()];
    let mut check = |record: &Record| kept.as_mut().map_or(Ok(false), |k| k.check(record));
    let result = pipeline::run_resumed(
        &opts,
        Some(&mut check),
        || RateState::new(limits),
        |state: &mut RateState, record: &Record| {
            let mut row = rate_record(state, record);
            if record.grid.is_ok() {
                row.puzzle = crate::output::with_blank(&row.puzzle, blank);
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
        args.output.quiet,
        args.input.strict,
    )
}
