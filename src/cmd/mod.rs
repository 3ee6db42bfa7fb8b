//! One module per subcommand: its clap options and its `run`.

pub mod bench;
pub mod count;
pub mod count_grids;
pub mod generate;
pub mod solve;
