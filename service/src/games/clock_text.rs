//! A clock written as text, the same in Discord's `clock` options and the web's forms:
//! `unlimited`, `3d` or `12h` per move, `7d+1d` (a bank plus an increment), and
//! `10d+12h shrinking 25% every 10 to 3h` (the increment shrinks by 25% every 10 moves of a
//! side, never below 3 hours).

use super::timing::{ClockSpec, Shrink};
use crate::ServiceError;

/// What the text may say, for the refusal.
const FORMS: &str = "say `unlimited`, `3d` or `12h` per move, `7d+1d` (time bank plus \
    increment), or `10d+12h shrinking 25% every 10 to 3h` (an increment that shrinks by 25% \
    every 10 moves, down to 3 hours)";

/// Reads `text` as a clock, checked ([`ClockSpec::validate`]).
pub fn parse_clock_text(text: &str) -> Result<ClockSpec, ServiceError> {
    let text = text.trim().to_ascii_lowercase();
    let bad = || ServiceError::Invalid(format!("I cannot read the clock {text:?}: {FORMS}."));
    if matches!(text.as_str(), "" | "unlimited" | "none" | "no") {
        return Ok(ClockSpec::Unlimited {});
    }
    let (times, shrink) = match text.split_once("shrinking") {
        Some((times, shrink)) => (times, Some(parse_shrink(shrink).ok_or_else(bad)?)),
        None => (text.as_str(), None),
    };
    let seconds = |part: &str| seconds(part).ok_or_else(bad);
    let clock = match (times.split_once('+'), shrink) {
        (Some((bank, increment)), shrink) => {
            let bank = ClockSpec::bank(seconds(bank)?, seconds(increment)?);
            shrink.map_or(bank, |s| bank.shrinking(s))
        }
        (None, None) => ClockSpec::PerMove {
            seconds: seconds(times)?,
        },
        (None, Some(_)) => {
            return Err(ServiceError::Invalid(format!(
                "clock {text:?}: only a bank's increment shrinks, as in `10d+12h shrinking 25% \
                 every 10 to 3h`"
            )));
        }
    };
    clock.validate()
}

/// `3d`, `12h`, `90m` (or `days`, `hours`, `min`) in seconds.
fn seconds(part: &str) -> Option<u64> {
    let part = part.trim();
    let (number, unit) = part.split_at(
        part.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(part.len()),
    );
    let n: u64 = number.parse().ok()?;
    let scale = match unit.trim() {
        "d" | "day" | "days" => 86_400,
        "h" | "hour" | "hours" => 3_600,
        "m" | "min" | "minutes" => 60,
        _ => return None,
    };
    n.checked_mul(scale)
}

/// ` 25% every 10 to 3h`.
fn parse_shrink(text: &str) -> Option<Shrink> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let [percent, "every", after, "to", minimum] = words.as_slice() else {
        return None;
    };
    Some(Shrink {
        percent: percent.strip_suffix('%')?.parse().ok()?,
        after_moves: after.parse().ok()?,
        minimum_seconds: seconds(minimum)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_clock_reads_from_its_words() {
        assert_eq!(
            parse_clock_text("unlimited").unwrap(),
            ClockSpec::Unlimited {}
        );
        assert_eq!(
            parse_clock_text(" 3d ").unwrap(),
            ClockSpec::days_per_move(3)
        );
        assert_eq!(
            parse_clock_text("7d+1d").unwrap(),
            ClockSpec::bank(7 * 86_400, 86_400)
        );
        let shrinking = parse_clock_text("10d+12h shrinking 25% every 10 to 3h").unwrap();
        assert_eq!(
            shrinking.to_string(),
            "10 days bank + 12 hours per move, shrinking 25% every 10 moves down to 3 hours"
        );
    }

    #[test]
    fn unreadable_clocks_say_what_is_accepted() {
        for bad in [
            "soon",
            "3x",
            "7d+1d shrinking",
            "7d+1d shrinking 25 every 10 to 3h",
            "3d shrinking 25% every 10 to 3h",
        ] {
            let error = parse_clock_text(bad).unwrap_err().to_string();
            assert!(error.contains("shrinking 25%"), "{bad}: {error}");
        }
        let too_far = parse_clock_text("7d+1d shrinking 25% every 10 to 2d")
            .unwrap_err()
            .to_string();
        assert!(too_far.contains("at most the increment"), "{too_far}");
    }
}
