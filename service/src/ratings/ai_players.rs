//! The AI levels as rated players: each level has a player row (made on its first rated game,
//! found by level after), so its rating per variant is measured from its rated games against
//! people by the same Glicko-2 update as theirs. Such a row never signs in.

use tafl_engine::ai::Level;

use crate::accounts::handles::insert_with_first_free;
use crate::domain::{Handle, PlayerId, Seat};
use crate::store::Conn;
use crate::store::rows;
use crate::{Result, ServiceError};

/// The display name of the AI's player at `level`.
pub fn ai_player_name(level: u8) -> String {
    format!("taflbot AI level {level}")
}

/// Whether a game against the AI at `level` may be rated: only where the level's strength is
/// fixed, a search of so many nodes whatever the machine's load (levels 1 to 4). Level 5
/// thinks for a time on every core, so its strength would move with the server's load and
/// its rating would measure the machine, not the level.
pub fn level_may_be_rated(level: u8) -> bool {
    Level::from_number(level).is_some_and(Level::fixed_strength)
}

/// The player who is the AI at `level`, made now if the level has none yet (the handle
/// `taflbot-ai-level-N`, which no person may take, and no Discord account, so nobody can sign
/// in as it).
pub(crate) fn ai_player(c: &Conn<'_>, level: u8, now: i64) -> Result<PlayerId> {
    if let Some(player) = rows::ai_player_of_level(c, level)? {
        return Ok(player);
    }
    let base = Handle::of_ai_level(level, 1);
    let candidates = (1u32..).map(|n| Handle::of_ai_level(level, n));
    let player = insert_with_first_free(
        c,
        &ai_player_name(level),
        base.as_str(),
        candidates,
        None,
        now,
    )?;
    rows::insert_ai_player(c, level, player.id)?;
    tracing::info!(level, player = %player.id, "the AI level has a player row now");
    Ok(player.id)
}

/// The rated player in `seat`: a person, or the AI level's player (`create`: made if missing;
/// otherwise `None` for a level never rated). Imported names are never rated.
pub(crate) fn rated_player(
    c: &Conn<'_>,
    seat: Seat,
    create_at: Option<i64>,
) -> Result<Option<PlayerId>> {
    match (seat, create_at) {
        (Seat::Player(p), _) => Ok(Some(p)),
        (Seat::Ai(level), Some(now)) => ai_player(c, level, now).map(Some),
        (Seat::Ai(level), None) => Ok(rows::ai_player_of_level(c, level)?),
        (Seat::Imported(_), _) => Ok(None),
    }
}

/// Refuses `player` where only a person may stand (a challenge, a sign-in): the AI's rows
/// play only through their level.
pub(crate) fn refuse_ai_player(c: &Conn<'_>, player: PlayerId, what: &str) -> Result<()> {
    match rows::ai_level_of_player(c, player)? {
        Some(level) => Err(ServiceError::Invalid(format!(
            "{} is the taflbot AI at level {level}, not a person: {what}",
            ai_player_name(level)
        ))),
        None => Ok(()),
    }
}
