//! What a tournament allows of vacation in its games.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A tournament's vacation rule: `"allowed"` (the default), `"forbidden"` (its games' clocks
/// run whatever the player's vacation), or `{"max_days": N}` (a player's clocks stand still
/// in its games for at most N days in all).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentVacation {
    #[default]
    Allowed,
    Forbidden,
    MaxDays(u32),
}

/// The most days a tournament's cap may give (a year).
pub const MAX_CAP_DAYS: u32 = 366;

impl TournamentVacation {
    /// The cap as stored: `None` allowed, `Some(0)` forbidden, `Some(n)` at most n days.
    pub(crate) fn to_cap(self) -> Option<u32> {
        match self {
            TournamentVacation::Allowed => None,
            TournamentVacation::Forbidden => Some(0),
            TournamentVacation::MaxDays(days) => Some(days),
        }
    }

    pub(crate) fn from_cap(cap: Option<u32>) -> TournamentVacation {
        match cap {
            None => TournamentVacation::Allowed,
            Some(0) => TournamentVacation::Forbidden,
            Some(days) => TournamentVacation::MaxDays(days),
        }
    }

    /// Reads the rule as a person writes it (Discord's `vacation` option): `allowed`,
    /// `forbidden` (or `none`, `no`, `0`), or a cap in days (`5`, `5d`, `5 days`); checked.
    pub fn parse_text(text: &str) -> Result<TournamentVacation, crate::ServiceError> {
        let text = text.trim().to_ascii_lowercase();
        let rule = match text.as_str() {
            "allowed" | "allow" | "yes" => TournamentVacation::Allowed,
            "forbidden" | "forbid" | "none" | "no" => TournamentVacation::Forbidden,
            _ => {
                let days = text
                    .trim_end_matches("days")
                    .trim_end_matches("day")
                    .trim_end_matches('d')
                    .trim();
                match days.parse::<u32>() {
                    Ok(0) => TournamentVacation::Forbidden,
                    Ok(days) if days > MAX_CAP_DAYS => {
                        return Err(crate::ServiceError::Invalid(format!(
                            "vacation: a cap is at most {MAX_CAP_DAYS} days (a year), not {days}"
                        )));
                    }
                    Ok(days) => TournamentVacation::MaxDays(days),
                    Err(_) => {
                        return Err(crate::ServiceError::Invalid(format!(
                            "vacation: say allowed, forbidden, or the most days a player may \
                             take in its games (such as 5), not {text:?}"
                        )));
                    }
                }
            }
        };
        rule.validate()
    }

    pub fn validate(self) -> Result<TournamentVacation, crate::ServiceError> {
        match self {
            TournamentVacation::MaxDays(days) if days == 0 || days > MAX_CAP_DAYS => {
                Err(crate::ServiceError::Invalid(format!(
                    "vacation: max_days must be between 1 and {MAX_CAP_DAYS} (or say \"forbidden\")"
                )))
            }
            _ => Ok(self),
        }
    }
}

/// In words, the same on every front end.
impl std::fmt::Display for TournamentVacation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TournamentVacation::Allowed => f.write_str("vacation allowed"),
            TournamentVacation::Forbidden => f.write_str("no vacation"),
            TournamentVacation::MaxDays(1) => f.write_str("vacation up to 1 day per player"),
            TournamentVacation::MaxDays(days) => {
                write!(f, "vacation up to {days} days per player")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_reads_as_a_word_or_a_cap_and_round_trips_through_its_column() {
        for (json, rule) in [
            (r#""allowed""#, TournamentVacation::Allowed),
            (r#""forbidden""#, TournamentVacation::Forbidden),
            (r#"{"max_days":5}"#, TournamentVacation::MaxDays(5)),
        ] {
            assert_eq!(
                serde_json::from_str::<TournamentVacation>(json).unwrap(),
                rule
            );
            assert_eq!(serde_json::to_string(&rule).unwrap(), json);
            assert_eq!(TournamentVacation::from_cap(rule.to_cap()), rule);
        }
        assert!(TournamentVacation::MaxDays(0).validate().is_err());
        for (text, rule) in [
            ("allowed", TournamentVacation::Allowed),
            (" Forbidden ", TournamentVacation::Forbidden),
            ("0", TournamentVacation::Forbidden),
            ("5", TournamentVacation::MaxDays(5)),
            ("7 days", TournamentVacation::MaxDays(7)),
            ("1d", TournamentVacation::MaxDays(1)),
        ] {
            assert_eq!(
                TournamentVacation::parse_text(text).unwrap(),
                rule,
                "{text}"
            );
        }
        for bad in ["sometimes", "400", "-1", ""] {
            assert!(TournamentVacation::parse_text(bad).is_err(), "{bad}");
        }
        assert_eq!(
            TournamentVacation::MaxDays(3).to_string(),
            "vacation up to 3 days per player"
        );
    }
}
