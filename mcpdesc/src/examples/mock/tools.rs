//! The mock's answers to `tools/call`: the matching Tool Example's or interaction
//! example's result (an interaction example's steps played first), as JSON or as the
//! typed output of generated traits.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use super::book::ExampleBook;
use super::target::Target;
use crate::examples::data::normalize;
use crate::protocol::content::Content;
use crate::protocol::error::ToolError;
use crate::protocol::json::canonical;
use crate::protocol::result::{ToolResult, Typed};
use crate::server::client_requests::ElicitRequest;
use crate::server::context::Context;

impl ExampleBook {
    /// [`ExampleBook::respond`] for a typed input (what the generated
    /// `ExampleServer` calls for a tool without `outputSchema`): the input as JSON,
    /// matched after a round trip through `I`.
    pub async fn respond_input<I: Serialize + DeserializeOwned>(
        &self,
        tool: &str,
        input: I,
        cx: Context,
    ) -> Result<ToolResult, ToolError> {
        let args = serde_json::to_value(&input).map_err(|e| ToolError::new(e.to_string()))?;
        self.respond(tool, &args, &normalize::<I>, &cx).await
    }

    /// [`ExampleBook::respond_input`] for a tool with `outputSchema`: the result as
    /// the typed output ([`typed_result`]).
    pub async fn respond_typed<I: Serialize + DeserializeOwned, O: DeserializeOwned>(
        &self,
        tool: &str,
        input: I,
        cx: Context,
    ) -> Result<Typed<O>, ToolError> {
        typed_result(self.respond_input(tool, input, cx).await?)
    }

    /// Answers a call of `tool` with `arguments` by the module's policy. An example
    /// matches when its input equals the arguments, or when both are equal after
    /// `normalize` (generated code passes a round trip through the tool's input type,
    /// [`ExampleBook::router`] fills in the `inputSchema`'s defaults; either way typed
    /// arguments still match).
    pub async fn respond(
        &self,
        tool: &str,
        arguments: &Value,
        normalize: &(dyn Fn(&Value) -> Value + Sync),
        cx: &Context,
    ) -> Result<ToolResult, ToolError> {
        let version = cx.protocol_version();
        let book = self
            .books(tool)
            .find(|t| t.scope.is_empty() || t.scope.contains(&version))
            .ok_or_else(|| {
                ToolError::new(format!(
                    "mock: no examples of tool `{tool}` for MCP {version}"
                ))
            })?;
        let entry = match self.selection.get(&Target::Tool(tool.to_owned())) {
            Some(name) => book.entries.iter().find(|e| &e.name == name),
            None => {
                let args = canonical(arguments);
                let normalized_args = canonical(&normalize(arguments));
                book.entries.iter().find(|e| {
                    canonical(&e.input) == args
                        || canonical(&normalize(&e.input)) == normalized_args
                })
            }
        };
        let Some(entry) = entry else {
            let names: Vec<String> = book
                .entries
                .iter()
                .map(|e| format!("`{}`", e.name))
                .collect();
            return Err(ToolError::new(format!(
                "mock: no example of tool `{tool}` matches these arguments; available examples: {}. \
                 This server is a mock that replays the description's examples; it does not predict live behaviour.",
                if names.is_empty() { "none".to_owned() } else { names.join(", ") }
            )));
        };
        if let Some(steps) = &entry.steps {
            play(tool, &entry.name, steps, cx).await?;
        }
        serde_json::from_value(entry.result.clone()).map_err(|e| {
            ToolError::new(format!(
                "mock: the result of example `{}` of tool `{tool}` is not a tool result: {e}",
                entry.name
            ))
        })
    }
}

/// Makes the requests of an interaction example's steps through `cx`.
async fn play(tool: &str, example: &str, steps: &Value, cx: &Context) -> Result<(), ToolError> {
    let steps = steps.as_array().cloned().unwrap_or_default();
    for (i, step) in steps.iter().enumerate() {
        let request = step.get("request").cloned().unwrap_or(Value::Null);
        let kind = step.get("type").and_then(Value::as_str).unwrap_or("?");
        let text = |key: &str| {
            request
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let outcome = match kind {
            "roots" => cx.list_roots().await.map(|_| ()),
            "sampling" => cx.create_message(request.clone()).await.map(|_| ()),
            "elicitation" => {
                let req = if request.get("mode").and_then(Value::as_str) == Some("url") {
                    ElicitRequest::Url {
                        message: text("message"),
                        url: text("url"),
                        elicitation_id: None,
                    }
                } else {
                    ElicitRequest::Form {
                        message: text("message"),
                        requested_schema: request.get("requestedSchema").cloned().unwrap_or(Value::Null),
                    }
                };
                cx.elicit(req).await.map(|_| ())
            }
            other => {
                return Err(ToolError::new(format!(
                    "mock: step {i} of interaction example `{example}` of tool `{tool}` has unknown type `{other}`"
                )))
            }
        };
        outcome.map_err(|e| {
            ToolError::new(format!(
                "mock: step {i} ({kind}) of interaction example `{example}` of tool `{tool}` failed: {e}"
            ))
        })?;
    }
    Ok(())
}

/// Turns an example result into what a typed handler returns: an error result becomes a
/// [`ToolError`] (its first text block is the message, the other blocks follow); a
/// successful one becomes its `structuredContent` as `O`, plus the content blocks other
/// than the text block(s) holding the structured JSON (the router adds that block back).
///
/// Through the typed traits the result is therefore equivalent, not byte-identical; the
/// exact replay is [`ExampleBook::router`].
pub fn typed_result<O: DeserializeOwned>(result: ToolResult) -> Result<Typed<O>, ToolError> {
    if result.is_error_result() {
        let mut blocks = result.content.into_iter();
        let (message, rest): (String, Vec<Content>) = match blocks.next() {
            Some(Content::Text(t)) => (t.text, blocks.collect()),
            Some(other) => (
                String::from("error"),
                std::iter::once(other).chain(blocks).collect(),
            ),
            None => (String::from("error"), Vec::new()),
        };
        return Err(rest
            .into_iter()
            .fold(ToolError::new(message), ToolError::with_content));
    }
    let structured = result.structured_content.unwrap_or(Value::Null);
    let output: O = serde_json::from_value(structured.clone()).map_err(|e| {
        ToolError::new(format!(
            "mock: the example's structuredContent does not fit the output type: {e}"
        ))
    })?;
    let json = canonical(&structured);
    let mut typed = Typed::new(output);
    for block in result.content {
        let repeats_json = matches!(&block, Content::Text(t)
            if serde_json::from_str::<Value>(&t.text).map(|v| canonical(&v) == json).unwrap_or(false));
        if !repeats_json {
            typed = typed.with_content(block);
        }
    }
    if let Some(meta) = result.meta {
        typed = typed.with_meta(meta);
    }
    Ok(typed)
}
