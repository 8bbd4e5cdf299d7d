//! What is kept about one player, counted for them (`/privacy`), and erasing it: credentials,
//! preferences, webhooks and Discord links deleted, the player row anonymised. Games stay:
//! they belong to their opponents too.

use crate::{Conn, params};

use super::*;
use crate::domain::Handle;

/// How many rows of each kind are kept about a player.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PersonalDataCounts {
    pub active_games: u64,
    pub finished_games: u64,
    pub pending_challenges: u64,
    pub api_tokens: u64,
    pub web_sessions: u64,
    pub webhooks: u64,
    pub servers_seen_in: u64,
    pub rated_variants: u64,
}

fn count(c: &Conn<'_>, sql: &str, player: PlayerId) -> Result<u64> {
    let n: i64 = c.query_one(sql, params![player], |r| r.get(0))?;
    Ok(u64::try_from(n).unwrap_or_default())
}

pub fn personal_data_counts(c: &Conn<'_>, player: PlayerId) -> Result<PersonalDataCounts> {
    let games = |status: &str| {
        format!(
            "SELECT COUNT(*) FROM games WHERE {status} AND \
             (attackers_player = ?1 OR defenders_player = ?1)"
        )
    };
    Ok(PersonalDataCounts {
        active_games: count(c, &games("status = 'active'"), player)?,
        finished_games: count(c, &games("status <> 'active'"), player)?,
        pending_challenges: count(
            c,
            "SELECT COUNT(*) FROM challenges WHERE status = 'pending' AND \
             (challenger = ?1 OR opponent = ?1)",
            player,
        )?,
        api_tokens: count(
            c,
            "SELECT COUNT(*) FROM api_tokens WHERE player_id = ?1",
            player,
        )?,
        web_sessions: count(
            c,
            "SELECT COUNT(*) FROM web_sessions WHERE player_id = ?1",
            player,
        )?,
        webhooks: count(
            c,
            "SELECT COUNT(*) FROM webhooks WHERE player_id = ?1 AND active = TRUE",
            player,
        )?,
        servers_seen_in: count(
            c,
            "SELECT COUNT(*) FROM discord_guild_players WHERE player_id = ?1",
            player,
        )?,
        rated_variants: count(
            c,
            "SELECT COUNT(*) FROM ratings WHERE player_id = ?1",
            player,
        )?,
    })
}

/// Deletes what is personal about `player` and anonymises their row: `name` and `handle`
/// replace theirs, the Discord account is unlinked. Their games, moves, ratings and events
/// stay (under the new name), so their opponents keep their games.
pub fn erase_player(
    c: &Conn<'_>,
    player: PlayerId,
    name: &str,
    handle: &Handle,
    discord_user: Option<u64>,
) -> Result<()> {
    for sql in [
        "DELETE FROM deliveries WHERE webhook_id IN (SELECT id FROM webhooks WHERE player_id = ?1)",
        "DELETE FROM webhooks WHERE player_id = ?1",
        "DELETE FROM web_sessions WHERE player_id = ?1",
        "DELETE FROM login_links WHERE player_id = ?1",
        "DELETE FROM api_tokens WHERE player_id = ?1",
        "DELETE FROM idempotency_keys WHERE player_id = ?1",
        "DELETE FROM player_preferences WHERE player_id = ?1",
        "DELETE FROM mail_turn_notices WHERE player_id = ?1",
        "DELETE FROM mail_outbox WHERE player_id = ?1",
        "DELETE FROM mail_subscriptions WHERE player_id = ?1",
        "DELETE FROM discord_guild_players WHERE player_id = ?1",
        "UPDATE analyses SET requested_by = NULL WHERE requested_by = ?1",
    ] {
        c.execute(sql, params![player])?;
    }
    if let Some(user) = discord_user {
        c.execute(
            "DELETE FROM discord_outbox WHERE dm_user_id = ?1 AND status = 'pending'",
            params![i64::try_from(user).unwrap_or(i64::MAX)],
        )?;
    }
    c.execute(
        "UPDATE players SET name = ?2, handle = ?3, discord_user_id = NULL, discord_dm = FALSE, \
         discord_dms_closed_untold = FALSE WHERE id = ?1",
        params![player, name, handle],
    )?;
    Ok(())
}
