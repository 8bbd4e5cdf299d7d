//! State shared by every command, button handler and the outbox worker.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serenity::all::User;

use crate::domain::{GameId, PlayerId};
use crate::service::GamesService;

use super::delivery::{GateSettings, RestGate};
use super::{BotError, DiscordStatus};

/// Board theme for Discord (most people use the dark client).
pub const BOARD_THEME: &str = "dark";

/// How long a command or click may take before it is deferred (`discord.defer_after_ms`).
const DEFAULT_ANSWER_BUDGET: Duration = Duration::from_millis(500);

/// An interaction token stays usable for 15 minutes; leave a margin for slow networks.
const FOLLOWUP_WINDOW: Duration = Duration::from_secs(14 * 60);

/// Where to post the AI's reply to a command: the command's interaction, while it is fresh.
#[derive(Debug, Clone)]
pub struct PendingFollowup {
    pub token: String,
    pub since: Instant,
}

/// What the commands need: the games service, and a few small memories of this process.
#[derive(Clone)]
pub struct Data {
    pub service: GamesService,
    /// Whether the front end is connected, for health checks.
    pub status: DiscordStatus,
    /// Where the web client is served (sign-in links of `/web`); None when HTTP is off.
    pub web_base: Option<String>,
    /// The one door of every REST request outside an interaction's answer.
    rest: Arc<RestGate>,
    /// How long a command or click may work before its interaction is deferred.
    answer_budget: Duration,
    /// How long a server that removed the bot keeps its games paused and its data
    /// (`discord.removed_server_grace_days`).
    removed_server_grace: Duration,
    /// Where the operator's privacy statement is (`discord.privacy_policy_url`), for `/privacy`.
    privacy_statement: Option<String>,
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    players: Mutex<HashMap<u64, PlayerId>>,
    /// (guild, Discord user) pairs already written to the store by this process.
    seen_in_guilds: Mutex<HashSet<(u64, u64)>>,
    followups: Mutex<HashMap<GameId, PendingFollowup>>,
}

fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Data {
    pub fn new(service: GamesService, status: DiscordStatus, web_base: Option<String>) -> Self {
        let rest = Arc::new(RestGate::new(GateSettings::default(), Some(status.clone())));
        Data {
            service,
            status,
            web_base,
            rest,
            answer_budget: DEFAULT_ANSWER_BUDGET,
            removed_server_grace: crate::service::DEFAULT_REMOVED_SERVER_GRACE,
            privacy_statement: None,
            inner: Arc::new(Inner::default()),
        }
    }

    /// The same, with commands and clicks deferred after `budget` without an answer.
    pub fn with_answer_budget(self, budget: Duration) -> Data {
        Data {
            answer_budget: budget,
            ..self
        }
    }

    /// The same, with the grace period of servers that removed the bot as configured.
    pub fn with_removed_server_grace(self, grace: Duration) -> Data {
        Data {
            removed_server_grace: grace,
            ..self
        }
    }

    /// How long a command or click may work before its interaction is deferred.
    pub fn answer_budget(&self) -> Duration {
        self.answer_budget
    }

    /// How long a server that removed the bot keeps its games paused and its data.
    pub fn removed_server_grace(&self) -> Duration {
        self.removed_server_grace
    }

    /// The same, with the operator's privacy statement at `url` (none: taflbot's own).
    pub fn with_privacy_statement(self, url: Option<String>) -> Data {
        Data {
            privacy_statement: url,
            ..self
        }
    }

    /// Where `/privacy` sends people to read the privacy statement.
    pub fn privacy_statement(&self) -> &str {
        self.privacy_statement
            .as_deref()
            .unwrap_or(super::commands::privacy::DEFAULT_PRIVACY_STATEMENT)
    }

    /// Forgets the player of Discord user `user` in this process (their data was erased: their
    /// next command starts a new player).
    pub fn forget_player(&self, user: u64) {
        locked(&self.inner.players).remove(&user);
        locked(&self.inner.seen_in_guilds).retain(|(_, seen)| *seen != user);
    }

    /// The same, with the delivery layer's gate set up as configured.
    pub fn with_rest_gate(self, settings: GateSettings) -> Data {
        let rest = Arc::new(RestGate::new(settings, Some(self.status.clone())));
        Data { rest, ..self }
    }

    /// The gate every REST request outside an interaction's answer goes through.
    pub fn rest_gate(&self) -> &RestGate {
        &self.rest
    }

    /// The player of a Discord user (created on first use).
    pub async fn player_of(&self, user: &User) -> Result<PlayerId, BotError> {
        if let Some(id) = locked(&self.inner.players).get(&user.id.get()) {
            return Ok(*id);
        }
        let name = user
            .global_name
            .clone()
            .unwrap_or_else(|| user.name.clone());
        let player = self
            .service
            .accounts()
            .player_for_discord_user(user.id.get(), &user.name, &name)
            .await?;
        locked(&self.inner.players).insert(user.id.get(), player.id);
        Ok(player.id)
    }

    /// Remembers that `user` was seen in the Discord guild `guild`: what the guild's own
    /// leaderboard (`/leaderboard server_only:true`) is made of. Written once per process.
    pub async fn seen_in_guild(&self, guild: u64, user: &User) -> Result<(), BotError> {
        if locked(&self.inner.seen_in_guilds).contains(&(guild, user.id.get())) {
            return Ok(());
        }
        let player = self.player_of(user).await?;
        self.service
            .accounts()
            .note_guild_player(guild, player)
            .await?;
        locked(&self.inner.seen_in_guilds).insert((guild, user.id.get()));
        Ok(())
    }

    /// Remembers the interaction to answer with the AI's next move in `game`.
    pub fn expect_ai_reply(&self, game: GameId, token: &str) {
        locked(&self.inner.followups).insert(
            game,
            PendingFollowup {
                token: token.to_owned(),
                since: Instant::now(),
            },
        );
    }

    /// The interaction to answer the AI's move in `game` with, if still within its window.
    pub fn take_ai_followup(&self, game: GameId) -> Option<PendingFollowup> {
        let pending = locked(&self.inner.followups).remove(&game)?;
        pending.is_fresh(Instant::now()).then_some(pending)
    }
}

impl PendingFollowup {
    /// Whether Discord still accepts follow-ups on this interaction at `now`.
    pub fn is_fresh(&self, now: Instant) -> bool {
        now.saturating_duration_since(self.since) < FOLLOWUP_WINDOW
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follow_ups_stop_before_discords_fifteen_minutes() {
        let start = Instant::now();
        let pending = PendingFollowup {
            token: "t".into(),
            since: start,
        };
        assert!(pending.is_fresh(start + Duration::from_secs(60)));
        assert!(pending.is_fresh(start + Duration::from_secs(13 * 60)));
        assert!(!pending.is_fresh(start + Duration::from_secs(14 * 60)));
        assert!(!pending.is_fresh(start + Duration::from_secs(15 * 60)));
    }
}
