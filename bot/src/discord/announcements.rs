//! What the bot posts in a game's channel for an event the service announced there: moves made
//! over HTTP or by the AI, games ended by time or from elsewhere, draw offers, deadline
//! reminders, expired challenges. Each post pings only the player it concerns.

use super::posts::{self, MoveFacts, Post, discord_time, discord_user, seat_label, seat_of};
use super::{BotError, Data};
use crate::service::{Event, event_kind};

/// The post announcing `event`, or `None` when there is nothing to say.
pub async fn compose(data: &Data, event: &Event) -> Result<Option<Post>, BotError> {
    if event.kind == event_kind::CHALLENGE_EXPIRED {
        return expiry(data, event).await;
    }
    let Some(game) = event.game_id else {
        return Ok(None);
    };
    let view = data.service.game(None, game).await?;
    let text = |key: &str| {
        event
            .data
            .get(key)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_owned()
    };
    let post = match event.kind.as_str() {
        event_kind::MOVE_PLAYED => match MoveFacts::from_event(&event.data) {
            Some(facts) => posts::move_post(data, &view, &facts).await,
            None => return Ok(None),
        },
        event_kind::GAME_ENDED => posts::end_post(data, &view, None).await,
        event_kind::GAME_STARTED => posts::start_post(data, &view).await,
        event_kind::DRAW_OFFERED => {
            let by = text("by");
            let to = seat_of(&view, posts::opponent_side(&by));
            Post::text(
                format!(
                    "The {by} offer a draw in game #{game}. {}: `/draw accept` or `/draw decline`.",
                    seat_label(to)
                ),
                discord_user(to).into_iter().collect(),
            )
        }
        event_kind::DRAW_DECLINED => {
            let by = text("by");
            let offerer = seat_of(&view, posts::opponent_side(&by));
            Post::text(
                format!(
                    "The {by} declined the draw in game #{game}, {}: play on.",
                    seat_label(offerer)
                ),
                discord_user(offerer).into_iter().collect(),
            )
        }
        event_kind::DEADLINE_REMINDER => {
            let side = text("side");
            let seat = seat_of(&view, &side);
            let deadline = event
                .data
                .get("deadline_at")
                .and_then(|d| d.as_i64())
                .map(discord_time)
                .unwrap_or_default();
            Post::text(
                format!(
                    "{}, it is your move in game #{game} ({side}); deadline {deadline}.",
                    seat_label(seat)
                ),
                discord_user(seat).into_iter().collect(),
            )
        }
        _ => return Ok(None),
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
