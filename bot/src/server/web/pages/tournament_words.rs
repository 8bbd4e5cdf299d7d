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

/// Points as a crosstable prints them: `2½`, `½`, `0`.
pub fn points_words(points: f64) -> String {
    let halves = (points * 2.0).round() as i64;
    match (halves / 2, halves % 2) {
        (0, 1) => "½".into(),
        (whole, 1) => format!("{whole}½"),
        (whole, _) => whole.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_print_in_halves() {
        assert_eq!(points_words(0.0), "0");
        assert_eq!(points_words(0.5), "½");
        assert_eq!(points_words(2.5), "2½");
        assert_eq!(points_words(3.0), "3");
    }
}
