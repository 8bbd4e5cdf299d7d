//! Every change of the service is an event: appended to the `events` table inside the
//! change's own transaction, then broadcast to live listeners once committed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

use crate::store::rows::{self, EventId, EventRow, PlayerId};

use super::Place;

/// An event, as stored and as sent to the stream, webhooks and front ends.
pub type Event = EventRow;

/// Names of the event kinds.
pub mod kind {
    pub const CHALLENGE_CREATED: &str = "challenge_created";
    pub const CHALLENGE_ACCEPTED: &str = "challenge_accepted";
    pub const CHALLENGE_DECLINED: &str = "challenge_declined";
    pub const CHALLENGE_CANCELLED: &str = "challenge_cancelled";
    pub const CHALLENGE_EXPIRED: &str = "challenge_expired";
    pub const GAME_STARTED: &str = "game_started";
    pub const MOVE_PLAYED: &str = "move_played";
    pub const DRAW_OFFERED: &str = "draw_offered";
    pub const DRAW_DECLINED: &str = "draw_declined";
    pub const GAME_ENDED: &str = "game_ended";
    pub const DEADLINE_REMINDER: &str = "deadline_reminder";
}

/// Live events: one channel for every event (front ends), and one per player with listeners
/// (event streams), so a player's stream wakes only for that player's events.
#[derive(Clone)]
pub struct EventBus {
    sender: broadcast::Sender<Event>,
    players: Arc<Mutex<HashMap<PlayerId, broadcast::Sender<Event>>>>,
}

/// Events a player's listeners may fall behind by before they catch up from the table.
const PLAYER_CAPACITY: usize = 256;

impl EventBus {
    pub fn new(capacity: usize) -> EventBus {
        let (sender, _) = broadcast::channel(capacity.max(16));
        EventBus {
            sender,
            players: Arc::default(),
        }
    }

    /// Live events concerning `player` from now on (`Lagged`: catch up from the table).
    pub fn subscribe_player(&self, player: PlayerId) -> broadcast::Receiver<Event> {
        let mut players = self.players.lock().unwrap_or_else(|p| p.into_inner());
        players
            .entry(player)
            .or_insert_with(|| broadcast::channel(PLAYER_CAPACITY).0)
            .subscribe()
    }

    /// Live events from now on. A receiver that falls behind gets `Lagged` and should
    /// catch up from the table with the last id it saw.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.sender.subscribe()
    }

    pub(crate) fn publish(&self, events: Vec<Event>) {
        let mut players = self.players.lock().unwrap_or_else(|p| p.into_inner());
        for e in events {
            for player in &e.players {
                if let Some(sender) = players.get(player) {
                    if sender.receiver_count() == 0 {
                        // Its last stream ended: forget the channel.
                        players.remove(player);
                    } else {
                        let _ = sender.send(e.clone());
                    }
                }
            }
            // No listener is fine: the table keeps every event.
            let _ = self.sender.send(e);
        }
    }
}

/// Game endings that come without a move (a move's post announces its own ending).
const ENDINGS_WITHOUT_A_MOVE: &[&str] = &[
    "resignation",
    "timeout",
    "draw_agreed",
    "aborted",
    super::moves::NO_FIRST_MOVE,
];

/// Whether people in the game's channel should see this event: the service decides where a
/// game is announced, front ends only deliver.
fn announced_in_channel(event: &Event) -> bool {
    match event.kind.as_str() {
        kind::MOVE_PLAYED
        | kind::GAME_STARTED
        | kind::DRAW_OFFERED
        | kind::DRAW_DECLINED
        | kind::DEADLINE_REMINDER
        | kind::CHALLENGE_EXPIRED => true,
        kind::GAME_ENDED => event
            .data
            .get("reason")
            .and_then(|r| r.as_str())
            .is_some_and(|reason| ENDINGS_WITHOUT_A_MOVE.contains(&reason)),
        _ => false,
    }
}

/// The Discord channel where `event` is to be posted, if any.
pub(crate) fn discord_channel_of(
    c: &rusqlite::Connection,
    event: &Event,
) -> Result<Option<u64>, crate::store::StoreError> {
    if !announced_in_channel(event) {
        return Ok(None);
    }
    let context = rows::event_context(c, event.game_id, event.challenge_id)?;
    Ok(context.and_then(|c| Place::from_context(&c).discord_channel()))
}

/// Builds an event to be inserted (its id is assigned by the store).
pub(crate) fn new_event(
    kind: &str,
    game_id: Option<i64>,
    challenge_id: Option<i64>,
    players: Vec<i64>,
    data: serde_json::Value,
    now: i64,
) -> Event {
    let mut players = players;
    players.dedup();
    players.truncate(2);
    EventRow {
        id: 0 as EventId,
        kind: kind.to_owned(),
        game_id,
        challenge_id,
        players,
        data,
        created_at: now,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(id: EventId, players: Vec<PlayerId>) -> Event {
        let mut e = new_event(
            kind::MOVE_PLAYED,
            Some(1),
            None,
            players,
            serde_json::json!({}),
            0,
        );
        e.id = id;
        e
    }

    #[test]
    fn a_players_listener_wakes_only_for_that_players_events() {
        let bus = EventBus::new(16);
        let mut mine = bus.subscribe_player(7);
        let mut everything = bus.subscribe();
        bus.publish(vec![
            event(1, vec![3, 4]),
            event(2, vec![7, 4]),
            event(3, vec![5]),
        ]);
        assert_eq!(mine.try_recv().map(|e| e.id).ok(), Some(2));
        assert!(mine.try_recv().is_err(), "nothing else reached player 7");
        let all: Vec<EventId> =
            std::iter::from_fn(|| everything.try_recv().ok().map(|e| e.id)).collect();
        assert_eq!(all, vec![1, 2, 3]);
    }
}
