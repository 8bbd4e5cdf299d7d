//! Bringing a game into a Discord channel (`/follow`): a game started elsewhere (over HTTP) is
//! announced from then on in the channel where one of its players asked for it.

use crate::domain::{GameId, PlayerId};
use crate::store::rows;

use super::Discord;
use crate::games::game_state;
use crate::{GameView, Place, Result, ServiceError};

impl Discord<'_> {
    /// `player` has game `id` posted in `place` from now on. Only the game's own players may,
    /// and only while it is on.
    pub async fn follow_game(self, player: PlayerId, id: GameId, place: Place) -> Result<GameView> {
        let Some(channel) = place.discord_channel() else {
            return Err(ServiceError::Invalid(
                "a game can only be followed in a Discord channel".into(),
            ));
        };
        let cache = self.service.inner.engines.clone();
        self.service
            .commit(move |c, _| {
                let row = game_state::load(c, id)?;
                if game_state::side_of(&row, player).is_none() {
                    // A private game is not found by anyone else, as for reading it.
                    return Err(if row.private {
                        game_state::not_a_player(&row)
                    } else {
                        ServiceError::Forbidden(format!(
                            "only the players of game {id} may bring it here"
                        ))
                    });
                }
                if !row.status.is_active() {
                    return Err(ServiceError::GameOver);
                }
                if row.context.as_deref() == Some(place.to_context().as_str()) {
                    return Err(ServiceError::Invalid(format!(
                        "game {id} is already followed here"
                    )));
                }
                if let Some(home) = rows::thread_of_game(c, id)? {
                    if home.thread_id == channel || home.parent_id == channel {
                        return Err(ServiceError::Invalid(format!(
                            "game {id} is already followed here, in <#{}>",
                            home.thread_id
                        )));
                    }
                    rows::delete_game_thread(c, id)?;
                }
                rows::set_game_context(c, id, Some(&place.to_context()))?;
                let row = game_state::load(c, id)?;
                game_state::game_view(c, &cache, &row, Some(player))
            })
            .await
    }
}
