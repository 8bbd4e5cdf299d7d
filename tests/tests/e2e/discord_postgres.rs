//! Discord tests again, on PostgreSQL: the outbox (retries, holds, direct messages, a thread
//! or channel gone, the delivery layer), whole games and restarts, a tournament across servers,
//! vacation, the study commands (/annotate, /explorer, /puzzle and the daily puzzle), each test
//! on a database of its own on the server the tests start (`test-support/src/pg_server.rs`). `World` picks PostgreSQL for a
//! test whose module path starts with `discord_postgres::` (see `tests/src/world.rs`).

#[path = "discord_annotate.rs"]
mod discord_annotate;
#[path = "discord_delivery.rs"]
mod discord_delivery;
#[path = "discord_explorer.rs"]
mod discord_explorer;
#[path = "discord_games.rs"]
mod discord_games;
#[path = "discord_lifecycle.rs"]
mod discord_lifecycle;
#[path = "discord_notifications.rs"]
mod discord_notifications;
#[path = "discord_puzzles.rs"]
mod discord_puzzles;
#[path = "discord_resilience.rs"]
mod discord_resilience;
#[path = "discord_server_lifecycle.rs"]
mod discord_server_lifecycle;
#[path = "discord_team_matches.rs"]
mod discord_team_matches;
#[path = "discord_threads.rs"]
mod discord_threads;
#[path = "discord_tournaments.rs"]
mod discord_tournaments;
#[path = "discord_vacation.rs"]
mod discord_vacation;
