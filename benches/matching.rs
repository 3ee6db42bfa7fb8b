//! `cargo bench --bench matching`: the forbidden-edge filter per unit and the
//! pure matching propagation per puzzle, on top1465 (magictour's 1,465 hard
//! puzzles).
//!
//! Unit inputs are realistic stalled states: for each puzzle, the 27 units of
//! `candidates_from_givens` (the seed's starting graph) and the 27 units of the
//! fixed point of `propagate_matching` (what a solver meets when propagation
//! stalls). Throughput is reported per unit and per puzzle.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::time::Duration;
use sudoflow::datasets;
use sudoflow::grid::{Grid, UNITS};
use sudoflow::solver::matching::{candidates_from_givens, filter_unit, propagate_matching};

fn units_of(cands: &[u16; 81]) -> impl Iterator<Item = [u16; 9]> + '_ {
    UNITS.iter().map(|unit| unit.map(|c| cands[c as usize]))
}

fn bench_matching(c: &mut Criterion) {
    let puzzles: Vec<Grid> = datasets::load_public(datasets::TOP1465).expect("top1465");
    let start: Vec<[u16; 81]> = puzzles.iter().map(candidates_from_givens).collect();
    let given_units: Vec<[u16; 9]> = start.iter().flat_map(units_of).collect();
    let stalled_units: Vec<[u16; 9]> = start
        .iter()
        .filter_map(|c| {
            let mut c = *c;
            propagate_matching(&mut c).ok().map(|_| c)
        })
        .flat_map(|c| units_of(&c).collect::<Vec<_>>())
        .collect();

    let mut group = c.benchmark_group("filter_unit");
    group
        .measurement_time(Duration::from_secs(8))
        .warm_up_time(Duration::from_secs(2));
    for (name, units) in [
        ("top1465_givens", &given_units),
        ("top1465_stalled", &stalled_units),
    ] {
        group.throughput(Throughput::Elements(units.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut kept = 0u32;
                for unit in units {
                    if let Some(out) = filter_unit(black_box(*unit)) {
                        kept = kept.wrapping_add(out[0] as u32);
                    }
                }
                kept
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("propagate_matching");
    group
        .measurement_time(Duration::from_secs(10))
        .warm_up_time(Duration::from_secs(2))
        .sample_size(20);
    group.throughput(Throughput::Elements(start.len() as u64));
    group.bench_function("top1465", |b| {
        b.iter(|| {
            let mut solved = 0u32;
            for cands in &start {
                let mut cands = *cands;
                if propagate_matching(black_box(&mut cands)) == Ok(true) {
                    solved += 1;
                }
            }
            solved
        })
    });
    group.finish();
}

criterion_group!(benches, bench_matching);
criterion_main!(benches);
