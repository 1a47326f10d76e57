//! Tests of `validation.rs`: every pass together.

use serde_json::json;

use crate::validate::testing::{doc, run};

/// The semantic passes run on structurally invalid documents too, so every member
/// of the wrong type must be tolerated (diagnosed by the structural pass, never a
/// panic).
#[test]
fn wrong_types_everywhere_do_not_panic() {
    let wrong = [
        json!(null),
        json!(1),
        json!("x"),
        json!([1]),
        json!({"a": [null]}),
    ];
    let members = [
        "transports",
        "securitySchemes",
        "security",
        "capabilities",
        "tools",
        "resources",
        "resourceTemplates",
        "prompts",
        "tags",
        "components",
    ];
    for value in &wrong {
        for member in members {
            let d = doc(&["2024-11-05", "2026-07-28"], json!({ member: value }));
            let _ = run(&d);
        }
    }
    let d = doc(
        &["2025-06-18"],
        json!({
            "transports": [null, {"type": 1, "protocolVersions": "x"}],
            "security": [null, {"a": "b"}, {"a": [1, null]}],
            "capabilities": [null, {"extensions": [], "protocolVersions": [1]}],
            "tags": [{"name": 1}, null],
            "resources": [null, {"examples": {"e": {"result": {"contents": [null, {"blob": 1}], "_meta": []}}},
                          "elicitations": [null, {"mode": "form", "requestedSchema": {"properties": {"p": {"default": [], "enum": 1}}, "required": "x"}}],
                          "clientRequirements": {"roots": [], "tasks": {"requests": []}}}],
            "resourceTemplates": [{"uriTemplate": 7, "completionExamples": {"e": {"argument": [], "context": {"arguments": []}}}}],
            "prompts": [{"arguments": [null, {"name": 1}], "examples": {"e": {"arguments": [], "result": {"messages": [null, {"content": []}]}}},
                         "completionExamples": {"e": null}}]
        }),
    );
    assert!(run(&d).iter().any(|d| d.is_error()));
}
