//! The typed model of an MCP Description (digest §1–§6), built from a document that
//! passed validation, with every `$componentRef` already substituted.
//!
//! Closed objects are enforced by validation, so the model keeps only the `x-*`
//! specification extensions beside the known members (`extensions`). Embedded JSON
//! Schemas, example payloads and other carried MCP values stay `serde_json::Value`:
//! they are data, and the generator reads them as such.
//!
//! Collections are `Option<Vec<_>>`: `None` means "omitted", which the format
//! distinguishes from "empty" (empty ordinary collections are invalid). `security` keeps
//! all three states: omitted (`None`), `[]` and `[{}]`.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

/// `x-*` members of an object, in document order.
pub type Extensions = serde_json::Map<String, Value>;

/// An object of MCP `_meta` keys and values.
pub type Meta = serde_json::Map<String, Value>;

/// A security requirement: scheme name → required scopes (AND); a list of them is OR.
pub type SecurityRequirement = BTreeMap<String, Vec<String>>;

/// The root object.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Document {
    /// `$schema`: the structural schema the author chose (never fetched).
    #[serde(rename = "$schema")]
    pub schema: Option<String>,
    /// The format version, `"0.8.0"` or `"0.9.0"`.
    pub mcpdesc: String,
    /// Document-wide metadata.
    pub info: Info,
    /// The protocol versions the document describes.
    pub protocol_versions: Vec<String>,
    /// Lasting guidance for using the server.
    pub instructions: Option<String>,
    /// How to reach the server.
    pub transports: Option<Vec<Transport>>,
    /// Named security schemes.
    pub security_schemes: Option<BTreeMap<String, SecurityScheme>>,
    /// The default security requirement.
    pub security: Option<Vec<SecurityRequirement>>,
    /// Reusable values.
    pub components: Option<Components>,
    /// Server capabilities, per protocol scope.
    pub capabilities: Option<Vec<Value>>,
    /// Tools.
    pub tools: Option<Vec<Tool>>,
    /// Resources.
    pub resources: Option<Vec<Resource>>,
    /// Resource templates.
    pub resource_templates: Option<Vec<ResourceTemplate>>,
    /// Prompts.
    pub prompts: Option<Vec<Prompt>>,
    /// The tag catalogue.
    pub tags: Option<Vec<Tag>>,
    /// `x-*` members.
    #[serde(flatten)]
    pub extensions: Extensions,
}

impl Document {
    /// Builds the model from a validated, resolved document.
    pub fn from_resolved(value: &Value) -> Result<Document, serde_json::Error> {
        Document::deserialize(value)
    }
}

/// The Info Object.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Info {
    /// `Implementation.name`.
    pub name: String,
    /// `Implementation.version`.
    pub version: String,
    /// Display title.
    pub title: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// A URI, DID or URN identifying the server.
    pub id: Option<String>,
    /// Icons.
    pub icons: Option<Vec<Icon>>,
    /// Website.
    pub website_url: Option<String>,
    /// Contact (OpenAPI-style).
    pub contact: Option<Value>,
    /// License (OpenAPI-style).
    pub license: Option<Value>,
    /// `x-*` members.
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// An icon.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Icon {
    /// `http(s)` or `data:` URI.
    pub src: String,
    /// MIME type.
    pub mime_type: Option<String>,
    /// Sizes such as `48x48` or `any`.
    pub sizes: Option<Vec<String>>,
    /// `light` or `dark`.
    pub theme: Option<String>,
    /// `x-*` members.
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// A transport, discriminated by `type`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Transport {
    /// Standard input/output.
    Stdio {
        /// Command to start the server.
        command: String,
        /// Arguments.
        args: Option<Vec<String>>,
        /// Environment.
        env: Option<BTreeMap<String, String>>,
        /// Scope.
        #[serde(rename = "protocolVersions")]
        protocol_versions: Option<Vec<String>>,
        /// Security override.
        security: Option<Vec<SecurityRequirement>>,
        /// `x-*` members.
        #[serde(flatten)]
        extensions: Extensions,
    },
    /// Streamable HTTP (2025-03-26 and later).
    StreamableHttp {
        /// Endpoint.
        url: String,
        /// Scope.
        #[serde(rename = "protocolVersions")]
        protocol_versions: Option<Vec<String>>,
        /// Security override.
        security: Option<Vec<SecurityRequirement>>,
        /// `x-*` members.
        #[serde(flatten)]
        extensions: Extensions,
    },
    /// Legacy HTTP+SSE.
    Sse {
        /// Endpoint.
        url: String,
        /// Scope.
        #[serde(rename = "protocolVersions")]
        protocol_versions: Option<Vec<String>>,
        /// Security override.
        security: Option<Vec<SecurityRequirement>>,
        /// `x-*` members.
        #[serde(flatten)]
        extensions: Extensions,
    },
}

/// A security scheme (kept as its JSON object; its `type` selects the fields).
pub type SecurityScheme = Value;

/// The Components Object.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Components {
    /// Reusable JSON Schemas.
    pub schemas: Option<BTreeMap<String, Value>>,
    /// Reusable Tool Examples.
    pub tool_examples: Option<BTreeMap<String, ToolExample>>,
    /// Reusable Resource Examples.
    pub resource_examples: Option<BTreeMap<String, Value>>,
    /// Reusable Resource Template Examples.
    pub resource_template_examples: Option<BTreeMap<String, Value>>,
    /// Reusable Prompt Examples.
    pub prompt_examples: Option<BTreeMap<String, Value>>,
    /// `x-*` members.
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// A Tool declaration.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    /// Scope (absent: every root version).
    pub protocol_versions: Option<Vec<String>>,
    /// Programmatic name.
    pub name: String,
    /// Display name.
    pub title: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Input JSON Schema (resolved).
    pub input_schema: Value,
    /// Output JSON Schema (resolved).
    pub output_schema: Option<Value>,
    /// Behavioural hints.
    pub annotations: Option<ToolAnnotations>,
    /// Execution properties (2025-11-25).
    pub execution: Option<Execution>,
    /// Named complete invocation/result pairs.
    pub examples: Option<BTreeMap<String, ToolExample>>,
    /// Named interaction scenarios.
    pub interaction_examples: Option<BTreeMap<String, ToolInteractionExample>>,
    /// Icons.
    pub icons: Option<Vec<Icon>>,
    /// Tags.
    pub tags: Option<Vec<String>>,
    /// Elicitation Declarations.
    pub elicitations: Option<Vec<ElicitationDeclaration>>,
    /// Deprecated flag.
    pub deprecated: Option<bool>,
    /// Literal MCP metadata.
    #[serde(rename = "_meta")]
    pub meta: Option<Meta>,
    /// Security override.
    pub security: Option<Vec<SecurityRequirement>>,
    /// Minimum client capabilities for `tools/call`.
    pub client_requirements: Option<Value>,
    /// `x-*` members.
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// Tool Annotations (closed in 0.9.0).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// Title hint.
    pub title: Option<String>,
    /// Default false.
    pub read_only_hint: Option<bool>,
    /// Default true.
    pub destructive_hint: Option<bool>,
    /// Default false.
    pub idempotent_hint: Option<bool>,
    /// Default true.
    pub open_world_hint: Option<bool>,
    /// Members an 0.8.0 document may still carry.
    #[serde(flatten)]
    pub other: serde_json::Map<String, Value>,
}

/// The Execution Object.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Execution {
    /// `forbidden` (default), `optional` or `required`.
    pub task_support: Option<String>,
}

/// A Tool Example: one complete invocation and its completed result.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ToolExample {
    /// `tools/call` `params.arguments`.
    pub input: Value,
    /// The completed Tool Result payload.
    pub result: Value,
    /// `x-*` members.
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// A Tool Interaction Example.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ToolInteractionExample {
    /// Initial arguments.
    pub input: Value,
    /// Ordered client-input exchanges.
    pub steps: Vec<InteractionStep>,
    /// Terminal completed result.
    pub result: Value,
    /// `x-*` members.
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// One step of an interaction example.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct InteractionStep {
    /// `elicitation`, `sampling` or `roots`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Name of an Elicitation Declaration on the same tool.
    pub declaration: Option<String>,
    /// The request the tool makes.
    pub request: Value,
    /// The client's answer.
    pub response: Value,
    /// `x-*` members.
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// An Elicitation Declaration.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitationDeclaration {
    /// Local name.
    pub name: String,
    /// `form` or `url`.
    pub mode: String,
    /// Representative message.
    pub message: String,
    /// Descriptive condition.
    pub when: Option<String>,
    /// Form schema (resolved).
    pub requested_schema: Option<Value>,
    /// Static URL (url mode).
    pub url: Option<String>,
    /// What happens on decline.
    pub on_decline: Option<String>,
    /// What happens on cancel.
    pub on_cancel: Option<String>,
    /// Scope.
    pub protocol_versions: Option<Vec<String>>,
    /// `x-*` members.
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// A Resource declaration (payload-level parts kept as JSON).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// Scope.
    pub protocol_versions: Option<Vec<String>>,
    /// URI.
    pub uri: String,
    /// Name.
    pub name: String,
    /// Title.
    pub title: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// MIME type.
    pub mime_type: Option<String>,
    /// Size in bytes.
    pub size: Option<f64>,
    /// Resource Annotations.
    pub annotations: Option<Value>,
    /// Icons.
    pub icons: Option<Vec<Icon>>,
    /// Named read results.
    pub examples: Option<BTreeMap<String, Value>>,
    /// Tags.
    pub tags: Option<Vec<String>>,
    /// Elicitation Declarations.
    pub elicitations: Option<Vec<ElicitationDeclaration>>,
    /// Deprecated flag.
    pub deprecated: Option<bool>,
    /// Literal MCP metadata.
    #[serde(rename = "_meta")]
    pub meta: Option<Meta>,
    /// Security override.
    pub security: Option<Vec<SecurityRequirement>>,
    /// Minimum client capabilities for `resources/read`.
    pub client_requirements: Option<Value>,
    /// `x-*` members.
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// A Resource Template declaration.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceTemplate {
    /// Scope.
    pub protocol_versions: Option<Vec<String>>,
    /// RFC 6570 template.
    pub uri_template: String,
    /// Name.
    pub name: String,
    /// Title.
    pub title: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// MIME type.
    pub mime_type: Option<String>,
    /// Resource Annotations.
    pub annotations: Option<Value>,
    /// Icons.
    pub icons: Option<Vec<Icon>>,
    /// Named read results.
    pub examples: Option<BTreeMap<String, Value>>,
    /// Named completion examples.
    pub completion_examples: Option<BTreeMap<String, Value>>,
    /// Tags.
    pub tags: Option<Vec<String>>,
    /// Elicitation Declarations.
    pub elicitations: Option<Vec<ElicitationDeclaration>>,
    /// Deprecated flag.
    pub deprecated: Option<bool>,
    /// Literal MCP metadata.
    #[serde(rename = "_meta")]
    pub meta: Option<Meta>,
    /// Security override.
    pub security: Option<Vec<SecurityRequirement>>,
    /// Minimum client capabilities for `resources/read`.
    pub client_requirements: Option<Value>,
    /// `x-*` members.
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// A Prompt declaration.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Prompt {
    /// Scope.
    pub protocol_versions: Option<Vec<String>>,
    /// Name.
    pub name: String,
    /// Title.
    pub title: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Arguments.
    pub arguments: Option<Vec<Value>>,
    /// Icons.
    pub icons: Option<Vec<Icon>>,
    /// Named get results.
    pub examples: Option<BTreeMap<String, Value>>,
    /// Named completion examples.
    pub completion_examples: Option<BTreeMap<String, Value>>,
    /// Tags.
    pub tags: Option<Vec<String>>,
    /// Elicitation Declarations.
    pub elicitations: Option<Vec<ElicitationDeclaration>>,
    /// Deprecated flag.
    pub deprecated: Option<bool>,
    /// Literal MCP metadata.
    #[serde(rename = "_meta")]
    pub meta: Option<Meta>,
    /// Security override.
    pub security: Option<Vec<SecurityRequirement>>,
    /// Minimum client capabilities for `prompts/get`.
    pub client_requirements: Option<Value>,
    /// `x-*` members.
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// A Tag Object of the catalogue.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Tag {
    /// Unique name.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// `x-*` members.
    #[serde(flatten)]
    pub extensions: Extensions,
}
