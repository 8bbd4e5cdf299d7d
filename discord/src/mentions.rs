//! Who a message may ping, and text shown literally. Every message the bot sends names exactly
//! the users it means to ping; names typed by people (HTTP players, Discord display names) are
//! shown as written, so `@everyone`, `<@&role>` or markdown in a name does nothing.

use serenity::all::{CreateAllowedMentions, UserId};

/// At most this many characters of a name are shown.
const MAX_NAME_CHARS: usize = 40;

/// Pings exactly `users`: never everyone, here, roles, or a user only named in the text.
pub fn only(users: &[u64]) -> CreateAllowedMentions {
    CreateAllowedMentions::new().users(users.iter().copied().map(UserId::new))
}

/// Pings nobody.
pub fn nobody() -> CreateAllowedMentions {
    only(&[])
}

/// `text` as Discord shows it literally: markdown escaped, mentions and links broken, on one
/// line, cut to a readable length.
pub fn literal(text: &str) -> String {
    literal_cut(text, MAX_NAME_CHARS)
}

/// [`literal`] for a longer text (a thread's name, already cut to its own length).
pub fn literal_long(text: &str) -> String {
    literal_cut(text, usize::MAX)
}

fn literal_cut(text: &str, max_chars: usize) -> String {
    let mut shown = String::with_capacity(text.len() + 8);
    for (i, c) in text.chars().enumerate() {
        if i == max_chars {
            shown.push('…');
            break;
        }
        match c {
            '\\' | '*' | '_' | '~' | '`' | '|' | '>' | '<' | '#' | '[' | ']' | '(' | ')' | ':'
            | '-' => {
                shown.push('\\');
                shown.push(c);
            }
            // A zero-width space after `@` stops `@everyone`, `@here` and `@name` everywhere.
            '@' => shown.push_str("@\u{200B}"),
            c if c.is_control() => shown.push(' '),
            c => shown.push(c),
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_cannot_ping_or_format() {
        assert_eq!(literal("@everyone"), "@\u{200B}everyone");
        assert_eq!(literal("<@&123>"), "\\<@\u{200B}&123\\>");
        assert_eq!(literal("**bold**"), "\\*\\*bold\\*\\*");
        assert_eq!(literal("[x](https://a)"), "\\[x\\]\\(https\\://a\\)");
        assert_eq!(literal("two\nlines"), "two lines");
        assert_eq!(literal("ada"), "ada");
        assert_eq!(
            literal(&"x".repeat(100)).chars().count(),
            MAX_NAME_CHARS + 1
        );
    }

    #[test]
    fn allowed_mentions_name_exactly_the_users_meant() {
        let json = serde_json::to_value(only(&[42])).unwrap_or_default();
        assert_eq!(json["parse"], serde_json::json!([]));
        assert_eq!(json["users"], serde_json::json!(["42"]));
        assert_eq!(json["roles"], serde_json::json!([]));
        let none = serde_json::to_value(nobody()).unwrap_or_default();
        assert_eq!(none["users"], serde_json::json!([]));
        assert_eq!(none["parse"], serde_json::json!([]));
    }
}
