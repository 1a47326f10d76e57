//! Tests of `security.rs` (a file of their own: they run the whole validator, which
//! runs this pass).

use serde_json::json;

use super::*;
use crate::validate::testing::{codes, doc, found};

fn with_security(extra: Value) -> Value {
    let mut base = json!({
        "securitySchemes": {
            "oauth": {"type": "oauth2", "flows": {
                "clientCredentials": {"tokenUrl": "https://a.example/t", "scopes": {"read": "r"}},
                "authorizationCode": {"authorizationUrl": "https://a.example/a", "tokenUrl": "https://a.example/t", "scopes": {"write": "w"}}
            }},
            "key": {"type": "apiKey", "in": "header", "name": "X-Key"},
            "oidc": {"type": "openIdConnect", "openIdConnectUrl": "https://id.example/.well-known/openid-configuration"}
        }
    });
    if let (Some(b), Value::Object(e)) = (base.as_object_mut(), extra) {
        b.extend(e);
    }
    doc(&["2025-11-25"], base)
}

#[test]
fn empty_forms_and_catalogued_scopes_pass() {
    let d = with_security(json!({
        "security": [{}, {"oauth": ["read", "write"], "key": []}, {"oidc": []}],
        "resources": [
            {"uri": "x:///a", "name": "a", "security": []},
            {"uri": "x:///b", "name": "b", "security": [{}]}
        ]
    }));
    assert!(codes(&d).is_empty(), "{:?}", codes(&d));
}

#[test]
fn unknown_schemes_are_errors_everywhere() {
    let d = with_security(json!({
        "transports": [{"type": "stdio", "command": "s", "security": [{"missing": []}]}],
        "prompts": [{"name": "p", "security": [{}, {"gone": []}]}]
    }));
    assert_eq!(
        found(&d, "unknown-security-scheme"),
        [
            (rules::SECURITY, "/prompts/0/security/1/gone".to_owned()),
            (
                rules::SECURITY,
                "/transports/0/security/0/missing".to_owned()
            ),
        ]
    );
}

#[test]
fn scopes_on_api_keys_are_errors() {
    let d = with_security(json!({"security": [{"key": ["admin"]}]}));
    assert_eq!(
        found(&d, "non-oauth-scope-misuse"),
        [(rules::SECURITY, "/security/0/key".to_owned())]
    );
}

#[test]
fn uncatalogued_scopes_warn() {
    let d =
        with_security(json!({"security": [{"oauth": ["read", "admin"]}, {"oidc": ["profile"]}]}));
    assert_eq!(
        found(&d, "uncatalogued-oauth-scope"),
        [
            (rules::SECURITY, "/security/0/oauth/1".to_owned()),
            (rules::SECURITY, "/security/1/oidc/0".to_owned()),
        ]
    );
    assert!(crate::validate::testing::run(&d)
        .iter()
        .all(|d| !d.is_error()));
}

#[test]
fn diagnostics_point_at_the_requirement_entry_in_the_source() {
    let text = r#"{
  "mcpdesc": "0.9.0",
  "info": {"name": "t", "version": "1"},
  "protocolVersions": ["2025-11-25"],
  "securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}},
  "security": [
    {"key": ["admin"]}
  ]
}"#;
    let desc =
        crate::Description::from_text("t.json", text.to_owned(), None, &crate::Limits::default());
    let d = desc
        .diagnostics
        .iter()
        .find(|d| d.code == "non-oauth-scope-misuse")
        .expect("reported");
    assert_eq!(
        (d.line, d.column, d.pointer.as_str()),
        (7, 6, "/security/0/key")
    );
}

#[test]
fn duplicate_scopes_are_left_to_the_structural_schema() {
    let d = with_security(json!({"security": [{"oauth": ["read", "read"]}]}));
    assert_eq!(
        found(&d, "duplicate-items"),
        [(rules::DOCUMENT_SCHEMA, "/security/0/oauth".to_owned())]
    );
}
