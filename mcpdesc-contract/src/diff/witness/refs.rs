//! Following a schema: its local `$ref`s, the schema of its items.

use serde_json::Value;

/// The schema of an array's items (`true` when they are not described).
pub(super) fn items_schema<'s>(root: &'s Value, schema: &'s Value) -> &'s Value {
    match schema.get("items") {
        Some(items) if !items.is_array() => deref(root, items),
        _ => &Value::Bool(true),
    }
}

/// Follows local `$ref`s (at most 32).
pub(super) fn deref<'s>(root: &'s Value, mut schema: &'s Value) -> &'s Value {
    for _ in 0..32 {
        let Some(target) = schema.get("$ref").and_then(Value::as_str) else {
            break;
        };
        match target.strip_prefix('#').and_then(|f| root.pointer(f)) {
            Some(next) => schema = next,
            None => break,
        }
    }
    schema
}
