//! The schema's migrations: one ordered list, each version with its SQLite text
//! (`migrations/NNNN_name.sql`) and its PostgreSQL text (`migrations/postgres/NNNN_name.sql`),
//! applied by one runner (`runner.rs`) that records each in one version table,
//! `schema_migrations`, of the same shape on both backends.
//!
//! PostgreSQL came at version 10: a new PostgreSQL database gets versions 1 to 10 from one
//! text, the whole schema of version 10 (`migrations/postgres/0010_schema.sql`), so versions
//! 1 to 9 have no PostgreSQL text of their own ([`Postgres::InBaseline`]).
//!
//! Adding a migration: write its two files, add one entry at the end of [`MIGRATIONS`]. The
//! test that both backends migrate to the same tables, columns and types
//! (`migrations/tests_postgres.rs`) says when the two texts disagree.

mod explorer;
mod handles;
mod legacy;
mod migration_lock;
mod runner;

pub(super) use runner::migrate;

use super::{Conn, StoreError};

/// One version of the schema.
pub(super) struct Migration {
    pub(super) version: i64,
    /// Recorded beside the version: the files' name without number and extension.
    pub(super) name: &'static str,
    pub(super) sqlite: &'static str,
    pub(super) postgres: Postgres,
    /// Run after the SQL, in its transaction: what the SQL alone cannot do.
    pub(super) then: Option<Hook>,
}

/// Rust a migration runs after its SQL (filling a new column from stored data, say).
pub(super) type Hook = fn(&Conn<'_>) -> Result<(), StoreError>;

/// What a migration does on PostgreSQL.
pub(super) enum Postgres {
    /// Nothing of its own: the baseline (the next [`Postgres::Baseline`]) holds it.
    InBaseline,
    /// The whole schema as of this version: a new PostgreSQL database starts with it, in one
    /// transaction with the versions before it.
    Baseline(&'static str),
    Sql(&'static str),
    /// Nothing to change: PostgreSQL's schema was already so (the migration brings SQLite's
    /// to it).
    Unchanged,
}

/// Every migration, in order: versions 1, 2, 3...
pub(super) const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "initial",
        sqlite: include_str!("../../../migrations/0001_initial.sql"),
        postgres: Postgres::InBaseline,
        then: None,
    },
    Migration {
        version: 2,
        name: "discord_outbox",
        sqlite: include_str!("../../../migrations/0002_discord_outbox.sql"),
        postgres: Postgres::InBaseline,
        then: None,
    },
    Migration {
        version: 3,
        name: "api_token_last_used",
        sqlite: include_str!("../../../migrations/0003_api_token_last_used.sql"),
        postgres: Postgres::InBaseline,
        then: None,
    },
    Migration {
        version: 4,
        name: "player_handles",
        sqlite: include_str!("../../../migrations/0004_player_handles.sql"),
        postgres: Postgres::InBaseline,
        then: Some(handles::give_stored_players_handles),
    },
    Migration {
        version: 5,
        name: "ratings",
        sqlite: include_str!("../../../migrations/0005_ratings.sql"),
        postgres: Postgres::InBaseline,
        then: None,
    },
    Migration {
        version: 6,
        name: "private_games",
        sqlite: include_str!("../../../migrations/0006_private_games.sql"),
        postgres: Postgres::InBaseline,
        then: None,
    },
    Migration {
        version: 7,
        name: "discord_communities",
        sqlite: include_str!("../../../migrations/0007_discord_communities.sql"),
        postgres: Postgres::InBaseline,
        then: None,
    },
    Migration {
        version: 8,
        name: "board_preferences_and_challenge_posts",
        sqlite: include_str!("../../../migrations/0008_board_preferences_and_challenge_posts.sql"),
        postgres: Postgres::InBaseline,
        then: None,
    },
    Migration {
        version: 9,
        name: "web_sessions",
        sqlite: include_str!("../../../migrations/0009_web_sessions.sql"),
        postgres: Postgres::InBaseline,
        then: None,
    },
    Migration {
        version: 10,
        name: "analyses",
        sqlite: include_str!("../../../migrations/0010_analyses.sql"),
        postgres: Postgres::Baseline(include_str!("../../../migrations/postgres/0010_schema.sql")),
        then: None,
    },
    Migration {
        version: 11,
        name: "ai_turn_claims",
        sqlite: include_str!("../../../migrations/0011_ai_turn_claims.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0011_ai_turn_claims.sql"
        )),
        then: None,
    },
    Migration {
        version: 12,
        name: "game_versions",
        sqlite: include_str!("../../../migrations/0012_game_versions.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0012_game_versions.sql"
        )),
        then: None,
    },
    Migration {
        version: 13,
        name: "one_move_path",
        sqlite: include_str!("../../../migrations/0013_one_move_path.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0013_one_move_path.sql"
        )),
        then: None,
    },
    Migration {
        version: 14,
        name: "boolean_flags",
        sqlite: include_str!("../../../migrations/0014_boolean_flags.sql"),
        postgres: Postgres::Unchanged,
        then: None,
    },
    Migration {
        version: 15,
        name: "dms_closed_note",
        sqlite: include_str!("../../../migrations/0015_dms_closed_note.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0015_dms_closed_note.sql"
        )),
        then: None,
    },
    Migration {
        version: 16,
        name: "sessions_of_tokens",
        sqlite: include_str!("../../../migrations/0016_sessions_of_tokens.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0016_sessions_of_tokens.sql"
        )),
        then: None,
    },
    Migration {
        version: 17,
        name: "sessions_limits_and_gone_webhooks",
        sqlite: include_str!("../../../migrations/0017_sessions_limits_and_gone_webhooks.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0017_sessions_limits_and_gone_webhooks.sql"
        )),
        then: None,
    },
    Migration {
        version: 18,
        name: "discord_server_lifecycle",
        sqlite: include_str!("../../../migrations/0018_discord_server_lifecycle.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0018_discord_server_lifecycle.sql"
        )),
        then: None,
    },
    Migration {
        version: 19,
        name: "tournaments",
        sqlite: include_str!("../../../migrations/0019_tournaments.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0019_tournaments.sql"
        )),
        then: None,
    },
    Migration {
        version: 20,
        name: "conditional_moves",
        sqlite: include_str!("../../../migrations/0020_conditional_moves.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0020_conditional_moves.sql"
        )),
        then: None,
    },
    Migration {
        version: 21,
        name: "discord_identify_turns",
        sqlite: include_str!("../../../migrations/0021_discord_identify_turns.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0021_discord_identify_turns.sql"
        )),
        then: None,
    },
    Migration {
        version: 22,
        name: "mail_notices",
        sqlite: include_str!("../../../migrations/0022_mail_notices.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0022_mail_notices.sql"
        )),
        then: None,
    },
    Migration {
        version: 23,
        name: "tournament_discord_places",
        sqlite: include_str!("../../../migrations/0023_tournament_discord_places.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0023_tournament_discord_places.sql"
        )),
        then: None,
    },
    Migration {
        version: 24,
        name: "team_matches",
        sqlite: include_str!("../../../migrations/0024_team_matches.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0024_team_matches.sql"
        )),
        then: None,
    },
    Migration {
        version: 25,
        name: "imported_games",
        sqlite: include_str!("../../../migrations/0025_imported_games.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0025_imported_games.sql"
        )),
        then: None,
    },
    Migration {
        version: 26,
        name: "game_annotations",
        sqlite: include_str!("../../../migrations/0026_game_annotations.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0026_game_annotations.sql"
        )),
        then: None,
    },
    Migration {
        version: 27,
        name: "vacations",
        sqlite: include_str!("../../../migrations/0027_vacations.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0027_vacations.sql"
        )),
        then: None,
    },
    Migration {
        version: 28,
        name: "shrinking_increment",
        sqlite: include_str!("../../../migrations/0028_shrinking_increment.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0028_shrinking_increment.sql"
        )),
        then: None,
    },
    Migration {
        version: 29,
        name: "puzzles",
        sqlite: include_str!("../../../migrations/0029_puzzles.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0029_puzzles.sql"
        )),
        then: None,
    },
    Migration {
        version: 30,
        name: "daily_puzzles",
        sqlite: include_str!("../../../migrations/0030_daily_puzzles.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0030_daily_puzzles.sql"
        )),
        then: None,
    },
    Migration {
        version: 31,
        name: "opening_explorer",
        sqlite: include_str!("../../../migrations/0031_opening_explorer.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0031_opening_explorer.sql"
        )),
        then: Some(explorer::record_finished_games),
    },
    Migration {
        version: 32,
        name: "ai_players",
        sqlite: include_str!("../../../migrations/0032_ai_players.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0032_ai_players.sql"
        )),
        then: None,
    },
    Migration {
        version: 33,
        name: "round_schedule",
        sqlite: include_str!("../../../migrations/0033_round_schedule.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0033_round_schedule.sql"
        )),
        then: None,
    },
    Migration {
        version: 34,
        name: "explorer_evaluations",
        sqlite: include_str!("../../../migrations/0034_explorer_evaluations.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0034_explorer_evaluations.sql"
        )),
        then: None,
    },
    Migration {
        version: 35,
        name: "variant_balance",
        sqlite: include_str!("../../../migrations/0035_variant_balance.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0035_variant_balance.sql"
        )),
        then: Some(explorer::count_balance_of_finished_games),
    },
    Migration {
        version: 36,
        name: "withdrawal_rule",
        sqlite: include_str!("../../../migrations/0036_withdrawal_rule.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0036_withdrawal_rule.sql"
        )),
        then: None,
    },
    Migration {
        version: 37,
        name: "public_statistics",
        sqlite: include_str!("../../../migrations/0037_public_statistics.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0037_public_statistics.sql"
        )),
        then: Some(explorer::count_public_games_played_here),
    },
    Migration {
        version: 38,
        name: "analysis_address",
        sqlite: include_str!("../../../migrations/0038_analysis_address.sql"),
        postgres: Postgres::Sql(include_str!(
            "../../../migrations/postgres/0038_analysis_address.sql"
        )),
        then: None,
    },
];

/// Schema version of a fully migrated database.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

#[cfg(test)]
pub(super) use runner::run;

#[cfg(test)]
pub(super) mod tests;
#[cfg(test)]
mod tests_migration_lock;
#[cfg(test)]
mod tests_postgres;
