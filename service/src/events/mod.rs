//! Events: every change of the service is an event, stored with the change that made it and
//! published once durable (live subscribers, the follower that publishes other instances'
//! events, metrics), and delivered to players' webhooks.

pub mod bus;
mod event;
mod follower;
pub mod metrics;
mod stream;
mod webhooks;

use super::GamesService;

pub use bus::EventBus;
pub use event::{
    AnalysisDone, ChallengeAnswer, DailyPuzzle, DeadlineReminder, DrawEvent, Event, EventPayload,
    GameEnded, GamePaused, GameResumed, GameStarted, InactivityReminder, MatchCancelled,
    MatchEnded, MatchEntry, MatchStarted, MovePlayedEvent, PauseReason, ResumedWhere,
    TournamentEnded, TournamentEntry, TournamentRound, VacationEnded, VacationStarted,
};
pub use webhooks::{WebhookDelivery, webhook_secret_schema};

/// Reading events: live subscriptions, and the stored ones to catch up with.
#[derive(Clone, Copy)]
pub struct Events<'s> {
    pub(super) service: &'s GamesService,
}

/// Players' webhooks: registrations, and the deliveries due to them.
#[derive(Clone, Copy)]
pub struct Webhooks<'s> {
    pub(super) service: &'s GamesService,
}
