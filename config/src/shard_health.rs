//! Each gateway shard's state as `/health` shows it: what the gateway relay
//! (`discord/src/gateway_relay`) saw last on the shard's connection, and when Discord last sent
//! anything on it. A shard that has heard nothing for longer than its heartbeat interval and
//! a grace is reported `silent`, not `connected`: Discord acknowledges every heartbeat, so
//! silence means the connection is dead even if the socket is still open.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

/// What a shard is doing, as the relay last saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShardState {
    /// Opening a connection, or between connections.
    Connecting,
    /// IDENTIFY sent (or waiting for its turn in the `max_concurrency` bucket); no READY yet.
    Identifying,
    /// RESUME sent; no RESUMED yet.
    Resuming,
    /// READY or RESUMED received.
    Connected,
    /// Stopped for good until the process restarts; `reason` says what the operator must do.
    Stopped { reason: String },
}

/// One shard's entry.
#[derive(Debug, Clone)]
struct Entry {
    state: ShardState,
    last_event: Option<Instant>,
    heartbeat_interval: Option<Duration>,
}

/// The shards of one Discord front end, written by the gateway relay, read by `/health`.
#[derive(Debug, Clone, Default)]
pub struct ShardBoard {
    shards: Arc<Mutex<BTreeMap<u16, Entry>>>,
}

/// How a shard looks from outside, in `/health`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct ShardReport {
    pub id: u16,
    pub state: ShardStateName,
    /// Why a shard stopped (only when `stopped`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Milliseconds since Discord last sent anything on the shard's connection (null before
    /// the first frame).
    pub last_event_ms_ago: Option<u64>,
}

/// A shard's state as `/health` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ShardStateName {
    Connecting,
    Identifying,
    Resuming,
    Connected,
    /// Connected, but nothing heard for longer than the heartbeat interval and its grace.
    Silent,
    Stopped,
}

/// How long past its heartbeat interval a connected shard may stay silent: the interval again
/// (Discord acknowledges each heartbeat at once, so two intervals without a frame is dead).
fn silence_limit(interval: Duration) -> Duration {
    interval.saturating_mul(2)
}

/// serde-free view of `Instant::elapsed` in whole milliseconds.
fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl ShardBoard {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u16, Entry>> {
        self.shards
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Starts the board over with `shards`, all connecting; stopped shards stay stopped.
    pub fn begin(&self, shards: impl IntoIterator<Item = u16>) {
        let mut board = self.lock();
        let stopped: BTreeMap<u16, Entry> = board
            .iter()
            .filter(|(_, e)| matches!(e.state, ShardState::Stopped { .. }))
            .map(|(id, e)| (*id, e.clone()))
            .collect();
        board.clear();
        for id in shards {
            let entry = stopped.get(&id).cloned().unwrap_or(Entry {
                state: ShardState::Connecting,
                last_event: None,
                heartbeat_interval: None,
            });
            board.insert(id, entry);
        }
    }

    /// Sets `shard`'s state; a stopped shard stays stopped.
    pub fn set(&self, shard: u16, state: ShardState) {
        let mut board = self.lock();
        let entry = board.entry(shard).or_insert(Entry {
            state: ShardState::Connecting,
            last_event: None,
            heartbeat_interval: None,
        });
        if !matches!(entry.state, ShardState::Stopped { .. }) {
            entry.state = state;
        }
    }

    /// Discord sent something on `shard`'s connection now.
    pub fn heard(&self, shard: u16) {
        if let Some(entry) = self.lock().get_mut(&shard) {
            entry.last_event = Some(Instant::now());
        }
    }

    /// The heartbeat interval Discord asked `shard` for (its HELLO).
    pub fn heartbeat_interval(&self, shard: u16, interval: Duration) {
        if let Some(entry) = self.lock().get_mut(&shard) {
            entry.heartbeat_interval = Some(interval);
        }
    }

    /// Whether every shard on the board is stopped (and there is at least one).
    pub fn all_stopped(&self) -> bool {
        let board = self.lock();
        !board.is_empty()
            && board
                .values()
                .all(|e| matches!(e.state, ShardState::Stopped { .. }))
    }

    /// Each shard's report, in shard order.
    pub fn reports(&self) -> Vec<ShardReport> {
        let now = Instant::now();
        self.lock()
            .iter()
            .map(|(id, entry)| {
                let since = entry.last_event.map(|at| now.saturating_duration_since(at));
                let silent = matches!(entry.state, ShardState::Connected)
                    && match (since, entry.heartbeat_interval) {
                        (Some(since), Some(interval)) => since > silence_limit(interval),
                        _ => false,
                    };
                let (state, reason) = match &entry.state {
                    ShardState::Connected if silent => (ShardStateName::Silent, None),
                    ShardState::Connected => (ShardStateName::Connected, None),
                    ShardState::Connecting => (ShardStateName::Connecting, None),
                    ShardState::Identifying => (ShardStateName::Identifying, None),
                    ShardState::Resuming => (ShardStateName::Resuming, None),
                    ShardState::Stopped { reason } => {
                        (ShardStateName::Stopped, Some(reason.clone()))
                    }
                };
                ShardReport {
                    id: *id,
                    state,
                    reason,
                    last_event_ms_ago: since.map(millis),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state_of(board: &ShardBoard, shard: u16) -> ShardStateName {
        board
            .reports()
            .into_iter()
            .find(|r| r.id == shard)
            .map(|r| r.state)
            .unwrap_or(ShardStateName::Stopped)
    }

    #[test]
    fn a_connected_shard_that_hears_nothing_past_its_heartbeats_is_silent() {
        let board = ShardBoard::default();
        board.begin([0, 1]);
        for shard in [0, 1] {
            board.set(shard, ShardState::Connected);
            board.heartbeat_interval(shard, Duration::from_millis(1));
            board.heard(shard);
        }
        std::thread::sleep(Duration::from_millis(5));
        board.heard(1);
        board.heartbeat_interval(1, Duration::from_secs(60));
        assert_eq!(state_of(&board, 0), ShardStateName::Silent);
        assert_eq!(state_of(&board, 1), ShardStateName::Connected);
    }

    #[test]
    fn a_stopped_shard_stays_stopped_across_restarts_with_its_reason() {
        let board = ShardBoard::default();
        board.begin([0]);
        board.set(
            0,
            ShardState::Stopped {
                reason: "close 4011".into(),
            },
        );
        board.set(0, ShardState::Connected);
        board.begin([0]);
        let report = &board.reports()[0];
        assert_eq!(report.state, ShardStateName::Stopped);
        assert_eq!(report.reason.as_deref(), Some("close 4011"));
        assert!(board.all_stopped());
    }
}
