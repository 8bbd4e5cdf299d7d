//! `taflbot-bench http`: load test of the HTTP service (apart from the `taflbot` binary: the
//! server ships no load generator).
//!
//! Moves: `--games` games (two registered players each) receive moves at a fixed total
//! `--rate` (open loop: each game's next move is due every games/rate seconds, and latency
//! is measured from when it was due, so a slow server cannot hide its queueing). With
//! `--rate 0` every game moves again as soon as its last move is answered (closed loop,
//! the most the server takes). Boards: `--board-clients` clients fetch one game's
//! board.png from the cache as fast as they can.
//!
//! Abuse held through the move load, to see that it costs the moves nothing:
//! `--idle-streams N` event streams held open and read (by default of extra players who play
//! none of the games, so the moves never wake them; `--stream-players busy` gives them to the
//! players of the games instead), at most `--streams-per-player` per player; and
//! `--half-open N` connections that send part of a request's headers and never the rest, each
//! opened again as soon as the server's header read timeout closes it. How many stood at the
//! start, at the end and at the fewest is printed beside the moves, with how many the server
//! closed and were reopened. A stream the server refuses fails the run.
//!
//! `--slow-bodies N` connections from `--attacker-address` (127.0.0.2: another address than
//! the moves', as an attacker's would be) send a registration's headers and one byte of its
//! 60,000-byte body, and are opened again whenever the server closes them. `--slow-webhooks N`
//! gives the players of N games a webhook whose endpoint never answers, and
//! `--webhook-probes N` the players of N other games one that answers at once: their
//! deliveries' latency (from the event's commit to its arrival) is printed beside the moves.
//!
//! Without `--url` the service runs in this process on a fresh temporary database file (or
//! the database `--database-url` names, e.g. PostgreSQL), with durable commits, on its own
//! runtime threads; `--instances N` runs N services there on that one database, as N
//! instances would. Thousands of held connections need the server in its own process
//! (`taflbot serve`): one process holds both ends otherwise, and the file-descriptor limit is
//! shared. `--url` may be given once per instance: the games are spread over them.

mod explorer;
mod hold;
mod webhooks;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use serde_json::{Value, json};
use tafl_engine::{Game, Move};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

pub use explorer::ExplorerBenchArgs;
pub use hold::{HalfOpen, Held, HeldCounts, HeldReport, Streams};
pub use webhooks::DeliveryReport;

use taflbot::app::{AppOptions, RunningApp};
use taflbot::config::Config;

#[derive(Debug, Parser)]
#[command(
    name = "taflbot-bench",
    version,
    about = "Load tests of the taflbot service (`http`, `explorer`)"
)]
pub struct Cli {
    #[command(subcommand)]
    pub what: BenchCommand,
}

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Accepted moves per second with latency percentiles, then board.png from the cache.
    Http(HttpBenchArgs),
    /// The opening explorer's answer latency over a million generated games.
    Explorer(ExplorerBenchArgs),
}

#[derive(Debug, Args)]
pub struct HttpBenchArgs {
    /// A running server (e.g. http://127.0.0.1:8080); by default one is started in-process.
    /// Repeat it for several instances of one database: game `i` plays on the `i % n`th.
    #[arg(long)]
    pub url: Vec<String>,
    /// The in-process server's database (`postgres://...` or `sqlite://path`); default: a new
    /// temporary SQLite file (see `--db`).
    #[arg(long, conflicts_with = "db")]
    pub database_url: Option<String>,
    /// In-process services on the database, as that many instances (games spread over them).
    #[arg(long, default_value_t = 1)]
    pub instances: usize,
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
    /// Event streams held open and read through the move load.
    #[arg(long, default_value_t = 0)]
    pub idle_streams: usize,
    /// Streams per player (the server refuses more than its `http.max_streams_per_player`).
    #[arg(long, default_value_t = 5)]
    pub streams_per_player: usize,
    /// Whose streams: extra players in no game (idle), or the players of the games (busy:
    /// each of their moves wakes their streams).
    #[arg(long, value_enum, default_value_t = StreamPlayers::Idle)]
    pub stream_players: StreamPlayers,
    /// Connections held with an unfinished request through the move load, reopened whenever
    /// the server closes one.
    #[arg(long, default_value_t = 0)]
    pub half_open: usize,
    /// Send every move with an `Idempotency-Key` (as a careful client does), which the server
    /// checks and stores with the move.
    #[arg(long)]
    pub idempotency_keys: bool,
    /// Connections held through the move load, from `--attacker-address`, each with a
    /// request's headers and one byte of its 60,000-byte body; reopened when closed.
    #[arg(long, default_value_t = 0)]
    pub slow_bodies: usize,
    /// Where the slow bodies come from: an address of this machine other than the moves'.
    #[arg(long, default_value = "127.0.0.2")]
    pub attacker_address: std::net::IpAddr,
    /// Games whose second player has a webhook whose endpoint never answers.
    #[arg(long, default_value_t = 0)]
    pub slow_webhooks: usize,
    /// Games (others than those) whose second player has a webhook that answers at once; its
    /// deliveries' latency is reported.
    #[arg(long, default_value_t = 0)]
    pub webhook_probes: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StreamPlayers {
    Idle,
    Busy,
}

/// Descriptors kept beyond the held connections and the games' own, for the database,
/// registration bursts and the board clients.
const DESCRIPTORS_SPARE: usize = 512;
/// Pooled connections idle this long are not used again. The server closes a connection idle
/// for half its header read timeout or more (2.5 s by default); a move sent on a connection at
/// the moment the server closes it fails with no answer. The pool holds idle connections after
/// every stall (more moves were in flight than usual), so without this a run with half-open
/// connections failed in about one of ten.
const POOL_IDLE: Duration = Duration::from_secs(1);
/// Registrations in flight at once (the server commits them in groups).
const REGISTERING_AT_ONCE: usize = 16;

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.what {
        BenchCommand::Http(a) => http(a),
        BenchCommand::Explorer(a) => explorer::explorer(a),
    }
}

#[derive(Debug, Clone)]
struct Player {
    id: i64,
    token: String,
}

/// Raises the soft file-descriptor limit to the hard one, and fails at once when what was
/// asked for cannot fit, rather than with "too many open files" half way through.
fn fit_descriptors(args: &HttpBenchArgs) -> anyhow::Result<()> {
    let limit = match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => usize::try_from(limit).unwrap_or(usize::MAX),
        Err(e) => {
            eprintln!("cannot read or raise the file-descriptor limit: {e}");
            return Ok(());
        }
    };
    let ends =
        args.half_open + args.slow_bodies + args.idle_streams + args.games + args.board_clients;
    // In-process, the server's end of each connection is in this process too.
    let need = if args.url.is_empty() { 2 * ends } else { ends } + DESCRIPTORS_SPARE;
    if need > limit {
        bail!(
            "this run needs about {need} file descriptors and the limit is {limit}: {}",
            if args.url.is_empty() {
                "run the server as its own process (taflbot serve) and point --url at it"
            } else {
                "hold fewer connections"
            }
        );
    }
    Ok(())
}

/// The in-process server's settings but its database: on port 0, rate limits out of the load's
/// way, and the streams the run holds allowed.
pub fn server_config(args: &HttpBenchArgs) -> Config {
    let mut config = Config::default();
    config.http.listen = "127.0.0.1:0".into();
    config.http.rate_limit_per_second = 1e9;
    config.http.rate_limit_burst = u32::MAX;
    config.http.registration_per_minute = 1e9;
    config.http.registration_burst = u32::MAX;
    config.http.max_streams_per_player = args.streams_per_player;
    config.http.max_streams = config.http.max_streams.max(args.idle_streams);
    // The load's own connections come from one address: room for all of them (the slow
    // bodies come from another, and get the default share).
    let own = args.games + args.board_clients + args.idle_streams + args.half_open + 64;
    config.http.max_connections_per_address = config.http.max_connections_per_address.max(own);
    // The webhook endpoints are local.
    config.webhooks.allow_private = vec!["127.0.0.1".into()];
    config
}

fn http(args: HttpBenchArgs) -> anyhow::Result<ExitCode> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if args.streams_per_player == 0 {
        bail!("--streams-per-player must be at least 1");
    }
    fit_descriptors(&args)?;
    // The server, when in-process, gets its own runtime so client and server threads are
    // scheduled by the OS as two processes would be.
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("bench-server")
        .enable_all()
        .build()?;
    if args.instances == 0 {
        bail!("--instances must be at least 1");
    }
    let tmp = std::env::temp_dir().join(format!("taflbot-bench-{}.db", std::process::id()));
    let mut apps = Vec::new();
    let bases: Vec<String> = if args.url.is_empty() {
        let mut config = server_config(&args);
        match &args.database_url {
            Some(url) => config.database.url = url.clone(),
            None => {
                config.database.path = args.db.clone().unwrap_or_else(|| tmp.clone());
                for suffix in ["", "-wal", "-shm"] {
                    let _ =
                        std::fs::remove_file(format!("{}{suffix}", config.database.path.display()));
                }
            }
        }
        let mut bases = Vec::new();
        for _ in 0..args.instances {
            let app =
                server_rt.block_on(RunningApp::start(config.clone(), AppOptions::default()))?;
            bases.push(app.base_url().context("the HTTP API is off")?);
            apps.push(app);
        }
        bases
    } else {
        args.url
            .iter()
            .map(|url| url.trim_end_matches('/').to_owned())
            .collect()
    };
    let client_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("bench-client")
        .enable_all()
        .build()?;
    let result = client_rt.block_on(load(&args, &bases));
    let in_process = !apps.is_empty();
    for app in apps {
        server_rt.block_on(app.shutdown());
    }
    if in_process && args.db.is_none() && args.database_url.is_none() {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", tmp.display()));
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
    let v = call(client, base, "/players", None, json!({ "name": name }))
        .await
        .with_context(|| {
            format!(
                "registering {name} (a server given by --url must take registrations in a \
                 burst: raise its http.registration_per_minute and http.registration_burst)"
            )
        })?;
    Ok(Player {
        id: v["player"]["id"].as_i64().context("no player id")?,
        token: v["token"].as_str().context("no token")?.to_owned(),
    })
}

/// Registers `n` players named `{prefix}{i}`, a few at a time; in order.
async fn register_many(
    client: &reqwest::Client,
    base: &str,
    prefix: &str,
    n: usize,
) -> anyhow::Result<Vec<Player>> {
    let gate = Arc::new(Semaphore::new(REGISTERING_AT_ONCE));
    let base: Arc<str> = Arc::from(base);
    let mut tasks = JoinSet::new();
    for i in 0..n {
        let (client, base, gate) = (client.clone(), Arc::clone(&base), Arc::clone(&gate));
        let name = format!("{prefix}{i}");
        tasks.spawn(async move {
            let _turn = gate.acquire_owned().await?;
            Ok::<_, anyhow::Error>((i, register(&client, &base, &name).await?))
        });
    }
    let mut players: Vec<Option<Player>> = vec![None; n];
    while let Some(done) = tasks.join_next().await {
        let (i, player) = done??;
        players[i] = Some(player);
    }
    Ok(players.into_iter().flatten().collect())
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
    first_game: (i64, String),
    index: usize,
    interval: Option<Duration>,
    start: Instant,
    stop: Arc<AtomicBool>,
    idempotency_keys: bool,
) -> anyhow::Result<GameStats> {
    let mut stats = GameStats {
        accepted: 0,
        errors: 0,
        latencies_us: Vec::new(),
    };
    let mut seed =
        0x9E37_79B9_7F4A_7C15u64 ^ (index as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D);
    let (mut id, rules) = first_game;
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
        let mut request = client
            .post(format!("{base}/api/v1/games/{id}/moves"))
            .bearer_auth(token)
            .json(&json!({ "move": mv.to_string(), "ply": game.ply() }));
        if idempotency_keys {
            request = request.header("Idempotency-Key", format!("{id}-{}", game.ply()));
        }
        let answer = request.send().await;
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
                // With its causes: reqwest's own message only says that sending failed.
                return Err(anyhow::Error::from(e).context(format!("move {index}.{}", game.ply())));
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

/// What one `bench http` run measured (the board test is only printed).
#[derive(Debug, Clone)]
pub struct LoadReport {
    pub accepted: u64,
    pub errors: u64,
    pub moves_per_sec: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// The streams held through the move load, when asked for.
    pub streams: Option<HeldReport>,
    /// The half-open connections held through the move load, when asked for.
    pub half_open: Option<HeldReport>,
    /// The slow bodies held through the move load, when asked for.
    pub slow_bodies: Option<HeldReport>,
    /// The webhook probes' deliveries of the events of the move load, when asked for.
    pub webhooks: Option<DeliveryReport>,
}

/// How long filling a holder may take before the run fails: generous, as a slow start is
/// not what is measured.
fn opening_time(n: usize) -> Duration {
    Duration::from_secs(30) + Duration::from_millis(5 * n as u64)
}

/// The address `base` names, for raw connections.
async fn socket_addr(base: &str) -> anyhow::Result<(SocketAddr, String)> {
    let url = reqwest::Url::parse(base).with_context(|| format!("--url {base}"))?;
    if url.scheme() != "http" {
        bail!("--half-open needs an http:// server, not {base}");
    }
    let host = url.host_str().context("--url has no host")?.to_owned();
    let port = url.port_or_known_default().context("--url has no port")?;
    let addr = tokio::net::lookup_host((host.as_str(), port))
        .await?
        .next()
        .with_context(|| format!("{host} resolves to no address"))?;
    Ok((addr, host))
}

/// The runtime of the held connections. Apart from the moves' runtime so that their bursts
/// (thousands of reopens when the header read timeout strikes) do not queue ahead of the
/// moves in this client: they are there to load the server, not the measuring client. Shut
/// down without waiting, as a runtime may not be dropped from async code.
struct AbuseRuntime(Option<tokio::runtime::Runtime>);

impl AbuseRuntime {
    fn new() -> anyhow::Result<AbuseRuntime> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("bench-abuse")
            .enable_all()
            .build()?;
        Ok(AbuseRuntime(Some(runtime)))
    }

    fn handle(&self) -> anyhow::Result<&tokio::runtime::Handle> {
        self.0
            .as_ref()
            .map(tokio::runtime::Runtime::handle)
            .context("the abuse runtime is gone")
    }
}

impl Drop for AbuseRuntime {
    fn drop(&mut self) {
        if let Some(runtime) = self.0.take() {
            runtime.shutdown_background();
        }
    }
}

/// Opens the streams asked for and waits until they all stand.
async fn open_streams(
    runtime: &tokio::runtime::Handle,
    args: &HttpBenchArgs,
    base: &str,
    client: &reqwest::Client,
    players: &[Player],
) -> anyhow::Result<Streams> {
    let n = args.idle_streams;
    let per = args.streams_per_player;
    let owners: Vec<String> = match args.stream_players {
        StreamPlayers::Idle => {
            let idle = n.div_ceil(per);
            println!("registering {idle} players in no game for {n} idle event streams");
            register_many(client, base, "idle", idle)
                .await?
                .into_iter()
                .map(|p| p.token)
                .collect()
        }
        StreamPlayers::Busy => {
            if n > players.len() * per {
                bail!(
                    "{n} streams over the games' {} players is more than {per} each \
                     (--streams-per-player)",
                    players.len()
                );
            }
            players.iter().map(|p| p.token.clone()).collect()
        }
    };
    // Dealt round, so no player gets more than `per`.
    let tokens = (0..n).map(|i| owners[i % owners.len()].clone()).collect();
    // Their own client: a stream holds its connection, apart from the moves' pool.
    let stream_client = reqwest::Client::builder().build()?;
    let streams = Streams::start(runtime, &stream_client, base, tokens);
    streams
        .held()
        .wait_for(n, opening_time(n), "event streams")
        .await?;
    println!("{n} event streams open");
    Ok(streams)
}

/// Runs the load on the servers at `bases` (several instances of one database: game `i`
/// plays on `bases[i % n]`; everything else goes to the first).
pub async fn load(args: &HttpBenchArgs, bases: &[String]) -> anyhow::Result<LoadReport> {
    let base = bases.first().context("no server to load")?.as_str();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(args.games + args.board_clients + 8)
        .pool_idle_timeout(POOL_IDLE)
        .build()?;
    println!(
        "setting up {} games of {} on {}",
        args.games,
        args.variant,
        bases.join(", ")
    );
    let players = register_many(&client, base, "bench", args.games * 2).await?;
    let endpoints = add_webhooks(args, base, &client, &players).await?;
    let abuse = AbuseRuntime::new()?;
    let streams = match args.idle_streams {
        0 => None,
        _ => Some(open_streams(abuse.handle()?, args, base, &client, &players).await?),
    };
    // Last of the setup: the server's header read timeout runs from each connection's
    // opening, and should strike during the load, not before it.
    let half_open = match args.half_open {
        0 => None,
        n => {
            let (addr, host) = socket_addr(base).await?;
            let half_open = HalfOpen::start(abuse.handle()?, addr, &host, n);
            half_open
                .held()
                .wait_for(n, opening_time(n), "half-open connections")
                .await?;
            println!("{n} half-open connections open");
            Some(half_open)
        }
    };
    let slow_bodies = match args.slow_bodies {
        0 => None,
        n => {
            let (addr, host) = socket_addr(base).await?;
            let slow =
                HalfOpen::slow_bodies(abuse.handle()?, addr, &host, args.attacker_address, n);
            // Not all of them stand: the server caps the connections of one address.
            slow.held()
                .wait_for(1, opening_time(n), "slow bodies")
                .await?;
            tokio::time::sleep(Duration::from_secs(1)).await;
            println!(
                "{n} slow bodies from {} opened ({} standing)",
                args.attacker_address,
                slow.held().now().held
            );
            Some(slow)
        }
    };
    let interval =
        (args.rate > 0.0).then(|| Duration::from_secs_f64(args.games as f64 / args.rate));
    let stop = Arc::new(AtomicBool::new(false));
    let base_arc: Arc<str> = Arc::from(base);
    let instances: Vec<Arc<str>> = bases.iter().map(|b| Arc::from(b.as_str())).collect();
    let variant: Arc<str> = Arc::from(args.variant.as_str());
    // Every game is started before the clock starts: the load is moves, and the first moves
    // must not wait for the other games' setup (their latency runs from when they were due).
    let mut setup = tokio::task::JoinSet::new();
    let mut pairs = players.into_iter();
    for index in 0..args.games {
        let (Some(a), Some(b)) = (pairs.next(), pairs.next()) else {
            break;
        };
        let (client, base, variant) = (
            client.clone(),
            instances[index % instances.len()].clone(),
            variant.clone(),
        );
        setup.spawn(async move {
            let game = new_game(&client, &base, &variant, &a, &b).await?;
            anyhow::Ok((index, a, b, game))
        });
    }
    let mut started = Vec::new();
    while let Some(game) = setup.join_next().await {
        started.push(game??);
    }
    started.sort_by_key(|(index, ..)| *index);
    let start = Instant::now() + Duration::from_millis(500);
    let mut tasks = tokio::task::JoinSet::new();
    for (index, a, b, first_game) in started {
        tasks.spawn(play_games(
            client.clone(),
            instances[index % instances.len()].clone(),
            variant.clone(),
            a,
            b,
            first_game,
            index,
            interval,
            // Spread the games' schedules over one interval.
            start
                + interval.map_or(Duration::ZERO, |i| {
                    i.mul_f64(index as f64 / args.games as f64)
                }),
            stop.clone(),
            args.idempotency_keys,
        ));
    }
    let holders = || {
        streams
            .iter()
            .map(Streams::held)
            .chain(half_open.iter().map(HalfOpen::held))
            .chain(slow_bodies.iter().map(HalfOpen::held))
    };
    tokio::time::sleep_until(start.into()).await;
    let window_start = webhooks::now_ms();
    holders().for_each(Held::start_run);
    tokio::time::sleep_until((start + Duration::from_secs_f64(args.secs)).into()).await;
    stop.store(true, Ordering::Relaxed);
    let elapsed = start.elapsed().as_secs_f64();
    let streams_held = streams.as_ref().map(|s| s.held().end_run()).transpose();
    let half_open_held = half_open.as_ref().map(|h| h.held().end_run()).transpose();
    let slow_bodies_held = slow_bodies.as_ref().map(|h| h.held().end_run()).transpose();
    let window_end = webhooks::now_ms();
    let mut latencies = Vec::new();
    let (mut accepted, mut errors) = (0u64, 0u64);
    while let Some(done) = tasks.join_next().await {
        let stats = done??;
        accepted += stats.accepted;
        errors += stats.errors;
        latencies.extend(stats.latencies_us);
    }
    // Let go of them before the board test, which measures the cache alone.
    drop((streams, half_open, slow_bodies, abuse));
    let (streams_held, half_open_held, slow_bodies_held) =
        (streams_held?, half_open_held?, slow_bodies_held?);
    let webhooks = match &endpoints {
        Some(endpoints) if args.webhook_probes > 0 => {
            // The last events of the load are still on their way.
            tokio::time::sleep(DELIVERY_GRACE).await;
            Some(endpoints.report(window_start, window_end))
        }
        _ => None,
    };
    latencies.sort_unstable();
    let report = LoadReport {
        accepted,
        errors,
        moves_per_sec: accepted as f64 / elapsed,
        p50_ms: percentile(&latencies, 50.0),
        p99_ms: percentile(&latencies, 99.0),
        max_ms: percentile(&latencies, 100.0),
        streams: streams_held,
        half_open: half_open_held,
        slow_bodies: slow_bodies_held,
        webhooks,
    };
    let offered = if args.rate > 0.0 {
        format!("{:.0}/s offered", args.rate)
    } else {
        "closed loop".to_owned()
    };
    println!(
        "moves: {accepted} accepted in {elapsed:.1} s = {:.0} moves/s ({offered}, {} games, durable commits{}); errors {errors}",
        report.moves_per_sec,
        args.games,
        if args.idempotency_keys {
            ", with Idempotency-Keys"
        } else {
            ""
        }
    );
    println!(
        "move latency ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
        report.p50_ms,
        percentile(&latencies, 90.0),
        report.p99_ms,
        report.max_ms
    );
    if let Some(h) = &report.streams {
        let whose = match args.stream_players {
            StreamPlayers::Idle => "of players in no game",
            StreamPlayers::Busy => "of the games' players",
        };
        println!(
            "event streams {whose}: {}; {} events arrived",
            held_line(h),
            h.events
        );
    }
    if let Some(h) = &report.half_open {
        println!("half-open connections: {}", held_line(h));
    }
    if let Some(h) = &report.slow_bodies {
        println!(
            "slow bodies from {}: {}",
            args.attacker_address,
            held_line(h)
        );
    }
    if let Some(w) = &report.webhooks {
        println!(
            "webhook probes ({} games; {} webhooks that never answer): {} events of the load delivered; \
             from commit to arrival ms p50 {:.0}  p99 {:.0}  max {:.0}",
            args.webhook_probes, args.slow_webhooks, w.delivered, w.p50_ms, w.p99_ms, w.max_ms
        );
    }
    if args.board_clients > 0 {
        boards(args, base, &client, &base_arc).await?;
    }
    Ok(report)
}

/// How long the probes' deliveries of the load's last events are waited for.
const DELIVERY_GRACE: Duration = Duration::from_secs(3);

/// Gives the second players of the first `--slow-webhooks` games a webhook that never
/// answers, and of the next `--webhook-probes` games one that answers at once.
async fn add_webhooks(
    args: &HttpBenchArgs,
    base: &str,
    client: &reqwest::Client,
    players: &[Player],
) -> anyhow::Result<Option<webhooks::Endpoints>> {
    if args.slow_webhooks + args.webhook_probes == 0 {
        return Ok(None);
    }
    if args.slow_webhooks + args.webhook_probes > args.games {
        bail!("--slow-webhooks and --webhook-probes together take more games than --games");
    }
    let endpoints = webhooks::Endpoints::start().await?;
    for i in 0..args.slow_webhooks + args.webhook_probes {
        let player = players.get(2 * i + 1).context("a game's second player")?;
        let url = if i < args.slow_webhooks {
            format!("http://{}/dead/{i}", endpoints.dead)
        } else {
            format!("http://{}/probe/{i}", endpoints.probe)
        };
        call(
            client,
            base,
            "/webhooks",
            Some(&player.token),
            json!({ "url": url, "secret": "bench-webhook-secret" }),
        )
        .await
        .context(
            "registering a webhook (a server given by --url must allow 127.0.0.1 in \
             webhooks.allow_private)",
        )?;
    }
    println!(
        "{} webhooks that never answer, {} probes",
        args.slow_webhooks, args.webhook_probes
    );
    Ok(Some(endpoints))
}

fn held_line(h: &HeldReport) -> String {
    format!(
        "held {} at start, {} at end, {} at the fewest, {:.1} on average; {} closed by the server and {} reopened; {} failed attempts",
        h.at_start, h.at_end, h.min, h.mean, h.closed, h.reopened, h.failures
    )
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

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn command_line_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
