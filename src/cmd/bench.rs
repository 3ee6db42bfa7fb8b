//! `sudoflow bench`.

use std::process::ExitCode;

/// Options of `sudoflow bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {}

/// Runs `sudoflow bench`.
pub fn run(_args: BenchArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`bench` is not built yet")
}
