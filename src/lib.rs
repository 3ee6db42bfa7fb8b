//! sudoflow: Sudoku at scale.
//!
//! A streaming reader feeds puzzles through a bounded crossbeam channel to a
//! pool of workers, each running a bitmask backtracking [`solver`]; a writer
//! emits one CSV row per record, in input order, with bounded memory.
//!
//! ```
//! use sudoflow::grid::Grid;
//! use sudoflow::solver::{SolveOptions, Solver};
//!
//! let puzzle = Grid::parse(
//!     "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
//! )?;
//! let outcome = Solver::new(SolveOptions::default()).solve(&puzzle);
//! assert_eq!(outcome.solutions, 1);
//! assert!(outcome.solution.unwrap().is_solution_of(&puzzle));
//! # Ok::<(), sudoflow::grid::ParseError>(())
//! ```
//!
//! **Features.** `cli` (on by default) adds the command line: the `sudoflow`
//! binary and the `cli` and `cmd` modules, with clap, indicatif and
//! humantime. Without it (`default-features = false`) the library depends
//! on nothing terminal: [`pipeline`] reports progress through
//! [`pipeline::Progress`], and the row each command writes for a record is
//! in [`rows`]. `mimalloc` is the binary's allocator; `ilp` and `sat` add
//! reference solvers to [`bench`](mod@bench); `render` (on with `cli`)
//! the pictures and books of `explain --format svg|html` and `print`
//! (krilla for PDF).
#![warn(missing_docs)]

pub mod bench;
pub mod canon;
#[cfg(feature = "fuzzing")]
pub mod checks;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
pub mod cmd;
pub mod counting;
pub mod datasets;
pub mod exit;
pub mod generator;
pub mod grid;
pub mod interrupt;
#[cfg(feature = "cli")]
pub mod opts;
pub mod outfile;
pub mod output;
pub mod pipeline;
pub mod rating;
#[cfg(feature = "render")]
pub mod render;
pub mod rows;
pub mod solver;
pub mod threads;
pub mod work;
