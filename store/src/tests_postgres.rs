//! The store on a real PostgreSQL server (started by the tests, see
//! `test-support/src/pg_server.rs`): the same guarantees as SQLite's, and what only a database
//! shared by several instances needs.

use std::time::Duration;

use super::rows;
use super::tests::{
    events_queue_for_their_players_webhooks, failing_jobs_roll_back_only_their_own_writes, handle,
    reads_see_one_snapshot,
};
use super::*;
use crate::params;
use crate::pg_test_server::database_url;

fn open(url: &str) -> Store {
    Store::open_postgres(url, 2, 64).unwrap()
}

#[tokio::test]
async fn a_failing_job_rolls_back_only_its_own_writes() {
    failing_jobs_roll_back_only_their_own_writes(open(&database_url())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_sees_one_snapshot_while_a_commit_lands_between_its_statements() {
    reads_see_one_snapshot(open(&database_url())).await;
}

#[tokio::test]
async fn events_are_queued_for_the_webhooks_of_their_players() {
    events_queue_for_their_players_webhooks(open(&database_url())).await;
}

#[tokio::test]
async fn values_of_every_kind_read_back_as_written() {
    let store = open(&database_url());
    let read = store
        .write(|c| {
            let player = rows::insert_player(c, "Ann", &handle("ann"), Some(u64::MAX >> 1), 7)?;
            rows::set_discord_dm(c, player.id, true)?;
            rows::insert_token(c, player.id, &[0u8, 255, 7], "label", 9)?;
            Ok::<_, StoreError>(player)
        })
        .await
        .unwrap();
    let player = read;
    let (back, dm, rating, token) = store
        .read(move |c| {
            Ok::<_, StoreError>((
                rows::player(c, player.id)?,
                rows::wants_discord_dm(c, player.id)?,
                c.query_one("SELECT CAST(1.5 AS DOUBLE PRECISION)", params![], |r| {
                    r.get::<f64>(0)
                })?,
                rows::token_by_hash(c, &[0u8, 255, 7])?,
            ))
        })
        .await
        .unwrap();
    assert_eq!(back, Some(player));
    assert!(dm);
    assert_eq!(rating, 1.5);
    assert_eq!(token.map(|t| t.label), Some("label".to_owned()));
}

/// Binding is strict: an integer never becomes a boolean nor a boolean an integer (as SQLite,
/// which stores both as integers, would let pass), and the error names the parameter, its
/// kind and its placeholder's type.
#[tokio::test]
async fn a_parameter_of_another_kind_than_its_placeholder_is_refused_naming_both() {
    let store = open(&database_url());
    let player = store
        .write(|c| rows::insert_player(c, "p", &handle("strict"), None, 0))
        .await
        .unwrap()
        .id;
    let integer_for_boolean = store
        .write(move |c| {
            c.execute(
                "UPDATE players SET discord_dm = ?2 WHERE id = ?1",
                params![player, 1i64],
            )
        })
        .await
        .unwrap_err();
    assert!(
        matches!(&integer_for_boolean, StoreError::ParameterKind { index: 2, value: "integer", placeholder, .. } if placeholder == "bool"),
        "{integer_for_boolean:?}"
    );
    let words = integer_for_boolean.to_string();
    assert!(
        words.contains("parameter 2") && words.contains("UPDATE players"),
        "{words}"
    );
    let boolean_for_integer = store
        .read(|c| {
            c.query_opt("SELECT id FROM players WHERE id = ?1", params![true], |r| {
                r.get::<i64>(0)
            })
        })
        .await
        .unwrap_err();
    assert!(
        matches!(&boolean_for_integer, StoreError::ParameterKind { index: 1, value: "boolean", placeholder, .. } if placeholder == "int8"),
        "{boolean_for_integer:?}"
    );
    let integer_for_real = store
        .read(|c| {
            c.query_one("SELECT CAST(?1 AS DOUBLE PRECISION)", params![2i64], |r| {
                r.get::<f64>(0)
            })
        })
        .await
        .unwrap_err();
    assert!(
        matches!(
            &integer_for_real,
            StoreError::ParameterKind {
                value: "integer",
                ..
            }
        ),
        "{integer_for_real:?}"
    );
    // A narrower integer type takes an integer that fits, and refuses one that does not.
    let narrow = |value: i64| {
        let store = store.clone();
        async move {
            store
                .read(move |c| {
                    c.query_one("SELECT CAST(?1 AS INTEGER) + 1", params![value], |r| {
                        r.get::<i64>(0)
                    })
                })
                .await
        }
    };
    assert_eq!(narrow(41).await.unwrap(), 42);
    assert!(matches!(
        narrow(i64::from(i32::MAX) + 1).await,
        Err(StoreError::Parameter(_))
    ));
}

#[tokio::test]
async fn a_taken_handle_leaves_the_transaction_usable() {
    let store = open(&database_url());
    let (refused, second) = store
        .write(|c| {
            rows::insert_player(c, "a", &handle("same"), None, 0)?;
            let refused = rows::insert_player(c, "b", &handle("same"), None, 0)
                .err()
                .is_some_and(|e| rows::handle_taken(&e));
            // PostgreSQL would refuse every later statement had the insert failed.
            let second = rows::insert_player(c, "b", &handle("other"), None, 0)?;
            Ok::<_, StoreError>((refused, second.handle))
        })
        .await
        .unwrap();
    assert!(refused);
    assert_eq!(second.as_str(), "other");
}

#[tokio::test]
async fn a_job_that_goes_on_after_a_failed_statement_is_refused_and_rolled_back() {
    let store = open(&database_url());
    let outcome = store
        .write(|c| {
            rows::insert_player(c, "kept?", &handle("kept"), None, 0)?;
            let _ignored = c.execute("INSERT INTO no_such_table VALUES (1)", params![]);
            Ok::<_, StoreError>(())
        })
        .await;
    assert!(outcome.is_err(), "the job's Ok cannot stand");
    let n: i64 = store
        .read(|c| c.query_one("SELECT COUNT(*) FROM players", params![], |r| r.get(0)))
        .await
        .unwrap();
    assert_eq!(n, 0);
}

/// A write sent ahead of the next statement (one round trip for both) is seen by that
/// statement, and its failure is that statement's: the server's own error, not "the
/// transaction is aborted".
#[tokio::test]
async fn a_write_sent_ahead_is_seen_by_the_next_statement_which_reports_its_failure() {
    let store = open(&database_url());
    let (a, renamed) = store
        .write(|c| {
            let a = rows::insert_player(c, "a", &handle("ahead-a"), None, 0)?.id;
            rows::insert_player(c, "b", &handle("ahead-b"), None, 0)?;
            c.execute_pipelined(
                "UPDATE players SET name = ?1 WHERE id = ?2",
                params!["renamed", a],
            )?;
            let renamed: String =
                c.query_one("SELECT name FROM players WHERE id = ?1", params![a], |r| {
                    r.get(0)
                })?;
            Ok::<_, StoreError>((a, renamed))
        })
        .await
        .unwrap();
    assert_eq!(renamed, "renamed");
    let refused = store
        .write(move |c| {
            c.execute_pipelined(
                "UPDATE players SET handle = ?1 WHERE id = ?2",
                params!["ahead-b", a],
            )?;
            c.query_one("SELECT COUNT(*) FROM players", params![], |r| {
                r.get::<i64>(0)
            })
        })
        .await
        .unwrap_err();
    assert!(rows::handle_taken(&refused), "{refused}");
}

/// A job whose last statement was a write sent ahead learns its fate before its savepoint is
/// released: a failed one refuses the job and rolls back its writes alone, whatever the job
/// answered, and its batch-mates are kept.
#[tokio::test]
async fn a_job_ending_with_a_failed_write_sent_ahead_is_refused_alone() {
    let store = open(&database_url());
    store
        .write(|c| rows::insert_player(c, "taken", &handle("taken"), None, 0))
        .await
        .unwrap();
    let mut jobs = Vec::new();
    for i in 0..40 {
        let store = store.clone();
        jobs.push(tokio::spawn(async move {
            store
                .write(move |c| {
                    let id =
                        rows::insert_player(c, "p", &handle(&format!("ahead{i}")), None, 0)?.id;
                    let new_handle = if i % 4 == 0 {
                        "taken".to_owned()
                    } else {
                        format!("moved{i}")
                    };
                    c.execute_pipelined(
                        "UPDATE players SET handle = ?1 WHERE id = ?2",
                        params![new_handle, id],
                    )
                })
                .await
        }));
    }
    let mut refused = 0;
    for job in jobs {
        if let Err(e) = job.await.unwrap() {
            // The driver's words are the error's source, said by the chain.
            let words = crate::logging::ErrorChain(&e).to_string();
            assert!(words.contains("players"), "{words}");
            refused += 1;
        }
    }
    assert_eq!(refused, 10);
    let (players, moved): (i64, i64) = store
        .read(|c| {
            c.query_one(
                "SELECT COUNT(*), COUNT(*) FILTER (WHERE handle LIKE 'moved%') FROM players",
                params![],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })
        .await
        .unwrap();
    assert_eq!((players, moved), (31, 30));
}

/// Two instances on one database: ids of events come in commit order whoever writes, and each
/// store hears the other's commits.
#[tokio::test]
async fn two_stores_on_one_database_hear_each_other_and_keep_event_ids_in_commit_order() {
    let url = database_url();
    let (a, b) = (open(&url), open(&url));
    let mut heard = b.changes().expect("a shared database reports changes");
    let player = a
        .write(|c| Ok::<_, StoreError>(rows::insert_player(c, "p", &handle("pp"), None, 0)?.id))
        .await
        .unwrap();
    let mut writes = Vec::new();
    for i in 0..100 {
        let store = if i % 2 == 0 { a.clone() } else { b.clone() };
        writes.push(tokio::spawn(async move {
            store
                .write(move |c| {
                    let mut e = rows::test_event(player);
                    rows::insert_event(c, &mut e)?;
                    Ok::<_, StoreError>(e.id)
                })
                .await
        }));
    }
    for write in writes {
        write.await.unwrap().unwrap();
    }
    tokio::time::timeout(Duration::from_secs(10), heard.changed())
        .await
        .expect("store b heard a commit within 10 s")
        .unwrap();
    let ids: Vec<i64> = b
        .read(|c| c.query_all("SELECT id FROM events ORDER BY id", params![], |r| r.get(0)))
        .await
        .unwrap();
    assert_eq!(ids.len(), 100);
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
}

/// The lock that orders ids: while one store's batch is open, another's waits, so an event
/// id below one already visible can never appear later.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_waits_for_the_other_instances_open_batch() {
    let url = database_url();
    let (a, b) = (open(&url), open(&url));
    let (entered_tx, entered) = std::sync::mpsc::channel::<()>();
    let (release, released) = std::sync::mpsc::channel::<()>();
    let slow = tokio::spawn(async move {
        a.write(move |c| {
            let player = rows::insert_player(c, "slow", &handle("slow"), None, 0)?.id;
            let _ = entered_tx.send(());
            let _ = released.recv_timeout(Duration::from_secs(10));
            let mut e = rows::test_event(player);
            rows::insert_event(c, &mut e)?;
            Ok::<_, StoreError>(e.id)
        })
        .await
    });
    entered
        .recv_timeout(Duration::from_secs(10))
        .expect("store a's job started");
    let watcher = open(&url);
    let fast = tokio::spawn(async move {
        b.write(|c| {
            let player = rows::insert_player(c, "fast", &handle("fast"), None, 0)?.id;
            let mut e = rows::test_event(player);
            rows::insert_event(c, &mut e)?;
            Ok::<_, StoreError>(e.id)
        })
        .await
    });
    // Only once b's batch is seen waiting for the lock does a go on.
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let waiting: i64 = watcher
                .read(|c| {
                    c.query_one(
                        "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
                        params![],
                        |r| r.get(0),
                    )
                })
                .await
                .unwrap();
            if waiting > 0 {
                break;
            }
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("store b's write waits for the lock store a holds");
    release.send(()).unwrap();
    let slow_id = slow.await.unwrap().unwrap();
    let fast_id = fast.await.unwrap().unwrap();
    assert!(
        slow_id < fast_id,
        "the batch that began first gets the lower id ({slow_id:?} vs {fast_id:?})"
    );
}

/// A rollback after jobs that all failed before sending anything has no transaction to end:
/// the session says so, and the writer then sends no `ROLLBACK`.
#[test]
fn a_transaction_whose_start_was_never_sent_has_nothing_to_roll_back() {
    let mut session = pg::Session::connect(&database_url()).unwrap();
    session.begin_ahead("BEGIN;");
    assert!(session.forget_ahead(), "the queued BEGIN was never sent");
    session.begin_ahead("BEGIN;");
    session.batch("SELECT 1").unwrap();
    assert!(!session.forget_ahead(), "the BEGIN went with the SELECT");
    session.batch("ROLLBACK").unwrap();
    assert!(!session.forget_ahead(), "nothing was queued");
}

/// The writer holds the cluster-wide lock while it runs its statements: they are planned once
/// (generic plans), also on a connection opened again after the server dropped the first;
/// readers keep the server's default.
#[tokio::test]
async fn the_writer_plans_generically_also_after_reconnecting_and_readers_do_not() {
    let store = open(&database_url());
    let writer_mode = || async {
        store
            .write(|c| {
                c.query_one(
                    "SELECT current_setting('plan_cache_mode'), pg_backend_pid()::bigint",
                    params![],
                    |r| Ok::<(String, i64), StoreError>((r.get(0)?, r.get(1)?)),
                )
            })
            .await
    };
    let (mode, pid) = writer_mode().await.unwrap();
    assert_eq!(mode, "force_generic_plan");
    let reader_mode: String = store
        .read(|c| {
            c.query_one(
                "SELECT current_setting('plan_cache_mode')",
                params![],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(reader_mode, "auto");

    let ended: bool = store
        .read(move |c| {
            c.query_one(
                "SELECT pg_terminate_backend(CAST(?1 AS bigint)::int)",
                params![pid],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert!(ended, "the writer's server process was ended");
    // The write that finds the connection gone fails; one of the next ones connects again.
    let mut again = None;
    for _ in 0..3 {
        if let Ok(found) = writer_mode().await {
            again = Some(found);
            break;
        }
    }
    let (mode, new_pid) = again.expect("the writer connects again within three writes");
    assert_ne!(new_pid, pid, "a new connection");
    assert_eq!(mode, "force_generic_plan");
}

#[tokio::test]
async fn identify_turns_of_a_bucket_follow_one_another_whoever_claims_them() {
    // Two stores on one database: two instances of the bot.
    let url = database_url();
    let (first, second) = (open(&url), open(&url));
    let claim = |store: &Store, bucket: u16, now: i64| {
        let store = store.clone();
        async move {
            store
                .write(move |c| rows::claim_identify_turn(c, bucket, now, 5_750))
                .await
                .unwrap()
        }
    };
    assert_eq!(claim(&first, 0, 1_000).await, 1_000, "a free bucket: now");
    assert_eq!(
        claim(&second, 0, 1_100).await,
        6_750,
        "the other instance waits its turn"
    );
    assert_eq!(
        claim(&first, 0, 1_200).await,
        12_500,
        "and the next after it"
    );
    assert_eq!(
        claim(&second, 1, 1_300).await,
        1_300,
        "another bucket is free"
    );
    assert_eq!(
        claim(&first, 0, 60_000).await,
        60_000,
        "turns long past leave the bucket free"
    );
}
