//! `discord-load`, the crowd benchmark (issue 31, item 9): the real bot, one instance on
//! SQLite or several on PostgreSQL, against the fake Discord playing a crowd of servers.
//!
//! A run: the fake starts with `servers` servers (each a role and two channels, one with
//! permission overwrites) and a member or two per game; injected latency on every REST answer
//! and every gateway dispatch (`latency_ms` ± `jitter_ms`); the bot instances connect (one
//! shard each, serenity's rate limiter on, through the fake's TLS stand-in for discord.com).
//! The games are started as members start them: a `/challenge` accepted with its button, and
//! `ai_games` `/play` games against the AI at `ai_level` (level 5 thinks by the clock, so the
//! engine works throughout the run). Then for `secs` seconds the crowd sends `rate`
//! interactions a second (see [`drive`]) and the run measures:
//! - each interaction's **first answer**: the time from the fake handing the event to the
//!   gateway to the first answer it receives (a deferral counts); **failed**: none within
//!   3 s (Discord's limit, dispatch latency included);
//! - the **move posts** owed (one per ply played during the run, read from the database at the
//!   end): **lost** when never received by the end of the drain, **duplicated** when received
//!   more than once, known by game and ply ([`posts`]);
//! - the bot's **requests** and **invalid requests** (401, 403, 429 as Discord counts them),
//!   from the fake.
//!
//! Measured in one process: the fake, the crowd and the bot share the machine's cores, as
//! they share nothing else; the figures are the bot's plus the fake's own overhead.

mod answers;
mod cpu;
mod crowd;
mod drive;
mod instances;
pub mod posts;
mod rng;

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::fake_discord::latency::{Delayed, Latency};
use crate::fake_discord::{FakeDiscord, FakeError};

pub use answers::{FIRST_ANSWER_DEADLINE, KindFigures, percentile};
pub use posts::{OwedPosts, PostIdentity, PostLedger, PostVerdict};

/// A crowd run's settings (the `discord-load` binary's flags).
#[derive(Debug, Clone)]
pub struct LoadOptions {
    pub servers: usize,
    pub games: usize,
    /// Of `games`, how many a member plays against the AI.
    pub ai_games: usize,
    pub ai_level: u8,
    pub latency_ms: u64,
    pub jitter_ms: u64,
    /// How long the crowd sends interactions.
    pub secs: u64,
    /// Interactions a second.
    pub rate: f64,
    pub instances: usize,
    /// PostgreSQL for the instances (required for more than one); else an SQLite file.
    pub database_url: Option<String>,
    /// How long owed posts may take to arrive after the crowd stops.
    pub drain_secs: u64,
    pub seed: u64,
    /// Games being started at once during the set-up.
    pub setup_at_once: usize,
    pub progress_every: Duration,
}

impl LoadOptions {
    fn check(&self) -> Result<(), LoadError> {
        let refuse = |why: &str| Err(LoadError::Options(why.to_owned()));
        if self.servers == 0 || self.games == 0 {
            return refuse("--servers and --games must be at least 1");
        }
        if self.ai_games > self.games {
            return refuse("--ai-games cannot exceed --games");
        }
        if self.instances == 0 {
            return refuse("--instances must be at least 1");
        }
        if self.instances > 1 && self.database_url.is_none() {
            return refuse(
                "several instances share one database: give --database-url postgres://...",
            );
        }
        if !(self.rate > 0.0 && self.rate.is_finite()) {
            return refuse("--rate must be a positive number of interactions a second");
        }
        Ok(())
    }
}

/// What can stop a run before it measures anything.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{0}")]
    Options(String),
    #[error("the fake Discord: {0}")]
    Fake(#[from] FakeError),
    #[error("an instance of the bot did not start: {0}")]
    Start(String),
    #[error("setting up the games: {0}")]
    Setup(String),
    #[error("the service: {0}")]
    Service(String),
}

/// A run's figures.
#[derive(Debug, Clone, Default)]
pub struct LoadReport {
    pub interactions: usize,
    pub failed: usize,
    pub p50_ms: u64,
    pub p99_ms: u64,
    pub max_ms: u64,
    /// The answered interactions kind by kind (`/move`, `/board`...), deferrals counted.
    pub by_kind: Vec<KindFigures>,
    pub moves: u64,
    pub posts: PostVerdict,
    pub requests: usize,
    pub invalid_requests: u64,
    /// Ticks the crowd skipped (too many interactions waiting) or could not send.
    pub skipped: u64,
    pub not_sent: u64,
    /// What the fake found against Discord's contract (late answers, 429s...).
    pub problems: Vec<String>,
    /// While the crowd drove: the process's CPU time, the wall time, the machine's cores and
    /// its load average at the end (a shared host's other work shows there).
    pub cpu_secs: Option<f64>,
    pub drive_secs: f64,
    pub cores: usize,
    pub load_average: Option<f64>,
}

impl LoadReport {
    /// The run's last line, in the form the issue fixes.
    pub fn last_line(&self) -> String {
        format!(
            "discord-load: {} interactions, {} failed, p99 first answer {} ms, {} posts lost, {} duplicated, {} invalid requests",
            self.interactions,
            self.failed,
            self.p99_ms,
            self.posts.lost,
            self.posts.duplicated,
            self.invalid_requests
        )
    }

    /// Whether the targets hold: nothing failed, lost or duplicated, p99 within 1 s,
    /// invalid requests at most 0.1% of requests.
    pub fn targets_met(&self) -> bool {
        let invalid_ok = self.invalid_requests * 1000 <= u64::try_from(self.requests).unwrap_or(0);
        self.failed == 0
            && self.posts.lost == 0
            && self.posts.duplicated == 0
            && self.p99_ms <= 1000
            && invalid_ok
    }
}

/// A finished run: its report, and what it was computed from (for tests of the measuring).
pub struct LoadRun {
    pub report: LoadReport,
    pub ledger: PostLedger,
    pub owed: Vec<OwedPosts>,
}

/// Runs the crowd as `options` say; `progress` hears one line every `progress_every`.
pub async fn run(options: &LoadOptions, progress: &dyn Fn(&str)) -> Result<LoadRun, LoadError> {
    options.check()?;
    let fake = Arc::new(FakeDiscord::start().await?);
    let latency = Latency::ms(
        options.latency_ms,
        options.jitter_ms.min(options.latency_ms),
    );
    fake.set_latency(Delayed::AnyRoute, latency);
    fake.set_latency(Delayed::GatewayDispatch, latency);
    let (servers, planned) = crowd::build(
        &fake,
        options.servers,
        options.games,
        options.ai_games,
        options.ai_level,
    );
    progress(&format!(
        "crowd: {} servers, {} channels, {} games ({} against the AI at level {})",
        servers.len(),
        servers.iter().map(|s| s.channels.len()).sum::<usize>(),
        planned.len(),
        options.ai_games,
        options.ai_level
    ));
    let instances = instances::Instances::start(&fake, options).await?;
    let sessions = u64::try_from(options.instances).unwrap_or(u64::MAX);
    fake.wait_for_sessions(sessions, Duration::from_secs(60))
        .await?;
    fake.wait_for_commands(Duration::from_secs(60)).await?;
    progress(&format!("{} instance(s) connected", options.instances));

    let answers = Arc::new(answers::Answers::default());
    let collector = {
        let (fake, answers) = (Arc::clone(&fake), Arc::clone(&answers));
        tokio::spawn(async move {
            loop {
                answers.collect(fake.recorder());
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
    };
    let outcome = measure(options, &fake, &instances, &answers, planned, progress).await;
    collector.abort();
    instances.shutdown().await;
    outcome
}

/// Starts the games, drives the crowd, drains, and reports.
async fn measure(
    options: &LoadOptions,
    fake: &Arc<FakeDiscord>,
    instances: &instances::Instances,
    answers: &Arc<answers::Answers>,
    planned: Vec<crowd::PlannedGame>,
    progress: &dyn Fn(&str),
) -> Result<LoadRun, LoadError> {
    let service = instances
        .apps
        .first()
        .map(|a| a.service.clone())
        .ok_or_else(|| LoadError::Options("no instance".into()))?;
    let setup = Instant::now();
    let slots = crowd::start_games(fake, answers, planned, options.setup_at_once, progress).await?;
    let starts = plies(&service, &slots).await?;
    progress(&format!(
        "set-up: {} games started in {:.1} s; driving {} interactions/s for {} s",
        slots.len(),
        setup.elapsed().as_secs_f64(),
        options.rate,
        options.secs
    ));

    let crowd = drive::Crowd {
        fake: Arc::clone(fake),
        answers: Arc::clone(answers),
        service: service.clone(),
        slots: Arc::new(slots),
    };
    let began = Instant::now();
    let cpu_before = cpu::process_cpu_secs();
    let line = |counts: &drive::DriveCounts| {
        let figures = answers.figures(Instant::now());
        format!(
            "{:>4} s: {} sent, {} answered in time, {} failed, p99 first answer {} ms, {} moves, {} move posts, {} requests, {} invalid",
            began.elapsed().as_secs(),
            figures.sent,
            figures.answered_in_time,
            figures.failed,
            percentile(&figures.sorted_ms, 99.0),
            counts.moves,
            answers.posts(),
            answers.requests(),
            fake.invalid_requests_in_all()
        )
    };
    let counts = crowd
        .drive(
            options.rate,
            options.secs,
            options.seed,
            options.progress_every,
            &|counts| progress(&line(counts)),
        )
        .await;
    progress(&line(&counts));
    let drive_secs = began.elapsed().as_secs_f64();
    let cpu_secs = cpu::process_cpu_secs()
        .zip(cpu_before)
        .map(|(after, before)| after - before);
    let load_average = cpu::load_average();

    // The drain: every owed post has until the deadline to arrive.
    let ends = plies(&service, &crowd.slots).await?;
    let owed: Vec<OwedPosts> = crowd
        .slots
        .iter()
        .zip(starts.iter().zip(&ends))
        .map(|(slot, (start, end))| OwedPosts {
            game: slot.id,
            after_ply: *start,
            through_ply: (*end).max(*start),
        })
        .collect();
    let drain_end = Instant::now() + Duration::from_secs(options.drain_secs);
    let mut next_note = Instant::now() + options.progress_every;
    loop {
        answers.collect(fake.recorder());
        let depth = instances.outbox_depth().await?;
        let done = answers.has_all(&owed) && depth == 0 && answers.unanswered(Instant::now()) == 0;
        if done || Instant::now() >= drain_end {
            break;
        }
        if Instant::now() >= next_note {
            next_note += options.progress_every;
            let verdict = answers.ledger().verdict(&owed);
            progress(&format!(
                "drain: {} interaction(s) unanswered, outbox {depth}, {} of {} owed posts in",
                answers.unanswered(Instant::now()),
                verdict.owed - verdict.lost,
                verdict.owed
            ));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    answers.collect(fake.recorder());

    let figures = answers.figures(Instant::now());
    let ledger = answers.ledger();
    let report = LoadReport {
        interactions: figures.sent,
        failed: figures.failed,
        p50_ms: percentile(&figures.sorted_ms, 50.0),
        p99_ms: percentile(&figures.sorted_ms, 99.0),
        max_ms: percentile(&figures.sorted_ms, 100.0),
        by_kind: figures.by_kind.clone(),
        moves: counts.moves,
        posts: ledger.verdict(&owed),
        requests: fake.recorder().mark(),
        invalid_requests: fake.invalid_requests_in_all(),
        skipped: counts.skipped,
        not_sent: counts.not_sent,
        problems: fake.problems(),
        cpu_secs,
        drive_secs,
        cores: cpu::cores(),
        load_average,
    };
    Ok(LoadRun {
        report,
        ledger,
        owed,
    })
}

/// Each game's plies played, in the order of `slots`.
async fn plies(
    service: &taflbot::service::GamesService,
    slots: &[crowd::GameSlot],
) -> Result<Vec<u32>, LoadError> {
    let mut plies = Vec::with_capacity(slots.len());
    for slot in slots {
        let view = service
            .games()
            .game(None, taflbot::domain::GameId(slot.id))
            .await
            .map_err(|e| LoadError::Service(e.to_string()))?;
        plies.push(view.ply);
    }
    Ok(plies)
}
