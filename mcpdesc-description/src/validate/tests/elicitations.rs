//! Tests of `elicitations.rs` (a file of their own: they run the whole validator, which
//! runs this pass).

use serde_json::json;

use super::*;
use crate::validate::testing::{codes, doc, found};

fn resource(versions: &[&str], elicitations: Value) -> Value {
    doc(
        versions,
        json!({"resources": [{"uri": "x:///a", "name": "a", "elicitations": elicitations}]}),
    )
}

#[test]
fn modern_declarations_pass() {
    let d = resource(
        &["2025-11-25", "2026-07-28"],
        json!([
            {"name": "pick", "mode": "form", "message": "Pick.", "requestedSchema": {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "properties": {
                    "labels": {"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}, "default": ["a"], "minItems": 1, "maxItems": 2},
                    "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}], "default": "s"},
                    "n": {"type": "integer", "minimum": 1, "maximum": 3, "default": 2}
                },
                "required": ["labels"]
            }},
            {"name": "auth", "mode": "url", "message": "Authorize.", "protocolVersions": ["2026-07-28"]}
        ]),
    );
    assert!(codes(&d).is_empty(), "{:?}", codes(&d));
}

#[test]
fn scopes_names_and_modes() {
    let d = doc(
        &["2025-06-18", "2025-11-25"],
        json!({"prompts": [{"name": "p", "protocolVersions": ["2025-06-18"], "elicitations": [
            {"name": "a", "mode": "url", "message": "m"},
            {"name": "a", "mode": "form", "message": "m", "requestedSchema": {"type": "object", "properties": {}},
             "protocolVersions": ["2025-11-25"]}
        ]}]}),
    );
    assert_eq!(
        found(&d, "duplicate-elicitation-name"),
        [(
            rules::ELICITATION_DECLARATIONS,
            "/prompts/0/elicitations/1/name".to_owned()
        )]
    );
    assert_eq!(
        found(&d, "elicitation-mode-not-supported-by-version"),
        [(
            rules::ELICITATION_PROTOCOL_VERSION,
            "/prompts/0/elicitations/0/mode".to_owned()
        )]
    );
    assert_eq!(
        found(&d, "protocol-scope-outside-parent"),
        [(
            rules::PROTOCOL_SCOPE_CONSISTENCY,
            "/prompts/0/elicitations/1/protocolVersions".to_owned()
        )]
    );
}

#[test]
fn the_2025_06_18_vocabulary_is_restricted() {
    let d = resource(
        &["2025-06-18"],
        json!([{"name": "f", "mode": "form", "message": "m", "requestedSchema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "tags": {"type": "array", "items": {"type": "string", "enum": ["a"]}},
                "size": {"type": "string", "oneOf": [{"const": "s", "title": "S"}]},
                "name": {"type": "string", "default": "x"},
                "ok": {"type": "boolean", "default": true}
            }
        }}]),
    );
    let base = "/resources/0/elicitations/0/requestedSchema";
    assert_eq!(
        found(&d, "elicitation-form-schema-version-mismatch"),
        [
            (
                rules::ELICITATION_PROTOCOL_VERSION,
                format!("{base}/$schema")
            ),
            (
                rules::ELICITATION_PROTOCOL_VERSION,
                format!("{base}/properties/name/default")
            ),
            (
                rules::ELICITATION_PROTOCOL_VERSION,
                format!("{base}/properties/size")
            ),
            (
                rules::ELICITATION_PROTOCOL_VERSION,
                format!("{base}/properties/tags")
            ),
        ]
    );
}

#[test]
fn cross_field_rules() {
    let d = resource(
        &["2025-11-25"],
        json!([{"name": "f", "mode": "form", "message": "m", "requestedSchema": {
            "type": "object",
            "properties": {
                "color": {"type": "string", "enum": ["r", "g"], "enumNames": ["Red"], "default": "b"},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["a"]}, "default": ["a", "z"], "minItems": 3, "maxItems": 1},
                "text": {"type": "string", "minLength": 5, "maxLength": 2},
                "n": {"type": "number", "minimum": 2, "maximum": 1}
            },
            "required": ["color", "missing"]
        }}]),
    );
    let base = "/resources/0/elicitations/0/requestedSchema";
    let r = rules::ELICITATION_DECLARATIONS;
    assert_eq!(
        found(&d, "elicitation-form-required-property-unknown"),
        [(r, format!("{base}/required/1"))]
    );
    assert_eq!(
        found(&d, "elicitation-form-enum-names-mismatch"),
        [(r, format!("{base}/properties/color/enumNames"))]
    );
    assert_eq!(
        found(&d, "elicitation-form-default-outside-enum"),
        [
            (r, format!("{base}/properties/color/default")),
            (r, format!("{base}/properties/tags/default"))
        ]
    );
    assert_eq!(
        found(&d, "elicitation-form-invalid-range"),
        [
            (r, format!("{base}/properties/n/minimum")),
            (r, format!("{base}/properties/tags/minItems")),
            (r, format!("{base}/properties/text/minLength")),
        ]
    );
}
