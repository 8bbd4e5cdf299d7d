//! Tournaments in Discord: the server and channel each player joined from, and the extra
//! channels (threads, once opened) a game is shown in.

use crate::{Conn, Row, params};

use super::*;
use crate::domain::TournamentId;

fn snowflake(id: u64) -> i64 {
    i64::try_from(id).unwrap_or(i64::MAX)
}

fn snowflake_of(r: &Row<'_>, column: usize) -> Result<u64> {
    Ok(u64::try_from(r.get::<i64>(column)?).unwrap_or_default())
}

/// Where a player joined a tournament from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TournamentDiscordPlace {
    pub player: PlayerId,
    pub guild_id: u64,
    pub channel_id: u64,
}

fn place_from(r: &Row<'_>) -> Result<TournamentDiscordPlace> {
    Ok(TournamentDiscordPlace {
        player: r.get(0)?,
        guild_id: snowflake_of(r, 1)?,
        channel_id: snowflake_of(r, 2)?,
    })
}

/// Records (or moves) the place `player` plays `tournament` from.
pub fn set_tournament_discord_place(
    c: &Conn<'_>,
    tournament: TournamentId,
    place: TournamentDiscordPlace,
) -> Result<()> {
    c.execute(
        "INSERT INTO tournament_discord_places (tournament_id, player_id, guild_id, channel_id) \
         VALUES (?1, ?2, ?3, ?4) ON CONFLICT (tournament_id, player_id) DO UPDATE SET \
         guild_id = excluded.guild_id, channel_id = excluded.channel_id",
        params![
            tournament,
            place.player,
            snowflake(place.guild_id),
            snowflake(place.channel_id)
        ],
    )?;
    Ok(())
}

/// Forgets where `player` joined `tournament` from (they left it, or joined again elsewhere).
pub fn delete_tournament_discord_place(
    c: &Conn<'_>,
    tournament: TournamentId,
    player: PlayerId,
) -> Result<()> {
    c.execute(
        "DELETE FROM tournament_discord_places WHERE tournament_id = ?1 AND player_id = ?2",
        params![tournament, player],
    )?;
    Ok(())
}

/// Where each player of `tournament` who joined from Discord plays from.
pub fn tournament_discord_places(
    c: &Conn<'_>,
    tournament: TournamentId,
) -> Result<Vec<TournamentDiscordPlace>> {
    c.query_all(
        "SELECT player_id, guild_id, channel_id FROM tournament_discord_places \
         WHERE tournament_id = ?1 ORDER BY player_id",
        params![tournament],
        place_from,
    )
}

/// The channel where `player`'s copy of a piece of `tournament`'s news goes: their place's
/// channel, if they are the first player still in the tournament who joined from it (each
/// channel gets each piece of news once, though every player is sent one).
pub fn tournament_news_channel(
    c: &Conn<'_>,
    tournament: TournamentId,
    player: PlayerId,
) -> Result<Option<u64>> {
    let channel: Option<i64> = c.query_opt(
        "SELECT p.channel_id FROM tournament_discord_places p \
         WHERE p.tournament_id = ?1 AND p.player_id = ?2 AND NOT EXISTS ( \
           SELECT 1 FROM tournament_discord_places q \
           JOIN tournament_players tp \
             ON tp.tournament_id = q.tournament_id AND tp.player_id = q.player_id \
           WHERE q.tournament_id = ?1 AND q.channel_id = p.channel_id \
             AND q.player_id < ?2 AND tp.withdrawn_at IS NULL)",
        params![tournament, player],
        |r| r.get(0),
    )?;
    Ok(channel.and_then(|c| u64::try_from(c).ok()))
}

/// A channel a game is shown in besides its own place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameMirrorRow {
    pub game_id: GameId,
    /// The channel it hangs off (where the player joined the tournament from).
    pub parent_id: u64,
    /// Where its posts go: a thread of the parent once opened, else the parent.
    pub channel_id: u64,
}

fn mirror_from(r: &Row<'_>) -> Result<GameMirrorRow> {
    Ok(GameMirrorRow {
        game_id: r.get(0)?,
        parent_id: snowflake_of(r, 1)?,
        channel_id: snowflake_of(r, 2)?,
    })
}

/// Shows `game` in `channel` too (its posts go there from now on); nothing if it already is.
pub fn insert_game_mirror(c: &Conn<'_>, game: GameId, channel: u64) -> Result<()> {
    c.execute(
        "INSERT INTO discord_game_mirrors (game_id, parent_id, channel_id) VALUES (?1, ?2, ?2) \
         ON CONFLICT (game_id, parent_id) DO NOTHING",
        params![game, snowflake(channel)],
    )?;
    Ok(())
}

/// The channels `game` is shown in besides its own place.
pub fn game_mirrors(c: &Conn<'_>, game: GameId) -> Result<Vec<GameMirrorRow>> {
    c.query_all(
        "SELECT game_id, parent_id, channel_id FROM discord_game_mirrors WHERE game_id = ?1 \
         ORDER BY parent_id",
        params![game],
        mirror_from,
    )
}

/// The mirror of `game` whose posts go to `channel`, if there is one.
pub fn game_mirror_in(c: &Conn<'_>, game: GameId, channel: u64) -> Result<Option<GameMirrorRow>> {
    c.query_opt(
        "SELECT game_id, parent_id, channel_id FROM discord_game_mirrors \
         WHERE game_id = ?1 AND channel_id = ?2",
        params![game, snowflake(channel)],
        mirror_from,
    )
}

/// The mirror of `game` hanging off `parent` is shown in `thread` from now on.
pub fn set_game_mirror_thread(c: &Conn<'_>, game: GameId, parent: u64, thread: u64) -> Result<()> {
    c.execute(
        "UPDATE discord_game_mirrors SET channel_id = ?3 WHERE game_id = ?1 AND parent_id = ?2",
        params![game, snowflake(parent), snowflake(thread)],
    )?;
    Ok(())
}

/// The mirrors played in `thread`, a thread of the channel each hangs off.
pub fn game_mirrors_in_thread(c: &Conn<'_>, thread: u64) -> Result<Vec<GameMirrorRow>> {
    c.query_all(
        "SELECT game_id, parent_id, channel_id FROM discord_game_mirrors \
         WHERE channel_id = ?1 AND parent_id <> ?1 ORDER BY game_id",
        params![snowflake(thread)],
        mirror_from,
    )
}

/// `game` is no longer shown in the channel `parent` (the channel is gone).
pub fn delete_game_mirror(c: &Conn<'_>, game: GameId, parent: u64) -> Result<()> {
    c.execute(
        "DELETE FROM discord_game_mirrors WHERE game_id = ?1 AND parent_id = ?2",
        params![game, snowflake(parent)],
    )?;
    Ok(())
}

/// The active games shown in `channel` as a mirror.
pub fn active_games_mirrored_in(c: &Conn<'_>, channel: u64) -> Result<Vec<GameId>> {
    c.query_all(
        "SELECT m.game_id FROM discord_game_mirrors m JOIN games g ON g.id = m.game_id \
         WHERE m.channel_id = ?1 AND g.status = 'active' ORDER BY m.game_id",
        params![snowflake(channel)],
        |r| r.get(0),
    )
}

/// The server of `channel`, as a player joining a tournament from it gave it.
pub fn guild_of_tournament_channel(c: &Conn<'_>, channel: u64) -> Result<Option<u64>> {
    let guild: Option<i64> = c.query_opt(
        "SELECT guild_id FROM tournament_discord_places WHERE channel_id = ?1 LIMIT 1",
        params![snowflake(channel)],
        |r| r.get(0),
    )?;
    Ok(guild.and_then(|g| u64::try_from(g).ok()))
}

/// Moves the pending posts of `game` owed to channel `from` to channel `to` (a copy of the
/// game moved into a thread), due from `now`, except that `in_flight` (the post being
/// delivered as the thread was opened) keeps its claim: no other worker takes it meanwhile.
pub fn move_mirror_posts(
    c: &Conn<'_>,
    game: GameId,
    from: u64,
    to: u64,
    now: i64,
    in_flight: OutboxId,
) -> Result<usize> {
    c.execute(
        "UPDATE discord_outbox SET channel_id = ?3, \
         next_attempt_at = CASE WHEN id = ?5 THEN next_attempt_at ELSE ?4 END \
         WHERE status = 'pending' AND dm_user_id IS NULL AND channel_id = ?2 \
           AND event_id IN (SELECT id FROM events WHERE game_id = ?1)",
        params![game, snowflake(from), snowflake(to), now, in_flight],
    )
}
