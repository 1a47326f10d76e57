//! Schemas whose meaning does not depend on a JSON Schema dialect.
//!
//! Before MCP 2025-11-25 a Tool schema has no defined dialect, and §9.1 asks validators to
//! enforce what they can interpret "without inventing an embedded-schema dialect" and to
//! warn only when complete validation is impossible. A schema built only from keywords
//! that every draft from draft-04 to 2020-12 defines identically (`type`, `properties`,
//! `required`, `enum`, numeric and length bounds, `pattern`, the combinators, object-form
//! `items`, annotations) can be evaluated completely: any dialect gives the same verdict,
//! so examples are checked in full and no incomplete-validation warning is due.
//!
//! Deliberately left out, because drafts disagree on them: `exclusiveMinimum` /
//! `exclusiveMaximum` (booleans in draft-04), array-form `items` and `additionalItems`
//! (tuples changed in 2020-12), `$ref` (siblings ignored before 2019-09), `$defs` /
//! `definitions`, `$id` / `id`, `const`, `contains`, `propertyNames`, `if`/`then`/`else`,
//! `dependencies`, `format` (an assertion in some drafts and validators, an annotation
//! in others), and anything unknown.
//!
//! One decision: `type: "integer"` counts as portable. Draft-04 alone reads `1.0` as not
//! an integer; every draft since draft-06 (2017) reads it as one, and so does this check.

use serde_json::Value;

/// Keywords that only annotate: they never change a verdict.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
];

/// Assertions with one meaning in every draft, whose value is not a subschema.
const PLAIN_ASSERTIONS: &[&str] = &[
    "type",
    "required",
    "enum",
    "minimum",
    "maximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
];

/// Whether every keyword of `schema`, at every depth, means the same in every draft.
pub fn is_portable(schema: &Value) -> bool {
    let Some(object) = schema.as_object() else {
        // `true`/`false` schemas are draft-06+, and anything else is malformed.
        return false;
    };
    object
        .iter()
        .all(|(keyword, value)| match keyword.as_str() {
            k if ANNOTATIONS.contains(&k) => true,
            "type" => {
                value.is_string()
                    || value
                        .as_array()
                        .is_some_and(|names| names.iter().all(Value::is_string))
            }
            "minimum" | "maximum" | "multipleOf" => value.is_number(),
            k if PLAIN_ASSERTIONS.contains(&k) => true,
            "properties" | "patternProperties" => value
                .as_object()
                .is_some_and(|members| members.values().all(is_portable)),
            // draft-04 allows a boolean here too, with the same meaning everywhere.
            "additionalProperties" => value.is_boolean() || is_portable(value),
            // Only the single-schema form: the array form changed meaning in 2020-12.
            "items" => value.is_object() && is_portable(value),
            "allOf" | "anyOf" | "oneOf" => value
                .as_array()
                .is_some_and(|schemas| !schemas.is_empty() && schemas.iter().all(is_portable)),
            "not" => is_portable(value),
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use super::is_portable;
    use serde_json::json;

    #[test]
    fn shapes_bounds_and_annotations_are_portable() {
        assert!(is_portable(&json!({
            "type": "object",
            "description": "Game",
            "properties": {
                "pgn": {"type": "string", "minLength": 1},
                "depth": {"type": "integer", "minimum": 1, "maximum": 40},
                "tags": {"type": "array", "items": {"enum": ["a", "b"]}, "uniqueItems": true}
            },
            "required": ["pgn"],
            "additionalProperties": false
        })));
    }

    #[test]
    fn keywords_the_drafts_disagree_on_are_not() {
        for schema in [
            json!({"type": 7}),
            json!({"type": "number", "exclusiveMinimum": true}),
            json!({"items": [{"type": "string"}]}),
            json!({"$ref": "#/definitions/a"}),
            json!({"const": 1}),
            json!({"type": "string", "format": "date"}),
            json!({"properties": {"a": {"if": {}}}}),
            json!(true),
        ] {
            assert!(!is_portable(&schema), "{schema}");
        }
    }
}
