//! The HTTP API end to end: the real app on port 0, a temporary database file, reqwest.
// Test helpers outside #[test] functions may unwrap too: a failure is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// These tests run on an SQLite file; `http_postgres` runs most of them again on PostgreSQL.
const POSTGRES: bool = false;

use taflbot_test_support::pg_server;

mod ai_ratings;
mod analysis;
mod analysis_board;
mod auth;
mod bank_clock_minimum;
mod boards;
mod challenge_checks;
mod clocks;
mod common;
mod conditional_moves;
mod connections;
mod consistency;
mod contract;
mod engine_limits;
mod error_text;
mod events;
mod explorer;
mod explorer_balance;
mod games;
mod history;
mod leaderboards;
mod mail_notices;
mod messages;
mod nul_text;
mod openapi;
mod operations;
mod places;
mod players;
mod private_actions;
mod public_games;
mod public_games_stream;
mod public_privacy;
mod puzzles;
mod ratings;
mod scheduler;
mod session_list;
mod shrinking_increment;
mod sign_in_form_token;
mod slow_bodies;
mod starts;
mod storage;
mod stream_limits;
mod stuck_database;
mod study_import;
mod team_match_sign_up;
mod team_matches;
mod titles;
mod tokens;
mod tournament_entries;
mod tournament_withdrawal;
mod tournaments;
mod vacation;
mod web_analysis;
mod web_conditional;
mod web_crowd;
mod web_finding;
mod web_sessions;
mod web_sign_up;
mod web_tournaments;
mod web_vacation;
mod webhook_crowd;
mod webhook_give_up;
mod webhook_targets;
