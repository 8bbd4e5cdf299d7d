//! Games shown in more than one Discord channel (a tournament game between players of two
//! servers is shown in each player's channel): when the front end opens a thread for the game
//! in one of them, that copy's posts go to the thread from then on. A copy follows its places
//! as the game's own place does (`game_threads.rs`): its thread gone, it goes back to the
//! channel it hangs off; its channel gone, it ends. A server that removed the bot gets no posts
//! of the copies in it (nothing is sent where the bot is not) until the bot is back.

use crate::domain::GameId;
use crate::domain::OutboxId;
use crate::store::Conn;
use crate::store::rows::{self, GameMirrorRow};

use super::Discord;
use crate::Result;

/// A copy of a game in a channel without a thread yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MirrorWithoutThread {
    /// The channel where the copy is posted now, and under which a thread may be opened.
    pub parent: u64,
    /// Its server, when known.
    pub guild: Option<u64>,
}

impl Discord<'_> {
    /// Whether posts of `game` going to `channel` belong to a copy of the game that has no
    /// thread yet.
    pub async fn mirror_without_thread(
        self,
        game: GameId,
        channel: u64,
    ) -> Result<Option<MirrorWithoutThread>> {
        self.service
            .read(move |c| {
                let Some(mirror) = rows::game_mirror_in(c, game, channel)? else {
                    return Ok(None);
                };
                if mirror.channel_id != mirror.parent_id {
                    return Ok(None);
                }
                Ok(Some(MirrorWithoutThread {
                    parent: mirror.parent_id,
                    guild: match rows::guild_of_tournament_channel(c, mirror.parent_id)? {
                        Some(guild) => Some(guild),
                        None => rows::guild_of_team_match_channel(c, mirror.parent_id)?,
                    },
                }))
            })
            .await
    }

    /// The copy of `game` posted in `parent` is played in `thread` from now on: its posts not
    /// yet sent go there, `in_flight` (the post being delivered) keeping its claim.
    pub async fn move_mirror_to_thread(
        self,
        game: GameId,
        parent: u64,
        thread: u64,
        in_flight: OutboxId,
    ) -> Result<()> {
        let signal = self.service.inner.discord_outbox.clone();
        self.service
            .commit(move |c, e| {
                rows::set_game_mirror_thread(c, game, parent, thread)?;
                rows::move_mirror_posts(c, game, parent, thread, e.wall_now, in_flight)?;
                rows::note_thread_guild(c, thread, parent, e.wall_now)?;
                Ok(())
            })
            .await?;
        signal.notify_one();
        Ok(())
    }
}

/// Why the pending posts of a copy in a server that removed the bot are given up.
const NOT_IN_SERVER: &str = "the bot was removed from the server";

/// In the transaction of the loss of `thread`: the copies played in it go back to the channels
/// they hang off, with their pending posts, due at once. Answers the copies moved.
pub(super) fn copies_back_from_thread(
    c: &Conn<'_>,
    thread: u64,
    now: i64,
) -> Result<Vec<GameMirrorRow>> {
    let copies = rows::game_mirrors_in_thread(c, thread)?;
    for copy in &copies {
        rows::set_game_mirror_thread(c, copy.game_id, copy.parent_id, copy.parent_id)?;
        rows::move_pending_posts(c, copy.game_id, thread, copy.parent_id, now)?;
    }
    Ok(copies)
}

/// In the transaction that finds `channel` gone for good: the copies of active games shown
/// in it end, their pending posts there given up. Answers how many ended.
pub(super) fn copies_end_in_channel(c: &Conn<'_>, channel: u64, now: i64) -> Result<usize> {
    let games = rows::active_games_mirrored_in(c, channel)?;
    for game in &games {
        rows::abandon_pending_posts(c, *game, channel, "the channel is gone", now)?;
        if let Some(copy) = rows::game_mirror_in(c, *game, channel)? {
            rows::delete_game_mirror(c, *game, copy.parent_id)?;
        }
    }
    Ok(games.len())
}

/// In the transaction of the bot's removal from a server whose channels and threads are
/// `channels`: the copies shown there pause, their pending posts given up (the next posts,
/// once the bot is back, show the game as it is then). Answers how many paused.
pub(super) fn pause_copies_in(c: &Conn<'_>, channels: &[u64], now: i64) -> Result<usize> {
    let mut paused = 0;
    for channel in channels {
        for game in rows::active_games_mirrored_in(c, *channel)? {
            rows::abandon_pending_posts(c, game, *channel, NOT_IN_SERVER, now)?;
            paused += 1;
        }
    }
    Ok(paused)
}

/// Whether posts to the copy in `channel` wait: its server removed the bot.
pub(crate) fn copy_paused(c: &Conn<'_>, channel: u64) -> Result<bool> {
    Ok(rows::channel_in_removed_guild(c, channel)?)
}
