//! The HTTP suite again, on a PostgreSQL database (one per test, on a server the tests start:
//! `test-support/src/pg_server.rs`): the same answers, races, restarts and outboxes as on SQLite.
//! Left out: what only concerns an SQLite file (`storage`) and the OpenAPI document (no
//! database in it). The load run's tests are taflbot-bench's (`bench/tests/`).
// Test helpers outside #[test] functions may unwrap too: a failure is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

const POSTGRES: bool = true;

use taflbot_test_support::pg_server;

#[path = "../http/ai_ratings.rs"]
mod ai_ratings;
#[path = "../http/analysis.rs"]
mod analysis;
#[path = "../http/auth.rs"]
mod auth;
#[path = "../http/boards.rs"]
mod boards;
#[path = "../http/challenge_checks.rs"]
mod challenge_checks;
#[path = "../http/clocks.rs"]
mod clocks;
#[path = "../http/common.rs"]
mod common;
#[path = "../http/conditional_moves.rs"]
mod conditional_moves;
#[path = "../http/connections.rs"]
mod connections;
#[path = "../http/consistency.rs"]
mod consistency;
#[path = "../http/contract.rs"]
mod contract;
#[path = "../http/error_text.rs"]
mod error_text;
#[path = "../http/events.rs"]
mod events;
#[path = "../http/explorer.rs"]
mod explorer;
#[path = "../http/explorer_balance.rs"]
mod explorer_balance;
#[path = "../http/games.rs"]
mod games;
#[path = "../http/history.rs"]
mod history;
#[path = "../http/leaderboards.rs"]
mod leaderboards;
#[path = "../http/mail_notices.rs"]
mod mail_notices;
#[path = "../http/messages.rs"]
mod messages;
#[path = "../http/nul_text.rs"]
mod nul_text;
#[path = "../http/operations.rs"]
mod operations;
#[path = "../http/places.rs"]
mod places;
#[path = "../http/players.rs"]
mod players;
#[path = "../http/postgres_deadlines.rs"]
mod postgres_deadlines;
#[path = "../http/private_actions.rs"]
mod private_actions;
#[path = "../http/public_games.rs"]
mod public_games;
#[path = "../http/public_games_stream.rs"]
mod public_games_stream;
#[path = "../http/public_privacy.rs"]
mod public_privacy;
#[path = "../http/puzzles.rs"]
mod puzzles;
#[path = "../http/ratings.rs"]
mod ratings;
#[path = "../http/scheduler.rs"]
mod scheduler;
#[path = "../http/session_list.rs"]
mod session_list;
#[path = "../http/shrinking_increment.rs"]
mod shrinking_increment;
#[path = "../http/starts.rs"]
mod starts;
#[path = "../http/stream_limits.rs"]
mod stream_limits;
#[path = "../http/study_import.rs"]
mod study_import;
#[path = "../http/team_match_sign_up.rs"]
mod team_match_sign_up;
#[path = "../http/team_matches.rs"]
mod team_matches;
#[path = "../http/titles.rs"]
mod titles;
#[path = "../http/tokens.rs"]
mod tokens;
#[path = "../http/tournament_entries.rs"]
mod tournament_entries;
#[path = "../http/tournament_withdrawal.rs"]
mod tournament_withdrawal;
#[path = "../http/tournaments.rs"]
mod tournaments;
#[path = "../http/vacation.rs"]
mod vacation;
#[path = "../http/web_analysis.rs"]
mod web_analysis;
#[path = "../http/web_conditional.rs"]
mod web_conditional;
#[path = "../http/web_finding.rs"]
mod web_finding;
#[path = "../http/web_sessions.rs"]
mod web_sessions;
#[path = "../http/web_sign_up.rs"]
mod web_sign_up;
#[path = "../http/web_tournaments.rs"]
mod web_tournaments;
#[path = "../http/web_vacation.rs"]
mod web_vacation;
#[path = "../http/webhook_give_up.rs"]
mod webhook_give_up;
#[path = "../http/webhook_targets.rs"]
mod webhook_targets;
