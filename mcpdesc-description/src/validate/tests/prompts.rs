//! Tests of `prompts.rs` (a file of their own: they run the whole validator, which
//! runs this pass).

use serde_json::json;

use super::*;
use crate::validate::testing::{codes, doc, found};

#[test]
fn consistent_prompt_examples_pass() {
    let d = doc(
        &["2025-11-25", "2026-07-28"],
        json!({"prompts": [
            {"name": "brief", "protocolVersions": ["2026-07-28"], "title": "Brief",
             "arguments": [{"name": "city", "required": true, "title": "City"}, {"name": "audience"}],
             "examples": {"e": {"arguments": {"city": "Paris"}, "result": {"resultType": "complete", "messages": [
                 {"role": "assistant", "content": {"type": "resource_link", "uri": "x:///b", "name": "b"}}]}}}},
            {"name": "brief", "protocolVersions": ["2025-11-25"],
             "examples": {"e": {"result": {"messages": [{"role": "user", "content": {"type": "audio", "data": "", "mimeType": "audio/wav"}}]}}}}
        ]}),
    );
    assert!(codes(&d).is_empty(), "{:?}", codes(&d));
}

#[test]
fn prompt_example_errors() {
    let d = doc(
        &["2025-03-26", "2026-07-28"],
        json!({"prompts": [
            {"name": "a", "protocolVersions": ["2026-07-28"], "arguments": [{"name": "city", "required": true}],
             "examples": {"e": {"arguments": {"rogue": "x"}, "result": {"messages": []}}}},
            {"name": "b", "protocolVersions": ["2025-03-26"],
             "examples": {"e": {"result": {"resultType": "complete", "messages": [
                 {"role": "user", "content": {"type": "resource_link", "uri": "x:///b", "name": "b"}}]}}}},
            {"name": "a", "protocolVersions": ["2026-07-28"]}
        ]}),
    );
    let base = "/prompts/0/examples/e";
    assert_eq!(
        found(&d, "prompt-example-unknown-argument"),
        [(rules::PROMPTS, format!("{base}/arguments/rogue"))]
    );
    assert_eq!(
        found(&d, "prompt-example-missing-required-argument"),
        [(rules::PROMPTS, format!("{base}/arguments/city"))]
    );
    assert_eq!(
        found(&d, "prompt-example-result-version-mismatch"),
        [
            (
                rules::EXAMPLE_RESULT_FIDELITY,
                format!("{base}/result/resultType")
            ),
            (
                rules::EXAMPLE_RESULT_FIDELITY,
                "/prompts/1/examples/e/result/resultType".to_owned()
            ),
        ]
    );
    assert_eq!(
        found(&d, "prompt-example-content-version-mismatch"),
        [(
            rules::CONTENT_BLOCK_PROTOCOL_VERSION,
            "/prompts/1/examples/e/result/messages/0/content/type".to_owned()
        )]
    );
    assert_eq!(
        found(&d, "primitive-scope-overlap"),
        [(rules::PROTOCOL_SCOPE_CONSISTENCY, "/prompts/2".to_owned())]
    );
}

#[test]
fn missing_arguments_are_located_at_the_arguments_object() {
    let text = r#"{
  "mcpdesc": "0.9.0",
  "info": {"name": "t", "version": "1"},
  "protocolVersions": ["2025-11-25"],
  "prompts": [{
    "name": "p",
    "arguments": [{"name": "city", "required": true}],
    "examples": {"e": {
      "arguments": {},
      "result": {"messages": []}
    }}
  }]
}"#;
    let desc =
        crate::Description::from_text("t.json", text.to_owned(), None, &crate::Limits::default());
    let d = desc
        .diagnostics
        .iter()
        .find(|d| d.code == "prompt-example-missing-required-argument")
        .expect("reported");
    // The pointer names the missing member; the position is that of its parent.
    assert_eq!(d.pointer, "/prompts/0/examples/e/arguments/city");
    assert_eq!((d.line, d.column), (9, 7));
    assert!(
        d.message
            .starts_with(r#"prompts[0].examples.e.arguments.city"#),
        "{}",
        d.message
    );
}

#[test]
fn completion_examples_pass_with_declared_names() {
    let d = doc(
        &["2025-11-25"],
        json!({
            "capabilities": [{"completions": {}}],
            "prompts": [{"name": "p", "arguments": [{"name": "dept"}, {"name": "who"}],
                "completionExamples": {"e": {"argument": {"name": "who", "value": "a"},
                    "context": {"arguments": {"dept": "eng"}}, "result": {"completion": {"values": ["Ada"]}}}}}],
            "resourceTemplates": [{"uriTemplate": "repo://{owner}/{repo}", "name": "r",
                "completionExamples": {"e": {"argument": {"name": "repo", "value": "w"},
                    "context": {"arguments": {"owner": "me"}}, "result": {"completion": {"values": ["widgets"]}}}}}]
        }),
    );
    assert!(codes(&d).is_empty(), "{:?}", codes(&d));
}

#[test]
fn completion_example_errors() {
    let d = doc(
        &["2024-11-05", "2025-03-26", "2026-07-28"],
        json!({
            "capabilities": [{"protocolVersions": ["2026-07-28"], "tools": {}}],
            "prompts": [{"name": "p", "protocolVersions": ["2024-11-05", "2025-03-26"], "arguments": [{"name": "who"}],
                "completionExamples": {"e": {"argument": {"name": "nick", "value": "a"},
                    "context": {"arguments": {"nick": "x"}}, "result": {"completion": {"values": []}}}}}],
            "resourceTemplates": [{"uriTemplate": "repo://{owner}", "name": "r", "protocolVersions": ["2026-07-28"],
                "completionExamples": {"e": {"argument": {"name": "ticket", "value": "1"},
                    "context": {"arguments": {"space": "d"}}, "result": {"completion": {"values": []}, "jsonrpc": "2.0"}}}}]
        }),
    );
    let c = rules::COMPLETION_EXAMPLES;
    let p = "/prompts/0/completionExamples/e";
    let t = "/resourceTemplates/0/completionExamples/e";
    assert_eq!(
        found(&d, "prompt-completion-example-unknown-argument"),
        [(c, format!("{p}/argument/name"))]
    );
    assert_eq!(
        found(&d, "prompt-completion-example-context-unknown-argument"),
        [(c, format!("{p}/context/arguments/nick"))]
    );
    assert_eq!(
        found(&d, "completion-example-duplicate-target-context"),
        [(c, format!("{p}/context/arguments/nick"))]
    );
    assert_eq!(
        found(&d, "completion-example-version-mismatch"),
        [(c, p.to_owned())]
    );
    assert_eq!(
        found(&d, "completion-example-context-version-mismatch"),
        [(c, format!("{p}/context"))]
    );
    assert_eq!(
        found(&d, "resource-template-completion-example-unknown-variable"),
        [(c, format!("{t}/argument/name"))]
    );
    assert_eq!(
        found(
            &d,
            "resource-template-completion-example-context-unknown-variable"
        ),
        [(c, format!("{t}/context/arguments/space"))]
    );
    assert_eq!(
        found(&d, "completion-example-result-version-mismatch"),
        [(
            rules::EXAMPLE_RESULT_FIDELITY,
            format!("{t}/result/resultType")
        )]
    );
    assert_eq!(
        found(&d, "completion-example-json-rpc-envelope"),
        [(rules::EXAMPLE_COMPLETED_FORM, format!("{t}/result/jsonrpc"))]
    );
    assert_eq!(
        found(&d, "completion-example-capability-not-declared"),
        [(c, "/resourceTemplates/0/completionExamples".to_owned())]
    );
}
