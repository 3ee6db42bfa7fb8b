//! `sudoflow count`.

use std::process::ExitCode;

/// Options of `sudoflow count`.
#[derive(Debug, clap::Args)]
pub struct CountArgs {}

/// Runs `sudoflow count`.
pub fn run(_args: CountArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`count` is not built yet")
}
