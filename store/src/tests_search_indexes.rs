//! The web's list of public games and its player search read indexes (migration 21), not
//! every row: SQLite's plan for the very statements `rows` runs says so.

use std::time::Duration;

use super::rows::{PUBLIC_GAMES_ORDER, name_prefix_filter};
use super::*;

/// SQLite's query plan of `sql`, one step a line.
async fn plan(store: &Store, sql: String) -> String {
    store
        .read(move |c| {
            c.query_all(
                &format!("EXPLAIN QUERY PLAN {sql}"),
                params!["active", 30],
                |r| r.get::<String>(3),
            )
        })
        .await
        .map(|steps| steps.join("\n"))
        .unwrap()
}

#[tokio::test]
async fn public_games_and_the_name_search_use_their_indexes() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("t.db"), 2, Duration::from_secs(5), 64).unwrap();
    let games = plan(&store, format!("SELECT id FROM games {PUBLIC_GAMES_ORDER}")).await;
    assert!(games.contains("games_public_recent"), "{games}");
    assert!(!games.contains("TEMP B-TREE"), "sorted apart: {games}");
    let players = plan(
        &store,
        format!(
            "SELECT id FROM players {}",
            name_prefix_filter(Dialect::Sqlite)
        ),
    )
    .await;
    assert!(players.contains("players_lower_name"), "{players}");
}
