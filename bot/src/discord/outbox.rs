//! Delivers the Discord outbox: every post the service queued for a channel goes out at least
//! once, in order per channel, and is marked delivered only after Discord accepted it. A failed
//! post is retried with back-off; one that can never succeed (the channel is gone, the bot may
//! not post there, Discord refuses the payload) is given up after a few tries and logged once,
//! while the game goes on.
//!
//! A post refused in a game's thread (deleted, or access lost) sends the game back to the
//! thread's channel and goes out there at once; one refused in a channel that is gone for good
//! sends its games off Discord, and their players are told by direct message. A post owed to a
//! player's direct messages (`dm_user_id`) goes out the same way, once; a player whose DMs are
//! closed is not tried again.
//!
//! Times here are wall-clock: delivery is operational, not part of any game's clock.

use std::sync::Arc;
use std::time::Duration;

use serenity::all::{ChannelId, Http, UserId};
use serenity::builder::Builder;
use serenity::http::HttpError;
use tokio::sync::watch;

use super::announcements;
use super::challenge_posts;
use super::posts::Post;
use super::threads;
use super::{BotError, Data};
use crate::backoff::Backoff;
use crate::logging::ErrorChain;
use crate::service::{ChannelPost, Clock, Event, EventPayload, GameOffDiscord, SystemClock};
use crate::telemetry;

/// Tries of a post Discord refuses for good reasons (gone channel, missing permission) before
/// it is given up: a permission can be granted back in the meantime.
const TRIES_WHEN_REFUSED: u32 = 3;
/// Tries of a post that failed for passing reasons (5xx, 429, network): with the back-off
/// doubling up to [`MAX_BACKOFF`], several hours of outage.
const TRIES_WHEN_FAILING: u32 = 40;
/// The longest wait between two tries.
const MAX_BACKOFF: Duration = Duration::from_secs(600);
/// Checked at least this often, whatever the signals say.
const IDLE_CHECK: Duration = Duration::from_secs(30);

/// Why a post did not go out, as far as retrying is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// Discord is down, rate-limited us, or the network failed: try again later.
    Passing,
    /// Discord refused this channel: missing permission or access, unknown channel.
    Refused,
    /// Discord says the payload is wrong: it will never pass.
    Rejected,
}

impl Failure {
    pub fn of(error: &BotError) -> Failure {
        let BotError::Discord(error) = error else {
            return Failure::Passing;
        };
        match error.as_ref() {
            serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) => {
                match response.status_code.as_u16() {
                    // Cannot send messages to this user: their DMs are closed, and stay so.
                    403 if response.error.code == 50007 => Failure::Rejected,
                    401 | 403 | 404 => Failure::Refused,
                    429 | 500..=599 => Failure::Passing,
                    _ => Failure::Rejected,
                }
            }
            serenity::Error::Model(_) => Failure::Rejected,
            _ => Failure::Passing,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Failure::Passing => "passing",
            Failure::Refused => "refused",
            Failure::Rejected => "rejected",
        }
    }

    fn tries(self) -> u32 {
        match self {
            Failure::Passing => TRIES_WHEN_FAILING,
            Failure::Refused => TRIES_WHEN_REFUSED,
            Failure::Rejected => 1,
        }
    }
}

fn wall_ms() -> i64 {
    SystemClock.now_ms()
}

/// The back-off between tries of a post: from `base`, at most [`MAX_BACKOFF`].
fn retry_policy(base: Duration) -> Backoff {
    Backoff::new(base, MAX_BACKOFF)
}

/// Delivers until `shutdown` turns true.
pub async fn run(http: Arc<Http>, data: Data, base: Duration, mut shutdown: watch::Receiver<bool>) {
    let signal = data.service.discord().outbox_signal();
    loop {
        let wait = match deliver_due(&http, &data, base).await {
            Ok(Some(next)) => {
                Duration::from_millis(u64::try_from(next - wall_ms()).unwrap_or(0)).min(IDLE_CHECK)
            }
            Ok(None) => IDLE_CHECK,
            Err(e) => {
                tracing::warn!(error = %ErrorChain(&e), "cannot read the Discord outbox");
                base.max(Duration::from_secs(1))
            }
        };
        tokio::select! {
            _ = signal.notified() => {}
            _ = tokio::time::sleep(wait) => {}
            _ = shutdown.changed() => return,
        }
    }
}

/// Sends every channel's head post that is due; answers when the next one will be.
async fn deliver_due(http: &Http, data: &Data, base: Duration) -> Result<Option<i64>, BotError> {
    loop {
        let (due, next) = data.service.discord().claim_due_posts().await?;
        if due.is_empty() {
            return Ok(next);
        }
        for head in due {
            attempt(http, data, &head, base).await?;
        }
    }
}

async fn attempt(
    http: &Http,
    data: &Data,
    head: &ChannelPost,
    base: Duration,
) -> Result<(), BotError> {
    let event = data.service.events().get(head.event_id).await?;
    let sent = match head.dm_user_id {
        Some(user) => send_direct(http, data, UserId::new(user), &event).await,
        None => match announcements::compose(data, &event).await {
            Ok(Some(post)) => {
                send(http, data, ChannelId::new(head.channel_id), &event, &post).await
            }
            Ok(None) => Ok(()),
            Err(e) => Err(e),
        },
    };
    let error = match sent {
        Ok(()) => return Ok(data.service.discord().post_delivered(head.id).await?),
        Err(error) => error,
    };
    if head.dm_user_id.is_none() && relocated(http, data, head, &event, &error).await? {
        return Ok(());
    }
    let failure = Failure::of(&error);
    metrics::counter!(telemetry::DISCORD_POST_FAILURES, "failure" => failure.label()).increment(1);
    let tries = head.attempts + 1;
    let retry_at = (tries < failure.tries()).then(|| {
        wall_ms().saturating_add(retry_policy(base).wait(head.attempts).as_millis() as i64)
    });
    match retry_at {
        Some(_) => tracing::debug!(
            post = %head.id,
            channel = head.channel_id,
            tries,
            ?failure,
            "Discord post failed: {error}"
        ),
        None => {
            metrics::counter!(telemetry::DISCORD_POSTS_GIVEN_UP).increment(1);
            tracing::warn!(
            post = %head.id,
            channel = head.channel_id,
            event = %event.id,
            kind = event.kind(),
            tries,
            "Discord post given up: {error}; the game goes on (it can be followed over HTTP)"
            )
        }
    }
    data.service
        .discord()
        .post_failed(head.id, error.to_string(), retry_at)
        .await?;
    Ok(())
}

/// Discord's refusal of a request: its HTTP status and JSON error code.
fn refusal_of(error: &BotError) -> Option<(u16, isize)> {
    let BotError::Discord(error) = error else {
        return None;
    };
    match error.as_ref() {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) => {
            Some((response.status_code.as_u16(), response.error.code))
        }
        _ => None,
    }
}

/// Unknown Channel: the channel or thread was deleted.
const UNKNOWN_CHANNEL: isize = 10003;
/// Missing Access: the bot can no longer see the channel.
const MISSING_ACCESS: isize = 50001;
/// Thread is archived.
const THREAD_ARCHIVED: isize = 50083;

/// A post Discord refused for its place: when the place is a game's thread, the game goes back
/// to the thread's channel and the post is tried there at once; when it is a channel that is
/// gone for good, its games leave Discord (they go on over HTTP) and their players are told
/// by direct message. Answers whether the post was dealt with so.
async fn relocated(
    http: &Http,
    data: &Data,
    head: &ChannelPost,
    event: &Event,
    error: &BotError,
) -> Result<bool, BotError> {
    if Failure::of(error) != Failure::Refused {
        return Ok(false);
    }
    if data
        .service
        .discord()
        .is_game_thread(head.channel_id)
        .await?
    {
        return Ok(data
            .service
            .discord()
            .game_thread_gone(head.channel_id)
            .await?
            > 0);
    }
    let gone = matches!(
        refusal_of(error),
        Some((404, UNKNOWN_CHANNEL)) | Some((403, MISSING_ACCESS))
    );
    if !gone {
        return Ok(false);
    }
    let off = data
        .service
        .discord()
        .games_lost_channel(head.channel_id)
        .await?;
    for game in &off {
        tell_game_left_discord(http, game).await;
    }
    Ok(event
        .game_id
        .is_some_and(|id| off.iter().any(|g| g.game_id == id)))
}

/// Tells a game's players by direct message that its channel is gone and where it goes on.
async fn tell_game_left_discord(http: &Http, game: &GameOffDiscord) {
    for user in &game.discord_users {
        let post = Post::text(
            format!(
                "The Discord channel of game #{} is gone, so its moves are no longer posted \
                 there. The game goes on: play it over the HTTP API (`/token` gives you a \
                 token), or bring it into another channel with `/follow game:{}`.",
                game.game_id, game.game_id
            ),
            Vec::new(),
        );
        if let Err(e) = dm(http, UserId::new(*user), &post).await {
            tracing::warn!(game = %game.game_id, user, "cannot tell a player by DM that the game left Discord: {e}");
        }
    }
}

/// Sends `post` to `user`'s direct messages.
async fn dm(http: &Http, user: UserId, post: &Post) -> Result<(), BotError> {
    let channel = user.create_dm_channel(http).await?;
    channel.id.send_message(http, post.message()).await?;
    Ok(())
}

/// Sends the direct message of `event` to `user`; nothing when it no longer applies.
async fn send_direct(
    http: &Http,
    data: &Data,
    user: UserId,
    event: &Event,
) -> Result<(), BotError> {
    match announcements::direct_message(data, event).await? {
        Some(post) => dm(http, user, &post).await,
        None => Ok(()),
    }
}

/// Sends a post in its channel; an AI's answer to a fresh `/move` or `/play` goes as a
/// follow-up of that interaction instead, where the player is looking.
async fn send(
    http: &Http,
    data: &Data,
    channel: ChannelId,
    event: &Event,
    post: &Post,
) -> Result<(), BotError> {
    if let (EventPayload::ChallengeExpired {}, Some(challenge)) =
        (&event.payload, event.challenge_id)
    {
        expire_buttons(http, data, challenge).await?;
    }
    let by_ai = matches!(&event.payload, EventPayload::MovePlayed(played) if played.by.is_none());
    if by_ai
        && let Some(game) = event.game_id
        && let Some(pending) = data.take_ai_followup(game)
    {
        match post
            .followup()
            .execute(http, (None, pending.token.as_str()))
            .await
        {
            Ok(_) => return Ok(()),
            Err(e) => tracing::info!(%game, "follow-up refused ({e}); posting in the channel"),
        }
    }
    let error = match channel.send_message(http, post.message()).await {
        Ok(_) => return Ok(()),
        Err(e) => BotError::from(e),
    };
    if refusal_of(&error) != Some((400, THREAD_ARCHIVED)) {
        return Err(error);
    }
    // An archived thread that Discord did not reopen by itself: reopen it and try again.
    threads::unarchive(http, channel).await?;
    channel.send_message(http, post.message()).await?;
    Ok(())
}

/// Takes the buttons off an expired challenge's message before its expiry is announced. A
/// passing failure is retried with the post; a message that is gone or cannot be edited is
/// left alone (its buttons answer that the challenge expired).
async fn expire_buttons(
    http: &Http,
    data: &Data,
    challenge: crate::domain::ChallengeId,
) -> Result<(), BotError> {
    match challenge_posts::edit_ended(http, data, challenge, "**Expired.**").await {
        Ok(()) => Ok(()),
        Err(e) if Failure::of(&e) == Failure::Passing => Err(e),
        Err(e) => {
            tracing::info!(%challenge, "expired challenge's buttons left on: {e}");
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posts_back_off_up_to_ten_minutes() {
        let policy = retry_policy(Duration::from_secs(1));
        assert_eq!(policy.ceiling(3), Duration::from_secs(8));
        assert_eq!(policy.ceiling(30), MAX_BACKOFF);
    }

    #[test]
    fn only_passing_failures_are_tried_for_long() {
        assert!(Failure::Passing.tries() > Failure::Refused.tries());
        assert_eq!(Failure::Rejected.tries(), 1);
        assert_eq!(
            Failure::of(&BotError::BadOption("x".into())),
            Failure::Passing
        );
    }
}
