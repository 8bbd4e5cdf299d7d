//! Games shown in more than one Discord channel (a tournament game between players of two
//! servers is shown in each player's channel): when the front end opens a thread for the game
//! in one of them, that copy's posts go to the thread from then on.

use crate::domain::GameId;
use crate::domain::OutboxId;
use crate::store::rows;

use super::Discord;
use crate::service::Result;

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
