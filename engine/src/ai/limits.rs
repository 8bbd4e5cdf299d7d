//! What bounds one search, and how a weaker level blurs its choice.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::eval::Weights;
use crate::moves::Move;

/// Budget and style of one search. The default is a 1 s search with a 64 MiB table.
#[derive(Clone, Debug)]
pub struct SearchLimits {
    /// Wall-clock budget; the search returns within it (plus a few milliseconds).
    pub time: Option<Duration>,
    /// Most nodes (moves played in the search) to visit.
    pub nodes: Option<u64>,
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Set it from another thread to stop the search; the best move so far is returned.
    pub stop: Option<Arc<AtomicBool>>,
    /// Weaker play: a random root move among those scoring within this margin of the best
    /// (evaluation units; 100 = one soldier). 0 = always the best.
    pub random_margin: i32,
    /// Seed of the random choice among equally good moves.
    pub seed: u64,
    /// Transposition table size for [`crate::ai::search`], in MiB.
    pub table_mib: usize,
    /// Evaluation weights instead of the rules' family defaults (for tuning).
    pub weights: Option<Weights>,
    /// Root moves not to play: a host's house rule these rules do not know. Ignored when it
    /// would leave no move at all.
    pub excluded: Vec<Move>,
    /// Search threads (Lazy SMP: helpers search the same position and share the table).
    /// 1, the default, keeps a node-limited search deterministic and leaves the other cores
    /// to other games; [`SearchLimits::all_cores`] asks for every core. At most
    /// [`SearchLimits::MAX_THREADS`]; 0 counts as 1.
    pub threads: usize,
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits {
            time: Some(Duration::from_secs(1)),
            nodes: None,
            depth: None,
            stop: None,
            random_margin: 0,
            seed: 0,
            table_mib: 64,
            weights: None,
            excluded: Vec::new(),
            threads: 1,
        }
    }
}

/// The cores this machine offers, 1 if it cannot tell.
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

impl SearchLimits {
    /// More helper threads than this gain nothing on a shared table and only cost memory.
    pub const MAX_THREADS: usize = 64;

    /// Bounded by time only.
    pub fn time(budget: Duration) -> SearchLimits {
        SearchLimits {
            time: Some(budget),
            ..SearchLimits::default()
        }
    }

    /// Bounded by nodes only: deterministic for a given seed.
    pub fn nodes(nodes: u64) -> SearchLimits {
        SearchLimits {
            time: None,
            nodes: Some(nodes),
            ..SearchLimits::default()
        }
    }

    /// Bounded by depth only.
    pub fn depth(depth: u32) -> SearchLimits {
        SearchLimits {
            time: None,
            depth: Some(depth),
            ..SearchLimits::default()
        }
    }

    pub fn with_seed(mut self, seed: u64) -> SearchLimits {
        self.seed = seed;
        self
    }

    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> SearchLimits {
        self.stop = Some(stop);
        self
    }

    pub fn with_table_mib(mut self, mib: usize) -> SearchLimits {
        self.table_mib = mib;
        self
    }

    /// Searches on `threads` threads (see [`SearchLimits::threads`]).
    pub fn with_threads(mut self, threads: usize) -> SearchLimits {
        self.threads = threads;
        self
    }

    /// Searches on every core of this machine: for one long search (level 5, an analysis)
    /// rather than for many games thinking at once.
    pub fn all_cores(self) -> SearchLimits {
        self.with_threads(available_threads())
    }

    /// The thread count to use: [`SearchLimits::threads`] within 1 to
    /// [`SearchLimits::MAX_THREADS`].
    pub fn thread_count(&self) -> usize {
        self.threads.clamp(1, SearchLimits::MAX_THREADS)
    }
}
