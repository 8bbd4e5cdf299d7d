//! Engine work (AI turns, hints, analysis searches) for every front end, bounded and fair.
//!
//! A search takes a core for its whole budget, and the strongest level takes every core, so
//! searches never run more at once than there are workers, and only a few at the strongest
//! level. Waiting work is kept per owner (the player it is for) and served round-robin: one
//! player's hundred requests wait behind their own, while everyone else's come in turn.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;

use crate::domain::{GameId, PlayerId};

use super::{Result, ServiceError};

/// Whom a search is for: its turn in the queue is theirs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum EngineOwner {
    Player(PlayerId),
    /// A game with no human seat (the AI against itself).
    Game(GameId),
    /// The opening explorer's background evaluations: one owner, so they take one turn in
    /// each round however many wait.
    Explorer,
}

/// One search asked of the queue.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EngineJob {
    pub owner: EngineOwner,
    /// Takes every core (the strongest AI level, an analysis on every thread): rationed.
    pub strong: bool,
    /// Refused when its owner already has this many searches waiting (`None`: never refused,
    /// for work the service owes, such as an AI's turn).
    pub waiting_cap: Option<usize>,
}

/// How many searches run at once.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EngineLimits {
    pub workers: usize,
    pub strong_at_once: usize,
}

/// The queue; cloned handles share it.
#[derive(Clone)]
pub(crate) struct EngineQueue {
    inner: Arc<Mutex<QueueState>>,
    limits: EngineLimits,
}

#[derive(Default)]
struct QueueState {
    /// Owners with waiting searches, in the order they are served next.
    turns: VecDeque<EngineOwner>,
    waiting: HashMap<EngineOwner, VecDeque<Waiting>>,
    running: usize,
    strong_running: usize,
}

struct Waiting {
    strong: bool,
    start: oneshot::Sender<Slot>,
}

/// A running search's place: given back when dropped, which starts the next one.
struct Slot {
    /// `None` once the place was given back some other way.
    queue: Option<EngineQueue>,
    strong: bool,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let Some(queue) = self.queue.take() else {
            return;
        };
        let mut state = queue.lock();
        state.running = state.running.saturating_sub(1);
        if self.strong {
            state.strong_running = state.strong_running.saturating_sub(1);
        }
        queue.start_next(&mut state);
    }
}

impl EngineQueue {
    pub fn new(limits: EngineLimits) -> EngineQueue {
        EngineQueue {
            inner: Arc::new(Mutex::new(QueueState::default())),
            limits: EngineLimits {
                workers: limits.workers.max(1),
                strong_at_once: limits.strong_at_once.max(1),
            },
        }
    }

    /// Runs `search` on a blocking thread once it is `job`'s turn, and answers what it found.
    /// Dropping the returned future before its turn gives up its place.
    pub async fn run<T, F>(&self, job: EngineJob, search: F) -> Result<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let turn = self.enqueue(job)?;
        self.finish(turn, search).await
    }

    /// Waits for `turn`, then runs `search` on a blocking thread.
    async fn finish<T, F>(&self, turn: oneshot::Receiver<Slot>, search: F) -> Result<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let slot = turn
            .await
            .map_err(|_| ServiceError::internal("the engine queue dropped a search"))?;
        let found = tokio::task::spawn_blocking(move || {
            let found = search();
            drop(slot);
            found
        })
        .await
        .map_err(|e| ServiceError::internal(format!("the engine crashed: {e}")))?;
        Ok(found)
    }

    /// Like [`EngineQueue::run`], and when the search must wait, tells `on_wait` its place in
    /// line first (1: the next to start), so the one who asked can be told.
    pub(crate) async fn run_telling_place<T, F>(
        &self,
        job: EngineJob,
        search: F,
        on_wait: impl FnOnce(usize),
    ) -> Result<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let (turn, place) = self.enqueue_placed(job)?;
        if let Some(place) = place {
            on_wait(place);
        }
        self.finish(turn, search).await
    }

    /// Searches waiting, of every owner.
    #[cfg(test)]
    pub fn waiting(&self) -> usize {
        Self::waiting_in(&self.lock())
    }

    fn waiting_in(state: &QueueState) -> usize {
        state.waiting.values().map(VecDeque::len).sum()
    }

    fn enqueue(&self, job: EngineJob) -> Result<oneshot::Receiver<Slot>> {
        self.enqueue_placed(job).map(|(turn, _)| turn)
    }

    /// Queues `job`; answers its turn and, when it waits, its place in line. Its search is the
    /// last of its owner's (it was just added, and an owner's start from the front), and owners
    /// are served one search each per round, in `turns` order: so the searches before it are,
    /// of every owner, those of the rounds before its own, and in its round the owners ahead.
    fn enqueue_placed(&self, job: EngineJob) -> Result<(oneshot::Receiver<Slot>, Option<usize>)> {
        let (start, turn) = oneshot::channel();
        let mut state = self.lock();
        let mine = state.waiting.get(&job.owner).map_or(0, VecDeque::len);
        if let Some(cap) = job.waiting_cap
            && mine >= cap
        {
            return Err(ServiceError::Limited {
                message: format!(
                    "you already have {mine} searches waiting for the engine; \
                     ask again once they are done"
                ),
                retry_after_secs: super::CAP_RETRY_AFTER_SECS,
            });
        }
        let queue = state.waiting.entry(job.owner).or_default();
        queue.push_back(Waiting {
            strong: job.strong,
            start,
        });
        if queue.len() == 1 {
            state.turns.push_back(job.owner);
        }
        self.start_next(&mut state);
        Ok((turn, Self::place_of_last(&state, job.owner)))
    }

    /// The place in line (1: next) of `owner`'s last waiting search; `None` if none waits.
    fn place_of_last(state: &QueueState, owner: EngineOwner) -> Option<usize> {
        let round = state.waiting.get(&owner).map(VecDeque::len)?;
        let mine = state.turns.iter().position(|o| *o == owner)?;
        let ahead: usize = state
            .turns
            .iter()
            .enumerate()
            .map(|(i, other)| {
                let theirs = state.waiting.get(other).map_or(0, VecDeque::len);
                let earlier_rounds = theirs.min(round - 1);
                let this_round = usize::from(i < mine && theirs >= round);
                earlier_rounds + this_round
            })
            .sum();
        Some(ahead + 1)
    }

    /// Starts waiting searches while workers are free, one owner at a time, in turn. An
    /// owner whose next search is strong while the strong ones are all taken keeps its place
    /// in the round, and the others go before it.
    fn start_next(&self, state: &mut QueueState) {
        self.start_waiting(state);
        metrics::gauge!(crate::telemetry::ENGINE_WAITING).set(Self::waiting_in(state) as f64);
    }

    fn start_waiting(&self, state: &mut QueueState) {
        let mut passed = 0;
        while state.running < self.limits.workers && passed < state.turns.len() {
            let Some(owner) = state.turns.pop_front() else {
                return;
            };
            let Some(queue) = state.waiting.get_mut(&owner) else {
                continue;
            };
            let strong_full = state.strong_running >= self.limits.strong_at_once;
            if queue.front().is_some_and(|w| w.strong && strong_full) {
                state.turns.push_back(owner);
                passed += 1;
                continue;
            }
            let Some(next) = queue.pop_front() else {
                state.waiting.remove(&owner);
                continue;
            };
            if queue.is_empty() {
                state.waiting.remove(&owner);
            } else {
                state.turns.push_back(owner);
            }
            passed = 0;
            let slot = Slot {
                queue: Some(self.clone()),
                strong: next.strong,
            };
            state.running += 1;
            if next.strong {
                state.strong_running += 1;
            }
            // A caller that gave up before its turn gets nothing: its place is given back
            // here, under the lock this loop holds.
            if let Err(mut slot) = next.start.send(slot) {
                slot.queue = None;
                state.running = state.running.saturating_sub(1);
                if slot.strong {
                    state.strong_running = state.strong_running.saturating_sub(1);
                }
            }
        }
    }

    fn lock(&self) -> MutexGuard<'_, QueueState> {
        // The state is counts and queues that stay consistent between statements: a panic
        // elsewhere while it was held leaves nothing half-done.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    /// Awaits `f`, failing the test if it takes more than 10 s.
    async fn within<T>(what: &str, f: impl std::future::Future<Output = T>) -> T {
        tokio::time::timeout(Duration::from_secs(10), f)
            .await
            .unwrap_or_else(|_| panic!("{what} took more than 10 s"))
    }

    fn player(id: i64) -> EngineOwner {
        EngineOwner::Player(PlayerId(id))
    }

    fn job(owner: EngineOwner, strong: bool) -> EngineJob {
        EngineJob {
            owner,
            strong,
            waiting_cap: None,
        }
    }

    /// A search that waits for `gate` before it ends, so the test decides when workers free.
    fn gated(
        gate: &Arc<std::sync::Barrier>,
        order: &Arc<Mutex<Vec<&'static str>>>,
        name: &'static str,
    ) -> impl FnOnce() + Send + 'static {
        let gate = gate.clone();
        let order = order.clone();
        move || {
            order.lock().unwrap().push(name);
            gate.wait();
        }
    }

    #[test]
    fn a_waiting_search_is_told_its_place_in_the_rounds() {
        let queue = EngineQueue::new(EngineLimits {
            workers: 1,
            strong_at_once: 1,
        });
        let mut turns = Vec::new();
        // Player 1's first search runs; its next two wait, then player 2's one.
        let (turn, place) = queue.enqueue_placed(job(player(1), false)).unwrap();
        assert_eq!(place, None, "started at once");
        turns.push(turn);
        for expected in [1, 2] {
            let (turn, place) = queue.enqueue_placed(job(player(1), false)).unwrap();
            assert_eq!(place, Some(expected));
            turns.push(turn);
        }
        // Player 2 goes between player 1's two waiting searches: second in line.
        let (turn, place) = queue.enqueue_placed(job(player(2), false)).unwrap();
        assert_eq!(place, Some(2));
        turns.push(turn);
        // A third player comes after player 2 in the first round.
        let (_turn, place) = queue.enqueue_placed(job(player(3), false)).unwrap();
        assert_eq!(place, Some(3));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_players_many_searches_do_not_put_another_behind_them() {
        let queue = EngineQueue::new(EngineLimits {
            workers: 1,
            strong_at_once: 1,
        });
        let order = Arc::new(Mutex::new(Vec::new()));
        // Two parties per search end: the search and the test.
        let gate = Arc::new(std::sync::Barrier::new(2));
        let mut tasks = Vec::new();
        for _ in 0..5 {
            let q = queue.clone();
            let f = gated(&gate, &order, "many");
            tasks.push(tokio::spawn(async move {
                q.run(job(player(1), false), f).await
            }));
            tokio::task::yield_now().await;
        }
        let wait_queued = |n: usize| {
            let q = queue.clone();
            async move {
                tokio::time::timeout(Duration::from_secs(10), async {
                    while q.waiting() < n {
                        tokio::task::yield_now().await;
                    }
                })
                .await
                .expect("the searches were queued in time")
            }
        };
        // One runs (held at the gate), four wait.
        wait_queued(4).await;
        let q = queue.clone();
        let f = gated(&gate, &order, "one");
        tasks.push(tokio::spawn(async move {
            q.run(job(player(2), false), f).await
        }));
        wait_queued(5).await;
        let gate_opener = gate.clone();
        let opened = tokio::task::spawn_blocking(move || {
            for _ in 0..6 {
                gate_opener.wait();
            }
        });
        for task in tasks {
            within("a search", task).await.unwrap().unwrap();
        }
        within("opening the gate", opened).await.unwrap();
        let order = order.lock().unwrap().clone();
        let place = order.iter().position(|n| *n == "one").unwrap();
        // The first player was in line before the other came: one of their waiting searches
        // goes first, then the other's (in arrival order it would have been last, at 5).
        assert_eq!(
            place, 2,
            "the other player's search comes after one of the first's: {order:?}"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn never_more_searches_than_workers_nor_strong_ones_than_allowed() {
        let queue = EngineQueue::new(EngineLimits {
            workers: 3,
            strong_at_once: 1,
        });
        let running = Arc::new(AtomicUsize::new(0));
        let strong_running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let most_strong = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for i in 0..24 {
            let q = queue.clone();
            let strong = i % 3 == 0;
            let (running, strong_running, most, most_strong) = (
                running.clone(),
                strong_running.clone(),
                most.clone(),
                most_strong.clone(),
            );
            tasks.push(tokio::spawn(async move {
                q.run(job(player(i % 4), strong), move || {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    if strong {
                        let s = strong_running.fetch_add(1, Ordering::SeqCst) + 1;
                        most_strong.fetch_max(s, Ordering::SeqCst);
                    }
                    std::thread::sleep(Duration::from_millis(5));
                    if strong {
                        strong_running.fetch_sub(1, Ordering::SeqCst);
                    }
                    running.fetch_sub(1, Ordering::SeqCst);
                })
                .await
            }));
        }
        for task in tasks {
            within("a search", task).await.unwrap().unwrap();
        }
        assert!(
            most.load(Ordering::SeqCst) <= 3,
            "at most 3 searches at once"
        );
        assert_eq!(
            most_strong.load(Ordering::SeqCst),
            1,
            "one strong search at once"
        );
        assert_eq!(queue.waiting(), 0);
        let state = queue.lock();
        assert_eq!(
            (state.running, state.strong_running),
            (0, 0),
            "every slot given back"
        );
    }

    /// A queue with one worker, taken by a search of `owner`'s until `release` is sent to.
    async fn one_worker_held_by(
        owner: EngineOwner,
    ) -> (
        EngineQueue,
        std::sync::mpsc::Sender<()>,
        tokio::task::JoinHandle<Result<()>>,
    ) {
        let queue = EngineQueue::new(EngineLimits {
            workers: 1,
            strong_at_once: 1,
        });
        let (release, hold) = std::sync::mpsc::channel::<()>();
        let hold = Mutex::new(hold);
        let q = queue.clone();
        let busy = tokio::spawn(async move {
            q.run(job(owner, false), move || {
                let _ = hold.lock().unwrap().recv();
            })
            .await
        });
        within("the first search to start", async {
            while queue.lock().running == 0 {
                tokio::task::yield_now().await;
            }
        })
        .await;
        (queue, release, busy)
    }

    #[tokio::test]
    async fn a_player_with_too_many_waiting_is_refused_and_others_are_not() {
        let (queue, release, busy) = one_worker_held_by(player(9)).await;
        let capped = |owner| EngineJob {
            owner,
            strong: false,
            waiting_cap: Some(2),
        };
        let mut waiting = Vec::new();
        for _ in 0..2 {
            let q = queue.clone();
            waiting.push(tokio::spawn(async move {
                q.run(capped(player(1)), || ()).await
            }));
        }
        tokio::time::timeout(Duration::from_secs(10), async {
            while queue.waiting() < 2 {
                tokio::task::yield_now().await;
            }
        })
        .await
        .expect("two searches waiting");
        let refused = queue.run(capped(player(1)), || ()).await;
        assert!(
            matches!(refused, Err(ServiceError::Limited { .. })),
            "a third waiting search of the same player is refused"
        );
        let other = {
            let q = queue.clone();
            tokio::spawn(async move { q.run(capped(player(2)), || 7).await })
        };
        release.send(()).unwrap();
        within("the first search", busy).await.unwrap().unwrap();
        for task in waiting {
            within("a waiting search", task).await.unwrap().unwrap();
        }
        assert_eq!(
            within("the other player's search", other)
                .await
                .unwrap()
                .unwrap(),
            7,
            "another player is not refused"
        );
    }

    #[tokio::test]
    async fn a_search_given_up_before_its_turn_gives_its_place_back() {
        let (queue, release, busy) = one_worker_held_by(player(1)).await;
        // Given up while waiting: its future is dropped.
        let gave_up = tokio::time::timeout(
            Duration::from_millis(1),
            queue.run(job(player(2), false), || 1),
        )
        .await;
        assert!(gave_up.is_err());
        release.send(()).unwrap();
        within("the first search", busy).await.unwrap().unwrap();
        let next = tokio::time::timeout(
            Duration::from_secs(10),
            queue.run(job(player(3), false), || 3),
        )
        .await
        .expect("the worker is free again");
        assert_eq!(next.unwrap(), 3);
        let state = queue.lock();
        assert_eq!(state.running, 0);
    }
}
