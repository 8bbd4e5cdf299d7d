//! Tournaments, their players, the pairings of each round and the byes.

use crate::{Conn, Row, params};

use super::*;
use crate::domain::{TournamentId, TournamentStatus, WithdrawalRule};

#[derive(Debug, Clone, PartialEq)]
pub struct TournamentRow {
    pub id: TournamentId,
    pub name: String,
    pub organiser: PlayerId,
    /// The format as JSON (the service's `Format`).
    pub format: String,
    pub variant: Option<String>,
    pub rules: String,
    /// The games' clock as JSON (the service's `ClockSpec`).
    pub clock: String,
    pub rated: bool,
    pub min_players: u32,
    pub max_players: u32,
    pub starts_at: Option<i64>,
    pub status: TournamentStatus,
    pub round: u32,
    pub winner: Option<PlayerId>,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    /// Days between round starts (round N no earlier than the start plus N - 1 times this);
    /// `None`: each round as soon as the one before ends.
    pub round_days: Option<u32>,
    /// What a withdrawal does to the player's games.
    pub withdrawal: WithdrawalRule,
}

const TOURNAMENT_COLS: &str = "id, name, organiser, format, variant, rules, clock, rated, \
    min_players, max_players, starts_at, status, round, winner, created_at, started_at, \
    finished_at, round_days, withdrawal";

fn tournament_from(r: &Row<'_>) -> Result<TournamentRow> {
    Ok(TournamentRow {
        id: r.get(0)?,
        name: r.get(1)?,
        organiser: r.get(2)?,
        format: r.get(3)?,
        variant: r.get(4)?,
        rules: r.get(5)?,
        clock: r.get(6)?,
        rated: r.get(7)?,
        min_players: r.get(8)?,
        max_players: r.get(9)?,
        starts_at: r.get(10)?,
        status: r.get(11)?,
        round: r.get(12)?,
        winner: r.get(13)?,
        created_at: r.get(14)?,
        started_at: r.get(15)?,
        finished_at: r.get(16)?,
        round_days: r.get(17)?,
        withdrawal: r.get(18)?,
    })
}

pub fn insert_tournament(c: &Conn<'_>, t: &TournamentRow) -> Result<TournamentId> {
    let id = c.insert_returning_id(
        "INSERT INTO tournaments (name, organiser, format, variant, rules, clock, rated, \
         min_players, max_players, starts_at, status, round, created_at, round_days, \
         withdrawal) VALUES \
         (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 0, ?12, ?13, ?14) RETURNING id",
        params![
            t.name,
            t.organiser,
            t.format,
            t.variant,
            t.rules,
            t.clock,
            t.rated,
            t.min_players,
            t.max_players,
            t.starts_at,
            t.status,
            t.created_at,
            t.round_days,
            t.withdrawal
        ],
    )?;
    Ok(TournamentId(id))
}

pub fn tournament(c: &Conn<'_>, id: TournamentId) -> Result<Option<TournamentRow>> {
    c.query_opt(
        &format!("SELECT {TOURNAMENT_COLS} FROM tournaments WHERE id = ?1"),
        params![id],
        tournament_from,
    )
}

/// The newest tournaments first, at most `limit`.
pub fn tournaments(c: &Conn<'_>, limit: u32) -> Result<Vec<TournamentRow>> {
    c.query_all(
        &format!("SELECT {TOURNAMENT_COLS} FROM tournaments ORDER BY id DESC LIMIT ?1"),
        params![limit],
        tournament_from,
    )
}

/// Tournaments in sign-up whose start time has come by `now`.
pub fn tournaments_due_to_start(c: &Conn<'_>, now: i64) -> Result<Vec<TournamentId>> {
    c.query_all(
        "SELECT id FROM tournaments WHERE status = ?1 AND starts_at IS NOT NULL \
         AND starts_at <= ?2 ORDER BY id",
        params![TournamentStatus::SignUp, now],
        |r| r.get(0),
    )
}

/// Running tournaments with rounds at set times whose next round's day has come by `now` (the
/// scheduler starts that round once the round before is done); the others cost no write.
pub fn scheduled_running_tournaments(c: &Conn<'_>, now: i64) -> Result<Vec<TournamentId>> {
    c.query_all(
        "SELECT id FROM tournaments WHERE status = ?1 AND round_days IS NOT NULL \
         AND started_at + round * round_days * 86400000 <= ?2 ORDER BY id",
        params![TournamentStatus::Running, now],
        |r| r.get(0),
    )
}

/// Writes the state of a tournament (status, round, winner and times).
pub fn update_tournament_state(c: &Conn<'_>, t: &TournamentRow) -> Result<()> {
    c.execute(
        "UPDATE tournaments SET status = ?2, round = ?3, winner = ?4, started_at = ?5, \
         finished_at = ?6 WHERE id = ?1",
        params![
            t.id,
            t.status,
            t.round,
            t.winner,
            t.started_at,
            t.finished_at
        ],
    )?;
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TournamentPlayerRow {
    pub player: PlayerId,
    pub seed_rating: i32,
    pub joined_at: i64,
    pub withdrawn_at: Option<i64>,
    /// Decided when the player withdrew, by the tournament's rule: none of their games count.
    pub games_annulled: bool,
}

/// Adds `player`; false when they had already joined.
pub fn insert_tournament_player(
    c: &Conn<'_>,
    tournament: TournamentId,
    row: TournamentPlayerRow,
) -> Result<bool> {
    let added = c.execute(
        "INSERT INTO tournament_players (tournament_id, player_id, seed_rating, joined_at) \
         VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
        params![tournament, row.player, row.seed_rating, row.joined_at],
    )?;
    Ok(added == 1)
}

/// Removes `player` before the start; false when they were not in it.
pub fn delete_tournament_player(
    c: &Conn<'_>,
    tournament: TournamentId,
    player: PlayerId,
) -> Result<bool> {
    let removed = c.execute(
        "DELETE FROM tournament_players WHERE tournament_id = ?1 AND player_id = ?2",
        params![tournament, player],
    )?;
    Ok(removed == 1)
}

/// Marks `player` withdrawn after the start, with whether their games are annulled; false
/// when they were not playing in it.
pub fn withdraw_tournament_player(
    c: &Conn<'_>,
    tournament: TournamentId,
    player: PlayerId,
    now: i64,
    games_annulled: bool,
) -> Result<bool> {
    let changed = c.execute(
        "UPDATE tournament_players SET withdrawn_at = ?3, games_annulled = ?4 \
         WHERE tournament_id = ?1 AND player_id = ?2 AND withdrawn_at IS NULL",
        params![tournament, player, now, games_annulled],
    )?;
    Ok(changed == 1)
}

/// The players in the order they joined.
pub fn tournament_players(
    c: &Conn<'_>,
    tournament: TournamentId,
) -> Result<Vec<TournamentPlayerRow>> {
    c.query_all(
        "SELECT player_id, seed_rating, joined_at, withdrawn_at, games_annulled \
         FROM tournament_players \
         WHERE tournament_id = ?1 ORDER BY joined_at, player_id",
        params![tournament],
        |r| {
            Ok(TournamentPlayerRow {
                player: r.get(0)?,
                seed_rating: r.get(1)?,
                joined_at: r.get(2)?,
                withdrawn_at: r.get(3)?,
                games_annulled: r.get(4)?,
            })
        },
    )
}

/// A pairing to store: a game, or a forfeit won without one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewTournamentGame {
    pub round: u32,
    pub attackers: PlayerId,
    pub defenders: PlayerId,
    pub game: Option<GameId>,
    pub forfeit_winner: Option<PlayerId>,
}

pub fn insert_tournament_game(
    c: &Conn<'_>,
    tournament: TournamentId,
    g: NewTournamentGame,
) -> Result<()> {
    c.execute(
        "INSERT INTO tournament_games (tournament_id, round, attackers, defenders, game_id, \
         forfeit_winner) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            tournament,
            g.round,
            g.attackers,
            g.defenders,
            g.game,
            g.forfeit_winner
        ],
    )?;
    Ok(())
}

/// A pairing with what its game has come to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentGameRow {
    pub round: u32,
    pub attackers: PlayerId,
    pub defenders: PlayerId,
    pub game: Option<GameId>,
    pub forfeit_winner: Option<PlayerId>,
    /// The game's status, winner, reason and side to move (who had not moved, for a game
    /// aborted for want of a first move); `None` for a forfeit.
    pub status: Option<GameStatus>,
    pub winner: Option<Side>,
    pub reason: Option<ResultReason>,
    pub side_to_move: Option<Side>,
}

/// Every pairing of `tournament`, by round.
pub fn tournament_games(c: &Conn<'_>, tournament: TournamentId) -> Result<Vec<TournamentGameRow>> {
    c.query_all(
        "SELECT t.round, t.attackers, t.defenders, t.game_id, t.forfeit_winner, g.status, \
         g.winner, g.result_reason, g.side_to_move FROM tournament_games t \
         LEFT JOIN games g ON g.id = t.game_id WHERE t.tournament_id = ?1 ORDER BY t.round, t.id",
        params![tournament],
        |r| {
            Ok(TournamentGameRow {
                round: r.get(0)?,
                attackers: r.get(1)?,
                defenders: r.get(2)?,
                game: r.get(3)?,
                forfeit_winner: r.get(4)?,
                status: r.get(5)?,
                winner: r.get::<Option<SideColumn>>(6)?.map(|s| s.0),
                reason: r.get(7)?,
                side_to_move: r.get::<Option<SideColumn>>(8)?.map(|s| s.0),
            })
        },
    )
}

/// The tournament a game belongs to, if any.
pub fn tournament_of_game(c: &Conn<'_>, game: GameId) -> Result<Option<TournamentId>> {
    c.query_opt(
        "SELECT tournament_id FROM tournament_games WHERE game_id = ?1",
        params![game],
        |r| r.get(0),
    )
}

pub fn insert_tournament_bye(
    c: &Conn<'_>,
    tournament: TournamentId,
    round: u32,
    player: PlayerId,
) -> Result<()> {
    c.execute(
        "INSERT INTO tournament_byes (tournament_id, round, player_id) VALUES (?1, ?2, ?3)",
        params![tournament, round, player],
    )?;
    Ok(())
}

/// Every bye as (round, player), by round.
pub fn tournament_byes(c: &Conn<'_>, tournament: TournamentId) -> Result<Vec<(u32, PlayerId)>> {
    c.query_all(
        "SELECT round, player_id FROM tournament_byes WHERE tournament_id = ?1 ORDER BY round",
        params![tournament],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}
