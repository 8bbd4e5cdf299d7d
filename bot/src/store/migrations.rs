use rusqlite_migration::{M, Migrations};

/// The schema files, in order. A newer binary applies the missing ones to an older file.
const FILES: &[&str] = &[
    include_str!("../../../migrations/0001_initial.sql"),
    include_str!("../../../migrations/0002_discord_outbox.sql"),
    include_str!("../../../migrations/0003_api_token_last_used.sql"),
];

/// Schema version of a fully migrated database (SQLite `user_version`).
pub const SCHEMA_VERSION: usize = FILES.len();

pub fn migrations() -> Migrations<'static> {
    Migrations::new(FILES.iter().map(|sql| M::up(sql)).collect())
}
