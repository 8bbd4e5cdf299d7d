//! The application's id in routes. Follow-ups, `@original` edits and command registrations
//! name the application (`/webhooks/{application}/{token}...`,
//! `/applications/{application}/...`), and an application's id is its bot user's only for
//! applications made since 2019: the fake gives them different ids, and refuses a route naming
//! another application as Discord does (401 50027 for a webhook whose token is not its own,
//! 403 50001 for commands), as a problem of the bot, which must read the id from Discord
//! (READY's `application.id`, `GET /oauth2/applications/@me`).

use super::answer::Refusal;

/// Why a request names the wrong application, and Discord's refusal; `None` when it names
/// `application_id` or no application at all.
pub fn wrong_application(segments: &[&str], application_id: u64) -> Option<(Refusal, String)> {
    let (named, refusal) = match segments {
        ["webhooks", named, ..] => (named, Refusal::InvalidWebhookToken),
        ["applications", named, ..] => (named, Refusal::MissingAccess),
        _ => return None,
    };
    if named.parse::<u64>().ok() == Some(application_id) {
        return None;
    }
    let problem = format!(
        "a request names the application {named}, but the application's id is \
         {application_id} (the bot user's id is not the application's)"
    );
    Some((refusal, problem))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_applications_own_id_passes() {
        assert!(wrong_application(&["webhooks", "7", "token"], 7).is_none());
        assert!(wrong_application(&["applications", "7", "commands"], 7).is_none());
        assert!(wrong_application(&["channels", "9", "messages"], 7).is_none());
        let (refusal, _) = wrong_application(&["webhooks", "8", "token"], 7).unwrap_or_else(|| {
            panic!("a follow-up under another application's id passed");
        });
        assert_eq!(refusal, Refusal::InvalidWebhookToken);
        let (refusal, _) = wrong_application(&["applications", "8", "commands"], 7)
            .unwrap_or_else(|| panic!("a registration under another id passed"));
        assert_eq!(refusal, Refusal::MissingAccess);
    }
}
