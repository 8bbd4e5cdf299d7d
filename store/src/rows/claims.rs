//! Claims of jobs by instances sharing one database: an AI turn (its own table), a webhook
//! delivery and a Discord post (their `next_attempt_at` pushed past the claim's end, so no
//! instance sees them due meanwhile). Writes are serialized (one writer per process, and one
//! transaction at a time on a shared database), so a claim read and written in one job is
//! exclusive; a claim whose instance died lapses at its end.

use crate::{Conn, params};

use super::*;

/// Claims the AI's turn at `ply` of `game` for instance `by` until `until`: taken when no
/// claim stands, when `by` holds it already (a renewal), when it is for another ply (that turn
/// was played), or when it lapsed at `now`. Answers whether `by` holds it now.
pub fn claim_ai_turn(
    c: &Conn<'_>,
    game: GameId,
    ply: u32,
    by: &str,
    now: i64,
    until: i64,
) -> Result<bool> {
    let changed = c.execute(
        "INSERT INTO ai_turn_claims (game_id, ply, claimed_by, claimed_until) \
         VALUES (?1, ?2, ?3, ?5) \
         ON CONFLICT (game_id) DO UPDATE SET ply = excluded.ply, \
             claimed_by = excluded.claimed_by, claimed_until = excluded.claimed_until \
         WHERE ai_turn_claims.claimed_by = excluded.claimed_by \
            OR ai_turn_claims.ply <> excluded.ply \
            OR ai_turn_claims.claimed_until <= ?4",
        params![game, ply, by, now, until],
    )?;
    Ok(changed == 1)
}

/// Lets go of `by`'s claim on `game`'s AI turn (the move was played, or the turn is over).
pub fn release_ai_turn(c: &Conn<'_>, game: GameId, by: &str) -> Result<()> {
    c.execute(
        "DELETE FROM ai_turn_claims WHERE game_id = ?1 AND claimed_by = ?2",
        params![game, by],
    )?;
    Ok(())
}

/// Claims webhook delivery `id` until `until` (it is not due for anyone before then).
pub fn claim_delivery(c: &Conn<'_>, id: DeliveryId, until: i64) -> Result<()> {
    c.execute(
        "UPDATE deliveries SET next_attempt_at = ?2 WHERE id = ?1",
        params![id, until],
    )?;
    Ok(())
}

/// Claims Discord post `id` until `until` (its channel's head, not due for anyone before then).
pub fn claim_outbox_post(c: &Conn<'_>, id: OutboxId, until: i64) -> Result<()> {
    c.execute(
        "UPDATE discord_outbox SET next_attempt_at = ?2 WHERE id = ?1",
        params![id, until],
    )?;
    Ok(())
}

/// Renews the claim on Discord post `id` until `until` while its request runs, so no other
/// instance takes it over meanwhile; a post no longer pending is left alone.
pub fn renew_outbox_claim(c: &Conn<'_>, id: OutboxId, until: i64) -> Result<()> {
    c.execute(
        "UPDATE discord_outbox SET next_attempt_at = ?2 WHERE id = ?1 AND status = 'pending'",
        params![id, until],
    )?;
    Ok(())
}
