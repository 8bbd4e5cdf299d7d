//! The Discord front end: poise slash commands and buttons over the games service.
//!
//! Thin by design: each command parses its options, calls the service, and formats the answer.
//! [`start`] connects to Discord (or to a local fake, through `discord.api_base`).

use taflbot_config as config;
use taflbot_config::backoff;
use taflbot_config::health;
use taflbot_config::logging;
use taflbot_config::shard_health;
use taflbot_config::telemetry;
use taflbot_domain as domain;
use taflbot_service as service;

mod alt_text;
mod announcements;
mod answers;
mod challenge_posts;
mod command_registration;
mod commands;
mod components;
mod connection;
mod data;
mod delivery;
mod dms_closed_note;
mod error;
mod game_buttons;
mod gateway_relay;
pub mod interactions_endpoint;
mod match_news;
mod mentions;
mod mirror_threads;
mod picker;
mod places;
mod post_permissions;
mod posts;
mod puzzles;
mod server;
mod server_lifecycle;
mod session_start_limit;
mod text_board;
mod threads;
mod tournament_news;
mod vacation_posts;

pub use crate::health::{DiscordState, DiscordStatus};
pub use command_registration::register_from_config as register_commands;
pub use connection::{DiscordSettings, RunningBot, api_origin, start};
pub use data::Data;
pub use delivery::{DeliverySettings, GateSettings};
pub use error::{BotError, DiscordError};

/// The poise context every command receives.
pub type Context<'a> = poise::Context<'a, Data, BotError>;
