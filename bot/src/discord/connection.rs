//! Building the serenity client (real Discord or a local fake) and running it.

use std::sync::Arc;

use serenity::all::{ClientBuilder, GatewayIntents, GuildId, HttpBuilder, ShardManager};
use tokio::task::JoinHandle;

use super::{Data, DiscordError, announcer, commands, components, error};

/// Where the real Discord API lives; anything else is treated as a proxy or a fake.
const DISCORD_ORIGIN: &str = "https://discord.com";

/// How to connect the Discord front end.
#[derive(Debug, Clone)]
pub struct DiscordSettings {
    pub token: String,
    /// Base URL of the REST API, e.g. `https://discord.com/api` or `http://127.0.0.1:4000/api`.
    pub api_base: String,
    /// Register the commands in this guild only (instant) instead of globally.
    pub guild_id: Option<u64>,
}

/// The origin (scheme, host, port) that requests go to, read off `discord.api_base`.
/// serenity builds `https://discord.com/api/v10/...` and swaps the origin for a proxy's.
pub fn api_origin(api_base: &str) -> Result<String, DiscordError> {
    let trimmed = api_base.trim().trim_end_matches('/');
    let origin = trimmed
        .strip_suffix("/api/v10")
        .or_else(|| trimmed.strip_suffix("/api"))
        .unwrap_or(trimmed);
    let has_scheme = origin.starts_with("http://") || origin.starts_with("https://");
    let host = origin.split_once("://").map(|(_, rest)| rest).unwrap_or("");
    if !has_scheme || host.is_empty() || host.contains('/') {
        return Err(DiscordError::BadApiBase(api_base.to_owned()));
    }
    Ok(origin.to_owned())
}

fn http_client(settings: &DiscordSettings) -> Result<serenity::all::Http, DiscordError> {
    let token = settings.token.trim();
    if token.is_empty() {
        return Err(DiscordError::MissingToken);
    }
    let origin = api_origin(&settings.api_base)?;
    let builder = HttpBuilder::new(token);
    if origin == DISCORD_ORIGIN {
        return Ok(builder.build());
    }
    // serenity ignores the proxy while its rate limiter is on; a fake or proxy limits nothing.
    Ok(builder.proxy(origin).ratelimiter_disabled(true).build())
}

/// The running bot: keep it to stop it.
pub struct RunningBot {
    shard_manager: Arc<ShardManager>,
    task: JoinHandle<Result<(), serenity::Error>>,
    announcer: JoinHandle<()>,
}

impl RunningBot {
    /// Closes the gateway connection and waits for the client to stop.
    pub async fn shutdown(self) -> Result<(), DiscordError> {
        self.announcer.abort();
        self.shard_manager.shutdown_all().await;
        self.task.await??;
        Ok(())
    }

    /// Waits until the client stops by itself (a fatal gateway error, or never).
    pub async fn wait(self) -> Result<(), DiscordError> {
        let result = self.task.await;
        self.announcer.abort();
        result??;
        Ok(())
    }
}

/// Connects to Discord, registers the commands once READY, and serves interactions in the
/// background.
pub async fn start(settings: DiscordSettings, data: Data) -> Result<RunningBot, DiscordError> {
    let http = http_client(&settings)?;
    let guild = settings.guild_id.map(GuildId::new);
    let options = poise::FrameworkOptions {
        commands: commands::all(),
        on_error: |e| Box::pin(error::on_error(e)),
        event_handler: |framework, event| {
            Box::pin(components::on_event(
                framework.serenity_context,
                event,
                framework.user_data,
            ))
        },
        ..Default::default()
    };
    let announcer_data = data.clone();
    let framework = poise::Framework::builder()
        .options(options)
        .setup(move |ctx, _ready, framework| {
            Box::pin(async move {
                let commands = &framework.options().commands;
                match guild {
                    Some(guild) => poise::builtins::register_in_guild(ctx, commands, guild).await?,
                    None => poise::builtins::register_globally(ctx, commands).await?,
                }
                tracing::info!(count = commands.len(), ?guild, "slash commands registered");
                Ok(data)
            })
        })
        .build();
    let mut client = ClientBuilder::new_with_http(http, GatewayIntents::GUILDS)
        .framework(framework)
        .await?;
    let shard_manager = Arc::clone(&client.shard_manager);
    // Subscribed before the gateway connects, so no event of the service is missed.
    let announcer = tokio::spawn(announcer::run(Arc::clone(&client.http), announcer_data));
    let task = tokio::spawn(async move { client.start().await });
    Ok(RunningBot {
        shard_manager,
        task,
        announcer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_origin_accepts_discord_and_local_fakes() {
        assert_eq!(
            api_origin("https://discord.com/api").unwrap(),
            "https://discord.com"
        );
        assert_eq!(
            api_origin("https://discord.com/api/v10/").unwrap(),
            "https://discord.com"
        );
        assert_eq!(
            api_origin("http://127.0.0.1:4000/api").unwrap(),
            "http://127.0.0.1:4000"
        );
        assert_eq!(
            api_origin("http://127.0.0.1:4000").unwrap(),
            "http://127.0.0.1:4000"
        );
    }

    #[test]
    fn api_origin_refuses_what_is_not_an_http_origin() {
        for bad in [
            "",
            "discord.com/api",
            "ftp://x/api",
            "http://",
            "http://host/prefix/api",
        ] {
            assert!(
                matches!(api_origin(bad), Err(DiscordError::BadApiBase(_))),
                "{bad:?} was accepted"
            );
        }
    }

    #[test]
    fn an_empty_token_is_refused_before_connecting() {
        let settings = DiscordSettings {
            token: "  ".into(),
            api_base: "https://discord.com/api".into(),
            guild_id: None,
        };
        assert!(matches!(
            http_client(&settings),
            Err(DiscordError::MissingToken)
        ));
    }
}
