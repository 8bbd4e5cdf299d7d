//! The metrics that committed events stand for (`telemetry.rs` names and describes them).

use metrics::counter;

use crate::telemetry::{GAMES_ENDED, GAMES_STARTED, MOVES};

use crate::{Event, EventPayload};

/// Counts what committed events say happened: moves, games started and ended.
pub(crate) fn record_events(events: &[Event]) {
    for event in events {
        match &event.payload {
            EventPayload::MovePlayed(played) => {
                let by = if played.by.is_none() { "ai" } else { "player" };
                counter!(MOVES, "by" => by).increment(1);
            }
            EventPayload::GameStarted(_) => counter!(GAMES_STARTED).increment(1),
            EventPayload::GameEnded(ended) => {
                counter!(GAMES_ENDED, "reason" => ended.reason.as_str()).increment(1);
            }
            _ => {}
        }
    }
}
