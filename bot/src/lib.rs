//! taflbot: the application (command line, service, front ends). Start reading here.
//!
//! The layers, from the bottom up, each a crate of its own that uses only those listed before
//! it (`bot/tests/crate_layers.rs` keeps it so), re-exported here under their module names:
//!
//! - [`domain`] (`domain/`, taflbot-domain): what the service speaks in: ids, statuses,
//!   results, seats, handles, visibility and origin of a game; no I/O.
//! - [`config`] (`config/`, taflbot-config): the settings, logging, telemetry, back-off, health.
//! - [`store`] (`store/`, taflbot-store): SQLite and PostgreSQL behind one interface (`Conn`),
//!   the group-commit writers (`writer.rs`, `pg_writer.rs`), a file per table under `rows/`,
//!   the migrations.
//! - [`service`] (`service/`, taflbot-service): every rule of the service, one folder per area,
//!   each behind a small facade (`service.games()`, `.challenges()`, `.accounts()`,
//!   `.ratings()`, `.analysis()`, `.tournaments()`, `.matches()`, `.study()`, `.puzzles()`,
//!   `.explorer()`, `.mail()`, `.vacations()`, `.discord()`, `.events()`); every change
//!   commits its events in its own transaction (`lib.rs` `commit`), and areas react to a
//!   game's end through subscribers (`games/game_ended.rs`, wired in `subscribers.rs`).
//! - [`notify`] (`notify/`, taflbot-notify): webhook and mail deliveries from their outboxes.
//! - front ends: [`discord`] (`discord/`, taflbot-discord: poise on serenity, and the delivery
//!   layer to Discord's REST API), [`server`] (`web/`, taflbot-web: the HTTP API in `http/` and
//!   the web client in `web/`, over one app state).
//! - [`app`] (here): wires them into one running program (`RunningApp::start`, with the clock,
//!   the AI and the scheduler injected, so tests start the real app on port 0).
//! - [`cli`] (here): the `taflbot` command line, which starts the app or runs one task on the
//!   store.
//!
//! The other crates: `tafl-engine` (rules, notation, AI; no I/O), `tafl-render` (boards to
//! PNG), `tafl-cli` and `tafl-tools` (the `tafl` engine lab), `taflbot-bench`, `taflbot-e2e`
//! (the fake Discord, browser tests) and `taflbot-test-support`. See docs/architecture.md.

pub mod app;
pub mod cli;

pub use taflbot_config as config;
pub use taflbot_config::{backoff, health, logging, shard_health, telemetry};
pub use taflbot_discord as discord;
pub use taflbot_domain as domain;
pub use taflbot_domain::{client_addr, webhook_target};
pub use taflbot_notify as notify;
pub use taflbot_service as service;
pub use taflbot_service::ai_picker;
pub use taflbot_store as store;
pub use taflbot_web as server;
