//! The single writer. Jobs queue on a channel; the thread takes every job waiting (up to
//! `max_batch`), runs each in its own savepoint of one IMMEDIATE transaction, commits once
//! (one fsync for the whole batch) and only then answers each caller, in commit order.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;

use rusqlite::{Connection, TransactionBehavior};
use tokio::sync::oneshot;

use super::StoreError;

/// What a job leaves behind: whether its savepoint stands, and how to answer its caller
/// once the batch's fate is known.
struct Ran {
    keep: bool,
    answer: Answer,
}

type Job = Box<dyn FnOnce(&Connection) -> Ran + Send>;
type Answer = Box<dyn FnOnce(Result<(), StoreError>) + Send>;

pub(super) struct Writer {
    jobs: mpsc::Sender<Job>,
}

impl Writer {
    pub(super) fn start(conn: Connection, max_batch: usize) -> Result<Writer, StoreError> {
        let (jobs, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("taflbot-db-writer".into())
            .spawn(move || run(conn, rx, max_batch))
            .map_err(|e| StoreError::Setup(format!("cannot start the writer thread: {e}")))?;
        Ok(Writer { jobs })
    }

    pub(super) async fn submit<T, E, F, A>(&self, job: F, after_commit: A) -> Result<T, E>
    where
        F: FnOnce(&Connection) -> Result<T, E> + Send + 'static,
        A: FnOnce(&T) + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let (tx, rx) = oneshot::channel::<Result<T, E>>();
        let boxed: Job = Box::new(move |conn| {
            let outcome = catch_unwind(AssertUnwindSafe(|| job(conn))).unwrap_or_else(|_| {
                Err(E::from(StoreError::Thread("a write job panicked".into())))
            });
            match outcome {
                Ok(value) => Ran {
                    keep: true,
                    answer: Box::new(move |committed| {
                        if committed.is_ok() {
                            after_commit(&value);
                        }
                        let _ = tx.send(committed.map(|()| value).map_err(E::from));
                    }),
                },
                Err(err) => Ran {
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
        rx.await.map_err(|_| E::from(StoreError::WriterGone))?
    }
}

fn run(mut conn: Connection, rx: mpsc::Receiver<Job>, max_batch: usize) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while batch.len() < max_batch {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let mut answers = Vec::with_capacity(batch.len());
        let committed = run_batch(&mut conn, batch, &mut answers);
        for answer in answers {
            let result = match &committed {
                Ok(()) => Ok(()),
                Err(e) => Err(StoreError::Commit(e.to_string())),
            };
            answer(result);
        }
    }
    tracing::debug!("database writer stopped");
}

fn run_batch(
    conn: &mut Connection,
    batch: Vec<Job>,
    answers: &mut Vec<Answer>,
) -> Result<(), rusqlite::Error> {
    let mut tx = match conn.transaction_with_behavior(TransactionBehavior::Immediate) {
        Ok(tx) => tx,
        Err(e) => {
            // Still run nothing, but answer every caller.
            for job in batch {
                drop(job);
            }
            return Err(e);
        }
    };
    for job in batch {
        let savepoint = tx.savepoint()?;
        let ran = job(&savepoint);
        if ran.keep {
            savepoint.commit()?;
        } else {
            drop(savepoint); // rolls back to the savepoint and releases it
        }
        answers.push(ran.answer);
    }
    tx.commit()
}
