//! The single writer. Jobs queue on a channel; the thread takes every job waiting (up to
//! `max_batch`), runs each in its own savepoint of one IMMEDIATE transaction, commits once
//! (one fsync for the whole batch) and only then answers each caller, in commit order.
//! Before each commit it checks that the database file is still the one it opened.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use rusqlite::{Connection, TransactionBehavior};
use tokio::sync::oneshot;

use super::{Conn, StoreError};

/// What a job leaves behind: whether its savepoint stands, and how to answer its caller
/// once the batch's fate is known.
struct Ran {
    keep: bool,
    answer: Answer,
}

/// Runs on the batch's connection, or (`None`) is told the batch failed before it could run.
type Job = Box<dyn FnOnce(Option<&Conn<'_>>) -> Ran + Send>;
type Answer = Box<dyn FnOnce(Result<(), StoreError>) + Send>;

pub(super) struct Writer {
    jobs: mpsc::Sender<Job>,
}

impl Writer {
    pub(super) fn start(
        conn: Connection,
        path: &Path,
        max_batch: usize,
    ) -> Result<Writer, StoreError> {
        let (jobs, rx) = mpsc::channel::<Job>();
        let file = FileWatch::new(path);
        std::thread::Builder::new()
            .name("taflbot-db-writer".into())
            .spawn(move || run(conn, file, rx, max_batch))
            .map_err(|e| StoreError::Setup(format!("cannot start the writer thread: {e}")))?;
        Ok(Writer { jobs })
    }

    pub(super) async fn submit<T, E, F, A>(&self, job: F, after_commit: A) -> Result<T, E>
    where
        F: FnOnce(&Conn<'_>) -> Result<T, E> + Send + 'static,
        A: FnOnce(&T) + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let (tx, rx) = oneshot::channel::<Result<T, E>>();
        let boxed: Job = Box::new(move |conn| {
            let Some(conn) = conn else {
                return Ran {
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

fn run(mut conn: Connection, mut file: FileWatch, rx: mpsc::Receiver<Job>, max_batch: usize) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while batch.len() < max_batch {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let mut answers = Vec::with_capacity(batch.len());
        let committed = run_batch(&mut conn, &mut file, batch, &mut answers);
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
            message: other.to_string(),
            unavailable: other.is_unavailable(),
        },
    }
}

fn run_batch(
    conn: &mut Connection,
    file: &mut FileWatch,
    batch: Vec<Job>,
    answers: &mut Vec<Answer>,
) -> Result<(), StoreError> {
    let began = file.check().and_then(|()| {
        conn.transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(StoreError::from)
    });
    let mut tx = match began {
        Ok(tx) => tx,
        Err(e) => {
            // Run nothing, but answer every caller with the reason.
            answers.extend(batch.into_iter().map(|job| job(None).answer));
            return Err(e);
        }
    };
    for job in batch {
        let savepoint = tx.savepoint()?;
        let ran = job(Some(&Conn::sqlite(&savepoint)));
        if ran.keep {
            savepoint.commit()?;
        } else {
            drop(savepoint); // rolls back to the savepoint and releases it
        }
        answers.push(ran.answer);
    }
    // Checked again at the last moment: the jobs may have taken a while.
    file.check()?; // dropping `tx` rolls the batch back
    Ok(tx.commit()?)
}
