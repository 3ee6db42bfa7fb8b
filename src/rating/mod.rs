//! Difficulty ratings.
//!
//! - [`wnf`]: the WNF score of the modelling paper (../shared/docs/SEEDS.md
//!   section 2), computed from the givens alone in a few nanoseconds.
//! - [`se`]: Sudoku Explainer's human-technique rating (ER/EP/ED), found by
//!   solving the puzzle step by step the way SE 1.2.1.3 does.
//! - [`labels`]: names for ER ranges (Easy ... Diabolical), the levels of
//!   SE's own generator.

pub mod labels;
pub mod se;
mod wnf;

pub use wnf::{wnf, wnf_from_counts, wnf_level, Wnf};
