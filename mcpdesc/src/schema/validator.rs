//! Compiling the tool schemas of a declaration ([`compile`], [`compile_legacy`]) and
//! reporting violations by JSON pointer: with the built-in validator when it checks
//! every keyword of the schema, else with `jsonschema` (feature `full-validation`).

use serde_json::Value;

use super::builtin::schema::Schema;
use super::dialect::{without_dialect, Dialect};
use super::needs::full_validator_keyword;

/// At most this many violations are listed in one error message; enough to fix a call,
/// small enough to keep a hostile argument from producing a huge answer.
pub(crate) const MAX_VIOLATIONS: usize = 20;

/// A compiled schema: the built-in validator when it checks every keyword of the
/// schema ([`needs`](super::needs)), else `jsonschema` (feature `full-validation`).
#[derive(Debug, Clone)]
pub(crate) enum Validator {
    /// The built-in validator (no regular expressions).
    Builtin(Schema),
    /// The `jsonschema` crate, for the keywords only it checks.
    #[cfg(feature = "full-validation")]
    Full(Box<jsonschema::Validator>),
}

impl Validator {
    /// Whether `instance` is valid.
    pub(crate) fn is_valid(&self, instance: &Value) -> bool {
        match self {
            Validator::Builtin(schema) => schema.is_valid(instance),
            #[cfg(feature = "full-validation")]
            Validator::Full(validator) => validator.is_valid(instance),
        }
    }
}

/// Compiles `schema` for instance validation, without network or file access (the
/// `jsonschema` dependency is built without resolvers).
///
/// The dialect comes from the root `$schema` (draft-07 when it names draft-07, JSON
/// Schema 2020-12 otherwise, the MCP default). The root `$schema` is removed from the
/// compiled copy because `jsonschema` would otherwise try to look up spellings it does
/// not know (`https://…/draft-07/schema`) as remote meta-schemas. A boolean schema is
/// compiled as itself.
///
/// A schema the built-in validator checks whole is compiled by it; any other needs
/// the `full-validation` feature, and without it the error names the keyword.
pub(crate) fn compile(schema: &Value) -> Result<Validator, String> {
    let (copy, dialect) = without_dialect(schema);
    match full_validator_keyword(&copy, dialect) {
        None => Schema::compile(&copy).map(Validator::Builtin),
        Some(keyword) => full(&copy, dialect, &keyword),
    }
}

/// [`full_validator_keyword`] of a schema as written (its root `$schema` picks the
/// dialect).
pub(crate) fn full_validator_keyword_of(schema: &Value) -> Option<String> {
    let (copy, dialect) = without_dialect(schema);
    full_validator_keyword(&copy, dialect)
}

/// Whether `schema` needs the `full-validation` feature, which this build lacks.
pub(crate) fn needs_missing_feature(schema: &Value) -> bool {
    if cfg!(feature = "full-validation") {
        return false;
    }
    full_validator_keyword_of(schema).is_some()
}

#[cfg(feature = "full-validation")]
fn full(schema: &Value, dialect: Dialect, _keyword: &str) -> Result<Validator, String> {
    let draft = match dialect {
        Dialect::Draft7 => jsonschema::Draft::Draft7,
        Dialect::Draft202012 => jsonschema::Draft::Draft202012,
    };
    jsonschema::options()
        .with_draft(draft)
        .build(schema)
        .map(|v| Validator::Full(Box::new(v)))
        .map_err(|e| e.to_string())
}

#[cfg(not(feature = "full-validation"))]
fn full(_schema: &Value, _dialect: Dialect, keyword: &str) -> Result<Validator, String> {
    Err(format!(
        "{keyword} needs the full JSON Schema validator: enable the `full-validation` feature of mcpdesc"
    ))
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
    match validator {
        Validator::Builtin(schema) => schema.violations(instance, MAX_VIOLATIONS + 1),
        #[cfg(feature = "full-validation")]
        Validator::Full(validator) => validator
            .iter_errors(instance)
            .take(MAX_VIOLATIONS + 1)
            .map(|e| (e.instance_path().as_str().to_owned(), e.to_string()))
            .collect(),
    }
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
    use serde_json::json;

    use super::*;

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

/// The built-in validator against `jsonschema` on the same schemas and instances: the
/// same verdicts and the same (pointer, message) pairs.
#[cfg(all(test, feature = "full-validation"))]
mod parity {
    use serde_json::json;

    use super::*;

    /// (pointer, message) pairs of one validator.
    type Pairs = Vec<(String, String)>;

    fn both(schema: &Value, instance: &Value) -> (Pairs, Pairs) {
        let (copy, dialect) = without_dialect(schema);
        assert_eq!(full_validator_keyword(&copy, dialect), None, "{schema}");
        let builtin = Validator::Builtin(Schema::compile(&copy).unwrap());
        let full = super::full(&copy, dialect, "").unwrap();
        let mut a = violation_pairs(&builtin, instance);
        let mut b = violation_pairs(&full, instance);
        a.sort();
        b.sort();
        (a, b)
    }

    #[test]
    fn the_builtin_validator_says_what_jsonschema_says() {
        let schema = json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 2, "maxLength": 4},
                "depth": {"type": "integer", "minimum": 1, "exclusiveMaximum": 40},
                "ratio": {"type": ["number", "null"], "maximum": 1.5, "exclusiveMinimum": 0},
                "color": {"enum": ["red", "green", "blue", "black"]},
                "mode": {"enum": ["a", 1]},
                "fixed": {"const": {"a": [1, 2]}},
                "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2, "uniqueItems": true},
                "pick": {"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "number"}]},
                "any": {"anyOf": [{"type": "string"}, {"type": "boolean"}]},
                "both": {"allOf": [{"type": "object", "required": ["x"]}, {"maxProperties": 1}]},
                "never": {"not": {"type": "string"}},
                "nested": {"$ref": "#/$defs/node"},
                "nothing": false
            },
            "$defs": {
                "node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}, "v": {"type": "integer"}}, "additionalProperties": false}
            },
            "required": ["name", "depth"],
            "additionalProperties": false,
            "minProperties": 2
        });
        let instances = [
            json!({"name": "Ada", "depth": 3}),
            json!({"name": "A", "depth": 40, "ratio": 0, "color": "pink", "mode": 2}),
            json!({"name": "Adelaide", "depth": 1.5, "ratio": "x", "fixed": {"a": [1]}, "tags": []}),
            json!({"name": 7, "depth": 0, "tags": ["a", "a", 3], "pick": 1.0, "any": 1, "both": {"y": 1, "z": 2}}),
            json!({"depth": 2.0, "never": "s", "nested": {"v": 1, "next": {"v": "x", "extra": 1}}, "nothing": 1}),
            json!({"name": "Ada", "depth": 3, "zz": 1, "yy": 2, "ratio": 2, "fixed": {"a": [1.0, 2]}}),
            json!({"name": "Ada", "depth": 3, "pick": true, "tags": ["a", "b", "c"]}),
            json!({}),
        ];
        let mut seen = 0;
        for instance in &instances {
            let (builtin, full) = both(&schema, instance);
            assert_eq!(builtin, full, "instance {instance}");
            seen += builtin.len();
        }
        // Every instance but the first breaks several keywords.
        assert!(seen >= 30, "only {seen} violations compared");
        let draft7 = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": ["string", "integer"], "maxLength": 1});
        for instance in [json!("ab"), json!(1.5), json!(null), json!(3)] {
            let (builtin, full) = both(&draft7, &instance);
            assert_eq!(builtin, full, "instance {instance}");
        }
        let (builtin, full) = both(
            &json!({"items": {"type": "integer"}}),
            &json!([1, "2", [3]]),
        );
        assert_eq!(builtin, full);
        let (builtin, full) = both(&json!(false), &json!({"a": 1}));
        assert_eq!(builtin, full);
    }

    #[test]
    fn both_refuse_the_same_malformed_schemas() {
        for bad in [
            json!({"type": 12}),
            json!({"type": "text"}),
            json!({"required": "a"}),
            json!({"minLength": -1}),
            json!({"properties": {"a": 3}}),
            json!({"exclusiveMinimum": true}),
            json!({"anyOf": []}),
            json!({"$ref": "#/$defs/missing"}),
        ] {
            let (copy, dialect) = without_dialect(&bad);
            assert!(Schema::compile(&copy).is_err(), "builtin accepted {bad}");
            assert!(
                super::full(&copy, dialect, "").is_err(),
                "jsonschema accepted {bad}"
            );
        }
    }
}
