//! `sudoflow bench`: compare solvers on puzzle files (see [`crate::bench`]).

use crate::bench::external::External;
use crate::bench::harness::{self, Config, References, Row};
use crate::bench::report::{self, Format};
use crate::bench::solvers;
use crate::bench::{BuildInfo, Settings};
use crate::{datasets, exit};
use anyhow::bail;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Options of `sudoflow bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Puzzle files: one puzzle (81 characters) per line, `#` lines are
    /// comments. A public set's file name alone (e.g.
    /// `puzzles3_magictour_top1465.txt`) that is not a file here is looked up
    /// in `$SUDOFLOW_DATASETS`, the project's `datasets/`, then `../shared/datasets`.
    #[arg(required = true, value_name = "DATASET")]
    pub datasets: Vec<PathBuf>,

    /// Comma-separated solver names, or `all`.
    #[arg(
        short,
        long,
        value_delimiter = ',',
        default_value = "sudoflow,sudoflow-basic,sudoflow-matching,mrv,dlx,matching-only",
        long_help = "Comma-separated solver names, or `all`. Known: sudoflow, sudoflow-basic, \
                     sudoflow-matching, mrv, dlx, matching-only (the default set), naive, \
                     sudoflow-matching-root, dsatur, welsh-powell, ilp, sat.\nExample: -s sudoflow,dlx,dsatur"
    )]
    pub solvers: Vec<String>,

    /// Target measuring time per solver and dataset, seconds (fractions allowed).
    #[arg(short, long, default_value = "5", value_parser = parse_secs, value_name = "SECS")]
    pub time: Duration,

    /// Untimed warm-up per solver and dataset, seconds (0 allowed).
    #[arg(short, long, default_value = "1", value_parser = parse_secs, value_name = "SECS")]
    pub warmup: Duration,

    /// Count solutions up to N (2 tells unique from multiple, as tdoku's benchmark).
    #[arg(long, default_value_t = 2, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// Also time an outside program: `NAME=CMD`, run with `sh -c CMD`; it reads
    /// puzzles on stdin, one per line, and writes one line per puzzle (the
    /// solution, or anything else for "no solution"). Repeatable.
    #[arg(long, value_name = "NAME=CMD")]
    pub external: Vec<External>,

    /// Per-puzzle time budget, seconds: a solver that runs over it answers
    /// "timed out" (counted under `timeouts`).
    #[arg(long, default_value = "1", value_parser = parse_secs, value_name = "SECS")]
    pub budget: Duration,

    /// Validation stops, after at least one puzzle, once a solver has spent
    /// this long on a dataset; timing then cycles through the puzzles validated.
    #[arg(long, default_value = "10", value_parser = parse_secs, value_name = "SECS")]
    pub validate_time: Duration,
}

/// Parses a non-negative number of seconds, fractions allowed.
fn parse_secs(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    Duration::try_from_secs_f64(secs).map_err(|_| format!("`{s}` is not a duration in seconds"))
}

/// `path` itself if it exists, else the public set of that file name.
fn resolve(path: &Path) -> PathBuf {
    if !path.exists() && path.components().count() == 1 {
        if let Some(public) = path
            .to_str()
            .and_then(|name| datasets::public_path(name).ok())
        {
            return public;
        }
    }
    path.to_path_buf()
}

/// Runs `sudoflow bench`.
///
/// Errors: an unknown solver, a dataset that cannot be read or holds a line
/// that is not a puzzle, an external program that cannot run, or a write
/// failure.
pub fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let names: Vec<String> = if args.solvers.iter().any(|s| s == "all") {
        solvers::ALL.iter().map(|s| s.to_string()).collect()
    } else {
        args.solvers
            .iter()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    };
    if names.is_empty() && args.external.is_empty() {
        bail!("no solver to run: give --solvers or --external");
    }
    let settings = Settings {
        time_budget: Some(args.budget),
    };
    // Build every solver up front so a bad name fails before any timing.
    let mut built = Vec::new();
    for name in &names {
        built.push((name.clone(), solvers::build(name, &settings)?));
    }
    let config = Config {
        time: args.time,
        warmup: args.warmup,
        limit: args.limit,
        validate_time: args.validate_time,
    };
    let progress = std::io::stderr().is_terminal();
    let mut rows: Vec<Row> = Vec::new();
    let mut failed = false;
    for path in &args.datasets {
        let path = resolve(path);
        let all = datasets::load(&path)?;
        let dataset = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let (puzzles, clashing): (Vec<_>, Vec<_>) =
            all.into_iter().partition(|p| p.check_givens().is_ok());
        if !clashing.is_empty() {
            eprintln!(
                "sudoflow: bench: {dataset}: skipping {} puzzle(s) whose givens clash",
                clashing.len()
            );
        }
        if puzzles.is_empty() {
            eprintln!("sudoflow: bench: {dataset}: no puzzles, skipped");
            continue;
        }
        let mut references = References::new(puzzles.len(), config.limit);
        for (name, solver) in built.iter_mut() {
            if progress {
                eprintln!("sudoflow: bench: {dataset}: {name} ...");
            }
            let row = harness::run(
                &dataset,
                &puzzles,
                &mut references,
                solver.as_mut(),
                !solvers::is_incomplete(name),
                &config,
            );
            failed |= report_problems(&row);
            rows.push(row);
        }
        for ext in &args.external {
            if progress {
                eprintln!("sudoflow: bench: {dataset}: {} (external) ...", ext.name);
            }
            match ext.bench(&dataset, &puzzles, &mut references, &config) {
                Ok(row) => {
                    failed |= report_problems(&row);
                    rows.push(row);
                }
                Err(e) => {
                    eprintln!("sudoflow: bench: {dataset}: {e:#}");
                    failed = true;
                }
            }
        }
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    report::write(
        &mut out,
        args.format,
        &BuildInfo::current(),
        config.limit,
        &rows,
    )?;
    std::io::Write::flush(&mut out)?;
    if failed {
        eprintln!("sudoflow: bench: validation failed: see the disagreements above");
    }
    Ok(ExitCode::from(if failed {
        exit::FAILURE
    } else {
        exit::OK
    }))
}

/// Prints a row's disagreements (the first ten) to stderr; true if any.
fn report_problems(row: &Row) -> bool {
    const SHOWN: usize = 10;
    for d in row.problems.iter().take(SHOWN) {
        eprintln!(
            "sudoflow: bench: {} disagrees on {} puzzle {} ({}): {}",
            row.solver, row.dataset, d.index, d.puzzle, d.problem
        );
    }
    if row.problems.len() > SHOWN {
        eprintln!(
            "sudoflow: bench: {} disagrees on {} more puzzle(s) of {}",
            row.solver,
            row.problems.len() - SHOWN,
            row.dataset
        );
    }
    !row.problems.is_empty()
}
