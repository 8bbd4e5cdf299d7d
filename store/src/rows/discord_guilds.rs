//! Which Discord server each channel belongs to, the servers the bot was removed from, games
//! paused meanwhile, and deleting a server's rows once its grace period is over.

use crate::{Conn, params};

use super::*;

/// Snowflakes are below 2^63, so they fit the signed integer columns as they are.
fn snowflake(id: u64) -> i64 {
    i64::try_from(id).unwrap_or(i64::MAX)
}

fn snowflake_of(stored: i64) -> u64 {
    u64::try_from(stored).unwrap_or_default()
}

/// Notes that `channel` (a channel or thread) belongs to server `guild`; a channel never
/// changes server, so a second note changes nothing.
pub fn note_channel_guild(c: &Conn<'_>, channel: u64, guild: u64, now: i64) -> Result<()> {
    c.execute(
        "INSERT INTO discord_channel_guilds (channel_id, guild_id, noted_at) VALUES (?1, ?2, ?3) \
         ON CONFLICT (channel_id) DO NOTHING",
        params![snowflake(channel), snowflake(guild), now],
    )?;
    Ok(())
}

/// Notes that `thread` belongs to the server of its parent channel, if that one is known.
pub fn note_thread_guild(c: &Conn<'_>, thread: u64, parent: u64, now: i64) -> Result<()> {
    c.execute(
        "INSERT INTO discord_channel_guilds (channel_id, guild_id, noted_at) \
         SELECT CAST(?1 AS BIGINT), guild_id, CAST(?3 AS BIGINT) FROM discord_channel_guilds \
         WHERE channel_id = ?2 \
         ON CONFLICT (channel_id) DO NOTHING",
        params![snowflake(thread), snowflake(parent), now],
    )?;
    Ok(())
}

/// Whether `channel` is noted as belonging to some server.
pub fn channel_guild_known(c: &Conn<'_>, channel: u64) -> Result<bool> {
    let found: Option<i64> = c.query_opt(
        "SELECT guild_id FROM discord_channel_guilds WHERE channel_id = ?1",
        params![snowflake(channel)],
        |r| r.get(0),
    )?;
    Ok(found.is_some())
}

/// The channels and threads noted as belonging to server `guild`.
pub fn channels_of_guild(c: &Conn<'_>, guild: u64) -> Result<Vec<u64>> {
    c.query_all(
        "SELECT channel_id FROM discord_channel_guilds WHERE guild_id = ?1 ORDER BY channel_id",
        params![snowflake(guild)],
        |r| Ok(snowflake_of(r.get(0)?)),
    )
}

/// Records that the bot was removed from `guild` at `at`; `false` when it already was (the
/// removal is acted on once, whichever instance saw it).
pub fn insert_guild_removal(c: &Conn<'_>, guild: u64, at: i64) -> Result<bool> {
    let inserted = c.execute(
        "INSERT INTO discord_removed_guilds (guild_id, removed_at) VALUES (?1, ?2) \
         ON CONFLICT (guild_id) DO NOTHING",
        params![snowflake(guild), at],
    )?;
    Ok(inserted == 1)
}

/// When the bot was removed from `guild`, if it was and its grace period is not over.
pub fn guild_removed_at(c: &Conn<'_>, guild: u64) -> Result<Option<i64>> {
    c.query_opt(
        "SELECT removed_at FROM discord_removed_guilds WHERE guild_id = ?1",
        params![snowflake(guild)],
        |r| r.get(0),
    )
}

/// Forgets the removal of `guild` (the bot is back, or the server's data is deleted);
/// `false` when there was none (another instance acted already).
pub fn delete_guild_removal(c: &Conn<'_>, guild: u64) -> Result<bool> {
    let deleted = c.execute(
        "DELETE FROM discord_removed_guilds WHERE guild_id = ?1",
        params![snowflake(guild)],
    )?;
    Ok(deleted == 1)
}

/// Whether `channel` belongs to a server the bot was removed from (within its grace period).
pub fn channel_in_removed_guild(c: &Conn<'_>, channel: u64) -> Result<bool> {
    let found: Option<i64> = c.query_opt(
        "SELECT r.removed_at FROM discord_channel_guilds g \
         JOIN discord_removed_guilds r ON r.guild_id = g.guild_id WHERE g.channel_id = ?1",
        params![snowflake(channel)],
        |r| r.get(0),
    )?;
    Ok(found.is_some())
}

/// Servers the bot was removed from at or before `cutoff`, the longest ago first.
pub fn guild_removals_before(c: &Conn<'_>, cutoff: i64) -> Result<Vec<u64>> {
    c.query_all(
        "SELECT guild_id FROM discord_removed_guilds WHERE removed_at <= ?1 \
         ORDER BY removed_at, guild_id",
        params![cutoff],
        |r| Ok(snowflake_of(r.get(0)?)),
    )
}

/// Pauses (`Some(at)`) or resumes (`None`) the clocks of `game`.
pub fn set_game_paused(c: &Conn<'_>, game: GameId, at: Option<i64>) -> Result<()> {
    c.execute(
        "UPDATE games SET paused_at = ?2 WHERE id = ?1",
        params![game, at],
    )?;
    Ok(())
}

/// Points the pending challenges placed in `context` at `label` (their channel's server is
/// gone): they are answered over HTTP, and nothing is posted for them there.
pub fn relabel_pending_challenges(c: &Conn<'_>, context: &str, label: &str) -> Result<()> {
    c.execute(
        "UPDATE challenges SET context = ?2 WHERE context = ?1 AND status = 'pending'",
        params![context, label],
    )?;
    Ok(())
}

/// The game threads made under channel `parent`.
pub fn game_threads_under(c: &Conn<'_>, parent: u64) -> Result<Vec<u64>> {
    c.query_all(
        "SELECT DISTINCT thread_id FROM discord_game_threads WHERE parent_id = ?1 \
         ORDER BY thread_id",
        params![snowflake(parent)],
        |r| Ok(snowflake_of(r.get(0)?)),
    )
}

/// Deletes what is kept about server `guild` and its `channels`: its settings, the channels
/// where games may start, who was seen there, the channels' notes, game threads, challenge
/// messages, tournament places and game copies, and every outbox row owed to them. Games and their records stay (they are the
/// players'); their places are changed by the caller.
pub fn delete_guild_rows(c: &Conn<'_>, guild: u64, channels: &[u64]) -> Result<()> {
    for channel in channels {
        let channel = snowflake(*channel);
        c.execute(
            "DELETE FROM discord_outbox WHERE channel_id = ?1 AND dm_user_id IS NULL",
            params![channel],
        )?;
        c.execute(
            "DELETE FROM discord_challenge_posts WHERE channel_id = ?1",
            params![channel],
        )?;
        c.execute(
            "DELETE FROM discord_game_threads WHERE thread_id = ?1 OR parent_id = ?1",
            params![channel],
        )?;
        c.execute(
            "DELETE FROM discord_game_mirrors WHERE channel_id = ?1 OR parent_id = ?1",
            params![channel],
        )?;
    }
    let guild = snowflake(guild);
    for table in [
        "discord_guild_settings",
        "discord_game_channels",
        "discord_guild_players",
        "discord_channel_guilds",
        "tournament_discord_places",
    ] {
        c.execute(
            &format!("DELETE FROM {table} WHERE guild_id = ?1"),
            params![guild],
        )?;
    }
    Ok(())
}

/// How many rows are kept about server `guild` (tests, diagnostics): settings, game
/// channels, players seen, channel notes.
pub fn guild_row_count(c: &Conn<'_>, guild: u64) -> Result<u64> {
    let n: i64 = c.query_one(
        "SELECT (SELECT COUNT(*) FROM discord_guild_settings WHERE guild_id = ?1) \
         + (SELECT COUNT(*) FROM discord_game_channels WHERE guild_id = ?1) \
         + (SELECT COUNT(*) FROM discord_guild_players WHERE guild_id = ?1) \
         + (SELECT COUNT(*) FROM discord_channel_guilds WHERE guild_id = ?1) \
         + (SELECT COUNT(*) FROM tournament_discord_places WHERE guild_id = ?1)",
        params![snowflake(guild)],
        |r| r.get(0),
    )?;
    Ok(u64::try_from(n).unwrap_or_default())
}
