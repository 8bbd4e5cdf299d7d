//! Clock settings of a game and the deadlines they give.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa::openapi::schema::{KnownFormat, Object, ObjectBuilder, SchemaFormat, Type};

use crate::store::rows::ClockRow;

use crate::service::ServiceError;

/// How much time players have: `unlimited`, `per_move` (`seconds` for each move) or `bank`
/// (a bank of `bank_seconds` per side, spent while it is their turn, topped up by
/// `increment_seconds` after each move).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClockSpec {
    /// No deadline. (A struct variant: serde lets an internally tagged unit variant through
    /// with any other fields, where `deny_unknown_fields` should refuse them.)
    Unlimited {},
    /// Each move must be made within `seconds` of the previous one.
    PerMove {
        #[schema(schema_with = clock_period)]
        seconds: u64,
    },
    /// Each side has a bank of time, spent while it is their turn, topped up after each move.
    Bank {
        #[schema(schema_with = clock_period)]
        bank_seconds: u64,
        #[schema(schema_with = clock_increment)]
        increment_seconds: u64,
    },
}

/// A move's time or a bank, as [`ClockSpec::validate`] takes it: 1 to [`MAX_SECONDS`].
fn clock_period() -> Object {
    seconds_from(1)
}

/// An increment, as [`ClockSpec::validate`] takes it: 0 to [`MAX_SECONDS`].
fn clock_increment() -> Object {
    seconds_from(0)
}

fn seconds_from(least: u64) -> Object {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
        .minimum(Some(least))
        .maximum(Some(MAX_SECONDS))
        .description(Some("seconds"))
        .build()
}

impl Default for ClockSpec {
    fn default() -> Self {
        ClockSpec::Unlimited {}
    }
}

/// A clock in words, the same on every front end: "no clock", "30 minutes per move",
/// "7 days bank + 12 hours per move".
impl std::fmt::Display for ClockSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            ClockSpec::Unlimited {} => f.write_str("no clock"),
            ClockSpec::PerMove { seconds } => write!(f, "{} per move", Span(seconds)),
            ClockSpec::Bank {
                bank_seconds,
                increment_seconds: 0,
            } => write!(f, "{} bank", Span(bank_seconds)),
            ClockSpec::Bank {
                bank_seconds,
                increment_seconds,
            } => write!(
                f,
                "{} bank + {} per move",
                Span(bank_seconds),
                Span(increment_seconds)
            ),
        }
    }
}

/// A number of seconds in the largest unit that counts it exactly ("90 minutes", "1 day"),
/// so a clock is never shown shorter or longer than it is.
struct Span(u64);

impl std::fmt::Display for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (n, unit) = [(86_400, "day"), (3_600, "hour"), (60, "minute")]
            .into_iter()
            .find(|(size, _)| self.0.is_multiple_of(*size))
            .map_or((self.0, "second"), |(size, unit)| (self.0 / size, unit));
        let plural = if n == 1 { "" } else { "s" };
        write!(f, "{n} {unit}{plural}")
    }
}

/// Longest clock accepted (a year), so deadlines never overflow.
const MAX_SECONDS: u64 = 366 * 24 * 3600;

impl ClockSpec {
    pub fn days_per_move(days: u32) -> ClockSpec {
        ClockSpec::PerMove {
            seconds: u64::from(days) * 24 * 3600,
        }
    }

    /// Whether a vacation stops this clock: correspondence clocks, a day or more per move or a
    /// bank of a day or more. Shorter clocks are played in one sitting, and run on.
    pub fn stops_for_vacation(self) -> bool {
        const DAY: u64 = 86_400;
        match self {
            ClockSpec::Unlimited {} => false,
            ClockSpec::PerMove { seconds } => seconds >= DAY,
            ClockSpec::Bank { bank_seconds, .. } => bank_seconds >= DAY,
        }
    }

    pub fn validate(self) -> Result<ClockSpec, ServiceError> {
        match self {
            ClockSpec::Unlimited {} => Ok(self),
            ClockSpec::PerMove { seconds } if seconds == 0 || seconds > MAX_SECONDS => {
                Err(ServiceError::Invalid(format!(
                    "clock: seconds per move must be between 1 and {MAX_SECONDS}"
                )))
            }
            ClockSpec::Bank {
                bank_seconds,
                increment_seconds,
            } if bank_seconds == 0
                || bank_seconds > MAX_SECONDS
                || increment_seconds > MAX_SECONDS =>
            {
                Err(ServiceError::Invalid(format!(
                    "clock: the bank must be between 1 and {MAX_SECONDS} seconds and the increment at most {MAX_SECONDS}"
                )))
            }
            _ => Ok(self),
        }
    }

    /// Refuses a clock that gives a move less than `min_seconds` (the server's minimum), in
    /// words, whatever its kind: a per-move time shorter than it; a bank smaller than it (the
    /// first move has only the bank); an increment that is neither 0 (a fixed bank for the
    /// whole game) nor at least it (else, the bank spent, each move would have only the
    /// increment: a fast clock's).
    pub fn at_least(self, min_seconds: u64) -> Result<ClockSpec, ServiceError> {
        let too_short = |what: String, or: &str| {
            Err(ServiceError::Invalid(format!(
                "clock: {what} is too short for correspondence play; this server's shortest is \
                 {} per move{or}",
                Span(min_seconds)
            )))
        };
        match self {
            ClockSpec::PerMove { seconds } if seconds < min_seconds => {
                too_short(format!("{} per move", Span(seconds)), "")
            }
            ClockSpec::Bank { bank_seconds, .. } if bank_seconds < min_seconds => {
                too_short(format!("a bank of {}", Span(bank_seconds)), "")
            }
            ClockSpec::Bank {
                increment_seconds, ..
            } if increment_seconds > 0 && increment_seconds < min_seconds => too_short(
                format!("an increment of {}", Span(increment_seconds)),
                " (or an increment of 0: one bank for the whole game)",
            ),
            _ => Ok(self),
        }
    }

    pub(crate) fn to_row(self) -> ClockRow {
        match self {
            ClockSpec::Unlimited {} => ClockRow {
                kind: "unlimited".into(),
                per_move_ms: None,
                bank_ms: None,
                increment_ms: None,
            },
            ClockSpec::PerMove { seconds } => ClockRow {
                kind: "per_move".into(),
                per_move_ms: Some(ms(seconds)),
                bank_ms: None,
                increment_ms: None,
            },
            ClockSpec::Bank {
                bank_seconds,
                increment_seconds,
            } => ClockRow {
                kind: "bank".into(),
                per_move_ms: None,
                bank_ms: Some(ms(bank_seconds)),
                increment_ms: Some(ms(increment_seconds)),
            },
        }
    }

    pub(crate) fn from_row(row: &ClockRow) -> ClockSpec {
        match row.kind.as_str() {
            "per_move" => ClockSpec::PerMove {
                seconds: secs(row.per_move_ms),
            },
            "bank" => ClockSpec::Bank {
                bank_seconds: secs(row.bank_ms),
                increment_seconds: secs(row.increment_ms),
            },
            _ => ClockSpec::Unlimited {},
        }
    }

    /// The bank each side starts with (bank clocks only).
    pub(crate) fn initial_bank_ms(self) -> Option<i64> {
        match self {
            ClockSpec::Bank { bank_seconds, .. } => Some(ms(bank_seconds)),
            _ => None,
        }
    }

    /// The mover's bank after a move made `spent_ms` into their turn: what is left plus the
    /// increment, which never raises it above `max_bank_ratio` times the initial bank (the
    /// cap takes away no time already held, should the ratio be lowered mid-game).
    pub(crate) fn bank_after_move(
        self,
        bank_ms: Option<i64>,
        spent_ms: i64,
        max_bank_ratio: f64,
    ) -> Option<i64> {
        match self {
            ClockSpec::Bank {
                bank_seconds,
                increment_seconds,
            } => bank_ms.map(|b| {
                let left = (b - spent_ms.max(0)).max(0);
                // Float to integer `as` saturates; the ratio is checked finite and >= 1.
                let cap = (ms(bank_seconds) as f64 * max_bank_ratio) as i64;
                (left + ms(increment_seconds)).min(cap.max(left))
            }),
            _ => bank_ms,
        }
    }

    /// When a turn that started at `turn_started` runs out, given the mover's bank.
    pub(crate) fn deadline(self, turn_started: i64, mover_bank_ms: Option<i64>) -> Option<i64> {
        match self {
            ClockSpec::Unlimited {} => None,
            ClockSpec::PerMove { seconds } => Some(turn_started.saturating_add(ms(seconds))),
            ClockSpec::Bank { .. } => mover_bank_ms.map(|b| turn_started.saturating_add(b)),
        }
    }
}

fn ms(seconds: u64) -> i64 {
    i64::try_from(seconds.min(MAX_SECONDS)).unwrap_or(0) * 1000
}

fn secs(ms: Option<i64>) -> u64 {
    u64::try_from(ms.unwrap_or(0) / 1000).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn per_move(seconds: u64) -> String {
        ClockSpec::PerMove { seconds }.to_string()
    }

    /// Discord once showed 30 minutes as "0h per move" and 90 minutes as "1h".
    #[test]
    fn a_clock_reads_in_the_largest_unit_that_counts_it_exactly() {
        assert_eq!(ClockSpec::Unlimited {}.to_string(), "no clock");
        assert_eq!(per_move(30 * 60), "30 minutes per move");
        assert_eq!(per_move(90 * 60), "90 minutes per move");
        assert_eq!(per_move(3_600), "1 hour per move");
        assert_eq!(per_move(12 * 3_600), "12 hours per move");
        assert_eq!(ClockSpec::days_per_move(1).to_string(), "1 day per move");
        assert_eq!(ClockSpec::days_per_move(3).to_string(), "3 days per move");
        assert_eq!(per_move(90), "90 seconds per move");
        let bank = ClockSpec::Bank {
            bank_seconds: 7 * 86_400,
            increment_seconds: 12 * 3_600,
        };
        assert_eq!(bank.to_string(), "7 days bank + 12 hours per move");
        let no_increment = ClockSpec::Bank {
            bank_seconds: 2 * 3_600,
            increment_seconds: 0,
        };
        assert_eq!(no_increment.to_string(), "2 hours bank");
    }

    #[test]
    fn rows_round_trip() {
        for spec in [
            ClockSpec::Unlimited {},
            ClockSpec::days_per_move(3),
            ClockSpec::Bank {
                bank_seconds: 3600,
                increment_seconds: 60,
            },
        ] {
            assert_eq!(ClockSpec::from_row(&spec.to_row()), spec);
        }
    }

    #[test]
    fn bank_is_spent_then_topped_up() {
        let spec = ClockSpec::Bank {
            bank_seconds: 100,
            increment_seconds: 10,
        };
        let bank = spec.initial_bank_ms();
        assert_eq!(bank, Some(100_000));
        assert_eq!(spec.bank_after_move(bank, 30_000, 3.0), Some(80_000));
        assert_eq!(spec.deadline(5, Some(80_000)), Some(80_005));
        assert_eq!(
            ClockSpec::days_per_move(1).deadline(0, None),
            Some(86_400_000)
        );
        assert_eq!(ClockSpec::Unlimited {}.deadline(0, None), None);
    }

    #[test]
    fn the_increment_stops_at_the_cap_but_takes_nothing_away() {
        let spec = ClockSpec::Bank {
            bank_seconds: 100,
            increment_seconds: 60,
        };
        assert_eq!(spec.bank_after_move(Some(280_000), 0, 3.0), Some(300_000));
        assert_eq!(spec.bank_after_move(Some(300_000), 0, 3.0), Some(300_000));
        assert_eq!(spec.bank_after_move(Some(300_000), 0, 1.5), Some(300_000));
        assert_eq!(
            spec.bank_after_move(Some(100_000), 50_000, 1.0),
            Some(100_000)
        );
    }

    #[test]
    fn json_form_is_tagged_and_checked() {
        let spec: ClockSpec =
            serde_json::from_str(r#"{"kind":"per_move","seconds":86400}"#).unwrap();
        assert_eq!(spec, ClockSpec::days_per_move(1));
        assert!(ClockSpec::PerMove { seconds: 0 }.validate().is_err());
        let short = ClockSpec::PerMove { seconds: 5 }
            .at_least(3_600)
            .unwrap_err();
        assert!(
            short
                .to_string()
                .contains("5 seconds per move is too short for correspondence play; this server's shortest is 1 hour per move"),
            "{short}"
        );
        assert!(
            ClockSpec::PerMove { seconds: 3_600 }
                .at_least(3_600)
                .is_ok()
        );
        assert!(ClockSpec::Unlimited {}.at_least(3_600).is_ok());
        assert!(serde_json::from_str::<ClockSpec>(r#"{"kind":"sometimes"}"#).is_err());
    }

    #[test]
    fn every_clock_kind_gives_a_move_at_least_the_minimum() {
        let bank = |bank_seconds, increment_seconds| {
            ClockSpec::Bank {
                bank_seconds,
                increment_seconds,
            }
            .at_least(3_600)
        };
        let small_bank = bank(600, 3_600).unwrap_err().to_string();
        assert!(
            small_bank.contains("a bank of 10 minutes is too short"),
            "{small_bank}"
        );
        let small_increment = bank(7 * 86_400, 30).unwrap_err().to_string();
        assert!(
            small_increment.contains("an increment of 30 seconds is too short"),
            "{small_increment}"
        );
        assert!(bank(7 * 86_400, 86_400).is_ok());
        assert!(bank(7 * 86_400, 0).is_ok(), "a fixed bank for the game");
        assert!(bank(3_600, 3_600).is_ok());
    }
}
