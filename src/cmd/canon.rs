//! `sudoflow canon`: the minlex form, automorphism count and class of each
//! record, one CSV row per record, in input order.
//!
//! Records stream through [`crate::pipeline`] exactly as in `solve` (same
//! reader, worker pool, ordering and invalid rows); each worker reuses one
//! [`Canonicalizer`]. The class of a record (the first record with the same
//! form) is looked up on the calling thread, in input order, in a
//! [`Classes`] set, so the output is the same for any `-j`.

use crate::canon::{Canonical, Canonicalizer, Classes};
use crate::cli;
use crate::interrupt;
use crate::outfile::{RunOutput, RunSpec};
use crate::pipeline::{self, PipelineOptions, Record};
use anyhow::Context;
use std::io::IsTerminal;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;

/// The header of `canon`'s CSV, in column order.
pub const CANON_HEADER: [&str; 6] = [
    "index",
    "puzzle",
    "canonical",
    "automorphisms",
    "class_index",
    "error",
];

/// Options of `sudoflow canon`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Columns: index,puzzle,canonical,automorphisms,class_index,error. `canonical` is the minlex \
form: the smallest 81-character string, blanks written 0 so that they sort first, among all \
puzzles equivalent to the record by relabelling the digits, transposing, permuting rows \
within bands, bands, columns within stacks and stacks. Equivalent puzzles have the same form, \
others different ones. It is a function of the cells as given, no solving: clashing givens and \
puzzles with several or no solutions have one too, and a complete grid's is its minlex grid. \
`automorphisms` counts the transformations (position map and relabelling) that map the puzzle \
to itself, relabellings of digits the puzzle does not use included: 1 for a puzzle using all \
nine digits with no symmetry, 2 for one using eight. `class_index` is the index of the first \
record of this run with the same form (the record's own index for a first occurrence). A line \
that is not a puzzle (wrong length, bad character) gets a row with the error, empty \
canonical, automorphisms and class_index. So does a pencilmark line (729 characters): the form \
is defined on the 81 cells of a puzzle, not on candidates.

Memory: the classes seen are kept as 128-bit digests with their first index: 29 to 57 bytes \
per distinct class (up to 86 while the table doubles), about 90 MB for a million distinct \
classes whatever the number of records; repeats cost nothing.

Exit codes: 0 the run completed; 1 --strict and some record was invalid (after the whole \
output is written); 2 usage or I/O error, e.g. a missing input.

Examples:
  sudoflow canon datasets/puzzles2_17_clue.txt -o classes.csv
  sudoflow canon --distinct big.txt.gz -o unique.csv
  echo '.................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...' \\
    | sudoflow canon")]
pub struct CanonArgs {
    /// Puzzle files read in order as one stream ('-' or none: stdin).
    #[arg(
        value_name = "INPUT",
        long_help = "Puzzle files, read in order as one stream; '-' or no INPUT reads stdin. \
            The same records as `solve`: one puzzle per line (81 cells, '.', '0' or '_' \
            blank), '#' comments and blank lines skipped, text after a separator ignored, \
            sudoflow's own CSV read by its puzzle column, gzip read as is.\n\
            Example: sudoflow canon a.txt b.txt.gz -"
    )]
    pub inputs: Vec<PathBuf>,

    /// Write the CSV to FILE instead of stdout.
    #[arg(
        short,
        long,
        value_name = "FILE",
        long_help = "Write the CSV to FILE instead of stdout ('-' is stdout). The file is \
            created only once every input has been found.\n\
            Example: sudoflow canon puzzles.txt -o canon.csv"
    )]
    pub output: Option<PathBuf>,

    /// Worker threads [default: all cores].
    #[arg(
        short = 'j',
        long,
        value_name = "N",
        long_help = "Number of worker threads canonicalising in parallel [default: all \
            cores]. The output is byte-identical whatever N is.\n\
            Example: sudoflow canon -j 2 puzzles.txt"
    )]
    pub threads: Option<NonZeroUsize>,

    /// Keep the first record of each class only (and every invalid record).
    #[arg(
        long,
        long_help = "Write only the first record of each class (class_index = index): a \
            corpus without two equivalent puzzles. Invalid records still get their row. \
            Indices stay those of the input, so gaps show what was dropped.\n\
            Example: sudoflow canon --distinct corpus.txt -o distinct.csv"
    )]
    pub distinct: bool,

    /// Records per batch handed to a worker.
    #[arg(
        long,
        value_name = "N",
        default_value_t = NonZeroUsize::new(1024).expect("nonzero"),
        long_help = "Records per batch handed to a worker; memory holds about 4 x threads \
            batches.\n\
            Example: sudoflow canon --batch-size 256 puzzles.txt"
    )]
    pub batch_size: NonZeroUsize,

    /// No progress bar and no summary line on stderr.
    #[arg(
        short,
        long,
        long_help = "Print nothing on stderr but errors: no progress bar (shown only when \
            stderr is a terminal) and no summary line at the end.\n\
            Example: sudoflow canon -q puzzles.txt > canon.csv"
    )]
    pub quiet: bool,

    /// Exit 1 if any record is invalid (after writing everything).
    #[arg(
        long,
        long_help = "Exit with code 1 if any record is not a puzzle (bad length, bad \
            character). The whole output is still written first. Clashing givens are not \
            invalid here: their form is defined.\n\
            Example: sudoflow canon --strict puzzles.txt -o canon.csv || echo 'bad records'"
    )]
    pub strict: bool,
}

/// A worker's result for one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CanonRow {
    /// 1-based position of the record among all records.
    pub index: u64,
    /// The puzzle with `.` for blanks, or the raw text of an invalid record.
    pub puzzle: String,
    /// The form, or the error message (naming `source:line`) of an invalid
    /// record.
    pub result: Result<Canonical, String>,
}

/// The row for one record: its form if it parsed, its error otherwise.
pub fn canon_one(canon: &mut Canonicalizer, record: &Record) -> CanonRow {
    match &record.grid {
        Ok(grid) => CanonRow {
            index: record.index,
            puzzle: grid.to_line(),
            result: Ok(canon.canonicalize(grid)),
        },
        Err(message) => CanonRow {
            index: record.index,
            puzzle: record.raw.clone(),
            result: Err(message.clone()),
        },
    }
}

impl pipeline::FromPanic for CanonRow {
    /// An error row: no form, the panic in the error column. (Counted with
    /// the invalid rows in the summary for now.)
    fn from_panic(record: &Record, message: &str) -> CanonRow {
        CanonRow {
            index: record.index,
            puzzle: record.raw.clone(),
            result: Err(pipeline::panic_message(record, message)),
        }
    }
}

/// Runs `sudoflow canon`.
///
/// Errors: an input cannot be opened or read, or the output cannot be
/// written (a closed stdout is reported as a broken pipe, which the binary
/// turns into a quiet exit 0).
pub fn run(args: CanonArgs) -> anyhow::Result<ExitCode> {
    let opts = PipelineOptions {
        inputs: args.inputs,
        threads: cli::thread_count(args.threads),
        batch_size: args.batch_size.get(),
        progress: (!args.quiet && std::io::stderr().is_terminal()).then(cli::RecordsBar::hook),
    };
    pipeline::check_inputs(&opts.inputs)?;
    interrupt::install().context("cannot install the SIGINT/SIGTERM handlers")?;
    // Atomic -o and a clean stop on a signal; no --resume (see RunSpec).
    let spec = RunSpec {
        command: "canon",
        resumable: false,
        inputs: crate::cmd::solve::outfile_inputs(&opts.inputs),
        options: vec![("distinct", args.distinct.to_string())],
        header: CANON_HEADER.iter().map(|h| h.to_string()).collect(),
    };
    let (mut out, mut sink, _) = RunOutput::open(args.output.as_deref(), &spec, false)?;

    let mut classes = Classes::new();
    let (mut duplicates, mut invalid) = (0u64, 0u64);
    let result = pipeline::run(
        &opts,
        Canonicalizer::new,
        canon_one,
        |row: CanonRow| match &row.result {
            Ok(form) => {
                let class = classes.first_of(form.digest(), row.index);
                if class != row.index {
                    duplicates += 1;
                    if args.distinct {
                        return Ok(());
                    }
                }
                let mut index = itoa::Buffer::new();
                let mut automorphisms = itoa::Buffer::new();
                let mut class_index = itoa::Buffer::new();
                sink.write_record([
                    index.format(row.index).as_bytes(),
                    row.puzzle.as_bytes(),
                    form.to_line().as_bytes(),
                    automorphisms.format(form.automorphisms).as_bytes(),
                    class_index.format(class).as_bytes(),
                    b"",
                ])?;
                out.row_written(&mut sink)
            }
            Err(error) => {
                invalid += 1;
                let mut index = itoa::Buffer::new();
                sink.write_record([
                    index.format(row.index).as_bytes(),
                    row.puzzle.as_bytes(),
                    b"",
                    b"",
                    b"",
                    error.as_bytes(),
                ])?;
                out.row_written(&mut sink)
            }
        },
    );
    let summary = match result {
        Ok(summary) => summary,
        Err(e) => return Err(out.fail(sink, e)),
    };
    let counts = [
        ("classes", classes.len() as u64),
        ("duplicates", duplicates),
        ("invalid", invalid),
    ];
    if let Some(signal) = interrupt::requested() {
        return out.interrupted(sink, signal, &summary.line(&counts));
    }
    out.commit(sink)?;
    Ok(summary.finish(&counts, args.quiet, args.strict))
}
