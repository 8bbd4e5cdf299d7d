//! A game's result as the person looking reads it: "You won: the king was captured", "You
//! lost: you ran out of time", "The defenders won: the attackers resigned", "Draw by
//! agreement"; never the wire's names (`draw_agreed`).

use crate::domain::{ResultReason, Side};
use crate::service::ResultView;

/// `result` for a viewer who plays `your_side` (None: a spectator).
pub fn result_in_words(result: &ResultView, your_side: Option<Side>) -> String {
    match (result.winner, result.reason) {
        (Some(winner), reason) => {
            let loser = winner.opponent();
            let head = match your_side {
                Some(mine) if mine == winner => "You won".to_owned(),
                Some(_) => "You lost".to_owned(),
                None => format!("The {winner} won"),
            };
            let who_lost = match your_side {
                Some(mine) if mine == loser => "you".to_owned(),
                Some(_) => "your opponent".to_owned(),
                None => format!("the {loser}"),
            };
            let why = match reason {
                ResultReason::Resignation => format!("{who_lost} resigned"),
                ResultReason::Timeout => format!("{who_lost} ran out of time"),
                other => other.describe().to_owned(),
            };
            format!("{head}: {why}")
        }
        (None, ResultReason::DrawAgreed) => "Draw by agreement".to_owned(),
        (None, ResultReason::Draw(reason)) => format!("Draw: {}", reason.describe()),
        (None, ResultReason::Aborted) => "Aborted: nobody won, nobody lost".to_owned(),
        (None, reason) => format!("Aborted: {}", reason.describe()),
    }
}

#[cfg(test)]
mod tests {
    use tafl_engine::{DrawReason, WinReason};

    use super::*;

    fn result(winner: Option<Side>, reason: ResultReason) -> ResultView {
        ResultView { winner, reason }
    }

    #[test]
    fn each_viewer_reads_the_result_from_their_seat() {
        let captured = result(
            Some(Side::Attackers),
            ResultReason::Rules(WinReason::KingCaptured),
        );
        assert_eq!(
            result_in_words(&captured, Some(Side::Attackers)),
            "You won: the king was captured"
        );
        assert_eq!(
            result_in_words(&captured, Some(Side::Defenders)),
            "You lost: the king was captured"
        );
        assert_eq!(
            result_in_words(&captured, None),
            "The attackers won: the king was captured"
        );
        let resigned = result(Some(Side::Defenders), ResultReason::Resignation);
        assert_eq!(
            result_in_words(&resigned, Some(Side::Attackers)),
            "You lost: you resigned"
        );
        assert_eq!(
            result_in_words(&resigned, None),
            "The defenders won: the attackers resigned"
        );
        assert_eq!(
            result_in_words(&result(None, ResultReason::DrawAgreed), None),
            "Draw by agreement"
        );
        assert_eq!(
            result_in_words(
                &result(None, ResultReason::Draw(DrawReason::Repetition)),
                None
            ),
            "Draw: threefold repetition"
        );
        let none_left = result(None, ResultReason::NoFirstMove);
        assert!(!result_in_words(&none_left, None).contains('_'));
    }
}
