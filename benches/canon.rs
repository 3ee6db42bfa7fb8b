//! Canonical forms per CPU-second: sudoflow's [`Canonicalizer`] beside the
//! `sudoku` crate's `Sudoku::canonicalized` (which solves the puzzle, then
//! canonicalises its solution grid), in one run, on the same puzzles.
//!
//! `cargo bench --bench canon` times one pass over each whole set per
//! iteration, for each of the two, on one thread: `datasets/puzzles2_17_clue.txt`
//! (49,158 puzzles) and `datasets/generated-10k.csv` (`generate`'s corpus,
//! its `puzzle` column). Each iteration's time is the thread's CPU time
//! (`cpu-time`), not wall time, so other work on a shared machine does not
//! count; criterion's thrpt line is then puzzles per CPU-second. A third
//! group times the pencilmark canonicaliser on the candidates of each set's
//! first 2,000 puzzles (no peer). Sets that
//! are missing (run `make datasets`) are skipped with a message.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;
use sudoflow::canon::{Canonicalizer, PencilmarkCanonicalizer};
use sudoflow::grid::{Grid, Pencilmarks};

/// The puzzles of `path`: the `puzzle` column of a CSV with a header, else
/// the first 81 characters of each line that is not blank or a comment.
fn load(path: &Path) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(path).ok()?;
    let csv = text.starts_with("index,puzzle");
    Some(
        text.lines()
            .skip(usize::from(csv))
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| {
                let field = if csv {
                    l.split(',').nth(1).unwrap_or("")
                } else {
                    l
                };
                field.get(..81).unwrap_or(field).to_string()
            })
            .collect(),
    )
}

/// `routine` run `iters` times, timed by the thread's CPU clock.
fn cpu_timed(iters: u64, mut routine: impl FnMut()) -> Duration {
    let start = cpu_time::ThreadTime::now();
    for _ in 0..iters {
        routine();
    }
    start.elapsed()
}

fn canon(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets");
    for (name, file) in [
        ("17-clue", "puzzles2_17_clue.txt"),
        ("generated-10k", "generated-10k.csv"),
    ] {
        let Some(lines) = load(&root.join(file)) else {
            eprintln!("canon bench: {file} missing, skipped (make datasets)");
            continue;
        };
        let ours: Vec<Grid> = lines.iter().map(|l| Grid::parse(l).unwrap()).collect();
        let theirs: Vec<sudoku::Sudoku> = lines
            .iter()
            .map(|l| sudoku::Sudoku::from_str_line(l).unwrap())
            .collect();
        let mut group = c.benchmark_group(format!("canon/{name}"));
        group.throughput(Throughput::Elements(lines.len() as u64));
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(20));
        let mut canon = Canonicalizer::new();
        group.bench_function(BenchmarkId::new("sudoflow", lines.len()), |b| {
            b.iter_custom(|iters| {
                cpu_timed(iters, || {
                    for g in &ours {
                        black_box(canon.canonicalize(black_box(g)));
                    }
                })
            })
        });
        group.bench_function(BenchmarkId::new("sudoku-crate", lines.len()), |b| {
            b.iter_custom(|iters| {
                cpu_timed(iters, || {
                    for s in &theirs {
                        black_box(black_box(s).canonicalized());
                    }
                })
            })
        });
        group.finish();
        // Pencilmark lines: the candidates of the first 2,000 puzzles'
        // givens (blanks full). No peer canonicalises candidates.
        let marks: Vec<Pencilmarks> = ours.iter().take(2000).map(Pencilmarks::of_grid).collect();
        let mut group = c.benchmark_group(format!("canon-pencilmarks/{name}"));
        group.throughput(Throughput::Elements(marks.len() as u64));
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(20));
        let mut canon = PencilmarkCanonicalizer::new();
        group.bench_function(BenchmarkId::new("sudoflow", marks.len()), |b| {
            b.iter_custom(|iters| {
                cpu_timed(iters, || {
                    for pm in &marks {
                        black_box(canon.canonicalize(black_box(pm)));
                    }
                })
            })
        });
        group.finish();
    }
}

criterion_group!(benches, canon);
criterion_main!(benches);
