//! A Discord server's moderators: members with the server's moderator role may abort any game
//! played in that server, at any point; the game ends aborted and unrated.

use crate::domain::{GameId, ResultReason};
use crate::store::rows;

use super::Discord;
use crate::discord::server_settings::{ServerMember, ServerSettings};
use crate::games::game_state;
use crate::games::moves::{end_if_out_of_time, finish};
use crate::{GameView, Missing, Place, Result, ServiceError};

impl Discord<'_> {
    /// `member` aborts game `id` from `place` (where the command was used): the game must be
    /// played there (or in a thread of that channel), and the member must hold the server's
    /// moderator role.
    pub async fn abort_as_moderator(
        self,
        member: &ServerMember,
        settings: &ServerSettings,
        place: Place,
        id: GameId,
    ) -> Result<GameView> {
        if !settings.is_moderator(member) {
            return Err(ServiceError::Forbidden(match settings.moderator_role {
                Some(role) => format!("only members with the <@&{role}> role may abort games"),
                None => "this server has no moderator role; a member who may manage the \
                         server sets one with `/settings moderator_role:`"
                    .into(),
            }));
        }
        let cache = self.service.inner.engines.clone();
        let viewer = Some(member.player);
        self.service
            .commit(move |c, e| {
                let mut row = game_state::load(c, id)?;
                let here = place.discord_channel();
                let in_thread_here =
                    rows::thread_of_game(c, id)?.is_some_and(|home| Some(home.parent_id) == here);
                if row.context.as_deref() != Some(place.to_context().as_str()) && !in_thread_here {
                    return Err(ServiceError::NotFound(Missing::GameElsewhere(id)));
                }
                if !row.status.is_active() || end_if_out_of_time(c, e, &mut row)? {
                    return Err(ServiceError::GameOver);
                }
                // An aborted game is never rated: `finish` rates only finished games.
                finish(c, e, &mut row, None, ResultReason::Aborted)?;
                game_state::game_view(c, &cache, &row, viewer)
            })
            .await
    }
}
