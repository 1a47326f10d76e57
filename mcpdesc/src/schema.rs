//! Compiling the tool schemas of a declaration and reporting violations by JSON pointer.

use jsonschema::{Draft, Validator};
use serde_json::Value;

/// At most this many violations are listed in one error message; enough to fix a call,
/// small enough to keep a hostile argument from producing a huge answer.
pub(crate) const MAX_VIOLATIONS: usize = 20;

/// Compiles `schema` for instance validation, without network or file access (the
/// `jsonschema` dependency is built without resolvers).
///
/// The dialect comes from the root `$schema` (draft-07 when it names draft-07, JSON
/// Schema 2020-12 otherwise, the MCP default). The root `$schema` is removed from the
/// compiled copy because `jsonschema` would otherwise try to look up spellings it does
/// not know (`https://…/draft-07/schema`) as remote meta-schemas. A boolean schema is
/// compiled as itself.
pub(crate) fn compile(schema: &Value) -> Result<Validator, String> {
    let mut copy = schema.clone();
    let mut draft = Draft::Draft202012;
    if let Some(map) = copy.as_object_mut() {
        if let Some(Value::String(uri)) = map.remove("$schema") {
            if uri.contains("json-schema.org/draft-07/schema") {
                draft = Draft::Draft7;
            }
        }
    }
    jsonschema::options()
        .with_draft(draft)
        .build(&copy)
        .map_err(|e| e.to_string())
}

/// Compiles a tool schema of a tool whose scope has only protocol versions before MCP
/// 2025-11-25, which define no embedded-schema dialect (MCP Description §9.2: "only
/// `properties` and `required` are checked, other keywords are preserved").
///
/// The schema is first compiled as [`compile`] does; when that fails (a keyword that is
/// valid in some older draft, such as `"exclusiveMinimum": true`, is not valid JSON
/// Schema 2020-12), only the shape those versions define is enforced: an object with
/// the `required` members. The declaration itself, listed by `tools/list`, keeps every
/// keyword.
pub(crate) fn compile_legacy(schema: &Value) -> Result<Validator, String> {
    compile(schema).or_else(|strict| {
        let mut shape = serde_json::Map::new();
        shape.insert("type".into(), Value::String("object".into()));
        if let Some(required) = schema.get("required").filter(|r| r.is_array()) {
            shape.insert("required".into(), required.clone());
        }
        compile(&Value::Object(shape)).map_err(|_| strict)
    })
}

/// The violations of `instance` as (JSON pointer, message) pairs, at most
/// [`MAX_VIOLATIONS`] + 1 (one more than are listed, so that a caller can tell the
/// list was cut). The root is the empty pointer.
pub(crate) fn violation_pairs(validator: &Validator, instance: &Value) -> Vec<(String, String)> {
    // Most instances are valid: `is_valid` stops at the first failure and builds no
    // error values, which `iter_errors` does for every keyword it visits.
    if validator.is_valid(instance) {
        return Vec::new();
    }
    validator
        .iter_errors(instance)
        .take(MAX_VIOLATIONS + 1)
        .map(|e| (e.instance_path().as_str().to_owned(), e.to_string()))
        .collect()
}

/// The violations of `instance`, one line each: `` `pointer`: message ``, the root shown
/// as `` `/` ``, followed by a note when the list was cut.
pub(crate) fn violations(validator: &Validator, instance: &Value) -> Vec<String> {
    let mut lines: Vec<String> = violation_pairs(validator, instance)
        .into_iter()
        .map(|(path, message)| {
            let at = if path.is_empty() {
                "/".to_owned()
            } else {
                path
            };
            format!("`{at}`: {message}")
        })
        .collect();
    if lines.len() > MAX_VIOLATIONS {
        lines.truncate(MAX_VIOLATIONS);
        lines.push(format!(
            "(only the first {MAX_VIOLATIONS} problems are listed)"
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointers_name_each_violation() {
        let v = compile(&json!({
            "type": "object",
            "properties": {"depth": {"type": "integer", "maximum": 40}, "pgn": {"type": "string"}},
            "required": ["pgn"]
        }))
        .unwrap();
        let lines = violations(&v, &json!({"depth": 50}));
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines
            .iter()
            .any(|l| l.starts_with("`/depth`: ") && l.contains("40")));
        assert!(lines
            .iter()
            .any(|l| l.starts_with("`/`: ") && l.contains("pgn")));
        assert!(violations(&v, &json!({"pgn": "1. e4"})).is_empty());
    }

    #[test]
    fn a_legacy_schema_keeps_its_object_shape_and_required_members() {
        let legacy = json!({
            "type": "object",
            "properties": {"value": {"type": "number", "exclusiveMinimum": true}},
            "required": ["value"]
        });
        assert!(compile(&legacy).is_err(), "not JSON Schema 2020-12");
        let v = compile_legacy(&legacy).unwrap();
        assert!(violations(&v, &json!({"value": 1})).is_empty());
        let missing = violations(&v, &json!({}));
        assert!(
            missing.len() == 1 && missing[0].contains("value"),
            "{missing:?}"
        );
        assert!(!violations(&v, &json!([1])).is_empty());
        // A schema that compiles keeps its full meaning.
        let strict = compile_legacy(&json!({"type": "object", "maxProperties": 0})).unwrap();
        assert!(!violations(&strict, &json!({"a": 1})).is_empty());
    }

    #[test]
    fn dialects_and_bad_schemas() {
        let draft7 = compile(
            &json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}),
        )
        .unwrap();
        assert!(draft7.is_valid(&json!({})));
        let https = compile(
            &json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}),
        )
        .unwrap();
        assert!(!https.is_valid(&json!(1)));
        assert!(compile(&json!({"type": 12})).is_err());
        assert!(compile(&json!({"$ref": "https://example.invalid/remote.json"})).is_err());
    }

    #[test]
    fn long_lists_are_cut() {
        let v = compile(&json!({"type": "array", "items": {"type": "string"}})).unwrap();
        let lines = violations(&v, &json!((0..50).collect::<Vec<_>>()));
        assert_eq!(lines.len(), MAX_VIOLATIONS + 1);
        assert!(lines.last().unwrap().starts_with("(only the first"));
    }
}
