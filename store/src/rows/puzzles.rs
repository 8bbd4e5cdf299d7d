//! Puzzles mined from games, the players' puzzle ratings, their attempts, and the games mined.

use crate::{Conn, Row, params};

use super::*;
use crate::domain::PuzzleId;

#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleRow {
    pub id: PuzzleId,
    pub variant: String,
    /// OpenTafl rules string of the source game.
    pub rules: String,
    /// OpenTafl position record.
    pub position: String,
    pub side_to_move: Side,
    /// The line, moves apart by spaces, the solver's first.
    pub solution: String,
    /// `escape`, `capture_king` or `material`.
    pub theme: String,
    pub game_id: GameId,
    /// Plies of the source game played before the position.
    pub ply: u32,
    pub glicko: Glicko,
    pub attempts: u32,
    pub solved: u32,
    pub created_at: i64,
}

const COLS: &str = "id, variant, rules, position, side_to_move, solution, theme, game_id, ply, \
                    rating, deviation, volatility, attempts, solved, created_at";

fn puzzle_from(r: &Row<'_>) -> Result<PuzzleRow> {
    Ok(PuzzleRow {
        id: r.get(0)?,
        variant: r.get(1)?,
        rules: r.get(2)?,
        position: r.get(3)?,
        side_to_move: r.get::<SideColumn>(4)?.0,
        solution: r.get(5)?,
        theme: r.get(6)?,
        game_id: r.get(7)?,
        ply: r.get(8)?,
        glicko: Glicko {
            rating: r.get(9)?,
            deviation: r.get(10)?,
            volatility: r.get(11)?,
        },
        attempts: r.get(12)?,
        solved: r.get(13)?,
        created_at: r.get(14)?,
    })
}

/// Stores a new puzzle; `false` when the game already has one at that ply.
pub fn insert_puzzle(c: &Conn<'_>, row: &mut PuzzleRow) -> Result<bool> {
    let id = c.query_opt(
        "INSERT INTO puzzles (variant, rules, position, side_to_move, solution, theme, game_id, \
         ply, rating, deviation, volatility, attempts, solved, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 0, 0, ?12) \
         ON CONFLICT (game_id, ply) DO NOTHING RETURNING id",
        params![
            row.variant,
            row.rules,
            row.position,
            SideColumn(row.side_to_move),
            row.solution,
            row.theme,
            row.game_id,
            row.ply,
            row.glicko.rating,
            row.glicko.deviation,
            row.glicko.volatility,
            row.created_at
        ],
        |r| r.get::<PuzzleId>(0),
    )?;
    match id {
        Some(id) => {
            row.id = id;
            Ok(true)
        }
        None => Ok(false),
    }
}

pub fn puzzle(c: &Conn<'_>, id: PuzzleId) -> Result<Option<PuzzleRow>> {
    c.query_opt(
        &format!("SELECT {COLS} FROM puzzles WHERE id = ?1"),
        params![id],
        puzzle_from,
    )
}

/// The puzzles mined from `game`, by ply.
pub fn puzzles_of_game(c: &Conn<'_>, game: GameId) -> Result<Vec<PuzzleRow>> {
    c.query_all(
        &format!("SELECT {COLS} FROM puzzles WHERE game_id = ?1 ORDER BY ply"),
        params![game],
        puzzle_from,
    )
}

/// The puzzle of `variant` (any with `None`) `player` has not tried whose rating is nearest
/// `rating`, ties to the oldest.
pub fn nearest_unseen_puzzle(
    c: &Conn<'_>,
    player: PlayerId,
    variant: Option<&str>,
    rating: f64,
) -> Result<Option<PuzzleRow>> {
    c.query_opt(
        &format!(
            "SELECT {COLS} FROM puzzles p WHERE (CAST(?1 AS TEXT) IS NULL OR variant = ?1) \
             AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a \
                             WHERE a.puzzle_id = p.id AND a.player_id = ?2) \
             ORDER BY ABS(rating - ?3), id LIMIT 1"
        ),
        params![variant, player, rating],
        puzzle_from,
    )
}

/// The `n`-th puzzle of all, by id, counting from 0 (the daily puzzle's pick); `None` when there
/// are none.
pub fn puzzle_at(c: &Conn<'_>, n: u64) -> Result<Option<PuzzleRow>> {
    let count: i64 = c.query_one("SELECT COUNT(*) FROM puzzles", params![], |r| r.get(0))?;
    if count <= 0 {
        return Ok(None);
    }
    let offset = i64::try_from(n % count.unsigned_abs()).unwrap_or(0);
    c.query_opt(
        &format!("SELECT {COLS} FROM puzzles ORDER BY id LIMIT 1 OFFSET ?1"),
        params![offset],
        puzzle_from,
    )
}

pub fn update_puzzle_rating(c: &Conn<'_>, id: PuzzleId, g: &Glicko, solved: bool) -> Result<()> {
    c.execute(
        "UPDATE puzzles SET rating = ?2, deviation = ?3, volatility = ?4, \
         attempts = attempts + 1, solved = solved + ?5 WHERE id = ?1",
        params![id, g.rating, g.deviation, g.volatility, i64::from(solved)],
    )?;
    Ok(())
}

/// A player's puzzle rating, with their attempts and solves.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleRatingRow {
    pub glicko: Glicko,
    pub attempts: u32,
    pub solved: u32,
    pub updated_at: i64,
}

pub fn puzzle_rating(c: &Conn<'_>, player: PlayerId) -> Result<Option<PuzzleRatingRow>> {
    c.query_opt(
        "SELECT rating, deviation, volatility, attempts, solved, updated_at \
         FROM puzzle_ratings WHERE player_id = ?1",
        params![player],
        |r| {
            Ok(PuzzleRatingRow {
                glicko: Glicko {
                    rating: r.get(0)?,
                    deviation: r.get(1)?,
                    volatility: r.get(2)?,
                },
                attempts: r.get(3)?,
                solved: r.get(4)?,
                updated_at: r.get(5)?,
            })
        },
    )
}

pub fn put_puzzle_rating(
    c: &Conn<'_>,
    player: PlayerId,
    g: &Glicko,
    solved: bool,
    now: i64,
) -> Result<()> {
    c.execute(
        "INSERT INTO puzzle_ratings (player_id, rating, deviation, volatility, attempts, solved, \
         updated_at) VALUES (?1, ?2, ?3, ?4, 1, ?5, ?6) \
         ON CONFLICT (player_id) DO UPDATE SET rating = excluded.rating, \
         deviation = excluded.deviation, volatility = excluded.volatility, \
         attempts = puzzle_ratings.attempts + 1, \
         solved = puzzle_ratings.solved + excluded.solved, updated_at = excluded.updated_at",
        params![
            player,
            g.rating,
            g.deviation,
            g.volatility,
            i64::from(solved),
            now
        ],
    )?;
    Ok(())
}

/// A player's rated try at a puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleAttemptRow {
    pub puzzle_id: PuzzleId,
    pub player_id: PlayerId,
    pub solved: bool,
    pub moves: String,
    pub rating_before: f64,
    pub rating_after: f64,
    pub attempted_at: i64,
}

pub fn puzzle_attempt(
    c: &Conn<'_>,
    puzzle: PuzzleId,
    player: PlayerId,
) -> Result<Option<PuzzleAttemptRow>> {
    c.query_opt(
        "SELECT puzzle_id, player_id, solved, moves, rating_before, rating_after, attempted_at \
         FROM puzzle_attempts WHERE puzzle_id = ?1 AND player_id = ?2",
        params![puzzle, player],
        |r| {
            Ok(PuzzleAttemptRow {
                puzzle_id: r.get(0)?,
                player_id: r.get(1)?,
                solved: r.get(2)?,
                moves: r.get(3)?,
                rating_before: r.get(4)?,
                rating_after: r.get(5)?,
                attempted_at: r.get(6)?,
            })
        },
    )
}

pub fn insert_puzzle_attempt(c: &Conn<'_>, row: &PuzzleAttemptRow) -> Result<()> {
    c.execute(
        "INSERT INTO puzzle_attempts (puzzle_id, player_id, solved, moves, rating_before, \
         rating_after, attempted_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            row.puzzle_id,
            row.player_id,
            row.solved,
            row.moves,
            row.rating_before,
            row.rating_after,
            row.attempted_at
        ],
    )?;
    Ok(())
}

/// Records that `game`'s analysis was mined (it is not mined again).
pub fn mark_game_mined(
    c: &Conn<'_>,
    game: GameId,
    analysis: AnalysisId,
    puzzles: u32,
    now: i64,
) -> Result<()> {
    c.execute(
        "INSERT INTO puzzle_mined_games (game_id, analysis_id, puzzles, mined_at) \
         VALUES (?1, ?2, ?3, ?4) ON CONFLICT (game_id) DO NOTHING",
        params![game, analysis, puzzles, now],
    )?;
    Ok(())
}

/// Whether the miner has searched `game`.
pub fn game_mined(c: &Conn<'_>, game: GameId) -> Result<bool> {
    Ok(c.query_opt(
        "SELECT 1 FROM puzzle_mined_games WHERE game_id = ?1",
        params![game],
        |r| r.get::<i64>(0),
    )?
    .is_some())
}

/// Finished games with a done analysis the miner has not searched yet, oldest analysis first,
/// at most `limit`; each with its latest done analysis.
pub fn games_to_mine(c: &Conn<'_>, limit: u32) -> Result<Vec<(GameId, AnalysisId)>> {
    c.query_all(
        "SELECT a.game_id, MAX(a.id) FROM analyses a JOIN games g ON g.id = a.game_id \
         WHERE a.status = ?1 AND g.status = ?2 AND g.private = FALSE \
         AND NOT EXISTS (SELECT 1 FROM puzzle_mined_games m WHERE m.game_id = a.game_id) \
         GROUP BY a.game_id ORDER BY MAX(a.id) LIMIT ?3",
        params![AnalysisStatus::Done, GameStatus::Finished, limit],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

fn snowflake(id: u64) -> i64 {
    i64::try_from(id).unwrap_or(i64::MAX)
}

/// Turns the daily puzzle on in `channel` of `guild` (moving it there if it was elsewhere), or
/// off with `None`.
pub fn set_daily_puzzle_channel(c: &Conn<'_>, guild: u64, channel: Option<u64>) -> Result<()> {
    match channel {
        Some(channel) => c.execute(
            "INSERT INTO puzzle_daily_channels (guild_id, channel_id) VALUES (?1, ?2) \
             ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id",
            params![snowflake(guild), snowflake(channel)],
        )?,
        None => c.execute(
            "DELETE FROM puzzle_daily_channels WHERE guild_id = ?1",
            params![snowflake(guild)],
        )?,
    };
    Ok(())
}

/// The channel where `guild` gets the daily puzzle, if it turned it on.
pub fn daily_puzzle_channel(c: &Conn<'_>, guild: u64) -> Result<Option<u64>> {
    c.query_opt(
        "SELECT channel_id FROM puzzle_daily_channels WHERE guild_id = ?1",
        params![snowflake(guild)],
        |r| Ok(u64::try_from(r.get::<i64>(0)?).unwrap_or_default()),
    )
}

/// Servers (and their channels) whose daily puzzle of `day` is not posted yet, at most `limit`.
pub fn daily_puzzles_due(c: &Conn<'_>, day: i64, limit: u32) -> Result<Vec<(u64, u64)>> {
    c.query_all(
        "SELECT guild_id, channel_id FROM puzzle_daily_channels \
         WHERE last_day IS NULL OR last_day < ?1 ORDER BY guild_id LIMIT ?2",
        params![day, limit],
        |r| {
            Ok((
                u64::try_from(r.get::<i64>(0)?).unwrap_or_default(),
                u64::try_from(r.get::<i64>(1)?).unwrap_or_default(),
            ))
        },
    )
}

/// Records that `guild` got the daily puzzle of `day`.
pub fn mark_daily_puzzle_posted(c: &Conn<'_>, guild: u64, day: i64) -> Result<()> {
    c.execute(
        "UPDATE puzzle_daily_channels SET last_day = ?2 WHERE guild_id = ?1",
        params![snowflake(guild), day],
    )?;
    Ok(())
}
