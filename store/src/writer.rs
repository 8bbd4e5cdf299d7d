//! The single writer. Jobs queue on a channel; the thread takes every job waiting (up to
//! `max_batch`), runs each in its own savepoint of one transaction, commits once (one flush
//! for the whole batch) and only then answers each caller, in commit order. The transaction
//! is the backend's ([`WriteSession`]): SQLite's IMMEDIATE one, after checking that the file
//! is still the one opened; on PostgreSQL one that first takes a cluster-wide lock, so the
//! writers of every instance commit one batch at a time.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use rusqlite::Connection;
use tokio::sync::oneshot;

use super::{Conn, StoreError};

/// How the previous job of a batch ended, as the savepoint control still savepoint_control for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PreviousJob {
    /// None, or a lone job (its transaction is its own: no savepoint).
    None,
    Kept,
    RolledBack,
}

impl PreviousJob {
    /// Ends the previous job's savepoint.
    pub(super) fn end_sql(self) -> &'static str {
        match self {
            PreviousJob::None => "",
            PreviousJob::Kept => "RELEASE job;",
            PreviousJob::RolledBack => "ROLLBACK TO job; RELEASE job;",
        }
    }

    /// Ends the previous job's savepoint and opens the next one's.
    pub(super) fn next_job_sql(self) -> &'static str {
        match self {
            PreviousJob::None => "SAVEPOINT job;",
            PreviousJob::Kept => "RELEASE job; SAVEPOINT job;",
            PreviousJob::RolledBack => "ROLLBACK TO job; RELEASE job; SAVEPOINT job;",
        }
    }
}

/// What a job leaves behind: whether its savepoint stands, and how to answer its caller
/// once the batch's fate is known.
pub(super) struct JobOutcome {
    pub(super) keep: bool,
    pub(super) answer: Answer,
}

/// Runs on the batch's connection, or (`None`) is told the batch failed before it could run.
pub(super) type Job = Box<dyn FnOnce(Option<&Conn<'_>>) -> JobOutcome + Send>;
pub(super) type Answer = Box<dyn FnOnce(Result<(), StoreError>) + Send>;

pub(super) struct Writer {
    jobs: mpsc::Sender<Job>,
}

impl Writer {
    pub(super) fn start(
        session: impl WriteSession,
        max_batch: usize,
    ) -> Result<Writer, StoreError> {
        let (jobs, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("taflbot-db-writer".into())
            .spawn(move || run(session, rx, max_batch))
            .map_err(|e| StoreError::Setup(format!("cannot start the writer thread: {e}")))?;
        Ok(Writer { jobs })
    }

    /// Queues `job` and waits for its answer, at most `answer_wait`: then the caller is told
    /// [`StoreError::NoAnswer`]. A job whose caller stopped waiting before the writer came to
    /// it is not run, so a write refused that way is never made behind its caller's back.
    pub(super) async fn submit<T, E, F, A>(
        &self,
        job: F,
        after_commit: A,
        answer_wait: Duration,
    ) -> Result<T, E>
    where
        F: FnOnce(&Conn<'_>) -> Result<T, E> + Send + 'static,
        A: FnOnce(&mut T) + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let (tx, rx) = oneshot::channel::<Result<T, E>>();
        let boxed: Job = Box::new(move |conn| {
            if tx.is_closed() {
                return JobOutcome {
                    keep: false,
                    answer: Box::new(|_| {}),
                };
            }
            let Some(conn) = conn else {
                return JobOutcome {
                    keep: false,
                    answer: Box::new(move |failed| {
                        let e = failed.err().unwrap_or(StoreError::WriterGone);
                        let _ = tx.send(Err(E::from(e)));
                    }),
                };
            };
            let outcome = catch_unwind(AssertUnwindSafe(|| job(conn))).unwrap_or_else(|_| {
                Err(E::from(StoreError::Thread("a write job panicked".into())))
            });
            match outcome {
                Ok(mut value) => JobOutcome {
                    keep: true,
                    answer: Box::new(move |committed| {
                        if committed.is_ok() {
                            after_commit(&mut value);
                        }
                        let _ = tx.send(committed.map(|()| value).map_err(E::from));
                    }),
                },
                Err(err) => JobOutcome {
                    keep: false,
                    answer: Box::new(move |_| {
                        let _ = tx.send(Err(err));
                    }),
                },
            }
        });
        self.jobs
            .send(boxed)
            .map_err(|_| E::from(StoreError::WriterGone))?;
        match tokio::time::timeout(answer_wait, rx).await {
            Ok(answer) => answer.map_err(|_| E::from(StoreError::WriterGone))?,
            Err(_) => Err(E::from(StoreError::NoAnswer(answer_wait))),
        }
    }
}

/// A connection as the writer drives it: a batch's transaction, the savepoints of its jobs.
pub(super) trait WriteSession: Send + 'static {
    /// Opens a batch's transaction, as the only writer of the database until it ends.
    fn begin(&mut self) -> Result<(), StoreError>;
    /// Ends the previous job's savepoint (if any) and opens the next job's.
    fn next_job(&mut self, previous: PreviousJob) -> Result<(), StoreError>;
    /// Runs a job on the connection. `Err` when the job went on after one of its statements
    /// failed in a way that spoils the transaction (PostgreSQL aborts it at its first error):
    /// its changes cannot be kept whatever it answered.
    fn run(&mut self, job: Job) -> Result<JobOutcome, (JobOutcome, StoreError)>;
    /// Commits, after ending the last job's savepoint (in the same round trip: each counts on
    /// a server).
    fn commit(&mut self, last: PreviousJob) -> Result<(), StoreError>;
    /// Rolls the open transaction back (errors are moot: the transaction is gone either way).
    fn rollback(&mut self);
}

/// The SQLite writer: one connection, IMMEDIATE transactions, the file watched.
pub(super) struct SqliteWriter {
    conn: Connection,
    file: FileWatch,
}

impl SqliteWriter {
    pub(super) fn new(conn: Connection, path: &Path) -> SqliteWriter {
        SqliteWriter {
            conn,
            file: FileWatch::new(path),
        }
    }
}

impl WriteSession for SqliteWriter {
    fn begin(&mut self) -> Result<(), StoreError> {
        self.file.check()?;
        Ok(self.conn.execute_batch("BEGIN IMMEDIATE")?)
    }

    fn next_job(&mut self, previous: PreviousJob) -> Result<(), StoreError> {
        Ok(self.conn.execute_batch(previous.next_job_sql())?)
    }

    fn run(&mut self, job: Job) -> Result<JobOutcome, (JobOutcome, StoreError)> {
        Ok(job(Some(&Conn::sqlite(&self.conn))))
    }

    fn commit(&mut self, last: PreviousJob) -> Result<(), StoreError> {
        // Checked again at the last moment: the jobs may have taken a while.
        self.file.check()?;
        Ok(self
            .conn
            .execute_batch(&format!("{} COMMIT", last.end_sql()))?)
    }

    fn rollback(&mut self) {
        if !self.conn.is_autocommit() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
    }
}

/// The database file as opened: its device and inode. SQLite keeps writing to an open file
/// after it is deleted or renamed away, so a removed or replaced file would swallow every
/// acknowledged write; one `stat` per batch notices it.
struct FileWatch {
    path: PathBuf,
    /// `None` when the file cannot be identified (no such file, not unix): nothing to check.
    identity: Option<(u64, u64)>,
    /// Set once the file was found gone: stays set, later batches fail too.
    gone: bool,
}

impl FileWatch {
    fn new(path: &Path) -> FileWatch {
        FileWatch {
            path: path.to_owned(),
            identity: identity(path).ok(),
            gone: false,
        }
    }

    /// `Err` when the file at `path` is no longer the one opened (or is missing).
    fn check(&mut self) -> Result<(), StoreError> {
        let Some(opened) = self.identity else {
            return Ok(());
        };
        if !self.gone && identity(&self.path).ok() != Some(opened) {
            tracing::error!(path = %self.path.display(), "the database file was removed or replaced; refusing writes");
            self.gone = true;
        }
        if self.gone {
            return Err(StoreError::FileGone(self.path.display().to_string()));
        }
        Ok(())
    }
}

#[cfg(unix)]
fn identity(path: &Path) -> std::io::Result<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path)?;
    Ok((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn identity(_path: &Path) -> std::io::Result<(u64, u64)> {
    Err(std::io::ErrorKind::Unsupported.into())
}

fn run(mut session: impl WriteSession, rx: mpsc::Receiver<Job>, max_batch: usize) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        let mut answers = Vec::new();
        // The jobs waiting now, and (after `begin`, which may have waited for another
        // instance's batch) those that came meanwhile.
        let committed = run_batch(
            &mut session,
            &mut batch,
            |batch| {
                while batch.len() < max_batch {
                    match rx.try_recv() {
                        Ok(job) => batch.push(job),
                        Err(_) => break,
                    }
                }
            },
            &mut answers,
        );
        for answer in answers {
            answer(committed.as_ref().map(|_| ()).map_err(for_each_caller));
        }
    }
    tracing::debug!("database writer stopped");
}

/// The batch's failure as told to each of its callers (the error itself is not `Clone`).
fn for_each_caller(e: &StoreError) -> StoreError {
    match e {
        StoreError::FileGone(path) => StoreError::FileGone(path.clone()),
        other => StoreError::Commit {
            message: crate::logging::ErrorChain(other).to_string(),
            unavailable: other.is_unavailable(),
        },
    }
}

/// Runs the batch: each job in its own savepoint (a lone job needs none: the transaction is
/// its own), the failed ones rolled back alone, then one commit. The end of one job's
/// savepoint goes with the start of the next, and the last with the commit, so a job costs
/// one round trip of transaction control. Every job's answer is pushed to `answers`, to be
/// told the batch's fate; `Err` when nothing was committed.
fn run_batch(
    session: &mut impl WriteSession,
    batch: &mut Vec<Job>,
    mut gather: impl FnMut(&mut Vec<Job>),
    answers: &mut Vec<Answer>,
) -> Result<(), StoreError> {
    let not_run = |jobs: std::vec::IntoIter<Job>, answers: &mut Vec<Answer>| {
        answers.extend(jobs.map(|job| job(None).answer));
    };
    gather(batch);
    let began = session.begin();
    gather(batch);
    let batch = std::mem::take(batch);
    let alone = batch.len() == 1;
    let mut jobs = batch.into_iter();
    if let Err(e) = began {
        session.rollback();
        not_run(jobs, answers);
        return Err(e);
    }
    let mut kept = 0;
    // How the previous job's savepoint ends, not yet sent.
    let mut savepoint_control = PreviousJob::None;
    while let Some(job) = jobs.next() {
        if !alone && let Err(e) = session.next_job(savepoint_control) {
            answers.push(job(None).answer);
            not_run(jobs, answers);
            session.rollback();
            return Err(e);
        }
        let (keep, answer) = match session.run(job) {
            Ok(ran) => (ran.keep, ran.answer),
            Err((ran, spoiled)) => {
                tracing::error!(error = %spoiled, "a write job went on after a failed statement; its changes are rolled back");
                let answer = ran.answer;
                let refused: Answer = Box::new(move |_| answer(Err(spoiled)));
                (false, refused)
            }
        };
        answers.push(answer);
        kept += usize::from(keep);
        savepoint_control = match (alone, keep) {
            (true, _) => PreviousJob::None,
            (false, true) => PreviousJob::Kept,
            (false, false) => PreviousJob::RolledBack,
        };
    }
    if kept == 0 {
        // Nothing to keep: no commit, no flush.
        session.rollback();
        return Ok(());
    }
    session
        .commit(savepoint_control)
        .inspect_err(|_| session.rollback())
}
