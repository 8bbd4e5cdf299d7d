//! The bridge from interactions received over HTTP into the same poise framework that handles
//! the gateway's: serenity keeps its framework to itself once a client is built, so the
//! framework is wrapped, and the wrapper shares it (with a gateway context of this instance,
//! which carries the REST client the answers go through) once the shard is ready.

use std::sync::{Arc, Mutex};

use serenity::all::{Context, FullEvent, Interaction};

use crate::discord::{BotError, Data};

type PoiseFramework = poise::Framework<Data, BotError>;

/// Where interactions received over HTTP are handed to the framework. Empty until a gateway
/// session of this instance is ready (and again between gateway clients).
#[derive(Clone, Default)]
pub struct InteractionRelay {
    ready: Arc<Mutex<Option<Ready>>>,
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
}

impl InteractionRelay {
    /// Hands `interaction` to the framework, which answers it through Discord's REST API.
    pub fn dispatch(&self, interaction: Interaction) -> Result<(), NotReady> {
        let ready = self.slot().clone().ok_or(NotReady::NoSession)?;
        let event = FullEvent::InteractionCreate { interaction };
        tokio::spawn(async move {
            serenity::framework::Framework::dispatch(&*ready.framework, ready.context, event).await;
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
