//! Team matches between Discord servers. The server a match is created in fields its home
//! team; the first member to join from another server makes that server the away team. Each
//! team's channel (where it was created or first joined from) gets the match's news and a copy
//! of each of its games (a thread of it, once the front end opens one); a game between the
//! two servers is so shown in both, and a move made in either appears in the other.

use super::TeamMatches;
use super::facade::{closed, create_in, join_in};
use super::play::load;
use super::requests::NewTeamMatch;
use super::view::TeamMatchView;
use crate::domain::{MatchStatus, PlayerId, TeamMatchId, TeamSide};
use crate::events::{Event, EventPayload};
use crate::store::Conn;
use crate::store::rows::{self, TeamRow};
use crate::{Result, ServiceError};

/// The Discord server (and its name, the team's name) and channel a match is played from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscordTeamPlace {
    pub guild_id: u64,
    pub guild_name: String,
    pub channel_id: u64,
}

impl TeamMatches<'_> {
    /// Creates a match in sign-up whose home team is the server of `place` (named after it);
    /// the away team is the first other server a member joins from.
    pub async fn create_from_discord(
        self,
        organiser: PlayerId,
        request: NewTeamMatch,
        place: DiscordTeamPlace,
    ) -> Result<TeamMatchView> {
        let checked = self.checked(organiser, request)?;
        let id = self
            .service
            .commit(move |c, e| {
                let id = create_in(c, e, checked)?;
                let home = team_row(TeamSide::Home, &place)?;
                rows::set_team(c, id, &home)?;
                Ok(id)
            })
            .await?;
        self.get(id).await
    }

    /// Seats `player` in the team of the server they join from (taking the open team for a
    /// server that has none yet).
    pub async fn join_from_discord(
        self,
        player: PlayerId,
        id: TeamMatchId,
        place: DiscordTeamPlace,
    ) -> Result<TeamMatchView> {
        self.service
            .commit(move |c, e| {
                let m = load(c, id)?;
                if m.status != MatchStatus::SignUp {
                    return Err(closed(&m));
                }
                let teams = rows::teams(c, id)?;
                let players = rows::team_players(c, id)?;
                let ours = teams.iter().find(|t| t.guild_id == Some(place.guild_id));
                let open = || {
                    teams
                        .iter()
                        .find(|t| t.guild_id.is_none() && !players.iter().any(|p| p.team == t.team))
                };
                let team = match (ours, open()) {
                    (Some(team), _) => team.team,
                    (None, Some(open)) => {
                        let mut row = team_row(open.team, &place)?;
                        // Two servers of one name: told apart by the second's id.
                        if teams
                            .iter()
                            .any(|t| t.name.to_lowercase() == row.name.to_lowercase())
                        {
                            row.name = format!("{} ({})", row.name, place.guild_id);
                        }
                        rows::set_team(c, id, &row)?;
                        open.team
                    }
                    (None, None) => {
                        let names: Vec<&str> = teams.iter().map(|t| t.name.as_str()).collect();
                        return Err(ServiceError::Conflict {
                            message: format!(
                                "team match {id} is between {}; this server has no team in it",
                                names.join(" and ")
                            ),
                            game: None,
                        });
                    }
                };
                join_in(c, e, player, id, team)
            })
            .await?;
        self.get(id).await
    }
}

fn team_row(team: TeamSide, place: &DiscordTeamPlace) -> Result<TeamRow> {
    Ok(TeamRow {
        team,
        name: super::facade::checked_name("a server's name", &place.guild_name)?,
        guild_id: Some(place.guild_id),
        channel_id: Some(place.channel_id),
    })
}

/// The Discord channel where `event`, a piece of a match's news sent to one player, is
/// posted: their team's channel, if they play its first board.
pub(crate) fn news_channel(c: &Conn<'_>, event: &Event) -> Result<Option<u64>> {
    let id = match &event.payload {
        EventPayload::MatchStarted(started) => started.match_id,
        EventPayload::MatchEnded(ended) => ended.match_id,
        EventPayload::MatchCancelled(cancelled) => cancelled.match_id,
        _ => return Ok(None),
    };
    let Some(&player) = event.players.first() else {
        return Ok(None);
    };
    Ok(rows::team_match_news_channel(c, id, player)?)
}
