//! Gateway events about servers, channels and threads, acted on when they arrive rather than
//! at the next post Discord refuses:
//!
//! - **GUILD_DELETE** without `unavailable`: the bot was removed from the server (kicked, or
//!   the server deleted). Its games are paused, their players told (`service/src/discord/
//!   server_lifecycle.rs`). With `unavailable: true` it is an outage of Discord's: nothing
//!   changes (the server comes back with a GUILD_CREATE).
//! - **GUILD_CREATE**: the bot is in the server; if it had been removed within the grace period
//!   (`discord.removed_server_grace_days`), the games resume in their channels.
//! - **CHANNEL_DELETE**: the channel's games (and those of its game threads) leave Discord at
//!   once, as for a post refused there with Unknown Channel; their players are told by DM.
//! - **THREAD_DELETE**, and **THREAD_UPDATE** to archived *and* locked: the thread's game goes
//!   back to its channel at once. A locked thread is the moderators' decision to close it;
//!   the bot does not reopen what moderators locked, so it treats it as a thread it may no
//!   longer post in (an archived thread that is not locked reopens by itself at the next
//!   post, and keeps its game).

use serenity::all::{ChannelId, FullEvent, GuildChannel, Http, UnavailableGuild, UserId};

use super::delivery::RestGate;
use super::posts::{Post, discord_time, discord_user, seat_label, seat_of};
use super::{BotError, Data};
use crate::logging::ErrorChain;
use crate::service::{Event, EventPayload, GameOffDiscord, GameResumed, GameView, ResumedWhere};

/// Acts on the events above; other events pass by. Failures are logged: a gateway event has
/// nobody to answer.
pub async fn on_event(http: &Http, event: &FullEvent, data: &Data) {
    let outcome = match event {
        FullEvent::GuildDelete { incomplete, .. } => removed(data, incomplete).await,
        FullEvent::GuildCreate { guild, .. } => back(data, guild.id.get()).await,
        FullEvent::ChannelDelete { channel, .. } => channel_deleted(http, data, channel.id).await,
        FullEvent::ThreadDelete { thread, .. } => thread_closed(data, thread.id, "deleted").await,
        FullEvent::ThreadUpdate { new, .. } if locked_shut(new) => {
            thread_closed(data, new.id, "archived and locked").await
        }
        _ => Ok(()),
    };
    if let Err(e) = outcome {
        tracing::warn!(event = ?event.snake_case_name(), error = %ErrorChain(&e), "a server, channel or thread event could not be acted on");
    }
}

async fn removed(data: &Data, guild: &UnavailableGuild) -> Result<(), BotError> {
    if guild.unavailable {
        tracing::info!(
            guild = guild.id.get(),
            "a Discord server is unavailable (an outage): its games go on"
        );
        return Ok(());
    }
    data.service
        .discord()
        .bot_removed_from_server(guild.id.get(), data.removed_server_grace())
        .await?;
    Ok(())
}

async fn back(data: &Data, guild: u64) -> Result<(), BotError> {
    data.service.discord().bot_back_in_server(guild).await?;
    Ok(())
}

async fn channel_deleted(http: &Http, data: &Data, channel: ChannelId) -> Result<(), BotError> {
    let off = data
        .service
        .discord()
        .channel_deleted(channel.get())
        .await?;
    if !off.is_empty() {
        tracing::info!(
            channel = channel.get(),
            games = off.len(),
            "a channel was deleted: its games go on over HTTP"
        );
    }
    for game in &off {
        tell_game_left_discord(http, data.rest_gate(), game).await;
    }
    Ok(())
}

async fn thread_closed(data: &Data, thread: ChannelId, how: &str) -> Result<(), BotError> {
    let moved = data
        .service
        .discord()
        .game_thread_gone(thread.get())
        .await?;
    if moved > 0 {
        tracing::info!(
            thread = thread.get(),
            games = moved,
            "a game thread was {how}: its games go back to its channel"
        );
    }
    Ok(())
}

/// Whether a thread update leaves it archived and locked (see the module's doc).
fn locked_shut(thread: &GuildChannel) -> bool {
    thread
        .thread_metadata
        .is_some_and(|meta| meta.archived && meta.locked)
}

/// Tells a game's players by direct message that its channel is gone and where it goes on.
pub async fn tell_game_left_discord(http: &Http, gate: &RestGate, game: &GameOffDiscord) {
    for user in &game.discord_users {
        let post = Post::text(
            format!(
                "The Discord channel of game #{} is gone, so its moves are no longer posted \
                 there. The game goes on: play it over the HTTP API (`/token` gives you a \
                 token), or bring it into another channel with `/follow game:{}`.",
                game.game_id, game.game_id
            ),
            Vec::new(),
        );
        if let Err(e) = direct_message(http, gate, UserId::new(*user), &post).await {
            tracing::warn!(game = %game.game_id, user, "cannot tell a player by DM that the game left Discord: {e}");
        }
    }
}

/// Sends `post` to `user`'s direct messages.
pub async fn direct_message(
    http: &Http,
    gate: &RestGate,
    user: UserId,
    post: &Post,
) -> Result<(), BotError> {
    let channel = gate.run(user.create_dm_channel(http)).await?;
    gate.run(channel.id.send_message(http, post.message()))
        .await?;
    Ok(())
}

/// The direct message of an event about a game's venue (paused, resumed off Discord), sent to
/// each of its players whatever their `/notify` choice; `None` for other events.
pub fn venue_message(view: &GameView, event: &Event) -> Option<Post> {
    let game = view.id;
    let text = match &event.payload {
        EventPayload::GamePaused(paused) => format!(
            "The bot was removed from the Discord server where game #{game} is played, so the \
             game is paused: its clocks stand still and no move can be made. If the bot is \
             added back to the server before {}, the game goes on in its channel where it \
             stopped; after that it goes on over the HTTP API (`/token` gives you a token) or \
             in a channel of another server with `/follow game:{game}`.",
            discord_time(paused.resumes_by)
        ),
        EventPayload::GameResumed(GameResumed {
            place: ResumedWhere::OffDiscord,
            ..
        }) => format!(
            "Game #{game} goes on over HTTP: the bot was not added back to its Discord server in \
             time, so that server's data is deleted. Its clocks run again from where they \
             stopped.{} Play it over the HTTP API (`/token` gives you a token), or bring it into \
             a channel of another server with `/follow game:{game}`.",
            deadline(view)
        ),
        _ => return None,
    };
    // A direct message notifies by itself: it pings nobody.
    Some(Post::text(text, Vec::new()))
}

/// The post in a game's channel once the bot is back in its server.
pub fn back_in_channel(view: &GameView) -> Post {
    let game = view.id;
    let Some(side) = view.side_to_move else {
        return Post::text(
            format!("The bot is back: game #{game} is shown here again."),
            Vec::new(),
        );
    };
    let seat = seat_of(view, side);
    Post::text(
        format!(
            "The bot is back: game #{game} goes on here. Its clocks run again from where they \
             stopped; {} to move ({side}).{}",
            seat_label(seat),
            deadline(view)
        ),
        discord_user(seat).into_iter().collect(),
    )
}

fn deadline(view: &GameView) -> String {
    view.deadline_at
        .map(|d| format!(" Deadline {}.", discord_time(d)))
        .unwrap_or_default()
}
