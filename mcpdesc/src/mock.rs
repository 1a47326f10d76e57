//! A deterministic mock that answers `tools/call` with a description's example results.
//!
//! **This is a mock, not a prediction.** Tool Examples are illustrative (MCP Description
//! §9.3): the mock never executes a live tool and never reproduces side effects; it only
//! replays the results the description shows, chosen by this documented, deterministic
//! policy:
//!
//! 1. **Explicit selection.** When an example was selected for the tool
//!    ([`ExampleBook::select`]), that example answers every call of the tool, whatever
//!    the arguments.
//! 2. **Matching input.** Otherwise the arguments are compared with each example's
//!    `input` after [`canonical`] form (object member order
//!    and `1.0` vs `1` do not matter): first the Tool Examples, then the interaction
//!    examples, each in the description's order. The first equal one answers.
//! 3. **Fallback.** When nothing matches: a tool execution error (`isError: true`)
//!    saying that no example matches and naming the available ones.
//!
//! An interaction example answers by making its steps' requests through the
//! [`Context`] in order (roots, sampling with the step's params, elicitation with the
//! step's mode, message and schema or URL), then returning its result. The client's
//! answers are not interpreted; a failed request ends the call with a tool error naming
//! the step.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::testing::{canonical, Example, InteractionExample};
use crate::{
    Content, Context, ElicitRequest, ProtocolVersion, Router, ServerInfo, ToolError, ToolResult,
    ToolSpec, Typed,
};

/// One example of a tool in an [`ExampleBook`].
#[derive(Debug, Clone, PartialEq)]
pub struct BookEntry {
    /// The example's name.
    pub name: String,
    /// `input`.
    pub input: Value,
    /// `result`.
    pub result: Value,
    /// `steps`, for an interaction example.
    pub steps: Option<Value>,
}

#[derive(Debug, Clone)]
struct ToolBook {
    name: String,
    scope: Vec<ProtocolVersion>,
    entries: Vec<BookEntry>,
}

/// The examples of every tool, and the mock's selection policy (see the module docs).
///
/// ```
/// use mcpdesc::{mock::ExampleBook, testing::Example, Context, ProtocolVersion};
/// use serde_json::json;
///
/// const EXAMPLES: &[Example] = &[Example {
///     name: "hello", pointer: "/tools/0/examples/hello",
///     input: r#"{"who": "world"}"#,
///     result: r#"{"content": [{"type": "text", "text": "Hello, world"}]}"#,
/// }];
/// let book = ExampleBook::new().tool("greet", &[], EXAMPLES, &[]);
/// let cx = Context::new(ProtocolVersion::V2025_11_25);
/// let same = |v: &serde_json::Value| v.clone();
/// let hit = futures::executor::block_on(book.respond("greet", &json!({"who": "world"}), &same, &cx)).unwrap();
/// assert_eq!(hit, mcpdesc::ToolResult::text("Hello, world"));
/// let miss = futures::executor::block_on(book.respond("greet", &json!({"who": "you"}), &same, &cx)).unwrap_err();
/// assert!(miss.message().contains("no example of tool `greet` matches"), "{}", miss.message());
/// ```
#[derive(Debug, Clone, Default)]
pub struct ExampleBook {
    tools: Vec<ToolBook>,
    selection: BTreeMap<String, String>,
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

impl ExampleBook {
    /// An empty book.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a tool's examples as generated code stores them. `scope` is the tool's
    /// protocol scope (empty: every version).
    pub fn tool(
        mut self,
        name: &str,
        scope: &[ProtocolVersion],
        examples: &[Example],
        interactions: &[InteractionExample],
    ) -> Self {
        let entries = examples
            .iter()
            .map(|e| BookEntry {
                name: e.name.to_owned(),
                input: parse(e.input),
                result: parse(e.result),
                steps: None,
            })
            .chain(interactions.iter().map(|e| BookEntry {
                name: e.name.to_owned(),
                input: parse(e.input),
                result: parse(e.result),
                steps: Some(parse(e.steps)),
            }))
            .collect();
        self.add_tool(name, scope.to_vec(), entries);
        self
    }

    /// Adds a tool's examples (Tool Examples first, then interaction examples, as the
    /// matching policy expects).
    pub fn add_tool(&mut self, name: &str, scope: Vec<ProtocolVersion>, entries: Vec<BookEntry>) {
        self.tools.push(ToolBook {
            name: name.to_owned(),
            scope,
            entries,
        });
    }

    /// Selects `example` to answer every call of `tool` (explicit selection).
    pub fn select(mut self, tool: &str, example: &str) -> Result<Self, String> {
        if self.find(tool, example).is_none() {
            return Err(format!(
                "tool `{tool}` has no example `{example}` (available: {})",
                self.names(tool).join(", ")
            ));
        }
        self.selection.insert(tool.to_owned(), example.to_owned());
        Ok(self)
    }

    fn books<'a, 'b>(&'a self, tool: &'b str) -> impl Iterator<Item = &'a ToolBook> + use<'a, 'b> {
        self.tools.iter().filter(move |t| t.name == tool)
    }

    /// The example `name` of `tool` (in any variant of the tool).
    pub fn find(&self, tool: &str, name: &str) -> Option<&BookEntry> {
        self.books(tool)
            .flat_map(|t| &t.entries)
            .find(|e| e.name == name)
    }

    /// The example names of `tool`, in the book's order.
    pub fn names(&self, tool: &str) -> Vec<String> {
        self.books(tool)
            .flat_map(|t| &t.entries)
            .map(|e| format!("`{}`", e.name))
            .collect()
    }

    /// The protocol scope of (the first variant of) `tool`; empty when unknown.
    pub fn scope(&self, tool: &str) -> &[ProtocolVersion] {
        self.books(tool).next().map_or(&[], |t| &t.scope)
    }

    /// Answers a call of `tool` with `arguments` by the module's policy. `normalize` is
    /// applied to each example input before comparing (generated code passes a round
    /// trip through the tool's input type, so typed arguments still match).
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
        let entry = match self.selection.get(tool) {
            Some(name) => book.entries.iter().find(|e| &e.name == name),
            None => {
                let args = canonical(arguments);
                book.entries.iter().find(|e| {
                    canonical(&normalize(&e.input)) == args || canonical(&e.input) == args
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

    /// A router that serves these tools and answers every call through
    /// [`ExampleBook::respond`] with the exact example result.
    pub fn router(self, info: ServerInfo, specs: &[ToolSpec]) -> Router {
        let book = Arc::new(self);
        specs.iter().fold(Router::new(info), |router, spec| {
            let book = Arc::clone(&book);
            let name = spec.name;
            router.tool(*spec, move |args, cx| {
                let book = Arc::clone(&book);
                Box::pin(async move { book.respond(name, &args, &|v| v.clone(), &cx).await })
            })
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
