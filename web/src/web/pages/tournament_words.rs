//! A tournament's format and state in words, for the list and the tournament's page.

use crate::domain::TournamentStatus;
use crate::service::tournaments::{FormatKind, PairingResult};

pub fn format_words(format: FormatKind) -> &'static str {
    match format {
        FormatKind::RoundRobin => "Round robin",
        FormatKind::DoubleRoundRobin => "Double round robin",
        FormatKind::Swiss => "Swiss",
        FormatKind::GroupsKnockout => "Groups then knockout",
    }
}

pub fn status_words(status: TournamentStatus, round: u32) -> String {
    match status {
        TournamentStatus::SignUp => "Open for sign-up".into(),
        TournamentStatus::Running => format!("Running: round {round}"),
        TournamentStatus::Finished => "Finished".into(),
        TournamentStatus::Cancelled => "Cancelled".into(),
    }
}

/// A pairing's result as a score, the attackers' first ("1–0"); `None` while it is played.
pub fn score_words(result: Option<PairingResult>) -> &'static str {
    match result {
        None => "playing",
        Some(PairingResult::AttackersWon) => "1–0",
        Some(PairingResult::DefendersWon) => "0–1",
        Some(PairingResult::Draw) => "½–½",
        Some(PairingResult::NotPlayed) => "not played",
    }
}
