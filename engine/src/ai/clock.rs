//! When a search must stop: time, nodes, or the caller's stop flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::limits::SearchLimits;

/// How often (in nodes) the clock and the stop flag are read.
const CHECK_EVERY: u64 = 1024;
/// Room kept for unwinding the search and answering, out of the time budget.
const SAFETY: Duration = Duration::from_millis(5);

/// What the threads of one Lazy-SMP search share besides the table.
#[derive(Default)]
pub(crate) struct SmpShared {
    /// Set when any thread's search ends: every other thread stops at its next check.
    pub done: AtomicBool,
    /// Nodes of all threads, added every [`CHECK_EVERY`] nodes: a node budget is for the
    /// whole search, not per thread.
    pub nodes: AtomicU64,
    /// The deepest iteration any thread has completed.
    pub depth: AtomicU32,
}

pub(crate) struct Clock {
    started: Instant,
    hard: Option<Instant>,
    /// The budget that decides whether another iteration may start (none for helpers).
    budget: Option<Duration>,
    max_nodes: u64,
    stop: Option<Arc<AtomicBool>>,
    stopped: bool,
    smp: Option<Arc<SmpShared>>,
    /// This thread's nodes already added to `smp.nodes`.
    reported: u64,
    /// The iteration this thread is searching, and whether it gave it up because another
    /// thread completed that depth first (the search goes on with the next one).
    iteration: u32,
    abandoned: bool,
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
            smp: None,
            reported: 0,
            iteration: 0,
            abandoned: false,
        }
    }

    /// The main thread's clock in a search with helper threads.
    pub fn with_smp(mut self, smp: Arc<SmpShared>) -> Clock {
        self.smp = Some(smp);
        self
    }

    /// A helper thread's clock: the same deadline, node budget and stop flag as the main
    /// thread's, but a helper starts iteration after iteration until the search is done, since
    /// what it leaves in the table is its whole use.
    pub fn helper(limits: &SearchLimits, started: Instant, smp: Arc<SmpShared>) -> Clock {
        let mut clock = Clock::start_at(limits, started).with_smp(smp);
        clock.budget = None;
        clock
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Must the search stop now? Cheap: reads the clock only every [`CHECK_EVERY`] nodes.
    #[inline]
    pub fn must_stop(&mut self, nodes: u64) -> bool {
        if self.stopped || self.abandoned {
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
            if let Some(smp) = &self.smp {
                let fresh = nodes.saturating_sub(self.reported);
                self.reported = nodes;
                let total = smp.nodes.fetch_add(fresh, Ordering::Relaxed) + fresh;
                self.stopped |= smp.done.load(Ordering::Relaxed) || total >= self.max_nodes;
                self.abandoned = smp.depth.load(Ordering::Relaxed) >= self.iteration;
            }
        }
        self.stopped || self.abandoned
    }

    /// Must the search unwind: stopped, or the iteration given up?
    pub fn stopped(&self) -> bool {
        self.stopped || self.abandoned
    }

    /// An iteration of `depth` plies starts.
    pub fn start_iteration(&mut self, depth: u32) {
        self.iteration = depth;
        self.abandoned = false;
    }

    /// Was the iteration given up (not the search stopped) because another thread completed
    /// that depth first?
    pub fn abandoned(&self) -> bool {
        self.abandoned && !self.stopped
    }

    /// The deepest iteration another thread of this search has completed (0 on one thread).
    pub fn completed_elsewhere(&self) -> u32 {
        self.smp
            .as_ref()
            .map_or(0, |smp| smp.depth.load(Ordering::Relaxed))
    }

    /// This thread has completed an iteration of `depth` plies.
    pub fn completed(&self, depth: u32) {
        if let Some(smp) = &self.smp {
            smp.depth.fetch_max(depth, Ordering::Relaxed);
        }
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
