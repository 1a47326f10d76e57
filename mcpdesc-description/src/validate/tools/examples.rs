//! Tool Examples (spec §9.3): `input` against `inputSchema`, and the completed result
//! (shape per protocol version, success versus execution error, `structuredContent`
//! against `outputSchema`, content blocks, `_meta`). Interaction examples reuse the
//! input and result checks.

use serde_json::Value;

use super::schema::Evaluation;
use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::rules;
use crate::validate::content;
use crate::validate::cx::{display_path, Cx};
use crate::validate::dialect;
use crate::validate::meta::{self, MetaContext};

use ProtocolVersion::*;

/// A tool's schemas, checked and compiled once, shared by all of its examples.
pub struct ToolSchemas {
    /// `inputSchema`.
    pub input: Evaluation,
    /// `outputSchema`, when declared.
    pub output: Option<Evaluation>,
    /// The raw `inputSchema` (for the legacy `required` check).
    pub input_schema: Value,
}

/// How many instance problems to report per value.
const PROBLEMS_PER_VALUE: usize = 10;

/// Checks an example `input` (Tool Example or Tool Interaction Example).
pub fn check_input(cx: &mut Cx<'_>, at: &Pointer, input: &Value, tool: &ToolSchemas) {
    if !input.is_object() {
        return; // structural error already
    }
    let path = display_path(at);
    match &tool.input.validator {
        Some(validator) => {
            for p in dialect::instance_problems(validator, input, PROBLEMS_PER_VALUE) {
                let ptr = super::schema::at_inside(at, &p.at);
                cx.error(
                    rules::TOOL_EXAMPLE_SCHEMA_CONFORMANCE,
                    "tool-example-schema-mismatch",
                    &ptr,
                    format!(
                        "{path} does not validate against the tool's inputSchema: {}",
                        p.message
                    ),
                );
            }
        }
        None => {
            // Enforce what needs no dialect: the `required` names.
            if let Some(required) = tool.input_schema.get("required").and_then(Value::as_array) {
                for name in required.iter().filter_map(Value::as_str) {
                    if input.get(name).is_none() {
                        cx.error(
                            rules::TOOL_EXAMPLE_SCHEMA_CONFORMANCE,
                            "tool-example-schema-mismatch",
                            at,
                            format!("{path} lacks the required argument `{name}`"),
                        );
                    }
                }
            }
            if tool.input.warn {
                cx.warning(
                    rules::TOOL_EXAMPLE_SCHEMA_CONFORMANCE,
                    "incomplete-tool-example-validation",
                    at,
                    format!(
                        "{path} could not be validated completely against the inputSchema: {}",
                        tool.input.incomplete.as_deref().unwrap_or("unknown reason")
                    ),
                );
            }
        }
    }
}

/// Members that make a value something other than a completed Tool Result.
const ENVELOPE_MEMBERS: [&str; 5] = ["jsonrpc", "id", "error", "method", "params"];
const WORKFLOW_MEMBERS: [&str; 3] = ["task", "inputRequests", "requestState"];

/// Checks a completed Tool Result used in `scope`.
pub fn check_result(
    cx: &mut Cx<'_>,
    at: &Pointer,
    result: &Value,
    tool: &ToolSchemas,
    scope: VersionSet,
) {
    let Some(map) = result.as_object() else {
        return; // structural error already
    };
    let path = display_path(at);
    for member in ENVELOPE_MEMBERS {
        if map.contains_key(member) {
            cx.error(
                rules::EXAMPLE_COMPLETED_FORM,
                "tool-example-json-rpc-envelope",
                &at.key(member),
                format!("{path} contains `{member}`: a Tool Example result is the result payload only, without the JSON-RPC envelope or a protocol error"),
            );
        }
    }
    for member in WORKFLOW_MEMBERS {
        if map.contains_key(member) {
            cx.error(
                rules::EXAMPLE_COMPLETED_FORM,
                "incomplete-tool-example-result",
                &at.key(member),
                format!("{path} contains `{member}`: task, input-required and other non-terminal forms are not completed results; use interactionExamples for workflows"),
            );
        }
    }

    // resultType: required ("complete") in 2026-07-28. In 0.8.0 documents it MUST NOT
    // appear for earlier versions; in 0.9.0 an undefined field of the open Result type
    // is a carried MCP value (§3.6), so it is accepted.
    let modern = scope.intersect(VersionSet::only(V2026_07_28));
    match map.get("resultType") {
        None if !modern.is_empty() => cx.error(
            rules::EXAMPLE_RESULT_FIDELITY,
            "tool-example-result-version-mismatch",
            at,
            format!("{path} must contain \"resultType\": \"complete\" for {modern}"),
        ),
        Some(_) if !cx.is_0_9() => {
            let older = scope.minus(VersionSet::only(V2026_07_28));
            if !older.is_empty() {
                cx.error(
                    rules::EXAMPLE_RESULT_FIDELITY,
                    "tool-example-result-version-mismatch",
                    &at.key("resultType"),
                    format!("{path}.resultType is not defined for {older} and must not be present (mcpdesc 0.8.0)"),
                );
            }
        }
        _ => {}
    }

    let is_error = map.get("isError").and_then(Value::as_bool) == Some(true);
    let structured = map.get("structuredContent");
    if let Some(sc) = structured {
        let unsupported = scope.minus(VersionSet::since(V2025_06_18));
        if !unsupported.is_empty() {
            cx.error(
                rules::EXAMPLE_RESULT_FIDELITY,
                "tool-example-result-version-mismatch",
                &at.key("structuredContent"),
                format!("{path}.structuredContent is not defined for {unsupported}"),
            );
        }
        let object_only = scope.intersect(VersionSet::before(V2026_07_28));
        if !sc.is_object() && !object_only.is_empty() {
            cx.error(
                rules::EXAMPLE_RESULT_MEMBERS,
                "tool-example-result-version-mismatch",
                &at.key("structuredContent"),
                format!("{path}.structuredContent must be an object for {object_only}"),
            );
        }
    }
    if is_error {
        if structured.is_some() {
            cx.error(
                rules::TOOL_EXAMPLE_ERROR_RESULT,
                "structured-tool-error-example",
                &at.key("structuredContent"),
                format!("{path} is an execution error (isError: true) and must not contain structuredContent; outputSchema does not describe errors"),
            );
        }
    } else if let Some(output) = &tool.output {
        match structured {
            None => cx.error(
                rules::TOOL_STRUCTURED_CONTENT_OUTPUT_SCHEMA,
                "missing-tool-example-structured-content",
                at,
                format!("{path} is a successful result of a tool with an outputSchema, so it must contain structuredContent"),
            ),
            Some(sc) => check_structured(cx, &at.key("structuredContent"), sc, output),
        }
    }

    if let Some(blocks) = map.get("content").and_then(Value::as_array) {
        for (i, block) in blocks.iter().enumerate() {
            content::check_block(
                cx,
                &at.key("content").index(i),
                block,
                scope,
                "tool-example-content-version-mismatch",
            );
        }
    }
    if let Some(m) = map.get("_meta") {
        meta::check(cx, &at.key("_meta"), m, scope, MetaContext::Result);
    }
}

fn check_structured(cx: &mut Cx<'_>, at: &Pointer, value: &Value, output: &Evaluation) {
    let path = display_path(at);
    match &output.validator {
        Some(validator) => {
            for p in dialect::instance_problems(validator, value, PROBLEMS_PER_VALUE) {
                let ptr = super::schema::at_inside(at, &p.at);
                cx.error(
                    rules::TOOL_STRUCTURED_CONTENT_OUTPUT_SCHEMA,
                    "tool-example-schema-mismatch",
                    &ptr,
                    format!(
                        "{path} does not validate against the tool's outputSchema: {}",
                        p.message
                    ),
                );
            }
        }
        None if output.warn => cx.warning(
            rules::TOOL_EXAMPLE_SCHEMA_CONFORMANCE,
            "incomplete-tool-example-validation",
            at,
            format!(
                "{path} could not be validated completely against the outputSchema: {}",
                output.incomplete.as_deref().unwrap_or("unknown reason")
            ),
        ),
        None => {}
    }
}
