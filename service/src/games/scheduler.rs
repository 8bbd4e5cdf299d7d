//! Time-driven work, all derived from the database so it survives restarts: games that ran
//! out of time, reminders before deadlines and after long silences, expired challenges, and AI
//! turns left pending.

use std::time::Duration;

use tokio::sync::watch;

use crate::domain::{GameId, ReminderKind, Seat};
use crate::store::Conn;
use crate::store::rows;

use super::Scheduler;
use crate::events::{DeadlineReminder, EventPayload, InactivityReminder};
use crate::games::game_state;
use crate::games::moves::end_if_out_of_time;
use crate::logging::ErrorChain;
use crate::{Clock, Result, vacation};

/// What one scheduler pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SchedulerPass {
    pub timeouts: usize,
    pub reminders: usize,
    pub expired_challenges: usize,
    /// Tournaments whose start time came: started, or cancelled for want of players.
    pub tournaments_started: usize,
    /// Rounds at set times whose time came (the round before done): started.
    pub rounds_started: usize,
    /// Vacations whose time was up: ended, their players' clocks running again.
    pub vacations_ended: usize,
    /// Games or challenges whose work failed this pass (logged; the rest went on).
    pub failed: usize,
}

impl SchedulerPass {
    fn failure(
        &mut self,
        work: &str,
        what: &str,
        id: impl std::fmt::Display,
        error: &crate::ServiceError,
    ) {
        self.failed += 1;
        tracing::warn!(work, what, %id, error = %ErrorChain(error), "scheduled work failed; the others go on");
    }
}

/// The deadline thresholds (seconds) passed with `left_ms` to go and not yet sent.
fn thresholds_due(thresholds: &[u64], left_ms: i64, sent: &[u64]) -> Vec<u64> {
    thresholds
        .iter()
        .copied()
        .filter(|t| left_ms <= secs_to_ms(*t) && !sent.contains(t))
        .collect()
}

/// The inactivity reminder due after `idle_for_ms` without a move, if not yet sent: one per
/// whole period of `idle_ms`, named by the seconds it marks.
fn idle_threshold_due(idle_for_ms: i64, idle_ms: i64, sent: &[u64]) -> Option<u64> {
    if idle_ms <= 0 {
        return None;
    }
    let periods = idle_for_ms / idle_ms;
    let threshold = u64::try_from(periods.saturating_mul(idle_ms) / 1000).ok()?;
    (periods >= 1 && !sent.contains(&threshold)).then_some(threshold)
}

/// Games with a deadline reminder due now: read first, so a pass writes only where it sends.
fn deadline_reminders_due(
    c: &Conn<'_>,
    now: i64,
    longest_ms: i64,
    thresholds: &[u64],
) -> Result<Vec<GameId>> {
    let mut due = Vec::new();
    for id in rows::games_with_deadline_within(c, now, longest_ms)? {
        let Some(row) = rows::game(c, id)? else {
            continue;
        };
        if vacation::clocks::kept_by_running_vacation(c, &row, now)? {
            continue;
        }
        let left = row.deadline_at.unwrap_or(now) - now;
        let sent = rows::reminders_sent(c, id, row.ply, ReminderKind::Deadline)?;
        if !thresholds_due(thresholds, left, &sent).is_empty() {
            due.push(id);
        }
    }
    Ok(due)
}

/// Games past their deadline, less those whose clock a running vacation stops (read each
/// pass, they would otherwise be written to each pass for nothing).
fn late_games(c: &Conn<'_>, now: i64) -> Result<Vec<GameId>> {
    let mut late = Vec::new();
    for id in rows::games_past_deadline(c, now)? {
        // A row that cannot be read is left to its own timeout job, which reports it: one
        // bad row must not stop the pass.
        let kept = rows::game(c, id)
            .map_err(Into::into)
            .and_then(|row| match row {
                Some(row) => vacation::clocks::kept_by_running_vacation(c, &row, now),
                None => Ok(true),
            })
            .unwrap_or(false);
        if !kept {
            late.push(id);
        }
    }
    Ok(late)
}

/// Games without a clock with an inactivity reminder due now.
fn inactivity_reminders_due(c: &Conn<'_>, now: i64, idle_ms: i64) -> Result<Vec<GameId>> {
    if idle_ms <= 0 {
        return Ok(Vec::new());
    }
    let mut due = Vec::new();
    for id in rows::games_idle_since(c, now, idle_ms)? {
        let Some(row) = rows::game(c, id)? else {
            continue;
        };
        let sent = rows::reminders_sent(c, id, row.ply, ReminderKind::Inactivity)?;
        if idle_threshold_due(now - row.turn_started_at, idle_ms, &sent).is_some() {
            due.push(id);
        }
    }
    Ok(due)
}

fn secs_to_ms(secs: u64) -> i64 {
    i64::try_from(secs)
        .unwrap_or(i64::MAX / 1000)
        .saturating_mul(1000)
}

impl Scheduler<'_> {
    /// Wall-clock time of the last completed scheduler pass, if any.
    pub fn last_pass_ms(self) -> Option<i64> {
        let at = self
            .service
            .inner
            .last_pass_ms
            .load(std::sync::atomic::Ordering::Relaxed);
        (at > 0).then_some(at)
    }

    /// Does everything due at the service clock's now.
    pub async fn run_due(self) -> Result<SchedulerPass> {
        let now = self.service.now_ms();
        let longest_ms = secs_to_ms(
            self.service
                .inner
                .config
                .reminders_before_secs
                .iter()
                .copied()
                .max()
                .unwrap_or(0),
        );
        let idle_ms = secs_to_ms(self.service.inner.config.inactivity_reminder_secs);
        let thresholds = self.service.inner.config.reminders_before_secs.clone();
        let (late, remind, idle, expired, ai, tournaments, scheduled) = self
            .service
            .read(move |c| {
                Ok::<_, crate::ServiceError>((
                    late_games(c, now)?,
                    deadline_reminders_due(c, now, longest_ms, &thresholds)?,
                    inactivity_reminders_due(c, now, idle_ms)?,
                    rows::expired_challenges(c, now)?,
                    rows::games_awaiting_ai(c)?,
                    rows::tournaments_due_to_start(c, now)?,
                    rows::scheduled_running_tournaments(c, now)?,
                ))
            })
            .await?;
        // One bad row must not stop the timeouts of every other game: each item stands alone.
        let mut pass = SchedulerPass::default();
        // Before the timeouts: a vacation over moves its player's deadlines on first.
        match self.service.vacations().end_due().await {
            Ok(ended) => pass.vacations_ended = ended,
            Err(e) => pass.failure("vacation end", "pass", "all", &e),
        }
        for id in late {
            match self.end_on_time(id).await {
                Ok(ended) => pass.timeouts += usize::from(ended),
                Err(e) => pass.failure("timeout", "game", id, &e),
            }
        }
        for id in remind {
            match self.remind_deadline(id).await {
                Ok(reminded) => pass.reminders += usize::from(reminded),
                Err(e) => pass.failure("reminder", "game", id, &e),
            }
        }
        for id in idle {
            match self.remind_idle(id, idle_ms).await {
                Ok(reminded) => pass.reminders += usize::from(reminded),
                Err(e) => pass.failure("inactivity reminder", "game", id, &e),
            }
        }
        for id in expired {
            match self.service.challenges().expire(id).await {
                Ok(_) => pass.expired_challenges += 1,
                Err(e) => pass.failure("expiry", "challenge", id, &e),
            }
        }
        for id in ai {
            self.service.games().kick_ai(id);
        }
        for id in tournaments {
            match self.service.tournaments().start_when_due(id).await {
                Ok(started) => pass.tournaments_started += usize::from(started),
                Err(e) => pass.failure("start", "tournament", id, &e),
            }
        }
        for id in scheduled {
            match self.service.tournaments().start_round_when_due(id).await {
                Ok(started) => pass.rounds_started += usize::from(started),
                Err(e) => pass.failure("round start", "tournament", id, &e),
            }
        }
        self.service.inner.last_pass_ms.store(
            crate::SystemClock.now_ms(),
            std::sync::atomic::Ordering::Relaxed,
        );
        Ok(pass)
    }

    async fn end_on_time(self, id: GameId) -> Result<bool> {
        self.service
            .commit(move |c, e| {
                let mut row = game_state::load(c, id)?;
                end_if_out_of_time(c, e, &mut row)
            })
            .await
    }

    /// Sends the deadline reminder now due for game `id`, if any: of the thresholds its
    /// deadline has passed, those not yet sent for this ply are marked sent together, and one
    /// reminder goes out (a move made 1 hour before its deadline gets one reminder, not two).
    async fn remind_deadline(self, id: GameId) -> Result<bool> {
        let thresholds = self.service.inner.config.reminders_before_secs.clone();
        self.service
            .commit(move |c, e| {
                let row = game_state::load(c, id)?;
                let Some(deadline) = row.deadline_at.filter(|d| *d > e.now()) else {
                    return Ok(false);
                };
                if !row.status.is_active() {
                    return Ok(false);
                }
                let Seat::Player(player) = game_state::seat(&row, row.side_to_move) else {
                    return Ok(false);
                };
                // Away on vacation, the clock stands still: no deadline is near.
                if vacation::clocks::kept_by_running_vacation(c, &row, e.now())? {
                    return Ok(false);
                }
                let sent = rows::reminders_sent(c, id, row.ply, ReminderKind::Deadline)?;
                let due = thresholds_due(&thresholds, deadline - e.now(), &sent);
                if due.is_empty() {
                    return Ok(false);
                }
                for threshold in &due {
                    rows::insert_reminder_sent(
                        c,
                        id,
                        row.ply,
                        ReminderKind::Deadline,
                        *threshold,
                        e.now(),
                    )?;
                }
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

    /// Reminds the player to move in game `id`, which has no clock, after each `idle_ms`
    /// without a move (the nth reminder after n periods).
    async fn remind_idle(self, id: GameId, idle_ms: i64) -> Result<bool> {
        self.service
            .commit(move |c, e| {
                let row = game_state::load(c, id)?;
                if !row.status.is_active() || row.deadline_at.is_some() || idle_ms <= 0 {
                    return Ok(false);
                }
                let Seat::Player(player) = game_state::seat(&row, row.side_to_move) else {
                    return Ok(false);
                };
                let sent = rows::reminders_sent(c, id, row.ply, ReminderKind::Inactivity)?;
                let Some(threshold) =
                    idle_threshold_due(e.now() - row.turn_started_at, idle_ms, &sent)
                else {
                    return Ok(false);
                };
                rows::insert_reminder_sent(
                    c,
                    id,
                    row.ply,
                    ReminderKind::Inactivity,
                    threshold,
                    e.now(),
                )?;
                e.emit(
                    c,
                    Some(id),
                    None,
                    vec![player],
                    EventPayload::InactivityReminder(InactivityReminder {
                        player,
                        side: row.side_to_move,
                        ply: row.ply,
                        turn_started_at: row.turn_started_at,
                        context: row.context.clone(),
                    }),
                )?;
                Ok(true)
            })
            .await
    }

    /// Runs [`Scheduler::run_due`] every `interval` until `shutdown` turns true.
    pub async fn run(self, interval: Duration, mut shutdown: watch::Receiver<bool>) {
        let mut ticker = tokio::time::interval(interval.max(Duration::from_millis(10)));
        loop {
            tokio::select! {
                _ = ticker.tick() => {
                    if let Err(e) = self.run_due().await {
                        tracing::warn!(error = %ErrorChain(&e), "scheduler pass failed");
                    }
                }
                _ = shutdown.changed() => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: i64 = 3_600_000;

    #[test]
    fn each_deadline_threshold_is_due_once_the_longest_first() {
        let thresholds = [86_400, 7_200];
        assert!(thresholds_due(&thresholds, 30 * HOUR, &[]).is_empty());
        assert_eq!(thresholds_due(&thresholds, 23 * HOUR, &[]), vec![86_400]);
        assert!(thresholds_due(&thresholds, 23 * HOUR, &[86_400]).is_empty());
        assert_eq!(thresholds_due(&thresholds, HOUR, &[86_400]), vec![7_200]);
        // A turn that starts within 2 hours of its deadline: both at once (one reminder).
        assert_eq!(thresholds_due(&thresholds, HOUR, &[]), vec![86_400, 7_200]);
    }

    #[test]
    fn an_inactivity_reminder_comes_once_per_whole_period() {
        let day = 24 * HOUR;
        assert_eq!(idle_threshold_due(2 * day, 3 * day, &[]), None);
        assert_eq!(idle_threshold_due(3 * day, 3 * day, &[]), Some(259_200));
        assert_eq!(idle_threshold_due(4 * day, 3 * day, &[259_200]), None);
        assert_eq!(
            idle_threshold_due(6 * day, 3 * day, &[259_200]),
            Some(518_400)
        );
        assert_eq!(idle_threshold_due(6 * day, 0, &[]), None);
    }
}
