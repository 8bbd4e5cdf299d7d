//! A tournament's start as people type it: a date and time in UTC (`2026-12-01 18:00`, or
//! `2026-12-01T18:00` as a browser's form sends it) or a span from now (`in 2 days`,
//! `in 36h`, `in 1d 12h`). Front ends read it here, so every one accepts the same words.

/// Why a typed start was refused, in the player's terms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartTimeError {
    #[error(
        "I cannot read the start {0:?}: give a date and time in UTC such as `2026-12-01 18:00`, \
         or a span from now such as `in 2 days` or `in 12h`"
    )]
    Unreadable(String),
    #[error(
        "the start {0:?} has passed; choose a time to come, or leave it out and start the \
         tournament yourself"
    )]
    Passed(String),
}

/// The start `text` names (milliseconds since the epoch), which must come after `now_ms`.
pub fn read_start_time(text: &str, now_ms: i64) -> Result<i64, StartTimeError> {
    let trimmed = text.trim();
    let lower = trimmed.to_ascii_lowercase();
    let at = match lower.strip_prefix("in ") {
        Some(span) => span_ms(span).and_then(|ms| now_ms.checked_add(ms)),
        None => utc_minute_ms(trimmed),
    }
    .ok_or_else(|| StartTimeError::Unreadable(trimmed.to_owned()))?;
    if at <= now_ms {
        return Err(StartTimeError::Passed(trimmed.to_owned()));
    }
    Ok(at)
}

/// Milliseconds in a span such as `2 days`, `36h` or `1d 12h` (weeks, days, hours, minutes).
fn span_ms(text: &str) -> Option<i64> {
    let mut total: i64 = 0;
    let mut rest = text.trim();
    let mut parts = 0;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let number: i64 = rest[..digits].parse().ok()?;
        rest = rest[digits..].trim_start();
        let unit_end = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        let unit_ms: i64 = match &rest[..unit_end] {
            "w" | "week" | "weeks" => 7 * 86_400_000,
            "d" | "day" | "days" => 86_400_000,
            "h" | "hour" | "hours" => 3_600_000,
            "m" | "min" | "mins" | "minute" | "minutes" => 60_000,
            _ => return None,
        };
        total = total.checked_add(number.checked_mul(unit_ms)?)?;
        rest = rest[unit_end..].trim_start_matches([' ', ',']);
        parts += 1;
    }
    (parts > 0).then_some(total)
}

/// Milliseconds since the epoch of `YYYY-MM-DDTHH:MM` (a space for the `T`, seconds
/// allowed) read as UTC.
pub fn utc_minute_ms(text: &str) -> Option<i64> {
    let (date, time) = text.split_once(['T', ' '])?;
    let mut d = date.splitn(3, '-').map(|p| p.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let mut t = time.trim().splitn(3, ':').map(|p| p.parse::<i64>().ok());
    let (h, min) = (t.next()??, t.next()??);
    let s = t.next().flatten().unwrap_or(0);
    let valid = (1..=12).contains(&m)
        && (1..=31).contains(&day)
        && (0..24).contains(&h)
        && (0..60).contains(&min)
        && (0..60).contains(&s)
        && (1970..=9999).contains(&y);
    if !valid {
        return None;
    }
    // Howard Hinnant's days_from_civil.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 86_400) + h * 3600 + min * 60 + s) * 1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_700_000_000_000;

    #[test]
    fn a_start_is_read_as_utc() {
        assert_eq!(utc_minute_ms("1970-01-01T00:00"), Some(0));
        assert_eq!(utc_minute_ms("2023-11-14T22:13"), Some(1_699_999_980_000));
        assert_eq!(
            utc_minute_ms("2023-11-14 22:13:20"),
            Some(1_700_000_000_000)
        );
        for bad in [
            "",
            "tomorrow",
            "2023-13-01T00:00",
            "2023-01-01T24:00",
            "2023-01-01",
        ] {
            assert_eq!(utc_minute_ms(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_start_is_a_date_or_a_span_from_now() {
        assert_eq!(
            read_start_time("2023-11-15 00:00", NOW),
            Ok(1_700_006_400_000)
        );
        assert_eq!(read_start_time("in 2 days", NOW), Ok(NOW + 2 * 86_400_000));
        assert_eq!(read_start_time(" In 36h ", NOW), Ok(NOW + 36 * 3_600_000));
        assert_eq!(read_start_time("in 1d 12h", NOW), Ok(NOW + 36 * 3_600_000));
        assert_eq!(read_start_time("in 1 week", NOW), Ok(NOW + 7 * 86_400_000));
    }

    #[test]
    fn a_start_refused_says_why() {
        for bad in [
            "tomorrow",
            "in",
            "in 2 fortnights",
            "in two days",
            "2023-11-15",
        ] {
            let refused = read_start_time(bad, NOW).map_err(|e| e.to_string());
            assert!(
                refused
                    .as_ref()
                    .is_err_and(|e| e.contains("2026-12-01 18:00") && e.contains("in 2 days")),
                "{bad}: {refused:?}"
            );
        }
        assert_eq!(
            read_start_time("2023-11-14 22:00", NOW),
            Err(StartTimeError::Passed("2023-11-14 22:00".into()))
        );
        assert_eq!(
            read_start_time("in 0 minutes", NOW),
            Err(StartTimeError::Passed("in 0 minutes".into()))
        );
        assert!(read_start_time("in 99999999999999 weeks", NOW).is_err());
    }
}
