//! The message that shows a challenge with its buttons: remembered through the service when it
//! is sent, and edited once the challenge is over (expired, or answered from `/challenges`), so
//! its buttons do not stay pressable. A press on an old button is still refused by the service.

use serenity::all::{ChannelId, EditMessage, Http, Message, MessageId};

use super::commands::challenge::challenge_text;
use super::{BotError, Data, mentions};
use crate::domain::ChallengeId;
use crate::logging::ErrorChain;
use crate::service::{ChallengePost, Place};

/// Remembers that `message` shows `challenge` (logged, never fatal: the buttons still work).
pub async fn note(data: &Data, challenge: ChallengeId, message: &Message) {
    let post = ChallengePost {
        channel_id: message.channel_id.get(),
        message_id: message.id.get(),
    };
    if let Err(e) = data
        .service
        .discord()
        .note_challenge_post(challenge, post)
        .await
    {
        tracing::warn!(%challenge, error = %ErrorChain(&e), "challenge message not remembered");
    }
}

/// Takes the buttons off the message of `challenge`, its text followed by `footer`; `Ok` also
/// when no message was remembered. (The bot cannot read the old text back: it has no Read
/// Message History, so the text is written anew from the challenge.)
pub async fn edit_ended(
    http: &Http,
    data: &Data,
    challenge: ChallengeId,
    footer: &str,
) -> Result<(), BotError> {
    let Some(post) = data.service.discord().challenge_post(challenge).await? else {
        return Ok(());
    };
    let channel = ChannelId::new(post.channel_id);
    let message = MessageId::new(post.message_id);
    let view = data.service.challenges().get(challenge).await?;
    let edit = EditMessage::new()
        .content(format!("{}\n{footer}", challenge_text(&view)))
        .components(Vec::new())
        .allowed_mentions(mentions::nobody());
    data.rest_gate()
        .run(channel.edit_message(http, message, edit))
        .await?;
    Ok(())
}

/// Takes the buttons off the message of a challenge that was just answered; a failure is
/// only logged (the service refuses any later press anyway).
pub async fn take_buttons_off(http: &Http, data: &Data, challenge: ChallengeId) {
    if let Err(e) = edit_ended(http, data, challenge, "*(answered)*").await {
        tracing::info!(%challenge, "challenge buttons left on: {e}");
    }
}

/// " in <#channel>" for a game shown in a Discord channel, else nothing.
pub fn where_shown(context: Option<&str>) -> String {
    context
        .and_then(|c| Place::from_context(c).discord_channel())
        .map(|channel| format!(" in <#{channel}>"))
        .unwrap_or_default()
}
