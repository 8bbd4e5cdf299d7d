//! taflbot: the application (command line, service, front ends). Start reading here.
//!
//! The layers, from the bottom up: each uses only those listed before it
//! (`bot/tests/module_layers.rs` keeps it so).
//!
//! - [`domain`]: what the service speaks in: ids, statuses, results, seats, handles,
//!   visibility and origin of a game; no I/O.
//! - [`store`]: SQLite and PostgreSQL behind one interface (`Conn`), the group-commit writer
//!   (`store/writer.rs`, `pg_writer.rs`), a file per table under `store/rows/`, the migrations.
//! - [`service`]: every rule of the service, one folder per area, each behind a small facade
//!   (`service.games()`, `.challenges()`, `.accounts()`, `.ratings()`, `.analysis()`,
//!   `.tournaments()`, `.matches()`, `.study()`, `.puzzles()`, `.explorer()`, `.mail()`,
//!   `.vacations()`, `.discord()`, `.events()`); every change commits its events in its own
//!   transaction (`service/mod.rs` `commit`), and areas react to a game's end through
//!   subscribers (`service/games/game_ended.rs`, wired in `service/subscribers.rs`).
//! - [`notify`]: webhook and mail deliveries from their outboxes.
//! - front ends: [`discord`] (poise on serenity, and the delivery layer to Discord's REST API),
//!   [`server`] (the HTTP API in `server/http/` and the web client in `server/web/`, over one
//!   app state).
//! - [`app`]: wires them into one running program (`RunningApp::start`, with the clock, the AI
//!   and the scheduler injected, so tests start the real app on port 0).
//! - [`cli`]: the `taflbot` command line, which starts the app or runs one task on the store.
//!
//! The other crates: `tafl-engine` (rules, notation, AI; no I/O), `tafl-render` (boards to
//! PNG), `tafl-cli` and `tafl-tools` (the `tafl` engine lab), `taflbot-bench`, `taflbot-e2e`
//! (the fake Discord, browser tests) and `taflbot-test-support`. See docs/architecture.md.

pub mod ai_picker;
pub mod app;
pub mod backoff;
pub mod cli;
pub mod client_addr;
pub mod config;
pub mod discord;
pub mod domain;
pub mod health;
pub mod logging;
pub mod notify;
pub mod server;
pub mod service;
pub mod shard_health;
pub mod store;
pub mod telemetry;
pub mod webhook_target;

/// The PostgreSQL server the tests start (shared with the integration tests).
#[cfg(test)]
pub(crate) use taflbot_test_support::pg_server as pg_test_server;
