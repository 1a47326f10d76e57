//! The JSON Schema dialect a schema is read in, from its root `$schema`.

use serde_json::Value;

/// The JSON Schema dialect a schema is read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// Draft-07, when the root `$schema` names it.
    Draft7,
    /// JSON Schema 2020-12, the MCP default.
    Draft202012,
}

/// A copy of `schema` without its root `$schema`, and the dialect that named.
pub(crate) fn without_dialect(schema: &Value) -> (Value, Dialect) {
    let mut copy = schema.clone();
    let mut dialect = Dialect::Draft202012;
    if let Some(map) = copy.as_object_mut() {
        if let Some(Value::String(uri)) = map.remove("$schema") {
            if uri.contains("json-schema.org/draft-07/schema") {
                dialect = Dialect::Draft7;
            }
        }
    }
    (copy, dialect)
}
