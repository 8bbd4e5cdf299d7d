//! One post's delivery: its requests (with its claim renewed while they run), then what became
//! of it. A post refused in a game's thread that is gone (or refuses the bot for longer than
//! `discord.refused_access_retry_secs`) sends the game back to the thread's channel, where the
//! post goes out at once; one refused in a channel that is gone (or refuses access that long)
//! sends its games off Discord, and their players are told by direct message. A direct message
//! refused because the player's DMs are closed turns their turn DMs off.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serenity::all::{ChannelId, Http, UserId};
use serenity::builder::Builder;

use super::failure::{Failure, MISSING_ACCESS, THREAD_ARCHIVED, refusal_of};
use super::refused_access::RefusedAccess;
use super::{RestGate, lease};
use crate::backoff::Backoff;
use crate::logging::ErrorChain;
use crate::posts::Post;
use crate::service::{ChannelPost, Clock, Event, EventPayload, GameOffDiscord, SystemClock};
use crate::telemetry;
use crate::{
    BotError, Data, announcements, challenge_posts, mirror_threads, server_lifecycle, threads,
};

/// Tries of a post refused for other reasons (an unknown message, another 403 or 404).
const TRIES_WHEN_REFUSED: u32 = 3;
/// Tries of a post that failed for passing reasons (5xx, 429, timeouts, network): with the
/// back-off doubling up to [`MAX_BACKOFF`], several hours of outage.
const TRIES_WHEN_FAILING: u32 = 40;
/// A place refusing access is tried at least this often before its games leave it, however
/// short `discord.refused_access_retry_secs`.
const MIN_TRIES_WHEN_ACCESS_REFUSED: u32 = 3;
/// The longest wait between two tries.
pub const MAX_BACKOFF: Duration = Duration::from_secs(600);

/// What every post's delivery shares.
pub struct Courier {
    pub http: Arc<Http>,
    pub data: Data,
    /// The first wait between two tries (`discord.retry_base_ms`).
    pub retry_base: Duration,
    /// How long a place refusing access is tried before its games leave it.
    pub refused_access_retry: Duration,
    pub refused_access: RefusedAccess,
}

fn wall_ms() -> i64 {
    SystemClock.now_ms()
}

/// The back-off between tries of a post: from `base`, at most [`MAX_BACKOFF`].
pub fn retry_policy(base: Duration) -> Backoff {
    Backoff::new(base, MAX_BACKOFF)
}

impl Courier {
    fn gate(&self) -> &RestGate {
        self.data.rest_gate()
    }

    /// Delivers `head` and records what became of it.
    pub async fn deliver(&self, head: &ChannelPost) {
        // The claim is renewed only while requests run: the outcome is written after the last
        // renewal, so the outcome's own next try is never pushed back by a renewal.
        let sent = tokio::select! {
            sent = self.send(head) => sent,
            never = lease::keep_claimed(&self.data, head.id) => match never {},
        };
        if let Err(e) = self.settle(head, sent).await {
            tracing::warn!(post = %head.id, error = %ErrorChain(&e), "cannot record a Discord post's outcome");
        }
    }

    /// The post's requests: its event, then the post in its channel or the player's DMs.
    async fn send(&self, head: &ChannelPost) -> (Option<Event>, Result<(), BotError>) {
        let event = match self.data.service.events().get(head.event_id).await {
            Ok(event) => event,
            Err(e) => return (None, Err(e.into())),
        };
        let sent = match head.dm_user_id {
            Some(user) => self.send_direct(UserId::new(user), &event).await,
            None => match announcements::compose(&self.data, &event).await {
                Ok(Some(post)) => {
                    let channel = mirror_threads::place_of_post(
                        &self.http,
                        &self.data,
                        &event,
                        head.id,
                        ChannelId::new(head.channel_id),
                    )
                    .await;
                    self.send_in(channel, &event, &post).await
                }
                Ok(None) => Ok(()),
                Err(e) => Err(e),
            },
        };
        (Some(event), sent)
    }

    /// Records what became of the post, and moves its game or stops where Discord's answer
    /// says so.
    async fn settle(
        &self,
        head: &ChannelPost,
        (event, sent): (Option<Event>, Result<(), BotError>),
    ) -> Result<(), BotError> {
        let discord = self.data.service.discord();
        let error = match sent {
            Ok(()) => {
                self.refused_access.cleared(head.channel_id);
                return Ok(discord.post_delivered(head.id).await?);
            }
            Err(error) => error,
        };
        let failure = Failure::of(&error);
        metrics::counter!(telemetry::DISCORD_POST_FAILURES, "failure" => failure.label())
            .increment(1);
        match failure {
            // Nothing more is sent; the claim lapses and the post waits for a valid token.
            Failure::Halted => return Ok(()),
            Failure::Deferred(wait) => {
                let at = wall_ms().saturating_add(millis(wait));
                return Ok(discord.post_deferred(head.id, at).await?);
            }
            Failure::DmsClosed => {
                if let Some(user) = head.dm_user_id {
                    tracing::info!(post = %head.id, user, "direct messages closed: the player's turn DMs are turned off");
                    return Ok(discord.dms_closed(head.id, user).await?);
                }
            }
            _ => {}
        }
        if head.dm_user_id.is_none()
            && let Some(event) = &event
            && self.relocated(head, event, failure, &error).await?
        {
            return Ok(());
        }
        let tries = head.attempts + 1;
        let retry = match failure {
            Failure::AccessRefused { .. } => {
                tries < MIN_TRIES_WHEN_ACCESS_REFUSED || !self.access_period_over(head)
            }
            Failure::Passing => tries < TRIES_WHEN_FAILING,
            Failure::ChannelGone | Failure::Refused | Failure::DmsClosed => {
                tries < TRIES_WHEN_REFUSED
            }
            Failure::Rejected | Failure::Deferred(_) | Failure::Halted => false,
        };
        let retry_at = retry.then(|| {
            wall_ms().saturating_add(millis(retry_policy(self.retry_base).wait(head.attempts)))
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
                    event = ?event.as_ref().map(|e| e.id),
                    kind = event.as_ref().map(Event::kind),
                    tries,
                    "Discord post given up: {error}; the game goes on (it can be followed over HTTP)"
                );
            }
        }
        discord
            .post_failed(head.id, error.to_string(), retry_at)
            .await?;
        Ok(())
    }

    /// Whether the post's place has refused access for longer than the configured period.
    fn access_period_over(&self, head: &ChannelPost) -> bool {
        self.refused_access.refused(head.channel_id, Instant::now()) >= self.refused_access_retry
    }

    /// A post Discord refused for its place, for good: the game of a thread goes back to the
    /// thread's channel and the post is tried there at once; the games of a channel that is
    /// gone leave Discord (they go on over HTTP) and their players are told by direct message.
    /// Answers whether the post was dealt with so.
    async fn relocated(
        &self,
        head: &ChannelPost,
        event: &Event,
        failure: Failure,
        error: &BotError,
    ) -> Result<bool, BotError> {
        let for_good = match failure {
            Failure::ChannelGone => true,
            Failure::AccessRefused { .. } => {
                head.attempts + 1 >= MIN_TRIES_WHEN_ACCESS_REFUSED && self.access_period_over(head)
            }
            _ => false,
        };
        let discord = self.data.service.discord();
        // The bot is out of the channel's server for now: its games wait there, paused, for
        // the bot to come back or the server's grace period to end.
        if !for_good || discord.in_removed_server(head.channel_id).await? {
            return Ok(false);
        }
        if discord.is_game_thread(head.channel_id).await? {
            self.refused_access.cleared(head.channel_id);
            return Ok(discord.game_thread_gone(head.channel_id).await? > 0);
        }
        // A channel the bot may see but not post in keeps its games: the post is given up,
        // the next ones are tried (a permission to attach files, say, may come back).
        let gone = matches!(failure, Failure::ChannelGone)
            || refusal_of(error).is_some_and(|(_, code)| code == MISSING_ACCESS);
        if !gone {
            return Ok(false);
        }
        self.refused_access.cleared(head.channel_id);
        let off = discord.games_lost_channel(head.channel_id).await?;
        for game in &off {
            self.tell_game_left_discord(game).await;
        }
        Ok(event
            .game_id
            .is_some_and(|id| off.iter().any(|g| g.game_id == id)))
    }

    /// Tells a game's players by direct message that its channel is gone and where it goes on.
    async fn tell_game_left_discord(&self, game: &GameOffDiscord) {
        server_lifecycle::tell_game_left_discord(&self.http, self.gate(), game).await;
    }

    /// Sends `post` to `user`'s direct messages.
    async fn dm(&self, user: UserId, post: &Post) -> Result<(), BotError> {
        server_lifecycle::direct_message(&self.http, self.gate(), user, post).await
    }

    /// Sends the direct message of `event` to `user`; nothing when it no longer applies.
    async fn send_direct(&self, user: UserId, event: &Event) -> Result<(), BotError> {
        match announcements::direct_message(&self.data, event).await? {
            Some(post) => self.dm(user, &post).await,
            None => Ok(()),
        }
    }

    /// Sends a post in its channel; an AI's answer to a fresh `/move` or `/play` goes as a
    /// follow-up of that interaction instead, where the player is looking.
    async fn send_in(
        &self,
        channel: ChannelId,
        event: &Event,
        post: &Post,
    ) -> Result<(), BotError> {
        let http = self.http.as_ref();
        if let (EventPayload::ChallengeExpired {}, Some(challenge)) =
            (&event.payload, event.challenge_id)
        {
            self.expire_buttons(challenge).await?;
        }
        let by_ai =
            matches!(&event.payload, EventPayload::MovePlayed(played) if played.by.is_none());
        if by_ai
            && let Some(game) = event.game_id
            && let Some(pending) = self.data.take_ai_followup(game)
        {
            let followup = post.followup();
            match self
                .gate()
                .run(followup.execute(http, (None, pending.token.as_str())))
                .await
            {
                Ok(_) => return Ok(()),
                Err(e @ BotError::Stopped(_)) => return Err(e),
                Err(e) => tracing::info!(%game, "follow-up refused ({e}); posting in the channel"),
            }
        }
        let error = match self
            .gate()
            .run(channel.send_message(http, post.message()))
            .await
        {
            Ok(_) => return Ok(()),
            Err(e) => e,
        };
        if refusal_of(&error) != Some((400, THREAD_ARCHIVED)) {
            return Err(error);
        }
        // An archived thread that Discord did not reopen by itself (a moderator locked it):
        // reopen it and try again. Refused that, the bot may not reopen it: the lock is the
        // moderators' choice, not a permission being reworked, so the game leaves at once.
        match self.gate().run(threads::unarchive(http, channel)).await {
            Ok(()) => {}
            Err(e) if refusal_of(&e).is_some_and(|(status, _)| status == 403) => {
                return Err(BotError::ThreadLocked(Box::new(e)));
            }
            Err(e) => return Err(e),
        }
        self.gate()
            .run(channel.send_message(http, post.message()))
            .await?;
        Ok(())
    }

    /// Takes the buttons off an expired challenge's message before its expiry is announced. A
    /// passing failure is retried with the post; a message that is gone or cannot be edited is
    /// left alone (its buttons answer that the challenge expired).
    async fn expire_buttons(&self, challenge: crate::domain::ChallengeId) -> Result<(), BotError> {
        match challenge_posts::edit_ended(&self.http, &self.data, challenge, "**Expired.**").await {
            Ok(()) => Ok(()),
            Err(e)
                if matches!(
                    Failure::of(&e),
                    Failure::Passing | Failure::Halted | Failure::Deferred(_)
                ) =>
            {
                Err(e)
            }
            Err(e) => {
                tracing::info!(%challenge, "expired challenge's buttons left on: {e}");
                Ok(())
            }
        }
    }
}

fn millis(wait: Duration) -> i64 {
    i64::try_from(wait.as_millis()).unwrap_or(i64::MAX)
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

    // Passing failures are tried for long; a refused place at least twice before its games
    // leave it.
    const _: () = assert!(TRIES_WHEN_FAILING > TRIES_WHEN_REFUSED);
    const _: () = assert!(MIN_TRIES_WHEN_ACCESS_REFUSED >= 2);
}
