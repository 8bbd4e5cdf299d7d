//! Quiet hours: a stretch of the player's day (say 22:00 to 07:00) when no notice is mailed;
//! one owed then goes at its end. The day is the player's own, given as an offset from UTC
//! (no time zone database is in the tree; a player in a zone with summer time changes it).

use crate::{Result, ServiceError};

const DAY_MIN: i64 = 24 * 60;
const MINUTE_MS: i64 = 60_000;
/// UTC offsets in use run from -12:00 to +14:00.
const OFFSET_RANGE_MIN: std::ops::RangeInclusive<i64> = -12 * 60..=14 * 60;

/// From `start` to `end` (minutes after midnight in the player's day; `end` before `start`
/// runs over midnight), at `utc_offset_min` from UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuietHours {
    pub start_min: i64,
    pub end_min: i64,
    pub utc_offset_min: i64,
}

impl QuietHours {
    /// When the quiet hours around `now_ms` end, or `None` when `now_ms` is outside them.
    pub fn end_after(&self, now_ms: i64) -> Option<i64> {
        if self.start_min == self.end_min {
            return None;
        }
        let local_ms = now_ms + self.utc_offset_min * MINUTE_MS;
        let minute = local_ms.div_euclid(MINUTE_MS).rem_euclid(DAY_MIN);
        let quiet = if self.start_min < self.end_min {
            (self.start_min..self.end_min).contains(&minute)
        } else {
            minute >= self.start_min || minute < self.end_min
        };
        if !quiet {
            return None;
        }
        let minutes_left = (self.end_min - minute).rem_euclid(DAY_MIN);
        let into_minute = local_ms.rem_euclid(MINUTE_MS);
        Some(now_ms + minutes_left * MINUTE_MS - into_minute)
    }
}

/// `HH:MM` (24-hour) as minutes after midnight, refused in the player's terms.
pub fn parse_time_of_day(text: &str, what: &str) -> Result<i64> {
    let refuse = || {
        ServiceError::Invalid(format!(
            "the {what} of quiet hours must be a time such as 22:00 or 07:30, not {text:?}"
        ))
    };
    let (h, m) = text.trim().split_once(':').ok_or_else(refuse)?;
    let h: i64 = h.parse().map_err(|_| refuse())?;
    let m: i64 = m.parse().map_err(|_| refuse())?;
    if !(0..24).contains(&h) || !(0..60).contains(&m) {
        return Err(refuse());
    }
    Ok(h * 60 + m)
}

/// An offset from UTC such as `+02:00`, `-05:30`, `+1` or `0`, as minutes.
pub fn parse_utc_offset(text: &str) -> Result<i64> {
    let text = text.trim();
    let refuse = || {
        ServiceError::Invalid(format!(
            "the UTC offset must be such as +02:00, -05:30 or 0 (from -12:00 to +14:00), not {text:?}"
        ))
    };
    let text = text
        .strip_prefix("UTC")
        .or_else(|| text.strip_prefix("utc"))
        .unwrap_or(text);
    if text.is_empty() || text == "0" || text == "Z" {
        return Ok(0);
    }
    let (sign, rest) = match text.as_bytes()[0] {
        b'+' => (1, &text[1..]),
        b'-' => (-1, &text[1..]),
        _ => (1, text),
    };
    let (h, m) = rest.split_once(':').unwrap_or((rest, "0"));
    let h: i64 = h.parse().map_err(|_| refuse())?;
    let m: i64 = m.parse().map_err(|_| refuse())?;
    if !(0..60).contains(&m) {
        return Err(refuse());
    }
    let offset = sign * (h * 60 + m);
    if !OFFSET_RANGE_MIN.contains(&offset) {
        return Err(refuse());
    }
    Ok(offset)
}

/// `minutes` after midnight as `HH:MM`.
pub fn time_of_day(minutes: i64) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// An offset in minutes as `+HH:MM`.
pub fn utc_offset(minutes: i64) -> String {
    let sign = if minutes < 0 { '-' } else { '+' };
    let m = minutes.abs();
    format!("{sign}{:02}:{:02}", m / 60, m % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2023-11-14 22:13:20 UTC.
    const T0: i64 = 1_700_000_000_000;

    #[test]
    fn quiet_hours_over_midnight_end_at_their_end_in_the_players_day() {
        let night = QuietHours {
            start_min: 22 * 60,
            end_min: 7 * 60,
            utc_offset_min: 0,
        };
        let end = night.end_after(T0).expect("22:13 is quiet");
        // 07:00 the next day: 8 h 46 min 40 s later.
        assert_eq!(end - T0, ((8 * 60 + 46) * 60 + 40) * 1000);
        assert_eq!(night.end_after(end), None);
        assert_eq!(night.end_after(end - 1), Some(end));
        // Two hours east, it is 00:13 there: still quiet, the end two hours sooner in UTC.
        let east = QuietHours {
            utc_offset_min: 120,
            ..night
        };
        assert_eq!(east.end_after(T0), Some(end - 2 * 3_600_000));
        // Ten hours west it is 12:13: not quiet.
        let west = QuietHours {
            utc_offset_min: -600,
            ..night
        };
        assert_eq!(west.end_after(T0), None);
    }

    #[test]
    fn quiet_hours_within_a_day_and_empty_ones() {
        let evening = QuietHours {
            start_min: 18 * 60,
            end_min: 23 * 60,
            utc_offset_min: 0,
        };
        assert!(evening.end_after(T0).is_some());
        let morning = QuietHours {
            start_min: 6 * 60,
            end_min: 9 * 60,
            utc_offset_min: 0,
        };
        assert_eq!(morning.end_after(T0), None);
        let none = QuietHours {
            start_min: 60,
            end_min: 60,
            utc_offset_min: 0,
        };
        assert_eq!(none.end_after(T0), None);
    }

    #[test]
    fn times_and_offsets_read_as_people_write_them() {
        assert_eq!(parse_time_of_day("22:00", "start").unwrap(), 1320);
        assert_eq!(parse_time_of_day(" 7:30 ", "end").unwrap(), 450);
        assert!(parse_time_of_day("24:00", "start").is_err());
        assert!(parse_time_of_day("7pm", "start").is_err());
        assert_eq!(parse_utc_offset("+02:00").unwrap(), 120);
        assert_eq!(parse_utc_offset("-05:30").unwrap(), -330);
        assert_eq!(parse_utc_offset("UTC+1").unwrap(), 60);
        assert_eq!(parse_utc_offset("0").unwrap(), 0);
        assert_eq!(parse_utc_offset("").unwrap(), 0);
        assert!(parse_utc_offset("+15:00").is_err());
        assert!(parse_utc_offset("+02:75").is_err());
        assert!(parse_utc_offset("Europe/Paris").is_err());
        assert_eq!(utc_offset(-330), "-05:30");
        assert_eq!(time_of_day(450), "07:30");
    }
}
