//! The end of a game, published inside the transaction that ends it: the games area calls no
//! area above it. Each area that reacts (explorer and balance, ratings, tournaments, team
//! matches) registers a [`GameEndedSubscriber`] in the service's wiring
//! (`service/src/subscribers.rs`), and decides from the [`EndedGame`]'s facts (visibility, origin,
//! rated) what it may take, the way lichess's modules subscribe to "finishGame" on its bus.
//! Discord announcements, mail and webhooks hear the `game_ended` event the same transaction
//! writes.

use crate::domain::{GameId, GameOrigin, GameStatus, Visibility};
use crate::store::Conn;
use crate::store::rows::GameRow;
use crate::views::GameRatings;
use crate::{Emitter, Result};

/// A game that has just ended (its row written back, its moves stored), with the facts a
/// subscriber decides from.
pub(crate) struct EndedGame<'a> {
    pub row: &'a GameRow,
    pub visibility: Visibility,
    pub origin: GameOrigin,
    /// When it ended (ms since the epoch, the service's clock).
    pub at: i64,
}

impl<'a> EndedGame<'a> {
    /// `row` as it ended; an imported game says so itself (`origin`), since its seats may
    /// name nobody imported.
    pub fn of(row: &'a GameRow) -> EndedGame<'a> {
        EndedGame {
            row,
            visibility: Visibility::of_private_flag(row.private),
            origin: GameOrigin::of_seats(row.attackers, row.defenders),
            at: row.finished_at.unwrap_or(row.updated_at),
        }
    }

    pub fn imported(row: &'a GameRow) -> EndedGame<'a> {
        EndedGame {
            origin: GameOrigin::Imported,
            ..EndedGame::of(row)
        }
    }

    pub fn id(&self) -> GameId {
        self.row.id
    }

    /// Whether the game may be counted into what everyone reads about games played here (the
    /// opening explorer, the variant balance): a public game played here, finished with a
    /// result (not aborted), of a preset.
    pub fn counts_in_public_statistics(&self) -> bool {
        self.visibility.is_public()
            && self.origin.played_here()
            && self.row.status == GameStatus::Finished
            && self.row.variant.is_some()
    }
}

/// What the subscribers settled before the `game_ended` event is written, for the event to
/// carry.
#[derive(Default)]
pub(crate) struct Settlement {
    pub ratings: Option<GameRatings>,
}

/// An area's reaction to a game's end, run in the ending transaction: a failure rolls the
/// whole end back.
pub(crate) trait GameEndedSubscriber: Sync {
    /// Before the `game_ended` event: what the result itself changes, with the state from
    /// before it (the explorer counts the ratings the players had; ratings then change).
    fn settle(
        &self,
        _c: &Conn<'_>,
        _ended: &EndedGame<'_>,
        _settled: &mut Settlement,
    ) -> Result<()> {
        Ok(())
    }

    /// After the `game_ended` event: what the end sets off (a round's end, a match's score),
    /// whose events follow the game's.
    fn react(&self, _c: &Conn<'_>, _e: &mut Emitter, _ended: &EndedGame<'_>) -> Result<()> {
        Ok(())
    }
}

/// The subscribers, in the order they run (the wiring decides it once).
pub(crate) type GameEndedSubscribers = &'static [&'static dyn GameEndedSubscriber];

/// Runs every subscriber's `settle`, in order.
pub(crate) fn settle(
    subscribers: GameEndedSubscribers,
    c: &Conn<'_>,
    ended: &EndedGame<'_>,
) -> Result<Settlement> {
    let mut settled = Settlement::default();
    for subscriber in subscribers {
        subscriber.settle(c, ended, &mut settled)?;
    }
    Ok(settled)
}

/// Runs every subscriber's `react`, in order.
pub(crate) fn react(
    subscribers: GameEndedSubscribers,
    c: &Conn<'_>,
    e: &mut Emitter,
    ended: &EndedGame<'_>,
) -> Result<()> {
    for subscriber in subscribers {
        subscriber.react(c, e, ended)?;
    }
    Ok(())
}
