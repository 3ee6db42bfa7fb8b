//! `sudoflow solve`.

use std::process::ExitCode;

/// Options of `sudoflow solve`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {}

/// Runs `sudoflow solve`.
pub fn run(_args: SolveArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`solve` is not built yet")
}
