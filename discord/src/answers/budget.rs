//! The budget of a first answer, and how far an interaction's answer has got.

use std::future::Future;
use std::time::Duration;

/// How far the answer to one interaction has got.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum AnswerState {
    /// Nothing sent yet: the first answer is the interaction's callback.
    #[default]
    Unanswered,
    /// Acknowledged with a deferral; the answer is still to come.
    Deferred(Deferral),
    /// The answer went out: anything more is a follow-up.
    Answered,
}

/// Which deferral acknowledged an interaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deferral {
    /// A command's "taflbot is thinking…" placeholder, shown to everyone or only to its user;
    /// the answer replaces it. Discord gives the placeholder's visibility to the first
    /// follow-up, so a private answer after a public placeholder needs care.
    Message { private: bool },
    /// A click acknowledged without a visible change: the answer edits the clicked message or
    /// follows up with a message of its own.
    Update,
}

/// Runs `work`; if it is not done after `budget`, runs `defer` beside it (the deferral waits
/// for an answer the work is sending at that moment, so both never go out). Returns once the
/// work is done and a deferral begun is finished too: a deferral cut off halfway might have
/// reached Discord unrecorded.
pub async fn within_budget<T>(
    budget: Duration,
    work: impl Future<Output = T>,
    defer: impl Future<Output = ()>,
) -> T {
    let mut work = std::pin::pin!(work);
    tokio::select! {
        done = &mut work => return done,
        () = tokio::time::sleep(budget) => {}
    }
    let mut defer = std::pin::pin!(defer);
    tokio::select! {
        done = &mut work => {
            defer.await;
            done
        }
        () = &mut defer => work.await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::sync::oneshot;

    const BUDGET: Duration = Duration::from_millis(300);
    /// How long a test waits for what must happen before it fails.
    const DEADLINE: Duration = Duration::from_secs(10);

    #[tokio::test]
    async fn quick_work_is_never_deferred() {
        let (deferred, mut told) = oneshot::channel::<()>();
        let defer = async move {
            let _ = deferred.send(());
        };
        let done = within_budget(BUDGET, async { 7 }, defer).await;
        assert_eq!(done, 7);
        assert!(told.try_recv().is_err(), "quick work was deferred");
    }

    #[tokio::test]
    async fn slow_work_is_deferred_while_it_goes_on_and_still_finishes() {
        let (deferred, told) = oneshot::channel::<()>();
        let defer = async move {
            let _ = deferred.send(());
        };
        // The work finishes only once the deferral went out beside it.
        let work = async move { tokio::time::timeout(DEADLINE, told).await.is_ok() };
        let started = std::time::Instant::now();
        assert!(within_budget(BUDGET, work, defer).await, "never deferred");
        assert!(started.elapsed() >= BUDGET, "deferred before its budget");
    }

    #[tokio::test]
    async fn a_deferral_begun_is_finished_even_when_the_work_ends_first() {
        let (finished, mut told) = oneshot::channel::<()>();
        let (work_done, work_seen) = oneshot::channel::<()>();
        // The deferral waits for the work to end, then completes: it is not cut off.
        let defer = async move {
            let _ = tokio::time::timeout(DEADLINE, work_seen).await;
            let _ = finished.send(());
        };
        let work = async move {
            tokio::time::sleep(BUDGET * 2).await;
            let _ = work_done.send(());
        };
        within_budget(BUDGET, work, defer).await;
        assert!(told.try_recv().is_ok(), "the deferral was cut off");
    }
}
