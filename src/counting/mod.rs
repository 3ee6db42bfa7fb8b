//! Exact counting: the number of complete grids of a box shape
//! ([`grids`], `sudoflow count-grids`) and the number of solutions of each
//! puzzle ([`solutions`], `sudoflow count`).
//!
//! Terms as in [`crate::solver`]: a *band* is a horizontal strip of boxes
//! (as many rows as a box), a *stack* a vertical strip (as many columns as a
//! box); a *minicolumn* is the part of a column inside one box.

pub mod grids;
mod shape;
pub mod solutions;
mod top_band;

pub use grids::{count_grids, BoxShape, CountGridsError, GridCount};
pub use solutions::{count_record, CountOptions, CountResult};
