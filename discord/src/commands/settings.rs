//! `/settings`: a server's own defaults and rules, for members who may manage the server.

use crate::answers::command::send;
use serenity::all::{ChannelId, RoleId};

use super::common::{autocomplete_variant, parse_clock};
use crate::server;
use crate::service::{ServerSettings, SettingsChange};
use crate::{BotError, Context};

/// Show or change this server's game settings (Manage Server)
#[poise::command(
    slash_command,
    ephemeral,
    guild_only,
    default_member_permissions = "MANAGE_GUILD"
)]
#[allow(
    clippy::too_many_arguments,
    reason = "one option each, as Discord shows them"
)]
pub async fn settings(
    ctx: Context<'_>,
    #[description = "Default variant of new games here"]
    #[autocomplete = "autocomplete_variant"]
    variant: Option<String>,
    #[description = "Default clock of challenges: unlimited, 3d, 12h, 7d+1d"] clock: Option<String>,
    #[description = "Default AI level of /play"]
    #[min = 1]
    ai_level: Option<u8>,
    #[description = "A thread per game (where I may create threads)"] threads: Option<bool>,
    #[description = "Allow games in this channel (once any is listed, only listed ones)"]
    allow_channel: Option<ChannelId>,
    #[description = "Stop allowing games in this channel"] disallow_channel: Option<ChannelId>,
    #[description = "Allow games in every channel again"] any_channel: Option<bool>,
    #[description = "Role whose members may /abort any game"] moderator_role: Option<RoleId>,
    #[description = "Remove the moderator role"] no_moderator_role: Option<bool>,
    #[description = "Post a puzzle every day in this channel"] daily_puzzle: Option<ChannelId>,
    #[description = "Stop the daily puzzle"] no_daily_puzzle: Option<bool>,
) -> Result<(), BotError> {
    let change = SettingsChange {
        default_variant: variant,
        default_clock: clock.as_deref().map(parse_clock).transpose()?,
        ai_level,
        threads,
        allow_channel: allow_channel.map(ChannelId::get),
        disallow_channel: disallow_channel.map(ChannelId::get),
        any_channel: any_channel.unwrap_or(false),
        moderator_role: moderator_role.map(RoleId::get),
        no_moderator_role: no_moderator_role.unwrap_or(false),
    };
    let member = server::member(&ctx).await?.ok_or_else(|| {
        BotError::BadOption("Settings belong to a server: use /settings in one.".into())
    })?;
    // Discord hides the command from members without Manage Server, but a stale command list
    // or a changed role can still let one through: the service checks again.
    let service = &ctx.data().service;
    let daily = match (daily_puzzle, no_daily_puzzle) {
        (Some(channel), _) => Some(Some(channel.get())),
        (None, Some(true)) => Some(None),
        _ => None,
    };
    let (title, settings) = if change.is_empty() && daily.is_none() {
        (
            "Settings of this server",
            service
                .discord()
                .server_settings_for_manager(&member)
                .await?,
        )
    } else {
        if let Some(channel) = daily {
            service
                .puzzles()
                .set_daily_channel(&member, channel)
                .await?;
        }
        let settings = if change.is_empty() {
            service
                .discord()
                .server_settings_for_manager(&member)
                .await?
        } else {
            service
                .discord()
                .change_server_settings(&member, change)
                .await?
        };
        ("Settings saved", settings)
    };
    let daily = service.puzzles().daily_channel(member.guild_id).await?;
    let reply = poise::CreateReply::default()
        .content(describe(title, &settings, daily))
        .allowed_mentions(crate::mentions::nobody())
        .ephemeral(true);
    send(&ctx, reply).await?;
    Ok(())
}

/// The settings as the server's managers read them.
fn describe(title: &str, settings: &ServerSettings, daily_puzzle: Option<u64>) -> String {
    let clock = settings.default_clock.map_or_else(
        || format!("{} (default)", super::challenge::DEFAULT_CLOCK),
        |c| c.to_string(),
    );
    let channels = if settings.game_channels.is_empty() {
        "any channel".to_owned()
    } else {
        settings
            .game_channels
            .iter()
            .map(|c| format!("<#{c}>"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let moderators = settings
        .moderator_role
        .map(|r| format!("<@&{r}>"))
        .unwrap_or_else(|| "none".to_owned());
    let variant = |chosen: &Option<String>, fallback: String| {
        chosen
            .clone()
            .unwrap_or_else(|| format!("{fallback} (default)"))
    };
    [
        format!("**{title}**"),
        format!(
            "Variant: /play {}, /challenge {}",
            variant(&settings.default_variant, settings.play_variant()),
            variant(&settings.default_variant, settings.challenge_variant())
        ),
        format!("Clock of challenges: {clock}"),
        format!("AI level of /play: {}", settings.play_level()),
        format!(
            "A thread per game: {}",
            if settings.threads { "on" } else { "off" }
        ),
        format!("Games may start in: {channels}"),
        format!("Moderator role (may /abort games): {moderators}"),
        format!(
            "Daily puzzle: {}",
            daily_puzzle.map_or_else(|| "off".to_owned(), |c| format!("<#{c}>"))
        ),
    ]
    .join("\n")
}
