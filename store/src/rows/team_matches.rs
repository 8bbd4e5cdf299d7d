//! Team matches: the match, its two teams, who plays on which board, and each board's games.

use crate::{Conn, Row, params};

use super::*;
use crate::domain::{MatchStatus, TeamMatchId, TeamSide};

#[derive(Debug, Clone, PartialEq)]
pub struct TeamMatchRow {
    pub id: TeamMatchId,
    pub name: String,
    pub organiser: PlayerId,
    pub variant: Option<String>,
    pub rules: String,
    /// The games' clock as JSON (the service's `ClockSpec`).
    pub clock: String,
    pub rated: bool,
    pub max_boards: u32,
    pub status: MatchStatus,
    pub winner: Option<TeamSide>,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
}

const MATCH_COLS: &str = "id, name, organiser, variant, rules, clock, rated, max_boards, status, \
    winner, created_at, started_at, finished_at";

fn match_from(r: &Row<'_>) -> Result<TeamMatchRow> {
    Ok(TeamMatchRow {
        id: r.get(0)?,
        name: r.get(1)?,
        organiser: r.get(2)?,
        variant: r.get(3)?,
        rules: r.get(4)?,
        clock: r.get(5)?,
        rated: r.get(6)?,
        max_boards: r.get(7)?,
        status: r.get(8)?,
        winner: r.get(9)?,
        created_at: r.get(10)?,
        started_at: r.get(11)?,
        finished_at: r.get(12)?,
    })
}

pub fn insert_team_match(c: &Conn<'_>, m: &TeamMatchRow) -> Result<TeamMatchId> {
    let id = c.insert_returning_id(
        "INSERT INTO team_matches (name, organiser, variant, rules, clock, rated, max_boards, \
         status, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) RETURNING id",
        params![
            m.name,
            m.organiser,
            m.variant,
            m.rules,
            m.clock,
            m.rated,
            m.max_boards,
            m.status,
            m.created_at
        ],
    )?;
    Ok(TeamMatchId(id))
}

pub fn team_match(c: &Conn<'_>, id: TeamMatchId) -> Result<Option<TeamMatchRow>> {
    c.query_opt(
        &format!("SELECT {MATCH_COLS} FROM team_matches WHERE id = ?1"),
        params![id],
        match_from,
    )
}

/// The newest team matches first, at most `limit`.
pub fn team_matches(c: &Conn<'_>, limit: u32) -> Result<Vec<TeamMatchRow>> {
    c.query_all(
        &format!("SELECT {MATCH_COLS} FROM team_matches ORDER BY id DESC LIMIT ?1"),
        params![limit],
        match_from,
    )
}

/// Writes the state of a match (status, winner and times).
pub fn update_team_match_state(c: &Conn<'_>, m: &TeamMatchRow) -> Result<()> {
    c.execute(
        "UPDATE team_matches SET status = ?2, winner = ?3, started_at = ?4, finished_at = ?5 \
         WHERE id = ?1",
        params![m.id, m.status, m.winner, m.started_at, m.finished_at],
    )?;
    Ok(())
}

/// A team: its name, and for a Discord server's team that server and its channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamRow {
    pub team: TeamSide,
    pub name: String,
    pub guild_id: Option<u64>,
    pub channel_id: Option<u64>,
}

fn snowflake(id: Option<u64>) -> Option<i64> {
    id.map(|id| i64::try_from(id).unwrap_or(i64::MAX))
}

fn snowflake_of(r: &Row<'_>, column: usize) -> Result<Option<u64>> {
    Ok(r.get::<Option<i64>>(column)?
        .and_then(|id| u64::try_from(id).ok()))
}

/// Writes (or renames and re-places) a team of `id`.
pub fn set_team(c: &Conn<'_>, id: TeamMatchId, team: &TeamRow) -> Result<()> {
    c.execute(
        "INSERT INTO team_match_teams (match_id, team, name, guild_id, channel_id) \
         VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (match_id, team) DO UPDATE SET \
         name = excluded.name, guild_id = excluded.guild_id, channel_id = excluded.channel_id",
        params![
            id,
            team.team,
            team.name,
            snowflake(team.guild_id),
            snowflake(team.channel_id)
        ],
    )?;
    Ok(())
}

/// The two teams of `id`, home first.
pub fn teams(c: &Conn<'_>, id: TeamMatchId) -> Result<Vec<TeamRow>> {
    c.query_all(
        "SELECT team, name, guild_id, channel_id FROM team_match_teams WHERE match_id = ?1 \
         ORDER BY CASE team WHEN 'home' THEN 0 ELSE 1 END",
        params![id],
        |r| {
            Ok(TeamRow {
                team: r.get(0)?,
                name: r.get(1)?,
                guild_id: snowflake_of(r, 2)?,
                channel_id: snowflake_of(r, 3)?,
            })
        },
    )
}

/// One player on one board of one team.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TeamPlayerRow {
    pub team: TeamSide,
    pub board: u32,
    pub player: PlayerId,
}

/// Seats `player` on `board` of `team`; false when they already play in the match.
pub fn insert_team_player(c: &Conn<'_>, id: TeamMatchId, p: TeamPlayerRow) -> Result<bool> {
    let added = c.execute(
        "INSERT INTO team_match_players (match_id, team, board, player_id) \
         VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
        params![id, p.team, p.board, p.player],
    )?;
    Ok(added == 1)
}

/// Everyone in the match, by team (home first) and board.
pub fn team_players(c: &Conn<'_>, id: TeamMatchId) -> Result<Vec<TeamPlayerRow>> {
    c.query_all(
        "SELECT team, board, player_id FROM team_match_players WHERE match_id = ?1 \
         ORDER BY CASE team WHEN 'home' THEN 0 ELSE 1 END, board",
        params![id],
        |r| {
            Ok(TeamPlayerRow {
                team: r.get(0)?,
                board: r.get(1)?,
                player: r.get(2)?,
            })
        },
    )
}

/// Takes `player` off their board of match `id`; false when they play no board in it.
pub fn delete_team_player(c: &Conn<'_>, id: TeamMatchId, player: PlayerId) -> Result<bool> {
    let removed = c.execute(
        "DELETE FROM team_match_players WHERE match_id = ?1 AND player_id = ?2",
        params![id, player],
    )?;
    Ok(removed == 1)
}

/// Moves `player` of match `id` to `board` of their team (which must be free: boards are
/// unique within a team).
pub fn move_team_player(c: &Conn<'_>, id: TeamMatchId, player: PlayerId, board: u32) -> Result<()> {
    c.execute(
        "UPDATE team_match_players SET board = ?3 WHERE match_id = ?1 AND player_id = ?2",
        params![id, player, board],
    )?;
    Ok(())
}

pub fn insert_team_match_game(
    c: &Conn<'_>,
    id: TeamMatchId,
    board: u32,
    game: GameId,
) -> Result<()> {
    c.execute(
        "INSERT INTO team_match_games (game_id, match_id, board) VALUES (?1, ?2, ?3)",
        params![game, id, board],
    )?;
    Ok(())
}

/// A board's game with what it has come to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamMatchGameRow {
    pub board: u32,
    pub game: GameId,
    pub attackers: PlayerId,
    pub defenders: PlayerId,
    pub status: GameStatus,
    pub winner: Option<Side>,
    pub reason: Option<ResultReason>,
    pub side_to_move: Side,
}

/// Every game of the match, by board (the home player's attacking game first).
pub fn team_match_games(c: &Conn<'_>, id: TeamMatchId) -> Result<Vec<TeamMatchGameRow>> {
    c.query_all(
        "SELECT m.board, g.id, g.attackers_player, g.defenders_player, g.status, g.winner, g.result_reason, \
         g.side_to_move FROM team_match_games m JOIN games g ON g.id = m.game_id \
         WHERE m.match_id = ?1 ORDER BY m.board, g.id",
        params![id],
        |r| {
            Ok(TeamMatchGameRow {
                board: r.get(0)?,
                game: r.get(1)?,
                attackers: r.get(2)?,
                defenders: r.get(3)?,
                status: r.get(4)?,
                winner: r.get::<Option<SideColumn>>(5)?.map(|s| s.0),
                reason: r.get(6)?,
                side_to_move: r.get::<SideColumn>(7)?.0,
            })
        },
    )
}

/// The match `game` is played in, if any.
pub fn team_match_of_game(c: &Conn<'_>, game: GameId) -> Result<Option<TeamMatchId>> {
    c.query_opt(
        "SELECT match_id FROM team_match_games WHERE game_id = ?1",
        params![game],
        |r| r.get(0),
    )
}

/// The channel where `player`'s copy of a piece of the match's news goes: their team's
/// channel, if they play its first board (each team's channel gets each piece once).
pub fn team_match_news_channel(
    c: &Conn<'_>,
    id: TeamMatchId,
    player: PlayerId,
) -> Result<Option<u64>> {
    let channel: Option<Option<i64>> = c.query_opt(
        "SELECT t.channel_id FROM team_match_players p JOIN team_match_teams t \
         ON t.match_id = p.match_id AND t.team = p.team \
         WHERE p.match_id = ?1 AND p.player_id = ?2 AND p.board = 1",
        params![id, player],
        |r| r.get(0),
    )?;
    Ok(channel.flatten().and_then(|c| u64::try_from(c).ok()))
}

/// The server of `channel`, as a team of a match played from it gave it.
pub fn guild_of_team_match_channel(c: &Conn<'_>, channel: u64) -> Result<Option<u64>> {
    let guild: Option<Option<i64>> = c.query_opt(
        "SELECT guild_id FROM team_match_teams WHERE channel_id = ?1 LIMIT 1",
        params![snowflake(Some(channel))],
        |r| r.get(0),
    )?;
    Ok(guild.flatten().and_then(|g| u64::try_from(g).ok()))
}
