//! How a match game ended, by kind: the rules' endings, the ply limit, an engine's own verdict,
//! a timeout, a failure, a house-rules difference, or the match being stopped.

use tafl_engine::{DrawReason, Game, Outcome, Side, WinReason};

use crate::protocol::player::{PlayerError, Verdict};
use crate::protocol::process::ProcessError;

/// How a game ended. The first five are scored by the rules; `Adjudicated` by an engine's own
/// verdict; `Timeout` as a loss for the side that overran (as cutechess and fishtest count
/// time forfeits); the last three are not scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    Won {
        winner: Side,
        reason: WinReason,
    },
    Drawn(DrawReason),
    /// Still going at the match's ply limit: a draw.
    PlyLimit,
    /// An external engine ended the game by its own rules, or resigned (None: a draw).
    Adjudicated {
        winner: Option<Side>,
    },
    /// The `loser`'s player said nothing for longer than the host waits.
    Timeout {
        loser: Side,
    },
    /// A player crashed, broke the protocol or played a move our referee refuses.
    EngineFailure,
    /// An external engine refused a move our referee allows, or its board differs from ours.
    RulesDifference,
    /// The match was stopped during the game.
    Interrupted,
}

impl Ending {
    /// A finished (or abandoned) game's ending, from how play stopped.
    pub fn of(
        game: &Game,
        failure: Option<&(Option<Side>, PlayerError)>,
        verdict: Option<&Verdict>,
        interrupted: bool,
    ) -> Ending {
        if let Some((side, error)) = failure {
            return match (side, error) {
                (Some(side), PlayerError::Process(ProcessError::Silent { .. })) => {
                    Ending::Timeout { loser: *side }
                }
                _ if interrupted => Ending::Interrupted,
                _ if error.is_rules_difference() => Ending::RulesDifference,
                _ => Ending::EngineFailure,
            };
        }
        if let Some(verdict) = verdict {
            return Ending::Adjudicated {
                winner: verdict.winner,
            };
        }
        match game.outcome() {
            Some(&Outcome::Win { winner, reason }) => Ending::Won { winner, reason },
            Some(&Outcome::Draw { reason }) => Ending::Drawn(reason),
            None if interrupted => Ending::Interrupted,
            None => Ending::PlyLimit,
        }
    }

    /// The winning side: `Some(None)` for a draw, `None` for a game not scored.
    pub fn winner(&self) -> Option<Option<Side>> {
        match *self {
            Ending::Won { winner, .. } => Some(Some(winner)),
            Ending::Drawn(_) | Ending::PlyLimit => Some(None),
            Ending::Adjudicated { winner } => Some(winner),
            Ending::Timeout { loser } => Some(Some(loser.opponent())),
            Ending::EngineFailure | Ending::RulesDifference | Ending::Interrupted => None,
        }
    }

    /// Points of the player on `side` (None: not scored).
    pub fn points(&self, side: Side) -> Option<f64> {
        Some(match self.winner()? {
            Some(winner) if winner == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        })
    }

    /// Did a player (rather than the rules) cause the end, so an external engine should be
    /// started afresh before it plays again?
    pub fn calls_for_restart(&self) -> bool {
        matches!(
            self,
            Ending::Timeout { .. }
                | Ending::EngineFailure
                | Ending::RulesDifference
                | Ending::Interrupted
        )
    }

    /// The kind of ending, apart from who won: "king escaped", "draw by repetition", "timeout".
    pub fn kind(&self) -> &'static str {
        match self {
            Ending::Won { reason, .. } => match reason {
                WinReason::KingEscaped => "king escaped",
                WinReason::KingCaptured => "king captured",
                WinReason::Encirclement => "encirclement",
                WinReason::NoLegalMoves => "no moves",
                WinReason::Repetition => "won by repetition",
                WinReason::EdgeFort => "edge fort",
                WinReason::DrawFort => "draw fort (lost)",
            },
            Ending::Drawn(DrawReason::Repetition) => "draw by repetition",
            Ending::PlyLimit => "ply limit (draw)",
            Ending::Adjudicated { winner: None } => "adjudicated draw",
            Ending::Adjudicated { winner: Some(_) } => "adjudicated or resigned",
            Ending::Timeout { .. } => "timeout",
            Ending::EngineFailure => "engine failure (not scored)",
            Ending::RulesDifference => "rules differ (not scored)",
            Ending::Interrupted => "stopped (not scored)",
        }
    }

    /// A stable name for records: `king_escaped`, `timeout`...
    pub fn tag(&self) -> String {
        match self {
            Ending::Won { reason, .. } => reason.as_str().to_string(),
            Ending::Drawn(DrawReason::Repetition) => "draw_repetition".to_string(),
            Ending::PlyLimit => "ply_limit".to_string(),
            Ending::Adjudicated { .. } => "adjudication".to_string(),
            Ending::Timeout { loser } => format!("timeout_{loser}"),
            Ending::EngineFailure => "engine_failure".to_string(),
            Ending::RulesDifference => "rules_difference".to_string(),
            Ending::Interrupted => "interrupted".to_string(),
        }
    }

    /// Where the kind is listed in a summary.
    pub(crate) fn rank(&self) -> u8 {
        match self {
            Ending::Won { reason, .. } => match reason {
                WinReason::KingEscaped => 0,
                WinReason::KingCaptured => 1,
                WinReason::Encirclement => 2,
                WinReason::NoLegalMoves => 3,
                WinReason::Repetition => 4,
                WinReason::EdgeFort => 5,
                WinReason::DrawFort => 6,
            },
            Ending::Drawn(_) => 7,
            Ending::PlyLimit => 8,
            Ending::Adjudicated { .. } => 9,
            Ending::Timeout { .. } => 10,
            Ending::EngineFailure => 11,
            Ending::RulesDifference => 12,
            Ending::Interrupted => 13,
        }
    }
}
