//! Registering the slash commands with Discord: as a deploy step (`taflbot discord register
//! [--guild ID]`), or by `serve` once per start when `discord.register_commands` says so (by
//! default the instance running shard 0). Each registration replaces the whole list, so every
//! instance registering at every READY let an old instance of a rolling deploy put its old
//! commands back; now one writer registers once. A failed registration is tried again with
//! back-off while the bot serves (`/health`: `commands_not_registered`), never given up.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serenity::all::{GuildId, Http};
use tokio::sync::watch;

use crate::backoff::Backoff;

use super::{BotError, Data, DiscordState, DiscordStatus};

/// The longest wait between two tries: 64 first waits (about a minute by default), at most
/// five minutes, so commands Discord refused for a while are there soon after it takes them.
fn max_wait(retry_base: Duration) -> Duration {
    retry_base.saturating_mul(64).min(Duration::from_secs(300))
}

/// The command list of this build, as Discord is to show it.
fn command_list() -> Vec<poise::Command<Data, BotError>> {
    super::commands::all()
}

/// Registers the command list once, globally or in `guild`; answers how many commands.
pub async fn register(http: &Http, guild: Option<GuildId>) -> Result<usize, serenity::Error> {
    let commands = command_list();
    match guild {
        Some(guild) => poise::builtins::register_in_guild(http, &commands, guild).await?,
        None => poise::builtins::register_globally(http, &commands).await?,
    }
    Ok(commands.len())
}

/// `taflbot discord register`: checks the token, learns the application id and registers the
/// command list, globally or in `guild`; answers how many commands.
pub async fn register_from_config(
    config: &crate::config::DiscordConfig,
    guild: Option<GuildId>,
) -> Result<usize, super::DiscordError> {
    let token = config
        .enabled_token()
        .ok_or(super::DiscordError::MissingToken)?;
    let http = super::connection::rest_client(
        token,
        &config.api_base,
        Duration::from_millis(config.request_timeout_ms),
        config.stand_in.as_ref(),
    )?;
    super::connection::check_token(&http).await?;
    if http.application_id().is_none() {
        return Err(super::DiscordError::HttpClient(
            "Discord did not give the application id (GET /oauth2/applications/@me)".to_owned(),
        ));
    }
    register(&http, guild)
        .await
        .map_err(|e| super::DiscordError::Client(Box::new(e)))
}

/// `serve`'s registration: whether it registers, where, and whether it already did.
pub(super) struct Registration {
    enabled: bool,
    guild: Option<GuildId>,
    retry_base: Duration,
    /// Set once a try runs (and stays set): later READYs of this process register nothing.
    started: AtomicBool,
    stop: watch::Receiver<bool>,
}

impl Registration {
    pub fn new(
        enabled: bool,
        guild: Option<GuildId>,
        retry_base: Duration,
        stop: watch::Receiver<bool>,
    ) -> Arc<Registration> {
        Arc::new(Registration {
            enabled,
            guild,
            retry_base,
            started: AtomicBool::new(false),
            stop,
        })
    }

    /// At a READY: the front end is connected, and the commands are registered in the
    /// background if this process is to and has not yet.
    pub fn on_ready(self: &Arc<Self>, http: Arc<Http>, status: DiscordStatus) {
        if !self.enabled {
            status.set(DiscordState::Connected);
            tracing::info!(
                "slash commands left as Discord has them (discord.register_commands): register \
                 them with `taflbot discord register` when they change"
            );
            return;
        }
        if self.started.swap(true, Ordering::SeqCst) {
            // Registered (or being registered) by this process: its state stands.
            status.set_if(
                |state| !matches!(state, DiscordState::CommandsNotRegistered { .. }),
                DiscordState::Connected,
            );
            return;
        }
        status.set(DiscordState::Connected);
        tokio::spawn(Arc::clone(self).until_registered(http, status));
    }

    /// Tries until Discord takes the list or the bot stops, waiting longer after each failure.
    async fn until_registered(self: Arc<Self>, http: Arc<Http>, status: DiscordStatus) {
        let backoff = Backoff::new(self.retry_base, max_wait(self.retry_base));
        let mut stop = self.stop.clone();
        let mut tries = 0u32;
        loop {
            match register(&http, self.guild).await {
                Ok(count) => {
                    tracing::info!(count, guild = ?self.guild, "slash commands registered");
                    status.set_if(
                        |state| matches!(state, DiscordState::CommandsNotRegistered { .. }),
                        DiscordState::Connected,
                    );
                    return;
                }
                Err(e) => {
                    tries = tries.saturating_add(1);
                    let wait = backoff.wait(tries.saturating_sub(1).min(16));
                    let error = format!(
                        "command registration failed {tries} times, last: {e}; trying again in \
                         {} s",
                        wait.as_secs_f32().ceil()
                    );
                    tracing::warn!("{error}");
                    status.set_if(
                        |state| {
                            matches!(
                                state,
                                DiscordState::Connected
                                    | DiscordState::CommandsNotRegistered { .. }
                            )
                        },
                        DiscordState::CommandsNotRegistered { error },
                    );
                    tokio::select! {
                        _ = tokio::time::sleep(wait) => {}
                        () = async { let _ = stop.wait_for(|stop| *stop).await; } => return,
                    }
                }
            }
        }
    }
}
