//! Vacations: the days a player takes away from their correspondence games, or that the
//! scheduler spends for them a day at a time; and the tournaments that forbid or cap them.

use crate::domain::TournamentId;
use crate::{Conn, Row, params};

use super::*;

/// One vacation, asked for or spent automatically.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VacationRow {
    pub id: i64,
    pub player_id: PlayerId,
    pub started_at: i64,
    /// When it ends by itself (the scheduler ends it then).
    pub ends_at: i64,
    /// `None` while it runs.
    pub ended_at: Option<i64>,
    /// What it costs the player's balance, in whole days.
    pub days: u32,
    /// Spent by the scheduler as a clock ran out, not asked for.
    pub automatic: bool,
}

const VACATION_COLS: &str = "id, player_id, started_at, ends_at, ended_at, days, automatic";

fn vacation_from(r: &Row<'_>) -> Result<VacationRow> {
    Ok(VacationRow {
        id: r.get(0)?,
        player_id: r.get(1)?,
        started_at: r.get(2)?,
        ends_at: r.get(3)?,
        ended_at: r.get(4)?,
        days: r.get(5)?,
        automatic: r.get(6)?,
    })
}

/// Writes `v` (its `id` is ignored) and answers its id. A second running vacation of one
/// player is refused by the store (a unique violation).
pub fn insert_vacation(c: &Conn<'_>, v: &VacationRow) -> Result<i64> {
    c.insert_returning_id(
        "INSERT INTO vacations (player_id, started_at, ends_at, ended_at, days, automatic) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
        params![
            v.player_id,
            v.started_at,
            v.ends_at,
            v.ended_at,
            v.days,
            v.automatic
        ],
    )
}

/// The vacation `player` is on now, if any.
pub fn running_vacation(c: &Conn<'_>, player: PlayerId) -> Result<Option<VacationRow>> {
    c.query_opt(
        &format!("SELECT {VACATION_COLS} FROM vacations WHERE player_id = ?1 AND ended_at IS NULL"),
        params![player],
        vacation_from,
    )
}

/// The players whose running vacation ends at or before `now`.
pub fn vacations_due_to_end(c: &Conn<'_>, now: i64) -> Result<Vec<PlayerId>> {
    c.query_all(
        "SELECT player_id FROM vacations WHERE ended_at IS NULL AND ends_at <= ?1 \
         ORDER BY ends_at",
        params![now],
        |r| r.get(0),
    )
}

/// Ends running vacation `id` at `at`, costing `days`. Answers whether it was still running.
pub fn end_vacation(c: &Conn<'_>, id: i64, at: i64, days: u32) -> Result<bool> {
    Ok(c.execute(
        "UPDATE vacations SET ended_at = ?2, days = ?3 WHERE id = ?1 AND ended_at IS NULL",
        params![id, at, days],
    )? == 1)
}

/// The days `player`'s vacations started at or after `since` cost.
pub fn vacation_days_since(c: &Conn<'_>, player: PlayerId, since: i64) -> Result<u32> {
    c.query_one(
        // A sum of BIGINT is NUMERIC on PostgreSQL: cast back to read it as an integer.
        "SELECT CAST(COALESCE(SUM(days), 0) AS BIGINT) FROM vacations \
         WHERE player_id = ?1 AND started_at >= ?2",
        params![player, since],
        |r| r.get(0),
    )
}

/// `player`'s latest vacations, the newest first.
pub fn recent_vacations(c: &Conn<'_>, player: PlayerId, limit: u32) -> Result<Vec<VacationRow>> {
    c.query_all(
        &format!(
            "SELECT {VACATION_COLS} FROM vacations WHERE player_id = ?1 \
             ORDER BY started_at DESC, id DESC LIMIT ?2"
        ),
        params![player, limit],
        vacation_from,
    )
}

/// Tournament `t`'s cap on stopped clocks per player, in days (0: forbidden); `None`: allowed.
pub fn tournament_vacation_cap(c: &Conn<'_>, t: TournamentId) -> Result<Option<u32>> {
    c.query_opt(
        "SELECT max_days FROM tournament_vacation_rules WHERE tournament_id = ?1",
        params![t],
        |r| r.get(0),
    )
}

/// Sets tournament `t`'s cap (`None`: allowed, no row).
pub fn set_tournament_vacation_cap(c: &Conn<'_>, t: TournamentId, cap: Option<u32>) -> Result<()> {
    c.execute(
        "DELETE FROM tournament_vacation_rules WHERE tournament_id = ?1",
        params![t],
    )?;
    if let Some(days) = cap {
        c.execute(
            "INSERT INTO tournament_vacation_rules (tournament_id, max_days) VALUES (?1, ?2)",
            params![t, days],
        )?;
    }
    Ok(())
}

/// How long `player`'s clocks stood still in tournament `t`'s games so far (ms).
pub fn tournament_vacation_used(c: &Conn<'_>, t: TournamentId, player: PlayerId) -> Result<i64> {
    Ok(c.query_opt(
        "SELECT used_ms FROM tournament_vacation_used \
             WHERE tournament_id = ?1 AND player_id = ?2",
        params![t, player],
        |r| r.get::<i64>(0),
    )?
    .unwrap_or(0))
}

/// Adds `ms` to how long `player`'s clocks stood still in tournament `t`'s games.
pub fn add_tournament_vacation_used(
    c: &Conn<'_>,
    t: TournamentId,
    player: PlayerId,
    ms: i64,
) -> Result<()> {
    c.execute(
        "INSERT INTO tournament_vacation_used (tournament_id, player_id, used_ms) \
         VALUES (?1, ?2, ?3) ON CONFLICT (tournament_id, player_id) \
         DO UPDATE SET used_ms = tournament_vacation_used.used_ms + excluded.used_ms",
        params![t, player, ms],
    )?;
    Ok(())
}
