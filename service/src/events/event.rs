//! The service's events: what happened, as one tagged type that the service builds and every
//! listener (Discord, webhooks, streams, metrics) matches on. On the wire an event is
//! `{"id", "kind", "game_id", "challenge_id", "players", "data", "created_at"}`: `kind` names
//! the variant and `data` holds its fields.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::{
    AnalysisId, ChallengeId, EventId, GameId, GameStatus, PlayerId, ResultReason, Seat, Side,
    TeamMatchId, TeamSide, TournamentId, TournamentStatus,
};

use crate::views::{ChallengeView, GameRatings, WarningView};

/// An event as stored, streamed and delivered: `kind` names what happened and `data` holds
/// its fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Event {
    /// Increasing in commit order: resume a stream after the last one seen.
    pub id: EventId,
    #[serde(flatten)]
    pub payload: EventPayload,
    /// The game concerned, if any.
    pub game_id: Option<GameId>,
    /// The challenge concerned, if any.
    pub challenge_id: Option<ChallengeId>,
    /// The human players concerned (at most two; a tournament's events go to each of its
    /// players, one event each).
    pub players: Vec<PlayerId>,
    /// Milliseconds since the epoch.
    pub created_at: i64,
}

impl Event {
    /// The name of its kind ("move_played"), as the API shows it.
    pub fn kind(&self) -> &'static str {
        self.payload.kind()
    }
}

/// What happened: `kind` names it and `data` holds its fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", content = "data", rename_all = "snake_case")]
pub enum EventPayload {
    ChallengeCreated(ChallengeView),
    ChallengeAccepted(ChallengeAnswer),
    ChallengeDeclined(ChallengeAnswer),
    ChallengeCancelled(ChallengeAnswer),
    ChallengeExpired {},
    GameStarted(GameStarted),
    MovePlayed(MovePlayedEvent),
    DrawOffered(DrawEvent),
    DrawDeclined(DrawEvent),
    GameEnded(GameEnded),
    DeadlineReminder(DeadlineReminder),
    AnalysisDone(AnalysisDone),
    InactivityReminder(InactivityReminder),
    GamePaused(GamePaused),
    GameResumed(GameResumed),
    TournamentStarted(TournamentRound),
    RoundStarted(TournamentRound),
    TournamentEnded(TournamentEnded),
    TournamentJoined(TournamentEntry),
    TournamentLeft(TournamentEntry),
    MatchStarted(MatchStarted),
    MatchEnded(MatchEnded),
    MatchJoined(MatchEntry),
    MatchLeft(MatchEntry),
    MatchCancelled(MatchCancelled),
    VacationStarted(VacationStarted),
    VacationEnded(VacationEnded),
    DailyPuzzle(DailyPuzzle),
}

impl EventPayload {
    pub fn kind(&self) -> &'static str {
        match self {
            EventPayload::ChallengeCreated(_) => "challenge_created",
            EventPayload::ChallengeAccepted(_) => "challenge_accepted",
            EventPayload::ChallengeDeclined(_) => "challenge_declined",
            EventPayload::ChallengeCancelled(_) => "challenge_cancelled",
            EventPayload::ChallengeExpired {} => "challenge_expired",
            EventPayload::GameStarted(_) => "game_started",
            EventPayload::MovePlayed(_) => "move_played",
            EventPayload::DrawOffered(_) => "draw_offered",
            EventPayload::DrawDeclined(_) => "draw_declined",
            EventPayload::GameEnded(_) => "game_ended",
            EventPayload::DeadlineReminder(_) => "deadline_reminder",
            EventPayload::AnalysisDone(_) => "analysis_done",
            EventPayload::InactivityReminder(_) => "inactivity_reminder",
            EventPayload::GamePaused(_) => "game_paused",
            EventPayload::GameResumed(_) => "game_resumed",
            EventPayload::TournamentStarted(_) => "tournament_started",
            EventPayload::RoundStarted(_) => "round_started",
            EventPayload::TournamentEnded(_) => "tournament_ended",
            EventPayload::TournamentJoined(_) => "tournament_joined",
            EventPayload::TournamentLeft(_) => "tournament_left",
            EventPayload::MatchStarted(_) => "match_started",
            EventPayload::MatchEnded(_) => "match_ended",
            EventPayload::MatchJoined(_) => "match_joined",
            EventPayload::MatchLeft(_) => "match_left",
            EventPayload::MatchCancelled(_) => "match_cancelled",
            EventPayload::VacationStarted(_) => "vacation_started",
            EventPayload::VacationEnded(_) => "vacation_ended",
            EventPayload::DailyPuzzle(_) => "daily_puzzle",
        }
    }
}

/// Who answered a challenge (accepted, declined, or cancelled it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ChallengeAnswer {
    pub by: PlayerId,
}

/// A game began: who sits where and who moves first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GameStarted {
    pub attackers: Seat,
    pub defenders: Seat,
    pub variant: Option<String>,
    #[schema(value_type = crate::domain::SideSchema)]
    pub side_to_move: Side,
    pub deadline_at: Option<i64>,
    pub context: Option<String>,
}

/// A move was played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MovePlayedEvent {
    /// 1-based ply of this move.
    pub ply: u32,
    #[schema(value_type = crate::domain::SideSchema)]
    pub side: Side,
    #[serde(rename = "move")]
    pub mv: String,
    /// Canonical notation with captures.
    pub notation: String,
    /// Squares of the soldiers taken off the board (never the king).
    pub captures: Vec<String>,
    /// The king's square when this move captured him.
    pub king_captured: Option<String>,
    pub warning: Option<WarningView>,
    /// The player who moved; `None` for the AI.
    pub by: Option<PlayerId>,
    /// Null once the move ended the game.
    #[schema(value_type = Option<crate::domain::SideSchema>)]
    pub side_to_move: Option<Side>,
    pub deadline_at: Option<i64>,
    pub context: Option<String>,
}

/// A draw offered, or an offer declined, by a side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DrawEvent {
    #[schema(value_type = crate::domain::SideSchema)]
    pub by: Side,
    pub context: Option<String>,
}

/// A game is over.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GameEnded {
    pub status: GameStatus,
    #[schema(value_type = Option<crate::domain::SideSchema>)]
    pub winner: Option<Side>,
    pub reason: ResultReason,
    pub ply: u32,
    pub context: Option<String>,
    /// Whether the game counted for ratings (false in events stored before ratings).
    #[serde(default)]
    pub rated: bool,
    /// A rated game's rating changes, each side's before, after and change; null otherwise.
    #[serde(default)]
    pub ratings: Option<GameRatings>,
}

/// A player's deadline is near.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DeadlineReminder {
    pub player: PlayerId,
    #[schema(value_type = crate::domain::SideSchema)]
    pub side: Side,
    pub ply: u32,
    pub deadline_at: Option<i64>,
    pub context: Option<String>,
}

/// A computer analysis of a game is ready (`GET /games/{id}/analysis`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AnalysisDone {
    pub analysis: AnalysisId,
    /// Plies analysed.
    pub plies: u32,
    /// Each side's accuracy, 0 to 100.
    pub attackers_accuracy: f64,
    pub defenders_accuracy: f64,
}

/// The day's puzzle, posted in the Discord channels of the servers that turned it on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DailyPuzzle {
    pub puzzle_id: crate::domain::PuzzleId,
    /// Days since 1970-01-01 (UTC).
    pub day: i64,
}

/// A game without a clock has waited on a player for long (repeated while it waits).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct InactivityReminder {
    pub player: PlayerId,
    #[schema(value_type = crate::domain::SideSchema)]
    pub side: Side,
    pub ply: u32,
    /// When their turn began (milliseconds since the epoch).
    pub turn_started_at: i64,
    pub context: Option<String>,
}

/// Why a game's clocks stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PauseReason {
    /// The bot was removed from the Discord server where the game is played.
    DiscordServerRemoved,
}

/// A game's clocks stopped: no move is taken and no deadline passes until `game_resumed`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GamePaused {
    pub reason: PauseReason,
    /// When it goes on at the latest (milliseconds since the epoch): then over HTTP, off
    /// Discord, if the bot was not added back to the server before.
    pub resumes_by: i64,
    pub context: Option<String>,
}

/// A player went on vacation: their clock in this game stands still until `until` at the
/// latest (`vacation_ended` says when it runs again). One event per game of theirs that it
/// protects, to both players. An automatic day (`automatic`: the clock had run out and a day
/// of their balance was spent) has moved the deadline already and has no `vacation_ended`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct VacationStarted {
    pub player: PlayerId,
    /// When it ends by itself (milliseconds since the epoch).
    pub until: i64,
    pub automatic: bool,
    /// The game's deadline now (moved by a day when `automatic`).
    pub deadline_at: Option<i64>,
    pub context: Option<String>,
}

/// A player is back from vacation: their clock in this game runs again, its deadline moved by
/// the time their turn stood still.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct VacationEnded {
    pub player: PlayerId,
    /// How long this game's clock stood still for them (milliseconds).
    pub stopped_ms: i64,
    pub deadline_at: Option<i64>,
    pub context: Option<String>,
}

/// Where a resumed game goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ResumedWhere {
    /// In its Discord channel: the bot was added back to the server in time.
    SameChannel,
    /// Over HTTP only: the server's grace period ended, its Discord data was deleted.
    OffDiscord,
}

/// A paused game's clocks run again, from where they stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GameResumed {
    #[serde(rename = "where")]
    pub place: ResumedWhere,
    /// How long the clocks stood still (milliseconds): the deadline moved by as much.
    pub paused_ms: i64,
    pub deadline_at: Option<i64>,
    pub context: Option<String>,
}

/// A tournament started, or one of its rounds did (its games begin at once, each with its
/// own `game_started`). Sent to each of its players.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TournamentRound {
    pub tournament_id: TournamentId,
    pub name: String,
    pub round: u32,
}

/// A tournament's last round ended (`finished`, with its winner), or its start came with too
/// few players (`cancelled`). Sent to each of its players.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TournamentEnded {
    pub tournament_id: TournamentId,
    pub name: String,
    pub status: TournamentStatus,
    pub winner: Option<PlayerId>,
}

/// A player joined a tournament in sign-up, or left it (before its start, or withdrew once it
/// runs). Sent to that player and to the organiser, so a tournament's page redraws on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TournamentEntry {
    pub tournament_id: TournamentId,
    pub name: String,
    /// Who joined or left.
    pub player: PlayerId,
    /// The players signed up (or still playing) after the change.
    pub players: u32,
    /// The tournament was running: the player withdrew, their games forfeited.
    pub withdrew: bool,
}

/// A team match started: every game of every board begins at once (each with its own
/// `game_started`). Sent to each of its players.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MatchStarted {
    pub match_id: TeamMatchId,
    pub name: String,
    pub boards: u32,
}

/// A team match's last game ended: the teams' points and the winner (absent for a draw).
/// Sent to each of its players.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MatchEnded {
    pub match_id: TeamMatchId,
    pub name: String,
    pub home_points: f64,
    pub away_points: f64,
    pub winner: Option<TeamSide>,
}

/// A player joined a team of a match in sign-up, or left it (only before the start). Sent to
/// that player and to the organiser, so the match's page redraws on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MatchEntry {
    pub match_id: TeamMatchId,
    pub name: String,
    /// Who joined or left.
    pub player: PlayerId,
    pub team: TeamSide,
    /// The players of that team after the change.
    pub team_players: u32,
}

/// A team match in sign-up was called off by its organiser: no game of it is played. Sent to
/// each of its players and to the organiser.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MatchCancelled {
    pub match_id: TeamMatchId,
    pub name: String,
    /// The organiser, who called it off.
    pub by: PlayerId,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_and_data_are_the_wire_fields() {
        let event = Event {
            id: EventId(9),
            payload: EventPayload::DrawOffered(DrawEvent {
                by: Side::Attackers,
                context: None,
            }),
            game_id: Some(GameId(4)),
            challenge_id: None,
            players: vec![PlayerId(1), PlayerId(2)],
            created_at: 5,
        };
        let json = serde_json::to_value(&event).unwrap_or_default();
        assert_eq!(json["kind"], "draw_offered");
        assert_eq!(json["kind"], event.kind());
        assert_eq!(json["data"]["by"], "attackers");
        assert_eq!(json["game_id"], 4);
        assert_eq!(json["players"], serde_json::json!([1, 2]));
        let back: Option<Event> = serde_json::from_value(json).ok();
        assert_eq!(back, Some(event));
    }

    #[test]
    fn an_event_without_fields_still_has_its_data_object() {
        let json = serde_json::to_value(EventPayload::ChallengeExpired {}).unwrap_or_default();
        assert_eq!(
            json,
            serde_json::json!({"kind": "challenge_expired", "data": {}})
        );
    }
}
