//! Process exit codes, documented in `--help` and README.md.

/// The run completed (whatever the puzzles' statuses).
pub const OK: u8 = 0;
/// The run completed but `--strict` found an invalid record, or `bench`'s
/// validation found a disagreement.
pub const FAILURE: u8 = 1;
/// Usage error, or an I/O error such as a missing input file.
pub const ERROR: u8 = 2;
/// A run stopped by a signal exits 128 + its number: 130 for SIGINT, 143
/// for SIGTERM ([`crate::interrupt::exit_status`]).
pub const SIGINT: u8 = 130;
/// See [`SIGINT`].
pub const SIGTERM: u8 = 143;
/// The run completed, but the work on some record panicked (a bug): those
/// records have rows with status `error`, every other row was written.
pub const INTERNAL: u8 = 3;
