//! Who sits on one side of a game.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{ImportedPlayerId, PlayerId};

/// One seat of a game: a person (`{"player": id}`), the AI at a level (`{"ai": level}`), or a
/// player named in an imported record (`{"imported": id}`), who is a name and not an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    Player(PlayerId),
    Ai(u8),
    Imported(ImportedPlayerId),
}

impl Seat {
    pub fn player(self) -> Option<PlayerId> {
        match self {
            Seat::Player(p) => Some(p),
            Seat::Ai(_) | Seat::Imported(_) => None,
        }
    }
}
