//! The webhook worker: takes due deliveries from the outbox and sends each as soon as its
//! endpoint (its webhook's URL) has a place, never waiting for the others. An endpoint that is
//! slow or down costs only its own deliveries:
//! - at most `webhooks.max_in_flight_per_endpoint` of its deliveries are in flight, and
//!   `webhooks.max_in_flight` in all, so the rest of the places go to the other endpoints;
//! - a few more wait in memory for its places ([`QUEUED_PER_ENDPOINT`]) while it answers;
//!   any beyond, and any for an endpoint that is failing, are put back in the outbox (no
//!   attempt counted) for about as long as its deliveries have been taking, so one
//!   endpoint's backlog never fills the worker nor costs a write a second;
//! - the endpoints that are failing or slow share half the places in all, so however many of them
//!   there are, the others keep the other half;
//! - after `webhooks.breaker_failures` failures in a row its circuit opens (`breaker.rs`): its
//!   deliveries are put off, without an attempt counted, until one trial delivery succeeds.
//!
//! A backlog (after an outage) drains as fast as the receivers answer: a finished delivery's
//! place is taken by the next one at once, and the outbox is read again whenever a batch's
//! worth of places is free. Deliveries to one webhook may arrive out of order, as before:
//! receivers order events by their ids.

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio::time::{Instant, MissedTickBehavior};

use crate::backoff::Backoff;
use crate::config::WebhooksConfig;
use crate::domain::DeliveryId;
use crate::logging::ErrorChain;
use crate::service::{GamesService, ServiceError, WebhookDelivery};
use crate::webhook_target::TargetPolicy;

use super::breaker::{Allowance, Breaker};
use super::webhooks::{Attempt, deliver, retry_policy};

/// Deliveries taken from the outbox at once, at most.
const BATCH: usize = 64;
/// Deliveries of one endpoint waiting in memory for a place; more taken for it are put off.
const QUEUED_PER_ENDPOINT: usize = 16;
/// Deliveries held (waiting or in flight) per place in flight: the worker's memory bound.
const HELD_PER_PLACE: usize = 4;
/// Longest a healthy but busy endpoint's extra deliveries are put off.
const BUSY_WAIT: Duration = Duration::from_secs(1);
/// How long deliveries in flight get to finish at shutdown; their claims lapse otherwise, and
/// another instance (or the next start) sends them again.
const DRAIN: Duration = Duration::from_secs(5);

pub struct DeliveryWorker {
    service: GamesService,
    config: WebhooksConfig,
    policy: TargetPolicy,
}

impl DeliveryWorker {
    pub fn new(
        service: GamesService,
        config: WebhooksConfig,
    ) -> Result<DeliveryWorker, ServiceError> {
        let policy = config.target_policy().map_err(ServiceError::internal)?;
        Ok(DeliveryWorker {
            service,
            config,
            policy,
        })
    }

    /// Delivers until `shutdown` turns true.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        let signal = self.service.webhooks().outbox_signal();
        let mut poll =
            tokio::time::interval(Duration::from_millis(self.config.poll_interval_ms.max(10)));
        poll.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut d = Dispatch::new(&self);
        // Whether the outbox may hold due deliveries not taken yet.
        let mut more = true;
        loop {
            if more && d.room_for_a_batch() {
                more = match d.take().await {
                    Ok(full) => full,
                    Err(e) => {
                        tracing::warn!(error = %ErrorChain(&e), "reading the webhook outbox failed");
                        false
                    }
                };
            }
            d.shed_slow();
            d.put_off().await;
            d.start();
            d.forget_idle();
            let again = more && d.room_for_a_batch();
            tokio::select! {
                biased;
                _ = shutdown.changed() => break,
                Some(done) = d.tasks.join_next_with_id(), if !d.tasks.is_empty() => d.finished(done),
                () = std::future::ready(()), if again => {}
                () = signal.notified() => more = true,
                _ = poll.tick() => more = true,
            }
        }
        d.stop().await;
    }
}

/// One endpoint as the worker sees it.
#[derive(Default)]
struct Endpoint {
    waiting: VecDeque<WebhookDelivery>,
    /// When each delivery in flight was sent.
    in_flight: Vec<Instant>,
    breaker: Breaker,
}

impl Endpoint {
    /// Deliveries it may have in flight now.
    fn places(&self, now: Instant, share: usize) -> usize {
        match self.breaker.allowance(now) {
            Allowance::Closed => share,
            Allowance::Trial => 1,
            Allowance::OpenUntil(_) => 0,
        }
    }

    /// Whether it is failing, or slow: a delivery in flight for longer than [`BUSY_WAIT`].
    /// Nothing waits in memory for a slow endpoint's places, and slow endpoints share half the
    /// places in all.
    fn slow(&self, now: Instant) -> bool {
        self.breaker.failing()
            || self
                .in_flight
                .iter()
                .any(|sent| now.saturating_duration_since(*sent) > BUSY_WAIT)
    }

    /// How long to put off a delivery it has no place for: about as long as its deliveries
    /// in flight have been taking (a slow endpoint frees its places slowly), at least
    /// [`BUSY_WAIT`], at most a delivery's timeout; drawn below that (full jitter).
    fn busy_wait(&self, now: Instant, timeout: Duration) -> Duration {
        let oldest = self
            .in_flight
            .iter()
            .map(|sent| now.saturating_duration_since(*sent))
            .max()
            .unwrap_or_default();
        let ceiling = if self.breaker.failing() {
            timeout
        } else {
            (oldest * 2).max(BUSY_WAIT).min(timeout.max(BUSY_WAIT))
        };
        Backoff::new(ceiling, ceiling).wait(0)
    }
}

struct Dispatch<'w> {
    worker: &'w DeliveryWorker,
    endpoints: HashMap<String, Endpoint>,
    tasks: JoinSet<Attempt>,
    /// Each task's endpoint, when it was sent, and whether it holds one of the failing
    /// endpoints' places, so a task that panicked still gives its places back.
    task_endpoints: HashMap<tokio::task::Id, (String, Instant, bool)>,
    in_flight: usize,
    /// Deliveries in flight to endpoints that were failing when they were sent.
    failing_in_flight: usize,
    waiting: usize,
    /// Deliveries to put back in the outbox, each due again at its time (ms).
    put_off: Vec<(DeliveryId, i64)>,
    breaker_backoff: Backoff,
}

impl<'w> Dispatch<'w> {
    fn new(worker: &'w DeliveryWorker) -> Dispatch<'w> {
        Dispatch {
            worker,
            endpoints: HashMap::new(),
            tasks: JoinSet::new(),
            task_endpoints: HashMap::new(),
            in_flight: 0,
            failing_in_flight: 0,
            waiting: 0,
            put_off: Vec::new(),
            breaker_backoff: retry_policy(&worker.config),
        }
    }

    fn max_held(&self) -> usize {
        self.worker
            .config
            .max_in_flight
            .max(1)
            .saturating_mul(HELD_PER_PLACE)
    }

    fn room(&self) -> usize {
        self.max_held()
            .saturating_sub(self.in_flight + self.waiting)
    }

    /// Whether a batch (or half of all the worker holds, if that is less) fits: reading the
    /// outbox for a handful at a time would cost a write each.
    fn room_for_a_batch(&self) -> bool {
        self.room() >= BATCH.min(self.max_held() / 2).max(1)
    }

    /// Takes due deliveries into the endpoints' queues; whether as many came as were asked
    /// for (more may be due).
    async fn take(&mut self) -> Result<bool, ServiceError> {
        let asked = self.room().min(BATCH);
        let due = self
            .worker
            .service
            .webhooks()
            .due_deliveries(u32::try_from(asked).unwrap_or(u32::MAX))
            .await?;
        let full = due.len() >= asked;
        let now = Instant::now();
        for delivery in due {
            self.place(delivery, now);
        }
        Ok(full)
    }

    fn place(&mut self, delivery: WebhookDelivery, now: Instant) {
        let share = self.worker.config.max_in_flight_per_endpoint.max(1);
        let timeout = Duration::from_millis(self.worker.config.timeout_ms.max(1));
        let endpoint = self.endpoints.entry(delivery.url.clone()).or_default();
        let full = endpoint.in_flight.len() + endpoint.waiting.len() >= endpoint.places(now, share);
        if let Allowance::OpenUntil(until) = endpoint.breaker.allowance(now) {
            let wait = until.saturating_duration_since(now);
            self.put_off_for(delivery.id, wait);
        } else if endpoint.waiting.len() >= QUEUED_PER_ENDPOINT || (endpoint.slow(now) && full) {
            let wait = endpoint.busy_wait(now, timeout);
            self.put_off_for(delivery.id, wait);
        } else {
            endpoint.waiting.push_back(delivery);
            self.waiting += 1;
        }
    }

    fn put_off_for(&mut self, id: DeliveryId, wait: Duration) {
        let ms = i64::try_from(wait.as_millis()).unwrap_or(i64::MAX / 2);
        let at = self.worker.service.now_ms().saturating_add(ms);
        self.put_off.push((id, at));
    }

    /// Writes the deliveries put off back to the outbox, in one write. Should it fail, their
    /// claims lapse after `games.claim_lease_secs` and they are due again then.
    async fn put_off(&mut self) {
        let put_off = std::mem::take(&mut self.put_off);
        if let Err(e) = self
            .worker
            .service
            .webhooks()
            .postpone_deliveries(put_off)
            .await
        {
            tracing::warn!(error = %ErrorChain(&e), "putting webhook deliveries off failed");
        }
    }

    /// Sends what may go now: a round gives each endpoint one place at most, so when the
    /// places in all run out, they went round the endpoints, not to the first ones.
    fn start(&mut self) {
        let now = Instant::now();
        let config = &self.worker.config;
        let share = config.max_in_flight_per_endpoint.max(1);
        let failing_places = (config.max_in_flight / 2).max(1);
        let mut progress = true;
        while progress && self.in_flight < config.max_in_flight {
            progress = false;
            for (url, endpoint) in &mut self.endpoints {
                if self.in_flight >= config.max_in_flight {
                    break;
                }
                if endpoint.in_flight.len() >= endpoint.places(now, share) {
                    continue;
                }
                let failing = endpoint.slow(now);
                if failing && self.failing_in_flight >= failing_places {
                    continue;
                }
                let Some(delivery) = endpoint.waiting.pop_front() else {
                    continue;
                };
                self.waiting -= 1;
                endpoint.in_flight.push(now);
                self.in_flight += 1;
                if failing {
                    self.failing_in_flight += 1;
                }
                progress = true;
                let (policy, service, config) = (
                    self.worker.policy.clone(),
                    self.worker.service.clone(),
                    self.worker.config.clone(),
                );
                let task = self
                    .tasks
                    .spawn(async move { deliver(&policy, &service, &config, delivery).await });
                self.task_endpoints
                    .insert(task.id(), (url.clone(), now, failing));
            }
        }
    }

    fn finished(&mut self, done: Result<(tokio::task::Id, Attempt), tokio::task::JoinError>) {
        let (id, attempt) = match done {
            Ok((id, attempt)) => (id, Some(attempt)),
            Err(e) => {
                tracing::warn!(error = %e, "a webhook delivery task failed");
                (e.id(), None)
            }
        };
        self.in_flight = self.in_flight.saturating_sub(1);
        let Some((url, sent, failing)) = self.task_endpoints.remove(&id) else {
            return;
        };
        if failing {
            self.failing_in_flight = self.failing_in_flight.saturating_sub(1);
        }
        let Some(endpoint) = self.endpoints.get_mut(&url) else {
            return;
        };
        if let Some(at) = endpoint.in_flight.iter().position(|s| *s == sent) {
            endpoint.in_flight.swap_remove(at);
        }
        let delivered = match attempt {
            Some(Attempt {
                delivered,
                recorded,
            }) => {
                if let Err(e) = recorded {
                    tracing::warn!(error = %ErrorChain(&e), "recording a webhook delivery failed");
                }
                delivered
            }
            None => false,
        };
        if delivered {
            endpoint.breaker.succeeded();
            return;
        }
        let threshold = self.worker.config.breaker_failures.max(1);
        let Some(wait) = endpoint
            .breaker
            .failed(Instant::now(), threshold, &self.breaker_backoff)
        else {
            return;
        };
        metrics::counter!(crate::telemetry::WEBHOOK_CIRCUITS_OPENED).increment(1);
        tracing::warn!(
            %url,
            wait_ms = wait.as_millis() as u64,
            "a webhook endpoint failed {threshold} deliveries in a row; its deliveries wait"
        );
        let waiting: Vec<DeliveryId> = endpoint.waiting.drain(..).map(|d| d.id).collect();
        self.waiting -= waiting.len();
        for id in waiting {
            self.put_off_for(id, wait);
        }
    }

    /// Puts off what waits for an endpoint that has turned slow, beyond what its free places
    /// take now: it would hold the worker's room for as long as that endpoint takes.
    fn shed_slow(&mut self) {
        let now = Instant::now();
        let timeout = Duration::from_millis(self.worker.config.timeout_ms.max(1));
        let share = self.worker.config.max_in_flight_per_endpoint.max(1);
        let mut shed = Vec::new();
        for endpoint in self.endpoints.values_mut() {
            if endpoint.waiting.is_empty() || !endpoint.slow(now) {
                continue;
            }
            // What its free places take at once stays.
            let keep = endpoint
                .places(now, share)
                .saturating_sub(endpoint.in_flight.len());
            if endpoint.waiting.len() <= keep {
                continue;
            }
            let beyond = endpoint.waiting.split_off(keep);
            for delivery in beyond {
                shed.push((delivery.id, endpoint.busy_wait(now, timeout)));
            }
        }
        self.waiting -= shed.len();
        for (id, wait) in shed {
            self.put_off_for(id, wait);
        }
    }

    /// Forgets the endpoints with nothing waiting, nothing in flight and nothing to remember.
    fn forget_idle(&mut self) {
        self.endpoints.retain(|_, e| {
            !(e.waiting.is_empty() && e.in_flight.is_empty() && e.breaker.is_clear())
        });
    }

    /// At shutdown: what waits goes back to the outbox, due at once (for the next start or
    /// another instance); what is in flight gets [`DRAIN`] to finish.
    async fn stop(mut self) {
        let waiting: Vec<DeliveryId> = self
            .endpoints
            .values_mut()
            .flat_map(|e| e.waiting.drain(..))
            .map(|d| d.id)
            .collect();
        for id in waiting {
            self.put_off_for(id, Duration::ZERO);
        }
        self.put_off().await;
        let drained = tokio::time::timeout(DRAIN, async {
            while self.tasks.join_next().await.is_some() {}
        })
        .await;
        if drained.is_err() {
            tracing::info!(
                left = self.tasks.len(),
                "webhook deliveries still in flight at shutdown; sent again once their claim lapses"
            );
        }
    }
}
