//! The JSON Schema keywords the preparation walks through (subschema-valued, annotation
//! and type keywords), the walk over a schema object's direct subschemas, and the name
//! a hoisted definition is given from its pointer.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::generate::naming;
use mcpdesc_description::pointer::Pointer;

/// Keywords whose value is one subschema.
pub(super) const SINGLE: [&str; 12] = [
    "items",
    "additionalItems",
    "additionalProperties",
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
/// Keywords whose value is an array of subschemas.
pub(super) const ARRAYS: [&str; 5] = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/// Keywords whose value is a map of subschemas.
pub(super) const MAPS: [&str; 6] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];
/// Keywords that only annotate (allowed beside a `$ref` without an `allOf`).
pub(super) const ANNOTATIONS: [&str; 7] = [
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
];
/// The JSON Schema instance types.
pub(super) const TYPES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];

/// Calls `f` for every direct subschema of a schema object, with its relative pointer.
pub(super) fn for_each_child(
    map: &Map<String, Value>,
    rel: &Pointer,
    mut f: impl FnMut(&Value, Pointer),
) {
    for keyword in SINGLE {
        if let Some(child) = map.get(keyword).filter(|c| c.is_object() || c.is_boolean()) {
            f(child, rel.key(keyword));
        }
    }
    for keyword in ARRAYS {
        if let Some(Value::Array(list)) = map.get(keyword) {
            for (i, child) in list.iter().enumerate() {
                f(child, rel.key(keyword).index(i));
            }
        }
    }
    for keyword in MAPS {
        if let Some(Value::Object(children)) = map.get(keyword) {
            for (name, child) in children {
                f(child, rel.key(keyword).key(name));
            }
        }
    }
}

/// The name candidate of a hoisted definition: the root name followed by the
/// definition's key (`#/$defs/Point` → `AnalyzeGameInputPoint`), or, for a target that is
/// not under `$defs`, its last non-keyword segment.
pub(super) fn def_candidate(root_name: &str, target: &Pointer) -> String {
    let segments: Vec<String> = target.segments().collect();
    let keywords: BTreeSet<&str> = SINGLE
        .iter()
        .chain(ARRAYS.iter())
        .chain(MAPS.iter())
        .copied()
        .collect();
    let word = segments
        .iter()
        .rev()
        .find(|s| !keywords.contains(s.as_str()) && !s.bytes().all(|b| b.is_ascii_digit()))
        .cloned()
        .unwrap_or_else(|| "Def".to_owned());
    let word = naming::upper_camel(&word);
    naming::type_name(root_name, word.trim_end_matches('_'))
}
