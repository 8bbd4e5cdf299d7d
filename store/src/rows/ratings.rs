//! Ratings per player and pool, and their history (one row per rated game and player).

use crate::{Conn, Row, params};

use super::*;
use crate::domain::Handle;

/// A player's rating in one pool (Glicko-2's three numbers).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glicko {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RatingRow {
    pub player_id: PlayerId,
    pub pool: String,
    pub glicko: Glicko,
    pub games: u32,
    pub updated_at: i64,
}

fn rating_from(r: &Row<'_>) -> Result<RatingRow> {
    Ok(RatingRow {
        player_id: r.get(0)?,
        pool: r.get(1)?,
        glicko: glicko_at(r, 2)?,
        games: r.get(5)?,
        updated_at: r.get(6)?,
    })
}

const RATING_COLS: &str = "player_id, pool, rating, deviation, volatility, games, updated_at";

pub fn rating(c: &Conn<'_>, player: PlayerId, pool: &str) -> Result<Option<RatingRow>> {
    c.query_opt(
        &format!("SELECT {RATING_COLS} FROM ratings WHERE player_id = ?1 AND pool = ?2"),
        params![player, pool],
        rating_from,
    )
}

/// Every pool `player` is rated in, by pool.
pub fn ratings_of(c: &Conn<'_>, player: PlayerId) -> Result<Vec<RatingRow>> {
    c.query_all(
        &format!("SELECT {RATING_COLS} FROM ratings WHERE player_id = ?1 ORDER BY pool"),
        params![player],
        rating_from,
    )
}

pub fn put_rating(c: &Conn<'_>, row: &RatingRow) -> Result<()> {
    c.execute("INSERT INTO ratings (player_id, pool, rating, deviation, volatility, games, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (player_id, pool) DO UPDATE SET \
         rating = excluded.rating, deviation = excluded.deviation, \
         volatility = excluded.volatility, games = excluded.games, updated_at = excluded.updated_at", params![
        row.player_id,
        row.pool,
        row.glicko.rating,
        row.glicko.deviation,
        row.glicko.volatility,
        row.games,
        row.updated_at
    ])?;
    Ok(())
}

/// One rating change, as the history keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingChangeRow {
    pub player_id: PlayerId,
    pub pool: String,
    pub game_id: GameId,
    pub before: Glicko,
    pub after: Glicko,
    pub created_at: i64,
}

pub fn insert_rating_change(c: &Conn<'_>, row: &RatingChangeRow) -> Result<()> {
    c.execute(
        "INSERT INTO rating_history (player_id, pool, game_id, rating_before, deviation_before, \
         volatility_before, rating_after, deviation_after, volatility_after, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            row.player_id,
            row.pool,
            row.game_id,
            row.before.rating,
            row.before.deviation,
            row.before.volatility,
            row.after.rating,
            row.after.deviation,
            row.after.volatility,
            row.created_at
        ],
    )?;
    Ok(())
}

/// A rating kept in three columns from `first`: rating, deviation, volatility.
fn glicko_at(r: &Row<'_>, first: usize) -> Result<Glicko> {
    Ok(Glicko {
        rating: r.get(first)?,
        deviation: r.get(first + 1)?,
        volatility: r.get(first + 2)?,
    })
}

fn change_from(r: &Row<'_>) -> Result<RatingChangeRow> {
    Ok(RatingChangeRow {
        player_id: r.get(0)?,
        pool: r.get(1)?,
        game_id: r.get(2)?,
        before: glicko_at(r, 3)?,
        after: glicko_at(r, 6)?,
        created_at: r.get(9)?,
    })
}

const CHANGE_COLS: &str = "player_id, pool, game_id, rating_before, deviation_before, \
    volatility_before, rating_after, deviation_after, volatility_after, created_at";

/// The rating changes a game made (none for an unrated game).
pub fn rating_changes_of_game(c: &Conn<'_>, game: GameId) -> Result<Vec<RatingChangeRow>> {
    c.query_all(
        &format!("SELECT {CHANGE_COLS} FROM rating_history WHERE game_id = ?1 ORDER BY id"),
        params![game],
        change_from,
    )
}

/// `player`'s rating history in `pool`, newest first: `limit` from `offset`.
pub fn rating_history(
    c: &Conn<'_>,
    player: PlayerId,
    pool: &str,
    limit: u32,
    offset: u64,
) -> Result<Vec<RatingChangeRow>> {
    c.query_all(
        &format!(
            "SELECT {CHANGE_COLS} FROM rating_history WHERE player_id = ?1 AND pool = ?2 \
         ORDER BY id DESC LIMIT ?3 OFFSET ?4"
        ),
        params![player, pool, limit, offset as i64],
        change_from,
    )
}

/// One line of a leaderboard: the player and their rating.
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderRow {
    pub player_id: PlayerId,
    pub handle: Handle,
    pub name: String,
    pub glicko: Glicko,
    pub games: u32,
    /// When the rating last changed (its pool's last rated game).
    pub updated_at: i64,
    /// The AI's level, when this player is the AI at a level (`ai_players`).
    pub ai_level: Option<u8>,
}

/// How ratings age while their players are away, for a query that ranks them as of `now`:
/// their deviation φ (Glicko-2's scale) grows as `φ² + periods · σ²`, one period for each
/// `period_ms` since `updated_at`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingAge {
    pub now: i64,
    pub period_ms: i64,
    /// Glicko-2's factor between a deviation and its φ.
    pub scale: f64,
}

/// Players rated in `pool` whose deviation as of `age.now` is at most `max_deviation`, best
/// first (ties: the earlier player first), `limit` from `offset`; with `guild`, only players
/// seen in that Discord guild, and the AI levels (they play in every guild).
pub fn leaderboard(
    c: &Conn<'_>,
    pool: &str,
    max_deviation: f64,
    age: RatingAge,
    guild: Option<u64>,
    limit: u32,
    offset: u64,
) -> Result<Vec<LeaderRow>> {
    let guild_filter = if guild.is_some() {
        "AND (a.level IS NOT NULL OR r.player_id IN \
         (SELECT player_id FROM discord_guild_players WHERE guild_id = ?5))"
    } else {
        "AND CAST(?5 AS BIGINT) IS NULL"
    };
    // Whole periods (integer division on both databases), none for a clock gone back.
    c.query_all(
        &format!(
            "SELECT r.player_id, p.handle, p.name, r.rating, r.deviation, r.volatility, r.games, \
             r.updated_at, a.level FROM ratings r JOIN players p ON p.id = r.player_id \
             LEFT JOIN ai_players a ON a.player_id = r.player_id \
         WHERE r.pool = ?1 AND r.deviation * r.deviation \
             + (CASE WHEN ?6 > r.updated_at THEN (?6 - r.updated_at) / ?7 ELSE 0 END) \
             * (r.volatility * ?8) * (r.volatility * ?8) \
             <= CAST(?2 AS DOUBLE PRECISION) * CAST(?2 AS DOUBLE PRECISION) {guild_filter} \
         ORDER BY r.rating DESC, r.player_id LIMIT ?3 OFFSET ?4"
        ),
        params![
            pool,
            max_deviation,
            limit,
            offset as i64,
            guild.map(|g| g as i64),
            age.now,
            age.period_ms,
            age.scale
        ],
        |r| {
            Ok(LeaderRow {
                player_id: r.get(0)?,
                handle: r.get(1)?,
                name: r.get(2)?,
                glicko: glicko_at(r, 3)?,
                games: r.get(6)?,
                updated_at: r.get(7)?,
                ai_level: r
                    .get::<Option<i64>>(8)?
                    .map(super::ai_players::level_from)
                    .transpose()?,
            })
        },
    )
}

/// Remembers that `player` was seen in the Discord guild `guild` (once; later calls do nothing).
pub fn note_guild_player(c: &Conn<'_>, guild: u64, player: PlayerId, now: i64) -> Result<()> {
    c.execute(
        "INSERT INTO discord_guild_players (guild_id, player_id, seen_at) \
         VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
        params![guild as i64, player, now],
    )?;
    Ok(())
}
