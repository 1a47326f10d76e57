//! [`ExampleBook`]: the examples of every tool, prompt, resource, resource template
//! and completion target, the explicit selections, and the answers to prompts,
//! resources, templates and completions by the mock's policy.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::target::{Selection, Target};
use crate::examples::data::{Example, InteractionExample, RequestExample};
use crate::protocol::completions::{CompletionRequest, CompletionResult, CompletionTarget};
use crate::protocol::error::RequestError;
use crate::protocol::json::canonical;
use crate::protocol::prompts::PromptResult;
use crate::protocol::resources::ResourceResult;
use crate::protocol::version::ProtocolVersion;
use crate::server::context::Context;

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
pub(super) struct ToolBook {
    pub(super) name: String,
    pub(super) scope: Vec<ProtocolVersion>,
    pub(super) entries: Vec<BookEntry>,
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
    pub(super) tools: Vec<ToolBook>,
    pub(super) others: Vec<RequestBook>,
    pub(super) selection: BTreeMap<Target, String>,
}

/// One example of a prompt, resource, template or completion target in an
/// [`ExampleBook`]: its name, the request it shows (in the canonical form the matching
/// compares) and its result.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestEntry {
    /// The example's name.
    pub name: String,
    /// The request: prompt arguments (`{}` when absent); the resource's or the
    /// template example's URI as a string; a completion's `{"argument": {"name",
    /// "value"}}` plus `{"context": {"arguments"}}` when it has context.
    pub request: Value,
    /// `result`.
    pub result: Value,
}

#[derive(Debug, Clone)]
pub(super) struct RequestBook {
    pub(super) target: Target,
    pub(super) scope: Vec<ProtocolVersion>,
    pub(super) entries: Vec<RequestEntry>,
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
    pub fn select(self, tool: &str, example: &str) -> Result<Self, String> {
        self.select_target(Target::Tool(tool.to_owned()), example)
    }

    /// Selects `example` to answer every request of `target` (explicit selection); an
    /// error names the available examples.
    pub fn select_target(mut self, target: Target, example: &str) -> Result<Self, String> {
        let names = self.target_names(&target);
        if !names.iter().any(|n| n == example) {
            let available: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            return Err(format!(
                "{} has no example `{example}` (available: {})",
                target.label(),
                if available.is_empty() {
                    "none".to_owned()
                } else {
                    available.join(", ")
                }
            ));
        }
        self.selection.insert(target, example.to_owned());
        Ok(self)
    }

    /// Applies a parsed [`Selection`].
    pub fn apply(self, selection: &Selection) -> Result<Self, String> {
        self.select_target(selection.target.clone(), &selection.example)
    }

    /// The example names of `target`, over all its variants, in the book's order.
    pub fn target_names(&self, target: &Target) -> Vec<String> {
        match target {
            Target::Tool(tool) => self
                .books(tool)
                .flat_map(|t| &t.entries)
                .map(|e| e.name.clone())
                .collect(),
            other => self
                .others
                .iter()
                .filter(|b| b.target == *other)
                .flat_map(|b| &b.entries)
                .map(|e| e.name.clone())
                .collect(),
        }
    }

    /// The example `name` of `target` (not a tool) and the scope of its declaration.
    pub fn request_entry(
        &self,
        target: &Target,
        name: &str,
    ) -> Option<(&RequestEntry, &[ProtocolVersion])> {
        self.others
            .iter()
            .filter(|b| b.target == *target)
            .find_map(|b| {
                b.entries
                    .iter()
                    .find(|e| e.name == name)
                    .map(|e| (e, b.scope.as_slice()))
            })
    }

    /// Adds the examples of a prompt, resource, template or completion target (each in
    /// name order, as the matching policy expects). `scope` is the declaration's
    /// protocol scope (empty: every version).
    pub fn add_target(
        &mut self,
        target: Target,
        scope: Vec<ProtocolVersion>,
        entries: Vec<RequestEntry>,
    ) {
        self.others.push(RequestBook {
            target,
            scope,
            entries,
        });
    }

    /// Adds a prompt's examples and completion examples as generated code stores them.
    pub fn prompt(
        mut self,
        name: &str,
        scope: &[ProtocolVersion],
        examples: &[RequestExample],
        completions: &[RequestExample],
    ) -> Self {
        self.add_stored(Target::Prompt(name.to_owned()), scope, examples);
        if !completions.is_empty() {
            let target = Target::Completion(CompletionTarget::prompt(name));
            self.add_stored(target, scope, completions);
        }
        self
    }

    /// Adds a resource's examples as generated code stores them.
    pub fn resource(
        mut self,
        uri: &str,
        scope: &[ProtocolVersion],
        examples: &[RequestExample],
    ) -> Self {
        self.add_stored(Target::Resource(uri.to_owned()), scope, examples);
        self
    }

    /// Adds a resource template's examples and completion examples as generated code
    /// stores them.
    pub fn resource_template(
        mut self,
        uri_template: &str,
        scope: &[ProtocolVersion],
        examples: &[RequestExample],
        completions: &[RequestExample],
    ) -> Self {
        self.add_stored(
            Target::ResourceTemplate(uri_template.to_owned()),
            scope,
            examples,
        );
        if !completions.is_empty() {
            let target = Target::Completion(CompletionTarget::resource_template(uri_template));
            self.add_stored(target, scope, completions);
        }
        self
    }

    fn add_stored(
        &mut self,
        target: Target,
        scope: &[ProtocolVersion],
        examples: &[RequestExample],
    ) {
        let completion = matches!(target, Target::Completion(_));
        let entries = examples
            .iter()
            .map(|e| {
                let request = parse(e.request);
                RequestEntry {
                    name: e.name.to_owned(),
                    request: if completion {
                        completion_request(&request)
                    } else {
                        request
                    },
                    result: parse(e.result),
                }
            })
            .collect();
        self.add_target(target, scope.to_vec(), entries);
    }

    /// The book of `target` for `version`, and the entry that answers `request`
    /// (canonical JSON) by the module's policy.
    fn answer(
        &self,
        target: &Target,
        request: &Value,
        version: ProtocolVersion,
    ) -> Result<&RequestEntry, String> {
        let book = self
            .others
            .iter()
            .find(|b| b.target == *target && (b.scope.is_empty() || b.scope.contains(&version)))
            .ok_or_else(|| format!("mock: {} has no examples for MCP {version}", target.label()))?;
        let entry = match self.selection.get(target) {
            Some(name) => book.entries.iter().find(|e| &e.name == name),
            None => {
                let wanted = canonical(request);
                book.entries.iter().find(|e| match target {
                    Target::Resource(_) => true,
                    _ => canonical(&e.request) == wanted,
                })
            }
        };
        entry.ok_or_else(|| {
            let names: Vec<String> = book.entries.iter().map(|e| format!("`{}`", e.name)).collect();
            format!(
                "mock: no example of {} matches this request ({request}); available examples: {}. \
                 This server is a mock that replays the description's examples; it does not predict live behaviour.",
                target.label(),
                if names.is_empty() { "none".to_owned() } else { names.join(", ") }
            )
        })
    }

    /// Answers `prompts/get` of `name` with `arguments` by the module's policy.
    pub fn respond_prompt(
        &self,
        name: &str,
        arguments: &Map<String, Value>,
        cx: &Context,
    ) -> Result<PromptResult, RequestError> {
        let target = Target::Prompt(name.to_owned());
        let request = Value::Object(arguments.clone());
        let entry = self
            .answer(&target, &request, cx.protocol_version())
            .map_err(RequestError::invalid_params)?;
        typed_answer(&target, entry)
    }

    /// Answers `resources/read` of the resource `uri`.
    pub fn respond_resource(
        &self,
        uri: &str,
        cx: &Context,
    ) -> Result<ResourceResult, RequestError> {
        let target = Target::Resource(uri.to_owned());
        let entry = self
            .answer(&target, &Value::from(uri), cx.protocol_version())
            .map_err(|why| RequestError::resource_not_found(uri).with_message(why))?;
        typed_answer(&target, entry)
    }

    /// Answers `resources/read` of `uri`, an expansion of `uri_template`.
    pub fn respond_resource_template(
        &self,
        uri_template: &str,
        uri: &str,
        cx: &Context,
    ) -> Result<ResourceResult, RequestError> {
        let target = Target::ResourceTemplate(uri_template.to_owned());
        let entry = self
            .answer(&target, &Value::from(uri), cx.protocol_version())
            .map_err(|why| RequestError::resource_not_found(uri).with_message(why))?;
        typed_answer(&target, entry)
    }

    /// Answers `completion/complete` for `target`.
    pub fn respond_completion(
        &self,
        target: &CompletionTarget,
        request: &CompletionRequest,
        cx: &Context,
    ) -> Result<CompletionResult, RequestError> {
        let target = Target::Completion(target.clone());
        let entry = self
            .answer(
                &target,
                &request.to_example_request(),
                cx.protocol_version(),
            )
            .map_err(RequestError::invalid_params)?;
        typed_answer(&target, entry)
    }

    pub(super) fn books<'a, 'b>(
        &'a self,
        tool: &'b str,
    ) -> impl Iterator<Item = &'a ToolBook> + use<'a, 'b> {
        self.tools.iter().filter(move |t| t.name == tool)
    }

    /// The example `name` of `tool` (in any variant of the tool).
    pub fn find(&self, tool: &str, name: &str) -> Option<&BookEntry> {
        self.books(tool)
            .flat_map(|t| &t.entries)
            .find(|e| e.name == name)
    }

    /// The example `name` of `tool` with the scope of the variant that has it (the
    /// first in declaration order when several variants have an example of that name).
    pub fn find_scoped(&self, tool: &str, name: &str) -> Option<(&BookEntry, &[ProtocolVersion])> {
        self.books(tool).find_map(|t| {
            t.entries
                .iter()
                .find(|e| e.name == name)
                .map(|e| (e, t.scope.as_slice()))
        })
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
}

/// The example result of `entry` as the result type `T`.
fn typed_answer<T: DeserializeOwned>(
    target: &Target,
    entry: &RequestEntry,
) -> Result<T, RequestError> {
    serde_json::from_value(entry.result.clone()).map_err(|e| {
        RequestError::new(format!(
            "mock: the result of example `{}` of {} does not have the MCP result shape: {e}",
            entry.name,
            target.label()
        ))
    })
}

/// A completion example's request (`argument`, `context`) in the form
/// [`CompletionRequest::to_example_request`] gives, without `x-*` members: what
/// [`RequestEntry::request`] holds for a completion example.
pub fn completion_request(example: &Value) -> Value {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or_default().to_owned();
    let mut request = CompletionRequest::new(
        text(example.pointer("/argument/name")),
        text(example.pointer("/argument/value")),
    );
    if let Some(Value::Object(arguments)) = example.pointer("/context/arguments") {
        for (name, value) in arguments {
            request = request.with_context(name.clone(), value.as_str().unwrap_or_default());
        }
    }
    request.to_example_request()
}
