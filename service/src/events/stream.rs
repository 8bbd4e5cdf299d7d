//! Events as front ends read them: live, from the bus (every game, one player's, one game's),
//! and stored, to catch up after a gap or a restart.

use tokio::sync::broadcast;

use crate::domain::{EventId, GameId, PlayerId};
use crate::store::rows;

use super::{Event, Events, bus};
use crate::{Missing, Result, ServiceError};

impl Events<'_> {
    /// Live events (every game). Front ends use this; on `Lagged`, catch up with
    /// [`Events::after`].
    pub fn subscribe(self) -> broadcast::Receiver<Event> {
        self.service.inner.bus.subscribe()
    }

    /// Live events concerning `player` only (event streams); on `Lagged`, catch up with
    /// [`Events::of_player`].
    pub fn subscribe_player(self, player: PlayerId) -> broadcast::Receiver<Event> {
        self.service.inner.bus.subscribe_player(player)
    }

    /// Live events of one game (a game's event stream); on `Lagged`, catch up with
    /// [`Events::of_game`].
    pub fn subscribe_game(self, game: GameId) -> broadcast::Receiver<Event> {
        self.service.inner.bus.subscribe_game(game)
    }

    /// Stored events of game `game` after `since`, oldest first.
    pub async fn of_game(self, game: GameId, since: EventId, limit: u32) -> Result<Vec<Event>> {
        self.service
            .read(move |c| {
                Ok(bus::events_of_rows(rows::events_of_game(
                    c, game, since, limit,
                )?))
            })
            .await
    }

    /// Stored events concerning `player` after `since`, oldest first.
    pub async fn of_player(
        self,
        player: PlayerId,
        since: EventId,
        limit: u32,
    ) -> Result<Vec<Event>> {
        self.service
            .read(move |c| {
                Ok(bus::events_of_rows(rows::events_for_player(
                    c, player, since, limit,
                )?))
            })
            .await
    }

    /// The stored event `id` (the Discord outbox reads the event each post announces).
    pub async fn get(self, id: EventId) -> Result<Event> {
        self.service
            .read(move |c| {
                let row = rows::event(c, id)?
                    .ok_or_else(|| ServiceError::NotFound(Missing::Event(id)))?;
                Ok(bus::event_of_row(row)?)
            })
            .await
    }

    /// Every stored event after `since`, oldest first.
    pub async fn after(self, since: EventId, limit: u32) -> Result<Vec<Event>> {
        self.service
            .read(move |c| Ok(bus::events_of_rows(rows::events_since(c, since, limit)?)))
            .await
    }
}
