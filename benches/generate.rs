//! Criterion benchmark of the generator, plus a full minimality check.
//!
//! `cargo bench --bench generate` times [`Generator::candidate`] (one minimal
//! puzzle, no filters) for `--symmetry none` and `rot180`.
//!
//! `GENERATE_VERIFY=out.csv cargo bench --bench generate` instead checks every
//! row of a `sudoflow generate` CSV made with `--symmetry none` (the default):
//! exactly one solution, equal to the `solution` column, and every given
//! necessary (removing it leaves 2+ solutions). benches/generate.sh runs it on
//! the benchmarked output. Exits 1 on the first failure, naming the row.

use criterion::{criterion_group, Criterion, Throughput};
use std::hint::black_box;
use sudoflow::generator::{GenerateOptions, Generator, Symmetry};
use sudoflow::grid::Grid;
use sudoflow::solver::count_solutions;

fn candidates(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate");
    group.throughput(Throughput::Elements(1));
    for sym in [Symmetry::None, Symmetry::Rot180] {
        let mut gen = Generator::new(GenerateOptions {
            symmetry: sym,
            ..GenerateOptions::default()
        });
        let mut seed = 0u64;
        group.bench_function(format!("minimal/{sym:?}"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(gen.candidate(seed).ok())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, candidates);

fn verify(path: &str) -> Result<usize, String> {
    let mut reader = csv::Reader::from_path(path).map_err(|e| format!("{path}: {e}"))?;
    let headers = reader.headers().map_err(|e| e.to_string())?.clone();
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .ok_or(format!("{path}: no column {name}"))
    };
    let (pc, sc, ic) = (col("puzzle")?, col("solution")?, col("index")?);
    let mut n = 0;
    for rec in reader.records() {
        let rec = rec.map_err(|e| e.to_string())?;
        let index = &rec[ic];
        let puzzle = Grid::parse(&rec[pc]).map_err(|e| format!("row {index}: {e}"))?;
        let solution = Grid::parse(&rec[sc]).map_err(|e| format!("row {index}: {e}"))?;
        if count_solutions(&puzzle, 2) != 1 || !solution.is_solution_of(&puzzle) {
            return Err(format!("row {index}: not proper or wrong solution"));
        }
        for c in 0..81 {
            if puzzle.get(c) != 0 {
                let mut q = puzzle;
                q.set(c, 0);
                if count_solutions(&q, 2) < 2 {
                    return Err(format!(
                        "row {index}: given {} is not necessary",
                        sudoflow::grid::cell_name(c)
                    ));
                }
            }
        }
        n += 1;
    }
    Ok(n)
}

fn main() {
    if let Ok(path) = std::env::var("GENERATE_VERIFY") {
        match verify(&path) {
            Ok(n) => println!("verified {n} puzzles of {path}: each proper, every given necessary"),
            Err(e) => {
                eprintln!("verify: {e}");
                std::process::exit(1);
            }
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
