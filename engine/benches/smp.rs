//! Lazy SMP: time to reach a depth on 1 thread and on 2 threads, over the middle-game
//! positions of the search bench: `cargo bench -p tafl-engine --bench smp`.
//! Target (issue "every core"): 2 threads at least 1.6x faster to the same depth.
//!
//! Environment: `SMP_DEPTH` (default 8), `SMP_RUNS` (default 3: the median of that many runs
//! per position and thread count), `SMP_THREADS` (default 2: the count compared with 1).
//!
//! On a shared machine other processes take cores from the two-thread runs first, so besides
//! the wall-clock ratio it prints the load average, the cores the runs actually got (process
//! CPU time over wall time) and the ratio of the *main thread's* CPU time to depth: what the
//! wall-clock ratio would be if every search thread had a core of its own.

use std::time::{Duration, Instant};

use common::middle_games;
use tafl_engine::Game;
use tafl_engine::ai::{SearchLimits, Searcher};

mod common;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_string())
}

/// CPU time the calling thread has used so far (from /proc/thread-self/schedstat, in ns), or
/// `None` where there is no /proc.
fn thread_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = stat.split_whitespace().next()?.parse::<u64>().ok()?;
    Some(Duration::from_nanos(ns))
}

/// CPU time this process has used so far, all threads (from /proc/self/stat, in clock ticks
/// of 10 ms), or `None` where there is no /proc.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses and may hold spaces.
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

struct Sample {
    wall: Duration,
    /// CPU time of the thread that called the search (the main search thread).
    main_cpu: Duration,
    nodes: u64,
    /// Cores busy on average (CPU time over wall time): below the thread count when other
    /// processes took the cores, which makes the speed-up look worse than it is.
    cores: f64,
}

/// The median (by time) of `runs` searches by a fresh searcher to complete `depth` plies.
fn time_to_depth(game: &Game, depth: u32, threads: usize, runs: u64) -> Sample {
    let limits = SearchLimits::depth(depth)
        .with_table_mib(64)
        .with_threads(threads);
    let mut searcher = Searcher::new(64);
    let mut samples: Vec<Sample> = (0..runs)
        .filter_map(|_| {
            searcher.clear();
            let cpu = cpu_time();
            let main_cpu = thread_cpu_time();
            let started = Instant::now();
            let result = searcher.search(game, &limits)?;
            let wall = started.elapsed();
            let used = cpu_time().zip(cpu).map_or(Duration::ZERO, |(b, a)| b - a);
            Some(Sample {
                wall,
                main_cpu: thread_cpu_time()
                    .zip(main_cpu)
                    .map_or(Duration::ZERO, |(b, a)| b - a),
                nodes: result.nodes,
                cores: used.as_secs_f64() / wall.as_secs_f64().max(1e-9),
            })
        })
        .collect();
    samples.sort_by_key(|s| s.wall);
    let middle = samples.len() / 2;
    samples.swap_remove(middle)
}

fn main() {
    // `cargo bench` passes `--bench`; anything else (a filter) is ignored.
    let depth = env_or("SMP_DEPTH", 8) as u32;
    let runs = env_or("SMP_RUNS", 3).max(1);
    let threads = env_or("SMP_THREADS", 2).max(2) as usize;
    let games = middle_games();
    println!(
        "smp: time to depth {depth}, 1 vs {threads} threads, {} positions, median of {runs}; load average {}",
        games.len(),
        load_average()
    );
    let (mut one_total, mut many_total) = (Duration::ZERO, Duration::ZERO);
    let (mut one_cpu, mut many_cpu) = (Duration::ZERO, Duration::ZERO);
    let (mut one_nodes, mut many_nodes, mut many_cores) = (0, 0, 0.0);
    let mut log_ratio = 0.0;
    for (i, game) in games.iter().enumerate() {
        let one = time_to_depth(game, depth, 1, runs);
        let many = time_to_depth(game, depth, threads, runs);
        let ratio = one.wall.as_secs_f64() / many.wall.as_secs_f64().max(1e-9);
        log_ratio += ratio.ln();
        one_total += one.wall;
        many_total += many.wall;
        one_cpu += one.main_cpu;
        many_cpu += many.main_cpu;
        one_nodes += one.nodes;
        many_nodes += many.nodes;
        many_cores += many.cores;
        println!(
            "  position {} (ply {}): 1 thread {:>6.3} s {:>8} nodes ({:.2} cores); {threads} threads {:>6.3} s {:>8} nodes ({:.2} cores), main thread {:.3} s CPU; speed-up {ratio:.2}x",
            i + 1,
            game.ply(),
            one.wall.as_secs_f64(),
            one.nodes,
            one.cores,
            many.wall.as_secs_f64(),
            many.nodes,
            many.cores,
            many.main_cpu.as_secs_f64(),
        );
    }
    let n = games.len().max(1) as f64;
    println!(
        "smp: total 1 thread {:.3} s, {threads} threads {:.3} s: speed-up {:.2}x (geometric mean of positions {:.2}x); load average {}",
        one_total.as_secs_f64(),
        many_total.as_secs_f64(),
        one_total.as_secs_f64() / many_total.as_secs_f64().max(1e-9),
        (log_ratio / n).exp(),
        load_average()
    );
    // What the machine gave the runs, and the speed-up had each thread had a core.
    println!(
        "smp: the {threads}-thread runs had {:.2} cores on average; nodes {threads} threads / 1 thread = {:.2} (helpers go on past the depth); main thread's CPU time to depth: 1 thread {:.3} s, {threads} threads {:.3} s: speed-up {:.2}x",
        many_cores / n,
        many_nodes as f64 / one_nodes.max(1) as f64,
        one_cpu.as_secs_f64(),
        many_cpu.as_secs_f64(),
        one_cpu.as_secs_f64() / many_cpu.as_secs_f64().max(1e-9),
    );
}
