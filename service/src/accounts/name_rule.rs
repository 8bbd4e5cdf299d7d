//! The rule player and token names follow, as a schema: trimmed of white space at both ends,
//! 1 to `max` characters, none of them a control character (what `clean_name` and
//! `clean_token_name` check). A client can then tell a name the service will take without
//! sending it.

use utoipa::openapi::schema::{Object, ObjectBuilder, Type};

/// What `str::trim` takes off: Unicode's White_Space, as a regex class body.
const WHITE_SPACE: &str =
    r"\t\n\u000B\u000C\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000";
/// What `char::is_control` refuses (Unicode's Cc), as a regex class body.
const CONTROL: &str = r"\u0000-\u001F\u007F-\u009F";

/// A string that trims to 1 to `max` characters, none of them a control character.
pub fn printable_name(max: usize) -> Object {
    let inner = max.saturating_sub(2);
    // Ends: neither white space nor control; between them: anything but control.
    let end = format!("[^{WHITE_SPACE}{CONTROL}]");
    let pattern =
        format!("^[{WHITE_SPACE}]*{end}(?:[^{CONTROL}]{{0,{inner}}}{end})?[{WHITE_SPACE}]*$");
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(pattern))
        .description(Some(format!(
            "1 to {max} printable characters once white space at either end is trimmed"
        )))
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn valid(max: usize, text: &str) -> bool {
        let schema = serde_json::to_value(printable_name(max)).unwrap_or_default();
        let pattern = schema["pattern"].as_str().unwrap_or_default();
        jsonschema::validator_for(&serde_json::json!({ "pattern": pattern }))
            .map(|v| v.is_valid(&serde_json::json!(text)))
            .unwrap_or(false)
    }

    #[test]
    fn the_schema_takes_exactly_what_the_service_takes() {
        for text in [
            "a",
            "ada",
            " ada ",
            "\tada\n",
            "a b",
            "\u{3000}名前\u{3000}",
        ] {
            assert!(valid(8, text), "{text:?} should be valid");
        }
        assert!(valid(3, " abc "));
        for text in ["", "   ", "a\u{7}b", "abcd", "\u{85}", "a\u{9f}"] {
            assert!(!valid(3, text), "{text:?} should be refused");
        }
    }
}
