//! The project's accessibility rule, checked on every request that uploads an image: each PNG
//! carries a `description` (alt text, at most 1,024 characters) in the payload's `attachments`
//! list, so screen readers can tell what the board shows. Discord itself accepts an image
//! without one, so a missing description is a problem of the bot, not a refusal.

use serde_json::Value;

use super::recorder::{RecordedAttachment, RouteKind};

/// Discord keeps at most this many characters of an attachment's description.
pub const DESCRIPTION_MAX_CHARS: usize = 1024;

/// The placeholder id serenity gives the file in multipart field `files[N]`: N.
fn placeholder(field: &str) -> Option<u64> {
    field
        .strip_prefix("files[")?
        .strip_suffix(']')?
        .parse()
        .ok()
}

/// What is wrong with the descriptions of the images a request uploads, if anything.
pub fn undescribed_images(
    kind: &RouteKind,
    body: Option<&Value>,
    files: &[RecordedAttachment],
) -> Option<String> {
    let message = match kind {
        RouteKind::InteractionCallback { .. } => body.and_then(|b| b.get("data")),
        _ => body,
    };
    let listed: Vec<&Value> = message
        .and_then(|m| m.get("attachments"))
        .and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let mut wrong = Vec::new();
    for file in files.iter().filter(|f| f.is_png()) {
        let id = placeholder(&file.field);
        let description = listed
            .iter()
            .find(|a| {
                let given = a.get("id").and_then(|id| match id {
                    Value::Number(n) => n.as_u64(),
                    Value::String(s) => s.parse().ok(),
                    _ => None,
                });
                given.is_some() && given == id
            })
            .and_then(|a| a.get("description"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        let length = description.chars().count();
        if description.trim().is_empty() {
            wrong.push(format!("{} has no description (alt text)", file.filename));
        } else if length > DESCRIPTION_MAX_CHARS {
            wrong.push(format!(
                "{}'s description has {length} characters (at most {DESCRIPTION_MAX_CHARS})",
                file.filename
            ));
        }
    }
    (!wrong.is_empty()).then(|| wrong.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn png(field: &str) -> RecordedAttachment {
        RecordedAttachment {
            field: field.into(),
            filename: "board.png".into(),
            content_type: Some("image/png".into()),
            bytes: b"\x89PNG\r\n\x1a\n....".to_vec(),
        }
    }

    #[test]
    fn every_uploaded_image_needs_a_description() {
        let post = RouteKind::ChannelMessage { channel_id: 1 };
        let described =
            json!({"attachments": [{"id": 0, "filename": "board.png", "description": "a board"}]});
        assert_eq!(
            undescribed_images(&post, Some(&described), &[png("files[0]")]),
            None
        );
        let bare = json!({"attachments": [{"id": 0, "filename": "board.png"}]});
        assert!(undescribed_images(&post, Some(&bare), &[png("files[0]")]).is_some());
        let long = json!({"attachments": [{"id": "0", "description": "x".repeat(1025)}]});
        assert!(undescribed_images(&post, Some(&long), &[png("files[0]")]).is_some());
        let callback = RouteKind::InteractionCallback {
            interaction_id: 1,
            token: "t".into(),
        };
        let reply = json!({"type": 4, "data": described});
        assert_eq!(
            undescribed_images(&callback, Some(&reply), &[png("files[0]")]),
            None
        );
        let other = RecordedAttachment {
            bytes: b"1. e4-e6".to_vec(),
            filename: "game.otg".into(),
            ..png("files[0]")
        };
        assert_eq!(
            undescribed_images(&post, None, &[other]),
            None,
            "only images need one"
        );
    }
}
