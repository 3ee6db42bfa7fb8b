//! The `sudoflow` binary: parses the command line and hands over to the library.

use clap::Parser;
use std::process::ExitCode;
use sudoflow::cli::{Cli, Command};
use sudoflow::{cmd, exit};

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                exit::ERROR
            } else {
                exit::OK
            });
        }
    };
    // A forced instruction-set path the CPU lacks is refused up front,
    // not ignored.
    if let Err(e) = sudoflow::solver::simd::check_env() {
        eprintln!("sudoflow: error: {e}");
        return ExitCode::from(exit::ERROR);
    }
    let result = match cli.command {
        Command::Solve(a) => cmd::solve::run(a),
        Command::Rate(a) => cmd::rate::run(a),
        Command::Explain(a) => cmd::explain::run(a),
        Command::Print(a) => cmd::print::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Generate(a) => cmd::generate::run(a),
        Command::Count(a) => cmd::count::run(a),
        Command::CountGrids(a) => cmd::count_grids::run(a),
        Command::Canon(a) => cmd::canon::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // A closed stdout (`| head`) ends the run quietly.
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::from(exit::OK);
            }
            eprintln!("sudoflow: error: {e:#}");
            ExitCode::from(exit::ERROR)
        }
    }
}
