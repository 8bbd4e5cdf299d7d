//! Ctrl-C during a long command (`match`, `sprt`, `rating-list`): the first SIGINT sets a flag
//! the command reads (it abandons the game in progress and prints the summary of the games
//! played, then exits with status 130); a second one ends the process at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit status of a command stopped by Ctrl-C (128 + SIGINT).
pub const INTERRUPTED: u8 = 130;

/// A flag set by the first Ctrl-C. The handler is in place when this returns.
pub fn stop_flag() -> anyhow::Result<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    // Registered here, on the caller's thread, so a Ctrl-C right after the start is caught.
    let mut signal = runtime.block_on(async {
        tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())
    })?;
    let set = Arc::clone(&flag);
    std::thread::Builder::new()
        .name("ctrl-c".into())
        .spawn(move || {
            runtime.block_on(async {
                if signal.recv().await.is_some() {
                    set.store(true, Ordering::Relaxed);
                    eprintln!(
                        "stopping: the game in progress is abandoned and the summary printed (Ctrl-C again to quit at once)"
                    );
                }
                if signal.recv().await.is_some() {
                    std::process::exit(i32::from(INTERRUPTED));
                }
            });
        })?;
    Ok(flag)
}
