//! A Discord server's rows on both backends: its channels found, its removal acted on once,
//! paused games left alone by the scheduler's queries, and its rows deleted.

use std::time::Duration;

use super::rows;
use super::tests::handle;
use super::*;
use crate::pg_test_server::database_url;

const GUILD: u64 = 1_200_000_000_000_000_004;
const CHANNEL: u64 = 1_200_000_000_000_000_005;
const THREAD: u64 = 1_200_000_000_000_000_105;
const NOW: i64 = 1_000_000;

async fn a_servers_rows_are_found_paused_and_deleted(store: Store) {
    let game = store
        .write(|c| {
            let ann = rows::insert_player(c, "Ann", &handle("ann"), Some(11), NOW)?;
            let bob = rows::insert_player(c, "Bob", &handle("bob"), Some(12), NOW)?;
            let mut row = rows::GameRow::sample(ann.id, bob.id, NOW);
            row.context = Some(format!("discord:channel:{THREAD}"));
            row.deadline_at = Some(NOW - 1);
            let game = rows::insert_game(c, &row)?;
            rows::note_channel_guild(c, CHANNEL, GUILD, NOW)?;
            rows::note_channel_guild(c, CHANNEL, GUILD + 1, NOW)?;
            rows::note_thread_guild(c, THREAD, CHANNEL, NOW)?;
            rows::note_guild_player(c, GUILD, ann.id, NOW)?;
            Ok::<_, StoreError>(game)
        })
        .await
        .unwrap();
    let (channels, first, again) = store
        .write(|c| {
            Ok::<_, StoreError>((
                rows::channels_of_guild(c, GUILD)?,
                rows::insert_guild_removal(c, GUILD, NOW)?,
                rows::insert_guild_removal(c, GUILD, NOW + 5)?,
            ))
        })
        .await
        .unwrap();
    assert_eq!(
        channels,
        vec![CHANNEL, THREAD],
        "a channel keeps its first server"
    );
    assert!(first && !again, "a removal is recorded once");
    let (in_removed, elsewhere) = store
        .read(|c| {
            Ok::<_, StoreError>((
                rows::channel_in_removed_guild(c, THREAD)?,
                rows::channel_in_removed_guild(c, THREAD + 1)?,
            ))
        })
        .await
        .unwrap();
    assert!(in_removed && !elsewhere);

    let (late_before, late_paused, paused_at) = store
        .write(move |c| {
            let late_before = rows::games_past_deadline(c, NOW)?;
            rows::set_game_paused(c, game, Some(NOW))?;
            Ok::<_, StoreError>((
                late_before,
                rows::games_past_deadline(c, NOW)?,
                rows::game(c, game)?.and_then(|g| g.paused_at),
            ))
        })
        .await
        .unwrap();
    assert_eq!(late_before, vec![game]);
    assert!(
        late_paused.is_empty(),
        "a paused game never runs out of time"
    );
    assert_eq!(paused_at, Some(NOW));

    let (due, left, deleted, again) = store
        .write(|c| {
            let due = rows::guild_removals_before(c, NOW + 10)?;
            rows::delete_guild_rows(c, GUILD, &rows::channels_of_guild(c, GUILD)?)?;
            Ok::<_, StoreError>((
                due,
                rows::guild_row_count(c, GUILD)?,
                rows::delete_guild_removal(c, GUILD)?,
                rows::delete_guild_removal(c, GUILD)?,
            ))
        })
        .await
        .unwrap();
    assert_eq!(due, vec![GUILD]);
    assert_eq!(left, 0, "the server's rows are gone");
    assert!(deleted && !again, "a removal is acted on once");
}

/// Erasing a player keeps their games and renames them.
async fn an_erased_player_keeps_their_games_under_another_name(store: Store) {
    let (player, game) = store
        .write(|c| {
            let ann = rows::insert_player(c, "Ann", &handle("ann"), Some(11), NOW)?;
            let bob = rows::insert_player(c, "Bob", &handle("bob"), Some(12), NOW)?;
            rows::insert_token(c, ann.id, &[1, 2, 3], "mine", NOW)?;
            let game = rows::insert_game(c, &rows::GameRow::sample(ann.id, bob.id, NOW))?;
            rows::erase_player(c, ann.id, "Deleted player", &handle("deleted-1"), Some(11))?;
            Ok::<_, StoreError>((ann.id, game))
        })
        .await
        .unwrap();
    let (row, counts, game) = store
        .read(move |c| {
            Ok::<_, StoreError>((
                rows::player(c, player)?,
                rows::personal_data_counts(c, player)?,
                rows::game(c, game)?,
            ))
        })
        .await
        .unwrap();
    let row = row.unwrap();
    assert_eq!(row.name, "Deleted player");
    assert_eq!(row.discord_user_id, None);
    assert_eq!(counts.api_tokens, 0);
    assert_eq!(counts.active_games, 1);
    assert_eq!(
        game.map(|g| g.attackers),
        Some(crate::domain::Seat::Player(player))
    );
}

fn sqlite() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("t.db"), 2, Duration::from_secs(5), 64).unwrap();
    (dir, store)
}

fn postgres() -> Store {
    Store::open_postgres(&database_url(), 2, 64).unwrap()
}

#[tokio::test]
async fn a_servers_rows_on_sqlite() {
    let (_dir, store) = sqlite();
    a_servers_rows_are_found_paused_and_deleted(store).await;
}

#[tokio::test]
async fn a_servers_rows_on_postgres() {
    a_servers_rows_are_found_paused_and_deleted(postgres()).await;
}

#[tokio::test]
async fn an_erased_player_on_sqlite() {
    let (_dir, store) = sqlite();
    an_erased_player_keeps_their_games_under_another_name(store).await;
}

#[tokio::test]
async fn an_erased_player_on_postgres() {
    an_erased_player_keeps_their_games_under_another_name(postgres()).await;
}
