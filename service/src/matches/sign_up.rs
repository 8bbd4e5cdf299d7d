//! Before a team match starts: a player joins a team or leaves it, and the organiser may call
//! the match off. Once it runs, none of these is possible: its games are under way, and a
//! player who wants out resigns their games (each counts for the other team, as any loss).
//! Each change is an event (`match_joined`, `match_left`, `match_cancelled`), so the match's
//! page redraws on it and webhooks hear of it.

use super::TeamMatches;
use super::facade::closed;
use super::play::load;
use super::view::TeamMatchView;
use crate::domain::{MatchStatus, PlayerId, TeamMatchId, TeamSide};
use crate::events::{EventPayload, MatchCancelled, MatchEntry};
use crate::store::Conn;
use crate::store::rows::{self, TeamMatchRow, TeamPlayerRow, TeamRow};
use crate::{Emitter, Result, ServiceError};

/// The away team's name, in a match created from Discord, until another server claims it.
pub const OPEN_TEAM: &str = "(open to another server)";

impl TeamMatches<'_> {
    /// Takes `player` off their team before the start; the players on later boards of that
    /// team move up one. Refused once the match runs (resign the games instead).
    pub async fn leave(self, player: PlayerId, id: TeamMatchId) -> Result<TeamMatchView> {
        self.service
            .commit(move |c, e| leave_in(c, e, player, id))
            .await?;
        self.get(id).await
    }

    /// Calls the match off before its start (its organiser only): no game of it is played.
    pub async fn cancel(self, player: PlayerId, id: TeamMatchId) -> Result<TeamMatchView> {
        self.service
            .commit(move |c, e| {
                let mut m = load(c, id)?;
                if m.organiser != player {
                    return Err(ServiceError::Forbidden(format!(
                        "only the organiser of team match {id} can call it off"
                    )));
                }
                if m.status != MatchStatus::SignUp {
                    return Err(too_late(&m, "called off"));
                }
                m.status = MatchStatus::Cancelled;
                m.finished_at = Some(e.now());
                rows::update_team_match_state(c, &m)?;
                let mut told: Vec<PlayerId> = rows::team_players(c, id)?
                    .iter()
                    .map(|p| p.player)
                    .collect();
                if !told.contains(&m.organiser) {
                    told.push(m.organiser);
                }
                for p in told {
                    let payload = EventPayload::MatchCancelled(MatchCancelled {
                        match_id: m.id,
                        name: m.name.clone(),
                        by: player,
                    });
                    e.emit(c, None, None, vec![p], payload)?;
                }
                Ok(())
            })
            .await?;
        self.get(id).await
    }
}

fn leave_in(c: &Conn<'_>, e: &mut Emitter, player: PlayerId, id: TeamMatchId) -> Result<()> {
    let m = load(c, id)?;
    if m.status != MatchStatus::SignUp {
        return Err(too_late(&m, "left"));
    }
    let players = rows::team_players(c, id)?;
    let Some(gone) = players.iter().find(|p| p.player == player).copied() else {
        return Err(ServiceError::Conflict {
            message: format!("you are not playing in team match {id}"),
            game: None,
        });
    };
    rows::delete_team_player(c, id, player)?;
    // Boards stay numbered from 1 without a gap: a board is a pair only when both teams have
    // that number. Moved one at a time upwards, so no two share a board meanwhile.
    let mut later: Vec<&TeamPlayerRow> = players
        .iter()
        .filter(|p| p.team == gone.team && p.board > gone.board)
        .collect();
    later.sort_by_key(|p| p.board);
    for p in &later {
        rows::move_team_player(c, id, p.player, p.board - 1)?;
    }
    let left = players
        .iter()
        .filter(|p| p.team == gone.team)
        .count()
        .saturating_sub(1);
    if left == 0 {
        reopen_claimed_team(c, &m, gone.team)?;
    }
    emit_entry(c, e, &m, player, gone.team, left, Entry::Left)
}

/// A match created from Discord: the away team's server claimed it with its first member.
/// When that member leaves and nobody of the server is left, the team is open again to any
/// other server.
fn reopen_claimed_team(c: &Conn<'_>, m: &TeamMatchRow, team: TeamSide) -> Result<()> {
    let teams = rows::teams(c, m.id)?;
    let home_server = teams
        .iter()
        .find(|t| t.team == TeamSide::Home)
        .and_then(|t| t.guild_id);
    let Some(claimed) = teams.iter().find(|t| t.team == team) else {
        return Ok(());
    };
    if team == TeamSide::Away && home_server.is_some() && claimed.guild_id.is_some() {
        rows::set_team(
            c,
            m.id,
            &TeamRow {
                team,
                name: OPEN_TEAM.to_owned(),
                guild_id: None,
                channel_id: None,
            },
        )?;
    }
    Ok(())
}

/// Whether the player came in or went out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Entry {
    Joined,
    Left,
}

/// Emits the change of `player`'s seat in `team` of `m`, to them and to the organiser.
pub(super) fn emit_entry(
    c: &Conn<'_>,
    e: &mut Emitter,
    m: &TeamMatchRow,
    player: PlayerId,
    team: TeamSide,
    team_players: usize,
    change: Entry,
) -> Result<()> {
    let entry = MatchEntry {
        match_id: m.id,
        name: m.name.clone(),
        player,
        team,
        team_players: u32::try_from(team_players).unwrap_or(u32::MAX),
    };
    let payload = match change {
        Entry::Joined => EventPayload::MatchJoined(entry),
        Entry::Left => EventPayload::MatchLeft(entry),
    };
    let mut told = vec![player];
    if m.organiser != player {
        told.push(m.organiser);
    }
    e.emit(c, None, None, told, payload)
}

/// The refusal of a change that only sign-up allows, in the player's terms.
fn too_late(m: &TeamMatchRow, what: &str) -> ServiceError {
    match m.status {
        MatchStatus::Running => ServiceError::Conflict {
            message: format!(
                "team match {} has started: it can no longer be {what} (its games are under way; \
                 a player who wants out resigns their games)",
                m.id
            ),
            game: None,
        },
        _ => closed(m),
    }
}
