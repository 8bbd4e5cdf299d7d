//! `/notify`: how a player hears that it is their turn, beyond the ping in the game's thread.

use crate::answers::command::send;
use crate::{BotError, Context};

/// On or off.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum OnOff {
    #[name = "on"]
    On,
    #[name = "off"]
    Off,
}

/// Direct messages on your turn and before your deadline
#[poise::command(slash_command, ephemeral)]
pub async fn notify(
    ctx: Context<'_>,
    #[description = "A direct message when it is your move, and reminders (default: off)"]
    dm: OnOff,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let on = matches!(dm, OnOff::On);
    data.service.accounts().set_turn_dms(me, on).await?;
    let text = if on {
        "From now on I send you a direct message when it is your move and before your \
         deadlines. (If your direct messages are closed to server members, I cannot.) \
         `/notify dm:off` stops them."
    } else {
        "No more direct messages: you are still pinged in your games' threads and channels."
    };
    let reply = poise::CreateReply::default()
        .content(text)
        .allowed_mentions(crate::mentions::nobody())
        .ephemeral(true);
    send(&ctx, reply).await?;
    Ok(())
}
