//! A `$componentRef` inside a schema: MCP Description §3.2 makes a Reference Object of a
//! whole schema only (`inputSchema`, `outputSchema`, a component), so inside a schema
//! the member is not a reference and JSON Schema ignores it: that subschema allows any
//! value. A warning says so where the author wrote it, before any build does.

use serde_json::Value;

use crate::pointer::Pointer;
use crate::rules;
use crate::validate::cx::Cx;

/// Keywords whose value is one subschema.
const SINGLE: [&str; 12] = [
    "items",
    "additionalProperties",
    "additionalItems",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
];
/// Keywords whose value is a map of subschemas.
const MAPS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
/// Keywords whose value is an array of subschemas.
const ARRAYS: [&str; 5] = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/// Warns at every `$componentRef` below the root of the schema at `at`.
pub(super) fn component_refs_inside(cx: &mut Cx<'_>, at: &Pointer, schema: &Value) {
    walk(cx, at, schema, true);
}

fn walk(cx: &mut Cx<'_>, at: &Pointer, schema: &Value, root: bool) {
    let Some(map) = schema.as_object() else {
        return;
    };
    if !root {
        if let Some(target) = map.get("$componentRef") {
            let target = target.as_str().unwrap_or("...");
            cx.warning(
                rules::COMPONENTS_REFERENCES,
                "component-reference-inside-schema",
                &at.key("$componentRef"),
                format!(
                    "`$componentRef` ({target:?}) inside a schema is not a component reference: only a whole `inputSchema`, `outputSchema` or component schema can be one (§3.2), so JSON Schema ignores the member and this subschema allows any value; inside a schema use `$ref` to `$defs`"
                ),
            );
        }
    }
    for keyword in MAPS {
        if let Some(Value::Object(children)) = map.get(keyword) {
            for (name, child) in children {
                walk(cx, &at.key(keyword).key(name), child, false);
            }
        }
    }
    for keyword in SINGLE {
        if let Some(child @ Value::Object(_)) = map.get(keyword) {
            walk(cx, &at.key(keyword), child, false);
        }
    }
    for keyword in ARRAYS {
        if let Some(Value::Array(list)) = map.get(keyword) {
            for (i, child) in list.iter().enumerate() {
                walk(cx, &at.key(keyword).index(i), child, false);
            }
        }
    }
}

#[cfg(test)]
#[path = "../tests/nested_refs.rs"]
mod tests;
