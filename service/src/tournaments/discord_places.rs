//! Tournaments joined from several Discord servers. A player who joins from Discord is
//! remembered with the server and channel they joined from: that channel gets the
//! tournament's news (once, however many of its players are sent it), and each of the
//! player's games is shown there (a thread of it, once the front end opens one). A game between
//! players of two servers is so shown in both, and a move made in either appears in the other.

use super::Tournaments;
use super::facade::join_in;
use super::view::TournamentView;
use crate::domain::{GameId, PlayerId, TournamentId, TournamentStatus};
use crate::events::{Event, EventPayload};
use crate::store::Conn;
use crate::store::rows::{self, TournamentDiscordPlace};
use crate::{Emitter, Result, ServiceError};

/// The Discord server and channel a player joins a tournament from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiscordJoinPlace {
    pub guild_id: u64,
    pub channel_id: u64,
}

impl Tournaments<'_> {
    /// Signs `player` up from a Discord channel: the tournament's news and the player's games
    /// are posted there.
    pub async fn join_from_discord(
        self,
        player: PlayerId,
        id: TournamentId,
        place: DiscordJoinPlace,
    ) -> Result<TournamentView> {
        self.service
            .commit(move |c, e| {
                join_in(c, e, player, id)?;
                rows::set_tournament_discord_place(
                    c,
                    id,
                    TournamentDiscordPlace {
                        player,
                        guild_id: place.guild_id,
                        channel_id: place.channel_id,
                    },
                )?;
                Ok(())
            })
            .await?;
        self.get(id).await
    }

    /// The tournament `id` if it is open for sign-up, for a front end that only offers those.
    pub async fn open_for_sign_up(self, id: TournamentId) -> Result<TournamentView> {
        let t = self.get(id).await?;
        if t.status != TournamentStatus::SignUp {
            return Err(ServiceError::Conflict {
                message: format!("tournament {id} is not open for sign-up"),
                game: None,
            });
        }
        Ok(t)
    }
}

/// Shows a tournament game, just opened (its `game_started` emitted), in the Discord channel
/// of each of its players who joined from Discord: one place per channel, the start posted in
/// each.
pub(super) fn show_in_discord(
    c: &Conn<'_>,
    e: &mut Emitter,
    tournament: TournamentId,
    game: GameId,
    players: [PlayerId; 2],
) -> Result<()> {
    let places = rows::tournament_discord_places(c, tournament)?;
    let mut channels: Vec<u64> = players
        .iter()
        .filter_map(|p| places.iter().find(|place| place.player == *p))
        .map(|place| place.channel_id)
        .collect();
    channels.dedup();
    for channel in channels {
        rows::insert_game_mirror(c, game, channel)?;
        e.post_game_start_in(c, game, channel)?;
    }
    Ok(())
}

/// The Discord channel where `event`, a piece of a tournament's news sent to one player, is
/// posted: that player's channel, if they are the first of the tournament's players there.
pub(crate) fn news_channel(c: &Conn<'_>, event: &Event) -> Result<Option<u64>> {
    let tournament = match &event.payload {
        EventPayload::TournamentStarted(r) | EventPayload::RoundStarted(r) => r.tournament_id,
        EventPayload::TournamentEnded(ended) => ended.tournament_id,
        _ => return Ok(None),
    };
    let Some(&player) = event.players.first() else {
        return Ok(None);
    };
    Ok(rows::tournament_news_channel(c, tournament, player)?)
}
