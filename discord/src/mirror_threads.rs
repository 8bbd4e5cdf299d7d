//! A thread for each copy of a game shown in several servers (a tournament game between
//! players of two servers): when the game's start is delivered to a copy's channel, a thread
//! is opened there (where the server wants threads and Discord allows one) and the copy is
//! played in it; refused, the copy stays in the channel.

use serenity::all::{ChannelId, CreateMessage, Http};

use super::{Data, mentions, threads};
use crate::domain::OutboxId;
use crate::logging::ErrorChain;
use crate::service::{Event, EventPayload};

/// Where `event`'s post `post` (being delivered) due in `channel` goes: a new thread of the
/// channel for the start of a game's copy that has none yet, else `channel`.
pub async fn place_of_post(
    http: &Http,
    data: &Data,
    event: &Event,
    post: OutboxId,
    channel: ChannelId,
) -> ChannelId {
    let (EventPayload::GameStarted(_), Some(game)) = (&event.payload, event.game_id) else {
        return channel;
    };
    let discord = data.service.discord();
    let mirror = match discord.mirror_without_thread(game, channel.get()).await {
        Ok(Some(mirror)) => mirror,
        Ok(None) => return channel,
        Err(e) => {
            tracing::warn!(%game, error = %ErrorChain(&e), "cannot read the game's copy; posting in the channel");
            return channel;
        }
    };
    let wanted = match mirror.guild {
        Some(guild) => discord
            .server_settings(guild)
            .await
            .is_ok_and(|settings| settings.threads),
        None => false,
    };
    if !wanted {
        return channel;
    }
    let view = match data.service.games().game(None, game).await {
        Ok(view) => view,
        Err(e) => {
            tracing::warn!(%game, error = %ErrorChain(&e), "cannot read the game; posting in the channel");
            return channel;
        }
    };
    let Some(thread) = threads::create_thread(http, data, &view, channel).await else {
        return channel;
    };
    if let Err(e) = discord
        .move_mirror_to_thread(game, channel.get(), thread.get(), post)
        .await
    {
        tracing::warn!(%game, %thread, error = %ErrorChain(&e), "cannot move the game's copy into its thread");
        return channel;
    }
    let link = CreateMessage::new()
        .content(threads::link_line(data, &view, thread))
        .allowed_mentions(mentions::nobody());
    if let Err(e) = data.rest_gate().run(channel.send_message(http, link)).await {
        tracing::info!(%game, %channel, error = %ErrorChain(&e), "the line linking to the game's thread was not posted");
    }
    thread
}
