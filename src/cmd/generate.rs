//! `sudoflow generate`.

use std::process::ExitCode;

/// Options of `sudoflow generate`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {}

/// Runs `sudoflow generate`.
pub fn run(_args: GenerateArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`generate` is not built yet")
}
