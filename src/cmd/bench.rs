//! `sudoflow bench`: compare solvers on puzzle files (see [`crate::bench`]).

use crate::bench::external::{self, External};
use crate::bench::harness::{self, Config, References, Row};
use crate::bench::report::{self, Format};
use crate::bench::solvers;
use crate::bench::{BuildInfo, Settings};
use crate::pipeline::reader;
use crate::{datasets, exit, interrupt};
use anyhow::{bail, Context};
use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Options of `sudoflow bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Puzzle files, read as `solve` reads them (one puzzle per line, `#`
    /// comments, Kaggle and sudoflow CSVs, gzip); records that are not
    /// puzzles, or whose givens clash, are skipped with a warning naming
    /// them. A public set's file name alone (e.g.
    /// `puzzles3_magictour_top1465.txt`) that is not a file here is looked up
    /// in `$SUDOFLOW_DATASETS`, the project's `datasets/`, then `../shared/datasets`.
    #[arg(required = true, value_name = "DATASET")]
    pub datasets: Vec<PathBuf>,

    /// Comma-separated solver names, or `all`.
    #[arg(
        short,
        long,
        value_delimiter = ',',
        default_value = "sudoflow,sudoflow-matching,mrv,dlx,matching-only",
        long_help = "Comma-separated solver names, or `all`; each name once. Known: sudoflow, \
                     sudoflow-matching, mrv, dlx, matching-only (the default set), naive, \
                     sudoflow-matching-root, dsatur, welsh-powell, ilp, sat, and \
                     sudoflow-basic (the same solver as sudoflow while sudoflow's default \
                     pruning is basic, so neither the default set nor `all` runs it).\n\
                     Every answer is checked against the rules and a reference solver \
                     independent of sudoflow's: dlx (Knuth's dancing links), or mrv when dlx \
                     itself is measured; the table says which. A puzzle's solution must be \
                     the reference's where the reference finds it unique; where it finds \
                     several (it always counts to 2 at least), any grid that keeps the rules \
                     and the givens is an answer (at --limit 1 a solver stops at whichever \
                     solution it finds first).\n\
                     Example: -s sudoflow,dlx,dsatur"
    )]
    pub solvers: Vec<String>,

    /// Target measuring time per solver and dataset (2.5, 500ms, 3s, 2m):
    /// summed solve time for a built-in solver, wall time of the timed runs
    /// for an external program.
    #[arg(short, long, default_value = "5s", value_parser = crate::opts::parse_duration, value_name = "TIME")]
    pub time: Duration,

    /// Untimed warm-up per solver and dataset (0 allowed; 2.5, 500ms, 3s, 2m).
    #[arg(short, long, default_value = "1s", value_parser = crate::opts::parse_duration, value_name = "TIME")]
    pub warmup: Duration,

    /// Count solutions up to N [default: 2, as tdoku's benchmark].
    #[arg(
        long,
        default_value_t = 2,
        hide_default_value = true,
        value_name = "N",
        value_parser = clap::value_parser!(u64).range(1..),
        long_help = crate::opts::BENCH_LIMIT_HELP
    )]
    pub limit: u64,

    /// Output format.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Format::Table)]
    pub format: Format,

    /// Also time an outside program: `NAME=CMD`, run with `sh -c CMD`. Repeatable.
    #[arg(
        long,
        value_name = "NAME=CMD",
        long_help = "Also time an outside program: NAME=CMD, run with `sh -c CMD` (NAME must \
            differ from every other solver's). It reads puzzles on stdin, one per line, and \
            writes one line per puzzle: the solution, or anything else for \"no solution\". \
            Only lines that agree with the reference count as answered; wrong lines are \
            disagreements; puzzles without a line are unanswered (a program that exits early \
            is not waited on).\n\
            Its start-up is measured once (the fastest of three runs on an empty input, each \
            allowed max(--validate-time, --time-budget)) and shown apart (startup ms); µs/puzzle \
            excludes it. Every run is contained. Time: a run on k puzzles may take \
            2 x start-up + 50 ms + k x --time-budget, past which it is killed and a timeout counted; \
            validation ends max(--validate-time, 2 x start-up + 50 ms + --time-budget) after it \
            began; warm-up takes --warmup of wall time, and timing --time of wall time plus \
            at most one run. Output: at most 64 KiB a line and (k + 1) x 64 KiB in all, \
            past which the program is killed and its row fails saying so. Processes: each run \
            is a process group of its own, and when it ends that group is killed, and so is \
            every process that left it (bench is a child subreaper), so nothing it started \
            outlives it. A program that fails (e.g. exit 127, not found), floods its output \
            or does not exit on an empty input gets its row with the reason, and the run goes \
            on with the next solver.\n\
            Example: --external 'mine=./my-solver --quiet'"
    )]
    pub external: Vec<External>,

    /// Per-puzzle time budget, wall time: a solver that runs over it answers
    /// "timed out" (counted under `timeouts`); external programs get it per
    /// puzzle of each batch, and are killed past it (see --external).
    /// `--budget` is its old spelling.
    #[arg(
        long,
        alias = "budget",
        default_value = "1s",
        value_parser = crate::opts::parse_budget,
        allow_negative_numbers = true,
        value_name = "TIME"
    )]
    pub time_budget: Duration,

    /// Validation stops, after at least one puzzle, once a solver has spent
    /// this long on a dataset; timing then cycles through the puzzles validated.
    #[arg(long, default_value = "10s", value_parser = crate::opts::parse_duration, value_name = "TIME")]
    pub validate_time: Duration,

    /// Time every puzzle under a random validity-preserving transformation
    /// of its own (tdoku's protocol, `run_benchmark -r 1`), seeded by SEED
    /// (random when not given); the seed is reported with the build.
    #[arg(
        long,
        value_name = "SEED",
        num_args = 0..=1,
        require_equals = true,
        long_help = "Time every puzzle under a random validity-preserving transformation of \
            its own (transposition, rows within bands, bands, columns within stacks, stacks, \
            digits relabelled), as tdoku's run_benchmark does by default (-r 1): a \
            backtracking solver's guesses depend on the order of the cells and the labels \
            of the digits. Every solver of the run gets the same transformed puzzles, and \
            answers are checked on them. --permute=SEED (an integer) draws the \
            transformations from SEED, so the same seed gives the same puzzles; --permute \
            alone draws a seed at random. The seed ends the `# build:` line, and is \
            `permute_seed` in JSON and CSV."
    )]
    pub permute: Option<Option<u64>>,
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
    let mut seen = std::collections::HashSet::new();
    for name in names.iter().chain(args.external.iter().map(|e| &e.name)) {
        if !seen.insert(name.as_str()) {
            bail!("solver name `{name}` is given twice: every row needs a name of its own");
        }
    }
    let settings = Settings {
        time_budget: Some(args.time_budget),
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
        budget: args.time_budget,
    };
    // Containment first: its signal action must run before the
    // second-signal exit that `interrupt::install` registers.
    if !args.external.is_empty() {
        external::contain::install().context("cannot contain the external programs")?;
    }
    interrupt::install().context("cannot install the signal handlers")?;
    let progress = std::io::stderr().is_terminal();
    let permute = args
        .permute
        .map(|seed| seed.unwrap_or_else(rand::random::<u64>));
    let mut rows: Vec<Row> = Vec::new();
    let (mut disagreeing, mut failing) = (0usize, 0usize);
    // The row being measured when a signal came, if one did.
    let mut cut_short: Option<String> = None;
    // A dataset is named by its file's name, or by its path as given when
    // another dataset's file has the same name (da/x.txt, db/x.txt).
    let base_name = |path: &Path| path.file_name().map(|n| n.to_string_lossy().into_owned());
    let resolved: Vec<PathBuf> = args.datasets.iter().map(|p| resolve(p)).collect();
    'datasets: for path in &resolved {
        if interrupt::requested().is_some() {
            break;
        }
        let shared = resolved
            .iter()
            .filter(|p| p != &path && base_name(p) == base_name(path))
            .count()
            > 0;
        let dataset = match base_name(path) {
            Some(name) if !shared => name,
            _ => path.display().to_string(),
        };
        let mut puzzles = load(path, &dataset)?;
        if let Some(seed) = permute {
            crate::bench::permute(&mut puzzles, seed);
        }
        if interrupt::requested().is_some() {
            break;
        }
        if puzzles.is_empty() {
            eprintln!("sudoflow: bench: {dataset}: no puzzles, skipped");
            continue;
        }
        // Built lazily: each reference solves a puzzle only when asked.
        let mut dlx_refs = References::new(puzzles.len(), config.limit, "dlx");
        let mut mrv_refs = References::new(puzzles.len(), config.limit, "mrv");
        for (name, solver) in built.iter_mut() {
            if progress {
                eprintln!("sudoflow: bench: {dataset}: {name} ...");
            }
            let references = match harness::reference_for(name) {
                "mrv" => &mut mrv_refs,
                _ => &mut dlx_refs,
            };
            let row = harness::run(
                &dataset,
                &puzzles,
                references,
                solver.as_mut(),
                !solvers::is_incomplete(name),
                &config,
            );
            disagreeing += usize::from(report_problems(&row));
            if keep(&row, &mut cut_short) {
                rows.push(row);
            }
            if cut_short.is_some() {
                break 'datasets;
            }
        }
        for ext in &args.external {
            if progress {
                eprintln!("sudoflow: bench: {dataset}: {} (external) ...", ext.name);
            }
            let row = ext.bench(&dataset, &puzzles, &mut dlx_refs, &config)?;
            disagreeing += usize::from(report_problems(&row));
            if let Some(failure) = &row.failure {
                eprintln!(
                    "sudoflow: bench: {} failed on {dataset}: {failure}",
                    ext.name
                );
                failing += 1;
            }
            if keep(&row, &mut cut_short) {
                rows.push(row);
            }
            if cut_short.is_some() {
                break 'datasets;
            }
        }
    }
    crate::output::check_stdout()?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(interrupt::Watched(stdout.lock()));
    report::write(
        &mut out,
        args.format,
        &BuildInfo::current(),
        config.limit,
        permute,
        &rows,
    )?;
    std::io::Write::flush(&mut out)?;
    if let Some(signal) = interrupt::requested() {
        eprintln!(
            "sudoflow: bench: stopped by {}: {} row(s) measured{}",
            interrupt::name(signal),
            rows.len(),
            cut_short.map_or_else(String::new, |row| format!(
                "; the last one, {row}, covers what was measured before the signal"
            ))
        );
        return Ok(ExitCode::from(interrupt::exit_status(signal)));
    }
    let failed = disagreeing + failing > 0;
    if failed {
        let mut why = Vec::new();
        if disagreeing > 0 {
            why.push(format!("{disagreeing} row(s) with disagreements"));
        }
        if failing > 0 {
            why.push(format!(
                "{failing} external program(s) that could not be measured"
            ));
        }
        eprintln!(
            "sudoflow: bench: validation failed: {} (see above)",
            why.join(" and ")
        );
    }
    Ok(ExitCode::from(if failed {
        exit::FAILURE
    } else {
        exit::OK
    }))
}

/// After a row is measured: true if it goes in the output. Once a signal
/// has come (the row was cut short by it, or just done), `cut_short` names
/// the row, and a row with no puzzle validated is left out.
fn keep(row: &Row, cut_short: &mut Option<String>) -> bool {
    if interrupt::requested().is_none() {
        return true;
    }
    *cut_short = Some(format!("{} on {}", row.solver, row.dataset));
    row.validated > 0 || row.failure.is_some()
}

/// The puzzles of one dataset, read by `solve`'s reader: records that are
/// not puzzles, or whose givens clash, are left out with a warning naming
/// the first few (`dataset` is the name used in messages).
///
/// Errors: the file cannot be opened or read.
fn load(path: &Path, dataset: &str) -> anyhow::Result<Vec<crate::grid::Grid>> {
    const SHOWN: usize = 3;
    let mut puzzles = Vec::new();
    let mut skipped = Vec::new();
    reader::for_each_record(&[path.to_path_buf()], |record| {
        if interrupt::requested().is_some() {
            return ControlFlow::Break(());
        }
        match record.grid {
            Ok(grid) => match grid.check_givens() {
                Ok(()) => puzzles.push(grid),
                Err(clash) => skipped.push(format!("{}:{}: {clash}", record.source, record.line)),
            },
            Err(message) => skipped.push(message),
        }
        ControlFlow::Continue(())
    })?;
    if !skipped.is_empty() {
        let shown: Vec<&str> = skipped.iter().take(SHOWN).map(String::as_str).collect();
        let more = skipped.len().saturating_sub(SHOWN);
        eprintln!(
            "sudoflow: bench: {dataset}: skipping {} record(s) that are not puzzles or whose \
             givens clash: {}{}",
            skipped.len(),
            shown.join("; "),
            if more > 0 {
                format!("; and {more} more")
            } else {
                String::new()
            }
        );
    }
    Ok(puzzles)
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
