//! The server's database, opened by a command that runs beside `taflbot serve` (login links,
//! imports): it must already exist, since opening a missing SQLite file would make an empty one.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use crate::config::{Config, DatabaseLocation};
use crate::service::{GamesService, SystemClock};
use crate::store::{PgTimeouts, Store};

/// The games service on the database `config` names, which must exist.
pub fn open_existing(config: &Config) -> anyhow::Result<GamesService> {
    let db = &config.database;
    let location = db.location()?;
    if let DatabaseLocation::Sqlite(path) = &location
        && !path.exists()
    {
        anyhow::bail!(
            "no database at {} (from the config's database.path, else ./taflbot.db in the \
             folder this runs in): run this where `taflbot serve` runs, or name the server's \
             config with --config (or TAFLBOT_CONFIG, TAFLBOT_DATABASE_PATH)",
            path.display()
        );
    }
    let store = Store::open_location(
        &location,
        1,
        Duration::from_millis(db.busy_timeout_ms),
        PgTimeouts::from(db),
        db.max_batch,
    )
    .with_context(|| format!("cannot open the database {location}"))?;
    Ok(GamesService::new(
        store,
        Arc::new(SystemClock),
        config.games.clone(),
        config.webhooks.target_policy()?,
        None,
    ))
}
