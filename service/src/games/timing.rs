//! Clock settings of a game and the deadlines they give.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa::openapi::schema::{KnownFormat, Object, ObjectBuilder, SchemaFormat, Type};

use crate::store::rows::ClockRow;

use crate::ServiceError;

/// How much time players have: `unlimited`, `per_move` (`seconds` for each move) or `bank`
/// (a bank of `bank_seconds` per side, spent while it is their turn, topped up by
/// `increment_seconds` after each move; in long games, as the World Tafl Federation's
/// championships play, the increment may shrink by `shrink_percent` every
/// `shrink_after_moves` moves of a side, never below `minimum_increment_seconds`).
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
        /// Every this many moves of a side, its increment shrinks (1 or more; absent: it
        /// never does). Given with `shrink_percent` and `minimum_increment_seconds`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(minimum = 1)]
        shrink_after_moves: Option<u32>,
        /// How much the increment shrinks each time, in percent of itself (1 to 99).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(minimum = 1, maximum = 99)]
        shrink_percent: Option<u32>,
        /// The protected minimum the increment never shrinks below (seconds, at most the
        /// increment).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(minimum = 0, maximum = 31_622_400)]
        minimum_increment_seconds: Option<u64>,
    },
}

/// A bank clock's shrinking increment, once its three fields are checked present.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shrink {
    pub after_moves: u32,
    pub percent: u32,
    pub minimum_seconds: u64,
}

impl Shrink {
    /// The increment after a side's `nth` move (1-based): `increment` shrunk once per whole
    /// `after_moves` moves before it, each time by `percent` of itself rounded down to the
    /// second, and never below the minimum.
    pub fn increment_after(self, increment: u64, nth: u32) -> u64 {
        let times = nth.saturating_sub(1) / self.after_moves.max(1);
        let mut now = increment;
        for _ in 0..times {
            if now <= self.minimum_seconds {
                break;
            }
            now = now * u64::from(100 - self.percent.min(99)) / 100;
        }
        now.max(self.minimum_seconds.min(increment))
    }
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
                ..
            } => write!(f, "{} bank", Span(bank_seconds)),
            ClockSpec::Bank {
                bank_seconds,
                increment_seconds,
                ..
            } => {
                write!(
                    f,
                    "{} bank + {} per move",
                    Span(bank_seconds),
                    Span(increment_seconds)
                )?;
                match self.shrink() {
                    Some(shrink) => write!(
                        f,
                        ", shrinking {}% every {} moves down to {}",
                        shrink.percent,
                        shrink.after_moves,
                        Span(shrink.minimum_seconds)
                    ),
                    None => Ok(()),
                }
            }
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
                ..
            } if bank_seconds == 0
                || bank_seconds > MAX_SECONDS
                || increment_seconds > MAX_SECONDS =>
            {
                Err(ServiceError::Invalid(format!(
                    "clock: the bank must be between 1 and {MAX_SECONDS} seconds and the increment at most {MAX_SECONDS}"
                )))
            }
            ClockSpec::Bank {
                increment_seconds,
                shrink_after_moves,
                shrink_percent,
                minimum_increment_seconds,
                ..
            } => match (
                shrink_after_moves,
                shrink_percent,
                minimum_increment_seconds,
            ) {
                (None, None, None) => Ok(self),
                (Some(after), Some(percent), Some(minimum)) => {
                    if increment_seconds == 0 {
                        Err(invalid_shrink(
                            "a shrinking increment needs an increment (increment_seconds above 0)",
                        ))
                    } else if after == 0 {
                        Err(invalid_shrink("shrink_after_moves must be at least 1"))
                    } else if !(1..=99).contains(&percent) {
                        Err(invalid_shrink("shrink_percent must be between 1 and 99"))
                    } else if minimum > increment_seconds {
                        Err(invalid_shrink(
                            "minimum_increment_seconds must be at most the increment (increment_seconds)",
                        ))
                    } else {
                        Ok(self)
                    }
                }
                _ => Err(invalid_shrink(
                    "give shrink_after_moves, shrink_percent and minimum_increment_seconds \
                     together, or none of them",
                )),
            },
            _ => Ok(self),
        }
    }

    /// A bank clock's shrinking increment, if it has one.
    pub fn shrink(self) -> Option<Shrink> {
        match self {
            ClockSpec::Bank {
                shrink_after_moves: Some(after_moves),
                shrink_percent: Some(percent),
                minimum_increment_seconds: Some(minimum_seconds),
                ..
            } => Some(Shrink {
                after_moves,
                percent,
                minimum_seconds,
            }),
            _ => None,
        }
    }

    /// A bank clock without a shrinking increment.
    pub fn bank(bank_seconds: u64, increment_seconds: u64) -> ClockSpec {
        ClockSpec::Bank {
            bank_seconds,
            increment_seconds,
            shrink_after_moves: None,
            shrink_percent: None,
            minimum_increment_seconds: None,
        }
    }

    /// This bank clock with its increment shrinking as `shrink` says (other clocks as they are).
    pub fn shrinking(self, shrink: Shrink) -> ClockSpec {
        match self {
            ClockSpec::Bank {
                bank_seconds,
                increment_seconds,
                ..
            } => ClockSpec::Bank {
                bank_seconds,
                increment_seconds,
                shrink_after_moves: Some(shrink.after_moves),
                shrink_percent: Some(shrink.percent),
                minimum_increment_seconds: Some(shrink.minimum_seconds),
            },
            other => other,
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
            ClockSpec::Bank {
                minimum_increment_seconds: Some(minimum),
                ..
            } if minimum > 0 && minimum < min_seconds => too_short(
                format!("a minimum increment of {}", Span(minimum)),
                " (or a minimum of 0: the bank alone once the increment is gone)",
            ),
            _ => Ok(self),
        }
    }

    pub(crate) fn to_row(self) -> ClockRow {
        match self {
            ClockSpec::Unlimited {} => ClockRow {
                kind: "unlimited".into(),
                ..ClockRow::default()
            },
            ClockSpec::PerMove { seconds } => ClockRow {
                kind: "per_move".into(),
                per_move_ms: Some(ms(seconds)),
                ..ClockRow::default()
            },
            ClockSpec::Bank {
                bank_seconds,
                increment_seconds,
                ..
            } => {
                let shrink = self.shrink();
                ClockRow {
                    kind: "bank".into(),
                    per_move_ms: None,
                    bank_ms: Some(ms(bank_seconds)),
                    increment_ms: Some(ms(increment_seconds)),
                    shrink_after_moves: shrink.map(|s| s.after_moves),
                    shrink_percent: shrink.map(|s| s.percent),
                    minimum_increment_ms: shrink.map(|s| ms(s.minimum_seconds)),
                }
            }
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
                shrink_after_moves: row.shrink_after_moves,
                shrink_percent: row.shrink_percent,
                minimum_increment_seconds: row.minimum_increment_ms.map(|m| secs(Some(m))),
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

    /// The increment a side's `nth` move (1-based) earns: the bank clock's increment, shrunk
    /// in a long game if the clock says so; 0 for other clocks.
    pub fn increment_for_move(self, nth: u32) -> u64 {
        match self {
            ClockSpec::Bank {
                increment_seconds, ..
            } => self.shrink().map_or(increment_seconds, |shrink| {
                shrink.increment_after(increment_seconds, nth)
            }),
            _ => 0,
        }
    }

    /// The mover's bank after their `nth` move (1-based), made `spent_ms` into their turn:
    /// what is left plus that move's increment, which never raises it above `max_bank_ratio`
    /// times the initial bank (the cap takes away no time already held, should the ratio be
    /// lowered mid-game).
    pub(crate) fn bank_after_move(
        self,
        bank_ms: Option<i64>,
        spent_ms: i64,
        nth: u32,
        max_bank_ratio: f64,
    ) -> Option<i64> {
        match self {
            ClockSpec::Bank { bank_seconds, .. } => bank_ms.map(|b| {
                let left = (b - spent_ms.max(0)).max(0);
                // Float to integer `as` saturates; the ratio is checked finite and >= 1.
                let cap = (ms(bank_seconds) as f64 * max_bank_ratio) as i64;
                (left + ms(self.increment_for_move(nth))).min(cap.max(left))
            }),
            _ => bank_ms,
        }
    }

    /// When a turn that started at `turn_started` runs out, given the mover's bank.
    pub fn deadline(self, turn_started: i64, mover_bank_ms: Option<i64>) -> Option<i64> {
        match self {
            ClockSpec::Unlimited {} => None,
            ClockSpec::PerMove { seconds } => Some(turn_started.saturating_add(ms(seconds))),
            ClockSpec::Bank { .. } => mover_bank_ms.map(|b| turn_started.saturating_add(b)),
        }
    }
}

fn invalid_shrink(why: &str) -> ServiceError {
    ServiceError::Invalid(format!("clock: {why}"))
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
        let bank = ClockSpec::bank(7 * 86_400, 12 * 3_600);
        assert_eq!(bank.to_string(), "7 days bank + 12 hours per move");
        let no_increment = ClockSpec::bank(2 * 3_600, 0);
        assert_eq!(no_increment.to_string(), "2 hours bank");
    }

    #[test]
    fn rows_round_trip() {
        for spec in [
            ClockSpec::Unlimited {},
            ClockSpec::days_per_move(3),
            ClockSpec::bank(3600, 60),
        ] {
            assert_eq!(ClockSpec::from_row(&spec.to_row()), spec);
        }
    }

    #[test]
    fn bank_is_spent_then_topped_up() {
        let spec = ClockSpec::bank(100, 10);
        let bank = spec.initial_bank_ms();
        assert_eq!(bank, Some(100_000));
        assert_eq!(spec.bank_after_move(bank, 30_000, 1, 3.0), Some(80_000));
        assert_eq!(spec.deadline(5, Some(80_000)), Some(80_005));
        assert_eq!(
            ClockSpec::days_per_move(1).deadline(0, None),
            Some(86_400_000)
        );
        assert_eq!(ClockSpec::Unlimited {}.deadline(0, None), None);
    }

    #[test]
    fn the_increment_stops_at_the_cap_but_takes_nothing_away() {
        let spec = ClockSpec::bank(100, 60);
        assert_eq!(
            spec.bank_after_move(Some(280_000), 0, 1, 3.0),
            Some(300_000)
        );
        assert_eq!(
            spec.bank_after_move(Some(300_000), 0, 1, 3.0),
            Some(300_000)
        );
        assert_eq!(
            spec.bank_after_move(Some(300_000), 0, 1, 1.5),
            Some(300_000)
        );
        assert_eq!(
            spec.bank_after_move(Some(100_000), 50_000, 1, 1.0),
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
            ClockSpec::bank(bank_seconds, increment_seconds).at_least(3_600)
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

    fn wtf_clock() -> ClockSpec {
        // 10 days bank + 12 hours a move; after every 10 moves 25% less, never under 3 hours.
        ClockSpec::bank(10 * 86_400, 12 * 3_600).shrinking(Shrink {
            after_moves: 10,
            percent: 25,
            minimum_seconds: 3 * 3_600,
        })
    }

    #[test]
    fn the_increment_shrinks_every_n_moves_and_stops_at_its_minimum() {
        let clock = wtf_clock();
        let hours = |nth| clock.increment_for_move(nth) as f64 / 3_600.0;
        // Moves 1 to 10: the full 12 hours; 11 to 20: 9; 21 to 30: 6.75; 31 to 40: 5.0625
        // (to the second: 18225 s); then 3.796875 h; then 3 h (the minimum), for good.
        assert_eq!(hours(1), 12.0);
        assert_eq!(hours(10), 12.0);
        assert_eq!(hours(11), 9.0);
        assert_eq!(hours(21), 6.75);
        assert_eq!(clock.increment_for_move(31), 18_225);
        assert_eq!(clock.increment_for_move(41), 13_668);
        assert_eq!(hours(51), 3.0);
        assert_eq!(hours(500), 3.0);
        assert_eq!(clock.increment_for_move(u32::MAX), 3 * 3_600);
        // A clock without the rule keeps its increment.
        assert_eq!(ClockSpec::bank(100, 60).increment_for_move(1_000), 60);
    }

    #[test]
    fn deadlines_move_by_the_shrinking_increment_move_by_move() {
        let clock = wtf_clock();
        let hour = 3_600_000;
        let mut bank = clock.initial_bank_ms();
        let mut now = 0;
        // One side's moves, each made 2 hours into its turn: 12, 9, 6.75... hours come in.
        for nth in 1..=60 {
            let started = now;
            now += 2 * hour;
            bank = clock.bank_after_move(bank, now - started, nth, 3.0);
            let earned = i64::try_from(clock.increment_for_move(nth)).unwrap() * 1000;
            assert!(earned >= 3 * hour, "move {nth}: never under the minimum");
            assert_eq!(clock.deadline(now, bank), bank.map(|b| now + b));
        }
        // Moves 1-10 +10 h each, 11-20 +7 h, 21-30 +4.75 h, 31-40 +3.0625 h, 41-50
        // +1.796667 h (13668 s - 2 h), 51-60 +1 h: from 240 hours, under the cap of 720.
        let expected_ms = 240 * hour
            + 10 * (10 + 7) * hour
            + 10 * 4_750 * 3_600
            + 10 * (18_225 - 7_200) * 1000
            + 10 * (13_668 - 7_200) * 1000
            + 10 * hour;
        assert_eq!(bank, Some(expected_ms));
    }

    #[test]
    fn a_shrinking_increment_is_checked_read_back_and_told_in_words() {
        let clock = wtf_clock();
        assert_eq!(
            clock.to_string(),
            "10 days bank + 12 hours per move, shrinking 25% every 10 moves down to 3 hours"
        );
        assert_eq!(ClockSpec::from_row(&clock.to_row()), clock);
        assert_eq!(clock.validate().unwrap(), clock);
        let json = serde_json::to_value(clock).unwrap();
        assert_eq!(json["shrink_after_moves"], 10);
        assert_eq!(json["minimum_increment_seconds"], 10_800);
        // An old request, without the new fields, keeps its meaning; an old bank's JSON has
        // none of them.
        let old: ClockSpec =
            serde_json::from_str(r#"{"kind":"bank","bank_seconds":3600,"increment_seconds":60}"#)
                .unwrap();
        assert_eq!(old, ClockSpec::bank(3600, 60));
        assert_eq!(
            serde_json::to_string(&old).unwrap(),
            r#"{"kind":"bank","bank_seconds":3600,"increment_seconds":60}"#
        );
        let refused = |json: &str| {
            serde_json::from_str::<ClockSpec>(json)
                .unwrap()
                .validate()
                .unwrap_err()
                .to_string()
        };
        let base = r#""kind":"bank","bank_seconds":86400,"increment_seconds":3600"#;
        for (extra, says) in [
            (r#""shrink_after_moves":10"#, "together"),
            (
                r#""shrink_after_moves":0,"shrink_percent":10,"minimum_increment_seconds":60"#,
                "at least 1",
            ),
            (
                r#""shrink_after_moves":5,"shrink_percent":100,"minimum_increment_seconds":60"#,
                "between 1 and 99",
            ),
            (
                r#""shrink_after_moves":5,"shrink_percent":10,"minimum_increment_seconds":7200"#,
                "at most the increment",
            ),
        ] {
            let message = refused(&format!("{{{base},{extra}}}"));
            assert!(message.contains(says), "{extra}: {message}");
        }
        let short = ClockSpec::bank(86_400, 86_400)
            .shrinking(Shrink {
                after_moves: 5,
                percent: 50,
                minimum_seconds: 60,
            })
            .at_least(3_600)
            .unwrap_err()
            .to_string();
        assert!(
            short.contains("a minimum increment of 1 minute is too short"),
            "{short}"
        );
    }
}
