//! What a tournament does with the games of a player who withdraws once it runs: chosen by its
//! organiser at creation, kept in its column by the word `domain/src/columns.rs` gives it, and
//! applied by the tournaments service (`service/src/tournaments/withdrawal_rule.rs`).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `forfeit` (the default): the results played stand and the player's later pairings are
/// won by their opponents without a game. `annul`: none of the player's games (played or
/// forfeited) count for anyone, and the player is unranked. `annul_under_half`: FIDE's
/// round-robin rule, `annul` when the player had finished fewer than half of their scheduled
/// games when they withdrew, else `forfeit`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WithdrawalRule {
    #[default]
    Forfeit,
    Annul,
    AnnulUnderHalf,
}

impl WithdrawalRule {
    /// The rule in words, the same on the web and in Discord.
    pub fn sentence(self) -> &'static str {
        match self {
            WithdrawalRule::Forfeit => "a withdrawal forfeits the games left, results played stand",
            WithdrawalRule::Annul => "a withdrawal annuls all the player's games",
            WithdrawalRule::AnnulUnderHalf => {
                "a withdrawal before half the games annuls them all, after it forfeits the rest"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Word;

    #[test]
    fn the_column_word_is_the_apis_word() {
        for &rule in WithdrawalRule::ALL {
            let json = serde_json::to_string(&rule).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(json, format!("\"{}\"", rule.word()));
        }
        assert_eq!(WithdrawalRule::default(), WithdrawalRule::Forfeit);
    }
}
