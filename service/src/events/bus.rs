//! Every change of the service is an event: appended to the `events` table inside the
//! change's own transaction, then broadcast to live listeners once committed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

use serde_json::{Map, Value};

use crate::domain::{ChallengeId, EventId, GameId, PlayerId};
use crate::logging::ErrorChain;
use crate::store::Conn;
use crate::store::StoreError;
use crate::store::rows::{self, EventRow};

use crate::Place;
use crate::events::{Event, EventPayload, ResumedWhere};

/// Live events: one channel for every event (front ends), and one per player with listeners
/// (event streams), so a player's stream wakes only for that player's events.
#[derive(Clone)]
pub struct EventBus {
    sender: broadcast::Sender<Event>,
    players: Arc<Mutex<HashMap<PlayerId, broadcast::Sender<Event>>>>,
    /// One channel per game with spectators (a game's event stream).
    games: Arc<Mutex<HashMap<GameId, broadcast::Sender<Event>>>>,
}

/// Events a player's listeners may fall behind by before they catch up from the table.
const PLAYER_CAPACITY: usize = 256;

impl EventBus {
    pub fn new(capacity: usize) -> EventBus {
        let (sender, _) = broadcast::channel(capacity.max(16));
        EventBus {
            sender,
            players: Arc::default(),
            games: Arc::default(),
        }
    }

    /// Live events of game `game` from now on (`Lagged`: catch up from the table).
    pub fn subscribe_game(&self, game: GameId) -> broadcast::Receiver<Event> {
        let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        games
            .entry(game)
            .or_insert_with(|| broadcast::channel(PLAYER_CAPACITY).0)
            .subscribe()
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
        let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        for e in events {
            if let Some(game) = e.game_id
                && let Some(sender) = games.get(&game)
            {
                if sender.receiver_count() == 0 {
                    games.remove(&game);
                } else {
                    let _ = sender.send(e.clone());
                }
            }
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

/// Whether people in the game's channel should see this event: the service decides where a
/// game is announced, front ends only deliver.
pub(crate) fn announced_in_channel(event: &Event) -> bool {
    match &event.payload {
        EventPayload::MovePlayed(_)
        | EventPayload::GameStarted(_)
        | EventPayload::DrawOffered(_)
        | EventPayload::DrawDeclined(_)
        | EventPayload::DeadlineReminder(_)
        | EventPayload::InactivityReminder(_)
        | EventPayload::ChallengeExpired {}
        // The opponent is told in the game's channel why the clock stands still.
        | EventPayload::VacationStarted(_)
        | EventPayload::VacationEnded(_) => true,
        // A move's post announces the ending it caused.
        EventPayload::GameEnded(ended) => ended.reason.comes_without_a_move(),
        // Back in its channel: said there. Off Discord: no channel to say it in.
        EventPayload::GameResumed(resumed) => resumed.place == ResumedWhere::SameChannel,
        // The bot is no longer in the server: its players are told by direct message.
        EventPayload::GamePaused(_) => false,
        EventPayload::ChallengeCreated(_)
        | EventPayload::ChallengeAccepted(_)
        | EventPayload::ChallengeDeclined(_)
        | EventPayload::ChallengeCancelled(_)
        // Asked for by one player (Discord's /analyze answers in its own reply).
        | EventPayload::AnalysisDone(_)
        // A tournament's news belongs to no game's channel; its games are announced.
        | EventPayload::TournamentStarted(_)
        | EventPayload::RoundStarted(_)
        | EventPayload::TournamentEnded(_)
        // Sign-up changes show on the tournament's page and in `/tournament standings`.
        | EventPayload::TournamentJoined(_)
        | EventPayload::TournamentLeft(_)
        // A team match's news goes to its teams' channels; its games are announced.
        | EventPayload::MatchStarted(_)
        | EventPayload::MatchEnded(_)
        | EventPayload::MatchCancelled(_)
        // Sign-up changes show on the match's page and in `/match status`.
        | EventPayload::MatchJoined(_)
        | EventPayload::MatchLeft(_)
        // Posted by the daily puzzle's own job in the channels that asked for it.
        | EventPayload::DailyPuzzle(_) => false,
    }
}

/// The Discord channel where `event` is to be posted, if any.
pub(crate) fn discord_channel_of(
    c: &Conn<'_>,
    event: &Event,
) -> Result<Option<u64>, crate::store::StoreError> {
    if !announced_in_channel(event) {
        return Ok(None);
    }
    let context = match &event.payload {
        // The move's own game row gave it: no need to read it again.
        EventPayload::MovePlayed(played) => played.context.clone(),
        _ => rows::event_context(c, event.game_id, event.challenge_id)?,
    };
    Ok(context.and_then(|c| Place::from_context(&c).discord_channel()))
}

/// The Discord user to tell by direct message that `event` puts them to move, if they asked
/// for such messages (`/notify dm on`): a game's start, a move, a reminder.
pub(crate) fn discord_dm_of(
    c: &Conn<'_>,
    event: &Event,
) -> Result<Option<u64>, crate::store::StoreError> {
    let player = match &event.payload {
        EventPayload::DeadlineReminder(reminder) => Some(reminder.player),
        EventPayload::InactivityReminder(reminder) => Some(reminder.player),
        // A game against the AI starts at its player's own command: nothing to tell them.
        EventPayload::GameStarted(started)
            if matches!(started.attackers, crate::domain::Seat::Ai(_))
                || matches!(started.defenders, crate::domain::Seat::Ai(_)) =>
        {
            None
        }
        EventPayload::GameStarted(started) => seat_player(started.side_to_move, started),
        // One query for the seat's player and their choice: this runs for every move.
        EventPayload::MovePlayed(played) => {
            return match (played.side_to_move, event.game_id) {
                (Some(side), Some(game)) => rows::discord_dm_user_to_move(c, game, side),
                _ => Ok(None),
            };
        }
        _ => None,
    };
    let Some(player) = player else {
        return Ok(None);
    };
    if !rows::wants_discord_dm(c, player)? {
        return Ok(None);
    }
    Ok(rows::player(c, player)?.and_then(|p| p.discord_user_id))
}

/// The Discord users told of `event` by direct message whatever their `/notify` choice: the
/// players of a game whose Discord server removed the bot (paused), and of one that goes on
/// off Discord once the server's grace period ended, since no channel post reaches them.
pub(crate) fn discord_venue_dms_of(
    c: &Conn<'_>,
    event: &Event,
) -> Result<Vec<u64>, crate::store::StoreError> {
    let tell = match &event.payload {
        EventPayload::GamePaused(_) => true,
        EventPayload::GameResumed(resumed) => resumed.place == ResumedWhere::OffDiscord,
        _ => false,
    };
    if !tell {
        return Ok(Vec::new());
    }
    let mut users = Vec::with_capacity(event.players.len());
    for player in &event.players {
        if let Some(user) = rows::player(c, *player)?.and_then(|p| p.discord_user_id) {
            users.push(user);
        }
    }
    Ok(users)
}

fn seat_player(
    side: crate::domain::Side,
    started: &crate::events::GameStarted,
) -> Option<PlayerId> {
    let seat = match side {
        crate::domain::Side::Attackers => started.attackers,
        crate::domain::Side::Defenders => started.defenders,
    };
    match seat {
        crate::domain::Seat::Player(p) => Some(p),
        crate::domain::Seat::Ai(_) | crate::domain::Seat::Imported(_) => None,
    }
}

/// Builds an event to be inserted (its id is assigned by the store).
pub(crate) fn new_event(
    payload: EventPayload,
    game_id: Option<GameId>,
    challenge_id: Option<ChallengeId>,
    mut players: Vec<PlayerId>,
    now: i64,
) -> Event {
    players.dedup();
    players.truncate(2);
    Event {
        id: EventId(0),
        payload,
        game_id,
        challenge_id,
        players,
        created_at: now,
    }
}

/// The row that stores `event`: its kind, and its fields as the JSON `data`.
pub(crate) fn event_row(event: &Event) -> Result<EventRow, StoreError> {
    let corrupt = |e: serde_json::Error| StoreError::Corrupt(e.to_string());
    let mut tagged = match serde_json::to_value(&event.payload).map_err(corrupt)? {
        Value::Object(map) => map,
        other => {
            return Err(StoreError::Corrupt(format!(
                "event payload {other} is not an object"
            )));
        }
    };
    Ok(EventRow {
        id: event.id,
        kind: event.kind().to_owned(),
        game_id: event.game_id,
        challenge_id: event.challenge_id,
        players: event.players.clone(),
        data: tagged
            .remove("data")
            .unwrap_or_else(|| Value::Object(Map::new())),
        created_at: event.created_at,
    })
}

/// The event a stored row holds.
pub(crate) fn event_of_row(row: EventRow) -> Result<Event, StoreError> {
    let mut tagged = Map::new();
    tagged.insert("kind".to_owned(), Value::String(row.kind));
    tagged.insert("data".to_owned(), row.data);
    let payload: EventPayload = serde_json::from_value(Value::Object(tagged))
        .map_err(|e| StoreError::Corrupt(format!("event {}: {e}", row.id)))?;
    Ok(Event {
        id: row.id,
        payload,
        game_id: row.game_id,
        challenge_id: row.challenge_id,
        players: row.players,
        created_at: row.created_at,
    })
}

/// The events of stored rows; a row that no longer reads as an event is left out with a
/// warning rather than stopping every stream at it.
pub(crate) fn events_of_rows(rows: Vec<EventRow>) -> Vec<Event> {
    rows.into_iter()
        .filter_map(|row| {
            event_of_row(row)
                .map_err(|e| tracing::warn!(error = %ErrorChain(&e), "skipping a stored event"))
                .ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(id: i64, players: Vec<i64>) -> Event {
        let mut e = new_event(
            EventPayload::ChallengeExpired {},
            None,
            Some(ChallengeId(1)),
            players.into_iter().map(PlayerId).collect(),
            0,
        );
        e.id = EventId(id);
        e
    }

    #[test]
    fn a_players_listener_wakes_only_for_that_players_events() {
        let bus = EventBus::new(16);
        let mut mine = bus.subscribe_player(PlayerId(7));
        let mut everything = bus.subscribe();
        bus.publish(vec![
            event(1, vec![3, 4]),
            event(2, vec![7, 4]),
            event(3, vec![5]),
        ]);
        assert_eq!(mine.try_recv().map(|e| e.id.get()).ok(), Some(2));
        assert!(mine.try_recv().is_err(), "nothing else reached player 7");
        let all: Vec<i64> =
            std::iter::from_fn(|| everything.try_recv().ok().map(|e| e.id.get())).collect();
        assert_eq!(all, vec![1, 2, 3]);
    }

    #[test]
    fn every_kind_reads_back_from_its_stored_row_under_its_name() {
        use crate::domain::AnalysisId;
        use crate::domain::{GameStatus, ResultReason, Seat, Side};
        use crate::events::*;
        let payloads = vec![
            EventPayload::GamePaused(GamePaused {
                reason: PauseReason::DiscordServerRemoved,
                resumes_by: 5,
                context: Some("discord:channel:7".into()),
            }),
            EventPayload::GameResumed(GameResumed {
                place: ResumedWhere::OffDiscord,
                paused_ms: 3,
                deadline_at: Some(9),
                context: None,
            }),
            EventPayload::VacationStarted(VacationStarted {
                player: PlayerId(3),
                until: 11,
                automatic: true,
                deadline_at: Some(12),
                context: None,
            }),
            EventPayload::VacationEnded(VacationEnded {
                player: PlayerId(3),
                stopped_ms: 4,
                deadline_at: Some(13),
                context: None,
            }),
            EventPayload::ChallengeAccepted(ChallengeAnswer { by: PlayerId(3) }),
            EventPayload::ChallengeDeclined(ChallengeAnswer { by: PlayerId(3) }),
            EventPayload::ChallengeCancelled(ChallengeAnswer { by: PlayerId(3) }),
            EventPayload::ChallengeExpired {},
            EventPayload::GameStarted(GameStarted {
                attackers: Seat::Player(PlayerId(1)),
                defenders: Seat::Ai(3),
                variant: Some("brandubh".into()),
                side_to_move: Side::Attackers,
                deadline_at: None,
                context: None,
            }),
            EventPayload::MovePlayed(MovePlayedEvent {
                ply: 1,
                side: Side::Attackers,
                mv: "d1-d3".into(),
                notation: "d1-d3".into(),
                captures: vec![],
                king_captured: None,
                warning: None,
                by: None,
                side_to_move: Some(Side::Defenders),
                deadline_at: Some(9),
                context: Some("label".into()),
            }),
            EventPayload::DrawOffered(DrawEvent {
                by: Side::Defenders,
                context: None,
            }),
            EventPayload::DrawDeclined(DrawEvent {
                by: Side::Attackers,
                context: None,
            }),
            EventPayload::GameEnded(GameEnded {
                status: GameStatus::Finished,
                winner: Some(Side::Defenders),
                reason: ResultReason::Resignation,
                ply: 9,
                context: None,
                rated: true,
                ratings: Some(crate::GameRatings {
                    pool: "brandubh".into(),
                    attackers: crate::RatingChange {
                        player_id: PlayerId(1),
                        before: 1500.0,
                        after: 1337.69,
                        change: -162.31,
                        deviation: 290.32,
                        provisional: true,
                    },
                    defenders: crate::RatingChange {
                        player_id: PlayerId(2),
                        before: 1500.0,
                        after: 1662.31,
                        change: 162.31,
                        deviation: 290.32,
                        provisional: true,
                    },
                }),
            }),
            EventPayload::GameEnded(GameEnded {
                status: GameStatus::Aborted,
                winner: None,
                reason: ResultReason::NoFirstMove,
                ply: 1,
                context: None,
                rated: false,
                ratings: None,
            }),
            EventPayload::DeadlineReminder(DeadlineReminder {
                player: PlayerId(1),
                side: Side::Attackers,
                ply: 4,
                deadline_at: Some(7),
                context: None,
            }),
            EventPayload::AnalysisDone(AnalysisDone {
                analysis: AnalysisId(3),
                plies: 40,
                attackers_accuracy: 81.5,
                defenders_accuracy: 64.25,
            }),
            EventPayload::InactivityReminder(InactivityReminder {
                player: PlayerId(1),
                side: Side::Defenders,
                ply: 5,
                turn_started_at: 3,
                context: None,
            }),
        ];
        for payload in payloads {
            let event = new_event(payload, Some(GameId(2)), None, vec![PlayerId(1)], 5);
            let row = event_row(&event).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(row.kind, event.kind());
            assert!(row.data.is_object(), "{}: {}", row.kind, row.data);
            assert_eq!(event_of_row(row).ok(), Some(event));
        }
    }

    #[test]
    fn a_stored_row_that_no_longer_reads_is_left_out_not_fatal() {
        let good = event_row(&event(1, vec![1])).unwrap_or_else(|e| panic!("{e}"));
        let mut bad = good.clone();
        bad.kind = "move_played".into();
        bad.id = EventId(2);
        let read = events_of_rows(vec![good, bad]);
        assert_eq!(read.iter().map(|e| e.id.get()).collect::<Vec<_>>(), vec![1]);
    }
}
