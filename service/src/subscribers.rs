//! The wiring of the areas' reactions to each other's events: which area hears what, in which
//! order. The area that publishes names none of them.

use super::explorer::CountInExplorer;
use super::games::game_ended::GameEndedSubscribers;
use super::matches::play::ScoreMatch;
use super::ratings::glicko::RateEndedGame;
use super::tournaments::rounds::AdvanceRound;

/// Who hears that a game ended. The explorer comes before the ratings: it counts the ratings
/// the players had before the game. Puzzles are mined later, from the analyses of public
/// games (`rows::games_to_mine`); Discord, mail and webhooks hear the `game_ended` event.
pub(super) const GAME_ENDED: GameEndedSubscribers =
    &[&CountInExplorer, &RateEndedGame, &AdvanceRound, &ScoreMatch];
