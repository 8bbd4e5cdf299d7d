//! Time-driven work, all derived from the database so it survives restarts: games that ran
//! out of time, reminders before deadlines, expired challenges, and AI turns left pending.

use std::time::Duration;

use tokio::sync::watch;

use crate::domain::{GameId, Seat};
use crate::store::rows;

use super::event::{DeadlineReminder, EventPayload};
use super::game_state;
use super::moves::end_if_out_of_time;
use super::{Clock, GamesService, Result};

/// What one scheduler pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SchedulerPass {
    pub timeouts: usize,
    pub reminders: usize,
    pub expired_challenges: usize,
    /// Games or challenges whose work failed this pass (logged; the rest went on).
    pub failed: usize,
}

impl SchedulerPass {
    fn failure(
        &mut self,
        work: &str,
        what: &str,
        id: impl std::fmt::Display,
        error: &super::ServiceError,
    ) {
        self.failed += 1;
        tracing::warn!(work, what, %id, %error, "scheduled work failed; the others go on");
    }
}

impl GamesService {
    /// Wall-clock time of the last completed scheduler pass, if any.
    pub fn last_scheduler_pass_ms(&self) -> Option<i64> {
        let at = self
            .inner
            .last_pass_ms
            .load(std::sync::atomic::Ordering::Relaxed);
        (at > 0).then_some(at)
    }

    /// Does everything due at the service clock's now.
    pub async fn run_due(&self) -> Result<SchedulerPass> {
        let now = self.now_ms();
        let before_ms = i64::try_from(self.inner.config.reminder_before_secs)
            .unwrap_or(0)
            .saturating_mul(1000);
        let (late, remind, expired, ai) = self
            .read(move |c| {
                Ok::<_, super::ServiceError>((
                    rows::games_past_deadline(c, now)?,
                    rows::games_needing_reminder(c, now, before_ms)?,
                    rows::expired_challenges(c, now)?,
                    rows::games_awaiting_ai(c)?,
                ))
            })
            .await?;
        // One bad row must not stop the timeouts of every other game: each item stands alone.
        let mut pass = SchedulerPass::default();
        for id in late {
            match self.end_on_time(id).await {
                Ok(ended) => pass.timeouts += usize::from(ended),
                Err(e) => pass.failure("timeout", "game", id, &e),
            }
        }
        for id in remind {
            match self.remind(id, before_ms).await {
                Ok(reminded) => pass.reminders += usize::from(reminded),
                Err(e) => pass.failure("reminder", "game", id, &e),
            }
        }
        for id in expired {
            match self.expire_challenge(id).await {
                Ok(_) => pass.expired_challenges += 1,
                Err(e) => pass.failure("expiry", "challenge", id, &e),
            }
        }
        for id in ai {
            self.kick_ai(id);
        }
        self.inner.last_pass_ms.store(
            super::SystemClock.now_ms(),
            std::sync::atomic::Ordering::Relaxed,
        );
        Ok(pass)
    }

    async fn end_on_time(&self, id: GameId) -> Result<bool> {
        self.commit(move |c, e| {
            let mut row = game_state::load(c, id)?;
            end_if_out_of_time(c, e, &mut row)
        })
        .await
    }

    async fn remind(&self, id: GameId, before_ms: i64) -> Result<bool> {
        self.commit(move |c, e| {
            let mut row = game_state::load(c, id)?;
            let due = row.status.is_active()
                && row.reminded_ply != Some(row.ply)
                && row
                    .deadline_at
                    .is_some_and(|d| d > e.now() && d <= e.now() + before_ms);
            if !due {
                return Ok(false);
            }
            let Seat::Player(player) = game_state::seat(&row, row.side_to_move) else {
                return Ok(false);
            };
            row.reminded_ply = Some(row.ply);
            rows::update_game(c, &row)?;
            e.emit(
                c,
                Some(id),
                None,
                vec![player],
                EventPayload::DeadlineReminder(DeadlineReminder {
                    player,
                    side: row.side_to_move,
                    ply: row.ply,
                    deadline_at: row.deadline_at,
                    context: row.context.clone(),
                }),
            )?;
            Ok(true)
        })
        .await
    }

    /// Runs [`GamesService::run_due`] every `interval` until `shutdown` turns true.
    pub async fn run_scheduler(&self, interval: Duration, mut shutdown: watch::Receiver<bool>) {
        let mut ticker = tokio::time::interval(interval.max(Duration::from_millis(10)));
        loop {
            tokio::select! {
                _ = ticker.tick() => {
                    if let Err(e) = self.run_due().await {
                        tracing::warn!(error = %e, "scheduler pass failed");
                    }
                }
                _ = shutdown.changed() => return,
            }
        }
    }
}
