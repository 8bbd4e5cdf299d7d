//! The bridge from interactions received over HTTP into the same poise framework that handles
//! the gateway's: serenity keeps its framework to itself once a client is built, so the
//! framework is wrapped, and the wrapper shares it (with a gateway context of this instance,
//! which carries the REST client the answers go through) once the shard is ready.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serenity::all::{Context, FullEvent, Interaction};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::{BotError, Data};

type PoiseFramework = poise::Framework<Data, BotError>;

/// Interactions received over HTTP being handled at once, at most: past it a burst is refused
/// (503, which Discord shows the member as a failed interaction) rather than queued without
/// bound in memory. The gateway's own interactions are not counted here.
pub const MAX_IN_FLIGHT: usize = 512;

/// How long one interaction may be handled: its token, and so any answer, is void after
/// Discord's 15 minutes.
const HANDLING_DEADLINE: Duration = Duration::from_secs(15 * 60);

/// Where interactions received over HTTP are handed to the framework. Empty until a gateway
/// session of this instance is ready (and again between gateway clients).
#[derive(Clone)]
pub struct InteractionRelay {
    ready: Arc<Mutex<Option<Ready>>>,
    in_flight: InFlight,
}

impl Default for InteractionRelay {
    fn default() -> Self {
        InteractionRelay {
            ready: Arc::default(),
            in_flight: InFlight::new(MAX_IN_FLIGHT),
        }
    }
}

/// A count of interactions being handled, bounded.
#[derive(Clone, Debug)]
struct InFlight(Arc<Semaphore>);

impl InFlight {
    fn new(most: usize) -> InFlight {
        InFlight(Arc::new(Semaphore::new(most)))
    }

    /// A place for one more, held until dropped; `None` when all are taken.
    fn enter(&self) -> Option<OwnedSemaphorePermit> {
        self.0.clone().try_acquire_owned().ok()
    }
}

impl std::fmt::Debug for InteractionRelay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ready = self.slot().is_some();
        f.debug_struct("InteractionRelay")
            .field("ready", &ready)
            .finish()
    }
}

#[derive(Clone)]
struct Ready {
    framework: Arc<PoiseFramework>,
    context: Context,
}

/// Why an interaction could not be handed over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotReady {
    /// No gateway session of this instance is ready yet (starting, or reconnecting).
    NoSession,
    /// [`MAX_IN_FLIGHT`] interactions are being handled already.
    Busy,
}

impl InteractionRelay {
    /// Hands `interaction` to the framework, which answers it through Discord's REST API.
    pub fn dispatch(&self, interaction: Interaction) -> Result<(), NotReady> {
        let ready = self.slot().clone().ok_or(NotReady::NoSession)?;
        let place = self.in_flight.enter().ok_or(NotReady::Busy)?;
        let event = FullEvent::InteractionCreate { interaction };
        tokio::spawn(async move {
            let handled =
                serenity::framework::Framework::dispatch(&*ready.framework, ready.context, event);
            if tokio::time::timeout(HANDLING_DEADLINE, handled)
                .await
                .is_err()
            {
                tracing::warn!(
                    "an interaction received over HTTP was still being handled after 15 minutes; given up"
                );
            }
            drop(place);
        });
        Ok(())
    }

    fn slot(&self) -> std::sync::MutexGuard<'_, Option<Ready>> {
        self.ready
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn remember(&self, framework: &Arc<PoiseFramework>, context: &Context) {
        let mut ready = self.slot();
        if ready.is_none() {
            *ready = Some(Ready {
                framework: Arc::clone(framework),
                context: context.clone(),
            });
        }
    }

    /// Forgets the framework of a gateway client that ended.
    pub fn forget(&self) {
        *self.slot() = None;
    }
}

/// The poise framework as serenity runs it, shared with the relay once the gateway is ready.
pub struct RelayingFramework {
    /// Until `init`: the framework, not yet shared.
    unshared: Option<PoiseFramework>,
    shared: Option<Arc<PoiseFramework>>,
    relay: InteractionRelay,
}

impl RelayingFramework {
    pub fn new(framework: PoiseFramework, relay: InteractionRelay) -> RelayingFramework {
        RelayingFramework {
            unshared: Some(framework),
            shared: None,
            relay,
        }
    }
}

#[serenity::async_trait]
impl serenity::framework::Framework for RelayingFramework {
    async fn init(&mut self, client: &serenity::Client) {
        if let Some(mut framework) = self.unshared.take() {
            serenity::framework::Framework::init(&mut framework, client).await;
            self.shared = Some(Arc::new(framework));
        }
    }

    async fn dispatch(&self, context: Context, event: FullEvent) {
        let Some(framework) = &self.shared else {
            return;
        };
        let ready = matches!(event, FullEvent::Ready { .. });
        serenity::framework::Framework::dispatch(&**framework, context.clone(), event).await;
        // After poise's setup ran on READY (the commands registered, the bot's data set).
        if ready {
            self.relay.remember(framework, &context);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_the_bound_an_interaction_is_refused_until_one_in_flight_ends() {
        let in_flight = InFlight::new(2);
        let first = in_flight.enter();
        let second = in_flight.enter();
        assert!(first.is_some() && second.is_some());
        assert!(
            in_flight.enter().is_none(),
            "a third is refused while two are handled"
        );
        drop(first);
        assert!(in_flight.enter().is_some(), "one ended: room for another");
    }
}
