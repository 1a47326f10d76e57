//! What a check found: one [`Finding`] per problem, each naming the primitive it is
//! about.

use serde_json::{json, Value};

/// How much a finding weighs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The server breaks its description or MCP: `check` exits 1.
    Failure,
    /// A difference the description allows (examples are illustrative, MCP
    /// Description §9.3); a failure under `--strict`.
    Warning,
    /// Something the check could not do (a schema the input generator cannot serve,
    /// an interaction example); never a failure.
    Skipped,
}

impl Severity {
    /// The JSON and human spelling: `failure`, `warning`, `skipped`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Failure => "failure",
            Severity::Warning => "warning",
            Severity::Skipped => "skipped",
        }
    }
}

/// The kind of primitive a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Primitive {
    /// A tool (`tools/list`, `tools/call`).
    Tool,
    /// A prompt (`prompts/list`, `prompts/get`).
    Prompt,
    /// A static resource (`resources/list`, `resources/read`).
    Resource,
    /// A resource template (`resources/templates/list`, `resources/read`).
    ResourceTemplate,
    /// The server as a whole (it exited, its listing is malformed).
    Server,
}

impl Primitive {
    /// The JSON spelling: `tool`, `prompt`, `resource`, `resource-template`, `server`.
    pub fn as_str(self) -> &'static str {
        match self {
            Primitive::Tool => "tool",
            Primitive::Prompt => "prompt",
            Primitive::Resource => "resource",
            Primitive::ResourceTemplate => "resource-template",
            Primitive::Server => "server",
        }
    }

    /// How the human report names one: `tool`, `prompt`, `resource`, `resource template`.
    pub fn noun(self) -> &'static str {
        match self {
            Primitive::ResourceTemplate => "resource template",
            other => other.as_str(),
        }
    }
}

/// One problem (or one thing not checked).
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// What was found, a stable kebab-case id (`missing`, `undeclared`,
    /// `input-schema-differs`, `example-error`, ... listed in the crate docs).
    pub kind: &'static str,
    /// Its weight.
    pub severity: Severity,
    /// What it is about.
    pub primitive: Primitive,
    /// The name of the tool or prompt, the URI of the resource, the URI template of
    /// the template; `None` for the server as a whole.
    pub name: Option<String>,
    /// The example replayed, or `generated #N` for a generated input.
    pub example: Option<String>,
    /// What happened, with the exact input for calls.
    pub message: String,
}

impl Finding {
    /// A finding about `name` of `primitive`.
    pub fn new(
        kind: &'static str,
        severity: Severity,
        primitive: Primitive,
        name: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Finding {
            kind,
            severity,
            primitive,
            name: Some(name.into()),
            example: None,
            message: message.into(),
        }
    }

    /// A finding about the server as a whole.
    pub fn server(kind: &'static str, severity: Severity, message: impl Into<String>) -> Self {
        Finding {
            kind,
            severity,
            primitive: Primitive::Server,
            name: None,
            example: None,
            message: message.into(),
        }
    }

    /// The same finding about one example (or generated case).
    pub fn with_example(mut self, example: impl Into<String>) -> Self {
        self.example = Some(example.into());
        self
    }

    /// The finding as the JSON report lists it: `kind`, `severity`, `tool` (the name of
    /// the tool, or of the prompt, resource or template, `null` for the server),
    /// `primitive`, `example` when there is one, `message`.
    pub fn to_json(&self) -> Value {
        let mut value = json!({
            "kind": self.kind,
            "severity": self.severity.as_str(),
            "primitive": self.primitive.as_str(),
            "tool": self.name,
            "message": self.message,
        });
        if let (Some(example), Some(map)) = (&self.example, value.as_object_mut()) {
            map.insert("example".into(), Value::String(example.clone()));
        }
        value
    }

    /// One diagnostic in the validator's style:
    /// `failure[missing]: tool `x`: message` (with `, example `e`` after the name).
    pub fn render(&self) -> String {
        let subject = match &self.name {
            Some(name) => format!("{} `{name}`", self.primitive.noun()),
            None => "server".to_owned(),
        };
        let example = self
            .example
            .as_ref()
            .map_or(String::new(), |e| format!(", example `{e}`"));
        format!(
            "{}[{}]: {subject}{example}: {}",
            self.severity.as_str(),
            self.kind,
            self.message
        )
    }
}
