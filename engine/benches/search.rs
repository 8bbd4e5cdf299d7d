//! Search speed in 11x11 Copenhagen middle games, one thread: `cargo bench -p tafl-engine --bench search`.
//! Target (issue 3): at least 1,000,000 nodes per second.

use std::hint::black_box;
use std::time::Instant;

use common::middle_games;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tafl_engine::ai::{SearchLimits, Searcher};

mod common;

const NODES: u64 = 200_000;

fn search_speed(c: &mut Criterion) {
    let games = middle_games();
    let limits = SearchLimits::nodes(NODES)
        .with_table_mib(64)
        .with_threads(1);
    let mut searcher = Searcher::new(64);
    // One plain measurement first, printed as nodes/s.
    let started = Instant::now();
    let mut total = 0;
    for game in &games {
        searcher.clear();
        total += searcher.search(game, &limits).map_or(0, |r| r.nodes);
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "search: {} positions, {total} nodes in {seconds:.3} s = {:.0} nodes/s",
        games.len(),
        total as f64 / seconds
    );
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.throughput(Throughput::Elements(total));
    group.bench_function("copenhagen_middle_games_200k_nodes_each", |b| {
        b.iter(|| {
            for game in &games {
                black_box(searcher.search(game, &limits));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, search_speed);
criterion_main!(benches);
