//! A rematch: the same game again with the sides swapped, asked for by one of its players once
//! it is over.

use tafl_engine::Side;

use crate::domain::{GameId, PlayerId, SideChoice};

use super::Challenges;
use crate::views::{ChallengeCreated, GameView, SeatView};
use crate::{Missing, NewChallenge, Opponent, Place, Result, RulesChoice, ServiceError};

/// Who the rematch is against: the other seat of the game.
fn opponent_of(seat: &SeatView) -> Result<Opponent> {
    match (seat.player_id, seat.ai_level) {
        (Some(player), _) => Ok(Opponent::Player(player)),
        (None, Some(level)) => Ok(Opponent::Ai { level }),
        (None, None) => Err(ServiceError::internal(
            "a seat with neither a player nor the AI",
        )),
    }
}

/// The challenge that replays `game` with `mine` (the asker's old side) swapped: same rules,
/// clock, rating and privacy, in the same place.
fn rematch_request(game: &GameView, mine: Side) -> Result<NewChallenge> {
    let (side, other) = match mine {
        Side::Attackers => (SideChoice::Defenders, &game.defenders),
        Side::Defenders => (SideChoice::Attackers, &game.attackers),
    };
    let opponent = opponent_of(other)?;
    Ok(NewChallenge {
        rated: Some(game.rated),
        opponent,
        rules: match &game.variant {
            Some(variant) => RulesChoice::Variant(variant.clone()),
            None => RulesChoice::Rules(game.rules.clone()),
        },
        side,
        clock: game.clock,
        context: game.context.as_deref().map(Place::from_context),
        private: game.private,
    })
}

impl Challenges<'_> {
    /// `player` asks for a rematch of the finished `game`: a challenge to the other player
    /// (against the AI the new game starts at once).
    pub async fn rematch(self, player: PlayerId, game: GameId) -> Result<ChallengeCreated> {
        let view = self.service.games().game(Some(player), game).await?;
        let Some(mine) = view.your_side else {
            // A private game is not found by anyone else, as for reading it.
            return Err(if view.private {
                ServiceError::NotFound(Missing::Game(game))
            } else {
                ServiceError::Forbidden(format!("you do not play in game {game}"))
            });
        };
        if view.status.is_active() {
            return Err(ServiceError::Conflict {
                message: format!("game {game} is still going; a rematch comes after its end"),
                game: None,
            });
        }
        let request = rematch_request(&view, mine)?;
        self.create(player, request).await
    }
}
