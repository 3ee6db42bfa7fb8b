//! The row each streaming command writes for one input record, and the work
//! that makes it: what `sudoflow solve`, `count`, `rate`, `canon` and `explain` run on every
//! record (through [`crate::pipeline`]), in a form the Python package and
//! other library users call directly, without the command line.

pub mod canon;
pub mod count;
pub mod explain;
pub mod rate;
pub mod solve;
