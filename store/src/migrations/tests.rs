//! The migration runner on SQLite, and what its PostgreSQL tests share (`tests_postgres.rs`).

use std::path::Path;
use std::time::Duration;

use super::*;
use crate::domain::{ChallengeId, ChallengeStatus, PlayerId, SideChoice};
use crate::rows::{self, ChallengeRow, GameRow, GuildSettingsRow};
use crate::tests::handle;
use crate::{MigrationError, SCHEMA_VERSION, Store, params};

/// The runner reads the list as numbered 1, 2, 3... with PostgreSQL's baseline once, after
/// every version it holds and before every version it does not.
#[test]
fn the_list_counts_up_from_one_with_one_baseline_before_postgresql_texts() {
    let versions: Vec<i64> = MIGRATIONS.iter().map(|m| m.version).collect();
    assert_eq!(versions, (1..=SCHEMA_VERSION).collect::<Vec<_>>());
    let baselines: Vec<i64> = MIGRATIONS
        .iter()
        .filter(|m| matches!(m.postgres, Postgres::Baseline(_)))
        .map(|m| m.version)
        .collect();
    assert_eq!(baselines.len(), 1, "one baseline: {baselines:?}");
    for m in MIGRATIONS {
        let in_baseline = matches!(m.postgres, Postgres::InBaseline);
        assert_eq!(
            in_baseline,
            m.version < baselines[0],
            "version {} and the baseline",
            m.version
        );
        assert!(!m.sqlite.trim().is_empty(), "version {} has SQL", m.version);
    }
    let names: std::collections::HashSet<&str> = MIGRATIONS.iter().map(|m| m.name).collect();
    assert_eq!(names.len(), MIGRATIONS.len(), "names are unique");
}

fn open(path: &Path) -> Result<Store, StoreError> {
    Store::open(path, 1, Duration::from_secs(5), 8)
}

/// An SQLite file as rusqlite_migration left it at `version`: the files up to it applied, and
/// the version in `user_version`.
pub(crate) fn sqlite_file_of_the_previous_runner(
    path: &Path,
    version: i64,
) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(path).unwrap();
    for m in MIGRATIONS.iter().take_while(|m| m.version <= version) {
        conn.execute_batch(m.sqlite).unwrap();
    }
    conn.pragma_update(None, "user_version", version).unwrap();
    conn
}

/// The versions the database records, with their names, in order.
pub(super) fn recorded(c: &Conn<'_>) -> Vec<(i64, String)> {
    c.query_all(
        "SELECT version, name FROM schema_migrations ORDER BY version",
        params![],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .unwrap()
}

/// Every version of this build, with its name.
pub(super) fn every_version() -> Vec<(i64, String)> {
    MIGRATIONS
        .iter()
        .map(|m| (m.version, m.name.to_owned()))
        .collect()
}

#[tokio::test]
async fn a_new_file_records_every_version_once_and_keeps_user_version_in_step() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    drop(open(&path).unwrap());
    let store = open(&path).unwrap();
    let (versions, user_version) = store
        .read(|c| {
            Ok::<_, StoreError>((
                recorded(c),
                c.query_one("PRAGMA user_version", params![], |r| r.get::<i64>(0))?,
            ))
        })
        .await
        .unwrap();
    assert_eq!(versions, every_version());
    // For a build from before this runner, which reads only `user_version`.
    assert_eq!(user_version, SCHEMA_VERSION);
}

/// A database a newer build migrated is refused before anything in it changes.
#[test]
fn a_file_from_a_newer_build_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    drop(open(&path).unwrap());
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute(
        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, 'future', 0)",
        [SCHEMA_VERSION + 1],
    )
    .unwrap();
    drop(conn);
    let err = open(&path).err().expect("a newer schema is refused");
    assert!(
        matches!(&err, StoreError::Migration(MigrationError::NewerThanBuild { found, latest })
            if *found == SCHEMA_VERSION + 1 && *latest == SCHEMA_VERSION),
        "{err:?}"
    );
    assert!(
        crate::logging::ErrorChain(&err)
            .to_string()
            .contains("newer than this build"),
        "{err}"
    );
}

/// The same for a file whose only marker is the previous runner's.
#[test]
fn a_file_the_previous_runner_marked_newer_is_refused_without_a_version_table() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let conn = sqlite_file_of_the_previous_runner(&path, 3);
    conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
        .unwrap();
    drop(conn);
    let err = open(&path).err().expect("a newer schema is refused");
    assert!(
        matches!(
            &err,
            StoreError::Migration(MigrationError::NewerThanBuild { .. })
        ),
        "{err:?}"
    );
    let conn = rusqlite::Connection::open(&path).unwrap();
    let tables: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE name = 'schema_migrations'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(tables, 0, "nothing was written");
}

/// What a database of an older build holds, in the columns later migrations change (the
/// flags, a column dropped), written by the store's own rows on that older schema.
pub(super) struct OldData {
    a: PlayerId,
    b: PlayerId,
    game: GameRow,
    challenge: ChallengeRow,
    guild: GuildSettingsRow,
}

pub(super) fn write_old_data(c: &Conn<'_>) -> OldData {
    let a = rows::insert_player(c, "Ann", &handle("ann"), Some(11), 1)
        .unwrap()
        .id;
    let b = rows::insert_player(c, "Bob", &handle("bob"), None, 2)
        .unwrap()
        .id;
    rows::set_discord_dm(c, a, true).unwrap();
    rows::set_board_flipped(c, b, true).unwrap();
    let mut game = GameRow::sample(a, b, 1_000);
    game.rated = true;
    game.private = true;
    game.id = rows::insert_game(c, &game).unwrap();
    // Version 12's column, dropped by 13: its value goes with it.
    c.execute(
        "UPDATE games SET version = 5 WHERE id = ?1",
        params![game.id],
    )
    .unwrap();
    let mut challenge = ChallengeRow {
        id: ChallengeId(0),
        challenger: a,
        opponent: Some(b),
        opponent_ai_level: None,
        variant: Some("copenhagen".into()),
        rules: String::new(),
        challenger_side: SideChoice::Attackers,
        clock: "{}".into(),
        status: ChallengeStatus::Pending,
        game_id: None,
        context: None,
        created_at: 3,
        expires_at: 4,
        resolved_at: None,
        rated: true,
        private: false,
    };
    challenge.id = rows::insert_challenge(c, &challenge).unwrap();
    let kept = rows::insert_webhook(c, a, "http://kept", "s", 5).unwrap();
    let off = rows::insert_webhook(c, a, "http://off", "s", 6).unwrap();
    assert!(rows::deactivate_webhook(c, a, off.id).unwrap());
    assert!(kept.active);
    let guild = GuildSettingsRow {
        guild_id: 77,
        default_variant: None,
        default_clock: None,
        ai_level: Some(2),
        threads: false,
        moderator_role: None,
        game_channels: vec![8],
    };
    rows::save_guild_settings(c, &guild, 7).unwrap();
    OldData {
        a,
        b,
        game,
        challenge,
        guild,
    }
}

/// The data reads back as it was written, through the migrated schema.
pub(super) fn assert_old_data_kept(c: &Conn<'_>, old: &OldData) {
    assert!(rows::wants_discord_dm(c, old.a).unwrap());
    assert!(!rows::wants_discord_dm(c, old.b).unwrap());
    assert!(rows::board_flipped(c, old.b).unwrap());
    assert!(!rows::board_flipped(c, old.a).unwrap());
    assert_eq!(
        rows::game(c, old.game.id).unwrap().as_ref(),
        Some(&old.game)
    );
    assert_eq!(
        rows::challenge(c, old.challenge.id).unwrap().as_ref(),
        Some(&old.challenge)
    );
    // The active ones only.
    let hooks: Vec<String> = rows::webhooks_of(c, old.a)
        .unwrap()
        .into_iter()
        .map(|w| w.url)
        .collect();
    assert_eq!(hooks, ["http://kept"]);
    assert_eq!(
        rows::guild_settings(c, old.guild.guild_id)
            .unwrap()
            .as_ref(),
        Some(&old.guild)
    );
    assert_eq!(
        rows::player(c, old.a)
            .unwrap()
            .map(|p| p.handle.to_string()),
        Some("ann".to_owned())
    );
}

/// A file rusqlite_migration migrated to 12 is adopted at 12 (nothing before runs again: it
/// would fail, the tables being there) and brought to the latest, its data kept.
#[tokio::test]
async fn a_file_of_the_previous_runner_is_adopted_at_its_version_and_keeps_its_data() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let old = {
        let conn = sqlite_file_of_the_previous_runner(&path, 12);
        conn.execute_batch("PRAGMA foreign_keys = ON").unwrap();
        write_old_data(&Conn::sqlite(&conn))
    };
    let store = open(&path).unwrap();
    let (versions, adopted_together, user_version, declared) = store
        .read(move |c| {
            assert_old_data_kept(c, &old);
            Ok::<_, StoreError>((
                recorded(c),
                // Versions 1 to 12 were recorded in one transaction, at one time.
                c.query_one(
                    "SELECT COUNT(DISTINCT applied_at) FROM schema_migrations WHERE version <= 12",
                    params![],
                    |r| r.get::<i64>(0),
                )?,
                c.query_one("PRAGMA user_version", params![], |r| r.get::<i64>(0))?,
                c.query_one(
                    "SELECT type FROM pragma_table_info('games') WHERE name = 'rated'",
                    params![],
                    |r| r.get::<String>(0),
                )?,
            ))
        })
        .await
        .unwrap();
    assert_eq!(versions, every_version());
    assert_eq!(adopted_together, 1);
    assert_eq!(user_version, SCHEMA_VERSION);
    assert_eq!(declared, "BOOLEAN");
}

/// Migration 4's Rust runs on a file adopted before it.
#[tokio::test]
async fn players_stored_before_handles_get_unique_ones_made_from_their_names() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    {
        let conn = sqlite_file_of_the_previous_runner(&path, 3);
        for (name, discord) in [
            ("Ada", None),
            ("ada", Some(7)),
            ("Zoë Smith", None),
            ("@everyone", None),
            ("!!", None),
        ] {
            conn.execute(
                "INSERT INTO players (name, discord_user_id, created_at) VALUES (?1, ?2, 0)",
                rusqlite::params![name, discord],
            )
            .unwrap();
        }
    }
    let store = open(&path).unwrap();
    let handles: Vec<String> = store
        .read(|c| {
            c.query_all("SELECT handle FROM players ORDER BY id", params![], |r| {
                r.get(0)
            })
        })
        .await
        .unwrap();
    assert_eq!(handles, ["ada", "ada2", "zo_smith", "everyone2", "player"]);
    // The index holds from now on.
    let again = store
        .write(|c| {
            rows::insert_player(c, "x", &handle("ada"), None, 0)?;
            Ok::<_, StoreError>(())
        })
        .await;
    assert!(
        matches!(&again, Err(e) if rows::handle_taken(e)),
        "{again:?}"
    );
}

/// Three migrations, the second failing after a change of its own.
pub(super) fn two_good_around_a_failing_one(second: &'static str) -> [Migration; 3] {
    let both = |sql: &'static str| Migration {
        version: 0,
        name: "",
        sqlite: sql,
        postgres: Postgres::Sql(sql),
        then: None,
    };
    [
        Migration {
            version: 1,
            name: "first",
            ..both("CREATE TABLE first (id BIGINT PRIMARY KEY)")
        },
        Migration {
            version: 2,
            name: "second",
            ..both(second)
        },
        Migration {
            version: 3,
            name: "third",
            ..both("CREATE TABLE third (id BIGINT PRIMARY KEY)")
        },
    ]
}

/// A migration that fails is rolled back alone: the database stays at the version before it,
/// with nothing of it, and the next start applies it (once fixed) and what follows.
pub(super) fn a_failing_migration_leaves_the_version_before_it(c: &Conn<'_>) {
    let failing = two_good_around_a_failing_one(
        "CREATE TABLE second (id BIGINT); INSERT INTO nowhere VALUES (1)",
    );
    let err = run(c, &failing).unwrap_err();
    assert!(
        matches!(
            &err,
            StoreError::Migration(MigrationError::Failed {
                version: 2,
                name: "second",
                ..
            })
        ),
        "{err:?}"
    );
    let tables = |c: &Conn<'_>| {
        ["first", "second", "third"]
            .into_iter()
            .filter(|t| runner::table_exists(c, t).unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(tables(c), ["first"]);
    assert_eq!(recorded(c), [(1, "first".to_owned())]);
    assert_eq!(legacy::version(c).unwrap(), 1);
    let fixed = two_good_around_a_failing_one("CREATE TABLE second (id BIGINT)");
    run(c, &fixed).unwrap();
    assert_eq!(tables(c), ["first", "second", "third"]);
    assert_eq!(recorded(c).len(), 3);
    assert_eq!(legacy::version(c).unwrap(), 3);
}

#[test]
fn a_failing_migration_leaves_the_file_at_the_version_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let conn = rusqlite::Connection::open(dir.path().join("t.db")).unwrap();
    a_failing_migration_leaves_the_version_before_it(&Conn::sqlite(&conn));
}
