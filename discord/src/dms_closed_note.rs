//! The note a player is owed once Discord refused a direct message to them because their DMs
//! are closed to the bot (403 50007): the outbox turned their turn DMs (`/notify dm`) off, so
//! no further turn costs a refused request. They are told once, privately, under the answer to
//! their next command: where they are looking, pinging nobody, and without telling the channel
//! about their privacy settings.

use poise::CreateReply;

use super::{Context, mentions};
use crate::logging::ErrorChain;

/// What the player reads.
pub const NOTE: &str = "I could not send you a direct message: Discord says your direct \
    messages are closed to me, so I turned your turn messages off (you are still pinged in your \
    games' threads and channels). To get them again, allow direct messages from this server's \
    members (the server's *Privacy Settings*) and use `/notify dm:on`.";

/// After a command that went well: the note, if the author is owed it. `/notify` itself takes
/// it silently: whoever sets their DMs has it in hand.
pub async fn after_command(ctx: Context<'_>) {
    let user = ctx.author().id.get();
    let owed = match ctx
        .data()
        .service
        .discord()
        .take_dms_closed_note(user)
        .await
    {
        Ok(owed) => owed,
        Err(e) => {
            tracing::warn!(user, error = %ErrorChain(&e), "cannot read whether a player is owed the closed-DMs note");
            return;
        }
    };
    if !owed || ctx.command().qualified_name == "notify" {
        return;
    }
    let note = CreateReply::default()
        .content(NOTE)
        .allowed_mentions(mentions::nobody())
        .ephemeral(true);
    if let Err(e) = super::answers::command::send_private(&ctx, note).await {
        tracing::info!(user, "cannot give the closed-DMs note: {e}");
    }
}
