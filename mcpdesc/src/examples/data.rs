//! The examples as generated code stores them (JSON texts, parsed on use), and
//! reading them: a tool's [`ToolCase`], Tool and Tool Interaction Examples, the
//! examples of prompts, resources, templates and completions, the version a check
//! runs in.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::protocol::error::RequestError;
use crate::protocol::version::ProtocolVersion;
use crate::server::router::ToolSpec;

/// One Tool Example as generated code stores it: JSON texts, parsed on use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Example {
    /// Its name in the tool's `examples` map.
    pub name: &'static str,
    /// Its pointer in the description (`/tools/0/examples/basic`; for an example reached
    /// through `$componentRef`, the use site).
    pub pointer: &'static str,
    /// `input`, as JSON text.
    pub input: &'static str,
    /// `result`, as JSON text.
    pub result: &'static str,
}

/// One Tool Interaction Example as generated code stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InteractionExample {
    /// Its name in the tool's `interactionExamples` map.
    pub name: &'static str,
    /// Its pointer in the description (`/tools/0/interactionExamples/approved`).
    pub pointer: &'static str,
    /// `input`, as JSON text.
    pub input: &'static str,
    /// `steps`, as JSON text (an array of step objects).
    pub steps: &'static str,
    /// `result`, as JSON text.
    pub result: &'static str,
}

/// One example of a prompt, resource, resource template or completion target as
/// generated code stores it: JSON texts, parsed on use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestExample {
    /// Its name in the declaration's `examples` or `completionExamples` map.
    pub name: &'static str,
    /// Its pointer in the description (`/prompts/0/examples/default`; for an example
    /// reached through `$componentRef`, the use site).
    pub pointer: &'static str,
    /// The request it shows, as JSON text: a Prompt Example's `arguments` (`{}` when
    /// absent); a Resource Example's request URI (the declaration's `uri`) as a JSON
    /// string; a Resource Template Example's `uri` as a JSON string; a completion
    /// example's `{"argument": ..., "context": ...}`.
    pub request: &'static str,
    /// `result`, as JSON text.
    pub result: &'static str,
}

/// What the checks need to know about a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolCase {
    /// The tool's name.
    pub tool: &'static str,
    /// The resolved declaration (JSON text with `inputSchema` and `outputSchema`).
    pub declaration: &'static str,
    /// The tool's effective protocol scope.
    pub scope: &'static [ProtocolVersion],
}

impl ToolCase {
    /// The case of the tool `spec` registers.
    pub const fn of(spec: &ToolSpec) -> Self {
        ToolCase {
            tool: spec.name,
            declaration: spec.declaration,
            scope: spec.scope,
        }
    }
}

/// Parses one of the JSON texts of generated code.
pub fn parse_json(text: &str, what: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| format!("{what}: not JSON: {e}"))
}

/// `value` after a round trip through `T` (or `value` itself when it does not
/// deserialize): what a typed input looks like when it comes back as JSON.
pub fn normalize<T: Serialize + DeserializeOwned>(value: &Value) -> Value {
    serde_json::from_value::<T>(value.clone())
        .ok()
        .and_then(|t| serde_json::to_value(t).ok())
        .unwrap_or_else(|| value.clone())
}

/// The protocol version a check runs in: the latest of the scope.
pub(crate) fn latest(scope: &[ProtocolVersion]) -> ProtocolVersion {
    scope
        .iter()
        .copied()
        .max()
        .unwrap_or(ProtocolVersion::LATEST)
}

fn lookup<'a>(
    examples: &'a [Example],
    interactions: &'a [InteractionExample],
    name: &str,
) -> Option<(&'a str, &'a str)> {
    examples
        .iter()
        .find(|e| e.name == name)
        .map(|e| (e.input, e.result))
        .or_else(|| {
            interactions
                .iter()
                .find(|e| e.name == name)
                .map(|e| (e.input, e.result))
        })
}

/// The `input` of the example `name` (a Tool Example or an interaction example).
pub fn example_input(
    examples: &[Example],
    interactions: &[InteractionExample],
    name: &str,
) -> Option<Value> {
    lookup(examples, interactions, name).and_then(|(i, _)| serde_json::from_str(i).ok())
}

/// The `result` of the example `name` (a Tool Example or an interaction example).
pub fn example_result(
    examples: &[Example],
    interactions: &[InteractionExample],
    name: &str,
) -> Option<Value> {
    lookup(examples, interactions, name).and_then(|(_, r)| serde_json::from_str(r).ok())
}

/// The request of the example `name` (see [`RequestExample::request`]).
pub fn request_example_request(examples: &[RequestExample], name: &str) -> Option<Value> {
    examples
        .iter()
        .find(|e| e.name == name)
        .and_then(|e| serde_json::from_str(e.request).ok())
}

/// The `result` of the example `name`.
pub fn request_example_result(examples: &[RequestExample], name: &str) -> Option<Value> {
    examples
        .iter()
        .find(|e| e.name == name)
        .and_then(|e| serde_json::from_str(e.result).ok())
}

/// A typed value (prompt arguments) as the JSON object the router passes around.
pub fn to_object<T: Serialize>(value: &T) -> Result<serde_json::Map<String, Value>, RequestError> {
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(RequestError::new(format!(
            "the arguments serialize to {other}, not to a JSON object"
        ))),
        Err(e) => Err(RequestError::new(format!(
            "the arguments cannot be serialized: {e}"
        ))),
    }
}

/// `value` deserialized into `T`, when there is a value.
pub fn typed<T: DeserializeOwned>(value: Option<Value>) -> Option<Result<T, serde_json::Error>> {
    value.map(serde_json::from_value)
}
