//! Why a game ended: by the rules (the engine's reasons), or by the players and the clock.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tafl_engine::{DrawReason, Outcome, Side, WinReason};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

/// The reason a game is over. Its name (`as_str`) is what the API shows and the store keeps:
/// the engine's win reasons as they are ("king_escaped"), its draw reasons prefixed
/// ("draw_repetition"), and the service's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResultReason {
    /// Won on the board.
    Rules(WinReason),
    /// Drawn on the board.
    Draw(DrawReason),
    Resignation,
    /// The loser ran out of time.
    Timeout,
    DrawAgreed,
    /// Both players agreed to stop before it counted (nobody wins).
    Aborted,
    /// The side to move never made its first move before its deadline (nobody wins).
    NoFirstMove,
}

impl ResultReason {
    /// The winner and reason of the engine's verdict.
    pub fn of_outcome(outcome: &Outcome) -> (Option<Side>, ResultReason) {
        match *outcome {
            Outcome::Win { winner, reason } => (Some(winner), ResultReason::Rules(reason)),
            Outcome::Draw { reason } => (None, ResultReason::Draw(reason)),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ResultReason::Rules(reason) => reason.as_str(),
            ResultReason::Draw(DrawReason::Repetition) => "draw_repetition",
            ResultReason::Resignation => "resignation",
            ResultReason::Timeout => "timeout",
            ResultReason::DrawAgreed => "draw_agreed",
            ResultReason::Aborted => "aborted",
            ResultReason::NoFirstMove => "no_first_move",
        }
    }

    /// The reason in words, for people ("the king escaped").
    pub fn describe(self) -> &'static str {
        match self {
            ResultReason::Rules(reason) => reason.describe(),
            ResultReason::Draw(reason) => reason.describe(),
            ResultReason::Resignation => "resignation",
            ResultReason::Timeout => "time ran out",
            ResultReason::DrawAgreed => "a draw was agreed",
            ResultReason::Aborted => "the game was aborted",
            ResultReason::NoFirstMove => "a player did not make their first move in time",
        }
    }

    /// Every reason: the engine's wins and draws, then the service's own.
    pub fn all() -> impl Iterator<Item = ResultReason> {
        let service = [
            ResultReason::Resignation,
            ResultReason::Timeout,
            ResultReason::DrawAgreed,
            ResultReason::Aborted,
            ResultReason::NoFirstMove,
        ];
        WinReason::ALL
            .into_iter()
            .map(ResultReason::Rules)
            .chain(DrawReason::ALL.into_iter().map(ResultReason::Draw))
            .chain(service)
    }

    pub fn parse(text: &str) -> Option<ResultReason> {
        ResultReason::all().find(|r| r.as_str() == text)
    }

    /// Whether this ending comes without a move (a move's own post announces the others).
    pub fn comes_without_a_move(self) -> bool {
        !matches!(self, ResultReason::Rules(_) | ResultReason::Draw(_))
    }
}

impl fmt::Display for ResultReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ResultReason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ResultReason {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        ResultReason::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown result reason {text:?}")))
    }
}

/// On the wire: one of the names of [`ResultReason::all`], so the document lists exactly what
/// can be sent.
impl PartialSchema for ResultReason {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(ResultReason::all().map(ResultReason::as_str)))
            .description(Some(
                "Why the game ended: the rules' wins (king_escaped, king_captured, ...) and draws \
                 (draw_repetition), or the players and the clock (resignation, timeout, \
                 draw_agreed; aborted and no_first_move: nobody wins).",
            ))
            .into()
    }
}

impl ToSchema for ResultReason {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_has_words_for_people_not_its_wire_name() {
        let mut described = std::collections::HashSet::new();
        for reason in ResultReason::all() {
            let words = reason.describe();
            assert!(!words.contains('_'), "{reason} reads as {words:?}");
            assert!(described.insert(words) || words == "threefold repetition");
        }
    }

    #[test]
    fn every_reason_reads_back_from_its_name() {
        let all = ResultReason::all();
        let mut names = std::collections::HashSet::new();
        for reason in all {
            assert!(names.insert(reason.as_str()), "{reason} named twice");
            assert_eq!(ResultReason::parse(reason.as_str()), Some(reason));
            let json = serde_json::to_string(&reason).unwrap_or_default();
            assert_eq!(
                serde_json::from_str::<ResultReason>(&json).ok(),
                Some(reason)
            );
        }
        assert_eq!(ResultReason::parse("checkmate"), None);
    }

    #[test]
    fn the_engines_draw_is_named_apart_from_its_repetition_win() {
        let (winner, reason) = ResultReason::of_outcome(&Outcome::Draw {
            reason: DrawReason::Repetition,
        });
        assert_eq!((winner, reason.as_str()), (None, "draw_repetition"));
        let (winner, reason) = ResultReason::of_outcome(&Outcome::Win {
            winner: Side::Defenders,
            reason: WinReason::Repetition,
        });
        assert_eq!(
            (winner, reason.as_str()),
            (Some(Side::Defenders), "repetition")
        );
    }
}
