//! The PostgreSQL writer: the same batches as SQLite's (one transaction, a savepoint per job),
//! on one connection per instance. Each batch first takes a transaction-scoped advisory lock,
//! so the writers of every instance commit one batch at a time: a move's expected-ply guard
//! sees every earlier commit, and event ids are handed out in commit order (a reader that saw
//! event `n` has seen every event below it that will ever exist), which is what lets each
//! instance follow the events table by id. The commit notifies every instance's listener.

use super::pg::{PgTarget, Session};
use super::writer::{Job, JobOutcome, PreviousJob, WriteSession};
use super::{Conn, StoreError};

/// The advisory lock every write transaction holds ("tafl" in ASCII).
const WRITE_LOCK: i64 = 0x7461_666c;

/// Set on the writer's connection. The writer runs a fixed set of small statements on
/// primary keys, all while it holds [`WRITE_LOCK`]: PostgreSQL's default plans each of them
/// afresh on its first five runs and keeps doing so for those whose custom plan looks no
/// dearer, which under load doubled the time the lock was held (docs/benchmarks.md).
const GENERIC_PLANS: &str = "SET plan_cache_mode = force_generic_plan";

/// The channel the commit notifies; see [`super::pg_listener`].
pub(super) const EVENTS_CHANNEL: &str = "taflbot_events";

pub(super) struct PgWriter {
    target: PgTarget,
    /// This store's mark on its notifications, so its own listener passes over them (this
    /// instance publishes its own commits without waiting to hear them).
    mark: String,
    /// `None` after the connection was lost: the next batch connects again.
    session: Option<Session>,
}

impl PgWriter {
    pub(super) fn new(
        target: PgTarget,
        mark: &str,
        mut session: Session,
    ) -> Result<PgWriter, StoreError> {
        session.batch(GENERIC_PLANS)?;
        Ok(PgWriter {
            target,
            mark: mark.to_owned(),
            session: Some(session),
        })
    }

    fn session(&mut self) -> Result<&mut Session, StoreError> {
        if self.session.as_ref().is_none_or(Session::is_closed) {
            self.session = None;
            let mut session = Session::connect_to(&self.target)?;
            session.batch(GENERIC_PLANS)?;
            self.session = Some(session);
        }
        self.session
            .as_mut()
            .ok_or_else(|| StoreError::Setup("no database connection".into()))
    }

    /// Runs `sql`, dropping a connection found lost so the next batch reconnects.
    fn batch(&mut self, sql: &str) -> Result<(), StoreError> {
        let session = self.session()?;
        let result = session.batch(sql);
        if result.is_err() && session.is_closed() {
            self.session = None;
        }
        result
    }
}

impl WriteSession for PgWriter {
    /// Sent with the batch's first statement (at the latest its commit): the server takes
    /// the lock before it runs any of the batch's statements, which come after it on the same
    /// connection, and the lock costs no round trip of its own.
    fn begin(&mut self) -> Result<(), StoreError> {
        self.session()?.begin_ahead(&format!(
            "BEGIN; SELECT pg_advisory_xact_lock({WRITE_LOCK});"
        ));
        Ok(())
    }

    /// Sent with the next job's first statement: its answer is only that it worked, which
    /// that statement's tells (the server refuses every statement after a failed one).
    fn next_job(&mut self, previous: PreviousJob) -> Result<(), StoreError> {
        self.session()?.batch_ahead(previous.next_job_sql());
        Ok(())
    }

    fn run(&mut self, job: Job) -> Result<JobOutcome, (JobOutcome, StoreError)> {
        let Some(session) = self.session.as_mut() else {
            return Ok(job(None));
        };
        session.take_failed();
        let ran = job(Some(&Conn::postgres(session)));
        let settled = session.settle();
        if ran.keep && session.take_failed() {
            let spoiled = settled.err().unwrap_or_else(|| {
                StoreError::Thread("a write went on after one of its statements failed".into())
            });
            return Err((ran, spoiled));
        }
        Ok(ran)
    }

    fn commit(&mut self, last: PreviousJob) -> Result<(), StoreError> {
        let notify = format!(
            "{} NOTIFY {EVENTS_CHANNEL}, '{}'; COMMIT",
            last.end_sql(),
            self.mark
        );
        self.batch(&notify)
    }

    fn rollback(&mut self) {
        if let Some(session) = self.session.as_mut()
            && !session.is_closed()
        {
            // A batch whose jobs all failed before sending a statement never began on the
            // server: a `ROLLBACK` would cost a round trip and a warning in its log.
            if !session.forget_ahead() {
                let _ = session.batch("ROLLBACK");
            }
        }
    }
}
