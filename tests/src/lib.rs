//! End-to-end test support for taflbot: a local fake Discord (REST + gateway) that the real bot
//! connects to, and helpers to start the bot against it.

// The fake's guild payload is one large `json!` literal.
#![recursion_limit = "256"]

pub mod bot;
pub mod fake_discord;
pub mod load;
/// The PostgreSQL server the PostgreSQL runs of the Discord tests use (shared with the bot's
/// own tests).
pub use taflbot_test_support::pg_server;
pub mod axe;
mod screenshot_png;
pub mod web;
pub mod world;

/// No cooldowns and no per-player caps on engine work (tests that are about those set them).
pub fn games_without_engine_limits(config: &mut taflbot::config::Config) {
    config.games.ai_game_cooldown_secs = 0;
    config.games.hint_cooldown_secs = 0;
    config.games.analysis_cooldown_secs = 0;
    config.games.max_ai_games_per_player = 0;
    config.games.analysis_max_queued_per_player = 100;
    config.games.analysis_max_queued_new_account = 100;
    config.games.analysis_max_queued_per_address = 100;
}
