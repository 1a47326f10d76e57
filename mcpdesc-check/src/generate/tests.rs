//! The generator's cases: verified, reproducible per seed, unsupported parts named.

use serde_json::{json, Value};

use super::generator::{Case, Generator};
use super::schema::{compile, Unsupported};
use crate::rng::Rng;

fn cases(schema: Value, n: usize) -> Result<Vec<Case>, Unsupported> {
    Generator::new(&schema, Rng::new(1, "t"))?.cases(n)
}

#[test]
fn valid_and_invalid_cases_verify() {
    let schema = json!({
        "type": "object",
        "properties": {
            "pgn": {"type": "string", "minLength": 1, "maxLength": 20},
            "depth": {"type": "integer", "minimum": 1, "maximum": 40},
            "side": {"enum": ["white", "black"]},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
            "at": {"type": "string", "format": "date-time"}
        },
        "required": ["pgn"],
        "additionalProperties": false
    });
    let validator = compile(&schema).unwrap();
    let all = cases(schema, 40).unwrap();
    assert_eq!(all.len(), 40);
    let invalid: Vec<&Case> = all.iter().filter(|c| !c.valid).collect();
    assert_eq!(invalid.len(), 20);
    for case in &all {
        assert_eq!(validator.is_valid(&case.input), case.valid, "{case:?}");
        assert!(case.input.is_object());
    }
    // Different constraints get broken.
    let broken: std::collections::BTreeSet<String> =
        invalid.iter().map(|c| c.broken.clone().unwrap()).collect();
    assert!(broken.len() > 4, "{broken:?}");
}

#[test]
fn same_seed_same_cases_other_seed_other_cases() {
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}, "s": {"type": "string"}}});
    let a = cases(schema.clone(), 10).unwrap();
    assert_eq!(a, cases(schema.clone(), 10).unwrap());
    let b = Generator::new(&schema, Rng::new(2, "t"))
        .unwrap()
        .cases(10)
        .unwrap();
    assert_ne!(a, b);
}

#[test]
fn unsupported_parts_are_named() {
    let pattern =
        json!({"type": "object", "properties": {"id": {"type": "string", "pattern": "^[a-z]+$"}}});
    let err = cases(pattern, 2).unwrap_err();
    assert!(err.0.contains("`pattern` at /properties/id"), "{err:?}");
    let recursive = json!({
        "type": "object",
        "properties": {"node": {"$ref": "#/$defs/Node"}},
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}
    });
    assert!(cases(recursive, 2).unwrap_err().0.contains("recursive"));
    assert!(cases(json!({"not": {}}), 1).is_err());
}

#[test]
fn refs_and_branches() {
    let schema = json!({
        "type": "object",
        "properties": {
            "p": {"$ref": "#/$defs/P"},
            "q": {"anyOf": [{"type": "integer", "maximum": 3}, {"type": "null"}]}
        },
        "required": ["p", "q"],
        "$defs": {"P": {"type": "object", "properties": {"x": {"type": "number", "exclusiveMinimum": 0}}, "required": ["x"]}}
    });
    let validator = compile(&schema).unwrap();
    for case in cases(schema, 12).unwrap() {
        assert_eq!(validator.is_valid(&case.input), case.valid, "{case:?}");
    }
}

#[test]
fn no_constraint_no_invalid_case() {
    let all = cases(json!({"type": "object"}), 4).unwrap();
    assert!(all.iter().all(|c| c.valid && c.input == json!({})));
}
