//! Where a game or a challenge stands.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where a game stands: `active` while it is played, then `finished` (won or drawn) or
/// `aborted` (nobody wins, nobody loses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Being played.
    Active,
    /// Over with a result: a win or a draw.
    Finished,
    /// Over without a result (nobody wins, nobody loses).
    Aborted,
}

impl GameStatus {
    pub fn is_active(self) -> bool {
        self == GameStatus::Active
    }
}

/// Where a challenge stands: `pending` until it is accepted, declined, cancelled or expired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeStatus {
    Pending,
    Accepted,
    Declined,
    Cancelled,
    Expired,
}

/// Where an analysis stands: `queued` (waiting its turn), `running`, `done`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AnalysisStatus {
    Queued,
    Running,
    Done,
}

/// How a webhook's deliveries go: `delivering` (its last delivery arrived, or none was made
/// yet), `failing` (every delivery has failed since `failing_since`), `gave_up` (it failed for
/// `webhooks.give_up_after_secs`: its deliveries were marked failed, and no new ones are
/// queued; remove it and add it again once the endpoint is back).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WebhookStatus {
    Delivering,
    Failing,
    GaveUp,
}

/// A tournament's stage: `sign_up` (players join and leave), `running` (rounds are played),
/// `finished` (a winner), `cancelled` (too few players came, or its organiser called it off).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    SignUp,
    Running,
    Finished,
    Cancelled,
}

/// A team match's stage: `sign_up` (players join a team, and may leave it), `running` (every
/// game is played at once), `finished` (all games over: a winning team, or a draw),
/// `cancelled` (its organiser called it off before the start).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchStatus {
    SignUp,
    Running,
    Finished,
    Cancelled,
}

/// One of a team match's two teams: `home` (named first, the organiser's side in Discord) and
/// `away`. On board N, home's player has the attackers in the first game and away's in the
/// second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TeamSide {
    Home,
    Away,
}

impl TeamSide {
    pub const BOTH: [TeamSide; 2] = [TeamSide::Home, TeamSide::Away];

    pub fn other(self) -> TeamSide {
        match self {
            TeamSide::Home => TeamSide::Away,
            TeamSide::Away => TeamSide::Home,
        }
    }
}
