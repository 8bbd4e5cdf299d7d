//! `/abort`: a server's moderators end a game here, without a result.

use crate::answers::command::send;
use crate::domain::GameId;
use crate::posts;
use crate::{BotError, Context, places, server};

/// End a game here without a result (moderators, or its players before both moved)
#[poise::command(slash_command, guild_only)]
pub async fn abort(
    ctx: Context<'_>,
    #[description = "The game's number"] game: i64,
) -> Result<(), BotError> {
    let data = ctx.data();
    let id = GameId(game);
    let me = data.player_of(ctx.author()).await?;
    let view = data.service.games().game(Some(me), id).await?;
    let plays = view.your_side.is_some();
    let ended = if plays {
        data.service.games().abort(me, id).await?
    } else {
        let member = server::member(&ctx)
            .await?
            .ok_or_else(|| BotError::BadOption("/abort works in a server.".into()))?;
        let settings = data
            .service
            .discord()
            .server_settings(member.guild_id)
            .await?;
        data.service
            .discord()
            .abort_as_moderator(&member, &settings, places::here(ctx.channel_id()), id)
            .await?
    };
    // The outbox posts the ending in the game's place; this answers the moderator.
    let reply = poise::CreateReply::default()
        .content(format!(
            "Game #{id} aborted by <@{}>: {}",
            ctx.author().id.get(),
            posts::ending_line(&ended)
        ))
        .allowed_mentions(crate::mentions::nobody());
    send(&ctx, reply).await?;
    Ok(())
}
