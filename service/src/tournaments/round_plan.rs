//! What a pairing algorithm answers: a round's games, each with its sides, and who sits out.

use tafl_engine::Side;

use crate::domain::PlayerId;

/// Two players paired for one game of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pairing {
    pub attackers: PlayerId,
    pub defenders: PlayerId,
}

impl Pairing {
    /// The side `player` plays in this pairing, if they are in it.
    pub fn side_of(&self, player: PlayerId) -> Option<Side> {
        if player == self.attackers {
            Some(Side::Attackers)
        } else if player == self.defenders {
            Some(Side::Defenders)
        } else {
            None
        }
    }

    /// The pairing with the sides swapped (the return game of a double round robin).
    pub fn swapped(self) -> Pairing {
        Pairing {
            attackers: self.defenders,
            defenders: self.attackers,
        }
    }
}

/// One round: its games, and the player who sits it out when the count is odd.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundPlan {
    pub pairings: Vec<Pairing>,
    pub bye: Option<PlayerId>,
}
