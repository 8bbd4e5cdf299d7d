//! The bot's promise about pings, checked on every message it sends: each names its
//! `allowed_mentions`, and none allows `@everyone`, `@here` or roles. Discord itself would accept
//! a message without them and ping every mention in its text, so a missing one is a problem of
//! the bot, not a refusal.

use serde_json::Value;

use super::recorder::RouteKind;

/// What is wrong with the pings of a message the bot sends, if anything.
pub fn mention_problem(kind: &RouteKind, method: &str, body: &Value) -> Option<String> {
    let message = message_of(kind, method, body)?;
    let Some(allowed) = message.get("allowed_mentions").filter(|a| a.is_object()) else {
        return Some(
            "a message without allowed_mentions: Discord would ping every mention in its text"
                .to_owned(),
        );
    };
    let parsed: Vec<&str> = allowed
        .get("parse")
        .and_then(Value::as_array)
        .map(|p| p.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let wide: Vec<&str> = parsed
        .into_iter()
        .filter(|p| matches!(*p, "everyone" | "roles"))
        .collect();
    let roles = allowed
        .get("roles")
        .and_then(Value::as_array)
        .is_some_and(|r| !r.is_empty());
    (!wide.is_empty() || roles).then(|| {
        format!("a message whose allowed_mentions let it ping {wide:?} or roles: {allowed}")
    })
}

/// The message a request carries: a callback's `data` (types 4 and 7), or the body of a post,
/// follow-up or edit.
fn message_of<'a>(kind: &RouteKind, method: &str, body: &'a Value) -> Option<&'a Value> {
    match kind {
        RouteKind::InteractionCallback { .. } => {
            let carries = matches!(body.get("type").and_then(Value::as_u64), Some(4 | 7));
            carries.then(|| body.get("data")).flatten()
        }
        RouteKind::ChannelMessage { .. }
        | RouteKind::ChannelMessageEdit { .. }
        | RouteKind::Followup { .. }
        | RouteKind::EditResponse { .. }
            if method == "POST" || method == "PATCH" =>
        {
            Some(body)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn post() -> RouteKind {
        RouteKind::ChannelMessage { channel_id: 1 }
    }

    #[test]
    fn a_message_must_name_whom_it_pings_and_never_everyone_or_roles() {
        let kind = post();
        assert!(mention_problem(&kind, "POST", &json!({"content": "<@1>"})).is_some());
        let everyone = json!({"content": "x", "allowed_mentions": {"parse": ["everyone"]}});
        assert!(mention_problem(&kind, "POST", &everyone).is_some());
        let roles = json!({"content": "x", "allowed_mentions": {"parse": [], "roles": ["5"]}});
        assert!(mention_problem(&kind, "POST", &roles).is_some());
        let fine = json!({"content": "x", "allowed_mentions": {"parse": [], "users": ["1"]}});
        assert!(mention_problem(&kind, "POST", &fine).is_none());
        let deferral = json!({"type": 5});
        let callback = RouteKind::InteractionCallback {
            interaction_id: 1,
            token: "t".into(),
        };
        assert!(mention_problem(&callback, "POST", &deferral).is_none());
    }
}
