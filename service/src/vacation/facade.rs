//! The vacation facade: a player's balance and state, taking a vacation, coming back, and the
//! scheduler's end of vacations that ran their course.

use crate::domain::PlayerId;
use crate::store::Conn;
use crate::store::rows::{self, VacationRow};

use super::view::{RunningVacationView, VacationRequest, VacationView};
use super::{DAY_MS, allowance, clocks};
use crate::{GamesService, Result, ServiceError};

/// Vacation days: taken, ended, and their balance.
#[derive(Clone, Copy)]
pub struct Vacations<'s> {
    pub service: &'s GamesService,
}

fn view(c: &Conn<'_>, player: PlayerId, per_year: u32, now: i64) -> Result<VacationView> {
    let (days_used, days_left) = allowance::balance(c, player, per_year, now)?;
    let vacation = rows::running_vacation(c, player)?.map(|v| RunningVacationView {
        started_at: v.started_at,
        until: v.ends_at,
        days: v.days,
    });
    Ok(VacationView {
        days_per_year: per_year,
        days_used,
        days_left,
        vacation,
        unprotected_games: clocks::unprotected_games(c, player)?,
    })
}

fn already_on_vacation() -> ServiceError {
    ServiceError::Conflict {
        message: "you are already on vacation; come back first to take another".into(),
        game: None,
    }
}

impl Vacations<'_> {
    fn per_year(self) -> u32 {
        self.service.inner.config.vacation_days_per_year
    }

    /// My balance and whether I am on vacation.
    pub async fn status(self, player: PlayerId) -> Result<VacationView> {
        let per_year = self.per_year();
        let now = self.service.now_ms();
        self.service
            .read(move |c| view(c, player, per_year, now))
            .await
    }

    /// Goes on vacation for `request.days` days from now: my clocks stop in the games it
    /// protects and my opponents there are told.
    pub async fn take(self, player: PlayerId, request: VacationRequest) -> Result<VacationView> {
        let per_year = self.per_year();
        if request.days == 0 {
            return Err(ServiceError::Invalid(
                "days: a vacation lasts at least 1 day".into(),
            ));
        }
        self.service
            .commit(move |c, e| {
                let now = e.now();
                if rows::running_vacation(c, player)?.is_some() {
                    return Err(already_on_vacation());
                }
                let (_, left) = allowance::balance(c, player, per_year, now)?;
                if request.days > left {
                    return Err(ServiceError::Invalid(format!(
                        "days: you have {left} vacation day{} left of {per_year} in the last 365 days",
                        if left == 1 { "" } else { "s" }
                    )));
                }
                let mut vacation = VacationRow {
                    id: 0,
                    player_id: player,
                    started_at: now,
                    ends_at: now.saturating_add(i64::from(request.days) * DAY_MS),
                    ended_at: None,
                    days: request.days,
                    automatic: false,
                };
                vacation.id = rows::insert_vacation(c, &vacation)?;
                clocks::announce_start(c, e, &vacation)?;
                view(c, player, per_year, now)
            })
            .await
    }

    /// Back early: my clocks run again, each turn's deadline moved on by the time it stood
    /// still; the days not begun come back to my balance.
    pub async fn come_back(self, player: PlayerId) -> Result<VacationView> {
        let per_year = self.per_year();
        self.service
            .commit(move |c, e| {
                let Some(running) = rows::running_vacation(c, player)? else {
                    return Err(ServiceError::Conflict {
                        message: "you are not on vacation".into(),
                        game: None,
                    });
                };
                let now = e.now();
                clocks::end_running(c, e, &running, now.min(running.ends_at), None)?;
                view(c, player, per_year, now)
            })
            .await
    }

    /// Ends the vacations whose time is up, each at its own `ends_at` (a late pass gives no
    /// one extra time). Answers how many it ended.
    pub(crate) async fn end_due(self) -> Result<usize> {
        let now = self.service.now_ms();
        let due = self
            .service
            .read(move |c| Ok(rows::vacations_due_to_end(c, now)?))
            .await?;
        let mut ended = 0;
        for player in due {
            let done = self
                .service
                .commit(move |c, e| {
                    let Some(running) = rows::running_vacation(c, player)? else {
                        return Ok(false);
                    };
                    if running.ends_at > e.now() {
                        return Ok(false);
                    }
                    clocks::end_running(c, e, &running, running.ends_at, None)?;
                    Ok(true)
                })
                .await;
            match done {
                Ok(done) => ended += usize::from(done),
                Err(err) => tracing::warn!(
                    %player,
                    error = %crate::logging::ErrorChain(&err),
                    "ending a vacation failed; the others go on"
                ),
            }
        }
        Ok(ended)
    }
}
