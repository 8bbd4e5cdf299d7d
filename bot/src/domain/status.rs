//! Where a game or a challenge stands.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeStatus {
    Pending,
    Accepted,
    Declined,
    Cancelled,
    Expired,
}
