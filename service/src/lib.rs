//! The games service: every rule of the service (who may act, turns, clocks, AI turns) in one
//! place, by area. [`GamesService`] is the shared state (store, clock, event bus, caches);
//! each area is a folder with a small facade over it, and front ends call through those:
//! `service.games().play(...)`, `service.challenges().accept(...)`,
//! `service.accounts().register(...)`, `service.discord().claim_due_posts()`.
//!
//! - `games/`: moves (one move path), resign, draws, aborts, the AI's turns, clocks and the
//!   scheduler, challenges and rematches, reading games;
//! - `accounts/`: players, handles, preferences; tokens, sign-in links, web sessions;
//! - `discord/`: what the Discord front end needs kept (outbox, threads, posts, server
//!   settings); the rules of play never depend on it;
//! - `events/`: the event of every change, the bus, the follower of other instances, webhooks;
//! - `analysis/`: analyses and hints; `ratings/`: Glicko-2 and what is read from it;
//! - `limits/`: the limits several instances count together (sign-in failures, registrations);
//! - `tournaments/`: pairings, standings and tie-breaks of every tournament format;
//! - `matches/`: team matches, two teams playing a pair of games on each board;
//! - `mail/`: turn notices by mail (addresses, quiet hours, the notices owed, the mail outbox);
//! - `study/`: games imported from records, and annotations of finished games;
//! - `explorer/`: the opening explorer and balance, from public games played here;
//! - `puzzles/`: puzzles mined from public games, tries and puzzle ratings;
//! - `vacation/`: days off a correspondence player's clocks.
//!
//! Front ends get the acting player's id and map the typed errors to their own replies.

pub mod ai_picker;
use taflbot_config as config;
use taflbot_config::backoff;
use taflbot_config::logging;
use taflbot_config::telemetry;
use taflbot_domain as domain;
use taflbot_domain::client_addr;
use taflbot_domain::webhook_target;
use taflbot_store as store;

pub mod accounts;
pub mod analysis;
mod clock;
mod cooldowns;
pub mod discord;
mod emitter;
mod engine_queue;
mod error;
pub mod events;
pub mod explorer;
pub mod games;
mod health;
#[cfg(test)]
mod instances_tests;
pub mod limits;
pub mod mail;
pub mod matches;
pub mod puzzles;
pub mod ratings;
pub mod study;
mod subscribers;
pub mod tournaments;
pub mod vacation;
mod views;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

use tokio::sync::Notify;

use crate::config::GamesConfig;
use crate::domain::{EventId, GameId};
use crate::store::Conn;
use crate::store::Store;
use crate::webhook_target::TargetPolicy;

pub use accounts::{
    AccountChange, Accounts, Credentials, ERASED_NAME, Erased, LOGIN_PATH, MAX_TOKENS_PER_PLAYER,
    NewWebSession, PLAYERS_PAGE_SIZE, PersonalData, WebSession, WebSessionView, login_url,
    token_name_schema,
};
pub use analysis::{
    Analysis, AnalysisSummaryView, AnalysisView, Asker, MarkView, PlyView, SideSummaryView,
    analysis_chart, analysis_chart_text,
};
pub use clock::{Clock, ManualClock, SystemClock};
pub use discord::{
    ChallengePost, ChannelPost, DEFAULT_REMOVED_SERVER_GRACE, Discord, GameOffDiscord, InReply,
    PLAY_DEFAULT_VARIANT, Place, REPLY_HOLD_MS, ServerMember, ServerSettings, ServersForgotten,
    SettingsChange, context_schema,
};
pub(crate) use emitter::Emitter;
pub use error::{Missing, NUL_CODE, ServiceError};
pub use events::{
    AnalysisDone, ChallengeAnswer, DeadlineReminder, DrawEvent, Event, EventBus, EventPayload,
    Events, GameEnded, GamePaused, GameResumed, GameStarted, InactivityReminder, MovePlayedEvent,
    PauseReason, ResumedWhere, VacationEnded, VacationStarted, WebhookDelivery, Webhooks,
    webhook_secret_schema,
};
pub use games::{
    BoardResult, BoardSnapshot, Challenges, ClockSpec, ConditionalMovesRequest,
    ConditionalMovesView, ConditionalPlan, DEFAULT_AI_LEVEL, DEFAULT_VARIANT, GAMES_PAGE_SIZE,
    GameBoard, Games, HistoryQuery, MovePicker, MoveRequest, NewChallenge, Opponent, PublicGames,
    RulesChoice, Scheduler, SchedulerPass, Shrink, SideChoice, VariantStart, ai_level_schema,
    parse_clock_text, render_board, variant_path_schema, variant_schema,
};
pub use ratings::{LEADERBOARD_PAGE_SIZE, Ratings};
pub use vacation::{
    RunningVacationView, TournamentVacation, VacationRequest, VacationView, Vacations,
};
pub use views::{
    AccountView, CapturedView, ChallengeCreated, ChallengeLists, ChallengeView, CreatedToken,
    GameRatings, GameSummary, GameView, IssuedToken, LeaderboardEntry, LegalMovesView, LoginLink,
    MovePlayed, MoveView, Page, PlayerProfile, PlayerView, PoolRating, RatingChange,
    RatingHistoryEntry, ResultView, SeatView, TokenView, VariantResults, VariantView, WarningView,
    WebhookView, variant_label,
};

pub type Result<T> = std::result::Result<T, ServiceError>;

/// When a refusal for a per-player cap (games against the AI, analyses or hints waiting)
/// suggests looking again: the work that holds the place takes about that long to move on.
pub const CAP_RETRY_AFTER_SECS: u64 = 60;

/// How long a write waits, at most, for the event follower (to start, to publish its events).
const FOLLOWER_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Cloneable handle on the games service.
#[derive(Clone)]
pub struct GamesService {
    inner: Arc<Inner>,
    /// Set inside a reply scope: the channel posts of what this handle commits are held.
    held: Option<Arc<discord::reply::PostsAwaitingReply>>,
}

struct Inner {
    store: Store,
    clock: Arc<dyn Clock>,
    bus: EventBus,
    config: GamesConfig,
    /// Where webhooks may point (checked at registration).
    webhook_targets: TargetPolicy,
    /// Tokens seen lately, by SHA-256; a revocation removes its token here too.
    tokens: RwLock<accounts::tokens::TokenCache>,
    /// Woken after every commit that wrote events, so webhook deliveries start at once.
    outbox: Arc<Notify>,
    /// Woken after every commit that queued Discord posts, or settled held ones.
    discord_outbox: Arc<Notify>,
    /// Engine games by id at their last known ply.
    engines: Arc<games::game_state::EngineCache>,
    /// The AI; without one, challenges to the AI are refused.
    picker: Option<Arc<dyn MovePicker>>,
    /// Every search (AI turns, hints, analysis positions): bounded, in turn between players.
    engine: engine_queue::EngineQueue,
    /// How soon each player may ask for engine work again.
    cooldowns: cooldowns::Cooldowns,
    /// Analysis boards' searches waiting or running: one per viewer.
    board_searches: analysis::board::BoardSearches,
    /// Explorer positions waiting for the engine's evaluation.
    explorer_evaluations: explorer::evaluations::EvaluationQueue,
    /// Games whose AI turn is being computed, each with whether its turn was asked for again
    /// meanwhile (see [`Games::kick_ai`]).
    ai_running: Mutex<HashMap<GameId, bool>>,
    /// Woken when an AI turn ends (analyses wait while the AI thinks).
    ai_idle: Notify,
    /// Woken when an analysis is asked for.
    analysis_queued: Notify,
    /// Wall-clock time of the last scheduler pass that completed (0: none yet).
    last_pass_ms: std::sync::atomic::AtomicI64,
    /// On a database other instances share: woken after this instance's commits, so the
    /// event follower publishes them (see `event_follower.rs`).
    shared_events: Option<Arc<Notify>>,
    /// On a shared database: the last event id the follower published (`None` until it knows
    /// where the events table ends). Writes wait for it to start, so that none falls before its
    /// starting point, and for it to publish their events, so that a write's events are out
    /// when it returns (as on SQLite).
    follower_published: Option<tokio::sync::watch::Receiver<Option<EventId>>>,
    /// This instance's name on the jobs it claims (see `store/src/rows/claims.rs`).
    instance: crate::domain::InstanceId,
    /// Turn notices by mail: its settings (once mail is on) and the players' presence.
    mail: mail::MailState,
}

impl GamesService {
    pub fn new(
        store: Store,
        clock: Arc<dyn Clock>,
        config: GamesConfig,
        webhook_targets: TargetPolicy,
        picker: Option<Arc<dyn MovePicker>>,
    ) -> GamesService {
        let shared_events = store.changes().map(|_| Arc::new(Notify::new()));
        let (published, follower_published) = match shared_events {
            Some(_) => {
                let (published, follower_published) = tokio::sync::watch::channel(None);
                (Some(published), Some(follower_published))
            }
            None => (None, None),
        };
        let engine = engine_queue::EngineQueue::new(engine_queue::EngineLimits {
            workers: match config.engine_workers {
                0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
                n => usize::try_from(n).unwrap_or(usize::MAX),
            },
            strong_at_once: usize::try_from(config.engine_strong_at_once).unwrap_or(usize::MAX),
        });
        let service = GamesService {
            inner: Arc::new(Inner {
                shared_events,
                follower_published,
                instance: crate::domain::InstanceId::new(),
                store,
                clock,
                bus: EventBus::new(4096),
                config,
                webhook_targets,
                tokens: RwLock::new(accounts::tokens::TokenCache::default()),
                outbox: Arc::new(Notify::new()),
                discord_outbox: Arc::new(Notify::new()),
                engines: Arc::new(games::game_state::EngineCache::new(10_000)),
                engine,
                cooldowns: cooldowns::Cooldowns::default(),
                board_searches: Default::default(),
                explorer_evaluations: Default::default(),
                picker,
                ai_running: Mutex::new(HashMap::new()),
                ai_idle: Notify::new(),
                analysis_queued: Notify::new(),
                last_pass_ms: std::sync::atomic::AtomicI64::new(0),
                mail: mail::MailState::default(),
            }),
            held: None,
        };
        if let Some(published) = published {
            service.events().follow_shared_events(published);
        }
        service
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    pub fn now_ms(&self) -> i64 {
        self.inner.clock.now_ms()
    }

    pub fn config(&self) -> &GamesConfig {
        &self.inner.config
    }

    /// This instance's name among those sharing the database.
    pub fn instance(&self) -> &crate::domain::InstanceId {
        &self.inner.instance
    }

    /// How long a claim on a job stands, in milliseconds.
    pub(crate) fn claim_lease_ms(&self) -> i64 {
        i64::try_from(self.inner.config.claim_lease_secs.saturating_mul(1000)).unwrap_or(i64::MAX)
    }

    /// Playing and reading games.
    pub fn games(&self) -> Games<'_> {
        Games { service: self }
    }

    /// Challenges and rematches.
    pub fn challenges(&self) -> Challenges<'_> {
        Challenges { service: self }
    }

    /// Time-driven work (games out of time, reminders, expiries).
    pub fn scheduler(&self) -> Scheduler<'_> {
        Scheduler { service: self }
    }

    /// Players, their handles, account and preferences.
    pub fn accounts(&self) -> Accounts<'_> {
        Accounts { service: self }
    }

    /// API tokens, sign-in links and web sessions.
    pub fn credentials(&self) -> Credentials<'_> {
        Credentials { service: self }
    }

    /// The limits every instance on the database counts together.
    pub fn shared_limits(&self) -> limits::SharedLimits<'_> {
        limits::SharedLimits { service: self }
    }

    /// What the Discord front end needs kept: its outbox, threads, posts and settings.
    pub fn discord(&self) -> Discord<'_> {
        Discord { service: self }
    }

    /// Live and stored events.
    pub fn events(&self) -> Events<'_> {
        Events { service: self }
    }

    /// Players' webhooks and their deliveries.
    pub fn webhooks(&self) -> Webhooks<'_> {
        Webhooks { service: self }
    }

    /// Analyses and hints.
    pub fn analysis(&self) -> Analysis<'_> {
        Analysis { service: self }
    }

    /// Turn notices by mail: addresses, quiet hours, the mail outbox.
    pub fn mail(&self) -> mail::Mail<'_> {
        mail::Mail { service: self }
    }

    /// Games imported from records, annotations of finished games.
    pub fn study(&self) -> study::Study<'_> {
        study::Study { service: self }
    }

    /// Vacation days: taken, ended, spent when a clock runs out.
    pub fn vacations(&self) -> vacation::Vacations<'_> {
        vacation::Vacations { service: self }
    }

    /// Leaderboards, profiles, rating histories.
    pub fn ratings(&self) -> Ratings<'_> {
        Ratings { service: self }
    }

    /// The opening explorer.
    pub fn explorer(&self) -> explorer::Explorer<'_> {
        explorer::Explorer { service: self }
    }

    /// Runs a query on a read-only connection.
    pub async fn read<T, F>(&self, query: F) -> Result<T>
    where
        F: FnOnce(&Conn<'_>) -> Result<T> + Send + 'static,
        T: Send + 'static,
    {
        self.inner.store.read(query).await
    }

    /// Runs `job` in the writer; the events it pushes into its `Vec` are stored in the same
    /// transaction and published once durable, in commit order.
    pub(crate) async fn commit<T, F>(&self, job: F) -> Result<T>
    where
        F: FnOnce(&Conn<'_>, &mut Emitter) -> Result<T> + Send + 'static,
        T: Send + 'static,
    {
        if let Some(published) = &self.inner.follower_published {
            let mut published = published.clone();
            // Bounded: a follower that cannot read yet must not stop every write.
            let _ = tokio::time::timeout(FOLLOWER_WAIT, published.wait_for(Option::is_some)).await;
        }
        let bus = self.inner.bus.clone();
        let shared_events = self.inner.shared_events.clone();
        let outbox = self.inner.outbox.clone();
        let discord_outbox = self.inner.discord_outbox.clone();
        let engines = self.inner.engines.clone();
        let held = self.held.clone();
        let now = self.now_ms();
        let vacation_days_per_year = self.inner.config.vacation_days_per_year;
        // Outbox times are wall-clock: delivery is operational, not part of any game's clock.
        let wall_now = SystemClock.now_ms();
        let held_until = held
            .as_ref()
            .map(|_| wall_now.saturating_add(REPLY_HOLD_MS));
        let held_in = held.as_ref().and_then(|h| h.channel());
        let (value, events) = self
            .inner
            .store
            .write_then(
                move |c| {
                    let mut emitter = Emitter {
                        events: Vec::new(),
                        deliveries: 0,
                        posts: Vec::new(),
                        held_until,
                        held_in,
                        wall_now,
                        now,
                        vacation_days_per_year,
                        dm_users: None,
                        engines_to_cache: Vec::new(),
                        game_ended: subscribers::GAME_ENDED,
                    };
                    let value = job(c, &mut emitter)?;
                    Ok::<_, ServiceError>((value, emitter))
                },
                move |(_, emitter): &mut (T, Emitter)| {
                    for (id, game) in emitter.engines_to_cache.drain(..) {
                        engines.put(id, game);
                    }
                    if !emitter.events.is_empty() {
                        events::metrics::record_events(&emitter.events);
                        match &shared_events {
                            // Published by the follower, in id order with other instances'.
                            Some(follower) => follower.notify_one(),
                            None => bus.publish(emitter.events.clone()),
                        }
                    }
                    if emitter.deliveries > 0 {
                        outbox.notify_one();
                    }
                    if !emitter.posts.is_empty() {
                        if let Some(held) = &held {
                            held.add(&emitter.posts);
                        }
                        discord_outbox.notify_one();
                    }
                },
            )
            .await?;
        if let (Some(published), Some(newest)) = (
            &self.inner.follower_published,
            events.events.iter().map(|e| e.id).max(),
        ) {
            let mut published = published.clone();
            let out = published.wait_for(|last| last.is_some_and(|last| last >= newest));
            if tokio::time::timeout(FOLLOWER_WAIT, out).await.is_err() {
                tracing::warn!(event = %newest, "the event follower has not published a commit's events yet");
            }
        }
        drop(events);
        Ok(value)
    }
}

/// The PostgreSQL server the tests start (shared with the integration tests).
#[cfg(test)]
pub(crate) use taflbot_test_support::pg_server as pg_test_server;
