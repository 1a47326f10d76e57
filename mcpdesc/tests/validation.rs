//! Argument validation with and without the `full-validation` feature: a schema of
//! shape keywords is checked by the built-in validator with `jsonschema`'s messages; a
//! schema with `pattern` is checked by `jsonschema` when the feature is on, and
//! refused at registration, naming the feature, when it is off.

use futures::executor::block_on;
use mcpdesc::{Context, ProtocolVersion, Router, ServerInfo, ToolResult, ToolSpec};
use serde_json::{json, Value};

const GREET: ToolSpec = ToolSpec::new(
    "greet",
    &[],
    r#"{"name": "greet", "inputSchema": {"type": "object",
        "properties": {"name": {"type": "string"}, "excited": {"type": "boolean"}},
        "required": ["name"], "additionalProperties": false}}"#,
);

const LOOKUP: ToolSpec = ToolSpec::new(
    "lookup",
    &[],
    r#"{"name": "lookup", "inputSchema": {"type": "object",
        "properties": {"code": {"type": "string", "pattern": "^[A-Z]{3}$"}},
        "required": ["code"]}}"#,
);

fn router() -> Router {
    Router::new(ServerInfo::new("validation", "1.0.0"))
        .tool(GREET, |_args, _cx| {
            Box::pin(async { Ok(ToolResult::text("hello")) })
        })
        .tool(LOOKUP, |_args, _cx| {
            Box::pin(async { Ok(ToolResult::text("found")) })
        })
}

fn call(router: &Router, name: &str, args: Value) -> ToolResult {
    block_on(router.call_tool(name, Some(args), Context::new(ProtocolVersion::V2025_11_25)))
        .expect("a tool result, not a protocol error")
}

fn text(result: &ToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| match c {
            mcpdesc::Content::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_shape_only_tool_rejects_a_wrong_typed_argument_with_the_usual_message() {
    let router = router();
    let result = call(&router, "greet", json!({"name": 5, "loud": true}));
    assert_eq!(result.is_error, Some(true));
    // The lines `jsonschema` wrote for these keywords before the built-in validator
    // took over shape-only schemas (the parity test in `schema` compares them).
    assert_eq!(
        text(&result),
        "Invalid arguments for tool `greet`:\n\
         - `/name`: 5 is not of type \"string\"\n\
         - `/`: Additional properties are not allowed ('loud' was unexpected)"
    );
    let ok = call(&router, "greet", json!({"name": "Ada"}));
    assert_eq!(ok.is_error, None, "{}", text(&ok));
}

#[cfg(feature = "full-validation")]
#[test]
fn a_pattern_still_rejects_a_bad_argument() {
    let router = router();
    assert!(router.errors().is_empty(), "{:?}", router.errors());
    let result = call(&router, "lookup", json!({"code": "abc"}));
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        text(&result),
        "Invalid arguments for tool `lookup`:\n- `/code`: \"abc\" does not match \"^[A-Z]{3}$\""
    );
    let ok = call(&router, "lookup", json!({"code": "ABC"}));
    assert_eq!(ok.is_error, None, "{}", text(&ok));
}

#[cfg(not(feature = "full-validation"))]
#[test]
fn without_the_feature_a_pattern_is_refused_by_name() {
    let router = router();
    let errors: Vec<String> = router.errors().iter().map(|e| e.to_string()).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("lookup")
            && errors[0].contains("`/properties/code`: `pattern`")
            && errors[0].contains("`full-validation` feature"),
        "{errors:?}"
    );
    // The tool is not served: no call can reach it unchecked.
    assert!(block_on(router.call_tool(
        "lookup",
        Some(json!({"code": "abc"})),
        Context::new(ProtocolVersion::V2025_11_25)
    ))
    .is_err());
}
