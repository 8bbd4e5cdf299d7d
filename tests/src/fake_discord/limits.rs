//! The limits Discord enforces on what a bot sends that its API description leaves out (or states
//! more loosely), checked as Discord checks them and refused as it refuses them: 400 50035
//! "Invalid Form Body" with the nested `errors` tree.

use serde_json::{Map, Value, json};

/// Message content, for bots (the description says 4,000, which is the limit for some users).
pub const CONTENT_MAX_CHARS: usize = 2000;
pub const AUTOCOMPLETE_MAX_CHOICES: usize = 25;
/// An autocomplete choice's name, and a string choice's value.
pub const CHOICE_TEXT_MAX_CHARS: usize = 100;
pub const CUSTOM_ID_MAX_CHARS: usize = 100;
/// Action rows under one message.
pub const ACTION_ROWS_MAX: usize = 5;
/// Buttons in one action row (a select menu fills a row alone).
pub const ROW_COMPONENTS_MAX: usize = 5;
/// Options of a string select menu: at least 1, at most 25.
pub const SELECT_OPTIONS_MAX: usize = 25;
/// A select option's label, value and description.
pub const SELECT_OPTION_TEXT_MAX_CHARS: usize = 100;
/// A button's label.
pub const BUTTON_LABEL_MAX_CHARS: usize = 80;
pub const EMBEDS_MAX: usize = 10;
pub const EMBED_TITLE_MAX_CHARS: usize = 256;
pub const EMBED_DESCRIPTION_MAX_CHARS: usize = 4096;
pub const EMBED_FIELDS_MAX: usize = 25;
pub const EMBED_FIELD_NAME_MAX_CHARS: usize = 256;
pub const EMBED_FIELD_VALUE_MAX_CHARS: usize = 1024;
pub const EMBED_FOOTER_TEXT_MAX_CHARS: usize = 2048;
pub const EMBED_AUTHOR_NAME_MAX_CHARS: usize = 256;
/// Titles, descriptions, field names and values, footer texts and author names of all the
/// embeds of one message together.
pub const EMBEDS_TOTAL_MAX_CHARS: usize = 6000;

/// One field that breaks a limit: where (`["data", "embeds", "0", "title"]`), Discord's error
/// code for it, and its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub path: Vec<String>,
    pub code: &'static str,
    pub message: String,
}

impl FieldError {
    fn too_long(path: Vec<String>, max: usize) -> FieldError {
        FieldError {
            path,
            code: "BASE_TYPE_MAX_LENGTH",
            message: format!("Must be {max} or fewer in length."),
        }
    }

    fn too_short(path: Vec<String>, min: usize) -> FieldError {
        FieldError {
            path,
            code: "BASE_TYPE_MIN_LENGTH",
            message: format!("Must be {min} or more in length."),
        }
    }

    /// `data.embeds.0.title`, as a problem report names the field.
    pub fn dotted_path(&self) -> String {
        self.path.join(".")
    }
}

/// Discord's nested error tree for `errors`: `{"content": {"_errors": [{code, message}]}}`.
pub fn error_tree(errors: &[FieldError]) -> Value {
    let mut root = Value::Object(Map::new());
    for error in errors {
        insert(&mut root, &error.path, error);
    }
    root
}

fn insert(node: &mut Value, path: &[String], error: &FieldError) {
    let Value::Object(map) = node else { return };
    match path.split_first() {
        Some((first, rest)) => insert(
            map.entry(first.clone())
                .or_insert_with(|| Value::Object(Map::new())),
            rest,
            error,
        ),
        None => {
            if let Value::Array(list) = map
                .entry("_errors")
                .or_insert_with(|| Value::Array(Vec::new()))
            {
                list.push(json!({ "code": error.code, "message": error.message }));
            }
        }
    }
}

fn chars(value: Option<&Value>) -> usize {
    value
        .and_then(Value::as_str)
        .map_or(0, |s| s.chars().count())
}

fn at(prefix: &[String], rest: &[&str]) -> Vec<String> {
    prefix
        .iter()
        .cloned()
        .chain(rest.iter().map(|s| (*s).to_owned()))
        .collect()
}

/// The limits of a message payload (create or edit, in a channel or through a webhook or an
/// interaction callback's `data`), its fields under `prefix`.
pub fn message_limits(payload: &Value, prefix: &[String]) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if chars(payload.get("content")) > CONTENT_MAX_CHARS {
        errors.push(FieldError::too_long(
            at(prefix, &["content"]),
            CONTENT_MAX_CHARS,
        ));
    }
    if let Some(embeds) = payload.get("embeds").and_then(Value::as_array) {
        errors.extend(embed_limits(embeds, &at(prefix, &["embeds"])));
    }
    if let Some(components) = payload.get("components") {
        custom_id_limits(components, &at(prefix, &["components"]), &mut errors);
        if let Some(rows) = components.as_array() {
            errors.extend(layout_limits(rows, &at(prefix, &["components"])));
        }
    }
    errors
}

/// The layout of classic components (type 1 action rows): at most 5 rows, at most 5 buttons
/// in a row or one select menu alone, 1 to 25 options per select, and the lengths of labels,
/// values and descriptions.
fn layout_limits(rows: &[Value], prefix: &[String]) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if rows.len() > ACTION_ROWS_MAX {
        errors.push(FieldError::too_long(prefix.to_vec(), ACTION_ROWS_MAX));
    }
    for (i, row) in rows.iter().enumerate() {
        if row.get("type").and_then(Value::as_u64) != Some(1) {
            continue;
        }
        let here = at(prefix, &[&i.to_string(), "components"]);
        let children = row
            .get("components")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let selects = children
            .iter()
            .filter(|c| c.get("type").and_then(Value::as_u64) != Some(2))
            .count();
        if children.len() > ROW_COMPONENTS_MAX || (selects > 0 && children.len() > 1) {
            errors.push(FieldError {
                path: here.clone(),
                code: "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                message: "The specified component exceeds the maximum width".to_owned(),
            });
        }
        for (j, child) in children.iter().enumerate() {
            let spot = at(&here, &[&j.to_string()]);
            if chars(child.get("label")) > BUTTON_LABEL_MAX_CHARS {
                errors.push(FieldError::too_long(
                    at(&spot, &["label"]),
                    BUTTON_LABEL_MAX_CHARS,
                ));
            }
            if child.get("type").and_then(Value::as_u64) == Some(3) {
                errors.extend(select_limits(child, &spot));
            }
        }
    }
    errors
}

fn select_limits(select: &Value, prefix: &[String]) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let options = select
        .get("options")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let path = at(prefix, &["options"]);
    if options.is_empty() {
        errors.push(FieldError::too_short(path.clone(), 1));
    }
    if options.len() > SELECT_OPTIONS_MAX {
        errors.push(FieldError::too_long(path.clone(), SELECT_OPTIONS_MAX));
    }
    for (k, option) in options.iter().enumerate() {
        for field in ["label", "value", "description"] {
            if chars(option.get(field)) > SELECT_OPTION_TEXT_MAX_CHARS {
                errors.push(FieldError::too_long(
                    at(&path, &[&k.to_string(), field]),
                    SELECT_OPTION_TEXT_MAX_CHARS,
                ));
            }
        }
    }
    errors
}

fn embed_limits(embeds: &[Value], prefix: &[String]) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if embeds.len() > EMBEDS_MAX {
        errors.push(FieldError::too_long(prefix.to_vec(), EMBEDS_MAX));
    }
    let mut total = 0;
    for (i, embed) in embeds.iter().enumerate() {
        let here = at(prefix, &[&i.to_string()]);
        let mut limit = |value: Option<&Value>, path: &[&str], max: usize| {
            let n = chars(value);
            total += n;
            if n > max {
                errors.push(FieldError::too_long(at(&here, path), max));
            }
        };
        limit(embed.get("title"), &["title"], EMBED_TITLE_MAX_CHARS);
        limit(
            embed.get("description"),
            &["description"],
            EMBED_DESCRIPTION_MAX_CHARS,
        );
        limit(
            embed.pointer("/footer/text"),
            &["footer", "text"],
            EMBED_FOOTER_TEXT_MAX_CHARS,
        );
        limit(
            embed.pointer("/author/name"),
            &["author", "name"],
            EMBED_AUTHOR_NAME_MAX_CHARS,
        );
        let fields = embed
            .get("fields")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        for (j, field) in fields.iter().enumerate() {
            let j = j.to_string();
            limit(
                field.get("name"),
                &["fields", &j, "name"],
                EMBED_FIELD_NAME_MAX_CHARS,
            );
            limit(
                field.get("value"),
                &["fields", &j, "value"],
                EMBED_FIELD_VALUE_MAX_CHARS,
            );
        }
        if fields.len() > EMBED_FIELDS_MAX {
            errors.push(FieldError::too_long(
                at(&here, &["fields"]),
                EMBED_FIELDS_MAX,
            ));
        }
    }
    if total > EMBEDS_TOTAL_MAX_CHARS {
        errors.push(FieldError {
            path: prefix.to_vec(),
            code: "MAX_EMBED_SIZE_EXCEEDED",
            message: format!("Embed size exceeds maximum size of {EMBEDS_TOTAL_MAX_CHARS}"),
        });
    }
    errors
}

/// Every `custom_id` in a component tree (rows, containers, sections, modal inputs).
fn custom_id_limits(value: &Value, path: &[String], errors: &mut Vec<FieldError>) {
    match value {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                custom_id_limits(item, &at(path, &[&i.to_string()]), errors);
            }
        }
        Value::Object(map) => {
            for (key, child) in map {
                let here = at(path, &[key]);
                if key == "custom_id" && chars(Some(child)) > CUSTOM_ID_MAX_CHARS {
                    errors.push(FieldError::too_long(here, CUSTOM_ID_MAX_CHARS));
                } else if child.is_object() || child.is_array() {
                    custom_id_limits(child, &here, errors);
                }
            }
        }
        _ => {}
    }
}

/// The limits of an interaction callback: a message (types 4 and 7), autocomplete choices
/// (type 8), a modal (type 9).
/// Autocomplete choices: at most 25, each name (and a string value) at most 100 characters.
/// One choice too long refuses the whole answer, and the user sees no suggestion at all.
fn choice_limits(data: &Value, prefix: &[String]) -> Vec<FieldError> {
    let choices = data
        .get("choices")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut errors = Vec::new();
    if choices.len() > AUTOCOMPLETE_MAX_CHOICES {
        errors.push(FieldError::too_long(
            at(prefix, &["choices"]),
            AUTOCOMPLETE_MAX_CHOICES,
        ));
    }
    for (i, choice) in choices.iter().enumerate() {
        let index = i.to_string();
        for field in ["name", "value"] {
            let long = choice
                .get(field)
                .and_then(Value::as_str)
                .is_some_and(|text| text.chars().count() > CHOICE_TEXT_MAX_CHARS);
            if long {
                errors.push(FieldError::too_long(
                    at(prefix, &["choices", &index, field]),
                    CHOICE_TEXT_MAX_CHARS,
                ));
            }
        }
    }
    errors
}

pub fn callback_limits(body: &Value) -> Vec<FieldError> {
    let data_prefix = ["data".to_owned()];
    let Some(data) = body.get("data").filter(|d| d.is_object()) else {
        return Vec::new();
    };
    match body.get("type").and_then(Value::as_u64) {
        Some(4 | 7) => message_limits(data, &data_prefix),
        Some(8) => choice_limits(data, &data_prefix),
        Some(9) => {
            let mut errors = Vec::new();
            custom_id_limits(data, &data_prefix, &mut errors);
            errors
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_nest_as_discord_nests_them() {
        let long = "x".repeat(CONTENT_MAX_CHARS + 1);
        let errors = message_limits(&json!({ "content": long }), &["data".to_owned()]);
        assert_eq!(
            error_tree(&errors),
            json!({ "data": { "content": { "_errors": [
                { "code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length." }
            ] } } })
        );
    }

    #[test]
    fn component_layouts_are_held_to_discords_widths_and_counts() {
        let button =
            |i: usize| json!({"type": 2, "style": 1, "label": "b", "custom_id": format!("b{i}")});
        let row =
            |n: usize| json!({"type": 1, "components": (0..n).map(button).collect::<Vec<_>>()});
        let fine = json!({"components": [row(5), row(1)]});
        assert!(message_limits(&fine, &[]).is_empty());
        let wide = json!({"components": [row(6)]});
        assert_eq!(
            message_limits(&wide, &[])[0].code,
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED"
        );
        let tall = json!({"components": (0..6).map(|_| row(1)).collect::<Vec<_>>()});
        assert_eq!(message_limits(&tall, &[])[0].dotted_path(), "components");
        let option = |i: usize| json!({"label": format!("o{i}"), "value": format!("o{i}")});
        let select = |n: usize| {
            json!({"type": 1, "components": [
                {"type": 3, "custom_id": "s", "options": (0..n).map(option).collect::<Vec<_>>()}
            ]})
        };
        assert!(message_limits(&json!({"components": [select(25)]}), &[]).is_empty());
        let many = message_limits(&json!({"components": [select(26)]}), &[]);
        assert_eq!(many[0].dotted_path(), "components.0.components.0.options");
        let none = message_limits(&json!({"components": [select(0)]}), &[]);
        assert_eq!(none[0].code, "BASE_TYPE_MIN_LENGTH");
        let long = json!({"components": [{"type": 1, "components": [
            {"type": 3, "custom_id": "s", "options": [{"label": "x".repeat(101), "value": "v"}]}
        ]}]});
        assert_eq!(
            message_limits(&long, &[])[0].dotted_path(),
            "components.0.components.0.options.0.label"
        );
        let crowded = json!({"components": [{"type": 1, "components": [
            button(1), {"type": 3, "custom_id": "s", "options": [option(1)]}
        ]}]});
        assert_eq!(
            message_limits(&crowded, &[])[0].code,
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED"
        );
    }

    #[test]
    fn embeds_count_together() {
        let embed = json!({ "description": "d".repeat(4000) });
        let errors = message_limits(&json!({ "embeds": [embed.clone(), embed] }), &[]);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].code, "MAX_EMBED_SIZE_EXCEEDED");
    }
}
