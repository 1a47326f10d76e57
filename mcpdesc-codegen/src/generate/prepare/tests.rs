//! Unit tests of the preparation: dropped no-op constraints, nullable options,
//! hoisted definitions, 2020-12 forms, degraded constructs and reference cycles.

use serde_json::json;

use super::*;
use mcpdesc_description::diagnostic::Severity;
use mcpdesc_description::rules;
use mcpdesc_description::validate::dialect::percent_decode;

fn run(schema: Value) -> (PreparedSchema, Vec<Diagnostic>) {
    let mut names = NameAllocator::new();
    let mut diags = Vec::new();
    let at = Pointer::parse("/tools/0/inputSchema").unwrap();
    let p = prepare(
        &schema,
        &at,
        "TInput",
        Some("Input of t."),
        Options {
            format_types: false,
            defaults: true,
            output: false,
            non_zero: true,
            own: &crate::own_types::OwnTypes::default(),
        },
        &mut names,
        &mut diags,
    );
    (p, diags)
}

#[test]
fn no_op_constraints_are_dropped_from_the_copy() {
    let (p, _) = run(json!({"type": "object", "properties": {
        "s": {"type": "string", "minLength": 0, "maxLength": 3},
        "a": {"type": "array", "minItems": 0, "maxItems": 2},
        "i": {"type": "integer", "multipleOf": 1, "minimum": -9223372036854775808i64, "maximum": 10},
        "n": {"type": "number", "multipleOf": 1, "minimum": 0},
    }}));
    let props = &p.root["properties"];
    assert_eq!(props["s"], json!({"type": "string", "maxLength": 3}));
    assert_eq!(props["a"], json!({"type": "array", "maxItems": 2}));
    assert_eq!(props["i"], json!({"type": "integer", "maximum": 10}));
    assert_eq!(
        props["n"],
        json!({"type": "number", "multipleOf": 1, "minimum": 0})
    );
}

fn pointers(diags: &[Diagnostic]) -> Vec<&str> {
    diags.iter().map(|d| d.pointer.as_str()).collect()
}

/// Optional nullable properties are listed as required in typify's copy (so that
/// `None` is written as `null`); the original `required` comes first, and a non-null
/// default, a `$ref`, a `null`-only type or a non-nullable type stay optional.
#[test]
fn optional_nullable_properties_become_required_in_the_copy() {
    let schema = json!({
        "type": "object",
        "properties": {
            "req": {"type": "string"},
            "arr": {"type": ["string", "null"]},
            "any": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "one": {"oneOf": [{"type": "null"}, {"type": "object"}]},
            "en": {"enum": ["a", null]},
            "nulldef": {"type": ["string", "null"], "default": null},
            "def": {"type": ["string", "null"], "default": "d"},
            "only_null": {"type": "null"},
            "plain": {"type": "string"},
            "reffed": {"$ref": "#/$defs/N"}
        },
        "required": ["req"],
        "$defs": {"N": {"type": ["string", "null"]}}
    });
    let (p, _) = run(schema.clone());
    assert_eq!(
        p.root["required"],
        json!(["req", "arr", "any", "one", "en", "nulldef"])
    );
    // The definition's own schema has no properties: unchanged.
    assert_eq!(p.defs[0].1["type"], json!(["string", "null"]));
    // An object without `required` gets one only when a property is nullable.
    let (p, _) = run(json!({"properties": {"a": {"type": "string"}}}));
    assert!(p.root.get("required").is_none());
    let (p, _) = run(json!({"properties": {"a": {"type": ["integer", "null"]}}}));
    assert_eq!(p.root["required"], json!(["a"]));
}

#[test]
fn hoists_nested_defs_and_rewrites_refs() {
    let (p, diags) = run(json!({
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/Point"},
            "b": {
                "type": "object",
                "properties": {"c": {"$ref": "#/properties/b/$defs/Inner"}},
                "$defs": {"Inner": {"type": "string"}}
            },
            "self": {"$ref": "#"}
        },
        "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "number"}}}}
    }));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        p.root["properties"]["a"],
        json!({"$ref": "#/definitions/TInputPoint"})
    );
    assert_eq!(
        p.root["properties"]["b"]["properties"]["c"],
        json!({"$ref": "#/definitions/TInputInner"})
    );
    assert_eq!(
        p.root["properties"]["self"],
        json!({"$ref": "#/definitions/TInput"})
    );
    let names: Vec<&str> = p.defs.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["TInputPoint", "TInputInner"]);
    assert!(p.root.get("$defs").is_none());
    assert_eq!(p.root["description"], "Input of t.");
}

#[test]
fn translates_2020_12_forms() {
    let (p, diags) = run(json!({
        "type": "object",
        "properties": {
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}],
                     "items": false, "minItems": 2, "maxItems": 2},
            "kind": {"const": "x"},
            "any": true,
            "closed": {"type": "object", "properties": {"a": {"type": "string"}}, "unevaluatedProperties": false},
            "refd": {"$ref": "#/$defs/S", "description": "doc", "minLength": 2},
            "annotated": {"$ref": "#/$defs/S", "description": "only docs"},
            "titled": {"title": "Point", "type": "object"}
        },
        "$defs": {"S": {"type": "string"}}
    }));
    assert!(diags.is_empty(), "{diags:?}");
    let props = &p.root["properties"];
    assert_eq!(
        props["pair"]["items"],
        json!([{"type": "string"}, {"type": "integer"}])
    );
    assert_eq!(props["pair"]["additionalItems"], json!(false));
    assert_eq!(props["kind"], json!({"enum": ["x"]}));
    assert_eq!(props["any"], json!({}));
    assert_eq!(props["closed"]["additionalProperties"], json!(false));
    assert_eq!(
        props["refd"],
        json!({"allOf": [{"$ref": "#/definitions/TInputS"}, {"minLength": 2}], "description": "doc"})
    );
    assert_eq!(
        props["annotated"],
        json!({"$ref": "#/definitions/TInputS", "description": "only docs"})
    );
    // The title documents the type (and is marked for naming a shared type).
    assert_eq!(
        props["titled"],
        json!({"type": "object", "description": "Point", "x-mcpdesc-title": "Point"})
    );
    let mut stripped = p.clone();
    strip_marks(&mut stripped);
    assert_eq!(
        stripped.root["properties"]["titled"],
        json!({"type": "object", "description": "Point"})
    );
}

#[test]
fn unsupported_constructs_degrade_with_a_warning_at_their_pointer() {
    let (p, diags) = run(json!({
        "type": "object",
        "properties": {
            "cond": {"if": {"type": "string"}, "then": {"minLength": 1}},
            "external": {"$ref": "https://example.invalid/s.json"},
            "anchor": {"$ref": "#here"},
            "missing": {"$ref": "#/$defs/Nope"},
            "dynamic": {"$dynamicRef": "#node"},
            "deps": {"type": "object", "dependentSchemas": {"a": {"required": ["b"]}}},
            "negated": {"not": {"type": "object", "properties": {}}},
            "patterned": {"type": "object", "patternProperties": {"^x": {"type": "string"}}},
            "never": false,
            "tuple": {"type": "array", "prefixItems": [{"type": "string"}]}
        }
    }));
    let props = p.root["properties"].as_object().unwrap();
    for (name, schema) in props {
        assert_eq!(schema, &json!({}), "{name} was not degraded");
    }
    assert_eq!(
        pointers(&diags),
        [
            "/tools/0/inputSchema/properties/cond/if",
            "/tools/0/inputSchema/properties/external/$ref",
            "/tools/0/inputSchema/properties/anchor/$ref",
            "/tools/0/inputSchema/properties/missing/$ref",
            "/tools/0/inputSchema/properties/dynamic/$dynamicRef",
            "/tools/0/inputSchema/properties/deps/dependentSchemas",
            "/tools/0/inputSchema/properties/negated/not",
            "/tools/0/inputSchema/properties/patterned/patternProperties",
            "/tools/0/inputSchema/properties/never",
            "/tools/0/inputSchema/properties/tuple/prefixItems",
        ]
    );
    assert!(diags
        .iter()
        .all(|d| d.severity == Severity::Warning && d.rule == rules::CODEGEN));
}

#[test]
fn pure_reference_cycles_degrade() {
    let (p, diags) = run(json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}},
        "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"allOf": [{"$ref": "#/$defs/A"}]}}
    }));
    assert_eq!(p.defs.len(), 2);
    assert!(p.defs.iter().all(|(_, s)| s == &json!({})), "{:?}", p.defs);
    assert_eq!(diags.len(), 2, "{diags:?}");
}

#[test]
fn formats_and_patterns_are_dropped_by_default() {
    let (p, _) = run(json!({
        "type": "object",
        "properties": {"when": {"type": "string", "format": "date-time", "pattern": "^2"}}
    }));
    assert_eq!(p.root["properties"]["when"], json!({"type": "string"}));
}

#[test]
fn percent_decoding() {
    assert_eq!(percent_decode("/$defs/a%20b"), "/$defs/a b");
    assert_eq!(percent_decode("/x%2"), "/x%2");
    assert_eq!(percent_decode("%"), "%");
}
