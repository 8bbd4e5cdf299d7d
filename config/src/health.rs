//! The health of the front ends, as values: the Discord front end reports its state here and
//! the health endpoints read it, so HTTP never names Discord. `app.rs` hands the one value to
//! both.

use serde::Serialize;
use tokio::sync::watch;

/// The state of the Discord front end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum DiscordState {
    /// No token configured: Discord is not used.
    Off,
    /// Connecting to the gateway (first time).
    Connecting,
    /// The gateway session is ready (and the commands registered, when this instance
    /// registers them).
    Connected,
    /// The gateway session is ready but registering the commands failed; tried again with
    /// back-off.
    CommandsNotRegistered { error: String },
    /// The gateway ended; connecting again after a back-off.
    Reconnecting { error: String },
    /// Discord's daily session starts are used up (`GET /gateway/bot`): the gateway waits for
    /// them to reset instead of identifying (past the limit Discord resets the bot's token).
    SessionStartsExhausted { error: String },
    /// Given up: the front end is down until the process restarts with a fixed configuration.
    Failed { error: String },
}

impl DiscordState {
    /// Whether this state is a problem an operator must see.
    pub fn is_failed(&self) -> bool {
        matches!(self, DiscordState::Failed { .. })
    }
}

/// Where the Discord front end reports its state; cloned by whoever reads it.
#[derive(Debug, Clone)]
pub struct DiscordStatus {
    sender: watch::Sender<DiscordState>,
    /// Each gateway shard's state (`/health`'s `shards`).
    shards: crate::shard_health::ShardBoard,
}

impl DiscordStatus {
    pub fn new(initial: DiscordState) -> DiscordStatus {
        DiscordStatus {
            sender: watch::channel(initial).0,
            shards: crate::shard_health::ShardBoard::default(),
        }
    }

    pub fn get(&self) -> DiscordState {
        self.sender.borrow().clone()
    }

    /// Each gateway shard's state, as the gateway relay reports it.
    pub fn shards(&self) -> &crate::shard_health::ShardBoard {
        &self.shards
    }

    pub fn set(&self, state: DiscordState) {
        self.sender.send_replace(state);
    }

    /// Sets `state` only while the current one satisfies `now` (a background task must not
    /// overwrite a failure or a reconnection it knows nothing of).
    pub fn set_if(&self, now: impl FnOnce(&DiscordState) -> bool, state: DiscordState) {
        self.sender.send_if_modified(|current| {
            if !now(current) {
                return false;
            }
            *current = state;
            true
        });
    }

    /// Waits until the state satisfies `done` (tests, start-up).
    pub async fn wait_for(&self, done: impl FnMut(&DiscordState) -> bool) -> DiscordState {
        let mut receiver = self.sender.subscribe();
        match receiver.wait_for(done).await {
            Ok(state) => state.clone(),
            Err(_) => self.get(),
        }
    }
}
