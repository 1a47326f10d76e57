//! Tests of `example_order.rs` (a file of their own: they run the whole validator,
//! which runs this pass).

use serde_json::json;

use crate::rules::EXTENSIONS;
use crate::validate::testing::{codes, doc, found};

fn tools(list_examples: serde_json::Value) -> serde_json::Value {
    let schema = json!({"type": "object"});
    let result = json!({"content": [{"type": "text", "text": "ok"}]});
    doc(
        &["2025-06-18", "2025-11-25"],
        json!({"tools": [
            {"name": "create_branch", "inputSchema": schema,
             "examples": {"feature": {"input": {}, "result": result}}},
            {"name": "list_branches", "inputSchema": schema,
             "annotations": {"readOnlyHint": true},
             "examples": list_examples},
        ]}),
    )
}

#[test]
fn references_that_name_examples_are_clean() {
    let result = json!({"content": [{"type": "text", "text": "ok"}]});
    let d = tools(json!({
        "before": {"input": {}, "result": result},
        "after": {"input": {}, "result": result,
                  "x-mcpdesc-after": ["create_branch/feature", "before"]},
    }));
    assert_eq!(codes(&d), Vec::<&str>::new());
}

#[test]
fn unknown_references_and_other_values_are_errors() {
    let result = json!({"content": [{"type": "text", "text": "ok"}]});
    let d = tools(json!({
        "a": {"input": {}, "result": result,
              "x-mcpdesc-after": ["create_branch/featur", "feature", 7]},
        "b": {"input": {}, "result": result, "x-mcpdesc-after": "a"},
    }));
    assert_eq!(
        found(&d, "example-after-unknown"),
        [
            (
                EXTENSIONS,
                "/tools/1/examples/a/x-mcpdesc-after/0".to_owned()
            ),
            (
                EXTENSIONS,
                "/tools/1/examples/a/x-mcpdesc-after/1".to_owned()
            ),
        ]
    );
    assert_eq!(
        found(&d, "example-after-not-references"),
        [
            (
                EXTENSIONS,
                "/tools/1/examples/a/x-mcpdesc-after/2".to_owned()
            ),
            (EXTENSIONS, "/tools/1/examples/b/x-mcpdesc-after".to_owned()),
        ]
    );
}

#[test]
fn cycles_are_errors_naming_their_examples() {
    let result = json!({"content": [{"type": "text", "text": "ok"}]});
    let d = tools(json!({
        "a": {"input": {}, "result": result, "x-mcpdesc-after": ["b"]},
        "b": {"input": {}, "result": result, "x-mcpdesc-after": ["list_branches/a"]},
    }));
    // One diagnostic, though the cycle is there in both versions.
    assert_eq!(
        found(&d, "example-after-cycle"),
        [(EXTENSIONS, "/tools/1/examples/a/x-mcpdesc-after".to_owned())]
    );
    let all = crate::validate::testing::run(&d);
    let cycle = all
        .iter()
        .find(|d| d.code == "example-after-cycle")
        .unwrap();
    assert!(
        cycle
            .message
            .contains("list_branches/a runs after list_branches/b runs after list_branches/a"),
        "{}",
        cycle.message
    );
}

#[test]
fn diagnostics_point_at_the_source_line_and_column() {
    let text = r#"{
  "mcpdesc": "0.9.0",
  "info": {"name": "t", "version": "1"},
  "protocolVersions": ["2025-11-25"],
  "tools": [{
    "name": "list",
    "inputSchema": {"type": "object"},
    "examples": {
      "a": {"input": {}, "result": {"content": []},
            "x-mcpdesc-after": ["nope/a"]}
    }
  }]
}"#;
    let desc =
        crate::Description::from_text("t.json", text.to_owned(), None, &crate::Limits::default());
    let d = desc
        .errors()
        .find(|d| d.code == "example-after-unknown")
        .unwrap();
    assert_eq!(d.rule, EXTENSIONS);
    assert_eq!(d.pointer, "/tools/0/examples/a/x-mcpdesc-after/0");
    assert_eq!(
        (d.line, d.column),
        (10, 33),
        "{}",
        desc.render_diagnostics()
    );
    assert!(d.message.contains("\"nope/a\""), "{}", d.message);
    // A near miss gets a suggestion.
    let near = text.replace("nope/a", "lst/a");
    let desc = crate::Description::from_text("t.json", near, None, &crate::Limits::default());
    let d = desc.errors().next().unwrap();
    assert!(
        d.message.contains("(did you mean \"list/a\"?)"),
        "{}",
        d.message
    );
}

#[test]
fn hints_in_example_components_name_examples_of_their_use_site() {
    let result = json!({"content": [{"type": "text", "text": "ok"}]});
    let mut d = tools(json!({
        "before": {"input": {}, "result": result},
        "after": {"$componentRef": "#/components/toolExamples/After"},
    }));
    d["components"] = json!({"toolExamples": {"After": {
        "input": {}, "result": result, "x-mcpdesc-after": ["before", "gone"],
    }}});
    // `before` resolves at the use site; `gone` is reported at the use site's pointer.
    assert_eq!(
        found(&d, "example-after-unknown"),
        [(
            EXTENSIONS,
            "/tools/1/examples/after/x-mcpdesc-after/1".to_owned()
        )]
    );
}
