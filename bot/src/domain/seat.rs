//! Who sits on one side of a game.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::PlayerId;

/// One seat of a game: a person (`{"player": id}`) or the AI at a level (`{"ai": level}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    Player(PlayerId),
    Ai(u8),
}

impl Seat {
    pub fn player(self) -> Option<PlayerId> {
        match self {
            Seat::Player(p) => Some(p),
            Seat::Ai(_) => None,
        }
    }
}
