//! Rows of the schema and the SQL that reads and writes them. Plain functions over a
//! connection, so the service composes several of them in one transaction.

use super::StoreError;

mod api_tokens;
mod challenges;
mod discord_outbox;
mod events;
mod games;
mod idempotency;
mod moves;
mod players;
mod ratings;
mod web_sessions;
mod webhooks;

pub use api_tokens::*;
pub use challenges::*;
pub use discord_outbox::*;
pub use events::*;
pub use games::*;
pub use idempotency::*;
pub use moves::*;
pub use players::*;
pub use ratings::*;
pub use web_sessions::*;
pub use webhooks::*;

pub use crate::domain::{
    ChallengeId, ChallengeStatus, DeliveryId, EventId, GameId, GameStatus, OutboxId, PlayerId,
    ResultReason, Seat, Side, SideChoice, SideColumn, TokenId, WebhookId,
};

type Result<T> = std::result::Result<T, StoreError>;
