//! Hears other instances' commits: a connection that `LISTEN`s on the channel every write
//! transaction notifies, and bumps a counter the games service watches to read the new events
//! from the table. A lost connection is opened again, and each (re)connection bumps the counter
//! too, so notifications missed meanwhile are caught up from the table.

use crate::logging::ErrorChain;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use postgres::fallible_iterator::FallibleIterator;
use tokio::sync::watch;

use super::StoreError;
use super::pg::PgTarget;
use super::pg_writer::EVENTS_CHANNEL;

/// How often the thread looks whether the store was closed, and waits before reconnecting.
const TICK: Duration = Duration::from_secs(1);

/// How often a quiet connection is asked whether it still answers: a connection cut without
/// a word (a dropped NAT entry, a server host gone) brings no notification and no error, and
/// the commits of other instances would go unheard until the system's keepalive noticed
/// (hours). A reconnection catches up from the table.
const PROBE_EVERY: Duration = Duration::from_secs(30);

/// Starts the listener; notifications marked `own` (this store's writer's) are passed over.
pub(super) fn start(
    target: PgTarget,
    own: String,
    changes: watch::Sender<u64>,
    stop: Arc<AtomicBool>,
) -> Result<(), StoreError> {
    std::thread::Builder::new()
        .name("taflbot-db-listener".into())
        .spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                match listen(&target, &own, &changes, &stop) {
                    Ok(()) => {}
                    Err(e) => {
                        tracing::warn!(error = %ErrorChain(&e), "the database listener lost its connection; reconnecting");
                        std::thread::sleep(TICK);
                    }
                }
            }
        })
        .map(|_| ())
        .map_err(|e| StoreError::Setup(format!("cannot start the listener thread: {e}")))
}

/// Listens until the connection is lost (`Err`) or the store stops (`Ok`).
fn listen(
    target: &PgTarget,
    own: &str,
    changes: &watch::Sender<u64>,
    stop: &AtomicBool,
) -> Result<(), StoreError> {
    // A server that does not answer must not hold the listener for the system's TCP timeout.
    let mut config: postgres::Config = target.url.parse()?;
    if config.get_connect_timeout().is_none() && !target.timeouts.connect.is_zero() {
        config.connect_timeout(target.timeouts.connect);
    }
    let mut client = config.connect(postgres::NoTls)?;
    let mut probed = Instant::now();
    client.batch_execute(&format!("LISTEN {EVENTS_CHANNEL}"))?;
    let bump = || changes.send_modify(|n| *n = n.wrapping_add(1));
    bump();
    while !stop.load(Ordering::Relaxed) {
        let heard = {
            let mut notifications = client.notifications();
            let others = |n: &postgres::Notification| n.payload() != own;
            let mut heard = notifications
                .timeout_iter(TICK)
                .next()?
                .is_some_and(|n| others(&n));
            // Take whatever else already arrived, then tell once.
            let mut pending = notifications.iter();
            while let Some(n) = pending.next()? {
                heard |= others(&n);
            }
            heard
        };
        if heard {
            bump();
        }
        if client.is_closed() {
            return Err(StoreError::Setup("the listening connection closed".into()));
        }
        if probed.elapsed() >= PROBE_EVERY {
            let deadline = target.timeouts.statement.max(TICK);
            if client.is_valid(deadline).is_err() {
                return Err(StoreError::Setup(
                    "the listening connection did not answer a probe".into(),
                ));
            }
            probed = Instant::now();
        }
    }
    Ok(())
}
