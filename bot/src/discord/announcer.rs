//! Posts in a game's channel what no command there has shown: moves made over HTTP, the AI's
//! moves, games ended by time or from elsewhere, draw offers, deadline reminders, expired
//! challenges. Fed by the games service's events.

use std::sync::Arc;

use serenity::all::{ChannelId, CreateMessage, Http};
use serenity::builder::Builder;
use tokio::sync::broadcast::error::RecvError;

use super::data::Claim;
use super::places::channel_of;
use super::posts::{self, MoveFacts, discord_time, seat_label};
use super::{BotError, Data};
use crate::service::{Event, event_kind};

/// Events read at once when catching up after falling behind.
const CATCH_UP_BATCH: u32 = 500;

/// Game endings that come without a move (a move's post announces its own ending).
const ENDINGS_WITHOUT_A_MOVE: &[&str] = &["resignation", "timeout", "draw_agreed", "aborted"];

/// Runs until the service's event bus closes.
pub async fn run(http: Arc<Http>, data: Data) {
    let mut events = data.service.subscribe();
    let mut last_seen = 0;
    loop {
        match events.recv().await {
            Ok(event) => {
                last_seen = event.id;
                announce_logged(&http, &data, &event).await;
            }
            Err(RecvError::Lagged(missed)) => {
                tracing::warn!(missed, "announcer fell behind; catching up from the store");
                match data.service.events_after(last_seen, CATCH_UP_BATCH).await {
                    Ok(stored) => {
                        for event in stored {
                            last_seen = event.id;
                            announce_logged(&http, &data, &event).await;
                        }
                    }
                    Err(e) => tracing::warn!("announcer could not catch up: {e}"),
                }
            }
            Err(RecvError::Closed) => break,
        }
    }
}

async fn announce_logged(http: &Http, data: &Data, event: &Event) {
    if let Err(e) = announce(http, data, event).await {
        tracing::warn!(event = event.id, kind = %event.kind, "could not announce: {e}");
    }
}

fn context_channel(event: &Event) -> Option<ChannelId> {
    event
        .data
        .get("context")
        .and_then(|c| c.as_str())
        .and_then(channel_of)
}

async fn say(http: &Http, channel: ChannelId, text: String) -> Result<(), BotError> {
    channel
        .send_message(http, CreateMessage::new().content(text))
        .await?;
    Ok(())
}

async fn announce(http: &Http, data: &Data, event: &Event) -> Result<(), BotError> {
    if event.kind == event_kind::CHALLENGE_EXPIRED {
        return announce_expiry(http, data, event).await;
    }
    let (Some(channel), Some(game)) = (context_channel(event), event.game_id) else {
        return Ok(());
    };
    let lock = data.channel_lock(channel);
    let _posting = lock.lock().await;
    match event.kind.as_str() {
        event_kind::MOVE_PLAYED => {
            let Some(facts) = MoveFacts::from_event(&event.data) else {
                return Ok(());
            };
            if data.take_claim(Claim::Move {
                game,
                ply: facts.ply,
            }) {
                return Ok(());
            }
            let view = data.service.game(None, game).await?;
            let post = posts::move_post(data, &view, &facts).await;
            let by_ai = event.data.get("by").is_none_or(|by| by.is_null());
            if by_ai && let Some(pending) = data.take_ai_followup(game) {
                match post
                    .followup()
                    .execute(http, (None, pending.token.as_str()))
                    .await
                {
                    Ok(_) => return Ok(()),
                    Err(e) => {
                        tracing::info!(game, "follow-up refused ({e}); posting in the channel")
                    }
                }
            }
            channel.send_message(http, post.message()).await?;
        }
        event_kind::GAME_ENDED => {
            let reason = event
                .data
                .get("reason")
                .and_then(|r| r.as_str())
                .unwrap_or_default();
            if data.take_claim(Claim::End { game }) || !ENDINGS_WITHOUT_A_MOVE.contains(&reason) {
                return Ok(());
            }
            let view = data.service.game(None, game).await?;
            let post = posts::end_post(data, &view).await;
            channel.send_message(http, post.message()).await?;
        }
        // A game started elsewhere (a challenge made here, accepted over HTTP).
        event_kind::GAME_STARTED => {
            if data.take_claim(Claim::Start { game }) {
                return Ok(());
            }
            let view = data.service.game(None, game).await?;
            let post = posts::start_post(data, &view).await;
            channel.send_message(http, post.message()).await?;
        }
        event_kind::DRAW_OFFERED | event_kind::DRAW_DECLINED => {
            if data.take_claim(Claim::Draw { game }) {
                return Ok(());
            }
            let by = event
                .data
                .get("by")
                .and_then(|b| b.as_str())
                .unwrap_or("a player");
            let text = if event.kind == event_kind::DRAW_OFFERED {
                format!("The {by} offer a draw in game #{game}: `/draw accept` or `/draw decline`.")
            } else {
                format!("The {by} declined the draw in game #{game}: play on.")
            };
            say(http, channel, text).await?;
        }
        event_kind::DEADLINE_REMINDER => {
            let view = data.service.game(None, game).await?;
            let side = event
                .data
                .get("side")
                .and_then(|s| s.as_str())
                .unwrap_or_default();
            let seat = if side == "attackers" {
                &view.attackers
            } else {
                &view.defenders
            };
            let deadline = event
                .data
                .get("deadline_at")
                .and_then(|d| d.as_i64())
                .map(discord_time)
                .unwrap_or_default();
            say(
                http,
                channel,
                format!(
                    "{}, it is your move in game #{game} ({side}); deadline {deadline}.",
                    seat_label(seat)
                ),
            )
            .await?;
        }
        _ => {}
    }
    Ok(())
}

async fn announce_expiry(http: &Http, data: &Data, event: &Event) -> Result<(), BotError> {
    let Some(id) = event.challenge_id else {
        return Ok(());
    };
    let challenge = data.service.challenge(id).await?;
    let Some(channel) = challenge.context.as_deref().and_then(channel_of) else {
        return Ok(());
    };
    let to = challenge
        .opponent
        .as_ref()
        .map(seat_label)
        .unwrap_or_else(|| "anyone".to_owned());
    say(
        http,
        channel,
        format!(
            "Challenge #{id} from {} to {to} expired.",
            seat_label(&challenge.challenger)
        ),
    )
    .await
}
