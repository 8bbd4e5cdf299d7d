//! A circuit breaker per webhook endpoint. An endpoint that failed `webhooks.breaker_failures`
//! deliveries in a row is left alone for a while (open): its deliveries are put off rather
//! than each spending a place, and a timeout, on an endpoint that is down. Once the wait is
//! over one trial delivery is sent (half open); its success closes the circuit, its failure
//! opens it again for a longer wait. Waits are the shared back-off (`crate::backoff`, full
//! jitter), so the endpoints that went down together do not all come back to be tried at once.

use std::time::Duration;

use tokio::time::Instant;

use crate::backoff::Backoff;

#[derive(Debug, Default)]
pub(super) struct Breaker {
    failures_in_a_row: u32,
    /// Times opened since the last success: the back-off's count of tries.
    opened: u32,
    open_until: Option<Instant>,
}

/// What the breaker lets through now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Allowance {
    /// Closed: up to the endpoint's share in flight.
    Closed,
    /// Open: nothing until then.
    OpenUntil(Instant),
    /// The wait is over: one trial in flight.
    Trial,
}

impl Breaker {
    pub(super) fn allowance(&self, now: Instant) -> Allowance {
        match self.open_until {
            None => Allowance::Closed,
            Some(until) if now < until => Allowance::OpenUntil(until),
            Some(_) => Allowance::Trial,
        }
    }

    /// Whether the endpoint has failed lately (its last delivery, at least).
    pub(super) fn failing(&self) -> bool {
        self.failures_in_a_row > 0
    }

    /// Whether nothing is remembered: the endpoint's state may be forgotten.
    pub(super) fn is_clear(&self) -> bool {
        self.failures_in_a_row == 0 && self.open_until.is_none()
    }

    pub(super) fn succeeded(&mut self) {
        *self = Breaker::default();
    }

    /// Counts a failure; when it opens the circuit (again), returns how long it stays open.
    pub(super) fn failed(
        &mut self,
        now: Instant,
        threshold: u32,
        backoff: &Backoff,
    ) -> Option<Duration> {
        self.failures_in_a_row = self.failures_in_a_row.saturating_add(1);
        if self.failures_in_a_row < threshold {
            return None;
        }
        let wait = backoff.wait(self.opened);
        self.opened = self.opened.saturating_add(1);
        self.open_until = Some(now + wait);
        Some(wait)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BACKOFF: Backoff = Backoff::new(Duration::from_secs(1), Duration::from_secs(60));

    #[test]
    fn opens_after_the_threshold_then_tries_once_and_closes_on_success() {
        let now = Instant::now();
        let mut breaker = Breaker::default();
        assert_eq!(breaker.allowance(now), Allowance::Closed);
        assert_eq!(breaker.failed(now, 3, &BACKOFF), None);
        assert_eq!(breaker.failed(now, 3, &BACKOFF), None);
        assert!(breaker.failing() && !breaker.is_clear());
        let wait = breaker.failed(now, 3, &BACKOFF).unwrap();
        assert!(wait <= BACKOFF.ceiling(0));
        let later = now + BACKOFF.ceiling(0) + Duration::from_millis(1);
        if !wait.is_zero() {
            assert_eq!(breaker.allowance(now), Allowance::OpenUntil(now + wait));
        }
        assert_eq!(breaker.allowance(later), Allowance::Trial);
        // The trial fails: open again at once, for a wait below a doubled ceiling.
        let again = breaker.failed(later, 3, &BACKOFF).unwrap();
        assert!(again <= BACKOFF.ceiling(1));
        breaker.succeeded();
        assert!(breaker.is_clear());
        assert_eq!(breaker.allowance(later), Allowance::Closed);
    }
}
