//! Serde's complaints about a request body or query, told in the API's terms: which field,
//! what it must be, what was sent. Serde hands them over as text ("invalid type: string "x",
//! expected u32"), so that text is read here, once, rather than leaking Rust type names.

use serde_json::Value;

/// What serde found wrong with one field.
#[derive(Debug, PartialEq, Eq)]
enum Complaint<'a> {
    Missing(&'a str),
    UnknownField {
        name: &'a str,
        allowed: Vec<&'a str>,
    },
    NotOneOf {
        allowed: Vec<&'a str>,
    },
    WrongType {
        expected: &'a str,
    },
    Other(&'a str),
}

/// Where the field was: in the JSON body or in the query string.
#[derive(Debug, Clone, Copy)]
pub enum Source {
    Body,
    Query,
}

/// One sentence for the field at `path` (serde's dotted path; "." or "" for the whole
/// input), given serde's `message` and, when known, the value that was `sent`.
pub fn describe(source: Source, path: &str, message: &str, sent: Option<&str>) -> String {
    let path = path.trim_start_matches('.');
    let field = |name: &str| match path {
        "" => name.to_owned(),
        parent => format!("{parent}.{name}"),
    };
    let but = sent.map(|s| format!(", not {s}")).unwrap_or_default();
    match read(message) {
        Complaint::Missing(name) => format!("{} is required", field(name)),
        Complaint::UnknownField { name, allowed } => {
            // The path of an unknown field ends with the field itself.
            let path = path
                .strip_suffix(name)
                .map_or(path, |p| p.trim_end_matches('.'));
            let field = |name: &str| match path {
                "" => name.to_owned(),
                parent => format!("{parent}.{name}"),
            };
            let owner = match (source, path) {
                (Source::Query, _) => "this endpoint".to_owned(),
                (Source::Body, "") => "the body".to_owned(),
                (Source::Body, parent) => parent.to_owned(),
            };
            let what = match source {
                Source::Body => "field",
                Source::Query => "query parameter",
            };
            let takes = match allowed.as_slice() {
                [] => "nothing".to_owned(),
                names => names.join(", "),
            };
            format!("unknown {what} {:?}: {owner} takes {takes}", field(name))
        }
        Complaint::NotOneOf { allowed } => match allowed.as_slice() {
            [one, other] => format!("{path} must be {one} or {other}{but}"),
            names => format!("{path} must be one of {}{but}", names.join(", ")),
        },
        Complaint::WrongType { expected } if path.is_empty() => {
            format!("the body must be {}{but}", api_type(expected))
        }
        Complaint::WrongType { expected } => format!("{path} must be {}{but}", api_type(expected)),
        Complaint::Other(text) if path.is_empty() => text.to_owned(),
        Complaint::Other(text) => format!("{path}: {text}"),
    }
}

/// A sent JSON value as a person would quote it back.
pub fn quote(value: &Value) -> String {
    match value {
        Value::String(s) if s.chars().count() > 40 => {
            format!("{:?}", s.chars().take(40).collect::<String>() + "…")
        }
        Value::Array(_) => "a list".to_owned(),
        Value::Object(_) => "an object".to_owned(),
        other => other.to_string(),
    }
}

fn read(message: &str) -> Complaint<'_> {
    let message = message
        .rsplit_once(" at line ")
        .map_or(message, |(text, _)| text);
    if let Some(rest) = message.strip_prefix("missing field `") {
        return Complaint::Missing(rest.trim_end_matches('`'));
    }
    if let Some(rest) = message.strip_prefix("unknown field `")
        && let Some((name, expected)) = rest.split_once('`')
    {
        return Complaint::UnknownField {
            name,
            allowed: quoted(expected),
        };
    }
    if let Some(rest) = message.strip_prefix("unknown variant `")
        && let Some((_, expected)) = rest.split_once('`')
    {
        return Complaint::NotOneOf {
            allowed: quoted(expected),
        };
    }
    if (message.starts_with("invalid type: ") || message.starts_with("invalid value: "))
        && let Some((_, expected)) = message.rsplit_once(", expected ")
    {
        return Complaint::WrongType { expected };
    }
    // What the query parser says when text is not a number or a boolean.
    match message {
        "invalid digit found in string"
        | "cannot parse integer from empty string"
        | "number too large to fit in target type"
        | "number too small to fit in target type" => Complaint::WrongType {
            expected: "integer",
        },
        "provided string was not `true` or `false`" => Complaint::WrongType {
            expected: "a boolean",
        },
        other => Complaint::Other(other),
    }
}

/// The names serde quotes in backticks: "`move` or `ply`", "one of `a`, `b`".
fn quoted(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// What a Rust type is called in the API's terms (the OpenAPI document's).
fn api_type(expected: &str) -> String {
    match expected {
        "u8" => "a whole number from 0 to 255".into(),
        "u16" => "a whole number from 0 to 65535".into(),
        "u32" => "a whole number from 0 to 4294967295".into(),
        "u64" | "usize" => "a whole number from 0 up".into(),
        "i8" | "i16" | "i32" | "i64" | "isize" | "integer" => "a whole number".into(),
        "f32" | "f64" => "a number".into(),
        "a string" | "a borrowed string" | "a character" => "a string".into(),
        "a boolean" => "true or false".into(),
        "a sequence" => "a list".into(),
        map if map == "a map" || map.starts_with("struct ") || map.contains(" enum ") => {
            "an object".into()
        }
        other => other.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_messages_become_sentences_in_api_terms() {
        let cases = [
            (
                Source::Body,
                ".",
                "missing field `ply`",
                None,
                "ply is required",
            ),
            (
                Source::Body,
                "clock",
                "missing field `seconds`",
                None,
                "clock.seconds is required",
            ),
            (
                Source::Body,
                "x",
                "unknown field `x`, expected `move` or `ply`",
                None,
                "unknown field \"x\": the body takes move, ply",
            ),
            (
                Source::Body,
                "side",
                "unknown variant `up`, expected one of `attackers`, `defenders`, `random`",
                Some("\"up\""),
                "side must be one of attackers, defenders, random, not \"up\"",
            ),
            (
                Source::Body,
                "ply",
                "invalid type: string \"x\", expected u32",
                Some("\"x\""),
                "ply must be a whole number from 0 to 4294967295, not \"x\"",
            ),
            (
                Source::Body,
                ".",
                "invalid type: sequence, expected struct NewMoveBody",
                Some("a list"),
                "the body must be an object, not a list",
            ),
            (
                Source::Query,
                "ply",
                "invalid digit found in string",
                Some("\"abc\""),
                "ply must be a whole number, not \"abc\"",
            ),
            (
                Source::Query,
                "side",
                "unknown variant `up`, expected `attackers` or `defenders`",
                Some("\"up\""),
                "side must be attackers or defenders, not \"up\"",
            ),
        ];
        for (source, path, message, sent, want) in cases {
            assert_eq!(describe(source, path, message, sent), want, "{message}");
        }
    }
}
