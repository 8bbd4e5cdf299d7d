//! `taflbot-bench explorer`: the opening explorer at a million games. Generated games (random
//! playouts whose move choice favours a few moves, as real openings do) are counted into a
//! new SQLite database the way a finished game is, in large transactions; then the real app
//! answers `GET /api/v1/explorer/{variant}?moves=...` for prefixes of those games from
//! concurrent clients, and the answer latency's percentiles are printed.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Args;
use tafl_engine::{Game, Side, Symmetry, folded_key};
use taflbot::app::{AppOptions, RunningApp};
use taflbot::config::Config;
use taflbot::service::explorer::EXPLORED_PLIES;
use taflbot::store::rows::{self, ExplorerGame};
use taflbot::store::{Store, StoreError};
use tokio::task::JoinSet;

use crate::percentile;

#[derive(Debug, Args)]
pub struct ExplorerBenchArgs {
    /// Games counted into the explorer before the answers are timed.
    #[arg(long, default_value_t = 1_000_000)]
    pub games: u64,
    /// Variant of the games.
    #[arg(long, default_value = "copenhagen")]
    pub variant: String,
    /// Games per transaction while building.
    #[arg(long, default_value_t = 20_000)]
    pub batch: usize,
    /// Concurrent clients asking the explorer.
    #[arg(long, default_value_t = 8)]
    pub clients: usize,
    /// Seconds of questions.
    #[arg(long, default_value_t = 10.0)]
    pub secs: f64,
    /// The database file (default: a new temporary file, removed afterwards); an existing
    /// file's explorer is asked without building (`--games 0`).
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Seed of the generated games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Run the engine column's background searches while answering (off: the answer path
    /// alone; on, every new position asked is searched, a core's worth of work on the side).
    #[arg(long)]
    pub evaluations: bool,
}

/// Questions kept to ask: prefixes of the generated games.
const QUESTIONS: usize = 4_096;

/// A small generator (splitmix64): the games need to be varied and repeatable, not secret.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// In `0..1`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// An index below `n` that favours the first few strongly: most games share their first
    /// moves and part ways later, as a real archive's do.
    fn favoured(&mut self, n: usize) -> usize {
        ((self.unit().powi(6) * n as f64) as usize).min(n.saturating_sub(1))
    }
}

/// One generated game: its folded keys, result, average rating and moves.
struct Generated {
    keys: Vec<u64>,
    winner: Option<Side>,
    rating: i64,
    moves: Vec<String>,
}

fn generate(start: &Game, symmetries: &[Symmetry], dice: &mut Dice) -> Generated {
    let mut game = start.clone();
    let mut keys = vec![folded_key(game.position(), symmetries).key];
    let mut moves = Vec::new();
    while moves.len() < EXPLORED_PLIES && !game.is_over() {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[dice.favoured(legal.len())];
        if game.play(mv).is_err() {
            break;
        }
        moves.push(mv.to_string());
        keys.push(folded_key(game.position(), symmetries).key);
    }
    let roll = dice.unit();
    let winner = if roll < 0.45 {
        Some(Side::Attackers)
    } else if roll < 0.95 {
        Some(Side::Defenders)
    } else {
        None
    };
    Generated {
        keys,
        winner,
        rating: 1_200 + (dice.next() % 900) as i64,
        moves,
    }
}

pub fn explorer(args: ExplorerBenchArgs) -> anyhow::Result<ExitCode> {
    let variant = tafl_engine::variant(&args.variant)
        .with_context(|| format!("no preset {:?}", args.variant))?;
    if args.clients == 0 || args.batch == 0 {
        bail!("--clients and --batch must be at least 1");
    }
    let temporary = args.db.is_none();
    let path = args.db.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("taflbot-explorer-{}.db", std::process::id()))
    });
    let start = Game::start(variant.rules()).context("the preset's start")?;
    let symmetries = Symmetry::of_rules(start.rules());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let mut dice = Dice(args.seed);
    let mut questions: Vec<String> = Vec::new();

    // A transaction of `--batch` games takes seconds (20,000 by default: about 30 s): the
    // store's answer wait, made for requests, would give up on it.
    let store = Store::open(&path, 1, Duration::from_secs(30), 1)?
        .with_answer_wait(Duration::from_secs(3_600));
    let built = Instant::now();
    let mut made = 0u64;
    while made < args.games {
        let n = (args.games - made).min(args.batch as u64) as usize;
        let games: Vec<Generated> = (0..n)
            .map(|_| generate(&start, &symmetries, &mut dice))
            .collect();
        for g in games.iter().take(QUESTIONS.saturating_sub(questions.len())) {
            let upto = (dice.next() % (g.moves.len() as u64 + 1)) as usize;
            questions.push(g.moves[..upto].join(","));
        }
        let id = variant.id;
        rt.block_on(store.write(move |c| {
            for g in &games {
                rows::record_explorer_game(
                    c,
                    &ExplorerGame {
                        variant: id,
                        keys: &g.keys,
                        winner: g.winner,
                        average_rating: Some(g.rating),
                    },
                )?;
            }
            Ok::<_, StoreError>(())
        }))?;
        made += n as u64;
        eprint!("\rbuilt {made} of {} games", args.games);
    }
    drop(store);
    let build_secs = built.elapsed().as_secs_f64();
    if args.games > 0 {
        eprintln!();
        println!(
            "built {made} games in {build_secs:.1} s ({:.0} games/s); database {:.2} GB",
            made as f64 / build_secs,
            std::fs::metadata(&path).map_or(0.0, |m| m.len() as f64 / 1e9),
        );
    }
    if questions.is_empty() {
        questions.push(String::new());
    }

    let mut config = Config::default();
    config.http.listen = "127.0.0.1:0".into();
    config.http.rate_limit_per_second = 1e9;
    config.http.rate_limit_burst = u32::MAX;
    // The questions are asked without a token, as a visitor's page asks them.
    config.http.anonymous_per_second = 1e9;
    config.http.anonymous_burst = u32::MAX;
    config.database.path = path.clone();
    config.games.explorer_evaluation = args.evaluations;
    let result = rt.block_on(async {
        let app = RunningApp::start(config, AppOptions::default()).await?;
        let base = app.base_url().context("the HTTP API is off")?;
        let latencies = ask(&base, variant.id, Arc::new(questions), &args).await;
        app.shutdown().await;
        latencies
    });
    if temporary {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
    let (mut latencies, errors) = result?;
    latencies.sort_unstable();
    println!(
        "explorer answers ({} background evaluations): {} in {:.1} s ({:.0}/s), {errors} errors; \
         ms: p50 {:.2}  p99 {:.2}  max {:.2}",
        if args.evaluations { "with" } else { "without" },
        latencies.len(),
        args.secs,
        latencies.len() as f64 / args.secs,
        percentile(&latencies, 50.0),
        percentile(&latencies, 99.0),
        percentile(&latencies, 100.0),
    );
    Ok(if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Asks the explorer from `--clients` clients for `--secs`; answer times in microseconds, and
/// the count of failed answers.
async fn ask(
    base: &str,
    variant: &'static str,
    questions: Arc<Vec<String>>,
    args: &ExplorerBenchArgs,
) -> anyhow::Result<(Vec<u64>, u64)> {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()?;
    let until = Instant::now() + Duration::from_secs_f64(args.secs);
    let mut clients = JoinSet::new();
    for i in 0..args.clients {
        let (client, questions) = (client.clone(), questions.clone());
        let url = format!("{base}/api/v1/explorer/{variant}");
        clients.spawn(async move {
            let (mut times, mut errors, mut next) = (Vec::new(), 0u64, i);
            while Instant::now() < until {
                let moves = &questions[next % questions.len()];
                next += 7;
                let asked = Instant::now();
                let answer = client.get(&url).query(&[("moves", moves)]).send().await;
                let failure = match answer {
                    Ok(r) if r.status().is_success() => {
                        r.bytes().await.err().map(|e| e.to_string())
                    }
                    Ok(r) => Some(format!(
                        "{}: {}",
                        r.status(),
                        r.text().await.unwrap_or_default()
                    )),
                    Err(e) => Some(e.to_string()),
                };
                match failure {
                    None => times.push(asked.elapsed().as_micros() as u64),
                    Some(why) => {
                        if errors == 0 {
                            eprintln!("explorer answer failed ({moves:?}): {why}");
                        }
                        errors += 1;
                    }
                }
            }
            (times, errors)
        });
    }
    let (mut all, mut errors) = (Vec::new(), 0);
    while let Some(done) = clients.join_next().await {
        let (times, failed) = done?;
        all.extend(times);
        errors += failed;
    }
    Ok((all, errors))
}
