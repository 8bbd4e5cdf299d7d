//! A Discord server's settings (`/settings`) and the channels where its games may start.

use crate::{Conn, params};

use super::*;

/// A server's stored settings; `None` columns fall back to the bot's defaults.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GuildSettingsRow {
    pub guild_id: u64,
    pub default_variant: Option<String>,
    pub default_clock: Option<String>,
    pub ai_level: Option<u8>,
    pub threads: bool,
    pub moderator_role: Option<u64>,
    /// The channels where games may start; empty: any.
    pub game_channels: Vec<u64>,
}

/// Snowflakes are below 2^63, so they fit SQLite's signed integers as they are.
fn snowflake(id: u64) -> i64 {
    i64::try_from(id).unwrap_or(i64::MAX)
}

fn from_snowflake(id: i64) -> u64 {
    u64::try_from(id).unwrap_or_default()
}

/// The settings of `guild`, if it ever saved any.
pub fn guild_settings(c: &Conn<'_>, guild: u64) -> Result<Option<GuildSettingsRow>> {
    let row = c.query_opt(
        "SELECT default_variant, default_clock, ai_level, threads, moderator_role \
             FROM discord_guild_settings WHERE guild_id = ?1",
        params![snowflake(guild)],
        |r| {
            Ok(GuildSettingsRow {
                guild_id: guild,
                default_variant: r.get(0)?,
                default_clock: r.get(1)?,
                // A level beyond `u8` is corrupt data: an error, never the strongest AI.
                ai_level: r.get::<Option<u8>>(2)?,
                threads: r.get(3)?,
                moderator_role: r.get::<Option<i64>>(4)?.map(from_snowflake),
                game_channels: Vec::new(),
            })
        },
    )?;
    let Some(mut row) = row else {
        return Ok(None);
    };
    row.game_channels = c.query_all(
        "SELECT channel_id FROM discord_game_channels WHERE guild_id = ?1 ORDER BY channel_id",
        params![snowflake(guild)],
        |r| r.get::<i64>(0).map(from_snowflake),
    )?;
    Ok(Some(row))
}

/// Writes the whole settings of a server (its channel list included).
pub fn save_guild_settings(c: &Conn<'_>, row: &GuildSettingsRow, now: i64) -> Result<()> {
    c.execute("INSERT INTO discord_guild_settings \
             (guild_id, default_variant, default_clock, ai_level, threads, moderator_role, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
         ON CONFLICT (guild_id) DO UPDATE SET default_variant = ?2, default_clock = ?3, \
             ai_level = ?4, threads = ?5, moderator_role = ?6, updated_at = ?7", params![
        snowflake(row.guild_id),
        row.default_variant,
        row.default_clock,
        row.ai_level.map(i64::from),
        row.threads,
        row.moderator_role.map(snowflake),
        now
    ])?;
    c.execute(
        "DELETE FROM discord_game_channels WHERE guild_id = ?1",
        params![snowflake(row.guild_id)],
    )?;
    for channel in &row.game_channels {
        c.execute(
            "INSERT INTO discord_game_channels (guild_id, channel_id) VALUES (?1, ?2) \
             ON CONFLICT DO NOTHING",
            params![snowflake(row.guild_id), snowflake(*channel)],
        )?;
    }
    Ok(())
}
