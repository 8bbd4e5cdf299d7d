//! Perft speed: perft(4) of Copenhagen from the start on one thread (issue target: under 1 s).
//! Run with `cargo bench -p tafl-engine --bench perft`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tafl_engine::{perft::perft, variant};

const COPENHAGEN_PERFT_4: u64 = 50_456_804;

fn copenhagen_perft_4(c: &mut Criterion) {
    let rules = variant("copenhagen").unwrap().rules();
    let start = rules.start_position();

    // One plain timed run first, printed as the figure the issue asks for.
    let began = Instant::now();
    let leaves = perft(&rules, &start, 4);
    let seconds = began.elapsed().as_secs_f64();
    assert_eq!(leaves, COPENHAGEN_PERFT_4);
    println!(
        "copenhagen perft(4) = {leaves} in {seconds:.3} s, {:.1} M leaves/s (one thread)",
        leaves as f64 / seconds / 1e6
    );

    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));
    group.throughput(Throughput::Elements(COPENHAGEN_PERFT_4));
    group.bench_function("copenhagen depth 4", |b| {
        b.iter(|| perft(black_box(&rules), black_box(&start), 4))
    });
    group.finish();
}

criterion_group!(benches, copenhagen_perft_4);
criterion_main!(benches);
