//! `/web`: a private sign-in link to the web client, for the player of this Discord account.

use crate::answers::command::send;
use poise::CreateReply;

use crate::posts::discord_time;
use crate::{BotError, Context, mentions};

/// A private link that signs you in to the web client (works once, for a short time)
#[poise::command(slash_command, ephemeral)]
pub async fn web(ctx: Context<'_>) -> Result<(), BotError> {
    let data = ctx.data();
    let Some(base) = data.web_base.as_deref() else {
        return Err(BotError::BadOption(
            "The web client is not served by this bot (its HTTP server is off).".into(),
        ));
    };
    let me = data.player_of(ctx.author()).await?;
    let link = data
        .service
        .credentials()
        .create_login_link(me, base)
        .await?;
    let reply = CreateReply::default()
        .content(format!(
            "Your sign-in link to the web client (only you see it; it works once, until {}):\n{}",
            discord_time(link.expires_at),
            link.url
        ))
        .ephemeral(true)
        .allowed_mentions(mentions::nobody());
    send(&ctx, reply).await?;
    Ok(())
}
