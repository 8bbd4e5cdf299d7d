//! `taflbot bench http`: load test of the HTTP service.
//!
//! Moves: `--games` games (two registered players each) receive moves at a fixed total
//! `--rate` (open loop: each game's next move is due every games/rate seconds, and latency
//! is measured from when it was due, so a slow server cannot hide its queueing). With
//! `--rate 0` every game moves again as soon as its last move is answered (closed loop,
//! the most the server takes). Boards: `--board-clients` clients fetch one game's
//! board.png from the cache as fast as they can.
//!
//! Without `--url` the service runs in this process on a fresh temporary database file,
//! with durable commits, on its own runtime threads.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use serde_json::{Value, json};
use tafl_engine::{Game, Move};

use crate::app::{AppOptions, RunningApp};
use crate::config::Config;

#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub what: BenchCommand,
}

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Accepted moves per second with latency percentiles, then board.png from the cache.
    Http(HttpBenchArgs),
}

#[derive(Debug, Args)]
pub struct HttpBenchArgs {
    /// A running server (e.g. http://127.0.0.1:8080); by default one is started in-process.
    #[arg(long)]
    pub url: Option<String>,
    /// Concurrent games.
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Total moves per second offered (0: as fast as answers come back).
    #[arg(long, default_value_t = 2000.0)]
    pub rate: f64,
    /// Seconds of move load.
    #[arg(long, default_value_t = 10.0)]
    pub secs: f64,
    /// Variant the games are played in.
    #[arg(long, default_value = "copenhagen")]
    pub variant: String,
    /// Concurrent board.png clients (0 skips the board test).
    #[arg(long, default_value_t = 32)]
    pub board_clients: usize,
    /// Seconds of board load.
    #[arg(long, default_value_t = 5.0)]
    pub board_secs: f64,
    /// Database file of the in-process server (default: a new temporary file).
    #[arg(long)]
    pub db: Option<PathBuf>,
}

pub fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    match args.what {
        BenchCommand::Http(a) => http(a),
    }
}

struct Player {
    id: i64,
    token: String,
}

fn http(args: HttpBenchArgs) -> anyhow::Result<ExitCode> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    // The server, when in-process, gets its own runtime so client and server threads are
    // scheduled by the OS as two processes would be.
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("bench-server")
        .enable_all()
        .build()?;
    let tmp = std::env::temp_dir().join(format!("taflbot-bench-{}.db", std::process::id()));
    let (base, app) = match &args.url {
        Some(url) => (url.trim_end_matches('/').to_owned(), None),
        None => {
            let mut config = Config::default();
            config.database.path = args.db.clone().unwrap_or_else(|| tmp.clone());
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", config.database.path.display()));
            }
            config.http.listen = "127.0.0.1:0".into();
            config.http.rate_limit_per_second = 1e9;
            config.http.rate_limit_burst = u32::MAX;
            config.http.registration_per_minute = 1e9;
            config.http.registration_burst = u32::MAX;
            let app = server_rt.block_on(RunningApp::start(config, AppOptions::default()))?;
            let base = app.base_url().context("the HTTP API is off")?;
            (base, Some(app))
        }
    };
    let client_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("bench-client")
        .enable_all()
        .build()?;
    let result = client_rt.block_on(load(&args, &base));
    if let Some(app) = app {
        server_rt.block_on(app.shutdown());
        if args.db.is_none() {
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", tmp.display()));
            }
        }
    }
    result?;
    Ok(ExitCode::SUCCESS)
}

async fn call(
    client: &reqwest::Client,
    base: &str,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> anyhow::Result<Value> {
    let mut req = client.post(format!("{base}/api/v1{path}")).json(&body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let r = req.send().await?;
    let status = r.status();
    let v: Value = r.json().await?;
    if !status.is_success() {
        bail!("POST {path}: {status} {v}");
    }
    Ok(v)
}

async fn register(client: &reqwest::Client, base: &str, name: &str) -> anyhow::Result<Player> {
    let v = call(client, base, "/players", None, json!({ "name": name })).await?;
    Ok(Player {
        id: v["player"]["id"].as_i64().context("no player id")?,
        token: v["token"].as_str().context("no token")?.to_owned(),
    })
}

/// Starts a game with `a` attacking; returns its id and rules string.
async fn new_game(
    client: &reqwest::Client,
    base: &str,
    variant: &str,
    a: &Player,
    b: &Player,
) -> anyhow::Result<(i64, String)> {
    let ch = call(
        client,
        base,
        "/challenges",
        Some(&a.token),
        json!({ "opponent_id": b.id, "variant": variant, "side": "attackers" }),
    )
    .await?;
    let id = ch["challenge"]["id"].as_i64().context("no challenge id")?;
    let game = call(
        client,
        base,
        &format!("/challenges/{id}/accept"),
        Some(&b.token),
        json!({}),
    )
    .await?;
    Ok((
        game["id"].as_i64().context("no game id")?,
        game["rules"].as_str().context("no rules")?.to_owned(),
    ))
}

/// xorshift64: reproducible move choices without a dependency.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

struct GameStats {
    accepted: u64,
    errors: u64,
    latencies_us: Vec<u64>,
}

#[allow(clippy::too_many_arguments)]
async fn play_games(
    client: reqwest::Client,
    base: Arc<str>,
    variant: Arc<str>,
    a: Player,
    b: Player,
    index: usize,
    interval: Option<Duration>,
    start: Instant,
    stop: Arc<AtomicBool>,
) -> anyhow::Result<GameStats> {
    let mut stats = GameStats {
        accepted: 0,
        errors: 0,
        latencies_us: Vec::new(),
    };
    let mut seed =
        0x9E37_79B9_7F4A_7C15u64 ^ (index as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D);
    let (mut id, rules) = new_game(&client, &base, &variant, &a, &b).await?;
    let rules = tafl_engine::Rules::from_opentafl(&rules).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut game = Game::new(rules.clone());
    let mut due = start;
    while !stop.load(Ordering::Relaxed) {
        if interval.is_some() {
            tokio::time::sleep_until(due.into()).await;
        } else {
            due = Instant::now();
        }
        let moves = game.legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            (id, _) = new_game(&client, &base, &variant, &a, &b).await?;
            game = Game::new(rules.clone());
            continue;
        }
        let mv: Move = moves[(next(&mut seed) % moves.len() as u64) as usize];
        let token = if game.side_to_move() == tafl_engine::Side::Attackers {
            &a.token
        } else {
            &b.token
        };
        let answer = client
            .post(format!("{base}/api/v1/games/{id}/moves"))
            .bearer_auth(token)
            .json(&json!({ "move": mv.to_string(), "ply": game.ply() }))
            .send()
            .await;
        let latency = due.elapsed();
        match answer {
            Ok(r) if r.status().is_success() => {
                let _ = r.bytes().await;
                stats.accepted += 1;
                stats.latencies_us.push(latency.as_micros() as u64);
                game.play(mv).map_err(|e| anyhow::anyhow!("{e}"))?;
            }
            Ok(r) => {
                stats.errors += 1;
                let text = r.text().await.unwrap_or_default();
                bail!("move refused: {text}");
            }
            Err(e) => {
                stats.errors += 1;
                bail!("request failed: {e}");
            }
        }
        if let Some(i) = interval {
            due += i;
        }
    }
    Ok(stats)
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)] as f64 / 1000.0
}

async fn load(args: &HttpBenchArgs, base: &str) -> anyhow::Result<()> {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(args.games + args.board_clients + 8)
        .build()?;
    println!(
        "setting up {} games of {} on {base}",
        args.games, args.variant
    );
    let mut players = Vec::new();
    for i in 0..args.games * 2 {
        players.push(register(&client, base, &format!("bench{i}")).await?);
    }
    let interval =
        (args.rate > 0.0).then(|| Duration::from_secs_f64(args.games as f64 / args.rate));
    let stop = Arc::new(AtomicBool::new(false));
    let base_arc: Arc<str> = Arc::from(base);
    let variant: Arc<str> = Arc::from(args.variant.as_str());
    let start = Instant::now() + Duration::from_millis(500);
    let mut tasks = tokio::task::JoinSet::new();
    let mut pairs = players.into_iter();
    for index in 0..args.games {
        let (Some(a), Some(b)) = (pairs.next(), pairs.next()) else {
            break;
        };
        tasks.spawn(play_games(
            client.clone(),
            base_arc.clone(),
            variant.clone(),
            a,
            b,
            index,
            interval,
            // Spread the games' schedules over one interval.
            start
                + interval.map_or(Duration::ZERO, |i| {
                    i.mul_f64(index as f64 / args.games as f64)
                }),
            stop.clone(),
        ));
    }
    tokio::time::sleep_until((start + Duration::from_secs_f64(args.secs)).into()).await;
    stop.store(true, Ordering::Relaxed);
    let elapsed = start.elapsed().as_secs_f64();
    let mut latencies = Vec::new();
    let (mut accepted, mut errors) = (0u64, 0u64);
    while let Some(done) = tasks.join_next().await {
        let stats = done??;
        accepted += stats.accepted;
        errors += stats.errors;
        latencies.extend(stats.latencies_us);
    }
    latencies.sort_unstable();
    let offered = if args.rate > 0.0 {
        format!("{:.0}/s offered", args.rate)
    } else {
        "closed loop".to_owned()
    };
    println!(
        "moves: {accepted} accepted in {elapsed:.1} s = {:.0} moves/s ({offered}, {} games, durable commits); errors {errors}",
        accepted as f64 / elapsed,
        args.games
    );
    println!(
        "move latency ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
        percentile(&latencies, 50.0),
        percentile(&latencies, 90.0),
        percentile(&latencies, 99.0),
        percentile(&latencies, 100.0)
    );
    if args.board_clients > 0 {
        boards(args, base, &client, &base_arc).await?;
    }
    Ok(())
}

async fn boards(
    args: &HttpBenchArgs,
    base: &str,
    client: &reqwest::Client,
    base_arc: &Arc<str>,
) -> anyhow::Result<()> {
    let a = register(client, base, "board-a").await?;
    let b = register(client, base, "board-b").await?;
    let (id, _) = new_game(client, base, &args.variant, &a, &b).await?;
    // Only an image that can no longer change is served without a look at the store: end the
    // game (its one image then shows the result) so that the cache alone answers.
    let resign = format!("/games/{id}/resign");
    call(client, base, &resign, Some(&a.token), json!({})).await?;
    let url = format!("{base_arc}/api/v1/games/{id}/board.png?ply=0");
    let warm = client.get(&url).bearer_auth(&a.token).send().await?;
    if !warm.status().is_success() {
        bail!("board.png: {}", warm.status());
    }
    let size = warm.bytes().await?.len();
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = tokio::task::JoinSet::new();
    let start = Instant::now();
    for _ in 0..args.board_clients {
        let (client, url, token, stop) =
            (client.clone(), url.clone(), a.token.clone(), stop.clone());
        tasks.spawn(async move {
            let mut lat = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let t = Instant::now();
                let r = client.get(&url).bearer_auth(&token).send().await?;
                if !r.status().is_success() {
                    bail!("board.png: {}", r.status());
                }
                let _ = r.bytes().await?;
                lat.push(t.elapsed().as_micros() as u64);
            }
            Ok::<_, anyhow::Error>(lat)
        });
    }
    tokio::time::sleep(Duration::from_secs_f64(args.board_secs)).await;
    stop.store(true, Ordering::Relaxed);
    let elapsed = start.elapsed().as_secs_f64();
    let mut lat = Vec::new();
    while let Some(done) = tasks.join_next().await {
        lat.extend(done??);
    }
    lat.sort_unstable();
    println!(
        "board.png from cache: {} requests in {elapsed:.1} s = {:.0} req/s ({} clients, {size} bytes each); latency ms p50 {:.2} p99 {:.2}",
        lat.len(),
        lat.len() as f64 / elapsed,
        args.board_clients,
        percentile(&lat, 50.0),
        percentile(&lat, 99.0)
    );
    Ok(())
}
