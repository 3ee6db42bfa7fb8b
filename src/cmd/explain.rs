//! `sudoflow explain`: the path Sudoku Explainer follows through one
//! puzzle, one line per step, with its rating.
//!
//! The path is [`crate::rows::explain`]'s (the Python package's
//! `explain()` returns the same), so `explain`'s ER/EP/ED are `rate`'s.

use crate::cmd::rate::RateLimits;
use crate::exit;
use crate::grid::Grid;
use crate::pipeline::reader;
pub use crate::rows::explain::{explain, placed, removed, Explanation, Step, Unexplained};
use anyhow::{bail, Context};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

/// Output formats of `explain`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A table for people.
    Text,
    /// One JSON object for programs.
    Json,
}

/// Options of `sudoflow explain`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Each step is one hint of Sudoku Explainer 1.2.1.3, found the way SE finds it: techniques tried \
from the easiest, the first hint applied. A step's result is the value placed (r4c2=1) or the \
candidates removed (r1c3<>9). ER is the hardest step, EP the hardest up to the first value \
placed, ED the first step; `sudoflow rate` gives the same three numbers.

Exit codes: 0 explained; 1 the puzzle has no solution or more than one, or the time budget \
ran out; 2 the puzzle cannot be read.

Examples:
  sudoflow explain 8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..
  head -1 puzzles.txt | sudoflow explain - --format json")]
pub struct ExplainArgs {
    /// The puzzle: 81 cells ('.', '0', '_', '-', '*', 'x' or 'X' blank), or '-' for the first record on stdin.
    #[arg(
        value_name = "PUZZLE",
        long_help = "The puzzle: 81 cells row-major, 1-9 givens, '.', '0', '_', '-', '*', 'x' \
            or 'X' blanks; text after whitespace, ',', ';' or ':' is ignored. '-' reads the \
            first record of stdin (any format `solve` reads).\n\
            Example: '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......'"
    )]
    pub puzzle: String,

    /// Output format.
    #[arg(
        long,
        value_enum,
        default_value_t = Format::Text,
        long_help = "Output format: 'text', a table with one line per step, or 'json', one \
            object {puzzle, er, ep, ed, technique, steps: [{step, rating, technique, placed, \
            removed}]} with cells in r1c2 notation.\n\
            Example: --format json | jq '.steps[] | select(.rating >= 6)'"
    )]
    pub format: Format,

    /// The rating's budget [default: 10s of work].
    #[command(flatten)]
    pub budget: crate::opts::BudgetArgs,
}

/// The puzzle named on the command line.
fn read_puzzle(text: &str) -> anyhow::Result<Grid> {
    if text == "-" {
        let mut first = None;
        reader::for_each_record(&[PathBuf::from("-")], |r| {
            first = Some(r);
            ControlFlow::Break(())
        })?;
        let Some(record) = first else {
            bail!("no puzzle on stdin")
        };
        return record.grid.map_err(|e| anyhow::anyhow!(e));
    }
    let field = text
        .trim()
        .split(|c: char| c.is_whitespace() || ",;:".contains(c))
        .next()
        .unwrap_or("");
    Grid::parse(field).with_context(|| format!("cannot read the puzzle {field:?}"))
}

/// Runs `sudoflow explain`.
///
/// Errors: the puzzle cannot be read, or stdout cannot be written.
pub fn run(args: ExplainArgs) -> anyhow::Result<ExitCode> {
    let grid = read_puzzle(&args.puzzle)?;
    let limits = RateLimits {
        time: Some(
            args.budget
                .time_budget
                .unwrap_or(crate::cmd::rate::DEFAULT_BUDGET),
        ),
        wall: args.budget.wall_limit,
    };
    let explanation = match explain(&grid, &limits) {
        Ok(e) => e,
        Err(e @ Unexplained::Clash(_)) => bail!("{e}"),
        Err(e) => {
            eprintln!("sudoflow: {e}");
            return Ok(ExitCode::from(exit::FAILURE));
        }
    };
    let text = match args.format {
        Format::Json => serde_json::to_string_pretty(&explanation)? + "\n",
        Format::Text => text_table(&explanation),
    };
    use std::io::Write;
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(ExitCode::from(exit::OK))
}

/// The text format: a summary, then one line per step.
pub fn text_table(e: &Explanation) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(s, "puzzle   {}", e.puzzle);
    let _ = writeln!(
        s,
        "rating   ER {:.1}  EP {:.1}  ED {:.1}   (Sudoku Explainer 1.2.1.3 scale)",
        e.er, e.ep, e.ed
    );
    if !e.steps.is_empty() {
        let _ = writeln!(s, "hardest  step {}: {}", e.hardest_step, e.technique);
    }
    let _ = writeln!(s, "steps    {}", e.steps.len());
    let _ = writeln!(s);
    let width = e
        .steps
        .iter()
        .map(|h| h.technique.len())
        .max()
        .unwrap_or(9)
        .max(9);
    let _ = writeln!(s, "step  rating  {:width$}  result", "technique");
    for h in &e.steps {
        let mut result: Vec<&str> = h.placed.iter().map(String::as_str).collect();
        result.extend(h.removed.iter().map(String::as_str));
        let _ = writeln!(
            s,
            "{:>4}  {:>6.1}  {:width$}  {}",
            h.step,
            h.rating,
            h.technique,
            result.join(", ")
        );
    }
    s
}
