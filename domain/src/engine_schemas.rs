//! OpenAPI schemas of the engine's types that the service shows on the wire. The engine is pure
//! and knows nothing of HTTP, so its `Side` and `WarningKind` are described here, and fields of
//! those types name these with `#[schema(value_type = ...)]`. A test holds them to the engine's
//! own serde names.

use utoipa::ToSchema;

/// `tafl_engine::Side` on the wire.
#[derive(ToSchema)]
#[schema(as = Side, rename_all = "lowercase")]
#[allow(dead_code)] // only its schema is used
pub enum SideSchema {
    Attackers,
    Defenders,
}

/// `tafl_engine::WarningKind` on the wire: raichi, one open path to a winning square; tuichu,
/// two or more.
#[derive(ToSchema)]
#[schema(as = WarningKind, rename_all = "lowercase")]
#[allow(dead_code)] // only its schema is used
pub enum WarningKindSchema {
    Raichi,
    Tuichu,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use serde_json::{Value, json};
    use tafl_engine::{Side, WarningKind};
    use utoipa::PartialSchema;

    use super::*;

    fn listed(schema: impl serde::Serialize) -> Value {
        serde_json::to_value(schema).unwrap()["enum"].clone()
    }

    #[test]
    fn the_schemas_list_exactly_the_engines_wire_names() {
        let sides: Vec<Value> = Side::BOTH.iter().map(|s| json!(s)).collect();
        assert_eq!(listed(SideSchema::schema()), Value::Array(sides));
        let kinds = vec![json!(WarningKind::Raichi), json!(WarningKind::Tuichu)];
        assert_eq!(listed(WarningKindSchema::schema()), Value::Array(kinds));
    }
}
