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
    /// Compare solvers on puzzle files: puzzles/s, guesses, answered %.
    Bench(cmd::bench::BenchArgs),
    /// Generate rated, proper (unique-solution) puzzles, reproducibly.
    Generate(cmd::generate::GenerateArgs),
    /// Exact number of solutions of each record.
    Count(cmd::count::CountArgs),
    /// Number of complete grids for a box shape (default 3x3: all Sudoku grids).
    CountGrids(cmd::count_grids::CountGridsArgs),
}
