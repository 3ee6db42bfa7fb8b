//! One module per subcommand: its clap options and its `run`.

pub mod bench;
pub mod canon;
pub mod count;
pub mod count_grids;
pub mod explain;
pub mod generate;
pub mod print;
pub mod rate;
pub mod solve;
