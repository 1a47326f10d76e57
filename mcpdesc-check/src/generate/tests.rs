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
    // A look-ahead is ECMA-262 but not what `regex-syntax` parses.
    let pattern = json!({"type": "object", "properties": {"id": {"type": "string", "pattern": "^(?=a)[a-z]+$"}}});
    let err = cases(pattern, 2).unwrap_err();
    assert!(err.0.contains("(at /properties/id)"), "{err:?}");
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

#[test]
fn patterns_get_matching_values_and_breaking_ones() {
    let schema = json!({
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": "^[A-Z]{3}-\\d{2}$"},
            "tag": {"type": "string", "pattern": "(alpha|beta)[0-9]*", "maxLength": 8}
        },
        "required": ["code", "tag"]
    });
    let validator = compile(&schema).unwrap();
    let all = cases(schema, 40).unwrap();
    let code = regex::Regex::new("^[A-Z]{3}-[0-9]{2}$").unwrap();
    for case in &all {
        assert_eq!(validator.is_valid(&case.input), case.valid, "{case:?}");
        if case.valid {
            assert!(
                code.is_match(case.input["code"].as_str().unwrap()),
                "{case:?}"
            );
        }
    }
    let broken: Vec<&str> = all.iter().filter_map(|c| c.broken.as_deref()).collect();
    assert!(
        broken
            .iter()
            .any(|b| b.starts_with("/code: not matching the `pattern`")),
        "{broken:?}"
    );
}

#[test]
fn every_break_is_tried_before_one_is_repeated() {
    let schema = json!({
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 1, "maximum": 5},
            "flag": {"type": "boolean"},
            "names": {"type": "array", "items": {"type": "string"}, "minItems": 1}
        },
        "required": ["n", "flag", "names"]
    });
    let all = cases(schema, 60).unwrap();
    let broken: std::collections::BTreeSet<&str> =
        all.iter().filter_map(|c| c.broken.as_deref()).collect();
    for expected in [
        "/n: a numeric string for an integer",
        "/n: a float with a fraction for an integer",
        "/n: below `minimum` 1",
        "/flag: the string \"yes\" for a boolean",
        "/flag: the number 1 for a boolean",
        "/names: a single value for an array",
        "/names/0: a number for a string",
    ] {
        assert!(broken.contains(expected), "{expected}: {broken:?}");
    }
    let coerced = all
        .iter()
        .find(|c| c.broken.as_deref() == Some("/n: a numeric string for an integer"))
        .unwrap();
    assert!(coerced.coercible);
    assert_eq!(coerced.argument.as_deref(), Some("/n"));
    assert_eq!(
        coerced.value,
        Some(json!(coerced.input["n"].as_str().unwrap()))
    );
}
