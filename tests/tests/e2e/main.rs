//! The end-to-end tests, one binary: the real app against the fake Discord, a real HTTP client
//! and headless Chromium. One module per area; `discord_postgres` runs a set of the Discord
//! modules again on PostgreSQL (`World` picks the database by the test's module path).

mod discord_ai_ratings;
mod discord_analysis;
mod discord_annotate;
mod discord_answers;
mod discord_buttons;
mod discord_challenges;
mod discord_command_registration;
mod discord_conditional;
mod discord_delivery;
mod discord_explorer;
mod discord_flows;
mod discord_games;
mod discord_gateway;
mod discord_gateway_closes;
mod discord_gateway_wire;
mod discord_help;
mod discord_identify_pacing;
mod discord_interactions_endpoint;
mod discord_lifecycle;
mod discord_load;
mod discord_notifications;
mod discord_permissions;
#[allow(
    clippy::duplicate_mod,
    reason = "the same Discord tests, compiled again to run on PostgreSQL"
)]
mod discord_postgres;
mod discord_privacy;
mod discord_puzzles;
mod discord_rate_limits;
mod discord_real_world;
mod discord_resilience;
mod discord_server_lifecycle;
mod discord_settings;
mod discord_shards;
mod discord_standings;
mod discord_team_matches;
mod discord_threads;
mod discord_tournaments;
mod discord_vacation;
mod discord_web;
mod fake_discord_contract;
mod fake_discord_crowd;
mod web_accessibility;
mod web_analysis;
mod web_analysis_board;
mod web_browser;
mod web_conditional;
mod web_keyboard;
mod web_puzzles;
mod web_team_matches;
mod web_tournaments;
mod web_turns;
