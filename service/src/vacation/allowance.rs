//! The vacation balance: days per rolling year, less the days spent in the last 365 days.

use crate::domain::PlayerId;
use crate::store::{Conn, rows};

use super::DAY_MS;
use crate::Result;

/// The year a balance is counted over: the 365 days before now.
const YEAR_MS: i64 = 365 * DAY_MS;

/// Days used and days left of `player`'s `per_year` at `now`.
pub fn balance(c: &Conn<'_>, player: PlayerId, per_year: u32, now: i64) -> Result<(u32, u32)> {
    let used = rows::vacation_days_since(c, player, now.saturating_sub(YEAR_MS))?;
    Ok((used, per_year.saturating_sub(used)))
}

/// What a vacation that ran from `started_at` to `ended_at` costs: the whole days begun (at
/// least one), never more than the `booked` days it was taken for.
pub(crate) fn days_spent(started_at: i64, ended_at: i64, booked: u32) -> u32 {
    let away = (ended_at - started_at).max(0);
    let begun = u32::try_from((away + DAY_MS - 1) / DAY_MS).unwrap_or(u32::MAX);
    begun.clamp(1, booked.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vacation_ended_early_costs_the_days_begun() {
        assert_eq!(days_spent(0, 1, 5), 1);
        assert_eq!(days_spent(0, DAY_MS, 5), 1);
        assert_eq!(days_spent(0, DAY_MS + 1, 5), 2);
        assert_eq!(days_spent(0, 9 * DAY_MS, 5), 5, "never more than booked");
        assert_eq!(days_spent(5, 5, 3), 1, "ended at once: still a day");
    }
}
