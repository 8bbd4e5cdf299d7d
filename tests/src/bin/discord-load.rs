//! `discord-load`: the crowd benchmark (issue 31, item 9). Starts the fake Discord with a crowd
//! of servers, members and games, one or more bot instances against it, drives slash commands
//! and buttons at a steady rate, and prints, as its very last line:
//!
//! `discord-load: N interactions, F failed, p99 first answer X ms, L posts lost, D duplicated, I invalid requests`
//!
//! What each figure means: `taflbot_e2e::load` and docs/benchmarks.md.

use std::time::Duration;

use clap::Parser;
use taflbot_e2e::load::{LoadOptions, LoadReport, run};

#[derive(Debug, Parser)]
#[command(
    name = "discord-load",
    about = "The crowd benchmark: the bot against the fake Discord full of servers"
)]
struct Cli {
    /// Servers (guilds) in the fake, each with a role and two channels.
    #[arg(long, default_value_t = 200)]
    servers: usize,
    /// Games under way (two members each, or one against the AI).
    #[arg(long, default_value_t = 2000)]
    games: usize,
    /// Of the games, how many are against the AI (at --ai-level).
    #[arg(long, default_value_t = 10)]
    ai_games: usize,
    #[arg(long, default_value_t = 5)]
    ai_level: u8,
    /// Latency added to every REST answer and every gateway dispatch.
    #[arg(long, default_value_t = 100)]
    latency_ms: u64,
    /// Spread of the latency, give or take (default: half of it).
    #[arg(long)]
    jitter_ms: Option<u64>,
    /// How long the crowd sends interactions.
    #[arg(long, default_value_t = 60)]
    secs: u64,
    /// Interactions a second.
    #[arg(long, default_value_t = 50.0)]
    rate: f64,
    /// Bot instances, one shard each (more than one needs --database-url).
    #[arg(long, default_value_t = 1)]
    instances: usize,
    /// PostgreSQL for the instances, e.g. postgres://taflbot@%2Ftmp%2Fpgbench:54329/load1
    /// (default: an SQLite file in a temporary folder).
    #[arg(long)]
    database_url: Option<String>,
    /// How long owed posts may take to arrive after the crowd stops.
    #[arg(long, default_value_t = 60)]
    drain_secs: u64,
    /// Games being started at once during the set-up.
    #[arg(long, default_value_t = 32)]
    setup_at_once: usize,
    /// Seeds the crowd's choices (who acts, which move).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn summary(report: &LoadReport) {
    println!(
        "first answers: p50 {} ms, p99 {} ms, max {} ms (a failed interaction counts as 3000)",
        report.p50_ms, report.p99_ms, report.max_ms
    );
    for kind in &report.by_kind {
        println!(
            "  {}: {} answered, {} deferred first, p50 {} ms, p99 {} ms, max {} ms",
            kind.label, kind.count, kind.deferred, kind.p50_ms, kind.p99_ms, kind.max_ms
        );
    }
    println!(
        "moves: {} played by the crowd; move posts owed {}, lost {}, duplicated {}",
        report.moves, report.posts.owed, report.posts.lost, report.posts.duplicated
    );
    if !report.posts.lost_examples.is_empty() {
        println!("lost, e.g.: {:?}", report.posts.lost_examples);
    }
    println!(
        "requests: {} in all, {} invalid; crowd ticks skipped {}, not sent {}",
        report.requests, report.invalid_requests, report.skipped, report.not_sent
    );
    if let Some(cpu) = report.cpu_secs {
        println!(
            "CPU while driving: this process {cpu:.1} s in {:.1} s on {} cores; load average {}",
            report.drive_secs,
            report.cores,
            report
                .load_average
                .map_or_else(|| "unknown".to_owned(), |l| format!("{l:.1}"))
        );
    }
    println!("fake Discord problems: {}", report.problems.len());
    for problem in report.problems.iter().take(10) {
        println!("  * {problem}");
    }
    println!(
        "targets (F = 0, L = 0, D = 0, p99 <= 1000 ms, invalid <= 0.1%): {}",
        if report.targets_met() {
            "met"
        } else {
            "missed"
        }
    );
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("error"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    let options = LoadOptions {
        servers: cli.servers,
        games: cli.games,
        ai_games: cli.ai_games,
        ai_level: cli.ai_level,
        latency_ms: cli.latency_ms,
        jitter_ms: cli.jitter_ms.unwrap_or(cli.latency_ms / 2),
        secs: cli.secs,
        rate: cli.rate,
        instances: cli.instances,
        database_url: cli.database_url,
        drain_secs: cli.drain_secs,
        seed: cli.seed,
        setup_at_once: cli.setup_at_once,
        progress_every: Duration::from_secs(5),
    };
    let finished = run(&options, &|line| println!("{line}")).await?;
    summary(&finished.report);
    println!("{}", finished.report.last_line());
    Ok(())
}
