//! A deterministic mock that answers with a description's example results: `tools/call`
//! from Tool Examples and Tool Interaction Examples, `prompts/get` from Prompt Examples,
//! `resources/read` from Resource and Resource Template Examples, and
//! `completion/complete` from completion examples.
//!
//! **This is a mock, not a prediction.** Examples are illustrative (MCP Description
//! §9.3): the mock never executes a live tool and never reproduces side effects; it only
//! replays the results the description shows, chosen by this documented, deterministic
//! policy, the same for every kind of request:
//!
//! 1. **Explicit selection.** When an example was selected for the target (a tool, a
//!    prompt, a resource, a resource template, or the completions of a prompt or
//!    template; [`ExampleBook::select_target`], `--select` of `mcpdesc serve-mock`),
//!    that example answers every request of the target, whatever its arguments.
//! 2. **Matching request.** Otherwise the first example, in name order, whose request
//!    equals the one received answers:
//!
//!    | request | an example matches when |
//!    |---|---|
//!    | `tools/call` | its `input` equals the arguments, as given or with the `inputSchema`'s property `default`s filled in on both sides ([`with_schema_defaults`]; `ExampleServer` compares through the input type instead) (Tool Examples first, then interaction examples) |
//!    | `prompts/get` | its `arguments` (absent: `{}`) equal the arguments |
//!    | `resources/read` of a resource | always: the declaration's `uri` is the request |
//!    | `resources/read` of a template | its `uri` equals the URI read |
//!    | `completion/complete` | its `argument` (name and value) and `context.arguments` (absent: none) equal the request's |
//!
//!    JSON values are compared in [`canonical`] form (object member order and `1.0` vs
//!    `1` do not matter).
//! 3. **Fallback.** When nothing matches: for a tool, a tool execution error
//!    (`isError: true`); for a prompt or a completion, a JSON-RPC "Invalid params" error
//!    (-32602); for a resource or template, "Resource not found" (-32002, or -32602 from
//!    MCP 2026-07-28 on). Each names the available examples.
//!
//! An answer is the example's whole `result` (shaped for the negotiated version, which
//! for a valid description changes nothing: the example already fits every version of
//! its declaration's scope). Protocol-scoped variants of a declaration keep their own
//! examples: a request is answered from the variant of the negotiated version.
//!
//! An interaction example answers by making its steps' requests through the
//! [`Context`] in order (roots, sampling with the step's params, elicitation with the
//! step's mode, message and schema or URL), then returning its result. The client's
//! answers are not interpreted; a failed request ends the call with a tool error naming
//! the step.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::examples::testing::{canonical, Example, InteractionExample, RequestExample};
use crate::{
    CompletionRequest, CompletionResult, CompletionTarget, Content, Context, ElicitRequest,
    PromptResult, PromptSpec, ProtocolVersion, RequestError, ResourceResult, ResourceSpec,
    ResourceTemplateSpec, Router, ServerInfo, ToolError, ToolResult, ToolSpec, Typed,
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
    others: Vec<RequestBook>,
    selection: BTreeMap<Target, String>,
}

/// What an example answers: a tool, a prompt, a resource (by URI), a resource template
/// (by URI template), or the completions of a prompt or template.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// `tools/call` of the tool.
    Tool(String),
    /// `prompts/get` of the prompt.
    Prompt(String),
    /// `resources/read` of the resource with this URI.
    Resource(String),
    /// `resources/read` of URIs of the template.
    ResourceTemplate(String),
    /// `completion/complete` for the prompt or template.
    Completion(CompletionTarget),
}

impl Target {
    /// How the target reads in messages: ``prompt `brief` ``.
    pub fn label(&self) -> String {
        match self {
            Target::Tool(name) => format!("tool `{name}`"),
            Target::Prompt(name) => format!("prompt `{name}`"),
            Target::Resource(uri) => format!("resource `{uri}`"),
            Target::ResourceTemplate(t) => format!("resource template `{t}`"),
            Target::Completion(c) => format!("the completions of {} `{}`", c.kind(), c.id()),
        }
    }
}

/// An explicit selection, as `mcpdesc serve-mock --select` writes it:
///
/// | text | target |
/// |---|---|
/// | `TOOL=EXAMPLE` or `tool:TOOL=EXAMPLE` | a tool |
/// | `prompt:NAME=EXAMPLE` | a prompt |
/// | `resource:URI=EXAMPLE` | a resource |
/// | `template:URI_TEMPLATE=EXAMPLE` | a resource template |
/// | `completion:prompt:NAME=EXAMPLE` | the completions of a prompt |
/// | `completion:template:URI_TEMPLATE=EXAMPLE` | the completions of a template |
///
/// The example name is what follows the last `=` (example names never contain `=`, URIs
/// may). A tool whose name starts with one of the prefixes is written `tool:NAME=...`.
///
/// ```
/// use mcpdesc::mock::{Selection, Target};
///
/// let s: Selection = "resource:chess://leaderboard?kind=classical=top-two".parse().unwrap();
/// assert_eq!(s.target, Target::Resource("chess://leaderboard?kind=classical".into()));
/// assert_eq!(s.example, "top-two");
/// let t: Selection = "analyze_game=scholars-mate".parse().unwrap();
/// assert_eq!(t.target, Target::Tool("analyze_game".into()));
/// assert!("prompt:=x".parse::<Selection>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// What the example answers.
    pub target: Target,
    /// The example's name.
    pub example: String,
}

impl Target {
    /// Reads a target as [`Selection`] writes it before the `=`: a tool name, or
    /// `tool:NAME`, `prompt:NAME`, `resource:URI`, `template:URI_TEMPLATE`,
    /// `completion:prompt:NAME`, `completion:template:URI_TEMPLATE`.
    ///
    /// ```
    /// use mcpdesc::mock::Target;
    /// use mcpdesc::CompletionTarget;
    ///
    /// assert_eq!(Target::parse("template:x://{id}"), Target::ResourceTemplate("x://{id}".into()));
    /// assert_eq!(Target::parse("completion:prompt:brief"), Target::Completion(CompletionTarget::prompt("brief")));
    /// assert_eq!(Target::parse("analyze_game"), Target::Tool("analyze_game".into()));
    /// ```
    pub fn parse(head: &str) -> Target {
        if let Some(rest) = head.strip_prefix("completion:prompt:") {
            Target::Completion(CompletionTarget::prompt(rest))
        } else if let Some(rest) = head.strip_prefix("completion:template:") {
            Target::Completion(CompletionTarget::resource_template(rest))
        } else if let Some(rest) = head.strip_prefix("prompt:") {
            Target::Prompt(rest.to_owned())
        } else if let Some(rest) = head.strip_prefix("resource:") {
            Target::Resource(rest.to_owned())
        } else if let Some(rest) = head.strip_prefix("template:") {
            Target::ResourceTemplate(rest.to_owned())
        } else if let Some(rest) = head.strip_prefix("tool:") {
            Target::Tool(rest.to_owned())
        } else {
            Target::Tool(head.to_owned())
        }
    }

    /// The identity: tool or prompt name, URI, URI template.
    pub fn id(&self) -> &str {
        match self {
            Target::Tool(id)
            | Target::Prompt(id)
            | Target::Resource(id)
            | Target::ResourceTemplate(id) => id,
            Target::Completion(c) => c.id(),
        }
    }
}

impl std::str::FromStr for Selection {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let usage = || {
            format!(
                "expected TOOL=EXAMPLE, tool:NAME=EXAMPLE, prompt:NAME=EXAMPLE, resource:URI=EXAMPLE, template:URI_TEMPLATE=EXAMPLE, completion:prompt:NAME=EXAMPLE or completion:template:URI_TEMPLATE=EXAMPLE; got {text:?}"
            )
        };
        let (head, example) = text.rsplit_once('=').ok_or_else(usage)?;
        let target = Target::parse(head);
        let id_empty = target.id().is_empty();
        if id_empty || example.is_empty() {
            return Err(usage());
        }
        Ok(Selection {
            target,
            example: example.to_owned(),
        })
    }
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
struct RequestBook {
    target: Target,
    scope: Vec<ProtocolVersion>,
    entries: Vec<RequestEntry>,
}

/// Everything a mock router serves, as generated code declares it (`'static`
/// constants); see [`ExampleBook::router`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Specs {
    /// The tools.
    pub tools: &'static [ToolSpec],
    /// The prompts.
    pub prompts: &'static [PromptSpec],
    /// The resources.
    pub resources: &'static [ResourceSpec],
    /// The resource templates.
    pub resource_templates: &'static [ResourceTemplateSpec],
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

    fn books<'a, 'b>(&'a self, tool: &'b str) -> impl Iterator<Item = &'a ToolBook> + use<'a, 'b> {
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
        self.respond(tool, &args, &crate::examples::testing::normalize::<I>, &cx)
            .await
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

    /// A router that serves everything in `specs` and answers every request from the
    /// book with the exact example result: `tools/call` through
    /// [`ExampleBook::respond`], `prompts/get`, `resources/read` and
    /// `completion/complete` through the `respond_*` methods (completion handlers are
    /// registered for the prompts and templates with completion examples). The
    /// capabilities come from `info` ([`ServerInfo::capabilities`]).
    pub fn router(self, info: ServerInfo, specs: &Specs) -> Router {
        let book = Arc::new(self);
        let mut router = specs.tools.iter().fold(Router::new(info), |router, spec| {
            let book = Arc::clone(&book);
            let name = spec.name;
            // Arguments equal once the inputSchema's defaults are filled in match: a
            // typed client sends `"includeImage": false` where the example leaves the
            // defaulted member out.
            let schema = serde_json::from_str::<Value>(spec.declaration)
                .ok()
                .and_then(|d| d.get("inputSchema").cloned())
                .unwrap_or(Value::Null);
            let schema = Arc::new(schema);
            router.tool(*spec, move |args, cx| {
                let book = Arc::clone(&book);
                let schema = Arc::clone(&schema);
                Box::pin(async move {
                    let defaults = |v: &Value| with_schema_defaults(v, &schema);
                    book.respond(name, &args, &defaults, &cx).await
                })
            })
        });
        for spec in specs.prompts {
            let book = Arc::clone(&book);
            let name = spec.name;
            router = router.prompt(*spec, move |args, cx| {
                let answer = book.respond_prompt(name, &args, &cx);
                Box::pin(async move { answer })
            });
        }
        for spec in specs.resources {
            let book = Arc::clone(&book);
            router = router.resource(*spec, move |uri, cx| {
                let answer = book.respond_resource(&uri, &cx);
                Box::pin(async move { answer })
            });
        }
        for spec in specs.resource_templates {
            let book = Arc::clone(&book);
            let template = spec.uri_template;
            router = router.resource_template(*spec, move |uri, _variables, cx| {
                let answer = book.respond_resource_template(template, &uri, &cx);
                Box::pin(async move { answer })
            });
        }
        let completions: Vec<(CompletionTarget, Vec<ProtocolVersion>)> = book
            .others
            .iter()
            .filter_map(|b| match &b.target {
                Target::Completion(target) => Some((target.clone(), b.scope.clone())),
                _ => None,
            })
            .collect();
        for (target, scope) in completions {
            let book = Arc::clone(&book);
            let scope: &'static [ProtocolVersion] = Box::leak(scope.into_boxed_slice());
            let answering = target.clone();
            router = router.completion(target, scope, move |request, cx| {
                let answer = book.respond_completion(&answering, &request, &cx);
                Box::pin(async move { answer })
            });
        }
        router
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

/// `value` with the `default` of every property its object schema declares and the
/// value lacks, recursively through `properties` (nothing else of the schema is
/// followed: `$ref`, `allOf` and the like are left alone). For comparing arguments,
/// where a member left at its default and one given as the default mean the same.
///
/// ```
/// use mcpdesc::mock::with_schema_defaults;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {
///     "kind": {"type": "string"},
///     "image": {"type": "boolean", "default": false}
/// }});
/// assert_eq!(with_schema_defaults(&json!({"kind": "a"}), &schema), json!({"kind": "a", "image": false}));
/// ```
pub fn with_schema_defaults(value: &Value, schema: &Value) -> Value {
    let (Value::Object(object), Some(Value::Object(properties))) =
        (value, schema.get("properties"))
    else {
        return value.clone();
    };
    let mut out = object.clone();
    for (name, property) in properties {
        match out.get_mut(name) {
            Some(member) => *member = with_schema_defaults(member, property),
            None => {
                if let Some(default) = property.get("default") {
                    out.insert(name.clone(), default.clone());
                }
            }
        }
    }
    Value::Object(out)
}
