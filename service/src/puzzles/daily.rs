//! The daily puzzle: a Discord server turns it on in `/settings` with a channel, and every day
//! (UTC, by the service clock) one puzzle is posted there. The post rides the Discord outbox: a
//! `daily_puzzle` event and its posts are written in the transaction that records the day as
//! posted, so a post is never lost nor, after a restart, made twice. Every server gets the
//! same puzzle on a day (the puzzles taken in turn by id), so members can talk about it.

use std::time::Duration;

use crate::Result;
use crate::discord::{ServerMember, check_manager};
use crate::domain::PuzzleId;
use crate::events::{DailyPuzzle, EventPayload};
use crate::store::rows;

use super::Puzzles;

/// A day in milliseconds.
pub const DAY_MS: i64 = 24 * 3600 * 1000;
/// Servers posted to in one transaction at most; the next pass takes the rest.
pub const DAILY_POSTS_PER_PASS: u32 = 500;
/// How often the background task looks for a day's puzzle due (`daily_puzzle_check_secs`,
/// at least a second: each look is a write transaction).
pub(super) fn check_interval(config: &crate::config::GamesConfig) -> Duration {
    Duration::from_secs(config.daily_puzzle_check_secs.max(1))
}

impl Puzzles<'_> {
    /// Turns the daily puzzle on in `channel` of the member's server, or off with `None`: only
    /// a member who may manage the server may.
    pub async fn set_daily_channel(
        self,
        member: &ServerMember,
        channel: Option<u64>,
    ) -> Result<()> {
        check_manager(member)?;
        let guild = member.guild_id;
        self.service
            .commit(move |c, _| Ok(rows::set_daily_puzzle_channel(c, guild, channel)?))
            .await
    }

    /// The channel of `guild` that gets the daily puzzle, if any.
    pub async fn daily_channel(self, guild: u64) -> Result<Option<u64>> {
        self.service
            .read(move |c| Ok(rows::daily_puzzle_channel(c, guild)?))
            .await
    }

    /// Posts today's puzzle in every channel that asked for it and has not had it today;
    /// answers the puzzle posted, if any (none when no server is due or no puzzle exists yet:
    /// then nothing is recorded, and a later pass posts it).
    pub async fn post_daily(self) -> Result<Option<PuzzleId>> {
        let today = self.service.now_ms().div_euclid(DAY_MS);
        self.service
            .commit(move |c, e| {
                let due = rows::daily_puzzles_due(c, today, DAILY_POSTS_PER_PASS)?;
                if due.is_empty() {
                    return Ok(None);
                }
                let Some(puzzle) = rows::puzzle_at(c, today.unsigned_abs())? else {
                    return Ok(None);
                };
                e.emit(
                    c,
                    None,
                    None,
                    Vec::new(),
                    EventPayload::DailyPuzzle(DailyPuzzle {
                        puzzle_id: puzzle.id,
                        day: today,
                    }),
                )?;
                for (guild, channel) in due {
                    e.post_last_event_in(c, channel)?;
                    rows::mark_daily_puzzle_posted(c, guild, today)?;
                }
                Ok(Some(puzzle.id))
            })
            .await
    }
}
