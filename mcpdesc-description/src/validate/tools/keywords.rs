//! Members of a schema object one or two edits away from a JSON Schema keyword.

use serde_json::Value;

use crate::pointer::Pointer;
use crate::rules;
use crate::validate::cx::Cx;

/// The keywords of JSON Schema 2020-12 and draft-07 (and the annotations tools use):
/// anything else in a schema object is ignored by validators.
const KEYWORDS: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$defs",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$vocabulary",
    "$comment",
    "$recursiveRef",
    "$recursiveAnchor",
    "definitions",
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "unevaluatedProperties",
    "items",
    "prefixItems",
    "additionalItems",
    "unevaluatedItems",
    "contains",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependencies",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
];

/// Warns about members of a schema object that are no keyword but one or two edits away
/// from one (`requried`, `propeties`, `additionalProperty`): JSON Schema ignores unknown
/// keywords, so such a typo silently changes the contract (every field optional).
/// Only objects that are schemas are looked at (never the member names of
/// `properties`), and only those beside `type`, `properties` or `required`.
pub(super) fn misspelled_keywords(cx: &mut Cx<'_>, at: &Pointer, schema: &Value) {
    let Some(map) = schema.as_object() else {
        return;
    };
    if ["type", "properties", "required"]
        .iter()
        .any(|k| map.contains_key(*k))
    {
        for key in map.keys() {
            if key.len() < 4 || KEYWORDS.contains(&key.as_str()) || key.starts_with("x-") {
                continue;
            }
            let nearest = KEYWORDS
                .iter()
                .map(|k| (strsim::damerau_levenshtein(key, k), *k))
                .min();
            if let Some((_, keyword)) = nearest.filter(|(d, _)| *d <= 2) {
                cx.warning(
                    rules::TOOL_SCHEMA_VALID,
                    "misspelled-schema-keyword",
                    &at.key(key),
                    format!(
                        "{key:?} is not a JSON Schema keyword (did you mean {keyword:?}?): validators ignore it, so it has no effect"
                    ),
                );
            }
        }
    }
    for keyword in [
        "properties",
        "patternProperties",
        "$defs",
        "definitions",
        "dependentSchemas",
    ] {
        if let Some(Value::Object(children)) = map.get(keyword) {
            for (name, child) in children {
                misspelled_keywords(cx, &at.key(keyword).key(name), child);
            }
        }
    }
    for keyword in [
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
    ] {
        if let Some(child @ Value::Object(_)) = map.get(keyword) {
            misspelled_keywords(cx, &at.key(keyword), child);
        }
    }
    for keyword in ["allOf", "anyOf", "oneOf", "prefixItems", "items"] {
        if let Some(Value::Array(list)) = map.get(keyword) {
            for (i, child) in list.iter().enumerate() {
                misspelled_keywords(cx, &at.key(keyword).index(i), child);
            }
        }
    }
}

#[cfg(test)]
#[path = "../tests/keywords.rs"]
mod misspelling_tests;
