//! `/handle`: see or change your handle, the name people challenge and find you by over HTTP
//! and on the web.

use crate::answers::command::send;
use crate::{BotError, Context};

/// See or change your handle (how others find and challenge you)
#[poise::command(slash_command, ephemeral)]
pub async fn handle(
    ctx: Context<'_>,
    #[description = "Your new handle: 2-24 letters, digits, _ or -, starting with a letter"]
    #[max_length = 25]
    new: Option<String>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let text = match new {
        None => {
            let player = data.service.accounts().player(me).await?;
            format!(
                "Your handle is `{}`. Change it with `/handle new:<handle>`.",
                player.handle
            )
        }
        Some(new) => {
            let player = data.service.accounts().change_handle(me, &new).await?;
            format!("Your handle is now `{}`.", player.handle)
        }
    };
    send(
        &ctx,
        poise::CreateReply::default().content(text).ephemeral(true),
    )
    .await?;
    Ok(())
}
