//! The checks of Tool Examples and Tool Interaction Examples that generated tests
//! call, and the opt-in contract check of an implementation against them.

use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use super::requests::check_primitive_against;
use super::values::{check_content, check_error_shape, round_trip, validate_if_compilable};
use crate::examples::data::{latest, parse_json, Example, InteractionExample, ToolCase};
use crate::examples::mock::book::ExampleBook;
use crate::examples::mock::target::Target;
use crate::examples::scripted::ScriptedClient;
use crate::protocol::json::canonical;
use crate::protocol::result::ToolResult;
use crate::server::context::Context;
use crate::server::router::Router;

fn schemas(tool: &ToolCase) -> Result<(Value, Option<Value>), String> {
    let decl = parse_json(
        tool.declaration,
        &format!("tool `{}`: declaration", tool.tool),
    )?;
    let input = decl
        .get("inputSchema")
        .cloned()
        .unwrap_or(Value::Bool(true));
    Ok((input, decl.get("outputSchema").cloned()))
}

fn check_common<I: Serialize + DeserializeOwned>(
    tool: &ToolCase,
    example: &Example,
) -> Result<(Value, String), String> {
    let what = format!("tool `{}`, example `{}`", tool.tool, example.name);
    let (input_schema, _) = schemas(tool)?;
    let input = parse_json(example.input, &what)?;
    let result = parse_json(example.result, &what)?;
    let input_at = format!("{}/input", example.pointer);
    validate_if_compilable(&input_schema, &input, &what, &input_at)?;
    round_trip::<I>(&input_schema, &input, &what, &input_at)?;
    let result_at = format!("{}/result", example.pointer);
    check_content(&result, tool.scope, &what, &result_at)?;
    if result.get("isError") == Some(&Value::Bool(true)) {
        check_error_shape(&result, &what, &result_at)?;
    }
    Ok((result, what))
}

/// The test of one Tool Example of a tool without `outputSchema`: the input validates,
/// round-trips through `I` and still validates; the result's content blocks parse and
/// fit every version of the scope; an error result has the execution-error shape.
pub fn check_example<I: Serialize + DeserializeOwned>(
    tool: &ToolCase,
    example: &Example,
) -> Result<(), String> {
    check_common::<I>(tool, example).map(|_| ())
}

/// [`check_example`] for a tool with `outputSchema`; in addition, a successful result's
/// `structuredContent` exists, validates, and round-trips through `O`.
pub fn check_example_with_output<
    I: Serialize + DeserializeOwned,
    O: Serialize + DeserializeOwned,
>(
    tool: &ToolCase,
    example: &Example,
) -> Result<(), String> {
    let (result, what) = check_common::<I>(tool, example)?;
    if result.get("isError") == Some(&Value::Bool(true)) {
        return Ok(());
    }
    let (_, output_schema) = schemas(tool)?;
    let Some(output_schema) = output_schema else {
        return Ok(());
    };
    let at = format!("{}/result/structuredContent", example.pointer);
    let Some(structured) = result.get("structuredContent") else {
        return Err(format!(
            "{what} ({at}): a successful result of a tool with outputSchema needs structuredContent"
        ));
    };
    validate_if_compilable(&output_schema, structured, &what, &at)?;
    round_trip::<O>(&output_schema, structured, &what, &at).map(|_| ())
}

/// Compares an actual result with an example's result the way the contract check does:
/// `structuredContent` equal, `isError` equal (absent = false), and the content blocks of
/// the same kinds in the same order. Returns a readable diff on mismatch.
pub fn compare_results(expected: &Value, actual: &Value) -> Result<(), String> {
    let mut diffs = Vec::new();
    let err = |v: &Value| v.get("isError").and_then(Value::as_bool).unwrap_or(false);
    if err(expected) != err(actual) {
        diffs.push(format!(
            "isError: expected {}, got {}",
            err(expected),
            err(actual)
        ));
    }
    let sc = |v: &Value| v.get("structuredContent").map(canonical);
    if sc(expected) != sc(actual) {
        diffs.push(format!(
            "structuredContent:\n    expected: {}\n    actual:   {}",
            show(expected.get("structuredContent")),
            show(actual.get("structuredContent"))
        ));
    }
    let kinds = |v: &Value| -> Vec<String> {
        v.get("content")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|b| {
                        b.get("type")
                            .and_then(Value::as_str)
                            .unwrap_or("?")
                            .to_owned()
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    if kinds(expected) != kinds(actual) {
        diffs.push(format!(
            "content block kinds: expected {:?}, got {:?}",
            kinds(expected),
            kinds(actual)
        ));
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(format!("- {}", diffs.join("\n- ")))
    }
}

fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| "(absent)".to_owned(), Value::to_string)
}

/// Runs one Tool Interaction Example through `router` (usually the mock's) with a
/// [`ScriptedClient`] built from its steps, once per version of the scope, and checks
/// that every step was requested in order and that the result equals the example's.
pub fn check_interaction(
    router: &Router,
    tool: &ToolCase,
    example: &InteractionExample,
) -> Result<(), String> {
    let what = format!(
        "tool `{}`, interaction example `{}`",
        tool.tool, example.name
    );
    let input = parse_json(example.input, &what)?;
    let steps = parse_json(example.steps, &what)?;
    let expected = parse_json(example.result, &what)?;
    let expected_result: ToolResult = serde_json::from_value(expected.clone()).map_err(|e| {
        format!(
            "{what} ({}/result): not a tool result: {e}",
            example.pointer
        )
    })?;
    for &version in tool.scope {
        let client = Arc::new(ScriptedClient::new(&what, example.pointer, &steps)?);
        let cx = Context::with_peer(version, client.clone());
        let actual =
            futures::executor::block_on(router.call_tool(tool.tool, Some(input.clone()), cx))
                .map_err(|e| format!("{what}, MCP {version}: protocol error: {}", e.message))?;
        client.finish()?;
        if actual != expected_result {
            return Err(format!(
                "{what}, MCP {version}: the result differs from the example's ({}/result):\n    expected: {}\n    actual:   {}",
                example.pointer,
                serde_json::to_string(&expected_result).unwrap_or_default(),
                serde_json::to_string(&actual).unwrap_or_default()
            ));
        }
    }
    Ok(())
}

/// The opt-in contract check: runs `router` (the user's implementation) on the named
/// examples of `book` and compares each result with the example's. Each pair is
/// `(target, example)`, the target written as `--select` writes it
/// ([`Target::parse`]): a tool name, or `prompt:NAME`,
/// `resource:URI`, `template:URI_TEMPLATE`, `completion:prompt:NAME`,
/// `completion:template:URI_TEMPLATE`.
///
/// - Tools ([`compare_results`]): Tool Examples run without a client; interaction
///   examples run with a [`ScriptedClient`] of their steps.
/// - Prompts: the same messages, by role and content kind, in order.
/// - Resources and templates: the same contents, by URI, MIME type and text or blob,
///   in order.
/// - Completions: the same values, in order.
///
/// Each request uses the latest protocol version of the declaration's scope. All
/// mismatches are reported together.
///
/// [`Target::parse`]: crate::examples::mock::target::Target::parse
pub fn check_against(
    router: &Router,
    book: &ExampleBook,
    selection: &[(&str, &str)],
) -> Result<(), String> {
    let mut failures = Vec::new();
    for &(target, name) in selection {
        let tool = match Target::parse(target) {
            Target::Tool(tool) => tool,
            other => {
                if let Err(e) = check_primitive_against(router, book, &other, name) {
                    failures.push(e);
                }
                continue;
            }
        };
        let tool = tool.as_str();
        // A protocol-scoped variant's example runs in that variant's scope.
        let Some((found, scope)) = book.find_scoped(tool, name) else {
            failures.push(format!(
                "tool `{tool}`: no example `{name}` (available: {})",
                book.names(tool).join(", ")
            ));
            continue;
        };
        let version = latest(scope);
        let (cx, client) = match &found.steps {
            Some(steps) => {
                let what = format!("tool `{tool}`, interaction example `{name}`");
                match ScriptedClient::new(&what, "", steps) {
                    Ok(c) => {
                        let c = Arc::new(c);
                        (Context::with_peer(version, c.clone()), Some(c))
                    }
                    Err(e) => {
                        failures.push(e);
                        continue;
                    }
                }
            }
            None => (Context::new(version), None),
        };
        let outcome =
            futures::executor::block_on(router.call_tool(tool, Some(found.input.clone()), cx));
        let actual = match outcome {
            Ok(r) => r.to_wire(version),
            Err(e) => {
                failures.push(format!(
                    "tool `{tool}`, example `{name}`: protocol error: {}",
                    e.message
                ));
                continue;
            }
        };
        if let Some(client) = client {
            if let Err(e) = client.finish() {
                failures.push(e);
            }
        }
        if let Err(diff) = compare_results(&found.result, &actual) {
            failures.push(format!(
                "tool `{tool}`, example `{name}` (MCP {version}): the implementation's result differs from the example:\n{diff}"
            ));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n\n"))
    }
}
