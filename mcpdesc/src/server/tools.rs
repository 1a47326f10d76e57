//! The tools of the [`Router`] served: `tools/list` per protocol version (the
//! native projection) and `tools/call` (the arguments checked against the original
//! `inputSchema`, handler panics contained, structured output checked).

use std::panic::{catch_unwind, AssertUnwindSafe};

use futures::FutureExt;
use serde_json::{Map, Value};

use super::context::Context;
use super::panic::panic_message;
use super::router::{Router, ToolEntry};
use crate::protocol::client_requirements;
use crate::protocol::error::ProtocolError;
use crate::protocol::projection::{native_tool, NativeTool};
use crate::protocol::result::ToolResult;
use crate::protocol::version::{ProtocolVersion, VersionSet};
use crate::schema::validator::{self, Validator};

impl Router {
    /// The native MCP `Tool` values for `version`: the tools whose scope contains it,
    /// projected as [`projection`] describes, in registration order.
    ///
    /// [`projection`]: crate::protocol::projection
    pub fn list_tools(&self, version: ProtocolVersion) -> Vec<Value> {
        self.native_tools(version)
            .into_iter()
            .map(|native| native.tool)
            .collect()
    }

    /// Like [`Router::list_tools`], with the native-shape repairs of each tool.
    pub fn native_tools(&self, version: ProtocolVersion) -> Vec<NativeTool> {
        self.tools
            .iter()
            .filter(|t| t.scope.contains(version))
            .map(|t| native_tool(&t.declaration, version))
            .collect()
    }

    /// Calls a tool.
    ///
    /// - An unknown tool, or one whose scope lacks the context's protocol version, is a
    ///   [`ProtocolError`] (-32602, naming the tool); a tool that failed to register is
    ///   an internal error (-32603).
    /// - Missing arguments mean `{}`. Arguments that are not an object or break the
    ///   original `inputSchema` give an `isError` result listing each failing JSON
    ///   pointer and message, as MCP 2025-11-25 asks for input validation errors; the
    ///   handler is not called.
    /// - A handler's [`ToolError`] becomes an `isError` result. A handler panic is caught
    ///   and becomes an `isError` result naming the tool (the panic message goes to
    ///   stderr only, since it may reveal internals); the router keeps serving.
    /// - With output checking on, a bad `structuredContent` becomes an `isError` result.
    ///
    /// The result is version-independent; [`ToolResult::to_wire`] shapes it.
    ///
    /// [`ToolError`]: crate::protocol::error::ToolError
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Option<Value>,
        cx: Context,
    ) -> Result<ToolResult, ProtocolError> {
        let version = cx.protocol_version();
        let entry = self.find(name, version)?;
        // Before anything of the call runs (MCP Description §8.5).
        client_requirements::check(
            &entry.declaration,
            cx.client_capabilities(),
            version,
            &format!("tool `{name}`"),
        )?;
        let arguments = arguments.unwrap_or_else(|| Value::Object(Map::new()));
        if !arguments.is_object() {
            return Ok(ToolResult::error(format!(
                "Invalid arguments for tool `{name}`: the arguments must be a JSON object, not {}",
                json_kind(&arguments)
            )));
        }
        let problems = validator::violations(&entry.input, &arguments);
        if !problems.is_empty() {
            return Ok(ToolResult::error(format!(
                "Invalid arguments for tool `{name}`:\n- {}",
                problems.join("\n- ")
            )));
        }

        // The handler may panic while building its future or while it runs.
        let handler = &entry.handler;
        let outcome = match catch_unwind(AssertUnwindSafe(|| handler(arguments, cx))) {
            Ok(future) => AssertUnwindSafe(future).catch_unwind().await,
            Err(payload) => Err(payload),
        };
        let result = match outcome {
            Ok(Ok(result)) => result,
            Ok(Err(error)) => return Ok(error.into()),
            Err(payload) => {
                eprintln!(
                    "mcpdesc: the handler of tool `{name}` panicked: {}",
                    panic_message(payload.as_ref())
                );
                return Ok(ToolResult::error(format!(
                    "Tool `{name}` failed: its handler panicked"
                )));
            }
        };

        if self.validate_output && !result.is_error_result() {
            if let Some(output) = &entry.output {
                if let Some(problem) = output_problem(name, output, &result) {
                    eprintln!("mcpdesc: {problem}");
                    return Ok(ToolResult::error(problem));
                }
            }
        }
        Ok(result)
    }

    pub(super) fn find(
        &self,
        name: &str,
        version: ProtocolVersion,
    ) -> Result<&ToolEntry, ProtocolError> {
        if let Some(entry) = self
            .tools
            .iter()
            .find(|t| t.name == name && t.scope.contains(version))
        {
            return Ok(entry);
        }
        let scopes: Vec<VersionSet> = self
            .tools
            .iter()
            .filter(|t| t.name == name)
            .map(|t| t.scope)
            .collect();
        if !scopes.is_empty() {
            let all = scopes
                .iter()
                .fold(VersionSet::default(), |acc, s| acc.union(*s));
            return Err(ProtocolError::invalid_params(format!(
                "Tool `{name}` is not available in MCP protocol version {version} (it is declared for {all})"
            )));
        }
        if let Some(error) = self
            .errors
            .iter()
            .find(|e| e.kind == "tool" && e.name == name)
        {
            return Err(ProtocolError::internal(format!(
                "Tool `{name}` could not be registered: {}",
                error.message
            )));
        }
        Err(ProtocolError::invalid_params(format!(
            "Unknown tool: `{name}`"
        )))
    }
}

/// Why a successful result breaks the tool's `outputSchema`, if it does.
fn output_problem(name: &str, output: &Validator, result: &ToolResult) -> Option<String> {
    let Some(structured) = &result.structured_content else {
        return Some(format!(
            "Tool `{name}` declares an outputSchema but returned no structuredContent"
        ));
    };
    let problems = validator::violations(output, structured);
    if problems.is_empty() {
        return None;
    }
    Some(format!(
        "Tool `{name}` returned structuredContent that does not match its outputSchema:\n- {}",
        problems.join("\n- ")
    ))
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
