//! What one write job leaves besides its own answer: the events it emits (stored in its
//! transaction with their webhook deliveries and Discord posts), and the engine games to
//! cache once it commits.

use crate::domain::{ChallengeId, GameId, PlayerId};
use crate::store::Conn;
use crate::store::rows;

use super::Result;
use super::events::{Event, EventPayload, bus};
use super::games::game_ended::GameEndedSubscribers;

/// Collects the events of one write job.
pub(crate) struct Emitter {
    pub(super) events: Vec<Event>,
    /// Webhook deliveries queued by these events.
    pub(super) deliveries: usize,
    /// Discord posts queued by these events.
    pub(super) posts: Vec<rows::OutboxId>,
    /// Set when the caller shows these events in its own reply.
    pub(super) held_until: Option<i64>,
    /// The Discord channel of that reply, when the caller named it: a game shown in several
    /// channels (`discord_game_mirrors`) holds only its post in this one.
    pub(super) held_in: Option<u64>,
    /// Wall-clock time of the commit, for the outbox.
    pub(super) wall_now: i64,
    pub(super) now: i64,
    /// The vacation days a player has a year: any job that finds a clock run out may spend
    /// one before it ends the game (`vacation::clocks::keeps_going`).
    pub(super) vacation_days_per_year: u32,
    /// A game's seats' Discord users who asked for a direct message on their turn, as read
    /// with the game (attackers, defenders): a move's event needs no query of its own.
    pub(super) dm_users: Option<(GameId, [Option<u64>; 2])>,
    /// Engine games as this job leaves them, cached once it commits: a state that was
    /// never committed is never taken for the stored one.
    pub(super) engines_to_cache: Vec<(GameId, tafl_engine::Game)>,
    /// The areas that react to a game's end, as the wiring registered them.
    pub(super) game_ended: GameEndedSubscribers,
}

impl Emitter {
    pub fn now(&self) -> i64 {
        self.now
    }

    pub(crate) fn game_ended_subscribers(&self) -> GameEndedSubscribers {
        self.game_ended
    }

    pub fn vacation_days_per_year(&self) -> u32 {
        self.vacation_days_per_year
    }

    /// Remembers who of `game`'s seats wants a direct message on their turn (see `dm_users`).
    pub(crate) fn know_dm_users(&mut self, game: GameId, users: [Option<u64>; 2]) {
        self.dm_users = Some((game, users));
    }

    /// Runs `emit` with this job's posts not held: what it emits is not shown by the caller's
    /// reply (a conditional answer played for the other player after the caller's move), so
    /// the outbox posts it, behind the held posts of the same channel.
    pub(crate) fn not_held<T>(&mut self, emit: impl FnOnce(&mut Emitter) -> T) -> T {
        let held = self.held_until.take();
        let emitted = emit(self);
        self.held_until = held;
        emitted
    }

    /// Caches `game`'s engine game, as this job leaves it, once the job commits.
    pub(crate) fn cache_after_commit(&mut self, game: GameId, engine: tafl_engine::Game) {
        self.engines_to_cache.push((game, engine));
    }

    pub(crate) fn emit(
        &mut self,
        c: &Conn<'_>,
        game_id: Option<GameId>,
        challenge_id: Option<ChallengeId>,
        players: Vec<PlayerId>,
        payload: EventPayload,
    ) -> Result<()> {
        let mut event = bus::new_event(payload, game_id, challenge_id, players, self.now);
        let mut row = bus::event_row(&event)?;
        self.deliveries += rows::insert_event(c, &mut row)?;
        event.id = row.id;
        if let Some(channel) = bus::discord_channel_of(c, &event)? {
            let post =
                rows::insert_outbox_post(c, event.id, channel, self.wall_now, self.held_until)?;
            self.posts.push(post);
        }
        self.post_in_mirrors(c, &event)?;
        let news = match crate::tournaments::news_channel(c, &event)? {
            Some(channel) => Some(channel),
            None => crate::matches::news_channel(c, &event)?,
        };
        if let Some(channel) = news {
            let post = rows::insert_outbox_post(c, event.id, channel, self.wall_now, None)?;
            self.posts.push(post);
        }
        // A direct message is never shown by a reply: it is not held.
        let dm = match (&event.payload, self.dm_users) {
            (EventPayload::MovePlayed(played), Some((game, users))) if Some(game) == game_id => {
                played.side_to_move.and_then(|side| match side {
                    crate::domain::Side::Attackers => users[0],
                    crate::domain::Side::Defenders => users[1],
                })
            }
            _ => bus::discord_dm_of(c, &event)?,
        };
        if let Some(user) = dm {
            self.posts
                .push(rows::insert_outbox_dm(c, event.id, user, self.wall_now)?);
        }
        super::mail::turn_notices::owe_for(c, &event)?;
        for user in bus::discord_venue_dms_of(c, &event)? {
            self.posts
                .push(rows::insert_outbox_dm(c, event.id, user, self.wall_now)?);
        }
        self.events.push(event);
        Ok(())
    }

    /// Posts `event` in every other channel its game is shown in (a tournament game between
    /// players of two servers), holding only the post of the channel where the caller's reply
    /// shows it.
    fn post_in_mirrors(&mut self, c: &Conn<'_>, event: &Event) -> Result<()> {
        let Some(game) = event.game_id else {
            return Ok(());
        };
        if !bus::announced_in_channel(event) {
            return Ok(());
        }
        for mirror in rows::game_mirrors(c, game)? {
            // Nothing is posted in a server that removed the bot, until it is back.
            if super::discord::copy_paused(c, mirror.channel_id)? {
                continue;
            }
            let held = self
                .held_until
                .filter(|_| self.held_in == Some(mirror.channel_id));
            let post =
                rows::insert_outbox_post(c, event.id, mirror.channel_id, self.wall_now, held)?;
            self.posts.push(post);
        }
        Ok(())
    }

    /// Posts the event this job emitted last in `channel` too (news for channels that asked
    /// for it, such as the daily puzzle: no game's place).
    pub(crate) fn post_last_event_in(&mut self, c: &Conn<'_>, channel: u64) -> Result<()> {
        if let Some(event) = self.events.last() {
            let post = rows::insert_outbox_post(c, event.id, channel, self.wall_now, None)?;
            self.posts.push(post);
        }
        Ok(())
    }

    /// Posts the start of `game`, emitted by this job, in `channel` as well (its place there
    /// was made after the start was emitted).
    pub(crate) fn post_game_start_in(
        &mut self,
        c: &Conn<'_>,
        game: GameId,
        channel: u64,
    ) -> Result<()> {
        let started =
            self.events.iter().rev().find(|e| {
                e.game_id == Some(game) && matches!(e.payload, EventPayload::GameStarted(_))
            });
        if let Some(event) = started {
            let post = rows::insert_outbox_post(c, event.id, channel, self.wall_now, None)?;
            self.posts.push(post);
        }
        Ok(())
    }
}
