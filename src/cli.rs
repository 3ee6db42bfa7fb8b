//! The command line: clap derive definitions shared by the binary.

use crate::cmd;
use clap::{Parser, Subcommand};

/// Sudoku at scale: solve, rate, generate and count puzzles, and benchmark solvers.
///
/// Exit codes: 0 the run completed; 1 `--strict` found invalid records or
/// `bench` found a disagreement; 2 usage or I/O error.
#[derive(Debug, Parser)]
#[command(name = "sudoflow", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve and rate puzzles in bulk: one CSV row per input record, in input order.
    Solve(cmd::solve::SolveArgs),
    /// Rate puzzles on Sudoku Explainer's scale (ER/EP/ED): one CSV row per record.
    Rate(cmd::rate::RateArgs),
    /// Show the path Sudoku Explainer follows through one puzzle, step by step.
    Explain(cmd::explain::ExplainArgs),
    /// Compare solvers on puzzle files: puzzles/s, guesses, answered %.
    Bench(cmd::bench::BenchArgs),
    /// Generate rated, proper (unique-solution) puzzles, reproducibly.
    Generate(cmd::generate::GenerateArgs),
    /// Exact number of solutions of each record.
    Count(cmd::count::CountArgs),
    /// Minlex canonical form, automorphisms and class of each record (deduplicate corpora).
    Canon(cmd::canon::CanonArgs),
    /// Number of complete grids for a box shape (default 3x3: all Sudoku grids).
    CountGrids(cmd::count_grids::CountGridsArgs),
}

/// The number of worker threads for `-j`: the value given, else every core
/// the process may use (1 if that cannot be told).
pub fn thread_count(threads: Option<std::num::NonZeroUsize>) -> usize {
    threads.map(std::num::NonZeroUsize::get).unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    })
}

/// A rayon pool of [`thread_count`]`(threads)` workers, for commands that
/// parallelise with rayon (`generate`, `count-grids`).
///
/// Errors: the threads cannot be started.
pub fn worker_pool(threads: Option<std::num::NonZeroUsize>) -> anyhow::Result<rayon::ThreadPool> {
    use anyhow::Context;
    rayon::ThreadPoolBuilder::new()
        .num_threads(thread_count(threads))
        .build()
        .context("cannot start the worker threads")
}
