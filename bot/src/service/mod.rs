//! The games service: every rule of the service (who may act, turns, clocks, AI turns)
//! in one place. It knows no front end: Discord and HTTP both call these async methods with
//! the acting player's id and map the typed errors to their own replies.

mod account;
mod actions;
mod ai;
#[cfg(test)]
mod ai_task_tests;
mod analysis;
mod analysis_chart;
mod analysis_view;
mod challenge_posts;
mod challenges;
mod channel_posts;
mod error;
mod event;
mod event_follower;
mod event_metrics;
mod events;
mod follow;
mod game_board;
mod game_state;
mod game_threads;
mod handles;
mod health;
mod history;
#[cfg(test)]
mod instances_tests;
mod moderation;
mod move_check;
mod moves;
mod name_rule;
mod notify_prefs;
mod place;
mod preferences;
mod queries;
pub mod ratings;
mod rematch;
mod reply;
mod requests;
mod scheduler;
mod server_settings;
mod sign_in;
mod stats;
mod timing;
mod tokens;
mod views;
mod webhooks;

pub mod clock;
pub mod players;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

use tokio::sync::{Notify, broadcast};

use crate::config::GamesConfig;
use crate::domain::{ChallengeId, EventId, GameId, PlayerId};
use crate::store::Conn;
use crate::store::Store;
use crate::store::rows;
use crate::webhook_target::TargetPolicy;

pub use account::AccountChange;
pub use ai::MovePicker;
pub(crate) use analysis_chart::chart_mark;
pub use analysis_chart::{analysis_chart, analysis_chart_text};
pub use analysis_view::{AnalysisSummaryView, AnalysisView, MarkView, PlyView, SideSummaryView};
pub use challenge_posts::ChallengePost;
pub use channel_posts::ChannelPost;
pub use clock::{Clock, ManualClock, SystemClock};
pub use error::{Missing, ServiceError};
pub use event::{
    AnalysisDone, ChallengeAnswer, DeadlineReminder, DrawEvent, Event, EventPayload, GameEnded,
    GameStarted, InactivityReminder, MovePlayedEvent,
};
pub use events::EventBus;
pub use game_board::GameBoard;
pub use game_threads::GameOffDiscord;
pub use history::{GAMES_PAGE_SIZE, HistoryQuery};
pub use place::Place;
pub use place::context_schema;
pub use players::PLAYERS_PAGE_SIZE;
pub use queries::{BoardResult, BoardSnapshot, VariantStart, render_board};
pub use reply::{InReply, REPLY_HOLD_MS};
pub use requests::{
    DEFAULT_AI_LEVEL, DEFAULT_VARIANT, MoveRequest, NewChallenge, Opponent, RulesChoice,
    SideChoice, ai_level_schema, variant_path_schema, variant_schema,
};
pub use scheduler::SchedulerPass;
pub use server_settings::{PLAY_DEFAULT_VARIANT, ServerMember, ServerSettings, SettingsChange};
pub use sign_in::{LOGIN_PATH, NewWebSession, WebSession, login_url};
pub use stats::LEADERBOARD_PAGE_SIZE;
pub use timing::ClockSpec;
pub use tokens::{MAX_TOKENS_PER_PLAYER, token_name_schema};
pub use views::*;
pub use webhooks::{WebhookDelivery, webhook_secret_schema};

pub type Result<T> = std::result::Result<T, ServiceError>;

/// How long a write waits, at most, for the event follower (to start, to publish its events).
const FOLLOWER_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Cloneable handle on the games service.
#[derive(Clone)]
pub struct GamesService {
    inner: Arc<Inner>,
    /// Set inside a reply scope: the channel posts of what this handle commits are held.
    held: Option<Arc<reply::PostsAwaitingReply>>,
}

struct Inner {
    store: Store,
    clock: Arc<dyn Clock>,
    bus: EventBus,
    config: GamesConfig,
    /// Where webhooks may point (checked at registration).
    webhook_targets: TargetPolicy,
    /// Tokens seen lately, by SHA-256; a revocation removes its token here too.
    tokens: RwLock<tokens::TokenCache>,
    /// Woken after every commit that wrote events, so webhook deliveries start at once.
    outbox: Arc<Notify>,
    /// Woken after every commit that queued Discord posts, or settled held ones.
    discord_outbox: Arc<Notify>,
    /// Engine games by id at their last known ply.
    engines: Arc<game_state::EngineCache>,
    /// The AI; without one, challenges to the AI are refused.
    picker: Option<Arc<dyn MovePicker>>,
    /// Games whose AI turn is being computed, each with whether its turn was asked for again
    /// meanwhile (see [`GamesService::kick_ai`]).
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
    /// This instance's name on the jobs it claims (see `store/rows/claims.rs`).
    instance: crate::domain::InstanceId,
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
                tokens: RwLock::new(tokens::TokenCache::default()),
                outbox: Arc::new(Notify::new()),
                discord_outbox: Arc::new(Notify::new()),
                engines: Arc::new(game_state::EngineCache::new(10_000)),
                picker,
                ai_running: Mutex::new(HashMap::new()),
                ai_idle: Notify::new(),
                analysis_queued: Notify::new(),
                last_pass_ms: std::sync::atomic::AtomicI64::new(0),
            }),
            held: None,
        };
        if let Some(published) = published {
            service.follow_shared_events(published);
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

    /// Live events (every game). Front ends use this; on `Lagged`, catch up with
    /// [`GamesService::events_after`].
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.inner.bus.subscribe()
    }

    /// Live events concerning `player` only (event streams); on `Lagged`, catch up with
    /// [`GamesService::events_for`].
    pub fn subscribe_player(&self, player: PlayerId) -> broadcast::Receiver<Event> {
        self.inner.bus.subscribe_player(player)
    }

    /// Live events of one game (a game's event stream); on `Lagged`, catch up with
    /// [`GamesService::events_of_game`].
    pub fn subscribe_game(&self, game: GameId) -> broadcast::Receiver<Event> {
        self.inner.bus.subscribe_game(game)
    }

    /// Stored events of game `game` after `since`, oldest first.
    pub async fn events_of_game(
        &self,
        game: GameId,
        since: EventId,
        limit: u32,
    ) -> Result<Vec<Event>> {
        self.read(move |c| {
            Ok(events::events_of_rows(rows::events_of_game(
                c, game, since, limit,
            )?))
        })
        .await
    }

    /// Notified whenever events were committed (webhook outbox worker).
    pub fn outbox_signal(&self) -> Arc<Notify> {
        self.inner.outbox.clone()
    }

    /// Notified whenever Discord posts were queued or released (Discord outbox worker).
    pub fn discord_outbox_signal(&self) -> Arc<Notify> {
        self.inner.discord_outbox.clone()
    }

    /// Stored events concerning `player` after `since`, oldest first.
    pub async fn events_for(
        &self,
        player: PlayerId,
        since: EventId,
        limit: u32,
    ) -> Result<Vec<Event>> {
        self.read(move |c| {
            Ok(events::events_of_rows(rows::events_for_player(
                c, player, since, limit,
            )?))
        })
        .await
    }

    /// Every stored event after `since`, oldest first.
    pub async fn events_after(&self, since: EventId, limit: u32) -> Result<Vec<Event>> {
        self.read(move |c| Ok(events::events_of_rows(rows::events_since(c, since, limit)?)))
            .await
    }

    /// Runs a query on a read-only connection.
    pub(crate) async fn read<T, F>(&self, query: F) -> Result<T>
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
        // Outbox times are wall-clock: delivery is operational, not part of any game's clock.
        let wall_now = SystemClock.now_ms();
        let held_until = held
            .as_ref()
            .map(|_| wall_now.saturating_add(REPLY_HOLD_MS));
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
                        wall_now,
                        now,
                        dm_users: None,
                        engines_to_cache: Vec::new(),
                    };
                    let value = job(c, &mut emitter)?;
                    Ok::<_, ServiceError>((value, emitter))
                },
                move |(_, emitter): &mut (T, Emitter)| {
                    for (id, game) in emitter.engines_to_cache.drain(..) {
                        engines.put(id, game);
                    }
                    if !emitter.events.is_empty() {
                        event_metrics::record_events(&emitter.events);
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

/// Collects the events of one write job.
pub(crate) struct Emitter {
    events: Vec<Event>,
    /// Webhook deliveries queued by these events.
    deliveries: usize,
    /// Discord posts queued by these events.
    posts: Vec<rows::OutboxId>,
    /// Set when the caller shows these events in its own reply.
    held_until: Option<i64>,
    /// Wall-clock time of the commit, for the outbox.
    wall_now: i64,
    now: i64,
    /// A game's seats' Discord users who asked for a direct message on their turn, as read
    /// with the game (attackers, defenders): a move's event needs no query of its own.
    dm_users: Option<(GameId, [Option<u64>; 2])>,
    /// Engine games as this job leaves them, cached once it commits: a state that was
    /// never committed is never taken for the stored one.
    engines_to_cache: Vec<(GameId, tafl_engine::Game)>,
}

impl Emitter {
    pub(crate) fn now(&self) -> i64 {
        self.now
    }

    /// Remembers who of `game`'s seats wants a direct message on their turn (see `dm_users`).
    pub(crate) fn know_dm_users(&mut self, game: GameId, users: [Option<u64>; 2]) {
        self.dm_users = Some((game, users));
    }

    /// Caches `game`'s engine game, as this job leaves it, once the job commits.
    pub(crate) fn cache_after_commit(&mut self, game: GameId, engine: tafl_engine::Game) {
        self.engines_to_cache.push((game, engine));
    }

    pub(crate) fn emit(
        &mut self,
        c: &Conn<'_>,
        game_id: Option<GameId>,
        challenge_id: Option<ChallengeId>,
        players: Vec<PlayerId>,
        payload: EventPayload,
    ) -> Result<()> {
        let mut event = events::new_event(payload, game_id, challenge_id, players, self.now);
        let mut row = events::event_row(&event)?;
        self.deliveries += rows::insert_event(c, &mut row)?;
        event.id = row.id;
        if let Some(channel) = events::discord_channel_of(c, &event)? {
            let post =
                rows::insert_outbox_post(c, event.id, channel, self.wall_now, self.held_until)?;
            self.posts.push(post);
        }
        // A direct message is never shown by a reply: it is not held.
        let dm = match (&event.payload, self.dm_users) {
            (EventPayload::MovePlayed(played), Some((game, users))) if Some(game) == game_id => {
                played.side_to_move.and_then(|side| match side {
                    crate::domain::Side::Attackers => users[0],
                    crate::domain::Side::Defenders => users[1],
                })
            }
            _ => events::discord_dm_of(c, &event)?,
        };
        if let Some(user) = dm {
            self.posts
                .push(rows::insert_outbox_dm(c, event.id, user, self.wall_now)?);
        }
        self.events.push(event);
        Ok(())
    }
}
