//! Waiting for a condition with a deadline that fails loudly, never a sleep and a hope.

use std::future::Future;
use std::time::Duration;

/// How often the condition is asked again.
const POLL: Duration = Duration::from_millis(10);

/// Asks `check` until it answers `Some`, and returns that. Past `deadline` the test fails with a
/// panic naming `what` it waited for and the last answer's description from `check`.
pub async fn eventually<T, F, Fut>(deadline: Duration, what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let give_up = tokio::time::Instant::now() + deadline;
    loop {
        if let Some(found) = check().await {
            return found;
        }
        if tokio::time::Instant::now() >= give_up {
            panic!("timed out after {deadline:?} waiting for {what}");
        }
        tokio::time::sleep(POLL).await;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;

    #[tokio::test]
    async fn it_returns_the_first_answer() {
        let asked = AtomicU32::new(0);
        let found = eventually(Duration::from_secs(5), "the third ask", || async {
            (asked.fetch_add(1, Ordering::SeqCst) == 2).then_some("found")
        })
        .await;
        assert_eq!(found, "found");
        assert_eq!(asked.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    #[should_panic(expected = "waiting for a condition that never holds")]
    async fn it_fails_loudly_at_its_deadline() {
        eventually(
            Duration::from_millis(50),
            "a condition that never holds",
            || async { None::<()> },
        )
        .await;
    }
}
