//! `sudoflow explain`: the path Sudoku Explainer follows through one
//! puzzle, one line per step, with its rating.
//!
//! The steps are those [`crate::rating::se::Rater`] takes to rate the
//! puzzle (kept with [`crate::rating::se::Options::keep_steps`]), so
//! `explain`'s ER/EP/ED are `rate`'s.

use crate::cmd::rate::{RateLimits, RateOutcome, RateState};
use crate::exit;
use crate::grid::{cell_name, Grid};
use crate::pipeline::reader;
use crate::rating::se::{self, Hint, RateError, Rater, Rating};
use anyhow::{bail, Context};
use serde::Serialize;
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
    /// A picture of one step (SVG); with -o DIR, one file per step.
    Svg,
    /// One self-contained HTML page with every step's picture.
    Html,
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

Pictures (--format svg, html): the candidate grid before the step, the pattern's cells shaded, the candidates the step removes struck through in red, the value it places ringed in green, and its chains as arrows from cause to effect: solid for a strong link (the candidate pointed to must be true), dashed for a weak link (it must be false). Digits in black are givens, in blue values placed by earlier steps. The page (html) lists the steps; the arrow keys move between them, and it loads nothing from elsewhere.

Examples:
  sudoflow explain 8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..
  head -1 puzzles.txt | sudoflow explain - --format json
  sudoflow explain PUZZLE --format svg > hardest.svg
  sudoflow explain PUZZLE --format svg -o steps/     (steps/step-001.svg, ...)
  sudoflow explain PUZZLE --format html -o explained.html")]
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
            removed}]} with cells in r1c2 notation; 'svg', the picture of one step (--step, \
            by default the hardest), or with -o DIR one file per step (DIR/step-001.svg ...); \
            'html', one page with every step's picture, opened at --step.\n\
            Example: --format json | jq '.steps[] | select(.rating >= 6)'"
    )]
    pub format: Format,

    /// The step to draw (svg) or open at (html), from 1 [default: the hardest step].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub step: Option<u64>,

    /// Write to FILE instead of stdout; with --format svg, a directory gets one file per step.
    #[arg(
        short,
        long,
        value_name = "PATH",
        long_help = "Write the output to PATH instead of stdout ('-' is stdout), whole or not \
            at all (PATH.partial, renamed when complete). With --format svg, PATH is a \
            directory (made if missing) that gets one picture per step, step-001.svg, \
            step-002.svg, ... (only step N's with --step N), unless it ends in .svg: then it \
            is the one picture of --step (default the hardest).\n\
            Example: --format svg -o steps/"
    )]
    pub output: Option<PathBuf>,

    /// The rating's budget [default: 10s of work].
    #[command(flatten)]
    pub budget: crate::opts::BudgetArgs,
}

/// One step as `--format json` writes it.
#[derive(Debug, Serialize)]
struct StepJson {
    step: usize,
    rating: f64,
    technique: String,
    placed: Option<String>,
    removed: Vec<String>,
}

/// The whole explanation as `--format json` writes it.
#[derive(Debug, Serialize)]
struct ExplainJson {
    puzzle: String,
    er: f64,
    ep: f64,
    ed: f64,
    technique: String,
    hardest_step: usize,
    steps: Vec<StepJson>,
}

/// A rating in tenths as a JSON number (7.1, not 7.1000000001).
fn tenths(x: f64) -> f64 {
    Rating::tenths(x) as f64 / 10.0
}

/// The value a hint places, `r4c2=1`.
pub fn placed(hint: &Hint) -> Option<String> {
    hint.placement
        .map(|(c, v)| format!("{}={v}", cell_name(c as usize)))
}

/// The candidates a hint removes, `r1c3<>9` each; for a hint that places a
/// value, the other candidates of that cell are left out (placing removes
/// them anyway).
pub fn removed(hint: &Hint) -> Vec<String> {
    let mut out = Vec::new();
    for &(cell, mask) in &hint.removals {
        if hint.placement.is_some_and(|(c, _)| c == cell) {
            continue;
        }
        for v in 1..=9 {
            if mask >> v & 1 != 0 {
                out.push(format!("{}<>{v}", cell_name(cell as usize)));
            }
        }
    }
    out
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
    // The uniqueness check and clash message of `rate`, then the rating
    // again with its steps kept.
    let mut state = RateState::new(limits);
    match state.rate_grid(&grid) {
        Err(clash) => bail!("the puzzle is not valid: {clash}"),
        Ok(RateOutcome::Multiple) => {
            eprintln!("sudoflow: the puzzle has more than one solution: Sudoku Explainer rates only proper puzzles");
            return Ok(ExitCode::from(exit::FAILURE));
        }
        Ok(RateOutcome::Unsolvable) => {
            eprintln!("sudoflow: the puzzle has no solution");
            return Ok(ExitCode::from(exit::FAILURE));
        }
        Ok(_) => {}
    }
    let opts = se::Options {
        budget: limits.budget(),
        keep_steps: true,
        ceiling: None,
    };
    let rating = match Rater::new().rate(&grid, &opts) {
        Ok(r) => r,
        Err(RateError::Timeout { cut, steps }) => {
            eprintln!("sudoflow: {}", limits.timeout_message(cut, steps));
            return Ok(ExitCode::from(exit::FAILURE));
        }
        Err(e) => {
            eprintln!("sudoflow: {e}");
            return Ok(ExitCode::from(exit::FAILURE));
        }
    };
    let hardest = rating.hardest + 1;
    let step = match args.step {
        Some(n) if n as usize > rating.steps.len() => bail!(
            "--step {n}: the path has {} step{}",
            rating.steps.len(),
            if rating.steps.len() == 1 { "" } else { "s" }
        ),
        Some(n) => n as usize,
        None => hardest,
    };
    let text = match args.format {
        Format::Svg => return write_svg(&args, &grid, &rating, step),
        Format::Html => {
            let steps = crate::render::step::steps(&grid, &rating);
            crate::render::html::page(&grid, &rating, &steps, step)
        }
        Format::Json => {
            let json = ExplainJson {
                puzzle: grid.to_line(),
                er: tenths(rating.er),
                ep: tenths(rating.ep),
                ed: tenths(rating.ed),
                technique: rating.technique.clone(),
                hardest_step: rating.hardest + 1,
                steps: rating
                    .steps
                    .iter()
                    .enumerate()
                    .map(|(i, h)| StepJson {
                        step: i + 1,
                        rating: tenths(h.difficulty),
                        technique: h.name.to_string(),
                        placed: placed(h),
                        removed: removed(h),
                    })
                    .collect(),
            };
            serde_json::to_string_pretty(&json)? + "\n"
        }
        Format::Text => text_table(&grid, &rating),
    };
    crate::cmd::print::write_output(args.output.as_deref(), text.as_bytes())?;
    Ok(ExitCode::from(exit::OK))
}

/// `--format svg`: step `step`'s picture to stdout or an .svg file, or
/// every step's (only `--step`'s when given) into a directory.
fn write_svg(
    args: &ExplainArgs,
    grid: &Grid,
    rating: &Rating,
    step: usize,
) -> anyhow::Result<ExitCode> {
    use crate::render::{step as pictures, svg};
    if rating.steps.is_empty() {
        bail!("the puzzle has no step to draw: every cell is given");
    }
    let steps = pictures::steps(grid, rating);
    let draw =
        |n: usize| svg::document(&pictures::picture(&steps[n - 1], grid.cells(), steps.len()));
    let dir = match args.output.as_deref() {
        None => None,
        Some(p) if p.as_os_str() == "-" => None,
        Some(p) if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("svg")) => {
            crate::cmd::print::write_output(Some(p), draw(step).as_bytes())?;
            return Ok(ExitCode::from(exit::OK));
        }
        Some(p) => Some(p),
    };
    let Some(dir) = dir else {
        crate::cmd::print::write_output(None, draw(step).as_bytes())?;
        return Ok(ExitCode::from(exit::OK));
    };
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot make the directory {}", dir.display()))?;
    let chosen: Vec<usize> = match args.step {
        Some(_) => vec![step],
        None => (1..=steps.len()).collect(),
    };
    for &n in &chosen {
        let path = dir.join(format!("step-{n:03}.svg"));
        crate::cmd::print::write_output(Some(&path), draw(n).as_bytes())?;
    }
    eprintln!(
        "sudoflow: wrote {} picture{} to {}",
        chosen.len(),
        if chosen.len() == 1 { "" } else { "s" },
        dir.display()
    );
    Ok(ExitCode::from(exit::OK))
}

/// The text format: a summary, then one line per step.
pub fn text_table(grid: &Grid, rating: &Rating) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(s, "puzzle   {}", grid.to_line());
    let _ = writeln!(
        s,
        "rating   ER {}  EP {}  ED {}   (Sudoku Explainer 1.2.1.3 scale)",
        Rating::format(rating.er),
        Rating::format(rating.ep),
        Rating::format(rating.ed)
    );
    if !rating.steps.is_empty() {
        let _ = writeln!(
            s,
            "hardest  step {}: {}",
            rating.hardest + 1,
            rating.technique
        );
    }
    let _ = writeln!(s, "steps    {}", rating.step_count);
    let _ = writeln!(s);
    let width = rating
        .steps
        .iter()
        .map(|h| h.name.len())
        .max()
        .unwrap_or(9)
        .max(9);
    let _ = writeln!(s, "step  rating  {:width$}  result", "technique");
    for (i, h) in rating.steps.iter().enumerate() {
        let mut result: Vec<String> = placed(h).into_iter().collect();
        result.extend(removed(h));
        let _ = writeln!(
            s,
            "{:>4}  {:>6}  {:width$}  {}",
            i + 1,
            Rating::format(h.difficulty),
            h.name,
            result.join(", ")
        );
    }
    s
}
