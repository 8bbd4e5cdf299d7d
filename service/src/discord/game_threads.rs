//! Where a Discord game is posted as the front end finds its places: moved into a thread of
//! its channel, back to the channel when the thread is gone, or off Discord when the channel is
//! gone too (it goes on over HTTP). Pending posts move with the game, in their order.

use crate::domain::GameId;
use crate::store::rows::{self, GameThreadRow};

use super::Discord;
use super::game_mirrors::{copies_back_from_thread, copies_end_in_channel};
use crate::{Place, Result};

/// A game that lost its Discord channel: its players are to be told where it goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameOffDiscord {
    pub game_id: GameId,
    /// The Discord users of its human players.
    pub discord_users: Vec<u64>,
}

impl Discord<'_> {
    /// `game`, posted in channel `parent` until now, is played in `thread` from now on: its
    /// place is the thread, and its posts not yet sent go there.
    pub async fn move_game_to_thread(self, game: GameId, thread: u64, parent: u64) -> Result<()> {
        let signal = self.service.inner.discord_outbox.clone();
        self.service
            .commit(move |c, e| {
                rows::set_game_context(c, game, Some(&Place::DiscordChannel(thread).to_context()))?;
                rows::insert_game_thread(
                    c,
                    GameThreadRow {
                        game_id: game,
                        thread_id: thread,
                        parent_id: parent,
                    },
                    e.now(),
                )?;
                rows::move_pending_posts(c, game, parent, thread, e.wall_now)?;
                // The thread is in its channel's server (found if the bot is removed from it).
                rows::note_thread_guild(c, thread, parent, e.wall_now)?;
                Ok(())
            })
            .await?;
        signal.notify_one();
        Ok(())
    }

    /// The thread `thread` is gone (deleted, or the bot lost access): its games, and the
    /// copies of games shown in it, go back to their parent channels, with their pending
    /// posts. Answers how many games moved.
    pub async fn game_thread_gone(self, thread: u64) -> Result<usize> {
        let signal = self.service.inner.discord_outbox.clone();
        let (moved, copies) = self
            .service
            .commit(move |c, e| {
                let threads = rows::game_thread(c, thread)?;
                for home in &threads {
                    rows::set_game_context(
                        c,
                        home.game_id,
                        Some(&Place::DiscordChannel(home.parent_id).to_context()),
                    )?;
                    rows::move_pending_posts(c, home.game_id, thread, home.parent_id, e.wall_now)?;
                    rows::delete_game_thread(c, home.game_id)?;
                }
                let copies = copies_back_from_thread(c, thread, e.wall_now)?;
                Ok((threads, copies))
            })
            .await?;
        for home in &moved {
            tracing::info!(game = %home.game_id, thread, parent = home.parent_id,
                "game thread gone; the game goes back to its channel");
        }
        for copy in &copies {
            tracing::info!(game = %copy.game_id, thread, parent = copy.parent_id,
                "thread of a game's copy gone; the copy goes back to its channel");
        }
        signal.notify_one();
        Ok(moved.len() + copies.len())
    }

    /// The channel `channel` is gone for good: its active games leave Discord (they go on over
    /// HTTP) and their pending posts there are given up. Answers whom to tell.
    pub async fn games_lost_channel(self, channel: u64) -> Result<Vec<GameOffDiscord>> {
        let context = Place::DiscordChannel(channel).to_context();
        let gone = format!("discord channel {channel} (gone)");
        self.service
            .commit(move |c, e| {
                let games = rows::active_games_in_context(c, &context)?;
                let mut off = Vec::with_capacity(games.len());
                for game in games {
                    rows::set_game_context(c, game.id, Some(&gone))?;
                    rows::abandon_pending_posts(
                        c,
                        game.id,
                        channel,
                        "the channel is gone",
                        e.now(),
                    )?;
                    let mut discord_users = Vec::new();
                    for player in crate::games::game_state::humans(&game) {
                        if let Some(user) = rows::player(c, player)?.and_then(|p| p.discord_user_id)
                        {
                            discord_users.push(user);
                        }
                    }
                    off.push(GameOffDiscord {
                        game_id: game.id,
                        discord_users,
                    });
                }
                copies_end_in_channel(c, channel, e.now())?;
                Ok(off)
            })
            .await
    }

    /// Channel `channel` was deleted (CHANNEL_DELETE): the games of its threads come back to it
    /// and, with its own games, leave Discord at once, without waiting for a post to fail.
    /// Answers whom to tell; nothing is written where no game was.
    pub async fn channel_deleted(self, channel: u64) -> Result<Vec<GameOffDiscord>> {
        let context = Place::DiscordChannel(channel).to_context();
        let (threads, has_games) = self
            .service
            .read(move |c| {
                Ok((
                    rows::game_threads_under(c, channel)?,
                    !rows::active_games_in_context(c, &context)?.is_empty(),
                ))
            })
            .await?;
        if threads.is_empty() && !has_games {
            return Ok(Vec::new());
        }
        for thread in threads {
            self.game_thread_gone(thread).await?;
        }
        self.games_lost_channel(channel).await
    }

    /// Whether `channel` is the thread of some game or of a game's copy (the front end then
    /// moves the game back rather than giving the post up).
    pub async fn is_game_thread(self, channel: u64) -> Result<bool> {
        self.service
            .read(move |c| {
                Ok(!rows::game_thread(c, channel)?.is_empty()
                    || !rows::game_mirrors_in_thread(c, channel)?.is_empty())
            })
            .await
    }
}
