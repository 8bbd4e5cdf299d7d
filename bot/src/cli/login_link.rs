//! `taflbot login-link HANDLE`: on the server, a one-time link that signs a player in to the
//! web client (for a player without Discord or an API token at hand), at the address `serve`
//! gives the web client (`HttpConfig::site_url`). It reads an existing database, never makes one.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use crate::config::Config;

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
        let service = super::server_database::open_existing(&config)?;
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
