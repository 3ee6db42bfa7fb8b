//! Share-nothing threads: one thread per input file in one process, each
//! running the pipeline on its own (`threads: 1`, so it reads, solves and
//! writes its rows itself, as `solve -j 1` does), the rows to /dev/null. No
//! record or row passes between threads; only the address space is shared.
//!
//! ```text
//! cargo run --release --example inline_threads -- PART_1 PART_2 ...
//! ```
//! `benches/threads_vs_processes.sh` runs it beside the same parts in
//! separate processes and beside `solve -j 2`, to tell what a threaded run
//! pays for sharing an address space from what it pays for handing records
//! and rows between threads (issue 15, BENCHMARKS.md).

use sudoflow::output::CsvSink;
use sudoflow::pipeline::{self, PipelineOptions};
use sudoflow::rows::solve::solve_record;
use sudoflow::solver::{SolveOptions, Solver};

fn main() -> anyhow::Result<()> {
    let parts: Vec<String> = std::env::args().skip(1).collect();
    anyhow::ensure!(!parts.is_empty(), "usage: inline_threads PART...");
    std::thread::scope(|scope| {
        let runs: Vec<_> = parts
            .iter()
            .map(|part| {
                scope.spawn(move || -> anyhow::Result<u64> {
                    let opts = PipelineOptions {
                        inputs: vec![part.into()],
                        threads: 1,
                        ..PipelineOptions::default()
                    };
                    let null = std::fs::File::create("/dev/null")?;
                    let mut sink = CsvSink::to_writer(Box::new(null), "/dev/null".into());
                    let solve_opts = SolveOptions::default();
                    let summary = pipeline::run(
                        &opts,
                        || Solver::new(solve_opts),
                        solve_record,
                        |row| sink.write_solve_row(&row),
                    )?;
                    sink.flush()?;
                    Ok(summary.records)
                })
            })
            .collect();
        for (part, run) in parts.iter().zip(runs) {
            let records = run.join().expect("a part's thread panicked")?;
            eprintln!("{part}: {records} records");
        }
        Ok(())
    })
}
