//! `/follow`: bring a game started elsewhere (over the HTTP API) into this channel.

use crate::answers::command::send;
use crate::domain::GameId;
use crate::posts;
use crate::threads;
use crate::{BotError, Context, mentions, places, server};

/// Post one of your games here from now on (e.g. one started over the HTTP API)
#[poise::command(slash_command, guild_only)]
pub async fn follow(
    ctx: Context<'_>,
    #[description = "The game's number"] game: i64,
) -> Result<(), BotError> {
    let data = ctx.data();
    server::check_may_post_game_here(&ctx)?;
    let settings = server::settings(&ctx).await?;
    server::check_game_channel(&ctx, settings.as_ref())?;
    let me = data.player_of(ctx.author()).await?;
    let view = data
        .service
        .discord()
        .follow_game(me, GameId(game), places::here(ctx.channel_id()))
        .await?;
    let thread =
        threads::open_game_thread(ctx.http(), data, &view, server::start_place(&ctx)).await;
    let reply = match thread {
        Some(thread) => {
            // The board first, in the game's new thread, pinging whoever is to move; then the
            // line here that links to it.
            let post = posts::board_post(data, &view).await;
            data.rest_gate()
                .run(thread.send_message(ctx.http(), post.message()))
                .await?;
            poise::CreateReply::default()
                .content(threads::link_line(data, &view, thread))
                .allowed_mentions(mentions::nobody())
        }
        None => posts::board_post(data, &view).await.reply(),
    };
    send(&ctx, reply).await?;
    Ok(())
}
