//! Analyses and the positions they have searched so far.

use crate::client_addr::ClientNetwork;
use crate::{Conn, Row, params};

use super::*;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisRow {
    pub id: AnalysisId,
    pub game_id: GameId,
    pub ms_per_ply: u32,
    /// Plies of the game analysed (the game's length when it was asked for).
    pub plies: u32,
    pub status: AnalysisStatus,
    pub requested_by: Option<PlayerId>,
    pub requested_at: i64,
    pub finished_at: Option<i64>,
    /// The client network it was asked from, while it waits (`None` once done, or when asked
    /// with no address: Discord, the command line).
    pub requested_from: Option<ClientNetwork>,
}

const COLS: &str = "id, game_id, ms_per_ply, plies, status, requested_by, requested_at, \
     finished_at, requested_from";

fn analysis_from(r: &Row<'_>) -> Result<AnalysisRow> {
    Ok(AnalysisRow {
        id: r.get(0)?,
        game_id: r.get(1)?,
        ms_per_ply: r.get(2)?,
        plies: r.get(3)?,
        status: r.get(4)?,
        requested_by: r.get(5)?,
        requested_at: r.get(6)?,
        finished_at: r.get(7)?,
        // Written from a `ClientNetwork`; anything else reads as unknown (counted nowhere).
        requested_from: r
            .get::<Option<String>>(8)?
            .and_then(|text| text.parse().ok()),
    })
}

/// The analysis of `game` at this budget and length, if one was asked for.
pub fn analysis_of(
    c: &Conn<'_>,
    game: GameId,
    ms_per_ply: u32,
    plies: u32,
) -> Result<Option<AnalysisRow>> {
    c.query_opt(
        &format!(
            "SELECT {COLS} FROM analyses WHERE game_id = ?1 AND ms_per_ply = ?2 AND plies = ?3"
        ),
        params![game, ms_per_ply, plies],
        analysis_from,
    )
}

/// The latest analysis of `game` (any budget or length).
pub fn latest_analysis(c: &Conn<'_>, game: GameId) -> Result<Option<AnalysisRow>> {
    c.query_opt(
        &format!("SELECT {COLS} FROM analyses WHERE game_id = ?1 ORDER BY id DESC LIMIT 1"),
        params![game],
        analysis_from,
    )
}

pub fn insert_analysis(c: &Conn<'_>, row: &mut AnalysisRow) -> Result<()> {
    let id = c.insert_returning_id(
        "INSERT INTO analyses (game_id, ms_per_ply, plies, status, requested_by, requested_at, \
         requested_from) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id",
        params![
            row.game_id,
            row.ms_per_ply,
            row.plies,
            row.status,
            row.requested_by,
            row.requested_at,
            row.requested_from.map(|network| network.to_string())
        ],
    )?;
    row.id = AnalysisId(id);
    Ok(())
}

/// Analyses not done, oldest first (a running one first: it resumes after a restart).
pub fn pending_analyses(c: &Conn<'_>) -> Result<Vec<AnalysisRow>> {
    c.query_all(
        &format!("SELECT {COLS} FROM analyses WHERE status != ?1 ORDER BY status = ?2 DESC, id"),
        params![AnalysisStatus::Done, AnalysisStatus::Running],
        analysis_from,
    )
}

pub fn set_analysis_status(
    c: &Conn<'_>,
    id: AnalysisId,
    status: AnalysisStatus,
    finished_at: Option<i64>,
) -> Result<()> {
    c.execute(
        "UPDATE analyses SET status = ?2, finished_at = ?3 WHERE id = ?1",
        params![id, status, finished_at],
    )?;
    if status == AnalysisStatus::Done {
        // Counted only while it waits: a client's address is kept no longer than that.
        c.execute(
            "UPDATE analyses SET requested_from = NULL WHERE id = ?1",
            params![id],
        )?;
    }
    Ok(())
}

pub fn put_analysis_position(
    c: &Conn<'_>,
    id: AnalysisId,
    position: u32,
    eval: &str,
) -> Result<()> {
    c.execute(
        "INSERT INTO analysis_positions (analysis_id, position, eval) VALUES (?1, ?2, ?3) \
         ON CONFLICT (analysis_id, position) DO UPDATE SET eval = excluded.eval",
        params![id, position, eval],
    )?;
    Ok(())
}

/// The positions searched so far, in order, as (position, stored evaluation).
pub fn analysis_positions(c: &Conn<'_>, id: AnalysisId) -> Result<Vec<(u32, String)>> {
    c.query_all(
        "SELECT position, eval FROM analysis_positions WHERE analysis_id = ?1 ORDER BY position",
        params![id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}
