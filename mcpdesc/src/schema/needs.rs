//! Which schemas the built-in validator checks and which need the full one.
//!
//! The built-in validator (`builtin/`) knows the keywords that describe shapes
//! (types, members, items, lengths, bounds, enumerations, combinations and local
//! `$ref`s). A schema that uses any other assertion or applicator keyword anywhere
//! needs `jsonschema` (feature `full-validation`): regular expressions (`pattern`,
//! `patternProperties`, `propertyNames`), keywords whose meaning depends on what was
//! evaluated (`unevaluated*`, `if`/`then`/`else`, `contains`, `prefixItems`,
//! `dependent*`), exact decimal arithmetic (`multipleOf`), and references that are
//! not a plain local pointer. Keywords no dialect defines are ignored by both
//! validators, as JSON Schema asks.
//!
//! The generator keeps a copy of this list (`mcpdesc-codegen`,
//! `generate/validation.rs`) to name at compile time the tools that need the
//! feature; `tests/tests/validation_needs.rs` keeps the two in agreement.

use serde_json::Value;

use super::dialect::Dialect;

/// Keywords only the full validator checks, in either dialect.
const FULL_ONLY: &[&str] = &[
    "pattern",
    "patternProperties",
    "propertyNames",
    "multipleOf",
    "if",
    "then",
    "else",
    "contains",
    "minContains",
    "maxContains",
    "prefixItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "additionalItems",
    "$id",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
];

/// Keywords that are annotations in JSON Schema 2020-12 but assertions in draft-07
/// (`jsonschema` checks them there by default).
const DRAFT7_ASSERTIONS: &[&str] = &["format", "contentMediaType", "contentEncoding"];

/// Keywords whose value is one subschema.
pub(super) const ONE_SUBSCHEMA: &[&str] = &["additionalProperties", "items", "not"];
/// Keywords whose value is an array of subschemas.
pub(super) const SUBSCHEMA_LISTS: &[&str] = &["allOf", "anyOf", "oneOf"];
/// Keywords whose value maps names to subschemas.
pub(super) const SUBSCHEMA_MAPS: &[&str] = &["properties", "$defs", "definitions"];

/// The first keyword of `schema` (depth first, in document order) that only the full
/// validator checks, as `` `pointer`: `keyword` `` (the root pointer shown as `/`);
/// `None` when the built-in validator checks the whole schema.
pub(crate) fn full_validator_keyword(schema: &Value, dialect: Dialect) -> Option<String> {
    let mut pointer = String::new();
    walk(schema, dialect, &mut pointer)
}

fn walk(schema: &Value, dialect: Dialect, pointer: &mut String) -> Option<String> {
    let Value::Object(map) = schema else {
        return None;
    };
    let at = |pointer: &str, keyword: &str| {
        let shown = if pointer.is_empty() { "/" } else { pointer };
        Some(format!("`{shown}`: `{keyword}`"))
    };
    for (keyword, value) in map {
        let keyword = keyword.as_str();
        if FULL_ONLY.contains(&keyword)
            || (dialect == Dialect::Draft7 && DRAFT7_ASSERTIONS.contains(&keyword))
        {
            return at(pointer, keyword);
        }
        if keyword == "$ref" && !plain_local_ref(value, dialect, map.len()) {
            return at(pointer, keyword);
        }
        // Draft-07 `items` may be a list of schemas (tuple validation).
        if keyword == "items" && value.is_array() {
            return at(pointer, keyword);
        }
        let len = pointer.len();
        let found = if ONE_SUBSCHEMA.contains(&keyword) {
            push(pointer, keyword);
            walk(value, dialect, pointer)
        } else if SUBSCHEMA_LISTS.contains(&keyword) {
            value.as_array().and_then(|list| {
                list.iter().enumerate().find_map(|(i, sub)| {
                    let len = pointer.len();
                    push(pointer, keyword);
                    push(pointer, &i.to_string());
                    let found = walk(sub, dialect, pointer);
                    pointer.truncate(len);
                    found
                })
            })
        } else if SUBSCHEMA_MAPS.contains(&keyword) {
            value.as_object().and_then(|members| {
                members.iter().find_map(|(name, sub)| {
                    let len = pointer.len();
                    push(pointer, keyword);
                    push(pointer, name);
                    let found = walk(sub, dialect, pointer);
                    pointer.truncate(len);
                    found
                })
            })
        } else {
            None
        };
        pointer.truncate(len);
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A `$ref` the built-in validator follows: `#` or `#/…` with no percent-encoding,
/// and in draft-07 (where `$ref` hides its siblings) alone in its schema.
fn plain_local_ref(value: &Value, dialect: Dialect, members: usize) -> bool {
    let Some(text) = value.as_str() else {
        return false;
    };
    let local = text == "#" || (text.starts_with("#/") && !text.contains('%'));
    local && (dialect == Dialect::Draft202012 || members == 1)
}

/// Appends one escaped JSON Pointer segment.
pub(super) fn push(pointer: &mut String, segment: &str) {
    pointer.push('/');
    pointer.push_str(&segment.replace('~', "~0").replace('/', "~1"));
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn need(schema: Value) -> Option<String> {
        full_validator_keyword(&schema, Dialect::Draft202012)
    }

    #[test]
    fn shapes_need_nothing_more() {
        let schema = json!({
            "type": "object",
            "properties": {
                "pattern": {"type": "string", "format": "email", "maxLength": 3},
                "tags": {"type": "array", "items": {"enum": ["a", "b"]}},
                "pick": {"anyOf": [{"$ref": "#/$defs/one"}, {"type": "null"}]}
            },
            "$defs": {"one": {"const": 1}},
            "required": ["pattern"],
            "additionalProperties": false,
            "x-vendor": {"pattern": "ignored"}
        });
        assert_eq!(need(schema), None);
    }

    #[test]
    fn regexes_and_evaluation_keywords_name_their_place() {
        let schema = json!({
            "type": "object",
            "properties": {"code": {"type": "string", "pattern": "^[A-Z]{3}$"}}
        });
        assert_eq!(
            need(schema).as_deref(),
            Some("`/properties/code`: `pattern`")
        );
        assert_eq!(
            need(json!({"anyOf": [{}, {"if": {}}]})).as_deref(),
            Some("`/anyOf/1`: `if`")
        );
        assert_eq!(
            need(json!({"$ref": "https://example.invalid/s.json"})).as_deref(),
            Some("`/`: `$ref`")
        );
        assert_eq!(
            need(json!({"properties": {"a/b": {"multipleOf": 2}}})).as_deref(),
            Some("`/properties/a~1b`: `multipleOf`")
        );
    }

    #[test]
    fn draft7_asserts_formats_and_hides_ref_siblings() {
        let formatted = json!({"type": "string", "format": "date"});
        assert_eq!(
            full_validator_keyword(&formatted, Dialect::Draft7).as_deref(),
            Some("`/`: `format`")
        );
        let sibling = json!({"$ref": "#/definitions/a", "type": "string"});
        assert!(full_validator_keyword(&sibling, Dialect::Draft7).is_some());
        assert!(full_validator_keyword(&sibling, Dialect::Draft202012).is_none());
        let tuple = json!({"items": [{"type": "string"}]});
        assert!(full_validator_keyword(&tuple, Dialect::Draft7).is_some());
    }
}
