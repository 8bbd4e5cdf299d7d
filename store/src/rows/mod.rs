//! Rows of the schema and the SQL that reads and writes them. Plain functions over a
//! connection, so the service composes several of them in one transaction.

use super::StoreError;

mod ai_players;
mod analyses;
mod annotations;
mod api_tokens;
mod challenges;
mod claims;
mod conditional_moves;
mod discord_challenge_posts;
mod discord_guilds;
mod discord_identify_turns;
mod discord_outbox;
mod events;
mod explorer;
mod explorer_balance;
mod explorer_evaluations;
mod game_threads;
mod games;
mod guild_settings;
mod idempotency;
mod imports;
mod mail;
mod moves;
mod personal_data;
mod player_preferences;
mod players;
mod puzzles;
mod ratings;
mod shared_limit_hits;
mod team_matches;
mod tournament_discord;
mod tournaments;
mod turn_reminders;
mod vacations;
mod web_sessions;
mod webhooks;

pub use ai_players::*;
pub use analyses::*;
pub use annotations::*;
pub use api_tokens::*;
pub use challenges::*;
pub use claims::*;
pub use conditional_moves::*;
pub use discord_challenge_posts::*;
pub use discord_guilds::*;
pub use discord_identify_turns::*;
pub use discord_outbox::*;
pub use events::*;
pub use explorer::*;
pub use explorer_balance::*;
pub use explorer_evaluations::*;
pub use game_threads::*;
pub use games::*;
pub use guild_settings::*;
pub use idempotency::*;
pub use imports::*;
pub use mail::*;
pub use moves::*;
pub use personal_data::*;
pub use player_preferences::*;
pub use players::*;
pub use puzzles::*;
pub use ratings::*;
pub use shared_limit_hits::*;
pub use team_matches::*;
pub use tournament_discord::*;
pub use tournaments::*;
pub use turn_reminders::*;
pub use vacations::*;
pub use web_sessions::*;
pub use webhooks::*;

pub use crate::domain::{
    AnalysisId, AnalysisStatus, ChallengeId, ChallengeStatus, DeliveryId, EventId, GameId,
    GameStatus, OutboxId, PlayerId, ResultReason, Seat, SessionOpening, SharedLimit, Side,
    SideChoice, SideColumn, TokenId, WebSessionId, WebhookId,
};

type Result<T> = std::result::Result<T, StoreError>;
