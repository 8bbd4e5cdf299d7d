//! taflbot: the application (command line, service, front ends).

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
