//! `taflbot login-link HANDLE`: on the server, a one-time link that signs a player in to the
//! web client (for a player without Discord or an API token at hand), at the address `serve`
//! gives the web client (`HttpConfig::site_url`). It reads an existing database, never makes one.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use crate::config::{Config, DatabaseLocation};
use crate::service::{GamesService, SystemClock};
use crate::store::{PgTimeouts, Store};

#[derive(Debug, clap::Args)]
pub struct LoginLinkArgs {
    /// The player's handle (as on their page; a leading @ is fine).
    pub handle: String,
    /// Config file (see config.example.toml): the database, and `http.public_url` the link
    /// starts with; TAFLBOT_* variables override it.
    #[arg(long, short, env = "TAFLBOT_CONFIG")]
    pub config: Option<PathBuf>,
}

pub fn run(args: &LoginLinkArgs) -> anyhow::Result<ExitCode> {
    let config = Config::load(args.config.as_deref())?;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let db = &config.database;
        let location = db.location()?;
        // A command that reads never creates a database: opening a missing SQLite file would
        // make an empty one (and then not find the player in it).
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
        let service = GamesService::new(
            store,
            Arc::new(SystemClock),
            config.games.clone(),
            config.webhooks.target_policy()?,
            None,
        );
        let (player, link) = service
            .credentials()
            .login_link_for_handle(&args.handle, &config.http.base_url())
            .await?;
        crate::cli::outln!("{}", link.url);
        eprintln!(
            "signs in {} (@{}) once, within {} minutes",
            player.name, player.handle, config.games.login_link_minutes
        );
        Ok(ExitCode::SUCCESS)
    })
}
