//! Solver statistics per public set and pruning level: puzzles/s, µs/puzzle,
//! guesses/puzzle, % solved without a guess, and % solved by propagation
//! alone (`guess = false`). Single thread, count up to 2, first solution kept.
//!
//! ```text
//! cargo run --release --example solver_stats [-- SET_NAME_FILTER [MAX_PUZZLES]]
//! ```
//! The optional filter keeps the sets whose file name contains it; the
//! optional cap solves only the first MAX_PUZZLES of each set (for callgrind).
//! Environment: `PRUNE=basic,matching` picks levels; `NO_PEER=1` skips the
//! `sudoku` crate row; `NO_ALONE=1` skips the propagation-alone pass.

use std::time::Instant;
use sudoflow::datasets;
use sudoflow::solver::{Prune, SolveOptions, Solver};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let filter = args.first().cloned().unwrap_or_default();
    let cap: usize = match args.get(1) {
        Some(n) => n.parse()?,
        None => usize::MAX,
    };
    println!(
        "| set | prune | puzzles | puzzles/s | µs/puzzle | guesses/puzzle | % no guess | % propagation alone |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    for name in datasets::PUBLIC {
        if !name.contains(&filter) {
            continue;
        }
        let mut puzzles = datasets::load_public(name)?;
        puzzles.truncate(cap);
        for prune in prunes() {
            let opts = SolveOptions {
                prune,
                ..SolveOptions::default()
            };
            let mut solver = Solver::new(opts);
            let (mut guesses, mut no_guess, mut checksum) = (0u64, 0usize, 0u64);
            let start = Instant::now();
            for p in &puzzles {
                let out = solver.solve(p);
                guesses += out.guesses;
                no_guess += (out.guesses == 0) as usize;
                checksum += out.solutions;
            }
            let secs = start.elapsed().as_secs_f64();
            let mut alone = Solver::new(SolveOptions {
                guess: false,
                ..opts
            });
            let skip_alone = std::env::var_os("NO_ALONE").is_some();
            let solved_alone = puzzles
                .iter()
                .take(if skip_alone { 0 } else { puzzles.len() })
                .filter(|p| {
                    let out = alone.solve(p);
                    !out.stuck && out.solutions > 0
                })
                .count();
            let n = puzzles.len() as f64;
            println!(
                "| {} | {:?} | {} | {:.0} | {:.2} | {:.2} | {:.1} | {:.1} |",
                name.trim_end_matches(".txt"),
                prune,
                puzzles.len(),
                n / secs,
                secs * 1e6 / n,
                guesses as f64 / n,
                100.0 * no_guess as f64 / n,
                100.0 * solved_alone as f64 / n,
            );
            std::hint::black_box(checksum);
        }
        if std::env::var_os("NO_PEER").is_some() {
            continue;
        }
        // Peer, same puzzles, same run: the `sudoku` crate 0.8 counting up to 2
        // and keeping the solutions it finds.
        let start = Instant::now();
        let mut found = 0usize;
        let mut buf = [[0u8; 81]; 2];
        for p in &puzzles {
            let sudoku = sudoku::Sudoku::from_bytes(*p.cells()).expect("valid cells");
            found += sudoku.solutions_up_to_buffer(&mut buf, 2);
        }
        let secs = start.elapsed().as_secs_f64();
        std::hint::black_box(found);
        let n = puzzles.len() as f64;
        println!(
            "| {} | sudoku crate 0.8 | {} | {:.0} | {:.2} | | | |",
            name.trim_end_matches(".txt"),
            puzzles.len(),
            n / secs,
            secs * 1e6 / n,
        );
    }
    Ok(())
}

/// Levels to measure: all, or those named in `PRUNE` (comma-separated,
/// e.g. `PRUNE=basic`).
fn prunes() -> Vec<Prune> {
    use clap::ValueEnum;
    match std::env::var("PRUNE") {
        Ok(list) => list
            .split(',')
            .filter_map(|s| Prune::from_str(s, true).ok())
            .collect(),
        Err(_) => Prune::value_variants().to_vec(),
    }
}
