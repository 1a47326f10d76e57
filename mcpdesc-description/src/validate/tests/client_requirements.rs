//! Tests of `client_requirements.rs` (a file of their own: they run the whole validator, which
//! runs this pass).

use serde_json::json;

use super::*;
use crate::validate::testing::{codes, doc, found};

fn prompt(versions: &[&str], requirements: Value) -> Value {
    doc(
        versions,
        json!({"prompts": [{"name": "p", "clientRequirements": requirements}]}),
    )
}

#[test]
fn requirements_valid_in_every_version_pass() {
    let d = prompt(
        &["2025-11-25"],
        json!({"sampling": {"tools": {}}, "elicitation": {"form": {}, "url": {}},
                   "tasks": {"list": {}, "requests": {"sampling": {"createMessage": {}}}},
                   "roots": {"listChanged": true}, "experimental": {"com.example/x": {}},
                   "futureCapability": {}, "x-note": 1}),
    );
    assert!(codes(&d).is_empty(), "{:?}", codes(&d));
}

#[test]
fn capabilities_undefined_in_a_scoped_version_are_errors() {
    let d = prompt(
        &["2025-11-25", "2026-07-28"],
        json!({"tasks": {"list": {}}}),
    );
    let diags = crate::validate::testing::run(&d);
    let hits: Vec<_> = diags
        .iter()
        .filter(|d| d.code == "client-requirement-version-mismatch")
        .collect();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].pointer, "/prompts/0/clientRequirements/tasks");
    assert_eq!(hits[0].rule, rules::CLIENT_REQUIREMENTS);
    assert!(
        hits[0].message.contains("MCP 2026-07-28"),
        "{}",
        hits[0].message
    );
}

#[test]
fn closed_member_sets_and_values() {
    let d = prompt(
        &["2025-11-25"],
        json!({"elicitation": {"forms": {}}, "roots": {"listChanged": "yes"},
                   "tasks": {"requests": {"sampling": {"create": {}}, "tools": {}}, "list": true}}),
    );
    assert_eq!(
        found(&d, "client-requirement-version-mismatch"),
        [
            (
                rules::CLIENT_REQUIREMENTS,
                "/prompts/0/clientRequirements/elicitation/forms".to_owned()
            ),
            (
                rules::CLIENT_REQUIREMENTS,
                "/prompts/0/clientRequirements/tasks/requests/sampling/create".to_owned()
            ),
            (
                rules::CLIENT_REQUIREMENTS,
                "/prompts/0/clientRequirements/tasks/requests/tools".to_owned()
            ),
        ]
    );
    assert_eq!(
        found(&d, "invalid-client-requirement-value"),
        [
            (
                rules::CLIENT_REQUIREMENTS,
                "/prompts/0/clientRequirements/roots/listChanged".to_owned()
            ),
            (
                rules::CLIENT_REQUIREMENTS,
                "/prompts/0/clientRequirements/tasks/list".to_owned()
            ),
        ]
    );
}

#[test]
fn deprecations_warn_and_2026_roots_must_be_empty() {
    let d = prompt(
        &["2026-07-28"],
        json!({"roots": {"listChanged": true}, "sampling": {"context": {}},
                   "extensions": {"io.modelcontextprotocol/unknown": {}, "io.modelcontextprotocol/ui": {}}}),
    );
    assert_eq!(
        found(&d, "deprecated-client-requirement"),
        [
            (
                rules::CLIENT_REQUIREMENTS,
                "/prompts/0/clientRequirements/roots".to_owned()
            ),
            (
                rules::CLIENT_REQUIREMENTS,
                "/prompts/0/clientRequirements/sampling".to_owned()
            ),
            (
                rules::CLIENT_REQUIREMENTS,
                "/prompts/0/clientRequirements/sampling/context".to_owned()
            ),
        ]
    );
    assert_eq!(
        found(&d, "client-requirement-version-mismatch"),
        [(
            rules::CLIENT_REQUIREMENTS,
            "/prompts/0/clientRequirements/roots/listChanged".to_owned()
        )]
    );
    assert_eq!(
        found(&d, "unknown-reserved-extension-identifier"),
        [(
            rules::EXTENSIONS,
            "/prompts/0/clientRequirements/extensions/io.modelcontextprotocol~1unknown".to_owned()
        )]
    );
}
