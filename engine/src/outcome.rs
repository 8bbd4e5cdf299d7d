//! How a game ends.

use serde::{Deserialize, Serialize};

use crate::side::Side;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Outcome {
    Win { winner: Side, reason: WinReason },
    Draw { reason: DrawReason },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WinReason {
    /// The king reached a winning square.
    KingEscaped,
    /// The king was captured (and, where the rules allow a rescue, not freed).
    KingCaptured,
    /// The attackers enclosed the king and every defender.
    Encirclement,
    /// The loser had no legal move on their turn.
    NoLegalMoves,
    /// A threefold repetition decided the game.
    Repetition,
    /// The king stands in an unbreakable fort on the edge.
    EdgeFort,
    /// The defenders repeated a fort arrangement three times (docs/rules.md, R-003-draw-forts).
    DrawFort,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawReason {
    Repetition,
}

impl Outcome {
    pub fn winner(&self) -> Option<Side> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// A sentence: "the defenders win: the king escaped".
    pub fn describe(&self) -> String {
        match self {
            Outcome::Win { winner, reason } => format!("the {winner} win: {}", reason.describe()),
            Outcome::Draw { reason } => format!("draw: {}", reason.describe()),
        }
    }
}

impl WinReason {
    pub const ALL: [WinReason; 7] = [
        WinReason::KingEscaped,
        WinReason::KingCaptured,
        WinReason::Encirclement,
        WinReason::NoLegalMoves,
        WinReason::Repetition,
        WinReason::EdgeFort,
        WinReason::DrawFort,
    ];

    /// The stable name (as serialized): "king_escaped", "no_legal_moves", ...
    pub fn as_str(self) -> &'static str {
        match self {
            WinReason::KingEscaped => "king_escaped",
            WinReason::KingCaptured => "king_captured",
            WinReason::Encirclement => "encirclement",
            WinReason::NoLegalMoves => "no_legal_moves",
            WinReason::Repetition => "repetition",
            WinReason::EdgeFort => "edge_fort",
            WinReason::DrawFort => "draw_fort",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            WinReason::KingEscaped => "the king escaped",
            WinReason::KingCaptured => "the king was captured",
            WinReason::Encirclement => "the king and all his defenders are encircled",
            WinReason::NoLegalMoves => "the other side has no legal move",
            WinReason::Repetition => "threefold repetition",
            WinReason::EdgeFort => "the king is safe in an edge fort",
            WinReason::DrawFort => "the defenders repeated a fort position three times",
        }
    }
}

impl DrawReason {
    pub const ALL: [DrawReason; 1] = [DrawReason::Repetition];

    /// The stable name (as serialized): "repetition".
    pub fn as_str(self) -> &'static str {
        match self {
            DrawReason::Repetition => "repetition",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            DrawReason::Repetition => "threefold repetition",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reason_names_are_their_serialized_form() {
        for reason in WinReason::ALL {
            let json = serde_json::to_value(reason).ok();
            assert_eq!(
                json.as_ref().and_then(|v| v.as_str()),
                Some(reason.as_str())
            );
            let back: Option<WinReason> = json.and_then(|v| serde_json::from_value(v).ok());
            assert_eq!(back, Some(reason));
        }
        for reason in DrawReason::ALL {
            let json = serde_json::to_value(reason).ok();
            assert_eq!(
                json.as_ref().and_then(|v| v.as_str()),
                Some(reason.as_str())
            );
        }
    }
}
