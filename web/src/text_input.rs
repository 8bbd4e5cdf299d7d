//! Text a client sends has no NUL character: no database column can hold one (PostgreSQL
//! refuses it as text), so one sent in any field (a name, a handle, a challenge's context, a
//! webhook's address or secret, a move...) is refused where the request is read, with a 400
//! naming the field, before any handler or the database sees it. One place for the API's
//! bodies, queries and paths and the web client's forms and paths.

use serde_json::Value;

/// The code of the refusal, in the API's error shape: the service's, which refuses a NUL in
/// the texts it reads itself (an imported record's tags and comments).
pub use crate::service::NUL_CODE;

/// The sentence of the refusal for `field`: the service's words for the same refusal.
pub fn nul_refusal(field: &str) -> String {
    crate::service::ServiceError::NulCharacter(field.to_owned()).to_string()
}

/// The dotted path (`clock.kind`, `moves[2]`) of the first text in `value` holding a NUL,
/// if any: a string value, or an object's key.
pub fn nul_in_json(value: &Value) -> Option<String> {
    nul_at(value, String::new())
}

fn nul_at(value: &Value, path: String) -> Option<String> {
    match value {
        Value::String(s) => s.contains('\0').then_some(path),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| nul_at(item, format!("{path}[{i}]"))),
        Value::Object(fields) => fields.iter().find_map(|(key, item)| {
            let here = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            if key.contains('\0') {
                return Some(here);
            }
            nul_at(item, here)
        }),
        Value::Null | Value::Bool(_) | Value::Number(_) => None,
    }
}

/// The name of the first `name=value` pair of an URL-encoded text (a query, a form's body)
/// whose name or value holds a NUL once decoded, if any.
pub fn nul_in_pairs(encoded: &[u8]) -> Option<String> {
    // Only an encoded `%00` (or a raw NUL) decodes to a NUL: most texts are passed over whole.
    if !has_encoded_nul(encoded) {
        return None;
    }
    form_urlencoded::parse(encoded)
        .find(|(name, value)| name.contains('\0') || value.contains('\0'))
        .map(|(name, _)| name.replace('\0', "\\u0000"))
}

/// Whether a percent-encoded text (a path, a query) decodes to something holding a NUL.
pub fn has_encoded_nul(encoded: &[u8]) -> bool {
    encoded.contains(&0) || encoded.windows(3).any(|w| w == b"%00")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_nul_is_found_by_its_field_in_json() {
        assert_eq!(nul_in_json(&json!({ "name": "ada" })), None);
        assert_eq!(
            nul_in_json(&json!({ "name": "a\u{0}b" })).as_deref(),
            Some("name")
        );
        assert_eq!(
            nul_in_json(&json!({ "clock": { "kind": "x\u{0}" } })).as_deref(),
            Some("clock.kind")
        );
        assert_eq!(
            nul_in_json(&json!({ "moves": ["a", "\u{0}"] })).as_deref(),
            Some("moves[1]")
        );
        // An escaped backslash followed by `u0000` is text, not a NUL.
        assert_eq!(nul_in_json(&json!({ "name": "\\u0000" })), None);
    }

    #[test]
    fn a_nul_is_found_by_its_name_in_pairs() {
        assert_eq!(nul_in_pairs(b"prefix=ad&page=2"), None);
        assert_eq!(
            nul_in_pairs(b"page=2&prefix=a%00d").as_deref(),
            Some("prefix")
        );
        assert_eq!(nul_in_pairs(b"opponent=%00").as_deref(), Some("opponent"));
        assert_eq!(nul_in_pairs(b"x%00y=1").as_deref(), Some("x\\u0000y"));
        assert_eq!(
            nul_in_pairs(b"a=%2500"),
            None,
            "an encoded percent sign is text"
        );
        assert!(has_encoded_nul(b"/players/a%00b"));
        assert!(!has_encoded_nul(b"/players/ada"));
    }
}
