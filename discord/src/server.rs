//! The Discord server (guild) a command is used in, as the interaction describes it: the
//! member's permissions and roles, the bot's permissions in the channel, and the server's
//! settings.

use serenity::all::{ChannelId, ChannelType, Permissions};

use super::post_permissions::{self, PlaceKind};
use super::{BotError, Context};
use crate::service::{ServerMember, ServerSettings};

/// The interaction behind a slash command (poise also knows prefix commands, which this bot
/// does not register).
fn interaction<'a>(ctx: &'a Context<'_>) -> Option<&'a serenity::all::CommandInteraction> {
    match ctx {
        poise::Context::Application(app) => Some(app.interaction),
        poise::Context::Prefix(_) => None,
    }
}

/// The member using the command, as Discord described them (`member.permissions`, `roles`);
/// `None` outside a server.
pub async fn member(ctx: &Context<'_>) -> Result<Option<ServerMember>, BotError> {
    let Some(guild) = ctx.guild_id() else {
        return Ok(None);
    };
    let Some(member) = interaction(ctx).and_then(|i| i.member.as_deref()) else {
        return Ok(None);
    };
    let player = ctx.data().player_of(ctx.author()).await?;
    Ok(Some(ServerMember {
        guild_id: guild.get(),
        player,
        manages_server: member
            .permissions
            .is_some_and(|p| p.contains(Permissions::MANAGE_GUILD)),
        roles: member.roles.iter().map(|r| r.get()).collect(),
    }))
}

/// The bot's permissions in this channel (`app_permissions`).
pub fn bot_permissions(ctx: &Context<'_>) -> Option<Permissions> {
    interaction(ctx).and_then(|i| i.app_permissions)
}

/// The channel this thread hangs off, when the command is used in a thread.
pub fn parent_channel(ctx: &Context<'_>) -> Option<ChannelId> {
    interaction(ctx)
        .and_then(|i| i.channel.as_ref())
        .and_then(|c| c.parent_id)
}

/// Where a game started by this command starts.
pub fn start_place(ctx: &Context<'_>) -> super::threads::StartPlace {
    super::threads::StartPlace {
        channel: ctx.channel_id(),
        guild: ctx.guild_id(),
        parent: parent_channel(ctx),
        bot_permissions: bot_permissions(ctx),
    }
}

/// This server's settings; `None` outside a server.
pub async fn settings(ctx: &Context<'_>) -> Result<Option<ServerSettings>, BotError> {
    match ctx.guild_id() {
        Some(guild) => Ok(Some(
            ctx.data()
                .service
                .discord()
                .server_settings(guild.get())
                .await?,
        )),
        None => Ok(None),
    }
}

/// Refuses to start a game in this channel when the server allows games elsewhere only.
pub fn check_game_channel(
    ctx: &Context<'_>,
    settings: Option<&ServerSettings>,
) -> Result<(), BotError> {
    if let Some(settings) = settings {
        settings.check_game_channel(
            ctx.channel_id().get(),
            parent_channel(ctx).map(ChannelId::get),
        )?;
    }
    Ok(())
}

/// Whether this command is used in a thread or in a channel.
fn place_kind(ctx: &Context<'_>) -> PlaceKind {
    let thread = interaction(ctx)
        .and_then(|i| i.channel.as_ref())
        .is_some_and(|c| {
            matches!(
                c.kind,
                ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::NewsThread
            )
        });
    if thread {
        PlaceKind::Thread
    } else {
        PlaceKind::Channel
    }
}

/// Refuses to start or bring a game here unless both the member and the bot may post here
/// (`/challenge`, `/play`, `/follow`): the member's and the bot's permissions in this channel,
/// as the interaction gives them, with the thread bit inside a thread. Outside a server there
/// is nothing to check.
pub fn check_may_post_game_here(ctx: &Context<'_>) -> Result<(), BotError> {
    let Some(interaction) = interaction(ctx).filter(|i| i.guild_id.is_some()) else {
        return Ok(());
    };
    let place = place_kind(ctx);
    if let Some(held) = interaction.member.as_ref().and_then(|m| m.permissions) {
        let lacking = post_permissions::missing(held, post_permissions::member_needs(place));
        if !lacking.is_empty() {
            return Err(BotError::MemberMayNotPost(post_permissions::names(lacking)));
        }
    }
    if let Some(held) = interaction.app_permissions {
        let lacking = post_permissions::missing(held, post_permissions::bot_needs(place));
        if !lacking.is_empty() {
            return Err(BotError::BotMayNotPost(post_permissions::names(lacking)));
        }
    }
    Ok(())
}
