//! Playing a team match in the store: every game of every board opened at once, the match
//! scored and ended in the transaction that ends its last game.

use crate::domain::{GameId, MatchStatus, PlayerId, Seat, TeamMatchId, TeamSide};
use crate::events::{EventPayload, MatchEnded, MatchStarted};
use crate::games::challenges::{NewGame, open_game};
use crate::games::game_ended::{EndedGame, GameEndedSubscriber};
use crate::store::Conn;
use crate::store::rows::{self, TeamMatchGameRow, TeamMatchRow, TeamPlayerRow};
use crate::tournaments::rounds::game_score;
use crate::tournaments::{GameScore, Points};
use crate::{ClockSpec, Emitter, Missing, Result, ServiceError};

use super::score::{TeamGame, team_points, winner};

pub(super) fn load(c: &Conn<'_>, id: TeamMatchId) -> Result<TeamMatchRow> {
    rows::team_match(c, id)?.ok_or(ServiceError::NotFound(Missing::TeamMatch(id)))
}

pub(super) fn stored_clock(m: &TeamMatchRow) -> Result<ClockSpec> {
    serde_json::from_str(&m.clock).map_err(|e| {
        ServiceError::internal(format!("team match {}: stored clock unreadable: {e}", m.id))
    })
}

/// The pairs of each board: (board, home player, away player), boards from 1.
pub(super) fn board_pairs(players: &[TeamPlayerRow]) -> Vec<(u32, PlayerId, PlayerId)> {
    let on = |team: TeamSide, board: u32| {
        players
            .iter()
            .find(|p| p.team == team && p.board == board)
            .map(|p| p.player)
    };
    (1..)
        .map_while(|board| {
            Some((
                board,
                on(TeamSide::Home, board)?,
                on(TeamSide::Away, board)?,
            ))
        })
        .collect()
}

/// Starts the match: both teams must field the same number of players, one a board.
pub(super) fn start(c: &Conn<'_>, e: &mut Emitter, m: &mut TeamMatchRow) -> Result<()> {
    let players = rows::team_players(c, m.id)?;
    let count = |team: TeamSide| players.iter().filter(|p| p.team == team).count();
    let (home, away) = (count(TeamSide::Home), count(TeamSide::Away));
    if home == 0 || home != away {
        return Err(ServiceError::Conflict {
            message: format!(
                "team match {} cannot start: home has {home} players and away {away}; each \
                 board needs one player of each team",
                m.id
            ),
            game: None,
        });
    }
    let clock = stored_clock(m)?;
    let channels: Vec<u64> = rows::teams(c, m.id)?
        .iter()
        .filter_map(|t| t.channel_id)
        .collect();
    let pairs = board_pairs(&players);
    for &(board, home, away) in &pairs {
        for (attackers, defenders) in [(home, away), (away, home)] {
            let row = open_game(
                c,
                e,
                NewGame {
                    variant: m.variant.clone(),
                    rules: &m.rules,
                    attackers: Seat::Player(attackers),
                    defenders: Seat::Player(defenders),
                    clock,
                    context: None,
                    rated: m.rated,
                    private: false,
                },
                None,
            )?;
            rows::insert_team_match_game(c, m.id, board, row.id)?;
            show_in_channels(c, e, row.id, &channels)?;
        }
    }
    m.status = MatchStatus::Running;
    m.started_at = Some(e.now());
    rows::update_team_match_state(c, m)?;
    let boards = u32::try_from(pairs.len()).unwrap_or(u32::MAX);
    tell_players(c, e, &players, || {
        EventPayload::MatchStarted(MatchStarted {
            match_id: m.id,
            name: m.name.clone(),
            boards,
        })
    })
}

/// Shows a match game, just opened, in each team's Discord channel (one copy a channel).
fn show_in_channels(c: &Conn<'_>, e: &mut Emitter, game: GameId, channels: &[u64]) -> Result<()> {
    let mut shown: Vec<u64> = Vec::new();
    for &channel in channels {
        if shown.contains(&channel) {
            continue;
        }
        shown.push(channel);
        rows::insert_game_mirror(c, game, channel)?;
        e.post_game_start_in(c, game, channel)?;
    }
    Ok(())
}

/// Emits `payload` to each player of the match, one event each (an event names at most two).
fn tell_players(
    c: &Conn<'_>,
    e: &mut Emitter,
    players: &[TeamPlayerRow],
    payload: impl Fn() -> EventPayload,
) -> Result<()> {
    for p in players {
        e.emit(c, None, None, vec![p.player], payload())?;
    }
    Ok(())
}

/// What each game has come to; `None` while it is played.
pub(super) fn game_result(g: &TeamMatchGameRow) -> Option<GameScore> {
    game_score(g.status, g.winner, g.reason, Some(g.side_to_move))
}

/// The decided games with the team that had the attackers.
pub(super) fn team_games(players: &[TeamPlayerRow], games: &[TeamMatchGameRow]) -> Vec<TeamGame> {
    games
        .iter()
        .filter_map(|g| {
            let score = game_result(g)?;
            let attackers_team = players.iter().find(|p| p.player == g.attackers)?.team;
            Some(TeamGame {
                attackers_team,
                score,
            })
        })
        .collect()
}

/// A team match's game's end may end the match.
pub(crate) struct ScoreMatch;

impl GameEndedSubscriber for ScoreMatch {
    fn react(&self, c: &Conn<'_>, e: &mut Emitter, ended: &EndedGame<'_>) -> Result<()> {
        game_ended(c, e, ended.id())
    }
}

/// Called in the transaction that ends `game`: when it was its match's last game, the match
/// ends with the team with more points as the winner (none for a draw).
fn game_ended(c: &Conn<'_>, e: &mut Emitter, game: GameId) -> Result<()> {
    let Some(id) = rows::team_match_of_game(c, game)? else {
        return Ok(());
    };
    let mut m = load(c, id)?;
    if m.status != MatchStatus::Running {
        return Ok(());
    }
    let games = rows::team_match_games(c, id)?;
    if games.iter().any(|g| game_result(g).is_none()) {
        return Ok(());
    }
    let players = rows::team_players(c, id)?;
    let points: [Points; 2] = team_points(&team_games(&players, &games));
    m.status = MatchStatus::Finished;
    m.winner = winner(points);
    m.finished_at = Some(e.now());
    rows::update_team_match_state(c, &m)?;
    tell_players(c, e, &players, || {
        EventPayload::MatchEnded(MatchEnded {
            match_id: m.id,
            name: m.name.clone(),
            home_points: points[0].as_f64(),
            away_points: points[1].as_f64(),
            winner: m.winner,
        })
    })
}
