//! `sudoflow canon`: the minlex form, automorphism count and class of each
//! record, one CSV row per record, in input order.
//!
//! Records stream through [`crate::pipeline`] exactly as in `solve` (same
//! reader, worker pool, ordering and invalid rows); each worker reuses one
//! [`Canonicalizer`](crate::canon::Canonicalizer) (and, for pencilmark lines, a
//! [`PencilmarkCanonicalizer`](crate::canon::PencilmarkCanonicalizer)). The class of a record (the first record
//! with the same form) is looked up on the calling thread, in input order,
//! in a [`Classes`] set, so the output is the same for any `-j`. `-o` is
//! atomic and `--resume` continues a stopped run ([`crate::outfile`]): the
//! classes come back from the kept rows, and with `--distinct` (rows only
//! for first occurrences) the kept rows' indices may skip records.

use crate::canon::{line_digest, Classes};
use crate::interrupt;
use crate::opts;
use crate::outfile::{KeptRows, RunOutput, RunSpec};
use crate::pipeline::{self, Record};
pub use crate::rows::canon::{canon_one, CanonRow, CanonState, Form, CANON_HEADER};
use crate::rows::{Carried, Carry};
use std::process::ExitCode;

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
canonical, automorphisms and class_index. A pencilmark line (729 characters, tdoku's -p: per \
cell 9 characters, the digit if still possible, '.' if eliminated) is a puzzle given by its \
candidates: its form is the smallest such 729-character line ('.' before digits) among its \
transforms, and its classes are among pencilmark lines (a puzzle's 81-character line and the \
pencilmarks of its givens are not one class, but two puzzles are equivalent exactly when \
their givens' pencilmarks are).

With --keep COL,... the input's columns COL,... come first; with --source, source,line last.

Memory: the classes seen are kept as 128-bit digests with their first index: 29 to 57 bytes \
per distinct class (up to 86 while the table doubles), about 90 MB for a million distinct \
classes whatever the number of records; repeats cost nothing.

Exit codes: 0 the run completed; 1 --strict and some record was invalid (after the whole \
output is written); 2 usage or I/O error, e.g. a missing input (rows written so far stay in \
FILE.partial); 3 an internal error (a bug) on some record, whose row's error column says so \
(every other row is written); 130/143 stopped by SIGINT/SIGTERM, 129/131 by SIGHUP/SIGQUIT (FILE.partial is kept for --resume). With -o \
FILE the rows go to FILE.partial, renamed FILE once complete.

Examples:
  sudoflow canon datasets/puzzles2_17_clue.txt -o classes.csv
  sudoflow canon --distinct big.txt.gz -o unique.csv
  echo '.................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...' \\
    | sudoflow canon")]
pub struct CanonArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub input: opts::InputArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: opts::OutputArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub work: opts::WorkArgs,

    /// `--keep`, `--source` and `--distinct` (only the first record of each
    /// class gets a row: class_index = index).
    #[command(flatten)]
    pub map: opts::MapArgs,
}

/// Takes back what the rows `kept` say of the run so far: each first
/// occurrence's class (rows with `class_index` = `index`), the repeats
/// written (the others) and the invalid rows (no form).
///
/// Errors: the file cannot be read, or a row's numbers do not parse (a
/// damaged file).
fn take_back_classes(
    kept: &KeptRows,
    carry: &Carry,
    classes: &mut Classes,
    duplicates: &mut u64,
    invalid: &mut u64,
) -> anyhow::Result<()> {
    let mut rows = kept.read_back()?;
    let mut row = csv::ByteRecord::new();
    let number = |field: &[u8]| std::str::from_utf8(field).ok()?.parse::<u64>().ok();
    // The row's own columns come after the kept ones.
    let at = carry.keep.len();
    let columns = carry.header(&[]).len() + CANON_HEADER.len();
    let mut n = 0;
    while rows.read(&mut row, n + 1)? {
        n += 1;
        if row.len() != columns {
            // KeptRows reports the damage, naming the row.
            continue;
        }
        if row[at + 2].is_empty() {
            *invalid += 1;
            continue;
        }
        let (Some(index), Some(class)) = (number(&row[at]), number(&row[at + 4])) else {
            anyhow::bail!("cannot resume: row {n} of the kept rows is damaged");
        };
        if index == class {
            classes.first_of(line_digest(&row[at + 2]), index);
        } else {
            *duplicates += 1;
        }
    }
    Ok(())
}

/// Runs `sudoflow canon`.
///
/// Errors: an input cannot be opened or read, the output cannot be written
/// (a closed stdout is reported as a broken pipe, which the binary turns
/// into a quiet exit 0), or `--resume` is refused.
pub fn run(args: CanonArgs) -> anyhow::Result<ExitCode> {
    let own: Vec<String> = CANON_HEADER.iter().map(|h| h.to_string()).collect();
    let opts = opts::start_run(&args.input, &args.map, &own, &args.output, &args.work)?;
    let carry = args.map.carry();
    let distinct = args.map.distinct;
    let spec = RunSpec {
        command: "canon",
        resumable: true,
        inputs: args.input.sidecar_inputs(),
        options: [
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

    let mut classes = Classes::new();
    let (mut duplicates, mut invalid, mut errors) = (0u64, 0u64, 0u64);
    if let Some(k) = kept.as_mut() {
        if distinct {
            k.set_sparse();
        }
        take_back_classes(k, &carry, &mut classes, &mut duplicates, &mut invalid)?;
    }
    let mut check = |record: &Record| kept.as_mut().map_or(Ok(false), |k| k.check(record));
    let result = pipeline::run_resumed(
        &opts,
        Some(&mut check),
        CanonState::default,
        |state: &mut CanonState, record: &Record| {
            Carried::of(record, None, Some(canon_one(state, record)))
        },
        |e: pipeline::Emit<Carried<CanonRow>>| {
            let carried = match e {
                pipeline::Emit::Row(carried) => carried,
                pipeline::Emit::Flush => return out.flush(&mut sink),
            };
            let row = carried.row.as_ref().expect("canon works on every record");
            let mut line_no = itoa::Buffer::new();
            match &row.result {
                Ok(form) => {
                    let line = form.to_line();
                    let class = classes.first_of(line_digest(line.as_bytes()), row.index);
                    if class != row.index {
                        duplicates += 1;
                        if distinct {
                            return out.record_without_row(&mut sink);
                        }
                    }
                    let mut index = itoa::Buffer::new();
                    let mut automorphisms = itoa::Buffer::new();
                    let mut class_index = itoa::Buffer::new();
                    // --blank for a grid's blanks (a pencilmark line's dots
                    // are eliminated candidates, not blanks).
                    let puzzle = match form {
                        Form::Puzzle(_) if blank != b'.' => {
                            std::borrow::Cow::Owned(crate::output::with_blank(&row.puzzle, blank))
                        }
                        _ => std::borrow::Cow::Borrowed(row.puzzle.as_str()),
                    };
                    let own: [&[u8]; 6] = [
                        index.format(row.index).as_bytes(),
                        puzzle.as_bytes(),
                        line.as_bytes(),
                        automorphisms.format(form.automorphisms()).as_bytes(),
                        class_index.format(class).as_bytes(),
                        b"",
                    ];
                    sink.write_record(carried.fields(&carry, own, &mut line_no))?;
                    out.row_written(&mut sink)
                }
                Err(error) => {
                    match row.internal {
                        true => errors += 1,
                        false => invalid += 1,
                    }
                    let mut index = itoa::Buffer::new();
                    let own: [&[u8]; 6] = [
                        index.format(row.index).as_bytes(),
                        row.puzzle.as_bytes(),
                        b"",
                        b"",
                        b"",
                        error.as_bytes(),
                    ];
                    sink.write_record(carried.fields(&carry, own, &mut line_no))?;
                    out.row_written(&mut sink)
                }
            }
        },
    );
    let signal = interrupt::requested();
    let settled = result.and_then(|summary| {
        if let Some(k) = kept.as_mut() {
            if signal.is_none() {
                k.finish()?;
            }
            // Records skipped without a row of their own: repeats that
            // --distinct dropped.
            duplicates += summary.resumed - k.kept().min(summary.resumed);
        }
        Ok(summary)
    });
    let summary = match settled {
        Ok(summary) => summary,
        Err(e) => return Err(out.fail(sink, e)),
    };
    let counts = [
        ("classes", classes.len() as u64),
        // "repeats", as solve, rate, count and explain name them.
        ("repeats", duplicates),
        ("invalid", invalid),
        ("error", errors),
    ];
    if let Some(signal) = signal {
        return out.interrupted(sink, signal, &summary.line(&counts));
    }
    out.commit(sink)?;
    Ok(summary.finish(&counts, args.output.quiet, args.input.strict))
}
