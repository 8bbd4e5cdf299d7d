use std::collections::HashSet;

use rusqlite::Transaction;
use rusqlite_migration::{HookResult, M, Migrations};

use crate::domain::Handle;

/// The schema files, in order. A newer binary applies the missing ones to an older file.
const FILES: &[&str] = &[
    include_str!("../../../migrations/0001_initial.sql"),
    include_str!("../../../migrations/0002_discord_outbox.sql"),
    include_str!("../../../migrations/0003_api_token_last_used.sql"),
    include_str!("../../../migrations/0004_player_handles.sql"),
    include_str!("../../../migrations/0005_ratings.sql"),
    include_str!("../../../migrations/0006_private_games.sql"),
    include_str!("../../../migrations/0007_discord_communities.sql"),
    include_str!("../../../migrations/0008_board_preferences_and_challenge_posts.sql"),
    include_str!("../../../migrations/0009_web_sessions.sql"),
    include_str!("../../../migrations/0010_analyses.sql"),
    include_str!("../../../migrations/0011_ai_turn_claims.sql"),
    include_str!("../../../migrations/0012_game_versions.sql"),
    include_str!("../../../migrations/0013_one_move_path.sql"),
];

/// Schema version of a fully migrated database (SQLite `user_version`).
pub const SCHEMA_VERSION: usize = FILES.len();

/// The file that adds handles: its hook gives the players already stored theirs.
const HANDLES: usize = 3;

pub fn migrations() -> Migrations<'static> {
    Migrations::new(
        FILES
            .iter()
            .enumerate()
            .map(|(i, sql)| match i {
                HANDLES => M::up_with_hook(sql, give_stored_players_handles),
                _ => M::up(sql),
            })
            .collect(),
    )
}

/// Each stored player gets a handle made from their name, in id order, the first free of
/// `name`, `name2`, `name3`... (the same rule as a new registration), so the oldest keeps the
/// plain one.
fn give_stored_players_handles(tx: &Transaction) -> HookResult {
    let players: Vec<(i64, String)> = tx
        .prepare("SELECT id, name FROM players WHERE handle IS NULL ORDER BY id")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut taken: HashSet<String> = tx
        .prepare("SELECT handle FROM players WHERE handle IS NOT NULL")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for (id, name) in players {
        let base = Handle::base_from(&name);
        let handle = (1..)
            .filter_map(|n: u32| Handle::with_suffix(&base, n))
            .find(|h| !taken.contains(h.as_str()))
            .ok_or_else(|| {
                rusqlite_migration::HookError::Hook(format!("no free handle for player {id}"))
            })?;
        tx.execute(
            "UPDATE players SET handle = ?2 WHERE id = ?1",
            rusqlite::params![id, handle.as_str()],
        )?;
        taken.insert(handle.to_string());
    }
    Ok(())
}
