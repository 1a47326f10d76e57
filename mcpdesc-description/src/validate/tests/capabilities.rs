//! Tests of `capabilities.rs` (a file of their own: they run the whole validator, which
//! runs this pass).

use serde_json::json;

use super::*;
use crate::validate::testing::{codes, doc, found};

#[test]
fn disjoint_capabilities_pass() {
    let d = doc(
        &["2025-03-26", "2025-11-25", "2026-07-28"],
        json!({"capabilities": [
            {"protocolVersions": ["2025-03-26"], "completions": {}},
            {"protocolVersions": ["2025-11-25"], "tasks": {"list": {}}, "logging": {}},
            {"protocolVersions": ["2026-07-28"], "extensions": {"io.modelcontextprotocol/tasks": {}, "com.example/x": {}}}
        ]}),
    );
    // Only the root's legacy-version warning.
    assert_eq!(codes(&d), ["legacy-protocol-validation-incomplete"]);
}

#[test]
fn overlapping_scopes_are_errors() {
    let d = doc(
        &["2025-11-25", "2026-07-28"],
        json!({"capabilities": [
            {"protocolVersions": ["2025-11-25"], "tools": {}},
            {"resources": {}},
            {"protocolVersions": ["2026-07-28"], "prompts": {}}
        ]}),
    );
    assert_eq!(
        found(&d, "capability-scope-overlap"),
        [
            (rules::CAPABILITIES, "/capabilities/1".to_owned()),
            (
                rules::CAPABILITIES,
                "/capabilities/2/protocolVersions".to_owned()
            ),
        ]
    );
}

#[test]
fn version_bound_members() {
    let d = doc(
        &["2024-11-05", "2026-07-28"],
        json!({"capabilities": [{"completions": {}, "tasks": {}, "logging": {}, "extensions": {"io.modelcontextprotocol/future": {}}}]}),
    );
    assert_eq!(
        found(&d, "field-not-supported-by-version"),
        [
            (
                rules::DECLARATION_FIELD_PROTOCOL_VERSION,
                "/capabilities/0/completions".to_owned()
            ),
            (
                rules::DECLARATION_FIELD_PROTOCOL_VERSION,
                "/capabilities/0/tasks".to_owned()
            ),
        ]
    );
    assert_eq!(
        found(&d, "tasks-core-not-valid-in-2026"),
        [(rules::CAPABILITIES, "/capabilities/0/tasks".to_owned())]
    );
    assert_eq!(
        found(&d, "logging-deprecated-in-2026"),
        [(rules::CAPABILITIES, "/capabilities/0/logging".to_owned())]
    );
    assert_eq!(
        found(&d, "pre-standard-extensions"),
        [(rules::CAPABILITIES, "/capabilities/0/extensions".to_owned())]
    );
    assert_eq!(
        found(&d, "unknown-reserved-extension-identifier"),
        [(
            rules::EXTENSIONS,
            "/capabilities/0/extensions/io.modelcontextprotocol~1future".to_owned()
        )]
    );
}

#[test]
fn reserved_prefix_is_the_second_label() {
    assert!(uses_reserved_prefix("io.modelcontextprotocol/x"));
    assert!(uses_reserved_prefix("dev.MCP/x"));
    assert!(!uses_reserved_prefix("modelcontextprotocol.io/x"));
    assert!(!uses_reserved_prefix("io.modelcontextprotocol"));
}
