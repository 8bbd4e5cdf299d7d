//! Challenges: pending, accepted, declined, cancelled or expired.

use crate::{Conn, Row, params};

use super::*;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: ChallengeId,
    pub challenger: PlayerId,
    pub opponent: Option<PlayerId>,
    pub opponent_ai_level: Option<u8>,
    pub variant: Option<String>,
    pub rules: String,
    pub challenger_side: SideChoice,
    pub clock: String,
    pub status: ChallengeStatus,
    pub game_id: Option<GameId>,
    pub context: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
    pub resolved_at: Option<i64>,
    /// The game it starts counts for ratings.
    pub rated: bool,
    /// The game it starts is shown only to its players.
    pub private: bool,
}

const CHALLENGE_COLS: &str = "id, challenger, opponent, opponent_ai_level, variant, rules, \
    challenger_side, clock, status, game_id, context, created_at, expires_at, resolved_at, rated, private";

fn challenge_from(r: &Row<'_>) -> Result<ChallengeRow> {
    Ok(ChallengeRow {
        id: r.get(0)?,
        challenger: r.get(1)?,
        opponent: r.get(2)?,
        // A level beyond `u8` is corrupt data: an error, never the strongest AI.
        opponent_ai_level: r.get::<Option<u8>>(3)?,
        variant: r.get(4)?,
        rules: r.get(5)?,
        challenger_side: r.get(6)?,
        clock: r.get(7)?,
        status: r.get(8)?,
        game_id: r.get(9)?,
        context: r.get(10)?,
        created_at: r.get(11)?,
        expires_at: r.get(12)?,
        resolved_at: r.get(13)?,
        rated: r.get(14)?,
        private: r.get(15)?,
    })
}

pub fn insert_challenge(c: &Conn<'_>, ch: &ChallengeRow) -> Result<ChallengeId> {
    let id = c.insert_returning_id("INSERT INTO challenges (challenger, opponent, opponent_ai_level, variant, rules, \
         challenger_side, clock, status, game_id, context, created_at, expires_at, resolved_at, \
         rated, private) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15) RETURNING id", params![
            ch.challenger,
            ch.opponent,
            ch.opponent_ai_level.map(i64::from),
            ch.variant,
            ch.rules,
            ch.challenger_side,
            ch.clock,
            ch.status,
            ch.game_id,
            ch.context,
            ch.created_at,
            ch.expires_at,
            ch.resolved_at,
            ch.rated,
            ch.private
        ])?;
    Ok(ChallengeId(id))
}

pub fn challenge(c: &Conn<'_>, id: ChallengeId) -> Result<Option<ChallengeRow>> {
    c.query_opt(
        &format!("SELECT {CHALLENGE_COLS} FROM challenges WHERE id = ?1"),
        params![id],
        challenge_from,
    )
}

pub fn resolve_challenge(
    c: &Conn<'_>,
    id: ChallengeId,
    status: ChallengeStatus,
    game: Option<GameId>,
    now: i64,
) -> Result<()> {
    c.execute(
        "UPDATE challenges SET status = ?2, game_id = ?3, resolved_at = ?4 WHERE id = ?1",
        params![id, status, game, now],
    )?;
    Ok(())
}

/// Pending challenges `player` may answer (sent to them, or open to anyone but them),
/// and those `player` sent.
pub fn pending_challenges_of(
    c: &Conn<'_>,
    player: PlayerId,
) -> Result<(Vec<ChallengeRow>, Vec<ChallengeRow>)> {
    let incoming = c
        .query_all(&format!(
            "SELECT {CHALLENGE_COLS} FROM challenges WHERE status = 'pending' AND \
             opponent_ai_level IS NULL AND challenger <> ?1 AND (opponent = ?1 OR opponent IS NULL) \
             ORDER BY id"
        ), params![player], challenge_from)?;
    let outgoing = c.query_all(
        &format!(
            "SELECT {CHALLENGE_COLS} FROM challenges WHERE status = 'pending' AND challenger = ?1 \
             ORDER BY id"
        ),
        params![player],
        challenge_from,
    )?;
    Ok((incoming, outgoing))
}

pub fn expired_challenges(c: &Conn<'_>, now: i64) -> Result<Vec<ChallengeId>> {
    c.query_all(
        "SELECT id FROM challenges WHERE status = 'pending' AND expires_at <= ?1 ORDER BY id",
        params![now],
        |r| r.get(0),
    )
}
