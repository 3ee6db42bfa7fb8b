//! `count-grids` wall time: 9x9 (the required < 10 s with 2 threads) and 2x4
//! (8x8), each with 1 and 2 threads in a local rayon pool, as the binary's
//! `-j` does. Run: `cargo bench --bench count_grids`; figures go to
//! BENCHMARKS.md (`## count-grids`).

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;
use sudoflow::counting::grids::{count_grids, BoxShape};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("count_grids");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(15));
    for (shape, total) in [
        (BoxShape::CLASSIC, 6_670_903_752_021_072_936_960u128),
        (BoxShape { rows: 2, cols: 4 }, 29_136_487_207_403_520),
    ] {
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("thread pool");
            group.bench_function(format!("{shape}/j{threads}"), |b| {
                b.iter(|| {
                    let count = pool
                        .install(|| count_grids(shape))
                        .expect("supported shape");
                    assert_eq!(count.total, total);
                    count
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
