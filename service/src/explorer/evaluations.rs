//! The engine's view beside the explorer's human figures: each folded position searched once,
//! with a fixed node budget (so the result is the same whoever asks, on any machine), and
//! stored (`explorer_evaluations`); an answer reads it with the counts and never waits for it.
//!
//! The positions come from the explorer's own answers: a position asked about that finished
//! games reached, and where its most played moves lead, when not searched yet. They wait in a
//! bounded, deduplicated queue (a full queue drops the newest: it is asked again with the next
//! answer); one background task searches them through the engine queue, each only while no AI
//! turn is thinking, so the explorer never holds up a move.

use std::collections::{HashSet, VecDeque};
use std::sync::{Mutex, MutexGuard};

use tafl_engine::ai::analysis;
use tafl_engine::ai::{SearchLimits, Searcher};
use tafl_engine::{Game, Position};
use tokio::sync::{Notify, watch};

use crate::analysis::board::start_score;
use crate::engine_queue::{EngineJob, EngineOwner};
use crate::logging::ErrorChain;
use crate::store::rows::{self, ExplorerEvaluation};
use crate::{Result, ServiceError};

use super::Explorer;

/// Nodes one position is searched for: a fraction of a second, the same result everywhere.
pub const EVALUATION_NODES: u64 = 100_000;
/// Positions waiting for the engine, at most.
pub const MOST_WAITING: usize = 256;
/// Of a position's moves, how many (the most played) get their next position searched.
pub const MOVES_EVALUATED: usize = 12;
/// Transposition table of one search, in MiB (one thread, a short search).
const TABLE_MIB: usize = 16;

/// A position the explorer wants searched: its folded key and the folded image itself, which
/// is what is searched (so the stored best move is in the image's orientation).
#[derive(Debug, Clone)]
pub(super) struct Wanted {
    pub variant: &'static str,
    pub key: u64,
    pub image: Position,
}

/// The positions waiting (and the one being searched), each once.
#[derive(Default)]
pub(crate) struct EvaluationQueue {
    state: Mutex<Waiting>,
    /// Woken when a position is added.
    added: Notify,
}

#[derive(Default)]
struct Waiting {
    order: VecDeque<Wanted>,
    /// Every position waiting or being searched: asked again meanwhile, it is not added twice.
    known: HashSet<(&'static str, u64)>,
}

impl EvaluationQueue {
    /// Adds `wanted` unless it already waits or is being searched, or the queue is full.
    pub(super) fn want(&self, wanted: Wanted) {
        let mut state = self.lock();
        if state.order.len() >= MOST_WAITING {
            tracing::debug!(key = wanted.key, "explorer evaluation queue full: left out");
            return;
        }
        if state.known.insert((wanted.variant, wanted.key)) {
            state.order.push_back(wanted);
            drop(state);
            self.added.notify_one();
        }
    }

    fn next(&self) -> Option<Wanted> {
        self.lock().order.pop_front()
    }

    fn done(&self, wanted: &Wanted) {
        self.lock().known.remove(&(wanted.variant, wanted.key));
    }

    /// Positions waiting or being searched.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().known.len()
    }

    fn lock(&self) -> MutexGuard<'_, Waiting> {
        // Plain collections, consistent between statements: a panic elsewhere leaves nothing
        // half-done.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Explorer<'_> {
    /// Searches the positions the explorer's answers asked for, one at a time, until shutdown.
    pub async fn run_evaluations(self, mut shutdown: watch::Receiver<bool>) {
        let queue = &self.service.inner.explorer_evaluations;
        loop {
            if *shutdown.borrow() {
                return;
            }
            let Some(wanted) = queue.next() else {
                tokio::select! {
                    _ = queue.added.notified() => continue,
                    _ = shutdown.changed() => return,
                }
            };
            if let Err(e) = self.evaluate(&wanted, &mut shutdown).await {
                tracing::warn!(error = %ErrorChain(&e), key = wanted.key, "explorer evaluation failed");
            }
            queue.done(&wanted);
        }
    }

    /// Searches `wanted` once no AI turn is thinking, and stores what was found.
    async fn evaluate(self, wanted: &Wanted, shutdown: &mut watch::Receiver<bool>) -> Result<()> {
        self.service.analysis().wait_for_ai_turns(shutdown).await;
        if *shutdown.borrow() {
            return Ok(());
        }
        let rules = tafl_engine::variant(wanted.variant)
            .map(|v| v.rules())
            .ok_or_else(|| ServiceError::internal(format!("preset {} vanished", wanted.variant)))?;
        let baseline = start_score(&rules);
        let job = EngineJob {
            owner: EngineOwner::Explorer,
            strong: false,
            // Bounded by the queue above, which feeds one search at a time.
            waiting_cap: None,
        };
        let image = wanted.image;
        let eval = self
            .service
            .inner
            .engine
            .run(job, move || {
                let game = Game::from_position(rules, image);
                let limits = SearchLimits::nodes(EVALUATION_NODES)
                    .with_threads(1)
                    .with_table_mib(TABLE_MIB);
                analysis::evaluate(&mut Searcher::new(TABLE_MIB), &game, &limits)
                    .with_baseline(baseline)
            })
            .await?;
        let found = ExplorerEvaluation {
            chance: eval.chance.defenders(),
            best: eval.best.map(|m| m.to_string()),
            forced: eval.forced.as_ref().map(|f| f.describe()),
            depth: eval.depth,
            nodes: eval.nodes,
        };
        let (variant, key, now) = (wanted.variant, wanted.key, self.service.now_ms());
        self.service
            .commit(move |c, _| Ok(rows::put_explorer_evaluation(c, variant, key, &found, now)?))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wanted(key: u64) -> Wanted {
        Wanted {
            variant: "brandubh",
            key,
            image: Position::empty(7),
        }
    }

    #[test]
    fn a_position_waits_once_and_the_queue_has_a_bound() {
        let queue = EvaluationQueue::default();
        queue.want(wanted(1));
        queue.want(wanted(1));
        assert_eq!(queue.len(), 1, "asked twice, waiting once");
        let first = queue.next().expect("one waiting");
        queue.want(wanted(1));
        assert_eq!(queue.len(), 1, "being searched: not added again");
        queue.done(&first);
        assert_eq!(queue.len(), 0);
        for key in 0..(MOST_WAITING as u64 + 10) {
            queue.want(wanted(key));
        }
        assert_eq!(queue.len(), MOST_WAITING, "the newest left out when full");
    }
}
