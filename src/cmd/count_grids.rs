//! `sudoflow count-grids`.

use std::process::ExitCode;

/// Options of `sudoflow count-grids`.
#[derive(Debug, clap::Args)]
pub struct CountGridsArgs {}

/// Runs `sudoflow count-grids`.
pub fn run(_args: CountGridsArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`count-grids` is not built yet")
}
