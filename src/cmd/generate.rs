//! `sudoflow generate`: rated, proper puzzles, reproducibly, in parallel.
//!
//! Puzzle number `i` (1-based) is made by [`sudoflow::generator`]'s
//! [`Generator::candidate`] from candidate seeds drawn from
//! [`seed_stream`]`(seed, i)` until one passes the filters, so the output is a
//! function of `--seed`, the options and the solver, whatever `-j` is. Each
//! of `-j` workers takes the next index in turn; an orderer thread puts the
//! puzzles back in index order and the calling thread writes each row as
//! soon as its turn comes, pushing the rows to the file at least once a
//! second (a run killed outright loses at most that). Memory stays bounded
//! whatever `--count` is: an index taken and not yet written holds one of
//! at most [`CHUNK`] (or 16 per thread) tokens.
//!
//! `--distinct`: workers also compute each puzzle's canonical form
//! ([`crate::canon`]); the writing thread, in index order, keeps a puzzle
//! whose class is new and replaces one whose class an earlier row has by the
//! next candidate of the same index's seed stream that passes the filters
//! and is new. The classes written are kept as 128-bit digests.
//!
//! `--exclude FILE...`: the classes of the files' puzzles are read before
//! the run (`excluded_classes`); workers then canonicalize each candidate
//! and pass over one of an excluded class as the filters pass over a
//! rejected one (the next candidate of the index's stream), so the output
//! is still a function of the seed, the options and the files.
//!
//! [`sudoflow::generator`]: crate::generator

use crate::canon::{Canonicalizer, Classes};
use crate::exit;
use crate::generator::{
    seed_stream, GenerateOptions, Generated, Generator, Reject, Symmetry, MIN_PROPER_CLUES,
};
use crate::opts;
use crate::outfile::{RunOutput, RunSpec};
use crate::output::{CsvSink, SolveRow, SOLVE_HEADER};
use crate::rating::se::Rating;
use crate::solver::SolveOptions;
use anyhow::Context;
use crossbeam_channel::{bounded, unbounded, RecvTimeoutError};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::RngCore;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::ops::RangeInclusive;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// The fewest puzzle indices that may be in the making at once (taken by a
/// worker and not yet written); more with many threads (16 each).
pub const CHUNK: u64 = 256;

/// How long the writing thread waits for the next row before it pushes the
/// rows written so far to the file (they reach it at least once a second).
const FLUSH_WAIT: Duration = Duration::from_millis(250);

/// A worker's result for one index: the puzzle and, with `--distinct`, the
/// digest of its class.
type Made = Result<(Generated, u128), GiveUp>;

/// Options of `sudoflow generate`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = AFTER_HELP)]
pub struct GenerateArgs {
    /// Puzzles to emit.
    #[arg(short = 'n', long = "count", value_name = "N", default_value_t = 1)]
    pub count: u64,

    /// 64-bit run seed; the same seed and options give the same output, whatever -j is.
    ///
    /// Without it a random seed is drawn and printed in the summary line.
    /// Example: `sudoflow generate -n 100 --seed 2026`.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Regenerate the one puzzle whose `seed` column is X (with the same options).
    ///
    /// Builds the single candidate of candidate seed X, applies the filters and
    /// writes it as row 1. With the same --symmetry, --minimal and filters as
    /// the run that printed X, the row equals that run's row except `index`.
    /// Example: `sudoflow generate --puzzle-seed 12345678901234567890`.
    #[arg(long, value_name = "X", conflicts_with_all = ["count", "seed", "max_tries", "max_time", "resume", "exclude"])]
    pub puzzle_seed: Option<u64>,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub threads: opts::ThreadsArg,

    /// Symmetry of the pattern of givens (`(r, c)` below: zero-based row and column, 0..8).
    ///
    /// Givens are removed one whole orbit at a time, so the pattern keeps the
    /// symmetry. Example: `sudoflow generate -n 10 --symmetry rot180`.
    #[arg(long, value_enum, default_value_t = Symmetry::None, value_name = "SYMMETRY")]
    pub symmetry: Symmetry,

    /// Make minimal puzzles: every given is necessary (default).
    ///
    /// With a symmetry, removing any whole orbit of givens breaks uniqueness
    /// (a single cell of an orbit may still be removable).
    #[arg(long, overrides_with = "no_minimal")]
    pub minimal: bool,

    /// Stop removing givens at a clue count drawn from --clues (default 17..80).
    #[arg(long, overrides_with = "minimal")]
    pub no_minimal: bool,

    /// Keep puzzles whose clue count is in MIN..MAX (inclusive; `N`, `MIN..`, `..MAX` too).
    ///
    /// MAX below 17 is refused: no proper Sudoku has fewer than 17 clues
    /// (McGuire, Tugemann, Civario 2012). Removal only lowers the clue count,
    /// so a candidate is dropped as soon as it falls below MIN. Example:
    /// `--clues 20..23`.
    #[arg(long, value_name = "MIN..MAX", value_parser = parse_clues)]
    pub clues: Option<RangeInclusive<usize>>,

    /// Keep puzzles whose WNF band (1..4) is in L..M (or just L).
    ///
    /// The wnf_level column as `solve` reports it: the modelling paper's band of
    /// WNF, which measures how few candidates the givens leave (a high WNF,
    /// level 4, leaves many candidates per empty cell), not how hard a person
    /// finds the puzzle: against Sudoku Explainer's rating its rank correlation
    /// is about -0.2 (`guesses` does far better). For difficulty use `--se`
    /// (`sudoflow rate`). Example: `--wnf-level 4`.
    #[arg(long, value_name = "L[..M]", value_parser = parse_wnf_level)]
    pub wnf_level: Option<RangeInclusive<u8>>,

    /// Keep puzzles whose scoring solve took MIN..MAX guesses (inclusive).
    ///
    /// The guesses column as `solve` reports it. Example: `--guesses 5..`.
    #[arg(long, value_name = "MIN..MAX", value_parser = parse_guesses)]
    pub guesses: Option<RangeInclusive<u64>>,

    /// Keep puzzles whose Sudoku Explainer rating ER is in MIN..MAX (e.g. 7.0..8.0, 9.0.., 6.5).
    ///
    /// ER as `sudoflow rate` gives it (SE 1.2.1.3's scale, one decimal),
    /// written in the columns er, ep, ed after `error`. Rating a candidate
    /// stops as soon as a step is rated above MAX. The same seed gives the
    /// same puzzles whatever -j is. Example: `--se 7.0..8.0`.
    #[arg(long, value_name = "MIN..MAX", value_parser = parse_se)]
    pub se: Option<RangeInclusive<i64>>,

    /// With --se, reject a candidate whose rating needs more than TIME of reference work [default: 10s].
    ///
    /// Counted in work as `rate --time-budget` counts it, not in wall
    /// time, so the same seed gives the same puzzles on an idle or a
    /// loaded machine. Example: `--se 9.0.. --se-budget 1m`.
    #[arg(
        long,
        value_name = "TIME",
        requires = "se",
        value_parser = opts::parse_budget,
        allow_negative_numbers = true
    )]
    pub se_budget: Option<Duration>,

    /// No two puzzles of the run equivalent (no two share a minlex form).
    ///
    /// A puzzle whose canonical form (`sudoflow canon`) an earlier row of
    /// the run already has is replaced by the next candidate of its own seed
    /// stream that passes the filters and is new, so the same seed still
    /// gives the same output whatever -j is. Memory: up to 86 bytes per
    /// puzzle written (`canon --help`). Example: `sudoflow generate -n 10000 --clues 17..19
    /// --distinct`.
    #[arg(long)]
    pub distinct: bool,

    /// Never emit a puzzle equivalent to one in these files (a book's earlier volumes).
    ///
    /// Each FILE is read as every command reads its inputs (one puzzle a
    /// line, CSV with a puzzle column such as sudoflow's own output, gzip,
    /// zip); a candidate whose minlex form (`sudoflow canon`) is that of
    /// one of their puzzles is passed over like one the filters reject, so
    /// the same seed, options and files give the same output whatever -j
    /// is. With --distinct no two rows are equivalent either. Records that
    /// are not 81-cell puzzles are skipped (the summary counts them). The
    /// files are read before the run; --resume checks they did not change.
    /// Memory: as --distinct, per class excluded. Example: `sudoflow
    /// generate -n 1000 --seed 2 --exclude vol1.csv vol2.csv -o vol3.csv`.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub exclude: Vec<std::path::PathBuf>,

    /// With --se, add a label column: the level of er (Easy, Medium, Hard, Fiendish, Diabolical).
    #[arg(long, requires = "se", long_help = crate::cmd::rate::LABELS_HELP)]
    pub labels: bool,

    /// Write blanks in the puzzle column as CHAR [default: .].
    #[arg(
        long,
        value_name = "CHAR",
        default_value = ".",
        hide_default_value = true,
        value_parser = opts::parse_blank,
        long_help = "The character the puzzle column writes for a blank cell: '.' (the \
            default), '0', '_', '-', '*', 'x' or 'X', the blanks every command reads (Kaggle's \
            sets use '0'). The solution column has none; the puzzles are the same whatever it \
            is.\n\
            Example: --blank 0 -n 1000 -o kaggle-like.csv"
    )]
    pub blank: u8,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: opts::OutputArgs,

    /// Give up (exit 1) when one puzzle needs more candidates than this.
    ///
    /// Per puzzle: the rows before the first puzzle that gives up are written.
    /// The summary shows the acceptance rate to size it. Example:
    /// `--clues 20..21 --max-tries 1000000`.
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_tries: u64,

    /// Give up (exit 1) when the whole run takes longer than TIME of wall time (90, 90s, 500ms, 2m, 1h).
    ///
    /// The run's own limit, not a record's (`--time-budget` elsewhere is
    /// per record: here `--se-budget` is). The puzzles before the one under
    /// way are written. Example: `--max-time 1h`.
    #[arg(
        long,
        value_name = "TIME",
        value_parser = opts::parse_duration,
        allow_negative_numbers = true
    )]
    pub max_time: Option<Duration>,

    /// Refused: `--time-budget` is a record's budget in the other commands
    /// (`rate`, `count`, `explain`), but was `--max-time`'s old spelling
    /// here, so `--time-budget 1` ended a run after a second where a
    /// rating budget was meant. The error names both options.
    #[arg(long, hide = true, value_name = "TIME", allow_negative_numbers = true)]
    pub time_budget: Option<String>,
}

const AFTER_HELP: &str = "\
Output: CSV with solve's columns (index,puzzle,status,solutions,solution,clues,wnf,wnf_level,
guesses,backtracks,error), with --se the rating columns er,ep,ed, then `seed`, the candidate
seed that rebuilds that puzzle alone (--puzzle-seed), then with --labels `label`, the level of
er (Easy 0.0-1.2, Medium 1.3-1.5, Hard 1.6-2.5, Fiendish 2.6-6.0, Diabolical 6.1 and up:
Sudoku Explainer's own generator levels). `sudoflow solve` (--se) on the puzzles gives the
same score columns.

Exit codes: 0 all puzzles written; 1 a puzzle found no candidate passing the filters within
--max-tries, or --max-time ran out (the puzzles before it are written, in order; with -o FILE
they stay in FILE.partial and an older FILE is left as it was; after --max-time, --resume goes on);
2 usage or I/O error (e.g. --clues 10..12); 130/143 stopped by SIGINT/SIGTERM, 129/131 by
SIGHUP/SIGQUIT (FILE.partial is kept for --resume). With -o FILE the rows go to FILE.partial,
renamed FILE once complete.

Example: sudoflow generate -n 1000 --seed 2026 --symmetry rot180 --clues 22..26 -o out.csv";

pub use crate::generator::spans::{parse_clues, parse_guesses, parse_se, parse_wnf_level};

impl GenerateArgs {
    /// The generator options these arguments ask for.
    pub fn generate_options(&self) -> GenerateOptions {
        let minimal = !self.no_minimal;
        let default_clues = if minimal {
            MIN_PROPER_CLUES..=81
        } else {
            MIN_PROPER_CLUES..=80
        };
        GenerateOptions {
            symmetry: self.symmetry,
            minimal,
            clues: self.clues.clone().unwrap_or(default_clues),
            wnf_level: self.wnf_level.clone().unwrap_or(1..=4),
            guesses: self.guesses.clone().unwrap_or(0..=u64::MAX),
            se: self.se.clone(),
            se_budget: crate::rows::rate::RateLimits::work(
                self.se_budget.unwrap_or(crate::rows::rate::DEFAULT_BUDGET),
            )
            .budget(),
            ..GenerateOptions::default()
        }
    }
}

/// Why one puzzle index was not made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GiveUp {
    /// `--max-tries` candidates were all rejected.
    MaxTries,
    /// `--max-time` ran out.
    Time,
    /// A lower index already gave up, so this one would not be written.
    Skipped,
    /// SIGINT or SIGTERM asked the run to stop.
    Interrupted,
}

/// Counters shared by the workers, read by the progress bar and the summary.
struct Tally {
    made: AtomicU64,
    tries: AtomicU64,
    /// Lowest index that ran out of `--max-tries` (`u64::MAX`: none yet).
    /// Higher indices stop at once (their rows would not be written); lower
    /// ones run on, so the rows written do not depend on the threads.
    first_failure: AtomicU64,
    /// Rejections by [`Reject`], in the order of `REJECTS`.
    rejected: [AtomicU64; 5],
    /// `--distinct`: candidates dropped for a class already written.
    duplicates: AtomicU64,
    /// `--exclude`: candidates dropped for an excluded class.
    excluded: AtomicU64,
}

const REJECTS: [Reject; 5] = [
    Reject::FewerClues,
    Reject::MoreClues,
    Reject::WnfLevel,
    Reject::Guesses,
    Reject::SeRating,
];

impl Tally {
    fn new() -> Tally {
        Tally {
            made: AtomicU64::new(0),
            tries: AtomicU64::new(0),
            first_failure: AtomicU64::new(u64::MAX),
            rejected: Default::default(),
            duplicates: AtomicU64::new(0),
            excluded: AtomicU64::new(0),
        }
    }

    fn acceptance(&self) -> f64 {
        let tries = self.tries.load(Relaxed);
        if tries == 0 {
            100.0
        } else {
            100.0 * self.made.load(Relaxed) as f64 / tries as f64
        }
    }

    fn rejections(&self) -> String {
        let mut s = String::new();
        for (r, n) in REJECTS.iter().zip(&self.rejected) {
            let n = n.load(Relaxed);
            if n > 0 {
                let _ = write!(
                    s,
                    "{}{} {n}",
                    if s.is_empty() { "" } else { ", " },
                    r.as_str()
                );
            }
        }
        for (n, what) in [
            (&self.duplicates, "duplicate class"),
            (&self.excluded, "excluded class"),
        ] {
            let n = n.load(Relaxed);
            if n > 0 {
                let sep = if s.is_empty() { "" } else { ", " };
                let _ = write!(s, "{sep}{what} {n}");
            }
        }
        s
    }
}

/// The option whose filter rejects a candidate for `reject`.
fn filter_option(reject: Reject) -> &'static str {
    match reject {
        Reject::FewerClues | Reject::MoreClues => "--clues",
        Reject::WnfLevel => "--wnf-level",
        Reject::Guesses => "--guesses",
        Reject::SeRating | Reject::Stopped => "--se",
    }
}

/// What a worker needs to tell a candidate's class: its canonicalizer,
/// whether the class is wanted (`--distinct` or `--exclude`), and the
/// excluded classes.
struct ClassCheck<'a> {
    canon: Canonicalizer,
    wanted: bool,
    excluded: Option<&'a Classes>,
}

impl ClassCheck<'_> {
    /// The digest of `p`'s class (0 when no class is wanted), or `None`
    /// when it is excluded (counted in `tally`).
    fn digest(&mut self, p: &Generated, tally: &Tally) -> Option<u128> {
        if !self.wanted {
            return Some(0);
        }
        let digest = self.canon.canonicalize(&p.puzzle).digest();
        if self.excluded.is_some_and(|e| e.contains(digest)) {
            tally.excluded.fetch_add(1, Relaxed);
            return None;
        }
        Some(digest)
    }
}

/// Makes puzzle `index` of the run: the first candidate of its seed stream
/// that passes the filters and whose class is not excluded; with the
/// digest of its class (0 when `check` wants none).
fn make(
    gen: &mut Generator,
    check: &mut ClassCheck<'_>,
    run_seed: u64,
    index: u64,
    (max_tries, deadline): (u64, Option<Instant>),
    tally: &Tally,
) -> Made {
    let mut seeds = seed_stream(run_seed, index);
    let mut digest = 0;
    let p = make_from(gen, &mut seeds, index, max_tries, deadline, tally, |p| {
        check.digest(p, tally).map(|d| digest = d).is_some()
    })?;
    Ok((p, digest))
}

/// [`make`] from where `seeds` stands, keeping only candidates `accept`
/// takes too (a class not excluded, `--distinct`: not written yet;
/// `accept` counts what it refuses).
fn make_from(
    gen: &mut Generator,
    seeds: &mut impl RngCore,
    index: u64,
    max_tries: u64,
    deadline: Option<Instant>,
    tally: &Tally,
    mut accept: impl FnMut(&Generated) -> bool,
) -> Result<Generated, GiveUp> {
    for _ in 0..max_tries {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(GiveUp::Time);
        }
        if tally.first_failure.load(Relaxed) < index {
            return Err(GiveUp::Skipped);
        }
        if crate::interrupt::requested().is_some() {
            return Err(GiveUp::Interrupted);
        }
        tally.tries.fetch_add(1, Relaxed);
        match gen.candidate(seeds.next_u64()) {
            Ok(p) if accept(&p) => {
                tally.made.fetch_add(1, Relaxed);
                return Ok(p);
            }
            Ok(_) => {}
            Err(Reject::Stopped) => return Err(GiveUp::Interrupted),
            Err(r) => {
                let k = REJECTS.iter().position(|&x| x == r).unwrap_or(0);
                tally.rejected[k].fetch_add(1, Relaxed);
            }
        }
    }
    tally.first_failure.fetch_min(index, Relaxed);
    Err(GiveUp::MaxTries)
}

/// `--distinct`: puzzle `index` of the run seeded `run_seed` (`at`), `p`,
/// whose form has `digest`, if no earlier row has its class; else the next
/// candidate of index's own seed stream after `p` that passes the filters
/// and whose class is new and not `excluded` (within `limits`: max tries,
/// deadline). The class written is recorded in `classes`. Called in index
/// order on one thread, so the result depends on the seed and options only.
#[allow(clippy::too_many_arguments)]
fn distinct(
    p: Generated,
    digest: u128,
    (run_seed, index): (u64, u64),
    classes: &mut Classes,
    excluded: Option<&Classes>,
    (gen, canon): &mut (Generator, Canonicalizer),
    (max_tries, deadline): (u64, Option<Instant>),
    tally: &Tally,
) -> Result<Generated, GiveUp> {
    if classes.first_of(digest, index) == index {
        return Ok(p);
    }
    tally.duplicates.fetch_add(1, Relaxed);
    // Index's stream just after the candidate it gave.
    let mut seeds = seed_stream(run_seed, index);
    for _ in 0..=max_tries {
        if seeds.next_u64() == p.seed {
            break;
        }
    }
    let mut fresh = 0;
    let q = make_from(gen, &mut seeds, index, max_tries, deadline, tally, |q| {
        fresh = canon.canonicalize(&q.puzzle).digest();
        let (repeat, out) = (
            classes.contains(fresh),
            excluded.is_some_and(|e| e.contains(fresh)),
        );
        if repeat {
            tally.duplicates.fetch_add(1, Relaxed);
        } else if out {
            tally.excluded.fetch_add(1, Relaxed);
        }
        !repeat && !out
    })?;
    classes.first_of(fresh, index);
    Ok(q)
}

/// `--exclude`: the classes of the puzzles in `files` and the records
/// that are no 81-cell puzzle ([`crate::rows::classes_in`]); `None`
/// without files.
fn excluded_classes(
    files: &[std::path::PathBuf],
    threads: usize,
) -> anyhow::Result<Option<(Classes, u64)>> {
    if files.is_empty() {
        return Ok(None);
    }
    crate::rows::classes_in(files, threads)
        .context("--exclude")
        .map(Some)
}

/// Writes puzzle `index`'s row; with `labels`, the label of its rating last.
fn write_row(w: &mut CsvSink, index: u64, p: &Generated, labels: bool) -> anyhow::Result<()> {
    // Scored with solve's default options, so the limit is the default one.
    let row = SolveRow::solved(index, &p.puzzle, &p.outcome, SolveOptions::default().limit);
    let seed = p.seed.to_string();
    match p.se {
        Some(se) => {
            let label = crate::rating::labels::label(se[0]);
            let [er, ep, ed] = se.map(Rating::format);
            if labels {
                w.write_solve_row_with(&row, &[&er, &ep, &ed, &seed, label])
            } else {
                w.write_solve_row_with(&row, &[&er, &ep, &ed, &seed])
            }
        }
        None => w.write_solve_row_with(&row, &[&seed]),
    }
}

/// Runs `sudoflow generate`.
pub fn run(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    if let Some(t) = &args.time_budget {
        anyhow::bail!(
            "generate has no --time-budget {t}: give --max-time {t} to limit the whole run's \
             wall time, or --se-budget {t} to limit each rating's work with --se (what \
             --time-budget limits in rate, count and explain)"
        );
    }
    let opts = args.generate_options();
    // Asks no puzzle can meet are refused now, not after --max-tries.
    opts.check_reachable().map_err(anyhow::Error::msg)?;
    crate::interrupt::install().context("cannot install the signal handlers")?;
    let se_columns: &[&str] = if args.se.is_some() {
        &["er", "ep", "ed"]
    } else {
        &[]
    };
    let header: Vec<String> = SOLVE_HEADER
        .iter()
        .chain(se_columns)
        .copied()
        .chain(["seed"])
        .chain(args.labels.then_some("label"))
        .map(String::from)
        .collect();
    let output = args.output.output.as_deref().unwrap_or(Path::new("-"));
    // Without --seed a resumed run goes on with the interrupted run's.
    let stored_seed = || {
        args.output
            .resume
            .then(|| crate::outfile::stored_option(output, "seed"))
            .flatten()
            .and_then(|s| s.parse().ok())
    };
    let seed = args.seed.or_else(stored_seed).unwrap_or_else(rand::random);
    crate::pipeline::check_inputs(&args.exclude, None).context("--exclude")?;
    let spec = RunSpec {
        command: "generate",
        resumable: true,
        // The files --exclude reads: a resume checks they are unchanged.
        inputs: args.exclude.clone(),
        options: vec![
            (
                "seed",
                match args.puzzle_seed {
                    Some(_) => String::new(),
                    None => seed.to_string(),
                },
            ),
            ("puzzle-seed", opts::value_text(args.puzzle_seed)),
            ("count", args.count.to_string()),
            ("symmetry", format!("{:?}", opts.symmetry).to_lowercase()),
            ("minimal", opts.minimal.to_string()),
            ("clues", opts::range_text(&opts.clues)),
            ("wnf-level", opts::range_text(&opts.wnf_level)),
            ("guesses", opts::range_text(&opts.guesses)),
            (
                "se",
                opts.se.as_ref().map_or("none".to_string(), |r| {
                    format!(
                        "{:.1}..{:.1}",
                        *r.start() as f64 / 10.0,
                        *r.end() as f64 / 10.0
                    )
                }),
            ),
            // The budget in effect (--se-budget's default is 10s): a
            // resume giving the default's value goes through.
            (
                "se-budget",
                opts::duration_text(
                    args.se
                        .as_ref()
                        .map(|_| args.se_budget.unwrap_or(crate::rows::rate::DEFAULT_BUDGET)),
                ),
            ),
            ("max-tries", args.max_tries.to_string()),
            ("distinct", args.distinct.to_string()),
            ("exclude", args.exclude.len().to_string()),
            ("labels", args.labels.to_string()),
            ("blank", char::from(args.blank).to_string()),
        ],
        header,
        text_columns: Vec::new(),
        format: args.output.resolve_format(),
    };
    let (mut out, mut w, mut kept) = RunOutput::open(Some(output), &spec, args.output.resume)?;
    w.set_blank(args.blank);
    let excluded = match excluded_classes(&args.exclude, args.threads.count()) {
        Ok(e) => e,
        Err(e) => return Err(out.fail(w, e)),
    };
    // --distinct: the classes written (those of the kept rows first), and
    // the generator and canonicalizer that replace a duplicate on this
    // thread (in index order).
    let mut classes = args.distinct.then(Classes::new);
    let mut canon = Canonicalizer::new();
    let mut record_kept = |index: u64, puzzle: &str| -> anyhow::Result<()> {
        if let Some(classes) = classes.as_mut() {
            let grid = crate::grid::Grid::parse(puzzle).map_err(|e| {
                anyhow::anyhow!("a kept row {index} has no puzzle ({e}): the file is damaged")
            })?;
            classes.first_of(canon.canonicalize(&grid).digest(), index);
        }
        Ok(())
    };
    let resumed = match kept.as_mut().map(|k| k.drain(&mut record_kept)).transpose() {
        Ok(n) => n.unwrap_or(0),
        Err(e) => return Err(out.fail(w, e)),
    };

    if let Some(seed) = args.puzzle_seed {
        let result = Generator::new(opts).candidate(seed);
        return match result {
            Ok(p) => {
                write_row(&mut w, 1, &p, args.labels)?;
                out.commit(w)?;
                Ok(ExitCode::from(exit::OK))
            }
            Err(r) => {
                // No row: an older FILE stays as it was.
                let note = out.incomplete(w, false)?;
                eprintln!(
                    "sudoflow: error: puzzle seed {seed} makes a candidate the filters reject \
                     ({}); use the --symmetry, --minimal and filter options of the run that \
                     printed it",
                    r.as_str()
                );
                if let Some(note) = note {
                    eprintln!("sudoflow: {note}");
                }
                Ok(ExitCode::from(exit::FAILURE))
            }
        };
    }

    let threads = args.threads.count();
    let start = Instant::now();
    let deadline = args.max_time.map(|b| start + b);
    let tally = Tally::new();
    let show = !args.output.quiet && std::io::stderr().is_terminal();
    let done = AtomicBool::new(false);
    // Rows written by this run, for the progress bar.
    let shown = AtomicU64::new(0);
    let mut written = 0u64;
    let labels = args.labels;
    let mut failure = None;

    // Indices taken by the workers and not yet written hold a token each:
    // at most `window` results wait, however slow one index is.
    let window = (16 * threads).max(CHUNK as usize);
    let (token_tx, token_rx) = bounded::<()>(window);
    for _ in 0..window {
        token_tx.send(()).expect("receiver alive");
    }
    let next = AtomicU64::new(resumed + 1);
    let (made_tx, made_rx) = unbounded::<(u64, Made)>();
    let (row_tx, row_rx) = bounded::<(u64, Result<Generated, GiveUp>)>(window);
    let run = std::thread::scope(|scope| -> anyhow::Result<()> {
        // A thread the system refuses (`ulimit -u`) fails the run before
        // any row is written: the threads started see the run's end.
        let refused = |e: std::io::Error| {
            tally.first_failure.fetch_min(0, Relaxed);
            done.store(true, Relaxed);
            crate::threads::spawn_error("the worker threads", e)
        };
        if show {
            let bar = || progress(args.count, resumed, &shown, &tally, &done);
            crate::threads::spawn_scoped(scope, bar).map_err(refused)?;
        }
        let (tally, opts, next) = (&tally, &opts, &next);
        let excluded = excluded.as_ref().map(|(classes, _)| classes);
        for _ in 0..threads {
            let (made_tx, token_rx) = (made_tx.clone(), token_rx.clone());
            crate::threads::spawn_scoped(scope, move || {
                let mut gen = Generator::new(opts.clone());
                let mut check = ClassCheck {
                    canon: Canonicalizer::new(),
                    wanted: args.distinct || excluded.is_some(),
                    excluded,
                };
                while token_rx.recv().is_ok() {
                    let i = next.fetch_add(1, Relaxed);
                    // Past the last index, or past one that gave up (or
                    // the end of the run: no row of theirs is written).
                    if i > args.count || tally.first_failure.load(Relaxed) < i {
                        break;
                    }
                    let limits = (args.max_tries, deadline);
                    let made = make(&mut gen, &mut check, seed, i, limits, tally);
                    if made_tx.send((i, made)).is_err() {
                        break;
                    }
                }
            })
            .map_err(refused)?;
        }
        drop(made_tx);
        // Puts the workers' puzzles in index order and, with --distinct,
        // replaces a repeated class (in index order, on this one thread),
        // so that the writer below stays free to flush.
        let classes = &mut classes;
        crate::threads::spawn_scoped(scope, move || {
            let mut pending = std::collections::BTreeMap::new();
            let mut want = resumed + 1;
            let mut local: Option<(Generator, Canonicalizer)> = None;
            for (i, made) in made_rx {
                pending.insert(i, made);
                while let Some(made) = pending.remove(&want) {
                    let row = match (made, classes.as_mut()) {
                        (Ok((p, digest)), Some(classes)) => {
                            let local = local.get_or_insert_with(|| {
                                (Generator::new(opts.clone()), Canonicalizer::new())
                            });
                            let limits = (args.max_tries, deadline);
                            let at = (seed, want);
                            distinct(p, digest, at, classes, excluded, local, limits, tally)
                        }
                        (made, _) => made.map(|(p, _)| p),
                    };
                    let last = row.is_err();
                    if row_tx.send((want, row)).is_err() || last {
                        return;
                    }
                    want += 1;
                }
            }
        })
        .map_err(refused)?;
        // This thread writes the rows in order, and pushes them to the file
        // at least once a second even while the next puzzle takes long.
        let result = (|| -> anyhow::Result<()> {
            loop {
                let (i, row) = match row_rx.recv_timeout(FLUSH_WAIT) {
                    Ok(row) => row,
                    Err(RecvTimeoutError::Timeout) => {
                        out.tick(&mut w)?;
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => return Ok(()),
                };
                match row {
                    Ok(p) => {
                        write_row(&mut w, i, &p, labels)?;
                        out.row_written(&mut w)?;
                        written += 1;
                        shown.store(written, Relaxed);
                        let _ = token_tx.send(());
                    }
                    Err(e) => {
                        failure = Some((i, e));
                        return Ok(());
                    }
                }
            }
        })();
        // The workers end once the tokens are gone, the orderer once
        // nobody reads its rows; what they are making is not written.
        drop(token_tx);
        drop(row_rx);
        tally.first_failure.fetch_min(0, Relaxed);
        done.store(true, Relaxed);
        result
    });
    if let Err(e) = run {
        return Err(out.fail(w, e));
    }

    let secs = start.elapsed().as_secs_f64();
    let line = {
        let rejected = tally.rejections();
        format!(
            "generated {written} puzzles{} in {secs:.2} s ({:.0} puzzles/s, {} thread{}), {} \
             candidates ({:.1}% accepted{}{}), seed {seed}{}",
            if resumed > 0 {
                format!(
                    " (rows {}..{}; rows 1..{resumed} resumed from the interrupted run)",
                    resumed + 1,
                    resumed + written
                )
            } else {
                String::new()
            },
            written as f64 / secs.max(1e-9),
            threads,
            if threads == 1 { "" } else { "s" },
            tally.tries.load(Relaxed),
            tally.acceptance(),
            if rejected.is_empty() {
                ""
            } else {
                "; rejected: "
            },
            rejected,
            excluded
                .as_ref()
                .map_or_else(String::new, |(classes, skipped)| {
                    let skipped = match skipped {
                        0 => String::new(),
                        1 => ", 1 record not a puzzle skipped".to_string(),
                        n => format!(", {n} records not puzzles skipped"),
                    };
                    format!("; {} classes excluded (--exclude{skipped})", classes.len())
                }),
        )
    };
    if let Some((_, GiveUp::Interrupted)) = failure {
        let signal = crate::interrupt::requested().unwrap_or(2);
        return out.interrupted(w, signal, &line);
    }
    // Complete: every puzzle. When the run's own limits stopped it (exit
    // 1), the rows before the puzzle that gave up stay in FILE.partial and
    // an older FILE is left as it was (found by probing: committing
    // replaced a finished book's 1,000 rows with the fewer ones made).
    let kept_note = match failure {
        None => {
            out.commit(w)?;
            None
        }
        Some((_, give_up)) => out.incomplete(w, give_up == GiveUp::Time)?,
    };
    if !args.output.quiet {
        eprintln!("sudoflow: {line}");
    }
    if let Some(note) = kept_note {
        eprintln!("sudoflow: {note}");
    }
    match failure {
        None => Ok(ExitCode::from(exit::OK)),
        Some((_, GiveUp::Interrupted)) => unreachable!("handled above"),
        // Skipped is never first in index order: the lower index that gave up is.
        Some((i, GiveUp::MaxTries | GiveUp::Skipped)) => {
            // Minimal puzzles keep the clues their pattern needs: a clue range
            // or WNF band they miss is often reachable only without minimality.
            // Minimal puzzles seldom have 28 clues or more (most have 22-26),
            // and WNF band 1 needs many clues.
            let many_clues = args.clues.as_ref().is_some_and(|c| *c.start() >= 28)
                || args.wnf_level.as_ref().is_some_and(|l| *l.end() <= 1);
            let hint = if !args.no_minimal && many_clues {
                " Minimal puzzles seldom have that many clues: try --no-minimal."
            } else {
                ""
            };
            // The filters that rejected candidates, by name, most first.
            let mut by: Vec<(u64, &str)> = REJECTS
                .iter()
                .zip(&tally.rejected)
                .map(|(r, n)| (n.load(Relaxed), filter_option(*r)))
                .filter(|(n, _)| *n > 0)
                .collect();
            if tally.duplicates.load(Relaxed) > 0 {
                by.push((tally.duplicates.load(Relaxed), "--distinct"));
            }
            if tally.excluded.load(Relaxed) > 0 {
                by.push((tally.excluded.load(Relaxed), "--exclude"));
            }
            by.sort_by_key(|b| std::cmp::Reverse(b.0));
            let mut names: Vec<&str> = Vec::new();
            for (_, name) in &by {
                if !names.contains(name) {
                    names.push(name);
                }
            }
            let loosen = match names.as_slice() {
                [] => String::new(),
                [one] => format!("Loosen {one}, or raise --max-tries."),
                [rest @ .., last] => {
                    format!(
                        "Loosen {} or {last}, or raise --max-tries.",
                        rest.join(", ")
                    )
                }
            };
            eprintln!(
                "sudoflow: error: puzzle {i}: none of its {} candidates (--max-tries) passed \
                 the filters; {} puzzle{} written. {loosen}{hint} Over the run, {} candidates \
                 were made and {:.3}% accepted{}.",
                args.max_tries,
                resumed + written,
                if resumed + written == 1 { "" } else { "s" },
                tally.tries.load(Relaxed),
                tally.acceptance(),
                match tally.rejections() {
                    r if r.is_empty() => String::new(),
                    r => format!("; rejected: {r}"),
                },
            );
            Ok(ExitCode::from(exit::FAILURE))
        }
        Some((i, GiveUp::Time)) => {
            eprintln!(
                "sudoflow: error: --max-time ran out at puzzle {i} (acceptance {:.3}%); \
                 {} puzzles written",
                tally.acceptance(),
                resumed + written
            );
            Ok(ExitCode::from(exit::FAILURE))
        }
    }
}

/// Draws the progress bar on stderr until `done`: rows written (`shown`,
/// after the `resumed` ones) against `count`, puzzles/s and the share of
/// candidates the filters accept.
fn progress(count: u64, resumed: u64, shown: &AtomicU64, tally: &Tally, done: &AtomicBool) {
    let bar = ProgressBar::with_draw_target(Some(count), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} {wide_bar} {pos}/{len} puzzles (eta {eta}) {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    while !done.load(Relaxed) {
        let written = shown.load(Relaxed);
        bar.set_position(resumed + written);
        bar.set_message(format!(
            "{:.0} puzzles/s, {:.1}% of candidates accepted",
            written as f64 / start.elapsed().as_secs_f64().max(1e-3),
            tally.acceptance()
        ));
        std::thread::sleep(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A puzzle whose class was written already is replaced by the next
    /// candidate of its own seed stream with a new class; a new class is
    /// kept and recorded.
    #[test]
    fn distinct_replaces_a_repeated_class_from_the_same_stream() {
        let opts = GenerateOptions::default();
        let tally = Tally::new();
        let mut local = (Generator::new(opts.clone()), Canonicalizer::new());
        let limits = (1000, None);
        let mut check = ClassCheck {
            canon: Canonicalizer::new(),
            wanted: true,
            excluded: None,
        };
        let (p, digest) = make(&mut local.0, &mut check, 9, 3, limits, &tally).unwrap();
        assert_eq!(digest, local.1.canonicalize(&p.puzzle).digest());

        // New: kept as it is, and recorded under index 3.
        let mut classes = Classes::new();
        let kept = distinct(
            p,
            digest,
            (9, 3),
            &mut classes,
            None,
            &mut local,
            limits,
            &tally,
        );
        assert_eq!(kept.unwrap().seed, p.seed);
        assert_eq!(classes.first_of(digest, 99), 3);

        // Seen before (as index 1): the stream's next candidate instead.
        let mut classes = Classes::new();
        classes.first_of(digest, 1);
        let q = distinct(
            p,
            digest,
            (9, 3),
            &mut classes,
            None,
            &mut local,
            limits,
            &tally,
        );
        let q = q.unwrap();
        let mut seeds = seed_stream(9, 3);
        while seeds.next_u64() != p.seed {}
        let next = make_from(&mut local.0, &mut seeds, 3, 1000, None, &tally, |_| true).unwrap();
        assert_eq!(q.seed, next.seed);
        assert_eq!(q.puzzle, next.puzzle);
        let fresh = local.1.canonicalize(&q.puzzle).digest();
        assert_ne!(fresh, digest);
        assert_eq!(classes.len(), 2);
        assert_eq!(classes.first_of(fresh, 99), 3);
        assert_eq!(tally.duplicates.load(Relaxed), 1);

        // Excluded too: the candidate after that one.
        let mut excluded = Classes::new();
        excluded.first_of(fresh, 0);
        let mut classes = Classes::new();
        classes.first_of(digest, 1);
        let r = distinct(
            p,
            digest,
            (9, 3),
            &mut classes,
            Some(&excluded),
            &mut local,
            limits,
            &tally,
        );
        let after = make_from(&mut local.0, &mut seeds, 3, 1000, None, &tally, |_| true).unwrap();
        assert_eq!(r.unwrap().seed, after.seed);
        assert_eq!(tally.excluded.load(Relaxed), 1);
    }

    #[test]
    fn a_worker_passes_over_an_excluded_class() {
        let tally = Tally::new();
        let mut gen = Generator::new(GenerateOptions::default());
        let mut check = ClassCheck {
            canon: Canonicalizer::new(),
            wanted: true,
            excluded: None,
        };
        let (p, digest) = make(&mut gen, &mut check, 4, 1, (1000, None), &tally).unwrap();
        let mut excluded = Classes::new();
        excluded.first_of(digest, 0);
        check.excluded = Some(&excluded);
        let (q, other) = make(&mut gen, &mut check, 4, 1, (1000, None), &tally).unwrap();
        assert_ne!((q.seed, other), (p.seed, digest));
        let mut seeds = seed_stream(4, 1);
        while seeds.next_u64() != p.seed {}
        let next = make_from(&mut gen, &mut seeds, 1, 1000, None, &tally, |_| true).unwrap();
        assert_eq!(q.seed, next.seed, "the stream's next candidate that passes");
        assert_eq!(tally.excluded.load(Relaxed), 1);
    }
}
