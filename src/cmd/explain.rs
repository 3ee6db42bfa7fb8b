//! `sudoflow explain`: the path Sudoku Explainer follows through each
//! puzzle, step by step, each step with the facts of SE's hint (the cells
//! it names, the value placed, the candidates removed, its chains of
//! implications) and told in words.
//!
//! Puzzles given on the command line are explained one after another;
//! files (or stdin) stream through [`crate::pipeline`] as in `rate`, one
//! object (or text block) per record in input order, the same bytes for
//! any `-j`. Each record's work is `rate`'s with the steps kept
//! ([`crate::rows::explain`]): the rating is made once and its chains are
//! kept as the searches found them.

use crate::canon::SharedClasses;
use crate::exit;
use crate::opts;
use crate::outfile::{RunOutput, RunSpec};
use crate::output::CsvSink;
use crate::pipeline::{self, Emit, Record};
use crate::rows::explain::{explain_record, ExplainRow, Origin, EXPLAIN_HEADER};
use crate::rows::rate::{RateLimits, RateState, DEFAULT_BUDGET};
use crate::rows::{classify, resume_check, Carried, Carry, RecordClasses};
use anyhow::bail;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// Statuses in the order the summary line lists them (`rate`'s).
const STATUSES: [&str; 6] = [
    "rated",
    "multiple",
    "unsolvable",
    "timeout",
    "invalid",
    "error",
];

/// Output formats of `explain`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// For people: a summary, then each step's line and the step in words.
    Text,
    /// One pretty-printed JSON object per puzzle.
    Json,
    /// JSON Lines: one JSON object per record, on one line.
    #[value(alias = "ndjson")]
    Jsonl,
    /// A picture of one step (SVG); with -o DIR, one file per step.
    Svg,
    /// One self-contained HTML page with every step's picture.
    Html,
}

impl Format {
    /// `--format`, else the one `-o`'s extension names (`.jsonl`,
    /// `.ndjson` or `.json`: JSON Lines, as for every command), else text.
    fn resolve(explicit: Option<Format>, output: Option<&Path>) -> Format {
        if let Some(f) = explicit {
            return f;
        }
        let ext = output
            .and_then(Path::extension)
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("jsonl" | "ndjson" | "json") => Format::Jsonl,
            Some("svg") => Format::Svg,
            Some("html" | "htm") => Format::Html,
            _ => Format::Text,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Jsonl => "jsonl",
            Format::Svg => "svg",
            Format::Html => "html",
        }
    }
}

/// Options of `sudoflow explain`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Each step is one hint of Sudoku Explainer 1.2.1.3, found the way SE finds it: techniques tried \
from the easiest, the first hint applied. A step's result is the value placed (r4c2=1) or the \
candidates removed (r1c3<>9). ER is the hardest step, EP the hardest up to the first value \
placed, ED the first step; `sudoflow rate` gives the same three numbers.

Each step carries the facts of SE's hint: its rating (SE's own double: 6.699999999999999 is \
SE's 6.7), technique, the cells SE's hint names (a pair's cells, a wing's pivot and pincers, a \
loop's cells, a chain's start), the value placed, the candidates removed, and for chains \
(cycles, forcing chains, Nishio, cell, region, contradiction, double and dynamic forcing \
chains) each chain as SE lists it: implications {\"if\": [[cell, digit, on], ...], \"then\": \
[cell, digit, on], \"why\": \"cell\"|\"row\"|\"column\"|\"block\"|\"\"}, on true for 'holds the \
digit'; why is the rule: one digit per cell or the last one left in it, once per unit or the \
last place left in it (\"\": another technique inside a dynamic chain).

JSON keys (json and jsonl): index, puzzle, status, er, ep, ed, technique, hardest_step, steps \
(the array of steps: rating, technique, cells, placed, removed, chains), error; with --keep \
COL,... the input's columns COL,... come first, with --source source and line last (in text, \
a line each before the puzzle's). Statuses are rate's: rated; multiple; unsolvable; timeout (error says after how many steps); invalid (error \
names source:line); error (a bug).

Exit codes, puzzles given as arguments: 0 explained; 1 a puzzle is not one (invalid, said \
why), has no solution or more than one, or its budget ran out (in text and json, the others \
explained; jsonl writes its row and exits 1 too). Files, stdin and -p (a record with its row, as in `rate -p`): as rate's (0 the run \
completed, whatever the statuses; 1 --strict and an invalid record; 2 usage or I/O error; 3 \
an internal error; 130/143 stopped by SIGINT/SIGTERM, 129/131 by SIGHUP/SIGQUIT, see --resume).

Pictures (--format svg, html; one puzzle, the first record of a file): the candidate grid before the step, the pattern's cells shaded, the candidates the step removes struck through in red, the value it places ringed in green, and its chains as arrows from cause to effect: solid for a strong link (the candidate pointed to must be true), dashed for a weak link (it must be false). Digits in black are givens, in blue values placed by earlier steps. The page (html) lists the steps; the arrow keys move between them, and it loads nothing from elsewhere.

Examples:
  sudoflow explain 8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..
  sudoflow explain puzzles.txt -o explained.jsonl -j 2
  sudoflow explain PUZZLE --format svg > hardest.svg
  sudoflow explain PUZZLE --format svg -o steps/     (steps/step-001.svg, ...)
  sudoflow explain PUZZLE --format html -o explained.html
  head -1 puzzles.txt | sudoflow explain --format json | jq '.steps[] | select(.rating >= 6)'")]
pub struct ExplainArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub input: opts::InputArgs,

    /// Output format: text, json, jsonl, svg or html [default: -o's extension, else text].
    #[arg(
        long,
        value_enum,
        ignore_case = true,
        value_name = "FORMAT",
        long_help = "Output format: 'text', for people: per puzzle a summary, then per step \
            its line (number, rating, technique, result) and the step in words, chains \
            implication by implication; 'json', one pretty-printed JSON object per puzzle \
            (several puzzles make a stream of objects, which jq reads); 'jsonl', JSON Lines: \
            one object per record on one line, in input order, which --resume continues. \
            'svg', the picture of one step (--step, by default the hardest), or with -o DIR \
            one file per step (DIR/step-001.svg ...); 'html', one page with every step's \
            picture, opened at --step. svg and html draw one puzzle (the first record of a \
            file). Without --format, -o's extension decides: .jsonl, .ndjson or .json write \
            JSON Lines, .svg and .html those, anything else text.\n\
            Example: puzzles.txt --format jsonl | jq -c '.steps | length'"
    )]
    pub format: Option<Format>,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: opts::OutputFileArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub work: opts::WorkArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub budget: opts::BudgetArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub map: opts::MapArgs,

    /// svg, html: the step to draw or open at, from 1 [default: the hardest step].
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u64).range(1..),
        long_help = "With --format svg, the step drawn (with -o DIR, the one file written); \
            with --format html, the step the page opens at. Steps count from 1; the default is \
            the hardest step (the first rated ER). With --format svg, -o names a directory \
            that gets one picture per step (step-001.svg, ...), unless it ends in .svg: then \
            the one picture of this step.\n\
            Example: --format svg --step 12 -o step12.svg"
    )]
    pub step: Option<u64>,
}

/// `INPUT`'s long help for `explain`: puzzles or files.
pub const INPUTS_HELP: &str = "Puzzles to explain, given on the command line (81 cells \
    row-major, 1-9 givens, '.', '0', '_', '-', '*', 'x' or 'X' blanks; text after whitespace, \
    ',', ';' or ':' is ignored), or puzzle files read in order as one stream, as `rate` reads \
    them ('-' or none: stdin; CSV columns, gzip and zip, pencilmark lines; every record gets \
    exactly one row, an invalid one says why). An argument that is no file and holds only \
    the characters of a puzzle is a puzzle.\n\
    Example: puzzles.txt.gz; '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......'";

/// Whether the argument `arg` is a puzzle rather than a file: no file of
/// that name, and its first field (up to whitespace, `,`, `;` or `:`) holds
/// only a puzzle's characters.
fn is_puzzle(arg: &Path) -> bool {
    if arg.as_os_str() == "-" || arg.exists() {
        return false;
    }
    let text = arg.to_string_lossy();
    first_field(&text)
        .chars()
        .all(|c| c.is_ascii_digit() || ".-_*xX".contains(c))
}

/// The records of a puzzle given on the command line (`-p`, or an
/// argument), read as `-p` reads it ([`reader::for_each_text_item`]): one
/// line, a pasted grid, 729 candidates; an invalid record says why.
///
/// Errors: none in practice (text is read from memory).
fn text_records(text: &str) -> anyhow::Result<Vec<Record>> {
    let mut records = Vec::new();
    crate::pipeline::reader::for_each_text_item(text, &[], |item| {
        if let crate::pipeline::reader::Item::Record(record) = item {
            records.push(record);
        }
        std::ops::ControlFlow::Continue(())
    })?;
    Ok(records)
}

/// The puzzle field of an argument.
fn first_field(text: &str) -> &str {
    text.trim()
        .split(|c: char| c.is_whitespace() || ",;:".contains(c))
        .next()
        .unwrap_or("")
}

/// What the record's row is written as, made on the worker that explained
/// it: the JSON Lines fields, or the text or JSON document.
enum Done {
    Fields(&'static str, Box<[String; 10]>),
    Document(&'static str, String),
    /// A row made by the pipeline after a panic, formatted when emitted.
    Row(Box<ExplainRow>),
}

impl pipeline::FromPanic for Done {
    fn from_panic(record: &Record, message: &str) -> Done {
        Done::Row(Box::new(ExplainRow::from_panic(record, message)))
    }
}

/// The row in `format`, the documents (text, json) with what the record
/// carries (`origin`; JSON Lines' fields get theirs as they are written).
fn format_row(row: ExplainRow, format: Format, origin: &Origin<'_>) -> Done {
    let status = row.status();
    match format {
        Format::Jsonl => Done::Fields(status, Box::new(row.fields())),
        Format::Json => Done::Document(status, row.json_pretty_from(origin)),
        // Pictures are drawn by `pictures::run`, never as rows; text
        // stands in should a row of theirs be formatted.
        Format::Text | Format::Svg | Format::Html => Done::Document(status, row.text_from(origin)),
    }
}

/// Writes one record's output (`carried`'s, with what it carries as
/// `carry` asks); returns its status. Text blocks after the first are set
/// apart by a blank line.
fn write_done(
    carried: &Carried<Done>,
    done: Done,
    carry: &Carry,
    format: Format,
    sink: &mut CsvSink,
    first: &mut bool,
) -> anyhow::Result<&'static str> {
    let done = match done {
        Done::Row(row) => {
            let origin = Origin::new(carry, &carried.kept, &carried.source, carried.line);
            format_row(*row, format, &origin)
        }
        d => d,
    };
    let status = match done {
        Done::Fields(status, fields) => {
            let mut line = itoa::Buffer::new();
            let own = fields.iter().map(|f| f.as_bytes());
            sink.write_record(carried.fields(carry, own, &mut line))?;
            status
        }
        Done::Document(status, text) => {
            if format == Format::Text && !*first {
                sink.write_formatted(b"\n")?;
            }
            sink.write_formatted(text.as_bytes())?;
            status
        }
        Done::Row(_) => unreachable!("formatted above"),
    };
    *first = false;
    Ok(status)
}

/// Runs `sudoflow explain`.
///
/// Errors: a puzzle on the command line cannot be read, puzzles and files
/// are mixed, an input cannot be opened or read, or the output cannot be
/// written.
pub fn run(args: ExplainArgs) -> anyhow::Result<ExitCode> {
    let limits = RateLimits {
        time: Some(args.budget.time_budget.unwrap_or(DEFAULT_BUDGET)),
        wall: args.budget.wall_limit,
    };
    let format = Format::resolve(args.format, args.output.output.as_deref());
    if args.step.is_some() && !matches!(format, Format::Svg | Format::Html) {
        bail!("--step chooses the step of --format svg or html");
    }
    let (puzzles, files): (Vec<&PathBuf>, Vec<&PathBuf>) =
        args.input.inputs.iter().partition(|p| is_puzzle(p));
    if matches!(format, Format::Svg | Format::Html) {
        if let Some(option) = args.map.named() {
            bail!("{option} maps rows to their records: --format svg and html draw one puzzle");
        }
        return pictures::run(&args, &puzzles, format == Format::Svg, limits);
    }
    if let Some(missing) = files
        .iter()
        .find(|f| !puzzles.is_empty() && f.as_os_str() != "-" && !f.exists())
    {
        bail!(
            "{:?} is neither a puzzle (its cells are 1-9 and . 0 _ - * x X) nor a file there is",
            missing.display().to_string()
        );
    }
    if !puzzles.is_empty() && !files.is_empty() {
        bail!(
            "explain takes puzzles or files, not both: {:?} is a file (or stdin), {:?} a puzzle",
            files[0].display().to_string(),
            puzzles[0].display().to_string()
        );
    }
    if !puzzles.is_empty() {
        return run_puzzles(&args, &puzzles, format, limits);
    }
    if args.output.resume && format != Format::Jsonl {
        bail!(
            "--resume continues JSON Lines runs: write --format jsonl (or -o FILE.jsonl) to \
             be able to resume"
        );
    }
    // The row machinery's format: JSON Lines for jsonl (typed fields from
    // EXPLAIN_HEADER), else documents written as they are.
    let rows_format = if format == Format::Jsonl {
        crate::output::Format::Jsonl
    } else {
        crate::output::Format::Csv
    };
    let output = args.output.with_format(rows_format);
    let own: Vec<String> = EXPLAIN_HEADER.iter().map(|h| h.to_string()).collect();
    let opts = opts::start_run(&args.input, &args.map, &own, &output, &args.work)?;
    let carry = args.map.carry();
    let spec = RunSpec {
        command: "explain",
        resumable: format == Format::Jsonl,
        inputs: args.input.sidecar_inputs(),
        options: vec![
            ("time-budget", opts::duration_text(limits.time)),
            ("wall-limit", opts::duration_text(limits.wall)),
            ("blank", char::from(args.input.blank).to_string()),
            ("column", args.input.column_text()),
            ("puzzle", args.input.puzzle_text()),
            ("format", format.name().to_string()),
        ]
        .into_iter()
        .chain(args.map.sidecar_options())
        .collect(),
        header: if format == Format::Jsonl {
            carry.header(&own)
        } else {
            Vec::new()
        },
        text_columns: if format == Format::Jsonl {
            carry.keep.clone()
        } else {
            Vec::new()
        },
        format: rows_format,
    };
    let (mut out, mut sink, mut kept) =
        RunOutput::open(output.output.as_deref(), &spec, output.resume)?;
    opts::note_terminal_stdin(&opts, output.quiet);
    let blank = args.input.blank;
    let classes = args.map.distinct.then(SharedClasses::new);
    if let (Some(k), true) = (kept.as_mut(), args.map.distinct) {
        k.set_sparse();
    }
    // Slots: STATUSES, then the repeats --distinct gave no row.
    let mut counts = [0u64; STATUSES.len() + 1];
    let mut first = true;
    let mut check = resume_check(kept.as_mut(), classes.as_ref());
    let work = |state: &mut RateState, record: &Record| {
        let mut row = explain_record(state, record);
        if record.grid.is_ok() {
            row.rate.puzzle = crate::output::with_blank(&row.rate.puzzle, blank);
        }
        format_row(row, format, &Origin::of(&carry, record))
    };
    let result = pipeline::run_resumed(
        &opts,
        Some(&mut check),
        || (RateState::explaining(limits), RecordClasses::default()),
        |(state, canon): &mut (RateState, RecordClasses), record: &Record| {
            classify(classes.as_ref(), canon, state, record, work)
        },
        |e: Emit<Carried<Done>>| match e {
            Emit::Row(mut carried) => {
                let written = carried.written(classes.as_ref()).is_some();
                match carried.row.take().filter(|_| written) {
                    Some(done) => {
                        let status =
                            write_done(&carried, done, &carry, format, &mut sink, &mut first)?;
                        let slot = STATUSES.iter().position(|&s| s == status);
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
        output.quiet,
        args.input.strict,
    )
}

/// Explains the puzzles given on the command line, in order, each read as
/// `-p` reads its puzzle. In text and json, a puzzle that is not one or
/// cannot be explained is said on stderr (exit 1 at the end); jsonl writes
/// its row.
fn run_puzzles(
    args: &ExplainArgs,
    puzzles: &[&PathBuf],
    format: Format,
    limits: RateLimits,
) -> anyhow::Result<ExitCode> {
    use anyhow::Context;
    if args.output.resume {
        bail!("--resume continues a run over files: puzzles on the command line are not resumed");
    }
    // Each argument read as -p reads its puzzle (pasted cells, a grid on 9
    // lines); one that is not a puzzle is a record too, said like one that
    // cannot be explained (its row in jsonl).
    // Each is named `argument N`, its records by their lines in it (an
    // argument can hold several: two lines of cells), so that `--source`
    // names each row's record apart.
    let mut records = Vec::with_capacity(puzzles.len());
    for (i, arg) in puzzles.iter().enumerate() {
        let source: Arc<str> = Arc::from(format!("argument {}", i + 1));
        let mut of_arg = text_records(&arg.to_string_lossy())?;
        if of_arg.is_empty() {
            // Blanks: a record saying so (found by probing: no row, exit 0).
            of_arg.push(Record {
                index: 0,
                source: Arc::clone(&source),
                line: 1,
                raw: String::new(),
                grid: Err(format!(
                    "{}:1: holds no puzzle",
                    crate::pipeline::reader::TEXT_NAME
                )),
                pencilmarks: None,
                kept: Vec::new(),
            });
        }
        for mut record in of_arg {
            record.index = records.len() as u64 + 1;
            record.source = Arc::clone(&source);
            if let Err(e) = &mut record.grid {
                // Named as the argument it is, not as -p's `<puzzle>:1`,
                // with the line, as every record is named (`argument 2:1`
                // for clashing givens, found later: found by probing, the
                // two spellings were mixed).
                if let Some(rest) = e.strip_prefix(crate::pipeline::reader::TEXT_NAME) {
                    let why = rest.split_once(": ").map_or(rest, |(_, why)| why);
                    *e = format!("argument {}:{}: {why}", i + 1, record.line);
                }
            }
            records.push(record);
        }
    }
    let rows_format = if format == Format::Jsonl {
        crate::output::Format::Jsonl
    } else {
        crate::output::Format::Csv
    };
    let own: Vec<String> = EXPLAIN_HEADER.iter().map(|h| h.to_string()).collect();
    let carry = args.map.carry();
    carry.check(&own).map_err(anyhow::Error::msg)?;
    let spec = RunSpec {
        command: "explain",
        resumable: false,
        inputs: Vec::new(),
        options: vec![("format", format.name().to_string())],
        header: if format == Format::Jsonl {
            carry.header(&own)
        } else {
            Vec::new()
        },
        text_columns: if format == Format::Jsonl {
            carry.keep.clone()
        } else {
            Vec::new()
        },
        format: rows_format,
    };
    crate::interrupt::install().context("cannot install the signal handlers")?;
    let (mut out, mut sink, _) = RunOutput::open(args.output.output.as_deref(), &spec, false)?;
    let mut state = RateState::explaining(limits);
    let blank = args.input.blank;
    let mut failed = false;
    let mut first = true;
    // --distinct: the classes of the puzzles explained so far.
    let mut canon = RecordClasses::default();
    let mut seen = std::collections::HashSet::new();
    for record in &records {
        if let Some(signal) = crate::interrupt::requested() {
            return out.interrupted(sink, signal, "stopped between puzzles");
        }
        if args.map.distinct && canon.digest(record).is_some_and(|d| !seen.insert(d)) {
            continue;
        }
        let mut row = explain_record(&mut state, record);
        row.rate.puzzle = crate::output::with_blank(&row.rate.puzzle, blank);
        // Exit 1 in every format (jsonl says why in the row, not on stderr).
        failed |= row.explanation.is_none();
        if row.explanation.is_none() && format != Format::Jsonl {
            // As for one puzzle always: the reason on stderr, exit 1.
            let why = row
                .unexplained(record)
                .expect("a row without an explanation");
            if records.len() > 1 {
                eprintln!("sudoflow: puzzle {}: {why}", record.index);
            } else {
                eprintln!("sudoflow: {why}");
            }
            failed = true;
            continue;
        }
        let done = format_row(row, format, &Origin::of(&carry, record));
        let carried = Carried::of(record, None, None);
        write_done(&carried, done, &carry, format, &mut sink, &mut first)?;
        out.row_written(&mut sink)?;
    }
    out.commit(sink)?;
    Ok(ExitCode::from(if failed {
        exit::FAILURE
    } else {
        exit::OK
    }))
}

/// `--format svg|html`: pictures of one puzzle's steps.
mod pictures {
    use super::{first_field, ExplainArgs};
    use crate::cmd::print::{
        stale_note, stopped_before_writing, write_output, write_set, SetWritten,
    };
    use crate::exit;
    use crate::grid::Grid;
    use crate::pipeline::reader;
    use crate::rating::se::{self, RateError, Rater, Rating};
    use crate::render::{html, step as steps, svg};
    use crate::rows::explain::Unexplained;
    use crate::rows::rate::{RateLimits, RateOutcome, RateState};
    use anyhow::{bail, Context};
    use std::ops::ControlFlow;
    use std::path::PathBuf;
    use std::process::ExitCode;

    /// The one puzzle: the argument, or the first record of the inputs.
    fn puzzle(args: &ExplainArgs, puzzles: &[&PathBuf]) -> anyhow::Result<Grid> {
        // -p PUZZLE (clap refuses it beside inputs).
        // Read as -p reads it (pasted cells, a grid on 9 lines).
        let one = |text: &str| -> anyhow::Result<Grid> {
            let records = super::text_records(text)?;
            let record = records
                .into_iter()
                .next()
                .with_context(|| format!("cannot read the puzzle {text:?}: it holds none"))?;
            record.grid.map_err(|e| {
                let why = e.split_once(": ").map_or(e.as_str(), |(_, why)| why);
                anyhow::anyhow!("cannot read the puzzle {:?}: {why}", first_field(text))
            })
        };
        if let Some(text) = &args.input.puzzle {
            return one(text);
        }
        match puzzles {
            [one_text] => return one(&one_text.to_string_lossy()),
            [_, _, ..] => bail!(
                "--format svg and html draw one puzzle: give one (or a file, whose first \
                 record is drawn)"
            ),
            [] => {}
        }
        let inputs = if args.input.inputs.is_empty() {
            vec![PathBuf::from("-")]
        } else {
            args.input.inputs.clone()
        };
        let mut first = None;
        reader::for_each_item(
            &inputs,
            args.input.column.as_ref(),
            &[],
            |item| match item {
                reader::Item::Record(r) => {
                    first = Some(r);
                    ControlFlow::Break(())
                }
                reader::Item::Waiting => ControlFlow::Continue(()),
            },
        )?;
        let Some(record) = first else {
            bail!("no puzzle to draw: the input holds no record")
        };
        record.grid.map_err(|e| anyhow::anyhow!(e))
    }

    /// Rates the puzzle with its steps kept; `Err` with the exit code after
    /// saying why on stderr.
    fn rate(grid: &Grid, limits: RateLimits) -> anyhow::Result<Result<Rating, ExitCode>> {
        let mut state = RateState::new(limits);
        match state.rate_grid(grid) {
            Err(clash) => bail!("the puzzle is not valid: {clash}"),
            // The messages of the text and json forms (Unexplained's).
            Ok(RateOutcome::Multiple) => {
                eprintln!("sudoflow: {}", Unexplained::Multiple);
                return Ok(Err(ExitCode::from(exit::FAILURE)));
            }
            Ok(RateOutcome::Unsolvable(why)) => {
                eprintln!("sudoflow: {}", Unexplained::Unsolvable(why));
                return Ok(Err(ExitCode::from(exit::FAILURE)));
            }
            Ok(_) => {}
        }
        let opts = se::Options {
            budget: limits.budget(),
            keep_steps: true,
            ceiling: None,
        };
        match Rater::new().rate(grid, &opts) {
            Ok(r) => Ok(Ok(r)),
            Err(RateError::Timeout { cut, steps }) => {
                eprintln!("sudoflow: {}", limits.timeout_message(cut, steps));
                Ok(Err(ExitCode::from(exit::FAILURE)))
            }
            Err(e) => {
                eprintln!("sudoflow: {e}");
                Ok(Err(ExitCode::from(exit::FAILURE)))
            }
        }
    }

    /// Runs `explain --format svg|html`.
    pub fn run(
        args: &ExplainArgs,
        puzzles: &[&PathBuf],
        svg_format: bool,
        limits: RateLimits,
    ) -> anyhow::Result<ExitCode> {
        if args.output.resume {
            bail!("--resume continues JSON Lines runs, not pictures");
        }
        let grid = puzzle(args, puzzles)?;
        let rating = match rate(&grid, limits)? {
            Ok(r) => r,
            Err(code) => return Ok(code),
        };
        let step = match args.step {
            Some(n) if n as usize > rating.steps.len() => bail!(
                "--step {n}: the path has {} step{}",
                rating.steps.len(),
                if rating.steps.len() == 1 { "" } else { "s" }
            ),
            Some(n) => n as usize,
            None => rating.hardest + 1,
        };
        let output = args.output.output.as_deref();
        let all = steps::steps(&grid, &rating);
        if !svg_format {
            let page = html::page(&grid, &rating, &all, step);
            write_output(output, page.as_bytes(), &args.input.inputs)?;
            return Ok(ExitCode::from(exit::OK));
        }
        if all.is_empty() {
            bail!("the puzzle has no step to draw: every cell is given");
        }
        let draw = |n: usize| svg::document(&steps::picture(&all[n - 1], grid.cells(), all.len()));
        let dir = match output {
            Some(p) if p.as_os_str() != "-" => p,
            _ => {
                write_output(None, draw(step).as_bytes(), &args.input.inputs)?;
                return Ok(ExitCode::from(exit::OK));
            }
        };
        if dir
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("svg"))
        {
            write_output(Some(dir), draw(step).as_bytes(), &args.input.inputs)?;
            return Ok(ExitCode::from(exit::OK));
        }
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot make the directory {}", dir.display()))?;
        let chosen: Vec<usize> = match args.step {
            Some(_) => vec![step],
            None => (1..=all.len()).collect(),
        };
        let picture = |n: usize| dir.join(format!("step-{n:03}.svg"));
        // The whole path drawn as one set (a longer path's pictures from
        // an earlier run to the same directory go); one step as one file.
        let removed = match args.step {
            Some(_) => {
                write_output(
                    Some(&picture(step)),
                    draw(step).as_bytes(),
                    &args.input.inputs,
                )?;
                0
            }
            None => {
                let bytes = |n: usize| draw(n).into_bytes();
                match write_set(all.len(), picture, bytes, &args.input.inputs)? {
                    SetWritten::Done { removed } => removed,
                    SetWritten::Stopped(signal) => {
                        let names = format!("{}", dir.join("step-NNN.svg").display());
                        return Ok(stopped_before_writing(signal, "pictures", &names));
                    }
                }
            }
        };
        if !args.output.quiet {
            eprintln!(
                "sudoflow: wrote {} picture{} to {}{}",
                chosen.len(),
                if chosen.len() == 1 { "" } else { "s" },
                dir.display(),
                stale_note(removed, "picture")
            );
        }
        Ok(ExitCode::from(exit::OK))
    }
}
