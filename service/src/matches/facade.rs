//! The team matches facade: create, join, start, read (leave and call off: `sign_up.rs`).

use super::play::{self, board_pairs, game_result, load, stored_clock, team_games};
use super::requests::{DEFAULT_BOARDS, MAX_BOARDS, NewTeam, NewTeamMatch};
use super::score::team_points;
use super::sign_up::{Entry, emit_entry};
use super::view::{BoardGameView, BoardView, TeamMatchSummary, TeamMatchView, TeamView};
use crate::domain::{Handle, MatchStatus, PlayerId, Seat, TeamMatchId, TeamSide};
use crate::games::challenges::resolve_rules;
use crate::games::game_state;
use crate::store::Conn;
use crate::store::rows::{self, TeamMatchRow, TeamPlayerRow, TeamRow};
use crate::tournaments::{MAX_NAME_CHARS, PairingResult};
use crate::{ClockSpec, Emitter, GamesService, Result, ServiceError};

/// How many team matches a list shows.
pub const MATCHES_PAGE_SIZE: u32 = 50;

#[derive(Clone, Copy)]
pub struct TeamMatches<'s> {
    pub service: &'s GamesService,
}

impl GamesService {
    /// Team matches: two teams, a pair of games on each board.
    pub fn matches(&self) -> TeamMatches<'_> {
        TeamMatches { service: self }
    }
}

/// A match checked and ready to store.
pub(super) struct CheckedMatch {
    row: TeamMatchRow,
    teams: [NewTeam; 2],
}

impl TeamMatches<'_> {
    /// Creates a match organised by `organiser` (who plays only if named in a team). When
    /// both teams are named in full (as many players as boards), every game starts at once;
    /// otherwise it waits in sign-up for players to join and its organiser to start it.
    pub async fn create(self, organiser: PlayerId, request: NewTeamMatch) -> Result<TeamMatchView> {
        let checked = self.checked(organiser, request)?;
        let id = self
            .service
            .commit(move |c, e| create_in(c, e, checked))
            .await?;
        self.get(id).await
    }

    /// Checks a request: names, rules, clock, rated, boards.
    pub(super) fn checked(
        self,
        organiser: PlayerId,
        request: NewTeamMatch,
    ) -> Result<CheckedMatch> {
        let name = checked_name("a team match's name", &request.name)?;
        let (variant, rules, _) = resolve_rules(&request.rules)?;
        let clock = request.clock.validate()?;
        let rated = match request.rated {
            Some(true) if variant.is_none() => {
                return Err(ServiceError::Invalid(
                    "team matches on custom rules are never rated (only preset variants have \
                     ratings); leave rated out or set it to false"
                        .into(),
                ));
            }
            Some(rated) => rated,
            None => variant.is_some() && clock != (ClockSpec::Unlimited {}),
        };
        let named = request
            .teams
            .iter()
            .map(|t| t.players.len())
            .max()
            .unwrap_or(0);
        let boards = match request.boards {
            Some(boards) => boards,
            None if named > 0 => u32::try_from(named).unwrap_or(u32::MAX),
            None => DEFAULT_BOARDS,
        };
        if boards == 0 || boards > MAX_BOARDS {
            return Err(ServiceError::Invalid(format!(
                "boards: a team match has 1 to {MAX_BOARDS} boards (asked {boards})"
            )));
        }
        let mut teams = request.teams;
        for team in &mut teams {
            team.name = checked_name("a team's name", &team.name)?;
            if team.players.len() > boards as usize {
                return Err(ServiceError::Invalid(format!(
                    "team {:?} names {} players for {boards} boards",
                    team.name,
                    team.players.len()
                )));
            }
        }
        let mut named: Vec<Handle> = Vec::new();
        for handle in teams.iter().flat_map(|t| &t.players) {
            let parsed = Handle::parse(handle).map_err(|_| {
                ServiceError::Invalid(format!("no player has the handle {handle:?}"))
            })?;
            if named.contains(&parsed) {
                return Err(ServiceError::Invalid(format!(
                    "{handle:?} is named twice: a player plays one board of one team"
                )));
            }
            named.push(parsed);
        }
        if teams[0].name.to_lowercase() == teams[1].name.to_lowercase() {
            return Err(ServiceError::Invalid(
                "the two teams need different names".into(),
            ));
        }
        let clock = serde_json::to_string(&clock)
            .map_err(|e| ServiceError::internal(format!("clock unwritable: {e}")))?;
        Ok(CheckedMatch {
            row: TeamMatchRow {
                id: TeamMatchId(0),
                name,
                organiser,
                variant,
                rules,
                clock,
                rated,
                max_boards: boards,
                status: MatchStatus::SignUp,
                winner: None,
                created_at: 0,
                started_at: None,
                finished_at: None,
            },
            teams,
        })
    }

    /// Seats `player` on the next board of `team`, in a match of named teams (the teams of a
    /// match between Discord servers are joined from there: `join_from_discord`).
    pub async fn join(
        self,
        player: PlayerId,
        id: TeamMatchId,
        team: TeamSide,
    ) -> Result<TeamMatchView> {
        self.service
            .commit(move |c, e| {
                if rows::teams(c, id)?.iter().any(|t| t.guild_id.is_some()) {
                    // A server's team is its members', and the open team is the next server's.
                    return Err(ServiceError::Conflict {
                        message: format!(
                            "team match {id} is between Discord servers: their members join it \
                             with /match join in their server"
                        ),
                        game: None,
                    });
                }
                join_in(c, e, player, id, team)
            })
            .await?;
        self.get(id).await
    }

    /// Starts the match now (its organiser only): every game begins at once.
    pub async fn start(self, player: PlayerId, id: TeamMatchId) -> Result<TeamMatchView> {
        self.service
            .commit(move |c, e| {
                let mut m = load(c, id)?;
                if m.organiser != player {
                    return Err(ServiceError::Forbidden(format!(
                        "only the organiser of team match {id} can start it"
                    )));
                }
                if m.status != MatchStatus::SignUp {
                    return Err(closed(&m));
                }
                play::start(c, e, &mut m)
            })
            .await?;
        self.get(id).await
    }

    /// The match with its teams, boards, games and score.
    pub async fn get(self, id: TeamMatchId) -> Result<TeamMatchView> {
        self.service.read(move |c| view(c, id)).await
    }

    /// The newest team matches.
    pub async fn list(self) -> Result<Vec<TeamMatchSummary>> {
        self.service
            .read(|c| {
                rows::team_matches(c, MATCHES_PAGE_SIZE)?
                    .into_iter()
                    .map(|m| {
                        let teams = rows::teams(c, m.id)?;
                        let name = |i: usize| teams.get(i).map(|t| t.name.clone());
                        Ok(TeamMatchSummary {
                            id: m.id,
                            home: name(0).unwrap_or_default(),
                            away: name(1).unwrap_or_default(),
                            name: m.name,
                            variant: m.variant,
                            status: m.status,
                            winner: m.winner,
                        })
                    })
                    .collect()
            })
            .await
    }
}

/// Stores a checked match and its teams (each named player seated on the next board), and
/// starts it when both teams are full; answers its id.
pub(super) fn create_in(
    c: &Conn<'_>,
    e: &mut Emitter,
    checked: CheckedMatch,
) -> Result<TeamMatchId> {
    let CheckedMatch { mut row, teams } = checked;
    row.created_at = e.now();
    let id = rows::insert_team_match(c, &row)?;
    row.id = id;
    let mut full = true;
    for (side, team) in TeamSide::BOTH.into_iter().zip(teams) {
        rows::set_team(
            c,
            id,
            &TeamRow {
                team: side,
                name: team.name,
                guild_id: None,
                channel_id: None,
            },
        )?;
        for handle in &team.players {
            let player = player_of_handle(c, handle)?;
            seat(c, &row, player, side)?;
        }
        full &= team.players.len() == row.max_boards as usize;
    }
    if full {
        play::start(c, e, &mut row)?;
    }
    Ok(id)
}

fn player_of_handle(c: &Conn<'_>, handle: &str) -> Result<PlayerId> {
    let unknown = || ServiceError::Invalid(format!("no player has the handle {handle:?}"));
    let parsed = Handle::parse(handle).map_err(|_| unknown())?;
    Ok(rows::player_by_handle(c, &parsed)?.ok_or_else(unknown)?.id)
}

/// Seats `player` on `team` of match `id`, in the caller's transaction.
pub(super) fn join_in(
    c: &Conn<'_>,
    e: &mut Emitter,
    player: PlayerId,
    id: TeamMatchId,
    team: TeamSide,
) -> Result<()> {
    let m = load(c, id)?;
    if m.status != MatchStatus::SignUp {
        return Err(closed(&m));
    }
    let board = seat(c, &m, player, team)?;
    emit_entry(c, e, &m, player, team, board as usize, Entry::Joined)
}

/// Seats `player` on the next board of `team`, refusing a full team or a second seat;
/// answers the board.
fn seat(c: &Conn<'_>, m: &TeamMatchRow, player: PlayerId, team: TeamSide) -> Result<u32> {
    let players = rows::team_players(c, m.id)?;
    if players.iter().any(|p| p.player == player) {
        return Err(ServiceError::Conflict {
            message: format!("player {player} already plays in team match {}", m.id),
            game: None,
        });
    }
    let taken = players.iter().filter(|p| p.team == team).count();
    if taken >= m.max_boards as usize {
        return Err(ServiceError::Conflict {
            message: format!(
                "the {team} team of team match {} is full ({} boards)",
                m.id, m.max_boards
            ),
            game: None,
        });
    }
    let board = u32::try_from(taken + 1).unwrap_or(u32::MAX);
    rows::insert_team_player(
        c,
        m.id,
        TeamPlayerRow {
            team,
            board,
            player,
        },
    )?;
    Ok(board)
}

/// `text` trimmed, refused when empty, too long or with control characters.
pub(super) fn checked_name(what: &str, text: &str) -> Result<String> {
    let text = text.trim();
    let chars = text.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(ServiceError::Invalid(format!(
            "{what} must be 1 to {MAX_NAME_CHARS} characters"
        )));
    }
    if text.chars().any(char::is_control) {
        return Err(ServiceError::Invalid(format!(
            "{what} cannot contain control characters"
        )));
    }
    Ok(text.to_owned())
}

/// The refusal for a match past sign-up, in the player's terms.
pub(super) fn closed(m: &TeamMatchRow) -> ServiceError {
    let state = match m.status {
        MatchStatus::SignUp => "still in sign-up",
        MatchStatus::Running => "already being played",
        MatchStatus::Finished => "over",
        MatchStatus::Cancelled => "called off",
    };
    ServiceError::Conflict {
        message: format!("team match {} is {state}", m.id),
        game: None,
    }
}

fn view(c: &Conn<'_>, id: TeamMatchId) -> Result<TeamMatchView> {
    let m = load(c, id)?;
    let players = rows::team_players(c, id)?;
    let games = rows::team_match_games(c, id)?;
    let points = team_points(&team_games(&players, &games));
    let teams = rows::teams(c, id)?
        .into_iter()
        .zip(points)
        .map(|(t, points)| {
            Ok(TeamView {
                team: t.team,
                name: t.name,
                players: players
                    .iter()
                    .filter(|p| p.team == t.team)
                    .map(|p| game_state::seat_view(c, Seat::Player(p.player)))
                    .collect::<Result<_>>()?,
                points: points.as_f64(),
                discord_server: t.guild_id.is_some(),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let boards = board_pairs(&players)
        .into_iter()
        .filter(|_| m.status != MatchStatus::SignUp)
        .map(|(board, home, away)| BoardView {
            board,
            home,
            away,
            games: games
                .iter()
                .filter(|g| g.board == board)
                .map(|g| BoardGameView {
                    game_id: g.game,
                    attackers: g.attackers,
                    defenders: g.defenders,
                    result: game_result(g).map(PairingResult::from),
                })
                .collect(),
        })
        .collect();
    Ok(TeamMatchView {
        id: m.id,
        name: m.name.clone(),
        organiser: game_state::seat_view(c, Seat::Player(m.organiser))?,
        variant: m.variant.clone(),
        rules: m.rules.clone(),
        clock: stored_clock(&m)?,
        rated: m.rated,
        max_boards: m.max_boards,
        status: m.status,
        teams,
        boards,
        winner: m.winner,
        started_at: m.started_at,
        finished_at: m.finished_at,
    })
}
