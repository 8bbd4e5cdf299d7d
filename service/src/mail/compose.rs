//! The words of each mail: a confirmation link, and a turn notice naming the games waiting
//! for the player's move (several in one digest). Nothing a user typed reaches a header
//! unchecked: the subject holds handles (letters, digits, `_`, `-`) and variant names, each
//! passed through [`one_line`] anyway, and the body is plain text.

use crate::domain::GameId;

/// The longest piece of user text a mail quotes (a name): a mail is a notice, not a page.
const MAX_QUOTED_CHARS: usize = 40;

/// One game waiting for the player's move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaitingGame {
    pub game: GameId,
    pub opponent: String,
    pub variant: Option<String>,
}

/// A mail's subject and plain-text body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailText {
    pub subject: String,
    pub body: String,
}

/// `text` on one line, cut: control characters (line breaks among them, which could start
/// a header of their own) become spaces, and at most [`MAX_QUOTED_CHARS`] characters stay.
pub fn one_line(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let flat = flat.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= MAX_QUOTED_CHARS {
        return flat;
    }
    let mut cut: String = flat.chars().take(MAX_QUOTED_CHARS - 1).collect();
    cut.push('…');
    cut
}

pub fn confirmation(link: &str, settings_url: &str, hours: u64) -> MailText {
    MailText {
        subject: "Confirm your address for taflbot turn notices".to_owned(),
        body: format!(
            "Someone (you, we hope) asked taflbot to mail this address when it is their move \
             in a correspondence game.\n\n\
             To confirm, open this link within {hours} hours (it works once):\n{link}\n\n\
             If it was not you, do nothing: without confirmation nothing more is sent.\n\
             Settings: {settings_url}\n"
        ),
    }
}

pub fn turn_notice(
    base_url: &str,
    games: &[WaitingGame],
    unsubscribe_url: &str,
    settings_url: &str,
) -> MailText {
    let subject = match games {
        [one] => format!(
            "Your move against @{}{}",
            one_line(&one.opponent),
            one.variant
                .as_deref()
                .map(|v| format!(" ({})", one_line(v)))
                .unwrap_or_default()
        ),
        many => format!("Your move in {} games on taflbot", many.len()),
    };
    let mut body = String::from("It is your move:\n\n");
    for g in games {
        body.push_str(&format!(
            "- against @{}{}: {base_url}/games/{}\n",
            one_line(&g.opponent),
            g.variant
                .as_deref()
                .map(|v| format!(", {}", one_line(v)))
                .unwrap_or_default(),
            g.game
        ));
    }
    body.push_str(&format!(
        "\nYou get this because you asked for turn notices by mail. \
         Quiet hours and your address: {settings_url}\n\
         Stop these mails with one click: {unsubscribe_url}\n"
    ));
    MailText {
        subject: one_line_long(&subject),
        body,
    }
}

/// A subject on one line (control characters out), at most 120 characters.
fn one_line_long(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(120)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_text_cannot_start_a_header_of_its_own() {
        let games = [WaitingGame {
            game: GameId(7),
            opponent: "eve\r\nBcc: victim@example.org".into(),
            variant: Some("brandubh\nX-Evil: 1".into()),
        }];
        let text = turn_notice("https://t.example", &games, "u", "s");
        assert!(!text.subject.contains('\n') && !text.subject.contains('\r'));
        assert!(text.body.contains("https://t.example/games/7"));
        assert!(!text.body.contains("\r\nBcc"));
        let long = one_line(&"x".repeat(500));
        assert_eq!(long.chars().count(), MAX_QUOTED_CHARS);
    }

    #[test]
    fn several_games_make_one_digest() {
        let games = [
            WaitingGame {
                game: GameId(1),
                opponent: "bob".into(),
                variant: None,
            },
            WaitingGame {
                game: GameId(2),
                opponent: "cy".into(),
                variant: Some("copenhagen".into()),
            },
        ];
        let text = turn_notice("http://h", &games, "u", "s");
        assert_eq!(text.subject, "Your move in 2 games on taflbot");
        assert!(text.body.contains("/games/1") && text.body.contains("/games/2"));
    }
}
