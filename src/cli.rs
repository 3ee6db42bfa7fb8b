//! The command line: clap derive definitions shared by the binary, the
//! parsers of its option values and its progress bar (feature `cli`).

use crate::cmd;
use clap::{Parser, Subcommand};

/// Sudoku at scale: solve, rate, generate and count puzzles, and benchmark solvers.
///
/// Exit codes: 0 the run completed; 1 `--strict` found invalid records or
/// `bench` found a disagreement; 2 usage or I/O error; 3 an internal error
/// (a bug) on some record, which got a row with status `error`; 130/143
/// stopped by SIGINT/SIGTERM, 129/131 by SIGHUP/SIGQUIT (see `--resume`).
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
    #[command(mut_arg("time_budget", |a| crate::opts::budget_help(a, "10s")))]
    Rate(cmd::rate::RateArgs),
    /// Explain puzzles step by step as Sudoku Explainer solves them: cells, chains, in words or JSON.
    #[command(mut_arg("time_budget", |a| crate::opts::budget_help(a, "10s")))]
    #[command(mut_arg("inputs", |a| a
        .value_name("PUZZLE|INPUT")
        .help("Puzzles (81 cells) or puzzle files read in order as one stream ('-' or none: stdin)")
        .long_help(cmd::explain::INPUTS_HELP)))]
    Explain(cmd::explain::ExplainArgs),
    /// Print a book of puzzles as PDF (or SVG pages): grids with ratings, chapters, answers.
    #[command(mut_arg("time_budget", |a| crate::opts::budget_help(a, "10s")
        .long_help(cmd::print::BUDGET_HELP)))]
    #[command(mut_arg("wall_limit", |a| a.long_help(cmd::print::WALL_LIMIT_HELP)))]
    Print(cmd::print::PrintArgs),
    /// Compare solvers on puzzle files: puzzles/s, guesses, answered %.
    Bench(cmd::bench::BenchArgs),
    /// Generate rated, proper (unique-solution) puzzles, reproducibly.
    Generate(cmd::generate::GenerateArgs),
    /// Exact number of solutions of each record.
    #[command(mut_arg("time_budget", |a| crate::opts::budget_help(a, "none")))]
    Count(cmd::count::CountArgs),
    /// Minlex canonical form, automorphisms and class of each record (deduplicate corpora).
    Canon(cmd::canon::CanonArgs),
    /// Number of complete grids for a box shape (default 3x3: all Sudoku grids).
    CountGrids(cmd::count_grids::CountGridsArgs),
}
