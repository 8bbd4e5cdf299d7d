//! Team matches as every front end shows them.

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::{GameId, MatchStatus, PlayerId, TeamMatchId, TeamSide};
use crate::tournaments::PairingResult;
use crate::{ClockSpec, SeatView};

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct TeamMatchView {
    pub id: TeamMatchId,
    pub name: String,
    pub organiser: SeatView,
    /// The preset variant, if the rules are one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// The OpenTafl rules string every game is played on.
    pub rules: String,
    pub clock: ClockSpec,
    pub rated: bool,
    /// The most players a team takes, one a board.
    pub max_boards: u32,
    pub status: MatchStatus,
    /// Home, then away.
    pub teams: Vec<TeamView>,
    /// Each board's pair and its two games; empty before the start.
    pub boards: Vec<BoardView>,
    /// Once finished: the team with more points; absent for a draw (and before the end).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<TeamSide>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct TeamView {
    pub team: TeamSide,
    pub name: String,
    /// In board order.
    pub players: Vec<SeatView>,
    /// The points its players have scored in the games decided so far.
    pub points: f64,
    /// Whether the team is a Discord server's (its members join it from there).
    pub discord_server: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct BoardView {
    /// From 1.
    pub board: u32,
    pub home: PlayerId,
    pub away: PlayerId,
    /// The home player's game with the attackers, then with the defenders.
    pub games: Vec<BoardGameView>,
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct BoardGameView {
    pub game_id: GameId,
    pub attackers: PlayerId,
    pub defenders: PlayerId,
    /// `attackers_won`, `defenders_won` or `draw` once decided; absent while played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<PairingResult>,
}

/// A team match in a list.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct TeamMatchSummary {
    pub id: TeamMatchId,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    pub status: MatchStatus,
    pub home: String,
    pub away: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<TeamSide>,
}
