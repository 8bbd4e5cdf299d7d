use std::time::Duration;

use super::rows::{self, EventId, EventRow};
use super::*;
use crate::params;

pub(super) fn handle(text: &str) -> crate::domain::Handle {
    crate::domain::Handle::parse(text).unwrap()
}

fn open(dir: &tempfile::TempDir) -> Store {
    Store::open(&dir.path().join("t.db"), 2, Duration::from_secs(5), 64).unwrap()
}

#[tokio::test]
async fn creates_and_migrates_a_new_file_to_the_latest_version() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let (version, mode, fk): (i64, String, i64) = store
        .read(|c| {
            Ok::<_, StoreError>((
                c.query_one("PRAGMA user_version", params![], |r| r.get(0))?,
                c.query_one("PRAGMA journal_mode", params![], |r| r.get(0))?,
                c.query_one("PRAGMA foreign_keys", params![], |r| r.get(0))?,
            ))
        })
        .await
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    assert_eq!(mode, "wal");
    assert_eq!(fk, 1);
    // Opening again is a no-op migration.
    drop(store);
    let again = open(&dir);
    let n: i64 = again
        .read(|c| c.query_one("SELECT COUNT(*) FROM players", params![], |r| r.get(0)))
        .await
        .unwrap();
    assert_eq!(n, 0);
}

/// Every statement of one read sees the same snapshot: a commit landing between two of them
/// shows in neither (else a reader sees half of a job's writes, say a game marked mined
/// before its puzzles).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_sees_one_snapshot_while_a_commit_lands_between_its_statements() {
    let dir = tempfile::tempdir().unwrap();
    reads_see_one_snapshot(open(&dir)).await;
}

/// Also run on PostgreSQL (`tests_postgres.rs`).
pub(super) async fn reads_see_one_snapshot(store: Store) {
    fn players(c: &Conn<'_>) -> Result<i64, StoreError> {
        c.query_one("SELECT COUNT(*) FROM players", params![], |r| r.get(0))
    }
    store
        .write(|c| rows::insert_player(c, "Ann", &handle("ann"), None, 0))
        .await
        .unwrap();
    let runtime = tokio::runtime::Handle::current();
    let writer = store.clone();
    let (before, after) = store
        .read(move |c| {
            let before = players(c)?;
            runtime
                .block_on(writer.write(|c| rows::insert_player(c, "Bo", &handle("bo"), None, 0)))?;
            Ok::<_, StoreError>((before, players(c)?))
        })
        .await
        .unwrap();
    assert_eq!(
        (before, after),
        (1, 1),
        "a commit between two statements of one read showed in the second"
    );
    assert_eq!(store.read(players).await.unwrap(), 2);
}

#[tokio::test]
async fn a_failing_job_rolls_back_only_its_own_writes() {
    let dir = tempfile::tempdir().unwrap();
    failing_jobs_roll_back_only_their_own_writes(open(&dir)).await;
}

/// Also run on PostgreSQL (`tests_postgres.rs`).
pub(super) async fn failing_jobs_roll_back_only_their_own_writes(store: Store) {
    let mut handles = Vec::new();
    for i in 0..50 {
        let store = store.clone();
        handles.push(tokio::spawn(async move {
            store
                .write(move |c| {
                    rows::insert_player(
                        c,
                        &format!("p{i}"),
                        &handle(&format!("p{i}")),
                        Some(i as u64),
                        0,
                    )?;
                    if i % 5 == 0 {
                        return Err(StoreError::Setup("refused".into()));
                    }
                    Ok(())
                })
                .await
        }));
    }
    let mut failed = 0;
    for h in handles {
        if h.await.unwrap().is_err() {
            failed += 1;
        }
    }
    assert_eq!(failed, 10);
    let n: i64 = store
        .read(|c| c.query_one("SELECT COUNT(*) FROM players", params![], |r| r.get(0)))
        .await
        .unwrap();
    assert_eq!(n, 40);
}

#[tokio::test]
async fn events_are_queued_for_the_webhooks_of_their_players() {
    let dir = tempfile::tempdir().unwrap();
    events_queue_for_their_players_webhooks(open(&dir)).await;
}

/// Also run on PostgreSQL (`tests_postgres.rs`).
pub(super) async fn events_queue_for_their_players_webhooks(store: Store) {
    let (a, b, other) = store
        .write(|c| {
            let a = rows::insert_player(c, "a", &handle("aa"), None, 0)?.id;
            let b = rows::insert_player(c, "b", &handle("bb"), None, 0)?.id;
            let other = rows::insert_player(c, "c", &handle("cc"), None, 0)?.id;
            rows::insert_webhook(c, a, "http://a", "s", 0)?;
            rows::insert_webhook(c, other, "http://c", "s", 0)?;
            Ok::<_, StoreError>((a, b, other))
        })
        .await
        .unwrap();
    let id = store
        .write(move |c| {
            let mut e = EventRow {
                id: EventId(0),
                kind: "test".into(),
                game_id: None,
                challenge_id: None,
                players: vec![a, b],
                data: serde_json::json!({"x": 1}),
                created_at: 5,
            };
            rows::insert_event(c, &mut e)?;
            Ok::<_, StoreError>(e.id)
        })
        .await
        .unwrap();
    let (due, mine, theirs) = store
        .read(move |c| {
            Ok::<_, StoreError>((
                rows::due_deliveries(c, 10, 10)?,
                rows::events_for_player(c, b, EventId(0), 10)?,
                rows::events_for_player(c, other, EventId(0), 10)?,
            ))
        })
        .await
        .unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].url, "http://a");
    assert_eq!(due[0].event_id, id);
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0].data["x"], 1);
    assert!(theirs.is_empty());
}

#[tokio::test]
async fn a_replaced_file_stops_every_later_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let store = open(&dir);
    async fn touch(store: &Store) -> Result<(), StoreError> {
        store
            .write(|c| {
                c.execute(
                    "INSERT INTO players (name, created_at) VALUES ('p', 0)",
                    params![],
                )?;
                Ok::<_, StoreError>(())
            })
            .await
    }
    touch(&store).await.unwrap();
    // Same name, another file (as a restore from backup would leave it).
    let copy = dir.path().join("copy.db");
    std::fs::copy(&path, &copy).unwrap();
    std::fs::rename(&copy, &path).unwrap();
    let err = touch(&store).await.unwrap_err();
    assert!(matches!(err, StoreError::FileGone(_)), "{err}");
    assert!(err.is_unavailable());
    // It stays stopped: the file it writes to is not the one a restart would open.
    assert!(matches!(
        touch(&store).await.unwrap_err(),
        StoreError::FileGone(_)
    ));
}

/// Every rows file, for the dialect check below.
const ROWS_SOURCES: &[(&str, &str)] = &[
    ("ai_players", include_str!("rows/ai_players.rs")),
    ("analyses", include_str!("rows/analyses.rs")),
    ("annotations", include_str!("rows/annotations.rs")),
    ("api_tokens", include_str!("rows/api_tokens.rs")),
    ("challenges", include_str!("rows/challenges.rs")),
    ("claims", include_str!("rows/claims.rs")),
    (
        "conditional_moves",
        include_str!("rows/conditional_moves.rs"),
    ),
    (
        "discord_challenge_posts",
        include_str!("rows/discord_challenge_posts.rs"),
    ),
    ("discord_outbox", include_str!("rows/discord_outbox.rs")),
    ("discord_guilds", include_str!("rows/discord_guilds.rs")),
    (
        "discord_identify_turns",
        include_str!("rows/discord_identify_turns.rs"),
    ),
    ("events", include_str!("rows/events.rs")),
    ("explorer", include_str!("rows/explorer.rs")),
    ("explorer_balance", include_str!("rows/explorer_balance.rs")),
    (
        "explorer_evaluations",
        include_str!("rows/explorer_evaluations.rs"),
    ),
    ("game_threads", include_str!("rows/game_threads.rs")),
    ("games", include_str!("rows/games.rs")),
    ("guild_settings", include_str!("rows/guild_settings.rs")),
    ("idempotency", include_str!("rows/idempotency.rs")),
    ("imports", include_str!("rows/imports.rs")),
    ("mail", include_str!("rows/mail.rs")),
    ("moves", include_str!("rows/moves.rs")),
    ("personal_data", include_str!("rows/personal_data.rs")),
    (
        "player_preferences",
        include_str!("rows/player_preferences.rs"),
    ),
    ("players", include_str!("rows/players.rs")),
    ("puzzles", include_str!("rows/puzzles.rs")),
    ("ratings", include_str!("rows/ratings.rs")),
    (
        "shared_limit_hits",
        include_str!("rows/shared_limit_hits.rs"),
    ),
    ("team_matches", include_str!("rows/team_matches.rs")),
    (
        "tournament_discord",
        include_str!("rows/tournament_discord.rs"),
    ),
    ("tournaments", include_str!("rows/tournaments.rs")),
    ("turn_reminders", include_str!("rows/turn_reminders.rs")),
    ("vacations", include_str!("rows/vacations.rs")),
    ("web_sessions", include_str!("rows/web_sessions.rs")),
    ("webhooks", include_str!("rows/webhooks.rs")),
];

/// The rows' SQL stays in the dialect SQLite and PostgreSQL share: none of SQLite's own
/// spellings (`INSERT OR IGNORE/REPLACE`, `IS` with a value), no driver, no rowid.
#[test]
fn rows_sql_avoids_sqlite_only_spellings() {
    let sqlite_only = [
        "INSERT OR ",
        "REPLACE INTO",
        " IS ?",
        " IS '",
        "last_insert_rowid",
        "rusqlite",
    ];
    assert_eq!(
        ROWS_SOURCES.len(),
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/src/rows"))
            .unwrap()
            .count()
            - 1,
        "a rows file is missing from ROWS_SOURCES (mod.rs aside)"
    );
    for (file, source) in ROWS_SOURCES {
        for spelling in sqlite_only {
            assert!(
                !source.contains(spelling),
                "rows/{file}.rs uses {spelling:?}, which PostgreSQL does not accept"
            );
        }
    }
}

#[tokio::test]
async fn parameters_that_do_not_fit_their_statement_are_refused_before_it_runs() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let outcome = |sql: &'static str, value: Option<u64>| {
        let store = store.clone();
        async move {
            store
                .read(move |c| match value {
                    Some(v) => c.query_one(sql, params![v], |r| r.get::<i64>(0)),
                    None => c.query_one(sql, params![], |r| r.get::<i64>(0)),
                })
                .await
        }
    };
    assert!(matches!(
        outcome("SELECT ?1", None).await,
        Err(StoreError::Parameter(_))
    ));
    assert!(matches!(
        outcome("SELECT 1", Some(1)).await,
        Err(StoreError::Parameter(_))
    ));
    assert!(matches!(
        outcome("SELECT ?1", Some(u64::MAX)).await,
        Err(StoreError::Parameter(_))
    ));
    assert_eq!(outcome("SELECT ?1", Some(7)).await.unwrap(), 7);
}

/// An AI level beyond what a seat holds is corrupt data: every reader of one refuses it
/// rather than reading the strongest AI.
#[tokio::test]
async fn a_stored_ai_level_out_of_range_is_read_as_corrupt_data() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let (game, challenge) = store
        .write(|c| {
            let p = rows::insert_player(c, "p", &handle("pp"), None, 0)?.id;
            c.execute(
                "INSERT INTO discord_guild_settings (guild_id, ai_level, updated_at) \
                 VALUES (1, 300, 0)",
                params![],
            )?;
            let game = c.insert_returning_id(
                "INSERT INTO games (rules, attackers_player, defenders_ai_level, status, \
                     side_to_move, position, clock_kind, turn_started_at, created_at, updated_at) \
                 VALUES ('rules', ?1, 300, 'active', 'attackers', 'position', 'unlimited', 0, 0, 0) \
                 RETURNING id",
                params![p],
            )?;
            let challenge = c.insert_returning_id(
                "INSERT INTO challenges (challenger, opponent_ai_level, rules, challenger_side, \
                     clock, status, created_at, expires_at) \
                 VALUES (?1, 300, 'rules', 'attackers', '{}', 'pending', 0, 0) RETURNING id",
                params![p],
            )?;
            Ok::<_, StoreError>((rows::GameId(game), rows::ChallengeId(challenge)))
        })
        .await
        .unwrap();
    let read = store
        .read(move |c| {
            Ok::<_, StoreError>((
                rows::guild_settings(c, 1).map(|_| ()),
                rows::game(c, game).map(|_| ()),
                rows::challenge(c, challenge).map(|_| ()),
            ))
        })
        .await
        .unwrap();
    for (what, outcome) in [
        ("guild settings", read.0),
        ("game", read.1),
        ("challenge", read.2),
    ] {
        match outcome {
            Err(StoreError::Corrupt(message)) => {
                assert!(message.contains("300"), "{what}: {message}")
            }
            other => panic!("{what}: a level of 300 read as {other:?}"),
        }
    }
}

/// A burst of reads waits for the bounded read connections; one that waits too long is told
/// the store is busy (a "try again soon"), and reads go on once connections are free.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_beyond_the_open_connections_wait_and_then_are_refused_as_busy() {
    let dir = tempfile::tempdir().unwrap();
    // One idle reader: two may be open at once.
    let store = Store::open(&dir.path().join("t.db"), 1, Duration::from_secs(5), 64).unwrap();
    let (release, held) = std::sync::mpsc::channel::<()>();
    let held = Arc::new(Mutex::new(held));
    let (started, mut running) = tokio::sync::mpsc::channel::<()>(2);
    let mut holders = Vec::new();
    for _ in 0..2 {
        let (store, held, started) = (store.clone(), held.clone(), started.clone());
        holders.push(tokio::spawn(async move {
            store
                .read(move |_| {
                    let _ = started.blocking_send(());
                    let _ = held.lock().unwrap().recv();
                    Ok::<_, StoreError>(())
                })
                .await
        }));
    }
    for _ in 0..2 {
        tokio::time::timeout(Duration::from_secs(10), running.recv())
            .await
            .expect("both holding reads started");
    }
    let busy = store.read(|_| Ok::<_, StoreError>(())).await;
    match busy {
        Err(e @ StoreError::ReadersBusy(_)) => assert!(e.is_unavailable()),
        other => panic!("expected the store to be busy, got {other:?}"),
    }
    for holder in holders {
        // They run past the answer wait: their callers are told so, while their connections
        // stay taken until they end (which is what kept the third read out).
        let held = tokio::time::timeout(Duration::from_secs(10), holder)
            .await
            .expect("the holding reads' callers were answered")
            .unwrap();
        match held {
            Err(e @ StoreError::NoAnswer(_)) => assert!(e.is_unavailable()),
            other => panic!("a read held past the answer wait answered {other:?}"),
        }
    }
    release.send(()).unwrap();
    release.send(()).unwrap();
    store
        .read(|_| Ok::<_, StoreError>(()))
        .await
        .expect("a read once connections are free");
}

#[tokio::test]
async fn the_log_reaches_the_database_file_without_the_writer_checkpointing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let store = open(&dir);
    let file_size = || std::fs::metadata(&path).unwrap().len();
    let before = file_size();
    store
        .write(|c| {
            for i in 0..3000 {
                let name = format!("player number {i} with a name long enough to fill pages");
                rows::insert_player(c, &name, &handle(&format!("p{i}")), Some(i), 0)?;
            }
            Ok::<_, StoreError>(())
        })
        .await
        .unwrap();
    // The writer's own checkpoint waits for thousands of pages: a file that grows by far less
    // was written by the checkpointer's pass.
    let grown = 128 * 1024;
    taflbot_test_support::eventually(
        Duration::from_secs(10),
        "the checkpointer's copy",
        || async { (file_size() > before + grown).then_some(()) },
    )
    .await;
}
