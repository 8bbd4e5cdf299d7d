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
