//! What the tests of the `taflbot` commands that run beside the server share: the games
//! service on the SQLite file the command is pointed at.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use taflbot::config::Config;
use taflbot::service::{GamesService, SystemClock};
use taflbot::store::Store;

/// The service on `db` (made if missing), with the default configuration.
pub fn service_on(db: &Path) -> GamesService {
    let store = Store::open(db, 1, Duration::from_secs(5), 16).unwrap();
    let config = Config::default();
    GamesService::new(
        store,
        Arc::new(SystemClock),
        config.games,
        config.webhooks.target_policy().unwrap(),
        None,
    )
}
