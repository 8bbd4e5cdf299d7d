//! What the bot posts in a game's channel for an event the service announced there: moves made
//! over HTTP or by the AI, games ended by time or from elsewhere, draw offers, deadline
//! reminders, expired challenges. Each post pings only the player it concerns.

use super::posts::{self, MoveFacts, Post, discord_time, discord_user, seat_label, seat_of};
use super::{BotError, Data, game_buttons};
use crate::service::{Event, EventPayload};

/// The post announcing `event`, or `None` when there is nothing to say.
pub async fn compose(data: &Data, event: &Event) -> Result<Option<Post>, BotError> {
    if let EventPayload::ChallengeExpired {} = event.payload {
        return expiry(data, event).await;
    }
    let Some(game) = event.game_id else {
        return Ok(None);
    };
    let view = data.service.game(None, game).await?;
    let post = match &event.payload {
        EventPayload::MovePlayed(played) => {
            posts::move_post(data, &view, &MoveFacts::from(played)).await
        }
        EventPayload::GameEnded(_) => posts::end_post(data, &view, None).await,
        EventPayload::GameStarted(_) => posts::start_post(data, &view).await,
        EventPayload::DrawOffered(offer) => {
            let to = seat_of(&view, offer.by.opponent());
            Post::text(
                format!(
                    "The {} offer a draw in game #{game}. {}: accept or decline with the buttons (or `/draw accept`, `/draw decline`).",
                    offer.by,
                    seat_label(to)
                ),
                discord_user(to).into_iter().collect(),
            )
            .with_components(if view.status.is_active() {
                game_buttons::draw_answer_rows(game)
            } else {
                Vec::new()
            })
        }
        EventPayload::DrawDeclined(answer) => {
            let offerer = seat_of(&view, answer.by.opponent());
            Post::text(
                format!(
                    "The {} declined the draw in game #{game}, {}: play on.",
                    answer.by,
                    seat_label(offerer)
                ),
                discord_user(offerer).into_iter().collect(),
            )
        }
        EventPayload::DeadlineReminder(reminder) => {
            let seat = seat_of(&view, reminder.side);
            let deadline = reminder.deadline_at.map(discord_time).unwrap_or_default();
            Post::text(
                format!(
                    "{}, it is your move in game #{game} ({}); deadline {deadline}.",
                    seat_label(seat),
                    reminder.side
                ),
                discord_user(seat).into_iter().collect(),
            )
        }
        EventPayload::ChallengeCreated(_)
        | EventPayload::ChallengeAccepted(_)
        | EventPayload::ChallengeDeclined(_)
        | EventPayload::ChallengeCancelled(_)
        | EventPayload::ChallengeExpired {}
        | EventPayload::AnalysisDone(_) => return Ok(None),
    };
    Ok(Some(post))
}
async fn expiry(data: &Data, event: &Event) -> Result<Option<Post>, BotError> {
    let Some(id) = event.challenge_id else {
        return Ok(None);
    };
    let challenge = data.service.challenge(id).await?;
    let to = challenge
        .opponent
        .as_ref()
        .map(seat_label)
        .unwrap_or_else(|| "anyone".to_owned());
    Ok(Some(Post::text(
        format!(
            "Challenge #{id} from {} to {to} expired.",
            seat_label(&challenge.challenger)
        ),
        Vec::new(),
    )))
}
