//! When a search must stop: time, nodes, or the caller's stop flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::limits::SearchLimits;

/// How often (in nodes) the clock and the stop flag are read.
const CHECK_EVERY: u64 = 1024;
/// Room kept for unwinding the search and answering, out of the time budget.
const SAFETY: Duration = Duration::from_millis(5);

pub(crate) struct Clock {
    started: Instant,
    hard: Option<Instant>,
    budget: Option<Duration>,
    max_nodes: u64,
    stop: Option<Arc<AtomicBool>>,
    stopped: bool,
}

impl Clock {
    /// A clock for a search that began at `started` (the caller's own set-up counts too).
    pub fn start_at(limits: &SearchLimits, started: Instant) -> Clock {
        let hard = limits
            .time
            .map(|budget| started + budget.saturating_sub(SAFETY).max(budget / 2));
        Clock {
            started,
            hard,
            budget: limits.time,
            max_nodes: limits.nodes.unwrap_or(u64::MAX),
            stop: limits.stop.clone(),
            stopped: false,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Must the search stop now? Cheap: reads the clock only every [`CHECK_EVERY`] nodes.
    #[inline]
    pub fn must_stop(&mut self, nodes: u64) -> bool {
        if self.stopped {
            return true;
        }
        if nodes >= self.max_nodes {
            self.stopped = true;
        } else if nodes.is_multiple_of(CHECK_EVERY) {
            self.stopped = self
                .stop
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
                || self.hard.is_some_and(|hard| Instant::now() >= hard);
        }
        self.stopped
    }

    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Is there time for another iteration? Each one costs a few times the previous ones,
    /// so none starts once half the budget is gone.
    pub fn may_start_iteration(&self) -> bool {
        !self.stopped
            && self
                .budget
                .is_none_or(|budget| self.started.elapsed() * 2 < budget)
    }
}
