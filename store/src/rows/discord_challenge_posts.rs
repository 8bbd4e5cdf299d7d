//! The Discord message that shows each challenge with its buttons.

use crate::{Conn, params};

use super::*;

/// Where a challenge's message is: its channel and message snowflakes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChallengePostRow {
    pub challenge_id: ChallengeId,
    pub channel_id: u64,
    pub message_id: u64,
}

/// Snowflakes are below 2^63, so they fit SQLite's signed integers as they are.
fn snowflake(id: u64) -> i64 {
    i64::try_from(id).unwrap_or(i64::MAX)
}

/// Records (or replaces) the message of a challenge.
pub fn upsert_challenge_post(c: &Conn<'_>, post: &ChallengePostRow) -> Result<()> {
    c.execute(
        "INSERT INTO discord_challenge_posts (challenge_id, channel_id, message_id) \
         VALUES (?1, ?2, ?3) ON CONFLICT(challenge_id) DO UPDATE SET \
         channel_id = excluded.channel_id, message_id = excluded.message_id",
        params![
            post.challenge_id,
            snowflake(post.channel_id),
            snowflake(post.message_id)
        ],
    )?;
    Ok(())
}

pub fn challenge_post(c: &Conn<'_>, id: ChallengeId) -> Result<Option<ChallengePostRow>> {
    c.query_opt(
        "SELECT channel_id, message_id FROM discord_challenge_posts WHERE challenge_id = ?1",
        params![id],
        |r| {
            Ok(ChallengePostRow {
                challenge_id: id,
                channel_id: r.get::<i64>(0)? as u64,
                message_id: r.get::<i64>(1)? as u64,
            })
        },
    )
}
